package client

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestCodesMatchServer keeps the client's codes equal to the server's table
// without the client importing the server.
func TestCodesMatchServer(t *testing.T) {
	server := apierr.Codes()
	mine := Codes()
	if len(mine) != len(server) {
		t.Fatalf("client has %d codes, server %d", len(mine), len(server))
	}
	for i := range server {
		if string(mine[i]) != string(server[i]) {
			t.Errorf("code %d: client %s, server %s", i, mine[i], server[i])
		}
	}
}

// step is one scripted answer of the fake host.
type step struct {
	status  int
	body    string
	headers map[string]string
	hangUp  bool // close the connection without answering
	stall   bool // answer nothing until the client goes away
	cut     bool // answer the status and headers, then hang up within the body
}

// fakeHost answers requests with the scripted steps in turn (the last one
// repeats) and records what it got.
type fakeHost struct {
	mu    sync.Mutex
	steps []step
	got   []*http.Request
	n     atomic.Int32
}

func (f *fakeHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	f.mu.Lock()
	f.got = append(f.got, r)
	i := min(int(f.n.Add(1))-1, len(f.steps)-1)
	s := f.steps[i]
	f.mu.Unlock()
	if s.stall {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		return
	}
	if s.hangUp {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range s.headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if s.cut {
		// A body promised longer than it is, the connection then closed.
		w.Header().Set("Content-Length", strconv.Itoa(len(s.body)+100))
		w.WriteHeader(s.status)
		_, _ = io.WriteString(w, s.body)
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	w.WriteHeader(s.status)
	_, _ = io.WriteString(w, s.body)
}

func (f *fakeHost) requests() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*http.Request(nil), f.got...)
}

