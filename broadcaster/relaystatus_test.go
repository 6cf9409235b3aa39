package broadcaster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// compactRelay answers as Jito's block engine does: sendBundle gives each
// bundle its own id; getBundleStatuses lists only the bundles that landed
// (one not found or not landed is left out of "value", not answered null
// in its place: jito-solana issue 884), and getInflightBundleStatuses
// answers one entry per id.
type compactRelay struct {
	mu     sync.Mutex
	n      int
	landed map[string]uint64 // bundle id -> slot
	ids    []string
}

func (c *compactRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	c.mu.Lock()
	defer c.mu.Unlock()
	var result any
	switch req.Method {
	case "sendBundle":
		c.n++
		id := fmt.Sprintf("bundle-%d", c.n)
		c.ids = append(c.ids, id)
		result = id
	case "getBundleStatuses", "getInflightBundleStatuses":
		var ids []string
		_ = json.Unmarshal(req.Params[0], &ids)
		value := []map[string]any{}
		for _, id := range ids {
			slot, ok := c.landed[id]
			switch {
			case req.Method == "getBundleStatuses" && ok:
				value = append(value, map[string]any{"bundle_id": id, "slot": slot,
					"confirmation_status": "confirmed", "err": map[string]any{"Ok": nil}})
			case req.Method == "getInflightBundleStatuses" && ok:
				value = append(value, map[string]any{"bundle_id": id, "status": "Landed", "landed_slot": slot})
			case req.Method == "getInflightBundleStatuses":
				value = append(value, map[string]any{"bundle_id": id, "status": "Pending", "landed_slot": nil})
			}
		}
		result = map[string]any{"context": map[string]any{"slot": 10}, "value": value}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

func randomSig(t *testing.T) string {
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return sol.SignatureFromBytes(b[:]).String()
}

// TestBundleStatusesMatchedByID: two anti_mev transactions, each its own
// bundle, asked about together; only the second lands, and the relay lists
// it alone. Each answer is the bundle it names: the first is not called
// confirmed in the second's slot, through the chain or through the
// broadcaster's tracking of the orders.
func TestBundleStatusesMatchedByID(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	relay := &compactRelay{landed: map[string]uint64{}}
	srv := httptest.NewServer(relay)
	t.Cleanup(srv.Close)
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, srv.URL), 5*time.Second))
	ctx := context.Background()
	a := wire.SignedTx{Wallet: "wa", Private: true, Signature: randomSig(t), Raw: []byte{1, 2, 3}, LastValidBlockHeight: 1 << 40}
	b := wire.SignedTx{Wallet: "wb", Private: true, Signature: randomSig(t), Raw: []byte{4, 5, 6}, LastValidBlockHeight: 1 << 40}
	for _, tx := range []wire.SignedTx{a, b} {
		if err := chain.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	relay.mu.Lock()
	relay.landed[relay.ids[1]] = 777
	relay.mu.Unlock()
	sts, err := chain.Statuses(ctx, []string{a.Signature, b.Signature})
	if err != nil {
		t.Fatal(err)
	}
	if sts[0].State != "" || sts[1].State != wire.StateConfirmed || sts[1].Slot != 777 {
		t.Fatalf("statuses %+v, want the first unknown and the second confirmed in slot 777", sts)
	}

	p := newPipeline(t)
	tracked := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, srv.URL), 5*time.Second))
	p.start(t, Config{Poll: 50 * time.Millisecond}, map[string]Chain{wire.ChainSolana: tracked})
	c := wire.SignedTx{Wallet: "wc", Private: true, Signature: randomSig(t), Raw: []byte{7, 8, 9}, LastValidBlockHeight: 1 << 40, FeeLamports: 5000}
	d := wire.SignedTx{Wallet: "wd", Private: true, Signature: randomSig(t), Raw: []byte{10, 11, 12}, LastValidBlockHeight: 1 << 40, FeeLamports: 5000}
	if r := p.send(t, batchOf("eu-unlanded", wire.ChainSolana, wire.FamilySol, c)); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	if r := p.send(t, batchOf("eu-landed", wire.ChainSolana, wire.FamilySol, d)); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	relay.mu.Lock()
	relay.landed[relay.ids[len(relay.ids)-1]] = 778
	relay.mu.Unlock()
	p.orderIn(t, "eu-landed", 10*time.Second, wire.StateConfirmed)
	if o := p.order(t, "eu-unlanded"); o.State != wire.StateBroadcast {
		t.Fatalf("an order whose bundle never landed is %s (%+v)", o.State, o.Signatures)
	}
}

