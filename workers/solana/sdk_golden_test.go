package solana

import (
	"path/filepath"
	"testing"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// These tests hold the instructions the worker assembles around the venue
// instructions (token accounts created idempotently, SOL wrapped, synced
// and unwrapped) and the order they come in, to what the official SDKs
// build for the same inputs: the fixtures of the venue packages'
// testdata/sdk, which those packages' own tests compare the venue
// instructions with. Legitimate differences, each noted where it shows:
//   - the worker starts every transaction with its compute budget and may
//     end it with a tip; the SDK builders add neither;
//   - the worker buys with buy_exact_sol_in and buy_exact_quote_in (its
//     amount is what to spend), the SDKs with buy (an exact token amount):
//     the accounts are the same, the data is compared in the venue
//     packages;
//   - the worker creates a token account before funding the WSOL one, or
//     after, in another order than the SDK; each account exists before it
//     is used either way.

// sdkFixture loads a venue package's fixture.
func sdkFixture(t *testing.T, venue, name string) *anchortest.Fixture {
	t.Helper()
	return anchortest.Load(t, filepath.Join("..", "..", "shared", venue, anchortest.Dir, name+".json"))
}

// compareAccounts compares the program and the accounts only: for a trade
// the worker sends as the *_exact_*_in variant of the SDK's instruction.
func compareAccounts(t *testing.T, want anchortest.Instruction, got sol.Instruction) {
	t.Helper()
	want.Data = ""
	g := sol.NewInstruction(got.ProgramID(), got.Accounts(), nil)
	anchortest.Compare(t, want, g)
}

// goldenSigner is a Signer for building instructions only.
func goldenSigner() *Signer { return NewSigner(nil, nil, DefaultConfig(), nil) }

// TestSDKPumpLaunchBuy: a launch's buy is the token account creation and
// the buy of PumpSdk.createV2AndBuyInstructions, as buy_exact_sol_in.
func TestSDKPumpLaunchBuy(t *testing.T) {
	f := sdkFixture(t, "pumpfun", "create_v2_and_buy")
	ixs := pumpLaunchBuy(pumpfun.TradeParams{Mint: f.Key("mint"), User: f.Key("user"), Creator: f.Key("creator"),
		TokenProgram: pumpfun.Token2022ProgramID, FeeRecipient: f.Key("feeRecipient"), BuybackFeeRecipient: f.Key("buybackFeeRecipient")},
		1_000_000_000, 34_000_000_000, false)
	if len(ixs) != 2 || len(f.Instructions) != 3 {
		t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
	}
	anchortest.Compare(t, f.Instructions[1], ixs[0])
	compareAccounts(t, f.Instructions[2], ixs[1])
	data, _ := ixs[1].Data()
	var args pumpfun.BuyExactSolInArgs
	if err := args.Decode(data); err != nil || args != (pumpfun.BuyExactSolInArgs{SpendableSolIn: 1_000_000_000, MinTokensOut: 34_000_000_000, TrackVolume: true}) {
		t.Errorf("buy_exact_sol_in %+v, %v", args, err)
	}
}

// goldenPumpMarket is a market on the fixture's curve, its addresses
// derived as readMarket derives them, Global naming the fixture's fee
// recipients, and an order of one leg by the fixture's user.
func goldenPumpMarket(s *Signer, f *anchortest.Fixture, side wire.Side, mayhem, cashback bool) (*market, *order) {
	// The fixture's fee recipient is the only candidate, in the list the
	// curve's mayhem flag selects.
	g := &pumpfun.Global{}
	if mayhem {
		g.ReservedFeeRecipient = f.Key("feeRecipient")
	} else {
		g.FeeRecipient = f.Key("feeRecipient")
	}
	for i := range g.BuybackFeeRecipients {
		g.BuybackFeeRecipients[i] = f.Key("buybackFeeRecipient")
	}
	mint, creator, program := f.Key("mint"), f.Key("creator"), f.Key("tokenProgram")
	m := &market{global: g, mint: mint, curveAddr: s.pdas.bondingCurve(mint), tokenProgram: program,
		curve: pumpfun.BondingCurve{Creator: creator, IsMayhemMode: mayhem, IsCashbackCoin: cashback}}
	o := &order{mint: mint, side: side, legs: []leg{{wallet: f.Key("user")}}}
	s.walletKeys(m, o, program, creator)
	return m, o
}

// TestSDKPumpTrade: a buy is the compute budget, then what
// PumpSdk.buyInstructions builds for a wallet without a token account; a
// sell is the compute budget, then what sellInstructions builds (or
// getSellInstructionRaw, for a cashback coin).
func TestSDKPumpTrade(t *testing.T) {
	s := goldenSigner()
	for name, mayhem := range map[string]bool{"buy_instructions": false, "buy_instructions_mayhem": true} {
		t.Run(name, func(t *testing.T) {
			f := sdkFixture(t, "pumpfun", name)
			m, o := goldenPumpMarket(s, f, wire.Buy, mayhem, false)
			ixs := s.instructions(m, o, &o.legs[0])
			if len(ixs) != 3 || len(f.Instructions) != 2 {
				t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
			}
			anchortest.Compare(t, f.Instructions[0], ixs[1])
			compareAccounts(t, f.Instructions[1], ixs[2])
		})
	}
	for _, tc := range []struct {
		name             string
		mayhem, cashback bool
		slippage         uint64
	}{
		{"sell_instructions", false, false, 1},
		{"sell_instructions_mayhem", true, false, 1},
		{"sell_cashback", false, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := sdkFixture(t, "pumpfun", tc.name)
			m, o := goldenPumpMarket(s, f, wire.Sell, tc.mayhem, tc.cashback)
			l := &o.legs[0]
			out := f.U64("solAmount")
			l.sell = pumpfun.SellArgs{Amount: f.U64("amount"), MinSolOutput: out - out*tc.slippage*10/1000}
			anchortest.CompareAll(t, f.Instructions, s.instructions(m, o, l)[1:])
		})
	}
}

