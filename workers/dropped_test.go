package workers

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// droppingSigner is a randomSigner told of the batches the worker drops.
type droppingSigner struct {
	randomSigner
	mu      sync.Mutex
	dropped []*wire.TxBatch
	late    atomic.Bool
	// within, when set, is how long after its signing a batch must be in
	// TXS (a minute otherwise).
	within time.Duration
}

func (s *droppingSigner) Dropped(_ context.Context, b *wire.TxBatch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped = append(s.dropped, b)
}

// PublishBy is a minute on, or already past when late is set.
func (s *droppingSigner) PublishBy(*wire.TxBatch) time.Time {
	if s.late.Load() {
		return time.Now().Add(-time.Second)
	}
	if s.within > 0 {
		return time.Now().Add(s.within)
	}
	return time.Now().Add(time.Minute)
}

func (s *droppingSigner) drops() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.dropped)
}

// TestDroppedBatchGivenBack: a batch the worker signs and cannot hand on,
// its order's batch being another signing's or its ingress's void, is
// given back to its signer (on EVM its nonces), once.
func TestDroppedBatchGivenBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	data, _ := json.Marshal(wire.TxBatch{OrderID: "eu-other", Chain: "solana",
		Txs: []wire.SignedTx{{Wallet: "W", Signature: "sig-first", Raw: []byte("first")}}})
	if _, err := e.js.Publish(ctx, bus.BatchSubject("solana", "eu-other"), data, jetstream.WithMsgID("elsewhere")); err != nil {
		t.Fatal(err)
	}
	signer := &droppingSigner{}
	inbox, sub := e.runWorker(t, signer)
	e.publishJob(t, "eu-other", inbox)
	e.awaitJobsDone(t, "solana", 1)
	if n := signer.drops(); n != 1 || signer.dropped[0].OrderID != "eu-other" {
		t.Fatalf("%d batches given back after another signing's batch was found, want this one", n)
	}
	// Voided by its ingress before the worker hands its batch on.
	data, _ = json.Marshal(&wire.Order{OrderID: "eu-void", State: wire.StatePending, Signatures: []wire.SigState{}})
	if _, err := e.b.Orders.Create(ctx, "eu-void", data); err != nil {
		t.Fatal(err)
	}
	if voided, err := bus.Void(ctx, e.js, []string{"solana"}, "eu-void"); err != nil || !voided {
		t.Fatalf("void: %v %v", voided, err)
	}
	e.publishJob(t, "eu-void", inbox)
	if r := nextReply(t, sub); r.Error == nil {
		t.Fatalf("a voided order answered %+v", r)
	}
	poll.Until(t, 5*time.Second, "the voided order's batch given back", func() bool { return signer.drops() == 2 })
	// An order handed on as usual gives nothing back.
	e.publishJob(t, "eu-sent", inbox)
	e.awaitJobsDone(t, "solana", 3)
	if e.batchOf(t, "solana", "eu-sent") == nil || signer.drops() != 2 {
		t.Fatalf("a batch handed on: in TXS %v, %d given back, want 2", e.batchOf(t, "solana", "eu-sent") != nil, signer.drops())
	}
}

// TestOwnBatchNotDropped: a publish whose earlier try the stream stored
// unseen is refused (the subject taken, or a duplicate message id); the
// batch is this one, handed on, not dropped. The same refusals over other
// bytes are another signing's batch: dropped.
func TestOwnBatchNotDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	w := e.newWorker(Config{Chain: "solana"}, &randomSigner{})
	var err error
	if w.txs, err = e.js.Stream(ctx, bus.StreamTxs); err != nil { // as Run does
		t.Fatal(err)
	}
	for i, c := range []struct {
		name, msgID string
		same, want  bool
	}{
		{"subject taken by these bytes", "another id", true, false},
		{"duplicate message id, these bytes", "", true, false},
		{"subject taken by other bytes", "another id", false, true},
		{"duplicate message id, other bytes", "", false, true},
	} {
		id := fmt.Sprintf("eu-own-%d", i)
		subject := bus.BatchSubject("solana", id)
		stored := []byte(`{"order_id":"` + id + `"}`)
		msgID := id
		if c.msgID != "" {
			msgID = c.msgID + " " + id
		}
		if _, err := e.js.Publish(ctx, subject, stored, jetstream.WithMsgID(msgID)); err != nil {
			t.Fatal(err)
		}
		out := &nats.Msg{Subject: subject, Data: []byte(`{"order_id":"` + id + `","txs":[]}`), Header: nats.Header{}}
		if c.same {
			out.Data = stored
		}
		dropped, err := w.publishBatch(ctx, out, id, w.log)
		if err != nil || dropped != c.want {
			t.Fatalf("%s: dropped %v, %v; want %v", c.name, dropped, err, c.want)
		}
	}
}

