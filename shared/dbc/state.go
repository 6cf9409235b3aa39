package dbc

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Account sizes, discriminator included.
const (
	PoolConfigSize  = 1048
	VirtualPoolSize = 424
)

// VirtualPoolBaseMintOffset is where a VirtualPool account holds its base
// mint: what a search for the pool of a mint compares.
const VirtualPoolBaseMintOffset = 136

// Uint128 is a little-endian u128 as the program stores it.
type Uint128 struct{ Lo, Hi uint64 }

// U128FromBig returns v as a Uint128; v must fit.
func U128FromBig(v *big.Int) Uint128 {
	lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0)))
	hi := new(big.Int).Rsh(v, 64)
	return Uint128{Lo: lo.Uint64(), Hi: hi.Uint64()}
}

// Big returns u as a big.Int.
func (u Uint128) Big() *big.Int {
	v := new(big.Int).SetUint64(u.Hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(u.Lo))
}

// IsZero tells whether u is 0.
func (u Uint128) IsZero() bool { return u.Lo == 0 && u.Hi == 0 }

// String returns u in decimal.
func (u Uint128) String() string { return u.Big().String() }

// layout reads and writes fixed offsets of a zero-copy account.
type layout []byte

func (l layout) u8(off int) uint8                   { return l[off] }
func (l layout) u16(off int) uint16                 { return binary.LittleEndian.Uint16(l[off:]) }
func (l layout) u32(off int) uint32                 { return binary.LittleEndian.Uint32(l[off:]) }
func (l layout) u64(off int) uint64                 { return binary.LittleEndian.Uint64(l[off:]) }
func (l layout) u128(off int) Uint128               { return Uint128{l.u64(off), l.u64(off + 8)} }
func (l layout) key(off int) solana.PublicKey       { return solana.PublicKeyFromBytes(l[off : off+32]) }
func (l layout) put8(off int, v uint8)              { l[off] = v }
func (l layout) put16(off int, v uint16)            { binary.LittleEndian.PutUint16(l[off:], v) }
func (l layout) put32(off int, v uint32)            { binary.LittleEndian.PutUint32(l[off:], v) }
func (l layout) put64(off int, v uint64)            { binary.LittleEndian.PutUint64(l[off:], v) }
func (l layout) put128(off int, v Uint128)          { l.put64(off, v.Lo); l.put64(off+8, v.Hi) }
func (l layout) putKey(off int, k solana.PublicKey) { copy(l[off:off+32], k[:]) }

func checkAccount(data []byte, size int, disc anchor.Discriminator, name string) error {
	if len(data) < size {
		return fmt.Errorf("dbc: decode %s: %w: %d bytes, want %d", name, anchor.ErrShortData, len(data), size)
	}
	if [8]byte(data[:8]) != disc {
		return fmt.Errorf("dbc: decode %s: %w: got %x", name, anchor.ErrDiscriminator, data[:8])
	}
	return nil
}

// BaseFeeConfig is the base fee schedule of a config. For the fee
// schedulers FirstFactor is the number of periods, SecondFactor the period
// length and ThirdFactor the reduction per period.
type BaseFeeConfig struct {
	CliffFeeNumerator uint64
	SecondFactor      uint64
	ThirdFactor       uint64
	FirstFactor       uint16
	BaseFeeMode       uint8
}

// DynamicFeeConfig is the volatility fee of a config; Initialized 0 turns
// it off.
type DynamicFeeConfig struct {
	Initialized              uint8
	MaxVolatilityAccumulator uint32
	VariableFeeControl       uint32
	BinStep                  uint16
	FilterPeriod             uint16
	DecayPeriod              uint16
	ReductionFactor          uint16
	BinStepU128              Uint128
}

// LockedVestingConfig is the base locked for the creator at migration.
type LockedVestingConfig struct {
	AmountPerPeriod                uint64
	CliffDurationFromMigrationTime uint64
	Frequency                      uint64
	NumberOfPeriod                 uint64
	CliffUnlockAmount              uint64
}

