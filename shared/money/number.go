package money

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Bounds of a JSON number literal in a request. Exact arithmetic on a
// literal costs what the number it spells costs, not what its text costs:
// "1e-999999" is nine bytes of valid JSON and a million-digit denominator,
// tens of milliseconds of big.Rat work. Every number field is therefore
// checked against these bounds first, by CheckNumber, in time proportional
// to the literal's few bytes; only a literal within them reaches big.Rat or
// strconv.
const (
	// MaxNumberLen is the longest literal a number field takes.
	MaxNumberLen = 64
	// MaxNumberDigits is how many digits a number may have on either side
	// of its point once written out without an exponent. Any literal of
	// MaxNumberLen characters without an exponent fits, so the bound only
	// ever refuses exponents that move the point further than a plain
	// literal could.
	MaxNumberDigits = 64
)

// maxExponent is where CheckNumber stops reading an exponent's value: far
// enough past MaxNumberLen+MaxNumberDigits that a saturated exponent is
// refused, small enough that no sum below overflows.
const maxExponent = 1 << 20

// CheckNumber checks that lit is a JSON number literal within the bounds
// above, without arithmetic on its value. It fails with ErrSyntax when lit
// is not a JSON number and with ErrRange when it is longer than
// MaxNumberLen or its exponent puts a significant digit more than
// MaxNumberDigits places from the point (1e400, 1e-999999). Zero is within
// the bounds whatever its exponent.
func CheckNumber(lit string) error {
	if len(lit) > MaxNumberLen {
		return ErrRange
	}
	s, err := scanNumber(lit)
	if err != nil {
		return err
	}
	if s.zero {
		return nil
	}
	// The most significant digit sits at 10^top, the least significant
	// non-zero one at 10^bottom.
	if s.top+1 > MaxNumberDigits || -s.bottom > MaxNumberDigits {
		return ErrRange
	}
	return nil
}

// ParseNumber parses a JSON number literal exactly, once CheckNumber has
// found it within the bounds; the arithmetic is then that of a number of
// at most MaxNumberDigits digits on either side of its point.
func ParseNumber(lit string) (*big.Rat, error) {
	if err := CheckNumber(lit); err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		if s, _ := scanNumber(lit); s.zero {
			// A zero whose exponent is beyond what SetString reads
			// (0e99999999999999999999) is zero all the same.
			return new(big.Rat), nil
		}
		return nil, ErrSyntax
	}
	return r, nil
}

// WholeNumber reads a JSON number literal whose value is a whole number
// that an int64 holds, however it is spelled (60, 60.0, 6e1); ok is false
// for anything else: a fraction, a string, a literal out of CheckNumber's
// bounds.
func WholeNumber(lit string) (n int64, ok bool) {
	if CheckNumber(lit) != nil {
		return 0, false
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return n, true
	}
	r, err := ParseNumber(lit)
	if err != nil || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// numberShape is what scanNumber learns of a literal: whether its value is
// zero, and the decimal positions of its most and least significant
// non-zero digits.
type numberShape struct {
	zero        bool
	top, bottom int
}

// scanNumber reads lit by the JSON grammar: an optional minus, an integer
// part, an optional fraction, an optional exponent. It only counts digits.
func scanNumber(lit string) (numberShape, error) {
	_, digits, exp, err := splitNumber(lit)
	if err != nil {
		return numberShape{}, err
	}
	return shapeOf(digits, exp), nil
}

// splitNumber reads lit by the JSON grammar into its sign, its digits
// (the integer part's and the fraction's) and the power of ten of the last
// digit, the exponent saturated (scanExponent).
func splitNumber(lit string) (neg bool, digits string, exp int, err error) {
	i := 0
	if i < len(lit) && lit[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	i = skipDigits(lit, i)
	intEnd := i
	if intEnd == intStart || (lit[intStart] == '0' && intEnd-intStart > 1) {
		return false, "", 0, ErrSyntax
	}
	fracStart, fracEnd := i, i
	if i < len(lit) && lit[i] == '.' {
		fracStart = i + 1
		i = skipDigits(lit, fracStart)
		fracEnd = i
		if fracEnd == fracStart {
			return false, "", 0, ErrSyntax
		}
	}
	exp, i, err = scanExponent(lit, i)
	if err != nil || i != len(lit) {
		return false, "", 0, ErrSyntax
	}
	return neg, lit[intStart:intEnd] + lit[fracStart:fracEnd], exp - (fracEnd - fracStart), nil
}

// Decimal writes a JSON number literal within CheckNumber's bounds as its
// shortest exact decimal, without an exponent ("1e-05" and "0.000010" are
// "0.00001", "-0" is "0"), by moving its digits, not by arithmetic: its
// cost is the literal's few bytes, whatever its exponent. A literal out of
// the bounds is CheckNumber's error.
func Decimal(lit string) (string, error) {
	if err := CheckNumber(lit); err != nil {
		return "", err
	}
	neg, digits, exp, _ := splitNumber(lit)
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "0", nil
	}
	// Trailing zeros move into the exponent: the value is digits×10^exp.
	for digits[len(digits)-1] == '0' {
		digits, exp = digits[:len(digits)-1], exp+1
	}
	var b strings.Builder
	b.Grow(len(digits) + max(exp, -exp) + 3)
	if neg {
		b.WriteByte('-')
	}
	switch point := len(digits) + exp; {
	case exp >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp))
	case point > 0:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(digits)
	}
	return b.String(), nil
}

