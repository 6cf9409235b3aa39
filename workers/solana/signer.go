// Package solana is the Solana signer of the worker. For a swap job it
// resolves the job's address to a venue (a pump.fun coin on its bonding
// curve, a graduated coin on its canonical PumpSwap pool, a LetsBonk or Bags
// coin on its LaunchLab or Meteora DBC curve, or a pool named by its id),
// reads that venue and the wallets, checks the market
// bounds, quotes every leg with the program's own integer math, checks that
// every wallet can pay before anything is signed, and signs one transaction
// per wallet.
package solana

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/capped"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// RPC is the part of a Solana JSON-RPC client the signer reads with;
// *rpc.Client implements it.
type RPC interface {
	GetMultipleAccountsWithOpts(ctx context.Context, accounts []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error)
	GetLatestBlockhash(ctx context.Context, commitment rpc.CommitmentType) (*rpc.GetLatestBlockhashResult, error)
	GetRecentPrioritizationFees(ctx context.Context, accounts sol.PublicKeySlice) ([]rpc.PriorizationFeeResult, error)
	GetSignatureStatuses(ctx context.Context, searchTransactionHistory bool, sigs ...sol.Signature) (*rpc.GetSignatureStatusesResult, error)
}

// KeySource hands out wallet keys. For Solana the key is the 64-byte
// ed25519 keypair (seed then public key). The signer keeps no key beyond
// one Sign call, and asks for the keys of one order's wallets concurrently.
type KeySource interface {
	PrivateKey(ctx context.Context, family wire.Family, address string) ([]byte, error)
}

// JitoTipAccounts are Jito's published tip accounts, the tip accounts of a
// Config that names none.
var JitoTipAccounts = chains.JitoTipAccounts

// Config is the signer's configuration: the signer keys of the `solana:`
// section of the configuration file, decoded, defaulted and validated by
// shared/config, which the signer takes as it is. Zero fields take the
// values of DefaultConfig.
type Config = config.SolanaSigner

// DefaultConfig returns the defaults, config.DefaultSolanaSigner.
func DefaultConfig() Config { return config.DefaultSolanaSigner() }

// withDefaults fills the zero fields of c with the defaults, so that a
// caller (a test, a tool) may set only what it cares about.
func withDefaults(c Config) Config {
	d := DefaultConfig()
	if c.ComputeUnitLimit == 0 {
		c.ComputeUnitLimit = d.ComputeUnitLimit
	}
	c.TipAccounts = c.Tips()
	if c.StateTTL <= 0 {
		c.StateTTL = d.StateTTL
	}
	if c.ResolveTTL <= 0 {
		c.ResolveTTL = d.ResolveTTL
	}
	if c.Commitment == "" {
		c.Commitment = d.Commitment
	}
	if c.RPCTimeout <= 0 {
		c.RPCTimeout = d.RPCTimeout
	}
	if c.BlockhashRefresh <= 0 {
		c.BlockhashRefresh = d.BlockhashRefresh
	}
	if c.BlockhashMaxAge <= 0 {
		c.BlockhashMaxAge = d.BlockhashMaxAge
	}
	if c.AutoFeePercentile <= 0 || c.AutoFeePercentile > 100 {
		c.AutoFeePercentile = d.AutoFeePercentile
	}
	if c.AutoFeeMinMicroLamports == 0 {
		c.AutoFeeMinMicroLamports = d.AutoFeeMinMicroLamports
	}
	if c.AutoFeeMaxMicroLamports == 0 {
		c.AutoFeeMaxMicroLamports = d.AutoFeeMaxMicroLamports
	}
	c.AutoFeeMaxMicroLamports = max(c.AutoFeeMaxMicroLamports, c.AutoFeeMinMicroLamports)
	if c.AutoTip == 0 {
		c.AutoTip = d.AutoTip
	}
	if c.MinBundleTip == 0 {
		c.MinBundleTip = d.MinBundleTip
	}
	if len(c.QuoteMints) == 0 {
		c.QuoteMints = d.QuoteMints
	}
	return c
}

