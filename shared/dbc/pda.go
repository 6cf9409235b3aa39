package dbc

import (
	"bytes"
	"fmt"

	"github.com/gagliardetto/solana-go"
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
	PoolAuthorityPDA, PoolAuthorityBump = FindPDA(ProgramID, []byte(SeedPoolAuthority))
	// EventAuthorityPDA is the Anchor event-CPI authority.
	EventAuthorityPDA, _ = FindPDA(ProgramID, []byte(SeedEventAuthority))
)

// FindPDA returns the program-derived address of seeds under program with
// its bump.
func FindPDA(program solana.PublicKey, seeds ...[]byte) (solana.PublicKey, uint8) {
	addr, bump, err := solana.FindProgramAddress(seeds, program)
	if err != nil {
		// No bump in 255 gives an off-curve point: probability 2^-255.
		panic(fmt.Sprintf("dbc: no program address for seeds under %s: %v", program, err))
	}
	return addr, bump
}

// PoolPDA returns the pool of baseMint and quoteMint under config: seeds
// "pool", config, then the two mints larger first, compared as raw bytes
// (the program orders them with Pubkey's Ord).
func PoolPDA(config, baseMint, quoteMint solana.PublicKey) solana.PublicKey {
	hi, lo := baseMint, quoteMint
	if bytes.Compare(hi[:], lo[:]) < 0 {
		hi, lo = lo, hi
	}
	k, _ := FindPDA(ProgramID, []byte(SeedPool), config.Bytes(), hi.Bytes(), lo.Bytes())
	return k
}

// TokenVaultPDA returns the pool's vault of mint.
func TokenVaultPDA(mint, pool solana.PublicKey) solana.PublicKey {
	k, _ := FindPDA(ProgramID, []byte(SeedTokenVault), mint.Bytes(), pool.Bytes())
	return k
}

// MetadataPDA returns the Metaplex metadata account of mint.
func MetadataPDA(mint solana.PublicKey) solana.PublicKey {
	k, _ := FindPDA(MetaplexProgramID, []byte(SeedMetadata), MetaplexProgramID.Bytes(), mint.Bytes())
	return k
}

// AssociatedTokenAddress returns the associated token account of owner for
// mint under tokenProgram.
func AssociatedTokenAddress(owner, mint, tokenProgram solana.PublicKey) solana.PublicKey {
	k, _ := FindPDA(AssociatedTokenProgramID, owner.Bytes(), tokenProgram.Bytes(), mint.Bytes())
	return k
}
