package launchlab

import (
	"fmt"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account sizes, discriminator included.
const (
	GlobalConfigSize   = 371
	PlatformConfigSize = 944
	PoolStateSize      = 429
)

// GlobalConfig is the protocol's configuration of one quote mint, curve
// type and index. Rates are in FeeRateDenominator units.
type GlobalConfig struct {
	Epoch                 uint64
	CurveType             uint8
	Index                 uint16
	MigrateFee            uint64
	TradeFeeRate          uint64 // the protocol fee of every trade
	MaxShareFeeRate       uint64
	MinBaseSupply         uint64
	MaxLockRate           uint64
	MinBaseSellRate       uint64
	MinBaseMigrateRate    uint64
	MinQuoteFundRaising   uint64
	QuoteMint             solana.PublicKey
	ProtocolFeeOwner      solana.PublicKey
	MigrateFeeOwner       solana.PublicKey
	MigrateToAMMWallet    solana.PublicKey
	MigrateToCPSwapWallet solana.PublicKey
}

// Decode reads a GlobalConfig account.
func (g *GlobalConfig) Decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(GlobalConfigDiscriminator, "GlobalConfig")
	g.Epoch = d.U64()
	g.CurveType = d.U8()
	g.Index = d.U16()
	g.MigrateFee = d.U64()
	g.TradeFeeRate = d.U64()
	g.MaxShareFeeRate = d.U64()
	g.MinBaseSupply = d.U64()
	g.MaxLockRate = d.U64()
	g.MinBaseSellRate = d.U64()
	g.MinBaseMigrateRate = d.U64()
	g.MinQuoteFundRaising = d.U64()
	g.QuoteMint = d.Key()
	g.ProtocolFeeOwner = d.Key()
	g.MigrateFeeOwner = d.Key()
	g.MigrateToAMMWallet = d.Key()
	g.MigrateToCPSwapWallet = d.Key()
	if d.Err != nil {
		return fmt.Errorf("launchlab: decode GlobalConfig: %w", d.Err)
	}
	return nil
}

// Encode writes g as a GlobalConfigSize-byte account.
func (g *GlobalConfig) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, GlobalConfigSize)}
	e.Disc(GlobalConfigDiscriminator)
	e.U64(g.Epoch)
	e.U8(g.CurveType)
	e.U16(g.Index)
	e.U64(g.MigrateFee)
	e.U64(g.TradeFeeRate)
	e.U64(g.MaxShareFeeRate)
	e.U64(g.MinBaseSupply)
	e.U64(g.MaxLockRate)
	e.U64(g.MinBaseSellRate)
	e.U64(g.MinBaseMigrateRate)
	e.U64(g.MinQuoteFundRaising)
	e.Key(g.QuoteMint)
	e.Key(g.ProtocolFeeOwner)
	e.Key(g.MigrateFeeOwner)
	e.Key(g.MigrateToAMMWallet)
	e.Key(g.MigrateToCPSwapWallet)
	e.Pad(GlobalConfigSize)
	return e.B
}

// PlatformConfig is a launch platform's configuration (letsbonk's among
// them). The fixed-size text fields are kept raw.
type PlatformConfig struct {
	Epoch                    uint64
	PlatformFeeWallet        solana.PublicKey
	PlatformNFTWallet        solana.PublicKey
	PlatformScale            uint64
	CreatorScale             uint64
	BurnScale                uint64
	FeeRate                  uint64 // platform fee of every trade
	Name                     [64]byte
	Web                      [256]byte
	Img                      [256]byte
	CPSwapConfig             solana.PublicKey
	CreatorFeeRate           uint64 // creator fee of every trade
	TransferFeeExtensionAuth solana.PublicKey
	PlatformVestingWallet    solana.PublicKey
	PlatformVestingScale     uint64
	PlatformCPCreator        solana.PublicKey
	RestrictGlobalConfig     uint8
	// RestrictCurveParam 1 makes initialize_v2 require the platform curve
	// rule as a trailing account.
	RestrictCurveParam uint8
	CurveRuleManager   solana.PublicKey
}

