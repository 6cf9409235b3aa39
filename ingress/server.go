// Package ingress is the public HTTP API: routes, authentication,
// validation, the rate budget, and publishing an order into the pipeline and
// waiting for its answer.
package ingress

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
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
}

// Budget charges and reports the rate budget.
type Budget interface {
	Charge(ctx context.Context, account string, family wire.Family, lim budget.Limits) (budget.State, error)
	Peek(account string, family wire.Family, lim budget.Limits) budget.State
}

// Availability tells whether a chain has a worker.
type Availability interface {
	Available(chain string) bool
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
	TLS                *tls.Config
	RequestTimeout     time.Duration
	DefaultSlippagePct float64
}

// Deps are ingress's collaborators.
type Deps struct {
	Directory Directory
	Budget    Budget
	Chains    Availability
	Pipeline  *Pipeline
	Orders    jetstream.KeyValue
	Trades    jetstream.KeyValue
	// Backlog refuses work for a chain whose queue is past its bound; nil
	// turns the check off.
	Backlog *Backlog
	// Idempotency keeps answers to requests with an Idempotency-Key; nil
	// turns the header off.
	Idempotency jetstream.KeyValue
	// Ready reports whether the process is ready to take orders.
	Ready func() bool
}

// Server serves the public listeners.
type Server struct {
	cfg  Config
	deps Deps
	log  *slog.Logger
}

// New returns a server.
func New(cfg Config, deps Deps, log *slog.Logger) (*Server, error) {
	if len(cfg.Listeners) == 0 {
		return nil, errors.New("ingress: no listeners")
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	return &Server{cfg: cfg, deps: deps, log: log.With("component", "ingress")}, nil
}

// Run serves every listener until ctx ends, then shuts down gracefully.
func (s *Server) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, l := range s.cfg.Listeners {
		srv := &http.Server{Addr: l.Addr, Handler: s.Handler(l), ReadHeaderTimeout: 5 * time.Second,
			IdleTimeout: 120 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)}
		ln, err := net.Listen("tcp", l.Addr)
		if err != nil {
			return fmt.Errorf("listen %s (%s): %w", l.Addr, l.Name(), err)
		}
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
		g.Go(func() error {
			<-ctx.Done()
			sctx, cancel := context.WithTimeout(context.Background(), s.cfg.RequestTimeout+time.Second)
			defer cancel()
			return srv.Shutdown(sctx)
		})
	}
	return g.Wait()
}

// Handler returns the HTTP handler of one listener.
func (s *Server) Handler(l Listener) http.Handler {
	r := envelope.Engine(s.log)
	h := &handler{s: s, l: l, name: l.Name(), metrics: newRouteMetrics(l.Name())}
	r.Use(h.observe)
	// 404 and 405 are answered before authentication, with the default
	// rate headers.
	r.NoRoute(defaultHeaders, func(c *gin.Context) {
		envelope.Fail(c, apierr.New(apierr.NotFound, "no such path"))
	})
	r.NoMethod(defaultHeaders, func(c *gin.Context) {
		envelope.Fail(c, apierr.New(apierr.MethodNotAllowed, "method "+c.Request.Method+" is not allowed on this path"))
	})
	api := r.Group("/", h.authenticate)
	api.GET("/ping", h.ping)
	api.GET("/api/v1/wallets", h.wallets)
	api.POST("/api/v1/swap", envelope.RequireJSON(), h.idempotent, h.swap)
	if l.Family == wire.FamilySol {
		api.POST("/api/v1/deploy", envelope.RequireJSON(), h.idempotent, h.deploy)
	}
	api.GET("/api/v1/orders/:id", h.order)
	api.GET("/api/v1/openapi.json", OpenAPIHandler)
	return r
}

type handler struct {
	s       *Server
	l       Listener
	name    string
	metrics *routeMetrics
}

const (
	ctxAccount = "tapi.account"
)

// observe returns the request id and records the request's metrics.
func (h *handler) observe(c *gin.Context) {
	start := time.Now()
	rid := c.GetHeader("X-Request-Id")
	if rid == "" || len(rid) > 64 {
		rid = newOrderID("req-")
	}
	c.Writer.Header()["X-Request-Id"] = []string{rid}
	c.Next()
	h.metrics.observe(c.FullPath(), c.Writer.Status(), time.Since(start))
}

