package events

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// counter reads a counter.
func counter(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}

// shortWaits lets every retry wait as a scheduled message, for the test.
func shortWaits(t *testing.T) {
	old := parkAfter
	parkAfter = 0
	t.Cleanup(func() { parkAfter = old })
}

// waiting counts the deliveries waiting in the retries stream.
func waiting(t *testing.T, e *env) uint64 {
	t.Helper()
	st, err := e.js.Stream(context.Background(), bus.StreamWebhookRetries)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background(), jetstream.WithSubjectFilter(bus.WebhookWaitPrefix+">"))
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, c := range info.State.Subjects {
		n += c
	}
	return n
}

// ackPending is what the webhook consumer of EVENTS holds.
func ackPending(t *testing.T, e *env) int {
	t.Helper()
	c, err := e.js.Consumer(context.Background(), bus.StreamEvents, bus.WebhookConsumer)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.NumAckPending
}

// TestFailingReceiverHoldsNoSharedPlace: an account whose receiver fails
// has its events wait in the retries stream, not among the events every
// account shares: with a bound of 10 held events, 40 events of a failing
// receiver (which would have filled it, every other account's deliveries
// then stalled) leave the other account's 20 delivered at once. Its
// receiver got one attempt per delivery slot of its share, not one per
// event: the rest were held without an attempt.
func TestFailingReceiverHoldsNoSharedPlace(t *testing.T) {
	e := newEnv(t)
	dead := newReceiver(t, http.StatusServiceUnavailable)
	ok := newReceiver(t, http.StatusNoContent)
	cfg := fastRetries
	cfg.BaseDelay, cfg.MaxDelay = time.Minute, time.Minute
	cfg.Concurrency, cfg.PerAccount, cfg.MaxAckPending = 4, 2, 10
	run(t, e, cfg, targets{"acc_dead": {URL: dead.srv.URL, Secret: "s"}, "acc_ok": {URL: ok.srv.URL, Secret: "s"}})
	heldBefore, retriesBefore := counter(metrics.WebhookHeld), counted(OutcomeRetry)

	p := NewPublisher(e.js, nil)
	ctx := context.Background()
	for i := range 40 {
		p.Emit(ctx, Confirmed, order(fmt.Sprintf("eu-dead%d", i), "acc_dead"))
	}
	poll.Until(t, 10*time.Second, "every event of the failing account waiting", func() bool {
		return counter(metrics.WebhookHeld)-heldBefore+counted(OutcomeRetry)-retriesBefore == 40
	})
	if n := len(dead.deliveries()); n < 1 || n > cfg.PerAccount {
		t.Fatalf("%d attempts at the failing receiver, want at most its share of %d", n, cfg.PerAccount)
	}
	poll.Until(t, 5*time.Second, "40 deliveries waiting in "+bus.StreamWebhookRetries, func() bool { return waiting(t, e) == 40 })
	poll.Until(t, 5*time.Second, "the events consumer holding nothing", func() bool { return ackPending(t, e) == 0 })
	if g := gauge(metrics.WebhookFailingAccounts); g != 1 {
		t.Fatalf("%v failing accounts, want 1", g)
	}

	for i := range 20 {
		p.Emit(ctx, Confirmed, order(fmt.Sprintf("eu-ok%d", i), "acc_ok"))
	}
	poll.Until(t, 5*time.Second, "every event of the answering account delivered", func() bool { return len(ok.deliveries()) == 20 })

	// An attempted event's record keeps its answer and says when it is
	// tried again; a held one says it was not attempted yet.
	for i := range 40 {
		rec := waitRecord(t, e, "acc_dead", fmt.Sprintf("eu-dead%d.confirmed", i), OutcomeRetry)
		if rec.NextAt == nil || rec.NextAt.Before(time.Now().Add(20*time.Second)) {
			t.Fatalf("record %+v: next attempt not about a minute away", rec)
		}
		switch rec.Attempts {
		case 1:
			if rec.Status != http.StatusServiceUnavailable {
				t.Fatalf("attempted event's record %+v", rec)
			}
		case 0:
			if rec.Status != 0 || !strings.Contains(rec.Error, "not attempted yet") {
				t.Fatalf("held event's record %+v", rec)
			}
		default:
			t.Fatalf("record %+v", rec)
		}
	}
}

