package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// capUnit is one fee cap of one family as the admin API takes it: the
// field, the unit it is written in, how many decimals that unit has down
// to the chain's smallest unit, and the largest count of smallest units
// the chain can carry.
type capUnit struct {
	field string
	unit  string // for messages
	// decimals is the number of fractional digits the unit allows: a cap
	// finer than the chain's smallest unit could never be compared exactly
	// with a fee, so it is refused rather than rounded.
	decimals int
	// max is the largest value in smallest units: what the chain's integer
	// holds (u64 lamports on Solana, a 256-bit word on EVM). A larger cap
	// could not be turned into a transaction's field, so it is refused.
	max *big.Int
	// maxDigits is the number of decimal digits of max, compared before any
	// big-number work so that an absurd value costs nothing to refuse.
	maxDigits int
	// slot is where the cap lives in registry.FeeCaps.
	slot func(*registry.FeeCaps) *json.Number
}

// The fee-cap fields of the admin API, in the order they are read, so the
// first bad field of a request is always the same one.
const (
	capPriorityFee  = "max_priority_fee"
	capProcessorTip = "max_processor_tip"
	capJitoTip      = "max_jito_tip"
)

// feeCapUnits are the caps of each family. On Solana every cap is in SOL
// (9 decimals, lamports); on EVM the priority fee is in gwei, which has 9
// decimals down to wei, and the processor tip in the chain's native coin
// (18 decimals). EVM has no bundle relay, so no max_jito_tip.
var feeCapUnits = map[wire.Family][]capUnit{
	wire.FamilySol: {
		newCapUnit(capPriorityFee, "SOL", 9, 64, func(c *registry.FeeCaps) *json.Number { return &c.MaxPriorityFee }),
		newCapUnit(capProcessorTip, "SOL", 9, 64, func(c *registry.FeeCaps) *json.Number { return &c.MaxProcessorTip }),
		newCapUnit(capJitoTip, "SOL", 9, 64, func(c *registry.FeeCaps) *json.Number { return &c.MaxJitoTip }),
	},
	wire.FamilyEVM: {
		newCapUnit(capPriorityFee, "gwei", 9, 256, func(c *registry.FeeCaps) *json.Number { return &c.MaxPriorityFee }),
		newCapUnit(capProcessorTip, "the chain's native coin", 18, 256, func(c *registry.FeeCaps) *json.Number { return &c.MaxProcessorTip }),
	},
}

// newCapUnit builds a table entry, working out its bounds once at start so
// that parsing a request never computes them.
func newCapUnit(field, unit string, decimals, bits int, slot func(*registry.FeeCaps) *json.Number) capUnit {
	// 2^bits - 1: the largest unsigned integer of that width.
	largest := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	return capUnit{field: field, unit: unit, decimals: decimals, max: largest, maxDigits: len(largest.String()), slot: slot}
}

// Bounds of a fee cap's literal. Both are checked before any arithmetic,
// so a request cannot make the parser do work in proportion to a number it
// writes in a few bytes (1e-999999 would otherwise build a million-digit
// power of ten).
const (
	// maxCapLiteral is far more than the longest useful value (a 256-bit
	// count of wei written in ETH with all 18 decimals is under 80).
	maxCapLiteral = 100
	// maxCapExpDigits bounds the exponent to four digits: any exponent
	// past 9999 is beyond what every field can hold.
	maxCapExpDigits = 4
)

// Why a cap's literal is refused. Sentinels, so that a refusal allocates
// nothing and costs less than parsing a plain number.
var (
	errCapSyntax    = errors.New("not a plain number")
	errCapLength    = errors.New("too long")
	errCapNegative  = errors.New("negative")
	errCapExponent  = errors.New("exponent out of range")
	errCapPrecision = errors.New("too many decimal places")
	errCapRange     = errors.New("too large")
)

