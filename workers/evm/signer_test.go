package evm

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// buyAmount is a small buy in each quote asset.
func buyAmount(symbol string) string {
	switch symbol {
	case "ETH":
		return "0.01"
	case "BNB":
		return "0.05"
	default:
		return "25"
	}
}

// TestBuySellEveryQuote buys and sells on every chain in every quote asset
// the chain allows, with real signed transactions on the local chains: the
// buy spends exactly the amount, a sell of 50% sells half the balance after
// approving the router, the next sell needs no approval.
func TestBuySellEveryQuote(t *testing.T) {
	e := newEnv(t)
	for _, ch := range chains.OfFamily(wire.FamilyEVM) {
		for _, a := range ch.Assets {
			t.Run(ch.Name+"/"+a.Symbol, func(t *testing.T) {
				t.Parallel()
				quote := a.Symbol
				if a.Native {
					quote = "" // the pool of the wrapped native coin
				}
				tok := e.token(t, ch.Name, quote, 0, 0)
				stables := map[string]string{}
				if !a.Native {
					stables[a.Symbol] = "100"
				}
				native := "10"
				if ch.Name == wire.ChainArc {
					native = "1000" // the native coin is a dollar
				}
				w := e.wallet(t, ch.Name, native, stables)
				ctx := context.Background()

				// Buy.
				nativeBefore := e.balance(t, ch.Name, w, "")
				quoteBefore := e.balance(t, ch.Name, w, quote)
				b, err := e.signer.Sign(ctx, e.job(ch.Name, wire.Buy, tok.Address, a.Symbol, legOf(w, buyAmount(a.Symbol))))
				if err != nil {
					t.Fatal(err)
				}
				wantTxs := 1
				if !a.Native {
					wantTxs = 2 // the stable's approval, then the swap
				}
				if b.Chain != ch.Name || len(b.Txs) != wantTxs || !strings.Contains(b.Route, tok.Pair.Hex()) {
					t.Fatalf("batch chain %q, %d txs, route %q; want %s, %d txs, pair %s", b.Chain, len(b.Txs), b.Route, ch.Name, wantTxs, tok.Pair.Hex())
				}
				rs := e.broadcast(t, b)
				spent := units(t, buyAmount(a.Symbol), a.Decimals)
				if a.Native {
					var gas big.Int
					for _, r := range rs {
						gas.Add(&gas, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
					}
					if got := new(big.Int).Sub(nativeBefore, e.balance(t, ch.Name, w, "")); got.Cmp(new(big.Int).Add(spent, &gas)) != 0 {
						t.Fatalf("native spent %s, want %s + gas %s", got, spent, &gas)
					}
				} else if got := new(big.Int).Sub(quoteBefore, e.balance(t, ch.Name, w, quote)); got.Cmp(spent) != 0 {
					t.Fatalf("%s spent %s, want %s", a.Symbol, got, spent)
				}
				held := e.balance(t, ch.Name, w, tok.Address.Hex())
				if held.Sign() == 0 {
					t.Fatal("the buy landed but the wallet holds no tokens")
				}

				// Sell half: an approval and the swap.
				quoteBefore = e.balance(t, ch.Name, w, quote)
				b, err = e.signer.Sign(ctx, e.job(ch.Name, wire.Sell, tok.Address, a.Symbol, legOf(w, "50")))
				if err != nil {
					t.Fatal(err)
				}
				if len(b.Txs) != 2 {
					t.Fatalf("first sell: %d txs, want the approval and the swap", len(b.Txs))
				}
				e.broadcast(t, b)
				left := e.balance(t, ch.Name, w, tok.Address.Hex())
				if want := new(big.Int).Sub(held, new(big.Int).Quo(new(big.Int).Mul(held, big.NewInt(50)), big.NewInt(100))); left.Cmp(want) != 0 {
					t.Fatalf("after selling 50%% of %s the wallet holds %s, want %s", held, left, want)
				}
				if !a.Native && e.balance(t, ch.Name, w, quote).Cmp(quoteBefore) <= 0 {
					t.Fatalf("the sell paid no %s", a.Symbol)
				}

				// Sell the rest: approved already.
				b, err = e.signer.Sign(ctx, e.job(ch.Name, wire.Sell, tok.Address, a.Symbol, legOf(w, "100")))
				if err != nil {
					t.Fatal(err)
				}
				if len(b.Txs) != 1 {
					t.Fatalf("second sell: %d txs, want the swap alone", len(b.Txs))
				}
				e.broadcast(t, b)
				if got := e.balance(t, ch.Name, w, tok.Address.Hex()); got.Sign() != 0 {
					t.Fatalf("after selling 100%% the wallet holds %s", got)
				}
			})
		}
	}
}

// TestApprovalOnce signs two sells of one wallet before either lands: the
// second relies on the first one's approval, and both land in nonce order.
func TestApprovalOnce(t *testing.T) {
	e := newEnv(t)
	tok := e.token(t, wire.ChainBase, "", 0, 0)
	w := e.wallet(t, wire.ChainBase, "5", nil)
	ctx := context.Background()
	buy, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.1")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, buy)
	first, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Txs) != 2 || len(second.Txs) != 1 {
		t.Fatalf("txs %d and %d, want 2 (approval and swap) and 1", len(first.Txs), len(second.Txs))
	}
	f, s := decode(t, first), decode(t, second)
	if s[0].Nonce() != f[1].Nonce()+1 {
		t.Fatalf("second sell nonce %d after %d", s[0].Nonce(), f[1].Nonce())
	}
	if s[0].Gas() != DefaultConfig().SwapGasAfterApproval {
		t.Fatalf("a swap behind an unmined approval has gas %d, want the fixed %d", s[0].Gas(), DefaultConfig().SwapGasAfterApproval)
	}
	// The second batch reaches the chain first: it waits for its nonce.
	if err := e.sender[wire.ChainBase].Send(ctx, second.Txs[0]); err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, first)
	e.mined(t, second)
}

