package registry

import (
	"errors"
	"math/big"

	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// CapUnits are an account's fee caps of one family in a job's smallest
// units: lamports on Solana; on EVM the priority fee in wei per gas and the
// tip in wei. JitoTip is nil on EVM.
type CapUnits struct {
	PriorityFee, ProcessorTip, JitoTip *big.Int
}

// Job is the caps as a job carries them to the worker, which bounds what
// auto_tip picks by them.
func (u CapUnits) Job() *wire.FeeCaps {
	return &wire.FeeCaps{MaxPriorityFee: u.PriorityFee.String(), MaxProcessorTip: u.ProcessorTip.String()}
}

// FeeUnitDecimals are the decimals that turn a swap's priority_fee and
// processor_tip into their smallest units: SOL into lamports on Solana;
// on EVM gwei into wei per gas, and the native coin into wei.
func FeeUnitDecimals(f wire.Family) (fee, tip int) {
	if f == wire.FamilyEVM {
		return 9, 18
	}
	return 9, 9
}

// Units turns the caps of family f into smallest units. A cap that does
// not read (empty, or damaged in the read model) gives way to the
// family's default, and is named in unread; an order is never without a
// cap, and without a readable default nothing may be spent on that fee.
func (c FeeCaps) Units(f wire.Family) (u CapUnits, unread []string) {
	def := DefaultFeeCaps(f)
	feeDec, tipDec := FeeUnitDecimals(f)
	units := func(name string, v, d string, decimals int) *big.Int {
		if n, err := capUnits(v, decimals); err == nil {
			return n
		}
		if v != "" {
			unread = append(unread, name)
		}
		if n, err := money.NumberUnits(d, decimals); err == nil {
			return n
		}
		unread = append(unread, "default "+name)
		return new(big.Int)
	}
	u.PriorityFee = units("max_priority_fee", string(c.MaxPriorityFee), string(def.MaxPriorityFee), feeDec)
	u.ProcessorTip = units("max_processor_tip", string(c.MaxProcessorTip), string(def.MaxProcessorTip), tipDec)
	if f == wire.FamilySol {
		u.JitoTip = units("max_jito_tip", string(c.MaxJitoTip), string(def.MaxJitoTip), 9)
	}
	return u, unread
}

// capUnits reads a stored cap, a plain decimal in whole units, into base
// units: up to 2^256-1 of them, as the admin API takes, past the length a
// request's number literal may have (money.NumberUnits).
func capUnits(v string, decimals int) (*big.Int, error) {
	n, err := money.NumberUnits(v, decimals)
	if !errors.Is(err, money.ErrRange) {
		return n, err
	}
	if n, perr := money.ParseUnits(v, decimals); perr == nil && n.BitLen() <= 256 {
		return n, nil
	}
	return nil, err
}
