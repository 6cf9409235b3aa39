package broadcaster

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// maxStatusBatch is how many signatures one status call asks about.
const maxStatusBatch = 256

// resendWallets bounds how many wallets' transactions are re-sent at once.
const resendWallets = 16

// tracked is one transaction awaiting a final state.
type tracked struct {
	OrderID   string    `json:"order_id"`
	Chain     string    `json:"chain"`
	Signature string    `json:"signature"`
	LastValid uint64    `json:"last_valid,omitempty"`
	Sender    string    `json:"sender,omitempty"`
	Since     time.Time `json:"since"`
	// Raw and Private are the transaction itself, kept for a chain whose
	// transactions are re-sent (a Resender, or a Rebroadcaster's public
	// ones), so that a restarted broadcaster re-sends them too and (a
	// Resender's) can tell when they can no longer land. Wallet signed it.
	Raw     []byte `json:"raw,omitempty"`
	Private bool   `json:"private,omitempty"`
	Wallet  string `json:"wallet,omitempty"`
	// Index is the transaction's place in its batch: re-sends keep the
	// batch's order, an approval before its swap.
	Index int `json:"index,omitempty"`
	// Closes is the token account the transaction closes (a Solana sell of
	// a wallet's whole holding): once it lands, the rent it returned is
	// read from it and shown on the order.
	Closes string `json:"closes,omitempty"`
	// Fee is what the transaction pays once it lands, when its signer said
	// (a Solana transaction's base and priority fees, in lamports).
	Fee uint64 `json:"fee,omitempty"`
	// Trades are the trade-history keys a buy is on (tradeKeys), settled
	// with the order (settleTrade); none for what earlier versions
	// tracked, whose keys stay as they were written.
	Trades []string `json:"trades,omitempty"`
	// SendBy is its batch's (wire.TxBatch.SendBy): from then on it is
	// watched, never sent again.
	SendBy time.Time `json:"send_by,omitzero"`
	// Network is what its batch was signed on (bus.HeaderNetwork): a
	// broadcaster of another never tracks it (Config.Network); none for
	// what earlier versions tracked.
	Network string `json:"network,omitempty"`

	// Only the poll loop reads and writes these.
	resentAt  time.Time // the last re-send; zero before the first
	goneSince time.Time // when its nonce was first seen used by another
	// expiredSeen is when the chain's height was first seen past
	// LastValid with no status, and expiredSlot the slot it was read at
	// (0 where the chain does not tell).
	expiredSeen time.Time
	expiredSlot uint64
	// order is the order record as this process last wrote it, shared by
	// the order's entries, so that settling it needs no read first; nil
	// for what a restart loaded.
	order *orders.Stored
}

// signed returns the transaction to send again.
func (e *tracked) signed() wire.SignedTx {
	return wire.SignedTx{Wallet: e.Wallet, Private: e.Private, Signature: e.Signature, Raw: e.Raw}
}

// tracker polls the state of every transaction that may land and moves it
// to confirmed, failed or expired in its order record. What it tracks is
// also kept in the tracking bucket, so a restarted broadcaster carries on.
type tracker struct {
	br      *Broadcaster
	mu      sync.Mutex
	pending map[string]map[string]*tracked // chain -> signature -> entry
	// warns keeps a chain's failing reads to a warning a minute.
	warns lograte.Warner
}

func newTracker(br *Broadcaster) *tracker {
	// Every chain's gauge exists from the start, at 0, not from its
	// first order.
	for chain := range br.chains {
		metrics.TrackedSignatures.WithLabelValues(chain).Add(0)
	}
	return &tracker{br: br, pending: map[string]map[string]*tracked{}}
}

// add tracks the transactions of a batch that were sent or may have been.
// The list is written to the bucket before it is tracked in memory, so
// that what is tracked survives a restart; a redelivered batch writes the
// same list again.
func (t *tracker) add(ctx context.Context, b *wire.TxBatch, network string, results []sendResult, order orders.Stored) error {
	_, resends := t.br.chains[b.Chain].(Resender)
	_, rebroadcasts := t.br.chains[b.Chain].(Rebroadcaster)
	now := time.Now()
	var list []*tracked
	known := &order
	trades := tradeKeys(b)
	for i, r := range results {
		if r.kind != sent && r.kind != unknown {
			continue
		}
		tx := b.Txs[i]
		e := &tracked{OrderID: b.OrderID, Chain: b.Chain, Signature: r.signature, LastValid: tx.LastValidBlockHeight,
			Since: now, Sender: senderOf(tx), Wallet: tx.Wallet, Index: i, Closes: tx.Closes, Fee: tx.FeeLamports, Trades: trades,
			SendBy: b.SendBy, Network: network, order: known}
		if resends || rebroadcasts && !tx.Private {
			e.Raw, e.Private = tx.Raw, tx.Private
		}
		list = append(list, e)
	}
	data, err := json.Marshal(list)
	if err != nil {
		return fmt.Errorf("encode tracking: %w", err)
	}
	if _, err := t.br.b.Tracking.Put(ctx, b.OrderID, data); err != nil {
		return fmt.Errorf("persist tracking: %w", err)
	}
	t.insert(list)
	return nil
}

