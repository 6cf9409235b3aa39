// Package service is the composition root: it composes the service's roles into a running process: every
// role in one process for `tradeapi up`, or one role against a NATS URL for
// a multi-process deployment. Each role is a component with a blocking
// Run(ctx); the composition root starts them in order and stops them in stages (HTTP
// first, then consumers, then the registry and views, then the local
// chains, then the metrics listener, then NATS), so in-flight orders are
// answered before the pipeline under them goes away, and /readyz answers
// 503 and /metrics the last counters until then.
package service

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/ingress"
	"github.com/tradeapi/tradeapi/shared/atomicfile"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/devnet"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/httpserver"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/registry/server"
	"github.com/tradeapi/tradeapi/shared/skipclaim"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// Roles a process can run.
const (
	RoleDevnet      = "devnet"
	RoleRegistry    = "registry"
	RoleWorker      = "worker"
	RoleBroadcaster = "broadcaster"
	RoleIngress     = "ingress"
	RoleExits       = "exits"
)

// AllRoles is what `tradeapi up` runs; the devnet role only when
// devnet.enabled.
var AllRoles = []string{RoleDevnet, RoleRegistry, RoleWorker, RoleBroadcaster, RoleExits, RoleIngress}

// DefaultNATSURL is where a role process looks for NATS when none is given.
const DefaultNATSURL = "nats://127.0.0.1:4222"

// NewLogger returns the process logger in the configured format and level.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	// JSON writes a time.Duration as nanoseconds; every line gives it as
	// text ("454.8ms"), as the text format and the values logged already
	// as strings do.
	opts.ReplaceAttr = func(_ []string, a slog.Attr) slog.Attr {
		if a.Value.Kind() == slog.KindDuration {
			return slog.String(a.Key, a.Value.Duration().String())
		}
		return a
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// stage is a group of components stopped together.
type stage struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	errs   []error
}

func newStage() *stage {
	s := &stage{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

func (s *stage) goRun(name string, run func(context.Context) error, fail func(error)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		// The component's goroutines carry its role as a profile label
		// (profile.go), so a CPU profile of up splits by role.
		var err error
		labelled(s.ctx, name, func(ctx context.Context) { err = run(ctx) })
		if err != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%s: %w", name, err)
			s.mu.Lock()
			s.errs = append(s.errs, err)
			s.mu.Unlock()
			fail(err)
		}
	}()
}

func (s *stage) stop() error {
	s.cancel()
	s.wg.Wait()
	return errors.Join(s.errs...)
}

// Options choose what a process runs.
type Options struct {
	// Roles to run; empty runs AllRoles (`tradeapi up`), without the local
	// chains when devnet.enabled is false.
	Roles []string
	// Chains the worker role serves; empty serves every configured chain.
	Chains []string
	// Listeners the ingress role serves ("eu", "us", "evm"); empty serves all.
	Listeners []string
}

func (o Options) has(role string) bool {
	for _, r := range o.Roles {
		if r == role {
			return true
		}
	}
	return false
}

// Up is one process of the service: the whole service in one process (every role), or some
// roles of a multi-process deployment.
type Up struct {
	cfg  config.Config
	opts Options
	log  *slog.Logger
	out  io.Writer

	ready   chan struct{}
	readyOK bool
	mu      sync.Mutex

	// Set once running, for tests and the banner.
	Demo      *server.Demo
	Secrets   registry.Secrets
	Devnet    *soldevnet.Chain
	EVMDevnet *evmdevnet.Chains

	// single is `tradeapi up`: every role in this one process.
	single bool

	// Run's state.
	failed chan error
	conns  []*nats.Conn
	// dial opens a connection named name as the NATS user of role.
	dial     func(name, role string) (*nats.Conn, error)
	buckets  *bus.Buckets
	stages   struct{ chains, core, pipe, http, metrics *stage }
	closers  []func()
	tls      *tls.Config
	presence *ingress.Presence
	served   []string       // chains whose workers run in this process
	view     *registry.View // this process's view of the registry, once started
	// venuesKV is the venues bucket (nil where it is not declared) and
	// venues this process's view of it, once started (venues.go).
	venuesKV jetstream.KeyValue
	venues   *venues.View
	// webhooks is the webhook dispatcher's view of the accounts'
	// webhooks, once started.
	webhooks *registry.WebhookBook
}

// NewUp returns the single-process service. out receives the banner.
func NewUp(cfg config.Config, log *slog.Logger, out io.Writer) *Up {
	return New(cfg, Options{}, log, out)
}

// New returns a process running the given roles.
func New(cfg config.Config, opts Options, log *slog.Logger, out io.Writer) *Up {
	single := len(opts.Roles) == 0
	if single {
		for _, r := range AllRoles {
			// With the local chains off, nothing of them runs.
			if r != RoleDevnet || cfg.Devnet.Enabled {
				opts.Roles = append(opts.Roles, r)
			}
		}
	}
	return &Up{cfg: cfg, opts: opts, single: single, log: log, out: out, ready: make(chan struct{}), failed: make(chan error, 16)}
}

// Ready is closed when every listener of the process answers.
func (u *Up) Ready() <-chan struct{} { return u.ready }

// Start runs u in the background and returns once it is ready, or with
// the error that stopped it, or when wait passed. stop cancels it and waits
// up to timeout for the staged shutdown to finish, returning Run's error;
// calling it again returns the same.
func (u *Up) Start(wait time.Duration) (stop func(timeout time.Duration) error, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- u.Run(ctx) }()
	var once sync.Once
	var stopErr error
	stop = func(timeout time.Duration) error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(timeout):
				stopErr = fmt.Errorf("service did not stop within %s", timeout)
			}
		})
		return stopErr
	}
	select {
	case <-u.Ready():
		return stop, nil
	case err := <-done:
		cancel()
		if err == nil {
			err = errors.New("it returned before it was ready")
		}
		return nil, fmt.Errorf("service stopped: %w", err)
	case <-time.After(wait):
		if err := stop(10 * time.Second); err != nil {
			return nil, fmt.Errorf("service not ready within %s, then: %w", wait, err)
		}
		return nil, fmt.Errorf("service not ready within %s", wait)
	}
}

// isReady is /readyz: started and not stopping, and every NATS connection
// up. A role whose NATS server is away answers its orders 503, so a load
// balancer should send them elsewhere meanwhile.
func (u *Up) isReady() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.readyOK {
		return false
	}
	for _, nc := range u.conns {
		if !nc.IsConnected() {
			return false
		}
	}
	return true
}

func (u *Up) fail(err error) {
	select {
	case u.failed <- err:
	default:
	}
}

