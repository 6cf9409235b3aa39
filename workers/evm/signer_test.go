package evm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/venues"
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
// the chain allows, on a V2 pair and in a V3 pool, with real signed
// transactions on the local chains: the buy spends exactly the amount, a
// sell of 50% sells half the balance after approving the pool's router,
// the next sell needs no approval. Every swap goes to an official router
// and trades in the token's official pool: the code at the receipt's `to`
// and at the Swap log's address is Uniswap's published runtime.
func TestBuySellEveryQuote(t *testing.T) {
	e := newEnv(t)
	for _, ch := range chains.OfFamily(wire.FamilyEVM) {
		for _, a := range ch.Assets {
			for _, venue := range []string{devevm.VenueV2, devevm.VenueV3} {
				t.Run(ch.Name+"/"+a.Symbol+"/"+venue, func(t *testing.T) {
					t.Parallel()
					buySellRoundTrip(t, e, ch.Name, a, venue)
				})
			}
		}
	}
}

func buySellRoundTrip(t *testing.T, e *env, chain string, a chains.Asset, venue string) {
	quote := a.Symbol
	if a.Native {
		quote = "" // the pool of the wrapped native coin
	}
	tok := e.tokenOn(t, chain, devevm.TokenRequest{Venue: venue, Quote: quote})
	stables := map[string]string{}
	if !a.Native {
		stables[a.Symbol] = "100"
	}
	native := "10"
	if chain == wire.ChainArc {
		native = "1000" // the native coin is a dollar
	}
	w := e.wallet(t, chain, native, stables)
	ctx := context.Background()
	d := e.dev.chain(t, chain).Deployment()
	router := map[string]common.Address{devevm.VenueV2: d.Router02, devevm.VenueV3: d.SwapRouter02}[venue]

	// The native coin trades through the wrapped native coin, or on arc
	// through its own ERC-20 as a stable does.
	viaToken, quoteToken := !a.Native, d.Stables[a.Symbol]
	if a.Native && d.NativeToken != (common.Address{}) {
		viaToken, quoteToken = true, d.NativeToken
	}
	if viaToken {
		quote = quoteToken.Hex()
	}

	// Buy.
	nativeBefore := e.balance(t, chain, w, "")
	quoteBefore := e.balance(t, chain, w, quote)
	b, err := e.signer.Sign(ctx, e.job(chain, wire.Buy, tok.Address, a.Symbol, legOf(w, buyAmount(a.Symbol))))
	if err != nil {
		t.Fatal(err)
	}
	wantTxs := 1
	if viaToken {
		wantTxs = 2 // the quote token's approval, then the swap
	}
	wantVenue := map[string]string{devevm.VenueV2: "uniswap_v2 pool ", devevm.VenueV3: "uniswap_v3 fee 3000 pool "}[venue]
	if b.Chain != chain || len(b.Txs) != wantTxs || !strings.HasPrefix(b.Route, wantVenue+tok.Pool.Hex()+" on "+chain) {
		t.Fatalf("batch chain %q, %d txs, route %q; want %s, %d txs, %s%s", b.Chain, len(b.Txs), b.Route, chain, wantTxs,
			wantVenue, tok.Pool.Hex())
	}
	if viaToken {
		wantApproval(t, decode(t, b)[0], quoteToken, router)
	}
	rs := e.broadcast(t, b)
	e.officialSwap(t, chain, b, rs, tok.Pool)
	spent := units(t, buyAmount(a.Symbol), a.Decimals)
	if !viaToken {
		var gas big.Int
		for _, r := range rs {
			gas.Add(&gas, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
		}
		if got := new(big.Int).Sub(nativeBefore, e.balance(t, chain, w, "")); got.Cmp(new(big.Int).Add(spent, &gas)) != 0 {
			t.Fatalf("native spent %s, want %s + gas %s", got, spent, &gas)
		}
	} else if got := new(big.Int).Sub(quoteBefore, e.balance(t, chain, w, quote)); got.Cmp(spent) != 0 {
		t.Fatalf("%s spent %s, want %s", a.Symbol, got, spent)
	}
	held := e.balance(t, chain, w, tok.Address.Hex())
	if held.Sign() == 0 {
		t.Fatal("the buy landed but the wallet holds no tokens")
	}

	// Sell half: an approval of the pool's router and the swap.
	nativeBefore = e.balance(t, chain, w, "")
	quoteBefore = e.balance(t, chain, w, quote)
	b, err = e.signer.Sign(ctx, e.job(chain, wire.Sell, tok.Address, a.Symbol, legOf(w, "50")))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Txs) != 2 {
		t.Fatalf("first sell: %d txs, want the approval and the swap", len(b.Txs))
	}
	wantApproval(t, decode(t, b)[0], tok.Address, router)
	rs = e.broadcast(t, b)
	e.officialSwap(t, chain, b, rs, tok.Pool)
	left := e.balance(t, chain, w, tok.Address.Hex())
	if want := new(big.Int).Sub(held, new(big.Int).Quo(new(big.Int).Mul(held, big.NewInt(50)), big.NewInt(100))); left.Cmp(want) != 0 {
		t.Fatalf("after selling 50%% of %s the wallet holds %s, want %s", held, left, want)
	}
	if !viaToken {
		var gas big.Int
		for _, r := range rs {
			gas.Add(&gas, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
		}
		// The wallet is paid the native coin itself, not its wrapped token.
		if got := new(big.Int).Sub(e.balance(t, chain, w, ""), nativeBefore); new(big.Int).Add(got, &gas).Sign() <= 0 {
			t.Fatalf("the sell paid no native coin: %s after %s of gas", got, &gas)
		}
	} else if e.balance(t, chain, w, quote).Cmp(quoteBefore) <= 0 {
		t.Fatalf("the sell paid no %s", a.Symbol)
	}

	// Sell the rest: approved already.
	b, err = e.signer.Sign(ctx, e.job(chain, wire.Sell, tok.Address, a.Symbol, legOf(w, "100")))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Txs) != 1 {
		t.Fatalf("second sell: %d txs, want the swap alone", len(b.Txs))
	}
	rs = e.broadcast(t, b)
	e.officialSwap(t, chain, b, rs, tok.Pool)
	if got := e.balance(t, chain, w, tok.Address.Hex()); got.Sign() != 0 {
		t.Fatalf("after selling 100%% the wallet holds %s", got)
	}
	if got := e.balance(t, chain, d.SwapRouter02, d.WrappedNative.Hex()); got.Sign() != 0 && venue == devevm.VenueV3 {
		t.Fatalf("SwapRouter02 kept %s of the wrapped native coin", got)
	}
}

// wantApproval checks that tx approves spender for all of token.
func wantApproval(t testing.TB, tx *types.Transaction, token, spender common.Address) {
	t.Helper()
	vals, err := erc20ABI.Methods["approve"].Inputs.Unpack(tx.Data()[4:])
	if err != nil || tx.To() == nil || *tx.To() != token || len(vals) != 2 {
		t.Fatalf("not an approval of %s: to %v, %v", token.Hex(), tx.To(), err)
	}
	if vals[0].(common.Address) != spender || vals[1].(*big.Int).Cmp(maxUint256) != 0 {
		t.Fatalf("approval of %s for %s, want all of it for %s", vals[1], vals[0], spender.Hex())
	}
}

// TestApprovalOnce signs two sells of one wallet before either lands: the
// second relies on the first one's approval, and both land in nonce order.
// So does a third, signed by another worker of the chain, which knows of
// the approval from the wallet's nonce record alone.
func TestApprovalOnce(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
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
	// Neither swap can be estimated before the approval is mined: both get
	// the limit the chain knows for a V2 sell for the native coin.
	known, _, _ := e.signer.chains[wire.ChainBase].gas.limit(kindV2SellNative, time.Now(), time.Hour)
	if f[1].Gas() != known || s[0].Gas() != known {
		t.Fatalf("swaps behind an unmined approval have gas %d and %d, want the known %d", f[1].Gas(), s[0].Gas(), known)
	}
	if f[0].To() == nil || *f[0].To() != tok.Address || !strings.HasPrefix(common.Bytes2Hex(f[0].Data()), "095ea7b3") {
		t.Fatalf("first transaction is not an approval of the token: to %v", f[0].To())
	}
	if spender := common.BytesToAddress(f[0].Data()[4:36]); spender != e.dev.chain(t, wire.ChainBase).Deployment().Router02 {
		t.Fatalf("the approval is for %s, want Router02, the router of the V2 pair", spender.Hex())
	}
	other := e.newSigner(t, e.nonces, Config{})
	third, err := other.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	if th := decode(t, third); len(th) != 1 || th[0].Nonce() != s[0].Nonce()+1 || strings.HasPrefix(common.Bytes2Hex(th[0].Data()), "095ea7b3") {
		t.Fatalf("another worker's sell signed %d transactions (first nonce %d), want its swap alone at %d", len(th), th[0].Nonce(), s[0].Nonce()+1)
	}
	// The second batch reaches the chain first: it waits for its nonce.
	if err := e.sender[wire.ChainBase].Send(ctx, second.Txs[0]); err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, first)
	e.mined(t, second)
	e.broadcast(t, third)
}

