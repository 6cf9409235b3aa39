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
