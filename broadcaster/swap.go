package broadcaster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// delivery is one delivery of a signed batch.
type delivery struct {
	batch   *wire.TxBatch
	reply   string    // the waiting ingress's inbox
	attempt uint64    // 1 on the first delivery
	stored  time.Time // when the batch entered the stream
	chain   Chain
	// network is what the batch was signed on (bus.HeaderNetwork), none
	// from an earlier version's worker.
	network string
	// notice: the batch came from a notice of its deliveries spent
	// (givenUpMsg), whose attempt is the stream's last.
	notice bool
	// elsewhere, when set, is why nothing of the batch is sent by this
	// delivery: its last, at a broadcaster of another network.
	elsewhere error
	log       *slog.Logger
}

// sendKind sorts what came of sending one transaction.
type sendKind int

const (
	// sent: the chain took the transaction, or already had it.
	sent sendKind = iota
	// refused: the chain refused it; sending it again will not help.
	refused
	// unsent: it surely did not reach the chain (no connection, a 4xx or
	// 429 status). It is tried again; when every try failed, it failed.
	unsent
	// unknown: it may have reached the chain (a timeout, a connection lost
	// in the middle, a 5xx, a node's "try later"). It is tried again; when
	// every try failed it is tracked like a sent one, because it may land.
	unknown
)

// sendResult is what came of sending one transaction of a batch.
type sendResult struct {
	signature string
	err       error
	kind      sendKind
	// settled: the order's record held the transaction failed or expired
	// before this delivery, which did not send it again (see settledBefore).
	// It counts as refused, and nothing reopens it.
	settled bool
}

// outcome is what came of sending a batch, and what the order says of it.
type outcome struct {
	results []sendResult
	// counts by kind
	sent, refused, unsent, unknown int
	// reason is the first failure's text, for the answer and the logs.
	reason string
	// answer is the error the ingress gets; nil when the chain took at
	// least one transaction.
	answer *apierr.Error
	// resent: a transaction counted unknown was sent by an earlier
	// delivery, and its re-send failed (see reopenSent).
	resent bool
}

// handle takes one signed batch. A swap goes through its steps in order:
// send every transaction, classify what came of it, record the trade,
// answer the waiting ingress, store the order and start tracking it. The
// order of the steps is what makes a crash between any two safe: the batch
// is acked last, so a crash anywhere redelivers it, and a redelivered batch
// sends the same signed bytes again (the chain dedupes them), answers again
// (a late answer is ignored) and stores again.
func (br *Broadcaster) handle(m jetstream.Msg) {
	d, ok := br.accept(m)
	if !ok {
		return
	}
	if d.batch.Kind == wire.KindDeploy {
		br.handleDeploy(m, d.batch, d.reply, d.attempt, d.again(), d.log.With("kind", wire.KindDeploy))
		return
	}
	if br.finalDelivery(d.attempt) {
		br.handleFinal(m, d)
		return
	}
	br.handleSwap(m, d)
}

// maxDeliver is how many times the stream hands a batch out: a few more
// than the sends get (see lastTry), and one beyond the last try.
func (br *Broadcaster) maxDeliver() int { return br.cfg.MaxAttempts + 4 }

// finalDelivery reports whether delivery attempt is the last the stream
// gives a batch. Every broadcaster declares the consumer with its own
// MaxAttempts: processes of one deployment share their configuration.
func (br *Broadcaster) finalDelivery(attempt uint64) bool { return int(attempt) >= br.maxDeliver() }

// handleFinal runs a swap batch's final delivery. Should it panic as the
// ones before may have (a defect that repeats), the stream would drop the
// batch with what an earlier delivery may have sent neither answered,
// stored nor tracked, its order never final: each of its transactions is
// then taken for maybe sent, without sending anything, and stored and
// tracked as such; the tracker settles each as the chain has it.
func (br *Broadcaster) handleFinal(m jetstream.Msg, d *delivery) {
	p := guard.Catch(func() { br.handleSwap(m, d) })
	if p == nil {
		return
	}
	metrics.Defect(d.log, bus.BroadcasterConsumer, "a batch's final delivery", p)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// What the record holds failed or expired stays so (its bot was told
	// it did not trade): never tracked, so never sent again.
	done, _, err := br.settledBefore(ctx, d)
	if err != nil {
		d.log.Warn("read the order of a batch whose final delivery panicked", "err", err)
	}
	const reason = "a defect stopped the sending of the order's transactions (logged), which may have been sent before"
	o := &outcome{results: make([]sendResult, len(d.batch.Txs)), reason: reason}
	for i, tx := range d.batch.Txs {
		if prev, ok := done[tx.Signature]; ok {
			o.results[i] = sendResult{signature: tx.Signature, kind: refused, settled: true, err: errors.New(prev.State + " before")}
			o.refused++
			continue
		}
		o.results[i] = sendResult{signature: tx.Signature, kind: unknown, err: errors.New(reason)}
		o.unknown++
	}
	o.answer = apierr.New(apierr.UpstreamTimeout, "an internal error stopped the sending of the order's transactions (logged); "+
		"they may have been sent before and may still land: look the order up").WithOrder(d.batch.OrderID)
	if o.unknown == 0 {
		o.answer = apierr.New(apierr.BroadcastFailed, "every transaction of the order failed or expired before").WithOrder(d.batch.OrderID)
	}
	ok := false
	if p := guard.Catch(func() {
		// The trade is recorded as any that may land is, for the bot's
		// next skip_if_bought.
		ok = br.recordTrade(ctx, d, o)
		ok = br.store(ctx, d, o, time.Now(), true) && ok
	}); p != nil {
		metrics.Defect(d.log, bus.BroadcasterConsumer, "storing a batch whose final delivery panicked", p)
	}
	if !ok {
		d.log.Error("a batch whose final delivery panicked could not be stored; its order is left as it was")
	}
	br.answer(d, o)
	if err := m.Ack(); err != nil {
		d.log.Warn("ack batch", "err", err)
	}
}