// Signer builds and signs the transactions of swap jobs on pump.fun curves
// and PumpSwap pools. It is safe for concurrent use.
type Signer struct {
	rpc      RPC
	keys     KeySource
	cfg      Config
	meta     metadata.Store
	log      *slog.Logger
	state    stateCache
	ammState ammStateCache
	pdas     *pdaCache
	mints    capped.Cache[sol.PublicKey, mintFacts]
	venues   venueCache
	pools    capped.Cache[sol.PublicKey, poolFacts]
	padFacts capped.Cache[sol.PublicKey, padFacts]
	hashes   *blockhashCache
	now      func() time.Time
	// gate refuses a paused venue's orders before anything is signed
	// (WithVenueGate); nil lets every venue trade.
	gate VenueGate
	// noSearch: the node does not serve getProgramAccounts on DBC.
	noSearch atomic.Bool
	// stableMints are the configured stable quote mints, in the order of
	// their symbols.
	stableMints []sol.PublicKey
	// curveMints are the mints of pump.fun curves whose address a job
	// named.
	curveMints capped.Cache[sol.PublicKey, sol.PublicKey]
	// signed are the transactions signed lately, by order; claims, when
	// set, the same for every worker process of the chain
	// (WithSignatureClaims).
	signed signedSet
	claims jetstream.KeyValue
	// skips, when set, claim a skip_if_bought buy's mint before it is
	// signed (WithSkipClaims).
	skips SkipClaims
	// sales, when set, records every sale, and counts what a wallet's
	// sales in flight take in the next one's amount (WithSaleRecords).
	sales *saleBook
}

// WithSignatureClaims makes the signer record each transaction it signs in
// kv (the signatures bucket) and sign a leg again when another order,
// signed by any worker process, holds the same signature.
func (s *Signer) WithSignatureClaims(kv jetstream.KeyValue) *Signer {
	s.claims = kv
	return s
}

// VenueGate tells whether a venue takes orders (venues.Gate).
type VenueGate = venues.Gate

// SkipClaims claim the mint a buy with skip_if_bought resolved to, before
// it is signed; *skipclaim.Claims implements it. Hold's error (an
// skipclaim.ErrHeld) skips the buy.
type SkipClaims interface {
	Hold(ctx context.Context, f wire.Family, job *wire.SwapJob, chain, mint string) error
}

// WithSkipClaims makes the signer claim, through c, the mint of every buy
// with skip_if_bought before signing it, so that two buys of one token
// that name it differently (its mint, a pool, a bonding curve) trade at
// most once.
func (s *Signer) WithSkipClaims(c SkipClaims) *Signer {
	s.skips = c
	return s
}

// WithVenueGate makes the signer refuse, with gate's error and before
// anything is signed, the orders of a venue gate reports paused: only here
// is a swap's venue (curve or pool) known.
func (s *Signer) WithVenueGate(gate VenueGate) *Signer {
	s.gate = gate
	return s
}

// venueOpen is nil when venue takes orders.
func (s *Signer) venueOpen(venue string) error {
	if s.gate == nil {
		return nil
	}
	return s.gate.Open(wire.ChainSolana, venue)
}

// NewSigner returns a signer reading through rpc and signing with keys.
// Run keeps its blockhash fresh in the background.
func NewSigner(rpc RPC, keys KeySource, cfg Config, log *slog.Logger) *Signer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Signer{
		rpc:  rpc,
		keys: keys,
		cfg:  withDefaults(cfg),
		log:  log.With("component", "signer", "chain", wire.ChainSolana),
		pdas: newPDACache(pdaCacheSize),
		now:  time.Now,
	}
	for _, sym := range slices.Sorted(maps.Keys(s.cfg.QuoteMints)) {
		s.stableMints = append(s.stableMints, s.cfg.QuoteMints[sym])
	}
	s.hashes = newBlockhashCache(s.latestBlockhash, s.cfg.BlockhashRefresh, s.cfg.BlockhashMaxAge,
		metrics.BlockhashRefreshFailures.WithLabelValues(wire.ChainSolana), s.log)
	return s
}

// Sign builds and signs one transaction per wallet of job, for job.Token on
// the venue it resolves to: a pump.fun coin whose curve is live trades on
// the curve, a coin whose curve completed trades on its canonical PumpSwap
// pool, a coin with no pump.fun curve on its LaunchLab or DBC curve, and a
// pool id trades on that pool.
//
// Business errors are *apierr.Error: INVALID_REQUEST for a malformed
// address, amount or quote asset, TOKEN_NOT_FOUND when the address names no
// live curve or pool (or none in the job's quote asset),
// LIQUIDITY_OUT_OF_RANGE and MARKET_CAP_OUT_OF_RANGE with the measured USD
// figure, INSUFFICIENT_BALANCE naming the first wallet that cannot pay
// (checked for every wallet before any signature). Any other error (RPC
// failures, timeouts, the key source) is a plain error worth retrying.
func (s *Signer) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	for attempt := 1; ; attempt++ {
		// A sale planned on a wallet's record of sales in flight that
		// another sale changed meanwhile is planned again.
		batch, err := s.signOnce(ctx, job)
		if errors.Is(err, errSalesMoved) && attempt < 3 {
			continue
		}
		return batch, err
	}
}

