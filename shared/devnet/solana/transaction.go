package solana

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	bin "github.com/gagliardetto/binary"
	sol "github.com/gagliardetto/solana-go"
)

// maxTransactionSize is the packet limit of the real cluster.
const maxTransactionSize = 1232

// parsedTx is a decoded, sanitized and (optionally) signature-checked
// transaction. Everything in it is computed outside the chain lock.
type parsedTx struct {
	raw      []byte
	tx       *sol.Transaction
	msgBytes []byte
	keys     []sol.PublicKey
	signer   []bool
	writable []bool
	budget   computeBudget
	budgetEr *txError
	fee      uint64
}

func (p *parsedTx) sig() sol.Signature { return p.tx.Signatures[0] }

// errMalformed is a transaction that could not be decoded or sanitized; the
// RPC answers it with -32602 like a validator.
type errMalformed struct{ msg string }

func (e *errMalformed) Error() string { return e.msg }

// errSignature is a transaction whose signatures do not verify.
var errSignature = errors.New("Transaction signature verification failure")

// parseTransaction decodes wire bytes and sanitizes the message.
func (c *Chain) parseTransaction(raw []byte, verify bool) (*parsedTx, error) {
	if len(raw) > maxTransactionSize {
		return nil, &errMalformed{fmt.Sprintf("base64 encoded solana_transaction::versioned::VersionedTransaction too large: %d bytes (max: encoded/raw %d/%d)", len(raw), 1644, maxTransactionSize)}
	}
	dec := bin.NewBinDecoder(raw)
	tx, err := sol.TransactionFromDecoder(dec)
	if err != nil {
		return nil, &errMalformed{"failed to deserialize solana_transaction::versioned::VersionedTransaction: " + err.Error()}
	}
	if dec.Remaining() != 0 {
		return nil, &errMalformed{"failed to deserialize solana_transaction::versioned::VersionedTransaction: trailing bytes"}
	}
	// The message is everything after the signature list.
	n, off := 0, 0
	for shift := 0; ; shift += 7 {
		b := raw[off]
		off++
		n |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			break
		}
	}
	msgBytes := raw[off+64*n:]
	m := &tx.Message
	h := m.Header
	nk := len(m.AccountKeys)
	sanitize := &errMalformed{"invalid transaction: Transaction failed to sanitize accounts offsets correctly"}
	switch {
	case h.NumRequiredSignatures == 0, int(h.NumRequiredSignatures) != len(tx.Signatures),
		int(h.NumRequiredSignatures)+int(h.NumReadonlyUnsignedAccounts) > nk,
		h.NumReadonlySignedAccounts >= h.NumRequiredSignatures:
		return nil, sanitize
	}
	if len(m.AddressTableLookups) > 0 {
		return nil, &errMalformed{"invalid transaction: Transaction loads an address table account that doesn't exist"}
	}
	seen := make(map[sol.PublicKey]struct{}, nk)
	for _, k := range m.AccountKeys {
		if _, dup := seen[k]; dup {
			return nil, &errMalformed{"invalid transaction: Account loaded twice"}
		}
		seen[k] = struct{}{}
	}
	for _, ci := range m.Instructions {
		if int(ci.ProgramIDIndex) >= nk || ci.ProgramIDIndex == 0 {
			return nil, sanitize
		}
		for _, a := range ci.Accounts {
			if int(a) >= nk {
				return nil, sanitize
			}
		}
	}
	p := &parsedTx{raw: raw, tx: tx, msgBytes: msgBytes, keys: m.AccountKeys}
	p.signer = make([]bool, nk)
	p.writable = make([]bool, nk)
	ns := int(h.NumRequiredSignatures)
	for i := 0; i < nk; i++ {
		if i < ns {
			p.signer[i] = true
			p.writable[i] = i < ns-int(h.NumReadonlySignedAccounts)
		} else {
			p.writable[i] = i < nk-int(h.NumReadonlyUnsignedAccounts)
		}
	}
	// Program ids invoked at the top level are never write-locked.
	for _, ci := range m.Instructions {
		p.writable[ci.ProgramIDIndex] = false
	}
	if verify {
		for i := 0; i < ns; i++ {
			if !ed25519.Verify(p.keys[i][:], msgBytes, tx.Signatures[i][:]) {
				return nil, errSignature
			}
		}
	}
	p.budget, p.budgetEr = parseComputeBudget(p.keys, m)
	p.fee = uint64(ns)*c.cfg.LamportsPerSignature + p.budget.priorityFee()
	return p, nil
}