// Decode reads a PlatformConfig account. Accounts written before the
// creator-fee upgrade are shorter; the missing fields read as zero.
func (p *PlatformConfig) Decode(data []byte) error {
	d := anchor.Decoder{B: anchor.Padded(data, PlatformConfigSize)}
	d.Disc(PlatformConfigDiscriminator, "PlatformConfig")
	p.Epoch = d.U64()
	p.PlatformFeeWallet = d.Key()
	p.PlatformNFTWallet = d.Key()
	p.PlatformScale = d.U64()
	p.CreatorScale = d.U64()
	p.BurnScale = d.U64()
	p.FeeRate = d.U64()
	copy(p.Name[:], d.Take(64))
	copy(p.Web[:], d.Take(256))
	copy(p.Img[:], d.Take(256))
	p.CPSwapConfig = d.Key()
	p.CreatorFeeRate = d.U64()
	p.TransferFeeExtensionAuth = d.Key()
	p.PlatformVestingWallet = d.Key()
	p.PlatformVestingScale = d.U64()
	p.PlatformCPCreator = d.Key()
	p.RestrictGlobalConfig = d.U8()
	p.RestrictCurveParam = d.U8()
	p.CurveRuleManager = d.Key()
	if d.Err != nil {
		return fmt.Errorf("launchlab: decode PlatformConfig: %w", d.Err)
	}
	return nil
}

// Encode writes p as a PlatformConfigSize-byte account.
func (p *PlatformConfig) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, PlatformConfigSize)}
	e.Disc(PlatformConfigDiscriminator)
	e.U64(p.Epoch)
	e.Key(p.PlatformFeeWallet)
	e.Key(p.PlatformNFTWallet)
	e.U64(p.PlatformScale)
	e.U64(p.CreatorScale)
	e.U64(p.BurnScale)
	e.U64(p.FeeRate)
	e.B = append(e.B, p.Name[:]...)
	e.B = append(e.B, p.Web[:]...)
	e.B = append(e.B, p.Img[:]...)
	e.Key(p.CPSwapConfig)
	e.U64(p.CreatorFeeRate)
	e.Key(p.TransferFeeExtensionAuth)
	e.Key(p.PlatformVestingWallet)
	e.U64(p.PlatformVestingScale)
	e.Key(p.PlatformCPCreator)
	e.U8(p.RestrictGlobalConfig)
	e.U8(p.RestrictCurveParam)
	e.Key(p.CurveRuleManager)
	e.Pad(PlatformConfigSize)
	return e.B
}

// VestingSchedule is the base-token vesting of a pool.
type VestingSchedule struct {
	TotalLockedAmount    uint64
	CliffPeriod          uint64
	UnlockPeriod         uint64
	StartTime            uint64
	AllocatedShareAmount uint64
}

// PoolState is one launch: its curve, reserves, accrued fees and accounts.
type PoolState struct {
	Epoch                 uint64
	AuthBump              uint8
	Status                uint8 // StatusFund, StatusMigrate or StatusTrade
	BaseDecimals          uint8
	QuoteDecimals         uint8
	MigrateType           uint8
	Supply                uint64
	TotalBaseSell         uint64
	VirtualBase           uint64
	VirtualQuote          uint64
	RealBase              uint64 // base sold so far
	RealQuote             uint64 // quote raised so far, fees excluded
	TotalQuoteFundRaising uint64
	QuoteProtocolFee      uint64 // protocol fees held in the quote vault
	PlatformFee           uint64 // platform fees held in the quote vault (pools from before the fee vaults)
	MigrateFee            uint64
	Vesting               VestingSchedule
	GlobalConfig          solana.PublicKey
	PlatformConfig        solana.PublicKey
	BaseMint              solana.PublicKey
	QuoteMint             solana.PublicKey
	BaseVault             solana.PublicKey
	QuoteVault            solana.PublicKey
	Creator               solana.PublicKey
	// TokenProgramFlag bit 0: the base mint is Token-2022; bit 1: the quote
	// mint is.
	TokenProgramFlag     uint8
	AMMCreatorFeeOn      uint8
	PlatformVestingShare uint64
}

