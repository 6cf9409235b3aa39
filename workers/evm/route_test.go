package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// addV3 pools tokens (whole units) of token against native whole coins in
// its V3 pool of the fee tier, from lp, at the ratio of the two amounts.
func (e *env) addV3(t testing.TB, chain string, lp *bindKey, token common.Address, fee uint32, tokens, native string) common.Address {
	t.Helper()
	ctx := context.Background()
	c := e.dev.chain(t, chain)
	d := c.Deployment()
	if err := c.FundToken(ctx, lp.addr, token.Hex(), units(t, tokens, 18)); err != nil {
		t.Fatal(err)
	}
	weth, err := contracts.NewWrappedNative(d.WrappedNative, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	o := lp.opts(t, c)
	o.Value = units(t, native, 18)
	tx, err := weth.Deposit(o)
	waitTx(t, c, tx, err)
	pos, err := uniswap.AddLiquidityV3(ctx, c.Client(), lp.opts(t, c), d.Uniswap(), token, d.WrappedNative, fee,
		units(t, tokens, 18), units(t, native, 18), lp.addr)
	if err != nil {
		t.Fatal(err)
	}
	return pos.Pool
}

// quotesOf computes, independently of the signer, what each pool of token
// pays for amountIn of the side's input: the V2 pair from its reserves,
// each V3 pool from QuoterV2. Absent pools are left out.
func quotesOf(t testing.TB, c *devevm.Chain, token common.Address, side wire.Side, amountIn *big.Int) map[string]*big.Int {
	t.Helper()
	ctx := context.Background()
	d := c.Deployment()
	in, out := d.WrappedNative, token
	if side == wire.Sell {
		in, out = token, d.WrappedNative
	}
	got := map[string]*big.Int{}
	pair, err := uniswap.NewUniswapV2Pair(uniswap.V2PairAddress(d.Factory, token, d.WrappedNative), c.Client())
	if err != nil {
		t.Fatal(err)
	}
	if r, err := pair.GetReserves(nil); err == nil {
		rIn, rOut := r.Reserve0, r.Reserve1
		if t0, _ := uniswap.SortTokens(in, out); t0 != in {
			rIn, rOut = rOut, rIn
		}
		got["v2"] = uniswap.V2AmountOut(amountIn, rIn, rOut)
	}
	for _, fee := range uniswap.FeeTiers() {
		q, err := uniswap.QuoteExactInputSingle(ctx, c.Client(), d.QuoterV2, nil, in, out, fee, amountIn)
		if err == nil {
			got[fmt.Sprintf("v3/%d", fee)] = q
		}
	}
	return got
}

// TestBestPool gives tokens a V2 pair and V3 pools of different depth and
// fee, and checks that each order trades on the pool that pays the most
// for its whole input, as computed here from the pair's reserves and
// QuoterV2: a ten times deeper V3 pool beats the pair, a shallow V3 pool
// loses a big buy to the pair but wins a small one with its lower fee, and
// a sell goes where it gets the most native coin. The route lists every
// pool in the documented format, the wallet receives exactly the winning
// quote, and the swap lands in that official pool.
func TestBestPool(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainEth
	c := e.dev.chain(t, chain)
	lp := newBindKey(t)
	e.fund(t, chain, lp.addr, "500", nil)
	// Default pairs: 900,000,000 tokens against 10 ETH.
	deep := e.tokenOn(t, chain, devevm.TokenRequest{})
	deepV3 := e.addV3(t, chain, lp, deep.Address, 3000, "9000000000", "100")
	e.addV3(t, chain, lp, deep.Address, 10000, "1800000000", "20")
	shallow := e.tokenOn(t, chain, devevm.TokenRequest{})
	shallowV3 := e.addV3(t, chain, lp, shallow.Address, 500, "90000000", "1")
	w := e.wallet(t, chain, "20", nil)

	tests := []struct {
		name     string
		token    common.Address
		side     wire.Side
		amount   string
		wantPool common.Address
		wantBest string
	}{
		{"a deeper V3 pool beats the V2 pair", deep.Address, wire.Buy, "1", deepV3, "v3/3000"},
		{"the deep pair beats a shallow V3 pool on a big buy", shallow.Address, wire.Buy, "1", shallow.Pool, "v2"},
		{"the shallow pool's lower fee wins a small buy", shallow.Address, wire.Buy, "0.001", shallowV3, "v3/500"},
		{"a sell goes where it gets the most", deep.Address, wire.Sell, "100", deepV3, "v3/3000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			amountIn := units(t, tt.amount, 18)
			if tt.side == wire.Sell {
				amountIn = e.balance(t, chain, w, tt.token.Hex())
			}
			quotes := quotesOf(t, c, tt.token, tt.side, amountIn)
			best := ""
			for label, q := range quotes {
				if best == "" || q.Cmp(quotes[best]) > 0 {
					best = label
				}
			}
			if best != tt.wantBest {
				t.Fatalf("the test's pools: best is %s of %v, want %s", best, quotes, tt.wantBest)
			}
			b, err := e.signer.Sign(ctx, e.job(chain, tt.side, tt.token, "", legOf(w, tt.amount)))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("route: %s", b.Route)
			if got, want := b.Route, wantRoute(tt.side, tt.wantPool, tt.wantBest, quotes, amountIn); got != want {
				t.Fatalf("route\n%q\nwant\n%q", got, want)
			}
			before := e.balance(t, chain, w, tt.token.Hex())
			nativeBefore := e.balance(t, chain, w, "")
			rs := e.broadcast(t, b)
			e.officialSwap(t, chain, b, rs, tt.wantPool)
			if tt.side == wire.Buy {
				if got := new(big.Int).Sub(e.balance(t, chain, w, tt.token.Hex()), before); got.Cmp(quotes[best]) != 0 {
					t.Fatalf("received %s tokens, want the winning quote %s", got, quotes[best])
				}
				return
			}
			got := new(big.Int).Sub(e.balance(t, chain, w, ""), nativeBefore)
			for _, r := range rs {
				got.Add(got, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
			}
			if got.Cmp(quotes[best]) != 0 {
				t.Fatalf("received %s wei, want the winning quote %s", got, quotes[best])
			}
		})
	}
}

// wantRoute is the documented route of an order on eth with the native
// coin.
func wantRoute(side wire.Side, pool common.Address, best string, quotes map[string]*big.Int, amountIn *big.Int) string {
	head := "uniswap_v2"
	if fee, ok := strings.CutPrefix(best, "v3/"); ok {
		head = "uniswap_v3 fee " + fee
	}
	var list []string
	for _, label := range []string{"v2", "v3/100", "v3/500", "v3/3000", "v3/10000"} {
		if q, ok := quotes[label]; ok {
			list = append(list, label+" "+wholeUnits(q, 18))
		}
	}
	units, in := "tokens", wholeUnits(amountIn, 18)+" ETH"
	if side == wire.Sell {
		units, in = "ETH", wholeUnits(amountIn, 18)+" tokens"
	}
	return fmt.Sprintf("%s pool %s on eth (ETH): best of %s %s for %s", head, pool.Hex(), strings.Join(list, ", "), units, in)
}

// TestWholeUnits pins the route's rendering of amounts.
func TestWholeUnits(t *testing.T) {
	tests := []struct {
		v    string
		dec  int
		want string
	}{
		{"1500000000000000000", 18, "1.5"},
		{"1234567891234567891", 18, "1.234567"},
		{"1000000000000000001", 18, "1"},
		{"999", 18, "0.000000000000000999"},
		{"25000000", 6, "25"},
		{"0", 18, "0"},
	}
	for _, tt := range tests {
		v, _ := new(big.Int).SetString(tt.v, 10)
		if got := wholeUnits(v, tt.dec); got != tt.want {
			t.Errorf("wholeUnits(%s, %d) = %q, want %q", tt.v, tt.dec, got, tt.want)
		}
	}
}

// TestV3LegsInOrder buys and then sells with three wallets in one order at
// no slippage in a V3 pool, and lands the swaps one after the other in
// the order's order: each leg's min-out is the quote of the legs so far
// less the quote of the legs before, so every swap lands, and gets at
// least its min-out and at most a few base units more.
func TestV3LegsInOrder(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainBase
	tok := e.tokenOn(t, chain, devevm.TokenRequest{Venue: devevm.VenueV3, FeeTier: 500})
	wallets := []common.Address{e.wallet(t, chain, "2", nil), e.wallet(t, chain, "2", nil), e.wallet(t, chain, "2", nil)}
	for _, side := range []wire.Side{wire.Buy, wire.Sell} {
		t.Run(string(side), func(t *testing.T) {
			amounts := []string{"0.3", "0.2", "0.5"}
			if side == wire.Sell {
				amounts = []string{"100", "100", "100"}
			}
			legs := make([]wire.Leg, len(wallets))
			for i, w := range wallets {
				legs[i] = legOf(w, amounts[i])
			}
			job := e.job(chain, side, tok.Address, "", legs...)
			job.SlippageBps = 0
			b, err := e.signer.Sign(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			txs := decode(t, b)
			for i, stx := range b.Txs {
				if side == wire.Sell && i%2 == 0 {
					// Each wallet's approval of SwapRouter02 first.
					if err := e.sender[chain].Send(ctx, stx); err != nil {
						t.Fatal(err)
					}
					if _, err := e.dev.chain(t, chain).WaitMined(ctx, txs[i].Hash()); err != nil {
						t.Fatal(err)
					}
					continue
				}
				w := common.HexToAddress(stx.Wallet)
				minOut := exactInputMin(t, txs[i])
				before := e.balance(t, chain, w, tok.Address.Hex())
				if side == wire.Sell {
					before = e.balance(t, chain, w, "")
				}
				if err := e.sender[chain].Send(ctx, stx); err != nil {
					t.Fatal(err)
				}
				r, err := e.dev.chain(t, chain).WaitMined(ctx, txs[i].Hash())
				if err != nil || r.Status != 1 {
					t.Fatalf("leg %s: status %v, %v", stx.Wallet, r, err)
				}
				got := new(big.Int).Sub(e.balance(t, chain, w, tok.Address.Hex()), before)
				if side == wire.Sell {
					got = new(big.Int).Sub(e.balance(t, chain, w, ""), before)
					got.Add(got, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
				}
				// The slack is three base units of input's worth and three.
				if got.Cmp(minOut) < 0 || new(big.Int).Sub(got, minOut).Cmp(new(big.Int).Div(minOut, big.NewInt(1_000_000))) > 0 {
					t.Fatalf("leg %s received %s for a min-out of %s", stx.Wallet, got, minOut)
				}
			}
		})
	}
}

// exactInputMin reads amountOutMinimum of the exactInputSingle in a
// SwapRouter02 multicall.
func exactInputMin(t testing.TB, tx *types.Transaction) *big.Int {
	t.Helper()
	m, err := swapRouterABI.MethodById(tx.Data())
	if err != nil || m.Sig != sigMulticall {
		t.Fatalf("not a multicall(deadline, calls): %v", err)
	}
	args, err := m.Inputs.Unpack(tx.Data()[4:])
	if err != nil {
		t.Fatal(err)
	}
	first := args[1].([][]byte)[0]
	single, err := swapRouterABI.MethodById(first)
	if err != nil || single.Sig != sigExactInputSingle {
		t.Fatalf("first call is not exactInputSingle: %v", err)
	}
	p, err := single.Inputs.Unpack(first[4:])
	if err != nil {
		t.Fatal(err)
	}
	params := p[0].(struct {
		TokenIn           common.Address `json:"tokenIn"`
		TokenOut          common.Address `json:"tokenOut"`
		Fee               *big.Int       `json:"fee"`
		Recipient         common.Address `json:"recipient"`
		AmountIn          *big.Int       `json:"amountIn"`
		AmountOutMinimum  *big.Int       `json:"amountOutMinimum"`
		SqrtPriceLimitX96 *big.Int       `json:"sqrtPriceLimitX96"`
	})
	return params.AmountOutMinimum
}

// TestNativePricedByV3Pool prices the native coin on a chain whose pricing
// stable has no V2 pair with the wrapped native coin, only a V3 pool: the
// pool's slot0 gives the price. The "stable" here is a V3 token of the
// local chain standing in for one (18 decimals, 90,000,000 to the coin).
func TestNativePricedByV3Pool(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainEth
	c := e.dev.chain(t, chain)
	stand := e.tokenOn(t, chain, devevm.TokenRequest{Venue: devevm.VenueV3, FeeTier: 500})
	tok := e.token(t, chain, "", 0, 0) // a V2 pair of 10 coins
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		cc := configOf(e.dev.chain(t, name).Deployment())
		if name == chain {
			cc.Quotes = map[string]common.Address{"USDC": stand.Address, "USDT": cc.Quotes["USDT"]}
			cc.USDPricing = USDPricing{Stable: "USDC"}
		}
		list = append(list, Chain{ChainConfig: cc, Client: NewClient(e.dial(t, e.dev.url(name)))})
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := uniswap.NewUniswapV3Pool(stand.Pool, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	slot0, err := pool.Slot0(nil)
	if err != nil {
		t.Fatal(err)
	}
	price := new(big.Rat).SetFrac(new(big.Int).Mul(slot0.SqrtPriceX96, slot0.SqrtPriceX96), new(big.Int).Lsh(big.NewInt(1), 192))
	if t0, _ := uniswap.SortTokens(stand.Address, c.Deployment().WrappedNative); t0 == stand.Address {
		price.Inv(price) // stand-ins per wrapped coin
	}
	want := new(big.Rat).Mul(price, big.NewRat(20, 1)).FloatString(2) // twice the pair's 10 coins
	w := e.wallet(t, chain, "1", nil)
	job := e.job(chain, wire.Buy, tok.Address, "", legOf(w, "0.01"))
	huge := 1e18
	job.MinLiquidityUSD = &huge
	_, err = s.Sign(ctx, job)
	wantCode(t, err, apierr.LiquidityOutOfRange, want)
}

// failingBatch is a chain whose node refuses every batch of calls.
type failingBatch struct{ ChainClient }

func (failingBatch) BatchCallContext(context.Context, []rpc.BatchElem) error {
	return errors.New("connection reset")
}

// TestRoutingReadsFail: a chain whose quotes cannot be read fails the
// order with an error worth retrying, not a business answer; with the
// chain omitted, another chain's pool still trades.
func TestRoutingReadsFail(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		var client ChainClient = NewClient(e.dial(t, e.dev.url(name)))
		if name == wire.ChainEth {
			client = failingBatch{client}
		}
		list = append(list, Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: client})
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	onBase := newBindKey(t).deployOn(t, e, wire.ChainBase, "10")
	w := e.wallet(t, wire.ChainBase, "1", nil)
	_, err = s.Sign(ctx, e.job(wire.ChainEth, wire.Buy, onBase, "", legOf(w, "0.01")))
	var ae *apierr.Error
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("eth unreadable: %v, want a plain error saying why", err)
	}
	b, err := s.Sign(ctx, e.job("", wire.Buy, onBase, "", legOf(w, "0.01")))
	if err != nil || b.Chain != wire.ChainBase {
		t.Fatalf("chain omitted: %v, chain %v; want base", err, b)
	}
	e.broadcast(t, b)
}

// TestPoolOfAnotherQuote: a buy naming a pool quoted in another of the
// chain's quote assets than its own is TOKEN_NOT_FOUND saying which
// quote_asset buys there; naming it buys there.
func TestPoolOfAnotherQuote(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3, Quote: "USDC"})
	w := e.wallet(t, wire.ChainEth, "1", map[string]string{"USDC": "100"})
	_, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Pool, "", legOf(w, "0.01")))
	ae := wantCode(t, err, apierr.TokenNotFound, tok.Pool.Hex())
	if !strings.Contains(ae.Message, "against USDC on eth") || !strings.Contains(ae.Message, "quote_asset USDC") {
		t.Fatalf("message %q does not name the pool's quote asset", ae.Message)
	}
	b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Pool, "USDC", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
}

