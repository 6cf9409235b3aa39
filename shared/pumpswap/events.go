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
	e := encoder{B: make([]byte, 0, 512)}
	e.Disc(BuyEventDiscriminator)
	e.I64(v.Timestamp)
	for _, x := range []uint64{v.BaseAmountOut, v.MaxQuoteAmountIn, v.UserBaseTokenReserves, v.UserQuoteTokenReserves,
		v.PoolBaseTokenReserves, v.PoolQuoteTokenReserves, v.QuoteAmountIn, v.LPFeeBasisPoints, v.LPFee,
		v.ProtocolFeeBasisPoints, v.ProtocolFee, v.QuoteAmountInWithLPFee, v.UserQuoteAmountIn} {
		e.U64(x)
	}
	for _, k := range []solana.PublicKey{v.Pool, v.User, v.UserBaseTokenAccount, v.UserQuoteTokenAccount,
		v.ProtocolFeeRecipient, v.ProtocolFeeRecipientTokenAccount, v.CoinCreator} {
		e.Key(k)
	}
	e.U64(v.CoinCreatorFeeBasisPoints)
	e.U64(v.CoinCreatorFee)
	e.Bool(v.TrackVolume)
	e.U64(v.TotalUnclaimedTokens)
	e.U64(v.TotalClaimedTokens)
	e.U64(v.CurrentSolVolume)
	e.I64(v.LastUpdateTimestamp)
	e.U64(v.MinBaseAmountOut)
	e.Str(v.IxName)
	e.U64(v.CashbackFeeBasisPoints)
	e.U64(v.Cashback)
	e.U64(v.BuybackFeeBasisPoints)
	e.U64(v.BuybackFee)
	putI128(&e, v.VirtualQuoteReserves)
	e.Bool(v.CanBoost)
	e.U64(v.BaseSupply)
	e.U64(v.HolderRewardsBps)
	e.U64(v.HolderRewards)
	return e.B
}

// Decode reads a BuyEvent (discriminator included).
func (v *BuyEvent) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(BuyEventDiscriminator, "BuyEvent")
	v.Timestamp = d.I64()
	for _, x := range []*uint64{&v.BaseAmountOut, &v.MaxQuoteAmountIn, &v.UserBaseTokenReserves, &v.UserQuoteTokenReserves,
		&v.PoolBaseTokenReserves, &v.PoolQuoteTokenReserves, &v.QuoteAmountIn, &v.LPFeeBasisPoints, &v.LPFee,
		&v.ProtocolFeeBasisPoints, &v.ProtocolFee, &v.QuoteAmountInWithLPFee, &v.UserQuoteAmountIn} {
		*x = d.U64()
	}
	for _, k := range []*solana.PublicKey{&v.Pool, &v.User, &v.UserBaseTokenAccount, &v.UserQuoteTokenAccount,
		&v.ProtocolFeeRecipient, &v.ProtocolFeeRecipientTokenAccount, &v.CoinCreator} {
		*k = d.Key()
	}
	v.CoinCreatorFeeBasisPoints = d.U64()
	v.CoinCreatorFee = d.U64()
	v.TrackVolume = d.Bool()
	v.TotalUnclaimedTokens = d.U64()
	v.TotalClaimedTokens = d.U64()
	v.CurrentSolVolume = d.U64()
	v.LastUpdateTimestamp = d.I64()
	v.MinBaseAmountOut = d.U64()
	v.IxName = d.Str()
	v.CashbackFeeBasisPoints = d.U64()
	v.Cashback = d.U64()
	v.BuybackFeeBasisPoints = d.U64()
	v.BuybackFee = d.U64()
	v.VirtualQuoteReserves = getI128(&d)
	v.CanBoost = d.Bool()
	v.BaseSupply = d.U64()
	v.HolderRewardsBps = d.U64()
	v.HolderRewards = d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode BuyEvent: %w", d.Err)
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
	e := encoder{B: make([]byte, 0, 480)}
	e.Disc(SellEventDiscriminator)
	e.I64(v.Timestamp)
	for _, x := range []uint64{v.BaseAmountIn, v.MinQuoteAmountOut, v.UserBaseTokenReserves, v.UserQuoteTokenReserves,
		v.PoolBaseTokenReserves, v.PoolQuoteTokenReserves, v.QuoteAmountOut, v.LPFeeBasisPoints, v.LPFee,
		v.ProtocolFeeBasisPoints, v.ProtocolFee, v.QuoteAmountOutWithoutLPFee, v.UserQuoteAmountOut} {
		e.U64(x)
	}
	for _, k := range []solana.PublicKey{v.Pool, v.User, v.UserBaseTokenAccount, v.UserQuoteTokenAccount,
		v.ProtocolFeeRecipient, v.ProtocolFeeRecipientTokenAccount, v.CoinCreator} {
		e.Key(k)
	}
	e.U64(v.CoinCreatorFeeBasisPoints)
	e.U64(v.CoinCreatorFee)
	e.U64(v.CashbackFeeBasisPoints)
	e.U64(v.Cashback)
	e.U64(v.BuybackFeeBasisPoints)
	e.U64(v.BuybackFee)
	putI128(&e, v.VirtualQuoteReserves)
	e.Bool(v.CanBoost)
	e.U64(v.BaseSupply)
	e.U64(v.HolderRewardsBps)
	e.U64(v.HolderRewards)
	return e.B
}

