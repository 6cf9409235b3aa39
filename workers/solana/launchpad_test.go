package solana

import (
	"context"
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/token2022"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// launchpadScene is a local chain with a letsbonk coin and a bags coin, two
// funded wallets and a signer that knows the local bags config.
type launchpadScene struct {
	chain   *devnet.Chain
	client  *rpc.Client
	signer  *Signer
	wallets []sol.PublicKey
	bonk    devnet.LaunchCoin
	bags    devnet.LaunchCoin
	creator sol.PrivateKey
}

func newLaunchpadScene(t *testing.T, walletLamports uint64) *launchpadScene {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	t.Cleanup(func() { _ = chain.Close() })
	url, err := chain.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sc := &launchpadScene{chain: chain, client: rpc.New(url), creator: sol.NewWallet().PrivateKey}
	chain.Airdrop(sc.creator.PublicKey(), 1_000_000_000)
	if sc.bonk, err = chain.CreateLetsBonkCoin(sc.creator, "Bonk Coin", "BONKC"); err != nil {
		t.Fatal(err)
	}
	if sc.bags, err = chain.CreateBagsCoin(sc.creator, "Bags Coin", "BAGSC"); err != nil {
		t.Fatal(err)
	}
	tips := JitoTipAccounts[:2]
	for _, k := range tips {
		chain.Airdrop(k, 1_000_000_000)
	}
	keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
	for range 2 {
		w := sol.NewWallet()
		keys.keys[w.PublicKey().String()] = w.PrivateKey
		sc.wallets = append(sc.wallets, w.PublicKey())
		chain.Airdrop(w.PublicKey(), walletLamports)
	}
	sc.signer = NewSigner(sc.client, keys, Config{TipAccounts: tips, BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil)
	return sc
}

// holding leaves wallet with lamports until the returned func puts back
// what it held.
func (sc *launchpadScene) holding(wallet sol.PublicKey, lamports uint64) (restore func()) {
	held, _ := sc.chain.GetAccount(wallet)
	less := held
	less.Lamports = lamports
	sc.chain.SetAccount(wallet, less)
	return func() { sc.chain.SetAccount(wallet, held) }
}

func (sc *launchpadScene) job(id, token string, side wire.Side, amounts ...string) *wire.SwapJob {
	j := &wire.SwapJob{
		OrderID: id, AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana,
		Token: token, Side: side, QuoteAsset: "SOL", SlippageBps: 300,
		PriorityFee: "20000", ProcessorTip: "10000",
	}
	if side == wire.Sell {
		j.SellMode = wire.SellPercent
	}
	for i, a := range amounts {
		j.Legs = append(j.Legs, wire.Leg{Wallet: sc.wallets[i].String(), Amount: a})
	}
	return j
}

// llState reads a LaunchLab pool and its rates as the chain holds them.
func llState(t *testing.T, chain *devnet.Chain, addr sol.PublicKey) (launchlab.PoolState, launchlab.Rates) {
	t.Helper()
	p, r, err := chain.LaunchLabState(addr)
	if err != nil {
		t.Fatal(err)
	}
	return p, r
}

// padQuotes quotes buys (or sales) of amounts in turn on the coin's curve as
// the chain holds it, as the program will execute them landing in order.
func padQuotes(t *testing.T, sc *launchpadScene, coin devnet.LaunchCoin, buy bool, amounts ...uint64) []uint64 {
	t.Helper()
	a, ok := sc.chain.GetAccount(coin.Pool)
	if !ok {
		t.Fatal("no pool")
	}
	var out []uint64
	if a.Owner == launchlab.ProgramID {
		pool, rates := llState(t, sc.chain, coin.Pool)
		for _, v := range amounts {
			if buy {
				q, err := launchlab.QuoteBuyExactIn(&pool, rates, v)
				if err != nil {
					t.Fatal(err)
				}
				pool.ApplyBuy(q)
				out = append(out, q.AmountOut)
			} else {
				q, err := launchlab.QuoteSellExactIn(&pool, rates, v)
				if err != nil {
					t.Fatal(err)
				}
				pool.ApplySell(q)
				out = append(out, q.NetOut)
			}
		}
		return out
	}
	pool, err := dbc.DecodeVirtualPool(a.Data)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := sc.chain.GetAccount(pool.Config)
	cfg, err := dbc.DecodePoolConfig(c.Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range amounts {
		q, err := dbc.QuoteSwapExactIn(&pool, &cfg, v, buy, false, pool.ActivationPoint)
		if err != nil {
			t.Fatal(err)
		}
		pool.ApplySwap(&cfg, q, pool.ActivationPoint)
		out = append(out, q.AmountOut)
	}
	return out
}

// TestLaunchpadSwapsOnDevnet buys a letsbonk coin and a bags coin with two
// wallets, by the coin's mint and by its pool's id, and sells them back,
// each landing on the local chain, which runs LaunchLab and DBC as
// published: every wallet receives exactly what the curve quoted, a sale
// of the whole holding closes the coin account, and no wrapped SOL is left.
func TestLaunchpadSwapsOnDevnet(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name    string
		coin    devnet.LaunchCoin
		address string
		route   string
		venue   string
	}{
		{"letsbonk by mint", sc.bonk, sc.bonk.Mint.String(), "LaunchLab pool " + sc.bonk.Pool.String(), venues.LaunchLab},
		{"bags by pool id", sc.bags, sc.bags.Pool.String(), "Meteora DBC pool " + sc.bags.Pool.String(), venues.DBC},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mint := tc.coin.Mint
			spend := []uint64{1_000_000_000, 250_000_000}
			quoted := padQuotes(t, sc, tc.coin, true, spend...)
			// A LaunchLab trade creates the pool's two fee vaults when they
			// are missing, at the trader's cost: the first wallet's here.
			var vaults uint64
			if a, _ := sc.chain.GetAccount(tc.coin.Pool); a.Owner == launchlab.ProgramID {
				pool, _ := launchlab.DecodePool(a.Data)
				for _, v := range []sol.PublicKey{launchlab.PlatformFeeVaultPDA(pool.PlatformConfig, sol.SolMint), launchlab.CreatorFeeVaultPDA(pool.Creator, sol.SolMint)} {
					if _, ok := sc.chain.GetAccount(v); !ok {
						vaults += rentExempt(splTokenAccountSize)
					}
				}
			}
			before := []uint64{sc.chain.Balance(sc.wallets[0]), sc.chain.Balance(sc.wallets[1])}
			batch := land(ctx, t, sc.client, sc.signer, sc.job("eu-pad-buy-"+tc.name, tc.address, wire.Buy, "1", "0.25"))
			if !strings.HasPrefix(batch.Route, tc.route) || batch.Venue != tc.venue {
				t.Fatalf("route %q, venue %q, want a route starting with %q on %s", batch.Route, batch.Venue, tc.route, tc.venue)
			}
			tokens := make([]uint64, 2)
			for i, w := range sc.wallets {
				var err error
				if tokens[i], err = sc.chain.TokenBalance(w, mint); err != nil {
					t.Fatal(err)
				}
				if tokens[i] != quoted[i] {
					t.Fatalf("wallet %d received %d tokens, quoted %d", i, tokens[i], quoted[i])
				}
				// The amount, the fees and the tip, and the coin account's
				// rent; the wrapped-SOL account is closed again.
				spent := before[i] - sc.chain.Balance(w)
				if want := spend[i] + 5000 + 20000 + 10000 + rentExempt(splTokenAccountSize) + []uint64{vaults, 0}[i]; spent != want {
					t.Fatalf("wallet %d spent %d lamports, want %d", i, spent, want)
				}
				if _, ok := sc.chain.GetAccount(launchlab.AssociatedTokenAddress(w, sol.SolMint, launchlab.TokenProgramID)); ok {
					t.Fatalf("wallet %d kept its wrapped-SOL account", i)
				}
			}

			proceeds := padQuotes(t, sc, tc.coin, false, tokens[0], tokens[1]/2)
			before = []uint64{sc.chain.Balance(sc.wallets[0]), sc.chain.Balance(sc.wallets[1])}
			land(ctx, t, sc.client, sc.signer, sc.job("eu-pad-sell-"+tc.name, tc.address, wire.Sell, "100", "50"))
			for i, w := range sc.wallets {
				left, err := sc.chain.TokenBalance(w, mint)
				if err != nil {
					t.Fatal(err)
				}
				if want := []uint64{0, tokens[1] - tokens[1]/2}[i]; left != want {
					t.Fatalf("wallet %d holds %d tokens after the sale, want %d", i, left, want)
				}
				// The first wallet sold everything, which closed its coin
				// account and returned its rent.
				got := sc.chain.Balance(w) - before[i]
				if want := proceeds[i] - 5000 - 20000 - 10000 + []uint64{rentExempt(splTokenAccountSize), 0}[i]; got != want {
					t.Fatalf("wallet %d gained %d lamports selling, want %d", i, got, want)
				}
			}
		})
	}
}