// TestSellTokenQuantity: a sell of a token quantity (the exits engine's,
// for a position's exact amount) sells that many base units of the token,
// and, while another sale of the wallet is in flight, at most what that
// one leaves.
func TestSellTokenQuantity(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	held := e.balance(t, wire.ChainBase, w, tok.Address.Hex())
	// One base unit sells for no ETH after the pool's fee: refused naming
	// the amount (it would only pay the gas), nothing signed.
	dust := e.job(wire.ChainBase, wire.Sell, tok.Address, "", ownAmount(legOf(w, "0.000000000000000001"), 0))
	dust.SellMode = wire.SellTokens
	var refused *apierr.Error
	if b, err := e.signer.Sign(ctx, dust); !errors.As(err, &refused) || refused.Code != apierr.InvalidRequest ||
		refused.Details != "wallets[0].amount" || !strings.Contains(refused.Message, "sell for no ETH") {
		t.Fatalf("a sale of one base unit: %v, %v; want 400 naming wallets[0].amount", b, err)
	}
	// Beside a wallet with something to sell, a wallet whose share sells
	// for nothing is left out, named with why, as one with nothing to sell.
	dusty := e.wallet(t, wire.ChainBase, "1", nil)
	if err := e.dev.chain(t, wire.ChainBase).FundToken(ctx, dusty, tok.Address.Hex(), big.NewInt(1)); err != nil {
		t.Fatal(err)
	}
	both, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "1"), legOf(dusty, "100")))
	if err != nil || len(both.SkippedWallets) != 1 || both.SkippedWallets[0].Wallet != dusty.Hex() ||
		!strings.Contains(both.SkippedWallets[0].Reason, "sell for no ETH") {
		t.Fatalf("a sale beside a wallet holding one base unit: %v; want that wallet left out", err)
	}
	// Its half of one base unit, or a quantity below one base unit, rounds
	// to nothing: refused naming the amount, as a sale for nothing is, not
	// as a wallet that holds none of the token (a charged 422).
	under := e.job(wire.ChainBase, wire.Sell, tok.Address, "", ownAmount(legOf(dusty, "0.0000000000000000001"), 0))
	under.SellMode = wire.SellTokens
	for _, j := range []*wire.SwapJob{e.job(wire.ChainBase, wire.Sell, tok.Address, "", ownAmount(legOf(dusty, "50"), 0)), under} {
		if b, err := e.signer.Sign(ctx, j); !errors.As(err, &refused) || refused.Code != apierr.InvalidRequest ||
			refused.Details != "wallets[0].amount" || !strings.Contains(refused.Message, "rounds to 0 base units") {
			t.Fatalf("a sale whose share of one base unit rounds to nothing: %v, %v; want 400 naming wallets[0].amount", b, err)
		}
	}
	e.broadcast(t, both)
	held = e.balance(t, wire.ChainBase, w, tok.Address.Hex())
	sell := func(amount string) *big.Int {
		t.Helper()
		j := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, amount))
		j.SellMode = wire.SellTokens
		b, err := e.signer.Sign(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		txs := decode(t, b)
		swap := txs[len(txs)-1].Data()
		if !strings.HasPrefix(common.Bytes2Hex(swap), common.Bytes2Hex(router02ABI.Methods["swapExactTokensForETHSupportingFeeOnTransferTokens"].ID)) {
			t.Fatalf("the sell is not a V2 sell for the native coin: %x", swap[:4])
		}
		return new(big.Int).SetBytes(swap[4:36])
	}
	if got, want := sell("1.5"), new(big.Int).Mul(big.NewInt(15), new(big.Int).Exp(big.NewInt(10), big.NewInt(17), nil)); got.Cmp(want) != 0 {
		t.Fatalf("a sale of 1.5 tokens sells %s base units, want %s", got, want)
	}
	left := new(big.Int).Sub(held, new(big.Int).Mul(big.NewInt(15), new(big.Int).Exp(big.NewInt(10), big.NewInt(17), nil)))
	if got := sell("1000000000000"); got.Cmp(left) != 0 {
		t.Fatalf("a sale of more than the wallet holds, behind one in flight, sells %s, want what that one leaves: %s", got, left)
	}
}

