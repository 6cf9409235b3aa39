// Package workers runs the chain workers: one JetStream consumer per chain
// whose messages are validated swap and deploy jobs. A worker turns a job
// into signed transactions through its chain's Signer and hands the batch
// to the broadcaster on the order's own subject of TXS, where it is
// published at most once and stays as the record of what was signed: a
// redelivered job finds it there and is not signed again, so one order
// never gets two different transactions, however often it is delivered.
//
// A worker trusts nothing a job says about whose money it moves: before
// anything is signed, every wallet the job names must be a wallet of the
// job's account in the registry (Accounts), whatever ingress checked. NATS
// is a trust boundary; a job published by anything but ingress (a
// compromised role, a mistake in a tool) must not be able to spend another
// account's wallets.
package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/skipclaim"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Signer builds and signs every transaction of a job. A business refusal is
// an *apierr.Error whose kind is not transient; any other error is retried.
type Signer interface {
	Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error)
}

// Dropper is a Signer whose signed batches take something that must be
// given back when one is dropped unsent (its order's batch was handed on
// by another delivery first, or its ingress voided the order): the EVM
// signer's nonces, which would otherwise be a gap holding the wallet's
// later transactions back.
type Dropper interface {
	Dropped(ctx context.Context, batch *wire.TxBatch)
	// PublishBy is when batch, signed by this delivery, must be in TXS:
	// past it what the batch took may be taken for lost (an EVM nonce the
	// gap filler fills), so the worker stops handing it on and leaves the
	// job to its redelivery, which looks the batch up before it signs.
	PublishBy(batch *wire.TxBatch) time.Time
}

// Launcher is a Signer that also launches tokens: it builds and signs every
// transaction of every bundle of a deploy, with the same error contract.
type Launcher interface {
	SignDeploy(ctx context.Context, job *wire.DeployJob) (*wire.TxBatch, error)
}

// Accounts is the registry's read side as a worker consults it: an account
// by id, with its wallets. *registry.View implements it; the process must
// have loaded the view (View.Ready) before the worker consumes.
type Accounts interface {
	Account(id string) (*registry.Account, bool)
}

// Config configures a worker.
type Config struct {
	Chain string
	// Concurrency is how many jobs are handled at once.
	Concurrency int
	// JobMaxAge: an older job is not executed.
	JobMaxAge time.Duration
	// AckWait is how long JetStream waits for an ack before redelivering.
	AckWait time.Duration
	// MaxAttempts bounds deliveries of a job that keeps failing transiently.
	MaxAttempts int
	// Beat is the presence heartbeat interval.
	Beat time.Duration
	// Local: the chain is run by the local chains, a test double; said in
	// the beats, so that an ingress serving the public network does not
	// route its orders here.
	Local bool
	// Network is the network this worker serves its chain on
	// (config.Config.Network): a job that names another one (its publisher
	// configured otherwise: one of them left on the local chains beside
	// the other's public network) is not signed here. Empty takes every
	// job.
	Network string
	// OwnerWait is how long a wallet the registry view does not show for
	// the job's account is waited for before the job is refused. A wallet
	// created just before the order reaches every view within a second,
	// and this process's view may be a little behind the ingress's that
	// accepted the order.
	OwnerWait time.Duration
	// LookupWait bounds the reads of what an earlier delivery of a job did
	// (5 s): a stream that does not answer has the job tried again later,
	// rather than hold the handler, and a stopping worker, for the job's
	// whole life.
	LookupWait time.Duration
	// Venues refuses a launch on a paused venue (a *venues.View): ingress
	// refuses them before they are charged, but a launch queued before the
	// pause reaches the worker after it, and must not be signed to fail on
	// chain. A swap's venue is known to its signer only, which refuses it
	// there. Nil lets every launch run.
	Venues VenueGate
}

// VenueGate tells whether a venue takes orders (venues.Gate).
type VenueGate = venues.Gate

func (c *Config) defaults() {
	if c.Concurrency < 1 {
		c.Concurrency = 64
	}
	if c.JobMaxAge <= 0 {
		c.JobMaxAge = 30 * time.Second
	}
	if c.AckWait <= 0 {
		c.AckWait = bus.AckWait
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 4
	}
	if c.Beat <= 0 {
		c.Beat = time.Second
	}
	if c.OwnerWait <= 0 {
		c.OwnerWait = 2 * time.Second
	}
	if c.LookupWait <= 0 {
		c.LookupWait = 5 * time.Second
	}
}

// Worker consumes one chain's jobs.
type Worker struct {
	cfg Config
	id  string
	nc  *nats.Conn
	js  jetstream.JetStream
	// txs is the TXS stream, where a redelivered job looks for its batch.
	txs jetstream.Stream
	// legacy is the bucket where earlier versions recorded signed batches.
	legacy jetstream.KeyValue
	orders *orders.Store
	signer Signer
	owners Accounts
	events *events.Publisher
	log    *slog.Logger

	// started is when this worker was made: a job the stream stored before
	// may have been handled by an earlier process (see mayBeHandled).
	started time.Time

	// warns says a job of the other network once a minute.
	warns lograte.Warner

	// afterRecord, when set by a test, runs after the signed batch is in
	// TXS and before the job is acked; returning true abandons the message
	// unacked, as a crash would.
	afterRecord func(orderID string) bool

	// void voids an order in TXS (bus.Void); a test makes it fail.
	void func(ctx context.Context, js jetstream.JetStream, chains []string, orderID string) (bool, error)
	// stopping is closed when the worker is told to stop.
	stopping <-chan struct{}
}

// New returns a worker for one chain. accounts is where it checks that a
// job's wallets are its account's; it is required, and without it every
// job is refused rather than signed unchecked.
func New(cfg Config, nc *nats.Conn, js jetstream.JetStream, b *bus.Buckets, signer Signer, accounts Accounts, log *slog.Logger) *Worker {
	cfg.defaults()
	log = log.With("component", "worker", "chain", cfg.Chain)
	return &Worker{cfg: cfg, id: nuid.Next(), nc: nc, js: js, legacy: b.Signed, orders: orders.NewStore(b.Orders),
		signer: signer, owners: accounts, events: events.NewPublisher(js, log), log: log, started: time.Now(), void: bus.Void}
}

