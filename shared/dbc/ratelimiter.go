package dbc

import "math/big"

// A rate limiter (BaseFeeRateLimiter) charges a buy by its size for
// MaxLimiterDuration points after the pool's activation: the first
// ReferenceAmount of quote in pays the cliff fee, each further
// ReferenceAmount pays FeeIncrementBps more than the one before, up to
// MaxFeeNumerator. A sale, and a buy after the window, pay the cliff fee.
// The program then requires the instructions sysvar as the swap's first
// remaining account and refuses a second swap of the pool in the
// transaction.

// FeeIncrementBps is the rate limiter's step per ReferenceAmount, in basis
// points (the config's FirstFactor).
func (b *BaseFeeConfig) FeeIncrementBps() uint16 { return b.FirstFactor }

// MaxLimiterDuration is how many points (slots or seconds, as the config's
// ActivationType says) after the pool's activation the rate limiter
// applies (the config's SecondFactor).
func (b *BaseFeeConfig) MaxLimiterDuration() uint64 { return b.SecondFactor }

// ReferenceAmount is the quote amount of each step of the rate limiter (the
// config's ThirdFactor).
func (b *BaseFeeConfig) ReferenceAmount() uint64 { return b.ThirdFactor }

// zeroRateLimiter tells a rate limiter with no parameters, which never
// applies.
func (b *BaseFeeConfig) zeroRateLimiter() bool {
	return b.ThirdFactor == 0 && b.SecondFactor == 0 && b.FirstFactor == 0
}

// RateLimiterApplies tells whether the rate limiter of c prices a swap on p
// at currentPoint: c's base fee is BaseFeeRateLimiter with parameters, the
// swap is a buy (quote→base), and currentPoint is no later than
// MaxLimiterDuration after the pool's activation.
func RateLimiterApplies(c *PoolConfig, p *VirtualPool, quoteToBase bool, currentPoint uint64) bool {
	b := &c.BaseFee
	if b.BaseFeeMode != BaseFeeRateLimiter || b.zeroRateLimiter() || !quoteToBase {
		return false
	}
	return currentPoint <= p.ActivationPoint || currentPoint-p.ActivationPoint <= b.SecondFactor
}

// NeedsInstructionsSysvar tells whether a swap on p passes the instructions
// sysvar, as Meteora's SDK does: when the rate limiter applies to it, or
// when c lets a pool's first swap pay the minimum fee.
func NeedsInstructionsSysvar(c *PoolConfig, p *VirtualPool, quoteToBase bool, currentPoint uint64) bool {
	return RateLimiterApplies(c, p, quoteToBase, currentPoint) || c.EnableFirstSwapWithMinFee != 0
}

// rateLimiterFeeNumerator is the base fee numerator of an input of amount
// (fee included) under the rate limiter b. With reference amount x0,
// cliff c and increment i, an input of x0 + a·x0 + r (r < x0) pays
// x0·(c + c·a + i·a(a+1)/2) + r·(c + i(a+1)) numerator units while a is
// below the step where the fee reaches the cap, the cap on everything past
// it; the fee in tokens is that over FeeDenominator rounded up, and the
// numerator returned is the fee over the input, rounded up.
func rateLimiterFeeNumerator(b *BaseFeeConfig, amount uint64) (uint64, error) {
	cliff, x0 := b.CliffFeeNumerator, b.ThirdFactor
	if amount <= x0 {
		return cliff, nil
	}
	// The program takes no config whose limiter steps by nothing; one read
	// so (another layout, say) is refused, not divided by.
	if x0 == 0 || cliff > MaxFeeNumerator {
		return 0, ErrMathOverflow
	}
	inc := uint64(b.FirstFactor) * (FeeDenominator / 10_000)
	if inc == 0 {
		return 0, ErrMathOverflow
	}
	maxIndex := u64((MaxFeeNumerator - cliff) / inc)
	a, r := new(big.Int).QuoRem(u64(amount-x0), u64(x0), new(big.Int))
	c, i, bx0 := u64(cliff), u64(inc), u64(x0)
	// steps is c + c·n + i·n(n+1)/2: the numerators of the first n+1
	// reference amounts together.
	steps := func(n *big.Int) *big.Int {
		s := new(big.Int).Mul(i, n)
		s.Mul(s, new(big.Int).Add(n, bigOne))
		s.Rsh(s, 1)
		s.Add(s, new(big.Int).Mul(c, n))
		return s.Add(s, c)
	}
	var num *big.Int
	if a.Cmp(maxIndex) < 0 {
		next := new(big.Int).Mul(i, new(big.Int).Add(a, bigOne))
		next.Add(next, c)
		num = new(big.Int).Mul(bx0, steps(a))
		num.Add(num, next.Mul(next, r))
	} else {
		rest := new(big.Int).Sub(a, maxIndex)
		rest.Mul(rest, bx0).Add(rest, r)
		num = new(big.Int).Mul(bx0, steps(maxIndex))
		num.Add(num, rest.Mul(rest, u64(MaxFeeNumerator)))
	}
	fee := mulDiv(num, bigOne, bigFeeDen, true)
	if fee.Cmp(maxU64) > 0 {
		return 0, ErrTypeCastFailed
	}
	n := mulDiv(fee, bigFeeDen, u64(amount), true)
	if n.Cmp(maxU64) > 0 {
		return 0, ErrTypeCastFailed
	}
	return n.Uint64(), nil
}

