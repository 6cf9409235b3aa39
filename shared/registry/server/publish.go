package server

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

func limitsDoc(rec *accountRecord) map[wire.Family]registry.Limits {
	out := make(map[wire.Family]registry.Limits, len(registry.Families))
	for _, f := range registry.Families {
		out[f] = rec.limits(f)
	}
	return out
}

func newAccountDoc(st *accountState) registry.AccountDoc {
	d := registry.AccountDoc{
		ID:       st.rec.ID,
		Name:     st.rec.Name,
		Created:  st.rec.Created,
		Wallets:  make([]registry.Wallet, 0, len(st.wallets)),
		Limits:   limitsDoc(&st.rec),
		Strategy: registry.NewStrategyDoc(st.rec.Strategy),
		Webhook:  newWebhookDoc(st.rec.Webhook),
	}
	for i := range st.wallets {
		d.Wallets = append(d.Wallets, st.wallets[i].public())
	}
	return d
}

// kvItem is one entry of the buckets the registry writes.
type kvItem struct {
	walletKey bool   // bus.BucketWalletKeys when true
	webhook   bool   // bus.BucketWebhooks when true; else bus.BucketRegistry
	key       string // read-model key, the wallet address, or the account id of a webhook
}

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

	mu     sync.Mutex
	dirty  map[kvItem]struct{}
	seq    uint64        // number of marks so far
	done   uint64        // every mark up to this one is in KV
	doneCh chan struct{} // closed when done moves
	wake   chan struct{}

	registry, walletKeys, webhooks jetstream.KeyValue
}

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
		p.log.Warn("read model resync failed, retrying", "err", err)
		if !back.Sleep(ctx) {
			return
		}
	}
	p.log.Info("read model in sync")
	ready()
	back.Reset()
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

func (p *publisher) open(ctx context.Context) error {
	if p.registry != nil && p.walletKeys != nil && p.webhooks != nil {
		return nil
	}
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
	p.mu.Lock()
	batch := p.dirty
	seq := p.seq
	p.dirty = make(map[kvItem]struct{})
	p.mu.Unlock()
	if len(batch) == 0 {
		p.advance(seq)
		return nil
	}
	// Wallet keys first, then accounts, then API keys: a process that sees
	// a key finds its account, and one that sees a wallet can sign for it.
	items := make([]kvItem, 0, len(batch))
	for it := range batch {
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].rank() < items[j].rank() })
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
	if it.walletKey {
		return p.store.sealedKey(it.key)
	}
	if it.webhook {
		w, err := p.store.webhook(it.key)
		if err != nil {
			if isNotFound(err) {
				return nil, nil
			}
			return nil, err
		}
		if w == nil {
			return nil, nil
		}
		return json.Marshal(registry.Webhook{URL: w.URL, Secret: w.Secret, Created: w.Created})
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
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
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
			if e == nil {
				return out, nil
			}
			out[e.Key()] = e.Value()
		case <-cctx.Done():
			return nil, fmt.Errorf("watch %s: %w", kv.Bucket(), cctx.Err())
		}
	}
}

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
