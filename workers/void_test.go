package workers

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestVoidedOrderRefused: a job whose order its ingress voided (it could
// not tell the job queued) finds the void where it hands its batch on: the
// batch is dropped unsent, and the order is refused (answered, failed,
// its event out) instead of left pending for ever.
func TestVoidedOrderRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	id := "eu-voided"
	data, _ := json.Marshal(&wire.Order{OrderID: id, State: wire.StatePending, Signatures: []wire.SigState{}})
	if _, err := e.b.Orders.Create(ctx, id, data); err != nil {
		t.Fatal(err)
	}
	if voided, err := bus.Void(ctx, e.js, []string{"solana"}, id); err != nil || !voided {
		t.Fatalf("void: %v %v", voided, err)
	}
	signer := &randomSigner{}
	inbox, sub := e.runWorker(t, signer)
	e.publishJob(t, id, inbox)
	e.awaitJobsDone(t, "solana", 1)
	_, rerr := sub.NextMsg(2 * time.Second)
	entry, _ := e.b.Orders.Get(ctx, id)
	var o wire.Order
	_ = json.Unmarshal(entry.Value(), &o)
	if o.State != wire.StateFailed || rerr != nil || e.batches(t) != 0 {
		t.Fatalf("a voided order's job: record %s, reply %v, %d batches in TXS", o.State, rerr, e.batches(t))
	}
}

// TestVoidedLateJobNotSigned: a job reaching a worker late (its ingress
// gave up and voided it) is refused from the void, nothing signed (no EVM
// nonce taken).
func TestVoidedLateJobNotSigned(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	id := "eu-voided-late"
	if voided, err := bus.Void(ctx, e.js, []string{"solana"}, id); err != nil || !voided {
		t.Fatalf("void: %v %v", voided, err)
	}
	signer := &randomSigner{}
	inbox, sub := e.runWorker(t, signer)
	e.publishSwap(t, wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now().Add(-3 * time.Second)}, inbox)
	r := nextReply(t, sub)
	if r.Error == nil || signer.calls.Load() != 0 {
		t.Fatalf("reply %+v, signed %d", r, signer.calls.Load())
	}
}

// TestRefusalOfARedeliveryFenced: a job whose first delivery stalled past
// the ack wait (its process stopped while signing) is redelivered and
// refused (too old); the stalled delivery, signing on, can no longer hand
// its batch on: the refusal voided the order first.
func TestRefusalOfARedeliveryFenced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond, JobMaxAge: 300 * time.Millisecond}
	const id = "eu-stalled"
	e.deliverOnceUnacked(t, cfg, id)
	signer := &randomSigner{}
	w := e.newWorker(cfg, signer)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()
	e.awaitFailed(t, id, apierr.UpstreamTimeout)
	e.awaitJobsDone(t, "solana", 2)
	// The first delivery hands its batch on now, as it would once its
	// process resumed.
	_, err := e.js.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject("solana", id), Data: []byte(`{}`)},
		jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0))
	if !bus.Conflict(err) {
		t.Fatalf("a batch of the refused order was taken after the refusal: %v", err)
	}
	if n := signer.calls.Load(); n != 0 {
		t.Fatalf("signed %d times", n)
	}
}

// TestLateFirstDeliveryRefusalFenced: a job handed out again as a first
// delivery (a NATS server that lost its acks) and refused as too old voids
// its order first, as a redelivery's refusal does: the delivery that may
// still be signing it cannot hand its batch on afterwards.
func TestLateFirstDeliveryRefusalFenced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const id = "eu-late-refused"
	signer := &randomSigner{}
	inbox, sub := e.runWorker(t, signer)
	e.publishSwap(t, wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now().Add(-time.Minute)}, inbox)
	if r := nextReply(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v, want refused as too old", r)
	}
	_, err := e.js.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject("solana", id), Data: []byte(`{}`)},
		jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0))
	if !bus.Conflict(err) {
		t.Fatalf("a batch of the refused order was taken after the refusal: %v", err)
	}
}

// failingVoid makes the worker's voids fail, as against a stream without a
// leader, until fails returns false; calls counts the tries.
func failingVoid(w *Worker, fails func(call int32) bool) (calls *atomic.Int32, first *atomic.Int64) {
	calls, first = &atomic.Int32{}, &atomic.Int64{}
	w.void = func(ctx context.Context, js jetstream.JetStream, chains []string, id string) (bool, error) {
		n := calls.Add(1)
		first.CompareAndSwap(0, time.Now().UnixNano())
		if fails(n) {
			return false, errors.New("nats: no responders available for request")
		}
		return bus.Void(ctx, js, chains, id)
	}
	return calls, first
}

