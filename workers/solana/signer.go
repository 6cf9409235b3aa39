// Package solana is the Solana signer of the worker: for a swap job on a
// pump.fun coin still on its bonding curve it reads the curve and the
// wallets, quotes every leg with the program's own integer math, checks that
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
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// RPC is the part of a Solana JSON-RPC client the signer reads with;
// *rpc.Client implements it.
type RPC interface {
	GetMultipleAccountsWithOpts(ctx context.Context, accounts []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error)
	GetLatestBlockhash(ctx context.Context, commitment rpc.CommitmentType) (*rpc.GetLatestBlockhashResult, error)
}

// KeySource hands out wallet keys. For Solana the key is the 64-byte
// ed25519 keypair (seed then public key). The signer keeps no key beyond
// one Sign call.
type KeySource interface {
	PrivateKey(ctx context.Context, family wire.Family, address string) ([]byte, error)
}

// JitoTipAccounts are Jito's published tip accounts, the default
// Config.TipAccounts.
var JitoTipAccounts = []sol.PublicKey{
	sol.MustPublicKeyFromBase58("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5"),
	sol.MustPublicKeyFromBase58("HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe"),
	sol.MustPublicKeyFromBase58("Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY"),
	sol.MustPublicKeyFromBase58("ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49"),
	sol.MustPublicKeyFromBase58("DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh"),
	sol.MustPublicKeyFromBase58("ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt"),
	sol.MustPublicKeyFromBase58("DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL"),
	sol.MustPublicKeyFromBase58("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"),
}

// Config tunes the signer. Zero fields take the values of DefaultConfig.
type Config struct {
	// ComputeUnitLimit is every transaction's compute-unit limit; the
	// priority fee is spread over it.
	ComputeUnitLimit uint32 `yaml:"compute_unit_limit"`
	// TipAccounts receive the processor tip, one picked at random per
	// transaction.
	TipAccounts []sol.PublicKey `yaml:"tip_accounts"`
	// StateTTL bounds how long Global and FeeConfig are reused between
	// jobs; they change only by an admin instruction.
	StateTTL time.Duration `yaml:"state_ttl"`
	// Commitment of every read.
	Commitment rpc.CommitmentType `yaml:"commitment"`
	// RPCTimeout bounds each RPC call.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
	// AutoPriorityFee and AutoTip are the priority fee and the tip, in
	// lamports, of a job with auto_tip.
	AutoPriorityFee uint64 `yaml:"auto_priority_fee"`
	AutoTip         uint64 `yaml:"auto_tip"`
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{
		ComputeUnitLimit: 200_000,
		TipAccounts:      JitoTipAccounts,
		StateTTL:         10 * time.Second,
		Commitment:       rpc.CommitmentConfirmed,
		RPCTimeout:       5 * time.Second,
		AutoPriorityFee:  100_000,
		AutoTip:          100_000,
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
	if c.Commitment == "" {
		c.Commitment = d.Commitment
	}
	if c.RPCTimeout <= 0 {
		c.RPCTimeout = d.RPCTimeout
	}
	if c.AutoPriorityFee == 0 {
		c.AutoPriorityFee = d.AutoPriorityFee
	}
	if c.AutoTip == 0 {
		c.AutoTip = d.AutoTip
	}
	return c
}

// Signer builds and signs the transactions of swap jobs on pump.fun curves.
// It is safe for concurrent use.
type Signer struct {
	rpc   RPC
	keys  KeySource
	cfg   Config
	log   *slog.Logger
	state stateCache
	pdas  *pdaCache
	mints mintCache
	now   func() time.Time
}

// NewSigner returns a signer reading through rpc and signing with keys.
func NewSigner(rpc RPC, keys KeySource, cfg Config, log *slog.Logger) *Signer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Signer{
		rpc:  rpc,
		keys: keys,
		cfg:  cfg.withDefaults(),
		log:  log.With("component", "signer", "chain", wire.ChainSolana),
		pdas: newPDACache(pdaCacheSize),
		now:  time.Now,
	}
}

