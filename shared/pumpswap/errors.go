package pumpswap

import "fmt"

// ProgramError is an error the PumpSwap program returns, as a custom program
// error code (Anchor's 6000 + index) with its IDL name and message.
type ProgramError struct {
	Code uint32
	Name string
	Msg  string
}

// Error returns the code, name and message.
func (e *ProgramError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("pump_amm error %d %s", e.Code, e.Name)
	}
	return fmt.Sprintf("pump_amm error %d %s: %s", e.Code, e.Name, e.Msg)
}

// Is reports whether target is a *ProgramError with the same code, so
// errors.Is matches a program error decoded from a transaction result.
func (e *ProgramError) Is(target error) bool {
	t, ok := target.(*ProgramError)
	return ok && t.Code == e.Code
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*ProgramError, bool) {
	e, ok := programErrorsByCode[code]
	return e, ok
}

var programErrorsByCode = func() map[uint32]*ProgramError {
	m := make(map[uint32]*ProgramError, len(ProgramErrors))
	for _, e := range ProgramErrors {
		m[e.Code] = e
	}
	return m
}()

// ProgramErrors lists every error of the program (IDL errors[]) in code
// order.
var ProgramErrors = []*ProgramError{
	ErrFeeBasisPointsExceedsMaximum,
	ErrZeroBaseAmount,
	ErrZeroQuoteAmount,
	ErrTooLittlePoolTokenLiquidity,
	ErrExceededSlippage,
	ErrInvalidAdmin,
	ErrUnsupportedBaseMint,
	ErrUnsupportedQuoteMint,
	ErrInvalidBaseMint,
	ErrInvalidQuoteMint,
	ErrInvalidLpMint,
	ErrAllProtocolFeeRecipientsShouldBeNonZero,
	ErrUnsortedNotUniqueProtocolFeeRecipients,
	ErrInvalidProtocolFeeRecipient,
	ErrInvalidPoolBaseTokenAccount,
	ErrInvalidPoolQuoteTokenAccount,
	ErrBuyMoreBaseAmountThanPoolReserves,
	ErrDisabledCreatePool,
	ErrDisabledDeposit,
	ErrDisabledWithdraw,
	ErrDisabledBuy,
	ErrDisabledSell,
	ErrSameMint,
	ErrOverflow,
	ErrTruncation,
	ErrDivisionByZero,
	ErrNewSizeLessThanCurrentSize,
	ErrAccountTypeNotSupported,
	ErrOnlyCanonicalPumpPoolsCanHaveCoinCreator,
	ErrInvalidAdminSetCoinCreatorAuthority,
	ErrStartTimeInThePast,
	ErrEndTimeInThePast,
	ErrEndTimeBeforeStartTime,
	ErrTimeRangeTooLarge,
	ErrEndTimeBeforeCurrentDay,
	ErrSupplyUpdateForFinishedRange,
	ErrDayIndexAfterEndIndex,
	ErrDayInActiveRange,
	ErrInvalidIncentiveMint,
	ErrBuyNotEnoughQuoteTokensToCoverFees,
	ErrBuySlippageBelowMinBaseAmountOut,
	ErrMayhemModeDisabled,
	ErrOnlyPumpPoolsMayhemMode,
	ErrMayhemModeInDesiredState,
	ErrNotEnoughRemainingAccounts,
	ErrInvalidSharingConfigBaseMint,
	ErrInvalidSharingConfigCoinCreator,
	ErrCoinCreatorMigratedToSharingConfig,
	ErrCreatorVaultMigratedToSharingConfig,
	ErrCashbackNotEnabled,
	ErrOnlyPumpPoolsCashback,
	ErrCashbackNotInDesiredState,
	ErrTokensInVaultLessThanCashbackEarned,
	ErrBuybackFeeRecipientNotAuthorized,
	ErrAllBuybackFeeRecipientsShouldBeNonZero,
	ErrNotUniqueBuybackFeeRecipients,
	ErrBuybackBasisPointsOutOfRange,
	ErrWrongBuybackFeeRecipientsCount,
	ErrBuybackFeeRecipientMissing,
	ErrMissingCashbackAccounts,
	ErrInvalidCashbackAccumulator,
	ErrInvalidCashbackAccumulatorAta,
	ErrInvalidPoolV2,
	ErrInsufficientRealQuoteReserves,
	ErrBoostPoolLiquidityUnsupported,
	ErrPoolCannotBoost,
	ErrBoostDisabled,
	ErrSeedLockViolation,
	ErrCreatorFeeNotConfigurable,
	ErrCreatorFeeBpsOutOfRange,
	ErrCreatorFeeNotEditable,
	ErrCreatorFeeNotAllowedForCashbackCoin,
	ErrSharingConfigNotActive,
	ErrNotAuthorized,
	ErrHolderRewardCreatorImmutable,
	ErrCtoNotAllowedForMayhemPool,
	ErrInvalidHolderRewardCoinCreator,
	ErrCreatorFeeNotConfigurableForQuote,
}