// Total returns the vested amount.
func (v LockedVestingConfig) Total() uint64 {
	return v.AmountPerPeriod*v.NumberOfPeriod + v.CliffUnlockAmount
}

// CurvePoint is one segment end of the liquidity curve: liquidity applies
// from the previous point's square-root price up to SqrtPrice.
type CurvePoint struct {
	SqrtPrice Uint128
	Liquidity Uint128
}

// PoolConfig is a partner's launch configuration (a bags config among
// them). Fields the swap and the pool creation do not read are kept raw.
type PoolConfig struct {
	QuoteMint        solana.PublicKey
	FeeClaimer       solana.PublicKey
	LeftoverReceiver solana.PublicKey
	BaseFee          BaseFeeConfig
	DynamicFee       DynamicFeeConfig
	// PartnerLiquidityVesting and CreatorLiquidityVesting are the raw
	// 16-byte LiquidityVestingInfo of the DAMM v2 migration.
	PartnerLiquidityVesting       [16]byte
	CreatorLiquidityVesting       [16]byte
	TransferFeeBasisPoints        uint16
	TransferFeeWithheldAuthority  uint8
	MigratedTransferFeeAuthority  uint8
	CollectFeeMode                uint8
	MigrationOption               uint8
	ActivationType                uint8
	TokenDecimal                  uint8
	Version                       uint8
	TokenType                     uint8
	QuoteTokenFlag                uint8
	PartnerPermanentLockedPercent uint8
	PartnerLiquidityPercent       uint8
	CreatorPermanentLockedPercent uint8
	CreatorLiquidityPercent       uint8
	MigrationFeeOption            uint8
	FixedTokenSupplyFlag          uint8
	CreatorTradingFeePercentage   uint8
	TokenUpdateAuthority          uint8
	MigrationFeePercentage        uint8
	CreatorMigrationFeePercentage uint8
	SwapBaseAmount                uint64
	MigrationQuoteThreshold       uint64
	MigrationBaseThreshold        uint64
	MigrationSqrtPrice            Uint128
	LockedVesting                 LockedVestingConfig
	PreMigrationTokenSupply       uint64
	PostMigrationTokenSupply      uint64
	MigratedCollectFeeMode        uint8
	MigratedDynamicFee            uint8
	MigratedPoolFeeBps            uint16
	MigratedPoolBaseFeeMode       uint8
	EnableFirstSwapWithMinFee     uint8
	MigratedCompoundingFeeBps     uint16
	PoolCreationFee               uint64
	MigratedPoolBaseFeeBytes      [16]byte
	SqrtStartPrice                Uint128
	Curve                         [MaxCurvePoints]CurvePoint
}

