package ingress

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// switchChains has a worker for every chain while on.
type switchChains struct{ on atomic.Bool }

func (s *switchChains) Available(string) bool { return s.on.Load() }

// records counts the messages of the idempotency bucket: kept answers,
// claims in flight and any marker of a withdrawn claim left alike.
func records(t *testing.T, h *harness) uint64 {
	t.Helper()
	st, err := h.bus.Buckets.Idempotency.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Values()
}

// skipBody is a buy that skip_if_bought answers from the trade history,
// charged and without a worker.
var skipBody = swapWith(solMint, `"skip_if_bought":true`)

// boughtBefore records a buy of solMint for acct1 on Solana.
func boughtBefore(t *testing.T, h *harness) {
	t.Helper()
	if _, err := h.trades.Put(context.Background(), wire.TradeKey("acct1", wire.FamilySol, "", solMint), []byte("x")); err != nil {
		t.Fatal(err)
	}
}

// TestIdempotencyFreeAnswersLeaveNothing: a request answered without a
// charge (400, 401, 403, 413, 415, 503) writes nothing for its key, not
// even a marker, and the same key with a corrected request then runs as a
// first request.
func TestIdempotencyFreeAnswersLeaveNothing(t *testing.T) {
	t.Parallel()
	chains := &switchChains{}
	h := newHarness(t, budget.DefaultLimits, chains)
	boughtBefore(t, h)
	tests := []struct {
		name, key, ct, body string
		chainsOn            bool
		status              int
	}{
		{"400 bad amount", solKey, "application/json", swapWith(solMint, `"amount":"x","skip_if_bought":true`), true, 400},
		{"400 above the fee cap", solKey, "application/json", swapWith(solMint, `"priority_fee":5,"skip_if_bought":true`), true, 400},
		{"403 not the account's wallet", solKey, "application/json", swapWith(solMint, `"wallets":[{"address":"`+testBuyer+`"}],"skip_if_bought":true`), true, 403},
		{"401 another family's key", evmKey, "application/json", skipBody, true, 401},
		{"413 too large", solKey, "application/json", `{"x":"` + strings.Repeat("a", 70<<10) + `"}`, true, 413},
		{"415 not JSON", solKey, "text/plain", skipBody, true, 415},
		{"503 no worker", solKey, "application/json", skipBody, false, 503},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := fmt.Sprintf("free-%d", i)
			chains.on.Store(tt.chainsOn)
			before := records(t, h)
			a := call(t, "POST", h.eu.URL+"/api/v1/swap", tt.key, tt.ct, tt.body, "Idempotency-Key", key)
			if a.status != tt.status {
				t.Fatalf("first: %d %s, want %d", a.status, a.raw, tt.status)
			}
			if n := records(t, h); n != before {
				t.Fatalf("a %d answer left %d records behind", tt.status, n-before)
			}
			chains.on.Store(true)
			b := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", key)
			if b.status != 200 || b.header.Get("Idempotent-Replayed") != "" || b.body["data"].(map[string]any)["skipped"] != true {
				t.Fatalf("corrected: %d replayed=%q %s", b.status, b.header.Get("Idempotent-Replayed"), b.raw)
			}
		})
	}
}

// TestIdempotency429LeavesNothing: a spent budget is refused before the
// key is claimed, so a bot that keeps sending fresh keys to a spent budget
// fills nothing.
func TestIdempotency429LeavesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.Limits{Minute: 0, Hour: 10, Week: 10}, allChains{})
	for i := range 3 {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", fmt.Sprintf("spent-%d", i))
		if a.status != 429 || a.code() != "RATE_LIMITED" || a.details() != "minute" || a.header.Get("Retry-After") == "" {
			t.Fatalf("%d %s", a.status, a.raw)
		}
	}
	if n := records(t, h); n != 0 {
		t.Fatalf("three 429s left %d records", n)
	}
}

// TestIdempotencyChargedAnswersKept: every answer given after the charge is
// kept and replayed without a second charge: a skipped buy, a refusal from
// the worker (404 TOKEN_NOT_FOUND) and a timeout (504 naming the order).
func TestIdempotencyChargedAnswersKept(t *testing.T) {
	// Long enough for the worker's refusal to come back on a loaded
	// machine under the race detector (seen at 314 ms end to end).
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(2*time.Second))
	boughtBefore(t, h)
	startWorker(t, h, wire.ChainSolana, func(id string, _ []byte) *wire.Reply {
		b := apierr.Newf(apierr.TokenNotFound, solMint, "no curve or pool").Body()
		return &wire.Reply{OrderID: id, Error: &b}
	})
	tests := []struct {
		name, url, key, body string
		status               int
	}{
		{"skipped buy", h.eu.URL, solKey, skipBody, 200},
		{"refused by the worker", h.eu.URL, solKey, swapWith(solMint, `"priority_fee":0.0001`), 404},
		{"no answer in time", h.evm.URL, evmKey, swapWith(evmTok, `"priority_fee":1`), 504},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := fmt.Sprintf("kept-%d", i)
			first := call(t, "POST", tt.url+"/api/v1/swap", tt.key, "application/json", tt.body, "Idempotency-Key", key)
			if first.status != tt.status || first.orderID() == "" && tt.status != 404 {
				t.Fatalf("first: %d %s", first.status, first.raw)
			}
			left := first.header.Get("X-RateLimit-Remaining-Week")
			listener := "sol_eu"
			if tt.url == h.evm.URL {
				listener = "evm"
			}
			code := strconv.Itoa(tt.status)
			answered := counterOf(t, metrics.HTTPRequests.WithLabelValues(listener, "/api/v1/swap", code))
			replayed := counterOf(t, metrics.HTTPReplays.WithLabelValues(listener, "/api/v1/swap", code))
			again := call(t, "POST", tt.url+"/api/v1/swap", tt.key, "application/json", tt.body, "Idempotency-Key", key)
			// A replay is counted apart: a client repeating a failed
			// order's key is not a new server error.
			if d := counterOf(t, metrics.HTTPRequests.WithLabelValues(listener, "/api/v1/swap", code)) - answered; d != 0 {
				t.Fatalf("the replay counted as %v new answers of %s", d, code)
			}
			if d := counterOf(t, metrics.HTTPReplays.WithLabelValues(listener, "/api/v1/swap", code)) - replayed; d != 1 {
				t.Fatalf("the replay counted %v times as replayed", d)
			}
			if again.status != first.status || again.raw != first.raw || again.header.Get("Idempotent-Replayed") != "true" ||
				again.header.Get("X-Order-Id") != first.header.Get("X-Order-Id") {
				t.Fatalf("repeat: %d %s %v, first %s", again.status, again.raw, again.header, first.raw)
			}
			if again.header.Get("X-RateLimit-Remaining-Week") != left {
				t.Fatalf("the repeat was charged: %s left, %s before", again.header.Get("X-RateLimit-Remaining-Week"), left)
			}
		})
	}
}

