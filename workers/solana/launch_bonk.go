package solana

import (
	"context"
	"fmt"
	"strconv"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Compute units asked for LaunchLab launch actions, over what the program
// uses (initialize_v2 with its Metaplex metadata about 110k; a wrapped buy
// about 100k).
const (
	bonkCreateCU = 150_000
	bonkBuyCU    = 130_000
)

// metaplexMetadataSize is the size of a Metaplex metadata account, which
// LaunchLab and DBC launches open beside the mint.
const metaplexMetadataSize = 679

// readBonk reads letsbonk's GlobalConfig and PlatformConfig into o, and
// what the first buy of o's letsbonk launches pays for the fee vaults it
// opens: the platform's wrapped-SOL fee vault and the creator's (one per
// creator, opened by the first buy on any of the creator's pools), each
// opened when missing at the buyer's expense, as on a swap (planPad).
func (s *Signer) readBonk(ctx context.Context, o *deployOrder) error {
	keys := []sol.PublicKey{launchlab.SOLConstantGlobalConfig, launchlab.LetsBonkPlatformConfig,
		launchlab.PlatformFeeVaultPDA(launchlab.LetsBonkPlatformConfig, launchlab.WrappedSOLMint),
		launchlab.CreatorFeeVaultPDA(o.creator, launchlab.WrappedSOLMint)}
	accounts, err := s.getAccounts(ctx, keys)
	if err != nil {
		return err
	}
	g, err := requiredAccount[launchlab.GlobalConfig](accounts[0], launchlab.ProgramID, launchlab.SOLConstantGlobalConfig, "LaunchLab global config")
	if err != nil {
		return err
	}
	p, err := requiredAccount[launchlab.PlatformConfig](accounts[1], launchlab.ProgramID, launchlab.LetsBonkPlatformConfig, "LaunchLab letsbonk platform config")
	if err != nil {
		return err
	}
	o.bonkGlobal, o.bonkPlatform, o.bonkVaultsRent = g, p, 0
	for _, a := range accounts[2:] {
		if _, ok := tokenAmount(a, launchlab.WrappedSOLMint); !ok {
			o.bonkVaultsRent = add(o.bonkVaultsRent, rentExempt(splTokenAccountSize))
		}
	}
	return nil
}

// planBonkLaunch makes a letsbonk launch: initialize_v2 of an SPL coin with
// letsbonk's curve by the creator, then the creator's buy and each buy,
// each paying in wrapped SOL, bounded by slippage_bps against the pool as
// the buys before it leave it.
// first: the deploy's first letsbonk launch, whose first buy opens the
// fee vaults that are missing.
func (s *Signer) planBonkLaunch(o *deployOrder, l wire.Launch, p *launchPlan, first bool) error {
	g, platform := o.bonkGlobal, o.bonkPlatform
	job := o.job
	curve := launchlab.LetsBonkCurve()
	if l.MigrateType == "amm_v4" {
		curve.MigrateType = launchlab.MigrateAMM
	}
	feeOn := launchlab.AMMFeeOnQuote
	if l.CreatorFeeOn == "both_tokens" {
		feeOn = launchlab.AMMFeeOnBoth
	}
	init := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(o.creator, p.mint))
	init.FollowPlatform(platform)
	args := launchlab.InitializeV2Args{
		Mint:     launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: job.Metadata.Name, Symbol: job.Metadata.Symbol, URI: o.uri},
		Curve:    curve,
		AMMFeeOn: feeOn,
	}
	p.actions = append(p.actions, action{kind: wire.TxCreate, payer: o.creator, cu: bonkCreateCU,
		ixs:  []sol.Instruction{launchlab.InitializeV2Instruction(&init, args)},
		cost: add(rentExempt(mintSize), rentExempt(launchlab.PoolStateSize), 2*rentExempt(splTokenAccountSize), rentExempt(metaplexMetadataSize))})

	pool, err := launchlab.NewPool(launchlab.LetsBonkDecimals, 9, curve, launchlab.VestingParams{}, feeOn, g.MigrateFee)
	if err != nil {
		return apierr.Wrap(fmt.Errorf("letsbonk curve: %w", err), "internal error")
	}
	pool.GlobalConfig, pool.PlatformConfig, pool.Creator = init.GlobalConfig, init.PlatformConfig, o.creator
	pool.BaseMint, pool.QuoteMint, pool.BaseVault, pool.QuoteVault = p.mint, init.QuoteMint, init.BaseVault, init.QuoteVault
	p.pool = init.PoolState
	rates := launchlab.RatesOf(g, platform, 0)

	buy := func(kind string, wallet sol.PublicKey, spend uint64, fee uint64, field string) (action, error) {
		q, err := launchlab.QuoteBuyExactIn(&pool, rates, spend)
		if err != nil || q.AmountOut == 0 {
			return action{}, apierr.Invalid(field, "%s buys no tokens on a new letsbonk curve", field)
		}
		pool.ApplyBuy(q)
		// A buy that completes the curve sends what the rest costs, as
		// Raydium's SDK builds it, not the whole amount; the wallet must
		// hold the amount asked all the same, as on every venue.
		asked := spend
		spend = q.AmountIn
		a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(wallet, &pool))
		trade := launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: spend,
			MinimumAmountOut: launchlab.MinOut(q.AmountOut, uint64(job.SlippageBps))})
		cost := add(max(asked, spend), wsolBuyRent)
		if first {
			// The launch's buys land in order: this one opens the vaults.
			cost, first = add(cost, o.bonkVaultsRent), false
		}
		return action{kind: kind, payer: wallet, cu: bonkBuyCU, fee: fee,
			ixs: wsolBuy(wallet, p.mint, spend, trade), cost: cost}, nil
	}
	return addBuys(o, p, buy)
}

// addBuys appends the creator's buy (when there is one) and every buy of
// the job to p, as buy makes them.
func addBuys(o *deployOrder, p *launchPlan, buy func(kind string, wallet sol.PublicKey, spend, fee uint64, field string) (action, error)) error {
	if o.job.CreatorBuy > 0 {
		a, err := buy(wire.TxDevBuy, o.creator, o.job.CreatorBuy, 0, "creator_buy_sol_amount")
		if err != nil {
			return err
		}
		p.actions = append(p.actions, a)
	}
	for i, b := range o.job.Buys {
		a, err := buy(wire.TxBuy, o.buyers[i], b.Lamports, b.PriorityFee, "buys["+strconv.Itoa(i)+"].sol_amount")
		if err != nil {
			return err
		}
		p.actions = append(p.actions, a)
	}
	return nil
}