func (t *tracker) insert(list []*tracked) (n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range list {
		if t.br.otherNetwork(e.Chain, e.Network) {
			// Another network's broadcaster's, which settles it.
			continue
		}
		n++
		m := t.pending[e.Chain]
		if m == nil {
			m = map[string]*tracked{}
			t.pending[e.Chain] = m
		}
		m[e.Signature] = e
	}
	for chain, m := range t.pending {
		metrics.TrackedSignatures.WithLabelValues(chain).Set(float64(len(m)))
	}
	return n
}

// load picks up the tracking a previous run left.
func (t *tracker) load(ctx context.Context) error {
	lister, err := t.br.b.Tracking.ListKeys(ctx)
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil
		}
		return fmt.Errorf("list tracking: %w", err)
	}
	n := 0
	for key := range lister.Keys() {
		e, err := t.br.b.Tracking.Get(ctx, key)
		if err != nil {
			continue
		}
		var list []*tracked
		if json.Unmarshal(e.Value(), &list) == nil {
			n += t.insert(list)
		}
	}
	if n > 0 {
		t.br.log.Info("resumed tracking", "signatures", n)
	}
	return nil
}

// run polls every chain on a clock of its own, so that a chain whose node
// is slow to answer, or whose poll has much to settle, delays no other.
func (t *tracker) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { t.adopt(ctx) })
	for name, chain := range t.br.chains {
		wg.Go(func() {
			every(ctx, t.br.cfg.Poll, func() {
				// A defect met in one poll is logged and the next poll runs:
				// what it left unsettled stays tracked.
				if p := guard.Catch(func() { t.poll(ctx, name, chain) }); p != nil {
					t.defect("poll of "+name, p)
				}
			})
		})
	}
	wg.Wait()
}

// every calls fn every d until ctx ends.
func every(ctx context.Context, d time.Duration, fn func()) {
	tick := time.NewTicker(d)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			fn()
		}
	}
}

// adopt takes over what another broadcaster tracked and no longer settles
// (it stopped for good, or died and is not coming back): every AdoptEvery
// it lists the tracking bucket's keys, one per order, and an order this
// process does not track that stays listed for AdoptAfter is read and
// tracked here too. A peer that is alive settles its orders well within
// that and purges their keys; an order tracked twice is what a restart
// makes anyway, and is settled once: its record's write is a
// compare-and-set and a tracker never changes a final state.
func (t *tracker) adopt(ctx context.Context) {
	seen := map[string]time.Time{}
	every(ctx, t.br.cfg.AdoptEvery, func() {
		var err error
		if p := guard.Catch(func() { err = t.adoptListed(ctx, seen, time.Now()) }); p != nil {
			t.defect("adoption", p)
			return
		}
		if err != nil && ctx.Err() == nil {
			t.br.log.Warn("list tracking for orders no broadcaster settles", "err", err)
		}
	})
}

// adoptListed is one round of adopt; seen holds when each key this
// process does not track was first listed.
func (t *tracker) adoptListed(ctx context.Context, seen map[string]time.Time, now time.Time) error {
	mine := t.orderIDs()
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	lister, err := t.br.b.Tracking.ListKeys(lctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		clear(seen)
		return nil
	}
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	var due []string
	for key := range lister.Keys() {
		listed[key] = true
		if mine[key] {
			delete(seen, key)
			continue
		}
		first, ok := seen[key]
		switch {
		case !ok:
			seen[key] = now
		case now.Sub(first) >= t.br.cfg.AdoptAfter:
			due = append(due, key)
		}
	}
	for key := range seen {
		if !listed[key] {
			delete(seen, key) // settled by its broadcaster
		}
	}
	n := 0
	for _, key := range due {
		e, err := t.br.b.Tracking.Get(lctx, key)
		if err != nil {
			continue // purged meanwhile, or asked again next round
		}
		var list []*tracked
		if json.Unmarshal(e.Value(), &list) == nil {
			n += t.insert(list)
		}
		delete(seen, key)
	}
	if n > 0 {
		t.br.log.Info("took over the tracking of orders no other broadcaster settled", "orders", len(due), "signatures", n,
			"listed_for", t.br.cfg.AdoptAfter)
	}
	return nil
}

