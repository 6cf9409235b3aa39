// Package server is the registry role: the account manager's back end and
// the only writer of the registry's state. It owns the bbolt file under
// <data>/registry (accounts, wallets with their sealed private keys, API-key
// hashes, spot_active flags, the saved Spot strategy, per-account limits and
// webhooks), publishes every change into the KV read model that the other
// roles read through the registry package, serves the admin API and the
// console, and makes the demo account on the local chains.
//
// Every change is committed to bbolt first and then written to KV; a write
// that fails is retried in the background, and every start resynchronises
// the buckets with the file, so the read model converges on the file whatever
// NATS did meanwhile.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/httpserver"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// DefaultAdminAddr is where the admin API listens unless configured.
const DefaultAdminAddr = "127.0.0.1:8090"

// minAdminToken is the shortest admin token the registry takes without a
// warning; the one it makes is longer.
const minAdminToken = 32

// Config configures the registry.
type Config struct {
	// DataDir is the data folder; the registry keeps its files in
	// <DataDir>/registry.
	DataDir string
	// AdminAddr is the admin API's listen address (DefaultAdminAddr when
	// empty; use port 0 for any free port).
	AdminAddr string
	// PublishWait bounds how long an admin change waits for the read model
	// before it is answered (2 s when zero). The change is committed either
	// way; the read model catches up in the background.
	PublishWait time.Duration
	// AllowLocalWebhooks accepts webhook URLs on loopback and link-local
	// addresses: the local development mode only.
	AllowLocalWebhooks bool
	// TLS, when set, serves the admin API over TLS.
	TLS *tls.Config
	// Explorers maps a chain name to its transaction explorer URL pattern
	// (%s the signature or hash), for the links of the order listing; a
	// chain without one gets no link.
	Explorers map[string]string
	// Venues answers the venue routes (shared/venues.Admin); nil lists no
	// venue and resumes none.
	Venues VenueAdmin
}

// Registry is the registry component.
type Registry struct {
	cfg     Config
	log     *slog.Logger
	secrets registry.Secrets
	// devnet is nil in production: the devnet routes are then not
	// registered at all, so they answer 404 like any unknown path.
	devnet  devnet.Devnet
	store   *store
	pub     *publisher
	handler http.Handler

	ready chan struct{}
	// mu guards addr, which Run sets while tests and the composition root
	// may already be asking for it.
	mu   sync.Mutex
	addr net.Addr
	// closeOnce lets Run and a caller that never ran it both close the
	// store safely.
	closeOnce sync.Once
	closeErr  error
}

// DBPath is the registry's bbolt file under a data folder.
func DBPath(dataDir string) string { return registry.DBPath(dataDir) }

// New opens the registry's store. js is used for the read-model buckets,
// which the caller has declared with bus.Declare; they are opened in Run, so
// NATS may still be unreachable here. devnet may be nil: the devnet admin
// endpoints then do not exist.
func New(cfg Config, js jetstream.JetStream, secrets registry.Secrets, devnet devnet.Devnet, log *slog.Logger) (*Registry, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("registry: no data folder")
	}
	if cfg.AdminAddr == "" {
		cfg.AdminAddr = DefaultAdminAddr
	}
	if cfg.PublishWait <= 0 {
		cfg.PublishWait = 2 * time.Second
	}
	// An empty token would compare equal to an empty Bearer value: the
	// admin API would be open to anyone.
	if secrets.AdminToken == "" {
		return nil, errors.New("registry: no admin token")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("component", "registry")
	if len(secrets.AdminToken) < minAdminToken {
		// Taken as given, but said: the admin API opens every account, its
		// 401s are not slowed down, and a page of another site rebound to
		// this host's address could try tokens from a browser.
		log.Warn("the admin token is short: a guessable token opens every account; give one of 32 characters or more, or let the registry make one",
			"length", len(secrets.AdminToken))
	}
	// The store is opened here rather than in Run, so that a wrong master
	// key or a second registry on the same folder fails at start, before
	// any listener is up.
	st, err := openStore(DBPath(cfg.DataDir), secrets.MasterKey)
	if err != nil {
		return nil, err
	}
	r := &Registry{cfg: cfg, log: log, secrets: secrets, devnet: devnet, store: st,
		pub: newPublisher(st, js, log), ready: make(chan struct{})}
	// Built once: the routes depend only on the configuration, and
	// Handler may serve them before Run (tests do).
	r.handler = r.routes()
	return r, nil
}

// Handler returns the admin API.
func (r *Registry) Handler() http.Handler { return r.handler }

// Ready is closed once the admin API listens and the read model has been
// resynchronised with the store.
func (r *Registry) Ready() <-chan struct{} { return r.ready }

// Addr returns the admin API's listen address, or "" before Run listens.
func (r *Registry) Addr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.addr == nil {
		return ""
	}
	return r.addr.String()
}

