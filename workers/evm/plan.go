package evm

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// fees are an order's EIP-1559 fee parameters and processor tip, in wei.
type fees struct {
	tipCap *big.Int // max priority fee per gas
	feeCap *big.Int // max fee per gas: twice the base fee plus the tip
	tip    *big.Int // processor tip, a transfer to the chain's tip address in the wallet's bundle
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
	allowed      *big.Int // the router's allowance of that token, less what the wallet's transactions not yet mined spend of it
	pendingNonce uint64

	// Planned.
	// skip says why the leg sends nothing; empty: it sends.
	skip string
	// rawNative and rawHeld are the wallet's balances as read, before
	// what its transactions not yet mined take (native, held), and
	// rawAllowed the router's allowance as read, before what they spend
	// of the token (allowed); mined is its mined transaction count then.
	rawNative, rawHeld, rawAllowed *big.Int
	mined                          uint64
	// record is the wallet's nonce record as the reads found it, which
	// the leg's take starts from; nil: the take reads it.
	record  *recordRead
	spend   *big.Int // quote (buy) or tokens (sell) the swap spends
	approve *unsigned
	// reset clears the router's partial allowance before approve: a
	// token such as Tether's USDT refuses to change one non-zero
	// allowance to another, so the approval alone reverts.
	reset *unsigned
	// awaitsApproval: the router's allowance comes from an approval of an
	// earlier order, signed here but not yet mined.
	awaitsApproval bool
	tip            *unsigned
	swap           *unsigned
	// early is the swap's simulation when it started before the wallets'
	// reads were in.
	early *early
	// keyRead is the wallet's key, read while the order is planned.
	keyRead *keyRead
}

func (l *leg) txCount() uint64 { return uint64(len(l.txs())) }

// sends is the native coin the leg's transactions send.
func (l *leg) sends() *big.Int {
	sent := new(big.Int)
	for _, u := range l.txs() {
		sent.Add(sent, u.value)
	}
	return sent
}

// nativeCost is the most the leg's transactions can take of the wallet's
// native coin: what they send and their gas at the order's fee cap, which
// is what a node holds them to.
func (l *leg) nativeCost(o *order) *big.Int {
	cost := l.sends()
	for _, u := range l.txs() {
		cost.Add(cost, new(big.Int).Mul(new(big.Int).SetUint64(u.gas), o.fees.feeCap))
	}
	return cost
}

// txs are the leg's transactions in nonce order: the allowance's reset,
// the approval, the tip, the swap, the swap always last.
func (l *leg) txs() []*unsigned {
	out := make([]*unsigned, 0, 4)
	if l.reset != nil {
		out = append(out, l.reset)
	}
	if l.approve != nil {
		out = append(out, l.approve)
	}
	if l.tip != nil {
		out = append(out, l.tip)
	}
	return append(out, l.swap)
}

// swapFirst reports whether nothing stands before the leg's swap: no
// approval, none awaited, no tip. Such a swap is what simulate runs, and
// what simulateEarly may have run already.
func (l *leg) swapFirst() bool {
	return l.approve == nil && l.tip == nil && !l.awaitsApproval
}

// bundled reports whether the leg goes to the relay as one bundle: a
// tipped leg does, so that its tip is paid only if its swap lands.
func (l *leg) bundled() bool { return l.tip != nil }

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

