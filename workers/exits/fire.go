package exits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func errUnservedChain(chain string) error {
	return fmt.Errorf("chain %q is not served by this engine", chain)
}

// evaluate checks every position of a token against one observation: it
// fires the first due exit of each position that has no sell in flight,
// and stores a new high or a larger creator holding of the others.
func (e *Engine) evaluate(ctx context.Context, k tokenKey, obs Observation) {
	now := e.now()
	obs.approx = approx(obs.Price)
	var fires []dueExit
	for _, en := range e.book.watching(k, obs) {
		p := en.p
		if p.State != wire.PositionOpen {
			continue
		}
		if i := firstDue(&en, obs, now); i >= 0 && p.PendingSell == "" {
			fires = append(fires, dueExit{en: en, i: i})
			continue
		}
		e.notDue(p.ID)
		if e.extremesMoved(p, en) {
			e.storeExtremes(ctx, p.ID, en)
		}
	}
	e.fireAll(ctx, fires, obs, "")
}

// fireAll fires due exits: each account's in turn, the accounts side by
// side, so that an account with thousands of exits due at once (its claims
// and budget reservations take a round trip each) delays no other
// account's. reason is why they fire late, "" when they do not.
func (e *Engine) fireAll(ctx context.Context, due []dueExit, obs Observation, reason string) {
	if len(due) == 0 {
		return
	}
	byAccount := map[string][]dueExit{}
	var accounts []string
	for _, d := range due {
		if e.venueWaits(d.en.p, obs.Venue) {
			continue
		}
		a := d.en.p.AccountID
		if _, ok := byAccount[a]; !ok {
			accounts = append(accounts, a)
		}
		byAccount[a] = append(byAccount[a], d)
	}
	if len(accounts) == 0 {
		return
	}
	e.awaitQueued(ctx, queuedWait)
	var wg sync.WaitGroup
	for _, a := range accounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, d := range byAccount[a] {
				p := d.en.p
				if err := e.fire(ctx, p.ID, d.i, d.en, obs, reason); err != nil {
					// Claimed exits stay firing and are resumed; one not
					// claimed is judged again at the next read.
					e.log.Error("exit not fired through; it is resumed or judged again", "position", p.ID, "exit", d.i, "type", p.Exits[d.i].Type, "err", err)
				}
			}
		}()
	}
	wg.Wait()
}

// clockExits fires the time exits of tokens that other engines read, once
// they have been due for longer than grace. A token's owner fires them on
// its reads; an owner that died loses its tokens within the peer expiry
// anyway, so this is the net under engines whose views of who is alive
// disagree, or an owner stuck on its chain. A time exit depends on the
// clock alone, so any engine may fire it and the claim settles a race. No
// price is read for it: the exit records none, as after a failed read.
func (e *Engine) clockExits(ctx context.Context, tokens []tokenKey, grace time.Duration) {
	if len(tokens) == 0 {
		return
	}
	now := e.now()
	due := e.book.timeDue(tokens, now.Add(-grace))
	for _, d := range due {
		p := d.en.p
		e.log.Info("time exit overdue on a token another engine reads, claiming it", "position", p.ID, "exit", d.i,
			"token", p.Token, "chain", p.Chain)
	}
	e.fireAll(ctx, due, Observation{At: now}, metrics.ExitDeferredHandover)
}

// extremesMoved reports whether a new high matters to an armed trailing
// stop, or a larger creator holding to an armed dev_sell, of p.
func (e *Engine) extremesMoved(p *wire.Position, en entry) bool {
	if !en.moved {
		return false
	}
	for _, x := range p.Exits {
		if x.State != wire.ExitArmed {
			continue
		}
		if x.Type == wire.ExitTrailingStop && en.high != nil && (en.storedHigh == nil || en.high.Cmp(en.storedHigh) > 0) {
			return true
		}
		if x.Type == wire.ExitDevSell && en.devMax != nil && (en.storedDev == nil || en.devMax.Cmp(en.storedDev) > 0) {
			return true
		}
	}
	return false
}

// storeExtremes writes the highest price and creator holding seen, never
// lowering what another engine wrote.
func (e *Engine) storeExtremes(ctx context.Context, id string, en entry) {
	_, err := e.mutate(ctx, id, func(p *wire.Position) bool {
		high, dev := maxRat(storedHigh(p), en.high), maxInt(parseInt(p.DevBalance), en.devMax)
		d := ""
		if dev != nil {
			d = dev.String()
		}
		if p.State != wire.PositionOpen || (exact(high) == p.HighExact && d == p.DevBalance) {
			return false
		}
		if high != nil {
			setHigh(p, high)
		}
		p.DevBalance = d
		return true
	})
	if err != nil && !errors.Is(err, errNoPosition) {
		e.log.Warn("store position high", "position", id, "err", err)
	}
}