// Run consumes until ctx ends, then stops taking jobs, finishes the ones in
// hand and returns.
func (w *Worker) Run(ctx context.Context) error {
	metrics.Redeliveries.WithLabelValues(bus.WorkerConsumer(w.cfg.Chain)).Add(0)
	metrics.RPCErrors.WithLabelValues(w.cfg.Chain, "sign").Add(0)
	txs, err := w.js.Stream(ctx, bus.StreamTxs)
	if err != nil {
		return fmt.Errorf("worker %s: stream %s: %w", w.cfg.Chain, bus.StreamTxs, err)
	}
	w.txs = txs
	w.stopping = ctx.Done()
	// One durable consumer per chain, shared by every worker process of
	// the chain: it gives each job to one of them.
	// MaxDeliver leaves one delivery beyond MaxAttempts, so that a job
	// whose last attempt died with its process is still answered.
	cons, err := w.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable:       bus.WorkerConsumer(w.cfg.Chain),
		FilterSubject: bus.OrdersSubject(w.cfg.Chain),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       w.cfg.AckWait,
		MaxDeliver:    w.cfg.MaxAttempts + 1,
		MaxAckPending: 10 * w.cfg.Concurrency,
	})
	if err != nil {
		return fmt.Errorf("worker %s: consumer: %w", w.cfg.Chain, err)
	}

	pool, err := bus.Consume(cons, w.cfg.Concurrency, w.handle, w.log)
	if err != nil {
		return fmt.Errorf("worker %s: %w", w.cfg.Chain, err)
	}
	// Announced only once it consumes: ingress answers CHAIN_UNAVAILABLE
	// for a chain nobody announces, rather than queueing for no one.
	stopBeat, err := w.announce()
	if err != nil {
		pool.Stop()
		return err
	}
	w.log.Info("worker started", "worker", w.id, "concurrency", w.cfg.Concurrency)
	<-ctx.Done()
	// Goodbye first, so that ingress stops routing here, then finish the
	// jobs in hand; what is left is redelivered to another worker.
	stopBeat()
	pool.Stop()
	w.log.Info("worker stopped", "worker", w.id)
	return nil
}

// announce sends heartbeats until the returned function is called, which
// also says goodbye so that ingress stops routing to this worker at once.
func (w *Worker) announce() (func(), error) {
	beat := func(leaving bool) {
		b, _ := json.Marshal(wire.Beat{Chain: w.cfg.Chain, Worker: w.id, Leaving: leaving, Local: w.cfg.Local, Network: w.cfg.Network})
		_ = w.nc.Publish(bus.PresenceSubject(w.cfg.Chain), b)
	}
	sub, err := w.nc.Subscribe(bus.PresenceProbe, func(*nats.Msg) { beat(false) })
	if err != nil {
		return nil, fmt.Errorf("worker %s: presence: %w", w.cfg.Chain, err)
	}
	beat(false)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(w.cfg.Beat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				beat(false)
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		_ = sub.Unsubscribe()
		beat(true)
		// With the connection down the goodbye cannot go; the beats'
		// expiry says it, and stopping does not wait for it.
		_ = w.nc.FlushTimeout(time.Second)
	}, nil
}

// handle takes one job along the order path: decode it, find out whether an
// earlier delivery already signed it, refuse what must not run, sign, hand
// the batch to the broadcaster (which also records it), ack. Every path
// ends the message with exactly one of Ack, NakWithDelay or Term, so
// JetStream redelivers only what may still succeed.
func (w *Worker) handle(m jetstream.Msg) {
	if w.otherNetwork(m) {
		return
	}
	job, err := w.decode(m)
	if err != nil {
		// A message that does not decode never will: redelivering it would
		// only hold a slot of the consumer. Nothing was signed.
		w.log.Error("undecodable job dropped", "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.WorkerConsumer(w.cfg.Chain), metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return
	}
	log := w.log.With("order_id", job.orderID)
	if job.seed.Kind == wire.KindDeploy {
		log = log.With("kind", wire.KindDeploy)
	}
	// The ingress that waits for the order named its inbox; every answer,
	// a refusal here or the broadcaster's signatures, goes there.
	reply := m.Headers().Get(bus.HeaderReply)
	attempt := w.observe(m)
	// The handler keeps its message alive while it works (bus.Consume), so
	// its own deadline is the job's useful life, not the ack wait.
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.JobMaxAge)
	defer cancel()

	batch, data, ok := w.batchOf(ctx, m, job, reply, attempt, log)
	if !ok {
		return
	}
	w.handOn(ctx, m, job, batch, data, reply, attempt, log)
}

// otherNetworkWait is how long a job of another network is held back
// before the consumer hands it out again, to a worker on its network.
const otherNetworkWait = 500 * time.Millisecond

