package venues

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// history records every state written to the bucket.
type history struct {
	mu     sync.Mutex
	states []State
}

func (h *history) watch(t *testing.T, kv jetstream.KeyValue) {
	t.Helper()
	w, err := kv.WatchAll(context.Background(), jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	go func() {
		for e := range w.Updates() {
			if e == nil {
				continue
			}
			var st State
			if json.Unmarshal(e.Value(), &st) == nil {
				h.mu.Lock()
				h.states = append(h.states, st)
				h.mu.Unlock()
			}
		}
	}()
}

// of returns the states written for venue.
func (h *history) of(venue string) []State {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []State
	for _, s := range h.states {
		if s.Venue == venue {
			out = append(out, s)
		}
	}
	return out
}

func runWatcher(t *testing.T, w *Watcher) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// TestWatcherFollowsUpgrades drives the local chain through a compatible
// upgrade (never paused), a breaking one (paused at the next poll, once)
// and its revert (active again), with re-checks that would otherwise wait
// an hour.
func TestWatcherFollowsUpgrades(t *testing.T) {
	c, s, _ := localChain(t)
	kv := bucket(t)
	store := NewStore(kv)
	var h history
	h.watch(t, kv)
	runWatcher(t, NewWatcher(WatcherConfig{Poll: 20 * time.Millisecond, Recheck: time.Hour, PausedRecheck: time.Hour}, s, store, nil))
	stateOf := func() State {
		st, _, err := store.Get(ctxT(t), wire.ChainSolana, PumpFun)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// Every venue is checked once at start.
	poll.Until(t, 10*time.Second, "every venue recorded", func() bool {
		for _, v := range SolanaVenues {
			if len(h.of(v)) == 0 {
				return false
			}
		}
		return true
	})
	pauses := metricValue(metrics.VenuePauses.WithLabelValues(PumpFun, wire.ChainSolana))

	// A compatible upgrade is checked again (its fingerprint moved), twice,
	// and never paused.
	for range 2 {
		up, err := c.UpgradeProgram(PumpFun, false, false)
		if err != nil {
			t.Fatal(err)
		}
		poll.Until(t, 10*time.Second, "the compatible upgrade checked", func() bool {
			return stateOf().Height >= up.DeploySlot && stateOf().Fingerprint == "deployed at slot "+itoa(up.DeploySlot)
		})
	}
	for _, st := range h.of(PumpFun) {
		if st.IsPaused() {
			t.Fatalf("a compatible upgrade paused pump_fun: %+v", st)
		}
	}

	// A breaking one pauses it with the reason, once.
	start := time.Now()
	up, err := c.UpgradeProgram(PumpFun, true, false)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "pump_fun paused", func() bool { return stateOf().IsPaused() })
	t.Logf("paused %v after the breaking upgrade", time.Since(start).Round(time.Millisecond))
	if st := stateOf(); !strings.Contains(st.Reason, up.RequiredAccount.String()) || st.Fingerprint != "deployed at slot "+itoa(up.DeploySlot) {
		t.Fatalf("paused state %+v", st)
	}
	// The pause is counted just after it is stored, which the view may
	// show first.
	counted := metrics.VenuePauses.WithLabelValues(PumpFun, wire.ChainSolana)
	poll.Until(t, 5*time.Second, "the pause counted", func() bool { return metricValue(counted) >= pauses+1 })
	if got := metricValue(counted); got != pauses+1 {
		t.Fatalf("pauses counted %v, want %v", got, pauses+1)
	}
	for _, v := range []string{PumpSwap, LaunchLab, DBC} {
		if st, _, _ := store.Get(ctxT(t), wire.ChainSolana, v); st.IsPaused() {
			t.Fatalf("%s paused by pump_fun's upgrade", v)
		}
	}

	// The revert moves the deploy slot again: checked at once, active.
	if _, err := c.UpgradeProgram(PumpFun, false, true); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "pump_fun active again", func() bool { return !stateOf().IsPaused() })
	if st := stateOf(); st.Reason != "" {
		t.Fatalf("active state keeps a reason: %+v", st)
	}
}

