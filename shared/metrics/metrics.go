// Package metrics defines every Prometheus metric of the service, named by
// the Prometheus conventions: a tradeapi_ prefix, base units, _total on
// counters, and labels with a bounded set of values only (never an order
// id, a wallet, a key or a URL).
//
// Every role process serves Registry on its metrics listener; the rules in
// configs/prometheus and the dashboard in configs/grafana use only the names
// defined here, which a test checks.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds the service's metrics; each process serves it on /metrics.
var Registry = prometheus.NewRegistry()

// Pipeline stages, the values of the stage label of Stage. Charge is
// labelled by wallet family (sol, evm), the chain not being known yet when
// the budget is charged; every other stage by chain.
const (
	StageCharge      = "charge"       // the rate budget charged, by family
	StageQueueWait   = "queue_wait"   // a job's wait in ORDERS before a worker took it
	StageSign        = "sign"         // building and signing every transaction of an order
	StageRecord      = "record"       // the signed batch published to TXS until acknowledged
	StageBatchWait   = "batch_wait"   // a stored batch's wait until the broadcaster took it
	StageRecordTrade = "record_trade" // the account's trade history written

	StageBroadcastRPC = "broadcast_rpc" // sending an order's transactions to the chain
	StageEndToEnd     = "end_to_end"    // ingress publishing a job until its answer
	StageConfirmation = "confirmation"  // a sent transaction until it is confirmed
	StageDeployLand   = "deploy_land"   // a launch's bundles sent until the last one sent settled
	// StageDeployEndToEnd is a launch's end_to_end, apart from the swaps':
	// its answer waits for every bundle, seconds where a swap's takes
	// milliseconds, and counted with them it fired the swap latency alert.
	StageDeployEndToEnd = "deploy_end_to_end"
)

// Senders, the values of the sender label: how a transaction reached the
// chain.
const (
	SenderRPC   = "rpc"   // the chain's public JSON-RPC
	SenderRelay = "relay" // a private relay: an EVM chain's (anti_mev), or Solana's block engine (anti_mev bundles, launches)
)

// Transaction outcomes, the values of the outcome label of Transactions.
// Sent and send_failed are counted when a transaction is sent; confirmed,
// failed, dropped and expired when it reaches a final state. Confirmed and
// failed transactions landed (a failed one landed with an error: a revert,
// a program error); dropped and expired ones did not.
const (
	TxSent       = "sent"
	TxSendFailed = "send_failed"
	TxConfirmed  = "confirmed"
	// TxFailed: the transaction landed on chain with an error.
	TxFailed = "failed"
	// TxDropped: the block-engine relay failed or dropped the transaction's
	// bundle, which did not land.
	TxDropped = "dropped"
	TxExpired = "expired"
)

// Final states of an order, the values of the state label of OrdersFinal
// (the wire package's final order states).
const (
	OrderConfirmed = "confirmed"
	OrderFailed    = "failed"
	OrderExpired   = "expired"
)

// latencyBuckets cover a stage from a KV write or budget charge of a few
// tens of microseconds to a confirmation on a chain with 12 s blocks, a
// launch's landing or a job's wait up to its 30 s maximum age. Every
// threshold an alert rule puts on a quantile of these histograms is a
// bound, so that the alert compares a measured count, not an
// interpolation between bounds: .25 (the free routes' p99), 2 (the swap's
// p99) and 3 (the exit sells' p99); a test checks it.
var latencyBuckets = []float64{.000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1,
	2, 3, 5, 10, 20, 40, 80}

// landingBuckets cover a transaction's time to land, from a fast Solana
// slot to a slow EVM block.
var landingBuckets = []float64{.1, .25, .5, 1, 2, 4, 8, 15, 30, 60, 120}

// ListenerAdmin is the listener label of the admin API's requests; the
// public listeners are named by their configuration (sol_eu, sol_us, evm).
const ListenerAdmin = "admin"

