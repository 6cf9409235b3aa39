package pumpfun

import (
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
)

// The fixtures in testdata/sdk are what @pump-fun/pump-sdk 2.0.0 builds for
// fixed inputs (testdata/sdk/generate.mjs says how to make them again).
// Each test builds the same instructions with this package and compares
// them account by account and byte by byte. Only the pump.fun program's
// instructions are compared here; the token-account instruction the SDK
// puts between create_v2 and the creator's buy is the worker's, and its
// tests compare it.

// tradeParams reads the accounts a trade fixture was built for.
func tradeParams(f *anchortest.Fixture) TradeParams {
	return TradeParams{
		Mint: f.Key("mint"), User: f.Key("user"), Creator: f.Key("creator"), TokenProgram: f.Key("tokenProgram"),
		FeeRecipient: f.Key("feeRecipient"), BuybackFeeRecipient: f.Key("buybackFeeRecipient"),
	}
}

// TestSDKBuy: getBuyInstructionRaw takes the SOL cost as given;
// buyInstructions adds its slippage (percent s: floor(sol*s*10/1000)).
// Both always send track_volume true.
func TestSDKBuy(t *testing.T) {
	for name, slippage := range map[string]uint64{"buy": 0, "buy_instructions": 1, "buy_instructions_mayhem": 1} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			a := NewBuyAccounts(tradeParams(f))
			sol := f.U64("solAmount")
			ix := BuyInstruction(&a, BuyArgs{Amount: f.U64("amount"), MaxSolCost: sol + sol*slippage*10/1000, TrackVolume: true})
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
		})
	}
}

// The SDK has no buy_exact_sol_in builder: the fixture is the SDK's own
// program (its IDL) given the accounts its buy builder passes.
func TestSDKBuyExactSolIn(t *testing.T) {
	f := anchortest.SDK(t, "buy_exact_sol_in")
	a := NewBuyAccounts(tradeParams(f))
	ix := BuyExactSolInInstruction(&a, BuyExactSolInArgs{SpendableSolIn: f.U64("spendableSolIn"),
		MinTokensOut: f.U64("minTokensOut"), TrackVolume: true})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
}

// TestSDKSell: getSellInstructionRaw takes the SOL output as given;
// sellInstructions takes its slippage off (floor(sol*s*10/1000)).
func TestSDKSell(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cashback bool
		slippage uint64
	}{
		{"sell", false, 0},
		{"sell_cashback", true, 0},
		{"sell_instructions", false, 1},
		{"sell_instructions_mayhem", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := anchortest.SDK(t, tc.name)
			a := NewSellAccounts(tradeParams(f), tc.cashback)
			sol := f.U64("solAmount")
			ix := SellInstruction(&a, SellArgs{Amount: f.U64("amount"), MinSolOutput: sol - sol*tc.slippage*10/1000})
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
		})
	}
}

// TestSDKCreateV2AndBuy is a launch: create_v2, then the creator's buy,
// whose creator vault is the creator argument's.
func TestSDKCreateV2AndBuy(t *testing.T) {
	f := anchortest.SDK(t, "create_v2_and_buy")
	mint, user, creator := f.Key("mint"), f.Key("user"), f.Key("creator")
	create := NewCreateV2Accounts(mint, user)
	args := CreateV2Args{Name: f.Str("name"), Symbol: f.Str("symbol"), URI: f.Str("uri"), Creator: creator,
		IsMayhemMode: f.Bool("mayhemMode")}
	buy := NewBuyAccounts(TradeParams{Mint: mint, User: user, Creator: creator, TokenProgram: Token2022ProgramID,
		FeeRecipient: f.Key("feeRecipient"), BuybackFeeRecipient: f.Key("buybackFeeRecipient")})
	// createV2AndBuyInstructions allows 1% slippage on the SOL cost,
	// floor(sol*10/1000) more.
	sol := f.U64("solAmount")
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{
		CreateV2Instruction(&create, args),
		BuyInstruction(&buy, BuyArgs{Amount: f.U64("amount"), MaxSolCost: sol + sol*10/1000, TrackVolume: true}),
	})
}

func TestSDKCreateV2Mayhem(t *testing.T) {
	f := anchortest.SDK(t, "create_v2_mayhem")
	a := NewCreateV2Accounts(f.Key("mint"), f.Key("user"))
	ix := CreateV2Instruction(&a, CreateV2Args{Name: f.Str("name"), Symbol: f.Str("symbol"), URI: f.Str("uri"),
		Creator: f.Key("creator"), IsMayhemMode: f.Bool("mayhemMode")})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
}

func TestSDKCreate(t *testing.T) {
	f := anchortest.SDK(t, "create")
	a := NewCreateAccounts(f.Key("mint"), f.Key("user"))
	ix := CreateInstruction(&a, CreateArgs{Name: f.Str("name"), Symbol: f.Str("symbol"), URI: f.Str("uri"), Creator: f.Key("creator")})
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
}

func TestSDKExtendAccount(t *testing.T) {
	f := anchortest.SDK(t, "extend_account")
	a := NewExtendAccountAccounts(f.Key("account"), f.Key("user"))
	anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ExtendAccountInstruction(&a)})
}
