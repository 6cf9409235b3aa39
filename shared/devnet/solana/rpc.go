package solana

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	sol "github.com/gagliardetto/solana-go"
)

// JSON-RPC error codes of the real validators.
const (
	rpcParseError           = -32700
	rpcInvalidRequest       = -32600
	rpcMethodNotFound       = -32601
	rpcInvalidParams        = -32602
	rpcInternal             = -32603
	rpcSimulationFailed     = -32002
	rpcSignatureFailure     = -32003
	rpcUnsupportedTxVersion = -32015
)

const (
	rpcAPIVersion  = "2.2.0"
	rpcFeatureSet  = 3294202862
	maxRequestBody = 50 << 20
)

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

func invalidParams(format string, a ...any) *rpcError {
	return &rpcError{Code: rpcInvalidParams, Message: fmt.Sprintf(format, a...)}
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// Handler returns the JSON-RPC 2.0 handler (single and batch requests). It
// can be mounted under any path, for example /solana.
func (c *Chain) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { c.serve(w, r, rpcMethods) })
}

// serve answers one HTTP request of JSON-RPC calls (single or batched) with
// the methods of table.
func (c *Chain) serve(w http.ResponseWriter, r *http.Request, table map[string]rpcHandler) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "Used HTTP Method is not allowed. POST or OPTIONS is required", http.StatusMethodNotAllowed)
		return
	}
	if err := c.gate(r.Context()); err != nil {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	body = bytes.TrimSpace(body)
	var out any
	if len(body) > 0 && body[0] == '[' {
		var reqs []json.RawMessage
		if err := json.Unmarshal(body, &reqs); err != nil {
			out = errorResponse(nil, &rpcError{Code: rpcParseError, Message: "Parse error"})
		} else if len(reqs) == 0 {
			out = errorResponse(nil, &rpcError{Code: rpcInvalidRequest, Message: "Invalid request"})
		} else {
			resps := make([]rpcResponse, len(reqs))
			for i, raw := range reqs {
				resps[i] = c.handleCall(raw, table)
			}
			out = resps
		}
	} else {
		out = c.handleCall(body, table)
	}
	w.Header().Set("Content-Type", "application/json")
	if r, ok := out.(rpcResponse); ok {
		if b := r.appendResult(nil); b != nil {
			if _, err := w.Write(b); err != nil {
				c.log.Debug("write rpc response", "err", err)
			}
			return
		}
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(out); err != nil {
		c.log.Debug("write rpc response", "err", err)
	}
}

func errorResponse(id json.RawMessage, e *rpcError) rpcResponse {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return rpcResponse{JSONRPC: "2.0", ID: id, Error: e}
}

// handleOne answers one call of the chain's own JSON-RPC.
func (c *Chain) handleOne(raw []byte) rpcResponse { return c.handleCall(raw, rpcMethods) }

// handleCall answers one call with the methods of table.
func (c *Chain) handleCall(raw []byte, table map[string]rpcHandler) rpcResponse {
	req, params, plain := parsePlainRequest(raw)
	if !plain {
		if err := json.Unmarshal(raw, &req); err != nil {
			return errorResponse(nil, &rpcError{Code: rpcParseError, Message: "Parse error"})
		}
		if req.JSONRPC != "2.0" || req.Method == "" {
			return errorResponse(req.ID, &rpcError{Code: rpcInvalidRequest, Message: "Invalid request"})
		}
		var perr *rpcError
		if params, perr = splitParams(req.Params); perr != nil {
			return errorResponse(req.ID, perr)
		}
	}
	h, ok := table[req.Method]
	if !ok {
		return errorResponse(req.ID, &rpcError{Code: rpcMethodNotFound, Message: "Method not found"})
	}
	c.calls.add(req.Method)
	result, rerr := h(c, params)
	if rerr != nil {
		return errorResponse(req.ID, rerr)
	}
	b, err := json.Marshal(result)
	if err != nil {
		return errorResponse(req.ID, &rpcError{Code: rpcInternal, Message: "Internal error: " + err.Error()})
	}
	return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: b}
}

