package exits

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// exitsChain is the local eth chain with a funded buyer.
type exitsChain struct {
	chain *evmdevnet.Chain
	key   *ecdsa.PrivateKey
	buyer common.Address
}

func newExitsChain(t *testing.T) *exitsChain {
	t.Helper()
	key, _ := crypto.GenerateKey()
	buyer := crypto.PubkeyToAddress(key.PublicKey)
	c, err := evmdevnet.NewChain(evmdevnet.ChainConfig{Name: "eth",
		Alloc: map[common.Address]*big.Int{buyer: new(big.Int).Lsh(big.NewInt(1), 70)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &exitsChain{chain: c, key: key, buyer: buyer}
}

func (ec *exitsChain) opts(t *testing.T, value *big.Int) *bind.TransactOpts {
	t.Helper()
	o, err := bind.NewKeyedTransactorWithChainID(ec.key, ec.chain.ChainID())
	if err != nil {
		t.Fatal(err)
	}
	o.Value, o.GasLimit = value, 1_000_000
	return o
}

func (ec *exitsChain) mined(t *testing.T, tx *types.Transaction, err error) *types.Receipt {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := ec.chain.WaitMined(ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s: %v, %v", tx.Hash().Hex(), r, err)
	}
	return r
}

func (ec *exitsChain) balance(t *testing.T, token common.Address) *big.Int {
	t.Helper()
	erc, err := contracts.NewERC20(token, ec.chain.Client())
	if err != nil {
		t.Fatal(err)
	}
	b, err := erc.BalanceOf(nil, ec.buyer)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// buy buys the token with amount of its quote through the official router
// of its pool, as the EVM signer does, and returns the transaction.
func (ec *exitsChain) buy(t *testing.T, tok evmdevnet.Token, amount *big.Int) *types.Transaction {
	t.Helper()
	d := ec.chain.Deployment()
	native := tok.Quote == d.WrappedNative
	if !native {
		if err := ec.chain.FundToken(context.Background(), ec.buyer, tok.Quote.Hex(), amount); err != nil {
			t.Fatal(err)
		}
		erc, _ := contracts.NewERC20(tok.Quote, ec.chain.Client())
		spender := d.Router02
		if tok.Venue == evmdevnet.VenueV3 {
			spender = d.SwapRouter02
		}
		tx, err := erc.Approve(ec.opts(t, nil), spender, amount)
		ec.mined(t, tx, err)
	}
	value := amount
	if !native {
		value = nil
	}
	if tok.Venue == evmdevnet.VenueV2 {
		r, _ := uniswap.NewUniswapV2Router02(d.Router02, ec.chain.Client())
		path := []common.Address{tok.Quote, tok.Address}
		if native {
			tx, err := r.SwapExactETHForTokensSupportingFeeOnTransferTokens(ec.opts(t, value), common.Big0, path, ec.buyer, big.NewInt(1<<40))
			ec.mined(t, tx, err)
			return tx
		}
		tx, err := r.SwapExactTokensForTokensSupportingFeeOnTransferTokens(ec.opts(t, nil), amount, common.Big0, path, ec.buyer, big.NewInt(1<<40))
		ec.mined(t, tx, err)
		return tx
	}
	sr, _ := uniswap.NewSwapRouter02(d.SwapRouter02, ec.chain.Client())
	tx, err := sr.ExactInputSingle(ec.opts(t, value), uniswap.IV3SwapRouterExactInputSingleParams{TokenIn: tok.Quote,
		TokenOut: tok.Address, Fee: big.NewInt(int64(tok.FeeTier)), Recipient: ec.buyer, AmountIn: amount,
		AmountOutMinimum: common.Big0, SqrtPriceLimitX96: common.Big0})
	ec.mined(t, tx, err)
	return tx
}

// wantPrice is the token's price in quote per whole token, read here from
// the pool's own state: a pair's reserves, a V3 pool's slot0.
func (ec *exitsChain) wantPrice(t *testing.T, tok evmdevnet.Token, quoteDecimals uint8) *big.Rat {
	t.Helper()
	t0, _ := uniswap.SortTokens(tok.Address, tok.Quote)
	var price *big.Rat // quote base units per token base unit
	if tok.Venue == evmdevnet.VenueV2 {
		pair, _ := uniswap.NewUniswapV2Pair(tok.Pool, ec.chain.Client())
		r, err := pair.GetReserves(nil)
		if err != nil {
			t.Fatal(err)
		}
		price = new(big.Rat).SetFrac(r.Reserve1, r.Reserve0)
	} else {
		pool, _ := uniswap.NewUniswapV3Pool(tok.Pool, ec.chain.Client())
		s, err := pool.Slot0(nil)
		if err != nil {
			t.Fatal(err)
		}
		price = new(big.Rat).SetFrac(new(big.Int).Mul(s.SqrtPriceX96, s.SqrtPriceX96), new(big.Int).Lsh(big.NewInt(1), 192))
	}
	if t0 != tok.Address {
		price.Inv(price)
	}
	return price.Mul(price, new(big.Rat).SetFrac(pow10(18), pow10(quoteDecimals)))
}

// TestEVMFillAndPrice buys tokens of V2 pairs and V3 pools on the local
// chain and reads the fill and the price as the engine does: the fill
// names the venue and the pool the buy traded in, the quote paid into it
// and the tokens received; the position's market reads the price where it
// was bought; a transaction of the order without a swap (an approval, a
// tip) holds no trade.
func TestEVMFillAndPrice(t *testing.T) {
	t.Parallel()
	ec := newExitsChain(t)
	ctx := context.Background()
	d := ec.chain.Deployment()
	engine := NewEVM("eth", ec.chain.Client(), d.WrappedNative, "ETH", d.Stables, 5*time.Second)
	tests := []struct {
		name      string
		req       evmdevnet.TokenRequest
		amount    *big.Int
		venue     string
		quote     string
		quoteDecs uint8
	}{
		{"v2 pair, native", evmdevnet.TokenRequest{Venue: evmdevnet.VenueV2}, big.NewInt(1e16), wire.VenueV2, "ETH", 18},
		{"v3 pool, native", evmdevnet.TokenRequest{Venue: evmdevnet.VenueV3, FeeTier: 500}, big.NewInt(1e16), wire.VenueV3, "ETH", 18},
		{"v3 pool, USDC", evmdevnet.TokenRequest{Venue: evmdevnet.VenueV3, Quote: "USDC"}, big.NewInt(25e6), wire.VenueV3, "USDC", 6},
		{"v3 pool of the 1 % tier, a small buy", evmdevnet.TokenRequest{Venue: evmdevnet.VenueV3, FeeTier: 10000}, big.NewInt(1e14), wire.VenueV3, "ETH", 18},
		{"v2 pair, a small buy", evmdevnet.TokenRequest{Venue: evmdevnet.VenueV2}, big.NewInt(1e14), wire.VenueV2, "ETH", 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Name, tt.req.Symbol = "Exit", "EXT"
			tok, err := ec.chain.CreateToken(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			before := ec.balance(t, tok.Address)
			tx := ec.buy(t, tok, tt.amount)
			received := new(big.Int).Sub(ec.balance(t, tok.Address), before)
			f, err := engine.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), true, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f.Venue != tt.venue || f.Pool != tok.Pool.Hex() || f.Token != tok.Address.Hex() || f.QuoteAsset != tt.quote ||
				f.Spent.Cmp(tt.amount) != 0 || f.Received.Cmp(received) != 0 || f.Decimals != 18 || f.QuoteDecimals != tt.quoteDecs {
				t.Fatalf("fill %+v; want venue %s pool %s quote %s spent %s received %s", f, tt.venue, tok.Pool.Hex(), tt.quote,
					tt.amount, received)
			}
			m, err := engine.Market(&wire.Position{ID: "p", Token: f.Token, Venue: f.Venue, Pool: f.Pool, Decimals: f.Decimals,
				QuoteDecimals: f.QuoteDecimals})
			if err != nil {
				t.Fatal(err)
			}
			obs, err := m.Observe(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := ec.wantPrice(t, tok, tt.quoteDecs); obs.Price.Cmp(want) != 0 {
				t.Fatalf("price %s, want %s", obs.Price.FloatString(18), want.FloatString(18))
			}
			// The entry is the price the buy traded at in the pool, its LP
			// fee off: the pool's price after the buy is not below it (a
			// stop within the fee would fire at once), and not far above
			// it for a small buy.
			entry := entryPrice(f)
			if obs.Price.Cmp(entry) < 0 || new(big.Rat).Quo(obs.Price, entry).Cmp(big.NewRat(1005, 1000)) > 0 && tt.amount.Cmp(big.NewInt(1e15)) < 0 {
				t.Fatalf("entry %s, the pool's price after the buy %s", entry.FloatString(18), obs.Price.FloatString(18))
			}
		})
	}
	t.Run("a tip holds no trade", func(t *testing.T) {
		tx := types.MustSignNewTx(ec.key, types.LatestSignerForChainID(ec.chain.ChainID()), &types.DynamicFeeTx{
			ChainID: ec.chain.ChainID(), Nonce: pendingNonce(t, ec), GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
			Gas: 21_000, To: &d.RelayTipAddress, Value: big.NewInt(1e15)})
		ec.mined(t, tx, ec.chain.Client().SendTransaction(ctx, tx))
		_, err := engine.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), d.WrappedNative.Hex(), true, nil)
		if !errors.Is(err, ErrNoTrade) {
			t.Fatalf("fill of a tip: %v, want ErrNoTrade", err)
		}
	})
}

func pendingNonce(t *testing.T, ec *exitsChain) uint64 {
	t.Helper()
	n, err := ec.chain.Client().PendingNonceAt(context.Background(), ec.buyer)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// nodeRefusal is a node's JSON-RPC error answer.
type nodeRefusal struct {
	code int
	msg  string
}

func (e *nodeRefusal) Error() string  { return e.msg }
func (e *nodeRefusal) ErrorCode() int { return e.code }

// boundedLogs is a node that refuses eth_getLogs over more than a few
// blocks, as hosted providers bound it, or, with busy set, fails the query
// as a node that is rate limiting or away does.
type boundedLogs struct {
	EVMClient
	calls int
	busy  error
}

func (l *boundedLogs) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	l.calls++
	if l.busy != nil {
		return nil, l.busy
	}
	if q.FromBlock != nil && q.ToBlock != nil && new(big.Int).Sub(q.ToBlock, q.FromBlock).Cmp(big.NewInt(2)) > 0 {
		return nil, &nodeRefusal{code: -32005, msg: "query exceeds max block range 2 for /v3/s3cr3tk3y"}
	}
	return l.EVMClient.FilterLogs(ctx, q)
}

// TestEVMFillOnBoundedLogs: a buy without a dev_sell reads no transfer
// history; one with it on a node that refuses the history's range opens
// its position, the dev_sell cancelled saying why in words of its own (the
// node's text may quote its key); a node that fails the query otherwise
// (rate limited, slow) gives the fill back with ErrCreatorUnknown, to be
// tried again, instead of cancelling the dev_sell for a passing hiccup.
func TestEVMFillOnBoundedLogs(t *testing.T) {
	t.Parallel()
	ec := newExitsChain(t)
	ctx := context.Background()
	d := ec.chain.Deployment()
	node := &boundedLogs{EVMClient: ec.chain.Client()}
	engine := NewEVM("eth", node, d.WrappedNative, "ETH", d.Stables, 5*time.Second)
	tok, err := ec.chain.CreateToken(ctx, evmdevnet.TokenRequest{Venue: evmdevnet.VenueV2, Name: "Bounded", Symbol: "BND"})
	if err != nil {
		t.Fatal(err)
	}
	tx := ec.buy(t, tok, big.NewInt(1e16))
	f, err := engine.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), false, nil)
	if err != nil || node.calls != 0 || f.Dev != "" || f.Received.Sign() <= 0 {
		t.Fatalf("fill without a dev_sell: %+v %v, %d log queries", f, err, node.calls)
	}
	f, err = engine.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), true, nil)
	if err != nil || f.DevUnknown == "" || strings.Contains(f.DevUnknown, "s3cr3t") || f.Received.Sign() <= 0 {
		t.Fatalf("fill with a dev_sell on a bounded node: %+v %v", f, err)
	}
	o := &wire.Order{OrderID: "x", AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100},
		{Type: wire.ExitDevSell, SellPct: 100}}}
	p := newPosition(o, "x-0", ec.buyer.Hex(), f, time.Now())
	if p.Exits[0].State != wire.ExitArmed || p.Exits[1].State != wire.ExitCancelled || !strings.Contains(p.Exits[1].Error, "range is bounded") {
		t.Fatalf("exits %+v: want the stop-loss armed, the dev_sell cancelled saying why", p.Exits)
	}
	for _, refusal := range []string{"range 1000000 exceeds limit of 10000", "eth_getLogs is limited to a 10,000 range",
		"ranges over 10000 blocks are not supported on freetier", "query returned more than 10000 results"} {
		if !rangeRefused(&nodeRefusal{code: -32602, msg: refusal}) {
			t.Errorf("%q not taken for a range refusal", refusal)
		}
	}
	for _, busy := range []error{&nodeRefusal{code: -32005, msg: "rate limit exceeded: too many requests per second"},
		&nodeRefusal{code: -32005, msg: "limit exceeded"}, &nodeRefusal{code: -32005, msg: "project ID request rate exceeded"},
		&nodeRefusal{code: -32000, msg: "query timeout exceeded"}, &nodeRefusal{code: -32005, msg: "compute units exceeded"},
		errors.New("503 Service Unavailable"), context.DeadlineExceeded} {
		node.busy = busy
		f, err = engine.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), true, nil)
		if !errors.Is(err, ErrCreatorUnknown) || f == nil || f.DevUnknown != "" || f.Received.Sign() <= 0 {
			t.Fatalf("node failing with %v: %+v %v, want the fill and ErrCreatorUnknown", busy, f, err)
		}
	}
}

