package workers

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
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
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// randomSigner signs a batch whose bytes differ on every call, as a real
// signer's do (fresh blockhash, fresh nonce): any second signing of one
// order would show.
type randomSigner struct {
	calls atomic.Int32
	err   error
	// panics: every call panics, as a signer's defect would; inGroup:
	// in a goroutine of its own (guard).
	panics, inGroup atomic.Bool
}

func (s *randomSigner) Sign(_ context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	s.calls.Add(1)
	if s.panics.Load() {
		var none []int
		_ = none[0]
	}
	if s.inGroup.Load() {
		g := guard.New()
		g.Go(func() error {
			var none []int
			return fmt.Errorf("%d", none[0])
		})
		if err := g.Wait(); err != nil {
			return nil, fmt.Errorf("read the market: %w", err)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	return &wire.TxBatch{OrderID: job.OrderID, Chain: job.Chain, Txs: []wire.SignedTx{
		{Wallet: job.Legs[0].Wallet, Signature: fmt.Sprintf("%x", raw[:8]), Raw: raw}}}, nil
}

type env struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	b    *bus.Buckets
	view *registry.View
}

// newEnv starts NATS and a registry view in which account "a" owns the
// Solana wallet "W" (the wallet of publishJob's jobs) and the EVM wallet
// 0x00000000000000000000000000000000000000aa, and account "b" owns the
// Solana wallet "V".
func newEnv(t *testing.T) *env {
	t.Helper()
	b := bustest.Start(t, "test")
	e := &env{nc: b.Conn, js: b.JS, b: b.Buckets, view: registry.NewView(b.Buckets.Registry, nil)}
	e.putAccount(t, "a", registry.Wallet{Address: "W", Label: "W1", Family: wire.FamilySol},
		registry.Wallet{Address: "0x00000000000000000000000000000000000000AA", Label: "W1", Family: wire.FamilyEVM})
	e.putAccount(t, "b", registry.Wallet{Address: "V", Label: "W1", Family: wire.FamilySol})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = e.view.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	select {
	case <-e.view.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("registry view not ready")
	}
	return e
}

// putAccount writes an account into the registry's read model, as the
// registry role does.
func (e *env) putAccount(t *testing.T, id string, wallets ...registry.Wallet) {
	t.Helper()
	data, _ := json.Marshal(registry.AccountDoc{ID: id, Name: id, Wallets: wallets})
	if _, err := e.b.Registry.Put(context.Background(), registry.AccountKVKey(id), data); err != nil {
		t.Fatal(err)
	}
}

// newWorker returns a worker of chain over the env's registry view.
func (e *env) newWorker(cfg Config, signer Signer) *Worker {
	return New(cfg, e.nc, e.js, e.b, signer, e.view, slog.New(slog.DiscardHandler))
}

func (e *env) publishJob(t *testing.T, id, inbox string) {
	t.Helper()
	e.publishSwap(t, wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now()}, inbox)
}

// publishSwap publishes a job straight onto the orders stream, as ingress
// would, or as anything else holding a NATS connection could.
func (e *env) publishSwap(t *testing.T, job wire.SwapJob, inbox string) {
	t.Helper()
	e.publish(t, bus.OrdersSubject(job.Chain), job.OrderID, "", job, inbox)
}

func (e *env) publish(t *testing.T, subject, id, kind string, job any, inbox string) {
	t.Helper()
	data, _ := json.Marshal(job)
	m := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, inbox)
	if kind != "" {
		m.Header.Set(bus.HeaderKind, kind)
	}
	if _, err := e.js.PublishMsg(context.Background(), m, jetstream.WithMsgID(id)); err != nil {
		t.Fatal(err)
	}
}

// nextBatch reads one signed batch from the TXS stream.
func (e *env) nextBatch(t *testing.T) *wire.TxBatch {
	t.Helper()
	ctx := context.Background()
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{Durable: "probe", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range msgs.Messages() {
		if m.Headers().Get(bus.HeaderVoid) != "" {
			// A refusal's void: no batch.
			_ = m.Ack()
			return e.nextBatch(t)
		}
		var b wire.TxBatch
		if err := json.Unmarshal(m.Data(), &b); err != nil {
			t.Fatal(err)
		}
		_ = m.Ack()
		return &b
	}
	t.Fatal("no signed batch published")
	return nil
}

// TestCrashBetweenSignAndAck kills a worker after it recorded the signed
// batch and before it published or acked; the redelivered job must publish
// exactly the recorded bytes and never sign again.
func TestCrashBetweenSignAndAck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &randomSigner{}
	log := slog.New(slog.DiscardHandler)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond}

	crashed := make(chan struct{})
	first := New(cfg, e.nc, e.js, e.b, signer, e.view, log)
	first.afterRecord = func(string) bool { close(crashed); return true }
	ctx1, stop1 := context.WithCancel(context.Background())
	done1 := make(chan error, 1)
	go func() { done1 <- first.Run(ctx1) }()

	e.publishJob(t, "eu-crash1", "")
	select {
	case <-crashed:
	case <-time.After(10 * time.Second):
		t.Fatal("first worker never signed")
	}
	stop1()
	<-done1
	recorded := e.batchOf(t, "solana", "eu-crash1")
	if recorded == nil {
		t.Fatal("signed batch not in TXS before the crash")
	}

	second := New(cfg, e.nc, e.js, e.b, signer, e.view, log)
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	go func() { _ = second.Run(ctx2) }()

	// The redelivered job is acked with nothing signed or published again.
	e.awaitJobsDone(t, "solana", 2)
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1", n)
	}
	if n := e.batches(t); n != 1 {
		t.Fatalf("%d batches in TXS, want 1", n)
	}
	got := e.nextBatch(t)
	if string(got.Txs[0].Raw) != string(recorded.Txs[0].Raw) {
		t.Fatalf("TXS holds %x, the first delivery published %x", got.Txs[0].Raw, recorded.Txs[0].Raw)
	}
}

