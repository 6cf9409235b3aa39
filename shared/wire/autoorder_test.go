package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

func TestDecodeAutoOrdersRefusals(t *testing.T) {
	tests := []struct {
		name, body, details string
	}{
		{"after_seconds above 30 days", `[{"type":"time","after_seconds":2592001}]`, "auto_orders[0].after_seconds"},
		{"after_seconds past int64", `[{"type":"time","after_seconds":9223372036854775808}]`, "auto_orders[0].after_seconds"},
		{"after_seconds exponent above 30 days", `[{"type":"time","after_seconds":1e7}]`, "auto_orders[0].after_seconds"},
		{"after_seconds exponent not whole", `[{"type":"time","after_seconds":15e-1}]`, "auto_orders[0].after_seconds"},
		{"after_seconds huge exponent", `[{"type":"dev_sell"},{"type":"time","after_seconds":1e999999}]`, "auto_orders[1].after_seconds"},
		{"after_seconds long digits", `[{"type":"time","after_seconds":` + strings.Repeat("1", 70) + `}]`, "auto_orders[0].after_seconds"},
		{"after_seconds zero", `[{"type":"time","after_seconds":0}]`, "auto_orders[0].after_seconds"},
		{"after_seconds missing", `[{"type":"time"}]`, "auto_orders[0].after_seconds"},
		{"trigger tiny exponent", `[{"type":"take_profit","trigger_pct":1e-999999}]`, "auto_orders[0].trigger_pct"},
		{"trigger huge exponent", `[{"type":"take_profit","trigger_pct":1e400}]`, "auto_orders[0].trigger_pct"},
		{"trigger beyond the field", `[{"type":"take_profit","trigger_pct":1e300}]`, "auto_orders[0].trigger_pct"},
		{"trigger long digits", `[{"type":"take_profit","trigger_pct":` + strings.Repeat("9", 65) + `}]`, "auto_orders[0].trigger_pct"},
		{"trigger string", `[{"type":"take_profit","trigger_pct":"5"}]`, "auto_orders[0].trigger_pct"},
		{"sell_pct tiny exponent", `[{"type":"dev_sell","sell_pct":1e-999999}]`, "auto_orders[0].sell_pct"},
		{"sell_pct above 100", `[{"type":"dev_sell","sell_pct":100.5}]`, "auto_orders[0].sell_pct"},
		// Past a bound by less than a float can tell, read as sent.
		{"sell_pct a hair under 1", `[{"type":"dev_sell","sell_pct":0.99999999999999999}]`, "auto_orders[0].sell_pct"},
		{"sell_pct a hair over 100", `[{"type":"dev_sell","sell_pct":100.00000000000000001}]`, "auto_orders[0].sell_pct"},
		{"stop a hair over 100", `[{"type":"stop_loss","trigger_pct":100.00000000000000001}]`, "auto_orders[0].trigger_pct"},
		{"stop a hair under 0", `[{"type":"stop_loss","trigger_pct":-0.00000000000000000001}]`, "auto_orders[0].trigger_pct"},
		{"stop above 100", `[{"type":"stop_loss","trigger_pct":101}]`, "auto_orders[0].trigger_pct"},
		{"stop below 0", `[{"type":"stop_loss","trigger_pct":-0.1}]`, "auto_orders[0].trigger_pct"},
		{"trailing below 0", `[{"type":"trailing_stop","trigger_pct":-1}]`, "auto_orders[0].trigger_pct"},
		{"take profit at 0", `[{"type":"take_profit","trigger_pct":0}]`, "auto_orders[0].trigger_pct"},
		// Another type's field, ignored, but of its type all the same.
		{"after_seconds a string on take_profit", `[{"type":"take_profit","trigger_pct":500,"after_seconds":"soon"}]`, "auto_orders[0].after_seconds"},
		{"after_seconds huge exponent on dev_sell", `[{"type":"dev_sell","after_seconds":1e999999}]`, "auto_orders[0].after_seconds"},
		{"trigger_pct a string on time", `[{"type":"time","after_seconds":60,"trigger_pct":"x"}]`, "auto_orders[0].trigger_pct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, aerr := DecodeAutoOrders([]byte(tt.body), "auto_orders")
			if aerr == nil {
				t.Fatal("accepted")
			}
			if aerr.Code != apierr.InvalidRequest || aerr.Status() != 400 || aerr.Details != tt.details {
				t.Fatalf("got %s %d details %q (%s), want INVALID_REQUEST 400 %q", aerr.Code, aerr.Status(), aerr.Details, aerr.Message, tt.details)
			}
		})
	}
}

