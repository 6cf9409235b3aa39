package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// DefaultNonceStale is how long the chain's pending nonce may sit below the
// record, without moving, before the nonces past it count as lost.
const DefaultNonceStale = 30 * time.Second

// maxNonceAttempts bounds the compare-and-set retries of one Take; two
// workers racing on one wallet settle in a few.
const maxNonceAttempts = 64

// ErrNonceContention is returned when a record kept changing under one
// Take for maxNonceAttempts tries in a row.
var ErrNonceContention = errors.New("nonce record contended")

// nonceRecord is one wallet's record in the nonces bucket.
type nonceRecord struct {
	// Next is the next nonce to hand out.
	Next uint64 `json:"next"`
	// Seen is the chain's pending nonce as last observed, and SeenAt when
	// it was first observed at that value while nonces past it were out
	// (or last observed with none out).
	Seen   uint64    `json:"seen"`
	SeenAt time.Time `json:"seen_at"`
	// Updated is when a nonce was last handed out or given back.
	Updated time.Time `json:"updated"`
	// Spends are what the wallet's transactions signed and not known to be
	// mined take from it (see Claim), for every worker of the chain.
	Spends []RecordSpend `json:"spends,omitempty"`
	// Reclaims counts the times nonces were handed out again (reconcile):
	// a signing's nonces are its own to give back only while it has not
	// changed since their take (see ReleaseFor).
	Reclaims uint64 `json:"reclaims,omitempty"`
}

// RecordSpend is what one signing of an order's transactions takes of one
// of the wallet's tokens (Token "" is the native coin): Amount in base
// units, at most, until the signing's last nonce (Nonce) is mined, or until
// Until, past which they can no longer land. Count is how many nonces the
// signing took, the last being Nonce (0 in records of earlier versions,
// which did not say). An entry with Approves takes nothing: it is an
// approval among the order's transactions, of Token for that spender.
//
// An order signed twice (a redelivered job whose first delivery stalled)
// has an entry per signing: only one of its batches is ever handed on (the
// create-only publish), but until the dropped one's entries are gone (see
// ReleaseFor) either may be the one in flight, so each keeps its nonces
// and the order's amount counts once (Outstanding).
type RecordSpend struct {
	Order    string    `json:"order"`
	Nonce    uint64    `json:"nonce"`
	Count    uint64    `json:"count,omitempty"`
	Token    string    `json:"token,omitempty"`
	Amount   *big.Int  `json:"amount,omitempty"`
	Approves string    `json:"approves,omitempty"`
	Until    time.Time `json:"until"`
	// Epoch is the record's Reclaims when the signing took its nonces,
	// and Taken when (zero in records of earlier versions).
	Epoch uint64    `json:"epoch,omitempty"`
	Taken time.Time `json:"taken,omitempty"`
	// MaxTip is the priority fee cap, in wei per gas, of the signing's
	// account (nil in records of earlier versions): a filler of a gap the
	// signing waits behind pays no more, whichever process fills it.
	MaxTip *big.Int `json:"max_tip,omitempty"`
}

// holds reports whether the signing sp was, took nonce n: any nonce up to
// its last when the record does not say how many it took.
func (sp *RecordSpend) holds(n uint64) bool {
	return sp.overlaps(n, n)
}

// overlaps reports whether the signing sp was took any nonce of
// [first, last].
func (sp *RecordSpend) overlaps(first, last uint64) bool {
	if sp.Count == 0 {
		return first <= sp.Nonce
	}
	return first <= sp.Nonce && last+sp.Count > sp.Nonce
}

// Claim is what an order's transactions of one wallet take from it,
// checked and recorded with their nonces: Held are the wallet's balances
// as read (the native coin at the zero address), when its mined
// transaction count was Mined; Spend what the order takes of each.
type Claim struct {
	Order string
	Mined uint64
	Held  map[common.Address]*big.Int
	Spend map[common.Address]*big.Int
	Until time.Time
	// Approves is the approval among the order's transactions, if any.
	Approves *Approval
	// MaxTip is the order's priority fee cap, in wei per gas
	// (RecordSpend.MaxTip).
	MaxTip *big.Int
	// Allowance, when set, is the allowance the order's swap spends
	// without an approval of its own or one it awaits (see Allowance).
	Allowance *Allowance
	// Share, when set, is the token whose spend is a share of the
	// wallet's balance net of its sales in flight as the order read them
	// (a sale of a percent): a sale of it another order took since makes
	// the take fail with ErrSoldSince, so that the share is worked out
	// again instead of being taken from a balance it no longer is a share
	// of. It applies to a take that starts from the record the share was
	// worked out from.
	Share *common.Address
}

// ErrSoldSince is a Claim with a Share that another order's sale of the
// token, taken since the record was read, would make more than its share.
var ErrSoldSince = errors.New("another sale of the wallet's token was taken since its balance was read")

// Approval is an approval of Token's allowance for Spender.
type Approval struct {
	Token, Spender common.Address
}

// Allowance is a spender's allowance of Token as read (Amount) when the
// wallet's mined transaction count was the Claim's Mined, which the
// order's swap spends without an approval of its own. What the wallet's
// other transactions not yet mined spend of Token uses it up first: a
// spend's record does not name its router, so each counts, whichever
// router it goes through. An approval of Token for Spender that another
// order of the wallet has on its way makes the allowance unlimited before
// the swap, whose nonce comes after it.
type Allowance struct {
	Token, Spender common.Address
	Amount         *big.Int
}