// TestWaitingDeliveryComesDue: a retry that waited as a scheduled message
// is attempted again when it is due, with the same body and event id, and
// counted as the second attempt.
func TestWaitingDeliveryComesDue(t *testing.T) {
	shortWaits(t)
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusBadGateway, http.StatusOK)
	run(t, e, fastRetries, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-due", "acc_a"))
	rec := waitRecord(t, e, "acc_a", "eu-due.confirmed", OutcomeDelivered)
	got := rcv.deliveries()
	if rec.Attempts != 2 || len(got) != 2 {
		t.Fatalf("record %+v after %d deliveries, want the second attempt delivered", rec, len(got))
	}
	for _, d := range got {
		if d.header.Get(HeaderEventID) != "eu-due.confirmed" || string(d.body) != string(got[0].body) ||
			client.VerifySignature("s", d.body, d.header.Get(HeaderSignature)) != nil {
			t.Fatalf("the attempts differ: %v", d.header)
		}
	}
	// The server purged the wait once it made it due, and the due
	// delivery is gone once ended: nothing is left in the stream.
	poll.Until(t, 5*time.Second, "the stream emptied", func() bool {
		st, err := e.js.Stream(context.Background(), bus.StreamWebhookRetries)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(context.Background())
		return err == nil && info.State.Msgs == 0
	})
	poll.Until(t, 5*time.Second, "the account no longer failing", func() bool { return gauge(metrics.WebhookFailingAccounts) == 0 })
}

// TestProbeAfterThePause: the events of an account whose receiver failed
// wait for the pause, then come back; the first answered attempt ends the
// pause and every one is delivered, once.
func TestProbeAfterThePause(t *testing.T) {
	shortWaits(t)
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusInternalServerError, http.StatusOK)
	cfg := fastRetries
	cfg.PerAccount = 1
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	heldBefore := counter(metrics.WebhookHeld)
	p := NewPublisher(e.js, nil)
	for i := range 10 {
		p.Emit(context.Background(), Confirmed, order(fmt.Sprintf("eu-p%d", i), "acc_a"))
	}
	// A held event's wait is no attempt: the failed one is delivered at
	// its second, every other at its first.
	second := 0
	for i := range 10 {
		switch rec := waitRecord(t, e, "acc_a", fmt.Sprintf("eu-p%d.confirmed", i), OutcomeDelivered); rec.Attempts {
		case 1:
		case 2:
			second++
		default:
			t.Fatalf("record %+v", rec)
		}
	}
	if second != 1 {
		t.Fatalf("%d events delivered at their second attempt, want the one that failed", second)
	}
	if n := len(rcv.deliveries()); n != 11 {
		t.Fatalf("%d attempts, want one failed and ten delivered", n)
	}
	if counter(metrics.WebhookHeld) == heldBefore {
		t.Fatal("no event held after the failure")
	}
}

// TestCircuits: a failure pauses its account; when the pause ends one
// attempt probes while the others wait; failures of attempts under way at
// the pause do not lengthen it; an answer ends it.
func TestCircuits(t *testing.T) {
	c := newCircuits()
	now := time.Unix(1_800_000_000, 0)
	pause := func(n int) time.Duration { return time.Duration(n) * time.Minute }
	probe := 5 * time.Second
	if _, ok := c.admit("a", now, probe); !ok {
		t.Fatal("an account that never failed not admitted")
	}
	before := gauge(metrics.WebhookFailingAccounts)
	c.failed("a", now, pause)
	c.failed("a", now.Add(time.Second), pause) // under way at the pause
	if hold, ok := c.admit("a", now.Add(10*time.Second), probe); ok || hold != 50*time.Second {
		t.Fatalf("during the pause: hold %v, admitted %v; want 50s", hold, ok)
	}
	if _, ok := c.admit("b", now, probe); !ok {
		t.Fatal("another account paused")
	}
	after := now.Add(time.Minute)
	if _, ok := c.admit("a", after, probe); !ok {
		t.Fatal("no probe after the pause")
	}
	if hold, ok := c.admit("a", after, probe); ok || hold != probe {
		t.Fatalf("beside the probe: hold %v, admitted %v", hold, ok)
	}
	if _, ok := c.admit("a", after.Add(probe), probe); !ok {
		t.Fatal("no probe after one that never ended")
	}
	c.release("a")
	if _, ok := c.admit("a", after, probe); !ok {
		t.Fatal("no probe after a released one")
	}
	c.failed("a", after, pause)
	if hold, _ := c.admit("a", after, probe); hold != 2*time.Minute {
		t.Fatalf("second pause %v, want 2m", hold)
	}
	if g := gauge(metrics.WebhookFailingAccounts); g != before+1 {
		t.Fatalf("failing accounts %v, want %v", g, before+1)
	}
	c.answered("a")
	if _, ok := c.admit("a", after, probe); !ok {
		t.Fatal("an account that answered still paused")
	}
	if g := gauge(metrics.WebhookFailingAccounts); g != before {
		t.Fatalf("failing accounts %v, want %v", g, before)
	}
}
