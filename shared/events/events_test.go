package events

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
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
	var last Delivery
	if !poll.True(10*time.Second, func() bool {
		en, err := e.b.WebhookDeliveries.Get(context.Background(), DeliveryKey(account, eventID))
		if err != nil {
			return false
		}
		// A fresh value each time: a field the record left out is absent,
		// not what an earlier read of it held.
		last = Delivery{}
		_ = json.Unmarshal(en.Value(), &last)
		return last.Outcome == outcome
	}) {
		t.Fatalf("delivery of %s: %+v, want outcome %s", eventID, last, outcome)
	}
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
	// The signed time is the timestamp header's.
	if sig := d.header.Get(HeaderSignature); !strings.HasPrefix(sig, "t="+d.header.Get(HeaderTimestamp)+",v1=") {
		t.Fatalf("signature header %q, timestamp %q", sig, d.header.Get(HeaderTimestamp))
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
	t.Parallel()
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
			var info *jetstream.ConsumerInfo
			if !poll.True(5*time.Second, func() bool {
				ci, err := e.js.Consumer(context.Background(), bus.StreamEvents, bus.WebhookConsumer)
				if err != nil {
					t.Fatal(err)
				}
				info, err = ci.Info(context.Background())
				return err == nil && info.NumAckPending == 0 && info.NumPending == 0
			}) {
				t.Fatalf("consumer still holds the event: %+v", info)
			}
			if n := len(rcv.deliveries()); n != tc.attempts {
				t.Fatalf("%d deliveries, want %d", n, tc.attempts)
			}
		})
	}
}

func TestNoWebhookNoDelivery(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
		// A zone names an interface of this machine: ::1 with one was
		// taken for 0.0.0.1 and let through.
		{"http://[::1%25lo]:9000/hook", false, false},
		{"http://[::1%25eth0]:9000/hook", false, false},
		{"http://[0::1%25x]/", false, false},
		{"http://[2001:db8::1%25eth0]/", true, false},
		{"http://localhost:9000/hook", false, false},
		{"http://0.0.0.0/hook", false, false},
		{"http://169.254.169.254/latest", false, false},
		{"http://[fe80::1]/", false, false},
		{"http://224.0.0.1/", false, false},
		// The local development mode reaches this machine's receivers, not
		// the instance metadata nor an unspecified address.
		{"http://localhost:9000/hook", true, true},
		{"http://[::1]:9000/hook", true, true},
		{"http://169.254.169.254/latest", true, false},
		{"http://0.0.0.0:9000/", true, false},
		{"http://[fe80::1]/", true, false},
		{"ftp://example.com/x", true, false},
		{"example.com/x", true, false},
		{"https://user:pass@example.com/", true, false},
		{"https://example.com/#frag", true, false},
		{"https:///path", true, false},
		{"mailto:a@example.com", true, false},
		{"", true, false},
		// Bytes that were not UTF-8, as the JSON decoder leaves them; the
		// same character percent-encoded is the client's own spelling.
		{"https://x.example/\ufffd\ufffd?q=\ufffd", true, false},
		{"https://x.example/a?q=\ufffd", true, false},
		{"https://x.example/%EF%BF%BD", true, true},
		// Cloud metadata services off the link-local range, in every mode.
		{"http://[fd00:ec2::254]/", false, false},
		{"http://[fd00:ec2::254]/", true, false},
		{"http://[fd20:ce::254]/", true, false},
		{"http://100.100.100.200/", false, false},
		{"http://100.100.100.200/", true, false},
		{"http://168.63.129.16/", false, false},
		{"http://168.63.129.16/", true, false},
		{"http://192.0.0.192/", true, false},
		{"http://255.255.255.255/", true, false},
		// Numeric hosts that are no dotted IPv4 address: some resolvers
		// read them as one (127.0.0.1, 169.254.169.254), Go's does not.
		{"http://127.1:9000/hook", false, false},
		{"http://2130706433:9000/hook", false, false},
		{"http://0x7f000001/", false, false},
		{"http://017700000001/", true, false},
		{"http://0:9000/", true, false},
		{"http://2852039166/", true, false},
		{"http://hooks.example.com1/", false, true},
		// Dots the HTTP client reads as plain ones (ideographic,
		// full-width), and a name it would not look up.
		{"http://169\u3002254\u3002169\u3002254/latest/meta-data", false, false},
		{"http://169\uff0e254\uff0e169\uff0e254/", true, false},
		{"http://127\u30020\u30020\u30021:9000/", false, false},
		{"http://b\u00fccher.example/hook", false, true},
		{"http://exa\u200dmple.com/", false, false},
		{"http://0xdeadbeef.example.com/", false, true},
		// Their neighbours stay private addresses, which are allowed.
		{"http://100.100.100.201/", false, true},
		{"http://[fd00:ec2::253]/", false, true},
		// IPv6 forms of a refused IPv4 address are refused as it is.
		{"http://[::169.254.169.254]/", true, false},
		{"http://[::ffff:169.254.169.254]/", true, false},
		{"http://[64:ff9b::169.254.169.254]/", true, false},
		{"http://[64:ff9b::a9fe:a9fe]/", true, false},
		{"http://[::ffff:100.100.100.200]/", true, false},
		{"http://[::127.0.0.1]:9000/", false, false},
		{"http://[64:ff9b::127.0.0.1]:9000/", false, false},
		{"http://[::127.0.0.1]:9000/", true, true},
		{"http://[64:ff9b::10.0.0.5]/", false, true},
		{"http://[::10.0.0.5]/", false, true},
		// Ports.
		{"http://10.0.0.5:0/", false, false},
		{"http://10.0.0.5:99999/", false, false},
		{"http://10.0.0.5:65536/", false, false},
		{"http://10.0.0.5:65535/", false, true},
		{"http://10.0.0.5:1/", false, true},
		{"http://10.0.0.5:/", false, true},
	} {
		_, err := CheckURL(tc.url, tc.local)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTargetRefused)) {
			t.Errorf("CheckURL(%q, %v) = %v, want ok %v", tc.url, tc.local, err, tc.ok)
		}
	}
	// The dispatcher's check of resolved addresses refuses the same.
	if dialControl(true)("tcp", "[64:ff9b::a9fe:a9fe]:80", nil) == nil || dialControl(true)("tcp", "168.63.129.16:80", nil) == nil ||
		dialControl(true)("tcp", "[fd00:ec2::254]:80", nil) == nil {
		t.Error("dial control lets a metadata address through")
	}
	if !AllowedAddr(netip.MustParseAddr("192.168.1.2"), false) || AllowedAddr(netip.MustParseAddr("::ffff:127.0.0.1"), false) {
		t.Error("AllowedAddr")
	}
	// A resolved or literal loopback with a zone, at the dial too.
	for _, a := range []string{"::1%lo", "::1%eth0", "fe80::1%eth0"} {
		if AllowedAddr(netip.MustParseAddr(a), false) {
			t.Errorf("AllowedAddr(%s) in production", a)
		}
	}
	if dialControl(false)("tcp", "[::1%lo]:80", nil) == nil {
		t.Error("dial control lets ::1%lo through")
	}
}