// holder makes a V2 token on chain and a wallet that bought it, the buy
// landed.
func (e *env) holder(t *testing.T, chain string) (devevm.Token, common.Address) {
	t.Helper()
	tok := e.token(t, chain, "", 0, 0)
	w := e.wallet(t, chain, "5", nil)
	buy, err := e.signer.Sign(context.Background(), e.job(chain, wire.Buy, tok.Address, "", legOf(w, "0.1")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, buy)
	return tok, w
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
	only.Pair = uniswap.V2PairAddress(e.dev.chain(t, wire.ChainRbh).Deployment().Factory, only.Address,
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
		// 8 ETH on eth against 6 ETH on base.
		ethTwin, _ := e.twinToken(t, map[string]string{wire.ChainEth: "8", wire.ChainBase: "6"})
		e.fund(t, wire.ChainBase, w, "1", nil)
		b, err := e.signer.Sign(ctx, e.job(wire.ChainAnyEVM, wire.Buy, ethTwin, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		if b.Chain != wire.ChainEth || !strings.Contains(b.Route, "deepest of 2") || !strings.Contains(b.Route, "$24000.00") {
			t.Fatalf("chain %q route %q, want eth, deepest of 2 at $24000.00", b.Chain, b.Route)
		}
		e.broadcast(t, b)
	})
	t.Run("several in different coins: the buy names its chain", func(t *testing.T) {
		// "0.01" would be 0.01 ETH on eth and 0.01 BNB on bsc: which one
		// the bot meant is not the deepest pool's to say.
		_, err := e.signer.Sign(ctx, e.job(wire.ChainAnyEVM, wire.Buy, twin, "", legOf(w, "0.01")))
		wantCode(t, err, apierr.InvalidRequest, "chain")
		if !strings.Contains(err.Error(), "eth (ETH)") || !strings.Contains(err.Error(), "bsc (BNB)") {
			t.Fatalf("refusal %v does not name both chains and coins", err)
		}
		b, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, twin, "", legOf(w, "0.01")))
		if err != nil || b.Chain != wire.ChainBsc {
			t.Fatalf("the buy naming bsc: %+v %v", b, err)
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
	t.Run("a sell of tokens held on two chains names its chain", func(t *testing.T) {
		// Sold on one chain, it would answer success and leave the other
		// chain's tokens: the order is refused, naming both.
		seller := e.wallet(t, wire.ChainBsc, "1", nil)
		e.fund(t, wire.ChainEth, seller, "1", nil)
		e.giveTwin(t, wire.ChainBsc, owner, twin, seller)
		e.giveTwin(t, wire.ChainEth, owner, twin, seller)
		_, err := e.signer.Sign(ctx, e.job("", wire.Sell, twin, "", legOf(seller, "100")))
		wantCode(t, err, apierr.InvalidRequest, "chain")
		if !strings.Contains(err.Error(), "eth") || !strings.Contains(err.Error(), "bsc") {
			t.Fatalf("refusal %v does not name both chains", err)
		}
		b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, twin, "", legOf(seller, "100")))
		if err != nil || b.Chain != wire.ChainEth {
			t.Fatalf("the sell naming eth: %+v %v", b, err)
		}
	})
	t.Run("an amount in the decimals of the chain that trades it", func(t *testing.T) {
		// USDT has 6 decimals on eth and 18 on bsc, where alone the token
		// has a USDT pool: nine decimals are an amount there.
		usdtOnBsc := e.token(t, wire.ChainBsc, "USDT", 0, 0)
		payer := e.wallet(t, wire.ChainBsc, "1", map[string]string{"USDT": "5"})
		b, err := e.signer.Sign(ctx, e.job("", wire.Buy, usdtOnBsc.Address, "USDT", legOf(payer, "1.123456789")))
		if err != nil {
			t.Fatal(err)
		}
		if b.Chain != wire.ChainBsc {
			t.Fatalf("chain %q route %q, want bsc", b.Chain, b.Route)
		}
		e.broadcast(t, b)
		// Where no chain has a pool, the answer is that, not the amount.
		nowhere := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		_, err = e.signer.Sign(ctx, e.job("", wire.Buy, nowhere, "USDT", legOf(payer, "1.123456789")))
		wantCode(t, err, apierr.TokenNotFound, nowhere.Hex())
	})
	t.Run("quote asset narrows the chains", func(t *testing.T) {
		// USDG is only on rbh; the token has no USDG pool there.
		_, err := e.signer.Sign(ctx, e.job("", wire.Buy, only.Address, "USDG", legOf(w, "1")))
		wantCode(t, err, apierr.TokenNotFound, only.Address.Hex())
	})
	t.Run("quote asset of another chain than the token's", func(t *testing.T) {
		// BNB is only bsc's; the token trades on rbh alone, which does not
		// offer it: the asset is refused, with rbh's valid set.
		_, err := e.signer.Sign(ctx, e.job("", wire.Buy, only.Address, "BNB", legOf(w, "1")))
		ae := wantCode(t, err, apierr.InvalidRequest, "quote_asset")
		if !strings.Contains(ae.Message, "not available on rbh") || !strings.Contains(ae.Message, "valid there: ETH, USDG") {
			t.Fatalf("message %q: want it to name rbh and its quote assets", ae.Message)
		}
		// Named, the token's own chain says the same.
		_, err = e.signer.Sign(ctx, e.job(wire.ChainRbh, wire.Buy, only.Address, "BNB", legOf(w, "1")))
		wantCode(t, err, apierr.InvalidRequest, "quote_asset")
		// A token traded nowhere stays not found.
		nowhere := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		_, err = e.signer.Sign(ctx, e.job("", wire.Buy, nowhere, "BNB", legOf(w, "1")))
		wantCode(t, err, apierr.TokenNotFound, nowhere.Hex())
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
	t.Run("by V3 pool address: that pool alone", func(t *testing.T) {
		v3 := e.tokenOn(t, wire.ChainRbh, devevm.TokenRequest{Venue: devevm.VenueV3, FeeTier: 10000})
		for _, side := range []wire.Side{wire.Buy, wire.Sell} {
			amount := "0.01"
			if side == wire.Sell {
				amount = "100"
			}
			b, err := e.signer.Sign(ctx, e.job(wire.ChainRbh, side, v3.Pool, "", legOf(w, amount)))
			if err != nil {
				t.Fatal(err)
			}
			if want := "uniswap_v3 fee 10000 pool " + v3.Pool.Hex() + " on rbh (ETH): best of v3/10000 "; !strings.HasPrefix(b.Route, want) {
				t.Fatalf("route %q, want it to start %q", b.Route, want)
			}
			e.officialSwap(t, wire.ChainRbh, b, e.broadcast(t, b), v3.Pool)
		}
		if got := e.balance(t, wire.ChainRbh, w, v3.Address.Hex()); got.Sign() != 0 {
			t.Fatalf("the sell by pool address left %s tokens", got)
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

// TestTax probes taxed tokens under and over max_tax, with a round trip
// through Router02 on a V2 pair and through SwapRouter02 in a V3 pool.
func TestTax(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	taxed := e.token(t, wire.ChainEth, "", 500, 1000) // 5% buy, 10% sell
	taxedUSD := e.token(t, wire.ChainEth, "USDT", 300, 300)
	free := e.token(t, wire.ChainEth, "", 0, 0)
	freeV3 := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3, FeeTier: 500})
	freeV3USD := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3, Quote: "USDC"})
	buyTaxedV3 := e.taxedV3(t, wire.ChainEth, 500, 0)
	sellTaxedV3 := e.taxedV3(t, wire.ChainEth, 0, 300)
	w := e.wallet(t, wire.ChainEth, "5", map[string]string{"USDT": "100", "USDC": "100"})
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
		{"v3: a tax-free token", freeV3, "", capOf(0), &wire.TaxProbe{}, false},
		{"v3: a tax-free token against a stable", freeV3USD, "USDC", capOf(0), &wire.TaxProbe{}, false},
		{"v3: a buy tax under the cap", buyTaxedV3, "", capOf(5), &wire.TaxProbe{BuyPct: 5}, false},
		{"v3: a buy tax over the cap", buyTaxedV3, "", capOf(4), &wire.TaxProbe{BuyPct: 5}, true},
		// The pool checks what arrives: a token taxed on its way in cannot
		// be sold there at all.
		{"v3: a sell tax is a token that cannot be sold", sellTaxedV3, "", capOf(99), &wire.TaxProbe{SellPct: 100}, true},
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
				// The refusal carries the probe and the pool for the
				// failed order's record.
				var r *wire.Refusal
				if !errors.As(err, &r) || r.Tax == nil || r.Route == "" {
					t.Fatalf("refusal %#v", err)
				}
				wantTax(t, r.Tax, tt.want)
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
		nonces := e.nats.buckets(t).Nonces
		before, err := nonces.Get(ctx, nonceKey(wire.ChainEth, w))
		if err != nil {
			t.Fatal(err)
		}
		job := e.job(wire.ChainEth, wire.Buy, taxed.Address, "", legOf(w, "0.01"))
		_, err = e.signer.Sign(ctx, job)
		ae := wantCode(t, err, apierr.BroadcastFailed, "")
		if !strings.Contains(ae.Message, "INSUFFICIENT_OUTPUT_AMOUNT") || !strings.Contains(ae.Message, "max_tax") {
			t.Fatalf("message %q does not give the revert reason and what would help", ae.Message)
		}
		// The refused order took no nonce, not even one it gave back: had
		// another order of the wallet taken the next meanwhile, it could
		// not have been given back.
		after, err := nonces.Get(ctx, nonceKey(wire.ChainEth, w))
		if err != nil || after.Revision() != before.Revision() {
			t.Fatalf("the nonce record moved from revision %d to %d (%v)", before.Revision(), after.Revision(), err)
		}
	})
	t.Run("so does a taxed sell behind its approval", func(t *testing.T) {
		_, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, taxed.Address, "", legOf(w, "100")))
		ae := wantCode(t, err, apierr.BroadcastFailed, "")
		if !strings.Contains(ae.Message, "after its approval") || !strings.Contains(ae.Message, "INSUFFICIENT_OUTPUT_AMOUNT") || !strings.Contains(ae.Message, "max_tax") {
			t.Fatalf("message %q does not give the revert reason and what would help", ae.Message)
		}
	})
}

// TestV3TaxedBuyLeastOut: SwapRouter02's exactInputSingle holds the least
// out against what the V3 pool pays, before the token takes its tax from
// the transfer to the wallet (Router02's fee-on-transfer swaps hold it
// against what reaches the wallet). A probed buy tax must not come off a
// V3 buy's least out: there it would let the price move by the tax on top
// of the slippage. Here another trader moves the price by about 7%, more
// than the 1% slippage, before the buy of a token taxed 10% lands: the
// buy reverts, where it landed with 6% fewer tokens than promised.
func TestV3TaxedBuyLeastOut(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainEth
	c := e.dev.chain(t, chain)
	d := c.Deployment()
	tok := e.taxedV3(t, chain, 1000, 0)
	w := e.wallet(t, chain, "5", nil)
	job := e.job(chain, wire.Buy, tok.Address, "", legOf(w, "0.01")) // slippage 1%
	taxCap := uint32(1000)
	job.MaxTaxBps = &taxCap
	b, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	wantTax(t, b.Tax, &wire.TaxProbe{BuyPct: 10})
	txs := decode(t, b)
	quote, err := uniswap.QuoteExactInputSingle(ctx, c.Client(), d.QuoterV2, nil, d.WrappedNative, tok.Address, 3000, units(t, "0.01", 18))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := exactInputMin(t, txs[len(txs)-1]), minusBps(quote, 100); got.Cmp(want) != 0 {
		t.Fatalf("least out %s, want the pool's quote %s less the 1%% slippage alone, %s", got, quote, want)
	}

	trader := newBindKey(t)
	e.fund(t, chain, trader.addr, "10", nil)
	router, err := uniswap.NewSwapRouter02(d.SwapRouter02, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	o := trader.opts(t, c)
	o.Value = units(t, "0.36", 18)
	tx, err := router.ExactInputSingle(o, uniswap.IV3SwapRouterExactInputSingleParams{
		TokenIn: d.WrappedNative, TokenOut: tok.Address, Fee: big.NewInt(3000), Recipient: trader.addr,
		AmountIn: o.Value, AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)})
	waitTx(t, c, tx, err)
	moved, err := uniswap.QuoteExactInputSingle(ctx, c.Client(), d.QuoterV2, nil, d.WrappedNative, tok.Address, 3000, units(t, "0.01", 18))
	if err != nil {
		t.Fatal(err)
	}
	if moved.Cmp(minusBps(quote, 500)) > 0 || moved.Cmp(minusBps(quote, 1000)) < 0 {
		t.Fatalf("the other trade moved the quote from %s to %s, not by 5-10%%", quote, moved)
	}
	before := e.balance(t, chain, w, tok.Address.Hex())
	e.send(t, b)
	r, err := c.WaitMined(ctx, txs[len(txs)-1].Hash())
	if r == nil {
		t.Fatal(err)
	}
	if r.Status == types.ReceiptStatusSuccessful {
		t.Fatalf("the buy landed after the price moved past its slippage: %s tokens against a quote of %s",
			new(big.Int).Sub(e.balance(t, chain, w, tok.Address.Hex()), before), quote)
	}
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
	v3Tok := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3})
	v3Liq, v3Cap := v3Figures(t, e.dev.chain(t, wire.ChainEth), v3Tok, 3000)
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
		{"v3: within", wire.ChainEth, v3Tok.Address, f(59_000), f(60_001), f(33_000), f(33_334), "", ""},
		{"v3: liquidity below the minimum", wire.ChainEth, v3Tok.Address, f(60_001), nil, nil, nil, apierr.LiquidityOutOfRange, v3Liq},
		{"v3: liquidity above the maximum", wire.ChainEth, v3Tok.Address, nil, f(59_000), nil, nil, apierr.LiquidityOutOfRange, v3Liq},
		{"v3: market cap below the minimum", wire.ChainEth, v3Tok.Address, nil, nil, f(33_334), nil, apierr.MarketCapOutOfRange, v3Cap},
		{"v3: market cap above the maximum", wire.ChainEth, v3Tok.Address, nil, nil, nil, f(33_000), apierr.MarketCapOutOfRange, v3Cap},
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

