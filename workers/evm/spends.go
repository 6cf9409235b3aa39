package evm

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// spends are the turns of a signer's orders: the orders of one wallet on
// one chain run one after the other from their reads to their signatures,
// so that each sees what the ones before take from the wallet.
//
// What a wallet's transactions signed and not yet mined take from it (the
// ERC-20 a swap spends, a sell's tokens or a stable buy's stable, and the
// native coin every order sends and may pay for gas, which is what a node
// holds a transaction to) is recorded with the wallet's nonces, for every
// worker of the chain (see Claim and Nonces.TakeFor). A balance read at
// the latest block does not show a transaction still in the node's pool:
// two sales of 100 % of one wallet a moment apart would both sell the
// whole balance, and the second would revert on chain, its gas spent; two
// buys that together spend more than the wallet holds would have the
// second refused by the node after its nonce was taken, leaving the
// wallet's next orders behind a gap. An order therefore plans on what the
// wallet holds less what its transactions not yet mined (their nonce at
// or past the wallet's mined transaction count) take, and its claim is
// checked again when its nonces are taken. The turns only spare the
// orders of one process a refusal at that check.
type spends struct {
	mu    sync.Mutex
	locks map[string]*spendTurn
}

type spendTurn struct {
	ch      chan struct{}
	holders int // the order holding the turn and those waiting for it
}

func newSpends() *spends {
	return &spends{locks: map[string]*spendTurn{}}
}

// spendMargin is how long past its deadline a swap counts still: a block's
// timestamp may run behind the clock.
const spendMargin = 30 * time.Second

// turnKeys are the turns an order takes: one per wallet on each chain it
// may trade on (cands, every one when chain was omitted). Balances and
// nonces are a chain's own, so a wallet's order on one chain never waits
// for its order on another, whose node may hang for the whole RPC timeout.
func turnKeys(o *order, cands []*chainState) []string {
	keys := make([]string, 0, len(o.legs)*len(cands))
	for _, c := range cands {
		for _, l := range o.legs {
			keys = append(keys, c.Name+"/"+strings.ToLower(l.wallet.Hex()))
		}
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

// nativeCoin stands for the native coin among a wallet's tokens.
var nativeCoin = common.Address{}

// unspent lowers each leg's balance of token on c (held, one per leg) by
// what its wallet's transactions not yet mined take of it, and returns the
// result, a copy. The wallets' records and mined counts come from r when
// it read them, else are read now.
func (s *Signer) unspent(ctx context.Context, c *chainState, o *order, token common.Address, held []*big.Int, r *reads) ([]*big.Int, error) {
	out := slices.Clone(held)
	now := s.now()
	for i, l := range o.legs {
		pending, mined, ok := r.spendsOf(i)
		if !ok {
			var err error
			if pending, mined, err = s.readSpends(ctx, c, l.wallet); err != nil {
				return nil, err
			}
		}
		pending = s.nonces.live(ctx, c.Name, l.wallet, pending, mined, now, o.orderID)
		left := new(big.Int).Sub(out[i], Outstanding(pending, token, mined, now, o.orderID))
		if left.Sign() < 0 {
			left.SetInt64(0)
		}
		out[i] = left
	}
	return out, nil
}

// readSpends reads wallet's recorded spends on c and its mined
// transaction count, the count after the record: a spend recorded since
// can only be counted as not mined.
func (s *Signer) readSpends(ctx context.Context, c *chainState, wallet common.Address) ([]RecordSpend, uint64, error) {
	pending, err := s.nonces.Pending(ctx, c.Name, wallet)
	if err != nil || len(pending) == 0 {
		return nil, 0, err
	}
	mined, err := txCounts(ctx, c, "latest", []common.Address{wallet})
	if err != nil {
		return nil, 0, err
	}
	return pending, mined[0], nil
}

// claimOf is what leg l of o takes from its wallet, for its nonces' take.
func (s *Signer) claimOf(p *pool, o *order, l *leg) *Claim {
	c := &Claim{Order: o.orderID, Mined: l.mined, Until: s.now().Add(s.cfg.DeadlineAfter + spendMargin), MaxTip: o.caps.priorityFee,
		Held:  map[common.Address]*big.Int{nativeCoin: l.rawNative},
		Spend: map[common.Address]*big.Int{nativeCoin: new(big.Int).Add(l.nativeCost(o), l.tokenAsNative(p, o))}}
	if token, ok := p.spendsToken(o.side); ok {
		c.Held[token], c.Spend[token] = l.rawHeld, l.spend
		if o.side == wire.Sell && !o.sellTokens {
			c.Share = &token
		}
	}
	if l.approve != nil {
		c.Approves = &Approval{Token: l.approve.to, Spender: p.router()}
	}
	if token, ok := p.spendsToken(o.side); ok && l.approve == nil && !l.awaitsApproval && l.rawAllowed != nil {
		// The swap spends the allowance as read: the wallet's swaps taken
		// since must leave it enough.
		c.Allowance = &Allowance{Token: token, Spender: p.router(), Amount: l.rawAllowed}
	}
	return c
}

// approvingElsewhere reports whether leg i's wallet has an approval of
// token for spender on its way in an order of another worker, by the
// record r read, that order not ended and that approval not refused.
func (s *Signer) approvingElsewhere(ctx context.Context, c *chainState, r *reads, i int, wallet, token, spender common.Address, now time.Time, order string) bool {
	pending, mined, ok := r.spendsOf(i)
	return ok && Approving(s.nonces.live(ctx, c.Name, wallet, pending, mined, now, order), Approval{Token: token, Spender: spender}, mined, now, order)
}
