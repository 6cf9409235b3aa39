package launchlab

import (
	"encoding/binary"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// PDA seeds.
const (
	SeedAuth                 = "vault_auth_seed"
	SeedEventAuthority       = "__event_authority"
	SeedGlobalConfig         = "global_config"
	SeedPlatformConfig       = "platform_config"
	SeedPool                 = "pool"
	SeedPoolVault            = "pool_vault"
	SeedPlatformFeeVaultAuth = "platform_fee_vault_auth_seed"
	SeedCreatorFeeVaultAuth  = "creator_fee_vault_auth_seed"
	SeedPlatformCurveRule    = "platform_curve_rule"
	SeedMetadata             = "metadata" // under MetaplexProgramID
)

// Fixed program-derived addresses.
var (
	// AuthPDA owns every pool vault and is the mint authority during
	// initialize_v2.
	AuthPDA, AuthBump = anchor.FindPDA(ProgramID, []byte(SeedAuth))
	// EventAuthorityPDA is the Anchor event-CPI authority.
	EventAuthorityPDA = pda([]byte(SeedEventAuthority))
	// PlatformFeeVaultAuthPDA owns every platform fee vault.
	PlatformFeeVaultAuthPDA = pda([]byte(SeedPlatformFeeVaultAuth))
	// CreatorFeeVaultAuthPDA owns every creator fee vault.
	CreatorFeeVaultAuthPDA = pda([]byte(SeedCreatorFeeVaultAuth))
)

// pda returns the address of seeds under the LaunchLab program.
func pda(seeds ...[]byte) solana.PublicKey { return anchor.PDA(ProgramID, seeds...) }

// GlobalConfigPDA returns the global config of quoteMint, curveType and
// index.
func GlobalConfigPDA(quoteMint solana.PublicKey, curveType uint8, index uint16) solana.PublicKey {
	return pda([]byte(SeedGlobalConfig), quoteMint.Bytes(), []byte{curveType}, binary.LittleEndian.AppendUint16(nil, index))
}

// PlatformConfigPDA returns the platform config created by admin.
func PlatformConfigPDA(admin solana.PublicKey) solana.PublicKey {
	return pda([]byte(SeedPlatformConfig), admin.Bytes())
}

// PlatformCurveRulePDA is the curve rule a platform that restricts curve
// parameters (PlatformConfig.RestrictCurveParam) keeps for globalConfig:
// initialize_v2 on such a platform takes it as a trailing account.
func PlatformCurveRulePDA(platformConfig, globalConfig solana.PublicKey) solana.PublicKey {
	return pda([]byte(SeedPlatformCurveRule), platformConfig.Bytes(), globalConfig.Bytes())
}

// PoolPDA returns the pool of baseMint quoted in quoteMint.
func PoolPDA(baseMint, quoteMint solana.PublicKey) solana.PublicKey {
	return pda([]byte(SeedPool), baseMint.Bytes(), quoteMint.Bytes())
}

// PoolVaultPDA returns the pool's vault of mint.
func PoolVaultPDA(pool, mint solana.PublicKey) solana.PublicKey {
	return pda([]byte(SeedPoolVault), pool.Bytes(), mint.Bytes())
}

// PlatformFeeVaultPDA returns the token account that collects platform
// fees of platformConfig in quoteMint.
func PlatformFeeVaultPDA(platformConfig, quoteMint solana.PublicKey) solana.PublicKey {
	return pda(platformConfig.Bytes(), quoteMint.Bytes())
}

// CreatorFeeVaultPDA returns the token account that collects creator fees
// of creator (PoolState.Creator) in quoteMint.
func CreatorFeeVaultPDA(creator, quoteMint solana.PublicKey) solana.PublicKey {
	return pda(creator.Bytes(), quoteMint.Bytes())
}

// MetadataPDA returns the Metaplex metadata account of mint.
func MetadataPDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(MetaplexProgramID, []byte(SeedMetadata), MetaplexProgramID.Bytes(), mint.Bytes())
}

// AssociatedTokenAddress returns the associated token account of owner for
// mint under tokenProgram.
func AssociatedTokenAddress(owner, mint, tokenProgram solana.PublicKey) solana.PublicKey {
	return anchor.PDA(AssociatedTokenProgramID, owner.Bytes(), tokenProgram.Bytes(), mint.Bytes())
}
