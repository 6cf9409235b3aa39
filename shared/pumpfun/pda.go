package pumpfun

import (
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// PDA seeds, as the IDL spells them.
const (
	SeedGlobal                  = "global"
	SeedMintAuthority           = "mint-authority"
	SeedEventAuthority          = "__event_authority"
	SeedGlobalVolumeAccumulator = "global_volume_accumulator"
	SeedUserVolumeAccumulator   = "user_volume_accumulator"
	SeedFeeConfig               = "fee_config" // under FeeProgramID, then ProgramID's bytes
	SeedBondingCurve            = "bonding-curve"
	SeedBondingCurveV2          = "bonding-curve-v2"
	SeedCreatorVault            = "creator-vault"
	SeedHolderRewards           = "holder-rewards"
	SeedQuoteControl            = "quote-control"
	SeedMetadata                = "metadata" // under MetaplexProgramID

	// Seeds under MayhemProgramID.
	SeedMayhemGlobalParams = "global-params"
	SeedMayhemSolVault     = "sol-vault"
	SeedMayhemState        = "mayhem-state"
)

// Fixed program-derived addresses.
var (
	// GlobalPDA is the program's Global account.
	GlobalPDA = anchor.PDA(ProgramID, []byte(SeedGlobal))
	// MintAuthorityPDA is the mint authority of every pump.fun mint.
	MintAuthorityPDA = anchor.PDA(ProgramID, []byte(SeedMintAuthority))
	// EventAuthorityPDA is the Anchor event-CPI authority.
	EventAuthorityPDA = anchor.PDA(ProgramID, []byte(SeedEventAuthority))
	// GlobalVolumeAccumulatorPDA is the volume accumulator of all users.
	GlobalVolumeAccumulatorPDA = anchor.PDA(ProgramID, []byte(SeedGlobalVolumeAccumulator))
	// FeeConfigPDA is the FeeConfig the fee program keeps for pump.fun.
	FeeConfigPDA = anchor.PDA(FeeProgramID, []byte(SeedFeeConfig), ProgramID.Bytes())
	// QuoteControlPDA lists the quote mints admitted beyond Global.
	QuoteControlPDA = anchor.PDA(ProgramID, []byte(SeedQuoteControl))
	// MayhemGlobalParamsPDA is the mayhem program's parameters.
	MayhemGlobalParamsPDA = anchor.PDA(MayhemProgramID, []byte(SeedMayhemGlobalParams))
	// MayhemSolVaultPDA is the mayhem program's SOL vault.
	MayhemSolVaultPDA = anchor.PDA(MayhemProgramID, []byte(SeedMayhemSolVault))
)

// BondingCurvePDA returns the bonding curve of mint.
func BondingCurvePDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedBondingCurve), mint.Bytes())
}

// BondingCurveV2PDA returns the bonding_curve_v2 account of mint, a
// remaining account of buy and sell.
func BondingCurveV2PDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedBondingCurveV2), mint.Bytes())
}

// AssociatedTokenAddress returns the associated token account of owner for
// mint under tokenProgram (SPL Token or Token-2022).
func AssociatedTokenAddress(owner, mint, tokenProgram solana.PublicKey) solana.PublicKey {
	return anchor.PDA(AssociatedTokenProgramID, owner.Bytes(), tokenProgram.Bytes(), mint.Bytes())
}

// AssociatedBondingCurve returns the curve's token account for mint: the
// associated token account of the bonding curve under tokenProgram.
func AssociatedBondingCurve(mint, tokenProgram solana.PublicKey) solana.PublicKey {
	return AssociatedTokenAddress(BondingCurvePDA(mint), mint, tokenProgram)
}

// CreatorVaultPDA returns the vault that collects creator fees for creator
// (BondingCurve.Creator).
func CreatorVaultPDA(creator solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedCreatorVault), creator.Bytes())
}

// UserVolumeAccumulatorPDA returns the volume accumulator of user.
func UserVolumeAccumulatorPDA(user solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedUserVolumeAccumulator), user.Bytes())
}

// HolderRewardsPDA returns the creator of a holder-reward coin.
func HolderRewardsPDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(ProgramID, []byte(SeedHolderRewards), mint.Bytes())
}

// MayhemStatePDA returns the mayhem program's state for mint.
func MayhemStatePDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(MayhemProgramID, []byte(SeedMayhemState), mint.Bytes())
}

// MayhemTokenVault returns the mayhem SOL vault's Token-2022 account for mint.
func MayhemTokenVault(mint solana.PublicKey) solana.PublicKey {
	return AssociatedTokenAddress(MayhemSolVaultPDA, mint, Token2022ProgramID)
}

// MetadataPDA returns the Metaplex metadata account of mint (legacy create).
func MetadataPDA(mint solana.PublicKey) solana.PublicKey {
	return anchor.PDA(MetaplexProgramID, []byte(SeedMetadata), MetaplexProgramID.Bytes(), mint.Bytes())
}
