package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// reads is what an order needs of its wallets and of the chain's fees on
// one chain, read all at once in the background while the pools are
// quoted: none of it depends on the pool chosen. The latest header, which
// the fees also start from, comes with the quotes (market.head).
type reads struct {
	ch   *chainState
	done chan struct{}
	err  error

	// nodeTip is the node's priority fee, read when the job gives none and
	// leaves no choice to auto_tip; history is the fee history auto_tip
	// reads.
	nodeTip *big.Int
	history *ethereum.FeeHistory
	native  []*big.Int // native balance per leg
	nonce   []uint64   // pending nonce per leg
	// mined is each leg's wallet's mined transaction count, read before
	// its balances, and pending the spends its nonce record holds (see
	// spends).
	mined   []uint64
	pending [][]RecordSpend
	// records are the wallets' nonce records as read for pending, which
	// their takes start from (Nonces.takeFrom).
	records []*recordRead
	// spent is the token the legs' swaps take from the wallets (a sell's
	// token, a stable buy's stable), zero for a native buy; held is each
	// wallet's balance of it, and allowed each wallet's allowance of it
	// for each router.
	spent   common.Address
	held    []*big.Int
	allowed map[common.Address][]*big.Int
}

// spendsOf is leg i's wallet's recorded spends and mined transaction
// count, when r read them.
func (r *reads) spendsOf(i int) ([]RecordSpend, uint64, bool) {
	if r == nil || r.mined == nil || r.pending == nil {
		return nil, 0, false
	}
	return r.pending[i], r.mined[i], true
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
	if o.side != wire.Buy {
		return o.token, true
	}
	a, _ := c.asset.Asset(o.quote)
	if t, viaWrapper := c.quoteToken(a); !viaWrapper {
		return t, true
	}
	return common.Address{}, false
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
		g, gctx := guard.WithContext(ctx)
		// The token's reads fail on their own: the job's address may be a
		// pool, which answers neither balanceOf nor allowance.
		tg, tctx := guard.WithContext(ctx)
		// The token's balances go in the wallets' batch, after the mined
		// counts, as the native balances do; a token that answers no
		// balanceOf there is not one (notToken), as below.
		var notToken bool
		// The routers' allowances are read once the wallets' batch is in,
		// after the mined counts, as the balances are: a spend mined
		// between an allowance read before the count and the count would
		// be in neither, and the allowance would count it still to spend.
		allowances := make(chan struct{})
		g.Go(func() (err error) {
			defer close(allowances)
			notToken, err = s.readWallets(gctx, c, o, r, spends)
			return err
		})
		pending := make([][]RecordSpend, len(o.legs))
		records := make([]*recordRead, len(o.legs))
		for i, l := range o.legs {
			g.Go(func() (err error) {
				pending[i], records[i], err = s.nonces.pendingRead(gctx, c.Name, l.wallet)
				return err
			})
		}
		for i, l := range o.legs {
			if !spends {
				continue
			}
			for _, rt := range routers {
				allowed := r.allowed[rt]
				tg.Go(func() (err error) {
					select {
					case <-allowances:
					case <-tctx.Done():
						return tctx.Err()
					}
					allowed[i], err = s.allowance(tctx, c, spent, l.wallet, rt)
					return err
				})
			}
		}
		r.err = g.Wait()
		if r.err == nil {
			r.pending, r.records = pending, records
		}
		if err := tg.Wait(); err != nil || notToken {
			if notToken || callerr.IsRevert(err) || errors.Is(err, errDecode) {
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
	g, gctx := guard.WithContext(ctx)
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

// readWallets reads the node's priority fee when the order needs it, and
// every leg's native balance and pending nonce, and with token its balance
// of r.spent, in one JSON-RPC batch: one request to the node instead of
// one per value. Under auto_tip the fee history is read beside it. It
// reports whether r.spent answered no balanceOf (reverted, or answered
// nothing an ERC-20 would): the job's address may be a pool.
func (s *Signer) readWallets(ctx context.Context, c *chainState, o *order, r *reads, token bool) (notToken bool, err error) {
	var tip hexutil.Big
	balances := make([]hexutil.Big, len(o.legs))
	nonces := make([]hexutil.Uint64, len(o.legs))
	var elems []rpc.BatchElem
	var what []string
	askTip := !o.autoTip && o.priorityFee.Sign() == 0
	if askTip {
		elems = append(elems, rpc.BatchElem{Method: "eth_maxPriorityFeePerGas", Result: &tip})
		what = append(what, "priority fee")
	}
	// The mined count comes first: a transaction it counts mined is in the
	// balances read after it (see spends), the token's included. A node
	// answers a batch's calls in order.
	mined := make([]hexutil.Uint64, len(o.legs))
	held := make([]hexutil.Bytes, len(o.legs))
	tokenAt := map[int]int{} // batch index of a token balance: its leg
	for i, l := range o.legs {
		elems = append(elems,
			rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{l.wallet, "latest"}, Result: &mined[i]},
			rpc.BatchElem{Method: "eth_getBalance", Args: []any{l.wallet, "latest"}, Result: &balances[i]},
			rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{l.wallet, "pending"}, Result: &nonces[i]})
		what = append(what, "mined count of "+l.wallet.Hex(), "balance of "+l.wallet.Hex(), "nonce of "+l.wallet.Hex())
		if token {
			data, perr := erc20ABI.Pack("balanceOf", l.wallet)
			if perr != nil {
				return false, fmt.Errorf("pack balanceOf: %w", perr)
			}
			tokenAt[len(elems)] = i
			elems = append(elems, rpc.BatchElem{Method: "eth_call",
				Args: []any{map[string]any{"to": r.spent, "input": hexutil.Bytes(data)}, "latest"}, Result: &held[i]})
			what = append(what, "balance of "+r.spent.Hex()+" of "+l.wallet.Hex())
		}
	}
	g, gctx := guard.WithContext(ctx)
	var history *ethereum.FeeHistory
	if o.autoTip {
		g.Go(func() (err error) {
			history, err = c.client.FeeHistory(gctx, s.cfg.FeeHistoryBlocks, nil, []float64{s.cfg.FeeHistoryPercentile})
			if err != nil {
				return fmt.Errorf("%s fee history: %w", c.Name, err)
			}
			return nil
		})
	}
	g.Go(func() error {
		if err := c.client.BatchCallContext(gctx, elems); err != nil {
			return fmt.Errorf("%s reads of the order: %w", c.Name, err)
		}
		for i, e := range elems {
			if _, isToken := tokenAt[i]; isToken && e.Error != nil && callerr.IsRevert(e.Error) {
				notToken = true
				continue
			}
			if e.Error != nil {
				return fmt.Errorf("%s %s: %w", c.Name, what[i], e.Error)
			}
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return false, err
	}
	r.mined = make([]uint64, len(o.legs))
	for i := range o.legs {
		r.native[i], r.nonce[i], r.mined[i] = balances[i].ToInt(), uint64(nonces[i]), uint64(mined[i])
	}
	for _, i := range tokenAt {
		if notToken {
			break
		}
		v, uerr := unpackOne[*big.Int](erc20ABI, "balanceOf", held[i])
		if uerr != nil {
			notToken = true
			break
		}
		r.held[i] = v
	}
	r.nodeTip, r.history = tip.ToInt(), history
	return notToken, nil
}
