package metrics

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// touchAll gives every metric of the package at least one series, so that
// a gather shows each family.
func touchAll() {
	VenuePaused.WithLabelValues("pump_fun", "solana").Set(1)
	VenuePauses.WithLabelValues("pump_fun", "solana").Inc()
	Bundles.WithLabelValues("solana relay", "landed").Inc()
	SenderSends.WithLabelValues("solana", "rpc", "accepted").Inc()
	SenderSendDuration.WithLabelValues("solana", "rpc").Observe(0.01)
	SenderLanded.WithLabelValues("solana", "rpc").Inc()
	HTTPRequests.WithLabelValues("sol_eu", "/api/v1/swap", "200").Inc()
	HTTPDuration.WithLabelValues("sol_eu", "/api/v1/swap").Observe(0.01)
	Orders.WithLabelValues("solana", "Buy", "ok").Inc()
	RateLimited.WithLabelValues("sol", "minute").Inc()
	for _, s := range []string{StageCharge, StageQueueWait, StageSign, StageRecord, StageBatchWait, StageBroadcastRPC, StageRecordTrade, StageEndToEnd, StageConfirmation, StageDeployLand, StageDeployEndToEnd} {
		Stage.WithLabelValues(s, "solana").Observe(0.01)
	}
	for _, o := range []string{TxSent, TxSendFailed, TxConfirmed, TxFailed, TxDropped, TxExpired} {
		Transactions.With("solana", SenderRPC, o).Inc()
	}
	OrdersFinal.With("solana", "pump_fun", OrderFailed).Inc()
	StoreFailures.WithLabelValues(StoreBudget).Inc()
	Landing.WithLabelValues("solana", SenderRPC).Observe(0.8)
	NonceGaps.WithLabelValues("base", "filled").Inc()
	RPCErrors.WithLabelValues("solana", "send").Inc()
	Redeliveries.WithLabelValues(bus.BroadcasterConsumer).Inc()
	TrackedSignatures.WithLabelValues("solana").Set(3)
	ExitsArmed.WithLabelValues("solana", "take_profit").Set(1)
	ExitsFired.WithLabelValues("solana", "take_profit").Inc()
	ExitSellsUnlanded.WithLabelValues("solana", "take_profit", "rearmed").Inc()
	PositionsOpen.WithLabelValues("solana").Set(2)
	WatchedTokens.WithLabelValues("solana").Set(1)
	ExitsEngines.Set(2)
	PriceReads.WithLabelValues("solana", "ok").Inc()
	ExitPublish.WithLabelValues("solana").Observe(0.002)
	BlockhashRefreshFailures.WithLabelValues("solana").Inc()
	ExitsDeferred.WithLabelValues("solana", ExitDeferredBudget).Inc()
	ExitsHeld.WithLabelValues("solana").Set(1)
	WebhookDeliveries.WithLabelValues(WebhookDelivered).Inc()
	WebhookDuration.Observe(0.02)
	WebhookQueued.Set(1)
	WebhookInFlight.Set(1)
	WebhookHolds.Inc()
	WebhookFailingAccounts.Set(0)
	EventsPublishFailures.WithLabelValues("confirmed").Inc()
}

// jetstreamFixture is an embedded NATS server with the declared streams,
// durable consumers on ORDERS, TXS and EVENTS (the webhook dispatcher's,
// not the exits engines') and some work in them.
type jetstreamFixture struct {
	srv *bus.Server
	js  jetstream.JetStream
}

