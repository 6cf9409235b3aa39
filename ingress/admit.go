package ingress

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// storeTimeout bounds a write that must happen whatever the client does:
// an order record or an idempotent answer after the charge.
const storeTimeout = 5 * time.Second

// admit turns a request that passed every free check into an order: the
// line between answers that cost nothing and leave nothing behind (before
// it) and answers that were charged and name an order that exists (after
// it). It returns the order id, or answers the request itself and returns
// false.
//
// A client that cancels is never charged and then answered 503: until the
// charge it is simply not charged; from the charge on its cancellation no
// longer counts, the order is published, and its answer (a 504 naming the
// order, if the client went before the reply) is kept for its
// Idempotency-Key like any charged answer.
func (h *handler) admit(c *gin.Context, account string) (string, bool) {
	// A spent budget is refused from the cache before anything is written.
	// The cache may lag the other processes' charges but never runs ahead
	// of them, so this refusal is certain; a bot hammering a spent budget
	// with fresh Idempotency-Keys leaves nothing in the store.
	// A unit this process's orders in flight hold may be given back
	// (heldWait): the refusal waits for them first.
	waitHeld := time.Now().Add(heldWait)
	for {
		seen := h.heldSettles(account)
		state, err := h.s.deps.Budget.Peek(account, h.l.Family, h.limits(account)).Refusal()
		if err == nil {
			break
		}
		if !h.awaitHeld(c, account, &seen, waitHeld) {
			if h.answeredByKey(c) {
				return "", false
			}
			h.refuseRate(c, state, err)
			return "", false
		}
	}
	// The order id is chosen before the charge and held in the key's claim,
	// so that a repeat that outlives this request (its ingress died) finds
	// the order it made, or runs again under the same id.
	orderID, ok := h.claim(c, newOrderID(h.l.orderPrefix()))
	if !ok {
		return "", false
	}
	// One request timeout, from the claim on, covers the charge, the
	// publish and the wait: a live request is answered by then, which is
	// what lets a repeat take a claim older than that (and a grace) for
	// dead.
	c.Set(ctxDeadline, time.Now().Add(h.s.cfg.RequestTimeout))
	// A client that is gone by now is not charged: nothing is published
	// for it, and its claim is withdrawn.
	if err := c.Request.Context().Err(); err != nil {
		envelope.Fail(c, err)
		return "", false
	}
	// The key was looked up when the headers came; a body sent slowly (the
	// listener allows seconds for it) or a wait for the budget may outlast
	// its revocation, which refuses it everywhere within a second. It is
	// looked up again, in memory, as the last thing before the charge.
	if !h.stillKeyed(c, account) {
		return "", false
	}
	// From the charge on the client's cancellation no longer counts (see
	// charge and Pipeline.Submit): a charged request always has its order.
	if !h.charge(c, account, waitHeld) {
		return "", false
	}
	// The order exists from here: every answer names it and is kept.
	h.noteOrder(c, orderID)
	return orderID, true
}

// answeredByKey answers a keyed request refused for a spent budget from
// its key, when another request took the key since this one found it free:
// a repeat that came while its first request was claiming the key, and
// spending the account's last unit, gets that request's answer (waiting
// for it), as any repeat does, not 429 for an order that traded. It reads
// the key only on a refusal, and writes nothing: a key gone stale meanwhile
// is left for a repeat the budget lets through to take over.
func (h *handler) answeredByKey(c *gin.Context) bool {
	st := idemOf(c)
	if st == nil || st.claimed {
		return false
	}
	st.look = true
	defer func() { st.look = false }()
	return h.resolveKey(c, st) == keyAnswered
}

// stillKeyed reports whether the request's API key still names account,
// and otherwise answers it 401, nothing charged nor traded.
func (h *handler) stillKeyed(c *gin.Context, account string) bool {
	if now, family, ok := h.s.deps.Directory.Authenticate(envelope.Bearer(c)); ok && now == account && family == h.l.Family {
		return true
	}
	h.s.log.Info("API key revoked while its request was read; refused before the charge", "account", account)
	// A 401 knows no account: the account's figures, set when the key
	// was taken, give way to the defaults.
	defaultHeaders(c)
	envelope.Fail(c, apierr.New(apierr.Unauthorized, "the API key was revoked while this request was read; nothing was traded"))
	return false
}

