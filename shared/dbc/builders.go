package dbc

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account counts of the instructions, remaining accounts not included.
const (
	InitializeVirtualPoolWithSPLTokenAccounts = 16
	SwapAccountsCount                         = 15
)

// Short names keep each access table on one line.
const ro, rw, rs, rws = anchor.RO, anchor.RW, anchor.RS, anchor.RWS

// InitializeAccounts are the accounts of
// initialize_virtual_pool_with_spl_token in the program's order: an SPL
// Token base mint with Metaplex metadata, the variant a config with
// TokenType 0 (bags) requires.
type InitializeAccounts struct {
	Config            solana.PublicKey
	PoolAuthority     solana.PublicKey
	Creator           solana.PublicKey // signer
	BaseMint          solana.PublicKey // writable, signer: a new keypair
	QuoteMint         solana.PublicKey
	Pool              solana.PublicKey // writable
	BaseVault         solana.PublicKey // writable
	QuoteVault        solana.PublicKey // writable
	MintMetadata      solana.PublicKey // writable: the Metaplex PDA of BaseMint
	MetadataProgram   solana.PublicKey
	Payer             solana.PublicKey // writable, signer
	TokenQuoteProgram solana.PublicKey
	TokenProgram      solana.PublicKey // SPL Token
	SystemProgram     solana.PublicKey
	EventAuthority    solana.PublicKey
	Program           solana.PublicKey
}

var initializeAccess = []anchor.Access{ro, ro, rs, rws, ro, rw, rw, rw, rw, ro, rws, ro, ro, ro, ro, ro}

func (a *InitializeAccounts) fields() []*solana.PublicKey {
	return []*solana.PublicKey{
		&a.Config, &a.PoolAuthority, &a.Creator, &a.BaseMint, &a.QuoteMint, &a.Pool, &a.BaseVault,
		&a.QuoteVault, &a.MintMetadata, &a.MetadataProgram, &a.Payer, &a.TokenQuoteProgram,
		&a.TokenProgram, &a.SystemProgram, &a.EventAuthority, &a.Program,
	}
}

