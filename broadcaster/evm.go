package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"golang.org/x/sync/singleflight"

	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// EVMRPC is the part of a JSON-RPC client the EVM chain calls; *rpc.Client
// implements it.
type EVMRPC interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// EVMConfig tunes an EVM chain.
type EVMConfig struct {
	// Confirmations is how many blocks must be built on top of a
	// transaction's block before it counts as confirmed; 0 confirms at
	// inclusion.
	Confirmations uint64
	// RelayName names the relay in the order's bundle records ("base
	// relay"), never its URL.
	RelayName string
}

// evmBundleMemory is how long the record of a bundle sent is kept for the
// order's lookup: longer than any batch's handling and its tracking's
// first verdicts.
const evmBundleMemory = 10 * time.Minute

// EVM sends to an EVM chain's JSON-RPC endpoint, and a transaction marked
// Private to the chain's private relay.
//
// Transactions of one wallet are sent concurrently and may reach the node
// out of nonce order; a node's pool holds a transaction with a future
// nonce until the nonces before it arrive. A node or relay that refuses a
// gapped nonce instead ("nonce too high") gets a transient error, so the
// broadcaster sends the batch again a moment later, and the transactions
// already accepted answer "already known".
//
// An EVM transaction does not expire with time: EVM implements Resender,
// and the tracker re-sends a transaction until it has a receipt or its
// nonce went to another transaction.
//
// A transaction whose bytes are a bundle (txbundle.Prefix: a wallet's
// approval, processor tip and swap) goes to the relay only inside its
// bundle, with eth_sendBundle, whichever of its transactions is sent or
// re-sent: the relay lands all of them or none, so a tip is never paid
// without its swap.
type EVM struct {
	rpc   EVMRPC
	relay EVMRPC
	cfg   EVMConfig
	// bundles joins the concurrent sends of one bundle's transactions
	// into one eth_sendBundle.
	bundles singleflight.Group
	// book keeps the relay's verdict on each bundle sent, by the
	// signatures of its transactions.
	mu   sync.Mutex
	book map[string]*evmBundle
}

// evmBundle is the record of a bundle sent.
type evmBundle struct {
	wire.Bundle
	at time.Time
}

// NewEVM returns an EVM chain sending through client, and through relay
// for anti-MEV transactions; a nil relay refuses them. Clients of
// configured endpoints come from endpoint.Endpoint.DialEVM, whose errors
// name the endpoint and never its URL.
func NewEVM(client, relay EVMRPC, cfg EVMConfig) *EVM {
	return &EVM{rpc: client, relay: relay, cfg: cfg, book: map[string]*evmBundle{}}
}

// Send implements Chain.
func (e *EVM) Send(ctx context.Context, stx wire.SignedTx) error {
	bundle, own, err := txbundle.Signed(stx.Raw, stx.Signature)
	if err != nil {
		return &Refused{Reason: "undecodable transaction: " + err.Error()}
	}
	if bundle != nil {
		return e.sendBundle(ctx, bundle)
	}
	tx := own
	target := e.rpc
	if stx.Private {
		if e.relay == nil {
			return &Refused{Reason: "anti_mev: no private relay is configured for this chain"}
		}
		target = e.relay
	}
	var hash common.Hash
	err = target.CallContext(ctx, &hash, "eth_sendRawTransaction", hexutil.Bytes(stx.Raw))
	if err == nil {
		return nil
	}
	var rerr rpc.Error
	if !errors.As(err, &rerr) {
		return fmt.Errorf("send transaction %s: %w", tx.Hash().Hex(), err)
	}
	msg := strings.ToLower(rerr.Error())
	switch {
	case containsAny(msg, "already known", "known transaction", "already imported", "alreadyknown", "already exists"):
		return nil // these bytes reached the node before: not a second trade
	case containsAny(msg, "nonce too low", "nonce is too low", "oldnonce"):
		// Either these very bytes were mined already (a resend), or another
		// transaction used the nonce.
		known, kerr := e.known(ctx, tx.Hash())
		if kerr != nil {
			return fmt.Errorf("send transaction %s: %s; look up: %w", tx.Hash().Hex(), rerr.Error(), kerr)
		}
		if known {
			return nil
		}
		return &Refused{Reason: rerr.Error(), Stale: true}
	case containsAny(msg, "nonce too high", "gapped nonce", "nonce gap", "noncegap", "noncetoofar", "txpool is full",
		"out of capacity", "account limit exceeded", "in-flight transaction limit"):
		// An earlier nonce has not arrived yet, or the pool is busy: the
		// same bytes may be accepted a moment later.
		return fmt.Errorf("send transaction %s: %w", tx.Hash().Hex(), err)
	case containsAny(msg, evmRefusals...):
		return &Refused{Reason: rerr.Error()}
	default:
		// Not known to be the node's refusal of the transaction: a call
		// that ran past the node's timeout (geth answers -32002 "request
		// timed out" while the call goes on, and may still put the
		// transaction in its pool), a provider's internal or upstream
		// error. It may have been taken: sent again, and tracked, never
		// answered as refused.
		return fmt.Errorf("send transaction %s: %w", tx.Hash().Hex(), err)
	}
}

