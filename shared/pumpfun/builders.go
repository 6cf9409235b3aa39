package pumpfun

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account counts of the instructions, remaining accounts not included.
const (
	BuyFixedAccounts           = 16
	SellFixedAccounts          = 14
	CreateV2FixedAccounts      = 16
	CreateFixedAccounts        = 14
	ExtendAccountFixedAccounts = 5
)

// Short names keep each access table on one line.
const ro, rw, rws = anchor.RO, anchor.RW, anchor.RWS

// TradeParams are what a trade's accounts depend on besides the fixed PDAs.
type TradeParams struct {
	Mint solana.PublicKey
	User solana.PublicKey
	// Creator is BondingCurve.Creator; it selects the creator vault.
	Creator solana.PublicKey
	// TokenProgram owns Mint: SPL Token or Token-2022.
	TokenProgram solana.PublicKey
	// FeeRecipient is one of Global.FeeRecipientCandidates(curve.IsMayhemMode).
	FeeRecipient solana.PublicKey
	// BuybackFeeRecipient is one of Global.BuybackFeeRecipientCandidates.
	BuybackFeeRecipient solana.PublicKey
}

// BuyAccounts are the accounts of buy and buy_exact_sol_in in the program's
// order, then the remaining accounts the current program requires.
type BuyAccounts struct {
	Global                  solana.PublicKey
	FeeRecipient            solana.PublicKey // writable
	Mint                    solana.PublicKey
	BondingCurve            solana.PublicKey // writable
	AssociatedBondingCurve  solana.PublicKey // writable
	AssociatedUser          solana.PublicKey // writable: the user's token account
	User                    solana.PublicKey // writable, signer
	SystemProgram           solana.PublicKey
	TokenProgram            solana.PublicKey
	CreatorVault            solana.PublicKey // writable
	EventAuthority          solana.PublicKey
	Program                 solana.PublicKey
	GlobalVolumeAccumulator solana.PublicKey
	UserVolumeAccumulator   solana.PublicKey // writable
	FeeConfig               solana.PublicKey
	FeeProgram              solana.PublicKey

	// Remaining accounts: without them the program fails with 6074.
	BondingCurveV2      solana.PublicKey
	BuybackFeeRecipient solana.PublicKey // writable
}

var buyAccess = []anchor.Access{ro, rw, ro, rw, rw, rw, rws, ro, ro, rw, ro, ro, ro, rw, ro, ro, ro, rw}

func (a *BuyAccounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{
		&a.Global, &a.FeeRecipient, &a.Mint, &a.BondingCurve, &a.AssociatedBondingCurve,
		&a.AssociatedUser, &a.User, &a.SystemProgram, &a.TokenProgram, &a.CreatorVault,
		&a.EventAuthority, &a.Program, &a.GlobalVolumeAccumulator, &a.UserVolumeAccumulator,
		&a.FeeConfig, &a.FeeProgram, &a.BondingCurveV2, &a.BuybackFeeRecipient,
	}
}

// NewBuyAccounts derives every account of a buy from p.
func NewBuyAccounts(p TradeParams) BuyAccounts {
	curve := BondingCurvePDA(p.Mint)
	return BuyAccounts{
		Global:                  GlobalPDA,
		FeeRecipient:            p.FeeRecipient,
		Mint:                    p.Mint,
		BondingCurve:            curve,
		AssociatedBondingCurve:  AssociatedTokenAddress(curve, p.Mint, p.TokenProgram),
		AssociatedUser:          AssociatedTokenAddress(p.User, p.Mint, p.TokenProgram),
		User:                    p.User,
		SystemProgram:           SystemProgramID,
		TokenProgram:            p.TokenProgram,
		CreatorVault:            CreatorVaultPDA(p.Creator),
		EventAuthority:          EventAuthorityPDA,
		Program:                 ProgramID,
		GlobalVolumeAccumulator: GlobalVolumeAccumulatorPDA,
		UserVolumeAccumulator:   UserVolumeAccumulatorPDA(p.User),
		FeeConfig:               FeeConfigPDA,
		FeeProgram:              FeeProgramID,
		BondingCurveV2:          BondingCurveV2PDA(p.Mint),
		BuybackFeeRecipient:     p.BuybackFeeRecipient,
	}
}