func TestPublishDropsRepeats(t *testing.T) {
	t.Parallel()
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
	if err := metrics.WebhookDeliveries.WithLabelValues(outcome).Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}

func TestSignatureHeader(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"eu-1.confirmed"}`)
	at := time.Unix(1767322800, 900_000_000)
	got := SignatureHeader("whsec_k", at, body)
	// The HMAC of "<t>.<body>", computed here independently of the
	// package.
	mac := hmac.New(sha256.New, []byte("whsec_k"))
	mac.Write([]byte("1767322800." + string(body)))
	if want := "t=1767322800,v1=" + hex.EncodeToString(mac.Sum(nil)); got != want {
		t.Fatalf("SignatureHeader = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name string
		now  time.Time
		body []byte
		want error
	}{
		{"as sent", at, body, nil},
		{"five minutes after the signed second", time.Unix(1767322800+300, 0), body, nil},
		{"replayed an hour later", at.Add(time.Hour), body, client.ErrWebhookExpired},
		{"another body", at, []byte(`{"id":"eu-2.confirmed"}`), client.ErrBadSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := client.VerifySignatureAt("whsec_k", tc.body, got, tc.now, client.DefaultWebhookTolerance)
			if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("verify: %v, want %v", err, tc.want)
			}
		})
	}
}

// TestExitFiredBody sends an exit_fired event: its exit, deferral
// included, reaches the receiver and decodes with the client's types.
func TestExitFiredBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusOK)
	run(t, e, fastRetries, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}})
	ev := &Event{ID: ID("eu-9", ExitFired, "eu-9-0-x0r0"), Type: ExitFired, OrderID: "eu-9", AccountID: "acc_a",
		Chain: wire.ChainSolana, Side: wire.Sell, Address: "Pool111", Mint: "Mint111", State: wire.ExitFired, Signatures: []wire.SigState{},
		Exit: &Exit{PositionID: "eu-9-0", Wallet: "W1addr", Type: wire.ExitStopLoss, SellOrderID: "eu-9-0-x0r0",
			DeferredMs: 1500, DeferredReason: "budget"}, At: time.Now().UTC()}
	if err := NewPublisher(e.js, nil).Publish(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	waitRecord(t, e, "acc_a", ev.ID, OutcomeDelivered)
	d := rcv.deliveries()[0]
	req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(string(d.body)))
	req.Header = d.header
	got, err := client.ParseWebhook(req, "s")
	if err != nil {
		t.Fatal(err)
	}
	want := client.ExitEvent{PositionID: "eu-9-0", Wallet: "W1addr", Type: "stop_loss", SellOrderID: "eu-9-0-x0r0",
		DeferredMs: 1500, DeferredReason: "budget"}
	if got.Type != client.EventExitFired || got.Exit == nil || *got.Exit != want || got.Address != "Pool111" || got.Mint != "Mint111" {
		t.Fatalf("exit_fired as received: %+v exit %+v", got, got.Exit)
	}
}

// TestHangingReceiverDelaysOnlyItsAccount fills the dispatcher with events
// of an account whose receiver never answers, then sends events of an
// account whose receiver answers at once: those arrive promptly, while the
// hanging receiver holds no more than its account's share of the slots.
func TestHangingReceiverDelaysOnlyItsAccount(t *testing.T) {
	e := newEnv(t)
	var hanging atomic.Int32
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		defer hanging.Add(-1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) })
	fast := newReceiver(t, http.StatusNoContent)
	cfg := fastRetries
	cfg.Concurrency, cfg.PerAccount, cfg.Timeout = 6, 2, time.Minute
	run(t, e, cfg, targets{"acc_slow": {URL: slow.URL, Secret: "s"}, "acc_fast": {URL: fast.srv.URL, Secret: "s"}})

	p := NewPublisher(e.js, nil)
	ctx := context.Background()
	for i := range 20 {
		p.Emit(ctx, Confirmed, order(fmt.Sprintf("eu-slow%d", i), "acc_slow"))
	}
	poll.Until(t, 10*time.Second, "the hanging receiver holds its account's share", func() bool { return hanging.Load() == 2 })
	poll.Until(t, 10*time.Second, "the other 18 events queued", func() bool { return gauge(metrics.WebhookQueued) == 18 })

	start := time.Now()
	for i := range 20 {
		p.Emit(ctx, Confirmed, order(fmt.Sprintf("eu-fast%d", i), "acc_fast"))
	}
	poll.Until(t, 3*time.Second, "every event of the answering account delivered", func() bool { return len(fast.deliveries()) == 20 })
	t.Logf("20 deliveries to the answering receiver in %v beside a hanging one", time.Since(start).Round(time.Millisecond))
	if n := hanging.Load(); n != 2 {
		t.Fatalf("%d requests hang at the slow receiver, want its share of 2", n)
	}
	if q := gauge(metrics.WebhookQueued); q != 18 {
		t.Fatalf("%v events queued, want the slow account's other 18", q)
	}
	for i := range 20 {
		waitRecord(t, e, "acc_fast", fmt.Sprintf("eu-fast%d.confirmed", i), OutcomeDelivered)
	}
}

// fakeMsg is a message of the queue tests; only its identity matters.
type fakeMsg struct {
	jetstream.Msg
	id string
}

func TestFairQueueServesAccountsInTurn(t *testing.T) {
	t.Parallel()
	q := newFairQueue(32, 2)
	msgs := map[string]*fakeMsg{}
	push := func(account, id string) {
		m := &fakeMsg{id: id}
		msgs[id] = m
		if !q.push(account, m) {
			t.Fatalf("push %s refused", id)
		}
	}
	for _, id := range []string{"a1", "a2", "a3", "a4"} {
		push("acc_a", id)
	}
	push("acc_b", "b1")
	push("acc_c", "c1")
	next := func() (string, string) {
		t.Helper()
		account, m, ok := q.next()
		if !ok {
			t.Fatal("queue closed")
		}
		return account, m.(*fakeMsg).id
	}
	// One event per account in turn, and at most two of acc_a's at once.
	var got []string
	for range 4 {
		_, id := next()
		got = append(got, id)
	}
	if want := []string{"a1", "b1", "c1", "a2"}; !slices.Equal(got, want) {
		t.Fatalf("served %v, want %v", got, want)
	}
	if len(q.ready) != 0 {
		t.Fatalf("ready %v with acc_a at its share and nothing else queued", q.ready)
	}
	q.done("acc_a", msgs["a1"])
	if account, id := next(); account != "acc_a" || id != "a3" {
		t.Fatalf("after a1 ended: %s %s, want acc_a a3", account, id)
	}
	if held := len(q.held()); held != 5 {
		t.Fatalf("%d held, want a2, a3, a4, b1 and c1", held)
	}
	q.done("acc_b", msgs["b1"])
	q.done("acc_c", msgs["c1"])
	if _, ok := q.accounts["acc_b"]; ok {
		t.Fatal("an account with nothing queued or in flight is kept")
	}
	left := q.close()
	if len(left) != 1 || left[0].(*fakeMsg).id != "a4" {
		t.Fatalf("close returned %v, want a4", left)
	}
	if _, _, ok := q.next(); ok {
		t.Fatal("next after close")
	}
	if q.push("acc_a", &fakeMsg{id: "a5"}) {
		t.Fatal("push after close accepted")
	}
}

func TestAccountOf(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string]string{
		bus.EventsSubject("acc_x1", "confirmed"): "acc_x1",
		"tapi.events.acc_y.exit_fired":           "acc_y",
		"tapi.events.acc_z":                      "",
		"tapi.orders.solana":                     "",
		bus.WebhookDueSubject("acc_d", "k1"):     "acc_d",
		bus.WebhookWaitSubject("acc_w", "k1"):    "",
		"tapi.webhooks.due.acc_e":                "",
		"tapi.webhooks.due..k1":                  "",
	} {
		if got := accountOf(subject); got != want {
			t.Errorf("accountOf(%q) = %q, want %q", subject, got, want)
		}
	}
}

func gauge(g prometheus.Gauge) float64 {
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		return -1
	}
	return m.GetGauge().GetValue()
}

// TestPositionsHeader: an event about an order that can open or close no
// position says so in a header, so that the exits engines ack it unread;
// every other event goes without it and is read.
func TestPositionsHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := NewPublisher(e.js, nil)
	withExits := func(o *wire.Order) *wire.Order {
		pct := 25.0
		o.AutoOrders = []wire.AutoOrder{{Type: "take_profit", TriggerPct: &pct}}
		return o
	}
	sell := func(o *wire.Order) *wire.Order { o.Side = wire.Sell; return o }
	launch := func(o *wire.Order) *wire.Order { o.Kind, o.Side = wire.KindDeploy, ""; return o }
	tests := []struct {
		name string
		o    *wire.Order
		want string
	}{
		{"buy without auto-orders", order("eu-plain", "acc_a"), bus.PositionsNone},
		{"buy with auto-orders", withExits(order("eu-exits", "acc_a")), ""},
		{"sell", sell(order("eu-sell", "acc_a")), ""},
		{"sell with auto-orders named", withExits(sell(order("eu-sell2", "acc_a"))), ""},
		{"launch", launch(order("eu-launch", "acc_a")), bus.PositionsNone},
	}
	s, err := e.js.Stream(context.Background(), bus.StreamEvents)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := p.Publish(context.Background(), FromOrder(Confirmed, tt.o, time.Now())); err != nil {
				t.Fatal(err)
			}
			msg, err := s.GetLastMsgForSubject(context.Background(), bus.EventsSubject("acc_a", "confirmed"))
			if err != nil {
				t.Fatal(err)
			}
			if got := msg.Header.Get(bus.HeaderPositions); got != tt.want || msg.Header.Get(bus.HeaderOrder) != tt.o.OrderID {
				t.Fatalf("event of %s: %s %q, want %q", msg.Header.Get(bus.HeaderOrder), bus.HeaderPositions, got, tt.want)
			}
		})
	}
}

// TestEventOfAnotherAccountNotDelivered: the webhook is chosen by the
// subject's account; an event whose body names another account is dropped,
// never posted to either account's webhook.
func TestEventOfAnotherAccountNotDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 200)
	run(t, e, fastRetries, targets{"acc_a": {URL: rcv.srv.URL, Secret: "s"}, "acc_b": {URL: rcv.srv.URL, Secret: "s"}})
	forged, _ := json.Marshal(FromOrder(Confirmed, order("eu-forged", "acc_b"), time.Now()))
	if _, err := e.js.Publish(context.Background(), bus.EventsSubject("acc_a", "confirmed"), forged); err != nil {
		t.Fatal(err)
	}
	p := NewPublisher(e.js, nil)
	p.Emit(context.Background(), Confirmed, order("eu-real", "acc_a"))
	waitRecord(t, e, "acc_a", "eu-real.confirmed", OutcomeDelivered)
	poll.Until(t, 10*time.Second, "both events settled", func() bool {
		c, err := e.js.Consumer(context.Background(), bus.StreamEvents, bus.WebhookConsumer)
		if err != nil {
			return false
		}
		info, err := c.Info(context.Background())
		return err == nil && info.Delivered.Stream >= 2 && info.NumAckPending == 0 && info.NumPending == 0
	})
	for _, d := range rcv.deliveries() {
		if strings.Contains(string(d.body), `"eu-forged"`) {
			t.Fatal("an event posted under another account's subject was delivered")
		}
	}
}

// switchable is a webhook book whose account's webhook is removed once a
// delivery was attempted.
type switchable struct {
	mu      sync.Mutex
	t       Target
	removed bool
}

func (s *switchable) Target(_ context.Context, id string) (Target, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t, !s.removed && id == "acc_a", nil
}

// TestWebhookRemovedBeforeARetry: an event waiting for its next attempt
// when its account's webhook is removed is not sent, and is counted as
// dropped instead of disappearing from the outcomes.
func TestWebhookRemovedBeforeARetry(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t, 500)
	book := &switchable{t: Target{URL: rcv.srv.URL, Secret: "s"}}
	cfg := fastRetries
	cfg.BaseDelay, cfg.MaxDelay = 300*time.Millisecond, 300*time.Millisecond
	run(t, e, cfg, book)
	dropped := counted(OutcomeDropped)
	NewPublisher(e.js, nil).Emit(context.Background(), Failed, order("eu-removed", "acc_a"))
	poll.Until(t, 5*time.Second, "the first attempt", func() bool { return len(rcv.deliveries()) == 1 })
	book.mu.Lock()
	book.removed = true
	book.mu.Unlock()
	poll.Until(t, 5*time.Second, "the event counted dropped", func() bool { return counted(OutcomeDropped)-dropped == 1 })
	if n := len(rcv.deliveries()); n != 1 {
		t.Fatalf("%d deliveries, want the first attempt only", n)
	}
	// The record no longer promises a next attempt: it says dropped,
	// keeping the attempt made and its answer.
	rec := waitRecord(t, e, "acc_a", "eu-removed.failed", OutcomeDropped)
	if rec.NextAt != nil || rec.Attempts != 1 || rec.Status != http.StatusInternalServerError ||
		!strings.Contains(rec.Error, "webhook was removed") || rec.OrderID != "eu-removed" || rec.Type != Failed {
		t.Fatalf("record of the dropped event: %+v", rec)
	}
}

// backlogMsg is an event's message as the account's backlog hands it out:
// on its backlog subject, delivered once, no attempt counted in its
// headers, and how it was ended.
type backlogMsg struct {
	jetstream.Msg
	account string
	data    []byte
	acked   bool
}

func (m *backlogMsg) Subject() string      { return bus.WebhookBacklogSubject(m.account) }
func (m *backlogMsg) Data() []byte         { return m.data }
func (m *backlogMsg) Headers() nats.Header { return nats.Header{} }
func (m *backlogMsg) Ack() error           { m.acked = true; return nil }
func (m *backlogMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: 1}, nil
}

// TestHeldEventFromTheBacklogDropped: an event held for a failing webhook
// (its record says retry, with a next attempt due) whose due delivery went
// through the account's backlog, and whose webhook was then removed, is
// counted dropped and its record says so, as one from the retries stream
// is: the record promised no attempt that will never come.
func TestHeldEventFromTheBacklogDropped(t *testing.T) {
	e := newEnv(t)
	d := NewDispatcher(fastRetries, e.js, e.b.WebhookDeliveries, targets{}, slog.New(slog.DiscardHandler))
	ev := FromOrder(Confirmed, order("eu-held", "acc_a"), time.Now())
	next := time.Now().Add(-time.Second).UTC()
	d.record(d.log, "acc_a", &Delivery{EventID: ev.ID, OrderID: ev.OrderID, Type: ev.Type, Outcome: OutcomeRetry,
		At: time.Now().UTC(), NextAt: &next, Error: "not attempted yet: this account's webhook is failing"})
	data, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	dropped := counted(OutcomeDropped)
	m := &backlogMsg{account: "acc_a", data: data}
	d.handle(context.Background(), m)
	if !m.acked || counted(OutcomeDropped)-dropped != 1 {
		t.Fatalf("acked %v, counted dropped %v, want acked and counted once", m.acked, counted(OutcomeDropped)-dropped)
	}
	if rec := waitRecord(t, e, "acc_a", ev.ID, OutcomeDropped); rec.NextAt != nil {
		t.Fatalf("record %+v still promises an attempt", rec)
	}
}

// TestLookupRetryNotCountedDropped: an event handed back because the
// webhook lookup failed, then found to have no webhook, was never
// attempted: it is not counted dropped.
func TestLookupRetryNotCountedDropped(t *testing.T) {
	e := newEnv(t)
	var calls atomic.Int64
	run(t, e, fastRetries, TargetsFunc(func(context.Context, string) (Target, bool, error) {
		if calls.Add(1) == 1 {
			return Target{}, false, errors.New("registry away")
		}
		return Target{}, false, nil
	}))
	dropped := counted(OutcomeDropped)
	NewPublisher(e.js, nil).Emit(context.Background(), Failed, order("eu-lookup", "acc_a"))
	poll.Until(t, 5*time.Second, "the second lookup", func() bool { return calls.Load() >= 2 })
	time.Sleep(50 * time.Millisecond)
	if n := counted(OutcomeDropped) - dropped; n != 0 {
		t.Fatalf("dropped counted %v for an event never attempted", n)
	}
}

// TestStoredURL: a webhook URL is stored percent-encoded, and the stored
// form is judged by CheckURL, the dispatcher's check before each delivery,
// so one that fits the bound as sent but not once encoded is refused.
func TestStoredURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw, stored string // stored "" when refused
	}{
		{"https://hooks.example.com/tradeapi?k=1", "https://hooks.example.com/tradeapi?k=1"},
		{"https://hooks.example.com/é", "https://hooks.example.com/%C3%A9"},
		// 2,020 bytes as sent, 6,020 once encoded.
		{"https://example.com/" + strings.Repeat("é", 1000), ""},
		// 2,045 bytes once encoded.
		{"https://example.com/" + strings.Repeat("é", 337), "https://example.com/" + strings.Repeat("%C3%A9", 337)},
		{"https://example.com/" + strings.Repeat("a", MaxURLLen-len("https://example.com/")), "https://example.com/" + strings.Repeat("a", MaxURLLen-len("https://example.com/"))},
		{"ftp://example.com/x", ""},
		// A query is encoded too, what may stand in it kept as given: a
		// space or a non-ASCII character would go out raw, a request
		// line no server takes.
		{"https://hooks.example.com/sp?a=b c&q=é&r=%2F&s=100%&t=x/y?z:@!$'()*+,;=~", "https://hooks.example.com/sp?a=b%20c&q=%C3%A9&r=%2F&s=100%25&t=x/y?z:@!$'()*+,;=~"},
		{"https://hooks.example.com/x?q=<\\\"^`{|}>", "https://hooks.example.com/x?q=%3C%5C%22%5E%60%7B%7C%7D%3E"},
		// 1,027 bytes as sent, 6,027 once encoded.
		{"https://example.com/x?q=" + strings.Repeat("é", 1000), ""},
	} {
		stored, u, err := StoredURL(tc.raw, false)
		if tc.stored == "" {
			if err == nil || !errors.Is(err, ErrTargetRefused) {
				t.Errorf("StoredURL(%.40q…) = %d bytes, %v; want refused", tc.raw, len(stored), err)
			}
			continue
		}
		if err != nil || stored != tc.stored || u == nil || u.String() != stored {
			t.Errorf("StoredURL(%.40q…) = %.40q, %v, %v; want %.40q", tc.raw, stored, u, err, tc.stored)
			continue
		}
		if _, err := CheckURL(stored, false); err != nil {
			t.Errorf("the dispatcher refuses the stored %.40q…: %v", stored, err)
		}
	}
	_, _, err := StoredURL("http://127.0.0.1:22010/"+strings.Repeat("é", 1000), true)
	if err == nil || !strings.Contains(err.Error(), "percent-encoded") {
		t.Fatalf("a url past the bound once encoded: %v", err)
	}
	// A url stored with its query raw, before it was encoded, is sent
	// encoded: the dispatcher sends what CheckURL gives.
	if u, err := CheckURL("https://hooks.example.com/sp?a=b c&q=é", false); err != nil || u.String() != "https://hooks.example.com/sp?a=b%20c&q=%C3%A9" {
		t.Fatalf("CheckURL of a raw query: %v, %v", u, err)
	}
}

