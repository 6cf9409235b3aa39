package ingress

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestStopAnswersOrdersInFlight: a stop does not wait a whole request
// timeout for an order whose answer does not come (a node that hangs): after
// the drain timeout it is answered 504 with its order_id, and the server has
// stopped soon after, so that the process stops within its 10 s.
func TestStopAnswersOrdersInFlight(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	var logs logtest.Buffer
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const drain = 300 * time.Millisecond
	srv, err := New(Config{Listeners: []Listener{{Addr: addr, Family: wire.FamilySol, Region: "eu"}},
		RequestTimeout: 10 * time.Second, DrainTimeout: drain, DefaultSlippagePct: 10}, h.servers[0].deps, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	url := "http://" + addr
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server does not listen")
		}
	}
	answered := make(chan answer, 1)
	go func() {
		// No worker answers here: the order waits for its reply.
		a, err := do("POST", url+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
		if err != nil {
			t.Error(err)
		}
		answered <- a
	}()
	time.Sleep(200 * time.Millisecond)
	stopped := time.Now()
	stop()
	select {
	case a := <-answered:
		if a.status != 504 || a.code() != "UPSTREAM_TIMEOUT" || a.details() == "" {
			t.Fatalf("answer %d %s, want 504 UPSTREAM_TIMEOUT naming the order", a.status, a.raw)
		}
		// The log tells a wait the stop cut short from a timeout.
		if l := logs.String(); !strings.Contains(l, "order not answered before the stop") || strings.Contains(l, "order timed out") {
			t.Fatalf("log %s: want the order's wait said cut short by the stop", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the order in flight was not answered within 5 s of the stop")
	}
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(stopped); took < drain || took > drain+2*time.Second {
			t.Fatalf("stopped in %v, want about the drain timeout %v", took, drain)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}