// NewInitializeAccounts derives the accounts of a pool of baseMint (a new
// keypair) quoted in quoteMint under config, created and paid by creator.
func NewInitializeAccounts(config, quoteMint, baseMint, creator solana.PublicKey) InitializeAccounts {
	pool := PoolPDA(config, baseMint, quoteMint)
	return InitializeAccounts{
		Config: config, PoolAuthority: PoolAuthorityPDA, Creator: creator, BaseMint: baseMint, QuoteMint: quoteMint,
		Pool: pool, BaseVault: TokenVaultPDA(baseMint, pool), QuoteVault: TokenVaultPDA(quoteMint, pool),
		MintMetadata: MetadataPDA(baseMint), MetadataProgram: MetaplexProgramID, Payer: creator,
		TokenQuoteProgram: TokenProgramID, TokenProgram: TokenProgramID, SystemProgram: SystemProgramID,
		EventAuthority: EventAuthorityPDA, Program: ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *InitializeAccounts) Metas() solana.AccountMetaSlice {
	return anchor.Metas(a.fields(), initializeAccess)
}

// ParseInitializeAccounts reads the accounts of
// initialize_virtual_pool_with_spl_token in order.
func ParseInitializeAccounts(keys []solana.PublicKey) (InitializeAccounts, error) {
	var a InitializeAccounts
	return a, anchor.AssignAccounts("dbc", "initialize_virtual_pool_with_spl_token", keys, a.fields(), InitializeVirtualPoolWithSPLTokenAccounts)
}

// InitializeVirtualPoolWithSPLTokenInstruction returns the instruction.
func InitializeVirtualPoolWithSPLTokenInstruction(a *InitializeAccounts, args InitializePoolParameters) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// SwapAccounts are the accounts of swap (and swap2) in the program's order.
// The direction follows InputTokenAccount's mint: the base mint sells, the
// quote mint buys.
type SwapAccounts struct {
	PoolAuthority      solana.PublicKey
	Config             solana.PublicKey
	Pool               solana.PublicKey // writable
	InputTokenAccount  solana.PublicKey // writable
	OutputTokenAccount solana.PublicKey // writable
	BaseVault          solana.PublicKey // writable
	QuoteVault         solana.PublicKey // writable
	BaseMint           solana.PublicKey
	QuoteMint          solana.PublicKey
	Payer              solana.PublicKey // signer
	TokenBaseProgram   solana.PublicKey
	TokenQuoteProgram  solana.PublicKey
	// ReferralTokenAccount receives the referral fee; an absent referral is
	// ProgramID in this slot (Anchor's None), read-only.
	ReferralTokenAccount solana.PublicKey
	EventAuthority       solana.PublicKey
	Program              solana.PublicKey

	// InstructionsSysvar is appended as a remaining account when set: the
	// program needs it for a rate-limited base fee or a config's first
	// swap at the minimum fee.
	InstructionsSysvar solana.PublicKey
}

func (a *SwapAccounts) fields() []*solana.PublicKey {
	f := []*solana.PublicKey{
		&a.PoolAuthority, &a.Config, &a.Pool, &a.InputTokenAccount, &a.OutputTokenAccount, &a.BaseVault,
		&a.QuoteVault, &a.BaseMint, &a.QuoteMint, &a.Payer, &a.TokenBaseProgram, &a.TokenQuoteProgram,
		&a.ReferralTokenAccount, &a.EventAuthority, &a.Program,
	}
	if !a.InstructionsSysvar.IsZero() {
		f = append(f, &a.InstructionsSysvar)
	}
	return f
}

// SwapParams are what a swap's accounts depend on.
type SwapParams struct {
	Config    solana.PublicKey
	BaseMint  solana.PublicKey
	QuoteMint solana.PublicKey
	User      solana.PublicKey
	// Buy selects quote→base; false sells base for quote.
	Buy bool
	// BaseTokenProgram owns BaseMint: SPL Token for a pool of
	// initialize_virtual_pool_with_spl_token.
	BaseTokenProgram solana.PublicKey
	// Referral is a referrer's token account of the fee token, or zero.
	Referral solana.PublicKey
	// InstructionsSysvar passes the instructions sysvar, as
	// NeedsInstructionsSysvar says the swap must.
	InstructionsSysvar bool
}

// NewSwapAccounts derives the accounts of a swap; the user's token
// accounts are its associated token accounts.
func NewSwapAccounts(p SwapParams) SwapAccounts {
	pool := PoolPDA(p.Config, p.BaseMint, p.QuoteMint)
	baseProg := p.BaseTokenProgram
	if baseProg.IsZero() {
		baseProg = TokenProgramID
	}
	userBase := AssociatedTokenAddress(p.User, p.BaseMint, baseProg)
	userQuote := AssociatedTokenAddress(p.User, p.QuoteMint, TokenProgramID)
	in, out := userBase, userQuote
	if p.Buy {
		in, out = userQuote, userBase
	}
	referral := p.Referral
	if referral.IsZero() {
		referral = ProgramID
	}
	a := SwapAccounts{
		PoolAuthority: PoolAuthorityPDA, Config: p.Config, Pool: pool, InputTokenAccount: in, OutputTokenAccount: out,
		BaseVault: TokenVaultPDA(p.BaseMint, pool), QuoteVault: TokenVaultPDA(p.QuoteMint, pool),
		BaseMint: p.BaseMint, QuoteMint: p.QuoteMint, Payer: p.User, TokenBaseProgram: baseProg,
		TokenQuoteProgram: TokenProgramID, ReferralTokenAccount: referral, EventAuthority: EventAuthorityPDA, Program: ProgramID,
	}
	if p.InstructionsSysvar {
		a.InstructionsSysvar = InstructionsSysvarID
	}
	return a
}

// Metas returns the ordered account list.
func (a *SwapAccounts) Metas() solana.AccountMetaSlice {
	refAccess := rw
	if a.ReferralTokenAccount == ProgramID {
		refAccess = ro
	}
	acc := []anchor.Access{ro, ro, rw, rw, rw, rw, rw, ro, ro, rs, ro, ro, refAccess, ro, ro}
	if !a.InstructionsSysvar.IsZero() {
		acc = append(acc, ro)
	}
	return anchor.Metas(a.fields(), acc)
}

// ParseSwapAccounts reads the accounts of swap in order; a 16th account is
// the remaining instructions sysvar.
func ParseSwapAccounts(keys []solana.PublicKey) (SwapAccounts, error) {
	var a SwapAccounts
	f := append(a.fields(), &a.InstructionsSysvar)
	return a, anchor.AssignAccounts("dbc", "swap", keys, f, SwapAccountsCount)
}

// SwapInstruction returns a swap instruction.
func SwapInstruction(a *SwapAccounts, args SwapParameters) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// Swap2Instruction returns a swap2 instruction: swap's accounts with the
// swap mode among its arguments.
func Swap2Instruction(a *SwapAccounts, args Swap2Parameters) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}
