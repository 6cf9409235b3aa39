package solana

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// bounds are a job's market bounds in USD; nil is no bound.
type bounds struct {
	minLiquidity, maxLiquidity *float64
	minMarketCap, maxMarketCap *float64
}

// any reports whether the job has a bound to check.
func (b bounds) any() bool {
	return b.minLiquidity != nil || b.maxLiquidity != nil || b.minMarketCap != nil || b.maxMarketCap != nil
}

// parseBounds reads the job's bounds; ingress validated them, so a bad one
// here is a job built by hand.
func parseBounds(job *wire.SwapJob) (bounds, error) {
	b := bounds{job.MinLiquidityUSD, job.MaxLiquidityUSD, job.MinMarketCapUSD, job.MaxMarketCapUSD}
	for _, x := range []struct {
		name string
		v    *float64
	}{{"min_liquidity_usd", b.minLiquidity}, {"max_liquidity_usd", b.maxLiquidity}, {"min_market_cap_usd", b.minMarketCap}, {"max_market_cap_usd", b.maxMarketCap}} {
		if x.v != nil && (*x.v < 0 || math.IsNaN(*x.v) || math.IsInf(*x.v, 0)) {
			return bounds{}, apierr.Invalid(x.name, "%s must be a number of at least 0", x.name)
		}
	}
	if b.minLiquidity != nil && b.maxLiquidity != nil && *b.minLiquidity > *b.maxLiquidity {
		return bounds{}, apierr.Invalid("min_liquidity_usd", "min_liquidity_usd is above max_liquidity_usd")
	}
	if b.minMarketCap != nil && b.maxMarketCap != nil && *b.minMarketCap > *b.maxMarketCap {
		return bounds{}, apierr.Invalid("min_market_cap_usd", "min_market_cap_usd is above max_market_cap_usd")
	}
	return b, nil
}

// formatUSD renders a measured figure for details: dollars and cents.
func formatUSD(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// check refuses a market whose liquidity or market cap in USD is outside
// the bounds, with the measured figure in details.
func (b bounds) check(liquidity, marketCap float64) error {
	outside := func(v float64, lo, hi *float64) bool { return (lo != nil && v < *lo) || (hi != nil && v > *hi) }
	if outside(liquidity, b.minLiquidity, b.maxLiquidity) {
		return apierr.Newf(apierr.LiquidityOutOfRange, formatUSD(liquidity), "liquidity is %s USD, %s", formatUSD(liquidity), rangeText(b.minLiquidity, b.maxLiquidity))
	}
	if outside(marketCap, b.minMarketCap, b.maxMarketCap) {
		return apierr.Newf(apierr.MarketCapOutOfRange, formatUSD(marketCap), "market cap is %s USD, %s", formatUSD(marketCap), rangeText(b.minMarketCap, b.maxMarketCap))
	}
	return nil
}

// rangeText names the bounds as the request gave them (the shortest
// decimal of each, not a float's binary expansion: 1e60, not 9999...904).
func rangeText(lo, hi *float64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("outside %s to %s", f(*lo), f(*hi))
	case lo != nil:
		return "below " + f(*lo)
	default:
		return "above " + f(*hi)
	}
}