// Decode reads a PoolConfig account.
func (c *PoolConfig) Decode(data []byte) error {
	if err := checkAccount(data, PoolConfigSize, PoolConfigDiscriminator, "PoolConfig"); err != nil {
		return err
	}
	l := layout(data)
	c.QuoteMint, c.FeeClaimer, c.LeftoverReceiver = l.key(8), l.key(40), l.key(72)
	c.BaseFee = BaseFeeConfig{l.u64(104), l.u64(112), l.u64(120), l.u16(128), l.u8(130)}
	c.DynamicFee = DynamicFeeConfig{l.u8(136), l.u32(144), l.u32(148), l.u16(152), l.u16(154), l.u16(156), l.u16(158), l.u128(168)}
	copy(c.PartnerLiquidityVesting[:], l[184:200])
	copy(c.CreatorLiquidityVesting[:], l[200:216])
	c.TransferFeeBasisPoints, c.TransferFeeWithheldAuthority, c.MigratedTransferFeeAuthority = l.u16(216), l.u8(218), l.u8(219)
	b := []*uint8{&c.CollectFeeMode, &c.MigrationOption, &c.ActivationType, &c.TokenDecimal, &c.Version, &c.TokenType,
		&c.QuoteTokenFlag, &c.PartnerPermanentLockedPercent, &c.PartnerLiquidityPercent, &c.CreatorPermanentLockedPercent,
		&c.CreatorLiquidityPercent, &c.MigrationFeeOption, &c.FixedTokenSupplyFlag, &c.CreatorTradingFeePercentage,
		&c.TokenUpdateAuthority, &c.MigrationFeePercentage, &c.CreatorMigrationFeePercentage}
	for i, p := range b {
		*p = l.u8(232 + i)
	}
	c.SwapBaseAmount, c.MigrationQuoteThreshold, c.MigrationBaseThreshold = l.u64(256), l.u64(264), l.u64(272)
	c.MigrationSqrtPrice = l.u128(280)
	c.LockedVesting = LockedVestingConfig{l.u64(296), l.u64(304), l.u64(312), l.u64(320), l.u64(328)}
	c.PreMigrationTokenSupply, c.PostMigrationTokenSupply = l.u64(344), l.u64(352)
	c.MigratedCollectFeeMode, c.MigratedDynamicFee, c.MigratedPoolFeeBps = l.u8(360), l.u8(361), l.u16(362)
	c.MigratedPoolBaseFeeMode, c.EnableFirstSwapWithMinFee, c.MigratedCompoundingFeeBps = l.u8(364), l.u8(365), l.u16(366)
	c.PoolCreationFee = l.u64(368)
	copy(c.MigratedPoolBaseFeeBytes[:], l[376:392])
	c.SqrtStartPrice = l.u128(392)
	for i := range c.Curve {
		c.Curve[i] = CurvePoint{l.u128(408 + 32*i), l.u128(424 + 32*i)}
	}
	return nil
}

// Encode writes c as a PoolConfigSize-byte account.
func (c *PoolConfig) Encode() []byte {
	l := layout(make([]byte, PoolConfigSize))
	copy(l, PoolConfigDiscriminator[:])
	l.putKey(8, c.QuoteMint)
	l.putKey(40, c.FeeClaimer)
	l.putKey(72, c.LeftoverReceiver)
	l.put64(104, c.BaseFee.CliffFeeNumerator)
	l.put64(112, c.BaseFee.SecondFactor)
	l.put64(120, c.BaseFee.ThirdFactor)
	l.put16(128, c.BaseFee.FirstFactor)
	l.put8(130, c.BaseFee.BaseFeeMode)
	d := c.DynamicFee
	l.put8(136, d.Initialized)
	l.put32(144, d.MaxVolatilityAccumulator)
	l.put32(148, d.VariableFeeControl)
	l.put16(152, d.BinStep)
	l.put16(154, d.FilterPeriod)
	l.put16(156, d.DecayPeriod)
	l.put16(158, d.ReductionFactor)
	l.put128(168, d.BinStepU128)
	copy(l[184:200], c.PartnerLiquidityVesting[:])
	copy(l[200:216], c.CreatorLiquidityVesting[:])
	l.put16(216, c.TransferFeeBasisPoints)
	l.put8(218, c.TransferFeeWithheldAuthority)
	l.put8(219, c.MigratedTransferFeeAuthority)
	for i, v := range []uint8{c.CollectFeeMode, c.MigrationOption, c.ActivationType, c.TokenDecimal, c.Version, c.TokenType,
		c.QuoteTokenFlag, c.PartnerPermanentLockedPercent, c.PartnerLiquidityPercent, c.CreatorPermanentLockedPercent,
		c.CreatorLiquidityPercent, c.MigrationFeeOption, c.FixedTokenSupplyFlag, c.CreatorTradingFeePercentage,
		c.TokenUpdateAuthority, c.MigrationFeePercentage, c.CreatorMigrationFeePercentage} {
		l.put8(232+i, v)
	}
	l.put64(256, c.SwapBaseAmount)
	l.put64(264, c.MigrationQuoteThreshold)
	l.put64(272, c.MigrationBaseThreshold)
	l.put128(280, c.MigrationSqrtPrice)
	v := c.LockedVesting
	for i, x := range []uint64{v.AmountPerPeriod, v.CliffDurationFromMigrationTime, v.Frequency, v.NumberOfPeriod, v.CliffUnlockAmount} {
		l.put64(296+8*i, x)
	}
	l.put64(344, c.PreMigrationTokenSupply)
	l.put64(352, c.PostMigrationTokenSupply)
	l.put8(360, c.MigratedCollectFeeMode)
	l.put8(361, c.MigratedDynamicFee)
	l.put16(362, c.MigratedPoolFeeBps)
	l.put8(364, c.MigratedPoolBaseFeeMode)
	l.put8(365, c.EnableFirstSwapWithMinFee)
	l.put16(366, c.MigratedCompoundingFeeBps)
	l.put64(368, c.PoolCreationFee)
	copy(l[376:392], c.MigratedPoolBaseFeeBytes[:])
	l.put128(392, c.SqrtStartPrice)
	for i, p := range c.Curve {
		l.put128(408+32*i, p.SqrtPrice)
		l.put128(424+32*i, p.Liquidity)
	}
	return l
}

