package evm

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ChainConfig is one EVM chain the signer trades on: where its official
// Uniswap contracts are, how its quote assets are priced, and where a
// bundle's tip goes.
type ChainConfig struct {
	// Name is the chain's name (eth, bsc, base, rbh, arc).
	Name string
	// ChainID is the EIP-155 chain id every transaction is signed for.
	ChainID *big.Int
	// Router is the official UniswapV2Router02 and Factory the official
	// UniswapV2Factory it trades on; WrappedNative is the wrapped native
	// coin, the routers' WETH.
	Router, Factory, WrappedNative common.Address
	// V3Factory is the official UniswapV3Factory, SwapRouter02 and
	// QuoterV2 the official V3 periphery over it and Factory.
	V3Factory, SwapRouter02, QuoterV2 common.Address
	// NativeToken is the ERC-20 interface of a native coin that has one
	// (arc's USDC): trades in the native coin go through it as through a
	// stable quote token, and WrappedNative may be zero. Its balance is
	// the native balance, so a buy's gas comes out of what it spends.
	NativeToken common.Address
	// TipAddress is where a bundle pays its processor tip, by a plain
	// transfer of the native coin inside the bundle, which goes to the
	// chain's relay. Zero: the chain has no bundle market to tip, and a
	// job with a processor_tip above 0 is refused.
	TipAddress common.Address
	// PrivateRelay says the chain has a private relay (relay_url), where
	// the broadcaster sends an anti_mev transaction instead of the public
	// mempool. False: a job with anti_mev is refused before anything is
	// signed, rather than signed, its nonce taken, and refused by the
	// broadcaster, leaving a gap the wallet's next orders wait behind.
	PrivateRelay bool
	// Quotes maps each stable quote asset symbol the chain allows besides
	// its native coin (USDC, USDT, USD1, USDG) to its token.
	Quotes map[string]common.Address
	// USDPricing says how the native coin is valued in US dollars, for the
	// liquidity and market-cap bounds and for choosing the deepest pool.
	USDPricing USDPricing
	// MinTipCap is the floor of the priority fee in wei, used when a job
	// gives none and under auto_tip. Nil is DefaultMinTipCap.
	MinTipCap *big.Int
	// AutoProcessorTip is the processor tip, in wei, of a job with
	// auto_tip on a chain with a TipAddress. Nil is no tip.
	AutoProcessorTip *big.Int
}

// DefaultMinTipCap is the least priority fee the service picks on a chain
// that sets no min_priority_fee: 0.001 gwei. The node's suggestion or the
// fee history decides above it; a floor only keeps a quiet chain's zero
// from becoming the tip.
var DefaultMinTipCap = big.NewInt(1_000_000)

// quoteToken is the token the pools of quote asset a are quoted in, and
// whether trades in it go through the routers' wrapped native coin (a
// native coin sent with the swap, or paid out to the wallet): the wrapped
// native token for the native coin, or the native coin's own ERC-20
// interface where the chain has one (arc's USDC), which trades as a stable
// quote token does; a stable's token.
func (c *ChainConfig) quoteToken(a chains.Asset) (token common.Address, viaWrapper bool) {
	if !a.Native {
		return c.Quotes[a.Symbol], false
	}
	return c.NativeQuote(), c.NativeToken == (common.Address{})
}

// NativeQuote is the token the pools of the native coin are quoted in:
// the native coin's own ERC-20 interface where the chain has one (arc's
// USDC), else the wrapped native token.
func (c *ChainConfig) NativeQuote() common.Address {
	if c.NativeToken != (common.Address{}) {
		return c.NativeToken
	}
	return c.WrappedNative
}

