package ingress

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

const (
	testCreator = "3jRZvHKX8X1dxDFogdiVUaE8Fqu6qriL8428ku1sSLeS"
	testBuyer   = "Cyg5C9a3jLz2LKnyy6Lgc8w3ydHUCqFWGYBcWFpn4Jsh"
)

// deployBody is a valid launch with edit applied to its decoded form.
func deployBody(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	m := map[string]any{
		"wallet_address": testCreator,
		"metadata":       map[string]any{"name": "Moon", "symbol": "MOON"},
		"configs":        []any{map[string]any{"dex": "pump_fun", "data": map[string]any{"is_mayhem_mode": false}}},
		"buys":           []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1000, "priority_fee_sol": 0.0001}},
	}
	if edit != nil {
		edit(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeDeployDefaults(t *testing.T) {
	t.Parallel()
	// Keys the service does not know in a venue's data are ignored, as
	// every unknown field is: the hosted service's clients send its own.
	job, _, aerr := decodeDeploy(deployBody(t, func(m map[string]any) {
		m["configs"] = []any{map[string]any{"dex": "bonk", "data": map[string]any{"vanity": "bonk"}},
			map[string]any{"dex": "bags", "data": map[string]any{"pool_config": testBuyer, "migrate_type": "cpmm"}}}
	}), 10)
	if aerr != nil {
		t.Fatal(aerr)
	}
	if job.BundleMode != wire.BundlePacked || job.SlippageBps != 1000 || job.JitoTip != 0 || job.CreatorBuy != 0 {
		t.Fatalf("defaults: mode %q slippage %d tip %d creator buy %d", job.BundleMode, job.SlippageBps, job.JitoTip, job.CreatorBuy)
	}
	if l := job.Launches[0]; l.MigrateType != "cpmm" || l.CreatorFeeOn != "quote_token" {
		t.Fatalf("bonk defaults %+v", l)
	}
	if job.Launches[1].PoolConfig != testBuyer || job.Buys[0].PriorityFee != 100_000 || job.Buys[0].Lamports != 1000 {
		t.Fatalf("bags and buys %+v %+v", job.Launches[1], job.Buys[0])
	}
	// A description of several lines, with tabs and a right-to-left
	// mark, is kept as given.
	const prose = "line one\n\tline two \u200fשלום"
	job, _, aerr = decodeDeploy(deployBody(t, func(m map[string]any) {
		m["metadata"] = map[string]any{"name": "N", "symbol": "X", "description": prose, "website": "https://n.example"}
	}), 10)
	if aerr != nil || job.Metadata.Description != prose {
		t.Fatalf("description %q: %v", job.Metadata.Description, aerr)
	}
	// A null bundle_mode is one left out (an empty one is refused).
	job, _, aerr = decodeDeploy(deployBody(t, func(m map[string]any) { m["bundle_mode"] = nil }), 10)
	if aerr != nil || job.BundleMode != wire.BundlePacked {
		t.Fatalf("null bundle_mode: %q %v", job.BundleMode, aerr)
	}
}

// TestDecodeDeployRefusals: every bad input is 400 INVALID_REQUEST naming
// the field, before anything else happens.
func TestDecodeDeployRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		field string
		edit  func(m map[string]any)
	}{
		{"wallet_address", func(m map[string]any) { delete(m, "wallet_address") }},
		{"wallet_address", func(m map[string]any) { m["wallet_address"] = "0xabc" }},
		{"metadata", func(m map[string]any) { delete(m, "metadata") }},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"symbol": "X"} }},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"name": strings.Repeat("n", 33), "symbol": "X"} }},
		{"metadata.symbol", func(m map[string]any) { m["metadata"] = map[string]any{"name": "N", "symbol": strings.Repeat("s", 11)} }},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"name": "   ", "symbol": "X"} }},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"name": "a\u0000b", "symbol": "X"} }},
		{"metadata.symbol", func(m map[string]any) { m["metadata"] = map[string]any{"name": "N", "symbol": "\t"} }},
		{"metadata.symbol", func(m map[string]any) { m["metadata"] = map[string]any{"name": "N", "symbol": "A\nB"} }},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"name": "\u200b\u200b", "symbol": "X"} }},
		{"metadata.symbol", func(m map[string]any) { m["metadata"] = map[string]any{"name": "N", "symbol": "\u2800"} }},
		// Its links and description are shown beside them: a link on one
		// line without direction overrides, no text with control bytes,
		// nothing the decoder replaced with U+FFFD.
		{"metadata.website", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "X", "website": "https://a\u202egro.example"}
		}},
		{"metadata.twitter", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "X", "twitter": "x.com/a\u0000"}
		}},
		{"metadata.image_url", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "X", "image_url": "https://a.example/\nb.png"}
		}},
		{"metadata.description", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "X", "description": "a\u0000b"}
		}},
		{"metadata.description", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "X", "description": "a\ufffdb"}
		}},
		{"metadata.name", func(m map[string]any) { m["metadata"] = map[string]any{"name": "ok\u202eevil", "symbol": "X"} }},
		// What the decoder makes of a lone surrogate ("\ud800").
		{"metadata.symbol", func(m map[string]any) { m["metadata"] = map[string]any{"name": "N", "symbol": "\ufffd"} }},
		{"metadata.image_url", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "N", "symbol": "S", "image_url": strings.Repeat("u", 201)}
		}},
		{"configs", func(m map[string]any) { m["configs"] = []any{} }},
		{"configs", func(m map[string]any) { m["configs"] = "pump_fun" }},
		{"configs", func(m map[string]any) {
			c := map[string]any{"dex": "pump_fun"}
			m["configs"] = []any{c, c, c, c, c}
		}},
		{"configs[0].dex", func(m map[string]any) { m["configs"] = []any{map[string]any{"dex": "moonshot"}} }},
		{"configs[0].dex", func(m map[string]any) { m["configs"] = []any{map[string]any{}} }},
		{"configs[0].data.is_cashback_enabled", func(m map[string]any) {
			m["configs"] = []any{map[string]any{"dex": "pump_fun", "data": map[string]any{"is_cashback_enabled": true}}}
		}},
		{"configs[0].data.is_mayhem_mode", func(m map[string]any) {
			m["configs"] = []any{map[string]any{"dex": "pump_fun", "data": map[string]any{"is_mayhem_mode": "yes"}}}
		}},
		{"configs[0].data.migrate_type", func(m map[string]any) {
			m["configs"] = []any{map[string]any{"dex": "bonk", "data": map[string]any{"migrate_type": "raydium"}}}
		}},
		{"configs[1].data.pool_config", func(m map[string]any) {
			m["configs"] = []any{map[string]any{"dex": "pump_fun"}, map[string]any{"dex": "bags", "data": map[string]any{"pool_config": "nope"}}}
		}},
		{"creator_buy_sol_amount", func(m map[string]any) { m["creator_buy_sol_amount"] = 0.5 }},
		{"creator_buy_sol_amount", func(m map[string]any) { m["creator_buy_sol_amount"] = -1 }},
		{"buys", func(m map[string]any) { m["buys"] = map[string]any{} }},
		{"buys[0].wallet_address", func(m map[string]any) { m["buys"] = []any{map[string]any{"sol_amount": 1}} }},
		{"buys[0].sol_amount", func(m map[string]any) { m["buys"] = []any{map[string]any{"wallet_address": testBuyer}} }},
		{"buys[0].sol_amount", func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 0}}
		}},
		{"buys[0].priority_fee_sol", func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": "fast"}}
		}},
		{"bundle_mode", func(m map[string]any) { m["bundle_mode"] = "jito" }},
		{"bundle_mode", func(m map[string]any) { m["bundle_mode"] = "" }},
		{"jito_tip", func(m map[string]any) { m["jito_tip"] = 1.5 }},
		{"slippage_bps", func(m map[string]any) { m["slippage_bps"] = 10001 }},
		{"slippage_bps", func(m map[string]any) { m["slippage_bps"] = json.Number(strings.Repeat("1", 65)) }},
		{"jito_tip", func(m map[string]any) { m["jito_tip"] = json.Number("1e400") }},
		{"creator_buy_sol_amount", func(m map[string]any) { m["creator_buy_sol_amount"] = json.Number("1e-999999") }},
		{"buys[0].priority_fee_sol", func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": json.Number("1e-999999")}}
		}},
		{"buys[1].priority_fee_sol", func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1},
				map[string]any{"wallet_address": testCreator, "sol_amount": 1, "priority_fee_sol": json.Number("1e400")}}
		}},
	} {
		_, _, aerr := decodeDeploy(deployBody(t, tc.edit), 10)
		if aerr == nil || aerr.Code != "INVALID_REQUEST" || aerr.Status() != 400 || aerr.Details != tc.field {
			t.Errorf("want 400 naming %s, got %v", tc.field, aerr)
		}
	}
}

