package ingress

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// fields is a JSON object as wire.DecodeObject holds it (a key in another
// case under its lower-case name). Each accessor reads one field and
// answers a fault with 400 INVALID_REQUEST naming it.
type fields map[string]json.RawMessage

func (f fields) present(name string) bool {
	v, ok := f[name]
	return ok && !bytes.Equal(v, []byte("null"))
}

func (f fields) str(name string) (string, bool, *apierr.Error) {
	if !f.present(name) {
		return "", false, nil
	}
	v := f[name]
	if len(v) == 0 || v[0] != '"' {
		return "", true, apierr.Invalid(name, "%s must be a string", name)
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", true, apierr.Invalid(name, "%s must be a string", name)
	}
	return s, true, nil
}

func (f fields) boolean(name string) (bool, *apierr.Error) {
	if !f.present(name) {
		return false, nil
	}
	switch string(f[name]) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, apierr.Invalid(name, "%s must be a boolean", name)
}

// number returns the literal of a JSON number field, bounded by
// money.CheckNumber: every number of a request passes here before strconv
// or big.Rat sees it, so a literal that spells a huge number (1e-999999,
// 1e400, 60,000 digits) is refused in the time it takes to read its bytes.
func (f fields) number(name string) (string, bool, *apierr.Error) {
	if !f.present(name) {
		return "", false, nil
	}
	v := string(f[name])
	if v == "" || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return "", true, apierr.Invalid(name, "%s must be a number", name)
	}
	if err := money.CheckNumber(v); err != nil {
		return "", true, numberError(name, err)
	}
	if money.NegativeZero(v) {
		// -0 is 0: every field reads it as 0, the fields that must be 0
		// or more included, and no answer echoes it as "-0".
		v = v[1:]
	}
	return v, true, nil
}

// numberError is the answer to a literal money.CheckNumber refused.
func numberError(name string, err error) *apierr.Error {
	if errors.Is(err, money.ErrRange) {
		return apierr.Invalid(name, "%s is beyond what the field can hold (at most %d characters and %d digits either side of the point)",
			name, money.MaxNumberLen, money.MaxNumberDigits)
	}
	return apierr.Invalid(name, "%s must be a number", name)
}

// float returns a JSON number field as a float, for values that are not
// money (percentages, USD bounds).
func (f fields) float(name string) (*float64, *apierr.Error) {
	lit, ok, err := f.number(name)
	if err != nil || !ok {
		return nil, err
	}
	// Read so that its range is checked as it was sent: a plain float
	// would take 100.00000000000000001 for 100.
	v, perr := money.Float(lit)
	if perr != nil {
		return nil, apierr.Invalid(name, "%s must be a finite number", name)
	}
	return &v, nil
}

// whole returns an optional whole-number field of at most bits bits, and
// whether it was present. The literal is bounded like every number before
// strconv reads it. A fraction, an exponent, a sign or an overflow is
// refused with message, which names the field and its unit.
func (f fields) whole(name string, bits int, message string) (uint64, bool, *apierr.Error) {
	if !f.present(name) {
		return 0, false, nil
	}
	lit := string(f[name])
	if len(lit) > money.MaxNumberLen {
		return 0, true, numberError(name, money.ErrRange)
	}
	v, err := strconv.ParseUint(lit, 10, bits)
	if err == nil {
		return v, true, nil
	}
	// A whole number may be written with a fraction or an exponent (1e3,
	// 1000.0); the literal is bounded before any arithmetic.
	r, rerr := money.ParseNumber(lit)
	if rerr == nil && r.IsInt() && r.Sign() >= 0 && r.Num().BitLen() > bits {
		return 0, true, apierr.Invalid(name, "%s is above %d, the most it can hold", name, uint64(1)<<bits-1)
	}
	if rerr != nil || !r.IsInt() || r.Sign() < 0 {
		return 0, true, apierr.Invalid(name, "%s", message)
	}
	return r.Num().Uint64(), true, nil
}

// renamed names a field's fault by its path in the request, where the
// accessor of its object named it by its key alone: the details and the
// message's opening alike.
func renamed(aerr *apierr.Error, key, path string) *apierr.Error {
	aerr.Details = path
	if rest, ok := strings.CutPrefix(aerr.Message, key); ok {
		aerr.Message = path + rest
	}
	return aerr
}

// decodeObject reads body as one JSON object. A field named twice is
// refused, naming it: decoders differ on which of the two they keep, so a
// check in front of the service (a bot's own, a proxy's) could have passed
// another order than the one that would trade.
func decodeObject(body []byte, at string) (fields, *apierr.Error) {
	f, twice, err := wire.DecodeObject(body)
	var ve *wire.ValueError
	switch {
	case errors.Is(err, wire.ErrTrailing):
		return nil, apierr.Invalid("body", "the body must hold exactly one JSON object")
	case errors.As(err, &ve) && at == "":
		// The message names the field; so do the details.
		return nil, apierr.Invalid(ve.Field(), "%v", err)
	case errors.Is(err, wire.ErrMalformed) && at == "":
		return nil, apierr.Invalid("body", "the body is %v", err)
	case err != nil && at == "":
		return nil, apierr.Invalid("body", "the body must be a JSON object")
	case err != nil:
		return nil, apierr.Invalid(at, "%s must be an object", at)
	case twice != "":
		name := twice
		if at != "" {
			name = at + "." + twice
		}
		return nil, wire.Twice(name)
	}
	return f, nil
}
