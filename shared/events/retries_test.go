package events

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// counter reads a counter.
func counter(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
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
	return consumerHeld(t, e, bus.StreamEvents, bus.WebhookConsumer)
}

// consumerHeld is what a durable consumer holds: delivered, not yet
// acknowledged.
func consumerHeld(t *testing.T, e *env, stream, consumer string) int {
	t.Helper()
	c, err := e.js.Consumer(context.Background(), stream, consumer)
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
	heldBefore, retriesBefore := counter(metrics.WebhookHolds), counted(OutcomeRetry)
	failingBefore := gauge(metrics.WebhookFailingAccounts)

	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_dead", "eu-dead", 0, 40)
	poll.Until(t, 10*time.Second, "every event of the failing account waiting", func() bool {
		return counter(metrics.WebhookHolds)-heldBefore+counted(OutcomeRetry)-retriesBefore == 40
	})
	if n := len(dead.deliveries()); n < 1 || n > cfg.PerAccount {
		t.Fatalf("%d attempts at the failing receiver, want at most its share of %d", n, cfg.PerAccount)
	}
	poll.Until(t, 5*time.Second, "40 deliveries waiting in "+bus.StreamWebhookRetries, func() bool { return waiting(t, e) == 40 })
	poll.Until(t, 5*time.Second, "the events consumer holding nothing", func() bool { return ackPending(t, e) == 0 })
	if g := gauge(metrics.WebhookFailingAccounts) - failingBefore; g != 1 {
		t.Fatalf("%v failing accounts, want 1", g)
	}

	confirmEach(p, "acc_ok", "eu-ok", 0, 20)
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
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusBadGateway, http.StatusOK)
	failingBefore := gauge(metrics.WebhookFailingAccounts)
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
	poll.Until(t, 5*time.Second, "the account no longer failing", func() bool { return gauge(metrics.WebhookFailingAccounts) == failingBefore })
}

// TestProbeAfterThePause: the events of an account whose receiver failed
// wait for the pause, then come back; the first answered attempt ends the
// pause and every one is delivered, once.
func TestProbeAfterThePause(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusInternalServerError, http.StatusOK)
	// All ten wait in the stream before the dispatcher starts, and the
	// pause is long beside one event's handling: the events after the
	// failure meet the pause however slow the machine (with a pause of
	// milliseconds they could all come after it, as the probe).
	cfg := fastRetries
	cfg.PerAccount = 1
	cfg.BaseDelay, cfg.MaxDelay = time.Second, time.Second
	heldBefore := counter(metrics.WebhookHolds)
	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_a", "eu-p", 0, 10)
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
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
	if counter(metrics.WebhookHolds) == heldBefore {
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
	if _, ok := c.admit("a", "u1", now, probe); !ok {
		t.Fatal("an account that never failed not admitted")
	}
	before := gauge(metrics.WebhookFailingAccounts)
	c.failed("a", "u1", now, pause)
	c.failed("a", "u1", now.Add(time.Second), pause) // under way at the pause
	if hold, ok := c.admit("a", "u1", now.Add(10*time.Second), probe); ok || hold != 50*time.Second {
		t.Fatalf("during the pause: hold %v, admitted %v; want 50s", hold, ok)
	}
	if _, ok := c.admit("b", "u1", now, probe); !ok {
		t.Fatal("another account paused")
	}
	after := now.Add(time.Minute)
	if _, ok := c.admit("a", "u1", after, probe); !ok {
		t.Fatal("no probe after the pause")
	}
	if hold, ok := c.admit("a", "u1", after, probe); ok || hold != probe {
		t.Fatalf("beside the probe: hold %v, admitted %v", hold, ok)
	}
	if _, ok := c.admit("a", "u1", after.Add(probe), probe); !ok {
		t.Fatal("no probe after one that never ended")
	}
	c.release("a")
	if _, ok := c.admit("a", "u1", after, probe); !ok {
		t.Fatal("no probe after a released one")
	}
	c.failed("a", "u1", after, pause)
	if hold, _ := c.admit("a", "u1", after, probe); hold != 2*time.Minute {
		t.Fatalf("second pause %v, want 2m", hold)
	}
	if g := gauge(metrics.WebhookFailingAccounts); g != before+1 {
		t.Fatalf("failing accounts %v, want %v", g, before+1)
	}
	// Another URL for the account's webhook: its receiver has not failed.
	if _, ok := c.admit("a", "u2", after, probe); !ok {
		t.Fatal("a new webhook paused for the old one's failures")
	}
	if g := gauge(metrics.WebhookFailingAccounts); g != before {
		t.Fatalf("failing accounts %v after a new webhook, want %v", g, before)
	}
	c.failed("a", "u2", after, pause)
	if hold, _ := c.admit("a", "u2", after, probe); hold != time.Minute {
		t.Fatalf("the new webhook's first pause %v, want 1m", hold)
	}
	c.answered("a")
	if _, ok := c.admit("a", "u2", after, probe); !ok {
		t.Fatal("an account that answered still paused")
	}
	// A pause long over, with no attempt since, is forgotten.
	c.failed("a", "u2", after, pause)
	c.sweep(after.Add(time.Hour), time.Hour)
	if g := gauge(metrics.WebhookFailingAccounts); g != before+1 {
		t.Fatalf("failing accounts %v while the pause is recent, want %v", g, before+1)
	}
	c.sweep(after.Add(3*time.Hour), time.Hour)
	if g := gauge(metrics.WebhookFailingAccounts); g != before {
		t.Fatalf("failing accounts %v after the sweep, want %v", g, before)
	}
	if g := gauge(metrics.WebhookFailingAccounts); g != before {
		t.Fatalf("failing accounts %v, want %v", g, before)
	}
}