// TestBatchOfEarlierVersionRepublished: a job whose batch an earlier
// version recorded in the signed bucket, and which died before publishing
// it, is redelivered: the recorded bytes are what reaches TXS, unsigned
// again.
func TestBatchOfEarlierVersionRepublished(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	raw := []byte("recorded by an earlier version")
	recorded, _ := json.Marshal(wire.TxBatch{OrderID: "eu-old", Chain: "solana",
		Txs: []wire.SignedTx{{Wallet: "W", Signature: "sig-old", Raw: raw}}})
	if _, err := e.b.Signed.Create(ctx, "eu-old", recorded); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond}
	e.deliverOnceUnacked(t, cfg, "eu-old")

	signer := &randomSigner{}
	w := e.newWorker(cfg, signer)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = w.Run(wctx) }()

	got := e.nextBatch(t)
	if got.OrderID != "eu-old" || string(got.Txs[0].Raw) != string(raw) || got.Txs[0].Signature != "sig-old" {
		t.Fatalf("published %+v, want the recorded batch", got)
	}
	e.awaitJobsDone(t, "solana", 2)
	if n := signer.calls.Load(); n != 0 {
		t.Fatalf("signed %d times, want 0", n)
	}
}

// TestRedeliveredJobSignedWhenNothingRecorded: a job whose first delivery
// died before anything reached TXS is signed on its redelivery.
func TestRedeliveredJobSignedWhenNothingRecorded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond}
	e.deliverOnceUnacked(t, cfg, "eu-lost")
	signer := &randomSigner{}
	w := e.newWorker(cfg, signer)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()
	if got := e.nextBatch(t); got.OrderID != "eu-lost" {
		t.Fatalf("published a batch of %s", got.OrderID)
	}
	e.awaitJobsDone(t, "solana", 2)
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1", n)
	}
}

// TestRedeliveredRefusalStaysRefused: a job whose earlier delivery refused
// it (the refusal stored, its bot answered) and died before the ack is not
// signed on its redelivery, though what refused it may have changed since
// (a wallet topped up): its bot was told it did not trade. It is refused
// again with the stored error.
func TestRedeliveredRefusalStaysRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	cfg := Config{Chain: "solana", Concurrency: 2, AckWait: 500 * time.Millisecond, Beat: 50 * time.Millisecond}
	e.deliverOnceUnacked(t, cfg, "eu-refused")
	body := apierr.Newf(apierr.InsufficientBalance, "W", "wallet W holds too little").Body()
	data, _ := json.Marshal(&wire.Order{OrderID: "eu-refused", State: wire.StateFailed, Error: &body, Signatures: []wire.SigState{}})
	if _, err := e.b.Orders.Create(ctx, "eu-refused", data); err != nil {
		t.Fatal(err)
	}
	signer := &randomSigner{}
	w := e.newWorker(cfg, signer)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = w.Run(wctx) }()
	e.awaitJobsDone(t, "solana", 2)
	if n := signer.calls.Load(); n != 0 {
		t.Fatalf("signed %d times, want 0: the order was refused before", n)
	}
	if n := e.batches(t); n != 0 {
		t.Fatalf("%d batches in TXS, want none", n)
	}
	if o := e.awaitFailed(t, "eu-refused", apierr.InsufficientBalance); len(o.Signatures) != 0 {
		t.Fatalf("record %+v", o)
	}
}

// TestOneBatchPerOrder: when TXS has a batch of the order already (another
// worker's, published under another message id), a delivery that signs
// again is refused by the stream and acked; its batch is never sent.
func TestOneBatchPerOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	data, _ := json.Marshal(wire.TxBatch{OrderID: "eu-race", Chain: "solana",
		Txs: []wire.SignedTx{{Wallet: "W", Signature: "sig-first", Raw: []byte("first")}}})
	if _, err := e.js.Publish(ctx, bus.BatchSubject("solana", "eu-race"), data, jetstream.WithMsgID("elsewhere")); err != nil {
		t.Fatal(err)
	}
	signer := &randomSigner{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = w.Run(wctx) }()
	e.publishJob(t, "eu-race", "")
	e.awaitJobsDone(t, "solana", 1)
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1", n)
	}
	if n := e.batches(t); n != 1 {
		t.Fatalf("%d batches in TXS, want the first only", n)
	}
	if got := e.batchOf(t, "solana", "eu-race"); got.Txs[0].Signature != "sig-first" {
		t.Fatalf("TXS holds %s for the order, want the first batch", got.Txs[0].Signature)
	}
}

