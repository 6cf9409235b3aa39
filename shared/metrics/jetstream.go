package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// HandlerPanics counts the panics of a consumer's work, by consumer.
var HandlerPanics = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "tradeapi_handler_panics_total",
	Help: "Panics (a defect, each logged with its stack) in a consumer's work, by consumer: a message handler's (its message goes back for redelivery, up to the consumer's attempts), a worker's signer (the order answered 500 INTERNAL, nothing sent), the broadcaster's sends, tracker polls and a batch's final delivery; the process carries on.",
}, []string{"consumer"})

// MessagesDropped counts the messages a consumer ended unprocessed (Term)
// because no delivery could ever handle them, by consumer and reason:
// MessageUndecodable (a writer of another version, or a defect) or
// MessageMisaddressed (on a subject not its own, or naming another account
// or a chain the consumer cannot serve). A dropped job is an order never
// signed (its request answered 504), a dropped batch one never sent.
var MessagesDropped = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "tradeapi_messages_dropped_total",
	Help: "Messages a consumer dropped unprocessed because no delivery could handle them, by consumer and reason (undecodable, misaddressed); each is logged as an error.",
}, []string{"consumer", "reason"})

// The reasons of MessagesDropped.
const (
	MessageUndecodable  = "undecodable"
	MessageMisaddressed = "misaddressed"
)

// Defect logs a panic of the work of consumer (what panicked, with its
// stack) and counts it.
func Defect(log *slog.Logger, consumer, what string, p *guard.Panic) {
	HandlerPanics.WithLabelValues(consumer).Inc()
	log.Error(what+" panicked", "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
}

// EventsPublishFailures counts the order events the EVENTS stream did not
// take, by event type (shared/events creates each type's series at 0).
// Such an event reaches no webhook, no NATS consumer and no exits engine
// unless its emitter publishes it again: a confirmed buy's event is what
// opens its position, so a lost one leaves its exits unarmed.
var EventsPublishFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "tradeapi_events_publish_failures_total",
	Help: "Order events whose publish to the EVENTS stream failed (no acknowledgement within 2 s, or no stream), by type; unless emitted again, no webhook, NATS consumer or exits engine gets them.",
}, []string{"type"})

func init() {
	Registry.MustRegister(EventsPublishFailures, MessagesDropped, storeCollector{})
	bus.Panicked = func(consumer string) { HandlerPanics.WithLabelValues(consumer).Inc() }
	// Each durable consumer's series is there from the start, at 0.
	for _, c := range bus.DurableConsumers(append([]string{wire.ChainSolana, wire.ChainAnyEVM}, wire.EVMChains...)) {
		HandlerPanics.WithLabelValues(c)
		for _, r := range []string{MessageUndecodable, MessageMisaddressed} {
			MessagesDropped.WithLabelValues(c, r)
		}
	}
}

// StoreUsage reads a NATS server's JetStream file store: bytes held and
// its bound (*bus.Server implements it).
type StoreUsage interface {
	StoreUsage() (used, limit uint64, err error)
}

var (
	natsStoreDesc = prometheus.NewDesc("tradeapi_nats_store_bytes",
		"Bytes the JetStream file store of the NATS server this process runs holds, every stream and bucket.",
		nil, nil)
	natsMaxStoreDesc = prometheus.NewDesc("tradeapi_nats_max_store_bytes",
		"The bound of that file store (JetStream's max_store, worked out from the disk when not set): at it every stream refuses new messages, and no order is taken.",
		nil, nil)
	storeSource atomic.Pointer[StoreUsage]
)

// storeCollector reports the file store of the server SetStoreSource names.
type storeCollector struct{}

func (storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- natsStoreDesc
	ch <- natsMaxStoreDesc
}

func (storeCollector) Collect(ch chan<- prometheus.Metric) {
	src := storeSource.Load()
	if src == nil {
		return
	}
	used, limit, err := (*src).StoreUsage()
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(natsStoreDesc, prometheus.GaugeValue, float64(used))
	ch <- prometheus.MustNewConstMetric(natsMaxStoreDesc, prometheus.GaugeValue, float64(limit))
}

// SetStoreSource makes the process's metrics report src's file store (the
// NATS server it embeds or runs); nil reports none.
func SetStoreSource(src StoreUsage) {
	if src == nil {
		storeSource.Store(nil)
		return
	}
	storeSource.Store(&src)
}

// DefaultJetStreamTimeout bounds one scrape of the JetStream collector, well
// inside Prometheus's default scrape timeout of 10 s.
const DefaultJetStreamTimeout = 2 * time.Second