// ErrAllowanceSpent is a Claim whose swap relies on an allowance that the
// wallet's other transactions not yet mined, taken since the allowance
// was read, leave short of the order's spend: signed so, the swap would
// revert on chain for want of an allowance, its gas paid.
type ErrAllowanceSpent struct {
	Token, Spender       common.Address
	Allowed, Taken, Want *big.Int
}

func (e *ErrAllowanceSpent) Error() string {
	return fmt.Sprintf("allows %s %s base units of token %s, of which its transactions not yet mined spend %s, and the order spends %s",
		e.Spender.Hex(), e.Allowed, e.Token.Hex(), e.Taken, e.Want)
}

// ErrApproving is a Claim whose approval another order of the wallet,
// not yet mined, already makes: that order's approval is the one to rely
// on (see Approving).
var ErrApproving = errors.New("the wallet's approval is on its way in another order")

// Approving reports whether spends not yet mined and still able to land
// at now hold an approval a, leaving out order's.
func Approving(spends []RecordSpend, a Approval, mined uint64, now time.Time, order string) bool {
	token, spender := tokenName(a.Token), strings.ToLower(a.Spender.Hex())
	return slices.ContainsFunc(spends, func(sp RecordSpend) bool {
		return sp.Approves == spender && sp.Token == token && sp.Nonce >= mined && now.Before(sp.Until) && sp.Order != order
	})
}

// ErrSpent is a Claim whose wallet's balance, less what its other
// transactions not yet mined take, does not cover the order.
type ErrSpent struct {
	Token             common.Address
	Held, Taken, Want *big.Int
}

func (e *ErrSpent) Error() string {
	what := "token " + e.Token.Hex()
	if e.Token == (common.Address{}) {
		what = "the native coin"
	}
	return fmt.Sprintf("holds %s base units of %s, of which its transactions not yet mined take %s, and the order takes %s", e.Held, what, e.Taken, e.Want)
}

// Outstanding is what spends not yet mined (Nonce at or past mined) and
// still able to land at now take of token, leaving out order's. An order
// signed more than once counts once, at its largest: only one of its
// batches is handed on.
func Outstanding(spends []RecordSpend, token common.Address, mined uint64, now time.Time, order string) *big.Int {
	sum := new(big.Int)
	for _, amount := range outstandingBy(spends, token, mined, now, order) {
		sum.Add(sum, amount)
	}
	return sum
}

// outstandingBy is Outstanding by order: each other order's largest
// spend of token.
func outstandingBy(spends []RecordSpend, token common.Address, mined uint64, now time.Time, order string) map[string]*big.Int {
	byOrder := map[string]*big.Int{}
	name := tokenName(token)
	for _, sp := range spends {
		if sp.Token == name && sp.Approves == "" && sp.Nonce >= mined && now.Before(sp.Until) && sp.Order != order && sp.Amount != nil {
			if was := byOrder[sp.Order]; was == nil || was.Cmp(sp.Amount) < 0 {
				byOrder[sp.Order] = sp.Amount
			}
		}
	}
	return byOrder
}

// soldMeanwhile reports whether spends hold a sale of token, other than
// order's, that planned (by outstandingBy of the record as read) did not,
// or a larger one: whatever else left the record meanwhile (mined, or
// past its time), that sale was not counted when the share was worked out.
func soldMeanwhile(planned map[string]*big.Int, spends []RecordSpend, token common.Address, mined uint64, now time.Time, order string) bool {
	for o, amount := range outstandingBy(spends, token, mined, now, order) {
		if was, ok := planned[o]; !ok || amount.Cmp(was) > 0 {
			return true
		}
	}
	return false
}

func tokenName(token common.Address) string {
	if token == (common.Address{}) {
		return ""
	}
	return strings.ToLower(token.Hex())
}

// Pending returns the spends of wallet's record on chain.
func (n *Nonces) Pending(ctx context.Context, chain string, wallet common.Address) ([]RecordSpend, error) {
	spends, _, err := n.pendingRead(ctx, chain, wallet)
	return spends, err
}

// recordRead is a wallet's record as an order's reads found it: its
// encoding and revision (0: no record). The order's take starts from it
// instead of reading the record again; its compare-and-set holds only
// while the record is still at that revision, so a take that starts from
// it ends exactly as one that read the record at the moment it writes.
type recordRead struct {
	key  string
	data []byte
	rev  uint64
}

// pendingRead is Pending, with the record as read for the wallet's take.
func (n *Nonces) pendingRead(ctx context.Context, chain string, wallet common.Address) ([]RecordSpend, *recordRead, error) {
	key := nonceKey(chain, wallet)
	data, rev, err := n.getRaw(ctx, key)
	if err != nil {
		return nil, nil, err
	}
	rec, err := decodeRecord(key, data, rev)
	if err != nil {
		return nil, nil, err
	}
	return rec.Spends, &recordRead{key: key, data: data, rev: rev}, nil
}

