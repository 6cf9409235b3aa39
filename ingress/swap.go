package ingress

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// swapResult is the data of a successful swap.
type swapResult struct {
	OrderID    string   `json:"order_id"`
	Signatures []string `json:"signatures"`
	Skipped    bool     `json:"skipped"`
}

// swap answers POST /api/v1/swap. Every refusal that costs nothing comes
// before the charge (400, 403, 503, 429), every answer after it names the
// order; see admit for the line between the two.
func (h *handler) swap(c *gin.Context) {
	account := c.GetString(ctxAccount)
	// The body alone decides most refusals; nothing is read or written
	// for a request that fails here.
	req, aerr := decodeSwap(envelope.ReadBody(c), h.l.Family, h.s.cfg.DefaultSlippagePct)
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	job := req.job
	// Fees are bounded per account before anything is signed, and the
	// caps travel with the job so that auto_tip stays under them too.
	if aerr := h.feeCaps(account).checkSwap(job); aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	// A named EVM chain without a bundle market has nowhere to pay a tip:
	// refused here, free, rather than by the worker after the charge.
	if job.Family == wire.FamilyEVM && job.Chain != "" && job.ProcessorTip != "0" && h.s.cfg.TakesTips != nil &&
		!h.s.cfg.TakesTips(job.Chain) {
		envelope.Fail(c, apierr.Invalid("processor_tip", "processor_tip must be 0 on %s: the chain has no bundle "+
			"market to pay a tip into (it is sequenced without public bundles, and no tip_address is configured for it)", job.Chain))
		return
	}
	// Only the account's own wallets trade, in their canonical spelling.
	if aerr := h.resolveWallets(account, req); aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	// The saved strategy arms a buy's positions; a sell opens none.
	if !req.autoOrdersSet && job.Side == wire.Buy {
		job.AutoOrders = h.s.deps.Directory.Strategy(account)
	}
	chain := job.Chain
	if chain == "" {
		chain = wire.ChainAnyEVM
	}
	// A chain without a worker or with a full queue is refused at once
	// and free, rather than charged and left to time out.
	if !h.accepting(c, chain, job.Side) {
		return
	}
	// anti_mev on a served EVM chain without a private relay is refused
	// here, free: the worker refuses it before signing, but after the
	// charge. A chain no worker serves was answered above, as such.
	if job.Family == wire.FamilyEVM && job.Chain != "" && job.AntiMEV && h.s.cfg.PrivateRelay != nil &&
		!h.s.cfg.PrivateRelay(job.Chain) {
		envelope.Fail(c, apierr.Invalid("anti_mev", "anti_mev is not available on %s: no private relay is configured for the "+
			"chain (evm.chains.%s.relay_url); send the order without anti_mev to use the public mempool", job.Chain, job.Chain))
		return
	}
	// skip_if_bought is read from the trade history before the charge, so
	// that a history that does not answer is a free 503, never a charged
	// one.
	skip, ok := h.skipIfBought(c, job)
	if !ok {
		return
	}
	// A token whose order its worker just refused for a paused venue is
	// refused here while that venue stays paused, so that retries hold no
	// unit of the budget (pausedTokens); a buy skipped for skip_if_bought
	// needs no venue.
	if !skip {
		if e := h.stillPaused(c, account, job); e != nil {
			h.refuseFree(c, chain, job.Side, e)
			return
		}
	}
	orderID, ok := h.admit(c, account)
	if !ok {
		return
	}
	job.OrderID, job.AccountID, job.CreatedAt = orderID, account, time.Now().UTC()
	log := h.s.log.With("order_id", job.OrderID, "chain", chain, "side", job.Side,
		"request_id", c.Writer.Header().Get(envelope.RequestIDHeader))
	log.Debug("order accepted", "listener", h.name)
	defer logAnswer(log, c)

	// A skipped buy is charged like any other: that is the spec's rule.
	claimed := false
	if !skip && job.SkipIfBought && job.Side == wire.Buy {
		// The claim of the name the request gives; the worker claims the
		// token's mint too, once its signer has resolved it (skipclaim).
		claimed = h.s.skips.Take(c.Request.Context(), job.AccountID, h.l.Family, job.Chain, job.Token, job.OrderID, job.CreatedAt, log)
		skip = !claimed
	}
	if skip {
		h.finishSkipped(c, chain, job, log)
		return
	}
	reply := h.submit(c, chain, job.Side, job.OrderID, job, orderOf(job), log)
	if reply == nil {
		if claimed && c.GetString(ctxOrderID) == "" {
			// Refused for free (refund): its claim goes too.
			h.releaseSkip(c, job, log)
		}
		return
	}
	// The worker skips a buy whose token's mint another buy of the
	// account holds, when the two named the token differently; the record
	// is then the worker's to write.
	if reply.Skipped {
		h.countOrder(chain, job.Side, "skipped")
		envelope.OK(c, http.StatusOK, swapResult{OrderID: job.OrderID, Signatures: []string{}, Skipped: true})
		return
	}
	h.countOrder(chain, job.Side, "ok")
	sigs := reply.Signatures
	if sigs == nil {
		sigs = []string{}
	}
	envelope.OK(c, http.StatusOK, swapResult{OrderID: job.OrderID, Signatures: sigs})
}

