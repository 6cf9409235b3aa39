package evm

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
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
	n := NewNonces(env.buckets(t).Nonces, stale, nil).WithInFlight(func(_ context.Context, chain, order string, _ common.Address, _ uint64) (bool, error) {
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
	// o1 failed: its nonce is lost, and reclaimed once o3, taken just now,
	// can no longer be on its way to TXS unseen.
	inFlight["o1"] = false
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("o3b")); err != nil || got != 6 {
		t.Fatalf("took %d while o3's batch may still be published, want 6 (%v)", got, err)
	}
	clock.advance(stale)
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

// pipelineBook is an embedded NATS server's buckets, a JetStream client,
// the TXS stream and the orders' store: what BatchesInFlight reads.
func pipelineBook(t *testing.T) (*bus.Buckets, jetstream.JetStream, jetstream.Stream, *orders.Store) {
	t.Helper()
	env := newNATS(t)
	_, js := env.connect(t)
	txs, err := js.Stream(context.Background(), bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	b := env.buckets(t)
	return b, js, txs, orders.NewStore(b.Orders)
}

// TestBatchesInFlight: a transaction is in flight once its order's batch
// in TXS holds it, and until the order's record says it failed or expired;
// one of a batch that was dropped (the order's batch in TXS is another
// signing's, or its void) is not.
func TestBatchesInFlight(t *testing.T) {
	ctx := context.Background()
	_, js, txs, store := pipelineBook(t)
	in := BatchesInFlight(txs, store)
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	wallet := crypto.PubkeyToAddress(key.PublicKey)
	check := func(order string, nonce uint64, want bool) {
		t.Helper()
		if got, err := in(ctx, "base", order, wallet, nonce); err != nil || got != want {
			t.Fatalf("%s nonce %d in flight: %v, %v, want %v", order, nonce, got, err, want)
		}
	}
	check("o1", 7, false) // no batch
	tx := signedTx(t, key, 7)
	batch, _ := json.Marshal(&wire.TxBatch{OrderID: "o1", Chain: "base", Txs: []wire.SignedTx{
		{Wallet: walletA.Hex(), Signature: signedTx(t, key, 9).Hash().Hex(), Raw: raw(t, signedTx(t, key, 9))},
		{Wallet: strings.ToLower(wallet.Hex()), Signature: tx.Hash().Hex(), Raw: raw(t, tx)}}})
	if _, err := js.Publish(ctx, bus.BatchSubject("base", "o1"), batch); err != nil {
		t.Fatal(err)
	}
	check("o1", 7, true)  // a batch, no record yet
	check("o1", 8, false) // another signing's nonce
	check("o1", 9, false) // another wallet's transaction
	void := nats.NewMsg(bus.BatchSubject("base", "o2"))
	void.Header.Set(bus.HeaderVoid, "1")
	if _, err := js.PublishMsg(ctx, void); err != nil {
		t.Fatal(err)
	}
	check("o2", 7, false)
	if err := store.Create(ctx, &wire.Order{OrderID: "o1", State: wire.StateBroadcast}); err != nil {
		t.Fatal(err)
	}
	check("o1", 7, true)
	// The order lives on, its other leg taken, while this transaction's
	// every send was refused: it will not be sent again.
	sigs := func(state string) func(o *wire.Order) {
		return func(o *wire.Order) {
			o.Signatures = []wire.SigState{{Signature: strings.ToLower(tx.Hash().Hex()), Wallet: wallet.Hex(), State: state}}
		}
	}
	for _, st := range []struct {
		state string
		in    bool
	}{{wire.StatePending, true}, {wire.StateBroadcast, true}, {wire.StateFailed, false}, {wire.StateExpired, false}} {
		if err := store.Update(ctx, "o1", nil, sigs(st.state)); err != nil {
			t.Fatal(err)
		}
		check("o1", 7, st.in)
	}
	if err := store.Update(ctx, "o1", nil, sigs(wire.StateBroadcast)); err != nil {
		t.Fatal(err)
	}
	if err := store.Update(ctx, "o1", nil, func(o *wire.Order) { o.State = wire.StateFailed }); err != nil {
		t.Fatal(err)
	}
	check("o1", 7, false)
	if got, err := in(ctx, "eth", "o1", wallet, 7); err != nil || got {
		t.Fatalf("o1 on another chain in flight: %v, %v", got, err)
	}
}

// signedTx is wallet key's transfer of nothing at nonce, signed for base.
func signedTx(t *testing.T, key *ecdsa.PrivateKey, nonce uint64) *types.Transaction {
	t.Helper()
	to := common.Address{1}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(8453)), &types.DynamicFeeTx{
		ChainID: big.NewInt(8453), Nonce: nonce, Gas: 21000, GasFeeCap: big.NewInt(1), GasTipCap: big.NewInt(1), To: &to})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func raw(t *testing.T, tx *types.Transaction) []byte {
	t.Helper()
	b, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRefusedTransactionOfALiveOrderHoldsNoNonce: an order of two wallets
// whose one wallet's transaction the chain refused on every send (say an
// RPC answering 429 to it alone) while the other's landed is confirmed,
// the refused transaction failed in its record and never sent again: its
// nonce is lost, and is filled once the chain has sat at it for the bound,
// as a dropped transaction's. Held as in flight because the order did not
// fail, it stayed unfilled until the order's swaps' deadline had passed
// (two minutes): the wallet's next orders, signed behind it, waited in the
// node's pool past their own deadlines, to be mined only to revert.
func TestRefusedTransactionOfALiveOrderHoldsNoNonce(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	b, js, txs, store := pipelineBook(t)
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	n := NewNonces(b.Nonces, stale, nil).WithInFlight(BatchesInFlight(txs, store))
	n.now = clock.now
	claim := func(order string) *Claim {
		return &Claim{Order: order, Until: clock.now().Add(DefaultConfig().DeadlineAfter + spendMargin),
			Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)}}
	}
	keyA, _ := crypto.GenerateKey()
	keyB, _ := crypto.GenerateKey()
	a, bw := crypto.PubkeyToAddress(keyA.PublicKey), crypto.PubkeyToAddress(keyB.PublicKey)

	// Order o1 buys with both wallets: A at nonce 3, B at nonce 7.
	if got, err := n.TakeFor(ctx, "base", a, 1, 3, claim("o1")); err != nil || got != 3 {
		t.Fatalf("took %d, %v", got, err)
	}
	if got, err := n.TakeFor(ctx, "base", bw, 1, 7, claim("o1")); err != nil || got != 7 {
		t.Fatalf("took %d, %v", got, err)
	}
	txA, txB := signedTx(t, keyA, 3), signedTx(t, keyB, 7)
	batch, _ := json.Marshal(&wire.TxBatch{OrderID: "o1", Chain: "base", Txs: []wire.SignedTx{
		{Wallet: a.Hex(), Signature: txA.Hash().Hex(), Raw: raw(t, txA)},
		{Wallet: bw.Hex(), Signature: txB.Hash().Hex(), Raw: raw(t, txB)}}})
	if _, err := js.Publish(ctx, bus.BatchSubject("base", "o1"), batch); err != nil {
		t.Fatal(err)
	}
	// The broadcaster: A's transaction taken (and then confirmed), B's
	// refused on every try.
	if err := store.Create(ctx, &wire.Order{OrderID: "o1", State: wire.StateConfirmed, Signatures: []wire.SigState{
		{Signature: txA.Hash().Hex(), Wallet: a.Hex(), State: wire.StateConfirmed},
		{Signature: txB.Hash().Hex(), Wallet: bw.Hex(), State: wire.StateFailed, Error: "refused: transaction underpriced"}}}); err != nil {
		t.Fatal(err)
	}
	// B's next order, a few seconds later, takes nonce 8 and waits behind 7.
	clock.advance(5 * time.Second)
	if got, err := n.TakeFor(ctx, "base", bw, 1, 7, claim("o2")); err != nil || got != 8 {
		t.Fatalf("took %d, %v", got, err)
	}
	// The chain sits at 7 for the bound, and longer: nonce 7's transaction
	// was refused and is sent by nobody.
	clock.advance(stale + 5*time.Second)
	fill, _, err := n.ClaimGaps(ctx, "base", bw, 7)
	if err != nil {
		t.Fatal(err)
	}
	if fill != 1 {
		t.Fatalf("nonce 7, whose transaction the chain refused (o1 stored it failed), filled %d nonces 40 s after its take, want it alone", fill)
	}
}