// connect opens a NATS connection for one role with JetStream on it,
// authenticated as that role's NATS user, so the connection can do only
// what the role does.
func (u *Up) connect(role string) (*nats.Conn, jetstream.JetStream, error) {
	user := u.natsRole(role)
	if user == "" {
		return nil, nil, fmt.Errorf("nats connect (%s): no NATS user for this connection", role)
	}
	nc, err := u.dial("tradeapi-"+role, user)
	if err != nil {
		return nil, nil, fmt.Errorf("nats connect (%s): %w", role, err)
	}
	u.mu.Lock() // /readyz reads them
	u.conns = append(u.conns, nc)
	u.mu.Unlock()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, nil, fmt.Errorf("jetstream (%s): %w", role, err)
	}
	return nc, js, nil
}

// Run starts the node's roles and blocks until ctx ends or a component
// fails, then stops everything in stages.
func (u *Up) Run(ctx context.Context) (err error) {
	cfg := u.cfg
	log := u.log
	// What the configuration cannot serve is refused before anything
	// starts, so an operator sees the missing keys at once.
	if err := u.checkChains(); err != nil {
		return err
	}
	if local, configured := cfg.MixedChains(); local != nil {
		// Most likely a production file that left devnet.enabled at its
		// default: the orders of these chains would trade on test doubles.
		log.Warn("the local chains, test doubles, serve chains beside the configured ones: their orders trade on no public network; "+
			"set devnet.enabled: false, or their rpc_url", "local", strings.Join(local, ","), "configured", strings.Join(configured, ","))
	}
	if cfg.NATS.RolePassword != "" && u.natsRole("core") == bus.RoleAdmin {
		return errors.New("nats.role_password is one role's password: up, and a process of several roles, connect as every role and need the master nats.password (or nats.creds)")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if u.tls, err = cfg.ServerTLS(); err != nil {
		return err
	}

	// NATS: the embedded server for up unless a URL is given; a role
	// process always dials. NATS is a trust boundary: every connection
	// authenticates as its role's user, derived from the deployment's
	// credentials, with only that role's permissions (shared/bus). The
	// embedded server requires them too, so every run of up exercises the
	// same permissions as a multi-process deployment.
	warnLooseSecrets(log, cfg.DataDir)
	given := givenCredentials(cfg)
	if u.needsBus() && cfg.NATS.URL == "" && u.single {
		creds, err := bus.LoadOrCreateCredentials(cfg.DataDir, given)
		if err != nil {
			return err
		}
		srv, err := bus.StartServer(bus.ServerConfig{StoreDir: cfg.Path("nats"), Listen: cfg.NATS.Listen,
			SyncAlways: cfg.NATS.SyncAlways, Credentials: creds}, log)
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		// Its file store is reported with the process's metrics: a full
		// one refuses every order.
		metrics.SetStoreSource(srv)
		defer metrics.SetStoreSource(nil)
		u.dial = func(name, role string) (*nats.Conn, error) {
			if role == bus.RoleAdmin {
				return srv.Connect(name)
			}
			return srv.ConnectAs(role, name)
		}
	} else if u.needsBus() {
		if cfg.NATS.URL == "" {
			cfg.NATS.URL = DefaultNATSURL
			u.cfg.NATS.URL = DefaultNATSURL
		}
		// A role started beside the nats role may start first: it waits for
		// the credentials that role writes under the shared data folder, on
		// its first connection, once its metrics listener is up (/readyz
		// 503 meanwhile).
		var creds bus.Credentials
		var credsErr error
		var credsOnce sync.Once
		u.dial = func(name, role string) (*nats.Conn, error) {
			credsOnce.Do(func() { creds, credsErr = u.awaitCredentials(ctx, given) })
			if credsErr != nil {
				return nil, credsErr
			}
			return bus.Dial(cfg.NATS.URL, name, log, bus.ConnectOptions(role, creds)...)
		}
	}
	defer func() {
		for _, nc := range u.conns {
			_ = nc.Drain()
		}
	}()

	u.stages.chains, u.stages.core, u.stages.pipe, u.stages.http = newStage(), newStage(), newStage(), newStage()
	u.stages.metrics = newStage()
	defer func() {
		u.mu.Lock()
		u.readyOK = false
		u.mu.Unlock()
		err = errors.Join(err, u.stages.http.stop(), u.stages.pipe.stop(), u.stages.core.stop(), u.stages.chains.stop())
		for i := len(u.closers) - 1; i >= 0; i-- {
			u.closers[i]()
		}
		// The metrics listener stops last: through the drain it answers
		// /readyz 503, and Prometheus scrapes the final counters.
		err = errors.Join(err, u.stages.metrics.stop())
	}()

	// The metrics listener comes before the bus, opened here so that an
	// address in use stops the start at once: while the process waits for
	// NATS or for the registry's streams (its NATS credentials at hand),
	// /healthz answers and /readyz says 503 (and Prometheus sees the
	// process) instead of refusing connections.
	metricsLn, err := listenMetrics(cfg.Listen.Metrics, u.tls)
	if err != nil {
		return err
	}
	u.stages.metrics.goRun("metrics", func(ctx context.Context) error {
		return serveMetrics(ctx, metricsLn, u.isReady)
	}, u.fail)
	var listen []string
	if u.opts.has(RoleDevnet) {
		if err := u.startDevnet(); err != nil {
			return err
		}
		listen = append(listen, cfg.Devnet.Addr)
	}
	if u.needsBus() {
		_, coreJS, err := u.connect("core")
		if err != nil {
			return err
		}
		if err := declare(ctx, coreJS, u.natsRole("core"), busOptions(cfg), log); err != nil {
			return err
		}
		defer metrics.RegisterJetStream(coreJS, log)()
		if u.buckets, err = bus.OpenBuckets(ctx, coreJS); err != nil {
			return err
		}
		if err := u.openVenues(ctx, coreJS); err != nil {
			return err
		}
	}
	secretsCreated := false
	if u.opts.has(RoleRegistry) {
		if secretsCreated, err = u.startRegistry(ctx); err != nil {
			return err
		}
		listen = append(listen, cfg.Listen.Admin)
	}
	if u.opts.has(RoleWorker) {
		if err := u.startWorkers(ctx); err != nil {
			return err
		}
	}
	if u.opts.has(RoleBroadcaster) {
		if err := u.startBroadcaster(ctx); err != nil {
			return err
		}
	}
	if u.opts.has(RoleExits) {
		if err := u.startExits(ctx); err != nil {
			return err
		}
	}
	if u.opts.has(RoleIngress) {
		addrs, err := u.startIngress(ctx)
		if err != nil {
			return err
		}
		listen = append(listen, addrs...)
	}
	if err := waitListening(ctx, u.failed, listen...); err != nil {
		return err
	}
	// With workers and ingress in one process, ready means ingress has
	// heard every local worker: no CHAIN_UNAVAILABLE right after start.
	if u.presence != nil {
		deadline := time.Now().Add(15 * time.Second)
		for _, chain := range u.served {
			for !u.presence.Available(chain) && time.Now().Before(deadline) && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	u.mu.Lock()
	u.readyOK = true
	u.mu.Unlock()
	// The banner comes before Start returns: whoever started the service
	// has it (and the admin token's marker is gone) once it is up.
	if u.single {
		u.printBanner(secretsCreated)
	} else {
		log.Info("roles started", "roles", strings.Join(u.opts.Roles, ","))
		// The registry's process shows what no other can: an admin token
		// it made (or one an earlier start made and did not show), the
		// demo keys.
		if secretsCreated || u.Demo != nil && u.Demo.SolKey != "" {
			u.printBanner(secretsCreated)
		}
	}
	close(u.ready)

	select {
	case <-ctx.Done():
		log.Info("stopping")
		return nil
	case err := <-u.failed:
		log.Error("component failed, stopping", "err", err)
		return err
	}
}

// checkChains refuses a process that would run the local chains with
// devnet.enabled false, or workers with nothing to serve: `up` with every
// chain unconfigured and the local chains off, or a worker given a chain
// the configuration does not serve. Errors name the keys to set.
func (u *Up) checkChains() error {
	if u.opts.has(RoleDevnet) && !u.cfg.Devnet.Enabled {
		return errors.New("devnet: the local chains run only with devnet.enabled: true")
	}
	if !u.opts.has(RoleWorker) {
		return nil
	}
	for _, c := range u.opts.Chains {
		if !slices.Contains(wire.EVMChains, c) && c != wire.ChainSolana && c != wire.ChainAnyEVM {
			return fmt.Errorf("worker: unknown chain %q (solana, %s or evm)", c, strings.Join(wire.EVMChains, ", "))
		}
		if !u.cfg.Serves(c) {
			if c == wire.ChainAnyEVM {
				return fmt.Errorf("worker: chain evm serves the configured EVM chains, and none is: set evm.chains.<chain>.rpc_url, or devnet.enabled: true")
			}
			return fmt.Errorf("worker: chain %s is not configured: set %s, or devnet.enabled: true for its local chain", c, config.ChainKey(c))
		}
	}
	return u.cfg.RequireChains()
}

// serving reports whether this process's workers serve chain: the
// configuration serves it and the process was not limited to other chains.
func (u *Up) serving(chain string) bool { return u.cfg.Serves(chain) && u.serves(chain) }

func (u *Up) needsBus() bool {
	return u.opts.has(RoleRegistry) || u.opts.has(RoleWorker) || u.opts.has(RoleBroadcaster) || u.opts.has(RoleIngress) ||
		u.opts.has(RoleExits)
}

// busOptions sizes the streams and buckets as cfg says.
func busOptions(cfg config.Config) bus.Options {
	return bus.Options{Replicas: cfg.NATS.Replicas, MaxBytes: cfg.NATS.StreamMaxBytes()}
}

// declare creates the streams and buckets, retrying while NATS (a cluster
// still forming, a server still starting) is not ready. Only the registry
// (and up's own admin connection) may declare: any other role waits for
// them to exist, so a role started before the registry waits for it
// rather than failing.
func declare(ctx context.Context, js jetstream.JetStream, role string, o bus.Options, log *slog.Logger) error {
	if !bus.CanDeclare(role) {
		return bus.AwaitDeclared(ctx, js, log)
	}
	start := time.Now()
	told := start
	for {
		// Each try declares every stream and bucket: on a busy server
		// that takes a while, and a try cut short starts over.
		dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		err := bus.Declare(dctx, js, o)
		cancel()
		// A bound the store cannot reserve stays so: said at once, not
		// retried for a minute.
		if err == nil || bus.BoundUnreservable(err) || time.Since(start) > time.Minute || ctx.Err() != nil {
			return err
		}
		if time.Since(told) >= 5*time.Second {
			told = time.Now()
			log.Warn("not started yet: declare the streams, will retry", "err", err, "waited", time.Since(start).Round(time.Second).String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// natsRole is the NATS user a connection of this process authenticates
// as: the role whose work the connection carries. The core connection
// binds the buckets every role of the process uses, so it is its one
// role's user in a one-role process (the Procfile's), and the admin
// where one process runs several roles (up), whose trust is their union
// anyway.
func (u *Up) natsRole(conn string) string {
	if conn == "core" {
		var roles []string
		for _, r := range []string{RoleRegistry, RoleWorker, RoleBroadcaster, RoleExits, RoleIngress} {
			if u.opts.has(r) {
				roles = append(roles, r)
			}
		}
		switch {
		case u.single || len(roles) > 1:
			return bus.RoleAdmin
		case len(roles) == 1:
			return roles[0]
		}
		return ""
	}
	switch {
	case conn == "registry":
		return bus.RoleRegistry
	case strings.HasPrefix(conn, "worker"):
		return bus.RoleWorker
	case conn == "broadcaster", conn == "webhooks":
		return bus.RoleBroadcaster
	case strings.HasPrefix(conn, "exits"):
		return bus.RoleExits
	case conn == "ingress":
		return bus.RoleIngress
	}
	return ""
}

// awaitCredentials reads the NATS credentials: the given ones, else those
// the nats role keeps under the data folder, waiting for that file while
// the nats role starts and saying so now and then.
func (u *Up) awaitCredentials(ctx context.Context, given bus.Credentials) (bus.Credentials, error) {
	// Said after a second, then every 10 s.
	wait := time.Second
	for {
		wctx, cancel := context.WithTimeout(ctx, wait)
		wait = 10 * time.Second
		creds, err := bus.AwaitCredentials(wctx, u.cfg.DataDir, given)
		cancel()
		if err == nil || ctx.Err() != nil {
			return creds, err
		}
		if !errors.Is(err, bus.ErrNoCredentials) {
			return creds, err
		}
		u.log.Warn("waiting for the nats credentials", "file", bus.CredentialsPath(u.cfg.DataDir),
			"or", "TRADEAPI_NATS_USER and TRADEAPI_NATS_PASSWORD (or the role's TRADEAPI_NATS_ROLE_PASSWORD), or TRADEAPI_NATS_CREDS")
	}
}

// startDevnet serves the local chains, keeping their state in the data
// folder.
func (u *Up) startDevnet() error {
	cfg, log := u.cfg, u.log
	if err := os.MkdirAll(cfg.Path("devnet"), 0o700); err != nil {
		return fmt.Errorf("devnet folder: %w", err)
	}
	tips := cfg.Solana.Tips()
	// The chains start their own goroutines (slot clocks, block sealing,
	// state saves), which inherit the profile labels of the goroutine that
	// opens them: opened under the devnet's, their work is charged to it.
	var chain *soldevnet.Chain
	var err error
	labelled(context.Background(), "devnet", func(context.Context) {
		chain, err = soldevnet.Open(soldevnet.Config{StateFile: cfg.Path("devnet", "solana.state"),
			TipAccounts: tips, MinBundleTip: cfg.Solana.MinBundleTip,
			Logger: log})
	})
	if err != nil {
		return fmt.Errorf("local solana chain: %w", err)
	}
	u.Devnet = chain
	// Tip accounts exist on the real cluster; give the local one the same.
	for _, k := range tips {
		if chain.Balance(k) == 0 {
			chain.Airdrop(k, soldevnet.MinimumBalanceForRentExemption(0))
		}
	}
	var evmChains *evmdevnet.Chains
	labelled(context.Background(), "devnet", func(context.Context) {
		evmChains, err = evmdevnet.New(evmdevnet.Config{Dir: cfg.Path("devnet", "evm"), Chain: evmdevnet.ChainConfig{
			BlockTime: cfg.Devnet.EVMBlockTime, Logger: log}})
	})
	if err != nil {
		_ = chain.Close()
		return fmt.Errorf("local evm chains: %w", err)
	}
	u.EVMDevnet = evmChains
	mux := http.NewServeMux()
	mux.Handle("/solana", chain.Handler())
	mux.Handle("/solana/bundles", chain.BundleHandler())
	meta, err := metadata.NewLocal(cfg.Path("devnet", "metadata"), "http://"+cfg.Devnet.Addr+"/metadata",
		log.With("component", "devnet", "store", "metadata"))
	if err != nil {
		_ = chain.Close()
		_ = evmChains.Close()
		return err
	}
	mux.Handle("/metadata/", http.StripPrefix("/metadata", meta.Handler()))
	mux.Handle("/evm/", evmChains.Handler())
	// Read-only transaction pages the admin console links signatures to.
	mux.Handle("/solana/tx/", chain.TxViewHandler())
	mux.Handle("/evm/{chain}/tx/{hash}", evmChains.TxViewHandler())
	ln, err := net.Listen("tcp", cfg.Devnet.Addr)
	if err != nil {
		_ = chain.Close()
		_ = evmChains.Close()
		return fmt.Errorf("devnet: listen %s: %w", cfg.Devnet.Addr, err)
	}
	// The service's own clients of the local chains (signers, senders, the
	// tracker) reach this mux in process, not over loopback HTTP: the same
	// handlers answer, without the connection's cost in every order. Only
	// these exact addresses are taken; any other URL is dialled.
	addrs := []string{cfg.Devnet.Addr}
	if a := ln.Addr().String(); a != cfg.Devnet.Addr {
		addrs = append(addrs, a)
	}
	// A call in process runs on a goroutine the endpoint package keeps, not
	// on the server's; it takes the devnet's profile labels, as the
	// server's own goroutines have them, so that a profile of up still
	// charges the local chains' work to them.
	inProcess := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		labelled(r.Context(), "devnet", func(context.Context) { mux.ServeHTTP(w, r) })
	})
	var undos []func()
	unregister := func() {
		for _, undo := range undos {
			undo()
		}
	}
	for _, addr := range addrs {
		undo, err := endpoint.ServeInProcess(addr, inProcess)
		if err != nil {
			unregister()
			_ = ln.Close()
			_ = chain.Close()
			_ = evmChains.Close()
			return fmt.Errorf("devnet: %w", err)
		}
		undos = append(undos, undo)
	}
	// The public listeners' time bounds: a client that stalls its headers
	// or its body holds no connection of the local chains for good.
	hs := httpserver.New(mux, discardLog)
	u.stages.chains.goRun("devnet", func(ctx context.Context) error {
		go func() { <-ctx.Done(); unregister(); _ = hs.Close() }()
		err := hs.Serve(ln)
		unregister()
		// Close saves the chains' state for the next start.
		if cerr := chain.Close(); cerr != nil {
			log.Error("save local solana chain", "err", cerr)
		}
		if cerr := evmChains.Close(); cerr != nil {
			log.Error("stop local evm chains", "err", cerr)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}, u.fail)
	log.Info("local chains listening (test doubles)", "solana", "http://"+ln.Addr().String()+"/solana",
		"evm", "http://"+ln.Addr().String()+"/evm/<chain>")
	return nil
}

// devnets is the registry's client of the local chains that serve chains
// of this configuration (devnet.enabled): a chain configured by its
// rpc_url is not theirs, so the devnet admin routes and the demo never
// fund or create anything on a local chain the service does not trade on.
func (u *Up) devnets() devnet.Devnet {
	local := u.cfg.LocalChains()
	if len(local) == 0 {
		return nil
	}
	all := devnet.AllLocalDevnets(u.cfg.Devnet.Addr)
	maps.DeleteFunc(all, func(chain string, _ devnet.Devnet) bool { return !slices.Contains(local, chain) })
	return all
}

// allLocal reports whether the local chains serve every chain: the
// service trades on test doubles alone, with none of a public network's
// money, so the demo account is made and webhooks may point at loopback.
func (u *Up) allLocal() bool {
	return u.cfg.Devnet.Enabled && len(u.cfg.LocalChains()) == len(u.cfg.ServedChains())
}

// startRegistry runs the registry, its admin API and, on a fresh data
// folder, the demo account.
func (u *Up) startRegistry(ctx context.Context) (secretsCreated bool, err error) {
	cfg, log := u.cfg, u.log
	secrets, created, err := registry.LoadOrCreateSecrets(cfg.DataDir, cfg.AdminToken, cfg.MasterKey)
	if err != nil {
		return false, err
	}
	u.Secrets = secrets
	if t := cfg.AdminToken; t != "" && len(t) < minAdminToken {
		// The token manages every account, wallet imports included; a
		// generated one has 43 random characters.
		log.Warn("the admin token given is short: anyone who guesses it manages every account; give one of 32 characters or more",
			"length", len(t))
	}
	// A first start that fails after making the token would never show it:
	// until a banner has shown it, a marker beside it says it is still to
	// be shown.
	unshown := adminTokenUnshownPath(cfg.DataDir)
	if created {
		if err := os.WriteFile(unshown, nil, 0o600); err != nil {
			log.Warn("mark the admin token as not yet shown", "err", err)
		}
	} else if _, err := os.Stat(unshown); err == nil && cfg.AdminToken == "" {
		created = true
	}
	_, regJS, err := u.connect("registry")
	if err != nil {
		return false, err
	}
	devnet := u.devnets()
	reg, err := server.New(server.Config{DataDir: cfg.DataDir, AdminAddr: cfg.Listen.Admin,
		AllowLocalWebhooks: u.allLocal(), TLS: u.tls, Explorers: cfg.ExplorerTxPatterns(), Venues: u.venueAdmin()},
		regJS, secrets, devnet, log)
	if err != nil {
		return false, err
	}
	u.stages.core.goRun("registry", reg.Run, u.fail)
	u.stages.core.goRun("registry declarations", func(ctx context.Context) error {
		bus.KeepDeclared(ctx, regJS, busOptions(cfg), log)
		return nil
	}, u.fail)
	if err := waitFor(ctx, reg.Ready(), u.failed, "registry"); err != nil {
		return false, err
	}
	if devnet == nil || !u.allLocal() {
		// The demo account is a local-chain convenience: its wallets are
		// funded there and its keys printed. In production an operator
		// makes accounts with the admin API, and so where a chain is
		// configured beside the local ones.
		return created, nil
	}
	keysPath := demoKeysUnshownPath(cfg.DataDir)
	demo, err := u.ensureDemo(ctx, reg, devnet, keysPath)
	if err != nil {
		return false, fmt.Errorf("demo account: %w", err)
	}
	if demo == nil {
		// Made by a start that stopped before its banner showed the keys:
		// they are those it kept, with the wallets and tokens the banner's
		// lines that trade need.
		if k, ok := readDemoKeys(keysPath); ok {
			demo = &server.Demo{AccountID: k.Account, Wallets: k.Wallets, Tokens: k.Tokens, SolKey: k.Sol, EVMKey: k.EVM}
		}
	}
	u.Demo = demo
	return created, nil
}

// ensureDemo makes the demo account, or seeds the local chains an earlier
// start left unseeded, waiting for the local chains as long as it takes (in
// a multi-process deployment they may start later, or be restarting); a
// demo made and seeded before needs nothing of them, so a registry
// restarted while they are away carries on. The demo's API keys exist only
// as hashes once made: a start that dies before its banner would lose them.
// Until a banner has shown them they wait beside the admin token (mode
// 0600), as it does, written before the demo's own transaction commits and
// again with the tokens the seeding made. Nil when there is nothing to do.
func (u *Up) ensureDemo(ctx context.Context, reg *server.Registry, dn devnet.Devnet, keysPath string) (*server.Demo, error) {
	pending, err := reg.DemoPending()
	if err != nil || !pending {
		return nil, err
	}
	if err := waitLocalChains(ctx, endpoint.New("local chains", "http://"+u.cfg.Devnet.Addr+"/solana"), u.log); err != nil {
		return nil, err
	}
	keep := func(d *server.Demo) error {
		b, err := json.Marshal(demoKeys{Account: d.AccountID, Sol: d.SolKey, EVM: d.EVMKey, Wallets: d.Wallets, Tokens: d.Tokens})
		if err != nil {
			return err
		}
		return atomicfile.Write(keysPath, b)
	}
	demo, err := reg.EnsureDemo(ctx, dn, keep)
	if demo == nil {
		return nil, err
	}
	if demo.SolKey == "" {
		// Seeded again after a start that stopped before: its keys are
		// those that start kept.
		if k, ok := readDemoKeys(keysPath); ok && k.Account == demo.AccountID {
			demo.SolKey, demo.EVMKey = k.Sol, k.EVM
		}
	}
	if demo.SolKey == "" {
		return demo, err
	}
	if kerr := keep(demo); kerr != nil {
		u.log.Warn("keep the demo account's tokens with its keys until they are shown", "err", kerr)
	}
	return demo, err
}

// readDemoKeys reads the demo keys a start kept until a banner showed
// them; ok is false when there are none.
func readDemoKeys(path string) (demoKeys, bool) {
	var k demoKeys
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &k) != nil || k.Sol == "" {
		return demoKeys{}, false
	}
	return k, true
}

// minAdminToken is the length under which a given admin token is warned
// of.
const minAdminToken = 32

// demoKeys are the demo account's API keys while no banner has shown them.
type demoKeys struct {
	Account string             `json:"account_id"`
	Sol     string             `json:"sol"`
	EVM     string             `json:"evm"`
	Wallets []registry.Wallet  `json:"wallets,omitempty"`
	Tokens  []server.DemoToken `json:"tokens,omitempty"`
}

// demoKeysUnshownPath holds the demo account's keys until a banner shows
// them (see startRegistry).
func demoKeysUnshownPath(dataDir string) string {
	return filepath.Join(filepath.Dir(registry.AdminTokenPath(dataDir)), "demo_keys.unshown")
}

// masterKey returns the wallet master key for the workers: from the
// environment, or from the registry's file in the data folder, waiting for
// a registry that is still creating it.
func (u *Up) masterKey(ctx context.Context) ([]byte, error) {
	if u.Secrets.MasterKey != nil {
		return u.Secrets.MasterKey, nil
	}
	if u.cfg.MasterKey != "" {
		return registry.ParseMasterKey(u.cfg.MasterKey)
	}
	path := registry.MasterKeyPath(u.cfg.DataDir)
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			return registry.ParseMasterKey(strings.TrimSpace(string(b)))
		}
		if !errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("master key: set TRADEAPI_MASTER_KEY or start the registry first: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// serves reports whether this node's workers serve chain.
func (u *Up) serves(chain string) bool {
	if len(u.opts.Chains) == 0 {
		return true
	}
	for _, c := range u.opts.Chains {
		if c == chain {
			return true
		}
	}
	return false
}

// registryView returns this process's view of the registry, started on
// first use and loaded before it is returned: ingress authenticates from
// it, and the workers check with it that a job's wallets are its
// account's, so neither may start on an empty view.
func (u *Up) registryView(ctx context.Context) (*registry.View, error) {
	if u.view == nil {
		u.view = registry.NewView(u.buckets.Registry, u.log)
		u.stages.core.goRun("registry view", u.view.Run, u.fail)
	}
	if err := waitFor(ctx, u.view.Ready(), u.failed, "registry view"); err != nil {
		return nil, err
	}
	return u.view, nil
}

// startWorkers runs a worker per served chain.
func (u *Up) startWorkers(ctx context.Context) error {
	cfg, log := u.cfg, u.log
	mk, err := u.masterKey(ctx)
	if err != nil {
		return err
	}
	keyring := registry.NewKeyring(u.buckets.WalletKeys, mk)
	if err := keyring.Verify(ctx); err != nil {
		return err
	}
	view, err := u.registryView(ctx)
	if err != nil {
		return err
	}
	// A chain the configuration does not serve gets no worker: its orders
	// are answered CHAIN_UNAVAILABLE, never sent to a local chain.
	if u.serving(wire.ChainSolana) {
		wnc, wjs, err := u.connect("worker-solana")
		if err != nil {
			return err
		}
		// The signer takes its section of the file as decoded. Only the
		// local chain's stand-ins for the keys left empty are filled in,
		// and only when the local chain is the one served.
		signer := solworker.NewSigner(NewSolanaRPC(cfg.SolanaRPC(), cfg.Solana.RPCTimeout), keyring, u.solanaSigner(), log).
			WithSignatureClaims(u.buckets.Signatures).WithSkipClaims(u.skipClaims()).
			WithSaleRecords(u.buckets.Nonces, orders.NewStore(u.buckets.Orders))
		if url := cfg.MetadataUploadURL(); url != "" {
			signer.WithMetadata(metadata.NewHTTPStore(url, cfg.Solana.RPCTimeout))
		}
		// The venues are watched where their orders are signed, and the
		// signer refuses a paused venue's orders.
		if err := u.watchSolanaVenues(ctx, signer); err != nil {
			return err
		}
		w := newWorker(u, wire.ChainSolana, wnc, wjs, signer, view)
		u.stages.pipe.goRun("blockhash solana", signer.Run, u.fail)
		u.stages.pipe.goRun("worker solana", w.Run, u.fail)
	}
	return u.startEVMWorkers(ctx, keyring, view)
}

// skipClaims are the skip_if_bought claims as the signers take them, on
// the resolved mint, by the rules ingress takes them on the request's
// name by.
func (u *Up) skipClaims() *skipclaim.Claims {
	return skipclaim.New(u.buckets.Idempotency, orders.NewStore(u.buckets.Orders), u.cfg.Pipeline.RequestTimeout,
		u.cfg.Pipeline.JobMaxAge, u.log.With("component", "skipclaim")).WithTrades(u.buckets.Trades)
}

// newWorker returns the worker of one chain's subject, checking wallets
// against view.
func newWorker(u *Up, chain string, nc *nats.Conn, js jetstream.JetStream, signer workers.Signer, view *registry.View) *workers.Worker {
	// Readiness waits until ingress has heard the workers of these chains.
	u.mu.Lock()
	u.served = append(u.served, chain)
	u.mu.Unlock()
	return workers.New(workers.Config{Chain: chain, Concurrency: u.cfg.Pipeline.WorkersPerChain,
		JobMaxAge: u.cfg.Pipeline.JobMaxAge, Venues: u.workerVenues(), Local: u.cfg.Local(chain),
		Network: u.cfg.Network(chain)}, nc, js, u.buckets, signer, view, u.log)
}

// startBroadcaster runs the broadcaster over every configured chain, and
// beside it, on its own connection and consumer, the webhook dispatcher.
func (u *Up) startBroadcaster(ctx context.Context) error {
	cfg, log := u.cfg, u.log
	bnc, bjs, err := u.connect("broadcaster")
	if err != nil {
		return err
	}
	chains, err := u.evmBroadcasters(ctx)
	if err != nil {
		return err
	}
	// An unserved Solana gets no sender (its orders never reach a worker),
	// and a configured one never falls back to the local chain's relay.
	if cfg.Serves(wire.ChainSolana) {
		sol := broadcaster.NewSolana(NewSolanaRPC(cfg.SolanaRPC(), cfg.Solana.RPCTimeout), false).WithLog(u.log)
		relay := cfg.Solana.BundleRelayURL
		if relay == "" && cfg.LocalSolana() {
			relay = "http://" + cfg.Devnet.Addr + "/solana/bundles"
		}
		if relay != "" {
			sol = sol.WithBundleRelay(broadcaster.NewBundleRelay(endpoint.New("solana relay", relay), cfg.Solana.RPCTimeout))
		}
		chains[wire.ChainSolana] = sol.WithSenders(solanaSenders(cfg)...)
	}
	br := broadcaster.New(broadcaster.Config{Poll: cfg.Solana.ConfirmPoll, ConfirmAfter: cfg.Solana.ConfirmTimeout, Network: cfg.Network},
		bnc, bjs, u.buckets, chains, log)
	u.stages.pipe.goRun("broadcaster", br.Run, u.fail)

	_, wjs, err := u.connect("webhooks")
	if err != nil {
		return err
	}
	book := registry.NewWebhookBook(u.buckets.Webhooks, log)
	u.webhooks = book
	u.stages.pipe.goRun("webhook book", book.Run, u.fail)
	disp := events.NewDispatcher(events.DispatcherConfig{AllowLocal: u.allLocal()}, wjs,
		u.buckets.WebhookDeliveries, book, log)
	u.stages.pipe.goRun("webhooks", disp.Run, u.fail)
	return nil
}

// startIngress runs the public listeners with their view of the registry.
func (u *Up) startIngress(ctx context.Context) ([]string, error) {
	cfg, log := u.cfg, u.log
	inc, ijs, err := u.connect("ingress")
	if err != nil {
		return nil, err
	}
	view, err := u.registryView(ctx)
	if err != nil {
		return nil, err
	}
	venueGate, err := u.ingressVenues(ctx)
	if err != nil {
		return nil, err
	}
	bud := budget.New(u.buckets.Budget, log, budget.WithTaggedWrites(ijs))
	u.stages.core.goRun("budget", bud.Run, u.fail)
	presence, err := ingress.NewPresence(inc, presenceTTL, cfg.Network, log)
	if err != nil {
		return nil, err
	}
	u.presence = presence
	// The evm catch-all's workers too, when an EVM chain is served: they
	// take the EVM orders that name no chain.
	workerChains := cfg.ServedChains()
	if slices.ContainsFunc(workerChains, func(c string) bool { return slices.Contains(wire.EVMChains, c) }) {
		workerChains = append(slices.Clone(workerChains), wire.ChainAnyEVM)
	}
	u.closers = append(u.closers, func() { _ = presence.Close() }, metrics.RegisterWorkers(workerChains, presence.Count))
	if missing := presence.Await(ctx, cfg.ServedChains(), presenceAwait); len(missing) > 0 {
		log.Info("no worker heard from yet: their orders are refused CHAIN_UNAVAILABLE until one beats", "chains", strings.Join(missing, ","))
	}
	pipeline, err := ingress.NewPipeline(inc, ijs, log)
	if err != nil {
		return nil, err
	}
	pipeline.SetNetworks(cfg.Network)
	u.closers = append(u.closers, func() { _ = pipeline.Close() })
	// Through ingress's own connection, which may purge it.
	idemStream, err := ijs.Stream(ctx, bus.KVStream(bus.BucketIdempotency))
	if err != nil {
		return nil, fmt.Errorf("ingress: the idempotency bucket's stream: %w", err)
	}
	chains := append([]string{wire.ChainSolana, wire.ChainAnyEVM}, wire.EVMChains...)
	backlog := ingress.NewBacklog(ijs, chains, cfg.Pipeline.MaxPending, log)
	u.stages.http.goRun("backlog", backlog.Run, u.fail)

	all := map[string]ingress.Listener{
		"eu":  {Addr: cfg.Listen.SolEU, Family: wire.FamilySol, Region: "eu"},
		"us":  {Addr: cfg.Listen.SolUS, Family: wire.FamilySol, Region: "us"},
		"evm": {Addr: cfg.Listen.EVM, Family: wire.FamilyEVM},
	}
	names := u.opts.Listeners
	if len(names) == 0 {
		names = []string{"eu", "us", "evm"}
	}
	var listeners []ingress.Listener
	var addrs []string
	for _, n := range names {
		l, ok := all[n]
		if !ok {
			return nil, fmt.Errorf("ingress: unknown listener %q (eu, us or evm)", n)
		}
		listeners = append(listeners, l)
		addrs = append(addrs, l.Addr)
	}
	in, err := ingress.New(ingress.Config{
		Listeners:          listeners,
		TLS:                u.tls,
		RequestTimeout:     cfg.Pipeline.RequestTimeout,
		JobMaxAge:          cfg.Pipeline.JobMaxAge,
		DefaultSlippagePct: cfg.Pipeline.DefaultSlippagePct,
		Chains:             cfg.ServedChains(),
		TakesTips: func(chain string) bool {
			_, configured := cfg.EVM.Chains[chain]
			return cfg.EVM.TakesTips(chain, cfg.Devnet.Enabled && !configured)
		},
		PrivateRelay: func(chain string) bool {
			_, configured := cfg.EVM.Chains[chain]
			return cfg.EVM.HasRelay(chain, cfg.Devnet.Enabled && !configured)
		},
	}, ingress.Deps{
		Directory:         ingress.RegistryDirectory(view),
		Budget:            bud,
		Chains:            presence,
		Pipeline:          pipeline,
		Orders:            u.buckets.Orders,
		Trades:            u.buckets.Trades,
		Idempotency:       u.buckets.Idempotency,
		IdempotencyStream: idemStream,
		Backlog:           backlog,
		Ready:             u.isReady,
		Venues:            venueGate,
		Events:            events.NewPublisher(ijs, log),
	}, log)
	if err != nil {
		return nil, err
	}
	if err := in.Listen(); err != nil {
		return nil, fmt.Errorf("ingress: %w", err)
	}
	u.stages.http.goRun("ingress", in.Run, u.fail)
	return addrs, nil
}

// waitHTTP waits until ep's URL accepts a connection. Its error names ep,
// never its URL.
func waitHTTP(ctx context.Context, ep endpoint.Endpoint, limit time.Duration) error {
	addr := strings.TrimPrefix(ep.URL, "http://")
	if i := strings.IndexByte(addr, '/'); i >= 0 {
		addr = addr[:i]
	}
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s does not answer: %w", ep, ep.Clean(err))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitLocalChains waits until the local chains at ep take connections,
// as long as it takes (until ctx ends), logging every few seconds what it
// waits for: in a multi-process deployment they may start after the
// registry, or be restarting.
func waitLocalChains(ctx context.Context, ep endpoint.Endpoint, log *slog.Logger) error {
	for {
		err := waitHTTP(ctx, ep, localChainsLogEvery)
		if err == nil || ctx.Err() != nil {
			return err
		}
		log.Warn("waiting for the local chains to make or seed the demo account", "err", err)
	}
}

// localChainsLogEvery is how often waitLocalChains says it still waits.
const localChainsLogEvery = 5 * time.Second

// presenceTTL is how long a worker's last heartbeat vouches for its chain.
// A worker that stops says so at once; one that dies is noticed after this:
// until then its chain's orders are taken, wait the request timeout, and
// are withdrawn (nothing traded) unless another worker signs them. Workers
// beat every second: four beats may run late, on a busy machine, before a
// live worker is taken for dead (its orders then refused, free).
const presenceTTL = 5 * time.Second

// presenceAwait bounds how long a starting ingress waits to hear from the
// workers of the chains it serves before it takes orders.
const presenceAwait = 500 * time.Millisecond

// waitFor waits for a component's ready channel.
func waitFor(ctx context.Context, ready <-chan struct{}, failed <-chan error, what string) error {
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case <-ready:
		return nil
	case err := <-failed:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("%s not ready after 30s", what)
	}
}

// waitListening waits until every address accepts connections.
func waitListening(ctx context.Context, failed <-chan error, addrs ...string) error {
	deadline := time.Now().Add(10 * time.Second)
	for _, a := range addrs {
		for {
			c, err := net.DialTimeout("tcp", a, 200*time.Millisecond)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("%s does not answer: %w", a, err)
			}
			select {
			case err := <-failed:
				return err
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return nil
}

// solanaSenders are the landing senders of solana.senders. A sender's
// name is its metrics label and names it in errors; its URLs, which may
// carry a key, are never printed (endpoint).
func solanaSenders(cfg config.Config) []broadcaster.Sender {
	var out []broadcaster.Sender
	for _, s := range cfg.Solana.Senders {
		x := broadcaster.Sender{Name: s.Name}
		if s.TransactionsURL != "" {
			x.RPC = endpoint.New(s.TransactionsName(), s.TransactionsURL).SolanaRPC(cfg.Solana.RPCTimeout)
		}
		if s.BundlesURL != "" {
			x.Relay = broadcaster.NewBundleRelay(endpoint.New(s.BundlesName(), s.BundlesURL), cfg.Solana.RPCTimeout)
		}
		out = append(out, x)
	}
	return out
}

// NewSolanaRPC returns the client of the Solana RPC endpoint at url. Its
// errors call it "solana rpc" and carry no part of the URL, which may hold
// a provider's key; its connection pool suits a server sending many
// transactions at once.
func NewSolanaRPC(url string, timeout time.Duration) *rpc.Client {
	return endpoint.New("solana rpc", url).SolanaRPC(timeout)
}

// listenMetrics opens the metrics listener on addr.
func listenMetrics(addr string, tlsCfg *tls.Config) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen %s: %w", addr, err)
	}
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
	}
	return ln, nil
}

// serveMetrics serves /metrics, /healthz and /readyz on ln until ctx ends.
func serveMetrics(ctx context.Context, ln net.Listener, ready func() bool) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", metrics.Handler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !ready() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"ready":false}`))
			return
		}
		_, _ = w.Write([]byte(`{"ready":true}`))
	})
	hs := httpserver.New(mux, discardLog)
	go func() { <-ctx.Done(); _ = hs.Close() }()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// discardLog takes the HTTP servers' own error lines (a client's TLS
// handshake cut short, a malformed request), which say nothing of the
// service.
var discardLog = log.New(io.Discard, "", 0)

// adminTokenUnshownPath marks an admin token made by a start that has not
// shown it yet (see startRegistry).
func adminTokenUnshownPath(dataDir string) string {
	return registry.AdminTokenPath(dataDir) + ".unshown"
}

func (u *Up) printBanner(secretsCreated bool) {
	cfg := u.cfg
	// The listeners' scheme: every one serves TLS when a certificate is
	// configured.
	web := "http://"
	if cfg.TLS.Enabled() {
		web = "https://"
	}
	var b strings.Builder
	if u.single {
		fmt.Fprintf(&b, "\ntradeapi is up\n")
	} else {
		// One role of several processes (the registry, which made the
		// demo account): the listeners are other processes', as configured.
		fmt.Fprintf(&b, "\ntradeapi %s started; the service's listeners, as configured (served by the ingress and metrics processes):\n", strings.Join(u.opts.Roles, ","))
	}
	fmt.Fprintf(&b, "  solana eu  %[1]s%[2]s\n  solana us  %[1]s%[3]s\n  evm        %[1]s%[4]s\n  admin      %[1]s%[5]s (console: %[1]s%[5]s/console/)\n  metrics    %[1]s%[6]s/metrics\n",
		web, cfg.Listen.SolEU, cfg.Listen.SolUS, cfg.Listen.EVM, cfg.Listen.Admin, cfg.Listen.Metrics)
	fmt.Fprintf(&b, "  chains     %s\n", strings.Join(cfg.ServedChains(), ", "))
	if cfg.Devnet.Enabled {
		fmt.Fprintf(&b, "  local chains (test doubles) http://%s/solana and http://%s/evm/<chain>\n", cfg.Devnet.Addr, cfg.Devnet.Addr)
	}
	if local, _ := cfg.MixedChains(); local != nil {
		fmt.Fprintf(&b, "  test doubles serve %s: not a public network (devnet.enabled)\n", strings.Join(local, ", "))
	}
	switch {
	case secretsCreated && cfg.AdminToken == "":
		fmt.Fprintf(&b, "\nadmin token (also in %s, mode 0600):\n  %s\n", registry.AdminTokenPath(cfg.DataDir), u.Secrets.AdminToken)
		defer func() { _ = os.Remove(adminTokenUnshownPath(cfg.DataDir)) }()
	case cfg.AdminToken == "":
		path := registry.AdminTokenPath(cfg.DataDir)
		mode := "mode 0600"
		if m, loose := looseSecret(path); loose {
			mode = fmt.Sprintf("mode %04o, readable by other users: chmod 600 it", m)
		}
		fmt.Fprintf(&b, "\nadmin token: in %s (%s), as at the first start\n", path, mode)
	}
	solKey, evmKey := "$TRADEAPI_SOL_KEY", "$TRADEAPI_EVM_KEY"
	d := u.Demo
	switch {
	case d != nil && d.SolKey != "":
		solKey, evmKey = d.SolKey, d.EVMKey
		fmt.Fprintf(&b, "\ndemo account %s; its API keys are shown only now:\n  solana  %s\n  evm     %s\n", d.AccountID, d.SolKey, d.EVMKey)
		defer func() { _ = os.Remove(demoKeysUnshownPath(cfg.DataDir)) }()
	case !cfg.Devnet.Enabled:
		fmt.Fprintf(&b, "\nthe local chains are off, so there is no demo account: make accounts, wallets and API keys with tradeapi admin\n")
	case !u.allLocal():
		fmt.Fprintf(&b, "\na chain is configured beside the local chains, so there is no demo account: make accounts, wallets and API keys with tradeapi admin\n")
	default:
		fmt.Fprintf(&b, "\nthe demo account's API keys were printed at the first start; set TRADEAPI_SOL_KEY and TRADEAPI_EVM_KEY to yours\n")
	}
	mint, evmToken := "", ""
	if d != nil {
		for _, t := range d.Tokens {
			if t.Chain == wire.ChainSolana && t.Venue == "pump_fun" {
				mint = t.Address
			}
			if t.Chain == wire.ChainBase && t.Venue == "v2" {
				evmToken = t.Address
			}
		}
	}
	base := web + cfg.Listen.SolEU
	curl := "curl -s"
	if cfg.TLS.CertFile != "" {
		// The listeners' own certificate, trusted for these lines alone:
		// most often self-signed, which no system trusts (curl trusts a
		// server certificate given as its authority, chain or not).
		curl += " --cacert " + shellWord(cfg.TLS.CertFile)
	}
	fmt.Fprintf(&b, "\ntry it:\n")
	fmt.Fprintf(&b, "  %s -H \"Authorization: Bearer %s\" %s/ping\n", curl, solKey, base)
	fmt.Fprintf(&b, "  %s -H \"Authorization: Bearer %s\" %s/api/v1/wallets\n", curl, solKey, base)
	if mint != "" {
		fmt.Fprintf(&b, "  %s -X POST -H \"Authorization: Bearer %s\" -H 'Content-Type: application/json' -d '{\"address\":\"%s\",\"side\":\"Buy\",\"amount\":\"0.1\",\"slippage\":10}' %s/api/v1/swap\n", curl, solKey, mint, base)
		fmt.Fprintf(&b, "  %s -X POST -H \"Authorization: Bearer %s\" -H 'Content-Type: application/json' -d '{\"address\":\"%s\",\"side\":\"Sell\",\"amount\":\"100\",\"slippage\":10}' %s/api/v1/swap\n", curl, solKey, mint, base)
	}
	if d != nil && len(d.Wallets) > 0 && d.Wallets[0].Family == wire.FamilySol {
		fmt.Fprintf(&b, "  %s -X POST -H \"Authorization: Bearer %s\" -H 'Content-Type: application/json' -d '{\"wallet_address\":\"%s\",\"metadata\":{\"name\":\"Demo Launch\",\"symbol\":\"DEMO\"},\"configs\":[{\"dex\":\"pump_fun\"}],\"creator_buy_sol_amount\":100000000,\"bundle_mode\":\"packed\"}' %s/api/v1/deploy\n", curl, solKey, d.Wallets[0].Address, base)
	}
	if evmToken != "" {
		fmt.Fprintf(&b, "  %s -X POST -H \"Authorization: Bearer %s\" -H 'Content-Type: application/json' -d '{\"address\":\"%s\",\"chain\":\"base\",\"side\":\"Buy\",\"amount\":\"0.01\",\"slippage\":5}' %s%s/api/v1/swap\n", curl, evmKey, evmToken, web, cfg.Listen.EVM)
	}
	fmt.Fprintln(&b)
	_, _ = io.WriteString(u.out, b.String())
}

// shellWord quotes s for a POSIX shell when it holds more than letters,
// digits and the punctuation of paths.
func shellWord(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,=", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// looseSecret reports whether the secret file at path exists with a mode
// that lets other users than the service's read or write it, and the mode.
func looseSecret(path string) (fs.FileMode, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	m := fi.Mode().Perm()
	return m, m&0o077 != 0
}

// warnLooseSecrets logs, as an error, each secret file of the data folder
// (the admin token, the master key, the NATS credentials) that other users
// may read: the service writes them 0600, and a copy or a chmod that
// loosened one gives away every account, wallet key or NATS role.
func warnLooseSecrets(log *slog.Logger, dataDir string) {
	for _, path := range []string{registry.AdminTokenPath(dataDir), registry.MasterKeyPath(dataDir), bus.CredentialsPath(dataDir)} {
		if m, loose := looseSecret(path); loose {
			log.Error("a secret file is readable by other users than the service's: chmod 600 it", "file", path, "mode", fmt.Sprintf("%04o", m))
		}
	}
}
