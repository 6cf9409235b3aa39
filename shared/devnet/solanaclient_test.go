package devnet_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/devnet"
	devsol "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
)

// startSolana runs the local Solana chain on a free port.
func startSolana(t *testing.T) (*devsol.Chain, *devnet.SolanaDevnet) {
	t.Helper()
	chain := devsol.New(devsol.Config{SlotDuration: 50 * time.Millisecond})
	url, err := chain.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	return chain, devnet.NewSolanaDevnet(devnet.SolanaDevnetConfig{RPCURL: url, RelayURL: url + "/bundles"})
}

func TestSolanaDevnet(t *testing.T) {
	chain, dn := startSolana(t)
	ctx := context.Background()
	k, _ := solana.NewRandomPrivateKey()
	owner := k.PublicKey()

	// Whole units in, lamports on the chain, whole units out, exactly.
	if err := dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Amount: "2.000000001"}); err != nil {
		t.Fatal(err)
	}
	if got := chain.Balance(owner); got != 2_000_000_001 {
		t.Fatalf("balance %d lamports", got)
	}
	if got, err := dn.Balance(ctx, "solana", owner.String(), ""); err != nil || got != "2.000000001" {
		t.Fatalf("Balance = %q, %v", got, err)
	}

	tok, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: "solana", Venue: "pump_fun", Name: "Demo Coin", Symbol: "DEMO"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Address == "" || tok.Pool == "" {
		t.Fatalf("token %+v", tok)
	}
	if err := dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Token: tok.Address, TokenAmount: "12.345678"}); err != nil {
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
			return dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Amount: "0.0000000001"})
		}, apierr.InvalidRequest, "amount"},
		{"token too many decimals", func() error {
			return dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Token: tok.Address, TokenAmount: "1.0000001"})
		}, apierr.InvalidRequest, "token_amount"},
		{"bad address", func() error {
			return dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: "0xabc", Amount: "1"})
		}, apierr.InvalidRequest, "address"},
		{"unknown symbol", func() error {
			return dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Token: "USDT", TokenAmount: "1"})
		}, apierr.InvalidRequest, "token"},
		{"mint that does not exist", func() error {
			return dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Token: other.PublicKey().String(), TokenAmount: "1"})
		}, apierr.InvalidRequest, "token"},
		{"other chain", func() error {
			return dn.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: owner.String(), Amount: "1"})
		}, apierr.InvalidRequest, "chain"},
		{"unknown venue", func() error {
			_, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: "solana", Venue: "bonk", Name: "A", Symbol: "A"})
			return err
		}, apierr.InvalidRequest, "venue"},
		{"long symbol", func() error {
			_, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: "solana", Venue: "pump_fun", Name: "A", Symbol: strings.Repeat("S", 11)})
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
	down := devnet.NewSolanaDevnet(devnet.SolanaDevnetConfig{RPCURL: "http://127.0.0.1:1", Timeout: time.Second})
	if _, err := down.Balance(ctx, "solana", owner.String(), ""); apierr.From(err).Code != apierr.ChainUnavailable {
		t.Errorf("unreachable chain: %v", err)
	}
}

func TestLocalDevnets(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8899", "http://127.0.0.1:8899/"} {
		got := devnet.LocalDevnets(addr).Chains()
		want := devnet.ChainEndpoints{RPCURL: "http://127.0.0.1:8899/solana", RelayURL: "http://127.0.0.1:8899/solana/bundles"}
		if len(got) != 1 || got["solana"].RPCURL != want.RPCURL || got["solana"].RelayURL != want.RelayURL {
			t.Errorf("%s: %+v", addr, got)
		}
	}
}

func TestDevnetsRouting(t *testing.T) {
	_, dn := startSolana(t)
	d := devnet.Devnets{"solana": dn}
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

// TestSolanaDevnetInProcess runs the client against the chain's JSON-RPC
// handler registered in process for the address of a server that counts
// what reaches it over the network: the calls are answered by the same
// handler without reaching the network, and reach it again once the
// registration is undone.
func TestSolanaDevnetInProcess(t *testing.T) {
	chain := devsol.New(devsol.Config{SlotDuration: 50 * time.Millisecond})
	t.Cleanup(func() { chain.Close() })
	var dialled atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dialled.Add(1)
		chain.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	unregister, err := endpoint.ServeInProcess(strings.TrimPrefix(srv.URL, "http://"), chain.Handler())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
	dn := devnet.NewSolanaDevnet(devnet.SolanaDevnetConfig{RPCURL: srv.URL})
	ctx := context.Background()
	k, _ := solana.NewRandomPrivateKey()
	owner := k.PublicKey()

	if err := dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Amount: "1.5"}); err != nil {
		t.Fatal(err)
	}
	if got := chain.Balance(owner); got != 1_500_000_000 {
		t.Fatalf("balance %d lamports", got)
	}
	if got, err := dn.Balance(ctx, "solana", owner.String(), ""); err != nil || got != "1.5" {
		t.Fatalf("Balance = %q, %v", got, err)
	}
	// The chain's own refusal comes back as it does over the network.
	err = dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Token: owner.String(), TokenAmount: "1"})
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.InvalidRequest || !strings.Contains(ae.Message, "the local solana chain refused") {
		t.Fatalf("funding a token that is no mint: %v", err)
	}
	if n := dialled.Load(); n != 0 {
		t.Fatalf("%d calls went over the network", n)
	}

	unregister()
	if got, err := dn.Balance(ctx, "solana", owner.String(), ""); err != nil || got != "1.5" {
		t.Fatalf("Balance over the network = %q, %v", got, err)
	}
	if dialled.Load() == 0 {
		t.Fatal("with the registration undone, no call went over the network")
	}
}