// TestRefusedApprovalOfALiveOrderIsNotReliedUpon: a sale whose approval
// the chain refused on every send (its record failed) while the order's
// swap went on leaves the wallet without that allowance: the wallet's next
// sale of the token approves for itself. Relied upon while the order
// lived (two minutes), the next sale went out without an approval, behind
// a nonce the gap filler then fills with a transfer, to revert for want
// of an allowance, its gas paid. An approval still on its way (pending in
// the record, or a batch not handed on yet) is relied upon as before.
func TestRefusedApprovalOfALiveOrderIsNotReliedUpon(t *testing.T) {
	token, router := common.HexToAddress("0x00000000000000000000000000000000000000aa"), common.HexToAddress("0x00000000000000000000000000000000000000bb")
	for _, tc := range []struct {
		name     string
		state    string // the approval's state in o1's record; "" for no batch handed on
		approves bool   // o2 may approve for itself
	}{
		{"refused", wire.StateFailed, true},
		{"expired", wire.StateExpired, true},
		{"on its way", wire.StateBroadcast, false},
		{"batch not handed on yet", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			b, js, txs, store := pipelineBook(t)
			clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
			n := NewNonces(b.Nonces, 30*time.Second, nil).WithInFlight(BatchesInFlight(txs, store)).
				WithEnded(OrdersEnded(store)).WithApprovalsRefused(BatchesApprovalRefused(txs, store))
			n.now = clock.now
			claim := func(order string) *Claim {
				return &Claim{Order: order, Mined: 3, Until: clock.now().Add(DefaultConfig().DeadlineAfter + spendMargin),
					Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)},
					Approves: &Approval{Token: token, Spender: router}}
			}
			key, _ := crypto.GenerateKey()
			wallet := crypto.PubkeyToAddress(key.PublicKey)

			// o1 sells with an approval at nonce 3 and its swap at 4.
			if got, err := n.TakeFor(ctx, "base", wallet, 2, 3, claim("o1")); err != nil || got != 3 {
				t.Fatalf("took %d, %v", got, err)
			}
			approval, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(8453)), &types.DynamicFeeTx{
				ChainID: big.NewInt(8453), Nonce: 3, Gas: 60000, GasFeeCap: big.NewInt(1), GasTipCap: big.NewInt(1), To: &token,
				Data: approveTx(token, router).data})
			if err != nil {
				t.Fatal(err)
			}
			swap := signedTx(t, key, 4)
			if tc.state != "" {
				batch, _ := json.Marshal(&wire.TxBatch{OrderID: "o1", Chain: "base", Txs: []wire.SignedTx{
					{Wallet: wallet.Hex(), Signature: approval.Hash().Hex(), Raw: raw(t, approval)},
					{Wallet: wallet.Hex(), Signature: swap.Hash().Hex(), Raw: raw(t, swap)}}})
				if _, err := js.Publish(ctx, bus.BatchSubject("base", "o1"), batch); err != nil {
					t.Fatal(err)
				}
				if err := store.Create(ctx, &wire.Order{OrderID: "o1", State: wire.StateBroadcast, Signatures: []wire.SigState{
					{Signature: approval.Hash().Hex(), Wallet: wallet.Hex(), State: tc.state},
					{Signature: swap.Hash().Hex(), Wallet: wallet.Hex(), State: wire.StateBroadcast}}}); err != nil {
					t.Fatal(err)
				}
			}
			clock.advance(2 * time.Second)
			got, err := n.TakeFor(ctx, "base", wallet, 2, 3, claim("o2"))
			switch {
			case tc.approves && err != nil:
				t.Fatalf("o2's own approval refused (%v): o1's approval, %s in its record, relied upon", err, tc.state)
			case tc.approves && got != 5:
				t.Fatalf("o2 took %d, want 5, behind o1's nonces", got)
			case !tc.approves && !errors.Is(err, ErrApproving):
				t.Fatalf("o2 took %d, %v: want ErrApproving while o1's approval is on its way", got, err)
			}
		})
	}
}