// otherNetwork keeps this worker from signing a job whose publisher serves
// its chain on another network than this worker does (one of them left on
// the local chains, test doubles, beside the other's public network):
// signed here it would trade against the wrong chain's state, or reach the
// wrong chain. The ingress already leaves such a worker out of the chain's
// count, but it shares the chain's consumer with the others: the job is
// handed back, unsigned and unread, to go to a worker of its network. Each
// hand-back spends one of the job's deliveries, so on its last one it is
// refused instead, free (503 CHAIN_UNAVAILABLE): handed back then, it
// would be dropped unanswered, and an exit's sell would hold its position
// for good. It reports whether the message is ended.
func (w *Worker) otherNetwork(m jetstream.Msg) bool {
	n := m.Headers().Get(bus.HeaderNetwork)
	if n == "" || w.cfg.Network == "" || n == w.cfg.Network {
		return false
	}
	orderID := m.Headers().Get(bus.HeaderOrder)
	w.warns.Error(w.log, "network", "a job published for another network than this worker serves its chain on: not signed here, for a worker of its network",
		"order_id", orderID, "job_network", n, "worker_network", w.cfg.Network)
	if md, _ := m.Metadata(); md == nil || int(md.NumDelivered) <= w.cfg.MaxAttempts {
		_ = m.NakWithDelay(otherNetworkWait)
		return true
	}
	job, err := w.decode(m)
	if err != nil {
		w.log.Error("undecodable job dropped", "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.WorkerConsumer(w.cfg.Chain), metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.JobMaxAge)
	defer cancel()
	w.refuse(ctx, m, job.seed, m.Headers().Get(bus.HeaderReply), apierr.Newf(apierr.ChainUnavailable, w.cfg.Chain,
		"the order's last delivery reached a worker serving %s on another network than the order was published for (%s); nothing was signed, try again",
		w.cfg.Chain, n).WithOrder(job.orderID), w.log.With("order_id", job.orderID))
	return true
}

// observe records a delivery's metrics and returns its attempt number.
func (w *Worker) observe(m jetstream.Msg) uint64 {
	md, _ := m.Metadata()
	if md == nil {
		return 1
	}
	if md.NumDelivered > 1 {
		metrics.Redeliveries.WithLabelValues(bus.WorkerConsumer(w.cfg.Chain)).Inc()
	}
	metrics.Stage.WithLabelValues(metrics.StageQueueWait, w.cfg.Chain).Observe(time.Since(md.Timestamp).Seconds())
	return md.NumDelivered
}

// batchOf returns the batch to hand on and its bytes: a new one, or the one
// an earlier version recorded in the signed bucket. ok false means the
// message is already ended: refused, nak'ed to be tried again, or acked
// because an earlier delivery's batch is in TXS already.
func (w *Worker) batchOf(ctx context.Context, m jetstream.Msg, job *job, reply string, attempt uint64, log *slog.Logger) (*wire.TxBatch, []byte, bool) {
	// A job an earlier delivery may have handled is looked up before
	// anything is signed (see mayBeHandled); on a fresh first delivery
	// the create-only publish (handOn) settles any race.
	if w.mayBeHandled(m, job.seed.CreatedAt, attempt) {
		// Each read is bounded apart from the job: nothing is signed
		// before they answer, so a read that does not is tried again.
		var found, voided bool
		err := w.lookup(ctx, len(w.batchChains()), func(lctx context.Context) (err error) {
			found, voided, err = w.handedOn(lctx, job.orderID)
			return err
		})
		if err != nil {
			// Not knowing whether the order was signed, signing now could
			// sign it twice (on EVM with other nonces): try again later.
			log.Warn("look up the order's signed batch", "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return nil, nil, false
		}
		if voided {
			w.refuse(ctx, m, job.seed, reply, errVoidedOrder(job.orderID), log)
			return nil, nil, false
		}
		if found {
			// The earlier delivery handed its batch on and died before its
			// ack: the broadcaster has it, there is nothing left to do.
			log.Info("signed batch already handed on; redelivered job acked", "attempt", attempt)
			_ = m.Ack()
			return nil, nil, false
		}
		// A buy skipped by an earlier delivery stays skipped, whatever
		// became of the order it yielded to since; an order refused by an
		// earlier delivery (its bot answered, the refusal stored, the ack
		// lost) stays refused, though what refused it may have changed (a
		// wallet topped up): signing it now would trade an order its bot
		// was told did not. Not knowing, signing could do either: try
		// again later.
		var o *wire.Order
		err = w.lookup(ctx, 1, func(lctx context.Context) (err error) {
			o, err = w.orders.Get(lctx, job.orderID)
			return err
		})
		switch {
		case err != nil && !errors.Is(err, orders.ErrNotFound) && int(attempt) > w.cfg.MaxAttempts:
			// The job's last delivery: handed back, it would be dropped
			// unanswered. Nothing of it was handed on (found above), so it
			// ends refused, nothing signed.
			log.Error("read the order of a redelivered job on its last delivery; refused, nothing signed", "err", err)
			w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.UpstreamTimeout, "the order could not be executed: its record could not be read; nothing was signed").WithOrder(job.orderID), log)
			return nil, nil, false
		case err != nil && !errors.Is(err, orders.ErrNotFound):
			log.Warn("read the order of a redelivered job", "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return nil, nil, false
		case err == nil && o.Skipped:
			log.Info("order skipped by an earlier delivery; redelivered job acked", "attempt", attempt)
			bus.Reply(w.nc, reply, &wire.Reply{OrderID: job.orderID, Signatures: []string{}, Skipped: true})
			_ = m.Ack()
			return nil, nil, false
		case err == nil && o.State == wire.StateFailed && len(o.Signatures) == 0:
			e := apierr.New(apierr.UpstreamTimeout, "the order was refused before")
			if o.Error != nil {
				e = apierr.FromBody(*o.Error)
			}
			log.Info("order refused by an earlier delivery; refused again, nothing signed", "attempt", attempt, "code", e.Code)
			w.refuse(ctx, m, job.seed, reply, e, log)
			return nil, nil, false
		}
		var batch *wire.TxBatch
		var data []byte
		err = w.lookup(ctx, 1, func(lctx context.Context) (err error) {
			batch, data, err = w.legacyRecorded(lctx, job.orderID)
			return err
		})
		if err != nil {
			log.Warn("read signed batch", "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return nil, nil, false
		}
		if batch != nil {
			// The same bytes again: the chain deduplicates an identical
			// signature or nonce, so a repeat cannot trade twice.
			log.Info("republishing a batch recorded by an earlier version", "attempt", attempt)
			return batch, data, true
		}
	}
	return w.signNew(ctx, m, job, reply, attempt, log)
}

// lookupTry bounds one try of a lookup. A read sent while its stream has
// no leader (a NATS node failing over, 4 to 9 s) is never answered, even
// once a leader is elected: it is sent again after a second rather than
// waited out for the whole LookupWait.
const lookupTry = time.Second

// lookup runs read, made of reads reads one after another, each try
// bounded by lookupTry per read, until it is answered (found, or not
// found: ErrMsgNotFound, ErrNotFound) or LookupWait has passed, and
// returns its last error. Reads are safe to repeat.
func (w *Worker) lookup(ctx context.Context, reads int, read func(context.Context) error) error {
	lctx, cancel := context.WithTimeout(ctx, w.cfg.LookupWait)
	defer cancel()
	for {
		tctx, tcancel := context.WithTimeout(lctx, time.Duration(max(reads, 1))*lookupTry)
		err := read(tctx)
		tcancel()
		if !unanswered(err) || lctx.Err() != nil {
			return err
		}
		select {
		case <-lctx.Done():
			return err
		case <-time.After(lookupPause):
		}
	}
}

// lookupPause is the pause between two tries of a lookup.
const lookupPause = 100 * time.Millisecond

// unanswered reports whether err is a read that got no answer (its try's
// time ran out, or no server took it), rather than the store's answer.
func unanswered(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders)
}

// signNew checks that the job may run and signs it.
func (w *Worker) signNew(ctx context.Context, m jetstream.Msg, job *job, reply string, attempt uint64, log *slog.Logger) (*wire.TxBatch, []byte, bool) {
	// A job that waited past its useful life is not executed: its bot got
	// 504 long ago and must not be surprised by a late trade.
	if age := time.Since(job.seed.CreatedAt); age > w.cfg.JobMaxAge {
		msg := "the order waited %s in the queue and was not executed"
		if attempt > 1 {
			// Its earlier attempts failed (logged, each with its reason):
			// the wait was theirs, not the queue's.
			msg = "the order was not executed within %s: its earlier attempts to sign it failed (a chain or store that did not answer)"
		}
		w.refuse(ctx, m, job.seed, reply, apierr.Newf(apierr.UpstreamTimeout, "", msg, age.Round(time.Millisecond)), log)
		return nil, nil, false
	}
	// Whatever the job says, only the account's own wallets are signed for
	// (DECISIONS, multi-process deployments): checked here, before any key
	// is touched, for every chain alike.
	if addr := w.unowned(ctx, job); addr != "" {
		log.Warn("job names a wallet its account does not own", "account_id", job.account, "wallet", addr)
		w.refuse(ctx, m, job.seed, reply, apierr.Newf(apierr.WalletNotOwned, addr, "wallet %s is not a wallet of this account", addr), log)
		return nil, nil, false
	}
	if err := w.venuesOpen(job); err != nil {
		w.refuse(ctx, m, job.seed, reply, apierr.From(err), log)
		return nil, nil, false
	}
	start := time.Now()
	batch, err := w.signGuarded(ctx, job, log)
	metrics.Stage.WithLabelValues(metrics.StageSign, w.cfg.Chain).Observe(time.Since(start).Seconds())
	if errors.Is(err, errSignerPanicked) {
		// A defect met by this job would meet it again on every delivery.
		w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.Internal, "the order could not be signed: an internal error, logged; nothing was sent").WithOrder(job.orderID), log)
		return nil, nil, false
	}
	if err != nil {
		w.signFailed(ctx, m, job, reply, attempt, err, log)
		return nil, nil, false
	}
	// The batch carries the buy's exits, so that a broadcaster that must
	// create the order record itself (ingress could not store it) keeps
	// them and the exits engine opens the position.
	if batch.AutoOrders == nil {
		batch.AutoOrders = job.seed.AutoOrders
	}
	job.signed = true
	data, err := json.Marshal(batch)
	if err != nil {
		// Not a state a retry leaves: answered, nothing sent.
		log.Error("encode signed batch", "err", err)
		if d, ok := w.signer.(Dropper); ok {
			d.Dropped(ctx, batch)
		}
		w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.Internal, "the signed order could not be encoded; nothing was sent").WithOrder(job.orderID), log)
		return nil, nil, false
	}
	return batch, data, true
}

