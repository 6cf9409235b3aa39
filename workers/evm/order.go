package evm

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// order is a job read into chain types.
type order struct {
	orderID string
	// sendBy is when the order's swaps stop being sent (planSwaps,
	// wire.TxBatch.SendBy).
	sendBy time.Time
	// takesAt is when the signing began taking the legs' nonces: the
	// batch's SignedAt, from which its PublishBy counts, so that a take
	// slow to be written (a NATS node failing over) cannot leave the
	// batch on its way after the reclaim bound counted from the take.
	takesAt     time.Time
	side        wire.Side
	token       common.Address
	quote       string // quote asset symbol, upper case; "" is the native coin
	slippageBps uint64
	// sellTokens: a sell's legs give token quantities, not percents.
	sellTokens bool
	// chosen is why a chainless sale's chain was chosen among several
	// (market.reason), kept for its route once it is worked out again on
	// that chain alone.
	chosen string
	// priorityFee and processorTip in wei, as the job gives them; under
	// autoTip the chain's figures replace them. priorityFeeGiven: the
	// request named a priority fee (0 is then a tip of nothing).
	priorityFee      *big.Int
	priorityFeeGiven bool
	processorTip     *big.Int
	// caps bound every fee the order pays, the client's and the ones the
	// signer chooses.
	caps    feeCaps
	autoTip bool
	antiMEV bool
	legs    []jobLeg

	// Filled in as the job goes through Sign.
	tax  *taxResult
	fees fees
}

// jobLeg is one wallet's part as the job gives it.
type jobLeg struct {
	wallet common.Address
	amount string
	// field is the request field the amount came from (wire.Leg.Field).
	field string
	// percent of a sell, exactly; tokens instead, a sell's token
	// quantity in whole units (sell_mode tokens).
	percent *big.Rat
	tokens  *big.Rat
}

func parseJob(job *wire.SwapJob) (*order, error) {
	if !common.IsHexAddress(job.Token) {
		return nil, apierr.Invalid("address", "address %q is not an EVM address", job.Token)
	}
	o := &order{orderID: job.OrderID, side: job.Side, token: common.HexToAddress(job.Token),
		quote: strings.ToUpper(job.QuoteAsset), slippageBps: uint64(job.SlippageBps), autoTip: job.AutoTip, antiMEV: job.AntiMEV}
	if o.token == nativeCoin {
		// No contract lives there, and among a wallet's reads the zero
		// address stands for the native coin.
		return nil, apierr.Newf(apierr.TokenNotFound, o.token.Hex(), "%s is the zero address, no token", o.token.Hex())
	}
	if new(big.Int).SetBytes(o.token.Bytes()).BitLen() <= 16 {
		// The precompiles and the system contracts live at the lowest
		// addresses, and answer a token's calls with errors of their own.
		return nil, apierr.Newf(apierr.TokenNotFound, o.token.Hex(), "%s is a precompile's address (below 0x10000), no token", o.token.Hex())
	}
	switch job.Side {
	case wire.Buy:
	case wire.Sell:
		switch job.SellMode {
		case "", wire.SellPercent:
		case wire.SellTokens:
			// Not from a client (ingress refuses it on the EVM host): the
			// exits engine sells a position's exact quantity, which a
			// percent of a balance that another sale in flight changes
			// would not be.
			o.sellTokens = true
		default:
			return nil, apierr.Invalid("sell_mode", "unknown sell_mode %q", job.SellMode)
		}
	default:
		return nil, apierr.Invalid("side", "unknown side %q", job.Side)
	}
	if o.slippageBps > 10_000 {
		return nil, apierr.Invalid("slippage", "slippage must be at most 100 percent")
	}
	if len(job.Legs) == 0 {
		return nil, apierr.New(apierr.NoWallets, "")
	}
	var err error
	if o.priorityFee, err = parseWei("priority_fee", job.PriorityFee); err != nil {
		return nil, err
	}
	o.priorityFeeGiven = job.PriorityFee != ""
	if o.processorTip, err = parseWei("processor_tip", job.ProcessorTip); err != nil {
		return nil, err
	}
	if o.caps, err = parseFeeCaps(job.FeeCaps); err != nil {
		return nil, err
	}
	// Ingress has held the client's fees to the caps; they are held to them
	// again here, where they are signed. Under auto_tip they are ignored
	// and what the signer chooses is clamped instead (fees).
	if !job.AutoTip {
		if err := o.caps.check(o.priorityFee, o.processorTip); err != nil {
			return nil, err
		}
	}
	o.legs = make([]jobLeg, len(job.Legs))
	seen := make(map[common.Address]bool, len(job.Legs))
	for i, jl := range job.Legs {
		if !common.IsHexAddress(jl.Wallet) {
			return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].address", i), "wallet %q is not an EVM address", jl.Wallet)
		}
		l := jobLeg{wallet: common.HexToAddress(jl.Wallet), amount: jl.Amount, field: jl.Field()}
		// One wallet's balance pays for one leg; two legs of it would each
		// be checked against the whole balance.
		if seen[l.wallet] {
			return nil, apierr.Invalid(fmt.Sprintf("wallets[%d].address", i), "wallet %s is listed twice", l.wallet.Hex())
		}
		seen[l.wallet] = true
		switch {
		case job.Side == wire.Sell && o.sellTokens:
			v, err := money.ParseRat(jl.Amount)
			if err != nil || v.Sign() <= 0 {
				return nil, apierr.Invalid(l.field, "token quantity %q must be above 0", jl.Amount)
			}
			l.tokens = v
		case job.Side == wire.Sell:
			p, err := money.ParseRat(jl.Amount)
			if err != nil || p.Cmp(big.NewRat(100, 1)) > 0 {
				return nil, apierr.Invalid(l.field, "sell percent %q must be above 0 and at most 100", jl.Amount)
			}
			l.percent = p
		}
		o.legs[i] = l
	}
	return o, nil
}

