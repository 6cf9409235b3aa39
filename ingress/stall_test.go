package ingress

import (
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/httpserver/httpservertest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestStalledBodyIsCutOff: a client that sends a swap's headers and one
// byte of its announced body, then nothing, is answered or cut off once the
// body timeout has passed, instead of holding its connection open.
func TestStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv, err := New(Config{Listeners: []Listener{{Addr: addr, Family: wire.FamilySol, Region: "eu"}},
		RequestTimeout: 10 * time.Second, DefaultSlippagePct: 10}, h.servers[0].deps, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	t.Cleanup(func() { stop(); <-ran })
	httpservertest.StalledBodyCutOff(t, addr, "POST /api/v1/swap HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+solKey+
		"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
}
