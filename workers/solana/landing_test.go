package solana

import (
	"math/rand"
	"testing"

	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestBoundHoldsInAnyLandingOrder: each leg's bound is what it gets landing
// after its order's other legs in any order, their rounding included: the
// others replayed in planning order alone left the last leg of a ten-leg
// PumpSwap sale at slippage 0 a unit short in five orders of nine, refused
// ExceededSlippage (the swap rounds down and each fee up, so the pool after
// the same sales differs by their order).
func TestBoundHoldsInAnyLandingOrder(t *testing.T) {
	rates := pumpswap.Rates{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 5}
	start := pumpswap.Reserves{Base: 200_000_000_000_000, Quote: 85_000_000_000}
	rng := rand.New(rand.NewSource(1))
	trade := func(side wire.Side, r *pumpswap.Reserves, in uint64) (uint64, bool) {
		if side == wire.Sell {
			q, err := pumpswap.QuoteSell(*r, rates, in)
			if err != nil {
				return 0, false
			}
			r.ApplySell(q)
			return q.Net, true
		}
		q, err := pumpswap.QuoteBuyExactQuoteIn(*r, rates, in)
		if err != nil {
			return 0, false
		}
		r.ApplyBuy(q)
		return q.BaseOut, true
	}
	for round := range 60 {
		side, n := wire.Sell, 2+rng.Intn(exactLegs-1)
		if round%2 == 1 {
			side = wire.Buy
		}
		o := &order{side: side, legs: make([]leg, n)}
		for i := range o.legs {
			if side == wire.Sell {
				o.legs[i].sell.Amount = 1_000_000_000 + uint64(rng.Int63n(9_000_000_000_000))
			} else {
				o.legs[i].spend = 1_000_000 + uint64(rng.Int63n(5_000_000_000))
			}
		}
		amount := func(l *leg) uint64 { return max(l.spend, l.sold()) }
		bound := make([]uint64, n)
		boundAsLast(o, func() func(uint64) (uint64, bool) {
			r := start
			return func(in uint64) (uint64, bool) { return trade(side, &r, in) }
		}, func(l *leg, out uint64) {
			for i := range o.legs {
				if &o.legs[i] == l {
					bound[i] = out
				}
			}
		})
		for last := range o.legs {
			others := make([]int, 0, n-1)
			for j := range o.legs {
				if j != last {
					others = append(others, j)
				}
			}
			for range 100 {
				rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
				r := start
				for _, j := range others {
					trade(side, &r, amount(&o.legs[j]))
				}
				if got, _ := trade(side, &r, amount(&o.legs[last])); got < bound[last] {
					t.Fatalf("round %d, %s of %d legs: leg %d bound %d, landing after %v gives %d", round, side, n, last, bound[last], others, got)
				}
			}
		}
	}
}