var (
	// HTTPRequests counts API requests by listener, route template and status code.
	HTTPRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_http_requests_total",
		Help: "HTTP requests answered, by listener, route and status code; answers replayed for a repeated Idempotency-Key are counted in tradeapi_http_replays_total instead.",
	}, []string{"listener", "route", "code"})
	// HTTPReplays counts the answers replayed for a repeated
	// Idempotency-Key, which HTTPRequests leaves out.
	HTTPReplays = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_http_replays_total",
		Help: "HTTP answers replayed for a repeated Idempotency-Key (Idempotent-Replayed: true), by listener, route and status code; tradeapi_http_requests_total leaves them out.",
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
		Help: "Orders answered, by chain, side and outcome (ok, skipped, the error code, not_configured for a chain the service does not serve, worker_unavailable for a CHAIN_UNAVAILABLE a worker answered while the chain's workers are up).",
	}, []string{"chain", "side", "outcome"})
	// StoreFailures counts the requests answered 503 OVERLOADED because a
	// store they need did not answer in time, by store (the Store*
	// constants). Unlike the load shedding of a full backlog, each one is
	// a failure of the service's own state.
	StoreFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_store_failures_total",
		Help: "Requests answered 503 OVERLOADED because a store they need did not answer in time, by store (budget, idempotency, orders, trades).",
	}, []string{"store"})
	// RateLimited counts requests refused by the rate budget.
	RateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_rate_limited_total",
		Help: "Requests refused with 429, by family and spent window.",
	}, []string{"family", "window"})
	// Stage observes the latency of each pipeline stage (the Stage* constants).
	Stage = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_stage_duration_seconds",
		Help:    "Latency of a pipeline stage, by chain (charge by wallet family; evm: the EVM orders that named no chain): charge (the rate budget), queue_wait (job published to worker), sign, record (the signed batch published to TXS, which keeps it, until acknowledged), batch_wait (batch stored to broadcaster), broadcast_rpc, record_trade, end_to_end (a swap's publish to its answer), deploy_end_to_end (a launch's), confirmation (a sent transaction to its confirmation), deploy_land (a launch's bundles sent until the last one sent settled, landed or not).",
		Buckets: latencyBuckets,
	}, []string{"stage", "chain"})
	// Transactions counts transactions by chain, sender and outcome (the Tx*
	// constants): the landing rate is confirmed and failed (both landed)
	// over every final outcome. Whether the orders succeeded is OrdersFinal.
	Transactions = &TransactionVec{vec: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_transactions_total",
		Help: "Transactions by chain, sender (rpc; relay: a private relay or block engine) and outcome (sent, send_failed; final: confirmed, failed (landed with an error), dropped (its bundle refused or dropped by the relay), expired).",
	}, []string{"chain", "sender", "outcome"})}
	// OrdersFinal counts the orders the broadcaster's tracker settled, by
	// chain and final state (the Order* constants), once per order when it
	// becomes final. These are the orders answered once their transactions
	// were sent, whose outcome the answer could not tell yet: an order
	// answered 200 may still fail or expire here. Orders refused or failed
	// before they were sent, and launches (answered once they landed), are
	// in Orders only.
	OrdersFinal = &OrdersFinalVec{vec: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_orders_final_total",
		Help: "Orders sent to a chain that reached a final state, by chain, venue (pump_fun, pumpswap, launchlab, dbc, uniswap_v2, uniswap_v3; unknown for an order recorded without one) and state (confirmed, failed, expired), counted once per order by the tracker that settled it.",
	}, []string{"chain", "venue", "state"})}
	// Landing observes the time from a transaction's send to its confirmation.
	Landing = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_landing_duration_seconds",
		Help:    "Time from sending a transaction to seeing it confirmed, by chain and sender.",
		Buckets: landingBuckets,
	}, []string{"chain", "sender"})
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
	// Rebroadcasts counts public Solana transactions sent again, the same
	// bytes, because the chain had not seen them since their last send.
	Rebroadcasts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_rebroadcasts_total",
		Help: "Transactions the chain had not seen sent again (the same bytes) while they could still land, by chain.",
	}, []string{"chain"})
	// TrackedSignatures is the number of signatures awaiting a final state.
	TrackedSignatures = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_tracked_signatures",
		Help: "Signatures whose confirmation is being tracked, by chain.",
	}, []string{"chain"})
	// ExitsArmed is the number of auto-order exits waiting for their
	// trigger, by chain and type (take_profit, stop_loss, trailing_stop,
	// time, dev_sell).
	ExitsArmed = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_exits_armed",
		Help: "Auto-order exits armed and waiting for their trigger, by chain and type.",
	}, []string{"chain", "type"})
	// ExitsFired counts auto-order exits whose trigger fired, by chain and type.
	ExitsFired = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_exits_fired_total",
		Help: "Auto-order exits whose trigger fired, by chain and type.",
	}, []string{"chain", "type"})
	// ExitSellsUnlanded counts exit sells that did not trade (refused,
	// failed or expired), by chain, exit type and what became of the exit:
	// rearmed (it fires again after a back-off, or once its venue trades
	// again), failed (its attempts used up: the position is left to its
	// owner), cancelled (the wallet's tokens were gone, sold or sent
	// away, and the position closed with it: nothing is left to sell) or
	// worker_unavailable (re-armed: a worker refused the sell 503
	// CHAIN_UNAVAILABLE, signing nothing, which never fails the exit).
	ExitSellsUnlanded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_exit_sells_unlanded_total",
		Help: "Auto-order exit sells that did not trade, by chain, exit type and what became of the exit (rearmed, failed, cancelled, worker_unavailable).",
	}, []string{"chain", "type", "outcome"})
	// ExitEventsDropped counts order events the exits engine gave up on:
	// after retrying them for about a quarter of an hour (a buy's whose
	// fill could not be read: no position opened; an exit sell's whose
	// outcome could not be written), a confirmed buy's whose order record
	// never caught up with it (about 25 s), or one on a chain the engine
	// does not serve; by event type and side.
	ExitEventsDropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_exit_events_dropped_total",
		Help: "Order events the exits engine gave up on (after its retries, its order record never caught up, or its chain not served), by event type and side: a buy's means no position was opened.",
	}, []string{"event", "side"})
	// PositionsOpen is the number of open positions the exits engine
	// watches, by chain.
	PositionsOpen = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_positions_open",
		Help: "Open positions watched by the exits engine, by chain.",
	}, []string{"chain"})
	// WatchedTokens is the number of tokens whose price the exits engine
	// reads, by chain: its own share when several engines run. Its load
	// grows with these, not with positions.
	WatchedTokens = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_exits_watched_tokens",
		Help: "Tokens whose price this exits engine reads (its share of the watched tokens), by chain.",
	}, []string{"chain"})
	// ExitsEngines is the number of exits engines this engine sees alive,
	// itself included: the engines split the watched tokens between them,
	// so each reads about WatchedTokens / ExitsEngines of them.
	ExitsEngines = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tradeapi_exits_engines",
		Help: "Exits engines alive as this engine sees them, itself included; they split the watched tokens.",
	})
	// PriceReads counts the exits engine's price reads by chain and
	// outcome (ok or error).
	PriceReads = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_exits_price_reads_total",
		Help: "Token price reads of the exits engine, by chain and outcome (ok, error).",
	}, []string{"chain", "outcome"})
	// BlockhashRefreshFailures counts the background refreshes of the
	// latest blockhash a chain's signer keeps that failed. While they fail,
	// each order asks the chain for the blockhash itself once the cached
	// one is too old, which costs it a round trip.
	BlockhashRefreshFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_blockhash_refresh_failures_total",
		Help: "Background refreshes of a signer's cached latest blockhash that failed, by chain; meanwhile orders read the blockhash themselves.",
	}, []string{"chain"})
	// NonceGaps counts the EVM nonce gaps an EVM worker filled, by chain and
	// outcome (filled: a transfer of nothing sent at the missing nonce;
	// failed: its signing or send failed, tried again at the next check).
	NonceGaps = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_nonce_gaps_total",
		Help: "EVM nonce gaps that held a wallet's later transactions back, filled with a transfer of nothing by the worker, by chain and outcome.",
	}, []string{"chain", "outcome"})
	// ExitPublish observes the time from the price read (or clock tick)
	// that fired an exit to its sell job being stored in the ORDERS stream.
	//
	// An exit its account's exit budget held back is measured from the
	// moment the budget let it in: the wait the budget imposes by design is
	// counted in ExitsDeferred, so that this histogram (and the alert on
	// it) shows the engine's own delays only.
	ExitPublish = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_exit_trigger_to_publish_seconds",
		Help:    "Time from the price read that fired an auto-order exit (or the budget letting it in) to its sell job being published, by chain.",
		Buckets: latencyBuckets,
	}, []string{"chain"})
	// ExitsDeferred counts exit sells that entered the pipeline later than
	// their trigger, by chain and reason (the ExitDeferred* constants).
	ExitsDeferred = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_exits_deferred_total",
		Help: "Auto-order exit sells published later than their trigger, by chain and reason (budget, resumed, handover, venue_paused, stopped).",
	}, []string{"chain", "reason"})
	// ExitsHeld is the number of fired exits whose sells this engine holds
	// until their account's exit budget lets them into the pipeline.
	ExitsHeld = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_exits_held",
		Help: "Fired auto-order exits whose sells this engine holds until their account's exit budget lets them in, by chain.",
	}, []string{"chain"})

	// Bundles counts the bundles sent to a block-engine relay (anti_mev
	// transactions, launches) by the relay's configured name and the
	// bundle's final outcome, counted once per bundle: landed, failed (the
	// relay failed it), dropped (the relay refused it when it was sent),
	// invalid (the relay no longer knew it when its blockhash expired),
	// pending_timeout (still pending then). The outcomes are the final
	// states an order's bundles show (wire.Bundle*).
	Bundles = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_bundles_total",
		Help: "Bundles sent to a block-engine relay, by relay and final outcome (landed, failed, dropped, invalid, pending_timeout).",
	}, []string{"relay", "outcome"})

	// SenderSends counts the sends of signed transactions and bundles to
	// each landing sender of a chain (its RPC, block-engine transaction
	// endpoints, block-engine regions' bundle endpoints, each by its
	// configured name) by outcome (the SenderSend* constants). Every
	// sender gets the same signed bytes.
	SenderSends = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_sender_sends_total",
		Help: "Sends of signed transactions and bundles to a landing sender, by chain, sender (its configured name) and outcome (accepted, refused, error).",
	}, []string{"chain", "sender", "outcome"})
	// SenderSendDuration observes one send to one landing sender, to its
	// answer.
	SenderSendDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tradeapi_sender_send_duration_seconds",
		Help:    "Time of one send to a landing sender, to its answer, by chain and sender.",
		Buckets: latencyBuckets,
	}, []string{"chain", "sender"})
	// SenderLanded counts the transactions and bundles a landing sender
	// accepted that landed: over SenderSends' accepted, each sender's
	// landing rate.
	SenderLanded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_sender_landed_total",
		Help: "Transactions and bundles a landing sender accepted that landed, by chain and sender.",
	}, []string{"chain", "sender"})

	// WebhookDeliveries counts webhook delivery attempts by outcome (the
	// Webhook* constants).
	WebhookDeliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_webhook_deliveries_total",
		Help: "Webhook delivery attempts, by outcome (delivered, retry, rejected, gave_up, and dropped: the webhook was removed before a retry).",
	}, []string{"outcome"})
	// WebhookDuration observes one webhook POST, from connecting to the
	// receiver's answer (or the attempt's timeout).
	WebhookDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "tradeapi_webhook_delivery_duration_seconds",
		Help:    "Time of one webhook POST, from connecting to the answer or the timeout.",
		Buckets: webhookBuckets,
	})
	// WebhookQueued is the number of events the webhook dispatcher holds
	// waiting for a delivery slot: their account is at its share of the
	// slots, or every slot is busy.
	WebhookQueued = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tradeapi_webhook_events_queued",
		Help: "Events the webhook dispatcher holds waiting for a delivery slot (their account at its share, or every slot busy).",
	})
	// WebhookHolds counts the times an event was put to wait without an
	// attempt because its account's receiver was failing: an event that
	// comes back while the pause goes on is held again, and counted again.
	WebhookHolds = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "tradeapi_webhook_holds_total",
		Help: "Times a webhook event was put to wait without an attempt because its account's receiver was failing (its last attempt failed; one attempt probes it when the pause ends); an event held again after a pause counts again.",
	})
	// WebhookFailingAccounts is the number of accounts whose receivers are
	// failing: their last attempt failed, and their events wait.
	WebhookFailingAccounts = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tradeapi_webhook_failing_accounts",
		Help: "Accounts whose webhook receiver's last attempt failed (no connection, a timeout, 408, 429, 5xx), as this dispatcher process sees them: their events wait, one attempt probes the receiver after each pause.",
	})
	// WebhookBacklogged counts the events put in their account's backlog
	// (bus.StreamWebhookBacklog) because the dispatcher held as many of
	// that account's events as it holds of one account: a receiver slower
	// than its account's events.
	WebhookBacklogged = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "tradeapi_webhook_events_backlogged_total",
		Help: "Webhook events put in their account's backlog (the WEBHOOK_BACKLOG stream) because the dispatcher held as many of that account's events as it holds of one account: its receiver answers slower than its events come. They wait there, in order, outside the events every account shares.",
	})
	// WebhookBacklogAccounts is the number of accounts whose backlog this
	// dispatcher process consumes.
	WebhookBacklogAccounts = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tradeapi_webhook_backlog_accounts",
		Help: "Accounts whose webhook backlog this dispatcher process consumes: their receivers answer slower than their events come.",
	})
	// WebhookInFlight is the number of webhook POSTs under way.
	WebhookInFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tradeapi_webhook_deliveries_in_flight",
		Help: "Webhook POSTs under way.",
	})
)

