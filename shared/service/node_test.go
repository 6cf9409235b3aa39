package service

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// startUp runs the whole service in one process on free ports.
func startUp(t *testing.T, tune func(*config.Config)) (*Up, config.Config) {
	return startUpLog(t, tune, slog.New(slog.DiscardHandler))
}

func startUpLog(t *testing.T, tune func(*config.Config), log *slog.Logger) (*Up, config.Config) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		cfg := config.Default()
		cfg.DataDir = t.TempDir()
		a := freeAddrs(t, 6)
		cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
		cfg.Devnet.Addr = a[5]
		if tune != nil {
			tune(&cfg)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		u := NewUp(cfg, log, io.Discard)
		stop, err := u.Start(60 * time.Second)
		if err != nil && attempt < 3 && (errors.Is(err, syscall.EADDRINUSE) || strings.Contains(err.Error(), "address already in use")) {
			// Another process took a port between its pick and the bind.
			t.Logf("start on other ports: %v", err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := stop(10 * time.Second); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		return u, cfg
	}
}

// runUp starts u for the test and stops it at the test's end.
func runUp(t testing.TB, u *Up) {
	t.Helper()
	stop, err := u.Start(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(10 * time.Second); err != nil {
			t.Errorf("run: %v", err)
		}
	})
}

type reply struct {
	Status int
	Header http.Header
	Body   struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Code    string  `json:"code"`
			Message string  `json:"message"`
			Details *string `json:"details"`
		} `json:"error"`
	}
	Raw string
}

func (r reply) code() string {
	if r.Body.Error == nil {
		return ""
	}
	return r.Body.Error.Code
}

func do(t testing.TB, method, url, token string, body any) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Header: resp.Header, Raw: string(raw)}
	if err := json.Unmarshal(raw, &r.Body); err != nil {
		t.Fatalf("%s %s: not JSON: %q", method, url, raw)
	}
	return r
}

// demoToken is the address of the demo token of venue on chain.
func demoToken(t testing.TB, u *Up, chain, venue string) string {
	t.Helper()
	for _, tk := range u.Demo.Tokens {
		if tk.Chain == chain && tk.Venue == venue {
			return tk.Address
		}
	}
	t.Fatalf("no demo %s token on %s in %+v", venue, chain, u.Demo.Tokens)
	return ""
}

type swapData struct {
	OrderID    string   `json:"order_id"`
	Signatures []string `json:"signatures"`
	Skipped    bool     `json:"skipped"`
}

type orderData struct {
	OrderID    string `json:"order_id"`
	State      string `json:"state"`
	Signatures []struct {
		Signature, Wallet, State string
	} `json:"signatures"`
}

func waitOrder(t testing.TB, base, key, id, state string) orderData {
	t.Helper()
	var r reply
	var o orderData
	if !poll.True(10*time.Second, func() bool {
		r = do(t, "GET", base+"/api/v1/orders/"+id, key, nil)
		o = orderData{}
		_ = json.Unmarshal(r.Body.Data, &o)
		return r.Status == 200 && o.State == state
	}) {
		t.Fatalf("order %s: %s, want state %s", id, r.Raw, state)
	}
	return o
}

