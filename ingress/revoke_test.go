package ingress

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestKeyRevokedWhileTheBodyIsRead: a key revoked after its request's
// headers came and before its body was read whole is refused 401 before
// the charge, nothing traded, its rate headers the defaults as every 401's:
// the key was looked up once, with the headers, and a body sent slowly
// traded seconds after the revocation's answer.
func TestKeyRevokedWhileTheBodyIsRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	boughtBefore(t, h)
	// A skipped buy first, charged: the account's figures differ from the
	// defaults.
	if a, err := do(http.MethodPost, h.eu.URL+"/api/v1/swap", solKey, "application/json", skipBody); err != nil || a.status != http.StatusOK {
		t.Fatalf("skipped buy: %+v %v", a, err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.eu.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := skipBody
	lookups := h.dir.lookups.Load()
	fmt.Fprintf(conn, "POST /api/v1/swap HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		solKey, len(body), body[:5])
	// The key is looked up with the headers; then it is revoked.
	for h.dir.lookups.Load() == lookups {
		time.Sleep(time.Millisecond)
	}
	h.dir.revoked.Store(solKey, true)
	if _, err := io.WriteString(conn, body[5:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(raw), `"UNAUTHORIZED"`) || resp.Header.Get("X-Order-Id") != "" {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	// A 401 knows no account: the defaults, full, not the account's
	// figures (its skipped buy spent one).
	if got, want := resp.Header.Get("X-RateLimit-Remaining-Minute"), strconv.FormatInt(budget.DefaultLimits.Minute, 10); got != want {
		t.Fatalf("the 401 shows %s left in the minute, want the defaults' %s", got, want)
	}
	if st := h.servers[0].deps.Budget.Peek("acct1", wire.FamilySol, budget.DefaultLimits); st.Remaining.Minute != budget.DefaultLimits.Minute-1 {
		t.Fatalf("charged: %+v", st.Remaining)
	}
}
