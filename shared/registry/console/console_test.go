package console_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/freeport"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/registry/console"
	"github.com/tradeapi/tradeapi/shared/service"
)

// running is the whole service in one process, on free ports.
type running struct {
	up  *service.Up
	cfg config.Config
	log *logtest.Buffer
}

func (s *running) admin() string { return "http://" + s.cfg.Listen.Admin }
func (s *running) solEU() string { return "http://" + s.cfg.Listen.SolEU }

// freeAddrs returns n distinct 127.0.0.1 addresses for the service, below
// the ephemeral range (freeport).
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	out, err := freeport.Addrs(n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func startService(t *testing.T) *running {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 6)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet.Addr = a[5]
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	logs := &logtest.Buffer{}
	up := service.NewUp(cfg, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), io.Discard)
	stop, err := up.Start(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(10 * time.Second); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	return &running{up: up, cfg: cfg, log: logs}
}

// reply is an answer of the public or admin API.
type reply struct {
	status int
	header http.Header
	data   json.RawMessage
	code   string
}

func call(t *testing.T, method, url string, hdr map[string]string, body any) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Data  json.RawMessage `json:"data"`
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	r := reply{status: resp.StatusCode, header: resp.Header}
	if json.Unmarshal(raw, &env) == nil {
		r.data = env.Data
		if env.Error != nil {
			r.code = env.Error.Code
		}
	}
	return r
}

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

type wallet struct {
	Address    string `json:"address"`
	Label      string `json:"label"`
	SpotActive bool   `json:"spot_active"`
}

// publicWallets is the public wallet listing of a key.
func publicWallets(t *testing.T, s *running, key string) (int, []wallet) {
	t.Helper()
	r := call(t, "GET", s.solEU()+"/api/v1/wallets", bearer(key), nil)
	var d struct {
		Wallets []wallet `json:"wallets"`
	}
	if r.status == http.StatusOK {
		if err := json.Unmarshal(r.data, &d); err != nil {
			t.Fatalf("wallet listing: %v", err)
		}
	}
	return r.status, d.Wallets
}

// TestSecurityHeadersAndBrowserGuard checks, over plain HTTP, what the
// browser test relies on: the console's headers, and that a browser's
// cross-site or header-less state-changing call is refused while the CLI's
// calls (no Origin) work as before.
func TestSecurityHeadersAndBrowserGuard(t *testing.T) {
	s := startService(t)
	tok := s.up.Secrets.AdminToken

	for _, path := range []string{"/console/", "/console/app.js", "/console/app.css"} {
		r := call(t, "GET", s.admin()+path, nil, nil)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d", path, r.status)
		}
		if got := r.header.Get("Content-Security-Policy"); got != console.CSP {
			t.Errorf("%s CSP %q", path, got)
		}
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
			if got := r.header.Get(h); got != want {
				t.Errorf("%s %s = %q, want %q", path, h, got, want)
			}
		}
	}
	if r := call(t, "POST", s.admin()+"/console/", nil, map[string]string{}); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /console/: %d", r.status)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(s.admin() + "/console")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/console/" {
		t.Errorf("/console: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	self := "http://" + s.cfg.Listen.Admin
	with := func(extra map[string]string) map[string]string {
		h := bearer(tok)
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	body := map[string]string{"name": "guarded"}
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"cli: no browser headers", with(nil), http.StatusCreated},
		{"console: same origin with the header", with(map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin", console.CSRFHeader: "1"}), http.StatusCreated},
		{"same origin without the header", with(map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}), http.StatusForbidden},
		{"cross-site origin", with(map[string]string{"Origin": "http://evil.example", console.CSRFHeader: "1"}), http.StatusForbidden},
		{"opaque origin", with(map[string]string{"Origin": "null", console.CSRFHeader: "1"}), http.StatusForbidden},
		{"cross-site fetch metadata", with(map[string]string{"Sec-Fetch-Site": "cross-site", console.CSRFHeader: "1"}), http.StatusForbidden},
		{"cross-site without a token", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, "POST", s.admin()+"/admin/v1/accounts", tt.hdr, body)
			if r.status != tt.status || (tt.status == http.StatusForbidden && r.code != "FORBIDDEN") {
				t.Fatalf("status %d (%s), want %d", r.status, r.code, tt.status)
			}
		})
	}
	// A browser's read needs no header; a cross-site read is refused.
	if r := call(t, "GET", s.admin()+"/admin/v1/accounts", with(map[string]string{"Origin": self}), nil); r.status != http.StatusOK {
		t.Errorf("same-origin read: %d", r.status)
	}
	if r := call(t, "GET", s.admin()+"/admin/v1/accounts", with(map[string]string{"Sec-Fetch-Site": "cross-site"}), nil); r.status != http.StatusForbidden {
		t.Errorf("cross-site read: %d", r.status)
	}
	// API answers carry the same protective headers.
	r := call(t, "GET", s.admin()+"/admin/v1/accounts", bearer(tok), nil)
	if r.header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("API headers: %v", r.header)
	}
}
