package solana

import (
	"encoding/binary"

	"github.com/tradeapi/tradeapi/shared/token2022"
)

const (
	ataCUCreate   = 12_000
	ataCUExisting = 3_500

	ataErrInvalidOwner = 0
)

// runATA executes the Associated Token Account program: Create (empty data
// or 0) and CreateIdempotent (1).
func runATA(ic *instrCtx) *instrError {
	idempotent := false
	switch {
	case len(ic.data) == 0 || ic.data[0] == 0:
		ic.log("Create")
	case ic.data[0] == 1:
		ic.log("CreateIdempotent")
		idempotent = true
	default:
		ic.log("Error: instruction %d is not supported by the local chain", ic.data[0])
		return errInvalidInstructionData
	}
	if err := ic.need(6); err != nil {
		return err
	}
	wallet, mint, tokenProg := ic.key(2), ic.key(3), ic.key(5)
	if !isTokenProgram(tokenProg) {
		return errIncorrectProgramID
	}
	if ic.key(1) != associatedTokenAddress(wallet, tokenProg, mint) {
		ic.log("Error: Associated address does not match seed derivation")
		return errInvalidSeeds
	}
	ata := ic.acc(1)
	if idempotent && ata.Owner == tokenProg && len(ata.Data) >= tokenAccountLen {
		if err := ic.consume(ataCUExisting); err != nil {
			return err
		}
		if tokAccOwner(ata.Data) != wallet {
			ic.log("Error: Associated token account owner does not match address derivation")
			return customErr(ataErrInvalidOwner)
		}
		return nil
	}
	if err := ic.consume(ataCUCreate); err != nil {
		return err
	}
	if ata.Owner != systemProgramID {
		return errIllegalOwner
	}
	if ic.acc(3).Owner != tokenProg {
		return errIllegalOwner
	}
	space := tokenAccountLen
	if tokenProg == token2022ProgramID {
		space = token2022AccountLen
		if hasTransferFee(tokenProg, ic.acc(3).Data) {
			space = token2022.AssociatedAccountWithTransferFeeSize
		}
	}
	rent := MinimumBalanceForRentExemption(space)
	if ata.Lamports > 0 {
		// Someone pre-funded the address: top it up, then allocate and assign.
		if ata.Lamports < rent {
			if err := ic.invoke(systemProgramID, []cpiAccount{{0, true, true}, {1, false, true}},
				sysIx(2, u64le(rent-ata.Lamports))); err != nil {
				return err
			}
		}
		if err := ic.invoke(systemProgramID, []cpiAccount{{1, true, true}}, sysIx(8, u64le(uint64(space))), ic.key(1)); err != nil {
			return err
		}
		if err := ic.invoke(systemProgramID, []cpiAccount{{1, true, true}}, sysIx(1, tokenProg[:]), ic.key(1)); err != nil {
			return err
		}
	} else {
		data := append(u64le(rent), u64le(uint64(space))...)
		data = append(data, tokenProg[:]...)
		if err := ic.invoke(systemProgramID, []cpiAccount{{0, true, true}, {1, true, true}}, sysIx(0, data), ic.key(1)); err != nil {
			return err
		}
	}
	ic.log("Initialize the associated token account")
	if err := ic.invoke(tokenProg, []cpiAccount{{1, false, true}}, []byte{22}); err != nil {
		return err
	}
	return ic.invoke(tokenProg, []cpiAccount{{1, false, true}, {3, false, false}}, append([]byte{18}, wallet[:]...))
}

// sysIx encodes a System instruction: u32 tag then the arguments.
func sysIx(tag uint32, args []byte) []byte {
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(args)), tag)
	return append(b, args...)
}

func u64le(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// runMemo executes the SPL Memo program: it logs the memo and checks that
// every account passed signed.
func runMemo(ic *instrCtx) *instrError {
	if err := ic.consume(uint64(500 + len(ic.data)*10)); err != nil {
		return err
	}
	for i := 0; i < ic.n(); i++ {
		if !ic.signer[i] {
			ic.log("Missing required signature for %s", ic.key(i))
			return errMissingRequiredSignature
		}
	}
	ic.log("Memo (len %d): %q", len(ic.data), string(ic.data))
	return nil
}

// noProgram is the processor of programs the chain seeds for their address
// only (the fee and mayhem programs, Metaplex).
func noProgram(ic *instrCtx) *instrError {
	ic.log("Error: program %s is not executable on the local chain", ic.program)
	return errUnsupportedProgramID
}