// errSignerPanicked: the signer panicked on the job (a defect).
var errSignerPanicked = errors.New("the signer panicked")

// signGuarded signs job, turning a panic of the signer, on this goroutine
// or one of its own (guard), into errSignerPanicked, logged with its
// stack: nothing of the order was handed on, and the process and its
// other orders carry on. What the signer holds it lets go of as on any
// failure where it can (the EVM signer gives back the nonces of a leg
// whose signing panicked); what it cannot, a nonce taken by a panic
// elsewhere, is a gap filled as any other.
func (w *Worker) signGuarded(ctx context.Context, job *job, log *slog.Logger) (batch *wire.TxBatch, err error) {
	p := guard.Catch(func() { batch, err = job.sign(ctx) })
	if p == nil && !errors.As(err, &p) {
		return batch, err
	}
	metrics.Defect(log, bus.WorkerConsumer(w.cfg.Chain), "signer", p)
	return nil, errSignerPanicked
}

// signFailed ends a job whose signing failed: a business refusal, or a
// paused venue, is answered at once and is final; anything else is tried
// again until the attempts are spent, and then answered as a timeout,
// nothing signed.
func (w *Worker) signFailed(ctx context.Context, m jetstream.Msg, job *job, reply string, attempt uint64, err error, log *slog.Logger) {
	if errors.Is(err, skipclaim.ErrHeld) {
		w.skip(ctx, m, job.seed, reply, log)
		return
	}
	if errors.Is(err, registry.ErrWrongMasterKey) {
		// No retry opens the key here (a wallet imported after this
		// worker checked its master key at start): refused at once, free,
		// the log naming the cause.
		log.Error("wallet key does not open under this worker's master key; give it the registry's", "err", err)
		w.refuse(ctx, m, job.seed, reply, apierr.Newf(apierr.ChainUnavailable, w.cfg.Chain,
			"this worker cannot open the wallet's key (its master key is not the registry's); nothing was signed").WithOrder(job.orderID), log)
		return
	}
	var ae *apierr.Error
	if errors.As(err, &ae) && final(ae.Code) {
		seed := job.seed
		if r := (*wire.Refusal)(nil); errors.As(err, &r) {
			// What the signer learned is kept on the failed record.
			learned := *seed
			learned.Route, learned.Tax = r.Route, r.Tax
			if learned.Chain == "" || learned.Chain == wire.ChainAnyEVM {
				learned.Chain = r.Chain
			}
			seed = &learned
		}
		w.refuse(ctx, m, seed, reply, ae, log)
		return
	}
	// Not a refusal: a read that failed. One the chain's endpoint did not
	// answer (down, timing out, refusing with a status), or answered with
	// a JSON-RPC error, counts as the chain's RPC error; the bus's
	// failures have their own signs.
	ee, ne, en := (*endpoint.Error)(nil), (*endpoint.NodeError)(nil), (*endpoint.EVMNodeError)(nil)
	if errors.As(err, &ee) || errors.As(err, &ne) || errors.As(err, &en) {
		metrics.RPCErrors.WithLabelValues(w.cfg.Chain, "sign").Inc()
	}
	if int(attempt) >= w.cfg.MaxAttempts {
		// The one line at warning or above of an order whose signing kept
		// failing: how many attempts, and the last one's error. Its
		// retries are at debug level.
		log.Error("sign failed, giving up", "attempts", attempt, "err", err)
		msg := "the chain did not answer in time; nothing was signed"
		if ee != nil {
			// Which endpoint, by its configured name (never its URL), and
			// how it failed: a metadata store answering 404 is no chain
			// that timed out.
			msg = "the order could not be signed, " + ee.Error() + "; nothing was signed"
		} else if errors.As(err, &ae) && ae.Code == apierr.Internal && !errors.Is(err, context.DeadlineExceeded) {
			// The chain answered, with something the signer cannot work
			// with (a program's account missing, say): no timeout, and
			// the log line above says what.
			w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.Internal,
				"the order could not be signed: an internal error, which the service's log names; nothing was signed").WithOrder(job.orderID), log)
			return
		} else if ne != nil {
			// The node answered, with an error (its message scrubbed of
			// the endpoint's URL): no chain that did not answer.
			msg = "the order could not be signed, " + ne.Endpoint + " answered with an error (" + ne.Reason() + "); nothing was signed"
		} else if en != nil {
			msg = "the order could not be signed, " + en.Endpoint + " answered with an error (" + en.Reason() + "); nothing was signed"
		}
		w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.UpstreamTimeout, msg).WithOrder(job.orderID), log)
		return
	}
	// At debug level: an order whose attempts all fail says so once, with
	// the last error, when it gives up; one whose retry succeeds needs no
	// line (the chain's failed reads are counted in
	// tradeapi_rpc_errors_total).
	log.Debug("sign failed, will retry", "attempt", attempt, "max_attempts", w.cfg.MaxAttempts,
		"retry_in", backoff(attempt), "err", err)
	_ = m.NakWithDelay(backoff(attempt))
}