// TestIdempotencyGauges: the bucket's size is on the metrics registry
// while the server runs, in records and bytes.
func TestIdempotencyGauges(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	boughtBefore(t, h)
	for i := range 3 {
		if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", fmt.Sprint("g", i)); a.status != 200 {
			t.Fatalf("%d %s", a.status, a.raw)
		}
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(idemCollector{kv: h.bus.Buckets.Idempotency})
	if keys, bytes := gauges(t, reg); keys != 3 || bytes <= 0 {
		t.Fatalf("keys %v bytes %v, want 3 and some", keys, bytes)
	}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := promlint.NewWithMetricFamilies(fams).Lint()
	if err != nil || len(problems) > 0 {
		t.Fatalf("promlint: %v %v", problems, err)
	}

	unregister := registerIdempotencyGauges(h.bus.Buckets.Idempotency)
	if keys, _ := gauges(t, metrics.Registry); keys != 3 {
		t.Fatalf("the service registry shows %v keys", keys)
	}
	unregister()
	if keys, _ := gauges(t, metrics.Registry); keys != -1 {
		t.Fatalf("still registered after unregister: %v", keys)
	}
}

// gauges reads tradeapi_idempotency_keys and _bytes from a registry; -1
// when absent.
func gauges(t *testing.T, g prometheus.Gatherer) (keys, bytes float64) {
	t.Helper()
	fams, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	keys, bytes = -1, -1
	for _, f := range fams {
		switch f.GetName() {
		case "tradeapi_idempotency_keys":
			keys = f.GetMetric()[0].GetGauge().GetValue()
		case "tradeapi_idempotency_bytes":
			bytes = f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return keys, bytes
}

// staleClaim writes the claim a first request on another ingress left when
// that ingress died: in flight, holding orderID, started age ago.
func staleClaim(t *testing.T, h *harness, key, body, orderID string, age time.Duration) {
	t.Helper()
	rec := idemRecord{Fingerprint: fingerprint("/api/v1/swap", []byte(body)), Started: time.Now().Add(-age).UTC(), OrderID: orderID}
	b, _ := json.Marshal(rec)
	if _, err := h.bus.Buckets.Idempotency.Create(context.Background(), idemKVKey("acct1", wire.FamilySol, key), b); err != nil {
		t.Fatal(err)
	}
}

// TestIdempotencyStaleClaim: a key whose first request died in flight is
// answered, once the request timeout plus 5 s has passed, from the order
// that request made, as the order lookup shows it; with no order, the
// repeat runs as a first request under the order id the first one chose.
func TestIdempotencyStaleClaim(t *testing.T) {
	const timeout = 300 * time.Millisecond
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(timeout))
	boughtBefore(t, h)
	stale := timeout + idemStaleGrace + time.Millisecond
	notFound := apierr.Newf(apierr.TokenNotFound, solMint, "no curve or pool").Body()
	tests := []struct {
		name  string
		order func(o *wire.Order) // nil: the first request made no order
		age   time.Duration
		// want
		status  int
		code    string
		details any
		data    string
	}{
		{"refused order", func(o *wire.Order) { o.State, o.Error = wire.StateFailed, &notFound }, stale,
			404, "TOKEN_NOT_FOUND", solMint, ""},
		{"broadcast order", func(o *wire.Order) {
			o.State, o.Signatures = wire.StateBroadcast, []wire.SigState{{Signature: "sig1", Wallet: solW1, State: wire.StateBroadcast}}
		}, stale, 200, "", nil, `{"order_id":"%s","signatures":["sig1"],"skipped":false}`},
		// As the first answer had it: the refused leg left out, the one
		// that landed and failed, and the one that may have been sent, in.
		{"many-wallet order", func(o *wire.Order) {
			o.State, o.Signatures = wire.StateFailed, []wire.SigState{{Signature: "sig1", Wallet: solW1, State: wire.StateFailed, Slot: 7},
				{Signature: "sig2", Wallet: solW1, State: wire.StateFailed}, {Signature: "sig3", Wallet: solW1, State: wire.StatePending}}
		}, stale, 200, "", nil, `{"order_id":"%s","signatures":["sig1","sig3"],"skipped":false}`},
		{"pending order", func(o *wire.Order) {}, stale, 504, "UPSTREAM_TIMEOUT", `{"order_id":"%s"}`, ""},
		{"no order", nil, stale, 200, "", nil, `{"order_id":"%s","signatures":[],"skipped":true}`},
		{"no order yet stale soon", nil, stale - 250*time.Millisecond, 200, "", nil, `{"order_id":"%s","signatures":[],"skipped":true}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, orderID := fmt.Sprint("stale-", i), fmt.Sprint("eu-dead", i)
			if tt.order != nil {
				j := &wire.SwapJob{OrderID: orderID, AccountID: "acct1", Family: wire.FamilySol, Chain: wire.ChainSolana,
					Token: solMint, Side: wire.Buy, CreatedAt: time.Now().UTC()}
				o := orderOf(j)
				tt.order(o)
				if err := h.servers[0].orders.Create(context.Background(), o); err != nil {
					t.Fatal(err)
				}
			}
			staleClaim(t, h, key, skipBody, orderID, tt.age)
			a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", key)
			if a.status != tt.status || a.code() != tt.code || a.header.Get("X-Order-Id") != orderID {
				t.Fatalf("got %d %s order %q: %s", a.status, a.code(), a.header.Get("X-Order-Id"), a.raw)
			}
			if d, ok := tt.details.(string); ok && a.details() != strings.ReplaceAll(d, "%s", orderID) {
				t.Fatalf("details %v", a.details())
			}
			if tt.data != "" {
				if data, _ := json.Marshal(a.body["data"]); string(data) != fmt.Sprintf(tt.data, orderID) {
					t.Fatalf("data %s", data)
				}
			}
			// Whatever answered, the key now answers the same way.
			if b := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", key); b.raw != a.raw {
				t.Fatalf("second repeat %s, first %s", b.raw, a.raw)
			}
		})
	}
}

// gateBudget is a rate budget whose charges wait at a gate the test opens.
// Like the real budget, a charge is written once it passes the gate,
// whatever its caller's context says meanwhile. With honourCtx the caller
// is told it passed only if its context still listens, as the real budget
// does; without, it is told so anyway, as a process that stalled mid-charge
// (paused, starved) would find on waking.
type gateBudget struct {
	honourCtx bool
	entered   chan struct{}
	release   chan struct{}
	once      sync.Once
	charged   atomic.Int64
}

func newGateBudget(t *testing.T, honourCtx bool) *gateBudget {
	g := &gateBudget{honourCtx: honourCtx, entered: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gateBudget) open() { g.once.Do(func() { close(g.release) }) }

// waitEntered waits until a charge reached the gate.
func (g *gateBudget) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no charge reached the gate")
	}
}

func (g *gateBudget) Charge(ctx context.Context, _ string, _ wire.Family, lim budget.Limits) (budget.State, error) {
	g.entered <- struct{}{}
	<-g.release
	g.charged.Add(1)
	if err := ctx.Err(); err != nil && g.honourCtx {
		return budget.State{}, fmt.Errorf("budget: charge: %w", err)
	}
	return budget.StateFor(lim, time.Now()), nil
}

func (g *gateBudget) Peek(_ string, _ wire.Family, lim budget.Limits) budget.State {
	return budget.StateFor(lim, time.Now())
}

func (g *gateBudget) Refund(_ context.Context, _ string, _ wire.Family, lim budget.Limits, _ budget.State) (budget.State, error) {
	return budget.StateFor(lim, time.Now()), nil
}

// TestIdempotencyDeadIngress: the EU ingress claims a key and never
// finishes (its charge hangs, as in a process that died); a repeat on the
// US ingress waits until the request timeout plus 5 s, then runs in its
// place under the same order id. When the EU request wakes after all, past
// its deadline, it publishes nothing and leaves the order as the repeat
// made it: the order runs once.
func TestIdempotencyDeadIngress(t *testing.T) {
	t.Parallel()
	const timeout = 2 * time.Second // the repeat's worker round trip fits
	gate := newGateBudget(t, false)
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(timeout), withBudget(gate))
	w := startWorker(t, h, wire.ChainSolana, signed)
	body := swapWith(solMint, `"priority_fee":0.0001`)
	first := make(chan answer, 1)
	go func() {
		a, err := do("POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "dead")
		if err != nil {
			t.Error(err)
		}
		first <- a
	}()
	gate.waitEntered(t)
	e, err := h.bus.Buckets.Idempotency.Get(context.Background(), idemKVKey("acct1", wire.FamilySol, "dead"))
	if err != nil {
		t.Fatal(err)
	}
	var claimed idemRecord
	if err := json.Unmarshal(e.Value(), &claimed); err != nil || claimed.OrderID == "" || claimed.Done {
		t.Fatalf("the first request's claim %s (%v)", e.Value(), err)
	}

	a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "dead")
	if a.status != 200 || a.orderID() != claimed.OrderID || a.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("repeat: %d %s, want 200 for %s", a.status, a.raw, claimed.OrderID)
	}
	if waited := time.Since(claimed.Started); waited < timeout+idemStaleGrace {
		t.Fatalf("taken over after %v, before the request timeout plus %v", waited, idemStaleGrace)
	}

	gate.open()
	late := <-first
	if late.status != 504 || late.orderID() != claimed.OrderID {
		t.Fatalf("the late first request: %d %s", late.status, late.raw)
	}
	if n := w.deliveries(claimed.OrderID); n != 1 {
		t.Fatalf("order %s reached the worker %d times", claimed.OrderID, n)
	}
	if o, err := h.servers[0].orders.Get(context.Background(), claimed.OrderID); err != nil || o.State != wire.StatePending || o.Error != nil {
		t.Fatalf("the late request changed the order: %+v %v", o, err)
	}
	// The key keeps the answer of the request that finished as its owner.
	if b := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "dead"); b.raw != a.raw || b.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("third: %d %s, want the repeat's %s", b.status, b.raw, a.raw)
	}
}

// TestClaimFencesATakenOverRequest: once another request took the key
// over, the first one's writes (its answer, or withdrawing its claim) fail
// and leave the new owner's record as it is.
func TestClaimFencesATakenOverRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	kv := h.bus.Buckets.Idempotency
	key := idemKVKey("acct1", wire.FamilySol, "fence")
	old := idemRecord{Fingerprint: "fp", Started: time.Now().UTC(), OrderID: "eu-1"}
	b, _ := json.Marshal(old)
	rev, err := kv.Create(context.Background(), key, b)
	if err != nil {
		t.Fatal(err)
	}
	taken := old
	taken.Started = time.Now().UTC()
	b, _ = json.Marshal(taken)
	if _, err := kv.Update(context.Background(), key, b, rev); err != nil {
		t.Fatal(err)
	}
	_, err = kv.Update(context.Background(), key, []byte(`{"done":true}`), rev)
	if !bus.Conflict(err) {
		t.Fatalf("the first request's answer over a taken key: %v", err)
	}
	if err := kv.Delete(context.Background(), key, jetstream.LastRevision(rev)); !bus.Conflict(err) {
		t.Fatalf("the first request's withdrawal of a taken key: %v", err)
	}
	if _, err := kv.Get(context.Background(), key); errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatal("the new owner's record is gone")
	}
}

// TestIdempotencyKeyAcrossRoutes: a key is the account's and family's
// whatever the route, so a launch under a key a swap used is a request
// with another body: 409, nothing launched.
func TestIdempotencyKeyAcrossRoutes(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	boughtBefore(t, h)
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "both"); a.status != 200 {
		t.Fatalf("swap: %d %s", a.status, a.raw)
	}
	a := call(t, "POST", h.us.URL+"/api/v1/deploy", solKey, "application/json", string(deployBody(t, nil)), "Idempotency-Key", "both")
	if a.status != 409 || a.code() != string(apierr.IdempotencyConflict) {
		t.Fatalf("deploy under the swap's key: %d %s", a.status, a.raw)
	}
}

// TestIdempotencyEarlierVersionsRecord: a key an earlier version kept per
// route (its records live 24 hours) still answers its repeats after an
// upgrade, from that record, and still refuses another body.
func TestIdempotencyEarlierVersionsRecord(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	answer := `{"success":true,"data":{"order_id":"eu-old","signatures":["s1"],"skipped":false}}`
	rec := idemRecord{Fingerprint: legacyFingerprint([]byte(skipBody)), Started: time.Now().UTC(), OrderID: "eu-old",
		Done: true, Status: 200, Body: json.RawMessage(answer)}
	b, _ := json.Marshal(rec)
	if _, err := h.bus.Buckets.Idempotency.Create(context.Background(), legacyIdemKVKey("acct1", wire.FamilySol, "/api/v1/swap", "old"), b); err != nil {
		t.Fatal(err)
	}
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "old")
	if a.status != 200 || a.header.Get("Idempotent-Replayed") != "true" || !strings.Contains(a.raw, "eu-old") {
		t.Fatalf("repeat: %d %s", a.status, a.raw)
	}
	a = call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"slippage":5`), "Idempotency-Key", "old")
	if a.status != 409 {
		t.Fatalf("another body: %d %s", a.status, a.raw)
	}
}

func counterOf(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// TestCanonicalNumber: every spelling of one number is one decimal, and a
// record an earlier version made (its numbers as spelled) still matches.
func TestCanonicalNumber(t *testing.T) {
	t.Parallel()
	for lit, want := range map[string]string{
		"10": "10", "10.0": "10", "1e1": "10", "1.0E+1": "10", "0.000010": "0.00001", "1e-05": "0.00001",
		"-0": "0", "-0.50": "-0.5", "123.456e2": "12345.6", "1e-20": "0." + strings.Repeat("0", 19) + "1",
		// Beyond what money's parser takes: kept as spelled.
		"5e-324": "5e-324", "1e400": "1e400",
	} {
		if got := canonicalNumber(lit); got != want {
			t.Errorf("%s: %s, want %s", lit, got, want)
		}
	}
	body := []byte(`{"b":[1.50,{"c":2e0}],"a":"x"}`)
	if fingerprint("/r", body) != fingerprint("/r", []byte(`{"a":"x","b":[1.5,{"c":2}]}`)) {
		t.Error("one body spelled two ways has two fingerprints")
	}
	if spelledFingerprint("/r", body) == spelledFingerprint("/r", []byte(`{"a":"x","b":[1.5,{"c":2}]}`)) {
		t.Error("the earlier fingerprint should keep the spelling")
	}
}

// troubledIdem is an idempotency bucket whose first read of one key fails
// (a store that did not answer in time, then did) and whose creates fail a
// number of times as a create losing the race over a delete marker does.
type troubledIdem struct {
	jetstream.KeyValue
	failGet     string
	getFailed   atomic.Bool
	createFails atomic.Int64
}

func (k *troubledIdem) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	if key == k.failGet && !k.getFailed.Swap(true) {
		return nil, context.DeadlineExceeded
	}
	return k.KeyValue.Get(ctx, key)
}

func (k *troubledIdem) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	if k.createFails.Add(-1) >= 0 {
		return 0, &jetstream.APIError{Code: 400, ErrorCode: jetstream.JSErrCodeStreamWrongLastSequence, Description: "wrong last sequence: 30"}
	}
	return k.KeyValue.Create(ctx, key, value, opts...)
}

