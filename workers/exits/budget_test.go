package exits

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestBudgetSlot(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	b := &budget{interval: 100 * time.Millisecond, burst: 3}
	// Each step asks at now with the Next the step before stored.
	steps := []struct {
		now      time.Time
		wantAt   time.Time
		wantNext time.Time
	}{
		{ms(0), ms(0), ms(100)},        // empty history: a full bucket
		{ms(0), ms(0), ms(200)},        // burst of three at once
		{ms(0), ms(0), ms(300)},        //
		{ms(0), ms(100), ms(400)},      // the fourth waits one interval
		{ms(0), ms(200), ms(500)},      // and the fifth two
		{ms(250), ms(300), ms(600)},    // asked later, still queued behind them
		{ms(2000), ms(2000), ms(2100)}, // after a quiet spell the bucket is full again
	}
	next := time.Time{}
	for i, st := range steps {
		at, n := b.slot(next, st.now)
		if !at.Equal(st.wantAt) || !n.Equal(st.wantNext) {
			t.Fatalf("step %d: at %v next %v, want %v %v", i, at.Sub(t0), n.Sub(t0), st.wantAt.Sub(t0), st.wantNext.Sub(t0))
		}
		next = n
	}
}

// TestBudgetSharedByEngines reserves from two budgets over one bucket at
// once, as two engines would: together they hand out one account's slots
// once each, at the bounded rate.
func TestBudgetSharedByEngines(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	one := newBudget(b.Buckets.Positions, 10, 3, time.Now)
	two := newBudget(b.Buckets.Positions, 10, 3, time.Now)
	const n = 24
	begin := time.Now()
	var mu sync.Mutex
	var got []time.Time
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bd := one
			if i%2 == 1 {
				bd = two
			}
			at, err := bd.reserve(context.Background(), "acc_shared")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got = append(got, at)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(got) != n {
		t.Fatalf("%d slots, want %d", len(got), n)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].Before(got[j]) })
	for k, at := range got {
		// The k-th slot is at least k-2 intervals after the first request.
		if min := begin.Add(time.Duration(k-2) * 100 * time.Millisecond); at.Before(min) {
			t.Fatalf("slot %d at +%v, before +%v", k, at.Sub(begin), min.Sub(begin))
		}
		// Past the burst and the first queued slot, the slots follow each
		// other one interval apart exactly.
		if k > 3 && got[k].Sub(got[k-1]) != 100*time.Millisecond {
			t.Fatalf("slots %d and %d %v apart, want an interval", k-1, k, got[k].Sub(got[k-1]))
		}
	}
	// Both engines saw their own reservations; the bucket holds the last.
	st, _, err := one.load(context.Background(), budgetKey("acc_shared"))
	if err != nil || st.Next.Before(got[n-1]) {
		t.Fatalf("stored next %v (%v), last slot %v", st.Next, err, got[n-1])
	}
}

