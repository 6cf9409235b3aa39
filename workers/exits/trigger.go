package exits

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// priceDigits is how many fractional digits a stored price keeps: memecoin
// prices in SOL or ETH per token run to 1e-10 and below.
const priceDigits = 24

// formatPrice writes a price as a plain decimal.
func formatPrice(r *big.Rat) string {
	if r == nil {
		return ""
	}
	s := r.FloatString(priceDigits)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// exact writes a price exactly, as a fraction; "" for nil.
func exact(r *big.Rat) string {
	if r == nil {
		return ""
	}
	return r.RatString()
}

// storedEntry and storedHigh are a position's entry and highest price as
// stored: exactly where the record has them, else its decimals.
func storedEntry(p *wire.Position) *big.Rat {
	if r := parseRat(p.EntryExact); r != nil {
		return r
	}
	return parseRat(p.EntryPrice)
}

func storedHigh(p *wire.Position) *big.Rat {
	if r := parseRat(p.HighExact); r != nil {
		return r
	}
	return parseRat(p.HighPrice)
}

// setHigh stores h as p's highest price.
func setHigh(p *wire.Position, h *big.Rat) {
	p.HighPrice, p.HighExact = formatPrice(h), exact(h)
}

func parseRat(s string) *big.Rat {
	if s == "" {
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

func parseInt(s string) *big.Int {
	if s == "" {
		return nil
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil
	}
	return v
}

func maxRat(a, b *big.Rat) *big.Rat {
	switch {
	case a == nil:
		return b
	case b == nil || a.Cmp(b) >= 0:
		return a
	}
	return b
}

func maxInt(a, b *big.Int) *big.Int {
	switch {
	case a == nil:
		return b
	case b == nil || a.Cmp(b) >= 0:
		return a
	}
	return b
}

// wholePrice is quote per whole token from base-unit amounts.
func wholePrice(quote, tokens *big.Int, quoteDecimals, decimals uint8) *big.Rat {
	if tokens.Sign() == 0 {
		return nil
	}
	r := new(big.Rat).SetFrac(quote, tokens)
	return r.Mul(r, new(big.Rat).SetFrac(pow10(decimals), pow10(quoteDecimals)))
}

func pow10(n uint8) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// decimalRat is a percent as the decimal the client wrote (10.1, not the
// binary float nearest to it), so that a trigger at exactly 10 percent
// fires at exactly 10 percent.
func decimalRat(v float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'f', -1, 64))
	if !ok {
		return nil
	}
	return r
}

// scaled returns base * (1 + sign*pct/100).
func scaled(base *big.Rat, pct float64, sign int64) *big.Rat {
	f := decimalRat(pct)
	if f == nil {
		return nil
	}
	f.Quo(f, big.NewRat(100, 1))
	f.Mul(f, big.NewRat(sign, 1))
	f.Add(f, big.NewRat(1, 1))
	return f.Mul(f, base)
}

// lines returns, for each exit of p, the price at which it fires: the
// take-profit and stop-loss lines from the entry, the trailing stop's from
// the highest price (the entry when none is known); nil for the exits that
// do not fire on a price. They are computed when a position or its high
// changes, so a price read costs one comparison per exit.
func lines(p *wire.Position, entryPrice, high *big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(p.Exits))
	if entryPrice == nil {
		return out
	}
	for i, x := range p.Exits {
		if x.TriggerPct == nil {
			continue
		}
		switch x.Type {
		case wire.ExitTakeProfit:
			out[i] = scaled(entryPrice, *x.TriggerPct, 1)
		case wire.ExitStopLoss:
			out[i] = scaled(entryPrice, *x.TriggerPct, -1)
		case wire.ExitTrailingStop:
			out[i] = scaled(maxRat(high, entryPrice), *x.TriggerPct, -1)
		}
	}
	return out
}

// devSellReads is how many reads in a row must find the creator holding
// less than the most seen before a dev_sell fires: one poll interval
// later than the first such read, and never on a single stale answer.
const devSellReads = 2

