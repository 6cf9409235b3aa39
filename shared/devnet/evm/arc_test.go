package evm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// nativeTokenBalance is an address's balance of a chain's native token.
func nativeTokenBalance(t testing.TB, c *Chain, holder common.Address) *big.Int {
	t.Helper()
	tok, err := contracts.NewERC20(c.Deployment().NativeToken, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	b, err := tok.BalanceOf(nil, holder)
	if err != nil {
		t.Fatalf("native token balance of %s: %v", holder, err)
	}
	return b
}

// nativeBalance is an address's balance of a chain's native coin, in wei.
func nativeBalance(t testing.TB, c *Chain, holder common.Address) *big.Int {
	t.Helper()
	b, err := c.Balance(testCtx(t), holder, "")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestArcNativeToken: arc deploys the ERC-20 standing for its native coin,
// a 6-decimal USDC, at the first stable nonce, and says so in its
// deployment, over HTTP too; no other chain has one.
func TestArcNativeToken(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			ctx := testCtx(t)
			ec, rc := dial(t, name, "")
			d := chainOf(t, name).Deployment()
			var over Deployment
			if err := rc.CallContext(ctx, &over, "devnet_deployment"); err != nil {
				t.Fatal(err)
			}
			if over.NativeToken != d.NativeToken {
				t.Fatalf("devnet_deployment's nativeToken %s, the chain's %s", over.NativeToken, d.NativeToken)
			}
			if name != wire.ChainArc {
				if d.NativeToken != (common.Address{}) {
					t.Fatalf("%s has a native token at %s", name, d.NativeToken)
				}
				return
			}
			if want := crypto.CreateAddress(DeployerAddress, nonceBase(name)+stableNonce); d.NativeToken != want {
				t.Fatalf("native token at %s, want the first stable nonce's %s", d.NativeToken, want)
			}
			if code, err := ec.CodeAt(ctx, d.NativeToken, nil); err != nil || len(code) == 0 {
				t.Fatalf("no code at the native token %s: %v", d.NativeToken, err)
			}
			tok, _ := contracts.NewERC20(d.NativeToken, ec)
			dec, err := tok.Decimals(nil)
			if err != nil || dec != 6 {
				t.Fatalf("native token decimals %d, %v; want 6", dec, err)
			}
			if sym, err := tok.Symbol(nil); err != nil || sym != "USDC" {
				t.Fatalf("native token symbol %q, %v; want USDC", sym, err)
			}
			if n, err := tok.Name(nil); err != nil || n != "USD Coin" {
				t.Fatalf("native token name %q, %v; want USD Coin", n, err)
			}
			if len(d.Stables) != 0 || len(d.StableDecimals) != 0 || len(d.USDPairs) != 0 || d.USDPair != (common.Address{}) {
				t.Fatalf("arc has stables %v or USD pairs %v", d.Stables, d.USDPairs)
			}
			// The wrapper stays, as the official contracts' WETH9.
			router02, _ := uniswap.NewUniswapV2Router02(d.Router02, ec)
			if w, err := router02.WETH(nil); err != nil || w != d.WrappedNative || d.WrappedNative == d.NativeToken {
				t.Fatalf("Router02 WETH %s, %v; wrapped native %s", w, err, d.WrappedNative)
			}
		})
	}
}