// TestRetryAfterNeverShortensTheBackoff: a Retry-After shorter than the
// attempt's backoff leaves the backoff; a longer one lengthens the pause,
// up to MaxDelay.
func TestRetryAfterNeverShortensTheBackoff(t *testing.T) {
	t.Parallel()
	d := NewDispatcher(DispatcherConfig{}, nil, nil, nil, nil) // 1 s doubling up to 15 min
	for _, tc := range []struct {
		name            string
		attempt         int
		retryAfter      time.Duration
		atLeast, atMost time.Duration
	}{
		{"no Retry-After", 1, 0, 500 * time.Millisecond, time.Second},
		{"a second after the tenth attempt", 10, time.Second, 256 * time.Second, 512 * time.Second},
		{"two seconds after the last attempt", 15, 2 * time.Second, 450 * time.Second, 15 * time.Minute},
		{"longer than the backoff", 1, 30 * time.Second, 30 * time.Second, 30 * time.Second},
		{"longer than MaxDelay", 3, time.Hour, 15 * time.Minute, 15 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 50 { // the backoff's jitter
				if got := d.retryDelay(tc.attempt, tc.retryAfter); got < tc.atLeast || got > tc.atMost {
					t.Fatalf("retryDelay(%d, %v) = %v, want %v to %v", tc.attempt, tc.retryAfter, got, tc.atLeast, tc.atMost)
				}
			}
		})
	}
}

