package launchlab

import "github.com/tradeapi/tradeapi/shared/anchor"

// programError returns an error of the LaunchLab program, "launchlab" in
// messages.
func programError(code uint32, name, msg string) *anchor.ProgramError {
	return &anchor.ProgramError{Program: "launchlab", Code: code, Name: name, Msg: msg}
}

// The program's errors (IDL errors[]).
var (
	ErrNotApproved              = programError(6000, "NotApproved", "Not approved")
	ErrInvalidOwner             = programError(6001, "InvalidOwner", "Input account owner is not the program address")
	ErrInvalidInput             = programError(6002, "InvalidInput", "invalidInput")
	ErrInputNotMatchCurveConfig = programError(6003, "InputNotMatchCurveConfig", "The input params are not match with curve type in config")
	ErrExceededSlippage         = programError(6004, "ExceededSlippage", "Exceeds desired slippage limit")
	ErrPoolFunding              = programError(6005, "PoolFunding", "Pool funding")
	ErrPoolMigrated             = programError(6006, "PoolMigrated", "Pool migrated")
	ErrMigrateTypeNotMatch      = programError(6007, "MigrateTypeNotMatch", "Migrate type not match")
	ErrMathOverflow             = programError(6008, "MathOverflow", "Math overflow")
)

// ProgramErrors lists the errors above in code order.
var ProgramErrors = []*anchor.ProgramError{
	ErrNotApproved, ErrInvalidOwner, ErrInvalidInput, ErrInputNotMatchCurveConfig, ErrExceededSlippage,
	ErrPoolFunding, ErrPoolMigrated, ErrMigrateTypeNotMatch, ErrMathOverflow,
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*anchor.ProgramError, bool) {
	return anchor.ProgramErrorByCode(ProgramErrors, code)
}
