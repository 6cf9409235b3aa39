package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// The five chains are started once for the package's tests and served on
// 127.0.0.1, as the devnet role serves them.
var (
	testChains *Chains
	testURL    string
)

func TestMain(m *testing.M) {
	cs, err := New(Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start local chains:", err)
		os.Exit(1)
	}
	srv := httptest.NewServer(cs.Handler())
	testChains, testURL = cs, srv.URL
	code := m.Run()
	srv.Close()
	if err := cs.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close local chains:", err)
		code = 1
	}
	os.Exit(code)
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func chainOf(t testing.TB, name string) *Chain {
	t.Helper()
	c, ok := testChains.Chain(name)
	if !ok {
		t.Fatalf("no chain %s", name)
	}
	return c
}

// dial connects to a chain's endpoint over HTTP.
func dial(t testing.TB, name, suffix string) (*ethclient.Client, *rpc.Client) {
	t.Helper()
	rc, err := rpc.Dial(testURL + "/evm/" + name + suffix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	return ethclient.NewClient(rc), rc
}

// fundedKey returns a new key holding coins of the chain's native coin.
func fundedKey(t testing.TB, c *Chain, coins int64) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Fund(testCtx(t), crypto.PubkeyToAddress(k.PublicKey), wholeUnits(coins, 18)); err != nil {
		t.Fatal(err)
	}
	return k
}

// waitReceipt polls a receipt over the client until a deadline.
func waitReceipt(t testing.TB, ec *ethclient.Client, hash common.Hash) *types.Receipt {
	t.Helper()
	return poll.Value(t, 10*time.Second, "receipt of "+hash.Hex(), func() (*types.Receipt, bool) {
		r, err := ec.TransactionReceipt(context.Background(), hash)
		return r, err == nil
	})
}

