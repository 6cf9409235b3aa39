package broadcaster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/chains"
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
	// Bundle returns the record of the bundle that carried signature, as
	// the order shows it: the relay's verdict, or pending while it has
	// given none. ok is false when this process sent no such bundle.
	Bundle(signature string) (b wire.Bundle, ok bool)
	// ExpireBundle gives the bundle that carried signature, which can no
	// longer land, its final verdict if it has none, and returns its
	// record.
	ExpireBundle(signature string) (b wire.Bundle, ok bool)
	// RelayName names the relay, never by its URL.
	RelayName() string
	// Slot is the chain's current slot, which a landed bundle's slot is
	// told in. Not its block height (Chain.Height, what a blockhash's
	// life is told in): on a public chain the height runs behind the slot
	// by every slot that made no block.
	Slot(ctx context.Context) (uint64, error)
}

// bundleWait bounds the wait for one bundle past its blockhash's life: the
// relay may still report it shortly after.
const bundleWait = 5 * time.Second

// deployRun is one delivery of a launch as its bundles land.
type deployRun struct {
	batch  *wire.TxBatch
	result *wire.DeployResult
	states []wire.SigState
	// bundles are the bundles sent so far with the relay's verdicts.
	bundles []wire.Bundle
	// answer is why the launch did not land whole, nil when it did; the
	// ingress gets it when nothing landed.
	answer *apierr.Error
	start  time.Time
	// announced: the launch's broadcast event went out before this run
	// (a last try asking the chain on runs the bundles again).
	announced bool
	// recorded are the mints this delivery wrote in the trade history
	// once their creates landed (recordLaunched).
	recorded map[string]bool
}