// goldenPoolMarket is a market on the fixture's pool, its addresses derived as
// readPoolMarket derives them, and an order of one leg by the fixture's
// user.
func goldenPoolMarket(s *Signer, f *anchortest.Fixture, side wire.Side, short bool) (*poolMarket, *order) {
	// The fixture's protocol fee recipient is the only candidate, in the
	// list the pool's mayhem flag selects.
	gc := &pumpswap.GlobalConfig{}
	mayhem, recipient := f.Bool("mayhem"), f.Key("protocolFeeRecipient")
	if mayhem {
		gc.ReservedFeeRecipient = recipient
	} else {
		for i := range gc.ProtocolFeeRecipients {
			gc.ProtocolFeeRecipients[i] = recipient
		}
	}
	for i := range gc.BuybackFeeRecipients {
		gc.BuybackFeeRecipients[i] = f.Key("buybackFeeRecipient")
	}
	facts := poolFacts{baseMint: f.Key("baseMint"), quoteMint: f.Key("quoteMint"), baseProgram: f.Key("baseTokenProgram"),
		quoteProgram: f.Key("quoteTokenProgram"), coinCreator: f.Key("coinCreator"), mayhem: mayhem}
	pm := &poolMarket{addr: f.Key("pool"), facts: facts, quote: quoteSOL, short: short, gc: gc,
		pool: pumpswap.Pool{BaseMint: facts.baseMint, QuoteMint: facts.quoteMint, CoinCreator: facts.coinCreator,
			IsCashbackCoin: f.Bool("cashback"), IsMayhemMode: mayhem, PoolBaseTokenAccount: f.Key("poolBaseTokenAccount"),
			PoolQuoteTokenAccount: f.Key("poolQuoteTokenAccount")}}
	pm.creatorVaultAuth = s.pdas.coinCreatorVaultAuthority(facts.coinCreator)
	pm.creatorVaultTA = s.pdas.ata(pm.creatorVaultAuth, facts.quoteMint, facts.quoteProgram)
	pm.feeRecipient = pickKey(feeRecipients(gc, facts.mayhem))
	pm.feeRecipientTA = s.pdas.ata(pm.feeRecipient, facts.quoteMint, facts.quoteProgram)
	l := leg{wallet: f.Key("user")}
	l.ata = s.pdas.ata(l.wallet, facts.baseMint, facts.baseProgram)
	l.quoteATA = s.pdas.ata(l.wallet, facts.quoteMint, facts.quoteProgram)
	l.uva = s.pdas.ammUserVolumeAccumulator(l.wallet)
	return pm, &order{mint: pm.addr, side: side, legs: []leg{l}}
}