// v3Figures computes, from the pool's own state, a V3 token's liquidity
// (twice the dollar value of the pool's quote balance) and market cap (the
// price of slot0 times the supply) at usd dollars per native coin, as the
// details of the bounds' refusals give them.
func v3Figures(t testing.TB, c *devevm.Chain, tok devevm.Token, usd int64) (liquidity, marketCap string) {
	t.Helper()
	pool, err := uniswap.NewUniswapV3Pool(tok.Pool, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	slot0, err := pool.Slot0(nil)
	if err != nil {
		t.Fatal(err)
	}
	weth, err := contracts.NewERC20(tok.Quote, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	held, err := weth.BalanceOf(nil, tok.Pool)
	if err != nil {
		t.Fatal(err)
	}
	erc, err := contracts.NewERC20(tok.Address, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	supply, err := erc.TotalSupply(nil)
	if err != nil {
		t.Fatal(err)
	}
	wei := big.NewRat(usd, 1e18) // dollars per wei
	liq := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Mul(held, big.NewInt(2))), wei)
	sq := new(big.Int).Mul(slot0.SqrtPriceX96, slot0.SqrtPriceX96)
	price := new(big.Rat).SetFrac(sq, new(big.Int).Lsh(big.NewInt(1), 192)) // token1 per token0
	if t0, _ := uniswap.SortTokens(tok.Address, tok.Quote); t0 != tok.Address {
		price.Inv(price)
	}
	mcap := new(big.Rat).Mul(new(big.Rat).Mul(price, new(big.Rat).SetInt(supply)), wei)
	return liq.FloatString(2), mcap.FloatString(2)
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
	// Contracts whose code breaks off on any call: a stack underflow, a
	// jump to nowhere.
	deployer := newBindKey(t)
	e.fund(t, wire.ChainBsc, deployer.addr, "10", nil)
	underflow := deployer.deployCode(t, e.dev.chain(t, wire.ChainBsc), []byte{0x50})
	badJump := deployer.deployCode(t, e.dev.chain(t, wire.ChainBsc), []byte{0x60, 0x00, 0x56})
	precompile := common.HexToAddress("0x0000000000000000000000000000000000000009")
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
		{"a token quantity of 0", func() *wire.SwapJob {
			j := e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(rich, "0"))
			j.SellMode = wire.SellTokens
			return j
		}(), apierr.InvalidRequest, "amount"},
		{"an unknown sell_mode", func() *wire.SwapJob {
			j := e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(rich, "5"))
			j.SellMode = "all"
			return j
		}(), apierr.InvalidRequest, "sell_mode"},
		{"a quote asset the chain lacks", e.job(wire.ChainBsc, wire.Buy, tok.Address, "USDG", legOf(rich, "1")), apierr.InvalidRequest, "quote_asset"},
		{"an unknown chain", e.job("sol", wire.Buy, tok.Address, "", legOf(rich, "1")), apierr.InvalidRequest, "chain"},
		{"a malformed token", func() *wire.SwapJob {
			j := e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "1"))
			j.Token = "0x12"
			return j
		}(), apierr.InvalidRequest, "address"},
		// A refused amount names the request field it came from.
		{"an amount beyond 256 bits", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, strings.Repeat("9", 70))), apierr.InvalidRequest, "amount"},
		{"too many decimals in the top-level amount", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.0000000000000000001")), apierr.InvalidRequest, "amount"},
		{"too many decimals in a wallet's amount", e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(rich, "0.01"), ownAmount(legOf(poor, "0.0000000000000000001"), 1)),
			apierr.InvalidRequest, "wallets[1].amount"},
		{"a sell percent above 100", e.job(wire.ChainBsc, wire.Sell, tok.Address, "", ownAmount(legOf(rich, "101"), 0)), apierr.InvalidRequest, "wallets[0].amount"},
		// The zero address stands for the native coin among a wallet's
		// reads: it is no token to trade.
		{"a sale of the zero address", e.job(wire.ChainBsc, wire.Sell, common.Address{}, "", legOf(rich, "100")), apierr.TokenNotFound, common.Address{}.Hex()},
		{"a buy of the zero address", e.job(wire.ChainBsc, wire.Buy, common.Address{}, "", legOf(rich, "0.01")), apierr.TokenNotFound, common.Address{}.Hex()},
		{"a precompile", e.job(wire.ChainBsc, wire.Buy, precompile, "", legOf(rich, "0.01")), apierr.TokenNotFound, precompile.Hex()},
		{"a contract that underflows its stack", e.job(wire.ChainBsc, wire.Buy, underflow, "", legOf(rich, "0.01")), apierr.TokenNotFound, underflow.Hex()},
		{"a sale of a contract that jumps to nowhere", e.job(wire.ChainBsc, wire.Sell, badJump, "", legOf(rich, "100")), apierr.TokenNotFound, badJump.Hex()},
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
		// The order names the wallet left out, and why.
		if len(b.SkippedWallets) != 1 || b.SkippedWallets[0].Wallet != empty.Hex() || !strings.Contains(b.SkippedWallets[0].Reason, "holds none") {
			t.Fatalf("skipped wallets %+v, want %s with nothing to sell", b.SkippedWallets, empty.Hex())
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
		// The nonces are taken once the keys are read and the swap
		// simulated: nothing was written of the wallet's.
		if e, gerr := e.nats.buckets(t).Nonces.Get(ctx, nonceKey(wire.ChainBsc, w)); gerr == nil {
			t.Fatalf("a failed signing wrote the wallet's nonce record: %s", e.Value())
		}
	})
}

