// Package solana is the Solana signer of the worker. For a swap job it
// resolves the job's address to a venue (a pump.fun coin on its bonding
// curve, a graduated coin on its canonical PumpSwap pool, or a PumpSwap pool
// named by its id), reads that venue and the wallets, checks the market
// bounds, quotes every leg with the program's own integer math, checks that
// every wallet can pay before anything is signed, and signs one transaction
// per wallet.
package solana

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// RPC is the part of a Solana JSON-RPC client the signer reads with;
// *rpc.Client implements it.
type RPC interface {
	GetMultipleAccountsWithOpts(ctx context.Context, accounts []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error)
	GetLatestBlockhash(ctx context.Context, commitment rpc.CommitmentType) (*rpc.GetLatestBlockhashResult, error)
	GetRecentPrioritizationFees(ctx context.Context, accounts sol.PublicKeySlice) ([]rpc.PriorizationFeeResult, error)
}

// KeySource hands out wallet keys. For Solana the key is the 64-byte
// ed25519 keypair (seed then public key). The signer keeps no key beyond
// one Sign call.
type KeySource interface {
	PrivateKey(ctx context.Context, family wire.Family, address string) ([]byte, error)
}

// JitoTipAccounts are Jito's published tip accounts, the default
// Config.TipAccounts.
var JitoTipAccounts = chains.JitoTipAccounts

// Config tunes the signer. Zero fields take the values of DefaultConfig.
type Config struct {
	// ComputeUnitLimit is every transaction's compute-unit limit; the
	// priority fee is spread over it.
	ComputeUnitLimit uint32 `yaml:"compute_unit_limit"`
	// TipAccounts receive the processor tip, one picked at random per
	// transaction: the tip accounts of the sender the transactions go
	// through (Jito's by default).
	TipAccounts []sol.PublicKey `yaml:"tip_accounts"`
	// StateTTL bounds how long Global, FeeConfig, the AMM's GlobalConfig
	// and its FeeConfig are reused between jobs; they change only by an
	// admin instruction.
	StateTTL time.Duration `yaml:"state_ttl"`
	// ResolveTTL bounds how long the venue an address resolved to (the
	// PumpSwap pool of a graduated coin) is reused without reading the
	// curve again. The venue's own state is read for every job.
	ResolveTTL time.Duration `yaml:"resolve_ttl"`
	// Commitment of every read.
	Commitment rpc.CommitmentType `yaml:"commitment"`
	// RPCTimeout bounds each RPC call.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
	// BlockhashRefresh is how often Run reads the latest blockhash (a
	// slot's length: the chain makes a new one per slot).
	BlockhashRefresh time.Duration `yaml:"blockhash_refresh"`
	// BlockhashMaxAge bounds the age of the blockhash an order is signed
	// on, counted from when it was asked for: an older cached one is read
	// again during the order. It should be a few BlockhashRefresh, so that
	// a late or failed refresh does not cost an order the round trip.
	BlockhashMaxAge time.Duration `yaml:"blockhash_max_age"`

	// AutoFeePercentile is the percentile of getRecentPrioritizationFees
	// a job with auto_tip pays as its compute-unit price, clamped to
	// [AutoFeeMinMicroLamports, AutoFeeMaxMicroLamports] micro-lamports
	// per compute unit.
	AutoFeePercentile       float64 `yaml:"auto_fee_percentile"`
	AutoFeeMinMicroLamports uint64  `yaml:"auto_fee_min_micro_lamports"`
	AutoFeeMaxMicroLamports uint64  `yaml:"auto_fee_max_micro_lamports"`
	// AutoTip is the processor tip, in lamports, of a job with auto_tip:
	// the tip floor.
	AutoTip uint64 `yaml:"auto_tip"`
	// MinBundleTip is the least tip, in lamports, an anti_mev transaction
	// carries: a bundle relay takes only bundles that tip (Jito: 1000).
	MinBundleTip uint64 `yaml:"min_bundle_tip"`

	// SOLUSDPool is the PumpSwap pool of SOL against a USD stable (USDC or
	// USD1, either side) whose price converts SOL into USD for the market
	// bounds. Zero: bounds on a SOL market are refused as INTERNAL.
	SOLUSDPool sol.PublicKey `yaml:"sol_usd_pool"`
	// BagsPoolConfig is the Meteora DBC pool config a bags launch uses
	// when the request names none. Zero: such a launch is refused.
	BagsPoolConfig sol.PublicKey `yaml:"bags_pool_config"`
	// QuoteMints are the mints of the quote assets besides SOL.
	QuoteMints map[string]sol.PublicKey `yaml:"quote_mints"`
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{
		ComputeUnitLimit:        200_000,
		TipAccounts:             JitoTipAccounts,
		StateTTL:                10 * time.Second,
		ResolveTTL:              10 * time.Second,
		Commitment:              rpc.CommitmentConfirmed,
		RPCTimeout:              5 * time.Second,
		BlockhashRefresh:        400 * time.Millisecond,
		BlockhashMaxAge:         2 * time.Second,
		AutoFeePercentile:       75,
		AutoFeeMinMicroLamports: 500_000,
		AutoFeeMaxMicroLamports: 50_000_000,
		AutoTip:                 100_000,
		MinBundleTip:            1_000,
		QuoteMints:              map[string]sol.PublicKey{"USDC": pumpswap.USDCMint, "USD1": pumpswap.USD1Mint},
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.ComputeUnitLimit == 0 {
		c.ComputeUnitLimit = d.ComputeUnitLimit
	}
	if len(c.TipAccounts) == 0 {
		c.TipAccounts = d.TipAccounts
	}
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
	mints    mintCache
	venues   venueCache
	pools    poolFactsCache
	hashes   *blockhashCache
	now      func() time.Time
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
		cfg:  cfg.withDefaults(),
		log:  log.With("component", "signer", "chain", wire.ChainSolana),
		pdas: newPDACache(pdaCacheSize),
		now:  time.Now,
	}
	s.hashes = newBlockhashCache(s.latestBlockhash, s.cfg.BlockhashRefresh, s.cfg.BlockhashMaxAge,
		metrics.BlockhashRefreshFailures.WithLabelValues(wire.ChainSolana), s.log)
	return s
}