// TestArcPoolsTradeAgainstNativeToken creates arc tokens on v2 and on every
// V3 fee tier: each pool is against the native token, holding the
// liquidity asked for in its 6 decimals, and a wallet funded with the
// native coin alone buys through Router02.swapExactTokensForTokens or
// SwapRouter02.exactInputSingle with the native token as the input
// (approved first), then sells back to it; the swaps move the native token
// only, the native coin paying for gas alone.
func TestArcPoolsTradeAgainstNativeToken(t *testing.T) {
	tests := []struct {
		venue     string
		fee       uint32
		quote     string
		liquidity *big.Int
	}{
		{VenueV2, 0, "", wholeUnits(20_000, 6)},
		{VenueV2, 0, "USDC", nil},
		{VenueV3, 100, "", wholeUnits(8_000, 6)},
		{VenueV3, 500, "usdc", nil},
		{VenueV3, 3000, "WUSDC", wholeUnits(12_345, 6)},
		{VenueV3, 10000, "", nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %d %q", tt.venue, tt.fee, tt.quote), func(t *testing.T) {
			ctx := testCtx(t)
			tr := newTrader(t, wire.ChainArc)
			d := tr.d
			tok, err := tr.c.CreateToken(ctx, TokenRequest{Name: "Arc " + tt.venue, Symbol: "ARC", Venue: tt.venue,
				FeeTier: tt.fee, Quote: tt.quote, Liquidity: tt.liquidity})
			if err != nil {
				t.Fatal(err)
			}
			if tok.Quote != d.NativeToken {
				t.Fatalf("quote %s, want the native token %s", tok.Quote, d.NativeToken)
			}
			liquidity := tt.liquidity
			if liquidity == nil {
				liquidity = wholeUnits(defaultTokenUSD, 6)
			}
			_, pooled, _ := tokenSupply()
			if tt.venue == VenueV2 {
				want := uniswap.V2PairAddress(d.Factory, tok.Address, d.NativeToken)
				factory, _ := uniswap.NewUniswapV2Factory(d.Factory, tr.ec)
				if p, err := factory.GetPair(nil, tok.Address, d.NativeToken); err != nil || p != want || tok.Pool != want || tok.Pair != want {
					t.Fatalf("pool %s pair %s factory %s, %v; want %s", tok.Pool, tok.Pair, p, err, want)
				}
				if b := nativeTokenBalance(t, tr.c, tok.Pool); b.Cmp(liquidity) != 0 {
					t.Fatalf("pair holds %s of the native token, want %s", b, liquidity)
				}
			} else {
				if want := uniswap.V3PoolAddress(d.V3Factory, tok.Address, d.NativeToken, tt.fee); tok.Pool != want || tok.FeeTier != tt.fee {
					t.Fatalf("pool %s fee %d, want %s", tok.Pool, tok.FeeTier, want)
				}
				checkV3Pool(t, tr, tok, pooled, liquidity)
			}
			// No pair of the token's with the wrapper.
			factory, _ := uniswap.NewUniswapV2Factory(d.Factory, tr.ec)
			if pair, err := factory.GetPair(nil, tok.Address, d.WrappedNative); err != nil || pair != (common.Address{}) {
				t.Fatalf("a pair with the wrapped native coin %s, %v", pair, err)
			}

			// newTrader funded 1,000 USDC of native coin, which is also
			// 1,000 of the native token.
			if b := nativeTokenBalance(t, tr.c, tr.opts.From); b.Cmp(wholeUnits(1_000, 6)) != 0 {
				t.Fatalf("the funded wallet holds %s of the native token, want 1000 USDC", b)
			}
			amountIn := wholeUnits(150, 6)
			tokenBefore := nativeTokenBalance(t, tr.c, tr.opts.From)
			coinBefore := nativeBalance(t, tr.c, tr.opts.From)
			head, err := tr.ec.BlockNumber(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.venue == VenueV2 {
				tr.buyV2(tok, false, amountIn)
			} else {
				tr.buyV3(tok, false, amountIn)
			}
			if spent := new(big.Int).Sub(tokenBefore, nativeTokenBalance(t, tr.c, tr.opts.From)); spent.Cmp(amountIn) != 0 {
				t.Fatalf("the buy spent %s of the native token, want %s", spent, amountIn)
			}
			// The approval and the swap paid gas in the native coin, and
			// nothing else left it.
			gas := gasPaidSince(t, tr, head)
			if spent := new(big.Int).Sub(coinBefore, nativeBalance(t, tr.c, tr.opts.From)); spent.Cmp(gas) != 0 {
				t.Fatalf("the buy took %s wei of native coin, want the %s its gas cost", spent, gas)
			}
			half := new(big.Int).Quo(tr.balance(tok.Address), big.NewInt(2))
			if tt.venue == VenueV2 {
				tr.sellV2(tok, false, half)
			} else {
				tr.sellV3(tok, false, half)
			}
		})
	}
}

// gasPaidSince is what the trader paid for gas in the blocks after head.
func gasPaidSince(t *testing.T, tr *trader, head uint64) *big.Int {
	t.Helper()
	ctx := testCtx(t)
	last, err := tr.ec.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	signer := types.LatestSignerForChainID(tr.c.ChainID())
	paid := new(big.Int)
	for n := head + 1; n <= last; n++ {
		b, err := tr.ec.BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range b.Transactions() {
			r, err := tr.ec.TransactionReceipt(ctx, tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			from, err := types.Sender(signer, tx)
			if err != nil {
				t.Fatal(err)
			}
			if from == tr.opts.From {
				paid.Add(paid, new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice))
			}
		}
	}
	return paid
}