// stallingKV is the nonces bucket with a write of one key that takes as
// long as stall says (a NATS node failing over under the record's
// stream): the test's clock moves on by that much before the write goes
// through.
type stallingKV struct {
	jetstream.KeyValue
	key   string
	clock *fakeClock
	stall time.Duration
	once  sync.Once
}

func (s *stallingKV) hold(key string) {
	if key == s.key {
		s.once.Do(func() { s.clock.advance(s.stall) })
	}
}

func (s *stallingKV) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	s.hold(key)
	return s.KeyValue.Create(ctx, key, value, opts...)
}

func (s *stallingKV) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	s.hold(key)
	return s.KeyValue.Update(ctx, key, value, rev)
}

// TestNonceOfABatchOnItsWayNeverReclaimed: a signing whose nonce take was
// slow to be written (its record's write stalled 16 s, say through a NATS
// node failing over) may hand its batch on until PublishBy. Counted from
// the end of the signing, that was 15 s after the stall, more than the
// reclaim bound after the take: a moment before it, the batch not yet in
// TXS, a take of the wallet's next order handed the same nonce out again.
// Counted from the beginning of the takes, the batch is handed on within
// half the bound of its take or not at all. (In the worker the handler's
// own deadline, pipeline.job_max_age from the job's start, also bounds the
// publish; above 30 s, which the config allows, PublishBy is the only
// bound.)
func TestNonceOfABatchOnItsWayNeverReclaimed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainBase, "", 0, 0)
	w := e.wallet(t, wire.ChainBase, "1", nil)

	clock := &fakeClock{t: time.Now()}
	b := e.nats.buckets(t)
	kv := &stallingKV{KeyValue: b.Nonces, key: nonceKey(wire.ChainBase, w), clock: clock, stall: 16 * time.Second}
	_, js := e.nats.connect(t)
	txs, err := js.Stream(ctx, bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	// In flight as the pipeline has it: the order's batch in TXS, the
	// order not failed or expired.
	nonces := NewNonces(kv, DefaultNonceStale, nil).WithInFlight(BatchesInFlight(txs, orders.NewStore(b.Orders)))
	nonces.now = clock.now
	s := e.newSigner(t, nonces, Config{})
	s.now = clock.now

	first, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	publishBy := s.PublishBy(first)
	// The worker may hand the first batch on until publishBy; a moment
	// before it, the wallet's next order is signed.
	clock.advance(publishBy.Sub(clock.now()) - 500*time.Millisecond)
	if !clock.now().Before(publishBy) {
		t.Fatal("the test's clock is past the first batch's PublishBy")
	}
	second, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	n1, n2 := decode(t, first)[0].Nonce(), decode(t, second)[0].Nonce()
	if n1 == n2 {
		t.Fatalf("two orders signed on nonce %d: the second was signed %s after the first's take, while the first's batch may still be "+
			"handed on (its PublishBy, %s after its signing, is %s later)", n1,
			clock.now().Sub(publishBy.Add(-DefaultNonceStale/2).Add(-kv.stall)).Round(time.Millisecond),
			DefaultNonceStale/2, publishBy.Sub(clock.now()).Round(time.Millisecond))
	}
}