const ctxDeadline = "tapi.deadline"

// deadline is when the request's order path must have answered: one
// request timeout after admit began it.
func (h *handler) deadline(c *gin.Context) time.Time {
	if d, ok := c.Get(ctxDeadline); ok {
		return d.(time.Time)
	}
	return time.Now().Add(h.s.cfg.RequestTimeout)
}

// charge takes one unit of the account's rate budget and sets the rate
// headers; when it cannot, it answers the request and returns false. The
// charge does not follow the client's context. It ends at the request's
// deadline, or DrainTimeout into a stop, when the store does not answer
// (503, nothing placed): a charge written after that is given back
// (budget.ErrGivenBack).
func (h *handler) charge(c *gin.Context, account string, waitHeld time.Time) bool {
	ctx, cancel := context.WithDeadline(context.WithoutCancel(c.Request.Context()), h.deadline(c))
	defer cancel()
	defer context.AfterFunc(h.s.drained, cancel)()
	start := time.Now()
	seen := h.heldSettles(account)
	state, err := h.s.deps.Budget.Charge(ctx, account, h.l.Family, h.limits(account))
	metrics.Stage.WithLabelValues("charge", string(h.l.Family)).Observe(time.Since(start).Seconds())
	for err != nil && apierr.From(err).Code == apierr.RateLimited && h.awaitHeld(c, account, &seen, waitHeld) {
		state, err = h.s.deps.Budget.Charge(ctx, account, h.l.Family, h.limits(account))
	}
	if err != nil {
		if e := apierr.From(err); e.Code == apierr.RateLimited {
			h.refuseRate(c, state, e)
			return false
		}
		h.s.log.Warn("rate budget unavailable", "err", err)
		envelope.Fail(c, unavailable("the rate budget", nothingTraded))
		return false
	}
	state.Headers(c.Writer.Header())
	c.Set(ctxCharge, state)
	h.takeHeld(c, account)
	return true
}

const ctxCharge = "tapi.charge"

// refund gives back the charge of a request whose order the pipeline
// refused with an answer that is never charged: 503 VENUE_PAUSED (its
// venue is paused), or 400 INVALID_REQUEST for what only the signer can
// judge (an amount with more decimals than the quote asset has on the
// chain it resolved, an amount that buys no tokens), 503 CHAIN_UNAVAILABLE,
// or 403 WALLET_NOT_OWNED from a worker whose view of the registry differs
// from ingress's for a moment. The rate headers then
// show the budget as it was before the request. The answer is not kept for
// the request's Idempotency-Key either, since only charged answers are:
// the same key runs again as a first request, with a corrected body or
// once the venue trades. A refund that fails leaves the unit charged and
// says so in the log; the answer is not kept all the same, since what it
// answers is never charged.
func (h *handler) refund(c *gin.Context, refused *apierr.Error, log *slog.Logger) {
	v, ok := c.Get(ctxCharge)
	if !ok {
		return
	}
	c.Set(ctxOrderID, "")
	account := c.GetString(ctxAccount)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), storeTimeout)
	defer cancel()
	state, err := h.s.deps.Budget.Refund(ctx, account, h.l.Family, h.limits(account), v.(budget.State))
	if err != nil {
		log.Error("refund the charge of a refused order; the unit stays charged", "code", refused.Code, "reason", refused.Message, "err", err)
		return
	}
	state.Headers(c.Writer.Header())
}

// paused is the VENUE_PAUSED error of an order on chain: of the first of
// needs that is paused, when the order names the venues it needs (a
// launch's dexes), else of the chain when its every venue is paused
// (Solana's four, when what each checks is not there: a cluster without the
// programs), for a swap, whose venue only its worker finds; nil otherwise.
func (h *handler) paused(chain string, needs []string) error {
	if h.s.deps.Venues == nil || chain == wire.ChainAnyEVM {
		return nil
	}
	if len(needs) == 0 {
		return venues.ChainPaused(h.s.deps.Venues, chain)
	}
	for _, v := range needs {
		if err := h.s.deps.Venues.Open(chain, v); err != nil {
			return err
		}
	}
	return nil
}