func TestUpEndToEnd(t *testing.T) {
	// A request timeout a loaded machine's slowest order here (an EVM sale
	// naming no chain, which looks on every chain) keeps well inside.
	u, cfg := startUp(t, func(c *config.Config) { c.Pipeline.RequestTimeout = 8 * time.Second })
	eu, us := "http://"+cfg.Listen.SolEU, "http://"+cfg.Listen.SolUS
	key := u.Demo.SolKey
	if key == "" || u.Demo.EVMKey == "" {
		t.Fatal("demo keys not returned")
	}
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")

	t.Run("ping and wallets", func(t *testing.T) {
		if r := do(t, "GET", us+"/ping", key, nil); r.Status != 200 || r.Raw != `{"success":true,"data":{"pong":true}}` {
			t.Fatalf("ping %d %s", r.Status, r.Raw)
		}
		r := do(t, "GET", eu+"/api/v1/wallets", key, nil)
		if r.Status != 200 || !strings.Contains(r.Raw, `"label":"W1"`) || !strings.Contains(r.Raw, `"label":"W3"`) {
			t.Fatalf("wallets %d %s", r.Status, r.Raw)
		}
	})

	var buy swapData
	t.Run("buy on every spot wallet", func(t *testing.T) {
		r := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "0.1", "slippage": 10, "priority_fee": 0.0001, "processor_tip": 0.0001})
		if r.Status != 200 {
			t.Fatalf("buy %d %s", r.Status, r.Raw)
		}
		_ = json.Unmarshal(r.Body.Data, &buy)
		if !strings.HasPrefix(buy.OrderID, "eu-") || len(buy.Signatures) != 3 || buy.Skipped {
			t.Fatalf("buy %s", r.Raw)
		}
		o := waitOrder(t, us, key, buy.OrderID, "confirmed")
		for _, s := range o.Signatures {
			if s.State != "confirmed" {
				t.Fatalf("signature %+v", s)
			}
		}
	})

	t.Run("skip_if_bought", func(t *testing.T) {
		r := do(t, "POST", us+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "0.1", "skip_if_bought": true})
		var d swapData
		_ = json.Unmarshal(r.Body.Data, &d)
		if r.Status != 200 || !d.Skipped || d.Signatures == nil || len(d.Signatures) != 0 || !strings.HasPrefix(d.OrderID, "us-") {
			t.Fatalf("skip %d %s", r.Status, r.Raw)
		}
	})

	t.Run("sell half then all", func(t *testing.T) {
		for _, amt := range []string{"50", "100"} {
			r := do(t, "POST", us+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Sell", "amount": amt, "slippage": 10})
			var d swapData
			_ = json.Unmarshal(r.Body.Data, &d)
			if r.Status != 200 || len(d.Signatures) != 3 {
				t.Fatalf("sell %s%%: %d %s", amt, r.Status, r.Raw)
			}
			waitOrder(t, eu, key, d.OrderID, "confirmed")
		}
		r := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Sell", "amount": "100"})
		if r.Status != 422 || r.code() != "INSUFFICIENT_BALANCE" {
			t.Fatalf("sell with nothing left: %d %s", r.Status, r.Raw)
		}
	})

	t.Run("pumpswap and anti-mev", func(t *testing.T) {
		var pool string
		for _, tk := range u.Demo.Tokens {
			if tk.Chain == "solana" && tk.Venue == "pumpswap" {
				pool = tk.Address
			}
		}
		if pool == "" {
			t.Fatalf("no demo pumpswap coin in %+v", u.Demo.Tokens)
		}
		for _, body := range []map[string]any{
			{"address": pool, "side": "Buy", "amount": "0.05", "slippage": 10},
			{"address": mint, "side": "Buy", "amount": "0.01", "slippage": 10, "anti_mev": true, "processor_tip": 0.00001},
			{"address": pool, "side": "Sell", "amount": "100", "slippage": 10, "auto_tip": true},
		} {
			r := do(t, "POST", eu+"/api/v1/swap", key, body)
			var d swapData
			_ = json.Unmarshal(r.Body.Data, &d)
			if r.Status != 200 || len(d.Signatures) != 3 {
				t.Fatalf("%v: %d %s", body, r.Status, r.Raw)
			}
			waitOrder(t, us, key, d.OrderID, "confirmed")
		}
	})

	t.Run("business errors", func(t *testing.T) {
		r := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "100000"})
		if r.Status != 422 || r.code() != "INSUFFICIENT_BALANCE" || r.Body.Error.Details == nil {
			t.Fatalf("too big a buy: %d %s", r.Status, r.Raw)
		}
		r = do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": "So11111111111111111111111111111111111111112", "side": "Buy", "amount": "0.1"})
		if r.Status != 404 || r.code() != "TOKEN_NOT_FOUND" {
			t.Fatalf("no curve: %d %s", r.Status, r.Raw)
		}
	})

	t.Run("evm buy and sell", func(t *testing.T) {
		evm := "http://" + cfg.Listen.EVM
		tokens := map[string]string{}
		for _, tk := range u.Demo.Tokens {
			if tk.Venue == "v2" {
				tokens[tk.Chain] = tk.Address
			}
		}
		if len(tokens) != 5 {
			t.Fatalf("demo EVM tokens %+v", u.Demo.Tokens)
		}
		for _, chain := range []string{"base", "bsc"} {
			r := do(t, "POST", evm+"/api/v1/swap", u.Demo.EVMKey, map[string]any{
				"address": tokens[chain], "side": "Buy", "amount": "0.01", "chain": strings.ToUpper(chain), "slippage": 5})
			var d swapData
			_ = json.Unmarshal(r.Body.Data, &d)
			if r.Status != 200 || !strings.HasPrefix(d.OrderID, "evm-") || len(d.Signatures) != 2 {
				t.Fatalf("%s buy: %d %s", chain, r.Status, r.Raw)
			}
			waitOrder(t, evm, u.Demo.EVMKey, d.OrderID, "confirmed")
		}
		// No chain: the token is found where it trades.
		r := do(t, "POST", evm+"/api/v1/swap", u.Demo.EVMKey, map[string]any{
			"address": tokens["base"], "side": "Sell", "amount": "100", "slippage": 5})
		var d swapData
		_ = json.Unmarshal(r.Body.Data, &d)
		if r.Status != 200 || len(d.Signatures) == 0 {
			t.Fatalf("sell without chain: %d %s", r.Status, r.Raw)
		}
		o := waitOrder(t, evm, u.Demo.EVMKey, d.OrderID, "confirmed")
		if len(o.Signatures) < 2 {
			t.Fatalf("sell order %+v", o)
		}
	})

	t.Run("stopped chain times out with the order id", func(t *testing.T) {
		u.Devnet.Pause()
		defer u.Devnet.Resume()
		r := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "0.1"})
		if r.Status != 504 || r.code() != "UPSTREAM_TIMEOUT" || r.Body.Error.Details == nil {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		var d struct {
			OrderID string `json:"order_id"`
		}
		if err := json.Unmarshal([]byte(*r.Body.Error.Details), &d); err != nil || d.OrderID == "" {
			t.Fatalf("details %q", *r.Body.Error.Details)
		}
		if o := do(t, "GET", us+"/api/v1/orders/"+d.OrderID, key, nil); o.Status != 200 {
			t.Fatalf("order lookup after 504: %d %s", o.Status, o.Raw)
		}
	})

	t.Run("metrics of every role pass promlint", func(t *testing.T) {
		resp, err := http.Get("http://" + cfg.Listen.Metrics + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		problems, err := promlint.New(bytes.NewReader(body)).Lint()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("promlint: %s: %s", p.Metric, p.Text)
		}
		// Every role has reported by now.
		for _, name := range []string{"tradeapi_http_requests_total", "tradeapi_orders_total", "tradeapi_stage_duration_seconds",
			"tradeapi_transactions_total", "tradeapi_jetstream_consumer_pending_messages"} {
			if !strings.Contains(string(body), name) {
				t.Errorf("/metrics has no %s", name)
			}
		}
	})

	t.Run("rare counters exist from the start", func(t *testing.T) {
		resp, err := http.Get("http://" + cfg.Listen.Metrics + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		// Series no order of this test has touched: each must be there, at
		// 0, for rate() and increase() to see its first event.
		for _, series := range []string{
			`tradeapi_http_requests_total{code="413",listener="sol_us",route="/api/v1/deploy"}`,
			`tradeapi_http_requests_total{code="502",listener="evm",route="/api/v1/swap"}`,
			`tradeapi_orders_total{chain="base",outcome="BROADCAST_FAILED",side="Sell"}`,
			`tradeapi_orders_total{chain="solana",outcome="VENUE_PAUSED",side="deploy"}`,
			`tradeapi_orders_final_total{chain="base",state="expired",venue="uniswap_v3"}`,
			`tradeapi_orders_final_total{chain="solana",state="failed",venue="dbc"}`,
			`tradeapi_rpc_errors_total{chain="base",method="resend"}`,
			`tradeapi_rpc_errors_total{chain="solana",method="send"}`,
			`tradeapi_exits_deferred_total{chain="solana",reason="stopped"}`,
			`tradeapi_exits_deferred_total{chain="base",reason="venue_paused"}`,
			`tradeapi_workers{chain="solana"}`,
			`tradeapi_workers{chain="arc"}`,
			// The evm catch-all's workers, beside the named chains'.
			`tradeapi_workers{chain="evm"}`,
			// The embedded NATS server's file store.
			`tradeapi_nats_store_bytes`,
			`tradeapi_nats_max_store_bytes`,
		} {
			if !strings.Contains(string(body), series+" ") {
				t.Errorf("/metrics has no %s", series)
			}
		}
	})

	t.Run("health", func(t *testing.T) {
		for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
			resp, err := http.Get("http://" + cfg.Listen.Metrics + p)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%s: %v %v", p, err, resp)
			}
			resp.Body.Close()
		}
		if r, err := http.Get(eu + "/metrics"); err != nil || r.StatusCode != 404 {
			t.Fatalf("metrics on the API listener: %v", r)
		}
	})

	t.Run("revoked key is refused within a second", func(t *testing.T) {
		admin := "http://" + cfg.Listen.Admin
		tok := u.Secrets.AdminToken
		r := do(t, "POST", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/keys", tok, map[string]any{"family": "sol", "name": "bot"})
		var k struct{ ID, Key string }
		_ = json.Unmarshal(r.Body.Data, &k)
		if r.Status != 201 || k.Key == "" {
			t.Fatalf("create key %d %s", r.Status, r.Raw)
		}
		waitStatus(t, eu+"/ping", k.Key, 200)
		if r := do(t, "DELETE", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/keys/"+k.ID, tok, nil); r.Status != 200 {
			t.Fatalf("revoke %d %s", r.Status, r.Raw)
		}
		start := time.Now()
		waitStatus(t, us+"/ping", k.Key, 401)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("revocation took %s", d)
		}
	})
}