// InitialBaseSupply returns the base minted into the vault when a pool is
// created: the fixed supply, or what the curve sells plus what migrates and
// vests.
func (c *PoolConfig) InitialBaseSupply() uint64 {
	if c.FixedTokenSupplyFlag == 1 {
		return c.PreMigrationTokenSupply
	}
	return c.SwapBaseAmount + c.MigrationBaseThreshold + c.LockedVesting.Total()
}

// VolatilityTracker is the dynamic-fee state of a pool.
type VolatilityTracker struct {
	LastUpdateTimestamp   uint64
	SqrtPriceReference    Uint128
	VolatilityAccumulator Uint128
	VolatilityReference   Uint128
}

// VirtualPool is one launch: its reserves, price, accrued fees and state.
type VirtualPool struct {
	Volatility                VolatilityTracker
	Config                    solana.PublicKey
	Creator                   solana.PublicKey
	BaseMint                  solana.PublicKey
	BaseVault                 solana.PublicKey
	QuoteVault                solana.PublicKey
	BaseReserve               uint64
	QuoteReserve              uint64 // quote raised, fees excluded
	ProtocolBaseFee           uint64
	ProtocolQuoteFee          uint64
	PartnerBaseFee            uint64
	PartnerQuoteFee           uint64
	SqrtPrice                 Uint128
	ActivationPoint           uint64
	PoolType                  uint8
	IsMigrated                uint8
	IsPartnerWithdrawSurplus  uint8
	IsProtocolWithdrawSurplus uint8
	MigrationProgress         uint8
	IsWithdrawLeftover        uint8
	IsCreatorWithdrawSurplus  uint8
	MigrationFeeWithdrawStat  uint8
	TotalProtocolBaseFee      uint64
	TotalProtocolQuoteFee     uint64
	TotalTradingBaseFee       uint64
	TotalTradingQuoteFee      uint64
	FinishCurveTimestamp      uint64
	CreatorBaseFee            uint64
	CreatorQuoteFee           uint64
	LegacyCreationFeeBits     uint8
	CreationFeeBits           uint8
	HasSwap                   uint8
}