// skip ends a buy with skip_if_bought whose token's mint another order of
// the account that may still buy holds (skipclaim): the two named the token
// differently, so ingress could not tell. It ends as a buy ingress skips
// does: answered 200 skipped with no signatures (the charge stays), stored
// confirmed and skipped, no event, nothing signed.
func (w *Worker) skip(ctx context.Context, m jetstream.Msg, seed *wire.Order, reply string, log *slog.Logger) {
	log.Info("order skipped: its token was bought before under its mint, or another buy of it is in flight")
	// As in refuse, a record an earlier delivery moved on is left as it
	// is, and the waiting ingress is not told a trade was skipped.
	moved := false
	if err := w.orders.Update(ctx, seed.OrderID, seed, func(o *wire.Order) {
		moved = len(o.Signatures) > 0 || (o.State != wire.StatePending && !o.Skipped)
		if !moved {
			o.State, o.Skipped = wire.StateConfirmed, true
		}
	}); err != nil {
		// Answered only once it is stored: a skip nobody recorded would
		// leave the order pending for good, and its claim held by it.
		// The redelivery decides again.
		log.Warn("store skipped order; the job goes back", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if moved {
		log.Warn("skipped a job whose order an earlier delivery ran; its record is left as it is")
		_ = m.Ack()
		return
	}
	bus.Reply(w.nc, reply, &wire.Reply{OrderID: seed.OrderID, Signatures: []string{}, Skipped: true})
	_ = m.Ack()
}

// handOn puts the signed batch in TXS for the broadcaster and acks the job.
// The batch goes to its order's own subject, create-only, with the order id
// as message id: the first batch of an order is the only one the stream
// takes, and stays there as the record of what was signed, which is what a
// redelivered job looks for (batchOf). One write both records and hands on.
func (w *Worker) handOn(ctx context.Context, m jetstream.Msg, job *job, batch *wire.TxBatch, data []byte, reply string, attempt uint64, log *slog.Logger) {
	// An unresolved EVM job (chain omitted) is signed for the chain the
	// signer resolved; the batch goes to that chain's broadcaster.
	chain := batch.Chain
	if chain == "" {
		chain = w.cfg.Chain
	}
	out := &nats.Msg{Subject: bus.BatchSubject(chain, job.orderID), Data: data, Header: nats.Header{}}
	out.Header.Set(bus.HeaderReply, reply)
	out.Header.Set(bus.HeaderOrder, job.orderID)
	if w.cfg.Network != "" {
		// Signed against that network's state, for a broadcaster of it
		// only (see broadcaster.Config.Network).
		out.Header.Set(bus.HeaderNetwork, wire.ChainNetwork(w.cfg.Network, chain))
	}
	start := time.Now()
	pctx := ctx
	d, drops := w.signer.(Dropper)
	drops = drops && job.signed
	if drops {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, d.PublishBy(batch))
		defer cancel()
	}
	dropped, err := w.publishBatch(pctx, out, job.orderID, log)
	metrics.Stage.WithLabelValues(metrics.StageRecord, w.cfg.Chain).Observe(time.Since(start).Seconds())
	if drops && (dropped || errors.Is(err, errVoided)) {
		d.Dropped(ctx, batch)
	}
	if errors.Is(err, errVoided) {
		w.refuse(ctx, m, job.seed, reply, errVoidedOrder(job.orderID), log)
		return
	}
	if err != nil && int(attempt) > w.cfg.MaxAttempts {
		// The job's last delivery: handed back, it would be dropped with
		// its order pending for good. The order is voided: a try that
		// landed unseen makes the void find the batch, and the order goes
		// on; voided, nothing of it can be handed on any more, and it is
		// refused (what the batch took given back). The void is tried
		// for a job's life again before the order is left pending. A fresh
		// context: the job's may be what ended.
		voided, verr := w.voidPatiently(ctx, job.orderID, time.Now().Add(w.cfg.JobMaxAge))
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		switch {
		case verr == nil && !voided:
			log.Warn("a try to hand the signed batch on landed unseen: the order goes on", "err", err)
			_ = m.Ack()
		case verr == nil:
			log.Error("could not hand the signed batch on by the job's last delivery: the order is voided and refused", "err", err)
			if drops {
				d.Dropped(rctx, batch)
			}
			w.refuse(rctx, m, job.seed, reply, apierr.New(apierr.UpstreamTimeout,
				"the signed order could not be handed on for broadcast in time; nothing was sent").WithOrder(job.orderID), log)
		default:
			log.Error("could not hand the signed batch on by the job's last delivery, nor void the order: it stays pending, "+
				"and trades only if a try landed unseen", "err", err, "void_err", verr)
			_ = m.NakWithDelay(backoff(attempt))
		}
		return
	}
	if err != nil {
		// Whether a try landed is unknown: the redelivery looks for the
		// batch before it signs anything.
		log.Error("hand on signed batch, giving up for this delivery", "err", err)
		_ = m.NakWithDelay(backoff(attempt))
		return
	}
	if w.afterRecord != nil && w.afterRecord(job.orderID) {
		return
	}
	// Acked only once the broadcaster has the batch: a worker that dies
	// before this line leaves the job to be redelivered, which finds the
	// batch in TXS and acks it.
	if err := m.Ack(); err != nil {
		log.Warn("ack job", "err", err)
	}
}

// publishBatch publishes an order's batch create-only until the stream has
// a batch for the order or ctx ends. A batch already there (an earlier
// delivery's, or another worker's that raced this one) is the order's
// batch, and this one is dropped unsent (dropped true; errVoided when it
// is the ingress's void). While the stream does not answer (a NATS node
// failing over) it tries again with the same bytes: a try that landed
// unseen makes the next one a duplicate, never a second batch.
func (w *Worker) publishBatch(ctx context.Context, out *nats.Msg, orderID string, log *slog.Logger) (bool, error) {
	for try := 0; ; try++ {
		var ack *jetstream.PubAck
		err := nats.ErrConnectionReconnecting
		// Not published while the connection is down: the client would
		// hold the batch and send it once it is back, however long after
		// this delivery gave it up.
		if w.nc.IsConnected() {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			ack, err = w.js.PublishMsg(pctx, out, jetstream.WithMsgID(orderID), jetstream.WithExpectLastSequencePerSubject(0))
			cancel()
		}
		switch {
		case err == nil && !ack.Duplicate:
			return false, nil
		case err == nil, bus.Conflict(err):
			return w.taken(ctx, out, log)
		}
		log.Warn("hand on signed batch, retrying", "try", try, "err", err)
		select {
		case <-ctx.Done():
			return false, err
		// At most a second apart: TXS without a leader (a NATS node
		// failing over, 4 to 9 s) refuses every try at once, and a pause
		// grown past that would hold the batch seconds after it is back.
		case <-time.After(min(backoff(uint64(try)), time.Second)):
		}
	}
}

// taken tells, once the stream refused out as a duplicate or found its
// subject taken, whether out was dropped: the subject holds other bytes
// (an earlier delivery's batch, or the ingress's void: errVoided) rather
// than these, which an earlier try that landed unseen stored. When the
// subject cannot be read it says not dropped, and what the batch took is
// kept as if it had gone out (on EVM a nonce gap the filler closes rather
// than a nonce handed out twice).
func (w *Worker) taken(ctx context.Context, out *nats.Msg, log *slog.Logger) (bool, error) {
	last, err := w.txs.GetLastMsgForSubject(ctx, out.Subject)
	switch {
	case err != nil:
		log.Warn("read the order's batch in TXS after a refused publish; taken as this one", "err", err)
		return false, nil
	case last.Header.Get(bus.HeaderVoid) != "":
		return true, errVoided
	case bytes.Equal(last.Data, out.Data):
		return false, nil
	}
	log.Info("a signed batch of this order is in TXS already; this one dropped, unsent")
	return true, nil
}

// job is a decoded message of the orders subject: a swap or a launch.
type job struct {
	orderID string
	// account is the account the job says it trades for, and wallets every
	// wallet it would sign with; unowned checks them against the registry.
	account string
	wallets []string
	// seed is the order record the job starts, for a refusal.
	seed *wire.Order
	// signed is set once this delivery signed the job's batch (not one
	// an earlier version recorded): what it took is this delivery's to
	// give back when it is dropped (Dropper).
	signed bool
	// venues are the venues a launch runs on; none for a swap, whose
	// signer finds its venue.
	venues []string
	sign   func(ctx context.Context) (*wire.TxBatch, error)
}

// venuesOpen is nil when every venue the job names takes orders, and the
// first paused one's VENUE_PAUSED error otherwise.
func (w *Worker) venuesOpen(j *job) error {
	if w.cfg.Venues == nil {
		return nil
	}
	for _, v := range j.venues {
		if err := w.cfg.Venues.Open(w.cfg.Chain, v); err != nil {
			return err
		}
	}
	return nil
}

// decode reads a message as the job its HeaderKind names.
func (w *Worker) decode(m jetstream.Msg) (*job, error) {
	switch kind := m.Headers().Get(bus.HeaderKind); kind {
	case "", wire.KindSwap:
		var sj wire.SwapJob
		if err := json.Unmarshal(m.Data(), &sj); err != nil {
			return nil, err
		}
		if sj.OrderID == "" {
			return nil, errors.New("swap job without an order id")
		}
		wallets := make([]string, 0, len(sj.Legs))
		for _, l := range sj.Legs {
			wallets = append(wallets, l.Wallet)
		}
		seed := orders.New(orders.OfSwap(&sj))
		return &job{orderID: sj.OrderID, account: sj.AccountID, wallets: wallets, seed: seed,
			sign: func(ctx context.Context) (*wire.TxBatch, error) {
				return w.signer.Sign(ctx, &sj)
			}}, nil
	case wire.KindDeploy:
		var dj wire.DeployJob
		if err := json.Unmarshal(m.Data(), &dj); err != nil {
			return nil, err
		}
		if dj.OrderID == "" {
			return nil, errors.New("deploy job without an order id")
		}
		// The creator signs and pays the create; every buyer signs its buy.
		wallets := []string{dj.Wallet}
		for _, b := range dj.Buys {
			wallets = append(wallets, b.Wallet)
		}
		var launchVenues []string
		for _, l := range dj.Launches {
			if v, ok := venues.OfDex(l.Dex); ok && !slices.Contains(launchVenues, v) {
				launchVenues = append(launchVenues, v)
			}
		}
		seed := orders.New(orders.OfDeploy(&dj))
		return &job{orderID: dj.OrderID, account: dj.AccountID, wallets: wallets, seed: seed, venues: launchVenues,
			sign: func(ctx context.Context) (*wire.TxBatch, error) {
				l, ok := w.signer.(Launcher)
				if !ok {
					return nil, apierr.Newf(apierr.InvalidRequest, "dex", "%s does not launch tokens", w.cfg.Chain)
				}
				return l.SignDeploy(ctx, &dj)
			}}, nil
	default:
		return nil, fmt.Errorf("unknown job kind %q", kind)
	}
}

// ownerPoll is how often a wallet missing from the registry view is looked
// up again while OwnerWait lasts.
const ownerPoll = 20 * time.Millisecond

// unowned returns the first wallet of the job that is not a wallet of the
// job's account, of the family this worker's chain trades, in the
// registry; "" when every one is. The family comes from the worker, never
// from the job. A wallet missing from this process's view is looked up
// again until OwnerWait has passed: the view may lag the ingress that
// accepted the order by a moment.
func (w *Worker) unowned(ctx context.Context, j *job) string {
	family := familyOf(w.cfg.Chain)
	// The view has every wallet of nearly every job at the first look:
	// no timers for those.
	if w.firstUnowned(j, family) == "" {
		return ""
	}
	wait := time.NewTimer(w.cfg.OwnerWait)
	defer wait.Stop()
	tick := time.NewTicker(ownerPoll)
	defer tick.Stop()
	for {
		addr := w.firstUnowned(j, family)
		if addr == "" {
			return ""
		}
		select {
		case <-tick.C:
		case <-wait.C:
			return addr
		case <-ctx.Done():
			return addr
		}
	}
}

// firstUnowned is one look at the registry view for unowned.
func (w *Worker) firstUnowned(j *job, family wire.Family) string {
	var acct *registry.Account
	if w.owners != nil {
		acct, _ = w.owners.Account(j.account)
	}
	for _, addr := range j.wallets {
		if addr == "" {
			continue // a missing wallet is the signer's INVALID_REQUEST
		}
		if acct == nil {
			return addr
		}
		if _, ok := acct.Wallet(family, addr); !ok {
			return addr
		}
	}
	return ""
}

// familyOf is the family of the wallets a worker of chain signs with.
func familyOf(chain string) wire.Family {
	if chain == wire.ChainSolana {
		return wire.FamilySol
	}
	return wire.FamilyEVM
}

// handedOn reports whether TXS has a batch of the order: on the worker's
// chain, or for a job that omitted its EVM chain, on any EVM chain.
func (w *Worker) handedOn(ctx context.Context, orderID string) (found, voided bool, err error) {
	for _, c := range w.batchChains() {
		m, err := w.txs.GetLastMsgForSubject(ctx, bus.BatchSubject(c, orderID))
		if err == nil {
			if m.Header.Get(bus.HeaderVoid) != "" {
				voided = true
				continue
			}
			return true, false, nil
		}
		if !errors.Is(err, jetstream.ErrMsgNotFound) {
			return false, false, err
		}
	}
	return false, voided, nil
}

// mayBeHandled reports whether an earlier delivery of the job may have
// handled it (signed it, refused it) or its ingress voided it, so that it
// is looked up before anything is signed or an EVM nonce taken: a
// redelivery; a job the stream stored before this worker started (a NATS
// server killed with its processes can come back with its consumers' acks
// of the last moments lost, and hands out again, as first deliveries,
// jobs already answered, refused ones included); and a job that comes
// late (a NATS server restarted alone loses the same acks; an ingress that
// could not tell the job queued voids it).
func (w *Worker) mayBeHandled(m jetstream.Msg, created time.Time, attempt uint64) bool {
	if attempt > 1 || time.Since(created) > lateFirst {
		return true
	}
	md, _ := m.Metadata()
	return md != nil && md.Timestamp.Before(w.started)
}

// lateFirst: a first delivery this long after its order was made is looked
// up as a redelivery is. A first delivery takes well under a millisecond
// here, tens of milliseconds under heavy load.
const lateFirst = 250 * time.Millisecond

// errVoided: the order's batch subject holds its ingress's void.
var errVoided = errors.New("the order was voided by its ingress")

func errVoidedOrder(id string) *apierr.Error {
	return apierr.New(apierr.UpstreamTimeout, "the order was withdrawn before it was signed (its job not queued, or not signed, by the request's deadline): nothing of it was or will be traded").WithOrder(id)
}

// batchChains are the chains whose subjects may hold a batch of this
// worker's jobs: its own, or every EVM chain for jobs that omitted theirs.
func (w *Worker) batchChains() []string {
	if w.cfg.Chain == wire.ChainAnyEVM {
		return wire.EVMChains
	}
	return []string{w.cfg.Chain}
}

// legacyRecorded returns the batch an earlier version recorded for an
// order in the signed bucket, if any, with its recorded bytes.
func (w *Worker) legacyRecorded(ctx context.Context, orderID string) (*wire.TxBatch, []byte, error) {
	e, err := w.legacy.Get(ctx, orderID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var b wire.TxBatch
	if err := json.Unmarshal(e.Value(), &b); err != nil {
		return nil, nil, fmt.Errorf("decode signed batch: %w", err)
	}
	return &b, e.Value(), nil
}

// refuse ends a job with a public error: the order is marked failed, the
// waiting ingress is answered, and the message is acked. The seed's route
// and tax, what the signer learned before it refused, go on the record.
func (w *Worker) refuse(ctx context.Context, m jetstream.Msg, seed *wire.Order, reply string, e *apierr.Error, log *slog.Logger) {
	if !w.fenced(ctx, m, seed, log) {
		return
	}
	// Its writes are bounded apart from the job: the fence may have
	// waited out the job's life.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	log.Info("order refused", "code", e.Code, "reason", e.Message)
	body := e.Body()
	fail := func(o *wire.Order) {
		o.State = wire.StateFailed
		o.Error = &body
		if seed.Route != "" {
			o.Route = seed.Route
		}
		if o.Chain == "" || o.Chain == wire.ChainAnyEVM {
			o.Chain = seed.Chain
		}
		if seed.Tax != nil {
			o.Tax = seed.Tax
		}
	}
	stored := *seed
	// A record with signatures, or in a state only the broadcaster sets,
	// is an order an earlier delivery ran: a job the stream delivers again
	// from the start (its consumer was recreated) must not turn a trade
	// into a refusal, nor send a failed event for it. One already failed
	// without signatures keeps its first error; its event goes out again
	// (an earlier delivery may have died before it), and the stream drops
	// the repeat.
	moved, recorded := false, true
	// The seed creates the record when ingress could not (or, for a job
	// ingress never published, did not): the lookup then shows the refusal.
	if err := w.orders.Update(ctx, seed.OrderID, seed, func(o *wire.Order) {
		moved = len(o.Signatures) > 0 || (o.State != wire.StatePending && o.State != wire.StateFailed)
		if !moved && o.State == wire.StatePending {
			fail(o)
		}
		stored = *o
	}); err != nil {
		log.Warn("mark order failed", "err", err)
		fail(&stored)
		recorded = false
	}
	bus.Reply(w.nc, reply, &wire.Reply{OrderID: seed.OrderID, Signatures: []string{}, Error: ptr(body)})
	if moved {
		log.Warn("refused a job whose order an earlier delivery ran; its record is left as it is", "state", stored.State)
		_ = m.Ack()
		return
	}
	// The event goes out before the ack: a worker that dies in between
	// refuses the redelivered job again, and the stream drops the repeat.
	// One the stream did not take goes out again the same way, unless this
	// is the job's last delivery.
	if err := w.events.Emit(ctx, events.Failed, &stored); err != nil && recorded {
		if md, _ := m.Metadata(); md != nil && int(md.NumDelivered) <= w.cfg.MaxAttempts {
			log.Warn("refusal's event not published; the job comes back to emit it again", "err", err)
			_ = m.NakWithDelay(backoff(md.NumDelivered))
			return
		}
	}
	_ = m.Ack()
}

// fenced makes sure a refusal of a job an earlier delivery may have
// handled (mayBeHandled) cannot be followed by a batch of its order: that
// delivery may still be signing it (its process stalled past the ack
// wait), and would hand its batch on after the order was answered refused
// and stored failed. The order is voided in TXS first (bus.Void): a batch
// already there means that delivery signed it, the order is the
// pipeline's and this job is acked, not refused. It reports whether the
// refusal may go on; false when it has ended the message. A fresh first
// delivery has no earlier one to race.
func (w *Worker) fenced(ctx context.Context, m jetstream.Msg, seed *wire.Order, log *slog.Logger) bool {
	md, _ := m.Metadata()
	if md == nil || !w.mayBeHandled(m, seed.CreatedAt, md.NumDelivered) {
		return true
	}
	voided, err := w.voidWithin(ctx, 5*time.Second, seed.OrderID)
	if ended, ok := w.voidTold(m, voided, err, md.NumDelivered, log); ended {
		return ok
	}
	if int(md.NumDelivered) <= w.cfg.MaxAttempts {
		log.Warn("void the order before refusing it, will retry", "err", err)
		_ = m.NakWithDelay(backoff(md.NumDelivered))
		return false
	}
	// The job's last delivery: handed back, it would be dropped unanswered,
	// so it is refused; but refused unvoided, an earlier delivery still
	// signing could hand its batch on after the bot was told the order
	// failed. No delivery signs once the order is JobMaxAge old (signNew),
	// and none hands a batch on later than JobMaxAge after its handler
	// began (its context bounds every publish; the worker role's
	// connection holds none back while it is down), however late it
	// began: the void is tried again until it is told, or until twice
	// that life and a margin have passed since the order was made, after
	// which no delivery can hand a batch on.
	until := seed.CreatedAt.Add(2*w.cfg.JobMaxAge + fenceMargin)
	if time.Now().Before(until) {
		log.Error("the order could not be voided before its refusal on its last delivery; trying again until no earlier delivery can hand a batch on",
			"err", err, "until", until)
		voided, err = w.voidPatiently(ctx, seed.OrderID, until)
		if ended, ok := w.voidTold(m, voided, err, md.NumDelivered, log); ended {
			return ok
		}
		if w.isStopping() && time.Now().Before(until) {
			// Refused unvoided now, an earlier delivery could still trade
			// the order its bot was told failed: the job is handed back,
			// dropped unanswered as its last delivery, and its order left
			// pending (its ingress tries the void in the background).
			log.Error("the worker stopped before the order could be voided: its job is handed back unrefused, the order left pending", "err", err)
			_ = m.Nak()
			return false
		}
	}
	log.Error("refused unvoided: no earlier delivery can hand a batch on any more", "err", err)
	return true
}

// isStopping reports whether the worker was told to stop.
func (w *Worker) isStopping() bool {
	select {
	case <-w.stopping:
		return true
	default:
		return false
	}
}

// voidPatiently tries to void the order (bus.Void) until a try tells
// whether it is voided, until the time given, or until the worker is told
// to stop, and returns the last try's answer.
func (w *Worker) voidPatiently(ctx context.Context, orderID string, until time.Time) (bool, error) {
	for try := uint64(1); ; try++ {
		voided, err := w.voidWithin(ctx, min(5*time.Second, max(time.Until(until), time.Millisecond)), orderID)
		if err == nil || errors.Is(err, bus.ErrCannotVoid) {
			return voided, err
		}
		wait := min(backoff(try), time.Second, time.Until(until))
		if wait <= 0 {
			return false, err
		}
		select {
		case <-w.stopping:
			return false, err
		case <-time.After(wait):
		}
	}
}

// fenceMargin is added to the fence's wait for an earlier delivery's last
// publish of its batch, sent just before its life ended, to reach the
// stream, and for the clocks of the ingress and the workers' hosts to
// differ.
const fenceMargin = 2 * time.Second

// voidWithin voids the order in TXS, the try bounded by d apart from ctx:
// the job's own life may be what ended.
func (w *Worker) voidWithin(ctx context.Context, d time.Duration, orderID string) (bool, error) {
	vctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	defer cancel()
	return w.void(vctx, w.js, w.batchChains(), orderID)
}

// voidTold reports whether a try of the fence's void told the order's
// fate (ended), and then whether the refusal may go on: the order voided,
// or TXS kept as a work queue where it cannot be; not when a batch is there
// (an earlier delivery signed it: the job is acked).
func (w *Worker) voidTold(m jetstream.Msg, voided bool, err error, attempt uint64, log *slog.Logger) (ended, ok bool) {
	switch {
	case err == nil && !voided:
		log.Info("an earlier delivery signed the order meanwhile: this one's refusal dropped, the job acked", "attempt", attempt)
		_ = m.Ack()
		return true, false
	case err == nil, errors.Is(err, bus.ErrCannotVoid):
		return true, true
	}
	return false, false
}

// final reports whether a signer's refusal with code ends the job. A
// paused venue is transient for the client, who may try later, but not
// for the job: its checks will not pass within the job's few retries, and
// the waiting ingress gives the charge back only once it is answered.
//
// So is a chain this worker cannot serve for the order (a launch with no
// metadata store configured): no retry changes its configuration, and the
// ingress gives the charge back, as for a chain no worker serves.
func final(code apierr.Code) bool {
	return code == apierr.VenuePaused || code == apierr.ChainUnavailable || (code.Kind() != apierr.KindTransient && code != apierr.Internal)
}

func ptr[T any](v T) *T { return &v }

// backoff is the delay before a job (or a record) is tried again: doubling
// with each attempt (200 ms after the first) up to 6.4 s, so a chain or a
// NATS node that is down
// for a moment is not hammered, and a job's few attempts fit in its life.
func backoff(attempt uint64) time.Duration {
	return 100 * time.Millisecond << min(attempt, 6)
}
