package pumpswap

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Reserves are a pool's state for pricing: the balances of its two vaults
// and the pool's virtual quote reserves. The price uses the effective quote
// reserve, Quote + Virtual; only Quote can be paid out.
type Reserves struct {
	Base    uint64
	Quote   uint64
	Virtual Int128
}

// EffectiveQuote returns Quote + Virtual.
func (r Reserves) EffectiveQuote() *big.Int {
	q := new(big.Int).SetUint64(r.Quote)
	if r.Virtual.IsZero() {
		return q
	}
	return q.Add(q, r.Virtual.Big())
}

// Rates are the rates one trade on a pool pays, in basis points of the quote
// that moves through the pool.
type Rates struct {
	LPFeeBps       uint64
	ProtocolFeeBps uint64
	// CreatorFeeBps is zero for a pool without a coin creator.
	CreatorFeeBps uint64
}

// TotalBps returns the sum of the three rates, false when it passes 64
// bits (no account the program writes holds such rates).
func (r Rates) TotalBps() (uint64, bool) {
	s, c1 := bits.Add64(r.LPFeeBps, r.ProtocolFeeBps, 0)
	s, c2 := bits.Add64(s, r.CreatorFeeBps, 0)
	return s, c1 == 0 && c2 == 0
}

// MarketCap returns effective quote reserves * supply / base reserves in
// quote base units, the figure fee tiers are chosen by: supply is the base
// mint's live supply, or TotalTokenSupply for a mayhem-mode pool. It is the
// largest Uint128 for a pool without base reserves.
func MarketCap(p *Pool, r Reserves, baseMintSupply uint64) pumpfun.Uint128 {
	if r.Base == 0 {
		return pumpfun.Uint128{Hi: math.MaxUint64, Lo: math.MaxUint64}
	}
	supply := baseMintSupply
	if p.IsMayhemMode {
		supply = TotalTokenSupply
	}
	v := new(big.Int).Mul(r.EffectiveQuote(), new(big.Int).SetUint64(supply))
	v.Quo(v, new(big.Int).SetUint64(r.Base))
	u, ok := pumpfun.Uint128FromBig(v)
	if !ok {
		if v.Sign() < 0 {
			return pumpfun.Uint128{}
		}
		return pumpfun.Uint128{Hi: math.MaxUint64, Lo: math.MaxUint64}
	}
	return u
}

// ComputeFees returns the rates a trade on pool p pays. With a FeeConfig
// (fc not nil) a canonical pump pool pays the fee schedule for its quote at
// its market cap (SOL-like quotes the fee tiers, USDC the stable tiers,
// others the exotic or flat fees) and any other pool the flat fees; without
// one, GlobalConfig's rates apply. With a FeeConfig, a nonzero
// Pool.CreatorFeeBps replaces the schedule's creator rate while
// GlobalConfig.CreatorFeeConfigurable is on (as the program and the SDK do;
// GlobalConfig's rates are never overridden). A pool without a coin creator
// pays no creator fee.
func ComputeFees(gc *GlobalConfig, fc *FeeConfig, p *Pool, r Reserves, baseMintSupply uint64) Rates {
	rates := Rates{LPFeeBps: gc.LPFeeBasisPoints, ProtocolFeeBps: gc.ProtocolFeeBasisPoints, CreatorFeeBps: gc.CoinCreatorFeeBasisPoints}
	if fc != nil {
		f := fc.FlatFees
		if IsCanonical(p.BaseMint, p.Creator) {
			if s, ok := fc.Schedule(p.QuoteMint, MarketCap(p, r, baseMintSupply)); ok {
				f = s
			}
		}
		rates = Rates{LPFeeBps: f.LPFeeBps, ProtocolFeeBps: f.ProtocolFeeBps, CreatorFeeBps: f.CreatorFeeBps}
		if gc.CreatorFeeConfigurable && p.CreatorFeeBps != 0 {
			rates.CreatorFeeBps = p.CreatorFeeBps
		}
	}
	if p.CoinCreator.IsZero() {
		rates.CreatorFeeBps = 0
	}
	return rates
}

