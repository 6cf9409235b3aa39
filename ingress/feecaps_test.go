package ingress

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestFeeCaps: a fee above the account's cap is 400 naming the field, with
// the cap in the message, before anything is charged; a fee at the cap
// passes (and, with no worker here, meets 503 CHAIN_UNAVAILABLE). acct1 has
// the default caps, acct2 (capsKey) its own on Solana.
func TestFeeCaps(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, noChains{})
	sol := func(extra string) string { return swapWith(solMint, extra) }
	evm := func(extra string) string { return swapWith(evmTok, extra) }
	deploy := func(edit func(m map[string]any)) string { return string(deployBody(t, edit)) }
	tests := []struct {
		name, url, path, key, body string
		status                     int
		details, message           string
	}{
		{"sol fee at the default cap", h.eu.URL, "/api/v1/swap", solKey, sol(`"priority_fee":0.1,"processor_tip":0.1`), 503, "solana", ""},
		{"sol fee a lamport above", h.eu.URL, "/api/v1/swap", solKey, sol(`"priority_fee":0.100000001`), 400, "priority_fee",
			"priority_fee 0.100000001 is above this account's cap of 0.1 SOL"},
		// Above the cap by less than a lamport is above it: a fee rounds up.
		{"sol fee a fraction of a lamport above", h.eu.URL, "/api/v1/swap", solKey, sol(`"priority_fee":0.1000000004`), 400, "priority_fee",
			"priority_fee 0.100000001 is above this account's cap of 0.1 SOL"},
		{"sol fee at the cap", h.eu.URL, "/api/v1/swap", solKey, sol(`"priority_fee":0.1000000000`), 503, "solana", ""},
		{"sol tip above", h.us.URL, "/api/v1/swap", solKey, sol(`"processor_tip":5`), 400, "processor_tip",
			"processor_tip 5 is above this account's cap of 0.1 SOL"},
		{"sol tip as an exponent", h.eu.URL, "/api/v1/swap", solKey, sol(`"processor_tip":2e-1`), 400, "processor_tip",
			"processor_tip 0.2 is above this account's cap of 0.1 SOL"},
		{"auto_tip ignores both, caps included", h.eu.URL, "/api/v1/swap", solKey, sol(`"auto_tip":true,"priority_fee":5,"processor_tip":5`), 503, "solana", ""},
		{"own cap", h.eu.URL, "/api/v1/swap", capsKey, sol(`"priority_fee":0.002`), 400, "priority_fee",
			"priority_fee 0.002 is above this account's cap of 0.001 SOL"},
		{"own tip cap", h.eu.URL, "/api/v1/swap", capsKey, sol(`"priority_fee":0.001,"processor_tip":0.0005001`), 400, "processor_tip",
			"processor_tip 0.0005001 is above this account's cap of 0.0005 SOL"},
		{"own caps met", h.eu.URL, "/api/v1/swap", capsKey, sol(`"priority_fee":0.001,"processor_tip":0.0005`), 503, "solana", ""},
		{"evm fee at 500 gwei", h.evm.URL, "/api/v1/swap", evmKey, evm(`"priority_fee":500,"processor_tip":0.05`), 503, "evm", ""},
		{"evm fee a wei per gas above", h.evm.URL, "/api/v1/swap", evmKey, evm(`"priority_fee":500.000000001`), 400, "priority_fee",
			"priority_fee 500.000000001 is above this account's cap of 500 gwei"},
		{"evm tip above on base", h.evm.URL, "/api/v1/swap", evmKey, evm(`"chain":"base","processor_tip":0.06`), 400, "processor_tip",
			"processor_tip 0.06 is above this account's cap of 0.05 ETH"},
		{"evm tip above on bsc", h.evm.URL, "/api/v1/swap", evmKey, evm(`"chain":"bsc","processor_tip":0.050000000000000001`), 400, "processor_tip",
			"processor_tip 0.050000000000000001 is above this account's cap of 0.05 BNB"},
		{"deploy buy fee above", h.eu.URL, "/api/v1/deploy", capsKey, deploy(func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": 0.001},
				map[string]any{"wallet_address": testCreator, "sol_amount": 1, "priority_fee_sol": 0.0011}}
		}), 400, "buys[1].priority_fee_sol", "buys[1].priority_fee_sol 0.0011 is above this account's cap of 0.001 SOL"},
		{"deploy jito tip above", h.eu.URL, "/api/v1/deploy", capsKey, deploy(func(m map[string]any) {
			m["buys"], m["jito_tip"] = []any{}, 20001
		}), 400, "jito_tip", "jito_tip 20001 lamports (0.000020001 SOL) is above this account's cap of 0.00002 SOL"},
		{"deploy at the caps", h.eu.URL, "/api/v1/deploy", capsKey, deploy(func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": 0.001}}
			m["jito_tip"] = 20000
		}), 503, "solana", ""},
		{"deploy default jito cap", h.eu.URL, "/api/v1/deploy", solKey, deploy(func(m map[string]any) {
			m["wallet_address"], m["buys"], m["jito_tip"] = solW1, []any{}, 100000001
		}), 400, "jito_tip", "jito_tip 100000001 lamports (0.100000001 SOL) is above this account's cap of 0.1 SOL"},
		// A fee above the cap by any amount is refused naming the cap.
		{"sol fee far above", h.eu.URL, "/api/v1/swap", solKey, sol(`"priority_fee":1001`), 400, "priority_fee",
			"priority_fee 1001 is above this account's cap of 0.1 SOL"},
		{"evm fee far above", h.evm.URL, "/api/v1/swap", evmKey, evm(`"priority_fee":1001`), 400, "priority_fee",
			"priority_fee 1001 is above this account's cap of 500 gwei"},
		{"evm tip far above", h.evm.URL, "/api/v1/swap", evmKey, evm(`"chain":"base","processor_tip":1001`), 400, "processor_tip",
			"processor_tip 1001 is above this account's cap of 0.05 ETH"},
		{"deploy buy fee far above", h.eu.URL, "/api/v1/deploy", capsKey, deploy(func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": 1001}}
		}), 400, "buys[0].priority_fee_sol", "buys[0].priority_fee_sol 1001 is above this account's cap of 0.001 SOL"},
		// Past what a u64 of lamports holds is above any cap too.
		{"deploy jito tip past a u64", h.eu.URL, "/api/v1/deploy", solKey, deploy(func(m map[string]any) {
			m["wallet_address"], m["buys"], m["jito_tip"] = solW1, []any{}, json.Number("18446744073709551616")
		}), 400, "jito_tip", "jito_tip 18446744073709551616 lamports (18446744073.709551616 SOL) is above this account's cap of 0.1 SOL"},
		{"deploy buy fee past a u64", h.eu.URL, "/api/v1/deploy", capsKey, deploy(func(m map[string]any) {
			m["buys"] = []any{map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": 0.001},
				map[string]any{"wallet_address": testBuyer, "sol_amount": 1, "priority_fee_sol": json.Number("18446744073.709551616")}}
		}), 400, "buys[1].priority_fee_sol", "buys[1].priority_fee_sol 18446744073.709551616 is above this account's cap of 0.001 SOL"},
		// A launch's tip and fees are held to the service's bound too.
		{"deploy jito tip over the service's bound", h.eu.URL, "/api/v1/deploy", highSolCapsKey, deploy(func(m map[string]any) {
			m["wallet_address"], m["buys"], m["jito_tip"] = solW1, []any{}, json.Number("1000000000001")
		}), 400, "jito_tip", "jito_tip 1000.000000001 SOL is above 1000 SOL, the most this service sends whatever the account's cap"},
		{"deploy jito tip at the service's bound", h.eu.URL, "/api/v1/deploy", highSolCapsKey, deploy(func(m map[string]any) {
			m["wallet_address"], m["buys"], m["jito_tip"] = solW1, []any{}, json.Number("1000000000000")
		}), 503, "solana", ""},
		// A cap raised above 1000 gwei lets a priority fee up to it
		// through; the service's own bound is 1000 of the native coin.
		{"evm fee under a raised cap", h.evm.URL, "/api/v1/swap", highCapsKey, evm(`"priority_fee":1500`), 503, "evm", ""},
		{"evm tip over the service's bound", h.evm.URL, "/api/v1/swap", highCapsKey, evm(`"chain":"base","processor_tip":1000.000000000000000001`), 400, "processor_tip",
			"processor_tip 1000.000000000000000001 ETH is above 1000 ETH, the most this service sends whatever the account's cap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := call(t, "POST", tt.url+tt.path, tt.key, "application/json", tt.body)
			if a.status != tt.status || a.details() != tt.details {
				t.Fatalf("got %d %s details %v, want %d details %s: %s", a.status, a.code(), a.details(), tt.status, tt.details, a.raw)
			}
			if tt.status == 400 {
				msg, _ := a.body["error"].(map[string]any)["message"].(string)
				if a.code() != "INVALID_REQUEST" || msg != tt.message {
					t.Fatalf("got %s %q, want INVALID_REQUEST %q", a.code(), msg, tt.message)
				}
				if a.header.Get("X-RateLimit-Remaining-Minute") != a.header.Get("X-RateLimit-Limit-Minute") {
					t.Fatalf("a refused fee was charged: %v", a.header)
				}
			}
		})
	}
}