// transfer signs an EIP-1559 transfer with fees from the node's suggestions.
func transfer(t testing.TB, ec *ethclient.Client, chainID *big.Int, key *ecdsa.PrivateKey, to common.Address, wei *big.Int) *types.Transaction {
	t.Helper()
	ctx := testCtx(t)
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := ec.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := ec.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
		Gas:       21_000, To: &to, Value: wei,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// randomAddress is a fresh address, so tests can run more than once on the
// same chains.
func randomAddress(t testing.TB) common.Address {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}

func TestDeployments(t *testing.T) {
	tests := []struct {
		chain    string
		chainID  int64
		native   string
		wrapped  string
		stables  []string
		usdPrice int64
	}{
		{"eth", 1, "ETH", "WETH", []string{"USDC", "USDT"}, 3000},
		{"bsc", 56, "BNB", "WBNB", []string{"USD1", "USDC", "USDT"}, 600},
		{"base", 8453, "ETH", "WETH", []string{"USDC"}, 3000},
		{"rbh", 46630, "ETH", "WETH", []string{"USDG"}, 3000},
		{"arc", 5042002, "USDC", "WUSDC", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.chain, func(t *testing.T) {
			ctx := testCtx(t)
			ec, _ := dial(t, tt.chain, "")
			d := chainOf(t, tt.chain).Deployment()
			id, err := ec.ChainID(ctx)
			if err != nil || id.Int64() != tt.chainID {
				t.Fatalf("eth_chainId = %v, %v; want %d", id, err, tt.chainID)
			}
			if d.NativeSymbol != tt.native || d.ChainID != uint64(tt.chainID) {
				t.Fatalf("deployment says native %s chain %d", d.NativeSymbol, d.ChainID)
			}
			// The official runtime code at every address the chain gives,
			// read over HTTP as a client of the chain reads it.
			if err := uniswap.CheckDeployment(ctx, ec, d.Uniswap()); err != nil {
				t.Fatal(err)
			}
			// The same nonces from the chain's base, so the same addresses
			// on every start, and other addresses on each chain.
			for nonce, a := range map[uint64]common.Address{0: d.WrappedNative, 1: d.Factory, 2: d.Router02, 3: d.V3Factory,
				5: d.PositionManager, 6: d.SwapRouter02, 7: d.QuoterV2} {
				if want := crypto.CreateAddress(DeployerAddress, nonceBase(tt.chain)+nonce); a != want {
					t.Fatalf("contract at nonce %d is %s, want %s", nonce, a, want)
				}
				if code, err := ec.CodeAt(ctx, a, nil); err != nil || len(code) == 0 {
					t.Fatalf("no code at %s: %v", a, err)
				}
			}
			if d.PairCodeHash != common.HexToHash("0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f") ||
				d.PoolCodeHash != common.HexToHash("0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54") {
				t.Fatalf("init code hashes %s and %s are not mainnet's", d.PairCodeHash, d.PoolCodeHash)
			}
			weth, _ := contracts.NewERC20(d.WrappedNative, ec)
			if sym, err := weth.Symbol(nil); err != nil || sym != tt.wrapped {
				t.Fatalf("wrapped native symbol %q, %v", sym, err)
			}
			router02, _ := uniswap.NewUniswapV2Router02(d.Router02, ec)
			if w, err := router02.WETH(nil); err != nil || w != d.WrappedNative {
				t.Fatalf("Router02 WETH %s, %v", w, err)
			}
			if f, err := router02.Factory(nil); err != nil || f != d.Factory {
				t.Fatalf("Router02 factory %s, %v", f, err)
			}
			code, err := ec.CodeAt(ctx, d.SwapRouter02, nil)
			if err != nil {
				t.Fatal(err)
			}
			words, _ := uniswap.ImmutableWords(uniswap.NameSwapRouter02, code)
			for _, want := range []common.Address{d.Factory, d.V3Factory, d.PositionManager, d.WrappedNative} {
				if !slices.Contains(words, common.BytesToHash(want[:])) {
					t.Fatalf("SwapRouter02 was not built with %s", want)
				}
			}
			v3, _ := uniswap.NewUniswapV3Factory(d.V3Factory, ec)
			for _, fee := range []uint32{100, 500, 3000, 10000} {
				spacing, _ := uniswap.TickSpacing(fee)
				if got, err := v3.FeeAmountTickSpacing(nil, big.NewInt(int64(fee))); err != nil || got.Int64() != int64(spacing) {
					t.Fatalf("fee tier %d has tick spacing %v, %v; want %d", fee, got, err, spacing)
				}
			}
			if !slices.Equal(d.FeeTiers, []uint32{100, 500, 3000, 10000}) {
				t.Fatalf("fee tiers %v", d.FeeTiers)
			}
			// "router" names the official Router02: the project's own
			// router is gone.
			if d.Router != d.Router02 {
				t.Fatalf("router %s, want Router02 %s", d.Router, d.Router02)
			}
			if len(d.Stables) != len(tt.stables) {
				t.Fatalf("stables %v, want %v", d.Stables, tt.stables)
			}
			factory, _ := uniswap.NewUniswapV2Factory(d.Factory, ec)
			spec, _ := chains.Get(tt.chain)
			for i, sym := range tt.stables {
				addr := d.Stables[sym]
				base := nonceBase(tt.chain)
				if want := crypto.CreateAddress(DeployerAddress, base+uint64(8+i)); addr != want {
					t.Fatalf("%s at %s, want %s", sym, addr, want)
				}
				st, _ := contracts.NewERC20(addr, ec)
				dec, err := st.Decimals(nil)
				asset, _ := spec.Asset(sym)
				if err != nil || int(dec) != asset.Decimals || d.StableDecimals[sym] != dec {
					t.Fatalf("%s decimals %d, %v; want %d", sym, dec, err, asset.Decimals)
				}
				pair, err := factory.GetPair(nil, d.WrappedNative, addr)
				if err != nil || pair != d.USDPairs[sym] || pair != uniswap.V2PairAddress(d.Factory, addr, d.WrappedNative) {
					t.Fatalf("USD pair of %s is %s, %v; deployment says %s", sym, pair, err, d.USDPairs[sym])
				}
				if err := uniswap.CheckCode(ctx, ec, uniswap.NameUniswapV2Pair, pair); err != nil {
					t.Fatal(err)
				}
				// 1 native coin is worth the reference price in the stable.
				out, err := router02.GetAmountsOut(nil, wholeUnits(1, 18), []common.Address{d.WrappedNative, addr})
				if err != nil {
					t.Fatal(err)
				}
				if price := new(big.Int).Div(out[1], wholeUnits(1, int(dec))).Int64(); price < tt.usdPrice*99/100 || price > tt.usdPrice {
					t.Fatalf("1 %s sells for %d %s, want about %d", tt.native, price, sym, tt.usdPrice)
				}
			}
			if len(tt.stables) > 0 && d.USDPair != d.USDPairs[tt.stables[0]] {
				t.Fatalf("USDPair %s, want the %s pair", d.USDPair, tt.stables[0])
			}
			if len(tt.stables) == 0 && d.USDPair != (common.Address{}) {
				t.Fatalf("USDPair %s on a chain without stables", d.USDPair)
			}
		})
	}
}

func TestSignedTransactionOverHTTP(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			ctx := testCtx(t)
			c := chainOf(t, name)
			ec, _ := dial(t, name, "")
			key := fundedKey(t, c, 10)
			from := crypto.PubkeyToAddress(key.PublicKey)
			to := common.BytesToAddress(crypto.Keccak256([]byte("recipient " + name)))
			before, err := ec.BalanceAt(ctx, to, nil)
			if err != nil {
				t.Fatal(err)
			}

			tx := transfer(t, ec, c.ChainID(), key, to, big.NewInt(123_456_789))
			if err := ec.SendTransaction(ctx, tx); err != nil {
				t.Fatal(err)
			}
			// Either still pending or already mined: both count. The pool
			// promotes an accepted transaction to pending on its own
			// goroutine, as go-ethereum's does on a real node, so the
			// pending nonce may lag the answer to the send for an instant.
			poll.Until(t, 5*time.Second, "pending nonce past the sent transaction", func() bool {
				n, err := ec.PendingNonceAt(ctx, from)
				if err != nil {
					t.Fatal(err)
				}
				return n == tx.Nonce()+1
			})
			r := waitReceipt(t, ec, tx.Hash())
			if r.Status != types.ReceiptStatusSuccessful || r.Type != types.DynamicFeeTxType || r.GasUsed != 21_000 {
				t.Fatalf("receipt status %d type %d gas %d", r.Status, r.Type, r.GasUsed)
			}
			after, _ := ec.BalanceAt(ctx, to, nil)
			if got := new(big.Int).Sub(after, before); got.Cmp(big.NewInt(123_456_789)) != 0 {
				t.Fatalf("recipient got %s", got)
			}
			got, pending, err := ec.TransactionByHash(ctx, tx.Hash())
			if err != nil || pending || got.Hash() != tx.Hash() {
				t.Fatalf("eth_getTransactionByHash: pending %v, %v", pending, err)
			}
			// The base fee follows EIP-1559 from block to block.
			block, err := ec.HeaderByNumber(ctx, r.BlockNumber)
			if err != nil {
				t.Fatal(err)
			}
			parent, err := ec.HeaderByHash(ctx, block.ParentHash)
			if err != nil {
				t.Fatal(err)
			}
			cfg := *params.AllDevChainProtocolChanges
			cfg.ChainID = c.ChainID()
			if want := eip1559.CalcBaseFee(&cfg, parent); block.BaseFee.Cmp(want) != 0 {
				t.Fatalf("base fee %s, want %s", block.BaseFee, want)
			}
			if block.Coinbase != BuilderAddress {
				t.Fatalf("coinbase %s, want %s", block.Coinbase, BuilderAddress)
			}
			fh, err := ec.FeeHistory(ctx, 4, nil, []float64{50})
			if err != nil || len(fh.BaseFee) == 0 {
				t.Fatalf("eth_feeHistory: %v", err)
			}
			if _, err := ec.SuggestGasPrice(ctx); err != nil {
				t.Fatalf("eth_gasPrice: %v", err)
			}
		})
	}
}