// TestFees checks the fee fields, and the processor tip: a plain transfer
// of the native coin to the chain's tip address, signed between the
// approval (none here) and the swap, and sent with the swap as one bundle
// that the relay lands in one block.
func TestFees(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	w := e.wallet(t, wire.ChainEth, "5", nil)
	d := e.dev.chain(t, wire.ChainEth).Deployment()
	tipped := func(t *testing.T, b *wire.TxBatch, tip *big.Int) {
		t.Helper()
		txs := decode(t, b)
		if len(txs) != 2 {
			t.Fatalf("%d transactions, want the tip and the swap", len(txs))
		}
		tipTx, swap := txs[0], txs[1]
		if tipTx.To() == nil || *tipTx.To() != d.RelayTipAddress || tipTx.Value().Cmp(tip) != 0 || len(tipTx.Data()) != 0 {
			t.Fatalf("tip transaction to %v value %s data %x, want a plain transfer of %s to %s", tipTx.To(), tipTx.Value(),
				tipTx.Data(), tip, d.RelayTipAddress)
		}
		if swap.To() == nil || *swap.To() != d.Router02 || swap.Value().Cmp(units(t, "0.01", 18)) != 0 {
			t.Fatalf("swap to %v value %s, want Router02 with the amount alone", swap.To(), swap.Value())
		}
		if swap.Nonce() != tipTx.Nonce()+1 {
			t.Fatalf("nonces tip %d swap %d", tipTx.Nonce(), swap.Nonce())
		}
		for _, stx := range b.Txs {
			if !stx.Private || stx.Raw[0] != txbundle.Prefix || string(stx.Raw) != string(b.Txs[0].Raw) {
				t.Fatalf("transaction %s does not carry the leg's bundle to the relay", stx.Signature)
			}
		}
		before := e.balance(t, wire.ChainEth, d.RelayTipAddress, "")
		rs := e.broadcast(t, b)
		if got := new(big.Int).Sub(e.balance(t, wire.ChainEth, d.RelayTipAddress, ""), before); got.Cmp(tip) != 0 {
			t.Fatalf("the tip address got %s, want %s", got, tip)
		}
		if rs[0].BlockNumber.Cmp(rs[1].BlockNumber) != 0 {
			t.Fatalf("tip in block %s, swap in block %s: not one bundle", rs[0].BlockNumber, rs[1].BlockNumber)
		}
		for _, stx := range b.Txs {
			if !e.dev.chain(t, wire.ChainEth).Relayed(common.HexToHash(stx.Signature)) {
				t.Fatalf("%s did not come through the relay", stx.Signature)
			}
		}
	}

	t.Run("priority fee and processor tip", func(t *testing.T) {
		job := e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))
		job.PriorityFee = "3000000000"        // 3 gwei
		job.ProcessorTip = "1000000000000000" // 0.001 ETH
		b, err := e.signer.Sign(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range decode(t, b) {
			if tx.GasTipCap().Int64() != 3e9 {
				t.Fatalf("tip cap %s, want 3 gwei", tx.GasTipCap())
			}
		}
		tipped(t, b, big.NewInt(1e15))
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
		if tx := decode(t, b)[0]; tx.GasTipCap().Int64() < 2e9 {
			t.Fatalf("auto tip cap %s under the chain's floor", tx.GasTipCap())
		}
		tipped(t, b, big.NewInt(2e15))
	})
	t.Run("no tip: the swap alone, public", func(t *testing.T) {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Txs) != 1 || b.Txs[0].Private || b.Txs[0].Raw[0] == txbundle.Prefix {
			t.Fatalf("%d transactions, private %v: want one public swap", len(b.Txs), b.Txs[0].Private)
		}
		e.broadcast(t, b)
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

// TestTipOnlyWithItsSwap signs a tipped buy at no slippage, moves the
// pool before it is sent, and sends it: the relay refuses the whole
// bundle, so neither the tip nor the swap lands and the wallet's nonce is
// untouched; sending it again is refused again.
func TestTipOnlyWithItsSwap(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainBsc, "", 0, 0)
	w := e.wallet(t, wire.ChainBsc, "5", nil)
	mover := e.wallet(t, wire.ChainBsc, "5", nil)
	d := e.dev.chain(t, wire.ChainBsc).Deployment()
	job := e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(w, "0.1"))
	job.SlippageBps, job.ProcessorTip = 0, "3000000000000000"
	b, err := e.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	move, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(mover, "0.5")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, move)
	tipsBefore := e.balance(t, wire.ChainBsc, d.RelayTipAddress, "")
	nonceBefore, err := e.dev.chain(t, wire.ChainBsc).Client().NonceAt(ctx, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		for _, stx := range b.Txs {
			err := e.sender[wire.ChainBsc].Send(ctx, stx)
			var ref *broadcaster.Refused
			if !errors.As(err, &ref) || !strings.Contains(ref.Reason, "reverted") {
				t.Fatalf("round %d: send %s: %v, want the relay's refusal of the reverting bundle", round, stx.Signature, err)
			}
		}
	}
	if got := e.balance(t, wire.ChainBsc, d.RelayTipAddress, ""); got.Cmp(tipsBefore) != 0 {
		t.Fatalf("the tip address got %s without the swap", new(big.Int).Sub(got, tipsBefore))
	}
	if n, err := e.dev.chain(t, wire.ChainBsc).Client().NonceAt(ctx, w, nil); err != nil || n != nonceBefore {
		t.Fatalf("wallet nonce %d (%v), want %d: part of the bundle landed", n, err, nonceBefore)
	}
}

// TestProcessorTipOnlyWhereBundlesAre refuses a client's processor tip on
// a chain without a tip address (base, rbh and arc in production) before
// any chain is read or nonce taken; auto_tip pays none there instead.
func TestProcessorTipOnlyWhereBundlesAre(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		c := Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: NewClient(e.dial(t, e.dev.url(name)))}
		if name == wire.ChainBase {
			c.TipAddress = common.Address{}
		}
		c.AutoProcessorTip = big.NewInt(1e15)
		list = append(list, c)
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.TakesTips(wire.ChainBase) || !s.TakesTips(wire.ChainEth) {
		t.Fatalf("TakesTips base %v eth %v, want false and true", s.TakesTips(wire.ChainBase), s.TakesTips(wire.ChainEth))
	}
	onlyBase := newBindKey(t).deployOn(t, e, wire.ChainBase, "10")
	w := e.wallet(t, wire.ChainBase, "1", nil)
	tests := []struct {
		name  string
		chain string
		tip   string
		auto  bool
		want  string // "" signs; else the refusal's field
		txs   int
	}{
		{"a tip on base is refused", wire.ChainBase, "1", false, "processor_tip", 0},
		{"a tip on base found without a chain is refused", "", "1", false, "processor_tip", 0},
		{"no tip on base", wire.ChainBase, "0", false, "", 1},
		{"auto_tip on base pays no tip", wire.ChainBase, "", true, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := e.job(tt.chain, wire.Buy, onlyBase, "", legOf(w, "0.001"))
			job.ProcessorTip, job.AutoTip = tt.tip, tt.auto
			b, err := s.Sign(ctx, job)
			if tt.want != "" {
				ae := wantCode(t, err, apierr.InvalidRequest, tt.want)
				if !strings.Contains(ae.Message, "base") || !strings.Contains(ae.Message, "no bundle market") {
					t.Fatalf("message %q does not say why", ae.Message)
				}
				if _, gerr := e.nats.buckets(t).Nonces.Get(ctx, nonceKey(wire.ChainBase, w)); gerr == nil {
					t.Fatal("a refused tip took nonces")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Txs) != tt.txs {
				t.Fatalf("%d transactions, want %d", len(b.Txs), tt.txs)
			}
			e.broadcast(t, b)
		})
	}
}

// TestAntiMEVOnlyWhereARelayIs refuses an anti_mev order on a chain
// without a private relay before any chain is read or nonce taken: signed,
// the broadcaster would refuse it, and its nonce would be a gap the
// wallet's next orders wait behind. Found without a chain, the order is
// refused once it resolves to such a chain.
func TestAntiMEVOnlyWhereARelayIs(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		c := Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: NewClient(e.dial(t, e.dev.url(name)))}
		if name == wire.ChainBase {
			c.PrivateRelay = false
		}
		list = append(list, c)
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	onlyBase := newBindKey(t).deployOn(t, e, wire.ChainBase, "10")
	w := e.wallet(t, wire.ChainBase, "1", nil)
	for _, chain := range []string{wire.ChainBase, ""} {
		job := e.job(chain, wire.Buy, onlyBase, "", legOf(w, "0.001"))
		job.AntiMEV = true
		_, err := s.Sign(ctx, job)
		ae := wantCode(t, err, apierr.InvalidRequest, "anti_mev")
		if !strings.Contains(ae.Message, "base") || !strings.Contains(ae.Message, "relay_url") {
			t.Fatalf("message %q does not say why", ae.Message)
		}
		if _, gerr := e.nats.buckets(t).Nonces.Get(ctx, nonceKey(wire.ChainBase, w)); gerr == nil {
			t.Fatalf("chain %q: a refused anti_mev order took nonces", chain)
		}
	}
	b, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, onlyBase, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
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
	tok := e.token(t, wire.ChainBase, "", 0, 0)
	w := e.wallet(t, wire.ChainBase, "100", nil)
	dropped, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	queued, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	lost, behind := decode(t, dropped)[0], decode(t, queued)[0]
	if behind.Nonce() != lost.Nonce()+1 {
		t.Fatalf("nonces %d then %d", lost.Nonce(), behind.Nonce())
	}
	// The second order reaches the chain; it waits behind the lost nonce.
	if err := e.sender[wire.ChainBase].Send(ctx, queued.Txs[0]); err != nil {
		t.Fatal(err)
	}
	clock.advance(DefaultNonceStale - time.Second)
	early, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.001")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, early)[0].Nonce(); n != behind.Nonce()+1 {
		t.Fatalf("within the bound the next nonce is %d, want %d", n, behind.Nonce()+1)
	}
	clock.advance(2 * time.Second)
	refill, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.002")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, refill)[0].Nonce(); n != lost.Nonce() {
		t.Fatalf("after the bound the next nonce is %d, want the lost %d", n, lost.Nonce())
	}
	e.broadcast(t, refill)
	e.mined(t, queued) // the gap is filled: the queued order lands too
	var ref interface{ Error() string }
	if err := e.sender[wire.ChainBase].Send(ctx, dropped.Txs[0]); err == nil {
		t.Fatal("the lost transaction was accepted after its nonce was reused")
	} else {
		ref = err
	}
	if !strings.Contains(ref.Error(), "nonce too low") {
		t.Fatalf("the lost transaction: %v, want nonce too low", ref)
	}
}

