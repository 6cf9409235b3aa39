package server

// The publisher copies the store into the KV buckets the other roles
// watch. bbolt is the system of record and KV a replica of it: every
// change is committed to bbolt first, then published, and the publisher
// never reads KV to decide anything but what to skip or delete during a
// resync. So a lost publish (NATS down, the registry killed between the
// commit and the write) can only delay what others see, never make it
// differ from the file for good.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// limitsDoc lists the figures of every family, defaults included, so that
// the document and the admin answer show the figures in force instead of
// leaving each reader to know the defaults.
func limitsDoc(rec *accountRecord) map[wire.Family]registry.Limits {
	out := make(map[wire.Family]registry.Limits, len(registry.Families))
	for _, f := range registry.Families {
		out[f] = rec.limits(f)
	}
	return out
}

// newAccountDoc is an account's document in the read model. It is built
// from the store alone, so publishing the same store state twice writes
// the same bytes, which lets a resync skip what is already in place.
func newAccountDoc(st *accountState) registry.AccountDoc {
	d := registry.AccountDoc{
		ID:      st.rec.ID,
		Name:    st.rec.Name,
		Created: st.rec.Created,
		// An empty account lists [] rather than null, so readers need not
		// tell the two apart.
		Wallets:  make([]registry.Wallet, 0, len(st.wallets)),
		Limits:   limitsDoc(&st.rec),
		FeeCaps:  feeCapsDoc(&st.rec),
		Strategy: registry.NewStrategyDoc(st.rec.Strategy),
		Webhook:  newWebhookDoc(st.rec.Webhook),
	}
	for i := range st.wallets {
		d.Wallets = append(d.Wallets, st.wallets[i].public())
	}
	return d
}

// kvItem is one entry of the buckets the registry writes. It names the
// entry, never its value: the value is read from the store when the item
// is published, so an item marked twice is written once, with the latest
// value. It is comparable, so it can be a map key of the dirty set.
type kvItem struct {
	walletKey bool   // bus.BucketWalletKeys when true
	webhook   bool   // bus.BucketWebhooks when true; else bus.BucketRegistry
	key       string // read-model key, the wallet address, or the account id of a webhook
}

// rank orders a flush (see flush for why): the entries a later entry
// refers to come first.
func (it kvItem) rank() int {
	switch {
	case it.walletKey, it.webhook:
		return 0
	case strings.HasPrefix(it.key, registry.AccountKeyPrefix):
		return 1
	}
	return 2
}

// publisher copies the store into the KV buckets. Changes only mark keys
// dirty; one loop writes the current store value of every dirty key, so
// writes cannot be reordered into a stale result, and a failed write is
// simply retried until NATS takes it.
type publisher struct {
	store *store
	js    jetstream.JetStream
	log   *slog.Logger

	// mu guards the dirty set and the tickets, shared by the admin
	// handlers (mark, wait) and the publishing loop (flush, advance).
	mu     sync.Mutex
	dirty  map[kvItem]struct{}
	seq    uint64        // number of marks so far
	done   uint64        // every mark up to this one is in KV
	doneCh chan struct{} // closed when done moves
	wake   chan struct{}

	// The buckets, bound by open once NATS answers; only the publishing
	// loop uses them.
	registry, walletKeys, webhooks jetstream.KeyValue
}

// newPublisher returns a publisher that has not opened its buckets yet:
// run does, so that the registry starts while NATS is still away.
func newPublisher(st *store, js jetstream.JetStream, log *slog.Logger) *publisher {
	return &publisher{store: st, js: js, log: log, dirty: map[kvItem]struct{}{},
		doneCh: make(chan struct{}), wake: make(chan struct{}, 1)}
}

// mark records changed keys and returns a ticket to wait for.
func (p *publisher) mark(items ...kvItem) uint64 {
	p.mu.Lock()
	for _, it := range items {
		p.dirty[it] = struct{}{}
	}
	p.seq++
	seq := p.seq
	p.mu.Unlock()
	// wake holds one token: a pending wake-up already covers this mark,
	// since a flush takes every dirty key there is when it starts.
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return seq
}

