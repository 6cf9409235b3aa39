package exits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// tokensChain sells exact token quantities and says every wallet holds
// what the test positions received: the claim, publish and settle paths
// need no chain.
type tokensChain struct{}

var errNoChain = errors.New("no chain in this test")

func (tokensChain) Fill(context.Context, string, string, string, bool, func(string) bool) (*Fill, error) {
	return nil, errNoChain
}
func (tokensChain) Balance(context.Context, string, string) (*big.Int, error) {
	return big.NewInt(1_000_000), nil
}
func (tokensChain) Sale(context.Context, string, string, string) (Sale, error) {
	return Sale{In: 1, Balance: big.NewInt(1_000_000)}, nil
}
func (tokensChain) Market(*wire.Position) (Market, error) { return nil, errNoChain }
func (tokensChain) SellLeg(_ context.Context, p *wire.Position, amount *big.Int, _ bool) (string, string, error) {
	return wire.SellTokens, amount.String(), nil
}

func newTestEngine(t *testing.T, b *bustest.Bus, tune func(*Config)) *Engine {
	t.Helper()
	cfg := Config{SellSlippageBps: 2000}
	if tune != nil {
		tune(&cfg)
	}
	e, err := New(cfg, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: tokensChain{}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// openTestPosition stores a buy order and its position with one exit.
func openTestPosition(t *testing.T, e *Engine, orderID string, x wire.AutoOrder) *wire.Position {
	t.Helper()
	return openTestPositionOn(t, e, orderID, "Mint1111", x)
}

// openTestPositionOn stores a buy of token and its position with one exit,
// bought now at 0.002 SOL a token.
func openTestPositionOn(t *testing.T, e *Engine, orderID, token string, x wire.AutoOrder) *wire.Position {
	t.Helper()
	return openAccountPosition(t, e, "acc1", orderID, token, x)
}

// openAccountPosition is openTestPositionOn for a buy of account.
func openAccountPosition(t *testing.T, e *Engine, account, orderID, token string, x wire.AutoOrder) *wire.Position {
	t.Helper()
	ctx := context.Background()
	o := &wire.Order{OrderID: orderID, AccountID: account, Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: token, AutoOrders: []wire.AutoOrder{x}, CreatedAt: time.Now()}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	f := &Fill{Token: token, Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000)}
	p := newPosition(o, positionID(orderID, 0), "Wallet111", f, time.Now())
	if ok, err := e.create(ctx, p); err != nil || !ok {
		t.Fatalf("create position: %v %v", ok, err)
	}
	return p
}

// jobsFor returns the sell jobs stored in ORDERS for one order id.
func jobsFor(t *testing.T, js jetstream.JetStream, id string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, bus.StreamOrders)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			continue
		}
		var job wire.SwapJob
		if json.Unmarshal(m.Data, &job) == nil && job.OrderID == id {
			n++
		}
	}
	return n
}

