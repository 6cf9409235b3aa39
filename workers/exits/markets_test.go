package exits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// openFillPosition stores a buy of token by account and its position with
// one exit, from fill as the chain read it.
func openFillPosition(t *testing.T, e *Engine, orderID string, f *Fill, x wire.AutoOrder) *wire.Position {
	t.Helper()
	ctx := context.Background()
	o := &wire.Order{OrderID: orderID, AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: f.Token, AutoOrders: []wire.AutoOrder{x}, CreatedAt: time.Now()}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	p := newPosition(o, positionID(orderID, 0), "Wallet111", f, time.Now())
	if ok, err := e.create(ctx, p); err != nil || !ok {
		t.Fatalf("create position: %v %v", ok, err)
	}
	return p
}

// TestMarketsOfOneTokenReadApart: positions of one token bought where it
// trades differently (a curve priced in SOL, a pool priced in USDC), or
// watching different creators, are each read on their own market: a price
// read on one fired the exits of the others, in the wrong unit (a USDC
// position's stop-loss on a price in SOL), and one creator's balance
// fired another creator's dev_sell.
func TestMarketsOfOneTokenReadApart(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	const token = "MintTwoMarkets"
	curve := &Fill{Token: token, Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000), Dev: "DevA", DevBalance: big.NewInt(100)}
	pool := &Fill{Token: token, Venue: wire.VenuePumpSwap, Pool: "PoolUSDC", QuoteAsset: "USDC", Decimals: 6, QuoteDecimals: 6,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000), Dev: "DevA", DevBalance: big.NewInt(100)}
	otherDev := *curve
	otherDev.Dev, otherDev.DevBalance = "DevC", big.NewInt(100)
	a := openFillPosition(t, e, "eu-MarketA", curve, wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(100), SellPct: 100})
	u := openFillPosition(t, e, "eu-MarketU", pool, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(50), SellPct: 100})
	c := openFillPosition(t, e, "eu-MarketC", &otherDev, wire.AutoOrder{Type: wire.ExitDevSell, SellPct: 100})
	if n := len(e.book.tokens()); n != 3 {
		t.Fatalf("%d markets watched for three positions on three markets", n)
	}
	// The curve's price went to 2.5 times its entry, in SOL (0.005 a
	// token: far under the USDC position's entry of 2), and its creator
	// sold half.
	e.evaluate(ctx, keyOf(a), Observation{Price: parseRat("0.005"), DevBalance: big.NewInt(50), At: time.Now()})
	for _, tc := range []struct {
		p    *wire.Position
		want string
	}{{a, wire.ExitFired}, {u, wire.ExitArmed}, {c, wire.ExitArmed}} {
		got, _, err := e.load(ctx, tc.p.ID)
		if err != nil || got.Exits[0].State != tc.want {
			t.Fatalf("%s (%s on %s, creator %s): exit %+v %v, want %s", tc.p.ID, tc.p.Exits[0].Type, tc.p.Venue, tc.p.Dev,
				got.Exits[0], err, tc.want)
		}
	}
}

// eventsDown fails the publishes of exit_fired events while down is set.
type eventsDown struct {
	jetstream.JetStream
	down atomic.Bool
}

func (j *eventsDown) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if j.down.Load() && strings.HasSuffix(m.Subject, "."+string(events.ExitFired)) {
		return nil, errors.New("nats: timeout")
	}
	return j.JetStream.PublishMsg(ctx, m, opts...)
}

// eventsDownEngine is an engine resuming exits after 100 ms whose
// exit_fired events the stream does not take while js is down (it is).
func eventsDownEngine(t *testing.T) (*bustest.Bus, *Engine, *eventsDown) {
	t.Helper()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.ResumeAfter = 100 * time.Millisecond })
	t.Cleanup(e.held.stop)
	js := &eventsDown{JetStream: b.JS}
	js.down.Store(true)
	e.events = events.NewPublisher(js, slog.New(slog.DiscardHandler))
	return b, e, js
}