func TestRelayRecordsWhatItSubmits(t *testing.T) {
	ctx := testCtx(t)
	c := chainOf(t, "base")
	public, _ := dial(t, "base", "")
	relay, relayRPC := dial(t, "base", "/relay")
	key := fundedKey(t, c, 1)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	before := c.RelayedCount()

	viaPublic := transfer(t, public, c.ChainID(), key, to, big.NewInt(1))
	if err := public.SendTransaction(ctx, viaPublic); err != nil {
		t.Fatal(err)
	}
	waitReceipt(t, public, viaPublic.Hash())

	viaRelay := transfer(t, public, c.ChainID(), key, to, big.NewInt(2))
	if err := relay.SendTransaction(ctx, viaRelay); err != nil {
		t.Fatal(err)
	}
	waitReceipt(t, public, viaRelay.Hash())

	private := transfer(t, public, c.ChainID(), key, to, big.NewInt(3))
	raw, _ := private.MarshalBinary()
	var hash common.Hash
	if err := relayRPC.CallContext(ctx, &hash, "eth_sendPrivateTransaction",
		map[string]any{"tx": hexutil.Bytes(raw), "maxBlockNumber": "0x1000"}); err != nil {
		t.Fatal(err)
	}
	if hash != private.Hash() {
		t.Fatalf("relay answered %s for %s", hash, private.Hash())
	}
	waitReceipt(t, public, private.Hash())

	if c.Relayed(viaPublic.Hash()) {
		t.Fatal("a transaction sent to the public endpoint was recorded by the relay")
	}
	if !c.Relayed(viaRelay.Hash()) || !c.Relayed(private.Hash()) {
		t.Fatal("relayed transactions were not recorded")
	}
	if got := c.RelayedCount() - before; got != 2 {
		t.Fatalf("relay recorded %d transactions, want 2", got)
	}
	var listed []common.Hash
	if err := relayRPCOf(t, "base").CallContext(ctx, &listed, "devnet_relayed"); err != nil {
		t.Fatal(err)
	}
	if n := len(listed); n < 2 || listed[n-2] != viaRelay.Hash() || listed[n-1] != private.Hash() {
		t.Fatalf("devnet_relayed = %v", listed)
	}
	// The relay is no general endpoint.
	if _, err := relay.BalanceAt(ctx, to, nil); err == nil {
		t.Fatal("the relay answered eth_getBalance")
	}
}