// parseCap reads a cap's literal, a JSON number or (withExponent false) a
// plain decimal string, into the chain's smallest units, exactly: no float
// ever holds it, and nothing is rounded.
func parseCap(lit string, withExponent bool, u capUnit) (*big.Int, error) {
	if lit == "" {
		return nil, errCapSyntax
	}
	if len(lit) > maxCapLiteral {
		return nil, errCapLength
	}
	// A cap below zero would refuse every fee; it is named as what it
	// is rather than as bad syntax. -0 is 0.
	if money.NegativeZero(lit) {
		lit = lit[1:]
	}
	if lit[0] == '-' {
		return nil, errCapNegative
	}
	mant, exp, expNeg, err := splitExponent(lit, withExponent)
	if err != nil {
		return nil, err
	}
	intPart, frac, ok := splitMantissa(mant)
	if !ok {
		return nil, errCapSyntax
	}
	if allZeros(intPart) && allZeros(frac) {
		// Zero is zero whatever its exponent: 0e400 is a valid cap of 0.
		return new(big.Int), nil
	}
	// The exponent's size is judged by its digit count alone, before it
	// is even converted: nothing here grows with the exponent's value.
	if len(exp) > maxCapExpDigits {
		return nil, errCapExponent
	}
	return scaleCap(intPart, frac, smallInt(exp, expNeg)-len(frac)+u.decimals, u)
}

// splitExponent separates a literal's exponent ("1e-7" gives "1", "7" and
// true). The exponent must be an optional sign and digits; its leading
// zeros are dropped so that its length measures its size.
func splitExponent(lit string, allowed bool) (mant, exp string, neg bool, err error) {
	i := strings.IndexAny(lit, "eE")
	if i < 0 {
		return lit, "", false, nil
	}
	if !allowed {
		return "", "", false, errCapSyntax
	}
	mant, exp = lit[:i], lit[i+1:]
	if exp != "" && (exp[0] == '+' || exp[0] == '-') {
		neg, exp = exp[0] == '-', exp[1:]
	}
	if exp == "" || !allDigits(exp) {
		return "", "", false, errCapSyntax
	}
	return mant, strings.TrimLeft(exp, "0"), neg, nil
}

// splitMantissa checks a plain decimal ("12", "0.5"; not ".5" or "5.")
// and returns its integer and fraction digits.
func splitMantissa(s string) (intPart, frac string, ok bool) {
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || (hasDot && frac == "") {
		return "", "", false
	}
	return intPart, frac, allDigits(intPart) && allDigits(frac)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allZeros(s string) bool { return strings.Trim(s, "0") == "" }

// smallInt reads an exponent's digits that parseCap has bounded to
// maxCapExpDigits, so the value cannot overflow.
func smallInt(digits string, neg bool) int {
	n := 0
	for i := 0; i < len(digits); i++ {
		n = n*10 + int(digits[i]-'0')
	}
	if neg {
		return -n
	}
	return n
}

// scaleCap turns the digits of intPart.frac times 10^shift into an
// integer of smallest units, refusing a value finer than one smallest unit
// or larger than the chain's integer. Both refusals are decided by
// counting digits, before any string or number is built.
func scaleCap(intPart, frac string, shift int, u capUnit) (*big.Int, error) {
	n, trailing := digitCounts(intPart, frac)
	// Only trailing zeros may be dropped: anything else is a fraction of
	// the smallest unit.
	if shift < 0 && trailing < -shift {
		return nil, errCapPrecision
	}
	// A value with more digits than max is too large.
	if n+shift > u.maxDigits {
		return nil, errCapRange
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if shift < 0 {
		digits, shift = digits[:len(digits)+shift], 0
	}
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, errCapSyntax
	}
	if shift > 0 {
		v.Mul(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(shift)), nil))
	}
	if v.Cmp(u.max) > 0 {
		return nil, errCapRange
	}
	return v, nil
}

// digitCounts counts the significant digits of intPart.frac (leading zeros
// dropped; the number is not zero) and how many of them are trailing zeros,
// without joining the two strings.
func digitCounts(intPart, frac string) (n, trailing int) {
	if i := strings.TrimLeft(intPart, "0"); i != "" {
		n = len(i) + len(frac)
	} else {
		n = len(strings.TrimLeft(frac, "0"))
	}
	if f := strings.TrimRight(frac, "0"); f != "" {
		return n, len(frac) - len(f)
	}
	return n, len(frac) + len(intPart) - len(strings.TrimRight(intPart, "0"))
}

