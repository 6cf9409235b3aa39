package bus_test

import (
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// TestDialNoticesAServerThatStopsAnswering: a server that stops answering
// without closing the connection (its process frozen) is taken for gone
// within a few pings, so the role shows not ready, instead of the
// client's default of minutes.
func TestDialNoticesAServerThatStopsAnswering(t *testing.T) {
	t.Parallel()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	// A proxy in front of the server that can freeze: it keeps the
	// connections open and stops passing bytes on.
	proxy, addr := startPausingProxy(t, srv.ClientURL()[len("nats://"):])
	nc, err := bus.Dial("nats://"+addr, "stale-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	proxy.freeze()
	frozeAt := time.Now()
	limit := bus.PingInterval*time.Duration(bus.MaxPingsOut+2) + 2*time.Second
	for nc.IsConnected() {
		if time.Since(frozeAt) > limit {
			t.Fatalf("still connected %v after the server stopped answering", limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("taken for gone after %v", time.Since(frozeAt).Round(100*time.Millisecond))
}
