package evm

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ChainConfig is one EVM chain the signer trades on: where its V2 exchange
// is and how its quote assets are priced.
type ChainConfig struct {
	// Name is the chain's name (eth, bsc, base, rbh, arc).
	Name string
	// ChainID is the EIP-155 chain id every transaction is signed for.
	ChainID *big.Int
	// Router, Factory and WrappedNative are the V2 router (with the Tipped
	// swaps), its factory, and the wrapped native coin the router's WETH()
	// returns.
	Router, Factory, WrappedNative common.Address
	// Quotes maps each stable quote asset symbol the chain allows besides
	// its native coin (USDC, USDT, USD1, USDG) to its token.
	Quotes map[string]common.Address
	// USDPricing says how the native coin is valued in US dollars, for the
	// liquidity and market-cap bounds and for choosing the deepest pool.
	USDPricing USDPricing
	// MinTipCap is the floor of the priority fee in wei, used when a job
	// gives none and under auto_tip. Nil is 1 gwei.
	MinTipCap *big.Int
	// AutoProcessorTip is the tip paid to the block builder, in wei, of a
	// job with auto_tip. Nil is no tip.
	AutoProcessorTip *big.Int
}

// USDPricing values a chain's native coin in US dollars.
type USDPricing struct {
	// NativeIsUSD says the native coin is itself a dollar stable coin (arc,
	// whose native coin is USDC).
	NativeIsUSD bool
	// Stable is the symbol, a key of ChainConfig.Quotes, of the stable coin
	// whose V2 pair against the wrapped native coin prices the native coin.
	// Stable coins count as one dollar each.
	Stable string
}

// Validate checks a chain's configuration against the chain's parameters.
func (c *ChainConfig) Validate() error {
	ch, ok := chains.Get(c.Name)
	if !ok || ch.Family != wire.FamilyEVM {
		return fmt.Errorf("evm chain %q: unknown", c.Name)
	}
	var errs []error
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("chain id missing"))
	}
	zero := common.Address{}
	for name, a := range map[string]common.Address{"router": c.Router, "factory": c.Factory, "wrapped native": c.WrappedNative} {
		if a == zero {
			errs = append(errs, fmt.Errorf("%s address missing", name))
		}
	}
	for _, a := range ch.Assets {
		if a.Native {
			continue
		}
		if t, ok := c.Quotes[a.Symbol]; !ok || t == zero {
			errs = append(errs, fmt.Errorf("quote asset %s has no token", a.Symbol))
		}
	}
	for sym := range c.Quotes {
		if a, ok := ch.Asset(sym); !ok || a.Native || sym != strings.ToUpper(sym) {
			errs = append(errs, fmt.Errorf("quote asset %q is not a stable quote asset of %s", sym, c.Name))
		}
	}
	if !c.USDPricing.NativeIsUSD {
		if _, ok := c.Quotes[c.USDPricing.Stable]; !ok {
			errs = append(errs, fmt.Errorf("usd pricing: stable %q is not among the quote assets", c.USDPricing.Stable))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("evm chain %s: %w", c.Name, err)
	}
	return nil
}

// Config tunes the signer. Zero fields take the values of DefaultConfig.
type Config struct {
	// GasMarginBps is added to every gas estimate, in basis points.
	GasMarginBps uint64 `yaml:"gas_margin_bps"`
	// SwapGasAfterApproval is the gas limit of a swap signed behind an
	// approval in the same order: the swap cannot be estimated before the
	// approval is mined, so it gets this fixed limit, sized for a V2 swap
	// of a taxed token with the builder tip (about 180k gas on the local
	// chains) with room to spare.
	SwapGasAfterApproval uint64 `yaml:"swap_gas_after_approval"`
	// DeadlineAfter is how long after the latest block's timestamp a swap
	// stays valid. Past it the swap reverts instead of trading, so a
	// transaction that waits in a pool (behind a lost nonce, say) cannot
	// trade long after its order; it matches the broadcaster's default
	// ConfirmAfter, after which the order lookup calls it expired.
	DeadlineAfter time.Duration `yaml:"deadline_after"`
	// FeeHistoryBlocks and FeeHistoryPercentile choose the priority fee of
	// an auto_tip job: the mean over that many recent blocks of the given
	// percentile of their priority fees, at least the chain's MinTipCap.
	FeeHistoryBlocks     uint64  `yaml:"fee_history_blocks"`
	FeeHistoryPercentile float64 `yaml:"fee_history_percentile"`
	// ApprovalMemory is how long an approval this process signed is
	// trusted to be on its way: within it, a later order of the same wallet
	// and token signs no second approval.
	ApprovalMemory time.Duration `yaml:"approval_memory"`
	// TaxProbeAmountBps sizes the tax probe's round trip as a share of the
	// pool's quote reserve, in basis points. The probe reports what the
	// round trip loses; the smaller the share, the less the pool's curve
	// bends that figure away from the token's nominal tax (at 1 bps, less
	// than a hundredth of a percent).
	TaxProbeAmountBps uint64 `yaml:"tax_probe_amount_bps"`
	// RPCTimeout bounds each Sign's chain reads.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{
		GasMarginBps:         2500,
		SwapGasAfterApproval: 400_000,
		DeadlineAfter:        90 * time.Second,
		FeeHistoryBlocks:     10,
		FeeHistoryPercentile: 60,
		ApprovalMemory:       2 * time.Minute,
		TaxProbeAmountBps:    1,
		RPCTimeout:           10 * time.Second,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.GasMarginBps == 0 {
		c.GasMarginBps = d.GasMarginBps
	}
	if c.SwapGasAfterApproval == 0 {
		c.SwapGasAfterApproval = d.SwapGasAfterApproval
	}
	if c.DeadlineAfter <= 0 {
		c.DeadlineAfter = d.DeadlineAfter
	}
	if c.FeeHistoryBlocks == 0 {
		c.FeeHistoryBlocks = d.FeeHistoryBlocks
	}
	if c.FeeHistoryPercentile <= 0 || c.FeeHistoryPercentile > 100 {
		c.FeeHistoryPercentile = d.FeeHistoryPercentile
	}
	if c.ApprovalMemory <= 0 {
		c.ApprovalMemory = d.ApprovalMemory
	}
	if c.TaxProbeAmountBps == 0 {
		c.TaxProbeAmountBps = d.TaxProbeAmountBps
	}
	if c.RPCTimeout <= 0 {
		c.RPCTimeout = d.RPCTimeout
	}
	return c
}