// defaultHeaders sets the rate headers of an unknown account: the default
// limits, full. Answers that know the account overwrite them.
func defaultHeaders(c *gin.Context) {
	budget.StateFor(budget.DefaultLimits, time.Now()).Headers(c.Writer.Header())
}

// authenticate checks the Bearer key against the listener's family.
func (h *handler) authenticate(c *gin.Context) {
	auth := c.GetHeader("Authorization")
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		token, ok = strings.CutPrefix(auth, "bearer ")
	}
	token = strings.TrimSpace(token)
	if !ok || token == "" {
		defaultHeaders(c)
		envelope.Fail(c, apierr.New(apierr.Unauthorized, "missing or malformed Authorization: Bearer header"))
		return
	}
	account, family, found := h.s.deps.Directory.Authenticate(token)
	if !found || family != h.l.Family {
		defaultHeaders(c)
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

// swapResult is the data of a successful swap.
type swapResult struct {
	OrderID    string   `json:"order_id"`
	Signatures []string `json:"signatures"`
	Skipped    bool     `json:"skipped"`
}

func (h *handler) swap(c *gin.Context) {
	account := c.GetString(ctxAccount)
	req, aerr := decodeSwap(envelope.ReadBody(c), h.l.Family, h.s.cfg.DefaultSlippagePct)
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	job := req.job
	if aerr := h.resolveWallets(account, req); aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	if !req.autoOrdersSet {
		job.AutoOrders = h.s.deps.Directory.Strategy(account)
	}
	chain := job.Chain
	if chain == "" {
		chain = wire.ChainAnyEVM
	}
	if !h.accepting(c, chain) || !h.charge(c, account) {
		return
	}

	job.OrderID = newOrderID(h.l.orderPrefix())
	h.noteOrder(c, job.OrderID)
	job.AccountID = account
	job.CreatedAt = time.Now().UTC()
	log := h.s.log.With("order_id", job.OrderID, "chain", chain, "side", job.Side,
		"request_id", c.Writer.Header().Get("X-Request-Id"))
	log.Debug("order accepted", "listener", h.name)
	defer logAnswer(log, c)

	if job.Side == wire.Buy && job.SkipIfBought {
		bought, err := h.bought(c.Request.Context(), account, job.Token)
		if err != nil {
			log.Error("read trade history", "err", err)
			envelope.Fail(c, unavailable("the trade history"))
			return
		}
		if bought {
			h.finishSkipped(c, job)
			return
		}
	}

	reply := h.submit(c, chain, job.Side, job.OrderID, job, orderOf(job), log)
	if reply == nil {
		return
	}
	h.countOrder(chain, job.Side, "ok")
	sigs := reply.Signatures
	if sigs == nil {
		sigs = []string{}
	}
	envelope.OK(c, http.StatusOK, swapResult{OrderID: job.OrderID, Signatures: sigs})
}

// submit publishes an accepted order's job beside its pending record and
// waits for its answer. It answers the request itself, and returns nil,
// when the job could not be queued, timed out or was refused; otherwise it
// returns the reply for the caller to answer.
func (h *handler) submit(c *gin.Context, chain string, side wire.Side, orderID string, job any, seed *wire.Order, log *slog.Logger) *wire.Reply {
	ctx, cancel := context.WithTimeout(c.Request.Context(), h.s.cfg.RequestTimeout)
	defer cancel()
	// The pending record is written beside the job, not before it: whoever
	// writes first (this, the worker's refusal or the broadcaster's result)
	// creates the record, and a later create changes nothing.
	stored := make(chan error, 1)
	go func() { stored <- orders.NewStore(h.s.deps.Orders).Create(context.Background(), seed) }()
	start := time.Now()
	reply, err := h.s.deps.Pipeline.Submit(ctx, bus.OrdersSubject(chain), orderID, job)
	if serr := <-stored; serr != nil {
		log.Error("store pending order", "err", serr)
	}
	metrics.Stage.WithLabelValues("end_to_end", chain).Observe(time.Since(start).Seconds())
	switch {
	case err != nil:
		// The job may or may not be in the stream: say so, with the order
		// id, rather than invite a retry that could trade twice.
		log.Error("submit order", "err", err)
		e := apierr.New(apierr.UpstreamTimeout, "the order could not be confirmed as queued in time; look it up by order_id before trying again").WithOrder(orderID)
		if ferr := orders.NewStore(h.s.deps.Orders).Fail(context.Background(), orderID, seed, e); ferr != nil {
			log.Warn("mark unqueued order failed", "err", ferr)
		}
		h.countOrder(chain, side, string(apierr.UpstreamTimeout))
		envelope.Fail(c, e)
	case reply == nil:
		log.Warn("order timed out", "timeout", h.s.cfg.RequestTimeout)
		h.countOrder(chain, side, string(apierr.UpstreamTimeout))
		envelope.Fail(c, apierr.New(apierr.UpstreamTimeout, "the order was accepted but not answered in time; look it up by order_id").WithOrder(orderID))
	case reply.Error != nil:
		e := apierr.FromBody(*reply.Error)
		if e.Status() >= 500 && e.Details == "" {
			e = e.WithOrder(orderID)
		}
		h.countOrder(chain, side, string(e.Code))
		envelope.Fail(c, e)
	default:
		return reply
	}
	return nil
}

// accepting reports whether chain takes orders now: a worker serves it and
// its backlog is under the bound. When not, it answers the request (nothing
// is charged) and returns false.
func (h *handler) accepting(c *gin.Context, chain string) bool {
	if !h.chainServed(chain) {
		envelope.Fail(c, apierr.Newf(apierr.ChainUnavailable, chain, "no worker is serving %s right now; nothing was charged, try again later", chain))
		return false
	}
	if h.s.deps.Backlog.Overloaded(chain) {
		envelope.Fail(c, apierr.Newf(apierr.Overloaded, chain, "%s has more pending orders than it can take; nothing was charged, try again shortly", chain))
		return false
	}
	return true
}

// charge takes one unit of the account's rate budget and sets the rate
// headers; when it cannot, it answers the request and returns false.
func (h *handler) charge(c *gin.Context, account string) bool {
	state, err := h.s.deps.Budget.Charge(c.Request.Context(), account, h.l.Family, h.limits(account))
	if err != nil {
		if e := apierr.From(err); e.Code == apierr.RateLimited {
			state.Headers(c.Writer.Header())
			metrics.RateLimited.WithLabelValues(string(h.l.Family), state.Spent).Inc()
			envelope.Fail(c, e)
			return false
		}
		h.s.log.Warn("rate budget unavailable", "err", err)
		envelope.Fail(c, unavailable("the rate budget"))
		return false
	}
	state.Headers(c.Writer.Header())
	return true
}

// logAnswer writes the one line of an order's answer: info for an error,
// debug for a success.
func logAnswer(log *slog.Logger, c *gin.Context) {
	if code := envelope.Code(c); code != "" {
		log.Info("order answered", "status", c.Writer.Status(), "code", code)
		return
	}
	log.Debug("order answered", "status", c.Writer.Status())
}

func (h *handler) countOrder(chain string, side wire.Side, outcome string) {
	metrics.Orders.WithLabelValues(chain, string(side), outcome).Inc()
}

// chainServed reports whether a worker serves chain. EVM jobs with no chain
// go to the "evm" subject, whose workers resolve the chain.
func (h *handler) chainServed(chain string) bool {
	return h.s.deps.Chains.Available(chain)
}

// resolveWallets turns the request's wallets into legs, checking that every
// wallet is the account's.
func (h *handler) resolveWallets(account string, req *swapRequest) *apierr.Error {
	dir := h.s.deps.Directory
	job := req.job
	if req.wallets == nil {
		spot := dir.SpotWallets(account, h.l.Family)
		if len(spot) == 0 {
			return apierr.New(apierr.NoWallets, "no wallet of the account has spot_active set; name wallets in the request")
		}
		job.Legs = make([]wire.Leg, len(spot))
		for i, a := range spot {
			job.Legs[i] = wire.Leg{Wallet: a, Amount: req.amount}
		}
		return nil
	}
	job.Legs = make([]wire.Leg, len(req.wallets))
	for i, w := range req.wallets {
		canon, ok := dir.Wallet(account, h.l.Family, w.address)
		if !ok {
			return apierr.Newf(apierr.WalletNotOwned, w.address, "wallets[%d].address is not a wallet of this account", i)
		}
		amt := w.amount
		if amt == "" {
			amt = req.amount
		}
		job.Legs[i] = wire.Leg{Wallet: canon, Amount: amt}
	}
	return nil
}

func (h *handler) bought(ctx context.Context, account, token string) (bool, error) {
	_, err := h.s.deps.Trades.Get(ctx, wire.TradeKey(account, h.l.Family, token))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	}
	return false, err
}

