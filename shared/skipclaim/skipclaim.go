// Package skipclaim keeps the claims of skip_if_bought: the record that
// makes one buy with skip_if_bought the one of its token in flight for an
// account. The trade history shows a buy only once it is sent, so two such
// buys at once would both find none there and both buy; the claim is what
// makes the second one skip.
//
// A token has several names (its mint, its pool, a pump.fun coin's bonding
// curve; an EVM token and its V2 pair or V3 pool), and two buys may name
// it differently. Ingress claims the name the request gives; the worker,
// once its signer has resolved the token's mint and before anything is
// signed, claims the mint too (Hold), so that buys naming the mint, a pool
// or a curve all meet on one key. Both take the claim by the same rules
// (Take), in the idempotency bucket.
package skipclaim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ErrHeld is Hold's answer when another order of the account that may
// still buy holds the token's claim: the buy is skipped.
var ErrHeld = errors.New("skip_if_bought: another buy of the token is in flight")

// Grace is how long past the longer of the request timeout and the job's
// maximum age a claim whose order has no record yet is still taken for
// live: its request may still be writing the record, or its job waiting
// for a worker, which runs it until that age.
const Grace = 5 * time.Second

// Claims takes skip_if_bought claims in the idempotency bucket. It is safe
// for concurrent use; a nil *Claims lets every buy go on.
type Claims struct {
	kv     jetstream.KeyValue
	orders *orders.Store
	// trades is the trade history Hold reads under the resolved mint
	// (WithTrades); nil reads none.
	trades jetstream.KeyValue
	// life bounds an order's chance to buy without a record: the longer
	// of the request timeout and the job's maximum age. A claim whose
	// order was never recorded is dead once it is older than that and
	// Grace.
	life time.Duration
	// timeout bounds one Take, whatever its caller's context says.
	timeout time.Duration
	// wait bounds the wait for an undecided holder (HolderWait).
	wait time.Duration
	log  *slog.Logger
}

// DefaultJobMaxAge is the job's maximum age New assumes when given none:
// the workers' default.
const DefaultJobMaxAge = 30 * time.Second

// New returns the claims kept in kv (the idempotency bucket), judging a
// holder's liveness by its record in store, and, while it has none, by
// requestTimeout and jobMaxAge (0: DefaultJobMaxAge): a job the stream
// holds may run until that age, record or not.
func New(kv jetstream.KeyValue, store *orders.Store, requestTimeout, jobMaxAge time.Duration, log *slog.Logger) *Claims {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if jobMaxAge <= 0 {
		jobMaxAge = DefaultJobMaxAge
	}
	wait := HolderWait
	if requestTimeout > 0 {
		// The buy that waits must still be answered in time.
		wait = min(wait, requestTimeout/2)
	}
	return &Claims{kv: kv, orders: store, life: max(requestTimeout, jobMaxAge), timeout: 5 * time.Second, wait: wait, log: log}
}

// WithTrades makes Hold read the account's trade history under the
// token's resolved mint, kept in kv, and returns c.
func (c *Claims) WithTrades(kv jetstream.KeyValue) *Claims {
	c.trades = kv
	return c
}

// claim is the record of a claim: the order that holds it and when that
// order was made.
type claim struct {
	Order string    `json:"order"`
	At    time.Time `json:"at"`
}

// Key is the idempotency bucket's key of the claim of token for account.
// On EVM a token is its chain's (one address can be two tokens on two
// chains): the key names the chain a buy names, and a buy that names none
// ("") claims the address on no chain in particular, where the buys that
// name none meet; its worker claims the token on the chain it resolved
// too (Hold), where the buys naming that chain meet it.
func Key(account string, f wire.Family, chain, token string) string {
	if f != wire.FamilyEVM || chain == wire.ChainAnyEVM {
		chain = ""
	}
	return bus.SkipClaimPrefix + "." + wire.TradeKey(account, f, chain, token)
}

// Take tells whether the order orderID, made at at, may buy token for
// account. The first claims the token in a create-only write; one that
// finds the claim held by another order skips while that order may have
// bought (it sent a transaction, or may have), takes the claim over, by
// revision, from an order that ended without a trade (failed, expired) or
// never came to be, and waits, up to HolderWait, for a holder that has
// sent nothing yet to do either: a buy that fails before it sends (a
// refusal of the signer or of the chain) must not have made the other
// skip, since then neither buys. A holder still undecided after the wait
// makes the buy skip, the safe side. The order that holds the claim
// already (a job delivered again) goes on. A claim that cannot be read or
// written lets the buy go on, with a warning: the trade history was read,
// and the claim only guards buys at the same moment; but a Take out of
// its time skips (storeFailed).
func (c *Claims) Take(ctx context.Context, account string, f wire.Family, chain, token, orderID string, at time.Time, log *slog.Logger) bool {
	return c.take(ctx, account, f, chain, token, orderID, at, c.wait, log)
}

