package config

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/goccy/go-yaml/ast"
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
// fraction or as a string, before the document is decoded: the decoder
// truncates 0.9 to 0 (pipeline.max_pending 0 turns the backlog's bound
// off) and reads "8453" as the number, where a wrong type is an error.
// An environment reference expands to a string, so it cannot fill one.
func checkIntegers(body ast.Node) error {
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
			errs = append(errs, fmt.Errorf("%s: %s is not a whole number (line %d)", key, v.GetToken().Value, line))
		case *ast.StringNode:
			errs = append(errs, fmt.Errorf("%s: want a number, got a string (line %d)", key, line))
		}
	})
	return errors.Join(errs...)
}