// heldNow is what p's wallet holds of its token by one read, nil when the
// read fails (logged) or the chain is not served.
func (e *Engine) heldNow(ctx context.Context, p *wire.Position) *big.Int {
	chain, ok := e.chains[p.Chain]
	if !ok {
		return nil
	}
	bal, err := chain.Balance(ctx, p.Wallet, p.Token)
	if err != nil {
		e.log.Warn("wallet's balance not read before a partial exit; its share is of the position as recorded", "position", p.ID, "err", err)
		return nil
	}
	return bal
}

// late says why an exit's sell entered the pipeline later than its
// trigger; the zero value is a sell on time.
type late struct {
	// reason is a metrics.ExitDeferred* constant, "" when on time.
	reason string
	// since is when the exit was due: its trigger's read, or for a time
	// exit the end of its wait.
	since time.Time
	// admitted is when the account's budget let the sell in; zero when the
	// budget did not hold it.
	admitted time.Time
}

// dueSince is when exit i of p was due: the end of a time exit's wait, or
// the read that fired it.
func dueSince(p *wire.Position, i int) time.Time {
	x := p.Exits[i]
	var fired time.Time
	if x.FiredAt != nil {
		fired = *x.FiredAt
	}
	if x.Type == wire.ExitTime {
		if at, ok := timeDueAt(p.BoughtAt, x.AfterSeconds); ok && (fired.IsZero() || at.Before(fired)) {
			return at
		}
	}
	return fired
}

// fire claims exit i of a position with compare-and-set (it fails quietly
// when another engine claimed it or the position moved on), then lets its
// sell into the pipeline as the account's budget allows. reason says why
// the exit fires late, "" when it does not.
func (e *Engine) fire(ctx context.Context, id string, i int, en entry, obs Observation, reason string) error {
	// A share of the position is a share of what the wallet still holds:
	// tokens it sent away (a transfer the engine never sees) leave the
	// position's record high, and its share of that would sell all that is
	// left. The balance is read once, and only lowers the base: a read of
	// a node behind the buy (nothing yet, or less) must not close the
	// position, so nothing is written from it, and a zero is no answer. A
	// whole sale needs no read (the sale is capped at the balance).
	var held *big.Int
	if en.p != nil && i < len(en.p.Exits) && en.p.Exits[i].SellPct > 0 && en.p.Exits[i].SellPct < 100 {
		held = e.heldNow(ctx, en.p)
	}
	var claimed *wire.Position
	p, err := e.mutate(ctx, id, func(p *wire.Position) bool {
		if p.State != wire.PositionOpen || p.PendingSell != "" || i >= len(p.Exits) || p.Exits[i].State != wire.ExitArmed {
			return false
		}
		remaining := parseInt(p.Remaining)
		if remaining == nil || remaining.Sign() <= 0 {
			closePosition(p, e.now())
			return true
		}
		x := &p.Exits[i]
		if held != nil && held.Sign() > 0 && held.Cmp(remaining) < 0 {
			remaining = held
		}
		amount, _ := sellAmount(remaining, x.SellPct)
		at := obs.At.UTC()
		x.State = wire.ExitFiring
		x.SellOrderID = sellID(p.ID, i, x.Attempts)
		x.Attempts++
		x.FiredAt = &at
		x.FiredPrice = formatPrice(obs.Price)
		x.SellAmount = amount.String()
		x.Error, x.RetryAt = "", nil
		p.PendingSell = x.SellOrderID
		claimedAt := e.now().UTC()
		p.SellClaimedAt, p.SellHeldUntil = &claimedAt, nil
		// The high is kept only for the exits that follow it.
		if h := maxRat(storedHigh(p), en.high); h != nil && followsHigh(p) {
			setHigh(p, h)
		}
		claimed = p
		return true
	})
	if err != nil || claimed == nil || p == nil {
		return err
	}
	x := p.Exits[i]
	l := late{reason: reason, since: dueSince(p, i)}
	if since, ok := e.pausedSince(p.ID); ok {
		// It was due while its venue was paused: late from then.
		if l.reason == "" {
			l.reason = metrics.ExitDeferredVenuePaused
		}
		if l.since.IsZero() || since.Before(l.since) {
			l.since = since
		}
	}
	if l.reason == "" && x.Type == wire.ExitTime && l.since.Before(e.startedAt()) {
		// It came due before this engine started: no engine ran then.
		l.reason = metrics.ExitDeferredStopped
	}
	metrics.ExitsFired.WithLabelValues(p.Chain, x.Type).Inc()
	if l.reason != "" {
		metrics.ExitsDeferred.WithLabelValues(p.Chain, l.reason).Inc()
	}
	e.log.Info("exit fired", "position", p.ID, "order_id", p.OrderID, "chain", p.Chain, "type", x.Type,
		"sell_order_id", x.SellOrderID, "price", x.FiredPrice, "entry", p.EntryPrice, "sell_amount", x.SellAmount)
	if e.cfg.AfterClaim != nil && !e.cfg.AfterClaim(p.ID, i) {
		return nil
	}
	return e.release(ctx, p, i, l)
}

