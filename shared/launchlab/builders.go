package launchlab

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account counts of the instructions, remaining accounts not included.
const (
	InitializeV2FixedAccounts = 18
	TradeFixedAccounts        = 15
)

// Short names keep each access table on one line.
const ro, rw, rws = anchor.RO, anchor.RW, anchor.RWS

// InitializeV2Accounts are the accounts of initialize_v2 in the program's
// order.
type InitializeV2Accounts struct {
	Payer             solana.PublicKey // writable, signer: pays every new account
	Creator           solana.PublicKey // recorded as PoolState.Creator; need not sign
	GlobalConfig      solana.PublicKey
	PlatformConfig    solana.PublicKey
	Authority         solana.PublicKey
	PoolState         solana.PublicKey // writable
	BaseMint          solana.PublicKey // writable, signer: a new keypair
	QuoteMint         solana.PublicKey
	BaseVault         solana.PublicKey // writable
	QuoteVault        solana.PublicKey // writable
	MetadataAccount   solana.PublicKey // writable: the Metaplex PDA of BaseMint
	BaseTokenProgram  solana.PublicKey // SPL Token
	QuoteTokenProgram solana.PublicKey // SPL Token
	MetadataProgram   solana.PublicKey
	SystemProgram     solana.PublicKey
	RentProgram       solana.PublicKey
	EventAuthority    solana.PublicKey
	Program           solana.PublicKey
	// PlatformCurveRule, when set, follows the fixed accounts, read-only:
	// the platform restricts curve parameters (see PlatformCurveRulePDA).
	PlatformCurveRule solana.PublicKey
}

// FollowPlatform adds the platform's curve rule when platform (the launch's
// PlatformConfig as read) restricts curve parameters, as the SDK builds the
// launch: initialize_v2 then requires it.
func (a *InitializeV2Accounts) FollowPlatform(platform *PlatformConfig) {
	if platform.RestrictCurveParam != 0 {
		a.PlatformCurveRule = PlatformCurveRulePDA(a.PlatformConfig, a.GlobalConfig)
	}
}

var initializeV2Access = []anchor.Access{rws, ro, ro, ro, ro, rw, rws, ro, rw, rw, rw, ro, ro, ro, ro, ro, ro, ro}

func (a *InitializeV2Accounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{
		&a.Payer, &a.Creator, &a.GlobalConfig, &a.PlatformConfig, &a.Authority, &a.PoolState,
		&a.BaseMint, &a.QuoteMint, &a.BaseVault, &a.QuoteVault, &a.MetadataAccount,
		&a.BaseTokenProgram, &a.QuoteTokenProgram, &a.MetadataProgram, &a.SystemProgram,
		&a.RentProgram, &a.EventAuthority, &a.Program,
	}
}

// LaunchParams are what a launch's accounts depend on.
type LaunchParams struct {
	Payer          solana.PublicKey
	Creator        solana.PublicKey
	BaseMint       solana.PublicKey // the new mint keypair's public key
	QuoteMint      solana.PublicKey // WrappedSOLMint for a SOL launch
	GlobalConfig   solana.PublicKey // SOLConstantGlobalConfig for letsbonk
	PlatformConfig solana.PublicKey // LetsBonkPlatformConfig for letsbonk
}

// NewLetsBonkLaunch returns the LaunchParams of a letsbonk SOL launch of
// baseMint paid and created by creator.
func NewLetsBonkLaunch(creator, baseMint solana.PublicKey) LaunchParams {
	return LaunchParams{
		Payer: creator, Creator: creator, BaseMint: baseMint, QuoteMint: WrappedSOLMint,
		GlobalConfig: SOLConstantGlobalConfig, PlatformConfig: LetsBonkPlatformConfig,
	}
}

