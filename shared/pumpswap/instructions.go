package pumpswap

import (
	"errors"
	"fmt"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Instruction discriminators (IDL instructions[].discriminator).
var (
	BuyDiscriminator             = pumpfun.InstructionDiscriminator("buy")
	BuyExactQuoteInDiscriminator = pumpfun.InstructionDiscriminator("buy_exact_quote_in")
	SellDiscriminator            = pumpfun.InstructionDiscriminator("sell")
	CreatePoolDiscriminator      = pumpfun.InstructionDiscriminator("create_pool")
	ExtendAccountDiscriminator   = pumpfun.InstructionDiscriminator("extend_account")
	BuyEventDiscriminator        = pumpfun.EventDiscriminator("BuyEvent")
	SellEventDiscriminator       = pumpfun.EventDiscriminator("SellEvent")
	CreatePoolEventDiscriminator = pumpfun.EventDiscriminator("CreatePoolEvent")
)

// EventCPITag prefixes the data of Anchor's event self-invocation.
var EventCPITag = pumpfun.EventCPITag

// ErrUnknownInstruction is returned by DecodeInstruction for a discriminator
// this package does not model.
var ErrUnknownInstruction = errors.New("pumpswap: unknown instruction")

// BuyArgs is the data of buy: exactly BaseAmountOut tokens out, paying at
// most MaxQuoteAmountIn quote units including fees.
type BuyArgs struct {
	BaseAmountOut    uint64
	MaxQuoteAmountIn uint64
	TrackVolume      bool // OptionBool
}

// Encode returns the instruction data.
func (a *BuyArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 25)}
	e.Disc(BuyDiscriminator)
	e.U64(a.BaseAmountOut)
	e.U64(a.MaxQuoteAmountIn)
	e.Bool(a.TrackVolume)
	return e.B
}

// Decode reads the instruction data.
func (a *BuyArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(BuyDiscriminator, "buy")
	a.BaseAmountOut = d.U64()
	a.MaxQuoteAmountIn = d.U64()
	a.TrackVolume = d.OptBool()
	return wrapDecode("buy", d.Err)
}

// BuyExactQuoteInArgs is the data of buy_exact_quote_in: spend at most
// SpendableQuoteIn quote units, fees included, for at least
// MinBaseAmountOut tokens.
type BuyExactQuoteInArgs struct {
	SpendableQuoteIn uint64
	MinBaseAmountOut uint64
	TrackVolume      bool // OptionBool
}

// Encode returns the instruction data.
func (a *BuyExactQuoteInArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 25)}
	e.Disc(BuyExactQuoteInDiscriminator)
	e.U64(a.SpendableQuoteIn)
	e.U64(a.MinBaseAmountOut)
	e.Bool(a.TrackVolume)
	return e.B
}

// Decode reads the instruction data.
func (a *BuyExactQuoteInArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(BuyExactQuoteInDiscriminator, "buy_exact_quote_in")
	a.SpendableQuoteIn = d.U64()
	a.MinBaseAmountOut = d.U64()
	a.TrackVolume = d.OptBool()
	return wrapDecode("buy_exact_quote_in", d.Err)
}

// SellArgs is the data of sell: BaseAmountIn tokens in for at least
// MinQuoteAmountOut quote units after fees.
type SellArgs struct {
	BaseAmountIn      uint64
	MinQuoteAmountOut uint64
}

// Encode returns the instruction data.
func (a *SellArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 24)}
	e.Disc(SellDiscriminator)
	e.U64(a.BaseAmountIn)
	e.U64(a.MinQuoteAmountOut)
	return e.B
}

// Decode reads the instruction data.
func (a *SellArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(SellDiscriminator, "sell")
	a.BaseAmountIn = d.U64()
	a.MinQuoteAmountOut = d.U64()
	return wrapDecode("sell", d.Err)
}

// CreatePoolArgs is the data of create_pool. Only a canonical pump pool
// (created through the pump.fun program's pool authority) may name a coin
// creator; other pools pass the zero key.
type CreatePoolArgs struct {
	Index             uint16
	BaseAmountIn      uint64
	QuoteAmountIn     uint64
	CoinCreator       solana.PublicKey
	IsMayhemMode      bool
	IsCashbackCoin    bool   // OptionBool
	CreatorFeeBps     uint64 // OptionU64
	CanEditCreatorFee bool   // OptionBool
	IsHolderReward    bool   // OptionBool
}

// Encode returns the instruction data with every trailing argument.
func (a *CreatePoolArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 8+2+16+32+1+1+8+1+1)}
	e.Disc(CreatePoolDiscriminator)
	e.U16(a.Index)
	e.U64(a.BaseAmountIn)
	e.U64(a.QuoteAmountIn)
	e.Key(a.CoinCreator)
	e.Bool(a.IsMayhemMode)
	e.Bool(a.IsCashbackCoin)
	e.U64(a.CreatorFeeBps)
	e.Bool(a.CanEditCreatorFee)
	e.Bool(a.IsHolderReward)
	return e.B
}

// Decode reads the instruction data; missing trailing Option arguments read
// as false or zero.
func (a *CreatePoolArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(CreatePoolDiscriminator, "create_pool")
	a.Index = d.U16()
	a.BaseAmountIn = d.U64()
	a.QuoteAmountIn = d.U64()
	a.CoinCreator = d.Key()
	a.IsMayhemMode = d.Bool()
	a.IsCashbackCoin = d.OptBool()
	a.CreatorFeeBps = d.OptU64()
	a.CanEditCreatorFee = d.OptBool()
	a.IsHolderReward = d.OptBool()
	return wrapDecode("create_pool", d.Err)
}

// ExtendAccountArgs is the (empty) data of extend_account.
type ExtendAccountArgs struct{}

// Encode returns the instruction data.
func (ExtendAccountArgs) Encode() []byte {
	return append([]byte(nil), ExtendAccountDiscriminator[:]...)
}

// Decode reads the instruction data.
func (*ExtendAccountArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(ExtendAccountDiscriminator, "extend_account")
	return wrapDecode("extend_account", d.Err)
}

func wrapDecode(ix string, err error) error {
	if err != nil {
		return fmt.Errorf("decode %s: %w", ix, err)
	}
	return nil
}

// DecodeInstruction decodes PumpSwap instruction data into a *BuyArgs,
// *BuyExactQuoteInArgs, *SellArgs, *CreatePoolArgs or *ExtendAccountArgs.
// Another discriminator returns an error wrapping ErrUnknownInstruction.
func DecodeInstruction(data []byte) (any, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("decode instruction: %w: %d bytes", ErrShortData, len(data))
	}
	var v interface{ Decode([]byte) error }
	switch Discriminator(data[:8]) {
	case BuyDiscriminator:
		v = new(BuyArgs)
	case BuyExactQuoteInDiscriminator:
		v = new(BuyExactQuoteInArgs)
	case SellDiscriminator:
		v = new(SellArgs)
	case CreatePoolDiscriminator:
		v = new(CreatePoolArgs)
	case ExtendAccountDiscriminator:
		v = new(ExtendAccountArgs)
	default:
		return nil, fmt.Errorf("%w: discriminator %x", ErrUnknownInstruction, data[:8])
	}
	if err := v.Decode(data); err != nil {
		return nil, err
	}
	return v, nil
}