// venueWaits reports whether a position's due exit must wait because the
// venue its sell would trade on is paused: the sell would only be refused
// VENUE_PAUSED, and a stop-loss must not spend its attempts, nor its
// account's exit budget, on refusals while the venue is checked. tradesOn
// is the venue a sale of the token goes to now as its market found it, ""
// when unknown. The first wait is logged and remembered, so that the exit
// fires late for that reason once the venue resumes.
func (e *Engine) venueWaits(p *wire.Position, tradesOn string) bool {
	venue, err := e.pausedVenue(p, tradesOn)
	e.pausedMu.Lock()
	defer e.pausedMu.Unlock()
	if err == nil {
		return false
	}
	if _, ok := e.paused[p.ID]; !ok {
		e.paused[p.ID] = e.now()
		e.log.Warn("exit due on a paused venue, held until the venue resumes", "position", p.ID,
			"chain", p.Chain, "venue", venue, "position_venue", p.Venue, "reason", err.Error())
	}
	return true
}

// pausedVenue returns the first of the venues whose pause holds a
// position's exit (gateVenues) that is paused, with its VENUE_PAUSED
// error; a nil error when none is, or, when the exit waits only for all of
// them, when one is not.
func (e *Engine) pausedVenue(p *wire.Position, tradesOn string) (string, error) {
	gate, all := gateVenues(p, tradesOn)
	venue, first := "", error(nil)
	for _, v := range gate {
		err := e.venueOpen(p.Chain, v)
		switch {
		case err != nil && first == nil:
			venue, first = v, err
		case err == nil && all:
			return "", nil
		}
	}
	return venue, first
}

// venueOpen is the VENUE_PAUSED error of venue on chain as this engine
// sees it, nil while it trades (or no venue, or no view of the venues).
func (e *Engine) venueOpen(chain, venue string) error {
	if venue == "" || e.cfg.Venues == nil {
		return nil
	}
	return e.cfg.Venues.Open(chain, venue)
}

// gateVenues are the venues whose pause holds a position's exit, and
// whether it waits only while all of them are paused (else while any one
// is). An EVM sell names the token, not the pool: its signer trades it on
// the best pool of the Uniswap venues that trade, so a position bought on
// a V3 pool sells on the token's V2 pair while uniswap_v3 is paused, as a
// bot's own sell of it does. It waits while both venues of its chain are
// paused, or for the venue that refused its last sell VENUE_PAUSED (the
// token trades on no pool of the other). A pump.fun coin sells on its curve
// until the curve completes, then on its PumpSwap pool: the venue its
// market found (tradesOn) when it found the curve completed. Otherwise (the
// curve still trades, or the token is not read here) its curve's, and its
// pool's once a sell of it was refused because the pool was paused: the
// curve completed, which this engine has not seen.
func gateVenues(p *wire.Position, tradesOn string) (gate []string, all bool) {
	switch p.Venue {
	case wire.VenueV2, wire.VenueV3:
		for _, v := range []string{venues.UniswapV2, venues.UniswapV3} {
			if refusedBy(p, v) {
				gate = append(gate, v)
			}
		}
		if len(gate) > 0 {
			return gate, false
		}
		if p.Venue == wire.VenueV3 {
			return []string{venues.UniswapV3, venues.UniswapV2}, true
		}
		return []string{venues.UniswapV2, venues.UniswapV3}, true
	case wire.VenuePumpFun:
		switch {
		case tradesOn == wire.VenuePumpSwap:
			return []string{venues.PumpSwap}, false
		case tradesOn == "" && refusedBy(p, venues.PumpSwap):
			return []string{venues.PumpFun, venues.PumpSwap}, false
		}
		return []string{venues.PumpFun}, false
	}
	return []string{p.Venue}, false
}

