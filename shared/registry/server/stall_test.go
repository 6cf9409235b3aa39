package server

import (
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/httpserver/httpservertest"
)

// TestStalledBodyIsCutOff: a client that sends an admin request's headers
// and one byte of its announced body, then nothing, is answered or cut off
// once the body timeout has passed, instead of holding its connection open.
func TestStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	httpservertest.StalledBodyCutOff(t, strings.TrimPrefix(tr.url, "http://"), "POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+
		tr.secrets.AdminToken+"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
}
