package server

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/tradeapi/tradeapi/shared/envelope"
)

// TestAdminClientGone: an admin view whose client closed the request (the
// console navigating away) is answered 499, not 500 INTERNAL logged as an
// error of the service.
func TestAdminClientGone(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acct := tr.createAccount(t, "gone")
	for _, path := range []string{"/admin/v1/accounts/" + acct + "/orders", "/admin/v1/accounts/" + acct + "/usage"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequestWithContext(ctx, "GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+tr.secrets.AdminToken)
		rec := httptest.NewRecorder()
		tr.reg.Handler().ServeHTTP(rec, req)
		if rec.Code != envelope.StatusClientClosed {
			t.Errorf("GET %s by a client that left: %d %s, want %d", path, rec.Code, rec.Body.String(), envelope.StatusClientClosed)
		}
	}
}