// TestRetarget: an account's state ends when its webhook is removed or
// another URL set, and stands while the webhook is the one whose receiver
// failed, or when the state is not the one looked up for (the new webhook's
// receiver failed meanwhile).
func TestRetarget(t *testing.T) {
	c := newCircuits()
	now := time.Unix(1_800_000_000, 0)
	pause := func(int) time.Duration { return time.Minute }
	before := gauge(metrics.WebhookFailingAccounts)
	paused := func() bool { _, ok := c.paused()["a"]; return ok }
	c.failed("a", "u1", now, pause)
	c.retarget("a", "u1", "u1", true)
	c.retarget("a", "u0", "u2", true)
	c.retarget("a", "u0", "", false)
	if !paused() || gauge(metrics.WebhookFailingAccounts) != before+1 {
		t.Fatal("a pause ended while its webhook stood, or by a lookup for an older one")
	}
	c.retarget("a", "u1", "u2", true)
	if paused() || gauge(metrics.WebhookFailingAccounts) != before {
		t.Fatal("a pause stood after another URL was set")
	}
	c.failed("a", "u2", now, pause)
	c.retarget("a", "u2", "", false)
	if paused() || gauge(metrics.WebhookFailingAccounts) != before {
		t.Fatal("a pause stood after its webhook was removed")
	}
}

// TestNewWebhookEndsThePause: an account whose receiver failed, paused
// for a minute, sets another webhook: its new events go to the new
// receiver at once, not after the old receiver's pause.
func TestNewWebhookEndsThePause(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dead := newReceiver(t, http.StatusServiceUnavailable)
	fixed := newReceiver(t, http.StatusNoContent)
	book := &switchable{t: Target{URL: dead.srv.URL, Secret: "s"}}
	cfg := fastRetries
	cfg.BaseDelay, cfg.MaxDelay = time.Minute, time.Minute
	run(t, e, cfg, book)
	p := NewPublisher(e.js, nil)
	p.Emit(context.Background(), Confirmed, order("eu-old", "acc_a"))
	waitRecord(t, e, "acc_a", "eu-old.confirmed", OutcomeRetry)
	book.mu.Lock()
	book.t = Target{URL: fixed.srv.URL, Secret: "s2"}
	book.mu.Unlock()
	p.Emit(context.Background(), Confirmed, order("eu-new", "acc_a"))
	rec := waitRecord(t, e, "acc_a", "eu-new.confirmed", OutcomeDelivered)
	if rec.Attempts != 1 || len(fixed.deliveries()) != 1 {
		t.Fatalf("record %+v, %d deliveries to the new receiver", rec, len(fixed.deliveries()))
	}
}

