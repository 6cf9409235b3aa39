package exits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
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
	for _, en := range e.book.watching(k, obs) {
		p := en.p
		if p.State != wire.PositionOpen {
			continue
		}
		if i := firstDue(&en, obs, now); i >= 0 && p.PendingSell == "" {
			if err := e.fire(ctx, p.ID, i, en, obs); err != nil {
				e.log.Error("exit not fired", "position", p.ID, "exit", i, "type", p.Exits[i].Type, "err", err)
			}
			continue
		}
		if e.extremesMoved(p, en) {
			e.storeExtremes(ctx, p.ID, en)
		}
	}
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
	for _, d := range e.book.timeDue(tokens, now.Add(-grace)) {
		p := d.en.p
		e.log.Info("time exit overdue on a token another engine reads, claiming it", "position", p.ID, "exit", d.i,
			"token", p.Token, "chain", p.Chain)
		if err := e.fire(ctx, p.ID, d.i, d.en, Observation{At: now}); err != nil {
			e.log.Error("exit not fired", "position", p.ID, "exit", d.i, "type", p.Exits[d.i].Type, "err", err)
		}
	}
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
		high, dev := maxRat(parseRat(p.HighPrice), en.high), maxInt(parseInt(p.DevBalance), en.devMax)
		h, d := formatPrice(high), ""
		if dev != nil {
			d = dev.String()
		}
		if p.State != wire.PositionOpen || (h == p.HighPrice && d == p.DevBalance) {
			return false
		}
		p.HighPrice, p.DevBalance = h, d
		return true
	})
	if err != nil && !errors.Is(err, errNoPosition) {
		e.log.Warn("store position high", "position", id, "err", err)
	}
}

// fire claims exit i of a position with compare-and-set (it fails quietly
// when another engine claimed it or the position moved on), then
// publishes its sell.
func (e *Engine) fire(ctx context.Context, id string, i int, en entry, obs Observation) error {
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
		amount, _ := sellAmount(remaining, x.SellPct)
		at := obs.At.UTC()
		x.State = wire.ExitFiring
		x.SellOrderID = sellID(p.ID, i, x.Attempts)
		x.Attempts++
		x.FiredAt = &at
		x.FiredPrice = formatPrice(obs.Price)
		x.SellAmount = amount.String()
		x.Error = ""
		p.PendingSell = x.SellOrderID
		if h := maxRat(parseRat(p.HighPrice), en.high); h != nil {
			p.HighPrice = formatPrice(h)
		}
		claimed = p
		return true
	})
	if err != nil || claimed == nil || p == nil {
		return err
	}
	x := p.Exits[i]
	metrics.ExitsFired.WithLabelValues(p.Chain, x.Type).Inc()
	e.log.Info("exit fired", "position", p.ID, "order_id", p.OrderID, "chain", p.Chain, "type", x.Type,
		"sell_order_id", x.SellOrderID, "price", x.FiredPrice, "entry", p.EntryPrice, "sell_amount", x.SellAmount)
	if e.cfg.AfterClaim != nil && !e.cfg.AfterClaim(p.ID, i) {
		return nil
	}
	return e.publish(ctx, p, i)
}

