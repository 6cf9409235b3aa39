package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// poolScene is a local chain served over HTTP with a signer whose SOL/USD
// source is the chain's stable/SOL pool.
type poolScene struct {
	chain  *devnet.Chain
	client *rpc.Client
	keys   *fakeKeys
	signer *Signer
}

func newPoolScene(t *testing.T, cfg Config) *poolScene {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	// An httptest server closes the connections a client dialed and never
	// used at once; http.Server.Shutdown gives them five seconds.
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = chain.Close()
	})
	s := &poolScene{chain: chain, client: rpc.New(srv.URL), keys: &fakeKeys{keys: make(map[string]sol.PrivateKey)}}
	cfg.SOLUSDPool = devnet.StableSOLPool
	if len(cfg.TipAccounts) == 0 {
		cfg.TipAccounts = devnet.JitoTipAccounts[:3] // rent exempt since genesis
	}
	s.signer = NewSigner(s.client, s.keys, cfg, nil)
	return s
}

func (s *poolScene) wallet(lamports uint64) sol.PublicKey {
	w := sol.NewWallet()
	s.keys.mu.Lock()
	s.keys.keys[w.PublicKey().String()] = w.PrivateKey
	s.keys.mu.Unlock()
	if lamports > 0 {
		s.chain.Airdrop(w.PublicKey(), lamports)
	}
	return w.PublicKey()
}

func (s *poolScene) job(id string, token sol.PublicKey, side wire.Side, quote string, legs ...wire.Leg) *wire.SwapJob {
	j := &wire.SwapJob{
		OrderID: id, AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: token.String(),
		Side: side, QuoteAsset: quote, SlippageBps: 500, PriorityFee: "20000", ProcessorTip: "10000", Legs: legs,
	}
	if side == wire.Sell {
		j.SellMode = wire.SellPercent
	}
	return j
}

// poolNow reads a pool as the program prices it.
func poolNow(t *testing.T, chain *devnet.Chain, addr sol.PublicKey) (pumpswap.Pool, pumpswap.Reserves, pumpswap.Rates) {
	t.Helper()
	var p pumpswap.Pool
	var gc pumpswap.GlobalConfig
	var fc pumpswap.FeeConfig
	for _, x := range []struct {
		key sol.PublicKey
		v   interface{ Decode([]byte) error }
	}{{addr, &p}, {pumpswap.GlobalConfigPDA, &gc}, {pumpswap.FeeConfigPDA, &fc}} {
		a, ok := chain.GetAccount(x.key)
		if !ok {
			t.Fatalf("no account %s", x.key)
		}
		if err := x.v.Decode(a.Data); err != nil {
			t.Fatal(err)
		}
	}
	amount := func(k sol.PublicKey) uint64 {
		a, ok := chain.GetAccount(k)
		if !ok {
			t.Fatalf("no vault %s", k)
		}
		return binary.LittleEndian.Uint64(a.Data[64:])
	}
	r := pumpswap.Reserves{Base: amount(p.PoolBaseTokenAccount), Quote: amount(p.PoolQuoteTokenAccount), Virtual: p.VirtualQuoteReserves}
	m, _ := chain.GetAccount(p.BaseMint)
	return p, r, pumpswap.ComputeFees(&gc, &fc, &p, r, binary.LittleEndian.Uint64(m.Data[36:]))
}

