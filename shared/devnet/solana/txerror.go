package solana

import (
	"encoding/json"
	"fmt"
)

// instrError is an InstructionError of the runtime: either a named built-in
// error or Custom(code) raised by a program.
type instrError struct {
	name   string // serde variant name, e.g. "InvalidArgument" or "Custom"
	code   uint32 // for Custom
	reason string // display text of the runtime
}

func (e *instrError) Error() string {
	if e.name == "Custom" {
		return fmt.Sprintf("custom program error: 0x%x", e.code)
	}
	return e.reason
}

// MarshalJSON writes the serde shape the RPC uses: "InvalidArgument" or
// {"Custom":6002}.
func (e *instrError) MarshalJSON() ([]byte, error) {
	if e.name == "Custom" {
		return json.Marshal(map[string]uint32{"Custom": e.code})
	}
	return json.Marshal(e.name)
}

func customErr(code uint32) *instrError { return &instrError{name: "Custom", code: code} }

// Built-in instruction errors with the runtime's display text.
var (
	errInvalidArgument            = &instrError{name: "InvalidArgument", reason: "invalid program argument"}
	errInvalidInstructionData     = &instrError{name: "InvalidInstructionData", reason: "invalid instruction data"}
	errInvalidAccountData         = &instrError{name: "InvalidAccountData", reason: "invalid account data for instruction"}
	errAccountDataTooSmall        = &instrError{name: "AccountDataTooSmall", reason: "account data too small for instruction"}
	errInsufficientFunds          = &instrError{name: "InsufficientFunds", reason: "insufficient funds for instruction"}
	errIncorrectProgramID         = &instrError{name: "IncorrectProgramId", reason: "incorrect program id for instruction"}
	errMissingRequiredSignature   = &instrError{name: "MissingRequiredSignature", reason: "missing required signature for instruction"}
	errAccountAlreadyInitialized  = &instrError{name: "AccountAlreadyInitialized", reason: "instruction requires an uninitialized account"}
	errUninitializedAccount       = &instrError{name: "UninitializedAccount", reason: "instruction requires an initialized account"}
	errNotEnoughAccountKeys       = &instrError{name: "NotEnoughAccountKeys", reason: "insufficient account keys for instruction"}
	errInvalidSeeds               = &instrError{name: "InvalidSeeds", reason: "Provided seeds do not result in a valid address"}
	errIllegalOwner               = &instrError{name: "IllegalOwner", reason: "Provided owner is not allowed"}
	errExternalAccountLamport     = &instrError{name: "ExternalAccountLamportSpend", reason: "instruction spent from the balance of an account it does not own"}
	errReadonlyLamportChange      = &instrError{name: "ReadonlyLamportChange", reason: "instruction changed the balance of a read-only account"}
	errReadonlyDataModified       = &instrError{name: "ReadonlyDataModified", reason: "instruction modified data of a read-only account"}
	errExternalDataModified       = &instrError{name: "ExternalAccountDataModified", reason: "instruction modified data of an account it does not own"}
	errExecutableDataModified     = &instrError{name: "ExecutableDataModified", reason: "instruction changed executable accounts data"}
	errComputeBudgetExceeded      = &instrError{name: "ComputationalBudgetExceeded", reason: "Computational budget exceeded"}
	errUnsupportedProgramID       = &instrError{name: "UnsupportedProgramId", reason: "Unsupported program id"}
	errInvalidAccountOwner        = &instrError{name: "InvalidAccountOwner", reason: "Invalid account owner"}
	errArithmeticOverflow         = &instrError{name: "ArithmeticOverflow", reason: "Program arithmetic overflowed"}
	errPrivilegeEscalation        = &instrError{name: "PrivilegeEscalation", reason: "Cross-program invocation with unauthorized signer or writable account"}
	errInvalidRealloc             = &instrError{name: "InvalidRealloc", reason: "Failed to reallocate account data"}
	errReentrancyNotAllowed       = &instrError{name: "ReentrancyNotAllowed", reason: "Cross-program invocation reentrancy not allowed for this instruction"}
	errCallDepth                  = &instrError{name: "CallDepth", reason: "Cross-program invocation call depth too deep"}
	errMaxAccountsDataAllocations = &instrError{name: "MaxAccountsDataAllocationsExceeded", reason: "Accounts data allocations exceeded the maximum allowed per transaction"}
	errUnsupportedSysvar          = &instrError{name: "UnsupportedSysvar", reason: "Unsupported sysvar"}
)

// txError is a TransactionError of the runtime.
type txError struct {
	name  string      // serde variant name
	index int         // instruction index (InstructionError, DuplicateInstruction) or account index (InsufficientFundsForRent)
	instr *instrError // for InstructionError
}

// Transaction-level errors with the runtime's display text.
var txErrorText = map[string]string{
	"AccountInUse":               "Account in use",
	"AccountNotFound":            "Attempt to debit an account but found no record of a prior credit.",
	"ProgramAccountNotFound":     "Attempt to load a program that does not exist",
	"InsufficientFundsForFee":    "Insufficient funds for fee",
	"InvalidAccountForFee":       "This account may not be used to pay transaction fees",
	"AlreadyProcessed":           "This transaction has already been processed",
	"BlockhashNotFound":          "Blockhash not found",
	"SignatureFailure":           "Transaction did not pass signature verification",
	"InvalidAccountIndex":        "Transaction contains an invalid account reference",
	"SanitizeFailure":            "Transaction failed to sanitize accounts offsets correctly",
	"AddressLookupTableNotFound": "Transaction loads an address table account that doesn't exist",
	"UnsupportedVersion":         "Transaction version is unsupported",
	"TooManyAccountLocks":        "Transaction locked too many accounts",
	"AccountLoadedTwice":         "Account loaded twice",
	"InvalidProgramForExecution": "Transaction does not have a valid program for execution",
}

func newTxError(name string) *txError { return &txError{name: name} }

func instructionError(index int, err *instrError) *txError {
	return &txError{name: "InstructionError", index: index, instr: err}
}

func (e *txError) Error() string {
	switch e.name {
	case "InstructionError":
		return fmt.Sprintf("Error processing Instruction %d: %s", e.index, e.instr.Error())
	case "DuplicateInstruction":
		return fmt.Sprintf("Transaction contains a duplicate instruction (%d) that is not allowed", e.index)
	case "InsufficientFundsForRent":
		return fmt.Sprintf("Transaction results in an account (%d) with insufficient funds for rent", e.index)
	}
	if s, ok := txErrorText[e.name]; ok {
		return s
	}
	return e.name
}

// MarshalJSON writes the serde shape of the RPC: "BlockhashNotFound",
// {"InstructionError":[2,{"Custom":6002}]},
// {"InsufficientFundsForRent":{"account_index":1}}.
func (e *txError) MarshalJSON() ([]byte, error) {
	switch e.name {
	case "InstructionError":
		return json.Marshal(map[string][]any{"InstructionError": {e.index, e.instr}})
	case "DuplicateInstruction":
		return json.Marshal(map[string]int{"DuplicateInstruction": e.index})
	case "InsufficientFundsForRent":
		return json.Marshal(map[string]map[string]int{"InsufficientFundsForRent": {"account_index": e.index}})
	}
	return json.Marshal(e.name)
}
