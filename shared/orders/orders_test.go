package orders_test

import (
	"context"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestUpdateFromStored checks that an update from the record as last
// written builds on it, and that one whose record another writer changed
// since starts again from the record as it is, losing neither change.
func TestUpdateFromStored(t *testing.T) {
	b := bustest.Start(t, "orders")
	s := orders.NewStore(b.Buckets.Orders)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	seed := &wire.Order{OrderID: "o-1", State: wire.StatePending}
	written, err := s.UpdateFrom(ctx, "o-1", seed, orders.Stored{}, func(o *wire.Order) { o.State = wire.StateBroadcast })
	if err != nil {
		t.Fatal(err)
	}
	// Another process writes in between: the stored revision is stale.
	if err := s.Update(ctx, "o-1", nil, func(o *wire.Order) { o.Chain = "solana" }); err != nil {
		t.Fatal(err)
	}
	calls := 0
	written, err = s.UpdateFrom(ctx, "o-1", nil, written, func(o *wire.Order) { calls++; o.State = wire.StateConfirmed })
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "o-1")
	if err != nil {
		t.Fatal(err)
	}
	if got.State != wire.StateConfirmed || got.Chain != "solana" || calls != 2 {
		t.Fatalf("record %+v after %d calls; want confirmed on solana after a refused first write", got, calls)
	}
	// Nobody wrote since: one call, from the stored bytes.
	calls = 0
	if _, err := s.UpdateFrom(ctx, "o-1", nil, written, func(o *wire.Order) {
		calls++
		if o.Chain != "solana" || o.State != wire.StateConfirmed {
			t.Errorf("started from %+v", o)
		}
		o.Route = "pump_fun"
	}); err != nil || calls != 1 {
		t.Fatalf("%d calls, %v", calls, err)
	}
	got, _ = s.Get(ctx, "o-1")
	if got.Route != "pump_fun" || got.State != wire.StateConfirmed {
		t.Fatalf("record %+v", got)
	}
	// It ended with the write that confirmed it; the later write moved
	// updated_at, not ended_at.
	if got.EndedAt == nil || !got.EndedAt.Before(got.UpdatedAt) {
		t.Fatalf("ended %v, updated %v: the end moved with a later write", got.EndedAt, got.UpdatedAt)
	}
}

// TestSettleFollowsTheSwaps: a swap order is confirmed when a wallet's swap
// (its last transaction) confirmed; an approval that landed before a swap
// that failed confirms nothing. A launch counts every transaction.
func TestSettleFollowsTheSwaps(t *testing.T) {
	sig := func(wallet, state string) wire.SigState {
		return wire.SigState{Signature: wallet + state, Wallet: wallet, State: state}
	}
	const c, f, x, b = wire.StateConfirmed, wire.StateFailed, wire.StateExpired, wire.StateBroadcast
	for _, tc := range []struct {
		name string
		kind string
		sigs []wire.SigState
		want string
	}{
		{"one swap confirmed", wire.KindSwap, []wire.SigState{sig("A", c)}, c},
		{"approval and swap confirmed", wire.KindSwap, []wire.SigState{sig("A", c), sig("A", c)}, c},
		{"approval landed, swap reverted", wire.KindSwap, []wire.SigState{sig("A", c), sig("A", f)}, f},
		{"approval landed, swap expired", wire.KindSwap, []wire.SigState{sig("A", c), sig("A", x)}, f},
		{"one wallet's swap of two", wire.KindSwap, []wire.SigState{sig("A", c), sig("A", f), sig("B", c)}, c},
		{"a swap still out", wire.KindSwap, []wire.SigState{sig("A", c), sig("A", b)}, b},
		{"all expired", wire.KindSwap, []wire.SigState{sig("A", x), sig("B", x)}, x},
		{"a launch with its create landed", wire.KindDeploy, []wire.SigState{sig("A", c), sig("A", f)}, c},
	} {
		o := &wire.Order{Kind: tc.kind, State: wire.StatePending, Signatures: tc.sigs}
		orders.Settle(o)
		if o.State != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, o.State, tc.want)
		}
	}
}
