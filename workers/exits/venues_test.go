package exits

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// pausedVenues is a venue gate whose venues are paused by hand.
type pausedVenues struct {
	mu     sync.Mutex
	paused map[string]bool
}

func (g *pausedVenues) set(venue string, paused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.paused[venue] = paused
}

func (g *pausedVenues) Open(chain, venue string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.paused[venue] {
		return apierr.Newf(apierr.VenuePaused, venue, "%s on %s is paused", venue, chain)
	}
	return nil
}

// TestExitWaitsForPausedVenue fires a due stop-loss whose venue is paused:
// nothing is published and the exit stays armed, with none of its attempts
// spent; once the venue resumes it fires, once, late for that reason. A
// sell refused VENUE_PAUSED all the same re-arms the exit even on its last
// attempt, where any other failure fails it.
func TestExitWaitsForPausedVenue(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{}}
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 1; c.Venues = gate })
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Paused", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	if p.Venue != wire.VenuePumpFun {
		t.Fatalf("position venue %q", p.Venue)
	}
	due := []dueExit{{en: entry{p: p}, i: 0}}
	obs := Observation{Price: parseRat("0.0001"), At: time.Now()}

	gate.set(wire.VenuePumpFun, true)
	for range 3 {
		e.fireAll(ctx, due, obs, "")
	}
	got, _, _ := e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 0 || got.PendingSell != "" {
		t.Fatalf("an exit fired on a paused venue: %+v", got)
	}
	if n := jobsFor(t, b.JS, sellID(p.ID, 0, 0)); n != 0 {
		t.Fatalf("%d sell jobs published while the venue was paused", n)
	}

	gate.set(wire.VenuePumpFun, false)
	deferred := metrics.ExitsDeferred.WithLabelValues(wire.ChainSolana, metrics.ExitDeferredVenuePaused)
	before := counterValue(t, deferred)
	e.fireAll(ctx, due, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
	got, _, _ = e.load(ctx, p.ID)
	x := got.Exits[0]
	if x.State != wire.ExitFired || x.Attempts != 1 || x.DeferredReason != metrics.ExitDeferredVenuePaused {
		t.Fatalf("after the venue resumed: %+v", x)
	}
	if n := jobsFor(t, b.JS, x.SellOrderID); n != 1 {
		t.Fatalf("%d sell jobs, want 1", n)
	}
	if d := counterValue(t, deferred) - before; d != 1 {
		t.Fatalf("deferred venue_paused counted %v times, want 1", d)
	}

	// The venue paused between the check and the sell: refused, re-armed
	// though it was the exit's last attempt.
	paused := failedEvent(x.SellOrderID)
	paused.Error = &apierr.Body{Code: apierr.VenuePaused, Message: "pump_fun is paused"}
	if err := e.sellFailed(ctx, paused); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || got.PendingSell != "" {
		t.Fatalf("a sell refused VENUE_PAUSED failed its exit: %+v", got)
	}
	// Any other failure on the last attempt fails it, and is counted so.
	gaveUp := metrics.ExitSellsUnlanded.WithLabelValues(wire.ChainSolana, got.Exits[0].Type, "failed")
	before = counterValue(t, gaveUp)
	e.fireAll(ctx, due, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
	got, _, _ = e.load(ctx, p.ID)
	if err := e.sellFailed(ctx, failedEvent(got.Exits[0].SellOrderID)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitFailed {
		t.Fatalf("after a real failure on the last attempt: %+v", x)
	}
	if d := counterValue(t, gaveUp) - before; d != 1 {
		t.Fatalf("the exit that gave up counted %v times, want 1", d)
	}
}

// TestClosedPositionStopsWaiting: a position whose due exit waits for its
// paused venue, and that is then closed (sold by hand) or deleted, leaves
// no wait behind in the engine.
func TestClosedPositionStopsWaiting(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{}}
	e := newTestEngine(t, b, func(c *Config) { c.Venues = gate })
	ctx := context.Background()
	gate.set(wire.VenuePumpFun, true)
	obs := Observation{Price: parseRat("0.0001"), At: time.Now()}
	waiting := func() int {
		e.pausedMu.Lock()
		defer e.pausedMu.Unlock()
		return len(e.paused)
	}

	closed := openTestPosition(t, e, "eu-Closed", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	e.fireAll(ctx, []dueExit{{en: entry{p: closed}, i: 0}}, obs, "")
	if n := waiting(); n != 1 {
		t.Fatalf("%d exits wait for the paused venue, want 1", n)
	}
	if _, err := e.mutate(ctx, closed.ID, func(p *wire.Position) bool { p.State = wire.PositionClosed; return true }); err != nil {
		t.Fatal(err)
	}
	if n := waiting(); n != 0 {
		t.Fatalf("a closed position still waits (%d)", n)
	}

	// Closed or deleted by another engine: seen through the bucket's watch.
	for _, how := range []string{"closed", "deleted"} {
		p := openTestPosition(t, e, "eu-Other-"+how, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
		e.fireAll(ctx, []dueExit{{en: entry{p: p}, i: 0}}, obs, "")
		if n := waiting(); n != 1 {
			t.Fatalf("%s: %d exits wait for the paused venue, want 1", how, n)
		}
		en, err := e.kv.Get(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if how == "closed" {
			stored, _, err := e.load(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			stored.State, stored.Version = wire.PositionClosed, stored.Version+1
			data, _ := json.Marshal(stored)
			if _, err := e.kv.Put(ctx, p.ID, data); err != nil {
				t.Fatal(err)
			}
			if en, err = e.kv.Get(ctx, p.ID); err != nil {
				t.Fatal(err)
			}
			e.apply(en)
		} else {
			if err := e.kv.Delete(ctx, p.ID); err != nil {
				t.Fatal(err)
			}
			e.apply(deleted{en})
		}
		if n := waiting(); n != 0 {
			t.Fatalf("a position %s by another engine still waits (%d)", how, n)
		}
	}
}

// deleted is the watch's entry for a deleted key.
type deleted struct{ jetstream.KeyValueEntry }

func (deleted) Operation() jetstream.KeyValueOp { return jetstream.KeyValueDelete }

// TestGateVenues: an EVM position's exit waits while both Uniswap venues
// of its chain are paused (its sell trades on the best pool of either), or
// for the one that refused its last sell; a Solana position's venue is its
// own, except a pump.fun coin whose curve completed, which sells on
// PumpSwap: as its market found, or, unknown here, after a sell refused
// VENUE_PAUSED, as either venue may be.
func TestGateVenues(t *testing.T) {
	t.Parallel()
	refused := []wire.Exit{{State: wire.ExitArmed, Error: "VENUE_PAUSED: pumpswap is paused since 2026-05-09T07:33:08Z: layout"}}
	refusedV3 := []wire.Exit{{State: wire.ExitArmed, Error: "VENUE_PAUSED: uniswap_v3 is paused since 2026-05-09T07:33:08Z: code"}}
	both := []string{venues.UniswapV2, venues.UniswapV3}
	tests := []struct {
		chain, venue, tradesOn string
		exits                  []wire.Exit
		want                   []string
		all                    bool
	}{
		{wire.ChainBase, wire.VenueV2, "", nil, both, true},
		{wire.ChainEth, wire.VenueV3, "", nil, []string{venues.UniswapV3, venues.UniswapV2}, true},
		{wire.ChainEth, wire.VenueV3, "", refused, []string{venues.UniswapV3, venues.UniswapV2}, true},
		{wire.ChainEth, wire.VenueV3, "", refusedV3, []string{venues.UniswapV3}, false},
		{wire.ChainBase, wire.VenueV2, "", refusedV3, []string{venues.UniswapV3}, false},
		{wire.ChainSolana, wire.VenuePumpSwap, "", nil, []string{venues.PumpSwap}, false},
		{wire.ChainSolana, wire.VenuePumpSwap, wire.VenuePumpSwap, nil, []string{venues.PumpSwap}, false},
		{wire.ChainSolana, wire.VenueDBC, "", refused, []string{venues.DBC}, false},
		{wire.ChainSolana, wire.VenueLaunchLab, "", nil, []string{venues.LaunchLab}, false},
		{wire.ChainSolana, wire.VenuePumpFun, "", nil, []string{venues.PumpFun}, false},
		{wire.ChainSolana, wire.VenuePumpFun, wire.VenuePumpSwap, nil, []string{venues.PumpSwap}, false},
		{wire.ChainSolana, wire.VenuePumpFun, wire.VenuePumpSwap, refused, []string{venues.PumpSwap}, false},
		{wire.ChainSolana, wire.VenuePumpFun, "", refused, []string{venues.PumpFun, venues.PumpSwap}, false},
	}
	for _, tt := range tests {
		p := &wire.Position{Chain: tt.chain, Venue: tt.venue, Exits: tt.exits}
		if got, all := gateVenues(p, tt.tradesOn); !slices.Equal(got, tt.want) || all != tt.all {
			t.Errorf("%s %s trading on %q (refused %v): %v all %v, want %v all %v", tt.chain, tt.venue, tt.tradesOn, tt.exits != nil, got, all, tt.want, tt.all)
		}
	}
}

// graduatedMarket is the market of a pump.fun coin whose curve completed:
// it reads the coin's PumpSwap pool, where its sales go.
type graduatedMarket struct{ price string }

func (m graduatedMarket) Observe(context.Context) (Observation, error) {
	return Observation{Price: parseRat(m.price), At: time.Now()}, nil
}

func (graduatedMarket) sellVenue() string { return wire.VenuePumpSwap }

// TestGraduatedCoinExitWaitsForPumpSwap: a position bought on a pump.fun
// curve keeps its venue when the curve completes, but its sell trades on
// the coin's PumpSwap pool: a pause of PumpSwap holds its due exit, a
// pause of pump.fun does not. Read through the engine's price reader, as
// the reads of a graduated coin reach it.
func TestGraduatedCoinExitWaitsForPumpSwap(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{}}
	e := newTestEngine(t, b, func(c *Config) { c.Venues = gate })
	ctx := context.Background()
	stop := wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}
	read := func(p *wire.Position) {
		k := keyOf(p)
		obs := e.prices.read(ctx, k, graduatedMarket{price: "0.0001"})
		if obs.Venue != wire.VenuePumpSwap {
			t.Fatalf("observation's venue %q, want %q", obs.Venue, wire.VenuePumpSwap)
		}
		e.evaluate(ctx, k, obs)
	}

	// PumpSwap paused, pump.fun trading: held, no sell refused on every read.
	held := openTestPositionOn(t, e, "eu-Grad-Held", "MintGradHeld", stop)
	if held.Venue != wire.VenuePumpFun {
		t.Fatalf("position venue %q", held.Venue)
	}
	gate.set(venues.PumpSwap, true)
	for range 3 {
		read(held)
	}
	got, _, _ := e.load(ctx, held.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 0 || got.PendingSell != "" {
		t.Fatalf("an exit fired while the venue its sell trades on was paused: %+v", got)
	}
	if n := jobsFor(t, b.JS, sellID(held.ID, 0, 0)); n != 0 {
		t.Fatalf("%d sell jobs published while PumpSwap was paused", n)
	}
	gate.set(venues.PumpSwap, false)
	read(held)
	got, _, _ = e.load(ctx, held.ID)
	if x := got.Exits[0]; x.State != wire.ExitFired || x.Attempts != 1 || x.DeferredReason != metrics.ExitDeferredVenuePaused {
		t.Fatalf("after PumpSwap resumed: %+v", x)
	}

	// pump.fun paused, PumpSwap trading: the pool takes the sell at once.
	free := openTestPositionOn(t, e, "eu-Grad-Free", "MintGradFree", stop)
	gate.set(venues.PumpFun, true)
	read(free)
	got, _, _ = e.load(ctx, free.ID)
	if x := got.Exits[0]; x.State != wire.ExitFired || x.Attempts != 1 || x.DeferredReason != "" {
		t.Fatalf("a graduated coin's exit held by the pause of its old curve: %+v", x)
	}
	if n := jobsFor(t, b.JS, sellID(free.ID, 0, 0)); n != 1 {
		t.Fatalf("%d sell jobs, want 1", n)
	}
}

// pausedRefusalOf is the failed event of an exit sell the signer refused
// because venue was paused.
func pausedRefusalOf(id, venue string) *events.Event {
	ev := failedEvent(id)
	ev.Error = &apierr.Body{Code: apierr.VenuePaused, Message: venue + " is paused since 2026-05-09T07:33:08Z: its checks fail", Details: &venue}
	return ev
}

// TestPausedRefusalWaitsForTheVenue: an exit whose sell was refused
// VENUE_PAUSED by a venue the engine did not gate it on (a graduated
// coin's pool, the coin not read here) is not fired again on every read:
// it waits for that venue like a held exit, and fires once it resumes,
// late for that reason. A refusal whose pause the engine does not see (it
// lifted meanwhile) backs off as after a failure.
func TestPausedRefusalWaitsForTheVenue(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{}}
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 1; c.Venues = gate })
	ctx := context.Background()
	stop := wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}
	p := openTestPositionOn(t, e, "eu-Refused", "MintRefused", stop)
	k := keyOf(p)
	obs := func() Observation { return Observation{Price: parseRat("0.0001"), At: time.Now()} }

	gate.set(venues.PumpSwap, true)
	e.evaluate(ctx, k, obs())
	got, _, _ := e.load(ctx, p.ID)
	first := got.Exits[0].SellOrderID
	if got.Exits[0].State != wire.ExitFired || jobsFor(t, b.JS, first) != 1 {
		t.Fatalf("the exit did not fire on its curve's venue: %+v", got)
	}
	if err := e.sellFailed(ctx, pausedRefusalOf(first, venues.PumpSwap)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.RetryAt != nil || got.PendingSell != "" {
		t.Fatalf("after the refusal: %+v", got)
	}
	for range 5 {
		e.evaluate(ctx, k, obs())
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.Attempts != 1 {
		t.Fatalf("a refused exit fired again while its venue was paused: %+v", x)
	}
	if n := jobsFor(t, b.JS, sellID(p.ID, 0, 1)); n != 0 {
		t.Fatalf("%d sells published again into the paused venue", n)
	}
	gate.set(venues.PumpSwap, false)
	e.evaluate(ctx, k, obs())
	got, _, _ = e.load(ctx, p.ID)
	x := got.Exits[0]
	if x.State != wire.ExitFired || x.Attempts != 2 || x.DeferredReason != metrics.ExitDeferredVenuePaused {
		t.Fatalf("after the venue resumed: %+v", x)
	}
	if n := jobsFor(t, b.JS, x.SellOrderID); n != 1 {
		t.Fatalf("%d sell jobs after the venue resumed, want 1", n)
	}

	// Refused by a pause no longer seen here: it backs off, and does not
	// fire on the next reads.
	if err := e.sellFailed(ctx, pausedRefusalOf(x.SellOrderID, venues.PumpSwap)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.RetryAt == nil || !x.RetryAt.After(time.Now()) {
		t.Fatalf("a refusal whose pause is not seen did not back off: %+v", x)
	}
	for range 3 {
		e.evaluate(ctx, k, obs())
	}
	if n := jobsFor(t, b.JS, sellID(p.ID, 0, 2)); n != 0 {
		t.Fatalf("%d sells published at once after the refusal", n)
	}
}

// TestPausedRefusalWaitsForItsOwnVenue: an exit's refusal holds it for the
// venue that refused it, no other. A coin still on its curve refused by
// pump.fun's pause is not held, once pump.fun resumes, by a pause of
// PumpSwap, where it does not trade; a graduated coin refused by PumpSwap's
// pause, which has lifted here, backs off though pump.fun is paused.
func TestPausedRefusalWaitsForItsOwnVenue(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{}}
	e := newTestEngine(t, b, func(c *Config) { c.Venues = gate })
	ctx := context.Background()
	stop := wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}

	p := openTestPositionOn(t, e, "eu-Curve", "MintCurve", stop)
	k := keyOf(p)
	onCurve := func() Observation { return Observation{Price: parseRat("0.0001"), At: time.Now()} }
	e.evaluate(ctx, k, onCurve())
	got, _, _ := e.load(ctx, p.ID)
	gate.set(venues.PumpFun, true)
	if err := e.sellFailed(ctx, pausedRefusalOf(got.Exits[0].SellOrderID, venues.PumpFun)); err != nil {
		t.Fatal(err)
	}
	gate.set(venues.PumpFun, false)
	gate.set(venues.PumpSwap, true)
	e.evaluate(ctx, k, onCurve())
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitFired || x.Attempts != 2 {
		t.Fatalf("a curve coin's exit held by a pause of PumpSwap: %+v", x)
	}
	gate.set(venues.PumpSwap, false)

	g := openTestPositionOn(t, e, "eu-Grad", "MintGrad", stop)
	gk := keyOf(g)
	read := func() { e.evaluate(ctx, gk, e.prices.read(ctx, gk, graduatedMarket{price: "0.0001"})) }
	read()
	got, _, _ = e.load(ctx, g.ID)
	gate.set(venues.PumpFun, true)
	if err := e.sellFailed(ctx, pausedRefusalOf(got.Exits[0].SellOrderID, venues.PumpSwap)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, g.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.RetryAt == nil {
		t.Fatalf("a refusal by a pause lifted here did not back off: %+v", x)
	}
	read()
	if got, _, _ = e.load(ctx, g.ID); got.Exits[0].Attempts != 1 || got.PendingSell != "" {
		t.Fatalf("fired again at the next read: %+v", got.Exits[0])
	}
}

// TestEVMExitSellsOnTheOtherVenue: a stop-loss of a position bought on a
// V3 pool fires while uniswap_v3 alone is paused (its sell names the token
// and trades on the token's V2 pair, as a bot's own sell does), and waits
// while both Uniswap venues of its chain are.
func TestEVMExitSellsOnTheOtherVenue(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	gate := &pausedVenues{paused: map[string]bool{venues.UniswapV2: true, venues.UniswapV3: true}}
	e, err := New(Config{SellSlippageBps: 2000, Venues: gate}, b.JS, b.Buckets, map[string]Chain{wire.ChainBase: tokensChain{}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := "0x1111111111111111111111111111111111111111"
	o := &wire.Order{OrderID: "evm-V3Buy", AccountID: "acc1", Family: wire.FamilyEVM, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainBase, Side: wire.Buy, Token: token, CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}}}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	f := &Fill{Token: token, Venue: wire.VenueV3, Pool: "0x2222222222222222222222222222222222222222", QuoteAsset: "ETH",
		Decimals: 18, QuoteDecimals: 18, Received: big.NewInt(1e18), Spent: big.NewInt(2e15)}
	p := newPosition(o, positionID(o.OrderID, 0), "0x3333333333333333333333333333333333333333", f, time.Now())
	if ok, err := e.create(ctx, p); err != nil || !ok {
		t.Fatalf("create position: %v %v", ok, err)
	}
	fall := Observation{Price: parseRat("0.0000001"), At: time.Now()}
	e.fireAll(ctx, []dueExit{{en: entry{p: p}, i: 0}}, fall, "")
	if got, _, _ := e.load(ctx, p.ID); got.Exits[0].State != wire.ExitArmed || got.Exits[0].SellOrderID != "" {
		t.Fatalf("stop-loss fired with both Uniswap venues paused: %+v", got.Exits[0])
	}
	gate.set(venues.UniswapV2, false)
	p, _, _ = e.load(ctx, p.ID)
	e.fireAll(ctx, []dueExit{{en: entry{p: p}, i: 0}}, fall, "")
	poll.Until(t, 5*time.Second, "the stop-loss's sell published", func() bool {
		got, _, _ := e.load(ctx, p.ID)
		return got.Exits[0].State == wire.ExitFired && jobsFor(t, b.JS, got.Exits[0].SellOrderID) == 1
	})
}

// TestWorkerUnavailableSellDoesNotFailTheExit: a sell a worker refused
// CHAIN_UNAVAILABLE (nothing signed: a worker on another network than the
// engine's, a master key that does not open the wallet's key) re-arms its
// exit even on its last attempt, backing off as after a failure: the
// exits of a deployment with one role misconfigured came back failed for
// good once it was mended.
func TestWorkerUnavailableSellDoesNotFailTheExit(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 1 })
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Unavail", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	e.fireAll(ctx, []dueExit{{en: entry{p: p}, i: 0}}, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
	got, _, _ := e.load(ctx, p.ID)
	refused := failedEvent(got.Exits[0].SellOrderID)
	refused.Error = &apierr.Body{Code: apierr.ChainUnavailable, Message: "the order's last delivery reached a worker serving solana on another network"}
	counted := metrics.ExitSellsUnlanded.WithLabelValues(p.Chain, wire.ExitStopLoss, outcomeWorkerUnavailable)
	before := counterValue(t, counted)
	if err := e.sellFailed(ctx, refused); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitArmed || x.RetryAt == nil || got.PendingSell != "" {
		t.Fatalf("a sell refused CHAIN_UNAVAILABLE on the exit's last attempt: %+v", got)
	}
	// Counted apart, for the alert that watches the orders a worker
	// refused so.
	if n := counterValue(t, counted) - before; n != 1 {
		t.Fatalf("tradeapi_exit_sells_unlanded_total{outcome=\"worker_unavailable\"} grew by %d", n)
	}
}