// due reports whether exit x of position p is due, given its price line
// (see lines), how many reads in a row found the creator holding less than
// the most seen, and the latest observation (whose Price is nil when the
// read failed: only a time exit can fire then).
func due(x *wire.Exit, line *big.Rat, lineF float64, p *wire.Position, devLow int, obs Observation, now time.Time) bool {
	if x.State != wire.ExitArmed || (x.RetryAt != nil && now.Before(*x.RetryAt)) {
		return false
	}
	switch x.Type {
	case wire.ExitTime:
		at, ok := timeDueAt(p.BoughtAt, x.AfterSeconds)
		return ok && !now.Before(at)
	case wire.ExitDevSell:
		return devLow >= devSellReads
	}
	if obs.Price == nil || line == nil {
		return false
	}
	c := cmpPrice(obs.Price, obs.approx, line, lineF)
	if x.Type == wire.ExitTakeProfit {
		return c >= 0
	}
	return c <= 0
}

// maxAfterSeconds is the longest wait of a time exit (DECISIONS: 2592000
// seconds, 30 days). Ingress refuses more; the engine also refuses to
// compute a due time from more, whatever a stored position says.
const maxAfterSeconds = 30 * 24 * 3600

// timeDueAt returns when a time exit of a buy made at bought falls due. ok
// is false for a wait outside 1 to maxAfterSeconds: such a stored value (a
// record older than the bound, or a damaged one) never falls due, instead
// of wrapping around into a time already past and firing at once.
func timeDueAt(bought time.Time, after *int64) (at time.Time, ok bool) {
	if after == nil || *after <= 0 || *after > maxAfterSeconds {
		return time.Time{}, false
	}
	return bought.Add(secondsDuration(*after)), true
}

// secondsDuration converts whole seconds to a Duration, saturating at the
// largest (or smallest) Duration instead of overflowing.
func secondsDuration(s int64) time.Duration {
	const limit = int64(math.MaxInt64 / int64(time.Second))
	switch {
	case s > limit:
		return time.Duration(math.MaxInt64)
	case s < -limit:
		return time.Duration(math.MinInt64)
	}
	return time.Duration(s) * time.Second
}

// approx is a price as a float64, for the quick comparison of cmpPrice.
func approx(r *big.Rat) float64 {
	if r == nil {
		return 0
	}
	f, _ := r.Float64()
	return f
}

// cmpPrice compares two positive prices, given with their float64
// approximations: the floats decide when they are clearly apart, and the
// exact values when they are within a relative 1e-9 of each other, so a
// price read costs a float comparison per exit and stays exact at the line.
func cmpPrice(a *big.Rat, af float64, b *big.Rat, bf float64) int {
	const eps = 1e-9
	switch {
	case af > bf*(1+eps):
		return 1
	case af < bf*(1-eps):
		return -1
	}
	return a.Cmp(b)
}

// firstDue returns the index of the first due exit of an entry, or -1.
func firstDue(en *entry, obs Observation, now time.Time) int {
	if obs.Price != nil && obs.approx == 0 {
		obs.approx = approx(obs.Price)
	}
	for i := range en.p.Exits {
		if due(&en.p.Exits[i], en.lines[i], en.linesF[i], en.p, en.devLow, obs, now) {
			return i
		}
	}
	return -1
}

// sellAmount is what a firing exit sells: sell_pct of the remaining
// tokens, rounded down, and all of them at 100 percent (or when rounding
// would leave nothing to sell).
func sellAmount(remaining *big.Int, pct float64) (amount *big.Int, all bool) {
	if pct >= 100 {
		return new(big.Int).Set(remaining), true
	}
	f := decimalRat(pct)
	if f == nil {
		return new(big.Int).Set(remaining), true
	}
	v := new(big.Int).Mul(remaining, f.Num())
	v.Quo(v, new(big.Int).Mul(f.Denom(), big.NewInt(100)))
	if v.Sign() == 0 {
		return new(big.Int).Set(remaining), true
	}
	return v, v.Cmp(remaining) >= 0
}
