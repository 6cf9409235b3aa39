package pumpswap

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account counts of the instructions, remaining accounts not included.
const (
	BuyFixedAccounts           = 23
	SellFixedAccounts          = 21
	CreatePoolFixedAccounts    = 18
	ExtendAccountFixedAccounts = 5
)

// Short names keep the slot lists readable.
const ro, rw, rws = anchor.RO, anchor.RW, anchor.RWS

// slot is one account of an instruction with its access. The AMM's lists
// change with the instruction and the pool (cashback, coin creator), so they
// are built as slots, each key next to its access, rather than as a fields
// list beside a fixed access table.
type slot struct {
	key *solana.PublicKey
	acc anchor.Access
}

// split returns the keys and the access modes of slots.
func split(slots []slot) ([]*solana.PublicKey, []anchor.Access) {
	keys := make([]*solana.PublicKey, len(slots))
	acc := make([]anchor.Access, len(slots))
	for i, s := range slots {
		keys[i], acc[i] = s.key, s.acc
	}
	return keys, acc
}

func metas(slots []slot) solana.AccountMetaSlice { return anchor.Metas(split(slots)) }

// TradeParams are what a trade's accounts depend on besides the fixed PDAs:
// the pool as read from the chain and the user.
type TradeParams struct {
	Pool solana.PublicKey
	// PoolState is the decoded pool; its mints, vaults, coin creator and
	// cashback flag select accounts.
	PoolState *Pool
	User      solana.PublicKey
	// BaseTokenProgram and QuoteTokenProgram own the two mints.
	BaseTokenProgram  solana.PublicKey
	QuoteTokenProgram solana.PublicKey
	// ProtocolFeeRecipient is one of
	// GlobalConfig.ProtocolFeeRecipientCandidates(pool.IsMayhemMode).
	ProtocolFeeRecipient solana.PublicKey
	// BuybackFeeRecipient is one of
	// GlobalConfig.BuybackFeeRecipientCandidates.
	BuybackFeeRecipient solana.PublicKey
}

// SwapAccounts are the accounts buy, buy_exact_quote_in and sell share, in
// the program's order (the first 19), with the remaining accounts the
// current program requires.
type SwapAccounts struct {
	Pool                             solana.PublicKey // writable
	User                             solana.PublicKey // writable, signer
	GlobalConfig                     solana.PublicKey
	BaseMint                         solana.PublicKey
	QuoteMint                        solana.PublicKey
	UserBaseTokenAccount             solana.PublicKey // writable
	UserQuoteTokenAccount            solana.PublicKey // writable
	PoolBaseTokenAccount             solana.PublicKey // writable
	PoolQuoteTokenAccount            solana.PublicKey // writable
	ProtocolFeeRecipient             solana.PublicKey
	ProtocolFeeRecipientTokenAccount solana.PublicKey // writable
	BaseTokenProgram                 solana.PublicKey
	QuoteTokenProgram                solana.PublicKey
	SystemProgram                    solana.PublicKey
	AssociatedTokenProgram           solana.PublicKey
	EventAuthority                   solana.PublicKey
	Program                          solana.PublicKey
	CoinCreatorVaultATA              solana.PublicKey // writable
	CoinCreatorVaultAuthority        solana.PublicKey
	// GlobalVolumeAccumulator and UserVolumeAccumulator are accounts of
	// buy and buy_exact_quote_in only.
	GlobalVolumeAccumulator solana.PublicKey
	UserVolumeAccumulator   solana.PublicKey // writable
	FeeConfig               solana.PublicKey
	FeeProgram              solana.PublicKey

	// Remaining accounts.
	// Cashback is set for a cashback pool: the remaining accounts then start
	// with the user volume accumulator's quote account (and, on a sell, the
	// accumulator itself).
	Cashback                     bool
	UserVolumeAccumulatorQuoteTA solana.PublicKey // writable, cashback pools only
	// PoolV2 is named when the pool has a coin creator (HasCoinCreator).
	HasCoinCreator                  bool
	PoolV2                          solana.PublicKey
	BuybackFeeRecipient             solana.PublicKey
	BuybackFeeRecipientTokenAccount solana.PublicKey // writable
}

