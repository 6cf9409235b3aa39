package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// reads is what an order needs of its wallets and of the chain's fees on
// one chain, read all at once in the background while the pools are
// quoted: none of it depends on the pool chosen.
type reads struct {
	ch   *chainState
	done chan struct{}
	err  error

	fees   fees
	native []*big.Int // native balance per leg
	nonce  []uint64   // pending nonce per leg
	// spent is the token the legs' swaps take from the wallets (a sell's
	// token, a stable buy's stable), zero for a native buy; held is each
	// wallet's balance of it, and allowed each wallet's allowance of it
	// for each router.
	spent   common.Address
	held    []*big.Int
	allowed map[common.Address][]*big.Int
}

// on returns r when it reads chain c, else nil.
func (r *reads) on(c *chainState) *reads {
	if r == nil || r.ch != c {
		return nil
	}
	return r
}

// wait waits for the reads; their first error is the reads' error.
func (r *reads) wait(ctx context.Context) error {
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// spentToken is the ERC-20 the order's swaps take from the wallets on c,
// as far as the job tells: the token of a sell, the stable of a stable
// buy; false for a buy with the native coin.
func spentToken(c *chainState, o *order) (common.Address, bool) {
	a, _ := c.asset.Asset(o.quote)
	switch {
	case o.side != wire.Buy:
		return o.token, true
	case !a.Native:
		return c.Quotes[a.Symbol], true
	default:
		return common.Address{}, false
	}
}

// startReads reads, in the background, the fees and what the order needs
// of each wallet on c: native balance, pending nonce, and the balance of
// the token its swap spends with both routers' allowances of it.
func (s *Signer) startReads(ctx context.Context, c *chainState, o *order) *reads {
	r := &reads{ch: c, done: make(chan struct{}), native: make([]*big.Int, len(o.legs)), nonce: make([]uint64, len(o.legs))}
	spent, spends := spentToken(c, o)
	routers := []common.Address{c.Router, c.SwapRouter02}
	if spends {
		r.spent, r.held = spent, make([]*big.Int, len(o.legs))
		r.allowed = map[common.Address][]*big.Int{}
		for _, rt := range routers {
			r.allowed[rt] = make([]*big.Int, len(o.legs))
		}
	}
	go func() {
		defer close(r.done)
		g, gctx := errgroup.WithContext(ctx)
		// The token's reads fail on their own: the job's address may be a
		// pool, which answers neither balanceOf nor allowance.
		tg, tctx := errgroup.WithContext(ctx)
		g.Go(func() (err error) {
			r.fees, err = s.fees(gctx, c, o)
			return err
		})
		for i, l := range o.legs {
			g.Go(func() (err error) {
				if r.native[i], err = c.client.BalanceAt(gctx, l.wallet, nil); err != nil {
					return fmt.Errorf("%s balance of %s: %w", c.Name, l.wallet.Hex(), err)
				}
				return nil
			})
			g.Go(func() (err error) {
				if r.nonce[i], err = c.client.PendingNonceAt(gctx, l.wallet); err != nil {
					return fmt.Errorf("%s nonce of %s: %w", c.Name, l.wallet.Hex(), err)
				}
				return nil
			})
			if !spends {
				continue
			}
			tg.Go(func() (err error) {
				r.held[i], err = s.tokenBalance(tctx, c, spent, l.wallet)
				return err
			})
			for _, rt := range routers {
				allowed := r.allowed[rt]
				tg.Go(func() (err error) {
					allowed[i], err = s.allowance(tctx, c, spent, l.wallet, rt)
					return err
				})
			}
		}
		r.err = g.Wait()
		if err := tg.Wait(); err != nil {
			if isRevert(err) || errors.Is(err, errDecode) {
				// Not a token: whoever needs the token's reads makes them.
				r.spent, r.held, r.allowed = common.Address{}, nil, nil
			} else if r.err == nil {
				r.err = err
			}
		}
	}()
	return r
}

// spending returns the balances and the allowances for spender of token,
// from r when it read them, else read now.
func (s *Signer) spending(ctx context.Context, r *reads, o *order, token, spender common.Address) (held, allowed []*big.Int, err error) {
	if r.spent == token && r.allowed[spender] != nil {
		return r.held, r.allowed[spender], nil
	}
	c := r.ch
	held, allowed = make([]*big.Int, len(o.legs)), make([]*big.Int, len(o.legs))
	g, gctx := errgroup.WithContext(ctx)
	for i, l := range o.legs {
		g.Go(func() (err error) {
			held[i], err = s.tokenBalance(gctx, c, token, l.wallet)
			return err
		})
		g.Go(func() (err error) {
			allowed[i], err = s.allowance(gctx, c, token, l.wallet, spender)
			return err
		})
	}
	return held, allowed, g.Wait()
}
