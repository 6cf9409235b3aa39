package broadcaster

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// evmChain is go-ethereum's simulated chain with a funded wallet and a
// recording relay in front of it.
type evmChain struct {
	backend *simulated.Backend
	rpc     *rpc.Client
	key     *ecdsa.PrivateKey
	from    common.Address
	relay   *recordingRelay
	signer  types.Signer
}

func newEVMChain(t *testing.T) *evmChain {
	t.Helper()
	key, _ := crypto.GenerateKey()
	from := crypto.PubkeyToAddress(key.PublicKey)
	b := simulated.NewBackend(types.GenesisAlloc{from: {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}})
	t.Cleanup(func() { _ = b.Close() })
	// The simulated client wraps an ethclient over an in-process RPC
	// connection in an exported field; the broadcaster speaks raw RPC.
	rc := reflect.ValueOf(b.Client()).FieldByName("Client").Interface().(*ethclient.Client).Client()
	relay := &recordingRelay{next: rc}
	return &evmChain{backend: b, rpc: rc, key: key, from: from, relay: relay,
		signer: types.LatestSignerForChainID(big.NewInt(1337))}
}

// waitIndexed waits until the simulated node has indexed its transactions:
// until then a lookup answers "transaction indexing is in progress", which
// the sender rightly takes as a reason to try again later.
func (c *evmChain) waitIndexed(t *testing.T) {
	t.Helper()
	var err error
	if !poll.True(5*time.Second, func() bool {
		var found map[string]any
		err = c.rpc.CallContext(context.Background(), &found, "eth_getTransactionByHash", common.Hash{})
		return err == nil
	}) {
		t.Fatalf("transactions not indexed: %v", err)
	}
}

// waitPending waits until the wallet's transactions up to nonce next-1
// are all pending: the simulated node's pool promotes a transaction behind
// another of its sender's in the background, and a block sealed before
// then leaves it out.
func (c *evmChain) waitPending(t *testing.T, next uint64) {
	t.Helper()
	var n uint64
	var err error
	if !poll.True(5*time.Second, func() bool {
		n, err = ethclient.NewClient(c.rpc).PendingNonceAt(context.Background(), c.from)
		return err == nil && n == next
	}) {
		t.Fatalf("pending up to nonce %d, want %d: %v", n, next, err)
	}
}

// relayClient is a client of the relay.
func (c *evmChain) relayClient(t *testing.T) *rpc.Client {
	srv := rpc.NewServer()
	if err := srv.RegisterName("eth", c.relay); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return rpc.DialInProc(srv)
}

// recordingRelay is a private relay: it records what it is sent and
// passes it to the chain.
type recordingRelay struct {
	next *rpc.Client
	mu   sync.Mutex
	seen []common.Hash
}

// SendRawTransaction is eth_sendRawTransaction.
func (r *recordingRelay) SendRawTransaction(ctx context.Context, raw hexutil.Bytes) (common.Hash, error) {
	var tx types.Transaction
	if err := tx.UnmarshalBinary(raw); err != nil {
		return common.Hash{}, err
	}
	r.mu.Lock()
	r.seen = append(r.seen, tx.Hash())
	r.mu.Unlock()
	var h common.Hash
	err := r.next.CallContext(ctx, &h, "eth_sendRawTransaction", raw)
	return h, err
}

func (r *recordingRelay) saw(h common.Hash) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.seen {
		if s == h {
			return true
		}
	}
	return false
}

// tx signs a transaction of the chain's wallet.
func (c *evmChain) tx(t *testing.T, nonce uint64, to *common.Address, value int64, gas uint64, tip int64, data []byte) (wire.SignedTx, *types.Transaction) {
	t.Helper()
	tx, err := types.SignNewTx(c.key, c.signer, &types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: nonce,
		GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100 * tip), Gas: gas, To: to, Value: big.NewInt(value), Data: data})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return wire.SignedTx{Wallet: c.from.Hex(), Signature: tx.Hash().Hex(), Raw: raw}, tx
}

var payee = common.HexToAddress("0x00000000000000000000000000000000000c0ffe")

