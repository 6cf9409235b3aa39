package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"
	"unicode"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/callerr"
)

// revertWait bounds the look for the reasons of the reverted transactions
// of one read of statuses: a reason is a help, never worth holding a
// verdict back.
const revertWait = 3 * time.Second

// minedTx is the part of a mined transaction its replay needs.
type minedTx struct {
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to"`
	Input hexutil.Bytes   `json:"input"`
	Value *hexutil.Big    `json:"value"`
	Gas   hexutil.Uint64  `json:"gas"`
	Nonce hexutil.Uint64  `json:"nonce"`
	// GasPrice is what a mined transaction paid a unit of gas (its
	// effective price, for a transaction with a fee cap and a tip).
	GasPrice *hexutil.Big `json:"gasPrice"`
}

// revertReason says why a transaction reverted in block, as far as the
// node can tell: "out of gas" when it used all its gas, else the reason
// its replay on the state before its block, with its block's number and
// time, gives (a contract's message, a Solidity panic, a known custom
// error, or the selector of one not known: a swap mined past its deadline
// says so). A replay that succeeds says that a transaction of another
// wallet ahead of it in its block changed what it met (replayedFine). It
// is "" when the node cannot say: it takes no block overrides and the
// replay succeeds, the wallet had a transaction earlier in
// the same block (its approval: replayed without it, the call would fail
// for a reason that is not this one's), the node has no state that old,
// or the node did not answer.
func (e *EVM) revertReason(ctx context.Context, hash common.Hash, block, gasUsed uint64) string {
	var tx *minedTx
	if err := e.rpc.CallContext(ctx, &tx, "eth_getTransactionByHash", hash); err != nil || tx == nil || tx.To == nil {
		return ""
	}
	if gasUsed > 0 && gasUsed >= uint64(tx.Gas) {
		return fmt.Sprintf("out of gas (all %d used)", uint64(tx.Gas))
	}
	if block == 0 {
		return ""
	}
	var before hexutil.Uint64
	if err := e.rpc.CallContext(ctx, &before, "eth_getTransactionCount", tx.From, hexutil.EncodeUint64(block-1)); err != nil || uint64(before) != uint64(tx.Nonce) {
		return ""
	}
	var mined *struct {
		Time    hexutil.Uint64 `json:"timestamp"`
		BaseFee *hexutil.Big   `json:"baseFeePerGas"`
	}
	if err := e.rpc.CallContext(ctx, &mined, "eth_getBlockByNumber", hexutil.EncodeUint64(block), false); err != nil || mined == nil {
		return ""
	}
	call := map[string]any{"from": tx.From, "to": tx.To, "input": tx.Input, "gas": tx.Gas}
	if tx.Value != nil && tx.Value.ToInt().Sign() > 0 {
		call["value"] = tx.Value
	}
	// The state before the block, as the block itself saw the clock and
	// the fees: a deadline checked against the time of the block before
	// would pass, and a call without a price runs at a gas price and base
	// fee of 0, where a token's check of the tip would pass. A node that
	// takes no block overrides replays on the block before's own, at the
	// price alone.
	var out hexutil.Bytes
	at := map[string]any{"number": hexutil.Uint64(block), "time": mined.Time}
	plain := maps.Clone(call)
	if tx.GasPrice != nil && mined.BaseFee != nil {
		call["gasPrice"], at["baseFeePerGas"] = tx.GasPrice, mined.BaseFee
	}
	err := e.rpc.CallContext(ctx, &out, "eth_call", call, hexutil.EncodeUint64(block-1), nil, at)
	overridden := true
	if err != nil && !callerr.IsRevert(err) && ctx.Err() == nil {
		err, overridden = e.rpc.CallContext(ctx, &out, "eth_call", plain, hexutil.EncodeUint64(block-1)), false
	}
	if err == nil && overridden {
		return replayedFine
	}
	if err == nil || !callerr.IsRevert(err) {
		// Replayed at the time of the block before, a success tells
		// nothing: the swap's deadline may have passed in between.
		return ""
	}
	var derr rpc.DataError
	if errors.As(err, &derr) {
		if s, ok := derr.ErrorData().(string); ok {
			if data, herr := hexutil.Decode(s); herr == nil && len(data) >= 4 {
				return revertData(data)
			}
		}
	}
	var rerr rpc.Error
	if errors.As(err, &rerr) {
		// A call that broke off without data ("out of gas", "invalid
		// opcode"): the node's own words, past geth's prefix.
		msg := strings.TrimSpace(strings.TrimPrefix(rerr.Error(), "execution reverted"))
		return printable(strings.TrimPrefix(msg, ": "))
	}
	return ""
}

// replayedFine is the reason of a transaction whose replay before its
// block succeeds: the one difference left is what ran ahead of it in its
// block, another wallet's transaction, most often a trade that moved the
// price past its slippage.
const replayedFine = "it would have succeeded on the state before its block: a transaction ahead of it in its block " +
	"changed what it met (most often a trade that moved the price past its slippage)"

// revertData reads a revert's return data: Error(string) and Panic(uint256)
// as Solidity encodes them, a custom error of the tokens' common ones by
// name, any other by its selector.
func revertData(data []byte) string {
	if reason, err := abi.UnpackRevert(data); err == nil {
		return printable(reason)
	}
	if name, ok := knownErrors[[4]byte(data[:4])]; ok {
		return name
	}
	return "custom error " + hexutil.Encode(data[:4])
}

// knownErrors are the custom errors an ERC-20 built on OpenZeppelin 5
// reverts with, which a swap meets in its token's transfer: the wallet or
// pair short of tokens or allowance.
var knownErrors = func() map[[4]byte]string {
	m := map[[4]byte]string{}
	for _, sig := range []string{
		"ERC20InsufficientBalance(address,uint256,uint256)", "ERC20InsufficientAllowance(address,uint256,uint256)",
		"ERC20InvalidSender(address)", "ERC20InvalidReceiver(address)", "ERC20InvalidApprover(address)",
		"ERC20InvalidSpender(address)",
	} {
		m[[4]byte(crypto.Keccak256([]byte(sig))[:4])] = sig[:strings.IndexByte(sig, '(')]
	}
	return m
}()

// printable is a reason a contract chose, fit to show: each run of
// characters that do not print one space, at most 160 characters. A
// token's contract may revert with anything.
func printable(s string) string {
	const most = 160
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) {
			space = n > 0
			continue
		}
		if space {
			space = false
			if n++; n > most {
				break
			}
			b.WriteByte(' ')
		}
		if n++; n > most {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// revertReasons adds to the reverted transactions' statuses why they
// reverted, as far as the node tells within revertWait.
func (e *EVM) revertReasons(ctx context.Context, out []Status, hashes []common.Hash, recs []*receipt) {
	ctx, cancel := context.WithTimeout(ctx, revertWait)
	defer cancel()
	for i, r := range recs {
		if out[i].State == "" || out[i].Err != revertedErr || r == nil {
			continue
		}
		if reason := e.revertReason(ctx, hashes[i], out[i].Slot, uint64(r.GasUsed)); reason != "" {
			out[i].Err = revertedErr + ": " + reason
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// revertedErr is a reverted transaction's error, its reason after it.
const revertedErr = "execution reverted"
