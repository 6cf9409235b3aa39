package dbc

import "fmt"

// ProgramError is an error the DBC program returns, as a custom program
// error code (Anchor's 6000 + index) with its name and message.
type ProgramError struct {
	Code uint32
	Name string
	Msg  string
}

// Error returns the code, name and message.
func (e *ProgramError) Error() string {
	return fmt.Sprintf("dbc error %d %s: %s", e.Code, e.Name, e.Msg)
}

// Is reports whether target is a *ProgramError with the same code.
func (e *ProgramError) Is(target error) bool {
	t, ok := target.(*ProgramError)
	return ok && t.Code == e.Code
}

// The program's errors this package and the local chain raise.
var (
	ErrMathOverflow                      = &ProgramError{6000, "MathOverflow", "Math operation overflow"}
	ErrExceededSlippage                  = &ProgramError{6002, "ExceededSlippage", "Exceeded slippage tolerance"}
	ErrAmountIsZero                      = &ProgramError{6005, "AmountIsZero", "Amount is zero"}
	ErrTypeCastFailed                    = &ProgramError{6006, "TypeCastFailed", "Type cast error"}
	ErrInvalidQuoteMint                  = &ProgramError{6008, "InvalidQuoteMint", "Invalid quote mint"}
	ErrInvalidCollectFeeMode             = &ProgramError{6009, "InvalidCollectFeeMode", "Invalid collect fee mode"}
	ErrNotEnoughLiquidity                = &ProgramError{6012, "NotEnoughLiquidity", "Not enough liquidity"}
	ErrPoolIsCompleted                   = &ProgramError{6013, "PoolIsCompleted", "Pool is completed"}
	ErrInvalidTokenType                  = &ProgramError{6017, "InvalidTokenType", "Invalid token type"}
	ErrInsufficientLiquidityForMigration = &ProgramError{6029, "InsufficientLiquidityForMigration", "Insufficient liquidity for migration"}
	// ErrInsufficientLiquidity is an exact-in buy larger than what is left
	// on the curve (SwapAmountIsOverAThreshold in older IDLs).
	ErrInsufficientLiquidity = &ProgramError{6033, "InsufficientLiquidity", "Liquidity in bonding curve is insufficient"}
	ErrInvalidBaseFeeMode    = &ProgramError{6041, "InvalidBaseFeeMode", "Invalid base fee mode"}
)

// ProgramErrors lists the errors above in code order.
var ProgramErrors = []*ProgramError{
	ErrMathOverflow, ErrExceededSlippage, ErrAmountIsZero, ErrTypeCastFailed, ErrInvalidQuoteMint,
	ErrInvalidCollectFeeMode, ErrNotEnoughLiquidity, ErrPoolIsCompleted, ErrInvalidTokenType,
	ErrInsufficientLiquidityForMigration, ErrInsufficientLiquidity, ErrInvalidBaseFeeMode,
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
