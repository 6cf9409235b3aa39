package pumpfun

import "github.com/tradeapi/tradeapi/shared/anchor"

// programError returns an error of the pump.fun program, "pump" (its IDL
// name) in messages.
func programError(code uint32, name, msg string) *anchor.ProgramError {
	return &anchor.ProgramError{Program: "pump", Code: code, Name: name, Msg: msg}
}

// ProgramErrorByCode returns the program error with code.
func ProgramErrorByCode(code uint32) (*anchor.ProgramError, bool) {
	return anchor.ProgramErrorByCode(ProgramErrors, code)
}

// ProgramErrors lists every error of the program (IDL errors[]) in code
// order.
var ProgramErrors = []*anchor.ProgramError{
	ErrNotAuthorized,
	ErrAlreadyInitialized,
	ErrTooMuchSolRequired,
	ErrTooLittleSolReceived,
	ErrMintDoesNotMatchBondingCurve,
	ErrBondingCurveComplete,
	ErrBondingCurveNotComplete,
	ErrNotInitialized,
	ErrWithdrawTooFrequent,
	ErrNewSizeShouldBeGreaterThanCurrentSize,
	ErrAccountTypeNotSupported,
	ErrInitialRealTokenReservesShouldBeLessThanTokenTotalSupply,
	ErrInitialVirtualTokenReservesShouldBeGreaterThanInitialRealTokenReserves,
	ErrFeeBasisPointsGreaterThanMaximum,
	ErrAllZerosWithdrawAuthority,
	ErrPoolMigrationFeeShouldBeLessThanFinalRealSolReserves,
	ErrPoolMigrationFeeShouldBeGreaterThanCreatorFeePlusMaxMigrateFees,
	ErrDisabledWithdraw,
	ErrDisabledMigrate,
	ErrInvalidCreator,
	ErrBuyZeroAmount,
	ErrNotEnoughTokensToBuy,
	ErrSellZeroAmount,
	ErrNotEnoughTokensToSell,
	ErrOverflow,
	ErrTruncation,
	ErrDivisionByZero,
	ErrNotEnoughRemainingAccounts,
	ErrAllFeeRecipientsShouldBeNonZero,
	ErrUnsortedNotUniqueFeeRecipients,
	ErrCreatorShouldNotBeZero,
	ErrStartTimeInThePast,
	ErrEndTimeInThePast,
	ErrEndTimeBeforeStartTime,
	ErrTimeRangeTooLarge,
	ErrEndTimeBeforeCurrentDay,
	ErrSupplyUpdateForFinishedRange,
	ErrDayIndexAfterEndIndex,
	ErrDayInActiveRange,
	ErrInvalidIncentiveMint,
	ErrBuyNotEnoughSolToCoverRent,
	ErrBuyNotEnoughSolToCoverFees,
	ErrBuySlippageBelowMinTokensOut,
	ErrNameTooLong,
	ErrSymbolTooLong,
	ErrUriTooLong,
	ErrCreateV2Disabled,
	ErrCpitializeMayhemFailed,
	ErrMayhemModeDisabled,
	ErrCreatorMigratedToSharingConfig,
	ErrUnableToDistributeCreatorVaultMigratedToSharingConfig,
	ErrSharingConfigNotActive,
	ErrUnableToDistributeCreatorFeesToExecutableRecipient,
	ErrBondingCurveAndSharingConfigCreatorMismatch,
	ErrShareholdersAndRemainingAccountsMismatch,
	ErrInvalidShareBps,
	ErrCashbackNotEnabled,
	ErrBuybackFeeRecipientNotAuthorized,
	ErrAllBuybackFeeRecipientsShouldBeNonZero,
	ErrNotUniqueBuybackFeeRecipients,
	ErrBuybackBasisPointsOutOfRange,
	ErrWrongBuybackFeeRecipientsCount,
	ErrBuybackFeeRecipientMissing,
	ErrUnsupportedQuoteMint,
	ErrInvalidQuoteTokenProgram,
	ErrInvalidAssociatedQuoteBondingCurve,
	ErrQuoteMintWhitelistFull,
	ErrQuoteMintAlreadyWhitelisted,
	ErrQuoteMintNotWhitelisted,
	ErrQuoteMintNotEligibleForWhitelist,
	ErrUnableToDistributeCreatorFeesToUninitializedAccount,
	ErrMayhemModeQuoteMintNotAllowed,
	ErrMissingCashbackAccounts,
	ErrInvalidCashbackAccumulator,
	ErrInvalidBondingCurveV2,
	ErrInvalidQuoteControl,
	ErrInvalidCashbackRecipient,
	ErrCreatorFeeNotConfigurable,
	ErrCreatorFeeBpsOutOfRange,
	ErrCreatorFeeNotEditable,
	ErrCreatorFeeNotAllowedForCashbackCoin,
	ErrBondingCurveAlreadyMigrated,
	ErrCashbackDeprecated,
	ErrHolderRewardCreatorImmutable,
	ErrHolderRewardDisabled,
	ErrHolderRewardRecipientsMismatch,
	ErrHolderRewardsRentFloor,
	ErrHolderRewardTokenAccountMissing,
	ErrCtoNotAllowedForMayhemCoin,
	ErrCtoNewCreatorRequired,
	ErrCtoNewCreatorNotAllowed,
	ErrCreatorFeeNotConfigurableForQuote,
	ErrCtoCreatorAccountNotWritable,
	ErrCtoSharedVaultFrozen,
}

