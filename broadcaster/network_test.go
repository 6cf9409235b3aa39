package broadcaster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// on serves every chain on network, as a broadcaster configured so.
func on(network string) Config {
	cfg := tries(2)
	cfg.Network = func(string) string { return network }
	return cfg
}

// TestBatchOfAnotherNetworkNotSent: a batch a worker signed on the local
// chains, reaching a broadcaster that sends its chain on the public
// network (or the other way round), is handed back unsent, for a
// broadcaster of its network; one of its network, or of an earlier
// version's worker that says none, is sent.
func TestBatchOfAnotherNetworkNotSent(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	chain := &countingChain{}
	pub := New(on(wire.NetworkPublic), p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: chain}, p.log)
	tx := wire.SignedTx{Wallet: "w1", Signature: "sig-local", Raw: []byte{1}, LastValidBlockHeight: 1000}
	m := delivered(batchOf("eu-local", wire.ChainSolana, wire.FamilySol, tx), nats.NewInbox(), 1, time.Now())
	m.hdr.Set(bus.HeaderNetwork, wire.NetworkLocal)
	pub.handle(m)
	if m.end != "nak" || chain.sends.Load() != 0 {
		t.Fatalf("a local batch at a public broadcaster: ended %q, %d sends; want handed back unsent", m.end, chain.sends.Load())
	}
	if !strings.Contains(p.logs.String(), "a batch signed on another network") {
		t.Fatal("no line says why the batch was handed back")
	}

	for _, n := range []string{wire.NetworkPublic, ""} {
		tx := wire.SignedTx{Wallet: "w1", Signature: "sig-" + n, Raw: []byte{2}, LastValidBlockHeight: 1000}
		m := delivered(batchOf("eu-pub-"+n, wire.ChainSolana, wire.FamilySol, tx), nats.NewInbox(), 1, time.Now())
		if n != "" {
			m.hdr.Set(bus.HeaderNetwork, n)
		}
		before := chain.sends.Load()
		pub.handle(m)
		if m.end != "ack" || chain.sends.Load() != before+1 {
			t.Fatalf("a batch saying network %q: ended %q, %d sends; want sent", n, m.end, chain.sends.Load()-before)
		}
	}
}

// TestTrackingOfAnotherNetworkNotTaken: a broadcaster starting (or taking
// over what another stopped settling) leaves the tracked transactions of
// another network to that network's broadcaster: re-sent here, a local
// EVM chain's transaction would reach the public chain of the same id.
func TestTrackingOfAnotherNetworkNotTaken(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	ctx := context.Background()
	put := func(order, network string) {
		data, _ := json.Marshal([]*tracked{{OrderID: order, Chain: "base", Signature: "0x" + order, Raw: []byte{1},
			Wallet: "0xw", Since: time.Now(), Network: network}})
		if _, err := p.bus.Buckets.Tracking.Put(ctx, order, data); err != nil {
			t.Fatal(err)
		}
	}
	put("local-order", wire.NetworkLocal)
	put("public-order", wire.NetworkPublic)
	put("earlier-order", "")
	cfg := on(wire.NetworkPublic)
	cfg.AdoptEvery, cfg.AdoptAfter = 10*time.Millisecond, 10*time.Millisecond
	br := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{"base": &countingChain{}}, p.log)
	if err := br.tracker.load(ctx); err != nil {
		t.Fatal(err)
	}
	seen := map[string]time.Time{}
	for range 3 {
		if err := br.tracker.adoptListed(ctx, seen, time.Now()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := br.tracker.orderIDs()
	if got["local-order"] || !got["public-order"] || !got["earlier-order"] {
		t.Fatalf("tracked %v: want the public and the earlier version's, never the local one", got)
	}
}

// elsewhereBatch is a one-transaction Solana batch signed on the local
// chains, as its deliveries carry it, and the inbox its answer goes to.
func elsewhereBatch(t *testing.T, p *pipeline, id string, tx wire.SignedTx) (bt *wire.TxBatch, inbox string, sub *nats.Subscription) {
	t.Helper()
	inbox = nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	return batchOf(id, wire.ChainSolana, wire.FamilySol, tx), inbox, sub
}

// local is bt's delivery attempt, stored at stored, saying it was signed
// on the local chains.
func local(bt *wire.TxBatch, inbox string, attempt uint64, stored time.Time) *heldBatch {
	m := delivered(bt, inbox, attempt, stored)
	m.hdr.Set(bus.HeaderNetwork, wire.NetworkLocal)
	return m
}

// TestHandBackOfAnotherNetworkIsNoSend: a batch handed back unsent by a
// broadcaster of another network is not taken by the next delivery, at one
// of its network, for one that may have sent it: a transaction the chain
// refuses (its wallet cannot pay) is failed, BROADCAST_FAILED, not
// answered "may still land" and tracked until it expires.
func TestHandBackOfAnotherNetworkIsNoSend(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	p := newPipeline(t)
	stx := signedTransfer(t, chain, payer, 10_000_000_000) // more than it holds
	sends := &countingChain{}
	pub := New(on(wire.NetworkPublic), p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: sends}, p.log)
	loc := New(on(wire.NetworkLocal), p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: served(t, chain.Handler(), false)}, p.log)
	bt, inbox, sub := elsewhereBatch(t, p, "eu-handed", stx)
	now := time.Now()
	m := local(bt, inbox, 1, now)
	if pub.handle(m); m.end != "nak" {
		t.Fatalf("the public broadcaster ended the local batch %q", m.end)
	}
	loc.handle(local(bt, inbox, 2, now))
	if r := answer(t, sub); r.Error == nil || r.Error.Code != apierr.BroadcastFailed {
		t.Fatalf("reply %+v, want BROADCAST_FAILED", r.Error)
	}
	if o := p.order(t, bt.OrderID); o.State != wire.StateFailed || sends.sends.Load() != 0 {
		t.Fatalf("order %s, %d sends by the public broadcaster: want failed, none", o.State, sends.sends.Load())
	}
}