// signOnce is one try of Sign.
func (s *Signer) signOnce(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	// Everything the job says is read into chain types first: a malformed
	// field is refused before a single RPC call is spent on it.
	o, err := s.parseJob(job)
	if err != nil {
		return nil, err
	}
	if ctx, err = s.readSales(ctx, job, o); err != nil {
		return nil, err
	}
	// A pump.fun curve's address trades as its coin's mint.
	if mint, ok := s.curveMints.Get(o.mint); ok {
		o.mint = mint
	}
	return s.signAddress(ctx, job, o)
}

// signAddress is Sign of the order o read from job, on the venue its
// address resolves to.
func (s *Signer) signAddress(ctx context.Context, job *wire.SwapJob, o *order) (*wire.TxBatch, error) {
	// A graduated coin's pool, once found, is reused for a while: reading
	// the completed curve again on every order would cost a round trip.
	if pool, ok := s.venues.get(o.mint, s.now(), s.cfg.ResolveTTL); ok {
		if pool.launchpad != padNone {
			return s.signLaunchpad(ctx, job, o, pool)
		}
		if err := s.venueOpen(venues.PumpSwap); err != nil {
			return nil, err
		}
		return s.signPool(ctx, job, o, pool.pool, pool.why)
	}
	// A mint's token program never changes and its creator rarely does:
	// once known, the wallets are read in the same call as the curve, and
	// read again only when the curve shows another creator.
	known, haveKnown := s.mints.Get(o.mint)
	var guess *mintFacts
	if haveKnown {
		guess = &known
	}
	m, walletAccounts, err := s.readMarket(ctx, o, guess)
	if err != nil {
		return nil, err
	}
	if pool, why, ok := m.graduated(); ok {
		// Not a live curve: the coin's pool, or the pool the address names.
		s.venues.put(o.mint, venue{pool: pool, why: why}, s.now())
		if err := s.venueOpen(venues.PumpSwap); err != nil {
			return nil, err
		}
		return s.signPool(ctx, job, o, pool, why)
	}
	if !m.curveFound && isBondingCurve(m.address) {
		// The address is a coin's bonding curve, which does not name its
		// mint: its token account does.
		mint, ok, err := s.curveMint(ctx, o.mint)
		if err != nil {
			return nil, err
		}
		if ok {
			s.curveMints.Put(o.mint, mint)
			o.mint = mint
			return s.signAddress(ctx, job, o)
		}
	}
	if !m.curveFound {
		// Not a pump.fun coin: a launchpad's coin or pool, or nothing here.
		v, ok, err := s.findLaunchpad(ctx, o, m)
		if err != nil {
			return nil, err
		}
		if ok {
			s.venues.put(o.mint, v, s.now())
			return s.signLaunchpad(ctx, job, o, v)
		}
	}
	// No curve, or a complete one, is TOKEN_NOT_FOUND: nothing this venue
	// could sign against. A buy spends SOL on the curve, and another quote
	// asset is refused as there; a sale receives SOL whatever quote_asset
	// says, as a sale into any pool receives the pool's quote.
	if err := m.tradable(job.Token); err != nil {
		return nil, err
	}
	if o.side == wire.Buy && o.quote != quoteSOL {
		return nil, apierr.Newf(apierr.TokenNotFound, job.Token,
			"%s trades against SOL on its pump.fun bonding curve; quote_asset %s applies to coins whose PumpSwap pool is quoted in it", job.Token, o.quote)
	}
	if err := s.venueOpen(venues.PumpFun); err != nil {
		return nil, err
	}
	if m.stateErr != nil {
		return nil, m.stateErr
	}
	// The client's market filters come before any wallet is looked at: a
	// market outside them is refused whatever the wallets hold.
	if err := s.checkCurveBounds(m, o); err != nil {
		return nil, err
	}
	facts := mintFacts{tokenProgram: m.tokenProgram, creator: m.curve.Creator}
	if guess != nil && *guess == facts {
		s.applyWallets(m, o, walletAccounts)
	} else {
		s.mints.Put(o.mint, facts)
		if err := s.readWallets(ctx, m, o); err != nil {
			return nil, err
		}
	}
	// Fees are fixed before planning: every wallet's balance check counts
	// them, and under auto_tip they are the market's, within the caps.
	if err := s.settleFees(o, m.autoPrice); err != nil {
		return nil, err
	}
	// Every leg is quoted and every wallet checked before the first
	// signature: an order is signed whole or not at all, so one wallet
	// short of funds never leaves the others' transactions in flight.
	if err := s.countSalesInFlight(ctx, o, o.mint); err != nil {
		return nil, err
	}
	if err := s.plan(m, o); err != nil {
		return nil, err
	}
	// The pool the coin graduates to is a name a later order may give it.
	where := traded{route: "pump.fun bonding curve " + m.curveAddr.String(), venue: venues.PumpFun, mint: o.mint, pool: m.graduationPool(s.pdas.canonicalPool), curve: m.curveAddr}
	return s.signBatch(ctx, job, o, where, m.blockhash, m.lastValidBlockHeight, func(l *leg, _ bool) []sol.Instruction {
		return s.instructions(m, o, l)
	})
}