// NewInitializeV2Accounts derives every account of initialize_v2 from p.
func NewInitializeV2Accounts(p LaunchParams) InitializeV2Accounts {
	pool := PoolPDA(p.BaseMint, p.QuoteMint)
	return InitializeV2Accounts{
		Payer: p.Payer, Creator: p.Creator, GlobalConfig: p.GlobalConfig, PlatformConfig: p.PlatformConfig,
		Authority: AuthPDA, PoolState: pool, BaseMint: p.BaseMint, QuoteMint: p.QuoteMint,
		BaseVault: PoolVaultPDA(pool, p.BaseMint), QuoteVault: PoolVaultPDA(pool, p.QuoteMint),
		MetadataAccount: MetadataPDA(p.BaseMint), BaseTokenProgram: TokenProgramID, QuoteTokenProgram: TokenProgramID,
		MetadataProgram: MetaplexProgramID, SystemProgram: SystemProgramID, RentProgram: RentSysvarID,
		EventAuthority: EventAuthorityPDA, Program: ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *InitializeV2Accounts) Metas() solana.AccountMetaSlice {
	m := anchor.Metas(a.fields(), initializeV2Access)
	if !a.PlatformCurveRule.IsZero() {
		m = append(m, solana.Meta(a.PlatformCurveRule))
	}
	return m
}

// ParseInitializeV2Accounts reads the accounts of initialize_v2 in order;
// trailing platform accounts are not modelled.
func ParseInitializeV2Accounts(keys []solana.PublicKey) (InitializeV2Accounts, error) {
	var a InitializeV2Accounts
	return a, anchor.AssignAccounts("launchlab", "initialize_v2", keys, a.fields(), InitializeV2FixedAccounts)
}

// InitializeV2Instruction returns an initialize_v2 instruction.
func InitializeV2Instruction(a *InitializeV2Accounts, args InitializeV2Args) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// TradeAccounts are the accounts of buy_exact_in, buy_exact_out,
// sell_exact_in and sell_exact_out (the same list) in the program's order,
// then the remaining accounts the program requires since its creator-fee
// upgrade: the share-fee receiver (only with a share fee), the System
// program and the two fee vaults.
type TradeAccounts struct {
	Payer             solana.PublicKey // signer; writable, since it pays for a fee vault's creation
	Authority         solana.PublicKey
	GlobalConfig      solana.PublicKey
	PlatformConfig    solana.PublicKey
	PoolState         solana.PublicKey // writable
	UserBaseToken     solana.PublicKey // writable
	UserQuoteToken    solana.PublicKey // writable: the user's WSOL account in a SOL pool
	BaseVault         solana.PublicKey // writable
	QuoteVault        solana.PublicKey // writable
	BaseTokenMint     solana.PublicKey
	QuoteTokenMint    solana.PublicKey
	BaseTokenProgram  solana.PublicKey
	QuoteTokenProgram solana.PublicKey // SPL Token
	EventAuthority    solana.PublicKey
	Program           solana.PublicKey

	// ShareFeeReceiver is the referrer's quote token account; zero without
	// a share fee.
	ShareFeeReceiver solana.PublicKey // writable
	SystemProgram    solana.PublicKey
	PlatformFeeVault solana.PublicKey // writable
	CreatorFeeVault  solana.PublicKey // writable
}

func (a *TradeAccounts) fields() []*solana.PublicKey {
	f := []*solana.PublicKey{
		&a.Payer, &a.Authority, &a.GlobalConfig, &a.PlatformConfig, &a.PoolState, &a.UserBaseToken,
		&a.UserQuoteToken, &a.BaseVault, &a.QuoteVault, &a.BaseTokenMint, &a.QuoteTokenMint,
		&a.BaseTokenProgram, &a.QuoteTokenProgram, &a.EventAuthority, &a.Program,
	}
	if !a.ShareFeeReceiver.IsZero() {
		f = append(f, &a.ShareFeeReceiver)
	}
	return append(f, &a.SystemProgram, &a.PlatformFeeVault, &a.CreatorFeeVault)
}

var tradeAccess = []anchor.Access{rws, ro, ro, ro, rw, rw, rw, rw, rw, ro, ro, ro, ro, ro, ro}

// TradeParams are what a trade's accounts depend on: the pool's own fields
// and the trader.
type TradeParams struct {
	User           solana.PublicKey
	BaseMint       solana.PublicKey
	QuoteMint      solana.PublicKey
	GlobalConfig   solana.PublicKey // PoolState.GlobalConfig
	PlatformConfig solana.PublicKey // PoolState.PlatformConfig
	Creator        solana.PublicKey // PoolState.Creator: selects the creator fee vault
	// BaseTokenProgram owns BaseMint (PoolState.BaseTokenProgram()).
	BaseTokenProgram solana.PublicKey
	// ShareFeeReceiver is a referrer's quote token account, or zero.
	ShareFeeReceiver solana.PublicKey
}

// TradeParamsOf returns the TradeParams of user trading in pool.
func TradeParamsOf(user solana.PublicKey, pool *PoolState) TradeParams {
	return TradeParams{
		User: user, BaseMint: pool.BaseMint, QuoteMint: pool.QuoteMint, GlobalConfig: pool.GlobalConfig,
		PlatformConfig: pool.PlatformConfig, Creator: pool.Creator, BaseTokenProgram: pool.BaseTokenProgram(),
	}
}

// NewTradeAccounts derives every account of a trade from p; the user's
// token accounts are its associated token accounts.
func NewTradeAccounts(p TradeParams) TradeAccounts {
	pool := PoolPDA(p.BaseMint, p.QuoteMint)
	baseProg := p.BaseTokenProgram
	if baseProg.IsZero() {
		baseProg = TokenProgramID
	}
	return TradeAccounts{
		Payer: p.User, Authority: AuthPDA, GlobalConfig: p.GlobalConfig, PlatformConfig: p.PlatformConfig,
		PoolState: pool, UserBaseToken: AssociatedTokenAddress(p.User, p.BaseMint, baseProg),
		UserQuoteToken: AssociatedTokenAddress(p.User, p.QuoteMint, TokenProgramID),
		BaseVault:      PoolVaultPDA(pool, p.BaseMint), QuoteVault: PoolVaultPDA(pool, p.QuoteMint),
		BaseTokenMint: p.BaseMint, QuoteTokenMint: p.QuoteMint, BaseTokenProgram: baseProg,
		QuoteTokenProgram: TokenProgramID, EventAuthority: EventAuthorityPDA, Program: ProgramID,
		ShareFeeReceiver: p.ShareFeeReceiver, SystemProgram: SystemProgramID,
		PlatformFeeVault: PlatformFeeVaultPDA(p.PlatformConfig, p.QuoteMint),
		CreatorFeeVault:  CreatorFeeVaultPDA(p.Creator, p.QuoteMint),
	}
}

// Metas returns the ordered account list with the remaining accounts.
func (a *TradeAccounts) Metas() solana.AccountMetaSlice {
	acc := append([]anchor.Access(nil), tradeAccess...)
	if !a.ShareFeeReceiver.IsZero() {
		acc = append(acc, rw)
	}
	return anchor.Metas(a.fields(), append(acc, ro, rw, rw))
}

// ParseTradeAccounts reads the accounts of a trade in order; withShare says
// whether the remaining accounts start with the share-fee receiver (the
// instruction's share_fee_rate is not zero). Absent remaining accounts are
// zero keys.
func ParseTradeAccounts(keys []solana.PublicKey, withShare bool) (TradeAccounts, error) {
	var a TradeAccounts
	f := a.fields()[:TradeFixedAccounts]
	if withShare {
		f = append(f, &a.ShareFeeReceiver)
	}
	f = append(f, &a.SystemProgram, &a.PlatformFeeVault, &a.CreatorFeeVault)
	return a, anchor.AssignAccounts("launchlab", "trade", keys, f, TradeFixedAccounts)
}

// BuyExactInInstruction returns a buy_exact_in instruction.
func BuyExactInInstruction(a *TradeAccounts, args BuyExactInArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// SellExactInInstruction returns a sell_exact_in instruction.
func SellExactInInstruction(a *TradeAccounts, args SellExactInArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}
