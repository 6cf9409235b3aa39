package ingress

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// serveSwap runs one swap through the EU listener with ctx as the client's
// context, as a client that can hang up would send it.
func serveSwap(ctx context.Context, h *harness, body string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/api/v1/swap", strings.NewReader(body)).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+solKey)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.euH.ServeHTTP(rec, req)
	return rec
}

// TestCancelDuringChargeIsPublished: a client that hangs up while its
// charge is being written is not answered 503 after a charge: the charge
// stands, the order is published and recorded, and the answer (504 naming
// the order) is kept for the Idempotency-Key, so a retry learns the order
// instead of trading again.
func TestCancelDuringChargeIsPublished(t *testing.T) {
	t.Parallel()
	gate := newGateBudget(t, true)
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(gate))
	body := swapWith(solMint, `"priority_fee":0.0001`)
	ctx, hangUp := context.WithCancel(context.Background())
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- serveSwap(ctx, h, body, "Idempotency-Key", "gone") }()
	gate.waitEntered(t)
	hangUp()
	gate.open()
	rec := <-done

	var env struct {
		Error struct{ Code, Details string }
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &env)
	var det struct {
		OrderID string `json:"order_id"`
	}
	_ = json.Unmarshal([]byte(env.Error.Details), &det)
	if rec.Code != http.StatusGatewayTimeout || env.Error.Code != "UPSTREAM_TIMEOUT" || det.OrderID == "" ||
		rec.Header().Get("X-Order-Id") != det.OrderID {
		t.Fatalf("answer %d %s %v", rec.Code, rec.Body, rec.Header())
	}
	if n := gate.charged.Load(); n != 1 {
		t.Fatalf("charged %d times", n)
	}
	// The order exists: its job is in the stream, and, no worker having
	// signed it by the deadline, it was withdrawn (no batch of it can be
	// handed on) and recorded failed.
	st, err := h.bus.JS.Stream(context.Background(), bus.StreamOrders)
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetLastMsgForSubject(context.Background(), bus.OrdersSubject(wire.ChainSolana))
	if err != nil || m.Header.Get(bus.HeaderOrder) != det.OrderID {
		t.Fatalf("the last job in ORDERS: %v %v", m, err)
	}
	o, err := h.servers[0].orders.Get(context.Background(), det.OrderID)
	if err != nil || o.State != wire.StateFailed || o.Error == nil || !strings.Contains(o.Error.Message, "withdrawn") {
		t.Fatalf("order record %+v %v", o, err)
	}
	// The retry gets that answer, without a second charge.
	again := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "gone")
	if again.status != 504 || again.raw != rec.Body.String() || again.header.Get("Idempotent-Replayed") != "true" || gate.charged.Load() != 1 {
		t.Fatalf("retry %d %s, charged %d", again.status, again.raw, gate.charged.Load())
	}
}

// TestCancelBeforeChargeIsFree: a client gone before its charge is not
// charged, nothing is published, and its key is left free.
func TestCancelBeforeChargeIsFree(t *testing.T) {
	t.Parallel()
	gate := newGateBudget(t, true)
	gate.open()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(gate))
	ctx, hangUp := context.WithCancel(context.Background())
	hangUp()
	for _, headers := range [][]string{nil, {"Idempotency-Key", "gone-early"}} {
		rec := serveSwap(ctx, h, swapWith(solMint, `"priority_fee":0.0001`), headers...)
		if rec.Code != envelope.StatusClientClosed || rec.Header().Get("X-Order-Id") != "" {
			t.Fatalf("%v: answer %d %s", headers, rec.Code, rec.Body)
		}
	}
	if n := gate.charged.Load(); n != 0 {
		t.Fatalf("charged %d times", n)
	}
	if n := records(t, h); n != 0 {
		t.Fatalf("%d idempotency records left", n)
	}
	si, err := h.bus.JS.Stream(context.Background(), bus.StreamOrders)
	if err != nil || si.CachedInfo().State.Msgs != 0 {
		t.Fatalf("ORDERS holds %v jobs (%v)", si.CachedInfo().State.Msgs, err)
	}
}

// TestHangUpWhileInFlightKeepsTheOrdersAnswer: a client that hangs up
// (its own timeout) while its order is in flight retries with its
// Idempotency-Key and gets the order's answer, its signatures included,
// not a 504 for a wait that ended when it left; charged once.
func TestHangUpWhileInFlightKeepsTheOrdersAnswer(t *testing.T) {
	t.Parallel()
	gate := newGateBudget(t, true)
	gate.open()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(gate), withTimeout(5*time.Second))
	took, answer := make(chan struct{}), make(chan struct{})
	startWorker(t, h, wire.ChainSolana, func(id string, _ []byte) *wire.Reply {
		close(took)
		<-answer
		return &wire.Reply{OrderID: id, Signatures: []string{"sig-" + id}}
	})
	body := swapWith(solMint, `"priority_fee":0.0001`)
	ctx, hangUp := context.WithCancel(context.Background())
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- serveSwap(ctx, h, body, "Idempotency-Key", "hung-up") }()
	<-took
	hangUp()
	close(answer)
	first := <-done
	if first.Code != http.StatusOK {
		t.Fatalf("the answer written for the client that left: %d %s", first.Code, first.Body)
	}
	again := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "hung-up")
	if again.status != 200 || again.raw != first.Body.String() || again.header.Get("Idempotent-Replayed") != "true" ||
		!strings.Contains(again.raw, "sig-") || gate.charged.Load() != 1 {
		t.Fatalf("retry %d %s, charged %d", again.status, again.raw, gate.charged.Load())
	}
}