// take is Take, waiting up to wait for an undecided holder.
func (c *Claims) take(ctx context.Context, account string, f wire.Family, chain, token, orderID string, at time.Time, wait time.Duration, log *slog.Logger) bool {
	if c == nil || c.kv == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
	defer cancel()
	key := Key(account, f, chain, token)
	mine, _ := json.Marshal(claim{Order: orderID, At: at})
	// Each turn ends with the claim taken, a skip, or another buy that took
	// the claim over first and is then waited for in its turn; however
	// many buys wait at once, the time bounds them (a buy out of time
	// skips, the safe side).
	for ctx.Err() == nil {
		_, err := c.kv.Create(ctx, key, mine)
		if err == nil {
			return true
		}
		if !bus.Conflict(err) {
			return c.storeFailed(ctx, "claim skip_if_bought", err, log)
		}
		e, err := c.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // deleted meanwhile: create again
		}
		if err != nil {
			return c.storeFailed(ctx, "read skip_if_bought claim", err, log)
		}
		var held claim
		if json.Unmarshal(e.Value(), &held) != nil || held.Order == "" {
			held = claim{}
		}
		if held.Order == orderID {
			return true
		}
		if held.Order != "" {
			if st := c.await(ctx, held, wait); st != ended {
				log.Info("skip_if_bought: another buy of the token is in flight", "holder", held.Order, "holder_sent", st == mayHaveBought)
				return false
			}
		}
		if _, err := c.kv.Update(ctx, key, mine, e.Revision()); err == nil {
			return true
		} else if !bus.Conflict(err) {
			return c.storeFailed(ctx, "take over skip_if_bought claim", err, log)
		}
		// Another buy took it over first: look again.
	}
	log.Info("skip_if_bought: out of time waiting for the other buys of the token")
	return false
}

// Release withdraws the claim order orderID holds on token for account: a
// buy refused before anything was signed, and given its unit back, leaves
// nothing behind (kept a day, the claims of buys refused for free, one per
// token named, grew the store past what the account's budget bounds). It
// returns the key when it deleted the claim, whose delete marker is the
// caller's to purge; a claim another order holds since is left, and one
// that cannot be read or deleted is logged and left.
func (c *Claims) Release(ctx context.Context, account string, f wire.Family, chain, token, orderID string, log *slog.Logger) (string, bool) {
	if c == nil || c.kv == nil {
		return "", false
	}
	key := Key(account, f, chain, token)
	e, err := c.kv.Get(ctx, key)
	if err != nil {
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			log.Warn("read the skip_if_bought claim of a refused buy", "err", err)
		}
		return "", false
	}
	var held claim
	if json.Unmarshal(e.Value(), &held) != nil || held.Order != orderID {
		return "", false
	}
	if err := c.kv.Delete(ctx, key, jetstream.LastRevision(e.Revision())); err != nil {
		if !bus.Conflict(err) {
			log.Warn("withdraw the skip_if_bought claim of a refused buy", "err", err)
		}
		return "", false
	}
	return key, true
}

// storeFailed decides a Take whose claim could not be read or written: the
// buy goes on (the trade history was read, and the claim only guards buys
// at the same moment), unless the Take ran out of its time, which a long
// wait for other buys of the token spends: another of them may hold the
// claim and be buying, and the buy skips, the safe side.
func (c *Claims) storeFailed(ctx context.Context, what string, err error, log *slog.Logger) bool {
	if ctx.Err() != nil {
		log.Info("skip_if_bought: out of time waiting for the other buys of the token", "err", err)
		return false
	}
	log.Warn(what, "err", err)
	return true
}

// holderState is what the order holding a claim has done with it.
type holderState int

const (
	// mayHaveBought: it sent a transaction, or may have (or its record
	// cannot be read).
	mayHaveBought holderState = iota
	// undecided: it has sent nothing yet and may still.
	undecided
	// ended: it can no longer buy.
	ended
)

