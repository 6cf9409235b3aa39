package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// pool is the V2 pair an order trades through, as read from its chain.
type pool struct {
	ch     *chainState
	token  common.Address
	quote  common.Address // the quote token: the wrapped native coin for the native asset
	native bool           // the quote asset is the chain's native coin
	symbol string         // the quote asset's symbol
	pair   common.Address
	// Reserves at the latest block.
	reserveToken, reserveQuote *big.Int
	quoteDecimals              uint8
}

// resolve finds the pool an order trades through. With one candidate
// chain it is that chain's pair; with several, every chain is asked at
// once, and of the chains that have a pair the one whose pool holds the
// most quote value in US dollars wins (for a sell, among the chains where
// a wallet of the order holds the token, when any does).
func (s *Signer) resolve(ctx context.Context, o *order, cands []*chainState) (*pool, string, error) {
	found := make([]*pool, len(cands))
	errs := make([]error, len(cands))
	g, gctx := errgroup.WithContext(ctx)
	for i, c := range cands {
		g.Go(func() error {
			found[i], errs[i] = s.findPool(gctx, c, o)
			return nil // one chain's failure does not hide another's pool
		})
	}
	_ = g.Wait()
	var pools []*pool
	var failed []string
	for i, p := range found {
		switch {
		case errs[i] != nil:
			var ae *apierr.Error
			if errors.As(errs[i], &ae) {
				return nil, "", ae
			}
			failed = append(failed, fmt.Sprintf("%s: %v", cands[i].Name, errs[i]))
		case p != nil:
			pools = append(pools, p)
		}
	}
	if len(failed) > 0 && (len(cands) == 1 || len(pools) == 0) {
		return nil, "", fmt.Errorf("find pool of %s: %s", o.token.Hex(), strings.Join(failed, "; "))
	}
	if len(failed) > 0 {
		s.log.Warn("chains not searched for the token", "token", o.token.Hex(), "failed", strings.Join(failed, "; "))
	}
	if len(pools) == 0 {
		where := "on " + cands[0].Name
		if len(cands) > 1 {
			where = "on any EVM chain"
		}
		return nil, "", apierr.Newf(apierr.TokenNotFound, o.token.Hex(), "no V2 pool of %s against %s %s",
			o.token.Hex(), quoteName(o.quote), where)
	}
	if len(cands) == 1 {
		return pools[0], describe(pools[0]), nil
	}
	if len(pools) == 1 {
		return pools[0], describe(pools[0]) + fmt.Sprintf(" (the only chain of %d with a pool)", len(cands)), nil
	}
	if o.side == wire.Sell {
		held, err := s.heldOn(ctx, o, pools)
		if err != nil {
			return nil, "", err
		}
		if len(held) > 0 {
			pools = held
		}
		if len(pools) == 1 {
			return pools[0], describe(pools[0]) + " (the only chain where the wallets hold the token)", nil
		}
	}
	best, bestUSD := -1, new(big.Rat)
	for i, p := range pools {
		usd, err := s.quoteReserveUSD(ctx, p)
		if err != nil {
			return nil, "", err
		}
		if best < 0 || usd.Cmp(bestUSD) > 0 {
			best, bestUSD = i, usd
		}
	}
	return pools[best], describe(pools[best]) + fmt.Sprintf(" (deepest of %d: $%s of %s)",
		len(pools), bestUSD.FloatString(2), pools[best].symbol), nil
}

func describe(p *pool) string {
	return fmt.Sprintf("v2 pair %s on %s (%s)", p.pair.Hex(), p.ch.Name, p.symbol)
}

func quoteName(symbol string) string {
	if symbol == "" {
		return "the native coin"
	}
	return symbol
}

