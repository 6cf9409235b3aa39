package solana

import (
	"context"
	"errors"
	"math/big"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Compute units asked for DBC launch actions, over what the program uses
// (initialize_virtual_pool_with_spl_token with its metadata about 80k; a
// wrapped buy about 90k).
const (
	bagsCreateCU = 130_000
	bagsBuyCU    = 120_000
)

// bagsConfigKey returns the pool config a bags launch uses: the request's, or
// the configured one.
func (s *Signer) bagsConfigKey(l wire.Launch, at string) (sol.PublicKey, error) {
	if l.PoolConfig == "" {
		if s.cfg.BagsPoolConfig.IsZero() {
			return sol.PublicKey{}, apierr.Invalid(at+".data.pool_config", "%s.data.pool_config is required: no bags pool config is configured", at)
		}
		return s.cfg.BagsPoolConfig, nil
	}
	k, err := sol.PublicKeyFromBase58(l.PoolConfig)
	if err != nil {
		return sol.PublicKey{}, apierr.Invalid(at+".data.pool_config", "%s.data.pool_config is not a Solana address", at)
	}
	return k, nil
}

// readBagsConfig reads a DBC pool config and refuses one a bags launch
// cannot use: missing, not the DBC program's, not quoted in SOL, or for a
// Token-2022 base (launched by another instruction).
func (s *Signer) readBagsConfig(ctx context.Context, key sol.PublicKey, at string) (*dbc.PoolConfig, error) {
	accounts, err := s.getAccounts(ctx, []sol.PublicKey{key})
	if err != nil {
		return nil, err
	}
	field := at + ".data.pool_config"
	c, found, err := programAccount[dbc.PoolConfig](accounts[0], dbc.ProgramID)
	if !found || err != nil {
		return nil, apierr.Invalid(field, "%s: %s is not a Meteora DBC pool config", field, key)
	}
	if c.QuoteMint != sol.SolMint {
		return nil, apierr.Invalid(field, "%s: config %s is quoted in %s; bags launches here are quoted in SOL", field, key, c.QuoteMint)
	}
	if c.TokenType != dbc.TokenTypeSPL {
		return nil, apierr.Invalid(field, "%s: config %s launches Token-2022 coins; bags launches here are SPL Token coins", field, key)
	}
	return c, nil
}

// planBagsLaunch makes a bags launch: initialize_virtual_pool_with_spl_token
// under the pool config by the creator, then the creator's buy and each buy
// (quote to base swaps paying in wrapped SOL), bounded by slippage_bps
// against the pool as the buys before it leave it.
func (s *Signer) planBagsLaunch(o *deployOrder, l wire.Launch, p *launchPlan, at string) error {
	key, err := s.bagsConfigKey(l, at)
	if err != nil {
		return err
	}
	cfg := o.bagsConfigs[key]
	job := o.job
	init := dbc.NewInitializeAccounts(key, sol.SolMint, p.mint, o.creator)
	p.pool = init.Pool
	ix := dbc.InitializeVirtualPoolWithSPLTokenInstruction(&init, dbc.InitializePoolParameters{
		Name: job.Metadata.Name, Symbol: job.Metadata.Symbol, URI: o.uri})
	p.actions = append(p.actions, action{kind: wire.TxCreate, payer: o.creator, cu: bagsCreateCU, ixs: []sol.Instruction{ix},
		cost: add(rentExempt(mintSize), rentExempt(dbc.VirtualPoolSize), 2*rentExempt(splTokenAccountSize),
			rentExempt(metaplexMetadataSize), cfg.PoolCreationFee)})

	// The pool as initialize writes it; its activation point does not move
	// a constant fee, and the launch's buys land right after it: inside a
	// rate limiter's window, which prices each buy by its size.
	fresh := dbc.VirtualPool{Config: key, Creator: o.creator, BaseMint: p.mint, BaseVault: init.BaseVault,
		QuoteVault: init.QuoteVault, SqrtPrice: cfg.SqrtStartPrice, PoolType: dbc.PoolTypeSPLToken,
		BaseReserve: cfg.InitialBaseSupply()}
	pool := fresh
	// The first buy, when it shares initialize's transaction (the
	// creator's buy beside the create, or in packed mode the first
	// wallet's), passes the instructions sysvar, as Meteora's SDK builds
	// a pool's first buy (createPoolWithFirstBuy), and, under a config
	// that lets a pool's first swap pay its least base fee, pays it: taken
	// for so at first, and planned again, without either, when the layout
	// puts it in a transaction of its own.
	inInitTx := true
	buy := func(kind string, wallet sol.PublicKey, spend, fee uint64, field string) (action, error) {
		q, err := dbc.QuoteSwapExactIn(&pool, cfg, spend, true, false, pool.ActivationPoint)
		if dbc.FirstSwapMinFee(cfg, &pool, false, inInitTx) {
			q, err = dbc.QuoteFirstSwap(&pool, cfg, spend, true, pool.ActivationPoint)
		}
		if errors.Is(err, dbc.ErrInsufficientLiquidity) {
			return action{}, apierr.Invalid(field, "%s buys more than the new bags curve has left before it moves to its AMM, after the buys before it: it takes %s SOL more at most, fees included",
				field, money.Format(new(big.Int).SetUint64(dbcRoomOf(pool, cfg, pool.ActivationPoint)), 9))
		}
		if err != nil {
			return action{}, apierr.Invalid(field, "%s cannot buy on a new bags curve: %v", field, err)
		}
		if q.AmountOut == 0 {
			return action{}, apierr.Invalid(field, "%s buys no tokens on a new bags curve: too small an amount", field)
		}
		first := pool.HasSwap == 0
		pool.ApplySwap(cfg, q, pool.ActivationPoint)
		a := dbc.NewSwapAccounts(dbc.SwapParams{Config: key, BaseMint: p.mint, QuoteMint: sol.SolMint, User: wallet, Buy: true,
			InstructionsSysvar: dbc.NeedsInstructionsSysvar(cfg, &pool, true, pool.ActivationPoint) || inInitTx && first})
		swap := dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: spend, MinimumAmountOut: dbc.MinOut(q.AmountOut, uint64(job.SlippageBps))})
		return action{kind: kind, payer: wallet, cu: bagsBuyCU, fee: fee, alone: dbc.RateLimiterApplies(cfg, &pool, true, pool.ActivationPoint),
			ixs: wsolBuy(wallet, p.mint, spend, swap), cost: add(spend, wsolBuyRent)}, nil
	}
	if err := addBuys(o, p, buy); err != nil || !inInitTx || s.firstBuyWithCreate(o, p) {
		return err
	}
	// Where a transaction's actions go depends on their sizes, which the
	// amounts do not change: planned again, the first buy stays apart.
	p.actions, pool, inInitTx = p.actions[:1], fresh, false
	return addBuys(o, p, buy)
}

// firstBuyWithCreate tells whether the launch's first buy shares the
// create's transaction in the layout (bundleLayout): the creator's buy
// when the two fit one transaction, or the first wallet's in packed mode.
func (s *Signer) firstBuyWithCreate(o *deployOrder, p *launchPlan) bool {
	if len(p.actions) < 2 || (p.actions[1].kind != wire.TxDevBuy && o.job.BundleMode != wire.BundlePacked) {
		return false
	}
	return len(s.pack(o, nil, p.actions[:2], sol.Hash{})) == 1
}