// orderIDs are the orders this process tracks.
func (t *tracker) orderIDs() map[string]bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := map[string]bool{}
	for _, m := range t.pending {
		for _, e := range m {
			ids[e.OrderID] = true
		}
	}
	return ids
}

// verdict is a final state reached by one transaction.
type verdict struct {
	e     *tracked
	state string
	err   string
	// landed is set on a failed verdict when the chain holds the
	// transaction: it landed with an error.
	landed bool
	// slot and fee are where it landed and what it paid, when known.
	slot uint64
	fee  *big.Int
}

// poll asks a chain about everything tracked on it, re-sends what waits on
// a chain that re-sends, and settles what reached a final state.
func (t *tracker) poll(ctx context.Context, name string, chain Chain) {
	all := t.snapshot(name)
	if len(all) == 0 {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	done, waiting := t.check(cctx, name, chain, all)
	r, resends := chain.(Resender)
	if resends && len(waiting) > 0 {
		// Re-sends get a time of their own: the status calls may have
		// used up the poll's.
		rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
		done = append(done, t.replay(rctx, name, r, waiting)...)
		rcancel()
	}
	if len(done) > 0 {
		// Settling has a time of its own: the status calls may have used
		// up the poll's, and a backlog (a broadcaster back from a long
		// outage) settles one order after another.
		sctx, scancel := context.WithTimeout(ctx, settleTimeout)
		t.settle(sctx, name, done)
		scancel()
	}
	if !resends && len(waiting) > 0 {
		// After the settling: what landed is not held up by what did not.
		rctx, rcancel := context.WithTimeout(ctx, rebroadcastTimeout)
		t.rebroadcast(rctx, name, chain, waiting)
		rcancel()
	}
}

// Bounds of one poll's rebroadcast: how many transactions are sent again
// (the oldest sent first; the others wait for the next poll), how many at
// once, and for how long.
const (
	rebroadcastMax     = 512
	rebroadcastAtOnce  = 32
	rebroadcastTimeout = 2 * time.Second
)

// settleTimeout bounds one poll's settling.
const settleTimeout = 30 * time.Second

// snapshot returns what is tracked on a chain.
func (t *tracker) snapshot(name string) []*tracked {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := make([]*tracked, 0, len(t.pending[name]))
	for _, e := range t.pending[name] {
		all = append(all, e)
	}
	return all
}

// check reads the statuses and returns the verdicts they and the clock
// give, and, on a chain that re-sends, the transactions still without a
// receipt; on one that rebroadcasts, the public ones the chain has not
// seen while their blockhash is valid.
func (t *tracker) check(ctx context.Context, name string, chain Chain, all []*tracked) (done []verdict, waiting []*tracked) {
	_, resends := chain.(Resender)
	_, rebroadcasts := chain.(Rebroadcaster)
	height, herr := chain.Height(ctx)
	hslot := heightSlot(chain)
	if herr != nil {
		metrics.RPCErrors.WithLabelValues(name, "height").Inc()
		t.warns.WarnContext(ctx, t.br.log, name+" height", "read the chain's height to settle its transactions; none expires until it answers",
			"chain", name, "err", herr)
	}
	for start := 0; start < len(all); start += maxStatusBatch {
		part := all[start:min(start+maxStatusBatch, len(all))]
		sigs := make([]string, len(part))
		for i, e := range part {
			sigs[i] = e.Signature
		}
		sts, err := chain.Statuses(ctx, sigs)
		if err != nil || len(sts) != len(part) {
			// Nothing is decided on a failed read: asked again next poll.
			metrics.RPCErrors.WithLabelValues(name, "statuses").Inc()
			if err == nil {
				err = fmt.Errorf("%d statuses for %d signatures", len(sts), len(part))
			}
			t.warns.WarnContext(ctx, t.br.log, name+" statuses", "read the statuses of tracked transactions; asked again next poll",
				"chain", name, "signatures", len(part), "err", err)
			continue
		}
		for i, st := range sts {
			e := part[i]
			if v, ok := t.judge(e, st, resends, height, herr == nil, hslot); ok {
				done = append(done, v)
			} else if herr == nil && st.Slot == 0 && lagging(e, st) && time.Since(e.expiredSeen) > 10*t.br.cfg.ExpiryRecheck {
				t.warns.WarnContext(ctx, t.br.log, name+" behind", "a transaction past its last valid height waits to be expired "+
					"for a status from a node that reached the slot it was seen past at: the RPC's nodes lag",
					"chain", name, "order_id", e.OrderID, "node_slot", st.AsOf, "slot", e.expiredSlot)
			} else if resends && e.Raw != nil && st.Slot == 0 {
				waiting = append(waiting, e)
			} else if rebroadcasts && e.Raw != nil && !e.Private && st.Slot == 0 && herr == nil && height <= e.LastValid {
				waiting = append(waiting, e)
			}
		}
	}
	return done, waiting
}

// judge returns the final state a status, or the clock, gives a
// transaction. A transaction kept with its bytes on a chain that re-sends
// never expires by the clock: only replay expires it, once its nonce is
// gone.
func (t *tracker) judge(e *tracked, st Status, resends bool, height uint64, heightOK bool, hslot uint64) (verdict, bool) {
	switch {
	case st.State != "":
		return verdict{e: e, state: st.State, err: st.Err, landed: st.State == wire.StateFailed && st.Slot > 0,
			slot: st.Slot, fee: st.Fee}, true
	case resends && e.Raw != nil:
		return verdict{}, false
	case heightOK && e.LastValid > 0 && height > e.LastValid && st.Slot == 0:
		// Seen so twice, ExpiryRecheck apart, each time with no status,
		// the second from a node that reached the slot at which the
		// height was first seen past (one behind may not know yet a
		// transaction that landed before; it reaches that slot in as
		// long as it lags).
		now := time.Now()
		if e.expiredSeen.IsZero() {
			e.expiredSeen, e.expiredSlot = now, hslot
			return verdict{}, false
		}
		if now.Sub(e.expiredSeen) < t.br.cfg.ExpiryRecheck || lagging(e, st) {
			return verdict{}, false
		}
		return verdict{e: e, state: wire.StateExpired, err: "blockhash expired before the transaction landed"}, true
	case e.LastValid == 0 && time.Since(e.Since) > t.br.cfg.ConfirmAfter:
		// Only without a last valid height: one with it may land until
		// the chain's height passes it, however long that takes (skipped
		// slots, a halted cluster), and expired earlier it could land
		// after its bot was told it did not.
		return verdict{e: e, state: wire.StateExpired, err: "not seen on chain in time"}, true
	}
	return verdict{}, false
}

// lagging reports whether st came from a node that has not reached the
// slot at which e was first seen past its last valid height: one that may
// not know yet a transaction that landed. A status that tells no slot
// (AsOf 0: the chain does not say) is not lagging.
func lagging(e *tracked, st Status) bool {
	return !e.expiredSeen.IsZero() && behind(st.AsOf, e.expiredSlot)
}

// replay handles the transactions without a receipt on a chain that
// re-sends: one whose nonce another transaction took, seen so twice
// NonceRecheck apart, expired; every other is sent again once Resend has
// passed since it was last sent, until its SendBy.
func (t *tracker) replay(ctx context.Context, name string, r Resender, waiting []*tracked) []verdict {
	txs := make([]wire.SignedTx, len(waiting))
	for i, e := range waiting {
		txs[i] = e.signed()
	}
	gone, err := r.Superseded(ctx, txs)
	checked := err == nil && len(gone) == len(waiting)
	if !checked {
		// Nothing expires on a failed check; the re-sends still go.
		metrics.RPCErrors.WithLabelValues(name, "nonce").Inc()
		if err == nil {
			err = fmt.Errorf("%d answers for %d transactions", len(gone), len(waiting))
		}
		t.warns.WarnContext(ctx, t.br.log, name+" nonce", "read whether waiting transactions' nonces were taken; none expires until it answers",
			"chain", name, "transactions", len(waiting), "err", err)
		gone = make([]bool, len(waiting))
	}
	now := time.Now()
	var done []verdict
	var due []*tracked
	for i, e := range waiting {
		switch {
		case !checked && !e.goneSince.IsZero():
			// A failed check tells nothing: a nonce seen taken before
			// waits for the next check, its first sighting kept (nodes
			// apart may fail every other check).
		case !gone[i]:
			e.goneSince = time.Time{}
			if now.Sub(lastSent(e)) >= t.br.cfg.Resend && (e.SendBy.IsZero() || now.Before(e.SendBy)) {
				due = append(due, e)
			}
		case e.goneSince.IsZero():
			e.goneSince = now
		case now.Sub(e.goneSince) >= t.br.cfg.NonceRecheck:
			done = append(done, verdict{e: e, state: wire.StateExpired, err: "its nonce was used by another transaction before it landed"})
		}
	}
	t.resend(ctx, name, r, due)
	return done
}

// rebroadcast sends again, the same bytes, the public transactions of a
// Rebroadcaster that the chain has not seen for Rebroadcast since they
// were last sent (waiting, see check).
//
// A Solana transaction has no nonce: unlike resend, they go side by side,
// whatever their wallets, so that a slow sender holds up only its own.
func (t *tracker) rebroadcast(ctx context.Context, name string, chain Chain, waiting []*tracked) {
	now := time.Now()
	var due []*tracked
	for _, e := range waiting {
		if now.Sub(lastSent(e)) >= t.br.cfg.Rebroadcast && (e.SendBy.IsZero() || now.Before(e.SendBy)) {
			due = append(due, e)
		}
	}
	slices.SortFunc(due, func(a, b *tracked) int { return lastSent(a).Compare(lastSent(b)) })
	due = due[:min(len(due), rebroadcastMax)]
	g := guard.New()
	g.SetLimit(rebroadcastAtOnce)
	for _, e := range due {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			metrics.Rebroadcasts.WithLabelValues(name).Inc()
			t.sendAgain(ctx, name, chain, e)
			return nil
		})
	}
	t.defect("rebroadcast", g.Wait())
}