// TestEVMSend covers the outcomes of sending, in the order a chain sees
// them.
func TestEVMSend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(c.rpc, c.relayClient(t), EVMConfig{})
	first, _ := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	rival, _ := c.tx(t, 0, &payee, 2, 21_000, 1e9, nil)
	future, _ := c.tx(t, 5, &payee, 1, 21_000, 1e9, nil)
	broke, _ := c.tx(t, 1, &payee, 0, 21_000, 1e9, nil)
	broke.Raw = func() []byte { // a wallet with nothing
		k, _ := crypto.GenerateKey()
		tx, _ := types.SignNewTx(k, c.signer, &types.DynamicFeeTx{ChainID: big.NewInt(1337), GasTipCap: big.NewInt(1e9),
			GasFeeCap: big.NewInt(1e11), Gas: 21_000, To: &payee, Value: big.NewInt(1)})
		raw, _ := tx.MarshalBinary()
		return raw
	}()
	lowGas, _ := c.tx(t, 1, &payee, 1, 20_000, 1e9, nil)

	steps := []struct {
		name    string
		tx      wire.SignedTx
		commit  bool // mine what is pending before this step
		refused string
	}{
		{"a new transaction is accepted", first, false, ""},
		{"the same bytes again are a success", first, false, ""},
		{"another transaction for a pending nonce is refused", rival, false, "replacement transaction underpriced"},
		{"the same bytes after they were mined are a success", first, true, ""},
		{"another transaction for a used nonce is refused", rival, false, "nonce too low"},
		{"a future nonce waits in the pool", future, false, ""},
		{"a wallet that cannot pay is refused", broke, false, "insufficient funds"},
		{"too little gas is refused", lowGas, false, "intrinsic gas too low"},
		{"undecodable bytes are refused", wire.SignedTx{Raw: []byte{1, 2, 3}}, false, "undecodable"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.commit {
				c.backend.Commit()
				c.waitIndexed(t)
			}
			err := e.Send(ctx, s.tx)
			var ref *Refused
			switch {
			case s.refused == "" && err != nil:
				t.Fatalf("Send: %v, want success", err)
			case s.refused != "" && !errors.As(err, &ref):
				t.Fatalf("Send: %v, want a refusal", err)
			case s.refused != "" && !strings.Contains(ref.Reason, s.refused):
				t.Fatalf("refusal %q does not give the node's reason %q", ref.Reason, s.refused)
			}
		})
	}
}

// TestEVMSendRoutes sends anti-MEV transactions through the relay only.
func TestEVMSendRoutes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	withRelay := NewEVM(c.rpc, c.relayClient(t), EVMConfig{})
	public, ptx := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	private, ptx2 := c.tx(t, 1, &payee, 1, 21_000, 1e9, nil)
	private.Private = true
	if err := withRelay.Send(ctx, public); err != nil {
		t.Fatal(err)
	}
	if err := withRelay.Send(ctx, private); err != nil {
		t.Fatal(err)
	}
	if c.relay.saw(ptx.Hash()) {
		t.Fatal("a public transaction went through the relay")
	}
	if !c.relay.saw(ptx2.Hash()) {
		t.Fatal("an anti-MEV transaction did not go through the relay")
	}
	// The simulated node promotes a pooled transaction in the background:
	// the second one may need the next block.
	var sts []Status
	var err error
	if !poll.True(5*time.Second, func() bool {
		c.backend.Commit()
		sts, err = withRelay.Statuses(ctx, []string{public.Signature, private.Signature})
		return err == nil && sts[0].State == wire.StateConfirmed && sts[1].State == wire.StateConfirmed
	}) {
		t.Fatalf("states %+v (%v), want both confirmed", sts, err)
	}

	noRelay := NewEVM(c.rpc, nil, EVMConfig{})
	again, _ := c.tx(t, 2, &payee, 1, 21_000, 1e9, nil)
	again.Private = true
	var ref *Refused
	if err := noRelay.Send(ctx, again); !errors.As(err, &ref) || !strings.Contains(ref.Reason, "relay") {
		t.Fatalf("anti-MEV without a relay: %v, want a refusal naming the relay", err)
	}
}