// deliverOnceUnacked publishes a job and takes its first delivery from the
// chain's worker consumer without acking it, as a worker that died at once
// would: the next worker gets it as a redelivery.
func (e *env) deliverOnceUnacked(t *testing.T, cfg Config, id string) {
	t.Helper()
	ctx := context.Background()
	cfg.defaults()
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer(cfg.Chain), FilterSubject: bus.OrdersSubject(cfg.Chain),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait, MaxDeliver: cfg.MaxAttempts + 1,
		MaxAckPending: 10 * cfg.Concurrency,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.publishJob(t, id, "")
	msgs, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range msgs.Messages() {
		n++
	}
	if n != 1 {
		t.Fatalf("took %d deliveries, want 1", n)
	}
}

// awaitJobsDone waits until the chain's worker consumer has delivered
// at least deliveries messages and holds none unacked or pending.
func (e *env) awaitJobsDone(t *testing.T, chain string, deliveries uint64) {
	t.Helper()
	poll.Until(t, 15*time.Second, "jobs acked", func() bool {
		c, err := e.js.Consumer(context.Background(), bus.StreamOrders, bus.WorkerConsumer(chain))
		if err != nil {
			return false
		}
		info, err := c.Info(context.Background())
		return err == nil && info.Delivered.Consumer >= deliveries && info.NumAckPending == 0 &&
			info.NumPending == 0 && info.NumRedelivered == 0
	})
}

// batches counts the signed batches in TXS.
func (e *env) batches(t *testing.T) uint64 {
	t.Helper()
	ctx := context.Background()
	st, err := e.js.Stream(ctx, bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Voids (a refusal's, an ingress's) are no batches.
	n := uint64(0)
	for seq := info.State.FirstSeq; seq > 0 && seq <= info.State.LastSeq; seq++ {
		if m, err := st.GetMsg(ctx, seq); err == nil && m.Header.Get(bus.HeaderVoid) == "" {
			n++
		}
	}
	return n
}

// batchOf returns the order's batch in TXS, or nil.
func (e *env) batchOf(t *testing.T, chain, id string) *wire.TxBatch {
	t.Helper()
	st, err := e.js.Stream(context.Background(), bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetLastMsgForSubject(context.Background(), bus.BatchSubject(chain, id))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get(bus.HeaderVoid) != "" {
		return nil // the order's void: no batch
	}
	var b wire.TxBatch
	if err := json.Unmarshal(m.Data, &b); err != nil {
		t.Fatal(err)
	}
	return &b
}

// TestBusinessErrorAnswered checks that a refusal reaches the waiting
// ingress, marks the order failed and is not retried.
func TestBusinessErrorAnswered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		err     *apierr.Error
		details string
		// learned is what the signer learned before refusing, kept on
		// the failed record.
		learned *wire.Refusal
	}{
		{"business refusal", apierr.Newf(apierr.TokenNotFound, "T", "no curve"), "T", nil},
		// A paused venue is a 503 that may pass later, yet retrying here
		// cannot help while its checks fail: it is answered at once, so
		// ingress gives the charge back instead of waiting out the retries.
		{"paused venue", apierr.Newf(apierr.VenuePaused, "pump_fun", "pump_fun is paused"), "pump_fun", nil},
		// So is a launch this worker cannot serve (no metadata store).
		{"chain unavailable", apierr.Newf(apierr.ChainUnavailable, "solana", "token launches need a metadata store; none is configured"), "solana", nil},
		{"refusal with the route and the probed tax", apierr.Newf(apierr.TaxOutOfRange, `{"buy_tax_pct":5,"sell_tax_pct":10}`, "taxed"),
			`{"buy_tax_pct":5,"sell_tax_pct":10}`, &wire.Refusal{Route: "uniswap_v2 pair 0xP", Tax: &wire.TaxProbe{BuyPct: 5, SellPct: 10}}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			signer := &randomSigner{err: tt.err}
			if tt.learned != nil {
				r := *tt.learned
				r.Err = tt.err
				signer.err = &r
			}
			inbox, sub := e.runWorker(t, signer)
			id := fmt.Sprintf("eu-biz%d", i)
			order := &wire.Order{OrderID: id, State: wire.StatePending}
			data, _ := json.Marshal(order)
			if _, err := e.b.Orders.Create(context.Background(), id, data); err != nil {
				t.Fatal(err)
			}
			e.publishJob(t, id, inbox)
			r := nextReply(t, sub)
			if r.Error == nil || r.Error.Code != tt.err.Code || r.Error.Details == nil || *r.Error.Details != tt.details || r.Signatures == nil {
				t.Fatalf("reply %+v", r)
			}
			o := e.awaitFailed(t, id, tt.err.Code)
			if n := signer.calls.Load(); n != 1 {
				t.Fatalf("signed %d times, want 1 (a refusal is final)", n)
			}
			if want := tt.learned; want != nil && (o.Route != want.Route || o.Tax == nil || *o.Tax != *want.Tax) {
				t.Fatalf("record route %q tax %+v, want %q %+v", o.Route, o.Tax, want.Route, want.Tax)
			}
		})
	}
}