// TestArcFundCreditsBoth: on arc, funding the native coin mints as much of
// the native token (wei / 10^12, rounded down), and funding USDC credits as
// much native coin (units × 10^12 wei), directly and over devnet_fund; the
// chain keeps the two balances apart after that.
func TestArcFundCreditsBoth(t *testing.T) {
	ctx := testCtx(t)
	c := chainOf(t, wire.ChainArc)
	nt := c.Deployment().NativeToken
	scale := big.NewInt(1_000_000_000_000)
	wallet := randomAddress(t)
	want := func(what string, wantWei, wantUnits *big.Int) {
		t.Helper()
		if got := nativeBalance(t, c, wallet); got.Cmp(wantWei) != 0 {
			t.Fatalf("%s: native coin %s wei, want %s", what, got, wantWei)
		}
		if got := nativeTokenBalance(t, c, wallet); got.Cmp(wantUnits) != 0 {
			t.Fatalf("%s: native token %s, want %s", what, got, wantUnits)
		}
		// Balance of the native symbol is the native token's.
		if got, err := c.Balance(ctx, wallet, "USDC"); err != nil || got.Cmp(wantUnits) != 0 {
			t.Fatalf("%s: Balance of USDC %s, %v; want %s", what, got, err, wantUnits)
		}
	}

	wei, _ := new(big.Int).SetString("12345678901234567890", 10) // 12.345678901234567890 USDC
	if err := c.Fund(ctx, wallet, wei); err != nil {
		t.Fatal(err)
	}
	want("fund native", wei, big.NewInt(12_345_678))

	// Less than a unit of the token mints none of it.
	if err := c.Fund(ctx, wallet, big.NewInt(1)); err != nil {
		t.Fatal(err)
	}
	wei.Add(wei, common.Big1)
	want("fund one wei", wei, big.NewInt(12_345_678))

	units := big.NewInt(2_500_000)
	if err := c.FundToken(ctx, wallet, "usdc", units); err != nil {
		t.Fatal(err)
	}
	wei.Add(wei, new(big.Int).Mul(units, scale))
	want("fund USDC", wei, big.NewInt(14_845_678))

	if err := c.FundToken(ctx, wallet, nt.Hex(), big.NewInt(7)); err != nil {
		t.Fatal(err)
	}
	wei.Add(wei, new(big.Int).Mul(big.NewInt(7), scale))
	want("fund the native token by address", wei, big.NewInt(14_845_685))

	// The native coin named by the zero address is in wei, as Fund's.
	if err := c.FundToken(ctx, wallet, common.Address{}.Hex(), wholeUnits(1, 18)); err != nil {
		t.Fatal(err)
	}
	wei.Add(wei, wholeUnits(1, 18))
	want("fund the zero address", wei, big.NewInt(15_845_685))

	_, rc := dial(t, wire.ChainArc, "")
	var ok bool
	if err := rc.CallContext(ctx, &ok, "devnet_fund", map[string]any{"address": wallet,
		"amount": (*hexutil.Big)(wholeUnits(2, 18)), "token": "USDC", "tokenAmount": (*hexutil.Big)(big.NewInt(3_000_000))}); err != nil || !ok {
		t.Fatalf("devnet_fund: %v", err)
	}
	wei.Add(wei, wholeUnits(5, 18))
	want("devnet_fund", wei, big.NewInt(20_845_685))

	// The two balances are kept apart: a spend of the native coin leaves
	// the native token as it was.
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	if err := c.Fund(ctx, from, wholeUnits(10, 18)); err != nil {
		t.Fatal(err)
	}
	ec, _ := dial(t, wire.ChainArc, "")
	tx := transfer(t, ec, c.ChainID(), key, randomAddress(t), wholeUnits(4, 18))
	if err := ec.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	waitReceipt(t, ec, tx.Hash())
	if got := nativeTokenBalance(t, c, from); got.Cmp(wholeUnits(10, 6)) != 0 {
		t.Fatalf("native token %s after a spend of the native coin, want 10 USDC still", got)
	}

	// Elsewhere funding the native coin mints nothing: there is no native
	// token.
	eth := chainOf(t, wire.ChainEth)
	other := randomAddress(t)
	if err := eth.Fund(ctx, other, wholeUnits(1, 18)); err != nil {
		t.Fatal(err)
	}
	if usdc, err := eth.Balance(ctx, other, "USDC"); err != nil || usdc.Sign() != 0 {
		t.Fatalf("eth USDC %s, %v after funding ETH", usdc, err)
	}
}

