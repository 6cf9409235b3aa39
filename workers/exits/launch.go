package exits

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Coins on their launch curves: Raydium LaunchLab (letsbonk) and Meteora's
// Dynamic Bonding Curve (bags). A buy is read from the event the program
// emits through Anchor's event self-invocation, the price from the pool.

// errMigrated is wrapped by Observe once a coin has left its LaunchLab or
// DBC curve: it then trades on the AMM it migrated to, which the service
// neither prices nor trades, so its positions can never be sold here; the
// engine closes them (abandon) rather than read them for ever.
var errMigrated = errors.New("not priced here")

// The trade directions of the events: LaunchLab's TradeDirection enum is
// Buy, Sell; DBC's is BaseToQuote, QuoteToBase.
const (
	launchLabBuy   uint8 = 0
	dbcQuoteToBase uint8 = 1
)

// launchLabTrade is LaunchLab's TradeEvent. It names no user: the
// transaction it is read from is the wallet's own.
type launchLabTrade struct {
	Pool                                                           sol.PublicKey
	TotalBaseSell, VirtualBase, VirtualQuote                       uint64
	RealBaseBefore, RealQuoteBefore, RealBaseAfter, RealQuoteAfter uint64
	// AmountIn is what the trader paid, fees included (quote on a buy).
	AmountIn, AmountOut                            uint64
	ProtocolFee, PlatformFee, CreatorFee, ShareFee uint64
	Direction, PoolStatus                          uint8
	ExactIn                                        bool
}

func (t *launchLabTrade) decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(launchlab.TradeEventDiscriminator, "TradeEvent")
	t.Pool = d.Key()
	for _, f := range []*uint64{&t.TotalBaseSell, &t.VirtualBase, &t.VirtualQuote, &t.RealBaseBefore, &t.RealQuoteBefore,
		&t.RealBaseAfter, &t.RealQuoteAfter, &t.AmountIn, &t.AmountOut, &t.ProtocolFee, &t.PlatformFee, &t.CreatorFee, &t.ShareFee} {
		*f = d.U64()
	}
	t.Direction = d.U8()
	t.PoolStatus = d.U8()
	t.ExactIn = d.Bool()
	if d.Err != nil {
		return fmt.Errorf("decode LaunchLab TradeEvent: %w", d.Err)
	}
	return nil
}

// dbcSwap is DBC's EvtSwap: pool, config, direction, the instruction's
// parameters, the swap result and what the trader paid.
type dbcSwap struct {
	Pool, Config                         sol.PublicKey
	Direction                            uint8
	HasReferral                          bool
	ParamAmountIn, MinimumAmountOut      uint64
	ActualInputAmount, OutputAmount      uint64
	NextSqrtPrice                        dbc.Uint128
	TradingFee, ProtocolFee, ReferralFee uint64
	// AmountIn is the input paid, fees included.
	AmountIn, Timestamp uint64
}

func (s *dbcSwap) decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(dbc.EvtSwapDiscriminator, "EvtSwap")
	s.Pool, s.Config = d.Key(), d.Key()
	s.Direction = d.U8()
	s.HasReferral = d.Bool()
	s.ParamAmountIn, s.MinimumAmountOut = d.U64(), d.U64()
	s.ActualInputAmount, s.OutputAmount = d.U64(), d.U64()
	s.NextSqrtPrice = dbc.Uint128{Lo: d.U64(), Hi: d.U64()}
	s.TradingFee, s.ProtocolFee, s.ReferralFee = d.U64(), d.U64(), d.U64()
	s.AmountIn, s.Timestamp = d.U64(), d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode DBC EvtSwap: %w", d.Err)
	}
	return nil
}

// cpiEvent is one inner instruction that may be an Anchor event: the
// program it invokes, the first 8 bytes of its data and the rest (the
// event's discriminator and fields).
type cpiEvent struct {
	program sol.PublicKey
	tag     anchor.Discriminator
	event   []byte
}