func TestTwoEnginesFireOnce(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e1, e2 := newTestEngine(t, b, nil), newTestEngine(t, b, nil)
	p := openTestPosition(t, e1, "eu-TwoEngines", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	obs := Observation{Price: parseRat("5"), At: time.Now()}
	var wg sync.WaitGroup
	for i := range 8 {
		e := e1
		if i%2 == 1 {
			e = e2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := e.fire(context.Background(), p.ID, 0, entry{}, obs, ""); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, _, err := e1.load(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	x := got.Exits[0]
	if x.State != wire.ExitFired || x.Attempts != 1 || x.SellOrderID != sellID(p.ID, 0, 0) || x.SellAmount != "500000" ||
		got.PendingSell != x.SellOrderID {
		t.Fatalf("position after the race: %+v", got)
	}
	if n := jobsFor(t, b.JS, x.SellOrderID); n != 1 {
		t.Fatalf("%d sell jobs stored, want 1", n)
	}
	sell, err := orders.NewStore(b.Buckets.Orders).Get(context.Background(), x.SellOrderID)
	if err != nil || sell.Side != wire.Sell || sell.State != wire.StatePending || sell.AccountID != "acc1" {
		t.Fatalf("sell order %+v %v", sell, err)
	}
	buy, err := orders.NewStore(b.Buckets.Orders).Get(context.Background(), p.OrderID)
	if err != nil || len(buy.Positions) != 1 || buy.Positions[0].Exits[0].State != wire.ExitFired {
		t.Fatalf("the buy's order does not show the fired exit: %+v %v", buy, err)
	}
}

func TestResumeAfterACrashPublishesOnce(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	crashed := newTestEngine(t, b, func(c *Config) { c.AfterClaim = func(string, int) bool { return false } })
	p := openTestPosition(t, crashed, "eu-Crash", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(1), SellPct: 100})
	if err := crashed.fire(context.Background(), p.ID, 0, entry{}, Observation{At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	left, _, _ := crashed.load(context.Background(), p.ID)
	id := left.Exits[0].SellOrderID
	if left.Exits[0].State != wire.ExitFiring || jobsFor(t, b.JS, id) != 0 {
		t.Fatalf("after the crash: %+v", left.Exits[0])
	}

	next := newTestEngine(t, b, nil)
	next.book.put(left)
	// Not stale yet: nothing happens.
	next.resumeStale(context.Background())
	if jobsFor(t, b.JS, id) != 0 {
		t.Fatal("a fresh claim of another engine was resumed")
	}
	next.now = func() time.Time { return time.Now().Add(time.Minute) }
	next.resumeStale(context.Background())
	// Run again, as a second engine or a second restart would: the stream
	// keeps one job.
	if err := next.publish(context.Background(), left, 0, late{}); err != nil {
		t.Fatal(err)
	}
	if n := jobsFor(t, b.JS, id); n != 1 {
		t.Fatalf("%d sell jobs stored, want 1", n)
	}
	got, _, _ := next.load(context.Background(), p.ID)
	if got.Exits[0].State != wire.ExitFired || got.Exits[0].SellAmount != "1000000" {
		t.Fatalf("after the resume: %+v", got.Exits[0])
	}
}

// TestResumeOfASellAnsweredUnknown: an exit left firing whose sell the
// pipeline took and whose sends were answered unknown (pending, with its
// signatures, waiting to land) is only marked fired, not published again.
func TestResumeOfASellAnsweredUnknown(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	crashed := newTestEngine(t, b, func(c *Config) { c.AfterClaim = func(string, int) bool { return false } })
	p := openTestPosition(t, crashed, "eu-Unknown", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(1), SellPct: 100})
	if err := crashed.fire(context.Background(), p.ID, 0, entry{}, Observation{At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	left, _, _ := crashed.load(context.Background(), p.ID)
	id := left.Exits[0].SellOrderID
	sell := &wire.Order{OrderID: id, AccountID: "acc1", Family: wire.FamilySol, Kind: "swap", Chain: wire.ChainSolana,
		Side: wire.Sell, State: wire.StatePending, CreatedAt: time.Now(),
		Signatures: []wire.SigState{{Signature: "5unknown", Wallet: p.Wallet, State: wire.StatePending}}}
	if err := orders.NewStore(b.Buckets.Orders).Create(context.Background(), sell); err != nil {
		t.Fatal(err)
	}
	next := newTestEngine(t, b, nil)
	next.book.put(left)
	next.now = func() time.Time { return time.Now().Add(time.Minute) }
	next.resumeStale(context.Background())
	if n := jobsFor(t, b.JS, id); n != 0 {
		t.Fatalf("%d sell jobs published for a sell the pipeline took", n)
	}
	got, _, _ := next.load(context.Background(), p.ID)
	if got.Exits[0].State != wire.ExitFired {
		t.Fatalf("after the resume: %+v", got.Exits[0])
	}
}

func TestExitSellSettlesAndFailureRearms(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 2 })
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Settle", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 25})
	fireAndGet := func() *wire.Position {
		t.Helper()
		if err := e.fire(ctx, p.ID, 0, entry{}, Observation{Price: parseRat("1"), At: time.Now()}, ""); err != nil {
			t.Fatal(err)
		}
		got, _, _ := e.load(ctx, p.ID)
		return got
	}
	got := fireAndGet()
	first := got.Exits[0].SellOrderID
	failedFrom := time.Now()
	if err := e.sellFailed(ctx, failedEvent(first)); err != nil {
		t.Fatal(err)
	}
	failedBy := time.Now()
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 1 || x.Error == "" || got.PendingSell != "" {
		t.Fatalf("after a failed sell: %+v", got)
	}
	// It fires again only after a while, for the failure's cause to clear:
	// 2 s after the failure was taken, however long that took.
	if x := got.Exits[0]; x.RetryAt == nil || x.RetryAt.Before(failedFrom.Add(2*time.Second)) || x.RetryAt.After(failedBy.Add(2*time.Second)) {
		t.Fatalf("re-armed to fire again at %v, want 2 s after the failure (taken between %v and %v)", x.RetryAt, failedFrom, failedBy)
	}
	got = fireAndGet()
	second := got.Exits[0].SellOrderID
	if second == first || second != sellID(p.ID, 0, 1) {
		t.Fatalf("second attempt's sell %s (first %s)", second, first)
	}
	if err := e.settleExit(ctx, p.ID, 0, second); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if got.Remaining != "750000" || got.State != wire.PositionOpen || got.PendingSell != "" || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("after a quarter sold: %+v", got)
	}
}

// TestExitSellWhoseSwapRevertedRearms: an EVM exit sell's approval lands
// and its swap reverts; the order is confirmed by the approval, yet nothing
// was sold: the exit re-arms and the position keeps all it held. A sell
// whose swap lands settles.
func TestExitSellWhoseSwapRevertedRearms(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Approve", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	if err := e.fire(ctx, p.ID, 0, entry{}, Observation{Price: parseRat("1"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, _ := e.load(ctx, p.ID)
	sell := got.Exits[0].SellOrderID
	confirmed := func(swap string) *events.Event {
		ev := failedEvent(sell)
		ev.ID, ev.Type, ev.State, ev.Error = events.ID(sell, events.Confirmed, ""), events.Confirmed, wire.StateConfirmed, nil
		ev.Signatures = []wire.SigState{{Signature: "approve", Wallet: p.Wallet, State: wire.StateConfirmed},
			{Signature: "swap", Wallet: p.Wallet, State: swap}}
		if swap == wire.StateFailed {
			ev.Signatures[1].Error = "execution reverted"
		}
		return ev
	}
	if err := e.sold(ctx, confirmed(wire.StateFailed), false); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 1 || !strings.Contains(x.Error, "execution reverted") ||
		got.PendingSell != "" || got.Remaining != p.Remaining || got.State != wire.PositionOpen {
		t.Fatalf("after a sell whose swap reverted: %+v", got)
	}
	if err := e.fire(ctx, p.ID, 0, entry{}, Observation{Price: parseRat("1"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	sell = got.Exits[0].SellOrderID
	// Settled by the tracker today, such an order is failed, not confirmed:
	// its failed event re-arms the exit the same way.
	failed := confirmed(wire.StateFailed)
	failed.Type, failed.State = events.Failed, wire.StateFailed
	if err := e.sellFailed(ctx, failed); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 2 || got.Remaining != p.Remaining {
		t.Fatalf("after a failed sell whose approval landed: %+v", got)
	}
	if err := e.fire(ctx, p.ID, 0, entry{}, Observation{Price: parseRat("1"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	sell = got.Exits[0].SellOrderID
	if err := e.sold(ctx, confirmed(wire.StateConfirmed), false); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if got.State != wire.PositionClosed || got.Remaining != "0" || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("after the sell landed: %+v", got)
	}
}

func failedEvent(id string) *events.Event {
	return &events.Event{ID: events.ID(id, events.Failed, ""), Type: events.Failed, OrderID: id, AccountID: "acc1",
		Chain: wire.ChainSolana, Side: wire.Sell, Address: "Mint1111", State: wire.StateFailed,
		Error: &apierr.Body{Code: apierr.BroadcastFailed, Message: "the chain refused every transaction"}}
}

// TestOutOfRangeTimeExitNeverFires stores time exits whose after_seconds
// ingress would refuse: read with a failed price and by the clock of a
// non-owner, years later, they stay armed, while a valid one beside them
// fires.
func TestOutOfRangeTimeExitNeverFires(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	bad := map[string]*wire.Position{}
	for name, v := range map[string]int64{"max": math.MaxInt64, "past30days": 2592001, "negative": -1, "overflow": math.MaxInt64/int64(time.Second) + 1} {
		bad[name] = openTestPositionOn(t, e, "eu-Range"+name, "MintRange", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(v), SellPct: 100})
	}
	good := openTestPositionOn(t, e, "eu-RangeGood", "MintRange", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(2592000), SellPct: 100})
	later := time.Now().AddDate(10, 0, 0)
	e.now = func() time.Time { return later }
	k := keyOf(good)
	e.evaluate(ctx, k, Observation{At: later})
	e.clockExits(ctx, []tokenKey{k}, 0)

	got, _, err := e.load(ctx, good.ID)
	if err != nil || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("the 30-day exit, ten years on: %+v %v", got, err)
	}
	for name, p := range bad {
		got, _, err := e.load(ctx, p.ID)
		if err != nil || got.Exits[0].State != wire.ExitArmed || got.PendingSell != "" {
			t.Fatalf("%s: %+v %v", name, got, err)
		}
		if n := jobsFor(t, b.JS, sellID(p.ID, 0, 0)); n != 0 {
			t.Fatalf("%s: %d sell jobs", name, n)
		}
	}
}

// TestExitRearmsOnlyOnFinalFailure fires an exit and then tells the engine
// what became of its sell: only an order final as failed or expired, with
// no transaction left that could land, re-arms it; a sell that stays
// broadcast keeps it fired whatever the time.
func TestExitRearmsOnlyOnFinalFailure(t *testing.T) {
	t.Parallel()
	sigs := func(states ...string) []wire.SigState {
		var out []wire.SigState
		for i, s := range states {
			out = append(out, wire.SigState{Signature: fmt.Sprintf("sig%d", i), Wallet: "Wallet111", State: s})
		}
		return out
	}
	tests := []struct {
		name   string
		typ    events.Type // "" sends no event
		state  string
		sigs   []wire.SigState
		rearms bool
	}{
		{name: "broadcast for six hours"},
		{name: "failed", typ: events.Failed, state: wire.StateFailed, sigs: sigs(wire.StateFailed), rearms: true},
		{name: "failed before broadcast", typ: events.Failed, state: wire.StateFailed, rearms: true},
		{name: "expired: the nonce was taken", typ: events.Expired, state: wire.StateExpired, sigs: sigs(wire.StateExpired), rearms: true},
		{name: "expired with a failed approval", typ: events.Expired, state: wire.StateExpired, sigs: sigs(wire.StateFailed, wire.StateExpired), rearms: true},
		{name: "expired while a transaction is still broadcast", typ: events.Expired, state: wire.StateExpired, sigs: sigs(wire.StateExpired, wire.StateBroadcast)},
		{name: "failed while the order is still broadcast", typ: events.Failed, state: wire.StateBroadcast, sigs: sigs(wire.StateBroadcast)},
		{name: "a failed type with an expired state", typ: events.Failed, state: wire.StateExpired, sigs: sigs(wire.StateExpired)},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bustest.Start(t, "exits-test")
			e := newTestEngine(t, b, nil)
			t.Cleanup(e.held.stop)
			ctx := context.Background()
			tok := fmt.Sprintf("MintRearm%d", i)
			p := openTestPositionOn(t, e, fmt.Sprintf("eu-Rearm%d", i), tok, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
			k := keyOf(p)
			crash := Observation{Price: parseRat("0.001"), At: time.Now()}
			e.evaluate(ctx, k, crash)
			first := sellID(p.ID, 0, 0)
			if got, _, _ := e.load(ctx, p.ID); got.Exits[0].State != wire.ExitFired || got.PendingSell != first {
				t.Fatalf("after the trigger: %+v", got)
			}
			if tt.typ != "" {
				ev := &events.Event{ID: events.ID(first, tt.typ, ""), Type: tt.typ, OrderID: first, AccountID: "acc1",
					Chain: wire.ChainSolana, Side: wire.Sell, Address: tok, State: tt.state, Signatures: tt.sigs}
				if err := e.sellFailed(ctx, ev); err != nil {
					t.Fatal(err)
				}
			}
			// Hours pass with the price still under the line.
			later := time.Now().Add(6 * time.Hour)
			e.now = func() time.Time { return later }
			e.resumeStale(ctx)
			e.evaluate(ctx, k, Observation{Price: crash.Price, At: later})

			got, _, err := e.load(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			x, second := got.Exits[0], sellID(p.ID, 0, 1)
			if tt.rearms {
				// Re-armed and, still due, fired again as its second attempt.
				if x.State != wire.ExitFired || x.Attempts != 2 || x.SellOrderID != second || got.PendingSell != second ||
					jobsFor(t, b.JS, second) != 1 {
					t.Fatalf("after a real failure: %+v, %d second sells", got, jobsFor(t, b.JS, second))
				}
				return
			}
			if x.State != wire.ExitFired || x.Attempts != 1 || x.SellOrderID != first || got.PendingSell != first || x.Error != "" {
				t.Fatalf("re-armed without a final failure: %+v", got)
			}
			if n := jobsFor(t, b.JS, second); n != 0 {
				t.Fatalf("%d second sells published", n)
			}
			if n := jobsFor(t, b.JS, first); n != 1 {
				t.Fatalf("%d first sells, want 1", n)
			}
		})
	}
}

func TestSweepLeavesAnExpiringMarker(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	open := openTestPosition(t, e, "eu-SweepOpen", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	closed := openTestPosition(t, e, "eu-SweepClosed", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	if _, err := e.mutate(ctx, closed.ID, func(p *wire.Position) bool { closePosition(p, time.Now()); return true }); err != nil {
		t.Fatal(err)
	}
	e.now = func() time.Time { return time.Now().Add(closedRetention + time.Hour) }
	e.sweep(ctx)
	if _, err := e.kv.Get(ctx, closed.ID); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Errorf("closed position a week old: %v, want swept", err)
	}
	if _, err := e.kv.Get(ctx, open.ID); err != nil {
		t.Errorf("open position: %v, want kept", err)
	}
	// What the sweep left is a marker that expires, not one that stays.
	s, err := b.JS.Stream(ctx, "KV_"+bus.BucketPositions)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(ctx, "$KV."+bus.BucketPositions+"."+closed.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Header.Get("Nats-TTL"), bus.PositionsForget.String(); got != want {
		t.Errorf("marker TTL %q, want %s", got, want)
	}
}

// leftMarket is the market of a coin that left its curve.
type leftMarket struct{}

func (leftMarket) Observe(context.Context) (Observation, error) {
	return Observation{}, fmt.Errorf("token Mint1111 migrated to Raydium (LaunchLab pool P is off its curve, status 1): %w", errMigrated)
}

// TestPositionOfACoinThatLeftItsCurveCloses: a read that finds the coin
// gone from its launch curve to an AMM the service does not trade closes
// the token's positions once, their armed exits cancelled with the reason
// and their tokens left as remaining, and the token is no longer read.
func TestPositionOfACoinThatLeftItsCurveCloses(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-left-1", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(50), SellPct: 100})
	k := keyOf(p)
	if _, ok := e.book.tokens()[k]; !ok {
		t.Fatal("the position's token is not watched")
	}
	e.prices.read(ctx, k, leftMarket{})
	got, _, err := e.load(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != wire.PositionClosed || got.ClosedAt == nil || got.Remaining != p.Remaining {
		t.Fatalf("position %s, closed at %v, remaining %s: want closed with %s still held", got.State, got.ClosedAt, got.Remaining, p.Remaining)
	}
	if x := got.Exits[0]; x.State != wire.ExitCancelled || !strings.Contains(x.Error, "migrated to Raydium") {
		t.Fatalf("exit %s (%q), want cancelled with the reason", x.State, x.Error)
	}
	if _, ok := e.book.tokens()[k]; ok {
		t.Fatal("the token is still watched")
	}
	o, err := e.orders.Get(ctx, "eu-left-1")
	if err != nil || len(o.Positions) != 1 || o.Positions[0].State != wire.PositionClosed {
		t.Fatalf("the order lookup shows %+v (%v)", o.Positions, err)
	}
}

// TestMintIfPool: an exit_fired event names the mint when the buy named
// the token's pool, and nothing more when it named the mint.
func TestMintIfPool(t *testing.T) {
	t.Parallel()
	if got := mintIfPool(&wire.Position{Address: "Pool1", Token: "Mint1"}); got != "Mint1" {
		t.Fatalf("bought by the pool: %q", got)
	}
	if got := mintIfPool(&wire.Position{Address: "Mint1", Token: "Mint1"}); got != "" {
		t.Fatalf("bought by the mint: %q", got)
	}
}

// TestTimeExitDueWhileStoppedSaysSo: a time exit that came due before the
// engine started fires late with the reason stopped, counted from when it
// was due.
func TestTimeExitDueWhileStoppedSaysSo(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	one := int64(1)
	p := openTestPosition(t, e, "eu-stopped-1", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: &one, SellPct: 100})
	if _, err := e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		q.BoughtAt = time.Now().Add(-10 * time.Second)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	e.started.Store(time.Now().UnixNano())
	en := e.book.watching(keyOf(p), Observation{})[0]
	if err := e.fire(ctx, p.ID, 0, en, Observation{At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got := poll.Value(t, 5*time.Second, "the exit fired", func() (*wire.Position, bool) {
		q, _, err := e.load(ctx, p.ID)
		return q, err == nil && q.Exits[0].State == wire.ExitFired
	})
	if x := got.Exits[0]; x.DeferredReason != metrics.ExitDeferredStopped || x.DeferredMs < 8000 {
		t.Fatalf("exit late by %d ms for %q, want about 9000 for stopped", x.DeferredMs, x.DeferredReason)
	}
}

// TestEventAheadOfItsRecordRetried: a confirmed buy's event read against
// its record as a replica not caught up gives it (no record, or one still
// broadcast) is taken again later, not acked without a position.
func TestEventAheadOfItsRecordRetried(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	ev := &events.Event{Type: events.Confirmed, OrderID: "eu-behind", Side: wire.Buy}
	if err := e.open(ctx, ev, false); !errors.Is(err, errRecordBehind) {
		t.Fatalf("no record yet: %v, want it read again later", err)
	}
	o := &wire.Order{OrderID: "eu-behind", AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateBroadcast,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: "Mint1111", CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitTime, AfterSeconds: secs(5), SellPct: 100}},
		Signatures: []wire.SigState{{Signature: "sig-behind", Wallet: "Wallet111", State: wire.StateBroadcast}}}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := e.open(ctx, ev, false); !errors.Is(err, errRecordBehind) {
		t.Fatalf("record still broadcast: %v, want it read again later", err)
	}
}

// watchedKey is the key of the one market the book watches of a token.
func watchedKey(t testing.TB, e *Engine, chain, token string) tokenKey {
	t.Helper()
	var keys []tokenKey
	for k := range e.book.tokens() {
		if k.chain == chain && k.token == token {
			keys = append(keys, k)
		}
	}
	if len(keys) != 1 {
		t.Fatalf("%d markets of %s watched, want one", len(keys), token)
	}
	return keys[0]
}

// TestPositionWithNothingArmedIsNotRead: a position whose exits all ended
// (a take-profit of half that sold) stays open, and its market is no
// longer read: it was read every tick for good, using up the reads the
// other accounts' stop-losses need.
func TestPositionWithNothingArmedIsNotRead(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Half", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	e.book.put(p)
	if _, watched := e.book.tokens()[keyOf(p)]; !watched {
		t.Fatal("a position with an exit armed is not read")
	}
	if err := e.fire(ctx, p.ID, 0, entry{}, Observation{Price: parseRat("5"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, err := e.load(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.settleExit(ctx, p.ID, 0, got.Exits[0].SellOrderID); err != nil {
		t.Fatal(err)
	}
	got, _, err = e.load(ctx, p.ID)
	if err != nil || got.State != wire.PositionOpen || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("position %+v %v: want it open, its exit fired", got, err)
	}
	e.book.put(got)
	if _, watched := e.book.tokens()[keyOf(got)]; watched {
		t.Fatalf("position %s with no exit armed is still read", got.ID)
	}
}

// sentAwayChain is tokensChain whose wallet holds only held of the token:
// the rest went out in transfers the engine never sees.
type sentAwayChain struct {
	tokensChain
	held int64
}

func (c sentAwayChain) Balance(context.Context, string, string) (*big.Int, error) {
	return big.NewInt(c.held), nil
}

// sentAwayEngine is an engine on a sentAwayChain whose wallet holds held.
func sentAwayEngine(t *testing.T, held int64) *Engine {
	t.Helper()
	b := bustest.Start(t, "exits-test")
	e, err := New(Config{SellSlippageBps: 2000}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: sentAwayChain{held: held}},
		slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestPartialExitIsAShareOfWhatIsHeld: an exit selling half a position
// whose wallet sent 60 % of the tokens away sells half of what is left, not
// half of the record (all that is left, once capped); a read that finds
// nothing (a node behind the buy) neither closes the position nor changes
// the share.
func TestPartialExitIsAShareOfWhatIsHeld(t *testing.T) {
	t.Parallel()
	e := sentAwayEngine(t, 400_000)
	p := openTestPosition(t, e, "eu-SentAway", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	if err := e.fire(context.Background(), p.ID, 0, entry{p: p}, Observation{Price: parseRat("5"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, err := e.load(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if x := got.Exits[0]; x.State != wire.ExitFired || x.SellAmount != "200000" {
		t.Fatalf("exit %+v, remaining %s: want half of the 400000 held sold", x, got.Remaining)
	}
	e = sentAwayEngine(t, 0)
	p = openTestPosition(t, e, "eu-NodeBehind", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 50})
	if err := e.fire(context.Background(), p.ID, 0, entry{p: p}, Observation{Price: parseRat("5"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	got, _, err = e.load(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if x := got.Exits[0]; got.State != wire.PositionOpen || x.State != wire.ExitFired || x.SellAmount != "500000" {
		t.Fatalf("position %s, exit %+v: a read of nothing closed it or changed its share", got.State, x)
	}
}

// TestCancelledExitKeepsNoRetryTime: an exit whose sell failed because the
// wallet's tokens are gone (sent away) is cancelled with its position,
// which is held to the balance, carrying no time to fire again, and is
// counted cancelled, not re-armed.
func TestCancelledExitKeepsNoRetryTime(t *testing.T) {
	e := sentAwayEngine(t, 0)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-AllSentAway", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	if err := e.fire(ctx, p.ID, 0, entry{p: p}, Observation{Price: parseRat("0.0001"), At: time.Now()}, ""); err != nil {
		t.Fatal(err)
	}
	cancelled := metrics.ExitSellsUnlanded.WithLabelValues(wire.ChainSolana, wire.ExitStopLoss, "cancelled")
	rearmed := metrics.ExitSellsUnlanded.WithLabelValues(wire.ChainSolana, wire.ExitStopLoss, "rearmed")
	beforeCancelled, beforeRearmed := counterValue(t, cancelled), counterValue(t, rearmed)
	if err := e.sellFailed(ctx, failedEvent(sellID(p.ID, 0, 0))); err != nil {
		t.Fatal(err)
	}
	got, _, err := e.load(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if x := got.Exits[0]; got.State != wire.PositionClosed || x.State != wire.ExitCancelled || x.RetryAt != nil {
		t.Fatalf("position %s, exit %+v: want closed, its exit cancelled without a retry time", got.State, x)
	}
	if c, r := counterValue(t, cancelled)-beforeCancelled, counterValue(t, rearmed)-beforeRearmed; c != 1 || r != 0 {
		t.Fatalf("counted cancelled +%v, rearmed +%v", c, r)
	}
}

// TestExitFiredNamesAMintOnlyForAPool: exit_fired names a mint only when
// the buy named the token's pool, as the buy's own events do. An EVM buy
// naming its token in lower case named the token (stored checksummed from
// the fill), not a pool; a Solana address is case-sensitive.
func TestExitFiredNamesAMintOnlyForAPool(t *testing.T) {
	t.Parallel()
	const token = "0x18966F687C992D208Cd3946aBD704b3885C7814e"
	for _, tc := range []struct {
		name   string
		p      wire.Position
		wanted string
	}{
		{"evm checksummed", wire.Position{Family: wire.FamilyEVM, Address: token, Token: token}, ""},
		{"evm lower case", wire.Position{Family: wire.FamilyEVM, Address: strings.ToLower(token), Token: token}, ""},
		{"solana mint", wire.Position{Family: wire.FamilySol, Address: "Mint1111", Token: "Mint1111"}, ""},
		{"solana pool", wire.Position{Family: wire.FamilySol, Address: "Pool1111", Token: "Mint1111"}, "Mint1111"},
	} {
		if got := mintIfPool(&tc.p); got != tc.wanted {
			t.Errorf("%s: mint %q, want %q", tc.name, got, tc.wanted)
		}
	}
}

// TestQueueAgedRefusalsDoNotFailTheExit: a sell a worker refuses because
// its job waited past pipeline.job_max_age in the queue (UPSTREAM_TIMEOUT,
// nothing signed: the chain's workers were away or behind) could not
// trade, and does not count towards exits.max_attempts, which number sells
// that could: three such refusals failed a stop-loss for good.
func TestQueueAgedRefusalsDoNotFailTheExit(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 3 })
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-QueueAged", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	for i := range 3 {
		q, _, _ := e.load(ctx, p.ID)
		e.now = func() time.Time { return time.Now().Add(time.Duration(i) * 10 * time.Minute) }
		e.fireAll(ctx, []dueExit{{en: entry{p: q}, i: 0}}, Observation{Price: parseRat("0.0001"), At: e.now()}, "")
		fired, _, _ := e.load(ctx, p.ID)
		if fired.PendingSell == "" {
			t.Fatalf("refusal %d: the exit did not fire: %+v", i, fired.Exits[0])
		}
		ev := failedEvent(fired.Exits[0].SellOrderID)
		ev.Error = &apierr.Body{Code: apierr.UpstreamTimeout, Message: "the order waited 41.2s in the queue and was not executed"}
		if err := e.sellFailed(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	got, _, _ := e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Refusals != 3 {
		t.Fatalf("stop-loss after three sells that were never signed (queue-aged): %+v, want armed with three refusals", x)
	}
}