// refuseRate answers 429 with the state of the spent window.
func (h *handler) refuseRate(c *gin.Context, state budget.State, err error) {
	state.Headers(c.Writer.Header())
	metrics.RateLimited.WithLabelValues(string(h.l.Family), state.Spent).Inc()
	envelope.Fail(c, err)
}

// noteOrder marks the request as charged with an order: its answer is kept
// for its Idempotency-Key, and names the order.
func (h *handler) noteOrder(c *gin.Context, orderID string) {
	c.Set(ctxOrderID, orderID)
	// Beyond the spec: every answer to an accepted order names it, so that a
	// deploy (whose answer carries no order_id) can be looked up too.
	c.Header("X-Order-Id", orderID)
}

const ctxOrderID = "tapi.order"

// submit publishes an accepted order's job beside its pending record and
// waits for its answer. It answers the request itself, and returns nil,
// when the job could not be queued, timed out or was refused; otherwise it
// returns the reply for the caller to answer.
func (h *handler) submit(c *gin.Context, chain string, side wire.Side, orderID string, job any, seed *wire.Order, log *slog.Logger) *wire.Reply {
	// Once its answer is in (and a refused order's unit given back), the
	// order's unit is no longer one that others may wait for.
	defer h.settleHeld(c)
	// A request whose charge used up the whole deadline publishes nothing:
	// its key may be another request's by now.
	deadline := h.deadline(c)
	if !time.Now().Before(deadline) {
		h.expired(c, chain, side, orderID, seed, log)
		return nil
	}
	// The wait for the answer follows the deadline, not the client: a
	// client that hangs up (its own timeout) retries with its
	// Idempotency-Key, and the answer kept for the key is then the
	// order's, not a 504 for a wait that ended when it left.
	ctx, cancel := context.WithDeadline(context.WithoutCancel(c.Request.Context()), deadline)
	defer cancel()
	// The pending record is written once the stream has the job, while
	// its answer is awaited: a record written beside the publish could
	// outlive a job that a crash kept from the stream, and stay pending
	// for ever. Whoever writes first (this, the worker's refusal or the
	// broadcaster's result) creates the record, and a later create changes
	// nothing; a job the stream has reaches a worker, which writes the
	// record if this did not.
	var stored chan error
	queued := func() {
		stored = make(chan error, 1)
		go func() {
			sctx, scancel := context.WithTimeout(context.Background(), storeTimeout)
			defer scancel()
			stored <- h.s.orders.Create(sctx, seed)
		}()
	}
	start := time.Now()
	reply, err := h.s.deps.Pipeline.Submit(ctx, chain, orderID, job, queued)
	if stored != nil {
		if serr := <-stored; serr != nil {
			log.Error("store pending order", "err", serr)
		}
	}
	stage := metrics.StageEndToEnd
	if seed.Kind == wire.KindDeploy {
		stage = metrics.StageDeployEndToEnd
	}
	metrics.Stage.WithLabelValues(stage, chain).Observe(time.Since(start).Seconds())
	switch {
	case err != nil:
		h.unqueued(c, chain, side, orderID, seed, err, log)
		return nil
	case reply == nil:
		// Answered as it stands at the deadline, or as its worker decided
		// it just after.
		if reply = h.unanswered(c, chain, side, orderID, seed, start, deadline, log); reply == nil {
			return nil
		}
	}
	if reply.Error != nil {
		e := apierr.FromBody(*reply.Error)
		switch e.Code {
		case apierr.VenuePaused, apierr.InvalidRequest, apierr.ChainUnavailable, apierr.WalletNotOwned:
			// Answers never charged, the worker's as ingress's own (a
			// wallet the worker's view of the registry does not give the
			// account yet, or no longer): given back, and not kept for
			// the Idempotency-Key, so a retry runs once the views agree.
			h.refund(c, e, log)
		}
		if e.Code == apierr.VenuePaused {
			h.notePaused(c, e.Details)
		}
		if e.Status() >= 500 && e.Details == "" {
			e = e.WithOrder(orderID)
		}
		outcome := string(e.Code)
		if e.Code == apierr.ChainUnavailable {
			outcome = outcomeWorkerUnavailable
		}
		h.countOrder(chain, side, outcome)
		envelope.Fail(c, e)
		return nil
	}
	return reply
}

