package solana

import (
	"encoding/binary"
	"fmt"
	"strconv"

	sol "github.com/gagliardetto/solana-go"
)

// Well-known program and sysvar addresses.
var (
	systemProgramID        = sol.SystemProgramID
	computeBudgetProgramID = sol.MustPublicKeyFromBase58("ComputeBudget111111111111111111111111111111")
	tokenProgramID         = sol.TokenProgramID
	token2022ProgramID     = sol.Token2022ProgramID
	ataProgramID           = sol.SPLAssociatedTokenAccountProgramID
	memoProgramID          = sol.MustPublicKeyFromBase58("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
	metaplexProgramID      = sol.MustPublicKeyFromBase58("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s")
	nativeLoaderID         = sol.MustPublicKeyFromBase58("NativeLoader1111111111111111111111111111111")
	bpfLoaderUpgradeableID = sol.MustPublicKeyFromBase58("BPFLoaderUpgradeab1e11111111111111111111111")
	// bpfLoader2ID owns the programs mainnet deployed final, never to be
	// upgraded: SPL Token, Associated Token, Memo.
	bpfLoader2ID         = sol.MustPublicKeyFromBase58("BPFLoader2111111111111111111111111111111111")
	sysvarRentID         = sol.SysVarRentPubkey
	sysvarClockID        = sol.SysVarClockPubkey
	sysvarInstructionsID = sol.SysVarInstructionsPubkey
	sysvarOwnerID        = sol.MustPublicKeyFromBase58("Sysvar1111111111111111111111111111111111111")
	nativeMintID         = sol.SolMint
	nativeMint2022ID     = sol.MustPublicKeyFromBase58("9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP")
)

// Compute-unit limits of the real runtime.
const (
	defaultInstructionCULimit = 200_000
	maxCULimit                = 1_400_000
	maxInvokeDepth            = 5
)

// processor executes one instruction of a program.
type processor func(ic *instrCtx) *instrError

// program is an executable the chain knows how to run.
type program struct {
	id      string // base58 program id
	name    string
	builtin bool // native programs log neither consumption nor their own log lines
	run     processor
}

// txContext is the state of one executing transaction: its own copies of
// every account it references, the privileges the message grants, the logs
// and the compute meter.
type txContext struct {
	chain    *Chain
	keys     []sol.PublicKey
	accts    []*Account
	signer   []bool
	writable []bool
	logs     []string
	cuLimit  uint64
	cuUsed   uint64
	slot     uint64
	unixTime int64
	inner    []innerInstruction
	curTop   int // index of the top-level instruction being executed
	// top are the transaction's top-level instructions, what the
	// instructions sysvar shows a program.
	top []sol.CompiledInstruction
	// completed are the mints whose bonding curve this transaction
	// completed, for the migration that follows it.
	completed []sol.PublicKey
}

// innerInstruction is one CPI recorded for the transaction meta.
type innerInstruction struct {
	top         int
	program     int
	accounts    []int
	data        []byte
	stackHeight int
}

func (tx *txContext) log(format string, args ...any) {
	tx.logs = append(tx.logs, fmt.Sprintf(format, args...))
}

// consume charges compute units against the transaction's limit.
func (tx *txContext) consume(units uint64) *instrError {
	tx.cuUsed += units
	if tx.cuUsed > tx.cuLimit {
		tx.cuUsed = tx.cuLimit
		return errComputeBudgetExceeded
	}
	return nil
}

// epoch is the epoch of the chain's Clock sysvar, the clock Token-2022
// reads (Clock::get) to pick a mint's transfer fee, and LaunchLab with it.
// The chain does not advance the sysvar with its slots: it holds epoch 0
// unless a test sets the account.
func (tx *txContext) epoch() uint64 {
	if a := tx.chain.accounts[sysvarClockID]; a != nil && len(a.Data) >= clockEpochOffset+8 {
		return binary.LittleEndian.Uint64(a.Data[clockEpochOffset:])
	}
	return 0
}

// clockEpochOffset is where the Clock sysvar holds its epoch, after the
// slot and the epoch's start time.
const clockEpochOffset = 16

// indexOf finds a transaction account by key.
func (tx *txContext) indexOf(k sol.PublicKey) int {
	for i := range tx.keys {
		if tx.keys[i] == k {
			return i
		}
	}
	return -1
}

// instrCtx is one instruction invocation (top level or CPI).
type instrCtx struct {
	tx       *txContext
	program  sol.PublicKey
	idx      []int // transaction account index of each instruction account
	signer   []bool
	writable []bool
	data     []byte
	depth    int
}

func (ic *instrCtx) n() int                           { return len(ic.idx) }
func (ic *instrCtx) key(i int) sol.PublicKey          { return ic.tx.keys[ic.idx[i]] }
func (ic *instrCtx) acc(i int) *Account               { return ic.tx.accts[ic.idx[i]] }
func (ic *instrCtx) log(format string, a ...any)      { ic.tx.log("Program log: "+format, a...) }
func (ic *instrCtx) consume(units uint64) *instrError { return ic.tx.consume(units) }

// need fails with NotEnoughAccountKeys when fewer than n accounts are passed.
func (ic *instrCtx) need(n int) *instrError {
	if len(ic.idx) < n {
		return errNotEnoughAccountKeys
	}
	return nil
}

// canWriteData tells whether the running program may change the data or
// owner of account i, with the runtime's error when it may not.
func (ic *instrCtx) canWriteData(i int) *instrError {
	a := ic.acc(i)
	switch {
	case a.Executable:
		return errExecutableDataModified
	case !ic.writable[i]:
		return errReadonlyDataModified
	case a.Owner != ic.program:
		return errExternalDataModified
	}
	return nil
}

// debit takes lamports from account i, which the running program must own.
func (ic *instrCtx) debit(i int, n uint64) *instrError {
	if n == 0 {
		return nil
	}
	a := ic.acc(i)
	switch {
	case !ic.writable[i]:
		return errReadonlyLamportChange
	case a.Owner != ic.program || a.Executable:
		return errExternalAccountLamport
	case a.Lamports < n:
		return errInsufficientFunds
	}
	a.Lamports -= n
	return nil
}

// credit adds lamports to writable account i.
func (ic *instrCtx) credit(i int, n uint64) *instrError {
	if n == 0 {
		return nil
	}
	if !ic.writable[i] {
		return errReadonlyLamportChange
	}
	a := ic.acc(i)
	if a.Lamports+n < a.Lamports {
		return errArithmeticOverflow
	}
	a.Lamports += n
	return nil
}

// move debits from and credits to in one step.
func (ic *instrCtx) move(from, to int, n uint64) *instrError {
	if ic.idx[from] == ic.idx[to] {
		if !ic.writable[from] && n > 0 {
			return errReadonlyLamportChange
		}
		return nil
	}
	if err := ic.debit(from, n); err != nil {
		return err
	}
	return ic.credit(to, n)
}

// cpiAccount names one account of a cross-program invocation by its index in
// the calling instruction, with the privileges the callee gets.
type cpiAccount struct {
	i        int
	signer   bool
	writable bool
}

// invoke runs a cross-program invocation. pdaSigners are the addresses the
// caller signs for with its own seeds.
func (ic *instrCtx) invoke(programID sol.PublicKey, accts []cpiAccount, data []byte, pdaSigners ...sol.PublicKey) *instrError {
	if ic.depth+1 > maxInvokeDepth {
		return errCallDepth
	}
	callee := &instrCtx{
		tx:       ic.tx,
		program:  programID,
		idx:      make([]int, len(accts)),
		signer:   make([]bool, len(accts)),
		writable: make([]bool, len(accts)),
		data:     data,
		depth:    ic.depth + 1,
	}
	for j, a := range accts {
		if a.i < 0 || a.i >= len(ic.idx) {
			return errNotEnoughAccountKeys
		}
		k := ic.key(a.i)
		if a.signer && !ic.signer[a.i] && !containsKey(pdaSigners, k) {
			ic.tx.log("%s's signer privilege escalated", k)
			return errPrivilegeEscalation
		}
		if a.writable && !ic.writable[a.i] {
			ic.tx.log("%s's writable privilege escalated", k)
			return errPrivilegeEscalation
		}
		callee.idx[j] = ic.idx[a.i]
		callee.signer[j] = a.signer
		callee.writable[j] = a.writable
	}
	pi := ic.tx.indexOf(programID)
	if pi < 0 {
		ic.tx.log("Unknown program %s", programID)
		return errNotEnoughAccountKeys
	}
	ic.tx.inner = append(ic.tx.inner, innerInstruction{
		top: ic.tx.curTop, program: pi, accounts: append([]int(nil), callee.idx...),
		data: append([]byte(nil), data...), stackHeight: callee.depth,
	})
	return ic.tx.execute(callee)
}

// execute runs one instruction with the runtime's log lines around it.
func (tx *txContext) execute(ic *instrCtx) *instrError {
	p, ok := tx.chain.programs[ic.program]
	if !ok {
		name := ic.program.String()
		tx.logs = append(tx.logs, "Program "+name+" invoke ["+strconv.Itoa(ic.depth)+"]", "Program is not deployed",
			"Program "+name+" failed: "+errUnsupportedProgramID.Error())
		return errUnsupportedProgramID
	}
	// The program's base58 id is computed once; these lines are on every
	// instruction's path.
	tx.logs = append(tx.logs, "Program "+p.id+" invoke ["+strconv.Itoa(ic.depth)+"]")
	startUsed := tx.cuUsed
	remaining := tx.cuLimit - tx.cuUsed
	err := runProgram(p, ic)
	if !p.builtin {
		tx.logs = append(tx.logs, "Program "+p.id+" consumed "+strconv.FormatUint(tx.cuUsed-startUsed, 10)+" of "+strconv.FormatUint(remaining, 10)+" compute units")
	}
	if err != nil {
		tx.logs = append(tx.logs, "Program "+p.id+" failed: "+err.Error())
		return err
	}
	tx.logs = append(tx.logs, "Program "+p.id+" success")
	return nil
}

func containsKey(keys []sol.PublicKey, k sol.PublicKey) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}