// evmRefusals are the words of a node's refusal of a transaction itself
// (go-ethereum's pool and state checks, and a provider's simulation): the
// node did not take it, and sending the same bytes again changes nothing.
var evmRefusals = []string{
	// go-ethereum and its forks (BSC, op-geth, Erigon).
	"insufficient funds", "insufficient balance", "intrinsic gas", "floor data gas", "exceeds block gas limit",
	"gas limit reached", "transaction gas limit too high", "underpriced", "gas price below minimum",
	"less than block base fee", "max fee per gas less than", "fee cap less than", "max fee per gas higher than",
	"max priority fee per gas higher than", "priority fee per gas higher than", "tip higher than", "tip above fee cap",
	"exceeds the configured cap", "future transaction tries to replace pending", "invalid sender", "invalid chain id",
	"chain id mismatch", "not supported", "oversized data", "negative value", "gas uint64 overflow",
	"max initcode size", "replay-protected", "nonce has max value", "sender not an eoa", "execution reverted", "rlp:",
	"typed transaction too short", "invalid transaction",
	// Besu.
	"upfront cost exceeds account balance", "below configured minimum gas price", "intrinsic gas exceeds gas limit",
	// Nethermind answers in CamelCase, matched lower-cased.
	"feetoolow", "insufficientfunds", "gaslimitexceeded", "senderiscontract", "int256overflow", "failedtoresolvesender",
}

// known reports whether the public node knows a transaction, mined or
// pending.
func (e *EVM) known(ctx context.Context, hash common.Hash) (bool, error) {
	var found map[string]any
	if err := e.rpc.CallContext(ctx, &found, "eth_getTransactionByHash", hash); err != nil {
		return false, err
	}
	return found != nil, nil
}

// receipt is the part of a receipt the status needs.
type receipt struct {
	Status            hexutil.Uint64 `json:"status"`
	BlockNumber       *hexutil.Big   `json:"blockNumber"`
	GasUsed           hexutil.Uint64 `json:"gasUsed"`
	EffectiveGasPrice *hexutil.Big   `json:"effectiveGasPrice"`
	// L1Fee is the data fee an OP-stack chain (base) charges on top.
	L1Fee *hexutil.Big `json:"l1Fee"`
}

// fee is what the receipt's transaction paid: its gas at the price it
// was charged, and an OP-stack chain's L1 data fee; nil when the node
// does not say the price.
func (r *receipt) fee() *big.Int {
	if r.EffectiveGasPrice == nil {
		return nil
	}
	f := new(big.Int).Mul(new(big.Int).SetUint64(uint64(r.GasUsed)), r.EffectiveGasPrice.ToInt())
	if r.L1Fee != nil {
		f.Add(f, r.L1Fee.ToInt())
	}
	return f
}

