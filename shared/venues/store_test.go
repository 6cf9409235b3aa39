package venues

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// bucket starts an embedded NATS server and declares the venues bucket on
// its admin connection, as the composition root of up does.
func bucket(t testing.TB) jetstream.KeyValue {
	t.Helper()
	b := bustest.Start(t, "venues")
	kv, err := Declare(ctxT(t), b.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

var t0 = time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC)

func TestStoreRecord(t *testing.T) {
	st := NewStore(bucket(t))
	ctx := ctxT(t)
	rec := func(state string, height uint64, at time.Time) (State, bool) {
		t.Helper()
		_, stored, wrote, err := st.Record(ctx, State{Venue: PumpFun, Chain: wire.ChainSolana, State: state, CheckedAt: at, Height: height})
		if err != nil {
			t.Fatal(err)
		}
		return stored, wrote
	}
	steps := []struct {
		name   string
		state  string
		height uint64
		at     time.Time
		wrote  bool
		since  time.Time // of the stored state
		stored string
	}{
		{"first check", Active, 10, t0, true, t0, Active},
		{"still active keeps since", Active, 12, t0.Add(time.Minute), true, t0, Active},
		{"paused starts since", Paused, 20, t0.Add(2 * time.Minute), true, t0.Add(2 * time.Minute), Paused},
		{"an older height checked seconds later is dropped", Active, 15, t0.Add(2*time.Minute + 5*time.Second), false, t0.Add(2 * time.Minute), Paused},
		{"still paused keeps since", Paused, 21, t0.Add(4 * time.Minute), true, t0.Add(2 * time.Minute), Paused},
		{"resumed", Active, 22, t0.Add(5 * time.Minute), true, t0.Add(5 * time.Minute), Active},
		// Another history of the chain (its RPC served another chain, or
		// it was reset): a lower height checked well after the stored one
		// stands, paused or not.
		{"a lower height checked later pauses", Paused, 3, t0.Add(7 * time.Minute), true, t0.Add(7 * time.Minute), Paused},
		{"and resumes", Active, 4, t0.Add(8 * time.Minute), true, t0.Add(8 * time.Minute), Active},
	}
	for _, s := range steps {
		got, wrote := rec(s.state, s.height, s.at)
		if wrote != s.wrote || !got.Since.Equal(s.since) || got.State != s.stored {
			t.Fatalf("%s: wrote %v, stored %+v; want wrote %v, %s since %s", s.name, wrote, got, s.wrote, s.stored, s.since)
		}
	}
	// An operator's resume is written whatever the stored height.
	if _, _, _, err := st.Record(ctx, State{Venue: PumpFun, Chain: wire.ChainSolana, State: Paused, CheckedAt: t0.Add(9 * time.Minute), Height: 100}); err != nil {
		t.Fatal(err)
	}
	if _, stored, wrote, err := st.RecordAsked(ctx, State{Venue: PumpFun, Chain: wire.ChainSolana, State: Active, CheckedAt: t0.Add(9*time.Minute + time.Second), Height: 5}); err != nil || !wrote || stored.State != Active {
		t.Fatalf("an asked resume at a lower height: wrote %v, %+v, %v", wrote, stored, err)
	}
	if _, _, _, err := st.Record(ctx, State{Venue: UniswapV2, Chain: wire.ChainBase, State: Active, CheckedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := st.Record(ctx, State{Venue: DBC, Chain: wire.ChainSolana, State: Active, CheckedAt: t0}); err != nil {
		t.Fatal(err)
	}
	list, err := st.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range list {
		order = append(order, Key(s.Chain, s.Venue))
	}
	if want := []string{"base.uniswap_v2", "solana.pump_fun", "solana.dbc"}; !equal(order, want) {
		t.Fatalf("list order %v, want %v", order, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestViewRefusesPausedVenues: the view follows the bucket, answers
// VENUE_PAUSED for a paused venue only, and sets the gauge.
func TestViewRefusesPausedVenues(t *testing.T) {
	kv := bucket(t)
	st := NewStore(kv)
	v := NewView(kv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	<-v.Ready()
	if err := v.Open(wire.ChainSolana, LaunchLab); err != nil {
		t.Fatalf("a venue never checked is refused: %v", err)
	}
	gauge := metrics.VenuePaused.WithLabelValues(LaunchLab, wire.ChainSolana)
	for _, step := range []struct {
		state  string
		height uint64
		code   apierr.Code
		gauge  float64
	}{
		{Paused, 1, apierr.VenuePaused, 1},
		{Active, 2, "", 0},
	} {
		if _, _, _, err := st.Record(ctxT(t), State{Venue: LaunchLab, Chain: wire.ChainSolana, State: step.state,
			Reason: "launchlab program upgraded", CheckedAt: t0, Height: step.height}); err != nil {
			t.Fatal(err)
		}
		poll.Until(t, 5*time.Second, "the view sees "+step.state, func() bool {
			s, ok := v.State(wire.ChainSolana, LaunchLab)
			return ok && s.State == step.state
		})
		err := v.Open(wire.ChainSolana, LaunchLab)
		var ae *apierr.Error
		switch {
		case step.code == "" && err != nil:
			t.Fatalf("%s: refused with %v", step.state, err)
		case step.code != "" && (!errors.As(err, &ae) || ae.Code != step.code || ae.Status() != http.StatusServiceUnavailable ||
			ae.Details != LaunchLab || ae.Message != "launchlab is paused since 2026-05-09T07:00:00Z: launchlab program upgraded. Nothing was charged; the venue trades again once its checks pass"):
			t.Fatalf("%s: %#v", step.state, err)
		}
		if g := metricValue(gauge); g != step.gauge {
			t.Fatalf("%s: gauge %v, want %v", step.state, g, step.gauge)
		}
		// Another venue is never refused for this one's pause.
		if err := v.Open(wire.ChainSolana, PumpFun); err != nil {
			t.Fatalf("pump_fun refused for launchlab's pause: %v", err)
		}
	}
	if got := v.List(); len(got) != 1 || got[0].Venue != LaunchLab {
		t.Fatalf("list %+v", got)
	}
}

// TestStatesOfChainsNotServed: a chain the configuration no longer serves
// keeps its last states in the bucket; the view of a process that does
// not serve it neither holds them nor sets the gauge (whose alert would
// fire for good on a pause there), and the admin list leaves them out.
func TestStatesOfChainsNotServed(t *testing.T) {
	kv := bucket(t)
	st := NewStore(kv)
	for _, s := range []State{
		{Venue: UniswapV2, Chain: wire.ChainBsc, State: Paused, Reason: "the RPC serves chain id 1", CheckedAt: t0, Height: 1},
		{Venue: PumpFun, Chain: wire.ChainSolana, State: Active, CheckedAt: t0, Height: 1},
	} {
		if _, _, _, err := st.Record(ctxT(t), s); err != nil {
			t.Fatal(err)
		}
	}
	metrics.VenuePaused.DeleteLabelValues(UniswapV2, wire.ChainBsc)
	v := NewView(kv, nil).Serving(func(chain string) bool { return chain == wire.ChainSolana })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	<-v.Ready()
	if got := v.List(); len(got) != 1 || got[0].Chain != wire.ChainSolana {
		t.Fatalf("view %+v", got)
	}
	if g := metricValue(metrics.VenuePaused.WithLabelValues(UniswapV2, wire.ChainBsc)); g != 0 {
		t.Fatalf("gauge of a chain not served %v", g)
	}
	got, err := NewAdmin(st, nil, NewSolana(nil, SolanaConfig{}, nil)).List(ctxT(t))
	if err != nil || len(got) != len(SolanaVenues) {
		t.Fatalf("admin list %+v %v", got, err)
	}
	for _, s := range got {
		if s.Chain != wire.ChainSolana {
			t.Fatalf("admin list %+v", got)
		}
	}
}

// TestAdminListsVenuesNotYetChecked: a venue whose checks never ran (its
// RPC down since the start) is listed, active as the gates treat it and
// with no CheckedAt, beside the states recorded, in the fixed order.
func TestAdminListsVenuesNotYetChecked(t *testing.T) {
	st := NewStore(bucket(t))
	if _, _, _, err := st.Record(ctxT(t), State{Venue: LaunchLab, Chain: wire.ChainSolana, State: Paused, Reason: "launchlab program upgraded", CheckedAt: t0, Height: 1}); err != nil {
		t.Fatal(err)
	}
	got, err := NewAdmin(st, nil, NewSolana(nil, SolanaConfig{}, nil)).List(ctxT(t))
	if err != nil || len(got) != len(SolanaVenues) {
		t.Fatalf("admin list %+v %v", got, err)
	}
	for i, s := range got {
		if s.Venue != SolanaVenues[i] || s.Chain != wire.ChainSolana {
			t.Fatalf("%d: %+v, want %s on solana", i, s, SolanaVenues[i])
		}
		if s.Venue == LaunchLab {
			if !s.IsPaused() || !s.CheckedAt.Equal(t0) {
				t.Fatalf("recorded state lost: %+v", s)
			}
			continue
		}
		if s.State != Active || !s.CheckedAt.IsZero() || s.Reason != "" {
			t.Fatalf("not yet checked: %+v", s)
		}
	}
}

// metricValue reads a gauge's or a counter's value.
func metricValue(c prometheus.Metric) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		panic(err)
	}
	if m.Gauge != nil {
		return m.Gauge.GetValue()
	}
	return m.Counter.GetValue()
}