// TestBatchNotHandedOnPastItsTime: a batch its signer wants in TXS by a
// time already past (on EVM, before its nonces may be filled as lost) is
// not published, nor given back (whether a try landed is not known): the
// job goes back for its redelivery to look up.
func TestBatchNotHandedOnPastItsTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &droppingSigner{}
	signer.late.Store(true)
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()
	e.publishJob(t, "eu-late", "")
	poll.Until(t, 10*time.Second, "the job signed", func() bool { return signer.calls.Load() >= 1 })
	time.Sleep(300 * time.Millisecond)
	if e.batchOf(t, "solana", "eu-late") != nil || signer.drops() != 0 {
		t.Fatalf("a batch past its time: in TXS %v, given back %d", e.batchOf(t, "solana", "eu-late") != nil, signer.drops())
	}
}

// batchesRefused is a stream that takes no batch (it takes voids), as
// NATS troubled for longer than a job's deliveries.
type batchesRefused struct{ jetstream.JetStream }

func (b batchesRefused) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if strings.HasPrefix(msg.Subject, "txs.") && msg.Header.Get(bus.HeaderVoid) == "" {
		return nil, context.DeadlineExceeded
	}
	return b.JetStream.PublishMsg(ctx, msg, opts...)
}

// TestBatchNotHandedOnByTheLastDelivery: a job whose batch no delivery
// could hand on is not left pending for good by its last: the order is
// voided (no try of it can land any more), refused and failed, and what
// its batch took given back.
func TestBatchNotHandedOnByTheLastDelivery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	signer := &droppingSigner{within: 200 * time.Millisecond}
	inbox, sub := e.run(t, New(Config{Chain: "solana", Beat: 50 * time.Millisecond, MaxAttempts: 1},
		e.nc, batchesRefused{e.js}, e.b, signer, e.view, slog.New(slog.DiscardHandler)))
	e.publishJob(t, "eu-unhanded", inbox)
	if r := nextReply(t, sub); r.Error == nil || r.Error.Code != "UPSTREAM_TIMEOUT" {
		t.Fatalf("reply %+v, want the order refused", r)
	}
	o, err := orders.NewStore(e.b.Orders).Get(ctx, "eu-unhanded")
	if err != nil || o.State != wire.StateFailed {
		t.Fatalf("record %+v, %v: want failed", o, err)
	}
	voided, err := bus.Void(ctx, e.js, []string{"solana"}, "eu-unhanded")
	if err != nil || !voided || signer.calls.Load() != 2 || signer.drops() != 1 {
		t.Fatalf("voided %v (%v), signed %d times, %d batches given back: want the order voided, its last batch given back",
			voided, err, signer.calls.Load(), signer.drops())
	}
}

// TestBatchNotHandedOnVoidedPatiently: on the last delivery of a job whose
// batch could not be handed on, a void that fails at first is tried again
// rather than leaving the order pending for good, unanswered.
func TestBatchNotHandedOnVoidedPatiently(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &droppingSigner{within: 200 * time.Millisecond}
	w := New(Config{Chain: "solana", Beat: 50 * time.Millisecond, MaxAttempts: 1},
		e.nc, batchesRefused{e.js}, e.b, signer, e.view, slog.New(slog.DiscardHandler))
	calls, _ := failingVoid(w, func(n int32) bool { return n <= 2 })
	inbox, sub := e.run(t, w)
	e.publishJob(t, "eu-unhanded-void", inbox)
	if r := nextReply(t, sub); r.Error == nil || r.Error.Code != "UPSTREAM_TIMEOUT" {
		t.Fatalf("reply %+v, want the order refused", r)
	}
	voided, err := bus.Void(context.Background(), e.js, []string{"solana"}, "eu-unhanded-void")
	if err != nil || !voided || calls.Load() < 3 || signer.drops() != 1 {
		t.Fatalf("voided %v (%v) after %d tries, %d batches given back", voided, err, calls.Load(), signer.drops())
	}
}
