package events

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// slowReceiver answers every POST 200 after delay, and counts the event ids
// it got.
type slowReceiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	delay time.Duration
	// failing answers 503 instead while set.
	failing bool
	ids     map[string]int
	posts   int
}

func newSlowReceiver(t *testing.T, delay time.Duration) *slowReceiver {
	t.Helper()
	r := &slowReceiver{delay: delay, ids: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		d := r.delay
		r.mu.Unlock()
		select {
		case <-time.After(d):
		case <-req.Context().Done():
			return
		}
		r.mu.Lock()
		if r.failing {
			r.mu.Unlock()
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		r.ids[req.Header.Get(HeaderEventID)]++
		r.posts++
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *slowReceiver) got() (distinct, posts int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ids), r.posts
}

// backlogged is how many events wait in the accounts' backlogs.
func backlogged(t *testing.T, e *env) uint64 {
	t.Helper()
	st, err := e.js.Stream(context.Background(), bus.StreamWebhookBacklog)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// TestSlowReceiverHoldsNoSharedPlace: a receiver that answers every POST,
// but slower than its account's events come, has its account's events
// beyond its share wait in the account's backlog, not among the events
// every account shares: with a bound of 20 held events, 40 events of a
// receiver taking 250 ms each (which held all 20 places, every other
// account's events then behind the other 20 for seconds) leave the other
// account's 20 delivered at once, and every event of the slow one is still
// delivered, once, in the end.
func TestSlowReceiverHoldsNoSharedPlace(t *testing.T) {
	e := newEnv(t)
	slow := newSlowReceiver(t, 250*time.Millisecond)
	fast := newReceiver(t, http.StatusNoContent)
	cfg := fastRetries
	cfg.Concurrency, cfg.PerAccount, cfg.MaxAckPending, cfg.AccountHeld = 4, 2, 20, 4
	run(t, e, cfg, targets{"acc_slow": {URL: slow.srv.URL, Secret: "s"}, "acc_fast": {URL: fast.srv.URL, Secret: "s"}})
	before := counter(metrics.WebhookBacklogged)

	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_slow", "eu-slow", 0, 40)
	poll.Until(t, 5*time.Second, "the slow account's events beyond its share in its backlog", func() bool {
		return counter(metrics.WebhookBacklogged)-before >= 30
	})
	poll.Until(t, 5*time.Second, "the events consumer holding no more than the slow account's share", func() bool {
		return ackPending(t, e) <= cfg.AccountHeld
	})
	if g := gauge(metrics.WebhookBacklogAccounts); g != 1 {
		t.Fatalf("%v accounts with a backlog consumed, want 1", g)
	}

	start := time.Now()
	confirmEach(p, "acc_fast", "eu-fast", 0, 20)
	poll.Until(t, 2*time.Second, "every event of the answering account delivered", func() bool { return len(fast.deliveries()) == 20 })
	t.Logf("20 deliveries to the answering receiver in %v beside a slow one", time.Since(start).Round(time.Millisecond))

	poll.Until(t, 20*time.Second, "every event of the slow account delivered", func() bool {
		distinct, _ := slow.got()
		return distinct == 40
	})
	if _, posts := slow.got(); posts != 40 {
		t.Fatalf("%d POSTs of 40 events to the slow receiver, want each once", posts)
	}
	for i := range 40 {
		waitRecord(t, e, "acc_slow", fmt.Sprintf("eu-slow%d.confirmed", i), OutcomeDelivered)
	}
	poll.Until(t, 5*time.Second, "the backlog emptied", func() bool { return backlogged(t, e) == 0 })
}

// TestBacklogOutlivesItsDispatcher: events waiting in an account's backlog
// when its dispatcher stops are delivered by the next one to start, which
// finds the backlog by itself, and stops consuming it once it is empty.
func TestBacklogOutlivesItsDispatcher(t *testing.T) {
	fastSweep(t)
	e := newEnv(t)
	rcv := newSlowReceiver(t, time.Second)
	cfg := fastRetries
	cfg.Concurrency, cfg.PerAccount, cfg.MaxAckPending, cfg.AccountHeld = 2, 1, 20, 2
	tg := targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}}

	d := NewDispatcher(cfg, e.js, e.b.WebhookDeliveries, tg, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_a", "eu-a", 0, 20)
	poll.Until(t, 5*time.Second, "events in the account's backlog", func() bool { return backlogged(t, e) >= 15 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dispatcher did not stop")
	}
	if n := backlogged(t, e); n < 15 {
		t.Fatalf("%d events left in the backlog by the stop, want those put there", n)
	}

	rcv.mu.Lock()
	rcv.delay = 0
	rcv.mu.Unlock()
	run(t, e, cfg, tg)
	poll.Until(t, 10*time.Second, "every event delivered by the next dispatcher", func() bool {
		distinct, _ := rcv.got()
		return distinct == 20
	})
	poll.Until(t, 5*time.Second, "the backlog emptied", func() bool { return backlogged(t, e) == 0 })
	poll.Until(t, 5*time.Second, "its consumer no longer consumed", func() bool {
		return gauge(metrics.WebhookBacklogAccounts) == 0
	})
}

// TestBacklogConsumerMadeAgain: an account's backlog consumer that goes
// away while a dispatcher consumes it (its idle bound passed while NATS
// was away, or an operator removed it) is made again by the next sweep,
// and the backlog is delivered. The dispatcher took it for consumed and
// kept putting the account's events there, undelivered until a restart.
func TestBacklogConsumerMadeAgain(t *testing.T) {
	fastSweep(t)
	e := newEnv(t)
	rcv := newSlowReceiver(t, 300*time.Millisecond)
	cfg := fastRetries
	cfg.Concurrency, cfg.PerAccount, cfg.MaxAckPending, cfg.AccountHeld = 2, 1, 20, 2
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_a", "eu-a", 0, 20)
	poll.Until(t, 5*time.Second, "events in the account's backlog", func() bool { return backlogged(t, e) >= 10 })
	if err := e.js.DeleteConsumer(context.Background(), bus.StreamWebhookBacklog, bus.WebhookBacklogConsumer("acc_a")); err != nil {
		t.Fatal(err)
	}
	rcv.mu.Lock()
	rcv.delay = 0
	rcv.mu.Unlock()
	confirmEach(p, "acc_a", "eu-a", 20, 30)
	poll.Until(t, 10*time.Second, "every event delivered after the consumer went away", func() bool {
		distinct, _ := rcv.got()
		return distinct == 30
	})
	poll.Until(t, 5*time.Second, "the backlog emptied", func() bool { return backlogged(t, e) == 0 })
}

// TestPausedSlowAccountHoldsNoSharedRetryPlace: a slow receiver with a
// backlog that fails once pauses its account, and its events are put to
// wait among the retries; when they come back, what its account holds of
// the places every account's retries share is its share, the rest put in
// its backlog again. They came back all at once and were all held there
// (a slow account with thousands in its backlog then stalled every other
// account's retries). Every event is delivered in the end.
func TestPausedSlowAccountHoldsNoSharedRetryPlace(t *testing.T) {
	fastSweep(t)
	e := newEnv(t)
	rcv := newSlowReceiver(t, 100*time.Millisecond)
	cfg := fastRetries
	cfg.BaseDelay, cfg.MaxDelay = 2*time.Second, 2*time.Second
	cfg.Concurrency, cfg.PerAccount, cfg.MaxAckPending, cfg.AccountHeld = 4, 2, 100, 4
	run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	p := NewPublisher(e.js, nil)
	confirmEach(p, "acc_a", "eu-p", 0, 60)
	poll.Until(t, 5*time.Second, "events in the account's backlog", func() bool { return backlogged(t, e) >= 40 })
	rcv.mu.Lock()
	rcv.failing = true
	rcv.mu.Unlock()
	poll.Until(t, 5*time.Second, "the account's events put to wait among the retries", func() bool { return waiting(t, e) >= 20 })
	rcv.mu.Lock()
	rcv.failing = false
	rcv.mu.Unlock()
	// What the dispatcher holds of the account, queued for its slots:
	// held there, a due delivery keeps its place among those every
	// account's retries share until the slow receiver takes it.
	most := 0.0
	poll.Until(t, 30*time.Second, "every event delivered", func() bool {
		most = max(most, gauge(metrics.WebhookQueued))
		distinct, _ := rcv.got()
		return distinct == 60
	})
	if limit := float64(2 * cfg.AccountHeld); most > limit {
		t.Fatalf("%v of the account's events queued at once, want its share (%v at most)", most, limit)
	}
	// The receiver counts an event before it answers: the dispatcher's
	// ack of the last due delivery follows the answer.
	if !poll.True(10*time.Second, func() bool {
		return consumerHeld(t, e, bus.StreamWebhookRetries, bus.WebhookDueConsumer) == 0
	}) {
		t.Fatalf("%d due deliveries still held", consumerHeld(t, e, bus.StreamWebhookRetries, bus.WebhookDueConsumer))
	}
}

// fastSweep has the dispatchers of a test sweep the backlogs every 200 ms.
func fastSweep(t *testing.T) {
	sweep := backlogSweep
	backlogSweep = 200 * time.Millisecond
	t.Cleanup(func() { backlogSweep = sweep })
}

// confirmEach emits the confirmed events of the account's orders
// <prefix><from> to <prefix><to-1>.
func confirmEach(p *Publisher, account, prefix string, from, to int) {
	for i := from; i < to; i++ {
		p.Emit(context.Background(), Confirmed, order(fmt.Sprintf("%s%d", prefix, i), account))
	}
}

// progressMsg counts the times it is marked in progress.
type progressMsg struct {
	jetstream.Msg
	n atomic.Int32
}

func (m *progressMsg) InProgress() error { m.n.Add(1); return nil }

// TestSpillWaitingKeptInProgress: an event waiting for the spiller (behind
// slow puts in the backlog) is marked in progress as a held one is, so
// that its ack wait passing does not have EVENTS hand it out again to be
// delivered twice; the queue keeps its order and its bound, one taken is
// no longer marked, and a stopping spiller takes none.
func TestSpillWaitingKeptInProgress(t *testing.T) {
	t.Parallel()
	s := newSpillQueue(2)
	a, b := &progressMsg{}, &progressMsg{}
	if !s.offer(a) || !s.offer(b) || s.offer(&progressMsg{}) {
		t.Fatal("the queue's bound of 2 not kept")
	}
	if m, ok := s.take(nil); !ok || m != a {
		t.Fatal("not the oldest first")
	}
	d := NewDispatcher(DispatcherConfig{Timeout: time.Millisecond}, nil, nil, nil, nil)
	done := make(chan struct{})
	go d.keepAlive(newFairQueue(1, 1), s, done)
	defer close(done)
	poll.Until(t, d.ackWait(), "the waiting event marked in progress", func() bool { return b.n.Load() > 0 })
	if a.n.Load() != 0 {
		t.Fatal("an event taken by the spiller marked in progress by the keep-alive")
	}
	// Stopping, the spiller takes nothing more: what waits is handed back
	// (drain), not put one after another, each waiting its whole bound
	// with NATS gone.
	stop := make(chan struct{})
	close(stop)
	if _, ok := s.take(stop); ok {
		t.Fatal("an event taken once the spiller stops")
	}
	if left := s.drain(); len(left) != 1 || left[0] != b {
		t.Fatalf("drained %v, want the waiting event", left)
	}
}