func (h *handler) finishSkipped(c *gin.Context, job *wire.SwapJob) {
	now := time.Now().UTC()
	o := orderOf(job)
	o.State = wire.StateConfirmed
	o.Skipped = true
	o.UpdatedAt = now
	if b, err := json.Marshal(o); err == nil {
		if _, err := h.s.deps.Orders.Create(c.Request.Context(), job.OrderID, b); err != nil {
			h.s.log.Warn("store skipped order", "order_id", job.OrderID, "err", err)
		}
	}
	h.countOrder(job.Chain, job.Side, "skipped")
	envelope.OK(c, http.StatusOK, swapResult{OrderID: job.OrderID, Signatures: []string{}, Skipped: true})
}

func orderOf(job *wire.SwapJob) *wire.Order {
	return orders.New(orders.OfSwap(job))
}

// unavailable is the answer when a store the request needs (a KV bucket of
// the budget, the orders, the trades or the idempotency keys) does not
// answer in time: the service is briefly overloaded or failing over, and
// nothing was traded.
func unavailable(what string) *apierr.Error {
	return apierr.New(apierr.Overloaded, what+" did not answer in time; nothing was traded, try again")
}

// orderView is the public view of an order.
type orderView struct {
	OrderID    string           `json:"order_id"`
	Kind       string           `json:"kind"`
	State      string           `json:"state"`
	Chain      string           `json:"chain,omitempty"`
	Side       wire.Side        `json:"side,omitempty"`
	Address    string           `json:"address,omitempty"`
	Skipped    bool             `json:"skipped"`
	Signatures []wire.SigState  `json:"signatures"`
	Error      *apierr.Body     `json:"error,omitempty"`
	AutoOrders []wire.AutoOrder `json:"auto_orders"`
	Route      string           `json:"route,omitempty"`
	Tax        *wire.TaxProbe   `json:"tax,omitempty"`
	// Deploy is a launch's mints and landed transactions.
	Deploy    *wire.DeployResult `json:"deploy,omitempty"`
	CreatedAt time.Time          `json:"created_at"`
	UpdatedAt time.Time          `json:"updated_at"`

	// Positions are a buy's positions, one per wallet, with the state of
	// each exit (armed, firing, fired with its sell's order id, cancelled,
	// failed), as the exits engine keeps them.
	Positions []wire.PositionView `json:"positions,omitempty"`
}