// Sign builds and signs one transaction per wallet of job, for job.Token on
// the venue it resolves to: a pump.fun coin whose curve is live trades on
// the curve, a coin whose curve completed trades on its canonical PumpSwap
// pool, and a pool id trades on that pool.
//
// Business errors are *apierr.Error: INVALID_REQUEST for a malformed
// address, amount or quote asset, TOKEN_NOT_FOUND when the address names no
// live curve or pool (or none in the job's quote asset),
// LIQUIDITY_OUT_OF_RANGE and MARKET_CAP_OUT_OF_RANGE with the measured USD
// figure, INSUFFICIENT_BALANCE naming the first wallet that cannot pay
// (checked for every wallet before any signature). Any other error (RPC
// failures, timeouts, the key source) is a plain error worth retrying.
func (s *Signer) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	o, err := s.parseJob(job)
	if err != nil {
		return nil, err
	}
	if pool, ok := s.venues.get(o.mint, s.now(), s.cfg.ResolveTTL); ok {
		return s.signPool(ctx, job, o, pool.pool, pool.why)
	}
	// A mint's token program never changes and its creator rarely does:
	// once known, the wallets are read in the same call as the curve, and
	// read again only when the curve shows another creator.
	known, haveKnown := s.mints.get(o.mint)
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
		return s.signPool(ctx, job, o, pool, why)
	}
	if err := m.tradable(job.Token); err != nil {
		return nil, err
	}
	if o.quote != quoteSOL {
		return nil, apierr.Newf(apierr.TokenNotFound, job.Token,
			"%s trades against SOL on its pump.fun bonding curve; quote_asset %s applies to coins whose PumpSwap pool is quoted in it", job.Token, o.quote)
	}
	if err := s.checkCurveBounds(m, o); err != nil {
		return nil, err
	}
	facts := mintFacts{tokenProgram: m.tokenProgram, creator: m.curve.Creator}
	if guess != nil && *guess == facts {
		s.applyWallets(m, o, walletAccounts)
	} else {
		s.mints.put(o.mint, facts)
		if err := s.readWallets(ctx, m, o); err != nil {
			return nil, err
		}
	}
	if err := s.settleFees(o, m.autoPrice); err != nil {
		return nil, err
	}
	if err := s.plan(m, o); err != nil {
		return nil, err
	}
	batch := s.newBatch(job, "pump.fun bonding curve "+m.curveAddr.String())
	for i := range o.legs {
		l := &o.legs[i]
		if l.skip {
			continue
		}
		tx, err := s.signLeg(ctx, s.instructions(m, o, l), o, l, m.blockhash, m.lastValidBlockHeight)
		if err != nil {
			return nil, fmt.Errorf("sign order %s for wallet %s: %w", job.OrderID, l.wallet, err)
		}
		batch.Txs = append(batch.Txs, tx)
	}
	batch.SignedAt = s.now().UTC()
	s.log.Debug("signed order", "order_id", job.OrderID, "side", string(job.Side), "txs", len(batch.Txs), "route", batch.Route)
	return batch, nil
}