// unqueued answers an order whose job JetStream never confirmed until the
// deadline. The job may or may not be in the stream (its acknowledgement
// lost), and a worker may run it at any time: the order is left pending,
// answered as one to look up, and decided in the background (voidLater).
func (h *handler) unqueued(c *gin.Context, chain string, side wire.Side, orderID string, seed *wire.Order, err error, log *slog.Logger) {
	log.Error("submit order", "err", err)
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	// The lookup shows it pending meanwhile, not unknown.
	if cerr := h.s.orders.Create(ctx, seed); cerr != nil {
		log.Warn("record unqueued order", "err", cerr)
	}
	h.s.voiding.Add(1)
	go h.voidLater(chain, orderID, seed, log)
	h.countOrder(chain, side, string(apierr.UpstreamTimeout))
	envelope.Fail(c, apierr.New(apierr.UpstreamTimeout, "the order could not be confirmed as queued in time; it shows pending until "+
		"that is known, then failed if it never ran (nothing traded), else as it runs: look it up before trying again").WithOrder(orderID))
}

// voidLater decides an order whose job may not have been queued: once no
// batch of it can be handed on (Pipeline.Void), it is failed, and its bot
// may place it again; when a worker signed it first, the pipeline has it
// and its record moves as for any order. Until one of the two is known
// (NATS is troubled: that is how its publish went unconfirmed) it tries
// again, for as long as a queued job could still run, or until the server
// stops: it then tries once more at once, and says so when that does not
// decide it.
func (h *handler) voidLater(chain, orderID string, seed *wire.Order, log *slog.Logger) {
	defer h.s.voiding.Done()
	chains := voidChains(chain)
	give := time.Now().Add(voidFor)
	last := false
	// again pauses before the next try, false when there is none.
	again := func(try int, what string, err error) bool {
		switch {
		case last:
			log.Error("stopping with an unqueued order undecided: it stays pending, and runs only if its job was queued; look it up",
				"while", what, "err", err)
			return false
		case time.Now().After(give):
			log.Error("an unqueued order stays pending: it runs only if its job was queued; look it up", "while", what, "err", err)
			return false
		}
		log.Warn("unqueued order undecided, will retry", "while", what, "try", try, "err", err)
		select {
		case <-time.After(min(time.Second<<min(try, 4), 10*time.Second)):
		case <-h.s.stopping:
			last = true
		}
		return true
	}
	for try := 0; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		voided, err := h.s.deps.Pipeline.Void(ctx, chains, orderID)
		cancel()
		switch {
		case err == nil && !voided:
			log.Info("unqueued order was queued after all and signed; the pipeline has it")
			return
		case err == nil:
			e := apierr.New(apierr.UpstreamTimeout, "the order was not queued and was not placed: nothing of it was or will be traded").WithOrder(orderID)
			_, ferr := h.failVoided(orderID, seed, e, storeTimeout)
			if ferr == nil {
				log.Info("unqueued order voided: no batch of it can be sent; marked failed")
				return
			}
			// Voided, nothing of it can trade; only its record is behind.
			if !again(try, "marking the voided order failed", ferr) {
				return
			}
			continue
		case errors.Is(err, bus.ErrCannotVoid):
			log.Error("unqueued order left pending: it may run if its job was queued", "err", err)
			return
		}
		if !again(try, "voiding the order", err) {
			return
		}
	}
}

// voidFor is how long an unqueued order's void is tried: longer than a job
// can wait in the stream and then be signed (pipeline.job_max_age, 30 s,
// twice), so that one queued unseen is decided by the race it cannot lose
// twice.
const voidFor = 5 * time.Minute

