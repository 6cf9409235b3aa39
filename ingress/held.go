package ingress

import (
	"context"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// heldWait bounds how long a request that finds its account's budget
// spent waits for this process's charged orders of the account, whose
// units may yet be given back, before it is answered 429.
//
// A refusal that is never charged but that only the signer can give (400
// for an amount the chain judges, 503 VENUE_PAUSED for a swap's venue) is
// charged first and given its unit back with its answer. Meanwhile the
// unit is held: a request of the same account arriving then found the
// budget spent, and was answered 429 with the window's whole reset as
// its Retry-After (up to a minute) though a unit was about to be free.
// Such a request now waits for the orders in flight to be answered, and
// takes a unit one of them gave back. An order that keeps its unit
// (anything else than those refusals) is answered within milliseconds to
// a few hundred of them, and the wait ends with the last answer, or after
// heldWait: a spent budget with no order of the account in flight in this
// process is answered 429 at once, as before. Orders in flight in other
// ingress processes are not waited for. (A variable, for tests that must
// not depend on how fast a loaded machine answers.)
var heldWait = 500 * time.Millisecond

// heldUnits counts, per account and family, the requests of this process
// that were charged and may still have their unit given back.
type heldUnits struct {
	mu sync.Mutex
	m  map[heldKey]*held
}

type heldKey struct {
	account string
	family  wire.Family
}

type held struct {
	n int
	// settles counts the units settled, so that a request can tell that
	// one was since it last looked at the budget.
	settles uint64
	// changed is closed, and replaced, each time one of the units is
	// settled.
	changed chan struct{}
}

const ctxHeld = "tapi.held"

// takeHeld notes the request's charge as held until settleHeld.
func (h *handler) takeHeld(c *gin.Context, account string) {
	k := heldKey{account: account, family: h.l.Family}
	u := &h.s.held
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[heldKey]*held{}
	}
	e := u.m[k]
	if e == nil {
		e = &held{changed: make(chan struct{})}
		u.m[k] = e
	}
	e.n++
	c.Set(ctxHeld, k)
}

// settleHeld ends the hold of the request's charge, once its unit can no
// longer be given back (its answer came, or the refund is written). It
// may be called more than once. An account's entry stays once made (an
// account is a registry entry, few of them): its settles count must not
// start again while a request compares against it.
func (h *handler) settleHeld(c *gin.Context) {
	v, ok := c.Get(ctxHeld)
	if !ok {
		return
	}
	k, ok := v.(heldKey)
	if !ok {
		return
	}
	c.Set(ctxHeld, nil)
	u := &h.s.held
	u.mu.Lock()
	defer u.mu.Unlock()
	e := u.m[k]
	if e == nil || e.n == 0 {
		return
	}
	e.n--
	e.settles++
	close(e.changed)
	e.changed = make(chan struct{})
}

// holds settles the charge a request still holds once its handler is
// done, whatever way it ended.
func (h *handler) holds(c *gin.Context) {
	defer h.settleHeld(c)
	c.Next()
}

// heldSettles is the account's settles count, taken before a look at its
// budget.
func (h *handler) heldSettles(account string) uint64 {
	u := &h.s.held
	u.mu.Lock()
	defer u.mu.Unlock()
	if e := u.m[heldKey{account: account, family: h.l.Family}]; e != nil {
		return e.settles
	}
	return 0
}

// awaitHeld reports whether one of the account's held charges in this
// process was settled since *seen (the count taken before the look at the
// budget that found it spent), waiting for one until until, the request's
// deadline or its client leaving; *seen is then the new count. With none
// settled since and none held, it returns false at once.
func (h *handler) awaitHeld(c *gin.Context, account string, seen *uint64, until time.Time) bool {
	k := heldKey{account: account, family: h.l.Family}
	u := &h.s.held
	u.mu.Lock()
	e := u.m[k]
	if e == nil {
		u.mu.Unlock()
		return false
	}
	if e.settles != *seen {
		*seen = e.settles
		u.mu.Unlock()
		return true
	}
	if e.n == 0 {
		u.mu.Unlock()
		return false
	}
	changed := e.changed
	u.mu.Unlock()
	if d := h.deadline(c); d.Before(until) {
		until = d
	}
	ctx, cancel := context.WithDeadline(c.Request.Context(), until)
	defer cancel()
	select {
	case <-changed:
	case <-ctx.Done():
		return false
	}
	// A client gone meanwhile is not charged.
	if c.Request.Context().Err() != nil {
		return false
	}
	u.mu.Lock()
	*seen = e.settles
	u.mu.Unlock()
	return true
}