// rpcParams are positional parameters; a single object parameter (allowed
// by JSON-RPC 2.0 for the devnet_ methods) becomes the only element.
type rpcParams []json.RawMessage

func splitParams(raw json.RawMessage) (rpcParams, *rpcError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '{' {
		return rpcParams{raw}, nil
	}
	if raw[0] == '[' {
		if p, ok := splitArray(raw); ok {
			return p, nil
		}
	}
	var p rpcParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, invalidParams("Invalid params: %v", err)
	}
	return p, nil
}

func (p rpcParams) has(i int) bool { return i < len(p) && string(p[i]) != "null" }

func (p rpcParams) decode(i int, v any) *rpcError {
	if !p.has(i) {
		return nil
	}
	// Strings and lists of strings (keys, signatures, transactions) are
	// most of what is asked; those that need no unescaping are taken as
	// they are, which is what the decoder would make of them.
	switch v := v.(type) {
	case *string:
		if s, ok := plainString(p[i]); ok {
			*v = s
			return nil
		}
	case *[]string:
		if s, ok := plainStrings(p[i]); ok {
			*v = s
			return nil
		}
	}
	if err := json.Unmarshal(p[i], v); err != nil {
		return invalidParams("Invalid params: %v", err)
	}
	return nil
}

func (p rpcParams) pubkey(i int) (sol.PublicKey, *rpcError) {
	var s string
	if !p.has(i) {
		return sol.PublicKey{}, invalidParams("Invalid params: missing pubkey")
	}
	if err := p.decode(i, &s); err != nil {
		return sol.PublicKey{}, err
	}
	k, err := sol.PublicKeyFromBase58(s)
	if err != nil {
		return sol.PublicKey{}, invalidParams("Invalid param: Invalid")
	}
	return k, nil
}

type rpcContext struct {
	Slot       uint64 `json:"slot"`
	APIVersion string `json:"apiVersion"`
}

type withContext struct {
	Context rpcContext `json:"context"`
	Value   any        `json:"value"`
}

func (c *Chain) ctxLocked() rpcContext { return rpcContext{Slot: c.slot, APIVersion: rpcAPIVersion} }

type rpcHandler func(c *Chain, p rpcParams) (any, *rpcError)

var rpcMethods map[string]rpcHandler

func init() {
	rpcMethods = map[string]rpcHandler{
		"getHealth":                         func(*Chain, rpcParams) (any, *rpcError) { return "ok", nil },
		"getVersion":                        rpcGetVersion,
		"getSlot":                           rpcGetSlot,
		"getBlockHeight":                    rpcGetSlot,
		"getEpochInfo":                      rpcGetEpochInfo,
		"getGenesisHash":                    rpcGetGenesisHash,
		"getLatestBlockhash":                rpcGetLatestBlockhash,
		"isBlockhashValid":                  rpcIsBlockhashValid,
		"getBalance":                        rpcGetBalance,
		"getAccountInfo":                    rpcGetAccountInfo,
		"getMultipleAccounts":               rpcGetMultipleAccounts,
		"getProgramAccounts":                rpcGetProgramAccounts,
		"getTokenAccountBalance":            rpcGetTokenAccountBalance,
		"getTokenAccountsByOwner":           rpcGetTokenAccountsByOwner,
		"getTokenSupply":                    rpcGetTokenSupply,
		"getMinimumBalanceForRentExemption": rpcGetMinimumBalance,
		"requestAirdrop":                    rpcRequestAirdrop,
		"sendTransaction":                   rpcSendTransaction,
		"simulateTransaction":               rpcSimulateTransaction,
		"getSignatureStatuses":              rpcGetSignatureStatuses,
		"getTransaction":                    rpcGetTransaction,
		"getSignaturesForAddress":           rpcGetSignaturesForAddress,
		"getTransactionCount":               rpcGetTransactionCount,
		"getRecentPrioritizationFees":       rpcGetRecentPrioritizationFees,
		"getFeeForMessage":                  rpcGetFeeForMessage,
		"devnet_createPumpCoin":             rpcDevnetCreatePumpCoin,
		"devnet_createLaunchCoin":           rpcDevnetCreateLaunchCoin,
		"devnet_createMint":                 rpcDevnetCreateMint,
		"devnet_mintTo":                     rpcDevnetMintTo,
		"devnet_fund":                       rpcDevnetFund,
		"devnet_expireBlockhashes":          rpcDevnetExpireBlockhashes,
		"devnet_createPumpSwapCoin":         rpcDevnetCreatePumpSwapCoin,
		"devnet_graduate":                   rpcDevnetGraduate,
		"devnet_quoteAssets":                rpcDevnetQuoteAssets,
		"devnet_upgradeProgram":             rpcDevnetUpgradeProgram,
	}
}

