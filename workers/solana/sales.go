package solana

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// A wallet's sales signed and not known to have landed are recorded per
// wallet, so that a sale by percent is of what the wallet's earlier sales
// in flight leave, and a sale of a token quantity is capped at that: two
// 50 % sales sent at once sell 75 % of the holding, as they would one
// after the other, not all of it. A Solana wallet has no nonce that says
// which of its transactions landed, so each sale is asked about by its
// signature. The record is written by compare-and-set against the one the
// sale was planned on, so this holds across every worker process.
//
// The records live in the nonces bucket, as "solana.<wallet>" beside the
// EVM wallets' "<chain>.<address>" records of what their transactions in
// flight spend.

// saleRecord is a wallet's sales in flight.
type saleRecord struct {
	Sales []pendingSale `json:"sales"`
}

// pendingSale is one sale of a wallet: its order, transaction, mint and
// the base units it sells, counted until it is seen landed, failed or
// ended, or until its blockhash expired: past Until, once the chain's
// height is known past LastValid (a slow or stalled cluster keeps a
// blockhash alive longer than Until's minutes), or past saleOuterLife.
type pendingSale struct {
	Order     string    `json:"order"`
	Signature string    `json:"signature"`
	Mint      string    `json:"mint"`
	Amount    uint64    `json:"amount"`
	Until     time.Time `json:"until"`
	// LastValid is the transaction's last valid block height; 0 in a
	// record written before it was kept.
	LastValid uint64 `json:"last_valid,omitempty"`
}

// saleLife is how long a sale that was never seen landed counts at least:
// a blockhash lives 150 blocks, about a minute, and the signer's is at
// most BlockhashMaxAge old when it signs. saleOuterLife bounds it when the
// chain's height is not known.
const (
	saleLife      = 2 * time.Minute
	saleOuterLife = 15 * time.Minute
)

// blockhashBlocks is how many blocks a blockhash is valid for past the
// block it names: a blockhash read now has a last valid height this far
// above the chain's height.
const blockhashBlocks = 150

// expired reports whether p can no longer land at now, the chain's height
// at least height (0: not known).
func (p pendingSale) expired(now time.Time, height uint64) bool {
	switch {
	case now.Before(p.Until):
		return false
	case p.LastValid == 0:
		return true
	case height > p.LastValid:
		return true
	}
	return !now.Before(p.Until.Add(saleOuterLife - saleLife))
}

// salesKey is the nonces bucket's key of wallet's record.
func salesKey(wallet sol.PublicKey) string { return wire.ChainSolana + "." + wallet.String() }

// errSalesMoved: a wallet's record changed between the read the sale was
// planned on and its write; the order is planned again.
var errSalesMoved = errors.New("another sale of the wallet was recorded meanwhile")

// saleBook reads and writes the wallets' records.
type saleBook struct {
	kv     jetstream.KeyValue
	orders *orders.Store
}

// walletSales is one wallet's record as read for an order: its revision
// (0: none), the sales of other orders that may still be in flight, which
// the order's sale counts, and the order's own from an earlier try (a
// redelivered job that signed again), which stay in the record: which of
// its tries' transactions is the one sent, the order's record tells.
type walletSales struct {
	rev  uint64
	live []pendingSale
	own  []pendingSale
}

// heightAtLeast is a height the chain has reached, from the latest
// blockhash read (its last valid height less a blockhash's life), without
// any read of its own; 0 when none was read. An old blockhash gives a
// lower height, and a sale counts longer.
func (s *Signer) heightAtLeast() uint64 {
	if s.hashes == nil {
		return 0
	}
	b := s.hashes.latest.Load()
	if b == nil || b.lastValid <= blockhashBlocks {
		return 0
	}
	return b.lastValid - blockhashBlocks
}

// WithSaleRecords makes the signer record every sale in kv (the nonces
// bucket) and count, in a sale's amount, what the wallet's earlier sales
// not yet landed take; store is where it reads whether such a sale's order
// ended.
func (s *Signer) WithSaleRecords(kv jetstream.KeyValue, store *orders.Store) *Signer {
	s.sales = &saleBook{kv: kv, orders: store}
	return s
}

