package service

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestSkipIfBoughtAtOnceByMintAndPool: buys with skip_if_bought of a token
// the account never bought, sent at once, some naming the token by its
// mint and the others by its pool (a pump.fun coin's bonding curve, a
// PumpSwap pool, an EVM token's V2 pair or V3 pool), buy once. Ingress
// claims each name as the request gives it, and cannot tell the two apart;
// the worker's claim of the resolved mint makes the others skipped: 200,
// no signatures, the order confirmed and skipped, naming no mint.
func TestSkipIfBoughtAtOnceByMintAndPool(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	env := newExitsEnv(t, u, cfg)
	for _, tc := range []struct {
		name   string
		family wire.Family
		token  map[string]any
		chain  string
		// mixed: every buy names the token, every other one the chain
		// too (chain) and the rest none.
		mixed bool
	}{
		{"pump.fun mint and bonding curve", wire.FamilySol, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Twice", "symbol": "TW"}, "", false},
		{"pumpswap mint and pool", wire.FamilySol, map[string]any{"chain": "solana", "venue": "pumpswap", "name": "Pool", "symbol": "PL", "liquidity": "20"}, "", false},
		{"v2 token and pair", wire.FamilyEVM, map[string]any{"chain": "base", "venue": "v2", "name": "Pair", "symbol": "PR", "liquidity": "1"}, "base", false},
		{"v3 token and pool", wire.FamilyEVM, map[string]any{"chain": "base", "venue": "v3", "name": "Tier", "symbol": "TR", "fee_tier": 500}, "", false},
		{"evm token with and without its chain", wire.FamilyEVM, map[string]any{"chain": "base", "venue": "v2", "name": "Either", "symbol": "EI", "liquidity": "1"}, "base", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := env.token(t, tc.token)
			if tok.Pool == "" || strings.EqualFold(tok.Pool, tok.Address) {
				t.Fatalf("token %+v has no pool of its own", tok)
			}
			base, key, wallet := env.sol, env.solKey, env.solW[0]
			if tc.family == wire.FamilyEVM {
				base, key, wallet = env.evm, env.evmKey, env.evmW[0]
			}
			answers := make([]reply, 6)
			var wg sync.WaitGroup
			for i := range answers {
				addr := tok.Address
				if i%2 == 1 && !tc.mixed {
					addr = tok.Pool
				}
				body := map[string]any{"address": addr, "side": "Buy", "slippage": 10, "skip_if_bought": true,
					"wallets": []any{map[string]any{"address": wallet, "amount": "0.01"}}}
				if tc.chain != "" && (!tc.mixed || i%2 == 0) {
					body["chain"] = tc.chain
				}
				wg.Go(func() { answers[i] = do(t, "POST", base+"/api/v1/swap", key, body) })
			}
			wg.Wait()
			var bought []string
			for _, a := range answers {
				var d swapData
				if a.Status != 200 || json.Unmarshal(a.Body.Data, &d) != nil {
					t.Fatalf("%d %s", a.Status, a.Raw)
				}
				if !d.Skipped {
					bought = append(bought, d.OrderID)
					continue
				}
				if d.Signatures == nil || len(d.Signatures) != 0 {
					t.Fatalf("a skipped buy answers signatures %v: %s", d.Signatures, a.Raw)
				}
				l := do(t, "GET", base+"/api/v1/orders/"+d.OrderID, key, nil)
				var o struct {
					State      string `json:"state"`
					Skipped    bool   `json:"skipped"`
					Mint       string `json:"mint"`
					Signatures []any  `json:"signatures"`
				}
				if l.Status != 200 || json.Unmarshal(l.Body.Data, &o) != nil || o.State != wire.StateConfirmed || !o.Skipped ||
					o.Mint != "" || len(o.Signatures) != 0 {
					t.Fatalf("the lookup of skipped buy %s: %d %s", d.OrderID, l.Status, l.Raw)
				}
			}
			if len(bought) != 1 {
				t.Fatalf("%d of 6 buys at once by the mint and the pool bought (%v), want one", len(bought), bought)
			}
			waitOrder(t, base, key, bought[0], wire.StateConfirmed)
		})
	}
}
