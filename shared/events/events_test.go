package events

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// env is an embedded NATS server with the declared streams and buckets.
type env struct {
	js jetstream.JetStream
	b  *bus.Buckets
}

func newEnv(t *testing.T) *env {
	t.Helper()
	b := bustest.Start(t, "events-test")
	return &env{js: b.JS, b: b.Buckets}
}

// receiver is a webhook endpoint on 127.0.0.1 answering with the scripted
// statuses in turn (the last one repeats).
type receiver struct {
	srv      *httptest.Server
	mu       sync.Mutex
	statuses []int
	got      []delivery
}

type delivery struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	t.Helper()
	r := &receiver{statuses: statuses}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: body})
		status := r.statuses[min(len(r.got), len(r.statuses))-1]
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// targets maps accounts to webhooks.
type targets map[string]Target

func (m targets) Target(_ context.Context, id string) (Target, bool, error) {
	t, ok := m[id]
	return t, ok, nil
}

// run starts a dispatcher and stops it when the test ends.
func run(t *testing.T, e *env, cfg DispatcherConfig, tg Targets) {
	t.Helper()
	d := NewDispatcher(cfg, e.js, e.b.WebhookDeliveries, tg, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("dispatcher: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("dispatcher did not stop")
		}
	})
}

// fastRetries retries within milliseconds.
var fastRetries = DispatcherConfig{AllowLocal: true, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond, Timeout: 2 * time.Second}

func order(id, account string) *wire.Order {
	return &wire.Order{OrderID: id, AccountID: account, Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: "Mint111", Signatures: []wire.SigState{
			{Signature: "sig1", Wallet: "W1addr", State: wire.StateConfirmed},
			{Signature: "sig2", Wallet: "W2addr", State: wire.StateFailed, Error: "slippage"},
		}}
}

// waitRecord polls the delivery record of an event until it has outcome.
func waitRecord(t *testing.T, e *env, account, eventID, outcome string) Delivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var last Delivery
	for time.Now().Before(deadline) {
		if en, err := e.b.WebhookDeliveries.Get(context.Background(), DeliveryKey(account, eventID)); err == nil {
			_ = json.Unmarshal(en.Value(), &last)
			if last.Outcome == outcome {
				return last
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("delivery of %s: %+v, want outcome %s", eventID, last, outcome)
	return last
}

func TestDeliverSignedEvent(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusNoContent)
	const secret = "whsec_test_secret"
	run(t, e, fastRetries, targets{"acc_a": {URL: rcv.srv.URL + "/hook?k=1", Secret: secret}})
	before := counted(OutcomeDelivered)

	p := NewPublisher(e.js, nil)
	o := order("eu-1", "acc_a")
	o.Error = &apierr.Body{Code: apierr.BroadcastFailed, Message: "refused"}
	p.Emit(context.Background(), Confirmed, o)

	rec := waitRecord(t, e, "acc_a", "eu-1.confirmed", OutcomeDelivered)
	if rec.Attempts != 1 || rec.Status != http.StatusNoContent || rec.OrderID != "eu-1" || rec.Type != Confirmed {
		t.Fatalf("record: %+v", rec)
	}
	got := rcv.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries", len(got))
	}
	d := got[0]
	if err := client.VerifySignature(secret, d.body, d.header.Get(HeaderSignature)); err != nil {
		t.Fatalf("signature: %v (%s)", err, d.header.Get(HeaderSignature))
	}
	if d.header.Get(HeaderEvent) != "confirmed" || d.header.Get(HeaderEventID) != "eu-1.confirmed" || d.header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers: %v", d.header)
	}
	if ts, err := strconv.ParseInt(d.header.Get(HeaderTimestamp), 10, 64); err != nil || time.Since(time.Unix(ts, 0)) > time.Minute {
		t.Fatalf("timestamp %q", d.header.Get(HeaderTimestamp))
	}
	if strings.Contains(string(d.body), "acc_a") || strings.Contains(string(d.body), "account_id") {
		t.Fatalf("body names the account: %s", d.body)
	}
	// The body decodes with the client's own types.
	req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(string(d.body)))
	req.Header = d.header
	ev, err := client.ParseWebhook(req, secret)
	if err != nil || ev.ID != "eu-1.confirmed" || ev.Type != client.EventConfirmed || ev.OrderID != "eu-1" || ev.State != client.StateConfirmed ||
		ev.Chain != "solana" || ev.Side != client.Buy || ev.Address != "Mint111" || len(ev.Signatures) != 2 ||
		ev.Signatures[1].Error != "slippage" || ev.Error == nil || ev.Error.Code != client.CodeBroadcastFailed || ev.At.IsZero() {
		t.Fatalf("parsed event: %+v %v", ev, err)
	}
	if n := counted(OutcomeDelivered) - before; n != 1 {
		t.Fatalf("delivered counter moved by %v", n)
	}
}