// Decode reads a PoolState account.
func (p *PoolState) Decode(data []byte) error {
	d := anchor.Decoder{B: anchor.Padded(data, PoolStateSize)}
	d.Disc(PoolStateDiscriminator, "PoolState")
	p.Epoch = d.U64()
	p.AuthBump = d.U8()
	p.Status = d.U8()
	p.BaseDecimals = d.U8()
	p.QuoteDecimals = d.U8()
	p.MigrateType = d.U8()
	p.Supply = d.U64()
	p.TotalBaseSell = d.U64()
	p.VirtualBase = d.U64()
	p.VirtualQuote = d.U64()
	p.RealBase = d.U64()
	p.RealQuote = d.U64()
	p.TotalQuoteFundRaising = d.U64()
	p.QuoteProtocolFee = d.U64()
	p.PlatformFee = d.U64()
	p.MigrateFee = d.U64()
	p.Vesting = VestingSchedule{d.U64(), d.U64(), d.U64(), d.U64(), d.U64()}
	p.GlobalConfig = d.Key()
	p.PlatformConfig = d.Key()
	p.BaseMint = d.Key()
	p.QuoteMint = d.Key()
	p.BaseVault = d.Key()
	p.QuoteVault = d.Key()
	p.Creator = d.Key()
	p.TokenProgramFlag = d.U8()
	p.AMMCreatorFeeOn = d.U8()
	p.PlatformVestingShare = d.U64()
	if d.Err != nil {
		return fmt.Errorf("launchlab: decode PoolState: %w", d.Err)
	}
	return nil
}

// Encode writes p as a PoolStateSize-byte account.
func (p *PoolState) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, PoolStateSize)}
	e.Disc(PoolStateDiscriminator)
	e.U64(p.Epoch)
	e.U8(p.AuthBump)
	e.U8(p.Status)
	e.U8(p.BaseDecimals)
	e.U8(p.QuoteDecimals)
	e.U8(p.MigrateType)
	for _, v := range []uint64{p.Supply, p.TotalBaseSell, p.VirtualBase, p.VirtualQuote, p.RealBase, p.RealQuote,
		p.TotalQuoteFundRaising, p.QuoteProtocolFee, p.PlatformFee, p.MigrateFee,
		p.Vesting.TotalLockedAmount, p.Vesting.CliffPeriod, p.Vesting.UnlockPeriod, p.Vesting.StartTime, p.Vesting.AllocatedShareAmount} {
		e.U64(v)
	}
	for _, k := range []solana.PublicKey{p.GlobalConfig, p.PlatformConfig, p.BaseMint, p.QuoteMint, p.BaseVault, p.QuoteVault, p.Creator} {
		e.Key(k)
	}
	e.U8(p.TokenProgramFlag)
	e.U8(p.AMMCreatorFeeOn)
	e.U64(p.PlatformVestingShare)
	e.Pad(PoolStateSize)
	return e.B
}

// DecodePool decodes a PoolState account's data.
func DecodePool(data []byte) (PoolState, error) {
	var p PoolState
	err := p.Decode(data)
	return p, err
}

// DecodeGlobalConfig decodes a GlobalConfig account's data.
func DecodeGlobalConfig(data []byte) (GlobalConfig, error) {
	var g GlobalConfig
	err := g.Decode(data)
	return g, err
}

// DecodePlatformConfig decodes a PlatformConfig account's data.
func DecodePlatformConfig(data []byte) (PlatformConfig, error) {
	var p PlatformConfig
	err := p.Decode(data)
	return p, err
}

// BaseTokenProgram returns the token program of the pool's base mint.
func (p *PoolState) BaseTokenProgram() solana.PublicKey {
	if p.TokenProgramFlag&1 != 0 {
		return Token2022ProgramID
	}
	return TokenProgramID
}