// taxedV3 deploys a token with the given taxes on transfers out of and
// into its V3 pool of the 3000 tier, which holds 900,000,000 tokens against
// 10 native coins.
func (e *env) taxedV3(t testing.TB, chain string, buyBps, sellBps int64) devevm.Token {
	t.Helper()
	ctx := context.Background()
	c := e.dev.chain(t, chain)
	d := c.Deployment()
	owner := newBindKey(t)
	e.fund(t, chain, owner.addr, "100", nil)
	supply := units(t, "1000000000", 18)
	addr, tx, tok, err := contracts.DeployTaxToken(owner.opts(t, c), c.Client(), "TaxedV3", "TV3", supply,
		big.NewInt(buyBps), big.NewInt(sellBps), common.Address{}, common.Address{}, common.Address{})
	waitTx(t, c, tx, err)
	weth, err := contracts.NewWrappedNative(d.WrappedNative, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	o := owner.opts(t, c)
	o.Value = units(t, "10", 18)
	tx, err = weth.Deposit(o)
	waitTx(t, c, tx, err)
	pos, err := uniswap.AddLiquidityV3(ctx, c.Client(), owner.opts(t, c), d.Uniswap(), addr, d.WrappedNative, 3000,
		units(t, "900000000", 18), units(t, "10", 18), owner.addr)
	if err != nil {
		t.Fatal(err)
	}
	tx, err = tok.SetPair(owner.opts(t, c), pos.Pool, true)
	waitTx(t, c, tx, err)
	return devevm.Token{Address: addr, Pool: pos.Pool, Quote: d.WrappedNative, Venue: devevm.VenueV3, FeeTier: 3000}
}

// wantTax compares probed taxes: the probe measures what a round trip
// loses, which the pool's curve moves by a hundredth of a percent at most.
func wantTax(t testing.TB, got, want *wire.TaxProbe) {
	t.Helper()
	if math.Abs(got.BuyPct-want.BuyPct) > 0.01 || math.Abs(got.SellPct-want.SellPct) > 0.01 {
		t.Fatalf("tax %+v, want %+v", got, want)
	}
}

// TestDeadlineFollowsTheClock signs a V2 buy on a chain whose latest block
// is older than the clock by more than the deadline, as on a chain that
// makes blocks only while transactions wait: the swap's deadline counts
// from the clock, not from that head, so the swap is not past its deadline
// when it lands in the next block. A clock behind the head counts from
// the head. The batch is sent by the earlier of the deadline it carries
// and the one the clock counts, on a clock that moves while it is signed
// too.
func TestDeadlineFollowsTheClock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainBase
	tok := e.token(t, chain, "", 0, 0)
	w := e.wallet(t, chain, "1", nil)
	head, err := e.signer.chains[chain].client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := uint64(e.signer.cfg.DeadlineAfter.Seconds())
	for _, tc := range []struct {
		name string
		now  time.Time
		want uint64
	}{
		{"clock ahead of the head", time.Unix(int64(head.Time), 0).Add(10 * time.Minute), head.Time + 600 + after},
		{"clock behind the head", time.Unix(int64(head.Time), 0).Add(-time.Minute), head.Time + after},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.signer.now = func() time.Time { return tc.now }
			t.Cleanup(func() { e.signer.now = time.Now })
			b, err := e.signer.Sign(ctx, e.job(chain, wire.Buy, tok.Address, "", legOf(w, "0.01")))
			if err != nil {
				t.Fatal(err)
			}
			txs := decode(t, b)
			if got := v2BuyArgs(t, txs[len(txs)-1])[3].(*big.Int); !got.IsUint64() || got.Uint64() != tc.want {
				t.Fatalf("deadline %s, want %d (head %d)", got, tc.want, head.Time)
			}
			// The broadcaster sends nothing of it past the deadline it
			// carries, nor past the one the clock counts.
			want := time.Unix(int64(tc.want), 0)
			if byClock := tc.now.Add(e.signer.cfg.DeadlineAfter); byClock.Before(want) {
				want = byClock
			}
			if !b.SendBy.Equal(want) {
				t.Fatalf("send by %s, want %s (the deadline %d)", b.SendBy, want, tc.want)
			}
		})
	}
	t.Run("a clock that moves while the order is signed", func(t *testing.T) {
		var mu sync.Mutex
		at := time.Unix(int64(head.Time), 0).Add(10 * time.Minute)
		e.signer.now = func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			at = at.Add(200 * time.Millisecond)
			return at
		}
		t.Cleanup(func() { e.signer.now = time.Now })
		b, err := e.signer.Sign(ctx, e.job(chain, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatal(err)
		}
		txs := decode(t, b)
		if deadline := v2BuyArgs(t, txs[len(txs)-1])[3].(*big.Int); b.SendBy.After(time.Unix(deadline.Int64(), 0)) {
			t.Fatalf("send by %s, after the swap's deadline %s", b.SendBy, time.Unix(deadline.Int64(), 0).UTC())
		}
	})
}

// TestSellWithoutQuoteAssetOfAStableToken: a sale that names no quote asset
// (or one the token has no pool against) receives what the token trades
// against, here the USDT its only pool is quoted in, as a bot that bought
// with USDT expects when it sells.
func TestSellWithoutQuoteAssetOfAStableToken(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainBsc, "USDT", 0, 0)
	w := e.wallet(t, wire.ChainBsc, "1", map[string]string{"USDT": "100"})
	b, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "USDT", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	usdt := "USDT"
	before := e.balance(t, wire.ChainBsc, w, usdt)
	b, err = e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(w, "100")))
	if err != nil {
		t.Fatalf("a sale without quote_asset of a USDT-quoted token: %v", err)
	}
	if !strings.Contains(b.Route, "(USDT)") {
		t.Fatalf("route %q, want the USDT pool", b.Route)
	}
	e.broadcast(t, b)
	if got := new(big.Int).Sub(e.balance(t, wire.ChainBsc, w, usdt), before); got.Sign() <= 0 {
		t.Fatalf("the sale paid %s USDT base units", got)
	}
	if left := e.balance(t, wire.ChainBsc, w, tok.Address.Hex()); left.Sign() != 0 {
		t.Fatalf("%s tokens left after selling all", left)
	}
	// quote_asset is what a buy spends: a sale that names another than
	// the token's still sells into the pool it has.
	b, err = e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "USDT", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	b, err = e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Sell, tok.Address, "BNB", legOf(w, "100")))
	if err != nil || !strings.Contains(b.Route, "(USDT)") {
		t.Fatalf("a sale naming BNB of a USDT-quoted token: %v, route %v", err, b)
	}
}