// lastSent is when a tracked transaction was last sent.
func lastSent(e *tracked) time.Time {
	if e.resentAt.IsZero() {
		return e.Since
	}
	return e.resentAt
}

// resend sends transactions without a receipt again, the same bytes: a
// node that dropped one from its pool (a restart, an eviction, a relay
// that forgot it) has it again, and one that still holds it answers
// "already known", which Send takes as success. A wallet's transactions go
// one after another in the order they were tracked, so that its nonces
// arrive in order; wallets go side by side. A failed re-send is tried
// again after the next Resend.
func (t *tracker) resend(ctx context.Context, name string, chain Chain, due []*tracked) {
	slices.SortStableFunc(due, func(a, b *tracked) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.OrderID, b.OrderID), cmp.Compare(a.Index, b.Index))
	})
	byWallet := map[string][]*tracked{}
	var wallets []string
	for _, e := range due {
		if byWallet[e.Wallet] == nil {
			wallets = append(wallets, e.Wallet)
		}
		byWallet[e.Wallet] = append(byWallet[e.Wallet], e)
	}
	g := guard.New()
	g.SetLimit(resendWallets)
	for _, w := range wallets {
		g.Go(func() error {
			for _, e := range byWallet[w] {
				t.sendAgain(ctx, name, chain, e)
			}
			return nil
		})
	}
	t.defect("re-send", g.Wait())
}