func newJetStreamFixture(t *testing.T) *jetstreamFixture {
	t.Helper()
	b := bustest.Start(t, "metrics-test")
	srv, js := b.Server, b.JS
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	worker, err := js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer("solana"), FilterSubject: bus.OrdersSubject("solana"),
		AckPolicy: jetstream.AckExplicitPolicy,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{
		Durable: bus.BroadcasterConsumer, AckPolicy: jetstream.AckExplicitPolicy,
	}); err != nil {
		t.Fatal(err)
	}
	// An ephemeral consumer has a random name: it must not become a series.
	if _, err := js.CreateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		AckPolicy: jetstream.AckExplicitPolicy, FilterSubject: bus.OrdersSubject("eth"),
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := js.Publish(ctx, bus.OrdersSubject("solana"), []byte("{}"),
			jetstream.WithMsgID("o"+string(rune('a'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := js.Publish(ctx, bus.TxsSubject("solana"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	// The webhook dispatcher's consumer holds one event of two, as it
	// holds one waiting for a retry; the registry's short-lived consumers
	// on EVENTS are ephemeral and not reported.
	hooks, err := js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{
		Durable: bus.WebhookConsumer, FilterSubject: bus.AllEvents, AckPolicy: jetstream.AckExplicitPolicy,
		MaxAckPending: 10000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{
		AckPolicy: jetstream.AckExplicitPolicy, FilterSubject: bus.AllEvents,
	}); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"broadcast", "confirmed"} {
		if _, err := js.Publish(ctx, bus.EventsSubject("acc_a", typ), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	held, err := hooks.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range held.Messages() {
		if err := m.NakWithDelay(time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	// One job delivered and held unacknowledged: 2 pending, 1 ack pending.
	batch, err := worker.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range batch.Messages() {
		n++
	}
	if n != 1 || batch.Error() != nil {
		t.Fatalf("fetched %d messages (%v), want 1", n, batch.Error())
	}
	return &jetstreamFixture{srv: srv, js: js}
}

// exposition scrapes Handler with a JetStream collector registered beside
// the package's metrics, as a role process serves it.
func exposition(t *testing.T) []byte {
	t.Helper()
	touchAll()
	f := newJetStreamFixture(t)
	unregister := RegisterJetStream(f.js, nil)
	defer unregister()
	defer RegisterWorkers([]string{"solana", "base"}, func(chain string) int { return len(chain) % 2 })()
	srv := httptest.NewServer(Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// families maps each tradeapi_ family of the exposition to its type and the
// label names its series carry.
type familyInfo struct {
	typ    string
	labels map[string]bool
}

func familiesOf(t *testing.T, g prometheus.Gatherer) map[string]familyInfo {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]familyInfo{}
	for _, mf := range mfs {
		fi := familyInfo{typ: mf.GetType().String(), labels: map[string]bool{}}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				fi.labels[lp.GetName()] = true
			}
		}
		out[mf.GetName()] = fi
	}
	return out
}

// allFamilies gathers every family with a JetStream collector in place.
func allFamilies(t *testing.T) map[string]familyInfo {
	t.Helper()
	touchAll()
	f := newJetStreamFixture(t)
	unregister := RegisterJetStream(f.js, nil)
	defer unregister()
	defer RegisterWorkers([]string{"solana", "base"}, func(chain string) int { return len(chain) % 2 })()
	// An ingress's bound on a chain's jobs.
	SetMaxPending(5000)
	// The file store of a NATS server the process runs.
	SetStoreSource(fixedStore{used: 1 << 20, limit: 1 << 30})
	defer SetStoreSource(nil)
	return familiesOf(t, Registry)
}

// fixedStore is a NATS file store of fixed size and bound.
type fixedStore struct{ used, limit uint64 }

func (s fixedStore) StoreUsage() (uint64, uint64, error) { return s.used, s.limit, nil }

func TestExpositionPassesPromlint(t *testing.T) {
	body := exposition(t)
	// CI keeps the exposition to run promtool check metrics over it too.
	if path := os.Getenv("TRADEAPI_METRICS_EXPOSITION"); path != "" {
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	problems, err := promlint.New(bytes.NewReader(body)).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	// The lint must have seen the families it is meant to judge.
	for _, name := range []string{"tradeapi_transactions_total", "tradeapi_jetstream_consumer_pending_messages",
		"tradeapi_exits_fired_total", "tradeapi_landing_duration_seconds"} {
		if !bytes.Contains(body, []byte("# TYPE "+name+" ")) {
			t.Errorf("exposition lacks %s", name)
		}
	}
}

// TestFamilies pins the names, types and labels of the service's metrics:
// the alert rules and the dashboard depend on them.
func TestFamilies(t *testing.T) {
	want := map[string]struct {
		typ    string
		labels string
	}{
		"tradeapi_http_requests_total":                     {"COUNTER", "code,listener,route"},
		"tradeapi_http_request_duration_seconds":           {"HISTOGRAM", "listener,route"},
		"tradeapi_orders_total":                            {"COUNTER", "chain,outcome,side"},
		"tradeapi_orders_final_total":                      {"COUNTER", "chain,state,venue"},
		"tradeapi_store_failures_total":                    {"COUNTER", "store"},
		"tradeapi_rate_limited_total":                      {"COUNTER", "family,window"},
		"tradeapi_stage_duration_seconds":                  {"HISTOGRAM", "chain,stage"},
		"tradeapi_transactions_total":                      {"COUNTER", "chain,outcome,sender"},
		"tradeapi_landing_duration_seconds":                {"HISTOGRAM", "chain,sender"},
		"tradeapi_rpc_errors_total":                        {"COUNTER", "chain,method"},
		"tradeapi_redeliveries_total":                      {"COUNTER", "consumer"},
		"tradeapi_handler_panics_total":                    {"COUNTER", "consumer"},
		"tradeapi_tracked_signatures":                      {"GAUGE", "chain"},
		"tradeapi_exits_armed":                             {"GAUGE", "chain,type"},
		"tradeapi_exits_fired_total":                       {"COUNTER", "chain,type"},
		"tradeapi_exit_sells_unlanded_total":               {"COUNTER", "chain,outcome,type"},
		"tradeapi_exit_events_dropped_total":               {"COUNTER", "event,side"},
		"tradeapi_positions_open":                          {"GAUGE", "chain"},
		"tradeapi_exits_watched_tokens":                    {"GAUGE", "chain"},
		"tradeapi_exits_engines":                           {"GAUGE", ""},
		"tradeapi_exits_price_reads_total":                 {"COUNTER", "chain,outcome"},
		"tradeapi_exit_trigger_to_publish_seconds":         {"HISTOGRAM", "chain"},
		"tradeapi_blockhash_refresh_failures_total":        {"COUNTER", "chain"},
		"tradeapi_nonce_gaps_total":                        {"COUNTER", "chain,outcome"},
		"tradeapi_exits_deferred_total":                    {"COUNTER", "chain,reason"},
		"tradeapi_exits_held":                              {"GAUGE", "chain"},
		"tradeapi_webhook_deliveries_total":                {"COUNTER", "outcome"},
		"tradeapi_venue_paused":                            {"GAUGE", "chain,venue"},
		"tradeapi_venue_pauses_total":                      {"COUNTER", "chain,venue"},
		"tradeapi_bundles_total":                           {"COUNTER", "outcome,relay"},
		"tradeapi_sender_sends_total":                      {"COUNTER", "chain,outcome,sender"},
		"tradeapi_sender_send_duration_seconds":            {"HISTOGRAM", "chain,sender"},
		"tradeapi_sender_landed_total":                     {"COUNTER", "chain,sender"},
		"tradeapi_webhook_delivery_duration_seconds":       {"HISTOGRAM", ""},
		"tradeapi_webhook_events_queued":                   {"GAUGE", ""},
		"tradeapi_webhook_holds_total":                     {"COUNTER", ""},
		"tradeapi_webhook_failing_accounts":                {"GAUGE", ""},
		"tradeapi_webhook_events_backlogged_total":         {"COUNTER", ""},
		"tradeapi_webhook_backlog_accounts":                {"GAUGE", ""},
		"tradeapi_webhook_deliveries_in_flight":            {"GAUGE", ""},
		"tradeapi_jetstream_up":                            {"GAUGE", "stream"},
		"tradeapi_jetstream_stream_messages":               {"GAUGE", "stream"},
		"tradeapi_jetstream_stream_bytes":                  {"GAUGE", "stream"},
		"tradeapi_jetstream_stream_max_bytes":              {"GAUGE", "stream"},
		"tradeapi_workers":                                 {"GAUGE", "chain"},
		"tradeapi_jetstream_consumer_pending_messages":     {"GAUGE", "consumer,stream"},
		"tradeapi_jetstream_consumer_ack_pending_messages": {"GAUGE", "consumer,stream"},
		"tradeapi_jetstream_consumer_redelivered_messages": {"GAUGE", "consumer,stream"},
		"tradeapi_jetstream_consumer_waiting_requests":     {"GAUGE", "consumer,stream"},
		"tradeapi_jetstream_consumer_max_ack_pending":      {"GAUGE", "consumer,stream"},
		"tradeapi_events_publish_failures_total":           {"COUNTER", "type"},
		"tradeapi_pipeline_max_pending":                    {"GAUGE", ""},
		"tradeapi_messages_dropped_total":                  {"COUNTER", "consumer,reason"},
		"tradeapi_nats_store_bytes":                        {"GAUGE", ""},
		"tradeapi_nats_max_store_bytes":                    {"GAUGE", ""},
	}
	got := allFamilies(t)
	for name, w := range want {
		fi, ok := got[name]
		if !ok {
			t.Errorf("%s: not exposed", name)
			continue
		}
		if fi.typ != w.typ || sortedKeys(fi.labels) != w.labels {
			t.Errorf("%s: %s {%s}, want %s {%s}", name, fi.typ, sortedKeys(fi.labels), w.typ, w.labels)
		}
	}
	for name := range got {
		if _, ok := want[name]; strings.HasPrefix(name, "tradeapi_") && !ok {
			t.Errorf("%s: exposed but not pinned here; add it to this table", name)
		}
	}
}

// TestNoUnboundedLabels refuses label names that would carry an order id, a
// wallet, a key, a URL or another per-request value.
func TestNoUnboundedLabels(t *testing.T) {
	forbidden := []string{"order", "wallet", "key", "url", "address", "signature", "account", "token", "mint", "id", "path"}
	for name, fi := range allFamilies(t) {
		for l := range fi.labels {
			for _, part := range strings.Split(l, "_") {
				if slices.Contains(forbidden, part) {
					t.Errorf("%s has label %q", name, l)
				}
			}
		}
	}
}

// TestREADMENamesTheLabels: where the README names a family with its
// labels (tradeapi_x{a,b}), they are the labels the family has, so that a
// query written from the README selects what it means to.
func TestREADMENamesTheLabels(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := allFamilies(t)
	named := regexp.MustCompile(`(tradeapi_[a-z_]+)\{([a-z_,]+)\}`).FindAllStringSubmatch(string(b), -1)
	checked := 0
	for _, m := range named {
		fi, ok := got[m[1]]
		if !ok {
			continue // a family of another package, or one without series here
		}
		labels := strings.Split(m[2], ",")
		sort.Strings(labels)
		if have := sortedKeys(fi.labels); strings.Join(labels, ",") != have {
			t.Errorf("README names %s{%s}; its labels are {%s}", m[1], m[2], have)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d families checked against the README: is the pattern still how it names them?", checked)
	}
}

// TestHelpNamesEveryValue: a family whose help lists the values of a
// label lists every value the service counts under it, and no other.
func TestHelpNamesEveryValue(t *testing.T) {
	touchAll()
	mfs, err := Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	help := map[string]string{}
	for _, mf := range mfs {
		help[mf.GetName()] = mf.GetHelp()
	}
	for name, values := range map[string][]string{
		"tradeapi_exits_deferred_total": {ExitDeferredBudget, ExitDeferredResumed, ExitDeferredHandover,
			ExitDeferredVenuePaused, ExitDeferredStopped},
		// The outcomes the exits engine counts an exit sell that did not
		// trade under.
		"tradeapi_exit_sells_unlanded_total": {"rearmed", "failed", "cancelled", "worker_unavailable"},
	} {
		h, ok := help[name]
		if !ok {
			t.Errorf("%s: not exposed", name)
			continue
		}
		list := regexp.MustCompile(`\(([a-z_, ]+)\)\.?$`).FindStringSubmatch(h)
		if list == nil {
			t.Errorf("%s: help %q lists no values at its end", name, h)
			continue
		}
		listed := strings.Split(list[1], ", ")
		sort.Strings(listed)
		want := slices.Sorted(slices.Values(values))
		if !slices.Equal(listed, want) {
			t.Errorf("%s: help lists %v, the values counted are %v", name, listed, want)
		}
	}
}

func TestJetStreamCollector(t *testing.T) {
	f := newJetStreamFixture(t)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewJetStreamCollector(f.js, nil))
	for _, tc := range []struct {
		name string
		want map[string]float64
	}{
		{"tradeapi_jetstream_up", map[string]float64{"stream=ORDERS": 1, "stream=TXS": 1, "stream=EVENTS": 1, "stream=WEBHOOK_RETRIES": 1, "stream=WEBHOOK_BACKLOG": 1,
			"stream=KV_idempotency": 1, "stream=KV_orders": 1, "stream=KV_webhook_deliveries": 1, "stream=KV_trades": 1}},
		{"tradeapi_jetstream_stream_messages", map[string]float64{"stream=ORDERS": 3, "stream=TXS": 1, "stream=EVENTS": 2, "stream=WEBHOOK_RETRIES": 0, "stream=WEBHOOK_BACKLOG": 0,
			"stream=KV_idempotency": 0, "stream=KV_orders": 0, "stream=KV_webhook_deliveries": 0, "stream=KV_trades": 0}},
		// The bound of the streams that have one (bus.DefaultMaxBytes here).
		{"tradeapi_jetstream_stream_max_bytes", map[string]float64{"stream=ORDERS": 1 << 30, "stream=TXS": 1 << 30, "stream=EVENTS": 1 << 30,
			"stream=WEBHOOK_RETRIES": 1 << 30, "stream=WEBHOOK_BACKLOG": 1 << 30, "stream=KV_idempotency": 1 << 30}},
		// The ephemeral consumers on ORDERS and EVENTS are not reported,
		// and the exits engines' consumer, not declared, is left out.
		{"tradeapi_jetstream_consumer_pending_messages", map[string]float64{
			"consumer=worker-solana,stream=ORDERS": 2, "consumer=broadcaster,stream=TXS": 1, "consumer=webhooks,stream=EVENTS": 1}},
		// The webhook event nacked for a retry an hour away counts as
		// ack pending until then.
		{"tradeapi_jetstream_consumer_ack_pending_messages", map[string]float64{
			"consumer=worker-solana,stream=ORDERS": 1, "consumer=broadcaster,stream=TXS": 0, "consumer=webhooks,stream=EVENTS": 1}},
		{"tradeapi_jetstream_consumer_redelivered_messages", map[string]float64{
			"consumer=worker-solana,stream=ORDERS": 0, "consumer=broadcaster,stream=TXS": 0, "consumer=webhooks,stream=EVENTS": 0}},
		{"tradeapi_jetstream_consumer_waiting_requests", map[string]float64{
			"consumer=worker-solana,stream=ORDERS": 0, "consumer=broadcaster,stream=TXS": 0, "consumer=webhooks,stream=EVENTS": 0}},
		// The server's default bound of 1000 for the consumers that set
		// none.
		{"tradeapi_jetstream_consumer_max_ack_pending", map[string]float64{
			"consumer=worker-solana,stream=ORDERS": 1000, "consumer=broadcaster,stream=TXS": 1000, "consumer=webhooks,stream=EVENTS": 10000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The server settles a finished pull request a moment after
			// the fetch returns: poll with a deadline.
			var got map[string]float64
			if !poll.True(5*time.Second, func() bool {
				got = series(t, reg, tc.name)
				return maps.Equal(got, tc.want)
			}) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	if got := series(t, reg, "tradeapi_jetstream_stream_bytes"); got["stream=ORDERS"] <= 0 {
		t.Fatalf("stream bytes %v, want ORDERS above 0", got)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := promlint.NewWithMetricFamilies(mfs).Lint()
	if err != nil || len(problems) > 0 {
		t.Fatalf("promlint: %v %v", problems, err)
	}
}

// TestJetStreamCollectorServerGone reports up 0 and no backlog series when
// the server does not answer within the timeout, instead of stalling or
// showing stale numbers.
func TestJetStreamCollectorServerGone(t *testing.T) {
	f := newJetStreamFixture(t)
	c := NewJetStreamCollector(f.js, nil)
	c.timeout = 200 * time.Millisecond
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	f.srv.Shutdown()
	want := map[string]float64{}
	for _, s := range reportedStreams {
		want["stream="+s.name] = 0
	}
	if got := series(t, reg, "tradeapi_jetstream_up"); !maps.Equal(got, want) {
		t.Fatalf("up %v, want %v", got, want)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(mfs) != 1 {
		t.Fatalf("%d families with the server gone, want only tradeapi_jetstream_up", len(mfs))
	}
}

func TestRegisterJetStreamOnce(t *testing.T) {
	f := newJetStreamFixture(t)
	count := func() int { return len(series(t, Registry, "tradeapi_jetstream_up")) }
	first := RegisterJetStream(f.js, nil)
	second := RegisterJetStream(f.js, nil)
	if n := count(); n != len(reportedStreams) {
		t.Fatalf("%d tradeapi_jetstream_up series with two registrations, want %d (one collector)", n, len(reportedStreams))
	}
	second() // a no-op: the first collector stays
	if n := count(); n != len(reportedStreams) {
		t.Fatalf("%d series after the second unregister, want %d", n, len(reportedStreams))
	}
	first()
	if n := count(); n != 0 {
		t.Fatalf("%d series after the first unregister, want 0", n)
	}
}

// series gathers g and returns the values of one family's series, keyed by
// their labels as name=value pairs in name order.
func series(t *testing.T, g prometheus.Gatherer, name string) map[string]float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var pairs []string
			for _, lp := range m.GetLabel() {
				pairs = append(pairs, lp.GetName()+"="+lp.GetValue())
			}
			sort.Strings(pairs)
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue()
			out[strings.Join(pairs, ",")] = v
		}
	}
	return out
}

func sortedKeys(m map[string]bool) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// TestStageBucketsSpanTheStages: the fastest stages (a budget charge, a
// record in a KV bucket) and the slowest (a confirmation on a 12 s block
// chain, a job near its 30 s maximum age) each fall in a bucket of their
// own rather than in the first or past the last.
func TestStageBucketsSpanTheStages(t *testing.T) {
	for _, tc := range []struct {
		seconds, low, high float64
	}{{.00003, .000025, .00005}, {.00008, .00005, .0001}, {15, 10, 20}, {35, 20, 40}, {70, 40, 80}} {
		i := slices.IndexFunc(latencyBuckets, func(b float64) bool { return tc.seconds <= b })
		if i <= 0 || latencyBuckets[i-1] != tc.low || latencyBuckets[i] != tc.high {
			t.Errorf("%v s falls in bucket %d of %v, want (%v, %v]", tc.seconds, i, latencyBuckets, tc.low, tc.high)
		}
	}
}

// TestQuantileThresholdsAreBucketBounds: a threshold an alert rule puts on
// a histogram_quantile must be a bucket bound of that histogram. Between
// two bounds the quantile is an interpolation that assumes the
// observations spread evenly, so a threshold there fires on a guess: with
// bounds 1 and 2.5, a p99 "over 2 s" is any p99 past about 1.5 s.
func TestQuantileThresholdsAreBucketBounds(t *testing.T) {
	touchAll()
	mfs, err := Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	bounds := map[string][]float64{}
	for _, mf := range mfs {
		if mf.GetType().String() != "HISTOGRAM" || len(mf.GetMetric()) == 0 {
			continue
		}
		for _, b := range mf.GetMetric()[0].GetHistogram().GetBucket() {
			bounds[mf.GetName()] = append(bounds[mf.GetName()], b.GetUpperBound())
		}
	}
	metric := regexp.MustCompile(`(tradeapi_\w+)_bucket\b`)
	threshold := regexp.MustCompile(`^\s*(?:>=|<=|>|<|==)\s*(?:bool\s+)?([0-9.]+)`)
	checked := 0
	for _, r := range alertRules(t) {
		for _, q := range quantileCalls(r.Expr) {
			m := metric.FindStringSubmatch(r.Expr[q.start:q.end])
			th := threshold.FindStringSubmatch(r.Expr[q.end:])
			if m == nil || th == nil {
				continue
			}
			v, err := strconv.ParseFloat(th[1], 64)
			if err != nil {
				t.Errorf("%s: threshold %q: %v", r.Alert+r.Record, th[1], err)
				continue
			}
			bs, ok := bounds[m[1]]
			if !ok {
				t.Errorf("%s: %s is not a histogram of the service", r.Alert+r.Record, m[1])
				continue
			}
			checked++
			if !slices.Contains(bs, v) {
				t.Errorf("%s: the threshold %v on the quantile of %s is not one of its bucket bounds %v", r.Alert+r.Record, v, m[1], bs)
			}
		}
	}
	// The swap, free routes and exit sells alerts at least.
	if checked < 3 {
		t.Fatalf("%d quantile thresholds checked, want at least 3", checked)
	}
}

// quantileCall is the span of one histogram_quantile(...) call in an
// expression, from its name to its closing parenthesis included.
type quantileCall struct{ start, end int }

// quantileCalls finds the histogram_quantile calls of expr.
func quantileCalls(expr string) []quantileCall {
	const name = "histogram_quantile("
	var out []quantileCall
	for i := 0; ; {
		j := strings.Index(expr[i:], name)
		if j < 0 {
			return out
		}
		start := i + j
		depth, end := 0, -1
		for k := start + len(name) - 1; k < len(expr); k++ {
			switch expr[k] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				end = k + 1
				break
			}
		}
		if end < 0 {
			return out
		}
		out = append(out, quantileCall{start, end})
		i = end
	}
}

// TestConsumerSeriesFromZero: every durable consumer's panic and drop
// series exist at 0 from the start, the broadcaster's notices of given-up
// batches among them: a series born at 1 has increase() read 0 for its
// first event, and the critical alerts on it (TradeapiHandlerPanics,
// TradeapiMessagesDropped) would miss it.
func TestConsumerSeriesFromZero(t *testing.T) {
	mfs, err := Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]map[string]bool{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "consumer" {
					if have[mf.GetName()] == nil {
						have[mf.GetName()] = map[string]bool{}
					}
					have[mf.GetName()][l.GetValue()] = true
				}
			}
		}
	}
	for _, c := range []string{bus.GivenUpConsumer, bus.BroadcasterConsumer, bus.ExitsConsumer, bus.WorkerConsumer("base")} {
		for _, family := range []string{"tradeapi_handler_panics_total", "tradeapi_messages_dropped_total"} {
			if !have[family][c] {
				t.Errorf("%s{consumer=%q} is not there from the start", family, c)
			}
		}
	}
}
