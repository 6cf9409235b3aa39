package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// ledger is what reconciliation reads from a chain: solanaLedger and
// evmLedger implement it over the chains' JSON-RPC.
type ledger interface {
	// Sent returns every transaction on chain paid for by one of wallets,
	// by signature (transaction hash on EVM).
	Sent(ctx context.Context, wallets []string) (map[string]onChain, error)
	// Landed returns, for each signature that is on chain, its record;
	// signatures not on chain are absent.
	Landed(ctx context.Context, sigs []string) (map[string]onChain, error)
	// Count is the chain's own count of landed transactions.
	Count(ctx context.Context) (uint64, error)
}

// onChain is one landed transaction.
type onChain struct {
	Signature string
	Payer     string
	// Failed is true when it landed with an error: fee paid, no trade.
	Failed bool
	// Chain is the chain it landed on.
	Chain string
	// Aux marks a transaction of an order that is not its trade: an ERC-20
	// approval sent before an EVM sell.
	Aux bool
	// GapFill marks an EVM wallet's transfer of nothing to itself, which
	// the worker sends on a nonce that an order's transaction left unused
	// (signed, then never sent) and that held the wallet's later ones
	// back: no order's, no trade.
	GapFill bool
	// Cosigners are the transaction's signers that are none of the wallets
	// the ledger was asked about. On Solana the service signs with a key
	// of its own only when it launches a token: the new mint signs its
	// create, and nothing else.
	Cosigners []string
}

// solanaLedger reads the local Solana chain over its JSON-RPC.
type solanaLedger struct {
	url string
	c   *http.Client
}

func (l *solanaLedger) call(ctx context.Context, out any, method string, params ...any) error {
	return rpcCall(ctx, l.c, l.url, out, method, params...)
}