// TestV3NativeBuyGetsItsChangeBack: a V3 pool whose liquidity sits in a
// narrow range (as most real pools' does) runs out before a large native
// buy is spent; the pool takes only what it used, and what is left of the
// value comes back to the wallet in the same call, never left in
// SwapRouter02 for anyone's refundETH.
func TestV3NativeBuyGetsItsChangeBack(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = "eth"
	c := e.dev.chain(t, chain)
	d := c.Deployment()
	k := newBindKey(t)
	e.fund(t, chain, k.addr, "1000", nil)

	supply := units(t, "1000000", 18)
	token, tx, _, err := contracts.DeployTaxToken(k.opts(t, c), c.Client(), "Thin", "THIN", supply, new(big.Int), new(big.Int),
		common.Address{}, common.Address{}, d.WrappedNative)
	waitTx(t, c, tx, err)

	// Pool at price 1:1 (tick 0), one token-only position next to it.
	const fee = 3000
	t0, t1 := uniswap.SortTokens(token, d.WrappedNative)
	pm, err := uniswap.NewNonfungiblePositionManager(d.PositionManager, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	tx, err = pm.CreateAndInitializePoolIfNecessary(k.opts(t, c), t0, t1, big.NewInt(fee), new(big.Int).Lsh(big.NewInt(1), 96))
	waitTx(t, c, tx, err)
	tok, _ := contracts.NewTaxToken(token, c.Client())
	tx, err = tok.Approve(k.opts(t, c), d.PositionManager, supply)
	waitTx(t, c, tx, err)
	one := units(t, "1", 18)
	p := uniswap.INonfungiblePositionManagerMintParams{Token0: t0, Token1: t1, Fee: big.NewInt(fee),
		Amount0Min: new(big.Int), Amount1Min: new(big.Int), Recipient: k.addr, Deadline: new(big.Int).Lsh(big.NewInt(1), 62)}
	if t0 == token { // buying token0 raises the price: a position above tick 0
		p.TickLower, p.TickUpper, p.Amount0Desired, p.Amount1Desired = big.NewInt(60), big.NewInt(600), one, new(big.Int)
	} else { // buying token1 lowers it: a position below tick 0
		p.TickLower, p.TickUpper, p.Amount0Desired, p.Amount1Desired = big.NewInt(-600), big.NewInt(-60), new(big.Int), one
	}
	opts := k.opts(t, c)
	opts.GasLimit = 6_000_000
	tx, err = pm.Mint(opts, p)
	waitTx(t, c, tx, err)

	w := e.wallet(t, chain, "20", nil)
	before := e.balance(t, chain, w, "")
	routerBefore, _ := c.Client().BalanceAt(ctx, d.SwapRouter02, nil)

	job := e.job(chain, wire.Buy, token, "", legOf(w, "10"))
	job.SlippageBps = 100
	b, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	e.broadcast(t, b)

	after := e.balance(t, chain, w, "")
	routerAfter, _ := c.Client().BalanceAt(ctx, d.SwapRouter02, nil)
	got, _ := tok.BalanceOf(&bind.CallOpts{}, w)
	stuck := new(big.Int).Sub(routerAfter, routerBefore)
	t.Logf("wallet spent %s ETH, received %s tokens; SwapRouter02 now holds %s ETH more",
		money.Format(new(big.Int).Sub(before, after), 18), money.Format(got, 18), money.Format(stuck, 18))

	if got.Sign() == 0 {
		t.Fatal("the buy got no tokens")
	}
	if stuck.Sign() != 0 {
		t.Fatalf("%s ETH of the wallet's buy stayed in SwapRouter02, for anyone's refundETH", money.Format(stuck, 18))
	}
	if spent := new(big.Int).Sub(before, after); spent.Cmp(units(t, "2", 18)) > 0 {
		t.Fatalf("the wallet spent %s ETH for what the pool held", money.Format(spent, 18))
	}
}
