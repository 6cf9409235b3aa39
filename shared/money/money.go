// Package money parses and formats exact amounts. Amounts travel as decimal
// strings in whole units and as integers in base units; a float never
// carries money.
package money

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Errors returned by the parsers.
var (
	ErrSyntax    = errors.New("not a plain decimal number")
	ErrNotPos    = errors.New("must be greater than zero")
	ErrPrecision = errors.New("too many fractional digits")
	ErrRange     = errors.New("out of range")
	// ErrTooLong is a decimal string longer than MaxDecimalLen.
	ErrTooLong = errors.New("too long")
)

var pow10 [40]*big.Int

func init() {
	p := big.NewInt(1)
	for i := range pow10 {
		pow10[i] = new(big.Int).Set(p)
		p.Mul(p, big.NewInt(10))
	}
}

// Pow10 returns 10^n, n ≥ 0: from a table for n < 40, else computed (a
// token's decimals, read from a chain, can be up to 255). The result must
// not be modified.
func Pow10(n int) *big.Int {
	if n < len(pow10) {
		return pow10[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// MaxDecimalLen bounds a decimal string's length: far past any amount,
// and short enough that its arithmetic costs nothing.
const MaxDecimalLen = 80

// splitDecimal checks a plain decimal ("12", "0.5", ".5" is refused) and
// returns its integer and fraction digits.
func splitDecimal(s string) (intPart, frac string, err error) {
	if len(s) > MaxDecimalLen {
		return "", "", ErrTooLong
	}
	if s == "" {
		return "", "", ErrSyntax
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || (hasDot && frac == "") {
		return "", "", ErrSyntax
	}
	for _, part := range [2]string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return "", "", ErrSyntax
			}
		}
	}
	return intPart, frac, nil
}

// ParseUnits parses a positive decimal string in whole units into base
// units with the given number of decimals: ParseUnits("1.5", 9) is
// 1500000000. No sign, no exponent, no more than decimals fractional digits
// (trailing zeros count: "1.0000000000" has ten, too many for 9).
func ParseUnits(s string, decimals int) (*big.Int, error) {
	intPart, frac, err := splitDecimal(s)
	if err != nil {
		return nil, err
	}
	if len(frac) > decimals {
		return nil, fmt.Errorf("%w: at most %d", ErrPrecision, decimals)
	}
	digits := intPart + frac + strings.Repeat("0", decimals-len(frac))
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, ErrSyntax
	}
	if v.Sign() <= 0 {
		return nil, ErrNotPos
	}
	return v, nil
}

// ParseRat parses a positive plain decimal string exactly.
func ParseRat(s string) (*big.Rat, error) {
	if _, _, err := splitDecimal(s); err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, ErrSyntax
	}
	if r.Sign() <= 0 {
		return nil, ErrNotPos
	}
	return r, nil
}

// NumberUnits turns a JSON number literal (which may carry an exponent) in
// whole units into base units, rounding half up to the nearest base unit.
// Negative numbers are refused with ErrRange; zero is allowed. The literal
// is bounded by CheckNumber before any arithmetic, so 1e-999999 costs what
// 0.5 costs.
func NumberUnits(lit string, decimals int) (*big.Int, error) {
	return numberUnits(lit, decimals, false)
}

// NumberUnitsUp is NumberUnits rounding up to the next base unit: a fee
// held to an integer cap in base units is then above the cap exactly when
// the number is, by however small a fraction.
func NumberUnitsUp(lit string, decimals int) (*big.Int, error) {
	return numberUnits(lit, decimals, true)
}

// numberUnits scales lit to base units, rounding half up, or up when up.
func numberUnits(lit string, decimals int, up bool) (*big.Int, error) {
	if lit != "" && lit[0] == '-' {
		return nil, ErrRange
	}
	r, err := ParseNumber(lit)
	if err != nil {
		return nil, err
	}
	r.Mul(r, new(big.Rat).SetInt(Pow10(decimals)))
	if !up {
		// Round half up: floor(r + 1/2).
		r.Add(r, big.NewRat(1, 2))
	}
	out, rest := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if up && rest.Sign() > 0 {
		out.Add(out, big.NewInt(1))
	}
	if out.BitLen() > 256 {
		return nil, ErrRange
	}
	return out, nil
}

// Format writes base units as a decimal string in whole units, without
// trailing zeros: Format(1500000000, 9) is "1.5".
func Format(v *big.Int, decimals int) string {
	neg := v.Sign() < 0
	s := new(big.Int).Abs(v).String()
	if decimals > 0 {
		if len(s) <= decimals {
			s = strings.Repeat("0", decimals-len(s)+1) + s
		}
		s = s[:len(s)-decimals] + "." + s[len(s)-decimals:]
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if neg {
		s = "-" + s
	}
	return s
}