// TestCreatorLookupFailingAtTheEndpoint: a transfer-log query the endpoint
// fails (HTTP 429, 503, a timeout, as its transport reports them) keeps
// ErrCreatorUnknown through the endpoint's cleaning (which gave back its
// own error alone), so the event's last delivery opens the position, its
// dev_sell cancelled and its stop-loss armed (no position opened at all),
// and no part of the endpoint's URL is in the error.
func TestCreatorLookupFailingAtTheEndpoint(t *testing.T) {
	ec := newExitsChain(t)
	ctx := context.Background()
	d := ec.chain.Deployment()
	tok, err := ec.chain.CreateToken(ctx, evmdevnet.TokenRequest{Venue: evmdevnet.VenueV2, Name: "Busy", Symbol: "BSY"})
	if err != nil {
		t.Fatal(err)
	}
	tx := ec.buy(t, tok, big.NewInt(1e16))
	for i, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable, 0} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if status == 0 { // slower than the call's timeout
				time.Sleep(1500 * time.Millisecond)
				return
			}
			w.WriteHeader(status)
		}))
		ep := endpoint.New("eth rpc", srv.URL+"/v3/s3cr3tk3y")
		rc, err := ep.DialEVM(ctx, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_, busy := ethclient.NewClient(rc.Client).FilterLogs(ctx, ethereum.FilterQuery{})
		srv.Close()
		chain := NewEVM(wire.ChainEth, &boundedLogs{EVMClient: ec.chain.Client(), busy: busy}, d.WrappedNative, "ETH", d.Stables,
			5*time.Second).WithClean(ep.Clean)
		f, err := chain.Fill(ctx, tx.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), true, nil)
		if !errors.Is(err, ErrCreatorUnknown) || f == nil || strings.Contains(err.Error(), "s3cr3t") {
			t.Fatalf("HTTP %d: fill %v, err %v: want the fill and ErrCreatorUnknown, no part of the URL", status, f != nil, err)
		}
		b := bustest.Start(t, "exits-test")
		e, err := New(Config{}, b.JS, b.Buckets, map[string]Chain{wire.ChainEth: chain}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		o := &wire.Order{OrderID: fmt.Sprintf("eu-Busy%d", i), AccountID: "acc1", Family: wire.FamilyEVM, Kind: wire.KindSwap,
			State: wire.StateConfirmed, Chain: wire.ChainEth, Side: wire.Buy, Token: tok.Address.Hex(), CreatedAt: time.Now(),
			AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(20), SellPct: 100}, {Type: wire.ExitDevSell, SellPct: 100}},
			Signatures: []wire.SigState{{Signature: tx.Hash().Hex(), Wallet: ec.buyer.Hex(), State: wire.StateConfirmed}}}
		if err := e.orders.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
		if err := e.open(ctx, &events.Event{OrderID: o.OrderID, Type: events.Confirmed, Side: wire.Buy}, true); err != nil {
			t.Fatalf("HTTP %d: open on the last delivery: %v", status, err)
		}
		p, _, err := e.load(ctx, positionID(o.OrderID, 0))
		if err != nil || p.Exits[0].State != wire.ExitArmed || p.Exits[1].State != wire.ExitCancelled {
			t.Fatalf("HTTP %d: position %+v %v: want the stop-loss armed, the dev_sell cancelled", status, p, err)
		}
	}
}

