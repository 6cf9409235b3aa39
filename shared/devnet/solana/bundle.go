package solana

import (
	"encoding/binary"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/chains"
)

// The bundle relay: the JSON-RPC of a Jito block engine (sendBundle,
// getBundleStatuses, getInflightBundleStatuses, getTipAccounts), served by
// BundleHandler. A bundle is 1 to 5 fully signed transactions; at least one
// of them must pay a tip account at least Config.MinBundleTip with a System
// transfer. Structural problems (size, encoding, signatures, no tip, a
// transaction twice) are refused at once with -32602; a bundle that passes
// them executes at once, in order and all or nothing: either every
// transaction lands in the same slot or none does and the bundle's status
// is Failed. Its id is Jito's: the hex SHA-256 of its transactions' first
// signatures in base58, joined by commas (chains.BundleID).

// maxBundleTransactions is Jito's limit.
const maxBundleTransactions = 5

// bundleKeep is how long the relay remembers a bundle's status.
const bundleKeep = 5 * time.Minute

// bundleRecord is one bundle the relay executed.
type bundleRecord struct {
	id     string
	sigs   []string
	landed bool
	slot   uint64
	err    *txError // why it failed
	at     time.Time
}

// bundleBook remembers recent bundles, oldest first.
type bundleBook struct {
	mu    sync.Mutex
	byID  map[string]*bundleRecord
	order []*bundleRecord
}

func newBundleBook() *bundleBook { return &bundleBook{byID: make(map[string]*bundleRecord)} }

func (b *bundleBook) get(id string) *bundleRecord {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.byID[id]
}

func (b *bundleBook) put(r *bundleRecord) {
	b.mu.Lock()
	defer b.mu.Unlock()
	drop := 0
	for drop < len(b.order) && time.Since(b.order[drop].at) > bundleKeep {
		delete(b.byID, b.order[drop].id)
		drop++
	}
	b.order = append(b.order[drop:], r)
	b.byID[r.id] = r
}

// rpcCounter counts RPC requests by method.
type rpcCounter struct {
	mu sync.Mutex
	m  map[string]*atomic.Uint64
}

func (r *rpcCounter) add(method string) {
	r.mu.Lock()
	if r.m == nil {
		r.m = make(map[string]*atomic.Uint64)
	}
	n := r.m[method]
	if n == nil {
		n = new(atomic.Uint64)
		r.m[method] = n
	}
	r.mu.Unlock()
	n.Add(1)
}

func (r *rpcCounter) get(method string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := r.m[method]; n != nil {
		return n.Load()
	}
	return 0
}

// RPCCalls returns how many requests for method (for example
// "sendTransaction" or "sendBundle") the chain's RPC and bundle relay have
// answered, so a test can tell which way a client sent a transaction.
func (c *Chain) RPCCalls(method string) uint64 { return c.calls.get(method) }

// BundleHandler returns the bundle relay's JSON-RPC 2.0 handler, to be
// mounted beside Handler, for example at /solana/bundles.
func (c *Chain) BundleHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { c.serve(w, r, bundleMethods) })
}

var bundleMethods map[string]rpcHandler

func init() {
	bundleMethods = map[string]rpcHandler{
		"sendBundle":                rpcSendBundle,
		"getBundleStatuses":         rpcGetBundleStatuses,
		"getInflightBundleStatuses": rpcGetInflightBundleStatuses,
		"getTipAccounts":            rpcGetTipAccounts,
	}
}

// bundleID is the relay's id of a bundle (chains.BundleID).
func bundleID(txs []*parsedTx) string {
	sigs := make([]sol.Signature, len(txs))
	for i, p := range txs {
		sigs[i] = p.sig()
	}
	return chains.BundleID(sigs)
}

// tipped reports whether p pays at least min lamports to one of tips with a
// System transfer that write-locks it.
func tipped(p *parsedTx, tips []sol.PublicKey, min uint64) bool {
	for _, ci := range p.tx.Message.Instructions {
		if p.keys[ci.ProgramIDIndex] != systemProgramID || len(ci.Accounts) < 2 || len(ci.Data) < 12 {
			continue
		}
		if binary.LittleEndian.Uint32(ci.Data) != 2 {
			continue
		}
		to := ci.Accounts[1]
		if p.writable[to] && containsKey(tips, p.keys[to]) && binary.LittleEndian.Uint64(ci.Data[4:]) >= min {
			return true
		}
	}
	return false
}

