package evm

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// MaxBundleTxs bounds the transactions of one bundle.
const MaxBundleTxs = 64

// ErrBundleRefused is wrapped by the error of SendBundle for a bundle that
// did not land: none of its transactions is on the chain.
var ErrBundleRefused = errors.New("bundle not included")

// BundleError says why a bundle did not land, and which of its
// transactions was the cause when one was. Over JSON-RPC it is error
// -32000 with data {"index", "hash"}.
type BundleError struct {
	// Index is the position of the offending transaction in the bundle,
	// -1 when the bundle as a whole was refused.
	Index int
	// Hash is that transaction's hash, zero with Index -1.
	Hash   common.Hash
	Reason string
}

// Error says that the bundle was not included, and why.
func (e *BundleError) Error() string {
	if e.Index < 0 {
		return ErrBundleRefused.Error() + ": " + e.Reason
	}
	return fmt.Sprintf("%s: transaction %d (%s) %s", ErrBundleRefused, e.Index, e.Hash, e.Reason)
}

// Unwrap makes the error match ErrBundleRefused.
func (e *BundleError) Unwrap() error { return ErrBundleRefused }

// ErrorCode is the JSON-RPC error code (a server error, as relays answer).
func (e *BundleError) ErrorCode() int { return -32000 }

// ErrorData names the offending transaction in the JSON-RPC error.
func (e *BundleError) ErrorData() any {
	return map[string]any{"index": e.Index, "hash": e.Hash}
}

func refuse(index int, hash common.Hash, format string, args ...any) *BundleError {
	return &BundleError{Index: index, Hash: hash, Reason: fmt.Sprintf(format, args...)}
}

// BundleResult is what a bundle that landed got.
type BundleResult struct {
	// BundleHash is keccak256 of the bundle's transaction hashes in order,
	// as Flashbots computes it.
	BundleHash  common.Hash    `json:"bundleHash"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
	BlockHash   common.Hash    `json:"blockHash"`
}

// BundleHash returns keccak256 of the transactions' hashes in order.
func BundleHash(txs []*types.Transaction) common.Hash {
	buf := make([]byte, 0, len(txs)*common.HashLength)
	for _, tx := range txs {
		h := tx.Hash()
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf)
}

// SendBundle puts txs into the next block, alone and in their order, only
// if every one of them executes successfully there, except those whose
// hashes are listed in mayRevert; otherwise the block is dropped and none
// of them lands (all or nothing). A transaction that cannot be included at
// all (wrong nonce, funds short of its fees, another chain's signature)
// refuses the bundle too. The error then is a *BundleError naming the
// transaction. Transactions waiting in the pool are not part of the
// bundle's block; they get the next one.
//
// A tip for the bundle is a plain transfer of the native coin to
// ChainConfig.RelayTipAddress by one of its transactions, usually the last,
// so that it is paid only when the rest lands; the chain does not require
// one.
func (c *Chain) SendBundle(ctx context.Context, txs []*types.Transaction, mayRevert []common.Hash) (BundleResult, error) {
	if err := c.checkBundle(txs); err != nil {
		return BundleResult{}, err
	}
	if !c.waitForClock() {
		return BundleResult{}, refuse(-1, common.Hash{}, "the chain is closing")
	}
	block, err := c.sealBundle(ctx, txs, mayRevert)
	if err != nil {
		return BundleResult{}, err
	}
	c.signalSealed()
	for _, tx := range txs {
		c.record(tx.Hash())
	}
	return BundleResult{BundleHash: BundleHash(txs), BlockNumber: hexutil.Uint64(block.NumberU64()), BlockHash: block.Hash()}, nil
}

// checkBundle refuses a bundle that cannot land whatever the state: empty,
// too long, a transaction twice, or signed for another chain.
func (c *Chain) checkBundle(txs []*types.Transaction) error {
	if len(txs) == 0 || len(txs) > MaxBundleTxs {
		return refuse(-1, common.Hash{}, "a bundle holds 1 to %d transactions, not %d", MaxBundleTxs, len(txs))
	}
	signer := types.LatestSignerForChainID(c.ChainID())
	seen := make(map[common.Hash]bool, len(txs))
	for i, tx := range txs {
		if seen[tx.Hash()] {
			return refuse(i, tx.Hash(), "is in the bundle twice")
		}
		seen[tx.Hash()] = true
		if _, err := types.Sender(signer, tx); err != nil {
			return refuse(i, tx.Hash(), "has no valid signature for chain %s: %v", c.ChainID(), err)
		}
	}
	return nil
}

// checkNonces refuses a bundle whose transactions do not take their
// senders' next nonces in turn on the head's state, naming the first that
// does not: the block would not build, and its error would not say which.
func (c *Chain) checkNonces(txs []*types.Transaction) error {
	st, err := c.eth.BlockChain().State()
	if err != nil {
		return fmt.Errorf("state of the head: %w", err)
	}
	signer := types.LatestSignerForChainID(c.ChainID())
	next := map[common.Address]uint64{}
	for i, tx := range txs {
		from, _ := types.Sender(signer, tx)
		n, ok := next[from]
		if !ok {
			n = st.GetNonce(from)
		}
		if tx.Nonce() != n {
			return refuse(i, tx.Hash(), "has nonce %d where %s's next is %d", tx.Nonce(), from, n)
		}
		next[from] = n + 1
	}
	return nil
}

// sealBundle builds the bundle's block on the head, inserts it, and makes
// it the head only when every receipt allows it. A refused block stays in
// the database off the canonical chain, where nothing refers to it.
func (c *Chain) sealBundle(ctx context.Context, txs []*types.Transaction, mayRevert []common.Hash) (*types.Block, error) {
	c.sealing.Lock()
	defer c.sealing.Unlock()
	c.gate.Lock()
	defer c.gate.Unlock()
	select {
	case <-c.stop:
		return nil, refuse(-1, common.Hash{}, "the chain is closing")
	default:
	}
	bc := c.eth.BlockChain()
	head := bc.CurrentBlock()
	if err := c.checkNonces(txs); err != nil {
		return nil, err
	}
	block, _, err := c.eth.Miner().BuildTestingPayload(payloadOn(head), txs, false, nil)
	if err != nil {
		return nil, refuse(-1, common.Hash{}, "%v", err)
	}
	if _, err := bc.InsertBlockWithoutSetHead(ctx, block, false); err != nil {
		return nil, fmt.Errorf("insert the bundle's block: %w", err)
	}
	receipts := bc.GetReceiptsByHash(block.Hash())
	if len(receipts) != len(txs) {
		return nil, fmt.Errorf("the bundle's block has %d receipts for %d transactions", len(receipts), len(txs))
	}
	for i, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful && !slices.Contains(mayRevert, txs[i].Hash()) {
			return nil, refuse(i, txs[i].Hash(), "reverted")
		}
	}
	if _, err := bc.SetCanonical(block); err != nil {
		return nil, fmt.Errorf("make the bundle's block the head: %w", err)
	}
	c.settle()
	return block, nil
}