// parseWei reads an integer count of wei; empty means zero.
func parseWei(field, s string) (*big.Int, error) {
	if s == "" {
		return new(big.Int), nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, apierr.Invalid(field, "%s must be an integer number of wei", field)
		}
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.BitLen() > 256 {
		return nil, apierr.Invalid(field, "%s is out of range", field)
	}
	return v, nil
}

// percentOf returns floor(balance * percent / 100).
func percentOf(balance *big.Int, percent *big.Rat) *big.Int {
	v := new(big.Int).Mul(balance, percent.Num())
	return v.Quo(v, new(big.Int).Mul(percent.Denom(), big.NewInt(100)))
}

// minusBps returns floor(v * (10000 - bps) / 10000).
func minusBps(v *big.Int, bps uint64) *big.Int {
	if bps >= 10_000 {
		return new(big.Int)
	}
	out := new(big.Int).Mul(v, new(big.Int).SetUint64(10_000-bps))
	return out.Quo(out, big.NewInt(10_000))
}

// plusBps returns v * (10000 + bps) / 10000, rounded down.
func plusBps(v uint64, bps uint64) uint64 {
	return v + v*bps/10_000
}

// amountOut is the V2 pair's output for amountIn after its 0.3% fee, as
// UniswapV2Library.getAmountOut computes it: exactly what the pair pays.
func amountOut(in, reserveIn, reserveOut *big.Int) *big.Int {
	if in.Sign() <= 0 || reserveIn.Sign() <= 0 || reserveOut.Sign() <= 0 {
		return new(big.Int)
	}
	return uniswap.V2AmountOut(in, reserveIn, reserveOut)
}

// Default fee caps of a job that carries none (from an ingress older than
// the caps): the account defaults of the registry (registry.DefaultFeeCaps),
// 500 gwei of priority fee per gas and 0.05 of the native coin of tip.
var (
	DefaultMaxPriorityFee  = big.NewInt(500_000_000_000)
	DefaultMaxProcessorTip = big.NewInt(50_000_000_000_000_000)
)

// feeCaps bound one transaction's fees, in wei: the priority fee per gas
// (the tip cap) and the processor tip paid to the chain's tip address.
type feeCaps struct {
	priorityFee *big.Int
	tip         *big.Int
}

// parseFeeCaps reads the caps ingress set on a job; nil is the defaults.
func parseFeeCaps(c *wire.FeeCaps) (feeCaps, error) {
	if c == nil {
		return feeCaps{priorityFee: new(big.Int).Set(DefaultMaxPriorityFee), tip: new(big.Int).Set(DefaultMaxProcessorTip)}, nil
	}
	var out feeCaps
	var err error
	if out.priorityFee, err = parseWei("fee_caps.max_priority_fee", c.MaxPriorityFee); err != nil {
		return feeCaps{}, err
	}
	if out.tip, err = parseWei("fee_caps.max_processor_tip", c.MaxProcessorTip); err != nil {
		return feeCaps{}, err
	}
	return out, nil
}

// check refuses a client's priority fee or tip above the caps.
func (c feeCaps) check(priorityFee, tip *big.Int) error {
	if priorityFee.Cmp(c.priorityFee) > 0 {
		return apierr.Invalid("priority_fee", "priority_fee of %s wei per gas is above the account's max_priority_fee cap of %s wei", priorityFee, c.priorityFee)
	}
	if tip.Cmp(c.tip) > 0 {
		return apierr.Invalid("processor_tip", "processor_tip of %s wei is above the account's max_processor_tip cap of %s wei", tip, c.tip)
	}
	return nil
}