func rpcGetVersion(*Chain, rpcParams) (any, *rpcError) {
	return map[string]any{"solana-core": rpcAPIVersion, "feature-set": rpcFeatureSet}, nil
}

func rpcGetSlot(c *Chain, _ rpcParams) (any, *rpcError) { return c.Slot(), nil }

func rpcGetEpochInfo(c *Chain, _ rpcParams) (any, *rpcError) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	const slotsInEpoch = 432_000
	return map[string]any{
		"absoluteSlot": c.slot, "blockHeight": c.slot, "epoch": c.slot / slotsInEpoch,
		"slotIndex": c.slot % slotsInEpoch, "slotsInEpoch": slotsInEpoch, "transactionCount": c.landed,
	}, nil
}

func rpcGetGenesisHash(c *Chain, _ rpcParams) (any, *rpcError) {
	h := sol.HashFromBytes(c.deriveKey("genesis").PublicKey().Bytes())
	return h.String(), nil
}

// latestBlockhash is the value of getLatestBlockhash.
type latestBlockhash struct {
	Blockhash            string `json:"blockhash"`
	LastValidBlockHeight uint64 `json:"lastValidBlockHeight"`
}

func rpcGetLatestBlockhash(c *Chain, _ rpcParams) (any, *rpcError) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return withContext{c.ctxLocked(), latestBlockhash{c.latest.String(), c.slot + c.cfg.BlockhashValidSlots}}, nil
}

