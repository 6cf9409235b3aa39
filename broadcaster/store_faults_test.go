package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	solrpc "github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// flakyOrders refuses the orders bucket's writes while down is set, as a
// KV that times out.
type flakyOrders struct {
	jetstream.KeyValue
	down atomic.Bool
}

func (k *flakyOrders) Create(ctx context.Context, key string, v []byte, o ...jetstream.KVCreateOpt) (uint64, error) {
	if k.down.Load() {
		return 0, context.DeadlineExceeded
	}
	return k.KeyValue.Create(ctx, key, v, o...)
}

func (k *flakyOrders) Update(ctx context.Context, key string, v []byte, rev uint64) (uint64, error) {
	if k.down.Load() {
		return 0, context.DeadlineExceeded
	}
	return k.KeyValue.Update(ctx, key, v, rev)
}

// scripted answers each send of a signature as its script says, try by
// try (the last answer repeats), and calls landed ones confirmed; its
// height is set by the test.
type scripted struct {
	mu     sync.Mutex
	tries  map[string]int
	script map[string][]error
	landed map[string]bool
	failed map[string]bool // landed failed (an error in a confirmed block)
	height uint64
	// slot is the height's slot, which each height read advances; the
	// statuses' node answers lag slots behind it.
	slot, lag uint64
}

// HeightSlot implements HeightSlotter.
func (c *scripted) HeightSlot() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slot
}

func newScripted(script map[string][]error) *scripted {
	return &scripted{tries: map[string]int{}, landed: map[string]bool{}, failed: map[string]bool{}, script: script, height: 1}
}

func (c *scripted) Send(_ context.Context, tx wire.SignedTx) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.tries[tx.Signature]
	c.tries[tx.Signature]++
	s := c.script[tx.Signature]
	return s[min(n, len(s)-1)]
}

func (c *scripted) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		switch {
		case c.landed[s]:
			out[i] = Status{State: wire.StateConfirmed, Slot: 7}
		case c.failed[s]:
			out[i] = Status{State: wire.StateFailed, Slot: 7, Err: "slippage"}
		default:
			out[i].AsOf = max(c.slot-min(c.lag, c.slot), 1)
		}
	}
	return out, nil
}

func (c *scripted) Height(context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slot++
	return c.height, nil
}

func (c *scripted) set(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
}

// faultyPipeline is a broadcaster over chain whose orders bucket fails on
// demand, and the record ingress made of b.
func faultyPipeline(t *testing.T, cfg Config, chain Chain, b *wire.TxBatch) (*pipeline, *Broadcaster, *flakyOrders) {
	t.Helper()
	p := newPipeline(t)
	kv := &flakyOrders{KeyValue: p.bus.Buckets.Orders}
	buckets := *p.bus.Buckets
	buckets.Orders = kv
	br := New(cfg, p.bus.Conn, p.bus.JS, &buckets, map[string]Chain{b.Chain: chain}, p.log)
	if err := orders.NewStore(p.bus.Buckets.Orders).Create(context.Background(), orders.New(orders.OfBatch(b))); err != nil {
		t.Fatal(err)
	}
	return p, br, kv
}

// runTracker runs br's tracker until the test ends.
func runTracker(t *testing.T, br *Broadcaster) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go br.tracker.run(ctx)
}

// TestLostNoteThenRefusedResend: a delivery sends A (taken) and B (the RPC
// does not answer), and its note of what it sent cannot be written; the
// next delivery's re-sends are both refused. A, taken before, may land
// (and does): the order is not answered 502 nor stored failed, and B,
// which may have landed too, is settled only once its blockhash expired.
// The delivery after a failed note trusted it all the same.
func TestLostNoteThenRefusedResend(t *testing.T) {
	t.Parallel()
	slipped := &Refused{Reason: "Transaction simulation failed: slippage exceeded"}
	c := newScripted(map[string][]error{
		"A": {nil, slipped},
		"B": {errors.New("send transaction: context deadline exceeded"), slipped},
	})
	b := batchOf("eu-lost-note", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: "B", Raw: []byte{2}, LastValidBlockHeight: 100})
	p, br, kv := faultyPipeline(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, c, b)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	kv.down.Store(true)
	br.handle(delivered(b, inbox, 1, time.Now()))
	kv.down.Store(false)
	br.handle(delivered(b, inbox, 2, time.Now()))
	if r := answer(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("answer %v %+v, want 504: what was sent before may land", r.Signatures, r.Error)
	}
	runTracker(t, br)
	c.set(func() { c.landed["A"] = true })
	o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateBroadcast)
	if o.Signatures[0].State != wire.StateConfirmed || o.Signatures[1].State != wire.StatePending {
		t.Fatalf("signatures %+v: want A confirmed, B still open", o.Signatures)
	}
	c.set(func() { c.height = 101 })
	o = p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Signatures[1].State != wire.StateExpired {
		t.Fatalf("order %s %+v: want confirmed, B expired", o.State, o.Signatures)
	}
}