var (
	jsUpDesc = prometheus.NewDesc("tradeapi_jetstream_up",
		"1 when the stream and its consumers were read on this scrape, else 0.",
		[]string{"stream"}, nil)
	jsMessagesDesc = prometheus.NewDesc("tradeapi_jetstream_stream_messages",
		"Messages stored in the stream, acknowledged or not (the streams kept a day, up to tradeapi_jetstream_stream_max_bytes; a bucket's stream, KV_<bucket>, holds its keys: idempotency a day, orders and webhook deliveries 7 days, trades unbounded); the backlog is the consumers' pending counts.",
		[]string{"stream"}, nil)
	jsBytesDesc = prometheus.NewDesc("tradeapi_jetstream_stream_bytes",
		"Bytes stored in the stream.",
		[]string{"stream"}, nil)
	jsMaxBytesDesc = prometheus.NewDesc("tradeapi_jetstream_stream_max_bytes",
		"The stream's bound in bytes (nats.stream_max_gib), for the streams that have one: a full stream drops its oldest messages (ORDERS, TXS, EVENTS, WEBHOOK_RETRIES) or refuses new ones (WEBHOOK_BACKLOG, KV_idempotency).",
		[]string{"stream"}, nil)
	jsPendingDesc = prometheus.NewDesc("tradeapi_jetstream_consumer_pending_messages",
		"Messages of the stream the durable consumer has not been delivered yet.",
		[]string{"stream", "consumer"}, nil)
	jsAckPendingDesc = prometheus.NewDesc("tradeapi_jetstream_consumer_ack_pending_messages",
		"Messages delivered to the durable consumer and not yet acknowledged.",
		[]string{"stream", "consumer"}, nil)
	jsRedeliveredDesc = prometheus.NewDesc("tradeapi_jetstream_consumer_redelivered_messages",
		"Messages redelivered to the durable consumer and not yet acknowledged.",
		[]string{"stream", "consumer"}, nil)
	jsWaitingDesc = prometheus.NewDesc("tradeapi_jetstream_consumer_waiting_requests",
		"Pull requests waiting on the durable consumer: 0 means no process is fetching.",
		[]string{"stream", "consumer"}, nil)
	jsMaxAckPendingDesc = prometheus.NewDesc("tradeapi_jetstream_consumer_max_ack_pending",
		"The durable consumer's bound on messages delivered and not yet acknowledged; at it, the server delivers it nothing more.",
		[]string{"stream", "consumer"}, nil)
)

// streamSpec is a stream the collector reports and which of its durable
// consumers: the named ones, or every durable one when consumers is nil.
type streamSpec struct {
	name      string
	consumers []string
}

// reportedStreams are the streams the collector reports: ORDERS and TXS
// with every durable consumer, EVENTS with the webhook dispatcher's and the
// exits engines', WEBHOOK_RETRIES (its messages are the deliveries waiting
// for a retry) with the dispatcher's consumer of the due ones, and
// WEBHOOK_BACKLOG (the slow receivers' events) alone: its consumers are one
// per such account; and the streams of the buckets that grow with the
// orders (the idempotency keys, the order records, the webhook delivery
// records, the trade history), alone.
var reportedStreams = []streamSpec{{name: bus.StreamOrders}, {name: bus.StreamTxs},
	{name: bus.StreamEvents, consumers: []string{bus.WebhookConsumer, bus.ExitsConsumer}},
	{name: bus.StreamWebhookRetries, consumers: []string{bus.WebhookDueConsumer}},
	{name: bus.StreamWebhookBacklog, consumers: []string{}},
	{name: bus.KVStream(bus.BucketIdempotency), consumers: []string{}},
	{name: bus.KVStream(bus.BucketOrders), consumers: []string{}},
	{name: bus.KVStream(bus.BucketWebhookDeliveries), consumers: []string{}},
	{name: bus.KVStream(bus.BucketTrades), consumers: []string{}}}

// JetStreamCollector reports, on each scrape, the backlog of the service's
// streams and of their durable consumers: what waits for delivery, what
// was delivered but not acknowledged, and the bound on the latter. It
// reports ORDERS and TXS with every durable consumer, and EVENTS with the
// webhook dispatcher's and the exits engines' consumers (the dispatcher's
// ack-pending count holds its events queued or being posted), and
// WEBHOOK_RETRIES, whose messages are the deliveries waiting for a retry,
// with the dispatcher's consumer of the due ones. It reads
// the stream and consumer infos from the server within a short timeout; a
// stream that cannot be read reports tradeapi_jetstream_up 0 and no other
// series, so a slow server never stalls a scrape.
//
// Only durable consumers are reported: their names are the bounded set the
// service declares (worker-<chain>, broadcaster, webhooks, exits), while an
// ephemeral consumer's name is random and would make an unbounded label.
// On EVENTS the registry makes short-lived ones for each look at an
// account's recent events, so the two durable ones are read by name there
// rather than by listing them all.
type JetStreamCollector struct {
	js      jetstream.JetStream
	log     *slog.Logger
	streams []streamSpec
	timeout time.Duration

	mu      sync.Mutex
	failing map[string]bool
}