// holder tells what the order holding a claim has done: ended when it
// ended failed or expired, or skipped without a trade (the worker found
// the token's mint held by another buy, after this name's claim was
// taken), or its record was never written though its request and its job
// have both run out of time; undecided while it has no record yet, or one
// pending without a transaction.
func (c *Claims) holder(ctx context.Context, held claim) holderState {
	o, err := c.orders.Get(ctx, held.Order)
	switch {
	case errors.Is(err, orders.ErrNotFound):
		if time.Since(held.At) > c.life+Grace {
			return ended
		}
		return undecided
	case err != nil:
		return mayHaveBought
	case o.State == wire.StateFailed || o.State == wire.StateExpired || (o.Skipped && len(o.Signatures) == 0):
		return ended
	case o.State == wire.StatePending && len(o.Signatures) == 0:
		return undecided
	}
	return mayHaveBought
}

// HolderWait bounds how long a buy waits at ingress for the order holding
// its token's claim to send or to fail (at most half the request timeout).
// Such an order is usually sent within milliseconds; one that waits longer
// is stuck behind others in its chain's queue.
const HolderWait = 3 * time.Second

// holderPoll is how often a waiting buy reads the holder's record.
const holderPoll = 10 * time.Millisecond

// await returns the holder's state once it has sent or ended, or
// undecided when it did neither within wait.
func (c *Claims) await(ctx context.Context, held claim, wait time.Duration) holderState {
	deadline := time.Now().Add(wait)
	for {
		st := c.holder(ctx, held)
		if st != undecided || !time.Now().Before(deadline) {
			return st
		}
		select {
		case <-ctx.Done():
			return undecided
		case <-time.After(holderPoll):
		}
	}
}

// Hold is the worker's claim for job, a swap of family f its signer
// resolved to the token mint on chain, taken before anything is signed:
// nil lets the job go on, ErrHeld skips the buy. Only a buy with
// skip_if_bought that named the token by another name than its mint, or
// an EVM buy that named no chain, pays for it: ingress read the trade
// history and claimed the name (and chain) the request gave, so for one
// that named the mint (and its chain) both are done already. A buy that
// named one pool of a token with several was looked up at ingress under
// that pool alone, where a buy through another pool, or by the mint, left
// no record: the trade history is read under the mint too (WithTrades),
// and a record of another order skips the buy.
func (c *Claims) Hold(ctx context.Context, f wire.Family, job *wire.SwapJob, chain, mint string) error {
	if c == nil || job.Side != wire.Buy || !job.SkipIfBought || mint == "" {
		return nil
	}
	if sameToken(f, job.Token, mint) && (f != wire.FamilyEVM || Key(job.AccountID, f, job.Chain, mint) == Key(job.AccountID, f, chain, mint)) {
		return nil
	}
	log := c.log.With("order_id", job.OrderID)
	if bought, err := c.boughtByMint(ctx, f, job, chain, mint); err != nil {
		// Not known: the job is tried again, as a read the signer needs.
		return fmt.Errorf("read the trade history of %s: %w", mint, err)
	} else if bought {
		log.Info("skip_if_bought: the account bought the token under its mint")
		return ErrHeld
	}
	// No wait here: the holder may be an order of the same wallet that
	// the worker signs only after this one (an EVM wallet's orders are
	// signed in turn), and the two would wait on each other.
	if c.take(ctx, job.AccountID, f, chain, mint, job.OrderID, job.CreatedAt, 0, log) {
		return nil
	}
	return ErrHeld
}

// boughtByMint reports whether the trade history holds a buy of mint, on
// chain for EVM (and under the chainless key earlier versions wrote), by
// another order than job's: a redelivered job's own record is its own.
func (c *Claims) boughtByMint(ctx context.Context, f wire.Family, job *wire.SwapJob, chain, mint string) (bool, error) {
	if c.trades == nil {
		return false, nil
	}
	// A read: it follows the caller, a stopping worker included.
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	keys := []string{wire.TradeKey(job.AccountID, f, "", mint)}
	if f == wire.FamilyEVM && chain != "" {
		keys = append(keys, wire.TradeKey(job.AccountID, f, chain, mint))
	}
	for _, k := range keys {
		e, err := c.trades.Get(ctx, k)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		pending, final := wire.TradeHolders(e.Value())
		if final && string(e.Value()) != job.OrderID || !final && slices.ContainsFunc(pending, func(id string) bool { return id != job.OrderID }) {
			return true, nil
		}
	}
	return false, nil
}

// sameToken reports whether a and b are one name of a token of family f:
// EVM addresses are compared without their checksum case.
func sameToken(f wire.Family, a, b string) bool {
	if f == wire.FamilyEVM {
		return strings.EqualFold(a, b)
	}
	return a == b
}