// accept decodes a delivery and finds its chain. A batch that cannot be
// decoded never will be, so it is dropped; one for a chain this process
// does not serve goes back for a broadcaster that does.
func (br *Broadcaster) accept(m jetstream.Msg) (*delivery, bool) {
	if m.Headers().Get(bus.HeaderVoid) != "" {
		// No batch: the mark that none of the order will come (an
		// ingress could not tell whether its job was queued).
		br.log.Info("order voided by its ingress; nothing to send", "order_id", m.Headers().Get(bus.HeaderOrder))
		_ = m.Ack()
		return nil, false
	}
	var batch wire.TxBatch
	if err := json.Unmarshal(m.Data(), &batch); err != nil || batch.OrderID == "" {
		if err == nil {
			err = errors.New("no order_id")
		}
		br.log.Error("undecodable batch dropped", "subject", m.Subject(), "bytes", len(m.Data()),
			"order_header", m.Headers().Get(bus.HeaderOrder), "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.BroadcasterConsumer, metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return nil, false
	}
	// An order's batch is the one message on its own subject (the
	// worker's create-only publish, BatchSubject), which is what keeps an
	// order from being handed on twice; earlier versions published on the
	// chain's one subject (TxsSubject). A batch anywhere else is no
	// worker's.
	if s := m.Subject(); s != bus.BatchSubject(batch.Chain, batch.OrderID) && s != bus.TxsSubject(batch.Chain) {
		br.log.Error("a batch on another order's subject dropped", "subject", s, "order_id", batch.OrderID, "chain", batch.Chain)
		metrics.MessagesDropped.WithLabelValues(bus.BroadcasterConsumer, metrics.MessageMisaddressed).Inc()
		_ = m.Term()
		return nil, false
	}
	d := &delivery{batch: &batch, reply: m.Headers().Get(bus.HeaderReply), attempt: 1,
		log: br.log.With("order_id", batch.OrderID, "chain", batch.Chain)}
	chain, ok := br.chains[batch.Chain]
	if !ok {
		d.log.Error("batch for a chain this broadcaster does not serve")
		_ = m.NakWithDelay(time.Second)
		return nil, false
	}
	d.chain = chain
	d.network = m.Headers().Get(bus.HeaderNetwork)
	g, notice := m.(*givenUpMsg)
	d.notice = notice
	if md, _ := m.Metadata(); md != nil {
		d.attempt, d.stored = md.NumDelivered, md.Timestamp
		if d.attempt > 1 && !notice {
			// A batch taken from a notice is counted by its consumer.
			metrics.Redeliveries.WithLabelValues(bus.BroadcasterConsumer).Inc()
		} else {
			metrics.Stage.WithLabelValues(metrics.StageBatchWait, batch.Chain).Observe(time.Since(md.Timestamp).Seconds())
		}
	}
	if br.otherNetwork(batch.Chain, d.network) {
		br.warns.Error(br.log, "network", "a batch signed on another network than this broadcaster sends its chain on: not sent here, for a broadcaster of its network",
			"order_id", batch.OrderID, "chain", batch.Chain, "batch_network", d.network, "broadcaster_network", br.cfg.Network(batch.Chain))
		if !notice || !g.last || batch.Kind == wire.KindDeploy {
			br.handBackElsewhere(m, d, notice && g.last)
			return nil, false
		}
		// Its last delivery: nothing is sent here, and what the
		// deliveries before it may have sent is left to land or
		// expire, tracked for its network's broadcasters (see send and
		// reopenSent: a notice trusts no note).
		d.elsewhere = fmt.Errorf("not sent: no broadcaster sending %s on the %s network took it (this one sends it on %s)",
			batch.Chain, d.network, br.cfg.Network(batch.Chain))
	}
	return d, true
}

// handBackElsewhere hands back a batch of another network, unsent, for a
// broadcaster of its network. The next delivery would take this one for
// one that may have sent it (see reopenSent), and count a refusal of its
// transactions maybe sent, unless it finds this one noted in the order's
// record: a note is written when nothing can have been sent before this
// delivery either (its first, or one after a noted delivery). A launch's
// batch on its last delivery is dropped, said in an error line: its order
// stays as its deliveries before left it.
func (br *Broadcaster) handBackElsewhere(m jetstream.Msg, d *delivery, last bool) {
	defer func() { _ = m.NakWithDelay(otherNetworkWait) }()
	if last {
		d.log.Error("a launch's batch of another network dropped on its last delivery, unsent; its order stays as its deliveries before left it",
			"batch_network", d.network)
		return
	}
	if d.notice {
		return
	}
	first := d.attempt == 1 && !d.waited()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := br.orders.UpdateFrom(ctx, d.batch.OrderID, orders.New(orders.OfBatch(d.batch)), orders.Stored{}, func(ord *wire.Order) {
		if first || ord.NotedAttempt > 0 && ord.NotedAttempt == d.attempt-1 {
			ord.NotedAttempt = d.attempt
		}
	})
	if err != nil {
		d.log.Warn("note a batch handed back to its network's broadcasters; the next delivery counts every refused send as maybe sent", "err", err)
	}
}

// otherNetworkWait is how long a batch of another network is held back
// before the stream hands it out again, to a broadcaster of its network.
const otherNetworkWait = 500 * time.Millisecond

// otherNetwork reports whether network, what a batch or tracked
// transaction of chain was signed on, is not the one this broadcaster
// sends the chain on (see Config.Network). An earlier version's, which
// says none, is taken as this one's.
func (br *Broadcaster) otherNetwork(chain, network string) bool {
	return network != "" && br.cfg.Network != nil && br.cfg.Network(chain) != network
}

// handleSwap runs a swap batch's steps; see handle.
func (br *Broadcaster) handleSwap(m jetstream.Msg, d *delivery) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	lastTry := br.lastTry(d.attempt)
	var done map[string]wire.SigState
	var ord *wire.Order
	if d.again() {
		var err error
		done, ord, err = br.settledBefore(ctx, d)
		if err != nil && lastTry {
			err = patiently(ctx, br.stopping, m, func() (err error) { done, ord, err = br.settledBefore(ctx, d); return err })
		}
		if errors.Is(err, errStopping) {
			handBack(m)
			return
		}
		if err != nil {
			if !lastTry {
				d.log.Warn("read the order before sending its batch again, will retry", "attempt", d.attempt, "err", err)
				_ = m.NakWithDelay(time.Second)
				return
			}
			// Whether a transaction was answered not taken cannot be
			// known: nothing is sent, and the bot looks the order up.
			br.giveUpUnread(m, d.batch, d.reply, d.log, err)
			return
		}
		if len(done) > 0 && len(done) == len(d.batch.Txs) {
			br.answerSettled(m, d, ord)
			return
		}
	}
	o := br.classify(d.batch, br.send(ctx, d, done), sentBefore(ord))
	if o.refused+o.unsent > 0 {
		// An earlier delivery's send may have reached the chain: its
		// transactions are not failed by their re-send's refusal.
		br.reopenSent(ctx, d, o)
	}
	if o.unsent+o.unknown > 0 && int(d.attempt) < br.cfg.MaxAttempts {
		// Sending the same signed bytes again is safe: the chain dedupes
		// them, and the ones it took already answer as taken. What may
		// have reached the chain is noted first, for the deliveries after.
		// Only a written note may be trusted by the delivery after: one
		// that failed leaves it counting every refused re-send as maybe
		// sent, as after a crash.
		if o.sent+o.unknown == 0 || br.noteMaybeSent(ctx, d, o) {
			br.retried.add(retryKey(d.batch.OrderID, d.attempt), time.Now())
		}
		// A buy that may have reached the chain counts for
		// skip_if_bought from now, not from the delivery that settles
		// it (seconds later, or never if none does).
		br.recordTrade(ctx, d, o)
		d.log.Warn("send failed, will retry", "attempt", d.attempt, "failed", o.unsent+o.unknown, "reason", o.reason)
		_ = m.NakWithDelay(time.Duration(d.attempt) * 200 * time.Millisecond)
		return
	}
	o.conclude(d.batch.OrderID)
	if o.answer != nil {
		d.log.Warn("order not broadcast", "code", o.answer.Code, "reason", o.reason, "may_land", o.unknown)
	}
	// The trade is recorded before the answer, so that the bot's next
	// skip_if_bought sees this buy.
	ok := br.recordTrade(ctx, d, o)
	if o.refused+o.unsent > 0 {
		// Transactions the answer calls not taken are stored failed
		// before it: a batch handed out again then sends them no more
		// (see settledBefore), so none lands after the bot was told it
		// did not. Unstored, the answer waits for the next delivery.
		ok = br.store(ctx, d, o, start, lastTry) && ok
		if !ok && !lastTry {
			br.finish(m, d, o, false)
			return
		}
		br.answer(d, o)
		br.finish(m, d, o, ok)
		return
	}
	br.answer(d, o)
	// The order, its event and the tracking come after the answer, which
	// must not wait for them; a crash here redelivers the batch, and the
	// redelivery stores them.
	ok = br.store(ctx, d, o, start, true) && ok
	br.finish(m, d, o, ok)
}