// TestChangedWebhookEndsThePauseAtOnce: an account paused for a minute
// after its receiver failed, whose webhook is then removed or replaced,
// leaves the failing accounts at once, though no event of it comes: the
// pause was the old receiver's. It stayed counted until its held event came
// due, up to the longest pause later, and the alert on the count kept
// firing for a receiver nobody sends to.
func TestChangedWebhookEndsThePauseAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(b *switchable, url string)
	}{
		{"removed", func(b *switchable, _ string) { b.removed = true }},
		{"replaced", func(b *switchable, url string) { b.t = Target{URL: url, Secret: "s2"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dead := newReceiver(t, http.StatusServiceUnavailable)
			fixed := newReceiver(t, http.StatusNoContent)
			book := &switchable{t: Target{URL: dead.srv.URL, Secret: "s"}}
			cfg := fastRetries
			cfg.BaseDelay, cfg.MaxDelay = time.Minute, time.Minute
			before := gauge(metrics.WebhookFailingAccounts)
			run(t, e, cfg, book)
			NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-old", "acc_a"))
			waitRecord(t, e, "acc_a", "eu-old.confirmed", OutcomeRetry)
			if !poll.True(5*time.Second, func() bool { return gauge(metrics.WebhookFailingAccounts) == before+1 }) {
				t.Fatalf("failing accounts %v after a failed attempt, want %v", gauge(metrics.WebhookFailingAccounts), before+1)
			}
			book.mu.Lock()
			tc.change(book, fixed.srv.URL)
			book.mu.Unlock()
			if !poll.True(10*time.Second, func() bool { return gauge(metrics.WebhookFailingAccounts) == before }) {
				t.Fatalf("failing accounts %v with the webhook %s, want %v", gauge(metrics.WebhookFailingAccounts), tc.name, before)
			}
		})
	}
}

// endedMsg is an event's message on a given delivery, noting how it was
// ended.
type endedMsg struct {
	jetstream.Msg
	data      []byte
	delivered uint64
	ended     []string
}

func (m *endedMsg) Data() []byte { return m.data }
func (m *endedMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: m.delivered}, nil
}
func (m *endedMsg) Ack() error                       { m.ended = append(m.ended, "ack"); return nil }
func (m *endedMsg) Term() error                      { m.ended = append(m.ended, "term"); return nil }
func (m *endedMsg) NakWithDelay(time.Duration) error { m.ended = append(m.ended, "nak"); return nil }
func (m *endedMsg) Headers() nats.Header             { return nil }
func (m *endedMsg) Subject() string                  { return bus.EventsSubject("acc_a", "confirmed") }
func (m *endedMsg) InProgress() error                { return nil }
func (m *endedMsg) Nak() error                       { m.ended = append(m.ended, "nak"); return nil }
func (m *endedMsg) DoubleAck(context.Context) error  { return m.Ack() }
func (m *endedMsg) TermWithReason(string) error      { return m.Term() }

// TestLastDeliveryThatCannotWait: on the last delivery the stream makes
// of a message, a retry whose wait the stream does not take cannot fall
// back to a redelivery that would never come: the event is given up, with
// its record, instead of vanishing with a record that promises a retry.
// Any earlier delivery falls back to the redelivery.
func TestLastDeliveryThatCannotWait(t *testing.T) {
	e := newEnv(t)
	if err := e.js.DeleteStream(context.Background(), bus.StreamWebhookRetries); err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(fastRetries, e.js, e.b.WebhookDeliveries, targets{}, nil)
	ev := &Event{ID: "eu-last.confirmed", OrderID: "eu-last", Type: Confirmed, AccountID: "acc_a", At: time.Now()}
	gaveUp := counted(OutcomeGaveUp)

	early := &endedMsg{data: []byte(`{}`), delivered: 3}
	d.settle(context.Background(), d.log, early, ev, 3, OutcomeRetry, 503, "HTTP 503", time.Minute)
	if len(early.ended) != 1 || early.ended[0] != "nak" {
		t.Fatalf("an earlier delivery ended %v, want a redelivery", early.ended)
	}
	waitRecord(t, e, "acc_a", ev.ID, OutcomeRetry)

	last := &endedMsg{data: []byte(`{}`), delivered: maxDeliver}
	d.settle(context.Background(), d.log, last, ev, 4, OutcomeRetry, 503, "HTTP 503", time.Minute)
	if len(last.ended) != 1 || last.ended[0] != "term" {
		t.Fatalf("the last delivery ended %v, want term", last.ended)
	}
	rec := waitRecord(t, e, "acc_a", ev.ID, OutcomeGaveUp)
	if rec.NextAt != nil || !strings.Contains(rec.Error, "could not be put to wait") {
		t.Fatalf("record %+v", rec)
	}
	if n := counted(OutcomeGaveUp) - gaveUp; n != 1 {
		t.Fatalf("gave_up counted %v times", n)
	}
}