func relayRPCOf(t testing.TB, name string) *rpc.Client {
	_, rc := dial(t, name, "")
	return rc
}

func TestCreateTokenAndFund(t *testing.T) {
	creator := common.HexToAddress("0x00000000000000000000000000000000c0ffee01")
	tests := []struct {
		chain, quote    string
		liquidity       *big.Int
		buyBps, sellBps uint64
		creator         common.Address
		// wantQuote is the symbol whose token is the pool's quote.
		wantQuote string
	}{
		{"eth", "", nil, 500, 1000, creator, "WETH"},
		{"eth", "USDC", wholeUnits(50_000, 6), 0, 0, common.Address{}, "USDC"},
		{"bsc", "usd1", nil, 300, 300, common.Address{}, "USD1"},
		{"base", "ETH", wholeUnits(2, 18), 0, 2500, creator, "WETH"},
		{"rbh", "USDG", nil, 100, 0, common.Address{}, "USDG"},
		{"arc", "USDC", wholeUnits(10_000, 6), 500, 500, creator, "USDC"},
		{"arc", "", nil, 0, 0, common.Address{}, "USDC"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s", tt.chain, tt.wantQuote), func(t *testing.T) {
			ctx := testCtx(t)
			c := chainOf(t, tt.chain)
			d := c.Deployment()
			tok, err := c.CreateToken(ctx, TokenRequest{Name: "Test " + tt.chain, Symbol: "TST", Quote: tt.quote,
				Liquidity: tt.liquidity, BuyTaxBps: tt.buyBps, SellTaxBps: tt.sellBps, Creator: tt.creator})
			if err != nil {
				t.Fatal(err)
			}
			quote := d.WrappedNative
			if a, ok := d.Stables[tt.wantQuote]; ok {
				quote = a
			}
			if d.NativeToken != (common.Address{}) {
				quote = d.NativeToken
			}
			if tok.Quote != quote || tok.Venue != VenueV2 || tok.FeeTier != 0 || tok.Pool != tok.Pair {
				t.Fatalf("quote %s venue %s fee %d pool %s pair %s; want %s on v2", tok.Quote, tok.Venue, tok.FeeTier, tok.Pool, tok.Pair, quote)
			}
			factory, _ := uniswap.NewUniswapV2Factory(d.Factory, c.Client())
			if p, err := factory.GetPair(nil, tok.Address, quote); err != nil || p != tok.Pair {
				t.Fatalf("factory pair %s, %v; CreateToken said %s", p, err, tok.Pair)
			}
			tt0, _ := contracts.NewTaxToken(tok.Address, c.Client())
			buy, _ := tt0.BuyTaxBps(nil)
			sell, _ := tt0.SellTaxBps(nil)
			if buy.Uint64() != tt.buyBps || sell.Uint64() != tt.sellBps {
				t.Fatalf("taxes %s/%s bps", buy, sell)
			}
			// The pool holds 90% of the supply against the liquidity.
			supply := wholeUnits(tokenSupplyWhole, 18)
			pooled := new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(9)), big.NewInt(10))
			wantLiq := tt.liquidity
			if wantLiq == nil {
				dec := 18
				if s, ok := d.StableDecimals[tt.wantQuote]; ok {
					dec = int(s)
				}
				if quote == d.NativeToken {
					dec = 6
				}
				wantLiq = wholeUnits(defaultTokenUSD, dec)
				if quote == d.WrappedNative {
					wantLiq = c.spec.nativeForUSD(defaultTokenUSD)
				}
			}
			for holder, want := range map[common.Address]*big.Int{tok.Pair: pooled} {
				if b, err := c.Balance(ctx, holder, tok.Address.Hex()); err != nil || b.Cmp(want) != 0 {
					t.Fatalf("pair holds %s tokens, %v; want %s", b, err, want)
				}
			}
			if b, err := c.Balance(ctx, tok.Pair, quote.Hex()); err != nil || b.Cmp(wantLiq) != 0 {
				t.Fatalf("pair holds %s quote, %v; want %s", b, err, wantLiq)
			}
			share := new(big.Int).Div(supply, big.NewInt(10))
			if tt.creator != (common.Address{}) {
				if b, _ := c.Balance(ctx, tt.creator, tok.Address.Hex()); b.Cmp(share) != 0 {
					t.Fatalf("creator holds %s, want %s", b, share)
				}
				if w, _ := tt0.TaxWallet(nil); w != tt.creator {
					t.Fatalf("tax wallet %s, want the creator", w)
				}
			}

			// Funding: the created token, the pool's quote, native coin,
			// each in a wallet of its own: on arc the quote (USDC) and the
			// native coin fund each other.
			for _, f := range []struct {
				token  string
				amount *big.Int
			}{
				{tok.Address.Hex(), wholeUnits(777, 18)},
				{tt.wantQuote, big.NewInt(4242)},
				{"", wholeUnits(3, 18)},
			} {
				wallet := randomAddress(t)
				if err := c.FundToken(ctx, wallet, f.token, f.amount); err != nil {
					t.Fatalf("fund %q: %v", f.token, err)
				}
				if b, err := c.Balance(ctx, wallet, f.token); err != nil || b.Cmp(f.amount) != 0 {
					t.Fatalf("balance of %q is %s, %v; want %s", f.token, b, err, f.amount)
				}
			}
		})
	}
}