// TestPoolTradesOnDevnet buys and sells a graduated coin on its SOL pool by
// its mint, buys it by the pool's id, and trades a USDC-quoted coin, all
// landed on the local chain through the RPC.
func TestPoolTradesOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Graduate", "GRAD", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := []sol.PublicKey{sc.wallet(5_000_000_000), sc.wallet(5_000_000_000)}
	amounts := []uint64{1_000_000_000, 250_000_000}

	// The quotes the legs get landing in order; the pool must pay exactly that.
	p, res, _ := poolNow(t, sc.chain, coin.Pool)
	var quoted []pumpswap.BuyQuote
	for _, a := range amounts {
		rates := pumpswap.ComputeFees(readGC(t, sc.chain), readFC(t, sc.chain), &p, res, mintSupplyOf(t, sc.chain, coin.Mint))
		q, err := pumpswap.QuoteBuyExactQuoteIn(res, rates, a)
		if err != nil {
			t.Fatal(err)
		}
		res.ApplyBuy(q)
		quoted = append(quoted, q)
	}
	before := []uint64{sc.chain.Balance(w[0]), sc.chain.Balance(w[1])}
	buy := sc.job("eu-pool-buy", coin.Mint, wire.Buy, "SOL", wire.Leg{Wallet: w[0].String(), Amount: "1"}, wire.Leg{Wallet: w[1].String(), Amount: "0.25"})
	batch := land(ctx, t, sc.client, sc.signer, buy)
	if !strings.Contains(batch.Route, coin.Pool.String()) || !strings.Contains(batch.Route, "graduated") {
		t.Fatalf("route %q", batch.Route)
	}
	// The trade history knows the coin by its pool and its bonding curve too.
	if batch.Mint != coin.Mint.String() || batch.Pool != coin.Pool.String() || batch.Curve != pumpfun.BondingCurvePDA(coin.Mint).String() {
		t.Fatalf("batch names mint %s, pool %s, curve %s", batch.Mint, batch.Pool, batch.Curve)
	}
	tokens := make([]uint64, 2)
	for i := range w {
		tokens[i], _ = sc.chain.TokenBalance(w[i], coin.Mint)
		if tokens[i] != quoted[i].BaseOut {
			t.Fatalf("wallet %d received %d tokens, quoted %d", i, tokens[i], quoted[i].BaseOut)
		}
		// The quote's total, the fees and the tip, and the rent of what the
		// buy created; the wrapped SOL left over came back.
		spent := before[i] - sc.chain.Balance(w[i])
		fixed := quoted[i].Total + 5000 + 20000 + 10000
		rents := devnet.MinimumBalanceForRentExemption(170) + devnet.MinimumBalanceForRentExemption(pumpswap.UserVolumeAccumulatorSize)
		if spent < fixed+rents || spent > fixed+rents+2*devnet.MinimumBalanceForRentExemption(165) {
			t.Fatalf("wallet %d spent %d lamports for a quote of %d", i, spent, quoted[i].Total)
		}
		if wsol, _ := sc.chain.TokenBalance(w[i], pumpswap.WrappedSOLMint); wsol != 0 {
			t.Fatalf("wallet %d kept %d wrapped SOL", i, wsol)
		}
	}

	// Sell everything from the first wallet, half from the second.
	_, res, _ = poolNow(t, sc.chain, coin.Pool)
	var proceeds []uint64
	for _, a := range []uint64{tokens[0], tokens[1] / 2} {
		rates := pumpswap.ComputeFees(readGC(t, sc.chain), readFC(t, sc.chain), &p, res, mintSupplyOf(t, sc.chain, coin.Mint))
		q, err := pumpswap.QuoteSell(res, rates, a)
		if err != nil {
			t.Fatal(err)
		}
		res.ApplySell(q)
		proceeds = append(proceeds, q.Net)
	}
	before = []uint64{sc.chain.Balance(w[0]), sc.chain.Balance(w[1])}
	land(ctx, t, sc.client, sc.signer, sc.job("eu-pool-sell", coin.Mint, wire.Sell, "SOL",
		wire.Leg{Wallet: w[0].String(), Amount: "100"}, wire.Leg{Wallet: w[1].String(), Amount: "50"}))
	for i := range w {
		// A protocol fee recipient is drawn at random per transaction; the
		// seller pays for its WSOL account if nobody traded through it yet.
		// The first wallet sold everything, which closed its Token-2022
		// account and returned the account's rent.
		got, want := sc.chain.Balance(w[i])-before[i], proceeds[i]-5000-20000-10000+[]uint64{devnet.MinimumBalanceForRentExemption(170), 0}[i]
		if got != want && got != want-devnet.MinimumBalanceForRentExemption(165) {
			t.Fatalf("wallet %d gained %d lamports selling, want %d", i, got, want)
		}
	}

	// The pool's id names the pool.
	byID := land(ctx, t, sc.client, sc.signer, sc.job("eu-pool-id", coin.Pool, wire.Buy, "SOL", wire.Leg{Wallet: w[0].String(), Amount: "0.1"}))
	if !strings.Contains(byID.Route, "names") {
		t.Fatalf("route %q", byID.Route)
	}
	if got, _ := sc.chain.TokenBalance(w[0], coin.Mint); got == 0 {
		t.Fatal("no tokens bought by the pool's id")
	}

	// A USDC-quoted coin: the buy spends USDC, the sell pays USDC.
	usdc, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Dollar", "DOLL", pumpswap.USDCMint, 20_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	buyer := sc.wallet(1_000_000_000)
	if _, err := sc.chain.MintTo(pumpswap.USDCMint, buyer, 100_000_000); err != nil {
		t.Fatal(err)
	}
	up, ures, urates := poolNow(t, sc.chain, usdc.Pool)
	uq, err := pumpswap.QuoteBuyExactQuoteIn(ures, urates, 25_500_000)
	if err != nil {
		t.Fatal(err)
	}
	land(ctx, t, sc.client, sc.signer, sc.job("eu-usdc-buy", usdc.Mint, wire.Buy, "USDC", wire.Leg{Wallet: buyer.String(), Amount: "25.5"}))
	held, _ := sc.chain.TokenBalance(buyer, usdc.Mint)
	left, _ := sc.chain.TokenBalance(buyer, pumpswap.USDCMint)
	if held != uq.BaseOut || left != 100_000_000-uq.Total {
		t.Fatalf("bought %d tokens (quoted %d), %d USDC left (quoted total %d)", held, uq.BaseOut, left, uq.Total)
	}
	ures.ApplyBuy(uq)
	urates = pumpswap.ComputeFees(readGC(t, sc.chain), readFC(t, sc.chain), &up, ures, mintSupplyOf(t, sc.chain, usdc.Mint))
	sq, err := pumpswap.QuoteSell(ures, urates, held)
	if err != nil {
		t.Fatal(err)
	}
	land(ctx, t, sc.client, sc.signer, sc.job("eu-usdc-sell", usdc.Mint, wire.Sell, "USDC", wire.Leg{Wallet: buyer.String(), Amount: "100"}))
	if got, _ := sc.chain.TokenBalance(buyer, pumpswap.USDCMint); got != left+sq.Net {
		t.Fatalf("%d USDC after the sell, want %d", got, left+sq.Net)
	}

	// quote_asset is what a buy spends: a sale naming another receives the
	// pool's quote all the same (here it finds nothing left to sell).
	_, err = sc.signer.Sign(ctx, sc.job("r3", usdc.Mint, wire.Sell, "USD1", wire.Leg{Wallet: buyer.String(), Amount: "100"}))
	if e := signErr(t, err); e.Code != apierr.InsufficientBalance {
		t.Fatalf("a USD1 sell of a USDC coin: %v, want it not refused for its quote_asset", err)
	}

	// The quote-asset rules: no routing through another pool.
	for _, tc := range []struct {
		name string
		job  *wire.SwapJob
	}{
		{"USDC buy of a SOL coin", sc.job("r1", coin.Mint, wire.Buy, "USDC", wire.Leg{Wallet: buyer.String(), Amount: "1"})},
		{"SOL buy of a USDC coin", sc.job("r2", usdc.Mint, wire.Buy, "SOL", wire.Leg{Wallet: buyer.String(), Amount: "0.1"})},
		{"USDC buy on a curve", sc.job("r4", mustCoin(t, sc.chain), wire.Buy, "USDC", wire.Leg{Wallet: buyer.String(), Amount: "1"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := sc.keys.count()
			_, err := sc.signer.Sign(ctx, tc.job)
			if e := signErr(t, err); e.Code != apierr.TokenNotFound || e.Details != tc.job.Token {
				t.Fatalf("error %v", err)
			}
			if sc.keys.count() != calls {
				t.Fatal("keys fetched for a refused order")
			}
		})
	}
}

