// Package pumpswap is the PumpSwap AMM program (pump_amm) as published in
// @pump-fun/pump-sdk 2.0.0 (IDL pump_amm.json), in both directions: a client
// builds its instructions and decodes its accounts, and the local chain
// decodes the instructions and encodes the accounts. It is the sibling of
// package pumpfun: a pump.fun coin whose bonding curve completes graduates
// into a PumpSwap pool, and both programs share the fee program's FeeConfig
// layout and the same fee-tier rules.
//
// Layouts are Borsh, little-endian, behind 8-byte Anchor discriminators.
// Accounts that grew over time (Pool, GlobalConfig) decode from their
// shorter historical sizes with the missing trailing fields at zero.
//
// The pool math in amm.go uses integers only and follows the formulas of the
// program's published SDK, so a quote made by a client equals what the local
// chain executes.
package pumpswap

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Program ids the PumpSwap instructions name.
var (
	// ProgramID is the PumpSwap AMM program.
	ProgramID = pumpfun.AMMProgramID
	// FeeProgramID is the pump fees program that owns the AMM's FeeConfig.
	FeeProgramID = pumpfun.FeeProgramID
	// PumpProgramID is the pump.fun bonding-curve program; its
	// "pool-authority" PDA creates the canonical pool of a graduated coin.
	PumpProgramID = pumpfun.ProgramID

	// SystemProgramID is the System program.
	SystemProgramID = solana.SystemProgramID
	// TokenProgramID is the SPL Token program.
	TokenProgramID = solana.TokenProgramID
	// Token2022ProgramID is the Token-2022 program (LP mints, pump.fun coins).
	Token2022ProgramID = solana.Token2022ProgramID
	// AssociatedTokenProgramID is the Associated Token Account program.
	AssociatedTokenProgramID = solana.SPLAssociatedTokenAccountProgramID

	// WrappedSOLMint is the SPL Token native mint, the quote of SOL pools.
	WrappedSOLMint = solana.SolMint
	// USDCMint is mainnet USDC, the quote mint the fee program charges its
	// stable tiers.
	USDCMint = pumpfun.USDCMint
	// USD1Mint is mainnet USD1; the fee program treats it as an exotic
	// quote (flat fees).
	USD1Mint = solana.MustPublicKeyFromBase58("USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB")
)

// Facts of the program.
const (
	// CanonicalPoolIndex is the index of the pool a graduated coin migrates
	// into.
	CanonicalPoolIndex uint16 = 0
	// TotalTokenSupply is the supply a mayhem-mode pool's market cap is
	// measured against; other pools use the base mint's live supply.
	TotalTokenSupply uint64 = 1_000_000_000_000_000
	// BasisPoints is the denominator of every fee rate.
	BasisPoints uint64 = 10_000
	// ProtocolFeeRecipientCount is the length of
	// GlobalConfig.protocol_fee_recipients.
	ProtocolFeeRecipientCount = 8
	// ReservedFeeRecipientCount is GlobalConfig.reserved_fee_recipient plus
	// reserved_fee_recipients[7].
	ReservedFeeRecipientCount = 8
	// BuybackFeeRecipientCount is the length of
	// GlobalConfig.buyback_fee_recipients.
	BuybackFeeRecipientCount = 8
)

// Disable flags of GlobalConfig.disable_flags, one bit each.
const (
	DisableCreatePool uint8 = 1 << iota
	DisableDeposit
	DisableWithdraw
	DisableBuy
	DisableSell
)
