package service

import (
	"context"
	"testing"

	"github.com/tradeapi/tradeapi/shared/httpserver/httpservertest"
)

// TestMetricsStalledBodyIsCutOff: the metrics listener, which no client
// sends a body to, does not let one that announces a body and stalls hold
// its connection either.
func TestMetricsStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	ln, err := listenMetrics("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveMetrics(ctx, ln, func() bool { return true }) }()
	t.Cleanup(func() { stop(); <-served })
	httpservertest.StalledBodyCutOff(t, addr, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
}
