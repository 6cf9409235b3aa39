// Package node composes the service's roles into a running process: every
// role in one process for `tradeapi up`, or one role against a NATS URL.
// Each role is a component with a blocking Run(ctx); a node starts them in
// order and stops them in stages (HTTP first, then consumers, then the
// registry and views, then NATS), so in-flight orders are answered before
// the pipeline under them goes away.
package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/ingress"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// NewLogger returns the process logger in the configured format and level.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// stage is a group of components stopped together.
type stage struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	errs   []error
}

func (s *stage) goRun(ctx context.Context, name string, run func(context.Context) error, fail func(error)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := run(ctx); err != nil && !errors.Is(err, context.Canceled) {
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

// Up is a whole service in one process.
type Up struct {
	cfg config.Config
	log *slog.Logger
	out io.Writer

	ready   chan struct{}
	readyOK bool
	mu      sync.Mutex

	// Set once running, for tests and the banner.
	Demo    *registry.Demo
	Secrets registry.Secrets
	Devnet  *soldevnet.Chain
}

// NewUp returns the single-process service. out receives the banner.
func NewUp(cfg config.Config, log *slog.Logger, out io.Writer) *Up {
	return &Up{cfg: cfg, log: log, out: out, ready: make(chan struct{})}
}

// Ready is closed when every listener answers.
func (u *Up) Ready() <-chan struct{} { return u.ready }

func (u *Up) isReady() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.readyOK
}

// Run starts everything and blocks until ctx ends or a component fails,
// then stops everything in stages.
func (u *Up) Run(ctx context.Context) (err error) {
	cfg := u.cfg
	log := u.log
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	secrets, created, err := registry.LoadOrCreateSecrets(cfg.DataDir, cfg.AdminToken, cfg.MasterKey)
	if err != nil {
		return err
	}
	u.Secrets = secrets

	failed := make(chan error, 16)
	fail := func(err error) {
		select {
		case failed <- err:
		default:
		}
	}

	// NATS: the embedded server unless a URL is given.
	var srv *bus.Server
	dial := func(name string) (*nats.Conn, error) { return bus.Dial(cfg.NATS.URL, name, log) }
	if cfg.NATS.URL == "" {
		srv, err = bus.StartServer(bus.ServerConfig{StoreDir: cfg.Path("nats"), Listen: cfg.NATS.Listen,
			SyncAlways: cfg.NATS.SyncAlways}, log)
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		dial = func(name string) (*nats.Conn, error) { return srv.Connect(name) }
	}
	conns := map[string]*nats.Conn{}
	defer func() {
		for _, nc := range conns {
			_ = nc.Drain()
		}
	}()
	connect := func(role string) (*nats.Conn, jetstream.JetStream, error) {
		nc, err := dial("tradeapi-" + role)
		if err != nil {
			return nil, nil, fmt.Errorf("nats connect (%s): %w", role, err)
		}
		conns[role] = nc
		js, err := jetstream.New(nc)
		if err != nil {
			return nil, nil, fmt.Errorf("jetstream (%s): %w", role, err)
		}
		return nc, js, nil
	}
	_, coreJS, err := connect("core")
	if err != nil {
		return err
	}
	if err := bus.Declare(ctx, coreJS, bus.Options{Replicas: cfg.NATS.Replicas}); err != nil {
		return err
	}
	buckets, err := bus.OpenBuckets(ctx, coreJS)
	if err != nil {
		return err
	}

	// Stages, stopped in reverse order of this list.
	chainsStage := &stage{}
	coreStage := &stage{}
	pipeStage := &stage{}
	httpStage := &stage{}
	var chainsCtx, coreCtx, pipeCtx, httpCtx context.Context
	chainsCtx, chainsStage.cancel = context.WithCancel(context.Background())
	coreCtx, coreStage.cancel = context.WithCancel(context.Background())
	pipeCtx, pipeStage.cancel = context.WithCancel(context.Background())
	httpCtx, httpStage.cancel = context.WithCancel(context.Background())
	defer func() {
		u.mu.Lock()
		u.readyOK = false
		u.mu.Unlock()
		err = errors.Join(err, httpStage.stop(), pipeStage.stop(), coreStage.stop(), chainsStage.stop())
	}()

	tipAccounts := solworker.DefaultConfig().TipAccounts
	if len(cfg.Solana.TipAccounts) > 0 {
		tipAccounts = nil
		for _, a := range cfg.Solana.TipAccounts {
			k, err := solana.PublicKeyFromBase58(a)
			if err != nil {
				return fmt.Errorf("solana.tip_accounts: %q: %w", a, err)
			}
			tipAccounts = append(tipAccounts, k)
		}
	}

	// Local chains.
	var devnets registry.Devnets
	if cfg.Devnet.Enabled {
		if err := os.MkdirAll(cfg.Path("devnet"), 0o700); err != nil {
			return fmt.Errorf("devnet folder: %w", err)
		}
		chain, err := soldevnet.Open(soldevnet.Config{StateFile: cfg.Path("devnet", "solana.state"),
			Logger: log.With("component", "devnet", "chain", "solana")})
		if err != nil {
			return fmt.Errorf("local solana chain: %w", err)
		}
		u.Devnet = chain
		mux := http.NewServeMux()
		mux.Handle("/solana", chain.Handler())
		ln, err := net.Listen("tcp", cfg.Devnet.Addr)
		if err != nil {
			_ = chain.Close()
			return fmt.Errorf("devnet: listen %s: %w", cfg.Devnet.Addr, err)
		}
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		chainsStage.goRun(chainsCtx, "devnet", func(ctx context.Context) error {
			go func() { <-ctx.Done(); _ = hs.Close() }()
			err := hs.Serve(ln)
			// Close saves the chain's state for the next start.
			if cerr := chain.Close(); cerr != nil {
				log.Error("save local solana chain", "err", cerr)
			}
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		}, fail)
		log.Info("local solana chain listening", "url", "http://"+ln.Addr().String()+"/solana")
		devnets = registry.LocalDevnets(ln.Addr().String())
		// Tip accounts exist on the real cluster; give the local one the same.
		for _, k := range tipAccounts {
			if chain.Balance(k) == 0 {
				chain.Airdrop(k, soldevnet.MinimumBalanceForRentExemption(0))
			}
		}
	}

	// Registry and the views over it.
	_, regJS, err := connect("registry")
	if err != nil {
		return err
	}
	var devnet registry.Devnet
	if devnets != nil {
		devnet = devnets
	}
	reg, err := registry.New(registry.Config{DataDir: cfg.DataDir, AdminAddr: cfg.Listen.Admin}, regJS, secrets, devnet, log)
	if err != nil {
		return err
	}
	coreStage.goRun(coreCtx, "registry", reg.Run, fail)
	if err := waitFor(ctx, reg.Ready(), failed, "registry"); err != nil {
		return err
	}
	view := registry.NewView(buckets.Registry, log)
	coreStage.goRun(coreCtx, "registry view", view.Run, fail)
	bud := budget.New(buckets.Budget, log)
	coreStage.goRun(coreCtx, "budget", bud.Run, fail)
	if err := waitFor(ctx, view.Ready(), failed, "registry view"); err != nil {
		return err
	}
	demo, err := reg.EnsureDemo(ctx, devnet)
	if err != nil {
		return fmt.Errorf("demo account: %w", err)
	}
	u.Demo = demo

	// Workers and the broadcaster.
	solRPC := NewSolanaRPC(cfg.SolanaRPC(), cfg.Solana.RPCTimeout)
	keyring := registry.NewKeyring(buckets.WalletKeys, secrets.MasterKey)
	wnc, wjs, err := connect("worker-solana")
	if err != nil {
		return err
	}
	scfg := solworker.DefaultConfig()
	scfg.ComputeUnitLimit = cfg.Solana.ComputeUnitLimit
	scfg.RPCTimeout = cfg.Solana.RPCTimeout
	scfg.TipAccounts = tipAccounts
	signer := solworker.NewSigner(solRPC, keyring, scfg, log)
	w := workers.New(workers.Config{Chain: wire.ChainSolana, Concurrency: cfg.Pipeline.WorkersPerChain,
		JobMaxAge: cfg.Pipeline.JobMaxAge}, wnc, wjs, buckets, signer, log)
	pipeStage.goRun(pipeCtx, "worker solana", w.Run, fail)
	bnc, bjs, err := connect("broadcaster")
	if err != nil {
		return err
	}
	br := broadcaster.New(broadcaster.Config{Poll: cfg.Solana.ConfirmPoll, ConfirmAfter: cfg.Solana.ConfirmTimeout},
		bnc, bjs, buckets, map[string]broadcaster.Chain{wire.ChainSolana: broadcaster.NewSolana(solRPC, false)}, log)
	pipeStage.goRun(pipeCtx, "broadcaster", br.Run, fail)

	// Ingress.
	inc, ijs, err := connect("ingress")
	if err != nil {
		return err
	}
	presence, err := ingress.NewPresence(inc, presenceTTL)
	if err != nil {
		return err
	}
	defer presence.Close()
	pipeline, err := ingress.NewPipeline(inc, ijs, log)
	if err != nil {
		return err
	}
	defer pipeline.Close()
	backlog := ingress.NewBacklog(ijs, []string{wire.ChainSolana}, cfg.Pipeline.MaxPending, log)
	httpStage.goRun(httpCtx, "backlog", backlog.Run, fail)
	in, err := ingress.New(ingress.Config{
		Listeners: []ingress.Listener{
			{Addr: cfg.Listen.SolEU, Family: wire.FamilySol, Region: "eu"},
			{Addr: cfg.Listen.SolUS, Family: wire.FamilySol, Region: "us"},
			{Addr: cfg.Listen.EVM, Family: wire.FamilyEVM},
		},
		RequestTimeout:     cfg.Pipeline.RequestTimeout,
		DefaultSlippagePct: cfg.Pipeline.DefaultSlippagePct,
	}, ingress.Deps{
		Directory:   ingress.RegistryDirectory(view),
		Budget:      bud,
		Chains:      presence,
		Pipeline:    pipeline,
		Orders:      buckets.Orders,
		Trades:      buckets.Trades,
		Idempotency: buckets.Idempotency,
		Backlog:     backlog,
	}, log)
	if err != nil {
		return err
	}
	httpStage.goRun(httpCtx, "ingress", in.Run, fail)
	httpStage.goRun(httpCtx, "metrics", func(ctx context.Context) error {
		return ServeMetrics(ctx, cfg.Listen.Metrics, u.isReady)
	}, fail)

	if err := waitListening(ctx, cfg.Listen.SolEU, cfg.Listen.SolUS, cfg.Listen.EVM, cfg.Listen.Metrics); err != nil {
		return err
	}
	u.mu.Lock()
	u.readyOK = true
	u.mu.Unlock()
	close(u.ready)
	u.printBanner(created)

	select {
	case <-ctx.Done():
		log.Info("stopping")
		return nil
	case err := <-failed:
		log.Error("component failed, stopping", "err", err)
		return err
	}
}

// presenceTTL is how long a worker's last heartbeat vouches for its chain.
// A worker that stops says so at once; one that dies is noticed after this.
// It is generous so that a busy process whose beats run late is not taken
// for dead.
const presenceTTL = 10 * time.Second

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
func waitListening(ctx context.Context, addrs ...string) error {
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
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// NewSolanaRPC returns a Solana RPC client whose connection pool suits a
// server sending many transactions at once.
func NewSolanaRPC(url string, timeout time.Duration) *rpc.Client {
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 60 * time.Second}).DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	hc := &http.Client{Transport: tr, Timeout: timeout}
	return rpc.NewWithCustomRPCClient(jsonrpc.NewClientWithOpts(url, &jsonrpc.RPCClientOpts{HTTPClient: hc}))
}