// The program's errors (IDL errors[]).
var (
	ErrFeeBasisPointsExceedsMaximum             = &ProgramError{6000, "FeeBasisPointsExceedsMaximum", ""}
	ErrZeroBaseAmount                           = &ProgramError{6001, "ZeroBaseAmount", ""}
	ErrZeroQuoteAmount                          = &ProgramError{6002, "ZeroQuoteAmount", ""}
	ErrTooLittlePoolTokenLiquidity              = &ProgramError{6003, "TooLittlePoolTokenLiquidity", ""}
	ErrExceededSlippage                         = &ProgramError{6004, "ExceededSlippage", ""}
	ErrInvalidAdmin                             = &ProgramError{6005, "InvalidAdmin", ""}
	ErrUnsupportedBaseMint                      = &ProgramError{6006, "UnsupportedBaseMint", ""}
	ErrUnsupportedQuoteMint                     = &ProgramError{6007, "UnsupportedQuoteMint", ""}
	ErrInvalidBaseMint                          = &ProgramError{6008, "InvalidBaseMint", ""}
	ErrInvalidQuoteMint                         = &ProgramError{6009, "InvalidQuoteMint", ""}
	ErrInvalidLpMint                            = &ProgramError{6010, "InvalidLpMint", ""}
	ErrAllProtocolFeeRecipientsShouldBeNonZero  = &ProgramError{6011, "AllProtocolFeeRecipientsShouldBeNonZero", ""}
	ErrUnsortedNotUniqueProtocolFeeRecipients   = &ProgramError{6012, "UnsortedNotUniqueProtocolFeeRecipients", ""}
	ErrInvalidProtocolFeeRecipient              = &ProgramError{6013, "InvalidProtocolFeeRecipient", ""}
	ErrInvalidPoolBaseTokenAccount              = &ProgramError{6014, "InvalidPoolBaseTokenAccount", ""}
	ErrInvalidPoolQuoteTokenAccount             = &ProgramError{6015, "InvalidPoolQuoteTokenAccount", ""}
	ErrBuyMoreBaseAmountThanPoolReserves        = &ProgramError{6016, "BuyMoreBaseAmountThanPoolReserves", ""}
	ErrDisabledCreatePool                       = &ProgramError{6017, "DisabledCreatePool", ""}
	ErrDisabledDeposit                          = &ProgramError{6018, "DisabledDeposit", ""}
	ErrDisabledWithdraw                         = &ProgramError{6019, "DisabledWithdraw", ""}
	ErrDisabledBuy                              = &ProgramError{6020, "DisabledBuy", ""}
	ErrDisabledSell                             = &ProgramError{6021, "DisabledSell", ""}
	ErrSameMint                                 = &ProgramError{6022, "SameMint", ""}
	ErrOverflow                                 = &ProgramError{6023, "Overflow", ""}
	ErrTruncation                               = &ProgramError{6024, "Truncation", ""}
	ErrDivisionByZero                           = &ProgramError{6025, "DivisionByZero", ""}
	ErrNewSizeLessThanCurrentSize               = &ProgramError{6026, "NewSizeLessThanCurrentSize", ""}
	ErrAccountTypeNotSupported                  = &ProgramError{6027, "AccountTypeNotSupported", ""}
	ErrOnlyCanonicalPumpPoolsCanHaveCoinCreator = &ProgramError{6028, "OnlyCanonicalPumpPoolsCanHaveCoinCreator", ""}
	ErrInvalidAdminSetCoinCreatorAuthority      = &ProgramError{6029, "InvalidAdminSetCoinCreatorAuthority", ""}
	ErrStartTimeInThePast                       = &ProgramError{6030, "StartTimeInThePast", ""}
	ErrEndTimeInThePast                         = &ProgramError{6031, "EndTimeInThePast", ""}
	ErrEndTimeBeforeStartTime                   = &ProgramError{6032, "EndTimeBeforeStartTime", ""}
	ErrTimeRangeTooLarge                        = &ProgramError{6033, "TimeRangeTooLarge", ""}
	ErrEndTimeBeforeCurrentDay                  = &ProgramError{6034, "EndTimeBeforeCurrentDay", ""}
	ErrSupplyUpdateForFinishedRange             = &ProgramError{6035, "SupplyUpdateForFinishedRange", ""}
	ErrDayIndexAfterEndIndex                    = &ProgramError{6036, "DayIndexAfterEndIndex", ""}
	ErrDayInActiveRange                         = &ProgramError{6037, "DayInActiveRange", ""}
	ErrInvalidIncentiveMint                     = &ProgramError{6038, "InvalidIncentiveMint", ""}
	ErrBuyNotEnoughQuoteTokensToCoverFees       = &ProgramError{6039, "BuyNotEnoughQuoteTokensToCoverFees", "buy: Not enough quote tokens to cover for fees."}
	ErrBuySlippageBelowMinBaseAmountOut         = &ProgramError{6040, "BuySlippageBelowMinBaseAmountOut", "buy: slippage - would buy less tokens than expected min_base_amount_out"}
	ErrMayhemModeDisabled                       = &ProgramError{6041, "MayhemModeDisabled", ""}
	ErrOnlyPumpPoolsMayhemMode                  = &ProgramError{6042, "OnlyPumpPoolsMayhemMode", ""}
	ErrMayhemModeInDesiredState                 = &ProgramError{6043, "MayhemModeInDesiredState", ""}
	ErrNotEnoughRemainingAccounts               = &ProgramError{6044, "NotEnoughRemainingAccounts", ""}
	ErrInvalidSharingConfigBaseMint             = &ProgramError{6045, "InvalidSharingConfigBaseMint", ""}
	ErrInvalidSharingConfigCoinCreator          = &ProgramError{6046, "InvalidSharingConfigCoinCreator", ""}
	ErrCoinCreatorMigratedToSharingConfig       = &ProgramError{6047, "CoinCreatorMigratedToSharingConfig", "coin creator has been migrated to sharing config"}
	ErrCreatorVaultMigratedToSharingConfig      = &ProgramError{6048, "CreatorVaultMigratedToSharingConfig", "creator_vault has been migrated to sharing config, use pump:distribute_creator_fees instead"}
	ErrCashbackNotEnabled                       = &ProgramError{6049, "CashbackNotEnabled", "Cashback is disabled"}
	ErrOnlyPumpPoolsCashback                    = &ProgramError{6050, "OnlyPumpPoolsCashback", ""}
	ErrCashbackNotInDesiredState                = &ProgramError{6051, "CashbackNotInDesiredState", ""}
	ErrTokensInVaultLessThanCashbackEarned      = &ProgramError{6052, "TokensInVaultLessThanCashbackEarned", ""}
	ErrBuybackFeeRecipientNotAuthorized         = &ProgramError{6053, "BuybackFeeRecipientNotAuthorized", "Buyback fee recipient not authorized"}
	ErrAllBuybackFeeRecipientsShouldBeNonZero   = &ProgramError{6054, "AllBuybackFeeRecipientsShouldBeNonZero", ""}
	ErrNotUniqueBuybackFeeRecipients            = &ProgramError{6055, "NotUniqueBuybackFeeRecipients", ""}
	ErrBuybackBasisPointsOutOfRange             = &ProgramError{6056, "BuybackBasisPointsOutOfRange", "buyback_basis_points must be <= 10_000"}
	ErrWrongBuybackFeeRecipientsCount           = &ProgramError{6057, "WrongBuybackFeeRecipientsCount", "buyback fee recipients require exactly 8 remaining accounts (or none)"}
	ErrBuybackFeeRecipientMissing               = &ProgramError{6058, "BuybackFeeRecipientMissing", ""}
	ErrMissingCashbackAccounts                  = &ProgramError{6059, "MissingCashbackAccounts", "Cashback trade is missing the required remaining accounts"}
	ErrInvalidCashbackAccumulator               = &ProgramError{6060, "InvalidCashbackAccumulator", "Cashback user_volume_accumulator account is invalid"}
	ErrInvalidCashbackAccumulatorAta            = &ProgramError{6061, "InvalidCashbackAccumulatorAta", "Cashback user_volume_accumulator ATA is missing or invalid"}
	ErrInvalidPoolV2                            = &ProgramError{6062, "InvalidPoolV2", "pool_v2 remaining account is missing or invalid"}
	ErrInsufficientRealQuoteReserves            = &ProgramError{6063, "InsufficientRealQuoteReserves", "BOOST: sell output exceeds the real quote vault. effective = real + virtual is pricing-only; payout is capped at real_vault, so quote min(out, real_vault)"}
	ErrBoostPoolLiquidityUnsupported            = &ProgramError{6064, "BoostPoolLiquidityUnsupported", "BOOST: deposit/withdraw don't apply to boost pools"}
	ErrPoolCannotBoost                          = &ProgramError{6065, "PoolCannotBoost", "BOOST: pool cannot be boosted (no virtual reserves)"}
	ErrBoostDisabled                            = &ProgramError{6066, "BoostDisabled", "BOOST: boost is disabled"}
	ErrSeedLockViolation                        = &ProgramError{6067, "SeedLockViolation", "BOOST: lp_supply must never drop below the circulating LP mint supply"}
	ErrCreatorFeeNotConfigurable                = &ProgramError{6068, "CreatorFeeNotConfigurable", "Configurable creator fee is disabled"}
	ErrCreatorFeeBpsOutOfRange                  = &ProgramError{6069, "CreatorFeeBpsOutOfRange", "Creator fee basis points must be between 1 and the configured maximum"}
	ErrCreatorFeeNotEditable                    = &ProgramError{6070, "CreatorFeeNotEditable", "Creator fee is not editable for this pool"}
	ErrCreatorFeeNotAllowedForCashbackCoin      = &ProgramError{6071, "CreatorFeeNotAllowedForCashbackCoin", "Cashback coins cannot have a creator fee"}
	ErrSharingConfigNotActive                   = &ProgramError{6072, "SharingConfigNotActive", "Sharing config is not active"}
	ErrNotAuthorized                            = &ProgramError{6073, "NotAuthorized", "Not authorized"}
	ErrHolderRewardCreatorImmutable             = &ProgramError{6074, "HolderRewardCreatorImmutable", "The coin creator of a holder-reward pool cannot be changed"}
	ErrCtoNotAllowedForMayhemPool               = &ProgramError{6075, "CtoNotAllowedForMayhemPool", "CTO is not allowed on a mayhem-mode pool"}
	ErrInvalidHolderRewardCoinCreator           = &ProgramError{6076, "InvalidHolderRewardCoinCreator", "A holder-reward pool's coin creator must be the holder-rewards PDA"}
	ErrCreatorFeeNotConfigurableForQuote        = &ProgramError{6077, "CreatorFeeNotConfigurableForQuote", "Creator fee is not configurable on a SOL or USDC quote; the fee schedule applies"}
)