// traded is where an order trades: the route the order lookup shows, and
// the token's mint and pool, which the trade history records.
type traded struct {
	route, venue string
	mint, pool   sol.PublicKey
	curve        sol.PublicKey // a pump.fun coin's bonding curve, when it has one
}

// signBatch signs every leg of o on build's instructions, on blockhash,
// into the order's batch.
func (s *Signer) signBatch(ctx context.Context, job *wire.SwapJob, o *order, where traded, blockhash sol.Hash, lastValid uint64,
	build func(l *leg, first bool) []sol.Instruction) (*wire.TxBatch, error) {
	batch := &wire.TxBatch{
		OrderID:   job.OrderID,
		AccountID: job.AccountID,
		Family:    wire.FamilySol,
		Chain:     wire.ChainSolana,
		Token:     job.Token,
		Side:      job.Side,
		Route:     where.route,
		Venue:     where.venue,
		Mint:      where.mint.String(),
		Pool:      where.pool.String(),
		Curve:     orEmpty(where.curve),
	}
	// Every venue signs here, once the mint is known and every check
	// passed: the last moment a buy of the same token by another name can
	// still make this one a no-op.
	if s.skips != nil {
		if err := s.skips.Hold(ctx, wire.FamilySol, job, wire.ChainSolana, batch.Mint); err != nil {
			return nil, err
		}
	}
	txs, err := s.signLegs(ctx, job.OrderID, o, blockhash, lastValid, build)
	if err != nil {
		return nil, err
	}
	if err := s.recordSales(ctx, job, o, where.mint, txs); err != nil {
		return nil, err
	}
	batch.Txs, batch.SignedAt = txs, s.now().UTC()
	for _, l := range o.legs {
		if l.skip != "" {
			batch.SkippedWallets = append(batch.SkippedWallets, wire.WalletSkip{Wallet: l.address, Reason: l.skip})
		}
	}
	s.log.Debug("signed order", "order_id", job.OrderID, "side", string(job.Side), "txs", len(batch.Txs), "route", batch.Route)
	return batch, nil
}

// Quote assets on Solana.
const (
	quoteSOL  = "SOL"
	quoteUSDC = "USDC"
	quoteUSD1 = "USD1"
)

// quoteDecimals are the decimals of a buy amount in each quote asset.
var quoteDecimals = map[string]int{quoteSOL: 9, quoteUSDC: 6, quoteUSD1: 6}

// order is a job read into chain types.
type order struct {
	mint        sol.PublicKey // the job's address: a mint or a pool id
	side        wire.Side
	quote       string // SOL, USDC or USD1
	sellTokens  bool   // sell mode tokens; percent otherwise
	slippageBps uint64
	priorityFee uint64 // lamports over the compute-unit limit
	cuPrice     uint64 // micro-lamports per compute unit
	tip         uint64 // lamports
	caps        feeCaps
	autoTip     bool
	private     bool // anti_mev: the transactions go through the bundle relay only
	bounds      bounds
	legs        []leg
	// sales are, for a sale, its wallets' records of sales in flight,
	// and readSlot the slot its account reads were answered at
	// (readSales).
	sales    map[sol.PublicKey]*walletSales
	readSlot *readSlot
}

