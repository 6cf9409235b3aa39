package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

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

// awayJS is a JetStream whose buckets and streams cannot be reached, as
// while NATS is down.
type awayJS struct{ jetstream.JetStream }

func (awayJS) KeyValue(context.Context, string) (jetstream.KeyValue, error) {
	return nil, errors.New("nats: timeout")
}

// TestAdminViewsWhileNATSIsAway: an admin view whose read of NATS fails is
// 503 saying what was not read, not 500 INTERNAL.
func TestAdminViewsWhileNATSIsAway(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acct := tr.createAccount(t, "away")
	act := newActivity(awayJS{b.js}, tr.reg.store, nil, slog.New(slog.DiscardHandler))
	e := envelope.Engine(slog.New(slog.DiscardHandler))
	e.GET("/usage/:id", act.handleUsage)
	e.GET("/orders/:id", act.handleOrders)
	for _, path := range []string{"/usage/" + acct, "/orders/" + acct} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "could not be read from NATS") {
			t.Errorf("GET %s with NATS away: %d %s, want 503 saying it could not be read from NATS", path, rec.Code, rec.Body.String())
		}
	}
}
