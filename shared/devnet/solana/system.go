package solana

import (
	"encoding/binary"
	"math/bits"

	sol "github.com/gagliardetto/solana-go"
)

// System program custom errors.
const (
	sysErrAccountAlreadyInUse       = 0
	sysErrResultWithNegativeLamport = 1
	sysErrInvalidAccountDataLength  = 3
	sysErrAddressWithSeedMismatch   = 5
)

const (
	systemCU          = 150
	maxAccountDataLen = 10 * 1024 * 1024
)

// runSystem executes the System program: CreateAccount, Assign, Transfer,
// CreateAccountWithSeed and Allocate.
func runSystem(ic *instrCtx) *instrError {
	if err := ic.consume(systemCU); err != nil {
		return err
	}
	d := ic.data
	if len(d) < 4 {
		return errInvalidInstructionData
	}
	tag := binary.LittleEndian.Uint32(d)
	d = d[4:]
	switch tag {
	case 0: // CreateAccount
		if len(d) < 48 {
			return errInvalidInstructionData
		}
		if err := ic.need(2); err != nil {
			return err
		}
		lamports := binary.LittleEndian.Uint64(d)
		space := binary.LittleEndian.Uint64(d[8:])
		owner := sol.PublicKeyFromBytes(d[16:48])
		return sysCreate(ic, 0, 1, lamports, space, owner, "Create Account")
	case 1: // Assign
		if len(d) < 32 {
			return errInvalidInstructionData
		}
		if err := ic.need(1); err != nil {
			return err
		}
		return sysAssign(ic, 0, sol.PublicKeyFromBytes(d[:32]))
	case 2: // Transfer
		if len(d) < 8 {
			return errInvalidInstructionData
		}
		if err := ic.need(2); err != nil {
			return err
		}
		return sysTransfer(ic, 0, 1, binary.LittleEndian.Uint64(d))
	case 3: // CreateAccountWithSeed
		return sysCreateWithSeed(ic, d)
	case 8: // Allocate
		if len(d) < 8 {
			return errInvalidInstructionData
		}
		if err := ic.need(1); err != nil {
			return err
		}
		return sysAllocate(ic, 0, binary.LittleEndian.Uint64(d), "Allocate")
	}
	ic.tx.log("Instruction %d is not supported by the local chain", tag)
	return errInvalidInstructionData
}

func sysTransfer(ic *instrCtx, from, to int, lamports uint64) *instrError {
	if !ic.signer[from] {
		ic.tx.log("Transfer: `from` account %s must sign", ic.key(from))
		return errMissingRequiredSignature
	}
	fa := ic.acc(from)
	if len(fa.Data) > 0 {
		ic.tx.log("Transfer: `from` must not carry data")
		return errInvalidArgument
	}
	if fa.Lamports < lamports {
		ic.tx.log("Transfer: insufficient lamports %d, need %d", fa.Lamports, lamports)
		return customErr(sysErrResultWithNegativeLamport)
	}
	return ic.move(from, to, lamports)
}

func sysAllocate(ic *instrCtx, i int, space uint64, what string) *instrError {
	if !ic.signer[i] {
		ic.tx.log("%s: 'to' account %s must sign", what, ic.key(i))
		return errMissingRequiredSignature
	}
	a := ic.acc(i)
	if len(a.Data) > 0 || a.Owner != systemProgramID {
		ic.tx.log("%s: account Address { address: %s, base: None } already in use", what, ic.key(i))
		return customErr(sysErrAccountAlreadyInUse)
	}
	if space > maxAccountDataLen {
		ic.tx.log("%s: requested %d, max allowed %d", what, space, maxAccountDataLen)
		return customErr(sysErrInvalidAccountDataLength)
	}
	if space == 0 {
		return nil
	}
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	a.Data = make([]byte, space)
	return nil
}

func sysAssign(ic *instrCtx, i int, owner sol.PublicKey) *instrError {
	a := ic.acc(i)
	if a.Owner == owner {
		return nil
	}
	if !ic.signer[i] {
		ic.tx.log("Assign: account %s must sign", ic.key(i))
		return errMissingRequiredSignature
	}
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	a.Owner = owner
	return nil
}

func sysCreate(ic *instrCtx, from, to int, lamports, space uint64, owner sol.PublicKey, what string) *instrError {
	if ic.acc(to).Lamports > 0 {
		ic.tx.log("%s: account Address { address: %s, base: None } already in use", what, ic.key(to))
		return customErr(sysErrAccountAlreadyInUse)
	}
	if err := sysAllocate(ic, to, space, what); err != nil {
		return err
	}
	if err := sysAssign(ic, to, owner); err != nil {
		return err
	}
	return sysTransfer(ic, from, to, lamports)
}