// usd returns units of an asset with decimals at unitUSD dollars a whole
// unit, as a float: the bounds compare floats, the money path never does.
func usd(units *big.Rat, decimals uint8, unitUSD float64) float64 {
	v := new(big.Rat).Quo(units, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	f, _ := v.Float64()
	return f * unitUSD
}

// checkCurveBounds measures a bonding curve: liquidity is the SOL its real
// reserves hold, market cap the curve's price (virtual SOL over virtual
// tokens) times the mint's supply, both at the SOL/USD price readMarket
// read.
func (s *Signer) checkCurveBounds(m *market, o *order) error {
	if !o.bounds.any() {
		return nil
	}
	price, err := m.solUSD.v, m.solUSD.err
	if err != nil {
		return err
	}
	liquidity := usd(new(big.Rat).SetUint64(m.curve.RealQuoteReserves), 9, price)
	cap := new(big.Rat)
	if m.curve.VirtualTokenReserves > 0 {
		cap.SetFrac(new(big.Int).Mul(new(big.Int).SetUint64(m.curve.VirtualQuoteReserves), new(big.Int).SetUint64(m.mintSupply)),
			new(big.Int).SetUint64(m.curve.VirtualTokenReserves))
	}
	return o.bounds.check(liquidity, usd(cap, 9, price))
}

// checkPoolBounds measures a pool: liquidity is both sides of its real
// reserves, twice the quote vault, and market cap the pool's price
// (effective quote over base reserves) times the base mint's supply, in
// USD: SOL at the SOL/USD price, USDC and USD1 at one dollar.
func (s *Signer) checkPoolBounds(o *order, pm *poolMarket) error {
	if !o.bounds.any() {
		return nil
	}
	var unit float64
	switch pm.quote {
	case quoteSOL:
		unit = pm.solUSD
	case quoteUSDC, quoteUSD1:
		unit = 1
	default:
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "PumpSwap pool %s is quoted in %s, which has no USD price for the market bounds", pm.addr, pm.facts.quoteMint)
	}
	dec := pm.facts.quoteDecimals
	liquidity := usd(new(big.Rat).SetInt(new(big.Int).Lsh(new(big.Int).SetUint64(pm.res.Quote), 1)), dec, unit)
	cap := new(big.Rat)
	if pm.res.Base > 0 {
		cap.SetFrac(new(big.Int).Mul(pm.res.EffectiveQuote(), new(big.Int).SetUint64(pm.supply)), new(big.Int).SetUint64(pm.res.Base))
	}
	return o.bounds.check(liquidity, usd(cap, dec, unit))
}

// solUSD reads the configured SOL/USD pool and returns its price: USD per
// SOL, from the pool's real balances and virtual reserves.
func (s *Signer) solUSD(ctx context.Context) (float64, error) {
	pool := s.cfg.SOLUSDPool
	if pool.IsZero() {
		return 0, apierr.Wrap(errors.New("no SOL/USD price source is configured"), "the market bounds need a SOL/USD price source")
	}
	f, err := s.poolFactsFor(ctx, pool)
	if errors.Is(err, errNoPool) {
		return 0, apierr.Wrap(fmt.Errorf("SOL/USD source: %w", err), "the SOL/USD price source is not a PumpSwap pool")
	}
	if err != nil {
		return 0, err
	}
	accounts, err := s.getAccounts(ctx, []sol.PublicKey{pool, f.baseVault, f.quoteVault})
	if err != nil {
		return 0, err
	}
	p, err := decodePoolAccount(pool, accounts[0])
	if err != nil {
		return 0, apierr.Wrap(fmt.Errorf("SOL/USD source: %w", err), "the SOL/USD price source is not a PumpSwap pool")
	}
	base, ok1 := tokenAmount(accounts[1], f.baseMint)
	quote, ok2 := tokenAmount(accounts[2], f.quoteMint)
	if !ok1 || !ok2 || base == 0 {
		return 0, apierr.Wrap(fmt.Errorf("SOL/USD pool %s has empty vaults", pool), "the SOL/USD price source has no liquidity")
	}
	r := pumpswap.Reserves{Base: base, Quote: quote, Virtual: p.VirtualQuoteReserves}
	baseUnits := new(big.Rat).SetFrac(new(big.Int).SetUint64(r.Base), pow10(f.baseDecimals))
	quoteUnits := new(big.Rat).SetFrac(r.EffectiveQuote(), pow10(f.quoteDecimals))
	stable := func(m sol.PublicKey) bool { a := s.quoteAsset(m); return a == quoteUSDC || a == quoteUSD1 }
	var price *big.Rat
	switch {
	case pumpswap.IsSOLQuote(f.baseMint) && stable(f.quoteMint):
		price = new(big.Rat).Quo(quoteUnits, baseUnits)
	case pumpswap.IsSOLQuote(f.quoteMint) && stable(f.baseMint) && quoteUnits.Sign() > 0:
		price = new(big.Rat).Quo(baseUnits, quoteUnits)
	default:
		return 0, apierr.Wrap(fmt.Errorf("SOL/USD pool %s trades %s against %s", pool, f.baseMint, f.quoteMint), "the SOL/USD price source is not SOL against a USD stable")
	}
	v, _ := price.Float64()
	return v, nil
}

func pow10(n uint8) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
