package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// fees are an order's EIP-1559 fee parameters and builder tip, in wei.
type fees struct {
	tipCap    *big.Int // max priority fee per gas
	feeCap    *big.Int // max fee per gas: twice the base fee plus the tip
	builder   *big.Int // processor tip, paid to block.coinbase by the router
	timestamp uint64   // of the latest block, for the swap deadline
}

// unsigned is one transaction to sign.
type unsigned struct {
	to    common.Address
	value *big.Int
	data  []byte
	gas   uint64
}

// leg is one wallet's part of an order, filled in as the job goes through
// Sign.
type leg struct {
	index  int
	wallet common.Address
	job    jobLeg

	// Read from the chain.
	native       *big.Int // native balance
	held         *big.Int // balance of the token the leg spends (sell: the token; stable buy: the stable)
	allowed      *big.Int // the router's allowance of that token
	pendingNonce uint64

	// Planned.
	skip    bool
	spend   *big.Int // quote (buy) or tokens (sell) the swap spends
	approve *unsigned
	// awaitsApproval: the router's allowance comes from an approval of an
	// earlier order, signed here but not yet mined.
	awaitsApproval bool
	swap           *unsigned
}

func (l *leg) txCount() uint64 { return uint64(len(l.txs())) }

// txs are the leg's transactions in nonce order.
func (l *leg) txs() []*unsigned {
	if l.approve != nil {
		return []*unsigned{l.approve, l.swap}
	}
	return []*unsigned{l.swap}
}

// spendsToken is the ERC-20 a leg's swap pulls from the wallet, if any.
func (p *pool) spendsToken(side wire.Side) (common.Address, bool) {
	switch {
	case side == wire.Sell:
		return p.token, true
	case !p.native:
		return p.quote, true
	default:
		return common.Address{}, false
	}
}

// plan reads every wallet and the fees, quotes every leg and checks that
// every wallet can pay; nothing is signed yet. Legs are quoted in order on
// the pool as the earlier legs of the order leave it, so that an order's
// own price impact does not trip its later legs' slippage bounds when the
// transactions land in order.
func (s *Signer) plan(ctx context.Context, p *pool, o *order) ([]*leg, error) {
	legs := make([]*leg, len(o.legs))
	for i, jl := range o.legs {
		legs[i] = &leg{index: i, wallet: jl.wallet, job: jl}
	}
	if err := s.read(ctx, p, o, legs); err != nil {
		return nil, err
	}
	rToken := new(big.Int).Set(p.reserveToken)
	rQuote := new(big.Int).Set(p.reserveQuote)
	var buyTax, sellTax uint64
	if o.tax != nil {
		buyTax, sellTax = o.tax.buyBps, o.tax.sellBps
	}
	deadline := new(big.Int).SetUint64(o.fees.timestamp + uint64(s.cfg.DeadlineAfter.Seconds()))
	spent, spends := p.spendsToken(o.side)
	active := 0
	for _, l := range legs {
		var out *big.Int
		switch o.side {
		case wire.Buy:
			amount, err := money.ParseUnits(l.job.amount, int(p.quoteDecimals))
			if err != nil {
				return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].amount", l.index),
					"buy amount %q is not a positive amount of %s with at most %d decimals", l.job.amount, p.symbol, p.quoteDecimals)
			}
			l.spend = amount
			out = amountOut(amount, rQuote, rToken)
			if out.Sign() == 0 {
				return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].amount", l.index), "%s %s buys no tokens", l.job.amount, p.symbol)
			}
			rQuote.Add(rQuote, amount)
			rToken.Sub(rToken, out)
			out = minusBps(out, buyTax) // the token's tax on the way out of the pair
		case wire.Sell:
			l.spend = percentOf(l.held, l.job.percent)
			if l.spend.Sign() == 0 {
				l.skip = true
				continue
			}
			in := minusBps(l.spend, sellTax) // the tax on the way into the pair
			out = amountOut(in, rToken, rQuote)
			rToken.Add(rToken, in)
			rQuote.Sub(rQuote, out)
		}
		minOut := minusBps(out, o.slippageBps)
		path := pathOf(p.quote, p.token)
		if o.side == wire.Sell {
			path = pathOf(p.token, p.quote)
		}
		switch {
		case o.side == wire.Buy && p.native:
			l.swap = &unsigned{to: p.ch.Router, value: new(big.Int).Add(l.spend, o.fees.builder),
				data: pack(routerABI, "swapExactETHForTokensSupportingFeeOnTransferTokensTipped", minOut, path, l.wallet, deadline, o.fees.builder)}
		case o.side == wire.Sell && p.native:
			l.swap = &unsigned{to: p.ch.Router, value: o.fees.builder,
				data: pack(routerABI, "swapExactTokensForETHSupportingFeeOnTransferTokensTipped", l.spend, minOut, path, l.wallet, deadline)}
		default:
			l.swap = &unsigned{to: p.ch.Router, value: o.fees.builder,
				data: pack(routerABI, "swapExactTokensForTokensSupportingFeeOnTransferTokensTipped", l.spend, minOut, path, l.wallet, deadline)}
		}
		if spends {
			if o.side == wire.Buy && l.held.Cmp(l.spend) < 0 {
				return nil, insufficient(l.wallet, "wallet %s holds %s %s and the buy spends %s", l.wallet.Hex(),
					money.Format(l.held, int(p.quoteDecimals)), p.symbol, l.job.amount)
			}
			if l.allowed.Cmp(l.spend) < 0 {
				if s.approvalInFlight(p.ch, spent, l.wallet) {
					l.awaitsApproval = true
				} else {
					l.approve = &unsigned{to: spent, value: new(big.Int), data: pack(erc20ABI, "approve", p.ch.Router, maxUint256)}
				}
			}
		}
		if l.native.Cmp(l.swap.value) < 0 {
			return nil, insufficient(l.wallet, "wallet %s holds %s and the swap sends %s", l.wallet.Hex(),
				p.ch.nativeAmount(l.native), p.ch.nativeAmount(l.swap.value))
		}
		active++
	}
	if active == 0 {
		// Every wallet of a sell holds none of the token.
		return nil, insufficient(legs[0].wallet, "no wallet of the order holds %s on %s", p.token.Hex(), p.ch.Name)
	}
	if err := s.estimate(ctx, p, o, legs); err != nil {
		return nil, err
	}
	for _, l := range legs {
		if l.skip {
			continue
		}
		need := new(big.Int).Set(l.swap.value)
		for _, u := range l.txs() {
			need.Add(need, new(big.Int).Mul(new(big.Int).SetUint64(u.gas), o.fees.feeCap))
		}
		if l.native.Cmp(need) < 0 {
			return nil, insufficient(l.wallet, "wallet %s holds %s and needs %s: %s sent and at most %s of gas", l.wallet.Hex(),
				p.ch.nativeAmount(l.native), p.ch.nativeAmount(need), p.ch.nativeAmount(l.swap.value),
				p.ch.nativeAmount(new(big.Int).Sub(need, l.swap.value)))
		}
	}
	return legs, nil
}