// TestStoreDownThroughLastTry: the orders bucket refuses writes through a
// batch's every delivery, and the last one acks it with its transaction
// tracked and its record without it. Once the transaction lands, the
// tracker writes it into the record: the order ends confirmed, with its
// events, instead of pending for good.
func TestStoreDownThroughLastTry(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"A": {nil}})
	b := batchOf("eu-store-down", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100})
	p, br, kv := faultyPipeline(t, Config{MaxAttempts: 3, Poll: 20 * time.Millisecond}, c, b)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	kv.down.Store(true)
	for a := uint64(1); ; a++ {
		if a > 10 {
			t.Fatal("the batch was never acked")
		}
		m := delivered(b, inbox, a, time.Now())
		br.handle(m)
		if r := answer(t, sub); r.Error != nil || len(r.Signatures) != 1 {
			t.Fatalf("delivery %d answered %v %+v", a, r.Signatures, r.Error)
		}
		if m.end == "ack" {
			break
		}
	}
	if o := p.order(t, b.OrderID); len(o.Signatures) != 0 {
		t.Fatalf("the record holds %+v: the store was meant to fail", o.Signatures)
	}
	kv.down.Store(false)
	c.set(func() { c.landed["A"] = true })
	runTracker(t, br)
	o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed)
	if len(o.Signatures) != 1 || o.Signatures[0].Signature != "A" || o.Signatures[0].Wallet != "w1" || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("signatures %+v", o.Signatures)
	}
	// The record is written before the events are published: wait for them.
	poll.Until(t, 5*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, b.OrderID), events.Confirmed)
	})
	if got := p.eventTypes(t, b.OrderID); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestPrivateResendRefusedAfterCrash: an anti_mev buy sent through the
// relay lands, and its broadcaster dies before it wrote anything. The
// delivery in the restarted process re-sends it, and the relay refuses the
// re-send (its blockhash is gone). That refusal is no verdict on the
// transaction: the order ends confirmed, as the chain says, never failed.
func TestPrivateResendRefusedAfterCrash(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Crash", "CRS")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := s.signer.Sign(ctx, &wire.SwapJob{OrderID: "eu-private-crash", AccountID: "acct-1", Family: wire.FamilySol,
		Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		AntiMEV: true, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: s.wallet(1_000_000_000), Amount: "0.5"}}})
	if err != nil {
		t.Fatal(err)
	}
	tx := batch.Txs[0]
	dead := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
	if err := dead.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if st := waitFinal(t, dead, []string{tx.Signature}); st[0].State != wire.StateConfirmed {
		t.Fatalf("first send: %+v", st[0])
	}
	var sends atomic.Int64
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(frontedRelay(t, s.chain, `"error":{"code":-32602,"message":"Blockhash not found"}`, &sends), 5*time.Second))
	p := newPipeline(t)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	br := New(Config{Poll: 50 * time.Millisecond}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: chain}, p.log)
	for a := uint64(2); a <= 3; a++ {
		br.handle(delivered(batch, inbox, a, time.Now()))
	}
	if r := answer(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || sends.Load() == 0 {
		t.Fatalf("answer %v %+v after %d refused re-sends, want 504", r.Signatures, r.Error, sends.Load())
	}
	runTracker(t, br)
	o := p.orderIn(t, batch.OrderID, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("the buy landed, its order ended %s %+v", o.State, o.Signatures)
	}
}

