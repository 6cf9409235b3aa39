// Package workers runs the chain workers: one JetStream consumer per chain
// whose messages are validated swap jobs. A worker turns a job into signed
// transactions through its chain's Signer, records the signed batch before
// it hands it on, and so never signs two different transactions for one
// order, however often the job is delivered.
package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Signer builds and signs every transaction of a job. A business refusal is
// an *apierr.Error whose kind is not transient; any other error is retried.
type Signer interface {
	Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error)
}

// Launcher is a Signer that also launches tokens: it builds and signs every
// transaction of every bundle of a deploy, with the same error contract.
type Launcher interface {
	SignDeploy(ctx context.Context, job *wire.DeployJob) (*wire.TxBatch, error)
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
}

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
}

// Worker consumes one chain's jobs.
type Worker struct {
	cfg    Config
	id     string
	nc     *nats.Conn
	js     jetstream.JetStream
	signed jetstream.KeyValue
	orders *orders.Store
	signer Signer
	events *events.Publisher
	log    *slog.Logger

	// afterRecord, when set by a test, runs after the signed batch is
	// recorded and before it is published; returning true abandons the
	// message unacked, as a crash would.
	afterRecord func(orderID string) bool
}

// New returns a worker for one chain.
func New(cfg Config, nc *nats.Conn, js jetstream.JetStream, b *bus.Buckets, signer Signer, log *slog.Logger) *Worker {
	cfg.defaults()
	log = log.With("component", "worker", "chain", cfg.Chain)
	return &Worker{cfg: cfg, id: nuid.Next(), nc: nc, js: js, signed: b.Signed, orders: orders.NewStore(b.Orders),
		signer: signer, events: events.NewPublisher(js, log), log: log}
}

// Run consumes until ctx ends, then stops taking jobs, finishes the ones in
// hand and returns.
func (w *Worker) Run(ctx context.Context) error {
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
	stopBeat, err := w.announce()
	if err != nil {
		pool.Stop()
		return err
	}
	w.log.Info("worker started", "worker", w.id, "concurrency", w.cfg.Concurrency)
	<-ctx.Done()
	stopBeat()
	pool.Stop()
	w.log.Info("worker stopped", "worker", w.id)
	return nil
}

// announce sends heartbeats until the returned function is called, which
// also says goodbye so that ingress stops routing to this worker at once.
func (w *Worker) announce() (func(), error) {
	beat := func(leaving bool) {
		b, _ := json.Marshal(wire.Beat{Chain: w.cfg.Chain, Worker: w.id, Leaving: leaving})
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
		_ = w.nc.Flush()
	}, nil
}

