package venues

import (
	"context"
	"fmt"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// A probe is a venue's tiny canonical trade: the instructions the signer
// sends for it, built with the same codecs, paid and made by the
// simulation payer. Where the service launches on a venue, the probe
// launches a throwaway mint and buys it in the same transaction, so it
// needs no market of its own and leaves nothing behind (it is only
// simulated).
type probe struct {
	what    string
	program sol.PublicKey
	payer   sol.PublicKey
	ixs     []sol.Instruction
	// names are the venue program's instruction names by instruction
	// index; an error at another index is not the venue's.
	names map[int]string
}

// add appends ix; a non-empty name marks it as the venue's.
func (p *probe) add(ix sol.Instruction, name string) {
	if name != "" {
		p.names[len(p.ixs)] = name
	}
	p.ixs = append(p.ixs, ix)
}

func newProbe(what string, program, payer sol.PublicKey) *probe {
	return &probe{what: what, program: program, payer: payer, names: map[int]string{}}
}

// probe returns venue's canonical trade, or nil when the configuration
// names nothing to trade on.
func (s *Solana) probe(ctx context.Context, venue string, st *layoutState) (*probe, error) {
	payer := s.cfg.Payer
	switch venue {
	case PumpFun:
		return pumpProbe(payer, throwawayMint(), &st.pumpGlobal), nil
	case PumpSwap:
		if s.cfg.SOLUSDPool.IsZero() {
			return nil, nil
		}
		return s.poolProbe(ctx, payer, &st.ammConfig)
	case LaunchLab:
		return bonkProbe(payer, throwawayMint(), &st.bonkConfig), nil
	case DBC:
		if !st.haveBagsCfg {
			return nil, nil
		}
		return bagsProbe(payer, throwawayMint(), s.cfg.BagsPoolConfig, &st.bagsConfig), nil
	}
	return nil, fmt.Errorf("%w %q on solana", ErrUnknownVenue, venue)
}

// throwawayMint is a new mint address; its key is never used to sign,
// since the simulation does not check signatures.
func throwawayMint() sol.PublicKey { return sol.NewWallet().PublicKey() }

// Launch metadata of a probe: short, so that a launch and its buy fit one
// transaction.
const (
	probeName   = "venue check"
	probeSymbol = "CHECK"
)

// pumpProbe creates a coin with create_v2 and buys it with
// buy_exact_sol_in, the instruction every pump.fun buy of the signer uses,
// with the program's full account list and remaining accounts.
func pumpProbe(payer, mint sol.PublicKey, g *pumpfun.Global) *probe {
	p := newProbe("launch and buy", pumpfun.ProgramID, payer)
	create := pumpfun.NewCreateV2Accounts(mint, payer)
	p.add(pumpfun.CreateV2Instruction(&create, pumpfun.CreateV2Args{Name: probeName, Symbol: probeSymbol, Creator: payer}), "create_v2")
	tokenProgram := pumpfun.Token2022ProgramID
	p.add(createATAIdempotent(payer, pumpfun.AssociatedTokenAddress(payer, mint, tokenProgram), mint, tokenProgram), "")
	buy := pumpfun.NewBuyAccounts(pumpfun.TradeParams{
		Mint: mint, User: payer, Creator: payer, TokenProgram: tokenProgram,
		FeeRecipient:        first(g.FeeRecipientCandidates(false), pumpfun.StaticFeeRecipients),
		BuybackFeeRecipient: first(g.BuybackFeeRecipientCandidates(), pumpfun.StaticBuybackFeeRecipients),
	})
	p.add(pumpfun.BuyExactSolInInstruction(&buy, pumpfun.BuyExactSolInArgs{SpendableSolIn: probeLamport, MinTokensOut: 1, TrackVolume: true}), "buy_exact_sol_in")
	return p
}

// poolProbe trades a little SOL on the configured PumpSwap pool: on a pool
// quoted in SOL a buy_exact_quote_in, as the signer buys a graduated coin;
// on a pool whose base is SOL (the SOL/USD pool) a sell of wrapped SOL.
// Either wraps and unwraps SOL around the swap as the signer does.
func (s *Solana) poolProbe(ctx context.Context, payer sol.PublicKey, gc *pumpswap.GlobalConfig) (*probe, error) {
	addr := s.cfg.SOLUSDPool
	res, err := s.rpc.GetMultipleAccountsWithOpts(ctx, []sol.PublicKey{addr}, &rpc.GetMultipleAccountsOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		return nil, fmt.Errorf("read pumpswap pool %s: %w", addr, err)
	}
	if len(res.Value) != 1 || res.Value[0] == nil {
		return nil, fmt.Errorf("pumpswap pool %s is missing", addr)
	}
	var pool pumpswap.Pool
	raw := res.Value[0].Data.GetBinary()
	if err := pool.Decode(raw); err != nil {
		return nil, fmt.Errorf("pumpswap pool %s: %w", addr, err)
	}
	mints, err := s.rpc.GetMultipleAccountsWithOpts(ctx, []sol.PublicKey{pool.BaseMint, pool.QuoteMint}, &rpc.GetMultipleAccountsOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		return nil, fmt.Errorf("read the mints of pumpswap pool %s: %w", addr, err)
	}
	if len(mints.Value) != 2 || mints.Value[0] == nil || mints.Value[1] == nil {
		return nil, fmt.Errorf("the mints of pumpswap pool %s are missing", addr)
	}
	baseProg, quoteProg := mints.Value[0].Owner, mints.Value[1].Owner
	a := pumpswap.NewSwapAccounts(pumpswap.TradeParams{
		Pool: addr, PoolState: &pool, User: payer, BaseTokenProgram: baseProg, QuoteTokenProgram: quoteProg,
		ProtocolFeeRecipient: first(gc.ProtocolFeeRecipientCandidates(pool.IsMayhemMode), gc.ProtocolFeeRecipients[:]),
		BuybackFeeRecipient:  first(gc.BuybackFeeRecipientCandidates(), gc.BuybackFeeRecipients[:]),
	})
	p := newProbe("trade", pumpswap.ProgramID, payer)
	if len(raw) < pumpswap.PoolAccountSize {
		p.add(pumpswap.ExtendAccountInstruction(addr, payer), "extend_account")
	}
	switch {
	case pool.QuoteMint == sol.SolMint:
		p.add(createATAIdempotent(payer, a.UserBaseTokenAccount, pool.BaseMint, baseProg), "")
		wrap(p, payer, a.UserQuoteTokenAccount, quoteProg)
		p.add(pumpswap.BuyExactQuoteInInstruction(&a, pumpswap.BuyExactQuoteInArgs{SpendableQuoteIn: probeLamport, TrackVolume: true}), "buy_exact_quote_in")
		p.add(closeAccount(a.UserQuoteTokenAccount, payer, quoteProg), "")
	case pool.BaseMint == sol.SolMint:
		wrap(p, payer, a.UserBaseTokenAccount, baseProg)
		p.add(createATAIdempotent(payer, a.UserQuoteTokenAccount, pool.QuoteMint, quoteProg), "")
		p.add(pumpswap.SellInstruction(&a, pumpswap.SellArgs{BaseAmountIn: probeLamport}), "sell")
		p.add(closeAccount(a.UserBaseTokenAccount, payer, baseProg), "")
	default:
		return nil, fmt.Errorf("pumpswap pool %s trades %s against %s: neither side is SOL", addr, pool.BaseMint, pool.QuoteMint)
	}
	return p, nil
}

// bonkProbe launches a letsbonk coin with initialize_v2 and buys it with
// buy_exact_in, as a bonk launch's head does: with the platform's curve rule
// when its config (platform) restricts curves.
func bonkProbe(payer, mint sol.PublicKey, platform *launchlab.PlatformConfig) *probe {
	p := newProbe("launch and buy", launchlab.ProgramID, payer)
	init := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(payer, mint))
	init.FollowPlatform(platform)
	p.add(launchlab.InitializeV2Instruction(&init, launchlab.InitializeV2Args{
		Mint:  launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: probeName, Symbol: probeSymbol},
		Curve: launchlab.LetsBonkCurve(), AMMFeeOn: launchlab.AMMFeeOnQuote,
	}), "initialize_v2")
	a := launchlab.NewTradeAccounts(launchlab.TradeParams{User: payer, BaseMint: mint, QuoteMint: sol.SolMint,
		GlobalConfig: init.GlobalConfig, PlatformConfig: init.PlatformConfig, Creator: payer, BaseTokenProgram: launchlab.TokenProgramID})
	wsolBuy(p, payer, mint, launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: probeLamport}), "buy_exact_in")
	return p
}