// Nonces assigns EVM account nonces. The record of each (chain, wallet) in
// the nonces bucket is the one owner of that wallet's nonces: every
// assignment is a compare-and-set on the record's revision, so workers in
// any number of processes, before and after restarts, never hand out one
// nonce twice, and the nonces of a wallet come out contiguous. See the
// package documentation for how a record is reconciled with the chain.
//
// Nonces is safe for concurrent use.
type Nonces struct {
	kv    jetstream.KeyValue
	stale time.Duration
	now   func() time.Time
	log   *slog.Logger
	// inFlight, when set, tells whether an order's transactions may still
	// reach the chain (see WithInFlight).
	inFlight InFlight
	// ended, when set, tells whether an order ended (see WithEnded), and
	// endedSeen remembers the orders it said ended.
	ended OrderEnded
	// approvalRefused, when set, tells whether an order's approval can
	// no longer reach the chain (see WithApprovalsRefused).
	approvalRefused ApprovalRefused
	// endedSeen remembers the questions answered yes (an order ended, an
	// approval refused: neither changes its mind), liveSeen when one was
	// last answered no.
	endedMu   sync.Mutex
	endedSeen map[string]struct{}
	liveSeen  map[string]time.Time
}

// InFlight reports whether wallet's transaction at nonce, signed for order
// on chain, may still reach the chain: the order's batch, published, holds
// it, and the order has not failed or expired. A nonce such a transaction
// holds is not lost, however long the chain has not seen it: its batch
// waits for a broadcaster. A transaction of a batch that was dropped
// unsent (the order signed again by another delivery, which handed its
// batch on first, or voided) is not in flight, whatever the order's state.
type InFlight func(ctx context.Context, chain, order string, wallet common.Address, nonce uint64) (bool, error)

// WithInFlight makes the reclaim of a nonce the chain has not reached, and
// the gap filler's claim of it, wait while an order that holds it (by the
// record's spends, which last until the order's swaps can no longer land)
// is in flight by f. Without it a broadcaster down for longer than the
// reclaim bound had the nonces of the batches it had not sent yet handed
// out again: two orders' transactions on one nonce, or on the local chains
// one transaction two orders claimed.
func (n *Nonces) WithInFlight(f InFlight) *Nonces {
	n.inFlight = f
	return n
}

// OrderEnded reports whether an order can no longer spend anything of its
// wallets: its record is failed or expired (every transaction refused,
// reverted, or its nonce used by another). Its spends in a wallet's record
// then take nothing, whatever their Until says.
type OrderEnded func(ctx context.Context, order string) (bool, error)

// OrdersEnded is the OrderEnded of the pipeline, from the orders' records.
func OrdersEnded(store *orders.Store) OrderEnded {
	return func(ctx context.Context, order string) (bool, error) {
		ended, _, err := recordEnded(ctx, store, order)
		return ended, err
	}
}

// recordEnded reads order's record: whether the order ended (failed or
// expired), and whether it has a record.
func recordEnded(ctx context.Context, store *orders.Store, order string) (ended, found bool, err error) {
	o, err := store.Get(ctx, order)
	switch {
	case errors.Is(err, orders.ErrNotFound):
		return false, false, nil
	case err != nil:
		return false, false, err
	}
	return o.State == wire.StateFailed || o.State == wire.StateExpired, true, nil
}

// WithEnded makes the spends of orders that ended (see OrderEnded) take
// nothing: an order the broadcaster failed (its every send refused) held
// its wallet's balance for its whole Until (two minutes), refusing the
// bot's retry and an exit's re-armed sell as INSUFFICIENT_BALANCE, and its
// approval was relied upon by the wallet's next orders.
func (n *Nonces) WithEnded(f OrderEnded) *Nonces {
	n.ended = f
	n.remember()
	return n
}

// ApprovalRefused reports whether order's approval of token for spender,
// by wallet on chain, can no longer reach the chain while the order lives:
// the order's record shows that transaction (or the reset before it)
// failed or expired, the chain having refused it on every send while the
// order's other transactions went on.
type ApprovalRefused func(ctx context.Context, chain, order string, wallet, token, spender common.Address) (bool, error)

// WithApprovalsRefused makes an approval another order of the wallet has
// among its transactions not count as on its way once f says it was
// refused: the wallet's next sale of the token then approves for itself.
// Relied upon, that sale was signed without an approval, behind a nonce
// the gap filler then fills with a transfer, and reverted for want of an
// allowance, its gas paid, for as long as the refused approval's order
// lived (its swaps' deadline, two minutes).
func (n *Nonces) WithApprovalsRefused(f ApprovalRefused) *Nonces {
	n.approvalRefused = f
	n.remember()
	return n
}

// remember makes the maps of the answers remembered.
func (n *Nonces) remember() {
	if n.endedSeen == nil {
		n.endedSeen, n.liveSeen = map[string]struct{}{}, map[string]time.Time{}
	}
}

