package ingress

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// staticDirectory is a fixed directory of one account per key.
type staticDirectory struct {
	listings sync.Map // account -> []byte
	keys     map[string]struct {
		account string
		family  wire.Family
	}
	wallets map[string][]string // account/family -> wallets
	limits  budget.Limits
	// caps are the accounts' fee caps per family; absent, the defaults.
	caps map[string]registry.FeeCaps
	// strategy is every account's saved Spot strategy.
	strategy []wire.AutoOrder
	// revoked are the keys revoked since the start (token -> true).
	revoked sync.Map
	// lookups counts the keys looked up.
	lookups atomic.Int64
}

func (d *staticDirectory) Authenticate(token string) (string, wire.Family, bool) {
	d.lookups.Add(1)
	if _, gone := d.revoked.Load(token); gone {
		return "", "", false
	}
	k, ok := d.keys[token]
	return k.account, k.family, ok
}
func (d *staticDirectory) Listing(account string, f wire.Family) []byte {
	if v, ok := d.listings.Load(account + "/" + string(f)); ok {
		return v.([]byte)
	}
	var b strings.Builder
	b.WriteString(`{"success":true,"data":{"wallets":[`)
	for i, w := range d.wallets[account+"/"+string(f)] {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":%q,"label":"W%d","spot_active":true}`, w, i+1)
	}
	b.WriteString(`]}}`)
	d.listings.Store(account+"/"+string(f), []byte(b.String()))
	return []byte(b.String())
}
func (d *staticDirectory) SpotWallets(account string, f wire.Family) []string {
	return d.wallets[account+"/"+string(f)]
}
func (d *staticDirectory) Wallet(account string, f wire.Family, address string) (string, bool) {
	for _, w := range d.wallets[account+"/"+string(f)] {
		if strings.EqualFold(w, address) {
			return w, true
		}
	}
	return "", false
}
func (d *staticDirectory) Limits(string, wire.Family) budget.Limits { return d.limits }
func (d *staticDirectory) Strategy(string) []wire.AutoOrder         { return d.strategy }
func (d *staticDirectory) FeeCaps(account string, f wire.Family) registry.FeeCaps {
	if c, ok := d.caps[account+"/"+string(f)]; ok {
		return c
	}
	return registry.DefaultFeeCaps(f)
}

type allChains struct{}

func (allChains) Available(string) bool { return true }

type noChains struct{}

func (noChains) Available(string) bool { return false }

const (
	solKey  = "tapi_sol_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	evmKey  = "tapi_evm_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	capsKey = "tapi_sol_live_cccccccccccccccccccccccccccccccccccccccc"
	// highCapsKey is acct2's on EVM, whose caps are above maxFeeNative's
	// bound of an EVM priority fee's, 1000 gwei, as read wrongly before.
	highCapsKey = "tapi_evm_live_dddddddddddddddddddddddddddddddddddddddd"
	// highSolCapsKey is acct3's on Solana, whose caps are above
	// maxFeeNative's bound of 1000 SOL.
	highSolCapsKey = "tapi_sol_live_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
)

type harness struct {
	t       testing.TB
	servers [2]*Server
	euH     http.Handler
	eu, us  *httptest.Server
	evm     *httptest.Server
	bus     *bustest.Bus
	trades  jetstream.KeyValue
	dir     *staticDirectory
}

// harnessConfig is what a test may change in a harness.
type harnessConfig struct {
	timeout time.Duration
	// budget replaces the first instance's rate budget.
	budget Budget
	// venues is both instances' view of the venues' states.
	venues Venues
	// takesTips is Config.TakesTips of both instances.
	takesTips func(chain string) bool
	// privateRelay is Config.PrivateRelay of both instances.
	privateRelay func(chain string) bool
	// chains is Config.Chains of both instances.
	chains []string
	// ready is Deps.Ready of both instances.
	ready func() bool
	// js wraps the first instance's JetStream for its pipeline.
	js func(jetstream.JetStream) jetstream.JetStream
	// idem wraps the first instance's idempotency bucket.
	idem func(jetstream.KeyValue) jetstream.KeyValue
	// orders wraps the first instance's orders bucket.
	orders func(jetstream.KeyValue) jetstream.KeyValue
	// log, when set, receives both instances' log.
	log io.Writer
}

// harnessOption changes a harness's configuration.
type harnessOption func(*harnessConfig)

// withJetStream wraps the first instance's JetStream for its pipeline.
func withJetStream(wrap func(jetstream.JetStream) jetstream.JetStream) harnessOption {
	return func(c *harnessConfig) { c.js = wrap }
}

func withLog(w io.Writer) harnessOption {
	return func(c *harnessConfig) { c.log = w }
}

// withIdempotency wraps the first instance's idempotency bucket.
func withIdempotency(wrap func(jetstream.KeyValue) jetstream.KeyValue) harnessOption {
	return func(c *harnessConfig) { c.idem = wrap }
}

// withOrders wraps the first instance's orders bucket.
func withOrders(wrap func(jetstream.KeyValue) jetstream.KeyValue) harnessOption {
	return func(c *harnessConfig) { c.orders = wrap }
}

// withTimeout sets the request timeout of both instances.
func withTimeout(d time.Duration) harnessOption {
	return func(c *harnessConfig) { c.timeout = d }
}

// withBudget gives the first instance (EU and EVM) another rate budget.
func withBudget(b Budget) harnessOption {
	return func(c *harnessConfig) { c.budget = b }
}

// withChains sets the chains both instances' configuration serves.
func withChains(chains ...string) harnessOption {
	return func(c *harnessConfig) { c.chains = chains }
}

