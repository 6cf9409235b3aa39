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
	d := decoder{B: padded(data, GlobalSize)}
	d.Disc(GlobalDiscriminator, "Global")
	g.Initialized = d.Bool()
	g.Authority = d.Key()
	g.FeeRecipient = d.Key()
	g.InitialVirtualTokenReserves = d.U64()
	g.InitialVirtualSolReserves = d.U64()
	g.InitialRealTokenReserves = d.U64()
	g.TokenTotalSupply = d.U64()
	g.FeeBasisPoints = d.U64()
	g.WithdrawAuthority = d.Key()
	g.EnableMigrate = d.Bool()
	g.PoolMigrationFee = d.U64()
	g.CreatorFeeBasisPoints = d.U64()
	for i := range g.FeeRecipients {
		g.FeeRecipients[i] = d.Key()
	}
	g.SetCreatorAuthority = d.Key()
	g.AdminSetCreatorAuthority = d.Key()
	g.CreateV2Enabled = d.Bool()
	g.WhitelistPDA = d.Key()
	g.ReservedFeeRecipient = d.Key()
	g.MayhemModeEnabled = d.Bool()
	for i := range g.ReservedFeeRecipients {
		g.ReservedFeeRecipients[i] = d.Key()
	}
	g.IsCashbackEnabled = d.Bool()
	for i := range g.BuybackFeeRecipients {
		g.BuybackFeeRecipients[i] = d.Key()
	}
	g.BuybackBasisPoints = d.U64()
	g.InitialVirtualQuoteReserves = d.U64()
	for i := range g.WhitelistedQuoteMints {
		g.WhitelistedQuoteMints[i] = d.Key()
	}
	g.CreatorFeeConfigurable = d.Bool()
	g.MaxConfigurableCreatorFeeBps = d.U64()
	g.HolderRewardClaimAuthority = d.Key()
	g.IsHolderRewardEnabled = d.Bool()
	if d.Err != nil {
		return fmt.Errorf("decode Global: %w", d.Err)
	}
	return nil
}

// Encode writes g as a GlobalSize-byte account.
func (g *Global) Encode() []byte {
	e := encoder{B: make([]byte, 0, GlobalSize)}
	e.Disc(GlobalDiscriminator)
	e.Bool(g.Initialized)
	e.Key(g.Authority)
	e.Key(g.FeeRecipient)
	e.U64(g.InitialVirtualTokenReserves)
	e.U64(g.InitialVirtualSolReserves)
	e.U64(g.InitialRealTokenReserves)
	e.U64(g.TokenTotalSupply)
	e.U64(g.FeeBasisPoints)
	e.Key(g.WithdrawAuthority)
	e.Bool(g.EnableMigrate)
	e.U64(g.PoolMigrationFee)
	e.U64(g.CreatorFeeBasisPoints)
	for _, k := range g.FeeRecipients {
		e.Key(k)
	}
	e.Key(g.SetCreatorAuthority)
	e.Key(g.AdminSetCreatorAuthority)
	e.Bool(g.CreateV2Enabled)
	e.Key(g.WhitelistPDA)
	e.Key(g.ReservedFeeRecipient)
	e.Bool(g.MayhemModeEnabled)
	for _, k := range g.ReservedFeeRecipients {
		e.Key(k)
	}
	e.Bool(g.IsCashbackEnabled)
	for _, k := range g.BuybackFeeRecipients {
		e.Key(k)
	}
	e.U64(g.BuybackBasisPoints)
	e.U64(g.InitialVirtualQuoteReserves)
	for _, k := range g.WhitelistedQuoteMints {
		e.Key(k)
	}
	e.Bool(g.CreatorFeeConfigurable)
	e.U64(g.MaxConfigurableCreatorFeeBps)
	e.Key(g.HolderRewardClaimAuthority)
	e.Bool(g.IsHolderRewardEnabled)
	return e.B
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
	d := decoder{B: padded(data, BondingCurveSize)}
	d.Disc(BondingCurveDiscriminator, "BondingCurve")
	c.VirtualTokenReserves = d.U64()
	c.VirtualQuoteReserves = d.U64()
	c.RealTokenReserves = d.U64()
	c.RealQuoteReserves = d.U64()
	c.TokenTotalSupply = d.U64()
	c.Complete = d.Bool()
	c.Creator = d.Key()
	c.IsMayhemMode = d.Bool()
	c.IsCashbackCoin = d.Bool()
	c.QuoteMint = d.Key()
	c.CreatorFeeBps = d.U64()
	c.CanEditCreatorFee = d.Bool()
	c.IsHolderReward = d.Bool()
	if d.Err != nil {
		return fmt.Errorf("decode BondingCurve: %w", d.Err)
	}
	return nil
}

// Encode writes c as a BondingCurveAccountSize-byte account.
func (c *BondingCurve) Encode() []byte {
	e := encoder{B: make([]byte, 0, BondingCurveAccountSize)}
	e.Disc(BondingCurveDiscriminator)
	e.U64(c.VirtualTokenReserves)
	e.U64(c.VirtualQuoteReserves)
	e.U64(c.RealTokenReserves)
	e.U64(c.RealQuoteReserves)
	e.U64(c.TokenTotalSupply)
	e.Bool(c.Complete)
	e.Key(c.Creator)
	e.Bool(c.IsMayhemMode)
	e.Bool(c.IsCashbackCoin)
	e.Key(c.QuoteMint)
	e.U64(c.CreatorFeeBps)
	e.Bool(c.CanEditCreatorFee)
	e.Bool(c.IsHolderReward)
	e.Pad(BondingCurveAccountSize)
	return e.B
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
	d := decoder{B: data}
	d.Disc(FeeConfigDiscriminator, "FeeConfig")
	f.Bump = d.U8()
	f.Admin = d.Key()
	f.FlatFees = getFees(&d)
	f.FeeTiers = getFeeTiers(&d)
	f.StableFeeTiers = nil
	f.ExoticFlatFees = Fees{}
	if len(data) >= FeeConfigPostStableSize {
		f.StableFeeTiers = getFeeTiers(&d)
		if len(data) >= FeeConfigSize {
			f.ExoticFlatFees = getFees(&d)
		}
	}
	if d.Err != nil {
		return fmt.Errorf("decode FeeConfig: %w", d.Err)
	}
	return nil
}

