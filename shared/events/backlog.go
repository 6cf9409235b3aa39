package events

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// A receiver that answers every POST, but slower than its account's events
// come, is no failure: nothing pauses its account, and without a bound its
// account's events would pile up among those the dispatcher's consumer of
// EVENTS holds (MaxAckPending, shared by every account), until every other
// account's events waited behind them. So a dispatcher process holds at
// most AccountHeld of one account's events from EVENTS; the account's
// further events are put, in order, in its own backlog
// (bus.StreamWebhookBacklog, one subject per account) and acknowledged, and
// the account's own durable consumer of that backlog (its MaxAckPending is
// AccountHeld too) feeds them to the account's queue as its deliveries end.
// Once an account's backlog is empty its events are held as before. The
// backlog is found again by any dispatcher process that starts (sweep), so
// nothing in it waits for the process that put it there.

// backlogSweep is how often a dispatcher process looks for backlogs that
// nobody here consumes (after a start, or put there by another process)
// and stops consuming the empty ones. A variable for the tests.
var backlogSweep = 5 * time.Second

// backlogIdle is how long an account's backlog consumer outlives the last
// dispatcher that consumed it: the server then removes it.
const backlogIdle = 15 * time.Minute

// backlogs is one dispatcher process's side of the accounts' backlogs.
type backlogs struct {
	d    *Dispatcher
	q    *fairQueue
	held int
	// spills are the events on their way to their account's backlog; the
	// consumer's callback never waits for a place in it.
	spills *spillQueue
	warn   lograte.Warner

	mu      sync.Mutex
	active  map[string]jetstream.ConsumeContext
	stopped bool
}

func newBacklogs(d *Dispatcher, q *fairQueue) *backlogs {
	return &backlogs{d: d, q: q, held: d.cfg.AccountHeld, spills: newSpillQueue(spillsMax),
		active: map[string]jetstream.ConsumeContext{}}
}

// spillsMax bounds the events waiting for the spiller.
const spillsMax = 256

// spillQueue is the events waiting for the spiller, in order, at most max:
// a queue the dispatcher's keep-alive can walk, so that an event waiting
// behind slow puts is marked in progress as a held one is, and not handed
// out again (and delivered twice) when its ack wait passes.
type spillQueue struct {
	mu    sync.Mutex
	items []jetstream.Msg
	max   int
	ready chan struct{}
}

func newSpillQueue(max int) *spillQueue {
	return &spillQueue{max: max, ready: make(chan struct{}, 1)}
}

// offer adds m unless the queue is full; it never blocks.
func (s *spillQueue) offer(m jetstream.Msg) bool {
	s.mu.Lock()
	if len(s.items) >= s.max {
		s.mu.Unlock()
		return false
	}
	s.items = append(s.items, m)
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
	return true
}

// take returns the oldest event, waiting for one until done is closed;
// once it is, it returns none, so that a stop hands the events still
// waiting back (drain) instead of putting each one, which with NATS gone
// waits its whole bound.
func (s *spillQueue) take(done <-chan struct{}) (jetstream.Msg, bool) {
	for {
		select {
		case <-done:
			return nil, false
		default:
		}
		s.mu.Lock()
		if len(s.items) > 0 {
			m := s.items[0]
			s.items[0] = nil
			s.items = s.items[1:]
			s.mu.Unlock()
			return m, true
		}
		s.mu.Unlock()
		select {
		case <-s.ready:
		case <-done:
			return nil, false
		}
	}
}

// waiting returns the events waiting, oldest first.
func (s *spillQueue) waiting() []jetstream.Msg {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.items)
}

// drain empties the queue and returns what it held.
func (s *spillQueue) drain() []jetstream.Msg {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.items
	s.items = nil
	return out
}

// route queues an event of EVENTS, or hands it to the spiller when its
// account holds its share here already or has a backlog this process
// consumes (so that its events stay in order). It never blocks: with the
// spiller busy, the event is held as before.
func (b *backlogs) route(account string, m jetstream.Msg) bool {
	if b.spilling(account) && b.spills.offer(m) {
		return true
	}
	return b.q.push(account, m)
}

// routeDue queues a due delivery, or, when its account holds its share
// here already, hands it to the spiller: the deliveries of a slow account
// coming back from a pause hold no more of the places every account's
// retries share than its events do.
func (b *backlogs) routeDue(account string, m jetstream.Msg) bool {
	if b.q.length(account) >= b.held && b.spills.offer(m) {
		return true
	}
	return b.q.push(account, m)
}

