package devnet_test

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// evmDevnet returns the EVM client of a chain.
func evmDevnet(t *testing.T, devnets devnet.Devnets, chain string) *devnet.EVMDevnet {
	t.Helper()
	d, ok := devnets[chain].(*devnet.EVMDevnet)
	if !ok {
		t.Fatalf("%s has no EVM devnet", chain)
	}
	return d
}

// TestEVMClient drives the EVM devnet client against local chains
// served over HTTP, as the admin endpoints do when the devnet runs in
// another process.
func TestEVMClient(t *testing.T) {
	cs, err := evm.New(evm.Config{Names: []string{"eth", "bsc", "arc"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	srv := httptest.NewServer(cs.Handler())
	t.Cleanup(srv.Close)
	devnets := devnet.LocalEVMDevnets(srv.URL, []string{"eth", "bsc", "arc"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("endpoints", func(t *testing.T) {
		eps := devnets.Chains()
		for _, name := range []string{"eth", "bsc", "arc"} {
			ep := eps[name]
			if ep.RPCURL != srv.URL+"/evm/"+name || ep.RelayURL != srv.URL+"/evm/"+name+"/relay" ||
				!slices.Equal(ep.Venues, []string{"v2", "v3"}) {
				t.Fatalf("%s endpoints %+v", name, ep)
			}
		}
	})

	wallet := "0x00000000000000000000000000000000000a11ce"
	balance := func(t *testing.T, chain, address, token, want string) {
		t.Helper()
		got, err := devnets.Balance(ctx, chain, address, token)
		if err != nil || got != want {
			t.Fatalf("balance of %q on %s = %q, %v; want %q", token, chain, got, err, want)
		}
	}

	t.Run("fund", func(t *testing.T) {
		tests := []struct {
			name string
			req  devnet.FundRequest
			// want maps a token ("" for native) to the whole-unit balance.
			want map[string]string
		}{
			{"eth native and USDC", devnet.FundRequest{Chain: "eth", Address: wallet, Amount: "1.5",
				Token: "USDC", TokenAmount: "250.123456"}, map[string]string{"": "1.5", "USDC": "250.123456", "usdt": "0"}},
			{"bsc USD1 smallest unit", devnet.FundRequest{Chain: "bsc", Address: wallet,
				Token: "usd1", TokenAmount: "0.000000000000000001"}, map[string]string{"USD1": "0.000000000000000001", "BNB": "0"}},
			{"arc native USDC named twice", devnet.FundRequest{Chain: "arc", Address: wallet, Amount: "2",
				Token: "USDC", TokenAmount: "3"}, map[string]string{"": "5", "USDC": "5"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := devnets.Fund(ctx, tt.req); err != nil {
					t.Fatal(err)
				}
				for token, want := range tt.want {
					balance(t, tt.req.Chain, wallet, token, want)
				}
			})
		}
	})

	// On arc the native coin is USDC: its amount has 18 decimals (wei), its
	// ERC-20 (the chain's native token) 6, and funding either credits
	// both; Balance of "USDC" is the ERC-20's.
	t.Run("arc native amounts", func(t *testing.T) {
		arcWallet := "0x00000000000000000000000000000000000a1c02"
		if err := devnets.Fund(ctx, devnet.FundRequest{Chain: "arc", Address: arcWallet, Amount: "1.000000000000000001"}); err != nil {
			t.Fatal(err)
		}
		balance(t, "arc", arcWallet, "", "1.000000000000000001")
		balance(t, "arc", arcWallet, "USDC", "1")
		if err := devnets.Fund(ctx, devnet.FundRequest{Chain: "arc", Address: arcWallet, Token: "usdc", TokenAmount: "0.000001"}); err != nil {
			t.Fatal(err)
		}
		balance(t, "arc", arcWallet, "", "1.000001000000000001")
		balance(t, "arc", arcWallet, "USDC", "1.000001")
		arc, _ := cs.Chain("arc")
		balance(t, "arc", arcWallet, arc.Deployment().NativeToken.Hex(), "1.000001")
		var ae *apierr.Error
		err := devnets.Fund(ctx, devnet.FundRequest{Chain: "arc", Address: arcWallet, Token: "USDC", TokenAmount: "0.0000001"})
		if !errors.As(err, &ae) || ae.Code != apierr.InvalidRequest || ae.Details != "token_amount" {
			t.Fatalf("USDC beyond 6 decimals on arc: %v, want INVALID_REQUEST naming token_amount", err)
		}
	})

	t.Run("arc tokens pool against the native token", func(t *testing.T) {
		arc, _ := cs.Chain("arc")
		d := arc.Deployment()
		tier := int64(500)
		for _, tt := range []struct {
			venue     string
			feeTier   *int64
			liquidity string
		}{{"v2", nil, "1000.5"}, {"v3", &tier, "2500.25"}} {
			tok, err := evmDevnet(t, devnets, "arc").CreateTokenWithFeeTier(ctx, devnet.TokenRequest{Chain: "arc", Venue: tt.venue,
				Name: "Arc", Symbol: "ARC", Liquidity: tt.liquidity}, tt.feeTier)
			if err != nil {
				t.Fatal(err)
			}
			want := uniswap.V2PairAddress(d.Factory, common.HexToAddress(tok.Address), d.NativeToken)
			if tt.venue == "v3" {
				want = uniswap.V3PoolAddress(d.V3Factory, common.HexToAddress(tok.Address), d.NativeToken, uint32(tier))
			}
			if tok.Pool != want.Hex() {
				t.Fatalf("%s pool %s, want %s against the native token", tt.venue, tok.Pool, want)
			}
			got, err := devnets.Balance(ctx, "arc", tok.Pool, "USDC")
			if err != nil {
				t.Fatal(err)
			}
			gotR, _ := new(big.Rat).SetString(got)
			wantR, _ := new(big.Rat).SetString(tt.liquidity)
			if short := new(big.Rat).Sub(wantR, gotR); short.Sign() < 0 || short.Cmp(big.NewRat(1, 1_000_000)) > 0 {
				t.Fatalf("%s pool holds %s USDC, want %s", tt.venue, got, tt.liquidity)
			}
		}
		var ae *apierr.Error
		_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "arc", Venue: "v2", Name: "X", Symbol: "X", Liquidity: "1.0000001"})
		if !errors.As(err, &ae) || ae.Code != apierr.InvalidRequest || ae.Details != "liquidity" {
			t.Fatalf("liquidity beyond 6 decimals on arc: %v, want INVALID_REQUEST naming liquidity", err)
		}
	})

	t.Run("create v2 token with taxes", func(t *testing.T) {
		buy, sell := 5.0, 10.0
		creator := "0x00000000000000000000000000000000000c0de1"
		tok, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "Taxed",
			Symbol: "TAX", Liquidity: "2", BuyTaxPct: &buy, SellTaxPct: &sell, Creator: creator})
		if err != nil {
			t.Fatal(err)
		}
		balance(t, "eth", creator, tok.Address, "100000000")
		balance(t, "eth", tok.Pool, tok.Address, "900000000")
		balance(t, "eth", tok.Pool, "0x22b67b2E34042F233F6553476351302aFCCDfEFC", "2") // WETH, nonce 0 of the deployer

		eth, _ := cs.Chain("eth")
		rc, err := rpc.Dial(srv.URL + "/evm/eth")
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, s, err := contracts.ProbeTax(ctx, rc, eth.Deployment().Router02, common.HexToAddress(tok.Address), common.Address{}, big.NewInt(1e15))
		if err != nil || b != 500 || s != 1000 {
			t.Fatalf("probed %d/%d bps, %v; want 500/1000", b, s, err)
		}

		// A created token can be funded by address.
		if err := devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: tok.Address, TokenAmount: "12.5"}); err != nil {
			t.Fatal(err)
		}
		balance(t, "eth", wallet, tok.Address, "12.5")
	})

	t.Run("create v2 token against a stable", func(t *testing.T) {
		tok, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "Stable quoted",
			Symbol: "SQ", QuoteAsset: "usdc", Liquidity: "1000.5"})
		if err != nil {
			t.Fatal(err)
		}
		balance(t, "eth", tok.Pool, "USDC", "1000.5")
		balance(t, "eth", tok.Pool, tok.Address, "900000000")
	})

	t.Run("create v3 tokens", func(t *testing.T) {
		eth, _ := cs.Chain("eth")
		bsc, _ := cs.Chain("bsc")
		tier := func(v int64) *int64 { return &v }
		tests := []struct {
			name    string
			req     devnet.TokenRequest
			feeTier *int64
			// wantFee is the pool's fee tier, quote the pool's quote
			// token and liquidity what the pool holds of it at most.
			wantFee   uint32
			quote     common.Address
			liquidity string
		}{
			{"native, default fee tier", devnet.TokenRequest{Chain: "eth", Venue: "v3", Name: "Three", Symbol: "THR", Liquidity: "3"},
				nil, 3000, eth.Deployment().WrappedNative, "3"},
			{"stable, fee tier 100", devnet.TokenRequest{Chain: "eth", Venue: "V3", Name: "Three", Symbol: "THR", QuoteAsset: "usdt",
				Liquidity: "25000"}, tier(100), 100, eth.Deployment().Stables["USDT"], "25000"},
			{"18-decimal stable, fee tier 10000, zero taxes", devnet.TokenRequest{Chain: "bsc", Venue: "v3", Name: "Three", Symbol: "THR",
				QuoteAsset: "USD1", Liquidity: "12345.5", BuyTaxPct: new(float64), SellTaxPct: new(float64)}, tier(10000), 10000,
				bsc.Deployment().Stables["USD1"], "12345.5"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tok, err := evmDevnet(t, devnets, tt.req.Chain).CreateTokenWithFeeTier(ctx, tt.req, tt.feeTier)
				if err != nil {
					t.Fatal(err)
				}
				chain, _ := cs.Chain(tt.req.Chain)
				want := uniswap.V3PoolAddress(chain.Deployment().V3Factory, common.HexToAddress(tok.Address), tt.quote, tt.wantFee)
				if tok.Pool != want.Hex() {
					t.Fatalf("pool %s, want the fee tier %d pool %s", tok.Pool, tt.wantFee, want)
				}
				// The full-range position takes the quote and 90% of the
				// supply but for the rounding of its liquidity.
				for token, want := range map[string]string{tt.quote.Hex(): tt.liquidity, tok.Address: "900000000"} {
					got, err := devnets.Balance(ctx, tt.req.Chain, tok.Pool, token)
					if err != nil {
						t.Fatal(err)
					}
					gotR, _ := new(big.Rat).SetString(got)
					wantR, _ := new(big.Rat).SetString(want)
					short := new(big.Rat).Sub(wantR, gotR)
					if short.Sign() < 0 || short.Cmp(new(big.Rat).Mul(wantR, big.NewRat(1, 1_000_000_000))) > 0 {
						t.Fatalf("pool holds %s of %s, want %s less at most a billionth", got, token, want)
					}
				}
			})
		}
	})

	t.Run("refusals", func(t *testing.T) {
		pct := func(v float64) *float64 { return &v }
		noCode := "0x000000000000000000000000000000000000dEaD"
		usdPair := func() string {
			eth, _ := cs.Chain("eth")
			return eth.Deployment().USDPair.Hex()
		}()
		tests := []struct {
			name  string
			run   func() error
			code  apierr.Code
			field string
		}{
			{"solana not configured", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "solana", Address: wallet, Amount: "1"})
			}, apierr.InvalidRequest, "chain"},
			{"bad address", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: "0x1234", Amount: "1"})
			}, apierr.InvalidRequest, "address"},
			// One letter's case mistyped, as the public API refuses it.
			{"address off its checksum", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: "0x52908400098527886E0F7030069857D2E4169Ee7", Amount: "1"})
			}, apierr.InvalidRequest, "address"},
			{"token off its checksum", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: "0x52908400098527886E0F7030069857D2E4169Ee7", TokenAmount: "1"})
			}, apierr.InvalidRequest, "token"},
			{"amount beyond 18 decimals", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Amount: "0.0000000000000000001"})
			}, apierr.InvalidRequest, "amount"},
			{"USDC beyond 6 decimals", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: "USDC", TokenAmount: "1.0000001"})
			}, apierr.InvalidRequest, "token_amount"},
			{"unknown symbol", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: "USDG", TokenAmount: "1"})
			}, apierr.InvalidRequest, "token"},
			{"token without code", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: noCode, TokenAmount: "1"})
			}, apierr.InvalidRequest, "token"},
			{"token the chain cannot mint", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Token: usdPair, TokenAmount: "1"})
			}, apierr.InvalidRequest, "token"},
			{"wrong venue", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "pump_fun", Name: "X", Symbol: "X"})
				return err
			}, apierr.InvalidRequest, "venue"},
			{"buy tax on v3", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v3", Name: "X", Symbol: "X", BuyTaxPct: pct(1)})
				return err
			}, apierr.InvalidRequest, "buy_tax_pct"},
			{"sell tax on v3", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v3", Name: "X", Symbol: "X", SellTaxPct: pct(0.01)})
				return err
			}, apierr.InvalidRequest, "sell_tax_pct"},
			{"fee tier not enabled", func() error {
				_, err := evmDevnet(t, devnets, "eth").CreateTokenWithFeeTier(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v3",
					Name: "X", Symbol: "X"}, &[]int64{2500}[0])
				return err
			}, apierr.InvalidRequest, "fee_tier"},
			{"fee tier with v2", func() error {
				_, err := evmDevnet(t, devnets, "eth").CreateTokenWithFeeTier(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2",
					Name: "X", Symbol: "X"}, &[]int64{3000}[0])
				return err
			}, apierr.InvalidRequest, "fee_tier"},
			{"quote asset of another chain", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "X", Symbol: "X", QuoteAsset: "USD1"})
				return err
			}, apierr.InvalidRequest, "quote_asset"},
			{"liquidity beyond USDC decimals", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "X", Symbol: "X",
					QuoteAsset: "USDC", Liquidity: "1.1234567"})
				return err
			}, apierr.InvalidRequest, "liquidity"},
			{"tax above 100", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "X", Symbol: "X", BuyTaxPct: pct(101)})
				return err
			}, apierr.InvalidRequest, "buy_tax_pct"},
			{"bad creator", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "X", Symbol: "X", Creator: "alice"})
				return err
			}, apierr.InvalidRequest, "creator"},
			{"name too long for the chain", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: string(make([]byte, 65)), Symbol: "X"})
				return err
			}, apierr.InvalidRequest, "name"},
			{"balance of an unknown symbol", func() error {
				_, err := devnets.Balance(ctx, "bsc", wallet, "USDG")
				return err
			}, apierr.InvalidRequest, "token"},
			// A precompile answers decimals() with bytes that are no
			// uint8: no token, not a chain that did not answer.
			{"fund of a precompile", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet,
					Token: "0x0000000000000000000000000000000000000002", TokenAmount: "1"})
			}, apierr.InvalidRequest, "token"},
			{"balance of a precompile", func() error {
				_, err := devnets.Balance(ctx, "eth", wallet, "0x0000000000000000000000000000000000000003")
				return err
			}, apierr.InvalidRequest, "token"},
			// More than the deployer holds failed on chain, an INTERNAL.
			{"amount past what the chain gives", func() error {
				return devnets.Fund(ctx, devnet.FundRequest{Chain: "eth", Address: wallet, Amount: "1000000001"})
			}, apierr.InvalidRequest, "amount"},
			{"liquidity past what the chain gives", func() error {
				_, err := devnets.CreateToken(ctx, devnet.TokenRequest{Chain: "eth", Venue: "v2", Name: "X", Symbol: "X",
					Liquidity: "99999999999999999999999999999999999999999999999999"})
				return err
			}, apierr.InvalidRequest, "liquidity"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var ae *apierr.Error
				if err := tt.run(); !errors.As(err, &ae) || ae.Code != tt.code || ae.Details != tt.field {
					t.Fatalf("error %v, want %s naming %q", err, tt.code, tt.field)
				}
			})
		}
	})

	t.Run("unreachable chain", func(t *testing.T) {
		d, err := devnet.NewEVMDevnet(devnet.EVMDevnetConfig{Chain: "base", RPCURL: "http://127.0.0.1:1/evm/base", Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var ae *apierr.Error
		_, err = d.Balance(ctx, "base", wallet, "")
		if !errors.As(err, &ae) || ae.Code != apierr.ChainUnavailable {
			t.Fatalf("error %v, want CHAIN_UNAVAILABLE", err)
		}
	})
}
