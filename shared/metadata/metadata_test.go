package metadata

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
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

func TestHTTPStoreReportsUploadFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down":
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		case "/nouri":
			_, _ = w.Write([]byte(`{"ok":true}`))
		case "/long":
			_, _ = w.Write([]byte(`{"uri":"https://x/` + strings.Repeat("a", MaxURILen) + `"}`))
		}
	}))
	defer srv.Close()
	doc := NewDocument(wire.TokenMetadata{Name: "A", Symbol: "A"})
	for path, want := range map[string]string{"/down": "503", "/nouri": "no uri", "/long": "programs accept"} {
		_, err := NewHTTPStore(srv.URL+path, time.Second).Put(context.Background(), doc)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", path, err, want)
		}
	}
}
