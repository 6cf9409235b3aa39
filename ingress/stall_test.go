package ingress

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/httpserver/httpservertest"
	"github.com/tradeapi/tradeapi/shared/logtest"
)

// serveEU runs an ingress server of the EU listener on a real address
// (Run, as up runs it) until the test ends, and returns the address.
func serveEU(t *testing.T) string {
	t.Helper()
	addr, stop, ran := runEU(t, newHarness(t, budget.DefaultLimits, allChains{}), 0, &logtest.Buffer{})
	t.Cleanup(func() { stop(); <-ran })
	return addr
}

// TestStalledBodyIsCutOff: a client that sends a swap's headers and one
// byte of its announced body, then nothing, is answered or cut off once the
// body timeout has passed, instead of holding its connection open.
func TestStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	addr := serveEU(t)
	httpservertest.StalledBodyCutOff(t, addr, "POST /api/v1/swap HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+solKey+
		"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
}

// TestOptionsStarAnsweredAsJSON: OPTIONS * gets the service's own answer,
// JSON with the request's id, as every answer is (Go's server answered it
// with a bare 200 of its own).
func TestOptionsStarAnsweredAsJSON(t *testing.T) {
	t.Parallel()
	addr := serveEU(t)
	var conn net.Conn
	var err error
	for i := 0; i < 100; i++ {
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode < 400 || resp.Header.Get("X-Request-Id") == "" || !json.Valid(body) {
		t.Fatalf("OPTIONS * answered %d, request id %q, body %q", resp.StatusCode, resp.Header.Get("X-Request-Id"), body)
	}
}
