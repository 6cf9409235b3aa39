package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// heldBatch is a batch as the consumer hands it to the broadcaster: its
// delivery count, when the stream stored it, and how the handler ended it.
type heldBatch struct {
	jetstream.Msg
	subject string
	data    []byte
	hdr     nats.Header
	attempt uint64
	stored  time.Time
	mu      sync.Mutex
	end     string
}

func (m *heldBatch) Data() []byte                     { return m.data }
func (m *heldBatch) Headers() nats.Header             { return m.hdr }
func (m *heldBatch) Subject() string                  { return m.subject }
func (m *heldBatch) InProgress() error                { return nil }
func (m *heldBatch) set(s string) error               { m.mu.Lock(); m.end = s; m.mu.Unlock(); return nil }
func (m *heldBatch) Ack() error                       { return m.set("ack") }
func (m *heldBatch) Nak() error                       { return m.set("nak") }
func (m *heldBatch) NakWithDelay(time.Duration) error { return m.set("nak") }
func (m *heldBatch) Term() error                      { return m.set("term") }
func (m *heldBatch) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: m.attempt, Timestamp: m.stored}, nil
}

// delivered is b handed out as delivery attempt, stored in the stream at
// stored, its answer going to inbox.
func delivered(b *wire.TxBatch, inbox string, attempt uint64, stored time.Time) *heldBatch {
	data, _ := json.Marshal(b)
	h := nats.Header{}
	h.Set(bus.HeaderReply, inbox)
	return &heldBatch{subject: bus.BatchSubject(b.Chain, b.OrderID), data: data, hdr: h, attempt: attempt, stored: stored}
}

// TestRestartBetweenRetriesLegNotMined: a broadcaster restarts between its
// retries of a batch; a leg never sent (429 on every try) is answered not
// taken and is never tracked, re-sent or mined: the delivery after the
// restart trusts the note the one before it wrote.
func TestRestartBetweenRetriesLegNotMined(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 2)
	a, _ := lc.transfer(t, 0, 0, 1e9)
	b, btx := lc.transfer(t, 1, 0, 1e9)
	base := lc.throttled(t, b, 3)
	chains := map[string]Chain{"base": base}
	cfg := tries(3)
	p := newPipeline(t)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	bt := batchOf("evm-restart-leg", "base", wire.FamilyEVM, a, b)
	now := time.Now()
	br1 := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, chains, p.log)
	m1 := delivered(bt, inbox, 1, now)
	br1.handle(m1)
	// the process restarts
	br2 := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, chains, p.log)
	m2 := delivered(bt, inbox, 2, now)
	br2.handle(m2)
	m3 := delivered(bt, inbox, 3, now)
	br2.handle(m3)
	r := answer(t, sub)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go br2.tracker.run(ctx)
	if lc.mined(btx, 3*time.Second) {
		t.Errorf("leg b never sent by anyone, answered not taken (reply %v), was tracked, re-sent and mined", r.Signatures)
	}
}

// TestOldBatchLegSentBeforeNotFailed: a first delivery of a batch that
// waited in the stream (a delivery the stream lost count of sent leg b):
// b is throttled now, and is noted maybe sent, not left out, so that it is
// never held failed while it is on chain.
func TestOldBatchLegSentBeforeNotFailed(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 2)
	a, _ := lc.transfer(t, 0, 0, 1e9)
	b, btx := lc.transfer(t, 1, 0, 1e9)
	// the lost delivery sent b straight to the node
	if err := lc.through(t, lc.chain.Handler()).Send(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	base := lc.throttled(t, b, 5)
	chains := map[string]Chain{"base": base}
	cfg := tries(2)
	p := newPipeline(t)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	bt := batchOf("evm-old-batch", "base", wire.FamilyEVM, a, b)
	old := time.Now().Add(-3 * time.Second)
	br := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, chains, p.log)
	m1 := delivered(bt, inbox, 1, old)
	br.handle(m1)
	m2 := delivered(bt, inbox, 2, old)
	br.handle(m2)
	answer(t, sub)
	o := p.order(t, bt.OrderID)
	if lc.mined(btx, 3*time.Second) {
		for _, s := range o.Signatures {
			if s.Signature == b.Signature && s.State == wire.StateFailed {
				t.Errorf("leg b is on chain but the order holds it failed (%s), untracked", s.Error)
			}
		}
	}
}

// answer is the next answer on sub, which a handled batch sends.
func answer(t *testing.T, sub *nats.Subscription) wire.Reply {
	t.Helper()
	return bustest.NextReply(t, sub, 2*time.Second)
}

// TestReopenUnreadableRecord: a re-send refused while the order's record
// cannot be read is counted maybe sent, not refused: what was sent before
// is not known, and answered not taken it could land after all.
func TestReopenUnreadableRecord(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "reopen-unreadable")
	if err := b.JS.DeleteKeyValue(context.Background(), bus.BucketOrders); err != nil {
		t.Fatal(err)
	}
	br := &Broadcaster{orders: orders.NewStore(b.Buckets.Orders)}
	outcome := func() *outcome {
		return br.classify(&wire.TxBatch{Chain: wire.ChainSolana, Txs: make([]wire.SignedTx, 2)},
			[]sendResult{{signature: "a", kind: refused, err: errors.New("blockhash not found")}, {signature: "b", kind: sent}}, nil)
	}
	d := &delivery{batch: batchOf("eu-unreadable", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Signature: "a"}, wire.SignedTx{Signature: "b"}), attempt: 2, log: slog.New(slog.DiscardHandler)}
	o := outcome()
	br.reopenRecorded(context.Background(), d, o)
	if o.results[0].kind != unknown || o.unknown != 1 || o.refused != 0 {
		t.Fatalf("results %+v: a refused re-send with the record unreadable must count maybe sent", o.results)
	}
	// A first delivery's refusal is its own, whatever the record says.
	d.attempt = 1
	o = outcome()
	br.reopenSent(context.Background(), d, o)
	if o.results[0].kind != refused || o.refused != 1 {
		t.Fatalf("results %+v: a first delivery's refusal was counted maybe sent", o.results)
	}
}

