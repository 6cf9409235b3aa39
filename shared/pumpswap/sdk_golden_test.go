package pumpswap

import (
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
)

// The fixtures in testdata/sdk are what @pump-fun/pump-swap-sdk 1.20.0
// builds for fixed inputs (testdata/sdk/generate.mjs says how to make them
// again): the canonical pool of a Token-2022 coin quoted in WSOL, with and
// without a coin creator, cashback or not. Each test builds the AMM's
// instructions with this package and compares them account by account and
// byte by byte. The SDK also creates the user's token accounts, wraps and
// unwraps SOL around the swap; the worker builds those, and its tests
// compare them with the same fixtures.

// swapAccounts builds the accounts of a fixture's trade.
func swapAccounts(f *anchortest.Fixture) SwapAccounts {
	return NewSwapAccounts(TradeParams{
		Pool: f.Key("pool"),
		PoolState: &Pool{BaseMint: f.Key("baseMint"), QuoteMint: f.Key("quoteMint"),
			PoolBaseTokenAccount: f.Key("poolBaseTokenAccount"), PoolQuoteTokenAccount: f.Key("poolQuoteTokenAccount"),
			CoinCreator: f.Key("coinCreator"), IsCashbackCoin: f.Bool("cashback")},
		User:                 f.Key("user"),
		BaseTokenProgram:     f.Key("baseTokenProgram"),
		QuoteTokenProgram:    f.Key("quoteTokenProgram"),
		ProtocolFeeRecipient: f.Key("protocolFeeRecipient"),
		BuybackFeeRecipient:  f.Key("buybackFeeRecipient"),
	})
}

// TestSDKBuy: on a pool shorter than the current layout the SDK starts
// with extend_account (the worker does the same on an order's first
// transaction); the buy always sends track_volume true.
func TestSDKBuy(t *testing.T) {
	for name, extend := range map[string]bool{"buy": true, "buy_cashback": false} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			a := swapAccounts(f)
			var want []solana.Instruction
			if extend {
				want = append(want, ExtendAccountInstruction(a.Pool, a.User))
			}
			want = append(want, BuyInstruction(&a, BuyArgs{BaseAmountOut: f.U64("baseAmountOut"),
				MaxQuoteAmountIn: f.U64("maxQuoteAmountIn"), TrackVolume: true}))
			anchortest.CompareAll(t, f.Of(ProgramID), want)
		})
	}
}

// The SDK has no buy_exact_quote_in builder: these fixtures are the SDK's
// own program (its IDL) given the accounts and remaining accounts its buy
// builder passes.
func TestSDKBuyExactQuoteIn(t *testing.T) {
	for _, name := range []string{"buy_exact_quote_in", "buy_exact_quote_in_cashback", "buy_exact_quote_in_no_creator"} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			a := swapAccounts(f)
			ix := BuyExactQuoteInInstruction(&a, BuyExactQuoteInArgs{SpendableQuoteIn: f.U64("spendableQuoteIn"),
				MinBaseAmountOut: f.U64("minBaseAmountOut"), TrackVolume: true})
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
		})
	}
}

func TestSDKSell(t *testing.T) {
	for _, name := range []string{"sell", "sell_cashback", "sell_no_creator", "sell_mayhem"} {
		t.Run(name, func(t *testing.T) {
			f := anchortest.SDK(t, name)
			a := swapAccounts(f)
			ix := SellInstruction(&a, SellArgs{BaseAmountIn: f.U64("baseAmountIn"), MinQuoteAmountOut: f.U64("minQuoteAmountOut")})
			anchortest.CompareAll(t, f.Of(ProgramID), []solana.Instruction{ix})
		})
	}
}

// TestSDKPoolAddresses holds the addresses the fixtures were built for to
// this package's derivations: the canonical pool and its vaults.
func TestSDKPoolAddresses(t *testing.T) {
	f := anchortest.SDK(t, "buy")
	mint, quote := f.Key("baseMint"), f.Key("quoteMint")
	pool := CanonicalPoolPDA(mint, quote)
	if pool != f.Key("pool") {
		t.Errorf("canonical pool %s, SDK %s", pool, f.Key("pool"))
	}
	if v := AssociatedTokenAddress(pool, mint, f.Key("baseTokenProgram")); v != f.Key("poolBaseTokenAccount") {
		t.Errorf("base vault %s, SDK %s", v, f.Key("poolBaseTokenAccount"))
	}
	if v := AssociatedTokenAddress(pool, quote, f.Key("quoteTokenProgram")); v != f.Key("poolQuoteTokenAccount") {
		t.Errorf("quote vault %s, SDK %s", v, f.Key("poolQuoteTokenAccount"))
	}
}
