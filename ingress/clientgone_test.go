package ingress

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
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

// TestBodyCutByTheClient: a client that sends an order's headers and part
// of the body they announce, then closes its connection, ended the request
// itself: it is counted 499, as every request its client left is, not 400
// as if the body had been malformed. A body that is malformed (a chunked
// body whose chunk size is no number) stays 400.
func TestBodyCutByTheClient(t *testing.T) {
	addr := serveEU(t)
	head := func(route, framing string) string {
		return "POST " + route + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + solKey +
			"\r\nContent-Type: application/json\r\n" + framing + "\r\n"
	}
	for _, tc := range []struct {
		name, route, request string
		want                 int
	}{
		{"a swap's body cut", "/api/v1/swap", head("/api/v1/swap", "Content-Length: 100\r\n") + `{"side":"buy",`, envelope.StatusClientClosed},
		{"a launch's body cut", "/api/v1/deploy", head("/api/v1/deploy", "Content-Length: 100\r\n") + `{"name":`, envelope.StatusClientClosed},
		{"a chunked body cut", "/api/v1/swap", head("/api/v1/swap", "Transfer-Encoding: chunked\r\n") + "40\r\n{\"side\"", envelope.StatusClientClosed},
		{"a malformed chunked body", "/api/v1/swap", head("/api/v1/swap", "Transfer-Encoding: chunked\r\n") + "zz\r\n{}\r\n0\r\n\r\n", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counted := func(code int) float64 {
				return counterOf(t, metrics.HTTPRequests.WithLabelValues("sol_eu", tc.route, strconv.Itoa(code)))
			}
			before400, before499 := counted(http.StatusBadRequest), counted(envelope.StatusClientClosed)
			var conn net.Conn
			var err error
			if !poll.True(5*time.Second, func() bool { conn, err = net.Dial("tcp", addr); return err == nil }) {
				t.Fatalf("%s does not listen: %v", addr, err)
			}
			if _, err := io.WriteString(conn, tc.request); err != nil {
				t.Fatal(err)
			}
			if tc.want == envelope.StatusClientClosed {
				conn.Close()
			} else {
				defer conn.Close()
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != tc.want {
					t.Fatalf("answered %d, want %d", resp.StatusCode, tc.want)
				}
			}
			// The request is counted once its handler returns.
			if !poll.True(10*time.Second, func() bool {
				return counted(http.StatusBadRequest)-before400+counted(envelope.StatusClientClosed)-before499 >= 1
			}) {
				t.Fatal("the request was never counted")
			}
			d400, d499 := counted(http.StatusBadRequest)-before400, counted(envelope.StatusClientClosed)-before499
			if got := map[int]float64{http.StatusBadRequest: d400, envelope.StatusClientClosed: d499}; got[tc.want] != 1 || d400+d499 != 1 {
				t.Fatalf("counted 400 +%v, 499 +%v; want one %d", d400, d499, tc.want)
			}
		})
	}
}
