// Package poll is how the project's tests wait: for a condition that
// another goroutine, process or chain makes true, checked every few
// milliseconds until a deadline. A test never sleeps to synchronise; it
// polls a condition it can name, so a slow machine only makes it slower,
// and a failure says what did not happen.
package poll

import (
	"testing"
	"time"
)

// Interval is the pause between two checks: short enough that a test waits
// at most a few milliseconds past the moment its condition holds.
const Interval = 5 * time.Millisecond

// Until checks cond until it holds, failing the test with what when it has
// not held within the given time.
func Until(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not true within %v", what, within)
		}
		time.Sleep(Interval)
	}
}

// Value calls fn until it reports ok and returns its value, failing the
// test with what when it has not within the given time.
func Value[T any](t testing.TB, within time.Duration, what string, fn func() (T, bool)) T {
	t.Helper()
	var v T
	Until(t, within, what, func() bool {
		var ok bool
		v, ok = fn()
		return ok
	})
	return v
}

// True reports whether cond holds within the given time, for a test that
// must decide what to do either way (a condition that must not become
// true is checked by asserting it stays false until a later event).
func True(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(Interval)
	}
	return true
}