// ServeMetrics serves /metrics, /healthz and /readyz until ctx ends.
func ServeMetrics(ctx context.Context, addr string, ready func() bool) error {
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
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: listen %s: %w", addr, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { <-ctx.Done(); _ = hs.Close() }()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (u *Up) printBanner(secretsCreated bool) {
	cfg := u.cfg
	var b strings.Builder
	fmt.Fprintf(&b, "\ntradeapi is up\n")
	fmt.Fprintf(&b, "  solana eu  http://%s\n  solana us  http://%s\n  evm        http://%s\n  admin      http://%s\n  metrics    http://%s/metrics\n",
		cfg.Listen.SolEU, cfg.Listen.SolUS, cfg.Listen.EVM, cfg.Listen.Admin, cfg.Listen.Metrics)
	if cfg.Devnet.Enabled {
		fmt.Fprintf(&b, "  local chains (test doubles) http://%s/solana\n", cfg.Devnet.Addr)
	}
	if secretsCreated && cfg.AdminToken == "" {
		fmt.Fprintf(&b, "\nadmin token (also in %s, mode 0600):\n  %s\n", registry.AdminTokenPath(cfg.DataDir), u.Secrets.AdminToken)
	}
	solKey := "$TRADEAPI_SOL_KEY"
	d := u.Demo
	if d != nil && d.SolKey != "" {
		solKey = d.SolKey
		fmt.Fprintf(&b, "\ndemo account %s; its API keys are shown only now:\n  solana  %s\n  evm     %s\n", d.AccountID, d.SolKey, d.EVMKey)
	} else {
		fmt.Fprintf(&b, "\nthe demo account's API keys were printed at the first start; set TRADEAPI_SOL_KEY to yours\n")
	}
	mint := ""
	if d != nil {
		for _, t := range d.Tokens {
			if t.Chain == wire.ChainSolana && t.Venue == "pump_fun" {
				mint = t.Address
			}
		}
	}
	base := "http://" + cfg.Listen.SolEU
	fmt.Fprintf(&b, "\ntry it:\n")
	fmt.Fprintf(&b, "  curl -s -H 'Authorization: Bearer %s' %s/ping\n", solKey, base)
	fmt.Fprintf(&b, "  curl -s -H 'Authorization: Bearer %s' %s/api/v1/wallets\n", solKey, base)
	if mint != "" {
		fmt.Fprintf(&b, "  curl -s -X POST -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' -d '{\"address\":\"%s\",\"side\":\"Buy\",\"amount\":\"0.1\",\"slippage\":10}' %s/api/v1/swap\n", solKey, mint, base)
		fmt.Fprintf(&b, "  curl -s -X POST -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' -d '{\"address\":\"%s\",\"side\":\"Sell\",\"amount\":\"100\",\"slippage\":10}' %s/api/v1/swap\n", solKey, mint, base)
	}
	fmt.Fprintln(&b)
	_, _ = io.WriteString(u.out, b.String())
}