// TestRefusedSellsLeaveTheExitsAttempts: sells refused before anything was
// signed (a worker's CHAIN_UNAVAILABLE, a paused venue) do not count
// towards exits.max_attempts: after three such refusals a stop-loss still
// has every attempt for sells that can trade, and fails only after
// max_attempts of those. Counted together, the refusals left it one
// attempt, or none, and its first real failure failed it for good.
func TestRefusedSellsLeaveTheExitsAttempts(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.MaxAttempts = 2 })
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-Refusals", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	fail := func(body *apierr.Body) wire.Exit {
		t.Helper()
		q, _, _ := e.load(ctx, p.ID)
		e.fireAll(ctx, []dueExit{{en: entry{p: q}, i: 0}}, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
		fired, _, _ := e.load(ctx, p.ID)
		if fired.PendingSell == "" {
			t.Fatalf("the exit did not fire: %+v", fired.Exits[0])
		}
		ev := failedEvent(fired.Exits[0].SellOrderID)
		ev.Error = body
		if err := e.sellFailed(ctx, ev); err != nil {
			t.Fatal(err)
		}
		got, _, _ := e.load(ctx, p.ID)
		return got.Exits[0]
	}
	venue := wire.VenuePumpFun
	for _, refusal := range []*apierr.Body{
		{Code: apierr.ChainUnavailable, Message: "the order's last delivery reached a worker serving solana on another network"},
		{Code: apierr.VenuePaused, Message: "venue pump_fun is paused", Details: &venue},
		{Code: apierr.ChainUnavailable, Message: "the sale was outrun by the wallet's other sales"},
	} {
		if x := fail(refusal); x.State != wire.ExitArmed {
			t.Fatalf("refused %s: %+v", refusal.Code, x)
		}
	}
	if x := fail(nil); x.State != wire.ExitArmed || x.Attempts != 4 || x.Refusals != 3 {
		t.Fatalf("after three refusals, the first sell that failed on chain: %+v, want armed with an attempt left", x)
	}
	if x := fail(nil); x.State != wire.ExitFailed {
		t.Fatalf("after max_attempts sells that failed on chain: %+v, want failed", x)
	}
}