func rpcIsBlockhashValid(c *Chain, p rpcParams) (any, *rpcError) {
	var s string
	if err := p.decode(0, &s); err != nil {
		return nil, err
	}
	h, err := sol.HashFromBase58(s)
	if err != nil {
		return nil, invalidParams("Invalid param: %v", err)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return withContext{c.ctxLocked(), c.blockhashValidLocked(h)}, nil
}

func rpcGetBalance(c *Chain, p rpcParams) (any, *rpcError) {
	k, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var lam uint64
	if a := c.accounts[k]; a != nil {
		lam = a.Lamports
	}
	return withContext{c.ctxLocked(), lam}, nil
}

type accountConfig struct {
	Encoding string `json:"encoding"`
}

type rpcAccount struct {
	Data       []string `json:"data"`
	Executable bool     `json:"executable"`
	Lamports   uint64   `json:"lamports"`
	Owner      string   `json:"owner"`
	RentEpoch  uint64   `json:"rentEpoch"`
	Space      int      `json:"space"`
}

func (c *Chain) encodeAccount(a *Account, encoding string) (*rpcAccount, *rpcError) {
	if a == nil {
		return nil, nil
	}
	out := &rpcAccount{Executable: a.Executable, Lamports: a.Lamports, Owner: c.ownerString(a.Owner), RentEpoch: ^uint64(0), Space: len(a.Data)}
	switch encoding {
	case "", "base64", "jsonParsed":
		out.Data = []string{base64.StdEncoding.EncodeToString(a.Data), "base64"}
	case "base58", "binary":
		if len(a.Data) > 128 {
			return nil, invalidParams("Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.")
		}
		out.Data = []string{b58enc(a.Data), "base58"}
	default:
		return nil, invalidParams("Invalid params: unsupported encoding %q (use base64)", encoding)
	}
	return out, nil
}

// ownerString returns an owner's base58 address. Owners are nearly always
// programs of the chain, whose address is kept spelt out.
func (c *Chain) ownerString(owner sol.PublicKey) string {
	if p, ok := c.programs[owner]; ok && p.id != "" {
		return p.id
	}
	return owner.String()
}

func rpcGetAccountInfo(c *Chain, p rpcParams) (any, *rpcError) {
	k, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	var cfg accountConfig
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	// Accounts are never changed in place, so one is encoded after the read
	// lock is let go, which a transaction waits on.
	c.mu.RLock()
	a, ctx := c.accounts[k], c.ctxLocked()
	c.mu.RUnlock()
	acc, rerr := c.encodeAccount(a, cfg.Encoding)
	if rerr != nil {
		return nil, rerr
	}
	return withContext{ctx, acc}, nil
}

func rpcGetMultipleAccounts(c *Chain, p rpcParams) (any, *rpcError) {
	var keys []string
	if err := p.decode(0, &keys); err != nil {
		return nil, err
	}
	if len(keys) > 100 {
		return nil, invalidParams("Too many inputs provided; max 100")
	}
	var cfg accountConfig
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	// Keys are decoded before the read lock and accounts encoded after it
	// (they are never changed in place), so that a transaction waiting for
	// the lock waits for the lookups alone. The answer is still the error
	// of the first key that fails, whether its address does not decode or
	// its account does not encode: the keys before the first bad address
	// are read, then encoded in order.
	pubkeys := make([]sol.PublicKey, 0, len(keys))
	for _, s := range keys {
		k, err := sol.PublicKeyFromBase58(s)
		if err != nil {
			break
		}
		pubkeys = append(pubkeys, k)
	}
	accts := make([]*Account, len(pubkeys))
	c.mu.RLock()
	for i, k := range pubkeys {
		accts[i] = c.accounts[k]
	}
	ctx := c.ctxLocked()
	c.mu.RUnlock()
	out := make([]*rpcAccount, len(keys))
	for i, a := range accts {
		acc, rerr := c.encodeAccount(a, cfg.Encoding)
		if rerr != nil {
			return nil, rerr
		}
		out[i] = acc
	}
	if len(pubkeys) < len(keys) {
		return nil, invalidParams("Invalid param: Invalid")
	}
	return withContext{ctx, out}, nil
}

// uiAmount renders an amount with its decimals as a JSON number and a string,
// without going through floating point.
func uiAmount(amount uint64, decimals uint8) map[string]any {
	s := strconv.FormatUint(amount, 10)
	if decimals > 0 {
		if len(s) <= int(decimals) {
			s = strings.Repeat("0", int(decimals)-len(s)+1) + s
		}
		s = s[:len(s)-int(decimals)] + "." + s[len(s)-int(decimals):]
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return map[string]any{
		"amount":         strconv.FormatUint(amount, 10),
		"decimals":       decimals,
		"uiAmount":       json.Number(s),
		"uiAmountString": s,
	}
}

func rpcGetTokenAccountBalance(c *Chain, p rpcParams) (any, *rpcError) {
	k, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	a := c.accounts[k]
	if a == nil || !isTokenProgram(a.Owner) || !validTokenAccountData(a.Owner, a.Data) {
		return nil, invalidParams("Invalid param: could not find account")
	}
	var dec uint8
	if m := c.accounts[tokAccMint(a.Data)]; m != nil && len(m.Data) >= mintLen {
		dec = mintDecimals(m.Data)
	}
	return withContext{c.ctxLocked(), uiAmount(tokAccAmount(a.Data), dec)}, nil
}

func rpcGetTokenSupply(c *Chain, p rpcParams) (any, *rpcError) {
	k, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	a := c.accounts[k]
	if a == nil || !isTokenProgram(a.Owner) || !validMintData(a.Owner, a.Data) {
		return nil, invalidParams("Invalid param: not a Token mint")
	}
	return withContext{c.ctxLocked(), uiAmount(mintSupply(a.Data), mintDecimals(a.Data))}, nil
}

func rpcGetTokenAccountsByOwner(c *Chain, p rpcParams) (any, *rpcError) {
	owner, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	var filter struct {
		Mint      string `json:"mint"`
		ProgramID string `json:"programId"`
	}
	if err := p.decode(1, &filter); err != nil {
		return nil, err
	}
	var mint, prog sol.PublicKey
	var e error
	switch {
	case filter.Mint != "":
		mint, e = sol.PublicKeyFromBase58(filter.Mint)
	case filter.ProgramID != "":
		prog, e = sol.PublicKeyFromBase58(filter.ProgramID)
		if e == nil && !isTokenProgram(prog) {
			return nil, invalidParams("Invalid param: unrecognized Token program id")
		}
	default:
		return nil, invalidParams("Invalid params: expected {mint} or {programId}")
	}
	if e != nil {
		return nil, invalidParams("Invalid param: Invalid")
	}
	var cfg accountConfig
	if err := p.decode(2, &cfg); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	type keyed struct {
		Pubkey  string      `json:"pubkey"`
		Account *rpcAccount `json:"account"`
	}
	out := []keyed{}
	for k, a := range c.accounts {
		if !isTokenProgram(a.Owner) || !validTokenAccountData(a.Owner, a.Data) || tokAccState(a.Data) == accountStateUninitialized {
			continue
		}
		if tokAccOwner(a.Data) != owner || (!mint.IsZero() && tokAccMint(a.Data) != mint) || (!prog.IsZero() && a.Owner != prog) {
			continue
		}
		acc, rerr := c.encodeAccount(a, cfg.Encoding)
		if rerr != nil {
			return nil, rerr
		}
		out = append(out, keyed{k.String(), acc})
	}
	return withContext{c.ctxLocked(), out}, nil
}

func rpcGetMinimumBalance(_ *Chain, p rpcParams) (any, *rpcError) {
	var n int
	if err := p.decode(0, &n); err != nil {
		return nil, err
	}
	if n < 0 || n > maxAccountDataLen {
		return nil, invalidParams("Invalid params: data length out of range")
	}
	return MinimumBalanceForRentExemption(n), nil
}

func rpcRequestAirdrop(c *Chain, p rpcParams) (any, *rpcError) {
	k, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	var lamports uint64
	if err := p.decode(1, &lamports); err != nil {
		return nil, err
	}
	sig, aerr := c.airdropTx(k, lamports)
	if aerr != nil {
		return nil, &rpcError{Code: rpcInternal, Message: "airdrop request failed: " + aerr.Error()}
	}
	return sig.String(), nil
}

type sendConfig struct {
	Encoding               string `json:"encoding"`
	SkipPreflight          bool   `json:"skipPreflight"`
	SigVerify              bool   `json:"sigVerify"`
	ReplaceRecentBlockhash bool   `json:"replaceRecentBlockhash"`
}

func decodeWire(s, encoding string) ([]byte, *rpcError) {
	switch encoding {
	case "", "base58":
		if len(s) > 1683 {
			return nil, invalidParams("base58 encoded solana_transaction::versioned::VersionedTransaction too large: %d bytes (max: encoded/raw 1683/%d)", len(s), maxTransactionSize)
		}
		b, err := b58dec(s)
		if err != nil {
			return nil, invalidParams("invalid base58 encoding: %v", err)
		}
		return b, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, invalidParams("invalid base64 encoding: %v", err)
		}
		return b, nil
	}
	return nil, invalidParams("unsupported encoding: %s. Supported encodings: base58, base64", encoding)
}

// simulationFailed is the -32002 error of a refused preflight.
func simulationFailed(res execResult) *rpcError {
	logs := res.logs
	if logs == nil {
		logs = []string{}
	}
	return &rpcError{
		Code:    rpcSimulationFailed,
		Message: "Transaction simulation failed: " + res.err.Error(),
		Data: map[string]any{
			"accounts": nil, "err": res.err, "innerInstructions": nil, "logs": logs,
			"replacementBlockhash": nil, "returnData": nil, "unitsConsumed": res.units,
		},
	}
}

func rpcSendTransaction(c *Chain, p rpcParams) (any, *rpcError) {
	var s string
	if err := p.decode(0, &s); err != nil {
		return nil, err
	}
	var cfg sendConfig
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	raw, rerr := decodeWire(s, cfg.Encoding)
	if rerr != nil {
		return nil, rerr
	}
	sig, res, err := c.submit(raw, cfg.SkipPreflight)
	if err != nil {
		return nil, parseFailure(err)
	}
	if res.err != nil && !cfg.SkipPreflight {
		return nil, simulationFailed(res)
	}
	// With skipPreflight the node accepts the transaction; one that cannot
	// pay its fee or has a stale blockhash simply never lands.
	return sig.String(), nil
}

func parseFailure(err error) *rpcError {
	var m *errMalformed
	switch {
	case errors.As(err, &m):
		return &rpcError{Code: rpcInvalidParams, Message: m.msg}
	case errors.Is(err, errSignature):
		return &rpcError{Code: rpcSignatureFailure, Message: errSignature.Error()}
	}
	return &rpcError{Code: rpcInternal, Message: err.Error()}
}

func rpcSimulateTransaction(c *Chain, p rpcParams) (any, *rpcError) {
	var s string
	if err := p.decode(0, &s); err != nil {
		return nil, err
	}
	var cfg sendConfig
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	if cfg.SigVerify && cfg.ReplaceRecentBlockhash {
		return nil, invalidParams("sigVerify may not be used with replaceRecentBlockhash")
	}
	raw, rerr := decodeWire(s, cfg.Encoding)
	if rerr != nil {
		return nil, rerr
	}
	pt, err := c.parseTransaction(raw, cfg.SigVerify)
	if err != nil {
		return nil, parseFailure(err)
	}
	c.mu.Lock()
	res := c.processLocked(pt, modeSimulate, cfg.ReplaceRecentBlockhash)
	ctx := c.ctxLocked()
	c.mu.Unlock()
	logs := res.logs
	if logs == nil {
		logs = []string{}
	}
	var errVal any
	if res.err != nil {
		errVal = res.err
	}
	return withContext{ctx, map[string]any{
		"err": errVal, "logs": logs, "accounts": nil, "unitsConsumed": res.units,
		"returnData": nil, "innerInstructions": nil, "replacementBlockhash": nil,
	}}, nil
}

func parseSignature(s string) (sol.Signature, *rpcError) {
	sig, err := sol.SignatureFromBase58(s)
	if err != nil {
		return sol.Signature{}, invalidParams("Invalid param: Invalid")
	}
	return sig, nil
}

// txStatus is a transaction's entry of getSignatureStatuses. Its fields are
// in the order of their names, as a map's keys are written, so that it is
// written as the map it replaces without sorting keys on every status.
type txStatus struct {
	ConfirmationStatus string `json:"confirmationStatus"`
	Confirmations      any    `json:"confirmations"`
	Err                any    `json:"err"`
	Slot               uint64 `json:"slot"`
	Status             any    `json:"status"`
}

// statusLocked renders a landed transaction's status.
func (c *Chain) statusLocked(r *txRecord) *txStatus { return c.statusAtLocked(r.slot, r.err) }

// statusAtLocked renders the status of a transaction that landed in slot
// with txErr (nil for success).
func (c *Chain) statusAtLocked(slot uint64, txErr *txError) *txStatus {
	depth := c.slot - slot
	var conf any = depth
	status := "confirmed"
	if depth >= c.cfg.FinalizedDepth {
		conf, status = nil, "finalized"
	}
	var errVal any
	st := map[string]any{"Ok": nil}
	if txErr != nil {
		errVal = txErr
		st = map[string]any{"Err": txErr}
	}
	return &txStatus{ConfirmationStatus: status, Confirmations: conf, Err: errVal, Slot: slot, Status: st}
}

func rpcGetSignatureStatuses(c *Chain, p rpcParams) (any, *rpcError) {
	var sigs []string
	if err := p.decode(0, &sigs); err != nil {
		return nil, err
	}
	if len(sigs) > 256 {
		return nil, invalidParams("Too many inputs provided; max 256")
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]any, len(sigs))
	for i, s := range sigs {
		sig, err := parseSignature(s)
		if err != nil {
			return nil, err
		}
		if r := c.txs[sig]; r != nil {
			out[i] = c.statusLocked(r)
		} else if st, ok := c.sigs[sig]; ok {
			out[i] = c.statusAtLocked(st.slot, st.err)
		}
	}
	return withContext{c.ctxLocked(), out}, nil
}