// pausedRefusal is how an exit's error begins when its last sell was
// refused because a venue was paused (see sellFailed), the venue's name
// following (venues.PausedError).
const pausedRefusal = string(apierr.VenuePaused) + ": "

// refusedBy reports whether an armed exit of p saw its last sell refused
// because venue was paused.
func refusedBy(p *wire.Position, venue string) bool {
	return slices.ContainsFunc(p.Exits, func(x wire.Exit) bool {
		return x.State == wire.ExitArmed && strings.HasPrefix(x.Error, pausedRefusal+venue+" ")
	})
}

// notDue forgets that a position's exit waited for its venue: it is no
// longer due (the price came back), so a later fire is not late for it.
func (e *Engine) notDue(id string) {
	e.pausedMu.Lock()
	if len(e.paused) > 0 {
		delete(e.paused, id)
	}
	e.pausedMu.Unlock()
}

// pausedSince returns, and forgets, when a position's due exit began to
// wait for its paused venue.
func (e *Engine) pausedSince(id string) (time.Time, bool) {
	e.pausedMu.Lock()
	defer e.pausedMu.Unlock()
	since, ok := e.paused[id]
	delete(e.paused, id)
	return since, ok
}

// release takes the account's next budget slot for a claimed exit's sell
// and publishes the sell then: at once while the budget has room, else
// held until its slot, which is first written on the position so that no
// other engine resumes the exit before it. An exit whose slot cannot be
// reserved or written (NATS away) stays firing and is resumed later; none
// is dropped. p is the position as this engine's claim, or its resume,
// wrote it.
func (e *Engine) release(ctx context.Context, p *wire.Position, i int, l late) error {
	x := p.Exits[i]
	at, err := e.budget.reserve(ctx, p.AccountID)
	if err != nil {
		return fmt.Errorf("sell %s left firing, to be resumed: %w", x.SellOrderID, err)
	}
	if !at.After(e.now()) {
		return e.publish(ctx, p, i, l)
	}
	ours, err := e.recordHold(ctx, p, i, at)
	if err != nil {
		return fmt.Errorf("sell %s left firing, to be resumed: %w", x.SellOrderID, err)
	}
	if !ours {
		// Published already, or taken up by another engine that judged
		// this one gone: that one publishes it.
		return nil
	}
	// A sell already late for another reason keeps it: that is what held
	// it first.
	if l.reason == "" {
		l.reason = metrics.ExitDeferredBudget
	}
	l.admitted = at
	wait := max(at.Sub(e.now()), 0)
	if !e.held.hold(x.SellOrderID, p.Chain, wait, func() {
		if err := e.publish(ctx, p, i, l); err != nil && ctx.Err() == nil {
			e.log.Error("held exit sell not published; it will be resumed", "position", p.ID,
				"sell_order_id", x.SellOrderID, "err", err)
		}
	}) {
		// Held already, or the engine is stopping: the exit stays firing
		// for the holder, or for a resume.
		return nil
	}
	metrics.ExitsDeferred.WithLabelValues(p.Chain, metrics.ExitDeferredBudget).Inc()
	e.log.Info("exit sell held for the account's exit budget", "position", p.ID, "account_id", p.AccountID,
		"sell_order_id", x.SellOrderID, "wait", wait.Round(time.Millisecond).String())
	return nil
}

// recordHold writes on the position the budget slot that exit i's sell is
// held until, provided the exit is still firing under the claim p holds;
// false when it is not.
func (e *Engine) recordHold(ctx context.Context, p *wire.Position, i int, at time.Time) (bool, error) {
	id := p.Exits[i].SellOrderID
	q, err := e.update(ctx, p.ID, func(q *wire.Position) bool {
		if !firingAs(q, i, id) || !sameTime(q.SellClaimedAt, p.SellClaimedAt) {
			return false
		}
		until := at.UTC()
		q.SellHeldUntil = &until
		return true
	}, false)
	return q != nil, err
}

// firingAs reports whether exit i of p is firing with sell id.
func firingAs(p *wire.Position, i int, id string) bool {
	return i < len(p.Exits) && p.Exits[i].State == wire.ExitFiring && p.Exits[i].SellOrderID == id && p.PendingSell == id
}