// Venue pauses (shared/venues): a venue whose on-chain program, account
// layout or contract code no longer accepts what the service builds is
// paused, and its orders are refused with VENUE_PAUSED.
var (
	// VenuePaused is 1 while a venue is paused and 0 while it trades, by
	// venue and chain, as every process with a view of the venues bucket
	// sees it.
	VenuePaused = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "tradeapi_venue_paused",
		Help: "1 while a venue is paused (its orders answered VENUE_PAUSED), 0 while it trades, by venue and chain.",
	}, []string{"venue", "chain"})
	// VenuePauses counts the pauses a watcher recorded, by venue and chain.
	VenuePauses = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tradeapi_venue_pauses_total",
		Help: "Venues paused by their checks (a program upgrade, an account layout or contract code the service does not accept), by venue and chain.",
	}, []string{"venue", "chain"})
)

func init() { Registry.MustRegister(VenuePaused, VenuePauses) }

// Stores a request needs, the values of the store label of StoreFailures.
const (
	StoreBudget      = "budget"      // the rate budget's bucket
	StoreIdempotency = "idempotency" // the Idempotency-Key records
	StoreOrders      = "orders"      // the order records
	StoreTrades      = "trades"      // the accounts' trade history
)

// Reasons an exit sell entered the pipeline late, the values of the reason
// label of ExitsDeferred.
const (
	// ExitDeferredBudget: the account's exit budget (sells a second per
	// account) held the sell back.
	ExitDeferredBudget = "budget"
	// ExitDeferredResumed: the engine that claimed the exit stopped or
	// failed before publishing it, and another engine (or the same one
	// after a restart) finished it.
	ExitDeferredResumed = "resumed"
	// ExitDeferredHandover: a time exit of a token another engine reads was
	// fired by this one after that engine let it wait past the handover
	// time.
	ExitDeferredHandover = "handover"
	// ExitDeferredVenuePaused: the exit was due while the venue of its
	// position was paused, and fired when the venue resumed.
	ExitDeferredVenuePaused = "venue_paused"
	// ExitDeferredStopped: a time exit came due while no exits engine ran
	// (the service or its exits role was stopped); it fires at the start.
	ExitDeferredStopped = "stopped"
)