func waitStatus(t *testing.T, url, key string, status int) {
	t.Helper()
	var r reply
	if !poll.True(5*time.Second, func() bool {
		r = do(t, "GET", url, key, nil)
		return r.Status == status
	}) {
		t.Fatalf("%s: %d %s, want %d", url, r.Status, r.Raw, status)
	}
}

// TestUpRestartKeepsState stops the service and starts it again on the same
// data folder: the demo account is not made twice, its keys still work, and
// orders of the first run can still be looked up.
func TestUpRestartKeepsState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var key, mint, orderID string
	var cfg config.Config
	t.Run("first start", func(t *testing.T) {
		u, c := startUp(t, func(c *config.Config) { c.DataDir = dir })
		cfg = c
		key = u.Demo.SolKey
		for _, tk := range u.Demo.Tokens {
			if tk.Venue == "pump_fun" {
				mint = tk.Address
			}
		}
		r := do(t, "POST", "http://"+c.Listen.SolEU+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "0.05"})
		var d swapData
		_ = json.Unmarshal(r.Body.Data, &d)
		if r.Status != 200 {
			t.Fatalf("buy %d %s", r.Status, r.Raw)
		}
		orderID = d.OrderID
		waitOrder(t, "http://"+c.Listen.SolEU, key, orderID, "confirmed")
	}) // its cleanup stops the service
	u, c := startUp(t, func(c *config.Config) { *c = cfg; c.DataDir = dir })
	if u.Demo != nil && u.Demo.SolKey != "" {
		t.Fatal("a second demo account was made")
	}
	if r := do(t, "GET", "http://"+c.Listen.SolUS+"/api/v1/orders/"+orderID, key, nil); r.Status != 200 || !strings.Contains(r.Raw, `"state":"confirmed"`) {
		t.Fatalf("order after restart: %d %s", r.Status, r.Raw)
	}
	waitStatus(t, "http://"+c.Listen.SolEU+"/ping", key, 200)
	// The local chain kept its state: the demo wallets still hold the coin
	// and can sell it.
	r := do(t, "POST", "http://"+c.Listen.SolEU+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Sell", "amount": "100"})
	if r.Status != 200 {
		t.Fatalf("sell after restart: %d %s", r.Status, r.Raw)
	}
}

