package exits

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// downMarket is the market of a token whose chain's RPC fails while down
// is set.
type downMarket struct{ down *atomic.Bool }

func (m downMarket) Observe(context.Context) (Observation, error) {
	if m.down.Load() {
		return Observation{}, errors.New("rpc: connection refused")
	}
	return Observation{Price: big.NewRat(2, 1000)}, nil
}

// infoLines returns the lines of log at info level or above.
func infoLines(log string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if l != "" && !strings.Contains(l, "level=DEBUG") {
			out = append(out, l)
		}
	}
	return out
}

// TestPriceReadFailuresLoggedOncePerOutage: while a chain's price reads
// fail, one warning says so with the error when they start, nothing more
// is written at info or above however long they go on failing, and one
// line says when they recover how many failed and for how long; a later
// outage is logged again.
func TestPriceReadFailuresLoggedOncePerOutage(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	var logs logtest.Buffer
	e.log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clock := time.Unix(1_700_000_000, 0)
	e.now = func() time.Time { return clock }
	ctx := context.Background()
	var down atomic.Bool
	m := downMarket{&down}
	tokens := []tokenKey{{wire.ChainSolana, "MintA", ""}, {wire.ChainSolana, "MintB", ""}}
	errors0 := counterValue(t, metrics.PriceReads.WithLabelValues(wire.ChainSolana, "error"))

	poll := func() {
		for _, k := range tokens {
			e.prices.read(ctx, k, m)
		}
		clock = clock.Add(500 * time.Millisecond)
	}
	poll()
	if got := infoLines(logs.String()); len(got) != 0 {
		t.Fatalf("reads that succeed logged %q", got)
	}
	down.Store(true)
	for range 160 { // 80 s at a 500 ms poll
		poll()
	}
	got := infoLines(logs.String())
	if len(got) != 1 || !strings.Contains(got[0], "level=WARN") || !strings.Contains(got[0], "price reads failing") ||
		!strings.Contains(got[0], "connection refused") || !strings.Contains(got[0], "chain=solana") {
		t.Fatalf("80 s of failed reads of 2 tokens logged %d lines at info or above, want one warning with the error:\n%s", len(got), strings.Join(got, "\n"))
	}
	if n := counterValue(t, metrics.PriceReads.WithLabelValues(wire.ChainSolana, "error")) - errors0; n != 320 {
		t.Fatalf("counted %d failed reads, want 320", n)
	}
	down.Store(false)
	poll()
	poll()
	got = infoLines(logs.String())
	if len(got) != 2 || !regexp.MustCompile(`price reads recovered" chain=solana failures=320 tokens=2 for=1m20s`).MatchString(got[1]) {
		t.Fatalf("after the recovery the lines are:\n%s\nwant one more saying 320 failed over 80 s", strings.Join(got, "\n"))
	}
	down.Store(true)
	poll()
	if got = infoLines(logs.String()); len(got) != 3 || !strings.Contains(got[2], "price reads failing") {
		t.Fatalf("a later outage logged:\n%s", strings.Join(got, "\n"))
	}
}

// TestPriceReadStreakEndsWhenItsTokensGo: a streak of failed reads whose
// tokens are no longer read here ends, so that the next failure starts
// (and logs) a new one.
func TestPriceReadStreakEndsWhenItsTokensGo(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	var logs logtest.Buffer
	e.log = slog.New(slog.NewTextHandler(&logs, nil))
	var down atomic.Bool
	down.Store(true)
	ctx := context.Background()
	e.prices.read(ctx, tokenKey{wire.ChainSolana, "MintGone", ""}, downMarket{&down})
	e.prices.mu.Lock()
	e.prices.pruneFailing()
	e.prices.mu.Unlock()
	e.prices.read(ctx, tokenKey{wire.ChainSolana, "MintNext", ""}, downMarket{&down})
	got := infoLines(logs.String())
	if len(got) != 3 || !strings.Contains(got[1], "no longer read here") || !strings.Contains(got[2], "token=MintNext") {
		t.Fatalf("lines:\n%s\nwant the streak of a token no longer read ended, and the next failure logged", strings.Join(got, "\n"))
	}
}

// noMarketChain makes no price reader for any token.
type noMarketChain struct{ tokensChain }

func (noMarketChain) Market(*wire.Position) (Market, error) {
	return nil, errors.New("the token's pool cannot be read")
}

// TestNoPriceReaderLoggedOnce: a token whose reader cannot be made is
// logged once, not at every poll.
func TestNoPriceReaderLoggedOnce(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	var logs logtest.Buffer
	e, err := New(Config{ID: "e1", PollInterval: 10 * time.Millisecond, Beat: 50 * time.Millisecond, SellSlippageBps: 2000},
		b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: noMarketChain{}}, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	pct := 50.0
	openAccountPosition(t, e, "acc1", "o-nomarket", "MintNoMarket", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: &pct, SellPct: 100})
	lines := func() int { return strings.Count(logs.String(), "no price reader for token") }
	for deadline := time.Now().Add(10 * time.Second); lines() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // about 50 polls more
	if n := lines(); n != 1 {
		t.Fatalf("the token without a reader logged %d times, want once", n)
	}
}