// heldOn returns the pools on whose chains a wallet of the order holds the
// token.
func (s *Signer) heldOn(ctx context.Context, o *order, pools []*pool) ([]*pool, error) {
	holds := make([]atomic.Bool, len(pools))
	g, gctx := errgroup.WithContext(ctx)
	for i, p := range pools {
		for _, l := range o.legs {
			g.Go(func() error {
				b, err := s.tokenBalance(gctx, p.ch, p.token, l.wallet)
				if err != nil {
					return err
				}
				if b.Sign() > 0 {
					holds[i].Store(true)
				}
				return nil
			})
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []*pool
	for i, p := range pools {
		if holds[i].Load() {
			out = append(out, p)
		}
	}
	return out, nil
}

// findPool returns the token's pool against the order's quote asset on
// one chain, nil when there is none with liquidity. The job's address may
// also be the pair itself.
func (s *Signer) findPool(ctx context.Context, c *chainState, o *order) (*pool, error) {
	a, _ := c.asset.Asset(o.quote)
	p := &pool{ch: c, token: o.token, native: a.Native, symbol: a.Symbol}
	if a.Native {
		p.quote = c.WrappedNative
		p.quoteDecimals = 18
	} else {
		p.quote = c.Quotes[a.Symbol]
	}
	if p.token == p.quote {
		return nil, nil
	}
	info, err := s.pairOf(ctx, c, p.token, p.quote)
	if err != nil {
		return nil, err
	}
	if info.addr == (common.Address{}) {
		// Perhaps the address is a pool of this factory.
		token, ok, err := s.pairToken(ctx, c, p.token, p.quote)
		if err != nil || !ok {
			return nil, err
		}
		p.token = token
		if info, err = s.pairOf(ctx, c, p.token, p.quote); err != nil || info.addr == (common.Address{}) {
			return nil, err
		}
	}
	p.pair = info.addr
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		r0, r1, err := s.reserves(gctx, c, info.addr)
		if err != nil {
			return err
		}
		if info.token0 == p.token {
			p.reserveToken, p.reserveQuote = r0, r1
		} else {
			p.reserveToken, p.reserveQuote = r1, r0
		}
		return nil
	})
	if !a.Native {
		g.Go(func() error {
			d, err := s.decimalsOf(gctx, c, p.quote)
			p.quoteDecimals = d
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if p.reserveToken.Sign() == 0 || p.reserveQuote.Sign() == 0 {
		return nil, nil
	}
	return p, nil
}

// pairOf returns the factory's pair of two tokens (zero address: none). A
// pair, once created, never changes, so found pairs are remembered.
func (s *Signer) pairOf(ctx context.Context, c *chainState, a, b common.Address) (pairInfo, error) {
	key := [2]common.Address{a, b}
	if b.Cmp(a) < 0 {
		key = [2]common.Address{b, a}
	}
	c.mu.Lock()
	info, ok := c.pairs[key]
	c.mu.Unlock()
	if ok {
		return info, nil
	}
	out, err := call(ctx, c, c.Factory, factoryABI, "getPair", a, b)
	if err != nil {
		return pairInfo{}, err
	}
	addr, err := unpackOne[common.Address](factoryABI, "getPair", out)
	if err != nil || addr == (common.Address{}) {
		return pairInfo{}, err
	}
	// The factory orders a pair's tokens by address.
	info = pairInfo{addr: addr, token0: key[0]}
	c.mu.Lock()
	c.pairs[key] = info
	c.mu.Unlock()
	return info, nil
}

// pairToken reports whether addr is a pair of the chain's factory with
// quote on one side, and returns the other side.
func (s *Signer) pairToken(ctx context.Context, c *chainState, addr, quote common.Address) (common.Address, bool, error) {
	var t0, t1 common.Address
	g, gctx := errgroup.WithContext(ctx)
	for _, q := range []struct {
		method string
		dst    *common.Address
	}{{"token0", &t0}, {"token1", &t1}} {
		g.Go(func() error {
			out, err := call(gctx, c, addr, pairABI, q.method)
			if err != nil {
				return err
			}
			v, err := unpackOne[common.Address](pairABI, q.method, out)
			*q.dst = v
			return err
		})
	}
	if err := g.Wait(); err != nil {
		if isRevert(err) || errors.Is(err, errDecode) {
			return common.Address{}, false, nil // not a pair
		}
		return common.Address{}, false, err
	}
	var token common.Address
	switch quote {
	case t0:
		token = t1
	case t1:
		token = t0
	default:
		return common.Address{}, false, nil
	}
	info, err := s.pairOf(ctx, c, token, quote)
	if err != nil {
		return common.Address{}, false, err
	}
	return token, info.addr == addr, nil
}

// reserves reads a pair's reserves.
func (s *Signer) reserves(ctx context.Context, c *chainState, pair common.Address) (*big.Int, *big.Int, error) {
	out, err := call(ctx, c, pair, pairABI, "getReserves")
	if err != nil {
		return nil, nil, err
	}
	vals, err := pairABI.Unpack("getReserves", out)
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
	c.mu.Lock()
	d, ok := c.decimals[token]
	c.mu.Unlock()
	if ok {
		return d, nil
	}
	out, err := call(ctx, c, token, erc20ABI, "decimals")
	if err != nil {
		return 0, err
	}
	d, err = unpackOne[uint8](erc20ABI, "decimals", out)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.decimals[token] = d
	c.mu.Unlock()
	return d, nil
}

// tokenBalance reads an ERC-20 balance.
func (s *Signer) tokenBalance(ctx context.Context, c *chainState, token, owner common.Address) (*big.Int, error) {
	out, err := call(ctx, c, token, erc20ABI, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	return unpackOne[*big.Int](erc20ABI, "balanceOf", out)
}

// allowance reads how much of owner's token the router may spend.
func (s *Signer) allowance(ctx context.Context, c *chainState, token, owner common.Address) (*big.Int, error) {
	out, err := call(ctx, c, token, erc20ABI, "allowance", owner, c.Router)
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

// isRevert reports whether err is the node's answer that a call reverted
// (or could not run), as opposed to a failure to reach it.
func isRevert(err error) bool {
	var rerr rpc.Error
	if errors.As(err, &rerr) {
		msg := strings.ToLower(rerr.Error())
		return rerr.ErrorCode() == 3 || strings.Contains(msg, "revert") || strings.Contains(msg, "invalid opcode") ||
			strings.Contains(msg, "out of gas")
	}
	return false
}
