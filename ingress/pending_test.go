package ingress

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// heldJobs holds every job's publish until released.
type heldJobs struct {
	jetstream.JetStream
	publishing chan struct{}
	release    chan struct{}
}

func (h *heldJobs) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if strings.HasPrefix(msg.Subject, "orders.") {
		h.publishing <- struct{}{}
		<-h.release
	}
	return h.JetStream.PublishMsg(ctx, msg, opts...)
}

// TestPendingRecordFollowsTheJob: an order's pending record is written
// once the stream has its job, not beside the publish: a record written
// first could outlive a job a crash kept from the stream, and stay pending
// for ever.
func TestPendingRecordFollowsTheJob(t *testing.T) {
	t.Parallel()
	held := &heldJobs{publishing: make(chan struct{}, 1), release: make(chan struct{})}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(5*time.Second),
		withJetStream(func(js jetstream.JetStream) jetstream.JetStream { held.JetStream = js; return held }))
	// Released at the latest when the test ends, before the harness
	// stops, so that a failing test does not hold the publish for ever.
	release := sync.OnceFunc(func() { close(held.release) })
	t.Cleanup(release)
	startWorker(t, h, wire.ChainSolana, func(id string, _ []byte) *wire.Reply {
		return &wire.Reply{OrderID: id, Signatures: []string{"sig-" + id}}
	})
	answered := make(chan answer, 1)
	go func() {
		answered <- call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0001`))
	}()
	<-held.publishing
	records := func() uint64 {
		st, err := h.bus.Buckets.Orders.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return st.Values()
	}
	// Nothing can write the record while the job is held: the worker has
	// no job, and ingress waits for the stream.
	for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n := records(); n != 0 {
			t.Fatalf("%d order records while the job is not in the stream yet", n)
		}
	}
	release()
	a := <-answered
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	poll.Until(t, 5*time.Second, "the pending record", func() bool { return records() == 1 })
}

// ackLost stores every job but never confirms it, as a stream whose
// acknowledgements are lost; signedFirst, when set, also hands a batch of
// the order on before the publish returns, as a worker that took the job
// at once would.
type ackLost struct {
	jetstream.JetStream
	signedFirst bool
}

func (a *ackLost) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if !strings.HasPrefix(msg.Subject, "orders.") {
		return a.JetStream.PublishMsg(ctx, msg, opts...)
	}
	if _, err := a.JetStream.PublishMsg(ctx, msg, opts...); err != nil {
		return nil, err
	}
	if id := msg.Header.Get(bus.HeaderOrder); a.signedFirst {
		_, _ = a.JetStream.PublishMsg(ctx, &nats.Msg{Subject: bus.BatchSubject(wire.ChainSolana, id), Data: []byte(`{}`)},
			jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0))
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestUnqueuedOrderVoided: an order whose job the stream took without
// confirming it is answered 504 naming it and shows pending; since no
// worker signed it, it is voided (no batch of it can be handed on any
// more: a worker's would be refused) and then failed, so that its bot may
// place it again without trading twice.
func TestUnqueuedOrderVoided(t *testing.T) {
	t.Parallel()
	lost := &ackLost{}
	h, id := unqueuedBuy(t, &lost.JetStream, lost, nil)
	o := poll.Value(t, 10*time.Second, "the order failed once voided", func() (*wire.Order, bool) {
		o, err := orders.NewStore(h.bus.Buckets.Orders).Get(context.Background(), id)
		return o, err == nil && o.State == wire.StateFailed
	})
	if o.Error == nil || !strings.Contains(o.Error.Message, "was not queued") {
		t.Fatalf("record %+v", o)
	}
	// No worker had it: ingress emits its failed event, which a bot that
	// follows its orders by webhook waits for.
	failedEventOf(t, h, id)
	// A worker that takes the job now cannot hand a batch of it on.
	_, err := h.bus.JS.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject(wire.ChainSolana, id), Data: []byte(`{}`)},
		jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0))
	if !bus.Conflict(err) {
		t.Fatalf("a batch of the voided order was taken: %v", err)
	}
}

// failedEventOf waits for the failed event of order id in EVENTS.
func failedEventOf(t *testing.T, h *harness, id string) {
	t.Helper()
	poll.Until(t, 10*time.Second, "the failed event of "+id, func() bool {
		m, err := h.bus.JS.Stream(context.Background(), bus.StreamEvents)
		if err != nil {
			return false
		}
		msg, err := m.GetLastMsgForSubject(context.Background(), bus.EventsSubject("acct1", string(events.Failed)))
		if err != nil {
			return false
		}
		var e events.Event
		return json.Unmarshal(msg.Data, &e) == nil && e.OrderID == id && e.Type == events.Failed
	})
}

// TestUnqueuedOrderSignedIsNotFailed: an order whose job the stream took
// without confirming it, and which a worker signed at once, is never
// failed by its ingress: the pipeline has it, and a failed record would
// invite its bot to trade again.
func TestUnqueuedOrderSignedIsNotFailed(t *testing.T) {
	t.Parallel()
	lost := &ackLost{signedFirst: true}
	var logs logtest.Buffer
	h, id := unqueuedBuy(t, &lost.JetStream, lost, &logs)
	poll.Until(t, 10*time.Second, "the void found the batch", func() bool {
		return strings.Contains(logs.String(), "queued after all and signed")
	})
	o, err := orders.NewStore(h.bus.Buckets.Orders).Get(context.Background(), id)
	if err != nil || o.State != wire.StatePending {
		t.Fatalf("record %+v %v, want pending for the pipeline", o, err)
	}
}

// voidRefused is ackLost whose voids fail until voids is set, as a stream
// still troubled.
type voidRefused struct {
	ackLost
	voids atomic.Bool
}

func (v *voidRefused) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if msg.Header.Get(bus.HeaderVoid) != "" && !v.voids.Load() {
		return nil, errors.New("nats: timeout")
	}
	return v.ackLost.PublishMsg(ctx, msg, opts...)
}

// TestUnqueuedOrderDecidedAtStop: an unqueued order still undecided when
// the server stops is tried once more at once, and the stop waits for
// that try: decided, it is failed as usual; not, a log line says that it
// stays pending and why.
func TestUnqueuedOrderDecidedAtStop(t *testing.T) {
	t.Parallel()
	for _, voids := range []bool{true, false} {
		lost := &voidRefused{}
		var logs logtest.Buffer
		h, id := unqueuedBuy(t, &lost.JetStream, lost, &logs)
		poll.Until(t, 10*time.Second, "a void tried", func() bool { return strings.Contains(logs.String(), "will retry") })
		lost.voids.Store(voids)
		s := h.servers[0]
		close(s.stopping) // as Run does when its context ends
		done := make(chan struct{})
		go func() { s.voiding.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the stop does not wait for the unqueued order's last try, or that try does not end")
		}
		o, err := orders.NewStore(h.bus.Buckets.Orders).Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(logs.String(), "stopping with an unqueued order undecided")
		if voids && (o.State != wire.StateFailed || said) || !voids && (o.State != wire.StatePending || !said) {
			t.Fatalf("void at the stop %v: record %s, undecided said %v", voids, o.State, said)
		}
	}
}

// unqueuedBuy runs a harness whose first ingress publishes through
// wrapper (which wraps the stream it is given in *inner) and places a buy
// whose job the stream never confirms: answered 504 UPSTREAM_TIMEOUT
// naming its order, whose id it returns. logs, when set, gets the log.
func unqueuedBuy(t *testing.T, inner *jetstream.JetStream, wrapper jetstream.JetStream, logs *logtest.Buffer) (*harness, string) {
	t.Helper()
	opts := []harnessOption{withTimeout(time.Second),
		withJetStream(func(js jetstream.JetStream) jetstream.JetStream { *inner = js; return wrapper })}
	if logs != nil {
		opts = append(opts, withLog(logs))
	}
	h := newHarness(t, budget.DefaultLimits, allChains{}, opts...)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0001`))
	id := a.header.Get("X-Order-Id")
	if a.status != 504 || a.code() != "UPSTREAM_TIMEOUT" || id == "" {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	return h, id
}

