// Package launchlab is Raydium's LaunchLab bonding-curve program (the one
// letsbonk.fun launches on) in both directions: a client builds
// initialize_v2, buy_exact_in and sell_exact_in and decodes PoolState,
// GlobalConfig and PlatformConfig; the local chain decodes the instructions
// and encodes the accounts.
//
// Layouts are Borsh behind 8-byte Anchor discriminators, from the program's
// published IDL (raydium_launchpad 0.2.0) and its documented upgrade notes;
// nothing is taken from Raydium's GPL SDK beyond facts. The constant-product
// math in curve.go uses integers only, so a quote made by a client equals
// what the local chain executes.
package launchlab

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Program ids the LaunchLab instructions name.
var (
	// ProgramID is the LaunchLab program on mainnet.
	ProgramID = solana.MustPublicKeyFromBase58("LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj")
	// DevnetProgramID is the program on Solana's public devnet cluster.
	DevnetProgramID = solana.MustPublicKeyFromBase58("DRay6fNdQ5J82H7xV6uq2aV3mNrUZ1J4PgSKsWgptcm6")

	// SystemProgramID is the System program.
	SystemProgramID = solana.SystemProgramID
	// TokenProgramID is the SPL Token program: initialize_v2 mints under it
	// and the quote token program must be it.
	TokenProgramID = solana.TokenProgramID
	// Token2022ProgramID is Token-2022 (initialize_with_token_2022 mints).
	Token2022ProgramID = solana.Token2022ProgramID
	// AssociatedTokenProgramID is the Associated Token Account program.
	AssociatedTokenProgramID = solana.SPLAssociatedTokenAccountProgramID
	// MetaplexProgramID is the Metaplex token-metadata program.
	MetaplexProgramID = solana.TokenMetadataProgramID
	// RentSysvarID is the rent sysvar initialize_v2 names.
	RentSysvarID = solana.SysVarRentPubkey
	// WrappedSOLMint is the SPL Token native mint, the quote of SOL pools.
	WrappedSOLMint = solana.SolMint
)

// The letsbonk.fun platform ("bonk"): its PlatformConfig and the global
// config of SOL-quoted constant-product curves it launches under.
var (
	// LetsBonkPlatformAdmin is the wallet whose PlatformConfig PDA is
	// letsbonk's.
	LetsBonkPlatformAdmin = solana.MustPublicKeyFromBase58("2P56vRWDrCBGkqYXxgSWAnuZQZrJPySRQGToTJThpmkN")
	// LetsBonkPlatformConfig is PlatformConfigPDA(LetsBonkPlatformAdmin).
	LetsBonkPlatformConfig = solana.MustPublicKeyFromBase58("FfYek5vEz23cMkWsdJwG2oa6EphsvXSHrGpdALN4g6W1")
	// SOLConstantGlobalConfig is GlobalConfigPDA(WSOL, CurveConstant, 0),
	// the global config of letsbonk's SOL launches.
	SOLConstantGlobalConfig = solana.MustPublicKeyFromBase58("6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX")
	// RaydiumPlatformConfig is Raydium's own platform.
	RaydiumPlatformConfig = solana.MustPublicKeyFromBase58("4Bu96XjU84XjPDSpveTVf6LYGCkfW5FK7SNkREWcEfV4")
)

// Curve types of GlobalConfig.CurveType and of the CurveParams variants.
const (
	CurveConstant uint8 = 0
	CurveFixed    uint8 = 1
	CurveLinear   uint8 = 2
)

// Migrate types of CurveParams and PoolState.MigrateType.
const (
	MigrateAMM    uint8 = 0 // Raydium AMM v4
	MigrateCPSwap uint8 = 1 // Raydium CPMM
)

// Pool statuses of PoolState.Status.
const (
	StatusFund    uint8 = 0 // trading on the curve
	StatusMigrate uint8 = 1 // the curve sold out, waiting for migration
	StatusTrade   uint8 = 2 // migrated to the AMM
)

// FeeRateDenominator is the denominator of every fee rate (hundredths of a
// basis point).
const FeeRateDenominator uint64 = 1_000_000

// The letsbonk launch parameters: what letsbonk.fun passes to initialize_v2
// for a SOL-quoted coin (6 decimals, 1e9 tokens, 793.1M sold on the curve,
// 85 SOL raised, migration to CPMM).
const (
	LetsBonkDecimals              uint8  = 6
	LetsBonkSupply                uint64 = 1_000_000_000_000_000
	LetsBonkTotalBaseSell         uint64 = 793_100_000_000_000
	LetsBonkTotalQuoteFundRaising uint64 = 85_000_000_000
	LetsBonkMigrateType                  = MigrateCPSwap
)

// LetsBonkCurve is the CurveParams of a letsbonk SOL launch.
func LetsBonkCurve() CurveParams {
	return CurveParams{
		Type: CurveConstant, Supply: LetsBonkSupply, TotalBaseSell: LetsBonkTotalBaseSell,
		TotalQuoteFundRaising: LetsBonkTotalQuoteFundRaising, MigrateType: LetsBonkMigrateType,
	}
}

// Instruction discriminators: sha256("global:<name>")[:8].
var (
	InitializeV2Discriminator            = anchor.InstructionDiscriminator("initialize_v2")
	InitializeWithToken2022Discriminator = anchor.InstructionDiscriminator("initialize_with_token_2022")
	BuyExactInDiscriminator              = anchor.InstructionDiscriminator("buy_exact_in")
	BuyExactOutDiscriminator             = anchor.InstructionDiscriminator("buy_exact_out")
	SellExactInDiscriminator             = anchor.InstructionDiscriminator("sell_exact_in")
	SellExactOutDiscriminator            = anchor.InstructionDiscriminator("sell_exact_out")
)

// Account and event discriminators: sha256("account:<Name>")[:8] and
// sha256("event:<Name>")[:8].
var (
	GlobalConfigDiscriminator    = anchor.AccountDiscriminator("GlobalConfig")
	PlatformConfigDiscriminator  = anchor.AccountDiscriminator("PlatformConfig")
	PoolStateDiscriminator       = anchor.AccountDiscriminator("PoolState")
	TradeEventDiscriminator      = anchor.EventDiscriminator("TradeEvent")
	PoolCreateEventDiscriminator = anchor.EventDiscriminator("PoolCreateEvent")
)

// EventCPITag prefixes the data of Anchor's event self-invocation.
var EventCPITag = anchor.Discriminator{0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d}