// TestNoSecretsInLogs runs requests that touch every secret (API keys, the
// admin token, an imported private key, bad keys) with debug logging on and
// searches the log for them.
func TestNoSecretsInLogs(t *testing.T) {
	t.Parallel()
	var sink logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&sink, &slog.HandlerOptions{Level: slog.LevelDebug}))
	u, cfg := startUpLog(t, nil, log)
	eu, admin := "http://"+cfg.Listen.SolEU, "http://"+cfg.Listen.Admin
	key, tok := u.Demo.SolKey, u.Secrets.AdminToken
	do(t, "GET", eu+"/api/v1/wallets", key, nil)
	do(t, "GET", eu+"/api/v1/wallets", key+"x", nil)
	do(t, "GET", admin+"/admin/v1/accounts", tok+"x", nil)
	imported := "4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4LF8ZRR9yQBhc7uYM4tk3hxdoefrnmdx7HjE"
	do(t, "POST", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/wallets/import", tok, map[string]any{"family": "sol", "private_key": imported})
	do(t, "POST", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/wallets/import", tok, map[string]any{"family": "sol", "private_key": imported + "zz"})
	r := do(t, "POST", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/keys", tok, map[string]any{"family": "evm", "name": "x"})
	var k struct{ Key string }
	_ = json.Unmarshal(r.Body.Data, &k)
	do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": "So11111111111111111111111111111111111111112", "side": "Buy", "amount": "0.1"})

	out := sink.String()
	if !strings.Contains(out, "order refused") {
		t.Fatalf("the log does not show the pipeline at work:\n%s", out)
	}
	master := hex.EncodeToString(u.Secrets.MasterKey)
	for name, secret := range map[string]string{"sol key": key, "evm key": u.Demo.EVMKey, "new key": k.Key,
		"admin token": tok, "master key": master, "imported private key": imported[:40]} {
		if secret == "" {
			t.Fatalf("%s is empty", name)
		}
		if strings.Contains(out, secret) {
			t.Errorf("the log contains the %s", name)
		}
		if i := strings.LastIndexByte(secret, '_'); i > 0 && strings.Contains(out, secret[i+1:]) {
			t.Errorf("the log contains the secret part of the %s", name)
		}
	}
}

// TestUpShowsATokenAnEarlierStartMade: a first start that failed after it
// made the admin token never showed it; the next start that comes up shows
// it, once.
func TestUpShowsATokenAnEarlierStartMade(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 6)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet.Addr = a[5]
	// What the failed start left: the token, and the mark that it is
	// still to be shown.
	secrets, created, err := registry.LoadOrCreateSecrets(cfg.DataDir, "", "")
	if err != nil || !created {
		t.Fatalf("secrets: %v %v", created, err)
	}
	if err := os.WriteFile(adminTokenUnshownPath(cfg.DataDir), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var out logtest.Buffer
	u := NewUp(cfg, slog.New(slog.DiscardHandler), &out)
	stop, err := u.Start(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), secrets.AdminToken) {
		t.Fatalf("the banner does not show the admin token:\n%s", out.String())
	}
	if _, err := os.Stat(adminTokenUnshownPath(cfg.DataDir)); !os.IsNotExist(err) {
		t.Fatalf("the token is still marked unshown: %v", err)
	}
	if err := stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The start after: the token is not shown again, but where it is.
	var again logtest.Buffer
	runUp(t, NewUp(cfg, slog.New(slog.DiscardHandler), &again))
	if strings.Contains(again.String(), secrets.AdminToken) || !strings.Contains(again.String(), registry.AdminTokenPath(cfg.DataDir)) {
		t.Fatalf("the next banner shows the token, or not where it is:\n%s", again.String())
	}
}

// TestFirstStartFailingKeepsTheDemoKeys: a first start that fails because
// another process holds a listener's address says so without a banner
// (a readiness check that dialled the address reached the other process,
// and the banner said the service was up), and the next start shows the
// demo account's keys the failed one made (they were lost: only their
// hashes are stored), which then work.
func TestFirstStartFailingKeepsTheDemoKeys(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 6)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet.Addr = a[5]
	holder, err := net.Listen("tcp", cfg.Listen.EVM)
	if err != nil {
		t.Fatal(err)
	}
	var first logtest.Buffer
	if stop, err := NewUp(cfg, slog.New(slog.DiscardHandler), &first).Start(60 * time.Second); err == nil {
		_ = stop(10 * time.Second)
		t.Fatal("started with its EVM address held by another process")
	} else if !strings.Contains(err.Error(), cfg.Listen.EVM) {
		t.Fatalf("the failed start says %v, not naming the address", err)
	}
	if strings.Contains(first.String(), "tradeapi is up") {
		t.Fatalf("the failed start printed its banner:\n%s", first.String())
	}
	holder.Close()
	var out logtest.Buffer
	u := NewUp(cfg, slog.New(slog.DiscardHandler), &out)
	runUp(t, u)
	if u.Demo == nil || u.Demo.SolKey == "" || !strings.Contains(out.String(), u.Demo.SolKey) || !strings.Contains(out.String(), u.Demo.EVMKey) {
		t.Fatalf("the next start does not show the demo keys:\n%s", out.String())
	}
	if r := do(t, "GET", "http://"+cfg.Listen.SolEU+"/api/v1/wallets", u.Demo.SolKey, nil); r.Status != 200 {
		t.Fatalf("the demo key shown: %d %s", r.Status, r.Raw)
	}
	// Its lines that trade too: a buy, a sale, a launch, an EVM buy.
	for _, want := range []string{`"side":"Buy"`, `"side":"Sell"`, "/api/v1/deploy", `"chain":"base"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the next start's banner lacks its %s line:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(demoKeysUnshownPath(cfg.DataDir)); !os.IsNotExist(err) {
		t.Fatalf("the keys are still kept after the banner: %v", err)
	}
}
