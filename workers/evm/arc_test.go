package evm

import (
	"context"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/apierr"
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