// clearClaim forgets the claim of the exit that was firing.
func clearClaim(p *wire.Position) {
	p.SellClaimedAt, p.SellHeldUntil = nil, nil
}

// sameTime reports whether a and b are both unset or the same instant.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// publish stores the exit's sell order, publishes its job and marks the
// exit fired. Every step may run again, in this engine or another: the
// order record is created once, the stream keeps one job per order id, and
// the last step is a compare-and-set from firing.
func (e *Engine) publish(ctx context.Context, p *wire.Position, i int, l late) error {
	x := p.Exits[i]
	chain, ok := e.chains[p.Chain]
	if !ok {
		return errUnservedChain(p.Chain)
	}
	amount := parseInt(x.SellAmount)
	remaining := parseInt(p.Remaining)
	if amount == nil || remaining == nil {
		return fmt.Errorf("position %s: bad amounts %q of %q", p.ID, x.SellAmount, p.Remaining)
	}
	// The amount was fixed at the claim; a sell the budget held, or one
	// resumed, may be published much later, after the wallet sold the
	// position's tokens by hand (the position is not reconciled while its
	// sell is pending) and perhaps bought the token again: it is held to
	// what the wallet kept right after each of its sales since the buy,
	// so that it never sells a later buy's tokens.
	least, err := e.heldAfterSales(ctx, p)
	if err != nil {
		return err
	}
	whole := amount.Cmp(remaining) >= 0
	if least != nil && least.Cmp(amount) < 0 {
		// Only a sell no engine stored yet: one stored may be in the
		// stream already, which keeps its first job.
		stored, err := e.sellStored(ctx, x.SellOrderID)
		if err != nil {
			return err
		}
		if !stored {
			e.log.Info("exit sell held to what the wallet kept after its sales since the claim", "position", p.ID,
				"sell_order_id", x.SellOrderID, "claimed", amount.String(), "now", least.String())
			amount, whole = least, false
			if amount.Sign() == 0 {
				return e.nothingLeft(ctx, p, i)
			}
		}
	}
	mode, legAmount, err := chain.SellLeg(ctx, p, amount, whole)
	if err != nil {
		return fmt.Errorf("sell leg: %w", err)
	}
	now := e.now().UTC()
	job := &wire.SwapJob{
		OrderID: x.SellOrderID, AccountID: p.AccountID, Family: p.Family, Chain: p.Chain, Token: p.Address,
		Side: wire.Sell, SellMode: mode, QuoteAsset: p.QuoteAsset,
		Legs:        []wire.Leg{{Wallet: p.Wallet, Amount: legAmount}},
		SlippageBps: e.cfg.SellSlippageBps, PriorityFee: "", ProcessorTip: "0", AutoTip: e.cfg.AutoTip,
		AutoOrders: []wire.AutoOrder{}, CreatedAt: now, FeeCaps: e.feeCaps(p.AccountID, p.Family),
	}
	if p.Family == wire.FamilyEVM {
		// The token's sell tax probed and counted in the least out, as a
		// client's max_tax has it, with no cap: without it the least out
		// left the tax to the slippage, and a stop-loss of a token taxed
		// as much as exits.sell_slippage_pct could never land.
		noCap := uint32(10_000)
		job.MaxTaxBps = &noCap
	}
	rec := orders.New(orders.OfSwap(job))
	if err := e.orders.Create(ctx, rec); err != nil {
		return err
	}
	if err := e.publishJob(ctx, job); err != nil {
		return err
	}
	if from := maxTime(x.FiredAt, l.admitted); !from.IsZero() {
		metrics.ExitPublish.WithLabelValues(p.Chain).Observe(e.now().Sub(from).Seconds())
	}
	d := e.lateness(l, now)
	// The event before the mark: an exit marked fired is never resumed,
	// so an engine that died between the two lost its exit_fired event
	// (and webhook) for good. One not emitted leaves the exit firing, and
	// its resume emits it (a repeat is dropped by its id).
	// A resumed exit's event may have gone out before its engine died.
	if err := e.emitFired(ctx, p, x, d, l.reason == metrics.ExitDeferredResumed); err != nil {
		return fmt.Errorf("exit_fired event: %w", err)
	}
	_, err = e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		if i >= len(q.Exits) || q.Exits[i].State != wire.ExitFiring || q.Exits[i].SellOrderID != x.SellOrderID {
			return false
		}
		q.Exits[i].State = wire.ExitFired
		q.Exits[i].SellAmount = amount.String()
		q.Exits[i].DeferredMs, q.Exits[i].DeferredReason = d.ms, d.reason
		clearClaim(q)
		return true
	})
	if err != nil {
		return fmt.Errorf("mark exit fired: %w", err)
	}
	return nil
}