// waited reports whether the batch waited in the stream as no first
// delivery does (see sentBeforeAge).
func (d *delivery) waited() bool {
	return !d.stored.IsZero() && time.Since(d.stored) >= sentBeforeAge
}

// lastTry reports whether delivery attempt is a batch's last: a few more
// than the sends get, since stores recover faster than chains.
func (br *Broadcaster) lastTry(attempt uint64) bool {
	return int(attempt) >= br.cfg.MaxAttempts+3
}

// again reports whether the delivery may follow one that sent the batch:
// a redelivery, or a first delivery of a batch that waited in the stream
// as no first delivery does (see sentBeforeAge).
func (d *delivery) again() bool {
	return d.attempt > 1 || d.waited()
}

// sentBefore is the signatures an order's record holds as sent (taken by
// the chain or a relay, or confirmed) by an earlier delivery; nil for no
// record. A re-send of one the chain takes again, or answers "already
// processed", is not counted sent a second time.
func sentBefore(ord *wire.Order) map[string]bool {
	if ord == nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range ord.Signatures {
		if s.State == wire.StateBroadcast || s.State == wire.StateConfirmed {
			out[s.Signature] = true
		}
	}
	return out
}

// settledBefore returns the batch's transactions the order's record holds
// failed or expired, by signature: an earlier delivery answered that they
// were not taken, or the tracker settled them, and sending one again might
// land it after all (a refusal by a node's preflight, an unfunded wallet
// since topped up). A record not found holds none.
func (br *Broadcaster) settledBefore(ctx context.Context, d *delivery) (map[string]wire.SigState, *wire.Order, error) {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ord, err := br.orders.Get(rctx, d.batch.OrderID)
	if errors.Is(err, orders.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	inBatch := make(map[string]bool, len(d.batch.Txs))
	for _, tx := range d.batch.Txs {
		inBatch[tx.Signature] = true
	}
	done := map[string]wire.SigState{}
	for _, s := range ord.Signatures {
		if (s.State == wire.StateFailed || s.State == wire.StateExpired) && inBatch[s.Signature] {
			done[s.Signature] = s
		}
	}
	return done, ord, nil
}

// afterRead is what a handler keeps of its time for what follows a
// patient read: sending, storing, tracking.
const afterRead = 10 * time.Second

// errStopping: the broadcaster stops; the batch is handed back unanswered.
var errStopping = errors.New("the broadcaster stops")

// stopped reports whether stopping is closed: the broadcaster stops.
func stopped(stopping <-chan struct{}) bool {
	select {
	case <-stopping:
		return true
	default:
		return false
	}
}

// patiently calls read again, every second, while it fails, keeping m in
// progress meanwhile: the last try of a batch waits for the store rather
// than give the batch up. It stops afterRead before ctx's deadline, so
// that what follows the read has its time, and at once when stop closes
// (errStopping).
func patiently(ctx context.Context, stop <-chan struct{}, m jetstream.Msg, read func() error) error {
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-afterRead))
		defer cancel()
	}
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("the order record stayed unreadable: %w", ctx.Err())
		case <-stop:
			return errStopping
		case <-time.After(time.Second):
		}
		_ = m.InProgress()
		if err := read(); err == nil {
			return nil
		}
	}
}

