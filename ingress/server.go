// Package ingress is the public HTTP API: routes, authentication,
// validation, the rate budget, and publishing an order into the pipeline and
// waiting for its answer.
package ingress

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/httpserver"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/skipclaim"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Directory is what ingress needs of the registry's read model.
type Directory interface {
	// Authenticate resolves a full API key.
	Authenticate(token string) (account string, family wire.Family, ok bool)
	// Listing returns the wallet-listing response body of an account's
	// wallets of a family, ready to write.
	Listing(account string, family wire.Family) []byte
	// SpotWallets lists the addresses with spot_active set, in label order.
	SpotWallets(account string, family wire.Family) []string
	// Wallet reports whether address is one of the account's wallets and
	// returns its canonical spelling.
	Wallet(account string, family wire.Family, address string) (string, bool)
	// Limits returns the account's rate limits for a family.
	Limits(account string, family wire.Family) budget.Limits
	// Strategy returns the account's saved Spot strategy.
	Strategy(account string) []wire.AutoOrder
	// FeeCaps returns the account's fee caps of a family, or the
	// family's defaults (registry.DefaultFeeCaps).
	FeeCaps(account string, family wire.Family) registry.FeeCaps
}

// Budget charges and reports the rate budget.
type Budget interface {
	Charge(ctx context.Context, account string, family wire.Family, lim budget.Limits) (budget.State, error)
	Peek(account string, family wire.Family, lim budget.Limits) budget.State
	// Refund gives back the unit of a granted charge, whose state it was
	// given; see budget.Budget.Refund.
	Refund(ctx context.Context, account string, family wire.Family, lim budget.Limits, charged budget.State) (budget.State, error)
}

// Venues tells whether a venue takes orders: nil when it does, the
// VENUE_PAUSED *apierr.Error to answer when it is paused. A
// *venues.View implements it.
type Venues interface {
	Open(chain, venue string) error
}

// Availability tells whether a chain has a worker.
type Availability interface {
	Available(chain string) bool
}

// Sighting is an Availability that also tells whether a worker of a chain
// was ever seen (Presence): a chain seen is a configured one, whatever
// this process's own file says.
type Sighting interface {
	Seen(chain string) bool
}

// Listener is one public listener.
type Listener struct {
	Addr   string
	Family wire.Family
	// Region is "eu" or "us" on the Solana listeners, "" on EVM.
	Region string
}

// Name is the listener's label in metrics and logs.
func (l Listener) Name() string {
	if l.Region != "" {
		return string(l.Family) + "_" + l.Region
	}
	return string(l.Family)
}

func (l Listener) orderPrefix() string {
	if l.Family == wire.FamilyEVM {
		return "evm-"
	}
	return l.Region + "-"
}

// Config configures ingress.
type Config struct {
	Listeners []Listener
	// TLS, when set, serves every listener over TLS.
	TLS            *tls.Config
	RequestTimeout time.Duration
	// JobMaxAge is how long a job may wait for a worker and still run (the
	// workers' setting; 0: their default), which skip_if_bought's claims
	// count a holder without a record live for.
	JobMaxAge time.Duration
	// DrainTimeout is how long a stop lets the orders in flight wait for
	// their answers (5 s when zero, at most RequestTimeout): then they are
	// answered 504 UPSTREAM_TIMEOUT with their order_id and go on without
	// the request, so that the whole process stops within 10 s whatever a
	// chain's node does.
	DrainTimeout       time.Duration
	DefaultSlippagePct float64
	// Chains are the chains whose orders the process serves: their order
	// counters exist at 0 from the start.
	Chains []string
	// TakesTips reports whether an EVM chain has somewhere to pay a
	// processor_tip (a bundle relay's tip address); nil: every chain does.
	// A tip on a chain that has none is refused before the charge.
	TakesTips func(chain string) bool
	// PrivateRelay reports whether an EVM chain has a private relay to
	// send an anti_mev order to; nil: every chain does. anti_mev on a
	// chain that has none is refused before the charge.
	PrivateRelay func(chain string) bool
}

