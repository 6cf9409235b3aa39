package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/tradeapi/tradeapi/shared/apierr"
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
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, apierr.Invalid(field, "%s must be an array of auto-orders", field)
	}
	if len(items) > MaxAutoOrders {
		items = items[:MaxAutoOrders]
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
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return AutoOrder{}, apierr.Invalid(at, "%s must be an object", at)
	}
	var ao AutoOrder
	if err := json.Unmarshal(fields["type"], &ao.Type); err != nil || fields["type"] == nil {
		return ao, apierr.Invalid(at+".type", "%s.type is required and must be a string", at)
	}
	num := func(name string) (*float64, *apierr.Error) {
		v, ok := fields[name]
		if !ok || bytes.Equal(v, []byte("null")) {
			return nil, nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || !isJSONNumber(v) {
			return nil, apierr.Invalid(at+"."+name, "%s.%s must be a number", at, name)
		}
		return &f, nil
	}
	trigger, aerr := num("trigger_pct")
	if aerr != nil {
		return ao, aerr
	}
	sell, aerr := num("sell_pct")
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
	switch ao.Type {
	case ExitTakeProfit:
		if trigger == nil || *trigger <= 0 {
			return ao, apierr.Invalid(at+".trigger_pct", "%s.trigger_pct is required and must be above 0 for take_profit", at)
		}
		ao.TriggerPct = trigger
	case ExitStopLoss, ExitTrailingStop:
		if trigger == nil || *trigger <= 0 || *trigger > 100 {
			return ao, apierr.Invalid(at+".trigger_pct", "%s.trigger_pct is required and must be above 0 and at most 100 for %s", at, ao.Type)
		}
		ao.TriggerPct = trigger
	case ExitTime:
		v, ok := fields["after_seconds"]
		n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		if !ok || err != nil || n <= 0 {
			return ao, apierr.Invalid(at+".after_seconds", "%s.after_seconds is required and must be a whole number above 0 for time", at)
		}
		ao.AfterSeconds = &n
	case ExitDevSell:
	default:
		return ao, apierr.Invalid(at+".type", "%s.type must be one of take_profit, stop_loss, trailing_stop, time, dev_sell", at)
	}
	return ao, nil
}

// isJSONNumber rejects strings and other JSON values that ParseFloat would
// also accept (such as "Infinity" inside quotes after trimming).
func isJSONNumber(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	c := v[0]
	return c == '-' || (c >= '0' && c <= '9')
}