// planSwaps quotes every leg on the market's pool and builds its swap
// with its known gas limit, from the market alone: nothing of the wallets
// is needed, so a swap that nothing stands before can be simulated while
// the wallets are still being read. Legs are quoted in order on the pool
// as the earlier legs of the order leave it, so that an order's own price
// impact does not trip its later legs' slippage bounds when the
// transactions land in order.
func (s *Signer) planSwaps(ctx context.Context, m *market, o *order) ([]*leg, error) {
	p := m.best
	legs := make([]*leg, len(o.legs))
	for i, jl := range o.legs {
		legs[i] = &leg{index: i, wallet: jl.wallet, job: jl, spend: m.spend[i]}
		if m.held != nil {
			legs[i].held = m.held[i]
		}
	}
	outs, err := s.legOuts(ctx, m, o)
	if err != nil {
		return nil, err
	}
	now := s.now()
	deadline := swapDeadline(m.head, now, s.cfg.DeadlineAfter)
	// Nothing of the order is sent past the deadline the swaps carry, nor
	// past the one the clock counts (a head ahead of the clock moves the
	// first later), well before the nonces may be reclaimed (the spends'
	// Until, 30 s later).
	o.sendBy = time.Unix(deadline.Int64(), 0).UTC()
	if byClock := now.Add(s.cfg.DeadlineAfter).UTC(); byClock.Before(o.sendBy) {
		o.sendBy = byClock
	}
	active := 0
	var dust *leg
	for i, l := range legs {
		if o.side == wire.Sell && l.spend.Sign() == 0 {
			l.skip = "nothing to sell: the wallet holds none of the token, net of its sales in flight"
			if l.held != nil && l.held.Sign() > 0 {
				// It holds some, but its share rounds to nothing: said
				// as such (not charged) should no wallet sell anything.
				l.skip = fmt.Sprintf("%s of the wallet's holding of %s base units of %s rounds to 0 base units: nothing to sell",
					l.job.field, l.held, p.token.Hex())
				dust = cmp.Or(dust, l)
			}
			continue
		}
		if o.side == wire.Buy && outs[i].Sign() == 0 {
			return nil, apierr.Invalid(l.job.field, "%s %s buys no tokens", l.job.amount, p.symbol)
		}
		if o.side == wire.Sell && outs[i].Sign() == 0 {
			// It would pay the gas (and an approval's) for nothing: on V3
			// the router takes a minimum of 0, on V2 the simulation fails.
			// Left out, as a wallet with nothing to sell is.
			l.skip = fmt.Sprintf("%s base units of %s sell for no %s after fees", l.spend, p.token.Hex(), p.symbol)
			dust = cmp.Or(dust, l)
			continue
		}
		l.swap = p.swapTx(o.side, l.wallet, l.spend, minusBps(outs[i], o.slippageBps), deadline)
		l.swap.gas = s.gasFor(p.ch, l.swap, p.quoteGas)
		active++
	}
	switch {
	case active == 0 && dust != nil:
		// What the wallets hold sells for nothing: refused, not charged.
		return nil, apierr.Invalid(dust.job.field, "%s", dust.skip)
	case active == 0:
		// Every wallet of a sell holds none of the token.
		// A buy of it that is not mined yet holds nothing yet: said, so
		// that a bot selling right after its buy knows to wait for it.
		return nil, insufficient(legs[0].wallet, "no wallet of the order holds %s on %s that its sales in flight do not already sell "+
			"(tokens of a buy count once it is mined)", p.token.Hex(), p.ch.Name)
	}
	return legs, nil
}

// swapDeadline is when an order's swaps stop being valid: after (the
// configured DeadlineAfter) past the later of the latest block's time and
// the clock. A chain that makes
// blocks only while transactions wait, or a node that lags, shows a head
// older than the block the swap lands in; a deadline counted from that
// head alone can be over before the swap lands, and the simulation, run at
// the old head, does not see the revert.
func swapDeadline(head *types.Header, now time.Time, after time.Duration) *big.Int {
	from := max(head.Time, uint64(max(now.Unix(), 0)))
	return new(big.Int).SetUint64(from + uint64(after.Seconds()))
}

