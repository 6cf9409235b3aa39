package contracts_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/devnet/evm"
	. "github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// dex is the official Uniswap set, the exchange the project's tokens trade
// on everywhere, deployed by a test key on a fresh local chain (the real
// EVM behind a go-ethereum node) with the project's WrappedNative as its
// WETH9 and a Stable beside it.
type dex struct {
	t        *testing.T
	chain    *evm.Chain
	client   *ethclient.Client
	owner    *bind.TransactOpts
	trader   *bind.TransactOpts
	traderK  *ecdsa.PrivateKey
	taxes    common.Address // tax wallet of every token
	weth     common.Address
	usdc     common.Address
	factory  common.Address
	router   *uniswap.UniswapV2Router02
	routerA  common.Address
	stable   *Stable
	deadline *big.Int
}

func newDex(t *testing.T) *dex {
	t.Helper()
	ownerKey, _ := crypto.GenerateKey()
	traderKey, _ := crypto.GenerateKey()
	taxKey, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(ownerKey.PublicKey)
	trader := crypto.PubkeyToAddress(traderKey.PublicKey)
	chain, err := evm.NewChain(evm.ChainConfig{Name: "eth", Alloc: map[common.Address]*big.Int{
		owner:  ether(1_000_000),
		trader: ether(1_000),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	d := &dex{t: t, chain: chain, client: chain.Client(), traderK: traderKey,
		taxes: crypto.PubkeyToAddress(taxKey.PublicKey), deadline: big.NewInt(time.Now().Add(time.Hour).Unix())}
	if d.owner, err = bind.NewKeyedTransactorWithChainID(ownerKey, chain.ChainID()); err != nil {
		t.Fatal(err)
	}
	if d.trader, err = bind.NewKeyedTransactorWithChainID(traderKey, chain.ChainID()); err != nil {
		t.Fatal(err)
	}
	// An official pair's first swap in a later second than its last update
	// writes its two price accumulators, which a gas estimate made within
	// that second leaves out; unused gas is not paid for.
	d.trader.GasLimit = 1_000_000

	var tx *types.Transaction
	d.weth, tx, _, err = DeployWrappedNative(d.owner, d.client, "Wrapped Ether", "WETH")
	d.mine(tx, err)
	d.usdc, tx, d.stable, err = DeployStable(d.owner, d.client, "USD Coin", "USDC", 6)
	d.mine(tx, err)
	a, err := uniswap.Deploy(context.Background(), d.client, d.owner, d.weth)
	if err != nil {
		t.Fatal(err)
	}
	d.factory, d.routerA = a.V2Factory, a.V2Router02
	if d.router, err = uniswap.NewUniswapV2Router02(d.routerA, d.client); err != nil {
		t.Fatal(err)
	}

	// The USD pair: 1000 ETH against 3,000,000 USDC.
	tx, err = d.stable.Mint(d.owner, owner, units(3_000_000, 6))
	d.mine(tx, err)
	tx, err = d.stable.Approve(d.owner, d.routerA, abiMax())
	d.mine(tx, err)
	d.owner.Value = ether(1000)
	tx, err = d.router.AddLiquidityETH(d.owner, d.usdc, units(3_000_000, 6), common.Big0, common.Big0, owner, d.deadline)
	d.owner.Value = nil
	d.mine(tx, err)
	return d
}

func abiMax() *big.Int { return new(big.Int).Sub(new(big.Int).Lsh(common.Big1, 256), common.Big1) }

// mine waits for the block holding tx and checks that it succeeded.
func (d *dex) mine(tx *types.Transaction, err error) *types.Receipt {
	d.t.Helper()
	if err != nil {
		d.t.Fatalf("send: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := d.chain.WaitMined(ctx, tx.Hash())
	if err != nil {
		d.t.Fatalf("mine: %v", err)
	}
	return r
}

// token deploys a TaxToken with 1,000,000 supply whose pair against quote
// gets `tokens` of it and `quoteAmount` of the quote.
func (d *dex) token(buyBps, sellBps int64, quote common.Address, tokens, quoteAmount *big.Int) (common.Address, *TaxToken) {
	d.t.Helper()
	addr, tx, tok, err := DeployTaxToken(d.owner, d.client, "Test", "TST", ether(1_000_000),
		big.NewInt(buyBps), big.NewInt(sellBps), d.taxes, d.factory, quote)
	d.mine(tx, err)
	tx, err = tok.Approve(d.owner, d.routerA, abiMax())
	d.mine(tx, err)
	if quote == d.weth {
		d.owner.Value = quoteAmount
		tx, err = d.router.AddLiquidityETH(d.owner, addr, tokens, common.Big0, common.Big0, d.owner.From, d.deadline)
		d.owner.Value = nil
	} else {
		tx, err = d.router.AddLiquidity(d.owner, addr, quote, tokens, quoteAmount, common.Big0, common.Big0, d.owner.From, d.deadline)
	}
	d.mine(tx, err)
	return addr, tok
}

func (d *dex) balance(token, holder common.Address) *big.Int {
	d.t.Helper()
	if token == (common.Address{}) {
		b, err := d.client.BalanceAt(context.Background(), holder, nil)
		if err != nil {
			d.t.Fatal(err)
		}
		return b
	}
	e, err := NewERC20(token, d.client)
	if err != nil {
		d.t.Fatal(err)
	}
	b, err := e.BalanceOf(nil, holder)
	if err != nil {
		d.t.Fatal(err)
	}
	return b
}

func (d *dex) amountOut(amountIn *big.Int, path ...common.Address) *big.Int {
	d.t.Helper()
	out, err := d.router.GetAmountsOut(nil, amountIn, path)
	if err != nil {
		d.t.Fatal(err)
	}
	return out[len(out)-1]
}

// gasCost is what the sender of r paid for gas.
func gasCost(r *types.Receipt) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

func taxOf(amount *big.Int, bps int64) *big.Int {
	return new(big.Int).Div(new(big.Int).Mul(amount, big.NewInt(bps)), big.NewInt(10_000))
}

// TestBuyAndSellThroughRouter trades TaxTokens on their official V2 pair
// through UniswapV2Router02: the trader gets what x*y=k pays less the buy
// tax, and the pair what it is sent less the sell tax.
func TestBuyAndSellThroughRouter(t *testing.T) {
	d := newDex(t)
	tests := []struct {
		name             string
		buyBps, sellBps  int64
		supportingFeeFns bool
	}{
		{"tax free, plain V2 functions", 0, 0, false},
		{"tax free, fee-on-transfer functions", 0, 0, true},
		{"5% buy 10% sell", 500, 1000, true},
		{"25% buy 0% sell", 2500, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d.t = t
			token, _ := d.token(tt.buyBps, tt.sellBps, d.weth, ether(500_000), ether(100))
			trader := d.trader.From
			path := []common.Address{d.weth, token}

			// Buy with 1 ETH: the pool pays `out`, the tax wallet takes its cut.
			out := d.amountOut(ether(1), path...)
			taxBefore := d.balance(token, d.taxes)
			d.trader.Value = ether(1)
			var tx *types.Transaction
			var err error
			if tt.supportingFeeFns {
				tx, err = d.router.SwapExactETHForTokensSupportingFeeOnTransferTokens(d.trader, common.Big0, path, trader, d.deadline)
			} else {
				tx, err = d.router.SwapExactETHForTokens(d.trader, out, path, trader, d.deadline)
			}
			d.trader.Value = nil
			d.mine(tx, err)
			buyTax := taxOf(out, tt.buyBps)
			if got, want := d.balance(token, trader), new(big.Int).Sub(out, buyTax); got.Cmp(want) != 0 {
				t.Fatalf("trader got %s tokens, want %s", got, want)
			}
			if got := new(big.Int).Sub(d.balance(token, d.taxes), taxBefore); got.Cmp(buyTax) != 0 {
				t.Fatalf("tax wallet got %s on the buy, want %s", got, buyTax)
			}

			// Sell everything back: the pair receives the amount less the
			// sell tax, and pays out native coin for what it received.
			held := d.balance(token, trader)
			tok, _ := NewTaxToken(token, d.client)
			d.mine(tok.Approve(d.trader, d.routerA, held))
			sellTax := taxOf(held, tt.sellBps)
			wantOut := d.amountOut(new(big.Int).Sub(held, sellTax), token, d.weth)
			ethBefore := d.balance(common.Address{}, trader)
			taxBefore = d.balance(token, d.taxes)
			if tt.supportingFeeFns {
				tx, err = d.router.SwapExactTokensForETHSupportingFeeOnTransferTokens(d.trader, held, wantOut, []common.Address{token, d.weth}, trader, d.deadline)
			} else {
				tx, err = d.router.SwapExactTokensForETH(d.trader, held, wantOut, []common.Address{token, d.weth}, trader, d.deadline)
			}
			r := d.mine(tx, err)
			gotOut := new(big.Int).Sub(d.balance(common.Address{}, trader), ethBefore)
			gotOut.Add(gotOut, gasCost(r))
			if gotOut.Cmp(wantOut) != 0 {
				t.Fatalf("sell paid %s wei, want %s", gotOut, wantOut)
			}
			if got := new(big.Int).Sub(d.balance(token, d.taxes), taxBefore); got.Cmp(sellTax) != 0 {
				t.Fatalf("tax wallet got %s on the sell, want %s", got, sellTax)
			}
			if b := d.balance(token, trader); b.Sign() != 0 {
				t.Fatalf("trader still holds %s tokens", b)
			}
		})
	}
}

func TestMultiHopTokensForTokens(t *testing.T) {
	d := newDex(t)
	token, _ := d.token(0, 0, d.weth, ether(500_000), ether(100))
	trader := d.trader.From
	d.mine(d.stable.Mint(d.owner, trader, units(1_000, 6)))
	d.mine(d.stable.Approve(d.trader, d.routerA, abiMax()))
	path := []common.Address{d.usdc, d.weth, token}
	want := d.amountOut(units(1_000, 6), path...)
	d.mine(d.router.SwapExactTokensForTokens(d.trader, units(1_000, 6), want, path, trader, d.deadline))
	if got := d.balance(token, trader); got.Cmp(want) != 0 {
		t.Fatalf("trader got %s, want %s", got, want)
	}
	if got := d.balance(d.usdc, trader); got.Sign() != 0 {
		t.Fatalf("trader kept %s USDC", got)
	}
}

func TestTaxProbe(t *testing.T) {
	d := newDex(t)
	rc := d.chain.RPC()
	// A plain stable coin traded against WETH, like a token without rules.
	plainAddr, tx, plain, err := DeployStable(d.owner, d.client, "Plain", "PLN", 18)
	d.mine(tx, err)
	d.mine(plain.Mint(d.owner, d.owner.From, ether(1_000_000)))
	d.mine(plain.Approve(d.owner, d.routerA, abiMax()))
	d.owner.Value = ether(100)
	tx, err = d.router.AddLiquidityETH(d.owner, plainAddr, ether(500_000), common.Big0, common.Big0, d.owner.From, d.deadline)
	d.owner.Value = nil
	d.mine(tx, err)

	tests := []struct {
		name            string
		buyBps, sellBps int64
		stableQuote     bool
		plainToken      bool
		amountIn        *big.Int
	}{
		{"native quote, 5% buy 10% sell", 500, 1000, false, false, big.NewInt(1e15)},
		{"stable quote, 5% buy 10% sell", 500, 1000, true, false, units(1, 6)},
		{"native quote, tax-free tax token", 0, 0, false, false, big.NewInt(1e15)},
		{"stable quote, tax-free tax token", 0, 0, true, false, units(1, 6)},
		{"native quote, plain ERC-20", 0, 0, false, true, big.NewInt(1e15)},
		{"native quote, cannot be sold", 300, 10_000, false, false, big.NewInt(1e15)},
		{"stable quote, cannot be sold", 0, 10_000, true, false, units(1, 6)},
		{"native quote, 99% buy", 9_900, 0, false, false, big.NewInt(1e15)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d.t = t
			quote := d.weth
			if tt.stableQuote {
				quote = d.usdc
				d.mine(d.stable.Mint(d.owner, d.owner.From, units(300_000, 6)))
			}
			token := plainAddr
			if !tt.plainToken {
				quoteLiq := ether(100)
				if tt.stableQuote {
					quoteLiq = units(300_000, 6)
				}
				token, _ = d.token(tt.buyBps, tt.sellBps, quote, ether(500_000), quoteLiq)
			}
			probeQuote := quote
			if !tt.stableQuote && tt.buyBps == 0 {
				probeQuote = common.Address{} // zero also means native
			}
			buy, sell, err := ProbeTax(context.Background(), rc, d.routerA, token, probeQuote, tt.amountIn)
			if err != nil {
				t.Fatal(err)
			}
			if buy != uint64(tt.buyBps) || sell != uint64(tt.sellBps) {
				t.Fatalf("probed buy %d sell %d bps, want %d and %d", buy, sell, tt.buyBps, tt.sellBps)
			}
		})
	}

	// The documented alternative for a stable quote: no native coin, the
	// probe's stable balance set by a storage override of balanceOf (slot 0).
	t.Run("stable quote by storage override", func(t *testing.T) {
		d.t = t
		d.mine(d.stable.Mint(d.owner, d.owner.From, units(300_000, 6)))
		token, _ := d.token(700, 1200, d.usdc, ether(500_000), units(300_000, 6))
		parsed, _ := TaxProbeMetaData.GetAbi()
		data, err := parsed.Pack("probe", d.routerA, token, d.usdc, units(5, 6))
		if err != nil {
			t.Fatal(err)
		}
		slot := crypto.Keccak256Hash(common.LeftPadBytes(TaxProbeAddress[:], 32), make([]byte, 32))
		overrides := map[common.Address]ethereum.OverrideAccount{
			TaxProbeAddress: {Code: TaxProbeRuntime, Balance: new(big.Int)},
			d.usdc:          {StateDiff: map[common.Hash]common.Hash{slot: common.BigToHash(units(5, 6))}},
		}
		var out hexutil.Bytes
		call := map[string]any{"to": TaxProbeAddress, "input": hexutil.Bytes(data)}
		if err := rc.CallContext(context.Background(), &out, "eth_call", call, "latest", overrides); err != nil {
			t.Fatal(err)
		}
		res, err := parsed.Unpack("probe", out)
		if err != nil {
			t.Fatal(err)
		}
		if buy, sell := res[0].(*big.Int), res[1].(*big.Int); buy.Int64() != 700 || sell.Int64() != 1200 {
			t.Fatalf("probed buy %s sell %s bps, want 700 and 1200", buy, sell)
		}
	})

	t.Run("no pair reverts", func(t *testing.T) {
		d.t = t
		if _, _, err := ProbeTax(context.Background(), rc, d.routerA, common.HexToAddress("0x1234"), d.weth, big.NewInt(1e15)); err == nil {
			t.Fatal("probing a token without a pair succeeded")
		}
	})
}
