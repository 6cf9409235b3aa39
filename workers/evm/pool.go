package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// The venues a pool belongs to, as the order's route and the venue pauses
// name them.
const (
	venueV2 = venues.UniswapV2
	venueV3 = venues.UniswapV3
)

// pool is one pool an order may trade on: the official V2 pair, or an
// official V3 pool of one fee tier, of the token against the order's
// quote asset, as read from its chain.
type pool struct {
	ch            *chainState
	token         common.Address
	quote         common.Address // the quote token: the wrapped native coin for the native asset
	native        bool           // the quote asset is the chain's native coin
	symbol        string         // the quote asset's symbol
	quoteDecimals uint8
	v3            bool
	fee           uint32 // a V3 pool's fee tier, in hundredths of a basis point
	addr          common.Address

	// A V2 pair's reserves at the latest block.
	reserveToken, reserveQuote *big.Int
	// out is what the pool pays for the order's whole input, and quoteGas
	// QuoterV2's gas estimate of that swap in a V3 pool.
	out      *big.Int
	quoteGas uint64
	// depth is the pool's holding of the quote token, read once when
	// needed (a V2 pair's is its reserve).
	depth *big.Int
}

// venue names the pool's venue.
func (p *pool) venue() string {
	if p.v3 {
		return venueV3
	}
	return venueV2
}

// label names the pool among the token's pools: v2, v3/500, ...
func (p *pool) label() string {
	if p.v3 {
		return fmt.Sprintf("v3/%d", p.fee)
	}
	return "v2"
}

// router is the official router the pool is traded through, and the
// spender a wallet approves for it.
func (p *pool) router() common.Address {
	if p.v3 {
		return p.ch.SwapRouter02
	}
	return p.ch.Router
}

// in and out are what a swap of the side spends and receives.
func (p *pool) in(side wire.Side) common.Address {
	if side == wire.Sell {
		return p.token
	}
	return p.quote
}

func (p *pool) outToken(side wire.Side) common.Address {
	if side == wire.Sell {
		return p.quote
	}
	return p.token
}

// quoteDepth is the pool's holding of the quote token: a V2 pair's
// reserve, a V3 pool's balance of it (the quote side of every position in
// range or not, and fees not yet collected).
func (s *Signer) quoteDepth(ctx context.Context, p *pool) (*big.Int, error) {
	if p.depth != nil {
		return p.depth, nil
	}
	if !p.v3 {
		p.depth = p.reserveQuote
		return p.depth, nil
	}
	b, err := s.tokenBalance(ctx, p.ch, p.quote, p.addr)
	if err != nil {
		return nil, err
	}
	p.depth = b
	return b, nil
}

// priceRat is the price of one base unit of the token in base units of
// the quote: a V2 pair's reserves, a V3 pool's slot0.
func (s *Signer) priceRat(ctx context.Context, p *pool) (*big.Rat, error) {
	if !p.v3 {
		if p.reserveToken.Sign() == 0 {
			return nil, fmt.Errorf("pair %s holds none of the token", p.addr.Hex())
		}
		return new(big.Rat).SetFrac(p.reserveQuote, p.reserveToken), nil
	}
	out, err := call(ctx, p.ch, p.addr, v3PoolABI, "slot0")
	if err != nil {
		return nil, err
	}
	sqrt, err := unpackOne[*big.Int](v3PoolABI, "slot0", out)
	if err != nil {
		return nil, err
	}
	if sqrt.Sign() == 0 {
		return nil, fmt.Errorf("pool %s is not initialised", p.addr.Hex())
	}
	// slot0 holds sqrt(token1/token0) in Q64.96: the price of token0 in
	// token1 is sqrt^2 / 2^192.
	price := new(big.Rat).SetFrac(new(big.Int).Mul(sqrt, sqrt), new(big.Int).Lsh(big.NewInt(1), 192))
	if t0, _ := uniswap.SortTokens(p.token, p.quote); t0 != p.token {
		price.Inv(price)
	}
	return price, nil
}

