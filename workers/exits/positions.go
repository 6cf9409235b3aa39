package exits

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// handle takes one order event: a confirmed buy opens positions, a
// confirmed sell reduces them, and a failed or expired exit sell re-arms
// its exit. A handler that could not read the chain or the stores naks
// the event, so it comes back.
func (e *Engine) handle(m jetstream.Msg) {
	if delivered(m) > 1 {
		metrics.Redeliveries.WithLabelValues(bus.ExitsConsumer).Inc()
	}
	// Most events are about orders that open no position (buys without
	// auto-orders): their publisher says so, and neither the event nor its
	// order record is read.
	if m.Headers().Get(bus.HeaderPositions) == bus.PositionsNone {
		_ = m.Ack()
		return
	}
	var ev events.Event
	err := json.Unmarshal(m.Data(), &ev)
	if err == nil && ev.OrderID == "" {
		err = errors.New("the event names no order")
	}
	if err != nil {
		e.log.Error("undecodable event dropped", "subject", m.Subject(), "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.ExitsConsumer, metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch {
	case ev.Type == events.Confirmed && ev.Side == wire.Buy:
		err = e.open(ctx, &ev, delivered(m) >= behindAttempts)
	case ev.Type == events.Confirmed && ev.Side == wire.Sell:
		err = e.sold(ctx, &ev, delivered(m) >= behindAttempts)
	case (ev.Type == events.Failed || ev.Type == events.Expired) && ev.Side == wire.Sell:
		err = e.sellFailed(ctx, &ev)
	}
	if err != nil {
		attempt := delivered(m)
		if errors.Is(err, errRecordBehind) && attempt >= behindAttempts {
			metrics.ExitEventsDropped.WithLabelValues(string(ev.Type), string(ev.Side)).Inc()
			e.log.Error("order event dropped: its record never caught up with it; no position opened", "order_id", ev.OrderID, "event", ev.Type, "attempt", attempt)
			_ = m.Ack()
			return
		}
		if attempt >= maxEventDeliveries {
			metrics.ExitEventsDropped.WithLabelValues(string(ev.Type), string(ev.Side)).Inc()
			e.log.Error("order event given up after its retries: for a buy no position was opened, its exits will not run; for an exit's sell its outcome is not recorded",
				"order_id", ev.OrderID, "event", ev.Type, "side", ev.Side, "attempt", attempt, "err", err)
			_ = m.Ack()
			return
		}
		e.log.Warn("order event not taken, will retry", "order_id", ev.OrderID, "event", ev.Type, "attempt", attempt, "err", err)
		e.holdBack(m, eventRetryDelay(attempt))
		return
	}
	_ = m.Ack()
}

// holdBack hands m back to be delivered again after delay, and counts it
// held back until then (see awaitQueued).
func (e *Engine) holdBack(m jetstream.Msg, delay time.Duration) {
	if md, _ := m.Metadata(); md != nil {
		e.backs.add(md.Sequence.Stream, time.Now().Add(delay))
	}
	_ = m.NakWithDelay(delay)
}

// maxEventDeliveries and eventRetryDelay retry an order event the engine
// could not take (its chain's RPC away, a node behind the one that
// confirmed the buy, the store failing over) for about a quarter of an
// hour: ten tries half a second apart more, 23 s in all, dropped a buy's
// event in a short RPC outage, and with it the position and its stop-loss.
const maxEventDeliveries = 60

func eventRetryDelay(attempt uint64) time.Duration {
	return min(time.Duration(attempt)*500*time.Millisecond, 30*time.Second)
}

// delivered is how many times m was handed out, this time included.
func delivered(m jetstream.Msg) uint64 {
	if md, _ := m.Metadata(); md != nil {
		return md.NumDelivered
	}
	return 1
}

// errRecordBehind: the order's record, as read, is older than the event
// about it; read again later.
var errRecordBehind = errors.New("the order's record is behind its confirmed event")

// behindAttempts bounds the deliveries of an event whose record stays
// behind it (about 25 s of back-off).
const behindAttempts = 10

// open opens a position for every confirmed signature of a buy whose
// order has auto-orders (the request's, or the saved strategy ingress put
// there). last: the event's last delivery, on which a creator the chain
// would not tell leaves the dev_sell cancelled, and the position opens.
func (e *Engine) open(ctx context.Context, ev *events.Event, last bool) error {
	o, err := e.orders.Get(ctx, ev.OrderID)
	// The record a confirmed event was made from exists and is confirmed;
	// a read that says otherwise came from a replica not caught up with
	// it (a NATS node back from a restart), and would open no position.
	if errors.Is(err, orders.ErrNotFound) || err == nil && o.State != wire.StateConfirmed {
		return errRecordBehind
	}
	if err != nil {
		return err
	}
	if len(o.AutoOrders) == 0 || o.Kind != wire.KindSwap {
		return nil
	}
	chain, ok := e.chains[o.Chain]
	if !ok {
		// No engine's chains are the services': its positions would open
		// nowhere, and their exits never run.
		metrics.ExitEventsDropped.WithLabelValues(string(ev.Type), string(ev.Side)).Inc()
		e.log.Error("buy with auto-orders on a chain this engine does not serve; no position opened", "order_id", o.OrderID, "chain", o.Chain)
		return nil
	}
	for i, s := range o.Signatures {
		if s.State != wire.StateConfirmed {
			continue
		}
		id := positionID(o.OrderID, i)
		if _, _, err := e.load(ctx, id); err == nil {
			continue
		} else if !errors.Is(err, errNoPosition) {
			return err
		}
		watchDev := slices.ContainsFunc(o.AutoOrders, func(a wire.AutoOrder) bool { return a.Type == wire.ExitDevSell })
		fill, err := chain.Fill(ctx, s.Signature, s.Wallet, o.Token, watchDev, func(a string) bool {
			return e.cfg.Owns != nil && e.cfg.Owns(o.AccountID, o.Family, a)
		})
		if errors.Is(err, ErrNoTrade) {
			continue // the wallet's approval, or another transaction beside its swap
		}
		if errors.Is(err, ErrCreatorUnknown) && fill != nil && last {
			// Tried on every delivery: the position and its other exits
			// are worth more than the wait for a node that will not say.
			e.log.Warn("token's creator not found on the event's last delivery; the position opens, its dev_sell cancelled",
				"order_id", o.OrderID, "wallet", s.Wallet, "err", err)
			fill.DevUnknown, err = "the chain's node did not answer the token's transfer history", nil
		}
		if err != nil {
			return fmt.Errorf("read fill of %s: %w", s.Signature, err)
		}
		if fill.Received.Sign() <= 0 {
			e.log.Warn("buy received no tokens; no position", "order_id", o.OrderID, "wallet", s.Wallet)
			continue
		}
		p := newPosition(o, id, s.Wallet, fill, e.now())
		p.BoughtIn = fill.In
		created, err := e.create(ctx, p)
		if err != nil {
			return err
		}
		if created {
			e.log.Info("position opened", "position", p.ID, "order_id", o.OrderID, "chain", p.Chain, "token", p.Token,
				"wallet", p.Wallet, "venue", p.Venue, "received", p.Received, "entry_price", p.EntryPrice, "exits", len(p.Exits))
		}
	}
	return e.heldToLaterSales(ctx, o)
}

// heldToLaterSales holds the buy's positions to the sales their wallets
// made after it whose events came first (the exits role stopped or behind,
// the buy's event tried again): opened at what the buy received, a
// position would keep tokens its wallet sold, and its exit would sell ones
// the wallet bought again since. A sale whose event comes later holds
// them itself; one whose event is handled at the same moment notes the
// sale before it reads the positions, as this reads the sales after the
// positions are stored, so that one of the two sees the other.
func (e *Engine) heldToLaterSales(ctx context.Context, o *wire.Order) error {
	done := map[holding]bool{}
	for i := range o.Signatures {
		p, _, err := e.load(ctx, positionID(o.OrderID, i))
		if errors.Is(err, errNoPosition) {
			continue
		}
		if err != nil {
			return err
		}
		h := holdingOf(p.Chain, p.Wallet, p.Token)
		if p.State != wire.PositionOpen || done[h] {
			continue
		}
		done[h] = true
		marks, err := e.sales(ctx, h)
		if err != nil {
			return err
		}
		if !soldAfter(marks, p.BoughtIn) {
			continue
		}
		e.log.Info("the wallet sold the token after this buy before its position opened; the position is held to what it held then",
			"position", p.ID, "order_id", o.OrderID)
		e.keep(p)
		if err := e.reconcile(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

func newPosition(o *wire.Order, id, wallet string, f *Fill, now time.Time) *wire.Position {
	exits := make([]wire.Exit, len(o.AutoOrders))
	for i, ao := range o.AutoOrders {
		exits[i] = wire.Exit{AutoOrder: ao, State: wire.ExitArmed}
		if ao.Type != wire.ExitDevSell {
			continue
		}
		// Said at once rather than armed for ever: nothing to watch.
		switch {
		case f.DevUnknown != "":
			exits[i].State, exits[i].Error = wire.ExitCancelled, "the token's creator could not be looked for: "+f.DevUnknown
		case f.Dev == "":
			exits[i].State, exits[i].Error = wire.ExitCancelled, "the token has no creator the chain names (or, on EVM, no holder besides the pool and the account's wallets) to watch"
		case f.DevOwned:
			// Armed, it would fire on the account's own sales.
			exits[i].State, exits[i].Error = wire.ExitCancelled, "the token's creator "+f.Dev+" is the buying wallet: its sales are this position's own, not a creator's to watch"
		}
	}
	price := entryPrice(f)
	entry := formatPrice(price)
	// A time exit counts from the broadcast (DECISIONS: after_seconds
	// after the buy was broadcast); a record from before the broadcaster
	// kept that time counts from the order's acceptance.
	bought := o.CreatedAt
	if o.BroadcastAt != nil {
		bought = *o.BroadcastAt
	}
	p := &wire.Position{
		ID: id, OrderID: o.OrderID, AccountID: o.AccountID, Family: o.Family, Chain: o.Chain, Address: o.Token,
		Token: f.Token, Wallet: wallet, Venue: f.Venue, Pool: f.Pool, QuoteAsset: f.QuoteAsset,
		Decimals: f.Decimals, QuoteDecimals: f.QuoteDecimals, Received: f.Received.String(),
		Remaining: f.Received.String(), Spent: f.Spent.String(), EntryPrice: entry, HighPrice: entry, EntryExact: exact(price), HighExact: exact(price),
		Dev: f.Dev, State: wire.PositionOpen, Exits: exits, BoughtAt: bought, OpenedAt: now.UTC(),
	}
	if f.DevBalance != nil {
		p.DevBalance = f.DevBalance.String()
	}
	return p
}

// entryPrice is the price a buy traded at, in the measure the exits read
// prices in (a pool's or curve's own, without fees): its quote into the
// pool per token out of it. The quote paid per token received, fees and a
// token's tax included, is above any price the market shows, so that a
// stop_loss within the fees (pump.fun's 1.25 %, a 10 % tax) would fire at
// the first read though the price did not fall; it is the entry only when
// the trade does not tell the pool's side.
func entryPrice(f *Fill) *big.Rat {
	if f.PoolIn != nil && f.PoolOut != nil && f.PoolIn.Sign() > 0 && f.PoolOut.Sign() > 0 {
		return wholePrice(f.PoolIn, f.PoolOut, f.QuoteDecimals, f.Decimals)
	}
	return wholePrice(f.Spent, f.Received, f.QuoteDecimals, f.Decimals)
}

// sold takes a confirmed sell: an exit's own sell reduces its position by
// what it sold, and then every position of the wallets that sold is held
// to what the wallets still hold on chain (a user's own sell, or a
// transfer, reduces them oldest first).
//
// An exit sell whose swap did not land sold nothing, though its order is
// confirmed by the approval that landed before it: its exit re-arms as for
// a failed sell, and its position keeps what the wallet still holds.
//
// What the wallet held right after the sale is read first, and a read that
// fails has the event tried again (a node behind the one that confirmed
// the sale does not have it yet), until its last tries (lastTry), when the
// positions are held to the balance now.
func (e *Engine) sold(ctx context.Context, ev *events.Event, lastTry bool) error {
	if posID, i, ok := parseSellID(ev.OrderID); ok {
		var err error
		if swap, landed := swapLanded(ev); landed {
			err = e.settleExit(ctx, posID, i, ev.OrderID)
		} else {
			reason := "the sell's swap " + swap.State
			if swap.Error != "" {
				reason += ": " + swap.Error
			}
			err = e.rearm(ctx, ev, posID, i, reason)
		}
		if err != nil {
			return err
		}
	}
	// Positions know a token by its mint; a sell that named the token's
	// pool says which mint it sold.
	token := ev.Address
	if ev.Mint != "" {
		token = ev.Mint
	}
	chain := e.chains[ev.Chain]
	seen := map[string]bool{}
	for i, s := range ev.Signatures {
		if s.State != wire.StateConfirmed || seen[s.Wallet] {
			continue
		}
		seen[s.Wallet] = true
		h := holdingOf(ev.Chain, s.Wallet, token)
		// The sale's own moment first: what the wallet held right after it
		// (its last transaction, an EVM approval coming before the swap).
		sig, slot := lastConfirmed(ev.Signatures, i)
		switch {
		case chain == nil || sig == "":
		case e.saleMatters(h, ev) || slot == 0:
			// Read at once: a position it bounds is here or may be, or
			// the event does not say where the sale landed.
			sale, err := chain.Sale(ctx, sig, s.Wallet, token)
			switch {
			case err != nil && !lastTry:
				// Held to the balance now meanwhile, which only lowers
				// them: the sale's own figure comes on a later try.
				if rerr := e.reconcile(ctx, h); rerr != nil {
					e.log.Warn("hold the positions to the balance now", "err", rerr)
				}
				return fmt.Errorf("read the holding after sale %s: %w", sig, err)
			case err != nil:
				e.log.Warn("the wallet's holding right after its sale could not be read on the event's last tries; its positions are held to its balance now",
					"order_id", ev.OrderID, "wallet", s.Wallet, "signature", sig, "err", err)
			default:
				if err := e.noteSale(ctx, h, markOf(sig, sale)); err != nil {
					return err
				}
			}
		default:
			if err := e.noteSale(ctx, h, unreadMark(ev.Chain, sig, slot)); err != nil {
				return err
			}
		}
		if err := e.reconcile(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

// lastConfirmed is the last confirmed signature of the wallet of sigs[i],
// and the slot (or block) it landed in, 0 when not said.
func lastConfirmed(sigs []wire.SigState, i int) (string, uint64) {
	last, slot := "", uint64(0)
	for _, s := range sigs[i:] {
		if s.Wallet == sigs[i].Wallet && s.State == wire.StateConfirmed {
			last, slot = s.Signature, s.Slot
		}
	}
	return last, slot
}

// settleExit records that exit i's sell landed.
func (e *Engine) settleExit(ctx context.Context, posID string, i int, sell string) error {
	if err := e.firedBeforeSettled(ctx, posID, i, sell); err != nil {
		return err
	}
	p, err := e.mutate(ctx, posID, func(p *wire.Position) bool {
		if i >= len(p.Exits) || p.Exits[i].SellOrderID != sell || p.PendingSell != sell {
			return false
		}
		x := &p.Exits[i]
		if x.State == wire.ExitFiring {
			x.State = wire.ExitFired
		}
		p.PendingSell = ""
		clearClaim(p)
		rem := remainingAfter(parseInt(p.Remaining), parseInt(x.SellAmount))
		p.Remaining = rem.String()
		if rem.Sign() == 0 || x.SellPct >= 100 {
			closePosition(p, e.now())
		}
		return true
	})
	if errors.Is(err, errNoPosition) {
		return nil
	}
	if err == nil && p != nil {
		e.log.Info("exit sell landed", "position", posID, "sell_order_id", sell, "remaining", p.Remaining, "state", p.State)
	}
	return err
}

// firedBeforeSettled emits, marked a repeat, the exit_fired event of exit
// i's sell when the exit is still firing with it as its sell settles: the
// event failed to go out when the sell was published (it is emitted before
// the exit is marked fired), and the exit's resume, which emits it again,
// looks only at exits still firing, which the sell's settling ends. A sell
// that lands or fails within the resume's wait had its event lost for
// good. An error leaves the sell's event to be handled again.
func (e *Engine) firedBeforeSettled(ctx context.Context, posID string, i int, sell string) error {
	p, _, err := e.load(ctx, posID)
	if errors.Is(err, errNoPosition) {
		return nil
	}
	if err != nil {
		return err
	}
	if !firingAs(p, i, sell) {
		return nil
	}
	return e.emitFired(ctx, p, p.Exits[i], deferral{}, true)
}

// sellFailed re-arms the exit whose sell failed or expired, until it has
// published MaxAttempts sells that were not refused before anything was
// signed (Exit.Refusals); then the exit is failed. The wallet's
// positions are first held to its balance: a sell that failed because the
// tokens are gone closes the position instead.
//
// Only a real failure re-arms (DECISIONS, "Orders on EVM"): the order final
// as failed or expired with none of its transactions still able to land.
// Nothing re-arms on a timer: a sell that stays broadcast, however long,
// keeps its exit fired and its position's sell pending, since re-arming it
// could sell the same tokens twice.
func (e *Engine) sellFailed(ctx context.Context, ev *events.Event) error {
	posID, i, ok := parseSellID(ev.OrderID)
	if !ok {
		return nil
	}
	if !reallyFailed(ev) {
		e.log.Warn("exit sell event is not a final failure; the exit stays fired", "position", posID,
			"sell_order_id", ev.OrderID, "event", ev.Type, "state", ev.State)
		return nil
	}
	reason := "the sell's transactions " + ev.State
	if ev.Error != nil {
		reason = string(ev.Error.Code) + ": " + ev.Error.Message
	}
	return e.rearm(ctx, ev, posID, i, reason)
}

// swapLanded reports whether an exit sell's swap landed, and returns its
// state: the sell's last transaction, since an EVM sell's approval or tip
// comes before its swap and a Solana sell is one transaction.
func swapLanded(ev *events.Event) (wire.SigState, bool) {
	if len(ev.Signatures) == 0 {
		// An event without its transactions (an older publisher's) is
		// taken as its order's state says.
		return wire.SigState{State: ev.State}, true
	}
	swap := ev.Signatures[len(ev.Signatures)-1]
	return swap, swap.State == wire.StateConfirmed
}

// rearm re-arms exit i of position posID, whose sell ev did not trade and
// can no longer land, or fails it once it has used its attempts; then the
// wallet's positions are held to its balance.
func (e *Engine) rearm(ctx context.Context, ev *events.Event, posID string, i int, reason string) error {
	if err := e.firedBeforeSettled(ctx, posID, i, ev.OrderID); err != nil {
		return err
	}
	p, err := e.mutate(ctx, posID, func(p *wire.Position) bool {
		if i >= len(p.Exits) || p.Exits[i].SellOrderID != ev.OrderID || p.PendingSell != ev.OrderID {
			return false
		}
		x := &p.Exits[i]
		p.PendingSell = ""
		clearClaim(p)
		x.Error = reason
		x.RetryAt = nil
		switch {
		case venuePaused(ev):
			// A sell refused because a venue is paused did not try to
			// trade, and the exit does not give up for it. It waits for
			// the venue (venueWaits) when the venue that refused it is
			// paused as this engine sees it. When not (the pause lifted
			// here first, or a venue the gate does not watch for it), it
			// backs off as after a failure: never a refused sell on every
			// read.
			x.State = wire.ExitArmed
			x.Refusals++
			if !e.seenPaused(p.Chain, refusingVenue(ev)) {
				at := e.now().Add(retryBackoff(x.Attempts)).UTC()
				x.RetryAt = &at
			}
		case workerUnavailable(ev):
			// A sell a worker refused CHAIN_UNAVAILABLE signed nothing and
			// was refused for what no attempt changes but its operator's
			// mending (a worker on another network, a master key that does
			// not open the wallet's key) or for a moment (an EVM sale
			// outrun by the wallet's others, a job that waited past its age
			// while the workers were away): it backs off as after a
			// failure, but does not fail the exit, nor count towards its
			// limit: a stop-loss refused so keeps every attempt it has for
			// a sell that can trade.
			x.State = wire.ExitArmed
			x.Refusals++
			at := e.now().Add(retryBackoff(x.Attempts)).UTC()
			x.RetryAt = &at
		case x.Attempts-x.Refusals < e.cfg.MaxAttempts:
			x.State = wire.ExitArmed
			at := e.now().Add(retryBackoff(x.Attempts)).UTC()
			x.RetryAt = &at
		default:
			x.State = wire.ExitFailed
		}
		return true
	})
	if errors.Is(err, errNoPosition) {
		return nil
	}
	if err != nil {
		return err
	}
	if p != nil {
		// The wallet's positions held to its balance first: an exit whose
		// tokens are gone is cancelled with its position, not re-armed.
		rerr := e.reconcile(ctx, holdingOf(p.Chain, p.Wallet, p.Token))
		state := p.Exits[i].State
		if q, _, err := e.load(ctx, posID); err == nil && i < len(q.Exits) {
			state = q.Exits[i].State
		}
		outcome := "rearmed"
		switch {
		case state == wire.ExitFailed:
			outcome = "failed"
		case state == wire.ExitCancelled:
			outcome = "cancelled"
		case workerUnavailable(ev):
			outcome = outcomeWorkerUnavailable
		}
		metrics.ExitSellsUnlanded.WithLabelValues(p.Chain, p.Exits[i].Type, outcome).Inc()
		e.log.Warn("exit sell did not land", "position", posID, "sell_order_id", ev.OrderID, "reason", reason,
			"exit_state", state)
		return rerr
	}
	return nil
}

// retryBackoff is how long an exit whose attempts-th sell failed waits
// before it may fire again: 2 s, then 8 s, 32 s, at most 5 minutes.
func retryBackoff(attempts int) time.Duration {
	d := 2 * time.Second
	for range max(attempts-1, 0) {
		if d *= 4; d >= 5*time.Minute {
			return 5 * time.Minute
		}
	}
	return d
}

// refusingVenue is the venue a VENUE_PAUSED refusal names.
func refusingVenue(ev *events.Event) string {
	if ev.Error == nil || ev.Error.Details == nil {
		return ""
	}
	return *ev.Error.Details
}

// seenPaused reports whether this engine sees venue paused on chain.
func (e *Engine) seenPaused(chain, venue string) bool { return e.venueOpen(chain, venue) != nil }

// venuePaused reports whether a sell's failure is its venue's pause.
func venuePaused(ev *events.Event) bool {
	return ev.Error != nil && ev.Error.Code == apierr.VenuePaused
}

// outcomeWorkerUnavailable is the outcome of an exit re-armed because a
// worker refused its sell CHAIN_UNAVAILABLE, as the orders' metric names
// the ingress's orders a worker refused so: one alert watches both.
const outcomeWorkerUnavailable = "worker_unavailable"

// workerUnavailable reports whether ev is of a sell a worker refused
// before signing anything: 503 CHAIN_UNAVAILABLE, or UPSTREAM_TIMEOUT with
// no transaction (its job waited in the queue past pipeline.job_max_age,
// the chain's workers away or behind, or was withdrawn unsigned). Such a
// sell could not trade, and passes once the workers are back.
func workerUnavailable(ev *events.Event) bool {
	if ev.Error == nil {
		return false
	}
	return ev.Error.Code == apierr.ChainUnavailable || (ev.Error.Code == apierr.UpstreamTimeout && len(ev.Signatures) == 0)
}

// reallyFailed reports whether a failed or expired event says its order
// can no longer land: the event's type and the order's state agree, and no
// transaction of it is pending or broadcast, nor a swap confirmed (an
// approval that landed before a swap that failed sold nothing).
func reallyFailed(ev *events.Event) bool {
	switch {
	case ev.Type == events.Failed && ev.State == wire.StateFailed:
	case ev.Type == events.Expired && ev.State == wire.StateExpired:
	default:
		return false
	}
	for i, s := range ev.Signatures {
		switch {
		case s.State == wire.StateFailed || s.State == wire.StateExpired:
		case s.State == wire.StateConfirmed && !orders.LastOfWallet(ev.Signatures, i):
		default:
			return false
		}
	}
	return true
}

// reconcile holds the open positions of a wallet's token to its balance on
// chain, taking the excess from the oldest first and closing the positions
// left with nothing. While an exit sell of the holding is in flight it
// waits: that sell's own settlement reconciles after it.
//
// Each position is written what it keeps, not what it loses: at most what
// the balance leaves it once every newer position holds its own, read from
// the positions as stored after the balance was. Two reconciles of one
// holding side by side (the events of two sales handled together, in one
// engine or two) then write the same figures, or the lower ones of the
// later balance, where taking each one's excess off would cut the
// positions twice for one sale.
func (e *Engine) reconcile(ctx context.Context, h holding) error {
	held := e.book.held(h)
	if len(held) == 0 {
		return nil
	}
	for _, p := range held {
		if p.PendingSell != "" {
			return nil
		}
	}
	chain, ok := e.chains[held[0].Chain]
	if !ok {
		return nil
	}
	bal, err := chain.Balance(ctx, held[0].Wallet, held[0].Token)
	if err != nil {
		return fmt.Errorf("balance of %s: %w", held[0].Wallet, err)
	}
	open := make([]*wire.Position, 0, len(held))
	for _, p := range held {
		q, _, err := e.load(ctx, p.ID)
		if errors.Is(err, errNoPosition) {
			continue
		}
		if err != nil {
			return err
		}
		if q.PendingSell != "" {
			return nil
		}
		if q.State == wire.PositionOpen {
			open = append(open, q)
		}
	}
	// Held to the balance now, and to what the wallet held right after each
	// of its sales since a position's buy: the balance now may hold tokens
	// the wallet bought again since a sale whose event comes late.
	marks, err := e.sales(ctx, h)
	if err != nil {
		return err
	}
	// A sale kept unread is read once a position it bounds is here; one
	// whose read fails bounds nothing yet, and the caller tries again once
	// the positions are held to the rest.
	marks, unread := e.readSales(ctx, h, marks, open)
	// Oldest first by where their buys landed, not by when their events
	// were handled: a buy's event tried again opens its position after a
	// newer buy's. A position whose buy's place is unknown (0, opened
	// before places were kept) is the oldest.
	slices.SortStableFunc(open, func(a, b *wire.Position) int { return cmp.Compare(a.BoughtIn, b.BoughtIn) })
	keep := make([]*big.Int, len(open))
	for i, p := range open {
		keep[i] = parseInt(p.Remaining)
	}
	// The moments in the order they came (bounds: the sales by place, then
	// now), each sharing its balance among the positions bought before it,
	// newest first, each asking what the moments before left it: a
	// position never holds more than it did.
	for _, b := range bounds(marks, bal) {
		left := new(big.Int).Set(b.balance)
		for i := len(open) - 1; i >= 0; i-- {
			if !b.covers(open[i].BoughtIn) {
				continue
			}
			k := new(big.Int).Set(keep[i])
			if k.Cmp(left) > 0 {
				k.Set(left)
			}
			if k.Sign() < 0 {
				k.SetInt64(0)
			}
			left.Sub(left, k)
			keep[i] = k
		}
	}
	for i, p := range open {
		target := keep[i]
		if target.Cmp(parseInt(p.Remaining)) >= 0 {
			continue
		}
		var cut *big.Int
		q, err := e.mutate(ctx, p.ID, func(q *wire.Position) bool {
			cut = nil
			rem := parseInt(q.Remaining)
			if q.State != wire.PositionOpen || q.PendingSell != "" || rem.Cmp(target) <= 0 {
				return false
			}
			cut = new(big.Int).Sub(rem, target)
			q.Remaining = target.String()
			if target.Sign() == 0 {
				closePosition(q, e.now())
			}
			return true
		})
		if err != nil && !errors.Is(err, errNoPosition) {
			return err
		}
		if q != nil && cut != nil {
			e.log.Info("position reduced by a sell of the wallet", "position", q.ID, "sold", cut.String(),
				"remaining", q.Remaining, "state", q.State)
		}
	}
	return unread
}