// sendAgain sends a tracked transaction again, the same bytes, and notes
// when. A refusal is the chain's answer (a blockhash gone, a nonce used, a
// simulation that fails now), not a failed call.
func (t *tracker) sendAgain(ctx context.Context, name string, chain Chain, e *tracked) {
	err := chain.Send(ctx, e.signed())
	e.resentAt = time.Now()
	if ref := (*Refused)(nil); err != nil && !errors.As(err, &ref) {
		metrics.RPCErrors.WithLabelValues(name, "resend").Inc()
	}
	t.br.log.Debug("transaction sent again", "order_id", e.OrderID, "chain", name, "signature", e.Signature,
		"waiting", time.Since(e.Since).Round(time.Second), "err", err)
}

// defect logs, with its stack, and counts a panic (guard) of the tracker's
// goroutines, which only ever return one: the poll goes on.
func (t *tracker) defect(what string, err error) {
	var p *guard.Panic
	if errors.As(err, &p) {
		metrics.Defect(t.br.log, bus.BroadcasterConsumer, "tracker "+what, p)
	}
}

// settle writes the verdicts into their orders, then stops tracking them.
func (t *tracker) settle(ctx context.Context, name string, done []verdict) {
	byOrder := map[string][]verdict{}
	for _, v := range done {
		byOrder[v.e.OrderID] = append(byOrder[v.e.OrderID], v)
	}
	rents := t.rents(ctx, name, done)
	// One order after another: settling them side by side halved how far
	// confirmations lag under load, but its bursts took the cores from the
	// orders in flight (their p99 at 500/s doubled); the order path wins.
	for id, vs := range byOrder {
		t.settleOrder(ctx, name, id, vs, rents)
	}
}

