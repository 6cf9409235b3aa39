package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// signLegs reads the keys and simulates the swaps, at once, then takes the
// nonces and signs every planned transaction. The nonces are taken only
// once the order is known to go out: a nonce taken by an order the
// simulation then refuses could not be given back once a later order of
// the same wallet had taken the next one, and that later order's
// transaction would wait in the node's pool behind the gap (until the
// reclaim, past its deadline). If signing fails, the nonces are given back.
func (s *Signer) signLegs(ctx context.Context, p *pool, o *order, legs []*leg) ([]wire.SignedTx, error) {
	var active []*leg
	for _, l := range legs {
		if l.skip == "" {
			active = append(active, l)
		}
	}
	keys := make([]*ecdsa.PrivateKey, len(active))
	g, gctx := guard.WithContext(ctx)
	for i, l := range active {
		g.Go(func() (err error) {
			keys[i], err = l.keyRead.wait(gctx, s, l)
			return err
		})
		g.Go(func() error {
			if l.early != nil && l.swapFirst() {
				return l.early.wait(gctx, l)
			}
			return s.simulate(gctx, p, o, l)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// A limit the chain raised may now be more than a wallet can pay.
	if err := s.checkFunds(p, o, active); err != nil {
		return nil, err
	}
	firsts := make([]uint64, len(active))
	taken := make([]bool, len(active))
	release := func() {
		// A fresh context: the order's may be what ended.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		for i, l := range active {
			if taken[i] {
				if _, err := s.nonces.ReleaseFor(rctx, p.ch.Name, l.wallet, firsts[i], l.txCount(), o.orderID); err != nil {
					s.log.Warn("give back nonces", "on", p.ch.Name, "wallet", l.wallet.Hex(), "err", err)
				}
			}
		}
	}
	if s.beforeTakes != nil {
		s.beforeTakes()
	}
	o.takesAt = s.now()
	tg := guard.New()
	for i, l := range active {
		// Not a context a sibling's failure cancels: a take whose write may
		// already be stored must end knowing its nonces, or they would be
		// neither used nor given back, a gap until the reclaim.
		tg.Go(func() error {
			// What the leg takes from its wallet is checked against what
			// the wallet's other transactions not yet mined take, of every
			// worker, and recorded, with its nonces.
			first, err := s.nonces.takeFrom(ctx, p.ch.Name, l.wallet, l.txCount(), l.pendingNonce, s.claimOf(p, o, l), l.record)
			if errors.Is(err, ErrApproving) {
				// Another worker's order of the wallet signed the same
				// approval since the reads: the swap relies on that one
				// (it was simulated behind the same call) and is signed
				// without its own.
				l.approve, l.reset, l.awaitsApproval = nil, nil, true
				first, err = s.nonces.TakeFor(ctx, p.ch.Name, l.wallet, l.txCount(), l.pendingNonce, s.claimOf(p, o, l))
			}
			if errors.Is(err, ErrSoldSince) {
				// What the sale takes was worked out from the wallet's
				// balance net of its sales in flight as the order read
				// them; another worker's sale of the wallet came since.
				return &soldSince{wallet: l.wallet, chain: p.ch.Name, err: err}
			}
			var short *ErrAllowanceSpent
			if errors.As(err, &short) {
				// The swap was planned without an approval on the
				// allowance less the wallet's spends in flight as read;
				// another worker's order of the wallet spent it since.
				// Worked out again, it approves (or awaits an approval).
				return &soldSince{wallet: l.wallet, chain: p.ch.Name, err: short, allowance: true}
			}
			var spent *ErrSpent
			if errors.As(err, &spent) {
				if sold, ok := p.spendsToken(o.side); ok && o.side == wire.Sell && spent.Token == sold {
					// A sale of a quantity capped at what the wallet held
					// net of its sales in flight, as read: the same.
					return &soldSince{wallet: l.wallet, chain: p.ch.Name, err: spent}
				}
				return insufficient(l.wallet, "wallet %s %s", l.wallet.Hex(), spent)
			}
			if err != nil {
				return fmt.Errorf("nonces of %s: %w", l.wallet.Hex(), err)
			}
			firsts[i], taken[i] = first, true
			s.gaps.note(p.ch.Name, l.wallet, s.now(), o.caps.priorityFee)
			return nil
		})
	}
	if err := tg.Wait(); err != nil {
		release()
		return nil, err
	}
	out := make([]wire.SignedTx, 0, 3*len(active))
	for i, l := range active {
		var signed []wire.SignedTx
		if err := guard.Run(func() (err error) { signed, err = s.signLeg(p, o, l, keys[i], firsts[i]); return err }); err != nil {
			// A panic (guard) too gives the nonces back: nothing signed
			// leaves the worker.
			release()
			return nil, err
		}
		out = append(out, signed...)
	}
	s.remember(p, o, legs)
	return out, nil
}

// soldSince is the refusal of a sale whose wallet another worker's sale,
// taken after this order read the wallet, left short of what this one
// worked out to sell: worked out again from a fresh read, the sale sells
// its share of what is left, as it would have had it come second. It is
// contention, not a lack of tokens: a sale outrun every time it is worked
// out is answered as one the chain's workers cannot take now (outrun).
// With allowance, it is the refusal of an order (a sale or a stable buy)
// whose swap relied on the router's allowance that another worker's order
// of the wallet spent since: worked out again, it carries an approval.
type soldSince struct {
	wallet    common.Address
	chain     string
	err       error
	allowance bool
}

func (e *soldSince) Error() string {
	return fmt.Sprintf("wallet %s on %s: %v", e.wallet.Hex(), e.chain, e.err)
}

func (e *soldSince) Unwrap() error { return e.err }

// outrun is the answer to a sale outrun by e each of tries times: 503
// CHAIN_UNAVAILABLE naming the chain, which is not charged and may be sent
// again, as when no worker of the chain takes orders; never 422
// INSUFFICIENT_BALANCE, charged, for tokens the wallet holds.
func (e *soldSince) outrun(tries int) *apierr.Error {
	if e.allowance {
		return apierr.Newf(apierr.ChainUnavailable, e.chain,
			"the order of wallet %s on %s was outrun %d times by the wallet's other orders, taken by other workers of the chain after each read of its allowance; nothing was signed or charged, try again",
			e.wallet.Hex(), e.chain, tries)
	}
	return apierr.Newf(apierr.ChainUnavailable, e.chain,
		"the sale of wallet %s on %s was outrun %d times by the wallet's other sales, taken by other workers of the chain after each read of its balance; nothing was signed or charged, try again",
		e.wallet.Hex(), e.chain, tries)
}

// keyRead is a wallet's key read in the background while its order is
// planned (readKeys), so that signLegs finds it read instead of reading it
// after the simulation; it is used, as before, only once the nonces are
// taken, and its error is the order's only where signLegs would have read
// the key.
type keyRead struct {
	wallet common.Address
	done   chan struct{}
	key    *ecdsa.PrivateKey
	err    error
}

// readKeys starts reading the key of every wallet of o.
func (s *Signer) readKeys(ctx context.Context, o *order) []*keyRead {
	out := make([]*keyRead, len(o.legs))
	for i, jl := range o.legs {
		k := &keyRead{wallet: jl.wallet, done: make(chan struct{})}
		out[i] = k
		l := &leg{index: i, wallet: jl.wallet}
		go func() {
			defer close(k.done)
			k.err = guard.Run(func() (err error) {
				k.key, err = s.key(ctx, l)
				return err
			})
		}()
	}
	return out
}

// wait returns the key k read for l, or reads it when none was started
// for l's wallet.
func (k *keyRead) wait(ctx context.Context, s *Signer, l *leg) (*ecdsa.PrivateKey, error) {
	if k == nil || k.wallet != l.wallet {
		return s.key(ctx, l)
	}
	select {
	case <-k.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return k.key, k.err
}

// key reads a wallet's key and checks that it is the wallet's.
func (s *Signer) key(ctx context.Context, l *leg) (*ecdsa.PrivateKey, error) {
	raw, err := s.keys.PrivateKey(ctx, wire.FamilyEVM, l.wallet.Hex())
	if err != nil {
		return nil, fmt.Errorf("key of %s: %w", l.wallet.Hex(), err)
	}
	k, err := crypto.ToECDSA(raw)
	clear(raw)
	if err != nil {
		return nil, fmt.Errorf("key of %s: %w", l.wallet.Hex(), err)
	}
	if crypto.PubkeyToAddress(k.PublicKey) != l.wallet {
		return nil, fmt.Errorf("key of %s: belongs to another address", l.wallet.Hex())
	}
	return k, nil
}

// signLeg signs a leg's transactions from nonce first on. A tipped leg's
// transactions each carry the whole bundle (see txbundle.Prefix), sent to the
// relay; the others go as they are, to the relay under anti_mev.
func (s *Signer) signLeg(p *pool, o *order, l *leg, key *ecdsa.PrivateKey, first uint64) ([]wire.SignedTx, error) {
	txs := l.txs()
	raws := make([][]byte, len(txs))
	out := make([]wire.SignedTx, len(txs))
	for k, u := range txs {
		tx, err := types.SignNewTx(key, p.ch.signer, &types.DynamicFeeTx{
			ChainID:   p.ch.ChainID,
			Nonce:     first + uint64(k),
			GasTipCap: o.fees.tipCap,
			GasFeeCap: o.fees.feeCap,
			Gas:       u.gas,
			To:        &u.to,
			Value:     u.value,
			Data:      u.data,
		})
		if err != nil {
			return nil, fmt.Errorf("sign for %s: %w", l.wallet.Hex(), err)
		}
		if raws[k], err = tx.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("encode for %s: %w", l.wallet.Hex(), err)
		}
		out[k] = wire.SignedTx{Wallet: l.wallet.Hex(), Private: o.antiMEV, Signature: tx.Hash().Hex(), Raw: raws[k]}
	}
	if !l.bundled() {
		return out, nil
	}
	bundle, err := txbundle.Encode(raws)
	if err != nil {
		return nil, err
	}
	for k := range out {
		out[k].Raw, out[k].Private = bundle, true
	}
	return out, nil
}

// remember notes the approvals just signed, so that the wallets' next
// orders rely on them instead of approving again while they are on their
// way.
func (s *Signer) remember(p *pool, o *order, legs []*leg) {
	until := s.now().Add(s.cfg.ApprovalMemory)
	p.ch.mu.Lock()
	defer p.ch.mu.Unlock()
	for _, l := range legs {
		if l.skip == "" && l.approve != nil {
			p.ch.approvals[approvalKey{token: l.approve.to, spender: p.router(), wallet: l.wallet}] = approvalMemo{order: o.orderID, until: until}
		}
	}
}

// early is the simulation of a leg's swap started before the wallets'
// reads were in (simulateEarly); gas is the swap's limit after it, which
// the simulation raises when the chain estimates the swap.
type early struct {
	done chan struct{}
	gas  uint64
	err  error
}

// simulateEarly starts the simulation of every leg's swap that is the
// leg's first transaction whatever the wallets' reads say: a buy with the
// native coin needs no approval, and one that pays no processor tip has
// nothing before its swap. Each runs on a copy of the swap, so that
// planning the wallets meanwhile shares nothing with it; signLegs waits for
// its verdict instead of simulating the swap again. Other orders' swaps are
// simulated in signLegs, once their approvals and tips are known.
func (s *Signer) simulateEarly(ctx context.Context, p *pool, o *order, legs []*leg) {
	if _, spends := p.spendsToken(o.side); spends || processorTip(p.ch, o).Sign() > 0 {
		return
	}
	for _, l := range legs {
		if l.skip != "" {
			continue
		}
		e := &early{done: make(chan struct{})}
		l.early = e
		swap := *l.swap
		alone := &leg{index: l.index, wallet: l.wallet, job: l.job, swap: &swap}
		go func() {
			defer close(e.done)
			e.err = guard.Run(func() error { return s.simulate(ctx, p, o, alone) })
			e.gas = swap.gas
		}()
	}
}

// wait waits for the simulation and gives the leg's swap the limit it
// ended with.
func (e *early) wait(ctx context.Context, l *leg) error {
	select {
	case <-e.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if e.err != nil {
		return e.err
	}
	l.swap.gas = e.gas
	return nil
}

// simulate runs a leg's first transaction the chain can run now (the
// approval, or the swap when nothing stands before it; a tip before a swap
// is a plain transfer and needs no run) with eth_call at its gas limit. A
// revert refuses the order: signed, it would fail on chain and cost its
// gas. The chain's estimate replaces the call for the first transaction of
// a kind on a chain, and for one that ran out of gas at its known limit;
// a limit due for a refresh is estimated again in the background.
//
// An approval over a partial allowance that reverts is made again behind
// a reset of the allowance to zero (resetTx), which is then the first
// transaction: a token such as Tether's USDT refuses to change one
// non-zero allowance to another. Where the approval runs, it goes alone:
// other tokens (BNB on eth) refuse an approval of zero instead.
func (s *Signer) simulate(ctx context.Context, p *pool, o *order, l *leg) error {
	err := s.simulateFirst(ctx, p, o, l)
	if err != nil && l.approve != nil && l.reset == nil && l.rawAllowed != nil && l.rawAllowed.Sign() > 0 && reverted(err) {
		l.reset = resetTx(l.approve.to, p.router())
		l.reset.gas = s.gasFor(p.ch, l.reset, 0)
		err = s.simulateFirst(ctx, p, o, l)
	}
	if err != nil {
		return err
	}
	if l.approve != nil || l.awaitsApproval {
		return s.simulateBehindApproval(ctx, p, o, l)
	}
	return nil
}

// simulateFirst is simulate's run of the first transaction.
func (s *Signer) simulateFirst(ctx context.Context, p *pool, o *order, l *leg) error {
	u := l.swap
	switch {
	case l.reset != nil:
		u = l.reset
	case l.approve != nil:
		u = l.approve
	case l.awaitsApproval:
		return nil // the swap cannot run before the earlier approval is mined
	}
	msg := ethereum.CallMsg{From: l.wallet, To: &u.to, Value: u.value, Data: u.data}
	if l.tip != nil && u == l.swap {
		if err := s.ensureLimit(ctx, p, l.tip, ethereum.CallMsg{From: l.wallet, To: &l.tip.to, Value: l.tip.value}); err != nil {
			return s.simulationError(o, l, err)
		}
	}
	if _, first, _ := p.ch.gas.limit(u.kind, s.now(), s.cfg.GasRefresh); first {
		return s.estimateNow(ctx, p, o, l, u, msg)
	}
	call := msg
	call.Gas = u.gas
	_, err := p.ch.client.CallContract(ctx, call, nil)
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "out of gas") {
		return s.estimateNow(ctx, p, o, l, u, msg)
	}
	if err != nil {
		return s.simulationError(o, l, err)
	}
	s.refreshLater(p.ch, u.kind, msg)
	return nil
}

// Simulator is eth_simulateV1, which a ChainClient may offer; Client
// does.
type Simulator interface {
	SimulateV1(ctx context.Context, opts ethclient.SimulateOptions, block *rpc.BlockNumberOrHash) ([]ethclient.SimulateBlockResult, error)
}

// simulateBehindApproval runs a swap that needs an approval first: the
// approval (this order's, behind its reset when it has one, or the same
// call again for one an earlier order signed that is not mined yet), then
// the swap, in sequence on the latest block with eth_simulateV1, which a
// plain eth_call cannot do since the swap spends the allowance the
// approval gives. A swap that reverts there refuses the order before its
// approval is paid for; its gas use raises the swap's limit when it needs
// more than the known one. An earlier order's approval over a partial
// allowance that reverts is run again behind a reset, as that order
// signed it. A node without eth_simulateV1 leaves such a swap
// unsimulated, as it was before, and is not asked again.
func (s *Signer) simulateBehindApproval(ctx context.Context, p *pool, o *order, l *leg) error {
	sim, ok := p.ch.client.(Simulator)
	if !ok || p.ch.noSimulateV1.Load() {
		return nil
	}
	approve, reset := l.approve, l.reset
	if approve == nil {
		token, _ := p.spendsToken(o.side)
		approve = approveTx(token, p.router())
	}
	latest := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
	for {
		var runs []*unsigned
		whats := []string{}
		if reset != nil {
			runs, whats = append(runs, reset), append(whats, "reset of the router's allowance to zero")
		}
		runs, whats = append(runs, approve, l.swap), append(whats, "approval of the router", "swap, after its approval of the router,")
		calls := make([]ethereum.CallMsg, len(runs))
		for i, u := range runs {
			calls[i] = ethereum.CallMsg{From: l.wallet, To: &u.to, Value: u.value, Data: u.data}
		}
		res, err := sim.SimulateV1(ctx, ethclient.SimulateOptions{BlockStateCalls: []ethclient.SimulateBlock{{Calls: calls}}}, &latest)
		if err != nil {
			if endpoint.Unsupported(err) {
				p.ch.noSimulateV1.Store(true)
				s.log.Warn("the node does not serve eth_simulateV1: swaps behind an approval are sent unsimulated on this chain", "on", p.ch.Name, "err", err)
				return nil
			}
			return fmt.Errorf("simulate the approval and swap of %s: %w", l.wallet.Hex(), err)
		}
		if len(res) != 1 || len(res[0].Calls) != len(runs) {
			return fmt.Errorf("simulate the approval and swap of %s: the node answered %d blocks", l.wallet.Hex(), len(res))
		}
		failed := slices.IndexFunc(res[0].Calls, func(c ethclient.SimulateCallResult) bool { return c.Status != types.ReceiptStatusSuccessful })
		if failed >= 0 && runs[failed] == approve && reset == nil && l.approve == nil && l.rawAllowed != nil && l.rawAllowed.Sign() > 0 {
			reset = resetTx(approve.to, p.router())
			continue
		}
		if failed >= 0 {
			c := res[0].Calls[failed]
			reason := "reverted"
			if c.Error != nil && c.Error.Message != "" {
				reason = c.Error.Message
			}
			return apierr.New(apierr.BroadcastFailed, fmt.Sprintf("the chain's simulation of wallet %s's %s reverted: %s%s", l.wallet.Hex(), whats[failed], reason, taxHint(o, reason))).
				WithOrder(o.orderID)
		}
		swap := res[0].Calls[len(runs)-1]
		if used := max(swap.GasUsed, swap.MaxUsedGas); used > l.swap.gas {
			l.swap.gas = max(l.swap.gas, p.ch.gas.record(l.swap.kind, used, s.cfg.GasMarginBps, s.now()))
		}
		return nil
	}
}

// reverted reports whether err is simulationError's answer to a revert.
func reverted(err error) bool {
	var ae *apierr.Error
	return errors.As(err, &ae) && ae.Code == apierr.BroadcastFailed
}

// ensureLimit estimates a tip's transfer the first time a chain pays one:
// a tip address that is a contract may need more than a plain transfer.
func (s *Signer) ensureLimit(ctx context.Context, p *pool, u *unsigned, msg ethereum.CallMsg) error {
	if _, first, _ := p.ch.gas.limit(u.kind, s.now(), s.cfg.GasRefresh); !first {
		return nil
	}
	limit, err := s.measure(ctx, p.ch, u.kind, msg)
	if err != nil {
		return err
	}
	u.gas = limit
	return nil
}

// estimateNow has the chain estimate u, which also simulates it, and sets
// its limit from the estimate.
func (s *Signer) estimateNow(ctx context.Context, p *pool, o *order, l *leg, u *unsigned, msg ethereum.CallMsg) error {
	limit, err := s.measure(ctx, p.ch, u.kind, msg)
	if err != nil {
		return s.simulationError(o, l, err)
	}
	quoteGas := uint64(0)
	if u == l.swap {
		quoteGas = p.quoteGas
	}
	u.gas = max(limit, s.gasFor(p.ch, u, quoteGas))
	return nil
}

// simulationError turns the chain's refusal of a simulated transaction
// into the order's answer: a wallet that cannot pay is
// INSUFFICIENT_BALANCE, a revert BROADCAST_FAILED with the node's reason.
func (s *Signer) simulationError(o *order, l *leg, err error) error {
	var rerr rpc.Error
	if !errors.As(err, &rerr) && !callerr.IsRevert(err) {
		return fmt.Errorf("simulate the swap of %s: %w", l.wallet.Hex(), err)
	}
	msg := err.Error()
	if strings.Contains(strings.ToLower(msg), "insufficient funds") {
		return insufficient(l.wallet, "wallet %s cannot pay the swap: %s", l.wallet.Hex(), msg)
	}
	if !callerr.IsRevert(err) {
		return fmt.Errorf("simulate the swap of %s: %w", l.wallet.Hex(), err)
	}
	return apierr.New(apierr.BroadcastFailed, fmt.Sprintf("the chain's simulation of the swap of wallet %s reverted: %s%s", l.wallet.Hex(), msg, taxHint(o, msg))).
		WithOrder(o.orderID)
}

// taxHint is what a simulated swap's revert adds when the pool paid less
// than the quote less the slippage: the price moved past the slippage
// between the quote and the simulation (a trade of another order, of this
// wallet or anyone's), or, when the order did not probe the tax, the token
// taxes its transfers.
func taxHint(o *order, msg string) string {
	switch {
	case !outputShort(msg):
		return ""
	case o.tax == nil:
		return "; the pool paid less than its quote less the slippage: its price moved past the slippage since the quote " +
			"(another trade landed first), or the token taxes its transfers by more than the slippage: max_tax has its tax probed and counted in the minimum out"
	}
	return "; the pool paid less than its quote less the slippage and the probed tax: its price moved past the slippage since the quote (another trade landed first)"
}

// outputShort reports whether a revert is a router's refusal of an output
// below the swap's minimum (Router02's INSUFFICIENT_OUTPUT_AMOUNT,
// SwapRouter02's "Too little received").
func outputShort(msg string) bool {
	return strings.Contains(msg, "INSUFFICIENT_OUTPUT_AMOUNT") || strings.Contains(msg, "Too little received")
}
