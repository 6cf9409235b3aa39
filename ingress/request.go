package ingress

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
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
)

// swapDecoder decodes one swap body field by field. Each step reads one
// field, or the fields checked together, into req; the steps run in a
// fixed order and the first fault ends the decoding, so a body with
// several faults always names the same field.
type swapDecoder struct {
	f          fields
	family     wire.Family
	defaultPct float64
	// chain is the chain's table entry: Solana's, the named EVM chain's,
	// or nil on EVM when chain is omitted (the worker resolves it).
	chain *chains.Chain
	req   *swapRequest
}

// swapSteps are the decoding steps, in order.
var swapSteps = []func(*swapDecoder) *apierr.Error{
	(*swapDecoder).address,
	(*swapDecoder).side,
	(*swapDecoder).chainName,
	(*swapDecoder).sellMode,
	(*swapDecoder).quoteAsset,
	(*swapDecoder).amount,
	(*swapDecoder).wallets,
	(*swapDecoder).slippage,
	(*swapDecoder).fees,
	(*swapDecoder).flags,
	(*swapDecoder).maxTax,
	(*swapDecoder).bounds,
	(*swapDecoder).autoOrders,
}

// decodeSwap decodes and validates a swap body for a listener's family. It
// checks everything that does not need the account.
func decodeSwap(body []byte, family wire.Family, defaultSlippagePct float64) (*swapRequest, *apierr.Error) {
	f, aerr := decodeObject(body, "")
	if aerr != nil {
		return nil, aerr
	}
	d := &swapDecoder{f: f, family: family, defaultPct: defaultSlippagePct,
		req: &swapRequest{job: &wire.SwapJob{Family: family}}}
	for _, step := range swapSteps {
		if aerr := step(d); aerr != nil {
			return nil, aerr
		}
	}
	return d.req, nil
}

// address is the token: a mint or pool on Solana, a contract on EVM.
func (d *swapDecoder) address() *apierr.Error {
	addr, ok, aerr := d.f.str("address")
	if aerr != nil {
		return aerr
	}
	if !ok || addr == "" {
		return apierr.Invalid("address", "address is required")
	}
	if err := chains.CheckAddress(d.family, addr); err != nil {
		return badAddress(d.family, "address", err)
	}
	d.req.job.Token = addr
	return nil
}

// side is Buy or Sell, spelled exactly so.
func (d *swapDecoder) side() *apierr.Error {
	side, ok, aerr := d.f.str("side")
	if aerr != nil {
		return aerr
	}
	switch wire.Side(side) {
	case wire.Buy, wire.Sell:
		d.req.job.Side = wire.Side(side)
		return nil
	}
	if !ok {
		return apierr.Invalid("side", "side is required: Buy or Sell")
	}
	return apierr.Invalid("side", "side must be Buy or Sell")
}

// chainName fixes the chain: always Solana on the Solana hosts, where the
// field is ignored; on EVM the named chain, or none to resolve later.
func (d *swapDecoder) chainName() *apierr.Error {
	job := d.req.job
	if d.family == wire.FamilySol {
		d.chain, _ = chains.Get(wire.ChainSolana)
		job.Chain = wire.ChainSolana
		return nil
	}
	name, ok, aerr := d.f.str("chain")
	if aerr != nil || !ok {
		return aerr
	}
	c, found := chains.Lookup(name)
	if !found || c.Family != wire.FamilyEVM {
		return apierr.Invalid("chain", "chain must be one of %s", strings.Join(wire.EVMChains, ", "))
	}
	d.chain = c
	job.Chain = c.Name
	return nil
}

// sellMode applies to a Sell only: percent of holdings (the default) or a
// token quantity, which only Solana supports. A Buy ignores it, but an
// unknown mode is refused on either side, as every unknown enum value is.
func (d *swapDecoder) sellMode() *apierr.Error {
	job := d.req.job
	mode, ok, aerr := d.f.str("sell_mode")
	if aerr != nil {
		return aerr
	}
	if ok && mode != wire.SellPercent && mode != wire.SellTokens {
		return apierr.Invalid("sell_mode", "sell_mode must be percent or tokens")
	}
	if job.Side != wire.Sell {
		return nil
	}
	switch {
	case !ok || mode == wire.SellPercent:
		job.SellMode = wire.SellPercent
	case mode == wire.SellTokens:
		if d.family == wire.FamilyEVM {
			return apierr.Invalid("sell_mode", "sell_mode tokens is not supported on the EVM host")
		}
		job.SellMode = wire.SellTokens
	}
	return nil
}

