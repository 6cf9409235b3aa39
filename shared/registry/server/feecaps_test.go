package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestAdminFeeCapsValidation(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	path := "/admin/v1/accounts/" + acc + "/fee_caps"
	long := "0." + strings.Repeat("0", 99)

	runAdminCases(t, tr, []adminCase{
		{name: "sol all three", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":0.05,"max_processor_tip":"0.2","max_jito_tip":0}`, status: 200},
		{name: "sol family upper case", method: "PUT", path: path, body: `{"family":"SOL","max_priority_fee":1}`, status: 200},
		{name: "sol exponent", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":1e-3}`, status: 200},
		{name: "sol zero with a huge exponent", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":0e400}`, status: 200},
		{name: "sol nine decimals", method: "PUT", path: path, body: `{"family":"sol","max_jito_tip":0.000000001}`, status: 200},
		{name: "sol largest u64 of lamports", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":"18446744073.709551615"}`, status: 200},
		{name: "evm priority fee", method: "PUT", path: path, body: `{"family":"evm","max_priority_fee":100.5}`, status: 200},
		{name: "evm priority fee to the wei", method: "PUT", path: path, body: `{"family":"evm","max_priority_fee":"0.000000001"}`, status: 200},
		{name: "evm tip eighteen decimals", method: "PUT", path: path, body: `{"family":"evm","max_processor_tip":0.000000000000000001}`, status: 200},
		{name: "evm jito tip null is absent", method: "PUT", path: path, body: `{"family":"evm","max_priority_fee":5,"max_jito_tip":null}`, status: 200},
		{name: "negative zero is zero", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":-0,"max_jito_tip":"-0.0"}`, status: 200},
		{name: "unknown fields ignored", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":1,"extra":true}`, status: 200},

		{name: "evm jito tip", method: "PUT", path: path, body: `{"family":"evm","max_jito_tip":0.1}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tip"},
		{name: "evm jito tip beside valid caps", method: "PUT", path: path, body: `{"family":"evm","max_priority_fee":5,"max_jito_tip":0}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tip"},
		{name: "no family", method: "PUT", path: path, body: `{"max_priority_fee":1}`, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "bad family", method: "PUT", path: path, body: `{"family":"btc","max_priority_fee":1}`, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "nothing given", method: "PUT", path: path, body: `{"family":"sol"}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "only a misspelt cap", method: "PUT", path: path, body: `{"family":"sol","max_priority":1}`, status: 400, code: "INVALID_REQUEST", details: "max_priority"},
		{name: "a misspelt cap beside a right one", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":0.1,"max_jito_tipp":0.0001}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tipp"},
		{name: "other unknown fields ignored", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":0.1,"note":"x"}`, status: 200},
		{name: "negative", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":-1}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "negative string", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":"-0.1"}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "huge exponent", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":1e400}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "huge negative exponent", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":1e-999999}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "exponent of many digits", method: "PUT", path: path, body: `{"family":"evm","max_processor_tip":1e99999999999999999999999999}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "exponent just in bounds but too fine", method: "PUT", path: path, body: `{"family":"sol","max_jito_tip":1e-9999}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tip"},
		{name: "sol ten decimals", method: "PUT", path: path, body: `{"family":"sol","max_jito_tip":0.0000000001}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tip"},
		{name: "sol over u64 of lamports", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":"18446744073.709551616"}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "evm priority fee finer than a wei", method: "PUT", path: path, body: `{"family":"evm","max_priority_fee":0.0000000001}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "evm tip nineteen decimals", method: "PUT", path: path, body: `{"family":"evm","max_processor_tip":"0.0000000000000000001"}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "evm tip over 256 bits", method: "PUT", path: path, body: `{"family":"evm","max_processor_tip":1e60}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "string with exponent", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":"1e-3"}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "empty string", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":""}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "string without integer part", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":".5"}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "string with spaces", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":" 0.1 "}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "words", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":"lots"}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "boolean", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":true}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "object", method: "PUT", path: path, body: `{"family":"sol","max_processor_tip":{}}`, status: 400, code: "INVALID_REQUEST", details: "max_processor_tip"},
		{name: "literal too long", method: "PUT", path: path, body: `{"family":"sol","max_jito_tip":` + long + `}`, status: 400, code: "INVALID_REQUEST", details: "max_jito_tip"},
		{name: "first bad field named", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":-1,"max_processor_tip":-1}`, status: 400, code: "INVALID_REQUEST", details: "max_priority_fee"},
		{name: "wrong content type", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":1}`, contentType: "text/plain", status: 415, code: "INVALID_REQUEST", details: "Content-Type"},
		{name: "unknown account", method: "PUT", path: "/admin/v1/accounts/acc_nope/fee_caps", body: `{"family":"sol","max_priority_fee":1}`, status: 404, code: "NOT_FOUND", details: "id"},
		{name: "no token", method: "PUT", path: path, body: `{"family":"sol","max_priority_fee":1}`, auth: "-", status: 401, code: "UNAUTHORIZED"},
		{name: "wrong method", method: "POST", path: path, body: `{"family":"sol","max_priority_fee":1}`, status: 405, code: "METHOD_NOT_ALLOWED"},
	})
}

// feeCapsOf returns the fee_caps of the account answer, compact.
func feeCapsOf(t *testing.T, tr *testRegistry, acc string) string {
	t.Helper()
	a := tr.do(t, "GET", "/admin/v1/accounts/"+acc, nil)
	v := decodeData[struct {
		FeeCaps json.RawMessage `json:"fee_caps"`
	}](t, a)
	var out bytes.Buffer
	if err := json.Compact(&out, v.FeeCaps); err != nil {
		t.Fatalf("fee_caps %s: %v", v.FeeCaps, err)
	}
	return out.String()
}

func TestAdminFeeCapsAnswersAndAccount(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	path := "/admin/v1/accounts/" + acc + "/fee_caps"
	const defaults = `{"evm":{"max_priority_fee":500,"max_processor_tip":0.05},` +
		`"sol":{"max_priority_fee":0.1,"max_processor_tip":0.1,"max_jito_tip":0.1}}`
	if got := feeCapsOf(t, tr, acc); got != defaults {
		t.Fatalf("fee_caps of a new account %s, want %s", got, defaults)
	}

	// Each PUT answers the family's effective caps: the fields given,
	// canonical, and the others as they were.
	steps := []struct {
		name, body, answer string
	}{
		{"one sol cap", `{"family":"sol","max_priority_fee":0.050}`,
			`{"family":"sol","max_priority_fee":0.05,"max_processor_tip":0.1,"max_jito_tip":0.1}`},
		{"another sol cap as a string", `{"family":"sol","max_jito_tip":"0.000000001"}`,
			`{"family":"sol","max_priority_fee":0.05,"max_processor_tip":0.1,"max_jito_tip":0.000000001}`},
		{"evm with an exponent", `{"family":"evm","max_processor_tip":1.5e-2}`,
			`{"family":"evm","max_priority_fee":500,"max_processor_tip":0.015}`},
		{"evm big priority fee", `{"family":"evm","max_priority_fee":2.5E3}`,
			`{"family":"evm","max_priority_fee":2500,"max_processor_tip":0.015}`},
		{"sol zero", `{"family":"sol","max_processor_tip":0}`,
			`{"family":"sol","max_priority_fee":0.05,"max_processor_tip":0,"max_jito_tip":0.000000001}`},
	}
	for _, s := range steps {
		a := tr.do(t, "PUT", path, s.body)
		if a.Status != 200 || string(a.Data) != s.answer {
			t.Fatalf("%s: %d %s, want %s", s.name, a.Status, a.Data, s.answer)
		}
	}
	const want = `{"evm":{"max_priority_fee":2500,"max_processor_tip":0.015},` +
		`"sol":{"max_priority_fee":0.05,"max_processor_tip":0,"max_jito_tip":0.000000001}}`
	if got := feeCapsOf(t, tr, acc); got != want {
		t.Fatalf("fee_caps %s, want %s", got, want)
	}

	// A refused request changes nothing, not even its valid fields.
	if a := tr.do(t, "PUT", path, `{"family":"sol","max_priority_fee":0.2,"max_jito_tip":-1}`); a.Status != 400 || a.details() != "max_jito_tip" {
		t.Fatalf("mixed request: %s", a.Raw)
	}
	if got := feeCapsOf(t, tr, acc); got != want {
		t.Fatalf("a refused request changed fee_caps to %s", got)
	}

	// The store keeps them across a restart.
	tr.stop()
	tr = startRegistry(t, b, tr.dataDir, nil)
	if got := feeCapsOf(t, tr, acc); got != want {
		t.Fatalf("fee_caps after a restart %s, want %s", got, want)
	}
}

func TestFeeCapsReachTheView(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	v := startView(t, b)
	acc := tr.createAccount(t, "alice")
	a := poll.Value(t, visible, "account visible", func() (*registry.Account, bool) { return v.Account(acc) })
	if a.FeeCaps(wire.FamilySol) != registry.DefaultFeeCaps(wire.FamilySol) || a.FeeCaps(wire.FamilyEVM) != registry.DefaultFeeCaps(wire.FamilyEVM) {
		t.Fatalf("caps of a new account: %+v %+v", a.FeeCaps(wire.FamilySol), a.FeeCaps(wire.FamilyEVM))
	}
	// The read model holds only the families the admin API set.
	ctx := context.Background()
	e, err := b.registry.Get(ctx, registry.AccountKVKey(acc))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(e.Value()), "fee_caps") {
		t.Fatalf("a new account's document carries fee caps: %s", e.Value())
	}

	if r := tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/fee_caps", `{"family":"sol","max_priority_fee":0.002,"max_jito_tip":"0.01"}`); r.Status != 200 {
		t.Fatal(r.Raw)
	}
	want := registry.FeeCaps{MaxPriorityFee: "0.002", MaxProcessorTip: "0.1", MaxJitoTip: "0.01"}
	poll.Until(t, visible, "sol caps visible", func() bool {
		a, _ = v.Account(acc)
		return a.FeeCaps(wire.FamilySol) == want
	})
	if a.FeeCaps(wire.FamilyEVM) != registry.DefaultFeeCaps(wire.FamilyEVM) {
		t.Errorf("evm caps changed: %+v", a.FeeCaps(wire.FamilyEVM))
	}
	e, err = b.registry.Get(ctx, registry.AccountKVKey(acc))
	if err != nil {
		t.Fatal(err)
	}
	var doc registry.AccountDoc
	if err := json.Unmarshal(e.Value(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.FeeCaps) != 1 || doc.FeeCaps[wire.FamilySol] != want {
		t.Errorf("read model fee_caps %+v", doc.FeeCaps)
	}
}

func TestParseCap(t *testing.T) {
	sol := feeCapUnits[wire.FamilySol][0]
	gwei := feeCapUnits[wire.FamilyEVM][0]
	native := feeCapUnits[wire.FamilyEVM][1]
	tests := []struct {
		lit     string
		number  bool // a JSON number; else a decimal string
		unit    capUnit
		want    string // money.Format of the result in the unit
		wantErr error
	}{
		{"0.1", true, sol, "0.1", nil},
		{"0", true, sol, "0", nil},
		{"000.500", false, sol, "0.5", nil},
		{"1e-9", true, sol, "0.000000001", nil},
		{"1E+2", true, sol, "100", nil},
		{"1.50e1", true, sol, "15", nil},
		{"120e-11", true, sol, "0.0000000012", errCapPrecision},
		{"1200e-12", true, sol, "0.0000000012", errCapPrecision},
		{"1000e-12", true, sol, "0.000000001", nil},
		{"0e-999999", true, sol, "0", nil},
		{"1e-0000009", true, sol, "0.000000001", nil},
		{"1e19", true, sol, "", errCapRange},
		{"18446744073.709551615", false, sol, "18446744073.709551615", nil},
		{"18446744073.709551616", false, sol, "", errCapRange},
		{"99999999999", true, sol, "", errCapRange},
		{"1e400", true, sol, "", errCapRange},
		{"1e-999999", true, sol, "", errCapExponent},
		{"1e99999999999999999999", true, native, "", errCapExponent},
		{"1e10000", true, native, "", errCapExponent},
		{"1e9999", true, native, "", errCapRange},
		{"1e-9999", true, native, "", errCapPrecision},
		{"0.000000000000000001", true, native, "0.000000000000000001", nil},
		{"0.0000000000000000001", true, native, "", errCapPrecision},
		{"0.000000001", false, gwei, "0.000000001", nil},
		{"0.0000000001", false, gwei, "", errCapPrecision},
		{"-1", true, sol, "", errCapNegative},
		{"-0", true, sol, "0", nil},
		{"-0.000", false, sol, "0", nil},
		{"1e-3", false, sol, "", errCapSyntax},
		{"", false, sol, "", errCapSyntax},
		{".5", false, sol, "", errCapSyntax},
		{"5.", false, sol, "", errCapSyntax},
		{"1e", true, sol, "", errCapSyntax},
		{"1e+", true, sol, "", errCapSyntax},
		{"0x10", false, sol, "", errCapSyntax},
		{"1 000", false, sol, "", errCapSyntax},
		{strings.Repeat("1", maxCapLiteral+1), false, sol, "", errCapLength},
	}
	for _, tt := range tests {
		t.Run(tt.unit.unit+" "+tt.lit, func(t *testing.T) {
			v, err := parseCap(tt.lit, tt.number, tt.unit)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got := money.Format(v, tt.unit.decimals); got != tt.want {
				t.Fatalf("%s, want %s", got, tt.want)
			}
		})
	}
}

// A literal whose exponent is beyond the field is refused before any
// arithmetic: refusing it allocates nothing, less than a plain number
// costs, however large the exponent it writes.
func TestParseCapRefusesHugeExponentsWithoutWork(t *testing.T) {
	u := feeCapUnits[wire.FamilyEVM][1]
	plain := testing.AllocsPerRun(100, func() { _, _ = parseCap("0.05", true, u) })
	if plain == 0 {
		t.Fatal("a plain number allocates nothing: the comparison below would prove nothing")
	}
	for _, lit := range []string{"1e-999999", "1e400", "1e99999999999999999999", "9.999e-9999", "1e9999"} {
		if _, err := parseCap(lit, true, u); err == nil {
			t.Fatalf("%s accepted", lit)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = parseCap(lit, true, u) }); n != 0 {
			t.Errorf("refusing %s allocates %v times", lit, n)
		}
	}
}
