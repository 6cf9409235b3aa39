package ingress

import (
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// FuzzDecodeSwap feeds arbitrary bodies to the swap decoder: it must never
// panic and must answer every refusal with a 4xx code naming a field.
func FuzzDecodeSwap(f *testing.F) {
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"0.5","slippage":10,"priority_fee":0.0001}`), true)
	f.Add([]byte(`{"address":"`+evmTok+`","side":"Sell","amount":"50","chain":"eth","max_tax":5}`), false)
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","wallets":[{"address":"`+solW1+`","amount":"1"}],"auto_orders":[{"type":"time","after_seconds":5}]}`), true)
	f.Add([]byte(`{"wallets":[],"amount":"1e5"}`), true)
	f.Add([]byte(`null`), false)
	// Literals that spell huge numbers, in every kind of number field.
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"1","priority_fee":1e-999999,"processor_tip":1e400}`), true)
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"1","slippage":1e-999999,"min_liquidity_usd":1e999999}`), true)
	f.Add([]byte(`{"address":"`+evmTok+`","side":"Buy","amount":"1","max_tax":-1e-999999,"max_market_cap_usd":0e999999}`), false)
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"1","auto_orders":[{"type":"time","after_seconds":1e999999},{"type":"take_profit","trigger_pct":1e-999999}]}`), true)
	f.Add([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"1","auto_tip":true,"priority_fee":1e-999999}`), true)
	f.Fuzz(func(t *testing.T, body []byte, sol bool) {
		family := wire.FamilyEVM
		if sol {
			family = wire.FamilySol
		}
		r, err := decodeSwap(body, family, 10)
		if err != nil {
			if s := err.Status(); s < 400 || s >= 500 {
				t.Fatalf("status %d for a bad body", s)
			}
			if err.Message == "" {
				t.Fatal("empty message")
			}
			return
		}
		if r.job.Token == "" || (r.job.Side != wire.Buy && r.job.Side != wire.Sell) {
			t.Fatalf("accepted an incomplete job: %+v", r.job)
		}
		if r.wallets == nil && r.amount == "" {
			t.Fatal("accepted without an amount")
		}
		if r.job.AutoTip && (r.job.PriorityFee != "" || r.job.ProcessorTip != "0") {
			t.Fatalf("auto_tip job carries fee %s tip %s", r.job.PriorityFee, r.job.ProcessorTip)
		}
	})
}

// FuzzDecodeDeploy does the same for token launches.
func FuzzDecodeDeploy(f *testing.F) {
	f.Add([]byte(`{"wallet_address":"` + solW1 + `","metadata":{"name":"A","symbol":"B"},"configs":[{"dex":"pump_fun","data":{"is_mayhem_mode":false}}],"creator_buy_sol_amount":1000,"bundle_mode":"packed","jito_tip":1000,"slippage_bps":500}`))
	f.Add([]byte(`{"configs":[]}`))
	f.Add([]byte(`{"wallet_address":"` + solW1 + `","metadata":{"name":"A","symbol":"B"},"configs":[{"dex":"pump_fun"}],"buys":[{"wallet_address":"` + solW1 + `","sol_amount":1,"priority_fee_sol":1e-999999}],"jito_tip":1e400}`))
	f.Add([]byte(`{"wallet_address":"` + solW1 + `","metadata":{"name":"A","symbol":"B"},"configs":[{"dex":"bonk"}],"creator_buy_sol_amount":1e999999,"slippage_bps":1e-999999}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _, err := decodeDeploy(body, 10)
		if err != nil {
			if s := err.Status(); s < 400 || s >= 500 {
				t.Fatalf("status %d", s)
			}
		}
	})
}
