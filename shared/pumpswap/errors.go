package pumpswap

import "github.com/tradeapi/tradeapi/shared/anchor"

// programError returns an error of the PumpSwap program, "pump_amm" (its
// IDL name) in messages.
func programError(code uint32, name, msg string) *anchor.ProgramError {
	return &anchor.ProgramError{Program: "pump_amm", Code: code, Name: name, Msg: msg}
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*anchor.ProgramError, bool) {
	return anchor.ProgramErrorByCode(ProgramErrors, code)
}

// ProgramErrors lists every error of the program (IDL errors[]) in code
// order.
var ProgramErrors = []*anchor.ProgramError{
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
	ErrFeeBasisPointsExceedsMaximum             = programError(6000, "FeeBasisPointsExceedsMaximum", "")
	ErrZeroBaseAmount                           = programError(6001, "ZeroBaseAmount", "")
	ErrZeroQuoteAmount                          = programError(6002, "ZeroQuoteAmount", "")
	ErrTooLittlePoolTokenLiquidity              = programError(6003, "TooLittlePoolTokenLiquidity", "")
	ErrExceededSlippage                         = programError(6004, "ExceededSlippage", "")
	ErrInvalidAdmin                             = programError(6005, "InvalidAdmin", "")
	ErrUnsupportedBaseMint                      = programError(6006, "UnsupportedBaseMint", "")
	ErrUnsupportedQuoteMint                     = programError(6007, "UnsupportedQuoteMint", "")
	ErrInvalidBaseMint                          = programError(6008, "InvalidBaseMint", "")
	ErrInvalidQuoteMint                         = programError(6009, "InvalidQuoteMint", "")
	ErrInvalidLpMint                            = programError(6010, "InvalidLpMint", "")
	ErrAllProtocolFeeRecipientsShouldBeNonZero  = programError(6011, "AllProtocolFeeRecipientsShouldBeNonZero", "")
	ErrUnsortedNotUniqueProtocolFeeRecipients   = programError(6012, "UnsortedNotUniqueProtocolFeeRecipients", "")
	ErrInvalidProtocolFeeRecipient              = programError(6013, "InvalidProtocolFeeRecipient", "")
	ErrInvalidPoolBaseTokenAccount              = programError(6014, "InvalidPoolBaseTokenAccount", "")
	ErrInvalidPoolQuoteTokenAccount             = programError(6015, "InvalidPoolQuoteTokenAccount", "")
	ErrBuyMoreBaseAmountThanPoolReserves        = programError(6016, "BuyMoreBaseAmountThanPoolReserves", "")
	ErrDisabledCreatePool                       = programError(6017, "DisabledCreatePool", "")
	ErrDisabledDeposit                          = programError(6018, "DisabledDeposit", "")
	ErrDisabledWithdraw                         = programError(6019, "DisabledWithdraw", "")
	ErrDisabledBuy                              = programError(6020, "DisabledBuy", "")
	ErrDisabledSell                             = programError(6021, "DisabledSell", "")
	ErrSameMint                                 = programError(6022, "SameMint", "")
	ErrOverflow                                 = programError(6023, "Overflow", "")
	ErrTruncation                               = programError(6024, "Truncation", "")
	ErrDivisionByZero                           = programError(6025, "DivisionByZero", "")
	ErrNewSizeLessThanCurrentSize               = programError(6026, "NewSizeLessThanCurrentSize", "")
	ErrAccountTypeNotSupported                  = programError(6027, "AccountTypeNotSupported", "")
	ErrOnlyCanonicalPumpPoolsCanHaveCoinCreator = programError(6028, "OnlyCanonicalPumpPoolsCanHaveCoinCreator", "")
	ErrInvalidAdminSetCoinCreatorAuthority      = programError(6029, "InvalidAdminSetCoinCreatorAuthority", "")
	ErrStartTimeInThePast                       = programError(6030, "StartTimeInThePast", "")
	ErrEndTimeInThePast                         = programError(6031, "EndTimeInThePast", "")
	ErrEndTimeBeforeStartTime                   = programError(6032, "EndTimeBeforeStartTime", "")
	ErrTimeRangeTooLarge                        = programError(6033, "TimeRangeTooLarge", "")
	ErrEndTimeBeforeCurrentDay                  = programError(6034, "EndTimeBeforeCurrentDay", "")
	ErrSupplyUpdateForFinishedRange             = programError(6035, "SupplyUpdateForFinishedRange", "")
	ErrDayIndexAfterEndIndex                    = programError(6036, "DayIndexAfterEndIndex", "")
	ErrDayInActiveRange                         = programError(6037, "DayInActiveRange", "")
	ErrInvalidIncentiveMint                     = programError(6038, "InvalidIncentiveMint", "")
	ErrBuyNotEnoughQuoteTokensToCoverFees       = programError(6039, "BuyNotEnoughQuoteTokensToCoverFees", "buy: Not enough quote tokens to cover for fees.")
	ErrBuySlippageBelowMinBaseAmountOut         = programError(6040, "BuySlippageBelowMinBaseAmountOut", "buy: slippage - would buy less tokens than expected min_base_amount_out")
	ErrMayhemModeDisabled                       = programError(6041, "MayhemModeDisabled", "")
	ErrOnlyPumpPoolsMayhemMode                  = programError(6042, "OnlyPumpPoolsMayhemMode", "")
	ErrMayhemModeInDesiredState                 = programError(6043, "MayhemModeInDesiredState", "")
	ErrNotEnoughRemainingAccounts               = programError(6044, "NotEnoughRemainingAccounts", "")
	ErrInvalidSharingConfigBaseMint             = programError(6045, "InvalidSharingConfigBaseMint", "")
	ErrInvalidSharingConfigCoinCreator          = programError(6046, "InvalidSharingConfigCoinCreator", "")
	ErrCoinCreatorMigratedToSharingConfig       = programError(6047, "CoinCreatorMigratedToSharingConfig", "coin creator has been migrated to sharing config")
	ErrCreatorVaultMigratedToSharingConfig      = programError(6048, "CreatorVaultMigratedToSharingConfig", "creator_vault has been migrated to sharing config, use pump:distribute_creator_fees instead")
	ErrCashbackNotEnabled                       = programError(6049, "CashbackNotEnabled", "Cashback is disabled")
	ErrOnlyPumpPoolsCashback                    = programError(6050, "OnlyPumpPoolsCashback", "")
	ErrCashbackNotInDesiredState                = programError(6051, "CashbackNotInDesiredState", "")
	ErrTokensInVaultLessThanCashbackEarned      = programError(6052, "TokensInVaultLessThanCashbackEarned", "")
	ErrBuybackFeeRecipientNotAuthorized         = programError(6053, "BuybackFeeRecipientNotAuthorized", "Buyback fee recipient not authorized")
	ErrAllBuybackFeeRecipientsShouldBeNonZero   = programError(6054, "AllBuybackFeeRecipientsShouldBeNonZero", "")
	ErrNotUniqueBuybackFeeRecipients            = programError(6055, "NotUniqueBuybackFeeRecipients", "")
	ErrBuybackBasisPointsOutOfRange             = programError(6056, "BuybackBasisPointsOutOfRange", "buyback_basis_points must be <= 10_000")
	ErrWrongBuybackFeeRecipientsCount           = programError(6057, "WrongBuybackFeeRecipientsCount", "buyback fee recipients require exactly 8 remaining accounts (or none)")
	ErrBuybackFeeRecipientMissing               = programError(6058, "BuybackFeeRecipientMissing", "")
	ErrMissingCashbackAccounts                  = programError(6059, "MissingCashbackAccounts", "Cashback trade is missing the required remaining accounts")
	ErrInvalidCashbackAccumulator               = programError(6060, "InvalidCashbackAccumulator", "Cashback user_volume_accumulator account is invalid")
	ErrInvalidCashbackAccumulatorAta            = programError(6061, "InvalidCashbackAccumulatorAta", "Cashback user_volume_accumulator ATA is missing or invalid")
	ErrInvalidPoolV2                            = programError(6062, "InvalidPoolV2", "pool_v2 remaining account is missing or invalid")
	ErrInsufficientRealQuoteReserves            = programError(6063, "InsufficientRealQuoteReserves", "BOOST: sell output exceeds the real quote vault. effective = real + virtual is pricing-only; payout is capped at real_vault, so quote min(out, real_vault)")
	ErrBoostPoolLiquidityUnsupported            = programError(6064, "BoostPoolLiquidityUnsupported", "BOOST: deposit/withdraw don't apply to boost pools")
	ErrPoolCannotBoost                          = programError(6065, "PoolCannotBoost", "BOOST: pool cannot be boosted (no virtual reserves)")
	ErrBoostDisabled                            = programError(6066, "BoostDisabled", "BOOST: boost is disabled")
	ErrSeedLockViolation                        = programError(6067, "SeedLockViolation", "BOOST: lp_supply must never drop below the circulating LP mint supply")
	ErrCreatorFeeNotConfigurable                = programError(6068, "CreatorFeeNotConfigurable", "Configurable creator fee is disabled")
	ErrCreatorFeeBpsOutOfRange                  = programError(6069, "CreatorFeeBpsOutOfRange", "Creator fee basis points must be between 1 and the configured maximum")
	ErrCreatorFeeNotEditable                    = programError(6070, "CreatorFeeNotEditable", "Creator fee is not editable for this pool")
	ErrCreatorFeeNotAllowedForCashbackCoin      = programError(6071, "CreatorFeeNotAllowedForCashbackCoin", "Cashback coins cannot have a creator fee")
	ErrSharingConfigNotActive                   = programError(6072, "SharingConfigNotActive", "Sharing config is not active")
	ErrNotAuthorized                            = programError(6073, "NotAuthorized", "Not authorized")
	ErrHolderRewardCreatorImmutable             = programError(6074, "HolderRewardCreatorImmutable", "The coin creator of a holder-reward pool cannot be changed")
	ErrCtoNotAllowedForMayhemPool               = programError(6075, "CtoNotAllowedForMayhemPool", "CTO is not allowed on a mayhem-mode pool")
	ErrInvalidHolderRewardCoinCreator           = programError(6076, "InvalidHolderRewardCoinCreator", "A holder-reward pool's coin creator must be the holder-rewards PDA")
	ErrCreatorFeeNotConfigurableForQuote        = programError(6077, "CreatorFeeNotConfigurableForQuote", "Creator fee is not configurable on a SOL or USDC quote; the fee schedule applies")
)