// rpcCall runs one JSON-RPC 2.0 call and decodes its result into out.
func rpcCall(ctx context.Context, c *http.Client, url string, out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	var env struct {
		Result json.RawMessage
		Error  *struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if env.Error != nil {
		return fmt.Errorf("%s: %d %s", method, env.Error.Code, env.Error.Message)
	}
	return json.Unmarshal(env.Result, out)
}

// Sent lists each wallet's history with getSignaturesForAddress and keeps
// the transactions whose fee payer (first account key, per getTransaction)
// is the wallet: its swaps, not the transfers that funded it.
func (l *solanaLedger) Sent(ctx context.Context, wallets []string) (map[string]onChain, error) {
	out := map[string]onChain{}
	ours := map[string]bool{}
	for _, w := range wallets {
		ours[w] = true
	}
	for _, w := range wallets {
		sigs, err := l.history(ctx, w)
		if err != nil {
			return nil, err
		}
		for _, sig := range sigs {
			if _, seen := out[sig]; seen {
				continue
			}
			tx, signers, err := l.transaction(ctx, sig)
			if err != nil {
				return nil, err
			}
			if tx.Payer != w {
				continue
			}
			for _, k := range signers {
				if !ours[k] {
					tx.Cosigners = append(tx.Cosigners, k)
				}
			}
			out[sig] = tx
		}
	}
	return out, nil
}

// transaction reads one transaction: its record and every account that
// signed it (the first numRequiredSignatures account keys).
func (l *solanaLedger) transaction(ctx context.Context, sig string) (onChain, []string, error) {
	var tx *struct {
		Transaction struct {
			Message struct {
				AccountKeys []string
				Header      struct{ NumRequiredSignatures int }
			}
		}
		Meta struct{ Err any }
	}
	if err := l.call(ctx, &tx, "getTransaction", sig,
		map[string]any{"encoding": "json", "maxSupportedTransactionVersion": 0}); err != nil {
		return onChain{}, nil, err
	}
	if tx == nil {
		return onChain{}, nil, fmt.Errorf("getTransaction %s: listed for an address but not found", sig)
	}
	r := onChain{Signature: sig, Failed: tx.Meta.Err != nil}
	keys := tx.Transaction.Message.AccountKeys
	if len(keys) > 0 {
		r.Payer = keys[0]
	}
	n := min(tx.Transaction.Message.Header.NumRequiredSignatures, len(keys))
	return r, keys[:n], nil
}

// history returns every signature in address's history, newest first.
func (l *solanaLedger) history(ctx context.Context, address string) ([]string, error) {
	var out []string
	before := ""
	for {
		cfg := map[string]any{"limit": 1000}
		if before != "" {
			cfg["before"] = before
		}
		var page []struct{ Signature string }
		if err := l.call(ctx, &page, "getSignaturesForAddress", address, cfg); err != nil {
			return nil, err
		}
		for _, s := range page {
			out = append(out, s.Signature)
		}
		if len(page) < 1000 {
			return out, nil
		}
		before = page[len(page)-1].Signature
	}
}

// Creates returns, for each mint, the transactions in the mint's own
// history that the mint signed and that landed without error: its creates.
// A mint's key signs only its create, and a create of an existing mint
// fails, so a mint launched once shows exactly one.
func (l *solanaLedger) Creates(ctx context.Context, mints []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, m := range mints {
		if _, done := out[m]; done {
			continue
		}
		sigs, err := l.history(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("history of mint %s: %w", m, err)
		}
		out[m] = []string{}
		for _, sig := range sigs {
			tx, signers, err := l.transaction(ctx, sig)
			if err != nil {
				return nil, err
			}
			if !tx.Failed && contains(signers, m) {
				out[m] = append(out[m], sig)
			}
		}
	}
	return out, nil
}

// Landed asks getSignatureStatuses, 256 signatures at a time, with the
// whole history searched.
func (l *solanaLedger) Landed(ctx context.Context, sigs []string) (map[string]onChain, error) {
	out := map[string]onChain{}
	for start := 0; start < len(sigs); start += 256 {
		part := sigs[start:min(start+256, len(sigs))]
		var res struct {
			Value []*struct{ Err any }
		}
		if err := l.call(ctx, &res, "getSignatureStatuses", part, map[string]any{"searchTransactionHistory": true}); err != nil {
			return nil, err
		}
		for i, v := range res.Value {
			if v != nil && i < len(part) {
				out[part[i]] = onChain{Signature: part[i], Failed: v.Err != nil}
			}
		}
	}
	return out, nil
}

// Count is getTransactionCount.
func (l *solanaLedger) Count(ctx context.Context) (uint64, error) {
	var n uint64
	err := l.call(ctx, &n, "getTransactionCount")
	return n, err
}

// evmLedger reads a local EVM chain over its JSON-RPC. The local chains
// seal a block per transaction and are small, so it reads every block.
type evmLedger struct {
	url string
	c   *http.Client
}

// approveSelector starts the input of an ERC-20 approve(address,uint256).
const approveSelector = "0x095ea7b3"

type evmTx struct {
	Hash, From, To, Value, Input string
}

// blocks returns every transaction of every block.
func (l *evmLedger) blocks(ctx context.Context) ([]evmTx, error) {
	var head string
	if err := rpcCall(ctx, l.c, l.url, &head, "eth_blockNumber"); err != nil {
		return nil, err
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(head, "0x"), 16, 64)
	if err != nil {
		return nil, fmt.Errorf("eth_blockNumber %q: %w", head, err)
	}
	var out []evmTx
	for b := uint64(0); b <= n; b++ {
		var block *struct{ Transactions []evmTx }
		if err := rpcCall(ctx, l.c, l.url, &block, "eth_getBlockByNumber", fmt.Sprintf("0x%x", b), true); err != nil {
			return nil, err
		}
		if block != nil {
			out = append(out, block.Transactions...)
		}
	}
	return out, nil
}

// receipt returns a transaction's receipt status, and false when it has
// no receipt (not on chain).
func (l *evmLedger) receipt(ctx context.Context, hash string) (failed, found bool, err error) {
	var r *struct{ Status string }
	if err := rpcCall(ctx, l.c, l.url, &r, "eth_getTransactionReceipt", hash); err != nil {
		return false, false, err
	}
	if r == nil {
		return false, false, nil
	}
	return r.Status != "0x1", true, nil
}

// Sent keeps the transactions sent from one of wallets.
func (l *evmLedger) Sent(ctx context.Context, wallets []string) (map[string]onChain, error) {
	ours := map[string]string{}
	for _, w := range wallets {
		ours[strings.ToLower(w)] = w
	}
	txs, err := l.blocks(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]onChain{}
	for _, tx := range txs {
		w, ok := ours[strings.ToLower(tx.From)]
		if !ok {
			continue
		}
		failed, _, err := l.receipt(ctx, tx.Hash)
		if err != nil {
			return nil, err
		}
		out[tx.Hash] = onChain{Signature: tx.Hash, Payer: w, Failed: failed, Aux: strings.HasPrefix(tx.Input, approveSelector),
			GapFill: strings.EqualFold(tx.To, tx.From) && (tx.Value == "0x0" || tx.Value == "0x") && (tx.Input == "0x" || tx.Input == "")}
	}
	return out, nil
}

// Landed asks eth_getTransactionReceipt for each hash.
func (l *evmLedger) Landed(ctx context.Context, hashes []string) (map[string]onChain, error) {
	out := map[string]onChain{}
	for _, h := range hashes {
		failed, found, err := l.receipt(ctx, h)
		if err != nil {
			return nil, err
		}
		if found {
			out[h] = onChain{Signature: h, Failed: failed}
		}
	}
	return out, nil
}

// Count is the number of transactions in every block.
func (l *evmLedger) Count(ctx context.Context) (uint64, error) {
	txs, err := l.blocks(ctx)
	return uint64(len(txs)), err
}
