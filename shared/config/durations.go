package config

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// checkDurations names the key of every duration the file spells wrong.
// The decoder's own error for one says only `time: invalid duration
// "soon"`, which leaves an operator searching the file for it.
func checkDurations(body ast.Node) error {
	var errs []error
	for _, key := range durationKeys(reflect.TypeFor[Config](), "") {
		var v string
		if !readPath(body, key, &v) {
			continue // absent, or a number, which the decoder judges
		}
		if _, err := time.ParseDuration(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not a duration (300ms, 2s, 1m)", key, v))
		}
	}
	return errors.Join(errs...)
}

// durationKeys lists the dotted keys of the duration settings of the
// sections under t.
func durationKeys(t reflect.Type, prefix string) []string {
	return keysOfType(t, prefix, reflect.TypeFor[time.Duration]())
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