// TestTimedOutOrderWithdrawn: an order whose job no worker takes before the
// deadline (its chain's last worker died unseen) is withdrawn: answered
// 504 saying nothing of it was or will be traded, recorded failed, and a
// worker that takes its job later cannot hand a batch of it on. One that a
// worker signed before the deadline goes on: answered 504 to look up, its
// record left to the pipeline.
func TestTimedOutOrderWithdrawn(t *testing.T) {
	t.Parallel()
	// The signing worker below must take its job and hand the batch on
	// inside the timeout: a loaded machine has seconds for it.
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(3*time.Second))
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0001`))
	id := a.header.Get("X-Order-Id")
	if a.status != 504 || a.code() != "UPSTREAM_TIMEOUT" || !strings.Contains(a.raw, "nothing of it was or will be traded") || id == "" {
		t.Fatalf("answer %d %s", a.status, a.raw)
	}
	o, err := orders.NewStore(h.bus.Buckets.Orders).Get(context.Background(), id)
	if err != nil || o.State != wire.StateFailed || o.Error == nil || !strings.Contains(o.Error.Message, "withdrawn") {
		t.Fatalf("record %+v %v", o, err)
	}
	_, err = h.bus.JS.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject(wire.ChainSolana, id), Data: []byte(`{}`)},
		jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(0))
	if !bus.Conflict(err) {
		t.Fatalf("a batch of the withdrawn order was taken: %v", err)
	}

	// A worker that signs (hands the batch on) and never answers.
	cons, err := h.bus.JS.CreateOrUpdateConsumer(context.Background(), bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer(wire.ChainSolana), FilterSubject: bus.OrdersSubject(wire.ChainSolana), AckPolicy: jetstream.AckExplicitPolicy,
		DeliverPolicy: jetstream.DeliverNewPolicy})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		oid := m.Headers().Get(bus.HeaderOrder)
		_, _ = h.bus.JS.PublishMsg(context.Background(), &nats.Msg{Subject: bus.BatchSubject(wire.ChainSolana, oid), Data: []byte(`{}`)},
			jetstream.WithMsgID(oid), jetstream.WithExpectLastSequencePerSubject(0))
		_ = m.Ack()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cc.Stop)
	a = call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0002`))
	id = a.header.Get("X-Order-Id")
	if a.status != 504 || a.code() != "UPSTREAM_TIMEOUT" || strings.Contains(a.raw, "withdrawn") || id == "" {
		t.Fatalf("signed order's answer %d %s", a.status, a.raw)
	}
	if o, err := orders.NewStore(h.bus.Buckets.Orders).Get(context.Background(), id); err != nil || o.State != wire.StatePending {
		t.Fatalf("signed order's record %+v %v, want pending for the pipeline", o, err)
	}
}