// TestResolveChain resolves a job without a chain: one chain with a pool
// trades there, several pick the deepest pool in US dollars (not in raw
// native units), a sell prefers the chain where the wallets hold the
// token, and no pool anywhere is TOKEN_NOT_FOUND.
func TestResolveChain(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// Tokens the local chains create have addresses that may repeat on
	// another chain; a fresh key's first deployment is on rbh alone.
	only := devevm.Token{Address: newBindKey(t).deployOn(t, e, wire.ChainRbh, "10")}
	only.Pair = contracts.PairAddress(e.dev.chain(t, wire.ChainRbh).Deployment().Factory, only.Address,
		e.dev.chain(t, wire.ChainRbh).Deployment().WrappedNative)
	// The same token address on eth and bsc: 8 ETH ($24,000) against 30
	// BNB ($18,000).
	twin, owner := e.twinToken(t, map[string]string{wire.ChainEth: "8", wire.ChainBsc: "30"})
	w := e.wallet(t, wire.ChainEth, "1", nil)
	e.fund(t, wire.ChainBsc, w, "1", nil)
	e.fund(t, wire.ChainRbh, w, "1", nil)

	t.Run("one match", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job("", wire.Buy, only.Address, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		if b.Chain != wire.ChainRbh || !strings.Contains(b.Route, "only chain") {
			t.Fatalf("chain %q route %q, want rbh, the only chain", b.Chain, b.Route)
		}
		e.broadcast(t, b)
	})
	t.Run("several: deepest in dollars", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainAnyEVM, wire.Buy, twin, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		if b.Chain != wire.ChainEth || !strings.Contains(b.Route, "deepest of 2") || !strings.Contains(b.Route, "$24000.00") {
			t.Fatalf("chain %q route %q, want eth, deepest of 2 at $24000.00", b.Chain, b.Route)
		}
		e.broadcast(t, b)
	})
	t.Run("a sell goes where the tokens are", func(t *testing.T) {
		seller := e.wallet(t, wire.ChainBsc, "1", nil)
		e.fund(t, wire.ChainEth, seller, "1", nil)
		e.giveTwin(t, wire.ChainBsc, owner, twin, seller)
		b, err := e.signer.Sign(ctx, e.job("", wire.Sell, twin, "", legOf(seller, "100")))
		if err != nil {
			t.Fatal(err)
		}
		if b.Chain != wire.ChainBsc {
			t.Fatalf("sell resolved to %q, want bsc where the wallet holds the token (route %q)", b.Chain, b.Route)
		}
		e.broadcast(t, b)
	})
	t.Run("quote asset narrows the chains", func(t *testing.T) {
		// USDG is only on rbh; the token has no USDG pool there.
		_, err := e.signer.Sign(ctx, e.job("", wire.Buy, only.Address, "USDG", legOf(w, "1")))
		wantCode(t, err, apierr.TokenNotFound, only.Address.Hex())
	})
	t.Run("none", func(t *testing.T) {
		nowhere := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		_, err := e.signer.Sign(ctx, e.job("", wire.Buy, nowhere, "", legOf(w, "0.01")))
		wantCode(t, err, apierr.TokenNotFound, nowhere.Hex())
	})
	t.Run("by pool address", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainRbh, wire.Buy, only.Pair, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		e.broadcast(t, b)
		if e.balance(t, wire.ChainRbh, w, only.Address.Hex()).Sign() == 0 {
			t.Fatal("a buy by pool address bought nothing")
		}
	})
}