// TestSDKPoolTrade holds a PumpSwap trade on a SOL pool to what
// PumpAmmSdk.buyInstructions and sellInstructions build for a wallet
// without token accounts.
func TestSDKPoolTrade(t *testing.T) {
	s := goldenSigner()
	t.Run("buy", func(t *testing.T) {
		// The SDK: extend_account (the pool is short), the WSOL account
		// created, funded and synced, the coin account created, buy, the
		// WSOL account closed. The worker creates the coin account first.
		f := sdkFixture(t, "pumpswap", "buy")
		pm, o := goldenPoolMarket(s, f, wire.Buy, true)
		l := &o.legs[0]
		// The SDK wraps the buy's max_quote_amount_in; the worker what
		// buy_exact_quote_in spends.
		l.spend = f.U64("maxQuoteAmountIn")
		l.poolBuy = pumpswap.BuyExactQuoteInArgs{SpendableQuoteIn: l.spend, MinBaseAmountOut: f.U64("baseAmountOut"), TrackVolume: true}
		ixs := s.poolInstructions(pm, o, l, true)
		sdk := f.Instructions
		if len(ixs) != 8 || len(sdk) != 7 {
			t.Fatalf("%d instructions, SDK %d", len(ixs), len(sdk))
		}
		for got, want := range map[int]int{1: 0, 2: 4, 3: 1, 4: 2, 5: 3, 7: 6} {
			anchortest.Compare(t, sdk[want], ixs[got])
		}
		compareAccounts(t, sdk[5], ixs[6])
	})
	for _, name := range []string{"sell", "sell_cashback", "sell_no_creator", "sell_mayhem"} {
		t.Run(name, func(t *testing.T) {
			// The SDK: the WSOL account created, sell, the WSOL account
			// closed; the same here.
			f := sdkFixture(t, "pumpswap", name)
			pm, o := goldenPoolMarket(s, f, wire.Sell, false)
			l := &o.legs[0]
			l.poolSell = pumpswap.SellArgs{BaseAmountIn: f.U64("baseAmountIn"), MinQuoteAmountOut: f.U64("minQuoteAmountOut")}
			anchortest.CompareAll(t, f.Instructions, s.poolInstructions(pm, o, l, true)[1:])
		})
	}
}

// goldenPadMarket is a market on a launchpad pool of the fixture's mints and
// an order of one leg by the fixture's user, its accounts derived as
// readPadMarket derives them.
func goldenPadMarket(s *Signer, f *anchortest.Fixture, kind padKind, side wire.Side, base, quote string) (*padMarket, *order) {
	facts := padFacts{kind: kind, baseMint: f.Key(base), quoteMint: f.Key(quote), baseProgram: launchlab.TokenProgramID}
	pm := &padMarket{facts: facts, quote: quoteSOL}
	switch kind {
	case padLaunchLab:
		pm.ll = launchlab.PoolState{BaseMint: facts.baseMint, QuoteMint: facts.quoteMint, GlobalConfig: f.Key("globalConfig"),
			PlatformConfig: f.Key("platformConfig"), Creator: f.Key("creator")}
	case padDBC:
		facts.config = f.Key("config")
		pm.facts = facts
	}
	l := leg{wallet: f.Key("user")}
	l.ata = s.pdas.ata(l.wallet, facts.baseMint, facts.baseProgram)
	l.quoteATA = s.pdas.ata(l.wallet, facts.quoteMint, launchlab.TokenProgramID)
	l.pad = padTrade{in: f.U64("amountIn"), minOut: f.U64("minimumAmountOut")}
	return pm, &order{mint: facts.baseMint, side: side, legs: []leg{l}}
}

// TestSDKPadTrade holds LaunchLab and DBC trades on SOL curves to what
// the SDKs build.
func TestSDKPadTrade(t *testing.T) {
	s := goldenSigner()
	t.Run("dbc buy", func(t *testing.T) {
		// PoolService.swap: the WSOL and coin accounts created, the WSOL
		// funded and synced, swap, the WSOL closed. The worker funds the
		// WSOL account before creating the coin account.
		f := sdkFixture(t, "dbc", "swap_buy")
		pm, o := goldenPadMarket(s, f, padDBC, wire.Buy, "baseMint", "quoteMint")
		ixs := s.padInstructions(pm, o, &o.legs[0])
		if len(ixs) != 7 || len(f.Instructions) != 6 {
			t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
		}
		for got, want := range map[int]int{1: 0, 2: 2, 3: 3, 4: 1, 5: 4, 6: 5} {
			anchortest.Compare(t, f.Instructions[want], ixs[got])
		}
	})
	t.Run("dbc sell", func(t *testing.T) {
		// The SDK creates the coin account it sells from too, which the
		// worker skips: a sale needs tokens, so the account exists.
		f := sdkFixture(t, "dbc", "swap_sell")
		pm, o := goldenPadMarket(s, f, padDBC, wire.Sell, "baseMint", "quoteMint")
		anchortest.CompareAll(t, f.Instructions[1:], s.padInstructions(pm, o, &o.legs[0])[1:])
	})
	t.Run("launchlab buy", func(t *testing.T) {
		// Raydium.launchpad.buyToken on a new pool creates the coin
		// account, then the WSOL one, funds and syncs it, and buys; it
		// leaves the WSOL account open. The worker closes it, as the DBC
		// SDK does (the same user's WSOL account in its fixture).
		f := sdkFixture(t, "launchlab", "buy_exact_in")
		pm, o := goldenPadMarket(s, f, padLaunchLab, wire.Buy, "mintA", "mintB")
		ixs := s.padInstructions(pm, o, &o.legs[0])
		if len(ixs) != 7 || len(f.Instructions) != 5 {
			t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
		}
		for got, want := range map[int]int{1: 1, 2: 2, 3: 3, 4: 0, 5: 4} {
			anchortest.Compare(t, f.Instructions[want], ixs[got])
		}
		anchortest.Compare(t, sdkFixture(t, "dbc", "swap_buy").Instructions[5], ixs[6])
	})
	t.Run("launchlab sell", func(t *testing.T) {
		// The fixture has the sale alone (the SDK pays it into a temporary
		// WSOL account); the worker creates the wallet's WSOL account before
		// and closes it after, as the DBC SDK does around its sale.
		f := sdkFixture(t, "launchlab", "sell_exact_in")
		pm, o := goldenPadMarket(s, f, padLaunchLab, wire.Sell, "mintA", "mintB")
		ixs := s.padInstructions(pm, o, &o.legs[0])
		dbcSell := sdkFixture(t, "dbc", "swap_sell").Instructions
		if len(ixs) != 4 {
			t.Fatalf("%d instructions", len(ixs))
		}
		anchortest.Compare(t, dbcSell[1], ixs[1])
		anchortest.Compare(t, f.Instructions[0], ixs[2])
		anchortest.Compare(t, dbcSell[3], ixs[3])
	})
}