// TestLastDeliveryRefusalWaitsForItsVoid: a job's last delivery that is
// to be refused (too old), while an earlier one stalled signing it, cannot
// void the order at first; it does not refuse unvoided, but tries the void
// again, and the earlier delivery's batch, handed on meanwhile, is found
// there: the order goes on, nothing refused.
func TestLastDeliveryRefusalWaitsForItsVoid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond,
		JobMaxAge: 300 * time.Millisecond, MaxAttempts: 1}
	const id = "eu-stalled-last"
	e.deliverOnceUnacked(t, cfg, id)
	signer := &randomSigner{}
	w := e.newWorker(cfg, signer)
	calls, _ := failingVoid(w, func(n int32) bool {
		if n == 2 {
			// The stalled delivery hands its batch on now.
			if _, err := e.js.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject("solana", id), Data: []byte(`{}`)},
				jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0)); err != nil {
				t.Errorf("the stalled delivery's batch: %v", err)
			}
		}
		return n <= 2
	})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()
	e.awaitJobsDone(t, "solana", 2)
	if n := calls.Load(); n != 3 {
		t.Fatalf("voids tried %d times, want 3", n)
	}
	if entry, err := e.b.Orders.Get(context.Background(), id); err == nil {
		var o wire.Order
		_ = json.Unmarshal(entry.Value(), &o)
		if o.State == wire.StateFailed {
			t.Fatalf("the order whose batch was handed on was refused: %+v", o)
		}
	}
	if n := e.batches(t); n != 1 || signer.calls.Load() != 0 {
		t.Fatalf("%d batches in TXS, signed %d times; want the stalled delivery's one batch", n, signer.calls.Load())
	}
}

// TestLastDeliveryRefusedUnvoidedOnlyOnceNoneCanHandOn: when the void of a
// last delivery's refusal keeps failing, the refusal waits until no
// delivery can hand a batch on any more (twice JobMaxAge and a margin
// after the order was made: none signs past the first, and none hands a
// batch on past the second after it began), trying the void meanwhile,
// and then goes on: the order answered failed.
func TestLastDeliveryRefusedUnvoidedOnlyOnceNoneCanHandOn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond,
		JobMaxAge: 300 * time.Millisecond, MaxAttempts: 1}
	const id = "eu-stalled-unvoided"
	made := time.Now() // the order is made after this
	e.deliverOnceUnacked(t, cfg, id)
	w := e.newWorker(cfg, &randomSigner{})
	calls, _ := failingVoid(w, func(int32) bool { return true })
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()
	e.awaitFailed(t, id, apierr.UpstreamTimeout)
	if since := time.Since(made); since < 2*cfg.JobMaxAge+fenceMargin {
		t.Fatalf("refused %v after the order was made, before every delivery's time to hand a batch on had passed", since)
	}
	if n := calls.Load(); n < 3 {
		t.Fatalf("void tried %d times while waiting", n)
	}
	e.awaitJobsDone(t, "solana", 2)
}

// TestLastDeliveryNotRefusedUnvoidedByAStoppingWorker: a worker told to
// stop while its last delivery's void keeps failing does not refuse the
// order unvoided (an earlier delivery could still trade it after its bot
// was told it failed): the job is handed back, the order left pending.
func TestLastDeliveryNotRefusedUnvoidedByAStoppingWorker(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond,
		JobMaxAge: 300 * time.Millisecond, MaxAttempts: 1}
	const id = "eu-stalled-stopping"
	e.deliverOnceUnacked(t, cfg, id)
	w := e.newWorker(cfg, &randomSigner{})
	ctx, stop := context.WithCancel(context.Background())
	failingVoid(w, func(n int32) bool {
		if n == 1 {
			stop() // SIGTERM while the void is failing
		}
		return true
	})
	// Redelivered past its life, the job is to be refused as too old.
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("the worker did not stop")
	}
	if entry, err := e.b.Orders.Get(context.Background(), id); err == nil {
		var o wire.Order
		_ = json.Unmarshal(entry.Value(), &o)
		if o.State == wire.StateFailed {
			t.Fatalf("a stopping worker refused the order unvoided: %+v", o)
		}
	}
}