// TestRefusalKeepsTheChainFound: an EVM order that named no chain, refused
// once the signer found its pool on a chain (its tax above max_tax, say),
// is on record, and in its event, with that chain, as an accepted order is.
func TestRefusalKeepsTheChainFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refused := apierr.Newf(apierr.TaxOutOfRange, `{"buy_tax_pct":5,"sell_tax_pct":10}`, "taxed")
	signer := &randomSigner{err: &wire.Refusal{Err: refused, Chain: wire.ChainBase, Route: "uniswap_v2 pool 0xP on base",
		Tax: &wire.TaxProbe{BuyPct: 5, SellPct: 10}}}
	inbox, _ := e.run(t, e.newWorker(Config{Chain: wire.ChainAnyEVM, Beat: 50 * time.Millisecond}, signer))
	id := "evm-nochain"
	data, _ := json.Marshal(&wire.Order{OrderID: id, State: wire.StatePending, Family: wire.FamilyEVM})
	if _, err := e.b.Orders.Create(context.Background(), id, data); err != nil {
		t.Fatal(err)
	}
	e.publish(t, bus.OrdersSubject(wire.ChainAnyEVM), id, "", wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilyEVM,
		Token: "0x00000000000000000000000000000000000000BB", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "0x00000000000000000000000000000000000000AA", Amount: "1"}}, CreatedAt: time.Now()}, inbox)
	if o := e.awaitFailed(t, id, apierr.TaxOutOfRange); o.Chain != wire.ChainBase || o.Route == "" {
		t.Fatalf("record chain %q route %q, want base and the route", o.Chain, o.Route)
	}
}

// runWorker runs a Solana worker over signer until the test ends, and
// returns an inbox for its answers, subscribed.
func (e *env) runWorker(t *testing.T, signer Signer) (string, *nats.Subscription) {
	t.Helper()
	return e.run(t, e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer))
}

// run runs w until the test ends and returns an inbox for its answers,
// once w waits for jobs: a job published after that is a fresh first
// delivery, not one that waited for the worker's start past lateFirst
// (looked up as a redelivery is).
func (e *env) run(t *testing.T, w *Worker) (string, *nats.Subscription) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go func() { _ = w.Run(ctx) }()
	poll.Until(t, 10*time.Second, "the worker waiting for jobs", func() bool {
		c, err := e.js.Consumer(context.Background(), bus.StreamOrders, bus.WorkerConsumer(w.cfg.Chain))
		if err != nil {
			return false
		}
		info, err := c.Info(context.Background())
		return err == nil && info.NumWaiting > 0
	})
	inbox := nats.NewInbox()
	sub, err := e.nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	return inbox, sub
}

// nextReply reads the next answer of sub's inbox.
func nextReply(t *testing.T, sub *nats.Subscription) wire.Reply {
	t.Helper()
	return bustest.NextReply(t, sub, 10*time.Second)
}

// TestChainReadFailuresCounted: a signing that failed because the chain's
// endpoint did not answer counts as the chain's RPC error (method sign);
// one that failed otherwise (the bus) does not.
func TestChainReadFailuresCounted(t *testing.T) {
	sign := metrics.RPCErrors.WithLabelValues("solana", "sign")
	for _, tc := range []struct {
		err  error
		want float64
	}{
		{fmt.Errorf("read the market: %w", &endpoint.Error{Endpoint: "solana rpc", Reason: "timeout"}), 1},
		{errors.New("nats: timeout"), 0},
	} {
		e := newEnv(t)
		signer := &randomSigner{err: tc.err}
		w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond, MaxAttempts: 1}, signer)
		ctx, stop := context.WithCancel(context.Background())
		go func() { _ = w.Run(ctx) }()
		inbox := nats.NewInbox()
		sub, err := e.nc.SubscribeSync(inbox)
		if err != nil {
			t.Fatal(err)
		}
		before := counted(sign)
		e.publishJob(t, fmt.Sprint("eu-read-", tc.want), inbox)
		if r := nextReply(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
			t.Fatalf("reply %+v", r.Error)
		}
		stop()
		if got := counted(sign) - before; got != tc.want {
			t.Errorf("%v: counted %v, want %v", tc.err, got, tc.want)
		}
	}
}

// counted reads a counter.
func counted(c prometheus.Counter) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}

