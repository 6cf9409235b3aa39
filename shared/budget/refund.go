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
// Refund is written like Charge, in the same batches of the key's writes
// in this process, and is exact across processes: a write that loses a
// race reads the key again. Call it once per charge; an error leaves the
// unit charged, which costs the client a unit but never gives one twice.
func (b *Budget) Refund(ctx context.Context, account string, family wire.Family, lim Limits, charged State) (State, error) {
	lim = lim.clamped()
	if charged.Windows == ([3]int64{}) {
		return State{}, ErrNothingCharged
	}
	if !family.Valid() {
		return State{}, fmt.Errorf("budget: refund %q: unknown family %q", account, family)
	}
	if err := ctx.Err(); err != nil {
		return State{}, fmt.Errorf("budget: refund %s: %w", kvKey(cacheKey{account: account, family: family}), err)
	}
	// A refund joins the key's batches of charges: under many concurrent
	// requests of one account, a compare-and-set of its own would lose
	// race after race to theirs.
	return b.queue(ctx, cacheKey{account: account, family: family}, &waiter{lim: lim, refund: charged.Windows, done: make(chan outcome, 1)})
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
