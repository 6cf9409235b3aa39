package launchlab

import "fmt"

// ProgramError is an error the LaunchLab program returns, as a custom
// program error code (Anchor's 6000 + index) with its IDL name and message.
type ProgramError struct {
	Code uint32
	Name string
	Msg  string
}

// Error returns the code, name and message.
func (e *ProgramError) Error() string {
	return fmt.Sprintf("launchlab error %d %s: %s", e.Code, e.Name, e.Msg)
}

// Is reports whether target is a *ProgramError with the same code.
func (e *ProgramError) Is(target error) bool {
	t, ok := target.(*ProgramError)
	return ok && t.Code == e.Code
}

// The program's errors (IDL errors[]).
var (
	ErrNotApproved              = &ProgramError{6000, "NotApproved", "Not approved"}
	ErrInvalidOwner             = &ProgramError{6001, "InvalidOwner", "Input account owner is not the program address"}
	ErrInvalidInput             = &ProgramError{6002, "InvalidInput", "invalidInput"}
	ErrInputNotMatchCurveConfig = &ProgramError{6003, "InputNotMatchCurveConfig", "The input params are not match with curve type in config"}
	ErrExceededSlippage         = &ProgramError{6004, "ExceededSlippage", "Exceeds desired slippage limit"}
	ErrPoolFunding              = &ProgramError{6005, "PoolFunding", "Pool funding"}
	ErrPoolMigrated             = &ProgramError{6006, "PoolMigrated", "Pool migrated"}
	ErrMigrateTypeNotMatch      = &ProgramError{6007, "MigrateTypeNotMatch", "Migrate type not match"}
	ErrMathOverflow             = &ProgramError{6008, "MathOverflow", "Math overflow"}
)

// ProgramErrors lists the errors above in code order.
var ProgramErrors = []*ProgramError{
	ErrNotApproved, ErrInvalidOwner, ErrInvalidInput, ErrInputNotMatchCurveConfig, ErrExceededSlippage,
	ErrPoolFunding, ErrPoolMigrated, ErrMigrateTypeNotMatch, ErrMathOverflow,
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*ProgramError, bool) {
	for _, e := range ProgramErrors {
		if e.Code == code {
			return e, true
		}
	}
	return nil, false
}
