package solana

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
)

// parseLamports reads an integer count of lamports; empty means zero.
func parseLamports(field, s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	if !isDigits(s) {
		return 0, apierr.Invalid(field, "%s must be an integer number of lamports", field)
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, apierr.Invalid(field, "%s is out of range", field)
	}
	return v, nil
}

// parseUnits reads a decimal amount of asset (at most decimals fractional
// digits) in its base units: lamports for SOL.
func parseUnits(field, s, asset string, decimals int) (uint64, error) {
	v, err := money.ParseUnits(s, decimals)
	if err != nil {
		return 0, apierr.Invalid(field, "%s must be a positive decimal amount of %s with at most %d decimals", field, asset, decimals)
	}
	if !v.IsUint64() {
		return 0, apierr.Invalid(field, "%s is out of range", field)
	}
	return v.Uint64(), nil
}

// parseDecimal reads a non-negative decimal string without sign or exponent
// and returns its integer and fractional digits.
func parseDecimal(s string) (whole, frac string, ok bool) {
	whole, frac, dot := strings.Cut(s, ".")
	if !isDigits(whole) || (dot && !isDigits(frac)) {
		return "", "", false
	}
	return whole, frac, true
}

// percentOf returns floor(balance * percent / 100) for a decimal percent
// string in (0, 100], computed exactly; a bad percent is refused naming
// field.
func percentOf(field string, balance uint64, percent string) (uint64, error) {
	whole, frac, ok := parseDecimal(percent)
	if !ok {
		return 0, apierr.Invalid(field, "percent %q is not a decimal number", percent)
	}
	p, ok := new(big.Rat).SetString(whole + "." + frac + "0")
	if !ok || p.Sign() <= 0 || p.Cmp(big.NewRat(100, 1)) > 0 {
		return 0, apierr.Invalid(field, "percent %q must be above 0 and at most 100", percent)
	}
	v := new(big.Rat).Mul(p, new(big.Rat).SetUint64(balance))
	v.Quo(v, big.NewRat(100, 1))
	// v is at most balance, so the floor fits in a uint64.
	return new(big.Int).Quo(v.Num(), v.Denom()).Uint64(), nil
}

// scaleTokens returns a decimal token quantity in base units of a mint with
// decimals; more fractional digits than decimals is invalid, never rounded.
// ok reports whether the quantity fits in a uint64; a larger quantity is
// above any balance. A bad quantity is refused naming field.
func scaleTokens(field, amount string, decimals uint8) (v uint64, fits bool, err error) {
	whole, frac, ok := parseDecimal(amount)
	if !ok {
		return 0, false, apierr.Invalid(field, "token amount %q is not a decimal number", amount)
	}
	if len(frac) > int(decimals) {
		return 0, false, apierr.Invalid(field, "token amount %q has more than %d decimals", amount, decimals)
	}
	digits := strings.TrimLeft(whole+frac+strings.Repeat("0", int(decimals)-len(frac)), "0")
	if digits == "" {
		return 0, false, apierr.Invalid(field, "token amount must be above 0")
	}
	v, perr := strconv.ParseUint(digits, 10, 64)
	if perr != nil {
		return 0, false, nil
	}
	return v, true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
