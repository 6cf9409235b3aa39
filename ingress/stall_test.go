package ingress

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/httpserver"
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
	var conn net.Conn
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server does not listen")
		}
	}
	defer conn.Close()
	start := time.Now()
	req := "POST /api/v1/swap HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + solKey +
		"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	limit := httpserver.BodyTimeout + 5*time.Second
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, _ = io.Copy(io.Discard, conn)
	if took := time.Since(start); took >= limit {
		t.Fatalf("a stalled body still held its connection after %v", took)
	}
}
