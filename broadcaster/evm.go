package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

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
}

// EVM sends to an EVM chain's JSON-RPC endpoint, and a transaction marked
// Private to the chain's private relay.
//
// Transactions of one wallet are sent concurrently and may reach the node
// out of nonce order; a node's pool holds a transaction with a future
// nonce until the nonces before it arrive. A node or relay that refuses a
// gapped nonce instead ("nonce too high") gets a transient error, so the
// broadcaster sends the batch again a moment later, and the transactions
// already accepted answer "already known".
type EVM struct {
	rpc   EVMRPC
	relay EVMRPC
	cfg   EVMConfig

	// sent remembers the sender and nonce of each transaction sent, so
	// that one whose nonce the chain has used for another transaction is
	// known failed at once instead of expiring.
	mu   sync.Mutex
	sent map[common.Hash]sentTx
}

type sentTx struct {
	from  common.Address
	nonce uint64
}

// maxRemembered bounds the sender memory; past it the oldest knowledge is
// dropped and such transactions only expire.
const maxRemembered = 1 << 16

// NewEVM returns an EVM chain sending through client, and through relay
// for anti-MEV transactions; a nil relay refuses them.
func NewEVM(client, relay EVMRPC, cfg EVMConfig) *EVM {
	return &EVM{rpc: client, relay: relay, cfg: cfg, sent: map[common.Hash]sentTx{}}
}

// Send implements Chain.
func (e *EVM) Send(ctx context.Context, stx wire.SignedTx) error {
	var tx types.Transaction
	if err := tx.UnmarshalBinary(stx.Raw); err != nil {
		return &Refused{Reason: "undecodable transaction: " + err.Error()}
	}
	e.remember(&tx)
	target := e.rpc
	if stx.Private {
		if e.relay == nil {
			return &Refused{Reason: "anti_mev: no private relay is configured for this chain"}
		}
		target = e.relay
	}
	var hash common.Hash
	err := target.CallContext(ctx, &hash, "eth_sendRawTransaction", hexutil.Bytes(stx.Raw))
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
		return &Refused{Reason: rerr.Error()}
	case containsAny(msg, "nonce too high", "gapped nonce", "nonce gap", "txpool is full", "out of capacity",
		"account limit exceeded", "in-flight transaction limit"):
		// An earlier nonce has not arrived yet, or the pool is busy: the
		// same bytes may be accepted a moment later.
		return fmt.Errorf("send transaction %s: %w", tx.Hash().Hex(), err)
	default:
		return &Refused{Reason: rerr.Error()}
	}
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

func (e *EVM) remember(tx *types.Transaction) {
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.sent) >= maxRemembered {
		clear(e.sent)
	}
	e.sent[tx.Hash()] = sentTx{from: from, nonce: tx.Nonce()}
}

func (e *EVM) forget(hashes []common.Hash) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, h := range hashes {
		delete(e.sent, h)
	}
}

// receipt is the part of a receipt the status needs.
type receipt struct {
	Status      hexutil.Uint64 `json:"status"`
	BlockNumber *hexutil.Big   `json:"blockNumber"`
}

// Statuses implements Chain: a receipt with status 1 is confirmed (after
// EVMConfig.Confirmations blocks), status 0 failed, no receipt unknown. A
// transaction without a receipt whose nonce the chain has already used
// for another transaction failed.
func (e *EVM) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	hashes := make([]common.Hash, len(sigs))
	for i, s := range sigs {
		b, err := hexutil.Decode(s)
		if err != nil || len(b) != common.HashLength {
			return nil, fmt.Errorf("transaction hash %q: not 32 bytes of 0x hex", s)
		}
		hashes[i] = common.BytesToHash(b)
	}
	var height uint64
	if e.cfg.Confirmations > 0 {
		h, err := e.Height(ctx)
		if err != nil {
			return nil, err
		}
		height = h
	}
	recs, err := e.receipts(ctx, hashes)
	if err != nil {
		return nil, err
	}
	out := make([]Status, len(sigs))
	var final []common.Hash
	var missing []int
	for i, r := range recs {
		switch {
		case r == nil:
			missing = append(missing, i)
		case r.Status == hexutil.Uint64(types.ReceiptStatusFailed):
			out[i] = Status{State: wire.StateFailed, Err: "execution reverted"}
			final = append(final, hashes[i])
		case e.cfg.Confirmations == 0 || (r.BlockNumber != nil && r.BlockNumber.ToInt().Uint64()+e.cfg.Confirmations <= height):
			out[i] = Status{State: wire.StateConfirmed}
			final = append(final, hashes[i])
		}
	}
	replaced, err := e.replaced(ctx, hashes, missing)
	if err != nil {
		return nil, err
	}
	for _, i := range replaced {
		out[i] = Status{State: wire.StateFailed, Err: "nonce used by another transaction"}
		final = append(final, hashes[i])
	}
	e.forget(final)
	return out, nil
}

// receipts fetches receipts in one batch; a missing one, or one the node
// answered with an error, is nil.
func (e *EVM) receipts(ctx context.Context, hashes []common.Hash) ([]*receipt, error) {
	out := make([]*receipt, len(hashes))
	if len(hashes) == 0 {
		return out, nil
	}
	batch := make([]rpc.BatchElem, len(hashes))
	for i, h := range hashes {
		batch[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &out[i]}
	}
	if err := e.rpc.BatchCallContext(ctx, batch); err != nil {
		return nil, fmt.Errorf("get receipts: %w", err)
	}
	for i, b := range batch {
		if b.Error != nil {
			// One receipt the node cannot give now ("transaction indexing
			// is in progress") leaves that one unknown, not the others.
			out[i] = nil
		}
	}
	return out, nil
}

// replaced returns those of the missing transactions (indexes into hashes)
// whose nonce the chain has used while they have no receipt. The account
// nonces are read before the receipts are read again, so a transaction
// mined in between is seen mined, not replaced.
func (e *EVM) replaced(ctx context.Context, hashes []common.Hash, missing []int) ([]int, error) {
	type probe struct {
		i     int
		tx    sentTx
		nonce hexutil.Uint64
	}
	var probes []probe
	e.mu.Lock()
	for _, i := range missing {
		if s, ok := e.sent[hashes[i]]; ok {
			probes = append(probes, probe{i: i, tx: s})
		}
	}
	e.mu.Unlock()
	if len(probes) == 0 {
		return nil, nil
	}
	batch := make([]rpc.BatchElem, len(probes))
	for k := range probes {
		batch[k] = rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{probes[k].tx.from, "latest"}, Result: &probes[k].nonce}
	}
	if err := e.rpc.BatchCallContext(ctx, batch); err != nil {
		return nil, fmt.Errorf("get account nonces: %w", err)
	}
	var used []probe
	for k, b := range batch {
		if b.Error == nil && uint64(probes[k].nonce) > probes[k].tx.nonce {
			used = append(used, probes[k])
		}
	}
	if len(used) == 0 {
		return nil, nil
	}
	again := make([]common.Hash, len(used))
	for k, p := range used {
		again[k] = hashes[p.i]
	}
	recs, err := e.receipts(ctx, again)
	if err != nil {
		return nil, err
	}
	var out []int
	for k, r := range recs {
		if r == nil {
			out = append(out, used[k].i)
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
