package broadcaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// haltingChain lands each bundle it is sent at once; once it has told
// that bundle haltAfter landed, its node and its relay stop answering (a
// devnet stopped) until heal is called.
type haltingChain struct {
	haltAfter int
	halted    chan struct{}
	mu        sync.Mutex
	down      bool
	landed    map[string]bool
	sent      map[int]int
}

var errNodeDown = errors.New("dial tcp 127.0.0.1:8899: connect: connection refused")

func (c *haltingChain) heal() {
	c.mu.Lock()
	c.down = false
	c.mu.Unlock()
}

func (c *haltingChain) Send(context.Context, wire.SignedTx) error { return nil }
func (c *haltingChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return nil, errNodeDown
	}
	return landedIn(c.landed, sigs), nil
}
func (c *haltingChain) Height(context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return 0, errNodeDown
	}
	return 50, nil
}
func (c *haltingChain) Slot(context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return 0, errNodeDown
	}
	return 1_000_000, nil
}
func (c *haltingChain) SendBundle(_ context.Context, txs []wire.SignedTx) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return "", errNodeDown
	}
	c.sent[txs[0].Bundle]++
	for _, tx := range txs {
		c.landed[tx.Signature] = true
	}
	return txs[0].Signature, nil
}
func (c *haltingChain) BundleOutcome(_ context.Context, _ string, txs []wire.SignedTx) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return Status{}, errNodeDown
	}
	if !c.landed[txs[0].Signature] {
		return Status{}, nil
	}
	if txs[0].Bundle == c.haltAfter && c.halted != nil {
		c.down = true
		close(c.halted)
		c.halted = nil
	}
	return Status{State: wire.StateConfirmed, Slot: 7}, nil
}
func (c *haltingChain) Bundle(string) (wire.Bundle, bool)       { return wire.Bundle{}, false }
func (c *haltingChain) ExpireBundle(string) (wire.Bundle, bool) { return wire.Bundle{}, false }
func (c *haltingChain) RelayName() string                       { return "test relay" }

// killsRedeliveries is a JetStream whose consumers never hand a batch's
// later deliveries to the broadcaster: each is taken by a process killed
// at once (kill -9), and comes back after the ack wait, until the stream's
// deliveries are spent.
type killsRedeliveries struct {
	jetstream.JetStream
	killed atomic.Int64
}

func (j *killsRedeliveries) CreateOrUpdateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	c, err := j.JetStream.CreateOrUpdateConsumer(ctx, stream, cfg)
	if err != nil {
		return nil, err
	}
	return &killingConsumer{Consumer: c, j: j}, nil
}

type killingConsumer struct {
	jetstream.Consumer
	j *killsRedeliveries
}

func (c *killingConsumer) Consume(handle jetstream.MessageHandler, opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	return c.Consumer.Consume(func(m jetstream.Msg) {
		if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
			c.j.killed.Add(1)
			return
		}
		handle(m)
	}, opts...)
}

// TestLaunchOutageSpendsNoDelivery: a launch of four bundles whose chain
// stops for a few seconds after its second bundle landed (its node and
// relay refusing every call) waits within its delivery for the chain to
// come back, and settles with all four landed, as the chain has them. The
// stream's later deliveries all die (each broadcaster taking the batch
// again is killed): each transient error spent one of them a second, and
// the launch stayed broadcast for good, half of it pending.
func TestLaunchOutageSpendsNoDelivery(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	p := newPipeline(t)
	js := &killsRedeliveries{JetStream: p.bus.JS}
	c := &haltingChain{haltAfter: 2, halted: make(chan struct{}), landed: map[string]bool{}, sent: map[int]int{}}
	halted := c.halted
	p.startOn(t, js, Config{MaxAttempts: 1, AckWait: time.Second, Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-outage", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w1", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w3", Signature: sig(3), Raw: []byte{3}, Bundle: 3, Kind: wire.TxBuy, Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w4", Signature: sig(4), Raw: []byte{4}, Bundle: 4, Kind: wire.TxBuy, Mint: "m", LastValidBlockHeight: 100})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}

	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(b)
	m := &nats.Msg{Subject: bus.BatchSubject(b.Chain, b.OrderID), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, inbox)
	if _, err := p.bus.JS.PublishMsg(context.Background(), m, jetstream.WithMsgID(b.OrderID)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-halted:
	case <-time.After(20 * time.Second):
		t.Fatal("the second bundle never landed")
	}
	// Down for longer than the stream's five deliveries took at one a
	// second.
	time.AfterFunc(3*time.Second, c.heal)

	r := bustest.NextReply(t, sub, 30*time.Second)
	if r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 4 {
		t.Fatalf("answer %+v %+v, want the four bundles landed", r.Error, r.Deploy)
	}
	o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.State != wire.StateConfirmed || o.Deploy == nil || len(o.Deploy.LandedTxs) != 4 || !slices.Equal(o.Deploy.MintAddresses, []string{"m"}) {
		t.Fatalf("order %s %+v, want confirmed with the four bundles and mint m", o.State, o.Deploy)
	}
	for _, s := range o.Signatures {
		if s.State != wire.StateConfirmed || !c.landed[s.Signature] {
			t.Fatalf("signature %s %s (on chain: %v), want each confirmed as the chain has it", s.Signature, s.State, c.landed[s.Signature])
		}
	}
	for n := 1; n <= 4; n++ {
		if c.sent[n] != 1 {
			t.Fatalf("bundles sent %v, want each once", c.sent)
		}
	}
	if k := js.killed.Load(); k != 0 {
		t.Fatalf("the batch was delivered %d times more, want once", k)
	}
}
