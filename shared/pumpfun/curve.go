package pumpfun

import (
	"math"

	"github.com/gagliardetto/solana-go"
)

// FeeRates are the rates one trade on a curve pays, in basis points of the
// SOL that moves through the curve.
type FeeRates struct {
	ProtocolFeeBps uint64
	// CreatorFeeBps is zero for a curve without a creator.
	CreatorFeeBps uint64
}

// TotalBps returns the protocol plus the creator rate.
func (r FeeRates) TotalBps() uint64 { return r.ProtocolFeeBps + r.CreatorFeeBps }

// Fees returns the fees on amount: each part rounded up separately, as the
// program charges them.
func (r FeeRates) Fees(amount uint64) (protocol, creator uint64, ok bool) {
	protocol, ok1 := mulDivCeil(amount, r.ProtocolFeeBps, BasisPoints)
	creator, ok2 := mulDivCeil(amount, r.CreatorFeeBps, BasisPoints)
	return protocol, creator, ok1 && ok2
}

// IsSOLLikeQuote reports whether the fee program charges quote's curves the
// SOL tiers: the zero key (SOL), wrapped SOL and the Token-2022 native mint.
func IsSOLLikeQuote(quote solana.PublicKey) bool {
	return quote.IsZero() || quote == WrappedSOLMint || quote == NativeMint2022
}

// MarketCap returns virtual_quote_reserves * supply / virtual_token_reserves
// in quote base units, the figure fee tiers are chosen by. It is the largest
// Uint128 for a curve without virtual token reserves.
func (c *BondingCurve) MarketCap(supply uint64) Uint128 {
	if c.VirtualTokenReserves == 0 {
		return Uint128{Hi: math.MaxUint64, Lo: math.MaxUint64}
	}
	return mulDiv128(c.VirtualQuoteReserves, supply, c.VirtualTokenReserves)
}

// FeeSupply returns the supply a curve's market cap is measured against: the
// mint's real supply for a mayhem-mode coin, DefaultTokenTotalSupply
// otherwise.
func (c *BondingCurve) FeeSupply(mintSupply uint64) uint64 {
	if c.IsMayhemMode {
		return mintSupply
	}
	return DefaultTokenTotalSupply
}

// SelectTier returns the fees of the tier for marketCap: the first tier when
// the cap is below its threshold, else the last tier whose threshold the cap
// reaches. ok is false for no tiers.
func SelectTier(tiers []FeeTier, marketCap Uint128) (f Fees, ok bool) {
	if len(tiers) == 0 {
		return Fees{}, false
	}
	if marketCap.Cmp(tiers[0].MarketCapLamportsThreshold) < 0 {
		return tiers[0].Fees, true
	}
	for i := len(tiers) - 1; i >= 0; i-- {
		if marketCap.Cmp(tiers[i].MarketCapLamportsThreshold) >= 0 {
			return tiers[i].Fees, true
		}
	}
	return tiers[0].Fees, true
}

// Schedule returns the fees fc sets for a curve quoted in quote with
// marketCap: SOL-like quotes by FeeTiers, USDC by StableFeeTiers (FeeTiers
// while there are none), other quotes ExoticFlatFees (FlatFees while unset).
// ok is false when the tier list it needs is empty.
func (fc *FeeConfig) Schedule(quote solana.PublicKey, marketCap Uint128) (Fees, bool) {
	switch {
	case IsSOLLikeQuote(quote):
		return SelectTier(fc.FeeTiers, marketCap)
	case quote == USDCMint:
		if len(fc.StableFeeTiers) > 0 {
			return SelectTier(fc.StableFeeTiers, marketCap)
		}
		return SelectTier(fc.FeeTiers, marketCap)
	case fc.ExoticFlatFees.IsZero():
		return fc.FlatFees, true
	default:
		return fc.ExoticFlatFees, true
	}
}