// TestExitFiredEventNotLost: an exit_fired event the stream does not take
// leaves its exit firing, and the exit's resume emits it and marks the
// exit fired: marked first, an exit whose event was lost (or whose engine
// died before it) was never resumed, its webhook never posted.
func TestExitFiredEventNotLost(t *testing.T) {
	t.Parallel()
	b, e, js := eventsDownEngine(t)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-EventLost", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	e.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.001"), At: time.Now()})
	got, _, err := e.load(ctx, p.ID)
	if err != nil || got.Exits[0].State != wire.ExitFiring {
		t.Fatalf("exit %+v %v: want it left firing while its event is not taken", got.Exits[0], err)
	}
	js.down.Store(false)
	poll.Until(t, 5*time.Second, "the exit resumed, its event emitted", func() bool {
		e.resumeStale(ctx)
		got, _, err := e.load(ctx, p.ID)
		return err == nil && got.Exits[0].State == wire.ExitFired && exitEvents(t, b.JS)[got.Exits[0].SellOrderID].Exit != nil
	})
	if n := jobsFor(t, b.JS, sellID(p.ID, 0, 0)); n != 1 {
		t.Fatalf("%d sell jobs, want one", n)
	}
}

// TestExitFiredEventOfASellSettledFirst: an exit_fired event the stream
// did not take leaves its exit firing for the resume to emit it again; a
// sell that lands, or fails, before the resume ends the firing, and the
// event (and its webhook) was then never emitted. Its settling emits it.
func TestExitFiredEventOfASellSettledFirst(t *testing.T) {
	t.Parallel()
	for _, end := range []string{"landed", "failed"} {
		t.Run(end, func(t *testing.T) {
			t.Parallel()
			b, e, js := eventsDownEngine(t)
			ctx := context.Background()
			p := openTestPosition(t, e, "eu-EventSettled-"+end, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
			e.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.001"), At: time.Now()})
			got, _, err := e.load(ctx, p.ID)
			if err != nil || got.Exits[0].State != wire.ExitFiring {
				t.Fatalf("exit %+v %v: want it left firing while its event is not taken", got.Exits[0], err)
			}
			sell := got.Exits[0].SellOrderID
			// The stream still refuses the event: the sell's settling is
			// handled again later, the exit left as it was.
			settle := func() error {
				if end == "landed" {
					return e.settleExit(ctx, p.ID, 0, sell)
				}
				return e.sellFailed(ctx, failedEvent(sell))
			}
			if err := settle(); err == nil {
				t.Fatal("the sell settled while its exit_fired event could not be emitted")
			}
			if got, _, _ := e.load(ctx, p.ID); got.Exits[0].State != wire.ExitFiring {
				t.Fatalf("exit %s after a settling that could not emit its event, want firing", got.Exits[0].State)
			}
			js.down.Store(false)
			if err := settle(); err != nil {
				t.Fatal(err)
			}
			if ev, ok := exitEvents(t, b.JS)[sell]; !ok || ev.Exit == nil || ev.Exit.SellOrderID != sell {
				t.Fatalf("no exit_fired event for sell %s, which %s before the resume: %+v", sell, end, ev)
			}
			if got, _, _ := e.load(ctx, p.ID); got.Exits[0].State == wire.ExitFiring {
				t.Fatal("the exit is still firing after its sell settled")
			}
		})
	}
}

// creatorless fills every buy but cannot tell the token's creator, as an
// EVM node failing the transfer-log query does.
type creatorless struct{ tokensChain }

func (creatorless) Fill(context.Context, string, string, string, bool, func(string) bool) (*Fill, error) {
	return &Fill{Token: "MintNoDev", Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000)}, fmt.Errorf("%w: 503 Service Unavailable", ErrCreatorUnknown)
}