// TestIdempotencyLegacyReadFails: a key whose earlier-version record cannot
// be read is answered as the store's trouble, free, and claims nothing:
// taken for held, the request ran under that record's key once the store
// answered again, while a repeat whose read came through claimed the
// usual one, and both traded.
func TestIdempotencyLegacyReadFails(t *testing.T) {
	t.Parallel()
	troubled := &troubledIdem{failGet: legacyIdemKVKey("acct1", wire.FamilySol, "/api/v1/swap", "stall")}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		troubled.KeyValue = kv
		return troubled
	}))
	boughtBefore(t, h)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "stall")
	if a.status != 503 || a.code() != string(apierr.Overloaded) {
		t.Fatalf("a key whose earlier record cannot be read: %d %s", a.status, a.raw)
	}
	if n := records(t, h); n != 0 {
		t.Fatalf("%d idempotency records after a free refusal", n)
	}
	first := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "stall")
	if first.status != 200 || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the key once the store answers: %d %s", first.status, first.raw)
	}
	again := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "stall")
	if again.status != 200 || again.header.Get("Idempotent-Replayed") != "true" || again.raw != first.raw {
		t.Fatalf("a repeat: %d %s, want the first answer replayed: %s", again.status, again.raw, first.raw)
	}
}

// TestIdempotencyClaimOverADeleteMarker: creates that lose the race over a
// withdrawn claim's delete marker (the store's wrong-last-sequence), more
// than a few times in a row under many requests with one key, are other
// requests' claims, not the store's trouble: the request reads the key
// again each time, and runs.
func TestIdempotencyClaimOverADeleteMarker(t *testing.T) {
	troubled := &troubledIdem{}
	troubled.createFails.Store(5)
	h := newHarness(t, budget.DefaultLimits, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		troubled.KeyValue = kv
		return troubled
	}))
	boughtBefore(t, h)
	before := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency))
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "marker"); a.status != 200 {
		t.Fatalf("a claim that lost a race over a delete marker: %d %s", a.status, a.raw)
	}
	if d := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency)) - before; d != 0 {
		t.Fatalf("%v store failures counted for a lost race", d)
	}
}

