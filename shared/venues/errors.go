package venues

import (
	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// SolanaProgramError names a venue program's own error by its code, as the
// program's IDL does: two programs reuse the same codes, so the program
// that failed decides which table is read. The token programs' errors,
// which a venue's trade meets in its token accounts (a close of an account
// that still holds tokens), are named too. ok is false for another program,
// or a code its table does not list.
func SolanaProgramError(program sol.PublicKey, code uint32) (*anchor.ProgramError, bool) {
	switch program {
	case sol.TokenProgramID, sol.Token2022ProgramID:
		if int(code) < len(tokenErrors) {
			name := "token"
			if program == sol.Token2022ProgramID {
				name = "token-2022"
			}
			return &anchor.ProgramError{Program: name, Code: code, Name: tokenErrors[code][0], Msg: tokenErrors[code][1]}, true
		}
		return nil, false
	case pumpfun.ProgramID:
		return pumpfun.ProgramErrorByCode(code)
	case pumpswap.ProgramID:
		return pumpswap.ProgramErrorByCode(code)
	case launchlab.ProgramID:
		return launchlab.ProgramErrorByCode(code)
	case dbc.ProgramID:
		return dbc.ProgramErrorByCode(code)
	}
	return nil, false
}

// tokenErrors are the SPL Token program's errors by code (its TokenError,
// which Token-2022 begins with): name and message.
var tokenErrors = [...][2]string{
	{"NotRentExempt", "Lamport balance below rent-exempt threshold"},
	{"InsufficientFunds", "Insufficient funds"},
	{"InvalidMint", "Invalid Mint"},
	{"MintMismatch", "Account not associated with this Mint"},
	{"OwnerMismatch", "Owner does not match"},
	{"FixedSupply", "Fixed supply"},
	{"AlreadyInUse", "Already in use"},
	{"InvalidNumberOfProvidedSigners", "Invalid number of provided signers"},
	{"InvalidNumberOfRequiredSigners", "Invalid number of required signers"},
	{"UninitializedState", "State is uninitialized"},
	{"NativeNotSupported", "Instruction does not support native tokens"},
	{"NonNativeHasBalance", "Non-native account can only be closed if its balance is zero"},
	{"InvalidInstruction", "Invalid instruction"},
	{"InvalidState", "State is invalid for requested operation"},
	{"Overflow", "Operation overflowed"},
	{"AuthorityTypeNotSupported", "Account does not support specified authority type"},
	{"MintCannotFreeze", "This token mint cannot freeze accounts"},
	{"AccountFrozen", "Account is frozen"},
	{"MintDecimalsMismatch", "The provided decimals value different from the Mint decimals"},
	{"NonNativeNotSupported", "Instruction does not support non-native tokens"},
}
