package money

import "math/big"

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
		return nil, ErrSyntax
	}
	return r, nil
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
	i := 0
	if i < len(lit) && lit[i] == '-' {
		i++
	}
	intStart := i
	i = skipDigits(lit, i)
	intEnd := i
	if intEnd == intStart || (lit[intStart] == '0' && intEnd-intStart > 1) {
		return numberShape{}, ErrSyntax
	}
	fracStart, fracEnd := i, i
	if i < len(lit) && lit[i] == '.' {
		fracStart = i + 1
		i = skipDigits(lit, fracStart)
		fracEnd = i
		if fracEnd == fracStart {
			return numberShape{}, ErrSyntax
		}
	}
	exp, i, err := scanExponent(lit, i)
	if err != nil || i != len(lit) {
		return numberShape{}, ErrSyntax
	}
	return shapeOf(lit[intStart:intEnd]+lit[fracStart:fracEnd], exp-(fracEnd-fracStart)), nil
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
