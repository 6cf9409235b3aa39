// Package pumpfun is the pump.fun bonding-curve program as published in
// @pump-fun/pump-sdk 2.0.0 (IDL pump.json, with FeeConfig from pump_fees.json),
// in both directions: a client builds its instructions and decodes its
// accounts, and the local chain decodes the instructions and encodes the
// accounts.
//
// Layouts are Borsh, little-endian, behind 8-byte Anchor discriminators
// (sha256("global:<ix>")[:8] for instructions, sha256("account:<Name>")[:8]
// for accounts). Accounts that grew over time decode from their shorter
// historical sizes with the missing trailing fields at zero, as the program
// and the SDK read them.
//
// The curve math in curve.go uses integers only and follows the program's
// documented formulas, so a quote made by a client equals what the local
// chain executes.
package pumpfun

import (
	"github.com/gagliardetto/solana-go"
)

// Program ids the pump.fun instructions name.
var (
	// ProgramID is the pump.fun bonding-curve program.
	ProgramID = solana.MustPublicKeyFromBase58("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P")
	// FeeProgramID is the pump fees program that owns FeeConfig.
	FeeProgramID = solana.MustPublicKeyFromBase58("pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ")
	// MayhemProgramID is the mayhem-mode program create_v2 calls into.
	MayhemProgramID = solana.MustPublicKeyFromBase58("MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e")
	// AMMProgramID is PumpSwap, where a completed curve migrates.
	AMMProgramID = solana.MustPublicKeyFromBase58("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA")

	// SystemProgramID is the System program.
	SystemProgramID = solana.SystemProgramID
	// TokenProgramID is the SPL Token program (legacy create mints).
	TokenProgramID = solana.TokenProgramID
	// Token2022ProgramID is the Token-2022 program (create_v2 mints).
	Token2022ProgramID = solana.Token2022ProgramID
	// AssociatedTokenProgramID is the Associated Token Account program.
	AssociatedTokenProgramID = solana.SPLAssociatedTokenAccountProgramID
	// MetaplexProgramID is the Metaplex token-metadata program (legacy create).
	MetaplexProgramID = solana.TokenMetadataProgramID
	// RentSysvarID is the rent sysvar (legacy create).
	RentSysvarID = solana.SysVarRentPubkey
	// WrappedSOLMint is the SPL Token native mint.
	WrappedSOLMint = solana.SolMint
	// USDCMint is mainnet USDC, the one quote mint the fee program treats as
	// stable.
	USDCMint = solana.MustPublicKeyFromBase58("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
	// NativeMint2022 is the Token-2022 native mint; the fee program counts it
	// as SOL-like.
	NativeMint2022 = solana.MustPublicKeyFromBase58("9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP")
)

// Facts of every pump.fun coin.
const (
	// TokenDecimals is the decimals of every pump.fun mint.
	TokenDecimals = 6
	// DefaultTokenTotalSupply is the supply the fee tiers measure market cap
	// against for a coin that is not in mayhem mode (1e9 tokens, 6 decimals).
	DefaultTokenTotalSupply uint64 = 1_000_000_000_000_000
	// BasisPoints is the denominator of every fee rate.
	BasisPoints uint64 = 10_000
	// MaxFeeTiers is the largest fee tier vector the fee program writes.
	MaxFeeTiers = 50
	// FeeRecipientCount is how many fee recipients Global names
	// (fee_recipient plus fee_recipients[7]), the same for the reserved ones.
	FeeRecipientCount = 8
	// BuybackFeeRecipientCount is the length of Global.buyback_fee_recipients.
	BuybackFeeRecipientCount = 8
)

// StaticFeeRecipients are the fee recipients the SDK hard-codes, for a client
// that has not read Global. Prefer Global.FeeRecipientList.
var StaticFeeRecipients = mustKeys(
	"62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV",
	"7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ",
	"7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX",
	"9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz",
	"AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY",
	"CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM",
	"FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz",
	"G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP",
)

// StaticBuybackFeeRecipients are the buyback fee recipients the SDK
// hard-codes. Prefer Global.BuybackFeeRecipients.
var StaticBuybackFeeRecipients = mustKeys(
	"5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD",
	"9M4giFFMxmFGXtc3feFzRai56WbBqehoSeRE5GK7gf7",
	"GXPFM2caqTtQYC2cJ5yJRi9VDkpsYZXzYdwYpGnLmtDL",
	"3BpXnfJaUTiwXnJNe7Ej1rcbzqTTQUvLShZaWazebsVR",
	"5cjcW9wExnJJiqgLjq7DEG75Pm6JBgE1hNv4B2vHXUW6",
	"EHAAiTxcdDwQ3U4bU6YcMsQGaekdzLS3B5SmYo46kJtL",
	"5eHhjP8JaYkz83CWwvGU2uMUXefd3AazWGx4gpcuEEYD",
	"A7hAgCzFw14fejgCp387JUJRMNyz4j89JKnhtKU8piqW",
)

func mustKeys(s ...string) []solana.PublicKey {
	out := make([]solana.PublicKey, len(s))
	for i, k := range s {
		out[i] = solana.MustPublicKeyFromBase58(k)
	}
	return out
}
