package bus_test

import (
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// TestDialNoticesAServerThatStopsAnswering: a server that stops answering
// without closing the connection (its process frozen) is taken for gone
// within a few pings, so the role shows not ready, instead of the
// client's default of minutes.
func TestDialNoticesAServerThatStopsAnswering(t *testing.T) {
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	// A proxy in front of the server that can freeze: it keeps the
	// connections open and stops passing bytes on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var frozen atomic.Bool
	target := srv.ClientURL()[len("nats://"):]
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			pass := func(dst, src net.Conn) {
				buf := make([]byte, 32<<10)
				for {
					n, err := src.Read(buf)
					if err != nil {
						dst.Close()
						return
					}
					if !frozen.Load() {
						if _, err := dst.Write(buf[:n]); err != nil {
							return
						}
					}
				}
			}
			go pass(s, c)
			go pass(c, s)
		}
	}()
	nc, err := bus.Dial("nats://"+ln.Addr().String(), "stale-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	frozen.Store(true)
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