// live returns spends without those of other orders than order that ended,
// and with their approvals that were refused (see WithApprovalsRefused)
// no longer approving, asking only about the ones still counted (not
// mined by mined, within their Until). An order seen ended, or an approval
// refused, is remembered: neither changes.
func (n *Nonces) live(ctx context.Context, chain string, wallet common.Address, spends []RecordSpend, mined uint64, now time.Time, order string) []RecordSpend {
	if n.ended == nil && n.approvalRefused == nil {
		return spends
	}
	var out []RecordSpend
	asked := map[string]bool{}
	for i, sp := range spends {
		drop, refused := false, false
		if sp.Order != order && sp.Nonce >= mined && now.Before(sp.Until) {
			ended, ok := asked[sp.Order]
			if !ok {
				ended = n.isEnded(ctx, sp.Order)
				asked[sp.Order] = ended
			}
			drop = ended
			refused = !drop && sp.Approves != "" && n.isRefused(ctx, chain, sp.Order, wallet, sp)
		}
		if (drop || refused) && out == nil {
			out = append(make([]RecordSpend, 0, len(spends)), spends[:i]...)
		}
		switch {
		case drop:
		case refused:
			// It keeps its nonces (the reclaim asks about them) and
			// takes nothing, as before; it approves nothing any more.
			sp.Approves = ""
			out = append(out, sp)
		case out != nil:
			out = append(out, sp)
		}
	}
	if out == nil {
		return spends
	}
	return out
}

// isEnded asks n.ended about order (see ask).
func (n *Nonces) isEnded(ctx context.Context, order string) bool {
	if n.ended == nil {
		return false
	}
	return n.ask(ctx, order, func(ctx context.Context) (bool, error) { return n.ended(ctx, order) })
}

// isRefused asks n.approvalRefused about the approval sp records, by
// wallet on chain (see ask).
func (n *Nonces) isRefused(ctx context.Context, chain, order string, wallet common.Address, sp RecordSpend) bool {
	if n.approvalRefused == nil || !common.IsHexAddress(sp.Token) || !common.IsHexAddress(sp.Approves) {
		return false
	}
	token, spender := common.HexToAddress(sp.Token), common.HexToAddress(sp.Approves)
	key := "approval " + chain + " " + order + " " + strings.ToLower(wallet.Hex()) + " " + sp.Token + " " + sp.Approves
	return n.ask(ctx, key, func(ctx context.Context) (bool, error) {
		return n.approvalRefused(ctx, chain, order, wallet, token, spender)
	})
}

// ask asks q, remembering a yes under key for good and for liveFor a no.
// A question that fails counts as no: what it is about keeps counting.
func (n *Nonces) ask(ctx context.Context, key string, q func(context.Context) (bool, error)) bool {
	now := time.Now()
	n.endedMu.Lock()
	_, seen := n.endedSeen[key]
	at, live := n.liveSeen[key]
	n.endedMu.Unlock()
	switch {
	case seen:
		return true
	case live && now.Sub(at) < liveFor:
		// Asked a moment ago: one signing asks at each of its reads and
		// in its take, and the wallet's other orders in flight are the
		// same ones.
		return false
	}
	qctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	yes, err := q(qctx)
	if err != nil {
		n.log.Debug("ask whether an order ended or an approval of it was refused; its spends keep counting", "question", key, "err", err)
		return false
	}
	n.endedMu.Lock()
	defer n.endedMu.Unlock()
	if len(n.endedSeen) >= maxEndedSeen || len(n.liveSeen) >= maxEndedSeen {
		clear(n.endedSeen)
		clear(n.liveSeen)
	}
	if yes {
		n.endedSeen[key] = struct{}{}
		delete(n.liveSeen, key)
	} else {
		n.liveSeen[key] = now
	}
	return yes
}

// maxEndedSeen bounds the orders Nonces remembers, and liveFor how long an
// order seen not ended is taken for not ended without asking again.
const (
	maxEndedSeen = 4096
	liveFor      = 500 * time.Millisecond
)

// BatchesInFlight is the InFlight of the pipeline: a transaction is in
// flight when TXS holds its order's batch for chain with the transaction
// in it, the order's record shows it neither failed nor expired (a record
// not written yet counts as in flight), and the record shows the
// transaction itself neither failed nor expired: one leg of an order whose
// other legs went on may have been refused by the chain (underpriced, a
// node's 429 on its every send) and is never sent again, so its nonce is
// lost like a dropped transaction's, and is reclaimed as one after the
// bound. Held while the order lived, it kept the wallet's next orders
// waiting behind it past their swaps' deadlines, to be mined only to
// revert.
func BatchesInFlight(txs jetstream.Stream, store *orders.Store) InFlight {
	return func(ctx context.Context, chain, order string, wallet common.Address, nonce uint64) (bool, error) {
		batch, err := handedOn(ctx, txs, chain, order)
		if err != nil || batch == nil {
			return false, err
		}
		sig, err := batchHolds(batch, wallet, nonce)
		if err != nil || sig == "" {
			return false, err
		}
		o, err := store.Get(ctx, order)
		switch {
		case errors.Is(err, orders.ErrNotFound):
			return true, nil
		case err != nil:
			return false, err
		case o.State == wire.StateFailed || o.State == wire.StateExpired:
			return false, nil
		}
		for _, st := range o.Signatures {
			if strings.EqualFold(st.Signature, sig) {
				return st.State != wire.StateFailed && st.State != wire.StateExpired, nil
			}
		}
		return true, nil
	}
}

// handedOn returns order's batch for chain as TXS holds it, nil when it
// holds none or its void.
func handedOn(ctx context.Context, txs jetstream.Stream, chain, order string) (*wire.TxBatch, error) {
	m, err := txs.GetLastMsgForSubject(ctx, bus.BatchSubject(chain, order))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if m.Header.Get(bus.HeaderVoid) != "" {
		return nil, nil
	}
	var batch wire.TxBatch
	if err := json.Unmarshal(m.Data, &batch); err != nil {
		return nil, fmt.Errorf("decode the batch of order %s: %w", order, err)
	}
	return &batch, nil
}