// cpiEvents returns a transaction's inner instructions as possible events,
// in order. On mainnet LaunchLab and DBC emit their events only as such
// self-invocations: a "Program data" log line may be missing, and logs are
// truncated on long transactions.
func cpiEvents(tx *rpc.GetTransactionResult) ([]cpiEvent, *sol.Transaction, error) {
	if tx.Transaction == nil {
		return nil, nil, errors.New("transaction body missing")
	}
	t, err := tx.Transaction.GetTransaction()
	if err != nil {
		return nil, nil, fmt.Errorf("decode transaction: %w", err)
	}
	// programIdIndex counts the message's own keys, then those its
	// address lookup tables loaded, writable first.
	keys := append(append(append([]sol.PublicKey(nil), t.Message.AccountKeys...),
		tx.Meta.LoadedAddresses.Writable...), tx.Meta.LoadedAddresses.ReadOnly...)
	var out []cpiEvent
	for _, group := range tx.Meta.InnerInstructions {
		for _, ix := range group.Instructions {
			if int(ix.ProgramIDIndex) >= len(keys) || len(ix.Data) < 16 {
				continue
			}
			out = append(out, cpiEvent{program: keys[ix.ProgramIDIndex], tag: anchor.Discriminator(ix.Data[:8]), event: ix.Data[8:]})
		}
	}
	return out, t, nil
}

// fillFromEvents finds the wallet's buy among the LaunchLab and DBC events
// of its transaction. The events name no buyer, so the wallet must have
// signed the transaction; the first buy in it is the wallet's.
func (s *Solana) fillFromEvents(ctx context.Context, tx *rpc.GetTransactionResult, user sol.PublicKey) (*Fill, error) {
	events, t, err := cpiEvents(tx)
	if err != nil {
		return nil, err
	}
	if !t.IsSigner(user) {
		return nil, fmt.Errorf("%w: the wallet did not sign it", ErrNoTrade)
	}
	for _, ev := range events {
		disc := anchor.Discriminator(ev.event[:8])
		switch {
		case ev.program == launchlab.ProgramID && ev.tag == launchlab.EventCPITag && disc == launchlab.TradeEventDiscriminator:
			var trade launchLabTrade
			if trade.decode(ev.event) == nil && trade.Direction == launchLabBuy {
				return s.launchLabFill(ctx, &trade)
			}
		case ev.program == dbc.ProgramID && ev.tag == dbc.EventCPITag && disc == dbc.EvtSwapDiscriminator:
			var swap dbcSwap
			if swap.decode(ev.event) == nil && swap.Direction == dbcQuoteToBase {
				return s.dbcFill(ctx, &swap)
			}
		}
	}
	return nil, fmt.Errorf("%w: no pump.fun, PumpSwap, LaunchLab or DBC buy in it", ErrNoTrade)
}

// launchLabFill is a buy on a LaunchLab curve. Like orSOL, a sell names SOL
// as its quote whatever the pool's quote is.
func (s *Solana) launchLabFill(ctx context.Context, t *launchLabTrade) (*Fill, error) {
	pool, err := s.launchLabPool(ctx, t.Pool)
	if err != nil {
		return nil, err
	}
	f := &Fill{Token: pool.BaseMint.String(), Venue: wire.VenueLaunchLab, Pool: t.Pool.String(), QuoteAsset: "SOL",
		QuoteDecimals: pool.QuoteDecimals, Spent: new(big.Int).SetUint64(t.AmountIn)}
	// What entered the curve's reserves; the fees go elsewhere.
	if t.RealQuoteAfter > t.RealQuoteBefore {
		f.PoolIn, f.PoolOut = new(big.Int).SetUint64(t.RealQuoteAfter-t.RealQuoteBefore), new(big.Int).SetUint64(t.AmountOut)
	}
	if !pool.Creator.IsZero() {
		f.Dev = pool.Creator.String()
	}
	return f, nil
}

