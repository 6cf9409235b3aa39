package solana

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// hashScene is a blockhash cache over the fake chain with a clock the test
// moves.
type hashScene struct {
	chain    *fakeChain
	cache    *blockhashCache
	failures prometheus.Counter
	logs     *bytes.Buffer

	mu    sync.Mutex
	clock time.Time
}

func newHashScene(t *testing.T, refresh, maxAge time.Duration) *hashScene {
	t.Helper()
	chain := newFakeChain()
	sc := &hashScene{
		chain: chain,
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "test_blockhash_refresh_failures_total", Help: "Failed refreshes in this test.",
		}),
		logs:  new(bytes.Buffer),
		clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	s := NewSigner(chain, &fakeKeys{}, Config{}, nil)
	var logMu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&logMu, sc.logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	sc.cache = newBlockhashCache(s.latestBlockhash, refresh, maxAge, sc.failures, log)
	sc.cache.now = sc.now
	return sc
}

func (sc *hashScene) now() time.Time {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.clock
}

func (sc *hashScene) advance(d time.Duration) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.clock = sc.clock.Add(d)
}

// setHash makes the chain answer a new blockhash and height.
func (sc *hashScene) setHash(b byte, height uint64) sol.Hash {
	h := sol.HashFromBytes(bytes.Repeat([]byte{b}, 32))
	sc.chain.mu.Lock()
	defer sc.chain.mu.Unlock()
	sc.chain.blockhash, sc.chain.height = h, height
	return h
}

func (sc *hashScene) setErr(err error) {
	sc.chain.mu.Lock()
	defer sc.chain.mu.Unlock()
	sc.chain.hashErr = err
}

func (sc *hashScene) hashReads() int {
	sc.chain.mu.Lock()
	defer sc.chain.mu.Unlock()
	return sc.chain.hashReads
}