// BatchesApprovalRefused is the ApprovalRefused of the pipeline: TXS holds
// order's batch for chain, and the order's record shows one of wallet's
// approvals (or resets) of token for spender in it failed or expired. A
// batch not handed on yet, or a record not written, refuses nothing.
func BatchesApprovalRefused(txs jetstream.Stream, store *orders.Store) ApprovalRefused {
	return func(ctx context.Context, chain, order string, wallet, token, spender common.Address) (bool, error) {
		batch, err := handedOn(ctx, txs, chain, order)
		if err != nil || batch == nil {
			return false, err
		}
		var sigs []string
		for _, stx := range batch.Txs {
			if !strings.EqualFold(stx.Wallet, wallet.Hex()) {
				continue
			}
			_, tx, err := txbundle.Signed(stx.Raw, stx.Signature)
			if err != nil {
				return false, fmt.Errorf("decode transaction %s of order %s: %w", stx.Signature, order, err)
			}
			if t, sp, ok := approvalOf(tx.To(), tx.Data()); ok && t == token && sp == spender {
				sigs = append(sigs, stx.Signature)
			}
		}
		if len(sigs) == 0 {
			return false, nil
		}
		o, err := store.Get(ctx, order)
		switch {
		case errors.Is(err, orders.ErrNotFound):
			return false, nil
		case err != nil:
			return false, err
		}
		for _, st := range o.Signatures {
			if (st.State == wire.StateFailed || st.State == wire.StateExpired) && slices.ContainsFunc(sigs, func(s string) bool { return strings.EqualFold(s, st.Signature) }) {
				return true, nil
			}
		}
		return false, nil
	}
}

// batchHolds returns the signature of batch's transaction of wallet at
// nonce, "" when it holds none.
func batchHolds(batch *wire.TxBatch, wallet common.Address, nonce uint64) (string, error) {
	for _, stx := range batch.Txs {
		if !strings.EqualFold(stx.Wallet, wallet.Hex()) {
			continue
		}
		_, tx, err := txbundle.Signed(stx.Raw, stx.Signature)
		if err != nil {
			return "", fmt.Errorf("decode transaction %s of order %s: %w", stx.Signature, batch.OrderID, err)
		}
		if tx.Nonce() == nonce {
			return stx.Signature, nil
		}
	}
	return "", nil
}

// held reports whether a nonce at or past chainPending belongs to a
// transaction in flight (see WithInFlight); with gapOnly, whether nonce
// chainPending itself does. A question that fails counts as held: a nonce
// is reclaimed only when it is known lost.
//
// A take's reclaim hands out again every nonce from chainPending on, so it
// asks about all of them; the gap filler's transfer takes chainPending
// alone, and the transactions waiting behind it are what it lets land:
// were they to hold it back, a lost nonce would hold them until their
// swaps' deadlines passed, and they would then be mined only to revert.
func (n *Nonces) held(ctx context.Context, rec *nonceRecord, chain string, wallet common.Address, chainPending uint64, now time.Time, gapOnly bool) bool {
	if n.inFlight == nil {
		return false
	}
	type signing struct {
		order string
		last  uint64
	}
	var asked []signing
	for _, sp := range rec.Spends {
		s := signing{sp.Order, sp.Nonce}
		if sp.Nonce < chainPending || (gapOnly && !sp.holds(chainPending)) || !now.Before(sp.Until) || slices.Contains(asked, s) {
			continue
		}
		asked = append(asked, s)
		if !sp.Taken.IsZero() && now.Sub(sp.Taken) < n.stale {
			// Its batch may still be on its way to TXS: a worker hands a
			// batch on within half the bound of its signing, or never.
			return true
		}
		if in, err := n.inFlight(ctx, chain, sp.Order, wallet, sp.Nonce); err != nil || in {
			if err != nil {
				n.log.Warn("ask whether a nonce's order is in flight; the nonce is kept", "chain", chain,
					"wallet", wallet.Hex(), "order_id", sp.Order, "err", err)
			}
			return true
		}
	}
	return false
}

// NewNonces returns a nonce assigner over kv (the bus.BucketNonces bucket).
// stale is the bound of the gap reclaim; zero is DefaultNonceStale.
func NewNonces(kv jetstream.KeyValue, stale time.Duration, log *slog.Logger) *Nonces {
	if stale <= 0 {
		stale = DefaultNonceStale
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Nonces{kv: kv, stale: stale, now: time.Now, log: log.With("component", "nonces")}
}

// nonceKey is the bucket key of a wallet's record on a chain.
func nonceKey(chain string, wallet common.Address) string {
	return chain + "." + strings.ToLower(wallet.Hex())
}

// Wallets returns the wallets with a record on chain: every wallet a
// worker took nonces of, in any process, since the bucket began.
func (n *Nonces) Wallets(ctx context.Context, chain string) ([]common.Address, error) {
	lister, err := n.kv.ListKeysFiltered(ctx, chain+".*")
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("list the nonce records of %s: %w", chain, err)
	}
	var out []common.Address
	for key := range lister.Keys() {
		if a := strings.TrimPrefix(key, chain+"."); common.IsHexAddress(a) {
			out = append(out, common.HexToAddress(a))
		}
	}
	return out, nil
}

