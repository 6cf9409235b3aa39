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