// BenchmarkFingerprintManyNumbers: a body is fingerprinted before it is
// checked, so its cost is what any keyed request costs, refused or not: a
// 64 KiB body of numbers with exponents must cost what its bytes do.
func BenchmarkFingerprintManyNumbers(b *testing.B) {
	body := []byte(`{"amount":"-1","x":[1e-64` + strings.Repeat(",1e-64", 10_000) + `]}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		fingerprint("/api/v1/swap", body)
	}
}

// TestTakeoverOfAPartlyLandedLaunch: a repeat that takes over the key of a
// launch whose first request died is answered 200 with what landed when
// its coin is on chain, also from a record an earlier version wrote with
// a BROADCAST_FAILED error for its later bundle: 502 would tell the bot
// that nothing landed, and invite a second launch.
func TestTakeoverOfAPartlyLandedLaunch(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(rec)
	failure := apierr.New(apierr.BroadcastFailed, "bundle 2 did not land, nor any after it").Body()
	answerFromOrder(c, &wire.Order{OrderID: "eu-launch", Kind: wire.KindDeploy, State: wire.StateConfirmed, Error: &failure,
		Deploy: &wire.DeployResult{MintAddresses: []string{"Mint1"}, LandedTxs: []wire.LandedTx{{Kind: "create", Mint: "Mint1", Signature: "sig1"}}}})
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"mint_addresses":["Mint1"]`) {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

// leavingIdem is an idempotency bucket whose claims are written whatever
// their caller's context, after which the client hangs up (leave): a
// create whose caller had stopped listening, but which the store took.
type leavingIdem struct {
	jetstream.KeyValue
	leave func()
}

func (k *leavingIdem) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	rev, err := k.KeyValue.Create(context.WithoutCancel(ctx), key, value, opts...)
	if k.leave != nil {
		k.leave()
	}
	if err == nil && ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return rev, err
}

// TestIdempotencyClientLeavesDuringItsClaim: a client that hangs up while
// its key's claim is being written is not charged, and its claim, which the
// store took, is withdrawn: the same key with a corrected body runs at
// once as a first request. A claim written but not known was left behind:
// a repeat waited for it to go stale (the request timeout and 5 s), a
// corrected body was refused as a conflict for a day, and the store was
// counted failing.
func TestIdempotencyClientLeavesDuringItsClaim(t *testing.T) {
	leaving := &leavingIdem{}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		leaving.KeyValue = kv
		return leaving
	}))
	boughtBefore(t, h)
	failures := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency))

	ctx, cancel := context.WithCancel(context.Background())
	leaving.leave = cancel
	rec := serveSwap(ctx, h, skipBody, IdempotencyHeader, "left")
	leaving.leave = nil
	if rec.Code != envelope.StatusClientClosed {
		t.Fatalf("a request whose client left during its claim: %d %s", rec.Code, rec.Body.String())
	}

	corrected := swapWith(solMint, `"skip_if_bought":true,"slippage":7`)
	runsFirstWithin(t, h, corrected, "left", 2*time.Second, "the key with a corrected body", "it waited for a claim left behind")
	if d := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency)) - failures; d != 0 {
		t.Fatalf("%v idempotency store failures counted for a client that left", d)
	}
}