// Statuses implements Chain: a receipt with status 1 is confirmed and one
// with status 0 failed (with why it reverted, as far as the node tells:
// revertReason), each after EVMConfig.Confirmations blocks (until then
// the status carries the block in Slot), no receipt unknown. A transaction without a
// receipt is never called expired here: see Superseded.
func (e *EVM) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	hashes := make([]common.Hash, len(sigs))
	for i, s := range sigs {
		b, err := hexutil.Decode(s)
		if err != nil || len(b) != common.HashLength {
			return nil, fmt.Errorf("transaction hash %q: not 32 bytes of 0x hex", s)
		}
		hashes[i] = common.BytesToHash(b)
	}
	// With confirmations to count, the head comes with the receipts, from
	// the node that answers them.
	var height uint64
	var head *uint64
	if e.cfg.Confirmations > 0 {
		head = &height
	}
	recs, _, err := e.receipts(ctx, hashes, head)
	if err != nil {
		return nil, err
	}
	out := make([]Status, len(sigs))
	reverted := false
	for i, r := range recs {
		deep := r != nil && r.BlockNumber != nil &&
			(e.cfg.Confirmations == 0 || r.BlockNumber.ToInt().Uint64()+e.cfg.Confirmations <= height)
		switch {
		case r == nil:
		case r.BlockNumber == nil:
			// A receipt without a block is not one to count on.
		case !deep:
			// Reverted or not, a reorg may still take it out: seen, not
			// final, neither expired nor sent again meanwhile.
			out[i] = Status{Slot: r.BlockNumber.ToInt().Uint64()}
		case r.Status == hexutil.Uint64(types.ReceiptStatusFailed):
			out[i] = Status{State: wire.StateFailed, Err: revertedErr, Fee: r.fee(), Slot: r.BlockNumber.ToInt().Uint64()}
			reverted = true
		default:
			out[i] = Status{State: wire.StateConfirmed, Slot: r.BlockNumber.ToInt().Uint64(), Fee: r.fee()}
		}
	}
	if reverted {
		e.revertReasons(ctx, out, hashes, recs)
	}
	return out, nil
}

// receipts fetches receipts in one batch, and with head the block number
// of the node that answers them, asked first in the same batch. A receipt
// the node answered with an error ("transaction indexing is in progress")
// is nil and not known: only a nil receipt that is known means the node
// has none.
func (e *EVM) receipts(ctx context.Context, hashes []common.Hash, head *uint64) (recs []*receipt, known []bool, err error) {
	recs, known = make([]*receipt, len(hashes)), make([]bool, len(hashes))
	if len(hashes) == 0 {
		return recs, known, nil
	}
	var h hexutil.Uint64
	batch := make([]rpc.BatchElem, 0, len(hashes)+1)
	if head != nil {
		batch = append(batch, rpc.BatchElem{Method: "eth_blockNumber", Result: &h})
	}
	for i, hash := range hashes {
		batch = append(batch, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{hash}, Result: &recs[i]})
	}
	if err := e.rpc.BatchCallContext(ctx, batch); err != nil {
		return nil, nil, fmt.Errorf("get receipts: %w", err)
	}
	if head != nil {
		if batch[0].Error != nil {
			return nil, nil, fmt.Errorf("block number: %w", batch[0].Error)
		}
		*head, batch = uint64(h), batch[1:]
	}
	for i, b := range batch {
		known[i] = b.Error == nil
		if !known[i] {
			recs[i] = nil
		}
	}
	return recs, known, nil
}

// Superseded implements Resender. The wallets' nonces are read first, and
// for a nonce taken, the receipts with the head of the node that answers
// them; the nonce is then read again at that head, less
// EVMConfig.Confirmations blocks. A provider's pool may
// answer the receipts from a node behind the one that counted the nonce:
// only a nonce taken by a block whose node has no receipt of the
// transaction was taken by another one. (This counts on a batch being
// answered by one node, as the pools of the providers do; one that split
// a batch's calls across nodes apart could still mislead it.) A transaction whose bytes do not
// decode, or that a node could not answer for, is not superseded: nothing
// is expired on a doubt.
func (e *EVM) Superseded(ctx context.Context, txs []wire.SignedTx) ([]bool, error) {
	return e.superseded(ctx, txs, e.cfg.Confirmations)
}