// droppingRelay takes every sendBundle (answering its own id) and passes
// nothing on; it calls each bundle Failed with no transaction failing: a
// drop (an auction lost), after which the same bytes may still land.
func droppingRelay(t *testing.T) endpoint.Endpoint {
	return relayAnswering(t, map[string]string{
		"sendBundle":                `"dropped-1"`,
		"getBundleStatuses":         `{"context":{"slot":1},"value":[]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"dropped-1","status":"Failed","landed_slot":null}]}`,
	})
}

// TestDroppedAntiMEVBundleWaitsForTheChain: an anti_mev buy whose bundle
// the relay took and dropped (no transaction of it failing) is not failed
// while its blockhash is valid: the same signed bytes, sent again by a
// delivery of the batch running beside the first, may land, and when they
// do the order is confirmed, not told failed for good.
func TestDroppedAntiMEVBundleWaitsForTheChain(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(droppingRelay(t), 5*time.Second))
	p := newPipeline(t)
	p.start(t, Config{Poll: 50 * time.Millisecond}, map[string]Chain{wire.ChainSolana: chain})
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Drop", "DRP")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := s.signer.Sign(ctx, &wire.SwapJob{OrderID: "eu-drop", AccountID: "acct-1", Family: wire.FamilySol,
		Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		AntiMEV: true, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: s.wallet(1_000_000_000), Amount: "0.5"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r := p.send(t, batch); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	// The tracker has asked the relay about the bundle, and heard the drop.
	poll.Until(t, 5*time.Second, "the relay's drop heard", func() bool {
		b, ok := chain.Bundle(batch.Txs[0].Signature)
		return ok && b.State == wire.BundleFailed
	})
	time.Sleep(300 * time.Millisecond) // several polls of the tracker
	if o := p.order(t, "eu-drop"); wire.FinalState(o.State) {
		t.Fatalf("a dropped bundle's order is %s while its blockhash is valid", o.State)
	}
	other := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
	if err := other.Send(ctx, batch.Txs[0]); err != nil {
		t.Fatal(err)
	}
	p.orderIn(t, "eu-drop", 10*time.Second, wire.StateConfirmed)
}

// answeringRelay is a relay that takes every bundle, answering id.
type answeringRelay struct{ id string }

func (r answeringRelay) CallForInto(_ context.Context, out any, _ string, _ []any) error {
	*(out.(*string)) = r.id
	return nil
}

// TestRelayBundleIDShape: a relay's bundle id is kept when it is a plain
// token (a block engine's hex digest, a UUID); anything else a relay
// answers (a URL with its key, a page) is not put in the order: the id the
// block engine derives from the signatures stands in for it.
func TestRelayBundleIDShape(t *testing.T) {
	t.Parallel()
	const derived = "d3r1v3d"
	for _, tc := range []struct{ answered, want string }{
		{strings.Repeat("ab", 32), strings.Repeat("ab", 32)},
		{"6f1c2b7e-95a4-4f0e-9b8e-1c2d3e4f5a6b", "6f1c2b7e-95a4-4f0e-9b8e-1c2d3e4f5a6b"},
		{"https://relay.example/api/v1/KEY123?auth=KEY456", derived},
		{"", derived},
		{strings.Repeat("a", 129), derived},
	} {
		a := relaySender{name: "relay", r: answeringRelay{tc.answered}}.send(context.Background(), []string{"AA=="}, derived)
		if a.err != nil || a.id != tc.want {
			t.Errorf("relay answered %q: id %q, err %v; want %q", tc.answered, a.id, a.err, tc.want)
		}
	}
}