// withVenues gives both instances a view of the venues' states.
func withTakesTips(f func(chain string) bool) harnessOption {
	return func(c *harnessConfig) { c.takesTips = f }
}

func withPrivateRelay(f func(chain string) bool) harnessOption {
	return func(c *harnessConfig) { c.privateRelay = f }
}

func withVenues(v Venues) harnessOption {
	return func(c *harnessConfig) { c.venues = v }
}

// budgetNow is the instant the harness's budgets count charges at.
var budgetNow = time.Date(2026, 5, 13, 12, 30, 30, 0, time.UTC)

// newHarness runs two ingress instances (as two processes would: separate
// NATS connections and budgets) on one embedded NATS server: the first
// serves the EU and EVM listeners, the second the US listener.
func newHarness(t testing.TB, limits budget.Limits, chains Availability, opts ...harnessOption) *harness {
	t.Helper()
	cfg := harnessConfig{timeout: time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	b := bustest.Start(t, "ingress-0")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := &staticDirectory{
		keys: map[string]struct {
			account string
			family  wire.Family
		}{solKey: {"acct1", wire.FamilySol}, evmKey: {"acct1", wire.FamilyEVM}, capsKey: {"acct2", wire.FamilySol},
			highCapsKey: {"acct2", wire.FamilyEVM}, highSolCapsKey: {"acct3", wire.FamilySol}},
		wallets: map[string][]string{"acct1/sol": {solW1}, "acct1/evm": {evmW1}, "acct2/sol": {solW1, testCreator, testBuyer}, "acct2/evm": {evmW1},
			"acct3/sol": {solW1}},
		limits: limits,
		caps: map[string]registry.FeeCaps{
			"acct2/sol": {MaxPriorityFee: "0.001", MaxProcessorTip: "0.0005", MaxJitoTip: "0.00002"},
			"acct2/evm": {MaxPriorityFee: "5000", MaxProcessorTip: "5000"},
			"acct3/sol": {MaxPriorityFee: "5000", MaxProcessorTip: "5000", MaxJitoTip: "5000"},
		},
	}
	log := slog.New(slog.DiscardHandler)
	if cfg.log != nil {
		log = slog.New(slog.NewTextHandler(cfg.log, nil))
	}
	h := &harness{t: t, bus: b, trades: b.Buckets.Trades, dir: dir}
	var servers [2]*Server
	for i := range servers {
		nc, js, bk := b.Conn, b.JS, b.Buckets
		if i > 0 {
			nc, js, bk = connect(t, b, fmt.Sprintf("ingress-%d", i))
		}
		// The budget's windows are the real clock's minutes and hours: one
		// rolling over mid-test frees units a test counts on being spent.
		// A fixed instant, mid-minute, keeps every test inside one window.
		var bud Budget = budget.New(bk.Budget, log, budget.WithClock(func() time.Time { return budgetNow }))
		go bud.(*budget.Budget).Run(ctx)
		if i == 0 && cfg.budget != nil {
			bud = cfg.budget
		}
		if i == 0 && cfg.js != nil {
			js = cfg.js(js)
		}
		idem := bk.Idempotency
		if i == 0 && cfg.idem != nil {
			idem = cfg.idem(idem)
		}
		ords := bk.Orders
		if i == 0 && cfg.orders != nil {
			ords = cfg.orders(ords)
		}
		p, err := NewPipeline(nc, js, log)
		if err != nil {
			t.Fatal(err)
		}
		idemStream, err := js.Stream(ctx, bus.KVStream(bus.BucketIdempotency))
		if err != nil {
			t.Fatal(err)
		}
		servers[i], err = New(Config{Listeners: []Listener{{Addr: "127.0.0.1:0", Family: wire.FamilySol, Region: "eu"}},
			RequestTimeout: cfg.timeout, DefaultSlippagePct: 10, TakesTips: cfg.takesTips, PrivateRelay: cfg.privateRelay, Chains: cfg.chains},
			Deps{Directory: dir, Budget: bud, Chains: chains, Pipeline: p, Orders: ords, Trades: bk.Trades, Idempotency: idem, IdempotencyStream: idemStream, Venues: cfg.venues, Ready: cfg.ready,
				Events: events.NewPublisher(b.JS, nil)}, log)
		if err != nil {
			t.Fatal(err)
		}
	}
	h.servers = servers
	h.euH = servers[0].Handler(Listener{Family: wire.FamilySol, Region: "eu"})
	h.eu = httptest.NewServer(h.euH)
	h.us = httptest.NewServer(servers[1].Handler(Listener{Family: wire.FamilySol, Region: "us"}))
	h.evm = httptest.NewServer(servers[0].Handler(Listener{Family: wire.FamilyEVM}))
	t.Cleanup(h.eu.Close)
	t.Cleanup(h.us.Close)
	t.Cleanup(h.evm.Close)
	return h
}

// connect opens another connection to the harness's server, as another
// process would.
func connect(t testing.TB, b *bustest.Bus, name string) (*nats.Conn, jetstream.JetStream, *bus.Buckets) {
	t.Helper()
	nc, err := b.Server.Connect(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	bk, err := bus.OpenBuckets(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js, bk
}

// backlog makes both ingress instances consult b.
func (h *harness) backlog(b *Backlog) {
	for _, s := range h.servers {
		s.deps.Backlog = b
	}
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (a answer) code() string {
	if e, ok := a.body["error"].(map[string]any); ok {
		s, _ := e["code"].(string)
		return s
	}
	return ""
}

func (a answer) details() any {
	if e, ok := a.body["error"].(map[string]any); ok {
		return e["details"]
	}
	return nil
}

func call(t *testing.T, method, url, key, contentType, body string, headers ...string) answer {
	t.Helper()
	a, err := do(method, url, key, contentType, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// do sends one request and reads its JSON answer; unlike call it may run
// on a goroutine of its own.
func do(method, url, key, contentType, body string, headers ...string) (answer, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &a.body); err != nil {
		return a, fmt.Errorf("%s %s: body is not JSON: %q", method, url, raw)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return a, fmt.Errorf("%s %s: content type %q", method, url, ct)
	}
	return a, nil
}

var rateHeaders = []string{"X-RateLimit-Limit-Minute", "X-RateLimit-Limit-Hour", "X-RateLimit-Limit-Week",
	"X-RateLimit-Remaining-Minute", "X-RateLimit-Remaining-Hour", "X-RateLimit-Remaining-Week",
	"X-RateLimit-Reset-Minute", "X-RateLimit-Reset-Hour", "X-RateLimit-Reset-Week"}

func checkRateHeaders(t *testing.T, a answer) {
	t.Helper()
	for _, h := range rateHeaders {
		v := a.header.Get(h)
		var n int64
		if _, err := fmt.Sscan(v, &n); err != nil || n < 0 {
			t.Errorf("header %s = %q (status %d)", h, v, a.status)
		}
	}
}

func TestEnvelopeAndAuth(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, noChains{})
	buy := `{"address":"` + solMint + `","side":"Buy","amount":"0.1"}`
	tests := []struct {
		name, method, url, key, ct, body string
		status                           int
		code                             string
		details                          any
	}{
		{"unknown path", "GET", h.eu.URL + "/api/v1/nope", "", "", "", 404, "NOT_FOUND", nil},
		{"unknown path with key", "GET", h.eu.URL + "/nope", solKey, "", "", 404, "NOT_FOUND", nil},
		{"wrong method", "DELETE", h.eu.URL + "/api/v1/swap", "", "", "", 405, "METHOD_NOT_ALLOWED", nil},
		{"wrong method wallets", "POST", h.eu.URL + "/api/v1/wallets", "", "", "", 405, "METHOD_NOT_ALLOWED", nil},
		{"deploy on evm", "POST", h.evm.URL + "/api/v1/deploy", evmKey, "application/json", "{}", 404, "NOT_FOUND", nil},
		{"no key", "GET", h.eu.URL + "/api/v1/wallets", "", "", "", 401, "UNAUTHORIZED", nil},
		{"no key ping", "GET", h.eu.URL + "/ping", "", "", "", 401, "UNAUTHORIZED", nil},
		{"unknown key", "GET", h.eu.URL + "/api/v1/wallets", "tapi_sol_live_nope", "", "", 401, "UNAUTHORIZED", nil},
		{"evm key on sol", "GET", h.eu.URL + "/api/v1/wallets", evmKey, "", "", 401, "UNAUTHORIZED", nil},
		{"sol key on evm", "GET", h.evm.URL + "/api/v1/wallets", solKey, "", "", 401, "UNAUTHORIZED", nil},
		{"401 before validation", "POST", h.eu.URL + "/api/v1/swap", "", "text/plain", "x", 401, "UNAUTHORIZED", nil},
		{"no content type", "POST", h.eu.URL + "/api/v1/swap", solKey, "", buy, 415, "INVALID_REQUEST", "Content-Type"},
		{"text content type", "POST", h.eu.URL + "/api/v1/swap", solKey, "text/plain", buy, 415, "INVALID_REQUEST", "Content-Type"},
		{"utf-16 charset", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json; charset=utf-16", buy, 415, "INVALID_REQUEST", "Content-Type"},
		{"latin-1 charset", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json; charset=ISO-8859-1", buy, 415, "INVALID_REQUEST", "Content-Type"},
		{"upper-case utf-8 charset", "POST", h.us.URL + "/api/v1/swap", solKey, "application/json; charset=UTF-8", buy, 503, "CHAIN_UNAVAILABLE", "solana"},
		{"too large", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json", `{"x":"` + strings.Repeat("a", 70<<10) + `"}`, 413, "INVALID_REQUEST", "body"},
		{"malformed", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json", `{"address":`, 400, "INVALID_REQUEST", "body"},
		{"broken value", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json", `{"address":"x","amount":tru}`, 400, "INVALID_REQUEST", "amount"},
		{"broken between fields", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json", `{"address":"x","slippage":010}`, 400, "INVALID_REQUEST", "body"},
		{"not owned", "POST", h.eu.URL + "/api/v1/swap", solKey, "application/json; charset=utf-8", `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"` + solMint + `"}]}`, 403, "WALLET_NOT_OWNED", solMint},
		{"chain unavailable", "POST", h.us.URL + "/api/v1/swap", solKey, "application/json", buy, 503, "CHAIN_UNAVAILABLE", "solana"},
		{"unknown order", "GET", h.eu.URL + "/api/v1/orders/eu-nope", solKey, "", "", 404, "NOT_FOUND", "order_id"},
		{"odd order id", "GET", h.eu.URL + "/api/v1/orders/a.b", solKey, "", "", 404, "NOT_FOUND", "order_id"},
		// An escaped slash is no separator: no route and no id holds one.
		{"order id with an escaped slash", "GET", h.eu.URL + "/api/v1/orders/eu-a%2Fb", solKey, "", "", 404, "NOT_FOUND", nil},
		{"route with escaped slashes", "POST", h.eu.URL + "/api%2Fv1%2Fswap", solKey, "application/json", buy, 404, "NOT_FOUND", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := call(t, tt.method, tt.url, tt.key, tt.ct, tt.body)
			if a.status != tt.status || a.code() != tt.code {
				t.Fatalf("got %d %s, want %d %s: %s", a.status, a.code(), tt.status, tt.code, a.raw)
			}
			if a.body["success"] != false {
				t.Fatalf("success = %v", a.body["success"])
			}
			if tt.details != nil && a.details() != tt.details {
				t.Fatalf("details %v, want %v", a.details(), tt.details)
			}
			checkRateHeaders(t, a)
		})
	}
	// A content coding is refused, not read as it stands (a plain body
	// labelled gzip would trade); identity is no coding.
	for _, ce := range []string{"gzip", "br", "deflate, identity"} {
		t.Run("content encoding "+ce, func(t *testing.T) {
			a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", buy, "Content-Encoding", ce)
			if a.status != 415 || a.code() != "INVALID_REQUEST" || a.details() != "Content-Encoding" {
				t.Fatalf("%d %s", a.status, a.raw)
			}
		})
	}
	// A key of the other family is told where it belongs; an unknown one
	// is not told more than that.
	for _, tc := range []struct{ url, key, want string }{
		{h.eu.URL, evmKey, "an API key of the evm family, which this host does not serve: send it to the EVM host"},
		{h.evm.URL, solKey, "an API key of the sol family, which this host does not serve: send it to a Solana host (EU or US)"},
		{h.evm.URL, "tapi_evm_live_nope", "unknown or revoked API key for this host"},
	} {
		a := call(t, "GET", tc.url+"/api/v1/wallets", tc.key, "", "")
		if msg, _ := a.body["error"].(map[string]any)["message"].(string); a.status != 401 || msg != tc.want {
			t.Errorf("%s at %s: %d %s, want 401 %q", tc.key[:14], tc.url, a.status, a.raw, tc.want)
		}
	}
	if a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", buy, "Content-Encoding", "Identity"); a.status != 503 {
		t.Fatalf("identity coding: %d %s", a.status, a.raw)
	}
	// Any other escape is read as what it stands for.
	if a := call(t, "GET", h.eu.URL+"/api/v1/%77allets", solKey, "", ""); a.status != 200 {
		t.Fatalf("an escaped letter in a route: %d %s", a.status, a.raw)
	}
	// Two content types that differ are none: a proxy reading the other
	// one would read another body. The same one twice is that one.
	if a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "", buy, "Content-Type", "application/json", "Content-Type", "text/plain"); a.status != 415 || a.details() != "Content-Type" {
		t.Fatalf("two content types: %d %s", a.status, a.raw)
	}
	if a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "", buy, "Content-Type", "application/json", "Content-Type", "application/json"); a.status != 503 {
		t.Fatalf("one content type given twice: %d %s", a.status, a.raw)
	}
	// The auth scheme is case-insensitive (RFC 9110, section 11.1).
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		t.Run("scheme "+scheme, func(t *testing.T) {
			a := call(t, "GET", h.us.URL+"/ping", "", "", "", "Authorization", scheme+" "+solKey)
			if a.status != 200 {
				t.Fatalf("%d %s", a.status, a.raw)
			}
		})
	}
	t.Run("long order id not echoed", func(t *testing.T) {
		id := strings.Repeat("a", 5000)
		a := call(t, "GET", h.eu.URL+"/api/v1/orders/"+id, solKey, "", "")
		if a.status != 404 || a.code() != "NOT_FOUND" || a.details() != "order_id" || len(a.raw) > 300 {
			t.Fatalf("%d %s", a.status, a.raw)
		}
	})
	t.Run("ping", func(t *testing.T) {
		a := call(t, "GET", h.us.URL+"/ping", solKey, "", "")
		if a.status != 200 || a.raw != `{"success":true,"data":{"pong":true}}` {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		checkRateHeaders(t, a)
	})
	t.Run("wallets", func(t *testing.T) {
		a := call(t, "GET", h.eu.URL+"/api/v1/wallets", solKey, "", "")
		if a.status != 200 || !strings.Contains(a.raw, solW1) {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		checkRateHeaders(t, a)
	})
	t.Run("nothing charged", func(t *testing.T) {
		a := call(t, "GET", h.eu.URL+"/ping", solKey, "", "")
		if a.header.Get("X-RateLimit-Remaining-Minute") != "60" {
			t.Fatalf("remaining %s after uncharged requests", a.header.Get("X-RateLimit-Remaining-Minute"))
		}
	})
}

// TestBudgetExactAcrossIngress fires more requests than the limit at two
// ingress instances at once: exactly the limit succeeds. Skipped buys are
// charged and need no worker, so every success is a charge.
func TestBudgetExactAcrossIngress(t *testing.T) {
	t.Parallel()
	const limit, total = 40, 140
	// The week window is the one spent: a minute or an hour rolling over in
	// the middle of the burst would let more through, rightly.
	h := newHarness(t, budget.Limits{Minute: 1000, Hour: 1000, Week: limit}, allChains{})
	if _, err := h.trades.Put(context.Background(), wire.TradeKey("acct1", wire.FamilySol, "", solMint), []byte("x")); err != nil {
		t.Fatal(err)
	}
	body := `{"address":"` + solMint + `","side":"Buy","amount":"0.1","skip_if_bought":true}`
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < total; i++ {
		url := h.eu.URL
		if i%2 == 1 {
			url = h.us.URL
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := do("POST", url+"/api/v1/swap", solKey, "application/json", body)
			if err != nil {
				t.Error(err)
				return
			}
			checkRateHeaders(t, a)
			switch a.status {
			case 200:
				data := a.body["data"].(map[string]any)
				if data["skipped"] != true || fmt.Sprint(data["signatures"]) != "[]" {
					t.Errorf("skipped answer %s", a.raw)
				}
			case 429:
				if a.code() != "RATE_LIMITED" || a.details() != "week" || a.header.Get("Retry-After") == "" ||
					a.header.Get("X-RateLimit-Remaining-Week") != "0" {
					t.Errorf("429 answer %s %v", a.raw, a.header)
				}
			}
			mu.Lock()
			counts[a.status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counts[200] != limit || counts[429] != total-limit {
		t.Fatalf("statuses %v, want %d x 200 and %d x 429", counts, limit, total-limit)
	}
}

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	if _, err := h.trades.Put(context.Background(), wire.TradeKey("acct1", wire.FamilySol, "", solMint), []byte("x")); err != nil {
		t.Fatal(err)
	}
	body := `{"address":"` + solMint + `","side":"Buy","amount":"0.1","skip_if_bought":true}`
	same := `{ "skip_if_bought": true, "amount": "0.1", "side": "Buy", "address": "` + solMint + `" }`
	first := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "k1")
	if first.status != 200 {
		t.Fatalf("first %d %s", first.status, first.raw)
	}
	// The week window, which does not roll over during the test.
	remaining := first.header.Get("X-RateLimit-Remaining-Week")
	t.Run("repeat on the other host replays", func(t *testing.T) {
		a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", same, "Idempotency-Key", "k1")
		if a.status != 200 || a.raw != first.raw || a.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("repeat %d %s, first %s", a.status, a.raw, first.raw)
		}
		// The other host sees the first charge through its watch of the
		// budget bucket, which may lag: it shows as much or more, never less.
		got, _ := strconv.Atoi(a.header.Get("X-RateLimit-Remaining-Week"))
		if was, _ := strconv.Atoi(remaining); got < was {
			t.Fatalf("repeat charged the budget: remaining %d, was %d", got, was)
		}
	})
	t.Run("numbers spelled otherwise replay", func(t *testing.T) {
		spelled := `{"address":"` + solMint + `","side":"Buy","amount":"0.1","skip_if_bought":true,"slippage":%s}`
		k := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", fmt.Sprintf(spelled, "10"), "Idempotency-Key", "k-num")
		if k.status != 200 {
			t.Fatalf("first %d %s", k.status, k.raw)
		}
		for _, lit := range []string{"10.0", "1e1", "1.0E+1", "10.000"} {
			a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", fmt.Sprintf(spelled, lit), "Idempotency-Key", "k-num")
			if a.status != 200 || a.raw != k.raw || a.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("slippage %s: %d %s, want the replay of slippage 10", lit, a.status, a.raw)
			}
		}
		if a := call(t, "POST", h.us.URL+"/api/v1/swap", solKey, "application/json", fmt.Sprintf(spelled, "10.5"), "Idempotency-Key", "k-num"); a.status != 409 {
			t.Fatalf("slippage 10.5 under the key of slippage 10: %d %s", a.status, a.raw)
		}
	})
	t.Run("other body conflicts", func(t *testing.T) {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", strings.Replace(body, "0.1", "0.2", 1), "Idempotency-Key", "k1")
		if a.status != 409 || a.code() != "IDEMPOTENCY_CONFLICT" {
			t.Fatalf("%d %s", a.status, a.raw)
		}
	})
	t.Run("concurrent repeats get one answer", func(t *testing.T) {
		var wg sync.WaitGroup
		answers := make([]answer, 8)
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if answers[i], err = do("POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "k2"); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		for _, a := range answers {
			if a.status != 200 || a.raw != answers[0].raw {
				t.Fatalf("answers differ: %s vs %s", a.raw, answers[0].raw)
			}
		}
	})
	t.Run("without the header nothing changes", func(t *testing.T) {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body)
		b := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body)
		if a.raw == b.raw {
			t.Fatal("two requests without a key got the same order")
		}
	})
}

// TestIdempotencyNotKeptFor503 checks that an answer that did nothing is not
// replayed: the retry with the same key runs.
func TestIdempotencyNotKeptFor503(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, noChains{})
	body := `{"address":"` + solMint + `","side":"Buy","amount":"0.1"}`
	for i := 0; i < 2; i++ {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body, "Idempotency-Key", "k3")
		if a.status != 503 || a.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("try %d: %d %s replayed=%q", i, a.status, a.raw, a.header.Get("Idempotent-Replayed"))
		}
	}
}

// TestOverloaded fills a chain's queue past the bound: ingress answers 503
// OVERLOADED at once and charges nothing.
func TestOverloaded(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "t")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := b.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer("solana"), FilterSubject: bus.OrdersSubject("solana"), AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := b.JS.Publish(ctx, bus.OrdersSubject("solana"), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	bl := NewBacklog(b.JS, []string{"solana"}, 3, slog.New(slog.DiscardHandler))
	bl.every = 10 * time.Millisecond
	go bl.Run(ctx)
	poll.Until(t, 5*time.Second, "the backlog is seen", func() bool { return bl.Overloaded("solana") })
	if bl.Overloaded("eth") {
		t.Fatal("eth reported overloaded")
	}

	h := newHarness(t, budget.DefaultLimits, allChains{})
	h.backlog(bl)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
	if a.status != 503 || a.code() != "OVERLOADED" || a.header.Get("X-RateLimit-Remaining-Minute") != "60" {
		t.Fatalf("%d %s remaining %s", a.status, a.raw, a.header.Get("X-RateLimit-Remaining-Minute"))
	}
}

// worker stands in for the workers of one chain: it takes every job from
// ORDERS as a worker does, keeps it, and replies to the waiting ingress
// with answer's reply.
type worker struct {
	mu   sync.Mutex
	jobs map[string][][]byte // order id -> every delivery's job
}

// startWorker consumes chain's jobs until the test ends.
func startWorker(t *testing.T, h *harness, chain string, answer func(orderID string, job []byte) *wire.Reply) *worker {
	t.Helper()
	ctx := context.Background()
	cons, err := h.bus.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer(chain), FilterSubject: bus.OrdersSubject(chain), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{jobs: map[string][][]byte{}}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		id := m.Headers().Get(bus.HeaderOrder)
		w.mu.Lock()
		w.jobs[id] = append(w.jobs[id], m.Data())
		w.mu.Unlock()
		bus.Reply(h.bus.Conn, m.Headers().Get(bus.HeaderReply), answer(id, m.Data()))
		_ = m.Ack()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cc.Stop)
	return w
}