// heldAfterSales is the least the wallet of p held right after any of its
// sales of p's token that landed after p's buy, as the holding's sales are
// kept (unread ones read now); nil when none landed since.
func (e *Engine) heldAfterSales(ctx context.Context, p *wire.Position) (*big.Int, error) {
	h := holdingOf(p.Chain, p.Wallet, p.Token)
	marks, err := e.sales(ctx, h)
	if err != nil {
		return nil, err
	}
	// A sale the node cannot read (yet, or ever: a node keeping no state
	// that old) bounds nothing, as in reconcile: the sell is not held up
	// for it.
	if marks, err = e.readSales(ctx, h, marks, []*wire.Position{p}); err != nil {
		e.log.Warn("a sale of the wallet not read before an exit's sell; the sell is held to the sales read", "position", p.ID, "err", err)
	}
	var least *big.Int
	for _, b := range bounds(marks, nil) {
		if b.in == 0 || b.balance == nil || !b.covers(p.BoughtIn) {
			continue
		}
		if least == nil || b.balance.Cmp(least) < 0 {
			least = b.balance
		}
	}
	return least, nil
}

// sellStored reports whether an exit's sell order was stored: publish
// stores it before its job goes out.
func (e *Engine) sellStored(ctx context.Context, id string) (bool, error) {
	_, err := e.orders.Get(ctx, id)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, orders.ErrNotFound):
		return false, nil
	}
	return false, err
}

// nothingLeft ends exit i of p, firing under the claim p holds and its
// sell not stored, without a sell: the wallet's sales since the buy left
// the position nothing. The exit is cancelled and the position held to the
// wallet's balance.
func (e *Engine) nothingLeft(ctx context.Context, p *wire.Position, i int) error {
	id := p.Exits[i].SellOrderID
	q, err := e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		if !firingAs(q, i, id) || !sameTime(q.SellClaimedAt, p.SellClaimedAt) {
			return false
		}
		q.Exits[i].State = wire.ExitCancelled
		q.Exits[i].Error = "the wallet sold the position's tokens before the exit's sell went out"
		q.PendingSell = ""
		clearClaim(q)
		return true
	})
	if err != nil || q == nil {
		return err
	}
	e.log.Info("exit cancelled: the wallet sold the position's tokens before its sell went out", "position", p.ID, "sell_order_id", id)
	return e.reconcile(ctx, holdingOf(p.Chain, p.Wallet, p.Token))
}

// publishJob publishes a sell job with its order id as the message id,
// retrying for a while: the stream keeps one job per order id.
// feeCaps are the caps an exit sell of account carries to the worker: an
// exit's fees (what auto_tip picks, the priority fee the worker chooses)
// stay under the account's caps, as its own orders' do.
func (e *Engine) feeCaps(account string, f wire.Family) *wire.FeeCaps {
	caps := registry.DefaultFeeCaps(f)
	if e.cfg.FeeCaps != nil {
		caps = e.cfg.FeeCaps(account, f)
	}
	u, unread := caps.Units(f)
	for _, name := range unread {
		e.log.Warn("fee cap unreadable, using the default (or, for a default, no fee)", "account", account, "cap", name)
	}
	return u.Job()
}

func (e *Engine) publishJob(ctx context.Context, job *wire.SwapJob) error {
	data, err := json.Marshal(job)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", job.OrderID, err)
	}
	// No reply header: nobody waits for this order's answer; the worker
	// and the broadcaster skip the reply and store the result as usual.
	msg := &nats.Msg{Subject: bus.OrdersSubject(job.Chain), Data: data, Header: nats.Header{}}
	msg.Header.Set(bus.HeaderOrder, job.OrderID)
	if e.cfg.Network != nil {
		msg.Header.Set(bus.HeaderNetwork, e.cfg.Network(job.Chain))
	}
	for try := 0; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err = e.js.PublishMsg(pctx, msg, jetstream.WithMsgID(job.OrderID))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || try >= 20 {
			return fmt.Errorf("publish sell %s: %w", job.OrderID, err)
		}
		e.log.Warn("publish exit sell, retrying", "sell_order_id", job.OrderID, "try", try, "err", err)
		time.Sleep(min(50*time.Millisecond<<min(try, 4), time.Second))
	}
}