// TestGapFilledBehindOrdersInFlight: a lost nonce is filled once the chain
// has sat at it for the bound, however many orders in flight wait behind
// it (they are what the fill lets land, before their swaps' deadlines),
// while a take's reclaim, which would hand their nonces out again, waits
// for them. The lost order's run of nonces is filled at once, up to the
// first nonce an order in flight holds.
func TestGapFilledBehindOrdersInFlight(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	env := newNATS(t)
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	inFlight := map[string]bool{"lost": false, "behind1": true, "behind2": true}
	var asked []string
	n := NewNonces(env.buckets(t).Nonces, stale, nil).WithInFlight(func(_ context.Context, _, order string, _ common.Address, nonce uint64) (bool, error) {
		asked = append(asked, fmt.Sprintf("%s@%d", order, nonce))
		return inFlight[order], nil
	})
	n.now = clock.now
	// Each order's priority fee cap, in gwei; the last one's is not said.
	caps := map[string]int64{"lost": 9, "behind1": 3, "behind2": 2}
	claim := func(order string) *Claim {
		c := &Claim{Order: order, Until: clock.now().Add(2 * time.Minute),
			Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)}}
		if gwei, ok := caps[order]; ok {
			c.MaxTip = big.NewInt(gwei * 1_000_000_000)
		}
		return c
	}
	// "lost" takes 3 and 4 (an approval and its swap), the others 5 and 6.
	for _, take := range []struct {
		order       string
		count, want uint64
	}{{"lost", 2, 3}, {"behind1", 1, 5}, {"behind2", 1, 6}} {
		if got, err := n.TakeFor(ctx, "base", walletA, take.count, 3, claim(take.order)); err != nil || got != take.want {
			t.Fatalf("%s took %d, %v; want %d", take.order, got, err, take.want)
		}
	}
	clock.advance(stale)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 3, claim("next")); err != nil || got != 7 {
		t.Fatalf("took %d past the bound with orders in flight behind the gap, want 7 (%v)", got, err)
	}
	asked = nil
	fill, maxTip, err := n.ClaimGaps(ctx, "base", walletA, 3)
	if err != nil || fill != 2 {
		t.Fatalf("a gap whose order is not in flight filled %d nonces while orders wait behind it (%v), want both of its nonces", fill, err)
	}
	// The filler pays no more than the least cap of the orders it lets
	// land, whichever process fills it.
	if maxTip == nil || maxTip.Int64() != 2_000_000_000 {
		t.Fatalf("the gap's cap is %v wei, want the least of the recorded orders', 2 gwei", maxTip)
	}
	// The lost order for each of its nonces, and the first order behind
	// the run, which is in flight: the run ends there.
	if !slices.Equal(asked, []string{"lost@4", "lost@4", "behind1@5"}) {
		t.Fatalf("the gap filler asked %v, want the order holding the nonces and the first behind them", asked)
	}
	// The same nonce held by an order in flight is not filled.
	inFlight["lost"] = true
	clock.advance(stale)
	if fill, err := n.ClaimGap(ctx, "base", walletA, 3); err != nil || fill {
		t.Fatalf("the gap filler claimed the nonce of a transaction in flight: %v, %v", fill, err)
	}
}