// expired answers an order whose deadline passed before its job was
// published: its charge took the whole request timeout. Its job is not
// published any more, since a repeat may have taken its key over and run
// it under the same id by now; it is recorded failed unless a record of
// it exists already, which is then left to the request that made it.
func (h *handler) expired(c *gin.Context, chain string, side wire.Side, orderID string, seed *wire.Order, log *slog.Logger) {
	log.Warn("order past its deadline before it was published")
	e := apierr.New(apierr.UpstreamTimeout, "the order could not be queued in time and was not placed; look it up by order_id").WithOrder(orderID)
	o := *seed
	body := e.Body()
	o.State, o.Error = wire.StateFailed, &body
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := h.s.orders.Create(ctx, &o); err != nil {
		log.Warn("record expired order", "err", err)
	} else if stored, err := h.s.orders.Get(ctx, orderID); err == nil && stored.State == wire.StateFailed && len(stored.Signatures) == 0 {
		// Only the record as stored: a repeat of its Idempotency-Key may
		// have taken the order over and run it under the same id, and its
		// record, left to that request, is not this one.
		h.emitFailed(stored)
	}
	h.countOrder(chain, side, string(apierr.UpstreamTimeout))
	envelope.Fail(c, e)
}

// unanswered answers an order that is in the pipeline but whose reply did
// not come before the deadline, and returns nil; or returns the reply its
// worker's decision makes (withdraw), for submit to answer. Past the deadline the order is withdrawn
// when it can still be (withdraw): its bot is then told that nothing of it
// was or will be traded, never left to find it traded after a 504 (a job
// that waited for a worker, none of its chain being left, or behind a
// backlog). An order already signed goes on, and its record will have the
// outcome; so does one whose wait the process's stop cut short.
func (h *handler) unanswered(c *gin.Context, chain string, side wire.Side, orderID string, seed *wire.Order, start, deadline time.Time, log *slog.Logger) *wire.Reply {
	waited := time.Since(start).Round(time.Millisecond)
	stopping := time.Now().Before(deadline)
	switch {
	case stopping:
		// The wait was cut short by the process's stop (see the drain).
		log.Warn("order not answered before the stop", "waited", waited)
	case c.Request.Context().Err() != nil:
		log.Info("client went away while its order was in flight", "waited", waited)
	default:
		log.Warn("order timed out", "waited", waited, "timeout", h.s.cfg.RequestTimeout)
	}
	if !stopping {
		withdrawn, decided := h.withdraw(chain, orderID, seed, log)
		if decided != nil {
			return decided
		}
		if withdrawn {
			h.countOrder(chain, side, string(apierr.UpstreamTimeout))
			envelope.Fail(c, errWithdrawn(orderID))
			return nil
		}
	}
	h.countOrder(chain, side, string(apierr.UpstreamTimeout))
	envelope.Fail(c, apierr.New(apierr.UpstreamTimeout, "the order was accepted but not answered in time; look it up by order_id").WithOrder(orderID))
	return nil
}

// errWithdrawn is the answer to an order withdrawn at its deadline, and
// its record's error.
func errWithdrawn(orderID string) *apierr.Error {
	return apierr.New(apierr.UpstreamTimeout,
		"the order was not signed before the request timed out and was withdrawn: nothing of it was or will be traded").WithOrder(orderID)
}