// countSettled counts the transactions this settle made final in the
// transaction and landing metrics: each verdict but those of signatures
// the order's record held final already (finalBefore), so that a
// transaction settled again (by a restarted tracker, or from a tracking
// entry taken over, or one a NATS server brought back after its purge) is
// counted once.
func countSettled(name string, vs []verdict, finalBefore []string) {
	for _, v := range vs {
		if slices.Contains(finalBefore, v.e.Signature) {
			continue
		}
		sender := cmp.Or(v.e.Sender, metrics.SenderRPC)
		metrics.Transactions.With(name, sender, txOutcome(v)).Inc()
		if v.state == wire.StateConfirmed {
			metrics.Stage.WithLabelValues(metrics.StageConfirmation, name).Observe(time.Since(v.e.Since).Seconds())
			metrics.Landing.WithLabelValues(name, sender).Observe(time.Since(v.e.Since).Seconds())
		}
	}
}

// txOutcome is a verdict's outcome in metrics.Transactions: a failed
// transaction landed with an error, or was dropped before it landed.
func txOutcome(v verdict) string {
	if v.state == wire.StateFailed && !v.landed {
		return metrics.TxDropped
	}
	return v.state
}

// rents reads what each confirmed transaction that closed a token account
// returned to its wallet, a few at a time. A read that fails leaves that
// rent out of the order: the trade itself is settled all the same.
func (t *tracker) rents(ctx context.Context, name string, done []verdict) map[string]uint64 {
	rr, ok := t.br.chains[name].(RentReader)
	if !ok {
		return nil
	}
	var mu sync.Mutex
	out := map[string]uint64{}
	g, gctx := guard.WithContext(ctx)
	g.SetLimit(16)
	for _, v := range done {
		if v.state != wire.StateConfirmed || v.e.Closes == "" {
			continue
		}
		g.Go(func() error {
			r, err := rr.RentReturned(gctx, v.e.Signature, v.e.Closes)
			if err != nil {
				t.br.log.Warn("read rent returned", "chain", name, "signature", v.e.Signature, "err", err)
				metrics.RPCErrors.WithLabelValues(name, "transaction").Inc()
				return nil
			}
			mu.Lock()
			out[v.e.Signature] = r
			mu.Unlock()
			return nil
		})
	}
	t.defect("read of rent returned", g.Wait())
	return out
}