// TestArcReopenKeepsNativeToken closes an arc chain kept in a folder and
// opens it again: the native token is where it was, with its balances,
// nothing is deployed a second time, and tokens are still pooled against
// it.
func TestArcReopenKeepsNativeToken(t *testing.T) {
	dir := t.TempDir()
	ctx := testCtx(t)
	c := openChain(t, wire.ChainArc, dir)
	d := c.Deployment()
	if d.NativeToken == (common.Address{}) {
		t.Fatal("arc has no native token")
	}
	wallet := randomAddress(t)
	if err := c.FundToken(ctx, wallet, "USDC", big.NewInt(4_200_000)); err != nil {
		t.Fatal(err)
	}
	tok, err := c.CreateToken(ctx, TokenRequest{Name: "Kept", Symbol: "KEPT"})
	if err != nil {
		t.Fatal(err)
	}
	pool := reserves(t, c, tok.Pair)
	deployerNonce, err := c.Client().NonceAt(ctx, DeployerAddress, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	c = openChain(t, wire.ChainArc, dir)
	t.Cleanup(func() { _ = c.Close() })
	if got, _ := json.Marshal(c.Deployment()); string(got) != string(must(json.Marshal(d))) {
		t.Fatalf("deployment after reopening: %s, want %s", got, must(json.Marshal(d)))
	}
	if n, err := c.Client().NonceAt(ctx, DeployerAddress, nil); err != nil || n != deployerNonce {
		t.Fatalf("deployer nonce after reopening %d, %v; want %d", n, err, deployerNonce)
	}
	if b := nativeTokenBalance(t, c, wallet); b.Int64() != 4_200_000 {
		t.Fatalf("native token balance after reopening %s", b)
	}
	if got := reserves(t, c, tok.Pair); got[0].Cmp(pool[0]) != 0 || got[1].Cmp(pool[1]) != 0 {
		t.Fatalf("pool reserves after reopening %v, want %v", got, pool)
	}
	v3, err := c.CreateToken(ctx, TokenRequest{Name: "After", Symbol: "AFT", Venue: VenueV3})
	if err != nil {
		t.Fatal(err)
	}
	if v3.Quote != d.NativeToken || v3.Pool != uniswap.V3PoolAddress(d.V3Factory, v3.Address, d.NativeToken, DefaultFeeTier) {
		t.Fatalf("token after reopening quoted in %s, pool %s", v3.Quote, v3.Pool)
	}
}

// legacyArc makes NewChain build arc as it did before arc had a native
// token (the WUSDC wrapper and the official contracts only), until the
// returned function restores it.
func legacyArc(t *testing.T) (restore func()) {
	t.Helper()
	s := specs[wire.ChainArc]
	legacy := s
	legacy.nativeToken = false
	specs[wire.ChainArc] = legacy
	return func() { specs[wire.ChainArc] = s }
}

// TestArcFolderBeforeNativeToken opens arc folders made before arc had a
// native token. One whose deployer went on after the official contracts
// (a created token, or a transfer, at the native token's nonce) is refused
// with ErrStateDir, saying to remove the folder, and left as it was; one
// whose deployer stopped there gets the native token deployed.
func TestArcFolderBeforeNativeToken(t *testing.T) {
	for _, tc := range []struct {
		name string
		then func(t *testing.T, c *Chain) error
		ok   bool
	}{
		{"a token created", func(t *testing.T, c *Chain) error {
			_, err := c.CreateToken(testCtx(t), TokenRequest{Name: "Old", Symbol: "OLD"})
			return err
		}, false},
		{"a transfer", func(t *testing.T, c *Chain) error {
			return c.Fund(testCtx(t), randomAddress(t), wholeUnits(1, 18))
		}, false},
		{"nothing", func(*testing.T, *Chain) error { return nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			restore := legacyArc(t)
			old, err := NewChain(ChainConfig{Name: wire.ChainArc, Dir: dir})
			if err != nil {
				restore()
				t.Fatal(err)
			}
			if old.Deployment().NativeToken != (common.Address{}) {
				t.Error("the older arc chain has a native token")
			}
			err = tc.then(t, old)
			restore()
			if err != nil {
				_ = old.Close()
				t.Fatal(err)
			}
			head, err := old.Client().BlockNumber(testCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := old.Close(); err != nil {
				t.Fatal(err)
			}

			c, err := NewChain(ChainConfig{Name: wire.ChainArc, Dir: dir})
			if !tc.ok {
				if err == nil {
					_ = c.Close()
					t.Fatal("an arc folder without a native token opened")
				}
				if !errors.Is(err, ErrStateDir) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "remove the chain's folder") {
					t.Fatalf("error %v, want ErrStateDir naming %s and saying to remove it", err, dir)
				}
				// The folder is as it was: the older build still opens it.
				restore := legacyArc(t)
				defer restore()
				again := openChain(t, wire.ChainArc, dir)
				defer func() { _ = again.Close() }()
				if got, err := again.Client().BlockNumber(testCtx(t)); err != nil || got != head {
					t.Fatalf("head %d, %v after the refusal; want %d", got, err, head)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = c.Close() }()
			nt := c.Deployment().NativeToken
			if nt != nativeTokenAddress(nonceBase(wire.ChainArc)) {
				t.Fatalf("native token at %s", nt)
			}
			tok, _ := contracts.NewERC20(nt, c.Client())
			if dec, err := tok.Decimals(nil); err != nil || dec != 6 {
				t.Fatalf("native token decimals %d, %v", dec, err)
			}
		})
	}
}