// scanExponent reads an optional exponent at lit[i:], saturating its value
// at maxExponent, and returns it with the index after it.
func scanExponent(lit string, i int) (int, int, error) {
	if i >= len(lit) || (lit[i] != 'e' && lit[i] != 'E') {
		return 0, i, nil
	}
	i++
	sign := 1
	if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
		if lit[i] == '-' {
			sign = -1
		}
		i++
	}
	start, exp := i, 0
	for ; i < len(lit) && isDigit(lit[i]); i++ {
		exp = min(exp*10+int(lit[i]-'0'), maxExponent)
	}
	if i == start {
		return 0, i, ErrSyntax
	}
	return sign * exp, i, nil
}

// shapeOf places the digit string digits, whose last digit stands at
// 10^exp, on the decimal scale.
func shapeOf(digits string, exp int) numberShape {
	first, last := -1, -1
	for j := 0; j < len(digits); j++ {
		if digits[j] != '0' {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return numberShape{zero: true}
	}
	n := len(digits)
	return numberShape{top: exp + n - 1 - first, bottom: exp + n - 1 - last}
}

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// NegativeZero reports whether lit, a number's literal, is a zero with a
// minus sign (-0, -0.000, -0e5): a reader of money takes it for 0, never
// for a negative amount nor as "-0".
func NegativeZero(lit string) bool {
	if len(lit) < 2 || lit[0] != '-' {
		return false
	}
	for _, c := range lit[1:] {
		switch {
		case c == 'e' || c == 'E':
			return true
		case c != '0' && c != '.':
			return false
		}
	}
	return true
}

// Float reads a JSON number literal within CheckNumber's bounds as the
// nearest float64, except that a value which is not a whole number is
// never read as one: 100.00000000000000001 is the float just above 100, not
// 100, and 0.99999999999999999 the float just below 1. Rounding keeps
// order, so every comparison of the result with a whole number (the 0, 1
// and 100 that bound percentages) is then the comparison of the value
// sent: a field's range is checked as it was written. This holds below
// 2^52, where floats still hold fractions; two fields are compared with
// each other exactly (ParseNumber), not through their floats.
func Float(lit string) (float64, error) {
	if err := CheckNumber(lit); err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return 0, ErrSyntax
	}
	if v != math.Trunc(v) {
		return v, nil
	}
	exact, err := ParseNumber(lit)
	if err != nil {
		return 0, err
	}
	switch exact.Cmp(new(big.Rat).SetFloat64(v)) {
	case 1:
		return math.Nextafter(v, math.Inf(1)), nil
	case -1:
		return math.Nextafter(v, math.Inf(-1)), nil
	}
	return v, nil
}
