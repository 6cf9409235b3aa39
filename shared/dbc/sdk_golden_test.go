package dbc

import (
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
)

// The fixtures in testdata/sdk are what
// @meteora-ag/dynamic-bonding-curve-sdk 1.5.12 builds for fixed inputs
// (testdata/sdk/generate.mjs says how to make them again): a pool of an
// SPL base mint quoted in WSOL under a bags-like config, created alone and
// with its first buy, and swaps both ways. Each test builds the DBC
// instructions with this package and compares them account by account and
// byte by byte. The token-account and SOL wrapping instructions the SDK
// puts around a swap are the worker's, and its tests compare them.

func initializeInstruction(f *anchortest.Fixture) solana.Instruction {
	a := NewInitializeAccounts(f.Key("config"), f.Key("quoteMint"), f.Key("baseMint"), f.Key("creator"))
	return InitializeVirtualPoolWithSPLTokenInstruction(&a, InitializePoolParameters{
		Name: f.Str("name"), Symbol: f.Str("symbol"), URI: f.Str("uri")})
}

func TestSDKInitializeVirtualPoolWithSPLToken(t *testing.T) {
	f := anchortest.SDK(t, "initialize_virtual_pool_with_spl_token")
	if f.Key("payer") != f.Key("creator") {
		t.Fatal("the fixture's payer is not its creator, as a launch pays")
	}
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{initializeInstruction(f)})
}

// TestSDKCreatePoolWithFirstBuy: the SDK always passes the instructions
// sysvar to the buy bundled with a create, whatever the config; the worker
// passes it when NeedsInstructionsSysvar says the program reads it (a rate
// limiter or a first swap at the minimum fee), so it is set here.
func TestSDKCreatePoolWithFirstBuy(t *testing.T) {
	f := anchortest.SDK(t, "create_pool_with_first_buy")
	a := NewSwapAccounts(SwapParams{Config: f.Key("config"), BaseMint: f.Key("baseMint"), QuoteMint: f.Key("quoteMint"),
		User: f.Key("user"), Buy: true, InstructionsSysvar: true})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{
		initializeInstruction(f),
		SwapInstruction(&a, SwapParameters{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")}),
	})
}

func TestSDKSwap(t *testing.T) {
	for _, name := range []string{"swap_buy", "swap_sell", "swap_buy_referral", "swap_buy_first_min_fee"} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			a := NewSwapAccounts(SwapParams{Config: f.Key("config"), BaseMint: f.Key("baseMint"), QuoteMint: f.Key("quoteMint"),
				User: f.Key("user"), Buy: f.Bool("buy"), Referral: f.Key("referral"), InstructionsSysvar: f.Bool("instructionsSysvar")})
			ix := SwapInstruction(&a, SwapParameters{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")})
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
		})
	}
}

// TestSDKSwap2PartialFill: swap2 takes swap's accounts; its data carries
// the swap mode.
func TestSDKSwap2PartialFill(t *testing.T) {
	f := anchortest.SDK(t, "swap2_buy_partial_fill")
	if m := f.U64("swapMode"); m != uint64(SwapModePartialFill) {
		t.Fatalf("fixture swap mode %d", m)
	}
	a := NewSwapAccounts(SwapParams{Config: f.Key("config"), BaseMint: f.Key("baseMint"), QuoteMint: f.Key("quoteMint"),
		User: f.Key("user"), Buy: true})
	ix := Swap2Instruction(&a, Swap2Parameters{Amount0: f.U64("amountIn"), Amount1: f.U64("minimumAmountOut"), SwapMode: SwapModePartialFill})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
	var back Swap2Parameters
	data, _ := ix.Data()
	if err := back.Decode(data); err != nil || back.SwapMode != SwapModePartialFill || back.Amount0 != f.U64("amountIn") {
		t.Fatalf("decode %+v: %v", back, err)
	}
}