func (s *Signer) newBatch(job *wire.SwapJob, route string) *wire.TxBatch {
	return &wire.TxBatch{
		OrderID:   job.OrderID,
		AccountID: job.AccountID,
		Family:    wire.FamilySol,
		Chain:     wire.ChainSolana,
		Token:     job.Token,
		Side:      job.Side,
		Txs:       make([]wire.SignedTx, 0, len(job.Legs)),
		Route:     route,
	}
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
	autoTip     bool
	private     bool // anti_mev: the transactions go through the bundle relay only
	bounds      bounds
	legs        []leg
}

// leg is one wallet's part, filled in as the job goes through Sign.
type leg struct {
	wallet  sol.PublicKey
	address string // wallet in base58, as the job names it
	amount  string // as in wire.Leg
	// spend is a buy's amount in base units of the quote asset (lamports
	// for SOL).
	spend uint64

	// Read from the chain.
	balance   uint64 // SOL, lamports
	ata       sol.PublicKey
	ataExists bool
	tokens    uint64
	uva       sol.PublicKey
	uvaExists bool
	// quoteATA is the wallet's account of a pool's quote mint (WSOL for a
	// SOL pool, wrapped around the swap).
	quoteATA       sol.PublicKey
	quoteATAExists bool
	quoteTokens    uint64

	// Planned.
	skip     bool
	buy      pumpfun.BuyExactSolInArgs
	sell     pumpfun.SellArgs
	poolBuy  pumpswap.BuyExactQuoteInArgs
	poolSell pumpswap.SellArgs
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
	if !job.AutoTip {
		if o.priorityFee, err = parseLamports("priority_fee", job.PriorityFee); err != nil {
			return nil, err
		}
		o.cuPrice = microLamportsPerCU(o.priorityFee, s.cfg.ComputeUnitLimit)
		if o.tip, err = parseLamports("processor_tip", job.ProcessorTip); err != nil {
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
		l := leg{wallet: w, address: jl.Wallet, amount: jl.Amount}
		if job.Side == wire.Buy {
			if l.spend, err = parseUnits("amount", jl.Amount, o.quote, quoteDecimals[o.quote]); err != nil {
				return nil, err
			}
			if l.spend == 0 {
				return nil, apierr.Invalid("amount", "buy amount must be above 0")
			}
		}
		o.legs[i] = l
	}
	return o, nil
}

// settleFees fixes the compute-unit price and the tip of o: with auto_tip
// price, read from the recent prioritization fees of the account the trade
// writes, and with anti_mev a tip of at least MinBundleTip, without which a
// bundle relay refuses the transaction.
func (s *Signer) settleFees(o *order, autoPrice prefetched[uint64]) error {
	if o.autoTip {
		price, err := autoPrice.v, autoPrice.err
		if err != nil {
			return err
		}
		o.cuPrice = price
		o.priorityFee = priorityFee(price, s.cfg.ComputeUnitLimit)
		o.tip = s.cfg.AutoTip
	}
	if o.private {
		o.tip = max(o.tip, s.cfg.MinBundleTip)
	}
	return nil
}

// plan quotes every leg and checks every wallet's balance; nothing is signed
// yet. Legs are quoted in order, each on the curve as the earlier legs of the
// order leave it, so an order's own price impact does not trip its later
// legs' slippage bounds when the transactions land in order.
func (s *Signer) plan(m *market, o *order) error {
	curve := m.curve
	fee := lamportsPerSignature + o.priorityFee
	active := 0
	for i := range o.legs {
		l := &o.legs[i]
		rates := pumpfun.ComputeFees(m.global, m.feeConfig, &curve, m.mintSupply)
		switch o.side {
		case wire.Buy:
			q, err := curve.QuoteBuyExactSolIn(rates, l.spend)
			switch {
			case errors.Is(err, pumpfun.ErrBondingCurveComplete) && i > 0:
				// The earlier legs of this order empty the curve.
				s.log.Warn("curve filled by earlier wallets of the order", "mint", o.mint, "wallet", l.wallet)
				l.skip = true
				continue
			case errors.Is(err, pumpfun.ErrBuyZeroAmount), errors.Is(err, pumpfun.ErrBuyNotEnoughSolToCoverFees):
				return apierr.Invalid("amount", "%d lamports buy no tokens after fees", l.spend)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote buy of %d lamports for %s: %w", l.spend, l.wallet, err), "internal error")
			}
			need := add(l.spend, fee, o.tip, rentExempt(0), m.creatorVaultRent)
			if !l.ataExists {
				need = add(need, rentExempt(tokenAccountSize(m.tokenProgram)))
			}
			if !l.uvaExists {
				need = add(need, rentExempt(pumpfun.UserVolumeAccumulatorSize))
			}
			if l.balance < need {
				return insufficient(l.wallet, "wallet %s holds %d lamports and needs %d to buy with %d", l.wallet, l.balance, need, l.spend)
			}
			l.buy = pumpfun.BuyExactSolInArgs{
				SpendableSolIn: l.spend,
				MinTokensOut:   pumpfun.MinOut(q.TokensOut, o.slippageBps),
				TrackVolume:    true,
			}
			curve.ApplyBuy(q)
		case wire.Sell:
			amount, err := sellAmount(l, o.sellTokens, m.decimals)
			if err != nil {
				return err
			}
			if amount == 0 {
				l.skip = true
				continue
			}
			// The fee payer must stay rent-exempt after the fee; the sale
			// itself pays the tip.
			if need := add(fee, rentExempt(0)); l.balance < need {
				return insufficient(l.wallet, "wallet %s holds %d lamports and needs %d for fees", l.wallet, l.balance, need)
			}
			q, err := curve.QuoteSell(rates, amount)
			switch {
			case errors.Is(err, pumpfun.ErrNotEnoughTokensToSell):
				return apierr.Invalid("amount", "the curve holds too little SOL to buy back %d tokens from %s", amount, l.wallet)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote sell of %d tokens for %s: %w", amount, l.wallet, err), "internal error")
			}
			l.sell = pumpfun.SellArgs{Amount: amount, MinSolOutput: pumpfun.MinOut(q.Net, o.slippageBps)}
			curve.ApplySell(q)
		}
		active++
	}
	if active == 0 {
		if o.side == wire.Sell {
			return insufficient(o.legs[0].wallet, "no wallet holds %s", o.mint)
		}
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "the bonding curve of %s is complete", o.mint)
	}
	return nil
}

// sellAmount returns how many base units l sells: a percent of its balance,
// or a token quantity capped at the balance.
func sellAmount(l *leg, tokensMode bool, decimals uint8) (uint64, error) {
	if !tokensMode {
		v, err := percentOf(l.tokens, l.amount)
		return v, err
	}
	v, fits, err := scaleTokens(l.amount, decimals)
	if err != nil {
		return 0, err
	}
	if !fits || v > l.tokens {
		return l.tokens, nil
	}
	return v, nil
}

func insufficient(wallet sol.PublicKey, format string, args ...any) error {
	return apierr.Newf(apierr.InsufficientBalance, wallet.String(), format, args...)
}

// pickKey returns a random element of keys; the choice spreads load and
// needs no secrecy.
func pickKey(keys []sol.PublicKey) sol.PublicKey {
	return keys[rand.IntN(len(keys))]
}
