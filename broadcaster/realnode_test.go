package broadcaster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// countingRelay fronts a relay and counts the calls of each method.
type countingRelay struct {
	next  http.Handler
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &req)
	c.mu.Lock()
	c.calls[req.Method]++
	c.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	c.next.ServeHTTP(w, r)
}

// TestRelayAskedAtMostOncePerSecond: a bundle relay is asked about the
// bundles it took at most once a second, however often the tracker polls
// (every 300 ms by default) and a launch's steps ask (every 100 ms). Jito's
// block engine allows an address a few requests a second in all and
// answers 429 past that: asked at every poll, twice (landed, then in
// flight), the statuses alone spent its allowance and the next anti_mev
// send was refused.
func TestRelayAskedAtMostOncePerSecond(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	relay := &countingRelay{next: &compactRelay{landed: map[string]uint64{}}, calls: map[string]int{}}
	srv := httptest.NewServer(relay)
	t.Cleanup(srv.Close)
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, srv.URL), 5*time.Second))
	ctx := context.Background()
	a := wire.SignedTx{Wallet: "wa", Private: true, Signature: randomSig(t), Raw: []byte{1, 2, 3}, LastValidBlockHeight: 1 << 40}
	if err := chain.Send(ctx, a); err != nil {
		t.Fatal(err)
	}
	id, err := chain.SendBundle(ctx, []wire.SignedTx{{Wallet: "wb", Signature: randomSig(t), Raw: []byte{4, 5, 6}, LastValidBlockHeight: 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rounds := 0
	for ; time.Since(start) < 1500*time.Millisecond; rounds++ {
		if _, err := chain.Statuses(ctx, []string{a.Signature}); err != nil {
			t.Fatal(err)
		}
		if _, err := chain.BundleOutcome(ctx, id, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	elapsed := time.Since(start)
	relay.mu.Lock()
	defer relay.mu.Unlock()
	// Within elapsed, a round at the start and one a second after each.
	most := int(elapsed/relayStatusEvery) + 1
	if got := relay.calls["getBundleStatuses"]; got == 0 || got > most {
		t.Fatalf("%d polls in %s asked the relay's getBundleStatuses %d times, want 1 to %d (once a second at most): %v",
			rounds, elapsed.Round(time.Millisecond), got, most, relay.calls)
	}
}

// unhealthyOnceRPC answers sendTransaction the first time exactly as an
// Agave node whose health check fails does before it sends anything
// (rpc-client-api custom_error.rs: JSON_RPC_SERVER_ERROR_NODE_UNHEALTHY
// -32005, "Node is behind by N slots", data {numSlotsBehind}), and takes
// the transaction from then on; the rest is a quiet chain.
type unhealthyOnceRPC struct {
	mu    sync.Mutex
	sends int
}

func (u *unhealthyOnceRPC) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	w.Header().Set("Content-Type", "application/json")
	var result string
	switch req.Method {
	case "sendTransaction":
		u.mu.Lock()
		u.sends++
		first := u.sends == 1
		u.mu.Unlock()
		if first {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":-32005,"message":"Node is behind by 42 slots","data":{"numSlotsBehind":42}},"id":%s}`, req.ID)
			return
		}
		result = `"1111111111111111111111111111111111111111111111111111111111111111"`
	case "getSignatureStatuses":
		var sigs []string
		_ = json.Unmarshal(req.Params[0], &sigs)
		vals := make([]string, len(sigs))
		for i := range vals {
			vals[i] = "null"
		}
		result = fmt.Sprintf(`{"context":{"slot":100},"value":[%s]}`, strings.Join(vals, ","))
	case "getEpochInfo":
		result = `{"absoluteSlot":100,"blockHeight":90,"epoch":1,"slotIndex":1,"slotsInEpoch":432000,"transactionCount":1}`
	case "getSlot":
		result = `100`
	default:
		result = `null`
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","result":%s,"id":%s}`, result, req.ID)
}

// TestNodeBehindIsNotAFinalRefusal: a public swap whose first
// sendTransaction meets a node that is behind (-32005, answered before the
// node sends anything) is answered BROADCAST_FAILED at once, the
// transaction taken for refused ("sending it again will not help",
// Refused), although the node's own error says it is a passing state and
// the same bytes a moment later are taken. It should count as surely
// unsent and be tried again, as an HTTP 429 or a refused connection is.
func TestNodeBehindIsNotAFinalRefusal(t *testing.T) {
	t.Parallel()
	node := &unhealthyOnceRPC{}
	srv := httptest.NewServer(node)
	t.Cleanup(srv.Close)
	chain := NewSolana(endpoint.New("solana rpc", srv.URL).SolanaRPC(5*time.Second), false)
	p := newPipeline(t)
	p.start(t, Config{Poll: 50 * time.Millisecond}, map[string]Chain{wire.ChainSolana: chain})
	tx := wire.SignedTx{Wallet: "wa", Signature: randomSig(t), Raw: []byte{1, 2, 3}, LastValidBlockHeight: 1 << 40, FeeLamports: 5000}
	r := p.send(t, batchOf("eu-behind", wire.ChainSolana, wire.FamilySol, tx))
	node.mu.Lock()
	sends := node.sends
	node.mu.Unlock()
	if r.Error != nil {
		t.Fatalf("a node behind by 42 slots on the first send: answered %+v after %d sendTransaction(s); want the send tried again", r.Error, sends)
	}
}

// TestBundleStatusErrIsNotATransactionFailure: Jito's getBundleStatuses
// lists only bundles that landed ("If a bundle_id is not found or has not
// landed, it returns null"), each with the slot it landed in; its "err" is
// documented as "any retryable or non-retryable error encountered when
// getting the bundle status. If retryable, please query again."
// (docs.jito.wtf, getBundleStatuses). The broadcaster takes any err other
// than {"Ok":null} for a transaction of the bundle failing (txFailed, not
// a drop), and when the chain's node does not show the signature yet (a
// node behind the relay's) the order's transaction is final failed at
// once: a bundle the relay itself lists as landed in slot 4242 is told
// to the bot as failed. The local relay never answers an err, so no test
// meets this.
func TestBundleStatusErrIsNotATransactionFailure(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	relay := relayAnswering(t, map[string]string{
		"sendBundle": `"b1"`,
		"getBundleStatuses": `{"context":{"slot":4300},"value":[{"bundle_id":"b1","transactions":["x"],"slot":4242,` +
			`"confirmation_status":"confirmed","err":{"Err":"status lookup failed, retry"}}]}`,
		"getInflightBundleStatuses": `{"context":{"slot":4300},"value":[{"bundle_id":"b1","status":"Landed","landed_slot":4242}]}`,
	})
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(relay, 5*time.Second))
	ctx := context.Background()
	tx := wire.SignedTx{Wallet: "wa", Private: true, Signature: randomSig(t), Raw: []byte{1, 2, 3}, LastValidBlockHeight: 1 << 40}
	if err := chain.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	sts, err := chain.Statuses(ctx, []string{tx.Signature})
	if err != nil {
		t.Fatal(err)
	}
	if sts[0].State == wire.StateFailed {
		t.Fatalf("a bundle the relay lists as landed in slot 4242, with a status-lookup err, is final %+v", sts[0])
	}
}