// quoteAsset is what a Buy spends. Its decimals bound the amounts: the
// chain's own when the chain is known, else the finest of the family's
// chains, since the worker resolves the chain later.
func (d *swapDecoder) quoteAsset() *apierr.Error {
	qa, ok, aerr := d.f.str("quote_asset")
	if aerr != nil {
		return aerr
	}
	qa = strings.ToUpper(qa)
	req := d.req
	switch {
	case ok && qa == "" && d.chain != nil:
		// Named, but empty: no asset of the chain is "".
		return apierr.Invalid("quote_asset", "quote_asset on %s must be one of %s", d.chain.Name, strings.Join(d.chain.Symbols(), ", "))
	case ok && qa == "":
		return apierr.Invalid("quote_asset", "quote_asset must be one of %s", strings.Join(chains.FamilySymbols(d.family), ", "))
	case d.chain != nil:
		a, found := d.chain.Asset(qa)
		if !found {
			return apierr.Invalid("quote_asset", "quote_asset on %s must be one of %s", d.chain.Name, strings.Join(d.chain.Symbols(), ", "))
		}
		req.job.QuoteAsset = a.Symbol
		req.assetDecimals = a.Decimals
	case ok:
		req.assetDecimals = chains.MaxDecimals(d.family, qa)
		if req.assetDecimals < 0 {
			return apierr.Invalid("quote_asset", "quote_asset must be one of %s", strings.Join(chains.FamilySymbols(d.family), ", "))
		}
		req.job.QuoteAsset = qa
	default:
		req.assetDecimals = 18
	}
	return nil
}

// amount is the top-level amount, the fallback of every wallet entry.
func (d *swapDecoder) amount() *apierr.Error {
	amt, ok, aerr := d.f.str("amount")
	if aerr != nil || !ok {
		return aerr
	}
	d.req.amount = amt
	return d.req.checkAmount(amt, "amount")
}

// wallets is omitted (the spot-active wallets trade the top-level amount),
// or 1 to 100 distinct entries; [] is NO_WALLETS and never falls back.
func (d *swapDecoder) wallets() *apierr.Error {
	req := d.req
	if !d.f.present("wallets") {
		if req.amount == "" {
			return apierr.Invalid("amount", "amount is required when wallets is omitted")
		}
		return nil
	}
	items, more, ok := wire.ArrayHead(d.f["wallets"], maxWalletsPerSwap)
	if !ok {
		return apierr.Invalid("wallets", "wallets must be an array of objects")
	}
	if len(items) == 0 {
		return apierr.New(apierr.NoWallets, "wallets is an empty array; omit it to trade on the spot-active wallets")
	}
	if more {
		return apierr.Invalid("wallets", "at most %d wallets per swap", maxWalletsPerSwap)
	}
	seen := make(map[string]bool, len(items))
	req.wallets = make([]walletEntry, 0, len(items))
	for i, item := range items {
		w, aerr := d.wallet(fmt.Sprintf("wallets[%d]", i), item, seen)
		if aerr != nil {
			return aerr
		}
		req.wallets = append(req.wallets, w)
	}
	return nil
}

// wallet decodes wallets[i] at the path at. seen holds the addresses of the
// entries before it (lower-cased on EVM, where case does not matter).
func (d *swapDecoder) wallet(at string, item json.RawMessage, seen map[string]bool) (walletEntry, *apierr.Error) {
	wf, aerr := decodeObject(item, at)
	if aerr != nil {
		return walletEntry{}, aerr
	}
	a, ok, aerr := wf.str("address")
	if aerr != nil {
		return walletEntry{}, renamed(aerr, "address", at+".address")
	}
	if !ok || a == "" {
		return walletEntry{}, apierr.Invalid(at+".address", "%s.address is required", at)
	}
	if aerr := walletAddress(d.family, at+".address", a); aerr != nil {
		return walletEntry{}, aerr
	}
	key := a
	if d.family == wire.FamilyEVM {
		key = strings.ToLower(a)
	}
	if seen[key] {
		return walletEntry{}, apierr.Invalid(at+".address", "%s.address repeats an earlier wallet", at)
	}
	seen[key] = true
	amt, ok, aerr := wf.str("amount")
	if aerr != nil {
		return walletEntry{}, renamed(aerr, "amount", at+".amount")
	}
	switch {
	case ok:
		if aerr := d.req.checkAmount(amt, at+".amount"); aerr != nil {
			return walletEntry{}, aerr
		}
	case d.req.amount == "":
		return walletEntry{}, apierr.Invalid(at+".amount", "%s.amount is required when the top-level amount is absent", at)
	}
	return walletEntry{address: a, amount: amt}, nil
}