// leavingUpdate is an idempotency bucket whose next update (a takeover) is
// written, after which the client hangs up (leave).
type leavingUpdate struct {
	jetstream.KeyValue
	leave func()
}

func (k *leavingUpdate) Update(ctx context.Context, key string, value []byte, last uint64) (uint64, error) {
	rev, err := k.KeyValue.Update(context.WithoutCancel(ctx), key, value, last)
	if k.leave != nil {
		k.leave()
		k.leave = nil
	}
	if err == nil && ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return rev, err
}

// TestTakeoverEndedUnchargedKeepsTheKey: a first request claimed its key,
// published its job and died before anything else (no order record, no
// worker yet). A repeat takes the key over under the same order id and
// then ends uncharged (its client leaves): the key stays with that id, so
// the next repeat runs under it too and the stream keeps one job. The
// claim was withdrawn, and the next repeat ran under a new id: one key,
// two orders traded.
func TestTakeoverEndedUnchargedKeepsTheKey(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	lu := &leavingUpdate{}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(timeout), withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		lu.KeyValue = kv
		return lu
	}))
	body := swapWith(solMint, `"priority_fee":0.0001`)
	const dead = "eu-deadjob"
	job := wire.SwapJob{OrderID: dead, AccountID: "acct1", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: solMint,
		Side: wire.Buy, CreatedAt: time.Now().UTC(), Legs: []wire.Leg{{Wallet: solW1, Amount: "1"}}}
	data, _ := json.Marshal(job)
	msg := &nats.Msg{Subject: bus.OrdersSubject(wire.ChainSolana), Data: data, Header: nats.Header{}}
	msg.Header.Set(bus.HeaderOrder, dead)
	msg.Header.Set(bus.HeaderReply, "_INBOX.dead")
	if _, err := h.bus.JS.PublishMsg(context.Background(), msg, jetstream.WithMsgID(dead)); err != nil {
		t.Fatal(err)
	}
	staleClaim(t, h, "taken", body, dead, timeout+idemStaleGrace+time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	lu.leave = cancel
	rec := serveSwap(ctx, h, body, IdempotencyHeader, "taken")
	if rec.Code != envelope.StatusClientClosed {
		t.Fatalf("the repeat whose client left during its takeover: %d %s", rec.Code, rec.Body.String())
	}
	if _, err := h.bus.Buckets.Idempotency.Get(context.Background(), idemKVKey("acct1", wire.FamilySol, "taken")); err != nil {
		t.Fatalf("the key after a takeover ended uncharged: %v, want it kept", err)
	}

	// The next repeat takes the key over again once it is stale, under
	// the dead request's id: whatever it answers, that is the one order.
	w := startWorker(t, h, wire.ChainSolana, signed)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "taken")
	if a.orderID() != dead {
		t.Fatalf("the next repeat: %d order %q %s, want the order %s", a.status, a.orderID(), a.raw, dead)
	}
	if n := w.deliveries(dead); n > 1 {
		t.Fatalf("the worker took the job %d times, want once at most", n)
	}
}