// TestSignerPanicAnswered: a job that makes the signer panic (a defect)
// does not stop the worker: its order is answered 500 INTERNAL with its id
// and stored failed, once, and the worker signs the next job.
func TestSignerPanicAnswered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &randomSigner{}
	signer.panics.Store(true)
	inbox, sub := e.runWorker(t, signer)
	e.publishJob(t, "eu-panic", inbox)
	r := nextReply(t, sub)
	if r.Error == nil || r.Error.Code != apierr.Internal || r.Error.Details == nil || !strings.Contains(*r.Error.Details, "eu-panic") {
		t.Fatalf("reply %+v, want INTERNAL with the order id", r)
	}
	e.awaitFailed(t, "eu-panic", apierr.Internal)
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times, want 1: a defect meets every delivery", n)
	}
	// The same of a panic in one of the signer's goroutines.
	signer.panics.Store(false)
	signer.inGroup.Store(true)
	e.publishJob(t, "eu-panic-in-group", inbox)
	if r = nextReply(t, sub); r.Error == nil || r.Error.Code != apierr.Internal {
		t.Fatalf("reply %+v, want INTERNAL", r)
	}
	e.awaitFailed(t, "eu-panic-in-group", apierr.Internal)
	signer.inGroup.Store(false)
	e.publishJob(t, "eu-after-panic", inbox)
	if b := e.nextBatch(t); b.OrderID != "eu-after-panic" {
		t.Fatalf("batch of %s after the panic", b.OrderID)
	}
}

// TestBatchCarriesAutoOrders: the signed batch carries the buy's exits, so
// a broadcaster that must create the order record (ingress could not store
// it while a stream failed over) keeps them and the exits engine opens the
// position.
func TestBatchCarriesAutoOrders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.newWorker(Config{Chain: "solana", Concurrency: 1, Beat: 50 * time.Millisecond}, &randomSigner{})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()

	pct := 50.0
	job := wire.SwapJob{OrderID: "eu-exits1", AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, AutoOrders: []wire.AutoOrder{{Type: "take_profit", TriggerPct: &pct, SellPct: 100}},
		CreatedAt: time.Now()}
	data, _ := json.Marshal(job)
	if _, err := e.js.Publish(context.Background(), bus.OrdersSubject("solana"), data, jetstream.WithMsgID(job.OrderID)); err != nil {
		t.Fatal(err)
	}
	got := e.nextBatch(t)
	if len(got.AutoOrders) != 1 || got.AutoOrders[0].Type != "take_profit" || *got.AutoOrders[0].TriggerPct != pct {
		t.Fatalf("batch auto_orders %+v, want the job's", got.AutoOrders)
	}
}

// awaitFailed waits until the order record is failed with code.
func (e *env) awaitFailed(t *testing.T, id string, code apierr.Code) *wire.Order {
	t.Helper()
	return poll.Value(t, 15*time.Second, "order "+id+" failed with "+string(code), func() (*wire.Order, bool) {
		entry, err := e.b.Orders.Get(context.Background(), id)
		if err != nil {
			return nil, false
		}
		var o wire.Order
		_ = json.Unmarshal(entry.Value(), &o)
		return &o, o.State == wire.StateFailed && o.Error != nil && o.Error.Code == code
	})
}

// launcher is a randomSigner that also launches tokens.
type launcher struct {
	randomSigner
	deploys atomic.Int32
}

func (l *launcher) SignDeploy(_ context.Context, job *wire.DeployJob) (*wire.TxBatch, error) {
	l.deploys.Add(1)
	return &wire.TxBatch{OrderID: job.OrderID, Chain: wire.ChainSolana, Kind: wire.KindDeploy,
		Txs: []wire.SignedTx{{Wallet: job.Wallet, Signature: "s", Raw: []byte{1}}}}, nil
}

func (l *launcher) signed() int32 { return l.calls.Load() + l.deploys.Load() }

// evmWallet is account a's EVM wallet, in lower case as a job may spell it.
const evmWallet = "0x00000000000000000000000000000000000000aa"