// Decode reads a SellEvent (discriminator included).
func (v *SellEvent) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(SellEventDiscriminator, "SellEvent")
	v.Timestamp = d.I64()
	for _, x := range []*uint64{&v.BaseAmountIn, &v.MinQuoteAmountOut, &v.UserBaseTokenReserves, &v.UserQuoteTokenReserves,
		&v.PoolBaseTokenReserves, &v.PoolQuoteTokenReserves, &v.QuoteAmountOut, &v.LPFeeBasisPoints, &v.LPFee,
		&v.ProtocolFeeBasisPoints, &v.ProtocolFee, &v.QuoteAmountOutWithoutLPFee, &v.UserQuoteAmountOut} {
		*x = d.U64()
	}
	for _, k := range []*solana.PublicKey{&v.Pool, &v.User, &v.UserBaseTokenAccount, &v.UserQuoteTokenAccount,
		&v.ProtocolFeeRecipient, &v.ProtocolFeeRecipientTokenAccount, &v.CoinCreator} {
		*k = d.Key()
	}
	v.CoinCreatorFeeBasisPoints = d.U64()
	v.CoinCreatorFee = d.U64()
	v.CashbackFeeBasisPoints = d.U64()
	v.Cashback = d.U64()
	v.BuybackFeeBasisPoints = d.U64()
	v.BuybackFee = d.U64()
	v.VirtualQuoteReserves = getI128(&d)
	v.CanBoost = d.Bool()
	v.BaseSupply = d.U64()
	v.HolderRewardsBps = d.U64()
	v.HolderRewards = d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode SellEvent: %w", d.Err)
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
	e := encoder{B: make([]byte, 0, 320)}
	e.Disc(CreatePoolEventDiscriminator)
	e.I64(v.Timestamp)
	e.U16(v.Index)
	e.Key(v.Creator)
	e.Key(v.BaseMint)
	e.Key(v.QuoteMint)
	e.U8(v.BaseMintDecimals)
	e.U8(v.QuoteMintDecimals)
	for _, x := range []uint64{v.BaseAmountIn, v.QuoteAmountIn, v.PoolBaseAmount, v.PoolQuoteAmount,
		v.MinimumLiquidity, v.InitialLiquidity, v.LPTokenAmountOut} {
		e.U64(x)
	}
	e.U8(v.PoolBump)
	for _, k := range []solana.PublicKey{v.Pool, v.LPMint, v.UserBaseTokenAccount, v.UserQuoteTokenAccount, v.CoinCreator} {
		e.Key(k)
	}
	e.Bool(v.IsMayhemMode)
	e.U64(v.CreatorFeeBps)
	e.Bool(v.CanEditCreatorFee)
	e.Bool(v.IsHolderReward)
	return e.B
}