// TestLateRefusalAnsweredAsIs: a refusal whose answer came just after the
// deadline (its record failed with the worker's code, nothing signed) is
// answered as the refusal, not as an order withdrawn.
func TestLateRefusalAnsweredAsIs(t *testing.T) {
	t.Parallel()
	// The record is failed at once; a loaded machine has the timeout's
	// whole span to deliver the job and write it.
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(3*time.Second))
	startWorker(t, h, wire.ChainSolana, func(id string, job []byte) *wire.Reply {
		o := &wire.Order{OrderID: id, AccountID: "acct1", Family: wire.FamilySol, Kind: wire.KindSwap, Chain: wire.ChainSolana,
			Side: wire.Buy, Token: solMint, State: wire.StateFailed, CreatedAt: time.Now(),
			Error: &apierr.Body{Code: apierr.InsufficientBalance, Message: "the wallet holds too little"}}
		if err := orders.NewStore(h.bus.Buckets.Orders).Update(context.Background(), id, o, func(r *wire.Order) {
			r.State, r.Error = o.State, o.Error
		}); err != nil {
			t.Error(err)
		}
		time.Sleep(3500 * time.Millisecond) // its answer comes after the deadline
		return &wire.Reply{OrderID: id, Error: o.Error}
	})
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0001`))
	if a.status != 422 || a.code() != "INSUFFICIENT_BALANCE" {
		t.Fatalf("answer %d %s, want the refusal", a.status, a.raw)
	}
}