// TestWalletNotOwned publishes jobs straight onto the orders stream that
// name wallets their account does not own: each ends as 403
// WALLET_NOT_OWNED naming the wallet, answered to the waiting inbox, the
// order failed, nothing signed and nothing handed to the broadcaster. The
// same jobs naming the account's own wallets are signed.
func TestWalletNotOwned(t *testing.T) {
	t.Parallel()
	swap := func(account, chain string, family wire.Family, wallets ...string) func(id string) (string, string, any) {
		return func(id string) (string, string, any) {
			j := wire.SwapJob{OrderID: id, AccountID: account, Family: family, Chain: chain, Token: "T", Side: wire.Buy, CreatedAt: time.Now()}
			for _, w := range wallets {
				j.Legs = append(j.Legs, wire.Leg{Wallet: w, Amount: "1"})
			}
			return chain, "", j
		}
	}
	deploy := func(account, creator string, buyers ...string) func(id string) (string, string, any) {
		return func(id string) (string, string, any) {
			j := wire.DeployJob{OrderID: id, AccountID: account, Wallet: creator, Launches: []wire.Launch{{Dex: wire.DexPumpFun}},
				BundleMode: wire.BundlePacked, CreatedAt: time.Now()}
			for _, b := range buyers {
				j.Buys = append(j.Buys, wire.DeployBuy{Wallet: b, Lamports: 1})
			}
			return wire.ChainSolana, wire.KindDeploy, j
		}
	}
	tests := []struct {
		name string
		job  func(id string) (chain, kind string, job any)
		want string // the wallet named in details; "" signs
	}{
		{"own wallet", swap("a", "solana", wire.FamilySol, "W"), ""},
		{"own evm wallet in lower case", swap("a", "base", wire.FamilyEVM, evmWallet), ""},
		{"own evm wallet, chain omitted", swap("a", wire.ChainAnyEVM, wire.FamilyEVM, evmWallet), ""},
		{"another account's wallet", swap("a", "solana", wire.FamilySol, "W", "V"), "V"},
		{"the other account's job naming a's wallet", swap("b", "solana", wire.FamilySol, "W"), "W"},
		{"a wallet the registry does not know", swap("a", "solana", wire.FamilySol, "X"), "X"},
		{"an account the registry does not know", swap("nobody", "solana", wire.FamilySol, "W"), "W"},
		{"no account at all", swap("", "solana", wire.FamilySol, "W"), "W"},
		{"the job's family does not choose the wallets", swap("a", "solana", wire.FamilyEVM, evmWallet), evmWallet},
		{"a solana wallet on an evm chain", swap("a", "eth", wire.FamilySol, "W"), "W"},
		{"own deploy", deploy("a", "W", "W"), ""},
		{"deploy with another account's creator", deploy("a", "V", "W"), "V"},
		{"deploy with another account's buyer", deploy("a", "W", "W", "V"), "V"},
	}
	e := newEnv(t)
	signer := &launcher{}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	for _, chain := range []string{"solana", "eth", "base", wire.ChainAnyEVM} {
		w := e.newWorker(Config{Chain: chain, Beat: 50 * time.Millisecond, OwnerWait: 100 * time.Millisecond}, signer)
		go func() { _ = w.Run(ctx) }()
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("eu-owner%d", i)
			chain, kind, job := tt.job(id)
			inbox := nats.NewInbox()
			sub, err := e.nc.SubscribeSync(inbox)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Unsubscribe()
			before := signer.signed()
			e.publish(t, bus.OrdersSubject(chain), id, kind, job, inbox)
			if tt.want == "" {
				got := e.nextBatch(t)
				if got.OrderID != id || signer.signed() != before+1 {
					t.Fatalf("batch of %s, signed %d times, want %s signed once", got.OrderID, signer.signed()-before, id)
				}
				return
			}
			r := nextReply(t, sub)
			if r.Error == nil || r.Error.Code != apierr.WalletNotOwned || r.Error.Details == nil || *r.Error.Details != tt.want ||
				r.OrderID != id || r.Signatures == nil || len(r.Signatures) != 0 {
				t.Fatalf("reply %+v", r)
			}
			if status := apierr.WalletNotOwned.Status(); status != 403 {
				t.Fatalf("WALLET_NOT_OWNED is HTTP %d, want 403", status)
			}
			o := e.awaitFailed(t, id, apierr.WalletNotOwned)
			if *o.Error.Details != tt.want {
				t.Fatalf("order error %+v", o.Error)
			}
			if n := signer.signed(); n != before {
				t.Fatalf("signed %d times for a refused job", n-before)
			}
			if e.batchOf(t, chain, id) != nil {
				t.Fatal("a batch was published for a refused job")
			}
		})
	}
	// Nothing of the refused jobs reached the broadcaster: the stream of
	// signed batches got exactly one per job that was signed.
	signedJobs := uint64(0)
	for _, tt := range tests {
		if tt.want == "" {
			signedJobs++
		}
	}
	if n := e.batches(t); n != signedJobs {
		t.Fatalf("%d batches published, want %d", n, signedJobs)
	}
}

// TestWalletAddedWhileWaiting: a wallet the registry view does not show yet
// (this process's view lags the ingress that accepted the order) holds the
// job, unsigned, until it appears, and the job is then signed.
func TestWalletAddedWhileWaiting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &randomSigner{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond, OwnerWait: time.Minute}, signer)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = w.Run(ctx) }()

	e.publishSwap(t, wire.SwapJob{OrderID: "eu-late1", AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T",
		Side: wire.Buy, Legs: []wire.Leg{{Wallet: "N", Amount: "1"}}, CreatedAt: time.Now()}, "")
	if poll.True(500*time.Millisecond, func() bool { return signer.calls.Load() > 0 }) {
		t.Fatal("signed for a wallet the registry does not show")
	}
	e.putAccount(t, "a", registry.Wallet{Address: "W", Label: "W1", Family: wire.FamilySol},
		registry.Wallet{Address: "N", Label: "W2", Family: wire.FamilySol})
	if got := e.nextBatch(t); got.OrderID != "eu-late1" || signer.calls.Load() != 1 {
		t.Fatalf("batch %s after %d signings", got.OrderID, signer.calls.Load())
	}
}

