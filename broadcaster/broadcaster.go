// Package broadcaster sends signed transactions to their chains, answers the
// waiting ingress with the signatures, stores the order result and the
// account's trade history, and tracks every signature until it is
// confirmed, failed or expired.
package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Chain is what the broadcaster needs of a chain's RPC.
type Chain interface {
	// Send submits a signed transaction. Submitting one the chain has
	// already seen is a success. A refusal is a *Refused error; any other
	// error may be retried.
	Send(ctx context.Context, tx wire.SignedTx) error
	// Statuses returns the state of each signature, in order.
	Statuses(ctx context.Context, sigs []string) ([]Status, error)
	// Height is the chain's current block height, to tell expiry.
	Height(ctx context.Context) (uint64, error)
}

// Refused is a chain's refusal of a transaction; sending it again will not help.
type Refused struct{ Reason string }

func (r *Refused) Error() string { return "refused: " + r.Reason }

// Status is a signature's state on chain.
type Status struct {
	// State is "" while unknown or not final enough, else confirmed or failed.
	State string
	Err   string
	// Slot is where a landed bundle landed, when the relay says.
	Slot uint64
}

// Config configures the broadcaster.
type Config struct {
	Concurrency  int
	AckWait      time.Duration
	MaxAttempts  int
	Poll         time.Duration
	ConfirmAfter time.Duration // how long an unseen signature lives before it expires
}

func (c *Config) defaults() {
	if c.Concurrency < 1 {
		c.Concurrency = 128
	}
	if c.AckWait <= 0 {
		c.AckWait = bus.AckWait
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 3
	}
	if c.Poll <= 0 {
		c.Poll = 300 * time.Millisecond
	}
	if c.ConfirmAfter <= 0 {
		c.ConfirmAfter = 90 * time.Second
	}
}

// Broadcaster consumes signed batches of every configured chain.
type Broadcaster struct {
	cfg     Config
	nc      *nats.Conn
	js      jetstream.JetStream
	b       *bus.Buckets
	orders  *orders.Store
	chains  map[string]Chain
	tracker *tracker
	events  *events.Publisher
	log     *slog.Logger
}

// New returns a broadcaster for the given chains.
func New(cfg Config, nc *nats.Conn, js jetstream.JetStream, b *bus.Buckets, chains map[string]Chain, log *slog.Logger) *Broadcaster {
	cfg.defaults()
	log = log.With("component", "broadcaster")
	br := &Broadcaster{cfg: cfg, nc: nc, js: js, b: b, orders: orders.NewStore(b.Orders), chains: chains,
		events: events.NewPublisher(js, log), log: log}
	br.tracker = newTracker(br)
	return br
}

// Run consumes until ctx ends, then finishes the batches in hand.
func (br *Broadcaster) Run(ctx context.Context) error {
	var filters []string
	for name := range br.chains {
		filters = append(filters, bus.TxsSubject(name))
	}
	if len(filters) == 0 {
		return errors.New("broadcaster: no chains configured")
	}
	cons, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{
		Durable:        bus.BroadcasterConsumer,
		FilterSubjects: filters,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        br.cfg.AckWait,
		MaxDeliver:     br.cfg.MaxAttempts + 4,
		MaxAckPending:  10 * br.cfg.Concurrency,
	})
	if err != nil {
		return fmt.Errorf("broadcaster: consumer: %w", err)
	}
	if err := br.tracker.load(ctx); err != nil {
		br.log.Warn("reload tracked orders", "err", err)
	}
	trackCtx, stopTrack := context.WithCancel(context.Background())
	trackDone := make(chan struct{})
	go func() { defer close(trackDone); br.tracker.run(trackCtx) }()

	pool, err := bus.Consume(cons, br.cfg.Concurrency, br.handle, br.log)
	if err != nil {
		stopTrack()
		return fmt.Errorf("broadcaster: %w", err)
	}
	br.log.Info("broadcaster started", "chains", strings.Join(filters, ","))
	<-ctx.Done()
	pool.Stop()
	stopTrack()
	<-trackDone
	br.log.Info("broadcaster stopped")
	return nil
}

type sendResult struct {
	err       error
	refused   bool
	signature string
}

