package evm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/endpoint"
)

// TestDialNamesTheEndpoint reads a chain through Dial from a node that
// answers 429 and from a URL that is not http: the errors name the
// endpoint and carry no part of its URL.
func TestDialNamesTheEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	ctx := context.Background()
	url := srv.URL + "/v2/KEY123abc?api-key=KEY456"
	c, err := Dial(ctx, endpoint.New("base rpc", url), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.PendingNonceAt(ctx, common.Address{1})
	if err == nil || !strings.Contains(err.Error(), "base rpc: HTTP 429 Too Many Requests") {
		t.Fatalf("PendingNonceAt: %v", err)
	}
	for _, secret := range []string{"KEY123abc", "KEY456", strings.TrimPrefix(srv.URL, "http://")} {
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("%q carries %q", err, secret)
		}
	}
	if _, err := Dial(ctx, endpoint.New("eth rpc", "wss://rpc.example/KEY123abc"), time.Second); err == nil ||
		err.Error() != "dial: eth rpc: the configured URL is not http or https" {
		t.Fatalf("Dial of a websocket URL: %v", err)
	}
}
