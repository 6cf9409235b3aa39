package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
//   - "pending:<order>,<order>...": the buys the chain took that may land
//     and are not final yet, each written by its own compare-and-set. A buy
//     that ends failed or expired takes itself out, and the last one out
//     deletes the key: then no buy of the token may land and none bought it.
//
// Everything a later read needs is in the value, so that a second
// broadcaster process, a restart or a settle repeated decides the same. A
// buy of a token this process knows bought writes nothing (a bot's repeat
// buys once the first confirmed); one of a token only pending adds itself.
const (
	tradePending = "pending:"
	tradeBought  = "bought:"
)

// tradeBuys reads a trade-history value: bought, or the buys pending.
func tradeBuys(v []byte) (bought bool, pending []string) {
	rest, ok := strings.CutPrefix(string(v), tradePending)
	if !ok {
		return true, nil
	}
	if rest == "" {
		return false, nil
	}
	return false, strings.Split(rest, ",")
}

// tradeKeyTTL is how long this process takes a key it saw bought for
// bought without reading it, at most tradeKeysMax of them: a bound on what
// a bucket changed behind the service's back (a key purged by hand) can go
// unnoticed, and on memory.
const (
	tradeKeyTTL  = 10 * time.Minute
	tradeKeysMax = 1 << 16
)

// tradeBook holds the trade-history keys this process saw bought lately.
type tradeBook struct {
	mu     sync.Mutex
	bought map[string]time.Time
}

func (b *tradeBook) isBought(key string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	at, ok := b.bought[key]
	return ok && now.Sub(at) < tradeKeyTTL
}

func (b *tradeBook) sawBought(key string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bought == nil || len(b.bought) >= tradeKeysMax {
		b.bought = map[string]time.Time{}
	}
	b.bought[key] = now
}

// maxTradeWrites bounds the compare-and-set rounds of one change of a key.
const maxTradeWrites = 8

// changeTrade applies change to key's pending buys by compare-and-set
// until it holds: change returns the new set, and whether to write it
// (false: nothing to change). A key that says bought is left as it is;
// one without buys is deleted.
func changeTrade(ctx context.Context, kv jetstream.KeyValue, key string, change func(pending []string) ([]string, bool)) (bought bool, err error) {
	for range maxTradeWrites {
		en, err := kv.Get(ctx, key)
		var rev uint64
		var pending []string
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return false, err
		default:
			rev = en.Revision()
			if bought, pending = tradeBuys(en.Value()); bought {
				return true, nil
			}
		}
		next, write := change(pending)
		switch {
		case !write:
			return false, nil
		case len(next) == 0 && rev == 0:
			return false, nil
		case len(next) == 0:
			err = kv.Delete(ctx, key, jetstream.LastRevision(rev))
		case rev == 0:
			_, err = kv.Create(ctx, key, []byte(tradePending+strings.Join(next, ",")))
		default:
			_, err = kv.Update(ctx, key, []byte(tradePending+strings.Join(next, ",")), rev)
		}
		if err == nil {
			return false, nil
		}
		if !bus.Conflict(err) && !errors.Is(err, jetstream.ErrKeyExists) {
			return false, err
		}
	}
	return false, fmt.Errorf("trade-history key %s kept changing", key)
}

// recordTradeKey writes one trade-history key of a buy that may land: the
// buy among the key's pending ones, unless the key says bought.
func (br *Broadcaster) recordTradeKey(ctx context.Context, d *delivery, key string) bool {
	start := time.Now()
	if br.traded.isBought(key, start) {
		return true
	}
	order := d.batch.OrderID
	tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	bought, err := changeTrade(tctx, br.b.Trades, key, func(pending []string) ([]string, bool) {
		if slices.Contains(pending, order) {
			return nil, false
		}
		return append(pending, order), true
	})
	metrics.Stage.WithLabelValues(metrics.StageRecordTrade, d.batch.Chain).Observe(time.Since(start).Seconds())
	if err != nil {
		d.log.Error("record trade", "err", err)
		return false
	}
	if bought {
		br.traded.sawBought(key, start)
	}
	return true
}

// markBought writes key as bought by order (a confirmed buy, a landed
// launch), unless this process saw it bought lately.
func (br *Broadcaster) markBought(ctx context.Context, key, order string) error {
	now := time.Now()
	if br.traded.isBought(key, now) {
		return nil
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := br.b.Trades.Put(tctx, key, []byte(tradeBought+order)); err != nil {
		return err
	}
	br.traded.sawBought(key, now)
	return nil
}

// settleTrades writes what a buy's end says of its trade-history keys: a
// confirmed buy marks them bought; one that ended with nothing bought
// (failed on chain, expired) takes itself out of their pending buys, the
// last one out deleting the key, so that a later skip_if_bought buy of the
// token is not skipped for a buy that never happened. Done again (a
// settle repeated) it changes nothing. A store that does not answer is the
// error: the order's tracking is kept and it is settled again.
func (br *Broadcaster) settleTrades(ctx context.Context, o *wire.Order) error {
	var errs []error
	for _, key := range o.TradeKeys {
		if o.State == wire.StateConfirmed {
			if err := br.markBought(ctx, key, o.OrderID); err != nil {
				errs = append(errs, fmt.Errorf("mark %s bought: %w", key, err))
			}
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := changeTrade(tctx, br.b.Trades, key, func(pending []string) ([]string, bool) {
			i := slices.Index(pending, o.OrderID)
			if i < 0 {
				return nil, false
			}
			return slices.Delete(slices.Clone(pending), i, i+1), true
		})
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("take %s out of %s: %w", o.OrderID, key, err))
		}
	}
	return errors.Join(errs...)
}
