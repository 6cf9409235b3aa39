package exits

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/capped"
	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// EVMClient is the part of an EVM JSON-RPC client the engine reads with;
// go-ethereum's *ethclient.Client implements it.
type EVMClient interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
}

var (
	pairABI  = mustABI(uniswap.UniswapV2PairMetaData)
	poolABI  = mustABI(uniswap.UniswapV3PoolMetaData)
	erc20ABI = mustABI(contracts.ERC20MetaData)

	swapTopic     = pairABI.Events["Swap"].ID
	v3SwapTopic   = poolABI.Events["Swap"].ID
	transferTopic = erc20ABI.Events["Transfer"].ID
)

func mustABI(md *bind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic(fmt.Sprintf("contract abi: %v", err))
	}
	return a
}

// EVM reads fills, balances and prices of the official Uniswap V2 pairs
// and V3 pools on one EVM chain. A fill names its venue and pool from the
// swap's own log (a V2 pair's Swap to the wallet, or a V3 pool's Swap with
// the wallet as recipient), and the position's price is read where it was
// bought: a pair's reserves, a pool's slot0.
//
// The creator of an ERC-20, for dev_sell, is not recorded on chain the way
// a pump.fun curve records it. The engine takes the largest holder of the
// token when the position opens, other than the pair, the token contract,
// the zero address and the position's own wallet, from the token's
// Transfer logs up to the buy: on a fresh launch that is the wallet the
// deployer kept the team allocation in. Its balance falling is a dev sell.
type EVM struct {
	name    string
	client  EVMClient
	wrapped common.Address
	native  string
	quotes  map[common.Address]string
	timeout time.Duration
	// clean takes every part of the endpoint's URL out of an error's
	// text (a provider may quote its key-bearing path in a refusal).
	clean func(error) error

	decimals capped.Cache[common.Address, uint8]
}

// ErrCreatorUnknown is wrapped by EVM.Fill when the token's creator could
// not be looked for (the node failed the transfer-log query); the Fill is
// returned with it, whole but for its creator. A node's refusal of the
// query's range is no error: Fill.DevUnknown says so.
var ErrCreatorUnknown = errors.New("the token's creator could not be looked for")

// WithClean makes the chain's errors go through clean (the endpoint's
// Clean) before they leave it, for logs.
func (c *EVM) WithClean(clean func(error) error) *EVM {
	c.clean = clean
	return c
}

// NewEVM returns one EVM chain of the engine: wrapped is the token its
// native coin's pools are quoted in (the wrapped native coin, or the native
// coin's own ERC-20 on arc; those pools are the native quote, named native)
// and quotes its stable quote assets by symbol.
func NewEVM(name string, c EVMClient, wrapped common.Address, native string, quotes map[string]common.Address, timeout time.Duration) *EVM {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	q := map[common.Address]string{}
	for sym, a := range quotes {
		q[a] = strings.ToUpper(sym)
	}
	return &EVM{name: name, client: c, wrapped: wrapped, native: native, quotes: q, timeout: timeout,
		clean: func(err error) error { return err }}
}

func (c *EVM) call(ctx context.Context, to common.Address, a *abi.ABI, method string, args ...any) ([]any, error) {
	return c.callAt(ctx, nil, to, a, method, args...)
}

// callAt is call on the state after block (nil: the latest).
func (c *EVM) callAt(ctx context.Context, block *big.Int, to common.Address, a *abi.ABI, method string, args ...any) ([]any, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", method, err)
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	out, err := c.client.CallContract(cctx, ethereum.CallMsg{To: &to, Data: data}, block)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", method, to.Hex(), err)
	}
	vals, err := a.Unpack(method, out)
	if err != nil || len(vals) == 0 {
		return nil, fmt.Errorf("%s on %s: undecodable answer", method, to.Hex())
	}
	return vals, nil
}

func (c *EVM) address(ctx context.Context, to common.Address, method string) (common.Address, error) {
	vals, err := c.call(ctx, to, pairABI, method)
	if err != nil {
		return common.Address{}, err
	}
	a, ok := vals[0].(common.Address)
	if !ok {
		return common.Address{}, fmt.Errorf("%s on %s: not an address", method, to.Hex())
	}
	return a, nil
}