// leg is one wallet's part, filled in as the job goes through Sign.
type leg struct {
	wallet  sol.PublicKey
	address string // wallet in base58, as the job names it
	amount  string // as in wire.Leg
	// field is the request field the amount came from (wire.Leg.Field),
	// which a refusal of the amount names.
	field string
	// spend is a buy's amount in base units of the quote asset (lamports
	// for SOL).
	spend uint64

	// Read from the chain.
	balance   uint64 // SOL, lamports
	ata       sol.PublicKey
	ataExists bool
	// tokens is what the wallet holds of the token, less what its other
	// sales in flight take of it (countSalesInFlight).
	tokens uint64
	// closable: the wallet may close its token account once it is empty
	// (see closableTokenAccount); closing it gives the wallet the
	// account's ataLamports.
	closable    bool
	ataLamports uint64
	uva         sol.PublicKey
	uvaExists   bool
	// quoteATA is the wallet's account of a pool's quote mint (WSOL for a
	// SOL pool, wrapped around the swap).
	quoteATA       sol.PublicKey
	quoteATAExists bool
	quoteTokens    uint64
	// quoteATALamports are the lamports of the quote account, which a
	// trade that unwraps SOL closes into the wallet.
	quoteATALamports uint64

	// Planned. skip says why the leg sends nothing; empty: it sends.
	skip string
	// refusal is, for a leg left out, the order's answer were no wallet
	// left to sell (see noSale).
	refusal *apierr.Error
	// ahead is what a sale's transaction pays, beside its fee, before the
	// sale gives anything back: the rent of the accounts made for it.
	ahead uint64
	// bump lowers the transaction's compute-unit limit a unit more (see
	// cuLimit).
	bump uint32
	// closes: the sell empties the token account and closes it.
	closes   bool
	buy      pumpfun.BuyExactSolInArgs
	sell     pumpfun.SellArgs
	poolBuy  pumpswap.BuyExactQuoteInArgs
	poolSell pumpswap.SellArgs
	pad      padTrade
}

func (s *Signer) parseJob(job *wire.SwapJob) (*order, error) {
	mint, err := sol.PublicKeyFromBase58(job.Token)
	if err != nil {
		return nil, apierr.Invalid("address", "address %q is not a Solana address", job.Token)
	}
	o := &order{mint: mint, side: job.Side, slippageBps: uint64(job.SlippageBps), autoTip: job.AutoTip, private: job.AntiMEV}
	switch job.Side {
	case wire.Buy:
	case wire.Sell:
		switch job.SellMode {
		case "", wire.SellPercent:
		case wire.SellTokens:
			o.sellTokens = true
		default:
			return nil, apierr.Invalid("sell_mode", "unknown sell_mode %q", job.SellMode)
		}
	default:
		return nil, apierr.Invalid("side", "unknown side %q", job.Side)
	}
	switch q := job.QuoteAsset; q {
	case "", quoteSOL:
		o.quote = quoteSOL
	case quoteUSDC, quoteUSD1:
		o.quote = q
	default:
		return nil, apierr.Invalid("quote_asset", "quote_asset on solana must be one of SOL, USDC, USD1")
	}
	if len(job.Legs) == 0 {
		return nil, apierr.New(apierr.NoWallets, "")
	}
	if o.caps, err = parseFeeCaps(job.FeeCaps); err != nil {
		return nil, err
	}
	// Under auto_tip the job's fee fields are ignored (settleFees chooses);
	// otherwise they are the client's, and ingress has held them to the
	// caps. They are held to the caps again here: a job is signed as it
	// arrives, and nothing above the account's caps is ever signed.
	if !job.AutoTip {
		if o.priorityFee, err = parseLamports("priority_fee", job.PriorityFee); err != nil {
			return nil, err
		}
		o.cuPrice = microLamportsPerCU(o.priorityFee, s.cfg.ComputeUnitLimit)
		if o.tip, err = parseLamports("processor_tip", job.ProcessorTip); err != nil {
			return nil, err
		}
		if err := o.caps.check(o.priorityFee, o.tip); err != nil {
			return nil, err
		}
	}
	if o.bounds, err = parseBounds(job); err != nil {
		return nil, err
	}
	o.legs = make([]leg, len(job.Legs))
	for i, jl := range job.Legs {
		w, err := sol.PublicKeyFromBase58(jl.Wallet)
		if err != nil {
			return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].address", i), "wallet %q is not a Solana address", jl.Wallet)
		}
		l := leg{wallet: w, address: jl.Wallet, amount: jl.Amount, field: jl.Field()}
		if job.Side == wire.Buy {
			if l.spend, err = parseUnits(l.field, jl.Amount, o.quote, quoteDecimals[o.quote]); err != nil {
				return nil, err
			}
			if l.spend == 0 {
				return nil, apierr.Invalid(l.field, "buy amount must be above 0")
			}
		}
		o.legs[i] = l
	}
	return o, nil
}