func newFake(t *testing.T, steps ...step) (*fakeHost, *httptest.Server) {
	t.Helper()
	f := &fakeHost{steps: steps}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func newClient(t *testing.T, url string, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)
	c, err := New(url, "tapi_sol_live_test", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	okSwap           = `{"success":true,"data":{"order_id":"eu-1","signatures":["s1"],"skipped":false}}`
	overloaded       = `{"success":false,"error":{"code":"OVERLOADED","message":"busy","details":"solana"}}`
	chainUnavailable = `{"success":false,"error":{"code":"CHAIN_UNAVAILABLE","message":"no worker","details":"solana"}}`
	venuePaused      = `{"success":false,"error":{"code":"VENUE_PAUSED","message":"upgraded","details":"pump_fun"}}`
	broadcastFailed  = `{"success":false,"error":{"code":"BROADCAST_FAILED","message":"refused","details":"{\"order_id\":\"eu-1\"}"}}`
	upstreamTimeout  = `{"success":false,"error":{"code":"UPSTREAM_TIMEOUT","message":"late","details":"{\"order_id\":\"eu-1\"}"}}`
	rateLimited      = `{"success":false,"error":{"code":"RATE_LIMITED","message":"x","details":"minute"}}`
)

func TestRateHeadersAndRequestID(t *testing.T) {
	f, srv := newFake(t, step{status: 200, body: `{"success":true,"data":{"pong":true}}`, headers: map[string]string{
		"X-RateLimit-Limit-Minute": "60", "X-RateLimit-Remaining-Minute": "59", "X-RateLimit-Reset-Minute": "12",
		"X-RateLimit-Limit-Hour": "1200", "X-RateLimit-Remaining-Hour": "1100", "X-RateLimit-Reset-Hour": "1800",
		"X-RateLimit-Limit-Week": "10000", "X-RateLimit-Remaining-Week": "9000", "X-RateLimit-Reset-Week": "86400",
		"X-Request-Id": "req-7",
	}})
	c := newClient(t, srv.URL)
	p, err := c.Ping(context.Background(), RequestID("mine-1"))
	if err != nil {
		t.Fatal(err)
	}
	want := RateLimit{Minute: Window{60, 59, 12 * time.Second}, Hour: Window{1200, 1100, 1800 * time.Second},
		Week: Window{10000, 9000, 24 * time.Hour}}
	if !p.Pong || p.Meta.Rate != want || p.Meta.RequestID != "req-7" || p.Meta.Status != 200 || p.Meta.Attempts != 1 {
		t.Fatalf("ping: %+v", p)
	}
	r := f.requests()[0]
	if r.Header.Get("Authorization") != "Bearer tapi_sol_live_test" || r.Header.Get("X-Request-Id") != "mine-1" || r.Method != "GET" || r.URL.Path != "/ping" {
		t.Fatalf("request: %s %s %v", r.Method, r.URL, r.Header)
	}
}

func TestErrorsAreTyped(t *testing.T) {
	_, srv := newFake(t, step{status: 504, body: `{"success":false,"error":{"code":"UPSTREAM_TIMEOUT","message":"late","details":"{\"order_id\":\"eu-9\"}"}}`,
		headers: map[string]string{"X-Request-Id": "req-9"}})
	c := newClient(t, srv.URL, WithRetries(0))
	_, err := c.Swap(context.Background(), &SwapRequest{Address: "m", Side: Buy, Amount: "0.1", AllSpotActive: true})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUpstreamTimeout || e.Status != 504 || e.OrderID != "eu-9" || e.Meta.RequestID != "req-9" || e.Retryable() {
		t.Fatalf("error: %#v", err)
	}
	if !IsCode(err, CodeUpstreamTimeout) || CodeOf(errors.New("x")) != "" {
		t.Fatal("IsCode / CodeOf")
	}

	_, srv = newFake(t, step{status: 502, body: `<html>bad gateway</html>`})
	_, err = newClient(t, srv.URL, WithRetries(0)).Wallets(context.Background())
	if !errors.As(err, &e) || e.Status != 502 || e.Code != "" {
		t.Fatalf("non-envelope answer: %#v", err)
	}
}

func TestRetries(t *testing.T) {
	ctx := context.Background()
	ping := func(c *Client) error { _, err := c.Ping(ctx); return err }
	wallets := func(c *Client) error { _, err := c.Wallets(ctx); return err }
	lookup := func(c *Client) error { _, err := c.Order(ctx, "eu-1"); return err }
	swap := func(opts ...CallOption) func(*Client) error {
		return func(c *Client) error {
			_, err := c.Swap(ctx, &SwapRequest{Side: Buy, AllSpotActive: true}, opts...)
			return err
		}
	}
	withKey := swap(IdempotencyKey("k1"))
	cases := []struct {
		name     string
		steps    []step
		call     func(c *Client) error
		opts     []Option
		attempts int
		code     Code // "" for success, or with fail an answer that is not the API's
		fail     bool
	}{
		{name: "GET retried after 503s", steps: []step{{status: 503, body: overloaded}, {status: 503, body: overloaded}, {status: 200, body: `{"success":true,"data":{"wallets":[]}}`}},
			call: wallets, attempts: 3},
		{name: "GET retried after a dropped connection", steps: []step{{hangUp: true}, {status: 200, body: `{"success":true,"data":{"pong":true}}`}},
			call: ping, attempts: 2},
		{name: "GET gives up after the retries", steps: []step{{status: 502, body: `<html>bad gateway</html>`}},
			call: lookup, attempts: 4, fail: true},
		{name: "GET not retried after 404", steps: []step{{status: 404, body: `{"success":false,"error":{"code":"NOT_FOUND","message":"x","details":"order_id"}}`}},
			call: lookup, attempts: 1, code: CodeNotFound},
		{name: "POST without a key not retried after 503", steps: []step{{status: 503, body: overloaded}, {status: 200, body: okSwap}},
			call: swap(), attempts: 1, code: CodeOverloaded},
		{name: "POST without a key not retried after a dropped connection", steps: []step{{hangUp: true}, {status: 200, body: okSwap}},
			call: swap(), attempts: 1, code: ""},
		{name: "POST with a key retried after 503", steps: []step{{status: 503, body: overloaded}, {status: 200, body: okSwap}},
			call: withKey, attempts: 2},
		{name: "POST with a key retried after a dropped connection", steps: []step{{hangUp: true}, {status: 200, body: okSwap}},
			call: withKey, attempts: 2},
		{name: "POST with an automatic key retried", steps: []step{{status: 503, body: overloaded}, {status: 200, body: okSwap}},
			opts: []Option{WithAutoIdempotencyKey()}, call: swap(), attempts: 2},
		{name: "POST with a key retried after CHAIN_UNAVAILABLE", steps: []step{{status: 503, body: chainUnavailable}, {status: 200, body: okSwap}},
			call: withKey, attempts: 2},
		{name: "POST with a key retried after a proxy's 502", steps: []step{{status: 502, body: `<html>bad gateway</html>`}, {status: 200, body: okSwap}},
			call: withKey, attempts: 2},
		{name: "POST with a key retried after a proxy's 504", steps: []step{{status: 504, body: ``}, {status: 200, body: okSwap}},
			call: withKey, attempts: 2},
		{name: "BROADCAST_FAILED not retried: the key replays it", steps: []step{{status: 502, body: broadcastFailed}, {status: 200, body: okSwap}},
			call: withKey, attempts: 1, code: CodeBroadcastFailed},
		{name: "UPSTREAM_TIMEOUT not retried: the key replays it", steps: []step{{status: 504, body: upstreamTimeout}, {status: 200, body: okSwap}},
			call: withKey, attempts: 1, code: CodeUpstreamTimeout},
		{name: "VENUE_PAUSED not retried", steps: []step{{status: 503, body: venuePaused}, {status: 200, body: okSwap}},
			call: withKey, attempts: 1, code: CodeVenuePaused},
		{name: "429 not waited for by default", steps: []step{{status: 429, body: rateLimited, headers: map[string]string{"Retry-After": "1"}}, {status: 200, body: okSwap}},
			call: withKey, attempts: 1, code: CodeRateLimited},
		{name: "429 waited for when asked", steps: []step{{status: 429, body: rateLimited}, {status: 200, body: okSwap}},
			opts: []Option{WithRateLimitWait(time.Second)}, call: withKey, attempts: 2},
		{name: "429 of a GET waited for when asked", steps: []step{{status: 429, body: rateLimited}, {status: 200, body: `{"success":true,"data":{"pong":true}}`}},
			opts: []Option{WithRateLimitWait(time.Second)}, call: ping, attempts: 2},
		{name: "429 of a POST without a key not waited for, even when asked", steps: []step{{status: 429, body: rateLimited}, {status: 200, body: okSwap}},
			opts: []Option{WithRateLimitWait(time.Second)}, call: swap(), attempts: 1, code: CodeRateLimited},
		{name: "429 not waited for with retries off", steps: []step{{status: 429, body: rateLimited}, {status: 200, body: okSwap}},
			opts: []Option{WithRateLimitWait(time.Second), WithRetries(0)}, call: withKey, attempts: 1, code: CodeRateLimited},
		{name: "replayed 429 not waited for", steps: []step{{status: 429, body: rateLimited, headers: map[string]string{"Idempotent-Replayed": "true"}}, {status: 200, body: okSwap}},
			opts: []Option{WithRateLimitWait(time.Second)}, call: withKey, attempts: 1, code: CodeRateLimited},
		{name: "replayed answer not retried", steps: []step{{status: 504, body: overloaded, headers: map[string]string{"Idempotent-Replayed": "true"}}},
			call: withKey, attempts: 1, code: CodeOverloaded},
		{name: "409 not retried", steps: []step{{status: 409, body: `{"success":false,"error":{"code":"IDEMPOTENCY_CONFLICT","message":"x","details":null}}`}},
			call: withKey, attempts: 1, code: CodeIdempotencyConflict},
		{name: "429 past the longest wait returned at once", steps: []step{{status: 429, body: rateLimited, headers: map[string]string{"Retry-After": "1800"}}},
			opts: []Option{WithRateLimitWait(time.Minute)}, call: wallets, attempts: 1, code: CodeRateLimited},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, srv := newFake(t, tc.steps...)
			err := tc.call(newClient(t, srv.URL, tc.opts...))
			if n := len(f.requests()); n != tc.attempts {
				t.Fatalf("%d attempts, want %d (err %v)", n, tc.attempts, err)
			}
			hangUp := tc.steps[0].hangUp && tc.attempts == 1
			switch {
			case hangUp:
				if err == nil || CodeOf(err) != "" {
					t.Fatalf("want a connection error, got %v", err)
				}
			case tc.fail:
				var e *Error
				if !errors.As(err, &e) || e.Code != "" {
					t.Fatalf("want an answer that is not the API's, got %v", err)
				}
			case tc.code == "" && err != nil:
				t.Fatalf("want success, got %v", err)
			case tc.code != "" && !IsCode(err, tc.code):
				t.Fatalf("want %s, got %v", tc.code, err)
			}
			// Every attempt of one call carries the same key.
			keys := map[string]bool{}
			for _, r := range f.requests() {
				keys[r.Header.Get("Idempotency-Key")] = true
			}
			if len(keys) != 1 {
				t.Fatalf("keys across attempts: %v", keys)
			}
		})
	}
}