// withdraw voids an order whose answer did not come in time (see bus.Void),
// so that no batch of it can be handed on any more, and records it failed:
// withdrawn. Its worker may have decided it meanwhile without signing it
// (a refusal, a skipped buy, its answer just after the deadline): decided
// is then the reply its record makes. When a batch of it was handed on
// first (the order was signed, and is being sent), it goes on: neither.
// When the void cannot be told (NATS is troubled) it goes on too, and is
// decided in the background as an unqueued order is (voidLater), so that
// it never stays pending for good. Its bounds keep the 504 within the
// grace a repeat of its Idempotency-Key gives a first request.
func (h *handler) withdraw(chain, orderID string, seed *wire.Order, log *slog.Logger) (withdrawn bool, decided *wire.Reply) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	voided, err := h.s.deps.Pipeline.Void(ctx, voidChains(chain), orderID)
	cancel()
	switch {
	case errors.Is(err, bus.ErrCannotVoid):
		return false, nil
	case err != nil:
		log.Warn("the timed-out order could not be withdrawn yet; it is decided in the background", "err", err)
		h.s.voiding.Add(1)
		go h.voidLater(chain, orderID, seed, log)
		return false, nil
	case !voided:
		log.Info("the timed-out order was signed; it goes on")
		return false, nil
	}
	before, err := h.failVoided(orderID, seed, errWithdrawn(orderID), 2*time.Second)
	if err != nil {
		// Voided, nothing of it can trade; a worker that takes its job
		// records it refused.
		log.Warn("record the withdrawn order failed", "err", err)
	}
	if wire.FinalState(before.State) && len(before.Signatures) == 0 && (before.Error != nil || before.Skipped) {
		log.Info("timed-out order decided by its worker just after the deadline, nothing signed")
		return false, &wire.Reply{OrderID: orderID, Signatures: []string{}, Skipped: before.Skipped, Error: before.Error}
	}
	log.Info("timed-out order withdrawn: no batch of it can be sent; marked failed")
	return true, nil
}

// failVoided records a voided order failed with e, unless it was signed or
// decided already, and returns the record as it was before.
func (h *handler) failVoided(orderID string, seed *wire.Order, e *apierr.Error, timeout time.Duration) (wire.Order, error) {
	body := e.Body()
	var before, after wire.Order
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := h.s.orders.Update(ctx, orderID, seed, func(o *wire.Order) {
		before = *o
		if o.State == wire.StatePending && len(o.Signatures) == 0 {
			o.State, o.Error = wire.StateFailed, &body
		}
		after = *o
	})
	if err == nil && !wire.FinalState(before.State) && after.State == wire.StateFailed {
		h.emitFailed(&after)
	}
	return before, err
}

// emitFailed emits the failed event of an order that ingress failed
// before any worker had it (past its deadline before its job was
// published, or voided when its job could not be told queued): no worker
// or broadcaster emits one, and a bot that follows its orders by webhook
// would wait for it for good. A worker that takes a voided job after all
// emits the same event, which the stream keeps once.
func (h *handler) emitFailed(o *wire.Order) {
	if h.s.deps.Events == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	_ = h.s.deps.Events.Emit(ctx, events.Failed, o)
}

// voidChains are the chains an order's batch may be signed for.
func voidChains(chain string) []string {
	if chain == wire.ChainAnyEVM {
		return wire.EVMChains
	}
	return []string{chain}
}

// accepting reports whether chain takes orders now: a worker serves it and
// its backlog is under the bound. When not, it answers the request (nothing
// is charged) and returns false.
// ready refuses an order at once, free, while the process is not ready
// (Deps.Ready): its NATS connection is down, or it is starting or
// stopping. Every step of an order needs the bus, and each would otherwise
// wait out its own timeout before the order was refused all the same.
func (h *handler) ready(c *gin.Context) {
	if r := h.s.deps.Ready; r != nil && !r() {
		envelope.Fail(c, apierr.New(apierr.Overloaded, "the service cannot take orders right now (its message bus is reconnecting, or it is starting or stopping); nothing was charged, try again shortly"))
	}
}

// notConfigured reports whether the service's configuration leaves chain
// out (Config.Chains names the chains it serves; empty: not known), the
// chain "evm" when it names no EVM chain. A chain a worker of which was
// seen is not: an ingress whose own file lacks a chain's RPC (it needs
// none) would otherwise call its workers' restart for good.
func (s *Server) notConfigured(chain string) bool {
	if len(s.cfg.Chains) == 0 {
		return false
	}
	if seen, ok := s.deps.Chains.(Sighting); ok && seen.Seen(chain) {
		return false
	}
	if chain == wire.ChainAnyEVM {
		return !slices.ContainsFunc(s.cfg.Chains, func(c string) bool { return c != wire.ChainSolana })
	}
	return !slices.Contains(s.cfg.Chains, chain)
}

