package solana

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// venueCoin is a coin of each venue a sale may go through.
type venueCoin struct {
	venue      string
	mint, pool sol.PublicKey
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
	return []venueCoin{{"pump_fun", curve.Mint, curve.BondingCurve}, {"pumpswap", pool.Mint, pool.Pool},
		{"launchlab", sc.bonk.Mint, sc.bonk.Pool}, {"dbc", sc.bags.Mint, sc.bags.Pool}}
}

// TestDustShareLeftOut: on every venue, a wallet whose share of its
// holding sells for nothing after fees, beside a wallet with something to
// sell, is left out of the sale, named with why, and the other wallet's
// sale lands, whether the dust wallet could pay a fee or not; alone, it is
// refused 400 naming the amount.
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
			// Left out, it pays nothing: one too poor for a fee is left
			// out the same, not refusing the sale for a fee it would not pay.
			drained := sc.holder(t, c, 1000, 2)
			poor := sc.job("eu-dust-poor-"+c.venue, mint, wire.Sell)
			poor.Legs = []wire.Leg{{Wallet: rich.String(), Amount: "50"}, {Wallet: drained.String(), Amount: "50"}}
			if b, err := sc.signer.Sign(ctx, poor); err != nil || len(b.SkippedWallets) != 1 || b.SkippedWallets[0].Wallet != drained.String() {
				t.Fatalf("beside a dust wallet without SOL for a fee: %v, want it left out", err)
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

// keyedWallet is a new wallet of sc's signer holding lamports.
func (sc *launchpadScene) keyedWallet(lamports uint64) sol.PublicKey {
	w := sol.NewWallet()
	keys := sc.signer.keys.(*fakeKeys)
	keys.mu.Lock()
	keys.keys[w.PublicKey().String()] = w.PrivateKey
	keys.mu.Unlock()
	sc.chain.Airdrop(w.PublicKey(), lamports)
	return w.PublicKey()
}

// stableCoins adds to sc's chain a coin on each venue that trades against a
// stable: a PumpSwap pool quoted in USDC, a LaunchLab curve in USD1 and a
// DBC curve in USDC.
func stableCoins(t *testing.T, sc *launchpadScene) []venueCoin {
	t.Helper()
	pool, err := sc.chain.CreatePumpSwapCoin(sc.creator.PublicKey(), "Dollar", "DOLL", devnet.USDCMint, 20_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	bonk, err := sc.chain.CreateLetsBonkCoinIn(sc.creator, sc.creator.PublicKey(), devnet.USD1Mint, "Bonk Dollar", "BONKD")
	if err != nil {
		t.Fatal(err)
	}
	bags, err := sc.chain.CreateDBCCoin(sc.creator, devnet.LocalUSDCDBCConfig, "Bags Dollar", "BAGSD")
	if err != nil {
		t.Fatal(err)
	}
	return []venueCoin{{"pumpswap USDC", pool.Mint, pool.Pool}, {"launchlab USD1", bonk.Mint, bonk.Pool}, {"dbc USDC", bags.Mint, bags.Pool}}
}

// quote is the asset c's coin trades against, and its mint (zero for SOL).
func (c venueCoin) quote() (string, sol.PublicKey) {
	switch {
	case strings.HasSuffix(c.venue, " USDC"):
		return "USDC", devnet.USDCMint
	case strings.HasSuffix(c.venue, " USD1"):
		return "USD1", devnet.USD1Mint
	}
	return "SOL", sol.PublicKey{}
}

// quoteSale is what a sale of amount base units of c's coin returns, in
// base units of its quote after fees, on the chain as it stands.
func quoteSale(t *testing.T, sc *launchpadScene, c venueCoin, amount uint64) uint64 {
	t.Helper()
	switch venue, _, _ := strings.Cut(c.venue, " "); venue {
	case "pump_fun":
		curve, rates := readCurve(t, sc.chain, devnet.PumpCoin{Mint: c.mint, BondingCurve: c.pool})
		q, err := curve.QuoteSell(rates(&curve), amount)
		if err != nil {
			t.Fatal(err)
		}
		return q.Net
	case "pumpswap":
		_, res, rates := poolNow(t, sc.chain, c.pool)
		q, err := pumpswap.QuoteSell(res, rates, amount)
		if err != nil {
			t.Fatal(err)
		}
		return q.Net
	default:
		return padQuotes(t, sc, devnet.LaunchCoin{Mint: c.mint, Pool: c.pool}, false, amount)[0]
	}
}

// bought has the scene's first wallet buy c's coin, so that its curve or
// pool holds the quote to buy tokens back and the fee accounts a trade
// makes exist, and returns what the wallet holds of it. On a PumpSwap
// pool, every protocol fee recipient is given its account of the quote: a
// sale picks one at random, and pays for its account if it has none.
func (sc *launchpadScene) bought(ctx context.Context, t *testing.T, c venueCoin) uint64 {
	t.Helper()
	quote, stable := c.quote()
	buy := sc.job("eu-buy-"+c.venue, c.mint.String(), wire.Buy, "0.5")
	if buy.QuoteAsset = quote; quote != "SOL" {
		buy.Legs[0].Amount = "50"
		if _, err := sc.chain.MintTo(stable, sc.wallets[0], 50_000_000); err != nil {
			t.Fatal(err)
		}
	}
	land(ctx, t, sc.client, sc.signer, buy)
	if strings.HasPrefix(c.venue, "pumpswap") {
		if stable.IsZero() {
			stable = sol.WrappedSol
		}
		quoteAccounts(t, sc, stable, feeRecipients(readGC(t, sc.chain), false))
	}
	held, err := sc.chain.TokenBalance(sc.wallets[0], c.mint)
	if err != nil {
		t.Fatal(err)
	}
	return held
}

// halfSale is a sale of half the holding of each of wallets of c's coin
// at slippage 0, with tip.
func (sc *launchpadScene) halfSale(id string, c venueCoin, tip uint64, wallets ...sol.PublicKey) *wire.SwapJob {
	j := sc.job(id, c.mint.String(), wire.Sell)
	j.SlippageBps, j.ProcessorTip = 0, strconv.FormatUint(tip, 10)
	j.QuoteAsset, _ = c.quote()
	for _, w := range wallets {
		j.Legs = append(j.Legs, wire.Leg{Wallet: w.String(), Amount: "50"})
	}
	return j
}

// holder is a new wallet of the scene's signer holding lamports and held
// base units of c's coin.
func (sc *launchpadScene) holder(t *testing.T, c venueCoin, lamports, held uint64) sol.PublicKey {
	t.Helper()
	w := sc.keyedWallet(lamports)
	if _, err := sc.chain.MintTo(c.mint, w, held); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSaleTheWalletCannotPay: on every venue, a sale whose wallet cannot
// pay its fees and its tip with what it holds and the least its sale
// returns in SOL, and keep its rent-exempt minimum, is refused 422 naming
// the wallet before anything is signed, also beside a wallet that can
// pay (as a buy's wallet refuses its order); a wallet with exactly enough is signed,
// and its sale lands leaving it its minimum. Proceeds in a stable pay no
// tip.
func TestSaleTheWalletCannotPay(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const (
		tip = 50_000_000 // 0.05 SOL
		fee = 5000 + 20000
	)
	rich := sc.wallets[0]
	keys := sc.signer.keys.(*fakeKeys)
	for _, c := range append(venueCoins(t, sc), stableCoins(t, sc)...) {
		t.Run(c.venue, func(t *testing.T) {
			held := sc.bought(ctx, t, c)
			quote, _ := c.quote()
			// A holding whose half sells for well under the tip: the
			// proceeds do not pay it.
			for quoteSale(t, sc, c, held/2) > tip/10 {
				held /= 10
			}
			sale := func(id string, wallets ...sol.PublicKey) *wire.SwapJob { return sc.halfSale(id, c, tip, wallets...) }
			holder := func(lamports uint64) sol.PublicKey { return sc.holder(t, c, lamports, held) }
			// What a wallet needs to sell half its holding, the tip paid,
			// at slippage 0: what the sale returns is then what was
			// quoted.
			exact := func() uint64 {
				out := quoteSale(t, sc, c, held/2)
				if out == 0 {
					t.Fatal("half the holding sells for nothing")
				}
				if quote != "SOL" {
					// The wallet's account of the stable is made for the
					// proceeds, and stays.
					return fee + tip + rentExempt(0) + rentExempt(splTokenAccountSize)
				}
				return fee + tip + rentExempt(0) - out
			}

			short := holder(exact() - 1)
			calls := keys.count()
			_, err := sc.signer.Sign(ctx, sale("eu-short-alone-"+c.venue, short))
			if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InsufficientBalance || e.Details != short.String() {
				t.Fatalf("a wallet a lamport short alone: %v, want 422 naming it", err)
			}
			if keys.count() != calls {
				t.Fatal("a key was read for a sale refused before signing")
			}

			// Beside a wallet that can, it refuses the whole sale, as a
			// wallet that cannot pay does a buy's: the bot names the
			// wallets that can, or funds it.
			_, err = sc.signer.Sign(ctx, sale("eu-short-both-"+c.venue, rich, short))
			if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InsufficientBalance || e.Details != short.String() {
				t.Fatalf("a wallet a lamport short beside one that can pay: %v, want 422 naming it", err)
			}
			if keys.count() != calls {
				t.Fatal("a key was read for a sale refused before signing")
			}

			enough := holder(exact())
			land(ctx, t, sc.client, sc.signer, sale("eu-short-enough-"+c.venue, enough))
			if got := sc.chain.Balance(enough); got != rentExempt(0) {
				t.Fatalf("the wallet with just enough holds %d lamports after its sale, want its rent-exempt minimum, %d", got, rentExempt(0))
			}
		})
	}
}

// quoteAccounts makes the accounts of quote mint of owners, the chain's
// faucet paying.
func quoteAccounts(t *testing.T, sc *launchpadScene, mint sol.PublicKey, owners []sol.PublicKey) {
	t.Helper()
	payer := sc.chain.Faucet()
	var ixs []sol.Instruction
	for _, o := range owners {
		ixs = append(ixs, createATAIdempotent(payer.PublicKey(), pumpfun.AssociatedTokenAddress(o, mint, pumpfun.TokenProgramID), o, mint, pumpfun.TokenProgramID))
	}
	bh, _ := sc.chain.LatestBlockhash()
	tx, err := sol.NewTransaction(ixs, bh, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &payer }); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.chain.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
}

// TestSaleLeftWithNoLamportsByItsFee: on every venue trading against SOL, a
// wallet holding its sale's fee and what its transaction pays ahead of the
// proceeds (the wrapped-SOL account it makes, but on the pump.fun curve,
// which pays the wallet itself), and not a lamport more, sells: the fee
// may leave it no lamports, and the proceeds pay the tip and its
// rent-exempt minimum, or, when it sells everything, the rent of the token
// account the sale closes does. A lamport less is refused 422 naming it,
// and so, on the curve, is a lamport more, which the fee would leave below
// its minimum.
func TestSaleLeftWithNoLamportsByItsFee(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const (
		tip = 10_000
		fee = 5000 + 20000
	)
	for _, c := range venueCoins(t, sc) {
		t.Run(c.venue, func(t *testing.T) {
			held := sc.bought(ctx, t, c)
			least, refused := uint64(fee+rentExempt(splTokenAccountSize)), []uint64{fee + rentExempt(splTokenAccountSize) - 1}
			if c.venue == "pump_fun" {
				least, refused = fee, []uint64{fee - 1, fee + 1}
			}
			for _, lamports := range refused {
				w := sc.holder(t, c, lamports, held)
				_, err := sc.signer.Sign(ctx, sc.halfSale("eu-least-refused-"+c.venue+strconv.FormatUint(lamports, 10), c, tip, w))
				if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InsufficientBalance || e.Details != w.String() {
					t.Fatalf("a wallet holding %d lamports: %v, want 422 naming it", lamports, err)
				}
			}
			w := sc.holder(t, c, least, held)
			out := quoteSale(t, sc, c, held/2)
			land(ctx, t, sc.client, sc.signer, sc.halfSale("eu-least-"+c.venue, c, tip, w))
			if got, want := sc.chain.Balance(w), least-fee+out-tip; got != want {
				t.Fatalf("the wallet holds %d lamports after its sale, want what it held and sold for less the fee and the tip, %d", got, want)
			}

			// A sale of all of a few base units, which sell for nothing:
			// the token account it closes pays the tip and the minimum.
			dust := sc.keyedWallet(least)
			ata, err := sc.chain.MintTo(c.mint, dust, 2)
			if err != nil {
				t.Fatal(err)
			}
			rent := sc.chain.Balance(ata)
			all := sc.halfSale("eu-least-all-"+c.venue, c, tip, dust)
			all.Legs[0].Amount = "100"
			land(ctx, t, sc.client, sc.signer, all)
			if got, want := sc.chain.Balance(dust), least-fee+rent-tip; got != want {
				t.Fatalf("the wallet holds %d lamports after selling everything, want what it held and its token account's rent less the fee and the tip, %d", got, want)
			}
		})
	}
}