func TestDevnetMethodsOverHTTP(t *testing.T) {
	ctx := testCtx(t)
	ec, rc := dial(t, "eth", "")
	var d Deployment
	if err := rc.CallContext(ctx, &d, "devnet_deployment"); err != nil {
		t.Fatal(err)
	}
	if want := chainOf(t, "eth").Deployment(); d.Router02 != want.Router02 || d.SwapRouter02 != want.SwapRouter02 ||
		d.QuoterV2 != want.QuoterV2 || d.V3Factory != want.V3Factory || d.PositionManager != want.PositionManager ||
		d.Factory != want.Factory || d.RelayTipAddress != DefaultRelayTipAddress || d.Stables["USDC"] == (common.Address{}) {
		t.Fatalf("devnet_deployment = %+v", d)
	}

	wallet := randomAddress(t)
	var ok bool
	if err := rc.CallContext(ctx, &ok, "devnet_fund", map[string]any{"address": wallet,
		"amount": "0xde0b6b3a7640000", "token": "USDT", "tokenAmount": "0x3b9aca00"}); err != nil || !ok {
		t.Fatalf("devnet_fund: %v", err)
	}
	if b, _ := ec.BalanceAt(ctx, wallet, nil); b.Cmp(wholeUnits(1, 18)) != 0 {
		t.Fatalf("native balance %s", b)
	}
	usdt, _ := contracts.NewERC20(d.Stables["USDT"], ec)
	if b, _ := usdt.BalanceOf(nil, wallet); b.Cmp(wholeUnits(1000, 6)) != 0 {
		t.Fatalf("USDT balance %s", b)
	}

	var tok Token
	if err := rc.CallContext(ctx, &tok, "devnet_createToken", map[string]any{"name": "Over HTTP", "symbol": "OH",
		"quote": "USDC", "buyTaxBps": "0x1f4", "sellTaxBps": "0x3e8", "creator": wallet}); err != nil {
		t.Fatal(err)
	}
	// The probe over HTTP (eth_call with a state override) sees the taxes.
	buy, sell, err := contracts.ProbeTax(ctx, rc, d.Router02, tok.Address, d.Stables["USDC"], wholeUnits(1, 6))
	if err != nil || buy != 500 || sell != 1000 {
		t.Fatalf("probe: buy %d sell %d, %v", buy, sell, err)
	}
	var v3 Token
	if err := rc.CallContext(ctx, &v3, "devnet_createToken", map[string]any{"name": "V3 over HTTP", "symbol": "V3H",
		"venue": "v3", "feeTier": "0x1f4", "quote": "USDT", "liquidity": "0x2540be400"}); err != nil {
		t.Fatal(err)
	}
	if v3.Venue != VenueV3 || v3.FeeTier != 500 || v3.Pair != (common.Address{}) ||
		v3.Pool != uniswap.V3PoolAddress(d.V3Factory, v3.Address, d.Stables["USDT"], 500) {
		t.Fatalf("devnet_createToken on v3 = %+v", v3)
	}
	if b, err := usdt.BalanceOf(nil, v3.Pool); err != nil || b.Cmp(wholeUnits(10_000, 6)) > 0 || b.Cmp(wholeUnits(9_999, 6)) < 0 {
		t.Fatalf("the V3 pool holds %s USDT, %v; want about 10000", b, err)
	}

	bad := []struct {
		name, method string
		arg          map[string]any
		field        string
	}{
		{"fund without address", "devnet_fund", map[string]any{"amount": "0x1"}, "address"},
		{"fund nothing", "devnet_fund", map[string]any{"address": wallet}, "amount"},
		{"fund token without amount", "devnet_fund", map[string]any{"address": wallet, "token": "USDC"}, "tokenAmount"},
		{"fund unknown symbol", "devnet_fund", map[string]any{"address": wallet, "token": "DOGE", "tokenAmount": "0x1"}, "token"},
		{"fund foreign token", "devnet_fund", map[string]any{"address": wallet, "token": wallet.Hex(), "tokenAmount": "0x1"}, "token"},
		{"fund zero", "devnet_fund", map[string]any{"address": wallet, "amount": "0x0"}, "amount"},
		{"token without name", "devnet_createToken", map[string]any{"symbol": "X"}, "name"},
		{"token without symbol", "devnet_createToken", map[string]any{"name": "X"}, "symbol"},
		{"token tax over 100%", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "sellTaxBps": "0x2711"}, "sellTaxBps"},
		{"token foreign quote", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "quote": "USDG"}, "quote"},
		{"token zero liquidity", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "liquidity": "0x0"}, "liquidity"},
		{"token unknown venue", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "pump_fun"}, "venue"},
		{"token fee tier 0", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "v3", "feeTier": "0x0"}, "feeTier"},
		{"token fee tier not enabled", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "v3", "feeTier": "0x9c4"}, "feeTier"},
		{"token fee tier beyond 32 bits", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "v3", "feeTier": "0x100000bb8"}, "feeTier"},
		{"token fee tier on v2", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "v2", "feeTier": "0xbb8"}, "feeTier"},
		{"token tax on v3", "devnet_createToken", map[string]any{"name": "X", "symbol": "X", "venue": "v3", "sellTaxBps": "0x1"}, "sellTaxBps"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			var out any
			err := rc.CallContext(ctx, &out, tt.method, tt.arg)
			var re rpc.Error
			var de rpc.DataError
			if !errors.As(err, &re) || re.ErrorCode() != -32602 || !errors.As(err, &de) {
				t.Fatalf("error %v, want -32602 with data", err)
			}
			if f, _ := de.ErrorData().(map[string]any)["field"].(string); f != tt.field {
				t.Fatalf("error names field %q, want %q (%v)", f, tt.field, err)
			}
		})
	}
}

