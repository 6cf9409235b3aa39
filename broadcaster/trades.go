package broadcaster

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// The account's trade history, which skip_if_bought reads, holds one key
// per account and name of a token; ingress takes a key that exists for
// bought. Its value says how sure that is:
//
//   - "bought:<order>": an order of the account bought the token (a buy
//     confirmed, a launch landed); nothing takes it back. A value of an
//     earlier version, a bare order id, reads the same.
//   - "pending:<order>": a buy the chain took and that may land; once it
//     is final with nothing bought (failed, expired) it takes its key back,
//     unless another buy wrote the key since or relies on it.
//
// A buy of a token this process knows bought, or knows written by another
// buy lately, writes nothing (the repeat buys of a bot): it relies on that
// write, and is remembered as relying on it until it is final, so that the
// failure of the buy that wrote the key does not take back a key another
// buy in flight still needs. A confirmed buy marks its keys bought unless
// this process knows them bought.
const (
	tradePending = "pending:"
	tradeBought  = "bought:"
)

// tradeBought reports whether a trade-history value says bought.
func tradeIsBought(v []byte) bool { return !strings.HasPrefix(string(v), tradePending) }

// Trade-history keys are remembered for tradeKeyTTL, at most tradeKeysMax
// of them: a bound on what a bucket changed behind the service's back (a
// key purged by hand) can go unnoticed, and on memory. An order relying on
// a key is forgotten after relyTTL even if it never ended here (its
// tracking moved to another process).
const (
	tradeKeyTTL  = 10 * time.Minute
	tradeKeysMax = 1 << 16
	relyTTL      = time.Hour
)

// tradeBook is what this process knows of the trade-history keys it wrote
// or read lately.
type tradeBook struct {
	mu   sync.Mutex
	keys map[string]*tradeEntry
}

type tradeEntry struct {
	at     time.Time
	bought bool
	// relying are the orders that left their write out for this key,
	// with when.
	relying map[string]time.Time
}

// state reports whether key is known (written or read within
// tradeKeyTTL) and, if so, whether it says bought.
func (b *tradeBook) state(key string, now time.Time) (known, bought bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.keys[key]
	if e == nil || now.Sub(e.at) >= tradeKeyTTL {
		return false, false
	}
	return true, e.bought
}

// entry returns key's entry, made when missing; b.mu is held.
func (b *tradeBook) entry(key string) *tradeEntry {
	if b.keys == nil || len(b.keys) >= tradeKeysMax {
		b.keys = map[string]*tradeEntry{}
	}
	e := b.keys[key]
	if e == nil {
		e = &tradeEntry{relying: map[string]time.Time{}}
		b.keys[key] = e
	}
	return e
}

// wrote notes key as written or read at now, saying bought or pending.
func (b *tradeBook) wrote(key string, now time.Time, bought bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entry(key)
	e.at, e.bought = now, bought
}

// rely notes that order left its write of key out.
func (b *tradeBook) rely(key, order string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entry(key).relying[order] = now
}

// ended notes that order is final, and reports how many other orders
// still rely on key (within relyTTL).
func (b *tradeBook) ended(key, order string, now time.Time) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.keys[key]
	if e == nil {
		return 0
	}
	delete(e.relying, order)
	for o, at := range e.relying {
		if now.Sub(at) >= relyTTL {
			delete(e.relying, o)
		}
	}
	return len(e.relying)
}

// forget drops what this process knows of key.
func (b *tradeBook) forget(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.keys, key)
}

// recordTradeKey writes one trade-history key of a buy that may land: left
// out when this process knows the key bought, or written lately (the buy
// then relies on it); else created pending, or taken over pending from
// another buy still pending (whose failure then takes nothing back).
func (br *Broadcaster) recordTradeKey(ctx context.Context, d *delivery, key string) bool {
	start := time.Now()
	order := d.batch.OrderID
	if known, bought := br.traded.state(key, start); known {
		if !bought {
			br.traded.rely(key, order, start)
		}
		return true
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := writePending(tctx, br.b.Trades, key, order, func(bought bool) { br.traded.wrote(key, start, bought) })
	metrics.Stage.WithLabelValues(metrics.StageRecordTrade, d.batch.Chain).Observe(time.Since(start).Seconds())
	if err != nil {
		d.log.Error("record trade", "err", err)
		return false
	}
	return true
}

// writePending creates key pending for order, or takes it over from a buy
// still pending; a key that says bought is left as it is. noted is told
// what the key says once written or read.
func writePending(ctx context.Context, kv jetstream.KeyValue, key, order string, noted func(bought bool)) error {
	value := []byte(tradePending + order)
	for range 3 {
		_, err := kv.Create(ctx, key, value)
		if err == nil {
			noted(false)
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return err
		}
		en, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // taken back meanwhile
		}
		if err != nil {
			return err
		}
		if tradeIsBought(en.Value()) {
			noted(true)
			return nil
		}
		if string(en.Value()) == string(value) {
			noted(false)
			return nil
		}
		if _, err := kv.Update(ctx, key, value, en.Revision()); err == nil {
			noted(false)
			return nil
		} else if !bus.Conflict(err) {
			return err
		}
	}
	return errors.New("the trade-history key kept changing")
}

// markBought writes key as bought by order (a confirmed buy, a landed
// launch), unless this process knows it bought.
func (br *Broadcaster) markBought(ctx context.Context, key, order string) error {
	now := time.Now()
	if known, bought := br.traded.state(key, now); known && bought {
		return nil
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := br.b.Trades.Put(tctx, key, []byte(tradeBought+order)); err != nil {
		return err
	}
	br.traded.wrote(key, now, true)
	return nil
}

// keepTrades marks the trade-history keys of a buy that confirmed bought.
func (br *Broadcaster) keepTrades(ctx context.Context, o *wire.Order, log *slog.Logger) {
	for _, key := range o.TradeKeys {
		br.traded.ended(key, o.OrderID, time.Now())
		if err := br.markBought(ctx, key, o.OrderID); err != nil {
			log.Warn("mark the trade history of a confirmed buy bought", "key", key, "err", err)
		}
	}
}

// forgetTrades takes back the trade-history keys of a buy that ended with
// nothing bought (failed on chain, expired) where they still say it is
// pending and no other buy of this process relies on them: a later
// skip_if_bought buy of the token is then not skipped for a buy that never
// happened. A store that does not answer leaves the key (a later
// skip_if_bought buy is skipped, as before).
func (br *Broadcaster) forgetTrades(ctx context.Context, o *wire.Order, log *slog.Logger) {
	for _, key := range o.TradeKeys {
		if br.traded.ended(key, o.OrderID, time.Now()) > 0 {
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		en, err := br.b.Trades.Get(tctx, key)
		if err == nil && string(en.Value()) == tradePending+o.OrderID {
			if err = br.b.Trades.Delete(tctx, key, jetstream.LastRevision(en.Revision())); err == nil {
				br.traded.forget(key)
			}
		}
		cancel()
		if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) && !bus.Conflict(err) {
			log.Warn("take back the trade history of a buy that bought nothing; a skip_if_bought buy of the token is skipped meanwhile",
				"key", key, "err", err)
		}
	}
}