// TestExitBudget fires many exits of one account at once, on one engine or
// split over two: every exit fires once, the sells enter the pipeline at
// the account's rate, the late ones say so, and another account's exits on
// the same token go at once.
func TestExitBudget(t *testing.T) {
	const (
		rate     = 10 // sells a second
		burst    = 3
		interval = time.Second / rate
		many     = 25 // exits of the busy account
		few      = 3  // exits of the other account
	)
	for _, tc := range []struct {
		name    string
		engines int
	}{
		{"one engine", 1},
		{"two engines share the budget", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bustest.Start(t, "exits-test")
			var engines []*Engine
			for range tc.engines {
				e := newTestEngine(t, b, func(c *Config) { c.AccountRate, c.AccountBurst = rate, burst })
				t.Cleanup(e.held.stop)
				engines = append(engines, e)
			}
			tp := wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 100}
			// The busy account's positions alternate between two tokens,
			// each read by one engine; the other account's sit on the first.
			tokenOf := func(i int) string { return []string{"MintBudgetA", "MintBudgetB"}[i%tc.engines] }
			var busy, other []*wire.Position
			for i := range many {
				busy = append(busy, openAccountPosition(t, engines[0], "acc_busy", fmt.Sprintf("eu-Busy%d", i), tokenOf(i), tp))
			}
			for i := range few {
				other = append(other, openAccountPosition(t, engines[0], "acc_other", fmt.Sprintf("eu-Other%d", i), "MintBudgetA", tp))
			}
			for _, e := range engines[1:] {
				for _, p := range append(slices.Clone(busy), other...) {
					e.book.put(p)
				}
			}
			deferredBefore := counterValue(t, metrics.ExitsDeferred.WithLabelValues(wire.ChainSolana, metrics.ExitDeferredBudget))

			begin := time.Now()
			obs := Observation{Price: parseRat("0.003"), At: begin.UTC()}
			var wg sync.WaitGroup
			for i, e := range engines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					e.evaluate(context.Background(), watchedKey(t, e, wire.ChainSolana, tokenOf(i)), obs)
				}()
			}
			wg.Wait()

			all := append(slices.Clone(busy), other...)
			evs := poll.Value(t, 10*time.Second, "an exit_fired event of every exit", func() (map[string]events.Event, bool) {
				evs := exitEvents(t, b.JS)
				return evs, len(evs) == len(all)
			})
			jobs := sellJobs(t, b.JS)
			if len(jobs) != len(all) {
				t.Fatalf("%d sell jobs, want one per exit (%d)", len(jobs), len(all))
			}
			for _, p := range all {
				// The exit_fired event goes out before the exit is marked
				// fired: wait for the mark.
				got := poll.Value(t, 5*time.Second, p.ID+" marked fired", func() (*wire.Position, bool) {
					got, _, err := engines[0].load(context.Background(), p.ID)
					return got, err == nil && got.Exits[0].State == wire.ExitFired
				})
				x := got.Exits[0]
				if x.State != wire.ExitFired || x.Attempts != 1 || x.SellOrderID != sellID(p.ID, 0, 0) || got.PendingSell != x.SellOrderID {
					t.Fatalf("%s after the burst: %+v", p.ID, got)
				}
				if _, ok := jobs[x.SellOrderID]; !ok {
					t.Fatalf("no sell job of %s", p.ID)
				}
			}

			// The busy account's sells: the k-th entered the pipeline no
			// sooner than k-burst+1 intervals after the exits fired, and
			// the whole run took about as long as the rate needs.
			var times []time.Time
			for _, p := range busy {
				times = append(times, jobs[sellID(p.ID, 0, 0)].CreatedAt)
			}
			sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
			for k, at := range times {
				if floor := begin.Add(time.Duration(k-burst+1) * interval); at.Before(floor.Add(-5 * time.Millisecond)) {
					t.Fatalf("sell %d entered at +%v, before its slot at +%v", k, at.Sub(begin), floor.Sub(begin))
				}
			}
			if last, want := times[many-1].Sub(begin), time.Duration(many-burst)*interval; last > want+2*time.Second {
				t.Fatalf("the last sell entered at +%v, want about +%v", last, want)
			}

			// The late ones say so, by exactly how late they went.
			deferred := 0
			for _, p := range busy {
				id := sellID(p.ID, 0, 0)
				ex := evs[id].Exit
				if ex == nil || ex.PositionID != p.ID || ex.SellOrderID != id || ex.Type != wire.ExitTakeProfit || ex.Wallet != p.Wallet {
					t.Fatalf("exit_fired of %s: %+v", id, ex)
				}
				if ex.DeferredReason == "" {
					if ex.DeferredMs != 0 {
						t.Fatalf("%s on time with deferred_ms %d", id, ex.DeferredMs)
					}
					continue
				}
				deferred++
				want := jobs[id].CreatedAt.Sub(obs.At).Milliseconds()
				if ex.DeferredReason != metrics.ExitDeferredBudget || ex.DeferredMs != want || want < int64(interval/time.Millisecond)/2 {
					t.Fatalf("%s: deferred %d ms for %q, want %d ms for budget", id, ex.DeferredMs, ex.DeferredReason, want)
				}
			}
			// All but the burst wait for a slot; on a loaded machine a sell
			// whose slot came while it was being reserved goes out on time,
			// and says so, so fewer may say they waited, never more.
			if deferred == 0 || deferred > many-burst {
				t.Fatalf("%d sells say they were deferred, want up to %d (all but the burst)", deferred, many-burst)
			}
			if n := counterValue(t, metrics.ExitsDeferred.WithLabelValues(wire.ChainSolana, metrics.ExitDeferredBudget)) - deferredBefore; n != deferred {
				t.Fatalf("deferred counter moved by %v, want %d, as the events say", n, deferred)
			}

			// The other account's sells went at once and say nothing.
			for _, p := range other {
				id := sellID(p.ID, 0, 0)
				if at := jobs[id].CreatedAt.Sub(begin); at > time.Second {
					t.Fatalf("the other account's %s entered at +%v, behind the busy account", id, at)
				}
				if ex := evs[id].Exit; ex == nil || ex.DeferredReason != "" || ex.DeferredMs != 0 {
					t.Fatalf("the other account's %s: %+v", id, ex)
				}
			}
			poll.Until(t, 5*time.Second, "no sell held", func() bool {
				return gaugeValue(t, metrics.ExitsHeld.WithLabelValues(wire.ChainSolana)) == 0
			})
		})
	}
}