// withoutRetries deletes the retries stream, so that no wait is taken,
// and returns a dispatcher of acc_a's webhook at rcv and next, which
// fetches one event's message and handles it as Run's slots do (the due
// consumer cannot be made without its stream, nor Run run).
func withoutRetries(t *testing.T, e *env, cfg DispatcherConfig, rcv *receiver) (*Dispatcher, func()) {
	t.Helper()
	if err := e.js.DeleteStream(context.Background(), bus.StreamWebhookRetries); err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(cfg, e.js, e.b.WebhookDeliveries, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}}, nil)
	t.Cleanup(d.failing.reset) // as Run does when it stops
	cons, err := e.js.CreateOrUpdateConsumer(context.Background(), bus.StreamEvents, jetstream.ConsumerConfig{
		Durable: bus.WebhookConsumer, FilterSubject: bus.AllEvents, AckPolicy: jetstream.AckExplicitPolicy,
		MaxDeliver: maxDeliver})
	if err != nil {
		t.Fatal(err)
	}
	return d, func() {
		t.Helper()
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for m := range batch.Messages() {
			d.handle(context.Background(), m)
		}
	}
}

// TestRefusedWaitCountsAttemptsMade: while the retries stream takes no
// wait, a failed attempt's event is handed back to EVENTS instead, and its
// next delivery counts the attempts its record holds, not the times it
// was handed out: given up after exactly MaxAttempts POSTs, with its
// record, none lost.
func TestRefusedWaitCountsAttemptsMade(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusServiceUnavailable)
	cfg := fastRetries
	cfg.MaxAttempts = 2
	_, next := withoutRetries(t, e, cfg, rcv)
	NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-refused", "acc_a"))
	next()
	next()
	rec := waitRecord(t, e, "acc_a", "eu-refused.confirmed", OutcomeGaveUp)
	if rec.Attempts != 2 || len(rcv.deliveries()) != 2 {
		t.Fatalf("record %+v after %d POSTs, want given up at the second", rec, len(rcv.deliveries()))
	}
}

// publishRepeat publishes the event of order as EmitAgain does, under a
// message id of its own: a repeat past the stream's duplicate window.
func publishRepeat(t *testing.T, e *env, typ Type, o *wire.Order) {
	t.Helper()
	p := NewPublisher(&renamedIDs{JetStream: e.js}, nil)
	if err := p.EmitAgain(context.Background(), typ, o); err != nil {
		t.Fatal(err)
	}
}

// renamedIDs publishes every message under a fresh message id.
type renamedIDs struct{ jetstream.JetStream }

func (j *renamedIDs) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	return j.JetStream.PublishMsg(ctx, m, append(opts, jetstream.WithMsgID(nats.NewInbox()))...)
}

// TestRepeatedEventPostedOnce: an event emitted again for an order final
// before (a tracker settling it again, past the stream's duplicate window)
// is not posted again when its first emission was; one whose first
// emission never reached the dispatcher is posted.
func TestRepeatedEventPostedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusNoContent)
	cfg := fastRetries
	cfg.PerAccount = 1 // one after another: the second repeat's post follows the first's handling
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-rep", "acc_a"))
	waitRecord(t, e, "acc_a", "eu-rep.confirmed", OutcomeDelivered)
	publishRepeat(t, e, Confirmed, order("eu-rep", "acc_a"))
	// The repeat of an event never posted is: it comes after the first.
	publishRepeat(t, e, Confirmed, order("eu-lost", "acc_a"))
	waitRecord(t, e, "acc_a", "eu-lost.confirmed", OutcomeDelivered)
	n := 0
	for _, d := range rcv.deliveries() {
		if d.header.Get(HeaderEventID) == "eu-rep.confirmed" {
			n++
		}
	}
	if n != 1 || len(rcv.deliveries()) != 2 {
		t.Fatalf("the delivered event posted %d times (%d posts in all), want once", n, len(rcv.deliveries()))
	}
}