// twinToken deploys a token at the same address on several chains (the
// first deployment of one fresh key), each with a native pool of the given
// depth in whole native coins. It returns the token and its owner.
func (e *env) twinToken(t testing.TB, depth map[string]string) (common.Address, *bindKey) {
	t.Helper()
	owner := newBindKey(t)
	var token common.Address
	for chain, native := range depth {
		e.fund(t, chain, owner.addr, "100", nil)
		token = owner.deployToken(t, e.dev.chain(t, chain), units(t, native, 18))
	}
	return token, owner
}

// giveTwin sends a token of the twin's owner to a wallet on one chain.
func (e *env) giveTwin(t testing.TB, chain string, owner *bindKey, token, to common.Address) {
	t.Helper()
	owner.transfer(t, e.dev.chain(t, chain), token, to, units(t, "1000", 18))
}

// TestTax probes taxed tokens under and over max_tax.
func TestTax(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	taxed := e.token(t, wire.ChainEth, "", 500, 1000) // 5% buy, 10% sell
	taxedUSD := e.token(t, wire.ChainEth, "USDT", 300, 300)
	free := e.token(t, wire.ChainEth, "", 0, 0)
	w := e.wallet(t, wire.ChainEth, "5", map[string]string{"USDT": "100"})
	capOf := func(pct uint32) *uint32 { v := pct * 100; return &v }
	tests := []struct {
		name  string
		token devevm.Token
		quote string
		cap   *uint32
		want  *wire.TaxProbe // nil: no probe
		over  bool           // refused with TAX_OUT_OF_RANGE
	}{
		{"no max_tax: no probe", free, "", nil, nil, false},
		{"under the cap", taxed, "", capOf(10), &wire.TaxProbe{BuyPct: 5, SellPct: 10}, false},
		{"over the cap", taxed, "", capOf(8), &wire.TaxProbe{BuyPct: 5, SellPct: 10}, true},
		{"zero admits no tax", taxed, "", capOf(0), &wire.TaxProbe{BuyPct: 5, SellPct: 10}, true},
		{"zero admits a tax-free token", free, "", capOf(0), &wire.TaxProbe{}, false},
		{"stable quote", taxedUSD, "USDT", capOf(3), &wire.TaxProbe{BuyPct: 3, SellPct: 3}, false},
		{"stable quote over the cap", taxedUSD, "USDT", capOf(2), &wire.TaxProbe{BuyPct: 3, SellPct: 3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := e.job(wire.ChainEth, wire.Buy, tt.token.Address, tt.quote, legOf(w, "0.01"))
			if tt.quote != "" {
				job.Legs[0].Amount = "10"
			}
			job.MaxTaxBps = tt.cap
			b, err := e.signer.Sign(ctx, job)
			if tt.over {
				ae := wantCode(t, err, apierr.TaxOutOfRange, "")
				var got wire.TaxProbe
				if err := json.Unmarshal([]byte(ae.Details), &struct {
					Buy  *float64 `json:"buy_tax_pct"`
					Sell *float64 `json:"sell_tax_pct"`
				}{&got.BuyPct, &got.SellPct}); err != nil {
					t.Fatalf("details %q: %v", ae.Details, err)
				}
				wantTax(t, &got, tt.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Every signed batch is sent, so that no nonce is left behind.
			before := e.balance(t, wire.ChainEth, w, tt.token.Address.Hex())
			e.broadcast(t, b)
			if e.balance(t, wire.ChainEth, w, tt.token.Address.Hex()).Cmp(before) <= 0 {
				t.Fatal("the buy bought nothing") // with the tax known, 1% slippage is enough
			}
			if (b.Tax == nil) != (tt.want == nil) {
				t.Fatalf("tax %+v, want %+v", b.Tax, tt.want)
			}
			if tt.want != nil {
				wantTax(t, b.Tax, tt.want)
			}
		})
	}
	t.Run("an unsellable token", func(t *testing.T) {
		trap := e.token(t, wire.ChainEth, "", 0, 10_000)
		job := e.job(wire.ChainEth, wire.Buy, trap.Address, "", legOf(w, "0.01"))
		job.MaxTaxBps = capOf(99)
		_, err := e.signer.Sign(ctx, job)
		wantCode(t, err, apierr.TaxOutOfRange, `{"buy_tax_pct":0,"sell_tax_pct":100}`)
	})
	t.Run("without the probe a taxed buy needs the slippage", func(t *testing.T) {
		job := e.job(wire.ChainEth, wire.Buy, taxed.Address, "", legOf(w, "0.01"))
		_, err := e.signer.Sign(ctx, job)
		ae := wantCode(t, err, apierr.BroadcastFailed, "")
		if !strings.Contains(ae.Message, "INSUFFICIENT_OUTPUT_AMOUNT") {
			t.Fatalf("message %q does not give the revert reason", ae.Message)
		}
	})
}

// TestBounds applies the liquidity and market-cap bounds in US dollars. A
// default pool holds 10 ETH ($30,000 at the local chain's $3,000): its
// liquidity is $60,000, and with 90% of the supply in the pool the market
// cap is $33,333.33.
func TestBounds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	arcTok := e.token(t, wire.ChainArc, "", 0, 0) // $30,000 of native USDC
	w := e.wallet(t, wire.ChainEth, "1", nil)
	e.fund(t, wire.ChainArc, w, "100", nil)
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name                   string
		chain                  string
		token                  common.Address
		minLiq, maxLiq, minCap *float64
		maxCap                 *float64
		code                   apierr.Code
		details                string
	}{
		{"within", wire.ChainEth, tok.Address, f(1000), f(100_000), f(10_000), f(40_000), "", ""},
		{"liquidity below the minimum", wire.ChainEth, tok.Address, f(100_000), nil, nil, nil, apierr.LiquidityOutOfRange, "60000.00"},
		{"liquidity above the maximum", wire.ChainEth, tok.Address, nil, f(1000), nil, nil, apierr.LiquidityOutOfRange, "60000.00"},
		{"market cap below the minimum", wire.ChainEth, tok.Address, nil, nil, f(50_000), nil, apierr.MarketCapOutOfRange, "33333.33"},
		{"market cap above the maximum", wire.ChainEth, tok.Address, nil, nil, nil, f(30_000), apierr.MarketCapOutOfRange, "33333.33"},
		{"native USDC counts as dollars", wire.ChainArc, arcTok.Address, f(59_999), f(60_001), nil, nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			amount := "0.01"
			if tt.chain == wire.ChainArc {
				amount = "1"
			}
			job := e.job(tt.chain, wire.Buy, tt.token, "", legOf(w, amount))
			job.MinLiquidityUSD, job.MaxLiquidityUSD, job.MinMarketCapUSD, job.MaxMarketCapUSD = tt.minLiq, tt.maxLiq, tt.minCap, tt.maxCap
			_, err := e.signer.Sign(ctx, job)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantCode(t, err, tt.code, tt.details)
		})
	}
}

