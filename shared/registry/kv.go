// Package registry is the read side of the account manager, shared by every
// role: the layout of the KV buckets the registry role writes, the in-memory
// View that ingress authenticates and lists wallets from, the Keyring that
// hands workers decrypted wallet keys, the webhook book of the dispatcher,
// and the secrets every process derives from the data folder. The registry
// role itself (the bbolt store, the publisher, the admin API) lives in the
// server package below; nothing here writes.
//
// The buckets, each with a single writer (the registry role):
//
//	bus.BucketRegistry (the read model)
//	    account.<id>           {"id","name","created","wallets":[{"address","label","family","spot_active"}],
//	                            "limits":{"sol":{"minute","hour","week"},"evm":{...}},
//	                            "strategy":{"auto_orders":[...]},"webhook":{"url","created"},
//	                            "fee_caps":{"sol":{"max_priority_fee","max_processor_tip","max_jito_tip"}}}
//	                           (fee_caps holds only the families the admin API set)
//	    apikey.<sha256 hex>    {"account_id","family","key_id"}, for live keys only
//	bus.BucketWalletKeys
//	    <address>              the sealed private key (see SealWalletKey)
//	bus.BucketWebhooks
//	    <account id>           {"url","secret","created"}, read by the webhook dispatcher only
package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Read-model keys in bus.BucketRegistry.
const (
	AccountKeyPrefix = "account."
	APIKeyKeyPrefix  = "apikey."
)

// AccountKVKey is the read-model key of an account: account.<id>.
func AccountKVKey(id string) string { return AccountKeyPrefix + id }

// APIKeyKVKey is the read-model key of a live API key: apikey.<sha256 hex>.
func APIKeyKVKey(hashHex string) string { return APIKeyKeyPrefix + hashHex }

// Wallet is a custodial wallet as every process sees it.
type Wallet struct {
	Address    string      `json:"address"`
	Label      string      `json:"label"`
	Family     wire.Family `json:"family"`
	SpotActive bool        `json:"spot_active"`
}

// Limits are the rate-budget figures of one account and family.
type Limits struct {
	Minute int64 `json:"minute"`
	Hour   int64 `json:"hour"`
	Week   int64 `json:"week"`
}

// DefaultLimits apply to every account and family the admin API has not
// given other figures.
var DefaultLimits = Limits{Minute: 60, Hour: 1200, Week: 10000}

// FeeCaps bound what one order of an account may spend on fees, per
// family, so that a careless or hostile value (priority_fee: 5 on a
// 0.01 SOL buy, times 100 wallets) is refused before anything is signed.
// The values are exact decimals, numbers on the wire: on Solana all three
// are SOL; on EVM MaxPriorityFee is gwei and MaxProcessorTip the chain's
// native coin, and MaxJitoTip is empty (Solana only).
type FeeCaps struct {
	MaxPriorityFee  json.Number `json:"max_priority_fee"`
	MaxProcessorTip json.Number `json:"max_processor_tip"`
	MaxJitoTip      json.Number `json:"max_jito_tip,omitempty"`
}

// DefaultFeeCaps are the caps of every account and family the admin API
// has not given other figures.
func DefaultFeeCaps(f wire.Family) FeeCaps {
	if f == wire.FamilyEVM {
		return FeeCaps{MaxPriorityFee: "500", MaxProcessorTip: "0.05"}
	}
	return FeeCaps{MaxPriorityFee: "0.1", MaxProcessorTip: "0.1", MaxJitoTip: "0.1"}
}

// KeyRef is what an API key stands for.
type KeyRef struct {
	AccountID string      `json:"account_id"`
	Family    wire.Family `json:"family"`
	KeyID     string      `json:"key_id"`
}

// AccountDoc is the public view of an account in the read model. It holds no
// secret: no key hash, no sealed key.
type AccountDoc struct {
	ID      string                 `json:"id"`
	Name    string                 `json:"name"`
	Created time.Time              `json:"created"`
	Wallets []Wallet               `json:"wallets"`
	Limits  map[wire.Family]Limits `json:"limits"`
	// FeeCaps holds the families whose caps the admin API set; the others
	// have DefaultFeeCaps.
	FeeCaps  map[wire.Family]FeeCaps `json:"fee_caps,omitempty"`
	Strategy StrategyDoc             `json:"strategy"`
	Webhook  *WebhookDoc             `json:"webhook,omitempty"`
}

// StrategyDoc is the saved Spot strategy as the admin API and the read model
// show it.
type StrategyDoc struct {
	AutoOrders []wire.AutoOrder `json:"auto_orders"`
}

func NewStrategyDoc(aos []wire.AutoOrder) StrategyDoc {
	if aos == nil {
		aos = []wire.AutoOrder{}
	}
	return StrategyDoc{AutoOrders: aos}
}

// WebhookDoc is the public view of a webhook in the read model and the
// admin API: never the secret.
type WebhookDoc struct {
	URL     string    `json:"url"`
	Created time.Time `json:"created"`
}

