package pumpswap

import (
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// BuyEvent is emitted by buy and buy_exact_quote_in.
type BuyEvent struct {
	Timestamp                        int64
	BaseAmountOut                    uint64
	MaxQuoteAmountIn                 uint64
	UserBaseTokenReserves            uint64
	UserQuoteTokenReserves           uint64
	PoolBaseTokenReserves            uint64
	PoolQuoteTokenReserves           uint64
	QuoteAmountIn                    uint64
	LPFeeBasisPoints                 uint64
	LPFee                            uint64
	ProtocolFeeBasisPoints           uint64
	ProtocolFee                      uint64
	QuoteAmountInWithLPFee           uint64
	UserQuoteAmountIn                uint64
	Pool                             solana.PublicKey
	User                             solana.PublicKey
	UserBaseTokenAccount             solana.PublicKey
	UserQuoteTokenAccount            solana.PublicKey
	ProtocolFeeRecipient             solana.PublicKey
	ProtocolFeeRecipientTokenAccount solana.PublicKey
	CoinCreator                      solana.PublicKey
	CoinCreatorFeeBasisPoints        uint64
	CoinCreatorFee                   uint64
	TrackVolume                      bool
	TotalUnclaimedTokens             uint64
	TotalClaimedTokens               uint64
	CurrentSolVolume                 uint64
	LastUpdateTimestamp              int64
	MinBaseAmountOut                 uint64
	IxName                           string // "buy" or "buy_exact_quote_in"
	CashbackFeeBasisPoints           uint64
	Cashback                         uint64
	BuybackFeeBasisPoints            uint64
	BuybackFee                       uint64
	VirtualQuoteReserves             Int128
	CanBoost                         bool
	BaseSupply                       uint64
	HolderRewardsBps                 uint64
	HolderRewards                    uint64
}

// Encode returns the event with its discriminator, as it appears after
// "Program data: " in the logs and after EventCPITag in the self-invocation.
func (v *BuyEvent) Encode() []byte {
	e := encoder{b: make([]byte, 0, 512)}
	e.disc(BuyEventDiscriminator)
	e.i64(v.Timestamp)
	for _, x := range []uint64{v.BaseAmountOut, v.MaxQuoteAmountIn, v.UserBaseTokenReserves, v.UserQuoteTokenReserves,
		v.PoolBaseTokenReserves, v.PoolQuoteTokenReserves, v.QuoteAmountIn, v.LPFeeBasisPoints, v.LPFee,
		v.ProtocolFeeBasisPoints, v.ProtocolFee, v.QuoteAmountInWithLPFee, v.UserQuoteAmountIn} {
		e.u64(x)
	}
	for _, k := range []solana.PublicKey{v.Pool, v.User, v.UserBaseTokenAccount, v.UserQuoteTokenAccount,
		v.ProtocolFeeRecipient, v.ProtocolFeeRecipientTokenAccount, v.CoinCreator} {
		e.key(k)
	}
	e.u64(v.CoinCreatorFeeBasisPoints)
	e.u64(v.CoinCreatorFee)
	e.boolean(v.TrackVolume)
	e.u64(v.TotalUnclaimedTokens)
	e.u64(v.TotalClaimedTokens)
	e.u64(v.CurrentSolVolume)
	e.i64(v.LastUpdateTimestamp)
	e.u64(v.MinBaseAmountOut)
	e.str(v.IxName)
	e.u64(v.CashbackFeeBasisPoints)
	e.u64(v.Cashback)
	e.u64(v.BuybackFeeBasisPoints)
	e.u64(v.BuybackFee)
	e.i128(v.VirtualQuoteReserves)
	e.boolean(v.CanBoost)
	e.u64(v.BaseSupply)
	e.u64(v.HolderRewardsBps)
	e.u64(v.HolderRewards)
	return e.b
}

// Decode reads a BuyEvent (discriminator included).
func (v *BuyEvent) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(BuyEventDiscriminator, "BuyEvent")
	v.Timestamp = d.i64()
	for _, x := range []*uint64{&v.BaseAmountOut, &v.MaxQuoteAmountIn, &v.UserBaseTokenReserves, &v.UserQuoteTokenReserves,
		&v.PoolBaseTokenReserves, &v.PoolQuoteTokenReserves, &v.QuoteAmountIn, &v.LPFeeBasisPoints, &v.LPFee,
		&v.ProtocolFeeBasisPoints, &v.ProtocolFee, &v.QuoteAmountInWithLPFee, &v.UserQuoteAmountIn} {
		*x = d.u64()
	}
	for _, k := range []*solana.PublicKey{&v.Pool, &v.User, &v.UserBaseTokenAccount, &v.UserQuoteTokenAccount,
		&v.ProtocolFeeRecipient, &v.ProtocolFeeRecipientTokenAccount, &v.CoinCreator} {
		*k = d.key()
	}
	v.CoinCreatorFeeBasisPoints = d.u64()
	v.CoinCreatorFee = d.u64()
	v.TrackVolume = d.boolean()
	v.TotalUnclaimedTokens = d.u64()
	v.TotalClaimedTokens = d.u64()
	v.CurrentSolVolume = d.u64()
	v.LastUpdateTimestamp = d.i64()
	v.MinBaseAmountOut = d.u64()
	v.IxName = d.str()
	v.CashbackFeeBasisPoints = d.u64()
	v.Cashback = d.u64()
	v.BuybackFeeBasisPoints = d.u64()
	v.BuybackFee = d.u64()
	v.VirtualQuoteReserves = d.i128()
	v.CanBoost = d.boolean()
	v.BaseSupply = d.u64()
	v.HolderRewardsBps = d.u64()
	v.HolderRewards = d.u64()
	if d.err != nil {
		return fmt.Errorf("decode BuyEvent: %w", d.err)
	}
	return nil
}

