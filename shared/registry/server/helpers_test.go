package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	devsol "github.com/tradeapi/tradeapi/shared/devnet/solana"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// testBus is an embedded NATS server with JetStream and the declared
// buckets.
type testBus struct {
	srv        *bus.Server
	nc         *nats.Conn
	js         jetstream.JetStream
	registry   jetstream.KeyValue
	walletKeys jetstream.KeyValue
}

func testLogger(*testing.T) *slog.Logger {
	if os.Getenv("REGISTRY_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.DiscardHandler)
}

func startBus(t *testing.T) *testBus {
	t.Helper()
	b := bustest.Start(t, "registry-test")
	return &testBus{srv: b.Server, nc: b.Conn, js: b.JS, registry: b.Buckets.Registry, walletKeys: b.Buckets.WalletKeys}
}

// testRegistry is a running registry over a data folder.
type testRegistry struct {
	reg     *Registry
	secrets registry.Secrets
	dataDir string
	url     string
	stop    func()
}

// startRegistry runs a registry on a free port and waits until it is ready.
func startRegistry(t *testing.T, b *testBus, dataDir string, devnet devnet.Devnet) *testRegistry {
	t.Helper()
	return startRegistryDevnet(t, b, Config{DataDir: dataDir}, devnet)
}

// startRegistryDevnet is startRegistry with more of the configuration.
func startRegistryDevnet(t *testing.T, b *testBus, cfg Config, devnet devnet.Devnet) *testRegistry {
	t.Helper()
	dataDir := cfg.DataDir
	cfg.AdminAddr = "127.0.0.1:0"
	sec, _, err := registry.LoadOrCreateSecrets(dataDir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := New(cfg, b.js, sec, devnet, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- reg.Run(ctx) }()
	select {
	case <-reg.Ready():
	case err := <-done:
		cancel()
		t.Fatalf("registry stopped before ready: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("registry not ready after 10s")
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("registry run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("registry did not stop within 10s")
		}
	}
	t.Cleanup(stop)
	return &testRegistry{reg: reg, secrets: sec, dataDir: dataDir, url: "http://" + reg.Addr(), stop: stop}
}

// startView runs a view of the registry bucket and waits until it is loaded.
func startView(t *testing.T, b *testBus) *registry.View {
	t.Helper()
	v := registry.NewView(b.registry, testLogger(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("view run: %v", err)
		}
	})
	select {
	case <-v.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("view not ready after 10s")
	}
	return v
}

// answer is a decoded envelope.
type answer struct {
	Status  int
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string  `json:"code"`
		Message string  `json:"message"`
		Details *string `json:"details"`
	} `json:"error"`
	Raw string
}

func (a answer) code() string {
	if a.Error == nil {
		return ""
	}
	return a.Error.Code
}

func (a answer) details() string {
	if a.Error == nil || a.Error.Details == nil {
		return ""
	}
	return *a.Error.Details
}

// do sends a request to the admin API with the admin token. body is
// marshalled unless it is a string, which is sent as is.
func (tr *testRegistry) do(t *testing.T, method, path string, body any) answer {
	t.Helper()
	return doRequest(t, tr.url, "Bearer "+tr.secrets.AdminToken, method, path, body, "application/json")
}

func doRequest(t *testing.T, base, auth, method, path string, body any, contentType string) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			raw, err := json.Marshal(b)
			if err != nil {
				t.Fatal(err)
			}
			rd = bytes.NewReader(raw)
		}
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != nil && contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{Status: resp.StatusCode, Raw: string(raw)}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s %s: not JSON (%d): %q", method, path, resp.StatusCode, raw)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	return a
}

func decodeData[T any](t *testing.T, a answer) T {
	t.Helper()
	var v T
	if !a.Success {
		t.Fatalf("want success, got %d %s", a.Status, a.Raw)
	}
	if err := json.Unmarshal(a.Data, &v); err != nil {
		t.Fatalf("decode %s: %v", a.Data, err)
	}
	return v
}

// createAccount makes an account through the admin API and returns its id.
func (tr *testRegistry) createAccount(t *testing.T, name string) string {
	t.Helper()
	a := tr.do(t, http.MethodPost, "/admin/v1/accounts", map[string]any{"name": name})
	if a.Status != http.StatusCreated {
		t.Fatalf("create account: %d %s", a.Status, a.Raw)
	}
	return decodeData[accountSummary](t, a).ID
}

type createdKey struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Family string `json:"family"`
	Key    string `json:"key"`
}

func (tr *testRegistry) createKey(t *testing.T, account, family string) createdKey {
	t.Helper()
	a := tr.do(t, http.MethodPost, "/admin/v1/accounts/"+account+"/keys", map[string]any{"family": family, "name": "k"})
	if a.Status != http.StatusCreated {
		t.Fatalf("create key: %d %s", a.Status, a.Raw)
	}
	return decodeData[createdKey](t, a)
}

func (tr *testRegistry) createWallets(t *testing.T, account, family string, count int, active bool) []registry.Wallet {
	t.Helper()
	a := tr.do(t, http.MethodPost, "/admin/v1/accounts/"+account+"/wallets",
		map[string]any{"family": family, "count": count, "spot_active": active})
	if a.Status != http.StatusCreated {
		t.Fatalf("create wallets: %d %s", a.Status, a.Raw)
	}
	return decodeData[struct{ Wallets []registry.Wallet }](t, a).Wallets
}

// startSolana runs the local Solana chain on a free port with its devnet
// client.
func startSolana(t *testing.T) (*devsol.Chain, *devnet.SolanaDevnet) {
	t.Helper()
	chain := devsol.New(devsol.Config{SlotDuration: 50 * time.Millisecond})
	url, err := chain.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	return chain, devnet.NewSolanaDevnet(devnet.SolanaDevnetConfig{RPCURL: url, RelayURL: url + "/bundles"})
}