// txRecord is a transaction that landed, with what getTransaction shows.
type txRecord struct {
	p         *parsedTx
	slot      uint64
	blockTime int64
	err       *txError
	fee       uint64
	pre, post []uint64
	preTok    []tokenBalance
	postTok   []tokenBalance
	logs      []string
	inner     []innerInstruction
	units     uint64
}

// tokenBalance is one entry of pre/postTokenBalances.
type tokenBalance struct {
	index    int
	mint     sol.PublicKey
	owner    sol.PublicKey
	program  sol.PublicKey
	amount   uint64
	decimals uint8
}

// execResult is the outcome of executing a transaction.
type execResult struct {
	rec    *txRecord
	err    *txError
	logs   []string
	units  uint64
	landed bool
	// notLandable is set for errors that stop a transaction before it can be
	// charged (blockhash, duplicate, fee payer); it never lands.
	notLandable bool
}

type execMode int

const (
	modePreflight     execMode = iota // land only on success
	modeSkipPreflight                 // land even a failed execution (fee charged)
	modeSimulate                      // never land
)

// process executes p under the chain lock.
func (c *Chain) process(p *parsedTx, mode execMode, replaceBlockhash bool) execResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.processLocked(p, mode, replaceBlockhash)
}

func (c *Chain) processLocked(p *parsedTx, mode execMode, replaceBlockhash bool) execResult {
	sig := p.sig()
	if mode != modeSimulate {
		if _, dup := c.txs[sig]; dup {
			return execResult{err: newTxError("AlreadyProcessed"), notLandable: true}
		}
		if _, dup := c.sigs[sig]; dup {
			return execResult{err: newTxError("AlreadyProcessed"), notLandable: true}
		}
	}
	if !replaceBlockhash && !c.blockhashValidLocked(p.tx.Message.RecentBlockhash) {
		return execResult{err: newTxError("BlockhashNotFound"), notLandable: true}
	}
	if p.budgetEr != nil {
		return execResult{err: p.budgetEr, notLandable: true}
	}
	payer := c.accounts[p.keys[0]]
	if payer == nil || payer.Lamports == 0 {
		return execResult{err: newTxError("AccountNotFound"), notLandable: true}
	}
	if payer.Owner != systemProgramID || len(payer.Data) > 0 {
		return execResult{err: newTxError("InvalidAccountForFee"), notLandable: true}
	}
	if payer.Lamports < p.fee {
		return execResult{err: newTxError("InsufficientFundsForFee"), notLandable: true}
	}
	if !rentOK(payer.Lamports-p.fee, 0) {
		return execResult{err: &txError{name: "InsufficientFundsForRent", index: 0}, notLandable: true}
	}
	for _, ci := range p.tx.Message.Instructions {
		pa := c.accounts[p.keys[ci.ProgramIDIndex]]
		if pa == nil {
			return execResult{err: newTxError("ProgramAccountNotFound"), notLandable: true}
		}
		if !pa.Executable {
			return execResult{err: newTxError("InvalidProgramForExecution"), notLandable: true}
		}
	}

	nk := len(p.keys)
	tx := &txContext{
		chain:    c,
		keys:     p.keys,
		accts:    make([]*Account, nk),
		signer:   p.signer,
		writable: p.writable,
		cuLimit:  p.budget.limit,
		top:      p.tx.Message.Instructions,
		slot:     c.slot,
		unixTime: time.Now().Unix(),
	}
	pre := make([]uint64, nk)
	preLen := make([]int, nk)
	for i, k := range p.keys {
		if a := c.accounts[k]; a != nil {
			tx.accts[i] = a.clone()
			pre[i] = a.Lamports
			preLen[i] = len(a.Data)
		} else {
			tx.accts[i] = &Account{Owner: systemProgramID}
		}
	}
	preTok := c.tokenBalancesLocked(p.keys, tx.accts, nil)
	tx.accts[0].Lamports -= p.fee

	var execErr *txError
	for i, ci := range p.tx.Message.Instructions {
		tx.curTop = i
		ic := &instrCtx{
			tx:       tx,
			program:  p.keys[ci.ProgramIDIndex],
			idx:      make([]int, len(ci.Accounts)),
			signer:   make([]bool, len(ci.Accounts)),
			writable: make([]bool, len(ci.Accounts)),
			data:     ci.Data,
			depth:    1,
		}
		for j, a := range ci.Accounts {
			ic.idx[j] = int(a)
			ic.signer[j] = p.signer[a]
			ic.writable[j] = p.writable[a]
		}
		if err := tx.execute(ic); err != nil {
			execErr = instructionError(i, err)
			break
		}
	}
	if execErr == nil {
		for i := range p.keys {
			if !p.writable[i] {
				continue
			}
			a := tx.accts[i]
			if !rentOK(a.Lamports, len(a.Data)) && rentOK(pre[i], preLen[i]) {
				execErr = &txError{name: "InsufficientFundsForRent", index: i}
				break
			}
		}
	}

	res := execResult{err: execErr, logs: tx.logs, units: tx.cuUsed}
	if mode == modeSimulate || (execErr != nil && mode == modePreflight) {
		return res
	}

	// Land the transaction: commit every writable account on success, only
	// the fee on failure.
	post := make([]uint64, nk)
	var postTok []tokenBalance
	if execErr == nil {
		for i, k := range p.keys {
			post[i] = tx.accts[i].Lamports
			if !p.writable[i] {
				continue
			}
			a := tx.accts[i]
			if a.Lamports == 0 {
				delete(c.accounts, k)
				continue
			}
			c.accounts[k] = a
		}
		postTok = c.tokenBalancesLocked(p.keys, tx.accts, nil)
	} else {
		copy(post, pre)
		post[0] = pre[0] - p.fee
		payer := c.accounts[p.keys[0]].clone()
		payer.Lamports -= p.fee
		c.accounts[p.keys[0]] = payer
		postTok = preTok
	}
	rec := &txRecord{
		p: p, slot: c.slot, blockTime: tx.unixTime, err: execErr, fee: p.fee,
		pre: pre, post: post, preTok: preTok, postTok: postTok,
		logs: tx.logs, inner: tx.inner, units: tx.cuUsed,
	}
	c.txs[p.sig()] = rec
	c.history = append(c.history, rec)
	c.landed++
	c.changes++
	c.notePrioFeeLocked(p.budget.price)
	if execErr == nil {
		c.migrations = append(c.migrations, tx.completed...)
	}
	res.rec = rec
	res.landed = true
	return res
}