// TestWatcherRechecksPausedVenues: a pause whose cause goes away without a
// redeploy (a layout restored) lifts at the paused re-check.
func TestWatcherRechecksPausedVenues(t *testing.T) {
	c, s, _ := localChain(t)
	store := NewStore(bucket(t))
	orig, _ := c.GetAccount(s.layoutsOf(PumpSwap)[0].addr)
	short := orig
	short.Data = orig.Data[:100]
	c.SetAccount(s.layoutsOf(PumpSwap)[0].addr, short)
	runWatcher(t, NewWatcher(WatcherConfig{Poll: 20 * time.Millisecond, Recheck: time.Hour, PausedRecheck: 100 * time.Millisecond}, s, store, nil))
	get := func() State {
		st, _, _ := store.Get(ctxT(t), wire.ChainSolana, PumpSwap)
		return st
	}
	poll.Until(t, 10*time.Second, "pumpswap paused", func() bool { return get().IsPaused() })
	if !strings.Contains(get().Reason, "shrank to 100 bytes") {
		t.Fatalf("reason %q", get().Reason)
	}
	c.SetAccount(s.layoutsOf(PumpSwap)[0].addr, orig)
	poll.Until(t, 10*time.Second, "pumpswap resumed", func() bool { st := get(); return st.State == Active })
}

func TestAdminResume(t *testing.T) {
	c, s, _ := localChain(t)
	store := NewStore(bucket(t))
	a := NewAdmin(store, nil, s)
	up, err := c.UpgradeProgram(DBC, true, false)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		venue   string
		revert  bool
		code    apierr.Code
		status  int
		details string
		message string
		state   string
	}{
		{"unknown", "raydium", false, apierr.NotFound, http.StatusNotFound, "venue", `no venue is named "raydium"`, ""},
		{"not watched", UniswapV3, false, apierr.NotFound, http.StatusNotFound, "venue", "uniswap_v3 is not watched by this service", ""},
		{"still failing", DBC, false, apierr.VenueStillFailing, http.StatusConflict, DBC, up.RequiredAccount.String(), Paused},
		{"checks pass", DBC, true, "", http.StatusOK, "", "", Active},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.revert {
				if _, err := c.UpgradeProgram(DBC, false, true); err != nil {
					t.Fatal(err)
				}
			}
			st, err := a.Resume(ctxT(t), "", tt.venue)
			if tt.code != "" {
				ae := apierr.From(err)
				if ae.Code != tt.code || ae.Status() != tt.status || ae.Details != tt.details || !strings.Contains(ae.Message, tt.message) {
					t.Fatalf("got %s %d %q %q", ae.Code, ae.Status(), ae.Details, ae.Message)
				}
			} else if err != nil || st.State != Active || st.Venue != DBC || st.Chain != wire.ChainSolana || st.CheckedAt.IsZero() {
				t.Fatalf("resume: %+v %v", st, err)
			}
			if tt.state != "" {
				stored, ok, _ := store.Get(ctxT(t), wire.ChainSolana, DBC)
				if !ok || stored.State != tt.state {
					t.Fatalf("stored %+v, want %s", stored, tt.state)
				}
			}
		})
	}
	list, err := a.List(ctxT(t))
	if err != nil || len(list) != len(SolanaVenues) {
		t.Fatalf("list %+v %v", list, err)
	}
	for _, st := range list {
		if st.State != Active || (st.Venue == DBC) == st.CheckedAt.IsZero() {
			t.Fatalf("list %+v", list)
		}
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// lineCounter counts log lines by level and message.
type lineCounter struct {
	mu    sync.Mutex
	lines map[string]int
}

func (c *lineCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c *lineCounter) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines[r.Level.String()+" "+r.Message]++
	return nil
}
func (c *lineCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *lineCounter) WithGroup(string) slog.Handler      { return c }
func (c *lineCounter) count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines[key]
}

// TestWatcherQuietWhileTheChainIsDown: a chain that does not answer is a
// warning once a minute, not once a poll, and changes no state.
func TestWatcherQuietWhileTheChainIsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing answers there any more
	s := NewSolana(rpc.New(url), SolanaConfig{}, nil)
	store := NewStore(bucket(t))
	logs := &lineCounter{lines: map[string]int{}}
	runWatcher(t, NewWatcher(WatcherConfig{Poll: 5 * time.Millisecond}, s, store, slog.New(logs)))
	poll.Until(t, 10*time.Second, "ten failed polls", func() bool { return logs.count("DEBUG read venue fingerprints") >= 10 })
	if n := logs.count("WARN read venue fingerprints"); n != 1 {
		t.Fatalf("%d warnings, want 1", n)
	}
	if sts, err := store.List(ctxT(t)); err != nil || len(sts) != 0 {
		t.Fatalf("states recorded without a check: %+v %v", sts, err)
	}
}
