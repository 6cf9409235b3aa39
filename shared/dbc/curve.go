package dbc

import (
	"math/big"
)

var (
	bigOne     = big.NewInt(1)
	q128       = new(big.Int).Lsh(bigOne, 2*Resolution)
	oneQ64     = new(big.Int).Lsh(bigOne, Resolution)
	maxU64     = new(big.Int).SetUint64(^uint64(0))
	bigFeeDen  = new(big.Int).SetUint64(FeeDenominator)
	bigBpsMax  = big.NewInt(10_000)
	bigVarFeeD = big.NewInt(100_000_000_000)
)

// mulDiv returns a*b/c rounded down or up.
func mulDiv(a, b, c *big.Int, up bool) *big.Int {
	p := new(big.Int).Mul(a, b)
	q, r := p.QuoRem(p, c, new(big.Int))
	if up && r.Sign() != 0 {
		q.Add(q, bigOne)
	}
	return q
}

func u64(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

// DeltaBase is L*(upper-lower)/(lower*upper): the base between two
// square-root prices (Q64.64) at liquidity L.
func DeltaBase(lower, upper, liquidity *big.Int, up bool) *big.Int {
	return mulDiv(liquidity, new(big.Int).Sub(upper, lower), new(big.Int).Mul(lower, upper), up)
}

// DeltaQuote is L*(upper-lower)/2^128: the quote between two square-root
// prices at liquidity L.
func DeltaQuote(lower, upper, liquidity *big.Int, up bool) *big.Int {
	return mulDiv(liquidity, new(big.Int).Sub(upper, lower), q128, up)
}

// nextSqrtPriceFromBaseIn is √P*L/(L+Δbase*√P), rounded up: base in moves
// the price down.
func nextSqrtPriceFromBaseIn(sqrtPrice, liquidity *big.Int, amount uint64) *big.Int {
	if amount == 0 {
		return new(big.Int).Set(sqrtPrice)
	}
	den := new(big.Int).Mul(u64(amount), sqrtPrice)
	den.Add(den, liquidity)
	return mulDiv(liquidity, sqrtPrice, den, true)
}

// nextSqrtPriceFromQuoteIn is √P+Δquote*2^128/L, rounded down: quote in
// moves the price up.
func nextSqrtPriceFromQuoteIn(sqrtPrice, liquidity *big.Int, amount uint64) *big.Int {
	q := new(big.Int).Lsh(u64(amount), 2*Resolution)
	q.Quo(q, liquidity)
	return q.Add(q, sqrtPrice)
}

// TradeFeeNumerator returns the fee numerator (of FeeDenominator) of a swap
// at currentPoint (a slot or a unix time, as c.ActivationType says) that
// the rate limiter does not price: the scheduled base fee plus the pool's
// volatility fee, capped at 99%. Under a rate limiter the base fee is its
// cliff fee, what a sale and a buy after the limiter's window pay;
// SwapFeeNumerator prices a buy by its size.
func TradeFeeNumerator(c *PoolConfig, p *VirtualPool, currentPoint uint64) (uint64, error) {
	return SwapFeeNumerator(c, p, 0, false, currentPoint)
}

// SwapFeeNumerator returns the fee numerator of an exact-in swap of
// amountIn (fee included) at currentPoint, quote→base when quoteToBase:
// the base fee (by the schedule, or by the rate limiter when
// RateLimiterApplies) plus the pool's volatility fee, capped at 99%.
func SwapFeeNumerator(c *PoolConfig, p *VirtualPool, amountIn uint64, quoteToBase bool, currentPoint uint64) (uint64, error) {
	var base uint64
	var err error
	if c.BaseFee.BaseFeeMode == BaseFeeRateLimiter {
		base = c.BaseFee.CliffFeeNumerator
		if RateLimiterApplies(c, p, quoteToBase, currentPoint) {
			base, err = rateLimiterFeeNumerator(&c.BaseFee, amountIn)
		}
	} else {
		base, err = scheduledFeeNumerator(&c.BaseFee, currentPoint, p.ActivationPoint)
	}
	if err != nil {
		return 0, err
	}
	return withVolatility(c, p, base), nil
}

// withVolatility is a base fee numerator plus the pool's volatility fee,
// capped at 99%.
func withVolatility(c *PoolConfig, p *VirtualPool, base uint64) uint64 {
	total := new(big.Int).Add(u64(base), variableFee(&c.DynamicFee, &p.Volatility))
	if total.Cmp(u64(MaxFeeNumerator)) > 0 {
		return MaxFeeNumerator
	}
	return total.Uint64()
}

// MinBaseFeeNumerator is the least base fee of c: a fee scheduler's after
// its last period, a rate limiter's cliff fee. It is what a pool's first
// swap pays, and all it pays (no volatility fee), when c enables the first
// swap with the minimum fee and the swap qualifies (see QuoteFirstSwap).
func MinBaseFeeNumerator(c *PoolConfig) (uint64, error) {
	b := &c.BaseFee
	if b.BaseFeeMode == BaseFeeRateLimiter {
		return b.CliffFeeNumerator, nil
	}
	return feeAfterPeriods(b, uint64(b.FirstFactor))
}

// scheduledFeeNumerator is the base fee of the fee schedulers.
func scheduledFeeNumerator(b *BaseFeeConfig, current, activation uint64) (uint64, error) {
	var periods uint64
	if b.SecondFactor > 0 && current > activation {
		periods = min((current-activation)/b.SecondFactor, uint64(b.FirstFactor))
	}
	return feeAfterPeriods(b, periods)
}

// feeAfterPeriods is a fee scheduler's base fee once periods have passed.
func feeAfterPeriods(b *BaseFeeConfig, periods uint64) (uint64, error) {
	switch b.BaseFeeMode {
	case BaseFeeSchedulerLinear:
		cut := new(big.Int).Mul(u64(periods), u64(b.ThirdFactor))
		if cut.Cmp(u64(b.CliffFeeNumerator)) >= 0 {
			return 0, ErrMathOverflow
		}
		return b.CliffFeeNumerator - cut.Uint64(), nil
	case BaseFeeSchedulerExponential:
		return exponentialFee(b.CliffFeeNumerator, b.ThirdFactor, periods)
	}
	return 0, ErrInvalidBaseFeeMode
}

// u128Max is the largest unsigned 128-bit integer, where the program's
// fixed-point arithmetic fails.
var u128Max = new(big.Int).Sub(new(big.Int).Lsh(bigOne, 128), bigOne)

// exponentialFee is the exponential scheduler's fee after periods, as the
// program computes it (fee_math's get_fee_in_period): the cliff times
// (1 - reduction/10000)^periods, the power in Q64.64 (powQ64), the product
// cut to whole units. A period-by-period product rounded each time, which
// is what the formula reads like, comes out a little lower, and a quote
// from it promises more than the program pays.
func exponentialFee(cliff, reduction, periods uint64) (uint64, error) {
	bps := new(big.Int).Lsh(u64(reduction), Resolution)
	bps.Quo(bps, bigBpsMax)
	base := new(big.Int).Sub(oneQ64, bps)
	if base.Sign() < 0 || periods > 0xffff {
		return 0, ErrMathOverflow
	}
	pow, ok := powQ64(base, periods)
	if !ok {
		return 0, ErrMathOverflow
	}
	fee := pow.Mul(pow, u64(cliff))
	if fee.Cmp(u128Max) > 0 {
		return 0, ErrMathOverflow
	}
	fee.Rsh(fee, Resolution)
	if !fee.IsUint64() {
		return 0, ErrMathOverflow
	}
	return fee.Uint64(), nil
}

// powQ64 is the program's pow of a Q64.64 base to a positive exponent
// under 2^19: squares taken bit by bit from the lowest, every product cut
// back to 64 fractional bits and failing past 128 bits, a base of one or
// more inverted first (2^128-1 over it) and the result inverted back.
func powQ64(base *big.Int, exp uint64) (*big.Int, bool) {
	if exp == 0 {
		return new(big.Int).Set(oneQ64), true
	}
	if exp >= 0x80000 {
		return nil, false
	}
	mul := func(a, b *big.Int) (*big.Int, bool) {
		p := new(big.Int).Mul(a, b)
		if p.Cmp(u128Max) > 0 {
			return nil, false
		}
		return p.Rsh(p, Resolution), true
	}
	sq, result, invert := new(big.Int).Set(base), new(big.Int).Set(oneQ64), false
	if sq.Cmp(result) >= 0 {
		sq.Quo(u128Max, sq)
		invert = true
	}
	// The program squares on to bit 18 whatever the exponent; a base of
	// one or less (the only kind here, inverted or not) never overflows
	// its squares, so the squares past the exponent's top bit change
	// nothing and are left out.
	var ok bool
	for bit := uint64(1); bit <= exp; bit <<= 1 {
		if bit > 1 {
			if sq, ok = mul(sq, sq); !ok {
				return nil, false
			}
		}
		if exp&bit != 0 {
			if result, ok = mul(result, sq); !ok {
				return nil, false
			}
		}
	}
	if result.Sign() == 0 {
		return nil, false
	}
	if invert {
		result.Quo(u128Max, result)
	}
	return result, true
}

func variableFee(d *DynamicFeeConfig, v *VolatilityTracker) *big.Int {
	if d.Initialized == 0 {
		return new(big.Int)
	}
	sq := new(big.Int).Mul(v.VolatilityAccumulator.Big(), big.NewInt(int64(d.BinStep)))
	sq.Mul(sq, sq)
	sq.Mul(sq, big.NewInt(int64(d.VariableFeeControl)))
	sq.Add(sq, new(big.Int).Sub(bigVarFeeD, bigOne))
	return sq.Quo(sq, bigVarFeeD)
}

// Fees are the parts of one swap's fee.
type Fees struct {
	Trading  uint64 // the partner's and the creator's part
	Protocol uint64
	Referral uint64
}

// Total returns the whole fee.
func (f Fees) Total() uint64 { return f.Trading + f.Protocol + f.Referral }

// feeOn splits ceil(amount*numerator/1e9) and returns the amount less it.
func feeOn(amount, numerator uint64, referral bool) (uint64, Fees) {
	fee := mulDiv(u64(amount), u64(numerator), bigFeeDen, true).Uint64()
	return amount - fee, splitFee(fee, referral)
}

// splitFee splits fee into the protocol's part (a referral taking a share
// of it when passed) and the trading rest.
func splitFee(fee uint64, referral bool) Fees {
	protocol := fee * ProtocolFeePercent / 100
	f := Fees{Trading: fee - protocol, Protocol: protocol}
	if referral {
		f.Referral = protocol * HostFeePercent / 100
		f.Protocol -= f.Referral
	}
	return f
}

// includedFeeAmount returns the input that, less its fee at numerator,
// leaves excluded: ceil(excluded·1e9/(1e9−numerator)), and that fee.
func includedFeeAmount(numerator, excluded uint64) (in, fee uint64, err error) {
	if numerator >= FeeDenominator {
		return 0, 0, ErrMathOverflow
	}
	v := mulDiv(u64(excluded), bigFeeDen, u64(FeeDenominator-numerator), true)
	if v.Cmp(maxU64) > 0 {
		return 0, 0, ErrTypeCastFailed
	}
	return v.Uint64(), v.Uint64() - excluded, nil
}

// excludedFeeNumerator is SwapFeeNumerator of a buy known by its input net
// of fees, excluded: the same but for a rate limiter that applies, whose
// fee is found from the net input (rateLimiterNumeratorOfExcluded).
func excludedFeeNumerator(c *PoolConfig, p *VirtualPool, excluded, currentPoint uint64) (uint64, error) {
	if !RateLimiterApplies(c, p, true, currentPoint) {
		return SwapFeeNumerator(c, p, 0, true, currentPoint)
	}
	base, err := rateLimiterNumeratorOfExcluded(&c.BaseFee, excluded)
	if err != nil {
		return 0, err
	}
	return withVolatility(c, p, base), nil
}

// SwapQuote is the outcome of an exact-in swap.
type SwapQuote struct {
	// QuoteToBase is a buy.
	QuoteToBase bool
	// AmountIn is what the payer sends: the instruction's amount_in, or
	// of a partial fill what the curve took with its fee.
	AmountIn uint64
	// ActualIn is what moves the curve: AmountIn less an input fee.
	ActualIn uint64
	// AmountOut is what the payer receives, an output fee deducted.
	AmountOut     uint64
	Fees          Fees
	NextSqrtPrice Uint128
	// FeesOnInput tells that Fees came out of the input (a buy in
	// CollectFeeQuoteToken mode).
	FeesOnInput bool
	// FeesOnBase tells that Fees are in the base token.
	FeesOnBase bool
	// Partial tells a partial fill: the curve took only part of the
	// instruction's amount, and AmountIn is what the payer pays.
	Partial bool
}

// QuoteSwapExactIn returns what swap of amountIn does on p under c at
// currentPoint: quote→base when quoteToBase, else base→quote. referral says
// whether a referral token account is passed. A buy the rate limiter
// applies to pays the fee SwapFeeNumerator gives for amountIn.
func QuoteSwapExactIn(p *VirtualPool, c *PoolConfig, amountIn uint64, quoteToBase, referral bool, currentPoint uint64) (SwapQuote, error) {
	return quoteSwap(p, c, amountIn, quoteToBase, referral, currentPoint, false, false)
}

// QuoteSwapPartialFill returns what swap2 in SwapModePartialFill does with
// amountIn on p under c at currentPoint: an exact-in swap, but a buy larger
// than what is left before the migration price takes only what completes
// the curve, and the payer pays that (AmountIn, its fee recomputed on it)
// instead of amountIn; Partial tells so. minFee is a swap FirstSwapMinFee
// admits, priced at MinBaseFeeNumerator alone.
func QuoteSwapPartialFill(p *VirtualPool, c *PoolConfig, amountIn uint64, quoteToBase, referral bool, currentPoint uint64, minFee bool) (SwapQuote, error) {
	return quoteSwap(p, c, amountIn, quoteToBase, referral, currentPoint, minFee, true)
}

// FirstSwapMinFee tells whether a swap on p under c pays only c's least
// base fee (MinBaseFeeNumerator): c enables the first swap with the
// minimum fee (enable_first_swap_with_min_fee), the pool has had no swap,
// no referral account is passed, and the swap is a top-level instruction
// after the pool's initialize in the same transaction, passing the
// instructions sysvar first among its remaining accounts. The caller
// tells the last two (inInitTx).
func FirstSwapMinFee(c *PoolConfig, p *VirtualPool, referral, inInitTx bool) bool {
	return c.EnableFirstSwapWithMinFee != 0 && p.HasSwap == 0 && !referral && inInitTx
}

// QuoteFirstSwap is QuoteSwapExactIn of a swap FirstSwapMinFee admits:
// priced at MinBaseFeeNumerator alone, whatever the schedule, the rate
// limiter or the pool's volatility say.
func QuoteFirstSwap(p *VirtualPool, c *PoolConfig, amountIn uint64, quoteToBase bool, currentPoint uint64) (SwapQuote, error) {
	return quoteSwap(p, c, amountIn, quoteToBase, false, currentPoint, true, false)
}

func quoteSwap(p *VirtualPool, c *PoolConfig, amountIn uint64, quoteToBase, referral bool, currentPoint uint64, minFee, partial bool) (SwapQuote, error) {
	if amountIn == 0 {
		return SwapQuote{}, ErrAmountIsZero
	}
	if p.IsCurveComplete(c) {
		return SwapQuote{}, ErrPoolIsCompleted
	}
	if p.SqrtPrice.IsZero() {
		// No pool the program writes has it (its price starts at the
		// config's, above the least): a node's bad answer, refused, not
		// divided by.
		return SwapQuote{}, ErrMathOverflow
	}
	q := SwapQuote{QuoteToBase: quoteToBase, AmountIn: amountIn}
	switch c.CollectFeeMode {
	case CollectFeeQuoteToken:
		q.FeesOnInput = quoteToBase
	case CollectFeeOutputToken:
		q.FeesOnBase = quoteToBase
	default:
		return SwapQuote{}, ErrInvalidCollectFeeMode
	}
	num, err := SwapFeeNumerator(c, p, amountIn, quoteToBase, currentPoint)
	if minFee {
		num, err = MinBaseFeeNumerator(c)
	}
	if err != nil {
		return SwapQuote{}, err
	}
	q.ActualIn = amountIn
	if q.FeesOnInput {
		q.ActualIn, q.Fees = feeOn(amountIn, num, referral)
	}
	var out, next *big.Int
	if quoteToBase {
		var left uint64
		out, next, left = quoteToBaseIn(p, c, q.ActualIn)
		switch {
		case left == 0:
		case !partial:
			return SwapQuote{}, ErrInsufficientLiquidity
		default:
			if err := q.fillPart(p, c, left, referral, currentPoint, minFee); err != nil {
				return SwapQuote{}, err
			}
		}
	} else {
		out, next = baseToQuoteIn(p, c, q.ActualIn)
	}
	if out.Cmp(maxU64) > 0 || next.BitLen() > 128 {
		return SwapQuote{}, ErrMathOverflow
	}
	q.AmountOut, q.NextSqrtPrice = out.Uint64(), U128FromBig(next)
	if !q.FeesOnInput {
		q.AmountOut, q.Fees = feeOn(q.AmountOut, num, referral)
	}
	if !quoteToBase && q.AmountOut+q.Fees.Total() > p.QuoteReserve {
		return SwapQuote{}, ErrNotEnoughLiquidity
	}
	if quoteToBase && q.AmountOut+boolFee(q.FeesOnBase, q.Fees) > p.BaseReserve {
		return SwapQuote{}, ErrNotEnoughLiquidity
	}
	return q, nil
}

// fillPart turns q, a buy whose input the curve took all but left of,
// into the partial fill the program makes of it: ActualIn less left moves
// the curve, and an input fee is charged again on that alone, at the fee
// numerator of an input net of fees (which a rate limiter prices apart),
// so that AmountIn, what the payer pays, is ActualIn with its fee. A fee
// on the output keeps the numerator of the whole amount, as the program's
// does.
func (q *SwapQuote) fillPart(p *VirtualPool, c *PoolConfig, left uint64, referral bool, currentPoint uint64, minFee bool) error {
	q.Partial = true
	q.ActualIn -= left
	if !q.FeesOnInput {
		q.AmountIn = q.ActualIn
		return nil
	}
	var num uint64
	var err error
	if minFee {
		num, err = MinBaseFeeNumerator(c)
	} else {
		num, err = excludedFeeNumerator(c, p, q.ActualIn, currentPoint)
	}
	if err != nil {
		return err
	}
	in, fee, err := includedFeeAmount(num, q.ActualIn)
	if err != nil {
		return err
	}
	q.AmountIn, q.Fees = in, splitFee(fee, referral)
	return nil
}

func boolFee(on bool, f Fees) uint64 {
	if on {
		return f.Total()
	}
	return 0
}

// quoteToBaseIn walks the curve up from the pool's price, stopping at the
// migration price; it returns the base out, the new price and the quote it
// could not place.
func quoteToBaseIn(p *VirtualPool, c *PoolConfig, amountIn uint64) (out, price *big.Int, left uint64) {
	out, price, left = new(big.Int), p.SqrtPrice.Big(), amountIn
	stop := c.MigrationSqrtPrice.Big()
	for i := range c.Curve {
		pt := c.Curve[i]
		if pt.SqrtPrice.IsZero() || pt.Liquidity.IsZero() {
			break
		}
		ref := pt.SqrtPrice.Big()
		if stop.Cmp(ref) < 0 {
			ref = stop
		}
		if ref.Cmp(price) <= 0 {
			continue
		}
		liq := pt.Liquidity.Big()
		maxIn := DeltaQuote(price, ref, liq, true)
		if u64(left).Cmp(maxIn) < 0 {
			next := nextSqrtPriceFromQuoteIn(price, liq, left)
			out.Add(out, DeltaBase(price, next, liq, false))
			return out, next, 0
		}
		out.Add(out, DeltaBase(price, ref, liq, false))
		left -= maxIn.Uint64()
		price = ref
		if ref.Cmp(stop) == 0 {
			break
		}
	}
	return out, price, left
}

// baseToQuoteIn walks the curve down from the pool's price.
func baseToQuoteIn(p *VirtualPool, c *PoolConfig, amountIn uint64) (out, price *big.Int) {
	out, price = new(big.Int), p.SqrtPrice.Big()
	left := amountIn
	for i := len(c.Curve) - 2; i >= 0; i-- {
		pt := c.Curve[i]
		if pt.SqrtPrice.IsZero() || pt.Liquidity.IsZero() {
			continue
		}
		lower := pt.SqrtPrice.Big()
		if lower.Cmp(price) >= 0 {
			continue
		}
		liq := c.Curve[i+1].Liquidity.Big()
		maxIn := DeltaBase(lower, price, liq, true)
		if u64(left).Cmp(maxIn) < 0 {
			next := nextSqrtPriceFromBaseIn(price, liq, left)
			out.Add(out, DeltaQuote(next, price, liq, false))
			return out, next
		}
		out.Add(out, DeltaQuote(lower, price, liq, false))
		left -= maxIn.Uint64()
		price = lower
	}
	if left != 0 {
		liq := c.Curve[0].Liquidity.Big()
		next := nextSqrtPriceFromBaseIn(price, liq, left)
		out.Add(out, DeltaQuote(next, price, liq, false))
		price = next
	}
	return out, price
}

// MinOut returns out less slippageBps basis points, rounded down.
func MinOut(out, slippageBps uint64) uint64 {
	if slippageBps >= 10_000 {
		return 0
	}
	return mulDiv(u64(out), u64(10_000-slippageBps), bigBpsMax, false).Uint64()
}

// ApplySwap updates p after q at unix time now, as the program does: the
// price, the reserves (fees excluded), the partner, creator and protocol
// fees, the volatility tracker and, when the quote reserve reaches the
// migration threshold, the completion of the curve.
func (p *VirtualPool) ApplySwap(c *PoolConfig, q SwapQuote, now uint64) {
	p.updatePreSwap(c, now)
	old := p.SqrtPrice
	p.SqrtPrice = q.NextSqrtPrice
	creator := q.Fees.Trading * uint64(c.CreatorTradingFeePercentage) / 100
	partner := q.Fees.Trading - creator
	if q.FeesOnBase {
		p.PartnerBaseFee += partner
		p.CreatorBaseFee += creator
		p.ProtocolBaseFee += q.Fees.Protocol
		p.TotalProtocolBaseFee += q.Fees.Protocol
		p.TotalTradingBaseFee += q.Fees.Trading
	} else {
		p.PartnerQuoteFee += partner
		p.CreatorQuoteFee += creator
		p.ProtocolQuoteFee += q.Fees.Protocol
		p.TotalProtocolQuoteFee += q.Fees.Protocol
		p.TotalTradingQuoteFee += q.Fees.Trading
	}
	gross := q.AmountOut
	if !q.FeesOnInput {
		gross += q.Fees.Total()
	}
	if q.QuoteToBase {
		p.QuoteReserve += q.ActualIn
		p.BaseReserve -= gross
	} else {
		p.BaseReserve += q.ActualIn
		p.QuoteReserve -= gross
	}
	p.updatePostSwap(c, old, now)
	p.HasSwap = 1
	if p.IsCurveComplete(c) {
		p.FinishCurveTimestamp = now
		if c.LockedVesting.Total() > 0 {
			p.MigrationProgress = ProgressPostBondingCurve
		} else {
			p.MigrationProgress = ProgressLockedVesting
		}
	}
}

func (p *VirtualPool) updatePreSwap(c *PoolConfig, now uint64) {
	d := &c.DynamicFee
	if d.Initialized == 0 || now < p.Volatility.LastUpdateTimestamp {
		return
	}
	elapsed := now - p.Volatility.LastUpdateTimestamp
	if elapsed < uint64(d.FilterPeriod) {
		return
	}
	p.Volatility.SqrtPriceReference = p.SqrtPrice
	if elapsed < uint64(d.DecayPeriod) {
		ref := mulDiv(p.Volatility.VolatilityAccumulator.Big(), big.NewInt(int64(d.ReductionFactor)), bigBpsMax, false)
		p.Volatility.VolatilityReference = U128FromBig(ref)
	} else {
		p.Volatility.VolatilityReference = Uint128{}
	}
}

func (p *VirtualPool) updatePostSwap(c *PoolConfig, old Uint128, now uint64) {
	d := &c.DynamicFee
	if d.Initialized == 0 || d.BinStepU128.IsZero() {
		return
	}
	delta := deltaBinID(d.BinStepU128.Big(), p.SqrtPrice.Big(), p.Volatility.SqrtPriceReference.Big())
	acc := new(big.Int).Mul(delta, bigBpsMax)
	acc.Add(acc, p.Volatility.VolatilityReference.Big())
	if m := big.NewInt(int64(d.MaxVolatilityAccumulator)); acc.Cmp(m) > 0 {
		acc = m
	}
	p.Volatility.VolatilityAccumulator = U128FromBig(acc)
	if deltaBinID(d.BinStepU128.Big(), old.Big(), p.SqrtPrice.Big()).Sign() > 0 {
		p.Volatility.LastUpdateTimestamp = now
	}
}

func deltaBinID(binStep, a, b *big.Int) *big.Int {
	hi, lo := a, b
	if hi.Cmp(lo) < 0 {
		hi, lo = lo, hi
	}
	if lo.Sign() == 0 {
		return new(big.Int)
	}
	ratio := new(big.Int).Lsh(hi, Resolution)
	ratio.Quo(ratio, lo)
	ratio.Sub(ratio, oneQ64)
	ratio.Quo(ratio, binStep)
	return ratio.Mul(ratio, big.NewInt(2))
}

// SingleCurve designs a one-segment curve that sells baseForSale for
// quoteRaised and ends at the price the migrated pool opens at, quoteRaised
// over migrationBase. It returns the start and migration square-root
// prices and the liquidity, and what the curve sells and raises after the
// program's rounding (the config's SwapBaseAmount and
// MigrationQuoteThreshold).
func SingleCurve(baseForSale, quoteRaised, migrationBase uint64) (start, end, liquidity Uint128, sold, raised uint64) {
	// √P_end = sqrt(Q/M) in Q64.64; √P_start·√P_end = Q/B.
	pe := new(big.Int).Lsh(u64(quoteRaised), 2*Resolution)
	pe.Quo(pe, u64(migrationBase)).Sqrt(pe)
	ps := new(big.Int).Lsh(u64(quoteRaised), 2*Resolution)
	ps.Quo(ps, new(big.Int).Mul(u64(baseForSale), pe))
	l := new(big.Int).Lsh(u64(quoteRaised), 2*Resolution)
	l.Quo(l, new(big.Int).Sub(pe, ps))
	sold = DeltaBase(ps, pe, l, true).Uint64()
	raised = DeltaQuote(ps, pe, l, false).Uint64()
	return U128FromBig(ps), U128FromBig(pe), U128FromBig(l), sold, raised
}
