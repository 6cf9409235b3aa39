package exits

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
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
	pairABI  = mustABI(contracts.PairMetaData)
	erc20ABI = mustABI(contracts.ERC20MetaData)

	swapTopic     = pairABI.Events["Swap"].ID
	transferTopic = erc20ABI.Events["Transfer"].ID
)

func mustABI(md *bind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic(fmt.Sprintf("contract abi: %v", err))
	}
	return a
}

// EVM reads fills, balances and prices of V2 pairs on one EVM chain.
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

	mu       sync.Mutex
	decimals map[common.Address]uint8
}

// NewEVM returns one EVM chain of the engine: wrapped is its wrapped native
// coin (whose pairs are the native quote, named native) and quotes its
// stable quote assets by symbol.
func NewEVM(name string, c EVMClient, wrapped common.Address, native string, quotes map[string]common.Address, timeout time.Duration) *EVM {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	q := map[common.Address]string{}
	for sym, a := range quotes {
		q[a] = strings.ToUpper(sym)
	}
	return &EVM{name: name, client: c, wrapped: wrapped, native: native, quotes: q, timeout: timeout,
		decimals: map[common.Address]uint8{}}
}

func (c *EVM) call(ctx context.Context, to common.Address, a *abi.ABI, method string, args ...any) ([]any, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", method, err)
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	out, err := c.client.CallContract(cctx, ethereum.CallMsg{To: &to, Data: data}, nil)
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
	c.mu.Lock()
	d, ok := c.decimals[token]
	c.mu.Unlock()
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
	c.mu.Lock()
	c.decimals[token] = d
	c.mu.Unlock()
	return d, nil
}

func (c *EVM) balanceOf(ctx context.Context, token, holder common.Address) (*big.Int, error) {
	vals, err := c.call(ctx, token, erc20ABI, "balanceOf", holder)
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
	return c.balanceOf(ctx, common.HexToAddress(token), common.HexToAddress(wallet))
}

// quoteSymbol names a pair's quote token as a quote asset, or "".
func (c *EVM) quoteSymbol(a common.Address) string {
	if a == c.wrapped {
		return c.native
	}
	return c.quotes[a]
}