// TestLastDeliveryAtAnotherNetwork: a batch whose every delivery, and its
// notices' last, came to a broadcaster of another network is not dropped
// unanswered: nothing is sent, and since a delivery before it may have
// sent it and died (a notice's deliveries all count as the stream's last,
// so no note tells them apart), it is answered as one that may still land,
// and tracked for a broadcaster of its network, never by this one.
func TestLastDeliveryAtAnotherNetwork(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	sends := &countingChain{}
	pub := New(on(wire.NetworkPublic), p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: sends}, p.log)
	tx := wire.SignedTx{Wallet: "w1", Signature: "sig-elsewhere", Raw: []byte{1}, LastValidBlockHeight: 1000}
	bt, inbox, sub := elsewhereBatch(t, p, "eu-elsewhere", tx)
	now := time.Now()
	// Every delivery handed back, each noted as sending nothing.
	for attempt := uint64(1); attempt <= uint64(pub.maxDeliver()); attempt++ {
		pub.handle(local(bt, inbox, attempt, now))
	}
	m := local(bt, inbox, 1, now)
	notice := &heldBatch{}
	pub.handle(&givenUpMsg{Msg: notice, batch: &jetstream.RawStreamMsg{Subject: m.subject, Header: m.hdr, Data: m.data, Time: now},
		attempt: uint64(pub.maxDeliver()), last: true})
	if notice.end != "ack" {
		t.Fatalf("the last notice ended %q, want acked", notice.end)
	}
	if r := answer(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT: it may still land", r.Error)
	}
	if o := p.order(t, bt.OrderID); wire.FinalState(o.State) || sends.sends.Load() != 0 {
		t.Fatalf("order %s, %d sends: want it left to land or expire, nothing sent", o.State, sends.sends.Load())
	}
	e, err := p.bus.Buckets.Tracking.Get(context.Background(), bt.OrderID)
	if err != nil || !strings.Contains(string(e.Value()), `"network":"local"`) {
		t.Fatalf("tracking %v: want the transaction tracked for the local network's broadcasters", err)
	}
	if pub.tracker.orderIDs()[bt.OrderID] {
		t.Fatal("the public broadcaster tracks a local transaction, which it would send again")
	}
}