func mustCoin(t *testing.T, chain *devnet.Chain) sol.PublicKey {
	t.Helper()
	c, err := chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Curve", "CRV")
	if err != nil {
		t.Fatal(err)
	}
	return c.Mint
}

func readGC(t *testing.T, chain *devnet.Chain) *pumpswap.GlobalConfig {
	a, _ := chain.GetAccount(pumpswap.GlobalConfigPDA)
	var gc pumpswap.GlobalConfig
	if err := gc.Decode(a.Data); err != nil {
		t.Fatal(err)
	}
	return &gc
}

func readFC(t *testing.T, chain *devnet.Chain) *pumpswap.FeeConfig {
	a, _ := chain.GetAccount(pumpswap.FeeConfigPDA)
	var fc pumpswap.FeeConfig
	if err := fc.Decode(a.Data); err != nil {
		t.Fatal(err)
	}
	return &fc
}

func mintSupplyOf(t *testing.T, chain *devnet.Chain, mint sol.PublicKey) uint64 {
	a, ok := chain.GetAccount(mint)
	if !ok {
		t.Fatalf("no mint %s", mint)
	}
	return binary.LittleEndian.Uint64(a.Data[36:])
}

// TestGraduationOnDevnet trades a coin on its curve, completes the curve,
// lets the chain migrate it, and trades the same address again: now on the
// pool.
func TestGraduationOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{ResolveTTL: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mint := mustCoin(t, sc.chain)
	whale := sc.wallet(200_000_000_000)
	first := land(ctx, t, sc.client, sc.signer, sc.job("eu-curve", mint, wire.Buy, "SOL", wire.Leg{Wallet: whale.String(), Amount: "1"}))
	if !strings.HasPrefix(first.Route, "pump.fun bonding curve") || first.Venue != venues.PumpFun {
		t.Fatalf("route %q, venue %q", first.Route, first.Venue)
	}
	// Buying more than the curve holds completes it.
	land(ctx, t, sc.client, sc.signer, sc.job("eu-fill", mint, wire.Buy, "SOL", wire.Leg{Wallet: whale.String(), Amount: "120"}))
	sc.chain.AdvanceSlot() // the migration runs at the next slot
	pool := pumpswap.CanonicalPoolPDA(mint, pumpswap.WrappedSOLMint)
	if _, ok := sc.chain.GetAccount(pool); !ok {
		t.Fatal("the completed curve did not migrate")
	}
	after := land(ctx, t, sc.client, sc.signer, sc.job("eu-after", mint, wire.Sell, "SOL", wire.Leg{Wallet: whale.String(), Amount: "10"}))
	if !strings.Contains(after.Route, pool.String()) || after.Venue != venues.PumpSwap {
		t.Fatalf("route %q, venue %q after graduation", after.Route, after.Venue)
	}
	// The resolution is cached: the curve is not read again within the TTL.
	if v, ok := sc.signer.venues.get(mint, time.Now(), time.Minute); !ok || v.pool != pool {
		t.Fatalf("venue cache %+v %v", v, ok)
	}
}