func (br *Broadcaster) handle(m jetstream.Msg) {
	var batch wire.TxBatch
	if err := json.Unmarshal(m.Data(), &batch); err != nil || batch.OrderID == "" {
		br.log.Error("undecodable batch dropped", "err", err)
		_ = m.Term()
		return
	}
	log := br.log.With("order_id", batch.OrderID, "chain", batch.Chain)
	reply := m.Headers().Get(bus.HeaderReply)
	chain, ok := br.chains[batch.Chain]
	if !ok {
		log.Error("batch for a chain this broadcaster does not serve")
		_ = m.NakWithDelay(time.Second)
		return
	}
	md, _ := m.Metadata()
	attempt := uint64(1)
	if md != nil {
		attempt = md.NumDelivered
		if attempt > 1 {
			metrics.Redeliveries.WithLabelValues(bus.BroadcasterConsumer).Inc()
		}
	}
	if batch.Kind == wire.KindDeploy {
		br.handleDeploy(m, &batch, reply, attempt, log.With("kind", wire.KindDeploy))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	start := time.Now()
	results := make([]sendResult, len(batch.Txs))
	var wg sync.WaitGroup
	for i, tx := range batch.Txs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := chain.Send(ctx, tx)
			var ref *Refused
			results[i] = sendResult{err: err, refused: errors.As(err, &ref), signature: tx.Signature}
		}()
	}
	wg.Wait()
	metrics.Stage.WithLabelValues("broadcast_rpc", batch.Chain).Observe(time.Since(start).Seconds())

	sent, refused, transient := 0, 0, 0
	var firstReason string
	for i, r := range results {
		sender := senderOf(batch.Txs[i])
		switch {
		case r.err == nil:
			sent++
			metrics.Transactions.With(batch.Chain, sender, metrics.TxSent).Inc()
		case r.refused:
			refused++
			metrics.Transactions.With(batch.Chain, sender, metrics.TxSendFailed).Inc()
			if firstReason == "" {
				firstReason = r.err.Error()
			}
		default:
			transient++
			metrics.RPCErrors.WithLabelValues(batch.Chain, "send").Inc()
			if firstReason == "" {
				firstReason = r.err.Error()
			}
		}
	}
	if transient > 0 && int(attempt) < br.cfg.MaxAttempts {
		// Sending the same signed bytes again is safe: the chain dedupes them.
		log.Warn("send failed, will retry", "attempt", attempt, "failed", transient, "reason", firstReason)
		_ = m.NakWithDelay(time.Duration(attempt) * 200 * time.Millisecond)
		return
	}

	sigs := make([]string, 0, sent)
	states := make([]wire.SigState, len(batch.Txs))
	for i, r := range results {
		states[i] = wire.SigState{Signature: r.signature, Wallet: batch.Txs[i].Wallet, State: wire.StateBroadcast}
		if r.err != nil {
			states[i].State = wire.StateFailed
			states[i].Error = r.err.Error()
			continue
		}
		sigs = append(sigs, r.signature)
	}
	seed := orders.New(orders.OfBatch(&batch))

	var answer *apierr.Error
	if sent == 0 {
		if transient > 0 {
			answer = apierr.New(apierr.UpstreamTimeout, "the chain RPC did not answer: "+firstReason)
		} else {
			answer = apierr.New(apierr.BroadcastFailed, "the chain refused every transaction: "+firstReason)
		}
		answer = answer.WithOrder(batch.OrderID)
		log.Warn("order not broadcast", "code", answer.Code, "reason", firstReason)
	}
	// The trade history is written before the answer, so that a bot's next
	// skip_if_bought sees this buy.
	// A store that could not be written makes the batch come back: it is
	// sent again (the chain dedupes it), answered again (a late answer is
	// ignored) and stored then.
	storeFailed := false
	if sent > 0 && batch.Side == wire.Buy {
		key := wire.TradeKey(batch.AccountID, batch.Family, batch.Token)
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if _, err := br.b.Trades.Put(tctx, key, []byte(batch.OrderID)); err != nil {
			log.Error("record trade", "err", err)
			storeFailed = true
		}
		cancel()
	}
	r := &wire.Reply{OrderID: batch.OrderID, Signatures: sigs}
	if answer != nil {
		r.Error = ptr(answer.Body())
	}
	bus.Reply(br.nc, reply, r)

	// The order record, its event and the tracking come after the answer:
	// if this process dies here, the batch is redelivered, sent again (the
	// chain dedupes it) and recorded then.
	apply := func(o *wire.Order) {
		o.Signatures = states
		o.Chain = batch.Chain
		o.Route, o.Tax = batch.Route, batch.Tax
		if answer != nil {
			body := answer.Body()
			o.Error = &body
			o.State = wire.StateFailed
		} else {
			o.State = wire.StateBroadcast
			o.Error = nil
			if o.BroadcastAt == nil {
				at := start.UTC()
				o.BroadcastAt = &at
			}
		}
	}
	stored := *seed
	uctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	if err := br.orders.Update(uctx, batch.OrderID, seed, func(o *wire.Order) { apply(o); stored = *o }); err != nil {
		log.Error("store order result", "err", err)
		apply(&stored)
		storeFailed = true
	}
	cancel()
	if answer != nil {
		br.events.Emit(ctx, events.Failed, &stored)
	} else {
		br.events.Emit(ctx, events.Broadcast, &stored)
	}
	if sent > 0 {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if err := br.tracker.add(tctx, &batch, results); err != nil {
			log.Error("track signatures", "err", err)
			storeFailed = true
		}
		cancel()
	}
	if storeFailed && int(attempt) < br.cfg.MaxAttempts+3 {
		_ = m.NakWithDelay(time.Second)
		return
	}
	if err := m.Ack(); err != nil {
		log.Warn("ack batch", "err", err)
	}
	log.Debug("order broadcast", "sent", sent, "refused", refused)
}

func ptr[T any](v T) *T { return &v }

// senderOf names the path a transaction is sent by, for the metrics.
func senderOf(tx wire.SignedTx) string {
	if tx.Private {
		return metrics.SenderRelay
	}
	return metrics.SenderRPC
}
