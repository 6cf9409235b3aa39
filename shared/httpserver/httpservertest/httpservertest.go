// Package httpservertest checks a running listener against the limits of
// package httpserver.
package httpservertest

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/httpserver"
)

// StalledBodyCutOff sends request to addr (its headers and the first bytes
// of the body they announce), then nothing, and fails t unless the server
// answers or closes the connection once the body timeout has passed. It
// waits up to five seconds for addr to listen.
func StalledBodyCutOff(t testing.TB, addr, request string) {
	t.Helper()
	var conn net.Conn
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen: %v", addr, err)
		}
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	limit := httpserver.BodyTimeout + 5*time.Second
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, _ = io.Copy(io.Discard, conn)
	if took := time.Since(start); took >= limit {
		t.Fatalf("a stalled body still held its connection after %v", took)
	}
}