// TestBoundsOnDevnet measures curves and pools in USD and refuses orders
// outside the bounds with the figure, signing nothing.
func TestBoundsOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	curveCoin := mustCoin(t, sc.chain)
	solCoin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Bounded", "BND", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	usdCoin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "BoundUSD", "BUSD", pumpswap.USDCMint, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := sc.wallet(5_000_000_000)
	if _, err := sc.chain.MintTo(pumpswap.USDCMint, w, 10_000_000); err != nil {
		t.Fatal(err)
	}
	// Expected figures at the stable pool's 150 USD per SOL: a fresh curve
	// holds no SOL and is worth 30 SOL * 1e9 / 1.073e9 tokens; a graduated
	// pool holds 85 SOL (12,750 USDC) against 206.9M of the 1B tokens.
	curveCap := ratUSD(30_000_000_000, 1_000_000_000_000_000, 1_073_000_000_000_000, 9, 150)
	poolCap := ratUSD(85_000_000_000, 1_000_000_000_000_000, 206_900_000_000_000, 9, 150)
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name    string
		token   sol.PublicKey
		quote   string
		amount  string
		set     func(j *wire.SwapJob)
		code    apierr.Code
		details string
	}{
		{"curve liquidity below", curveCoin, "SOL", "0.01", func(j *wire.SwapJob) { j.MinLiquidityUSD = f(1) }, apierr.LiquidityOutOfRange, "0.00"},
		{"curve cap above", curveCoin, "SOL", "0.01", func(j *wire.SwapJob) { j.MaxMarketCapUSD = f(1000) }, apierr.MarketCapOutOfRange, formatUSD(curveCap)},
		{"curve within", curveCoin, "SOL", "0.01", func(j *wire.SwapJob) { j.MinMarketCapUSD, j.MaxMarketCapUSD = f(4000), f(4500) }, "", ""},
		{"pool liquidity above", solCoin.Mint, "SOL", "0.01", func(j *wire.SwapJob) { j.MaxLiquidityUSD = f(25_000) }, apierr.LiquidityOutOfRange, "25500.00"},
		{"pool cap below", solCoin.Mint, "SOL", "0.01", func(j *wire.SwapJob) { j.MinMarketCapUSD = f(100_000) }, apierr.MarketCapOutOfRange, formatUSD(poolCap)},
		{"pool within", solCoin.Mint, "SOL", "0.01", func(j *wire.SwapJob) {
			j.MinLiquidityUSD, j.MaxLiquidityUSD, j.MinMarketCapUSD = f(25_000), f(26_000), f(60_000)
		}, "", ""},
		{"usdc pool cap above", usdCoin.Mint, "USDC", "1", func(j *wire.SwapJob) { j.MaxMarketCapUSD = f(50_000) }, apierr.MarketCapOutOfRange, formatUSD(poolCap)},
		{"usdc pool within", usdCoin.Mint, "USDC", "1", func(j *wire.SwapJob) { j.MinLiquidityUSD = f(25_500) }, "", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := sc.job("eu-bounds-"+strconv.Itoa(i), tt.token, wire.Buy, tt.quote, wire.Leg{Wallet: w.String(), Amount: tt.amount})
			tt.set(job)
			if tt.code == "" {
				land(ctx, t, sc.client, sc.signer, job)
				return
			}
			calls := sc.keys.count()
			_, err := sc.signer.Sign(ctx, job)
			e := signErr(t, err)
			if e.Code != tt.code || e.Details != tt.details || e.Status() != 422 {
				t.Fatalf("got %s %q (%v), want %s %q", e.Code, e.Details, err, tt.code, tt.details)
			}
			if sc.keys.count() != calls {
				t.Fatal("a key was fetched for an order outside its bounds")
			}
		})
	}
}

