package broadcaster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
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

// settleRace is a buy's batch delivered a second time (its first
// delivery's ack lost) whose send is held while its transaction lands
// failed and the tracker settles the order: the delivery then goes on,
// after the settle took the buy off its token's trade history.
type settleRace struct {
	p      *pipeline
	br     *Broadcaster
	b      *wire.TxBatch
	inbox  string
	now    time.Time
	second *heldBatch
}

// raceTheSettle runs the scene for order id, whose one transaction's sends
// answer as script says, and returns once the second delivery ended.
func raceTheSettle(t *testing.T, id string, script []error) *settleRace {
	t.Helper()
	sc := newScripted(map[string][]error{"sig-1": script})
	g := &gated{scripted: sc, armed: make(chan struct{}, 1), entered: make(chan struct{}), release: make(chan struct{})}
	cfg := tries(3)
	cfg.Poll = 20 * time.Millisecond
	r := &settleRace{p: newPipeline(t), inbox: nats.NewInbox(), now: time.Now()}
	r.br = New(cfg, r.p.bus.Conn, r.p.bus.JS, r.p.bus.Buckets, map[string]Chain{wire.ChainSolana: g}, r.p.log)
	r.b = batchOf(id, wire.ChainSolana, wire.FamilySol, wire.SignedTx{Signature: "sig-1", Wallet: "w1", LastValidBlockHeight: 1000})
	ctx := context.Background()
	if err := orders.NewStore(r.p.bus.Buckets.Orders).Create(ctx, orders.New(orders.OfBatch(r.b))); err != nil {
		t.Fatal(err)
	}
	r.br.handle(delivered(r.b, r.inbox, 1, r.now))
	if v := r.trade(t); v != `{"pending":["`+id+`"]}` {
		t.Fatalf("after the first delivery: %q", v)
	}
	g.armed <- struct{}{}
	done := make(chan struct{})
	r.second = delivered(r.b, r.inbox, 2, r.now)
	go func() { r.br.handle(r.second); close(done) }()
	<-g.entered
	sc.set(func() { sc.failed["sig-1"] = true })
	tctx, cancel := context.WithCancel(ctx)
	go r.br.tracker.run(tctx)
	poll.Until(t, 5*time.Second, "the settle takes the buy off", func() bool { return r.trade(t) == "" })
	close(g.release)
	<-done
	cancel()
	return r
}

// trade is the value of the buy's trade-history key, "" when there is none.
func (r *settleRace) trade(t *testing.T) string {
	t.Helper()
	e, err := r.p.bus.Buckets.Trades.Get(context.Background(), wire.TradeKey("acct-1", wire.FamilySol, "", "token"))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(e.Value())
}

// TestRedeliveryAfterTheSettleLeavesTheTradeHistory: a redelivery of a
// buy's batch that sends again while the tracker settles the order failed
// puts the buy back on the trade history after the settle took it off; the
// delivery, finding the order final, takes it off again. Nothing tracks
// the order any more: the key stayed for good, the token counted bought
// though nothing of it landed.
func TestRedeliveryAfterTheSettleLeavesTheTradeHistory(t *testing.T) {
	t.Parallel()
	r := raceTheSettle(t, "eu-stale", []error{nil})
	if v := r.trade(t); v != "" {
		t.Errorf("its trade history stays %s after the redelivery (it ended %q)", v, r.second.end)
	}
}

// TestHandedBackAfterTheSettleLeavesTheTradeHistory: a redelivery whose
// re-send gets no answer while the tracker settles the order failed joins
// the trade history after the settle left it, as a buy handed back does;
// the next delivery, answering from the record (every transaction settled
// before), settles the history again. It did not, and the key stayed for
// good.
func TestHandedBackAfterTheSettleLeavesTheTradeHistory(t *testing.T) {
	t.Parallel()
	r := raceTheSettle(t, "eu-stale2", []error{nil, errors.New("read tcp 127.0.0.1:1: i/o timeout")})
	if v := r.trade(t); r.second.end != "nak" || v != `{"pending":["eu-stale2"]}` {
		t.Fatalf("the second delivery ended %q, the key %q: want it handed back, on the list", r.second.end, v)
	}
	third := delivered(r.b, r.inbox, 3, r.now)
	r.br.handle(third)
	if v := r.trade(t); v != "" {
		t.Errorf("its trade history stays %s after a delivery answered from the record (it ended %q)", v, third.end)
	}
}

// TestBuyHandedBackCountsOnceItMayHaveLanded: a buy whose send may have
// reached the chain (no answer), handed back for another try, is on its
// token's trade history from that delivery: a failed buy of the token
// settled meanwhile leaves the key to it, where it was added only by the
// delivery that settled it (seconds later, or never).
func TestBuyHandedBackCountsOnceItMayHaveLanded(t *testing.T) {
	t.Parallel()
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