// handleDeploy sends a launch's bundles in order, each once the one before
// it landed, and answers with every mint and every landed transaction. A
// bundle the relay dropped or that expired ends the deploy there: answered
// BROADCAST_FAILED with the reason when nothing had landed, else with what
// landed before it, the order record saying which bundle did not land. A redelivered batch skips the bundles that
// already landed, so nothing is launched twice.
func (br *Broadcaster) handleDeploy(m jetstream.Msg, batch *wire.TxBatch, reply string, attempt uint64, again bool, log *slog.Logger) {
	bundler, ok := br.chains[batch.Chain].(Bundler)
	if !ok {
		log.Error("deploy for a chain that sends no bundles")
		metrics.MessagesDropped.WithLabelValues(bus.BroadcasterConsumer, metrics.MessageMisaddressed).Inc()
		_ = m.Term()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), deployTryTime)
	defer cancel()
	run := newDeployRun(batch)
	// An outcome the relay did not tell is asked again on redelivery, which
	// skips what landed; on the last try it counts as not landed.
	lastTry := br.lastTry(attempt)
	// A launch an earlier delivery settled was answered then: what did not
	// land is never sent again (the bot was told it did not), and the
	// record's outcome is given again. A record that cannot be read says
	// nothing either way: the batch comes back, and on its last try sends
	// nothing (see giveUpUnread).
	settled, err := br.orders.Get(ctx, batch.OrderID)
	if err != nil && !errors.Is(err, orders.ErrNotFound) && lastTry {
		var found error
		err = patiently(ctx, br.stopping, m, func() error {
			settled, found = br.orders.Get(ctx, batch.OrderID)
			if errors.Is(found, orders.ErrNotFound) {
				return nil
			}
			return found
		})
		if err == nil {
			err = found
		}
		if errors.Is(err, errStopping) {
			handBack(m)
			return
		}
	}
	switch {
	case err == nil && wire.FinalState(settled.State):
		log.Info("deploy settled before, nothing sent again", "state", settled.State)
		if !br.resettleDeploy(ctx, batch, settled, reply, log) && !lastTry {
			_ = m.NakWithDelay(time.Second)
			return
		}
		if err := m.Ack(); err != nil {
			log.Warn("ack batch", "err", err)
		}
		return
	case err != nil && !errors.Is(err, orders.ErrNotFound) && !lastTry:
		log.Warn("read the deploy's order, will retry", "attempt", attempt, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	case err != nil && !errors.Is(err, orders.ErrNotFound):
		br.giveUpUnread(m, batch, reply, log, err)
		return
	}
	// A stop cuts the launch at once, whatever its bundle is doing: the
	// outcome of one in flight is then not known, and the batch goes back
	// to the stream, whose next delivery finds on chain what landed and
	// sends only the rest. Waiting for a long launch to land whole held a
	// stop past its 10 s.
	if stopped(br.stopping) && !br.lastDelivery(m, attempt) {
		// Handed out while the broadcaster stops: not begun.
		handBack(m)
		return
	}
	lctx, lcancel := context.WithCancel(ctx)
	defer lcancel()
	if !br.lastDelivery(m, attempt) {
		// On the stream's last delivery the batch handed back would be
		// dropped, the launch never settled: that one lands on.
		go func() {
			select {
			case <-br.stopping:
				lcancel()
			case <-lctx.Done():
			}
		}()
	}
	run, err = br.landWithin(lctx, run, bundler, again, lastTry, log)
	if err != nil && stopped(br.stopping) && !br.lastDelivery(m, attempt) {
		log.Info("stopping: the launch's batch handed back, its next delivery carries on from what landed",
			"landed", len(run.result.LandedTxs), "of", len(batch.Txs))
		handBack(m)
		return
	}
	if err != nil && lastTry {
		// The chain did not tell within the try's time: it is asked on,
		// the batch kept in hand, for lastTryPatience (its RPC back
		// from an outage tells at once). Nothing settles a launch after
		// its last try.
		log.Warn("bundle outcome unknown on the last try, asking the chain on", "err", err, "for", lastTryPatience)
		var later *deployRun
		later, err = br.askOn(batch, bundler, log)
		if errors.Is(err, errStopping) && !br.lastDelivery(m, attempt) {
			handBack(m)
			return
		}
		// Stopping on the stream's last delivery, the batch handed back
		// would be dropped unanswered: it ends as below, said.
		if err == nil {
			// The handler's own time may be spent: the settle has its own.
			later.start = run.start
			run = later
			var settleCancel context.CancelFunc
			ctx, settleCancel = context.WithTimeout(context.Background(), 30*time.Second)
			defer settleCancel()
		}
	}
	if err != nil {
		if lastTry {
			// Not known even from the chain: the order stays as it is, not
			// failed, and the bot is told to look it up.
			log.Error("bundle outcome unknown on the last try", "err", err)
			bus.Reply(br.nc, reply, &wire.Reply{OrderID: batch.OrderID, Signatures: landedSignatures(run.result),
				Error: ptr(apierr.New(apierr.UpstreamTimeout, "whether the launch's bundles landed is not known; look the order up").WithOrder(batch.OrderID).Body())})
			_ = m.Ack()
			return
		}
		log.Warn("bundle outcome unknown, will retry", "attempt", attempt, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	metrics.Stage.WithLabelValues(metrics.StageDeployLand, batch.Chain).Observe(time.Since(run.start).Seconds())
	ok = br.settleDeploy(ctx, run, reply, lastTry, log)
	if !ok && !lastTry {
		_ = m.NakWithDelay(time.Second)
		return
	}
	if err := m.Ack(); err != nil {
		log.Warn("ack batch", "err", err)
	}
	log.Info("deploy settled", "landed", len(run.result.LandedTxs), "of", len(batch.Txs), "mints", len(run.result.MintAddresses),
		"ok", run.answer == nil, "took", time.Since(run.start).Round(time.Millisecond))
}

// deployTryTime bounds one delivery of a launch's batch. A variable for
// the tests.
var deployTryTime = 2 * time.Minute

// Pauses between the runs of a launch's bundles within one delivery while
// the chain or its relay cannot tell (landWithin): the first, doubling up
// to the last.
const (
	landAgainFirst = 250 * time.Millisecond
	landAgainMost  = 5 * time.Second
)

// landWithin lands a launch's bundles (landBundles) and, while a bundle's
// outcome cannot be learnt (the chain's node or the relay away: a send or
// a status read that failed), runs them again from the start within this
// delivery, as a redelivery would (what landed is found on chain and
// skipped, nothing is signed again), pausing longer each time, until ctx
// ends or the broadcaster stops. The consumer's pool keeps the batch in
// progress meanwhile. Handing the batch back instead spent one of the
// stream's few deliveries a second: a chain away for as many seconds
// brought the launch to its last deliveries, and one dying there (a kill)
// left it broadcast for good. It returns the last run and its error.
func (br *Broadcaster) landWithin(ctx context.Context, run *deployRun, bundler Bundler, again, lastTry bool, log *slog.Logger) (*deployRun, error) {
	pause := landAgainFirst
	for {
		err := br.landBundles(ctx, run, bundler, again, lastTry, log)
		if err == nil || ctx.Err() != nil || stopped(br.stopping) {
			return run, err
		}
		log.Info("bundle outcome unknown, asking again within the delivery", "err", err, "in", pause)
		select {
		case <-ctx.Done():
			return run, err
		case <-br.stopping:
			return run, err
		case <-time.After(pause):
		}
		pause = min(2*pause, landAgainMost)
		next := newDeployRun(run.batch)
		// The run before may have sent the bundle it waited on; its first
		// landing, if any, told the launch's broadcast.
		next.start, next.announced = run.start, run.announced || len(run.result.LandedTxs) > 0
		next.recorded = run.recorded
		run, again = next, true
	}
}

// lastTryPatience is how long a launch's last try asks the chain on about
// a bundle whose outcome it could not learn in its own time. A variable
// for the tests.
var lastTryPatience = 15 * time.Minute

// askOn runs a launch's bundles again from the start, as a redelivery
// does (what landed is skipped, found on chain), every few seconds while
// the chain cannot tell, for lastTryPatience; the consumer's pool keeps
// the batch in progress meanwhile, as every message in hand. It returns
// the run that settled, errStopping when the broadcaster stops, or the
// last error.
func (br *Broadcaster) askOn(batch *wire.TxBatch, bundler Bundler, log *slog.Logger) (*deployRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lastTryPatience)
	defer cancel()
	for {
		select {
		case <-br.stopping:
			return nil, errStopping
		default:
		}
		run := newDeployRun(batch)
		// Its bundles' broadcast was told by the try before.
		run.announced = true
		actx, acancel := context.WithTimeout(ctx, time.Minute)
		err := br.landBundles(actx, run, bundler, true, true, log)
		acancel()
		if err == nil {
			return run, nil
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-br.stopping:
			return nil, errStopping
		case <-time.After(5 * time.Second):
		}
	}
}

// newDeployRun starts a launch with every transaction pending.
func newDeployRun(batch *wire.TxBatch) *deployRun {
	run := &deployRun{batch: batch, start: time.Now(),
		result:   &wire.DeployResult{MintAddresses: []string{}, LandedTxs: []wire.LandedTx{}},
		states:   make([]wire.SigState, len(batch.Txs)),
		recorded: map[string]bool{}}
	for i, tx := range batch.Txs {
		run.states[i] = wire.SigState{Signature: tx.Signature, Wallet: tx.Wallet, State: wire.StatePending}
	}
	return run
}

// landBundles lands the bundles in order until one does not land. It
// returns an error when a bundle's outcome is not known, unless this is
// the last try: then that bundle counts as not landed. again: an earlier
// delivery may have sent the bundles (delivery.again, landBundle).
func (br *Broadcaster) landBundles(ctx context.Context, run *deployRun, bundler Bundler, again, lastTry bool, log *slog.Logger) error {
	chain := br.chains[run.batch.Chain]
	var lastSlot uint64
	groups := bundles(run.batch.Txs)
	for k, idx := range groups {
		if err := ctx.Err(); err != nil {
			// The try's time is spent, or the broadcaster stops: the
			// bundles left go out on the next delivery.
			return err
		}
		// Each bundle goes out once the chain is past the slot the one
		// before it landed in: a sniper's buys follow the create in later
		// slots, and every bundle after the first needs its mint on chain.
		if err := afterSlot(ctx, bundler, lastSlot, br.cfg.Poll); err != nil {
			log.Warn("wait for the next slot", "err", err)
		}
		txs := make([]wire.SignedTx, len(idx))
		for j, i := range idx {
			txs[j] = run.batch.Txs[i]
		}
		st, sent, err := landBundle(ctx, chain, bundler, txs, again, br.cfg.Poll, log)
		if err != nil && !lastTry {
			return err
		}
		if err != nil {
			// Whether the relay took the bundle is not known, and calling
			// it failed could have the bot launch again while it lands:
			// the chain tells, once the bundle's blockhash is past.
			log.Warn("bundle outcome unknown on the last try, asking the chain until it cannot land", "bundle", txs[0].Bundle, "err", err)
			if st, err = onChain(ctx, chain, txs, br.cfg.Poll); err != nil {
				return err
			}
		}
		run.noteBundle(bundler, txs, st)
		countBundle(run.batch.Chain, len(txs), st, sent)
		for _, i := range idx {
			run.states[i].State, run.states[i].Error = st.State, st.Err
			if st.State == wire.StateConfirmed {
				noteLanding(&run.states[i], st.Slot, run.batch.Txs[i].FeeLamports, st.Fee)
			}
		}
		if st.State != wire.StateConfirmed {
			// The bundles after this one are not sent: they need it.
			run.answer = apierr.New(apierr.BroadcastFailed, deployFailure(txs[0].Bundle, run.result, st.Err)).WithOrder(run.batch.OrderID)
			log.Warn("deploy bundle did not land", "bundle", txs[0].Bundle, "reason", st.Err)
			// Never sent, the bundles after it never land.
			for _, later := range groups[k+1:] {
				for _, i := range later {
					run.states[i].State = wire.StateFailed
					run.states[i].Error = fmt.Sprintf("not sent: bundle %d, before it, did not land", txs[0].Bundle)
				}
			}
			return nil
		}
		first := len(run.result.LandedTxs) == 0
		lastSlot = st.Slot
		var created []string
		for _, t := range txs {
			run.result.LandedTxs = append(run.result.LandedTxs, wire.LandedTx{Kind: t.Kind, Dex: t.Dex, Mint: t.Mint, Signature: t.Signature})
			if t.Mint != "" && !run.recorded[t.Mint] && !slices.Contains(created, t.Mint) {
				created = append(created, t.Mint)
			}
		}
		// A coin whose create landed counts for skip_if_bought from now,
		// before the record shows it, not from the launch's settle (its
		// later bundles may take long, or never settle): a buy of it by
		// another wallet of the account is skipped as soon as the bot can
		// see the mint. A write that failed is made again at the settle.
		if run.recorded == nil {
			run.recorded = map[string]bool{}
		}
		for _, mint := range created {
			if br.recordLaunched(ctx, run.batch, []string{mint}, log) {
				run.recorded[mint] = true
			}
		}
		// Each landed bundle is in the record at once, so that a bot
		// looking a long launch up sees it land bundle by bundle; the
		// first one is the order's broadcast.
		br.noteBroadcast(ctx, run, first, log)
	}
	return nil
}

// bundleSend is what became of the send of a launch's bundle in one
// delivery: when the relay took it (zero when it was not sent in this
// delivery, or whether it was is not known), or whether the relay refused
// it.
type bundleSend struct {
	at      time.Time
	refused bool
	// settled: the bundle was settled on chain before this delivery,
	// which counted it.
	settled bool
}

// countBundle counts the n transactions of a launch's bundle that ended in
// st (they are final here, not in the tracker, which counts the other
// orders' outcomes) in tradeapi_transactions_total, as the tracker counts
// a swap's relay sends: sent, then confirmed or failed when the bundle
// landed, dropped when the relay failed or dropped it once it took it,
// expired when it can no longer land; send_failed alone when the relay
// refused its send and it is not on chain. A bundle that landed once the
// relay took it in this delivery observes, for each of its transactions,
// the time since in tradeapi_landing_duration_seconds.
func countBundle(chain string, n int, st Status, sent bundleSend) {
	if sent.settled {
		return // counted by the delivery that sent it
	}
	count := func(outcome string) {
		metrics.Transactions.With(chain, metrics.SenderRelay, outcome).Add(float64(n))
	}
	landed := st.State == wire.StateConfirmed || st.State == wire.StateFailed && st.Slot > 0
	switch {
	case landed:
		count(metrics.TxSent)
		if st.State == wire.StateFailed {
			count(metrics.TxFailed)
			break
		}
		count(metrics.TxConfirmed)
		if !sent.at.IsZero() {
			took := time.Since(sent.at).Seconds()
			for range n {
				metrics.Landing.WithLabelValues(chain, metrics.SenderRelay).Observe(took)
			}
		}
	case sent.refused:
		count(metrics.TxSendFailed)
	case st.State == wire.StateFailed:
		count(metrics.TxSent)
		count(metrics.TxDropped)
	default:
		// Expired. One whose send is in doubt (unknown on the last try)
		// is not counted sent, as the tracker counts a swap's.
		if !sent.at.IsZero() {
			count(metrics.TxSent)
		}
		count(metrics.TxExpired)
	}
}

// noteBroadcast records a launch whose bundles have begun to land as
// broadcast, with what landed so far and its later bundles still to come,
// and on its first bundle (first) emits its broadcast event, as a swap's
// first send does: the chain took a transaction of the order. A record
// that cannot be written is written at the settle; the event is emitted
// all the same.
func (br *Broadcaster) noteBroadcast(ctx context.Context, run *deployRun, first bool, log *slog.Logger) {
	batch := run.batch
	seed := orders.New(orders.OfBatch(batch))
	stored := *seed
	uctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	// What landed so far, its mints among it: a launch whose later
	// bundles are never settled (the chain not telling through its last
	// try) still shows its coin.
	run.setMints()
	sofar := *run.result
	sofar.MintAddresses, sofar.LandedTxs = slices.Clone(sofar.MintAddresses), slices.Clone(sofar.LandedTxs)
	err := br.orders.Update(uctx, batch.OrderID, seed, func(o *wire.Order) {
		if !wire.FinalState(o.State) {
			o.State = wire.StateBroadcast
			o.Signatures, o.Route, o.Deploy = slices.Clone(run.states), batch.Route, &sofar
			o.Bundles = mergeBundles(o.Bundles, run.bundles...)
		}
		stored = *o
	})
	if err != nil {
		log.Warn("store deploy broadcast", "err", err)
		stored.State, stored.Signatures = wire.StateBroadcast, slices.Clone(run.states)
	}
	if first && !run.announced && stored.State == wire.StateBroadcast {
		br.events.Emit(ctx, events.Broadcast, &stored)
	}
}

// setMints sets the result's mints: those created so far, in the order of
// the launches; a launch whose create did not land, or was never sent,
// made none.
func (run *deployRun) setMints() {
	landed := landedMints(run.result)
	run.result.MintAddresses = slices.DeleteFunc(slices.Clone(run.batch.Mints), func(m string) bool { return !slices.Contains(landed, m) })
}

// settleDeploy records the launched mints as bought, stores the order,
// answers and emits the event. Unlike a swap's, a deploy's answer waits for
// the record: the answer already waited for the bundles, and the order
// lookup is then current as soon as the bot has it. An outcome that could
// not be stored is not answered before the last try: the batch comes back
// and may send what did not land again, which an answer would have called
// not landed (the waiting request ends UPSTREAM_TIMEOUT with its order_id
// instead). It reports false when a write failed, so the batch comes back.
func (br *Broadcaster) settleDeploy(ctx context.Context, run *deployRun, reply string, lastTry bool, log *slog.Logger) bool {
	batch := run.batch
	// The mints written when their creates landed are not written again.
	ok := br.recordLaunched(ctx, batch, slices.DeleteFunc(landedMints(run.result), func(m string) bool { return run.recorded[m] }), log)
	run.setMints()
	apply := func(o *wire.Order) {
		o.Signatures, o.Route, o.Deploy = run.states, batch.Route, run.result
		o.Bundles = mergeBundles(o.Bundles, run.bundles...)
		switch {
		case run.answer == nil || len(run.result.LandedTxs) > 0:
			// Its coin is on chain, though a later bundle may not have
			// landed: confirmed, with no error, whose code
			// (BROADCAST_FAILED) would tell a bot that nothing landed and
			// invite a second launch. The transactions of a bundle that
			// did not land say why, and those never sent say so.
			o.State, o.Error = wire.StateConfirmed, nil
		default:
			o.State, o.Error = wire.StateFailed, ptr(run.answer.Body())
		}
	}
	seed := orders.New(orders.OfBatch(batch))
	stored := *seed
	uctx, ucancel := context.WithTimeout(ctx, 3*time.Second)
	err := br.orders.Update(uctx, batch.OrderID, seed, func(o *wire.Order) { apply(o); stored = *o })
	ucancel()
	if err != nil {
		log.Error("store deploy result", "err", err)
		if !lastTry {
			return false
		}
		apply(&stored)
		ok = false
	}
	bus.Reply(br.nc, reply, deployReply(batch.OrderID, run.result, stored.Error))
	// A final event the stream did not take goes out with the next
	// delivery (resettleDeploy), as a swap's does.
	if typ, final := events.FinalType(stored.State); final {
		if err := br.events.Emit(ctx, typ, &stored); err != nil {
			ok = false
		}
	}
	return ok
}

// deployReply is a settled launch's answer. A launch of which something
// landed is answered with what landed, whole or not: its coin is on chain,
// and an error (BROADCAST_FAILED says the chain took nothing) would have a
// bot launch it again. The order's transactions say which bundle did not
// land, and why.
func deployReply(orderID string, result *wire.DeployResult, failure *apierr.Body) *wire.Reply {
	r := &wire.Reply{OrderID: orderID, Signatures: landedSignatures(result)}
	if len(result.LandedTxs) == 0 && failure != nil {
		r.Error = failure
	} else {
		r.Deploy = result
	}
	return r
}

// recordLaunched records launched mints (their creates landed) as bought
// for good for skip_if_bought, under the mint, the pool it trades on and
// a pump.fun coin's bonding curve. It reports false when a write failed.
func (br *Broadcaster) recordLaunched(ctx context.Context, batch *wire.TxBatch, mints []string, log *slog.Logger) bool {
	ok := true
	pools, curves := map[string]string{}, map[string]string{}
	for i, m := range batch.Mints {
		if i < len(batch.Pools) {
			pools[m] = batch.Pools[i]
		}
		if i < len(batch.Curves) {
			curves[m] = batch.Curves[i]
		}
	}
	for _, mint := range mints {
		for _, name := range []string{mint, pools[mint], curves[mint]} {
			if name == "" {
				continue
			}
			tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			if _, err := br.b.Trades.Put(tctx, wire.TradeKey(batch.AccountID, batch.Family, batch.Chain, name), []byte(batch.OrderID)); err != nil {
				log.Error("record trade", "err", err)
				ok = false
			}
			cancel()
		}
	}
	return ok
}

// resettleDeploy gives again the outcome of a launch an earlier delivery
// settled, as its order record holds it, writes its launched mints again
// and emits its final event again (the writes that may have failed then,
// or died with that delivery). The event goes out marked a repeat: past
// the stream's duplicate window it is posted to a webhook only when it
// never began to be. It reports false when a write failed.
func (br *Broadcaster) resettleDeploy(ctx context.Context, batch *wire.TxBatch, o *wire.Order, reply string, log *slog.Logger) bool {
	result := o.Deploy
	if result == nil {
		result = &wire.DeployResult{MintAddresses: []string{}, LandedTxs: []wire.LandedTx{}}
	}
	ok := br.recordLaunched(ctx, batch, landedMints(result), log)
	failure := o.Error
	if failure == nil && len(result.LandedTxs) == 0 {
		failure = ptr(apierr.New(apierr.BroadcastFailed, "the launch was settled before with nothing landed").WithOrder(batch.OrderID).Body())
	}
	bus.Reply(br.nc, reply, deployReply(batch.OrderID, result, failure))
	if typ, final := events.FinalType(o.State); final {
		if err := br.events.EmitAgain(ctx, typ, o); err != nil {
			ok = false
		}
	}
	return ok
}

// landBundle sends one bundle unless it already landed (a redelivered
// batch), then waits for its outcome until its blockhash expired.
//
// again: an earlier delivery may have sent the bundle, and it may have
// landed although the chain's node does not show it yet (a node behind
// the one that confirmed it, after a restart). A relay's refusal of the
// bundle sent again (its blockhash unknown to the relay's node, its
// transactions already processed) or its verdict that the bundle did not
// land then says nothing of the first sending: the chain tells, once the
// bundle can no longer land (onChain). A launch called failed while its
// coin is on chain would have the bot launch it a second time.
//
// It also returns what became of the send, for the metrics, with an error
// too: a bundle whose outcome is not known may have been taken.
func landBundle(ctx context.Context, chain Chain, bundler Bundler, txs []wire.SignedTx, again bool, every time.Duration, log *slog.Logger) (Status, bundleSend, error) {
	var sent bundleSend
	st, err := landedBefore(ctx, chain, txs)
	if err != nil {
		return Status{}, sent, err
	}
	if st.State != "" {
		log.Info("bundle already settled on chain", "bundle", txs[0].Bundle, "state", st.State)
		sent.settled = true
		return st, sent, nil
	}
	// askChain waits for the chain's word when the relay's says the
	// bundle did not land: on a bundle an earlier delivery may have landed,
	// and on one the relay took and dropped (no transaction of it failed),
	// whose bytes another delivery of the batch running beside this one
	// (handed out again while this one was cut off from NATS) may send
	// again and land. Called failed only once it can no longer land, such
	// a bundle the bot was told did not land never lands later. A refusal
	// of this delivery's first send (but "already processed", which says
	// the bytes landed), or a transaction of the bundle failing, is final
	// at once: sent again, the same bytes meet the same state.
	askChain := func(verdict Status) (Status, bundleSend, error) {
		if verdict.State == wire.StateConfirmed || !again && !verdict.Dropped {
			return verdict, sent, nil
		}
		log.Warn("bundle did not land by the relay's word, asking the chain until it cannot land",
			"bundle", txs[0].Bundle, "relay_said", verdict.Err)
		st, err := onChain(ctx, chain, txs, every)
		if err == nil && st.State == wire.StateExpired && verdict.Err != "" {
			// Not on chain: the relay's reason is why.
			st.Err = verdict.Err + "; " + st.Err
		}
		return st, sent, err
	}
	id, err := bundler.SendBundle(ctx, txs)
	var ref *Refused
	if errors.As(err, &ref) {
		sent.refused = true
		// "Already processed" says the bytes landed, sent by a delivery of
		// the batch running beside this one: no refusal, the chain tells.
		return askChain(Status{State: wire.StateFailed, Err: ref.Reason, Dropped: alreadyProcessed(ref.Reason)})
	}
	if err != nil {
		return Status{}, sent, err
	}
	sent.at = time.Now()
	poll := max(every/3, 20*time.Millisecond)
	// deadline is set once the chain's height passed the blockhash's, at
	// slot expSlot: a status from a node behind that slot decides nothing.
	var deadline time.Time
	var expSlot uint64
	for {
		st, err := bundler.BundleOutcome(ctx, id, txs)
		if err == nil && st.State != "" {
			return askChain(st)
		}
		if err != nil {
			log.Debug("bundle status", "err", err)
		}
		// The chain is asked too: a bundle sent to several relays may land
		// through one that is not the one asked, or whose word is late.
		if st, err := landedBefore(ctx, chain, txs); err == nil && st.State != "" {
			return st, sent, nil
		}
		// The bundle cannot land once the chain passed its blockhash's last
		// valid height; give the relay a little longer to report it.
		if deadline.IsZero() {
			if h, herr := chain.Height(ctx); herr == nil && h > txs[0].LastValidBlockHeight {
				deadline, expSlot = time.Now().Add(bundleWait), heightSlot(chain)
			}
		} else if time.Now().After(deadline) {
			// The relay that took it is silent; the chain may hold it all
			// the same (landed through another relay of the fan-out).
			st, err := landedBefore(ctx, chain, txs)
			if err != nil {
				return Status{}, sent, fmt.Errorf("ask the chain about bundle %s: %w", id, err)
			}
			if st.State != "" {
				return st, sent, nil
			}
			// A node behind the slot at which the height was seen past, or
			// a block not yet confirmed, is asked again.
			if !behind(st.AsOf, expSlot) && st.Slot == 0 {
				return Status{State: wire.StateExpired, Err: "the bundle expired before it landed"}, sent, nil
			}
		}
		select {
		case <-ctx.Done():
			return Status{}, sent, fmt.Errorf("wait for bundle %s: %w", id, ctx.Err())
		case <-time.After(poll):
		}
	}
}

// onChain waits for a bundle whose sending is in doubt to show on chain:
// landed, or past its blockhash's last valid height (and a little more,
// for a node behind), when it can no longer land. It errs when the chain
// cannot tell before ctx ends.
func onChain(ctx context.Context, chain Chain, txs []wire.SignedTx, every time.Duration) (Status, error) {
	poll := max(every/3, 20*time.Millisecond)
	// deadline is set once the chain's height passed the blockhash's, at
	// slot expSlot: a status from a node behind that slot decides nothing.
	var deadline time.Time
	var expSlot uint64
	for {
		st, err := landedBefore(ctx, chain, txs)
		if err == nil && st.State != "" {
			return st, nil
		}
		if deadline.IsZero() {
			if h, herr := chain.Height(ctx); herr == nil && h > txs[0].LastValidBlockHeight {
				deadline, expSlot = time.Now().Add(bundleWait), heightSlot(chain)
			}
		} else if time.Now().After(deadline) && err == nil && !behind(st.AsOf, expSlot) && st.Slot == 0 {
			return Status{State: wire.StateExpired, Err: "the bundle's blockhash expired and it is not on chain"}, nil
		}
		select {
		case <-ctx.Done():
			return Status{}, fmt.Errorf("the chain did not tell whether the bundle landed: %w", ctx.Err())
		case <-time.After(poll):
		}
	}
}

// afterSlot waits until the chain's slot is past slot (0: no wait).
func afterSlot(ctx context.Context, bundler Bundler, slot uint64, every time.Duration) error {
	if slot == 0 {
		return nil
	}
	poll := max(every/6, 10*time.Millisecond)
	for {
		now, err := bundler.Slot(ctx)
		if err != nil {
			return err
		}
		if now > slot {
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
	var slot uint64
	for _, s := range sts {
		if s.State != wire.StateConfirmed {
			if s.State == wire.StateFailed {
				return s, nil
			}
			// Not landed yet, as far as the node that answered knows:
			// whether it is behind, or holds it unconfirmed, is kept.
			return Status{AsOf: s.AsOf, Slot: s.Slot}, nil
		}
		slot = max(slot, s.Slot)
	}
	return Status{State: wire.StateConfirmed, Slot: slot}, nil
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
	// Only logged: a launch whose coin is on chain is answered and
	// recorded with what landed, and no error.
	return fmt.Sprintf("bundle %d did not land, nor any after it (%s); the %d transactions of the bundles before it landed",
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

// noteBundle adds the bundle of txs to the run's bundles: the bundler's
// record of it, made final when it expired, or, for a bundle this process
// did not send (a redelivered launch found it on chain already), what the
// chain says of it. The relay's verdict wins over the chain's, except that
// a record still pending takes the outcome landBundle saw, and that a
// bundle the chain shows landed is landed: a relay's verdict on a bundle
// sent again (refused, dropped: its transactions were processed already)
// is about that sending, and "dropped" beside a coin on chain would have
// a bot launch it again.
func (run *deployRun) noteBundle(bundler Bundler, txs []wire.SignedTx, st Status) {
	sig := txs[0].Signature
	b, ok := bundler.Bundle(sig)
	if ok && st.State == wire.StateExpired {
		b, ok = bundler.ExpireBundle(sig)
	}
	if !ok {
		// The relay's answer to the send was lost (or this delivery did
		// not send it): the bundle is known by the id every relay derives
		// from its signatures.
		b = wire.Bundle{Relay: bundler.RelayName(), State: wire.BundlePending, ID: bundleIDOf(txs)}
		for _, t := range txs {
			b.Signatures = append(b.Signatures, t.Signature)
		}
		if st.State == wire.StateExpired {
			// No verdict, and it can no longer land: final, as one the
			// relay still called pending then.
			b.State, b.Reason = wire.BundlePendingTimeout, "no answer from the relay to its send, and its blockhash expired without it landing"
		}
	}
	if st.State == wire.StateConfirmed && b.State != wire.BundleLanded {
		b.State, b.Slot, b.Reason = wire.BundleLanded, st.Slot, ""
	}
	if b.State == wire.BundlePending {
		switch st.State {
		case wire.StateFailed:
			b.Reason = st.Err
			if ok {
				// The relay has not given a verdict: say why the launch
				// stopped waiting, and keep the bundle pending.
				break
			}
			b.State = wire.BundleFailed
		}
	}
	run.bundles = append(run.bundles, b)
}

// bundleIDOf is the relay's id of a launch's bundle (chains.BundleID); ""
// when a signature does not decode.
func bundleIDOf(txs []wire.SignedTx) string {
	sigs := make([]sol.Signature, len(txs))
	for i, t := range txs {
		s, err := sol.SignatureFromBase58(t.Signature)
		if err != nil {
			return ""
		}
		sigs[i] = s
	}
	return chains.BundleID(sigs)
}

// mergeBundles returns have with more merged in, one entry per bundle (a
// bundle is named by its first signature): a new entry replaces the one it
// updates, but never turns a final verdict back to pending, and keeps the
// id and relay an entry learned before.
func mergeBundles(have []wire.Bundle, more ...wire.Bundle) []wire.Bundle {
	out := append([]wire.Bundle(nil), have...)
	for _, b := range more {
		if len(b.Signatures) == 0 {
			continue
		}
		i := slices.IndexFunc(out, func(o wire.Bundle) bool {
			return len(o.Signatures) > 0 && o.Signatures[0] == b.Signatures[0]
		})
		if i < 0 {
			out = append(out, b)
			continue
		}
		old := out[i]
		if wire.FinalBundle(old.State) && !wire.FinalBundle(b.State) {
			continue
		}
		b.ID, b.Relay = cmp.Or(b.ID, old.ID), cmp.Or(b.Relay, old.Relay)
		out[i] = b
	}
	return out
}