// ratUSD is a*b/den base units of an asset with decimals at unitUSD.
func ratUSD(a, b, den uint64, decimals uint8, unitUSD float64) float64 {
	num := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
	return usd(new(big.Rat).SetFrac(num, new(big.Int).SetUint64(den)), decimals, unitUSD)
}

// TestAutoTipOnDevnet prices an auto_tip order from the fees recent slots
// paid on the local chain, clamped, and tips the floor.
func TestAutoTipOnDevnet(t *testing.T) {
	for _, tc := range []struct {
		name string
		max  uint64
		want uint64
	}{
		{"percentile", 0, 4_000_000},
		{"clamped", 3_000_000, 3_000_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newPoolScene(t, Config{AutoFeePercentile: 75, AutoFeeMinMicroLamports: 1_000, AutoFeeMaxMicroLamports: tc.max, AutoTip: 30_000})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Tipped", "TIP", sol.PublicKey{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Four slots whose transactions paid 2, 3, 4 and 5 SOL-millionths
			// per unit, beside the creation's unpriced one: the 75th
			// percentile of [0, 2e6, 3e6, 4e6, 5e6] is 4e6.
			payer := sol.NewWallet()
			sc.chain.Airdrop(payer.PublicKey(), 1_000_000_000)
			for _, price := range []uint64{2_000_000, 3_000_000, 4_000_000, 5_000_000} {
				sc.chain.AdvanceSlot()
				bh, _ := sc.chain.LatestBlockhash()
				tx, err := sol.NewTransaction([]sol.Instruction{
					computebudget.NewSetComputeUnitPriceInstruction(price).Build(),
					system.NewTransferInstruction(1_000_000, payer.PublicKey(), sol.NewWallet().PublicKey()).Build(),
				}, bh, sol.TransactionPayer(payer.PublicKey()))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &payer.PrivateKey }); err != nil {
					t.Fatal(err)
				}
				if _, err := sc.chain.SendTransaction(tx); err != nil {
					t.Fatal(err)
				}
			}
			w := sc.wallet(2_000_000_000)
			job := sc.job("eu-auto", coin.Mint, wire.Buy, "SOL", wire.Leg{Wallet: w.String(), Amount: "0.1"})
			job.AutoTip, job.PriorityFee, job.ProcessorTip = true, "999999999", "7"
			batch := land(ctx, t, sc.client, sc.signer, job)
			ixs := decodeTx(t, batch.Txs[0])
			if got := binary.LittleEndian.Uint64(ixs[1].data[1:]); ixs[1].program != sol.ComputeBudget || got != tc.want {
				t.Fatalf("unit price %d, want %d", got, tc.want)
			}
			last := ixs[len(ixs)-1]
			if last.program != sol.SystemProgramID || binary.LittleEndian.Uint64(last.data[4:]) != 30_000 {
				t.Fatalf("tip %x", last.data)
			}
		})
	}
}