// timedOutIdem is an idempotency bucket whose creates run out of their
// own time, the client having left meanwhile.
type timedOutIdem struct {
	jetstream.KeyValue
	leave func()
}

func (k *timedOutIdem) Create(context.Context, string, []byte, ...jetstream.KVCreateOpt) (uint64, error) {
	if k.leave != nil {
		k.leave()
	}
	return 0, context.DeadlineExceeded
}

// TestStoreTimeoutNotTakenForTheClient: a store call that runs out of the
// service's own time is the store's failure, counted and answered 503,
// even when the client had left by then (a bot whose timeout is shorter
// than the store's bound): a store that hangs must not read as clients
// leaving.
func TestStoreTimeoutNotTakenForTheClient(t *testing.T) {
	slow := &timedOutIdem{}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		slow.KeyValue = kv
		return slow
	}))
	boughtBefore(t, h)
	failures := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency))
	ctx, cancel := context.WithCancel(context.Background())
	slow.leave = cancel
	rec := serveSwap(ctx, h, skipBody, IdempotencyHeader, "slow")
	if rec.Code != 503 {
		t.Fatalf("a claim that ran out of its time: %d %s, want 503", rec.Code, rec.Body.String())
	}
	if d := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency)) - failures; d != 1 {
		t.Fatalf("%v idempotency store failures counted, want 1", d)
	}
}

// TestIdempotencyStoreFull: a full idempotency bucket (at its bound,
// nats.stream_max_gib) refuses a new key with a free 503 that says the
// store is full and what to do, not that it was slow, and counts it; a
// request without a key still trades.
func TestIdempotencyStoreFull(t *testing.T) {
	var logs bytes.Buffer
	h := newHarness(t, budget.DefaultLimits, allChains{}, withLog(&logs))
	boughtBefore(t, h) // skipBody is then answered 200, skipped, charged
	ctx := context.Background()
	if r := serveSwap(ctx, h, skipBody, "Idempotency-Key", "full-0"); r.Code != 200 {
		t.Fatalf("first keyed request: %d %s", r.Code, r.Body)
	}
	stream, err := h.bus.JS.Stream(ctx, bus.KVStream(bus.BucketIdempotency))
	if err != nil {
		t.Fatal(err)
	}
	cfg := stream.CachedInfo().Config
	cfg.MaxBytes = int64(stream.CachedInfo().State.Bytes) + 64
	if _, err := h.bus.JS.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	failures := metrics.StoreFailures.WithLabelValues(metrics.StoreIdempotency)
	before := counted(failures)
	r := serveSwap(ctx, h, skipBody, "Idempotency-Key", "full-1")
	if r.Code != 503 || !strings.Contains(r.Body.String(), "the idempotency store is full") ||
		!strings.Contains(r.Body.String(), "without an Idempotency-Key") || !strings.Contains(r.Body.String(), `"OVERLOADED"`) {
		t.Fatalf("keyed request on a full store: %d %s", r.Code, r.Body)
	}
	if got := counted(failures) - before; got != 1 {
		t.Fatalf("store failures +%v, want +1", got)
	}
	if !strings.Contains(logs.String(), "the store is full") {
		t.Fatalf("no log line says the store is full:\n%s", logs.String())
	}
	if r := serveSwap(ctx, h, skipBody); r.Code != 200 {
		t.Fatalf("a request without a key on a full store: %d %s", r.Code, r.Body)
	}
	// The kept answer is still replayed.
	if r := serveSwap(ctx, h, skipBody, "Idempotency-Key", "full-0"); r.Code != 200 || r.Header().Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the kept key on a full store: %d %s", r.Code, r.Body)
	}
}

// fullIdem is an idempotency bucket whose updates the store refuses as
// full, as a takeover's write can be.
type fullIdem struct{ jetstream.KeyValue }

func (k *fullIdem) Update(context.Context, string, []byte, uint64) (uint64, error) {
	return 0, &jetstream.APIError{Code: 503, ErrorCode: 10077, Description: "maximum bytes exceeded"}
}

// slowOrders is an orders bucket whose reads run out of their time.
type slowOrders struct{ jetstream.KeyValue }

func (slowOrders) Get(context.Context, string) (jetstream.KeyValueEntry, error) {
	return nil, context.DeadlineExceeded
}

// TestIdempotencyStaleOrderUnread: a repeat that finds its key's first
// request dead, and cannot read that request's order, is told to look the
// order up and send again with the same key, not that nothing was traded.
func TestIdempotencyStaleOrderUnread(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(timeout))
	boughtBefore(t, h)
	staleClaim(t, h, "read-fails", skipBody, "eu-maybe-traded", timeout+idemStaleGrace+time.Millisecond)
	h.servers[0].orders = orders.NewStore(slowOrders{h.bus.Buckets.Orders})
	r := serveSwap(context.Background(), h, skipBody, "Idempotency-Key", "read-fails")
	body := r.Body.String()
	if r.Code != 503 || !strings.Contains(body, "eu-maybe-traded") || strings.Contains(body, "nothing was traded") {
		t.Fatalf("a stale key whose order could not be read: %d %s", r.Code, body)
	}
}