func TestRetryAfterServerErrors(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, 500, 503, 200)
	run(t, e, fastRetries, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	retries := counted(OutcomeRetry)
	NewPublisher(e.js, nil).Emit(context.Background(), Broadcast, order("eu-2", "acc_a"))

	rec := waitRecord(t, e, "acc_a", "eu-2.broadcast", OutcomeDelivered)
	if rec.Attempts != 3 || len(rcv.deliveries()) != 3 {
		t.Fatalf("record %+v after %d deliveries", rec, len(rcv.deliveries()))
	}
	// Every attempt carries the same body and a signature of it.
	for _, d := range rcv.deliveries() {
		if client.VerifySignature("s", d.body, d.header.Get(HeaderSignature)) != nil || string(d.body) != string(rcv.deliveries()[0].body) {
			t.Fatal("attempts differ")
		}
	}
	if n := counted(OutcomeRetry) - retries; n != 2 {
		t.Fatalf("retry counter moved by %v", n)
	}
}

func TestGiveUpAndReject(t *testing.T) {
	cases := []struct {
		name     string
		statuses []int
		cfg      func(*DispatcherConfig)
		outcome  string
		attempts int
	}{
		{name: "attempts run out", statuses: []int{500}, outcome: OutcomeGaveUp, attempts: 3},
		{name: "408 and 429 are retried", statuses: []int{408, 429, 500}, outcome: OutcomeGaveUp, attempts: 3},
		{name: "age runs out", statuses: []int{502}, outcome: OutcomeGaveUp, attempts: 1,
			cfg: func(c *DispatcherConfig) {
				c.BaseDelay, c.MaxDelay, c.MaxAge = time.Minute, time.Minute, 30*time.Second
			}},
		{name: "400 is final", statuses: []int{400}, outcome: OutcomeRejected, attempts: 1},
		{name: "410 is final", statuses: []int{410}, outcome: OutcomeRejected, attempts: 1},
		{name: "a redirect is not followed", statuses: []int{302}, outcome: OutcomeRejected, attempts: 1},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			rcv := newReceiver(t, tc.statuses...)
			cfg := fastRetries
			cfg.MaxAttempts = 3
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			run(t, e, cfg, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
			id := "eu-" + strconv.Itoa(i)
			NewPublisher(e.js, nil).Emit(context.Background(), Failed, order(id, "acc_a"))
			rec := waitRecord(t, e, "acc_a", id+".failed", tc.outcome)
			if rec.Attempts != tc.attempts {
				t.Fatalf("record %+v, want %d attempts", rec, tc.attempts)
			}
			// The event is settled: nothing is pending or waiting for a retry.
			deadline := time.Now().Add(5 * time.Second)
			for {
				ci, err := e.js.Consumer(context.Background(), bus.StreamEvents, bus.WebhookConsumer)
				if err != nil {
					t.Fatal(err)
				}
				info, err := ci.Info(context.Background())
				if err == nil && info.NumAckPending == 0 && info.NumPending == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("consumer still holds the event: %+v", info)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if n := len(rcv.deliveries()); n != tc.attempts {
				t.Fatalf("%d deliveries, want %d", n, tc.attempts)
			}
		})
	}
}

func TestNoWebhookNoDelivery(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, 200)
	run(t, e, fastRetries, targets{"acc_b": {URL: rcv.srv.URL, Secret: "s"}})
	p := NewPublisher(e.js, nil)
	p.Emit(context.Background(), Confirmed, order("eu-1", "acc_a")) // no webhook
	p.Emit(context.Background(), Confirmed, order("eu-2", "acc_b"))
	waitRecord(t, e, "acc_b", "eu-2.confirmed", OutcomeDelivered)
	for _, d := range rcv.deliveries() {
		if strings.Contains(string(d.body), `"eu-1"`) {
			t.Fatal("an account without a webhook got a delivery")
		}
	}
	if _, err := e.b.WebhookDeliveries.Get(context.Background(), DeliveryKey("acc_a", "eu-1.confirmed")); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("record of an account without a webhook: %v", err)
	}
}

