package ingress

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// swapRequest is a decoded but not yet account-checked swap.
type swapRequest struct {
	job *wire.SwapJob
	// wallets is nil when the request omitted them (spot-active wallets
	// trade the top-level amount).
	wallets []walletEntry
	// amount is the top-level amount, "" when absent.
	amount string
	// autoOrdersSet is false when auto_orders was omitted or null: the
	// saved strategy applies.
	autoOrdersSet bool
	// assetDecimals is the quote asset's precision, for amount checks.
	assetDecimals int
}

type walletEntry struct {
	address string
	amount  string
}

// Limits of what a swap may carry.
const (
	maxWalletsPerSwap = 100
	maxFeeNative      = 1000 // priority_fee and processor_tip, native units
)

// fields is a JSON object with exact (case-sensitive) keys.
type fields map[string]json.RawMessage

func (f fields) present(name string) bool {
	v, ok := f[name]
	return ok && !bytes.Equal(v, []byte("null"))
}

func (f fields) str(name string) (string, bool, *apierr.Error) {
	if !f.present(name) {
		return "", false, nil
	}
	v := f[name]
	if len(v) == 0 || v[0] != '"' {
		return "", true, apierr.Invalid(name, "%s must be a string", name)
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", true, apierr.Invalid(name, "%s must be a string", name)
	}
	return s, true, nil
}

func (f fields) boolean(name string) (bool, *apierr.Error) {
	if !f.present(name) {
		return false, nil
	}
	switch string(f[name]) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, apierr.Invalid(name, "%s must be a boolean", name)
}

// number returns the literal of a JSON number field.
func (f fields) number(name string) (string, bool, *apierr.Error) {
	if !f.present(name) {
		return "", false, nil
	}
	v := string(f[name])
	if v == "" || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return "", true, apierr.Invalid(name, "%s must be a number", name)
	}
	return v, true, nil
}

// float returns a JSON number field as a float, for values that are not
// money (percentages, USD bounds).
func (f fields) float(name string) (*float64, *apierr.Error) {
	lit, ok, err := f.number(name)
	if err != nil || !ok {
		return nil, err
	}
	v, perr := strconv.ParseFloat(lit, 64)
	if perr != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, apierr.Invalid(name, "%s must be a finite number", name)
	}
	return &v, nil
}

func decodeObject(body []byte, at string) (fields, *apierr.Error) {
	var f fields
	d := json.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(&f); err != nil || f == nil {
		if at == "" {
			return nil, apierr.Invalid("body", "the body must be a JSON object")
		}
		return nil, apierr.Invalid(at, "%s must be an object", at)
	}
	if d.More() || d.InputOffset() < int64(len(bytes.TrimRight(body, " \t\r\n"))) {
		return nil, apierr.Invalid("body", "the body must hold exactly one JSON object")
	}
	return f, nil
}