func (w *Worker) handle(m jetstream.Msg) {
	job, err := w.decode(m)
	if err != nil {
		w.log.Error("undecodable job dropped", "err", err)
		_ = m.Term()
		return
	}
	log := w.log.With("order_id", job.orderID)
	if job.seed.Kind == wire.KindDeploy {
		log = log.With("kind", wire.KindDeploy)
	}
	reply := m.Headers().Get(bus.HeaderReply)
	md, _ := m.Metadata()
	attempt := uint64(1)
	if md != nil {
		attempt = md.NumDelivered
		if attempt > 1 {
			metrics.Redeliveries.WithLabelValues(bus.WorkerConsumer(w.cfg.Chain)).Inc()
		}
		metrics.Stage.WithLabelValues("queue_wait", w.cfg.Chain).Observe(time.Since(md.Timestamp).Seconds())
	}
	// The handler keeps its message alive while it works (bus.Consume), so
	// its own deadline is the job's useful life, not the ack wait.
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.JobMaxAge)
	defer cancel()

	// Only a redelivered job can have a recorded batch; on the first
	// delivery the record's create below settles any race.
	var batch *wire.TxBatch
	if attempt > 1 {
		if batch, err = w.recorded(ctx, job.orderID); err != nil {
			log.Warn("read signed batch", "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return
		}
	}
	if batch == nil {
		if age := time.Since(job.seed.CreatedAt); age > w.cfg.JobMaxAge {
			w.refuse(ctx, m, job.seed, reply, apierr.Newf(apierr.UpstreamTimeout, "", "the order waited %s in the queue and was not executed", age.Round(time.Millisecond)), log)
			return
		}
		start := time.Now()
		batch, err = job.sign(ctx)
		if err == nil && batch.AutoOrders == nil {
			batch.AutoOrders = job.seed.AutoOrders
		}
		metrics.Stage.WithLabelValues("sign", w.cfg.Chain).Observe(time.Since(start).Seconds())
		if err != nil {
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Code.Kind() != apierr.KindTransient && ae.Code != apierr.Internal {
				w.refuse(ctx, m, job.seed, reply, ae, log)
				return
			}
			if int(attempt) >= w.cfg.MaxAttempts {
				log.Error("sign failed, giving up", "attempt", attempt, "err", err)
				w.refuse(ctx, m, job.seed, reply, apierr.New(apierr.UpstreamTimeout, "the chain did not answer in time; nothing was signed").WithOrder(job.orderID), log)
				return
			}
			log.Warn("sign failed, will retry", "attempt", attempt, "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return
		}
		// The signed batch is recorded, retrying with the same bytes: a
		// nak here would sign again on redelivery, and on EVM the nonces of
		// the first signing would be lost.
		batch, err = w.recordRetrying(ctx, batch, log)
		if err != nil {
			log.Error("record signed batch, giving up", "err", err)
			_ = m.NakWithDelay(backoff(attempt))
			return
		}
		if w.afterRecord != nil && w.afterRecord(job.orderID) {
			return
		}
	} else {
		log.Info("republishing recorded batch", "attempt", attempt)
	}

	data, _ := json.Marshal(batch)
	// An unresolved EVM job (chain omitted) is signed for the chain the
	// signer resolved; the batch goes to that chain's broadcaster.
	chain := batch.Chain
	if chain == "" {
		chain = w.cfg.Chain
	}
	out := &nats.Msg{Subject: bus.TxsSubject(chain), Data: data, Header: nats.Header{}}
	out.Header.Set(bus.HeaderReply, reply)
	out.Header.Set(bus.HeaderOrder, job.orderID)
	if _, err := w.js.PublishMsg(ctx, out, jetstream.WithMsgID(job.orderID)); err != nil {
		log.Warn("publish signed batch", "err", err)
		_ = m.NakWithDelay(backoff(attempt))
		return
	}
	if err := m.Ack(); err != nil {
		log.Warn("ack job", "err", err)
	}
}

// job is a decoded message of the orders subject: a swap or a launch.
type job struct {
	orderID string
	// seed is the order record the job starts, for a refusal.
	seed *wire.Order
	sign func(ctx context.Context) (*wire.TxBatch, error)
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
		seed := orders.New(orders.OfSwap(&sj))
		return &job{orderID: sj.OrderID, seed: seed, sign: func(ctx context.Context) (*wire.TxBatch, error) {
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
		seed := orders.New(orders.OfDeploy(&dj))
		return &job{orderID: dj.OrderID, seed: seed, sign: func(ctx context.Context) (*wire.TxBatch, error) {
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

// recorded returns the batch already signed for an order, if any.
func (w *Worker) recorded(ctx context.Context, orderID string) (*wire.TxBatch, error) {
	e, err := w.signed.Get(ctx, orderID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var b wire.TxBatch
	if err := json.Unmarshal(e.Value(), &b); err != nil {
		return nil, fmt.Errorf("decode signed batch: %w", err)
	}
	return &b, nil
}

// record stores a batch unless one is there already, and returns the one
// that is stored: when two workers raced, both publish the first one.
func (w *Worker) record(ctx context.Context, b *wire.TxBatch) (*wire.TxBatch, error) {
	data, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	if _, err := w.signed.Create(ctx, b.OrderID, data); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			stored, gerr := w.recorded(ctx, b.OrderID)
			if gerr != nil || stored == nil {
				return nil, fmt.Errorf("read raced batch: %w", gerr)
			}
			return stored, nil
		}
		return nil, err
	}
	return b, nil
}

// recordRetrying records a batch, trying again while the store is
// unavailable (a NATS node failing over) until ctx ends.
func (w *Worker) recordRetrying(ctx context.Context, b *wire.TxBatch, log *slog.Logger) (*wire.TxBatch, error) {
	for try := 0; ; try++ {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		stored, err := w.record(rctx, b)
		cancel()
		if err == nil {
			return stored, nil
		}
		log.Warn("record signed batch, retrying", "try", try, "err", err)
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(backoff(uint64(try))):
		}
	}
}

// refuse ends a job with a public error: the order is marked failed, the
// waiting ingress is answered, and the message is acked.
func (w *Worker) refuse(ctx context.Context, m jetstream.Msg, seed *wire.Order, reply string, e *apierr.Error, log *slog.Logger) {
	log.Info("order refused", "code", e.Code, "reason", e.Message)
	body := e.Body()
	fail := func(o *wire.Order) {
		o.State = wire.StateFailed
		o.Error = &body
	}
	stored := *seed
	if err := w.orders.Update(ctx, seed.OrderID, seed, func(o *wire.Order) { fail(o); stored = *o }); err != nil {
		log.Warn("mark order failed", "err", err)
		fail(&stored)
	}
	bus.Reply(w.nc, reply, &wire.Reply{OrderID: seed.OrderID, Signatures: []string{}, Error: ptr(body)})
	// The event goes out before the ack: a worker that dies in between
	// refuses the redelivered job again, and the stream drops the repeat.
	w.events.Emit(ctx, events.Failed, &stored)
	_ = m.Ack()
}

func ptr[T any](v T) *T { return &v }

func backoff(attempt uint64) time.Duration {
	d := 100 * time.Millisecond << min(attempt, 6)
	return d
}