// giveUpUnread ends a batch handed out again whose order record could not
// be read on its last try, however long it waited: sending it might land
// a transaction the bot was told was not taken, so nothing is sent; the
// bot is answered UPSTREAM_TIMEOUT with the order id, to look the order
// up, and the error log names the order for an operator to reconcile
// (what an earlier delivery sent is not tracked).
func (br *Broadcaster) giveUpUnread(m jetstream.Msg, b *wire.TxBatch, reply string, log *slog.Logger, err error) {
	log.Error("order record unreadable on the batch's last try, nothing sent", "err", err)
	bus.Reply(br.nc, reply, &wire.Reply{OrderID: b.OrderID, Signatures: []string{},
		Error: ptr(apierr.New(apierr.UpstreamTimeout, "the order's record could not be read; look the order up").WithOrder(b.OrderID).Body())})
	if err := m.Ack(); err != nil {
		log.Warn("ack batch", "err", err)
	}
}

// answerSettled answers a batch handed out again whose every transaction
// the order's record (ord) holds failed or expired, from that record, and
// acks it: nothing is sent again.
func (br *Broadcaster) answerSettled(m jetstream.Msg, d *delivery, ord *wire.Order) {
	r := &wire.Reply{OrderID: d.batch.OrderID, Signatures: []string{}}
	if ord != nil && ord.Error != nil {
		r.Error = ord.Error
	} else {
		r.Error = ptr(apierr.New(apierr.BroadcastFailed, "every transaction of the order failed or expired before").WithOrder(d.batch.OrderID).Body())
	}
	bus.Reply(br.nc, d.reply, r)
	d.log.Info("batch settled before, nothing sent again", "attempt", d.attempt)
	// Its final event goes out again: the delivery that settled it may
	// have died, or found the stream not taking it, before it went out (a
	// repeat is dropped by its id).
	if ord != nil {
		if typ, final := events.FinalType(ord.State); final {
			// Marked a repeat: past the stream's duplicate window it is
			// posted to a webhook only when it never began to be.
			if err := br.events.EmitAgain(context.Background(), typ, ord); err != nil && !br.lastTry(d.attempt) {
				_ = m.NakWithDelay(time.Second)
				return
			}
			// A delivery handed back after a send that may have landed
			// put the buy on its trade history (recordTrade), perhaps
			// after the tracker settled the order: settled here too.
			if err := br.settleTrade(context.Background(), ord, tradeKeys(d.batch)); err != nil && !br.lastTry(d.attempt) {
				d.log.Warn("settle the trade history of a final order, will retry", "err", err)
				_ = m.NakWithDelay(time.Second)
				return
			}
		}
	}
	if err := m.Ack(); err != nil {
		d.log.Warn("ack batch", "err", err)
	}
}

// send sends every transaction of the batch at once but those settled
// before (done): they are of different wallets, or of one wallet in nonce
// order, which a node's pool sorts out.
func (br *Broadcaster) send(ctx context.Context, d *delivery, done map[string]wire.SigState) []sendResult {
	start := time.Now()
	results := make([]sendResult, len(d.batch.Txs))
	late := pastSendBy(d.batch, start)
	if late != nil {
		d.log.Warn("batch taken after its send-by time; nothing of it is sent", "signed_at", d.batch.SignedAt,
			"send_by", d.batch.SendBy, "attempt", d.attempt)
	}
	sendOne := func(i int) {
		tx := d.batch.Txs[i]
		if prev, ok := done[tx.Signature]; ok {
			results[i] = sendResult{signature: tx.Signature, kind: refused, settled: true,
				err: fmt.Errorf("%s before this delivery: %s", prev.State, cmp.Or(prev.Error, "no reason recorded"))}
			return
		}
		if d.elsewhere != nil {
			// Not sent: a delivery before may have (reopenSent).
			results[i] = sendResult{signature: tx.Signature, kind: refused, err: d.elsewhere}
			return
		}
		if late != nil {
			// Not sent. On a delivery that may follow one that sent it
			// (d.again), it may be in a pool, and land: maybe sent,
			// tracked and never sent again, where the first delivery's
			// refusal is its own.
			kind := refused
			if d.again() {
				kind = unknown
			}
			results[i] = sendResult{signature: tx.Signature, kind: kind, err: late}
			return
		}
		err := d.chain.Send(ctx, tx)
		results[i] = sendResult{signature: tx.Signature, err: err, kind: kindOf(err)}
	}
	// Each on a goroutine of its own, the first on the handler's (most
	// orders are one transaction). A panic in any send is raised again here
	// once every send has returned, for the handler's recovery: the batch
	// then goes back as after a crash, with no result taken for sent.
	if d.batch.FirstLandsFirst && len(results) > 1 {
		sendOne(0)
		// Unknown may have reached the chain too, and land a moment later.
		if r := results[0]; (r.kind == sent || r.kind == unknown) && !r.settled {
			br.awaitLanding(ctx, d, r.signature)
		}
		guard.Many(len(results)-1, len(results)-1, func(i int) { sendOne(i + 1) })
	} else {
		guard.Many(len(results), len(results), sendOne)
	}
	metrics.Stage.WithLabelValues(metrics.StageBroadcastRPC, d.batch.Chain).Observe(time.Since(start).Seconds())
	return results
}

// pastSendBy is why no transaction of b is sent at now (its SendBy has
// passed: a broadcaster took it too late, after an outage or a backlog),
// or nil.
func pastSendBy(b *wire.TxBatch, now time.Time) error {
	if b.SendBy.IsZero() || now.Before(b.SendBy) {
		return nil
	}
	return &Refused{Reason: fmt.Sprintf("not sent: its swap deadline passed (%s after it was signed) before a broadcaster took it, "+
		"and from shortly after its nonces may go to other orders", b.SendBy.Sub(b.SignedAt).Round(time.Second))}
}

// firstLandingWait bounds how long a batch whose first transaction must
// land first (wire.TxBatch.FirstLandsFirst) waits for it, asking the chain
// every firstLandingPoll, before the others are sent all the same.
const (
	firstLandingWait = 5 * time.Second
	firstLandingPoll = 250 * time.Millisecond
)