// decodeSwap decodes and validates a swap body for a listener's family. It
// checks everything that does not need the account.
func decodeSwap(body []byte, family wire.Family, defaultSlippagePct float64) (*swapRequest, *apierr.Error) {
	f, aerr := decodeObject(body, "")
	if aerr != nil {
		return nil, aerr
	}
	job := &wire.SwapJob{Family: family}
	req := &swapRequest{job: job}

	// address
	addr, ok, aerr := f.str("address")
	if aerr != nil {
		return nil, aerr
	}
	if !ok || addr == "" {
		return nil, apierr.Invalid("address", "address is required")
	}
	if err := checkAddress(family, addr); err != nil {
		return nil, apierr.Invalid("address", "address is not a valid %s address", familyName(family))
	}
	job.Token = addr

	// side
	side, ok, aerr := f.str("side")
	if aerr != nil {
		return nil, aerr
	}
	switch wire.Side(side) {
	case wire.Buy, wire.Sell:
		job.Side = wire.Side(side)
	default:
		if !ok {
			return nil, apierr.Invalid("side", "side is required: Buy or Sell")
		}
		return nil, apierr.Invalid("side", "side must be Buy or Sell")
	}

	// chain (EVM only)
	var chain *chains.Chain
	if family == wire.FamilySol {
		chain, _ = chains.Get(wire.ChainSolana)
		job.Chain = wire.ChainSolana
	} else {
		name, ok, aerr := f.str("chain")
		if aerr != nil {
			return nil, aerr
		}
		if ok {
			c, found := chains.Lookup(name)
			if !found || c.Family != wire.FamilyEVM {
				return nil, apierr.Invalid("chain", "chain must be one of %s", strings.Join(wire.EVMChains, ", "))
			}
			chain = c
			job.Chain = c.Name
		}
	}

	// sell_mode
	if job.Side == wire.Sell {
		mode, ok, aerr := f.str("sell_mode")
		if aerr != nil {
			return nil, aerr
		}
		switch {
		case !ok || mode == wire.SellPercent:
			job.SellMode = wire.SellPercent
		case mode == wire.SellTokens:
			if family == wire.FamilyEVM {
				return nil, apierr.Invalid("sell_mode", "sell_mode tokens is not supported on the EVM host")
			}
			job.SellMode = wire.SellTokens
		default:
			return nil, apierr.Invalid("sell_mode", "sell_mode must be percent or tokens")
		}
	}

	// quote_asset
	qa, ok, aerr := f.str("quote_asset")
	if aerr != nil {
		return nil, aerr
	}
	qa = strings.ToUpper(qa)
	switch {
	case chain != nil:
		a, found := chain.Asset(qa)
		if !found {
			return nil, apierr.Invalid("quote_asset", "quote_asset on %s must be one of %s", chain.Name, strings.Join(chain.Symbols(), ", "))
		}
		job.QuoteAsset = a.Symbol
		req.assetDecimals = a.Decimals
	default: // EVM with the chain resolved later
		if ok {
			req.assetDecimals = chains.MaxDecimals(family, qa)
			if req.assetDecimals < 0 {
				return nil, apierr.Invalid("quote_asset", "quote_asset must be one of %s", strings.Join(chains.FamilySymbols(family), ", "))
			}
			job.QuoteAsset = qa
		} else {
			req.assetDecimals = 18
		}
	}

	// amounts and wallets
	if req.amount, ok, aerr = f.str("amount"); aerr != nil {
		return nil, aerr
	} else if ok {
		if aerr := req.checkAmount(req.amount, "amount"); aerr != nil {
			return nil, aerr
		}
	}
	if f.present("wallets") {
		var items []json.RawMessage
		if err := json.Unmarshal(f["wallets"], &items); err != nil {
			return nil, apierr.Invalid("wallets", "wallets must be an array of objects")
		}
		if len(items) == 0 {
			return nil, apierr.New(apierr.NoWallets, "wallets is an empty array; omit it to trade on the spot-active wallets")
		}
		if len(items) > maxWalletsPerSwap {
			return nil, apierr.Invalid("wallets", "at most %d wallets per swap", maxWalletsPerSwap)
		}
		seen := make(map[string]bool, len(items))
		req.wallets = make([]walletEntry, 0, len(items))
		for i, item := range items {
			at := fmt.Sprintf("wallets[%d]", i)
			wf, aerr := decodeObject(item, at)
			if aerr != nil {
				return nil, aerr
			}
			a, ok, aerr := wf.str("address")
			if aerr != nil {
				aerr.Details = at + ".address"
				return nil, aerr
			}
			if !ok || a == "" {
				return nil, apierr.Invalid(at+".address", "%s.address is required", at)
			}
			if checkAddress(family, a) != nil {
				return nil, apierr.Invalid(at+".address", "%s.address is not a valid %s address", at, familyName(family))
			}
			key := a
			if family == wire.FamilyEVM {
				key = strings.ToLower(a)
			}
			if seen[key] {
				return nil, apierr.Invalid(at+".address", "%s.address repeats an earlier wallet", at)
			}
			seen[key] = true
			amt, ok, aerr := wf.str("amount")
			if aerr != nil {
				aerr.Details = at + ".amount"
				return nil, aerr
			}
			if ok {
				if aerr := req.checkAmount(amt, at+".amount"); aerr != nil {
					return nil, aerr
				}
			} else if req.amount == "" {
				return nil, apierr.Invalid(at+".amount", "%s.amount is required when the top-level amount is absent", at)
			}
			req.wallets = append(req.wallets, walletEntry{address: a, amount: amt})
		}
	} else if req.amount == "" {
		return nil, apierr.Invalid("amount", "amount is required when wallets is omitted")
	}

	// slippage
	slip := defaultSlippagePct
	if v, aerr := f.float("slippage"); aerr != nil {
		return nil, aerr
	} else if v != nil {
		if *v < 0 || *v > 100 {
			return nil, apierr.Invalid("slippage", "slippage must be between 0 and 100 (percent)")
		}
		slip = *v
	}
	job.SlippageBps = uint32(math.Round(slip * 100))

	// fees, in the chain's smallest unit: SOL has 9 decimals; on EVM the
	// priority fee is in gwei (9 decimals of wei) and the tip in the native
	// asset (18).
	feeDecimals, tipDecimals := 9, 9
	if family == wire.FamilyEVM {
		tipDecimals = 18
	}
	if job.PriorityFee, aerr = feeUnits(f, "priority_fee", feeDecimals); aerr != nil {
		return nil, aerr
	}
	if job.ProcessorTip, aerr = feeUnits(f, "processor_tip", tipDecimals); aerr != nil {
		return nil, aerr
	}
	if job.AutoTip, aerr = f.boolean("auto_tip"); aerr != nil {
		return nil, aerr
	}
	if job.AntiMEV, aerr = f.boolean("anti_mev"); aerr != nil {
		return nil, aerr
	}
	if job.Side == wire.Buy {
		if job.SkipIfBought, aerr = f.boolean("skip_if_bought"); aerr != nil {
			return nil, aerr
		}
	}

	// max_tax (EVM only)
	if family == wire.FamilyEVM {
		v, aerr := f.float("max_tax")
		if aerr != nil {
			return nil, aerr
		}
		if v != nil {
			if *v < 0 || *v > 100 {
				return nil, apierr.Invalid("max_tax", "max_tax must be between 0 and 100 (percent)")
			}
			bps := uint32(math.Round(*v * 100))
			job.MaxTaxBps = &bps
		}
	}

	// market bounds
	bounds := []struct {
		min, max   string
		dmin, dmax **float64
	}{
		{"min_liquidity_usd", "max_liquidity_usd", &job.MinLiquidityUSD, &job.MaxLiquidityUSD},
		{"min_market_cap_usd", "max_market_cap_usd", &job.MinMarketCapUSD, &job.MaxMarketCapUSD},
	}
	for _, b := range bounds {
		lo, aerr := f.float(b.min)
		if aerr != nil {
			return nil, aerr
		}
		hi, aerr := f.float(b.max)
		if aerr != nil {
			return nil, aerr
		}
		if lo != nil && *lo < 0 {
			return nil, apierr.Invalid(b.min, "%s must be 0 or more", b.min)
		}
		if hi != nil && *hi < 0 {
			return nil, apierr.Invalid(b.max, "%s must be 0 or more", b.max)
		}
		if lo != nil && hi != nil && *lo > *hi {
			return nil, apierr.Invalid(b.min, "%s must not be above %s", b.min, b.max)
		}
		*b.dmin, *b.dmax = lo, hi
	}

	// auto_orders
	if f.present("auto_orders") {
		aos, aerr := wire.DecodeAutoOrders(f["auto_orders"], "auto_orders")
		if aerr != nil {
			return nil, aerr
		}
		job.AutoOrders = aos
		req.autoOrdersSet = true
	}
	return req, nil
}