// Run serves the admin API and publishes the read model until ctx ends.
// It closes the store before it returns; it returns nil after ctx ends, or
// the error that stopped it, which says what failed and leaves naming the
// registry to its caller (which runs it as "registry").
func (r *Registry) Run(ctx context.Context) error {
	// Closing twice is safe (closeOnce), so an early return still
	// releases the file.
	defer r.Close()
	// Listen before serving, so that a port already taken is Run's error
	// at once, and Addr is known (port 0 picks a free one).
	ln, err := net.Listen("tcp", r.cfg.AdminAddr)
	if err != nil {
		return fmt.Errorf("admin api: %w", err) // net names the address
	}
	if r.cfg.TLS != nil {
		ln = tls.NewListener(ln, r.cfg.TLS)
	}
	r.mu.Lock()
	r.addr = ln.Addr()
	r.mu.Unlock()
	r.log.Info("admin api listening", "addr", ln.Addr().String())

	// A context of its own, so that a failing server also stops the
	// publisher.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Bounded header, body and idle times keep a client that opens
	// connections and never finishes its requests from holding them.
	srv := httpserver.New(r.handler, slog.NewLogLogger(r.log.Handler(), slog.LevelWarn))
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		r.pub.run(ctx, func() { close(r.ready) })
	}()

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-serveErr:
		runErr = fmt.Errorf("serve admin api: %w", err)
	}
	// Shut down in order: stop taking requests (letting those in flight
	// finish their commit), then wait for the publisher, then close the
	// store both were using. A fresh context, since ctx is already done.
	cancel()
	shutCtx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := srv.Shutdown(shutCtx); err != nil {
		_ = srv.Close()
		if runErr == nil {
			runErr = fmt.Errorf("shut down admin api: %w", err)
		}
	}
	<-pubDone
	if err := r.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// Close closes the store. Run calls it; call it directly only when Run was
// never started.
func (r *Registry) Close() error {
	r.closeOnce.Do(func() {
		if err := r.store.close(); err != nil {
			r.closeErr = fmt.Errorf("close store: %w", err)
		}
	})
	return r.closeErr
}

// now is the time stamped on records: UTC, so every record reads the same
// whatever the host's zone, and in whole milliseconds, the precision a
// browser's Date keeps, so the console shows exactly what is stored.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// published waits until a change is in the read model, so that an admin
// answer is seen by every process right after it is received.
func (r *Registry) published(ctx context.Context, seq uint64) bool {
	// Waiting is bounded: with NATS away the change is still committed,
	// and answering success is right, since the publisher will get it
	// out; holding the request for ever would help no one.
	if !r.pub.wait(ctx, seq, r.cfg.PublishWait) {
		// A client that left ends the wait; the read model did not lag.
		if ctx.Err() == nil {
			r.log.Warn("read model lags behind the store; the change is committed and will be published")
		}
		return false
	}
	return true
}

// accountItem is an account's document in the read model.
func accountItem(id string) kvItem { return kvItem{key: registry.AccountKVKey(id)} }

// The methods below are the registry's changes, one per admin verb. Each
// commits to the store, logs the change (ids only, never a secret), marks
// the read-model entries it touched, and waits for them to be published.

// createAccount makes an account.
func (r *Registry) createAccount(ctx context.Context, name string) (accountRecord, error) {
	rec, err := r.store.createAccount(name, now())
	if err != nil {
		return rec, err
	}
	r.log.Info("account created", "account", rec.ID)
	r.published(ctx, r.pub.mark(accountItem(rec.ID)))
	return rec, nil
}

// createKey makes an API key and returns it with the only copy of its
// token. Only the apikey.<hash> entry changes: the account's document
// lists no keys.
func (r *Registry) createKey(ctx context.Context, accountID string, f wire.Family, name string) (keyRecord, string, error) {
	rec, token, err := r.store.createKey(accountID, f, name, now())
	if err != nil {
		return rec, "", err
	}
	r.log.Info("api key created", "account", accountID, "key_id", rec.ID, "family", f)
	r.published(ctx, r.pub.mark(kvItem{key: registry.APIKeyKVKey(rec.Hash)}))
	return rec, token, nil
}

// revokeKey revokes an API key; its apikey.<hash> entry is deleted, and
// waiting for that is what lets the answer promise the key is refused.
// It reports whether the revocation reached the read model the ingresses
// watch: false while NATS is away, when the key keeps working on them
// until it is back (their swaps are refused meanwhile, not their reads).
func (r *Registry) revokeKey(ctx context.Context, accountID, keyID string) (keyRecord, bool, error) {
	rec, err := r.store.revokeKey(accountID, keyID, now())
	if err != nil {
		return rec, false, err
	}
	r.log.Info("api key revoked", "account", accountID, "key_id", keyID)
	return rec, r.published(ctx, r.pub.mark(kvItem{key: registry.APIKeyKVKey(rec.Hash)})), nil
}