// TestRefusals covers the business refusals before anything is signed;
// none of them takes a nonce.
func TestRefusals(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainBsc, "", 0, 0)
	rich := e.wallet(t, wire.ChainBsc, "10", map[string]string{"USDT": "5"})
	poor := e.wallet(t, wire.ChainBsc, "0.01", nil)
	gasless := e.wallet(t, wire.ChainBsc, "0.05", nil) // pays the amount, not the gas
	empty := e.wallet(t, wire.ChainBsc, "1", nil)
	tests := []struct {
		name    string
		job     *wire.SwapJob
		code    apierr.Code
		details string
	}{
		{"a wallet that cannot pay the amount", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.1"), legOf(poor, "0.1")),
			apierr.InsufficientBalance, poor.Hex()},
		{"a wallet that cannot pay the gas", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.05"), legOf(gasless, "0.05")),
			apierr.InsufficientBalance, gasless.Hex()},
		{"a stable buy above the stable balance", e.job(wire.ChainBsc, wire.Buy, tok.Address, "USDT", legOf(rich, "6")),
			apierr.TokenNotFound, tok.Address.Hex()}, // no USDT pool: the route is checked first
		{"a sell where no wallet holds the token", e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(empty, "100"), legOf(rich, "50")),
			apierr.InsufficientBalance, empty.Hex()},
		{"sell_mode tokens", func() *wire.SwapJob {
			j := e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(rich, "5"))
			j.SellMode = wire.SellTokens
			return j
		}(), apierr.InvalidRequest, "sell_mode"},
		{"a quote asset the chain lacks", e.job(wire.ChainBsc, wire.Buy, tok.Address, "USDG", legOf(rich, "1")), apierr.InvalidRequest, "quote_asset"},
		{"an unknown chain", e.job("sol", wire.Buy, tok.Address, "", legOf(rich, "1")), apierr.InvalidRequest, "chain"},
		{"a malformed token", func() *wire.SwapJob {
			j := e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "1"))
			j.Token = "0x12"
			return j
		}(), apierr.InvalidRequest, "address"},
		{"too many decimals", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.0000000000000000001")), apierr.InvalidRequest, "wallets[0].amount"},
		{"a sell percent above 100", e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(rich, "101")), apierr.InvalidRequest, "wallets[0].amount"},
		{"no wallets", e.job(wire.ChainBsc, wire.Buy, tok.Address, ""), apierr.NoWallets, ""},
		{"a wallet twice", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.01"), legOf(rich, "0.01")), apierr.InvalidRequest, "wallets[1].address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.signer.Sign(ctx, tt.job)
			wantCode(t, err, tt.code, tt.details)
		})
	}
	for _, w := range []common.Address{rich, poor, gasless, empty} {
		if _, err := e.nats.buckets(t).Nonces.Get(ctx, nonceKey(wire.ChainBsc, w)); err == nil {
			t.Fatalf("a refused order took nonces of %s", w.Hex())
		}
	}

	t.Run("a stable buy above the stable balance", func(t *testing.T) {
		usdt := e.token(t, wire.ChainBsc, "USDT", 0, 0)
		_, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, usdt.Address, "USDT", legOf(rich, "6")))
		wantCode(t, err, apierr.InsufficientBalance, rich.Hex())
	})
	t.Run("a sell skips a wallet without tokens", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.1")))
		if err != nil {
			t.Fatal(err)
		}
		e.broadcast(t, b)
		b, err = e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(empty, "100"), legOf(rich, "100")))
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range b.Txs {
			if tx.Wallet != rich.Hex() {
				t.Fatalf("a tx for %s, which holds nothing", tx.Wallet)
			}
		}
		e.broadcast(t, b)
	})
	t.Run("a failing key source takes no nonce", func(t *testing.T) {
		w := e.wallet(t, wire.ChainBsc, "1", nil)
		e.keys.fail.Store(true)
		_, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		e.keys.fail.Store(false)
		if err == nil {
			t.Fatal("signed without keys")
		}
		if _, gerr := e.nats.buckets(t).Nonces.Get(ctx, nonceKey(wire.ChainBsc, w)); gerr == nil {
			t.Fatal("a failed signing left nonces taken")
		}
	})
}

