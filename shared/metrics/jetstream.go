package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// HandlerPanics counts the messages whose handler panicked, by consumer.
var HandlerPanics = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "tradeapi_handler_panics_total",
	Help: "Messages whose handler panicked (a defect, logged with its stack); each goes back for redelivery, up to the consumer's attempts, and the process carries on.",
}, []string{"consumer"})

// Defect logs a panic of the work of consumer (what panicked, with its
// stack) and counts it.
func Defect(log *slog.Logger, consumer, what string, p *guard.Panic) {
	HandlerPanics.WithLabelValues(consumer).Inc()
	log.Error(what+" panicked", "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
}

func init() {
	bus.Panicked = func(consumer string) { HandlerPanics.WithLabelValues(consumer).Inc() }
	// Each durable consumer's series is there from the start, at 0.
	for _, c := range []string{bus.BroadcasterConsumer, bus.ExitsConsumer, bus.WebhookConsumer} {
		HandlerPanics.WithLabelValues(c)
	}
	for _, chain := range append([]string{wire.ChainSolana, wire.ChainAnyEVM}, wire.EVMChains...) {
		HandlerPanics.WithLabelValues(bus.WorkerConsumer(chain))
	}
}

// DefaultJetStreamTimeout bounds one scrape of the JetStream collector, well
// inside Prometheus's default scrape timeout of 10 s.
const DefaultJetStreamTimeout = 2 * time.Second

var (
	jsUpDesc = prometheus.NewDesc("tradeapi_jetstream_up",
		"1 when the stream and its consumers were read on this scrape, else 0.",
		[]string{"stream"}, nil)
	jsMessagesDesc = prometheus.NewDesc("tradeapi_jetstream_stream_messages",
		"Messages stored in the stream, acknowledged or not (kept a day, up to 1 GiB); the backlog is the consumers' pending counts.",
		[]string{"stream"}, nil)
	jsBytesDesc = prometheus.NewDesc("tradeapi_jetstream_stream_bytes",
		"Bytes stored in the stream.",
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
)

// JetStreamCollector reports, on each scrape, the backlog of the pipeline's
// streams (ORDERS and TXS) and of their durable consumers: what
// waits for delivery and what was delivered but not acknowledged. It reads
// the stream and consumer infos from the server within a short timeout; a
// stream that cannot be read reports tradeapi_jetstream_up 0 and no other
// series, so a slow server never stalls a scrape.
//
// Only durable consumers are reported: their names are the bounded set the
// pipeline declares (worker-<chain>, broadcaster), while an ephemeral
// consumer's name is random and would make an unbounded label.
type JetStreamCollector struct {
	js      jetstream.JetStream
	log     *slog.Logger
	streams []string
	timeout time.Duration

	mu      sync.Mutex
	failing map[string]bool
}

// NewJetStreamCollector returns a collector over js for the ORDERS and TXS
// streams. log receives a warning when a stream stops being readable and a
// notice when it is again; nil discards them.
func NewJetStreamCollector(js jetstream.JetStream, log *slog.Logger) *JetStreamCollector {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &JetStreamCollector{
		js:      js,
		log:     log.With("component", "metrics"),
		streams: []string{bus.StreamOrders, bus.StreamTxs},
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
	for _, d := range []*prometheus.Desc{jsUpDesc, jsMessagesDesc, jsBytesDesc, jsPendingDesc,
		jsAckPendingDesc, jsRedeliveredDesc, jsWaitingDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *JetStreamCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, name := range c.streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms, err := c.stream(ctx, name)
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
func (c *JetStreamCollector) stream(ctx context.Context, name string) ([]prometheus.Metric, error) {
	s, err := c.js.Stream(ctx, name)
	if err != nil {
		return nil, err
	}
	st := s.CachedInfo().State
	out := []prometheus.Metric{
		prometheus.MustNewConstMetric(jsMessagesDesc, prometheus.GaugeValue, float64(st.Msgs), name),
		prometheus.MustNewConstMetric(jsBytesDesc, prometheus.GaugeValue, float64(st.Bytes), name),
	}
	l := s.ListConsumers(ctx)
	// Drain the channel to the end: the lister's goroutine stops only
	// when it is read or ctx ends.
	for ci := range l.Info() {
		if ci.Config.Durable == "" {
			continue
		}
		out = append(out,
			prometheus.MustNewConstMetric(jsPendingDesc, prometheus.GaugeValue, float64(ci.NumPending), name, ci.Name),
			prometheus.MustNewConstMetric(jsAckPendingDesc, prometheus.GaugeValue, float64(ci.NumAckPending), name, ci.Name),
			prometheus.MustNewConstMetric(jsRedeliveredDesc, prometheus.GaugeValue, float64(ci.NumRedelivered), name, ci.Name),
			prometheus.MustNewConstMetric(jsWaitingDesc, prometheus.GaugeValue, float64(ci.NumWaiting), name, ci.Name),
		)
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return out, nil
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
