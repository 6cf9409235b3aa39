package dbc

import (
	"fmt"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// InitializePoolParameters are the arguments of
// initialize_virtual_pool_with_spl_token: the Metaplex name, symbol and
// URI of the new base token.
type InitializePoolParameters struct {
	Name   string
	Symbol string
	URI    string
}

// Encode returns the instruction data.
func (a InitializePoolParameters) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, 20+len(a.Name)+len(a.Symbol)+len(a.URI))}
	e.Disc(InitializeVirtualPoolWithSPLTokenDiscriminator)
	e.Str(a.Name)
	e.Str(a.Symbol)
	e.Str(a.URI)
	return e.B
}

// Decode reads initialize_virtual_pool_with_spl_token instruction data.
func (a *InitializePoolParameters) Decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(InitializeVirtualPoolWithSPLTokenDiscriminator, "initialize_virtual_pool_with_spl_token")
	a.Name = d.Str()
	a.Symbol = d.Str()
	a.URI = d.Str()
	if d.Err != nil {
		return fmt.Errorf("dbc: decode initialize_virtual_pool_with_spl_token: %w", d.Err)
	}
	return nil
}

// SwapParameters are the arguments of swap: an exact-in swap of AmountIn of
// the input token for at least MinimumAmountOut of the other.
type SwapParameters struct {
	AmountIn         uint64
	MinimumAmountOut uint64
}

// Encode returns the instruction data.
func (a SwapParameters) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, 24)}
	e.Disc(SwapDiscriminator)
	e.U64(a.AmountIn)
	e.U64(a.MinimumAmountOut)
	return e.B
}

// Decode reads swap instruction data.
func (a *SwapParameters) Decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(SwapDiscriminator, "swap")
	a.AmountIn = d.U64()
	a.MinimumAmountOut = d.U64()
	if d.Err != nil {
		return fmt.Errorf("dbc: decode swap: %w", d.Err)
	}
	return nil
}

// Swap modes of swap2 (Swap2Parameters.SwapMode).
const (
	// SwapModeExactIn swaps all of Amount0 for at least Amount1, as swap
	// does.
	SwapModeExactIn uint8 = 0
	// SwapModePartialFill is an exact-in swap that takes, of a buy larger
	// than what is left on the curve, only what completes it: the payer
	// pays for that alone and keeps the rest, at least Amount1 out.
	SwapModePartialFill uint8 = 1
	// SwapModeExactOut buys exactly Amount0 of the output for at most
	// Amount1 in.
	SwapModeExactOut uint8 = 2
)

// Swap2Parameters are the arguments of swap2: in the exact-in and
// partial-fill modes Amount0 goes in for at least Amount1 out; in the
// exact-out mode Amount0 comes out for at most Amount1 in.
type Swap2Parameters struct {
	Amount0  uint64
	Amount1  uint64
	SwapMode uint8
}

// Encode returns the instruction data.
func (a Swap2Parameters) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, 25)}
	e.Disc(Swap2Discriminator)
	e.U64(a.Amount0)
	e.U64(a.Amount1)
	e.U8(a.SwapMode)
	return e.B
}

// Decode reads swap2 instruction data.
func (a *Swap2Parameters) Decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(Swap2Discriminator, "swap2")
	a.Amount0 = d.U64()
	a.Amount1 = d.U64()
	a.SwapMode = d.U8()
	if d.Err != nil {
		return fmt.Errorf("dbc: decode swap2: %w", d.Err)
	}
	return nil
}