// Fill implements Chain: the pair's Swap log names the pair and the quote
// paid into it; the token's Transfer logs give what the wallet received
// (after any transfer tax).
func (c *EVM) Fill(ctx context.Context, signature, wallet, address string) (*Fill, error) {
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
	var swap *types.Log
	for _, l := range rc.Logs {
		if len(l.Topics) == 3 && l.Topics[0] == swapTopic && common.BytesToAddress(l.Topics[2].Bytes()) == who {
			swap = l
			break
		}
	}
	if swap == nil {
		return nil, fmt.Errorf("%w: no V2 swap to it", ErrNoTrade)
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
		return nil, fmt.Errorf("pair %s trades against %s, not a quote asset of %s", pair.Hex(), quote.Hex(), c.name)
	}
	vals, err := pairABI.Unpack("Swap", swap.Data)
	if err != nil || len(vals) != 4 {
		return nil, fmt.Errorf("decode swap log: %v", err)
	}
	in0, _ := vals[0].(*big.Int)
	in1, _ := vals[1].(*big.Int)
	spent := in0
	if tokenIs0 {
		spent = in1
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
	f := &Fill{Token: token.Hex(), Venue: wire.VenueV2, Pool: pair.Hex(), QuoteAsset: sym, Received: received,
		Spent: new(big.Int).Set(spent)}
	if f.Decimals, err = c.tokenDecimals(ctx, token); err != nil {
		return nil, err
	}
	if f.QuoteDecimals, err = c.tokenDecimals(ctx, quote); err != nil {
		return nil, err
	}
	dev, err := c.creator(ctx, token, pair, who, rc.BlockNumber)
	if err != nil {
		return nil, err
	}
	if dev != (common.Address{}) {
		f.Dev = dev.Hex()
		if f.DevBalance, err = c.balanceOf(ctx, token, dev); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// creator is the largest holder of token at block, besides the pair, the
// token, the zero address and the buyer (see EVM).
func (c *EVM) creator(ctx context.Context, token, pair, buyer common.Address, block *big.Int) (common.Address, error) {
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
	var best common.Address
	bestBal := new(big.Int)
	for a, b := range held {
		if a == pair || a == token || a == buyer || a == (common.Address{}) || b.Cmp(bestBal) <= 0 {
			continue
		}
		// Ties go to the lower address, so every engine names the same one.
		if b.Cmp(bestBal) == 0 && bytes.Compare(a[:], best[:]) > 0 {
			continue
		}
		best, bestBal = a, b
	}
	return best, nil
}

// SellLeg implements Chain: EVM sells a percent of the wallet's balance,
// so the percent is the amount over the balance, exact to 1e-18. The
// wallet may hold more of the token than this position (another buy), so
// even a sell of all of the position is a part of the balance; a sell of
// as much as the wallet holds is 100.
func (c *EVM) SellLeg(ctx context.Context, p *wire.Position, amount *big.Int, _ bool) (string, string, error) {
	bal, err := c.Balance(ctx, p.Wallet, p.Token)
	if err != nil {
		return "", "", err
	}
	if bal.Sign() == 0 || amount.Cmp(bal) >= 0 {
		return wire.SellPercent, "100", nil
	}
	return wire.SellPercent, percentOf(amount, bal), nil
}

// percentOf writes amount/balance*100 with 18 fractional digits, at least
// the smallest positive one.
func percentOf(amount, balance *big.Int) string {
	r := new(big.Rat).SetFrac(new(big.Int).Mul(amount, big.NewInt(100)), balance)
	s := r.FloatString(18)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "0" || s == "" {
		return "0.000000000000000001"
	}
	return s
}

// Market implements Chain: the position's pair, read with getReserves.
func (c *EVM) Market(p *wire.Position) (Market, error) {
	if !common.IsHexAddress(p.Pool) || !common.IsHexAddress(p.Token) {
		return nil, fmt.Errorf("position %s has no pair", p.ID)
	}
	m := &evmMarket{c: c, pair: common.HexToAddress(p.Pool), token: common.HexToAddress(p.Token),
		decimals: p.Decimals, quoteDecimals: p.QuoteDecimals}
	if common.IsHexAddress(p.Dev) {
		m.dev = common.HexToAddress(p.Dev)
	}
	return m, nil
}

type evmMarket struct {
	c                       *EVM
	pair, token, dev        common.Address
	decimals, quoteDecimals uint8
	known                   bool
	tokenIs0                bool
}

// Observe implements Market.
func (m *evmMarket) Observe(ctx context.Context) (Observation, error) {
	if !m.known {
		t0, err := m.c.address(ctx, m.pair, "token0")
		if err != nil {
			return Observation{}, err
		}
		m.tokenIs0, m.known = t0 == m.token, true
	}
	vals, err := m.c.call(ctx, m.pair, pairABI, "getReserves")
	if err != nil || len(vals) < 2 {
		return Observation{}, fmt.Errorf("reserves of %s: %v", m.pair.Hex(), err)
	}
	r0, _ := vals[0].(*big.Int)
	r1, _ := vals[1].(*big.Int)
	if r0 == nil || r1 == nil {
		return Observation{}, fmt.Errorf("reserves of %s: undecodable", m.pair.Hex())
	}
	rt, rq := r0, r1
	if !m.tokenIs0 {
		rt, rq = r1, r0
	}
	obs := Observation{At: time.Now(), Price: wholePrice(rq, rt, m.quoteDecimals, m.decimals)}
	if obs.Price == nil {
		return Observation{}, fmt.Errorf("pair %s holds no tokens", m.pair.Hex())
	}
	if m.dev != (common.Address{}) {
		if obs.DevBalance, err = m.c.balanceOf(ctx, m.token, m.dev); err != nil {
			return Observation{}, err
		}
	}
	return obs, nil
}
