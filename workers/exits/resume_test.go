package exits

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestHeldExitsResumedAtTheBudgetPace stops an engine that holds several
// sells of one account for its exit budget. Two other engines take them
// up: each exit is resumed once, by one engine, shortly after the slot it
// was held for, in trigger order and within the account's budget, not one
// per ResumeAfter as the resumed sells' own reservations come and go.
func TestHeldExitsResumedAtTheBudgetPace(t *testing.T) {
	const (
		rate        = 5 // sells a second
		burst       = 2
		interval    = time.Second / rate
		n           = 10
		resumeAfter = 2 * time.Second
	)
	b := bustest.Start(t, "exits-test")
	tune := func(c *Config) { c.AccountRate, c.AccountBurst, c.ResumeAfter = rate, burst, resumeAfter }
	first := newTestEngine(t, b, tune)
	tp := wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 100}
	var ps []*wire.Position
	for i := range n {
		ps = append(ps, openAccountPosition(t, first, "acc_resume", fmt.Sprintf("eu-Resume%d", i), "MintResume", tp))
	}
	// Fired one after the other, so that their trigger order is known.
	begin := time.Now()
	for i, p := range ps {
		obs := Observation{Price: parseRat("0.003"), At: begin.Add(time.Duration(i) * time.Millisecond).UTC()}
		if err := first.fire(context.Background(), p.ID, 0, entry{}, obs, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The engine stops before the held sells' slots: they stay firing.
	first.held.stop()
	var left []*wire.Position
	for _, p := range ps {
		got, _, err := first.load(context.Background(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Exits[0].State == wire.ExitFiring {
			left = append(left, got)
		}
	}
	if len(left) < n/2 {
		t.Fatalf("only %d of %d exits left firing by the stop", len(left), n)
	}
	resumedBefore := counterValue(t, metrics.ExitsDeferred.WithLabelValues(wire.ChainSolana, metrics.ExitDeferredResumed))

	var engines []*Engine
	for range 2 {
		e := newTestEngine(t, b, tune)
		t.Cleanup(e.held.stop)
		for _, p := range left {
			e.book.put(p)
		}
		engines = append(engines, e)
	}
	// Just after the stop the sells may still be the first engine's to
	// publish: nothing is resumed.
	for _, e := range engines {
		e.resumeStale(context.Background())
	}
	for _, p := range left {
		if id := p.Exits[0].SellOrderID; jobsFor(t, b.JS, id) != 0 {
			t.Fatalf("%s resumed while its engine may still hold it", id)
		}
	}

	// Each is resumed ResumeAfter past its own slot, and its new slot comes
	// at the budget's pace: the last soon after the last held slot, far
	// sooner than one per ResumeAfter (that would take over 20 s).
	within := resumeAfter + time.Duration(2*n)*interval + 3*time.Second
	poll.Until(t, within, "every exit left firing resumed", func() bool {
		for _, e := range engines {
			e.resumeStale(context.Background())
		}
		jobs := sellJobs(t, b.JS)
		for _, p := range left {
			if _, ok := jobs[p.Exits[0].SellOrderID]; !ok {
				return false
			}
		}
		return true
	})
	if got := counterValue(t, metrics.ExitsDeferred.WithLabelValues(wire.ChainSolana, metrics.ExitDeferredResumed)) - resumedBefore; got != len(left) {
		t.Fatalf("%d resumes counted for %d exits: an exit was resumed by both engines", got, len(left))
	}

	jobs := sellJobs(t, b.JS)
	if len(jobs) != n {
		t.Fatalf("%d sell jobs, want one per exit (%d)", len(jobs), n)
	}
	evs := poll.Value(t, 5*time.Second, "an exit_fired event of every exit", func() (map[string]events.Event, bool) {
		evs := exitEvents(t, b.JS)
		return evs, len(evs) == n
	})
	var resumed []time.Time
	for _, p := range left {
		got := poll.Value(t, 5*time.Second, "the resumed exit marked fired", func() (*wire.Position, bool) {
			got, _, err := first.load(context.Background(), p.ID)
			return got, err == nil && got.Exits[0].State == wire.ExitFired
		})
		x := got.Exits[0]
		if x.Attempts != 1 || x.SellOrderID != sellID(p.ID, 0, 0) || got.PendingSell != x.SellOrderID {
			t.Fatalf("resumed exit: %+v", got)
		}
		job := jobs[x.SellOrderID]
		want := job.CreatedAt.Sub(*x.FiredAt).Milliseconds()
		ex := evs[x.SellOrderID].Exit
		if ex == nil || ex.DeferredReason != metrics.ExitDeferredResumed || ex.DeferredMs != want {
			t.Fatalf("resumed %s: event %+v, want deferred %d ms for resumed", x.SellOrderID, ex, want)
		}
		if x.DeferredReason != metrics.ExitDeferredResumed || x.DeferredMs != want {
			t.Fatalf("resumed %s: exit says deferred %d ms for %q", x.SellOrderID, x.DeferredMs, x.DeferredReason)
		}
		resumed = append(resumed, job.CreatedAt)
	}
	t.Logf("%d exits left firing, resumed from +%v to +%v after the fire", len(left),
		resumed[0].Sub(begin).Round(time.Millisecond), slices.MaxFunc(resumed, func(a, b time.Time) int { return a.Compare(b) }).Sub(begin).Round(time.Millisecond))
	// left is in trigger order; so are the resumed sells.
	if !slices.IsSortedFunc(resumed, func(a, b time.Time) int { return a.Compare(b) }) {
		t.Fatalf("resumed sells out of trigger order: %v", resumed)
	}
	// No window saw more sells enter than the budget lets in.
	var all []time.Time
	for _, j := range jobs {
		all = append(all, j.CreatedAt)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Before(all[j]) })
	for i := range all {
		for j := i; j < len(all); j++ {
			allowed := burst + int(all[j].Sub(all[i])/interval) + 1
			if j-i+1 > allowed {
				t.Fatalf("%d sells entered within %v, the budget lets in %d", j-i+1, all[j].Sub(all[i]), allowed)
			}
		}
	}
}

// TestStaleExitResumedWhileTheAccountKeepsFiring leaves exits firing, as an
// engine that died after claiming them would, while the account fires a new
// exit every quarter of a second: the new fires' reservations do not keep
// the old claims from being resumed, ResumeAfter past their claim, in
// trigger order. The engine's clock is the test's.
func TestStaleExitResumedWhileTheAccountKeepsFiring(t *testing.T) {
	t.Parallel()
	const (
		resumeAfter = time.Second
		step        = 250 * time.Millisecond
		steps       = 24
		stale       = 4
	)
	b := bustest.Start(t, "exits-test")
	crashed := newTestEngine(t, b, func(c *Config) {
		c.ResumeAfter = resumeAfter
		c.AfterClaim = func(string, int) bool { return false }
	})
	next := newTestEngine(t, b, func(c *Config) { c.ResumeAfter = resumeAfter })
	t.Cleanup(next.held.stop)
	var clock atomic.Int64
	begin := time.Now()
	clock.Store(begin.UnixNano())
	next.now = func() time.Time { return time.Unix(0, clock.Load()) }
	// The crashed engine's claims are taken on the same clock, at begin,
	// however long they take on a busy machine.
	crashed.now = next.now

	tp := wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 100}
	// Claimed in the reverse of their trigger order.
	var left []*wire.Position
	for i := range stale {
		p := openAccountPosition(t, crashed, "acc_busy_resume", fmt.Sprintf("eu-Stale%d", i), "MintStale", tp)
		obs := Observation{Price: parseRat("0.003"), At: begin.Add(-time.Duration(i) * time.Millisecond).UTC()}
		if err := crashed.fire(context.Background(), p.ID, 0, entry{}, obs, ""); err != nil {
			t.Fatal(err)
		}
		got, _, err := crashed.load(context.Background(), p.ID)
		if err != nil || got.Exits[0].State != wire.ExitFiring {
			t.Fatalf("after the crash: %+v %v", got, err)
		}
		next.book.put(got)
		left = append(left, got)
	}
	var fresh []*wire.Position
	for i := range steps {
		fresh = append(fresh, openAccountPosition(t, next, "acc_busy_resume", fmt.Sprintf("eu-Fresh%d", i), "MintFresh", tp))
	}

	resumedAt := map[string]time.Duration{}
	for k := range steps {
		now := begin.Add(time.Duration(k) * step)
		clock.Store(now.UnixNano())
		obs := Observation{Price: parseRat("0.003"), At: now.UTC()}
		if err := next.fire(context.Background(), fresh[k].ID, 0, entry{}, obs, ""); err != nil {
			t.Fatal(err)
		}
		next.resumeStale(context.Background())
		for _, p := range left {
			id := p.Exits[0].SellOrderID
			if _, ok := resumedAt[id]; !ok && jobsFor(t, b.JS, id) == 1 {
				resumedAt[id] = now.Sub(begin)
			}
		}
	}
	for _, p := range left {
		id := p.Exits[0].SellOrderID
		at, ok := resumedAt[id]
		if !ok {
			t.Fatalf("%s never resumed while the account kept firing (%v of them)", id, time.Duration(steps)*step)
		}
		if at < resumeAfter-step || at > resumeAfter+2*step {
			t.Fatalf("%s resumed at +%v, want about ResumeAfter (%v) past its claim", id, at, resumeAfter)
		}
	}
	// Resumed in trigger order: the last claimed triggered first.
	var order []string
	for _, data := range streamMessages(t, b.JS, bus.StreamOrders, "") {
		var job wire.SwapJob
		if json.Unmarshal(data, &job) == nil && slices.ContainsFunc(left, func(p *wire.Position) bool {
			return p.Exits[0].SellOrderID == job.OrderID
		}) {
			order = append(order, job.OrderID)
		}
	}
	for i, id := range order {
		if want := left[len(left)-1-i].Exits[0].SellOrderID; id != want {
			t.Fatalf("resumed sells in the order %v, want trigger order", order)
		}
	}
}
