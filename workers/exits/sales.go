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

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// A wallet's sales of a token are kept, per holding, as where each landed
// and what the wallet held right after it. A position can never keep more
// than its wallet held at any moment after its buy landed; the balance read
// when an event is handled is one such moment, but a late one: a sale
// handled after the wallet bought the token again (the exits role stopped
// or behind) would read the new tokens as the old position's, and its exit
// would sell them. Each sale's own moment is kept so that the positions
// bought before it are held to it, however late the sale's event, or the
// buy's, is handled (see reconcile and open).

// salesPrefix is the prefix of the sales keys in the positions bucket.
const salesPrefix = "sales."

// maxSales bounds the sales kept per holding, the latest kept; a sale
// older than closedRetention is dropped too.
const maxSales = 64

// salesKey is the key of a holding's sales.
func salesKey(h holding) string { return salesPrefix + h.chain + "." + h.wallet + "." + h.token }

// saleMark is one sale of a holding as kept.
type saleMark struct {
	In uint64 `json:"in"`
	// Balance is what the wallet held right after the sale; empty while
	// not read yet (readSales reads it when a position needs it).
	Balance string `json:"balance,omitempty"`
	// Sig is the sale's transaction, whose holding after it is read.
	Sig  string    `json:"sig,omitempty"`
	Seen time.Time `json:"seen"`
}

// unread reports whether the holding after the sale is not read yet.
func (m saleMark) unread() bool { return m.Balance == "" }

// markOf is the mark of a sale read from the chain.
func markOf(sig string, sale Sale) saleMark {
	return saleMark{In: sale.In, Balance: sale.Balance.String(), Sig: sig}
}

// unreadMark is the mark of a sale not read from the chain: where it landed
// as its event says (the slot, or the block, its tracker saw it in), its
// holding after it left to be read when a position needs it. An EVM sale
// counts as its block's last transaction until read, a Solana one as
// before a buy of its slot (solanaPlace).
func unreadMark(chain, sig string, slot uint64) saleMark {
	switch {
	case chain == wire.ChainSolana:
		return saleMark{In: solanaPlace(slot, true), Sig: sig}
	}
	return saleMark{In: slot<<16 | 0xffff, Sig: sig}
}

// saleMarks are a holding's sales, by where they landed.
type saleMarks struct {
	Sales []saleMark `json:"sales"`
}

// noteSale adds mark to the holding's sales, by compare-and-set: a read
// mark replaces the unread one of its sale; an unread one is not added
// beside its sale's mark.
func (e *Engine) noteSale(ctx context.Context, h holding, mark saleMark) error {
	key := salesKey(h)
	mark.Seen = e.now().UTC()
	for attempt := 0; ; attempt++ {
		marks, rev, err := e.loadSales(ctx, key)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(marks.Sales, func(m saleMark) bool {
			if mark.Sig != "" && m.Sig != "" {
				// Two sales may land in one slot or block: a sale is its
				// transaction.
				return m.Sig == mark.Sig && (mark.unread() || !m.unread())
			}
			return m.In == mark.In && m.Balance == mark.Balance
		}) {
			return nil // this sale's event handled before
		}
		if mark.Sig != "" {
			marks.Sales = slices.DeleteFunc(marks.Sales, func(m saleMark) bool { return m.Sig == mark.Sig })
		}
		marks.Sales = append(marks.Sales, mark)
		slices.SortFunc(marks.Sales, func(a, b saleMark) int { return cmp.Compare(a.In, b.In) })
		cutoff := e.now().Add(-closedRetention)
		marks.Sales = slices.DeleteFunc(marks.Sales, func(m saleMark) bool { return m.Seen.Before(cutoff) })
		if len(marks.Sales) > maxSales {
			marks.Sales = marks.Sales[len(marks.Sales)-maxSales:]
		}
		b, err := json.Marshal(marks)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = e.kv.Create(ctx, key, b)
		} else {
			_, err = e.kv.Update(ctx, key, b, rev)
		}
		if err == nil {
			return nil
		}
		if !bus.Conflict(err) || attempt >= 50 || ctx.Err() != nil {
			return fmt.Errorf("note a sale of %s: %w", key, err)
		}
	}
}