// slippage is a percent from 0 to 100, kept to the basis point the venues
// take.
func (d *swapDecoder) slippage() *apierr.Error {
	d.req.job.SlippageBps = uint32(math.Round(d.defaultPct * 100))
	lit, ok, aerr := d.f.number("slippage")
	if aerr != nil || !ok {
		return aerr
	}
	// Read exactly, as max_tax is; a slippage between two basis points is
	// the one below it, so that no order's least out is lower than the
	// client asked (0.295 is 29 bps, 0.005 is none).
	v, err := money.ParseNumber(lit)
	if err != nil || v.Sign() < 0 || v.Cmp(big.NewRat(100, 1)) > 0 {
		return apierr.Invalid("slippage", "slippage must be between 0 and 100 (percent)")
	}
	scaled := new(big.Rat).Mul(v, big.NewRat(100, 1))
	d.req.job.SlippageBps = uint32(new(big.Int).Quo(scaled.Num(), scaled.Denom()).Uint64())
	return nil
}

// fees reads auto_tip, then the priority fee and the tip in the chain's
// smallest unit: SOL has 9 decimals; on EVM the priority fee is in gwei (9
// decimals of wei) and the tip in the native coin (18). Under auto_tip the
// worker chooses both, so the two fields are not read at all: whatever
// they hold can neither fail the request nor reach the job.
func (d *swapDecoder) fees() *apierr.Error {
	job := d.req.job
	var aerr *apierr.Error
	if job.AutoTip, aerr = d.f.boolean("auto_tip"); aerr != nil {
		return aerr
	}
	job.PriorityFee, job.ProcessorTip = "", "0"
	if job.AutoTip {
		return nil
	}
	feeDecimals, tipDecimals := registry.FeeUnitDecimals(d.family)
	if job.PriorityFee, aerr = feeUnits(d.f, "priority_fee", feeDecimals, ""); aerr != nil {
		return aerr
	}
	job.ProcessorTip, aerr = feeUnits(d.f, "processor_tip", tipDecimals, "0")
	return aerr
}

// flags are the booleans that remain; skip_if_bought only means something
// on a Buy and is ignored on a Sell, but must be a boolean (or null) all
// the same, as sell_mode must be one of its values on a Buy.
func (d *swapDecoder) flags() *apierr.Error {
	job := d.req.job
	var aerr *apierr.Error
	if job.AntiMEV, aerr = d.f.boolean("anti_mev"); aerr != nil {
		return aerr
	}
	skip, aerr := d.f.boolean("skip_if_bought")
	job.SkipIfBought = skip && job.Side == wire.Buy
	return aerr
}

// maxTax is EVM only (ignored on Solana): a percent from 0 to 100 that
// asks for a tax probe; omitted, there is no probe.
func (d *swapDecoder) maxTax() *apierr.Error {
	if d.family != wire.FamilyEVM {
		return nil
	}
	lit, ok, aerr := d.f.number("max_tax")
	if aerr != nil || !ok {
		return aerr
	}
	// Read exactly, as it was sent: a float would take 100.00000000000000001
	// for 100 and 4.99999999 for a hair under 5.
	v, err := money.ParseNumber(lit)
	if err != nil || v.Sign() < 0 || v.Cmp(big.NewRat(100, 1)) > 0 {
		return apierr.Invalid("max_tax", "max_tax must be between 0 and 100 (percent)")
	}
	// The probe measures whole basis points; a cap between two is the one
	// below it, so that no tax above the cap sent passes (4.995 is 499).
	scaled := new(big.Rat).Mul(v, big.NewRat(100, 1))
	bps := uint32(new(big.Int).Quo(scaled.Num(), scaled.Denom()).Uint64())
	d.req.job.MaxTaxBps = &bps
	return nil
}

