package launchlab

import (
	"fmt"
	"math/big"

	"github.com/tradeapi/tradeapi/shared/token2022"
)

// mulDiv returns a*b/c rounded down or up, and false when c is zero or the
// result does not fit a u64.
func mulDiv(a, b, c uint64, up bool) (uint64, bool) {
	if c == 0 {
		return 0, false
	}
	p := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
	q, r := new(big.Int).QuoRem(p, new(big.Int).SetUint64(c), new(big.Int))
	if up && r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsUint64() {
		return 0, false
	}
	return q.Uint64(), true
}

// InitialVirtualReserves returns the virtual reserves initialize_v2 gives a
// constant-product curve: the curve sells totalBaseSell (T) for
// totalQuoteFundRaising (F) and ends at the price the migrated pool opens
// at, F less the global config's migrate fee (mf) over the base left for
// migration (M: supply less the base sold and the locked base). It needs
// that price above the curve's average, F/T.
func InitialVirtualReserves(supply, totalBaseSell, totalQuoteFundRaising, locked, migrateFee uint64) (virtualBase, virtualQuote uint64, err error) {
	if totalBaseSell > supply || locked > supply-totalBaseSell {
		return 0, 0, ErrInvalidInput
	}
	migrate := supply - totalBaseSell - locked
	if migrate == 0 || totalBaseSell == 0 || totalQuoteFundRaising <= migrateFee {
		return 0, 0, ErrInputNotMatchCurveConfig
	}
	// On a constant-product curve through (0, 0) and (T, F) that ends at
	// price (F-mf)/M: vA = T²(F-mf)/M / (T(F-mf)/M - F) and vB = F² / (the
	// same denominator), each quotient rounded down where the SDK's
	// getInitParam rounds it, which is what mainnet pools hold (letsbonk's
	// virtual base to the unit).
	big64 := func(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
	t, f, m := big64(totalBaseSell), big64(totalQuoteFundRaising), big64(migrate)
	net := new(big.Int).Sub(f, big64(migrateFee))
	num := new(big.Int).Mul(net, t)
	num.Mul(num, t).Quo(num, m)
	den := new(big.Int).Mul(net, t)
	den.Quo(den, m).Sub(den, f)
	if den.Sign() <= 0 {
		return 0, 0, ErrInputNotMatchCurveConfig
	}
	va := num.Quo(num, den)
	vb := new(big.Int).Mul(f, f)
	vb.Quo(vb, den)
	if !va.IsUint64() || !vb.IsUint64() {
		return 0, 0, ErrMathOverflow
	}
	return va.Uint64(), vb.Uint64(), nil
}

// NewPool returns the PoolState initialize_v2 writes for a constant curve
// under a global config whose migrate fee is migrateFee, the accounts and
// bump set by the caller.
func NewPool(decimals, quoteDecimals uint8, c CurveParams, v VestingParams, ammFeeOn uint8, migrateFee uint64) (PoolState, error) {
	if c.Type != CurveConstant {
		return PoolState{}, ErrInputNotMatchCurveConfig
	}
	vb, vq, err := InitialVirtualReserves(c.Supply, c.TotalBaseSell, c.TotalQuoteFundRaising, v.TotalLockedAmount, migrateFee)
	if err != nil {
		return PoolState{}, err
	}
	return PoolState{
		Status: StatusFund, BaseDecimals: decimals, QuoteDecimals: quoteDecimals, MigrateType: c.MigrateType,
		Supply: c.Supply, TotalBaseSell: c.TotalBaseSell, VirtualBase: vb, VirtualQuote: vq,
		TotalQuoteFundRaising: c.TotalQuoteFundRaising,
		Vesting: VestingSchedule{
			TotalLockedAmount: v.TotalLockedAmount, CliffPeriod: v.CliffPeriod, UnlockPeriod: v.UnlockPeriod,
		},
		AMMCreatorFeeOn: ammFeeOn,
	}, nil
}

// Rates are the fee rates of a trade in FeeRateDenominator units.
type Rates struct {
	Protocol uint64 // GlobalConfig.TradeFeeRate
	Platform uint64 // PlatformConfig.FeeRate
	Creator  uint64 // PlatformConfig.CreatorFeeRate
	Share    uint64 // the instruction's share_fee_rate
}

// RatesOf returns the rates of a trade under g and p with shareFeeRate.
func RatesOf(g *GlobalConfig, p *PlatformConfig, shareFeeRate uint64) Rates {
	return Rates{Protocol: g.TradeFeeRate, Platform: p.FeeRate, Creator: p.CreatorFeeRate, Share: shareFeeRate}
}

// Total is the sum of the rates.
func (r Rates) Total() uint64 { return r.Protocol + r.Platform + r.Creator + r.Share }

// Fees are the fees of one trade in quote units. Total is
// ceil(amount*Rates.Total()/1e6); platform, creator and share fees are
// rounded down and the protocol takes the rounding.
type Fees struct {
	Protocol, Platform, Creator, Share, Total uint64
}

func feesOn(amount uint64, r Rates) (Fees, error) {
	if r.Total() >= FeeRateDenominator {
		return Fees{}, ErrInvalidInput
	}
	var f Fees
	var ok bool
	if f.Total, ok = mulDiv(amount, r.Total(), FeeRateDenominator, true); !ok {
		return Fees{}, ErrMathOverflow
	}
	f.Platform, _ = mulDiv(amount, r.Platform, FeeRateDenominator, false)
	f.Creator, _ = mulDiv(amount, r.Creator, FeeRateDenominator, false)
	f.Share, _ = mulDiv(amount, r.Share, FeeRateDenominator, false)
	f.Protocol = f.Total - f.Platform - f.Creator - f.Share
	return f, nil
}

// BuyQuote is the outcome of buy_exact_in.
type BuyQuote struct {
	// AmountIn is the quote the buyer pays: the requested amount, or less
	// when the buy sells out the curve.
	AmountIn uint64
	Fees     Fees
	// NetIn is AmountIn less fees: what the curve's real quote grows by.
	NetIn uint64
	// AmountOut is the base the vault sends.
	AmountOut uint64
	// TransferFee is what a Token-2022 base mint with a transfer fee
	// withholds of AmountOut on its way to the buyer.
	TransferFee uint64
	// Completes tells that the buy sells the curve out: the pool moves to
	// StatusMigrate.
	Completes bool
}

// Received is the base the buyer's account is credited: AmountOut less the
// transfer fee.
func (q BuyQuote) Received() uint64 { return q.AmountOut - q.TransferFee }

// QuoteBuyExactIn returns what buy_exact_in spending amountIn quote does on
// p at rates r.
func QuoteBuyExactIn(p *PoolState, r Rates, amountIn uint64) (BuyQuote, error) {
	if p.Status != StatusFund {
		return BuyQuote{}, ErrPoolMigrated
	}
	if amountIn == 0 {
		return BuyQuote{}, ErrInvalidInput
	}
	f, err := feesOn(amountIn, r)
	if err != nil {
		return BuyQuote{}, err
	}
	net := amountIn - f.Total
	inRes, outRes, left, err := reserves(p)
	if err != nil {
		return BuyQuote{}, err
	}
	out, ok := mulDiv(net, outRes, inRes+net, false)
	if !ok {
		return BuyQuote{}, ErrMathOverflow
	}
	if out < left {
		if out == 0 {
			return BuyQuote{}, ErrInvalidInput
		}
		return BuyQuote{AmountIn: amountIn, Fees: f, NetIn: net, AmountOut: out}, nil
	}
	// The buy takes the rest of the curve and pays only for it.
	net, ok = mulDiv(left, inRes, outRes-left, true)
	if !ok {
		return BuyQuote{}, ErrMathOverflow
	}
	gross, ok := mulDiv(net, FeeRateDenominator, FeeRateDenominator-r.Total(), true)
	if !ok || gross > amountIn {
		return BuyQuote{}, ErrMathOverflow
	}
	if f, err = feesOn(gross, r); err != nil {
		return BuyQuote{}, err
	}
	return BuyQuote{AmountIn: gross, Fees: f, NetIn: gross - f.Total, AmountOut: left, Completes: true}, nil
}

// QuoteBuyExactInWithTransferFee is QuoteBuyExactIn on a pool whose base
// mint charges fee on every transfer (the fee in force this epoch, zero
// for a mint without one). The curve prices the buy as without it; the
// mint withholds the fee of AmountOut from what the buyer receives, which
// is what the SDK bounds by slippage (Raydium.launchpad.buyToken takes
// minMintAAmount from the amount less the fee).
func QuoteBuyExactInWithTransferFee(p *PoolState, r Rates, amountIn uint64, fee token2022.TransferFee) (BuyQuote, error) {
	q, err := QuoteBuyExactIn(p, r, amountIn)
	if err != nil {
		return BuyQuote{}, err
	}
	q.TransferFee = fee.Fee(q.AmountOut)
	return q, nil
}

// reserves returns the curve's quote reserve (virtual plus real), base
// reserve (virtual less sold) and the base left to sell.
func reserves(p *PoolState) (quote, base, left uint64, err error) {
	if p.RealBase > p.TotalBaseSell || p.RealBase >= p.VirtualBase {
		return 0, 0, 0, fmt.Errorf("launchlab: pool sold %d of %d with virtual base %d: %w", p.RealBase, p.TotalBaseSell, p.VirtualBase, ErrMathOverflow)
	}
	quote = p.VirtualQuote + p.RealQuote
	if quote < p.VirtualQuote {
		return 0, 0, 0, ErrMathOverflow
	}
	return quote, p.VirtualBase - p.RealBase, p.TotalBaseSell - p.RealBase, nil
}

// ApplyBuy updates p after q.
func (p *PoolState) ApplyBuy(q BuyQuote) {
	p.RealBase += q.AmountOut
	p.RealQuote += q.NetIn
	p.QuoteProtocolFee += q.Fees.Protocol
	if q.Completes || p.RealBase >= p.TotalBaseSell {
		p.Status = StatusMigrate
	}
}

// SellQuote is the outcome of sell_exact_in.
type SellQuote struct {
	// AmountIn is the base sold: what leaves the seller's account.
	AmountIn uint64
	// TransferFee is what a Token-2022 base mint with a transfer fee
	// withholds of AmountIn on its way to the vault; the curve prices
	// AmountIn less it.
	TransferFee uint64
	// GrossOut is the quote the curve gives up: what its real quote shrinks
	// by.
	GrossOut uint64
	Fees     Fees
	NetOut   uint64 // quote received: GrossOut less fees
}

// QuoteSellExactIn returns what sell_exact_in of amountIn base does on p at
// rates r.
func QuoteSellExactIn(p *PoolState, r Rates, amountIn uint64) (SellQuote, error) {
	if p.Status != StatusFund {
		return SellQuote{}, ErrPoolMigrated
	}
	if amountIn == 0 || amountIn > p.RealBase {
		return SellQuote{}, ErrInvalidInput
	}
	inRes, outRes, _, err := reserves(p)
	if err != nil {
		return SellQuote{}, err
	}
	gross, ok := mulDiv(amountIn, inRes, outRes+amountIn, false)
	if !ok || gross > p.RealQuote {
		return SellQuote{}, ErrMathOverflow
	}
	f, err := feesOn(gross, r)
	if err != nil {
		return SellQuote{}, err
	}
	if f.Total > gross {
		return SellQuote{}, ErrInvalidInput
	}
	return SellQuote{AmountIn: amountIn, GrossOut: gross, Fees: f, NetOut: gross - f.Total}, nil
}

// QuoteSellExactInWithTransferFee is QuoteSellExactIn on a pool whose base
// mint charges fee on every transfer (the fee in force this epoch, zero
// for a mint without one): the vault receives amountIn less the fee, and
// the curve prices that, as the SDK's Curve.sellExactIn does.
func QuoteSellExactInWithTransferFee(p *PoolState, r Rates, amountIn uint64, fee token2022.TransferFee) (SellQuote, error) {
	withheld := fee.Fee(amountIn)
	q, err := QuoteSellExactIn(p, r, amountIn-withheld)
	if err != nil {
		return SellQuote{}, err
	}
	q.AmountIn, q.TransferFee = amountIn, withheld
	return q, nil
}

// ApplySell updates p after q.
func (p *PoolState) ApplySell(q SellQuote) {
	p.RealBase -= q.AmountIn - q.TransferFee
	p.RealQuote -= q.GrossOut
	p.QuoteProtocolFee += q.Fees.Protocol
}

// MinOut returns out less slippageBps basis points, rounded half up as
// Raydium's SDK rounds it (buyToken and sellToken: the quote times one less
// the slippage, toFixed(0)): the minimum_amount_out of a trade quoted at
// out.
func MinOut(out, slippageBps uint64) uint64 {
	if slippageBps >= 10_000 {
		return 0
	}
	// floor((out*(10000-bps)*2 + 10000) / 20000) is half up.
	p := new(big.Int).Mul(new(big.Int).SetUint64(out), new(big.Int).SetUint64(10_000-slippageBps))
	p.Lsh(p, 1).Add(p, big.NewInt(10_000))
	return p.Quo(p, big.NewInt(20_000)).Uint64()
}