// panicAt is a chain whose at-th send (1 the first) reaches it and then
// panics, as a defect met after the transaction left would.
type panicAt struct {
	Chain
	at    int64
	sends atomic.Int64
}

func (p *panicAt) Send(ctx context.Context, tx wire.SignedTx) error {
	err := p.Chain.Send(ctx, tx)
	if p.sends.Add(1) == p.at {
		panic("a defect after the send")
	}
	return err
}

// TestSendPanicHandsTheBatchBack: a panic while a batch is sent does not
// stop the broadcaster; the batch comes back, its transaction (which the
// chain took) is answered taken, and the order ends confirmed.
func TestSendPanicHandsTheBatchBack(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 3, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: &panicAt{Chain: served(t, chain.Handler(), true), at: 1}})
	const id = "eu-send-panic"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error != nil || len(r.Signatures) != 1 || r.Signatures[0] != stx.Signature {
		t.Fatalf("reply %+v %v, want the transaction taken", r.Error, r.Signatures)
	}
	if o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("order %s %+v", o.State, o.Signatures)
	}
	if !strings.Contains(p.logs.String(), "message handler panicked") {
		t.Fatal("the panic was not logged")
	}
}

// panicAlways takes each send and then panics, as a defect that repeats.
type panicAlways struct{ Chain }

func (p panicAlways) Send(ctx context.Context, tx wire.SignedTx) error {
	_ = p.Chain.Send(ctx, tx)
	panic("a defect on every send")
}

// TestSendPanicOnEveryDelivery: a batch whose sending panics on every
// delivery is not dropped after the last with its transaction, which the
// chain took, neither answered nor tracked: the final delivery stores it
// maybe sent, and the order ends confirmed.
func TestSendPanicOnEveryDelivery(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: panicAlways{Chain: served(t, chain.Handler(), true)}})
	const id = "eu-panic-always"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || !strings.Contains(r.Error.Message, "may still land") {
		t.Fatalf("reply %+v %v, want the order answered as one that may still land", r.Error, r.Signatures)
	}
	if o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want confirmed", o.State, o.Signatures)
	}
	if !strings.Contains(p.logs.String(), "final delivery panicked") {
		t.Fatal("the final delivery's panic was not logged")
	}
	// The buy is in the account's trade history, for its next skip_if_bought.
	if _, err := p.bus.Buckets.Trades.Get(context.Background(), wire.TradeKey("acct-1", wire.FamilySol, wire.ChainSolana, "token")); err != nil {
		t.Fatalf("trade not recorded: %v", err)
	}
}

// throttleThenRefuse answers 429 to the first send, takes the second, and
// refuses every later one as a node that no longer has the transaction's
// blockhash, landed or not.
type throttleThenRefuse struct {
	next  http.Handler
	sends atomic.Int64
}

func (f *throttleThenRefuse) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, send := sendOf(r)
	if !send {
		f.next.ServeHTTP(w, r)
		return
	}
	switch f.sends.Add(1) {
	case 1:
		http.Error(w, "slow down", http.StatusTooManyRequests)
	case 2:
		f.next.ServeHTTP(w, r)
	default:
		refuseSend(w, body)
	}
}

// TestSendPanicAfterARetry: a transaction throttled on its first try (not
// sent, so not noted) is sent on the second, which panics before it notes
// anything; the third try's re-send is refused (its blockhash gone). The
// panic made this process forget it had handed the batch back itself, so
// the refusal counts maybe sent, as after a crash: the transaction, which
// landed, is never answered not taken.
func TestSendPanicAfterARetry(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 4, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: &panicAt{Chain: served(t, &throttleThenRefuse{next: chain.Handler()}, true), at: 2}})
	const id = "eu-panic-after-retry"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || !strings.Contains(r.Error.Message, "may still land") {
		t.Fatalf("reply %+v %v: a transaction the chain took was answered not taken", r.Error, r.Signatures)
	}
	if o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want confirmed", o.State, o.Signatures)
	}
}

// TestVoidMarkerAcked: the mark an ingress puts on an order's batch
// subject when it voids the order is no batch: acked, nothing sent, and
// not logged as an undecodable batch.
func TestVoidMarkerAcked(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	chain := &ledger{}
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: chain})
	if voided, err := bus.Void(context.Background(), p.bus.JS, []string{wire.ChainSolana}, "eu-voided"); err != nil || !voided {
		t.Fatalf("void: %v %v", voided, err)
	}
	poll.Until(t, 5*time.Second, "the void acked", func() bool {
		return strings.Contains(p.logs.String(), "order voided by its ingress")
	})
	if strings.Contains(p.logs.String(), "undecodable") {
		t.Fatal("the void was taken for a broken batch")
	}
}
