package broadcaster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ledger is a chain that takes every transaction and, when confirm is set,
// calls every one it took confirmed; otherwise its status calls hang until
// the caller gives up, as a node that stopped answering does.
type ledger struct {
	confirm bool
	mu      sync.Mutex
	taken   map[string]bool
}

func (l *ledger) Send(_ context.Context, tx wire.SignedTx) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.taken == nil {
		l.taken = map[string]bool{}
	}
	l.taken[tx.Signature] = true
	return nil
}

func (l *ledger) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	if !l.confirm {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		if l.taken[s] {
			out[i].State = wire.StateConfirmed
		}
	}
	return out, nil
}

func (l *ledger) Height(context.Context) (uint64, error) { return 1, nil }

// TestStuckChainDelaysNoOther: a chain whose node stops answering status
// calls holds up the confirmations of no other chain, and the orders a poll
// finds confirmed together are all settled, each with its own record.
// Before each chain had a clock of its own, every poll of the other chain
// waited out the stuck chain's five-second status call.
func TestStuckChainDelaysNoOther(t *testing.T) {
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{
		wire.ChainSolana: &ledger{confirm: true},
		wire.ChainBase:   &ledger{},
	})
	stuck := wire.SignedTx{Wallet: "w-stuck", Signature: "sig-stuck", Raw: []byte{1}}
	if r := p.send(t, batchOf("o-stuck", wire.ChainBase, wire.FamilyEVM, stuck)); r.Error != nil {
		t.Fatalf("stuck chain's order answered %+v", r.Error)
	}
	// The stuck chain's first status call now hangs.
	time.Sleep(100 * time.Millisecond) // deliberate: let the stuck poll start
	const n = 20
	for i := range n {
		tx := wire.SignedTx{Wallet: fmt.Sprintf("w-%d", i), Signature: fmt.Sprintf("sig-%d", i), Raw: []byte{1}}
		if r := p.send(t, batchOf(fmt.Sprintf("o-%d", i), wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
			t.Fatalf("order %d answered %+v", i, r.Error)
		}
	}
	for i := range n {
		// Well inside the stuck call's five seconds.
		o := p.orderIn(t, fmt.Sprintf("o-%d", i), 2*time.Second, wire.StateConfirmed)
		if len(o.Signatures) != 1 || o.Signatures[0].Signature != fmt.Sprintf("sig-%d", i) {
			t.Fatalf("order %d signatures %+v", i, o.Signatures)
		}
	}
	if o := p.orderIn(t, "o-stuck", time.Second, wire.StateBroadcast, wire.StatePending); o.State == wire.StateConfirmed {
		t.Fatalf("the stuck chain's order is %s", o.State)
	}
}

// TestTrackingOfAStoppedBroadcasterAdopted: what another broadcaster
// tracked and stopped settling (it was stopped for good) is taken over by
// a broadcaster that was already running, once it stayed unsettled for
// AdoptAfter; before, it waited for a broadcaster to start.
func TestTrackingOfAStoppedBroadcasterAdopted(t *testing.T) {
	p := newPipeline(t)
	ctx := context.Background()
	tx := wire.SignedTx{Wallet: "w-peer", Signature: "sig-peer", Raw: []byte{1}}
	// The other broadcaster sends the order, tracks it, and stops.
	stopPeer := p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: &ledger{}})
	if r := p.send(t, batchOf("o-peer", wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	stopPeer()
	e, err := p.bus.Buckets.Tracking.Get(ctx, "o-peer")
	if err != nil {
		t.Fatal(err)
	}
	// This one was running already: what it loaded at its start did not
	// hold the order.
	if err := p.bus.Buckets.Tracking.Delete(ctx, "o-peer"); err != nil {
		t.Fatal(err)
	}
	chain := &ledger{confirm: true, taken: map[string]bool{"sig-peer": true}}
	p.start(t, Config{Poll: 20 * time.Millisecond, AdoptEvery: 50 * time.Millisecond, AdoptAfter: 300 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: chain})
	time.Sleep(100 * time.Millisecond) // deliberate: the broadcaster is past its start
	if _, err := p.bus.Buckets.Tracking.Put(ctx, "o-peer", e.Value()); err != nil {
		t.Fatal(err)
	}
	if o := p.orderIn(t, "o-peer", 100*time.Millisecond, wire.StateBroadcast, wire.StatePending, wire.StateConfirmed); o.State == wire.StateConfirmed {
		t.Fatal("settled before it was listed for AdoptAfter: a live peer's order is not taken over at once")
	}
	p.orderIn(t, "o-peer", 3*time.Second, wire.StateConfirmed)
	poll.Until(t, 2*time.Second, "the settled order's tracking purged", func() bool {
		_, err := p.bus.Buckets.Tracking.Get(ctx, "o-peer")
		return err != nil
	})
}