// NewJetStreamCollector returns a collector over js for the ORDERS, TXS
// and EVENTS streams. log receives a warning when a stream stops being
// readable and a notice when it is again; nil discards them.
func NewJetStreamCollector(js jetstream.JetStream, log *slog.Logger) *JetStreamCollector {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &JetStreamCollector{
		js:      js,
		log:     log.With("component", "metrics"),
		streams: reportedStreams,
		timeout: DefaultJetStreamTimeout,
		failing: map[string]bool{},
	}
}

// RegisterJetStream registers a JetStreamCollector over js in Registry and
// returns the function that unregisters it. If one is registered already
// (two nodes in one process, as in tests), it registers nothing and returns
// a function that does nothing: the first one reports for both.
func RegisterJetStream(js jetstream.JetStream, log *slog.Logger) (unregister func()) {
	c := NewJetStreamCollector(js, log)
	if err := Registry.Register(c); err != nil {
		return func() {}
	}
	return func() { Registry.Unregister(c) }
}

// Describe implements prometheus.Collector.
func (c *JetStreamCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{jsUpDesc, jsMessagesDesc, jsBytesDesc, jsMaxBytesDesc, jsPendingDesc,
		jsAckPendingDesc, jsRedeliveredDesc, jsWaitingDesc, jsMaxAckPendingDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *JetStreamCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, spec := range c.streams {
		name := spec.name
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms, err := c.stream(ctx, spec)
			c.note(name, err)
			if err != nil {
				ch <- prometheus.MustNewConstMetric(jsUpDesc, prometheus.GaugeValue, 0, name)
				return
			}
			ch <- prometheus.MustNewConstMetric(jsUpDesc, prometheus.GaugeValue, 1, name)
			for _, m := range ms {
				ch <- m
			}
		}()
	}
	wg.Wait()
}

// stream reads one stream and its durable consumers. It returns every
// series or an error, never a part of them, so that a scrape does not show
// a consumer vanishing because a page of the listing timed out.
func (c *JetStreamCollector) stream(ctx context.Context, spec streamSpec) ([]prometheus.Metric, error) {
	name := spec.name
	s, err := c.js.Stream(ctx, name)
	if err != nil {
		return nil, err
	}
	info := s.CachedInfo()
	st := info.State
	out := []prometheus.Metric{
		prometheus.MustNewConstMetric(jsMessagesDesc, prometheus.GaugeValue, float64(st.Msgs), name),
		prometheus.MustNewConstMetric(jsBytesDesc, prometheus.GaugeValue, float64(st.Bytes), name),
	}
	if info.Config.MaxBytes > 0 {
		out = append(out, prometheus.MustNewConstMetric(jsMaxBytesDesc, prometheus.GaugeValue, float64(info.Config.MaxBytes), name))
	}
	if spec.consumers != nil {
		for _, cn := range spec.consumers {
			cons, err := s.Consumer(ctx, cn)
			if errors.Is(err, jetstream.ErrConsumerNotFound) {
				continue // not declared yet: its role has not started
			}
			if err != nil {
				return nil, fmt.Errorf("consumer %s: %w", cn, err)
			}
			out = appendConsumer(out, name, cons.CachedInfo())
		}
		return out, nil
	}
	l := s.ListConsumers(ctx)
	// Drain the channel to the end: the lister's goroutine stops only
	// when it is read or ctx ends.
	for ci := range l.Info() {
		if ci.Config.Durable == "" {
			continue
		}
		out = appendConsumer(out, name, ci)
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// appendConsumer appends the series of one durable consumer of a stream.
// The bound is left out when the consumer has none (-1).
func appendConsumer(out []prometheus.Metric, stream string, ci *jetstream.ConsumerInfo) []prometheus.Metric {
	out = append(out,
		prometheus.MustNewConstMetric(jsPendingDesc, prometheus.GaugeValue, float64(ci.NumPending), stream, ci.Name),
		prometheus.MustNewConstMetric(jsAckPendingDesc, prometheus.GaugeValue, float64(ci.NumAckPending), stream, ci.Name),
		prometheus.MustNewConstMetric(jsRedeliveredDesc, prometheus.GaugeValue, float64(ci.NumRedelivered), stream, ci.Name),
		prometheus.MustNewConstMetric(jsWaitingDesc, prometheus.GaugeValue, float64(ci.NumWaiting), stream, ci.Name),
	)
	if ci.Config.MaxAckPending > 0 {
		out = append(out, prometheus.MustNewConstMetric(jsMaxAckPendingDesc, prometheus.GaugeValue,
			float64(ci.Config.MaxAckPending), stream, ci.Name))
	}
	return out
}

// note logs a stream's change between readable and not, once per change
// rather than once per scrape.
func (c *JetStreamCollector) note(stream string, err error) {
	c.mu.Lock()
	was := c.failing[stream]
	c.failing[stream] = err != nil
	c.mu.Unlock()
	switch {
	case err != nil && !was:
		c.log.Warn("jetstream stream info unavailable for metrics", "stream", stream, "err", err)
	case err == nil && was:
		c.log.Info("jetstream stream info available for metrics again", "stream", stream)
	}
}
