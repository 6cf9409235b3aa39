package broadcaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// behindPool stands in front of a local chain's JSON-RPC as a provider's
// pool of nodes of which one is behind: while frozen at a block, the head
// and the receipts are answered as that node knows them (eth_blockNumber
// the frozen block, a receipt of a later block none), while the nonces are
// answered by the node ahead (the chain itself), as a pool that routes its
// calls to different nodes may.
type behindPool struct {
	next   http.Handler
	behind atomic.Bool
	frozen atomic.Uint64 // the behind node's head
	// latestOnly refuses a nonce read at a block number, as a gateway
	// that serves only the latest state.
	latestOnly atomic.Bool
}

type poolCall struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params,omitempty"`
}

func (p *behindPool) answer(c poolCall) json.RawMessage {
	result := func(v any) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.ID, "result": v})
		return b
	}
	behind, frozen := p.behind.Load(), p.frozen.Load()
	if behind && c.Method == "eth_blockNumber" {
		return result(hexutil.Uint64(frozen))
	}
	if p.latestOnly.Load() && c.Method == "eth_getTransactionCount" && len(c.Params) == 2 && string(c.Params[1]) != `"latest"` {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.ID, "error": map[string]any{"code": -32602, "message": "only latest is served"}})
		return b
	}
	body, _ := json.Marshal(c)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	p.next.ServeHTTP(rec, req)
	out := bytes.TrimSpace(rec.Body.Bytes())
	if behind && c.Method == "eth_getTransactionReceipt" {
		var r struct {
			Result *struct {
				BlockNumber hexutil.Uint64 `json:"blockNumber"`
			} `json:"result"`
		}
		if json.Unmarshal(out, &r) == nil && r.Result != nil && uint64(r.Result.BlockNumber) > frozen {
			return result(nil)
		}
	}
	return out
}

func (p *behindPool) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var calls []poolCall
		if err := json.Unmarshal(b, &calls); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out := make([]json.RawMessage, len(calls))
		for i, c := range calls {
			out[i] = p.answer(c)
		}
		_ = json.NewEncoder(w).Encode(out)
		return
	}
	var c poolCall
	if err := json.Unmarshal(body, &c); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, _ = w.Write(p.answer(c))
}

// behindNow is a local chain with one funded wallet behind a pool whose
// receipt node stays at the chain's head of now, and the broadcaster's
// chain over it.
func behindNow(t *testing.T) (*lateChain, *behindPool, *EVM) {
	t.Helper()
	lc := newLateChain(t, 1)
	pool := &behindPool{next: lc.chain.Handler()}
	head, err := lc.chain.Client().BlockNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	pool.frozen.Store(head)
	pool.behind.Store(true)
	return lc, pool, lc.through(t, pool)
}

// TestEVMLandedWhileTheReceiptNodeIsBehind: an EVM transaction is mined
// while the node of its provider's pool that answers receipts is behind
// the one that counts nonces, for longer than NonceRecheck. The wallet's
// nonce is taken and no receipt is known: by the transaction itself, in a
// block the receipt node has not reached. It is not expired (the nonce read
// again at that node's head is not taken there); once the node catches up,
// the order is confirmed.
func TestEVMLandedWhileTheReceiptNodeIsBehind(t *testing.T) {
	t.Parallel()
	lc, pool, chain := behindNow(t)
	p := newPipeline(t)
	p.start(t, expiryConfig, map[string]Chain{"base": chain})

	stx, tx := lc.transfer(t, 0, 0, 1e9)
	const id = "evm-receipt-node-behind"
	if r := p.send(t, batchOf(id, "base", wire.FamilyEVM, stx)); r.Error != nil {
		t.Fatalf("reply %+v", r.Error)
	}
	if !lc.mined(tx, 5*time.Second) {
		t.Fatal("the transaction was not mined")
	}
	// Many NonceRechecks with the nonce taken and no receipt known.
	time.Sleep(20 * expiryConfig.NonceRecheck)
	if o := p.order(t, id); o.State != wire.StateBroadcast {
		t.Fatalf("order %s while the receipt node is behind, want broadcast: %+v", o.State, o.Signatures)
	}
	pool.behind.Store(false)
	if o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateExpired, wire.StateFailed); o.State != wire.StateConfirmed {
		t.Fatalf("order %s once the node caught up, want confirmed: %+v", o.State, o.Signatures)
	}
}