// sysCreateWithSeed handles CreateAccountWithSeed: the new address is
// sha256(base || seed || owner) and the base key signs instead of it.
func sysCreateWithSeed(ic *instrCtx, d []byte) *instrError {
	if len(d) < 40 {
		return errInvalidInstructionData
	}
	base := sol.PublicKeyFromBytes(d[:32])
	seedLen := binary.LittleEndian.Uint64(d[32:])
	if seedLen > 32 || uint64(len(d)) < 40+seedLen+48 {
		return errInvalidInstructionData
	}
	seed := string(d[40 : 40+seedLen])
	rest := d[40+seedLen:]
	lamports := binary.LittleEndian.Uint64(rest)
	space := binary.LittleEndian.Uint64(rest[8:])
	owner := sol.PublicKeyFromBytes(rest[16:48])
	if err := ic.need(2); err != nil {
		return err
	}
	want, err := sol.CreateWithSeed(base, seed, owner)
	if err != nil || want != ic.key(1) {
		ic.tx.log("Create: address %s does not match derived address %s", ic.key(1), want)
		return customErr(sysErrAddressWithSeedMismatch)
	}
	// The base key signs for the derived address.
	baseSigned := false
	for j := 0; j < ic.n(); j++ {
		if ic.key(j) == base && ic.signer[j] {
			baseSigned = true
		}
	}
	if !baseSigned {
		ic.tx.log("Create: 'base' account %s must sign", base)
		return errMissingRequiredSignature
	}
	saved := ic.signer[1]
	ic.signer[1] = true
	defer func() { ic.signer[1] = saved }()
	return sysCreate(ic, 0, 1, lamports, space, owner, "Create Account")
}

// runComputeBudget executes Compute Budget instructions. Their effect (limit
// and price) is read before execution, when the fee is computed; here they
// only cost compute units.
func runComputeBudget(ic *instrCtx) *instrError {
	return ic.consume(systemCU)
}

// computeBudget is what a transaction's Compute Budget instructions request.
type computeBudget struct {
	limit      uint64
	price      uint64 // micro-lamports per compute unit
	limitSet   bool
	priceSet   bool
	heapSet    bool
	loadedSet  bool
	nonBudgetN int
}

// parseComputeBudget reads the Compute Budget instructions of a message the
// way the runtime does before execution.
func parseComputeBudget(keys []sol.PublicKey, msg *sol.Message) (computeBudget, *txError) {
	var cb computeBudget
	for i, ci := range msg.Instructions {
		if keys[ci.ProgramIDIndex] != computeBudgetProgramID {
			cb.nonBudgetN++
			continue
		}
		d := []byte(ci.Data)
		if len(d) == 0 {
			return cb, instructionError(i, errInvalidInstructionData)
		}
		dup := false
		switch d[0] {
		case 1: // RequestHeapFrame
			if len(d) != 5 {
				return cb, instructionError(i, errInvalidInstructionData)
			}
			dup, cb.heapSet = cb.heapSet, true
		case 2: // SetComputeUnitLimit
			if len(d) != 5 {
				return cb, instructionError(i, errInvalidInstructionData)
			}
			dup, cb.limitSet = cb.limitSet, true
			cb.limit = uint64(binary.LittleEndian.Uint32(d[1:]))
		case 3: // SetComputeUnitPrice
			if len(d) != 9 {
				return cb, instructionError(i, errInvalidInstructionData)
			}
			dup, cb.priceSet = cb.priceSet, true
			cb.price = binary.LittleEndian.Uint64(d[1:])
		case 4: // SetLoadedAccountsDataSizeLimit
			if len(d) != 5 {
				return cb, instructionError(i, errInvalidInstructionData)
			}
			dup, cb.loadedSet = cb.loadedSet, true
		default:
			return cb, instructionError(i, errInvalidInstructionData)
		}
		if dup {
			return cb, &txError{name: "DuplicateInstruction", index: i}
		}
	}
	if !cb.limitSet {
		cb.limit = uint64(cb.nonBudgetN) * defaultInstructionCULimit
	}
	if cb.limit > maxCULimit {
		cb.limit = maxCULimit
	}
	return cb, nil
}

// priorityFee is ceil(limit * price / 1e6) lamports.
func (cb computeBudget) priorityFee() uint64 {
	if cb.price == 0 || cb.limit == 0 {
		return 0
	}
	hi, lo := bits.Mul64(cb.limit, cb.price)
	// limit <= 1.4e6, so the product fits easily unless the price is absurd.
	if hi != 0 {
		return ^uint64(0)
	}
	q := lo / 1_000_000
	if lo%1_000_000 != 0 {
		q++
	}
	return q
}
