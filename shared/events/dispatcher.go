package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// Webhook request headers.
const (
	// HeaderEvent carries the event type.
	HeaderEvent = "X-Tradeapi-Event"
	// HeaderEventID carries the event id, to drop repeats without parsing.
	HeaderEventID = "X-Tradeapi-Event-Id"
	// HeaderSignature carries SignatureHeader: the attempt's time and the
	// HMAC of that time and the body.
	HeaderSignature = "X-Tradeapi-Signature"
	// HeaderTimestamp carries the attempt's time in Unix seconds, the t of
	// HeaderSignature (informational: only the signed t counts).
	HeaderTimestamp = "X-Tradeapi-Timestamp"
)

// Delivery outcomes, the values of the outcome label of
// metrics.WebhookDeliveries and of Delivery.Outcome.
const (
	// OutcomeDelivered: the receiver answered 2xx.
	OutcomeDelivered = metrics.WebhookDelivered
	// OutcomeRetry: the attempt failed (connection error, timeout, 408,
	// 429, 5xx) and the event will be sent again.
	OutcomeRetry = metrics.WebhookRetry
	// OutcomeRejected: the receiver answered a 3xx or a 4xx other than 408
	// and 429, or the target is not allowed; not sent again.
	OutcomeRejected = metrics.WebhookRejected
	// OutcomeGaveUp: the attempts or the event's age ran out.
	OutcomeGaveUp = metrics.WebhookGaveUp
	// OutcomeDropped: the account's webhook was removed while the event
	// waited for another attempt.
	OutcomeDropped = metrics.WebhookDropped
)

// maxResponseBody is how much of a receiver's answer is read (and dropped)
// so that the connection can be reused.
const maxResponseBody = 64 << 10

// DispatcherConfig configures the webhook dispatcher. Zero values take the
// defaults given.
type DispatcherConfig struct {
	// Concurrency is how many deliveries run at once (32), shared by every
	// account in turn.
	Concurrency int
	// PerAccount is how many of one account's deliveries run at once (4,
	// at most Concurrency): the most slots a receiver that hangs can hold.
	PerAccount int
	// Timeout bounds one POST, from connecting to the answer's headers (5 s).
	Timeout time.Duration
	// MaxAttempts bounds the attempts per event (15).
	MaxAttempts int
	// MaxAge: an event older than this is not sent again (6 h). It must stay
	// below the EVENTS stream's retention of a day.
	MaxAge time.Duration
	// BaseDelay is the pause before the first retry (1 s); each retry
	// doubles it, up to MaxDelay (15 min). A Retry-After answer longer
	// than that pause lengthens it, up to MaxDelay too; a shorter one
	// never shortens it.
	BaseDelay, MaxDelay time.Duration
	// MaxAckPending bounds the events held at once, queued or in flight
	// (10000), shared by every account; the JetStream collector reports the
	// consumer's count and this bound. Retries, and the events of an
	// account whose receiver is failing, wait in bus.StreamWebhookRetries
	// instead (its due deliveries' consumer has the same bound).
	MaxAckPending int
	// AccountHeld bounds the events of one account a dispatcher process
	// holds from EVENTS, queued or being posted (MaxAckPending/100, at
	// least 4×PerAccount): beyond it, a receiver slower than its account's
	// events has them wait in the account's backlog (backlog.go), so that
	// it never fills the place every account shares.
	AccountHeld int
	// AllowLocal lets webhooks reach loopback and link-local addresses: the
	// local development mode only.
	AllowLocal bool
}

func (c *DispatcherConfig) defaults() {
	if c.Concurrency < 1 {
		c.Concurrency = 32
	}
	if c.PerAccount < 1 {
		c.PerAccount = 4
	}
	c.PerAccount = min(c.PerAccount, c.Concurrency)
	if c.Timeout <= 0 {
		c.Timeout = 5 * time.Second
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 15
	}
	if c.MaxAge <= 0 {
		c.MaxAge = 6 * time.Hour
	}
	if c.BaseDelay <= 0 {
		c.BaseDelay = time.Second
	}
	if c.MaxDelay <= 0 {
		c.MaxDelay = 15 * time.Minute
	}
	if c.MaxAckPending < 1 {
		c.MaxAckPending = 10000
	}
	if c.AccountHeld < 1 {
		c.AccountHeld = max(c.MaxAckPending/100, 4*c.PerAccount)
	}
}

