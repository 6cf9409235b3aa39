package exits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// budgetPrefix starts the keys of the accounts' exit budgets in the
// positions bucket. Position ids start with an order id (eu-, us-, evm-),
// so the two never meet; the bucket is the one every engine already
// writes with compare-and-set, which is what makes the budget exact across
// engines.
const budgetPrefix = "budget."

// budgetKey is the key of an account's exit budget.
func budgetKey(account string) string { return budgetPrefix + account }

// budgetState is an account's exit budget as stored: a token bucket kept
// as its theoretical arrival time (GCRA). Next is when the bucket is full
// again: each sell let in moves it one interval on, so a sell may enter at
// Next minus burst-1 intervals, never before.
type budgetState struct {
	Next time.Time `json:"next"`
}

// budget bounds the exit sells one account puts into the pipeline: rate a
// second, burst at once. A sell beyond it is not refused but given the next
// free slot: reserve answers when it may enter, and the engine holds the
// sell until then. Every reservation is a compare-and-set on the account's
// key, so several engines share one bucket per account.
type budget struct {
	kv       jetstream.KeyValue
	interval time.Duration
	burst    int
	now      func() time.Time

	// locks serialise this engine's reservations of one account, so that
	// they do not race each other's compare-and-set; accounts share a lock
	// only by hash.
	locks [64]sync.Mutex

	mu sync.Mutex
	// next is the latest Next known of each account, from this engine's
	// reservations and the bucket's watch.
	next map[string]time.Time
}

func newBudget(kv jetstream.KeyValue, rate float64, burst int, now func() time.Time) *budget {
	return &budget{kv: kv, interval: time.Duration(float64(time.Second) / rate), burst: burst, now: now,
		next: map[string]time.Time{}}
}

func (b *budget) lock(account string) *sync.Mutex {
	h := fnv.New32a()
	_, _ = h.Write([]byte(account))
	return &b.locks[h.Sum32()%uint32(len(b.locks))]
}

// reserve takes the account's next slot and returns when the sell may
// enter the pipeline: now while the bucket has room, later once it has
// not.
func (b *budget) reserve(ctx context.Context, account string) (time.Time, error) {
	l := b.lock(account)
	l.Lock()
	defer l.Unlock()
	key := budgetKey(account)
	for attempt := 0; ; attempt++ {
		st, rev, err := b.load(ctx, key)
		if err != nil {
			return time.Time{}, err
		}
		now := b.now()
		at, next := b.slot(st.Next, now)
		data, err := json.Marshal(budgetState{Next: next.UTC()})
		if err != nil {
			return time.Time{}, fmt.Errorf("encode exit budget of %s: %w", account, err)
		}
		if rev == 0 {
			_, err = b.kv.Create(ctx, key, data)
		} else {
			_, err = b.kv.Update(ctx, key, data, rev)
		}
		if err == nil {
			b.seen(account, next)
			return at, nil
		}
		if !bus.Conflict(err) || attempt >= 50 || ctx.Err() != nil {
			return time.Time{}, fmt.Errorf("reserve exit budget of %s: %w", account, err)
		}
	}
}

// slot is the GCRA step: the time a sell asking at now may enter, given
// the stored next, and the next to store.
func (b *budget) slot(next, now time.Time) (at, newNext time.Time) {
	if next.Before(now) {
		next = now
	}
	at = next.Add(-time.Duration(b.burst-1) * b.interval)
	if at.Before(now) {
		at = now
	}
	return at, next.Add(b.interval)
}

// load reads an account's budget and its revision; 0 when none is stored.
func (b *budget) load(ctx context.Context, key string) (budgetState, uint64, error) {
	var st budgetState
	en, err := b.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return st, 0, nil
	}
	if err != nil {
		return st, 0, fmt.Errorf("get %s: %w", key, err)
	}
	if err := json.Unmarshal(en.Value(), &st); err != nil {
		// A damaged budget starts again full rather than holding every
		// sell of the account back.
		st = budgetState{}
	}
	return st, en.Revision(), nil
}

// seen records an account's Next, keeping the latest.
func (b *budget) seen(account string, next time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if next.After(b.next[account]) {
		b.next[account] = next
	}
}

// apply takes a budget key's value from the bucket's watch.
func (b *budget) apply(key string, value []byte) {
	account := strings.TrimPrefix(key, budgetPrefix)
	var st budgetState
	if json.Unmarshal(value, &st) == nil {
		b.seen(account, st.Next)
	}
}

// busyUntil is when the account's reservations known here end: every sell
// held for the account's budget, by any engine, enters the pipeline by
// then.
func (b *budget) busyUntil(account string) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.next[account]
}
