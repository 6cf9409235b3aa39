package server

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/httpserver"
)

// TestStalledBodyIsCutOff: a client that sends an admin request's headers
// and one byte of its announced body, then nothing, is answered or cut off
// once the body timeout has passed, instead of holding its connection open.
func TestStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	conn, err := net.Dial("tcp", strings.TrimPrefix(tr.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	req := "POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + tr.secrets.AdminToken +
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