// Delivery is the record of an event's last delivery attempt, kept in
// bus.BucketWebhookDeliveries under DeliveryKey for seven days.
type Delivery struct {
	EventID  string    `json:"event_id"`
	OrderID  string    `json:"order_id"`
	Type     Type      `json:"type"`
	Attempts int       `json:"attempts"`
	Outcome  string    `json:"outcome"`
	Status   int       `json:"status,omitempty"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at"`
	// NextAt is when the next attempt is due, while Outcome is retry.
	NextAt *time.Time `json:"next_at,omitempty"`
}

// DeliveryKey is the key of an event's delivery record.
func DeliveryKey(accountID, eventID string) string { return accountID + "." + eventID }

// Dispatcher delivers the EVENTS stream to the accounts' webhooks. It runs
// beside the pipeline, on its own consumer: a slow or dead receiver delays
// only webhook deliveries, never an order. Among the accounts it is fair:
// each account's events wait in a queue of their own, the delivery slots
// serve the accounts in turn, and one account has at most PerAccount
// deliveries under way, so a receiver that hangs delays its own account's
// events only. A retry waits as a message the server schedules, and an
// account whose receiver failed has its other events wait so, unattempted,
// until one attempt after the pause finds the receiver answering
// (retries.go): a receiver down for hours holds no place among the events
// every account shares.
type Dispatcher struct {
	cfg     DispatcherConfig
	js      jetstream.JetStream
	records jetstream.KeyValue
	targets Targets
	hc      *http.Client
	log     *slog.Logger
	now     func() time.Time
	// failing pauses the accounts whose receivers fail.
	failing *circuits
}

// NewDispatcher returns a dispatcher reading the stream through js, finding
// webhooks through targets and recording attempts in records (the
// bus.BucketWebhookDeliveries bucket; nil records nothing).
func NewDispatcher(cfg DispatcherConfig, js jetstream.JetStream, records jetstream.KeyValue, targets Targets, log *slog.Logger) *Dispatcher {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	tr := &http.Transport{
		// No proxy: the address checks below apply to the receiver itself.
		Proxy: nil,
		DialContext: (&net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second,
			Control: dialControl(cfg.AllowLocal)}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   cfg.PerAccount,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		ForceAttemptHTTP2:     true,
	}
	hc := &http.Client{Transport: tr, Timeout: cfg.Timeout,
		// A redirect is answered as it is (a rejection), never followed.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Dispatcher{cfg: cfg, js: js, records: records, targets: targets, hc: hc,
		log: log.With("component", "webhooks"), now: time.Now, failing: newCircuits()}
}

// ackWait is how long the stream waits for an event's end before it hands
// the event to another dispatcher: a little over one POST. Events held
// longer (queued behind their account's share, or a slow POST) are marked
// in progress meanwhile, so only a dispatcher that died loses its events.
func (d *Dispatcher) ackWait() time.Duration { return d.cfg.Timeout + 10*time.Second }

