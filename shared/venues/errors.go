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
// that still holds tokens), the System program's (a wallet short of SOL)
// and the Anchor framework's of a venue program are named too. ok is false
// for another program, or a code its table does not list.
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
	case sol.SystemProgramID:
		if int(code) < len(systemErrors) {
			return &anchor.ProgramError{Program: "system", Code: code, Name: systemErrors[code][0], Msg: systemErrors[code][1]}, true
		}
		return nil, false
	case pumpfun.ProgramID:
		return venueError("pump", code, pumpfun.ProgramErrorByCode)
	case pumpswap.ProgramID:
		return venueError("pump_amm", code, pumpswap.ProgramErrorByCode)
	case launchlab.ProgramID:
		return venueError("launchlab", code, launchlab.ProgramErrorByCode)
	case dbc.ProgramID:
		return venueError("dbc", code, dbc.ProgramErrorByCode)
	}
	return nil, false
}

// venueError names an Anchor venue program's error: its own, from its IDL,
// or below those the framework's (3005 AccountNotEnoughKeys when a new
// build requires one more account), under the program's name.
func venueError(program string, code uint32, own func(uint32) (*anchor.ProgramError, bool)) (*anchor.ProgramError, bool) {
	if code < anchor.ErrorCodeOffset {
		return anchor.FrameworkError(program, code)
	}
	return own(code)
}

// systemErrors are the System program's errors by code (its SystemError):
// name and message. A wallet short of the SOL an instruction moves meets
// ResultWithNegativeLamports.
var systemErrors = [...][2]string{
	{"AccountAlreadyInUse", "an account with the same address already exists"},
	{"ResultWithNegativeLamports", "account does not have enough SOL to perform the operation"},
	{"InvalidProgramId", "cannot assign account to this program id"},
	{"InvalidAccountDataLength", "cannot allocate account data of this length"},
	{"MaxSeedLengthExceeded", "length of requested seed is too long"},
	{"AddressWithSeedMismatch", "provided address does not match addressed derived from seed"},
	{"NonceNoRecentBlockhashes", "advancing stored nonce requires a populated RecentBlockhashes sysvar"},
	{"NonceBlockhashNotExpired", "stored nonce is still in recent_blockhashes"},
	{"NonceUnexpectedBlockhashValue", "specified nonce does not match stored nonce"},
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