// dbcFill is a buy on a DBC virtual pool; its quote mint is its config's.
func (s *Solana) dbcFill(ctx context.Context, swap *dbcSwap) (*Fill, error) {
	pool, err := s.dbcPool(ctx, swap.Pool)
	if err != nil {
		return nil, err
	}
	cfg, err := s.dbcConfig(ctx, pool.Config)
	if err != nil {
		return nil, err
	}
	qdec, err := s.quoteDecimals(ctx, cfg.QuoteMint)
	if err != nil {
		return nil, err
	}
	f := &Fill{Token: pool.BaseMint.String(), Venue: wire.VenueDBC, Pool: swap.Pool.String(), QuoteAsset: "SOL",
		QuoteDecimals: qdec, Spent: new(big.Int).SetUint64(swap.AmountIn)}
	// What moved the curve: the input less a fee taken from it, and the
	// output with a fee taken from it (a config that collects its fees in
	// the base token) added back.
	if in, out := swap.ActualInputAmount, swap.OutputAmount; in > 0 && out > 0 {
		if in >= swap.AmountIn {
			out += swap.TradingFee + swap.ProtocolFee + swap.ReferralFee
		}
		f.PoolIn, f.PoolOut = new(big.Int).SetUint64(in), new(big.Int).SetUint64(out)
	}
	if !pool.Creator.IsZero() {
		f.Dev = pool.Creator.String()
	}
	return f, nil
}

// quoteDecimals returns a quote mint's decimals; wrapped SOL's are known.
func (s *Solana) quoteDecimals(ctx context.Context, mint sol.PublicKey) (uint8, error) {
	if mint == sol.SolMint {
		return 9, nil
	}
	f, err := s.mint(ctx, mint)
	return f.decimals, err
}

func (s *Solana) launchLabPool(ctx context.Context, addr sol.PublicKey) (*launchlab.PoolState, error) {
	acc, err := s.accounts(ctx, addr)
	if err != nil {
		return nil, err
	}
	return decodeLaunchLabPool(addr, acc[0])
}

func decodeLaunchLabPool(addr sol.PublicKey, a *rpc.Account) (*launchlab.PoolState, error) {
	if a == nil || a.Owner != launchlab.ProgramID {
		return nil, fmt.Errorf("%s is not a LaunchLab pool", addr)
	}
	p := new(launchlab.PoolState)
	if err := p.Decode(accountData(a)); err != nil {
		return nil, fmt.Errorf("decode LaunchLab pool %s: %w", addr, err)
	}
	return p, nil
}

func (s *Solana) dbcPool(ctx context.Context, addr sol.PublicKey) (*dbc.VirtualPool, error) {
	acc, err := s.accounts(ctx, addr)
	if err != nil {
		return nil, err
	}
	return decodeDBCPool(addr, acc[0])
}

func decodeDBCPool(addr sol.PublicKey, a *rpc.Account) (*dbc.VirtualPool, error) {
	if a == nil || a.Owner != dbc.ProgramID {
		return nil, fmt.Errorf("%s is not a DBC pool", addr)
	}
	p := new(dbc.VirtualPool)
	if err := p.Decode(accountData(a)); err != nil {
		return nil, fmt.Errorf("decode DBC pool %s: %w", addr, err)
	}
	return p, nil
}

// dbcConfig returns a DBC pool config, read once: the program offers no
// way to change a config, and many pools share one.
func (s *Solana) dbcConfig(ctx context.Context, addr sol.PublicKey) (*dbc.PoolConfig, error) {
	c, ok := s.configs.Get(addr)
	if ok {
		return c, nil
	}
	acc, err := s.accounts(ctx, addr)
	if err != nil {
		return nil, err
	}
	if acc[0] == nil || acc[0].Owner != dbc.ProgramID {
		return nil, fmt.Errorf("%s is not a DBC pool config", addr)
	}
	c = new(dbc.PoolConfig)
	if err := c.Decode(accountData(acc[0])); err != nil {
		return nil, fmt.Errorf("decode DBC pool config %s: %w", addr, err)
	}
	s.configs.Put(addr, c)
	return c, nil
}

// curveMarket reads a coin on its LaunchLab or DBC curve: its pool and
// its creator's holding, in one getMultipleAccounts.
type curveMarket struct {
	s      *Solana
	venue  string
	mint   sol.PublicKey
	pool   sol.PublicKey
	dev    sol.PublicKey
	devATA sol.PublicKey

	// What a DBC price needs beside the pool, learnt on the first read
	// (LaunchLab pools hold their own decimals).
	config                  *dbc.PoolConfig
	decimals, quoteDecimals uint8
}