// readSales reads the records of the wallets of o, a sale, and keeps in o
// the sales of other orders that may still be in flight; the account
// reads of the order that follow note the slot they were answered at
// (countSalesInFlight).
func (s *Signer) readSales(ctx context.Context, job *wire.SwapJob, o *order) (context.Context, error) {
	if s.sales == nil || o.side != wire.Sell {
		return ctx, nil
	}
	wallets := make([]sol.PublicKey, 0, len(o.legs))
	for _, l := range o.legs {
		if !slices.Contains(wallets, l.wallet) {
			wallets = append(wallets, l.wallet)
		}
	}
	read := make([]walletSales, len(wallets))
	height := s.heightAtLeast()
	g, gctx := guard.WithContext(ctx)
	for i, w := range wallets {
		g.Go(func() error {
			var err error
			read[i], err = s.sales.read(gctx, w, job.OrderID, s.now(), height)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return ctx, err
	}
	o.sales = make(map[sol.PublicKey]*walletSales, len(wallets))
	for i, w := range wallets {
		o.sales[w] = &read[i]
	}
	o.readSlot = &readSlot{}
	return context.WithValue(ctx, readSlotKey{}, o.readSlot), nil
}

// countSalesInFlight lowers the tokens of mint each leg of o holds by what
// its wallet's other sales in flight take of them, once the wallets are
// read. A sale counts unless the balance read shows it: the chain held it
// in a slot before the read's (failed ones moved nothing), or its order
// ended without it pending. One the chain holds in the read's slot or
// later may or may not be in it (a slot's transactions land one after
// another): its wallet's token account is read again, now that it landed,
// and it counts no more. The statuses of the sales still counted are then
// asked again against the new read's slot, since one may have landed
// between the statuses and that read, and be in its balance: counted as
// well, it would be taken off twice (a percent sold short, a false "holds
// nothing"). A wallet with a sale still counted keeps its token account:
// the account is empty only once that sale lands.
func (s *Signer) countSalesInFlight(ctx context.Context, o *order, mint sol.PublicKey) error {
	var open []owedSale
	for w, ws := range o.sales {
		for _, p := range ws.live {
			if p.Mint == mint.String() {
				open = append(open, owedSale{wallet: w, sale: p})
			}
		}
	}
	if len(open) == 0 {
		return nil
	}
	// Each wallet's balance stands as read at its read's slot: the order's
	// reads', then its own read again.
	first, readAt := o.readSlot.get(), map[sol.PublicKey]uint64{}
	gone := map[string]bool{}
	for round := 0; len(open) > 0; round++ {
		slots := make([]uint64, len(open))
		for i, x := range open {
			slots[i] = first
			if at, ok := readAt[x.wallet]; ok {
				slots[i] = at
			}
		}
		settled, recent, err := s.settledSales(ctx, open, slots)
		if err != nil {
			return err
		}
		for sig, g := range settled {
			gone[sig] = gone[sig] || g
		}
		// Past the bound, a sale landed after its wallet's read counts:
		// the sale is then smaller than it could be, never larger.
		if len(recent) == 0 || round == maxSaleRereads {
			break
		}
		wallets, at, err := s.rereadTokens(ctx, o, mint, recent)
		if err != nil {
			return err
		}
		for _, w := range wallets {
			readAt[w] = at
		}
		for sig := range recent {
			gone[sig] = true
		}
		open = slices.DeleteFunc(open, func(x owedSale) bool { return gone[x.sale.Signature] })
	}
	for _, ws := range o.sales {
		ws.live = slices.DeleteFunc(ws.live, func(p pendingSale) bool { return gone[p.Signature] })
	}
	for i := range o.legs {
		l := &o.legs[i]
		var taken uint64
		for _, p := range o.sales[l.wallet].live {
			if p.Mint == mint.String() {
				taken = add(taken, p.Amount)
			}
		}
		if taken > 0 {
			l.closable = false
			l.tokens -= min(l.tokens, taken)
		}
	}
	return nil
}

// maxStatusesPerCall is the most signatures getSignatureStatuses takes.
const maxStatusesPerCall = 256

// maxSaleRereads bounds how many times a sale's token accounts are read
// again while the wallets' other sales keep landing.
const maxSaleRereads = 4

// owedSale is a wallet's sale that its balance as read may not show yet.
type owedSale struct {
	wallet sol.PublicKey
	sale   pendingSale
}

// rereadTokens reads again the token accounts of mint of the legs whose
// wallets made the sales recent, which landed after the first read may
// have been answered, from a node that has reached their slots. It returns
// those wallets and the slot the read was answered at.
func (s *Signer) rereadTokens(ctx context.Context, o *order, mint sol.PublicKey, recent map[string]uint64) ([]sol.PublicKey, uint64, error) {
	var legs []*leg
	var keys, wallets []sol.PublicKey
	for i := range o.legs {
		l := &o.legs[i]
		if ws := o.sales[l.wallet]; ws != nil && slices.ContainsFunc(ws.live, func(p pendingSale) bool { _, ok := recent[p.Signature]; return ok }) {
			legs, keys = append(legs, l), append(keys, l.ata)
			if !slices.Contains(wallets, l.wallet) {
				wallets = append(wallets, l.wallet)
			}
		}
	}
	var slot uint64
	for _, at := range recent {
		slot = max(slot, at)
	}
	// The read's own slot, apart from the order's first reads'.
	answered := &readSlot{}
	rctx := context.WithValue(context.WithValue(ctx, minSlotKey{}, slot), readSlotKey{}, answered)
	accounts, err := s.getAccounts(rctx, keys)
	if err != nil {
		return nil, 0, err
	}
	for j, l := range legs {
		l.tokens, l.ataExists = tokenAmount(accounts[j], mint)
		l.closable = l.ataExists && closableTokenAccount(accounts[j], l.wallet)
		l.ataLamports = lamportsOf(accounts[j])
	}
	// A node that did not say its slot has reached the one asked for.
	return wallets, max(answered.get(), slot), nil
}

// read returns wallet's record: its revision and the sales of orders
// other than orderID not past their time.
func (b *saleBook) read(ctx context.Context, wallet sol.PublicKey, orderID string, now time.Time, height uint64) (walletSales, error) {
	e, err := b.kv.Get(ctx, salesKey(wallet))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return walletSales{}, nil
	}
	if err != nil {
		return walletSales{}, fmt.Errorf("read the sales in flight of %s: %w", wallet, err)
	}
	var rec saleRecord
	if err := json.Unmarshal(e.Value(), &rec); err != nil {
		return walletSales{}, fmt.Errorf("decode the sales in flight of %s: %w", wallet, err)
	}
	ws := walletSales{rev: e.Revision()}
	for _, p := range rec.Sales {
		switch {
		case p.expired(now, height):
		case p.Order == orderID:
			ws.own = append(ws.own, p)
		default:
			ws.live = append(ws.live, p)
		}
	}
	return ws, nil
}

// settledSales asks the chain, and for those it does not know the orders'
// records, which of open the wallets' balances as read, each at its slot
// in slots (0: not known), no longer owe: those the chain held in an earlier slot (landed at
// the reads' commitment, or failed, which moved no token), and those whose
// order ended with them not pending (a send refused, or settled so long
// ago that the node forgot them). recent are those the chain holds, landed,
// in that slot or a later one, with their slots.
func (s *Signer) settledSales(ctx context.Context, open []owedSale, slots []uint64) (gone map[string]bool, recent map[string]uint64, err error) {
	sigs := make([]sol.Signature, len(open))
	for i, x := range open {
		p := x.sale
		sig, err := sol.SignatureFromBase58(p.Signature)
		if err != nil {
			return nil, nil, fmt.Errorf("sale record of order %s: %w", p.Order, err)
		}
		sigs[i] = sig
	}
	// A node answers at most maxStatusesPerCall signatures a call.
	statuses := make([]*rpc.SignatureStatusesResult, 0, len(sigs))
	for start := 0; start < len(sigs); start += maxStatusesPerCall {
		part := sigs[start:min(start+maxStatusesPerCall, len(sigs))]
		cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
		res, err := s.rpc.GetSignatureStatuses(cctx, false, part...)
		cancel()
		if err != nil || res == nil || len(res.Value) != len(part) {
			metrics.RPCErrors.WithLabelValues(wire.ChainSolana, "statuses").Inc()
			if err == nil {
				err = errors.New("malformed result")
			}
			return nil, nil, fmt.Errorf("statuses of %d sales in flight: %w", len(sigs), err)
		}
		statuses = append(statuses, res.Value...)
	}
	gone, recent = map[string]bool{}, map[string]uint64{}
	for i, st := range statuses {
		p, slot := open[i].sale, slots[i]
		switch {
		case st == nil:
			if g, at := s.saleEnded(ctx, p, slot); at > 0 {
				recent[p.Signature] = at
			} else {
				gone[p.Signature] = g
			}
		case st.Err != nil:
			gone[p.Signature] = true
		case !reached(st.ConfirmationStatus, s.cfg.Commitment):
			// Not yet where the reads look: still to come off the balance.
		case slot > 0 && st.Slot < slot:
			gone[p.Signature] = true
		default:
			recent[p.Signature] = st.Slot
		}
	}
	return gone, recent, nil
}

// saleEnded reports whether the order of sale p, which the chain's node
// does not know, ended with p not pending: its send refused or expired, or
// settled so long ago that the node forgot it. An order that cannot be
// read yet keeps the sale counted. A sale its order holds landed in slot
// or later (the node asked is behind the one that confirmed it) is not in
// a balance read at slot: landed is that slot, for the wallet to be read
// again from a node that reached it; landed where the record does not say,
// it stays counted.
func (s *Signer) saleEnded(ctx context.Context, p pendingSale, slot uint64) (gone bool, landed uint64) {
	o, err := s.sales.orders.Get(ctx, p.Order)
	if err != nil {
		return false, 0
	}
	for _, st := range o.Signatures {
		if st.Signature != p.Signature {
			continue
		}
		switch {
		case st.State != wire.StateConfirmed:
			return wire.FinalState(st.State), 0
		case st.Slot == 0:
			return false, 0
		case slot > 0 && st.Slot < slot:
			return true, 0
		}
		return false, st.Slot
	}
	// Not among the order's signatures: a transaction of an earlier
	// delivery, signed again; what the order sends is its record's.
	return len(o.Signatures) > 0 || wire.FinalState(o.State), 0
}

// reached reports whether a transaction at status got counts in a read
// at commitment want.
func reached(got rpc.ConfirmationStatusType, want rpc.CommitmentType) bool {
	g, w := commitmentRank[string(got)], commitmentRank[string(want)]
	return g > 0 && g >= max(w, 1)
}

// commitmentRank orders the commitment levels.
var commitmentRank = map[string]int{"processed": 1, "confirmed": 2, "finalized": 3}

// sold is the base units a sale's leg sells, whatever its venue.
func (l *leg) sold() uint64 {
	return max(l.sell.Amount, l.poolSell.BaseAmountIn, l.pad.in)
}

// recordSales writes each sale of o, signed as txs, into its wallet's
// record, by compare-and-set against the record o was planned on: a
// record another sale changed meanwhile is errSalesMoved. Sales past their
// time, or settled, leave the record as they go.
func (s *Signer) recordSales(ctx context.Context, job *wire.SwapJob, o *order, mint sol.PublicKey, txs []wire.SignedTx) error {
	if s.sales == nil || o.side != wire.Sell {
		return nil
	}
	until := s.now().Add(saleLife).UTC()
	mine := map[sol.PublicKey][]pendingSale{}
	k := 0
	for i := range o.legs {
		l := &o.legs[i]
		if l.skip != "" {
			continue
		}
		mine[l.wallet] = append(mine[l.wallet], pendingSale{Order: job.OrderID, Signature: txs[k].Signature, Mint: mint.String(), Amount: l.sold(),
			Until: until, LastValid: txs[k].LastValidBlockHeight})
		k++
	}
	g, gctx := guard.WithContext(ctx)
	for w, sales := range mine {
		ws := o.sales[w]
		if ws == nil {
			ws = &walletSales{}
		}
		g.Go(func() error { return s.sales.write(gctx, w, ws, sales) })
	}
	return g.Wait()
}

// write stores wallet's record as ws read it, its sales that may still be
// in flight and sales added (a transaction signed again is recorded once),
// at ws's revision.
func (b *saleBook) write(ctx context.Context, wallet sol.PublicKey, ws *walletSales, sales []pendingSale) error {
	keep := slices.Concat(ws.live, ws.own)
	keep = slices.DeleteFunc(keep, func(p pendingSale) bool {
		return slices.ContainsFunc(sales, func(q pendingSale) bool { return q.Signature == p.Signature })
	})
	data, err := json.Marshal(saleRecord{Sales: append(keep, sales...)})
	if err != nil {
		return err
	}
	key := salesKey(wallet)
	if ws.rev == 0 {
		_, err = b.kv.Create(ctx, key, data)
	} else {
		_, err = b.kv.Update(ctx, key, data, ws.rev)
	}
	if bus.Conflict(err) {
		return errSalesMoved
	}
	if err != nil {
		return fmt.Errorf("record the sale of %s: %w", wallet, err)
	}
	return nil
}

// readSlot is the earliest slot a sale's account reads were answered at:
// what the wallets' balances count, at the latest.
type readSlot struct {
	mu   sync.Mutex
	slot uint64
}

// readSlotKey carries an order's *readSlot in its context.
type readSlotKey struct{}

// noteReadSlot notes, for the order of ctx, a read answered at slot.
func noteReadSlot(ctx context.Context, slot uint64) {
	r, ok := ctx.Value(readSlotKey{}).(*readSlot)
	if !ok || slot == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.slot == 0 || slot < r.slot {
		r.slot = slot
	}
}

func (r *readSlot) get() uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.slot
}

// minSlotKey carries the slot a read must be answered at, at least: a node
// behind it refuses the read (minContextSlot) instead of answering from
// before the transactions the read must show.
type minSlotKey struct{}

// minSlotOf is the slot ctx's reads must have reached, or nil.
func minSlotOf(ctx context.Context) *uint64 {
	if v, ok := ctx.Value(minSlotKey{}).(uint64); ok && v > 0 {
		return &v
	}
	return nil
}