// TestRetryAfterShorterThanBackoff: a receiver answering 503 with
// Retry-After: 1 is tried again after the attempt's backoff, not after a
// second, as its delivery record's next attempt shows.
func TestRetryAfterShorterThanBackoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	cfg := fastRetries
	cfg.BaseDelay, cfg.MaxDelay = time.Minute, time.Minute // a backoff of 30 s to 1 min
	run(t, e, cfg, targets{"acc_a": {URL: srv.URL, Secret: "s"}})
	NewPublisher(e.js, nil).Emit(context.Background(), Confirmed, order("eu-ra", "acc_a"))
	rec := waitRecord(t, e, "acc_a", "eu-ra.confirmed", OutcomeRetry)
	if rec.NextAt == nil || rec.NextAt.Sub(rec.At) < 30*time.Second || rec.Status != http.StatusServiceUnavailable {
		t.Fatalf("record %+v: want the next attempt 30 s to 1 min later", rec)
	}
}

// TestPublishFailureCountedAndReturned: an event the stream does not take
// is counted by type and returned by Emit, so that its caller can emit it
// again; every type's series is there from the start.
func TestPublishFailureCountedAndReturned(t *testing.T) {
	mfs, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for _, mf := range mfs {
		if mf.GetName() != "tradeapi_events_publish_failures_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			types[m.GetLabel()[0].GetValue()] = true
		}
	}
	for _, typ := range Types {
		if !types[string(typ)] {
			t.Errorf("no publish failure series for %s before any failure", typ)
		}
	}

	e := newEnv(t)
	p := NewPublisher(e.js, nil)
	if err := p.Emit(context.Background(), Confirmed, order("eu-ok", "acc_a")); err != nil {
		t.Fatalf("emit with the stream there: %v", err)
	}
	if err := e.js.DeleteStream(context.Background(), bus.StreamEvents); err != nil {
		t.Fatal(err)
	}
	failures := func(typ Type) float64 {
		var m dto.Metric
		if err := metrics.EventsPublishFailures.WithLabelValues(string(typ)).Write(&m); err != nil {
			return -1
		}
		return m.GetCounter().GetValue()
	}
	before, beforeExit := failures(Confirmed), failures(ExitFired)
	if err := p.Emit(context.Background(), Confirmed, order("eu-lost", "acc_a")); err == nil || !strings.Contains(err.Error(), "eu-lost.confirmed") {
		t.Fatalf("emit with no stream: %v, want the event's error", err)
	}
	if n := failures(Confirmed) - before; n != 1 {
		t.Fatalf("confirmed failures moved by %v, want 1", n)
	}
	// Publish, which the exits engine calls itself, counts as Emit does.
	ev := &Event{ID: ID("eu-x", ExitFired, "eu-x-0"), Type: ExitFired, OrderID: "eu-x", AccountID: "acc_a", At: time.Now()}
	if err := p.Publish(context.Background(), ev); err == nil {
		t.Fatal("publish with no stream succeeded")
	}
	if n := failures(ExitFired) - beforeExit; n != 1 {
		t.Fatalf("exit_fired failures moved by %v, want 1", n)
	}
	var nilPub *Publisher
	if err := nilPub.Emit(context.Background(), Confirmed, order("eu-nil", "acc_a")); err != nil {
		t.Fatalf("a nil publisher: %v", err)
	}
}