// awaitLanding waits until the chain has sig landed (confirmed, or failed:
// then the others may fail too, and are sent all the same, as the pool may
// be grown by another trade by then), for at most firstLandingWait. It asks
// the chain itself where it can, not a bundle relay: landing is the chain's
// to tell, and relays limit how often they are asked.
func (br *Broadcaster) awaitLanding(ctx context.Context, d *delivery, sig string) {
	ctx, cancel := context.WithTimeout(ctx, firstLandingWait)
	defer cancel()
	tick := time.NewTicker(firstLandingPoll)
	defer tick.Stop()
	statuses := d.chain.Statuses
	if c, ok := d.chain.(chainStatuser); ok {
		statuses = c.ChainStatuses
	}
	for {
		st, err := statuses(ctx, []string{sig})
		if err == nil && len(st) == 1 && st[0].State != "" {
			if st[0].State != wire.StateConfirmed {
				d.log.Warn("the transaction the order's others wait for failed; sending them all the same", "tx", sig, "err", st[0].Err)
			}
			return
		}
		select {
		case <-ctx.Done():
			d.log.Warn("the transaction the order's others wait for was not seen landed in time; sending them all the same",
				"tx", sig, "waited", firstLandingWait, "err", err)
			return
		case <-tick.C:
		}
	}
}

// kindOf sorts a send's error. What is not known to be a refusal or to
// have stayed unsent counts as unknown: calling a transaction failed that
// may still land is how an order gets sold twice.
func kindOf(err error) sendKind {
	var ref *Refused
	switch {
	case err == nil:
		return sent
	case errors.As(err, &ref):
		return refused
	case endpoint.IsUnsent(err):
		return unsent
	}
	return unknown
}

// classify counts the results by kind, keeps the first failure's reason,
// and counts the transactions in the metrics: one sent before (in before,
// see sentBefore) is not counted sent again.
func (br *Broadcaster) classify(b *wire.TxBatch, results []sendResult, before map[string]bool) *outcome {
	o := &outcome{results: results}
	for i, r := range results {
		sender := senderOf(b.Txs[i])
		switch {
		case r.settled:
			o.refused++
		case r.kind == sent:
			o.sent++
			if !before[r.signature] {
				metrics.Transactions.With(b.Chain, sender, metrics.TxSent).Inc()
			}
		case r.kind == refused:
			o.refused++
			metrics.Transactions.With(b.Chain, sender, metrics.TxSendFailed).Inc()
		case r.kind == unsent:
			o.unsent++
			metrics.RPCErrors.WithLabelValues(b.Chain, "send").Inc()
		case r.kind == unknown:
			o.unknown++
			metrics.RPCErrors.WithLabelValues(b.Chain, "send").Inc()
		}
		if r.err != nil && o.reason == "" {
			o.reason = r.err.Error()
		}
	}
	return o
}

// reopenSent counts as maybe sent (unknown) the transactions this delivery
// could not send or the chain refused that an earlier delivery sent, or
// may have: a re-send is refused whether they landed or not (their
// blockhash is gone, or their nonce used by themselves). On a batch handed
// out again after its broadcaster died (not one this process handed back
// to retry, whose maybe-sent transactions it noted in the record) that is
// every one of them: the delivery before may have sent them and died
// before it wrote anything. Otherwise, those the order's record holds as
// broadcast or pending; and of a batch that waited in the stream as no
// first delivery does, those the chain holds (see reopenLanded).
func (br *Broadcaster) reopenSent(ctx context.Context, d *delivery, o *outcome) {
	if d.attempt > 1 && !br.retried.seen(retryKey(d.batch.OrderID, d.attempt-1), time.Now()) && !br.notedBefore(ctx, d) {
		for i, r := range o.results {
			if r.kind == refused || r.kind == unsent {
				o.reopen(i)
			}
		}
		return
	}
	br.reopenRecorded(ctx, d, o)
	if d.waited() && d.elsewhere == nil {
		br.reopenLanded(ctx, d, o)
	}
}

// notedBefore reports whether the order's record holds the note of the
// delivery just before this one, which handed the batch back after
// writing what it sent (another process's, or this one's before a
// restart): this delivery then knows what was sent, as after its own
// retry. A record that cannot be read knows nothing.
func (br *Broadcaster) notedBefore(ctx context.Context, d *delivery) bool {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ord, err := br.orders.Get(rctx, d.batch.OrderID)
	// A notice's deliveries all count as the stream's last (see
	// givenUpMsg), one of which may have sent and died after any note:
	// none trusts one.
	return err == nil && !d.notice && ord.NotedAttempt > 0 && ord.NotedAttempt == d.attempt-1
}

// reopenRecorded counts as maybe sent the refused or unsent transactions
// the order's record holds as broadcast or pending. When the record cannot
// be read, a delivery that may follow another (d.again) counts every one
// of them maybe sent: tracked until it lands or expires, rather than
// answered not taken and perhaps landed after all; a first delivery's
// refusals are its own.
func (br *Broadcaster) reopenRecorded(ctx context.Context, d *delivery, o *outcome) {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ord, err := br.orders.Get(rctx, d.batch.OrderID)
	if errors.Is(err, orders.ErrNotFound) {
		return
	}
	if err != nil {
		if !d.again() {
			d.log.Warn("read order before concluding a send", "err", err)
			return
		}
		d.log.Warn("read order before concluding a re-send; its refused transactions are counted maybe sent", "err", err)
	}
	open := map[string]bool{}
	if err == nil {
		for _, s := range ord.Signatures {
			if s.State == wire.StateBroadcast || s.State == wire.StatePending {
				open[s.Signature] = true
			}
		}
	}
	for i, r := range o.results {
		if (r.kind == refused || r.kind == unsent) && (err != nil || open[r.signature]) {
			o.reopen(i)
		}
	}
}

// sentBeforeAge is how long a batch sits in the stream before its first
// delivery is taken for one that may follow a delivery the stream no
// longer counts: a NATS server that died with the broadcaster can hand a
// batch out as delivery 1 again, after the batch was sent and answered
// but before its order was stored. A batch delivered as it should be
// waits well under a millisecond.
const sentBeforeAge = 2 * time.Second