// TestDeploySlippageRange: every slippage_bps outside 0 to 10000 is
// refused naming the range, one past what 32 bits hold as much as 10001.
func TestDeploySlippageRange(t *testing.T) {
	for _, v := range []string{"10001", "4294967296", "5000000000", "1e20", "-1", "1.5"} {
		_, _, aerr := decodeDeploy(deployBody(t, func(m map[string]any) { m["slippage_bps"] = json.Number(v) }), 10)
		if aerr == nil || aerr.Details != "slippage_bps" || !strings.Contains(aerr.Message, "from 0 to 10000") {
			t.Errorf("slippage_bps %s: %v, want 400 naming the range", v, aerr)
		}
	}
}

// TestDeployEmptyKeyTwice: a launch's data with the empty key given twice
// is refused as any key given twice is, not read as empty, which dropped
// every field of it (a mayhem launch made as a plain one, a bonk
// migrate_type left at its default).
func TestDeployEmptyKeyTwice(t *testing.T) {
	t.Parallel()
	base := `{"wallet_address":"` + solW1 + `","metadata":{"name":"A","symbol":"B"},"configs":[%s],` +
		`"creator_buy_sol_amount":1000,"bundle_mode":"packed","jito_tip":1000,"slippage_bps":500}`
	for _, config := range []string{
		`{"dex":"pump_fun","data":{"is_mayhem_mode":true,"":0,"":0}}`,
		`{"dex":"bonk","data":{"migrate_type":"amm_v4","":0,"":0}}`,
	} {
		_, _, err := decodeDeploy([]byte(fmt.Sprintf(base, config)), 10)
		if err == nil || err.Details != `configs[0].data.""` {
			t.Errorf("%s: %v, want the empty key named as given twice", config, err)
		}
	}
}