// Take reserves count consecutive nonces of wallet on chain and returns the
// first. chainPending is the chain's pending nonce of the wallet (what
// eth_getTransactionCount answers for "pending"), read just before: the
// record moves up to it when the wallet was used elsewhere, and moves back
// down to it when the nonces past it were lost (see the package
// documentation).
func (n *Nonces) Take(ctx context.Context, chain string, wallet common.Address, count, chainPending uint64) (uint64, error) {
	return n.TakeFor(ctx, chain, wallet, count, chainPending, nil)
}

// TakeFor is Take for an order whose transactions take claim from the
// wallet: in the same compare-and-set, the record's spends that are mined
// or can no longer land (and an earlier signing of the same order's) are
// dropped, the claim is checked against what the others leave (an
// *ErrSpent when it does not fit, nothing taken), and recorded. Workers of
// one chain in any number of processes so never sign two transactions a
// wallet cannot pay for both.
func (n *Nonces) TakeFor(ctx context.Context, chain string, wallet common.Address, count, chainPending uint64, claim *Claim) (uint64, error) {
	return n.takeFrom(ctx, chain, wallet, count, chainPending, claim, nil)
}

// takeFrom is TakeFor starting from the record as read (pre, when it is
// the wallet's on chain): the first compare-and-set is at pre's revision,
// and only when another take, release or gap claim changed the record
// since is it read again.
func (n *Nonces) takeFrom(ctx context.Context, chain string, wallet common.Address, count, chainPending uint64, claim *Claim, pre *recordRead) (uint64, error) {
	if count == 0 {
		return 0, errors.New("take zero nonces")
	}
	key := nonceKey(chain, wallet)
	if pre != nil && pre.key != key {
		pre = nil
	}
	// planned is the Share's other sales in flight in the record as
	// read, when the take starts from it.
	var planned map[string]*big.Int
	for attempt := range maxNonceAttempts {
		if attempt > 2 {
			// Many takers on one wallet: spread them out a little.
			if err := sleep(ctx, time.Duration(rand.Int64N(int64(attempt)*int64(time.Millisecond)))); err != nil {
				return 0, err
			}
		}
		var rec *nonceRecord
		var rev uint64
		var err error
		if attempt == 0 && pre != nil {
			// Decoded afresh: the take changes its record in place.
			rec, err = decodeRecord(key, pre.data, pre.rev)
			rev = pre.rev
		} else {
			rec, rev, err = n.get(ctx, key)
		}
		if err != nil {
			return 0, err
		}
		now := n.now()
		if claim != nil {
			// An ended order's spends leave the record with this take.
			rec.Spends = n.live(ctx, chain, wallet, rec.Spends, claim.Mined, now, claim.Order)
		}
		if attempt == 0 && pre != nil && claim != nil && claim.Share != nil {
			planned = outstandingBy(rec.Spends, *claim.Share, claim.Mined, now, claim.Order)
		} else if planned != nil && soldMeanwhile(planned, rec.Spends, *claim.Share, claim.Mined, now, claim.Order) {
			return 0, ErrSoldSince
		}
		next := n.reconcile(ctx, rec, chainPending, now, chain, wallet)
		if claim != nil {
			if err := rec.claim(claim, next, next+count-1, now); err != nil {
				return 0, err
			}
		}
		rec.Next = next + count
		rec.Updated = now
		if err := n.put(ctx, key, rec, rev); err != nil {
			if bus.Conflict(err) {
				continue // another worker took nonces meanwhile: read again
			}
			return 0, err
		}
		return next, nil
	}
	return 0, fmt.Errorf("nonces of %s on %s: %w", wallet.Hex(), chain, ErrNonceContention)
}

// reconcile brings rec in line with the chain's pending nonce and returns
// the first nonce to hand out. It updates rec's observation fields.
func (n *Nonces) reconcile(ctx context.Context, rec *nonceRecord, chainPending uint64, now time.Time, chain string, wallet common.Address) uint64 {
	switch {
	case chainPending >= rec.Next:
		// Nothing of ours is missing from the chain's view; a chain nonce
		// above the record means the wallet was used elsewhere.
		rec.Seen, rec.SeenAt = chainPending, now
		return chainPending
	case chainPending != rec.Seen:
		// Nonces are out and the chain moved (or is seen for the first
		// time at this value): start the clock again.
		rec.Seen, rec.SeenAt = chainPending, now
		return rec.Next
	case now.Sub(rec.SeenAt) >= n.stale && !n.heldLogged(ctx, rec, chain, wallet, chainPending, now, false):
		// The chain has sat at chainPending for the whole bound while
		// nonce chainPending, handed out no later than SeenAt, never
		// reached it, and no order in flight holds it: that transaction
		// was lost (refused, dropped, or its order never published). Hand
		// the nonces out again from there.
		n.log.Warn("reclaiming lost nonces", "chain", chain, "wallet", wallet.Hex(),
			"from", chainPending, "to", rec.Next-1, "stuck_for", now.Sub(rec.SeenAt).Round(time.Millisecond))
		rec.SeenAt = now
		rec.Reclaims++
		return chainPending
	default:
		return rec.Next
	}
}

