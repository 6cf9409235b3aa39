package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// The trade history (skip_if_bought's) holds one key per name of a token an
// account bought. Its value says how the account holds it:
//
//   - a plain order id: bought for good. A buy that landed writes it, as a
//     launch does, and so did every earlier version; nothing takes it back.
//   - {"pending": [order ids]}: the buys of the token the chain took, none
//     of which has landed yet. Each joins the list when it is sent (before
//     its answer, so the bot's next skip_if_bought sees it), and one that
//     ends failed or expired, nothing of it landed, leaves it; the last to
//     leave deletes the key, and the token is no longer bought. A buy that
//     lands writes its id in the list's place.
//
// Every change of a list is a compare-and-set of the key, so buys of one
// token in several broadcasters, redelivered or settled again after a
// restart, decide alike; a buy on a list is never dropped from it but by
// itself, so the key stays while any of them may still land.
type pendingBuys struct {
	Pending []string `json:"pending"`
}

// maxPendingBuys bounds a list: a token with more buys in flight at once is
// written bought for good, as before lists were kept (the safe side: a
// later skip_if_bought buy is skipped even if all of them fail).
const maxPendingBuys = 64

// readTrade decodes a trade-history value (wire.TradeHolders).
func readTrade(v []byte) (pending []string, final bool) { return wire.TradeHolders(v) }

func pendingValue(ids []string) []byte {
	b, _ := json.Marshal(pendingBuys{Pending: ids})
	return b
}

// tradeKeys are the trade-history keys of a batch's buy: the token under
// every name a request may give it (the request's address, and the mint,
// pool and bonding curve the signer found), so that skip_if_bought by the
// mint sees a buy made by the pool's id and the reverse. None for a sale
// or a launch (which records each coin bought for good once its create
// landed, see recordLaunched).
func tradeKeys(b *wire.TxBatch) []string {
	if b.Side != wire.Buy || b.Kind == wire.KindDeploy {
		return nil
	}
	names := []string{b.Token}
	for _, n := range []string{b.Mint, b.Pool, b.Curve} {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = wire.TradeKey(b.AccountID, b.Family, b.Chain, n)
	}
	return keys
}

// tradeTimeout bounds one key's change, its compare-and-set retries
// included.
const tradeTimeout = 2 * time.Second

// joinTrade puts orderID, a buy the chain took or may have, on key's list:
// it makes the key, or joins the list of buys in flight; a key bought for
// good needs nothing (and is remembered as such for a while).
func (br *Broadcaster) joinTrade(ctx context.Context, key, orderID string) error {
	if br.traded.seen(key, time.Now()) {
		return nil
	}
	kv := br.b.Trades
	return retryCAS(ctx, func(ctx context.Context) error {
		_, err := kv.Create(ctx, key, pendingValue([]string{orderID}))
		if err == nil || !bus.Conflict(err) {
			return err
		}
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return errCASLost // its last buy left meanwhile: make it again
		}
		if err != nil {
			return err
		}
		pending, final := readTrade(e.Value())
		switch {
		case final:
			br.traded.add(key, time.Now())
			return nil
		case slices.Contains(pending, orderID):
			return nil // a batch delivered again
		case len(pending) >= maxPendingBuys:
			_, err = kv.Update(ctx, key, []byte(orderID), e.Revision())
		default:
			_, err = kv.Update(ctx, key, pendingValue(append(pending, orderID)), e.Revision())
		}
		return err
	})
}

// landTrade writes key bought for good by orderID, a buy that landed.
func (br *Broadcaster) landTrade(ctx context.Context, key, orderID string) error {
	if br.traded.seen(key, time.Now()) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, tradeTimeout)
	defer cancel()
	if _, err := br.b.Trades.Put(ctx, key, []byte(orderID)); err != nil {
		return err
	}
	br.traded.add(key, time.Now())
	return nil
}

// leaveTrade takes orderID, a buy that ended failed or expired with nothing
// of it landed, off key's list, and deletes the key when it was the list's
// last: the account no longer holds the token bought. A key bought for
// good, or a list it is not on, is left as it is. It reports whether it
// deleted the key.
func (br *Broadcaster) leaveTrade(ctx context.Context, key, orderID string) (deleted bool, err error) {
	kv := br.b.Trades
	err = retryCAS(ctx, func(ctx context.Context) error {
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		pending, final := readTrade(e.Value())
		i := slices.Index(pending, orderID)
		if final || i < 0 {
			return nil
		}
		rest := slices.Delete(slices.Clone(pending), i, i+1)
		if len(rest) > 0 {
			_, err = kv.Update(ctx, key, pendingValue(rest), e.Revision())
			return err
		}
		err = kv.Delete(ctx, key, jetstream.LastRevision(e.Revision()))
		deleted = err == nil
		return err
	})
	return deleted, err
}

// errCASLost is a step of retryCAS that found the key moved under it.
var errCASLost = errors.New("the key changed meanwhile")

// retryCAS runs step, one compare-and-set of a trade-history key, until it
// ends otherwise than by losing to another writer (a conflict, or
// errCASLost), pausing after each loss, within tradeTimeout.
func retryCAS(ctx context.Context, step func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, tradeTimeout)
	defer cancel()
	for conflicts := 0; ; conflicts++ {
		if conflicts > 0 {
			casBackoff(ctx, conflicts)
		}
		err := step(ctx)
		if err == nil || !errors.Is(err, errCASLost) && !bus.Conflict(err) {
			return err
		}
	}
}

// casBackoff waits before a compare-and-set tried again after its
// conflicts-th loss: a random pause growing with the losses (up to 2 ms),
// so that many buys of one token at once do not all read and write the
// key in step again.
func casBackoff(ctx context.Context, conflicts int) {
	d := time.Duration(rand.Int64N(int64(min(conflicts, 8)) * int64(250*time.Microsecond)))
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// recordTrade puts a buy that may land on its token's trade history, for
// the bot's next skip_if_bought, under each name of the token at once. It
// reports false when the store failed, so the batch comes back.
func (br *Broadcaster) recordTrade(ctx context.Context, d *delivery, o *outcome) bool {
	if !o.mayLand() {
		return true
	}
	keys := tradeKeys(d.batch)
	start := time.Now()
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, key := range keys {
		wg.Go(func() { errs[i] = br.joinTrade(ctx, key, d.batch.OrderID) })
	}
	wg.Wait()
	metrics.Stage.WithLabelValues(metrics.StageRecordTrade, d.batch.Chain).Observe(time.Since(start).Seconds())
	if err := errors.Join(errs...); err != nil {
		d.log.Error("record trade", "err", err)
		return false
	}
	return true
}

// settleTrade settles a final buy's trade history: bought for good when it
// landed (the order confirmed), taken off when it failed or expired.
func (br *Broadcaster) settleTrade(ctx context.Context, o *wire.Order, keys []string) error {
	var left []string
	for _, key := range keys {
		if o.State == wire.StateConfirmed {
			if err := br.landTrade(ctx, key, o.OrderID); err != nil {
				return fmt.Errorf("write the trade history of a buy that landed: %w", err)
			}
			continue
		}
		deleted, err := br.leaveTrade(ctx, key, o.OrderID)
		if err != nil {
			return fmt.Errorf("take a buy that did not land off the trade history: %w", err)
		}
		if deleted {
			left = append(left, key)
		}
	}
	if len(left) > 0 {
		br.log.Info("a buy that did not land no longer counts for skip_if_bought: no other buy of the token is in flight",
			"order_id", o.OrderID, "state", o.State, "keys", len(left))
	}
	return nil
}