// TestSalesNotMinedAreNotSoldAgain: a wallet's sale signed but not mined
// yet still takes its tokens. A second sale of 100 % is refused instead of
// being sent to revert on chain; two percent sales compound; once the
// first is mined the wallet's balance is what counts again; two sales of
// 100 % signed at once give one transaction. The same holds for a stable
// two buys spend.
func TestSalesNotMinedAreNotSoldAgain(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	w := e.wallet(t, wire.ChainEth, "5", map[string]string{"USDC": "10"})
	b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.1")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	held := e.balance(t, wire.ChainEth, w, tok.Address.Hex())
	sold := func(b *wire.TxBatch) *big.Int {
		txs := decode(t, b)
		return new(big.Int).SetBytes(txs[len(txs)-1].Data()[4:36]) // swapExactTokensForETH's amountIn
	}

	first, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, tok.Address, "", legOf(w, "10")))
	if err != nil {
		t.Fatal(err)
	}
	want1 := new(big.Int).Div(held, big.NewInt(10))
	want2 := new(big.Int).Div(new(big.Int).Sub(held, want1), big.NewInt(10))
	if sold(first).Cmp(want1) != 0 || sold(second).Cmp(want2) != 0 {
		t.Fatalf("10 %% sales sold %s then %s, want %s then %s (10 %% of what the first left)", sold(first), sold(second), want1, want2)
	}
	all, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, tok.Address, "", legOf(w, "100")))
	if err != nil {
		t.Fatal(err)
	}
	if want := new(big.Int).Sub(held, new(big.Int).Add(want1, want2)); sold(all).Cmp(want) != 0 {
		t.Fatalf("the sale of the rest sold %s, want %s", sold(all), want)
	}
	_, err = e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Sell, tok.Address, "", legOf(w, "100")))
	wantCode(t, err, apierr.InsufficientBalance, w.Hex())
	for _, b := range []*wire.TxBatch{first, second, all} {
		e.broadcast(t, b)
	}
	if left := e.balance(t, wire.ChainEth, w, tok.Address.Hex()); left.Sign() != 0 {
		t.Fatalf("%s tokens left after the three sales", left)
	}

	// Mined, the sales no longer count: a new holding sells whole.
	if b, err = e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.1"))); err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	held = e.balance(t, wire.ChainEth, w, tok.Address.Hex())
	// Two at once, one on another worker of the chain (a signer of its
	// own, sharing the nonces' records only).
	other := e.newSigner(t, e.nonces, Config{})
	var wg sync.WaitGroup
	batches, errs := make([]*wire.TxBatch, 2), make([]error, 2)
	for i, s := range []*Signer{e.signer, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batches[i], errs[i] = s.Sign(ctx, e.job(wire.ChainEth, wire.Sell, tok.Address, "", legOf(w, "100")))
		}()
	}
	wg.Wait()
	signed := 0
	for i, b := range batches {
		if errs[i] != nil {
			wantCode(t, errs[i], apierr.InsufficientBalance, w.Hex())
			continue
		}
		signed++
		if sold(b).Cmp(held) != 0 {
			t.Fatalf("the sale sold %s of %s", sold(b), held)
		}
		e.broadcast(t, b)
	}
	if signed != 1 {
		t.Fatalf("two sales of 100 %% at once, on two workers, signed %d transactions, want one", signed)
	}

	// The native coin two buys would spend: the node would refuse the
	// second after its nonce was taken, leaving the wallet's next orders
	// behind the gap.
	rich := e.wallet(t, wire.ChainEth, "1", nil)
	first, err = e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(rich, "0.6")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(rich, "0.6")))
	wantCode(t, err, apierr.InsufficientBalance, rich.Hex())
	e.broadcast(t, first)
	if b, err = e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(rich, "0.3"))); err != nil {
		t.Fatalf("a buy the wallet can pay once the first is mined: %v", err)
	}
	if n := decode(t, b)[0].Nonce(); n != 1 {
		t.Fatalf("the next buy's nonce is %d, want 1: the refused one took none", n)
	}

	// A stable two buys would spend.
	usdc := e.token(t, wire.ChainEth, "USDC", 0, 0)
	if _, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, usdc.Address, "USDC", legOf(w, "6"))); err != nil {
		t.Fatal(err)
	}
	_, err = e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, usdc.Address, "USDC", legOf(w, "6")))
	wantCode(t, err, apierr.InsufficientBalance, w.Hex())
}

// pauses is a venue gate whose paused venues are "chain venue" keys.
type pauses map[string]bool

func (p pauses) Open(chain, venue string) error {
	if !p[chain+" "+venue] {
		return nil
	}
	return venues.PausedError(venues.State{Venue: venue, Chain: chain, State: venues.Paused,
		Reason: venue + " on " + chain + ": the router holds other code"})
}

// TestVenuePaused: an order whose pool is of a venue paused on its chain is
// refused VENUE_PAUSED (503) before any key is read; a pause of another
// venue or chain changes nothing; an order without a chain trades on a
// chain whose venue is not paused, and is refused when there is none.
func TestVenuePaused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v2 := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV2})
	v3 := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3})
	// 8 ETH ($24,000) on eth against 6 ETH ($18,000) on base.
	twin, _ := e.twinToken(t, map[string]string{wire.ChainEth: "8", wire.ChainBase: "6"})
	w := e.wallet(t, wire.ChainEth, "1", nil)
	e.fund(t, wire.ChainBase, w, "1", nil)
	// Its V2 pair beside a deeper V3 pool, which a buy takes when it trades.
	lp := newBindKey(t)
	e.fund(t, wire.ChainEth, lp.addr, "200", nil)
	both := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{})
	e.addV3(t, wire.ChainEth, lp, both.Address, 3000, "9000000000", "100")

	tests := []struct {
		name   string
		paused pauses
		chain  string
		token  common.Address
		venue  string // refused VENUE_PAUSED naming it; "" signs
		on     string // the chain signed on
		route  string // part of the route signed
	}{
		{"v2 paused on its chain", pauses{"eth uniswap_v2": true}, wire.ChainEth, v2.Address, venues.UniswapV2, "", ""},
		{"v3 paused on its chain", pauses{"eth uniswap_v3": true}, wire.ChainEth, v3.Address, venues.UniswapV3, "", ""},
		{"the other venue paused", pauses{"eth uniswap_v3": true}, wire.ChainEth, v2.Address, "", wire.ChainEth, "uniswap_v2 pool " + v2.Pool.Hex()},
		{"the best pool's venue paused: the pair of the other", pauses{"eth uniswap_v3": true}, wire.ChainEth, both.Address, "", wire.ChainEth, "uniswap_v2 pool " + both.Pool.Hex()},
		{"nothing paused: the best pool", pauses{}, wire.ChainEth, both.Address, "", wire.ChainEth, "uniswap_v3 fee 3000"},
		{"another chain paused", pauses{"bsc uniswap_v2": true, "base uniswap_v2": true}, wire.ChainEth, v2.Address, "", wire.ChainEth, "uniswap_v2 pool"},
		{"no chain: the deepest chain's venue paused", pauses{"eth uniswap_v2": true}, "", twin, "", wire.ChainBase,
			"with a pool whose venue trades) (left out: uniswap_v2 paused on eth)"},
		{"no chain: every chain's venue paused", pauses{"eth uniswap_v2": true, "base uniswap_v2": true}, "", twin, venues.UniswapV2, "", ""},
		{"no chain: nothing paused", pauses{"bsc uniswap_v2": true}, "", twin, "", wire.ChainEth, "deepest of 2"},
		// Every venue of the chain paused (its RPC serving another chain):
		// refused before any pool is read there, not TOKEN_NOT_FOUND.
		{"every venue of its chain paused", pauses{"eth uniswap_v2": true, "eth uniswap_v3": true}, wire.ChainEth,
			common.HexToAddress("0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7"), venues.UniswapV2, "", ""},
		{"no chain: every venue of one chain paused", pauses{"eth uniswap_v2": true, "eth uniswap_v3": true}, "", twin, "", wire.ChainBase, "uniswap_v2"},
		{"no chain: every venue of the token's only chain paused", pauses{"eth uniswap_v2": true, "eth uniswap_v3": true}, "", v2.Address, venues.UniswapV2, "", ""},
		// A pause for a wrong factory or quoter finds no pool through
		// them: the paused venue may hold it, free, not a charged 404.
		{"no pool found, a venue of the chain paused", pauses{"eth uniswap_v3": true}, wire.ChainEth,
			common.HexToAddress("0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7"), venues.UniswapV3, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := e.newSigner(t, e.nonces, Config{}).WithVenueGate(tt.paused)
			if tt.venue != "" {
				// A key read would fail the order otherwise: the refusal
				// comes before any.
				e.keys.fail.Store(true)
				defer e.keys.fail.Store(false)
			}
			b, err := s.Sign(ctx, e.job(tt.chain, wire.Buy, tt.token, "", legOf(w, "0.01")))
			if tt.venue != "" {
				ae := wantCode(t, err, apierr.VenuePaused, tt.venue)
				if ae.Status() != http.StatusServiceUnavailable || !strings.Contains(ae.Message, "the router holds other code") || b != nil {
					t.Fatalf("refusal %d %q, batch %v", ae.Status(), ae.Message, b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Chain != tt.on || !strings.Contains(b.Route, tt.route) {
				t.Fatalf("signed on %s, route %q; want %s, %q", b.Chain, b.Route, tt.on, tt.route)
			}
			e.broadcast(t, b)
		})
	}
	// A token on no chain, named by an order without one, while a single
	// venue of some chain is paused (every chain still read): not found,
	// not a pause that cannot hold it.
	t.Run("no chain: a token nowhere, one venue paused", func(t *testing.T) {
		s := e.newSigner(t, e.nonces, Config{}).WithVenueGate(pauses{"base uniswap_v3": true})
		_, err := s.Sign(ctx, e.job("", wire.Buy, common.HexToAddress("0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7"), "", legOf(w, "0.01")))
		wantCode(t, err, apierr.TokenNotFound, "")
	})
}

// TestChainlessSaleCountsSalesInFlight: a sale that names no chain counts
// the wallet's sales not yet mined as one naming its chain does, those of
// another worker of the chain signed meanwhile included: after a 50 %
// sale, a chainless 50 % sells half of what is left, and a chainless 100 %
// the rest, instead of more than the wallet will hold, which the chain
// would refuse.
func TestChainlessSaleCountsSalesInFlight(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	w := e.wallet(t, wire.ChainEth, "5", nil)
	buy := func() *big.Int {
		t.Helper()
		b, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.1")))
		if err != nil {
			t.Fatal(err)
		}
		e.broadcast(t, b)
		return e.balance(t, wire.ChainEth, w, tok.Address.Hex())
	}
	sale := func(s *Signer, chain, percent string) (*wire.TxBatch, error) {
		j := e.job(chain, wire.Sell, tok.Address, "", legOf(w, percent))
		j.SlippageBps = 5000 // the sales move the pool's price before each other lands
		return s.Sign(ctx, j)
	}
	sold := func(b *wire.TxBatch) *big.Int {
		txs := decode(t, b)
		return new(big.Int).SetBytes(txs[len(txs)-1].Data()[4:36]) // swapExactTokensForETH's amountIn
	}

	held := buy()
	var batches []*wire.TxBatch
	want := new(big.Int)
	for _, s := range []struct {
		chain   string
		percent int64
	}{{wire.ChainEth, 50}, {wire.ChainAnyEVM, 50}, {wire.ChainAnyEVM, 100}} {
		b, err := sale(e.signer, s.chain, strconv.FormatInt(s.percent, 10))
		if err != nil {
			t.Fatalf("a %d %% sale on %q: %v", s.percent, s.chain, err)
		}
		left := new(big.Int).Sub(held, want)
		share := new(big.Int).Div(new(big.Int).Mul(left, big.NewInt(s.percent)), big.NewInt(100))
		if got := sold(b); got.Cmp(share) != 0 {
			t.Fatalf("a %d %% sale on %q sold %s of %s left, want %s", s.percent, s.chain, got, left, share)
		}
		// A chainless sale's route says why its chain was chosen.
		if s.chain == wire.ChainAnyEVM && !strings.Contains(b.Route, "(the only chain of") {
			t.Fatalf("a chainless sale's route %q says not why its chain", b.Route)
		}
		want.Add(want, share)
		batches = append(batches, b)
	}
	for _, b := range batches {
		e.broadcast(t, b)
	}
	if left := e.balance(t, wire.ChainEth, w, tok.Address.Hex()); left.Sign() != 0 {
		t.Fatalf("%s tokens left after the sales", left)
	}

	// Two at once on two workers of the chain (signers sharing the nonces'
	// records only), one naming the chain, one not: 75 % is sold, as one
	// after the other would, and both land.
	held = buy()
	other := e.newSigner(t, e.nonces, Config{})
	for round := range 5 {
		var wg sync.WaitGroup
		batches, errs := make([]*wire.TxBatch, 2), make([]error, 2)
		for i, c := range []struct {
			s     *Signer
			chain string
		}{{e.signer, wire.ChainEth}, {other, wire.ChainAnyEVM}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				batches[i], errs[i] = sale(c.s, c.chain, "50")
			}()
		}
		wg.Wait()
		total := new(big.Int)
		for i, b := range batches {
			if errs[i] != nil {
				t.Fatalf("round %d: sale %d: %v", round, i, errs[i])
			}
			total.Add(total, sold(b))
		}
		if want := new(big.Int).Sub(held, new(big.Int).Div(held, big.NewInt(4))); new(big.Int).Sub(total, want).CmpAbs(big.NewInt(1)) > 0 {
			t.Fatalf("round %d: two 50 %% sales sold %s of %s, want 75 %%", round, total, held)
		}
		// Both sent before either is waited for: which of the two took
		// the wallet's lower nonce is the race's, and the higher cannot
		// land before the lower is sent.
		for _, b := range batches {
			e.send(t, b)
		}
		for _, b := range batches {
			e.mined(t, b)
		}
		left := e.balance(t, wire.ChainEth, w, tok.Address.Hex())
		// Sell the rest, and buy again for the next round.
		b, err := sale(e.signer, wire.ChainEth, "100")
		if err != nil || sold(b).Cmp(left) != 0 {
			t.Fatalf("round %d: the rest: %v", round, err)
		}
		e.broadcast(t, b)
		held = buy()
	}
}