// Run delivers until ctx ends. Deliveries in flight then are cancelled and
// handed back to the stream with the events still queued, to be sent again
// on the next start.
func (d *Dispatcher) Run(ctx context.Context) error {
	for _, c := range []string{bus.WebhookConsumer, bus.WebhookDueConsumer, bus.WebhookBacklogConsumers} {
		metrics.Redeliveries.WithLabelValues(c).Add(0)
	}
	// The events, and the deliveries whose wait has ended, come through a
	// consumer each, into the same queue.
	consumer := func(stream, durable, filter string) (jetstream.Consumer, error) {
		return d.js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
			Durable:       durable,
			FilterSubject: filter,
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       d.ackWait(),
			MaxDeliver:    maxDeliver,
			MaxAckPending: d.cfg.MaxAckPending,
		})
	}
	cons, err := consumer(bus.StreamEvents, bus.WebhookConsumer, bus.AllEvents)
	if err != nil {
		return fmt.Errorf("webhooks: consumer: %w", err)
	}
	dueCons, err := consumer(bus.StreamWebhookRetries, bus.WebhookDueConsumer, bus.AllWebhookDue)
	if err != nil {
		return fmt.Errorf("webhooks: retries consumer: %w", err)
	}
	posts, stopPosts := context.WithCancel(context.Background())
	defer stopPosts()
	q := newFairQueue(d.cfg.Concurrency, d.cfg.PerAccount)
	var slots sync.WaitGroup
	for range d.cfg.Concurrency {
		slots.Add(1)
		go func() {
			defer slots.Done()
			d.serve(posts, q)
		}()
	}
	keepDone := make(chan struct{})
	bl := newBacklogs(d, q)
	go d.keepAlive(q, bl.spills, keepDone)
	go d.retarget(keepDone)
	blDone := make(chan struct{})
	var blRunning sync.WaitGroup
	blRunning.Add(2)
	go func() { defer blRunning.Done(); bl.spill(blDone) }()
	go func() { defer blRunning.Done(); bl.sweep(blDone) }()
	stopBacklogs := func() {
		close(blDone)
		blRunning.Wait()
		bl.stop()
	}
	// The callback only queues: it never waits for a slot, so events of
	// every account keep arriving while one account's receiver hangs. The
	// consumer's MaxAckPending bounds what is held, and an account's share
	// of it is bounded by its backlog (backlog.go).
	consume := func(c jetstream.Consumer, route func(account string, m jetstream.Msg) bool) (jetstream.ConsumeContext, error) {
		return bus.ConsumeSteady(c, func(m jetstream.Msg) {
			if !route(accountOf(m.Subject()), m) {
				_ = m.Nak()
			}
		}, func(_ jetstream.ConsumeContext, err error) {
			d.log.Warn("consumer trouble, pulling again", "consumer", c.CachedInfo().Name, "err", err)
		}, jetstream.PullMaxMessages(2*d.cfg.Concurrency), jetstream.PullExpiry(5*time.Second),
			jetstream.PullHeartbeat(time.Second))
	}
	cc, err := consume(cons, bl.route)
	if err != nil {
		stopBacklogs()
		d.stop(q, &slots, stopPosts, keepDone)
		return fmt.Errorf("webhooks: consume: %w", err)
	}
	dueCC, err := consume(dueCons, bl.routeDue)
	if err != nil {
		bus.StopConsuming(cc)
		stopBacklogs()
		d.stop(q, &slots, stopPosts, keepDone)
		return fmt.Errorf("webhooks: consume retries: %w", err)
	}
	d.log.Info("webhook dispatcher started", "concurrency", d.cfg.Concurrency, "per_account", d.cfg.PerAccount,
		"account_held", d.cfg.AccountHeld)
	<-ctx.Done()
	bus.StopConsuming(cc)
	bus.StopConsuming(dueCC)
	stopBacklogs()
	d.stop(q, &slots, stopPosts, keepDone)
	d.hc.CloseIdleConnections()
	d.log.Info("webhook dispatcher stopped")
	return nil
}

// stop hands the queued events back to the stream, cancels the POSTs under
// way and waits for their slots.
func (d *Dispatcher) stop(q *fairQueue, slots *sync.WaitGroup, stopPosts func(), keepDone chan struct{}) {
	for _, m := range q.close() {
		_ = m.Nak()
	}
	stopPosts()
	slots.Wait()
	close(keepDone)
	metrics.WebhookInFlight.Set(0)
	d.failing.reset()
}

// serve is one delivery slot: it delivers the next event of the accounts'
// turn until the queue closes.
func (d *Dispatcher) serve(ctx context.Context, q *fairQueue) {
	for {
		account, m, ok := q.next()
		if !ok {
			return
		}
		metrics.WebhookInFlight.Inc()
		bus.HandleSafely(bus.WebhookConsumer, func(m jetstream.Msg) { d.handle(ctx, m) }, m, d.log)
		metrics.WebhookInFlight.Dec()
		q.done(account, m)
	}
}

// keepAlive marks every held event, and every one waiting for the
// spiller, in progress a few times per ack wait, and forgets the pauses
// long over, until done is closed.
func (d *Dispatcher) keepAlive(q *fairQueue, spills *spillQueue, done <-chan struct{}) {
	t := time.NewTicker(d.ackWait() / 3)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			for _, m := range q.held() {
				_ = m.InProgress()
			}
			for _, m := range spills.waiting() {
				_ = m.InProgress()
			}
			d.failing.sweep(d.now(), d.cfg.MaxDelay)
		}
	}
}

// retargetEvery is how often the dispatcher looks up the webhooks of the
// accounts it holds paused.
const retargetEvery = time.Second