// TestSDKLaunchWSOLBuy holds the buys of bags and letsbonk launches
// (wsolBuy) to what the SDKs build for the buy bundled with a create.
func TestSDKLaunchWSOLBuy(t *testing.T) {
	t.Run("bags", func(t *testing.T) {
		// CreatorService.createPoolWithFirstBuy after its initialize: the
		// same instructions, the worker funding the WSOL account before it
		// creates the coin account.
		f := sdkFixture(t, "dbc", "create_pool_with_first_buy")
		user, mint := f.Key("user"), f.Key("baseMint")
		a := dbc.NewSwapAccounts(dbc.SwapParams{Config: f.Key("config"), BaseMint: mint, QuoteMint: f.Key("quoteMint"),
			User: user, Buy: true, InstructionsSysvar: true})
		swap := dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")})
		ixs := wsolBuy(user, mint, f.U64("amountIn"), swap)
		sdk := f.Instructions[1:]
		if len(ixs) != 6 || len(sdk) != 6 {
			t.Fatalf("%d instructions, SDK %d", len(ixs), len(sdk))
		}
		for got, want := range map[int]int{0: 0, 1: 2, 2: 3, 3: 1, 4: 4, 5: 5} {
			anchortest.Compare(t, sdk[want], ixs[got])
		}
	})
	t.Run("letsbonk", func(t *testing.T) {
		// Raydium.launchpad.buyToken on a new pool, which leaves the WSOL
		// account open; the worker closes it as the DBC SDK does.
		f := sdkFixture(t, "launchlab", "buy_exact_in")
		user, mint := f.Key("user"), f.Key("mintA")
		a := launchlab.NewTradeAccounts(launchlab.TradeParams{User: user, BaseMint: mint, QuoteMint: f.Key("mintB"),
			GlobalConfig: f.Key("globalConfig"), PlatformConfig: f.Key("platformConfig"), Creator: f.Key("creator")})
		trade := launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: f.U64("amountIn"), MinimumAmountOut: f.U64("minimumAmountOut")})
		ixs := wsolBuy(user, mint, f.U64("amountIn"), trade)
		if len(ixs) != 6 || len(f.Instructions) != 5 {
			t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
		}
		for got, want := range map[int]int{0: 1, 1: 2, 2: 3, 3: 0, 4: 4} {
			anchortest.Compare(t, f.Instructions[want], ixs[got])
		}
		anchortest.Compare(t, sdkFixture(t, "dbc", "swap_buy").Instructions[5], ixs[5])
	})
}

// TestSDKComputeBudget holds a transaction's compute budget to Raydium's
// (which builds it with @solana/web3.js): the same two instructions, the
// worker's limit first, the SDK's price first; both apply to the whole
// transaction whatever their place.
func TestSDKComputeBudget(t *testing.T) {
	f := sdkFixture(t, "launchlab", "compute_budget")
	cfg := DefaultConfig()
	cfg.ComputeUnitLimit = uint32(f.U64("units"))
	s := NewSigner(nil, nil, cfg, nil)
	ixs := s.budget(&order{cuPrice: f.U64("microLamports")}, &leg{}, 2)
	if len(ixs) != 2 || len(f.Instructions) != 2 {
		t.Fatalf("%d instructions, SDK %d", len(ixs), len(f.Instructions))
	}
	anchortest.Compare(t, f.Instructions[1], ixs[0])
	anchortest.Compare(t, f.Instructions[0], ixs[1])
}