// takesTips reports whether the chain has a bundle market to pay a
// processor tip into.
func (c *ChainConfig) takesTips() bool { return c.TipAddress != (common.Address{}) }

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
	for _, a := range []struct {
		name string
		addr common.Address
	}{{"router", c.Router}, {"factory", c.Factory}, {"v3 factory", c.V3Factory}, {"swap router02", c.SwapRouter02},
		{"quoter v2", c.QuoterV2}} {
		if a.addr == zero {
			errs = append(errs, fmt.Errorf("%s address missing", a.name))
		}
	}
	if err := ch.CheckNativeRoute(c.WrappedNative != zero, c.NativeToken != zero); err != nil {
		errs = append(errs, err)
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

// Config is the signer's configuration: rpc_timeout of the `evm:` section of
// the configuration file and the tunables no file sets, decoded, defaulted
// and validated by shared/config, which the signer takes as it is. Zero
// fields take the values of DefaultConfig.
type Config = config.EVMSigner

// DefaultConfig returns the defaults, config.DefaultEVMSigner.
func DefaultConfig() Config { return config.DefaultEVMSigner() }

// withDefaults fills the zero fields of c with the defaults, so that a
// caller (a test, a tool) may set only what it cares about.
func withDefaults(c Config) Config {
	d := DefaultConfig()
	if c.GasMarginBps == 0 {
		c.GasMarginBps = d.GasMarginBps
	}
	if c.GasRefresh <= 0 {
		c.GasRefresh = d.GasRefresh
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

// ChainFromConfig reads a chain of the configuration file's evm.chains
// into the signer's ChainConfig and validates it; errors name the keys.
func ChainFromConfig(name string, c config.EVMChain) (ChainConfig, error) {
	prefix := "evm.chains." + name
	addr := func(field, s string) (common.Address, error) {
		if !common.IsHexAddress(s) {
			return common.Address{}, fmt.Errorf("%s.%s: %q is not an address", prefix, field, s)
		}
		return common.HexToAddress(s), nil
	}
	cc := ChainConfig{Name: name, ChainID: new(big.Int).SetUint64(c.ChainID), Quotes: map[string]common.Address{}}
	var err error
	if cc.Router, err = addr("router", c.Router); err != nil {
		return ChainConfig{}, err
	}
	if cc.Factory, err = addr("factory", c.Factory); err != nil {
		return ChainConfig{}, err
	}
	if c.WrappedNative != "" || c.NativeToken == "" {
		if cc.WrappedNative, err = addr("wrapped_native", c.WrappedNative); err != nil {
			return ChainConfig{}, err
		}
	}
	if c.NativeToken != "" {
		if cc.NativeToken, err = addr("native_token", c.NativeToken); err != nil {
			return ChainConfig{}, err
		}
	}
	if cc.V3Factory, err = addr("v3_factory", c.V3Factory); err != nil {
		return ChainConfig{}, err
	}
	if cc.SwapRouter02, err = addr("swap_router02", c.SwapRouter02); err != nil {
		return ChainConfig{}, err
	}
	if cc.QuoterV2, err = addr("quoter_v2", c.QuoterV2); err != nil {
		return ChainConfig{}, err
	}
	if c.TipAddress != "" {
		if cc.TipAddress, err = addr("tip_address", c.TipAddress); err != nil {
			return ChainConfig{}, err
		}
	}
	cc.PrivateRelay = c.RelayURL != ""
	for sym, a := range c.Quotes {
		if cc.Quotes[strings.ToUpper(sym)], err = addr("quotes."+sym, a); err != nil {
			return ChainConfig{}, err
		}
	}
	cc.USDPricing = PricingOf(name, strings.ToUpper(c.USDStable))
	if cc.MinTipCap, err = c.MinPriorityFeeWei(); err != nil {
		return ChainConfig{}, fmt.Errorf("%s.min_priority_fee: %w", prefix, err)
	}
	if cc.AutoProcessorTip, err = c.AutoProcessorTipWei(); err != nil {
		return ChainConfig{}, fmt.Errorf("%s.auto_processor_tip: %w", prefix, err)
	}
	if err := cc.Validate(); err != nil {
		return ChainConfig{}, fmt.Errorf("%s: %w", prefix, err)
	}
	return cc, nil
}

// PricingOf says how a chain's native coin is valued in US dollars: arc's
// native coin is USDC; elsewhere through the given stable, or the chain's
// first stable quote asset when stable is empty.
func PricingOf(name, stable string) USDPricing {
	ch, ok := chains.Get(name)
	if !ok {
		return USDPricing{Stable: stable}
	}
	if ch.Native == "USDC" {
		return USDPricing{NativeIsUSD: true}
	}
	if stable == "" && len(ch.Assets) > 1 {
		stable = ch.Assets[1].Symbol
	}
	return USDPricing{Stable: stable}
}
