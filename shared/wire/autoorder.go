package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
)

// MaxAutoOrders is how many auto-orders an order keeps; the spec drops the
// rest silently.
const MaxAutoOrders = 20

// Auto-order types.
const (
	ExitTakeProfit   = "take_profit"
	ExitStopLoss     = "stop_loss"
	ExitTrailingStop = "trailing_stop"
	ExitTime         = "time"
	ExitDevSell      = "dev_sell"
)

// DecodeAutoOrders validates a JSON array of auto-orders, the same way for a
// swap's auto_orders and for the saved Spot strategy. field names the array
// in details ("auto_orders"); entries past MaxAutoOrders are dropped unread.
// A JSON null decodes to nil; an empty array to an empty, non-nil slice.
func DecodeAutoOrders(raw json.RawMessage, field string) ([]AutoOrder, *apierr.Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	items, _, ok := ArrayHead(raw, MaxAutoOrders)
	if !ok {
		return nil, apierr.Invalid(field, "%s must be an array of auto-orders", field)
	}
	out := make([]AutoOrder, 0, len(items))
	for i, item := range items {
		ao, err := decodeAutoOrder(item, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, ao)
	}
	return out, nil
}

func decodeAutoOrder(raw json.RawMessage, at string) (AutoOrder, *apierr.Error) {
	fields, twice, err := DecodeObject(raw)
	if err != nil {
		return AutoOrder{}, apierr.Invalid(at, "%s must be an object", at)
	}
	if twice != "" {
		return AutoOrder{}, Twice(at + "." + twice)
	}
	var ao AutoOrder
	if err := json.Unmarshal(fields["type"], &ao.Type); err != nil || fields["type"] == nil {
		return ao, apierr.Invalid(at+".type", "%s.type is required and must be a string", at)
	}
	trigger, aerr := number(fields, at, "trigger_pct")
	if aerr != nil {
		return ao, aerr
	}
	sell, aerr := number(fields, at, "sell_pct")
	if aerr != nil {
		return ao, aerr
	}
	ao.SellPct = 100
	if sell != nil {
		if *sell < 1 || *sell > 100 {
			return ao, apierr.Invalid(at+".sell_pct", "%s.sell_pct must be between 1 and 100", at)
		}
		ao.SellPct = *sell
	}
	return ao, ao.trigger(fields, at, trigger)
}

// MaxAfterSeconds is the longest a time exit may wait: 30 days. A longer
// wait is refused rather than kept, so that no value can wrap around into
// a time already past and fire at once.
const MaxAfterSeconds = 30 * 24 * 3600

// trigger checks and sets what fires the exit of ao's type.
func (ao *AutoOrder) trigger(fields map[string]json.RawMessage, at string, trigger *float64) *apierr.Error {
	switch ao.Type {
	case ExitTakeProfit:
		if trigger == nil || *trigger <= 0 {
			return apierr.Invalid(at+".trigger_pct", "%s.trigger_pct is required and must be above 0 for take_profit", at)
		}
		ao.TriggerPct = trigger
	case ExitStopLoss, ExitTrailingStop:
		// 0-100, 0 included: a stop at the entry price (or, trailing, at
		// the highest price seen) itself.
		if trigger == nil || *trigger < 0 || *trigger > 100 {
			return apierr.Invalid(at+".trigger_pct", "%s.trigger_pct is required and must be from 0 to 100 for %s", at, ao.Type)
		}
		ao.TriggerPct = trigger
	case ExitTime:
		n, ok := afterSeconds(fields["after_seconds"])
		if !ok {
			return apierr.Invalid(at+".after_seconds", "%s.after_seconds is required and must be a whole number from 1 to %d (30 days) for time", at, MaxAfterSeconds)
		}
		ao.AfterSeconds = &n
	case ExitDevSell:
	default:
		return apierr.Invalid(at+".type", "%s.type must be one of take_profit, stop_loss, trailing_stop, time, dev_sell", at)
	}
	if ao.Type != ExitTime {
		// Not this type's, and ignored, but of its type all the same, as
		// trigger_pct is on a time exit: a bot sending "soon" meant
		// something this exit does not do.
		if _, aerr := number(fields, at, "after_seconds"); aerr != nil {
			return aerr
		}
	}
	return nil
}

// afterSeconds reads a time exit's wait: a whole JSON number from 1 to
// MaxAfterSeconds. The literal's length is bounded before it is parsed.
func afterSeconds(v json.RawMessage) (int64, bool) {
	// A whole number however written (60, 60.0, 6e1).
	n, ok := money.WholeNumber(string(bytes.TrimSpace(v)))
	return n, ok && n > 0 && n <= MaxAfterSeconds
}

// number reads an optional number field of an auto-order. The literal is
// bounded by money.CheckNumber before strconv sees it, so that 1e-999999
// or a 60,000-digit literal is refused as cheaply as 0.5 is read.
func number(fields map[string]json.RawMessage, at, name string) (*float64, *apierr.Error) {
	v, ok := fields[name]
	if !ok || bytes.Equal(v, []byte("null")) {
		return nil, nil
	}
	lit := string(bytes.TrimSpace(v))
	switch err := money.CheckNumber(lit); {
	case errors.Is(err, money.ErrRange):
		return nil, apierr.Invalid(at+"."+name, "%s.%s is beyond what the field can hold (at most %d characters and %d digits either side of the point)",
			at, name, money.MaxNumberLen, money.MaxNumberDigits)
	case err != nil:
		return nil, apierr.Invalid(at+"."+name, "%s.%s must be a number", at, name)
	}
	if money.NegativeZero(lit) {
		lit = lit[1:]
	}
	// Read so that its range is checked as it was sent: a plain float
	// would take 0.99999999999999999 for 1.
	f, err := money.Float(lit)
	if err != nil {
		return nil, apierr.Invalid(at+"."+name, "%s.%s must be a number", at, name)
	}
	return &f, nil
}