// fee returns ceil(amount*bps/10000), the way the program charges each part.
func fee(amount, bps uint64) (uint64, bool) {
	if bps == 0 || amount == 0 {
		return 0, true
	}
	v := new(big.Int).Mul(new(big.Int).SetUint64(amount), new(big.Int).SetUint64(bps))
	v.Add(v, new(big.Int).SetUint64(BasisPoints-1))
	v.Quo(v, new(big.Int).SetUint64(BasisPoints))
	if !v.IsUint64() {
		return 0, false
	}
	return v.Uint64(), true
}

// Fees returns the three fees on amount, each rounded up separately.
func (r Rates) Fees(amount uint64) (lp, protocol, creator uint64, ok bool) {
	lp, ok1 := fee(amount, r.LPFeeBps)
	protocol, ok2 := fee(amount, r.ProtocolFeeBps)
	creator, ok3 := fee(amount, r.CreatorFeeBps)
	return lp, protocol, creator, ok1 && ok2 && ok3
}

// BuyQuote is the outcome of a buy.
type BuyQuote struct {
	BaseOut uint64
	// QuoteIn is what the swap itself costs, before fees.
	QuoteIn     uint64
	LPFee       uint64
	ProtocolFee uint64
	CreatorFee  uint64
	// Total is what the buyer pays: QuoteIn plus the three fees.
	Total uint64
}

// SellQuote is the outcome of a sell.
type SellQuote struct {
	BaseIn uint64
	// QuoteOut is what the swap itself yields, before fees.
	QuoteOut    uint64
	LPFee       uint64
	ProtocolFee uint64
	CreatorFee  uint64
	// Net is what the seller receives: QuoteOut less the three fees.
	Net uint64
}

// Paid returns what leaves the pool's quote vault: the net and the protocol
// and creator fees (the LP fee stays in the pool).
func (q SellQuote) Paid() uint64 { return q.Net + q.ProtocolFee + q.CreatorFee }

// QuoteBuy quotes buy of exactly base tokens: the swap costs
// ceil(effQuote*base/(baseReserve-base)) plus fees on that cost.
func QuoteBuy(r Reserves, rates Rates, base uint64) (BuyQuote, error) {
	if base == 0 {
		return BuyQuote{}, ErrZeroBaseAmount
	}
	if r.Base == 0 || r.Quote == 0 {
		return BuyQuote{}, ErrDivisionByZero
	}
	if base >= r.Base {
		return BuyQuote{}, ErrBuyMoreBaseAmountThanPoolReserves
	}
	num := new(big.Int).Mul(r.EffectiveQuote(), new(big.Int).SetUint64(base))
	den := new(big.Int).SetUint64(r.Base - base)
	num.Add(num, den).Sub(num, big.NewInt(1))
	q := num.Quo(num, den)
	if q.Sign() <= 0 || !q.IsUint64() {
		return BuyQuote{}, ErrOverflow
	}
	in := q.Uint64()
	lp, proto, creator, ok := rates.Fees(in)
	total := in + lp + proto + creator
	if !ok || total < in {
		return BuyQuote{}, ErrOverflow
	}
	return BuyQuote{BaseOut: base, QuoteIn: in, LPFee: lp, ProtocolFee: proto, CreatorFee: creator, Total: total}, nil
}