// TestLaunchEventSaysWhatLaunched: a launch's events say it is one and
// name its mints, which a swap's never carry; a bot need not look the order
// up to learn what it launched.
func TestLaunchEventSaysWhatLaunched(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC)
	launch := &wire.Order{OrderID: "eu-l", AccountID: "acc", Kind: wire.KindDeploy, Chain: wire.ChainSolana, State: wire.StateConfirmed,
		Deploy: &wire.DeployResult{MintAddresses: []string{"MintA", "MintB"}}}
	body, err := FromOrder(Confirmed, launch, at).WebhookBody()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got["kind"] != "deploy" || fmt.Sprint(got["mint_addresses"]) != "[MintA MintB]" {
		t.Fatalf("launch event %s", body)
	}
	swap := &wire.Order{OrderID: "eu-s", AccountID: "acc", Kind: wire.KindSwap, Chain: wire.ChainSolana, Side: wire.Buy, Token: "Mint", State: wire.StateConfirmed}
	if body, err = FromOrder(Confirmed, swap, at).WebhookBody(); err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["mint_addresses"]; ok || got["kind"] != "swap" {
		t.Fatalf("swap event %s", body)
	}
}

// TestFairQueueKeepsSlotsForIdleAccounts: an account's second and later
// deliveries at once take no slot of the last quarter, so that an account
// with nothing in flight is served while others' receivers hold theirs.
func TestFairQueueKeepsSlotsForIdleAccounts(t *testing.T) {
	t.Parallel()
	q := newFairQueue(8, 4)
	for _, account := range []string{"acc_h1", "acc_h2"} {
		for i := range 4 {
			q.push(account, &fakeMsg{id: fmt.Sprintf("%s-%d", account, i)})
		}
	}
	var h1 jetstream.Msg
	for range 6 {
		account, m, ok := q.next()
		if !ok {
			t.Fatal("queue closed")
		}
		if account == "acc_h1" {
			h1 = m
		}
	}
	q.push("acc_ok", &fakeMsg{id: "ok"})
	account, ok, _ := q.next()
	if account != "acc_ok" {
		t.Fatalf("served %s %v, want acc_ok's event in a kept slot", account, ok)
	}
	// Slots freed: the accounts kept waiting go again.
	q.done("acc_ok", ok)
	q.done("acc_h1", h1)
	if slices.Sort(q.ready); !slices.Equal(q.ready, []string{"acc_h1", "acc_h2"}) {
		t.Fatalf("ready %v after two slots came free, want acc_h1 and acc_h2", q.ready)
	}
}