// Metas returns the ordered account list with the remaining accounts.
func (a *BuyAccounts) Metas() solana.AccountMetaSlice { return anchor.Metas(a.fields(), buyAccess) }

// ParseBuyAccounts reads the accounts of a buy or buy_exact_sol_in
// instruction in order. The remaining accounts are optional here (zero keys
// when absent); the program requires them.
func ParseBuyAccounts(keys []solana.PublicKey) (BuyAccounts, error) {
	var a BuyAccounts
	return a, anchor.AssignAccounts("pumpfun", "buy", keys, a.fields(), BuyFixedAccounts)
}

// BuyInstruction returns a buy instruction.
func BuyInstruction(a *BuyAccounts, args BuyArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// BuyExactSolInInstruction returns a buy_exact_sol_in instruction; it takes
// the same accounts as buy.
func BuyExactSolInInstruction(a *BuyAccounts, args BuyExactSolInArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// SellAccounts are the accounts of sell in the program's order (note
// creator_vault before token_program, unlike buy), then the remaining
// accounts.
type SellAccounts struct {
	Global                 solana.PublicKey
	FeeRecipient           solana.PublicKey // writable
	Mint                   solana.PublicKey
	BondingCurve           solana.PublicKey // writable
	AssociatedBondingCurve solana.PublicKey // writable
	AssociatedUser         solana.PublicKey // writable
	User                   solana.PublicKey // writable, signer
	SystemProgram          solana.PublicKey
	CreatorVault           solana.PublicKey // writable
	TokenProgram           solana.PublicKey
	EventAuthority         solana.PublicKey
	Program                solana.PublicKey
	FeeConfig              solana.PublicKey
	FeeProgram             solana.PublicKey

	// Cashback is set for a cashback coin (BondingCurve.IsCashbackCoin): the
	// remaining accounts then start with UserVolumeAccumulator, which
	// receives the creator fee.
	Cashback              bool
	UserVolumeAccumulator solana.PublicKey // writable, cashback coins only
	BondingCurveV2        solana.PublicKey
	BuybackFeeRecipient   solana.PublicKey // writable
}

func (a *SellAccounts) fields() []*solana.PublicKey {
	f := []*solana.PublicKey{
		&a.Global, &a.FeeRecipient, &a.Mint, &a.BondingCurve, &a.AssociatedBondingCurve,
		&a.AssociatedUser, &a.User, &a.SystemProgram, &a.CreatorVault, &a.TokenProgram,
		&a.EventAuthority, &a.Program, &a.FeeConfig, &a.FeeProgram,
	}
	if a.Cashback {
		f = append(f, &a.UserVolumeAccumulator)
	}
	return append(f, &a.BondingCurveV2, &a.BuybackFeeRecipient)
}

var (
	sellAccess         = []anchor.Access{ro, rw, ro, rw, rw, rw, rws, ro, rw, ro, ro, ro, ro, ro, ro, rw}
	sellCashbackAccess = []anchor.Access{ro, rw, ro, rw, rw, rw, rws, ro, rw, ro, ro, ro, ro, ro, rw, ro, rw}
)

// NewSellAccounts derives every account of a sell from p; cashback is
// BondingCurve.IsCashbackCoin.
func NewSellAccounts(p TradeParams, cashback bool) SellAccounts {
	curve := BondingCurvePDA(p.Mint)
	a := SellAccounts{
		Global:                 GlobalPDA,
		FeeRecipient:           p.FeeRecipient,
		Mint:                   p.Mint,
		BondingCurve:           curve,
		AssociatedBondingCurve: AssociatedTokenAddress(curve, p.Mint, p.TokenProgram),
		AssociatedUser:         AssociatedTokenAddress(p.User, p.Mint, p.TokenProgram),
		User:                   p.User,
		SystemProgram:          SystemProgramID,
		CreatorVault:           CreatorVaultPDA(p.Creator),
		TokenProgram:           p.TokenProgram,
		EventAuthority:         EventAuthorityPDA,
		Program:                ProgramID,
		FeeConfig:              FeeConfigPDA,
		FeeProgram:             FeeProgramID,
		Cashback:               cashback,
		BondingCurveV2:         BondingCurveV2PDA(p.Mint),
		BuybackFeeRecipient:    p.BuybackFeeRecipient,
	}
	if cashback {
		a.UserVolumeAccumulator = UserVolumeAccumulatorPDA(p.User)
	}
	return a
}

// Metas returns the ordered account list with the remaining accounts.
func (a *SellAccounts) Metas() solana.AccountMetaSlice {
	if a.Cashback {
		return anchor.Metas(a.fields(), sellCashbackAccess)
	}
	return anchor.Metas(a.fields(), sellAccess)
}

// ParseSellAccounts reads the accounts of a sell instruction in order;
// cashback (BondingCurve.IsCashbackCoin) says whether the remaining accounts
// start with the user volume accumulator. Remaining accounts are optional
// here (zero keys when absent).
func ParseSellAccounts(keys []solana.PublicKey, cashback bool) (SellAccounts, error) {
	a := SellAccounts{Cashback: cashback}
	return a, anchor.AssignAccounts("pumpfun", "sell", keys, a.fields(), SellFixedAccounts)
}

// SellInstruction returns a sell instruction.
func SellInstruction(a *SellAccounts, args SellArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// CreateV2Accounts are the accounts of create_v2 in the program's order. The
// mayhem accounts are passed even when the coin is not in mayhem mode.
type CreateV2Accounts struct {
	Mint                   solana.PublicKey // writable, signer: a new keypair
	MintAuthority          solana.PublicKey
	BondingCurve           solana.PublicKey // writable
	AssociatedBondingCurve solana.PublicKey // writable, under Token-2022
	Global                 solana.PublicKey
	User                   solana.PublicKey // writable, signer
	SystemProgram          solana.PublicKey
	TokenProgram           solana.PublicKey // Token-2022
	AssociatedTokenProgram solana.PublicKey
	MayhemProgram          solana.PublicKey // writable, as the IDL marks it
	GlobalParams           solana.PublicKey
	SolVault               solana.PublicKey // writable
	MayhemState            solana.PublicKey // writable
	MayhemTokenVault       solana.PublicKey // writable
	EventAuthority         solana.PublicKey
	Program                solana.PublicKey
}

var createV2Access = []anchor.Access{rws, ro, rw, rw, ro, rws, ro, ro, ro, rw, ro, rw, rw, rw, ro, ro}

func (a *CreateV2Accounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{
		&a.Mint, &a.MintAuthority, &a.BondingCurve, &a.AssociatedBondingCurve, &a.Global,
		&a.User, &a.SystemProgram, &a.TokenProgram, &a.AssociatedTokenProgram, &a.MayhemProgram,
		&a.GlobalParams, &a.SolVault, &a.MayhemState, &a.MayhemTokenVault, &a.EventAuthority,
		&a.Program,
	}
}

// NewCreateV2Accounts derives every account of a SOL-quoted create_v2.
func NewCreateV2Accounts(mint, user solana.PublicKey) CreateV2Accounts {
	curve := BondingCurvePDA(mint)
	return CreateV2Accounts{
		Mint:                   mint,
		MintAuthority:          MintAuthorityPDA,
		BondingCurve:           curve,
		AssociatedBondingCurve: AssociatedTokenAddress(curve, mint, Token2022ProgramID),
		Global:                 GlobalPDA,
		User:                   user,
		SystemProgram:          SystemProgramID,
		TokenProgram:           Token2022ProgramID,
		AssociatedTokenProgram: AssociatedTokenProgramID,
		MayhemProgram:          MayhemProgramID,
		GlobalParams:           MayhemGlobalParamsPDA,
		SolVault:               MayhemSolVaultPDA,
		MayhemState:            MayhemStatePDA(mint),
		MayhemTokenVault:       MayhemTokenVault(mint),
		EventAuthority:         EventAuthorityPDA,
		Program:                ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *CreateV2Accounts) Metas() solana.AccountMetaSlice {
	return anchor.Metas(a.fields(), createV2Access)
}

// ParseCreateV2Accounts reads the accounts of a create_v2 instruction in
// order; remaining accounts (a non-SOL quote) are not modelled.
func ParseCreateV2Accounts(keys []solana.PublicKey) (CreateV2Accounts, error) {
	var a CreateV2Accounts
	return a, anchor.AssignAccounts("pumpfun", "create_v2", keys, a.fields(), CreateV2FixedAccounts)
}

// CreateV2Instruction returns a create_v2 instruction.
func CreateV2Instruction(a *CreateV2Accounts, args CreateV2Args) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// CreateAccounts are the accounts of the deprecated create in the program's
// order.
type CreateAccounts struct {
	Mint                   solana.PublicKey // writable, signer
	MintAuthority          solana.PublicKey
	BondingCurve           solana.PublicKey // writable
	AssociatedBondingCurve solana.PublicKey // writable, under SPL Token
	Global                 solana.PublicKey
	MplTokenMetadata       solana.PublicKey
	Metadata               solana.PublicKey // writable
	User                   solana.PublicKey // writable, signer
	SystemProgram          solana.PublicKey
	TokenProgram           solana.PublicKey // SPL Token
	AssociatedTokenProgram solana.PublicKey
	Rent                   solana.PublicKey
	EventAuthority         solana.PublicKey
	Program                solana.PublicKey
}

var createAccess = []anchor.Access{rws, ro, rw, rw, ro, ro, rw, rws, ro, ro, ro, ro, ro, ro}

func (a *CreateAccounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{
		&a.Mint, &a.MintAuthority, &a.BondingCurve, &a.AssociatedBondingCurve, &a.Global,
		&a.MplTokenMetadata, &a.Metadata, &a.User, &a.SystemProgram, &a.TokenProgram,
		&a.AssociatedTokenProgram, &a.Rent, &a.EventAuthority, &a.Program,
	}
}

// NewCreateAccounts derives every account of a legacy create.
func NewCreateAccounts(mint, user solana.PublicKey) CreateAccounts {
	curve := BondingCurvePDA(mint)
	return CreateAccounts{
		Mint:                   mint,
		MintAuthority:          MintAuthorityPDA,
		BondingCurve:           curve,
		AssociatedBondingCurve: AssociatedTokenAddress(curve, mint, TokenProgramID),
		Global:                 GlobalPDA,
		MplTokenMetadata:       MetaplexProgramID,
		Metadata:               MetadataPDA(mint),
		User:                   user,
		SystemProgram:          SystemProgramID,
		TokenProgram:           TokenProgramID,
		AssociatedTokenProgram: AssociatedTokenProgramID,
		Rent:                   RentSysvarID,
		EventAuthority:         EventAuthorityPDA,
		Program:                ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *CreateAccounts) Metas() solana.AccountMetaSlice {
	return anchor.Metas(a.fields(), createAccess)
}

// ParseCreateAccounts reads the accounts of a create instruction in order.
func ParseCreateAccounts(keys []solana.PublicKey) (CreateAccounts, error) {
	var a CreateAccounts
	return a, anchor.AssignAccounts("pumpfun", "create", keys, a.fields(), CreateFixedAccounts)
}

// CreateInstruction returns a legacy create instruction.
func CreateInstruction(a *CreateAccounts, args CreateArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// ExtendAccountAccounts are the accounts of extend_account.
type ExtendAccountAccounts struct {
	Account        solana.PublicKey // writable: the program-owned account to grow
	User           solana.PublicKey // writable, signer: pays the rent
	SystemProgram  solana.PublicKey
	EventAuthority solana.PublicKey
	Program        solana.PublicKey
}

var extendAccess = []anchor.Access{rw, rws, ro, ro, ro}

func (a *ExtendAccountAccounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{&a.Account, &a.User, &a.SystemProgram, &a.EventAuthority, &a.Program}
}

// NewExtendAccountAccounts returns the accounts to grow account, paid by user.
func NewExtendAccountAccounts(account, user solana.PublicKey) ExtendAccountAccounts {
	return ExtendAccountAccounts{
		Account:        account,
		User:           user,
		SystemProgram:  SystemProgramID,
		EventAuthority: EventAuthorityPDA,
		Program:        ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *ExtendAccountAccounts) Metas() solana.AccountMetaSlice {
	return anchor.Metas(a.fields(), extendAccess)
}

// ParseExtendAccountAccounts reads the accounts of extend_account in order.
func ParseExtendAccountAccounts(keys []solana.PublicKey) (ExtendAccountAccounts, error) {
	var a ExtendAccountAccounts
	return a, anchor.AssignAccounts("pumpfun", "extend_account", keys, a.fields(), ExtendAccountFixedAccounts)
}

// ExtendAccountInstruction returns an extend_account instruction.
func ExtendAccountInstruction(a *ExtendAccountAccounts) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), ExtendAccountArgs{}.Encode())
}