// SellEvent is emitted by sell.
type SellEvent struct {
	Timestamp                        int64
	BaseAmountIn                     uint64
	MinQuoteAmountOut                uint64
	UserBaseTokenReserves            uint64
	UserQuoteTokenReserves           uint64
	PoolBaseTokenReserves            uint64
	PoolQuoteTokenReserves           uint64
	QuoteAmountOut                   uint64
	LPFeeBasisPoints                 uint64
	LPFee                            uint64
	ProtocolFeeBasisPoints           uint64
	ProtocolFee                      uint64
	QuoteAmountOutWithoutLPFee       uint64
	UserQuoteAmountOut               uint64
	Pool                             solana.PublicKey
	User                             solana.PublicKey
	UserBaseTokenAccount             solana.PublicKey
	UserQuoteTokenAccount            solana.PublicKey
	ProtocolFeeRecipient             solana.PublicKey
	ProtocolFeeRecipientTokenAccount solana.PublicKey
	CoinCreator                      solana.PublicKey
	CoinCreatorFeeBasisPoints        uint64
	CoinCreatorFee                   uint64
	CashbackFeeBasisPoints           uint64
	Cashback                         uint64
	BuybackFeeBasisPoints            uint64
	BuybackFee                       uint64
	VirtualQuoteReserves             Int128
	CanBoost                         bool
	BaseSupply                       uint64
	HolderRewardsBps                 uint64
	HolderRewards                    uint64
}

// Encode returns the event with its discriminator.
func (v *SellEvent) Encode() []byte {
	e := encoder{b: make([]byte, 0, 480)}
	e.disc(SellEventDiscriminator)
	e.i64(v.Timestamp)
	for _, x := range []uint64{v.BaseAmountIn, v.MinQuoteAmountOut, v.UserBaseTokenReserves, v.UserQuoteTokenReserves,
		v.PoolBaseTokenReserves, v.PoolQuoteTokenReserves, v.QuoteAmountOut, v.LPFeeBasisPoints, v.LPFee,
		v.ProtocolFeeBasisPoints, v.ProtocolFee, v.QuoteAmountOutWithoutLPFee, v.UserQuoteAmountOut} {
		e.u64(x)
	}
	for _, k := range []solana.PublicKey{v.Pool, v.User, v.UserBaseTokenAccount, v.UserQuoteTokenAccount,
		v.ProtocolFeeRecipient, v.ProtocolFeeRecipientTokenAccount, v.CoinCreator} {
		e.key(k)
	}
	e.u64(v.CoinCreatorFeeBasisPoints)
	e.u64(v.CoinCreatorFee)
	e.u64(v.CashbackFeeBasisPoints)
	e.u64(v.Cashback)
	e.u64(v.BuybackFeeBasisPoints)
	e.u64(v.BuybackFee)
	e.i128(v.VirtualQuoteReserves)
	e.boolean(v.CanBoost)
	e.u64(v.BaseSupply)
	e.u64(v.HolderRewardsBps)
	e.u64(v.HolderRewards)
	return e.b
}