func rpcSendBundle(c *Chain, p rpcParams) (any, *rpcError) {
	var wires []string
	if err := p.decode(0, &wires); err != nil {
		return nil, err
	}
	var cfg struct {
		Encoding string `json:"encoding"`
	}
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	if len(wires) == 0 || len(wires) > maxBundleTransactions {
		return nil, invalidParams("bundle must contain 1 to %d transactions, got %d", maxBundleTransactions, len(wires))
	}
	txs := make([]*parsedTx, len(wires))
	seen := make(map[sol.Signature]bool, len(wires))
	tip := false
	for i, s := range wires {
		raw, rerr := decodeWire(s, cfg.Encoding)
		if rerr != nil {
			return nil, rerr
		}
		pt, err := c.parseTransaction(raw, true)
		if err != nil {
			e := parseFailure(err)
			e.Code = rpcInvalidParams
			return nil, e
		}
		if seen[pt.sig()] {
			return nil, invalidParams("bundle contains transaction %s twice", pt.sig())
		}
		seen[pt.sig()] = true
		txs[i] = pt
		tip = tip || tipped(pt, c.cfg.TipAccounts, c.cfg.MinBundleTip)
	}
	if !tip {
		return nil, invalidParams("bundle must write lock at least one tip account and tip it at least %d lamports", c.cfg.MinBundleTip)
	}
	id := bundleID(txs)
	if r := c.bundles.get(id); r != nil && r.landed {
		return id, nil // the same bundle again: it landed once
	}
	rec := &bundleRecord{id: id, at: time.Now()}
	for _, pt := range txs {
		rec.sigs = append(rec.sigs, pt.sig().String())
	}
	c.mu.Lock()
	rec.slot, rec.err = c.processBundleLocked(txs)
	c.mu.Unlock()
	rec.landed = rec.err == nil
	c.bundles.put(rec)
	if rec.err != nil {
		c.log.Debug("bundle failed", "bundle", id, "err", rec.err.Error())
	}
	return id, nil
}

// processBundleLocked executes txs in order and lands them all, or, when
// one cannot land or fails, none: every account any of them touched, the
// history and the counters are put back as they were.
func (c *Chain) processBundleLocked(txs []*parsedTx) (uint64, *txError) {
	saved := make(map[sol.PublicKey]*Account)
	for _, pt := range txs {
		for _, k := range pt.keys {
			if _, ok := saved[k]; !ok {
				saved[k] = c.accounts[k]
			}
		}
	}
	histLen, landed, changes, migrations := len(c.history), c.landed, c.changes, len(c.migrations)
	prio := append([]slotPrioFee(nil), c.prioFees...)
	for i, pt := range txs {
		res := c.processLocked(pt, modePreflight, false)
		if res.err == nil && res.landed {
			continue
		}
		for k, a := range saved {
			if a == nil {
				delete(c.accounts, k)
			} else {
				c.accounts[k] = a
			}
		}
		for _, r := range c.history[histLen:] {
			delete(c.txs, r.p.sig())
		}
		c.history = c.history[:histLen]
		c.landed, c.changes, c.prioFees = landed, changes, prio
		c.migrations = c.migrations[:migrations]
		err := res.err
		if err == nil {
			err = newTxError("InvalidAccountIndex")
		}
		c.log.Debug("bundle transaction refused", "index", i, "err", err.Error())
		return 0, err
	}
	return c.slot, nil
}

// bundleIDs reads the list of at most five bundle ids of a status request.
func bundleIDs(p rpcParams) ([]string, *rpcError) {
	var ids []string
	if err := p.decode(0, &ids); err != nil {
		return nil, err
	}
	if len(ids) > maxBundleTransactions {
		return nil, invalidParams("Invalid params: at most %d bundle ids per request", maxBundleTransactions)
	}
	return ids, nil
}

func rpcGetBundleStatuses(c *Chain, p rpcParams) (any, *rpcError) {
	ids, rerr := bundleIDs(p)
	if rerr != nil {
		return nil, rerr
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]any, len(ids))
	for i, id := range ids {
		r := c.bundles.get(id)
		if r == nil || !r.landed {
			continue
		}
		st := c.statusAtLocked(r.slot, nil)
		out[i] = map[string]any{
			"bundle_id": r.id, "transactions": r.sigs, "slot": r.slot,
			"confirmation_status": st.ConfirmationStatus, "err": map[string]any{"Ok": nil},
		}
	}
	return withContext{c.ctxLocked(), out}, nil
}

func rpcGetInflightBundleStatuses(c *Chain, p rpcParams) (any, *rpcError) {
	ids, rerr := bundleIDs(p)
	if rerr != nil {
		return nil, rerr
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]map[string]any, len(ids))
	for i, id := range ids {
		r := c.bundles.get(id)
		switch {
		case r == nil:
			out[i] = map[string]any{"bundle_id": id, "status": "Invalid", "landed_slot": nil}
		case r.landed:
			out[i] = map[string]any{"bundle_id": id, "status": "Landed", "landed_slot": r.slot}
		default:
			out[i] = map[string]any{"bundle_id": id, "status": "Failed", "landed_slot": nil, "err": r.err}
		}
	}
	return withContext{c.ctxLocked(), out}, nil
}

func rpcGetTipAccounts(c *Chain, _ rpcParams) (any, *rpcError) {
	return keyStrings(c.cfg.TipAccounts), nil
}
