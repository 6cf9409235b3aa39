package pumpfun

import (
	"errors"
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// Instruction discriminators (IDL instructions[].discriminator).
var (
	BuyDiscriminator                       = InstructionDiscriminator("buy")
	BuyExactSolInDiscriminator             = InstructionDiscriminator("buy_exact_sol_in")
	SellDiscriminator                      = InstructionDiscriminator("sell")
	CreateDiscriminator                    = InstructionDiscriminator("create")
	CreateV2Discriminator                  = InstructionDiscriminator("create_v2")
	ExtendAccountDiscriminator             = InstructionDiscriminator("extend_account")
	InitUserVolumeAccumulatorDiscriminator = InstructionDiscriminator("init_user_volume_accumulator")
	ClaimCashbackDiscriminator             = InstructionDiscriminator("claim_cashback")
)

// Event discriminators of the events the trade and create instructions emit.
var (
	TradeEventDiscriminator    = EventDiscriminator("TradeEvent")
	CreateEventDiscriminator   = EventDiscriminator("CreateEvent")
	CompleteEventDiscriminator = EventDiscriminator("CompleteEvent")
)

// ErrUnknownInstruction is returned by DecodeInstruction for a discriminator
// this package does not model.
var ErrUnknownInstruction = errors.New("pumpfun: unknown instruction")

// The IDL's OptionBool and OptionU64 are single-field tuple structs, not
// Borsh Options: they encode as 1 and 8 bytes with no tag. The program reads
// them EOF-tolerant (a missing trailing value is false or zero), and so do
// the decoders here.

// BuyArgs is the data of buy: exactly Amount tokens out, paying at most
// MaxSolCost lamports including fees.
type BuyArgs struct {
	Amount      uint64
	MaxSolCost  uint64
	TrackVolume bool // OptionBool
	// PartialFill (a trailing OptionBool, left off the data when false, as
	// the SDKs that predate it build the instruction): a buy past what is
	// left on the curve takes what is left instead of failing
	// NotEnoughTokensToBuy.
	PartialFill bool
}

// Encode returns the instruction data.
func (a *BuyArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 26)}
	e.Disc(BuyDiscriminator)
	e.U64(a.Amount)
	e.U64(a.MaxSolCost)
	e.Bool(a.TrackVolume)
	if a.PartialFill {
		e.Bool(true)
	}
	return e.B
}

// Decode reads the instruction data.
func (a *BuyArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(BuyDiscriminator, "buy")
	a.Amount = d.U64()
	a.MaxSolCost = d.U64()
	a.TrackVolume = d.OptBool()
	a.PartialFill = d.OptBool()
	return wrapDecode("buy", d.Err)
}

// BuyExactSolInArgs is the data of buy_exact_sol_in: spend SpendableSolIn
// lamports (fees included) for at least MinTokensOut tokens.
type BuyExactSolInArgs struct {
	SpendableSolIn uint64
	MinTokensOut   uint64
	TrackVolume    bool // OptionBool
	// PartialFill: as BuyArgs'; a buy whose lamports would buy more than
	// is left takes what is left and pays only for that.
	PartialFill bool
}

// Encode returns the instruction data.
func (a *BuyExactSolInArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 26)}
	e.Disc(BuyExactSolInDiscriminator)
	e.U64(a.SpendableSolIn)
	e.U64(a.MinTokensOut)
	e.Bool(a.TrackVolume)
	if a.PartialFill {
		e.Bool(true)
	}
	return e.B
}

// Decode reads the instruction data.
func (a *BuyExactSolInArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(BuyExactSolInDiscriminator, "buy_exact_sol_in")
	a.SpendableSolIn = d.U64()
	a.MinTokensOut = d.U64()
	a.TrackVolume = d.OptBool()
	a.PartialFill = d.OptBool()
	return wrapDecode("buy_exact_sol_in", d.Err)
}

// SellArgs is the data of sell: Amount tokens in for at least MinSolOutput
// lamports after fees.
type SellArgs struct {
	Amount       uint64
	MinSolOutput uint64
}

// Encode returns the instruction data.
func (a *SellArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 24)}
	e.Disc(SellDiscriminator)
	e.U64(a.Amount)
	e.U64(a.MinSolOutput)
	return e.B
}

// Decode reads the instruction data.
func (a *SellArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(SellDiscriminator, "sell")
	a.Amount = d.U64()
	a.MinSolOutput = d.U64()
	return wrapDecode("sell", d.Err)
}

// CreateArgs is the data of the deprecated create (SPL Token mint with
// Metaplex metadata).
type CreateArgs struct {
	Name    string
	Symbol  string
	URI     string
	Creator solana.PublicKey
}