func TestLoopbackRefusedOutsideDevelopment(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, 200)
	cfg := fastRetries
	cfg.AllowLocal = false
	run(t, e, cfg, TargetsFunc(func(_ context.Context, id string) (Target, bool, error) {
		return Target{URL: rcv.srv.URL, Secret: "s"}, id == "acc_literal", nil
	}))
	NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-1", "acc_literal"))
	rec := waitRecord(t, e, "acc_literal", "eu-1.confirmed", OutcomeRejected)
	if !strings.Contains(rec.Error, "not allowed") || len(rcv.deliveries()) != 0 {
		t.Fatalf("record %+v, %d deliveries", rec, len(rcv.deliveries()))
	}
	// A name that resolves to a refused address is refused when the
	// dispatcher connects, as its literal is by CheckURL.
	if dialControl(false)("tcp", "127.0.0.1:80", nil) == nil || dialControl(false)("tcp", "[::1]:80", nil) == nil ||
		dialControl(false)("tcp", "93.184.216.34:443", nil) != nil || dialControl(true)("tcp", "127.0.0.1:80", nil) != nil {
		t.Fatal("dial control")
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url   string
		local bool
		ok    bool
	}{
		{"https://hooks.example.com/tradeapi?k=1", false, true},
		{"http://10.0.0.5:8080/hook", false, true},
		{"http://127.0.0.1:9000/hook", true, true},
		{"http://127.0.0.1:9000/hook", false, false},
		{"http://[::1]:9000/hook", false, false},
		{"http://localhost:9000/hook", false, false},
		{"http://0.0.0.0/hook", false, false},
		{"http://169.254.169.254/latest", false, false},
		{"http://[fe80::1]/", false, false},
		{"http://224.0.0.1/", false, false},
		{"ftp://example.com/x", true, false},
		{"example.com/x", true, false},
		{"https://user:pass@example.com/", true, false},
		{"https://example.com/#frag", true, false},
		{"https:///path", true, false},
		{"mailto:a@example.com", true, false},
		{"", true, false},
	} {
		_, err := CheckURL(tc.url, tc.local)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTargetRefused)) {
			t.Errorf("CheckURL(%q, %v) = %v, want ok %v", tc.url, tc.local, err, tc.ok)
		}
	}
	if !AllowedAddr(netip.MustParseAddr("192.168.1.2"), false) || AllowedAddr(netip.MustParseAddr("::ffff:127.0.0.1"), false) {
		t.Error("AllowedAddr")
	}
}

func TestPublishDropsRepeats(t *testing.T) {
	e := newEnv(t)
	p := NewPublisher(e.js, nil)
	o := order("eu-1", "acc_a")
	for range 3 {
		if err := p.Publish(context.Background(), FromOrder(Confirmed, o, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Publish(context.Background(), FromOrder(Broadcast, o, time.Now())); err != nil {
		t.Fatal(err)
	}
	s, err := e.js.Stream(context.Background(), bus.StreamEvents)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil || info.State.Msgs != 2 {
		t.Fatalf("stream holds %d events (%v), want 2", info.State.Msgs, err)
	}
	msg, err := s.GetLastMsgForSubject(context.Background(), bus.EventsSubject("acc_a", "confirmed"))
	if err != nil {
		t.Fatal(err)
	}
	var ev Event
	if err := json.Unmarshal(msg.Data, &ev); err != nil || ev.AccountID != "acc_a" || ev.ID != "eu-1.confirmed" || ev.State != wire.StateConfirmed {
		t.Fatalf("event on the subject: %s", msg.Data)
	}
	if err := p.Publish(context.Background(), &Event{ID: "x", Type: "nope", AccountID: "acc_a"}); err == nil {
		t.Fatal("an unknown type was published")
	}
}

// counted returns the number of attempts counted with an outcome.
func counted(outcome string) float64 {
	var m dto.Metric
	if err := Deliveries.WithLabelValues(outcome).Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}
