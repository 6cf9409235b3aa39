package ingress

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// feeCaps are an account's fee caps of one family in a job's smallest
// units: lamports on Solana; on EVM the priority fee in wei per gas and the
// tip in wei. Every comparison with them is exact, in integers.
type feeCaps struct {
	family                             wire.Family
	priorityFee, processorTip, jitoTip *big.Int
}

// lamportDecimals turn SOL into lamports.
const lamportDecimals = 9

// feeCaps returns the account's caps of the listener's family. A cap the
// read model holds empty or damaged gives way to the family's default: an
// order is never without a cap.
func (h *handler) feeCaps(account string) feeCaps {
	f := h.l.Family
	u, unread := h.s.deps.Directory.FeeCaps(account, f).Units(f)
	for _, name := range unread {
		h.s.log.Warn("fee cap unreadable, using the default (or, for a default, no fee)", "cap", name)
	}
	return feeCaps{family: f, priorityFee: u.PriorityFee, processorTip: u.ProcessorTip, jitoTip: u.JitoTip}
}

// checkSwap refuses a swap whose priority_fee or processor_tip is above
// its cap, and puts the caps in the job either way: under auto_tip the two
// fields were not read, and the caps bound what the worker picks instead.
func (c feeCaps) checkSwap(job *wire.SwapJob) *apierr.Error {
	job.FeeCaps = registry.CapUnits{PriorityFee: c.priorityFee, ProcessorTip: c.processorTip}.Job()
	if job.AutoTip {
		return nil
	}
	feeDec, tipDec := registry.FeeUnitDecimals(c.family)
	feeUnit, tipUnit := "SOL", "SOL"
	if c.family == wire.FamilyEVM {
		feeUnit, tipUnit = "gwei", nativeOf(job.Chain)
	}
	if aerr := overCap("priority_fee", job.PriorityFee, c.priorityFee, feeDec, feeUnit); aerr != nil {
		return aerr
	}
	if aerr := overCap("processor_tip", job.ProcessorTip, c.processorTip, tipDec, tipUnit); aerr != nil {
		return aerr
	}
	if aerr := overCeiling("priority_fee", job.PriorityFee, c.family, feeDec, feeUnit); aerr != nil {
		return aerr
	}
	return overCeiling("processor_tip", job.ProcessorTip, c.family, tipDec, tipUnit)
}

// checkDeploy refuses a launch whose buys' priority_fee_sol or jito_tip is
// above its cap, and gives the job the tip cap, which also bounds the tip
// the worker chooses when the request sent none. past are the fees the
// request gave past what the job's fields hold (decodeDeploy), refused
// naming the cap as any other fee above it.
func (c feeCaps) checkDeploy(job *wire.DeployJob, past map[string]string) *apierr.Error {
	job.MaxJitoTip = c.jitoTip.String()
	for i, b := range job.Buys {
		field := fmt.Sprintf("buys[%d].priority_fee_sol", i)
		fee, over := past[field]
		if !over {
			fee = fmt.Sprint(b.PriorityFee)
		}
		if aerr := overCap(field, fee, c.priorityFee, lamportDecimals, "SOL"); aerr != nil {
			return aerr
		}
		if aerr := overCeiling(field, fee, wire.FamilySol, lamportDecimals, "SOL"); aerr != nil {
			return aerr
		}
		if over {
			// No cap or ceiling is that high; the job could not carry it.
			return apierr.Invalid(field, "%s is above 18446744073.709551615 SOL, the most a fee can hold", field)
		}
	}
	tip := new(big.Int).SetUint64(job.JitoTip)
	given, over := past["jito_tip"]
	if over {
		tip, _ = new(big.Int).SetString(given, 10)
	}
	if tip.Cmp(c.jitoTip) > 0 {
		return apierr.Invalid("jito_tip", "jito_tip %s lamports (%s SOL) is above this account's cap of %s SOL",
			tip, money.Format(tip, lamportDecimals), money.Format(c.jitoTip, lamportDecimals))
	}
	if aerr := overCeiling("jito_tip", tip.String(), wire.FamilySol, lamportDecimals, "SOL"); aerr != nil {
		return aerr
	}
	if over {
		return apierr.Invalid("jito_tip", "jito_tip is above %d, the most it can hold", uint64(math.MaxUint64))
	}
	return nil
}

// overCap refuses field when its value, units in smallest units, is above
// limit; the message shows both in the unit the request uses.
func overCap(field, units string, limit *big.Int, decimals int, unit string) *apierr.Error {
	if units == "" {
		return nil // not named
	}
	v, ok := new(big.Int).SetString(units, 10)
	if ok && v.Cmp(limit) <= 0 {
		return nil
	}
	shown := units
	if ok {
		shown = money.Format(v, decimals)
	}
	return apierr.Invalid(field, "%s %s is above this account's cap of %s %s", field, shown, money.Format(limit, decimals), unit)
}

// maxFeeNative bounds every fee and tip a request names, in whole units of
// the native coin (an EVM priority fee per unit of gas), whatever the
// account's caps say: the caps are the operator's bound, this one the
// service's, far above any real fee. It is checked after the cap, so that a
// fee above both is refused naming the cap.
const maxFeeNative = 1000

// overCeiling refuses field when its value, units in smallest units (of
// decimals, shown in unit), is above maxFeeNative of family's native coin.
func overCeiling(field, units string, family wire.Family, decimals int, unit string) *apierr.Error {
	v, ok := new(big.Int).SetString(units, 10)
	if !ok {
		return nil // not named
	}
	native := 9
	if family == wire.FamilyEVM {
		native = chains.WeiDecimals
	}
	// In the field's smallest units: an EVM priority fee's are wei, as
	// the native coin's are.
	ceiling := new(big.Int).Mul(big.NewInt(maxFeeNative), money.Pow10(native))
	if v.Cmp(ceiling) <= 0 {
		return nil
	}
	return apierr.Invalid(field, "%s %s %s is above %s %s, the most this service sends whatever the account's cap",
		field, money.Format(v, decimals), unit, money.Format(ceiling, decimals), unit)
}

// nativeOf names the native coin of an EVM chain, for a cap's message; a
// swap whose chain is resolved later has no one name for it.
func nativeOf(chain string) string {
	if c, ok := chains.Get(chain); ok {
		return c.Native
	}
	return "of the chain's native coin"
}