// quotePools asks every pool of token and quote on one chain what it pays
// for amount of the side's input: the V2 pair by its reserves (x*y=k after
// the 0.3% fee, exactly as the pair computes it), and each V3 fee tier by
// QuoterV2.quoteExactInputSingle run with eth_call. A pool that does not
// exist (or cannot be quoted) is left out; so is a V2 pair without
// reserves. The pools come back in venue order: v2, then v3 by fee tier.
//
// Every pool's address follows from the factories (CREATE2, as the
// routers compute it), so all the reads go to the chain at once, in one
// JSON-RPC batch with the token's decimals when they are not known yet; a
// V3 tier not yet seen deployed is asked for its code there, and quoted
// in a second batch when it has some. The latest header comes back from the
// same batch: the swaps' deadline and the order's fees are taken from it, so
// that the swaps can be built, and simulated, as soon as the quotes are in.
func (s *Signer) quotePools(ctx context.Context, base pool, side wire.Side, amount *big.Int) ([]*pool, *types.Header, error) {
	tiers := uniswap.FeeTiers()
	v2 := base
	v2.addr = uniswap.V2PairAddress(base.ch.Factory, base.token, base.quote)
	calls := []view{{to: v2.addr, abi: v2PairABI, method: "getReserves"}}
	v3s := make([]pool, len(tiers))
	// A V3 tier whose pool this chain was never seen to hold is asked for
	// its code instead of a quote: an address without code cannot be
	// quoted, and most tokens have no pool in most tiers. A tier found
	// deployed is quoted in a second batch, this once; a pool's code, once
	// deployed, stays.
	quoteAt, probeAt := map[int]int{}, map[int]int{}
	for i, fee := range tiers {
		p := base
		p.v3, p.fee = true, fee
		p.addr = uniswap.V3PoolAddress(base.ch.V3Factory, base.token, base.quote, fee)
		v3s[i] = p
		if base.ch.deployed(p.addr) {
			quoteAt[i] = len(calls)
			calls = append(calls, quoteView(&v3s[i], side, amount))
		} else {
			probeAt[i] = len(calls)
			calls = append(calls, view{to: p.addr, code: true})
		}
	}
	_, known := base.ch.knownDecimals(base.token)
	decimalsAt := len(calls)
	if !known {
		calls = append(calls, view{to: base.token, abi: erc20ABI, method: "decimals"})
	}
	headAt := len(calls)
	calls = append(calls, view{head: true})
	res, err := s.batch(ctx, base.ch, calls)
	if err != nil {
		return nil, nil, err
	}
	head := res[headAt].head
	if res[headAt].err != nil {
		return nil, nil, res[headAt].err
	}
	if head == nil {
		return nil, nil, fmt.Errorf("%s latest header: %w", base.ch.Name, ethereum.NotFound)
	}
	if !known {
		// An address that is no token answers nothing: read again when
		// needed.
		r := res[decimalsAt]
		if d, err := unpackOne[uint8](erc20ABI, "decimals", r.out); err == nil && r.err == nil {
			base.ch.setDecimals(base.token, d)
		}
	}
	var found []view
	foundAt := map[int]int{}
	for i := range v3s {
		k, probed := probeAt[i]
		if !probed {
			continue
		}
		if res[k].err != nil {
			return nil, nil, res[k].err
		}
		if len(res[k].out) > 0 {
			base.ch.setDeployed(v3s[i].addr)
			foundAt[i] = len(found)
			found = append(found, quoteView(&v3s[i], side, amount))
		}
	}
	var more []result
	if len(found) > 0 {
		if more, err = s.batch(ctx, base.ch, found); err != nil {
			return nil, nil, err
		}
	}
	var out []*pool
	if r0, r1, ok := decodeReserves(res[0]); ok {
		v2.reserveToken, v2.reserveQuote = r0, r1
		if t0, _ := uniswap.SortTokens(base.token, base.quote); t0 != base.token {
			v2.reserveToken, v2.reserveQuote = r1, r0
		}
		if v2.reserveToken.Sign() > 0 && v2.reserveQuote.Sign() > 0 {
			v2.out = v2.v2Out(side, amount)
			out = append(out, &v2)
		}
	} else if res[0].err != nil && !callerr.IsRevert(res[0].err) {
		return nil, nil, res[0].err
	}
	for i := range v3s {
		var r result
		if k, ok := quoteAt[i]; ok {
			r = res[k]
		} else if k, ok := foundAt[i]; ok {
			r = more[k]
		} else {
			continue // no pool at the address
		}
		if r.err != nil {
			if callerr.IsRevert(r.err) {
				continue // a pool that cannot be quoted, such as one never initialised
			}
			return nil, nil, r.err
		}
		q, gas, err := decodeQuote(r.out)
		if err != nil {
			continue
		}
		v3s[i].out, v3s[i].quoteGas = q, gas
		out = append(out, &v3s[i])
	}
	return out, head, nil
}

