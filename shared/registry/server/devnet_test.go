package server

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/tradeapi/tradeapi/shared/devnet"
)

// fakeDevnet records what the handlers ask of a chain.
type fakeDevnet struct {
	mu     sync.Mutex
	funds  []devnet.FundRequest
	tokens []devnet.TokenRequest
	fail   error
}

func (f *fakeDevnet) Chains() map[string]devnet.ChainEndpoints {
	return map[string]devnet.ChainEndpoints{"solana": {RPCURL: "http://127.0.0.1:1/solana", RelayURL: "http://127.0.0.1:1/solana/bundles", Venues: []string{"pump_fun"}}}
}

func (f *fakeDevnet) Fund(_ context.Context, req devnet.FundRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.funds = append(f.funds, req)
	return f.fail
}

func (f *fakeDevnet) CreateToken(_ context.Context, req devnet.TokenRequest) (devnet.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens = append(f.tokens, req)
	if f.fail != nil {
		return devnet.Token{}, f.fail
	}
	return devnet.Token{Address: "Mint111", Pool: "Curve111"}, nil
}

func (f *fakeDevnet) Balance(_ context.Context, chain, address, token string) (string, error) {
	return "1.5", nil
}

func (f *fakeDevnet) counts() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.funds), len(f.tokens)
}

func TestAdminDevnetRoutes(t *testing.T) {
	b := startBus(t)
	fake := &fakeDevnet{}
	tr := startRegistry(t, b, t.TempDir(), devnet.Devnets{"solana": fake})
	addr := "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
	runAdminCases(t, tr, []adminCase{
		{name: "chains", method: "GET", path: "/admin/v1/devnet", status: 200},
		{name: "chains need the token", method: "GET", path: "/admin/v1/devnet", auth: "-", status: 401, code: "UNAUTHORIZED"},
		{name: "fund", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "amount": "1.5"}, status: 200},
		{name: "fund tokens", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "Solana", "address": addr, "token": "USDC", "token_amount": "10"}, status: 200},
		{name: "fund without chain", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"address": addr, "amount": "1"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "fund unknown chain", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "doge", "address": addr, "amount": "1"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "fund evm chain not configured", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "eth", "address": "0x0000000000000000000000000000000000000001", "amount": "1"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "fund without address", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "amount": "1"}, status: 400, code: "INVALID_REQUEST", details: "address"},
		{name: "fund without amount", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr}, status: 400, code: "INVALID_REQUEST", details: "amount"},
		{name: "fund amount exponent", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "amount": "1e3"}, status: 400, code: "INVALID_REQUEST", details: "amount"},
		{name: "fund amount number", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "amount": 1}, status: 400, code: "INVALID_REQUEST", details: "amount"},
		{name: "fund negative", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "amount": "-1"}, status: 400, code: "INVALID_REQUEST", details: "amount"},
		{name: "fund token without amount", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "token": "USDC"}, status: 400, code: "INVALID_REQUEST", details: "token_amount"},
		{name: "fund token amount without token", method: "POST", path: "/admin/v1/devnet/fund", body: map[string]any{"chain": "solana", "address": addr, "amount": "1", "token_amount": "1"}, status: 400, code: "INVALID_REQUEST", details: "token"},
		{name: "token", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A", "symbol": "A", "liquidity": 12.5, "buy_tax_pct": 3}, status: 201},
		{name: "token without venue", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "name": "A", "symbol": "A"}, status: 400, code: "INVALID_REQUEST", details: "venue"},
		{name: "token without symbol", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A"}, status: 400, code: "INVALID_REQUEST", details: "symbol"},
		{name: "token tax over 100", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A", "symbol": "A", "sell_tax_pct": 101}, status: 400, code: "INVALID_REQUEST", details: "sell_tax_pct"},
		{name: "token tax exponent beyond a percentage", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A", "symbol": "A", "sell_tax_pct": json.RawMessage("1e-999999")}, status: 400, code: "INVALID_REQUEST", details: "sell_tax_pct"},
		{name: "token bad liquidity", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A", "symbol": "A", "liquidity": "lots"}, status: 400, code: "INVALID_REQUEST", details: "liquidity"},
		{name: "token on bsc", method: "POST", path: "/admin/v1/devnet/tokens", body: map[string]any{"chain": "bsc", "venue": "v2", "name": "A", "symbol": "A"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "balance", method: "GET", path: "/admin/v1/devnet/balance?chain=solana&address=" + addr, status: 200},
		{name: "balance without address", method: "GET", path: "/admin/v1/devnet/balance?chain=solana", status: 400, code: "INVALID_REQUEST", details: "address"},
		{name: "balance without chain", method: "GET", path: "/admin/v1/devnet/balance?address=" + addr, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "balance on base", method: "GET", path: "/admin/v1/devnet/balance?chain=base&address=" + addr, status: 400, code: "INVALID_REQUEST", details: "chain"},
	})
	a := tr.do(t, "GET", "/admin/v1/devnet", nil)
	if want := `{"chains":{"solana":{"rpc_url":"http://127.0.0.1:1/solana","relay_url":"http://127.0.0.1:1/solana/bundles"}}}`; string(a.Data) != want {
		t.Errorf("chains %s, want %s", a.Data, want)
	}
	a = tr.do(t, "POST", "/admin/v1/devnet/tokens", map[string]any{"chain": "solana", "venue": "pump_fun", "name": "A", "symbol": "A"})
	if string(a.Data) != `{"address":"Mint111","pool":"Curve111"}` {
		t.Errorf("token answer %s", a.Data)
	}
	if a = tr.do(t, "GET", "/admin/v1/devnet/balance?chain=solana&address="+addr, nil); string(a.Data) != `{"amount":"1.5"}` {
		t.Errorf("balance answer %s", a.Data)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.funds) != 2 || fake.funds[0] != (devnet.FundRequest{Chain: "solana", Address: addr, Amount: "1.5"}) ||
		fake.funds[1] != (devnet.FundRequest{Chain: "solana", Address: addr, Token: "USDC", TokenAmount: "10"}) {
		t.Errorf("funds %+v", fake.funds)
	}
	if tk := fake.tokens[0]; tk.Liquidity != "12.5" || tk.BuyTaxPct == nil || *tk.BuyTaxPct != 3 || tk.SellTaxPct != nil {
		t.Errorf("token request %+v", tk)
	}
}