// TestCutAnswers: an answer cut off within its body is sent again only
// where the repeat cannot trade: a GET, or a keyed swap answered 2xx (the
// key replays it). A keyed swap's 429, 503 or 504 cut off is not: its code
// is lost with the body, and it may be one never sent again (a 429, 503
// VENUE_PAUSED, 504 UPSTREAM_TIMEOUT).
func TestCutAnswers(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		status   int
		get      bool
		attempts int
	}{
		{"a keyed swap's 429", 429, false, 1},
		{"a keyed swap's 503", 503, false, 1},
		{"a keyed swap's 504", 504, false, 1},
		{"a keyed swap's 200", 200, false, 2},
		{"a GET's 503", 503, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, srv := newFake(t, step{status: tc.status, body: `{"success":`, cut: true}, step{status: 200, body: okSwap})
			c := newClient(t, srv.URL)
			var err error
			if tc.get {
				_, err = c.Order(ctx, "eu-1")
			} else {
				_, err = c.Swap(ctx, &SwapRequest{Side: Buy, AllSpotActive: true}, IdempotencyKey("k1"))
			}
			if n := len(f.requests()); n != tc.attempts {
				t.Fatalf("%d requests, want %d (err %v)", n, tc.attempts, err)
			}
			if tc.attempts == 1 && (err == nil || !strings.Contains(err.Error(), strconv.Itoa(tc.status))) {
				t.Fatalf("err %v, want the cut answer's status named", err)
			}
		})
	}
}

// TestRedirectNotFollowed: a redirect is not followed, keyed or not (a
// swap sent again elsewhere, its key with it), nor retried: the error says
// where it pointed.
func TestRedirectNotFollowed(t *testing.T) {
	f, srv := newFake(t, step{status: 308, headers: map[string]string{"Location": "/v2/api/v1/swap"}})
	c := newClient(t, srv.URL)
	for _, opts := range [][]CallOption{nil, {IdempotencyKey("k1")}} {
		before := len(f.requests())
		_, err := c.Swap(context.Background(), &SwapRequest{Side: Buy, AllSpotActive: true}, opts...)
		if !errors.Is(err, ErrRedirect) || !strings.Contains(err.Error(), "/v2/api/v1/swap") {
			t.Fatalf("err %v, want ErrRedirect naming where it pointed", err)
		}
		if n := len(f.requests()) - before; n != 1 {
			t.Fatalf("%d requests, want 1", n)
		}
	}
	if _, err := c.Ping(context.Background()); !errors.Is(err, ErrRedirect) || len(f.requests()) != 3 {
		t.Fatalf("ping: %v after %d requests, want ErrRedirect, not retried", err, len(f.requests()))
	}
}

// TestRedirectNotFollowedByAGivenClient: a client given its own HTTP client
// refuses redirects too, unless that client says how to follow them.
func TestRedirectNotFollowedByAGivenClient(t *testing.T) {
	f, srv := newFake(t, step{status: 307, headers: map[string]string{"Location": "/elsewhere/api/v1/swap"}})
	c := newClient(t, srv.URL, WithHTTPClient(&http.Client{}))
	if _, err := c.Swap(context.Background(), &SwapRequest{Side: Buy, AllSpotActive: true}); !errors.Is(err, ErrRedirect) || len(f.requests()) != 1 {
		t.Fatalf("%v after %d requests, want ErrRedirect after one", err, len(f.requests()))
	}
}

// TestNewRepeatsNoSecret: a base URL New refuses is not repeated in its
// error (with the arguments swapped it is the API key; a user part holds a
// password), and a key with a line's end is refused at once.
func TestNewRepeatsNoSecret(t *testing.T) {
	for _, base := range []string{"tapi_sol_live_SECRET", "https://user:SECRET@host:x/"} {
		if _, err := New(base, "http://127.0.0.1:8080"); err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("New(%q): %v", base, err)
		}
	}
	if _, err := New("https://user:SECRET@api.example", "k"); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("a base URL with a password: %v", err)
	}
	if _, err := New("http://127.0.0.1:8080", "tapi_sol_live_x\n"); err == nil || strings.Contains(err.Error(), "tapi_") {
		t.Fatalf("a key with a line's end: %v", err)
	}
}