// reopenLanded asks the chain about the transactions of a batch that may
// have been sent before whose re-send was refused, and counts as sent
// those it holds: a re-send of a transaction that landed is refused once
// its blockhash is gone (Solana) or its nonce used (EVM), and the order
// must not be failed for it; the tracker settles them from there. Those
// it does not hold whose refusal was stale (see Refused.Stale) are
// counted maybe sent: an earlier send may still land (a node behind
// knows its blockhash no more than the next), and one that was dropped
// is expired, not failed, once the tracker sees its blockhash or nonce
// gone. A chain that does not answer leaves only the other refusals as
// they are.
func (br *Broadcaster) reopenLanded(ctx context.Context, d *delivery, o *outcome) {
	var idx []int
	var sigs []string
	for i, r := range o.results {
		if r.kind == refused && !r.settled {
			idx, sigs = append(idx, i), append(sigs, r.signature)
		}
	}
	if len(sigs) == 0 {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	statuses := d.chain.Statuses
	if c, ok := d.chain.(chainStatuser); ok {
		// Not the bundle records: the refused re-send of a private
		// transaction has just recorded its bundle dropped.
		statuses = c.ChainStatuses
	}
	sts, err := statuses(sctx, sigs)
	if err != nil || len(sts) != len(sigs) {
		metrics.RPCErrors.WithLabelValues(d.batch.Chain, "statuses").Inc()
		d.log.Warn("ask the chain about refused re-sends of a batch that may have been sent before", "err", err)
		sts = nil
	}
	for j, i := range idx {
		switch {
		case sts != nil && (sts[j].State == wire.StateConfirmed || sts[j].Slot > 0):
			d.log.Info("a refused re-send's transaction is on chain: sent before", "signature", sigs[j])
			o.landed(i)
			if i < len(d.batch.Txs) {
				metrics.Transactions.With(d.batch.Chain, senderOf(d.batch.Txs[i]), metrics.TxSent).Inc()
			}
		case staleRefusal(o.results[i].err):
			d.log.Info("a refused re-send's blockhash or nonce is gone: maybe sent before, tracked until it lands or expires",
				"signature", sigs[j], "reason", o.results[i].err)
			o.reopen(i)
		}
	}
}

// staleRefusal reports whether err is a chain's stale refusal (see
// Refused.Stale).
func staleRefusal(err error) bool {
	var ref *Refused
	return errors.As(err, &ref) && ref.Stale
}

// chainStatuser is a Chain that can ask the chain itself about
// transactions, whatever its relays recorded of their bundles.
type chainStatuser interface {
	ChainStatuses(ctx context.Context, sigs []string) ([]Status, error)
}

// landed counts result i, refused, as sent: the chain holds it.
func (o *outcome) landed(i int) {
	if o.results[i].settled {
		return
	}
	o.refused--
	o.results[i].kind, o.results[i].err = sent, nil
	o.sent++
}

// reopen counts result i, refused or unsent, as maybe sent by an earlier
// delivery.
func (o *outcome) reopen(i int) {
	if o.results[i].settled {
		return
	}
	if o.results[i].kind == refused {
		o.refused--
	} else {
		o.unsent--
	}
	o.results[i].kind = unknown
	o.unknown++
	o.resent = true
}

// noteMaybeSent writes into the order's record, before the batch is tried
// again, which of its transactions this delivery sent or may have sent: a
// later delivery then knows them for sent, whatever their re-send meets.
// It reports whether the note was written.
func (br *Broadcaster) noteMaybeSent(ctx context.Context, d *delivery, o *outcome) bool {
	states := o.states(d.batch)
	// What this delivery could not send is left out of the note: nothing
	// is answered yet, and noted pending (maybe sent) it would be tracked,
	// and on EVM re-sent, while the answer leaves it out. Unless an earlier
	// delivery this one cannot see may have sent it (a batch handed out
	// again as a first delivery): then it is noted pending, maybe sent.
	notSent := map[string]bool{}
	for i, r := range o.results {
		switch {
		case r.kind != refused && r.kind != unsent || r.settled:
		case d.again() && d.attempt == 1:
			states[i].State = wire.StatePending
		default:
			notSent[r.signature] = true
		}
	}
	uctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := br.orders.UpdateFrom(uctx, d.batch.OrderID, orders.New(orders.OfBatch(d.batch)), orders.Stored{}, func(ord *wire.Order) {
		prev := map[string]wire.SigState{}
		for _, s := range ord.Signatures {
			prev[s.Signature] = s
		}
		sigs, _ := keepKnown(ord.Signatures, states)
		out := sigs[:0]
		for _, s := range sigs {
			if notSent[s.Signature] {
				if p, ok := prev[s.Signature]; ok {
					out = append(out, p)
				}
				continue
			}
			out = append(out, s)
		}
		ord.Signatures = out
		ord.NotedAttempt = d.attempt
		if !wire.FinalState(ord.State) {
			ord.State = wire.StatePending
		}
	})
	if err != nil {
		d.log.Warn("note transactions that may have been sent; the next delivery counts every refused re-send as maybe sent", "err", err)
		return false
	}
	return true
}

// conclude decides the answer once no more tries are left. One
// transaction taken makes the order broadcast; none taken is a
// BROADCAST_FAILED when the chain refused them all, else an
// UPSTREAM_TIMEOUT, which tells the bot to look the order up.
func (o *outcome) conclude(orderID string) {
	switch {
	case o.sent > 0:
		return
	case o.unknown > 0 && o.resent:
		o.answer = apierr.New(apierr.UpstreamTimeout, "an earlier send of the order's transactions may have reached the chain, and their re-send was refused ("+
			o.reason+"); they may still land, look the order up")
	case o.unknown > 0:
		o.answer = apierr.New(apierr.UpstreamTimeout, "the chain RPC did not answer: "+o.reason+
			"; the transactions may still land, look the order up")
	case o.unsent > 0:
		o.answer = apierr.New(apierr.UpstreamTimeout, "the chain RPC did not answer: "+o.reason)
	default:
		o.answer = apierr.New(apierr.BroadcastFailed, "the chain refused every transaction: "+o.reason)
	}
	o.answer = o.answer.WithOrder(orderID)
}

// mayLand reports whether a transaction of the order may land.
func (o *outcome) mayLand() bool { return o.sent+o.unknown > 0 }

// failedNow reports whether the order is final as failed already: nothing
// of it was taken and nothing of it may land.
func (o *outcome) failedNow() bool { return o.answer != nil && o.unknown == 0 }

// signatures are the transactions of an order the chain took, for its
// answer, with those whose send may have reached the chain (a timeout on
// the last try): listed, a bot follows them as it does the others (the
// lookup shows them pending until they land or expire) instead of taking
// their wallets for not bought and buying again. An order answered an
// error lists none.
func (o *outcome) signatures() []string {
	sigs := make([]string, 0, o.sent+o.unknown)
	if o.sent == 0 {
		return sigs
	}
	for _, r := range o.results {
		if r.kind == sent || r.kind == unknown {
			sigs = append(sigs, r.signature)
		}
	}
	return sigs
}

// states are the signatures' states for the order record: a transaction
// that may still land is pending, with why it is not known to be sent.
func (o *outcome) states(b *wire.TxBatch) []wire.SigState {
	states := make([]wire.SigState, len(o.results))
	for i, r := range o.results {
		states[i] = wire.SigState{Signature: r.signature, Wallet: b.Txs[i].Wallet, State: wire.StateBroadcast}
		switch r.kind {
		case refused, unsent:
			states[i].State, states[i].Error = wire.StateFailed, r.err.Error()
		case unknown:
			states[i].State, states[i].Error = wire.StatePending, r.err.Error()
		}
	}
	return states
}

// Trade-history keys bought for good are remembered for tradeKeyTTL, at
// most tradeKeysMax of them: a bound on what a bucket changed behind the
// service's back (a key purged by hand) can go unnoticed, and on memory.
const (
	tradeKeyTTL  = 10 * time.Minute
	tradeKeysMax = 1 << 16
)

// recentKeys is a set of keys written lately, each for ttl, holding at
// most max: when full, it starts again empty.
type recentKeys struct {
	ttl time.Duration
	max int

	mu sync.Mutex
	at map[string]time.Time
}

// seen reports whether key was added within ttl before now.
func (r *recentKeys) seen(key string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.at[key]
	return ok && now.Sub(t) < r.ttl
}

// add remembers key as written at now.
func (r *recentKeys) add(key string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == nil || len(r.at) >= r.max {
		r.at = make(map[string]time.Time)
	}
	r.at[key] = now
}

// retryKey names in Broadcaster.retried the delivery attempt of an order's
// batch that this process handed back after noting what it sent: only the
// delivery right after it may trust the note. One of another process in
// between, or one that panicked (and noted nothing), makes the next count
// every refused re-send as maybe sent, as after a crash.
func retryKey(orderID string, attempt uint64) string {
	return orderID + "#" + strconv.FormatUint(attempt, 10)
}

// answer replies to the waiting ingress. A reply nobody waits for any more
// (the ingress answered 504 already) is lost harmlessly.
func (br *Broadcaster) answer(d *delivery, o *outcome) {
	r := &wire.Reply{OrderID: d.batch.OrderID, Signatures: o.signatures()}
	if o.answer != nil {
		r.Error = ptr(o.answer.Body())
	}
	bus.Reply(br.nc, d.reply, r)
}

// store writes the order record, emits its event and starts tracking what
// may land. It reports false when a store failed, so the batch comes back:
// every write here is idempotent by order id.
func (br *Broadcaster) store(ctx context.Context, d *delivery, o *outcome, start time.Time, answered bool) bool {
	stored, written, finalBefore, ok := br.storeOrder(ctx, d, o, start)
	// An outcome neither stored nor answered is decided again by the next
	// delivery, which may send what this one could not: no event tells of
	// it before then.
	if !ok && !answered {
		return false
	}
	// A final order's event is its final one: failed now, or settled by the
	// tracker before this delivery (emitted again, the stream drops the
	// repeat). Nothing taken but something that may land has no event yet:
	// the tracker emits its final one.
	if typ, final := events.FinalType(stored.State); final {
		// One the stream did not take goes out again with the next
		// delivery, which answers from the record (answerSettled). One
		// final before this delivery goes out marked a repeat.
		emit := br.events.Emit
		if finalBefore {
			emit = br.events.EmitAgain
		}
		if err := emit(ctx, typ, stored); err != nil {
			ok = false
		}
		// A buy this delivery put on its token's trade history, whose
		// order the tracker settled meanwhile (while this delivery sent
		// again), is settled here: nothing tracks it any more.
		if err := br.settleTrade(ctx, stored, tradeKeys(d.batch)); err != nil {
			d.log.Warn("settle the trade history of a final order", "err", err)
			ok = false
		}
	} else if o.sent > 0 {
		br.events.Emit(ctx, events.Broadcast, stored)
	}
	results := notFinal(stillOpen(o.results, stored.Signatures), stored.Signatures)
	if !slices.ContainsFunc(results, func(r sendResult) bool { return r.kind == sent || r.kind == unknown }) {
		return ok
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := br.tracker.add(tctx, d.batch, d.network, results, written); err != nil {
		d.log.Error("track signatures", "err", err)
		return false
	}
	return ok
}

// stillOpen returns results with a transaction whose re-send failed but
// which the order record keeps open (sent before, see keepKnown) counted
// as maybe sent: the tracker watches it until it lands or expires.
func stillOpen(results []sendResult, stored []wire.SigState) []sendResult {
	if !slices.ContainsFunc(results, func(r sendResult) bool { return r.kind != sent && r.kind != unknown }) {
		return results // the common case: every transaction sent
	}
	open := map[string]bool{}
	for _, st := range stored {
		if !wire.FinalState(st.State) {
			open[st.Signature] = true
		}
	}
	out := slices.Clone(results)
	for i, r := range out {
		if r.kind != sent && r.kind != unknown && open[r.signature] {
			out[i].kind = unknown
		}
	}
	return out
}

// notFinal returns results with every transaction the order record holds
// final (failed or expired, by an earlier delivery's answer or the
// tracker) counted refused: it is not tracked, so never sent again, though
// this delivery took it for sent or maybe sent. The bot was told it did
// not trade; sent again, it could.
func notFinal(results []sendResult, stored []wire.SigState) []sendResult {
	final := map[string]bool{}
	for _, st := range stored {
		if st.State == wire.StateFailed || st.State == wire.StateExpired {
			final[st.Signature] = true
		}
	}
	if len(final) == 0 {
		return results
	}
	out := slices.Clone(results)
	for i, r := range out {
		if final[r.signature] && (r.kind == sent || r.kind == unknown) {
			out[i].kind = refused
		}
	}
	return out
}

// storeOrder writes the batch's outcome into the order record, creating it
// when ingress could not, and returns the record as stored (or as it would
// have been, when the store failed), with what the tracker needs to update
// it without reading it back, and whether the order was final before.
func (br *Broadcaster) storeOrder(ctx context.Context, d *delivery, o *outcome, start time.Time) (stored *wire.Order, written orders.Stored, finalBefore, ok bool) {
	b := d.batch
	states := o.states(b)
	// An anti_mev transaction's bundle, with the relay's verdict so far.
	bundles := bundlesOf(d.chain, signaturesOf(b.Txs))
	apply := func(ord *wire.Order) {
		ord.Bundles = mergeBundles(ord.Bundles, bundles...)
		prevState, prevErr := ord.State, ord.Error
		finalBefore = wire.FinalState(prevState)
		sigs, kept := keepKnown(ord.Signatures, states)
		ord.Signatures, ord.Chain, ord.Route, ord.Venue, ord.Tax = sigs, b.Chain, b.Route, b.Venue, b.Tax
		ord.SkippedWallets = b.SkippedWallets
		if b.Mint != "" && !sameAddress(b.Family, b.Mint, b.Token) {
			ord.Mint = b.Mint
		}
		switch {
		case o.failedNow():
			ord.State, ord.Error = wire.StateFailed, ptr(o.answer.Body())
		case o.answer != nil:
			// Not known to be sent, not known to have failed: the
			// tracker settles it.
			ord.State, ord.Error = wire.StatePending, ptr(o.answer.Body())
		default:
			ord.State, ord.Error = wire.StateBroadcast, nil
			if ord.BroadcastAt == nil {
				ord.BroadcastAt = ptr(start.UTC())
			}
		}
		if kept {
			// A redelivered batch of an order sent before, or settled in
			// part or whole by the tracker: the order follows its
			// signatures, and keeps the error it had (a transaction that
			// may have landed is not failed by its re-send's refusal).
			// An order final before this delivery keeps its error as
			// the tracker left it: the refused re-send of a transaction
			// that expired says nothing new.
			now := ord.Error
			orders.Settle(ord)
			ord.Error = prevErr
			switch {
			case ord.State == wire.StateConfirmed:
				ord.Error = nil
			case wire.FinalState(ord.State) && ord.Error == nil && !wire.FinalState(prevState):
				ord.Error = now
			}
		}
	}
	seed := orders.New(orders.OfBatch(b))
	result := *seed
	uctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	written, err := br.orders.UpdateFrom(uctx, b.OrderID, seed, orders.Stored{}, func(ord *wire.Order) { apply(ord); result = *ord })
	if err != nil {
		d.log.Error("store order result", "err", err)
		apply(&result)
		return &result, orders.Stored{}, finalBefore, false
	}
	return &result, written, finalBefore, true
}

// keepKnown returns this delivery's signature states, keeping what the
// record already knows: a final state (a redelivered batch must not turn a
// transaction the tracker saw land or expire back into broadcast, nor the
// refusal of its re-send, its nonce used, into a failure), and a
// transaction sent before, or maybe sent, whose re-send the chain refused
// or did not answer now (one the chain took stays broadcast): the first
// send may have landed (a re-send after a restart finds
// its blockhash gone whether it landed or not), so it stays for the
// tracker to settle, never failed by the re-send. It reports whether it
// kept any.
func keepKnown(prev, states []wire.SigState) ([]wire.SigState, bool) {
	known := map[string]wire.SigState{}
	for _, s := range prev {
		if wire.FinalState(s.State) || s.State == wire.StateBroadcast || s.State == wire.StatePending {
			known[s.Signature] = s
		}
	}
	out := slices.Clone(states)
	kept := false
	for i, s := range out {
		p, ok := known[s.Signature]
		if ok && (wire.FinalState(p.State) || s.State == wire.StateFailed || (s.State == wire.StatePending && p.State == wire.StateBroadcast)) {
			out[i], kept = p, true
		}
	}
	return out, kept
}

// finish acks the batch, or, when a store failed, hands it back for a
// while: a few redeliveries more than the sends get, since stores recover
// faster than chains.
func (br *Broadcaster) finish(m jetstream.Msg, d *delivery, o *outcome, ok bool) {
	if !ok && !br.lastTry(d.attempt) {
		_ = m.NakWithDelay(time.Second)
		return
	}
	if err := m.Ack(); err != nil {
		d.log.Warn("ack batch", "err", err)
	}
	// An order of which some transactions were refused (or never sent)
	// is answered 200 when another was taken: said at info, so that an
	// order whose wallets mostly bought nothing shows in the log.
	if o.refused > 0 || o.unsent > 0 {
		d.log.Info("order broadcast with transactions refused", "sent", o.sent, "refused", o.refused, "unsent", o.unsent, "may_land", o.unknown)
		return
	}
	d.log.Debug("order broadcast", "sent", o.sent, "refused", o.refused, "unsent", o.unsent, "may_land", o.unknown)
}

// sameAddress tells whether two addresses of family are one: EVM addresses
// are hex, whatever their letters' case; Solana's base58 is not.
func sameAddress(family wire.Family, a, b string) bool {
	if family == wire.FamilyEVM {
		return strings.EqualFold(a, b)
	}
	return a == b
}