// deferral is how late a sell entered the pipeline and why.
type deferral struct {
	ms     int64
	reason string
}

// lateness is the deferral of a sell published at published: from when
// its exit was due, for a sell something held back; none otherwise.
func (e *Engine) lateness(l late, published time.Time) deferral {
	if l.reason == "" || l.since.IsZero() {
		return deferral{}
	}
	return deferral{ms: max(published.Sub(l.since).Milliseconds(), 0), reason: l.reason}
}

// maxTime is the later of a and b, either of which may be unset.
func maxTime(a *time.Time, b time.Time) time.Time {
	if a != nil && a.After(b) {
		return *a
	}
	return b
}

// mintIfPool is the position's mint when its buy named the token's pool,
// as events say it; "" when the buy named the mint.
func mintIfPool(p *wire.Position) string {
	// An EVM address is one token however its letters are cased: a buy
	// naming it in lower case named the token, not a pool.
	if p.Address == p.Token || (p.Family == wire.FamilyEVM && strings.EqualFold(p.Address, p.Token)) {
		return ""
	}
	return p.Token
}

// emitFired publishes the exit_fired event of the buy; its id ends with
// the sell's order id, so a client links the two and a repeat is dropped.
// It names the exit and, for a sell held back, how late it went and why.
//
// again: the event may have gone out before (a resumed exit), and is
// marked a repeat, which the webhook dispatcher posts only when it never
// began to.
func (e *Engine) emitFired(ctx context.Context, p *wire.Position, x wire.Exit, d deferral, again bool) error {
	at := e.now()
	if x.FiredAt != nil {
		at = *x.FiredAt
	}
	ev := &events.Event{ID: events.ID(p.OrderID, events.ExitFired, x.SellOrderID), Type: events.ExitFired,
		Kind: wire.KindSwap, OrderID: p.OrderID, AccountID: p.AccountID, Chain: p.Chain, Side: wire.Sell, Address: p.Address,
		Mint: mintIfPool(p), State: wire.ExitFired, Signatures: []wire.SigState{}, At: at.UTC(),
		Exit: &events.Exit{PositionID: p.ID, Wallet: p.Wallet, Type: x.Type, SellOrderID: x.SellOrderID,
			DeferredMs: d.ms, DeferredReason: d.reason}}
	if d.reason != "" {
		e.log.Info("exit sell published late", "position", p.ID, "sell_order_id", x.SellOrderID,
			"reason", d.reason, "deferred_ms", d.ms)
	}
	publish := e.events.Publish
	if again {
		publish = e.events.PublishAgain
	}
	if err := publish(ctx, ev); err != nil {
		e.log.Warn("exit_fired event not published; the exit stays firing until it is", "position", p.ID, "sell_order_id", x.SellOrderID, "err", err)
		return err
	}
	return nil
}

