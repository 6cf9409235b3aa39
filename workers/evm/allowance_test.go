package evm

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// approvals returns the amounts of the approve calls among txs, in order.
func approvals(txs []*types.Transaction) []*big.Int {
	var out []*big.Int
	for _, tx := range txs {
		if d := tx.Data(); len(d) >= 68 && bytes.Equal(d[:4], approveSelector) {
			out = append(out, new(big.Int).SetBytes(d[36:68]))
		}
	}
	return out
}

// TestAllowanceSpentInFlight: a wallet that allows Router02 a limited
// amount of its token (an exact approval made before) sells 30 % of its
// holding twice, the second signed while the first is in flight. The
// allowance of 40 % read at the latest block covers each sale alone, but
// the first uses 30 % of it when it lands: the second counts that and
// carries its own approval, so that it lands instead of reverting for
// want of an allowance, its gas paid.
func TestAllowanceSpentInFlight(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	chain := wire.ChainBase
	tok, w, _, allow := e.limitedAllowance(t, chain, 40)

	first, err := e.signer.Sign(ctx, e.job(chain, wire.Sell, tok.Address, "", legOf(w, "30")))
	if err != nil {
		t.Fatal(err)
	}
	if got := approvals(decode(t, first)); len(got) != 0 {
		t.Fatalf("the first sale approves %v: the allowance of %s covers it", got, allow)
	}
	second, err := e.signer.Sign(ctx, e.job(chain, wire.Sell, tok.Address, "", legOf(w, "30")))
	if err != nil {
		t.Fatalf("second sale refused: %v", err)
	}
	if got := approvals(decode(t, second)); len(got) != 1 || got[0].Cmp(maxUint256) != 0 {
		t.Fatalf("the second sale approves %v, want one approval of the whole range: the first, in flight, uses 30 %% of the 40 %% allowed", got)
	}
	e.broadcast(t, first)
	for i, r := range e.broadcast(t, second) {
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transaction %d of the second sale reverted on chain", i)
		}
	}
}

// TestAllowanceSpentByAnotherWorker: a sale of an exact quantity planned
// on the wallet's limited allowance, less its spends in flight as read,
// finds when it takes its nonce that another worker's sale of the wallet
// (the turns are per process) came first and uses that allowance: it is
// worked out again from a fresh read and carries its own approval,
// instead of being signed without one and reverting on chain.
func TestAllowanceSpentByAnotherWorker(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	chain := wire.ChainBase
	tok, w, held, allow := e.limitedAllowance(t, chain, 40)
	quantity := money.Format(new(big.Int).Div(new(big.Int).Mul(held, big.NewInt(30)), big.NewInt(100)), 18)
	sale := func() *wire.SwapJob {
		j := e.job(chain, wire.Sell, tok.Address, "", legOf(w, quantity))
		j.SellMode = wire.SellTokens
		return j
	}
	other := e.newSigner(t, e.nonces, Config{})
	var first *wire.TxBatch
	e.signer.beforeTakes = func() {
		if first != nil {
			return
		}
		var err error
		if first, err = other.Sign(ctx, sale()); err != nil {
			t.Error(err)
		}
	}
	second, err := e.signer.Sign(ctx, sale())
	if err != nil {
		t.Fatalf("the sale that came second: %v", err)
	}
	if first == nil {
		t.Fatal("the other worker's sale did not run")
	}
	if got := approvals(decode(t, first)); len(got) != 0 {
		t.Fatalf("the first sale approves %v: the allowance of %s covers it", got, allow)
	}
	if got := approvals(decode(t, second)); len(got) != 1 || got[0].Cmp(maxUint256) != 0 {
		t.Fatalf("the second sale approves %v, want one approval of the whole range: the other worker's sale uses 30 %% of the 40 %% allowed", got)
	}
	e.broadcast(t, first)
	e.broadcast(t, second)
}

// TestAllowanceClaims: a claim whose swap relies on the allowance as read
// is refused when the wallet's other spends of the token not yet mined
// leave the allowance short of it, whichever router they go through; an
// approval of the router on its way in another order, those spends mined,
// or an allowance that covers them all, let it through.
func TestAllowanceClaims(t *testing.T) {
	tok, router := common.HexToAddress("0x02"), common.HexToAddress("0x03")
	now := time.Now()
	until := now.Add(time.Minute)
	claim := func(order string, mined uint64, allowed, spend int64) *Claim {
		return &Claim{Order: order, Mined: mined, Until: until,
			Allowance: &Allowance{Token: tok, Spender: router, Amount: big.NewInt(allowed)},
			Held:      map[common.Address]*big.Int{tok: big.NewInt(100)}, Spend: map[common.Address]*big.Int{tok: big.NewInt(spend)}}
	}
	rec := &nonceRecord{}
	if err := rec.claim(claim("o1", 0, 40, 30), 1, 1, now); err != nil {
		t.Fatal(err)
	}
	var short *ErrAllowanceSpent
	if err := rec.claim(claim("o2", 0, 40, 30), 2, 2, now); !errors.As(err, &short) || short.Taken.Int64() != 30 || len(rec.Spends) != 1 {
		t.Fatalf("a claim on an allowance another spend in flight uses: %v, spends %v", err, rec.Spends)
	}
	for name, c := range map[string]*Claim{
		"o1 signed again":             claim("o1", 0, 40, 30),
		"an allowance for both":       claim("o3", 0, 60, 30),
		"o1 mined (nonce 1 is below)": claim("o4", 2, 10, 10),
	} {
		r := &nonceRecord{Spends: slices.Clone(rec.Spends)}
		if err := r.claim(c, 5, 5, now); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	approving := &Claim{Order: "o5", Mined: 0, Until: until, Approves: &Approval{Token: tok, Spender: router},
		Held: map[common.Address]*big.Int{tok: big.NewInt(100)}, Spend: map[common.Address]*big.Int{tok: big.NewInt(10)}}
	if err := rec.claim(approving, 2, 3, now); err != nil {
		t.Fatal(err)
	}
	if err := rec.claim(claim("o6", 0, 40, 30), 4, 4, now); err != nil {
		t.Fatalf("a claim behind another order's approval of the router: %v", err)
	}
}

// limitedAllowance gives a wallet holding a V2 token on chain, which
// allows Router02 pct % of its holding, as an exact approval made
// elsewhere does; it returns the token, the wallet, its holding and the
// allowance.
func (e *env) limitedAllowance(t *testing.T, chain string, pct int64) (devevm.Token, common.Address, *big.Int, *big.Int) {
	t.Helper()
	tok, w := e.holder(t, chain)
	c := e.dev.chain(t, chain)
	held := e.balance(t, chain, w, tok.Address.Hex())
	allow := new(big.Int).Div(new(big.Int).Mul(held, big.NewInt(pct)), big.NewInt(100))
	bk := &bindKey{key: e.keys.keys[w], addr: w}
	tt, err := contracts.NewTaxToken(tok.Address, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := tt.Approve(bk.opts(t, c), c.Deployment().Router02, allow)
	waitTx(t, c, tx, err)
	return tok, w, held, allow
}