// Decode reads a VirtualPool account.
func (p *VirtualPool) Decode(data []byte) error {
	if err := checkAccount(data, VirtualPoolSize, VirtualPoolDiscriminator, "VirtualPool"); err != nil {
		return err
	}
	l := layout(data)
	p.Volatility = VolatilityTracker{l.u64(8), l.u128(24), l.u128(40), l.u128(56)}
	p.Config, p.Creator, p.BaseMint, p.BaseVault, p.QuoteVault = l.key(72), l.key(104), l.key(VirtualPoolBaseMintOffset), l.key(168), l.key(200)
	p.BaseReserve, p.QuoteReserve = l.u64(232), l.u64(240)
	p.ProtocolBaseFee, p.ProtocolQuoteFee, p.PartnerBaseFee, p.PartnerQuoteFee = l.u64(248), l.u64(256), l.u64(264), l.u64(272)
	p.SqrtPrice = l.u128(280)
	p.ActivationPoint = l.u64(296)
	for i, f := range []*uint8{&p.PoolType, &p.IsMigrated, &p.IsPartnerWithdrawSurplus, &p.IsProtocolWithdrawSurplus,
		&p.MigrationProgress, &p.IsWithdrawLeftover, &p.IsCreatorWithdrawSurplus, &p.MigrationFeeWithdrawStat} {
		*f = l.u8(304 + i)
	}
	p.TotalProtocolBaseFee, p.TotalProtocolQuoteFee, p.TotalTradingBaseFee, p.TotalTradingQuoteFee = l.u64(312), l.u64(320), l.u64(328), l.u64(336)
	p.FinishCurveTimestamp, p.CreatorBaseFee, p.CreatorQuoteFee = l.u64(344), l.u64(352), l.u64(360)
	p.LegacyCreationFeeBits, p.CreationFeeBits, p.HasSwap = l.u8(368), l.u8(369), l.u8(370)
	return nil
}

// Encode writes p as a VirtualPoolSize-byte account.
func (p *VirtualPool) Encode() []byte {
	l := layout(make([]byte, VirtualPoolSize))
	p.EncodeInto(l)
	return l
}

// EncodeInto writes p over data, an existing account of at least
// VirtualPoolSize bytes, leaving the fields this type does not model as
// they are.
func (p *VirtualPool) EncodeInto(data []byte) {
	l := layout(data)
	copy(l, VirtualPoolDiscriminator[:])
	l.put64(8, p.Volatility.LastUpdateTimestamp)
	l.put128(24, p.Volatility.SqrtPriceReference)
	l.put128(40, p.Volatility.VolatilityAccumulator)
	l.put128(56, p.Volatility.VolatilityReference)
	for i, k := range []solana.PublicKey{p.Config, p.Creator, p.BaseMint, p.BaseVault, p.QuoteVault} {
		l.putKey(72+32*i, k)
	}
	for i, v := range []uint64{p.BaseReserve, p.QuoteReserve, p.ProtocolBaseFee, p.ProtocolQuoteFee, p.PartnerBaseFee, p.PartnerQuoteFee} {
		l.put64(232+8*i, v)
	}
	l.put128(280, p.SqrtPrice)
	l.put64(296, p.ActivationPoint)
	for i, v := range []uint8{p.PoolType, p.IsMigrated, p.IsPartnerWithdrawSurplus, p.IsProtocolWithdrawSurplus,
		p.MigrationProgress, p.IsWithdrawLeftover, p.IsCreatorWithdrawSurplus, p.MigrationFeeWithdrawStat} {
		l.put8(304+i, v)
	}
	for i, v := range []uint64{p.TotalProtocolBaseFee, p.TotalProtocolQuoteFee, p.TotalTradingBaseFee, p.TotalTradingQuoteFee,
		p.FinishCurveTimestamp, p.CreatorBaseFee, p.CreatorQuoteFee} {
		l.put64(312+8*i, v)
	}
	l.put8(368, p.LegacyCreationFeeBits)
	l.put8(369, p.CreationFeeBits)
	l.put8(370, p.HasSwap)
}

// DecodeVirtualPool decodes a VirtualPool account's data.
func DecodeVirtualPool(data []byte) (VirtualPool, error) {
	var p VirtualPool
	err := p.Decode(data)
	return p, err
}

// DecodePoolConfig decodes a PoolConfig account's data.
func DecodePoolConfig(data []byte) (PoolConfig, error) {
	var c PoolConfig
	err := c.Decode(data)
	return c, err
}

// IsCurveComplete tells whether the pool raised its migration threshold:
// it then takes no more swaps.
func (p *VirtualPool) IsCurveComplete(c *PoolConfig) bool {
	return p.QuoteReserve >= c.MigrationQuoteThreshold
}