// Deps are ingress's collaborators.
type Deps struct {
	Directory Directory
	Budget    Budget
	Chains    Availability
	Pipeline  *Pipeline
	// Orders is the orders bucket; ingress reads and writes it only
	// through an orders.Store.
	Orders jetstream.KeyValue
	Trades jetstream.KeyValue
	// Backlog refuses work for a chain whose queue is past its bound; nil
	// turns the check off.
	Backlog *Backlog
	// Idempotency keeps answers to requests with an Idempotency-Key; nil
	// turns the header off.
	Idempotency jetstream.KeyValue
	// IdempotencyStream is the stream behind Idempotency, where the
	// markers of withdrawn claims are purged (sweepMarker); nil leaves
	// them for the bucket's 24 hours.
	IdempotencyStream jetstream.Stream
	// Ready reports whether the process is ready to take orders.
	Ready func() bool
	// Venues refuses a launch on a paused venue before it is charged; nil
	// turns the check off. Swaps learn their venue in the signer, which
	// refuses them; ingress then gives their charge back.
	Venues Venues
	// Events publishes the failed event of an order ingress fails itself,
	// before any worker had it; nil emits none.
	Events *events.Publisher
}

// Server serves the public listeners.
type Server struct {
	cfg    Config
	deps   Deps
	orders *orders.Store
	// skips are the claims that let one buy with skip_if_bought of a
	// token be in flight for an account at a time.
	skips *skipclaim.Claims
	log   *slog.Logger
	// voiding are the unqueued orders being decided in the background
	// (voidLater); stopping closes when Run's context ends, so that each
	// makes its last try at once and Run returns once they are decided or
	// said to be undecided.
	voiding  sync.WaitGroup
	stopping chan struct{}
	// drained ends, DrainTimeout into a stop, the charges still waiting
	// for a store that does not answer: their requests are answered
	// within the stop (see handler.charge).
	drained context.Context
	drain   context.CancelFunc
	// refusals paces the log lines of orders refused before they were
	// taken.
	refusals refusalLog
	// paused remembers the tokens whose orders a worker just refused for
	// a paused venue.
	paused pausedTokens
	// held counts the charged orders in flight whose units may yet be
	// given back (heldWait).
	held heldUnits
	// full paces the log lines of requests a full store refused.
	full lograte.Warner
	// lns are the listeners Listen bound, one per cfg.Listeners entry.
	lns []net.Listener
}

// Listen binds every listener, so that an address another process holds
// fails the start at once, before anything says the service is up (a
// readiness check that dials the address would reach that process). Run
// binds them itself when Listen was not called.
func (s *Server) Listen() error {
	if s.lns != nil {
		return nil
	}
	var lns []net.Listener
	for _, l := range s.cfg.Listeners {
		ln, err := net.Listen("tcp", l.Addr)
		if err != nil {
			for _, o := range lns {
				_ = o.Close()
			}
			return fmt.Errorf("listen %s (%s): %w", l.Addr, l.Name(), err)
		}
		lns = append(lns, ln)
	}
	s.lns = lns
	return nil
}

// New returns a server.
func New(cfg Config, deps Deps, log *slog.Logger) (*Server, error) {
	if len(cfg.Listeners) == 0 {
		return nil, errors.New("ingress: no listeners")
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = DefaultDrainTimeout
	}
	cfg.DrainTimeout = min(cfg.DrainTimeout, cfg.RequestTimeout)
	// The series of the families served exist from the start, at 0.
	for _, s := range stores {
		metrics.StoreFailures.WithLabelValues(s).Add(0)
	}
	families := map[wire.Family]bool{}
	for _, l := range cfg.Listeners {
		families[l.Family] = true
		for _, w := range []string{"minute", "hour", "week"} {
			metrics.RateLimited.WithLabelValues(string(l.Family), w).Add(0)
		}
	}
	for _, chain := range cfg.Chains {
		ch, ok := chains.Get(chain)
		if !ok || !families[ch.Family] {
			continue
		}
		countFrom0(chain, ch.Family == wire.FamilySol)
	}
	if families[wire.FamilyEVM] {
		// EVM orders that name no chain count under the chain "evm".
		countFrom0(wire.ChainAnyEVM, false)
	}
	store := orders.NewStore(deps.Orders)
	log = log.With("component", "ingress")
	drained, drain := context.WithCancel(context.Background())
	return &Server{cfg: cfg, deps: deps, orders: store, skips: skipclaim.New(deps.Idempotency, store, cfg.RequestTimeout, cfg.JobMaxAge, log), log: log,
		stopping: make(chan struct{}), drained: drained, drain: drain}, nil
}

