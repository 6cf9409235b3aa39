package pumpswap

import (
	"encoding/binary"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// PDA seeds, as the IDL and the SDK spell them.
const (
	SeedGlobalConfig            = "global_config"
	SeedEventAuthority          = "__event_authority"
	SeedGlobalVolumeAccumulator = "global_volume_accumulator"
	SeedUserVolumeAccumulator   = "user_volume_accumulator"
	SeedFeeConfig               = "fee_config" // under FeeProgramID, then ProgramID's bytes
	SeedPool                    = "pool"
	SeedLPMint                  = "pool_lp_mint"
	SeedPoolV2                  = "pool-v2"
	// SeedCoinCreatorVault is "creator_vault" with an underscore, unlike
	// pump.fun's "creator-vault".
	SeedCoinCreatorVault = "creator_vault"
	// SeedPoolAuthority is under the pump.fun program.
	SeedPoolAuthority = "pool-authority"
)

// Fixed program-derived addresses.
var (
	// GlobalConfigPDA is the program's GlobalConfig.
	GlobalConfigPDA = anchor.PDA(ProgramID, []byte(SeedGlobalConfig))
	// EventAuthorityPDA is the Anchor event-CPI authority.
	EventAuthorityPDA = anchor.PDA(ProgramID, []byte(SeedEventAuthority))
	// GlobalVolumeAccumulatorPDA is the volume accumulator of all users.
	GlobalVolumeAccumulatorPDA = anchor.PDA(ProgramID, []byte(SeedGlobalVolumeAccumulator))
	// FeeConfigPDA is the FeeConfig the fee program keeps for the AMM.
	FeeConfigPDA = anchor.PDA(FeeProgramID, []byte(SeedFeeConfig), ProgramID.Bytes())
)

// PoolPDA returns the pool of (index, creator, base, quote) with its bump.
func PoolPDA(index uint16, creator, baseMint, quoteMint solana.PublicKey) (solana.PublicKey, uint8) {
	var idx [2]byte
	binary.LittleEndian.PutUint16(idx[:], index)
	return anchor.FindPDA(ProgramID, []byte(SeedPool), idx[:], creator.Bytes(), baseMint.Bytes(), quoteMint.Bytes())
}

// PumpPoolAuthorityPDA returns the pump.fun PDA that creates the canonical
// pool of mint when its curve graduates.
func PumpPoolAuthorityPDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(PumpProgramID, []byte(SeedPoolAuthority), mint.Bytes())
}

// CanonicalPoolPDA returns the canonical pool of mint quoted in quoteMint
// (WSOL for a coin that graduated from a SOL curve): index 0, created by the
// mint's pool authority.
func CanonicalPoolPDA(mint, quoteMint solana.PublicKey) solana.PublicKey {
	addr, _ := PoolPDA(CanonicalPoolIndex, PumpPoolAuthorityPDA(mint), mint, quoteMint)
	return addr
}

// IsCanonical reports whether a pool created by creator for baseMint is a
// canonical pump pool, which pays the fee tiers instead of the flat fees.
func IsCanonical(baseMint, creator solana.PublicKey) bool {
	return PumpPoolAuthorityPDA(baseMint) == creator
}

// LPMintPDA returns the LP mint of pool.
func LPMintPDA(pool solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedLPMint), pool.Bytes())
}

// PoolV2PDA returns the pool_v2 account of baseMint, a remaining account of
// trades on a pool with a coin creator.
func PoolV2PDA(baseMint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedPoolV2), baseMint.Bytes())
}

// CoinCreatorVaultAuthorityPDA returns the authority of the vault that
// collects a coin creator's fees.
func CoinCreatorVaultAuthorityPDA(coinCreator solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedCoinCreatorVault), coinCreator.Bytes())
}

// CoinCreatorVaultATA returns the coin creator vault's token account for
// quoteMint under quoteTokenProgram.
func CoinCreatorVaultATA(coinCreator, quoteMint, quoteTokenProgram solana.PublicKey) solana.PublicKey {
	return AssociatedTokenAddress(CoinCreatorVaultAuthorityPDA(coinCreator), quoteMint, quoteTokenProgram)
}

// UserVolumeAccumulatorPDA returns the AMM's volume accumulator of user
// (not pump.fun's, which has the same seeds under another program).
func UserVolumeAccumulatorPDA(user solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedUserVolumeAccumulator), user.Bytes())
}

// AssociatedTokenAddress returns the associated token account of owner for
// mint under tokenProgram.
func AssociatedTokenAddress(owner, mint, tokenProgram solana.PublicKey) solana.PublicKey {
	return pumpfun.AssociatedTokenAddress(owner, mint, tokenProgram)
}