// TestIdempotencyTakeoverRefused: a repeat that finds its key's first
// request dead, with an order id but no order yet (its job may still be
// in the stream), and whose takeover of the key the store refuses (full
// here), is told to look that order up and send again with the same key:
// not that nothing was traded, nor to go on without its key, which could
// trade twice.
func TestIdempotencyTakeoverRefused(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(timeout), withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		return &fullIdem{kv}
	}))
	boughtBefore(t, h)
	staleClaim(t, h, "full-stale", skipBody, "eu-maybe-queued", timeout+idemStaleGrace+time.Millisecond)
	r := serveSwap(context.Background(), h, skipBody, "Idempotency-Key", "full-stale")
	body := r.Body.String()
	if r.Code != 503 || !strings.Contains(body, `eu-maybe-queued`) || !strings.Contains(body, "look the order up") ||
		strings.Contains(body, "nothing was traded") || strings.Contains(body, "without an Idempotency-Key") {
		t.Fatalf("a takeover the store refused: %d %s", r.Code, body)
	}
}

// TestIdempotencyKeyGivenTwice: two Idempotency-Key headers of different
// values are refused, free, before anything is kept; the same value twice
// is the key.
func TestIdempotencyKeyGivenTwice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	boughtBefore(t, h)
	send := func(keys ...string) answer {
		t.Helper()
		req, err := http.NewRequest("POST", h.eu.URL+"/api/v1/swap", strings.NewReader(skipBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+solKey)
		req.Header.Set("Content-Type", "application/json")
		for _, k := range keys {
			req.Header.Add(IdempotencyHeader, k)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		a := answer{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
		if err := json.Unmarshal(raw, &a.body); err != nil {
			t.Fatalf("body %q", raw)
		}
		return a
	}
	before := records(t, h)
	a := send("one", "two")
	if a.status != 400 || a.code() != string(apierr.InvalidRequest) || !strings.Contains(a.raw, IdempotencyHeader) {
		t.Fatalf("two keys: %d %s", a.status, a.raw)
	}
	if n := records(t, h); n != before {
		t.Fatalf("the refusal kept %d records", n-before)
	}
	// An empty key is no key a client meant to leave out: its retries
	// would trade again.
	for _, empty := range [][]string{{""}, {"   "}, {"", ""}} {
		if a := send(empty...); a.status != 400 || a.code() != string(apierr.InvalidRequest) || !strings.Contains(a.raw, "empty") {
			t.Fatalf("empty key %q: %d %s", empty, a.status, a.raw)
		}
	}
	if n := records(t, h); n != before {
		t.Fatalf("the refusals kept %d records", n-before)
	}
	if a := send("same", "same"); a.status != 200 {
		t.Fatalf("one key given twice: %d %s", a.status, a.raw)
	}
	if a := send("same"); a.status != 200 || a.header.Get("Idempotent-Replayed") == "" {
		t.Fatalf("repeat of the key given twice: %d %s %v", a.status, a.raw, a.header)
	}
}

// heldCharge is a rate budget whose first charge waits for release.
type heldCharge struct {
	Budget
	entered, release chan struct{}
	once             sync.Once
}

func (b *heldCharge) Charge(ctx context.Context, account string, f wire.Family, lim budget.Limits) (budget.State, error) {
	b.once.Do(func() {
		close(b.entered)
		<-b.release
	})
	return b.Budget.Charge(ctx, account, f, lim)
}

// watchedIdem is an idempotency bucket that says when a key is watched.
type watchedIdem struct {
	jetstream.KeyValue
	watched chan struct{}
}

func (k *watchedIdem) Watch(ctx context.Context, keys string, opts ...jetstream.WatchOpt) (jetstream.KeyWatcher, error) {
	w, err := k.KeyValue.Watch(ctx, keys, opts...)
	select {
	case k.watched <- struct{}{}:
	default:
	}
	return w, err
}

// TestReplayAfterWaitShowsTheBudgetNow: a repeat that came while its key's
// first request was still being charged, and waited for its answer, shows
// the rate budget as it is when answered, the first request's charge
// included: it showed the budget as it found it on arrival, a unit more
// than was left.
func TestReplayAfterWaitShowsTheBudgetNow(t *testing.T) {
	t.Parallel()
	held := &heldCharge{entered: make(chan struct{}), release: make(chan struct{})}
	watching := &watchedIdem{watched: make(chan struct{}, 1)}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(held), withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		watching.KeyValue = kv
		return watching
	}))
	held.Budget = h.servers[1].deps.Budget
	boughtBefore(t, h)
	firstC := make(chan answer, 1)
	go func() {
		a, _ := do("POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "waited")
		firstC <- a
	}()
	<-held.entered
	againC := make(chan answer, 1)
	go func() {
		a, _ := do("POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "waited")
		againC <- a
	}()
	// The repeat finds the first request's claim and watches the key.
	<-watching.watched
	close(held.release)
	first, again := <-firstC, <-againC
	if first.status != 200 || again.status != 200 || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d %s, repeat %d %s", first.status, first.raw, again.status, again.raw)
	}
	if got, want := again.header.Get("X-RateLimit-Remaining-Minute"), first.header.Get("X-RateLimit-Remaining-Minute"); got != want {
		t.Fatalf("the repeat shows %s left, the first's charge left %s", got, want)
	}
}

