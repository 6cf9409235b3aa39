package events

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// A delivery that must wait for its next attempt, or an event of an
// account whose receiver is failing (a hold), waits as a message the server
// schedules in bus.StreamWebhookRetries, and the message it came in is
// acknowledged: a receiver that stays down for hours then holds no place
// among the events every account's deliveries share (the consumers'
// MaxAckPending), however many of its account's events wait. The wait
// carries the attempts made (bus.HeaderAttempts), so that an attempt is
// counted by what was attempted, never by how often a message was handed
// out (a dispatcher stopped, or a wait the stream did not take, hands it
// out again without an attempt; the event's record then counts the
// attempts). The server's schedules run on a clock of
// whole seconds: a wait of half a second lasts one to two.

// maxDeliver is how often the stream hands out one message: far more than
// attempts or holds ever take (they wait in the retries stream, each as a
// new message), so that only a message handed back again and again (a
// handler that fails on it, a retries stream that refuses every wait)
// reaches it, and its last delivery gives the event up with its record
// rather than let the stream drop it unsaid.
const maxDeliver = 1000

// retryKey names an event's wait and due subjects: a digest of the event
// id, which may hold characters a subject token may not.
func retryKey(eventID string) string {
	sum := sha256.Sum256([]byte(eventID))
	return hex.EncodeToString(sum[:16])
}

// attemptsBefore is how many attempts a due delivery's wait says were made
// before it; 0 for an event's own message.
func attemptsBefore(m jetstream.Msg) int {
	h := m.Headers()
	if h == nil {
		return 0
	}
	n, err := strconv.Atoi(h.Get(bus.HeaderAttempts))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// isDue reports whether m is a delivery its wait made due, rather than an
// event of the EVENTS stream.
func isDue(m jetstream.Msg) bool {
	_, ok := cutDue(m.Subject())
	return ok
}

// wait ends m so that its event is attempted again after delay, attempts
// having been made: a scheduled wait, stored before m is acknowledged (a
// crash between the two leaves both, and the event is attempted once more
// than it had to be; the receiver drops the repeat by its id). The wait is
// stored even when the dispatcher is stopping, and tried again for a few
// seconds while the stream fails over. One the stream does not take falls
// back to m's redelivery, which counts no attempt; only on m's last
// delivery (maxDeliver) must the wait be stored, and an error says it was
// not: the caller then gives the event up, with its record.
func (d *Dispatcher) wait(ctx context.Context, log *slog.Logger, m jetstream.Msg, account, eventID string, attempts int, delay time.Duration) error {
	key := retryKey(eventID)
	msg := nats.NewMsg(bus.WebhookWaitSubject(account, key))
	msg.Data = m.Data()
	// Whole seconds, rounded up: the wait never ends before its time.
	at := d.now().Add(delay).UTC().Truncate(time.Second).Add(time.Second)
	msg.Header.Set("Nats-Schedule", "@at "+at.Format(time.RFC3339))
	msg.Header.Set("Nats-Schedule-Target", bus.WebhookDueSubject(account, key))
	msg.Header.Set(bus.HeaderAttempts, strconv.Itoa(attempts))
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), waitStore)
	defer cancel()
	var err error
	for {
		if _, err = d.js.PublishMsg(pctx, msg); err == nil {
			_ = m.Ack()
			return nil
		}
		select {
		case <-pctx.Done():
		case <-time.After(250 * time.Millisecond):
			continue
		}
		break
	}
	if md, merr := m.Metadata(); merr == nil && md.NumDelivered >= maxDeliver {
		return fmt.Errorf("its retry could not be put to wait (%v), and its message was handed out %d times, the most the stream does", err, maxDeliver)
	}
	log.Warn("webhook retry not put to wait in its stream, handed back to it instead", "err", err)
	_ = m.NakWithDelay(max(delay, time.Second))
	return nil
}

// waitStore bounds the storing of one wait, through a stream's fail-over.
const waitStore = 2 * time.Second

// circuits is, per account, whether its receiver is failing: after a
// failed attempt (no connection, a timeout, 408, 429, 5xx) the account's
// other events are not attempted until its pause ends, each put to wait
// instead, and then one attempt probes the receiver while the others wait
// a little longer. A receiver that hangs thus costs one POST per pause,
// not one per event: its account's events do not pile up, holding delivery
// slots and places every account shares. Any answer that is not a failure
// (2xx, or a refusal) ends the pause, and so does a new URL for the
// account's webhook, or its removal: the pause was its receiver's. Each
// dispatcher process keeps its own.
type circuits struct {
	mu       sync.Mutex
	accounts map[string]*circuit
}

type circuit struct {
	// url is the webhook whose receiver failed.
	url string
	// failures counts the attempts failed in a row; until ends the pause.
	failures int
	until    time.Time
	// probing: the attempt after the pause is under way, since probeAt.
	probing bool
	probeAt time.Time
}

func newCircuits() *circuits { return &circuits{accounts: map[string]*circuit{}} }