// quoteView is QuoterV2's quote of amount of the side's input in the V3
// pool p.
func quoteView(p *pool, side wire.Side, amount *big.Int) view {
	return view{to: p.ch.QuoterV2, abi: quoterABI, method: "quoteExactInputSingle", args: []any{quoteParams(p, side, amount)}}
}

// view is one read of a contract, with code of the code at its address,
// or with head of the latest header; result is its answer or its error.
type view struct {
	to     common.Address
	abi    *abi.ABI
	method string
	args   []any
	code   bool
	head   bool
}

type result struct {
	out  []byte
	head *types.Header
	err  error
}

// batch runs views with eth_call (eth_getCode for a view of code,
// eth_getBlockByNumber for the head) at the latest block, in one JSON-RPC
// request. The error is the request's; each result carries its call's.
func (s *Signer) batch(ctx context.Context, c *chainState, views []view) ([]result, error) {
	elems := make([]rpc.BatchElem, len(views))
	outs := make([]hexutil.Bytes, len(views))
	heads := make([]*types.Header, len(views))
	for i, v := range views {
		if v.head {
			elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &heads[i]}
			continue
		}
		if v.code {
			elems[i] = rpc.BatchElem{Method: "eth_getCode", Args: []any{v.to, "latest"}, Result: &outs[i]}
			continue
		}
		data, err := v.abi.Pack(v.method, v.args...)
		if err != nil {
			return nil, fmt.Errorf("pack %s: %w", v.method, err)
		}
		arg := map[string]any{"to": v.to, "input": hexutil.Bytes(data)}
		elems[i] = rpc.BatchElem{Method: "eth_call", Args: []any{arg, "latest"}, Result: &outs[i]}
	}
	if err := c.client.BatchCallContext(ctx, elems); err != nil {
		return nil, fmt.Errorf("%s batch of %d calls: %w", c.Name, len(views), err)
	}
	res := make([]result, len(views))
	for i, e := range elems {
		res[i] = result{out: outs[i], head: heads[i], err: e.Error}
		if e.Error != nil && views[i].head {
			res[i].err = fmt.Errorf("%s latest header: %w", c.Name, e.Error)
		} else if e.Error != nil && views[i].code {
			res[i].err = fmt.Errorf("%s code of %s: %w", c.Name, views[i].to.Hex(), e.Error)
		} else if e.Error != nil {
			res[i].err = fmt.Errorf("%s %s.%s: %w", c.Name, views[i].to.Hex(), views[i].method, e.Error)
		}
	}
	return res, nil
}

// decodeReserves reads getReserves' answer; false when there is none (no
// pair at the address).
func decodeReserves(r result) (*big.Int, *big.Int, bool) {
	if r.err != nil || len(r.out) == 0 {
		return nil, nil, false
	}
	vals, err := v2PairABI.Unpack("getReserves", r.out)
	if err != nil || len(vals) < 2 {
		return nil, nil, false
	}
	r0, ok0 := vals[0].(*big.Int)
	r1, ok1 := vals[1].(*big.Int)
	return r0, r1, ok0 && ok1
}

// quoteParams are QuoterV2's parameters for amount of the side's input in
// the V3 pool p.
func quoteParams(p *pool, side wire.Side, amount *big.Int) uniswap.IQuoterV2QuoteExactInputSingleParams {
	return uniswap.IQuoterV2QuoteExactInputSingleParams{
		TokenIn:           p.in(side),
		TokenOut:          p.outToken(side),
		AmountIn:          amount,
		Fee:               new(big.Int).SetUint64(uint64(p.fee)),
		SqrtPriceLimitX96: new(big.Int),
	}
}

// decodeQuote reads quoteExactInputSingle's answer: the output and the
// quoter's estimate of the gas the pool's swap takes.
func decodeQuote(out []byte) (*big.Int, uint64, error) {
	vals, err := quoterABI.Unpack("quoteExactInputSingle", out)
	if err != nil || len(vals) != 4 {
		return nil, 0, fmt.Errorf("quoteExactInputSingle: %w: %v", errDecode, err)
	}
	amountOut, ok1 := vals[0].(*big.Int)
	gas, ok2 := vals[3].(*big.Int)
	if !ok1 || !ok2 {
		return nil, 0, fmt.Errorf("quoteExactInputSingle: %w: unexpected types", errDecode)
	}
	if !gas.IsUint64() {
		gas = new(big.Int)
	}
	return amountOut, gas.Uint64(), nil
}

