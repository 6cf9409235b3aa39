// Package budget is the rate budget of the API: per account and chain
// family, three fixed windows aligned to UTC (minute, hour, ISO week from
// Monday 00:00), counted exactly across every ingress process.
//
// Each (account, family) is one key of the budget bucket holding the three
// windows' starts and counts. A charge computes the new counts from the
// value and revision it last saw and writes them with a compare-and-set
// update; when another process wrote in between, the update fails, the
// value is read again and the charge retried. A charge is thus one round
// trip when the cache is fresh, and the counts are exact however many
// processes charge the same key. A watch of the bucket keeps the cache fresh
// with the other processes' writes, so that Peek answers without any I/O.
package budget

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// attemptSlack is how many compare-and-set races a charge may lose beyond
// the units its budget has left. Every lost race means that another process
// charged the key, so a charge whose tightest window has n units left finds
// that window spent after at most n losses; the slack covers windows that
// roll over meanwhile and writes that are not charges.
const attemptSlack = 32

// errContention is returned when a charge lost more races than its budget
// allows for.
var errContention = errors.New("too many concurrent writes")

// Budget charges and reports the rate budget of every account. It is safe
// for concurrent use.
type Budget struct {
	kv  jetstream.KeyValue
	log *slog.Logger
	now func() time.Time
	// js, when set, writes updates tagged (WithTaggedWrites); stream is
	// the bucket's stream, read back after a write whose answer was lost.
	js     jetstream.JetStream
	stream atomic.Pointer[jetstream.Stream]

	mu      sync.RWMutex
	entries map[cacheKey]*entry

	// conflicts counts writes that lost a race with another process.
	conflicts atomic.Uint64

	// synced is set once the watch has delivered every key of the bucket:
	// from then on a key missing from the cache is taken not to exist.
	synced atomic.Bool
}

// entry is the cached state of one key.
type entry struct {
	// mu guards waiters and writing. Charges of one key in one process are
	// combined: while one goroutine writes, the others queue, and the next
	// write carries every queued charge at once (group commit), so a hot
	// account costs one compare-and-set per batch, not one per request.
	mu      sync.Mutex
	waiters []*waiter
	writing bool
	snap    atomic.Pointer[snapshot]
}

// waiter is one charge, or one refund, waiting to be written.
type waiter struct {
	lim Limits
	// refund, when not zero, holds the window starts of the charge that
	// the waiter gives back.
	refund [3]int64
	done   chan outcome
}

type outcome struct {
	state State
	err   error
}

// snapshot is a value of a key at a revision. Revision 0 means the key
// does not exist.
type snapshot struct {
	rev uint64
	rec record
}

// advance stores s unless the cache already holds a later revision.
func (e *entry) advance(s *snapshot) {
	for {
		old := e.snap.Load()
		if old != nil && old.rev >= s.rev {
			return
		}
		if e.snap.CompareAndSwap(old, s) {
			return
		}
	}
}

// Option configures a Budget.
type Option func(*Budget)

// WithClock sets the clock that places charges in windows; the default is
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(b *Budget) { b.now = now }
}

// WithTaggedWrites writes every update of a count through js with a tag
// of its own in a header, as the bucket's own update does otherwise. A
// write whose answer is lost (NATS took it, then its acknowledgement did
// not come: a leader change, a connection cut after the publish) is read
// back, and its tag says whether it was stored, and its batch's charges
// granted, or another process's write was, and they are charged afresh.
// Without it, such a batch fails, its units perhaps charged.
func WithTaggedWrites(js jetstream.JetStream) Option {
	return func(b *Budget) { b.js = js }
}

// New returns a Budget that keeps its counters in kv, the budget bucket.
// Run keeps its cache fresh; Charge is exact without it.
func New(kv jetstream.KeyValue, log *slog.Logger, opts ...Option) *Budget {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Budget{
		kv:      kv,
		log:     log.With("component", "budget"),
		now:     time.Now,
		entries: make(map[cacheKey]*entry),
	}
	for _, o := range opts {
		o(b)
	}
	return b
}