// approvalInFlight reports whether this process signed an approval of token
// for wallet recently enough that it is presumed on its way.
func (s *Signer) approvalInFlight(c *chainState, token, wallet common.Address) bool {
	now := s.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, until := range c.approvals {
		if now.After(until) {
			delete(c.approvals, k)
		}
	}
	_, ok := c.approvals[approvalKey{token: token, wallet: wallet}]
	return ok
}

// read fetches, all at once, the fees and what the order needs of each
// wallet: native balance, pending nonce, and the balance and router
// allowance of the token its swap spends.
func (s *Signer) read(ctx context.Context, p *pool, o *order, legs []*leg) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		f, err := s.fees(gctx, p.ch, o)
		o.fees = f
		return err
	})
	spent, spends := p.spendsToken(o.side)
	for _, l := range legs {
		g.Go(func() (err error) {
			l.native, err = p.ch.client.BalanceAt(gctx, l.wallet, nil)
			if err != nil {
				return fmt.Errorf("%s balance of %s: %w", p.ch.Name, l.wallet.Hex(), err)
			}
			return nil
		})
		g.Go(func() (err error) {
			l.pendingNonce, err = p.ch.client.PendingNonceAt(gctx, l.wallet)
			if err != nil {
				return fmt.Errorf("%s nonce of %s: %w", p.ch.Name, l.wallet.Hex(), err)
			}
			return nil
		})
		if spends {
			g.Go(func() (err error) {
				l.held, err = s.tokenBalance(gctx, p.ch, spent, l.wallet)
				return err
			})
			g.Go(func() (err error) {
				l.allowed, err = s.allowance(gctx, p.ch, spent, l.wallet)
				return err
			})
		}
	}
	return g.Wait()
}