func rpcGetTransaction(c *Chain, p rpcParams) (any, *rpcError) {
	var s string
	if err := p.decode(0, &s); err != nil {
		return nil, err
	}
	sig, rerr := parseSignature(s)
	if rerr != nil {
		return nil, rerr
	}
	var cfg struct {
		Encoding                       string `json:"encoding"`
		MaxSupportedTransactionVersion *int   `json:"maxSupportedTransactionVersion"`
	}
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.txs[sig]
	if r == nil {
		return nil, nil
	}
	versioned := r.p.tx.Message.IsVersioned()
	if versioned && cfg.MaxSupportedTransactionVersion == nil {
		return nil, &rpcError{Code: rpcUnsupportedTxVersion, Message: `Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`}
	}
	var txv any
	switch cfg.Encoding {
	case "base64":
		txv = []string{base64.StdEncoding.EncodeToString(r.p.raw), "base64"}
	case "base58":
		txv = []string{b58enc(r.p.raw), "base58"}
	case "", "json", "jsonParsed":
		txv = jsonTransaction(r)
	default:
		return nil, invalidParams("Invalid params: unsupported encoding %q", cfg.Encoding)
	}
	var version any = "legacy"
	if versioned {
		version = 0
	}
	return map[string]any{
		"slot": r.slot, "blockTime": r.blockTime, "transaction": txv, "meta": jsonMeta(r), "version": version,
	}, nil
}

