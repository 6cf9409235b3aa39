package registry

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	devsol "github.com/tradeapi/tradeapi/shared/devnet/solana"
)

// fakeDevnet records what the handlers ask of a chain.
type fakeDevnet struct {
	mu     sync.Mutex
	funds  []FundRequest
	tokens []TokenRequest
	fail   error
}

func (f *fakeDevnet) Chains() map[string]ChainEndpoints {
	return map[string]ChainEndpoints{"solana": {RPCURL: "http://127.0.0.1:1/solana", RelayURL: "http://127.0.0.1:1/solana/bundles", Venues: []string{"pump_fun"}}}
}

func (f *fakeDevnet) Fund(_ context.Context, req FundRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.funds = append(f.funds, req)
	return f.fail
}

func (f *fakeDevnet) CreateToken(_ context.Context, req TokenRequest) (Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens = append(f.tokens, req)
	if f.fail != nil {
		return Token{}, f.fail
	}
	return Token{Address: "Mint111", Pool: "Curve111"}, nil
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
	tr := startRegistry(t, b, t.TempDir(), Devnets{"solana": fake})
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
	if len(fake.funds) != 2 || fake.funds[0] != (FundRequest{Chain: "solana", Address: addr, Amount: "1.5"}) ||
		fake.funds[1] != (FundRequest{Chain: "solana", Address: addr, Token: "USDC", TokenAmount: "10"}) {
		t.Errorf("funds %+v", fake.funds)
	}
	if tk := fake.tokens[0]; tk.Liquidity != "12.5" || tk.BuyTaxPct == nil || *tk.BuyTaxPct != 3 || tk.SellTaxPct != nil {
		t.Errorf("token request %+v", tk)
	}
}

// startSolana runs the local Solana chain on a free port.
func startSolana(t *testing.T) (*devsol.Chain, *SolanaDevnet) {
	t.Helper()
	chain := devsol.New(devsol.Config{SlotDuration: 50 * time.Millisecond})
	url, err := chain.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	return chain, NewSolanaDevnet(SolanaDevnetConfig{RPCURL: url, RelayURL: url + "/bundles"})
}

func TestSolanaDevnet(t *testing.T) {
	chain, dn := startSolana(t)
	ctx := context.Background()
	k, _ := solana.NewRandomPrivateKey()
	owner := k.PublicKey()

	// Whole units in, lamports on the chain, whole units out, exactly.
	if err := dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Amount: "2.000000001"}); err != nil {
		t.Fatal(err)
	}
	if got := chain.Balance(owner); got != 2_000_000_001 {
		t.Fatalf("balance %d lamports", got)
	}
	if got, err := dn.Balance(ctx, "solana", owner.String(), ""); err != nil || got != "2.000000001" {
		t.Fatalf("Balance = %q, %v", got, err)
	}

	tok, err := dn.CreateToken(ctx, TokenRequest{Chain: "solana", Venue: "pump_fun", Name: "Demo Coin", Symbol: "DEMO"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Address == "" || tok.Pool == "" {
		t.Fatalf("token %+v", tok)
	}
	if err := dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Token: tok.Address, TokenAmount: "12.345678"}); err != nil {
		t.Fatal(err)
	}
	if got, err := chain.TokenBalance(owner, solana.MustPublicKeyFromBase58(tok.Address)); err != nil || got != 12_345_678 {
		t.Fatalf("token balance %d base units, %v", got, err)
	}
	if got, err := dn.Balance(ctx, "solana", owner.String(), tok.Address); err != nil || got != "12.345678" {
		t.Fatalf("token Balance = %q, %v", got, err)
	}
	other, _ := solana.NewRandomPrivateKey()
	if got, err := dn.Balance(ctx, "solana", other.PublicKey().String(), tok.Address); err != nil || got != "0" {
		t.Fatalf("empty token Balance = %q, %v", got, err)
	}

	for _, tc := range []struct {
		name    string
		run     func() error
		code    apierr.Code
		details string
	}{
		{"too many decimals", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Amount: "0.0000000001"})
		}, apierr.InvalidRequest, "amount"},
		{"token too many decimals", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Token: tok.Address, TokenAmount: "1.0000001"})
		}, apierr.InvalidRequest, "token_amount"},
		{"bad address", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "solana", Address: "0xabc", Amount: "1"})
		}, apierr.InvalidRequest, "address"},
		{"unknown symbol", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Token: "USDT", TokenAmount: "1"})
		}, apierr.InvalidRequest, "token"},
		{"mint that does not exist", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "solana", Address: owner.String(), Token: other.PublicKey().String(), TokenAmount: "1"})
		}, apierr.InvalidRequest, "token"},
		{"other chain", func() error {
			return dn.Fund(ctx, FundRequest{Chain: "eth", Address: owner.String(), Amount: "1"})
		}, apierr.InvalidRequest, "chain"},
		{"unknown venue", func() error {
			_, err := dn.CreateToken(ctx, TokenRequest{Chain: "solana", Venue: "bonk", Name: "A", Symbol: "A"})
			return err
		}, apierr.InvalidRequest, "venue"},
		{"long symbol", func() error {
			_, err := dn.CreateToken(ctx, TokenRequest{Chain: "solana", Venue: "pump_fun", Name: "A", Symbol: strings.Repeat("S", 11)})
			return err
		}, apierr.InvalidRequest, "symbol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := apierr.From(tc.run())
			if e == nil || e.Code != tc.code || e.Details != tc.details {
				t.Fatalf("got %v, want %s %q", e, tc.code, tc.details)
			}
		})
	}

	// A chain that does not answer is CHAIN_UNAVAILABLE, not an internal error.
	down := NewSolanaDevnet(SolanaDevnetConfig{RPCURL: "http://127.0.0.1:1", Timeout: time.Second})
	if _, err := down.Balance(ctx, "solana", owner.String(), ""); apierr.From(err).Code != apierr.ChainUnavailable {
		t.Errorf("unreachable chain: %v", err)
	}
}

func TestLocalDevnets(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8899", "http://127.0.0.1:8899/"} {
		got := LocalDevnets(addr).Chains()
		want := ChainEndpoints{RPCURL: "http://127.0.0.1:8899/solana", RelayURL: "http://127.0.0.1:8899/solana/bundles"}
		if len(got) != 1 || got["solana"].RPCURL != want.RPCURL || got["solana"].RelayURL != want.RelayURL {
			t.Errorf("%s: %+v", addr, got)
		}
	}
}

func TestDevnetsRouting(t *testing.T) {
	_, dn := startSolana(t)
	d := Devnets{"solana": dn}
	if eps := d.Chains(); len(eps) != 1 || eps["solana"].RPCURL == "" {
		t.Errorf("chains %+v", eps)
	}
	for _, chain := range []string{"eth", "bsc", "base", "rbh", "arc"} {
		_, err := d.Balance(context.Background(), chain, "0x0000000000000000000000000000000000000001", "")
		e := apierr.From(err)
		if e.Code != apierr.InvalidRequest || e.Details != "chain" || e.Message != "chain "+chain+" has no local development chain configured" {
			t.Errorf("%s: %v", chain, err)
		}
	}
}
