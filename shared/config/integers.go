package config

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// isIntegerKey matches the keys of the whole-number settings (counts,
// lamports, chain ids), durations apart (checkDurations).
var isIntegerKey = keyMatcher(keysWhere(reflect.TypeFor[Config](), "", func(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return t != reflect.TypeFor[time.Duration]()
	}
	return false
}))

// checkIntegers refuses, by its key, a whole-number setting written as a
// fraction or as a quoted string, before the document is decoded: the
// decoder truncates 0.9 to 0 (pipeline.max_pending 0 turns the backlog's
// bound off) and reads "8453" as the number, where a wrong type is an
// error. A whole number in any notation (10, 10.0, 1e4) is one; so is a
// value an environment variable gave (fromEnv) that holds one, which is
// never printed.
func checkIntegers(body ast.Node, fromEnv map[*ast.StringNode]bool) error {
	var errs []error
	eachValue(body, "", func(key string, _ ast.MapKeyNode, v ast.Node) {
		if !isIntegerKey.MatchString(key) {
			return
		}
		if a, ok := v.(*ast.AnchorNode); ok {
			v = a.Value
		}
		line := 0
		if tk := v.GetToken(); tk != nil && tk.Position != nil {
			line = tk.Position.Line
		}
		switch v := v.(type) {
		case *ast.FloatNode:
			lit := v.GetToken().Value
			n, _ := number(lit)
			switch {
			case !whole(lit):
				errs = append(errs, fmt.Errorf("%s: %s is not a whole number (line %d)", key, lit, line))
			case !inRange(n):
				errs = append(errs, fmt.Errorf("%s: %s is %s (line %d)", key, lit, outOfRange(lit), line))
			}
		case *ast.StringNode:
			quoted := v.GetToken() != nil && v.GetToken().Type != token.StringType
			n, isNumber := number(v.Value)
			switch {
			case !isNumber || quoted && !fromEnv[v]:
				errs = append(errs, fmt.Errorf("%s: want a number, got a string (line %d)", key, line))
			case !n.IsInt() && fromEnv[v]:
				errs = append(errs, fmt.Errorf("%s: its environment variable does not hold a whole number (line %d)", key, line))
			case !n.IsInt():
				errs = append(errs, fmt.Errorf("%s: %s is not a whole number (line %d)", key, v.Value, line))
			case !inRange(n) && fromEnv[v]:
				errs = append(errs, fmt.Errorf("%s: its environment variable holds a number out of range (line %d)", key, line))
			case !inRange(n):
				errs = append(errs, fmt.Errorf("%s: %s is %s (line %d)", key, v.Value, outOfRange(v.Value), line))
			}
		}
	})
	return errors.Join(errs...)
}

// outOfRange says why a whole number the decoder cannot read exactly is
// refused: one written as a plain integer is too large for any setting
// (the decoder reads a plain integer past 2^64 as a fraction); another is
// past what its notation keeps exact.
func outOfRange(lit string) string {
	if plain.MatchString(lit) {
		return "too large for this setting"
	}
	return "out of range written so: a figure past 2^53 is written as a plain integer"
}

// plain matches an integer written with digits alone.
var plain = regexp.MustCompile(`^[-+]?[0-9]+$`)

// inRange reports whether a whole number written as a fraction or a
// string is one the decoder reads exactly: it converts such a value through
// a float64, which is exact only to 2^53 and wraps past 2^63 without a
// word. A larger figure is written as a plain integer.
func inRange(n *big.Float) bool {
	const exact = 1 << 53
	return n != nil && n.Cmp(big.NewFloat(-exact)) >= 0 && n.Cmp(big.NewFloat(exact)) <= 0
}

// whole reports whether lit is a number with no fraction.
func whole(lit string) bool {
	f, ok := number(lit)
	return ok && f.IsInt()
}

// number reads lit as a decimal number, in any notation.
func number(lit string) (*big.Float, bool) {
	f, _, err := big.ParseFloat(lit, 10, 256, big.ToNearestEven)
	return f, err == nil
}