// bagsProbe launches a bags coin on config (which holds cfg) with
// initialize_virtual_pool_with_spl_token and buys it with swap, as a bags
// launch's head does: at the pool's activation, with the instructions
// sysvar when the config's rate limiter or first-swap rule asks for it.
func bagsProbe(payer, mint, config sol.PublicKey, cfg *dbc.PoolConfig) *probe {
	p := newProbe("launch and buy", dbc.ProgramID, payer)
	init := dbc.NewInitializeAccounts(config, sol.SolMint, mint, payer)
	p.add(dbc.InitializeVirtualPoolWithSPLTokenInstruction(&init, dbc.InitializePoolParameters{Name: probeName, Symbol: probeSymbol}),
		"initialize_virtual_pool_with_spl_token")
	a := dbc.NewSwapAccounts(dbc.SwapParams{Config: config, BaseMint: mint, QuoteMint: sol.SolMint, User: payer, Buy: true,
		InstructionsSysvar: dbc.NeedsInstructionsSysvar(cfg, &dbc.VirtualPool{}, true, 0)})
	wsolBuy(p, payer, mint, dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: probeLamport}), "swap")
	return p
}

// wsolBuy adds a buy paid in wrapped SOL, as the launches' buys are: the
// WSOL account funded, the base account created, the trade, the WSOL
// account closed.
func wsolBuy(p *probe, payer, mint sol.PublicKey, trade sol.Instruction, name string) {
	spl := pumpfun.TokenProgramID
	wsol := pumpfun.AssociatedTokenAddress(payer, sol.SolMint, spl)
	wrap(p, payer, wsol, spl)
	p.add(createATAIdempotent(payer, pumpfun.AssociatedTokenAddress(payer, mint, spl), mint, spl), "")
	p.add(trade, name)
	p.add(closeAccount(wsol, payer, spl), "")
}

