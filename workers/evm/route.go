package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// market is where an order trades on one chain: every pool of the token
// against the quote asset that answered a quote for the order's whole
// input, the best of them, and the order's input per wallet.
type market struct {
	ch    *chainState
	side  wire.Side
	pools []*pool
	best  *pool
	// spend is each leg's input: a buy's amount of the quote asset, a
	// sell's share of the wallet's tokens (zero: the wallet holds none).
	spend []*big.Int
	// held is a sell's token balance per leg; nil for a buy.
	held  []*big.Int
	total *big.Int
	// tokenDecimals renders a buy's quotes in whole tokens.
	tokenDecimals uint8
	// head is the chain's latest header, read with the quotes: the swaps'
	// deadline and the order's fees start from it.
	head *types.Header
	// reason says why the chain was chosen among several, for the route.
	reason string
	// taxes are the pools' probed taxes, by pool, when max_tax had every
	// pool probed (chooseAfterTax); nil otherwise.
	taxes []*taxResult
}

// resolve finds where an order trades. On each candidate chain the order's
// whole input is quoted on the token's V2 pair and on its V3 pool of every
// fee tier, and the pool that pays the most (tokens for a buy, quote for a
// sell) is that chain's. With one candidate chain that is the order's
// pool; with several, every chain is asked at once, and of the chains that
// have a pool the one whose chosen pool holds the most quote value in US
// dollars wins (for a sell, among the chains where a wallet of the order
// holds the token, when any does), leaving out the chains whose pool is of
// a venue paused there: VENUE_PAUSED when that leaves none. pre holds the
// wallets' balances of the token when they were read already.
func (s *Signer) resolve(ctx context.Context, o *order, cands []*chainState, pre *reads) (*market, error) {
	found := make([]*market, len(cands))
	errs := make([]error, len(cands))
	g, gctx := guard.WithContext(ctx)
	for i, c := range cands {
		g.Go(func() error {
			found[i], errs[i] = s.marketOn(gctx, c, o, pre.on(c))
			return nil // one chain's failure does not hide another's pool
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err // a panic (guard): a defect, not a chain without a pool
	}
	var markets []*market
	var failed chainErrors
	var refusal *apierr.Error
	for i, m := range found {
		switch {
		case errs[i] != nil:
			var ae *apierr.Error
			if p := (*guard.Panic)(nil); errors.As(errs[i], &p) {
				return nil, p // a defect met in a group of marketOn's own
			}
			if !errors.As(errs[i], &ae) {
				failed = append(failed, fmt.Errorf("%s: %w", cands[i].Name, errs[i]))
			} else if refusal == nil {
				refusal = ae
			}
		case m != nil:
			markets = append(markets, m)
		}
	}
	// A chain that refuses the order (its amount in that chain's decimals)
	// is left out while another takes it; when none does, the refusal is
	// the answer.
	if refusal != nil && (len(cands) == 1 || len(markets) == 0) {
		return nil, refusal
	}
	if len(failed) > 0 && (len(cands) == 1 || len(markets) == 0) {
		return nil, fmt.Errorf("find pool of %s: %w", o.token.Hex(), failed)
	}
	if len(failed) > 0 {
		s.log.Warn("chains not searched for the token", "token", o.token.Hex(), "failed", failed.Error())
	}
	if len(markets) == 0 {
		where := "on " + cands[0].Name
		if len(cands) > 1 {
			where = "on any EVM chain"
		}
		against := quoteName(o.quote)
		if o.side == wire.Sell {
			against = "any of its quote assets"
		} else if err := s.poolOfAnotherQuote(ctx, o, cands); err != nil {
			return nil, err
		}
		return nil, apierr.Newf(apierr.TokenNotFound, o.token.Hex(), "no Uniswap V2 or V3 pool of %s against %s %s",
			o.token.Hex(), against, where)
	}
	if len(cands) == 1 {
		// Sign refuses it when its pool's venue is paused.
		return markets[0], nil
	}
	var why string
	switch {
	case len(markets) == 1:
		why = fmt.Sprintf(" (the only chain of %d with a pool)", len(cands))
		if o.side == wire.Buy {
			why = fmt.Sprintf(" (the only chain of %d with a pool against %s)", len(cands), quoteName(o.quote))
		}
	case o.side == wire.Sell:
		var held []*market
		for _, m := range markets {
			if m.total.Sign() > 0 {
				held = append(held, m)
			}
		}
		if len(held) > 1 {
			// One order trades on one chain: selling on one of them would
			// answer success and leave the holdings on the others.
			names := make([]string, len(held))
			for i, m := range held {
				names[i] = m.ch.Name
			}
			return nil, apierr.Invalid("chain", "the wallets hold %s on %s: name the chain to sell on (an order sells on one chain)",
				o.token.Hex(), strings.Join(names, " and "))
		}
		if len(held) > 0 {
			markets = held
		}
		if len(markets) == 1 {
			why = " (the only chain where the wallets hold the token)"
		}
	}
	// A chain whose pool is of a paused venue is left out; when every chain
	// is, the first one's pause is the answer.
	var open []*market
	var paused []string
	var pauseErr error
	for _, m := range markets {
		if err := s.venueOpen(m.best); err != nil {
			paused = append(paused, m.best.venue()+" paused on "+m.ch.Name)
			if pauseErr == nil {
				pauseErr = err
			}
			continue
		}
		open = append(open, m)
	}
	if len(open) == 0 {
		return nil, pauseErr
	}
	m := open[0]
	switch {
	case len(open) > 1:
		if err := sameUnit(o, open); err != nil {
			return nil, err
		}
		var err error
		if m, err = s.deepest(ctx, open); err != nil {
			return nil, err
		}
	case len(paused) > 0:
		m.reason = fmt.Sprintf(" (the only chain of %d with a pool whose venue trades)", len(cands))
	default:
		m.reason = why
	}
	if len(paused) > 0 {
		m.reason += " (left out: " + strings.Join(paused, ", ") + ")"
	}
	return m, nil
}

// poolOfAnotherQuote is the answer to a buy that found no pool against
// its quote asset when its address is itself a pool against another of the
// chain's quote assets: TOKEN_NOT_FOUND saying which quote_asset trades
// there. Nil when the address is no such pool, or cannot be asked.
func (s *Signer) poolOfAnotherQuote(ctx context.Context, o *order, cands []*chainState) error {
	for _, c := range cands {
		for _, q := range otherQuotes(c, o.quote) {
			base, err := s.basePool(ctx, c, o.token, q)
			if err != nil || base == nil {
				continue
			}
			if p, err := s.poolAt(ctx, *base, o.token); err == nil && p != nil {
				return apierr.Newf(apierr.TokenNotFound, o.token.Hex(), "%s is the Uniswap %s pool of %s against %s on %s, not against %s: a buy there names quote_asset %s",
					o.token.Hex(), p.label(), p.token.Hex(), q, c.Name, quoteName(o.quote), q)
			}
		}
	}
	return nil
}

// tradedWithoutQuote returns the first configured chain, of those that do
// not offer the order's quote asset (and so were not searched), where the
// token has a pool against one of that chain's quote assets; nil when
// there is none. Read only for a buy that found no pool.
func (s *Signer) tradedWithoutQuote(ctx context.Context, o *order, searched []*chainState) *chainState {
	for _, n := range s.order {
		c := s.chains[n]
		if _, ok := c.asset.Asset(o.quote); ok || slices.Contains(searched, c) {
			continue
		}
		for _, a := range c.asset.Assets {
			if _, ok := c.Quotes[a.Symbol]; !ok && !a.Native {
				continue
			}
			base, err := s.basePool(ctx, c, o.token, a.Symbol)
			if err != nil || base == nil {
				continue
			}
			if pools, _, err := s.quotePools(ctx, *base, wire.Buy, big.NewInt(1)); err == nil && len(pools) > 0 {
				return c
			}
		}
	}
	return nil
}

// sameUnit refuses a buy that several chains could take in different
// coins: its amount is of each chain's own quote asset, and with
// quote_asset omitted that is each chain's native coin, so that "1" would
// be 1 ETH on one chain and 1 BNB or 1 USDC on another, whichever pool is
// deepest. The bot names the chain. A sale's amount is a share of the
// wallets' tokens, the same on every chain.
func sameUnit(o *order, markets []*market) error {
	if o.side != wire.Buy {
		return nil
	}
	first := markets[0]
	for _, m := range markets[1:] {
		if m.best.symbol != first.best.symbol {
			return apierr.Invalid("chain", "%s trades on %s (%s) and on %s (%s), and the buy's amount would be of a different coin on each: name the chain",
				o.token.Hex(), first.ch.Name, first.best.symbol, m.ch.Name, m.best.symbol)
		}
	}
	return nil
}

// deepest returns the market whose chosen pool holds the most quote value
// in US dollars.
func (s *Signer) deepest(ctx context.Context, markets []*market) (*market, error) {
	best, bestUSD := -1, new(big.Rat)
	for i, m := range markets {
		usd, err := s.quoteDepthUSD(ctx, m.best)
		if err != nil {
			return nil, err
		}
		if best < 0 || usd.Cmp(bestUSD) > 0 {
			best, bestUSD = i, usd
		}
	}
	m := markets[best]
	m.reason = fmt.Sprintf(" (deepest of %d: $%s of %s)", len(markets), bestUSD.FloatString(2), m.best.symbol)
	return m, nil
}

// chainErrors are the failures of the chains a search could not ask, one
// each, as one error that errors.Is and errors.As see through.
type chainErrors []error

func (e chainErrors) Error() string {
	parts := make([]string, len(e))
	for i, err := range e {
		parts[i] = err.Error()
	}
	return strings.Join(parts, "; ")
}

func (e chainErrors) Unwrap() []error { return e }

func quoteName(symbol string) string {
	if symbol == "" {
		return "the native coin"
	}
	return symbol
}

// marketOn finds the token's pools against the order's quote asset on one
// chain and quotes the order's whole input on each; nil when there is
// none. The job's address may also be a pool itself, which then is the
// only one quoted. A sale receives what the token trades against: the
// quote asset it names when the token has a pool against it (of a token
// with several, that picks one), else the native coin, or when it has no
// pool against that either, the first of the chain's stables it has one
// against. pre holds the wallets' balances of the token when they were
// read already on this chain.
func (s *Signer) marketOn(ctx context.Context, c *chainState, o *order, pre *reads) (*market, error) {
	m, err := s.marketIn(ctx, c, o, o.quote, pre)
	if err != nil || m != nil || o.side != wire.Sell {
		return m, err
	}
	for _, q := range otherQuotes(c, o.quote) {
		if m, err := s.marketIn(ctx, c, o, q, pre); err != nil || m != nil {
			return m, err
		}
	}
	return nil, nil
}

// otherQuotes are the quote assets of c (its native coin and the stables
// configured) other than quote, in the chain's order.
func otherQuotes(c *chainState, quote string) []string {
	var out []string
	for _, a := range c.asset.Assets {
		if a.Symbol == quote || (quote == "" && a.Native) {
			continue
		}
		if _, ok := c.Quotes[a.Symbol]; ok || a.Native {
			out = append(out, a.Symbol)
		}
	}
	return out
}

// marketIn is marketOn's search of the token's pools against quote.
func (s *Signer) marketIn(ctx context.Context, c *chainState, o *order, quote string, pre *reads) (*market, error) {
	base, err := s.basePool(ctx, c, o.token, quote)
	if err != nil || base == nil {
		return nil, err
	}
	m := &market{ch: c, side: o.side}
	var unread error
	if err := s.inputs(ctx, m, base, o, pre); err != nil {
		if o.side == wire.Buy {
			// An amount the quote asset cannot hold here (more decimals
			// than it has on this chain) is this chain's refusal only
			// where the token trades against it.
			return s.refusedWhereTraded(ctx, base, err)
		}
		// A sell by pool address reads the pool's balances first, which a
		// V3 pool does not answer: it is no token, and has no pools.
		if !(callerr.IsRevert(err) || errors.Is(err, errDecode)) {
			return nil, err
		}
		unread = err
		m.total = new(big.Int)
	}
	pools, head, err := s.quotePools(ctx, *base, o.side, quotable(m.total))
	if err != nil {
		return nil, err
	}
	m.head = head
	if len(pools) == 0 {
		p, err := s.poolAt(ctx, *base, o.token)
		if err != nil || p == nil {
			return nil, err
		}
		if o.side == wire.Sell {
			// The balances read were of the pool's address.
			if err := s.inputs(ctx, m, p, o, nil); err != nil {
				return nil, err
			}
		}
		q, err := s.quoteOne(ctx, p, o.side, quotable(m.total))
		if err != nil || q == nil {
			return nil, err
		}
		pools = []*pool{q}
	} else if unread != nil {
		// The address is a token with pools: its balances' reads failing
		// is the chain's trouble, not a pool's address, and the sale
		// knows not what it sells.
		return nil, fmt.Errorf("read the wallets' balances of %s: %w", o.token.Hex(), unread)
	}
	// A pool of a venue paused on the chain is left out while another
	// trades; when none does, the best is chosen and Sign refuses it.
	if open := slices.DeleteFunc(slices.Clone(pools), func(p *pool) bool { return s.venueOpen(p) != nil }); len(open) > 0 {
		pools = open
	}
	m.pools = pools
	m.best = pools[0]
	for _, p := range pools[1:] {
		// Ties keep the earlier pool: V2 before V3, lower fee tiers first.
		if p.out.Cmp(m.best.out) > 0 {
			m.best = p
		}
	}
	if m.tokenDecimals, err = s.decimalsOf(ctx, c, m.best.token); err != nil {
		return nil, err
	}
	return m, nil
}

// refusedWhereTraded returns a buy's refusal of its amount on base's chain
// (refusal) when the token has a pool there against base's quote asset,
// and no market, no refusal, when it has none.
func (s *Signer) refusedWhereTraded(ctx context.Context, base *pool, refusal error) (*market, error) {
	pools, _, err := s.quotePools(ctx, *base, wire.Buy, big.NewInt(1))
	if err != nil {
		return nil, err
	}
	if len(pools) == 0 {
		p, err := s.poolAt(ctx, *base, base.token)
		if err != nil || p == nil {
			return nil, err
		}
	}
	return nil, refusal
}

// quotable is the amount the pools are quoted for: the order's input, or
// one base unit when it has none (a sell where no wallet holds the token),
// so that the pools that exist still answer.
func quotable(total *big.Int) *big.Int {
	if total.Sign() > 0 {
		return total
	}
	return big.NewInt(1)
}

// basePool is what every pool of token against quote (a quote asset's
// symbol, "" for the native coin) on a chain shares: the token, the quote
// token and its decimals; nil when the token is the quote.
func (s *Signer) basePool(ctx context.Context, c *chainState, token common.Address, quote string) (*pool, error) {
	a, _ := c.asset.Asset(quote)
	p := &pool{ch: c, token: token, symbol: a.Symbol}
	p.quote, p.native = c.quoteToken(a)
	if p.native {
		p.quoteDecimals = 18
	} else {
		d, err := s.decimalsOf(ctx, c, p.quote)
		if err != nil {
			return nil, err
		}
		p.quoteDecimals = d
	}
	if p.token == p.quote {
		return nil, nil
	}
	return p, nil
}

// inputs sets each leg's input of the order on a chain: a buy's amount,
// parsed in the quote asset's decimals, or a sell's percent of the
// wallet's token balance.
func (s *Signer) inputs(ctx context.Context, m *market, p *pool, o *order, pre *reads) error {
	m.spend = make([]*big.Int, len(o.legs))
	m.total = new(big.Int)
	if o.side == wire.Buy {
		for i, l := range o.legs {
			v, err := money.ParseUnits(l.amount, int(p.quoteDecimals))
			if err != nil {
				return apierr.Invalid(l.field,
					"buy amount %q is not a positive amount of %s with at most %d decimals", l.amount, p.symbol, p.quoteDecimals)
			}
			m.spend[i] = v
			m.total.Add(m.total, v)
			if m.total.BitLen() > 256 {
				// No balance, quote or call holds it: the pools would
				// answer as if there were none.
				return apierr.Invalid(l.field, "buy amount %q of %s is more than an EVM amount can hold (with the order's other wallets')", l.amount, p.symbol)
			}
		}
		return nil
	}
	held, err := s.balancesOf(ctx, p.ch, p.token, o, pre)
	if err != nil {
		return err
	}
	// What the wallets' sales signed here and not yet mined take is not
	// theirs to sell again.
	if held, err = s.unspent(ctx, p.ch, o, p.token, held, pre); err != nil {
		return err
	}
	m.held = held
	var unit *big.Int
	if o.sellTokens {
		d, err := s.decimalsOf(ctx, p.ch, p.token)
		if err != nil {
			return err
		}
		unit = money.Pow10(int(d))
	}
	for i, l := range o.legs {
		if l.tokens != nil {
			// A quantity above what the wallet holds, less its sales in
			// flight, sells what is left.
			v := new(big.Int).Mul(l.tokens.Num(), unit)
			v.Quo(v, l.tokens.Denom())
			m.spend[i] = new(big.Int).Set(bigMin(v, held[i]))
		} else {
			m.spend[i] = percentOf(held[i], l.percent)
		}
		m.total.Add(m.total, m.spend[i])
	}
	return nil
}

// balancesOf reads every leg's wallet's balance of token, or takes them
// from pre when it read them.
func (s *Signer) balancesOf(ctx context.Context, c *chainState, token common.Address, o *order, pre *reads) ([]*big.Int, error) {
	if pre != nil {
		if err := pre.wait(ctx); err != nil {
			return nil, err
		}
		if pre.held != nil && pre.spent == token {
			return pre.held, nil
		}
	}
	out := make([]*big.Int, len(o.legs))
	g, gctx := guard.WithContext(ctx)
	for i, l := range o.legs {
		g.Go(func() (err error) {
			out[i], err = s.tokenBalance(gctx, c, token, l.wallet)
			return err
		})
	}
	return out, g.Wait()
}

// route says where the order trades and why, for the order lookup:
//
//	uniswap_v3 fee 500 pool 0xPOOL on base (ETH): best of v2 990.1, v3/500 1020.5, v3/3000 1010 tokens for 0.01 ETH
//	uniswap_v2 pool 0xPAIR on eth (USDC): best of v2 24.75, v3/10000 24.1 USDC for 1000000 tokens
//	uniswap_v3 fee 500 pool 0xPOOL on base (ETH): best after tax of v2 975.2 (tax 2.5%), v3/500 989.1 (tax 0%) tokens for 0.01 ETH
//
// venue, the fee tier for V3, the pool, the chain and the quote asset,
// then every pool quoted with what it pays for the order's whole input in
// whole units (cut to six decimals), in venue order, and that input; when
// max_tax had every pool's tax probed, what each pays after its tax. A
// job without a chain gets the reason for the chain after it: "(the only
// chain of 5 with a pool)", "(the only chain where the wallets hold the
// token)", or "(deepest of 2: $24000.00 of ETH)".
func (m *market) route() string {
	p := m.best
	var b strings.Builder
	b.WriteString(p.venue())
	if p.v3 {
		fmt.Fprintf(&b, " fee %d", p.fee)
	}
	fmt.Fprintf(&b, " pool %s on %s (%s): best ", p.addr.Hex(), m.ch.Name, p.symbol)
	outDec, outUnit, inDec, inUnit := int(m.tokenDecimals), "tokens", int(p.quoteDecimals), p.symbol
	if m.side == wire.Sell {
		outDec, outUnit, inDec, inUnit = int(p.quoteDecimals), p.symbol, int(m.tokenDecimals), "tokens"
	}
	if m.taxes != nil {
		b.WriteString("after tax ")
	}
	b.WriteString("of ")
	for i, q := range m.pools {
		if i > 0 {
			b.WriteString(", ")
		}
		if t := m.tax(i); t != nil {
			// What the pool pays after its tax, and the tax.
			bps := t.buyBps
			if m.side == wire.Sell {
				bps = t.sellBps
			}
			fmt.Fprintf(&b, "%s %s (tax %g%%)", q.label(), wholeUnits(afterTax(q.out, bps), outDec), float64(bps)/100)
			continue
		}
		fmt.Fprintf(&b, "%s %s", q.label(), wholeUnits(q.out, outDec))
	}
	fmt.Fprintf(&b, " %s for %s %s", outUnit, wholeUnits(m.total, inDec), inUnit)
	b.WriteString(m.reason)
	return b.String()
}

// tax is the probed tax of the market's pool i, nil when it was not
// probed.
func (m *market) tax(i int) *taxResult {
	if i < len(m.taxes) {
		return m.taxes[i]
	}
	return nil
}

// wholeUnits renders base units in whole units, cut to six decimals; a
// positive amount below a millionth is shown exactly.
func wholeUnits(v *big.Int, decimals int) string {
	s := money.Format(v, decimals)
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) <= 6 {
		return s
	}
	cut := strings.TrimRight(frac[:6], "0")
	if cut == "" {
		if whole == "0" {
			return s
		}
		return whole
	}
	return whole + "." + cut
}
