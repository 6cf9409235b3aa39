package guard

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestGroupPanicIsAnError(t *testing.T) {
	g, ctx := WithContext(context.Background())
	g.Go(func() error {
		var none map[string]*int
		return errors.New(string(rune(*none["x"])))
	})
	g.Go(func() error { <-ctx.Done(); return nil })
	err := g.Wait()
	var p *Panic
	if !errors.As(err, &p) || !strings.Contains(p.Error(), "nil pointer") || !strings.Contains(string(p.Stack), "guard_test.go") {
		t.Fatalf("Wait: %v", err)
	}
	if err := New().Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestManyRaisesInTheCaller(t *testing.T) {
	var done atomic.Int32
	p := Catch(func() {
		Many(8, 3, func(i int) {
			if i == 5 {
				panic("leg 5")
			}
			done.Add(1)
		})
	})
	if p == nil || p.Value != "leg 5" || !strings.Contains(string(p.Stack), "guard_test.go") {
		t.Fatalf("panic %+v, want leg 5's with its stack", p)
	}
	// Every other call ran: the goroutines that did not panic went on,
	// and the one that did is the only one whose later calls others took.
	if n := done.Load(); n != 7 {
		t.Fatalf("%d calls ran besides the one that panicked, want 7", n)
	}
	var sum atomic.Int64
	Many(100, 4, func(i int) { sum.Add(int64(i)) })
	if sum.Load() != 4950 {
		t.Fatalf("sum %d", sum.Load())
	}
	if err := Run(func() error { return nil }); err != nil {
		t.Fatal(err)
	}
}