// lookup returns the cached entry of k, or nil.
func (b *Budget) lookup(k cacheKey) *entry {
	b.mu.RLock()
	e := b.entries[k]
	b.mu.RUnlock()
	return e
}

// entryOf returns the cached entry of k, creating it.
func (b *Budget) entryOf(k cacheKey) *entry {
	if e := b.lookup(k); e != nil {
		return e
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[k]
	if e == nil {
		e = &entry{}
		b.entries[k] = e
	}
	return e
}

// Charge charges one unit to account in family in all three windows at
// once. When a window is spent it charges nothing and returns the state,
// with Remaining 0 for that window, and an *apierr.Error with code
// RATE_LIMITED whose details name the spent window ("minute", "hour" or
// "week"; of several, the one that resets last). Any other error means the
// store could not be reached or kept changing; the request may or may not
// have been charged.
func (b *Budget) Charge(ctx context.Context, account string, family wire.Family, lim Limits) (State, error) {
	lim = lim.clamped()
	if !family.Valid() {
		return State{}, fmt.Errorf("budget: charge %q: unknown family %q", account, family)
	}
	k := cacheKey{account: account, family: family}
	key := kvKey(k)
	if err := ctx.Err(); err != nil {
		return State{}, fmt.Errorf("budget: charge %s: %w", key, err)
	}
	return b.queue(ctx, k, &waiter{lim: lim, done: make(chan outcome, 1)})
}

// queue adds w to its key's next batch, has the batches written when no
// other goroutine is writing them, and waits for w's outcome, or for ctx.
func (b *Budget) queue(ctx context.Context, k cacheKey, w *waiter) (State, error) {
	key := kvKey(k)
	e := b.entryOf(k)
	e.mu.Lock()
	e.waiters = append(e.waiters, w)
	lead := !e.writing
	e.writing = true
	e.mu.Unlock()
	if lead {
		// Written beside the caller, which may give up before the write
		// ends (a store that hangs rather than fails): a request is
		// answered by its deadline, and a stop by its drain.
		go b.drain(e, key)
	}
	select {
	case o := <-w.done:
		return o.state, o.err
	case <-ctx.Done():
	}
	// Given up. A waiter still queued is taken out: nothing of it is
	// written, and its caller may say so. One already in a batch being
	// written is answered now too, and its outcome taken when the write
	// ends: a charge written is given back, so that a request answered
	// "not charged" is not charged for nothing.
	e.mu.Lock()
	if i := slices.Index(e.waiters, w); i >= 0 {
		e.waiters = slices.Delete(e.waiters, i, i+1)
		e.mu.Unlock()
		return State{}, fmt.Errorf("budget: %s %s: %w: %w", w.op(), key, ErrNotWritten, ctx.Err())
	}
	e.mu.Unlock()
	select {
	case o := <-w.done:
		// Written as it was given up.
		return o.state, o.err
	default:
	}
	go b.giveBack(k, w)
	return State{}, fmt.Errorf("budget: %s %s: %w: %w", w.op(), key, ErrGivenBack, ctx.Err())
}

// ErrNotWritten is wrapped by the error of a charge or refund whose caller
// gave up before it was written: nothing of it was, nor will be.
var ErrNotWritten = errors.New("given up before it was written")

// ErrGivenBack is wrapped by the error of a charge or refund whose caller
// gave up while it was being written: a charge written is refunded (see
// giveBack), a refund stands or not as its write ends.
var ErrGivenBack = errors.New("given up while it was being written; a charge written is given back")

// giveBack takes the outcome of w, whose caller gave up while its batch
// was being written, and refunds a charge that was written: its caller
// was answered that it was not. A charge whose outcome is unknown (the
// store failed) is logged: it may stand.
func (b *Budget) giveBack(k cacheKey, w *waiter) {
	o := <-w.done
	if w.refund != ([3]int64{}) {
		return
	}
	key := kvKey(k)
	if o.err != nil {
		if apierr.From(o.err).Code != apierr.RateLimited {
			b.log.Warn("a charge given up during its write may have been written; it may stand", "key", key, "err", o.err)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), chargeTimeout)
	defer cancel()
	if _, err := b.Refund(ctx, k.account, k.family, w.lim, o.state); err != nil {
		b.log.Error("refund a charge given up during its write; the unit stays charged", "key", key, "err", err)
		return
	}
	b.log.Info("a charge given up during its write was written, and is given back", "key", key)
}

// op names what w does, for errors.
func (w *waiter) op() string {
	if w.refund != ([3]int64{}) {
		return "refund"
	}
	return "charge"
}

// chargeTimeout bounds one batch's writes; it does not follow any one
// caller's context, since the batch carries several callers.
const chargeTimeout = 10 * time.Second

// drain writes queued charges batch by batch until none is left, on a
// goroutine of its own: a request's goroutine that drained every later
// batch of a busy account was held past its own deadline, charged, and
// answered that nothing was placed.
func (b *Budget) drain(e *entry, key string) {
	for {
		e.mu.Lock()
		batch := e.waiters
		e.waiters = nil
		if len(batch) == 0 {
			e.writing = false
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), chargeTimeout)
		b.commit(ctx, e, key, batch)
		cancel()
	}
}