// planWallets completes the legs with what the wallets' reads give: the
// order's fees, each leg's tip and the approval its swap needs, and checks
// that every wallet can pay; nothing is signed yet.
func (s *Signer) planWallets(ctx context.Context, m *market, o *order, r *reads, legs []*leg) error {
	p := m.best
	err := r.wait(ctx)
	if err != nil {
		return err
	}
	if o.fees, err = s.feesOf(p.ch, o, m.head, r.nodeTip, r.history); err != nil {
		return err
	}
	// What the wallets' transactions signed here and not yet mined may
	// take of their native coin is not there to spend again.
	native, err := s.unspent(ctx, p.ch, o, nativeCoin, r.native, r)
	if err != nil {
		return err
	}
	for i, l := range legs {
		l.native, l.pendingNonce, l.rawNative, l.mined = native[i], r.nonce[i], r.native[i], r.mined[i]
		if r.records != nil {
			l.record = r.records[i]
		}
	}
	spent, spends := p.spendsToken(o.side)
	if spends {
		held, allowed, err := s.spending(ctx, r, o, spent, p.router())
		if err != nil {
			return err
		}
		// An allowance short of unlimited is used up by what the wallet's
		// swaps not yet mined spend of the token, as its balance is: a
		// swap relying on the allowance as read would revert on chain
		// behind them, its gas paid. A spend's record does not name its
		// router, so every one counts against this router's allowance:
		// an approval not needed costs its gas, a missing one the swap.
		left, err := s.unspent(ctx, p.ch, o, spent, allowed, r)
		if err != nil {
			return err
		}
		for i, l := range legs {
			l.rawHeld, l.held, l.rawAllowed, l.allowed = held[i], held[i], allowed[i], left[i]
		}
		if o.side == wire.Buy {
			// A stable the wallet's buys not yet mined spend is not
			// there to spend again (a sell's amounts were set so
			// already).
			avail, err := s.unspent(ctx, p.ch, o, spent, held, r)
			if err != nil {
				return err
			}
			for i, l := range legs {
				l.held = avail[i]
			}
		}
	}
	for i, l := range legs {
		if l.skip != "" {
			continue
		}
		if o.fees.tip.Sign() > 0 {
			l.tip = tipTx(p.ch.TipAddress, o.fees.tip)
			l.tip.gas = s.gasFor(p.ch, l.tip, 0)
		}
		if !spends {
			continue
		}
		if o.side == wire.Buy && l.held.Cmp(l.spend) < 0 {
			return insufficient(l.wallet, "wallet %s holds %s %s not already spent by its orders in flight, and the buy spends %s", l.wallet.Hex(),
				money.Format(l.held, int(p.quoteDecimals)), p.symbol, l.job.amount)
		}
		if l.allowed.Cmp(l.spend) < 0 {
			if s.approvalInFlight(ctx, p.ch, spent, p.router(), l.wallet, o.orderID) || s.approvingElsewhere(ctx, p.ch, r, i, l.wallet, spent, p.router(), s.now(), o.orderID) {
				l.awaitsApproval = true
			} else {
				l.approve = approveTx(spent, p.router())
				l.approve.gas = s.gasFor(p.ch, l.approve, 0)
			}
		}
	}
	return s.checkFunds(p, o, legs)
}

// checkFunds refuses the order when a wallet cannot pay what its
// transactions send plus the most their gas can cost.
func (s *Signer) checkFunds(p *pool, o *order, legs []*leg) error {
	for _, l := range legs {
		if l.skip != "" {
			continue
		}
		sent, need := l.sends(), l.nativeCost(o)
		if l.native.Cmp(sent) < 0 {
			return insufficient(l.wallet, "wallet %s holds %s and the swap sends %s", l.wallet.Hex(),
				p.ch.nativeAmount(l.native), p.ch.nativeAmount(sent))
		}
		if l.native.Cmp(need) < 0 {
			return insufficient(l.wallet, "wallet %s holds %s and needs %s: %s sent and at most %s of gas", l.wallet.Hex(),
				p.ch.nativeAmount(l.native), p.ch.nativeAmount(need), p.ch.nativeAmount(sent),
				p.ch.nativeAmount(new(big.Int).Sub(need, sent)))
		}
		if extra := l.tokenAsNative(p, o); extra.Sign() > 0 {
			if all := new(big.Int).Add(need, extra); l.native.Cmp(all) < 0 {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s: the buy spends %s %s and its gas, at most %s, comes out of the same balance",
					l.wallet.Hex(), p.ch.nativeAmount(l.native), p.ch.nativeAmount(all), l.job.amount, p.symbol, p.ch.nativeAmount(need))
			}
		}
	}
	return nil
}

// tokenAsNative is what the leg's swap spends of the native coin's own
// ERC-20 (arc's USDC), in wei: the chain keeps one balance, which the
// token shows in its own decimals, so that spend comes out of the native
// coin as the gas does. Zero elsewhere.
func (l *leg) tokenAsNative(p *pool, o *order) *big.Int {
	if o.side != wire.Buy || p.native || p.ch.NativeToken == (common.Address{}) || p.quote != p.ch.NativeToken || l.spend == nil {
		return new(big.Int)
	}
	return new(big.Int).Mul(l.spend, p.ch.asset.WeiPerUnit())
}