// accepting refuses at once, free, an order of a chain no worker serves,
// whose venues are paused (needs, when the order names them; see paused)
// or whose queue is full, counted in tradeapi_orders_total under its code
// so that a chain whose workers are all gone shows, and logged at most once
// a second per chain (refusalLog).
func (h *handler) accepting(c *gin.Context, chain string, side wire.Side, needs ...string) bool {
	var e *apierr.Error
	available, paused := h.s.deps.Chains.Available(chain), h.paused(chain, needs)
	switch {
	case !available && h.s.notConfigured(chain):
		// Not a passing outage: retrying will not help. Counted apart from
		// a served chain's outage (outcomeNotConfigured), whose alerts page:
		// a client asking for a chain the deployment leaves out is no
		// outage of it.
		e = apierr.Newf(apierr.ChainUnavailable, chain, "%s is not configured on this service (no RPC endpoint is set for it), so nothing serves it; nothing was charged", chain)
		h.refuseFreeAs(c, chain, side, outcomeNotConfigured, e)
		return false
	case !available:
		e = apierr.Newf(apierr.ChainUnavailable, chain, "no worker is serving %s right now; nothing was charged, try again later", chain)
	case paused != nil:
		// A venue the order needs paused: a worker would refuse the order
		// all the same, after the charge, and while refused orders hold
		// their units a bot retrying the paused chain starved its own
		// orders of others with 429.
		e = apierr.From(paused)
	case h.s.deps.Backlog.Overloaded(chain):
		e = apierr.Newf(apierr.Overloaded, chain, "%s has more pending orders than it can take; nothing was charged, try again shortly", chain)
	default:
		return true
	}
	h.refuseFree(c, chain, side, e)
	return false
}

// refuseFree answers an order refused before it was taken, nothing
// charged: counted in tradeapi_orders_total under its code, and logged at
// most once a second per chain (refusalLog).
func (h *handler) refuseFree(c *gin.Context, chain string, side wire.Side, e *apierr.Error) {
	h.refuseFreeAs(c, chain, side, string(e.Code), e)
}

// outcomeNotConfigured is the tradeapi_orders_total outcome of an order
// for a chain the service is not configured to serve, answered 503
// CHAIN_UNAVAILABLE.
const outcomeNotConfigured = "not_configured"

// outcomeWorkerUnavailable is the tradeapi_orders_total outcome of an
// order a worker took and answered 503 CHAIN_UNAVAILABLE, free: it cannot
// serve that order (a launch with no metadata store configured, a wallet
// key its master key does not open, an EVM sale outrun by the wallet's
// other sales). The chain's workers are there: counted apart from
// CHAIN_UNAVAILABLE, which is no worker heard and pages as the chain's
// outage.
const outcomeWorkerUnavailable = "worker_unavailable"

// refuseFreeAs is refuseFree counted under outcome.
func (h *handler) refuseFreeAs(c *gin.Context, chain string, side wire.Side, outcome string, e *apierr.Error) {
	h.countOrder(chain, side, outcome)
	requestID := c.Writer.Header().Get(envelope.RequestIDHeader)
	line := func(n int) {
		h.s.log.Info("order refused before it was taken, nothing charged", "chain", chain, "side", side, "code", e.Code,
			"request_id", requestID, "refused_since_last_line", n)
	}
	if n, ok := h.s.refusals.noteOr(chain, time.Now(), line); ok {
		line(n)
	}
	envelope.Fail(c, e)
}

// refusalLog lets through one log line a second per chain of the orders
// refused before they were taken: they are free, so a bot retrying at once
// could otherwise write thousands a second. A refusal inside the second is
// held, counted in the next line; when no later refusal comes to write that
// line, a timer (one per chain, armed when the first refusal is held) writes
// it once the second is over, so the last refusals of a burst are logged
// too.
type refusalLog struct {
	mu     sync.Mutex
	chains map[string]*refusals
	// after runs f once d has passed: time.AfterFunc, unless a test sets it.
	after func(d time.Duration, f func())
}