// countFrom0 makes a chain's order outcome series exist at 0: buys and
// sells, and launches.
func countFrom0(chain string, launches bool) {
	sides := []string{string(wire.Buy), string(wire.Sell)}
	if launches {
		sides = append(sides, wire.KindDeploy)
	}
	for _, side := range sides {
		for _, o := range orderOutcomes {
			metrics.Orders.WithLabelValues(chain, side, o).Add(0)
		}
	}
}

// DefaultDrainTimeout is Config.DrainTimeout's default.
const DefaultDrainTimeout = 5 * time.Second

// Run serves every listener until ctx ends, then shuts down gracefully.
// While it runs, the idempotency bucket's size is on the metrics registry.
func (s *Server) Run(ctx context.Context) error {
	defer registerIdempotencyGauges(s.deps.Idempotency)()
	g, ctx := errgroup.WithContext(ctx)
	// shut is done once every listener has shut down: its requests all
	// answered.
	var shut sync.WaitGroup
	if err := s.Listen(); err != nil {
		return err
	}
	for i, l := range s.cfg.Listeners {
		srv := httpserver.New(s.Handler(l), slog.NewLogLogger(s.log.Handler(), slog.LevelDebug))
		ln := s.lns[i]
		if s.cfg.TLS != nil {
			ln = tls.NewListener(ln, s.cfg.TLS)
		}
		s.log.Info("listening", "listener", l.Name(), "addr", ln.Addr().String(), "tls", s.cfg.TLS != nil)
		g.Go(func() error {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serve %s: %w", l.Name(), err)
			}
			return nil
		})
		shut.Add(1)
		g.Go(func() error {
			defer shut.Done()
			<-ctx.Done()
			sctx, cancel := context.WithTimeout(context.Background(), s.cfg.RequestTimeout+time.Second)
			defer cancel()
			err := srv.Shutdown(sctx)
			if err != nil {
				// What is left past the drain (a client that does not
				// read its answer) is cut off.
				_ = srv.Close()
			}
			return err
		})
	}
	g.Go(func() error {
		<-ctx.Done()
		close(s.stopping)
		// Once every request is answered no void starts any more.
		shut.Wait()
		s.voiding.Wait()
		return nil
	})
	if s.deps.Pipeline != nil {
		g.Go(func() error {
			<-ctx.Done()
			idle := make(chan struct{})
			go func() { shut.Wait(); close(idle) }()
			t := time.NewTimer(s.cfg.DrainTimeout)
			defer t.Stop()
			select {
			case <-t.C:
				s.log.Warn("stopping: orders still waiting for their answers are answered 504 with their order_id, and go on", "after", s.cfg.DrainTimeout)
				s.drain()
				s.deps.Pipeline.Drain()
			case <-idle:
			}
			return nil
		})
	}
	return g.Wait()
}

// Handler returns the HTTP handler of one listener.
func (s *Server) Handler(l Listener) http.Handler {
	r := envelope.Engine(s.log)
	h := &handler{s: s, l: l, name: l.Name(), metrics: metrics.NewRoutes(l.Name())}
	orderRoutes := []string{"/api/v1/swap"}
	if l.Family == wire.FamilySol {
		orderRoutes = append(orderRoutes, "/api/v1/deploy")
	}
	h.metrics.Zero(orderRoutes, answerCodes)
	r.Use(h.observe, func(c *gin.Context) {
		if envelope.EscapedSlash(c) {
			h.rateHeaders(c)
			envelope.Fail(c, apierr.New(apierr.NotFound, "no such path"))
		}
	})
	// 404 and 405 are answered whatever the key, with its account's rate
	// headers when it is one of this host's family, else the defaults.
	r.NoRoute(h.rateHeaders, func(c *gin.Context) {
		envelope.Fail(c, apierr.New(apierr.NotFound, "no such path"))
	})
	r.NoMethod(h.rateHeaders, func(c *gin.Context) {
		envelope.Fail(c, apierr.New(apierr.MethodNotAllowed, "method "+c.Request.Method+" is not allowed on this path"))
	})
	api := r.Group("/", h.authenticate)
	// Every GET answers HEAD too (RFC 9110, section 9.3.2): the same
	// status and headers, the body left out by the server.
	get := func(path string, handlers ...gin.HandlerFunc) {
		api.GET(path, handlers...)
		api.HEAD(path, handlers...)
	}
	get("/ping", h.ping)
	get("/api/v1/wallets", h.wallets)
	api.POST("/api/v1/swap", envelope.RequireJSON(), h.ready, h.idempotent, h.holds, h.swap)
	if l.Family == wire.FamilySol {
		api.POST("/api/v1/deploy", envelope.RequireJSON(), h.ready, h.idempotent, h.holds, h.deploy)
	}
	get("/api/v1/orders/:id", h.order)
	describe, err := openAPIHandler(l, s.cfg.TLS != nil)
	if err != nil {
		// The embedded document decodes (TestOpenAPIDocument), so only a
		// build that broke it gets here: the whole document, then.
		s.log.Error("openapi document of the listener", "listener", l.Name(), "err", err)
		describe = func(c *gin.Context) { c.Data(http.StatusOK, "application/json; charset=utf-8", openAPIDoc) }
	}
	get("/api/v1/openapi.json", describe)
	return r
}

