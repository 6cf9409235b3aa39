package evm

import (
	"context"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestDroppedBatchGivesBack: a signed batch the worker drops unsent gives
// back what it took: its nonces when no later order took the next (else
// they are a gap, which its order no longer holds), its claim on the
// wallet's balance, and its approval, so that the wallet's next sale
// signs an approval of its own instead of relying on one that never goes
// out.
func TestDroppedBatchGivesBack(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	sell := func() *wire.TxBatch {
		t.Helper()
		b, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := sell()
	second := sell()
	if len(first.Txs) != 2 || len(second.Txs) != 1 {
		t.Fatalf("txs %d and %d, want 2 (approval and swap) and 1", len(first.Txs), len(second.Txs))
	}
	claims := func(order string) int {
		spends, err := e.nonces.Pending(ctx, wire.ChainBase, w)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, sp := range spends {
			if sp.Order == order {
				n++
			}
		}
		return n
	}
	// The second, the last taken, gives its nonce back.
	e.signer.Dropped(ctx, second)
	if claims(second.OrderID) != 0 {
		t.Fatal("a dropped batch's claim stayed in the wallet's record")
	}
	third := sell()
	if got, want := decode(t, third)[0].Nonce(), decode(t, second)[0].Nonce(); got != want {
		t.Fatalf("the next sale took nonce %d, want %d, given back", got, want)
	}
	// The first, with a later order past it: its claim and approval go, its
	// nonces stay taken.
	if claims(first.OrderID) == 0 {
		t.Fatal("no claim of the first sale")
	}
	e.signer.Dropped(ctx, first)
	if claims(first.OrderID) != 0 {
		t.Fatal("a dropped batch's claim stayed in the wallet's record")
	}
	next := decode(t, sell())
	if len(next) != 2 || next[0].Nonce() != decode(t, third)[0].Nonce()+1 {
		t.Fatalf("the sale after the dropped approval signed %d transactions from nonce %d, want its own approval and swap after the third's",
			len(next), next[0].Nonce())
	}
	if to, spender, ok := approvalOf(next[0].To(), next[0].Data()); !ok || to != tok.Address || spender == (common.Address{}) {
		t.Fatalf("the sale's first transaction is no approval of the token: %v %v %v", to, spender, ok)
	}
}

// TestOrderSignedAgainApprovesItself: an order signed a second time (its
// job redelivered while the first signing's batch was not handed on) does
// not rely on its first signing's approval, which goes out only if that
// batch is the one handed on; another order of the wallet does.
func TestOrderSignedAgainApprovesItself(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	job := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10"))
	first, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Txs) != 2 || len(again.Txs) != 2 || len(other.Txs) != 1 {
		t.Fatalf("transactions %d, %d, %d: want the order's two signings each with its approval, another order without",
			len(first.Txs), len(again.Txs), len(other.Txs))
	}
}

// TestOrderAfterAFailedApprovalApprovesItself: a wallet's first sale of a
// token whose order then ended failed (every send refused: its approval
// never reached the chain) is followed by a sale that carries its own
// approval: it relied on the failed order's, remembered for two minutes,
// and its swap waited behind the gap and reverted for want of an allowance.
func TestOrderAfterAFailedApprovalApprovesItself(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	var failed sync.Map
	s := e.signerSeeingEnded(t, &failed)
	first := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50"))
	b1, err := s.Sign(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	failed.Store(first.OrderID, true)
	b2, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50")))
	if err != nil {
		t.Fatal(err)
	}
	if len(b1.Txs) != 2 || len(b2.Txs) != 2 {
		t.Fatalf("transactions %d, %d: want each sale with its approval", len(b1.Txs), len(b2.Txs))
	}
}

// TestSaleOutrunByAnotherWorkersSale: a sale of half a wallet's tokens,
// planned from the wallet's balance net of its sales in flight, finds when
// it takes its nonce that another worker's sale of half came first (the
// turns that order a wallet's sales are per process): it is worked out
// again from a fresh read and sells half of what is left, as if it had
// come second, instead of being refused INSUFFICIENT_BALANCE.
func TestSaleOutrunByAnotherWorkersSale(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	other := e.newSigner(t, e.nonces, Config{})
	var first *wire.TxBatch
	e.signer.beforeTakes = func() {
		if first != nil {
			return
		}
		var err error
		if first, err = other.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50"))); err != nil {
			t.Error(err)
		}
	}
	second, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50")))
	if err != nil {
		t.Fatalf("the sale that came second: %v", err)
	}
	if first == nil {
		t.Fatal("the other worker's sale did not run")
	}
	amounts := map[string]*big.Int{}
	spends, err := e.nonces.Pending(ctx, wire.ChainBase, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range spends {
		if sp.Amount != nil && sp.Approves == "" && sp.Token == tokenName(tok.Address) {
			amounts[sp.Order] = sp.Amount
		}
	}
	a, b := amounts[first.OrderID], amounts[second.OrderID]
	if a == nil || b == nil {
		t.Fatalf("spends %+v", spends)
	}
	// The first sold half of X; the second half of what was left: X - a.
	lo, hi := new(big.Int).Rsh(a, 1), new(big.Int).Rsh(new(big.Int).Add(a, big.NewInt(1)), 1)
	if b.Cmp(lo) < 0 || b.Cmp(hi) > 0 {
		t.Fatalf("the second sale sells %s, want half of what the first left (%s or %s)", b, lo, hi)
	}
}
