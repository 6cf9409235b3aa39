package events

import (
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// fairQueue holds the events taken from the stream until a delivery slot
// takes them: one FIFO queue per account, served round-robin, with at most
// perAccount of an account's events in flight at once. A receiver that
// hangs therefore holds at most perAccount slots; the others keep serving
// every other account, one event per account in turn.
//
// An account's second and later deliveries at once run only while more
// slots than reserve are free: the last quarter of the slots is kept for
// accounts with nothing in flight. Receivers that hang hold their share
// until their timeout; without the reserve eight of them (8 × 4 of 32
// slots) held every slot, and every other account's events waited. With
// it, their further deliveries hold at most three quarters of the slots,
// and the last quarter serves accounts with nothing in flight, one
// delivery each.
type fairQueue struct {
	perAccount int
	slots      int
	reserve    int

	mu       sync.Mutex
	wake     *sync.Cond
	accounts map[string]*accountQueue
	// ready lists, oldest first, the accounts with an event queued and a
	// free share of slots; an account served goes to the back.
	ready []string
	// waiting lists, oldest first, the accounts with an event queued and
	// one in flight that wait for more than reserve slots to be free.
	waiting  []string
	queued   int
	inflight int
	closed   bool
}

// accountQueue is one account's events: queued, and how many are in
// flight.
type accountQueue struct {
	msgs      []jetstream.Msg
	inflight  map[jetstream.Msg]struct{}
	isReady   bool
	isWaiting bool
}

// newFairQueue is the queue of slots delivery slots, perAccount of them at
// most for one account.
func newFairQueue(slots, perAccount int) *fairQueue {
	q := &fairQueue{perAccount: perAccount, slots: slots, reserve: slots / 4, accounts: map[string]*accountQueue{}}
	q.wake = sync.NewCond(&q.mu)
	return q
}

// crowded reports whether an account with events in flight must wait for
// more free slots before another of its events is delivered.
func (q *fairQueue) crowded(a *accountQueue) bool {
	return len(a.inflight) > 0 && q.slots-q.inflight <= q.reserve
}

// push queues an event of an account. It never blocks: the stream bounds
// what is held through the consumer's MaxAckPending.
func (q *fairQueue) push(account string, m jetstream.Msg) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	a := q.accounts[account]
	if a == nil {
		a = &accountQueue{inflight: map[jetstream.Msg]struct{}{}}
		q.accounts[account] = a
	}
	a.msgs = append(a.msgs, m)
	q.queued++
	metrics.WebhookQueued.Set(float64(q.queued))
	q.markReady(account, a)
	return true
}

// length is how many of an account's events are held, queued or in
// flight.
func (q *fairQueue) length(account string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	a := q.accounts[account]
	if a == nil {
		return 0
	}
	return len(a.msgs) + len(a.inflight)
}

// markReady puts an account at the back of the ready list when it has an
// event queued and room in its share, or at the back of the waiting list when
// the reserve keeps it waiting.
func (q *fairQueue) markReady(account string, a *accountQueue) {
	if a.isReady || a.isWaiting || len(a.msgs) == 0 || len(a.inflight) >= q.perAccount {
		return
	}
	if q.crowded(a) {
		a.isWaiting = true
		q.waiting = append(q.waiting, account)
		return
	}
	a.isReady = true
	q.ready = append(q.ready, account)
	q.wake.Signal()
}

// next waits for the next event to deliver: the oldest queued event of the
// account first in the ready list. ok is false once the queue is closed.
func (q *fairQueue) next() (account string, m jetstream.Msg, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.ready) == 0 && !q.closed {
			q.wake.Wait()
		}
		if q.closed {
			return "", nil, false
		}
		account = q.ready[0]
		q.ready[0] = ""
		q.ready = q.ready[1:]
		a := q.accounts[account]
		a.isReady = false
		if q.crowded(a) {
			// Ready when slots were free; the reserve keeps it now.
			q.markReady(account, a)
			continue
		}
		m = a.msgs[0]
		a.msgs[0] = nil
		a.msgs = a.msgs[1:]
		a.inflight[m] = struct{}{}
		q.inflight++
		q.queued--
		metrics.WebhookQueued.Set(float64(q.queued))
		q.markReady(account, a)
		return account, m, true
	}
}

// done ends the delivery of an event that next returned.
func (q *fairQueue) done(account string, m jetstream.Msg) {
	q.mu.Lock()
	defer q.mu.Unlock()
	a := q.accounts[account]
	if a == nil {
		return
	}
	if _, ok := a.inflight[m]; ok {
		delete(a.inflight, m)
		q.inflight--
	}
	if a.isWaiting && !q.crowded(a) {
		// Nothing of it in flight now: it goes as any such account does
		// (its place in the waiting list is left, and skipped).
		a.isWaiting = false
	}
	// A slot came free: the account kept waiting longest by the reserve
	// may go.
	for len(q.waiting) > 0 && q.slots-q.inflight > q.reserve {
		first := q.waiting[0]
		q.waiting[0] = ""
		q.waiting = q.waiting[1:]
		if h := q.accounts[first]; h != nil && h.isWaiting {
			h.isWaiting = false
			q.markReady(first, h)
			if h.isReady {
				break
			}
		}
	}
	if len(a.msgs) == 0 && len(a.inflight) == 0 {
		if !a.isReady && !a.isWaiting {
			delete(q.accounts, account)
		}
		return
	}
	q.markReady(account, a)
}

// held returns every event held, queued or in flight, so that their ack
// deadlines can be pushed back while they wait.
func (q *fairQueue) held() []jetstream.Msg {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []jetstream.Msg
	for _, a := range q.accounts {
		out = append(out, a.msgs...)
		for m := range a.inflight {
			out = append(out, m)
		}
	}
	return out
}

// close wakes every waiting slot and returns the events still queued, to
// be handed back to the stream. Events in flight are their slots' to end.
func (q *fairQueue) close() []jetstream.Msg {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	var left []jetstream.Msg
	for _, a := range q.accounts {
		left = append(left, a.msgs...)
		a.msgs = nil
	}
	q.ready, q.waiting = nil, nil
	q.queued = 0
	metrics.WebhookQueued.Set(0)
	q.wake.Broadcast()
	return left
}

// accountOf reads the account from an event's subject,
// bus.EventsSubject(account, type), from a due delivery's,
// bus.WebhookDueSubject(account, key), or from a backlog's,
// bus.WebhookBacklogSubject(account); "" when the subject is none.
func accountOf(subject string) string {
	if account, ok := cutDue(subject); ok {
		return account
	}
	if account, ok := strings.CutPrefix(subject, bus.WebhookBacklogPrefix); ok {
		if account == "" || strings.Contains(account, ".") {
			return ""
		}
		return account
	}
	rest, ok := strings.CutPrefix(subject, bus.EventsPrefix)
	if !ok {
		return ""
	}
	account, _, ok := strings.Cut(rest, ".")
	if !ok {
		return ""
	}
	return account
}

// cutDue reads the account from a due delivery's subject; ok is false when
// the subject is not one.
func cutDue(subject string) (account string, ok bool) {
	rest, ok := strings.CutPrefix(subject, bus.WebhookDuePrefix)
	if !ok {
		return "", false
	}
	account, _, ok = strings.Cut(rest, ".")
	return account, ok && account != ""
}