// TestFees checks the fee fields and the builder tip in the landed swap.
func TestFees(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	w := e.wallet(t, wire.ChainEth, "5", nil)
	builderTip := func(rs []*types.Receipt) *big.Int {
		ev := routerABI.Events["BuilderTip"]
		total := new(big.Int)
		for _, r := range rs {
			for _, l := range r.Logs {
				if len(l.Topics) > 0 && l.Topics[0] == ev.ID {
					vals, err := ev.Inputs.NonIndexed().Unpack(l.Data)
					if err != nil {
						t.Fatal(err)
					}
					total.Add(total, vals[0].(*big.Int))
				}
			}
		}
		return total
	}

	t.Run("priority fee and processor tip", func(t *testing.T) {
		job := e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))
		job.PriorityFee = "3000000000"        // 3 gwei
		job.ProcessorTip = "1000000000000000" // 0.001 ETH
		b, err := e.signer.Sign(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		tx := decode(t, b)[0]
		if tx.GasTipCap().Int64() != 3e9 {
			t.Fatalf("tip cap %s, want 3 gwei", tx.GasTipCap())
		}
		if want := new(big.Int).Add(units(t, "0.01", 18), big.NewInt(1e15)); tx.Value().Cmp(want) != 0 {
			t.Fatalf("value %s, want the amount plus the tip %s", tx.Value(), want)
		}
		if got := builderTip(e.broadcast(t, b)); got.Int64() != 1e15 {
			t.Fatalf("the builder got %s, want 0.001 ETH", got)
		}
	})
	t.Run("auto tip", func(t *testing.T) {
		var list []Chain
		for _, name := range e.dev.chains.Names() {
			c := Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: NewClient(e.dial(t, e.dev.url(name)))}
			c.MinTipCap = big.NewInt(2e9)
			c.AutoProcessorTip = big.NewInt(2e15)
			list = append(list, c)
		}
		s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		job := e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))
		job.AutoTip, job.PriorityFee, job.ProcessorTip = true, "1", "1"
		b, err := s.Sign(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		tx := decode(t, b)[0]
		if tx.GasTipCap().Int64() < 2e9 {
			t.Fatalf("auto tip cap %s under the chain's floor", tx.GasTipCap())
		}
		if got := builderTip(e.broadcast(t, b)); got.Int64() != 2e15 {
			t.Fatalf("the builder got %s, want the chain's auto tip", got)
		}
	})
	t.Run("fee cap covers the base fee twice", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		h, err := e.dev.chain(t, wire.ChainEth).Client().HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		tx := decode(t, b)[0]
		if min := new(big.Int).Add(new(big.Int).Mul(h.BaseFee, big.NewInt(2)), tx.GasTipCap()); tx.GasFeeCap().Cmp(min) < 0 {
			t.Fatalf("fee cap %s below twice the base fee %s plus the tip", tx.GasFeeCap(), h.BaseFee)
		}
		if tx.ChainId().Uint64() != 1 {
			t.Fatalf("signed for chain id %s", tx.ChainId())
		}
		e.broadcast(t, b)
	})
}

