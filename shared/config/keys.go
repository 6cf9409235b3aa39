package config

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// eachValue calls fn with every value under n, mapping values and list
// items alike, the dotted key it sits at (a list item as key[i]) and its
// mapping key (nil for a list item), outer values before the values
// inside them. An anchored or tagged value is passed as it is written, and
// walked through.
func eachValue(n ast.Node, key string, fn func(key string, k ast.MapKeyNode, value ast.Node)) {
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			eachValue(v, key, fn)
		}
	case *ast.MappingValueNode:
		k := joinKey(key, keyText(n.Key))
		fn(k, n.Key, n.Value)
		eachValue(n.Value, k, fn)
	case *ast.SequenceNode:
		for i, v := range n.Values {
			k := fmt.Sprintf("%s[%d]", key, i)
			fn(k, nil, v)
			eachValue(v, k, fn)
		}
	case *ast.TagNode:
		eachValue(n.Value, key, fn)
	case *ast.AnchorNode:
		eachValue(n.Value, key, fn)
	}
}

// keyText is a mapping key as the file means it: a quoted key without its
// quotes.
func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return k.GetToken().Value
}

// tokenKey returns the dotted key of the value whose token is tk (with
// keys, of the mapping key whose token is tk), and whether the document
// has one.
func tokenKey(body ast.Node, tk *token.Token, keys bool) (string, bool) {
	found, ok := "", false
	eachValue(body, "", func(key string, k ast.MapKeyNode, v ast.Node) {
		switch {
		case ok:
		case keys && k != nil && k.GetToken() == tk, !keys && holdsToken(v, tk):
			found, ok = key, true
		}
	})
	return found, ok
}

// holdsToken reports whether v, or the value an anchor or a tag on it
// wraps, starts with the token tk.
func holdsToken(v ast.Node, tk *token.Token) bool {
	for v != nil {
		if v.GetToken() == tk {
			return true
		}
		switch w := v.(type) {
		case *ast.TagNode:
			v = w.Value
		case *ast.AnchorNode:
			v = w.Value
		default:
			return false
		}
	}
	return false
}

// keyedError restates a decoding error by the key it is about, in the
// file's words ("evm.chains.base.chain_id: want a number, got a string
// (line 4)"), instead of the decoder's Go struct path. It never quotes a
// value: the line may hold an environment variable's. It returns nil for
// an error it cannot place.
func keyedError(body ast.Node, err error) error {
	var (
		typ  *yaml.TypeError
		over *yaml.OverflowError
		node *yaml.UnexpectedNodeTypeError
		unk  *yaml.UnknownFieldError
		dup  *yaml.DuplicateKeyError
	)
	var tk *token.Token
	var keys bool
	var what string
	switch {
	case errors.As(err, &typ):
		tk, what = typ.Token, fmt.Sprintf("want %s, got %s", typeWords(typ.DstType), typeWords(typ.SrcType))
	case errors.As(err, &over):
		tk, what = over.Token, "out of range"+rangeWords(over.DstType)
	case errors.As(err, &node):
		tk, what = node.Token, fmt.Sprintf("want %s, got %s", nodeWords(node.Expected), nodeWords(node.Actual))
	case errors.As(err, &unk):
		tk, keys, what = unk.Token, true, "unknown key"
	case errors.As(err, &dup):
		tk, keys, what = dup.Token, true, "given twice"
	default:
		return nil
	}
	if tk == nil {
		return nil
	}
	key, ok := tokenKey(body, tk, keys)
	if !ok {
		return nil
	}
	return fmt.Errorf("%s: %s (line %d)", key, what, tk.Position.Line)
}

// typeWords says what a value of Go type t is in the file's words.
func typeWords(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	if t == reflect.TypeFor[time.Duration]() {
		return "a duration (300ms, 2s, 1m)"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return typeWords(t.Elem())
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return t.String()
}

// rangeWords says what numbers a Go integer type holds: " (0 to 255)".
func rangeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf(" (0 to %d)", ^uint64(0)>>(64-t.Bits()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		top := int64(^uint64(0) >> (65 - t.Bits()))
		return fmt.Sprintf(" (%d to %d)", -top-1, top)
	}
	return ""
}

// nodeWords says what a YAML node of type t is in the file's words.
func nodeWords(t ast.NodeType) string {
	switch t {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	case ast.IntegerType, ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "true or false"
	case ast.NullType:
		return "nothing"
	case ast.StringType, ast.LiteralType:
		return "a string"
	}
	return t.YAMLName()
}
