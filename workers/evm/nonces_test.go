package evm

import (
	"context"
	"math/big"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// natsEnv is an embedded NATS server with the project's streams and
// buckets; each connection it opens stands for one process.
type natsEnv struct {
	srv *bus.Server
}

func newNATS(t testing.TB) *natsEnv {
	t.Helper()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	e := &natsEnv{srv: srv}
	_, js := e.connect(t)
	if err := bus.Declare(context.Background(), js, bus.Options{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// connect opens a separate client connection, as another process would.
func (e *natsEnv) connect(t testing.TB) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := e.srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// buckets opens the buckets on a fresh connection.
func (e *natsEnv) buckets(t testing.TB) *bus.Buckets {
	t.Helper()
	_, js := e.connect(t)
	b, err := bus.OpenBuckets(context.Background(), js)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

var (
	walletA = common.HexToAddress("0x00000000000000000000000000000000000000a1")
	walletB = common.HexToAddress("0x00000000000000000000000000000000000000b2")
)

// TestNoncesTwoProcessesContiguous has two assigners on separate
// connections (two worker processes) take nonces of the same wallets at
// once while the chain has seen none of them: every nonce is handed out
// once, and each wallet's nonces are contiguous from the chain's.
func TestNoncesTwoProcessesContiguous(t *testing.T) {
	env := newNATS(t)
	procs := []*Nonces{
		NewNonces(env.buckets(t).Nonces, time.Hour, nil),
		NewNonces(env.buckets(t).Nonces, time.Hour, nil),
	}
	const perProc = 60
	type got struct {
		wallet common.Address
		first  uint64
		count  uint64
	}
	var mu sync.Mutex
	var all []got
	var wg sync.WaitGroup
	ctx := context.Background()
	for p, n := range procs {
		for i := range perProc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := walletA
				if i%2 == 1 {
					w = walletB
				}
				count := uint64(1 + (i+p)%2) // an approval and a swap, or a swap
				first, err := n.Take(ctx, "eth", w, count, 7)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				all = append(all, got{w, first, count})
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	for _, w := range []common.Address{walletA, walletB} {
		var nonces []uint64
		for _, g := range all {
			if g.wallet == w {
				for k := range g.count {
					nonces = append(nonces, g.first+k)
				}
			}
		}
		sort.Slice(nonces, func(i, j int) bool { return nonces[i] < nonces[j] })
		for i, n := range nonces {
			if n != 7+uint64(i) {
				t.Fatalf("wallet %s: nonces %v are not distinct and contiguous from 7", w.Hex(), nonces)
			}
		}
		if len(nonces) == 0 {
			t.Fatalf("wallet %s: no nonces", w.Hex())
		}
	}
}

// TestNoncesReconcile walks one wallet's record through the chain's views.
func TestNoncesReconcile(t *testing.T) {
	type step struct {
		advance time.Duration
		pending uint64 // the chain's pending nonce
		count   uint64
		want    uint64 // first nonce handed out
	}
	const stale = 30 * time.Second
	tests := []struct {
		name  string
		steps []step
	}{
		{"fresh wallet starts at the chain's nonce", []step{{0, 5, 1, 5}, {time.Second, 5, 2, 6}, {time.Second, 6, 1, 8}}},
		{"wallet used elsewhere jumps to the chain", []step{{0, 0, 1, 0}, {time.Second, 9, 1, 9}}},
		{"a lost nonce is reclaimed after the bound", []step{
			{0, 3, 1, 3},            // handed out 3, never arrives
			{time.Second, 3, 1, 4},  // 4 queued behind the gap
			{stale, 3, 1, 3},        // stuck at 3 for the bound: 3 again
			{time.Second, 3, 1, 4},  // and the clock starts again
			{time.Second, 5, 1, 5}}, // the chain caught up
		},
		{"no reclaim within the bound", []step{{0, 3, 1, 3}, {stale - time.Second, 3, 1, 4}}},
		{"progress restarts the clock", []step{
			{0, 0, 3, 0},
			{20 * time.Second, 1, 1, 3}, // the chain moved to 1
			{20 * time.Second, 1, 1, 4}, // 40 s since the first take, 20 s since the move
			{stale, 1, 1, 1}},           // now stuck at 1 for the bound
		},
		{"an idle wallet's old observation does not reclaim a fresh nonce", []step{
			{0, 4, 1, 4},
			{time.Minute, 5, 1, 5},  // idle for a minute, 4 landed
			{time.Second, 5, 1, 6}}, // 5 not arrived yet: no reclaim
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newNATS(t)
			clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
			n := NewNonces(env.buckets(t).Nonces, stale, nil)
			n.now = clock.now
			for i, s := range tt.steps {
				clock.advance(s.advance)
				got, err := n.Take(context.Background(), "bsc", walletA, s.count, s.pending)
				if err != nil {
					t.Fatal(err)
				}
				if got != s.want {
					t.Fatalf("step %d: took %d, want %d", i, got, s.want)
				}
			}
		})
	}
}

// TestNoncesInFlightNotReclaimed: a nonce the chain has not reached for
// the whole bound is not handed out again, nor claimed by the gap filler,
// while the order holding it is in flight (its batch waits for a
// broadcaster); once it is not, or once its swaps can no longer land, it
// is.
func TestNoncesInFlightNotReclaimed(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	env := newNATS(t)
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	inFlight := map[string]bool{"o1": true}
	var asked []string
	n := NewNonces(env.buckets(t).Nonces, stale, nil).WithInFlight(func(_ context.Context, chain, order string) (bool, error) {
		asked = append(asked, chain+"/"+order)
		return inFlight[order], nil
	})
	n.now = clock.now
	claim := func(order string) *Claim {
		return &Claim{Order: order, Until: clock.now().Add(2 * time.Minute),
			Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)}}
	}
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o1")); err != nil || got != 3 {
		t.Fatalf("took %d, %v", got, err)
	}
	clock.advance(time.Second)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o2")); err != nil || got != 4 {
		t.Fatalf("took %d, %v", got, err)
	}
	clock.advance(stale)
	if fill, err := n.ClaimGap(ctx, "base", walletA, 3); err != nil || fill {
		t.Fatalf("the gap filler claimed an in-flight order's nonce: %v, %v", fill, err)
	}
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o3")); err != nil || got != 5 {
		t.Fatalf("took %d past the bound while o1 is in flight, want 5 (%v)", got, err)
	}
	if !slices.Contains(asked, "base/o1") {
		t.Fatalf("asked %v, want o1 on base", asked)
	}
	// o1 failed: its nonce is lost, and reclaimed.
	inFlight["o1"] = false
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o4")); err != nil || got != 3 {
		t.Fatalf("took %d once o1 failed, want 3 (%v)", got, err)
	}
	// Past its swaps' deadline an order in flight holds nothing.
	inFlight["o5"] = true
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o5")); err != nil || got != 4 {
		t.Fatalf("took %d, %v", got, err)
	}
	clock.advance(3 * time.Minute)
	if fill, err := n.ClaimGap(ctx, "base", walletA, 3); err != nil || !fill {
		t.Fatalf("a gap held by orders past their deadline not filled: %v, %v", fill, err)
	}
}