// job returns the one job the worker took for an order, decoded.
func (w *worker) job(t *testing.T, orderID string) wire.SwapJob {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.jobs[orderID]); n != 1 {
		t.Fatalf("order %s was delivered %d times, want once", orderID, n)
	}
	var j wire.SwapJob
	if err := json.Unmarshal(w.jobs[orderID][0], &j); err != nil {
		t.Fatal(err)
	}
	return j
}

// deliveries counts the jobs the worker took for an order.
func (w *worker) deliveries(orderID string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.jobs[orderID])
}

// signed answers every job with one signature per order.
func signed(orderID string, _ []byte) *wire.Reply {
	return &wire.Reply{OrderID: orderID, Signatures: []string{"sig-" + orderID}}
}

// sent answers like signed, after storing the order broadcast with its
// signature, as the broadcaster does once it sent the transaction.
func sent(h *harness) func(string, []byte) *wire.Reply {
	store := orders.NewStore(h.bus.Buckets.Orders)
	return func(orderID string, job []byte) *wire.Reply {
		_, err := store.UpdateFrom(context.Background(), orderID, &wire.Order{OrderID: orderID}, orders.Stored{}, func(o *wire.Order) {
			o.State, o.Signatures = wire.StateBroadcast, []wire.SigState{{Signature: "sig-" + orderID, State: wire.StateBroadcast}}
		})
		if err != nil {
			panic(err)
		}
		return signed(orderID, job)
	}
}

