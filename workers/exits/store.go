package exits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// errNoPosition means the positions bucket has no such position.
var errNoPosition = errors.New("no such position")

// positionID names the position of the i-th signature of a buy. Order ids
// are KV-safe and never contain "-x", which sell ids use.
func positionID(orderID string, i int) string { return orderID + "-" + strconv.Itoa(i) }

// sellID is the order id of an exit's sell: the same for every engine that
// publishes it, different for each attempt.
func sellID(positionID string, exit, attempt int) string {
	return positionID + "-x" + strconv.Itoa(exit) + "r" + strconv.Itoa(attempt)
}

// parseSellID returns the position and exit of an exit sell's order id.
func parseSellID(id string) (positionID string, exit int, ok bool) {
	i := strings.LastIndex(id, "-x")
	if i <= 0 {
		return "", 0, false
	}
	rest := id[i+2:]
	j := strings.IndexByte(rest, 'r')
	if j <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil || n < 0 {
		return "", 0, false
	}
	if _, err := strconv.Atoi(rest[j+1:]); err != nil {
		return "", 0, false
	}
	return id[:i], n, true
}

// load reads a position and its revision.
func (e *Engine) load(ctx context.Context, id string) (*wire.Position, uint64, error) {
	en, err := e.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, errNoPosition
	}
	if err != nil {
		return nil, 0, fmt.Errorf("get position %s: %w", id, err)
	}
	var p wire.Position
	if err := json.Unmarshal(en.Value(), &p); err != nil {
		return nil, 0, fmt.Errorf("decode position %s: %w", id, err)
	}
	return &p, en.Revision(), nil
}

// create stores a new position; false when it was there already.
func (e *Engine) create(ctx context.Context, p *wire.Position) (bool, error) {
	p.Version = 1
	b, err := json.Marshal(p)
	if err != nil {
		return false, fmt.Errorf("encode position %s: %w", p.ID, err)
	}
	if _, err := e.kv.Create(ctx, p.ID, b); err != nil {
		if bus.Conflict(err) {
			return false, nil
		}
		return false, fmt.Errorf("create position %s: %w", p.ID, err)
	}
	e.keep(p)
	e.mirror(ctx, p)
	return true, nil
}

// mutate applies fn to the stored position and writes it back with
// compare-and-set, reading again when another engine wrote in between. fn
// returns false to write nothing. It returns the position as written, or
// nil when fn declined.
func (e *Engine) mutate(ctx context.Context, id string, fn func(p *wire.Position) bool) (*wire.Position, error) {
	return e.update(ctx, id, fn, true)
}

// update is mutate; it mirrors the position into its buy's order only when
// mirror is set, which a write of nothing the order lookup shows need not.
func (e *Engine) update(ctx context.Context, id string, fn func(p *wire.Position) bool, mirror bool) (*wire.Position, error) {
	for attempt := 0; ; attempt++ {
		p, rev, err := e.load(ctx, id)
		if err != nil {
			return nil, err
		}
		if !fn(p) {
			return nil, nil
		}
		p.Version++
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encode position %s: %w", id, err)
		}
		_, err = e.kv.Update(ctx, id, b, rev)
		if err == nil {
			e.keep(p)
			if mirror {
				e.mirror(ctx, p)
			}
			return p, nil
		}
		if !bus.Conflict(err) || attempt >= 50 || ctx.Err() != nil {
			return nil, fmt.Errorf("update position %s: %w", id, err)
		}
	}
}

// mirror writes the position's view into its buy's order record, so the
// order lookup shows it. A newer view already there is kept; a failure is
// logged and mended by the position's next write.
func (e *Engine) mirror(ctx context.Context, p *wire.Position) {
	v := p.View()
	mctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	err := e.orders.Update(mctx, p.OrderID, nil, func(o *wire.Order) {
		for i := range o.Positions {
			if o.Positions[i].ID == v.ID {
				if o.Positions[i].Version <= v.Version {
					o.Positions[i] = v
				}
				return
			}
		}
		o.Positions = append(o.Positions, v)
		sort.Slice(o.Positions, func(i, j int) bool { return o.Positions[i].ID < o.Positions[j].ID })
	})
	if err != nil {
		e.log.Warn("position not shown on its order", "position", p.ID, "order_id", p.OrderID, "err", err)
	}
}

// closePosition marks p closed and cancels its armed exits.
func closePosition(p *wire.Position, now time.Time) {
	p.State = wire.PositionClosed
	p.Remaining = "0"
	t := now.UTC()
	p.ClosedAt = &t
	p.PendingSell = ""
	clearClaim(p)
	for i := range p.Exits {
		if p.Exits[i].State == wire.ExitArmed {
			// A cancelled exit fires no more: no time to fire again.
			p.Exits[i].State, p.Exits[i].RetryAt = wire.ExitCancelled, nil
		}
	}
}

// abandon closes the open positions of a token that left the venue it
// was bought on for one the service does not trade (a launchpad coin that
// moved to its AMM): no exit of theirs could ever sell. Their armed exits
// are cancelled with the reason, and what they hold stays as Remaining,
// the wallet's to sell elsewhere. A position with a sell in flight waits
// for its outcome.
func (e *Engine) abandon(ctx context.Context, k tokenKey, why error) {
	for _, en := range e.book.watching(k, Observation{}) {
		if en.p.State != wire.PositionOpen || en.p.PendingSell != "" {
			continue
		}
		q, err := e.mutate(ctx, en.p.ID, func(q *wire.Position) bool {
			if q.State != wire.PositionOpen || q.PendingSell != "" {
				return false
			}
			for i := range q.Exits {
				if q.Exits[i].State == wire.ExitArmed {
					q.Exits[i].State, q.Exits[i].RetryAt = wire.ExitCancelled, nil
					q.Exits[i].Error = why.Error()
				}
			}
			q.State = wire.PositionClosed
			t := e.now().UTC()
			q.ClosedAt = &t
			return true
		})
		switch {
		case err != nil && !errors.Is(err, errNoPosition):
			e.log.Warn("position of a token that left its venue not closed", "position", en.p.ID, "err", err)
		case q != nil:
			e.log.Info("position closed: its token left the venue it was bought on", "position", q.ID,
				"token", q.Token, "remaining", q.Remaining, "reason", why.Error())
		}
	}
}

// closedRetention is how long a closed position stays in the bucket; its
// order record keeps its view for as long as the order is kept.
const closedRetention = 7 * 24 * time.Hour

// sweep deletes closed positions older than closedRetention.
func (e *Engine) sweep(ctx context.Context) {
	lister, err := e.kv.ListKeys(ctx)
	if err != nil {
		if !errors.Is(err, jetstream.ErrNoKeysFound) {
			e.log.Warn("list positions", "err", err)
		}
		return
	}
	n := 0
	for key := range lister.Keys() {
		if strings.HasPrefix(key, budgetPrefix) {
			continue
		}
		if strings.HasPrefix(key, salesPrefix) {
			if e.sweepSales(ctx, key) {
				n++
			}
			continue
		}
		p, rev, err := e.load(ctx, key)
		if err != nil || p.State != wire.PositionClosed || p.ClosedAt == nil || e.now().Sub(*p.ClosedAt) < closedRetention {
			continue
		}
		if err := e.kv.Purge(ctx, key, jetstream.LastRevision(rev), jetstream.PurgeTTL(bus.PositionsForget)); err == nil {
			n++
		}
	}
	if n > 0 {
		e.log.Info("closed positions, and sales no position needs, swept", "count", n)
	}
}