// limiterExcluded is what an input of amount (fee included) leaves under
// the rate limiter b, its fee taken.
func limiterExcluded(b *BaseFeeConfig, amount uint64) (uint64, error) {
	n, err := rateLimiterFeeNumerator(b, amount)
	if err != nil {
		return 0, err
	}
	net, _ := feeOn(amount, n, false)
	return net, nil
}

// rateLimiterNumeratorOfExcluded is the base fee numerator, under the rate
// limiter b, of the input that leaves excluded once its fee is taken, as
// the program finds it for a partial fill: the cliff fee within the first
// reference amount; else the input is solved from the fee's quadratic
// (i·x² − (2d·x0 + i·x0 − 2c·x0)·x + 2·ex·d·x0 = 0, the smaller root,
// rounded down) up to whole reference amounts, the rest priced at the next
// step's numerator; past the step where the fee reaches the cap, the rest
// at the cap. The numerator returned is the fee over that input, rounded
// up, never under the cliff.
func rateLimiterNumeratorOfExcluded(b *BaseFeeConfig, excluded uint64) (uint64, error) {
	cliff, x0 := b.CliffFeeNumerator, b.ThirdFactor
	refEx, err := limiterExcluded(b, x0)
	if err != nil {
		return 0, err
	}
	if excluded <= refEx {
		return cliff, nil
	}
	inc := uint64(b.FirstFactor) * (FeeDenominator / 10_000)
	if x0 == 0 || inc == 0 || cliff > MaxFeeNumerator {
		return 0, ErrMathOverflow
	}
	maxIndex := (MaxFeeNumerator - cliff) / inc
	checkedIn, overflow := new(big.Int).Mul(u64(maxIndex+1), u64(x0)), false
	if checkedIn.Cmp(maxU64) > 0 {
		checkedIn, overflow = new(big.Int).Set(maxU64), true
	}
	checkedEx, err := limiterExcluded(b, checkedIn.Uint64())
	if err != nil {
		return 0, err
	}
	if excluded == checkedEx {
		return rateLimiterFeeNumerator(b, checkedIn.Uint64())
	}
	var total *big.Int
	if excluded < checkedEx {
		i, bx0, d, c, ex := u64(inc), u64(x0), bigFeeDen, u64(cliff), u64(excluded)
		two := big.NewInt(2)
		// y = 2d·x0 + i·x0 − 2c·x0, z = 2·ex·d·x0
		y := new(big.Int).Mul(two, d)
		y.Add(y, i).Sub(y, new(big.Int).Mul(two, c)).Mul(y, bx0)
		z := new(big.Int).Mul(two, ex)
		z.Mul(z, d).Mul(z, bx0)
		disc := new(big.Int).Mul(y, y)
		disc.Sub(disc, new(big.Int).Mul(z, new(big.Int).Mul(big.NewInt(4), i)))
		if disc.Sign() < 0 {
			return 0, ErrMathOverflow
		}
		in := new(big.Int).Sub(y, new(big.Int).Sqrt(disc))
		in.Quo(in, new(big.Int).Mul(two, i))
		if in.Cmp(maxU64) > 0 {
			return 0, ErrTypeCastFailed
		}
		steps := new(big.Int).Quo(in, bx0)
		firstEx, err := limiterExcluded(b, in.Uint64())
		if err != nil {
			return 0, err
		}
		if firstEx > excluded {
			return 0, ErrMathOverflow
		}
		next := new(big.Int).Add(c, new(big.Int).Mul(i, steps))
		if next.Cmp(maxU64) > 0 {
			return 0, ErrTypeCastFailed
		}
		rest, _, err := includedFeeAmount(next.Uint64(), excluded-firstEx)
		if err != nil {
			return 0, err
		}
		total = in.Add(in, u64(rest))
	} else {
		if overflow {
			return 0, ErrMathOverflow
		}
		rest, _, err := includedFeeAmount(MaxFeeNumerator, excluded-checkedEx)
		if err != nil {
			return 0, err
		}
		total = new(big.Int).Add(u64(rest), checkedIn)
	}
	if total.Cmp(maxU64) > 0 {
		return 0, ErrTypeCastFailed
	}
	fee := new(big.Int).Sub(total, u64(excluded))
	n := mulDiv(fee, bigFeeDen, total, true)
	if n.Cmp(maxU64) > 0 {
		return 0, ErrTypeCastFailed
	}
	if n.Uint64() < cliff {
		return 0, ErrUndetermined
	}
	return n.Uint64(), nil
}
