package evm

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// swapGas is the gas limit of a test's swaps. An estimate would run on the
// latest block, where a pool updated in the same second writes less (its
// price accumulators, its oracle) than in the next block, which the swap
// lands in.
const swapGas = 1_000_000

// trader signs plain calls of the official routers over HTTP, as any
// wallet on a public chain would.
type trader struct {
	t    *testing.T
	c    *Chain
	ec   *ethclient.Client
	d    Deployment
	opts *bind.TransactOpts
}

func newTrader(t *testing.T, chain string) *trader {
	t.Helper()
	c := chainOf(t, chain)
	ec, _ := dial(t, chain, "")
	key := fundedKey(t, c, 1_000)
	opts, err := bind.NewKeyedTransactorWithChainID(key, c.ChainID())
	if err != nil {
		t.Fatal(err)
	}
	opts.GasLimit = swapGas
	opts.Context = testCtx(t)
	return &trader{t: t, c: c, ec: ec, d: c.Deployment(), opts: opts}
}

// with returns the trader's options for a call that sends value.
func (tr *trader) with(value *big.Int) *bind.TransactOpts {
	o := *tr.opts
	o.Value = value
	return &o
}

// mine waits for tx and fails unless it succeeded; it returns what the
// trader paid for its gas.
func (tr *trader) mine(tx *types.Transaction, err error) *big.Int {
	tr.t.Helper()
	if err != nil {
		tr.t.Fatalf("send: %v", err)
	}
	r, err := tr.c.WaitMined(testCtx(tr.t), tx.Hash())
	if err != nil {
		tr.t.Fatalf("%v (gas %d of %d)", err, r.GasUsed, tx.Gas())
	}
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

// balance is the trader's balance of a token, or of the native coin for
// the zero address.
func (tr *trader) balance(token common.Address) *big.Int {
	tr.t.Helper()
	b, err := tr.c.Balance(testCtx(tr.t), tr.opts.From, token.Hex())
	if token == (common.Address{}) {
		b, err = tr.c.Balance(testCtx(tr.t), tr.opts.From, "")
	}
	if err != nil {
		tr.t.Fatal(err)
	}
	return b
}

func (tr *trader) approve(token, spender common.Address) {
	tr.t.Helper()
	erc20, err := uniswap.NewIERC20(token, tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	tr.mine(erc20.Approve(tr.opts, spender, maxUint256))
}

func (tr *trader) deadline() *big.Int {
	tr.t.Helper()
	h, err := tr.ec.HeaderByNumber(testCtx(tr.t), nil)
	if err != nil {
		tr.t.Fatal(err)
	}
	return new(big.Int).SetUint64(h.Time + 3600)
}

// v2Out is what the V2 pair of in and out pays for amountIn now.
func (tr *trader) v2Out(in, out common.Address, amountIn *big.Int) *big.Int {
	tr.t.Helper()
	pair, err := uniswap.NewUniswapV2Pair(uniswap.V2PairAddress(tr.d.Factory, in, out), tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	r, err := pair.GetReserves(nil)
	if err != nil {
		tr.t.Fatal(err)
	}
	rIn, rOut := r.Reserve0, r.Reserve1
	if t0, _ := uniswap.SortTokens(in, out); t0 != in {
		rIn, rOut = rOut, rIn
	}
	return uniswap.V2AmountOut(amountIn, rIn, rOut)
}

// v3Out is what QuoterV2 says the V3 pool of in, out and fee pays for
// amountIn now.
func (tr *trader) v3Out(in, out common.Address, fee uint32, amountIn *big.Int) *big.Int {
	tr.t.Helper()
	q, err := uniswap.QuoteExactInputSingle(testCtx(tr.t), tr.ec, tr.d.QuoterV2, nil, in, out, fee, amountIn)
	if err != nil {
		tr.t.Fatal(err)
	}
	if q.Sign() <= 0 {
		tr.t.Fatalf("QuoterV2 quotes %s", q)
	}
	return q
}

func (tr *trader) expect(what string, got, want *big.Int) {
	tr.t.Helper()
	if got.Cmp(want) != 0 {
		tr.t.Errorf("%s: got %s, want %s", what, got, want)
	}
}

// buyV2 buys token with amountIn of quote (the native coin when quote is
// the wrapped one) through Router02 and checks that x*y=k's amount
// arrived.
func (tr *trader) buyV2(tok Token, native bool, amountIn *big.Int) {
	tr.t.Helper()
	r02, err := uniswap.NewUniswapV2Router02(tr.d.Router02, tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	path := []common.Address{tok.Quote, tok.Address}
	want := tr.v2Out(tok.Quote, tok.Address, amountIn)
	before := tr.balance(tok.Address)
	if native {
		tr.mine(r02.SwapExactETHForTokens(tr.with(amountIn), want, path, tr.opts.From, tr.deadline()))
	} else {
		tr.approve(tok.Quote, tr.d.Router02)
		tr.mine(r02.SwapExactTokensForTokens(tr.opts, amountIn, want, path, tr.opts.From, tr.deadline()))
	}
	tr.expect("tokens bought on V2", new(big.Int).Sub(tr.balance(tok.Address), before), want)
}

// sellV2 sells amount of token for the quote (the native coin when the
// quote is the wrapped one) through Router02.
func (tr *trader) sellV2(tok Token, native bool, amount *big.Int) {
	tr.t.Helper()
	r02, err := uniswap.NewUniswapV2Router02(tr.d.Router02, tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	tr.approve(tok.Address, tr.d.Router02)
	path := []common.Address{tok.Address, tok.Quote}
	want := tr.v2Out(tok.Address, tok.Quote, amount)
	if native {
		before := tr.balance(common.Address{})
		gas := tr.mine(r02.SwapExactTokensForETH(tr.opts, amount, want, path, tr.opts.From, tr.deadline()))
		got := new(big.Int).Sub(tr.balance(common.Address{}), before)
		tr.expect("native coin for the V2 sale", got.Add(got, gas), want)
		return
	}
	before := tr.balance(tok.Quote)
	tr.mine(r02.SwapExactTokensForTokens(tr.opts, amount, want, path, tr.opts.From, tr.deadline()))
	tr.expect("quote for the V2 sale", new(big.Int).Sub(tr.balance(tok.Quote), before), want)
}

// buyV3 buys token with amountIn of the quote through
// SwapRouter02.exactInputSingle, paying the native coin as the call's value
// when native, and checks that QuoterV2's amount arrived.
func (tr *trader) buyV3(tok Token, native bool, amountIn *big.Int) {
	tr.t.Helper()
	sr, err := uniswap.NewSwapRouter02(tr.d.SwapRouter02, tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	want := tr.v3Out(tok.Quote, tok.Address, tok.FeeTier, amountIn)
	params := uniswap.IV3SwapRouterExactInputSingleParams{TokenIn: tok.Quote, TokenOut: tok.Address,
		Fee: big.NewInt(int64(tok.FeeTier)), Recipient: tr.opts.From, AmountIn: amountIn, AmountOutMinimum: want,
		SqrtPriceLimitX96: common.Big0}
	before := tr.balance(tok.Address)
	if native {
		tr.mine(sr.ExactInputSingle(tr.with(amountIn), params))
	} else {
		tr.approve(tok.Quote, tr.d.SwapRouter02)
		tr.mine(sr.ExactInputSingle(tr.opts, params))
	}
	tr.expect("tokens bought on V3", new(big.Int).Sub(tr.balance(tok.Address), before), want)
}

// sellV3 sells amount of token through SwapRouter02: for the stable
// straight to the trader, for the native coin to the router and unwrapped
// to the trader in the same multicall.
func (tr *trader) sellV3(tok Token, native bool, amount *big.Int) {
	tr.t.Helper()
	sr, err := uniswap.NewSwapRouter02(tr.d.SwapRouter02, tr.ec)
	if err != nil {
		tr.t.Fatal(err)
	}
	tr.approve(tok.Address, tr.d.SwapRouter02)
	want := tr.v3Out(tok.Address, tok.Quote, tok.FeeTier, amount)
	params := uniswap.IV3SwapRouterExactInputSingleParams{TokenIn: tok.Address, TokenOut: tok.Quote,
		Fee: big.NewInt(int64(tok.FeeTier)), Recipient: tr.opts.From, AmountIn: amount, AmountOutMinimum: want,
		SqrtPriceLimitX96: common.Big0}
	if !native {
		before := tr.balance(tok.Quote)
		tr.mine(sr.ExactInputSingle(tr.opts, params))
		tr.expect("quote for the V3 sale", new(big.Int).Sub(tr.balance(tok.Quote), before), want)
		return
	}
	parsed, err := uniswap.SwapRouter02MetaData.GetAbi()
	if err != nil {
		tr.t.Fatal(err)
	}
	params.Recipient = uniswap.RecipientThis
	swap, err := parsed.Pack("exactInputSingle", params)
	if err != nil {
		tr.t.Fatal(err)
	}
	unwrap := packSig(tr.t, uniswap.SwapRouter02MetaData, "unwrapWETH9(uint256,address)", want, tr.opts.From)
	multicall := packSig(tr.t, uniswap.SwapRouter02MetaData, "multicall(uint256,bytes[])", tr.deadline(), [][]byte{swap, unwrap})
	before := tr.balance(common.Address{})
	gas := tr.mine(bind.NewBoundContract(tr.d.SwapRouter02, *parsed, tr.ec, tr.ec, tr.ec).RawTransact(tr.opts, multicall))
	got := new(big.Int).Sub(tr.balance(common.Address{}), before)
	tr.expect("native coin for the V3 sale", got.Add(got, gas), want)
}

// packSig packs a call of the method with the signature sig, which tells
// SwapRouter02's overloads apart.
func packSig(t *testing.T, meta *bind.MetaData, sig string, args ...any) []byte {
	t.Helper()
	parsed, err := meta.GetAbi()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range parsed.Methods {
		if m.Sig == sig {
			in, err := m.Inputs.Pack(args...)
			if err != nil {
				t.Fatalf("pack %s: %v", sig, err)
			}
			return append(append([]byte(nil), m.ID...), in...)
		}
	}
	t.Fatalf("no method %s", sig)
	return nil
}

// checkV3Pool checks a V3 token's pool: the factory's, with the official
// code, at the price of the amounts pooled, over the full range.
func checkV3Pool(t *testing.T, tr *trader, tok Token, pooled, liquidity *big.Int) {
	t.Helper()
	v3, _ := uniswap.NewUniswapV3Factory(tr.d.V3Factory, tr.ec)
	if p, err := v3.GetPool(nil, tok.Address, tok.Quote, big.NewInt(int64(tok.FeeTier))); err != nil || p != tok.Pool {
		t.Fatalf("factory's pool %s, %v; CreateToken said %s", p, err, tok.Pool)
	}
	if err := uniswap.CheckCode(testCtx(t), tr.ec, uniswap.NameUniswapV3Pool, tok.Pool); err != nil {
		t.Fatal(err)
	}
	pool, _ := uniswap.NewUniswapV3Pool(tok.Pool, tr.ec)
	slot0, err := pool.Slot0(nil)
	if err != nil {
		t.Fatal(err)
	}
	amount0, amount1 := pooled, liquidity
	if t0, _ := uniswap.SortTokens(tok.Address, tok.Quote); t0 != tok.Address {
		amount0, amount1 = liquidity, pooled
	}
	tr.expect("sqrtPriceX96", slot0.SqrtPriceX96, uniswap.SqrtPriceX96(amount0, amount1))
	// Full range: the pool's liquidity is in range at any price and takes
	// the quote but for the rounding of the liquidity.
	if l, err := pool.Liquidity(nil); err != nil || l.Sign() <= 0 {
		t.Fatalf("pool liquidity %v, %v", l, err)
	}
	got, err := tr.c.Balance(testCtx(t), tok.Pool, tok.Quote.Hex())
	if err != nil {
		t.Fatal(err)
	}
	if short := new(big.Int).Sub(liquidity, got); short.Sign() < 0 || short.Cmp(new(big.Int).Quo(liquidity, big.NewInt(1e9))) > 0 {
		t.Fatalf("pool holds %s of the %s quote pooled", got, liquidity)
	}
}

// TestCreateAndTradeTokens creates V2 and V3 tokens against the native coin
// (on arc, against its native token) and a stable, on every fee tier, and
// trades each with a plain call of the official Router02 or SwapRouter02
// from a wallet of its own: a buy, then a sale of half of what was bought,
// each paying exactly what the pair's x*y=k or QuoterV2 said beforehand.
func TestCreateAndTradeTokens(t *testing.T) {
	creator := common.HexToAddress("0x00000000000000000000000000000000c0ffee02")
	tests := []struct {
		chain, venue string
		fee          uint32 // asked for; 0 is the default
		quote        string // "" for the native coin
		liquidity    *big.Int
		// wantFee is the pool's fee tier, wantQuote the quote token's
		// symbol, buy what the trader spends.
		wantFee   uint32
		wantQuote string
		buy       *big.Int
	}{
		{"eth", VenueV2, 0, "", nil, 0, "WETH", wholeUnits(1, 17)},
		{"eth", VenueV2, 0, "USDT", wholeUnits(20_000, 6), 0, "USDT", wholeUnits(300, 6)},
		{"arc", "", 0, "", nil, 0, "USDC", wholeUnits(200, 6)},
		{"rbh", VenueV3, 100, "", nil, 100, "WETH", wholeUnits(1, 17)},
		{"rbh", VenueV3, 100, "USDG", nil, 100, "USDG", wholeUnits(300, 6)},
		{"base", VenueV3, 500, "", wholeUnits(5, 18), 500, "WETH", wholeUnits(1, 17)},
		{"base", VenueV3, 500, "USDC", wholeUnits(50_000, 6), 500, "USDC", wholeUnits(300, 6)},
		{"eth", VenueV3, 3000, "", nil, 3000, "WETH", wholeUnits(1, 17)},
		{"eth", "V3", 0, "usdc", nil, 3000, "USDC", wholeUnits(300, 6)},
		{"bsc", VenueV3, 10000, "BNB", nil, 10000, "WBNB", wholeUnits(1, 17)},
		{"bsc", VenueV3, 10000, "USD1", wholeUnits(40_000, 18), 10000, "USD1", wholeUnits(300, 18)},
		{"arc", VenueV3, 0, "USDC", nil, 3000, "USDC", wholeUnits(200, 6)},
		{"arc", VenueV3, 100, "", wholeUnits(5_000, 6), 100, "USDC", wholeUnits(200, 6)},
	}
	for _, tt := range tests {
		venue := tt.venue
		if venue == "" {
			venue = "default venue"
		}
		t.Run(fmt.Sprintf("%s %s %d %s", tt.chain, venue, tt.wantFee, tt.wantQuote), func(t *testing.T) {
			tr := newTrader(t, tt.chain)
			d := tr.d
			tok, err := tr.c.CreateToken(testCtx(t), TokenRequest{Name: "Venue " + tt.chain, Symbol: "VEN", Venue: tt.venue,
				FeeTier: tt.fee, Quote: tt.quote, Liquidity: tt.liquidity, Creator: creator})
			if err != nil {
				t.Fatal(err)
			}
			// On arc the quote is the native token, traded as a stable is.
			quote, native := d.Stables[tt.wantQuote], false
			switch {
			case d.NativeToken != (common.Address{}):
				quote = d.NativeToken
			case quote == (common.Address{}):
				quote, native = d.WrappedNative, true
			}
			wantVenue := VenueV2
			if tt.wantFee != 0 {
				wantVenue = VenueV3
			}
			if tok.Quote != quote || tok.Venue != wantVenue || tok.FeeTier != tt.wantFee {
				t.Fatalf("token quote %s venue %s fee %d; want %s %s %d", tok.Quote, tok.Venue, tok.FeeTier, quote, wantVenue, tt.wantFee)
			}
			liquidity := tt.liquidity
			if liquidity == nil {
				switch {
				case native:
					liquidity = tr.c.spec.nativeForUSD(defaultTokenUSD)
				case quote == d.NativeToken:
					liquidity = wholeUnits(defaultTokenUSD, 6)
				default:
					liquidity = wholeUnits(defaultTokenUSD, int(d.StableDecimals[tt.wantQuote]))
				}
			}
			if !native {
				if err := tr.c.FundToken(testCtx(t), tr.opts.From, tt.wantQuote, tt.buy); err != nil {
					t.Fatal(err)
				}
			}
			_, pooled, share := tokenSupply()
			if b, err := tr.c.Balance(testCtx(t), creator, tok.Address.Hex()); err != nil || b.Cmp(share) < 0 {
				t.Fatalf("creator holds %s, %v; want at least %s", b, err, share)
			}
			if wantVenue == VenueV2 {
				if tok.Pool != tok.Pair || tok.Pool != uniswap.V2PairAddress(d.Factory, tok.Address, quote) {
					t.Fatalf("pool %s pair %s", tok.Pool, tok.Pair)
				}
				if err := uniswap.CheckCode(testCtx(t), tr.ec, uniswap.NameUniswapV2Pair, tok.Pool); err != nil {
					t.Fatal(err)
				}
				for what, want := range map[common.Address]*big.Int{tok.Address: pooled, quote: liquidity} {
					if b, err := tr.c.Balance(testCtx(t), tok.Pool, what.Hex()); err != nil || b.Cmp(want) != 0 {
						t.Fatalf("pair holds %s of %s, %v; want %s", b, what, err, want)
					}
				}
				tr.buyV2(tok, native, tt.buy)
				tr.sellV2(tok, native, new(big.Int).Quo(tr.balance(tok.Address), big.NewInt(2)))
				return
			}
			if tok.Pair != (common.Address{}) || tok.Pool != uniswap.V3PoolAddress(d.V3Factory, tok.Address, quote, tt.wantFee) {
				t.Fatalf("pool %s pair %s", tok.Pool, tok.Pair)
			}
			checkV3Pool(t, tr, tok, pooled, liquidity)
			tr.buyV3(tok, native, tt.buy)
			tr.sellV3(tok, native, new(big.Int).Quo(tr.balance(tok.Address), big.NewInt(2)))
		})
	}
}

// TestCreateTokenRefusals asks for tokens the chain cannot make: each is
// refused naming the field, and nothing is deployed.
func TestCreateTokenRefusals(t *testing.T) {
	c := chainOf(t, "base")
	tests := []struct {
		name  string
		req   TokenRequest
		field string
	}{
		{"unknown venue", TokenRequest{Name: "X", Symbol: "X", Venue: "v4"}, "venue"},
		{"fee tier not enabled", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV3, FeeTier: 2500}, "feeTier"},
		{"fee tier on v2", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV2, FeeTier: 3000}, "feeTier"},
		{"buy tax on v3", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV3, BuyTaxBps: 100}, "buyTaxBps"},
		{"sell tax on v3", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV3, FeeTier: 500, SellTaxBps: 1}, "sellTaxBps"},
		{"tax above 100% on v2", TokenRequest{Name: "X", Symbol: "X", BuyTaxBps: 10_001}, "buyTaxBps"},
		{"quote of another chain", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV3, Quote: "USDT"}, "quote"},
		{"zero liquidity", TokenRequest{Name: "X", Symbol: "X", Venue: VenueV3, Liquidity: new(big.Int)}, "liquidity"},
	}
	before, err := c.Client().NonceAt(testCtx(t), DeployerAddress, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.CreateToken(testCtx(t), tt.req)
			fe, ok := err.(*FieldError)
			if !ok || fe.Field != tt.field {
				t.Fatalf("error %v, want one naming %s", err, tt.field)
			}
		})
	}
	if after, err := c.Client().NonceAt(testCtx(t), DeployerAddress, nil); err != nil || after != before {
		t.Fatalf("deployer nonce %d after the refusals, %v; want %d", after, err, before)
	}
}

