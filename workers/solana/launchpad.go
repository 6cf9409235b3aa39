package solana

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/token2022"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// A launchpad coin is one still on the bonding curve it was launched on
// outside pump.fun: a Raydium LaunchLab pool (letsbonk's launches) or a
// Meteora Dynamic Bonding Curve virtual pool (bags' launches). Both trade
// against wrapped SOL, which a trade wraps and unwraps around itself, or
// against a stable quote asset (letsbonk's USD1 launches, DBC configs
// quoted in USDC), and both move their coin to an AMM once the curve is
// sold out; from then on the coin is not traded here.
type padKind uint8

const (
	padNone padKind = iota
	padLaunchLab
	padDBC
)

func (k padKind) String() string {
	if k == padDBC {
		return "Meteora DBC"
	}
	return "LaunchLab"
}

// venue is the gate's name of the launchpad.
func (k padKind) venue() string {
	if k == padDBC {
		return venues.DBC
	}
	return venues.LaunchLab
}

// padAccountKind tells which launchpad's pool a is, if any.
func padAccountKind(a *rpc.Account) padKind {
	d := data(a)
	switch {
	case a == nil || len(d) < 8:
		return padNone
	case a.Owner == launchlab.ProgramID && [8]byte(d[:8]) == [8]byte(launchlab.PoolStateDiscriminator):
		return padLaunchLab
	case a.Owner == dbc.ProgramID && [8]byte(d[:8]) == [8]byte(dbc.VirtualPoolDiscriminator):
		return padDBC
	}
	return padNone
}

// findLaunchpad tells whether a job whose address is neither a pump.fun
// curve nor a PumpSwap pool names a launchpad coin: the address is a
// LaunchLab pool or a DBC virtual pool, or a mint whose LaunchLab pool
// (quoted in SOL or a stable quote asset), or whose DBC pool under the
// configured bags config, exists, or failing those a mint some DBC pool
// trades. A mint costs one read of the derived pools; the last search, as
// Meteora's SDK finds a pool by its mint, only when those are missing.
func (s *Signer) findLaunchpad(ctx context.Context, o *order, m *market) (venue, bool, error) {
	if k := padAccountKind(m.address); k != padNone {
		return venue{pool: o.mint, why: "the pool the address names", launchpad: k}, true, nil
	}
	if !m.mintFound {
		return venue{}, false, nil
	}
	keys := []sol.PublicKey{launchlab.PoolPDA(o.mint, launchlab.WrappedSOLMint)}
	for _, q := range s.stableMints {
		keys = append(keys, launchlab.PoolPDA(o.mint, q))
	}
	if !s.cfg.BagsPoolConfig.IsZero() {
		keys = append(keys, dbc.PoolPDA(s.cfg.BagsPoolConfig, o.mint, dbc.WrappedSOLMint))
	}
	accounts, err := s.getAccounts(ctx, keys)
	if err != nil {
		return venue{}, false, err
	}
	for i, a := range accounts {
		if k := padAccountKind(a); k != padNone {
			return venue{pool: keys[i], why: "the coin's pool", launchpad: k}, true, nil
		}
	}
	return s.searchDBCPool(ctx, o.mint)
}

// ProgramAccountsRPC is the search an RPC client may offer beside RPC;
// *rpc.Client does. Without it a DBC pool under a config other than the
// configured one is found by its id only.
type ProgramAccountsRPC interface {
	GetProgramAccountsWithOpts(ctx context.Context, program sol.PublicKey, opts *rpc.GetProgramAccountsOpts) (rpc.GetProgramAccountsResult, error)
}

