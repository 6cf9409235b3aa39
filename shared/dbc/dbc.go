// Package dbc is Meteora's Dynamic Bonding Curve program (the one bags.fm
// launches on) in both directions: a client builds
// initialize_virtual_pool_with_spl_token and swap and decodes VirtualPool
// and PoolConfig; the local chain decodes the instructions and encodes the
// accounts.
//
// Layouts follow the program's published IDL and source: the accounts are
// zero-copy structs behind 8-byte Anchor discriminators, the instruction
// arguments Borsh. The swap math in curve.go walks the concentrated-
// liquidity curve of PoolConfig with Q64.64 square-root prices in 256-bit
// integers, with the program's rounding, so a quote made by a client equals
// what the local chain executes.
package dbc

import (
	"crypto/ed25519"
	"crypto/sha256"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Program ids the DBC instructions name.
var (
	// ProgramID is the Dynamic Bonding Curve program.
	ProgramID = solana.MustPublicKeyFromBase58("dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN")
	// DAMMV2ProgramID is DAMM v2, where bags pools migrate.
	DAMMV2ProgramID = solana.MustPublicKeyFromBase58("cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG")

	SystemProgramID          = solana.SystemProgramID
	TokenProgramID           = solana.TokenProgramID
	Token2022ProgramID       = solana.Token2022ProgramID
	AssociatedTokenProgramID = solana.SPLAssociatedTokenAccountProgramID
	MetaplexProgramID        = solana.TokenMetadataProgramID
	InstructionsSysvarID     = solana.SysVarInstructionsPubkey
	WrappedSOLMint           = solana.SolMint
)

// LocalBagsPoolConfig is the bags PoolConfig the local chain seeds at
// genesis, at the same address on every local chain. Production takes the
// config key from configuration (Bags hands it out per launch as
// meteoraConfigKey); nothing but the local chain knows this one.
var LocalBagsPoolConfig = func() solana.PublicKey {
	seed := sha256.Sum256([]byte("tradeapi-devnet/bags-dbc-pool-config"))
	return solana.PublicKeyFromBytes(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
}()

// Fee and curve constants of the program.
const (
	// FeeDenominator is the denominator of every fee numerator.
	FeeDenominator uint64 = 1_000_000_000
	// MaxFeeNumerator caps the trade fee at 99%.
	MaxFeeNumerator uint64 = 990_000_000
	// MinFeeNumerator is the least base fee a config may set (0.25%).
	MinFeeNumerator uint64 = 2_500_000
	// ProtocolFeePercent is the protocol's share of every trade fee.
	ProtocolFeePercent uint64 = 20
	// HostFeePercent is a referrer's share of the protocol fee.
	HostFeePercent uint64 = 20
	// MaxCurvePoints is the length of PoolConfig.Curve.
	MaxCurvePoints = 20
	// Resolution is the fixed-point shift of square-root prices (Q64.64).
	Resolution = 64
)

// Collect fee modes of PoolConfig.CollectFeeMode.
const (
	CollectFeeQuoteToken  uint8 = 0 // fees in the quote token: on the input of a buy, the output of a sell
	CollectFeeOutputToken uint8 = 1 // fees on the output token
)

// Base fee modes of BaseFeeConfig.BaseFeeMode.
const (
	BaseFeeSchedulerLinear      uint8 = 0
	BaseFeeSchedulerExponential uint8 = 1
	BaseFeeRateLimiter          uint8 = 2
)

// Activation types of PoolConfig.ActivationType.
const (
	ActivationSlot      uint8 = 0
	ActivationTimestamp uint8 = 1
)

// Token types of PoolConfig.TokenType and pool types of
// VirtualPool.PoolType.
const (
	TokenTypeSPL         uint8 = 0
	TokenType2022        uint8 = 1
	PoolTypeSPLToken     uint8 = 0
	PoolTypeToken2022    uint8 = 1
	MigrationDAMMV2      uint8 = 1
	MigrationMeteoraDAMM uint8 = 0
)

// Token update authority options of PoolConfig.TokenUpdateAuthority.
const (
	UpdateAuthorityCreator   uint8 = 0
	UpdateAuthorityImmutable uint8 = 1
	UpdateAuthorityPartner   uint8 = 2
)

// Migration progress of VirtualPool.MigrationProgress.
const (
	ProgressPreBondingCurve  uint8 = 0
	ProgressPostBondingCurve uint8 = 1
	ProgressLockedVesting    uint8 = 2
	ProgressCreatedPool      uint8 = 3
)

// Instruction discriminators: sha256("global:<name>")[:8].
var (
	InitializeVirtualPoolWithSPLTokenDiscriminator  = anchor.InstructionDiscriminator("initialize_virtual_pool_with_spl_token")
	InitializeVirtualPoolWithToken2022Discriminator = anchor.InstructionDiscriminator("initialize_virtual_pool_with_token2022")
	SwapDiscriminator                               = anchor.InstructionDiscriminator("swap")
	Swap2Discriminator                              = anchor.InstructionDiscriminator("swap2")
)

// Account and event discriminators.
var (
	VirtualPoolDiscriminator       = anchor.AccountDiscriminator("VirtualPool")
	PoolConfigDiscriminator        = anchor.AccountDiscriminator("PoolConfig")
	EvtInitializePoolDiscriminator = anchor.EventDiscriminator("EvtInitializePool")
	EvtSwapDiscriminator           = anchor.EventDiscriminator("EvtSwap")
	EvtCurveCompleteDiscriminator  = anchor.EventDiscriminator("EvtCurveComplete")
)

// EventCPITag prefixes the data of Anchor's event self-invocation.
var EventCPITag = anchor.Discriminator{0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d}

// The local bags config: what LocalBagsPoolConfig holds on the local chain.
// Its figures follow bags.fm's default launch (2% fee before migration,
// graduation near 85 SOL, a fixed supply of 1e9 tokens); the live values of
// a production config come from the chain.
const (
	BagsTokenDecimals     uint8  = 9
	BagsTokenSupply       uint64 = 1_000_000_000_000_000_000
	BagsBaseForSale       uint64 = 800_000_000_000_000_000
	BagsQuoteRaised       uint64 = 85_000_000_000
	BagsFeeNumerator      uint64 = 20_000_000 // 2%
	BagsCreatorFeePercent uint8  = 0
)

// LocalBagsConfig returns the PoolConfig of LocalBagsPoolConfig: WSOL
// quote, SPL Token base with immutable Metaplex metadata, a constant 2% fee
// on the quote side, a one-segment curve selling BagsBaseForSale for
// BagsQuoteRaised and migrating to DAMM v2 with the rest of the supply.
func LocalBagsConfig(feeClaimer, leftoverReceiver solana.PublicKey) PoolConfig {
	return LocalConfig(WrappedSOLMint, BagsQuoteRaised, feeClaimer, leftoverReceiver)
}

// LocalConfig is LocalBagsConfig quoted in quoteMint (an SPL Token mint),
// whose curve raises quoteRaised of it.
func LocalConfig(quoteMint solana.PublicKey, quoteRaised uint64, feeClaimer, leftoverReceiver solana.PublicKey) PoolConfig {
	start, end, liq, sold, raised := SingleCurve(BagsBaseForSale, quoteRaised, BagsTokenSupply-BagsBaseForSale)
	c := PoolConfig{
		QuoteMint: quoteMint, FeeClaimer: feeClaimer, LeftoverReceiver: leftoverReceiver,
		BaseFee:        BaseFeeConfig{CliffFeeNumerator: BagsFeeNumerator, BaseFeeMode: BaseFeeSchedulerLinear},
		CollectFeeMode: CollectFeeQuoteToken, MigrationOption: MigrationDAMMV2, ActivationType: ActivationTimestamp,
		TokenDecimal: BagsTokenDecimals, TokenType: TokenTypeSPL, PartnerLiquidityPercent: 50, CreatorLiquidityPercent: 50,
		MigrationFeeOption: 3, FixedTokenSupplyFlag: 1, CreatorTradingFeePercentage: BagsCreatorFeePercent,
		TokenUpdateAuthority: UpdateAuthorityImmutable, SwapBaseAmount: sold, MigrationQuoteThreshold: raised,
		MigrationBaseThreshold: BagsTokenSupply - sold, MigrationSqrtPrice: end,
		PreMigrationTokenSupply: BagsTokenSupply, PostMigrationTokenSupply: BagsTokenSupply,
		MigratedPoolFeeBps: 200, SqrtStartPrice: start,
	}
	c.Curve[0] = CurvePoint{SqrtPrice: end, Liquidity: liq}
	return c
}
