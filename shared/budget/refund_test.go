package budget

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestRefund gives charges back: the windows they were counted in lose one
// unit each, and a window that rolled over since keeps its own count.
func TestRefund(t *testing.T) {
	lim := Limits{Minute: 10, Hour: 100, Week: 1000}
	tests := []struct {
		name    string
		charges int
		// advance moves the clock between the charges and the refund.
		advance time.Duration
		// after charges in the new windows before the refund.
		after int
		want  [3]int64 // stored counts of minute, hour, week after the refund
		left  Limits   // Remaining of the refund's state
	}{
		{"same windows", 3, 0, 0, [3]int64{2, 2, 2}, Limits{8, 98, 998}},
		{"only charge", 1, 0, 0, [3]int64{0, 0, 0}, Limits{10, 100, 1000}},
		// wed has 40 s left in its minute: 41 s later the minute is new.
		{"minute rolled over", 3, 41 * time.Second, 2, [3]int64{2, 4, 4}, Limits{8, 96, 996}},
		// 25 min 40 s left in the hour.
		{"hour rolled over", 2, 26 * time.Minute, 1, [3]int64{1, 1, 2}, Limits{9, 99, 998}},
	}
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock(wed)
			b := newBudget(t, kv, clk, false)
			acct := fmt.Sprintf("acct-refund-%d", i)
			var first State
			for n := range tt.charges {
				st, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					first = st
				}
			}
			clk.Set(wed.Add(tt.advance))
			for range tt.after {
				if _, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim); err != nil {
					t.Fatal(err)
				}
			}
			st, err := b.Refund(ctxT(t), acct, wire.FamilySol, lim, first)
			if err != nil {
				t.Fatal(err)
			}
			rec, _ := stored(t, kv, acct, wire.FamilySol)
			if got := [3]int64{rec[0].count, rec[1].count, rec[2].count}; got != tt.want {
				t.Fatalf("stored counts %v, want %v", got, tt.want)
			}
			if st.Remaining != tt.left || st.Limits != lim {
				t.Fatalf("state after the refund %+v, want remaining %+v", st, tt.left)
			}
			if peek := b.Peek(acct, wire.FamilySol, lim); peek.Remaining != tt.left {
				t.Fatalf("Peek after the refund %+v, want %+v", peek.Remaining, tt.left)
			}
		})
	}
}

// TestRefundExactAcrossProcesses refunds half of many charges from two
// connections at once, racing further charges: every refund takes exactly
// one unit off, whoever wins each compare-and-set.
func TestRefundExactAcrossProcesses(t *testing.T) {
	srv := startServer(t)
	clk := newClock(wed)
	kvs := []jetstream.KeyValue{openKV(t, srv, "ingress-eu"), openKV(t, srv, "ingress-us")}
	bs := []*Budget{newBudget(t, kvs[0], clk, true), newBudget(t, kvs[1], clk, true)}
	lim := Limits{Minute: 1000, Hour: 1000, Week: 1000}
	const acct, charges = "acct-refund-race", 40
	states := make([]State, charges)
	for i := range states {
		st, err := bs[i%2].Charge(ctxT(t), acct, wire.FamilySol, lim)
		if err != nil {
			t.Fatal(err)
		}
		states[i] = st
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*charges)
	start := make(chan struct{})
	for i := range charges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			b := bs[i%2]
			if i%2 == 0 {
				_, err := b.Refund(ctxT(t), acct, wire.FamilySol, lim, states[i])
				errs <- err
				return
			}
			_, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim)
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// 40 charges, then 20 refunds and 20 more charges.
	rec, _ := stored(t, kvs[0], acct, wire.FamilySol)
	for w := range rec {
		if rec[w].count != charges {
			t.Errorf("%s count %d, want %d", windows[w], rec[w].count, charges)
		}
	}
}

// TestRefundsUnderContention: two processes each refund half of 128
// charges of one account while charging 64 more, all at once, as the
// concurrent requests of a bot on both Solana hosts whose orders the
// signer refuses would: every refund and charge succeeds (a refund joins
// its process's batches of charges instead of losing race after race to
// them) and the counts are exact.
func TestRefundsUnderContention(t *testing.T) {
	srv := startServer(t)
	clk := newClock(wed)
	kvs := []jetstream.KeyValue{openKV(t, srv, "ingress-eu"), openKV(t, srv, "ingress-us")}
	// Each write takes a network's round trip, as it does in production,
	// so that the requests' writes overlap.
	bs := []*Budget{newBudget(t, slowKV{kvs[0]}, clk, true), newBudget(t, slowKV{kvs[1]}, clk, true)}
	lim := Limits{Minute: 10000, Hour: 10000, Week: 10000}
	const acct, n = "acct-refund-contention", 256
	states := make([]State, n)
	for i := range states {
		st, err := bs[i%2].Charge(ctxT(t), acct, wire.FamilySol, lim)
		if err != nil {
			t.Fatal(err)
		}
		states[i] = st
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			b := bs[i%2]
			var err error
			if i%4 < 2 {
				_, err = b.Refund(ctxT(t), acct, wire.FamilySol, lim, states[i])
			} else {
				_, err = b.Charge(ctxT(t), acct, wire.FamilySol, lim)
			}
			errs <- err
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	rec, _ := stored(t, kvs[0], acct, wire.FamilySol)
	for w := range rec {
		if rec[w].count != n {
			t.Errorf("%s count %d, want %d", windows[w], rec[w].count, n)
		}
	}
}

// slowKV is a bucket whose writes take a millisecond more.
type slowKV struct{ jetstream.KeyValue }

func (kv slowKV) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	time.Sleep(time.Millisecond)
	return kv.KeyValue.Update(ctx, key, value, rev)
}

func TestRefundRefusals(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	b := newBudget(t, kv, newClock(wed), false)
	lim := Limits{Minute: 1, Hour: 10, Week: 10}
	if _, err := b.Refund(ctxT(t), "acct-none", wire.FamilySol, lim, State{}); !errors.Is(err, ErrNothingCharged) {
		t.Fatalf("refund of nothing: %v, want ErrNothingCharged", err)
	}
	st, err := b.Charge(ctxT(t), "acct-spent", wire.FamilySol, lim)
	if err != nil {
		t.Fatal(err)
	}
	refused, err := b.Charge(ctxT(t), "acct-spent", wire.FamilySol, lim)
	refusedIn(t, refused, err, "minute")
	if refused.Windows != ([3]int64{}) {
		t.Fatalf("a refused charge records windows %v", refused.Windows)
	}
	// The refund frees the minute again; a second refund of the same
	// charge would lend a unit, so the key's counts never go below zero.
	if _, err := b.Refund(ctxT(t), "acct-spent", wire.FamilySol, lim, st); err != nil {
		t.Fatal(err)
	}
	again, err := b.Refund(ctxT(t), "acct-spent", wire.FamilySol, lim, st)
	if err != nil || again.Remaining != lim {
		t.Fatalf("second refund: %+v %v", again, err)
	}
	rec, _ := stored(t, kv, "acct-spent", wire.FamilySol)
	if rec[0].count != 0 || rec[1].count != 0 {
		t.Fatalf("counts %+v", rec)
	}
	if _, err := b.Charge(ctxT(t), "acct-spent", wire.FamilySol, lim); err != nil {
		t.Fatalf("charge after the refund: %v", err)
	}
}