// retarget ends, within retargetEvery, the pause of an account whose
// webhook was removed or replaced since its receiver failed, until done is
// closed: the pause, and the account's place among the failing accounts,
// were the old receiver's. An event of the account ends it as it comes;
// without one, it stood until the account's next held event came due, up
// to MaxDelay later. A lookup that fails leaves the pauses as they are
// until the next round (the book not loaded yet fails every lookup: the
// round ends there).
func (d *Dispatcher) retarget(done <-chan struct{}) {
	t := time.NewTicker(retargetEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		for account, url := range d.failing.paused() {
			ctx, cancel := context.WithTimeout(context.Background(), retargetEvery)
			tg, ok, err := d.targets.Target(ctx, account)
			cancel()
			if err != nil {
				break
			}
			d.failing.retarget(account, url, tg.URL, ok)
		}
	}
}

// droppedUnsent counts, logs and records an event handed out again for an
// account whose webhook is gone, when an attempt to deliver it was made:
// the webhook was removed while the event waited for its next attempt. Its
// record, which said retry with a next attempt due, then says dropped, so
// that nobody waits for that attempt. An event handed back for another
// reason (a lookup that failed, a stopping dispatcher) was never
// attempted, and is not counted.
func (d *Dispatcher) droppedUnsent(ctx context.Context, account string, m jetstream.Msg) {
	var e Event
	if d.records == nil || json.Unmarshal(m.Data(), &e) != nil || e.ID == "" {
		return
	}
	en, err := d.records.Get(ctx, DeliveryKey(account, e.ID))
	var rec Delivery
	if err != nil || json.Unmarshal(en.Value(), &rec) != nil || rec.Outcome != OutcomeRetry {
		return // never attempted, or settled before (an ack lost)
	}
	metrics.WebhookDeliveries.WithLabelValues(OutcomeDropped).Inc()
	log := d.log.With("account_id", account, "order_id", e.OrderID, "event_id", e.ID, "event", e.Type)
	log.Info("webhook removed before the event was delivered, event dropped", "attempts", rec.Attempts)
	// The attempts made and the last one's answer stay; the outcome and
	// the time are the drop's.
	rec.EventID, rec.Outcome, rec.At, rec.NextAt = e.ID, OutcomeDropped, d.now().UTC(), nil
	rec.Error = "the webhook was removed before the next attempt"
	d.record(log, account, &rec)
}