// checkAmount validates a decimal amount for the request's side and mode.
func (r *swapRequest) checkAmount(s, field string) *apierr.Error {
	job := r.job
	switch {
	case job.Side == wire.Buy:
		if _, err := money.ParseUnits(s, r.assetDecimals); err != nil {
			return amountError(field, err, r.assetDecimals)
		}
	case job.SellMode == wire.SellTokens:
		if _, err := money.ParseUnits(s, 18); err != nil {
			return amountError(field, err, 18)
		}
	default:
		p, err := money.ParseRat(s)
		if err != nil {
			return amountError(field, err, 9)
		}
		if _, err := money.ParseUnits(s, 9); err != nil {
			return amountError(field, err, 9)
		}
		if p.Cmp(big.NewRat(1, 1)) < 0 || p.Cmp(big.NewRat(100, 1)) > 0 {
			return apierr.Invalid(field, "%s is a percent of holdings and must be between 1 and 100", field)
		}
	}
	return nil
}

func amountError(field string, err error, decimals int) *apierr.Error {
	switch {
	case errors.Is(err, money.ErrPrecision):
		return apierr.Invalid(field, "%s has more than %d fractional digits", field, decimals)
	case errors.Is(err, money.ErrNotPos):
		return apierr.Invalid(field, "%s must be greater than zero", field)
	}
	return apierr.Invalid(field, "%s must be a decimal string such as \"0.5\" (no sign, no exponent)", field)
}

func feeUnits(f fields, name string, decimals int) (string, *apierr.Error) {
	lit, ok, aerr := f.number(name)
	if aerr != nil || !ok {
		return "0", aerr
	}
	v, err := money.NumberUnits(lit, decimals)
	if err != nil {
		return "", apierr.Invalid(name, "%s must be a number of 0 or more", name)
	}
	if v.Cmp(new(big.Int).Mul(big.NewInt(maxFeeNative), money.Pow10(decimals))) > 0 {
		return "", apierr.Invalid(name, "%s is too large", name)
	}
	return v.String(), nil
}

func familyName(f wire.Family) string {
	if f == wire.FamilySol {
		return "Solana"
	}
	return "EVM"
}

var errBadAddress = errors.New("bad address")

// checkAddress validates an address of the family: a base58 32-byte key on
// Solana, 0x and 40 hex digits on EVM.
func checkAddress(f wire.Family, s string) error {
	if f == wire.FamilySol {
		if len(s) < 32 || len(s) > 44 {
			return errBadAddress
		}
		if _, err := solana.PublicKeyFromBase58(s); err != nil {
			return errBadAddress
		}
		return nil
	}
	if len(s) != 42 || (s[:2] != "0x" && s[:2] != "0X") {
		return errBadAddress
	}
	if _, err := hex.DecodeString(s[2:]); err != nil {
		return errBadAddress
	}
	return nil
}