// TestEVMNonceTakenWhileTheReceiptNodeIsBehind: another transaction takes
// the nonce while the receipt node is behind the block it landed in: not
// superseded yet (that node's head has the nonce free), superseded once it
// reaches the block. A node that does not read a nonce at a block number
// is a failed check, never a verdict.
func TestEVMNonceTakenWhileTheReceiptNodeIsBehind(t *testing.T) {
	t.Parallel()
	lc, pool, chain := behindNow(t)
	ours, _ := lc.transfer(t, 0, 0, 1e9)
	_, rival := lc.transfer(t, 0, 0, 2e9)
	if err := lc.chain.Client().SendTransaction(t.Context(), rival); err != nil {
		t.Fatal(err)
	}
	if !lc.mined(rival, 5*time.Second) {
		t.Fatal("the rival was not mined")
	}
	if gone, err := chain.Superseded(t.Context(), []wire.SignedTx{ours}); err != nil || gone[0] {
		t.Fatalf("while the receipt node is behind: %v, %v; want not superseded", gone, err)
	}
	pool.behind.Store(false)
	if gone, err := chain.Superseded(t.Context(), []wire.SignedTx{ours}); err != nil || !gone[0] {
		t.Fatalf("once it caught up: %v, %v; want superseded", gone, err)
	}
	pool.latestOnly.Store(true)
	if gone, err := chain.Superseded(t.Context(), []wire.SignedTx{ours}); err == nil {
		t.Fatalf("a node that reads no nonce at a block: %v, want a failed check", gone)
	}
}

// TestSolanaStatusesFromANodeBehind: a status answer tells the slot of the
// node that gave it, and Height the slot at which it read the height, for
// the tracker to compare, never back. A transaction only processed is seen
// (its slot kept), so it neither expires nor is sent again while its block
// is confirmed.
func TestSolanaStatusesFromANodeBehind(t *testing.T) {
	t.Parallel()
	var statusSlot, epochSlot atomic.Uint64
	var emptyEpoch atomic.Bool
	epochSlot.Store(500)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c poolCall
		_ = json.NewDecoder(r.Body).Decode(&c)
		var result any
		switch c.Method {
		case "getEpochInfo":
			if emptyEpoch.Load() {
				break
			}
			result = map[string]any{"absoluteSlot": epochSlot.Load(), "blockHeight": 480, "epoch": 0, "slotIndex": epochSlot.Load(), "slotsInEpoch": 432000}
		case "getSignatureStatuses":
			result = map[string]any{"context": map[string]any{"slot": statusSlot.Load()}, "value": []any{nil,
				map[string]any{"slot": 470, "confirmations": 0, "err": nil, "confirmationStatus": "processed"}}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": c.ID, "result": result})
	}))
	t.Cleanup(srv.Close)
	s := NewSolana(rpc.New(srv.URL), false)
	if h, err := s.Height(t.Context()); err != nil || h != 480 || s.HeightSlot() != 500 {
		t.Fatalf("height %d at slot %d, %v", h, s.HeightSlot(), err)
	}
	// An empty answer is a failed read, not a height of 0.
	emptyEpoch.Store(true)
	if h, err := s.Height(t.Context()); err == nil {
		t.Fatalf("height %d from an empty answer", h)
	}
	emptyEpoch.Store(false)
	// A read answered by a node behind does not take the slot back.
	epochSlot.Store(490)
	if _, err := s.Height(t.Context()); err != nil || s.HeightSlot() != 500 {
		t.Fatalf("height slot %d after a read at 490, %v; want 500 kept", s.HeightSlot(), err)
	}
	sigs := []string{solana.Signature{1}.String(), solana.Signature{2}.String()}
	for _, slot := range []uint64{499, 510} {
		statusSlot.Store(slot)
		sts, err := s.Statuses(t.Context(), sigs)
		if err != nil {
			t.Fatal(err)
		}
		if sts[0].State != "" || sts[0].AsOf != slot || sts[0].Slot != 0 {
			t.Errorf("unknown, from a node at slot %d: %+v", slot, sts[0])
		}
		if sts[1].State != "" || sts[1].Slot != 470 {
			t.Errorf("processed: %+v, want not final, seen at slot 470", sts[1])
		}
	}
}

// flakyNonces is a chain that re-sends whose check of taken nonces fails
// every other time, as a pool whose nonce reads reach a node behind the
// receipts' every other poll; when it answers, the nonce is taken.
type flakyNonces struct {
	*scripted
	calls atomic.Int32
}

func (f *flakyNonces) Superseded(_ context.Context, txs []wire.SignedTx) ([]bool, error) {
	if f.calls.Add(1)%2 == 0 {
		return nil, errors.New("nonce at block 9: not answered")
	}
	gone := make([]bool, len(txs))
	for i := range gone {
		gone[i] = true
	}
	return gone, nil
}

// TestNonceTakenExpiresThroughFailedChecks: a nonce seen taken keeps its
// first sighting through the failed checks between, so that a pool failing
// every other check delays an expiry by a poll or so, not for as long as
// two checks in a row a NonceRecheck apart do not both answer.
func TestNonceTakenExpiresThroughFailedChecks(t *testing.T) {
	t.Parallel()
	c := &flakyNonces{scripted: newScripted(map[string][]error{"0x01": {nil}})}
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, NonceRecheck: 200 * time.Millisecond}, map[string]Chain{"base": c})
	b := batchOf("evm-flaky-nonces", "base", wire.FamilyEVM, wire.SignedTx{Wallet: "0xw", Signature: "0x01", Raw: []byte{1}})
	if r := p.send(t, b); r.Error != nil {
		t.Fatalf("%+v", r.Error)
	}
	if o := p.orderIn(t, b.OrderID, 3*time.Second, wire.StateExpired); o.State != wire.StateExpired {
		t.Fatalf("ended %s", o.State)
	}
}