// poolsNode answers the transfer logs it holds and token0/token1 as a
// token's pools do: pools maps a pool to its two tokens; contracts lists
// the other contracts, which revert; every other address is a wallet,
// which answers nothing. down, when set, fails every call as a node away.
type poolsNode struct {
	EVMClient
	logs      []types.Log
	pools     map[common.Address][2]common.Address
	contracts map[common.Address]bool
	down      error
}

func (n *poolsNode) FilterLogs(context.Context, ethereum.FilterQuery) ([]types.Log, error) {
	return n.logs, nil
}

func (n *poolsNode) CallContract(_ context.Context, msg ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	if n.down != nil {
		return nil, n.down
	}
	if toks, ok := n.pools[*msg.To]; ok {
		i := 0
		if bytes.Equal(msg.Data, pairABI.Methods["token1"].ID) {
			i = 1
		}
		return common.LeftPadBytes(toks[i].Bytes(), 32), nil
	}
	if n.contracts[*msg.To] {
		return nil, &nodeRefusal{code: -32000, msg: "execution reverted"}
	}
	return nil, nil
}

// TestCreatorIsNoPool: the creator a dev_sell watches is never a pool of
// the token, the one the buy traded in or another (a second fee tier, a V2
// pair beside a V3 pool, another quote asset), nor the burn address: a
// pool holding most of the supply was taken for the creator, and every
// trade through it fired the dev_sell, selling whole positions. A contract
// that is no pool, or a wallet, may be; a node that fails the question is
// an error, never a guess.
func TestCreatorIsNoPool(t *testing.T) {
	t.Parallel()
	a := func(s string) common.Address { return common.HexToAddress(s) }
	token, weth, dev, buyer := a("0x01"), a("0x02"), a("0xde"), a("0xbb")
	bought, otherTier, otherPair, locker := a("0xb0"), a("0xc0"), a("0xc1"), a("0xcc")
	xfer := func(from, to common.Address, v int64) types.Log {
		return types.Log{Address: token, Topics: []common.Hash{transferTopic, common.BytesToHash(from.Bytes()), common.BytesToHash(to.Bytes())},
			Data: common.LeftPadBytes(big.NewInt(v).Bytes(), 32)}
	}
	node := &poolsNode{
		logs: []types.Log{xfer(common.Address{}, dev, 3700), xfer(dev, burnAddress, 900), xfer(dev, otherTier, 870),
			xfer(dev, otherPair, 600), xfer(dev, bought, 50), xfer(dev, locker, 700), xfer(bought, buyer, 1)},
		pools: map[common.Address][2]common.Address{bought: {token, weth}, otherTier: {weth, token}, otherPair: {token, weth},
			// A pool of other tokens holding this one is no pool of it.
			locker: {weth, a("0x03")}},
	}
	c := NewEVM("base", node, weth, "ETH", nil, time.Second)
	// 0xcc, a pool of other tokens, holds 700: more than the dev's 580, and
	// no pool of this token.
	got, err := c.creator(context.Background(), token, bought, buyer, big.NewInt(10), nil)
	if err != nil || got != locker {
		t.Fatalf("creator %s %v, want the largest holder that is no pool of the token, %s", got.Hex(), err, locker.Hex())
	}
	// A contract that is no pool (a locker holding the team's tokens,
	// answering token0 with a revert) is a holder like any other.
	node.pools = map[common.Address][2]common.Address{bought: {token, weth}, otherTier: {weth, token}, otherPair: {token, weth}}
	node.contracts = map[common.Address]bool{locker: true}
	if got, err := c.creator(context.Background(), token, bought, buyer, big.NewInt(10), nil); err != nil || got != locker {
		t.Fatalf("creator %s %v, want the contract %s", got.Hex(), err, locker.Hex())
	}
	// Every holder a pool: none.
	node.pools[dev], node.pools[locker] = [2]common.Address{token, weth}, [2]common.Address{weth, token}
	if got, err := c.creator(context.Background(), token, bought, buyer, big.NewInt(10), nil); err != nil || got != (common.Address{}) {
		t.Fatalf("creator %s %v, want none", got.Hex(), err)
	}
	node.down = errors.New("connection refused")
	if _, err := c.creator(context.Background(), token, bought, buyer, big.NewInt(10), nil); err == nil {
		t.Fatal("a node that fails the question gave a creator")
	}
}