func (c *EVM) tokenDecimals(ctx context.Context, token common.Address) (uint8, error) {
	d, ok := c.decimals.Get(token)
	if ok {
		return d, nil
	}
	vals, err := c.call(ctx, token, erc20ABI, "decimals")
	if err != nil {
		return 0, err
	}
	d, ok = vals[0].(uint8)
	if !ok {
		return 0, fmt.Errorf("decimals of %s: not a uint8", token.Hex())
	}
	c.decimals.Put(token, d)
	return d, nil
}

func (c *EVM) balanceOf(ctx context.Context, token, holder common.Address) (*big.Int, error) {
	return c.balanceAt(ctx, nil, token, holder)
}

// balanceAt is balanceOf after block (nil: the latest).
func (c *EVM) balanceAt(ctx context.Context, block *big.Int, token, holder common.Address) (*big.Int, error) {
	vals, err := c.callAt(ctx, block, token, erc20ABI, "balanceOf", holder)
	if err != nil {
		return nil, err
	}
	v, ok := vals[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("balanceOf on %s: not a number", token.Hex())
	}
	return v, nil
}

// Balance implements Chain.
func (c *EVM) Balance(ctx context.Context, wallet, token string) (*big.Int, error) {
	if !common.IsHexAddress(wallet) || !common.IsHexAddress(token) {
		return nil, fmt.Errorf("balance of %q in %q: not addresses", wallet, token)
	}
	b, err := c.balanceOf(ctx, common.HexToAddress(token), common.HexToAddress(wallet))
	return b, c.clean(err)
}

