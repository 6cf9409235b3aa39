package dbc

import (
	"bytes"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// PDA seeds.
const (
	SeedPool           = "pool"
	SeedTokenVault     = "token_vault"
	SeedPoolAuthority  = "pool_authority"
	SeedEventAuthority = "__event_authority"
	SeedMetadata       = "metadata" // under MetaplexProgramID
)

// Fixed program-derived addresses.
var (
	// PoolAuthorityPDA owns every vault and mints every base token.
	PoolAuthorityPDA, PoolAuthorityBump = anchor.FindPDA(ProgramID, []byte(SeedPoolAuthority))
	// EventAuthorityPDA is the Anchor event-CPI authority.
	EventAuthorityPDA = anchor.PDA(ProgramID, []byte(SeedEventAuthority))
)

// PoolPDA returns the pool of baseMint and quoteMint under config: seeds
// "pool", config, then the two mints larger first, compared as raw bytes
// (the program orders them with Pubkey's Ord).
func PoolPDA(config, baseMint, quoteMint solana.PublicKey) solana.PublicKey {
	hi, lo := baseMint, quoteMint
	if bytes.Compare(hi[:], lo[:]) < 0 {
		hi, lo = lo, hi
	}
	return anchor.PDA(ProgramID, []byte(SeedPool), config.Bytes(), hi.Bytes(), lo.Bytes())
}

// TokenVaultPDA returns the pool's vault of mint.
func TokenVaultPDA(mint, pool solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedTokenVault), mint.Bytes(), pool.Bytes())
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
