package broadcaster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

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