// NewSwapAccounts derives every account of a trade from p.
func NewSwapAccounts(p TradeParams) SwapAccounts {
	ps := p.PoolState
	a := SwapAccounts{
		Pool:                             p.Pool,
		User:                             p.User,
		GlobalConfig:                     GlobalConfigPDA,
		BaseMint:                         ps.BaseMint,
		QuoteMint:                        ps.QuoteMint,
		UserBaseTokenAccount:             AssociatedTokenAddress(p.User, ps.BaseMint, p.BaseTokenProgram),
		UserQuoteTokenAccount:            AssociatedTokenAddress(p.User, ps.QuoteMint, p.QuoteTokenProgram),
		PoolBaseTokenAccount:             ps.PoolBaseTokenAccount,
		PoolQuoteTokenAccount:            ps.PoolQuoteTokenAccount,
		ProtocolFeeRecipient:             p.ProtocolFeeRecipient,
		ProtocolFeeRecipientTokenAccount: AssociatedTokenAddress(p.ProtocolFeeRecipient, ps.QuoteMint, p.QuoteTokenProgram),
		BaseTokenProgram:                 p.BaseTokenProgram,
		QuoteTokenProgram:                p.QuoteTokenProgram,
		SystemProgram:                    SystemProgramID,
		AssociatedTokenProgram:           AssociatedTokenProgramID,
		EventAuthority:                   EventAuthorityPDA,
		Program:                          ProgramID,
		CoinCreatorVaultAuthority:        CoinCreatorVaultAuthorityPDA(ps.CoinCreator),
		GlobalVolumeAccumulator:          GlobalVolumeAccumulatorPDA,
		UserVolumeAccumulator:            UserVolumeAccumulatorPDA(p.User),
		FeeConfig:                        FeeConfigPDA,
		FeeProgram:                       FeeProgramID,
		Cashback:                         ps.IsCashbackCoin,
		HasCoinCreator:                   !ps.CoinCreator.IsZero(),
		BuybackFeeRecipient:              p.BuybackFeeRecipient,
		BuybackFeeRecipientTokenAccount:  AssociatedTokenAddress(p.BuybackFeeRecipient, ps.QuoteMint, p.QuoteTokenProgram),
	}
	a.CoinCreatorVaultATA = AssociatedTokenAddress(a.CoinCreatorVaultAuthority, ps.QuoteMint, p.QuoteTokenProgram)
	if a.Cashback {
		a.UserVolumeAccumulatorQuoteTA = AssociatedTokenAddress(a.UserVolumeAccumulator, ps.QuoteMint, p.QuoteTokenProgram)
	}
	if a.HasCoinCreator {
		a.PoolV2 = PoolV2PDA(ps.BaseMint)
	}
	return a
}

func (a *SwapAccounts) common() []slot {
	return []slot{
		{&a.Pool, rw}, {&a.User, rws}, {&a.GlobalConfig, ro}, {&a.BaseMint, ro}, {&a.QuoteMint, ro},
		{&a.UserBaseTokenAccount, rw}, {&a.UserQuoteTokenAccount, rw}, {&a.PoolBaseTokenAccount, rw},
		{&a.PoolQuoteTokenAccount, rw}, {&a.ProtocolFeeRecipient, ro}, {&a.ProtocolFeeRecipientTokenAccount, rw},
		{&a.BaseTokenProgram, ro}, {&a.QuoteTokenProgram, ro}, {&a.SystemProgram, ro},
		{&a.AssociatedTokenProgram, ro}, {&a.EventAuthority, ro}, {&a.Program, ro},
		{&a.CoinCreatorVaultATA, rw}, {&a.CoinCreatorVaultAuthority, ro},
	}
}

func (a *SwapAccounts) tail(sell bool) []slot {
	var s []slot
	if a.Cashback {
		s = append(s, slot{&a.UserVolumeAccumulatorQuoteTA, rw})
		if sell {
			s = append(s, slot{&a.UserVolumeAccumulator, rw})
		}
	}
	if a.HasCoinCreator {
		s = append(s, slot{&a.PoolV2, ro})
	}
	return append(s, slot{&a.BuybackFeeRecipient, ro}, slot{&a.BuybackFeeRecipientTokenAccount, rw})
}

// BuyMetas returns the ordered account list of buy and buy_exact_quote_in
// with the remaining accounts.
func (a *SwapAccounts) BuyMetas() solana.AccountMetaSlice {
	s := append(a.common(), slot{&a.GlobalVolumeAccumulator, ro}, slot{&a.UserVolumeAccumulator, rw},
		slot{&a.FeeConfig, ro}, slot{&a.FeeProgram, ro})
	return metas(append(s, a.tail(false)...))
}

// SellMetas returns the ordered account list of sell with the remaining
// accounts.
func (a *SwapAccounts) SellMetas() solana.AccountMetaSlice {
	s := append(a.common(), slot{&a.FeeConfig, ro}, slot{&a.FeeProgram, ro})
	return metas(append(s, a.tail(true)...))
}

// BuyInstruction returns a buy instruction.
func BuyInstruction(a *SwapAccounts, args BuyArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.BuyMetas(), args.Encode())
}

// BuyExactQuoteInInstruction returns a buy_exact_quote_in instruction; it
// takes the accounts of buy.
func BuyExactQuoteInInstruction(a *SwapAccounts, args BuyExactQuoteInArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.BuyMetas(), args.Encode())
}

// SellInstruction returns a sell instruction.
func SellInstruction(a *SwapAccounts, args SellArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.SellMetas(), args.Encode())
}