// TestTaxedPairLosesToATaxFreePool: a token taxed on its V2 pair alone (as
// many tax only their pair) with a V3 pool beside it that pays 1% less
// before tax: under max_tax the order trades on the V3 pool, which pays
// the wallet more after the pair's 2.5% tax, and a cap under that tax
// trades there too instead of refusing the token; without max_tax nothing
// is probed and the pair, best before tax, is chosen.
func TestTaxedPairLosesToATaxFreePool(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := e.dev.chain(t, wire.ChainEth)
	d := c.Deployment()
	taxed := e.token(t, wire.ChainEth, "", 250, 250)
	pair, err := uniswap.NewUniswapV2Pair(uniswap.V2PairAddress(d.Factory, taxed.Address, d.WrappedNative), c.Client())
	if err != nil {
		t.Fatal(err)
	}
	r, err := pair.GetReserves(nil)
	if err != nil {
		t.Fatal(err)
	}
	rToken, rNative := r.Reserve0, r.Reserve1
	if t0, _ := uniswap.SortTokens(taxed.Address, d.WrappedNative); t0 != taxed.Address {
		rToken, rNative = rNative, rToken
	}
	// 10 native coins against 99% of the tokens the pair prices them at.
	tokens := new(big.Int).Mul(rToken, big.NewInt(990))
	tokens.Quo(tokens, new(big.Int).Mul(rNative, big.NewInt(100)))
	lp := newBindKey(t)
	e.fund(t, wire.ChainEth, lp.addr, "20", nil)
	v3 := e.addV3(t, wire.ChainEth, lp, taxed.Address, 500, tokens.String(), "10")
	w := e.wallet(t, wire.ChainEth, "5", nil)
	q := quotesOf(t, c, taxed.Address, wire.Buy, units(t, "0.001", 18))
	if q["v2"].Cmp(q["v3/500"]) <= 0 || afterTax(q["v2"], 250).Cmp(q["v3/500"]) >= 0 {
		t.Fatalf("quotes %v: want the pair best before its tax and the V3 pool after it", q)
	}
	capOf := func(bps uint32) *uint32 { return &bps }
	for _, tt := range []struct {
		name string
		cap  *uint32
		pool common.Address
	}{
		{"no max_tax: the pair, best before tax", nil, taxed.Pool},
		{"max_tax over the pair's tax", capOf(500), v3},
		{"max_tax under the pair's tax", capOf(100), v3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			job := e.job(wire.ChainEth, wire.Buy, taxed.Address, "", legOf(w, "0.001"))
			job.SlippageBps = 500
			job.MaxTaxBps = tt.cap
			b, err := e.signer.Sign(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			e.broadcast(t, b)
			if !strings.Contains(b.Route, "pool "+tt.pool.Hex()) {
				t.Fatalf("route %q, want pool %s", b.Route, tt.pool.Hex())
			}
			if tt.cap != nil && !strings.Contains(b.Route, "best after tax of v2 ") {
				t.Fatalf("route %q does not say what each pool pays after its tax", b.Route)
			}
		})
	}
}

// TestTaxHintSaysThePriceMayHaveMoved: a swap refused for too little out
// says the price may have moved past the slippage, and points to max_tax
// only when no tax was probed.
func TestTaxHintSaysThePriceMayHaveMoved(t *testing.T) {
	for _, tt := range []struct {
		tax           *taxResult
		msg           string
		moved, maxTax bool
	}{
		{nil, "execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT", true, true},
		{&taxResult{}, "execution reverted: Too little received", true, false},
		{nil, "execution reverted: TransferHelper: TRANSFER_FROM_FAILED", false, false},
	} {
		got := taxHint(&order{tax: tt.tax}, tt.msg)
		if strings.Contains(got, "price moved") != tt.moved || strings.Contains(got, "max_tax") != tt.maxTax {
			t.Errorf("%s (tax %v): %q", tt.msg, tt.tax, got)
		}
	}
}