// TestRetryAfterHonoured: asked to wait on a 429 (WithRateLimitWait), the
// client waits out Retry-After, unless the context ends first.
func TestRetryAfterHonoured(t *testing.T) {
	f, srv := newFake(t,
		step{status: 429, body: `{"success":false,"error":{"code":"RATE_LIMITED","message":"x","details":"minute"}}`, headers: map[string]string{"Retry-After": "1"}},
		step{status: 200, body: `{"success":true,"data":{"wallets":[{"address":"a","label":"W1","spot_active":true}]}}`})
	c := newClient(t, srv.URL, WithRateLimitWait(2*time.Second))
	start := time.Now()
	w, err := c.Wallets(context.Background())
	if err != nil || len(w.Wallets) != 1 || w.Wallets[0].Label != "W1" || w.Meta.Attempts != 2 {
		t.Fatalf("wallets: %+v %v", w, err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("retried after %s, before Retry-After", waited)
	}
	if len(f.requests()) != 2 {
		t.Fatal("not retried")
	}

	// A deadline shorter than the wait returns the 429 at once.
	_, srv = newFake(t, step{status: 429, body: `{"success":false,"error":{"code":"RATE_LIMITED","message":"x","details":"minute"}}`, headers: map[string]string{"Retry-After": "30"}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start = time.Now()
	_, err = newClient(t, srv.URL, WithRateLimitWait(time.Minute)).Wallets(ctx)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeRateLimited || e.Meta.Rate.RetryAfter != 30*time.Second || e.Details != "minute" || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("429 under a deadline: %v after %s", err, time.Since(start))
	}
}

// TestProxyRetryAfterHonoured: a proxy's 503 (not the API's envelope) is
// sent again, but not before its Retry-After, and not at all when that
// asks for longer than the longest backoff.
func TestProxyRetryAfterHonoured(t *testing.T) {
	busy := step{status: 503, body: "<html>busy</html>", headers: map[string]string{"Retry-After": "1"}}
	f, srv := newFake(t, busy, step{status: 200, body: `{"success":true,"data":{"account_id":"acct"}}`})
	start := time.Now()
	if _, err := newClient(t, srv.URL, WithBackoff(time.Millisecond, 2*time.Second)).Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond || len(f.requests()) != 2 {
		t.Fatalf("%d requests, the second after %s: want it after the proxy's Retry-After of 1 s", len(f.requests()), waited)
	}

	busy.headers = map[string]string{"Retry-After": "30"}
	f, srv = newFake(t, busy)
	_, err := newClient(t, srv.URL, WithBackoff(time.Millisecond, 2*time.Second)).Ping(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 503 || len(f.requests()) != 1 {
		t.Fatalf("%v after %d requests: want the 503 at once, its Retry-After past the longest backoff", err, len(f.requests()))
	}
}

func TestAutoKeysDifferPerCall(t *testing.T) {
	f, srv := newFake(t, step{status: 200, body: okSwap})
	c := newClient(t, srv.URL, WithAutoIdempotencyKey())
	for range 2 {
		if _, err := c.Swap(context.Background(), &SwapRequest{Side: Buy, AllSpotActive: true}); err != nil {
			t.Fatal(err)
		}
	}
	r := f.requests()
	if a, b := r[0].Header.Get("Idempotency-Key"), r[1].Header.Get("Idempotency-Key"); a == "" || a == b {
		t.Fatalf("keys %q and %q", a, b)
	}
	// GETs never carry one.
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if k := f.requests()[2].Header.Get("Idempotency-Key"); k != "" {
		t.Fatalf("GET sent key %q", k)
	}
}

func TestContextEndsRetries(t *testing.T) {
	_, srv := newFake(t, step{status: 503, body: overloaded})
	c := newClient(t, srv.URL, WithBackoff(time.Hour, time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Wallets(ctx)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
}

func TestSwapRequestEncoding(t *testing.T) {
	b, err := json.Marshal(&SwapRequest{Address: "m", Side: Sell, Amount: "50", PriorityFee: "0.000000001", Slippage: Float(12.5)})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{`"wallets":null`, `"auto_orders":null`, `"priority_fee":0.000000001`, `"slippage":12.5`, `"side":"Sell"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "processor_tip") || strings.Contains(got, "max_tax") {
		t.Errorf("unset numbers sent: %s", got)
	}
	b, _ = json.Marshal(&SwapRequest{Wallets: []SwapWallet{}, AutoOrders: []AutoOrder{}})
	if !strings.Contains(string(b), `"wallets":[]`) || !strings.Contains(string(b), `"auto_orders":[]`) {
		t.Errorf("empty lists not sent as []: %s", b)
	}
	if _, err := json.Marshal(&SwapRequest{PriorityFee: "1e"}); err == nil {
		t.Error("a malformed number was encoded")
	}
	var o Order
	if err := json.Unmarshal([]byte(`{"order_id":"eu-1","state":"confirmed","auto_orders":[{"type":"take_profit","trigger_pct":50,"sell_pct":100}]}`), &o); err != nil ||
		!o.State.Final() || o.AutoOrders[0].TriggerPct != "50" {
		t.Fatalf("order: %+v %v", o, err)
	}
}

// sign is the service's signature header of body sent at t.
func sign(secret string, t int64, body []byte) string {
	ts := strconv.FormatInt(t, 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

func TestParseWebhook(t *testing.T) {
	const secret = "whsec_test"
	body := []byte(`{"id":"eu-1.confirmed","type":"confirmed","order_id":"eu-1","chain":"solana","side":"Buy","address":"m","state":"confirmed","signatures":[{"signature":"s","wallet":"w","state":"confirmed"}],"at":"2026-01-02T03:04:05Z"}`)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sent := now.Unix()
	req := func(b []byte, sig string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(string(b)))
		if sig != "" {
			r.Header.Set(HeaderSignature, sig)
		}
		return r
	}
	clock := WithWebhookClock(func() time.Time { return now })
	e, err := ParseWebhook(req(body, sign(secret, sent, body)), secret, clock)
	if err != nil || e.Type != EventConfirmed || e.OrderID != "eu-1" || e.Signatures[0].State != StateConfirmed || e.At.Year() != 2026 || e.Exit != nil {
		t.Fatalf("parse: %+v %v", e, err)
	}

	valid := sign(secret, sent, body)
	v1 := valid[strings.Index(valid, "v1="):]
	tampered := []byte(strings.Replace(string(body), "confirmed", "failed", 1))
	for _, tc := range []struct {
		name string
		r    *http.Request
		opts []WebhookOption
		want error // nil: accepted
	}{
		{"valid", req(body, valid), nil, nil},
		{"sent 5 minutes ago, the default tolerance", req(body, sign(secret, sent-300, body)), nil, nil},
		{"receiver's clock 5 minutes behind", req(body, sign(secret, sent+300, body)), nil, nil},
		{"a v1 per secret while rotating", req(body, sign("whsec_old", sent, body)+","+v1), nil, nil},
		{"unknown schemes beside v1 are ignored", req(body, valid+",v0=abc"), nil, nil},
		{"a v1 that is no SHA-256 beside one that verifies", req(body, "t="+strconv.FormatInt(sent, 10)+",v1=zz,v1=abcd,"+v1), nil, nil},
		{"parts that are no key=value pair are ignored", req(body, valid+",,foo"), nil, nil},
		{"a wider tolerance", req(body, sign(secret, sent-3600, body)), []WebhookOption{WithWebhookTolerance(2 * time.Hour)}, nil},
		{"too old: a replay", req(body, sign(secret, sent-301, body)), nil, ErrWebhookExpired},
		{"too far ahead", req(body, sign(secret, sent+301, body)), nil, ErrWebhookExpired},
		{"old beyond a narrower tolerance", req(body, sign(secret, sent-31, body)), []WebhookOption{WithWebhookTolerance(30 * time.Second)}, ErrWebhookExpired},
		{"tampered body", req(tampered, valid), nil, ErrBadSignature},
		{"tampered timestamp", req(body, strings.Replace(valid, "t="+strconv.FormatInt(sent, 10), "t="+strconv.FormatInt(sent+1, 10), 1)), nil, ErrBadSignature},
		{"wrong secret", req(body, sign("whsec_other", sent, body)), nil, ErrBadSignature},
		{"no signature", req(body, ""), nil, ErrBadSignature},
		{"no timestamp", req(body, v1), nil, ErrBadSignature},
		{"two timestamps", req(body, "t=1,"+valid), nil, ErrBadSignature},
		{"no v1", req(body, "t="+strconv.FormatInt(sent, 10)), nil, ErrBadSignature},
		{"not hex", req(body, "t="+strconv.FormatInt(sent, 10)+",v1=zz"), nil, ErrBadSignature},
		{"a signature of the body alone", req(body, "sha256="+hex.EncodeToString(bodyMAC(secret, body))), nil, ErrBadSignature},
		{"a body-only HMAC as v1", req(body, "t="+strconv.FormatInt(sent, 10)+",v1="+hex.EncodeToString(bodyMAC(secret, body))), nil, ErrBadSignature},
		{"negative timestamp", req(body, strings.Replace(sign(secret, sent, body), "t=", "t=-", 1)), nil, ErrBadSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWebhook(tc.r, secret, append([]WebhookOption{clock}, tc.opts...)...)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if err := VerifySignatureAt("", body, valid, now, time.Minute); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("an empty secret verified: %v", err)
	}
	// VerifySignature compares with the current time.
	fresh := time.Now().Unix()
	if err := VerifySignature(secret, body, sign(secret, fresh, body)); err != nil {
		t.Fatalf("a fresh signature: %v", err)
	}
	if err := VerifySignature(secret, body, sign(secret, fresh-600, body)); !errors.Is(err, ErrWebhookExpired) {
		t.Fatalf("a signature 10 minutes old: %v", err)
	}
}

// bodyMAC is the HMAC-SHA256 of the body alone, the scheme before the
// timestamp was signed.
func bodyMAC(secret string, body []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return mac.Sum(nil)
}

// TestRetryAfterOwnTimeout is a bot whose own deadline ends a swap before
// any answer: the error names the key sent and the order an earlier
// attempt's answer named, and the swap sent again under that key carries
// it, so the service answers it from the first order instead of trading
// again.
func TestRetryAfterOwnTimeout(t *testing.T) {
	busy := `{"success":false,"error":{"code":"OVERLOADED","message":"busy","details":null}}`
	f, srv := newFake(t,
		step{status: 503, body: busy, headers: map[string]string{"X-Order-Id": "eu-7"}},
		step{stall: true},
		step{status: 200, body: okSwap, headers: map[string]string{"X-Order-Id": "eu-7", "Idempotent-Replayed": "true"}})
	c := newClient(t, srv.URL, WithAutoIdempotencyKey())
	req := &SwapRequest{Address: "m", Side: Buy, Amount: "0.1", Wallets: []SwapWallet{{Address: "w1"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.Swap(ctx, req)
	var re *RequestError
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &re) || re.Meta.Attempts != 2 {
		t.Fatalf("swap past its deadline: %v", err)
	}
	key := IdempotencyKeyOf(err)
	sent := f.requests()[0].Header.Get("Idempotency-Key")
	if key == "" || key != sent || OrderIDOf(err) != "eu-7" {
		t.Fatalf("error names key %q and order %q; sent key %q, answer named eu-7", key, OrderIDOf(err), sent)
	}

	res, err := c.Swap(context.Background(), req, IdempotencyKey(key))
	if err != nil || !res.Meta.Replayed || res.Meta.IdempotencyKey != key || res.Meta.OrderID != "eu-7" {
		t.Fatalf("retry: %+v %v", res, err)
	}
	r := f.requests()
	if got := r[len(r)-1].Header.Get("Idempotency-Key"); got != key {
		t.Fatalf("retry sent key %q, want %q", got, key)
	}
}

// TestErrorsNameKeyAndOrder: an API error and a result name the key the
// call sent, and a 5xx's order; a call without a key names none.
func TestErrorsNameKeyAndOrder(t *testing.T) {
	late := `{"success":false,"error":{"code":"UPSTREAM_TIMEOUT","message":"late","details":"{\"order_id\":\"eu-9\"}"}}`
	_, srv := newFake(t, step{status: 504, body: late})
	c := newClient(t, srv.URL, WithRetries(0))
	_, err := c.Swap(context.Background(), &SwapRequest{Address: "m", Side: Buy, Wallets: []SwapWallet{{Address: "w1"}}}, IdempotencyKey("k-1"))
	var e *Error
	if !errors.As(err, &e) || e.Meta.IdempotencyKey != "k-1" || IdempotencyKeyOf(err) != "k-1" || OrderIDOf(err) != "eu-9" || e.Meta.OrderID != "eu-9" {
		t.Fatalf("504: %#v", err)
	}

	_, srv = newFake(t, step{status: 200, body: `{"success":true,"data":{"mint_addresses":["M"],"landed_txs":[]}}`,
		headers: map[string]string{"X-Order-Id": "eu-3"}})
	d, err := newClient(t, srv.URL, WithAutoIdempotencyKey()).Deploy(context.Background(), &DeployRequest{WalletAddress: "w"})
	if err != nil || len(d.Meta.IdempotencyKey) != 32 || d.Meta.OrderID != "eu-3" {
		t.Fatalf("deploy: %+v %v", d, err)
	}

	// A 2xx that does not decode may have traded: it names the key too.
	_, srv = newFake(t, step{status: 200, body: `<html>ok</html>`, headers: map[string]string{"X-Order-Id": "eu-4"}})
	_, err = newClient(t, srv.URL).Swap(context.Background(), &SwapRequest{Side: Buy, Wallets: []SwapWallet{{Address: "w1"}}}, IdempotencyKey("k-2"))
	if IdempotencyKeyOf(err) != "k-2" || OrderIDOf(err) != "eu-4" || CodeOf(err) != "" {
		t.Fatalf("undecodable 200: %v", err)
	}

	if IdempotencyKeyOf(errors.New("x")) != "" || OrderIDOf(nil) != "" {
		t.Fatal("a foreign error names a key or an order")
	}
}

// TestWalletsChoice: a nil Wallets is every spot-active wallet on the
// wire, so the client sends it only when AllSpotActive says so.
func TestWalletsChoice(t *testing.T) {
	noWallets := `{"success":false,"error":{"code":"NO_WALLETS","message":"wallets is an empty array","details":"wallets"}}`
	for _, tc := range []struct {
		name  string
		req   SwapRequest
		sent  string // the wallets sent, "" when nothing is sent
		err   error
		code  Code
		reply step
	}{
		{name: "nil without a choice is refused", req: SwapRequest{Side: Buy}, err: ErrWalletsUnchosen},
		{name: "nil with AllSpotActive is sent as null", req: SwapRequest{Side: Buy, AllSpotActive: true},
			sent: `null`, reply: step{status: 200, body: okSwap}},
		{name: "empty is sent as [] and refused by the service", req: SwapRequest{Side: Buy, Wallets: []SwapWallet{}},
			sent: `[]`, code: CodeNoWallets, reply: step{status: 400, body: noWallets}},
		{name: "named wallets are sent", req: SwapRequest{Side: Buy, Wallets: []SwapWallet{{Address: "w1", Amount: "0.2"}}},
			sent: `[{"address":"w1","amount":"0.2"}]`, reply: step{status: 200, body: okSwap}},
		{name: "named wallets with AllSpotActive are refused", req: SwapRequest{Side: Buy, AllSpotActive: true, Wallets: []SwapWallet{{Address: "w1"}}},
			err: ErrWalletsUnchosen},
		{name: "an empty filter with AllSpotActive is refused", req: SwapRequest{Side: Buy, AllSpotActive: true, Wallets: []SwapWallet{}},
			err: ErrWalletsUnchosen},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, srv := newFake(t, tc.reply)
			_, err := newClient(t, srv.URL, WithAutoIdempotencyKey()).Swap(context.Background(), &tc.req)
			switch {
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("got %v, want %v", err, tc.err)
			case tc.code != "" && !IsCode(err, tc.code):
				t.Fatalf("got %v, want %s", err, tc.code)
			case tc.err == nil && tc.code == "" && err != nil:
				t.Fatalf("refused: %v", err)
			}
			r := f.requests()
			if tc.sent == "" {
				if len(r) != 0 {
					t.Fatalf("%d requests sent", len(r))
				}
				return
			}
			var body struct{ Wallets json.RawMessage }
			if len(r) != 1 || json.NewDecoder(r[0].Body).Decode(&body) != nil || string(body.Wallets) != tc.sent {
				t.Fatalf("sent wallets %s, want %s", body.Wallets, tc.sent)
			}
		})
	}
}

// TestRetryable: what Error.Retryable says of each answer, as the
// service's answers mean.
func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		status   int
		body     string
		replayed bool
		want     bool
	}{
		{503, overloaded, false, true},
		{503, chainUnavailable, false, true},
		{429, rateLimited, false, true},
		{502, `<html>bad gateway</html>`, false, true},
		{504, ``, false, true},
		{502, broadcastFailed, false, false},
		{504, upstreamTimeout, false, false},
		{503, venuePaused, false, false},
		{503, overloaded, true, false},
		{500, `{"success":false,"error":{"code":"INTERNAL","message":"x","details":null}}`, false, false},
		{409, `{"success":false,"error":{"code":"IDEMPOTENCY_CONFLICT","message":"x","details":null}}`, false, false},
	} {
		e := newError(tc.status, []byte(tc.body), Meta{Status: tc.status, Replayed: tc.replayed})
		if e.Retryable() != tc.want {
			t.Errorf("%d %s (replayed %v): Retryable %v, want %v", tc.status, e.Code, tc.replayed, e.Retryable(), tc.want)
		}
	}
}

// strictDecode decodes what the server encodes of v into out, refusing a
// field out has no place for.
func strictDecode(t *testing.T, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	if err := d.Decode(out); err != nil {
		t.Fatalf("decode %s into %T: %v", b, out, err)
	}
}

// TestOrderDecodesServerJSON decodes the server's own encoding of an
// order's signatures, bundles and positions, every field set, into the
// client's types: a field the server sends and the client lacks fails.
func TestOrderDecodesServerJSON(t *testing.T) {
	at := time.Date(2026, 5, 9, 7, 33, 8, 0, time.UTC)
	closed := at.Add(time.Minute)
	trigger := 20.5
	sig := wire.SigState{Signature: "sig1", Wallet: "W1addr", State: wire.StateConfirmed, Error: "x", RentReturnedLamports: 2039280}
	bundle := wire.Bundle{ID: "b1", Relay: "jito-eu", State: wire.BundleLanded, Slot: 321, Reason: "r", Signatures: []string{"sig1"}}
	pos := wire.PositionView{ID: "eu-1-0", Wallet: "W1addr", Token: "Mint111", Venue: wire.VenuePumpFun, State: wire.PositionClosed,
		Received: "1000000", Remaining: "0", EntryPrice: "0.000000028", HighPrice: "0.00000003",
		Exits: []wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: &trigger, SellPct: 50},
			State: wire.ExitFired, SellOrderID: "eu-1-0-x0r0", Attempts: 2, FiredAt: &at, FiredPrice: "0.000000022",
			SellAmount: "500000", Error: "e", RetryAt: &closed, DeferredMs: 1500, DeferredReason: "budget"}},
		OpenedAt: at, ClosedAt: &closed, Version: 7}

	var gotSig OrderSignature
	strictDecode(t, sig, &gotSig)
	var gotBundle Bundle
	strictDecode(t, bundle, &gotBundle)
	var gotPos Position
	strictDecode(t, pos, &gotPos)

	// The same inside an order as the lookup answers it.
	var o Order
	strictDecode(t, map[string]any{"order_id": "eu-1", "kind": "swap", "state": "confirmed", "skipped": false,
		"signatures": []wire.SigState{sig}, "auto_orders": []wire.AutoOrder{}, "bundles": []wire.Bundle{bundle},
		"positions": []wire.PositionView{pos}, "created_at": at, "updated_at": at}, &o)
	if len(o.Signatures) != 1 || o.Signatures[0].RentReturnedLamports != 2039280 {
		t.Fatalf("signatures: %+v", o.Signatures)
	}
	if len(o.Bundles) != 1 || o.Bundles[0].State != BundleLanded || !o.Bundles[0].State.Final() || o.Bundles[0].Slot != 321 ||
		o.Bundles[0].Relay != "jito-eu" || o.Bundles[0].Signatures[0] != "sig1" {
		t.Fatalf("bundles: %+v", o.Bundles)
	}
	if len(o.Positions) != 1 {
		t.Fatalf("positions: %+v", o.Positions)
	}
	p := o.Positions[0]
	if p.State != PositionClosed || p.Remaining != "0" || p.EntryPrice != "0.000000028" || p.ClosedAt == nil || !p.ClosedAt.Equal(closed) ||
		p.Version != 7 || len(p.Exits) != 1 {
		t.Fatalf("position: %+v", p)
	}
	x := p.Exits[0]
	if x.Type != "stop_loss" || x.TriggerPct != "20.5" || x.SellPct != "50" || x.State != ExitFired || x.SellOrderID != "eu-1-0-x0r0" ||
		x.Attempts != 2 || x.FiredAt == nil || !x.FiredAt.Equal(at) || x.FiredPrice != "0.000000022" || x.SellAmount != "500000" ||
		x.DeferredMs != 1500 || x.DeferredReason != "budget" || x.RetryAt == nil || !x.RetryAt.Equal(closed) {
		t.Fatalf("exit: %+v", x)
	}
}

// TestExitFiredEventDecodes decodes the webhook body the server sends for
// an exit_fired event, every field set, into Event.
func TestExitFiredEventDecodes(t *testing.T) {
	ev := &events.Event{ID: events.ID("eu-9", events.ExitFired, "eu-9-0-x0r0"), Type: events.ExitFired, OrderID: "eu-9",
		AccountID: "acc", Chain: wire.ChainSolana, Side: wire.Sell, Address: "Pool111", Mint: "Mint111", State: wire.ExitFired,
		Signatures: []wire.SigState{{Signature: "s", Wallet: "w", State: wire.StateConfirmed, RentReturnedLamports: 2039280}},
		Error:      &apierr.Body{Code: apierr.VenuePaused, Message: "m"},
		Exit: &events.Exit{PositionID: "eu-9-0", Wallet: "W1addr", Type: wire.ExitStopLoss, SellOrderID: "eu-9-0-x0r0",
			DeferredMs: 1500, DeferredReason: "venue_paused"}, At: time.Now().UTC()}
	body, err := ev.WebhookBody()
	if err != nil {
		t.Fatal(err)
	}
	var got Event
	strictDecode(t, json.RawMessage(body), &got)
	if got.Type != EventExitFired || got.State != StateFired || got.State.Final() || got.Exit == nil ||
		got.Exit.SellOrderID != "eu-9-0-x0r0" || got.Exit.DeferredReason != "venue_paused" || got.Signatures[0].RentReturnedLamports != 2039280 {
		t.Fatalf("exit_fired: %+v exit %+v", got, got.Exit)
	}
}

// everyFieldSet fails the test for each exported field of v, of the
// structs it points to and of the first element of its slices, that is
// zero, but for the fields named in except ("Type.Field"): a fixture that
// sets every field keeps a field the server adds later from going
// undecoded unnoticed.
func everyFieldSet(t *testing.T, v any, except ...string) {
	t.Helper()
	var walk func(rv reflect.Value, at string)
	walk = func(rv reflect.Value, at string) {
		switch rv.Kind() {
		case reflect.Pointer:
			if !rv.IsNil() {
				walk(rv.Elem(), at)
			}
		case reflect.Slice:
			if rv.Len() > 0 {
				walk(rv.Index(0), at+"[0]")
			}
		case reflect.Struct:
			if rv.Type() == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range rv.NumField() {
				f := rv.Type().Field(i)
				name := rv.Type().Name() + "." + f.Name
				if !f.IsExported() || slices.Contains(except, name) {
					continue
				}
				if rv.Field(i).IsZero() {
					t.Errorf("%s.%s is not set in the fixture", at, f.Name)
					continue
				}
				walk(rv.Field(i), at+"."+f.Name)
			}
		}
	}
	walk(reflect.ValueOf(v), reflect.TypeOf(v).String())
}

// TestEventDecodesServerJSON decodes the webhook bodies the service's own
// types build into Event, refusing a field Event has no place for: a sell
// whose second wallet held none of the token, as FromOrder makes its
// event from the order record, and an event with every field set.
func TestEventDecodesServerJSON(t *testing.T) {
	at := time.Date(2026, 5, 9, 7, 33, 8, 0, time.UTC)
	skip := wire.WalletSkip{Wallet: "W2addr", Reason: "nothing to sell: the wallet holds none of the token, net of its sales in flight"}
	sig := wire.SigState{Signature: "s", Wallet: "W1addr", State: wire.StateConfirmed, Error: "x", RentReturnedLamports: 2039280,
		Slot: 321, FeeLamports: 5000, FeeWei: "21000000000000"}
	sell := &wire.Order{OrderID: "eu-5", AccountID: "acc", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Sell, Token: "Mint111", Signatures: []wire.SigState{sig},
		SkippedWallets: []wire.WalletSkip{skip}}
	body, err := events.FromOrder(events.Confirmed, sell, at).WebhookBody()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"skipped_wallets":[{"wallet":"W2addr","reason":"nothing to sell`) {
		t.Fatalf("the service's sell event carries no skipped_wallets: %s", body)
	}
	var got Event
	strictDecode(t, json.RawMessage(body), &got)
	if got.Type != EventConfirmed || got.OrderID != "eu-5" || got.Side != Sell || got.State != StateConfirmed ||
		len(got.SkippedWallets) != 1 || got.SkippedWallets[0] != (WalletSkip{Wallet: skip.Wallet, Reason: skip.Reason}) ||
		len(got.Signatures) != 1 || got.Signatures[0].Slot != 321 || got.Signatures[0].FeeLamports != 5000 ||
		got.Signatures[0].FeeWei != "21000000000000" {
		t.Fatalf("sell event: %+v", got)
	}

	details := "pump_fun"
	every := &events.Event{ID: events.ID("eu-9", events.ExitFired, "eu-9-0-x0r0"), Type: events.ExitFired, OrderID: "eu-9",
		AccountID: "acc", Kind: wire.KindSwap, Chain: wire.ChainSolana, Side: wire.Sell, Address: "Pool111", Mint: "Mint111", MintAddresses: []string{"Mint222"}, State: wire.ExitFired,
		Signatures: []wire.SigState{sig}, SkippedWallets: []wire.WalletSkip{skip},
		Error: &apierr.Body{Code: apierr.VenuePaused, Message: "m", Details: &details},
		Exit: &events.Exit{PositionID: "eu-9-0", Wallet: "W1addr", Type: wire.ExitStopLoss, SellOrderID: "eu-9-0-x0r0",
			DeferredMs: 1500, DeferredReason: "venue_paused"}, At: at}
	// AccountID is left out of a webhook's body.
	everyFieldSet(t, every, "Event.AccountID")
	if body, err = every.WebhookBody(); err != nil {
		t.Fatal(err)
	}
	got = Event{}
	strictDecode(t, json.RawMessage(body), &got)
	if len(got.SkippedWallets) != 1 || got.SkippedWallets[0].Wallet != "W2addr" || got.Error == nil || got.Error.Details == nil ||
		*got.Error.Details != "pump_fun" || got.Exit == nil || got.Exit.DeferredMs != 1500 || !got.At.Equal(at) {
		t.Fatalf("event with every field: %+v", got)
	}
}

// TestBackoffLongAndMany: a long first pause and many retries pause at
// most the longest pause, never less than half the first (the first pause
// shifted far overflowed, and the client panicked mid-retry).
func TestBackoffLongAndMany(t *testing.T) {
	c, err := New("http://127.0.0.1:1", "k", WithRetries(70), WithBackoff(20*time.Second, 10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 70; attempt++ {
		if d := c.backoff(attempt); d < 10*time.Second || d > 10*time.Minute {
			t.Fatalf("backoff(%d) = %v", attempt, d)
		}
	}
	if d := c.backoff(1); d > 20*time.Second {
		t.Fatalf("first pause %v, over the first backoff", d)
	}
}

// TestRetryAfterForms: Retry-After in seconds, as the service sends it,
// and as an HTTP date, as a proxy may.
func TestRetryAfterForms(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"3": 3 * time.Second, " 120 ": 2 * time.Minute, "-1": 0, "soon": 0, "": 0,
		now.Add(30 * time.Second).Format(http.TimeFormat): 30 * time.Second,
		now.Add(-time.Minute).Format(http.TimeFormat):     0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q: %v, want %v", v, got, want)
		}
	}
	// A date is waited for to its second, never rounded short of it.
	now = now.Add(700 * time.Millisecond)
	for v, want := range map[string]time.Duration{
		time.Date(2026, 11, 29, 12, 0, 2, 0, time.UTC).Format(http.TimeFormat): 1300 * time.Millisecond,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q: %v, want %v", v, got, want)
		}
	}
}