// commit grants as many of batch's charges, in order, as the windows allow,
// applies its refunds, and writes the new counts with one compare-and-set,
// retrying on a conflict with another process. Every waiter gets its
// outcome.
func (b *Budget) commit(ctx context.Context, e *entry, key string, batch []*waiter) {
	cur := e.snap.Load()
	var stale uint64 // the revision a failed write expected
	if cur == nil && b.synced.Load() {
		// The watch has seen the whole bucket and not this key: try to
		// create it straight away rather than read it first.
		cur = &snapshot{}
	}
	tightest := int64(0)
	for _, w := range batch {
		tightest = max(tightest, min(w.lim.Minute, w.lim.Hour, w.lim.Week))
	}
	maxAttempts := tightest + attemptSlack
	outcomes := make([]outcome, len(batch))
	// unclear are the tags of the writes of this record, over cur.rev,
	// whose answers were lost: any of them may have been stored.
	var unclear []string
	// writes counts the writes of the record whose answers were lost or
	// that met a read back showing none stored yet.
	writes := 0
	var rec record
	for attempt := int64(1); ; attempt++ {
		// A write whose answer was lost is written again as it was.
		if len(unclear) == 0 {
			if cur == nil {
				var err error
				if cur, err = b.fetch(ctx, e, key, stale); err != nil {
					fail(batch, err)
					return
				}
			}
			var changed int
			if rec, changed = b.tally(cur.rec, batch, outcomes); changed == 0 {
				deliver(batch, outcomes)
				return
			}
		}
		rev, tag, err := b.write(ctx, key, cur.rev, &rec)
		if err == nil {
			e.advance(&snapshot{rev: rev, rec: rec})
			deliver(batch, outcomes)
			return
		}
		conflict := bus.Conflict(err)
		if !conflict && tag != "" {
			unclear = append(unclear, tag)
		}
		if len(unclear) > 0 {
			writes++
			// One of the writes whose answers were lost may be the one
			// stored: its tag tells.
			last, rerr := b.readBack(key)
			switch {
			case rerr != nil:
				failEach(batch, key, fmt.Errorf("%w; reading it back: %w", err, rerr))
				return
			case slices.Contains(unclear, last.Header.Get(writeTag)):
				b.log.Info("a write of the budget whose answer was lost was stored; its charges stand", "key", key, "revision", last.Sequence)
				e.advance(&snapshot{rev: last.Sequence, rec: rec})
				deliver(batch, outcomes)
				return
			case last.Sequence == cur.rev && writes < maxUnclear && ctx.Err() == nil:
				// None is stored yet, and one may still be: the record is
				// written again over the same revision, so that at most
				// one of them is.
				continue
			case last.Sequence == cur.rev:
				failEach(batch, key, err)
				return
			}
			// Another process's write is the last: none of ours can be
			// stored any more (each expected cur.rev). One may have been
			// stored before it, which the bucket's one revision a key no
			// longer shows: charged afresh, its units are then counted
			// twice, never a charge granted past the limit.
			unclear, conflict = nil, true
		}
		if !conflict {
			failEach(batch, key, err)
			return
		}
		b.conflicts.Add(1)
		if attempt >= maxAttempts {
			failEach(batch, key, fmt.Errorf("%w (%d attempts)", errContention, attempt))
			return
		}
		// Another process charged the key since we read it. The watch may
		// already have brought its write; if not, read the key again.
		stale = cur.rev
		if c := e.snap.Load(); c != nil && c.rev > stale {
			cur = c
		} else {
			cur = nil
		}
	}
}