func jsonTransaction(r *txRecord) map[string]any {
	m := &r.p.tx.Message
	sigs := make([]string, len(r.p.tx.Signatures))
	for i, s := range r.p.tx.Signatures {
		sigs[i] = s.String()
	}
	keys := make([]string, len(m.AccountKeys))
	for i, k := range m.AccountKeys {
		keys[i] = k.String()
	}
	ixs := make([]map[string]any, len(m.Instructions))
	for i, ci := range m.Instructions {
		accts := make([]int, len(ci.Accounts))
		for j, a := range ci.Accounts {
			accts[j] = int(a)
		}
		ixs[i] = map[string]any{"programIdIndex": ci.ProgramIDIndex, "accounts": accts, "data": b58enc(ci.Data), "stackHeight": nil}
	}
	msg := map[string]any{
		"accountKeys": keys,
		"header": map[string]any{
			"numRequiredSignatures":       m.Header.NumRequiredSignatures,
			"numReadonlySignedAccounts":   m.Header.NumReadonlySignedAccounts,
			"numReadonlyUnsignedAccounts": m.Header.NumReadonlyUnsignedAccounts,
		},
		"recentBlockhash": m.RecentBlockhash.String(),
		"instructions":    ixs,
	}
	if m.IsVersioned() {
		msg["addressTableLookups"] = []any{}
	}
	return map[string]any{"signatures": sigs, "message": msg}
}

