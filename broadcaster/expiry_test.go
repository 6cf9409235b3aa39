package broadcaster

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// swallowingRPC stands in front of a local chain's JSON-RPC and, while
// closed, answers eth_sendRawTransaction as a node would (the hash) without
// passing it on: a transaction a node took and then lost, as one evicted
// from its pool or held back by a relay. Everything else goes through.
type swallowingRPC struct {
	next http.Handler
	mu   sync.Mutex
	open bool
	// swallowed are the times of the sends it kept from the chain.
	swallowed []time.Time
}

func (s *swallowingRPC) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var call struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params []hexutil.Bytes `json:"params"`
	}
	s.mu.Lock()
	open := s.open
	s.mu.Unlock()
	if !open && json.Unmarshal(body, &call) == nil && call.Method == "eth_sendRawTransaction" && len(call.Params) == 1 {
		var tx types.Transaction
		if err := tx.UnmarshalBinary(call.Params[0]); err == nil {
			s.mu.Lock()
			s.swallowed = append(s.swallowed, time.Now())
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%q}`, call.ID, tx.Hash().Hex())
			return
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.next.ServeHTTP(w, r)
}

// sends returns how many sends it swallowed and over how long.
func (s *swallowingRPC) sends() (int, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.swallowed) == 0 {
		return 0, 0
	}
	return len(s.swallowed), s.swallowed[len(s.swallowed)-1].Sub(s.swallowed[0])
}

func (s *swallowingRPC) letThrough() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open = true
}

// lateChain is the local base chain behind a swallowing RPC, with funded
// wallets.
type lateChain struct {
	chain *evmdevnet.Chain
	keys  []*ecdsa.PrivateKey
}

func newLateChain(t *testing.T, wallets int) *lateChain {
	t.Helper()
	lc := &lateChain{}
	alloc := map[common.Address]*big.Int{}
	for range wallets {
		k, _ := crypto.GenerateKey()
		lc.keys = append(lc.keys, k)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = new(big.Int).Lsh(big.NewInt(1), 70)
	}
	c, err := evmdevnet.NewChain(evmdevnet.ChainConfig{Name: "base", Alloc: alloc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	lc.chain = c
	return lc
}

// front serves the chain behind a new swallowing RPC and returns the
// broadcaster's chain over it, through an endpoint as in production.
func (lc *lateChain) front(t *testing.T) (*swallowingRPC, *EVM) {
	t.Helper()
	sw := &swallowingRPC{next: lc.chain.Handler()}
	return sw, lc.through(t, sw)
}

// through serves h (the chain's handler, or one in front of it) until the
// test ends and returns the broadcaster's chain over it, through an
// endpoint as in production.
func (lc *lateChain) through(t *testing.T, h http.Handler) *EVM {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rc, err := endpoint.New("base rpc", srv.URL+"/evm/base").DialEVM(context.Background(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return NewEVM(rc, nil, EVMConfig{})
}

// mined reports whether tx is mined within d.
func (lc *lateChain) mined(tx *types.Transaction, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := lc.chain.WaitMined(ctx, tx.Hash())
	return err == nil
}

// transfer signs a transfer of wallet w at nonce, paying tip wei of tip.
func (lc *lateChain) transfer(t *testing.T, w int, nonce uint64, tip int64) (wire.SignedTx, *types.Transaction) {
	t.Helper()
	id := lc.chain.ChainID()
	tx, err := types.SignNewTx(lc.keys[w], types.LatestSignerForChainID(id), &types.DynamicFeeTx{ChainID: id, Nonce: nonce,
		GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100e9), Gas: 21_000, To: &payee, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return wire.SignedTx{Wallet: crypto.PubkeyToAddress(lc.keys[w].PublicKey).Hex(), Signature: tx.Hash().Hex(), Raw: raw}, tx
}

// expiryConfig makes the old 90 s timer short, so that a test shows an EVM
// transaction outliving it.
var expiryConfig = Config{Poll: 20 * time.Millisecond, ConfirmAfter: 100 * time.Millisecond,
	Resend: 50 * time.Millisecond, NonceRecheck: 100 * time.Millisecond}

// TestEVMLateLanding sends an EVM transaction that does not reach the chain
// for many times the time a Solana transaction lives, across a restart of
// the broadcaster, and then lands: the order stays broadcast all along,
// is re-sent (the same bytes) by both broadcasters, and ends confirmed,
// never expired.
func TestEVMLateLanding(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 1)
	sw, chain := lc.front(t)
	p := newPipeline(t)
	stop := p.start(t, expiryConfig, map[string]Chain{"base": chain})

	stx, tx := lc.transfer(t, 0, 0, 1e9)
	const id = "evm-late"
	if r := p.send(t, batchOf(id, "base", wire.FamilyEVM, stx)); r.Error != nil || !slices.Equal(r.Signatures, []string{stx.Signature}) {
		t.Fatalf("reply %+v", r)
	}
	// The node said it took the transaction; it never got it. Wait well
	// past the old timer, with re-sends going on.
	poll.Until(t, 10*time.Second, "re-sends past three times the old timer", func() bool {
		n, over := sw.sends()
		return n >= 4 && over > 3*expiryConfig.ConfirmAfter
	})
	if o := p.order(t, id); o.State != wire.StateBroadcast || o.Signatures[0].State != wire.StateBroadcast {
		t.Fatalf("order %s with signature %s long past the old timer, want broadcast", o.State, o.Signatures[0].State)
	}

	// A new broadcaster picks the transaction up from the tracking bucket
	// and re-sends it.
	stop()
	before, _ := sw.sends()
	p.start(t, expiryConfig, map[string]Chain{"base": chain})
	poll.Until(t, 10*time.Second, "re-sends by the restarted broadcaster", func() bool {
		n, _ := sw.sends()
		return n >= before+2
	})
	if o := p.order(t, id); o.State != wire.StateBroadcast {
		t.Fatalf("order %s after the restart, want broadcast", o.State)
	}

	sw.letThrough()
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateExpired, wire.StateFailed)
	if o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("order %s, signature %+v, want confirmed", o.State, o.Signatures[0])
	}
	if _, err := lc.chain.WaitMined(context.Background(), tx.Hash()); err != nil {
		t.Fatalf("the transaction is not on chain: %v", err)
	}
	poll.Until(t, 5*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Confirmed)
	})

	// The batch handed out again (its broadcaster died before the ack)
	// finds the transaction mined: it is not a second trade, and the order
	// stays confirmed.
	storedAt := p.order(t, id).UpdatedAt
	if r := p.redeliver(t, batchOf(id, "base", wire.FamilyEVM, stx)); r.Error != nil {
		t.Fatalf("redelivered batch: %+v", r.Error)
	}
	if o := p.orderStoredAfter(t, id, storedAt); o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("order %s, signature %+v after a redelivery, want confirmed", o.State, o.Signatures[0])
	}
	if got := p.eventTypes(t, id); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestEVMNonceTaken sends an EVM transaction that does not reach the chain,
// then lands another transaction of the same wallet and nonce: the order
// becomes expired (its exit may re-arm), not before the rival is mined.
func TestEVMNonceTaken(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 1)
	sw, chain := lc.front(t)
	p := newPipeline(t)
	p.start(t, expiryConfig, map[string]Chain{"base": chain})

	stx, tx := lc.transfer(t, 0, 0, 1e9)
	const id = "evm-replaced"
	if r := p.send(t, batchOf(id, "base", wire.FamilyEVM, stx)); r.Error != nil {
		t.Fatalf("reply %+v", r)
	}
	poll.Until(t, 10*time.Second, "re-sends past three times the old timer", func() bool {
		n, over := sw.sends()
		return n >= 3 && over > 3*expiryConfig.ConfirmAfter
	})
	if o := p.order(t, id); o.State != wire.StateBroadcast {
		t.Fatalf("order %s before the nonce was taken, want broadcast", o.State)
	}

	_, rival := lc.transfer(t, 0, 0, 2e9)
	if err := lc.chain.Client().SendTransaction(context.Background(), rival); err != nil {
		t.Fatal(err)
	}
	if _, err := lc.chain.WaitMined(context.Background(), rival.Hash()); err != nil {
		t.Fatal(err)
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateExpired, wire.StateFailed)
	want := wire.SigState{Signature: stx.Signature, Wallet: stx.Wallet, State: wire.StateExpired,
		Error: "its nonce was used by another transaction before it landed"}
	if o.State != wire.StateExpired || o.Signatures[0] != want {
		t.Fatalf("order %s, signature %+v, want expired %+v", o.State, o.Signatures[0], want)
	}
	if r, _ := lc.chain.Client().TransactionReceipt(context.Background(), tx.Hash()); r != nil {
		t.Fatal("the expired transaction has a receipt")
	}
	poll.Until(t, 5*time.Second, "the expired event", func() bool {
		return slices.Equal(p.eventTypes(t, id), []events.Type{events.Broadcast, events.Expired})
	})

	// Handed out again, the batch's send reaches the node, which refuses
	// it (its nonce is used): the order stays expired, with no failed
	// event.
	sw.letThrough()
	before := p.order(t, id).UpdatedAt
	if r := p.redeliver(t, batchOf(id, "base", wire.FamilyEVM, stx)); r.Error == nil || r.Error.Code != apierr.BroadcastFailed {
		t.Fatalf("redelivered batch: %+v", r.Error)
	}
	if o := p.orderStoredAfter(t, id, before); o.State != wire.StateExpired || o.Signatures[0] != want || o.Error != nil {
		t.Fatalf("order %s, signature %+v, error %+v after a redelivery, want expired %+v", o.State, o.Signatures[0], o.Error, want)
	}
	if got := p.eventTypes(t, id); !slices.Equal(got, []events.Type{events.Broadcast, events.Expired}) {
		t.Fatalf("events %v, want broadcast then expired", got)
	}
}

// TestBatchOnEarlierSubjectSent: a batch an earlier version published on
// its chain's one subject, still in TXS at an upgrade, is sent and answered
// like one on its order's subject.
func TestBatchOnEarlierSubjectSent(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 1)
	_, chain := lc.front(t)
	p := newPipeline(t)
	p.start(t, expiryConfig, map[string]Chain{"base": chain})
	stx, _ := lc.transfer(t, 0, 0, 1e9)
	const id = "evm-earlier"
	r := p.publishOn(t, bus.TxsSubject("base"), batchOf(id, "base", wire.FamilyEVM, stx), id)
	if r.Error != nil || !slices.Equal(r.Signatures, []string{stx.Signature}) {
		t.Fatalf("reply %+v", r)
	}
	// The record is stored after the answer.
	if o := p.orderIn(t, id, 10*time.Second, wire.StateBroadcast, wire.StateConfirmed); len(o.Signatures) != 1 {
		t.Fatalf("order %+v", o)
	}
}

// TestSolanaValidBlockhashNotExpiredByTime: a Solana transaction with a
// last valid height is expired by the chain's height only, however long
// the chain takes to reach it (skipped slots, a halted cluster): it could
// land until then. Without one, the clock expires it.
func TestSolanaValidBlockhashNotExpiredByTime(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	// The chain's height stays at 1 and nothing lands.
	p.start(t, expiryConfig, map[string]Chain{wire.ChainSolana: verdicts{}})
	valid := wire.SignedTx{Wallet: "w1", Signature: "sig-valid", Raw: []byte{1}, LastValidBlockHeight: 1000}
	unknown := wire.SignedTx{Wallet: "w2", Signature: "sig-unknown", Raw: []byte{2}}
	for id, tx := range map[string]wire.SignedTx{"eu-valid": valid, "eu-unknown": unknown} {
		if r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
			t.Fatalf("%s: %+v", id, r.Error)
		}
	}
	p.orderIn(t, "eu-unknown", 5*time.Second, wire.StateExpired)
	time.Sleep(3 * expiryConfig.ConfirmAfter) // deliberate: well past the timer
	if o := p.order(t, "eu-valid"); o.State != wire.StateBroadcast {
		t.Fatalf("order %s while its blockhash is valid, want broadcast", o.State)
	}
}