// TestSpendsOfTwoSignings: an order signed twice (a redelivery raced its
// first delivery) keeps an entry per signing, counted once against other
// orders; the dropped signing's release takes its own entry and nonces
// only.
func TestSpendsOfTwoSignings(t *testing.T) {
	ctx := context.Background()
	env := newNATS(t)
	n := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	until := time.Now().Add(time.Hour)
	claim := func(order string, amount int64) *Claim {
		return &Claim{Order: order, Until: until,
			Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(amount)}}
	}
	a, err := n.TakeFor(ctx, "base", walletA, 2, 0, claim("o1", 40))
	if err != nil || a != 0 {
		t.Fatalf("first signing took %d, %v", a, err)
	}
	b, err := n.TakeFor(ctx, "base", walletA, 2, 0, claim("o1", 45))
	if err != nil || b != 2 {
		t.Fatalf("second signing took %d, %v", b, err)
	}
	spends, err := n.Pending(ctx, "base", walletA)
	if err != nil || len(spends) != 2 {
		t.Fatalf("spends %+v, %v; want one per signing", spends, err)
	}
	if got := Outstanding(spends, nativeCoin, 0, time.Now(), ""); got.Int64() != 45 {
		t.Fatalf("outstanding %s, want 45: the order counted once, at its largest", got)
	}
	// 100 - 45 leaves 55: an order of 56 does not fit, one of 55 does.
	if _, err := n.TakeFor(ctx, "base", walletA, 1, 0, claim("o2", 56)); !errors.As(err, new(*ErrSpent)) {
		t.Fatalf("an order past what the wallet holds less o1: %v", err)
	}
	// The first signing is dropped: its entry goes, the nonces stay a gap.
	if back, err := n.ReleaseFor(ctx, "base", walletA, a, 2, "o1"); err != nil || back {
		t.Fatalf("release under a later take: %v, %v", back, err)
	}
	spends, _ = n.Pending(ctx, "base", walletA)
	if len(spends) != 1 || spends[0].Nonce != 3 || spends[0].Count != 2 {
		t.Fatalf("spends after the release %+v, want the second signing's", spends)
	}
	// The second signing, the last taken, gives its nonces back.
	if back, err := n.ReleaseFor(ctx, "base", walletA, b, 2, "o1"); err != nil || !back {
		t.Fatalf("release of the last nonces: %v, %v", back, err)
	}
	if got, _ := n.Take(ctx, "base", walletA, 1, 0); got != 2 {
		t.Fatalf("took %d after the release, want 2", got)
	}
}

