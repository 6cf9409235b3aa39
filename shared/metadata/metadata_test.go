package metadata

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestUploadThenReadThroughHTTP(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	local, err := NewLocal(t.TempDir(), srv.URL+"/metadata", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/metadata/", http.StripPrefix("/metadata", local.Handler()))

	store := NewHTTPStore(srv.URL+"/metadata/", 5*time.Second)
	doc := NewDocument(wire.TokenMetadata{Name: "Moon Cat", Symbol: "MCAT", Description: "a cat",
		ImageURL: "https://img.example/cat.png", Twitter: "https://x.com/mooncat", Website: "https://mooncat.example"})
	uri, err := store.Put(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(uri) > MaxURILen || !strings.HasPrefix(uri, srv.URL+"/metadata/") {
		t.Fatalf("uri %q", uri)
	}
	again, err := store.Put(context.Background(), doc)
	if err != nil || again != uri {
		t.Fatalf("the same document got %q, then %q (%v)", uri, again, err)
	}

	resp, err := http.Get(uri)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s", uri, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"name": "Moon Cat", "symbol": "MCAT", "description": "a cat",
		"image": "https://img.example/cat.png", "external_url": "https://mooncat.example", "twitter": "https://x.com/mooncat"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %q", k, got[k], want)
		}
	}
}

func TestLocalRefusesBadRequests(t *testing.T) {
	local, err := NewLocal(t.TempDir(), "http://127.0.0.1/metadata", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h := local.Handler()
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{"GET", "/../secret.json", "", 404},
		{"GET", "/" + strings.Repeat("a", 64) + ".json", "", 404},
		{"GET", "/abc.json", "", 404},
		{"POST", "/", "not json", 400},
		{"POST", "/", `{"name":"x"}`, 400},
		{"POST", "/", `{"name":"x","symbol":"` + strings.Repeat("y", maxDocument) + `"}`, 413},
		{"DELETE", "/", "", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body)))
		if rec.Code != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, rec.Code, tc.want)
		}
	}
}

// TestHTTPStoreReportsUploadFailures uploads to an endpoint whose URL
// carries a key, failing in each way an upload can: every error names the
// endpoint "metadata upload", says what happened, and carries no part of
// the URL.
func TestHTTPStoreReportsUploadFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down/KEY123abc":
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		case "/limited/KEY123abc":
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":"too many uploads for key KEY456"}`))
		case "/nouri/KEY123abc":
			_, _ = w.Write([]byte(`{"ok":true,"from":"` + r.Host + `"}`))
		case "/long/KEY123abc":
			_, _ = w.Write([]byte(`{"uri":"https://x/` + strings.Repeat("a", MaxURILen) + `"}`))
		}
	}))
	defer srv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String()
	_ = l.Close()
	doc := NewDocument(wire.TokenMetadata{Name: "A", Symbol: "A"})
	for _, tc := range []struct{ base, path, want string }{
		{srv.URL, "/down", "metadata upload: HTTP 503 Service Unavailable: maintenance"},
		{srv.URL, "/limited", "metadata upload: HTTP 429 Too Many Requests: too many uploads for key [redacted]"},
		{srv.URL, "/nouri", `metadata upload: the answer carries no uri: {"ok":true,"from":"[redacted]"}`},
		{srv.URL, "/long", "metadata upload: uri is 210 bytes, the programs accept 200"},
		{refused, "/up", "metadata upload: connection refused"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			url := tc.base + tc.path + "/KEY123abc?api-key=KEY456"
			_, err := NewHTTPStore(url, time.Second).Put(context.Background(), doc)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Put: %v, want %q", err, tc.want)
			}
			for _, secret := range []string{"KEY123abc", "KEY456", strings.TrimPrefix(tc.base, "http://")} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("%q carries %q", err, secret)
				}
			}
		})
	}
}