// addWallets stores created or imported wallets and publishes their
// sealed keys and the account's new document.
func (r *Registry) addWallets(ctx context.Context, accountID string, f wire.Family, keys []keyMaterial, spotActive, imported bool) ([]walletRecord, error) {
	ws, err := r.store.addWallets(accountID, f, keys, spotActive, imported, r.secrets.MasterKey, now())
	if err != nil {
		return nil, err
	}
	// Counts only: addresses are public, but a log of every address made
	// adds nothing the store does not already hold.
	r.log.Info("wallets added", "account", accountID, "family", f, "count", len(ws), "imported", imported)
	// Wallet keys first: a worker may be asked to sign for a wallet as soon
	// as ingress sees it.
	items := append(walletItems(ws), accountItem(accountID))
	r.published(ctx, r.pub.mark(items...))
	return ws, nil
}

// createWallets generates count new wallets of a family.
func (r *Registry) createWallets(ctx context.Context, accountID string, f wire.Family, count int, spotActive bool) ([]walletRecord, error) {
	// The keys are generated before the store's transaction, so the
	// randomness and the key arithmetic do not hold bbolt's write lock.
	keys := make([]keyMaterial, 0, count)
	for range count {
		km, err := generateKey(f)
		if err != nil {
			return nil, err
		}
		keys = append(keys, km)
	}
	return r.addWallets(ctx, accountID, f, keys, spotActive, false)
}

// setSpotActive switches a wallet on or off for spot trading; the
// account's document carries the flag, so only it is republished.
func (r *Registry) setSpotActive(ctx context.Context, accountID, address string, active bool) (walletRecord, error) {
	w, err := r.store.setSpotActive(accountID, address, active)
	if err != nil {
		return w, err
	}
	r.log.Info("wallet spot_active set", "account", accountID, "address", w.Address, "spot_active", active)
	r.published(ctx, r.pub.mark(accountItem(accountID)))
	return w, nil
}

// setStrategy replaces the saved Spot strategy, which ingress applies to
// every buy that omits auto_orders.
func (r *Registry) setStrategy(ctx context.Context, accountID string, aos []wire.AutoOrder) error {
	_, err := r.store.updateAccount(accountID, func(rec *accountRecord) error {
		rec.Strategy = aos
		return nil
	})
	if err != nil {
		return err
	}
	r.log.Info("strategy saved", "account", accountID, "auto_orders", len(aos))
	r.published(ctx, r.pub.mark(accountItem(accountID)))
	return nil
}

// limitsPatch holds the figures given; nil keeps the current one.
type limitsPatch struct {
	Minute, Hour, Week *int64
}

// setLimits applies a patch to a family's rate-budget figures and returns
// them as they now are.
// windowsOrdered refuses limits under which a window allows more than a
// longer one, naming a figure of the patch: the longer window would bind
// first, and the shorter one's figure would be a lie.
func windowsOrdered(l registry.Limits, p limitsPatch) error {
	pick := func(short string, given bool, long string) string {
		if given {
			return short
		}
		return long
	}
	switch {
	case l.Minute > l.Hour:
		f := pick("minute", p.Minute != nil, "hour")
		return apierr.Invalid(f, "%s: the minute's limit (%d) must not exceed the hour's (%d)", f, l.Minute, l.Hour)
	case l.Hour > l.Week:
		f := pick("hour", p.Hour != nil, "week")
		return apierr.Invalid(f, "%s: the hour's limit (%d) must not exceed the week's (%d)", f, l.Hour, l.Week)
	}
	return nil
}

func (r *Registry) setLimits(ctx context.Context, accountID string, f wire.Family, p limitsPatch) (registry.Limits, error) {
	var out registry.Limits
	_, err := r.store.updateAccount(accountID, func(rec *accountRecord) error {
		// Start from the figures in force, defaults included, so a patch
		// of one window keeps the other two as the operator saw them.
		l := rec.limits(f)
		if p.Minute != nil {
			l.Minute = *p.Minute
		}
		if p.Hour != nil {
			l.Hour = *p.Hour
		}
		if p.Week != nil {
			l.Week = *p.Week
		}
		if err := windowsOrdered(l, p); err != nil {
			return err
		}
		if rec.Limits == nil {
			rec.Limits = map[wire.Family]registry.Limits{}
		}
		rec.Limits[f] = l
		out = l
		return nil
	})
	if err != nil {
		return out, err
	}
	r.log.Info("limits set", "account", accountID, "family", f,
		"minute", out.Minute, "hour", out.Hour, "week", out.Week)
	r.published(ctx, r.pub.mark(accountItem(accountID)))
	return out, nil
}