// TestNoncesRelease gives nonces back only while nothing was taken after.
func TestNoncesRelease(t *testing.T) {
	env := newNATS(t)
	n := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	ctx := context.Background()
	first, err := n.Take(ctx, "base", walletA, 2, 0)
	if err != nil || first != 0 {
		t.Fatalf("take: %d, %v", first, err)
	}
	ok, err := n.Release(ctx, "base", walletA, first, 2)
	if err != nil || !ok {
		t.Fatalf("release of the last nonces: %v, %v", ok, err)
	}
	a, _ := n.Take(ctx, "base", walletA, 1, 0)
	b, _ := n.Take(ctx, "base", walletA, 1, 0)
	if a != 0 || b != 1 {
		t.Fatalf("after release took %d, %d; want 0, 1", a, b)
	}
	ok, err = n.Release(ctx, "base", walletA, a, 1)
	if err != nil || ok {
		t.Fatalf("release under a later take: %v, %v; want false", ok, err)
	}
	if c, _ := n.Take(ctx, "base", walletA, 1, 0); c != 2 {
		t.Fatalf("took %d after a refused release, want 2", c)
	}
	// Records are per chain.
	if c, _ := n.Take(ctx, "rbh", walletA, 1, 0); c != 0 {
		t.Fatalf("another chain took %d, want 0", c)
	}
}

// TestBatchesInFlight: an order is in flight once its batch is in TXS, and
// until its record says it failed or expired.
func TestBatchesInFlight(t *testing.T) {
	ctx := context.Background()
	env := newNATS(t)
	_, js := env.connect(t)
	txs, err := js.Stream(ctx, bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	store := orders.NewStore(env.buckets(t).Orders)
	in := BatchesInFlight(txs, store)
	check := func(order string, want bool) {
		t.Helper()
		if got, err := in(ctx, "base", order); err != nil || got != want {
			t.Fatalf("%s in flight: %v, %v, want %v", order, got, err, want)
		}
	}
	check("o1", false) // no batch
	if _, err := js.Publish(ctx, bus.BatchSubject("base", "o1"), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	check("o1", true) // a batch, no record yet
	if err := store.Create(ctx, &wire.Order{OrderID: "o1", State: wire.StateBroadcast}); err != nil {
		t.Fatal(err)
	}
	check("o1", true)
	if err := store.Update(ctx, "o1", nil, func(o *wire.Order) { o.State = wire.StateFailed }); err != nil {
		t.Fatal(err)
	}
	check("o1", false)
	if got, err := in(ctx, "eth", "o1"); err != nil || got {
		t.Fatalf("o1 on another chain in flight: %v, %v", got, err)
	}
}