func jsonTokenBalances(tb []tokenBalance) []map[string]any {
	out := make([]map[string]any, len(tb))
	for i, b := range tb {
		out[i] = map[string]any{
			"accountIndex": b.index, "mint": b.mint.String(), "owner": b.owner.String(),
			"programId": b.program.String(), "uiTokenAmount": uiAmount(b.amount, b.decimals),
		}
	}
	return out
}

func jsonMeta(r *txRecord) map[string]any {
	var errVal any
	st := map[string]any{"Ok": nil}
	if r.err != nil {
		errVal = r.err
		st = map[string]any{"Err": r.err}
	}
	inner := []map[string]any{}
	for _, in := range r.inner {
		n := len(inner)
		if n == 0 || inner[n-1]["index"] != in.top {
			inner = append(inner, map[string]any{"index": in.top, "instructions": []map[string]any{}})
			n++
		}
		list := inner[n-1]["instructions"].([]map[string]any)
		inner[n-1]["instructions"] = append(list, map[string]any{
			"programIdIndex": in.program, "accounts": in.accounts, "data": b58enc(in.data), "stackHeight": in.stackHeight,
		})
	}
	logs := r.logs
	if logs == nil {
		logs = []string{}
	}
	return map[string]any{
		"err": errVal, "status": st, "fee": r.fee, "preBalances": r.pre, "postBalances": r.post,
		"innerInstructions": inner, "logMessages": logs,
		"preTokenBalances": jsonTokenBalances(r.preTok), "postTokenBalances": jsonTokenBalances(r.postTok),
		"rewards": []any{}, "loadedAddresses": map[string]any{"writable": []string{}, "readonly": []string{}},
		"computeUnitsConsumed": r.units,
	}
}