// Sign builds and signs one transaction per wallet of job, for job.Token on
// its pump.fun bonding curve.
//
// Business errors are *apierr.Error: INVALID_REQUEST for a malformed
// address or amount, TOKEN_NOT_FOUND when the token has no live curve,
// INSUFFICIENT_BALANCE naming the first wallet that cannot pay (checked for
// every wallet before any signature). Any other error (RPC failures,
// timeouts, the key source) is a plain error worth retrying.
func (s *Signer) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	o, err := s.parseJob(job)
	if err != nil {
		return nil, err
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
	if err := m.tradable(job.Token); err != nil {
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
	if err := s.plan(m, o); err != nil {
		return nil, err
	}
	batch := &wire.TxBatch{
		OrderID:   job.OrderID,
		AccountID: job.AccountID,
		Family:    wire.FamilySol,
		Chain:     wire.ChainSolana,
		Token:     job.Token,
		Side:      job.Side,
		Txs:       make([]wire.SignedTx, 0, len(o.legs)),
	}
	for i := range o.legs {
		l := &o.legs[i]
		if l.skip {
			continue
		}
		tx, err := s.signLeg(ctx, m, o, l)
		if err != nil {
			return nil, fmt.Errorf("sign order %s for wallet %s: %w", job.OrderID, l.wallet, err)
		}
		batch.Txs = append(batch.Txs, tx)
	}
	batch.SignedAt = s.now().UTC()
	s.log.Debug("signed order", "order_id", job.OrderID, "side", string(job.Side), "txs", len(batch.Txs))
	return batch, nil
}

// order is a job read into chain types.
type order struct {
	mint        sol.PublicKey
	side        wire.Side
	sellTokens  bool // sell mode tokens; percent otherwise
	slippageBps uint64
	priorityFee uint64 // lamports
	tip         uint64 // lamports
	legs        []leg
}

// leg is one wallet's part, filled in as the job goes through Sign.
type leg struct {
	wallet   sol.PublicKey
	address  string // wallet in base58, as the job names it
	amount   string // as in wire.Leg
	lamports uint64 // a buy's spend

	// Read from the chain.
	balance   uint64 // SOL, lamports
	ata       sol.PublicKey
	ataExists bool
	tokens    uint64
	uva       sol.PublicKey
	uvaExists bool

	// Planned.
	skip bool
	buy  pumpfun.BuyExactSolInArgs
	sell pumpfun.SellArgs
}

func (s *Signer) parseJob(job *wire.SwapJob) (*order, error) {
	mint, err := sol.PublicKeyFromBase58(job.Token)
	if err != nil {
		return nil, apierr.Invalid("address", "address %q is not a Solana address", job.Token)
	}
	o := &order{mint: mint, side: job.Side, slippageBps: uint64(job.SlippageBps)}
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
	if q := job.QuoteAsset; q != "" && q != "SOL" {
		return nil, apierr.Newf(apierr.TokenNotFound, job.Token, "no pump.fun curve of %s quoted in %s", job.Token, q)
	}
	if len(job.Legs) == 0 {
		return nil, apierr.New(apierr.NoWallets, "")
	}
	if job.AutoTip {
		o.priorityFee, o.tip = s.cfg.AutoPriorityFee, s.cfg.AutoTip
	} else {
		if o.priorityFee, err = parseLamports("priority_fee", job.PriorityFee); err != nil {
			return nil, err
		}
		if o.tip, err = parseLamports("processor_tip", job.ProcessorTip); err != nil {
			return nil, err
		}
	}
	o.legs = make([]leg, len(job.Legs))
	for i, jl := range job.Legs {
		w, err := sol.PublicKeyFromBase58(jl.Wallet)
		if err != nil {
			return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].address", i), "wallet %q is not a Solana address", jl.Wallet)
		}
		l := leg{wallet: w, address: jl.Wallet, amount: jl.Amount}
		if job.Side == wire.Buy {
			if l.lamports, err = parseSOL("amount", jl.Amount); err != nil {
				return nil, err
			}
			if l.lamports == 0 {
				return nil, apierr.Invalid("amount", "buy amount must be above 0")
			}
		}
		o.legs[i] = l
	}
	return o, nil
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
			q, err := curve.QuoteBuyExactSolIn(rates, l.lamports)
			switch {
			case errors.Is(err, pumpfun.ErrBondingCurveComplete) && i > 0:
				// The earlier legs of this order empty the curve.
				s.log.Warn("curve filled by earlier wallets of the order", "mint", o.mint, "wallet", l.wallet)
				l.skip = true
				continue
			case errors.Is(err, pumpfun.ErrBuyZeroAmount), errors.Is(err, pumpfun.ErrBuyNotEnoughSolToCoverFees):
				return apierr.Invalid("amount", "%d lamports buy no tokens after fees", l.lamports)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote buy of %d lamports for %s: %w", l.lamports, l.wallet, err), "internal error")
			}
			need := add(l.lamports, fee, o.tip, rentExempt(0), m.creatorVaultRent)
			if !l.ataExists {
				need = add(need, rentExempt(tokenAccountSize(m.tokenProgram)))
			}
			if !l.uvaExists {
				need = add(need, rentExempt(pumpfun.UserVolumeAccumulatorSize))
			}
			if l.balance < need {
				return insufficient(l.wallet, "wallet %s holds %d lamports and needs %d to buy with %d", l.wallet, l.balance, need, l.lamports)
			}
			l.buy = pumpfun.BuyExactSolInArgs{
				SpendableSolIn: l.lamports,
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