// settleOrder writes one order's verdicts. The order's event is emitted
// before its tracking is forgotten, so a tracker that dies in between
// settles the order, and emits the event, again after its restart.
func (t *tracker) settleOrder(ctx context.Context, name, id string, vs []verdict, rents map[string]uint64) {
	final, wasFinal := false, false
	var stored wire.Order
	sigs := make([]string, len(vs))
	for i, v := range vs {
		sigs[i] = v.e.Signature
	}
	// The relay's verdicts on the order's bundles, as the chain keeps
	// them, go into the order with its transactions' final states.
	bundles := bundlesOf(t.br.chains[name], sigs)
	var known orders.Stored
	if k := vs[0].e.order; k != nil {
		known = *k
	}
	var openBefore, finalBefore []string
	unannounced := false
	written, err := t.br.orders.UpdateFromIfChanged(ctx, id, nil, known, func(o *wire.Order) bool {
		wasFinal = wire.FinalState(o.State)
		// An order final before (settled again after a restart) is written
		// only if this changes it: its updated_at does not move for nothing.
		var before []byte
		if wasFinal {
			before, _ = json.Marshal(o)
		}
		// Still pending: no send was known to reach the chain (answered
		// unknown, sent again by this tracker), so no broadcast event
		// went out.
		unannounced = o.State == wire.StatePending
		openBefore, finalBefore = openBefore[:0], finalBefore[:0]
		for _, s := range o.Signatures {
			if !wire.FinalState(s.State) {
				openBefore = append(openBefore, s.Signature)
			} else {
				finalBefore = append(finalBefore, s.Signature)
			}
		}
		t.addUnrecorded(o, name, vs)
		applyVerdicts(o, vs)
		applyLandingNotes(o, bundles, rents)
		if unannounced && !wire.FinalState(o.State) && !landed(o) {
			// Some of its transactions expired, none is known to have
			// reached the chain: it stays pending, so that the broadcast
			// event goes out when one of the others lands.
			o.State = wire.StatePending
		}
		final = wire.FinalState(o.State)
		stored = *o
		if !wasFinal {
			return true
		}
		after, err := json.Marshal(o)
		return err != nil || !bytes.Equal(before, after)
	})
	if k := vs[0].e.order; k != nil && err == nil {
		// The order's other transactions, settled later, start from this.
		*k = written
	}
	if err != nil && !errors.Is(err, orders.ErrNotFound) {
		t.br.log.Warn("store confirmation", "order_id", id, "err", err)
		return // tried again next poll
	}
	t.mu.Lock()
	for _, v := range vs {
		delete(t.pending[name], v.e.Signature)
	}
	metrics.TrackedSignatures.WithLabelValues(name).Set(float64(len(t.pending[name])))
	t.mu.Unlock()
	if err == nil {
		t.countLoneRPC(name, vs, openBefore)
		countSettled(name, vs, finalBefore)
	} else {
		countSettled(name, vs, nil) // no record to tell
	}
	var emitErr error
	if err == nil && unannounced && landed(&stored) {
		// The chain took a transaction of the order after all: its
		// broadcast event comes first, as for every order that landed,
		// here where the order leaves pending (a settle of some of its
		// transactions, or of all). Once the order has left pending it is
		// not emitted again: an emission that failed here is lost.
		announced := stored
		announced.State, announced.Error = wire.StateBroadcast, nil
		if eerr := t.br.events.Emit(ctx, events.Broadcast, &announced); eerr != nil {
			t.br.log.Warn("order's broadcast event not published", "order_id", id, "err", eerr)
		}
	}
	if final && err == nil {
		// Counted where the order became final, not where a restarted
		// tracker settles it again.
		if !wasFinal {
			metrics.OrdersFinal.With(name, stored.Venue, stored.State).Inc()
		}
		emitErr = t.settled(ctx, name, &stored, wasFinal)
	}
	if emitErr != nil {
		// Its tracking stays: a tracker takes it over (this one, once it
		// is listed for AdoptAfter, or another after a restart), settles
		// the order again and emits its event again; the event id is the
		// same, so a consumer that had it drops the repeat.
		t.br.log.Warn("order's final event not published; its tracking is kept so that it is emitted again", "order_id", id, "err", emitErr)
		return
	}
	if final && err == nil {
		// A buy's trade history, settled again as the order is (each
		// step is safe to repeat).
		if terr := t.br.settleTrade(ctx, &stored, vs[0].e.Trades); terr != nil {
			t.br.log.Warn("order's trade history not settled; its tracking is kept so that it is settled again", "order_id", id, "err", terr)
			return
		}
	}
	if final || errors.Is(err, orders.ErrNotFound) {
		if err := t.br.b.Tracking.Purge(ctx, id, jetstream.PurgeTTL(bus.TrackingForget)); err != nil {
			t.br.log.Warn("forget tracking", "order_id", id, "err", err)
		}
	}
}

// countLoneRPC counts as the lone RPC's landings the confirmed verdicts of
// transactions this process sent through it (not loaded at a restart nor
// adopted from another broadcaster) that this settle made confirmed (open
// lists the signatures the record held open before it), so that a
// transaction tracked again after a redelivery is counted once.
func (t *tracker) countLoneRPC(name string, vs []verdict, open []string) {
	lone, ok := t.br.chains[name].(interface{ loneRPC() bool })
	if !ok || !lone.loneRPC() {
		return
	}
	for _, v := range vs {
		if v.state == wire.StateConfirmed && v.e.order != nil && cmp.Or(v.e.Sender, metrics.SenderRPC) == metrics.SenderRPC &&
			slices.Contains(open, v.e.Signature) {
			metrics.SenderLanded.WithLabelValues(name, metrics.SenderRPC).Inc()
		}
	}
}

// addUnrecorded adds to o the transactions tracked for it that its record
// lacks, broadcast (sent, or maybe sent), each in its place in the batch
// (an approval before its swap: an order's state reads each wallet's last
// transaction). A batch whose stores failed through its last delivery was
// acked with its transactions tracked and its record without them, or with
// only those a delivery noted: no verdict could then settle the order (it
// stayed pending for good), or one could make it final while another of
// its transactions was still open. A record stored whole is not pending,
// so only a pending one, or one lacking a settled transaction, is looked
// at.
func (t *tracker) addUnrecorded(o *wire.Order, name string, vs []verdict) {
	have := make(map[string]bool, len(o.Signatures))
	for _, sg := range o.Signatures {
		have[sg.Signature] = true
	}
	if o.State != wire.StatePending && !slices.ContainsFunc(vs, func(v verdict) bool { return !have[v.e.Signature] }) {
		return // the common case
	}
	index := map[string]int{}
	var missing []*tracked
	consider := func(e *tracked) {
		index[e.Signature] = e.Index
		if !have[e.Signature] {
			have[e.Signature] = true
			missing = append(missing, e)
		}
	}
	for _, v := range vs {
		consider(v.e)
	}
	t.mu.Lock()
	for _, e := range t.pending[name] {
		if e.OrderID == o.OrderID {
			consider(e)
		}
	}
	t.mu.Unlock()
	if len(missing) == 0 {
		return
	}
	slices.SortStableFunc(missing, func(a, b *tracked) int { return cmp.Compare(a.Index, b.Index) })
	for _, e := range missing {
		// Before the first recorded transaction known to come after it.
		at := len(o.Signatures)
		for i, sg := range o.Signatures {
			if idx, ok := index[sg.Signature]; ok && idx > e.Index {
				at = i
				break
			}
		}
		o.Signatures = slices.Insert(o.Signatures, at, wire.SigState{Signature: e.Signature, Wallet: e.Wallet, State: wire.StateBroadcast})
	}
	t.br.log.Warn("order record lacked tracked transactions; added", "order_id", o.OrderID, "added", len(missing))
}