// settleFees fixes the compute-unit price and the tip of o: with auto_tip
// price, read from the recent prioritization fees of the account the trade
// writes, and the configured tip, each clamped to the account's caps; and
// with anti_mev a tip of at least MinBundleTip, without which a bundle relay
// refuses the transaction.
func (s *Signer) settleFees(o *order, autoPrice prefetched[uint64]) error {
	if o.autoTip {
		price, err := autoPrice.v, autoPrice.err
		if err != nil {
			return err
		}
		// The market's price may be anything in a congested slot; what the
		// account agreed to pay is the bound. The fee is spread over the
		// compute-unit limit, so the cap becomes the highest unit price
		// whose fee stays within it.
		o.cuPrice = min(price, microLamportsPerCU(o.caps.priorityFee, s.cfg.ComputeUnitLimit))
		o.priorityFee = priorityFee(o.cuPrice, s.cfg.ComputeUnitLimit)
		o.tip = min(s.cfg.AutoTip, o.caps.tip)
	}
	if o.private && o.tip < s.cfg.MinBundleTip {
		// Raising the tip to the relay's floor is the service's choice, so
		// it too stays under the cap; a cap below the floor cannot be sent
		// privately at all.
		if s.cfg.MinBundleTip > o.caps.tip {
			return apierr.Invalid("processor_tip", "anti_mev needs a processor tip of at least %d lamports, above the account's max_processor_tip cap of %d lamports",
				s.cfg.MinBundleTip, o.caps.tip)
		}
		o.tip = s.cfg.MinBundleTip
	}
	return nil
}

// plan quotes every leg and checks every wallet's balance; nothing is signed
// yet. Legs are quoted in order, each on the curve as the earlier legs of the
// order leave it (which of them the curve still takes, what each wallet
// needs); each leg's least out is then what it gets landing last of them
// (see boundAsLast), since they land in any order.
func (s *Signer) plan(m *market, o *order) error {
	curve := m.curve
	fee := lamportsPerSignature + o.priorityFee
	active := 0
	// What the order's buys take of what the curve has left, and whether
	// some order of their landing could pass its end (endFill).
	var bought uint64
	nearEnd := false
	for i := range o.legs {
		l := &o.legs[i]
		rates := pumpfun.ComputeFees(m.global, m.feeConfig, &curve, m.mintSupply)
		switch o.side {
		case wire.Buy:
			q, err := curve.QuoteBuyExactSolIn(rates, l.spend)
			switch {
			case errors.Is(err, pumpfun.ErrBondingCurveComplete) && i > 0:
				// The earlier legs of this order empty the curve.
				s.log.Info("curve filled by earlier wallets of the order", "mint", o.mint, "wallet", l.wallet)
				l.skip = "the bonding curve was complete after the order's earlier wallets bought"
				continue
			case errors.Is(err, pumpfun.ErrBuyZeroAmount), errors.Is(err, pumpfun.ErrBuyNotEnoughSolToCoverFees):
				return apierr.Invalid(l.field, "%d lamports buy no tokens after fees", l.spend)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote buy of %d lamports for %s: %w", l.spend, l.wallet, err), "internal error")
			}
			need := add(l.spend, fee, o.tip, m.creatorVaultRent)
			if !l.ataExists {
				need = add(need, rentExempt(tokenAccountSize(m.tokenProgram)))
			}
			if !l.uvaExists {
				need = add(need, rentExempt(pumpfun.UserVolumeAccumulatorSize))
			}
			if need, ok := l.pays(need, 0); !ok {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s to buy with %s (fees, tip and rent included)", l.wallet,
					solAmount(l.balance), solNeeded(need), solAmount(l.spend))
			}
			l.buy = pumpfun.BuyExactSolInArgs{
				SpendableSolIn: l.spend,
				MinTokensOut:   pumpfun.MinOut(q.TokensOut, o.slippageBps),
				TrackVolume:    true,
			}
			// A capped quote took all that is left: endFill holds.
			bought = add(bought, q.TokensOut)
			curve.ApplyBuy(q)
		case wire.Sell:
			amount, err := sellAmount(l, o.sellTokens, m.decimals)
			if err != nil {
				return err
			}
			if amount == 0 {
				l.skip = nothingToSell(l)
				continue
			}
			q, err := curve.QuoteSell(rates, amount)
			switch {
			case errors.Is(err, pumpfun.ErrNotEnoughTokensToSell):
				return apierr.Invalid(l.field, "the curve holds too little SOL to buy back %d tokens from %s", amount, l.wallet)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote sell of %d tokens for %s: %w", amount, l.wallet, err), "internal error")
			case q.Net == 0 && !l.closesOn(amount):
				l.leaveOut("nothing to sell", apierr.Invalid(l.field, "%d base units of %s sell for no SOL after fees", amount, o.mint))
				continue
			}
			// A wallet left out above pays nothing: only one that sells
			// must pay. The proceeds, and with them what pays the tip,
			// come once the sale is made, and are known at their least
			// once every leg is planned (refuseShort).
			if refusal := l.cannotPayAhead(fee, 0); refusal != nil {
				return refusal
			}
			l.sell = pumpfun.SellArgs{Amount: amount, MinSolOutput: pumpfun.MinOut(q.Net, o.slippageBps)}
			l.planClose(amount)
			curve.ApplySell(q)
		}
		active++
	}
	if active == 0 {
		if o.side == wire.Sell {
			return noSale(o, o.mint)
		}
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "the bonding curve of %s is complete", o.mint)
	}
	boundAsLast(o, func() func(uint64) (uint64, bool) {
		c := m.curve
		return func(in uint64) (uint64, bool) {
			rates := pumpfun.ComputeFees(m.global, m.feeConfig, &c, m.mintSupply)
			if o.side == wire.Sell {
				q, err := c.QuoteSell(rates, in)
				if err != nil {
					return 0, false
				}
				c.ApplySell(q)
				return q.Net, true
			}
			q, err := c.QuoteBuyExactSolIn(rates, in)
			if err != nil {
				return 0, false
			}
			nearEnd = nearEnd || q.Capped
			c.ApplyBuy(q)
			return q.TokensOut, true
		}
	}, func(l *leg, out uint64) {
		if o.side == wire.Buy {
			l.buy.MinTokensOut = min(l.buy.MinTokensOut, pumpfun.MinOut(out, o.slippageBps))
		} else {
			l.sell.MinSolOutput = min(l.sell.MinSolOutput, pumpfun.MinOut(out, o.slippageBps))
		}
	})
	if o.side == wire.Sell {
		return refuseShort(o, o.mint, fee, 0, func(l *leg) uint64 { return l.sell.MinSolOutput })
	}
	if nearEnd || endFill(m.curve.RealTokenReserves, bought, o.slippageBps) {
		// A buy past the curve's end takes what is left, paying for that
		// alone, with partial_fill; without it the program refuses it
		// whole (NotEnoughTokensToBuy), fees paid. Every leg carries it
		// when any landing of the order's legs (they land in any order,
		// each at the fee tier of the moment), or other traders' buys
		// within the slippage allowed, could pass the end: min_tokens_out
		// still bounds what each leg takes.
		for i := range o.legs {
			o.legs[i].buy.PartialFill = true
		}
	}
	return nil
}