// TestAntiMEV sends an anti_mev order through the chain's private relay.
func TestAntiMEV(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainBase, "USDC", 0, 0)
	w := e.wallet(t, wire.ChainBase, "1", map[string]string{"USDC": "100"})
	job := e.job(wire.ChainBase, wire.Buy, tok.Address, "USDC", legOf(w, "10"))
	job.AntiMEV = true
	b, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	public, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "USDC", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	e.broadcast(t, public)
	c := e.dev.chain(t, wire.ChainBase)
	for _, tx := range b.Txs {
		if !tx.Private || !c.Relayed(common.HexToHash(tx.Signature)) {
			t.Fatalf("anti-MEV tx %s did not go through the relay", tx.Signature)
		}
	}
	for _, tx := range public.Txs {
		if tx.Private || c.Relayed(common.HexToHash(tx.Signature)) {
			t.Fatalf("public tx %s went through the relay", tx.Signature)
		}
	}
}

// TestDroppedNonceReclaimed signs an order whose transaction never reaches
// the chain: once the chain has sat below it for the bound, the next order
// gets the lost nonce and lands, and the lost transaction, if it turns up,
// is refused.
func TestDroppedNonceReclaimed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	clock := &fakeClock{t: time.Now()}
	e.nonces.now = clock.now
	tok := e.token(t, wire.ChainArc, "", 0, 0)
	w := e.wallet(t, wire.ChainArc, "100", nil)
	dropped, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "1")))
	if err != nil {
		t.Fatal(err)
	}
	queued, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "1")))
	if err != nil {
		t.Fatal(err)
	}
	lost, behind := decode(t, dropped)[0], decode(t, queued)[0]
	if behind.Nonce() != lost.Nonce()+1 {
		t.Fatalf("nonces %d then %d", lost.Nonce(), behind.Nonce())
	}
	// The second order reaches the chain; it waits behind the lost nonce.
	if err := e.sender[wire.ChainArc].Send(ctx, queued.Txs[0]); err != nil {
		t.Fatal(err)
	}
	clock.advance(DefaultNonceStale - time.Second)
	early, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "1")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, early)[0].Nonce(); n != behind.Nonce()+1 {
		t.Fatalf("within the bound the next nonce is %d, want %d", n, behind.Nonce()+1)
	}
	clock.advance(2 * time.Second)
	refill, err := e.signer.Sign(ctx, e.job(wire.ChainArc, wire.Buy, tok.Address, "", legOf(w, "2")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, refill)[0].Nonce(); n != lost.Nonce() {
		t.Fatalf("after the bound the next nonce is %d, want the lost %d", n, lost.Nonce())
	}
	e.broadcast(t, refill)
	e.mined(t, queued) // the gap is filled: the queued order lands too
	var ref interface{ Error() string }
	if err := e.sender[wire.ChainArc].Send(ctx, dropped.Txs[0]); err == nil {
		t.Fatal("the lost transaction was accepted after its nonce was reused")
	} else {
		ref = err
	}
	if !strings.Contains(ref.Error(), "nonce too low") {
		t.Fatalf("the lost transaction: %v, want nonce too low", ref)
	}
}

// wantTax compares probed taxes: the probe measures what a round trip
// loses, which the pool's curve moves by a hundredth of a percent at most.
func wantTax(t testing.TB, got, want *wire.TaxProbe) {
	t.Helper()
	if math.Abs(got.BuyPct-want.BuyPct) > 0.01 || math.Abs(got.SellPct-want.SellPct) > 0.01 {
		t.Fatalf("tax %+v, want %+v", got, want)
	}
}