func rpcGetSignaturesForAddress(c *Chain, p rpcParams) (any, *rpcError) {
	addr, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	var cfg struct {
		Limit  int    `json:"limit"`
		Before string `json:"before"`
		Until  string `json:"until"`
	}
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	if cfg.Limit <= 0 || cfg.Limit > 1000 {
		cfg.Limit = 1000
	}
	var before, until sol.Signature
	if cfg.Before != "" {
		if before, err = parseSignature(cfg.Before); err != nil {
			return nil, err
		}
	}
	if cfg.Until != "" {
		if until, err = parseSignature(cfg.Until); err != nil {
			return nil, err
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := []map[string]any{}
	started := cfg.Before == ""
	for i := len(c.history) - 1; i >= 0 && len(out) < cfg.Limit; i-- {
		r := c.history[i]
		sig := r.p.sig()
		if !started {
			started = sig == before
			continue
		}
		if cfg.Until != "" && sig == until {
			break
		}
		if !containsKey(r.p.keys, addr) {
			continue
		}
		st := c.statusLocked(r)
		out = append(out, map[string]any{
			"signature": sig.String(), "slot": r.slot, "err": st.Err, "memo": nil,
			"blockTime": r.blockTime, "confirmationStatus": st.ConfirmationStatus,
		})
	}
	return out, nil
}

func rpcGetTransactionCount(c *Chain, _ rpcParams) (any, *rpcError) { return c.LandedCount(), nil }

func rpcGetRecentPrioritizationFees(c *Chain, _ rpcParams) (any, *rpcError) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]map[string]any, 0, len(c.prioFees)+1)
	for _, f := range c.prioFees {
		out = append(out, map[string]any{"slot": f.slot, "prioritizationFee": f.min})
	}
	if len(out) == 0 {
		out = append(out, map[string]any{"slot": c.slot, "prioritizationFee": 0})
	}
	return out, nil
}

func rpcGetFeeForMessage(c *Chain, p rpcParams) (any, *rpcError) {
	var s string
	if err := p.decode(0, &s); err != nil {
		return nil, err
	}
	var m sol.Message
	if err := m.UnmarshalBase64(s); err != nil {
		return nil, invalidParams("invalid message: %v", err)
	}
	for _, ci := range m.Instructions {
		if int(ci.ProgramIDIndex) >= len(m.AccountKeys) {
			return nil, invalidParams("invalid message: program index out of range")
		}
	}
	cb, _ := parseComputeBudget(m.AccountKeys, &m)
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.blockhashValidLocked(m.RecentBlockhash) {
		return withContext{c.ctxLocked(), nil}, nil
	}
	fee := uint64(m.Header.NumRequiredSignatures)*c.cfg.LamportsPerSignature + cb.priorityFee()
	return withContext{c.ctxLocked(), fee}, nil
}