// sales returns the holding's sales as kept.
func (e *Engine) sales(ctx context.Context, h holding) ([]saleMark, error) {
	marks, _, err := e.loadSales(ctx, salesKey(h))
	return marks.Sales, err
}

// loadSales reads the sales at key and their revision, 0 when none.
func (e *Engine) loadSales(ctx context.Context, key string) (saleMarks, uint64, error) {
	var marks saleMarks
	en, err := e.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return marks, 0, nil
	}
	if err != nil {
		return marks, 0, fmt.Errorf("get %s: %w", key, err)
	}
	if err := json.Unmarshal(en.Value(), &marks); err != nil {
		return marks, 0, fmt.Errorf("decode %s: %w", key, err)
	}
	return marks, en.Revision(), nil
}

// lateEvent is how long after it was made an event counts as handled
// late: its engine stopped or behind, so that the buy of a position its
// sale bounds may not be open yet.
const lateEvent = 2 * time.Second

// saleMatters reports whether a sale of holding h, told by ev, is read at
// once: when a position of the holding is open, or the event comes late (a
// position it bounds may open after it). Any other is kept unread (its
// place from the event, no read of the chain), for a position whose buy's
// event is still to come: a bot that uses no exits costs a write per sale.
func (e *Engine) saleMatters(h holding, ev *events.Event) bool {
	return len(e.book.held(h)) > 0 || e.now().Sub(ev.At) > lateEvent
}

// readSales reads the holding after each unread sale of marks that lands
// after a position of open (their buys), noting what it read; a sale no
// position needs stays unread. It returns marks with what it read, and the
// first read that failed: its sale then bounds nothing yet.
func (e *Engine) readSales(ctx context.Context, h holding, marks []saleMark, open []*wire.Position) ([]saleMark, error) {
	chain := e.chains[h.chain]
	var first error
	for i, m := range marks {
		if !m.unread() || chain == nil || !slices.ContainsFunc(open, func(p *wire.Position) bool { return p.BoughtIn < m.In }) {
			continue
		}
		sale, err := chain.Sale(ctx, m.Sig, h.wallet, h.token)
		if err == nil {
			read := markOf(m.Sig, sale)
			err = e.noteSale(ctx, h, read)
			marks[i] = read
		}
		if err != nil && first == nil {
			first = fmt.Errorf("read the holding after sale %s: %w", m.Sig, err)
		}
	}
	return marks, first
}

// soldAfter reports whether one of marks landed after in, a position's
// buy: its position may keep more than the wallet held after that sale.
func soldAfter(marks []saleMark, in uint64) bool {
	return slices.ContainsFunc(marks, func(m saleMark) bool { return m.In > in })
}

// bound is one moment that bounds positions: what the wallet held right
// after a sale that landed at in, or now (in 0: every position).
type bound struct {
	in      uint64
	balance *big.Int
}

// bounds are the moments that bound a holding's positions: each kept sale,
// then the balance now.
func bounds(marks []saleMark, now *big.Int) []bound {
	out := make([]bound, 0, len(marks)+1)
	for _, m := range marks {
		if b, ok := new(big.Int).SetString(m.Balance, 10); ok {
			out = append(out, bound{in: m.In, balance: b})
		}
	}
	slices.SortStableFunc(out, func(a, b bound) int { return cmp.Compare(a.in, b.in) })
	return append(out, bound{balance: now})
}

// covers reports whether bound b holds for a position bought at in: the
// balance now holds for every one; a sale's, for one bought before the
// sale landed (a position whose buy's place is unknown, 0, is taken for
// bought before).
func (b bound) covers(in uint64) bool { return b.in == 0 || in < b.in }

// sweepSales drops the sales of key once the latest is older than
// closedRetention; it reports whether it did.
func (e *Engine) sweepSales(ctx context.Context, key string) bool {
	marks, rev, err := e.loadSales(ctx, key)
	if err != nil || rev == 0 {
		return false
	}
	cutoff := e.now().Add(-closedRetention)
	if slices.ContainsFunc(marks.Sales, func(m saleMark) bool { return !m.Seen.Before(cutoff) }) {
		return false
	}
	return e.kv.Purge(ctx, key, jetstream.LastRevision(rev), jetstream.PurgeTTL(bus.PositionsForget)) == nil
}