// capError turns a refusal into the admin API's 400, naming the field and
// saying what the field accepts.
func capError(u capUnit, err error) *apierr.Error {
	switch {
	case errors.Is(err, errCapNegative):
		return apierr.Invalid(u.field, "%s must be 0 or more", u.field)
	case errors.Is(err, errCapLength):
		return apierr.Invalid(u.field, "%s is longer than %d characters", u.field, maxCapLiteral)
	case errors.Is(err, errCapExponent):
		return apierr.Invalid(u.field, "%s has an exponent beyond what the field can hold", u.field)
	case errors.Is(err, errCapPrecision):
		return apierr.Invalid(u.field, "%s allows at most %d decimal places of %s", u.field, u.decimals, u.unit)
	case errors.Is(err, errCapRange):
		return apierr.Invalid(u.field, "%s is too large: at most %s %s", u.field, money.Format(u.max, u.decimals), u.unit)
	}
	return apierr.Invalid(u.field, "%s must be a number of %s (0 or more) or a decimal string", u.field, u.unit)
}

// feeCap reads one cap of a PUT body: a JSON number, or a decimal string
// for clients that keep money out of floats. It returns the canonical
// decimal (no exponent, no trailing zeros) that is stored and published,
// so every reader parses the same plain text; nil when the field is
// absent or null.
func (o object) feeCap(u capUnit) (*json.Number, error) {
	raw, ok := o.get(u.field)
	if !ok {
		return nil, nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, capError(u, errCapSyntax)
	}
	var lit string
	withExponent := true
	// The literal is judged by its first byte: JSON allows nothing else
	// before a string or a number, and the object was valid JSON.
	switch {
	case raw[0] == '"':
		// A decimal string follows the API's rule for decimal strings: no
		// exponent, and nothing but the number (as a swap's amount).
		if err := json.Unmarshal(raw, &lit); err != nil {
			return nil, capError(u, errCapSyntax)
		}
		withExponent = false
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		lit = string(raw)
	default:
		return nil, capError(u, errCapSyntax)
	}
	v, err := parseCap(lit, withExponent, u)
	if err != nil {
		return nil, capError(u, err)
	}
	// Formatted back from the exact integer: 1e-3, "0.0010" and 0.001 all
	// store as 0.001, so equal caps always compare equal as text.
	n := json.Number(money.Format(v, u.decimals))
	return &n, nil
}

// feeCapsPatch holds the caps a PUT gives, canonical, by field; a field it
// does not hold keeps its current value.
type feeCapsPatch map[string]json.Number

// feeCapsPatch reads the caps of a family from a PUT body. A field of the
// other family is refused rather than ignored: max_jito_tip on EVM would
// otherwise look saved while bounding nothing.
func (o object) feeCapsPatch(f wire.Family) (feeCapsPatch, error) {
	if _, ok := o.get(capJitoTip); ok && f == wire.FamilyEVM {
		return nil, apierr.Invalid(capJitoTip, "%s is Solana only: the EVM side pays no bundle relay tip", capJitoTip)
	}
	names := make([]string, 0, len(feeCapUnits[f]))
	for _, u := range feeCapUnits[f] {
		names = append(names, u.field)
	}
	// A cap's name misspelt beside a right one would be answered 200 with
	// that cap unchanged, the operator believing it set: a field named
	// like a cap that is none is refused. Other unknown fields are ignored,
	// as everywhere.
	for _, k := range slices.Sorted(maps.Keys(o)) {
		_, given := o.get(k) // null is not given, as everywhere
		if lk := strings.ToLower(k); given && strings.HasPrefix(lk, "max_") && !slices.Contains(names, lk) {
			return nil, apierr.Invalid(k, "%s is not a fee cap of this family: its caps are %s", k, strings.Join(names, ", "))
		}
	}
	p := feeCapsPatch{}
	// In the table's order, so the first bad field of a request is always
	// the same one, whatever order the client wrote them in.
	for _, u := range feeCapUnits[f] {
		v, err := o.feeCap(u)
		if err != nil {
			return nil, err
		}
		if v != nil {
			p[u.field] = *v
		}
	}
	if len(p) == 0 {
		// Unknown fields are ignored, so a misspelt cap would otherwise be
		// answered 200 with nothing changed.
		// The message lists the family's fields, so a caller sees at once
		// which name it got wrong.
		return nil, apierr.Invalid(capPriorityFee, "give at least one of %s", strings.Join(names, ", "))
	}
	return p, nil
}