// handle delivers one event and ends its message with exactly one of Ack,
// NakWithDelay, Nak or Term.
func (d *Dispatcher) handle(ctx context.Context, m jetstream.Msg) {
	consumer := bus.WebhookConsumer
	switch {
	case isDue(m):
		consumer = bus.WebhookDueConsumer
	case isBacklog(m):
		consumer = bus.WebhookBacklogConsumers
	}
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
		metrics.Redeliveries.WithLabelValues(consumer).Inc()
	}
	// The account is in the subject: the event of an account without a
	// webhook, most of them, is acked without being decoded.
	account := accountOf(m.Subject())
	if account == "" {
		d.log.Error("event on a subject without an account dropped", "subject", m.Subject())
		metrics.MessagesDropped.WithLabelValues(consumer, metrics.MessageMisaddressed).Inc()
		_ = m.Term()
		return
	}
	t, ok, err := d.targets.Target(ctx, account)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Warn("webhook lookup failed, will retry", "subject", m.Subject(), "err", err)
		}
		_ = m.NakWithDelay(d.cfg.BaseDelay)
		return
	}
	if !ok {
		// An event's own message handed out again, any due delivery, or
		// one from the account's backlog (where a due delivery goes while
		// the account holds its share, its wait's subject left behind),
		// may have been attempted or held: its record says so.
		if md, err := m.Metadata(); isDue(m) || isBacklog(m) || attemptsBefore(m) > 0 || (err == nil && md.NumDelivered > 1) {
			d.droppedUnsent(ctx, account, m)
		}
		d.failing.forget(account)
		_ = m.Ack()
		return
	}
	var e Event
	if err := json.Unmarshal(m.Data(), &e); err != nil || e.ID == "" {
		d.log.Error("undecodable event dropped", "subject", m.Subject(), "err", err)
		metrics.MessagesDropped.WithLabelValues(consumer, metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return
	}
	if e.AccountID != account {
		d.log.Error("event of another account than its subject's dropped", "subject", m.Subject(),
			"event_id", e.ID, "account_id", e.AccountID)
		metrics.MessagesDropped.WithLabelValues(consumer, metrics.MessageMisaddressed).Inc()
		_ = m.Term()
		return
	}
	log := d.log.With("account_id", account, "order_id", e.OrderID, "event_id", e.ID, "event", e.Type)
	if m.Headers().Get(bus.HeaderRepeat) != "" && !isDue(m) && d.deliveredBefore(ctx, m, account, e.ID) {
		// Emitted again for an order final before (after the stream's
		// duplicate window), and delivered, or waiting for its retry,
		// from its first emission.
		log.Debug("event emitted again after its delivery began, dropped")
		_ = m.Ack()
		return
	}
	if m.Headers().Get(bus.HeaderRepeat) != "" && !isDue(m) && e.At.Before(t.Since) {
		// Emitted again, never begun to be delivered, and older than the
		// account's webhook: at its first emission the account had none
		// (it was acked unread), so it is not owed to the webhook set
		// since.
		log.Info("event emitted again from before the account's webhook was set, not posted",
			"event_at", e.At, "webhook_since", t.Since)
		_ = m.Ack()
		return
	}
	// This attempt follows those a due delivery's wait counts (none for an
	// event's own message): how often the message was handed out says
	// nothing of attempts. A message handed out again (its wait refused by
	// the retries stream, a dispatcher stopped or killed) may follow an
	// attempt its wait never carried: the event's record counts it.
	attempt := attemptsBefore(m) + 1
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
		attempt = max(attempt, d.recordedAttempts(ctx, account, e.ID)+1)
	}
	age := d.now().Sub(e.At)
	if age > d.cfg.MaxAge {
		d.settle(ctx, log, m, &e, attempt-1, OutcomeGaveUp, 0, "the event is older than the delivery age bound", 0)
		return
	}
	if ctx.Err() != nil {
		_ = m.Nak()
		return
	}
	if hold, ok := d.failing.admit(account, t.URL, d.now(), d.cfg.Timeout+time.Second); !ok {
		if age+hold > d.cfg.MaxAge {
			d.settle(ctx, log, m, &e, attempt-1, OutcomeGaveUp, 0,
				"the webhook kept failing until the event was older than the delivery age bound", 0)
			return
		}
		d.hold(ctx, log, m, &e, attempt-1, hold)
		return
	}
	status, retryAfter, err := d.post(ctx, &e, t)
	if ctx.Err() != nil {
		// Stopping: the event goes back to the stream for the next start.
		d.failing.release(account)
		_ = m.Nak()
		return
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if status < 200 || status > 299 {
		msg = "HTTP " + strconv.Itoa(status)
	}
	switch {
	case err == nil && status >= 200 && status <= 299:
		d.failing.answered(account)
		d.settle(ctx, log, m, &e, attempt, OutcomeDelivered, status, "", 0)
	case errors.Is(err, ErrTargetRefused):
		// Refused here, never sent: nothing learnt of the receiver.
		d.failing.release(account)
		d.settle(ctx, log, m, &e, attempt, OutcomeRejected, status, msg, 0)
	case err == nil && !retryable(status):
		d.failing.answered(account)
		d.settle(ctx, log, m, &e, attempt, OutcomeRejected, status, msg, 0)
	default:
		d.failing.failed(account, t.URL, d.now(), func(failures int) time.Duration { return d.retryDelay(failures, retryAfter) })
		delay := d.retryDelay(attempt, retryAfter)
		if attempt >= d.cfg.MaxAttempts || age+delay > d.cfg.MaxAge {
			d.settle(ctx, log, m, &e, attempt, OutcomeGaveUp, status, msg, 0)
			return
		}
		d.settle(ctx, log, m, &e, attempt, OutcomeRetry, status, msg, delay)
	}
}

// retryable reports whether an answer's status invites another attempt.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// backoff is the pause after a failed attempt: BaseDelay doubled per
// attempt up to MaxDelay, between half and all of it at random so that
// receivers coming back are not hit by every retry at once.
func (d *Dispatcher) backoff(attempt int) time.Duration {
	full := d.cfg.MaxDelay
	if shift := attempt - 1; shift < 30 {
		full = min(d.cfg.BaseDelay<<shift, d.cfg.MaxDelay)
	}
	half := full / 2
	return half + rand.N(half+1)
}

// retryDelay is the pause after a failed attempt that answered
// retryAfter (0 without a Retry-After): the longer of it and the attempt's
// backoff, at most MaxDelay. A receiver asking for a second or two must
// not use up every attempt within a minute, where the backoff spreads
// them over about an hour.
func (d *Dispatcher) retryDelay(attempt int, retryAfter time.Duration) time.Duration {
	return min(max(retryAfter, d.backoff(attempt)), d.cfg.MaxDelay)
}