// Outcomes of one send to a landing sender, the values of the outcome
// label of SenderSends.
const (
	// SenderSendAccepted: the sender took the transaction or bundle, or
	// already had it.
	SenderSendAccepted = "accepted"
	// SenderSendRefused: the sender refused it (a JSON-RPC error).
	SenderSendRefused = "refused"
	// SenderSendError: no answer (a connection error, a timeout, an HTTP
	// status).
	SenderSendError = "error"
)

// Webhook delivery outcomes, the values of the outcome label of
// WebhookDeliveries.
const (
	// WebhookDelivered: the receiver answered 2xx.
	WebhookDelivered = "delivered"
	// WebhookRetry: the attempt failed (connection error, timeout, 408,
	// 429, 5xx) and the event will be sent again.
	WebhookRetry = "retry"
	// WebhookRejected: the receiver answered a 3xx or a 4xx other than 408
	// and 429, or the target is not allowed; not sent again.
	WebhookRejected = "rejected"
	// WebhookGaveUp: the attempts or the event's age ran out.
	WebhookGaveUp = "gave_up"
	// WebhookDropped: the account's webhook was removed while the event
	// waited for another attempt; it is not sent.
	WebhookDropped = "dropped"
)

// webhookBuckets cover a webhook POST from a receiver beside the service to
// one that runs into the 5 s timeout.
var webhookBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