// refusals is the state of one chain's lines.
type refusals struct {
	last time.Time // when its last line was let through
	held int       // refusals since, not yet written
	// line writes the line of the last refusal held, with a count;
	// armed is whether a timer will call flush.
	line  func(n int)
	armed bool
}

// note counts a refusal of chain at now and reports whether to log it,
// with how many were refused since the last line (this one included).
func (r *refusalLog) note(chain string, now time.Time) (int, bool) {
	return r.noteOr(chain, now, nil)
}

// noteOr is note, and when the refusal is held and line is not nil, sees
// that line is called with the count of the refusals still held once the
// second since the last line is over, unless a later refusal has written
// them by then. line describes the refusal noted last.
func (r *refusalLog) noteOr(chain string, now time.Time, line func(n int)) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.chains == nil {
		r.chains = map[string]*refusals{}
	}
	c := r.chains[chain]
	if c == nil {
		c = &refusals{}
		r.chains[chain] = c
	}
	c.held++
	if now.Sub(c.last) >= time.Second {
		n := c.held
		c.last, c.held, c.line = now, 0, nil
		return n, true
	}
	if line != nil {
		c.line = line
		if !c.armed {
			r.arm(chain, c, c.last.Add(time.Second), now)
		}
	}
	return 0, false
}

// arm has flush called at due, now being the present time. Called with
// r.mu held.
func (r *refusalLog) arm(chain string, c *refusals, due, now time.Time) {
	c.armed = true
	after := r.after
	if after == nil {
		after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	after(due.Sub(now), func() { r.flush(chain, due) })
}

// flush writes at due, the end of the second after chain's last line, the
// line of the refusals held since, counting due as that line's time. When
// a later refusal has written a line since, the refusals held after it are
// written at the end of the second after that line.
func (r *refusalLog) flush(chain string, due time.Time) {
	r.mu.Lock()
	c := r.chains[chain]
	c.armed = false
	n, line := c.held, c.line
	if n == 0 || line == nil {
		r.mu.Unlock()
		return
	}
	if next := c.last.Add(time.Second); next.After(due) {
		r.arm(chain, c, next, due)
		r.mu.Unlock()
		return
	}
	c.last, c.held, c.line = due, 0, nil
	r.mu.Unlock()
	line(n)
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

// storeFailed answers a request whose read of a store failed: the store's
// trouble, logged (msg and args) and counted, unless the client had gone
// and the read ended for that (envelope.ClientGone). outcome says what the
// failure left as it was (nothingTraded for a request that would trade).
func (h *handler) storeFailed(c *gin.Context, what, outcome string, err error, msg string, args ...any) {
	if envelope.ClientGone(c, err) {
		envelope.Fail(c, err)
		return
	}
	if bus.StoreFull(err) {
		// Not a store slow to answer: one at its bound, which the next
		// request meets too until keys expire or the bound is raised.
		h.s.full.Error(h.s.log, what, msg+": the store is full", append(args, "store", what, "err", err)...)
		countStoreFailure(what)
		envelope.Fail(c, apierr.New(apierr.Overloaded, what+" is full; "+outcome+", try again later"+fullHint[what]))
		return
	}
	h.s.log.Warn(msg, append(args, "err", err)...)
	envelope.Fail(c, unavailable(what, outcome))
}

// What a store's failure left as it was, as its answer says: a request
// that would trade traded nothing; a lookup says nothing of its order,
// which may have traded (a bot reading "nothing was traded" there could
// send the order again).
const (
	nothingTraded  = "nothing was traded"
	orderNotLooked = "the order was not read and may have traded"
)

// fullHint is what a client can do about a full store, by its name.
var fullHint = map[string]string{
	"the idempotency store": ", or without an Idempotency-Key",
}

// unavailable is the answer when a store the request needs (a KV bucket of
// the budget, the orders, the trades or the idempotency keys) does not
// answer in time: the service is briefly overloaded or failing over;
// outcome says what that left as it was.
func unavailable(what, outcome string) *apierr.Error {
	countStoreFailure(what)
	return apierr.New(apierr.Overloaded, what+" did not answer in time; "+outcome+", try again")
}
