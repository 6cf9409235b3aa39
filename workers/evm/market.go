package evm

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// nativeUSD is the dollar value of one whole native coin: one on a chain
// whose native coin is a dollar, else the price in the pair of the wrapped
// native coin and the chain's pricing stable coin.
func (s *Signer) nativeUSD(ctx context.Context, c *chainState) (*big.Rat, error) {
	if c.USDPricing.NativeIsUSD {
		return big.NewRat(1, 1), nil
	}
	stable := c.Quotes[c.USDPricing.Stable]
	info, err := s.pairOf(ctx, c, c.WrappedNative, stable)
	if err != nil {
		return nil, err
	}
	if info.addr == ([20]byte{}) {
		return nil, fmt.Errorf("%s: no %s pair of the wrapped native coin to price it", c.Name, c.USDPricing.Stable)
	}
	var r0, r1 *big.Int
	var dec uint8
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		r0, r1, err = s.reserves(gctx, c, info.addr)
		return err
	})
	g.Go(func() (err error) {
		dec, err = s.decimalsOf(gctx, c, stable)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	rNative, rStable := r0, r1
	if info.token0 != c.WrappedNative {
		rNative, rStable = r1, r0
	}
	if rNative.Sign() == 0 {
		return nil, fmt.Errorf("%s: the %s pricing pair is empty", c.Name, c.USDPricing.Stable)
	}
	// (rStable / 10^dec) / (rNative / 10^18)
	num := new(big.Int).Mul(rStable, money.Pow10(18))
	den := new(big.Int).Mul(rNative, money.Pow10(int(dec)))
	return new(big.Rat).SetFrac(num, den), nil
}

// quoteUSD is the dollar value of one whole unit of the pool's quote asset;
// stable coins count as one dollar.
func (s *Signer) quoteUSD(ctx context.Context, p *pool) (*big.Rat, error) {
	if p.native {
		return s.nativeUSD(ctx, p.ch)
	}
	return big.NewRat(1, 1), nil
}

// quoteReserveUSD is the dollar value of the pool's quote reserve.
func (s *Signer) quoteReserveUSD(ctx context.Context, p *pool) (*big.Rat, error) {
	px, err := s.quoteUSD(ctx, p)
	if err != nil {
		return nil, err
	}
	v := new(big.Rat).SetFrac(p.reserveQuote, money.Pow10(int(p.quoteDecimals)))
	return v.Mul(v, px), nil
}

// checkBounds applies the job's liquidity and market-cap bounds. Liquidity
// is twice the pool's quote reserve in dollars; the market cap is the
// token's price in the pool times its total supply. The figures are exact
// rationals; only the comparison with the job's bounds uses floats.
func (s *Signer) checkBounds(ctx context.Context, p *pool, job *wire.SwapJob) error {
	liq := job.MinLiquidityUSD != nil || job.MaxLiquidityUSD != nil
	mcap := job.MinMarketCapUSD != nil || job.MaxMarketCapUSD != nil
	if !liq && !mcap {
		return nil
	}
	reserveUSD, err := s.quoteReserveUSD(ctx, p)
	if err != nil {
		return err
	}
	if liq {
		v := new(big.Rat).Mul(reserveUSD, big.NewRat(2, 1))
		if f, _ := v.Float64(); outside(f, job.MinLiquidityUSD, job.MaxLiquidityUSD) {
			return apierr.Newf(apierr.LiquidityOutOfRange, usd(v), "pool liquidity $%s is outside %s", usd(v),
				bounds(job.MinLiquidityUSD, job.MaxLiquidityUSD))
		}
	}
	if mcap {
		out, err := call(ctx, p.ch, p.token, erc20ABI, "totalSupply")
		if err != nil {
			return err
		}
		supply, err := unpackOne[*big.Int](erc20ABI, "totalSupply", out)
		if err != nil {
			return err
		}
		// The price of a base unit is reserveUSD / reserveToken, so the cap
		// is reserveUSD * supply / reserveToken, whatever the decimals.
		v := new(big.Rat).Mul(reserveUSD, new(big.Rat).SetFrac(supply, p.reserveToken))
		if f, _ := v.Float64(); outside(f, job.MinMarketCapUSD, job.MaxMarketCapUSD) {
			return apierr.Newf(apierr.MarketCapOutOfRange, usd(v), "market cap $%s is outside %s", usd(v),
				bounds(job.MinMarketCapUSD, job.MaxMarketCapUSD))
		}
	}
	return nil
}

func outside(v float64, lo, hi *float64) bool {
	return (lo != nil && v < *lo) || (hi != nil && v > *hi)
}

// usd renders a dollar figure with cents, as details carry it.
func usd(v *big.Rat) string { return v.FloatString(2) }

func bounds(lo, hi *float64) string {
	f := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
	switch {
	case lo != nil && hi != nil:
		return "[$" + f(lo) + ", $" + f(hi) + "]"
	case lo != nil:
		return "the minimum $" + f(lo)
	default:
		return "the maximum $" + f(hi)
	}
}