// wrap creates payer's WSOL account and moves probeLamport into it.
func wrap(p *probe, payer, account, tokenProgram sol.PublicKey) {
	p.add(createATAIdempotent(payer, account, sol.SolMint, tokenProgram), "")
	p.add(system.NewTransferInstruction(probeLamport, payer, account).Build(), "")
	p.add(sol.NewInstruction(tokenProgram, sol.AccountMetaSlice{sol.Meta(account).WRITE()}, []byte{tokenSyncNative}), "")
}

// SPL Token and Associated Token Account instruction indexes.
const (
	tokenCloseAccount   = 9
	tokenSyncNative     = 17
	ataCreateIdempotent = 1
)

// createATAIdempotent creates owner's (the payer's) account of mint if it
// does not exist.
func createATAIdempotent(payer, ata, mint, tokenProgram sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(pumpfun.AssociatedTokenProgramID, sol.AccountMetaSlice{
		sol.Meta(payer).WRITE().SIGNER(), sol.Meta(ata).WRITE(), sol.Meta(payer), sol.Meta(mint),
		sol.Meta(pumpfun.SystemProgramID), sol.Meta(tokenProgram),
	}, []byte{ataCreateIdempotent})
}

// closeAccount closes owner's token account into owner.
func closeAccount(account, owner, tokenProgram sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(tokenProgram, sol.AccountMetaSlice{
		sol.Meta(account).WRITE(), sol.Meta(owner).WRITE(), sol.Meta(owner).SIGNER(),
	}, []byte{tokenCloseAccount})
}

// first returns the first of keys, or of fallback when keys is empty.
func first(keys, fallback []sol.PublicKey) sol.PublicKey {
	if len(keys) > 0 {
		return keys[0]
	}
	return fallback[0]
}
