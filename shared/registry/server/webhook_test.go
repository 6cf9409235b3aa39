package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// startRegistryWith runs a registry with a given config on a free port.
func startRegistryWith(t *testing.T, b *testBus, cfg Config) *testRegistry {
	t.Helper()
	sec, _, err := registry.LoadOrCreateSecrets(cfg.DataDir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	cfg.AdminAddr = "127.0.0.1:0"
	reg, err := New(cfg, b.js, sec, nil, testLogger(t))
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
		if err := <-done; err != nil {
			t.Errorf("registry run: %v", err)
		}
	}
	t.Cleanup(stop)
	return &testRegistry{reg: reg, secrets: sec, dataDir: cfg.DataDir, url: "http://" + reg.Addr(), stop: stop}
}

type webhookSet struct {
	URL     string    `json:"url"`
	Secret  string    `json:"secret"`
	Created time.Time `json:"created"`
}

func TestAdminWebhookValidation(t *testing.T) {
	b := startBus(t)
	tr := startRegistryWith(t, b, Config{DataDir: t.TempDir()})
	acc := tr.createAccount(t, "alice")
	path := "/admin/v1/accounts/" + acc + "/webhook"
	long := "https://example.com/" + strings.Repeat("a", 2048)
	runAdminCases(t, tr, []adminCase{
		{name: "no url", method: "PUT", path: path, body: map[string]any{}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "url not a string", method: "PUT", path: path, body: map[string]any{"url": 5}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "ftp", method: "PUT", path: path, body: map[string]any{"url": "ftp://example.com/x"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "no host", method: "PUT", path: path, body: map[string]any{"url": "https:///x"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "user info", method: "PUT", path: path, body: map[string]any{"url": "https://u:p@example.com/x"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "fragment", method: "PUT", path: path, body: map[string]any{"url": "https://example.com/x#y"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "too long", method: "PUT", path: path, body: map[string]any{"url": long}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "loopback outside development", method: "PUT", path: path, body: map[string]any{"url": "http://127.0.0.1:9000/hook"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "localhost outside development", method: "PUT", path: path, body: map[string]any{"url": "http://localhost/hook"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "metadata address", method: "PUT", path: path, body: map[string]any{"url": "http://169.254.169.254/"}, status: 400, code: "INVALID_REQUEST", details: "url"},
		{name: "unknown account", method: "PUT", path: "/admin/v1/accounts/acc_nope/webhook", body: map[string]any{"url": "https://example.com/x"}, status: 404, code: "NOT_FOUND", details: "id"},
		{name: "delete on unknown account", method: "DELETE", path: "/admin/v1/accounts/acc_nope/webhook", status: 404, code: "NOT_FOUND", details: "id"},
		{name: "private network", method: "PUT", path: path, body: map[string]any{"url": "http://10.1.2.3:8000/hook"}, status: 200},
	})
}

// TestAdminWebhookURLJudgedAsStored: the URL is stored percent-encoded,
// and that stored form is what the dispatcher checks before each
// delivery; a URL that fits the bound as sent but not once encoded is
// refused here rather than accepted and then refused on every delivery.
func TestAdminWebhookURLJudgedAsStored(t *testing.T) {
	b := startBus(t)
	tr := startRegistryWith(t, b, Config{DataDir: t.TempDir(), AllowLocalWebhooks: true})
	acc := tr.createAccount(t, "alice")
	path := "/admin/v1/accounts/" + acc + "/webhook"

	// 2,023 bytes as sent, 6,023 percent-encoded.
	grows := "http://127.0.0.1:22010/" + strings.Repeat("é", 1000)
	a := tr.do(t, http.MethodPut, path, map[string]any{"url": grows})
	if a.Status != http.StatusBadRequest || a.code() != "INVALID_REQUEST" || a.Error.Details == nil || *a.Error.Details != "url" ||
		!strings.Contains(a.Error.Message, "percent-encoded") {
		t.Fatalf("put of a url past the bound once encoded: %d %s", a.Status, a.Raw)
	}
	if got := tr.do(t, http.MethodGet, "/admin/v1/accounts/"+acc, nil); !strings.Contains(got.Raw, `"webhook":null`) {
		t.Fatalf("a refused url was stored: %s", got.Raw)
	}

	// Every URL accepted is stored in the form the dispatcher accepts.
	for _, raw := range []string{
		"http://127.0.0.1:22010/hook/é?q=1",
		"http://127.0.0.1:22010/" + strings.Repeat("é", 337), // 2,045 bytes encoded
		"http://127.0.0.1:22010/" + strings.Repeat("a", events.MaxURLLen-len("http://127.0.0.1:22010/")),
	} {
		w := decodeData[webhookSet](t, tr.do(t, http.MethodPut, path, map[string]any{"url": raw}))
		if _, err := events.CheckURL(w.URL, true); err != nil {
			t.Fatalf("stored %d bytes the dispatcher refuses: %v", len(w.URL), err)
		}
	}
	w := decodeData[webhookSet](t, tr.do(t, http.MethodPut, path, map[string]any{"url": "http://127.0.0.1:22010/hook/é?q=1"}))
	if w.URL != "http://127.0.0.1:22010/hook/%C3%A9?q=1" {
		t.Fatalf("stored %q, want the path percent-encoded", w.URL)
	}
}

func TestAdminWebhookLifecycle(t *testing.T) {
	b := startBus(t)
	dir := t.TempDir()
	tr := startRegistryWith(t, b, Config{DataDir: dir, AllowLocalWebhooks: true})
	v := startView(t, b)
	acc := tr.createAccount(t, "alice")
	path := "/admin/v1/accounts/" + acc + "/webhook"
	ctx := context.Background()
	hooks, err := b.js.KeyValue(ctx, bus.BucketWebhooks)
	if err != nil {
		t.Fatal(err)
	}
	// The dispatcher's book follows the bucket.
	book := registry.NewWebhookBook(hooks, nil)
	bookCtx, stopBook := context.WithCancel(ctx)
	t.Cleanup(stopBook)
	go func() { _ = book.Run(bookCtx) }()
	bookHas := func(what string, want func(w registry.Webhook, ok bool) bool) {
		t.Helper()
		poll.Until(t, 2*time.Second, what, func() bool {
			w, ok, err := book.Webhook(ctx, acc)
			return err == nil && want(w, ok)
		})
	}

	a := tr.do(t, http.MethodPut, path, map[string]any{"url": "http://127.0.0.1:9000/hook?k=1"})
	first := decodeData[webhookSet](t, a)
	if first.URL != "http://127.0.0.1:9000/hook?k=1" || !strings.HasPrefix(first.Secret, registry.WebhookSecretPrefix) || len(first.Secret) < 40 {
		t.Fatalf("put webhook: %s", a.Raw)
	}

	// The dispatcher's bucket has URL and secret at once (and its book a
	// moment later); the read model, the view and the account answer have
	// the URL and never the secret.
	stored, err := hooks.Get(ctx, acc)
	if err != nil || !strings.Contains(string(stored.Value()), first.Secret) || !strings.Contains(string(stored.Value()), first.URL) {
		t.Fatalf("webhooks bucket: %v", err)
	}
	bookHas("the book has the webhook", func(w registry.Webhook, ok bool) bool {
		return ok && w.URL == first.URL && w.Secret == first.Secret
	})
	doc, err := b.registry.Get(ctx, registry.AccountKVKey(acc))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc.Value()), first.URL) || strings.Contains(string(doc.Value()), first.Secret) {
		t.Fatalf("read model: %s", doc.Value())
	}
	poll.Until(t, 2*time.Second, "view sees the webhook", func() bool {
		a, ok := v.Account(acc)
		return ok && a.WebhookURL() == first.URL
	})
	got := tr.do(t, http.MethodGet, "/admin/v1/accounts/"+acc, nil)
	var view struct {
		Webhook *registry.WebhookDoc `json:"webhook"`
	}
	if err := json.Unmarshal(got.Data, &view); err != nil || view.Webhook == nil || view.Webhook.URL != first.URL ||
		strings.Contains(got.Raw, first.Secret) {
		t.Fatalf("get account: %s", got.Raw)
	}

	// Setting it again issues a new secret. (Times are kept to the
	// millisecond: the second is set in a later one, to tell them apart.)
	poll.Until(t, time.Second, "the clock passes the first webhook's time", func() bool { return now().After(first.Created) })
	second := decodeData[webhookSet](t, tr.do(t, http.MethodPut, path, map[string]any{"url": "https://example.com/hook"}))
	if second.Secret == first.Secret || second.URL != "https://example.com/hook" {
		t.Fatalf("second put: %+v", second)
	}
	bookHas("the book has the new secret", func(w registry.Webhook, ok bool) bool { return ok && w.Secret == second.Secret })
	// The account has had a webhook since the first PUT: an event emitted
	// again from between the two is owed to the second.
	if tg, ok, err := book.Target(ctx, acc); err != nil || !ok || !tg.Since.Equal(first.Created) || second.Created.Equal(first.Created) {
		t.Fatalf("target since %v (%v, %v), want the first webhook's %v", tg.Since, ok, err, first.Created)
	}

	// A lost write is repaired by the next start's resync.
	bustest.PurgeKey(t, b.js, bus.BucketWebhooks, acc)
	tr.stop()
	tr = startRegistryWith(t, b, Config{DataDir: dir, AllowLocalWebhooks: true})
	if e, err := hooks.Get(ctx, acc); err != nil || !strings.Contains(string(e.Value()), second.Secret) {
		t.Fatalf("after resync: %v", err)
	}
	bookHas("the book has the webhook again after the resync", func(w registry.Webhook, ok bool) bool { return ok && w.Secret == second.Secret })

	del := tr.do(t, http.MethodDelete, path, nil)
	if del.Status != 200 || !strings.Contains(string(del.Data), `"deleted":true`) {
		t.Fatalf("delete: %s", del.Raw)
	}
	if _, err := hooks.Get(ctx, acc); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("webhook still in the bucket: %v", err)
	}
	bookHas("the book forgets the deleted webhook", func(_ registry.Webhook, ok bool) bool { return !ok })
	got = tr.do(t, http.MethodGet, "/admin/v1/accounts/"+acc, nil)
	if !strings.Contains(got.Raw, `"webhook":null`) {
		t.Fatalf("get account after delete: %s", got.Raw)
	}
	poll.Until(t, 2*time.Second, "view drops the webhook", func() bool {
		a, ok := v.Account(acc)
		return ok && a.WebhookURL() == ""
	})
	again := tr.do(t, http.MethodDelete, path, nil)
	if again.Status != 200 || !strings.Contains(string(again.Data), `"deleted":false`) {
		t.Fatalf("second delete: %s", again.Raw)
	}

	// A webhook set after a delete starts again: the account had none in
	// between.
	third := decodeData[webhookSet](t, tr.do(t, http.MethodPut, path, map[string]any{"url": "https://example.com/hook"}))
	bookHas("the book has the webhook set after the delete", func(w registry.Webhook, ok bool) bool {
		return ok && w.Secret == third.Secret
	})
	if tg, _, _ := book.Target(ctx, acc); !tg.Since.Equal(third.Created) {
		t.Fatalf("target since %v, want the new webhook's %v", tg.Since, third.Created)
	}
}

func TestCLIWebhook(t *testing.T) {
	b := startBus(t)
	dir := t.TempDir()
	tr := startRegistryWith(t, b, Config{DataDir: dir})
	acc := tr.createAccount(t, "alice")
	t.Setenv("TRADEAPI_ADMIN_TOKEN", "")
	t.Setenv("TRADEAPI_ADMIN_ADDR", tr.reg.Addr())
	g := []string{"--data-dir", dir}

	code, data, stderr := runCLI(t, append(g, "webhook", "set", acc, "--url", "https://example.com/hook")...)
	if secret, _ := data["secret"].(string); code != 0 || !strings.HasPrefix(secret, registry.WebhookSecretPrefix) {
		t.Fatalf("webhook set: %d %v %s", code, data, stderr)
	}
	if code, _, _ := runCLI(t, append(g, "webhook", "set", acc)...); code != 2 {
		t.Fatalf("webhook set without --url: %d, want 2", code)
	}
	code, data, _ = runCLI(t, append(g, "webhook", "delete", acc)...)
	if code != 0 || data["deleted"] != true {
		t.Fatalf("webhook delete: %d %v", code, data)
	}
}