// TestLaunchpadRefusals: what a launchpad coin's orders are refused with
// before anything is signed.
func TestLaunchpadRefusals(t *testing.T) {
	sc := newLaunchpadScene(t, 200_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code := func(t *testing.T, err error, want apierr.Code, field string) *apierr.Error {
		t.Helper()
		e, ok := err.(*apierr.Error)
		if !ok || e.Code != want || (field != "" && e.Details != field) {
			t.Fatalf("got %v, want %s naming %q", err, want, field)
		}
		return e
	}
	t.Run("a paused venue", func(t *testing.T) {
		// Each coin's own venue is asked, before anything is read of it.
		for _, c := range []struct {
			coin  devnet.LaunchCoin
			venue string
		}{{sc.bonk, "launchlab"}, {sc.bags, "dbc"}} {
			gate := pausedGate{venue: c.venue}
			signer := NewSigner(sc.client, sc.signer.keys, sc.signer.cfg, nil).WithVenueGate(gate)
			_, err := signer.Sign(ctx, sc.job("eu-pad-paused", c.coin.Mint.String(), wire.Buy, "1"))
			code(t, err, apierr.VenuePaused, c.venue)
			other := NewSigner(sc.client, sc.signer.keys, sc.signer.cfg, nil).WithVenueGate(pausedGate{venue: "pump_fun"})
			if _, err := other.Sign(ctx, sc.job("eu-pad-open", c.coin.Mint.String(), wire.Buy, "1")); err != nil {
				t.Fatalf("%s coin refused while only pump_fun is paused: %v", c.venue, err)
			}
		}
	})
	t.Run("pump.fun's global account missing", func(t *testing.T) {
		// A cluster without pump.fun's program: its venue is paused, a
		// pump.fun coin's order says so (not an internal error retried
		// into a charged timeout), and a launchpad's coin, which needs no
		// pump.fun account, still trades.
		coin, err := sc.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Gone", "GONE")
		if err != nil {
			t.Fatal(err)
		}
		hidden := hideAccount{RPC: sc.client, hide: pumpfun.GlobalPDA}
		signer := NewSigner(hidden, sc.signer.keys, sc.signer.cfg, nil).WithVenueGate(pausedGate{venue: "pump_fun"})
		_, err = signer.Sign(ctx, sc.job("eu-pump-gone", coin.Mint.String(), wire.Buy, "1"))
		code(t, err, apierr.VenuePaused, "pump_fun")
		if _, err := signer.Sign(ctx, sc.job("eu-pad-without-pump", sc.bonk.Mint.String(), wire.Buy, "1")); err != nil {
			t.Fatalf("a LaunchLab coin refused for pump.fun's missing account: %v", err)
		}
		open := NewSigner(hidden, sc.signer.keys, sc.signer.cfg, nil)
		if _, err := open.Sign(ctx, sc.job("eu-pump-missing", coin.Mint.String(), wire.Buy, "1")); err == nil || !strings.Contains(err.Error(), "global account") {
			t.Fatalf("a pump.fun coin without its global account, the venue not paused: %v", err)
		}
	})
	t.Run("a stable quote asset", func(t *testing.T) {
		j := sc.job("eu-pad-usdc", sc.bonk.Mint.String(), wire.Buy, "1")
		j.QuoteAsset = "USDC"
		_, err := sc.signer.Sign(ctx, j)
		code(t, err, apierr.TokenNotFound, sc.bonk.Mint.String())
	})
	t.Run("more SOL than the wallet holds", func(t *testing.T) {
		// 50 SOL, less than the rest of the curve costs, from a wallet
		// that holds 10.
		defer sc.holding(sc.wallets[0], 10_000_000_000)()
		_, err := sc.signer.Sign(ctx, sc.job("eu-pad-poor", sc.bonk.Mint.String(), wire.Buy, "50"))
		code(t, err, apierr.InsufficientBalance, sc.wallets[0].String())
	})
	t.Run("more SOL than the wallet holds, the curve's rest less than both", func(t *testing.T) {
		// 100 SOL from a wallet that holds 90, where the rest of the
		// curve costs about 85: the wallet cannot pay the amount asked,
		// and is refused as on every other venue, not sent to buy the
		// rest.
		defer sc.holding(sc.wallets[0], 90_000_000_000)()
		pool, rates := llState(t, sc.chain, sc.bonk.Pool)
		if rest, err := launchlab.QuoteBuyExactIn(&pool, rates, 100_000_000_000); err != nil || !rest.Completes || rest.AmountIn >= 90_000_000_000 {
			t.Fatalf("the rest of the curve: %+v %v, want it completed for less than 90 SOL", rest, err)
		}
		_, err := sc.signer.Sign(ctx, sc.job("eu-pad-poorer", sc.bonk.Mint.String(), wire.Buy, "100"))
		e := code(t, err, apierr.InsufficientBalance, sc.wallets[0].String())
		if !strings.Contains(e.Message, "100 SOL") {
			t.Fatalf("message %q does not name the 100 SOL asked", e.Message)
		}
	})
	t.Run("a lamport that buys nothing", func(t *testing.T) {
		for _, coin := range []devnet.LaunchCoin{sc.bonk, sc.bags} {
			_, err := sc.signer.Sign(ctx, sc.job("eu-pad-dust", coin.Mint.String(), wire.Buy, "0.000000001"))
			code(t, err, apierr.InvalidRequest, "amount")
		}
	})
	t.Run("a sale by a wallet that holds none", func(t *testing.T) {
		_, err := sc.signer.Sign(ctx, sc.job("eu-pad-none", sc.bags.Mint.String(), wire.Sell, "100"))
		code(t, err, apierr.InsufficientBalance, sc.wallets[0].String())
	})
	t.Run("market bounds without a price source", func(t *testing.T) {
		j := sc.job("eu-pad-bounds", sc.bonk.Mint.String(), wire.Buy, "1")
		lo := 1.0
		j.MinMarketCapUSD = &lo
		if _, err := sc.signer.Sign(ctx, j); err == nil || !strings.Contains(err.Error(), "SOL/USD") {
			t.Fatalf("bounds with no SOL/USD source: %v", err)
		}
	})
	t.Run("a sold-out curve", func(t *testing.T) {
		// 100 SOL buys the rest of letsbonk's 85 SOL curve and sends only
		// what the rest costs, as Raydium's SDK builds it; the second
		// wallet's buy in the same order finds nothing left and is
		// skipped.
		pool, rates := llState(t, sc.chain, sc.bonk.Pool)
		rest, err := launchlab.QuoteBuyExactIn(&pool, rates, 100_000_000_000)
		if err != nil || !rest.Completes {
			t.Fatalf("100 SOL does not complete the curve: %+v %v", rest, err)
		}
		before := sc.chain.Balance(sc.wallets[0])
		batch := land2(ctx, t, sc, sc.job("eu-pad-fill", sc.bonk.Mint.String(), wire.Buy, "100", "1"))
		if len(batch.Txs) != 1 {
			t.Fatalf("%d transactions, want the second wallet's skipped", len(batch.Txs))
		}
		tx, err := sol.TransactionFromBytes(batch.Txs[0].Raw)
		if err != nil {
			t.Fatal(err)
		}
		var args launchlab.BuyExactInArgs
		for _, ix := range tx.Message.Instructions {
			if tx.Message.AccountKeys[ix.ProgramIDIndex] == launchlab.ProgramID && args.Decode(ix.Data) != nil {
				t.Fatal("a LaunchLab instruction that is no buy_exact_in")
			}
		}
		spent := before - sc.chain.Balance(sc.wallets[0])
		if args.AmountIn != rest.AmountIn || spent < args.AmountIn || spent > args.AmountIn+10_000_000 {
			t.Fatalf("buy_exact_in sends %d lamports, the wallet spent %d: want the rest of the curve's cost, not 100 SOL", args.AmountIn, spent)
		}
		_, err = sc.signer.Sign(ctx, sc.job("eu-pad-after", sc.bonk.Mint.String(), wire.Buy, "1"))
		e := code(t, err, apierr.TokenNotFound, sc.bonk.Mint.String())
		if !strings.Contains(e.Message, "Raydium") {
			t.Fatalf("message %q does not say where the coin went", e.Message)
		}
		// So is a buy in another quote asset: told the curve sold out,
		// not to send the curve's quote, which would be refused as well.
		other := sc.job("eu-pad-after-usdc", sc.bonk.Mint.String(), wire.Buy, "1")
		other.QuoteAsset = "USDC"
		_, err = sc.signer.Sign(ctx, other)
		if e := code(t, err, apierr.TokenNotFound, sc.bonk.Mint.String()); !strings.Contains(e.Message, "Raydium") {
			t.Fatalf("another quote on a sold-out curve: %q, want it to say the curve sold out", e.Message)
		}
	})
	// Last: it completes the bags curve.
	t.Run("more than a DBC curve has left", func(t *testing.T) {
		// Two wallets each spend 60 % of what the curve has still to
		// raise: each alone fits, together they pass the end. Every leg
		// goes as swap2's partial fill, since the legs may land in any
		// order: the first to land buys in full, the second takes what
		// completes the curve and pays for that alone.
		a, _ := sc.chain.GetAccount(sc.bags.Pool)
		pool, err := dbc.DecodeVirtualPool(a.Data)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := sc.chain.GetAccount(pool.Config)
		cfg, _ := dbc.DecodePoolConfig(c.Data)
		each := (cfg.MigrationQuoteThreshold - pool.QuoteReserve) * 6 / 10
		var quoted [2]dbc.SwapQuote
		for i := range quoted {
			if quoted[i], err = dbc.QuoteSwapPartialFill(&pool, &cfg, each, true, false, pool.ActivationPoint, false); err != nil {
				t.Fatal(err)
			}
			pool.ApplySwap(&cfg, quoted[i], pool.ActivationPoint)
		}
		if quoted[0].Partial || !quoted[1].Partial {
			t.Fatalf("quotes %+v: want the second alone partial", quoted)
		}
		amount := money.Format(new(big.Int).SetUint64(each), 9)
		before := []uint64{sc.chain.Balance(sc.wallets[0]), sc.chain.Balance(sc.wallets[1])}
		batch := land2(ctx, t, sc, sc.job("eu-pad-much", sc.bags.Mint.String(), wire.Buy, amount, amount))
		if len(batch.Txs) != 2 {
			t.Fatalf("%d transactions, want both wallets'", len(batch.Txs))
		}
		for _, st := range batch.Txs {
			var swap *decodedIx
			for _, ix := range decodeTx(t, st) {
				if ix.program == dbc.ProgramID {
					swap = &ix
				}
			}
			var args dbc.Swap2Parameters
			if swap == nil || args.Decode(swap.data) != nil || args.SwapMode != dbc.SwapModePartialFill || args.Amount0 != each {
				t.Fatalf("wallet %s's trade is no swap2 partial fill of %d: %+v", st.Wallet, each, args)
			}
		}
		for i, w := range sc.wallets {
			got, err := sc.chain.TokenBalance(w, sc.bags.Mint)
			if err != nil {
				t.Fatal(err)
			}
			if got != quoted[i].AmountOut {
				t.Fatalf("wallet %d received %d tokens, quoted %d", i, got, quoted[i].AmountOut)
			}
			// What the curve took, the fees and the tip, and the coin
			// account's rent: the partial fill's rest came back.
			if spent, want := before[i]-sc.chain.Balance(w), quoted[i].AmountIn+5000+20000+10000+rentExempt(splTokenAccountSize); spent != want {
				t.Fatalf("wallet %d spent %d lamports, want %d", i, spent, want)
			}
		}
		// The curve is complete: nothing more is sold.
		_, err = sc.signer.Sign(ctx, sc.job("eu-pad-after-rest", sc.bags.Mint.String(), wire.Buy, "0.001"))
		code(t, err, apierr.TokenNotFound, sc.bags.Mint.String())
	})
}

// land2 signs and lands a job whose batch may hold fewer transactions than
// it has wallets.
func land2(ctx context.Context, t *testing.T, sc *launchpadScene, job *wire.SwapJob) *wire.TxBatch {
	t.Helper()
	batch, err := sc.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range batch.Txs {
		sig, err := sc.client.SendRawTransactionWithOpts(ctx, st.Raw, rpc.TransactionOpts{})
		if err != nil {
			t.Fatal(err)
		}
		for {
			res, err := sc.client.GetSignatureStatuses(ctx, false, sig)
			if err != nil {
				t.Fatal(err)
			}
			if s := res.Value[0]; s != nil {
				if s.Err != nil {
					t.Fatalf("transaction failed: %v", s.Err)
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return batch
}

// TestLaunchpadFoundBySearch: a bags coin under a DBC config the signer was
// not given is found from its mint by a search of the DBC program's pools,
// and a mint no venue trades is TOKEN_NOT_FOUND naming every venue.
func TestLaunchpadFoundBySearch(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	unconfigured := NewSigner(sc.client, sc.signer.keys, Config{TipAccounts: sc.signer.cfg.TipAccounts}, nil)
	batch, err := unconfigured.Sign(ctx, sc.job("eu-pad-search", sc.bags.Mint.String(), wire.Buy, "0.5"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(batch.Route, "Meteora DBC pool "+sc.bags.Pool.String()) {
		t.Fatalf("route %q", batch.Route)
	}
	mint, err := sc.chain.CreateMint(6, launchlab.TokenProgramID, sc.creator.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	_, err = unconfigured.Sign(ctx, sc.job("eu-pad-nothing", mint.String(), wire.Buy, "0.5"))
	if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.TokenNotFound || !strings.Contains(e.Message, "Meteora DBC") {
		t.Fatalf("a mint no venue trades: %v", err)
	}
}

// hideAccount is an RPC that answers one account as missing.
type hideAccount struct {
	RPC
	hide sol.PublicKey
}

func (h hideAccount) GetMultipleAccountsWithOpts(ctx context.Context, keys []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error) {
	res, err := h.RPC.GetMultipleAccountsWithOpts(ctx, keys, opts)
	if err == nil {
		for i, k := range keys {
			if k == h.hide && i < len(res.Value) {
				res.Value[i] = nil
			}
		}
	}
	return res, err
}

// pausedGate pauses one venue.
type pausedGate struct{ venue string }

func (g pausedGate) Open(_, venue string) error {
	if venue == g.venue {
		return apierr.Newf(apierr.VenuePaused, venue, "%s is paused", venue)
	}
	return nil
}

// TestLaunchpadDustSales: a sale that returns no SOL is refused, unless it
// sells the whole holding, which closes the token account and returns its
// rent.
func TestLaunchpadDustSales(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mint := sc.bonk.Mint.String()
	land(ctx, t, sc.client, sc.signer, sc.job("eu-dust-buy", mint, wire.Buy, "0.01"))
	dust := sc.job("eu-dust-one", mint, wire.Sell, "0.000001")
	dust.SellMode = wire.SellTokens
	_, err := sc.signer.Sign(ctx, dust)
	if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InvalidRequest || e.Details != "amount" {
		t.Fatalf("a sale of one base unit for nothing: %v, want 400 naming the amount", err)
	}
	held, err := sc.chain.TokenBalance(sc.wallets[0], sc.bonk.Mint)
	if err != nil {
		t.Fatal(err)
	}
	most := sc.job("eu-dust-most", mint, wire.Sell, money.Format(new(big.Int).SetUint64(held-1), int(launchlab.LetsBonkDecimals)))
	most.SellMode = wire.SellTokens
	land(ctx, t, sc.client, sc.signer, most)
	before := sc.chain.Balance(sc.wallets[0])
	land(ctx, t, sc.client, sc.signer, sc.job("eu-dust-all", mint, wire.Sell, "100"))
	if n, _ := sc.chain.TokenBalance(sc.wallets[0], sc.bonk.Mint); n != 0 {
		t.Fatalf("the wallet holds %d after selling everything", n)
	}
	if got, want := sc.chain.Balance(sc.wallets[0])-before, rentExempt(splTokenAccountSize)-5000-20000-10000; got != want {
		t.Fatalf("selling the last base unit returned %d lamports, want the account's rent less fees, %d", got, want)
	}
}

// noSearchRPC is a node that does not serve getProgramAccounts.
type noSearchRPC struct {
	*rpc.Client
	asked int
}

func (c *noSearchRPC) GetProgramAccountsWithOpts(context.Context, sol.PublicKey, *rpc.GetProgramAccountsOpts) (rpc.GetProgramAccountsResult, error) {
	c.asked++
	return nil, &jsonrpc.RPCError{Code: -32601, Message: "Method not found"}
}

// TestLaunchpadSearchNotServed: a node that does not serve the DBC pool
// search leaves such a coin TOKEN_NOT_FOUND (its pool id still trades it)
// and is asked once.
func TestLaunchpadSearchNotServed(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	node := &noSearchRPC{Client: sc.client}
	s := NewSigner(node, sc.signer.keys, Config{TipAccounts: sc.signer.cfg.TipAccounts}, nil)
	for i := range 2 {
		_, err := s.Sign(ctx, sc.job("eu-pad-nosearch", sc.bags.Mint.String(), wire.Buy, "0.1"))
		if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.TokenNotFound {
			t.Fatalf("order %d: %v, want TOKEN_NOT_FOUND", i, err)
		}
	}
	if node.asked != 1 {
		t.Fatalf("the search was asked %d times, want once", node.asked)
	}
	if _, err := s.Sign(ctx, sc.job("eu-pad-bypool", sc.bags.Pool.String(), wire.Buy, "0.1")); err != nil {
		t.Fatalf("by its pool id: %v", err)
	}
}

// TestStableLaunchpadSwapsOnDevnet buys and sells coins whose curves are
// quoted in a stable (a letsbonk USD1 launch, a DBC config quoted in USDC),
// found by their mints: a buy spends the wallet's stable (no wrapped SOL),
// exactly what the curve quoted goes each way, SOL pays only fees, tip and
// rent, and an order in another quote asset is refused naming the curve's.
func TestStableLaunchpadSwapsOnDevnet(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bonk, err := sc.chain.CreateLetsBonkCoinIn(sc.creator, sc.creator.PublicKey(), devnet.USD1Mint, "Bonk Dollar", "BONKD")
	if err != nil {
		t.Fatal(err)
	}
	bags, err := sc.chain.CreateDBCCoin(sc.creator, devnet.LocalUSDCDBCConfig, "Bags Dollar", "BAGSD")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		coin   devnet.LaunchCoin
		quote  string
		stable sol.PublicKey
		route  string
	}{
		{"letsbonk USD1", bonk, "USD1", devnet.USD1Mint, "LaunchLab pool " + bonk.Pool.String() + " quoted in USD1"},
		{"DBC USDC", bags, "USDC", devnet.USDCMint, "Meteora DBC pool " + bags.Pool.String() + " quoted in USDC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mint := tc.coin.Mint.String()
			for _, w := range sc.wallets {
				if _, err := sc.chain.MintTo(tc.stable, w, 100_000_000); err != nil {
					t.Fatal(err)
				}
			}
			stable := func(w sol.PublicKey) uint64 {
				v, err := sc.chain.TokenBalance(w, tc.stable)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			inSOL := sc.job("eu-spad-sol-"+tc.name, mint, wire.Buy, "1")
			_, err := sc.signer.Sign(ctx, inSOL)
			if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.TokenNotFound || !strings.Contains(e.Message, "send quote_asset "+tc.quote) {
				t.Fatalf("a buy in SOL: %v, want TOKEN_NOT_FOUND naming %s", err, tc.quote)
			}
			poor := sc.job("eu-spad-poor-"+tc.name, mint, wire.Buy, "100.000001")
			poor.QuoteAsset = tc.quote
			if _, err := sc.signer.Sign(ctx, poor); err == nil || err.(*apierr.Error).Code != apierr.InsufficientBalance {
				t.Fatalf("a buy above the wallet's %s: %v", tc.quote, err)
			}

			spend := []uint64{25_000_000, 7_500_000}
			quoted := padQuotes(t, sc, tc.coin, true, spend...)
			var vaults uint64
			if a, _ := sc.chain.GetAccount(tc.coin.Pool); a.Owner == launchlab.ProgramID {
				pool, _ := launchlab.DecodePool(a.Data)
				for _, v := range []sol.PublicKey{launchlab.PlatformFeeVaultPDA(pool.PlatformConfig, tc.stable), launchlab.CreatorFeeVaultPDA(pool.Creator, tc.stable)} {
					if _, ok := sc.chain.GetAccount(v); !ok {
						vaults += rentExempt(splTokenAccountSize)
					}
				}
			}
			before := []uint64{sc.chain.Balance(sc.wallets[0]), sc.chain.Balance(sc.wallets[1])}
			buy := sc.job("eu-spad-buy-"+tc.name, mint, wire.Buy, "25", "7.5")
			buy.QuoteAsset = tc.quote
			batch := land(ctx, t, sc.client, sc.signer, buy)
			if !strings.HasPrefix(batch.Route, tc.route) {
				t.Fatalf("route %q, want it to start with %q", batch.Route, tc.route)
			}
			tokens := make([]uint64, 2)
			for i, w := range sc.wallets {
				if tokens[i], err = sc.chain.TokenBalance(w, tc.coin.Mint); err != nil {
					t.Fatal(err)
				}
				if tokens[i] != quoted[i] {
					t.Fatalf("wallet %d received %d tokens, quoted %d", i, tokens[i], quoted[i])
				}
				if left := stable(w); left != 100_000_000-spend[i] {
					t.Fatalf("wallet %d holds %d %s base units after the buy, want %d", i, left, tc.quote, 100_000_000-spend[i])
				}
				spent := before[i] - sc.chain.Balance(w)
				if want := 5000 + 20000 + 10000 + rentExempt(splTokenAccountSize) + []uint64{vaults, 0}[i]; spent != want {
					t.Fatalf("wallet %d spent %d lamports, want %d", i, spent, want)
				}
			}

			// A sale in the default quote asset receives the curve's.
			proceeds := padQuotes(t, sc, tc.coin, false, tokens[0], tokens[1]/2)
			held := []uint64{stable(sc.wallets[0]), stable(sc.wallets[1])}
			before = []uint64{sc.chain.Balance(sc.wallets[0]), sc.chain.Balance(sc.wallets[1])}
			land(ctx, t, sc.client, sc.signer, sc.job("eu-spad-sell-"+tc.name, mint, wire.Sell, "100", "50"))
			for i, w := range sc.wallets {
				if got := stable(w) - held[i]; got != proceeds[i] {
					t.Fatalf("wallet %d received %d %s base units, quoted %d", i, got, tc.quote, proceeds[i])
				}
				got := int64(sc.chain.Balance(w)) - int64(before[i])
				if want := -int64(5000+20000+10000) + []int64{int64(rentExempt(splTokenAccountSize)), 0}[i]; got != want {
					t.Fatalf("wallet %d's SOL moved by %d lamports selling, want %d", i, got, want)
				}
			}
		})
	}
}

// TestSameLegsTwoOrders: two orders with the same leg (wallet, amount) on
// one blockhash would sign the same bytes, which the chain takes once, so
// that both claim one trade: the second is signed a compute unit lower,
// and both land. The same order signed again signs the same bytes.
func TestSameLegsTwoOrders(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	mint := sc.bonk.Mint.String()
	// Without a tip, whose account is picked at random.
	job := func(id string) *wire.SwapJob {
		j := sc.job(id, mint, wire.Buy, "0.5")
		// Each order is quoted on the curve as it stands, and the second
		// lands after the first: room for the first's price impact.
		j.ProcessorTip, j.SlippageBps = "", 5000
		return j
	}
	first, err := sc.signer.Sign(ctx, job("eu-same-1"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := sc.signer.Sign(ctx, job("eu-same-1"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := sc.signer.Sign(ctx, job("eu-same-2"))
	if err != nil {
		t.Fatal(err)
	}
	if again.Txs[0].Signature != first.Txs[0].Signature {
		t.Fatal("the same order signed again signed other bytes")
	}
	if second.Txs[0].Signature == first.Txs[0].Signature {
		t.Fatal("two orders signed one transaction")
	}
	quoted := padQuotes(t, sc, sc.bonk, true, 500_000_000, 500_000_000)
	for _, b := range []*wire.TxBatch{first, second} {
		sig, err := sc.client.SendRawTransactionWithOpts(ctx, b.Txs[0].Raw, rpc.TransactionOpts{})
		if err != nil {
			t.Fatal(err)
		}
		poll.Until(t, 10*time.Second, "the buy landed", func() bool {
			res, err := sc.client.GetSignatureStatuses(ctx, false, sig)
			return err == nil && res.Value[0] != nil && res.Value[0].Err == nil
		})
	}
	if got, _ := sc.chain.TokenBalance(sc.wallets[0], sc.bonk.Mint); got < quoted[0]+quoted[1]*99/100 {
		t.Fatalf("the wallet holds %d tokens after two buys, want about %d", got, quoted[0]+quoted[1])
	}
}

// landedSwap reads the landed transaction sig and returns its DBC swap's
// arguments and accounts.
func landedSwap(ctx context.Context, t *testing.T, client *rpc.Client, sig string) (dbc.SwapParameters, []sol.PublicKey) {
	t.Helper()
	out, err := client.GetTransaction(ctx, sol.MustSignatureFromBase58(sig), &rpc.GetTransactionOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := out.Transaction.GetTransaction()
	if err != nil {
		t.Fatal(err)
	}
	keys := tx.Message.AccountKeys
	for _, ix := range tx.Message.Instructions {
		var args dbc.SwapParameters
		if keys[ix.ProgramIDIndex] != dbc.ProgramID || args.Decode(ix.Data) != nil {
			continue
		}
		accts := make([]sol.PublicKey, len(ix.Accounts))
		for i, a := range ix.Accounts {
			accts[i] = keys[a]
		}
		return args, accts
	}
	t.Fatalf("transaction %s has no DBC swap", sig)
	return dbc.SwapParameters{}, nil
}

// TestRateLimitedDBCSwapsOnDevnet trades a coin on a DBC pool whose base
// fee is a rate limiter (1 % up to 1 SOL, 100 bps more per further SOL,
// for an hour after activation): buys inside the window pay the limiter's
// fee and pass the instructions sysvar, a sale pays the 1 % cliff without
// it, and a buy after the window pays the cliff without it, as the
// program and Meteora's SDK have it.
func TestRateLimitedDBCSwapsOnDevnet(t *testing.T) {
	sc := newLaunchpadScene(t, 10_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := dbc.LocalBagsConfig(sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey())
	cfg.BaseFee = dbc.BaseFeeConfig{CliffFeeNumerator: 10_000_000, FirstFactor: 100, SecondFactor: 3600, ThirdFactor: 1_000_000_000,
		BaseFeeMode: dbc.BaseFeeRateLimiter}
	key := sol.NewWallet().PublicKey()
	sc.chain.SetAccount(key, devnet.Account{Lamports: devnet.MinimumBalanceForRentExemption(dbc.PoolConfigSize), Owner: dbc.ProgramID, Data: cfg.Encode()})
	coin, err := sc.chain.CreateDBCCoin(sc.creator, key, "Limited Coin", "LIMC")
	if err != nil {
		t.Fatal(err)
	}
	pool := func() dbc.VirtualPool {
		a, _ := sc.chain.GetAccount(coin.Pool)
		p, err := dbc.DecodeVirtualPool(a.Data)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sysvarAt := func(accts []sol.PublicKey) bool {
		return len(accts) == dbc.SwapAccountsCount+1 && accts[dbc.SwapAccountsCount] == dbc.InstructionsSysvarID
	}
	address := coin.Pool.String()

	// Inside the window: 2 SOL pays 1e9·(1e7+1e7+1e7)/1e9 = 3e7 lamports
	// (1.5 %), 0.5 SOL the cliff's 5e6; 20 % of each is the protocol's.
	quoted := padQuotes(t, sc, coin, true, 2_000_000_000, 500_000_000)
	// Each buy's least out is what it gets landing after the other.
	last := []uint64{padQuotes(t, sc, coin, true, 500_000_000, 2_000_000_000)[1], quoted[1]}
	batch := land(ctx, t, sc.client, sc.signer, sc.job("eu-rl-buy", address, wire.Buy, "2", "0.5"))
	if p := pool(); p.QuoteReserve != 2_465_000_000 || p.ProtocolQuoteFee != 7_000_000 {
		t.Fatalf("pool after the buys %+v", p)
	}
	tokens := make([]uint64, 2)
	for i, w := range sc.wallets {
		if tokens[i], _ = sc.chain.TokenBalance(w, coin.Mint); tokens[i] != quoted[i] {
			t.Fatalf("wallet %d received %d tokens, quoted %d", i, tokens[i], quoted[i])
		}
		args, accts := landedSwap(ctx, t, sc.client, batch.Txs[i].Signature)
		if args.MinimumAmountOut != dbc.MinOut(last[i], 300) || args.MinimumAmountOut > tokens[i] {
			t.Fatalf("wallet %d's buy asked for at least %d, quoted %d landing last", i, args.MinimumAmountOut, last[i])
		}
		if !sysvarAt(accts) {
			t.Fatalf("wallet %d's buy inside the window passes %v", i, accts)
		}
	}

	// A sale inside the window pays the 1 % cliff on what it gets, and the
	// limiter does not apply to it: no sysvar.
	before := pool()
	proceeds := padQuotes(t, sc, coin, false, tokens[0])
	batch = land(ctx, t, sc.client, sc.signer, sc.job("eu-rl-sell", address, wire.Sell, "100"))
	after := pool()
	gross := before.QuoteReserve - after.QuoteReserve
	if fee := after.ProtocolQuoteFee - before.ProtocolQuoteFee + after.PartnerQuoteFee - before.PartnerQuoteFee; gross != proceeds[0]+fee || fee != (gross+99)/100 {
		t.Fatalf("sale took %d from the curve, %d of it fees, for proceeds of %d", gross, fee, proceeds[0])
	}
	if _, accts := landedSwap(ctx, t, sc.client, batch.Txs[0].Signature); sysvarAt(accts) || len(accts) != dbc.SwapAccountsCount {
		t.Fatalf("the sale passes %v", accts)
	}

	// After the window a buy of 2 SOL pays the 1 % cliff, without the
	// sysvar.
	late := pool()
	late.ActivationPoint -= 3600 + 2*dbcClockSlack
	a, _ := sc.chain.GetAccount(coin.Pool)
	late.EncodeInto(a.Data)
	sc.chain.SetAccount(coin.Pool, a)
	q, err := dbc.QuoteSwapExactIn(&late, &cfg, 2_000_000_000, true, false, uint64(time.Now().Unix()))
	if err != nil || q.Fees.Total() != 20_000_000 {
		t.Fatalf("late quote %+v %v", q, err)
	}
	batch = land(ctx, t, sc.client, sc.signer, sc.job("eu-rl-late", address, wire.Buy, "2"))
	if got, _ := sc.chain.TokenBalance(sc.wallets[0], coin.Mint); got != q.AmountOut {
		t.Fatalf("late buy received %d tokens, quoted %d", got, q.AmountOut)
	}
	if p := pool(); p.QuoteReserve != late.QuoteReserve+1_980_000_000 || p.ProtocolQuoteFee != late.ProtocolQuoteFee+4_000_000 {
		t.Fatalf("pool after the late buy %+v", p)
	}
	if _, accts := landedSwap(ctx, t, sc.client, batch.Txs[0].Signature); sysvarAt(accts) {
		t.Fatalf("the late buy passes %v", accts)
	}
}

// TestDBCQuotePoint: a timestamp-activated DBC pool is quoted as of
// dbcClockSlack before the signer's clock (the chain's may run behind: a
// scheduler's falling fee is then the higher one), never before its
// activation; a slot-activated one at its activation.
func TestDBCQuotePoint(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tt := range []struct {
		activation uint64
		typ        uint8
		want       uint64
	}{
		{500_000, dbc.ActivationTimestamp, 1_000_000 - dbcClockSlack},
		{999_990, dbc.ActivationTimestamp, 999_990},
		{2_000_000, dbc.ActivationTimestamp, 2_000_000},
		{123, dbc.ActivationSlot, 123},
	} {
		if got := dbcQuotePoint(tt.activation, tt.typ, now); got != tt.want {
			t.Errorf("activation %d type %d: %d, want %d", tt.activation, tt.typ, got, tt.want)
		}
	}
	if got := dbcQuotePoint(0, dbc.ActivationTimestamp, time.Unix(10, 0)); got != 0 {
		t.Errorf("a clock under the slack: %d", got)
	}
}

// TestDBCNearEnd: a DBC order goes as swap2 partial fills once its buys
// come within what other traders may take first, twice the slippage's share
// of what completes the curve, and not below.
func TestDBCNearEnd(t *testing.T) {
	cfg := dbc.LocalBagsConfig(sol.PublicKey{1}, sol.PublicKey{2})
	pm := &padMarket{cfg: cfg, vp: dbc.VirtualPool{SqrtPrice: cfg.SqrtStartPrice, BaseReserve: cfg.InitialBaseSupply()}}
	room := dbcRoomOf(pm.vp, &pm.cfg, pm.point)
	for _, tc := range []struct {
		spend       uint64
		slippageBps uint64
		want        bool
	}{
		{room, 0, true}, {room - 1, 0, false},
		{room * 985 / 1000, 100, true}, // within 2 % of the end at 1 % slippage
		{room * 975 / 1000, 100, false},
		{room * 81 / 100, 1_000, true}, {room * 79 / 100, 1_000, false},
		{1, 5_000, true}, {1, 4_000, false},
	} {
		o := &order{slippageBps: tc.slippageBps, legs: []leg{{spend: tc.spend / 2}, {spend: tc.spend - tc.spend/2}}}
		if got := dbcNearEnd(pm, o); got != tc.want {
			t.Errorf("spend %d of a room of %d at %d bps: near the end %v, want %v", tc.spend, room, tc.slippageBps, got, tc.want)
		}
	}
}

// TestLaunchVenue: a launch's settled orders are counted under the venue
// its coins are made on, when they share one.
func TestLaunchVenue(t *testing.T) {
	for _, tc := range []struct {
		dexes []string
		want  string
	}{
		{[]string{wire.DexPumpFun}, venues.PumpFun},
		{[]string{wire.DexBags, wire.DexBags}, venues.DBC},
		{[]string{wire.DexPumpFun, wire.DexBonk}, ""},
		{nil, ""},
	} {
		job := &wire.DeployJob{}
		for _, d := range tc.dexes {
			job.Launches = append(job.Launches, wire.Launch{Dex: d})
		}
		if got := launchVenue(job); got != tc.want {
			t.Errorf("launches on %v: venue %q, want %q", tc.dexes, got, tc.want)
		}
	}
}

// TestLaunchLabTransferFeeOnDevnet buys and sells, at 0.5% slippage, a
// letsbonk coin whose mint is a Token-2022 mint with a transfer fee of 1%
// until epoch 7 and 3% from it, on the local chain, which withholds the
// fee of its Clock's epoch on every transfer and bounds a buy by what the
// buyer receives. Each trade's least out is the one Raydium's SDK sets for
// the pool as it stands (a buy's from the tokens out less the fee, a
// sale's from the quote the curve gives for what reaches the vault), and
// each trade lands and pays exactly its quote. Bounded without the fee, the
// buys would ask more than the buyer receives and the sales more than the
// curve pays, and the chain would refuse them. The orders have one wallet
// each: an order of several bounds each leg by its landing after the
// others too (landing.go).
func TestLaunchLabTransferFeeOnDevnet(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := token2022.TransferFeeConfig{
		Older: token2022.TransferFee{MaximumFee: math.MaxUint64, BasisPoints: 100},
		Newer: token2022.TransferFee{Epoch: 7, MaximumFee: math.MaxUint64, BasisPoints: 300},
	}
	coin, err := sc.chain.CreateLetsBonkCoinWithTransferFee(sc.creator.PublicKey(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	const slippage = 50
	// state reads the pool and its rates as the chain holds them.
	state := func() (launchlab.PoolState, launchlab.Rates) { return llState(t, sc.chain, coin.Pool) }
	// trade lands an order of one wallet and returns the minimum_amount_out
	// of its LaunchLab trade.
	trade := func(id string, wallet sol.PublicKey, side wire.Side, amount string) uint64 {
		job := sc.job(id, coin.Mint.String(), side, amount)
		job.Legs[0].Wallet, job.SlippageBps = wallet.String(), slippage
		batch := land(ctx, t, sc.client, sc.signer, job)
		tx, err := sol.TransactionFromBytes(batch.Txs[0].Raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, ix := range tx.Message.Instructions {
			if tx.Message.AccountKeys[ix.ProgramIDIndex] != launchlab.ProgramID {
				continue
			}
			var b launchlab.BuyExactInArgs
			if side == wire.Buy && b.Decode(ix.Data) == nil {
				return b.MinimumAmountOut
			}
			var s launchlab.SellExactInArgs
			if side == wire.Sell && s.Decode(ix.Data) == nil {
				return s.MinimumAmountOut
			}
		}
		t.Fatalf("no LaunchLab trade in %s's transaction", id)
		return 0
	}

	// Epoch 0: 1%. The first buy opens the pool's fee vaults that are
	// missing.
	var vaults uint64
	fresh, _ := state()
	for _, v := range []sol.PublicKey{launchlab.PlatformFeeVaultPDA(fresh.PlatformConfig, sol.SolMint), launchlab.CreatorFeeVaultPDA(fresh.Creator, sol.SolMint)} {
		if _, ok := sc.chain.GetAccount(v); !ok {
			vaults += rentExempt(splTokenAccountSize)
		}
	}
	tokens := make([]uint64, 2)
	for i, spend := range []uint64{1_000_000_000, 250_000_000} {
		w := sc.wallets[i]
		pool, rates := state()
		q, err := launchlab.QuoteBuyExactInWithTransferFee(&pool, rates, spend, cfg.At(0))
		if err != nil || q.TransferFee != cfg.Older.Fee(q.AmountOut) || q.TransferFee == 0 {
			t.Fatalf("quote %+v %v", q, err)
		}
		before := sc.chain.Balance(w)
		least := trade("eu-t22-buy-"+strconv.Itoa(i), w, wire.Buy, money.Format(new(big.Int).SetUint64(spend), 9))
		if want := launchlab.MinOut(q.Received(), slippage); least != want {
			t.Errorf("wallet %d's buy asks at least %d tokens, want %d (%d out, %d withheld)", i, least, want, q.AmountOut, q.TransferFee)
		}
		if tokens[i], err = sc.chain.TokenBalance(w, coin.Mint); err != nil || tokens[i] != q.Received() {
			t.Fatalf("wallet %d received %d tokens (%v), quoted %d", i, tokens[i], err, q.Received())
		}
		// The coin account carries TransferFeeAmount: its rent is that of
		// the larger account.
		spent := before - sc.chain.Balance(w)
		if want := spend + 5000 + 20000 + 10000 + rentExempt(token2022.AssociatedAccountWithTransferFeeSize) + []uint64{vaults, 0}[i]; spent != want {
			t.Fatalf("wallet %d spent %d lamports, want %d", i, spent, want)
		}
	}

	// Epoch 7: 3%. The first wallet sells its whole holding, but its coin
	// account keeps the fee withheld from its buy and stays open.
	clock := make([]byte, 40)
	binary.LittleEndian.PutUint64(clock[clockEpochOffset:], 7)
	sc.chain.SetAccount(sol.SysVarClockPubkey, devnet.Account{Lamports: devnet.MinimumBalanceForRentExemption(len(clock)),
		Owner: sol.MustPublicKeyFromBase58("Sysvar1111111111111111111111111111111111111"), Data: clock})
	for i, percent := range []string{"100", "50"} {
		w := sc.wallets[i]
		sold := []uint64{tokens[0], tokens[1] / 2}[i]
		pool, rates := state()
		q, err := launchlab.QuoteSellExactInWithTransferFee(&pool, rates, sold, cfg.At(7))
		if err != nil || q.TransferFee != cfg.Newer.Fee(sold) {
			t.Fatalf("quote %+v %v", q, err)
		}
		before := sc.chain.Balance(w)
		least := trade("eu-t22-sell-"+strconv.Itoa(i), w, wire.Sell, percent)
		if want := launchlab.MinOut(q.NetOut, slippage); least != want {
			t.Errorf("wallet %d's sale asks at least %d lamports, want %d", i, least, want)
		}
		if got, want := sc.chain.Balance(w)-before, q.NetOut-5000-20000-10000; got != want {
			t.Fatalf("wallet %d gained %d lamports selling, want %d", i, got, want)
		}
		if left, _ := sc.chain.TokenBalance(w, coin.Mint); left != tokens[i]-sold {
			t.Fatalf("wallet %d holds %d tokens after the sale, want %d", i, left, tokens[i]-sold)
		}
		pool.ApplySell(q)
		if after, _ := state(); after != pool {
			t.Fatalf("pool after wallet %d's sale\n%+v\nquoted\n%+v", i, after, pool)
		}
	}
	if _, ok := sc.chain.GetAccount(launchlab.AssociatedTokenAddress(sc.wallets[0], coin.Mint, launchlab.Token2022ProgramID)); !ok {
		t.Fatal("the first wallet's coin account was closed with fees withheld in it")
	}
}