// CreatePoolAccounts are the accounts of create_pool in the program's order.
type CreatePoolAccounts struct {
	Pool                   solana.PublicKey // writable
	GlobalConfig           solana.PublicKey
	Creator                solana.PublicKey // writable, signer
	BaseMint               solana.PublicKey
	QuoteMint              solana.PublicKey
	LPMint                 solana.PublicKey // writable
	UserBaseTokenAccount   solana.PublicKey // writable
	UserQuoteTokenAccount  solana.PublicKey // writable
	UserPoolTokenAccount   solana.PublicKey // writable: the creator's LP account under Token-2022
	PoolBaseTokenAccount   solana.PublicKey // writable
	PoolQuoteTokenAccount  solana.PublicKey // writable
	SystemProgram          solana.PublicKey
	Token2022Program       solana.PublicKey
	BaseTokenProgram       solana.PublicKey
	QuoteTokenProgram      solana.PublicKey
	AssociatedTokenProgram solana.PublicKey
	EventAuthority         solana.PublicKey
	Program                solana.PublicKey
}

func (a *CreatePoolAccounts) slots() []slot {
	return []slot{
		{&a.Pool, rw}, {&a.GlobalConfig, ro}, {&a.Creator, rws}, {&a.BaseMint, ro}, {&a.QuoteMint, ro},
		{&a.LPMint, rw}, {&a.UserBaseTokenAccount, rw}, {&a.UserQuoteTokenAccount, rw},
		{&a.UserPoolTokenAccount, rw}, {&a.PoolBaseTokenAccount, rw}, {&a.PoolQuoteTokenAccount, rw},
		{&a.SystemProgram, ro}, {&a.Token2022Program, ro}, {&a.BaseTokenProgram, ro},
		{&a.QuoteTokenProgram, ro}, {&a.AssociatedTokenProgram, ro}, {&a.EventAuthority, ro}, {&a.Program, ro},
	}
}

// NewCreatePoolAccounts derives every account of a create_pool of index by
// creator.
func NewCreatePoolAccounts(index uint16, creator, baseMint, quoteMint, baseTokenProgram, quoteTokenProgram solana.PublicKey) CreatePoolAccounts {
	pool, _ := PoolPDA(index, creator, baseMint, quoteMint)
	lp := LPMintPDA(pool)
	return CreatePoolAccounts{
		Pool:                   pool,
		GlobalConfig:           GlobalConfigPDA,
		Creator:                creator,
		BaseMint:               baseMint,
		QuoteMint:              quoteMint,
		LPMint:                 lp,
		UserBaseTokenAccount:   AssociatedTokenAddress(creator, baseMint, baseTokenProgram),
		UserQuoteTokenAccount:  AssociatedTokenAddress(creator, quoteMint, quoteTokenProgram),
		UserPoolTokenAccount:   AssociatedTokenAddress(creator, lp, Token2022ProgramID),
		PoolBaseTokenAccount:   AssociatedTokenAddress(pool, baseMint, baseTokenProgram),
		PoolQuoteTokenAccount:  AssociatedTokenAddress(pool, quoteMint, quoteTokenProgram),
		SystemProgram:          SystemProgramID,
		Token2022Program:       Token2022ProgramID,
		BaseTokenProgram:       baseTokenProgram,
		QuoteTokenProgram:      quoteTokenProgram,
		AssociatedTokenProgram: AssociatedTokenProgramID,
		EventAuthority:         EventAuthorityPDA,
		Program:                ProgramID,
	}
}

// Metas returns the ordered account list.
func (a *CreatePoolAccounts) Metas() solana.AccountMetaSlice { return metas(a.slots()) }

// ParseCreatePoolAccounts reads the accounts of a create_pool instruction.
func ParseCreatePoolAccounts(keys []solana.PublicKey) (CreatePoolAccounts, error) {
	var a CreatePoolAccounts
	fields, _ := split(a.slots())
	return a, anchor.AssignAccounts("pumpswap", "create_pool", keys, fields, CreatePoolFixedAccounts)
}

// CreatePoolInstruction returns a create_pool instruction.
func CreatePoolInstruction(a *CreatePoolAccounts, args CreatePoolArgs) *solana.GenericInstruction {
	return solana.NewInstruction(ProgramID, a.Metas(), args.Encode())
}

// ExtendAccountInstruction returns an extend_account instruction that grows
// account (a pool) to its current size, user paying the rent.
func ExtendAccountInstruction(account, user solana.PublicKey) *solana.GenericInstruction {
	a, u, sys, ev, prog := account, user, SystemProgramID, EventAuthorityPDA, ProgramID
	return solana.NewInstruction(ProgramID, metas([]slot{{&a, rw}, {&u, rws}, {&sys, ro}, {&ev, ro}, {&prog, ro}}),
		ExtendAccountArgs{}.Encode())
}