func (b *backlogs) spilling(account string) bool {
	b.mu.Lock()
	_, on := b.active[account]
	b.mu.Unlock()
	return on || b.q.length(account) >= b.held
}

// spill puts the events handed to it in their accounts' backlogs until
// done is closed; then it hands back those still waiting for it.
func (b *backlogs) spill(done <-chan struct{}) {
	for {
		m, ok := b.spills.take(done)
		if !ok {
			for _, m := range b.spills.drain() {
				_ = m.Nak()
			}
			return
		}
		b.put(m)
	}
}

// put stores one event in its account's backlog, then acknowledges it
// where it came from (EVENTS, or the retries stream for a due delivery,
// whose attempts header goes with it). An event of an account without a webhook (acked unread once a
// slot takes it), or one the backlog does not take, is held as before.
func (b *backlogs) put(m jetstream.Msg) {
	account := accountOf(m.Subject())
	ctx, cancel := context.WithTimeout(context.Background(), waitStore)
	defer cancel()
	if _, ok, err := b.d.targets.Target(ctx, account); err == nil && !ok {
		b.hold(account, m)
		return
	}
	msg := nats.NewMsg(bus.WebhookBacklogSubject(account))
	msg.Data = m.Data()
	for k, vs := range m.Headers() {
		if !strings.HasPrefix(k, "Nats-") {
			msg.Header[k] = vs
		}
	}
	// A message handed out again (its acknowledgement lost) is stored
	// once: its stream and sequence are its identity.
	var opts []jetstream.PublishOpt
	if md, err := m.Metadata(); err == nil {
		opts = append(opts, jetstream.WithMsgID(md.Stream+"-"+strconv.FormatUint(md.Sequence.Stream, 10)))
	}
	if _, err := b.d.js.PublishMsg(ctx, msg, opts...); err != nil {
		b.warn.Warn(b.d.log, "backlog", "webhook event not put in its account's backlog, held instead",
			"account_id", account, "err", err)
		b.hold(account, m)
		return
	}
	metrics.WebhookBacklogged.Inc()
	b.consume(account)
	_ = m.Ack()
}

// hold queues an event the backlog did not take.
func (b *backlogs) hold(account string, m jetstream.Msg) {
	if !b.q.push(account, m) {
		_ = m.Nak()
	}
}

// consume makes sure this process consumes an account's backlog.
func (b *backlogs) consume(account string) {
	b.mu.Lock()
	_, on := b.active[account]
	stopped := b.stopped
	b.mu.Unlock()
	if on || stopped {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitStore)
	defer cancel()
	c, err := b.d.js.CreateOrUpdateConsumer(ctx, bus.StreamWebhookBacklog, jetstream.ConsumerConfig{
		Durable:           bus.WebhookBacklogConsumer(account),
		FilterSubject:     bus.WebhookBacklogSubject(account),
		AckPolicy:         jetstream.AckExplicitPolicy,
		AckWait:           b.d.ackWait(),
		MaxDeliver:        maxDeliver,
		MaxAckPending:     b.held,
		InactiveThreshold: backlogIdle,
	})
	if err != nil {
		// The next sweep tries again: the backlog keeps its events.
		b.warn.Warn(b.d.log, "backlog-consumer", "webhook backlog not consumed yet, will retry",
			"account_id", account, "err", err)
		return
	}
	cc, err := bus.ConsumeSteady(c, func(m jetstream.Msg) {
		if !b.q.push(account, m) {
			_ = m.Nak()
		}
	}, func(cc jetstream.ConsumeContext, err error) {
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			// Gone (its idle bound passed while NATS was away, or an
			// operator removed it): the next sweep makes it again.
			b.warn.Warn(b.d.log, "backlog-gone", "webhook backlog consumer gone, made again at the next sweep",
				"account_id", account, "err", err)
			go b.drop(account, cc)
			return
		}
		b.warn.Warn(b.d.log, "backlog-pull", "webhook backlog consumer trouble, pulling again", "account_id", account, "err", err)
	}, jetstream.PullMaxMessages(b.held), jetstream.PullExpiry(5*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		b.warn.Warn(b.d.log, "backlog-consumer", "webhook backlog not consumed yet, will retry",
			"account_id", account, "err", err)
		return
	}
	b.mu.Lock()
	_, on = b.active[account]
	if on || b.stopped {
		b.mu.Unlock()
		bus.StopConsuming(cc)
		return
	}
	b.active[account] = cc
	n := len(b.active)
	b.mu.Unlock()
	metrics.WebhookBacklogAccounts.Set(float64(n))
	b.d.log.Info("webhook receiver slower than its account's events, the rest wait in its backlog", "account_id", account)
}

