package pumpswap

import (
	"fmt"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Account discriminators (IDL accounts[].discriminator).
var (
	PoolDiscriminator                  = pumpfun.AccountDiscriminator("Pool")
	GlobalConfigDiscriminator          = pumpfun.AccountDiscriminator("GlobalConfig")
	UserVolumeAccumulatorDiscriminator = pumpfun.AccountDiscriminator("UserVolumeAccumulator")
)

// FeeConfig is the fee program's schedule; the AMM's (FeeConfigPDA) has the
// layout of pump.fun's.
type FeeConfig = pumpfun.FeeConfig

// Fees is one fee schedule in basis points.
type Fees = pumpfun.Fees

// FeeTier applies Fees from a market cap (in quote base units) upwards.
type FeeTier = pumpfun.FeeTier

// GlobalVolumeAccumulator is the AMM's daily volume account
// (GlobalVolumeAccumulatorPDA), laid out as pump.fun's.
type GlobalVolumeAccumulator = pumpfun.GlobalVolumeAccumulator

// Account sizes in bytes, discriminator included.
const (
	// PoolSize is Pool with every field of the IDL.
	PoolSize = 271
	// PoolAccountSize is what create_pool allocates and extend_account
	// grows a shorter pool to. The program writes the whole Pool back after
	// a trade, so a pool shorter than this must be extended first.
	PoolAccountSize = 300
	// PoolMinSize is the oldest layout (through lp_supply).
	PoolMinSize = 211
	// GlobalConfigSize is GlobalConfig with every field of the IDL; older
	// accounts are 907 or 940 bytes and decode zero-padded.
	GlobalConfigSize = 949
	// UserVolumeAccumulatorSize is the AMM's UserVolumeAccumulator.
	UserVolumeAccumulatorSize = 90
)

// Pool is one AMM pool.
type Pool struct {
	PoolBump              uint8
	Index                 uint16
	Creator               solana.PublicKey
	BaseMint              solana.PublicKey
	QuoteMint             solana.PublicKey
	LPMint                solana.PublicKey
	PoolBaseTokenAccount  solana.PublicKey
	PoolQuoteTokenAccount solana.PublicKey
	// LPSupply is the circulating LP supply without burns and lock-ups.
	LPSupply       uint64
	CoinCreator    solana.PublicKey
	IsMayhemMode   bool
	IsCashbackCoin bool
	// VirtualQuoteReserves adds to the quote vault's balance in the price;
	// zero for pools that are not boosted.
	VirtualQuoteReserves Int128
	CreatorFeeBps        uint64
	CanEditCreatorFee    bool
	IsHolderReward       bool
}

// Decode reads a Pool of any length the program has written; fields a
// shorter account lacks read as zero.
func (p *Pool) Decode(data []byte) error {
	if len(data) < PoolMinSize {
		return fmt.Errorf("decode Pool: %w: %d bytes, want at least %d", ErrShortData, len(data), PoolMinSize)
	}
	d := decoder{B: padded(data, PoolSize)}
	d.Disc(PoolDiscriminator, "Pool")
	p.PoolBump = d.U8()
	p.Index = d.U16()
	p.Creator = d.Key()
	p.BaseMint = d.Key()
	p.QuoteMint = d.Key()
	p.LPMint = d.Key()
	p.PoolBaseTokenAccount = d.Key()
	p.PoolQuoteTokenAccount = d.Key()
	p.LPSupply = d.U64()
	p.CoinCreator = d.Key()
	p.IsMayhemMode = d.Bool()
	p.IsCashbackCoin = d.Bool()
	p.VirtualQuoteReserves = getI128(&d)
	p.CreatorFeeBps = d.U64()
	p.CanEditCreatorFee = d.Bool()
	p.IsHolderReward = d.Bool()
	if d.Err != nil {
		return fmt.Errorf("decode Pool: %w", d.Err)
	}
	return nil
}

// Encode writes p as a PoolAccountSize-byte account.
func (p *Pool) Encode() []byte {
	e := encoder{B: make([]byte, 0, PoolAccountSize)}
	e.Disc(PoolDiscriminator)
	e.U8(p.PoolBump)
	e.U16(p.Index)
	e.Key(p.Creator)
	e.Key(p.BaseMint)
	e.Key(p.QuoteMint)
	e.Key(p.LPMint)
	e.Key(p.PoolBaseTokenAccount)
	e.Key(p.PoolQuoteTokenAccount)
	e.U64(p.LPSupply)
	e.Key(p.CoinCreator)
	e.Bool(p.IsMayhemMode)
	e.Bool(p.IsCashbackCoin)
	putI128(&e, p.VirtualQuoteReserves)
	e.U64(p.CreatorFeeBps)
	e.Bool(p.CanEditCreatorFee)
	e.Bool(p.IsHolderReward)
	e.Pad(PoolAccountSize)
	return e.B
}

// GlobalConfig is the program's configuration (GlobalConfigPDA).
type GlobalConfig struct {
	Admin                        solana.PublicKey
	LPFeeBasisPoints             uint64
	ProtocolFeeBasisPoints       uint64
	DisableFlags                 uint8
	ProtocolFeeRecipients        [ProtocolFeeRecipientCount]solana.PublicKey
	CoinCreatorFeeBasisPoints    uint64
	AdminSetCoinCreatorAuthority solana.PublicKey
	WhitelistPDA                 solana.PublicKey
	ReservedFeeRecipient         solana.PublicKey
	MayhemModeEnabled            bool
	ReservedFeeRecipients        [ReservedFeeRecipientCount - 1]solana.PublicKey
	IsCashbackEnabled            bool
	BuybackFeeRecipients         [BuybackFeeRecipientCount]solana.PublicKey
	BuybackBasisPoints           uint64
	BoostAuthority               solana.PublicKey
	BoostEnabled                 bool
	CreatorFeeConfigurable       bool
	MaxConfigurableCreatorFeeBps uint64
}

// Decode reads a GlobalConfig; shorter (older) data reads the missing
// trailing fields as zero.
func (g *GlobalConfig) Decode(data []byte) error {
	if len(data) < 8 {
		return fmt.Errorf("decode GlobalConfig: %w: %d bytes", ErrShortData, len(data))
	}
	d := decoder{B: padded(data, GlobalConfigSize)}
	d.Disc(GlobalConfigDiscriminator, "GlobalConfig")
	g.Admin = d.Key()
	g.LPFeeBasisPoints = d.U64()
	g.ProtocolFeeBasisPoints = d.U64()
	g.DisableFlags = d.U8()
	for i := range g.ProtocolFeeRecipients {
		g.ProtocolFeeRecipients[i] = d.Key()
	}
	g.CoinCreatorFeeBasisPoints = d.U64()
	g.AdminSetCoinCreatorAuthority = d.Key()
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
	g.BoostAuthority = d.Key()
	g.BoostEnabled = d.Bool()
	g.CreatorFeeConfigurable = d.Bool()
	g.MaxConfigurableCreatorFeeBps = d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode GlobalConfig: %w", d.Err)
	}
	return nil
}

