package evm

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestArcBuySpendsWithItsGas: arc keeps one balance of its native USDC,
// which its ERC-20 shows in 6 decimals, so a buy's gas comes out of what
// it spends. A buy of the wallet's whole balance is refused before
// anything is signed, naming the wallet; one that leaves room for its gas
// is signed, and lands.
func TestArcBuySpendsWithItsGas(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainArc, "", 0, 0)
	w := e.wallet(t, wire.ChainArc, "10", nil) // 10 USDC, in both the coin and its token
	_, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "10")))
	ae := wantCode(t, err, apierr.InsufficientBalance, w.Hex())
	if !strings.Contains(ae.Message, "same balance") {
		t.Fatalf("message %q does not say the gas comes out of the same balance", ae.Message)
	}
	b, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "9.99")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	if left := e.balance(t, wire.ChainArc, w, "USDC"); left.Int64() != 10_000 {
		t.Fatalf("the wallet's USDC token holds %s base units after the buy, want 10000", left)
	}
}

// TestArcTaxProbe: the tax probe measures an arc token against the native
// coin's own ERC-20, on a V2 pair and in a V3 pool, instead of calling
// every token untradable.
func TestArcTaxProbe(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, venue := range []string{devevm.VenueV2, devevm.VenueV3} {
		tok := e.tokenOn(t, wire.ChainArc, devevm.TokenRequest{Venue: venue})
		w := e.wallet(t, wire.ChainArc, "100", nil)
		job := e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "1"))
		cap := uint32(100) // 1 %
		job.MaxTaxBps = &cap
		b, err := e.signer.Sign(ctx, job)
		if err != nil {
			t.Fatalf("%s: %v", venue, err)
		}
		if b.Tax == nil || b.Tax.BuyPct != 0 || b.Tax.SellPct != 0 {
			t.Fatalf("%s: probed tax %+v, want none", venue, b.Tax)
		}
	}
}

// TestArcSpendClaimedAsNative: an arc buy's claim on its wallet counts its
// USDC spend as native coin too, with its gas, so that another worker's
// order, planned at the same moment, cannot claim the same balance twice
// (its token and its native coin each fitting alone): on the real chain
// the two are one balance.
func TestArcSpendClaimedAsNative(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainArc, "", 0, 0)
	w := e.wallet(t, wire.ChainArc, "10", nil)
	if _, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "5"))); err != nil {
		t.Fatal(err)
	}
	pending, err := e.nonces.Pending(ctx, wire.ChainArc, w)
	if err != nil {
		t.Fatal(err)
	}
	five := units(t, "5", chains.WeiDecimals)
	var native *big.Int
	for _, sp := range pending {
		if sp.Token == "" && sp.Amount != nil {
			native = sp.Amount
		}
	}
	if native == nil || native.Cmp(five) <= 0 {
		t.Fatalf("the buy's native claim is %v wei, want its 5 USDC spend and its gas", native)
	}
	// Another worker's buy of the other 5 USDC, planned before the first
	// was recorded: its token fits the 5 left, its native coin does not.
	usdc := e.dev.chain(t, wire.ChainArc).Deployment().NativeToken
	ten := units(t, "10", chains.WeiDecimals)
	_, err = e.nonces.TakeFor(ctx, wire.ChainArc, w, 2, 0, &Claim{Order: "other", Until: time.Now().Add(time.Minute),
		Held:  map[common.Address]*big.Int{nativeCoin: ten, usdc: big.NewInt(10_000_000)},
		Spend: map[common.Address]*big.Int{nativeCoin: new(big.Int).Add(five, big.NewInt(1)), usdc: big.NewInt(5_000_000)}})
	var spent *ErrSpent
	if !errors.As(err, &spent) || spent.Token != nativeCoin {
		t.Fatalf("the second claim: %v, want it refused for the native coin", err)
	}
}

// TestArcSaleBehindABuyInFlight: on arc a sale's gas comes out of the
// balance a buy not yet mined spends: a wallet whose buy in flight leaves
// too little for the sale's gas has the sale refused before anything is
// signed, naming it, instead of a transaction the node drops after its
// nonce was taken.
func TestArcSaleBehindABuyInFlight(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	buy, sell := e.token(t, wire.ChainArc, "", 0, 0), e.token(t, wire.ChainArc, "", 0, 0)
	w := e.wallet(t, wire.ChainArc, "1", map[string]string{sell.Address.Hex(): "1000000000000000000000"})
	// A priority fee of 100 gwei makes each order's gas at most about 0.036
	// USDC, far above what the chain's own fees add: the buy of 0.95 fits
	// with its gas and leaves the sale less than its own.
	job := func(side wire.Side, tok common.Address, amount string) *wire.SwapJob {
		j := e.job(wire.ChainArc, side, tok, "", legOf(w, amount))
		j.PriorityFee = "100000000000"
		return j
	}
	if _, err := e.signer.Sign(ctx, job(wire.Buy, buy.Address, "0.95")); err != nil {
		t.Fatal(err)
	}
	_, err := e.signer.Sign(ctx, job(wire.Sell, sell.Address, "100"))
	wantCode(t, err, apierr.InsufficientBalance, w.Hex())
}

// TestChainlessRefusalNamesItsChain: an order that named no chain, refused
// after its pool was found (here a wallet short of USDC on arc), tells the
// worker which chain that was, for the failed order's record and event.
func TestChainlessRefusalNamesItsChain(t *testing.T) {
	e := newEnv(t)
	tok := e.token(t, wire.ChainArc, "", 0, 0)
	w := e.wallet(t, wire.ChainArc, "1", nil)
	_, err := e.signer.Sign(context.Background(), e.job("", wire.Buy, tok.Address, "", legOf(w, "1")))
	wantCode(t, err, apierr.InsufficientBalance, w.Hex())
	var r *wire.Refusal
	if !errors.As(err, &r) || r.Chain != wire.ChainArc || !strings.Contains(r.Route, "on arc") {
		t.Fatalf("refusal %+v, want it to name arc and the route there", r)
	}
}