// TestPoolReadsOnDevnet checks what a job on a pool costs in reads once the
// pool's facts, the AMM state, the address's venue and a blockhash younger
// than BlockhashMaxAge are known: one getMultipleAccounts with the wallets
// in it.
func TestPoolReadsOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{BlockhashMaxAge: time.Minute})
	ctx := context.Background()
	coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Reads", "READ", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := sc.wallet(1_000_000_000)
	job := sc.job("eu-reads", coin.Mint, wire.Buy, "SOL", wire.Leg{Wallet: w.String(), Amount: "0.01"})
	if _, err := sc.signer.Sign(ctx, job); err != nil {
		t.Fatal(err)
	}
	accounts, hashes := sc.chain.RPCCalls("getMultipleAccounts"), sc.chain.RPCCalls("getLatestBlockhash")
	if _, err := sc.signer.Sign(ctx, job); err != nil {
		t.Fatal(err)
	}
	if a, h := sc.chain.RPCCalls("getMultipleAccounts")-accounts, sc.chain.RPCCalls("getLatestBlockhash")-hashes; a != 1 || h != 0 {
		t.Fatalf("a second job read %d times and asked %d blockhashes", a, h)
	}
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		v    []uint64
		p    float64
		want uint64
	}{
		{nil, 75, 0},
		{[]uint64{7}, 75, 7},
		{[]uint64{5, 1, 4, 2, 3}, 75, 4},
		{[]uint64{5, 1, 4, 2, 3}, 100, 5},
		{[]uint64{5, 1, 4, 2, 3}, 1, 1},
		{[]uint64{0, 0, 0, 10}, 50, 0},
	}
	for _, tt := range tests {
		if got := percentile(tt.v, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %d, want %d", tt.v, tt.p, got, tt.want)
		}
	}
	if clampPrice(5, 10, 20) != 10 || clampPrice(25, 10, 20) != 20 || clampPrice(15, 10, 20) != 15 {
		t.Error("clamp")
	}
}

// TestShortPoolOnDevnet trades a pool shorter than what create_pool
// allocates: one of an older layout, and one holding every field of the
// IDL yet short of the 300 bytes below which the official SDK
// (withFixPoolInstructions) grows it. The order's first transaction grows
// it with extend_account.
func TestShortPoolOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{})
	for _, size := range []int{245, 280} { // through the cashback flag; every field of the IDL
		t.Run(fmt.Sprintf("%d_bytes", size), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Old Pool", "OLD", sol.PublicKey{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			acc, _ := sc.chain.GetAccount(coin.Pool)
			acc.Data = acc.Data[:size]
			sc.chain.SetAccount(coin.Pool, acc)
			legs := []wire.Leg{{Wallet: sc.wallet(1_000_000_000).String(), Amount: "0.05"}, {Wallet: sc.wallet(1_000_000_000).String(), Amount: "0.05"}}
			batch := land(ctx, t, sc.client, sc.signer, sc.job(fmt.Sprintf("eu-short-%d", size), coin.Mint, wire.Buy, "SOL", legs...))
			if ixs := decodeTx(t, batch.Txs[0]); ixs[2].program != pumpswap.ProgramID || string(ixs[2].data) != string(pumpswap.ExtendAccountArgs{}.Encode()) {
				t.Fatalf("first transaction starts %s %x", ixs[2].program, ixs[2].data)
			}
			if ixs := decodeTx(t, batch.Txs[1]); ixs[2].program == pumpswap.ProgramID {
				t.Fatal("the second transaction extends the pool again")
			}
			// The second wallet's trade fails on the pool until the first grows
			// it: the broadcaster sends it once the first landed.
			if !batch.FirstLandsFirst {
				t.Fatal("the batch does not ask for its first transaction to land first")
			}
			if acc, _ := sc.chain.GetAccount(coin.Pool); len(acc.Data) != pumpswap.PoolAccountSize {
				t.Fatalf("pool is %d bytes", len(acc.Data))
			}
			// Grown, the pool's orders go out at once.
			again := land(ctx, t, sc.client, sc.signer, sc.job(fmt.Sprintf("eu-short-again-%d", size), coin.Mint, wire.Buy, "SOL", legs...))
			if again.FirstLandsFirst {
				t.Fatal("an order on the grown pool waits for its first transaction")
			}
			if ixs := decodeTx(t, again.Txs[0]); ixs[2].program == pumpswap.ProgramID {
				t.Fatal("an order on the grown pool extends it again")
			}
		})
	}
}