// applyVerdicts sets the signatures' final states and the order's state
// from them. An order whose send was answered UPSTREAM_TIMEOUT and that
// landed after all is confirmed without that error, and broadcast from when
// its first transaction was sent.
func applyVerdicts(o *wire.Order, vs []verdict) {
	for _, v := range vs {
		for i := range o.Signatures {
			// A final state stays what it is: the order's states that
			// are final are final.
			if o.Signatures[i].Signature == v.e.Signature && !wire.FinalState(o.Signatures[i].State) {
				o.Signatures[i].State = v.state
				o.Signatures[i].Error = v.err
				if v.state == wire.StateConfirmed || v.landed {
					noteLanding(&o.Signatures[i], v.slot, v.e.Fee, v.fee)
				}
			}
		}
		if v.state == wire.StateConfirmed && o.BroadcastAt == nil {
			o.BroadcastAt = ptr(v.e.Since.UTC())
		}
	}
	orders.Settle(o)
	if o.State == wire.StateConfirmed {
		o.Error = nil
	}
}

// noteLanding records on a landed transaction's signature where it landed
// and the fee it paid: the chain's figure when its status gave one (EVM),
// else what its signer computed (Solana).
func noteLanding(s *wire.SigState, slot, signerFee uint64, chainFee *big.Int) {
	s.Slot = slot
	switch {
	case chainFee != nil:
		s.FeeWei = chainFee.String()
	case signerFee > 0:
		s.FeeLamports = signerFee
	}
}

// landed reports whether the chain holds a transaction of o: one confirmed,
// or one that landed failed (it has a slot).
func landed(o *wire.Order) bool {
	for _, s := range o.Signatures {
		if s.State == wire.StateConfirmed || s.Slot > 0 {
			return true
		}
	}
	return false
}

// settled logs an order's final state and emits its event, and returns
// the emission's failure. An order final before (again) is settled again
// by a tracker that may have emitted its event already: the event goes out
// marked as a repeat, and it is not logged final a second time.
func (t *tracker) settled(ctx context.Context, chain string, o *wire.Order, again bool) error {
	typ, ok := events.FinalType(o.State)
	if !ok {
		return nil
	}
	failed := 0
	for _, s := range o.Signatures {
		if s.State != wire.StateConfirmed {
			failed++
		}
	}
	log := t.br.log.With("order_id", o.OrderID, "chain", chain, "state", o.State,
		"signatures", len(o.Signatures), "not_confirmed", failed)
	switch {
	case again:
		log.Debug("order final before, its event emitted again")
		return t.br.events.EmitAgain(ctx, typ, o)
	case o.State == wire.StateConfirmed && failed == 0:
		log.Debug("order final")
	case o.State == wire.StateConfirmed:
		// Confirmed by some of its transactions: the others' reasons.
		log.Info("order final, some of its transactions not confirmed", "err", finalReason(o))
	default:
		log.Info("order final", "err", finalReason(o))
	}
	return t.br.events.Emit(ctx, typ, o)
}

// finalReason is why an order did not confirm: its error, or else the
// errors of its transactions that did not, each once.
func finalReason(o *wire.Order) string {
	if o.Error != nil {
		return string(o.Error.Code) + ": " + o.Error.Message
	}
	var reasons []string
	for _, s := range o.Signatures {
		if s.State != wire.StateConfirmed && s.Error != "" && !slices.Contains(reasons, s.Error) {
			reasons = append(reasons, s.Error)
		}
	}
	return strings.Join(reasons, "; ")
}
