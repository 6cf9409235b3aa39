package evm

import (
	"bytes"
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Dropped gives back what a signed batch the worker dropped unsent took:
// its order's batch was handed on by another delivery first, or its
// ingress voided the order. Its transactions never leave this process, so
// each wallet's nonces are given back when no later order took the next
// (otherwise they stay a gap the filler closes, its claim gone so that
// nothing holds the filler back, see ClaimGap), and the approvals it
// signed are no longer presumed on their way: a later order of the wallet
// that skipped its own approval for one of them would revert on chain.
func (s *Signer) Dropped(ctx context.Context, batch *wire.TxBatch) {
	c, ok := s.chains[batch.Chain]
	if !ok {
		return
	}
	type span struct{ first, last uint64 }
	spans := map[common.Address]*span{}
	for _, stx := range batch.Txs {
		_, tx, err := txbundle.Signed(stx.Raw, stx.Signature)
		if err != nil || !common.IsHexAddress(stx.Wallet) {
			s.log.Warn("read a dropped batch's transaction; its nonce is left to the gap filler",
				"order_id", batch.OrderID, "tx", stx.Signature, "err", err)
			continue
		}
		wallet := common.HexToAddress(stx.Wallet)
		n := tx.Nonce()
		if sp := spans[wallet]; sp == nil {
			spans[wallet] = &span{n, n}
		} else {
			sp.first, sp.last = min(sp.first, n), max(sp.last, n)
		}
		if to, spender, ok := approvalOf(tx.To(), tx.Data()); ok {
			c.mu.Lock()
			delete(c.approvals, approvalKey{token: to, spender: spender, wallet: wallet})
			c.mu.Unlock()
		}
	}
	// A fresh context: the job's may be what ended.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for wallet, sp := range spans {
		back, err := s.nonces.ReleaseFor(rctx, c.Name, wallet, sp.first, sp.last-sp.first+1, batch.OrderID)
		if err != nil {
			s.log.Warn("give back a dropped batch's nonces; they are left to the gap filler", "order_id", batch.OrderID,
				"on", c.Name, "wallet", wallet.Hex(), "nonces", sp.last-sp.first+1, "err", err)
			continue
		}
		s.log.Info("a dropped batch's nonces", "order_id", batch.OrderID, "on", c.Name, "wallet", wallet.Hex(),
			"first", sp.first, "last", sp.last, "given_back", back)
	}
}

// PublishBy is half the nonce reclaim bound after batch was signed (its
// SignedAt is when the signing began taking its nonces, before any take's
// record was written): the gap filler and the reclaim take a nonce whose
// batch is not in TXS for lost no sooner than the whole bound after it was
// taken, so a batch is either handed on well before that or not at all
// (its job's redelivery looks it up and signs again).
func (s *Signer) PublishBy(batch *wire.TxBatch) time.Time {
	return batch.SignedAt.Add(s.nonces.stale / 2)
}

// approveSelector starts the call data of ERC-20's approve.
var approveSelector = erc20ABI.Methods["approve"].ID

// approvalOf reads an ERC-20 approval's token and spender from a
// transaction's recipient and call data.
func approvalOf(to *common.Address, data []byte) (common.Address, common.Address, bool) {
	if to == nil || len(data) < 4+32 || !bytes.Equal(data[:4], approveSelector) {
		return common.Address{}, common.Address{}, false
	}
	return *to, common.BytesToAddress(data[4:36]), true
}