// TestQueuedLaunchOnPausedVenue: a launch queued before its venue was
// paused reaches the worker after the pause; it is refused with
// VENUE_PAUSED before anything is signed, so that ingress gives its charge
// back. A launch on another venue is signed.
func TestQueuedLaunchOnPausedVenue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	kv, err := venues.Declare(context.Background(), e.js, 1)
	if err != nil {
		t.Fatal(err)
	}
	view := venues.NewView(kv, nil)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = view.Run(ctx) }()
	if _, _, _, err := venues.NewStore(kv).Record(ctx, venues.State{Venue: venues.DBC, Chain: wire.ChainSolana, State: venues.Paused,
		Reason: "dbc program upgraded", CheckedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "the worker's view sees the pause", func() bool { return view.Open(wire.ChainSolana, venues.DBC) != nil })
	signer := &launcher{}
	w := e.newWorker(Config{Chain: wire.ChainSolana, Beat: 50 * time.Millisecond, Venues: view}, signer)
	go func() { _ = w.Run(ctx) }()

	tests := []struct {
		name  string
		dexes []string
		code  apierr.Code // "" signs
	}{
		{"bags on the paused dbc", []string{wire.DexBags}, apierr.VenuePaused},
		{"pump_fun and bags", []string{wire.DexPumpFun, wire.DexBags}, apierr.VenuePaused},
		{"bonk trades", []string{wire.DexBonk}, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("eu-paused%d", i)
			j := wire.DeployJob{OrderID: id, AccountID: "a", Wallet: "W", BundleMode: wire.BundlePacked, CreatedAt: time.Now()}
			for _, d := range tt.dexes {
				j.Launches = append(j.Launches, wire.Launch{Dex: d})
			}
			inbox := nats.NewInbox()
			sub, err := e.nc.SubscribeSync(inbox)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Unsubscribe()
			before := signer.signed()
			e.publish(t, bus.OrdersSubject(wire.ChainSolana), id, wire.KindDeploy, j, inbox)
			if tt.code == "" {
				if got := e.nextBatch(t); got.OrderID != id || signer.signed() != before+1 {
					t.Fatalf("batch of %s, signed %d times", got.OrderID, signer.signed()-before)
				}
				return
			}
			r := nextReply(t, sub)
			if r.Error == nil || r.Error.Code != tt.code || r.Error.Details == nil || *r.Error.Details != venues.DBC ||
				!strings.Contains(r.Error.Message, "dbc program upgraded") {
				t.Fatalf("reply %+v", r)
			}
			e.awaitFailed(t, id, tt.code)
			if signer.signed() != before {
				t.Fatal("a launch on a paused venue was signed")
			}
		})
	}
}

// TestReplayedJobLeavesItsOrder delivers, to a consumer made afresh, a job
// whose order an earlier delivery ran to the end: a job past its useful
// life is refused, but the refusal must neither turn the confirmed order
// into a failure nor send a failed event for it, and nothing is signed.
func TestReplayedJobLeavesItsOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &randomSigner{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond, JobMaxAge: time.Second}, signer)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()

	id := "eu-replayed1"
	confirmed := &wire.Order{OrderID: id, State: wire.StateConfirmed,
		Signatures: []wire.SigState{{Signature: "s1", Wallet: "W", State: wire.StateConfirmed}}}
	data, _ := json.Marshal(confirmed)
	if _, err := e.b.Orders.Create(ctx, id, data); err != nil {
		t.Fatal(err)
	}
	events, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{Durable: "probe-events", AckPolicy: jetstream.AckNonePolicy})
	if err != nil {
		t.Fatal(err)
	}
	inbox := nats.NewInbox()
	sub, err := e.nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	e.publishSwap(t, wire.SwapJob{OrderID: id, AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now().Add(-time.Minute)}, inbox)
	go func() { _ = w.Run(ctx) }()
	if _, err := sub.NextMsg(10 * time.Second); err != nil {
		t.Fatalf("the refusal is still answered: %v", err)
	}
	entry, err := e.b.Orders.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got wire.Order
	_ = json.Unmarshal(entry.Value(), &got)
	if got.State != wire.StateConfirmed || got.Error != nil || len(got.Signatures) != 1 {
		t.Fatalf("the replay changed the confirmed order: %+v", got)
	}
	if n := signer.calls.Load(); n != 0 {
		t.Fatalf("signed %d times", n)
	}
	if msgs, err := events.Fetch(1, jetstream.FetchMaxWait(300*time.Millisecond)); err == nil {
		for m := range msgs.Messages() {
			t.Fatalf("an event was sent for the replayed job: %s", m.Data())
		}
	}
}