// TestWorkersWalletNotOwnedIsFree: a 403 WALLET_NOT_OWNED the worker
// answers (its view of the registry lacks a wallet ingress's has, for a
// moment after it was added or removed) is given back and not kept for the
// Idempotency-Key, as ingress's own is: it was charged and replayed for a
// day, though the worker would sign once the views agree.
func TestWorkersWalletNotOwnedIsFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	var refusing atomic.Bool
	refusing.Store(true)
	startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		if refusing.Load() {
			b := apierr.Newf(apierr.WalletNotOwned, solW1, "wallet %s is not a wallet of this account", solW1).Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
	body := swapWith(solMint, `"priority_fee":0.0001`)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "views")
	if a.status != 403 || a.code() != "WALLET_NOT_OWNED" || a.header.Get("X-RateLimit-Remaining-Week") != strconv.Itoa(int(budget.DefaultLimits.Week)) {
		t.Fatalf("first: %d %s %v", a.status, a.raw, a.header)
	}
	refusing.Store(false)
	b := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "views")
	if b.status != 200 || b.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry once the views agree: %d %s", b.status, b.raw)
	}
}

// hidingIdem is an idempotency bucket whose next read of the key hide
// names finds nothing: a repeat that looked its key up just before the
// first request claimed it.
type hidingIdem struct {
	jetstream.KeyValue
	hide atomic.Pointer[string]
}

func (k *hidingIdem) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	if h := k.hide.Load(); h != nil && *h == key && k.hide.CompareAndSwap(h, nil) {
		return nil, jetstream.ErrKeyNotFound
	}
	return k.KeyValue.Get(ctx, key)
}

// TestRepeatAtTheBudgetEdgeGetsTheFirstAnswer: a repeat that found its key
// free, while the first request then claimed it and spent the account's
// last unit, gets the first request's answer, not 429: a bot told "rate
// limited" for an order that traded might send it again under a new key.
func TestRepeatAtTheBudgetEdgeGetsTheFirstAnswer(t *testing.T) {
	hiding := &hidingIdem{}
	h := newHarness(t, budget.Limits{Minute: 1, Hour: 10, Week: 10}, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		hiding.KeyValue = kv
		return hiding
	}))
	boughtBefore(t, h)
	first := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "edge")
	if first.status != 200 || first.header.Get("X-RateLimit-Remaining-Minute") != "0" {
		t.Fatalf("first: %d %v %s", first.status, first.header, first.raw)
	}
	key := idemKVKey("acct1", wire.FamilySol, "edge")
	hiding.hide.Store(&key)
	repeat := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "edge")
	if repeat.status != 200 || repeat.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("a repeat that looked before the first claimed: %d %s, want the first answer replayed", repeat.status, repeat.raw)
	}
	// A fresh key at the spent budget is refused as before.
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "edge-2"); a.status != 429 {
		t.Fatalf("a fresh key at a spent budget: %d %s", a.status, a.raw)
	}
}

// TestRefusalLeavesAStaleKey: a keyed request the budget refuses reads its
// key once more, and only looks: a key gone stale meanwhile (its request's
// ingress died) is not taken over for a request answered 429, whose claim
// would then hold the key as fresh for another request timeout.
func TestRefusalLeavesAStaleKey(t *testing.T) {
	hiding := &hidingIdem{}
	h := newHarness(t, budget.Limits{Minute: 0, Hour: 10, Week: 10}, allChains{}, withIdempotency(func(kv jetstream.KeyValue) jetstream.KeyValue {
		hiding.KeyValue = kv
		return hiding
	}))
	key := idemKVKey("acct1", wire.FamilySol, "stale")
	dead := idemRecord{Fingerprint: fingerprint("/api/v1/swap", []byte(skipBody)), Started: time.Now().Add(-time.Hour), OrderID: "eu-dead"}
	b, _ := json.Marshal(dead)
	rev, err := hiding.KeyValue.Put(context.Background(), key, b)
	if err != nil {
		t.Fatal(err)
	}
	hiding.hide.Store(&key)
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody, "Idempotency-Key", "stale"); a.status != 429 {
		t.Fatalf("a refused repeat of a stale key: %d %s", a.status, a.raw)
	}
	e, err := hiding.KeyValue.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	if e.Revision() != rev {
		t.Fatalf("the stale key was written by a refused repeat: revision %d, was %d", e.Revision(), rev)
	}
}

// TestRepeatFindsAClaimGoneUnseen: a repeat waiting on a key whose first
// request's claim goes with no word to its watch (a withdrawn claim's
// delete purged before the watch was handed it) reads the key again within
// idemRecheck and runs, where it waited for the first request to go stale:
// its request timeout and 5 s.
func TestRepeatFindsAClaimGoneUnseen(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(30*time.Second))
	boughtBefore(t, h)
	ctx := context.Background()
	kvKey := idemKVKey("acct1", wire.FamilySol, "gone")
	rec, _ := json.Marshal(idemRecord{Fingerprint: fingerprint("/api/v1/swap", []byte(skipBody)), Started: time.Now().UTC()})
	if _, err := h.bus.Buckets.Idempotency.Create(ctx, kvKey, rec); err != nil {
		t.Fatal(err)
	}
	st, err := h.bus.JS.Stream(ctx, bus.KVStream(bus.BucketIdempotency))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		// Gone while the repeat waits, leaving nothing behind to see.
		time.Sleep(300 * time.Millisecond)
		_ = st.Purge(ctx, jetstream.WithPurgeSubject("$KV."+bus.BucketIdempotency+"."+kvKey))
	}()
	// Its own wait would end at the stale time, 35 s after the claim.
	runsFirstWithin(t, h, skipBody, "gone", 20*time.Second, "the repeat of a claim gone", "it waited for the claim to go stale")
}

// runsFirstWithin sends a swap of body under key and wants it run as a
// first request (200, not a replay), answered within limit; what names the
// request, late what a late answer means.
func runsFirstWithin(t *testing.T, h *harness, body, key string, limit time.Duration, what, late string) {
	t.Helper()
	start := time.Now()
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", key)
	if a.status != 200 || a.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("%s: %d %s, want it run as a first request", what, a.status, a.raw)
	}
	if d := time.Since(start); d > limit {
		t.Fatalf("%s answered after %v: %s", what, d, late)
	}
}