// TestEVMSendUnreachable is a transient error, not a refusal.
func TestEVMSendUnreachable(t *testing.T) {
	t.Parallel()
	c := newEVMChain(t)
	dead, err := rpc.Dial("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	err = NewEVM(dead, nil, EVMConfig{}).Send(context.Background(), tx)
	var ref *Refused
	if err == nil || errors.As(err, &ref) {
		t.Fatalf("Send to an unreachable node: %v, want a transient error", err)
	}
}

// TestEVMStatuses reads every state a transaction can be in.
func TestEVMStatuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(c.rpc, nil, EVMConfig{})
	ok, _ := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	// Creation code that reverts at once: the transaction lands, failed.
	reverts, _ := c.tx(t, 1, nil, 0, 100_000, 1e9, common.FromHex("0x60006000fd"))
	// Sent, then replaced in the pool by a transaction paying more.
	replaced, _ := c.tx(t, 2, &payee, 1, 21_000, 1e9, nil)
	replacer, _ := c.tx(t, 2, &payee, 2, 21_000, 5e9, nil)
	unseen, _ := c.tx(t, 3, &payee, 1, 21_000, 1e9, nil)
	for _, tx := range []wire.SignedTx{ok, reverts, replaced, replacer} {
		if err := e.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	c.waitPending(t, 3)
	sigs := []string{ok.Signature, reverts.Signature, replaced.Signature, unseen.Signature}
	before, err := e.Statuses(ctx, sigs)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range before {
		if st.State != "" {
			t.Fatalf("before mining, tx %d is %q, want unknown", i, st.State)
		}
	}
	h0, err := e.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.backend.Commit()
	if h1, _ := e.Height(ctx); h1 != h0+1 {
		t.Fatalf("height %d after one block from %d", h1, h0)
	}
	after, err := e.Statuses(ctx, sigs)
	if err != nil {
		t.Fatal(err)
	}
	// The replaced transaction has no receipt: it is not failed, and not
	// expired by Statuses either; Superseded tells that its nonce is gone.
	want := []string{wire.StateConfirmed, wire.StateFailed, "", ""}
	for i, st := range after {
		if st.State != want[i] {
			t.Errorf("tx %d: state %q (%s), want %q", i, st.State, st.Err, want[i])
		}
	}
	// Until the node has indexed the block, it cannot say that the
	// replaced transaction has no receipt, and nothing is superseded on a
	// doubt.
	txs := []wire.SignedTx{ok, reverts, replaced, unseen, {Raw: []byte{1, 2, 3}}}
	wantGone := []bool{false, false, true, false, false}
	var gone []bool
	if !poll.True(5*time.Second, func() bool {
		gone, err = e.Superseded(ctx, txs)
		return err == nil && reflect.DeepEqual(gone, wantGone)
	}) {
		t.Fatalf("superseded %v (%v), want %v", gone, err, wantGone)
	}

	deep := NewEVM(c.rpc, nil, EVMConfig{Confirmations: 2})
	if sts, _ := deep.Statuses(ctx, []string{ok.Signature}); sts[0].State != "" {
		t.Fatalf("with 2 confirmations, a tx in the latest block is %q", sts[0].State)
	}
	if sts, _ := deep.Statuses(ctx, []string{ok.Signature}); sts[0].Slot == 0 {
		t.Fatal("a mined transaction waiting for confirmations does not say it landed")
	}
	// Nor is a transaction expired on a nonce that a block not yet final
	// took: a reorg of that block may put the other transaction back in
	// the pool, and this one land instead.
	if gone, err := deep.Superseded(ctx, []wire.SignedTx{replaced}); err != nil || gone[0] {
		t.Fatalf("with 2 confirmations, superseded %v (%v) by a transaction in the latest block", gone, err)
	}
	c.backend.Commit()
	if gone, err := deep.Superseded(ctx, []wire.SignedTx{replaced}); err != nil || gone[0] {
		t.Fatalf("with 2 confirmations, superseded %v (%v) by a transaction one block deep", gone, err)
	}
	c.backend.Commit()
	if sts, _ := deep.Statuses(ctx, []string{ok.Signature}); sts[0].State != wire.StateConfirmed {
		t.Fatalf("two blocks later the tx is %q, want confirmed", sts[0].State)
	}
	if gone, err := deep.Superseded(ctx, []wire.SignedTx{replaced}); err != nil || !gone[0] {
		t.Fatalf("two blocks later, superseded %v (%v), want the nonce gone", gone, err)
	}
	if _, err := e.Statuses(ctx, []string{"0x1234"}); err == nil {
		t.Fatal("a malformed hash was accepted")
	}
}

// timingOut passes every call to the node, and answers a send the node
// took as geth does a call that ran past its timeout.
type timingOut struct{ next EVMRPC }

func (r timingOut) CallContext(ctx context.Context, result any, method string, args ...any) error {
	err := r.next.CallContext(ctx, result, method, args...)
	if method == "eth_sendRawTransaction" && err == nil {
		return relayError{"request timed out"}
	}
	return err
}

func (r timingOut) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return r.next.BatchCallContext(ctx, b)
}

// TestEVMSendTimeoutIsNoRefusal: a JSON-RPC error the send does not know
// for the node's refusal of the transaction (geth's -32002 "request timed
// out", while the call goes on) may have left it in the pool, as here: it
// is an error to try again and track, never a refusal (the order would be
// answered 502 and stored failed, and trade).
func TestEVMSendTimeoutIsNoRefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(timingOut{c.rpc}, nil, EVMConfig{})
	tx, _ := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	err := e.Send(ctx, tx)
	var ref *Refused
	if err == nil || errors.As(err, &ref) || kindOf(err) == refused {
		t.Fatalf("Send: %v, want an error that may have reached the chain", err)
	}
	var found map[string]any
	if err := c.rpc.CallContext(ctx, &found, "eth_getTransactionByHash", common.HexToHash(tx.Signature)); err != nil || found == nil {
		t.Fatalf("the node does not hold the transaction (%v): the test's premise", err)
	}
}