// tokenBalancesLocked lists the token accounts among keys with their mint's
// decimals.
func (c *Chain) tokenBalancesLocked(keys []sol.PublicKey, accts []*Account, _ []int) []tokenBalance {
	var out []tokenBalance
	for i, a := range accts {
		if !isTokenProgram(a.Owner) || !validTokenAccountData(a.Owner, a.Data) || tokAccState(a.Data) == accountStateUninitialized {
			continue
		}
		mint := tokAccMint(a.Data)
		var dec uint8
		if m := c.mintForDecimals(keys, accts, mint); m != nil && len(m.Data) >= mintLen {
			dec = mintDecimals(m.Data)
		}
		out = append(out, tokenBalance{index: i, mint: mint, owner: tokAccOwner(a.Data), program: a.Owner, amount: tokAccAmount(a.Data), decimals: dec})
	}
	return out
}

// mintForDecimals finds a mint among the transaction's working accounts
// first (it may have been created by it), then in the ledger.
func (c *Chain) mintForDecimals(keys []sol.PublicKey, accts []*Account, mint sol.PublicKey) *Account {
	for i, k := range keys {
		if k == mint {
			return accts[i]
		}
	}
	return c.accounts[mint]
}

// prioFeeSlots is how many recent slots getRecentPrioritizationFees covers.
const prioFeeSlots = 150