// sweep consumes every account's backlog that holds events and nobody here
// consumes, and stops consuming the empty ones (their accounts' events are
// held as before), every backlogSweep until done is closed.
func (b *backlogs) sweep(done <-chan struct{}) {
	t := time.NewTicker(backlogSweep)
	defer t.Stop()
	for {
		b.sweepOnce()
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

func (b *backlogs) sweepOnce() {
	ctx, cancel := context.WithTimeout(context.Background(), waitStore)
	defer cancel()
	st, err := b.d.js.Stream(ctx, bus.StreamWebhookBacklog)
	if err != nil {
		b.warn.Warn(b.d.log, "backlog-sweep", "webhook backlogs not read, will retry", "err", err)
		return
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(bus.WebhookBacklogPrefix+"*"))
	if err != nil {
		b.warn.Warn(b.d.log, "backlog-sweep", "webhook backlogs not read, will retry", "err", err)
		return
	}
	waiting := map[string]bool{}
	for subject, n := range info.State.Subjects {
		if account, ok := strings.CutPrefix(subject, bus.WebhookBacklogPrefix); ok && n > 0 {
			waiting[account] = true
		}
	}
	for account := range waiting {
		// A consumer consumed here that is gone, or whose consuming ended
		// by itself, is made again: its account's events wait in the
		// backlog for it, and new ones are put there while it is active.
		b.mu.Lock()
		cc, on := b.active[account]
		b.mu.Unlock()
		if on {
			if !b.stale(ctx, st, account, cc) {
				continue
			}
			b.drop(account, cc)
		}
		b.consume(account)
	}
	// An account's backlog is empty once every event in it was ended (a
	// work queue). An event put there after the read above is found by
	// the next sweep.
	b.mu.Lock()
	var idle []jetstream.ConsumeContext
	for account, cc := range b.active {
		if !waiting[account] {
			idle = append(idle, cc)
			delete(b.active, account)
			b.d.log.Info("webhook backlog empty, the account's events are held as before", "account_id", account)
		}
	}
	n := len(b.active)
	b.mu.Unlock()
	metrics.WebhookBacklogAccounts.Set(float64(n))
	stopAll(idle)
}

// stopAll stops consuming through each of ccs at once: with NATS gone each
// waits out its bound, which one after another would add up.
func stopAll(ccs []jetstream.ConsumeContext) {
	var wg sync.WaitGroup
	for _, cc := range ccs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bus.StopConsuming(cc)
		}()
	}
	wg.Wait()
}

// stale reports whether this process's consuming of an account's backlog
// ended by itself, or its durable consumer is gone from the server.
func (b *backlogs) stale(ctx context.Context, st jetstream.Stream, account string, cc jetstream.ConsumeContext) bool {
	select {
	case <-cc.Closed():
		return true
	default:
	}
	_, err := st.Consumer(ctx, bus.WebhookBacklogConsumer(account))
	return errors.Is(err, jetstream.ErrConsumerNotFound)
}

// drop forgets this process's consuming of an account's backlog, when it
// is cc, and stops it.
func (b *backlogs) drop(account string, cc jetstream.ConsumeContext) {
	b.mu.Lock()
	if b.active[account] == cc {
		delete(b.active, account)
	}
	n := len(b.active)
	b.mu.Unlock()
	metrics.WebhookBacklogAccounts.Set(float64(n))
	cc.Stop()
}

// stop stops consuming every backlog; what the consumers handed out and
// the queue still holds goes back with the queue's events.
func (b *backlogs) stop() {
	b.mu.Lock()
	b.stopped = true
	active := b.active
	b.active = map[string]jetstream.ConsumeContext{}
	b.mu.Unlock()
	ccs := make([]jetstream.ConsumeContext, 0, len(active))
	for _, cc := range active {
		ccs = append(ccs, cc)
	}
	stopAll(ccs)
	metrics.WebhookBacklogAccounts.Set(0)
}

// isBacklog reports whether m came from an account's backlog.
func isBacklog(m jetstream.Msg) bool {
	return strings.HasPrefix(m.Subject(), bus.WebhookBacklogPrefix)
}