// TestReleaseAfterAReclaim: a signing dropped long after its take (its
// publish held up past the reclaim bound) does not give back nonces the
// reclaim has handed to another order since, though they are the last
// taken; nor one whose nonces another signing holds.
func TestReleaseAfterAReclaim(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	n, clock, claim := staleNonces(t, stale)
	// Nothing of "a" reached TXS.
	if got, err := n.TakeFor(ctx, "base", walletA, 2, 5, claim("a")); err != nil || got != 5 {
		t.Fatalf("a took %d, %v", got, err)
	}
	clock.advance(stale)
	if got, err := n.TakeFor(ctx, "base", walletA, 2, 5, claim("b")); err != nil || got != 5 {
		t.Fatalf("b took %d after the bound, want 5 reclaimed (%v)", got, err)
	}
	if back, err := n.ReleaseFor(ctx, "base", walletA, 5, 2, "a"); err != nil || back {
		t.Fatalf("a's late release gave back nonces b holds: %v, %v", back, err)
	}
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 5, claim("c")); err != nil || got != 7 {
		t.Fatalf("c took %d, want 7 past b's (%v)", got, err)
	}
	// b's own release, its nonces no longer the last, gives none back and
	// drops its claim; c's, the last and its own, gives its nonce back.
	if back, err := n.ReleaseFor(ctx, "base", walletA, 7, 1, "c"); err != nil || !back {
		t.Fatalf("c's release: %v, %v", back, err)
	}
}

// TestReleaseOfOneOfTwoSignings: two signings of one order that end on the
// same nonce (the second, after a reclaim, took one more for an approval)
// are told apart by how many nonces each took: the first's release gives
// back nothing of the second's and keeps its claim.
func TestReleaseOfOneOfTwoSignings(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	n, clock, claim := staleNonces(t, stale)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 5, claim("z")); err != nil || got != 5 {
		t.Fatalf("z took %d, %v", got, err)
	}
	if got, err := n.TakeFor(ctx, "base", walletA, 2, 5, claim("x")); err != nil || got != 6 {
		t.Fatalf("x's first signing took %d, %v", got, err)
	}
	clock.advance(stale)
	if got, err := n.TakeFor(ctx, "base", walletA, 3, 5, claim("x")); err != nil || got != 5 {
		t.Fatalf("x's second signing took %d, want 5 reclaimed (%v)", got, err)
	}
	if back, err := n.ReleaseFor(ctx, "base", walletA, 6, 2, "x"); err != nil || back {
		t.Fatalf("the first signing's release gave back the second's nonces: %v, %v", back, err)
	}
	spends, _ := n.Pending(ctx, "base", walletA)
	if !slices.ContainsFunc(spends, func(sp RecordSpend) bool { return sp.Order == "x" && sp.Count == 3 }) {
		t.Fatalf("the second signing's claim went with the first's release: %+v", spends)
	}
}