// fees returns the order's fee parameters: the tip cap is the job's
// priority fee, or eth_maxPriorityFeePerGas when it gives none, or under
// auto_tip a percentile of recent blocks' priority fees; when the server
// chooses it is at least the chain's floor and then at most the account's
// cap, the cap winning, so nothing the server picks costs more than the
// account agreed to. The fee cap is twice the latest base fee plus the tip,
// which outlasts six full blocks of base-fee rise.
func (s *Signer) fees(ctx context.Context, c *chainState, o *order) (fees, error) {
	var f fees
	floor := c.MinTipCap
	if floor == nil {
		floor = big.NewInt(1_000_000_000)
	}
	g, gctx := errgroup.WithContext(ctx)
	var baseFee *big.Int
	g.Go(func() error {
		h, err := c.client.HeaderByNumber(gctx, nil)
		if err != nil {
			return fmt.Errorf("%s latest header: %w", c.Name, err)
		}
		baseFee, f.timestamp = h.BaseFee, h.Time
		if baseFee == nil {
			baseFee = new(big.Int)
		}
		return nil
	})
	switch {
	case o.autoTip:
		f.builder = new(big.Int)
		if c.AutoProcessorTip != nil {
			f.builder.Set(c.AutoProcessorTip)
		}
		f.builder = bigMin(f.builder, o.caps.tip)
		g.Go(func() error {
			h, err := c.client.FeeHistory(gctx, s.cfg.FeeHistoryBlocks, nil, []float64{s.cfg.FeeHistoryPercentile})
			if err != nil {
				return fmt.Errorf("%s fee history: %w", c.Name, err)
			}
			f.tipCap = bigMin(bigMax(meanReward(h), floor), o.caps.priorityFee)
			return nil
		})
	case o.priorityFee.Sign() > 0:
		f.builder, f.tipCap = o.processorTip, o.priorityFee
	default:
		f.builder = o.processorTip
		g.Go(func() error {
			tip, err := c.client.SuggestGasTipCap(gctx)
			if err != nil {
				return fmt.Errorf("%s priority fee: %w", c.Name, err)
			}
			f.tipCap = bigMin(bigMax(tip, floor), o.caps.priorityFee)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return fees{}, err
	}
	f.feeCap = new(big.Int).Add(new(big.Int).Mul(baseFee, big.NewInt(2)), f.tipCap)
	return f, nil
}

// meanReward is the mean of the first percentile's priority fees over the
// blocks of a fee history.
func meanReward(h *ethereum.FeeHistory) *big.Int {
	sum, n := new(big.Int), int64(0)
	for _, r := range h.Reward {
		if len(r) > 0 && r[0] != nil {
			sum.Add(sum, r[0])
			n++
		}
	}
	if n == 0 {
		return sum
	}
	return sum.Quo(sum, big.NewInt(n))
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// estimate sets every transaction's gas limit: the node's estimate plus
// Config.GasMarginBps, and for a swap behind an approval not yet mined (of
// the same order, or of an earlier one) the fixed
// Config.SwapGasAfterApproval, as it cannot be estimated before the
// approval is mined. A swap whose simulation reverts refuses the
// order: signed, it would fail on chain and cost its gas.
func (s *Signer) estimate(ctx context.Context, p *pool, o *order, legs []*leg) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, l := range legs {
		if l.skip {
			continue
		}
		if l.approve != nil || l.awaitsApproval {
			l.swap.gas = s.cfg.SwapGasAfterApproval
		}
		if l.awaitsApproval {
			continue // nothing to estimate before the approval is mined
		}
		g.Go(func() error {
			first := l.swap
			if l.approve != nil {
				first = l.approve
			}
			gas, err := p.ch.client.EstimateGas(gctx, ethereum.CallMsg{From: l.wallet, To: &first.to, Value: first.value, Data: first.data})
			if err != nil {
				return s.estimateError(o, l, err)
			}
			// The estimate runs on the latest block; the transaction lands
			// in a later one, where the official pair's price accumulators
			// (and a V3 pool's oracle) take a first write of the block:
			// about 44k gas the estimate did not see.
			first.gas = plusBps(gas, s.cfg.GasMarginBps) + blockFirstWriteGas
			return nil
		})
	}
	return g.Wait()
}

// blockFirstWriteGas covers the storage writes an official Uniswap pair or
// pool makes on the first swap of a block, which an estimate on the latest
// block does not see.
const blockFirstWriteGas = 60_000

func (s *Signer) estimateError(o *order, l *leg, err error) error {
	var rerr rpc.Error
	if !errors.As(err, &rerr) && !isRevert(err) {
		return fmt.Errorf("estimate gas for %s: %w", l.wallet.Hex(), err)
	}
	msg := err.Error()
	if strings.Contains(strings.ToLower(msg), "insufficient funds") {
		return insufficient(l.wallet, "wallet %s cannot pay the swap: %s", l.wallet.Hex(), msg)
	}
	if !isRevert(err) {
		return fmt.Errorf("estimate gas for %s: %w", l.wallet.Hex(), err)
	}
	return apierr.New(apierr.BroadcastFailed, fmt.Sprintf("the chain's simulation of the swap of wallet %s reverted: %s", l.wallet.Hex(), msg)).
		WithOrder(o.orderID)
}

func insufficient(wallet common.Address, format string, args ...any) error {
	return apierr.Newf(apierr.InsufficientBalance, wallet.Hex(), format, args...)
}

// nativeAmount renders wei in whole native coins with the coin's symbol.
func (c *chainState) nativeAmount(wei *big.Int) string {
	return money.Format(wei, 18) + " " + c.asset.Native
}