// refusedBySigner answers as a signer that refuses the order before
// signing anything, once it stored the order failed.
func refusedBySigner(h *harness) func(string, []byte) *wire.Reply {
	store := orders.NewStore(h.bus.Buckets.Orders)
	return func(orderID string, _ []byte) *wire.Reply {
		e := apierr.New(apierr.InvalidRequest, "the amount buys nothing").WithOrder(orderID)
		_, err := store.UpdateFrom(context.Background(), orderID, &wire.Order{OrderID: orderID}, orders.Stored{}, func(o *wire.Order) {
			o.State, o.Error = wire.StateFailed, ptrTo(e.Body())
		})
		if err != nil {
			panic(err)
		}
		return &wire.Reply{OrderID: orderID, Error: ptrTo(e.Body())}
	}
}

func ptrTo[T any](v T) *T { return &v }

// orderID is the order_id of a swap answer or of its error details.
func (a answer) orderID() string {
	if d, ok := a.body["data"].(map[string]any); ok {
		s, _ := d["order_id"].(string)
		return s
	}
	var det struct {
		OrderID string `json:"order_id"`
	}
	if s, ok := a.details().(string); ok {
		_ = json.Unmarshal([]byte(s), &det)
	}
	return det.OrderID
}

// TestSkipIfBoughtOnEVMIsPerChain: on EVM a token is its chain's, so a buy
// of one address on one chain does not make a buy of the same address on
// another a no-op; a buy without a chain may trade on any, and is skipped
// when any chain has it; the key earlier versions wrote for every chain
// still counts.
func TestSkipIfBoughtOnEVMIsPerChain(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	const onEth, legacy = "0x93310444abcdef0123456789abcdef0123456789", "0x1111111111111111111111111111111111111111"
	for key, token := range map[string]string{wire.TradeKey("acct1", wire.FamilyEVM, wire.ChainEth, onEth): onEth, wire.TradeKey("acct1", wire.FamilyEVM, "", legacy): legacy} {
		if _, err := h.trades.Put(context.Background(), key, []byte(token)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		token, chain string
		skipped      bool
	}{
		{onEth, `"chain":"eth",`, true},
		{strings.ToLower(onEth), `"chain":"ETH",`, true},
		{onEth, ``, true},
		{onEth, `"chain":"arc",`, false},
		{legacy, `"chain":"base",`, true},
	} {
		unnamed, evm := counted(metrics.Orders.WithLabelValues("", "Buy", "skipped")),
			counted(metrics.Orders.WithLabelValues("evm", "Buy", "skipped"))
		body := `{"address":"` + tc.token + `",` + tc.chain + `"side":"Buy","amount":"0.1","skip_if_bought":true}`
		a, err := do("POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json", body)
		if err != nil {
			t.Fatal(err)
		}
		skipped := a.status == 200 && a.body["data"].(map[string]any)["skipped"] == true
		if skipped != tc.skipped || (!tc.skipped && a.status != 504) {
			t.Errorf("%s: %d %s, want skipped %v (else the order goes to the pipeline, which no worker answers here)", body, a.status, a.raw, tc.skipped)
		}
		// A skipped buy that named no chain is counted under evm, as its
		// other outcomes are, not under an empty chain Prometheus drops.
		if n := counted(metrics.Orders.WithLabelValues("", "Buy", "skipped")); n != unnamed {
			t.Errorf("%s: counted under an empty chain", body)
		}
		if n := counted(metrics.Orders.WithLabelValues("evm", "Buy", "skipped")); skipped && tc.chain == "" && n <= evm {
			t.Errorf("%s: skipped, not counted under evm", body)
		}
	}
}

// TestSavedStrategyArmsBuysOnly: a buy without auto_orders carries the
// account's saved strategy to its positions; a sell, which opens none, does
// not carry it into its order.
func TestSavedStrategyArmsBuysOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	h.dir.strategy = []wire.AutoOrder{{Type: wire.ExitTakeProfit, TriggerPct: ptrTo(50.0), SellPct: 100}}
	w := startWorker(t, h, wire.ChainSolana, signed)
	buy := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"slippage":10`))
	sell := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
		`{"address":"`+solMint+`","side":"Sell","wallets":[{"address":"`+solW1+`","amount":"50"}]}`)
	if buy.status != 200 || sell.status != 200 {
		t.Fatalf("buy %d %s, sell %d %s", buy.status, buy.raw, sell.status, sell.raw)
	}
	if got := w.job(t, buy.orderID()).AutoOrders; len(got) != 1 || got[0].Type != wire.ExitTakeProfit {
		t.Fatalf("the buy's auto-orders %+v, want the saved strategy", got)
	}
	if got := w.job(t, sell.orderID()).AutoOrders; len(got) != 0 {
		t.Fatalf("the sell carries auto-orders %+v", got)
	}
}

// atOnceTimeout is the request timeout of the tests whose buys wait for one
// another on a skip_if_bought claim: the last of ten waits for nine round
// trips through the pipeline, which under the race detector on a busy
// machine take more than the harness's one second.
const atOnceTimeout = 15 * time.Second

// TestSkipIfBoughtAtOnce: buys with skip_if_bought of a token the account
// never bought, sent at once to both Solana hosts, buy once: the others
// wait for the first to send and are skipped. Once it failed, the next one
// buys.
func TestSkipIfBoughtAtOnce(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(atOnceTimeout))
	w := startWorker(t, h, wire.ChainSolana, sent(h))
	body := swapWith(solMint, `"skip_if_bought":true`)
	answers := make([]answer, 6)
	var wg sync.WaitGroup
	for i := range answers {
		url := h.eu.URL
		if i%2 == 1 {
			url = h.us.URL
		}
		wg.Go(func() { answers[i] = call(t, "POST", url+"/api/v1/swap", solKey, "application/json", body) })
	}
	wg.Wait()
	var bought []string
	for _, a := range answers {
		if a.status != 200 {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		if a.body["data"].(map[string]any)["skipped"] != true {
			bought = append(bought, a.orderID())
		}
	}
	if len(bought) != 1 {
		t.Fatalf("%d of 6 buys at once went to the pipeline (%v), want one", len(bought), bought)
	}
	w.job(t, bought[0])

	// The buy failed on chain: nothing was bought, and the next one buys.
	store := orders.NewStore(h.bus.Buckets.Orders)
	if err := store.Update(context.Background(), bought[0], nil, func(o *wire.Order) { o.State = wire.StateFailed }); err != nil {
		t.Fatal(err)
	}
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body)
	if a.status != 200 || a.body["data"].(map[string]any)["skipped"] == true {
		t.Fatalf("a buy after the holder failed: %d %s, want it bought", a.status, a.raw)
	}
	w.job(t, a.orderID())
}

// TestSkipIfBoughtAfterARefusalAtOnce: ten buys with skip_if_bought sent at
// once while the signer refuses them before sending anything: none is
// skipped, since none bought; each waited for the one before it to fail.
func TestSkipIfBoughtAfterARefusalAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(atOnceTimeout))
	startWorker(t, h, wire.ChainSolana, refusedBySigner(h))
	body := swapWith(solMint, `"skip_if_bought":true`)
	answers := make([]answer, 10)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body) })
	}
	wg.Wait()
	for _, a := range answers {
		if a.status != 400 || a.code() != "INVALID_REQUEST" {
			t.Fatalf("%d %s, want the signer's 400 for every buy (none skipped)", a.status, a.raw)
		}
	}
}

// TestSkipIfBoughtAtOnceWithAndWithoutChain: on EVM, buys with
// skip_if_bought that name the chain meet on its claim, and buys that name
// none on the address's: sent together, one of each goes on. A buy naming
// no chain meets those naming the chain it resolves to at its worker, which
// claims the token there too (TestSkipIfBoughtAtOnceByMintAndPool in
// shared/service runs both).
func TestSkipIfBoughtAtOnceWithAndWithoutChain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(atOnceTimeout))
	startWorker(t, h, wire.ChainBase, sent(h))
	startWorker(t, h, wire.ChainAnyEVM, sent(h))
	answers := make([]answer, 6)
	var wg sync.WaitGroup
	for i := range answers {
		chain := ""
		if i%2 == 0 {
			chain = `"chain":"base",`
		}
		body := `{"address":"` + evmTok + `",` + chain + `"side":"Buy","amount":"0.1","skip_if_bought":true}`
		wg.Go(func() { answers[i] = call(t, "POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json", body) })
	}
	wg.Wait()
	bought := 0
	for _, a := range answers {
		if a.status != 200 {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		if a.body["data"].(map[string]any)["skipped"] != true {
			bought++
		}
	}
	if bought != 2 {
		t.Fatalf("%d of 6 buys at once, with and without the chain, went to the pipeline, want one of each", bought)
	}
}

// TestNotReadyRefusesOrdersAtOnce: while the process is not ready (its NATS
// connection down, say), an order is answered 503 at once and not charged,
// rather than after each store's timeout.
func TestNotReadyRefusesOrdersAtOnce(t *testing.T) {
	t.Parallel()
	var up atomic.Bool
	h := newHarness(t, budget.DefaultLimits, allChains{}, func(c *harnessConfig) { c.ready = up.Load })
	startWorker(t, h, wire.ChainSolana, signed)
	start := time.Now()
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"slippage":10`), "Idempotency-Key", "not-ready")
	if a.status != 503 || a.code() != "OVERLOADED" || time.Since(start) > 2*time.Second {
		t.Fatalf("%d %s after %s", a.status, a.raw, time.Since(start))
	}
	if a.header.Get("X-RateLimit-Remaining-Minute") != a.header.Get("X-RateLimit-Limit-Minute") {
		t.Fatalf("a refused order was charged: %v", a.header)
	}
	up.Store(true)
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"slippage":10`), "Idempotency-Key", "not-ready"); a.status != 200 {
		t.Fatalf("once ready, the same key: %d %s", a.status, a.raw)
	}
}

// TestNotFoundShowsTheKeysBudget: a 404 or 405 with a key of the host's
// family carries that account's rate figures, as every other answer to
// it does; without a key, or with another family's, the defaults.
func TestNotFoundShowsTheKeysBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.Limits{Minute: 1000, Hour: 1000, Week: 50}, allChains{})
	if _, err := h.trades.Put(context.Background(), wire.TradeKey("acct1", wire.FamilySol, "", solMint), []byte("x")); err != nil {
		t.Fatal(err)
	}
	body := `{"address":"` + solMint + `","side":"Buy","amount":"0.1","skip_if_bought":true}`
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", body); a.status != 200 {
		t.Fatalf("charged order %d %s", a.status, a.raw)
	}
	for _, tc := range []struct {
		name, method, url, key, limit, remaining string
	}{
		{"404 with the key", "GET", h.eu.URL + "/api/v1/nope", solKey, "50", "49"},
		{"405 with the key", "PUT", h.eu.URL + "/api/v1/swap", solKey, "50", "49"},
		{"404 without a key", "GET", h.eu.URL + "/api/v1/nope", "", "10000", "10000"},
		{"404 with another family's key", "GET", h.eu.URL + "/api/v1/nope", evmKey, "10000", "10000"},
	} {
		a := call(t, tc.method, tc.url, tc.key, "", "")
		if a.status != 404 && a.status != 405 {
			t.Fatalf("%s: %d %s", tc.name, a.status, a.raw)
		}
		if a.header.Get("X-RateLimit-Limit-Week") != tc.limit || a.header.Get("X-RateLimit-Remaining-Week") != tc.remaining {
			t.Errorf("%s: week limit %s remaining %s, want %s and %s", tc.name, a.header.Get("X-RateLimit-Limit-Week"),
				a.header.Get("X-RateLimit-Remaining-Week"), tc.limit, tc.remaining)
		}
	}
}

// TestHeadAnswersLikeGet: HEAD on a GET path answers its status and
// headers with no body; on a path that only takes POST it is 405.
func TestHeadAnswersLikeGet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	for _, tc := range []struct {
		url    string
		status int
	}{
		{h.eu.URL + "/ping", 200},
		{h.eu.URL + "/api/v1/wallets", 200},
		{h.evm.URL + "/api/v1/openapi.json", 200},
		{h.eu.URL + "/api/v1/swap", 405},
	} {
		req, _ := http.NewRequest(http.MethodHead, tc.url, nil)
		req.Header.Set("Authorization", "Bearer "+solKey)
		if strings.HasPrefix(tc.url, h.evm.URL) {
			req.Header.Set("Authorization", "Bearer "+evmKey)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || len(body) != 0 || res.Header.Get("X-RateLimit-Limit-Minute") == "" {
			t.Errorf("HEAD %s: %d, %d bytes, headers %v", tc.url, res.StatusCode, len(body), res.Header)
		}
	}
}

// TestOrderSeriesFromTheStart: the order outcome series of every chain
// served, and of the chain "evm" (EVM orders naming no chain) on an EVM
// listener, exist at 0 from the start: rates and panels over them read 0
// rather than no data.
func TestOrderSeriesFromTheStart(t *testing.T) {
	if _, err := New(Config{Listeners: []Listener{{Addr: "127.0.0.1:0", Family: wire.FamilySol, Region: "eu"},
		{Addr: "127.0.0.1:0", Family: wire.FamilyEVM}}, Chains: []string{wire.ChainSolana, wire.ChainBase}},
		Deps{}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	fams, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{wire.ChainSolana: false, wire.ChainAnyEVM: false}
	for _, f := range fams {
		if f.GetName() != "tradeapi_orders_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if _, ok := want[l.GetValue()]; ok && l.GetName() == "chain" {
					want[l.GetValue()] = true
				}
			}
		}
	}
	for chain, seen := range want {
		if !seen {
			t.Errorf("no tradeapi_orders_total series of chain %s", chain)
		}
	}
}

// TestTwoCredentialsAreNone: a request with two different Authorization
// headers is 401, whichever comes first; the same key given twice is the
// key.
func TestTwoCredentialsAreNone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, noChains{})
	send := func(auths ...string) int {
		t.Helper()
		req, err := http.NewRequest("GET", h.eu.URL+"/api/v1/wallets", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range auths {
			req.Header.Add("Authorization", "Bearer "+a)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := send(solKey, "tapi_sol_live_other"); s != 401 {
		t.Fatalf("the key, then another: %d", s)
	}
	if s := send("tapi_sol_live_other", solKey); s != 401 {
		t.Fatalf("another key, then the key: %d", s)
	}
	if s := send(solKey, solKey); s != 200 {
		t.Fatalf("the key twice: %d", s)
	}
}