// TestJobOfTheOtherNetworkHandedBack: a worker left on the local chains
// (test doubles) beside roles serving the chain's public network shares
// the chain's consumer with that network's workers. A job saying it was
// published for the public network is handed back unsigned by it, again
// and again, and signed once by a worker of its network when one comes.
// A job saying nothing (an earlier version's) is taken by any worker.
func TestJobOfTheOtherNetworkHandedBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := Config{Chain: "solana", Concurrency: 2, Beat: 50 * time.Millisecond, MaxAttempts: 50, Network: wire.NetworkPublic}
	local, public := &randomSigner{}, &randomSigner{}
	run := func(cfg Config, s Signer) {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = e.newWorker(cfg, s).Run(ctx) }()
		t.Cleanup(func() { stop(); <-done })
	}
	localCfg := cfg
	localCfg.Local, localCfg.Network = true, wire.NetworkLocal
	run(localCfg, local)

	job := wire.SwapJob{OrderID: "eu-net1", AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now()}
	data, _ := json.Marshal(job)
	m := &nats.Msg{Subject: bus.OrdersSubject("solana"), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderOrder, job.OrderID)
	m.Header.Set(bus.HeaderNetwork, wire.NetworkPublic)
	if _, err := e.js.PublishMsg(context.Background(), m, jetstream.WithMsgID(job.OrderID)); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "the job handed back by the local worker twice", func() bool {
		cons, err := e.js.Consumer(context.Background(), bus.StreamOrders, bus.WorkerConsumer("solana"))
		if err != nil {
			return false
		}
		info, err := cons.Info(context.Background())
		return err == nil && info.NumRedelivered > 0 && info.Delivered.Consumer >= 3
	})
	if n := local.calls.Load(); n != 0 {
		t.Fatalf("the worker on the local chains signed a job of the public network %d times", n)
	}

	run(cfg, public)
	if b := e.nextBatch(t); b.OrderID != job.OrderID {
		t.Fatalf("batch of %s, want %s", b.OrderID, job.OrderID)
	}
	if l, p := local.calls.Load(), public.calls.Load(); l != 0 || p != 1 {
		t.Fatalf("signed %d times on the local chains and %d on the public network, want 0 and 1", l, p)
	}
	// The batch says the network it was signed on, for a broadcaster of it.
	st, err := e.js.Stream(context.Background(), bus.StreamTxs)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := st.GetLastMsgForSubject(context.Background(), bus.BatchSubject("solana", job.OrderID))
	if err != nil {
		t.Fatal(err)
	}
	if n := raw.Header.Get(bus.HeaderNetwork); n != wire.NetworkPublic {
		t.Fatalf("the batch says network %q, want %q", n, wire.NetworkPublic)
	}

	e.publishJob(t, "eu-net2", "")
	poll.Until(t, 10*time.Second, "a job saying no network signed by either worker", func() bool {
		return local.calls.Load()+public.calls.Load() == 2
	})
}

// TestJobOfTheOtherNetworkRefusedOnItsLastDelivery: a job whose last
// delivery reaches a worker on another network than its publisher's is
// refused, free, saying so (handed back, it would be dropped unanswered:
// its order pending for good, and an exit's sell holding its position),
// and nothing is signed.
func TestJobOfTheOtherNetworkRefusedOnItsLastDelivery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	local := &randomSigner{}
	w := e.newWorker(Config{Chain: "solana", Concurrency: 2, Beat: 50 * time.Millisecond, MaxAttempts: 2,
		Local: true, Network: wire.NetworkLocal}, local)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })

	inbox := nats.NewInbox()
	sub, err := e.nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	job := wire.SwapJob{OrderID: "eu-net3", AccountID: "a", Family: wire.FamilySol, Chain: "solana", Token: "T", Side: wire.Buy,
		Legs: []wire.Leg{{Wallet: "W", Amount: "1"}}, CreatedAt: time.Now()}
	data, _ := json.Marshal(job)
	m := &nats.Msg{Subject: bus.OrdersSubject("solana"), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderOrder, job.OrderID)
	m.Header.Set(bus.HeaderReply, inbox)
	m.Header.Set(bus.HeaderNetwork, wire.NetworkPublic)
	if _, err := e.js.PublishMsg(context.Background(), m, jetstream.WithMsgID(job.OrderID)); err != nil {
		t.Fatal(err)
	}
	msg, err := sub.NextMsg(15 * time.Second)
	if err != nil {
		t.Fatalf("no answer on the job's last delivery: %v", err)
	}
	var r wire.Reply
	if err := json.Unmarshal(msg.Data, &r); err != nil || r.Error == nil || r.Error.Code != apierr.ChainUnavailable ||
		!strings.Contains(r.Error.Message, "another network") {
		t.Fatalf("answer %s", msg.Data)
	}
	poll.Until(t, 5*time.Second, "the order recorded failed", func() bool {
		o, err := orders.NewStore(e.b.Orders).Get(context.Background(), job.OrderID)
		return err == nil && o.State == wire.StateFailed
	})
	if n := local.calls.Load(); n != 0 {
		t.Fatalf("signed %d times on another network than the job's", n)
	}
}
