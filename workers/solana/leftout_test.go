package solana

import (
	"context"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// venueCoin is a coin of each venue a sale may go through.
type venueCoin struct {
	venue string
	mint  sol.PublicKey
}

// venueCoins adds to sc's chain a pump.fun coin on its curve and a coin on
// its PumpSwap pool, beside the scene's LaunchLab and DBC coins.
func venueCoins(t *testing.T, sc *launchpadScene) []venueCoin {
	t.Helper()
	curve, err := sc.chain.CreatePumpCoin(sc.creator.PublicKey(), "Curve", "CRV")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := sc.chain.CreatePumpSwapCoin(sc.creator.PublicKey(), "Pool", "POOL", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return []venueCoin{{"pump_fun", curve.Mint}, {"pumpswap", pool.Mint}, {"launchlab", sc.bonk.Mint}, {"dbc", sc.bags.Mint}}
}

// TestDustShareLeftOut: on every venue, a wallet whose share of its
// holding sells for nothing after fees, beside a wallet with something to
// sell, is left out of the sale, named with why, and the other wallet's
// sale lands; alone, it is refused 400 naming the amount.
func TestDustShareLeftOut(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rich, dust := sc.wallets[0], sc.wallets[1]
	for _, c := range venueCoins(t, sc) {
		t.Run(c.venue, func(t *testing.T) {
			mint := c.mint.String()
			land(ctx, t, sc.client, sc.signer, sc.job("eu-dust-buy-"+c.venue, mint, wire.Buy, "0.5"))
			if _, err := sc.chain.MintTo(c.mint, dust, 2); err != nil {
				t.Fatal(err)
			}
			batch := land(ctx, t, sc.client, sc.signer, sc.job("eu-dust-both-"+c.venue, mint, wire.Sell, "50", "50"))
			if len(batch.Txs) != 1 || batch.Txs[0].Wallet != rich.String() {
				t.Fatalf("%d transactions (%+v), want the rich wallet's alone", len(batch.Txs), batch.Txs)
			}
			if len(batch.SkippedWallets) != 1 || batch.SkippedWallets[0].Wallet != dust.String() ||
				!strings.Contains(batch.SkippedWallets[0].Reason, "1 base units of "+mint+" sell for no SOL after fees") {
				t.Fatalf("skipped %+v, want the dust wallet, its share selling for nothing", batch.SkippedWallets)
			}
			if n, _ := sc.chain.TokenBalance(dust, c.mint); n != 2 {
				t.Fatalf("the dust wallet holds %d, want its 2 base units untouched", n)
			}
			alone := sc.job("eu-dust-alone-"+c.venue, mint, wire.Sell, "50")
			alone.Legs[0].Wallet = dust.String()
			_, err := sc.signer.Sign(ctx, alone)
			if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InvalidRequest || e.Details != "amount" || !strings.Contains(e.Message, "sell for no SOL") {
				t.Fatalf("the dust wallet's sale alone: %v, want 400 naming the amount", err)
			}
		})
	}
}