// tally applies batch's charges, in order, as far as the windows allow,
// and its refunds, to the stored record, setting each waiter's outcome. It
// returns the new record and how many of the batch changed it.
func (b *Budget) tally(stored record, batch []*waiter, outcomes []outcome) (record, int) {
	now := b.now()
	st := starts(now)
	rec := stored.current(st)
	changed := 0
	for i, w := range batch {
		state := State{Limits: w.lim, Reset: resets(now, st)}
		if w.op() == "refund" {
			var ok bool
			if rec, ok = rec.refunded(w.refund); ok {
				changed++
			}
			state.Remaining = rec.remaining(w.lim)
			outcomes[i] = outcome{state: state}
			continue
		}
		// The longest spent window resets last (see Refusal).
		spent := -1
		for j := range rec {
			if rec[j].count >= w.lim.at(j) {
				spent = j
			}
		}
		if spent >= 0 {
			state.Remaining = rec.remaining(w.lim)
			state, err := state.refuse(spent)
			outcomes[i] = outcome{state, err}
			continue
		}
		for j := range rec {
			rec[j].count++
			state.Windows[j] = rec[j].start
		}
		state.Remaining = rec.remaining(w.lim)
		outcomes[i] = outcome{state: state}
		changed++
	}
	return rec, changed
}

func deliver(batch []*waiter, outcomes []outcome) {
	for i, w := range batch {
		w.done <- outcomes[i]
	}
}

// failEach fails every waiter of batch with err, each saying what it was.
func failEach(batch []*waiter, key string, err error) {
	for _, w := range batch {
		w.done <- outcome{err: fmt.Errorf("budget: %s %s: %w", w.op(), key, err)}
	}
}

func fail(batch []*waiter, err error) {
	for _, w := range batch {
		w.done <- outcome{err: err}
	}
}

// write stores rec over revision rev, or creates the key when rev is 0.
// An update written with WithTaggedWrites returns its tag, also when it
// fails.
func (b *Budget) write(ctx context.Context, key string, rev uint64, rec *record) (uint64, string, error) {
	if rev == 0 {
		// Create also takes the place of a delete marker.
		r, err := b.kv.Create(ctx, key, rec.encode())
		return r, "", err
	}
	if b.js == nil {
		r, err := b.kv.Update(ctx, key, rec.encode(), rev)
		return r, "", err
	}
	// The bucket's own update, with the tag: a publish to the key's
	// subject expecting its last revision.
	tag := nuid.Next()
	m := &nats.Msg{Subject: "$KV." + b.kv.Bucket() + "." + key, Header: nats.Header{writeTag: []string{tag}}, Data: rec.encode()}
	pa, err := b.js.PublishMsg(ctx, m, jetstream.WithExpectLastSequencePerSubject(rev))
	if err != nil {
		return 0, tag, err
	}
	return pa.Sequence, tag, nil
}