// Encode writes g as a GlobalConfigSize-byte account.
func (g *GlobalConfig) Encode() []byte {
	e := encoder{B: make([]byte, 0, GlobalConfigSize)}
	e.Disc(GlobalConfigDiscriminator)
	e.Key(g.Admin)
	e.U64(g.LPFeeBasisPoints)
	e.U64(g.ProtocolFeeBasisPoints)
	e.U8(g.DisableFlags)
	for _, k := range g.ProtocolFeeRecipients {
		e.Key(k)
	}
	e.U64(g.CoinCreatorFeeBasisPoints)
	e.Key(g.AdminSetCoinCreatorAuthority)
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
	e.Key(g.BoostAuthority)
	e.Bool(g.BoostEnabled)
	e.Bool(g.CreatorFeeConfigurable)
	e.U64(g.MaxConfigurableCreatorFeeBps)
	return e.B
}

// Disabled reports whether flag (DisableBuy, DisableSell, ...) is set.
func (g *GlobalConfig) Disabled(flag uint8) bool { return g.DisableFlags&flag != 0 }

// ProtocolFeeRecipientCandidates returns the protocol fee recipients a trade
// may name: for a mayhem-mode pool the reserved ones, otherwise
// protocol_fee_recipients. Zero keys are left out.
func (g *GlobalConfig) ProtocolFeeRecipientCandidates(mayhem bool) []solana.PublicKey {
	out := make([]solana.PublicKey, 0, ProtocolFeeRecipientCount)
	list := g.ProtocolFeeRecipients[:]
	if mayhem {
		list = append([]solana.PublicKey{g.ReservedFeeRecipient}, g.ReservedFeeRecipients[:]...)
	}
	for _, k := range list {
		if !k.IsZero() {
			out = append(out, k)
		}
	}
	return out
}

// BuybackFeeRecipientCandidates returns the non-zero buyback fee recipients.
func (g *GlobalConfig) BuybackFeeRecipientCandidates() []solana.PublicKey {
	out := make([]solana.PublicKey, 0, BuybackFeeRecipientCount)
	for _, k := range g.BuybackFeeRecipients {
		if !k.IsZero() {
			out = append(out, k)
		}
	}
	return out
}

// UserVolumeAccumulator tracks one user's volume on the AMM
// (UserVolumeAccumulatorPDA(user)); a buy creates it when missing.
type UserVolumeAccumulator struct {
	User                  solana.PublicKey
	NeedsClaim            bool
	TotalUnclaimedTokens  uint64
	TotalClaimedTokens    uint64
	CurrentSolVolume      uint64
	LastUpdateTimestamp   int64
	HasTotalClaimedTokens bool
	CashbackEarned        uint64
	TotalCashbackClaimed  uint64
}

// Decode reads a UserVolumeAccumulator; shorter data reads the missing
// trailing fields as zero.
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
	return e.B
}