// ComputeFees returns the rates a trade on c pays. With a FeeConfig (fc not
// nil, holding tiers) the rates come from its schedule at the curve's market
// cap; otherwise from Global's fee_basis_points and creator_fee_basis_points.
// A nonzero BondingCurve.CreatorFeeBps replaces the creator rate while
// Global.CreatorFeeConfigurable is on. A curve without a creator pays no
// creator fee. mintSupply is the mint's supply, used only for mayhem-mode
// coins.
func ComputeFees(g *Global, fc *FeeConfig, c *BondingCurve, mintSupply uint64) FeeRates {
	r := FeeRates{ProtocolFeeBps: g.FeeBasisPoints, CreatorFeeBps: g.CreatorFeeBasisPoints}
	if fc != nil {
		if f, ok := fc.Schedule(c.QuoteMint, c.MarketCap(c.FeeSupply(mintSupply))); ok {
			r = FeeRates{ProtocolFeeBps: f.ProtocolFeeBps, CreatorFeeBps: f.CreatorFeeBps}
		}
	}
	if g.CreatorFeeConfigurable && c.CreatorFeeBps != 0 {
		r.CreatorFeeBps = c.CreatorFeeBps
	}
	if c.Creator.IsZero() {
		r.CreatorFeeBps = 0
	}
	return r
}

// BuyQuote is the outcome of a buy.
type BuyQuote struct {
	TokensOut uint64
	// SolCost is what enters the curve's reserves.
	SolCost     uint64
	ProtocolFee uint64
	CreatorFee  uint64
	// Total is what the buyer pays: SolCost plus both fees.
	Total uint64
	// Capped: more tokens were asked for (or paid for) than are left on
	// the curve, and TokensOut is what is left. The program takes such a
	// buy only with partial_fill (BuyArgs.PartialFill); without it, it
	// fails NotEnoughTokensToBuy.
	Capped bool
}

// SellQuote is the outcome of a sell.
type SellQuote struct {
	TokensIn uint64
	// SolOut is what leaves the curve's reserves.
	SolOut      uint64
	ProtocolFee uint64
	CreatorFee  uint64
	// Net is what the seller receives: SolOut less both fees.
	Net uint64
}

func (c *BondingCurve) tradable() error {
	if c.Complete || c.VirtualTokenReserves == 0 {
		return ErrBondingCurveComplete
	}
	return nil
}

// buyCost returns the SOL that buys tokens off the curve:
// floor(tokens*vQuote/(vTok-tokens)) + 1.
func (c *BondingCurve) buyCost(tokens uint64) (uint64, error) {
	if tokens >= c.VirtualTokenReserves {
		return 0, ErrNotEnoughTokensToBuy
	}
	cost, ok := mulDiv(tokens, c.VirtualQuoteReserves, c.VirtualTokenReserves-tokens)
	if !ok || cost == math.MaxUint64 {
		return 0, ErrOverflow
	}
	return cost + 1, nil
}

// QuoteBuy quotes buy: exactly tokens out (capped at the curve's real token
// reserves), costing floor(tokens*vQuote/(vTok-tokens)) + 1 lamports plus
// fees on that cost.
func (c *BondingCurve) QuoteBuy(r FeeRates, tokens uint64) (BuyQuote, error) {
	if err := c.tradable(); err != nil {
		return BuyQuote{}, err
	}
	if tokens == 0 {
		return BuyQuote{}, ErrBuyZeroAmount
	}
	capped := tokens > c.RealTokenReserves
	tokens = min(tokens, c.RealTokenReserves)
	if tokens == 0 {
		return BuyQuote{}, ErrNotEnoughTokensToBuy
	}
	cost, err := c.buyCost(tokens)
	if err != nil {
		return BuyQuote{}, err
	}
	q, err := buyQuote(r, tokens, cost)
	q.Capped = capped
	return q, err
}

func buyQuote(r FeeRates, tokens, cost uint64) (BuyQuote, error) {
	p, cr, ok := r.Fees(cost)
	if !ok {
		return BuyQuote{}, ErrOverflow
	}
	total := cost + p + cr
	if total < cost {
		return BuyQuote{}, ErrOverflow
	}
	return BuyQuote{TokensOut: tokens, SolCost: cost, ProtocolFee: p, CreatorFee: cr, Total: total}, nil
}

