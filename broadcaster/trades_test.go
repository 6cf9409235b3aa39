package broadcaster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// gated blocks the sends of the delivery it is armed for until released.
type gated struct {
	*scripted
	armed   chan struct{}
	entered chan struct{}
	release chan struct{}
}

func (g *gated) Send(ctx context.Context, tx wire.SignedTx) error {
	select {
	case <-g.armed:
		g.entered <- struct{}{}
		<-g.release
	default:
	}
	return g.scripted.Send(ctx, tx)
}

// TestRedeliveryAfterTheSettleLeavesTheTradeHistory: a redelivery of a
// buy's batch (its ack lost) that sends again while the tracker settles
// the order failed puts the buy back on the trade history after the
// settle took it off; the delivery, finding the order final, takes it off
// again. Nothing tracks the order any more: the key stayed for good, the
// token counted bought though nothing of it landed.
func TestRedeliveryAfterTheSettleLeavesTheTradeHistory(t *testing.T) {
	sc := newScripted(map[string][]error{"sig-1": {nil}})
	g := &gated{scripted: sc, armed: make(chan struct{}, 1), entered: make(chan struct{}), release: make(chan struct{})}
	cfg := tries(3)
	cfg.Poll = 20 * time.Millisecond
	p := newPipeline(t)
	br := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: g}, p.log)
	b := batchOf("eu-stale", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Signature: "sig-1", Wallet: "w1", LastValidBlockHeight: 1000})
	ctx := context.Background()
	if err := orders.NewStore(p.bus.Buckets.Orders).Create(ctx, orders.New(orders.OfBatch(b))); err != nil {
		t.Fatal(err)
	}
	inbox := nats.NewInbox()
	now := time.Now()
	m1 := delivered(b, inbox, 1, now)
	br.handle(m1)
	key := wire.TradeKey("acct-1", wire.FamilySol, "", "token")
	val := func() string {
		e, err := p.bus.Buckets.Trades.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(e.Value())
	}
	if v := val(); v != `{"pending":["eu-stale"]}` {
		t.Fatalf("after the first delivery: %q", v)
	}
	// Delivery 2 (its ack was lost, say) reads the record, then sends.
	g.armed <- struct{}{}
	done := make(chan struct{})
	go func() { br.handle(delivered(b, inbox, 2, now)); close(done) }()
	<-g.entered
	// Meanwhile the transaction lands failed and the tracker settles it.
	sc.set(func() { sc.failed["sig-1"] = true })
	tctx, cancel := context.WithCancel(ctx)
	go br.tracker.run(tctx)
	deadline := time.Now().Add(5 * time.Second)
	for val() != "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if v := val(); v != "" {
		t.Fatalf("after the settle: %q", v)
	}
	close(g.release)
	<-done
	cancel()
	o, _ := orders.NewStore(p.bus.Buckets.Orders).Get(ctx, b.OrderID)
	if v := val(); v != "" {
		t.Errorf("order %s, its trade history stays %s after the redelivery", o.State, v)
	}
}

// TestBuyHandedBackCountsOnceItMayHaveLanded: a buy whose send may have
// reached the chain (no answer), handed back for another try, is on its
// token's trade history from that delivery: a failed buy of the token
// settled meanwhile leaves the key to it, where it was added only by the
// delivery that settled it (seconds later, or never).
func TestBuyHandedBackCountsOnceItMayHaveLanded(t *testing.T) {
	timeout := errors.New("read tcp 127.0.0.1:1: i/o timeout")
	sc := newScripted(map[string][]error{"sig-1": {timeout, nil}})
	p := newPipeline(t)
	br := New(tries(3), p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: sc}, p.log)
	b := batchOf("eu-again", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Signature: "sig-1", Wallet: "w1", LastValidBlockHeight: 1000})
	ctx := context.Background()
	if err := orders.NewStore(p.bus.Buckets.Orders).Create(ctx, orders.New(orders.OfBatch(b))); err != nil {
		t.Fatal(err)
	}
	m := delivered(b, nats.NewInbox(), 1, time.Now())
	br.handle(m)
	if m.end == "ack" {
		t.Fatal("a send without an answer was not handed back")
	}
	key := wire.TradeKey("acct-1", wire.FamilySol, "", "token")
	if e, err := p.bus.Buckets.Trades.Get(ctx, key); err != nil || string(e.Value()) != `{"pending":["eu-again"]}` {
		t.Fatalf("a buy handed back after a send that may have landed: its trade history %v", err)
	}
	// Another buy of the token failing leaves the key to it.
	if err := br.joinTrade(ctx, key, "eu-failed"); err != nil {
		t.Fatal(err)
	}
	if deleted, err := br.leaveTrade(ctx, key, "eu-failed"); err != nil || deleted {
		t.Fatalf("the failed buy's leave deleted the key (%v, %v)", deleted, err)
	}
}

// TestHandedBackAfterTheSettleLeavesTheTradeHistory: a redelivery whose
// re-send gets no answer while the tracker settles the order failed joins
// the trade history after the settle left it, as a buy handed back does;
// the next delivery, answering from the record (every transaction settled
// before), settles the history again. It did not, and the key stayed for
// good.
func TestHandedBackAfterTheSettleLeavesTheTradeHistory(t *testing.T) {
	timeout := errors.New("read tcp 127.0.0.1:1: i/o timeout")
	sc := newScripted(map[string][]error{"sig-1": {nil, timeout}})
	g := &gated{scripted: sc, armed: make(chan struct{}, 1), entered: make(chan struct{}), release: make(chan struct{})}
	cfg := tries(3)
	cfg.Poll = 20 * time.Millisecond
	p := newPipeline(t)
	br := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: g}, p.log)
	b := batchOf("eu-stale2", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Signature: "sig-1", Wallet: "w1", LastValidBlockHeight: 1000})
	ctx := context.Background()
	if err := orders.NewStore(p.bus.Buckets.Orders).Create(ctx, orders.New(orders.OfBatch(b))); err != nil {
		t.Fatal(err)
	}
	inbox := nats.NewInbox()
	now := time.Now()
	br.handle(delivered(b, inbox, 1, now))
	key := wire.TradeKey("acct-1", wire.FamilySol, "", "token")
	val := func() string {
		e, err := p.bus.Buckets.Trades.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(e.Value())
	}
	g.armed <- struct{}{}
	done := make(chan struct{})
	m2 := delivered(b, inbox, 2, now)
	go func() { br.handle(m2); close(done) }()
	<-g.entered
	sc.set(func() { sc.failed["sig-1"] = true })
	tctx, cancel := context.WithCancel(ctx)
	go br.tracker.run(tctx)
	deadline := time.Now().Add(5 * time.Second)
	for val() != "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if v := val(); v != "" {
		t.Fatalf("after the settle: %q", v)
	}
	close(g.release)
	<-done
	cancel()
	if v := val(); m2.end != "nak" || v != `{"pending":["eu-stale2"]}` {
		t.Fatalf("delivery 2 ended %q, the key %q: want it handed back, on the list", m2.end, v)
	}
	m3 := delivered(b, inbox, 3, now)
	br.handle(m3)
	o, _ := orders.NewStore(p.bus.Buckets.Orders).Get(ctx, b.OrderID)
	if v := val(); v != "" {
		t.Errorf("order %s (delivery 3 ended %q): its trade history stays %s for good", o.State, m3.end, v)
	}
}
