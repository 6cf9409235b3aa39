package devnet_test

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

func TestSolanaDevnetPumpSwap(t *testing.T) {
	chain, dn := startSolana(t)
	ctx := context.Background()
	if v := dn.Chains()["solana"].Venues; len(v) != 4 || v[1] != "pumpswap" {
		t.Fatalf("venues %v", v)
	}
	for _, tc := range []struct {
		quote, liquidity string
		quoteMint        solana.PublicKey
		want             uint64
	}{
		{"", "", pumpswap.WrappedSOLMint, 85_000_000_000},
		{"usdc", "5000.5", pumpswap.USDCMint, 5_000_500_000},
		{"USD1", "", pumpswap.USD1Mint, 12_750_000_000},
	} {
		tok, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: "solana", Venue: "pumpswap", Name: "Swap", Symbol: "SWP", QuoteAsset: tc.quote, Liquidity: tc.liquidity})
		if err != nil {
			t.Fatal(err)
		}
		mint := solana.MustPublicKeyFromBase58(tok.Address)
		if tok.Pool != pumpswap.CanonicalPoolPDA(mint, tc.quoteMint).String() {
			t.Fatalf("%s: pool %s is not the canonical pool", tc.quote, tok.Pool)
		}
		vault, ok := chain.GetAccount(pumpswap.AssociatedTokenAddress(solana.MustPublicKeyFromBase58(tok.Pool), tc.quoteMint, pumpswap.TokenProgramID))
		if !ok || binary.LittleEndian.Uint64(vault.Data[64:]) != tc.want {
			t.Fatalf("%s: quote vault %+v", tc.quote, vault)
		}
	}
	// The stables fund by symbol.
	owner := solana.NewWallet().PublicKey()
	if err := dn.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: owner.String(), Amount: "1", Token: "USDC", TokenAmount: "250.5"}); err != nil {
		t.Fatal(err)
	}
	if got, err := dn.Balance(ctx, "solana", owner.String(), "usdc"); err != nil || got != "250.5" {
		t.Fatalf("USDC balance %q %v", got, err)
	}
	for _, tc := range []struct {
		name    string
		req     devnet.TokenRequest
		details string
	}{
		{"curve in USDC", devnet.TokenRequest{Chain: "solana", Venue: "pump_fun", Name: "A", Symbol: "A", QuoteAsset: "USDC"}, "quote_asset"},
		{"unknown quote", devnet.TokenRequest{Chain: "solana", Venue: "pumpswap", Name: "A", Symbol: "A", QuoteAsset: "USDT"}, "quote_asset"},
		{"stable liquidity too precise", devnet.TokenRequest{Chain: "solana", Venue: "pumpswap", Name: "A", Symbol: "A", QuoteAsset: "USDC", Liquidity: "1.0000001"}, "liquidity"},
		{"LaunchLab in USDC", devnet.TokenRequest{Chain: "solana", Venue: "launchlab", Name: "A", Symbol: "A", QuoteAsset: "USDC"}, "quote_asset"},
		{"DBC in USD1", devnet.TokenRequest{Chain: "solana", Venue: "dbc", Name: "A", Symbol: "A", QuoteAsset: "USD1"}, "quote_asset"},
		{"curve with liquidity", devnet.TokenRequest{Chain: "solana", Venue: "launchlab", Name: "A", Symbol: "A", Liquidity: "5"}, "liquidity"},
		{"DBC with a creator", devnet.TokenRequest{Chain: "solana", Venue: "dbc", Name: "A", Symbol: "A", Creator: solana.NewWallet().PublicKey().String()}, "creator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dn.CreateToken(ctx, tc.req)
			if e := apierr.From(err); e == nil || e.Code != apierr.InvalidRequest || e.Details != tc.details {
				t.Fatalf("got %v, want INVALID_REQUEST %q", err, tc.details)
			}
		})
	}
}

// TestSolanaDevnetLaunchpadTokens: the local chain's launchpad coins, on
// each curve and quote it has, trade on a curve quoted as asked.
func TestSolanaDevnetLaunchpadTokens(t *testing.T) {
	chain, dn := startSolana(t)
	ctx := context.Background()
	creator := solana.NewWallet().PublicKey()
	for _, tc := range []struct {
		venue, quote, creator string
		owner                 solana.PublicKey
		quoteMint             solana.PublicKey
	}{
		{"launchlab", "", creator.String(), launchlab.ProgramID, launchlab.WrappedSOLMint},
		{"launchlab", "usd1", "", launchlab.ProgramID, pumpswap.USD1Mint},
		{"dbc", "SOL", "", dbc.ProgramID, dbc.WrappedSOLMint},
		{"dbc", "USDC", "", dbc.ProgramID, pumpswap.USDCMint},
	} {
		tok, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: "solana", Venue: tc.venue, Name: "Pad", Symbol: "PAD", QuoteAsset: tc.quote, Creator: tc.creator})
		if err != nil {
			t.Fatalf("%s in %q: %v", tc.venue, tc.quote, err)
		}
		pool, ok := chain.GetAccount(solana.MustPublicKeyFromBase58(tok.Pool))
		if !ok || pool.Owner != tc.owner {
			t.Fatalf("%s in %q: pool %s %+v", tc.venue, tc.quote, tok.Pool, pool)
		}
		mint := solana.MustPublicKeyFromBase58(tok.Address)
		switch tc.venue {
		case "launchlab":
			p, err := launchlab.DecodePool(pool.Data)
			if err != nil || p.BaseMint != mint || p.QuoteMint != tc.quoteMint {
				t.Fatalf("LaunchLab pool %+v %v", p, err)
			}
			if tc.creator != "" && p.Creator != creator {
				t.Fatalf("LaunchLab pool's creator %s, want %s", p.Creator, creator)
			}
		case "dbc":
			p, err := dbc.DecodeVirtualPool(pool.Data)
			if err != nil || p.BaseMint != mint {
				t.Fatalf("DBC pool %+v %v", p, err)
			}
			if tok.Pool != dbc.PoolPDA(p.Config, mint, tc.quoteMint).String() {
				t.Fatalf("DBC pool %s is not its config's pool quoted in %s", tok.Pool, tc.quoteMint)
			}
		}
	}
}
