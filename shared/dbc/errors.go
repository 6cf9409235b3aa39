package dbc

import "github.com/tradeapi/tradeapi/shared/anchor"

// programError returns an error of the DBC program, "dbc" in messages.
func programError(code uint32, name, msg string) *anchor.ProgramError {
	return &anchor.ProgramError{Program: "dbc", Code: code, Name: name, Msg: msg}
}

// The program's errors this package and the local chain raise.
var (
	ErrMathOverflow                      = programError(6000, "MathOverflow", "Math operation overflow")
	ErrExceededSlippage                  = programError(6002, "ExceededSlippage", "Exceeded slippage tolerance")
	ErrAmountIsZero                      = programError(6005, "AmountIsZero", "Amount is zero")
	ErrTypeCastFailed                    = programError(6006, "TypeCastFailed", "Type cast error")
	ErrInvalidQuoteMint                  = programError(6008, "InvalidQuoteMint", "Invalid quote mint")
	ErrInvalidCollectFeeMode             = programError(6009, "InvalidCollectFeeMode", "Invalid collect fee mode")
	ErrNotEnoughLiquidity                = programError(6012, "NotEnoughLiquidity", "Not enough liquidity")
	ErrPoolIsCompleted                   = programError(6013, "PoolIsCompleted", "Pool is completed")
	ErrInvalidTokenType                  = programError(6017, "InvalidTokenType", "Invalid token type")
	ErrInsufficientLiquidityForMigration = programError(6029, "InsufficientLiquidityForMigration", "Insufficient liquidity for migration")
	// ErrInsufficientLiquidity is an exact-in buy larger than what is left
	// on the curve (SwapAmountIsOverAThreshold in older IDLs).
	ErrInsufficientLiquidity = programError(6033, "InsufficientLiquidity", "Liquidity in bonding curve is insufficient")
	ErrInvalidBaseFeeMode    = programError(6041, "InvalidBaseFeeMode", "Invalid base fee mode")
	ErrInvalidFeeRateLimiter = programError(6042, "InvalidFeeRateLimiter", "Invalid fee rate limiter")
	// ErrFailToValidateSingleSwapInstruction is a buy the rate limiter
	// applies to without the instructions sysvar as its first remaining
	// account, or in a transaction that swaps on the pool before it.
	ErrFailToValidateSingleSwapInstruction = programError(6043, "FailToValidateSingleSwapInstruction", "Fail to validate single swap instruction in rate limiter")
	// ErrUndetermined is a rate limiter's fee of a partial fill the
	// program cannot work out.
	ErrUndetermined = programError(6045, "UndeterminedError", "Undertermined error")
)

// ProgramErrors lists the errors above in code order.
var ProgramErrors = []*anchor.ProgramError{
	ErrMathOverflow, ErrExceededSlippage, ErrAmountIsZero, ErrTypeCastFailed, ErrInvalidQuoteMint,
	ErrInvalidCollectFeeMode, ErrNotEnoughLiquidity, ErrPoolIsCompleted, ErrInvalidTokenType,
	ErrInsufficientLiquidityForMigration, ErrInsufficientLiquidity, ErrInvalidBaseFeeMode,
	ErrInvalidFeeRateLimiter, ErrFailToValidateSingleSwapInstruction, ErrUndetermined,
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*anchor.ProgramError, bool) {
	return anchor.ProgramErrorByCode(ProgramErrors, code)
}
