package broadcaster

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// killsEveryDelivery is a JetStream whose consumer of TXS hands the
// broadcaster no delivery: each is taken by a process killed at once
// (kill -9), until the stream's deliveries are spent and the server gives
// the batch up. Its other consumers are left as they are.
type killsEveryDelivery struct {
	jetstream.JetStream
	killed atomic.Int64
}

func (j *killsEveryDelivery) CreateOrUpdateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	c, err := j.JetStream.CreateOrUpdateConsumer(ctx, stream, cfg)
	if err != nil || stream != bus.StreamTxs {
		return c, err
	}
	return &killingEveryConsumer{Consumer: c, killed: &j.killed}, nil
}

type killingEveryConsumer struct {
	jetstream.Consumer
	killed *atomic.Int64
}

func (c *killingEveryConsumer) Consume(_ jetstream.MessageHandler, opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	return c.Consumer.Consume(func(jetstream.Msg) { c.killed.Add(1) }, opts...)
}

// publishBatch publishes b as a worker does, with a reply inbox no one
// reads: the ingress that waited is long gone.
func (p *pipeline) publishBatch(t *testing.T, b *wire.TxBatch) {
	t.Helper()
	data, _ := json.Marshal(b)
	m := &nats.Msg{Subject: bus.BatchSubject(b.Chain, b.OrderID), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, nats.NewInbox())
	m.Header.Set(bus.HeaderOrder, b.OrderID)
	if _, err := p.bus.JS.PublishMsg(context.Background(), m, jetstream.WithMsgID(b.OrderID)); err != nil {
		t.Fatal(err)
	}
}

// TestLaunchWhoseEveryDeliveryDied: a launch of three bundles whose every
// delivery dies with its broadcaster (the first bundle sent and landed by
// one of them) was dropped by the stream after its last, and its order
// left broadcast for good. The server's notice of it hands it once more
// to a broadcaster, which settles it as a final delivery does: the bundle
// on chain is not sent again, the two others are, and the order ends
// confirmed with all three.
func TestLaunchWhoseEveryDeliveryDied(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	p := newPipeline(t)
	js := &killsEveryDelivery{JetStream: p.bus.JS}
	c := &haltingChain{landed: map[string]bool{sig(1): true}, sent: map[int]int{}}
	p.startOn(t, js, Config{MaxAttempts: 1, AckWait: 500 * time.Millisecond, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-every-delivery-died", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w3", Signature: sig(3), Raw: []byte{3}, Bundle: 3, Kind: wire.TxBuy, Mint: "m", LastValidBlockHeight: 100})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
	p.publishBatch(t, b)

	o := p.orderIn(t, b.OrderID, 30*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Deploy == nil || len(o.Deploy.LandedTxs) != 3 {
		t.Fatalf("order %s %+v, want confirmed with the three bundles", o.State, o.Deploy)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent[1] != 0 || c.sent[2] != 1 || c.sent[3] != 1 {
		t.Fatalf("bundles sent %v, want the landed one never, each other once", c.sent)
	}
	if k := js.killed.Load(); k != 5 {
		t.Fatalf("the batch was delivered %d times, want the stream's five", k)
	}
	if !strings.Contains(p.logs.String(), "every delivery of a batch died") {
		t.Fatal("the batch taken from the server's notice was not logged")
	}
}

// TestSwapWhoseEveryDeliveryDied: a swap batch whose every delivery dies
// is sent and settled from the server's notice of it, as its final
// delivery would have been.
func TestSwapWhoseEveryDeliveryDied(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	js := &killsEveryDelivery{JetStream: p.bus.JS}
	p.startOn(t, js, Config{MaxAttempts: 1, AckWait: 500 * time.Millisecond, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: served(t, chain.Handler(), true)})
	b := batchOf("eu-swap-every-delivery-died", wire.ChainSolana, wire.FamilySol, stx)
	p.publishBatch(t, b)
	o := p.orderIn(t, b.OrderID, 30*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || len(o.Signatures) != 1 || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want confirmed", o.State, o.Signatures)
	}
	if k := js.killed.Load(); k != 5 {
		t.Fatalf("the batch was delivered %d times, want the stream's five", k)
	}
}

// panickingRelay is a relay whose every send of a bundle panics: a defect
// that every delivery of one launch meets.
type panickingRelay struct {
	haltingChain
	calls atomic.Int64
}

func (c *panickingRelay) SendBundle(context.Context, []wire.SignedTx) (string, error) {
	c.calls.Add(1)
	panic("a defect this launch meets")
}

// noticeDropped returns a wait for the server's word that it gave up the
// notice of a batch given up (the notice's own deliveries spent), which
// it then returns with how many times the notice was handed out.
func (p *pipeline) noticeDropped(t *testing.T) (wait func() uint64) {
	t.Helper()
	sub, err := p.bus.Conn.SubscribeSync("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + bus.StreamTxsGivenUp + "." + bus.GivenUpConsumer)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return func() uint64 {
		t.Helper()
		if _, err := sub.NextMsg(60 * time.Second); err != nil {
			t.Fatalf("the notice of the batch was never given up: %v", err)
		}
		c, err := p.bus.JS.Consumer(context.Background(), bus.StreamTxsGivenUp, bus.GivenUpConsumer)
		if err != nil {
			t.Fatal(err)
		}
		info, err := c.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return info.Delivered.Consumer
	}
}

// TestLaunchThatPanicsEveryDeliveryIsBounded: a launch whose handling
// panics on every delivery is taken from its notice givenUpDeliveries
// times more, then left: not once a second for the day its notice and
// batch are kept.
func TestLaunchThatPanicsEveryDeliveryIsBounded(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	p := newPipeline(t)
	c := &panickingRelay{haltingChain: haltingChain{landed: map[string]bool{}, sent: map[int]int{}}}
	cfg := Config{MaxAttempts: 1, AckWait: 500 * time.Millisecond, Poll: 20 * time.Millisecond}
	p.start(t, cfg, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-panics", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m", LastValidBlockHeight: 100})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
	dropped := p.noticeDropped(t)
	p.publishBatch(t, b)
	if n := dropped(); n != givenUpDeliveries {
		t.Fatalf("the notice handed out %d times, want %d", n, givenUpDeliveries)
	}
	want := int64(cfg.MaxAttempts+4) + givenUpDeliveries
	if n := c.calls.Load(); n != want {
		t.Fatalf("the launch's bundle sent %d times, want %d: each delivery of the stream and of the notice once", n, want)
	}
}

// killsEveryNotice is killsEveryDelivery whose consumer of the notices
// hands the broadcaster none either: a batch that kills every process
// that takes it (its memory, a fault of the runtime).
type killsEveryNotice struct {
	killsEveryDelivery
	notices atomic.Int64
}

func (j *killsEveryNotice) CreateOrUpdateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	if stream != bus.StreamTxsGivenUp {
		return j.killsEveryDelivery.CreateOrUpdateConsumer(ctx, stream, cfg)
	}
	c, err := j.JetStream.CreateOrUpdateConsumer(ctx, stream, cfg)
	if err != nil {
		return c, err
	}
	return &killingEveryConsumer{Consumer: c, killed: &j.notices}, nil
}