// maxUnclear bounds the writes of one record whose answers were lost.
const maxUnclear = 3

// writeTag is the header that names one write of a count.
const writeTag = "Tradeapi-Budget-Write"

// readBack returns the last stored write of key, with its headers, on a
// time of its own: the batch's may be spent by the write it looks for.
func (b *Budget) readBack(key string) (*jetstream.RawStreamMsg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), readBackTimeout)
	defer cancel()
	s := b.stream.Load()
	if s == nil {
		st, err := b.js.Stream(ctx, "KV_"+b.kv.Bucket())
		if err != nil {
			return nil, err
		}
		s = &st
		b.stream.Store(s)
	}
	return (*s).GetLastMsgForSubject(ctx, "$KV."+b.kv.Bucket()+"."+key)
}

// readBackTimeout bounds the read of a write whose answer was lost.
const readBackTimeout = 5 * time.Second

// fetch reads key from the store and caches what it read. stale is the
// revision that a write found outdated, 0 if none.
func (b *Budget) fetch(ctx context.Context, e *entry, key string, stale uint64) (*snapshot, error) {
	kve, err := b.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		// Deleted, or expired after a week and a day without charges. The
		// cache may still hold the revision that is gone: drop it, unless
		// the watch has brought a later one meanwhile.
		s := &snapshot{}
		if old := e.snap.Load(); old != nil && old.rev <= stale {
			e.snap.CompareAndSwap(old, s)
		}
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("budget: read %s: %w", key, err)
	}
	s := b.snapshotOf(kve)
	e.advance(s)
	if c := e.snap.Load(); c.rev > s.rev {
		return c, nil // the watch delivered a later write meanwhile
	}
	return s, nil
}

// snapshotOf turns a stored entry into a snapshot. A value that does not
// decode is logged and counts nothing, so that the next charge overwrites
// it rather than failing for ever.
func (b *Budget) snapshotOf(kve jetstream.KeyValueEntry) *snapshot {
	s := &snapshot{rev: kve.Revision()}
	if kve.Operation() != jetstream.KeyValuePut {
		return s
	}
	rec, err := decode(kve.Value())
	if err != nil {
		b.log.Warn("ignoring budget value", "key", kve.Key(), "revision", kve.Revision(), "err", err)
		return s
	}
	s.rec = rec
	return s
}

// Peek returns the state of account in family from the cache, charging
// nothing and doing no I/O. It reflects this process's charges at once and
// the other processes' charges as soon as the watch of Run delivers them.
func (b *Budget) Peek(account string, family wire.Family, lim Limits) State {
	now := b.now()
	st := starts(now)
	lim = lim.clamped()
	state := State{Limits: lim, Remaining: lim, Reset: resets(now, st)}
	e := b.lookup(cacheKey{account: account, family: family})
	if e == nil {
		return state
	}
	if s := e.snap.Load(); s != nil {
		state.Remaining = s.rec.current(st).remaining(lim)
	}
	return state
}

// Run keeps the cache fresh from a watch of the bucket, so that Peek shows
// the other processes' charges and Charge rarely races. It blocks until ctx
// ends, restarting the watch whenever it breaks (bus.Watch), and returns
// nil then.
func (b *Budget) Run(ctx context.Context) error {
	return bus.Watch(ctx, b.kv, b.log, b.apply, func() { b.synced.Store(true) })
}

// apply takes one value of the bucket into the cache.
func (b *Budget) apply(kve jetstream.KeyValueEntry) {
	k, ok := parseKey(kve.Key())
	if !ok {
		b.log.Warn("ignoring budget key", "key", kve.Key())
		return
	}
	e := b.entryOf(k)
	// This process's own charges come back through the watch after the
	// cache has them: nothing to decode.
	if old := e.snap.Load(); old != nil && old.rev >= kve.Revision() {
		return
	}
	e.advance(b.snapshotOf(kve))
}