// v2Pool returns the token's V2 pair with its reserves and its output for
// amount, nil when there is none with liquidity.
func (s *Signer) v2Pool(ctx context.Context, base pool, side wire.Side, amount *big.Int) (*pool, error) {
	info, err := s.pairOf(ctx, base.ch, base.token, base.quote)
	if err != nil || info.addr == (common.Address{}) {
		return nil, err
	}
	r0, r1, err := s.reserves(ctx, base.ch, info.addr)
	if err != nil {
		return nil, err
	}
	p := base
	p.addr = info.addr
	p.reserveToken, p.reserveQuote = r0, r1
	if info.token0 != p.token {
		p.reserveToken, p.reserveQuote = r1, r0
	}
	if p.reserveToken.Sign() == 0 || p.reserveQuote.Sign() == 0 {
		return nil, nil
	}
	p.out = p.v2Out(side, amount)
	return &p, nil
}

// v2Out is a V2 pair's output for amount of the side's input at its
// current reserves.
func (p *pool) v2Out(side wire.Side, amount *big.Int) *big.Int {
	if side == wire.Sell {
		return amountOut(amount, p.reserveToken, p.reserveQuote)
	}
	return amountOut(amount, p.reserveQuote, p.reserveToken)
}

// v3Pool returns the token's V3 pool of the fee tier with QuoterV2's
// output for amount, nil when the quoter cannot quote it (no pool, or one
// never initialised).
func (s *Signer) v3Pool(ctx context.Context, base pool, side wire.Side, fee uint32, amount *big.Int) (*pool, error) {
	p := base
	p.v3, p.fee = true, fee
	p.addr = uniswap.V3PoolAddress(base.ch.V3Factory, base.token, base.quote, fee)
	out, gas, err := s.quoteV3(ctx, &p, side, amount)
	if err != nil {
		if callerr.IsRevert(err) || errors.Is(err, errDecode) {
			return nil, nil
		}
		return nil, err
	}
	p.out, p.quoteGas = out, gas
	return &p, nil
}

// quoteV3 runs QuoterV2.quoteExactInputSingle for amount of the side's
// input in a V3 pool and returns the output and the quoter's estimate of
// the gas the pool's swap takes.
func (s *Signer) quoteV3(ctx context.Context, p *pool, side wire.Side, amount *big.Int) (*big.Int, uint64, error) {
	out, err := call(ctx, p.ch, p.ch.QuoterV2, quoterABI, "quoteExactInputSingle", quoteParams(p, side, amount))
	if err != nil {
		return nil, 0, err
	}
	return decodeQuote(out)
}