// endFill reports whether buys of bought tokens come within slippageBps
// of the left on the curve: other traders' buys that the slippage allows
// could then leave less than the order's buys ask for.
func endFill(left, bought, slippageBps uint64) bool {
	return bought >= pumpfun.MinOut(left, slippageBps)
}

// sellAmount returns how many base units l sells: a percent of its balance,
// or a token quantity capped at the balance.
func sellAmount(l *leg, tokensMode bool, decimals uint8) (uint64, error) {
	if !tokensMode {
		v, err := percentOf(l.field, l.tokens, l.amount)
		return v, err
	}
	v, fits, err := scaleTokens(l.field, l.amount, decimals)
	if err != nil {
		return 0, err
	}
	if !fits || v > l.tokens {
		return l.tokens, nil
	}
	return v, nil
}

// nothingToSell says why a sale leg sells nothing.
func nothingToSell(l *leg) string {
	if l.tokens == 0 {
		return "nothing to sell: the wallet holds none of the token, net of its sales in flight"
	}
	return "nothing to sell: the wallet's share of its holding rounds to 0 base units"
}

// leaveOut leaves l out of its order for why, the order answering refusal
// if no wallet is left to sell: beside wallets with something to sell, a
// wallet whose share sells for nothing sends nothing, as one holding none
// does.
func (l *leg) leaveOut(why string, refusal *apierr.Error) {
	l.skip, l.refusal = why+": "+refusal.Message, refusal
}

// A wallet pays for its transaction in SOL: the fee, taken before any
// instruction runs, then what its instructions send, each from what it
// holds at that instruction (a buy's amount, the rent of the accounts it
// makes, the tip). The runtime lets a system account be left by the fee,
// and end the transaction, with no lamports or with at least its
// rent-exempt minimum, nothing between: else the transaction is refused,
// "insufficient funds for rent". A trade's end balance is known only as a
// bound (a sale's proceeds are at least its minimum out, a buy spends what
// the curve's price takes), so it cannot be aimed at no lamports: a wallet
// ends holding its minimum at least. The fee alone is known to the lamport,
// and may leave a seller with none until its proceeds come.

// pays reports whether l's wallet, at least in lamports coming to it in
// its transaction, can pay out lamports in it and end holding its
// rent-exempt minimum; need is what it must hold for that.
func (l *leg) pays(out, in uint64) (need uint64, ok bool) {
	need = add(out, rentExempt(0))
	need -= min(need, in)
	return need, l.balance >= need
}

