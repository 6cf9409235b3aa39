package evm

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// nativeUSD is the dollar value of one whole native coin: one on a chain
// whose native coin is a dollar, else the price in the V2 pair of the
// wrapped native coin and the chain's pricing stable coin, or, on a chain
// without that pair, in their V3 pool that holds the most of the stable.
func (s *Signer) nativeUSD(ctx context.Context, c *chainState) (*big.Rat, error) {
	if c.USDPricing.NativeIsUSD {
		return big.NewRat(1, 1), nil
	}
	stable := c.Quotes[c.USDPricing.Stable]
	var price *big.Rat // stable base units per wrapped native base unit
	var dec uint8
	g, gctx := guard.WithContext(ctx)
	g.Go(func() (err error) {
		price, err = s.stablePrice(gctx, c, stable)
		return err
	})
	g.Go(func() (err error) {
		dec, err = s.decimalsOf(gctx, c, stable)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// (stable / 10^dec) per (native / 10^18)
	return price.Mul(price, new(big.Rat).SetFrac(money.Pow10(18), money.Pow10(int(dec)))), nil
}

// stablePrice is the price of a base unit of the wrapped native coin in
// base units of the stable: from their V2 pair's reserves, or from the V3
// pool of theirs that holds the most of the stable.
func (s *Signer) stablePrice(ctx context.Context, c *chainState, stable common.Address) (*big.Rat, error) {
	base := pool{ch: c, token: c.WrappedNative, quote: stable}
	pair, err := s.v2Pool(ctx, base, wire.Buy, big.NewInt(1))
	if err != nil {
		return nil, err
	}
	if pair != nil {
		return s.priceRat(ctx, pair)
	}
	tiers := uniswap.FeeTiers()
	depths := make([]*big.Int, len(tiers))
	g, gctx := guard.WithContext(ctx)
	for i, fee := range tiers {
		g.Go(func() (err error) {
			depths[i], err = s.tokenBalance(gctx, c, stable, uniswap.V3PoolAddress(c.V3Factory, c.WrappedNative, stable, fee))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	best := -1
	for i, d := range depths {
		if d.Sign() > 0 && (best < 0 || d.Cmp(depths[best]) > 0) {
			best = i
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("%s: no V2 pair or V3 pool of the wrapped native coin and %s to price it", c.Name, c.USDPricing.Stable)
	}
	p := base
	p.v3, p.fee = true, tiers[best]
	p.addr = uniswap.V3PoolAddress(c.V3Factory, c.WrappedNative, stable, p.fee)
	return s.priceRat(ctx, &p)
}

// quoteUSD is the dollar value of one whole unit of the pool's quote asset;
// stable coins count as one dollar.
func (s *Signer) quoteUSD(ctx context.Context, p *pool) (*big.Rat, error) {
	if p.native {
		return s.nativeUSD(ctx, p.ch)
	}
	return big.NewRat(1, 1), nil
}

// quoteDepthUSD is the dollar value of the pool's holding of the quote
// token (quoteDepth).
func (s *Signer) quoteDepthUSD(ctx context.Context, p *pool) (*big.Rat, error) {
	var px *big.Rat
	var depth *big.Int
	g, gctx := guard.WithContext(ctx)
	g.Go(func() (err error) {
		px, err = s.quoteUSD(gctx, p)
		return err
	})
	g.Go(func() (err error) {
		depth, err = s.quoteDepth(gctx, p)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	v := new(big.Rat).SetFrac(depth, money.Pow10(int(p.quoteDecimals)))
	return v.Mul(v, px), nil
}

// checkBounds applies the job's liquidity and market-cap bounds to the
// pool the order trades on. Liquidity is twice the dollar value of the
// pool's holding of the quote token: a V2 pair's quote reserve, a V3
// pool's balance of the quote token, so that a pool counts as deep as the
// quote it can pay out, as on V2. The market cap is the token's price in
// the pool (a V2 pair's reserves, a V3 pool's current price from slot0)
// times its total supply. The figures are exact rationals; only the
// comparison with the job's bounds uses floats.
func (s *Signer) checkBounds(ctx context.Context, p *pool, job *wire.SwapJob) error {
	liq := job.MinLiquidityUSD != nil || job.MaxLiquidityUSD != nil
	mcap := job.MinMarketCapUSD != nil || job.MaxMarketCapUSD != nil
	if !liq && !mcap {
		return nil
	}
	if liq {
		depthUSD, err := s.quoteDepthUSD(ctx, p)
		if err != nil {
			return err
		}
		v := new(big.Rat).Mul(depthUSD, big.NewRat(2, 1))
		if f, _ := v.Float64(); outside(f, job.MinLiquidityUSD, job.MaxLiquidityUSD) {
			return apierr.Newf(apierr.LiquidityOutOfRange, usd(v), "pool liquidity $%s is outside %s", usd(v),
				bounds(job.MinLiquidityUSD, job.MaxLiquidityUSD))
		}
	}
	if mcap {
		v, err := s.marketCapUSD(ctx, p)
		if err != nil {
			return err
		}
		if f, _ := v.Float64(); outside(f, job.MinMarketCapUSD, job.MaxMarketCapUSD) {
			return apierr.Newf(apierr.MarketCapOutOfRange, usd(v), "market cap $%s is outside %s", usd(v),
				bounds(job.MinMarketCapUSD, job.MaxMarketCapUSD))
		}
	}
	return nil
}

// marketCapUSD is the token's price in the pool times its total supply, in
// dollars.
func (s *Signer) marketCapUSD(ctx context.Context, p *pool) (*big.Rat, error) {
	var price, px *big.Rat
	var supply *big.Int
	g, gctx := guard.WithContext(ctx)
	g.Go(func() (err error) {
		price, err = s.priceRat(gctx, p)
		return err
	})
	g.Go(func() (err error) {
		px, err = s.quoteUSD(gctx, p)
		return err
	})
	g.Go(func() error {
		out, err := call(gctx, p.ch, p.token, erc20ABI, "totalSupply")
		if err != nil {
			return err
		}
		supply, err = unpackOne[*big.Int](erc20ABI, "totalSupply", out)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// price is quote base units per token base unit, so the cap in quote
	// base units is price * supply, whatever the token's decimals.
	v := new(big.Rat).Mul(price, new(big.Rat).SetInt(supply))
	v.Quo(v, new(big.Rat).SetInt(money.Pow10(int(p.quoteDecimals))))
	return v.Mul(v, px), nil
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