// Encode returns the instruction data.
func (a *CreateArgs) Encode() []byte {
	e := encoder{B: make([]byte, 0, 8+12+len(a.Name)+len(a.Symbol)+len(a.URI)+32)}
	e.Disc(CreateDiscriminator)
	e.Str(a.Name)
	e.Str(a.Symbol)
	e.Str(a.URI)
	e.Key(a.Creator)
	return e.B
}

// Decode reads the instruction data.
func (a *CreateArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(CreateDiscriminator, "create")
	a.Name = d.Str()
	a.Symbol = d.Str()
	a.URI = d.Str()
	a.Creator = d.Key()
	return wrapDecode("create", d.Err)
}

// CreateV2Args is the data of create_v2 (Token-2022 mint, metadata in the
// mint). IsCashbackEnabled is deprecated and must be false (6082);
// CreatorFeeBps is honoured only for quote-control quote mints, send 0.
type CreateV2Args struct {
	Name              string
	Symbol            string
	URI               string
	Creator           solana.PublicKey
	IsMayhemMode      bool
	IsCashbackEnabled bool   // OptionBool
	CreatorFeeBps     uint64 // OptionU64
	IsHolderReward    bool   // OptionBool
}

// Encode returns the instruction data with every trailing argument, as the
// SDK sends it.
func (a *CreateV2Args) Encode() []byte {
	e := encoder{B: make([]byte, 0, 8+12+len(a.Name)+len(a.Symbol)+len(a.URI)+32+11)}
	e.Disc(CreateV2Discriminator)
	e.Str(a.Name)
	e.Str(a.Symbol)
	e.Str(a.URI)
	e.Key(a.Creator)
	e.Bool(a.IsMayhemMode)
	e.Bool(a.IsCashbackEnabled)
	e.U64(a.CreatorFeeBps)
	e.Bool(a.IsHolderReward)
	return e.B
}

// Decode reads the instruction data; missing trailing Option arguments read
// as false or zero.
func (a *CreateV2Args) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(CreateV2Discriminator, "create_v2")
	a.Name = d.Str()
	a.Symbol = d.Str()
	a.URI = d.Str()
	a.Creator = d.Key()
	a.IsMayhemMode = d.Bool()
	a.IsCashbackEnabled = d.OptBool()
	a.CreatorFeeBps = d.OptU64()
	a.IsHolderReward = d.OptBool()
	return wrapDecode("create_v2", d.Err)
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

// InitUserVolumeAccumulatorArgs is the (empty) data of
// init_user_volume_accumulator.
type InitUserVolumeAccumulatorArgs struct{}

// Encode returns the instruction data.
func (InitUserVolumeAccumulatorArgs) Encode() []byte {
	return append([]byte(nil), InitUserVolumeAccumulatorDiscriminator[:]...)
}

// Decode reads the instruction data.
func (*InitUserVolumeAccumulatorArgs) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(InitUserVolumeAccumulatorDiscriminator, "init_user_volume_accumulator")
	return wrapDecode("init_user_volume_accumulator", d.Err)
}

func wrapDecode(ix string, err error) error {
	if err != nil {
		return fmt.Errorf("decode %s: %w", ix, err)
	}
	return nil
}

// DecodeInstruction decodes pump.fun instruction data into a *BuyArgs,
// *BuyExactSolInArgs, *SellArgs, *CreateArgs, *CreateV2Args,
// *ExtendAccountArgs or *InitUserVolumeAccumulatorArgs. Another
// discriminator returns an error wrapping ErrUnknownInstruction.
func DecodeInstruction(data []byte) (any, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("decode instruction: %w: %d bytes", ErrShortData, len(data))
	}
	var v interface{ Decode([]byte) error }
	switch Discriminator(data[:8]) {
	case BuyDiscriminator:
		v = new(BuyArgs)
	case BuyExactSolInDiscriminator:
		v = new(BuyExactSolInArgs)
	case SellDiscriminator:
		v = new(SellArgs)
	case CreateDiscriminator:
		v = new(CreateArgs)
	case CreateV2Discriminator:
		v = new(CreateV2Args)
	case ExtendAccountDiscriminator:
		v = new(ExtendAccountArgs)
	case InitUserVolumeAccumulatorDiscriminator:
		v = new(InitUserVolumeAccumulatorArgs)
	default:
		return nil, fmt.Errorf("%w: discriminator %x", ErrUnknownInstruction, data[:8])
	}
	if err := v.Decode(data); err != nil {
		return nil, err
	}
	return v, nil
}
