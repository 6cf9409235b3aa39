package service

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// hookReceiver keeps every webhook request it gets and answers 200.
type hookReceiver struct {
	mu  sync.Mutex
	got []*http.Request
	raw [][]byte
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.got = append(h.got, r)
	h.raw = append(h.raw, b)
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// event waits for the webhook event of an order and type, verifying its
// signature with secret; match filters further when set.
func (h *hookReceiver) event(t *testing.T, secret string, typ client.EventType, match func(*client.Event) bool) *client.Event {
	t.Helper()
	return poll.Value(t, 15*time.Second, "a "+string(typ)+" webhook event", func() (*client.Event, bool) {
		h.mu.Lock()
		defer h.mu.Unlock()
		for i, r := range h.got {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(h.raw[i])))
			req.Header = r.Header
			e, err := client.ParseWebhook(req, secret)
			if err != nil {
				t.Fatalf("webhook %d: %v", i, err)
			}
			if e.Type == typ && match(e) {
				return e, true
			}
		}
		return nil, false
	})
}

// TestOrderEvents runs real orders through `up` and follows their events
// on the account's NATS subject and its webhook.
func TestOrderEvents(t *testing.T) {
	natsAddr := freeAddrs(t, 1)[0]
	u, cfg := startUp(t, func(c *config.Config) { c.NATS.Listen = natsAddr })
	acc := u.Demo.AccountID
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")

	// NATS on a TCP listener requires the deployment's credentials: a
	// client without them is refused.
	if anon, err := nats.Connect("nats://"+natsAddr, nats.MaxReconnects(0)); err == nil {
		anon.Close()
		t.Fatal("a client without credentials connected")
	} else if !strings.Contains(err.Error(), "Authorization Violation") {
		t.Fatalf("a client without credentials: %v, want Authorization Violation", err)
	}
	// In-house consumers: the account's subjects over plain NATS, as the
	// operator (the credentials up generated under the data folder).
	creds, err := bus.LoadCredentials(cfg.DataDir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect("nats://"+natsAddr, bus.ConnectOptions(bus.RoleAdmin, creds)...)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	onSubject := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe(bus.AccountEvents(acc), onSubject)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	rcv := &hookReceiver{}
	hook := httptest.NewServer(rcv)
	defer hook.Close()
	admin := "http://" + cfg.Listen.Admin
	r := do(t, "PUT", admin+"/admin/v1/accounts/"+acc+"/webhook", u.Secrets.AdminToken, map[string]any{"url": hook.URL + "/tradeapi"})
	var set struct{ URL, Secret string }
	if err := json.Unmarshal(r.Body.Data, &set); r.Status != 200 || err != nil || !strings.HasPrefix(set.Secret, "whsec_") {
		t.Fatalf("set webhook: %d %s", r.Status, r.Raw)
	}
	// The dispatcher reads the webhooks through a view of the bucket,
	// which follows the answer a moment later.
	poll.Until(t, 5*time.Second, "the dispatcher's book has the webhook", func() bool {
		w, ok, err := u.webhooks.Webhook(context.Background(), acc)
		return err == nil && ok && w.Secret == set.Secret
	})

	c, err := client.New("http://"+cfg.Listen.SolEU, u.Demo.SolKey, client.WithAutoIdempotencyKey())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("buy", func(t *testing.T) {
		res, err := c.Swap(ctx, &client.SwapRequest{Address: mint, Side: client.Buy, Amount: "0.01", Slippage: "10", AllSpotActive: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Meta.Rate.Minute.Limit == 0 || res.Meta.RequestID == "" {
			t.Fatalf("answer meta: %+v", res.Meta)
		}
		o, err := c.WaitOrder(ctx, res.OrderID, 50*time.Millisecond)
		if err != nil || o.State != client.StateConfirmed {
			t.Fatalf("order: %+v %v", o, err)
		}
		ofOrder := func(e *client.Event) bool { return e.OrderID == res.OrderID }
		b := rcv.event(t, set.Secret, client.EventBroadcast, ofOrder)
		f := rcv.event(t, set.Secret, client.EventConfirmed, ofOrder)
		if b.ID != res.OrderID+".broadcast" || b.State != client.StateBroadcast || len(b.Signatures) != len(res.Signatures) ||
			b.Chain != "solana" || b.Side != client.Buy || b.Address != mint {
			t.Fatalf("broadcast event: %+v", b)
		}
		for i, s := range f.Signatures {
			if s.Signature != res.Signatures[i] || s.State != client.StateConfirmed {
				t.Fatalf("confirmed event: %+v", f)
			}
		}
		// The same events, with the account, on the account's subject.
		seen := map[string]bool{}
		deadline := time.After(10 * time.Second)
		for !seen["broadcast"] || !seen["confirmed"] {
			select {
			case m := <-onSubject:
				var e events.Event
				if err := json.Unmarshal(m.Data, &e); err != nil {
					t.Fatal(err)
				}
				if e.OrderID == res.OrderID {
					if e.AccountID != acc || m.Subject != bus.EventsSubject(acc, string(e.Type)) {
						t.Fatalf("event %s on %s", m.Data, m.Subject)
					}
					seen[string(e.Type)] = true
				}
			case <-deadline:
				t.Fatalf("events on the subject: %v", seen)
			}
		}
		// The delivery is recorded.
		var lastErr error
		if !poll.True(5*time.Second, func() bool {
			e, err := u.buckets.WebhookDeliveries.Get(ctx, events.DeliveryKey(acc, f.ID))
			lastErr = err
			var d events.Delivery
			return err == nil && json.Unmarshal(e.Value(), &d) == nil && d.Outcome == events.OutcomeDelivered
		}) {
			t.Fatalf("no delivery record of %s: %v", f.ID, lastErr)
		}
	})

	t.Run("refused order", func(t *testing.T) {
		_, err := c.Swap(ctx, &client.SwapRequest{Address: "So11111111111111111111111111111111111111112", Side: client.Buy, Amount: "0.01", AllSpotActive: true})
		if !client.IsCode(err, client.CodeTokenNotFound) {
			t.Fatalf("want TOKEN_NOT_FOUND, got %v", err)
		}
		e := rcv.event(t, set.Secret, client.EventFailed, func(e *client.Event) bool {
			return e.Error != nil && e.Error.Code == client.CodeTokenNotFound
		})
		if e.State != client.StateFailed || len(e.Signatures) != 0 || e.Signatures == nil {
			t.Fatalf("failed event: %+v", e)
		}
	})

	t.Run("metric", func(t *testing.T) {
		resp, err := http.Get("http://" + cfg.Listen.Metrics + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), `tradeapi_webhook_deliveries_total{outcome="delivered"}`) {
			t.Fatal("no delivered webhook counted in /metrics")
		}
	})
}