// Encode writes f as a FeeConfigSize-byte account (longer only if a tier
// vector exceeds MaxFeeTiers, which the fee program never writes).
func (f *FeeConfig) Encode() []byte {
	e := encoder{B: make([]byte, 0, FeeConfigSize)}
	e.Disc(FeeConfigDiscriminator)
	e.U8(f.Bump)
	e.Key(f.Admin)
	putFees(&e, f.FlatFees)
	putFeeTiers(&e, f.FeeTiers)
	putFeeTiers(&e, f.StableFeeTiers)
	putFees(&e, f.ExoticFlatFees)
	e.Pad(FeeConfigSize)
	return e.B
}

func getFees(d *decoder) Fees {
	return Fees{LPFeeBps: d.U64(), ProtocolFeeBps: d.U64(), CreatorFeeBps: d.U64()}
}

func putFees(e *encoder, f Fees) {
	e.U64(f.LPFeeBps)
	e.U64(f.ProtocolFeeBps)
	e.U64(f.CreatorFeeBps)
}

func getFeeTiers(d *decoder) []FeeTier {
	n := d.U32()
	if d.Err != nil {
		return nil
	}
	if n > MaxFeeTiers {
		d.Err = fmt.Errorf("pumpfun: %d fee tiers at offset %d, at most %d", n, d.Off-4, MaxFeeTiers)
		return nil
	}
	out := make([]FeeTier, 0, n)
	for range n {
		var t FeeTier
		if s := d.Take(16); s != nil {
			t.MarketCapLamportsThreshold = Uint128{
				Lo: leU64(s[:8]),
				Hi: leU64(s[8:]),
			}
		}
		t.Fees = getFees(d)
		out = append(out, t)
	}
	return out
}

func putFeeTiers(e *encoder, tiers []FeeTier) {
	e.U32(uint32(len(tiers)))
	for _, t := range tiers {
		e.U64(t.MarketCapLamportsThreshold.Lo)
		e.U64(t.MarketCapLamportsThreshold.Hi)
		putFees(e, t.Fees)
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
	d := decoder{B: padded(data, UserVolumeAccumulatorSize)}
	d.Disc(UserVolumeAccumulatorDiscriminator, "UserVolumeAccumulator")
	u.User = d.Key()
	u.NeedsClaim = d.Bool()
	u.TotalUnclaimedTokens = d.U64()
	u.TotalClaimedTokens = d.U64()
	u.CurrentSolVolume = d.U64()
	u.LastUpdateTimestamp = d.I64()
	u.HasTotalClaimedTokens = d.Bool()
	u.CashbackEarned = d.U64()
	u.TotalCashbackClaimed = d.U64()
	u.StableCashbackEarned = d.U64()
	u.TotalStableCashbackClaimed = d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode UserVolumeAccumulator: %w", d.Err)
	}
	return nil
}

// Encode writes u as a UserVolumeAccumulatorSize-byte account.
func (u *UserVolumeAccumulator) Encode() []byte {
	e := encoder{B: make([]byte, 0, UserVolumeAccumulatorSize)}
	e.Disc(UserVolumeAccumulatorDiscriminator)
	e.Key(u.User)
	e.Bool(u.NeedsClaim)
	e.U64(u.TotalUnclaimedTokens)
	e.U64(u.TotalClaimedTokens)
	e.U64(u.CurrentSolVolume)
	e.I64(u.LastUpdateTimestamp)
	e.Bool(u.HasTotalClaimedTokens)
	e.U64(u.CashbackEarned)
	e.U64(u.TotalCashbackClaimed)
	e.U64(u.StableCashbackEarned)
	e.U64(u.TotalStableCashbackClaimed)
	return e.B
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
	d := decoder{B: data}
	d.Disc(GlobalVolumeAccumulatorDiscriminator, "GlobalVolumeAccumulator")
	g.StartTime = d.I64()
	g.EndTime = d.I64()
	g.SecondsInADay = d.I64()
	g.Mint = d.Key()
	for i := range g.TotalTokenSupply {
		g.TotalTokenSupply[i] = d.U64()
	}
	for i := range g.SolVolumes {
		g.SolVolumes[i] = d.U64()
	}
	if d.Err != nil {
		return fmt.Errorf("decode GlobalVolumeAccumulator: %w", d.Err)
	}
	return nil
}

// Encode writes g as a GlobalVolumeAccumulatorSize-byte account.
func (g *GlobalVolumeAccumulator) Encode() []byte {
	e := encoder{B: make([]byte, 0, GlobalVolumeAccumulatorSize)}
	e.Disc(GlobalVolumeAccumulatorDiscriminator)
	e.I64(g.StartTime)
	e.I64(g.EndTime)
	e.I64(g.SecondsInADay)
	e.Key(g.Mint)
	for _, v := range g.TotalTokenSupply {
		e.U64(v)
	}
	for _, v := range g.SolVolumes {
		e.U64(v)
	}
	return e.B
}