// TestRepeatFromBeforeTheWebhookNotPosted: an event emitted again (a
// restarted tracker settling an order again past the stream's duplicate
// window) of an order that ended before the account's webhook was set is
// not posted to it: its first emission found no webhook, and the account
// was owed nothing. One that ended after the webhook was set, and never
// began to be delivered, is posted, with the time the order ended.
func TestRepeatFromBeforeTheWebhookNotPosted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusNoContent)
	cfg := fastRetries
	cfg.PerAccount = 1 // one after another: the second's post follows the first's handling
	set := time.Now().Add(-time.Minute).UTC()
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s", Since: set}})
	before := order("eu-before", "acc_a")
	before.UpdatedAt = set.Add(-time.Second)
	publishRepeat(t, e, Confirmed, before)
	after := order("eu-after", "acc_a")
	after.UpdatedAt = set.Add(time.Second)
	publishRepeat(t, e, Confirmed, after)
	waitRecord(t, e, "acc_a", "eu-after.confirmed", OutcomeDelivered)
	got := rcv.deliveries()
	var ids []string
	for _, d := range got {
		ids = append(ids, d.header.Get(HeaderEventID))
	}
	if len(got) != 1 || ids[0] != "eu-after.confirmed" {
		t.Fatalf("posted %q, want only the event of the order that ended after the webhook was set", ids)
	}
	var body struct {
		At time.Time `json:"at"`
	}
	if err := json.Unmarshal(got[0].body, &body); err != nil || !body.At.Equal(after.UpdatedAt) {
		t.Fatalf("posted at %v (%v), want the time the order ended, %v", body.At, err, after.UpdatedAt)
	}
	if _, err := e.b.WebhookDeliveries.Get(context.Background(), DeliveryKey("acc_a", "eu-before.confirmed")); err == nil {
		t.Fatal("the event not owed has a delivery record")
	}
}

// TestRepeatHandedBackIsDelivered: a repeat that is its event's only
// emission (the first one never reached the stream) meets a failing
// receiver while the retries stream takes no wait: handed back to EVENTS,
// its next delivery finds the record its first one wrote, which is its
// own, and is attempted, not dropped as a repeat.
func TestRepeatHandedBackIsDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusServiceUnavailable, http.StatusNoContent)
	cfg := fastRetries
	cfg.MaxAttempts = 5
	d, next := withoutRetries(t, e, cfg, rcv)
	publishRepeat(t, e, Confirmed, order("eu-only", "acc_a"))
	next()
	d.failing.reset() // past the account's pause
	next()
	rec := waitRecord(t, e, "acc_a", "eu-only.confirmed", OutcomeDelivered)
	if rec.Attempts != 2 || len(rcv.deliveries()) != 2 {
		t.Fatalf("record %+v after %d POSTs, want delivered at the second", rec, len(rcv.deliveries()))
	}
}

// TestRedeliveriesCounted: an event's message handed out again is counted
// in tradeapi_redeliveries_total under the webhooks consumer, as the
// workers' and the broadcaster's are under theirs; a first delivery is
// not.
func TestRedeliveriesCounted(t *testing.T) {
	e := newEnv(t)
	d := NewDispatcher(fastRetries, e.js, e.b.WebhookDeliveries, targets{}, nil)
	read := func() float64 {
		var m dto.Metric
		if err := metrics.Redeliveries.WithLabelValues(bus.WebhookConsumer).Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetCounter().GetValue()
	}
	before := read()
	for _, n := range []uint64{1, 2} {
		d.handle(context.Background(), &endedMsg{data: []byte(`{}`), delivered: n})
	}
	if got := read() - before; got != 1 {
		t.Fatalf("redeliveries counted %v, want 1", got)
	}
}

// capturedPublish keeps what is published.
type capturedPublish struct {
	jetstream.JetStream
	data [][]byte
}

func (j *capturedPublish) PublishMsg(_ context.Context, m *nats.Msg, _ ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	j.data = append(j.data, m.Data)
	return &jetstream.PubAck{}, nil
}

// TestRepeatIsOfWhenTheOrderEnded: an event emitted again is of when its
// order ended, not of its record's last write, which a buy's positions
// move after it ended (a webhook set in between would get the repeat).
func TestRepeatIsOfWhenTheOrderEnded(t *testing.T) {
	t.Parallel()
	js := &capturedPublish{}
	p := NewPublisher(js, nil)
	ended := time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC)
	o := order("eu-ended", "acc_a")
	o.EndedAt, o.UpdatedAt = &ended, ended.Add(time.Minute)
	if err := p.EmitAgain(context.Background(), Confirmed, o); err != nil {
		t.Fatal(err)
	}
	var e Event
	if len(js.data) != 1 || json.Unmarshal(js.data[0], &e) != nil || !e.At.Equal(ended) {
		t.Fatalf("the repeat is of %v, want %v, when the order ended", e.At, ended)
	}
}