// QuoteBuyExactQuoteIn quotes buy_exact_quote_in for spendable quote units,
// fees included, by the SDK's formula:
//
//	eff   = floor(spendable * 10000 / (10000 + total_bps))
//	eff  -= max(0, eff + fees(eff) - spendable)
//	base  = floor(baseReserve * (eff - 1) / (effQuote + eff - 1))
//
// and those tokens are bought as QuoteBuy buys them; that cost never exceeds
// eff - 1, so the total stays within spendable.
func QuoteBuyExactQuoteIn(r Reserves, rates Rates, spendable uint64) (BuyQuote, error) {
	if spendable == 0 {
		return BuyQuote{}, ErrZeroQuoteAmount
	}
	if r.Base == 0 || r.Quote == 0 {
		return BuyQuote{}, ErrDivisionByZero
	}
	effBig := new(big.Int).Mul(new(big.Int).SetUint64(spendable), new(big.Int).SetUint64(BasisPoints))
	// Fee rates of accounts the program never writes (a node's bad answer)
	// can sum past 64 bits: refused, not divided by their wrapped sum.
	total, ok := rates.TotalBps()
	withFees, carry := bits.Add64(BasisPoints, total, 0)
	if !ok || carry != 0 {
		return BuyQuote{}, ErrOverflow
	}
	effBig.Quo(effBig, new(big.Int).SetUint64(withFees))
	eff := effBig.Uint64()
	lp, proto, creator, ok := rates.Fees(eff)
	if !ok {
		return BuyQuote{}, ErrOverflow
	}
	if with := eff + lp + proto + creator; with > spendable {
		eff -= min(eff, with-spendable)
	}
	if eff <= 1 {
		return BuyQuote{}, ErrBuyNotEnoughQuoteTokensToCoverFees
	}
	in := new(big.Int).SetUint64(eff - 1)
	num := new(big.Int).Mul(new(big.Int).SetUint64(r.Base), in)
	den := new(big.Int).Add(r.EffectiveQuote(), in)
	if den.Sign() <= 0 {
		return BuyQuote{}, ErrDivisionByZero
	}
	base := num.Quo(num, den)
	if base.Sign() == 0 {
		return BuyQuote{}, ErrZeroBaseAmount
	}
	return QuoteBuy(r, rates, base.Uint64())
}

// QuoteSell quotes sell of base tokens: floor(effQuote*base/(baseReserve+
// base)) leaves the swap, less fees on that amount. The pool can pay out
// only its real quote reserve.
func QuoteSell(r Reserves, rates Rates, base uint64) (SellQuote, error) {
	if base == 0 {
		return SellQuote{}, ErrZeroBaseAmount
	}
	num := new(big.Int).Mul(r.EffectiveQuote(), new(big.Int).SetUint64(base))
	den := new(big.Int).Add(new(big.Int).SetUint64(r.Base), new(big.Int).SetUint64(base))
	out := num.Quo(num, den)
	if out.Sign() < 0 || !out.IsUint64() {
		return SellQuote{}, ErrOverflow
	}
	q := SellQuote{BaseIn: base, QuoteOut: out.Uint64()}
	var ok bool
	if q.LPFee, q.ProtocolFee, q.CreatorFee, ok = rates.Fees(q.QuoteOut); !ok {
		return SellQuote{}, ErrOverflow
	}
	fees := q.LPFee + q.ProtocolFee + q.CreatorFee
	if fees > q.QuoteOut {
		return SellQuote{}, ErrOverflow
	}
	q.Net = q.QuoteOut - fees
	if q.Paid() > r.Quote {
		return SellQuote{}, ErrInsufficientRealQuoteReserves
	}
	return q, nil
}

// ApplyBuy moves q through the reserves: the base leaves the pool, the swap
// cost and the LP fee stay in it.
func (r *Reserves) ApplyBuy(q BuyQuote) {
	r.Base -= q.BaseOut
	r.Quote += q.QuoteIn + q.LPFee
}

// ApplySell moves q through the reserves.
func (r *Reserves) ApplySell(q SellQuote) {
	r.Base += q.BaseIn
	r.Quote -= q.Paid()
}

// BuybackSplit splits a protocol fee between the buyback fee recipient
// (buybackBps of it, rounded down) and the protocol fee recipient.
func BuybackSplit(protocolFee, buybackBps uint64) (buyback, protocol uint64) {
	return pumpfun.BuybackSplit(protocolFee, buybackBps)
}

// IsSOLQuote reports whether quote is SOL-like for fees and prices: the zero
// key, WSOL or the Token-2022 native mint.
func IsSOLQuote(quote solana.PublicKey) bool { return pumpfun.IsSOLLikeQuote(quote) }