// admit says whether an event of account may be attempted now; when not,
// hold is how long it waits before it is offered again. probeWait bounds a
// probe (one POST, and a little more): one started longer ago than that
// ended without a word (its handler failed) and another may start.
func (c *circuits) admit(account, url string, now time.Time, probeWait time.Duration) (hold time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.of(account, url)
	switch {
	case s == nil:
		return 0, true
	case now.Before(s.until):
		return s.until.Sub(now), false
	case s.probing && now.Sub(s.probeAt) < probeWait:
		return probeWait, false
	default:
		s.probing, s.probeAt = true, now
		return 0, true
	}
}

// failed notes a failed attempt at url: the account pauses for pause.
func (c *circuits) failed(account, url string, now time.Time, pause func(failures int) time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.of(account, url)
	if s == nil {
		s = &circuit{url: url}
		c.accounts[account] = s
		metrics.WebhookFailingAccounts.Inc()
	}
	s.probing = false
	if now.Before(s.until) {
		// One of the attempts under way when the pause began: the pause
		// stands, and the round of failures it counts is the same.
		return
	}
	s.failures++
	s.until = now.Add(pause(s.failures))
}

// release ends a probe that made no attempt (the dispatcher stopping): the
// next event of the account probes instead.
func (c *circuits) release(account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.accounts[account]; s != nil {
		s.probing = false
	}
}

// answered notes a receiver that answered: its account's pause ends.
func (c *circuits) answered(account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(account)
}

// of is the account's state for its webhook at url; nil when it has none.
// A state of another URL is dropped: the new webhook's receiver has not
// failed. c.mu is held.
func (c *circuits) of(account, url string) *circuit {
	s := c.accounts[account]
	if s != nil && s.url != url {
		c.drop(account)
		return nil
	}
	return s
}

// drop ends an account's pause; c.mu is held.
func (c *circuits) drop(account string) {
	if _, ok := c.accounts[account]; ok {
		delete(c.accounts, account)
		metrics.WebhookFailingAccounts.Dec()
	}
}

// forget drops an account's state: its webhook is gone.
func (c *circuits) forget(account string) { c.answered(account) }

// paused returns the accounts with a state, each with the URL whose
// receiver failed.
func (c *circuits) paused() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	urls := make(map[string]string, len(c.accounts))
	for account, s := range c.accounts {
		urls[account] = s.url
	}
	return urls
}

// retarget ends the state of account at url when the account's webhook is
// no longer there: removed (ok false), or another URL set, which drops it
// as an event for the new URL does. A state that is no longer url's (the
// new webhook's receiver failed meanwhile) stands.
func (c *circuits) retarget(account, url, current string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.accounts[account]; s == nil || s.url != url {
		return
	}
	if !ok {
		c.drop(account)
		return
	}
	c.of(account, current)
}

// sweep drops the state of the accounts whose pause ended longer than idle
// ago with no attempt since: an account that stopped trading, or whose
// events were all given up, is not shown failing for ever.
func (c *circuits) sweep(now time.Time, idle time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for account, s := range c.accounts {
		if now.Sub(s.until) > idle && now.Sub(s.probeAt) > idle {
			c.drop(account)
		}
	}
}

// reset drops every account's state, when the dispatcher stops.
func (c *circuits) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	metrics.WebhookFailingAccounts.Sub(float64(len(c.accounts)))
	clear(c.accounts)
}

// spread is a hold's jitter: the events held for one pause come back over
// up to a tenth of it (at least a second, at most a minute) instead of at
// once, so that the probe's answer can stop the ones after it.
func spread(hold time.Duration) time.Duration {
	w := min(max(hold/10, time.Second), time.Minute)
	return hold + rand.N(w)
}

// hold puts an event of a failing account to wait without attempting it,
// and says so in its record: attempts made so far, and when it is due.
func (d *Dispatcher) hold(ctx context.Context, log *slog.Logger, m jetstream.Msg, e *Event, attempts int, hold time.Duration) {
	delay := spread(hold)
	if err := d.wait(ctx, log, m, e.AccountID, e.ID, attempts, delay); err != nil {
		d.settle(ctx, log, m, e, attempts, OutcomeGaveUp, 0, err.Error(), 0)
		return
	}
	metrics.WebhookHolds.Inc()
	if d.records == nil {
		return
	}
	next := d.now().Add(delay).UTC()
	rec := Delivery{EventID: e.ID, OrderID: e.OrderID, Type: e.Type, Outcome: OutcomeRetry, At: d.now().UTC(),
		Error: "not attempted yet: this account's webhook is failing"}
	switch en, err := d.records.Get(ctx, DeliveryKey(e.AccountID, e.ID)); {
	case err == nil:
		var last Delivery
		if json.Unmarshal(en.Value(), &last) == nil && last.Attempts > 0 {
			// The last attempt's answer stays; only its next time moves.
			rec = last
		}
	case !errors.Is(err, jetstream.ErrKeyNotFound):
		// The record as it is beats one that could hide the last answer.
		return
	}
	rec.Attempts, rec.NextAt = attempts, &next
	d.record(log, e.AccountID, &rec)
}