// TestBatchThatKillsEveryProcessIsBounded: a batch whose every delivery,
// and every taking from its notice, kills its broadcaster is taken
// givenUpDeliveries times from the notice, then left.
func TestBatchThatKillsEveryProcessIsBounded(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	js := &killsEveryNotice{killsEveryDelivery: killsEveryDelivery{JetStream: p.bus.JS}}
	p.startOn(t, js, Config{MaxAttempts: 1, AckWait: 500 * time.Millisecond, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: &haltingChain{landed: map[string]bool{}, sent: map[int]int{}}})
	dropped := p.noticeDropped(t)
	p.publishBatch(t, batchOf("eu-swap-kills", wire.ChainSolana, wire.FamilySol, wire.SignedTx{Wallet: "w1", Signature: "s1", Raw: []byte{1}}))
	if n := dropped(); n != givenUpDeliveries || js.notices.Load() != givenUpDeliveries {
		t.Fatalf("the notice handed out %d times (%d taken), want %d", n, js.notices.Load(), givenUpDeliveries)
	}
}

// TestStopHandsAGivenUpLaunchBack: a launch taken from its notice is cut
// by a stop as any delivery but the last is (it held the stop for its two
// minutes, though its notice handed back loses nothing); the next
// broadcaster takes the notice again and carries on from what landed.
func TestStopHandsAGivenUpLaunchBack(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	c := &stallingRelayChain{stall: 2, stalled: make(chan struct{}), landed: map[string]bool{}, sent: map[int]int{}}
	p := newPipeline(t)
	cfg := Config{MaxAttempts: 1, AckWait: 500 * time.Millisecond, Poll: 20 * time.Millisecond}
	stop := p.startOn(t, &killsEveryDelivery{JetStream: p.bus.JS}, cfg, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-given-up-stop", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m"},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m"})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
	p.publishBatch(t, b)
	c.stopWhileStalled(t, stop)
	p.start(t, cfg, map[string]Chain{wire.ChainSolana: c})
	o := p.orderIn(t, b.OrderID, 30*time.Second, wire.StateConfirmed, wire.StateFailed)
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.State != wire.StateConfirmed || c.sent[1] != 1 || c.sent[2] != 2 {
		t.Fatalf("order %s, bundles sent %v: want confirmed, the first sent once", o.State, c.sent)
	}
}

// TestGivenUpCountedFromStart: the count of batches taken from their
// notices is at 0 from the broadcaster's start, so that its rate and its
// alert read before the first.
func TestGivenUpCountedFromStart(t *testing.T) {
	metrics.Redeliveries.DeleteLabelValues(bus.GivenUpConsumer)
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: &haltingChain{landed: map[string]bool{}, sent: map[int]int{}}})
	if !poll.True(10*time.Second, func() bool {
		mfs, err := metrics.Registry.Gather()
		if err != nil {
			return false
		}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if mf.GetName() == "tradeapi_redeliveries_total" && l.GetValue() == bus.GivenUpConsumer {
						return true
					}
				}
			}
		}
		return false
	}) {
		t.Fatal("tradeapi_redeliveries_total{consumer=\"broadcaster-given-up\"} not exported at start")
	}
}