// resumeStale finishes the publish of exits left firing: by an engine
// that died after its claim, or one whose publish is stuck. Each exit is
// judged by its own claim and hold (resumableAt), never while this engine
// holds it, so that neither the resumed sells' new budget slots nor the
// account's new fires keep the others waiting. The exits due are resumed
// in trigger order, each account's in turn and the accounts side by side;
// their sells take budget slots like any sell.
func (e *Engine) resumeStale(ctx context.Context) {
	now := e.now()
	type stale struct {
		p   *wire.Position
		i   int
		due time.Time
	}
	byAccount := map[string][]stale{}
	var accounts []string
	for _, p := range e.book.all() {
		for i, x := range p.Exits {
			if x.State != wire.ExitFiring || e.held.has(x.SellOrderID) {
				continue
			}
			if at, ok := e.resumableAt(p, i); !ok || now.Before(at) {
				continue
			}
			a := p.AccountID
			if _, ok := byAccount[a]; !ok {
				accounts = append(accounts, a)
			}
			byAccount[a] = append(byAccount[a], stale{p: p, i: i, due: dueSince(p, i)})
		}
	}
	var wg sync.WaitGroup
	for _, a := range accounts {
		due := byAccount[a]
		sort.Slice(due, func(j, k int) bool {
			if !due[j].due.Equal(due[k].due) {
				return due[j].due.Before(due[k].due)
			}
			return due[j].p.ID < due[k].p.ID
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, d := range due {
				if err := e.resume(ctx, d.p, d.i); err != nil {
					e.log.Warn("resume exit", "position", d.p.ID, "exit", d.i, "err", err)
				}
			}
		}()
	}
	wg.Wait()
}

// resumableAt is when exit i of p, left firing, may be resumed: once
// ResumeAfter has passed beyond its claim and beyond the budget slot its
// engine holds it until. The engine that claimed it writes that slot
// before it holds the sell, and publishes at the slot, so past both it is
// no longer publishing the sell unless it is stuck. An exit claimed by an
// engine that writes neither (an earlier version) waits as such engines
// did: ResumeAfter past its trigger and past every reservation of its
// account known here, the latest that engine's hold may end. false when
// it cannot be judged.
func (e *Engine) resumableAt(p *wire.Position, i int) (time.Time, bool) {
	x := p.Exits[i]
	var since time.Time
	switch {
	case p.SellClaimedAt != nil && p.PendingSell == x.SellOrderID:
		since = *p.SellClaimedAt
		if p.SellHeldUntil != nil && p.SellHeldUntil.After(since) {
			since = *p.SellHeldUntil
		}
	case x.FiredAt != nil:
		since = *x.FiredAt
		if busy := e.budget.busyUntil(p.AccountID); busy.After(since) {
			since = busy
		}
	default:
		return time.Time{}, false
	}
	return since.Add(e.cfg.ResumeAfter), true
}

// resume finishes exit i of p, judged left firing. A sell whose order the
// pipeline already took is only marked fired. Otherwise this engine first
// takes the exit over (takeOver), so that of the engines that judged it
// stale only one publishes it and takes a budget slot for it.
func (e *Engine) resume(ctx context.Context, p *wire.Position, i int) error {
	id := p.Exits[i].SellOrderID
	o, err := e.orders.Get(ctx, id)
	switch {
	case errors.Is(err, orders.ErrNotFound), err == nil && o.State == wire.StatePending && len(o.Signatures) == 0:
		// Never published, or published and not yet taken (a pending
		// order with signatures is the broadcaster's: its sends are under
		// way, or were answered unknown and it waits for them): publishing
		// again is harmless (the stream and the worker's signed record
		// keep one sell per order id), and it takes a budget slot like any
		// sell, since it may be the first publish.
		q, err := e.takeOver(ctx, p, i)
		if err != nil || q == nil {
			return err
		}
		e.log.Info("resuming exit left firing", "position", p.ID, "exit", i, "sell_order_id", id)
		metrics.ExitsDeferred.WithLabelValues(q.Chain, metrics.ExitDeferredResumed).Inc()
		return e.release(ctx, q, i, late{reason: metrics.ExitDeferredResumed, since: dueSince(q, i)})
	case err != nil:
		return err
	}
	if err := e.emitFired(ctx, p, p.Exits[i], deferral{}, true); err != nil {
		return err
	}
	_, err = e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		if !firingAs(q, i, id) {
			return false
		}
		q.Exits[i].State = wire.ExitFired
		clearClaim(q)
		return true
	})
	return err
}

// takeOver makes this engine the one that publishes exit i of p: it writes
// a claim of its own, provided the exit is still firing under the claim
// and hold p shows, the ones judged stale. It returns the position as
// written; nil when the exit moved on meanwhile (published, taken over by
// another engine, or held for a slot not seen here yet).
func (e *Engine) takeOver(ctx context.Context, p *wire.Position, i int) (*wire.Position, error) {
	id := p.Exits[i].SellOrderID
	return e.update(ctx, p.ID, func(q *wire.Position) bool {
		if !firingAs(q, i, id) || !sameTime(q.SellClaimedAt, p.SellClaimedAt) || !sameTime(q.SellHeldUntil, p.SellHeldUntil) {
			return false
		}
		now := e.now().UTC()
		q.SellClaimedAt, q.SellHeldUntil = &now, nil
		return true
	}, false)
}

// remainingAfter subtracts sold from remaining, never below zero.
func remainingAfter(remaining, sold *big.Int) *big.Int {
	v := new(big.Int).Sub(remaining, sold)
	if v.Sign() < 0 {
		v.SetInt64(0)
	}
	return v
}

// followsHigh reports whether a position has an armed exit that needs the
// highest price seen: a trailing_stop or a dev_sell.
func followsHigh(p *wire.Position) bool {
	return slices.ContainsFunc(p.Exits, func(x wire.Exit) bool {
		return x.State == wire.ExitArmed && (x.Type == wire.ExitTrailingStop || x.Type == wire.ExitDevSell)
	})
}