// poolAt reports whether addr is an official pool of the chain (its V2
// pair or a V3 pool of one fee tier) with quote on one side, and returns
// it with the token on the other side, not yet quoted. An address a
// factory would not place there is not one of its pools, whatever it
// answers.
func (s *Signer) poolAt(ctx context.Context, base pool, addr common.Address) (*pool, error) {
	var t0, t1 common.Address
	var fee *big.Int
	g, gctx := guard.WithContext(ctx)
	for _, q := range []struct {
		method string
		dst    *common.Address
	}{{"token0", &t0}, {"token1", &t1}} {
		g.Go(func() error {
			out, err := call(gctx, base.ch, addr, v2PairABI, q.method)
			if err != nil {
				return err
			}
			v, err := unpackOne[common.Address](v2PairABI, q.method, out)
			*q.dst = v
			return err
		})
	}
	g.Go(func() error {
		// A V2 pair has no fee(): that call failing is the expected answer.
		out, err := call(gctx, base.ch, addr, v3PoolABI, "fee")
		if err == nil {
			fee, _ = unpackOne[*big.Int](v3PoolABI, "fee", out)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		if callerr.IsRevert(err) || errors.Is(err, errDecode) {
			return nil, nil // not a pool
		}
		return nil, err
	}
	p := base
	switch base.quote {
	case t0:
		p.token = t1
	case t1:
		p.token = t0
	default:
		return nil, nil
	}
	p.addr = addr
	if fee != nil && fee.IsUint64() && uniswap.V3PoolAddress(base.ch.V3Factory, t0, t1, uint32(fee.Uint64())) == addr {
		p.v3, p.fee = true, uint32(fee.Uint64())
		return &p, nil
	}
	if uniswap.V2PairAddress(base.ch.Factory, t0, t1) == addr {
		return &p, nil
	}
	return nil, nil
}

// quoteOne quotes one known pool for amount, as quotePools does; nil when
// it cannot be traded.
func (s *Signer) quoteOne(ctx context.Context, p *pool, side wire.Side, amount *big.Int) (*pool, error) {
	if p.v3 {
		return s.v3Pool(ctx, *p, side, p.fee, amount)
	}
	return s.v2Pool(ctx, *p, side, amount)
}

// pairOf returns the V2 factory's pair of two tokens (zero address: none).
// A pair, once created, never changes, so found pairs are remembered.
func (s *Signer) pairOf(ctx context.Context, c *chainState, a, b common.Address) (pairInfo, error) {
	key := [2]common.Address{a, b}
	if b.Cmp(a) < 0 {
		key = [2]common.Address{b, a}
	}
	info, ok := c.pairs.Get(key)
	if ok {
		return info, nil
	}
	out, err := call(ctx, c, c.Factory, v2FactoryABI, "getPair", a, b)
	if err != nil {
		return pairInfo{}, err
	}
	addr, err := unpackOne[common.Address](v2FactoryABI, "getPair", out)
	if err != nil || addr == (common.Address{}) {
		return pairInfo{}, err
	}
	// The factory orders a pair's tokens by address.
	info = pairInfo{addr: addr, token0: key[0]}
	c.pairs.Put(key, info)
	return info, nil
}

// reserves reads a pair's reserves.
func (s *Signer) reserves(ctx context.Context, c *chainState, pair common.Address) (*big.Int, *big.Int, error) {
	out, err := call(ctx, c, pair, v2PairABI, "getReserves")
	if err != nil {
		return nil, nil, err
	}
	vals, err := v2PairABI.Unpack("getReserves", out)
	if err != nil || len(vals) < 2 {
		return nil, nil, fmt.Errorf("getReserves of %s: %w: %v", pair.Hex(), errDecode, err)
	}
	r0, ok0 := vals[0].(*big.Int)
	r1, ok1 := vals[1].(*big.Int)
	if !ok0 || !ok1 {
		return nil, nil, fmt.Errorf("getReserves of %s: %w: unexpected types", pair.Hex(), errDecode)
	}
	return r0, r1, nil
}

// decimalsOf reads a token's decimals once.
func (s *Signer) decimalsOf(ctx context.Context, c *chainState, token common.Address) (uint8, error) {
	if d, ok := c.knownDecimals(token); ok {
		return d, nil
	}
	out, err := call(ctx, c, token, erc20ABI, "decimals")
	if err != nil {
		return 0, err
	}
	d, err := unpackOne[uint8](erc20ABI, "decimals", out)
	if err != nil {
		return 0, err
	}
	c.setDecimals(token, d)
	return d, nil
}

func (c *chainState) knownDecimals(token common.Address) (uint8, bool) { return c.decimals.Get(token) }

func (c *chainState) setDecimals(token common.Address, d uint8) { c.decimals.Put(token, d) }

// deployed reports whether addr was seen to hold code on the chain. A V3
// pool never destroys itself, so code once seen is there for good.
func (c *chainState) deployed(addr common.Address) bool {
	ok, _ := c.v3Pools.Get(addr)
	return ok
}

func (c *chainState) setDeployed(addr common.Address) { c.v3Pools.Put(addr, true) }

// tokenBalance reads an ERC-20 balance.
func (s *Signer) tokenBalance(ctx context.Context, c *chainState, token, owner common.Address) (*big.Int, error) {
	out, err := call(ctx, c, token, erc20ABI, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	return unpackOne[*big.Int](erc20ABI, "balanceOf", out)
}

// allowance reads how much of owner's token spender may move.
func (s *Signer) allowance(ctx context.Context, c *chainState, token, owner, spender common.Address) (*big.Int, error) {
	out, err := call(ctx, c, token, erc20ABI, "allowance", owner, spender)
	if err != nil {
		return nil, err
	}
	return unpackOne[*big.Int](erc20ABI, "allowance", out)
}

// call runs a view call at the latest block.
func call(ctx context.Context, c *chainState, to common.Address, a interface {
	Pack(string, ...any) ([]byte, error)
}, method string, args ...any) ([]byte, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", method, err)
	}
	out, err := c.client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s %s.%s: %w", c.Name, to.Hex(), method, err)
	}
	return out, nil
}
