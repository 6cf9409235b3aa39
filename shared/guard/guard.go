// Package guard runs the goroutines of one piece of work so that a panic
// in any of them (a defect met by one order's data) comes back to the
// goroutine that waits for them, where the handler of that work recovers
// it, instead of stopping the process and every other order in it: Go's
// recover sees only the panics of its own goroutine.
package guard

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Panic is a recovered panic: its value and the stack of the goroutine
// that panicked.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Catch calls f and returns its panic, nil when it returned.
func Catch(f func()) (p *Panic) {
	defer func() {
		if v := recover(); v != nil {
			if inner, ok := v.(*Panic); ok {
				p = inner
				return
			}
			p = &Panic{Value: v, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}

// Run calls f and returns its error, or its panic as a *Panic.
func Run(f func() error) (err error) {
	if p := Catch(func() { err = f() }); p != nil {
		return p
	}
	return err
}

// Group is an errgroup.Group whose goroutines' panics are errors (a
// *Panic) that Wait returns, as the first error of a group is.
type Group struct{ g *errgroup.Group }

// New returns an empty group.
func New() *Group { return &Group{g: new(errgroup.Group)} }

// WithContext returns a group and a context cancelled when a goroutine of
// the group fails or panics, or Wait returns (errgroup.WithContext).
func WithContext(ctx context.Context) (*Group, context.Context) {
	g, ctx := errgroup.WithContext(ctx)
	return &Group{g: g}, ctx
}

// SetLimit bounds the goroutines running at once (errgroup's SetLimit).
func (g *Group) SetLimit(n int) { g.g.SetLimit(n) }

// Go runs f in a goroutine of the group.
func (g *Group) Go(f func() error) { g.g.Go(func() error { return Run(f) }) }

// Wait waits for the group's goroutines and returns the first error.
func (g *Group) Wait() error { return g.g.Wait() }

// Many calls f(0) to f(n-1) on up to workers goroutines, the caller's
// among them, and returns once every call has; a panic in any call is
// raised again in the caller's goroutine then (the first, with the stack
// where it happened), so that whoever recovers the caller's panics sees
// it and no call is left half done unnoticed.
func Many(n, workers int, f func(i int)) {
	workers = min(n, workers)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var first atomic.Pointer[Panic]
	run := func() {
		if p := Catch(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}); p != nil {
			first.CompareAndSwap(nil, p)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	if p := first.Load(); p != nil {
		panic(p)
	}
}