// TestEVMSaleReadsTheHoldingAfterIt: a sale's moment is its block, and the
// holding after it is the wallet's balance then, not now: a buy after it
// changes neither. A buy's fill says its block too.
func TestEVMSaleReadsTheHoldingAfterIt(t *testing.T) {
	t.Parallel()
	ec := newExitsChain(t)
	ctx := context.Background()
	d := ec.chain.Deployment()
	engine := NewEVM("eth", ec.chain.Client(), d.WrappedNative, "ETH", d.Stables, 5*time.Second)
	tok, err := ec.chain.CreateToken(ctx, evmdevnet.TokenRequest{Venue: evmdevnet.VenueV2, Name: "Sold", Symbol: "SLD"})
	if err != nil {
		t.Fatal(err)
	}
	buy := ec.buy(t, tok, big.NewInt(1e16))
	f, err := engine.Fill(ctx, buy.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	erc, _ := contracts.NewERC20(tok.Address, ec.chain.Client())
	half := new(big.Int).Rsh(ec.balance(t, tok.Address), 1)
	sell, err := erc.Transfer(ec.opts(t, nil), common.HexToAddress("0x000000000000000000000000000000000000dEaD"), half)
	r := ec.mined(t, sell, err)
	left := ec.balance(t, tok.Address)
	again := ec.buy(t, tok, big.NewInt(1e16))
	if ec.balance(t, tok.Address).Cmp(left) <= 0 {
		t.Fatal("the second buy bought nothing")
	}
	s, err := engine.Sale(ctx, sell.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex())
	if err != nil {
		t.Fatal(err)
	}
	if s.In>>16 != r.BlockNumber.Uint64() || s.In&0xffff != uint64(r.TransactionIndex) || s.Balance.Cmp(left) != 0 || f.In == 0 || f.In >= s.In {
		t.Fatalf("sale at %d holding %s, buy at %d; want the sale in block %d holding %s, after the buy", s.In, s.Balance, f.In, r.BlockNumber, left)
	}
	g, err := engine.Fill(ctx, again.Hash().Hex(), ec.buyer.Hex(), tok.Address.Hex(), false, nil)
	if err != nil || g.In <= s.In {
		t.Fatalf("the later buy at %d (%v), the sale at %d", g.In, err, s.In)
	}
}
