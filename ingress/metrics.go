package ingress

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

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
	string(apierr.VenuePaused), string(apierr.Internal), string(apierr.ChainUnavailable), string(apierr.Overloaded),
	outcomeNotConfigured, outcomeWorkerUnavailable}

// Gauges of the idempotency bucket, read from the stream behind it on each
// scrape. Entries count every record (answers kept for 24 hours, requests
// in flight, and the marker of a claim withdrawn until it is purged, at
// once but for a purge that failed).
var (
	idemKeysDesc = prometheus.NewDesc("tradeapi_idempotency_keys",
		"Records in the idempotency bucket: kept answers and requests in flight, each kept up to 24 hours (a withdrawn claim leaves none).",
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