// heldLogged is held, saying so in a log line when it holds a nonce back.
func (n *Nonces) heldLogged(ctx context.Context, rec *nonceRecord, chain string, wallet common.Address, chainPending uint64, now time.Time, gapOnly bool) bool {
	if !n.held(ctx, rec, chain, wallet, chainPending, now, gapOnly) {
		return false
	}
	n.log.Info("a nonce the chain has not reached belongs to an order in flight: not reclaimed", "chain", chain,
		"wallet", wallet.Hex(), "nonce", chainPending, "stuck_for", now.Sub(rec.SeenAt).Round(time.Millisecond))
	return true
}

// ClaimGap tells whether the nonce chainPending of wallet on chain is a
// gap to fill: nonces past it were handed out, and the chain has sat at it
// for the reclaim bound (see reconcile) without its transaction, which is
// not in flight (the transactions behind it may be). It then
// restarts the bound's clock in the record, in the same compare-and-set,
// so that no take hands the nonce out again while the filler's transfer
// is on its way. A chain moving on, or nothing out past the nonce, is no
// gap; the record's observation follows the chain as a take's does.
func (n *Nonces) ClaimGap(ctx context.Context, chain string, wallet common.Address, chainPending uint64) (bool, error) {
	count, _, err := n.ClaimGaps(ctx, chain, wallet, chainPending)
	return count > 0, err
}

// ClaimGaps is ClaimGap for the run of lost nonces from chainPending on:
// it returns how many to fill, chainPending and each next one that is not
// in flight while a later one is out (0: no gap). A signing lost whole (a
// crash between its take and its publish, a bundle refused) leaves one
// nonce per transaction: filled one per reclaim bound, the orders behind
// them waited a bound per nonce, and past their swaps' deadlines. With a
// run to fill it returns the least priority fee cap of the signings
// recorded past chainPending (RecordSpend.MaxTip; nil when none says),
// the accounts whose transactions the fill lets land.
func (n *Nonces) ClaimGaps(ctx context.Context, chain string, wallet common.Address, chainPending uint64) (uint64, *big.Int, error) {
	key := nonceKey(chain, wallet)
	for range maxNonceAttempts {
		rec, rev, err := n.get(ctx, key)
		if err != nil || rev == 0 {
			return 0, nil, err
		}
		now := n.now()
		fill := uint64(0)
		switch {
		case rec.Next <= chainPending+1:
			// Nothing waits behind the nonce: the next take reclaims it.
			return 0, nil, nil
		case chainPending != rec.Seen:
			rec.Seen, rec.SeenAt = chainPending, now
		case now.Sub(rec.SeenAt) < n.stale, n.heldLogged(ctx, rec, chain, wallet, chainPending, now, true):
			return 0, nil, nil
		default:
			rec.SeenAt, fill = now, 1
			for k := chainPending + 1; k+1 < rec.Next && !n.held(ctx, rec, chain, wallet, k, now, true); k++ {
				fill++
			}
		}
		if err := n.put(ctx, key, rec, rev); err != nil {
			if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
				continue
			}
			return 0, nil, err
		}
		if fill == 0 {
			return 0, nil, nil
		}
		var maxTip *big.Int
		for _, sp := range rec.Spends {
			if sp.Nonce >= chainPending && sp.MaxTip != nil && (maxTip == nil || sp.MaxTip.Cmp(maxTip) < 0) {
				maxTip = sp.MaxTip
			}
		}
		return fill, maxTip, nil
	}
	return 0, nil, fmt.Errorf("nonces of %s on %s: %w", wallet.Hex(), chain, ErrNonceContention)
}

// claim checks c against the record's other spends and records it, its
// transactions' nonces being first to last. An earlier signing of the same
// order stays (its batch may be the one handed on) but is not counted
// against this one: only one of them goes out.
func (rec *nonceRecord) claim(c *Claim, first, last uint64, now time.Time) error {
	kept := rec.Spends[:0]
	for _, sp := range rec.Spends {
		if sp.Nonce >= c.Mined && now.Before(sp.Until) {
			kept = append(kept, sp)
		}
	}
	rec.Spends = kept
	if c.Approves != nil && Approving(rec.Spends, *c.Approves, c.Mined, now, c.Order) {
		return ErrApproving
	}
	for token, want := range c.Spend {
		if want == nil || want.Sign() == 0 {
			continue
		}
		held := c.Held[token]
		if held == nil {
			held = new(big.Int)
		}
		taken := Outstanding(rec.Spends, token, c.Mined, now, c.Order)
		if new(big.Int).Sub(held, taken).Cmp(want) < 0 {
			return &ErrSpent{Token: token, Held: held, Taken: taken, Want: want}
		}
	}
	if err := rec.allowanceLeft(c, now); err != nil {
		return err
	}
	for token, want := range c.Spend {
		if want != nil && want.Sign() > 0 {
			rec.Spends = append(rec.Spends, RecordSpend{Order: c.Order, Nonce: last, Count: last - first + 1,
				Token: tokenName(token), Amount: new(big.Int).Set(want), Until: c.Until, Epoch: rec.Reclaims, Taken: now, MaxTip: c.MaxTip})
		}
	}
	if c.Approves != nil {
		rec.Spends = append(rec.Spends, RecordSpend{Order: c.Order, Nonce: last, Count: last - first + 1, Token: tokenName(c.Approves.Token),
			Approves: strings.ToLower(c.Approves.Spender.Hex()), Until: c.Until, Epoch: rec.Reclaims, Taken: now, MaxTip: c.MaxTip})
	}
	return nil
}