// TestExpirySeenTwice: a transaction seen past its last valid height with
// no status is not expired at once: a pool of nodes may answer the height
// from one ahead and the status from one behind. Its landing seen within
// ExpiryRecheck settles it confirmed; one never seen is expired after it.
func TestExpirySeenTwice(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"late": {nil}, "gone": {nil}})
	c.height = 101
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, ExpiryRecheck: 500 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	late := batchOf("eu-landed-late", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w1", Signature: "late", Raw: []byte{1}, LastValidBlockHeight: 100})
	gone := batchOf("eu-never-landed", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w2", Signature: "gone", Raw: []byte{2}, LastValidBlockHeight: 100})
	start := time.Now()
	for _, b := range []*wire.TxBatch{late, gone} {
		if r := p.send(t, b); r.Error != nil {
			t.Fatalf("%s: %+v", b.OrderID, r.Error)
		}
	}
	time.Sleep(200 * time.Millisecond) // deliberate: several polls see the height past the last valid one
	c.set(func() { c.landed["late"] = true })
	if o := p.orderIn(t, late.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("the late landing's order ended %s", o.State)
	}
	if o := p.orderIn(t, gone.OrderID, 5*time.Second, wire.StateExpired, wire.StateConfirmed); o.State != wire.StateExpired {
		t.Fatalf("the order never landed ended %s", o.State)
	}
	if since := time.Since(start); since < 500*time.Millisecond {
		t.Fatalf("expired %v after its send, before the recheck", since)
	}
}

// TestNoExpiryFromANodeBehind: a Solana transaction past its last valid
// height is not expired while the node answering its status has not
// reached the slot at which the height was first seen past, however long
// that lasts (here ten times ExpiryRecheck): it may have landed in a block
// that node has not reached. It is confirmed once a node that knows it
// answers; a transaction a node past that slot does not know is expired.
func TestNoExpiryFromANodeBehind(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"late": {nil}, "gone": {nil}})
	c.height, c.slot = 101, 1000
	c.lag = 1 << 40
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, ExpiryRecheck: 100 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	late := batchOf("eu-landed-behind", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w1", Signature: "late", Raw: []byte{1}, LastValidBlockHeight: 100})
	gone := batchOf("eu-gone-behind", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w2", Signature: "gone", Raw: []byte{2}, LastValidBlockHeight: 100})
	for _, b := range []*wire.TxBatch{late, gone} {
		if r := p.send(t, b); r.Error != nil {
			t.Fatalf("%s: %+v", b.OrderID, r.Error)
		}
	}
	time.Sleep(time.Second) // deliberate: ten rechecks with the status node behind
	for _, id := range []string{late.OrderID, gone.OrderID} {
		if o := p.order(t, id); o.State != wire.StateBroadcast {
			t.Fatalf("%s ended %s while the status node was behind", id, o.State)
		}
	}
	c.set(func() { c.landed["late"], c.lag = true, 0 })
	if o := p.orderIn(t, late.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("the landed order ended %s", o.State)
	}
	if o := p.orderIn(t, gone.OrderID, 5*time.Second, wire.StateExpired, wire.StateConfirmed); o.State != wire.StateExpired {
		t.Fatalf("the order that never landed ended %s", o.State)
	}
}

// TestUnansweredOrderLandsAfterAnotherExpired: an order whose sends were
// all answered unknown (pending, no broadcast event) has one transaction
// expire and then another land: it stays pending while nothing of it is
// known on chain, and its events are broadcast then confirmed.
func TestUnansweredOrderLandsAfterAnotherExpired(t *testing.T) {
	t.Parallel()
	timeout := errors.New("read tcp 127.0.0.1:1: i/o timeout")
	c := newScripted(map[string][]error{"first": {timeout}, "second": {timeout}})
	c.height = 101
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, MaxAttempts: 1, ExpiryRecheck: 50 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-unanswered-then-landed", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "first", Raw: []byte{1}, LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: "second", Raw: []byte{2}, LastValidBlockHeight: 1000})
	if r := p.send(t, b); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT", r.Error)
	}
	o := poll.Value(t, 5*time.Second, "the first transaction expired", func() (*wire.Order, bool) {
		// The record is stored after the reply: not there yet is asked again.
		o, err := orders.NewStore(p.bus.Buckets.Orders).Get(context.Background(), b.OrderID)
		return o, err == nil && len(o.Signatures) == 2 && o.Signatures[0].State == wire.StateExpired
	})
	if o.State != wire.StatePending {
		t.Fatalf("order %s with nothing of it on chain, want pending", o.State)
	}
	c.set(func() { c.landed["second"] = true })
	p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed)
	poll.Until(t, 5*time.Second, "broadcast then confirmed", func() bool {
		return slices.Equal(p.eventTypes(t, b.OrderID), []events.Type{events.Broadcast, events.Confirmed})
	})
}