// bounds are the market filters in USD, each optional, 0 or more, and a
// minimum never above its maximum.
func (d *swapDecoder) bounds() *apierr.Error {
	job := d.req.job
	for _, b := range []struct {
		min, max   string
		dmin, dmax **float64
	}{
		{"min_liquidity_usd", "max_liquidity_usd", &job.MinLiquidityUSD, &job.MaxLiquidityUSD},
		{"min_market_cap_usd", "max_market_cap_usd", &job.MinMarketCapUSD, &job.MaxMarketCapUSD},
	} {
		lo, aerr := d.f.float(b.min)
		if aerr != nil {
			return aerr
		}
		hi, aerr := d.f.float(b.max)
		if aerr != nil {
			return aerr
		}
		if aerr := checkBounds(b.min, b.max, lo, hi); aerr != nil {
			return aerr
		}
		if lo != nil && hi != nil && d.exact(b.min).Cmp(d.exact(b.max)) > 0 {
			// The literals compared as sent: two floats may round apart
			// values a hair apart, or from 2^52 on, the wrong way.
			return apierr.Invalid(b.min, "%s must not be above %s", b.min, b.max)
		}
		*b.dmin, *b.dmax = lo, hi
	}
	return nil
}

// exact is a number field the request gave, read exactly (its literal is
// bounded and was read by fields.float already).
func (d *swapDecoder) exact(name string) *big.Rat {
	lit, _, _ := d.f.number(name)
	r, err := money.ParseNumber(lit)
	if err != nil {
		return new(big.Rat)
	}
	return r
}

// checkBounds refuses a bound below 0.
func checkBounds(minName, maxName string, lo, hi *float64) *apierr.Error {
	if lo != nil && *lo < 0 {
		return apierr.Invalid(minName, "%s must be 0 or more", minName)
	}
	if hi != nil && *hi < 0 {
		return apierr.Invalid(maxName, "%s must be 0 or more", maxName)
	}
	return nil
}

// autoOrders are the buy's exits. Omitted or null, the saved strategy
// applies later (the account is not known here); [] means none.
func (d *swapDecoder) autoOrders() *apierr.Error {
	if !d.f.present("auto_orders") {
		return nil
	}
	aos, aerr := wire.DecodeAutoOrders(d.f["auto_orders"], "auto_orders")
	if aerr != nil {
		return aerr
	}
	d.req.job.AutoOrders = aos
	d.req.autoOrdersSet = true
	return nil
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
	case errors.Is(err, money.ErrTooLong):
		return apierr.Invalid(field, "%s is longer than %d characters", field, money.MaxDecimalLen)
	}
	return apierr.Invalid(field, "%s must be a decimal string such as \"0.5\" (no sign, no exponent)", field)
}

// feeUnits reads an optional fee field in whole units into the smallest
// unit, rounded up: absent when the field is. Its literal is bounded in
// length (fields.number), its value only by the caps. Rounded up, a fee is above its cap
// (an integer of the smallest unit) exactly when the number sent is, by
// however small a fraction.
func feeUnits(f fields, name string, decimals int, absent string) (string, *apierr.Error) {
	lit, ok, aerr := f.number(name)
	if aerr != nil || !ok {
		return absent, aerr
	}
	v, err := money.NumberUnitsUp(lit, decimals)
	if err != nil {
		return "", apierr.Invalid(name, "%s must be a number of 0 or more", name)
	}
	// Bounded by the account's cap once the account is known (feeCaps),
	// then by maxFeeNative.
	return v.String(), nil
}

func familyName(f wire.Family) string {
	if f == wire.FamilySol {
		return "Solana"
	}
	return "EVM"
}

// aFamily is the family's name with its article: "a Solana", "an EVM".
func aFamily(f wire.Family) string {
	if f == wire.FamilySol {
		return "a Solana"
	}
	return "an EVM"
}

// badAddress is the 400 of an address in field that chains.CheckAddress refused
// with err.
func badAddress(f wire.Family, field string, err error) *apierr.Error {
	if errors.Is(err, chains.ErrBadChecksum) {
		return apierr.Invalid(field, "%s does not match its EIP-55 checksum (its letters' case): a mistyped address? "+
			"Give it checksummed, or all in lower or upper case", field)
	}
	return apierr.Invalid(field, "%s is not a valid %s address", field, familyName(f))
}

// walletAddress checks a wallet's address in field: 400 when it is no
// address, 403 WALLET_NOT_OWNED when it is one of the other family, which
// no wallet of the account on this host can be.
func walletAddress(f wire.Family, field, s string) *apierr.Error {
	err := chains.CheckAddress(f, s)
	if err == nil {
		return nil
	}
	other := wire.FamilyEVM
	if f == wire.FamilyEVM {
		other = wire.FamilySol
	}
	if chains.CheckAddress(other, s) == nil {
		return apierr.Newf(apierr.WalletNotOwned, s, "%s is %s address, not %s wallet of this account", field, aFamily(other), aFamily(f))
	}
	return badAddress(f, field, err)
}