// legOuts returns what each leg's swap is expected to pay, before
// slippage: on a V2 pair from the reserves as the earlier legs leave them,
// exactly as the pair computes it; in a V3 pool as QuoterV2's quote of the
// legs so far less its quote of the legs before (the quote of all of them
// is the route's), less a few base units of input's worth for the pool's
// rounding of two swaps against one. On a V2 pair the probed tax comes
// off the way a taxed transfer takes it, a buy's on the way out of the
// pool, a sell's on the way in: Router02's fee-on-transfer swaps hold the
// least out against what reaches the wallet. SwapRouter02 holds it against
// what the V3 pool pays, before any tax, so there the tax comes off
// nothing: taking it off too would let the price move by the tax on top
// of the slippage. (A V3 pool refuses a token taxed on its way in; the
// probe finds such a token unsellable.)
func (s *Signer) legOuts(ctx context.Context, m *market, o *order) ([]*big.Int, error) {
	var buyTax, sellTax uint64
	if o.tax != nil && !m.best.v3 {
		buyTax, sellTax = o.tax.buyBps, o.tax.sellBps
	}
	ins := make([]*big.Int, len(m.spend))
	for i, v := range m.spend {
		ins[i] = v
		if o.side == wire.Sell {
			ins[i] = minusBps(v, sellTax)
		}
	}
	var outs []*big.Int
	var err error
	if m.best.v3 {
		outs, err = s.v3LegOuts(ctx, m, o.side, ins)
	} else {
		outs = v2LegOuts(m.best, o.side, ins)
	}
	if err != nil {
		return nil, err
	}
	if o.side == wire.Buy {
		for i := range outs {
			outs[i] = minusBps(outs[i], buyTax)
		}
	}
	return outs, nil
}

func v2LegOuts(p *pool, side wire.Side, ins []*big.Int) []*big.Int {
	rToken := new(big.Int).Set(p.reserveToken)
	rQuote := new(big.Int).Set(p.reserveQuote)
	outs := make([]*big.Int, len(ins))
	for i, in := range ins {
		if side == wire.Sell {
			outs[i] = amountOut(in, rToken, rQuote)
			rToken.Add(rToken, in)
			rQuote.Sub(rQuote, outs[i])
			continue
		}
		outs[i] = amountOut(in, rQuote, rToken)
		rQuote.Add(rQuote, in)
		rToken.Sub(rToken, outs[i])
	}
	return outs
}