// TestExpiryFromANodeAlwaysBehind: a status node that stays a few slots
// behind the height's does not hold an expiry for good: it reaches the
// slot at which the height was first seen past as the chain goes on.
func TestExpiryFromANodeAlwaysBehind(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"gone": {nil}})
	c.height, c.lag = 101, 20 // twenty polls behind, for good
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, ExpiryRecheck: 50 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-gone-lagging", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w1", Signature: "gone", Raw: []byte{1}, LastValidBlockHeight: 100})
	if r := p.send(t, b); r.Error != nil {
		t.Fatalf("%+v", r.Error)
	}
	if o := p.orderIn(t, b.OrderID, 10*time.Second, wire.StateExpired, wire.StateConfirmed); o.State != wire.StateExpired {
		t.Fatalf("ended %s", o.State)
	}
}

// unsentErr is an error that surely did not reach the chain (no
// connection).
func unsentErr(t *testing.T) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = endpoint.New("solana rpc", "http://"+addr).HTTPClient(time.Second).Get("http://" + addr + "/")
	if !endpoint.IsUnsent(err) {
		t.Fatalf("not an unsent error: %v", err)
	}
	return err
}

// acked delivers b until a delivery acks it (its last try), the orders
// bucket refusing every write.
func acked(t *testing.T, br *Broadcaster, kv *flakyOrders, b *wire.TxBatch, from uint64) {
	t.Helper()
	kv.down.Store(true)
	defer kv.down.Store(false)
	for a := from; ; a++ {
		if a > 10 {
			t.Fatal("the batch was never acked")
		}
		m := delivered(b, nats.NewInbox(), a, time.Now())
		br.handle(m)
		if m.end == "ack" {
			return
		}
	}
}

// TestPartlyRecordedOrderNotFinalEarly: a delivery notes A (sent) but not
// B (no connection), and the record is written no more through the last
// delivery, which sends B: the record holds A, the tracker both. A fails:
// the order is not final while B is open (it was stored failed, with its
// failed event, and B then landed). B lands: confirmed.
func TestPartlyRecordedOrderNotFinalEarly(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"A": {nil}, "B": {unsentErr(t), nil}})
	b := batchOf("eu-partly-recorded", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: "B", Raw: []byte{2}, LastValidBlockHeight: 100})
	p, br, kv := faultyPipeline(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, c, b)
	br.handle(delivered(b, nats.NewInbox(), 1, time.Now()))
	if o := p.order(t, b.OrderID); len(o.Signatures) != 1 || o.Signatures[0].Signature != "A" {
		t.Fatalf("the note holds %+v, want A alone", o.Signatures)
	}
	acked(t, br, kv, b, 2)
	runTracker(t, br)
	c.set(func() { c.failed["A"] = true })
	var o *wire.Order
	if !poll.True(5*time.Second, func() bool {
		o = p.order(t, b.OrderID)
		return len(o.Signatures) > 0 && o.Signatures[0].State == wire.StateFailed
	}) {
		t.Fatalf("A's failure not recorded: %+v", o.Signatures)
	}
	if wire.FinalState(o.State) || len(o.Signatures) != 2 || o.Signatures[1].Signature != "B" {
		t.Fatalf("order %s %+v with B still open, want not final, B recorded", o.State, o.Signatures)
	}
	c.set(func() { c.landed["B"] = true })
	if o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateFailed); o.State != wire.StateConfirmed {
		t.Fatalf("order %s, want confirmed", o.State)
	}
	poll.Until(t, 5*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, b.OrderID), events.Confirmed)
	})
	if got := p.eventTypes(t, b.OrderID); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestUnrecordedAddedInBatchOrder: one wallet's approval A and swap B; a