// publish stores the exit's sell order, publishes its job and marks the
// exit fired. Every step may run again, in this engine or another: the
// order record is created once, the stream keeps one job per order id, and
// the last step is a compare-and-set from firing.
func (e *Engine) publish(ctx context.Context, p *wire.Position, i int) error {
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
	mode, legAmount, err := chain.SellLeg(ctx, p, amount, amount.Cmp(remaining) >= 0)
	if err != nil {
		return fmt.Errorf("sell leg: %w", err)
	}
	now := e.now().UTC()
	job := &wire.SwapJob{
		OrderID: x.SellOrderID, AccountID: p.AccountID, Family: p.Family, Chain: p.Chain, Token: p.Address,
		Side: wire.Sell, SellMode: mode, QuoteAsset: p.QuoteAsset,
		Legs:        []wire.Leg{{Wallet: p.Wallet, Amount: legAmount}},
		SlippageBps: e.cfg.SellSlippageBps, PriorityFee: "0", ProcessorTip: "0", AutoTip: e.cfg.AutoTip,
		AutoOrders: []wire.AutoOrder{}, CreatedAt: now,
	}
	rec := orders.New(orders.OfSwap(job))
	if err := e.orders.Create(ctx, rec); err != nil {
		return err
	}
	data, err := json.Marshal(job)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", job.OrderID, err)
	}
	// No reply header: nobody waits for this order's answer; the worker
	// and the broadcaster skip the reply and store the result as usual.
	msg := &nats.Msg{Subject: bus.OrdersSubject(job.Chain), Data: data, Header: nats.Header{}}
	msg.Header.Set(bus.HeaderOrder, job.OrderID)
	for try := 0; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err = e.js.PublishMsg(pctx, msg, jetstream.WithMsgID(job.OrderID))
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil || try >= 20 {
			return fmt.Errorf("publish sell %s: %w", job.OrderID, err)
		}
		e.log.Warn("publish exit sell, retrying", "sell_order_id", job.OrderID, "try", try, "err", err)
		time.Sleep(min(50*time.Millisecond<<min(try, 4), time.Second))
	}
	if x.FiredAt != nil {
		metrics.ExitPublish.WithLabelValues(p.Chain).Observe(e.now().Sub(*x.FiredAt).Seconds())
	}
	_, err = e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		if i >= len(q.Exits) || q.Exits[i].State != wire.ExitFiring || q.Exits[i].SellOrderID != x.SellOrderID {
			return false
		}
		q.Exits[i].State = wire.ExitFired
		return true
	})
	if err != nil {
		return fmt.Errorf("mark exit fired: %w", err)
	}
	e.emitFired(ctx, p, x)
	return nil
}

// emitFired publishes the exit_fired event of the buy; its id ends with
// the sell's order id, so a client links the two and a repeat is dropped.
func (e *Engine) emitFired(ctx context.Context, p *wire.Position, x wire.Exit) {
	at := e.now()
	if x.FiredAt != nil {
		at = *x.FiredAt
	}
	ev := &events.Event{ID: events.ID(p.OrderID, events.ExitFired, x.SellOrderID), Type: events.ExitFired,
		OrderID: p.OrderID, AccountID: p.AccountID, Chain: p.Chain, Side: wire.Sell, Address: p.Address,
		State: wire.ExitFired, Signatures: []wire.SigState{}, At: at.UTC()}
	if err := e.events.Publish(ctx, ev); err != nil {
		e.log.Warn("exit_fired event not published", "position", p.ID, "sell_order_id", x.SellOrderID, "err", err)
	}
}

// resumeStale finishes the publish of exits left firing longer than
// ResumeAfter: by an engine that died after its claim, or one whose
// publish is stuck. A sell whose order the pipeline already took is only
// marked fired.
func (e *Engine) resumeStale(ctx context.Context) {
	now := e.now()
	for _, p := range e.book.all() {
		for i, x := range p.Exits {
			if x.State != wire.ExitFiring || x.FiredAt == nil || now.Sub(*x.FiredAt) < e.cfg.ResumeAfter {
				continue
			}
			e.log.Info("resuming exit left firing", "position", p.ID, "exit", i, "sell_order_id", x.SellOrderID)
			if err := e.resume(ctx, p, i); err != nil {
				e.log.Warn("resume exit", "position", p.ID, "exit", i, "err", err)
			}
		}
	}
}

func (e *Engine) resume(ctx context.Context, p *wire.Position, i int) error {
	id := p.Exits[i].SellOrderID
	o, err := e.orders.Get(ctx, id)
	switch {
	case errors.Is(err, orders.ErrNotFound):
		return e.publish(ctx, p, i)
	case err != nil:
		return err
	case o.State == wire.StatePending:
		// Published or not, publishing again is harmless: the stream and
		// the worker's signed record keep one sell per order id.
		return e.publish(ctx, p, i)
	}
	_, err = e.mutate(ctx, p.ID, func(q *wire.Position) bool {
		if i >= len(q.Exits) || q.Exits[i].State != wire.ExitFiring || q.Exits[i].SellOrderID != id {
			return false
		}
		q.Exits[i].State = wire.ExitFired
		return true
	})
	if err == nil {
		e.emitFired(ctx, p, p.Exits[i])
	}
	return err
}

// remainingAfter subtracts sold from remaining, never below zero.
func remainingAfter(remaining, sold *big.Int) *big.Int {
	v := new(big.Int).Sub(remaining, sold)
	if v.Sign() < 0 {
		v.SetInt64(0)
	}
	return v
}
