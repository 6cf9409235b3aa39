package service

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/httpserver"
)

// TestMetricsStalledBodyIsCutOff: the metrics listener, which no client
// sends a body to, does not let one that announces a body and stalls hold
// its connection either.
func TestMetricsStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeMetrics(ctx, addr, func() bool { return true }, nil) }()
	t.Cleanup(func() { stop(); <-served })
	var conn net.Conn
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the metrics server does not listen")
		}
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	limit := httpserver.BodyTimeout + 5*time.Second
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, _ = io.Copy(io.Discard, conn)
	if took := time.Since(start); took >= limit {
		t.Fatalf("a stalled body still held its connection after %v", took)
	}
}