// TestSkippedWalletsOnDevnet: a buy whose first wallet completes the
// curve leaves the next wallet out, and a sale leaves out a wallet with
// nothing to sell; the batch names each with why, for the order to show.
func TestSkippedWalletsOnDevnet(t *testing.T) {
	sc := newPoolScene(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mint := mustCoin(t, sc.chain)
	whale, late := sc.wallet(200_000_000_000), sc.wallet(5_000_000_000)
	buy := land(ctx, t, sc.client, sc.signer, sc.job("eu-fill-skip", mint, wire.Buy, "SOL",
		wire.Leg{Wallet: whale.String(), Amount: "120"}, wire.Leg{Wallet: late.String(), Amount: "1"}))
	if len(buy.Txs) != 1 || len(buy.SkippedWallets) != 1 || buy.SkippedWallets[0].Wallet != late.String() ||
		!strings.Contains(buy.SkippedWallets[0].Reason, "bonding curve was complete") {
		t.Fatalf("txs %d, skipped %+v, want the late wallet skipped for the complete curve", len(buy.Txs), buy.SkippedWallets)
	}
	sc.chain.AdvanceSlot() // the migration runs at the next slot
	sell := land(ctx, t, sc.client, sc.signer, sc.job("eu-sell-skip", mint, wire.Sell, "SOL",
		wire.Leg{Wallet: whale.String(), Amount: "10"}, wire.Leg{Wallet: late.String(), Amount: "10"}))
	if len(sell.Txs) != 1 || len(sell.SkippedWallets) != 1 || sell.SkippedWallets[0].Wallet != late.String() ||
		!strings.Contains(sell.SkippedWallets[0].Reason, "holds none of the token") {
		t.Fatalf("txs %d, skipped %+v, want the late wallet skipped with nothing to sell", len(sell.Txs), sell.SkippedWallets)
	}
}

// TestLegsLandInAnyOrder: the legs of a many-wallet order go out at once
// and land in any order. Landing last of three, with a slippage well under
// what the other two move the price, each still lands: its least out is
// what it gets after the others, on the curve and on a pool.
func TestLegsLandInAnyOrder(t *testing.T) {
	sc := newPoolScene(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Order", "ORD", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		token sol.PublicKey
	}{{"pump.fun curve", mustCoin(t, sc.chain)}, {"PumpSwap pool", coin.Mint}} {
		t.Run(tc.name, func(t *testing.T) {
			ws := []sol.PublicKey{sc.wallet(20_000_000_000), sc.wallet(20_000_000_000), sc.wallet(20_000_000_000)}
			job := sc.job("eu-any-order-"+tc.token.String()[:6], tc.token, wire.Buy, "SOL",
				wire.Leg{Wallet: ws[0].String(), Amount: "3"}, wire.Leg{Wallet: ws[1].String(), Amount: "3"},
				wire.Leg{Wallet: ws[2].String(), Amount: "3"})
			job.SlippageBps = 100
			batch, err := sc.signer.Sign(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			// The last leg first: the first lands last.
			var sigs []sol.Signature
			for i := len(batch.Txs) - 1; i >= 0; i-- {
				sig, err := sc.client.SendRawTransactionWithOpts(ctx, batch.Txs[i].Raw, rpc.TransactionOpts{SkipPreflight: true})
				if err != nil {
					t.Fatalf("send leg %d: %v", i, err)
				}
				sigs = append(sigs, sig)
			}
			poll.Until(t, 10*time.Second, "every leg settled", func() bool {
				res, err := sc.client.GetSignatureStatuses(ctx, false, sigs...)
				if err != nil {
					return false
				}
				for _, v := range res.Value {
					if v == nil {
						return false
					}
				}
				return true
			})
			res, _ := sc.client.GetSignatureStatuses(ctx, false, sigs...)
			for k, v := range res.Value {
				if v.Err != nil {
					t.Errorf("leg %d, landing %d of 3, failed: %v", len(sigs)-1-k, k+1, v.Err)
				}
			}
		})
	}
}