func (c *Chain) notePrioFeeLocked(price uint64) {
	n := len(c.prioFees)
	if n == 0 || c.prioFees[n-1].slot != c.slot {
		c.prioFees = append(c.prioFees, slotPrioFee{slot: c.slot, min: price, seen: true})
		if len(c.prioFees) > prioFeeSlots {
			c.prioFees = c.prioFees[len(c.prioFees)-prioFeeSlots:]
		}
		return
	}
	if price < c.prioFees[n-1].min {
		c.prioFees[n-1].min = price
	}
}

// trimHistoryLocked forgets the oldest transactions beyond HistoryLimit.
// One whose blockhash has not expired yet keeps its status (sigs) until it
// does, so that a replay is still refused and getSignatureStatuses still
// answers: a chain taking thousands of transactions a second would
// otherwise hold a minute of them whole.
func (c *Chain) trimHistoryLocked() {
	drop := 0
	for len(c.history)-drop > c.cfg.HistoryLimit {
		r := c.history[drop]
		sig := r.p.sig()
		if r.slot+c.cfg.BlockhashValidSlots >= c.slot {
			if c.sigs == nil {
				c.sigs = make(map[sol.Signature]sigStatus)
			}
			c.sigs[sig] = sigStatus{slot: r.slot, err: r.err}
		}
		delete(c.txs, sig)
		drop++
	}
	if drop > 0 {
		// Cleared for the collector and cut off in place: copying the rest
		// would cost the whole history, under the lock, on every slot once
		// it is full. An append that outgrows the array moves only the rest.
		clear(c.history[:drop])
		c.history = c.history[drop:]
	}
	for sig, s := range c.sigs {
		if s.slot+c.cfg.BlockhashValidSlots < c.slot {
			delete(c.sigs, sig)
		}
	}
}

// submit parses, verifies and executes a transaction the way sendTransaction
// does. It returns the signature, and for a transaction refused by preflight
// the error with its logs.
func (c *Chain) submit(raw []byte, skipPreflight bool) (sol.Signature, execResult, error) {
	p, err := c.parseTransaction(raw, true)
	if err != nil {
		return sol.Signature{}, execResult{}, err
	}
	mode := modePreflight
	if skipPreflight {
		mode = modeSkipPreflight
	}
	return p.sig(), c.process(p, mode, false), nil
}

// SendTransaction submits a signed transaction as sendTransaction with
// preflight does, and returns its signature. A transaction that would fail
// is refused with an error naming the transaction error and its logs.
func (c *Chain) SendTransaction(tx *sol.Transaction) (sol.Signature, error) {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return sol.Signature{}, fmt.Errorf("devnet solana: encode transaction: %w", err)
	}
	sig, res, err := c.submit(raw, false)
	if err != nil {
		return sol.Signature{}, fmt.Errorf("devnet solana: send transaction: %w", err)
	}
	if res.err != nil {
		return sig, &TransactionError{Err: res.err.Error(), Logs: res.logs, value: res.err}
	}
	return sig, nil
}

// TransactionError is a transaction refused by preflight or executed with
// an error: the runtime's message (for example "Error processing
// Instruction 2: custom program error: 0x1772") and the program logs.
type TransactionError struct {
	Err   string
	Logs  []string
	value *txError
}

// Error returns the runtime message.
func (e *TransactionError) Error() string { return "devnet solana: transaction failed: " + e.Err }

// CustomCode returns the custom program error code when the failure is an
// InstructionError with a Custom code.
func (e *TransactionError) CustomCode() (uint32, bool) {
	if e.value != nil && e.value.instr != nil && e.value.instr.name == "Custom" {
		return e.value.instr.code, true
	}
	return 0, false
}