// TestCreatorUnknownRetriedThenOpened: a buy whose token's creator the
// chain would not tell opens no position while its event may come again
// (a passing failure cancelled the dev_sell for good), and on the last
// delivery opens it with its other exits armed and the dev_sell cancelled.
func TestCreatorUnknownRetriedThenOpened(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e, err := New(Config{}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: creatorless{}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	o := &wire.Order{OrderID: "eu-NoDev", AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: "MintNoDev", CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitDevSell, SellPct: 100}, {Type: wire.ExitStopLoss, TriggerPct: pct(20), SellPct: 100}},
		Signatures: []wire.SigState{{Signature: "sig", Wallet: "Wallet111", State: wire.StateConfirmed}}}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	ev := &events.Event{OrderID: o.OrderID, Type: events.Confirmed, Side: wire.Buy}
	if err := e.open(ctx, ev, false); !errors.Is(err, ErrCreatorUnknown) {
		t.Fatalf("open before the last delivery: %v, want it tried again", err)
	}
	if _, _, err := e.load(ctx, positionID(o.OrderID, 0)); !errors.Is(err, errNoPosition) {
		t.Fatalf("a position opened before the last delivery: %v", err)
	}
	if err := e.open(ctx, ev, true); err != nil {
		t.Fatal(err)
	}
	p, _, err := e.load(ctx, positionID(o.OrderID, 0))
	if err != nil || p.Exits[0].State != wire.ExitCancelled || p.Exits[1].State != wire.ExitArmed {
		t.Fatalf("position %+v %v: want the dev_sell cancelled, the stop-loss armed", p, err)
	}
}

// TestResumedExitEventMarkedRepeat: the exit_fired event of a resumed
// exit, which its first engine may have emitted before it died, goes out
// marked a repeat: past the stream's duplicate window the webhook
// dispatcher then posts it only when it never began to.
func TestResumedExitEventMarkedRepeat(t *testing.T) {
	t.Parallel()
	b, e, js := eventsDownEngine(t)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-EventRepeat", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	e.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.001"), At: time.Now()})
	js.down.Store(false)
	poll.Until(t, 5*time.Second, "the exit resumed", func() bool {
		e.resumeStale(ctx)
		got, _, err := e.load(ctx, p.ID)
		return err == nil && got.Exits[0].State == wire.ExitFired
	})
	s, err := b.JS.Stream(ctx, bus.StreamEvents)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(ctx, bus.EventsSubject("acc1", string(events.ExitFired)))
	if err != nil || m.Header.Get(bus.HeaderRepeat) == "" {
		t.Fatalf("the resumed exit's event: %v, header %v: want it marked a repeat", err, m)
	}
}

// TestReadAskedBeforeTheBuyNotJudged: a price read asked before a
// position opened (an answer slow to come, or from a node behind) does not
// fire its exits: it may show the market before the buy, whose own impact
// put the price under a tight stop-loss (a sniper's stop fired at once on
// a price that was never true after its buy). The next read judges it.
func TestReadAskedBeforeTheBuyNotJudged(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	asked := time.Now()
	time.Sleep(10 * time.Millisecond)
	p := openTestPosition(t, e, "eu-Stale", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	poll.Until(t, 5*time.Second, "the position in the book", func() bool { return e.book.size() > 0 })
	before := Observation{Price: parseRat("0.001"), At: time.Now(), Asked: asked}
	e.evaluate(ctx, keyOf(p), before)
	if got, _, err := e.load(ctx, p.ID); err != nil || got.Exits[0].State != wire.ExitArmed {
		t.Fatalf("exit %+v %v after a read asked before the buy: want it armed", got.Exits[0], err)
	}
	after := Observation{Price: parseRat("0.001"), At: time.Now(), Asked: time.Now()}
	e.evaluate(ctx, keyOf(p), after)
	if got, _, err := e.load(ctx, p.ID); err != nil || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("exit %+v %v after a read asked since: want it fired", got.Exits[0], err)
	}
}
