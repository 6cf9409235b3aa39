package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
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

// bounds is the range a duration key takes, both ends included.
type bounds struct{ Min, Max time.Duration }

// The ranges of the duration keys. Past either end the service does not
// work: an order's whole wait under a second has it answered 504 while it
// trades, an RPC call's time under 100ms fails every call of a remote
// node, a poll under 10ms is a loop against the node; and hours where
// seconds are meant (2540400h) is no bound at all, and past the range of a
// clock reading. Each upper end is far above any use.
var (
	// requestTimeoutBounds: at most the streams' 2-minute window in which
	// a repeated publish of the same order is dropped.
	requestTimeoutBounds = bounds{time.Second, 2 * time.Minute}
	// jobMaxAgeBounds: the job's signing has this long too (its reads of
	// the chain share it); at most 10 minutes, past which a bot that saw
	// 504 would not expect its trade.
	jobMaxAgeBounds      = bounds{time.Second, 10 * time.Minute}
	rpcTimeoutBounds     = bounds{100 * time.Millisecond, 2 * time.Minute}
	pollBounds           = bounds{10 * time.Millisecond, time.Minute}
	confirmTimeoutBounds = bounds{time.Second, time.Hour}
	resolveTTLBounds     = bounds{0, time.Hour}
)

// check refuses d at key outside b, naming the range.
func (b bounds) check(key string, d time.Duration) error {
	if d < b.Min || d > b.Max {
		return fmt.Errorf("%s: %s is not %s to %s", key, shortDuration(d), shortDuration(b.Min), shortDuration(b.Max))
	}
	return nil
}

// shortDuration is d as a file writes it: 10m, not 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