// TestFeeCapsTravelWithJob: every swap job carries the account's caps in
// the job's units (lamports; wei per gas and wei on EVM), auto_tip or not,
// and under auto_tip the ignored fee fields do not reach the job. A
// priority fee not named is "" in the job (on EVM the worker picks one), a
// priority fee of 0 is "0".
func TestFeeCapsTravelWithJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	sol := startWorker(t, h, wire.ChainSolana, signed)
	eth := startWorker(t, h, wire.ChainEth, signed)
	tests := []struct {
		name, url, key, body string
		w                    *worker
		fee, tip             string
		caps                 wire.FeeCaps
	}{
		{"sol defaults", h.eu.URL, solKey, swapWith(solMint, `"priority_fee":0.0001`), sol,
			"100000", "0", wire.FeeCaps{MaxPriorityFee: "100000000", MaxProcessorTip: "100000000"}},
		{"sol own caps", h.eu.URL, capsKey, swapWith(solMint, `"processor_tip":0.0005`), sol,
			"", "500000", wire.FeeCaps{MaxPriorityFee: "1000000", MaxProcessorTip: "500000"}},
		{"sol auto_tip", h.us.URL, solKey, swapWith(solMint, `"auto_tip":true,"priority_fee":7,"processor_tip":7`), sol,
			"", "0", wire.FeeCaps{MaxPriorityFee: "100000000", MaxProcessorTip: "100000000"}},
		{"evm defaults", h.evm.URL, evmKey, swapWith(evmTok, `"chain":"eth","priority_fee":2`), eth,
			"2000000000", "0", wire.FeeCaps{MaxPriorityFee: "500000000000", MaxProcessorTip: "50000000000000000"}},
		{"evm priority fee 0", h.evm.URL, evmKey, swapWith(evmTok, `"chain":"eth","priority_fee":0`), eth,
			"0", "0", wire.FeeCaps{MaxPriorityFee: "500000000000", MaxProcessorTip: "50000000000000000"}},
		{"evm no priority fee", h.evm.URL, evmKey, swapWith(evmTok, `"chain":"eth"`), eth,
			"", "0", wire.FeeCaps{MaxPriorityFee: "500000000000", MaxProcessorTip: "50000000000000000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := call(t, "POST", tt.url+"/api/v1/swap", tt.key, "application/json", tt.body)
			if a.status != 200 {
				t.Fatalf("%d %s", a.status, a.raw)
			}
			j := tt.w.job(t, a.orderID())
			if j.FeeCaps == nil || *j.FeeCaps != tt.caps || j.PriorityFee != tt.fee || j.ProcessorTip != tt.tip {
				b, _ := json.Marshal(j)
				t.Fatalf("job %s, want fee %s tip %s caps %+v", b, tt.fee, tt.tip, tt.caps)
			}
			if strings.Contains(tt.name, "auto_tip") != j.AutoTip {
				t.Fatalf("auto_tip %v", j.AutoTip)
			}
		})
	}
}

