package ingress

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// TestClientGoneIsNoStoreFailure: a read that ends because the request's
// client closed it (a bot's own timeout) is answered 499 and is not the
// store's failure: it was answered 503, logged as a warning and counted in
// tradeapi_store_failures_total, whose critical alert then told the
// operator to check NATS.
func TestClientGoneIsNoStoreFailure(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	for _, tc := range []struct {
		name, method, path, body, store string
	}{
		{"an order lookup", "GET", "/api/v1/orders/eu-someorder", "", metrics.StoreOrders},
		{"a skip_if_bought buy's history read", "POST", "/api/v1/swap", skipBody, metrics.StoreTrades},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := counterOf(t, metrics.StoreFailures.WithLabelValues(tc.store))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			req := httptest.NewRequestWithContext(ctx, tc.method, tc.path, strings.NewReader(tc.body))
			req.Header.Set("Authorization", "Bearer "+solKey)
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			rec := httptest.NewRecorder()
			h.euH.ServeHTTP(rec, req)
			if rec.Code != envelope.StatusClientClosed {
				t.Fatalf("answer %d %s, want %d", rec.Code, rec.Body.String(), envelope.StatusClientClosed)
			}
			if d := counterOf(t, metrics.StoreFailures.WithLabelValues(tc.store)) - before; d != 0 {
				t.Fatalf("%v store failures counted for a client that left", d)
			}
		})
	}
}