// delivery notes B (sent) but not A (no connection), and the record is
// written no more. A lands, B fails: the order is failed, its approval
// added before its swap (an order's state reads each wallet's last
// transaction, which appended after the swap was the approval).
func TestUnrecordedAddedInBatchOrder(t *testing.T) {
	t.Parallel()
	c := newScripted(map[string][]error{"A": {unsentErr(t), nil}, "B": {nil}})
	b := batchOf("eu-added-in-order", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w1", Signature: "B", Raw: []byte{2}, LastValidBlockHeight: 100})
	p, br, kv := faultyPipeline(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, c, b)
	br.handle(delivered(b, nats.NewInbox(), 1, time.Now()))
	acked(t, br, kv, b, 2)
	c.set(func() { c.landed["A"], c.failed["B"] = true, true })
	runTracker(t, br)
	o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateFailed)
	if o.State != wire.StateFailed || len(o.Signatures) != 2 || o.Signatures[0].Signature != "A" || o.Signatures[1].Signature != "B" {
		t.Fatalf("order %s %+v, want failed, A before B", o.State, o.Signatures)
	}
}

// TestRefusedResendKeepsAcceptedBundle: a relay took a private
// transaction's bundle, and refuses its re-send: the bundle's record stays
// the accepted one, pending (that send may land), not dropped.
func TestRefusedResendKeepsAcceptedBundle(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1) == 1 {
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":"bundle-1"}`)
			return
		}
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Blockhash not found"}}`)
	}))
	defer srv.Close()
	s := NewSolana(solrpc.New(srv.URL), false).WithBundleRelay(NewBundleRelay(endpoint.New("relay", srv.URL), 5*time.Second))
	tx := wire.SignedTx{Wallet: "w1", Signature: "S1", Raw: []byte{1}, Private: true, LastValidBlockHeight: 100}
	if err := s.Send(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	var ref *Refused
	if err := s.Send(context.Background(), tx); !errors.As(err, &ref) {
		t.Fatalf("re-send: %v, want the relay's refusal", err)
	}
	if b, ok := s.Bundle("S1"); !ok || b.ID != "bundle-1" || b.State != wire.BundlePending {
		t.Fatalf("bundle %+v (%v), want bundle-1 still pending", b, ok)
	}
}

// TestFinalBeforeEmittedAsRepeat: a batch delivered again after its order
// was settled final (by the tracker, before the delivery that sent it
// acked) emits the order's final event again marked a repeat: past the
// stream's duplicate window the webhook dispatcher then posts it only when
// it never began to (it was posted twice).
func TestFinalBeforeEmittedAsRepeat(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	b := batchOf("eu-final-before", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100})
	o := orders.New(orders.OfBatch(b))
	o.State, o.Signatures = wire.StateConfirmed, []wire.SigState{{Signature: "A", Wallet: "w1", State: wire.StateConfirmed, Slot: 7}}
	if err := orders.NewStore(p.bus.Buckets.Orders).Create(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	js := &eventsSeen{JetStream: p.bus.JS}
	br := New(Config{}, p.bus.Conn, js, p.bus.Buckets, map[string]Chain{wire.ChainSolana: newScripted(map[string][]error{"A": {nil}})}, p.log)
	m := delivered(b, nats.NewInbox(), 2, time.Now())
	br.handle(m)
	js.mu.Lock()
	defer js.mu.Unlock()
	if m.end != "ack" || len(js.seen) != 1 || js.seen[0].Get(bus.HeaderRepeat) == "" {
		t.Fatalf("delivery ended %s, events %v: want one, marked a repeat", m.end, js.seen)
	}
}

// TestPartlyRefusedOrderLogged: an order one of whose wallets' sends was
// refused, answered 200 for the other and confirmed by it, says so at info,
// when broadcast and when final, with its order id: only debug lines told
// of an order whose wallets mostly bought nothing.
func TestPartlyRefusedOrderLogged(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	chain := newScripted(map[string][]error{"A": {nil}, "B": {&Refused{Reason: "slippage exceeded"}}})
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: chain})
	b := batchOf("eu-partly", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: "A", Raw: []byte{1}, LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: "B", Raw: []byte{2}, LastValidBlockHeight: 100})
	if r := p.send(t, b); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	chain.mu.Lock()
	chain.landed["A"] = true
	chain.mu.Unlock()
	for _, msg := range []string{"order broadcast with transactions refused", "order final, some of its transactions not confirmed"} {
		poll.Until(t, 5*time.Second, msg, func() bool {
			for _, line := range strings.Split(p.logs.String(), "\n") {
				var l struct{ Level, Msg string }
				if json.Unmarshal([]byte(line), &l) == nil && l.Msg == msg {
					return l.Level == "INFO" && strings.Contains(line, `"order_id":"eu-partly"`)
				}
			}
			return false
		})
	}
}