// TestReclaimWaitsForABatchOnItsWay: nonces past a lost one are not handed
// out again while a signing that took one of them may still be handing its
// batch on (taken less than the bound ago), though TXS does not hold it yet.
func TestReclaimWaitsForABatchOnItsWay(t *testing.T) {
	const stale = 30 * time.Second
	ctx := context.Background()
	n, clock, claim := staleNonces(t, stale)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 5, claim("lost")); err != nil || got != 5 {
		t.Fatalf("took %d, %v", got, err)
	}
	clock.advance(stale - time.Second)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 5, claim("publishing")); err != nil || got != 6 {
		t.Fatalf("took %d, %v", got, err)
	}
	clock.advance(time.Second)
	if got, err := n.TakeFor(ctx, "base", walletA, 1, 5, claim("next")); err != nil || got != 7 {
		t.Fatalf("took %d while a batch on nonce 6 may still be handed on, want 7 (%v)", got, err)
	}
	// The gap itself is filled: its own signing is old and not in TXS.
	if fill, err := n.ClaimGap(ctx, "base", walletA, 5); err != nil || !fill {
		t.Fatalf("the lost nonce not filled: %v, %v", fill, err)
	}
}

// staleNonces is a nonce assigner with reclaim bound stale on a clock of
// the test's, for which no batch is in TXS, and the claim of an order that
// spends a little of the native coin until two minutes on.
func staleNonces(t *testing.T, stale time.Duration) (*Nonces, *fakeClock, func(order string) *Claim) {
	t.Helper()
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	n := NewNonces(newNATS(t).buckets(t).Nonces, stale, nil).WithInFlight(func(context.Context, string, string, common.Address, uint64) (bool, error) {
		return false, nil
	})
	n.now = clock.now
	return n, clock, func(order string) *Claim {
		return &Claim{Order: order, Until: clock.now().Add(2 * time.Minute),
			Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)}}
	}
}

// TestTakeFromARecordAsRead: a take that starts from the record as an
// order's reads found it takes what a take reading it afresh would: from
// that read while the record is unchanged, and after reading it again when
// another take (of another worker) changed it since, never a nonce twice.
func TestTakeFromARecordAsRead(t *testing.T) {
	env := newNATS(t)
	n := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	other := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	ctx := context.Background()
	// No record yet: the read is of none, and the take creates it.
	_, pre, err := n.pendingRead(ctx, "base", walletA)
	if err != nil || pre.rev != 0 {
		t.Fatalf("read of no record: %+v, %v", pre, err)
	}
	if first, err := n.takeFrom(ctx, "base", walletA, 2, 0, nil, pre); err != nil || first != 0 {
		t.Fatalf("take from no record: %d, %v; want 0", first, err)
	}
	// Unchanged since the read: the take starts from it.
	_, pre, err = n.pendingRead(ctx, "base", walletA)
	if err != nil || pre.rev == 0 {
		t.Fatalf("read: %+v, %v", pre, err)
	}
	if first, err := n.takeFrom(ctx, "base", walletA, 1, 0, nil, pre); err != nil || first != 2 {
		t.Fatalf("take from the read record: %d, %v; want 2", first, err)
	}
	// Changed since the read, by another worker: its compare-and-set
	// fails, and the take reads the record again.
	_, pre, err = n.pendingRead(ctx, "base", walletA)
	if err != nil {
		t.Fatal(err)
	}
	if first, err := other.Take(ctx, "base", walletA, 1, 0); err != nil || first != 3 {
		t.Fatalf("the other worker's take: %d, %v; want 3", first, err)
	}
	if first, err := n.takeFrom(ctx, "base", walletA, 1, 0, nil, pre); err != nil || first != 4 {
		t.Fatalf("take from a stale read: %d, %v; want 4", first, err)
	}
	// A read of another record is not used.
	_, preB, err := n.pendingRead(ctx, "base", walletB)
	if err != nil {
		t.Fatal(err)
	}
	if first, err := n.takeFrom(ctx, "base", walletA, 1, 0, nil, preB); err != nil || first != 5 {
		t.Fatalf("take from another wallet's read: %d, %v; want 5", first, err)
	}
	if next, _ := n.Take(ctx, "base", walletA, 1, 0); next != 6 {
		t.Fatalf("next take: %d, want 6", next)
	}
}

