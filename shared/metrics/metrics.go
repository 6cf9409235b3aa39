// Package metrics defines every Prometheus metric of the service, named by
// the Prometheus conventions: a tradeapi_ prefix, base units, _total on
// counters, and labels with a bounded set of values only (never an order
// id, a wallet, a key or a URL).
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds the service's metrics; each process serves it on /metrics.
var Registry = prometheus.NewRegistry()

var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

var (
	// HTTPRequests counts API requests by listener, route template and status code.
	HTTPRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_http_requests_total",
		Help: "HTTP requests answered, by listener, route and status code.",
	}, []string{"listener", "route", "code"})
	// HTTPDuration observes API request latency.
	HTTPDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by listener and route.",
		Buckets: latencyBuckets,
	}, []string{"listener", "route"})
	// Orders counts finished orders by chain, side and outcome (ok or an error code).
	Orders = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_orders_total",
		Help: "Orders answered, by chain, side and outcome (ok, skipped or the error code).",
	}, []string{"chain", "side", "outcome"})
	// RateLimited counts requests refused by the rate budget.
	RateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_rate_limited_total",
		Help: "Requests refused with 429, by family and spent window.",
	}, []string{"family", "window"})
	// Stage observes the latency of each pipeline stage.
	Stage = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_stage_duration_seconds",
		Help:    "Latency of a pipeline stage (queue_wait, sign, broadcast_rpc, end_to_end, confirmation), by chain.",
		Buckets: latencyBuckets,
	}, []string{"stage", "chain"})
	// Transactions counts broadcast transactions by chain and final or send outcome.
	Transactions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_transactions_total",
		Help: "Transactions by chain and outcome (sent, send_failed, confirmed, failed, expired).",
	}, []string{"chain", "outcome"})
	// RPCErrors counts chain RPC errors by chain and method.
	RPCErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_rpc_errors_total",
		Help: "Chain RPC calls that failed, by chain and method.",
	}, []string{"chain", "method"})
	// Redeliveries counts jobs handled again after a redelivery.
	Redeliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_redeliveries_total",
		Help: "Messages received more than once, by consumer.",
	}, []string{"consumer"})
	// TrackedSignatures is the number of signatures awaiting a final state.
	TrackedSignatures = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_tracked_signatures",
		Help: "Signatures whose confirmation is being tracked, by chain.",
	}, []string{"chain"})
)

func init() {
	Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		HTTPRequests, HTTPDuration, Orders, RateLimited, Stage, Transactions, RPCErrors, Redeliveries, TrackedSignatures)
}

// Handler serves the registry in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{Registry: Registry})
}