// waitReads polls until the chain has answered at least n blockhash reads.
func (sc *hashScene) waitReads(t *testing.T, n int) {
	t.Helper()
	if !poll.True(5*time.Second, func() bool { return sc.hashReads() >= n }) {
		t.Fatalf("%d blockhash reads after 5s, want %d", sc.hashReads(), n)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func TestBlockhashCacheServesFreshWithoutRoundTrip(t *testing.T) {
	sc := newHashScene(t, time.Hour, 2*time.Second)
	want := sc.setHash(1, 500)
	ctx := context.Background()
	first, err := sc.cache.get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first.hash != want || first.lastValid != 500 || sc.hashReads() != 1 {
		t.Fatalf("first get %+v after %d reads", first, sc.hashReads())
	}
	// The chain moves on; within maxAge the kept blockhash is handed out
	// without asking.
	sc.setHash(2, 501)
	sc.advance(2*time.Second - time.Nanosecond)
	got, err := sc.cache.get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.hash != want || got.lastValid != 500 || sc.hashReads() != 1 {
		t.Fatalf("get within maxAge %+v after %d reads", got, sc.hashReads())
	}
}

func TestBlockhashCacheReadsAgainWhenStale(t *testing.T) {
	sc := newHashScene(t, time.Hour, 2*time.Second)
	sc.setHash(1, 500)
	ctx := context.Background()
	if _, err := sc.cache.get(ctx); err != nil {
		t.Fatal(err)
	}
	newer := sc.setHash(2, 501)
	sc.advance(2 * time.Second)
	if _, ok := sc.cache.fresh(); ok {
		t.Fatal("a blockhash maxAge old is still fresh")
	}
	got, err := sc.cache.get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.hash != newer || got.lastValid != 501 || sc.hashReads() != 2 {
		t.Fatalf("get past maxAge %+v after %d reads", got, sc.hashReads())
	}
	// What the order read is kept for the next one.
	if b, ok := sc.cache.fresh(); !ok || b.hash != newer {
		t.Fatalf("kept %+v %v", b, ok)
	}
}

func TestBlockhashCacheFailedRefreshFallsBack(t *testing.T) {
	sc := newHashScene(t, time.Millisecond, 2*time.Second)
	first := sc.setHash(1, 500)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sc.cache.run(ctx) }()
	sc.waitReads(t, 1)
	if b, ok := sc.cache.fresh(); !ok || b.hash != first {
		t.Fatalf("after the first refresh %+v %v", b, ok)
	}

	// The chain stops answering: the refreshes fail and are counted, the
	// kept blockhash serves until it is maxAge old, then an order's own
	// read fails rather than sign on a stale one.
	sc.setErr(errors.New("connection refused"))
	if !poll.True(5*time.Second, func() bool { return counterValue(t, sc.failures) >= 3 }) {
		t.Fatalf("%v failures counted after 5s", counterValue(t, sc.failures))
	}
	if b, err := sc.cache.get(ctx); err != nil || b.hash != first {
		t.Fatalf("get within maxAge while failing: %+v %v", b, err)
	}
	sc.advance(2 * time.Second)
	if b, err := sc.cache.get(ctx); err == nil {
		t.Fatalf("get past maxAge while the chain fails handed out %+v", b)
	}

	// The chain comes back: the next refresh recovers, logged once.
	second := sc.setHash(2, 501)
	sc.setErr(nil)
	poll.Until(t, 5*time.Second, "the cache recovers", func() bool {
		b, ok := sc.cache.fresh()
		return ok && b.hash == second
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	logs := sc.logs.String()
	if strings.Count(logs, "level=WARN") != 1 || !strings.Contains(logs, "connection refused") ||
		!strings.Contains(logs, "refresh latest blockhash recovered") {
		t.Fatalf("logs:\n%s", logs)
	}
}

func TestBlockhashCacheRefreshesInBackground(t *testing.T) {
	sc := newHashScene(t, time.Millisecond, time.Hour)
	sc.setHash(1, 500)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sc.cache.run(ctx) }()
	sc.waitReads(t, 1)
	if err := sc.cache.run(ctx); err == nil {
		t.Fatal("a second run started")
	}
	newer := sc.setHash(2, 501)
	poll.Until(t, 5*time.Second, "the refresh picks up the new blockhash", func() bool {
		b, ok := sc.cache.fresh()
		return ok && b.hash == newer && b.lastValid == 501
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	// Stopped: no more reads.
	reads := sc.hashReads()
	time.Sleep(20 * time.Millisecond)
	if sc.hashReads() != reads {
		t.Fatalf("reads went on after run returned: %d then %d", reads, sc.hashReads())
	}
	if counterValue(t, sc.failures) != 0 {
		t.Fatal("failures counted without a failure")
	}
}

// TestBlockhashCacheConcurrentReaders races orders reading the cache with
// the refresh and with the clock passing maxAge; run with -race. Every
// blockhash handed out must have been the chain's within maxAge of the
// reader's clock.
func TestBlockhashCacheConcurrentReaders(t *testing.T) {
	const maxAge = 50 * time.Millisecond
	sc := newHashScene(t, time.Millisecond, maxAge)
	sc.setHash(0, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sc.cache.run(ctx) }()
	sc.waitReads(t, 1)

	// The clock moves 10ms a step and then the chain produces blockhash i
	// for step i. A blockhash handed out at step s was asked for less than
	// 50ms (5 steps) before, at step s-4 or later, and may be the one of
	// the step before it was asked (asked between the clock's move and the
	// chain's): never older than blockhash s-5. Without the bound, readers
	// would get the refresh's, about ten steps old.
	var chainMu sync.Mutex
	step := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= 200; i++ {
			chainMu.Lock()
			sc.advance(10 * time.Millisecond)
			sc.setHash(byte(i), uint64(100+i))
			step = i
			chainMu.Unlock()
			time.Sleep(100 * time.Microsecond)
		}
		close(stop)
	}()
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				chainMu.Lock()
				at := step
				chainMu.Unlock()
				b, err := sc.cache.get(ctx)
				if err != nil {
					errs <- err
					return
				}
				if got := int(b.lastValid) - 100; got < at-5 {
					errs <- fmt.Errorf("handed out blockhash %d at step %d", got, at)
					return
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSignUsesRefreshedBlockhash runs the signer's Run as the worker does:
// orders then sign on the kept blockhash and ask the chain only for
// accounts, and the metric of the service counts failed refreshes.
func TestSignUsesRefreshedBlockhash(t *testing.T) {
	f := newFixture(t)
	f.chain.blockhash = sol.HashFromBytes(bytes.Repeat([]byte{7}, 32))
	w := f.wallet(5e9, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f.signer.Run(ctx) }()
	poll.Until(t, 5*time.Second, "a blockhash kept", func() bool {
		_, ok := f.signer.hashes.fresh()
		return ok
	})
	f.chain.mu.Lock()
	before := f.chain.hashReads
	f.chain.mu.Unlock()
	for range 3 {
		batch, err := f.signer.Sign(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := sol.TransactionFromBytes(batch.Txs[0].Raw)
		if err != nil {
			t.Fatal(err)
		}
		if tx.Message.RecentBlockhash != f.chain.blockhash || batch.Txs[0].LastValidBlockHeight != f.chain.height {
			t.Fatalf("signed on %s valid to %d", tx.Message.RecentBlockhash, batch.Txs[0].LastValidBlockHeight)
		}
	}
	// The refresh runs every 400ms: three orders signed in well under that
	// asked nothing. A slow machine may let one refresh through.
	f.chain.mu.Lock()
	after := f.chain.hashReads
	f.chain.mu.Unlock()
	if after-before > 1 {
		t.Fatalf("%d blockhash reads for 3 orders with the cache running", after-before)
	}

	counter := metrics.BlockhashRefreshFailures.WithLabelValues(wire.ChainSolana)
	failed := counterValue(t, counter)
	f.chain.mu.Lock()
	f.chain.hashErr = errors.New("connection reset")
	f.chain.mu.Unlock()
	poll.Until(t, 5*time.Second, "a failed refresh counted", func() bool { return counterValue(t, counter) != failed })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}

func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