// The program's errors (IDL errors[]).
var (
	ErrNotAuthorized                                                          = programError(6000, "NotAuthorized", "The given account is not authorized to execute this instruction.")
	ErrAlreadyInitialized                                                     = programError(6001, "AlreadyInitialized", "The program is already initialized.")
	ErrTooMuchSolRequired                                                     = programError(6002, "TooMuchSolRequired", "slippage: Too much SOL required to buy the given amount of tokens.")
	ErrTooLittleSolReceived                                                   = programError(6003, "TooLittleSolReceived", "slippage: Too little SOL received to sell the given amount of tokens.")
	ErrMintDoesNotMatchBondingCurve                                           = programError(6004, "MintDoesNotMatchBondingCurve", "The mint does not match the bonding curve.")
	ErrBondingCurveComplete                                                   = programError(6005, "BondingCurveComplete", "The bonding curve has completed and liquidity migrated to raydium.")
	ErrBondingCurveNotComplete                                                = programError(6006, "BondingCurveNotComplete", "The bonding curve has not completed.")
	ErrNotInitialized                                                         = programError(6007, "NotInitialized", "The program is not initialized.")
	ErrWithdrawTooFrequent                                                    = programError(6008, "WithdrawTooFrequent", "Withdraw too frequent")
	ErrNewSizeShouldBeGreaterThanCurrentSize                                  = programError(6009, "NewSizeShouldBeGreaterThanCurrentSize", "new_size should be > current_size")
	ErrAccountTypeNotSupported                                                = programError(6010, "AccountTypeNotSupported", "Account type not supported")
	ErrInitialRealTokenReservesShouldBeLessThanTokenTotalSupply               = programError(6011, "InitialRealTokenReservesShouldBeLessThanTokenTotalSupply", "initial_real_token_reserves should be less than token_total_supply")
	ErrInitialVirtualTokenReservesShouldBeGreaterThanInitialRealTokenReserves = programError(6012, "InitialVirtualTokenReservesShouldBeGreaterThanInitialRealTokenReserves", "initial_virtual_token_reserves should be greater than initial_real_token_reserves")
	ErrFeeBasisPointsGreaterThanMaximum                                       = programError(6013, "FeeBasisPointsGreaterThanMaximum", "fee_basis_points greater than maximum")
	ErrAllZerosWithdrawAuthority                                              = programError(6014, "AllZerosWithdrawAuthority", "Withdraw authority cannot be set to System Program ID")
	ErrPoolMigrationFeeShouldBeLessThanFinalRealSolReserves                   = programError(6015, "PoolMigrationFeeShouldBeLessThanFinalRealSolReserves", "pool_migration_fee should be less than final_real_sol_reserves")
	ErrPoolMigrationFeeShouldBeGreaterThanCreatorFeePlusMaxMigrateFees        = programError(6016, "PoolMigrationFeeShouldBeGreaterThanCreatorFeePlusMaxMigrateFees", "pool_migration_fee should be greater than creator_fee + MAX_MIGRATE_FEES")
	ErrDisabledWithdraw                                                       = programError(6017, "DisabledWithdraw", "Migrate instruction is disabled")
	ErrDisabledMigrate                                                        = programError(6018, "DisabledMigrate", "Migrate instruction is disabled")
	ErrInvalidCreator                                                         = programError(6019, "InvalidCreator", "Invalid creator pubkey")
	ErrBuyZeroAmount                                                          = programError(6020, "BuyZeroAmount", "Buy zero amount")
	ErrNotEnoughTokensToBuy                                                   = programError(6021, "NotEnoughTokensToBuy", "Not enough tokens to buy")
	ErrSellZeroAmount                                                         = programError(6022, "SellZeroAmount", "Sell zero amount")
	ErrNotEnoughTokensToSell                                                  = programError(6023, "NotEnoughTokensToSell", "Not enough tokens to sell")
	ErrOverflow                                                               = programError(6024, "Overflow", "Overflow")
	ErrTruncation                                                             = programError(6025, "Truncation", "Truncation")
	ErrDivisionByZero                                                         = programError(6026, "DivisionByZero", "Division by zero")
	ErrNotEnoughRemainingAccounts                                             = programError(6027, "NotEnoughRemainingAccounts", "Not enough remaining accounts")
	ErrAllFeeRecipientsShouldBeNonZero                                        = programError(6028, "AllFeeRecipientsShouldBeNonZero", "All fee recipients should be non-zero")
	ErrUnsortedNotUniqueFeeRecipients                                         = programError(6029, "UnsortedNotUniqueFeeRecipients", "Unsorted or not unique fee recipients")
	ErrCreatorShouldNotBeZero                                                 = programError(6030, "CreatorShouldNotBeZero", "Creator should not be zero")
	ErrStartTimeInThePast                                                     = programError(6031, "StartTimeInThePast", "")
	ErrEndTimeInThePast                                                       = programError(6032, "EndTimeInThePast", "")
	ErrEndTimeBeforeStartTime                                                 = programError(6033, "EndTimeBeforeStartTime", "")
	ErrTimeRangeTooLarge                                                      = programError(6034, "TimeRangeTooLarge", "")
	ErrEndTimeBeforeCurrentDay                                                = programError(6035, "EndTimeBeforeCurrentDay", "")
	ErrSupplyUpdateForFinishedRange                                           = programError(6036, "SupplyUpdateForFinishedRange", "")
	ErrDayIndexAfterEndIndex                                                  = programError(6037, "DayIndexAfterEndIndex", "")
	ErrDayInActiveRange                                                       = programError(6038, "DayInActiveRange", "")
	ErrInvalidIncentiveMint                                                   = programError(6039, "InvalidIncentiveMint", "")
	ErrBuyNotEnoughSolToCoverRent                                             = programError(6040, "BuyNotEnoughSolToCoverRent", "Buy: Not enough SOL to cover for rent exemption.")
	ErrBuyNotEnoughSolToCoverFees                                             = programError(6041, "BuyNotEnoughSolToCoverFees", "Buy: Not enough SOL to cover for fees.")
	ErrBuySlippageBelowMinTokensOut                                           = programError(6042, "BuySlippageBelowMinTokensOut", "Slippage: Would buy less tokens than expected min_tokens_out")
	ErrNameTooLong                                                            = programError(6043, "NameTooLong", "")
	ErrSymbolTooLong                                                          = programError(6044, "SymbolTooLong", "")
	ErrUriTooLong                                                             = programError(6045, "UriTooLong", "")
	ErrCreateV2Disabled                                                       = programError(6046, "CreateV2Disabled", "")
	ErrCpitializeMayhemFailed                                                 = programError(6047, "CpitializeMayhemFailed", "")
	ErrMayhemModeDisabled                                                     = programError(6048, "MayhemModeDisabled", "")
	ErrCreatorMigratedToSharingConfig                                         = programError(6049, "CreatorMigratedToSharingConfig", "creator has been migrated to sharing config")
	ErrUnableToDistributeCreatorVaultMigratedToSharingConfig                  = programError(6050, "UnableToDistributeCreatorVaultMigratedToSharingConfig", "creator_vault has been migrated to sharing config, use pump:distribute_creator_fees instead")
	ErrSharingConfigNotActive                                                 = programError(6051, "SharingConfigNotActive", "Sharing config is not active")
	ErrUnableToDistributeCreatorFeesToExecutableRecipient                     = programError(6052, "UnableToDistributeCreatorFeesToExecutableRecipient", "The recipient account is executable, so it cannot receive lamports, remove it from the team first")
	ErrBondingCurveAndSharingConfigCreatorMismatch                            = programError(6053, "BondingCurveAndSharingConfigCreatorMismatch", "Bonding curve creator does not match sharing config")
	ErrShareholdersAndRemainingAccountsMismatch                               = programError(6054, "ShareholdersAndRemainingAccountsMismatch", "Remaining accounts do not match shareholders, make sure to pass exactly the same pubkeys in the same order")
	ErrInvalidShareBps                                                        = programError(6055, "InvalidShareBps", "Share bps must be greater than 0")
	ErrCashbackNotEnabled                                                     = programError(6056, "CashbackNotEnabled", "Cashback is not enabled")
	ErrBuybackFeeRecipientNotAuthorized                                       = programError(6057, "BuybackFeeRecipientNotAuthorized", "Buyback fee recipient not authorized")
	ErrAllBuybackFeeRecipientsShouldBeNonZero                                 = programError(6058, "AllBuybackFeeRecipientsShouldBeNonZero", "")
	ErrNotUniqueBuybackFeeRecipients                                          = programError(6059, "NotUniqueBuybackFeeRecipients", "")
	ErrBuybackBasisPointsOutOfRange                                           = programError(6060, "BuybackBasisPointsOutOfRange", "buyback_basis_points must be <= 10_000")
	ErrWrongBuybackFeeRecipientsCount                                         = programError(6061, "WrongBuybackFeeRecipientsCount", "buyback fee recipients require exactly 8 remaining accounts (or none)")
	ErrBuybackFeeRecipientMissing                                             = programError(6062, "BuybackFeeRecipientMissing", "")
	ErrUnsupportedQuoteMint                                                   = programError(6063, "UnsupportedQuoteMint", "Unsupported quote mint")
	ErrInvalidQuoteTokenProgram                                               = programError(6064, "InvalidQuoteTokenProgram", "Create v2: quote token program must be SPL Token or Token-2022")
	ErrInvalidAssociatedQuoteBondingCurve                                     = programError(6065, "InvalidAssociatedQuoteBondingCurve", "Create v2: associated quote bonding curve address does not match derivation")
	ErrQuoteMintWhitelistFull                                                 = programError(6066, "QuoteMintWhitelistFull", "Quote mint whitelist is full")
	ErrQuoteMintAlreadyWhitelisted                                            = programError(6067, "QuoteMintAlreadyWhitelisted", "Quote mint is already whitelisted")
	ErrQuoteMintNotWhitelisted                                                = programError(6068, "QuoteMintNotWhitelisted", "Quote mint is not in the whitelist")
	ErrQuoteMintNotEligibleForWhitelist                                       = programError(6069, "QuoteMintNotEligibleForWhitelist", "Quote mint cannot be added or removed via whitelist (default or native SOL mint)")
	ErrUnableToDistributeCreatorFeesToUninitializedAccount                    = programError(6070, "UnableToDistributeCreatorFeesToUninitializedAccount", "Unable to distribute creator fees to uninitialized account")
	ErrMayhemModeQuoteMintNotAllowed                                          = programError(6071, "MayhemModeQuoteMintNotAllowed", "Mayhem mode quote mint not allowed")
	ErrMissingCashbackAccounts                                                = programError(6072, "MissingCashbackAccounts", "Cashback trade is missing the required remaining accounts")
	ErrInvalidCashbackAccumulator                                             = programError(6073, "InvalidCashbackAccumulator", "Cashback user_volume_accumulator account is invalid")
	ErrInvalidBondingCurveV2                                                  = programError(6074, "InvalidBondingCurveV2", "bonding_curve_v2 remaining account is missing or invalid")
	ErrInvalidQuoteControl                                                    = programError(6075, "InvalidQuoteControl", "quote_control remaining account does not match derivation or is uninitialized")
	ErrInvalidCashbackRecipient                                               = programError(6076, "InvalidCashbackRecipient", "Cashback recipient token account is not owned by user")
	ErrCreatorFeeNotConfigurable                                              = programError(6077, "CreatorFeeNotConfigurable", "Configurable creator fees are disabled")
	ErrCreatorFeeBpsOutOfRange                                                = programError(6078, "CreatorFeeBpsOutOfRange", "Creator fee basis points must be between 1 and the configured maximum")
	ErrCreatorFeeNotEditable                                                  = programError(6079, "CreatorFeeNotEditable", "Creator fee is not editable for this bonding curve")
	ErrCreatorFeeNotAllowedForCashbackCoin                                    = programError(6080, "CreatorFeeNotAllowedForCashbackCoin", "Creator fee cannot be configured for a cashback coin")
	ErrBondingCurveAlreadyMigrated                                            = programError(6081, "BondingCurveAlreadyMigrated", "Bonding curve has already migrated")
	ErrCashbackDeprecated                                                     = programError(6082, "CashbackDeprecated", "Cashback coins can no longer be created")
	ErrHolderRewardCreatorImmutable                                           = programError(6083, "HolderRewardCreatorImmutable", "The creator of a holder-reward coin cannot be changed")
	ErrHolderRewardDisabled                                                   = programError(6084, "HolderRewardDisabled", "Holder-reward coins are disabled")
	ErrHolderRewardRecipientsMismatch                                         = programError(6085, "HolderRewardRecipientsMismatch", "Holder-reward amounts and recipient accounts do not match")
	ErrHolderRewardsRentFloor                                                 = programError(6086, "HolderRewardsRentFloor", "The holder-rewards PDA cannot be left below its rent-exempt minimum")
	ErrHolderRewardTokenAccountMissing                                        = programError(6087, "HolderRewardTokenAccountMissing", "A holder-rewards token account is required on a token quote")
	ErrCtoNotAllowedForMayhemCoin                                             = programError(6088, "CtoNotAllowedForMayhemCoin", "CTO is not allowed on a mayhem-mode coin")
	ErrCtoNewCreatorRequired                                                  = programError(6089, "CtoNewCreatorRequired", "new_creator is required unless converting to holder rewards")
	ErrCtoNewCreatorNotAllowed                                                = programError(6090, "CtoNewCreatorNotAllowed", "new_creator must be omitted when converting to holder rewards")
	ErrCreatorFeeNotConfigurableForQuote                                      = programError(6091, "CreatorFeeNotConfigurableForQuote", "Creator fee is not configurable on a SOL or whitelisted quote; the fee schedule applies")
	ErrCtoCreatorAccountNotWritable                                           = programError(6092, "CtoCreatorAccountNotWritable", "current_creator must be passed writable so the outgoing creator can be paid")
	ErrCtoSharedVaultFrozen                                                   = programError(6093, "CtoSharedVaultFrozen", "A frozen sharing-config vault account holds a balance; thaw it before the holder conversion")
)
