package ingress

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// routeMetrics caches the metric children of one listener, so that a
// request does not hash its label values again.
type routeMetrics struct {
	listener string
	mu       sync.RWMutex
	counters map[routeCode]prometheus.Counter
	hists    map[string]prometheus.Observer
}

type routeCode struct {
	route    string
	code     int
	replayed bool
}

func newRouteMetrics(listener string) *routeMetrics {
	return &routeMetrics{listener: listener, counters: map[routeCode]prometheus.Counter{},
		hists: map[string]prometheus.Observer{}}
}

// answerCodes are the statuses an order route answers: their series exist
// at 0 from the start, so that the first burst of errors shows in rate().
var answerCodes = []int{200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504}

// orderOutcomes are the outcomes an order published to the pipeline ends
// with in metrics.Orders: ok, skipped, or the code of an error a worker or
// the broadcaster answers, or of the answer not coming in time.
var orderOutcomes = []string{"ok", "skipped",
	string(apierr.InvalidRequest), string(apierr.WalletNotOwned), string(apierr.TaxOutOfRange),
	string(apierr.LiquidityOutOfRange), string(apierr.MarketCapOutOfRange), string(apierr.TokenNotFound),
	string(apierr.InsufficientBalance), string(apierr.UpstreamTimeout), string(apierr.BroadcastFailed),
	string(apierr.VenuePaused), string(apierr.Internal)}

// zero creates the request counters of routes for codes at 0, and those
// of their replayed answers.
func (m *routeMetrics) zero(routes []string, codes []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, route := range routes {
		for _, code := range codes {
			for _, replayed := range []bool{false, true} {
				k := routeCode{route, code, replayed}
				c := m.counterLocked(k)
				c.Add(0)
				m.counters[k] = c
			}
		}
	}
}

// counterLocked is the counter of k: a replayed answer is counted apart,
// so that a client repeating a failed order's key does not read as new
// server errors.
func (m *routeMetrics) counterLocked(k routeCode) prometheus.Counter {
	vec := metrics.HTTPRequests
	if k.replayed {
		vec = metrics.HTTPReplays
	}
	return vec.WithLabelValues(m.listener, k.route, strconv.Itoa(k.code))
}

func (m *routeMetrics) observe(route string, code int, replayed bool, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	k := routeCode{route, code, replayed}
	m.mu.RLock()
	c, okc := m.counters[k]
	h, okh := m.hists[route]
	m.mu.RUnlock()
	if !okc || !okh {
		m.mu.Lock()
		if c, okc = m.counters[k]; !okc {
			c = m.counterLocked(k)
			m.counters[k] = c
		}
		if h, okh = m.hists[route]; !okh {
			h = metrics.HTTPDuration.WithLabelValues(m.listener, route)
			m.hists[route] = h
		}
		m.mu.Unlock()
	}
	c.Inc()
	h.Observe(d.Seconds())
}

// Gauges of the idempotency bucket, read from the stream behind it on each
// scrape. Entries count every record (answers kept for 24 hours, requests
// in flight, and the markers of claims withdrawn).
var (
	idemKeysDesc = prometheus.NewDesc("tradeapi_idempotency_keys",
		"Records in the idempotency bucket: kept answers, requests in flight and withdrawn claims, each kept up to 24 hours.",
		nil, nil)
	idemBytesDesc = prometheus.NewDesc("tradeapi_idempotency_bytes",
		"Bytes stored in the idempotency bucket.",
		nil, nil)
)

// idemScrapeTimeout bounds one read of the bucket's size.
const idemScrapeTimeout = 2 * time.Second

// idemCollector reports the idempotency bucket's size. A bucket that does
// not answer in time reports nothing on that scrape.
type idemCollector struct{ kv jetstream.KeyValue }

// Describe implements prometheus.Collector.
func (c idemCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- idemKeysDesc
	ch <- idemBytesDesc
}

// Collect implements prometheus.Collector.
func (c idemCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), idemScrapeTimeout)
	defer cancel()
	st, err := c.kv.Status(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(idemKeysDesc, prometheus.GaugeValue, float64(st.Values()))
	ch <- prometheus.MustNewConstMetric(idemBytesDesc, prometheus.GaugeValue, float64(st.Bytes()))
}

// registerIdempotencyGauges puts the gauges of kv on the service's metrics
// registry and returns the function that takes them off. Without a bucket,
// or when another server of the process registered them already (they
// report the same bucket), it registers nothing.
func registerIdempotencyGauges(kv jetstream.KeyValue) (unregister func()) {
	if kv == nil {
		return func() {}
	}
	c := idemCollector{kv: kv}
	if err := metrics.Registry.Register(c); err != nil {
		return func() {}
	}
	return func() { metrics.Registry.Unregister(c) }
}