// cannotPayAhead is the refusal of sale leg l whose wallet cannot pay fee,
// which must leave it no lamports or its rent-exempt minimum, and then
// ahead, what its transaction pays before the sale gives any SOL back; nil
// when it can.
func (l *leg) cannotPayAhead(fee, ahead uint64) *apierr.Error {
	left := l.balance - min(l.balance, fee)
	if l.balance >= fee && (left == 0 || left >= rentExempt(0)) && left >= ahead {
		return nil
	}
	return insufficient(l.wallet, "wallet %s holds %s and needs %s for fees", l.wallet, solAmount(l.balance),
		solNeeded(add(fee, max(ahead, rentExempt(0)))))
}

// refuseShort refuses sale o, once every leg's least out is fixed, when
// a wallet cannot pay its transaction: 422 naming the first that cannot
// (a buy's wallet refuses its order so too), the fee and what it pays
// ahead of the sale from what it holds (cannotPayAhead), then the tip too
// and end holding its rent-exempt minimum, with what the transaction gives
// back at the least (returned: the proceeds when they are SOL, at the
// leg's least out, and the lamports of a wrapped-SOL account it closes;
// and the lamports of the token account a sale of everything closes). The
// first leg still sending also pays first (a pool's growth), which its
// transaction makes. When no wallet is left to sell, the sale is refused
// (noSale).
func refuseShort(o *order, mint sol.PublicKey, fee, first uint64, returned func(l *leg) uint64) error {
	left := 0
	for i := range o.legs {
		l := &o.legs[i]
		if l.skip != "" {
			continue
		}
		ahead := l.ahead
		if left == 0 {
			ahead = add(ahead, first)
		}
		if refusal := l.cannotPayAhead(fee, ahead); refusal != nil {
			return refusal
		}
		back := returned(l)
		if l.closes {
			back = add(back, l.ataLamports)
		}
		if need, ok := l.pays(add(fee, ahead, o.tip), back); !ok {
			return insufficient(l.wallet, "wallet %s holds %s and needs %s for fees, the tip of %s and its rent-exempt minimum beyond the %s its sale gives back at the least",
				l.wallet, solAmount(l.balance), solNeeded(need), solAmount(o.tip), solAmount(back))
		}
		left++
	}
	if left == 0 {
		return noSale(o, mint)
	}
	return nil
}

// wsolBack is what a sale quoted in SOL (wsol) gives its wallet back at the
// least, minOut its proceeds: its wrapped-SOL account, closed, returns them
// with its lamports, the rent it is made with or what it already held. A
// sale quoted in a stable gives back nothing in SOL.
func (l *leg) wsolBack(wsol bool, minOut, rent uint64) uint64 {
	if !wsol {
		return 0
	}
	if l.quoteATAExists {
		rent = l.quoteATALamports
	}
	return add(minOut, rent)
}

// solAmount formats lamports as SOL, "0.0145986 SOL": every balance
// refusal speaks the unit the request's amounts are in.
func solAmount(lamports uint64) string {
	return money.Format(new(big.Int).SetUint64(lamports), 9) + " SOL"
}

// solNeeded is solAmount of a need summed with add, which stops at the
// largest amount a lamport count holds: a need that reached it is more.
func solNeeded(lamports uint64) string {
	if lamports == math.MaxUint64 {
		return "more than " + solAmount(lamports)
	}
	return solAmount(lamports)
}

func insufficient(wallet sol.PublicKey, format string, args ...any) *apierr.Error {
	return apierr.Newf(apierr.InsufficientBalance, wallet.String(), format, args...)
}

// noSale is the refusal of a sale whose every wallet sells nothing: the
// refusal of the first left out for what its share would sell (400 naming the
// amount: it sells for nothing after fees), else 400 naming the amount
// when a wallet holds the token but its share of the holding rounds to 0
// base units (not charged, as a sale for nothing after fees is not), else
// INSUFFICIENT_BALANCE: no wallet holds the token.
func noSale(o *order, mint sol.PublicKey) error {
	for _, l := range o.legs {
		if l.refusal != nil {
			return l.refusal
		}
	}
	for _, l := range o.legs {
		if l.tokens > 0 {
			return apierr.Invalid(l.field, "%s of %s's holding of %d base units of %s rounds to 0 base units: nothing to sell",
				l.field, l.wallet, l.tokens, mint)
		}
	}
	return insufficient(o.legs[0].wallet, "no wallet holds %s in its associated token account, net of its sales in flight", mint)
}

// pickKey returns a random element of keys; the choice spreads load and
// needs no secrecy.
func pickKey(keys []sol.PublicKey) sol.PublicKey {
	return keys[rand.IntN(len(keys))]
}

// orEmpty is k in base58, or "" for the zero key.
func orEmpty(k sol.PublicKey) string {
	if k.IsZero() {
		return ""
	}
	return k.String()
}