// apply writes the patch over caps.
func (p feeCapsPatch) apply(f wire.Family, caps *registry.FeeCaps) {
	// Through the family's table, so only the fields the family has can
	// be written, whatever the patch holds.
	for _, u := range feeCapUnits[f] {
		if v, ok := p[u.field]; ok {
			*u.slot(caps) = v
		}
	}
}

// feeCaps returns an account's effective caps of a family: those the admin
// API set, else the defaults.
func (a *accountRecord) feeCaps(f wire.Family) registry.FeeCaps {
	if c, ok := a.FeeCaps[f]; ok {
		return c
	}
	return registry.DefaultFeeCaps(f)
}

// feeCapsView lists the effective caps of every family, for the account
// answer: an operator sees what ingress enforces, defaults included.
func feeCapsView(rec *accountRecord) map[wire.Family]registry.FeeCaps {
	out := make(map[wire.Family]registry.FeeCaps, len(registry.Families))
	for _, f := range registry.Families {
		out[f] = rec.feeCaps(f)
	}
	return out
}

// feeCapsDoc lists the caps the admin API set, for the read model, where
// a family left out means the defaults (see registry.AccountDoc): the
// defaults then stay in one place, the registry package.
func feeCapsDoc(rec *accountRecord) map[wire.Family]registry.FeeCaps {
	// nil rather than an empty map, so the document of an account with no
	// caps set has no fee_caps at all (omitempty).
	if len(rec.FeeCaps) == 0 {
		return nil
	}
	// A copy: the document must not share the record's map, which a
	// later change would then alter under it.
	return maps.Clone(rec.FeeCaps)
}

// setFeeCaps stores a family's caps with the patch applied over the
// current ones, and waits for the read model, so that the answer means
// every ingress is about to enforce them.
func (r *Registry) setFeeCaps(ctx context.Context, accountID string, f wire.Family, p feeCapsPatch) (registry.FeeCaps, error) {
	var out registry.FeeCaps
	_, err := r.store.updateAccount(accountID, func(rec *accountRecord) error {
		// The whole family is stored, not only the fields given: a reader
		// takes a family's caps from the record or the defaults, never a
		// mix of both.
		caps := rec.feeCaps(f)
		p.apply(f, &caps)
		if rec.FeeCaps == nil {
			rec.FeeCaps = map[wire.Family]registry.FeeCaps{}
		}
		rec.FeeCaps[f] = caps
		out = caps
		return nil
	})
	if err != nil {
		return out, err
	}
	// The values are logged: caps are limits, not secrets, and a log line
	// is how an operator later finds out when a cap changed.
	r.log.Info("fee caps set", "account", accountID, "family", f, "max_priority_fee", out.MaxPriorityFee,
		"max_processor_tip", out.MaxProcessorTip, "max_jito_tip", out.MaxJitoTip)
	r.published(ctx, r.pub.mark(accountItem(accountID)))
	return out, nil
}

// feeCapsAnswer is the answer of PUT .../fee_caps: the family and its
// effective caps.
type feeCapsAnswer struct {
	Family wire.Family `json:"family"`
	registry.FeeCaps
}

// handlePutFeeCaps answers PUT /admin/v1/accounts/:id/fee_caps. The body
// is checked whole before the store is touched, so a refused request
// changes nothing.
func (r *Registry) handlePutFeeCaps(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	f, err := o.family()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// The family decides which fields exist and in what unit, so it is
	// read first.
	p, err := o.feeCapsPatch(f)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// An unknown account is found here, after the body passed: the same
	// order as every other route, 400 before 404.
	caps, err := r.setFeeCaps(c.Request.Context(), c.Param("id"), f, p)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, feeCapsAnswer{Family: f, FeeCaps: caps})
}
