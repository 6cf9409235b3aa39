package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// spends keeps what the transactions this signer signed take from their
// wallets until they are mined: the ERC-20 a swap spends (a sell's tokens,
// a stable buy's stable) and the native coin every order spends (what it
// sends, and the most its gas can cost, which is what a node holds a
// transaction to). A balance read at the latest block does not show a
// transaction still in the node's pool: two sales of 100 % of one wallet a
// moment apart would both sell the whole balance, and the second would
// revert on chain, its gas spent; two buys that together spend more than
// the wallet holds would have the second refused by the node after its
// nonce was taken, leaving the wallet's next orders behind a gap. An order
// therefore counts its wallets' transactions that are signed but not mined
// (their nonce at or past the wallet's mined transaction count), and the
// orders of one wallet run one after the other from their reads to their
// signatures, so that each sees the ones before.
//
// It holds within one worker process, which is where one chain's orders
// run unless the operator starts several workers of a chain.
type spends struct {
	mu sync.Mutex
	// locks are the turns of the orders of one wallet and spent token.
	locks map[string]*spendTurn
	// pending are the signed swaps by chain, wallet and token.
	pending map[spendKey][]pendingSpend
	// orders are the keys each order's swaps are noted under.
	orders map[string][]spendKey
	// wallets counts each chain and wallet's pending swaps, for reads that
	// need the wallet's mined count only when it has some.
	wallets map[walletKey]int
}

type spendTurn struct {
	ch      chan struct{}
	holders int // the order holding the turn and those waiting for it
}

type walletKey struct {
	chain  string
	wallet common.Address
}

type spendKey struct {
	walletKey
	token common.Address
}

// pendingSpend is a signed swap: its order, its nonce and what it takes,
// until when it can land at all (its deadline, and a margin for a block's
// clock).
type pendingSpend struct {
	order  string
	nonce  uint64
	amount *big.Int
	until  time.Time
}

// spendMargin is how long past its deadline a swap counts still: a block's
// timestamp may run behind the clock.
const spendMargin = 30 * time.Second

func newSpends() *spends {
	return &spends{locks: map[string]*spendTurn{}, pending: map[spendKey][]pendingSpend{}, orders: map[string][]spendKey{},
		wallets: map[walletKey]int{}}
}

// turnKeys are the turns an order takes: one per wallet, whatever the
// chain (every order spends its wallets' native coin).
func turnKeys(o *order) []string {
	keys := make([]string, 0, len(o.legs))
	for _, l := range o.legs {
		keys = append(keys, strings.ToLower(l.wallet.Hex()))
	}
	// In one order, so that two orders of several wallets never wait on
	// each other's turns crosswise.
	slices.Sort(keys)
	return slices.Compact(keys)
}

// take waits for the turns of keys, in order, until ctx ends; the returned
// func gives them back.
func (sp *spends) take(ctx context.Context, keys []string) (func(), error) {
	var held []string
	release := func() {
		sp.mu.Lock()
		defer sp.mu.Unlock()
		for _, k := range held {
			t := sp.locks[k]
			<-t.ch
			if t.holders--; t.holders == 0 {
				delete(sp.locks, k)
			}
		}
	}
	for _, k := range keys {
		sp.mu.Lock()
		t := sp.locks[k]
		if t == nil {
			t = &spendTurn{ch: make(chan struct{}, 1)}
			sp.locks[k] = t
		}
		t.holders++
		sp.mu.Unlock()
		select {
		case t.ch <- struct{}{}:
			held = append(held, k)
		case <-ctx.Done():
			sp.mu.Lock()
			if t.holders--; t.holders == 0 {
				delete(sp.locks, k)
			}
			sp.mu.Unlock()
			release()
			return nil, fmt.Errorf("wait for the wallet's earlier order: %w", ctx.Err())
		}
	}
	return release, nil
}

// tracks reports whether wallet has swaps on chain signed here and not yet
// seen mined.
func (sp *spends) tracks(chain string, wallet common.Address) bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.wallets[walletKey{chain, wallet}] > 0
}