// TestTaxProbeOnRouter02 runs the project's TaxProbe by eth_call against
// the official Router02: the probe uses only functions the official router
// has, so the look-alike router is not needed to measure a token's tax.
func TestTaxProbeOnRouter02(t *testing.T) {
	tests := []struct {
		chain, quote    string
		buyBps, sellBps uint64
		amountIn        *big.Int
	}{
		{"eth", "", 500, 1000, wholeUnits(1, 15)},
		{"eth", "USDC", 300, 700, wholeUnits(1, 6)},
		{"bsc", "", 0, 10_000, wholeUnits(1, 15)},
		{"rbh", "USDG", 0, 0, wholeUnits(1, 6)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s %d/%d", tt.chain, tt.quote, tt.buyBps, tt.sellBps), func(t *testing.T) {
			c := chainOf(t, tt.chain)
			_, rc := dial(t, tt.chain, "")
			tok, err := c.CreateToken(testCtx(t), TokenRequest{Name: "Probe", Symbol: "PRB", Quote: tt.quote,
				BuyTaxBps: tt.buyBps, SellTaxBps: tt.sellBps})
			if err != nil {
				t.Fatal(err)
			}
			buy, sell, err := contracts.ProbeTax(testCtx(t), rc, c.Deployment().Router02, tok.Address, tok.Quote, tt.amountIn)
			if err != nil || buy != tt.buyBps || sell != tt.sellBps {
				t.Fatalf("probe on Router02: buy %d sell %d, %v; want %d and %d", buy, sell, err, tt.buyBps, tt.sellBps)
			}
		})
	}
}
