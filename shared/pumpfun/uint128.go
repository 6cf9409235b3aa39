package pumpfun

import (
	"math/big"
	"math/bits"
)

// Uint128 is an unsigned 128-bit integer, the type of a fee tier's market-cap
// threshold and of a market cap in lamports.
type Uint128 struct {
	Hi, Lo uint64
}

// U128 returns v as a Uint128.
func U128(v uint64) Uint128 { return Uint128{Lo: v} }

// Cmp returns -1, 0 or +1 as a is below, equal to or above b.
func (a Uint128) Cmp(b Uint128) int {
	switch {
	case a.Hi < b.Hi:
		return -1
	case a.Hi > b.Hi:
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// IsZero reports whether a is zero.
func (a Uint128) IsZero() bool { return a.Hi == 0 && a.Lo == 0 }

// Big returns a as a big.Int.
func (a Uint128) Big() *big.Int {
	v := new(big.Int).SetUint64(a.Hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(a.Lo))
}

// String returns a in decimal.
func (a Uint128) String() string { return a.Big().String() }

// Uint128FromBig returns v as a Uint128; ok is false when v is negative or
// does not fit in 128 bits.
func Uint128FromBig(v *big.Int) (u Uint128, ok bool) {
	if v.Sign() < 0 || v.BitLen() > 128 {
		return Uint128{}, false
	}
	lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0)))
	hi := new(big.Int).Rsh(v, 64)
	return Uint128{Hi: hi.Uint64(), Lo: lo.Uint64()}, true
}

// mulDiv128 returns floor(a*b/c) as 128 bits; c must not be zero.
func mulDiv128(a, b, c uint64) Uint128 {
	hi, lo := bits.Mul64(a, b)
	qHi := hi / c
	qLo, _ := bits.Div64(hi%c, lo, c)
	return Uint128{Hi: qHi, Lo: qLo}
}

// mulDiv returns floor(a*b/c); ok is false when c is zero or the quotient
// does not fit in 64 bits.
func mulDiv(a, b, c uint64) (q uint64, ok bool) {
	if c == 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return 0, false
	}
	q, _ = bits.Div64(hi, lo, c)
	return q, true
}

// mulDivCeil returns ceil(a*b/c); ok is false when c is zero or the quotient
// does not fit in 64 bits.
func mulDivCeil(a, b, c uint64) (q uint64, ok bool) {
	if c == 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, c)
	if r != 0 {
		if q == ^uint64(0) {
			return 0, false
		}
		q++
	}
	return q, true
}