func init() {
	Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		HTTPRequests, HTTPReplays, HTTPDuration, Orders, OrdersFinal, StoreFailures, RateLimited, Stage, Transactions, Landing, RPCErrors, Redeliveries, ExitSellsUnlanded, ExitEventsDropped,
		Rebroadcasts, TrackedSignatures, ExitsArmed, ExitsFired, PositionsOpen, WatchedTokens, ExitsEngines, PriceReads, ExitPublish,
		ExitsDeferred, ExitsHeld, BlockhashRefreshFailures, NonceGaps, WebhookDeliveries, WebhookDuration, WebhookQueued, WebhookInFlight, WebhookHolds, WebhookFailingAccounts,
		WebhookBacklogged, WebhookBacklogAccounts,
		Bundles, SenderSends, SenderSendDuration, SenderLanded, HandlerPanics)
	// The exits engine takes confirmed buys and sells' final events.
	for _, ev := range []string{"confirmed", "failed", "expired"} {
		for _, side := range []string{"Buy", "Sell"} {
			ExitEventsDropped.WithLabelValues(ev, side)
		}
	}
	// Every outcome and reason has a series from the start, so that rates
	// over them are defined before the first delivery or deferral.
	for _, o := range []string{WebhookDelivered, WebhookRetry, WebhookRejected, WebhookGaveUp, WebhookDropped} {
		WebhookDeliveries.WithLabelValues(o)
	}
}

