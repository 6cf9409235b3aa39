package workers

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// randomSigner signs a batch whose bytes differ on every call, as a real
// signer's do (fresh blockhash, fresh nonce): any second signing of one
// order would show.
type randomSigner struct {
	calls atomic.Int32
	err   error
}

func (s *randomSigner) Sign(_ context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	s.calls.Add(1)
	if s.err != nil {
		return nil, s.err
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	return &wire.TxBatch{OrderID: job.OrderID, Chain: job.Chain, Txs: []wire.SignedTx{
		{Wallet: job.Legs[0].Wallet, Signature: fmt.Sprintf("%x", raw[:8]), Raw: raw}}}, nil
}

type env struct {
	nc *nats.Conn
	js jetstream.JetStream
	b  *bus.Buckets
}

func newEnv(t *testing.T) *env {
	t.Helper()
	b := bustest.Start(t, "test")
	return &env{nc: b.Conn, js: b.JS, b: b.Buckets}
}

func (e *env) publishJob(t *testing.T, id, inbox string) {
	t.Helper()
	job := wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now()}
	data, _ := json.Marshal(job)
	m := &nats.Msg{Subject: bus.OrdersSubject("solana"), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, inbox)
	if _, err := e.js.PublishMsg(context.Background(), m, jetstream.WithMsgID(id)); err != nil {
		t.Fatal(err)
	}
}

// nextBatch reads one signed batch from the TXS stream.
func (e *env) nextBatch(t *testing.T) *wire.TxBatch {
	t.Helper()
	ctx := context.Background()
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{Durable: "probe", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range msgs.Messages() {
		var b wire.TxBatch
		if err := json.Unmarshal(m.Data(), &b); err != nil {
			t.Fatal(err)
		}
		_ = m.Ack()
		return &b
	}
	t.Fatal("no signed batch published")
	return nil
}

// TestCrashBetweenSignAndAck kills a worker after it recorded the signed
// batch and before it published or acked; the redelivered job must publish
// exactly the recorded bytes and never sign again.
func TestCrashBetweenSignAndAck(t *testing.T) {
	e := newEnv(t)
	signer := &randomSigner{}
	log := slog.New(slog.DiscardHandler)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond}

	crashed := make(chan struct{})
	first := New(cfg, e.nc, e.js, e.b, signer, log)
	first.afterRecord = func(string) bool { close(crashed); return true }
	ctx1, stop1 := context.WithCancel(context.Background())
	done1 := make(chan error, 1)
	go func() { done1 <- first.Run(ctx1) }()

	e.publishJob(t, "eu-crash1", "")
	select {
	case <-crashed:
	case <-time.After(10 * time.Second):
		t.Fatal("first worker never signed")
	}
	stop1()
	<-done1
	rec, err := e.b.Signed.Get(context.Background(), "eu-crash1")
	if err != nil {
		t.Fatalf("signed batch not recorded before the crash: %v", err)
	}
	var recorded wire.TxBatch
	_ = json.Unmarshal(rec.Value(), &recorded)

	second := New(cfg, e.nc, e.js, e.b, signer, log)
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	go func() { _ = second.Run(ctx2) }()

	got := e.nextBatch(t)
	if string(got.Txs[0].Raw) != string(recorded.Txs[0].Raw) || got.Txs[0].Signature != recorded.Txs[0].Signature {
		t.Fatalf("redelivery published different bytes: %x, recorded %x", got.Txs[0].Raw, recorded.Txs[0].Raw)
	}
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1", n)
	}
}

// TestBusinessErrorAnswered checks that a refusal reaches the waiting
// ingress, marks the order failed and is not retried.
func TestBusinessErrorAnswered(t *testing.T) {
	e := newEnv(t)
	signer := &randomSigner{err: apierr.Newf(apierr.TokenNotFound, "T", "no curve")}
	w := New(Config{Chain: "solana", Beat: 50 * time.Millisecond}, e.nc, e.js, e.b, signer, slog.New(slog.DiscardHandler))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()

	inbox := nats.NewInbox()
	sub, err := e.nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	order := &wire.Order{OrderID: "eu-biz1", State: wire.StatePending}
	data, _ := json.Marshal(order)
	if _, err := e.b.Orders.Create(ctx, "eu-biz1", data); err != nil {
		t.Fatal(err)
	}
	e.publishJob(t, "eu-biz1", inbox)
	m, err := sub.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var r wire.Reply
	_ = json.Unmarshal(m.Data, &r)
	if r.Error == nil || r.Error.Code != apierr.TokenNotFound || r.Signatures == nil {
		t.Fatalf("reply %+v", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		e, err := e.b.Orders.Get(ctx, "eu-biz1")
		if err == nil {
			var o wire.Order
			_ = json.Unmarshal(e.Value(), &o)
			if o.State == wire.StateFailed && o.Error != nil && o.Error.Code == apierr.TokenNotFound {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("order not marked failed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1 (a refusal is final)", n)
	}
}

// TestBatchCarriesAutoOrders: the signed batch carries the buy's exits, so
// a broadcaster that must create the order record (ingress could not store
// it while a stream failed over) keeps them and the exits engine opens the
// position.
func TestBatchCarriesAutoOrders(t *testing.T) {
	e := newEnv(t)
	w := New(Config{Chain: "solana", Concurrency: 1, Beat: 50 * time.Millisecond}, e.nc, e.js, e.b, &randomSigner{}, slog.New(slog.DiscardHandler))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()

	pct := 50.0
	job := wire.SwapJob{OrderID: "eu-exits1", AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, AutoOrders: []wire.AutoOrder{{Type: "take_profit", TriggerPct: &pct, SellPct: 100}},
		CreatedAt: time.Now()}
	data, _ := json.Marshal(job)
	if _, err := e.js.Publish(context.Background(), bus.OrdersSubject("solana"), data, jetstream.WithMsgID(job.OrderID)); err != nil {
		t.Fatal(err)
	}
	got := e.nextBatch(t)
	if len(got.AutoOrders) != 1 || got.AutoOrders[0].Type != "take_profit" || *got.AutoOrders[0].TriggerPct != pct {
		t.Fatalf("batch auto_orders %+v, want the job's", got.AutoOrders)
	}
}
