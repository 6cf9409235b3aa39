package solana

import (
	"context"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Compute units asked for pump.fun launch actions: create_v2 with its
// Token-2022 mint, metadata and curve; a buy with the idempotent creation
// of the buyer's token account. Both leave room over what the program uses.
const (
	pumpCreateCU = 250_000
	pumpBuyCU    = 150_000
)

// Sizes of the accounts a pump.fun launch opens, for the balance check.
const (
	// A create_v2 mint: Token-2022 mint with the metadata pointer and the
	// metadata itself (name, symbol and uri up to their limits).
	pumpMintSize      = 82 + 83 + 4 + 64 + 4 + 32 + 4 + 10 + 4 + 200 + 4
	pumpCurveSize     = 151
	pumpCurveV2Size   = 64
	pumpVolumeAccSize = 128
)

// pumpState returns Global and FeeConfig, from the cache while fresh.
func (s *Signer) pumpState(ctx context.Context) (*pumpfun.Global, *pumpfun.FeeConfig, error) {
	if g, fc, ok := s.state.get(s.now(), s.cfg.StateTTL); ok {
		return g, fc, nil
	}
	accounts, err := s.getAccounts(ctx, []sol.PublicKey{pumpfun.GlobalPDA, pumpfun.FeeConfigPDA})
	if err != nil {
		return nil, nil, err
	}
	g, fc, err := decodeState(accounts[0], accounts[1])
	if err != nil {
		return nil, nil, err
	}
	s.state.put(s.now(), g, fc)
	return g, fc, nil
}

// checkPumpLaunch refuses what create_v2 would: launches switched off,
// mayhem mode while the program has it disabled.
func (s *Signer) checkPumpLaunch(ctx context.Context, l wire.Launch, at string) error {
	g, _, err := s.pumpState(ctx)
	if err != nil {
		return err
	}
	if !g.CreateV2Enabled {
		return apierr.Invalid(at+".dex", "%s: the pump.fun program has create_v2 switched off (CreateV2Disabled)", at)
	}
	if l.Mayhem && !g.MayhemModeEnabled {
		return apierr.Invalid(at+".data.is_mayhem_mode", "%s.data.is_mayhem_mode: the pump.fun program has mayhem mode switched off (MayhemModeDisabled); send false", at)
	}
	return nil
}

// planPumpLaunch makes a pump.fun launch: create_v2 of a Token-2022 coin by
// the creator, the creator's buy in the same transaction, then each buy.
// Every buy is bounded by slippage_bps against the curve as the buys before
// it in the launch leave it.
func (s *Signer) planPumpLaunch(ctx context.Context, o *deployOrder, l wire.Launch, p *launchPlan) error {
	g, fc, err := s.pumpState(ctx)
	if err != nil {
		return err
	}
	job := o.job
	create := pumpfun.NewCreateV2Accounts(p.mint, o.creator)
	args := pumpfun.CreateV2Args{Name: job.Metadata.Name, Symbol: job.Metadata.Symbol, URI: o.uri,
		Creator: o.creator, IsMayhemMode: l.Mayhem}
	first := action{kind: wire.TxCreate, payer: o.creator, cu: pumpCreateCU,
		ixs:  []sol.Instruction{pumpfun.CreateV2Instruction(&create, args)},
		cost: add(rentExempt(pumpMintSize), rentExempt(pumpCurveSize), rentExempt(token2022AccountSize))}

	curve := pumpfun.NewBondingCurve(g, o.creator, l.Mayhem)
	feeRecipients := g.FeeRecipientCandidates(l.Mayhem)
	if len(feeRecipients) == 0 {
		feeRecipients = pumpfun.StaticFeeRecipients
	}
	buyback := g.BuybackFeeRecipientCandidates()
	if len(buyback) == 0 {
		buyback = pumpfun.StaticBuybackFeeRecipients
	}
	p.actions = append(p.actions, first)
	buy := func(kind string, wallet sol.PublicKey, spend, fee uint64, field string) (action, error) {
		// Each buy pays the fee tier of the market cap the buys before it
		// leave, as the program charges it: priced at the new curve's, a
		// buy past a tier's threshold was quoted on a curve the chain does
		// not have, and the one that completes the curve went without
		// partial_fill (the bundle failed NotEnoughTokensToBuy).
		rates := pumpfun.ComputeFees(g, fc, &curve, g.TokenTotalSupply)
		q, err := curve.QuoteBuyExactSolIn(rates, spend)
		if err != nil || q.TokensOut == 0 {
			return action{}, apierr.Invalid(field, "%s buys no tokens on a new pump.fun curve", field)
		}
		curve.ApplyBuy(q)
		ixs := pumpLaunchBuy(pumpfun.TradeParams{Mint: p.mint, User: wallet, Creator: o.creator,
			TokenProgram: pumpfun.Token2022ProgramID, FeeRecipient: pickKey(feeRecipients), BuybackFeeRecipient: pickKey(buyback)},
			spend, pumpfun.MinOut(q.TokensOut, uint64(job.SlippageBps)), q.Capped)
		// The buyer's token account and volume accumulator, and the
		// curve's second account on the first buy.
		rent := add(rentExempt(token2022AccountSize), rentExempt(pumpVolumeAccSize), rentExempt(pumpCurveV2Size))
		return action{kind: kind, payer: wallet, ixs: ixs, cu: pumpBuyCU, fee: fee, cost: add(spend, rent)}, nil
	}
	return addBuys(o, p, buy)
}

// pumpLaunchBuy returns one buy of a launch, as @pump-fun/pump-sdk 2.0.0
// builds the buy of createV2AndBuyInstructions: the idempotent creation of
// the buyer's Token-2022 account, then the buy with every account of the
// IDL (the volume accumulators among them) and the two remaining accounts,
// and track_volume true, as the swaps send it, so that launch volume counts
// for pump's volume incentives like any other buy. It is buy_exact_sol_in,
// which takes the same accounts as the SDK's buy, because a launch's
// amounts are SOL to spend, fees included. The buy that completes the
// curve (capped: its SOL would buy more than is left) carries partial_fill
// and takes what is left; the launch's buys land in the order they were
// quoted in, so no other can be cut short by this launch's own.
func pumpLaunchBuy(p pumpfun.TradeParams, spend, minTokens uint64, capped bool) []sol.Instruction {
	a := pumpfun.NewBuyAccounts(p)
	return []sol.Instruction{
		createATAIdempotent(p.User, a.AssociatedUser, p.User, p.Mint, p.TokenProgram),
		pumpfun.BuyExactSolInInstruction(&a, pumpfun.BuyExactSolInArgs{SpendableSolIn: spend, MinTokensOut: minTokens, TrackVolume: true, PartialFill: capped}),
	}
}