// searchDBCPool asks the node for the DBC pool of mint, by the pool
// account's size and its base mint, as Meteora's SDK does. A node that
// does not serve the search (some providers turn program-wide searches
// off) leaves the coin not found, with a log line, and is not asked again
// by this process: the pool's id still trades it. Any other failure is the order's error, worth retrying: a
// coin that exists is not answered TOKEN_NOT_FOUND for a node's hiccup.
func (s *Signer) searchDBCPool(ctx context.Context, mint sol.PublicKey) (venue, bool, error) {
	search, ok := s.rpc.(ProgramAccountsRPC)
	if !ok || s.noSearch.Load() {
		return venue{}, false, nil
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	res, err := search.GetProgramAccountsWithOpts(cctx, dbc.ProgramID, &rpc.GetProgramAccountsOpts{
		Commitment: s.cfg.Commitment,
		Encoding:   sol.EncodingBase64,
		// Only the discriminator is needed of what matches.
		DataSlice: &rpc.DataSlice{Offset: ptr(uint64(0)), Length: ptr(uint64(8))},
		Filters: []rpc.RPCFilter{
			{DataSize: dbc.VirtualPoolSize},
			{Memcmp: &rpc.RPCFilterMemcmp{Offset: dbc.VirtualPoolBaseMintOffset, Bytes: mint[:]}},
		},
	})
	if err != nil {
		if endpoint.Unsupported(err) {
			// Asked once: the node's answer will not change for a while.
			s.noSearch.Store(true)
			s.log.Warn("the node does not serve getProgramAccounts on the DBC program: a Bags coin under another config than the configured one is found by its pool id only", "mint", mint, "err", err)
			return venue{}, false, nil
		}
		return venue{}, false, fmt.Errorf("search for the DBC pool of %s: %w", mint, err)
	}
	for _, ka := range res {
		if ka == nil || ka.Account == nil || ka.Account.Owner != dbc.ProgramID {
			continue
		}
		if d := data(ka.Account); len(d) >= 8 && [8]byte(d[:8]) == [8]byte(dbc.VirtualPoolDiscriminator) {
			return venue{pool: ka.Pubkey, why: "the coin's pool", launchpad: padDBC}, true, nil
		}
	}
	return venue{}, false, nil
}

func ptr[T any](v T) *T { return &v }

// padFacts are what never changes about a launchpad pool: its coin, the
// coin's token program and decimals, and the accounts its trades name.
type padFacts struct {
	kind        padKind
	baseMint    sol.PublicKey
	quoteMint   sol.PublicKey // an SPL Token mint
	baseProgram sol.PublicKey
	decimals    uint8
	// LaunchLab: the pool's configs and creator (its creator fee vault).
	globalConfig, platformConfig, creator sol.PublicKey
	// DBC: the pool's config.
	config sol.PublicKey
}

// padFactsOf reads the facts of the launchpad pool at addr, once.
func (s *Signer) padFactsOf(ctx context.Context, v venue) (padFacts, error) {
	if f, ok := s.padFacts.Get(v.pool); ok {
		return f, nil
	}
	accounts, err := s.getAccounts(ctx, []sol.PublicKey{v.pool})
	if err != nil {
		return padFacts{}, err
	}
	f := padFacts{kind: padAccountKind(accounts[0])}
	switch f.kind {
	case padLaunchLab:
		p, err := launchlab.DecodePool(data(accounts[0]))
		if err != nil {
			return padFacts{}, apierr.Wrap(fmt.Errorf("LaunchLab pool %s: %w", v.pool, err), "internal error")
		}
		f.baseMint, f.quoteMint, f.baseProgram, f.decimals = p.BaseMint, p.QuoteMint, p.BaseTokenProgram(), p.BaseDecimals
		f.globalConfig, f.platformConfig, f.creator = p.GlobalConfig, p.PlatformConfig, p.Creator
	case padDBC:
		p, err := dbc.DecodeVirtualPool(data(accounts[0]))
		if err != nil {
			return padFacts{}, apierr.Wrap(fmt.Errorf("DBC pool %s: %w", v.pool, err), "internal error")
		}
		f.baseMint, f.config, f.baseProgram = p.BaseMint, p.Config, launchlab.TokenProgramID
		if p.PoolType == dbc.PoolTypeToken2022 {
			f.baseProgram = launchlab.Token2022ProgramID
		}
		// The pool does not name its quote mint; its config does, which
		// every trade reads again for its fees and curve.
		cfgs, err := s.getAccounts(ctx, []sol.PublicKey{p.Config})
		if err != nil {
			return padFacts{}, err
		}
		c, err := requiredAccount[dbc.PoolConfig](cfgs[0], dbc.ProgramID, p.Config, "Meteora DBC pool config")
		if err != nil {
			return padFacts{}, err
		}
		if c.QuoteTokenFlag != 0 {
			return padFacts{}, apierr.Newf(apierr.TokenNotFound, v.pool.String(), "Meteora DBC pool %s is quoted in %s, a Token-2022 mint, which this service does not trade", v.pool, c.QuoteMint)
		}
		f.quoteMint = c.QuoteMint
	default:
		return padFacts{}, apierr.Newf(apierr.TokenNotFound, v.pool.String(), "%s pool %s no longer exists", v.launchpad, v.pool)
	}
	s.padFacts.Put(v.pool, f)
	return f, nil
}

// padMarket is what one job reads about a launchpad pool.
type padMarket struct {
	venue
	facts padFacts
	// quote is the curve's quote asset (SOL, USDC, USD1) and quoteDecimals
	// its decimals.
	quote         string
	quoteDecimals uint8

	// LaunchLab: the pool, its rates, and whether the fee vaults a trade
	// pays into exist (a trade creates them at the trader's cost).
	ll                                 launchlab.PoolState
	rates                              launchlab.Rates
	platformVaultExists, creatorExists bool
	// baseFee is the transfer fee a Token-2022 coin's mint charges this
	// epoch, zero for a mint without one; feeMint tells that the mint has
	// a TransferFeeConfig, which adds TransferFeeAmount to every account
	// of it.
	baseFee token2022.TransferFee
	feeMint bool

	// DBC: the pool, its config and the fee schedule's current point;
	// partial: the order's buys go as swap2 partial fills (dbcNearEnd).
	vp      dbc.VirtualPool
	cfg     dbc.PoolConfig
	point   uint64
	partial bool

	supply uint64

	solUSD    prefetched[float64]
	autoPrice prefetched[uint64]

	blockhash            sol.Hash
	lastValidBlockHeight uint64
}

// signLaunchpad signs job on the launchpad pool v names.
func (s *Signer) signLaunchpad(ctx context.Context, job *wire.SwapJob, o *order, v venue) (*wire.TxBatch, error) {
	if err := s.venueOpen(v.launchpad.venue()); err != nil {
		return nil, err
	}
	facts, err := s.padFactsOf(ctx, v)
	if err != nil {
		return nil, err
	}
	pm := &padMarket{venue: v, facts: facts, quote: s.quoteAsset(facts.quoteMint)}
	if pm.quote == "" {
		return nil, apierr.Newf(apierr.TokenNotFound, job.Token, "%s pool %s is quoted in %s, which is not a quote asset (SOL, USDC, USD1)", v.launchpad, v.pool, facts.quoteMint)
	}
	pm.quoteDecimals = uint8(quoteDecimals[pm.quote])
	// The pool is read before the quote asset is judged: a curve sold out
	// (its coin gone to a pool elsewhere) is that, whatever the quote, and
	// telling a buy to send the curve's quote would cost it a second try.
	if err := s.readPadMarket(ctx, o, pm); err != nil {
		return nil, err
	}
	if err := quoteRules(job, o, fmt.Sprintf("its %s curve (pool %s)", v.launchpad, v.pool), pm.quote, facts.quoteMint); err != nil {
		return nil, err
	}
	if err := s.checkPadBounds(o, pm); err != nil {
		return nil, err
	}
	if err := s.settleFees(o, pm.autoPrice); err != nil {
		return nil, err
	}
	if err := s.countSalesInFlight(ctx, o, pm.facts.baseMint); err != nil {
		return nil, err
	}
	if err := s.planPad(pm, o); err != nil {
		return nil, err
	}
	route := fmt.Sprintf("%s pool %s: %s", v.launchpad, v.pool, v.why)
	if !pm.solQuote() {
		route = fmt.Sprintf("%s pool %s quoted in %s: %s", v.launchpad, v.pool, pm.quote, v.why)
	}
	return s.signBatch(ctx, job, o, traded{route: route, venue: v.launchpad.venue(), mint: facts.baseMint, pool: v.pool}, pm.blockhash, pm.lastValidBlockHeight,
		func(l *leg, _ bool) []sol.Instruction { return s.padInstructions(pm, o, l) })
}

func (pm *padMarket) solQuote() bool { return pm.quote == quoteSOL }

// minOut is the minimum out of a trade quoted at out, rounded as the
// venue's SDK rounds it: half up on LaunchLab (Raydium's), down on DBC
// (Meteora's).
func (pm *padMarket) minOut(out, slippageBps uint64) uint64 {
	if pm.facts.kind == padLaunchLab {
		return launchlab.MinOut(out, slippageBps)
	}
	return dbc.MinOut(out, slippageBps)
}

// readPadMarket reads the pool, what its trades are priced by (LaunchLab's
// two configs and fee vaults, and for a Token-2022 coin its mint and the
// Clock, DBC's config and the coin's mint) and every wallet's SOL, coin
// account and quote account (wrapped SOL on a SOL curve), in one
// getMultipleAccounts, beside the SOL/USD price for the bounds of a SOL
// curve and the fees auto_tip prices from.
func (s *Signer) readPadMarket(ctx context.Context, o *order, pm *padMarket) error {
	f := &pm.facts
	keys := []sol.PublicKey{pm.pool}
	switch f.kind {
	case padLaunchLab:
		keys = append(keys, f.globalConfig, f.platformConfig,
			launchlab.PlatformFeeVaultPDA(f.platformConfig, f.quoteMint), launchlab.CreatorFeeVaultPDA(f.creator, f.quoteMint))
		if f.baseProgram == launchlab.Token2022ProgramID {
			keys = append(keys, f.baseMint, sol.SysVarClockPubkey)
		}
	case padDBC:
		keys = append(keys, f.config, f.baseMint)
	}
	walletsAt := len(keys)
	for i := range o.legs {
		l := &o.legs[i]
		l.ata = s.pdas.ata(l.wallet, f.baseMint, f.baseProgram)
		l.quoteATA = s.pdas.ata(l.wallet, f.quoteMint, launchlab.TokenProgramID)
		keys = append(keys, l.wallet, l.ata, l.quoteATA)
	}
	solUSD := &pm.solUSD
	if !pm.solQuote() {
		solUSD = nil // a stable is a dollar
	}
	accounts, hash, err := s.readBeside(ctx, o, pm.pool, keys, solUSD, &pm.autoPrice)
	if err != nil {
		return err
	}
	pm.blockhash, pm.lastValidBlockHeight = hash.hash, hash.lastValid

	switch f.kind {
	case padLaunchLab:
		if err := s.decodeLaunchLab(o, pm, accounts); err != nil {
			return err
		}
	case padDBC:
		if err := s.decodeDBC(o, pm, accounts); err != nil {
			return err
		}
	}
	for i := range o.legs {
		l := &o.legs[i]
		w, ata, qata := accounts[walletsAt+3*i], accounts[walletsAt+3*i+1], accounts[walletsAt+3*i+2]
		if w != nil {
			l.balance = w.Lamports
		}
		l.tokens, l.ataExists = tokenAmount(ata, f.baseMint)
		l.closable = l.ataExists && closableTokenAccount(ata, l.wallet)
		l.quoteTokens, l.quoteATAExists = tokenAmount(qata, f.quoteMint)
		l.ataLamports, l.quoteATALamports = lamportsOf(ata), lamportsOf(qata)
	}
	return nil
}

// decodeLaunchLab takes the pool, its configs and fee vaults from what
// readPadMarket read; a pool no longer on its curve is TOKEN_NOT_FOUND.
func (s *Signer) decodeLaunchLab(o *order, pm *padMarket, accounts []*rpc.Account) error {
	token := o.mint.String()
	if padAccountKind(accounts[0]) != padLaunchLab || pm.ll.Decode(data(accounts[0])) != nil {
		return apierr.Newf(apierr.TokenNotFound, token, "LaunchLab pool %s no longer exists", pm.pool)
	}
	if pm.ll.Status != launchlab.StatusFund {
		return apierr.Newf(apierr.TokenNotFound, token,
			"%s sold out its LaunchLab curve (pool %s) and moved to a Raydium pool, which this service does not trade", pm.facts.baseMint, pm.pool)
	}
	g, err := requiredAccount[launchlab.GlobalConfig](accounts[1], launchlab.ProgramID, pm.facts.globalConfig, "LaunchLab global config")
	if err != nil {
		return err
	}
	p, err := requiredAccount[launchlab.PlatformConfig](accounts[2], launchlab.ProgramID, pm.facts.platformConfig, "LaunchLab platform config")
	if err != nil {
		return err
	}
	pm.rates = launchlab.RatesOf(g, p, 0)
	_, pm.platformVaultExists = tokenAmount(accounts[3], pm.facts.quoteMint)
	_, pm.creatorExists = tokenAmount(accounts[4], pm.facts.quoteMint)
	pm.supply = pm.ll.Supply
	if pm.facts.baseProgram == launchlab.Token2022ProgramID {
		return pm.decodeBaseTransferFee(accounts[5], accounts[6])
	}
	return nil
}

// decodeBaseTransferFee takes the transfer fee a Token-2022 coin's mint
// charges in the epoch of the Clock read beside it, which is the clock
// Token-2022 picks the fee by. The mint withholds it from the tokens a buy
// takes out of the vault and from those a sale sends in: a buy's least out
// is taken from what the wallet receives, a sale is quoted on what reaches
// the vault, as Raydium's SDK quotes them.
func (pm *padMarket) decodeBaseTransferFee(mint, clock *rpc.Account) error {
	if mint == nil || mint.Owner != launchlab.Token2022ProgramID {
		return apierr.Wrap(fmt.Errorf("LaunchLab pool %s: its Token-2022 mint %s is missing", pm.pool, pm.facts.baseMint), "internal error")
	}
	cfg, ok, err := token2022.MintTransferFeeConfig(data(mint))
	if err != nil {
		return apierr.Wrap(fmt.Errorf("LaunchLab pool %s: mint %s: %w", pm.pool, pm.facts.baseMint, err), "internal error")
	}
	if !ok {
		return nil
	}
	d := data(clock)
	if len(d) < clockEpochOffset+8 {
		return apierr.Wrap(errors.New("the Clock sysvar is missing"), "internal error")
	}
	pm.baseFee, pm.feeMint = cfg.At(binary.LittleEndian.Uint64(d[clockEpochOffset:])), true
	return nil
}

// clockEpochOffset is where the Clock sysvar holds its epoch, after the
// slot and the epoch's start time.
const clockEpochOffset = 16

// baseAccountSize is the size of a wallet's associated account of the
// coin, whose rent a buy that creates it pays.
func (pm *padMarket) baseAccountSize() uint64 {
	if pm.feeMint {
		return token2022.AssociatedAccountWithTransferFeeSize
	}
	return tokenAccountSize(pm.facts.baseProgram)
}

// decodeDBC takes the pool, its config and the coin's supply from what
// readPadMarket read; a pool no longer on its curve is TOKEN_NOT_FOUND.
func (s *Signer) decodeDBC(o *order, pm *padMarket, accounts []*rpc.Account) error {
	token := o.mint.String()
	if padAccountKind(accounts[0]) != padDBC || pm.vp.Decode(data(accounts[0])) != nil {
		return apierr.Newf(apierr.TokenNotFound, token, "Meteora DBC pool %s no longer exists", pm.pool)
	}
	c, err := requiredAccount[dbc.PoolConfig](accounts[1], dbc.ProgramID, pm.facts.config, "Meteora DBC pool config")
	if err != nil {
		return err
	}
	pm.cfg = *c
	if pm.vp.IsMigrated != 0 || pm.vp.IsCurveComplete(&pm.cfg) {
		return apierr.Newf(apierr.TokenNotFound, token,
			"%s sold out its Meteora DBC curve (pool %s) and moves to a Meteora AMM pool, which this service does not trade", pm.facts.baseMint, pm.pool)
	}
	if pm.cfg.QuoteMint != pm.facts.quoteMint || pm.cfg.QuoteTokenFlag != 0 {
		return apierr.Newf(apierr.TokenNotFound, token, "Meteora DBC pool config %s changed its quote mint", pm.facts.config)
	}
	_, decimals, supply, ok := mintInfo(accounts[2])
	if !ok {
		return apierr.Newf(apierr.TokenNotFound, token, "Meteora DBC pool %s names %s, which is not a token mint", pm.pool, pm.facts.baseMint)
	}
	// The program makes its pools' mints without a transfer fee today; a
	// pool whose mint has one would deliver less than the quote, which
	// Meteora's SDK does not take off, so it is not traded.
	if chargesTransferFee(accounts[2]) {
		return apierr.Newf(apierr.TokenNotFound, token,
			"Meteora DBC pool %s trades %s, which charges a Token-2022 transfer fee: this service does not quote such a pool (a trade would deliver less than quoted)", pm.pool, pm.facts.baseMint)
	}
	pm.facts.decimals, pm.supply = decimals, supply
	// The base fee follows a schedule from the pool's activation, or a rate
	// limiter prices buys by their size until its window after activation
	// ends: by the clock for a timestamp-activated pool; a slot-activated
	// one is quoted at its activation, the highest fee of a falling
	// schedule and inside the limiter's window (its buys pass the
	// instructions sysvar), so the quote never promises more than the trade
	// gets.
	pm.point = dbcQuotePoint(pm.vp.ActivationPoint, pm.cfg.ActivationType, s.now())
	return nil
}

// dbcClockSlack is how far, in seconds, the chain's clock may run behind
// the signer's when it prices a DBC pool's fee.
const dbcClockSlack = 30

// dbcQuotePoint is the point a DBC pool's fee is quoted at: its activation
// for a slot-activated pool; for a timestamp-activated one the clock, less
// dbcClockSlack. The program reads the chain's clock, which may run behind
// ours: quoted as of a little earlier, a scheduler's falling fee is the
// higher one and a buy read just after the limiter's window is priced as
// inside it, either costing nothing if the chain is on time, where quoted
// at our clock a fee the program finds higher fails a small slippage.
func dbcQuotePoint(activation uint64, activationType uint8, now time.Time) uint64 {
	if activationType != dbc.ActivationTimestamp {
		return activation
	}
	t := uint64(max(now.Unix(), 0))
	return max(activation, t-min(t, dbcClockSlack))
}

// checkPadBounds measures a launchpad curve as checkCurveBounds does a
// pump.fun one: liquidity is the quote the curve raised, market cap the
// curve's price times the coin's supply; a stable is a dollar.
func (s *Signer) checkPadBounds(o *order, pm *padMarket) error {
	if !o.bounds.any() {
		return nil
	}
	price := 1.0
	if pm.solQuote() {
		if pm.solUSD.err != nil {
			return pm.solUSD.err
		}
		price = pm.solUSD.v
	}
	supply := new(big.Int).SetUint64(pm.supply)
	var raised uint64
	cap := new(big.Rat)
	switch pm.facts.kind {
	case padLaunchLab:
		p := &pm.ll
		raised = p.RealQuote
		if p.VirtualBase > p.RealBase {
			quote := new(big.Int).Add(new(big.Int).SetUint64(p.VirtualQuote), new(big.Int).SetUint64(p.RealQuote))
			cap.SetFrac(quote.Mul(quote, supply), new(big.Int).SetUint64(p.VirtualBase-p.RealBase))
		}
	case padDBC:
		raised = pm.vp.QuoteReserve
		// The price in quote units per base unit is (sqrt_price / 2^64)^2.
		sq := pm.vp.SqrtPrice.Big()
		cap.SetFrac(new(big.Int).Mul(new(big.Int).Mul(sq, sq), supply), new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return o.bounds.check(usd(new(big.Rat).SetUint64(raised), pm.quoteDecimals, price), usd(cap, pm.quoteDecimals, price))
}

// planPad quotes every leg on the curve, each as the earlier legs leave it,
// and checks every wallet's balance; nothing is signed yet.
func (s *Signer) planPad(pm *padMarket, o *order) error {
	ll, vp := pm.ll, pm.vp
	fee := lamportsPerSignature + o.priorityFee
	quoteRent := rentExempt(splTokenAccountSize)
	baseRent := rentExempt(pm.baseAccountSize())
	// Fee vaults a trade creates when missing, paid by the trader: every
	// wallet must be able to pay them, since the transactions of an order
	// may land in any order.
	var shared uint64
	if pm.facts.kind == padLaunchLab {
		if !pm.platformVaultExists {
			shared = add(shared, quoteRent)
		}
		if !pm.creatorExists {
			shared = add(shared, quoteRent)
		}
	}
	pm.partial = pm.facts.kind == padDBC && o.side == wire.Buy && dbcNearEnd(pm, o)
	active := 0
	for i := range o.legs {
		l := &o.legs[i]
		// A wrapped-SOL account is made for the trade and closed after it,
		// but its rent must be there while it runs; a stable's account that
		// a sale makes stays.
		ahead := shared
		if !l.quoteATAExists {
			ahead = add(ahead, quoteRent)
		}
		switch o.side {
		case wire.Buy:
			out, in, err := s.quotePadBuy(pm, &ll, &vp, l.spend)
			switch {
			case errors.Is(err, errCurveSoldOut) && i > 0:
				s.log.Info("curve filled by earlier wallets of the order", "mint", pm.facts.baseMint, "wallet", l.wallet)
				l.skip = "the curve was sold out after the order's earlier wallets bought"
				continue
			case err != nil:
				return padQuoteError(err, l, pm, vp, i > 0)
			case out == 0:
				return apierr.Invalid(l.field, "%s buys no tokens after fees", pm.amount(l.spend))
			}
			// The wallet must hold the amount asked, as on every other
			// venue, though a buy that completes the curve sends only
			// what the rest costs: a wallet that cannot pay the amount
			// plus fees is refused, whatever the curve has left.
			pay := max(in, l.spend)
			need := add(fee, ahead, o.tip)
			if pm.solQuote() {
				need = add(need, pay)
			} else if l.quoteTokens < pay {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s", l.wallet, pm.amount(l.quoteTokens), pm.amount(pay))
			}
			if !l.ataExists {
				need = add(need, baseRent)
			}
			if need, ok := l.pays(need, 0); !ok {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s to buy with %s (fees, tip and rent included)", l.wallet,
					solAmount(l.balance), solNeeded(need), pm.amount(pay))
			}
			l.pad = padTrade{in: in, minOut: pm.minOut(out, o.slippageBps)}
		case wire.Sell:
			amount, err := sellAmount(l, o.sellTokens, pm.facts.decimals)
			if err != nil {
				return err
			}
			if amount == 0 {
				l.skip = nothingToSell(l)
				continue
			}
			// The tip is counted once every leg is planned
			// (refuseShort).
			l.ahead = ahead
			// A share that sells for nothing leaves the curve as it was.
			llBefore, vpBefore := ll, vp
			out, err := s.quotePadSell(pm, &ll, &vp, amount)
			if errors.Is(err, errFeeTakesAll) {
				l.leaveOut("nothing to sell", apierr.Invalid(l.field, "%s's transfer fee withholds the whole %d base units wallet %s would sell: nothing would reach the curve",
					pm.facts.baseMint, amount, l.wallet))
				continue
			}
			if err != nil {
				return padQuoteError(err, l, pm, vp, i > 0)
			}
			if out == 0 && !l.closesOn(amount) {
				ll, vp = llBefore, vpBefore
				l.leaveOut("nothing to sell", apierr.Invalid(l.field, "%d base units of %s sell for no %s after fees", amount, pm.facts.baseMint, pm.quote))
				continue
			}
			// A wallet left out above pays nothing: only one that sells
			// must pay.
			if refusal := l.cannotPayAhead(fee, l.ahead); refusal != nil {
				return refusal
			}
			l.pad = padTrade{in: amount, minOut: pm.minOut(out, o.slippageBps)}
			l.planClose(amount)
		}
		active++
	}
	if active == 0 {
		if o.side == wire.Sell {
			return noSale(o, pm.facts.baseMint)
		}
		return apierr.Newf(apierr.TokenNotFound, pm.facts.baseMint.String(), "the %s curve of %s is sold out", pm.facts.kind, pm.facts.baseMint)
	}
	boundAsLast(o, func() func(uint64) (uint64, bool) {
		ll, vp := pm.ll, pm.vp
		return func(in uint64) (uint64, bool) {
			var out uint64
			var err error
			if o.side == wire.Buy {
				out, _, err = s.quotePadBuy(pm, &ll, &vp, in)
			} else {
				out, err = s.quotePadSell(pm, &ll, &vp, in)
			}
			return out, err == nil
		}
	}, func(l *leg, out uint64) {
		l.pad.minOut = min(l.pad.minOut, pm.minOut(out, o.slippageBps))
	})
	if o.side == wire.Sell {
		return refuseShort(o, pm.facts.baseMint, fee, 0, func(l *leg) uint64 {
			return l.wsolBack(pm.solQuote(), l.pad.minOut, quoteRent)
		})
	}
	return nil
}

// amount formats base units of the curve's quote asset, "1.5 USD1".
func (pm *padMarket) amount(units uint64) string {
	return money.Format(new(big.Int).SetUint64(units), int(pm.quoteDecimals)) + " " + pm.quote
}

// padTrade is a leg's trade on a launchpad curve: what goes in (lamports
// for a buy, base units for a sell) and the least that must come out.
type padTrade struct {
	in, minOut uint64
}

// errCurveSoldOut: the curve has nothing left to sell.
var errCurveSoldOut = errors.New("the curve is sold out")

// errFeeTakesAll is a sale of a coin whose transfer fee withholds every
// unit sold.
var errFeeTakesAll = errors.New("the transfer fee withholds the whole amount")

// quotePadBuy quotes a buy of spend quote units on the curve as it stands
// and applies it, returning the tokens the wallet receives (on LaunchLab
// those out less the coin's transfer fee) and the quote units the trade
// sends: spend, or on LaunchLab what the rest of a curve the buy completes
// costs.
func (s *Signer) quotePadBuy(pm *padMarket, ll *launchlab.PoolState, vp *dbc.VirtualPool, spend uint64) (out, in uint64, err error) {
	if pm.facts.kind == padLaunchLab {
		q, err := launchlab.QuoteBuyExactInWithTransferFee(ll, pm.rates, spend, pm.baseFee)
		if errors.Is(err, launchlab.ErrPoolMigrated) {
			return 0, 0, errCurveSoldOut
		}
		if err != nil {
			return 0, 0, err
		}
		ll.ApplyBuy(q)
		// A buy that takes the rest of the curve sends what the rest
		// costs, as Raydium's SDK builds it, not the whole amount.
		return q.Received(), q.AmountIn, nil
	}
	var q dbc.SwapQuote
	if pm.partial {
		q, err = dbc.QuoteSwapPartialFill(vp, &pm.cfg, spend, true, false, pm.point, false)
		if err == nil && q.AmountIn > spend {
			// The rest of the curve with its fee rounded up costs a few
			// units more than the leg holds for it: the program would
			// take them, the leg's wrapped SOL has not got them.
			err = dbc.ErrInsufficientLiquidity
		}
	} else {
		q, err = dbc.QuoteSwapExactIn(vp, &pm.cfg, spend, true, false, pm.point)
	}
	if errors.Is(err, dbc.ErrPoolIsCompleted) {
		return 0, 0, errCurveSoldOut
	}
	if err != nil {
		return 0, 0, err
	}
	vp.ApplySwap(&pm.cfg, q, pm.point)
	return q.AmountOut, spend, nil
}

// quotePadSell quotes a sale of amount base units and applies it,
// returning the quote units out after fees. On LaunchLab the curve prices
// amount less the coin's transfer fee, what reaches the vault.
func (s *Signer) quotePadSell(pm *padMarket, ll *launchlab.PoolState, vp *dbc.VirtualPool, amount uint64) (uint64, error) {
	if pm.facts.kind == padLaunchLab {
		if pm.baseFee.Fee(amount) >= amount {
			return 0, errFeeTakesAll
		}
		q, err := launchlab.QuoteSellExactInWithTransferFee(ll, pm.rates, amount, pm.baseFee)
		if err != nil {
			return 0, err
		}
		ll.ApplySell(q)
		return q.NetOut, nil
	}
	q, err := dbc.QuoteSwapExactIn(vp, &pm.cfg, amount, false, false, pm.point)
	if err != nil {
		return 0, err
	}
	vp.ApplySwap(&pm.cfg, q, pm.point)
	return q.AmountOut, nil
}

// dbcNearEnd tells whether the buys of order o on DBC pool pm could pass
// the curve's end: together they spend what completes it (as read), less
// what other traders may buy first while each leg still gets its least out,
// so that the legs landing in any order, or those traders' buys, could
// leave a leg more to spend than the curve holds. Such buys go as swap2
// partial fills: a leg past the end takes what completes the curve and
// pays for that alone, where swap would refuse it whole
// (InsufficientLiquidity) with its fees paid; min_tokens_out still bounds
// each leg. Near a curve's end the price climbs about as fast as the
// tokens run out, so others may buy about twice the slippage's share of
// what is left before a leg's tokens fall by the slippage (1.9 times at
// 1 %, 1.75 at 20 %, on a bags curve): that twice bounds what they take.
func dbcNearEnd(pm *padMarket, o *order) bool {
	var total uint64
	for i := range o.legs {
		total = add(total, o.legs[i].spend)
	}
	others := min(2*o.slippageBps, 10_000)
	// A buy completing the curve spends at least the quote it still has
	// to raise: below that, less what others may take, no search is
	// needed.
	if raise := pm.cfg.MigrationQuoteThreshold - min(pm.vp.QuoteReserve, pm.cfg.MigrationQuoteThreshold); total < dbc.MinOut(raise, others) {
		return false
	}
	return total >= dbc.MinOut(dbcRoomOf(pm.vp, &pm.cfg, pm.point), others)
}

// dbcRoomOf is the most a buy may spend on DBC pool vp under cfg at point
// before its curve completes: the largest amount the curve's own quote
// takes, found by bisection (a quote is microseconds), so that a buy of
// exactly it completes the curve whatever the fee's rounding.
func dbcRoomOf(vp dbc.VirtualPool, cfg *dbc.PoolConfig, point uint64) uint64 {
	takes := func(a uint64) bool {
		v := vp
		_, err := dbc.QuoteSwapExactIn(&v, cfg, a, true, false, point)
		return err == nil
	}
	// Twice the quote still to raise is more than any fee under 50 % lets
	// through; a config that takes that much is not bounded here.
	lo, hi := uint64(0), 2*(cfg.MigrationQuoteThreshold-min(vp.QuoteReserve, cfg.MigrationQuoteThreshold))+1
	if takes(hi) {
		return hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if takes(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// padQuoteError turns a curve's refusal of a leg into the order's answer;
// vp is the DBC pool as the order's earlier legs (after) leave it.
func padQuoteError(err error, l *leg, pm *padMarket, vp dbc.VirtualPool, after bool) error {
	token := pm.facts.baseMint.String()
	switch {
	case errors.Is(err, errCurveSoldOut):
		return apierr.Newf(apierr.TokenNotFound, token, "the %s curve of %s is sold out", pm.facts.kind, token)
	case errors.Is(err, dbc.ErrInvalidBaseFeeMode):
		return apierr.Newf(apierr.TokenNotFound, token, "Meteora DBC pool %s has a base fee mode (%d) the program does not know, so it trades on no terms",
			pm.pool, pm.cfg.BaseFee.BaseFeeMode)
	case errors.Is(err, dbc.ErrInsufficientLiquidity):
		left := "has left"
		if after {
			left = "has left after the order's earlier wallets"
		}
		return apierr.Invalid(l.field, "%s buys more than the %s curve of %s %s before it moves to its AMM: it takes %s more at most, fees included",
			pm.amount(l.spend), pm.facts.kind, token, left, pm.amount(dbcRoomOf(vp, &pm.cfg, pm.point)))
	case errors.Is(err, dbc.ErrNotEnoughLiquidity):
		return apierr.Invalid(l.field, "the curve holds too little %s to buy back %s's tokens from %s", pm.quote, token, l.wallet)
	case errors.Is(err, launchlab.ErrInvalidInput), errors.Is(err, dbc.ErrAmountIsZero):
		if l.spend > 0 {
			return apierr.Invalid(l.field, "%s buys no tokens after fees", pm.amount(l.spend))
		}
		return apierr.Invalid(l.field, "the curve holds too little %s to buy back these tokens from %s", pm.quote, l.wallet)
	}
	return apierr.Wrap(fmt.Errorf("quote %s trade for %s on %s: %w", pm.facts.kind, l.wallet, pm.pool, err), "internal error")
}

// padInstructions returns l's instructions on a launchpad curve: the
// compute budget; on a SOL curve the wallet's wrapped-SOL account (created
// idempotently) funded with what a buy spends, on a stable one the
// wallet's account of it when a sale pays into it; its coin account on a
// buy; the trade with the program's accounts; on a sale of the whole
// holding the close of the coin account; the close of the wrapped-SOL
// account, which returns what it holds to the wallet as SOL; and the tip.
func (s *Signer) padInstructions(pm *padMarket, o *order, l *leg) []sol.Instruction {
	f := &pm.facts
	spl := launchlab.TokenProgramID
	ixs := s.budget(o, l, 10)
	buy, wrapped := o.side == wire.Buy, pm.solQuote()
	if wrapped || !buy {
		ixs = append(ixs, createATAIdempotent(l.wallet, l.quoteATA, l.wallet, f.quoteMint, spl))
	}
	if buy {
		if wrapped {
			ixs = append(ixs,
				system.NewTransferInstruction(l.pad.in, l.wallet, l.quoteATA).Build(),
				syncNative(l.quoteATA, spl))
		}
		ixs = append(ixs, createATAIdempotent(l.wallet, l.ata, l.wallet, f.baseMint, f.baseProgram))
	}
	switch f.kind {
	case padLaunchLab:
		a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(l.wallet, &pm.ll))
		if buy {
			ixs = append(ixs, launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: l.pad.in, MinimumAmountOut: l.pad.minOut}))
		} else {
			ixs = append(ixs, launchlab.SellExactInInstruction(&a, launchlab.SellExactInArgs{AmountIn: l.pad.in, MinimumAmountOut: l.pad.minOut}))
		}
	case padDBC:
		a := dbc.NewSwapAccounts(dbc.SwapParams{Config: f.config, BaseMint: f.baseMint, QuoteMint: f.quoteMint,
			User: l.wallet, Buy: buy, BaseTokenProgram: f.baseProgram,
			InstructionsSysvar: dbc.NeedsInstructionsSysvar(&pm.cfg, &pm.vp, buy, pm.point)})
		if buy && pm.partial {
			ixs = append(ixs, dbc.Swap2Instruction(&a, dbc.Swap2Parameters{Amount0: l.pad.in, Amount1: l.pad.minOut, SwapMode: dbc.SwapModePartialFill}))
		} else {
			ixs = append(ixs, dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: l.pad.in, MinimumAmountOut: l.pad.minOut}))
		}
	}
	if l.closes {
		ixs = append(ixs, closeAccount(l.ata, l.wallet, f.baseProgram))
	}
	if wrapped {
		ixs = append(ixs, closeAccount(l.quoteATA, l.wallet, spl))
	}
	return s.tip(ixs, o, l)
}