// QuoteBuyExactSolIn quotes buy_exact_sol_in for spendable lamports, fees
// included, by the program's documented formula:
//
//	net    = floor(spendable * 10000 / (10000 + total_bps))
//	fees   = ceil(net * protocol_bps / 10000) + ceil(net * creator_bps / 10000)
//	net   -= max(0, net + fees - spendable)
//	tokens = floor((net - 1) * vTok / (vQuote + net - 1))
//
// and those tokens (capped at the real token reserves) are bought at the cost
// QuoteBuy gives, which never exceeds spendable.
func (c *BondingCurve) QuoteBuyExactSolIn(r FeeRates, spendable uint64) (BuyQuote, error) {
	if err := c.tradable(); err != nil {
		return BuyQuote{}, err
	}
	if spendable == 0 {
		return BuyQuote{}, ErrBuyZeroAmount
	}
	net, ok := mulDiv(spendable, BasisPoints, BasisPoints+r.TotalBps())
	if !ok {
		return BuyQuote{}, ErrOverflow
	}
	p, cr, ok := r.Fees(net)
	if !ok {
		return BuyQuote{}, ErrOverflow
	}
	if net+p+cr > spendable {
		net -= net + p + cr - spendable
	}
	if net <= 1 {
		return BuyQuote{}, ErrBuyNotEnoughSolToCoverFees
	}
	in := net - 1
	den := c.VirtualQuoteReserves + in
	if den < in {
		return BuyQuote{}, ErrOverflow
	}
	tokens, ok := mulDiv(in, c.VirtualTokenReserves, den)
	if !ok {
		return BuyQuote{}, ErrOverflow
	}
	if tokens == 0 {
		return BuyQuote{}, ErrBuyZeroAmount
	}
	// The tokens are then bought as buy buys them; their cost is at most
	// net, so cost plus fees stays within spendable.
	return c.QuoteBuy(r, tokens)
}

// QuoteSell quotes sell of tokens: floor(tokens*vQuote/(vTok+tokens))
// lamports leave the curve, less fees on that amount.
func (c *BondingCurve) QuoteSell(r FeeRates, tokens uint64) (SellQuote, error) {
	if err := c.tradable(); err != nil {
		return SellQuote{}, err
	}
	if tokens == 0 {
		return SellQuote{}, ErrSellZeroAmount
	}
	den := c.VirtualTokenReserves + tokens
	if den < tokens {
		return SellQuote{}, ErrOverflow
	}
	out, ok := mulDiv(tokens, c.VirtualQuoteReserves, den)
	if !ok {
		return SellQuote{}, ErrOverflow
	}
	if out > c.RealQuoteReserves {
		return SellQuote{}, ErrNotEnoughTokensToSell
	}
	p, cr, ok := r.Fees(out)
	if !ok || p+cr > out {
		return SellQuote{}, ErrOverflow
	}
	return SellQuote{TokensIn: tokens, SolOut: out, ProtocolFee: p, CreatorFee: cr, Net: out - p - cr}, nil
}

// ApplyBuy moves q through the curve's reserves and completes the curve when
// its real tokens run out.
func (c *BondingCurve) ApplyBuy(q BuyQuote) {
	c.VirtualTokenReserves -= q.TokensOut
	c.RealTokenReserves -= q.TokensOut
	c.VirtualQuoteReserves += q.SolCost
	c.RealQuoteReserves += q.SolCost
	if c.RealTokenReserves == 0 {
		c.Complete = true
	}
}

// ApplySell moves q through the curve's reserves.
func (c *BondingCurve) ApplySell(q SellQuote) {
	c.VirtualTokenReserves += q.TokensIn
	c.RealTokenReserves += q.TokensIn
	c.VirtualQuoteReserves -= q.SolOut
	c.RealQuoteReserves -= q.SolOut
}

// MaxSolCost returns cost raised by slippageBps, saturating at the largest
// uint64: the max_sol_cost of a buy.
func MaxSolCost(cost uint64, slippageBps uint64) uint64 {
	extra, ok := mulDiv(cost, slippageBps, BasisPoints)
	if !ok || cost+extra < cost {
		return math.MaxUint64
	}
	return cost + extra
}

// MinOut returns out lowered by slippageBps (zero at 100% or more): the
// min_sol_output of a sell or the min_tokens_out of buy_exact_sol_in.
func MinOut(out uint64, slippageBps uint64) uint64 {
	if slippageBps >= BasisPoints {
		return 0
	}
	cut, _ := mulDiv(out, slippageBps, BasisPoints)
	return out - cut
}
