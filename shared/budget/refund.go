package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// ErrNothingCharged is returned by Refund for a state that records no
// granted charge.
var ErrNothingCharged = errors.New("budget: refund of a state that was not charged")

// Refund gives back the unit that a granted Charge took, whose State is
// charged: it decrements, with one compare-and-set, the count of each
// window that is still the window the charge was counted in. A window that
// rolled over since has already forgotten the charge and is left alone, so
// a refund never lends units to a new window. It returns the state after
// the refund, for the rate headers.
//
// Refund is exact across processes like Charge: a write that loses a race
// reads the key again. Call it once per charge; an error leaves the unit
// charged, which costs the client a unit but never gives one twice.
func (b *Budget) Refund(ctx context.Context, account string, family wire.Family, lim Limits, charged State) (State, error) {
	lim = lim.clamped()
	if charged.Windows == ([3]int64{}) {
		return State{}, ErrNothingCharged
	}
	if !family.Valid() {
		return State{}, fmt.Errorf("budget: refund %q: unknown family %q", account, family)
	}
	k := cacheKey{account: account, family: family}
	key := kvKey(k)
	e := b.entryOf(k)
	var stale uint64
	cur := e.snap.Load()
	for attempt := 0; ; attempt++ {
		if cur == nil {
			var err error
			if cur, err = b.fetch(ctx, e, key, stale); err != nil {
				return State{}, fmt.Errorf("budget: refund %s: %w", key, err)
			}
		}
		rec, changed := cur.rec.refunded(charged.Windows)
		if !changed {
			return b.stateOf(cur.rec, lim), nil
		}
		rev, err := b.write(ctx, key, cur.rev, &rec)
		if err == nil {
			e.advance(&snapshot{rev: rev, rec: rec})
			return b.stateOf(rec, lim), nil
		}
		if !conflict(err) {
			return State{}, fmt.Errorf("budget: refund %s: %w", key, err)
		}
		b.conflicts.Add(1)
		if attempt >= attemptSlack {
			return State{}, fmt.Errorf("budget: refund %s: %w (%d attempts)", key, errContention, attempt+1)
		}
		stale = cur.rev
		if c := e.snap.Load(); c != nil && c.rev > stale {
			cur = c
		} else {
			cur = nil
		}
	}
}

// refunded returns r with one unit taken off each window that started at
// the start given for it in windows and still counts something.
func (r record) refunded(windows [3]int64) (record, bool) {
	changed := false
	for i := range r {
		if r[i].start == windows[i] && r[i].count > 0 {
			r[i].count--
			changed = true
		}
	}
	return r, changed
}

// stateOf is the state of lim over rec now.
func (b *Budget) stateOf(rec record, lim Limits) State {
	now := b.now()
	st := starts(now)
	return State{Limits: lim, Remaining: rec.current(st).remaining(lim), Reset: resets(now, st)}
}
