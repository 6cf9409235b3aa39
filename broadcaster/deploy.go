package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bundler is a chain that sends bundles: transactions that land together,
// in order, or not at all.
type Bundler interface {
	// SendBundle submits txs as one bundle and returns its id. A refusal is
	// a *Refused error; any other error may be retried.
	SendBundle(ctx context.Context, txs []wire.SignedTx) (string, error)
	// BundleOutcome tells whether the bundle landed: State is "" while it is
	// not known yet, confirmed once it landed, failed with the reason when
	// the relay dropped it.
	BundleOutcome(ctx context.Context, id string, txs []wire.SignedTx) (Status, error)
}

// bundleWait bounds the wait for one bundle past its blockhash's life: the
// relay may still report it shortly after.
const bundleWait = 5 * time.Second

// handleDeploy sends a launch's bundles in order, each once the one before
// it landed, and answers with every mint and every landed transaction. A
// bundle the relay dropped or that expired ends the deploy as
// BROADCAST_FAILED with the reason; the bundles before it, which landed,
// stay in the order record. A redelivered batch skips the bundles that
// already landed, so nothing is launched twice.
func (br *Broadcaster) handleDeploy(m jetstream.Msg, batch *wire.TxBatch, reply string, attempt uint64, log *slog.Logger) {
	chain := br.chains[batch.Chain]
	bundler, ok := chain.(Bundler)
	if !ok {
		log.Error("deploy for a chain that sends no bundles")
		_ = m.Term()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()

	result := &wire.DeployResult{MintAddresses: batch.Mints, LandedTxs: []wire.LandedTx{}}
	states := make([]wire.SigState, len(batch.Txs))
	for i, tx := range batch.Txs {
		states[i] = wire.SigState{Signature: tx.Signature, Wallet: tx.Wallet, State: wire.StatePending}
	}
	var answer *apierr.Error
	var lastSlot uint64
	for _, idx := range bundles(batch.Txs) {
		// Each bundle goes out once the chain is past the slot the one
		// before it landed in: a sniper's buys follow the create in later
		// slots, and every bundle after the first needs its mint on chain.
		if err := afterSlot(ctx, chain, lastSlot, br.cfg.Poll); err != nil {
			log.Warn("wait for the next slot", "err", err)
		}
		txs := make([]wire.SignedTx, len(idx))
		for j, i := range idx {
			txs[j] = batch.Txs[i]
		}
		st, err := landBundle(ctx, chain, bundler, txs, br.cfg.Poll, log)
		if err != nil {
			if int(attempt) < br.cfg.MaxAttempts+3 {
				log.Warn("bundle outcome unknown, will retry", "attempt", attempt, "err", err)
				_ = m.NakWithDelay(time.Second)
				return
			}
			st = Status{State: wire.StateFailed, Err: "the bundle relay did not answer: " + err.Error()}
		}
		for _, i := range idx {
			states[i].State = st.State
			states[i].Error = st.Err
		}
		if st.State != wire.StateConfirmed {
			metrics.Transactions.With(batch.Chain, metrics.SenderRelay, metrics.TxSendFailed).Add(float64(len(txs)))
			answer = apierr.New(apierr.BroadcastFailed, deployFailure(txs[0].Bundle, result, st.Err)).WithOrder(batch.OrderID)
			log.Warn("deploy bundle did not land", "bundle", txs[0].Bundle, "reason", st.Err)
			break
		}
		lastSlot = st.Slot
		for _, t := range txs {
			metrics.Transactions.With(batch.Chain, metrics.SenderRelay, metrics.TxSent).Inc()
			result.LandedTxs = append(result.LandedTxs, wire.LandedTx{Kind: t.Kind, Dex: t.Dex, Mint: t.Mint, Signature: t.Signature})
		}
	}
	metrics.Stage.WithLabelValues(metrics.StageDeployLand, batch.Chain).Observe(time.Since(start).Seconds())

	// The launched mints count as bought for skip_if_bought.
	storeFailed := false
	for _, mint := range landedMints(result) {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if _, err := br.b.Trades.Put(tctx, wire.TradeKey(batch.AccountID, batch.Family, mint), []byte(batch.OrderID)); err != nil {
			log.Error("record trade", "err", err)
			storeFailed = true
		}
		cancel()
	}
	seed := orders.New(orders.OfBatch(batch))
	apply := func(o *wire.Order) {
		o.Signatures, o.Route, o.Deploy = states, batch.Route, result
		if answer != nil {
			body := answer.Body()
			o.State, o.Error = wire.StateFailed, &body
		} else {
			o.State, o.Error = wire.StateConfirmed, nil
		}
	}
	stored := *seed
	uctx, ucancel := context.WithTimeout(ctx, 3*time.Second)
	if err := br.orders.Update(uctx, batch.OrderID, seed, func(o *wire.Order) { apply(o); stored = *o }); err != nil {
		log.Error("store deploy result", "err", err)
		apply(&stored)
		storeFailed = true
	}
	ucancel()
	// Unlike a swap's, a deploy's answer waits for the record: the answer
	// already waited for the bundles, and the order lookup is then current
	// as soon as the bot has it.
	r := &wire.Reply{OrderID: batch.OrderID, Signatures: landedSignatures(result)}
	if answer != nil {
		r.Error = ptr(answer.Body())
	} else {
		r.Deploy = result
	}
	bus.Reply(br.nc, reply, r)

	if answer != nil {
		br.events.Emit(ctx, events.Failed, &stored)
	} else {
		br.events.Emit(ctx, events.Confirmed, &stored)
	}
	if storeFailed && int(attempt) < br.cfg.MaxAttempts+3 {
		_ = m.NakWithDelay(time.Second)
		return
	}
	if err := m.Ack(); err != nil {
		log.Warn("ack batch", "err", err)
	}
	log.Info("deploy settled", "landed", len(result.LandedTxs), "of", len(batch.Txs), "mints", len(result.MintAddresses),
		"ok", answer == nil, "took", time.Since(start).Round(time.Millisecond))
}

// landBundle sends one bundle unless it already landed (a redelivered
// batch), then waits for its outcome until its blockhash expired.
func landBundle(ctx context.Context, chain Chain, bundler Bundler, txs []wire.SignedTx, every time.Duration, log *slog.Logger) (Status, error) {
	st, err := landedBefore(ctx, chain, txs)
	if err != nil {
		return Status{}, err
	}
	if st.State != "" {
		log.Info("bundle already settled on chain", "bundle", txs[0].Bundle, "state", st.State)
		return st, nil
	}
	id, err := bundler.SendBundle(ctx, txs)
	var ref *Refused
	if errors.As(err, &ref) {
		return Status{State: wire.StateFailed, Err: ref.Reason}, nil
	}
	if err != nil {
		return Status{}, err
	}
	poll := max(every/3, 20*time.Millisecond)
	var deadline time.Time
	for {
		st, err := bundler.BundleOutcome(ctx, id, txs)
		if err == nil && st.State != "" {
			return st, nil
		}
		if err != nil {
			log.Debug("bundle status", "err", err)
		}
		// The bundle cannot land once the chain passed its blockhash's last
		// valid height; give the relay a little longer to report it.
		if deadline.IsZero() {
			if h, herr := chain.Height(ctx); herr == nil && h > txs[0].LastValidBlockHeight {
				deadline = time.Now().Add(bundleWait)
			}
		} else if time.Now().After(deadline) {
			return Status{State: wire.StateExpired, Err: "the bundle expired before it landed"}, nil
		}
		select {
		case <-ctx.Done():
			return Status{}, fmt.Errorf("wait for bundle %s: %w", id, ctx.Err())
		case <-time.After(poll):
		}
	}
}

// afterSlot waits until the chain's height is past slot (0: no wait).
func afterSlot(ctx context.Context, chain Chain, slot uint64, every time.Duration) error {
	if slot == 0 {
		return nil
	}
	poll := max(every/6, 10*time.Millisecond)
	for {
		h, err := chain.Height(ctx)
		if err != nil {
			return err
		}
		if h > slot {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// landedBefore reports whether a bundle's transactions are already on
// chain: all landed (confirmed) or one failed. A bundle lands whole, so
// the first transaction tells.
func landedBefore(ctx context.Context, chain Chain, txs []wire.SignedTx) (Status, error) {
	sigs := make([]string, len(txs))
	for i, t := range txs {
		sigs[i] = t.Signature
	}
	sts, err := chain.Statuses(ctx, sigs)
	if err != nil {
		return Status{}, err
	}
	for _, s := range sts {
		if s.State != wire.StateConfirmed {
			if s.State == wire.StateFailed {
				return s, nil
			}
			return Status{}, nil
		}
	}
	return Status{State: wire.StateConfirmed}, nil
}

// bundles groups the indexes of a deploy's transactions by bundle, in
// bundle order.
func bundles(txs []wire.SignedTx) [][]int {
	var out [][]int
	for i, t := range txs {
		if len(out) == 0 || txs[out[len(out)-1][0]].Bundle != t.Bundle {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], i)
	}
	return out
}

// deployFailure says which bundle failed, why, and what had landed.
func deployFailure(bundle int, r *wire.DeployResult, reason string) string {
	if len(r.LandedTxs) == 0 {
		return fmt.Sprintf("bundle %d did not land, nothing of the deploy is on chain: %s", bundle, reason)
	}
	return fmt.Sprintf("bundle %d did not land (%s); %d transactions of earlier bundles landed, see the order for the mints that launched",
		bundle, reason, len(r.LandedTxs))
}

func landedMints(r *wire.DeployResult) []string {
	var out []string
	seen := make(map[string]bool)
	for _, t := range r.LandedTxs {
		if !seen[t.Mint] {
			seen[t.Mint] = true
			out = append(out, t.Mint)
		}
	}
	return out
}

func landedSignatures(r *wire.DeployResult) []string {
	out := make([]string, len(r.LandedTxs))
	for i, t := range r.LandedTxs {
		out[i] = t.Signature
	}
	return out
}