func TestEthCallStateOverrideOverHTTP(t *testing.T) {
	ctx := testCtx(t)
	c := chainOf(t, "bsc")
	tok, err := c.CreateToken(ctx, TokenRequest{Name: "Probe me", Symbol: "PRB", BuyTaxBps: 200, SellTaxBps: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	_, rc := dial(t, "bsc", "")
	buy, sell, err := contracts.ProbeTax(ctx, rc, c.Deployment().Router02, tok.Address, common.Address{}, wholeUnits(1, 16))
	if err != nil || buy != 200 || sell != 10_000 {
		t.Fatalf("probe: buy %d sell %d, %v; want 200 and 10000", buy, sell, err)
	}
}

func TestBindingsOverHTTP(t *testing.T) {
	ctx := testCtx(t)
	c := chainOf(t, "eth")
	d := c.Deployment()
	ec, _ := dial(t, "eth", "")
	tok, err := c.CreateToken(ctx, TokenRequest{Name: "Logs", Symbol: "LOG", BuyTaxBps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	key := fundedKey(t, c, 5)
	auth, _ := bind.NewKeyedTransactorWithChainID(key, c.ChainID())
	auth.Value = wholeUnits(1, 18)
	router, _ := uniswap.NewUniswapV2Router02(d.Router02, ec)
	tx, err := router.SwapExactETHForTokensSupportingFeeOnTransferTokens(auth, common.Big1,
		[]common.Address{d.WrappedNative, tok.Address}, auth.From, big.NewInt(time.Now().Add(2*time.Hour).Unix()))
	if err != nil {
		t.Fatal(err)
	}
	r := waitReceipt(t, ec, tx.Hash())
	pair, _ := uniswap.NewUniswapV2Pair(tok.Pool, ec)
	it, err := pair.FilterSwap(&bind.FilterOpts{Start: r.BlockNumber.Uint64(), Context: ctx}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var swaps int
	for it.Next() {
		swaps++
		if it.Event.Raw.TxHash != tx.Hash() {
			t.Fatalf("swap from another transaction %s", it.Event.Raw.TxHash)
		}
	}
	if swaps != 1 {
		t.Fatalf("eth_getLogs found %d swaps, want 1", swaps)
	}
}

func TestClockLeadIsBounded(t *testing.T) {
	c, err := NewChain(ChainConfig{Name: "base", MaxClockDrift: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testCtx(t)
	var maxLead int64
	for i := 0; i < 4; i++ {
		if err := c.Fund(ctx, randomAddress(t), big.NewInt(1)); err != nil {
			t.Fatal(err)
		}
		head, err := c.Client().HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		maxLead = max(maxLead, int64(head.Time)-time.Now().Unix())
	}
	// Four blocks in a row would lead the wall clock by about three seconds;
	// the bound holds it to the drift plus the one-second granularity.
	if maxLead > 2 {
		t.Fatalf("block timestamps led the wall clock by %d s with a 1 s bound", maxLead)
	}
}

func TestUnknownTransactionIsNotFound(t *testing.T) {
	// Right after start, as a client that starts with the chain sees it.
	c, err := NewChain(ChainConfig{Name: "arc"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _, err = c.Client().TransactionByHash(testCtx(t), common.HexToHash("0x1234"))
	if !errors.Is(err, ethereum.NotFound) {
		t.Fatalf("looking up an unknown transaction: %v, want not found", err)
	}
}

// TestBlockTimeSharesBlocks: a chain with a block time seals the
// transactions that arrive within one interval into one block, as a public
// chain does, where the default is a block per transaction; every one of
// them lands.
func TestBlockTimeSharesBlocks(t *testing.T) {
	c, err := NewChain(ChainConfig{Name: "base", BlockTime: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testCtx(t)
	ec := c.Client()
	keys := make([]*ecdsa.PrivateKey, 5)
	for i := range keys {
		keys[i] = fundedKey(t, c, 1)
	}
	txs := make([]*types.Transaction, len(keys))
	for i, k := range keys {
		txs[i] = transfer(t, ec, c.ChainID(), k, randomAddress(t), big.NewInt(1))
	}
	for _, tx := range txs {
		if err := ec.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	blocks := map[uint64]bool{}
	for _, tx := range txs {
		r, err := c.WaitMined(ctx, tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		blocks[r.BlockNumber.Uint64()] = true
	}
	// Sent within a few milliseconds, the five straddle at most one tick.
	if len(blocks) > 2 {
		t.Fatalf("five transactions in %d blocks, want one or two", len(blocks))
	}
}

// A chain without a data folder leaves nothing in the system's temporary
// folder, even when its process dies before Close.
func TestChainInMemoryLeavesNoTemporaryFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	c, err := NewChain(ChainConfig{Name: "base"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("the running chain left %s in the temporary folder", e.Name())
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}