// WebhookSecretPrefix starts every webhook signing secret.
const WebhookSecretPrefix = "whsec_"

// Webhook is an account's webhook as the dispatcher reads it from
// bus.BucketWebhooks.
type Webhook struct {
	URL     string    `json:"url"`
	Secret  string    `json:"secret"`
	Created time.Time `json:"created"`
	// Since is when the account's webhooks began without a break: a
	// webhook set in place of another keeps its predecessor's. Zero in
	// entries written before it was kept, which Created stands for.
	Since time.Time `json:"since,omitzero"`
}

// WebhookBook gives the webhook dispatcher the accounts' webhooks from its
// in-memory copy of bus.BucketWebhooks, which a watch of the bucket keeps
// (Run): an event costs no read of the bucket, and a webhook set, changed
// or deleted applies to the events the dispatcher takes from the moment
// the watch brings the change, a few milliseconds after it was written.
// Lookups wait until Run has loaded the bucket.
type WebhookBook struct {
	kv  jetstream.KeyValue
	log *slog.Logger

	mu    sync.RWMutex
	hooks map[string]Webhook // by account id

	ready     chan struct{}
	readyOnce sync.Once
}

// NewWebhookBook returns a book over kv (the bus.BucketWebhooks bucket);
// Run fills it.
func NewWebhookBook(kv jetstream.KeyValue, log *slog.Logger) *WebhookBook {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &WebhookBook{kv: kv, log: log.With("component", "webhook book"), hooks: map[string]Webhook{},
		ready: make(chan struct{})}
}

// Run keeps the copy until ctx ends.
func (b *WebhookBook) Run(ctx context.Context) error {
	return bus.Watch(ctx, b.kv, b.log, b.apply, func() { b.readyOnce.Do(func() { close(b.ready) }) })
}

// Ready is closed once the book holds every webhook the bucket had when Run
// started.
func (b *WebhookBook) Ready() <-chan struct{} { return b.ready }

// apply takes one change of the bucket. A webhook that does not decode is
// dropped from the book, and said so: its events are not delivered until
// it is set again.
func (b *WebhookBook) apply(e jetstream.KeyValueEntry) {
	var w Webhook
	if e.Operation() == jetstream.KeyValuePut {
		if err := json.Unmarshal(e.Value(), &w); err != nil {
			b.log.Error("webhook record does not decode; its account gets no deliveries", "account_id", e.Key(), "err", err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if w.URL == "" {
		delete(b.hooks, e.Key())
		return
	}
	b.hooks[e.Key()] = w
}

// bookLoadWait bounds how long a lookup waits for the book to be loaded:
// a dispatcher whose book cannot load hands its events back to be tried
// later, saying why, rather than holding them.
const bookLoadWait = 5 * time.Second

// Webhook returns an account's webhook; ok is false when it has none. It
// waits for the book to be loaded, and fails if that takes longer than
// bookLoadWait or ctx ends first.
func (b *WebhookBook) Webhook(ctx context.Context, accountID string) (w Webhook, ok bool, err error) {
	select {
	case <-b.ready:
	default:
		t := time.NewTimer(bookLoadWait)
		defer t.Stop()
		select {
		case <-b.ready:
		case <-t.C:
			return Webhook{}, false, fmt.Errorf("webhook of %s: the webhooks bucket is not loaded yet", accountID)
		case <-ctx.Done():
			return Webhook{}, false, fmt.Errorf("webhook of %s: the webhooks bucket is not loaded yet: %w", accountID, ctx.Err())
		}
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	w, ok = b.hooks[accountID]
	return w, ok, nil
}

// Target implements events.Targets.
func (b *WebhookBook) Target(ctx context.Context, accountID string) (events.Target, bool, error) {
	w, ok, err := b.Webhook(ctx, accountID)
	since := w.Since
	if since.IsZero() {
		since = w.Created
	}
	return events.Target{URL: w.URL, Secret: w.Secret, Since: since}, ok, err
}

// Backoff grows a pause from 100 ms to 5 s between retries of a KV read or
// write, so a NATS outage is retried without spinning.
type Backoff struct{ d time.Duration }

// NewBackoff returns a Backoff at its shortest pause.
func NewBackoff() *Backoff { return &Backoff{} }

// Reset returns to the shortest pause.
func (b *Backoff) Reset() { b.d = 0 }

// Next grows the pause and returns it.
func (b *Backoff) Next() time.Duration {
	switch {
	case b.d == 0:
		b.d = 100 * time.Millisecond
	case b.d < 5*time.Second:
		b.d *= 2
		if b.d > 5*time.Second {
			b.d = 5 * time.Second
		}
	}
	return b.d
}

// Sleep waits for the next pause; false when ctx ended first.
func (b *Backoff) Sleep(ctx context.Context) bool {
	t := time.NewTimer(b.Next())
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
