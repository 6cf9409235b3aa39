package launchlab

import (
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
)

// The fixtures in testdata/sdk are what @raydium-io/raydium-sdk-v2
// 0.2.73-alpha builds for a letsbonk launch and its trades
// (testdata/sdk/generate.mjs says how to make them again): its instruction
// builders given the addresses its launchpad methods derive. Each test
// builds the same LaunchLab instructions with this package and compares
// them account by account and byte by byte. The token-account and SOL
// wrapping instructions around a buy, and the compute budget
// (compute_budget.json), are the worker's, and its tests compare them.
//
// One legitimate difference stays outside the fixtures: for a trade on an
// existing pool the SDK pays from, or is paid into, a temporary WSOL
// account it creates with a seed and closes afterwards, where the worker
// uses the wallet's WSOL associated token account (as the SDK does for the
// buy bundled with a create). The program takes any WSOL account of the
// user, so the fixtures use the associated one.

func TestSDKInitializeV2(t *testing.T) {
	for _, name := range []string{"initialize_v2", "initialize_v2_curve_rule"} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			p := LaunchParams{Payer: f.Key("payer"), Creator: f.Key("creator"), BaseMint: f.Key("mintA"),
				QuoteMint: f.Key("mintB"), GlobalConfig: f.Key("globalConfig"), PlatformConfig: f.Key("platformConfig")}
			a := NewInitializeV2Accounts(p)
			a.PlatformCurveRule = f.Key("platformCurveRule")
			if !a.PlatformCurveRule.IsZero() && a.PlatformCurveRule != PlatformCurveRulePDA(a.PlatformConfig, a.GlobalConfig) {
				t.Errorf("platform curve rule %s, derived %s", a.PlatformCurveRule, PlatformCurveRulePDA(a.PlatformConfig, a.GlobalConfig))
			}
			migrate := MigrateCPSwap
			if f.Str("migrateType") == "amm" {
				migrate = MigrateAMM
			}
			args := InitializeV2Args{
				Mint: MintParams{Decimals: uint8(f.U64("decimals")), Name: f.Str("name"), Symbol: f.Str("symbol"), URI: f.Str("uri")},
				Curve: CurveParams{Type: CurveConstant, Supply: f.U64("supply"), TotalBaseSell: f.U64("totalSellA"),
					TotalQuoteFundRaising: f.U64("totalFundRaisingB"), MigrateType: migrate},
				AMMFeeOn: uint8(f.U64("creatorFeeOn")),
			}
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{InitializeV2Instruction(&a, args)})
		})
	}
}

// TestSDKLetsBonkConstants holds the letsbonk addresses and curve this
// package hard-codes to the fixture's, which the SDK derived.
func TestSDKLetsBonkConstants(t *testing.T) {
	f := anchortest.SDK(t, "initialize_v2")
	if f.Key("platformConfig") != LetsBonkPlatformConfig || f.Key("globalConfig") != SOLConstantGlobalConfig {
		t.Errorf("letsbonk configs %s %s, SDK %s %s", LetsBonkPlatformConfig, SOLConstantGlobalConfig,
			f.Key("platformConfig"), f.Key("globalConfig"))
	}
	c := LetsBonkCurve()
	if c.Supply != f.U64("supply") || c.TotalBaseSell != f.U64("totalSellA") || c.TotalQuoteFundRaising != f.U64("totalFundRaisingB") {
		t.Errorf("letsbonk curve %+v", c)
	}
}

// tradeAccounts builds the accounts of a fixture's trade on the pool of
// its mints, created by its creator.
func tradeAccounts(f *anchortest.Fixture) TradeAccounts {
	return NewTradeAccounts(TradeParams{User: f.Key("user"), BaseMint: f.Key("mintA"), QuoteMint: f.Key("mintB"),
		GlobalConfig: f.Key("globalConfig"), PlatformConfig: f.Key("platformConfig"), Creator: f.Key("creator"),
		BaseTokenProgram: TokenProgramID})
}

func TestSDKBuyExactIn(t *testing.T) {
	f := anchortest.SDK(t, "buy_exact_in")
	a := tradeAccounts(f)
	ix := BuyExactInInstruction(&a, BuyExactInArgs{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
}

func TestSDKSellExactIn(t *testing.T) {
	f := anchortest.SDK(t, "sell_exact_in")
	a := tradeAccounts(f)
	ix := SellExactInInstruction(&a, SellExactInArgs{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
}