// add notes a signed swap of order, of wallet on chain, taking amount of
// token at nonce, which can land until until.
func (sp *spends) add(order, chain string, wallet, token common.Address, nonce uint64, amount *big.Int, until time.Time) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.orders) >= maxSpendOrders {
		// Swaps whose wallets trade no more are only ever dropped here.
		for k, list := range sp.pending {
			sp.keep(k, list, func(p pendingSpend) bool { return time.Now().Before(p.until) })
		}
		for o, keys := range sp.orders {
			if !slices.ContainsFunc(keys, func(k spendKey) bool { return len(sp.pending[k]) > 0 }) {
				delete(sp.orders, o)
			}
		}
	}
	k := spendKey{walletKey{chain, wallet}, token}
	sp.pending[k] = append(sp.pending[k], pendingSpend{order: order, nonce: nonce, amount: new(big.Int).Set(amount), until: until})
	sp.orders[order] = append(sp.orders[order], k)
	sp.wallets[k.walletKey]++
}

// maxSpendOrders is how many orders' swaps are noted before the ones past
// their deadline are swept.
const maxSpendOrders = 10_000

// forget drops what order's swaps were noted to take: a job signed again
// (its first batch was never published, so never sent) takes its place.
func (sp *spends) forget(order string) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, k := range sp.orders[order] {
		sp.keep(k, sp.pending[k], func(p pendingSpend) bool { return p.order != order })
	}
	delete(sp.orders, order)
}

// keep keeps the entries of k in list that ok says to; the caller holds mu.
func (sp *spends) keep(k spendKey, list []pendingSpend, ok func(pendingSpend) bool) {
	kept := list[:0]
	for _, p := range list {
		if ok(p) {
			kept = append(kept, p)
		} else {
			sp.wallets[k.walletKey]--
		}
	}
	if len(kept) == 0 {
		delete(sp.pending, k)
	} else {
		sp.pending[k] = kept
	}
	if sp.wallets[k.walletKey] <= 0 {
		delete(sp.wallets, k.walletKey)
	}
}

// outstanding is what wallet's swaps of token on chain that are not mined
// yet and can still land take, mined being the wallet's mined transaction
// count; the others are forgotten.
func (sp *spends) outstanding(chain string, wallet, token common.Address, mined uint64, now time.Time) *big.Int {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	k := spendKey{walletKey{chain, wallet}, token}
	sp.keep(k, sp.pending[k], func(p pendingSpend) bool { return p.nonce >= mined && now.Before(p.until) })
	sum := new(big.Int)
	for _, p := range sp.pending[k] {
		sum.Add(sum, p.amount)
	}
	return sum
}

// unspent lowers each leg's balance of token on c (held, one per leg) by
// what its wallet's signed swaps of it not yet mined take, and returns the
// result, a copy; mined are the wallets' mined transaction counts when r
// read them.
func (s *Signer) unspent(ctx context.Context, c *chainState, o *order, token common.Address, held []*big.Int, r *reads) ([]*big.Int, error) {
	out := slices.Clone(held)
	for i, l := range o.legs {
		if !s.spends.tracks(c.Name, l.wallet) {
			continue
		}
		mined, ok := r.minedOf(i)
		if !ok {
			var n hexutil.Uint64
			b := []rpc.BatchElem{{Method: "eth_getTransactionCount", Args: []any{l.wallet, "latest"}, Result: &n}}
			if err := c.client.BatchCallContext(ctx, b); err != nil || b[0].Error != nil {
				return nil, fmt.Errorf("%s mined count of %s: %w", c.Name, l.wallet.Hex(), errors.Join(err, b[0].Error))
			}
			mined = uint64(n)
		}
		left := new(big.Int).Sub(out[i], s.spends.outstanding(c.Name, l.wallet, token, mined, s.now()))
		if left.Sign() < 0 {
			left.SetInt64(0)
		}
		out[i] = left
	}
	return out, nil
}

// nativeCoin stands for the native coin among the tokens of the ledger.
var nativeCoin = common.Address{}

// noteSpends notes what the legs just signed take from their wallets: the
// ERC-20 their swaps spend, and the native coin their transactions send
// and the most their gas can cost.
func (s *Signer) noteSpends(p *pool, o *order, legs []*leg) {
	token, spends := p.spendsToken(o.side)
	until := s.now().Add(s.cfg.DeadlineAfter + spendMargin)
	for _, l := range legs {
		if l.skip {
			continue
		}
		s.spends.add(o.orderID, p.ch.Name, l.wallet, nativeCoin, l.swapNonce, l.nativeCost(o), until)
		if spends {
			s.spends.add(o.orderID, p.ch.Name, l.wallet, token, l.swapNonce, l.spend, until)
		}
	}
}
