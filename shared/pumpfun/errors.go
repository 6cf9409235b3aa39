package pumpfun

import "fmt"

// ProgramError is an error the pump.fun program returns, as a custom program
// error code (Anchor's 6000 + index) with its IDL name and message.
type ProgramError struct {
	Code uint32
	Name string
	Msg  string
}

// Error returns the code, name and message.
func (e *ProgramError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("pump error %d %s", e.Code, e.Name)
	}
	return fmt.Sprintf("pump error %d %s: %s", e.Code, e.Name, e.Msg)
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

// ProgramErrors lists every error of the program (IDL errors[]) in code
// order.
var ProgramErrors = []*ProgramError{
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

var programErrorsByCode = func() map[uint32]*ProgramError {
	m := make(map[uint32]*ProgramError, len(ProgramErrors))
	for _, e := range ProgramErrors {
		m[e.Code] = e
	}
	return m
}()

// The program's errors (IDL errors[]).
var (
	ErrNotAuthorized                                                          = &ProgramError{6000, "NotAuthorized", "The given account is not authorized to execute this instruction."}
	ErrAlreadyInitialized                                                     = &ProgramError{6001, "AlreadyInitialized", "The program is already initialized."}
	ErrTooMuchSolRequired                                                     = &ProgramError{6002, "TooMuchSolRequired", "slippage: Too much SOL required to buy the given amount of tokens."}
	ErrTooLittleSolReceived                                                   = &ProgramError{6003, "TooLittleSolReceived", "slippage: Too little SOL received to sell the given amount of tokens."}
	ErrMintDoesNotMatchBondingCurve                                           = &ProgramError{6004, "MintDoesNotMatchBondingCurve", "The mint does not match the bonding curve."}
	ErrBondingCurveComplete                                                   = &ProgramError{6005, "BondingCurveComplete", "The bonding curve has completed and liquidity migrated to raydium."}
	ErrBondingCurveNotComplete                                                = &ProgramError{6006, "BondingCurveNotComplete", "The bonding curve has not completed."}
	ErrNotInitialized                                                         = &ProgramError{6007, "NotInitialized", "The program is not initialized."}
	ErrWithdrawTooFrequent                                                    = &ProgramError{6008, "WithdrawTooFrequent", "Withdraw too frequent"}
	ErrNewSizeShouldBeGreaterThanCurrentSize                                  = &ProgramError{6009, "NewSizeShouldBeGreaterThanCurrentSize", "new_size should be > current_size"}
	ErrAccountTypeNotSupported                                                = &ProgramError{6010, "AccountTypeNotSupported", "Account type not supported"}
	ErrInitialRealTokenReservesShouldBeLessThanTokenTotalSupply               = &ProgramError{6011, "InitialRealTokenReservesShouldBeLessThanTokenTotalSupply", "initial_real_token_reserves should be less than token_total_supply"}
	ErrInitialVirtualTokenReservesShouldBeGreaterThanInitialRealTokenReserves = &ProgramError{6012, "InitialVirtualTokenReservesShouldBeGreaterThanInitialRealTokenReserves", "initial_virtual_token_reserves should be greater than initial_real_token_reserves"}
	ErrFeeBasisPointsGreaterThanMaximum                                       = &ProgramError{6013, "FeeBasisPointsGreaterThanMaximum", "fee_basis_points greater than maximum"}
	ErrAllZerosWithdrawAuthority                                              = &ProgramError{6014, "AllZerosWithdrawAuthority", "Withdraw authority cannot be set to System Program ID"}
	ErrPoolMigrationFeeShouldBeLessThanFinalRealSolReserves                   = &ProgramError{6015, "PoolMigrationFeeShouldBeLessThanFinalRealSolReserves", "pool_migration_fee should be less than final_real_sol_reserves"}
	ErrPoolMigrationFeeShouldBeGreaterThanCreatorFeePlusMaxMigrateFees        = &ProgramError{6016, "PoolMigrationFeeShouldBeGreaterThanCreatorFeePlusMaxMigrateFees", "pool_migration_fee should be greater than creator_fee + MAX_MIGRATE_FEES"}
	ErrDisabledWithdraw                                                       = &ProgramError{6017, "DisabledWithdraw", "Migrate instruction is disabled"}
	ErrDisabledMigrate                                                        = &ProgramError{6018, "DisabledMigrate", "Migrate instruction is disabled"}
	ErrInvalidCreator                                                         = &ProgramError{6019, "InvalidCreator", "Invalid creator pubkey"}
	ErrBuyZeroAmount                                                          = &ProgramError{6020, "BuyZeroAmount", "Buy zero amount"}
	ErrNotEnoughTokensToBuy                                                   = &ProgramError{6021, "NotEnoughTokensToBuy", "Not enough tokens to buy"}
	ErrSellZeroAmount                                                         = &ProgramError{6022, "SellZeroAmount", "Sell zero amount"}
	ErrNotEnoughTokensToSell                                                  = &ProgramError{6023, "NotEnoughTokensToSell", "Not enough tokens to sell"}
	ErrOverflow                                                               = &ProgramError{6024, "Overflow", "Overflow"}
	ErrTruncation                                                             = &ProgramError{6025, "Truncation", "Truncation"}
	ErrDivisionByZero                                                         = &ProgramError{6026, "DivisionByZero", "Division by zero"}
	ErrNotEnoughRemainingAccounts                                             = &ProgramError{6027, "NotEnoughRemainingAccounts", "Not enough remaining accounts"}
	ErrAllFeeRecipientsShouldBeNonZero                                        = &ProgramError{6028, "AllFeeRecipientsShouldBeNonZero", "All fee recipients should be non-zero"}
	ErrUnsortedNotUniqueFeeRecipients                                         = &ProgramError{6029, "UnsortedNotUniqueFeeRecipients", "Unsorted or not unique fee recipients"}
	ErrCreatorShouldNotBeZero                                                 = &ProgramError{6030, "CreatorShouldNotBeZero", "Creator should not be zero"}
	ErrStartTimeInThePast                                                     = &ProgramError{6031, "StartTimeInThePast", ""}
	ErrEndTimeInThePast                                                       = &ProgramError{6032, "EndTimeInThePast", ""}
	ErrEndTimeBeforeStartTime                                                 = &ProgramError{6033, "EndTimeBeforeStartTime", ""}
	ErrTimeRangeTooLarge                                                      = &ProgramError{6034, "TimeRangeTooLarge", ""}
	ErrEndTimeBeforeCurrentDay                                                = &ProgramError{6035, "EndTimeBeforeCurrentDay", ""}
	ErrSupplyUpdateForFinishedRange                                           = &ProgramError{6036, "SupplyUpdateForFinishedRange", ""}
	ErrDayIndexAfterEndIndex                                                  = &ProgramError{6037, "DayIndexAfterEndIndex", ""}
	ErrDayInActiveRange                                                       = &ProgramError{6038, "DayInActiveRange", ""}
	ErrInvalidIncentiveMint                                                   = &ProgramError{6039, "InvalidIncentiveMint", ""}
	ErrBuyNotEnoughSolToCoverRent                                             = &ProgramError{6040, "BuyNotEnoughSolToCoverRent", "Buy: Not enough SOL to cover for rent exemption."}
	ErrBuyNotEnoughSolToCoverFees                                             = &ProgramError{6041, "BuyNotEnoughSolToCoverFees", "Buy: Not enough SOL to cover for fees."}
	ErrBuySlippageBelowMinTokensOut                                           = &ProgramError{6042, "BuySlippageBelowMinTokensOut", "Slippage: Would buy less tokens than expected min_tokens_out"}
	ErrNameTooLong                                                            = &ProgramError{6043, "NameTooLong", ""}
	ErrSymbolTooLong                                                          = &ProgramError{6044, "SymbolTooLong", ""}
	ErrUriTooLong                                                             = &ProgramError{6045, "UriTooLong", ""}
	ErrCreateV2Disabled                                                       = &ProgramError{6046, "CreateV2Disabled", ""}
	ErrCpitializeMayhemFailed                                                 = &ProgramError{6047, "CpitializeMayhemFailed", ""}
	ErrMayhemModeDisabled                                                     = &ProgramError{6048, "MayhemModeDisabled", ""}
	ErrCreatorMigratedToSharingConfig                                         = &ProgramError{6049, "CreatorMigratedToSharingConfig", "creator has been migrated to sharing config"}
	ErrUnableToDistributeCreatorVaultMigratedToSharingConfig                  = &ProgramError{6050, "UnableToDistributeCreatorVaultMigratedToSharingConfig", "creator_vault has been migrated to sharing config, use pump:distribute_creator_fees instead"}
	ErrSharingConfigNotActive                                                 = &ProgramError{6051, "SharingConfigNotActive", "Sharing config is not active"}
	ErrUnableToDistributeCreatorFeesToExecutableRecipient                     = &ProgramError{6052, "UnableToDistributeCreatorFeesToExecutableRecipient", "The recipient account is executable, so it cannot receive lamports, remove it from the team first"}
	ErrBondingCurveAndSharingConfigCreatorMismatch                            = &ProgramError{6053, "BondingCurveAndSharingConfigCreatorMismatch", "Bonding curve creator does not match sharing config"}
	ErrShareholdersAndRemainingAccountsMismatch                               = &ProgramError{6054, "ShareholdersAndRemainingAccountsMismatch", "Remaining accounts do not match shareholders, make sure to pass exactly the same pubkeys in the same order"}
	ErrInvalidShareBps                                                        = &ProgramError{6055, "InvalidShareBps", "Share bps must be greater than 0"}
	ErrCashbackNotEnabled                                                     = &ProgramError{6056, "CashbackNotEnabled", "Cashback is not enabled"}
	ErrBuybackFeeRecipientNotAuthorized                                       = &ProgramError{6057, "BuybackFeeRecipientNotAuthorized", "Buyback fee recipient not authorized"}
	ErrAllBuybackFeeRecipientsShouldBeNonZero                                 = &ProgramError{6058, "AllBuybackFeeRecipientsShouldBeNonZero", ""}
	ErrNotUniqueBuybackFeeRecipients                                          = &ProgramError{6059, "NotUniqueBuybackFeeRecipients", ""}
	ErrBuybackBasisPointsOutOfRange                                           = &ProgramError{6060, "BuybackBasisPointsOutOfRange", "buyback_basis_points must be <= 10_000"}
	ErrWrongBuybackFeeRecipientsCount                                         = &ProgramError{6061, "WrongBuybackFeeRecipientsCount", "buyback fee recipients require exactly 8 remaining accounts (or none)"}
	ErrBuybackFeeRecipientMissing                                             = &ProgramError{6062, "BuybackFeeRecipientMissing", ""}
	ErrUnsupportedQuoteMint                                                   = &ProgramError{6063, "UnsupportedQuoteMint", "Unsupported quote mint"}
	ErrInvalidQuoteTokenProgram                                               = &ProgramError{6064, "InvalidQuoteTokenProgram", "Create v2: quote token program must be SPL Token or Token-2022"}
	ErrInvalidAssociatedQuoteBondingCurve                                     = &ProgramError{6065, "InvalidAssociatedQuoteBondingCurve", "Create v2: associated quote bonding curve address does not match derivation"}
	ErrQuoteMintWhitelistFull                                                 = &ProgramError{6066, "QuoteMintWhitelistFull", "Quote mint whitelist is full"}
	ErrQuoteMintAlreadyWhitelisted                                            = &ProgramError{6067, "QuoteMintAlreadyWhitelisted", "Quote mint is already whitelisted"}
	ErrQuoteMintNotWhitelisted                                                = &ProgramError{6068, "QuoteMintNotWhitelisted", "Quote mint is not in the whitelist"}
	ErrQuoteMintNotEligibleForWhitelist                                       = &ProgramError{6069, "QuoteMintNotEligibleForWhitelist", "Quote mint cannot be added or removed via whitelist (default or native SOL mint)"}
	ErrUnableToDistributeCreatorFeesToUninitializedAccount                    = &ProgramError{6070, "UnableToDistributeCreatorFeesToUninitializedAccount", "Unable to distribute creator fees to uninitialized account"}
	ErrMayhemModeQuoteMintNotAllowed                                          = &ProgramError{6071, "MayhemModeQuoteMintNotAllowed", "Mayhem mode quote mint not allowed"}
	ErrMissingCashbackAccounts                                                = &ProgramError{6072, "MissingCashbackAccounts", "Cashback trade is missing the required remaining accounts"}
	ErrInvalidCashbackAccumulator                                             = &ProgramError{6073, "InvalidCashbackAccumulator", "Cashback user_volume_accumulator account is invalid"}
	ErrInvalidBondingCurveV2                                                  = &ProgramError{6074, "InvalidBondingCurveV2", "bonding_curve_v2 remaining account is missing or invalid"}
	ErrInvalidQuoteControl                                                    = &ProgramError{6075, "InvalidQuoteControl", "quote_control remaining account does not match derivation or is uninitialized"}
	ErrInvalidCashbackRecipient                                               = &ProgramError{6076, "InvalidCashbackRecipient", "Cashback recipient token account is not owned by user"}
	ErrCreatorFeeNotConfigurable                                              = &ProgramError{6077, "CreatorFeeNotConfigurable", "Configurable creator fees are disabled"}
	ErrCreatorFeeBpsOutOfRange                                                = &ProgramError{6078, "CreatorFeeBpsOutOfRange", "Creator fee basis points must be between 1 and the configured maximum"}
	ErrCreatorFeeNotEditable                                                  = &ProgramError{6079, "CreatorFeeNotEditable", "Creator fee is not editable for this bonding curve"}
	ErrCreatorFeeNotAllowedForCashbackCoin                                    = &ProgramError{6080, "CreatorFeeNotAllowedForCashbackCoin", "Creator fee cannot be configured for a cashback coin"}
	ErrBondingCurveAlreadyMigrated                                            = &ProgramError{6081, "BondingCurveAlreadyMigrated", "Bonding curve has already migrated"}
	ErrCashbackDeprecated                                                     = &ProgramError{6082, "CashbackDeprecated", "Cashback coins can no longer be created"}
	ErrHolderRewardCreatorImmutable                                           = &ProgramError{6083, "HolderRewardCreatorImmutable", "The creator of a holder-reward coin cannot be changed"}
	ErrHolderRewardDisabled                                                   = &ProgramError{6084, "HolderRewardDisabled", "Holder-reward coins are disabled"}
	ErrHolderRewardRecipientsMismatch                                         = &ProgramError{6085, "HolderRewardRecipientsMismatch", "Holder-reward amounts and recipient accounts do not match"}
	ErrHolderRewardsRentFloor                                                 = &ProgramError{6086, "HolderRewardsRentFloor", "The holder-rewards PDA cannot be left below its rent-exempt minimum"}
	ErrHolderRewardTokenAccountMissing                                        = &ProgramError{6087, "HolderRewardTokenAccountMissing", "A holder-rewards token account is required on a token quote"}
	ErrCtoNotAllowedForMayhemCoin                                             = &ProgramError{6088, "CtoNotAllowedForMayhemCoin", "CTO is not allowed on a mayhem-mode coin"}
	ErrCtoNewCreatorRequired                                                  = &ProgramError{6089, "CtoNewCreatorRequired", "new_creator is required unless converting to holder rewards"}
	ErrCtoNewCreatorNotAllowed                                                = &ProgramError{6090, "CtoNewCreatorNotAllowed", "new_creator must be omitted when converting to holder rewards"}
	ErrCreatorFeeNotConfigurableForQuote                                      = &ProgramError{6091, "CreatorFeeNotConfigurableForQuote", "Creator fee is not configurable on a SOL or whitelisted quote; the fee schedule applies"}
	ErrCtoCreatorAccountNotWritable                                           = &ProgramError{6092, "CtoCreatorAccountNotWritable", "current_creator must be passed writable so the outgoing creator can be paid"}
	ErrCtoSharedVaultFrozen                                                   = &ProgramError{6093, "CtoSharedVaultFrozen", "A frozen sharing-config vault account holds a balance; thaw it before the holder conversion"}
)