func (h *handler) order(c *gin.Context) {
	id := c.Param("id")
	notFound := apierr.Newf(apierr.NotFound, "order_id", "no order %q on this account", id)
	if !validKey(id) {
		envelope.Fail(c, notFound)
		return
	}
	e, err := h.s.deps.Orders.Get(c.Request.Context(), id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		envelope.Fail(c, notFound)
		return
	}
	if err != nil {
		h.s.log.Warn("read order", "order_id", id, "err", err)
		envelope.Fail(c, unavailable("the order store"))
		return
	}
	var o wire.Order
	if err := json.Unmarshal(e.Value(), &o); err != nil {
		envelope.Fail(c, apierr.Wrap(err, "the order record is damaged"))
		return
	}
	if o.AccountID != c.GetString(ctxAccount) || o.Family != h.l.Family {
		envelope.Fail(c, notFound)
		return
	}
	if o.Signatures == nil {
		o.Signatures = []wire.SigState{}
	}
	if o.AutoOrders == nil {
		o.AutoOrders = []wire.AutoOrder{}
	}
	envelope.OK(c, http.StatusOK, orderView{
		OrderID: o.OrderID, Kind: o.Kind, State: o.State, Chain: o.Chain, Side: o.Side, Address: o.Token,
		Skipped: o.Skipped, Signatures: o.Signatures, Error: o.Error, AutoOrders: o.AutoOrders, Route: o.Route, Tax: o.Tax,
		Deploy: o.Deploy, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, Positions: o.Positions,
	})
}

// validKey reports whether s can be a KV key (and so an order id).
func validKey(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return true
}
