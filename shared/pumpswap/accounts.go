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
	d := decoder{b: padded(data, PoolSize)}
	d.disc(PoolDiscriminator, "Pool")
	p.PoolBump = d.u8()
	p.Index = d.u16()
	p.Creator = d.key()
	p.BaseMint = d.key()
	p.QuoteMint = d.key()
	p.LPMint = d.key()
	p.PoolBaseTokenAccount = d.key()
	p.PoolQuoteTokenAccount = d.key()
	p.LPSupply = d.u64()
	p.CoinCreator = d.key()
	p.IsMayhemMode = d.boolean()
	p.IsCashbackCoin = d.boolean()
	p.VirtualQuoteReserves = d.i128()
	p.CreatorFeeBps = d.u64()
	p.CanEditCreatorFee = d.boolean()
	p.IsHolderReward = d.boolean()
	if d.err != nil {
		return fmt.Errorf("decode Pool: %w", d.err)
	}
	return nil
}

// Encode writes p as a PoolAccountSize-byte account.
func (p *Pool) Encode() []byte {
	e := encoder{b: make([]byte, 0, PoolAccountSize)}
	e.disc(PoolDiscriminator)
	e.u8(p.PoolBump)
	e.u16(p.Index)
	e.key(p.Creator)
	e.key(p.BaseMint)
	e.key(p.QuoteMint)
	e.key(p.LPMint)
	e.key(p.PoolBaseTokenAccount)
	e.key(p.PoolQuoteTokenAccount)
	e.u64(p.LPSupply)
	e.key(p.CoinCreator)
	e.boolean(p.IsMayhemMode)
	e.boolean(p.IsCashbackCoin)
	e.i128(p.VirtualQuoteReserves)
	e.u64(p.CreatorFeeBps)
	e.boolean(p.CanEditCreatorFee)
	e.boolean(p.IsHolderReward)
	e.pad(PoolAccountSize)
	return e.b
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
	d := decoder{b: padded(data, GlobalConfigSize)}
	d.disc(GlobalConfigDiscriminator, "GlobalConfig")
	g.Admin = d.key()
	g.LPFeeBasisPoints = d.u64()
	g.ProtocolFeeBasisPoints = d.u64()
	g.DisableFlags = d.u8()
	for i := range g.ProtocolFeeRecipients {
		g.ProtocolFeeRecipients[i] = d.key()
	}
	g.CoinCreatorFeeBasisPoints = d.u64()
	g.AdminSetCoinCreatorAuthority = d.key()
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
	g.BoostAuthority = d.key()
	g.BoostEnabled = d.boolean()
	g.CreatorFeeConfigurable = d.boolean()
	g.MaxConfigurableCreatorFeeBps = d.u64()
	if d.err != nil {
		return fmt.Errorf("decode GlobalConfig: %w", d.err)
	}
	return nil
}

// Encode writes g as a GlobalConfigSize-byte account.
func (g *GlobalConfig) Encode() []byte {
	e := encoder{b: make([]byte, 0, GlobalConfigSize)}
	e.disc(GlobalConfigDiscriminator)
	e.key(g.Admin)
	e.u64(g.LPFeeBasisPoints)
	e.u64(g.ProtocolFeeBasisPoints)
	e.u8(g.DisableFlags)
	for _, k := range g.ProtocolFeeRecipients {
		e.key(k)
	}
	e.u64(g.CoinCreatorFeeBasisPoints)
	e.key(g.AdminSetCoinCreatorAuthority)
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
	e.key(g.BoostAuthority)
	e.boolean(g.BoostEnabled)
	e.boolean(g.CreatorFeeConfigurable)
	e.u64(g.MaxConfigurableCreatorFeeBps)
	return e.b
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
	return e.b
}