// Decode reads a SellEvent (discriminator included).
func (v *SellEvent) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(SellEventDiscriminator, "SellEvent")
	v.Timestamp = d.i64()
	for _, x := range []*uint64{&v.BaseAmountIn, &v.MinQuoteAmountOut, &v.UserBaseTokenReserves, &v.UserQuoteTokenReserves,
		&v.PoolBaseTokenReserves, &v.PoolQuoteTokenReserves, &v.QuoteAmountOut, &v.LPFeeBasisPoints, &v.LPFee,
		&v.ProtocolFeeBasisPoints, &v.ProtocolFee, &v.QuoteAmountOutWithoutLPFee, &v.UserQuoteAmountOut} {
		*x = d.u64()
	}
	for _, k := range []*solana.PublicKey{&v.Pool, &v.User, &v.UserBaseTokenAccount, &v.UserQuoteTokenAccount,
		&v.ProtocolFeeRecipient, &v.ProtocolFeeRecipientTokenAccount, &v.CoinCreator} {
		*k = d.key()
	}
	v.CoinCreatorFeeBasisPoints = d.u64()
	v.CoinCreatorFee = d.u64()
	v.CashbackFeeBasisPoints = d.u64()
	v.Cashback = d.u64()
	v.BuybackFeeBasisPoints = d.u64()
	v.BuybackFee = d.u64()
	v.VirtualQuoteReserves = d.i128()
	v.CanBoost = d.boolean()
	v.BaseSupply = d.u64()
	v.HolderRewardsBps = d.u64()
	v.HolderRewards = d.u64()
	if d.err != nil {
		return fmt.Errorf("decode SellEvent: %w", d.err)
	}
	return nil
}

// CreatePoolEvent is emitted by create_pool.
type CreatePoolEvent struct {
	Timestamp             int64
	Index                 uint16
	Creator               solana.PublicKey
	BaseMint              solana.PublicKey
	QuoteMint             solana.PublicKey
	BaseMintDecimals      uint8
	QuoteMintDecimals     uint8
	BaseAmountIn          uint64
	QuoteAmountIn         uint64
	PoolBaseAmount        uint64
	PoolQuoteAmount       uint64
	MinimumLiquidity      uint64
	InitialLiquidity      uint64
	LPTokenAmountOut      uint64
	PoolBump              uint8
	Pool                  solana.PublicKey
	LPMint                solana.PublicKey
	UserBaseTokenAccount  solana.PublicKey
	UserQuoteTokenAccount solana.PublicKey
	CoinCreator           solana.PublicKey
	IsMayhemMode          bool
	CreatorFeeBps         uint64
	CanEditCreatorFee     bool
	IsHolderReward        bool
}

// Encode returns the event with its discriminator.
func (v *CreatePoolEvent) Encode() []byte {
	e := encoder{b: make([]byte, 0, 320)}
	e.disc(CreatePoolEventDiscriminator)
	e.i64(v.Timestamp)
	e.u16(v.Index)
	e.key(v.Creator)
	e.key(v.BaseMint)
	e.key(v.QuoteMint)
	e.u8(v.BaseMintDecimals)
	e.u8(v.QuoteMintDecimals)
	for _, x := range []uint64{v.BaseAmountIn, v.QuoteAmountIn, v.PoolBaseAmount, v.PoolQuoteAmount,
		v.MinimumLiquidity, v.InitialLiquidity, v.LPTokenAmountOut} {
		e.u64(x)
	}
	e.u8(v.PoolBump)
	for _, k := range []solana.PublicKey{v.Pool, v.LPMint, v.UserBaseTokenAccount, v.UserQuoteTokenAccount, v.CoinCreator} {
		e.key(k)
	}
	e.boolean(v.IsMayhemMode)
	e.u64(v.CreatorFeeBps)
	e.boolean(v.CanEditCreatorFee)
	e.boolean(v.IsHolderReward)
	return e.b
}