func TestDecodeAutoOrdersAccepts(t *testing.T) {
	aos, aerr := DecodeAutoOrders([]byte(`[{"type":"time","after_seconds":2592000},{"type":"take_profit","trigger_pct":25e-1,"sell_pct":50,"after_seconds":-7},{"type":"dev_sell","after_seconds":null}]`), "strategy")
	if aerr != nil {
		t.Fatal(aerr)
	}
	if len(aos) != 3 || *aos[0].AfterSeconds != MaxAfterSeconds || *aos[1].TriggerPct != 2.5 || aos[1].SellPct != 50 || aos[2].SellPct != 100 {
		t.Fatalf("decoded %+v", aos)
	}
	// A stop loss and a trailing stop take 0 to 100, both ends included.
	aos, aerr = DecodeAutoOrders([]byte(`[{"type":"stop_loss","trigger_pct":0},{"type":"trailing_stop","trigger_pct":0},{"type":"stop_loss","trigger_pct":100}]`), "auto_orders")
	if aerr != nil {
		t.Fatal(aerr)
	}
	if len(aos) != 3 || aos[0].TriggerPct == nil || *aos[0].TriggerPct != 0 || *aos[1].TriggerPct != 0 || *aos[2].TriggerPct != 100 {
		t.Fatalf("decoded %+v", aos)
	}
	if b, err := json.Marshal(aos[0]); err != nil || !strings.Contains(string(b), `"trigger_pct":0`) {
		t.Fatalf("a stop at 0 encodes as %s, %v", b, err)
	}
}

// TestAfterSecondsMessage names the bound, so a bot's author sees what to
// send instead.
func TestAfterSecondsMessage(t *testing.T) {
	_, aerr := DecodeAutoOrders([]byte(`[{"type":"time","after_seconds":2592001}]`), "auto_orders")
	if aerr == nil || !strings.Contains(aerr.Message, "2592000") {
		t.Fatalf("message %v does not name the 30-day bound", aerr)
	}
}

// TestAutoOrderFieldTwice: an auto-order naming a field twice is refused
// naming it, as every request object is.
func TestAutoOrderFieldTwice(t *testing.T) {
	_, err := DecodeAutoOrders(json.RawMessage(`[{"type":"stop_loss","trigger_pct":5,"trigger_pct":95}]`), "auto_orders")
	if err == nil || err.Details != "auto_orders[0].trigger_pct" {
		t.Fatalf("%v, want auto_orders[0].trigger_pct refused", err)
	}
}

// TestDecodeObject: one object (only the top level read), a key in
// another case read as the field it names; a key twice named, in any
// case, as decoders that match names in any case read them; an array, a
// scalar or more after the object refused.
func TestDecodeObject(t *testing.T) {
	if f, twice, err := DecodeObject([]byte(` {"a":1,"B":[{"a":2,"a":3}],"MAX_TAX":0,"ſlippage":5} `)); err != nil || twice != "" ||
		len(f) != 4 || f["b"] == nil || string(f["max_tax"]) != "0" || string(f["slippage"]) != "5" {
		t.Fatalf("%v %q %v", f, twice, err)
	}
	for body, want := range map[string]string{`{"a":1,"b":2,"a":1}`: "a", `{"amount":"0.5","AMOUNT":"0.001"}`: "AMOUNT",
		`{"Amount":"0.5","amount":"0.001"}`: "amount", `{"side":1,"SIDE":2}`: "SIDE", `{"kind":1,"Kind":2}`: "Kind",
		`{"class":1,"claſs":2}`: "claſs", `{"Kind":1,"x":2,"kIND":3}`: "kIND",
		// The empty key given twice is named too: an empty name would read
		// as no key given twice, and the object as empty.
		`{"mayhem":true,"":0,"":0}`: `""`} {
		if _, twice, err := DecodeObject([]byte(body)); err != nil || twice != want {
			t.Errorf("%s: twice %q %v, want %q", body, twice, err, want)
		}
	}
	if f, twice, err := DecodeObject([]byte(`{"ab":1,"aB2":2,"a_b":3}`)); err != nil || twice != "" || len(f) != 3 {
		t.Fatalf("keys that differ in more than case: %v %q %v", f, twice, err)
	}
	for body, want := range map[string]error{`[]`: ErrNotObject, `1`: ErrNotObject, `null`: ErrNotObject, `{"a":`: ErrNotObject,
		`{} {}`: ErrTrailing, `{}x`: ErrTrailing} {
		if _, _, err := DecodeObject([]byte(body)); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", body, err, want)
		}
	}
}