// settle ends the message by the outcome, counts it, logs it and records
// it. delay is the pause before the next attempt of a retry.
func (d *Dispatcher) settle(ctx context.Context, log *slog.Logger, m jetstream.Msg, e *Event, attempt int, outcome string, status int, reason string, delay time.Duration) {
	if outcome == OutcomeRetry {
		if err := d.wait(ctx, log, m, e.AccountID, e.ID, attempt, delay); err != nil {
			outcome, reason = OutcomeGaveUp, reason+"; "+err.Error()
		}
	}
	metrics.WebhookDeliveries.WithLabelValues(outcome).Inc()
	now := d.now().UTC()
	rec := Delivery{EventID: e.ID, OrderID: e.OrderID, Type: e.Type, Attempts: attempt, Outcome: outcome,
		Status: status, Error: reason, At: now}
	attrs := []any{"attempt", attempt, "status", status}
	if reason != "" {
		attrs = append(attrs, "reason", reason)
	}
	switch outcome {
	case OutcomeDelivered:
		log.Debug("webhook delivered", attrs...)
		_ = m.Ack()
	case OutcomeRetry:
		next := now.Add(delay)
		rec.NextAt = &next
		log.Info("webhook attempt failed, will retry", append(attrs, "in", delay.Round(time.Millisecond).String())...)
	default:
		log.Warn("webhook not delivered", append(attrs, "outcome", outcome)...)
		_ = m.Term()
	}
	d.record(log, e.AccountID, &rec)
}

// deliveredBefore reports whether the delivery of a repeat's event (m)
// began from another emission: on m's first delivery, any record of the
// event says so (attempted, held, given up); on a later one the record
// may be m's own (a retry whose wait the retries stream refused, handed
// back to EVENTS instead), so only an ended delivery says so. A read that
// fails says no: an event posted twice is better than one never posted.
func (d *Dispatcher) deliveredBefore(ctx context.Context, m jetstream.Msg, account, eventID string) bool {
	if d.records == nil {
		return false
	}
	en, err := d.records.Get(ctx, DeliveryKey(account, eventID))
	if err != nil {
		return false
	}
	if md, err := m.Metadata(); err == nil && md.NumDelivered <= 1 {
		return true
	}
	var rec Delivery
	return json.Unmarshal(en.Value(), &rec) == nil && rec.Outcome != OutcomeRetry
}

// recordedAttempts is the attempts the event's record counts; 0 when
// there is none or it cannot be read.
func (d *Dispatcher) recordedAttempts(ctx context.Context, account, eventID string) int {
	if d.records == nil {
		return 0
	}
	en, err := d.records.Get(ctx, DeliveryKey(account, eventID))
	if err != nil {
		return 0
	}
	var rec Delivery
	if json.Unmarshal(en.Value(), &rec) != nil {
		return 0
	}
	return rec.Attempts
}

// record keeps the attempt in the deliveries bucket under the account's
// key. A failure is logged: the record is for people, the stream keeps the
// delivery state.
func (d *Dispatcher) record(log *slog.Logger, account string, rec *Delivery) {
	if d.records == nil {
		return
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := d.records.Put(ctx, DeliveryKey(account, rec.EventID), data); err != nil {
		log.Warn("record webhook delivery", "err", err)
	}
}

// post sends one attempt. err is a connection error, a timeout or a refused
// target, never one that names the URL: its path or query may hold a token.
func (d *Dispatcher) post(ctx context.Context, e *Event, t Target) (status int, retryAfter time.Duration, err error) {
	u, err := CheckURL(t.URL, d.cfg.AllowLocal)
	if err != nil {
		return 0, 0, err
	}
	body, err := e.WebhookBody()
	if err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, 0, fmt.Errorf("%w: the url cannot be requested", ErrTargetRefused)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "tradeapi-webhooks/1")
	req.Header.Set(HeaderEvent, string(e.Type))
	req.Header.Set(HeaderEventID, e.ID)
	// Each attempt is signed at its own time, so a receiver can refuse a
	// captured request replayed later.
	at := d.now()
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	req.Header.Set(HeaderSignature, SignatureHeader(t.Secret, at, body))
	start := time.Now()
	resp, err := d.hc.Do(req)
	defer func() { metrics.WebhookDuration.Observe(time.Since(start).Seconds()) }()
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, 0, fmt.Errorf("post to %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBody))
	return resp.StatusCode, parseRetryAfter(resp.Header.Get("Retry-After"), d.now()), nil
}

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, 86400)) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}
