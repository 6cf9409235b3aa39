package exits

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/metrics"
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
	// Any other failure on the last attempt fails it.
	e.fireAll(ctx, due, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
	got, _, _ = e.load(ctx, p.ID)
	if err := e.sellFailed(ctx, failedEvent(got.Exits[0].SellOrderID)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = e.load(ctx, p.ID)
	if x := got.Exits[0]; x.State != wire.ExitFailed {
		t.Fatalf("after a real failure on the last attempt: %+v", x)
	}
}

// TestClosedPositionStopsWaiting: a position whose due exit waits for its
// paused venue, and that is then closed (sold by hand) or deleted, leaves
// no wait behind in the engine.
func TestClosedPositionStopsWaiting(t *testing.T) {
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

// TestGateVenue: an EVM position's pool names the Uniswap venue whose
// pause holds its exit; a Solana position's venue is its own.
func TestGateVenue(t *testing.T) {
	tests := []struct{ chain, venue, want string }{
		{wire.ChainBase, wire.VenueV2, venues.UniswapV2},
		{wire.ChainEth, wire.VenueV3, venues.UniswapV3},
		{wire.ChainSolana, wire.VenuePumpSwap, venues.PumpSwap},
		{wire.ChainSolana, wire.VenueDBC, venues.DBC},
	}
	for _, tt := range tests {
		if got := gateVenue(&wire.Position{Chain: tt.chain, Venue: tt.venue}); got != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.chain, tt.venue, got, tt.want)
		}
	}
}
