package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Read returns the state of account in family as the store holds it now,
// charging nothing. Unlike Peek it needs no watch: it reads the one key of
// the account and family, so a process that only reports usage (the admin
// API) neither caches nor watches the whole bucket.
func (b *Budget) Read(ctx context.Context, account string, family wire.Family, lim Limits) (State, error) {
	lim = lim.clamped()
	if !family.Valid() {
		return State{}, fmt.Errorf("budget: read %q: unknown family %q", account, family)
	}
	key := kvKey(cacheKey{account: account, family: family})
	now := b.now()
	st := starts(now)
	state := State{Limits: lim, Remaining: lim, Reset: resets(now, st)}
	kve, err := b.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return state, nil
	}
	if err != nil {
		return State{}, fmt.Errorf("budget: read %s: %w", key, err)
	}
	cur := b.snapshotOf(kve).rec.current(st)
	state.Remaining, state.Used = cur.remaining(lim), cur.used()
	return state, nil
}