// TestShareTakenSince: a take of a share (a sale of a percent) that
// starts from the record as read fails with ErrSoldSince when another
// order's sale of the token was taken since, and goes through when what
// changed the record was no sale of it.
func TestShareTakenSince(t *testing.T) {
	env := newNATS(t)
	n := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	other := NewNonces(env.buckets(t).Nonces, time.Hour, nil)
	ctx := context.Background()
	token := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	sale := func(order string, amount int64) *Claim {
		return &Claim{Order: order, Until: time.Now().Add(2 * time.Minute), Share: &token,
			Held:  map[common.Address]*big.Int{nativeCoin: big.NewInt(100), token: big.NewInt(1000)},
			Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1), token: big.NewInt(amount)}}
	}
	// A buy's take (native only) since the read: the share stands.
	_, pre, err := n.pendingRead(ctx, "base", walletA)
	if err != nil {
		t.Fatal(err)
	}
	buy := &Claim{Order: "buy", Until: time.Now().Add(2 * time.Minute),
		Held: map[common.Address]*big.Int{nativeCoin: big.NewInt(100)}, Spend: map[common.Address]*big.Int{nativeCoin: big.NewInt(1)}}
	if _, err := other.TakeFor(ctx, "base", walletA, 1, 0, buy); err != nil {
		t.Fatal(err)
	}
	if _, err := n.takeFrom(ctx, "base", walletA, 1, 0, sale("s1", 500), pre); err != nil {
		t.Fatalf("a share after a buy's take: %v", err)
	}
	// Another sale of the token since the read: worked out again.
	_, pre, err = n.pendingRead(ctx, "base", walletA)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.TakeFor(ctx, "base", walletA, 1, 0, sale("s2", 250)); err != nil {
		t.Fatal(err)
	}
	if _, err := n.takeFrom(ctx, "base", walletA, 1, 0, sale("s3", 125), pre); !errors.Is(err, ErrSoldSince) {
		t.Fatalf("a share after another sale's take: %v, want ErrSoldSince", err)
	}
	// Read again, it goes through.
	_, pre, err = n.pendingRead(ctx, "base", walletA)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.takeFrom(ctx, "base", walletA, 1, 0, sale("s3", 125), pre); err != nil {
		t.Fatalf("a share worked out again: %v", err)
	}
	// Another sale since the read, by a worker that saw the earlier sales
	// mined and left them out of the record: fewer tokens in flight in all,
	// but a sale the share did not count.
	_, pre, err = n.pendingRead(ctx, "base", walletA)
	if err != nil {
		t.Fatal(err)
	}
	pruned := sale("s4", 100)
	pruned.Mined = 10
	if _, err := other.TakeFor(ctx, "base", walletA, 1, 0, pruned); err != nil {
		t.Fatal(err)
	}
	if _, err := n.takeFrom(ctx, "base", walletA, 1, 0, sale("s5", 100), pre); !errors.Is(err, ErrSoldSince) {
		t.Fatalf("a share after another sale's take that left the mined ones out: %v, want ErrSoldSince", err)
	}
}