// TestTipWhereNoChainTakesOne: a processor_tip on a named EVM chain with no
// bundle market to pay it into is 400 naming the field, before the
// charge; on a chain that takes tips, or with auto_tip, or at 0, it passes.
func TestTipWhereNoChainTakesOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, noChains{}, withTakesTips(func(chain string) bool { return chain == "eth" }))
	wantRefusedFree(t, h, "processor_tip must be 0 on base", []refusalCase{
		{"tip on base", `"chain":"base","processor_tip":0.01`, 400, "processor_tip"},
		{"tip on eth", `"chain":"eth","processor_tip":0.01`, 503, "eth"},
		{"no tip on base", `"chain":"base","processor_tip":0`, 503, "base"},
		{"auto_tip on base", `"chain":"base","auto_tip":true,"processor_tip":0.01`, 503, "base"},
		{"no chain named", `"processor_tip":0.01`, 503, "evm"},
	})
}

// TestAntiMEVWhereNoChainHasARelay: anti_mev on a served EVM chain without
// a private relay is 400 naming the field, before the charge. A chain no
// worker serves is answered as such, 503 naming it, whatever its relay;
// with no chain named, the worker decides once it has found the chain.
func TestAntiMEVWhereNoChainHasARelay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, servedChains{wire.ChainBase: true},
		withPrivateRelay(func(chain string) bool { return chain == "eth" }))
	wantRefusedFree(t, h, "anti_mev is not available on base", []refusalCase{
		{"anti_mev on base", `"chain":"base","anti_mev":true`, 400, "anti_mev"},
		{"anti_mev on eth, not served", `"chain":"eth","anti_mev":true`, 503, "eth"},
		{"anti_mev on bsc, not served", `"chain":"bsc","anti_mev":true`, 503, "bsc"},
		{"no chain named", `"anti_mev":true`, 503, "evm"},
	})
}

// refusalCase is an EVM swap with extra fields, and the status and details
// it is answered with.
type refusalCase struct {
	name, extra string
	status      int
	details     string
}

// wantRefusedFree sends each case's swap and checks its answer; a 400 must
// say why (message), and no case may be charged.
func wantRefusedFree(t *testing.T, h *harness, message string, cases []refusalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := do("POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json", swapWith(evmTok, tc.extra))
			if err != nil {
				t.Fatal(err)
			}
			if a.status != tc.status || a.details() != tc.details {
				t.Fatalf("%d %s, want %d naming %s", a.status, a.raw, tc.status, tc.details)
			}
			if a.status == 400 && !strings.Contains(a.raw, message) {
				t.Fatalf("message: %s", a.raw)
			}
			if a.header.Get("X-RateLimit-Remaining-Minute") != "60" {
				t.Fatalf("charged: %s", a.header.Get("X-RateLimit-Remaining-Minute"))
			}
		})
	}
}

// servedChains is a presence of workers for the chains it names.
type servedChains map[string]bool

func (s servedChains) Available(chain string) bool { return s[chain] }
