package solana

import "github.com/tradeapi/tradeapi/shared/wire"

// An order's legs are sent at once and land in any order, so each leg's
// least out (its min-out) is bounded by what it gets landing after every
// other leg of the order, the worst of those orders, and not by the order
// the legs were planned in: otherwise a leg planned first whose later
// siblings landed before it moved the price past its slippage bound, and
// failed. Slippage then covers what other traders do.

// exactLegs is how many trading legs an order may have for each leg's
// bound to replay the others one by one (n² quotes); above it, the others
// are one trade of their sum, which moves the curve as far but for the
// fees' rounding and tiers, far inside any slippage but none.
const exactLegs = 16

// boundAsLast hands lower, for each leg of o that trades when the order
// has several, what the leg gets landing after every other trading leg,
// for the venue to lower the leg's least out to that less slippage. fresh
// returns a trader on the market as read: each call trades an amount in (a
// buy's spend, a sale's tokens) and returns what comes out, false when the
// market refuses it (the others alone would complete the curve), and the
// planned bound stays.
func boundAsLast(o *order, fresh func() func(in uint64) (uint64, bool), lower func(l *leg, out uint64)) {
	amountOf := func(l *leg) uint64 {
		if o.side == wire.Buy {
			return l.spend
		}
		return l.sold()
	}
	trading := make([]int, 0, len(o.legs))
	for i := range o.legs {
		if o.legs[i].skip == "" {
			trading = append(trading, i)
		}
	}
	if len(trading) < 2 {
		return
	}
	var total uint64
	saturated := false
	for _, i := range trading {
		if total+amountOf(&o.legs[i]) < total {
			saturated = true
		}
		total += amountOf(&o.legs[i])
	}
	for _, i := range trading {
		trade, ok := fresh(), true
		switch {
		case len(trading) <= exactLegs:
			for _, j := range trading {
				if j != i && ok {
					_, ok = trade(amountOf(&o.legs[j]))
				}
			}
		case saturated:
			ok = false
		default:
			_, ok = trade(total - amountOf(&o.legs[i]))
		}
		if !ok {
			continue
		}
		if out, ok := trade(amountOf(&o.legs[i])); ok {
			lower(&o.legs[i], out-min(out, orderSlack(out, len(trading)-1)))
		}
	}
}

// orderSlack is how much less than out, what a leg gets landing after its
// others replayed in planning order, it may get after them in another
// order: a pool that keeps its fees (PumpSwap's LP fee) ends in a state
// that depends on the order of the trades through it, by well under a
// millionth of a leg's out over sixteen legs that each move the price
// several percent; and each trade rounds (the swap down, each fee up).
// Ten millionths of out, and a few units per other leg, keep a leg's bound
// the worst of those orders: at slippage 0, an order of several legs is
// not failed by its own legs' order. With one other leg there is one order,
// and no slack.
func orderSlack(out uint64, others int) uint64 {
	const perMillion, perLeg = 10, 4
	if others < 2 {
		return 0
	}
	return out/1_000_000*perMillion + perLeg*uint64(others)
}