func (s *Solana) curveMarket(p *wire.Position, mint, dev sol.PublicKey) (Market, error) {
	pool, err := sol.PublicKeyFromBase58(p.Pool)
	if err != nil {
		return nil, fmt.Errorf("pool %q: %w", p.Pool, err)
	}
	return &curveMarket{s: s, venue: p.Venue, mint: mint, pool: pool, dev: dev}, nil
}

// Observe implements Market.
func (m *curveMarket) Observe(ctx context.Context) (Observation, error) {
	if err := m.learn(ctx); err != nil {
		return Observation{}, err
	}
	acc, obs, err := m.s.observe(ctx, m.devATA, m.pool)
	if err != nil {
		return Observation{}, err
	}
	if m.venue == wire.VenueLaunchLab {
		obs.Price, err = m.launchLabPrice(acc[0])
	} else {
		obs.Price, err = m.dbcPrice(acc[0])
	}
	if err != nil {
		return Observation{}, err
	}
	return obs, nil
}

// learn finds, once, the creator's token account and what a DBC price
// needs: the pool's config and both mints' decimals.
func (m *curveMarket) learn(ctx context.Context) error {
	if !m.dev.IsZero() && m.devATA.IsZero() {
		ata, err := m.s.ata(ctx, m.dev, m.mint)
		if err != nil {
			return err
		}
		m.devATA = ata
	}
	if m.venue != wire.VenueDBC || m.config != nil {
		return nil
	}
	pool, err := m.s.dbcPool(ctx, m.pool)
	if err != nil {
		return err
	}
	cfg, err := m.s.dbcConfig(ctx, pool.Config)
	if err != nil {
		return err
	}
	base, err := m.s.mint(ctx, pool.BaseMint)
	if err != nil {
		return err
	}
	qdec, err := m.s.quoteDecimals(ctx, cfg.QuoteMint)
	if err != nil {
		return err
	}
	m.config, m.decimals, m.quoteDecimals = cfg, base.decimals, qdec
	return nil
}

// launchLabPrice is the constant-product price of the curve: its quote
// reserve (virtual plus raised) over the base it still holds (virtual less
// sold).
func (m *curveMarket) launchLabPrice(a *rpc.Account) (*big.Rat, error) {
	p, err := decodeLaunchLabPool(m.pool, a)
	if err != nil {
		return nil, err
	}
	if p.Status != launchlab.StatusFund {
		return nil, fmt.Errorf("token %s migrated to Raydium (LaunchLab pool %s is off its curve, status %d): %w", m.mint, m.pool, p.Status, errMigrated)
	}
	if p.RealBase >= p.VirtualBase {
		return nil, fmt.Errorf("LaunchLab pool %s sold %d of virtual base %d", m.pool, p.RealBase, p.VirtualBase)
	}
	quote := new(big.Int).Add(new(big.Int).SetUint64(p.VirtualQuote), new(big.Int).SetUint64(p.RealQuote))
	base := new(big.Int).SetUint64(p.VirtualBase - p.RealBase)
	price := wholePrice(quote, base, p.QuoteDecimals, p.BaseDecimals)
	if price.Sign() <= 0 {
		return nil, fmt.Errorf("LaunchLab pool %s has no quote reserve", m.pool)
	}
	return price, nil
}

// q128 is 2^128: a DBC square-root price is Q64.64, its square Q128.128.
var q128 = new(big.Int).Lsh(big.NewInt(1), 128)

// dbcPrice is the curve's spot price: the square of its Q64.64 square-root
// price, quote base units per base unit.
func (m *curveMarket) dbcPrice(a *rpc.Account) (*big.Rat, error) {
	p, err := decodeDBCPool(m.pool, a)
	if err != nil {
		return nil, err
	}
	if p.IsMigrated != 0 || p.IsCurveComplete(m.config) {
		return nil, fmt.Errorf("token %s migrated to Meteora (DBC pool %s completed its curve): %w", m.mint, m.pool, errMigrated)
	}
	if p.SqrtPrice.IsZero() {
		return nil, fmt.Errorf("DBC pool %s has no price", m.pool)
	}
	sq := p.SqrtPrice.Big()
	return wholePrice(sq.Mul(sq, sq), q128, m.quoteDecimals, m.decimals), nil
}