// Handler serves the registry in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{Registry: Registry})
}

// OrdersFinalVec counts settled orders by chain, venue and final state. It
// is a prometheus.Collector.
type OrdersFinalVec struct {
	vec *prometheus.CounterVec
}

// VenueUnknown labels the settled orders whose record names no venue.
const VenueUnknown = "unknown"

// With returns the counter of one chain, venue (VenueUnknown when empty)
// and final state (an Order* constant).
func (v *OrdersFinalVec) With(chain, venue, state string) prometheus.Counter {
	if venue == "" {
		venue = VenueUnknown
	}
	return v.vec.WithLabelValues(chain, venue, state)
}

// Describe implements prometheus.Collector.
func (v *OrdersFinalVec) Describe(ch chan<- *prometheus.Desc) { v.vec.Describe(ch) }

// Collect implements prometheus.Collector.
func (v *OrdersFinalVec) Collect(ch chan<- prometheus.Metric) { v.vec.Collect(ch) }

// TransactionVec counts transactions by chain, sender and outcome. It is a
// prometheus.Collector.
type TransactionVec struct {
	vec *prometheus.CounterVec
}

// With returns the counter of one chain, sender (a Sender* constant) and
// outcome (a Tx* constant).
func (v *TransactionVec) With(chain, sender, outcome string) prometheus.Counter {
	return v.vec.WithLabelValues(chain, sender, outcome)
}

// Describe implements prometheus.Collector.
func (v *TransactionVec) Describe(ch chan<- *prometheus.Desc) { v.vec.Describe(ch) }

// Collect implements prometheus.Collector.
func (v *TransactionVec) Collect(ch chan<- prometheus.Metric) { v.vec.Collect(ch) }

var workersDesc = prometheus.NewDesc("tradeapi_workers",
	"Worker processes of the chain that this ingress heard beat within the last 5 s; 0 for a served chain none serves: its orders are refused 503 CHAIN_UNAVAILABLE.",
	[]string{"chain"}, nil)

// workersCollector reports an ingress's count of each served chain's
// workers at every scrape.
type workersCollector struct {
	chains []string
	count  func(chain string) int
}

func (c workersCollector) Describe(ch chan<- *prometheus.Desc) { ch <- workersDesc }

func (c workersCollector) Collect(ch chan<- prometheus.Metric) {
	for _, chain := range c.chains {
		ch <- prometheus.MustNewConstMetric(workersDesc, prometheus.GaugeValue, float64(c.count(chain)), chain)
	}
}

// pipelineMaxPending is pipeline.max_pending as an ingress has it: the
// jobs one chain's workers may have waiting or held before its orders are
// answered 503 OVERLOADED (0: no bound), for the alert near it. Only a
// process that serves orders reports it (SetMaxPending): another's 0
// would read as no bound.
var pipelineMaxPending = prometheus.NewGauge(prometheus.GaugeOpts{
	Name: "tradeapi_pipeline_max_pending",
	Help: "pipeline.max_pending as this ingress has it: the jobs a chain's workers may have waiting or held before its orders are refused 503 OVERLOADED; 0 is no bound.",
})

// SetMaxPending reports pipeline.max_pending from this process, an
// ingress's, from now on.
func SetMaxPending(v uint64) {
	pipelineMaxPending.Set(float64(v))
	_ = Registry.Register(pipelineMaxPending) // once: then AlreadyRegistered
}

// RegisterWorkers reports tradeapi_workers{chain} for chains (the served
// ones) from count, and returns the function that unregisters it. If one
// is registered already (two ingresses in one process, as in tests), it
// registers nothing and returns a function that does nothing.
func RegisterWorkers(chains []string, count func(chain string) int) (unregister func()) {
	c := workersCollector{chains: chains, count: count}
	if err := Registry.Register(c); err != nil {
		return func() {}
	}
	return func() { Registry.Unregister(c) }
}
