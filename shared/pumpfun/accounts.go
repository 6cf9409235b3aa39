package pumpfun

import (
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// Account discriminators (IDL accounts[].discriminator).
var (
	GlobalDiscriminator                  = AccountDiscriminator("Global")
	BondingCurveDiscriminator            = AccountDiscriminator("BondingCurve")
	FeeConfigDiscriminator               = AccountDiscriminator("FeeConfig")
	UserVolumeAccumulatorDiscriminator   = AccountDiscriminator("UserVolumeAccumulator")
	GlobalVolumeAccumulatorDiscriminator = AccountDiscriminator("GlobalVolumeAccumulator")
)

// Account sizes in bytes, discriminator included.
const (
	// GlobalSize is Global with every field of the IDL. The live account has
	// been 1045 and 1054 bytes; shorter data decodes zero-padded.
	GlobalSize = 1087

	// BondingCurveSize is BondingCurve with every field of the IDL.
	BondingCurveSize = 125
	// BondingCurveAccountSize is what extend_account grows a curve to and
	// what Encode writes: the fields, then zero bytes the program reserves.
	BondingCurveAccountSize = 151
	// BondingCurveMinSize is the first layout ever written (through
	// complete); the program rejects anything shorter.
	BondingCurveMinSize = 49

	// FeeConfigMinSize, FeeConfigPostStableSize and FeeConfigSize are the
	// lengths that select the FeeConfig layout version: below
	// FeeConfigPostStableSize there are no stable tiers, below FeeConfigSize
	// no exotic flat fees.
	FeeConfigMinSize        = 2512
	FeeConfigPostStableSize = 4073
	FeeConfigSize           = 4097

	// UserVolumeAccumulatorSize is UserVolumeAccumulator with every field of
	// the IDL; accounts written before cashback are 74 bytes.
	UserVolumeAccumulatorSize = 106
	// GlobalVolumeAccumulatorSize is GlobalVolumeAccumulator's size.
	GlobalVolumeAccumulatorSize = 544
)

// Global is the program's configuration account (GlobalPDA).
type Global struct {
	Initialized                  bool
	Authority                    solana.PublicKey
	FeeRecipient                 solana.PublicKey
	InitialVirtualTokenReserves  uint64
	InitialVirtualSolReserves    uint64
	InitialRealTokenReserves     uint64
	TokenTotalSupply             uint64
	FeeBasisPoints               uint64
	WithdrawAuthority            solana.PublicKey
	EnableMigrate                bool
	PoolMigrationFee             uint64
	CreatorFeeBasisPoints        uint64
	FeeRecipients                [7]solana.PublicKey
	SetCreatorAuthority          solana.PublicKey
	AdminSetCreatorAuthority     solana.PublicKey
	CreateV2Enabled              bool
	WhitelistPDA                 solana.PublicKey
	ReservedFeeRecipient         solana.PublicKey
	MayhemModeEnabled            bool
	ReservedFeeRecipients        [7]solana.PublicKey
	IsCashbackEnabled            bool
	BuybackFeeRecipients         [8]solana.PublicKey
	BuybackBasisPoints           uint64
	InitialVirtualQuoteReserves  uint64
	WhitelistedQuoteMints        [1]solana.PublicKey
	CreatorFeeConfigurable       bool
	MaxConfigurableCreatorFeeBps uint64
	HolderRewardClaimAuthority   solana.PublicKey
	IsHolderRewardEnabled        bool
}

// Decode reads a Global account. Data shorter than GlobalSize (older
// layouts) reads the missing trailing fields as zero.
func (g *Global) Decode(data []byte) error {
	if len(data) < 8 {
		return fmt.Errorf("decode Global: %w: %d bytes", ErrShortData, len(data))
	}
	d := decoder{b: padded(data, GlobalSize)}
	d.disc(GlobalDiscriminator, "Global")
	g.Initialized = d.boolean()
	g.Authority = d.key()
	g.FeeRecipient = d.key()
	g.InitialVirtualTokenReserves = d.u64()
	g.InitialVirtualSolReserves = d.u64()
	g.InitialRealTokenReserves = d.u64()
	g.TokenTotalSupply = d.u64()
	g.FeeBasisPoints = d.u64()
	g.WithdrawAuthority = d.key()
	g.EnableMigrate = d.boolean()
	g.PoolMigrationFee = d.u64()
	g.CreatorFeeBasisPoints = d.u64()
	for i := range g.FeeRecipients {
		g.FeeRecipients[i] = d.key()
	}
	g.SetCreatorAuthority = d.key()
	g.AdminSetCreatorAuthority = d.key()
	g.CreateV2Enabled = d.boolean()
	g.WhitelistPDA = d.key()
	g.ReservedFeeRecipient = d.key()
	g.MayhemModeEnabled = d.boolean()
	for i := range g.ReservedFeeRecipients {
		g.ReservedFeeRecipients[i] = d.key()
	}
	g.IsCashbackEnabled = d.boolean()
	for i := range g.BuybackFeeRecipients {
		g.BuybackFeeRecipients[i] = d.key()
	}
	g.BuybackBasisPoints = d.u64()
	g.InitialVirtualQuoteReserves = d.u64()
	for i := range g.WhitelistedQuoteMints {
		g.WhitelistedQuoteMints[i] = d.key()
	}
	g.CreatorFeeConfigurable = d.boolean()
	g.MaxConfigurableCreatorFeeBps = d.u64()
	g.HolderRewardClaimAuthority = d.key()
	g.IsHolderRewardEnabled = d.boolean()
	if d.err != nil {
		return fmt.Errorf("decode Global: %w", d.err)
	}
	return nil
}

// Encode writes g as a GlobalSize-byte account.
func (g *Global) Encode() []byte {
	e := encoder{b: make([]byte, 0, GlobalSize)}
	e.disc(GlobalDiscriminator)
	e.boolean(g.Initialized)
	e.key(g.Authority)
	e.key(g.FeeRecipient)
	e.u64(g.InitialVirtualTokenReserves)
	e.u64(g.InitialVirtualSolReserves)
	e.u64(g.InitialRealTokenReserves)
	e.u64(g.TokenTotalSupply)
	e.u64(g.FeeBasisPoints)
	e.key(g.WithdrawAuthority)
	e.boolean(g.EnableMigrate)
	e.u64(g.PoolMigrationFee)
	e.u64(g.CreatorFeeBasisPoints)
	for _, k := range g.FeeRecipients {
		e.key(k)
	}
	e.key(g.SetCreatorAuthority)
	e.key(g.AdminSetCreatorAuthority)
	e.boolean(g.CreateV2Enabled)
	e.key(g.WhitelistPDA)
	e.key(g.ReservedFeeRecipient)
	e.boolean(g.MayhemModeEnabled)
	for _, k := range g.ReservedFeeRecipients {
		e.key(k)
	}
	e.boolean(g.IsCashbackEnabled)
	for _, k := range g.BuybackFeeRecipients {
		e.key(k)
	}
	e.u64(g.BuybackBasisPoints)
	e.u64(g.InitialVirtualQuoteReserves)
	for _, k := range g.WhitelistedQuoteMints {
		e.key(k)
	}
	e.boolean(g.CreatorFeeConfigurable)
	e.u64(g.MaxConfigurableCreatorFeeBps)
	e.key(g.HolderRewardClaimAuthority)
	e.boolean(g.IsHolderRewardEnabled)
	return e.b
}

// FeeRecipientCandidates returns the fee recipients a trade may name: for a
// mayhem-mode coin the reserved ones, otherwise fee_recipient and
// fee_recipients. Zero keys are left out.
func (g *Global) FeeRecipientCandidates(mayhem bool) []solana.PublicKey {
	first, rest := g.FeeRecipient, g.FeeRecipients
	if mayhem {
		first, rest = g.ReservedFeeRecipient, g.ReservedFeeRecipients
	}
	out := make([]solana.PublicKey, 0, FeeRecipientCount)
	for _, k := range append([]solana.PublicKey{first}, rest[:]...) {
		if !k.IsZero() {
			out = append(out, k)
		}
	}
	return out
}

// BuybackFeeRecipientCandidates returns the non-zero buyback fee recipients.
func (g *Global) BuybackFeeRecipientCandidates() []solana.PublicKey {
	out := make([]solana.PublicKey, 0, BuybackFeeRecipientCount)
	for _, k := range g.BuybackFeeRecipients {
		if !k.IsZero() {
			out = append(out, k)
		}
	}
	return out
}

// BondingCurve is one coin's curve (BondingCurvePDA(mint)).
type BondingCurve struct {
	VirtualTokenReserves uint64
	// VirtualQuoteReserves is virtual_sol_reserves for a SOL-quoted coin.
	VirtualQuoteReserves uint64
	RealTokenReserves    uint64
	RealQuoteReserves    uint64
	TokenTotalSupply     uint64
	Complete             bool
	Creator              solana.PublicKey
	IsMayhemMode         bool
	IsCashbackCoin       bool
	// QuoteMint is the zero key for a SOL-quoted coin.
	QuoteMint         solana.PublicKey
	CreatorFeeBps     uint64
	CanEditCreatorFee bool
	IsHolderReward    bool
}

// Decode reads a BondingCurve of any length the program has written (49,
// 81, 82, 83, 115, 124, 125 or the extended 151 bytes): the fields a shorter
// account lacks read as zero, bytes past BondingCurveSize are ignored.
func (c *BondingCurve) Decode(data []byte) error {
	if len(data) < BondingCurveMinSize {
		return fmt.Errorf("decode BondingCurve: %w: %d bytes, want at least %d", ErrShortData, len(data), BondingCurveMinSize)
	}
	d := decoder{b: padded(data, BondingCurveSize)}
	d.disc(BondingCurveDiscriminator, "BondingCurve")
	c.VirtualTokenReserves = d.u64()
	c.VirtualQuoteReserves = d.u64()
	c.RealTokenReserves = d.u64()
	c.RealQuoteReserves = d.u64()
	c.TokenTotalSupply = d.u64()
	c.Complete = d.boolean()
	c.Creator = d.key()
	c.IsMayhemMode = d.boolean()
	c.IsCashbackCoin = d.boolean()
	c.QuoteMint = d.key()
	c.CreatorFeeBps = d.u64()
	c.CanEditCreatorFee = d.boolean()
	c.IsHolderReward = d.boolean()
	if d.err != nil {
		return fmt.Errorf("decode BondingCurve: %w", d.err)
	}
	return nil
}

// Encode writes c as a BondingCurveAccountSize-byte account.
func (c *BondingCurve) Encode() []byte {
	e := encoder{b: make([]byte, 0, BondingCurveAccountSize)}
	e.disc(BondingCurveDiscriminator)
	e.u64(c.VirtualTokenReserves)
	e.u64(c.VirtualQuoteReserves)
	e.u64(c.RealTokenReserves)
	e.u64(c.RealQuoteReserves)
	e.u64(c.TokenTotalSupply)
	e.boolean(c.Complete)
	e.key(c.Creator)
	e.boolean(c.IsMayhemMode)
	e.boolean(c.IsCashbackCoin)
	e.key(c.QuoteMint)
	e.u64(c.CreatorFeeBps)
	e.boolean(c.CanEditCreatorFee)
	e.boolean(c.IsHolderReward)
	e.pad(BondingCurveAccountSize)
	return e.b
}

// NewBondingCurve returns the curve create and create_v2 initialize from g
// for a SOL-quoted coin.
func NewBondingCurve(g *Global, creator solana.PublicKey, mayhem bool) BondingCurve {
	return BondingCurve{
		VirtualTokenReserves: g.InitialVirtualTokenReserves,
		VirtualQuoteReserves: g.InitialVirtualSolReserves,
		RealTokenReserves:    g.InitialRealTokenReserves,
		TokenTotalSupply:     g.TokenTotalSupply,
		Creator:              creator,
		IsMayhemMode:         mayhem,
	}
}

// Fees is one fee schedule in basis points.
type Fees struct {
	LPFeeBps       uint64
	ProtocolFeeBps uint64
	CreatorFeeBps  uint64
}

// IsZero reports whether every rate is zero (an unset schedule).
func (f Fees) IsZero() bool { return f.LPFeeBps == 0 && f.ProtocolFeeBps == 0 && f.CreatorFeeBps == 0 }

// FeeTier applies Fees from a market cap (in quote base units) upwards.
type FeeTier struct {
	MarketCapLamportsThreshold Uint128
	Fees                       Fees
}

// FeeConfig is the fee program's schedule for pump.fun (FeeConfigPDA).
type FeeConfig struct {
	Bump     uint8
	Admin    solana.PublicKey
	FlatFees Fees
	// FeeTiers apply to SOL-quoted curves, by market cap.
	FeeTiers []FeeTier
	// StableFeeTiers apply to USDC-quoted curves; empty on accounts older
	// than FeeConfigPostStableSize.
	StableFeeTiers []FeeTier
	// ExoticFlatFees apply to other quotes; zero (unset) on accounts older
	// than FeeConfigSize.
	ExoticFlatFees Fees
}

// Decode reads a FeeConfig the way the fee program does: the account length
// selects the layout version and the bytes after that version's last field
// are never read.
func (f *FeeConfig) Decode(data []byte) error {
	if len(data) < FeeConfigMinSize {
		return fmt.Errorf("decode FeeConfig: %w: %d bytes, want at least %d", ErrShortData, len(data), FeeConfigMinSize)
	}
	d := decoder{b: data}
	d.disc(FeeConfigDiscriminator, "FeeConfig")
	f.Bump = d.u8()
	f.Admin = d.key()
	f.FlatFees = d.fees()
	f.FeeTiers = d.feeTiers()
	f.StableFeeTiers = nil
	f.ExoticFlatFees = Fees{}
	if len(data) >= FeeConfigPostStableSize {
		f.StableFeeTiers = d.feeTiers()
		if len(data) >= FeeConfigSize {
			f.ExoticFlatFees = d.fees()
		}
	}
	if d.err != nil {
		return fmt.Errorf("decode FeeConfig: %w", d.err)
	}
	return nil
}

// Encode writes f as a FeeConfigSize-byte account (longer only if a tier
// vector exceeds MaxFeeTiers, which the fee program never writes).
func (f *FeeConfig) Encode() []byte {
	e := encoder{b: make([]byte, 0, FeeConfigSize)}
	e.disc(FeeConfigDiscriminator)
	e.u8(f.Bump)
	e.key(f.Admin)
	e.fees(f.FlatFees)
	e.feeTiers(f.FeeTiers)
	e.feeTiers(f.StableFeeTiers)
	e.fees(f.ExoticFlatFees)
	e.pad(FeeConfigSize)
	return e.b
}

func (d *decoder) fees() Fees {
	return Fees{LPFeeBps: d.u64(), ProtocolFeeBps: d.u64(), CreatorFeeBps: d.u64()}
}

func (e *encoder) fees(f Fees) {
	e.u64(f.LPFeeBps)
	e.u64(f.ProtocolFeeBps)
	e.u64(f.CreatorFeeBps)
}

func (d *decoder) feeTiers() []FeeTier {
	n := d.u32()
	if d.err != nil {
		return nil
	}
	if n > MaxFeeTiers {
		d.err = fmt.Errorf("pumpfun: %d fee tiers at offset %d, at most %d", n, d.off-4, MaxFeeTiers)
		return nil
	}
	out := make([]FeeTier, 0, n)
	for range n {
		var t FeeTier
		if s := d.take(16); s != nil {
			t.MarketCapLamportsThreshold = Uint128{
				Lo: leU64(s[:8]),
				Hi: leU64(s[8:]),
			}
		}
		t.Fees = d.fees()
		out = append(out, t)
	}
	return out
}

func (e *encoder) feeTiers(tiers []FeeTier) {
	e.u32(uint32(len(tiers)))
	for _, t := range tiers {
		e.u64(t.MarketCapLamportsThreshold.Lo)
		e.u64(t.MarketCapLamportsThreshold.Hi)
		e.fees(t.Fees)
	}
}

// UserVolumeAccumulator tracks one user's traded volume
// (UserVolumeAccumulatorPDA(user)); buy creates it when missing.
type UserVolumeAccumulator struct {
	User                       solana.PublicKey
	NeedsClaim                 bool
	TotalUnclaimedTokens       uint64
	TotalClaimedTokens         uint64
	CurrentSolVolume           uint64
	LastUpdateTimestamp        int64
	HasTotalClaimedTokens      bool
	CashbackEarned             uint64
	TotalCashbackClaimed       uint64
	StableCashbackEarned       uint64
	TotalStableCashbackClaimed uint64
}

// Decode reads a UserVolumeAccumulator; shorter (older) data reads the
// missing trailing fields as zero.
func (u *UserVolumeAccumulator) Decode(data []byte) error {
	if len(data) < 8 {
		return fmt.Errorf("decode UserVolumeAccumulator: %w: %d bytes", ErrShortData, len(data))
	}
	d := decoder{b: padded(data, UserVolumeAccumulatorSize)}
	d.disc(UserVolumeAccumulatorDiscriminator, "UserVolumeAccumulator")
	u.User = d.key()
	u.NeedsClaim = d.boolean()
	u.TotalUnclaimedTokens = d.u64()
	u.TotalClaimedTokens = d.u64()
	u.CurrentSolVolume = d.u64()
	u.LastUpdateTimestamp = d.i64()
	u.HasTotalClaimedTokens = d.boolean()
	u.CashbackEarned = d.u64()
	u.TotalCashbackClaimed = d.u64()
	u.StableCashbackEarned = d.u64()
	u.TotalStableCashbackClaimed = d.u64()
	if d.err != nil {
		return fmt.Errorf("decode UserVolumeAccumulator: %w", d.err)
	}
	return nil
}

// Encode writes u as a UserVolumeAccumulatorSize-byte account.
func (u *UserVolumeAccumulator) Encode() []byte {
	e := encoder{b: make([]byte, 0, UserVolumeAccumulatorSize)}
	e.disc(UserVolumeAccumulatorDiscriminator)
	e.key(u.User)
	e.boolean(u.NeedsClaim)
	e.u64(u.TotalUnclaimedTokens)
	e.u64(u.TotalClaimedTokens)
	e.u64(u.CurrentSolVolume)
	e.i64(u.LastUpdateTimestamp)
	e.boolean(u.HasTotalClaimedTokens)
	e.u64(u.CashbackEarned)
	e.u64(u.TotalCashbackClaimed)
	e.u64(u.StableCashbackEarned)
	e.u64(u.TotalStableCashbackClaimed)
	return e.b
}

// GlobalVolumeAccumulator holds the daily volumes of the token incentive
// programme (GlobalVolumeAccumulatorPDA).
type GlobalVolumeAccumulator struct {
	StartTime        int64
	EndTime          int64
	SecondsInADay    int64
	Mint             solana.PublicKey
	TotalTokenSupply [30]uint64
	SolVolumes       [30]uint64
}

// Decode reads a GlobalVolumeAccumulator.
func (g *GlobalVolumeAccumulator) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(GlobalVolumeAccumulatorDiscriminator, "GlobalVolumeAccumulator")
	g.StartTime = d.i64()
	g.EndTime = d.i64()
	g.SecondsInADay = d.i64()
	g.Mint = d.key()
	for i := range g.TotalTokenSupply {
		g.TotalTokenSupply[i] = d.u64()
	}
	for i := range g.SolVolumes {
		g.SolVolumes[i] = d.u64()
	}
	if d.err != nil {
		return fmt.Errorf("decode GlobalVolumeAccumulator: %w", d.err)
	}
	return nil
}

// Encode writes g as a GlobalVolumeAccumulatorSize-byte account.
func (g *GlobalVolumeAccumulator) Encode() []byte {
	e := encoder{b: make([]byte, 0, GlobalVolumeAccumulatorSize)}
	e.disc(GlobalVolumeAccumulatorDiscriminator)
	e.i64(g.StartTime)
	e.i64(g.EndTime)
	e.i64(g.SecondsInADay)
	e.key(g.Mint)
	for _, v := range g.TotalTokenSupply {
		e.u64(v)
	}
	for _, v := range g.SolVolumes {
		e.u64(v)
	}
	return e.b
}