// TestHeldExitResumedAfterItsEngineStops stops an engine while it holds a
// sell for the account's budget: the exit stays firing, and another engine
// resumes it once ResumeAfter has passed beyond the slot it was held for,
// with one job.
func TestHeldExitResumedAfterItsEngineStops(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	slow := func(c *Config) { c.AccountRate, c.AccountBurst, c.ResumeAfter = 1, 1, 200*time.Millisecond }
	first := newTestEngine(t, b, slow)
	tp := wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 100}
	a := openAccountPosition(t, first, "acc_h", "eu-HeldA", "MintHeld", tp)
	c := openAccountPosition(t, first, "acc_h", "eu-HeldB", "MintHeld", tp)
	first.evaluate(context.Background(), keyOf(a), Observation{Price: parseRat("0.003"), At: time.Now().UTC()})
	// One sell went, the other waits a second for its slot; stopping the
	// engine then leaves it firing.
	held := ""
	for _, p := range []*wire.Position{a, c} {
		if id := sellID(p.ID, 0, 0); first.held.has(id) {
			held = id
		}
	}
	if held == "" {
		t.Fatal("no sell held with a burst of one")
	}
	first.held.stop()
	posID, _, _ := parseSellID(held)
	left, _, _ := first.load(context.Background(), posID)
	if left.Exits[0].State != wire.ExitFiring || jobsFor(t, b.JS, held) != 0 {
		t.Fatalf("after the stop: %+v, %d jobs", left.Exits[0], jobsFor(t, b.JS, held))
	}

	next := newTestEngine(t, b, slow)
	t.Cleanup(next.held.stop)
	next.book.put(left)
	next.budget.apply(budgetKey("acc_h"), mustGet(t, b.Buckets.Positions, budgetKey("acc_h")))
	// While the first engine may still hold it for its slot, nothing is
	// resumed.
	next.resumeStale(context.Background())
	if jobsFor(t, b.JS, held) != 0 || next.held.has(held) {
		t.Fatal("a sell another engine may still hold was resumed")
	}
	poll.Until(t, 10*time.Second, "the held sell resumed and published", func() bool {
		next.resumeStale(context.Background())
		return jobsFor(t, b.JS, held) == 1
	})
	got := poll.Value(t, 5*time.Second, "the resumed exit marked fired", func() (*wire.Position, bool) {
		p, _, err := next.load(context.Background(), posID)
		return p, err == nil && p.Exits[0].State == wire.ExitFired
	})
	if got.Exits[0].Attempts != 1 || got.PendingSell != held {
		t.Fatalf("resumed exit: %+v", got)
	}
	ev := poll.Value(t, 5*time.Second, "its exit_fired event", func() (events.Event, bool) {
		ev, ok := exitEvents(t, b.JS)[held]
		return ev, ok
	})
	if ev.Exit == nil || ev.Exit.DeferredReason != metrics.ExitDeferredResumed || ev.Exit.DeferredMs < 200 {
		t.Fatalf("resumed exit's event: %+v", ev.Exit)
	}
	// The buy's kind, as every event of an order carries it.
	if ev.Kind != wire.KindSwap {
		t.Fatalf("exit_fired kind %q, want swap", ev.Kind)
	}
}

// sellJobs returns the sell jobs stored in ORDERS by order id.
func sellJobs(t *testing.T, js jetstream.JetStream) map[string]wire.SwapJob {
	t.Helper()
	out := map[string]wire.SwapJob{}
	for _, data := range streamMessages(t, js, bus.StreamOrders, "") {
		var job wire.SwapJob
		if json.Unmarshal(data, &job) == nil && job.Side == wire.Sell {
			if _, dup := out[job.OrderID]; dup {
				t.Fatalf("sell %s stored twice", job.OrderID)
			}
			out[job.OrderID] = job
		}
	}
	return out
}

// exitEvents returns the exit_fired events in EVENTS by sell order id.
func exitEvents(t *testing.T, js jetstream.JetStream) map[string]events.Event {
	t.Helper()
	out := map[string]events.Event{}
	for _, data := range streamMessages(t, js, bus.StreamEvents, "."+string(events.ExitFired)) {
		var ev events.Event
		if json.Unmarshal(data, &ev) == nil && ev.Exit != nil {
			out[ev.Exit.SellOrderID] = ev
		}
	}
	return out
}

// streamMessages reads every message a stream holds, of the subjects
// ending in suffix when it is set.
func streamMessages(t *testing.T, js jetstream.JetStream, stream, suffix string) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil || !strings.HasSuffix(m.Subject, suffix) {
			continue
		}
		out = append(out, m.Data)
	}
	return out
}

func mustGet(t *testing.T, kv jetstream.KeyValue, key string) []byte {
	t.Helper()
	en, err := kv.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return en.Value()
}

func counterValue(t *testing.T, c prometheus.Counter) int {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return int(m.GetCounter().GetValue())
}

func gaugeValue(t *testing.T, g prometheus.Gauge) float64 {
	t.Helper()
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}