// wait blocks until the ticket's changes are in KV, ctx ends or timeout
// passes, and reports whether they are.
func (p *publisher) wait(ctx context.Context, seq uint64, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		p.mu.Lock()
		if p.done >= seq {
			p.mu.Unlock()
			return true
		}
		// Take the channel under the lock: advance closes and replaces it
		// under the same lock, so no wake-up falls between the check and
		// the wait.
		ch := p.doneCh
		p.mu.Unlock()
		select {
		case <-ch:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// advance records that every mark up to seq is in KV and wakes every
// waiter, each of which then checks its own ticket. Closing a channel
// wakes any number of waiters at once, where a send would wake one.
func (p *publisher) advance(seq uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if seq > p.done {
		p.done = seq
		close(p.doneCh)
		p.doneCh = make(chan struct{})
	}
}

// run opens the buckets, resynchronises them with the store, calls ready,
// then publishes changes until ctx ends. NATS being away is never fatal:
// every step is retried with a growing pause.
func (p *publisher) run(ctx context.Context, ready func()) {
	back := registry.NewBackoff()
	// Changes marked meanwhile wait in the dirty set, with a wake-up
	// pending, and go out right after the resync.
	for {
		err := p.open(ctx)
		if err == nil {
			err = p.resync(ctx)
		}
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return
		}
		// One line per attempt, and the pause grows to 5 s, so an outage
		// does not flood the log.
		p.log.Warn("read model resync failed, retrying", "err", err)
		if !back.Sleep(ctx) {
			return
		}
	}
	p.log.Info("read model in sync")
	// Ready only now: a process that starts once the registry is ready
	// finds the read model complete.
	ready()
	back.Reset()
	// retry is set only after a failed flush, so a healthy loop waits on
	// wake alone and does nothing between changes.
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		case <-retry:
		}
		retry = nil
		if err := p.flush(ctx); err != nil {
			// A failure because the registry is stopping is no failure:
			// the next start resyncs whatever did not go out.
			if ctx.Err() != nil {
				return
			}
			d := back.Next()
			p.log.Warn("read model publish failed, retrying", "err", err, "in", d)
			retry = time.After(d)
			continue
		}
		back.Reset()
	}
}

// open binds the three buckets, which the composition root declared; it
// is retried by run until NATS answers, and kept once it succeeded.
func (p *publisher) open(ctx context.Context) error {
	if p.registry != nil && p.walletKeys != nil && p.webhooks != nil {
		return nil
	}
	// Bounded, so that an unreachable server fails this attempt and run's
	// back-off decides when to try again.
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	reg, err := p.js.KeyValue(cctx, bus.BucketRegistry)
	if err != nil {
		return fmt.Errorf("open bucket %s: %w", bus.BucketRegistry, err)
	}
	wk, err := p.js.KeyValue(cctx, bus.BucketWalletKeys)
	if err != nil {
		return fmt.Errorf("open bucket %s: %w", bus.BucketWalletKeys, err)
	}
	wh, err := p.js.KeyValue(cctx, bus.BucketWebhooks)
	if err != nil {
		return fmt.Errorf("open bucket %s: %w", bus.BucketWebhooks, err)
	}
	p.registry, p.walletKeys, p.webhooks = reg, wk, wh
	return nil
}

// flush publishes every dirty key. A key that fails stays dirty.
func (p *publisher) flush(ctx context.Context) error {
	// Swap the dirty set out under the lock and publish without it, so a
	// change marked meanwhile is not blocked by NATS. seq is read in the
	// same critical section: every mark up to it is in this batch.
	p.mu.Lock()
	batch := p.dirty
	seq := p.seq
	p.dirty = make(map[kvItem]struct{})
	p.mu.Unlock()
	// Nothing to write still advances: a mark whose item an earlier flush
	// already took is published, and its waiter must be let go.
	if len(batch) == 0 {
		p.advance(seq)
		return nil
	}
	// Wallet keys first, then accounts, then API keys: a process that sees
	// a key finds its account, and one that sees a wallet can sign for it.
	// The dirty set is a map, so without this sort the order would be
	// random.
	items := make([]kvItem, 0, len(batch))
	for it := range batch {
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].rank() < items[j].rank() })
	// Go on past a failure: one bad key must not hold back the others,
	// and the failed ones go back into the dirty set for the retry.
	var firstErr error
	for _, it := range items {
		if err := p.publishItem(ctx, it, nil, false); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			p.mu.Lock()
			p.dirty[it] = struct{}{}
			p.mu.Unlock()
		}
	}
	// Waiters are let go only when the whole batch is in: a ticket covers
	// every item marked with it, and some of them failed.
	if firstErr != nil {
		return firstErr
	}
	p.advance(seq)
	// Views see the change through their watch; this note lets a process
	// that wants to wait for a change do so without polling.
	if nc := p.js.Conn(); nc != nil {
		_ = nc.Publish(bus.RegistryChanged, nil)
	}
	return nil
}

// resolve returns the value a key must have, or nil when it must not exist.
func (p *publisher) resolve(it kvItem) ([]byte, error) {
	// Wallet keys are published still sealed: only a holder of the master
	// key (the workers) can open them, so the bucket is no secret store.
	if it.walletKey {
		return p.store.sealedKey(it.key)
	}
	if it.webhook {
		w, err := p.store.webhook(it.key)
		if err != nil {
			// An account that is gone has no webhook: delete the entry.
			if isNotFound(err) {
				return nil, nil
			}
			return nil, err
		}
		if w == nil {
			return nil, nil
		}
		// The secret goes to the webhooks bucket, which only the
		// dispatcher reads, and never into the account's document.
		return json.Marshal(registry.Webhook{URL: w.URL, Secret: w.Secret, Created: w.Created, Since: w.since()})
	}
	switch {
	case strings.HasPrefix(it.key, registry.AccountKeyPrefix):
		st, err := p.store.account(strings.TrimPrefix(it.key, registry.AccountKeyPrefix))
		if err != nil {
			if isNotFound(err) {
				return nil, nil
			}
			return nil, err
		}
		return json.Marshal(newAccountDoc(st))
	case strings.HasPrefix(it.key, registry.APIKeyKeyPrefix):
		// A revoked key has no live hash: nil, and the entry is deleted,
		// which is what makes every ingress refuse it.
		ref, err := p.store.keyRef(strings.TrimPrefix(it.key, registry.APIKeyKeyPrefix))
		if err != nil || ref == nil {
			return nil, err
		}
		return json.Marshal(ref)
	}
	// A key the registry does not own has no place in its bucket.
	return nil, nil
}