// Sale implements Chain: the sale's block, and the wallet's balance of the
// token after that block (a node that keeps no state that old, or a later
// transfer in the same block, makes it an error or a bound: the caller
// holds positions to it as to any balance).
func (c *EVM) Sale(ctx context.Context, signature, wallet, token string) (_ Sale, err error) {
	defer func() { err = c.clean(err) }()
	if !common.IsHexAddress(wallet) || !common.IsHexAddress(token) {
		return Sale{}, fmt.Errorf("sale of %q by %q: not addresses", token, wallet)
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	rc, err := c.client.TransactionReceipt(cctx, common.HexToHash(signature))
	cancel()
	if err != nil {
		return Sale{}, fmt.Errorf("receipt of %s: %w", signature, err)
	}
	if rc.BlockNumber == nil || !rc.BlockNumber.IsUint64() {
		return Sale{}, fmt.Errorf("receipt of %s names no block", signature)
	}
	bal, err := c.balanceAt(ctx, rc.BlockNumber, common.HexToAddress(token), common.HexToAddress(wallet))
	if err != nil {
		return Sale{}, err
	}
	return Sale{In: evmPlace(rc), Balance: bal}, nil
}

// evmPlace is where a transaction landed on an EVM chain, for the order of
// a wallet's buys and sales (Fill.In, Sale.In): its block, then its index
// in the block.
func evmPlace(rc *types.Receipt) uint64 {
	if rc.BlockNumber == nil || !rc.BlockNumber.IsUint64() {
		return 0
	}
	return rc.BlockNumber.Uint64()<<16 | uint64(min(rc.TransactionIndex, 0xffff))
}

// rangeRefused tells a node's refusal of an eth_getLogs query for its
// range or size (every hosted provider bounds one: "query exceeds max
// block range", "query returned more than 10000 results", "block range
// too large") from a failure worth another try, a rate limit among them.
func rangeRefused(err error) bool {
	var rerr rpc.Error
	if !errors.As(err, &rerr) {
		return false
	}
	msg := strings.ToLower(rerr.Error())
	// The wordings of a range or size bound only ("range 1000000 exceeds
	// limit of 10000", "limited to a 10,000 range", "ranges over 10000
	// blocks are not supported"): a bare "exceeded" is as often a rate or
	// quota ("limit exceeded", "compute units exceeded"), which passes.
	return containsAny(msg, "range", "more than 10000", "more than 10,000", "results", "response size", "too many blocks", "block span") &&
		!containsAny(msg, "rate limit", "rate-limit", "per second", "requests per", "capacity", "too many requests", "quota")
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// quoteSymbol names a pair's quote token as a quote asset, or "".
func (c *EVM) quoteSymbol(a common.Address) string {
	if a == c.wrapped {
		return c.native
	}
	return c.quotes[a]
}

// Fill implements Chain: the Swap log of the V2 pair or V3 pool that paid
// the wallet names the pool, its venue and the quote paid into it; the
// token's Transfer logs give what the wallet received (after any transfer
// tax). The wallet's other transactions of the order (an approval, a
// processor tip) hold no such swap: ErrNoTrade.
func (c *EVM) Fill(ctx context.Context, signature, wallet, address string, watchDev bool, own func(string) bool) (_ *Fill, err error) {
	defer func() {
		// Cleaned where it is made: the endpoint's Clean gives back its
		// own error alone, dropping what wraps it.
		if !errors.Is(err, ErrCreatorUnknown) {
			err = c.clean(err)
		}
	}()
	if !common.IsHexAddress(wallet) {
		return nil, fmt.Errorf("wallet %q is not an address", wallet)
	}
	who := common.HexToAddress(wallet)
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	rc, err := c.client.TransactionReceipt(cctx, common.HexToHash(signature))
	cancel()
	if err != nil {
		return nil, fmt.Errorf("receipt of %s: %w", signature, err)
	}
	if rc.Status != types.ReceiptStatusSuccessful {
		return nil, fmt.Errorf("transaction %s failed on chain", signature)
	}
	swap, v3 := swapTo(rc.Logs, who)
	if swap == nil {
		return nil, fmt.Errorf("%w: no V2 or V3 swap to it", ErrNoTrade)
	}
	pair := swap.Address
	t0, err := c.address(ctx, pair, "token0")
	if err != nil {
		return nil, err
	}
	t1, err := c.address(ctx, pair, "token1")
	if err != nil {
		return nil, err
	}
	named := common.HexToAddress(address)
	token, quote, tokenIs0 := t0, t1, true
	if named == t1 || (named != t0 && c.quoteSymbol(t0) != "") {
		token, quote, tokenIs0 = t1, t0, false
	}
	sym := c.quoteSymbol(quote)
	if sym == "" {
		return nil, fmt.Errorf("pool %s trades against %s, not a quote asset of %s", pair.Hex(), quote.Hex(), c.name)
	}
	spent, poolOut, err := buyFlows(swap, v3, tokenIs0)
	if err != nil {
		return nil, err
	}
	venue := wire.VenueV2
	if v3 {
		venue = wire.VenueV3
	}
	received := new(big.Int)
	for _, l := range rc.Logs {
		if l.Address != token || len(l.Topics) != 3 || l.Topics[0] != transferTopic {
			continue
		}
		v := new(big.Int).SetBytes(l.Data)
		if common.BytesToAddress(l.Topics[2].Bytes()) == who {
			received.Add(received, v)
		}
		if common.BytesToAddress(l.Topics[1].Bytes()) == who {
			received.Sub(received, v)
		}
	}
	f := &Fill{Token: token.Hex(), Venue: venue, Pool: pair.Hex(), QuoteAsset: sym, Received: received,
		Spent: spent}
	f.In = evmPlace(rc)
	// The pool's side: what moved its price, the LP fee the pool keeps of
	// the input taken off, and what it paid out, before a token's tax on
	// the transfer to the wallet.
	if f.PoolIn, err = c.lessLPFee(ctx, pair, v3, spent); err != nil {
		return nil, err
	}
	f.PoolOut = poolOut
	if f.Decimals, err = c.tokenDecimals(ctx, token); err != nil {
		return nil, err
	}
	if f.QuoteDecimals, err = c.tokenDecimals(ctx, quote); err != nil {
		return nil, err
	}
	if !watchDev {
		return f, nil
	}
	// The creator is found from the token's whole transfer history, which
	// a node may refuse to give in one range (hosted providers bound
	// eth_getLogs): the position opens all the same, its dev_sell
	// cancelled saying why, rather than not at all. Any other failure
	// (the node busy, slow or away) is worth another try: the fill comes
	// back with the error, for the caller to judge.
	dev, err := c.creator(ctx, token, pair, who, rc.BlockNumber, own)
	switch {
	case err != nil && rangeRefused(err):
		f.DevUnknown = "the chain's node refused the token's transfer history in one query (its eth_getLogs range is bounded)"
		return f, nil
	case err != nil:
		return f, fmt.Errorf("%w: %w", ErrCreatorUnknown, c.clean(err))
	}
	if dev != (common.Address{}) {
		f.Dev = dev.Hex()
		if f.DevBalance, err = c.balanceOf(ctx, token, dev); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// swapTo finds the swap that paid who: a V2 pair's Swap (topic 2 is `to`)
// or a V3 pool's (topic 2 is `recipient`); v3 says which. The last such log
// is the pool's: a pool sends the token out before it logs its Swap, and a
// token whose transfer logs a Swap-shaped event of its own (from its own
// address) would otherwise be taken for the pool, and answer every price
// the position's exits read.
func swapTo(logs []*types.Log, who common.Address) (swap *types.Log, v3 bool) {
	for _, l := range logs {
		if len(l.Topics) != 3 || common.BytesToAddress(l.Topics[2].Bytes()) != who {
			continue
		}
		switch l.Topics[0] {
		case swapTopic:
			swap, v3 = l, false
		case v3SwapTopic:
			swap, v3 = l, true
		}
	}
	return swap, v3
}

// swapFlows is what a swap log says went into the pool (in) and out of it
// (out) of each of its two tokens: a V2 pair's amountIn and amountOut, a
// V3 pool's signed amounts (positive into the pool).
func swapFlows(swap *types.Log, v3 bool) (in, out [2]*big.Int, err error) {
	if v3 {
		vals, err := poolABI.Unpack("Swap", swap.Data)
		if err != nil || len(vals) < 2 {
			return in, out, fmt.Errorf("decode V3 swap log: %v", err)
		}
		for i := range 2 {
			a, _ := vals[i].(*big.Int)
			if a == nil {
				return in, out, errors.New("decode V3 swap log: undecodable amounts")
			}
			in[i], out[i] = new(big.Int), new(big.Int)
			if a.Sign() > 0 {
				in[i].Set(a)
			} else {
				out[i].Neg(a)
			}
		}
		return in, out, nil
	}
	vals, err := pairABI.Unpack("Swap", swap.Data)
	if err != nil || len(vals) != 4 {
		return in, out, fmt.Errorf("decode swap log: %v", err)
	}
	for i := range 2 {
		a, _ := vals[i].(*big.Int)
		b, _ := vals[2+i].(*big.Int)
		if a == nil || b == nil {
			return in, out, errors.New("decode swap log: undecodable amounts")
		}
		in[i], out[i] = new(big.Int).Set(a), new(big.Int).Set(b)
	}
	return in, out, nil
}

// buyFlows is what a buy's swap log says of the pool: the quote that went
// into it and the token it paid out, the quote side being the other side
// of the token's.
func buyFlows(swap *types.Log, v3 bool, tokenIs0 bool) (quoteIn, tokenOut *big.Int, err error) {
	in, out, err := swapFlows(swap, v3)
	if err != nil {
		return nil, nil, err
	}
	q := 0
	if tokenIs0 {
		q = 1
	}
	if v3 && out[q].Sign() > 0 {
		return nil, nil, fmt.Errorf("%w: the V3 swap paid the quote out", ErrNoTrade)
	}
	return in[q], out[1-q], nil
}

// lessLPFee is in, a swap's input to pool, less the LP fee the pool keeps
// of it: Uniswap V2's 0.3 %, a V3 pool's fee tier (in millionths).
func (c *EVM) lessLPFee(ctx context.Context, pool common.Address, v3 bool, in *big.Int) (*big.Int, error) {
	keep, of := big.NewInt(997), big.NewInt(1000)
	if v3 {
		vals, err := c.call(ctx, pool, poolABI, "fee")
		if err != nil {
			return nil, err
		}
		fee, ok := vals[0].(*big.Int)
		if !ok || fee.Sign() < 0 || fee.Cmp(big.NewInt(1_000_000)) >= 0 {
			return nil, fmt.Errorf("fee of pool %s: undecodable answer", pool.Hex())
		}
		keep, of = new(big.Int).Sub(big.NewInt(1_000_000), fee), big.NewInt(1_000_000)
	}
	v := new(big.Int).Mul(in, keep)
	return v.Quo(v, of), nil
}

// creator is the largest holder of token at block, besides the token's
// pools (the one the buy traded in and any other V2 pair or V3 pool of the
// token, of any quote asset or fee tier, which would otherwise be taken
// for the creator and every trade through it for a dev sell), the token,
// the zero and burn addresses, the buyer and the buyer's account's other
// wallets (see EVM). The largest holders are asked in turn whether they
// are a pool of the token, at most maxPoolProbes of them; none when all
// are.
func (c *EVM) creator(ctx context.Context, token, pair, buyer common.Address, block *big.Int, own func(string) bool) (common.Address, error) {
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	logs, err := c.client.FilterLogs(cctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: block,
		Addresses: []common.Address{token}, Topics: [][]common.Hash{{transferTopic}}})
	if err != nil {
		return common.Address{}, fmt.Errorf("transfer logs of %s: %w", token.Hex(), err)
	}
	held := map[common.Address]*big.Int{}
	move := func(a common.Address, v *big.Int, sign int) {
		b := held[a]
		if b == nil {
			b = new(big.Int)
			held[a] = b
		}
		if sign > 0 {
			b.Add(b, v)
		} else {
			b.Sub(b, v)
		}
	}
	for _, l := range logs {
		if len(l.Topics) != 3 {
			continue
		}
		v := new(big.Int).SetBytes(l.Data)
		move(common.BytesToAddress(l.Topics[1].Bytes()), v, -1)
		move(common.BytesToAddress(l.Topics[2].Bytes()), v, 1)
	}
	type holder struct {
		a common.Address
		b *big.Int
	}
	var holders []holder
	for a, b := range held {
		if a == pair || a == token || a == buyer || a == (common.Address{}) || a == burnAddress || b.Sign() <= 0 {
			continue
		}
		// The account's other wallets are not the token's creator: their
		// own sells (an exit of theirs) would fire this position's
		// dev_sell.
		if own != nil && own(a.Hex()) {
			continue
		}
		holders = append(holders, holder{a, b})
	}
	// Largest first; ties go to the lower address, so every engine names
	// the same one.
	slices.SortFunc(holders, func(x, y holder) int {
		if c := y.b.Cmp(x.b); c != 0 {
			return c
		}
		return bytes.Compare(x.a[:], y.a[:])
	})
	for i, h := range holders {
		if i == maxPoolProbes {
			break
		}
		pool, err := c.poolOf(ctx, h.a, token)
		if err != nil {
			return common.Address{}, err
		}
		if !pool {
			return h.a, nil
		}
	}
	return common.Address{}, nil
}

// burnAddress is where tokens are sent to be burnt: it never sells.
var burnAddress = common.HexToAddress("0x000000000000000000000000000000000000dEaD")

// maxPoolProbes bounds the largest holders creator asks whether they are
// pools of the token.
const maxPoolProbes = 8

// poolOf reports whether a is a pool of token: a contract whose token0 or
// token1 is token (a Uniswap V2 pair or V3 pool, or a fork's). A wallet
// answers nothing, another contract reverts: neither is a pool. Any other
// failure (the node away, rate limiting) is an error, never a guess.
func (c *EVM) poolOf(ctx context.Context, a, token common.Address) (bool, error) {
	for _, method := range []string{"token0", "token1"} {
		data, err := pairABI.Pack(method)
		if err != nil {
			return false, err
		}
		cctx, cancel := context.WithTimeout(ctx, c.timeout)
		out, err := c.client.CallContract(cctx, ethereum.CallMsg{To: &a, Data: data}, nil)
		cancel()
		switch {
		case err != nil && callerr.IsRevert(err):
			return false, nil
		case err != nil:
			return false, fmt.Errorf("%s on %s: %w", method, a.Hex(), err)
		case len(out) != 32:
			return false, nil
		case common.BytesToAddress(out) == token:
			return true, nil
		}
	}
	return false, nil
}

// SellLeg implements Chain: EVM sells the exact token quantity, as Solana
// does. A percent of the wallet's balance would not be exact: the worker
// takes it of what the wallet's sales in flight leave, so two exits of one
// wallet firing together, each a percent of the same balance, sold a
// quarter less than their positions held.
func (c *EVM) SellLeg(ctx context.Context, p *wire.Position, amount *big.Int, _ bool) (string, string, error) {
	decimals := p.Decimals
	if decimals == 0 {
		// A position stored without its token's decimals: read them,
		// since a quantity in the wrong unit sells far more.
		d, err := c.tokenDecimals(ctx, common.HexToAddress(p.Token))
		if err != nil {
			return "", "", err
		}
		decimals = d
	}
	return wire.SellTokens, money.Format(amount, int(decimals)), nil
}

// Market implements Chain: the position's pool, where its buy traded: a V2
// pair read with getReserves, a V3 pool (venue "v3") read with slot0.
func (c *EVM) Market(p *wire.Position) (Market, error) {
	if !common.IsHexAddress(p.Pool) || !common.IsHexAddress(p.Token) {
		return nil, fmt.Errorf("position %s has no pool", p.ID)
	}
	m := &evmMarket{c: c, pair: common.HexToAddress(p.Pool), token: common.HexToAddress(p.Token),
		decimals: p.Decimals, quoteDecimals: p.QuoteDecimals, v3: p.Venue == wire.VenueV3}
	if common.IsHexAddress(p.Dev) {
		m.dev = common.HexToAddress(p.Dev)
	}
	return m, nil
}

type evmMarket struct {
	c                       *EVM
	pair, token, dev        common.Address
	decimals, quoteDecimals uint8
	v3                      bool
	known                   bool
	tokenIs0                bool
}

// Observe implements Market.
func (m *evmMarket) Observe(ctx context.Context) (_ Observation, err error) {
	defer func() { err = m.c.clean(err) }()
	if !m.known {
		t0, err := m.c.address(ctx, m.pair, "token0")
		if err != nil {
			return Observation{}, err
		}
		m.tokenIs0, m.known = t0 == m.token, true
	}
	price, err := m.price(ctx)
	if err != nil {
		return Observation{}, err
	}
	obs := Observation{At: time.Now(), Price: price}
	if m.dev != (common.Address{}) {
		if obs.DevBalance, err = m.c.balanceOf(ctx, m.token, m.dev); err != nil {
			return Observation{}, err
		}
	}
	return obs, nil
}

// price is the token's price in quote per whole token: a pair's reserves'
// ratio, or a V3 pool's current price, sqrtPriceX96^2 / 2^192 of token1
// in token0.
func (m *evmMarket) price(ctx context.Context) (*big.Rat, error) {
	if m.v3 {
		vals, err := m.c.call(ctx, m.pair, poolABI, "slot0")
		if err != nil {
			return nil, fmt.Errorf("price of %s: %w", m.pair.Hex(), err)
		}
		sqrt, _ := vals[0].(*big.Int)
		if sqrt == nil || sqrt.Sign() == 0 {
			return nil, fmt.Errorf("pool %s has no price", m.pair.Hex())
		}
		p2, q192 := new(big.Int).Mul(sqrt, sqrt), new(big.Int).Lsh(big.NewInt(1), 192)
		if m.tokenIs0 {
			return wholePrice(p2, q192, m.quoteDecimals, m.decimals), nil
		}
		return wholePrice(q192, p2, m.quoteDecimals, m.decimals), nil
	}
	vals, err := m.c.call(ctx, m.pair, pairABI, "getReserves")
	if err != nil || len(vals) < 2 {
		return nil, fmt.Errorf("reserves of %s: %v", m.pair.Hex(), err)
	}
	r0, _ := vals[0].(*big.Int)
	r1, _ := vals[1].(*big.Int)
	if r0 == nil || r1 == nil {
		return nil, fmt.Errorf("reserves of %s: undecodable", m.pair.Hex())
	}
	rt, rq := r0, r1
	if !m.tokenIs0 {
		rt, rq = r1, r0
	}
	price := wholePrice(rq, rt, m.quoteDecimals, m.decimals)
	if price == nil {
		return nil, fmt.Errorf("pair %s holds no tokens", m.pair.Hex())
	}
	return price, nil
}
