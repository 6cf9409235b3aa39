package broadcaster

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"

	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// bundleChain is the local eth chain with funded wallets, its public RPC
// and its relay served over HTTP, the relay counting the bundles it gets.
type bundleChain struct {
	chain   *evmdevnet.Chain
	keys    []*ecdsa.PrivateKey
	evm     *EVM
	bundles atomic.Int32
}

func newBundleChain(t *testing.T, wallets int) *bundleChain {
	t.Helper()
	bc := &bundleChain{}
	alloc := map[common.Address]*big.Int{}
	for range wallets {
		k, _ := crypto.GenerateKey()
		bc.keys = append(bc.keys, k)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = new(big.Int).Lsh(big.NewInt(1), 70)
	}
	c, err := evmdevnet.NewChain(evmdevnet.ChainConfig{Name: "eth", Alloc: alloc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	bc.chain = c
	relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"eth_sendBundle"`)) {
			bc.bundles.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		c.RelayHandler().ServeHTTP(w, r)
	})
	pub, rel := httptest.NewServer(c.Handler()), httptest.NewServer(relay)
	t.Cleanup(pub.Close)
	t.Cleanup(rel.Close)
	ctx := context.Background()
	rc, err := endpoint.New("eth rpc", pub.URL).DialEVM(ctx, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := endpoint.New("eth relay", rel.URL).DialEVM(ctx, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	bc.evm = NewEVM(rc, rr, EVMConfig{RelayName: "eth relay"})
	return bc
}

// sign signs a call of wallet w at nonce.
func (bc *bundleChain) sign(t *testing.T, w int, nonce uint64, to common.Address, value *big.Int, data []byte, gas uint64) *types.Transaction {
	t.Helper()
	id := bc.chain.ChainID()
	tx, err := types.SignNewTx(bc.keys[w], types.LatestSignerForChainID(id), &types.DynamicFeeTx{ChainID: id, Nonce: nonce,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: gas, To: &to, Value: value, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// bundle returns each transaction as the signer hands it over: its own
// hash as the signature, the whole bundle as its bytes.
func bundle(t *testing.T, txs ...*types.Transaction) []wire.SignedTx {
	t.Helper()
	raws := make([][]byte, len(txs))
	for i, tx := range txs {
		raws[i], _ = tx.MarshalBinary()
	}
	body, err := rlp.EncodeToBytes(raws)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]wire.SignedTx, len(txs))
	for i, tx := range txs {
		out[i] = wire.SignedTx{Signature: tx.Hash().Hex(), Private: true, Raw: append([]byte{txbundle.Prefix}, body...)}
	}
	return out
}

// sendAll sends every transaction at once, as the broadcaster does.
func (bc *bundleChain) sendAll(ctx context.Context, stxs []wire.SignedTx) []error {
	errs := make([]error, len(stxs))
	var wg sync.WaitGroup
	for i, stx := range stxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = bc.evm.Send(ctx, stx)
		}()
	}
	wg.Wait()
	return errs
}

func (bc *bundleChain) nonce(t *testing.T, w int) uint64 {
	t.Helper()
	n, err := bc.chain.Client().NonceAt(context.Background(), crypto.PubkeyToAddress(bc.keys[w].PublicKey), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (bc *bundleChain) balance(t *testing.T, a common.Address) *big.Int {
	t.Helper()
	b, err := bc.chain.Client().BalanceAt(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEVMBundles sends bundles of a tip and a call, each transaction
// carrying the whole bundle, to the local chain's relay: sent at once they
// make one eth_sendBundle that lands both in one block; a landed bundle
// sent again is still a success; a bundle whose call reverts is refused
// whole, the tip unpaid; one whose nonces an earlier transaction has not
// reached yet is taken, pending, and lands when sent again; one with a
// nonce another transaction used is refused whole; bytes that do not hold
// the transaction are refused.
func TestEVMBundles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bc := newBundleChain(t, 3)
	d := bc.chain.Deployment()
	tip := big.NewInt(1e15)
	reverting, err := contracts.WrappedNativeMetaData.GetAbi()
	if err != nil {
		t.Fatal(err)
	}
	withdrawAll := func() []byte {
		data, _ := reverting.Pack("withdraw", new(big.Int).Lsh(big.NewInt(1), 200))
		return data
	}
	payee := common.HexToAddress("0x00000000000000000000000000000000000000aa")

	t.Run("sent at once: one bundle, one block, the tip paid once", func(t *testing.T) {
		tipsBefore := bc.balance(t, d.RelayTipAddress)
		before := bc.bundles.Load()
		txs := []*types.Transaction{bc.sign(t, 0, 0, d.RelayTipAddress, tip, nil, 30_000), bc.sign(t, 0, 1, payee, big.NewInt(7), nil, 30_000)}
		for i, err := range bc.sendAll(ctx, bundle(t, txs...)) {
			if err != nil {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		if n := bc.bundles.Load() - before; n != 1 {
			t.Fatalf("%d eth_sendBundle calls for one bundle sent twice at once, want 1", n)
		}
		r0, err0 := bc.chain.WaitMined(ctx, txs[0].Hash())
		r1, err1 := bc.chain.WaitMined(ctx, txs[1].Hash())
		if err0 != nil || err1 != nil || r0.BlockNumber.Cmp(r1.BlockNumber) != 0 {
			t.Fatalf("receipts %v %v, errors %v %v: not one block", r0, r1, err0, err1)
		}
		if got := new(big.Int).Sub(bc.balance(t, d.RelayTipAddress), tipsBefore); got.Cmp(tip) != 0 {
			t.Fatalf("tip address got %s, want %s", got, tip)
		}
		for _, tx := range txs {
			b, ok := bc.evm.Bundle(tx.Hash().Hex())
			if !ok || b.State != wire.BundleLanded || b.Slot != r0.BlockNumber.Uint64() || b.Relay != "eth relay" ||
				b.ID != evmdevnet.BundleHash(txs).Hex() || len(b.Signatures) != 2 || b.Signatures[1] != txs[1].Hash().Hex() {
				t.Fatalf("bundle record %+v (%v), want landed in block %s", b, ok, r0.BlockNumber)
			}
		}
		// A re-send of a landed bundle (the tracker's) is a success, and
		// pays nothing again.
		for i, err := range bc.sendAll(ctx, bundle(t, txs...)) {
			if err != nil {
				t.Fatalf("re-send %d: %v", i, err)
			}
		}
		if got := new(big.Int).Sub(bc.balance(t, d.RelayTipAddress), tipsBefore); got.Cmp(tip) != 0 {
			t.Fatalf("after the re-send the tip address got %s, want %s once", got, tip)
		}
		if b, _ := bc.evm.Bundle(txs[0].Hash().Hex()); b.State != wire.BundleLanded {
			t.Fatalf("after the re-send the bundle is %s, want still landed", b.State)
		}
		gone, err := bc.evm.Superseded(ctx, bundle(t, txs...))
		if err != nil || gone[0] || gone[1] {
			t.Fatalf("superseded %v, %v: a landed bundle is not", gone, err)
		}
	})
	t.Run("a reverting call refuses the whole bundle", func(t *testing.T) {
		tipsBefore := bc.balance(t, d.RelayTipAddress)
		txs := []*types.Transaction{bc.sign(t, 1, 0, d.RelayTipAddress, tip, nil, 30_000),
			bc.sign(t, 1, 1, d.WrappedNative, new(big.Int), withdrawAll(), 100_000)}
		for i, err := range bc.sendAll(ctx, bundle(t, txs...)) {
			var ref *Refused
			if !errors.As(err, &ref) || !strings.Contains(ref.Reason, "reverted") {
				t.Fatalf("send %d: %v, want the relay's refusal", i, err)
			}
		}
		if n := bc.nonce(t, 1); n != 0 {
			t.Fatalf("wallet nonce %d: part of a refused bundle landed", n)
		}
		if b, ok := bc.evm.Bundle(txs[0].Hash().Hex()); !ok || b.State != wire.BundleDropped || !strings.Contains(b.Reason, "reverted") {
			t.Fatalf("bundle record %+v (%v), want dropped because a transaction reverted", b, ok)
		}
		if got := bc.balance(t, d.RelayTipAddress); got.Cmp(tipsBefore) != 0 {
			t.Fatal("the tip was paid without its call")
		}
	})
	t.Run("ahead of the wallet's nonce: taken, pending; sent again, it lands", func(t *testing.T) {
		early := bc.sign(t, 2, 0, payee, big.NewInt(1), nil, 21_000)
		txs := []*types.Transaction{bc.sign(t, 2, 1, d.RelayTipAddress, tip, nil, 30_000), bc.sign(t, 2, 2, payee, big.NewInt(2), nil, 30_000)}
		stxs := bundle(t, txs...)
		// The relay takes it once the wallet's earlier transaction is
		// mined: not a refusal, nor an answer the RPC did not give.
		for i, err := range bc.sendAll(ctx, stxs) {
			if err != nil {
				t.Fatalf("send %d ahead of the nonce: %v, want taken for the tracker to send again", i, err)
			}
		}
		if b, ok := bc.evm.Bundle(txs[1].Hash().Hex()); !ok || b.State != wire.BundlePending {
			t.Fatalf("bundle record %+v (%v), want pending", b, ok)
		}
		raw, _ := early.MarshalBinary()
		if err := bc.evm.Send(ctx, wire.SignedTx{Signature: early.Hash().Hex(), Raw: raw}); err != nil {
			t.Fatal(err)
		}
		if _, err := bc.chain.WaitMined(ctx, early.Hash()); err != nil {
			t.Fatal(err)
		}
		if err := bc.evm.Send(ctx, stxs[0]); err != nil {
			t.Fatalf("send once the nonce is reached: %v", err)
		}
		if n := bc.nonce(t, 2); n != 3 {
			t.Fatalf("wallet nonce %d, want 3", n)
		}
	})
	t.Run("a nonce complaint at the wallet's next nonce: worth another try", func(t *testing.T) {
		// Nothing of the wallet is on its way and nothing used its nonces:
		// the relay's node may lag the public one. Neither taken nor
		// refused.
		e := NewEVM(bc.evm.rpc, complainingRelay{"nonce too low"}, EVMConfig{RelayName: "eth relay"})
		n := bc.nonce(t, 0)
		stxs := bundle(t, bc.sign(t, 0, n, d.RelayTipAddress, tip, nil, 30_000), bc.sign(t, 0, n+1, payee, big.NewInt(5), nil, 30_000))
		for i, stx := range stxs {
			err := e.Send(ctx, stx)
			var ref *Refused
			if err == nil || errors.As(err, &ref) {
				t.Fatalf("send %d: %v, want an error worth retrying", i, err)
			}
		}
		if b, ok := e.Bundle(stxs[0].Signature); ok {
			t.Fatalf("bundle record %+v, want none", b)
		}
	})
	t.Run("its nonce used by another transaction: refused, superseded", func(t *testing.T) {
		other := bc.sign(t, 1, 0, payee, big.NewInt(3), nil, 21_000)
		raw, _ := other.MarshalBinary()
		if err := bc.evm.Send(ctx, wire.SignedTx{Signature: other.Hash().Hex(), Raw: raw}); err != nil {
			t.Fatal(err)
		}
		if _, err := bc.chain.WaitMined(ctx, other.Hash()); err != nil {
			t.Fatal(err)
		}
		stxs := bundle(t, bc.sign(t, 1, 0, d.RelayTipAddress, tip, nil, 30_000), bc.sign(t, 1, 1, payee, big.NewInt(4), nil, 30_000))
		// The bundle can never land: each of its transactions is refused,
		// the second too, whose own nonce is free (held as "may land", it
		// kept the wallet's next orders waiting until its deadline).
		for i, err := range bc.sendAll(ctx, stxs) {
			var ref *Refused
			if !errors.As(err, &ref) {
				t.Fatalf("send %d of a bundle with a used nonce: %v, want a refusal", i, err)
			}
		}
		gone, err := bc.evm.Superseded(ctx, stxs)
		if err != nil || !gone[0] || gone[1] {
			t.Fatalf("superseded %v, %v; want the first (its nonce used) and not the second", gone, err)
		}
	})
	t.Run("bytes without the transaction", func(t *testing.T) {
		stxs := bundle(t, bc.sign(t, 0, 9, payee, big.NewInt(1), nil, 21_000))
		stxs[0].Signature = common.Hash{1}.Hex()
		var ref *Refused
		if err := bc.evm.Send(ctx, stxs[0]); !errors.As(err, &ref) || !strings.Contains(ref.Reason, "undecodable") {
			t.Fatalf("send: %v, want undecodable", err)
		}
	})
	t.Run("no relay", func(t *testing.T) {
		e := NewEVM(bc.evm.rpc, nil, EVMConfig{})
		var ref *Refused
		err := e.Send(ctx, bundle(t, bc.sign(t, 0, 9, payee, big.NewInt(1), nil, 21_000))[0])
		if !errors.As(err, &ref) || !strings.Contains(ref.Reason, "relay") {
			t.Fatalf("send: %v, want a refusal naming the relay", err)
		}
	})
}

// complainingRelay answers every call with a nonce complaint.
type complainingRelay struct{ msg string }

func (r complainingRelay) CallContext(context.Context, any, string, ...any) error {
	return relayError{r.msg}
}

func (r complainingRelay) BatchCallContext(context.Context, []rpc.BatchElem) error {
	return relayError{r.msg}
}

// relayError is a JSON-RPC error answer.
type relayError struct{ msg string }

func (e relayError) Error() string  { return e.msg }
func (e relayError) ErrorCode() int { return -32000 }

// bundleTimingOut passes eth_sendBundle to the relay, which lands it, and
// answers as geth does a call that ran past its timeout (-32002 "request
// timed out"), as TestEVMSendTimeoutIsNoRefusal's timingOut does for a send.
type bundleTimingOut struct{ next EVMRPC }

func (r bundleTimingOut) CallContext(ctx context.Context, result any, method string, args ...any) error {
	err := r.next.CallContext(ctx, result, method, args...)
	if method == "eth_sendBundle" && err == nil {
		return relayError{"request timed out"}
	}
	return err
}

func (r bundleTimingOut) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return r.next.BatchCallContext(ctx, b)
}

// timingOutBundle is a tip and a transfer signed as one bundle, and a
// broadcaster whose relay lands bundles and answers each send with a
// timeout.
func timingOutBundle(t *testing.T) (*bundleChain, *EVM, []*types.Transaction, []wire.SignedTx) {
	t.Helper()
	bc := newBundleChain(t, 1)
	d := bc.chain.Deployment()
	payee := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	e := NewEVM(bc.evm.rpc, bundleTimingOut{bc.evm.relay}, EVMConfig{RelayName: "eth relay"})
	txs := []*types.Transaction{bc.sign(t, 0, 0, d.RelayTipAddress, big.NewInt(1e15), nil, 30_000), bc.sign(t, 0, 1, payee, big.NewInt(7), nil, 30_000)}
	return bc, e, txs, bundle(t, txs...)
}

// TestBundleTimeoutIsNoRefusal: a relay's answer to eth_sendBundle that is
// not its refusal of the bundle (a timeout, after which the bundle may
// still reach the builders and land) is no refusal: the order was stored
// failed, final, while its swap landed, and an exit re-armed on it sold
// again.
func TestBundleTimeoutIsNoRefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bc, e, txs, stxs := timingOutBundle(t)
	err := e.Send(ctx, stxs[1])
	if _, werr := bc.chain.WaitMined(ctx, txs[1].Hash()); werr != nil {
		t.Fatalf("premise: the bundle did not land: %v", werr)
	}
	var ref *Refused
	if errors.As(err, &ref) || kindOf(err) == refused {
		t.Fatalf("Send: %v (kind refused), though the relay's answer was a timeout and the bundle landed", err)
	}
}

// TestBundleTimeoutOrderSettlesAsLanded: through the pipeline, an order
// whose relay answered its bundle with a timeout, and landed it, ends
// confirmed; it was answered BROADCAST_FAILED and stored failed.
func TestBundleTimeoutOrderSettlesAsLanded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bc, e, txs, stxs := timingOutBundle(t)
	wallet := crypto.PubkeyToAddress(bc.keys[0].PublicKey).Hex()
	for i := range stxs {
		stxs[i].Wallet = wallet
	}
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, map[string]Chain{"eth": e})
	r := p.send(t, batchOf("evm-timeout-1", "eth", wire.FamilyEVM, stxs...))
	if r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	rc, err := bc.chain.WaitMined(ctx, txs[1].Hash())
	if err != nil {
		t.Fatal(err)
	}
	// States are final: the first one the order reaches is its end.
	if o := p.orderIn(t, "evm-timeout-1", 20*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("order %s (%+v) while its swap landed in block %s with status %d", o.State, o.Signatures, rc.BlockNumber, rc.Status)
	}
}

// lookupBehind answers eth_getTransactionByHash as a node of a provider's
// pool that has not reached the block yet (null); everything else passes.
type lookupBehind struct{ next EVMRPC }

func (r lookupBehind) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_getTransactionByHash" {
		return nil
	}
	return r.next.CallContext(ctx, result, method, args...)
}

func (r lookupBehind) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return r.next.BatchCallContext(ctx, b)
}

// TestLandedBundleNotRefusedOnALaggingLookup: a landed bundle sent again
// (by a process that has no record of it) is refused by the relay for its
// used nonces; a lookup of its transaction answered by a node behind the
// one that counted them does not make it refused and recorded dropped:
// its receipts, read with the guard against a node behind, say it landed.
func TestLandedBundleNotRefusedOnALaggingLookup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bc := newBundleChain(t, 1)
	d := bc.chain.Deployment()
	pay := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	txs := []*types.Transaction{bc.sign(t, 0, 0, d.RelayTipAddress, big.NewInt(1e15), nil, 30_000), bc.sign(t, 0, 1, pay, big.NewInt(7), nil, 30_000)}
	stxs := bundle(t, txs...)
	if err := bc.evm.Send(ctx, stxs[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := bc.chain.WaitMined(ctx, txs[1].Hash()); err != nil {
		t.Fatal(err)
	}
	restarted := NewEVM(lookupBehind{bc.evm.rpc}, bc.evm.relay, EVMConfig{RelayName: "eth relay"})
	err := restarted.Send(ctx, stxs[1])
	b, _ := restarted.Bundle(stxs[1].Signature)
	if kindOf(err) == refused || b.State == wire.BundleDropped {
		t.Fatalf("a bundle on chain was refused (%v) and recorded %s", err, b.State)
	}
}

// TestBundleRefusedOnAShallowRival: with confirmations to count, a bundle
// the relay refuses because another transaction took its first nonce in
// the head block is still refused: a refused bundle is in no pool, and
// lands only if sent again, whatever a reorg does to the other's block
// (the tracker's expiry of a transaction sent waits for that block's
// depth; a relay's refusal needs none).
func TestBundleRefusedOnAShallowRival(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bc := newBundleChain(t, 2)
	bc.evm = NewEVM(bc.evm.rpc, bc.evm.relay, EVMConfig{RelayName: "eth relay", Confirmations: 2})
	d := bc.chain.Deployment()
	payee := common.Address{0xbe}
	other := bc.sign(t, 1, 0, payee, big.NewInt(3), nil, 21_000)
	raw, _ := other.MarshalBinary()
	if err := bc.evm.Send(ctx, wire.SignedTx{Signature: other.Hash().Hex(), Raw: raw}); err != nil {
		t.Fatal(err)
	}
	if _, err := bc.chain.WaitMined(ctx, other.Hash()); err != nil {
		t.Fatal(err)
	}
	stxs := bundle(t, bc.sign(t, 1, 0, d.RelayTipAddress, big.NewInt(1e15), nil, 30_000), bc.sign(t, 1, 1, payee, big.NewInt(4), nil, 30_000))
	for i, err := range bc.sendAll(ctx, stxs) {
		if ref := (*Refused)(nil); !errors.As(err, &ref) {
			t.Errorf("send %d of a bundle refused on a nonce another transaction took in the head block: %v, want refused", i, err)
		}
	}
}