type handler struct {
	s       *Server
	l       Listener
	name    string
	metrics *metrics.Routes
}

const (
	ctxAccount = "tapi.account"
)

// observe returns the request id and records the request's metrics.
func (h *handler) observe(c *gin.Context) {
	start := time.Now()
	envelope.TagRequest(c)
	c.Next()
	h.metrics.Observe(c.FullPath(), c.Writer.Status(), c.Writer.Header().Get(replayedHeader) == "true", time.Since(start))
}

// defaultHeaders sets the rate headers of an unknown account: the default
// limits, full. Answers that know the account overwrite them.
func defaultHeaders(c *gin.Context) {
	budget.StateFor(budget.DefaultLimits, time.Now()).Headers(c.Writer.Header())
}

// rateHeaders sets the rate headers of an answer that needs no key (404,
// 405): the figures of the key's account when the key is one of this
// host's family, as a bot tracking its budget from every answer expects,
// else the defaults. Nothing is charged.
func (h *handler) rateHeaders(c *gin.Context) {
	if token := envelope.Bearer(c); token != "" {
		if account, family, found := h.s.deps.Directory.Authenticate(token); found && family == h.l.Family {
			h.s.deps.Budget.Peek(account, family, h.limits(account)).Headers(c.Writer.Header())
			return
		}
	}
	defaultHeaders(c)
}

// authenticate checks the Bearer key against the listener's family.
func (h *handler) authenticate(c *gin.Context) {
	token := envelope.Bearer(c)
	if token == "" {
		defaultHeaders(c)
		envelope.Fail(c, apierr.New(apierr.Unauthorized, "missing or malformed Authorization: Bearer header"))
		return
	}
	account, family, found := h.s.deps.Directory.Authenticate(token)
	if !found || family != h.l.Family {
		defaultHeaders(c)
		// A key of the other family says so by its own prefix: naming the
		// host it belongs to tells its holder nothing new.
		hosts := map[wire.Family]string{wire.FamilySol: "a Solana host (EU or US)", wire.FamilyEVM: "the EVM host"}
		for other, host := range hosts {
			if other != h.l.Family && strings.HasPrefix(token, registry.APIKeyPrefix+string(other)+"_live_") {
				envelope.Fail(c, apierr.New(apierr.Unauthorized, "an API key of the "+string(other)+" family, which this host does not serve: send it to "+host))
				return
			}
		}
		envelope.Fail(c, apierr.New(apierr.Unauthorized, "unknown or revoked API key for this host"))
		return
	}
	c.Set(ctxAccount, account)
	h.s.deps.Budget.Peek(account, family, h.limits(account)).Headers(c.Writer.Header())
	c.Next()
}

func (h *handler) limits(account string) budget.Limits {
	return h.s.deps.Directory.Limits(account, h.l.Family)
}

func (h *handler) ping(c *gin.Context) {
	envelope.OK(c, http.StatusOK, gin.H{"pong": true})
}

func (h *handler) wallets(c *gin.Context) {
	body := h.s.deps.Directory.Listing(c.GetString(ctxAccount), h.l.Family)
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
}
