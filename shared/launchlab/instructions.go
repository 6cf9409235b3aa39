package launchlab

import (
	"fmt"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// MintParams names the new base token.
type MintParams struct {
	Decimals uint8
	Name     string
	Symbol   string
	URI      string
}

// CurveParams is the CurveParams enum: Type selects the variant; the fixed
// and linear curves carry no TotalBaseSell.
type CurveParams struct {
	Type                  uint8 // CurveConstant, CurveFixed or CurveLinear
	Supply                uint64
	TotalBaseSell         uint64 // constant curve only
	TotalQuoteFundRaising uint64
	MigrateType           uint8
}

// VestingParams locks part of the supply for the creator.
type VestingParams struct {
	TotalLockedAmount uint64
	CliffPeriod       uint64
	UnlockPeriod      uint64
}

// AMM creator-fee modes of InitializeV2Args.AMMFeeOn.
const (
	AMMFeeOnQuote uint8 = 0
	AMMFeeOnBoth  uint8 = 1
)

// InitializeV2Args are the arguments of initialize_v2.
type InitializeV2Args struct {
	Mint     MintParams
	Curve    CurveParams
	Vesting  VestingParams
	AMMFeeOn uint8
}

// Encode returns the instruction data.
func (a InitializeV2Args) Encode() []byte {
	e := anchor.Encoder{B: make([]byte, 0, 96+len(a.Mint.Name)+len(a.Mint.Symbol)+len(a.Mint.URI))}
	e.Disc(InitializeV2Discriminator)
	e.U8(a.Mint.Decimals)
	e.Str(a.Mint.Name)
	e.Str(a.Mint.Symbol)
	e.Str(a.Mint.URI)
	e.U8(a.Curve.Type)
	e.U64(a.Curve.Supply)
	if a.Curve.Type == CurveConstant {
		e.U64(a.Curve.TotalBaseSell)
	}
	e.U64(a.Curve.TotalQuoteFundRaising)
	e.U8(a.Curve.MigrateType)
	e.U64(a.Vesting.TotalLockedAmount)
	e.U64(a.Vesting.CliffPeriod)
	e.U64(a.Vesting.UnlockPeriod)
	e.U8(a.AMMFeeOn)
	return e.B
}

// Decode reads initialize_v2 instruction data.
func (a *InitializeV2Args) Decode(data []byte) error {
	d := anchor.Decoder{B: data}
	d.Disc(InitializeV2Discriminator, "initialize_v2")
	a.Mint.Decimals = d.U8()
	a.Mint.Name = d.Str()
	a.Mint.Symbol = d.Str()
	a.Mint.URI = d.Str()
	a.Curve.Type = d.U8()
	if d.Err == nil && a.Curve.Type > CurveLinear {
		return fmt.Errorf("launchlab: decode initialize_v2: curve variant %d", a.Curve.Type)
	}
	a.Curve.Supply = d.U64()
	if a.Curve.Type == CurveConstant {
		a.Curve.TotalBaseSell = d.U64()
	}
	a.Curve.TotalQuoteFundRaising = d.U64()
	a.Curve.MigrateType = d.U8()
	a.Vesting.TotalLockedAmount = d.U64()
	a.Vesting.CliffPeriod = d.U64()
	a.Vesting.UnlockPeriod = d.U64()
	a.AMMFeeOn = d.U8()
	if d.Err != nil {
		return fmt.Errorf("launchlab: decode initialize_v2: %w", d.Err)
	}
	return nil
}

// TradeArgs are the arguments of buy_exact_in (AmountIn quote, MinimumAmountOut
// base) and sell_exact_in (AmountIn base, MinimumAmountOut quote). ShareFeeRate
// is a referrer's cut in FeeRateDenominator units; a non-zero rate needs
// TradeAccounts.ShareFeeReceiver.
type TradeArgs struct {
	AmountIn         uint64
	MinimumAmountOut uint64
	ShareFeeRate     uint64
}

func (a TradeArgs) encode(disc anchor.Discriminator) []byte {
	e := anchor.Encoder{B: make([]byte, 0, 32)}
	e.Disc(disc)
	e.U64(a.AmountIn)
	e.U64(a.MinimumAmountOut)
	e.U64(a.ShareFeeRate)
	return e.B
}

func (a *TradeArgs) decode(data []byte, disc anchor.Discriminator, name string) error {
	d := anchor.Decoder{B: data}
	d.Disc(disc, name)
	a.AmountIn = d.U64()
	a.MinimumAmountOut = d.U64()
	a.ShareFeeRate = d.U64()
	if d.Err != nil {
		return fmt.Errorf("launchlab: decode %s: %w", name, d.Err)
	}
	return nil
}

// BuyExactInArgs spend AmountIn quote for at least MinimumAmountOut base.
type BuyExactInArgs TradeArgs

// Encode returns the instruction data.
func (a BuyExactInArgs) Encode() []byte { return TradeArgs(a).encode(BuyExactInDiscriminator) }

// Decode reads buy_exact_in instruction data.
func (a *BuyExactInArgs) Decode(data []byte) error {
	return (*TradeArgs)(a).decode(data, BuyExactInDiscriminator, "buy_exact_in")
}

// SellExactInArgs sell AmountIn base for at least MinimumAmountOut quote.
type SellExactInArgs TradeArgs

// Encode returns the instruction data.
func (a SellExactInArgs) Encode() []byte { return TradeArgs(a).encode(SellExactInDiscriminator) }

// Decode reads sell_exact_in instruction data.
func (a *SellExactInArgs) Decode(data []byte) error {
	return (*TradeArgs)(a).decode(data, SellExactInDiscriminator, "sell_exact_in")
}