// allowanceLeft checks the allowance c's swap relies on, if any, against
// what the record's other spends not yet mined take of its token.
func (rec *nonceRecord) allowanceLeft(c *Claim, now time.Time) error {
	a := c.Allowance
	if a == nil {
		return nil
	}
	want := c.Spend[a.Token]
	if want == nil || want.Sign() == 0 || Approving(rec.Spends, Approval{Token: a.Token, Spender: a.Spender}, c.Mined, now, c.Order) {
		return nil
	}
	taken := Outstanding(rec.Spends, a.Token, c.Mined, now, c.Order)
	if new(big.Int).Sub(a.Amount, taken).Cmp(want) < 0 {
		return &ErrAllowanceSpent{Token: a.Token, Spender: a.Spender, Allowed: a.Amount, Taken: taken, Want: want}
	}
	return nil
}

// Release gives back nonces [first, first+count) that were taken but will
// never be signed, when nothing was taken after them; otherwise they stay a
// gap for the reclaim to close. It reports whether they were given back.
func (n *Nonces) Release(ctx context.Context, chain string, wallet common.Address, first, count uint64) (bool, error) {
	return n.ReleaseFor(ctx, chain, wallet, first, count, "")
}

// ReleaseFor is Release of order's nonces, which also drops what the
// signing that took them claimed, whether the nonces could be given back
// or not: a signing that is never sent holds nothing (its nonces, when
// not given back, are a gap the filler closes; see ClaimGap). Another
// signing of the same order keeps its claim. An order's nonces are given
// back only while they are still its own: its claim is in the record, the
// nonces were not handed out again since (a reclaim, see reconcile), and
// no other signing holds one of them. A batch dropped long after its take
// (its publish held up past the reclaim bound) could otherwise wind the
// record back under another order's nonces.
func (n *Nonces) ReleaseFor(ctx context.Context, chain string, wallet common.Address, first, count uint64, order string) (bool, error) {
	key := nonceKey(chain, wallet)
	for range maxNonceAttempts {
		rec, rev, err := n.get(ctx, key)
		if err != nil {
			return false, err
		}
		if rev == 0 {
			return false, nil
		}
		last := first + count - 1
		signing := func(sp RecordSpend) bool {
			return sp.Order == order && sp.Nonce == last && (sp.Count == count || sp.Count == 0)
		}
		claimed := order != "" && slices.ContainsFunc(rec.Spends, signing)
		latest := rec.Next == first+count
		if latest && order != "" {
			own := slices.ContainsFunc(rec.Spends, func(sp RecordSpend) bool { return signing(sp) && sp.Epoch == rec.Reclaims })
			others := slices.ContainsFunc(rec.Spends, func(sp RecordSpend) bool { return !signing(sp) && sp.overlaps(first, last) })
			latest = own && !others
		}
		if !latest && !claimed {
			return false, nil
		}
		if claimed {
			rec.Spends = slices.DeleteFunc(rec.Spends, signing)
		}
		if !latest {
			rec.Updated = n.now()
			if err := n.put(ctx, key, rec, rev); err != nil {
				if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
					continue
				}
				return false, err
			}
			return false, nil
		}
		rec.Next = first
		rec.Updated = n.now()
		if err := n.put(ctx, key, rec, rev); err != nil {
			if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
				continue
			}
			return false, err
		}
		return true, nil
	}
	return false, fmt.Errorf("release nonces of %s on %s: %w", wallet.Hex(), chain, ErrNonceContention)
}

// get reads a record and its revision; a missing record is the zero record
// at revision 0.
func (n *Nonces) get(ctx context.Context, key string) (*nonceRecord, uint64, error) {
	data, rev, err := n.getRaw(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	rec, err := decodeRecord(key, data, rev)
	if err != nil {
		return nil, 0, err
	}
	return rec, rev, nil
}

// getRaw reads a record's encoding and its revision; a missing record is
// nil at revision 0.
func (n *Nonces) getRaw(ctx context.Context, key string) ([]byte, uint64, error) {
	e, err := n.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read nonce record %s: %w", key, err)
	}
	return e.Value(), e.Revision(), nil
}

// decodeRecord decodes a record's encoding at revision rev; revision 0
// (no record) is the zero record.
func decodeRecord(key string, data []byte, rev uint64) (*nonceRecord, error) {
	var rec nonceRecord
	if rev == 0 {
		return &rec, nil
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("decode nonce record %s: %w", key, err)
	}
	return &rec, nil
}

// put writes a record if its revision is still rev (0: if it does not
// exist yet).
func (n *Nonces) put(ctx context.Context, key string, rec *nonceRecord, rev uint64) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if rev == 0 {
		_, err = n.kv.Create(ctx, key, data)
	} else {
		_, err = n.kv.Update(ctx, key, data, rev)
	}
	if err != nil && !bus.Conflict(err) {
		return fmt.Errorf("write nonce record %s: %w", key, err)
	}
	return err
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