// TestHangingReceiversLeaveOthersTheirTurn: eight accounts whose
// receivers hang (4 deliveries each would fill 32 slots) do not hold up an
// account whose receiver answers.
func TestHangingReceiversLeaveOthersTheirTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	release := make(chan struct{})
	var hanging atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) })
	fast := newReceiver(t, http.StatusNoContent)
	tg := targets{"acc_ok": {URL: fast.srv.URL, Secret: "s"}}
	for i := range 8 {
		tg[fmt.Sprintf("acc_h%d", i)] = Target{URL: slow.URL, Secret: "s"}
	}
	run(t, e, DispatcherConfig{AllowLocal: true, Timeout: time.Minute}, tg)
	p := NewPublisher(e.js, nil)
	for i := range 8 {
		for j := range 4 {
			if err := p.Emit(context.Background(), Confirmed, order(fmt.Sprintf("eu-h%d-%d", i, j), fmt.Sprintf("acc_h%d", i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	poll.Until(t, 30*time.Second, "the hanging receivers hold what the slots give them", func() bool { return hanging.Load() >= 24 })
	if err := p.Emit(context.Background(), Confirmed, order("eu-ok", "acc_ok")); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the answering account's event delivered while the others hang", func() bool {
		return len(fast.deliveries()) == 1
	})
}
