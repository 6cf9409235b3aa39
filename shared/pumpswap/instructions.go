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
	e := encoder{b: make([]byte, 0, 25)}
	e.disc(BuyDiscriminator)
	e.u64(a.BaseAmountOut)
	e.u64(a.MaxQuoteAmountIn)
	e.boolean(a.TrackVolume)
	return e.b
}

// Decode reads the instruction data.
func (a *BuyArgs) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(BuyDiscriminator, "buy")
	a.BaseAmountOut = d.u64()
	a.MaxQuoteAmountIn = d.u64()
	a.TrackVolume = d.optBool()
	return wrapDecode("buy", d.err)
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
	e := encoder{b: make([]byte, 0, 25)}
	e.disc(BuyExactQuoteInDiscriminator)
	e.u64(a.SpendableQuoteIn)
	e.u64(a.MinBaseAmountOut)
	e.boolean(a.TrackVolume)
	return e.b
}

// Decode reads the instruction data.
func (a *BuyExactQuoteInArgs) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(BuyExactQuoteInDiscriminator, "buy_exact_quote_in")
	a.SpendableQuoteIn = d.u64()
	a.MinBaseAmountOut = d.u64()
	a.TrackVolume = d.optBool()
	return wrapDecode("buy_exact_quote_in", d.err)
}

// SellArgs is the data of sell: BaseAmountIn tokens in for at least
// MinQuoteAmountOut quote units after fees.
type SellArgs struct {
	BaseAmountIn      uint64
	MinQuoteAmountOut uint64
}

// Encode returns the instruction data.
func (a *SellArgs) Encode() []byte {
	e := encoder{b: make([]byte, 0, 24)}
	e.disc(SellDiscriminator)
	e.u64(a.BaseAmountIn)
	e.u64(a.MinQuoteAmountOut)
	return e.b
}

// Decode reads the instruction data.
func (a *SellArgs) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(SellDiscriminator, "sell")
	a.BaseAmountIn = d.u64()
	a.MinQuoteAmountOut = d.u64()
	return wrapDecode("sell", d.err)
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
	e := encoder{b: make([]byte, 0, 8+2+16+32+1+1+8+1+1)}
	e.disc(CreatePoolDiscriminator)
	e.u16(a.Index)
	e.u64(a.BaseAmountIn)
	e.u64(a.QuoteAmountIn)
	e.key(a.CoinCreator)
	e.boolean(a.IsMayhemMode)
	e.boolean(a.IsCashbackCoin)
	e.u64(a.CreatorFeeBps)
	e.boolean(a.CanEditCreatorFee)
	e.boolean(a.IsHolderReward)
	return e.b
}

// Decode reads the instruction data; missing trailing Option arguments read
// as false or zero.
func (a *CreatePoolArgs) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(CreatePoolDiscriminator, "create_pool")
	a.Index = d.u16()
	a.BaseAmountIn = d.u64()
	a.QuoteAmountIn = d.u64()
	a.CoinCreator = d.key()
	a.IsMayhemMode = d.boolean()
	a.IsCashbackCoin = d.optBool()
	a.CreatorFeeBps = d.optU64()
	a.CanEditCreatorFee = d.optBool()
	a.IsHolderReward = d.optBool()
	return wrapDecode("create_pool", d.err)
}

// ExtendAccountArgs is the (empty) data of extend_account.
type ExtendAccountArgs struct{}

// Encode returns the instruction data.
func (ExtendAccountArgs) Encode() []byte {
	return append([]byte(nil), ExtendAccountDiscriminator[:]...)
}

// Decode reads the instruction data.
func (*ExtendAccountArgs) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(ExtendAccountDiscriminator, "extend_account")
	return wrapDecode("extend_account", d.err)
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