// publishItem writes one key's current value. With known set, have is what
// KV holds now (nil: absent) and nothing is written when it already matches.
func (p *publisher) publishItem(ctx context.Context, it kvItem, have []byte, known bool) error {
	want, err := p.resolve(it)
	if err != nil {
		return fmt.Errorf("read %s: %w", it.key, err)
	}
	// Skipping equal values keeps a restart from rewriting every entry,
	// which would wake every view for nothing. bytes.Equal holds for nil
	// and empty alike, hence the second test.
	if known && bytes.Equal(want, have) && (want == nil) == (have == nil) {
		return nil
	}
	kv := p.registry
	switch {
	case it.walletKey:
		kv = p.walletKeys
	case it.webhook:
		kv = p.webhooks
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if want == nil {
		if known && have == nil {
			return nil
		}
		// A delete leaves a marker that watchers see as a delete, which a
		// view applies by dropping the key or account.
		if err := kv.Delete(cctx, it.key); err != nil {
			return fmt.Errorf("delete %s: %w", it.key, err)
		}
		return nil
	}
	if _, err := kv.Put(cctx, it.key, want); err != nil {
		return fmt.Errorf("put %s: %w", it.key, err)
	}
	return nil
}

// resync makes every bucket equal to the store: it writes what differs and
// deletes what the store does not have, so a change whose publish was lost
// while the registry was down is repaired at the next start.
func (p *publisher) resync(ctx context.Context) error {
	regKeys, addrs, err := p.store.allKeys()
	if err != nil {
		return fmt.Errorf("list store: %w", err)
	}
	hooks, err := p.store.webhookAccounts()
	if err != nil {
		return fmt.Errorf("list store: %w", err)
	}
	// Each bucket in turn. A failure returns at once and run retries the
	// whole resync, which costs little: entries already right are skipped.
	for _, b := range []struct {
		kv      jetstream.KeyValue
		wallet  bool
		webhook bool
		keys    []string
	}{{p.registry, false, false, regKeys}, {p.walletKeys, true, false, addrs}, {p.webhooks, false, true, hooks}} {
		have, err := snapshot(ctx, b.kv)
		if err != nil {
			return err
		}
		// Every key of either side: those the store has (to write when
		// they differ) and those only KV has (to delete, as stale).
		todo := make(map[string]struct{}, len(b.keys)+len(have))
		for _, k := range b.keys {
			todo[k] = struct{}{}
		}
		for k := range have {
			todo[k] = struct{}{}
		}
		for k := range todo {
			if err := p.publishItem(ctx, kvItem{walletKey: b.wallet, webhook: b.webhook, key: k}, have[k], true); err != nil {
				return err
			}
		}
	}
	return nil
}

// snapshot reads every live entry of a bucket.
func snapshot(ctx context.Context, kv jetstream.KeyValue) (map[string][]byte, error) {
	// Generous, since a large registry has many entries to read, but
	// bounded, so that a server that stops answering mid-read fails this
	// resync, which run then retries.
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// A watch rather than listing keys and getting each: one round of
	// messages gives every key with its value, and deleted keys are not
	// sent at all.
	w, err := kv.WatchAll(cctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", kv.Bucket(), err)
	}
	defer w.Stop()
	out := map[string][]byte{}
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return nil, fmt.Errorf("watch %s: ended early", kv.Bucket())
			}
			// The nil entry marks the end of the initial values.
			if e == nil {
				return out, nil
			}
			out[e.Key()] = e.Value()
		case <-cctx.Done():
			return nil, fmt.Errorf("watch %s: %w", kv.Bucket(), cctx.Err())
		}
	}
}

// isNotFound reports an admin API 404, which the publisher reads as "the
// thing is gone": its entry must be deleted, not retried.
func isNotFound(err error) bool {
	var e *apierr.Error
	return errors.As(err, &e) && e.Code == apierr.NotFound
}

// walletItems lists the KV items of stored wallets.
func walletItems(ws []walletRecord) []kvItem {
	out := make([]kvItem, 0, len(ws))
	for _, w := range ws {
		out = append(out, kvItem{walletKey: true, key: w.Address})
	}
	return out
}