// releaseSkip withdraws the skip_if_bought claim a buy refused for free
// took, and purges the marker the delete leaves, as a withdrawn
// Idempotency-Key claim's.
func (h *handler) releaseSkip(c *gin.Context, job *wire.SwapJob, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), storeTimeout)
	defer cancel()
	if key, ok := h.s.skips.Release(ctx, job.AccountID, h.l.Family, job.Chain, job.Token, job.OrderID, log); ok {
		h.sweepMarker(ctx, key)
	}
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
		amt, field := w.amount, "wallets["+strconv.Itoa(i)+"].amount"
		if amt == "" {
			amt, field = req.amount, ""
		}
		job.Legs[i] = wire.Leg{Wallet: canon, Amount: amt, AmountField: field}
	}
	return nil
}

// skipIfBought reports whether a buy with skip_if_bought finds the token
// in the account's trade history. When the history does not answer, it
// answers 503 (nothing was charged) and returns false.
func (h *handler) skipIfBought(c *gin.Context, job *wire.SwapJob) (skip, ok bool) {
	if job.Side != wire.Buy || !job.SkipIfBought {
		return false, true
	}
	bought, err := h.bought(c.Request.Context(), c.GetString(ctxAccount), job.Chain, job.Token)
	if err != nil {
		h.storeFailed(c, "the trade history", nothingTraded, err, "read trade history")
		return false, false
	}
	return bought, true
}

// bought reads the account's trade history of token. On EVM a token is
// its chain's: a buy names the chain or, without one, may trade on any, so
// it is looked up on its chain or on every one, and under the key of any
// chain that earlier versions wrote.
func (h *handler) bought(ctx context.Context, account, chain, token string) (bool, error) {
	keys := []string{wire.TradeKey(account, h.l.Family, "", token)}
	if h.l.Family == wire.FamilyEVM {
		chains := wire.EVMChains
		if chain != "" {
			chains = []string{chain}
		}
		for _, c := range chains {
			keys = append(keys, wire.TradeKey(account, h.l.Family, c, token))
		}
	}
	for _, k := range keys {
		_, err := h.s.deps.Trades.Get(ctx, k)
		switch {
		case err == nil:
			return true, nil
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return false, err
		}
	}
	return false, nil
}

// finishSkipped answers a charged buy that skip_if_bought made a no-op and
// stores it as confirmed and skipped, so the order lookup knows it. chain
// is the order's as the metrics name it (evm for an EVM order that named
// none). The
// write does not follow the client's context: the charge is made, the
// record must be too.
func (h *handler) finishSkipped(c *gin.Context, chain string, job *wire.SwapJob, log *slog.Logger) {
	o := orderOf(job)
	o.State = wire.StateConfirmed
	o.Skipped = true
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), storeTimeout)
	defer cancel()
	if err := h.s.orders.Create(ctx, o); err != nil {
		log.Warn("store skipped order", "err", err)
	}
	h.countOrder(chain, job.Side, "skipped")
	envelope.OK(c, http.StatusOK, swapResult{OrderID: job.OrderID, Signatures: []string{}, Skipped: true})
}

// orderOf is the pending record of a swap.
func orderOf(job *wire.SwapJob) *wire.Order {
	return orders.New(orders.OfSwap(job))
}