// superseded is Superseded with the nonce taken by a block depth blocks
// under the head: a relay's refusal of a bundle (bundleError) is told from
// the bundle's own landing at the head, since a refused bundle is in no
// pool, and lands only if sent again.
func (e *EVM) superseded(ctx context.Context, txs []wire.SignedTx, depth uint64) ([]bool, error) {
	out := make([]bool, len(txs))
	probes := decodeAll(txs)
	counts, err := e.nonces(ctx, probes, "latest")
	if err != nil {
		return nil, err
	}
	var used []nonceProbe
	for _, p := range probes {
		if n, ok := counts[p.from]; ok && n > p.nonce {
			used = append(used, p)
		}
	}
	if len(used) == 0 {
		return out, nil
	}
	hashes := make([]common.Hash, len(used))
	for k, p := range used {
		hashes[k] = p.hash
	}
	var head uint64
	recs, known, err := e.receipts(ctx, hashes, &head)
	if err != nil {
		return nil, err
	}
	var missing []nonceProbe
	for k, p := range used {
		if known[k] && recs[k] == nil {
			missing = append(missing, p)
		}
	}
	// The nonce counts only as taken by a block as deep as a receipt must
	// be to count (EVMConfig.Confirmations): a reorg of a shallower one may
	// put the other transaction back in the pool, and this one land.
	if len(missing) == 0 || head < depth {
		return out, nil
	}
	final := head - depth
	at, err := e.nonces(ctx, missing, hexutil.EncodeUint64(final))
	if err != nil {
		return nil, err
	}
	for _, p := range missing {
		n, ok := at[p.from]
		if !ok {
			// A node behind that block ("header not found") is asked
			// again next poll; one that never reads a nonce at a block
			// shows as the tracker's failed nonce reads, never as an
			// expiry.
			return nil, fmt.Errorf("nonce of %s at block %d: not answered", p.from.Hex(), final)
		}
		out[p.i] = n > p.nonce
	}
	return out, nil
}

// nonceProbe is a transaction's wallet and nonce; i is its index in the
// caller's list.
type nonceProbe struct {
	i     int
	hash  common.Hash
	from  common.Address
	nonce uint64
}

// decodeAll reads sender and nonce from each transaction's bytes.
func decodeAll(txs []wire.SignedTx) []nonceProbe {
	var out []nonceProbe
	for i, stx := range txs {
		_, tx, err := txbundle.Signed(stx.Raw, stx.Signature)
		if err != nil {
			continue
		}
		from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
		if err != nil {
			continue
		}
		out = append(out, nonceProbe{i: i, hash: tx.Hash(), from: from, nonce: tx.Nonce()})
	}
	return out
}

// nonces reads each wallet's count of mined transactions at block ("latest"
// or a number), once per wallet, in one batch. A wallet the node could not
// answer for (one behind that block: "header not found") is left out.
func (e *EVM) nonces(ctx context.Context, probes []nonceProbe, block string) (map[common.Address]uint64, error) {
	var wallets []common.Address
	seen := map[common.Address]bool{}
	for _, p := range probes {
		if !seen[p.from] {
			seen[p.from] = true
			wallets = append(wallets, p.from)
		}
	}
	if len(wallets) == 0 {
		return nil, nil
	}
	counts := make([]hexutil.Uint64, len(wallets))
	batch := make([]rpc.BatchElem, len(wallets))
	for k, w := range wallets {
		batch[k] = rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{w, block}, Result: &counts[k]}
	}
	if err := e.rpc.BatchCallContext(ctx, batch); err != nil {
		return nil, fmt.Errorf("get account nonces: %w", err)
	}
	out := make(map[common.Address]uint64, len(wallets))
	for k, b := range batch {
		if b.Error == nil {
			out[wallets[k]] = uint64(counts[k])
		}
	}
	return out, nil
}

// Height implements Chain: the latest block number.
func (e *EVM) Height(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := e.rpc.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("block number: %w", err)
	}
	return uint64(n), nil
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// bundleKey names a bundle as Flashbots does: keccak256 of its
// transactions' hashes in order.
func bundleKey(txs []*types.Transaction) string {
	buf := make([]byte, 0, len(txs)*common.HashLength)
	for _, tx := range txs {
		h := tx.Hash()
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf).Hex()
}

// bundleArgs is eth_sendBundle's parameter, the Flashbots shape: the
// signed transactions and the block they are for.
type bundleArgs struct {
	Txs         []hexutil.Bytes `json:"txs"`
	BlockNumber hexutil.Uint64  `json:"blockNumber"`
}

// maxBundleTries bounds how often one send asks again for the next block
// when the block it aimed at passed meanwhile.
const maxBundleTries = 3

// sendBundle sends a transaction's bundle to the relay, once for all of
// its transactions that are sent at the same time. A bundle that landed
// before (a re-send) answers as its nonces being used: that is success
// when the chain knows it (see bundleError).
func (e *EVM) sendBundle(ctx context.Context, bundle []*types.Transaction) error {
	if e.relay == nil {
		return &Refused{Reason: "a tipped bundle goes to the chain's private relay, and none is configured for this chain"}
	}
	key := bundleKey(bundle)
	// One call and one verdict for the bundle, shared by its transactions
	// sent at the same time: it lands whole or not at all.
	v, err, _ := e.bundles.Do(key, func() (any, error) {
		res, err := e.callBundle(ctx, bundle)
		if err != nil {
			return res, e.bundleError(ctx, err, bundle)
		}
		return res, nil
	})
	if err == nil {
		res, _ := v.(bundleResult)
		e.note(key, bundle, uint64(res.BlockNumber), "")
		return nil
	}
	if errors.Is(err, errNotYet) {
		e.note(key, bundle, 0, "")
		return nil
	}
	var ref *Refused
	if errors.As(err, &ref) {
		e.note(key, bundle, 0, ref.Reason)
	}
	return err
}