func (s *Signer) v3LegOuts(ctx context.Context, m *market, side wire.Side, ins []*big.Int) ([]*big.Int, error) {
	cum := make([]*big.Int, len(ins))
	quotes := make([]*big.Int, len(ins))
	sum := new(big.Int)
	g, gctx := guard.WithContext(ctx)
	for i, in := range ins {
		sum.Add(sum, in)
		cum[i] = new(big.Int).Set(sum)
		switch {
		case in.Sign() == 0 && i > 0:
			continue // filled from the quote before
		case cum[i].Cmp(m.total) == 0:
			quotes[i] = m.best.out // the route's quote of the whole order
			continue
		case cum[i].Sign() == 0:
			quotes[i] = new(big.Int)
			continue
		}
		g.Go(func() (err error) {
			quotes[i], _, err = s.quoteV3(gctx, m.best, side, cum[i])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("quote the legs on %s: %w", m.best.addr.Hex(), err)
	}
	outs := make([]*big.Int, len(ins))
	for i := range ins {
		if quotes[i] == nil {
			quotes[i] = quotes[i-1]
		}
		if i == 0 {
			outs[i] = new(big.Int).Set(quotes[0])
			continue
		}
		out := new(big.Int).Sub(quotes[i], quotes[i-1])
		if ins[i].Sign() > 0 {
			// Three base units of input's worth at the average price, and
			// three units more.
			slack := new(big.Int).Mul(quotes[i], big.NewInt(3))
			slack.Add(slack, new(big.Int).Sub(cum[i], big.NewInt(1)))
			slack.Quo(slack, cum[i])
			out.Sub(out, slack.Add(slack, big.NewInt(3)))
		}
		if out.Sign() < 0 {
			out.SetInt64(0)
		}
		outs[i] = out
	}
	return outs, nil
}

// approvalInFlight reports whether this process signed an approval of
// token for spender and wallet recently enough that it is presumed on its
// way, for another order than order: an order signed again (its job
// redelivered) does not rely on its own earlier signing's approval, which
// goes out only if that signing's batch is the one handed on; nor does an
// order rely on the approval of one that ended failed or expired (every
// send refused), or whose approval the chain refused while the order went
// on: that approval never reached the chain, and a swap relying on it
// would wait behind the gap and revert for want of an allowance.
func (s *Signer) approvalInFlight(ctx context.Context, c *chainState, token, spender, wallet common.Address, order string) bool {
	now := s.now()
	key := approvalKey{token: token, spender: spender, wallet: wallet}
	c.mu.Lock()
	for k, m := range c.approvals {
		if now.After(m.until) {
			delete(c.approvals, k)
		}
	}
	m, ok := c.approvals[key]
	c.mu.Unlock()
	if !ok || m.order == order {
		return false
	}
	if s.nonces.isEnded(ctx, m.order) || s.nonces.isRefused(ctx, c.Name, m.order, wallet, RecordSpend{Token: tokenName(token), Approves: strings.ToLower(spender.Hex())}) {
		c.mu.Lock()
		if c.approvals[key] == m {
			delete(c.approvals, key)
		}
		c.mu.Unlock()
		return false
	}
	return true
}

// feesOf returns the order's fee parameters from the latest header, the
// node's priority fee (eth_maxPriorityFeePerGas, read when the job gives
// none) and, under auto_tip, the fee history: the tip cap is the job's
// priority fee, or the node's when it gives none, or under auto_tip a
// percentile of recent blocks' priority fees; when the server chooses it
// is at least the chain's floor and then at most the account's cap, so
// nothing the server picks costs more than the account agreed to. The
// floor is the least tip the chain's blocks take: a transaction under it
// would wait in the pool unmined, and every later one of its wallet behind
// it, so a job's priority fee under it, or an account's cap under it when
// the server chooses, refuses the order before anything is signed. The
// fee cap is twice the latest base fee plus the tip, which outlasts six
// full blocks of base-fee rise. The processor tip is the job's, or under
// auto_tip the chain's (on a chain that takes tips) held to the cap.
func (s *Signer) feesOf(c *chainState, o *order, head *types.Header, nodeTip *big.Int, history *ethereum.FeeHistory) (fees, error) {
	var f fees
	floor := c.MinTipCap
	if floor == nil {
		floor = DefaultMinTipCap
	}
	gwei := func(wei *big.Int) string { return money.Format(wei, 9) + " gwei" }
	switch {
	case !o.autoTip && o.priorityFeeGiven:
		if o.priorityFee.Cmp(floor) < 0 {
			return f, apierr.Invalid("priority_fee", "priority_fee %s is below %s's least priority fee, %s: blocks there do not take a transaction that tips less, and the wallet's later orders would wait behind it",
				gwei(o.priorityFee), c.Name, gwei(floor))
		}
	case o.caps.priorityFee.Cmp(floor) < 0:
		return f, apierr.Invalid("fee_caps.max_priority_fee", "the account's max_priority_fee cap of %s is below %s's least priority fee, %s: blocks there do not take a transaction that tips less, so the cap must be raised to trade there",
			gwei(o.caps.priorityFee), c.Name, gwei(floor))
	}
	baseFee := head.BaseFee
	if baseFee == nil {
		baseFee = new(big.Int)
	}
	f.tip = processorTip(c, o)
	switch {
	case o.autoTip:
		f.tipCap = bigMin(bigMax(meanReward(history), floor), o.caps.priorityFee)
	case o.priorityFeeGiven:
		f.tipCap = o.priorityFee
	default:
		f.tipCap = bigMin(bigMax(nodeTip, floor), o.caps.priorityFee)
	}
	f.feeCap = new(big.Int).Add(new(big.Int).Mul(baseFee, big.NewInt(2)), f.tipCap)
	return f, nil
}

// processorTip is the order's processor tip on c: the job's, or under
// auto_tip the chain's (on a chain that takes tips) held to the cap.
func processorTip(c *chainState, o *order) *big.Int {
	if !o.autoTip {
		return o.processorTip
	}
	tip := new(big.Int)
	if c.AutoProcessorTip != nil && c.takesTips() {
		tip.Set(c.AutoProcessorTip)
	}
	return bigMin(tip, o.caps.tip)
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

func insufficient(wallet common.Address, format string, args ...any) error {
	return apierr.Newf(apierr.InsufficientBalance, wallet.Hex(), format, args...)
}

// nativeAmount renders wei in whole native coins with the coin's symbol.
func (c *chainState) nativeAmount(wei *big.Int) string {
	return money.Format(wei, chains.WeiDecimals) + " " + c.asset.Native
}