// errNotYet is bundleError's verdict on a bundle the relay refused only
// because a wallet's earlier transactions are not mined yet: taken for
// sent, and sent again by the tracker.
var errNotYet = errors.New("the bundle waits for its wallets' earlier transactions")

// bundleResult is what a relay answers to eth_sendBundle: the bundle's
// hash, and, from a relay that answers once the bundle landed (the local
// chains'), its block.
type bundleResult struct {
	BundleHash  common.Hash    `json:"bundleHash"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
}

// note records the relay's verdict on a bundle: landed in block, taken
// and pending (block 0), or dropped with reason. A landed bundle stays
// landed: a re-send of it answers as dropped (its nonces are used), and
// that is no news.
func (e *EVM) note(key string, bundle []*types.Transaction, block uint64, reason string) {
	now := time.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	for sig, r := range e.book {
		if now.Sub(r.at) > evmBundleMemory {
			delete(e.book, sig)
		}
	}
	sigs := make([]string, len(bundle))
	for i, tx := range bundle {
		sigs[i] = tx.Hash().Hex()
	}
	if r, ok := e.book[sigs[0]]; ok && r.State == wire.BundleLanded {
		return
	}
	r := &evmBundle{Bundle: wire.Bundle{ID: key, Relay: e.cfg.RelayName, State: wire.BundlePending, Signatures: sigs}, at: now}
	switch {
	case reason != "":
		r.State, r.Reason = wire.BundleDropped, reason
	case block > 0:
		r.State, r.Slot = wire.BundleLanded, block
	}
	for _, sig := range sigs {
		e.book[sig] = r
	}
}

// Bundle returns the record of the bundle that carried signature, as the
// order shows it: landed in its block, dropped with the relay's reason, or
// pending while the relay has said no more than that it took it. ok is
// false when this process sent no such bundle lately.
func (e *EVM) Bundle(signature string) (wire.Bundle, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r, ok := e.book[signature]
	if !ok {
		return wire.Bundle{}, false
	}
	b := r.Bundle
	b.Signatures = append([]string(nil), r.Signatures...)
	return b, true
}

// callBundle is one eth_sendBundle of the bundle for the next block.
func (e *EVM) callBundle(ctx context.Context, bundle []*types.Transaction) (bundleResult, error) {
	args := bundleArgs{Txs: make([]hexutil.Bytes, len(bundle))}
	for i, tx := range bundle {
		raw, err := tx.MarshalBinary()
		if err != nil {
			return bundleResult{}, &Refused{Reason: "encode bundle: " + err.Error()}
		}
		args.Txs[i] = raw
	}
	var res bundleResult
	var err error
	for range maxBundleTries {
		var head uint64
		if head, err = e.Height(ctx); err != nil {
			return bundleResult{}, err
		}
		args.BlockNumber = hexutil.Uint64(head + 1)
		var raw json.RawMessage
		err = e.relay.CallContext(ctx, &raw, "eth_sendBundle", args)
		var rerr rpc.Error
		if err == nil {
			// A relay may answer only the bundle's hash, or less.
			_ = json.Unmarshal(raw, &res)
			return res, nil
		}
		if !errors.As(err, &rerr) || !strings.Contains(strings.ToLower(rerr.Error()), "past") {
			return bundleResult{}, err
		}
	}
	return bundleResult{}, err
}

// bundleError sorts the relay's refusal of a bundle, judged whole: it
// lands whole or not at all, and only through the relay. A nonce
// complaint is read against every wallet's count of mined transactions,
// read before the chain is asked about the bundle (so that a bundle mined
// between the two reads is seen landed, not refused): the bundle landed
// before (a re-send) is success; one of its nonces used by another
// transaction, it can never land, and each of its transactions is refused
// (its order fails and its wallet's nonces are reclaimed, instead of being
// held as "may still land" until the swap's deadline while the wallet's
// next orders wait behind them and land too late); a wallet's first nonce
// in it above the wallet's count (an earlier transaction of the wallet
// still on its way) is a bundle the relay takes once that one is mined:
// noted pending, and sent again by the tracker until it lands or its
// nonces go to others. The block passing is worth another try; a refusal
// of the bundle itself (a transaction would revert, the local relay's
// "bundle not included") is final, and then nothing of the bundle is on
// chain; anything else (a timeout, an internal error) may have reached the
// builders, and is sent again and tracked.
func (e *EVM) bundleError(ctx context.Context, err error, bundle []*types.Transaction) error {
	last := bundle[len(bundle)-1]
	var rerr rpc.Error
	if !errors.As(err, &rerr) {
		return fmt.Errorf("send bundle of %s: %w", last.Hash().Hex(), err)
	}
	msg := strings.ToLower(rerr.Error())
	switch {
	case strings.Contains(msg, "nonce"):
		// Each wallet's lowest nonce in the bundle: its others follow it.
		first := map[common.Address]uint64{}
		probes := make([]nonceProbe, 0, len(bundle))
		for _, tx := range bundle {
			from, serr := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
			if serr != nil {
				return &Refused{Reason: rerr.Error()}
			}
			if n, ok := first[from]; !ok || tx.Nonce() < n {
				first[from] = tx.Nonce()
			}
			probes = append(probes, nonceProbe{hash: tx.Hash(), from: from, nonce: tx.Nonce()})
		}
		counts, nerr := e.nonces(ctx, probes, "latest")
		if nerr != nil {
			return fmt.Errorf("send bundle of %s: %s; nonce: %w", last.Hash().Hex(), rerr.Error(), nerr)
		}
		known, kerr := e.known(ctx, last.Hash())
		if kerr != nil {
			return fmt.Errorf("send bundle of %s: %s; look up: %w", last.Hash().Hex(), rerr.Error(), kerr)
		}
		if known {
			return nil
		}
		ahead, taken := false, false
		for _, p := range probes {
			n, ok := counts[p.from]
			switch {
			case !ok:
				return fmt.Errorf("send bundle of %s: %w", last.Hash().Hex(), err)
			case n > p.nonce:
				taken = true
			case n < first[p.from]:
				ahead = true
			}
		}
		if taken {
			// A nonce of the bundle is used: by the bundle itself, which
			// landed (its lookup above may have reached a node behind the
			// one that counted), or by another transaction. Superseded
			// tells them apart with the guard against a node behind; a
			// doubt is no refusal.
			stxs := make([]wire.SignedTx, len(bundle))
			for i, tx := range bundle {
				raw, merr := tx.MarshalBinary()
				if merr != nil {
					return &Refused{Reason: rerr.Error()}
				}
				stxs[i] = wire.SignedTx{Signature: tx.Hash().Hex(), Raw: raw}
			}
			gone, serr := e.superseded(ctx, stxs, 0)
			if serr != nil {
				return fmt.Errorf("send bundle of %s: %s; superseded: %w", last.Hash().Hex(), rerr.Error(), serr)
			}
			if slices.Contains(gone, true) {
				return &Refused{Reason: rerr.Error()}
			}
			return nil
		}
		if ahead {
			return errNotYet
		}
		return fmt.Errorf("send bundle of %s: %w", last.Hash().Hex(), err)
	case strings.Contains(msg, "past"):
		return fmt.Errorf("send bundle of %s: %w", last.Hash().Hex(), err)
	case containsAny(msg, bundleRefusals...) || containsAny(msg, evmRefusals...):
		return &Refused{Reason: rerr.Error()}
	default:
		// Not known to be the relay's refusal of the bundle: a call that
		// ran past the relay's timeout, its internal error or its rate
		// limit, after which the bundle may have reached the builders and
		// land. Sent again and tracked, as a transaction is, never
		// answered as refused: an order called failed that lands is an
		// order traded twice.
		return fmt.Errorf("send bundle of %s: %w", last.Hash().Hex(), err)
	}
}

// bundleRefusals are the words of a relay's refusal of a bundle itself,
// beside those of a node's refusal of one of its transactions
// (evmRefusals): the bundle was judged and is not on its way.
var bundleRefusals = []string{"bundle not included", "revert", "bundle rejected", "invalid", "unable to decode",
	"could not decode", "malformed", "too many txs", "too many transactions", "unsupported"}
