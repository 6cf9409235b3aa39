package config

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// EVM is the `evm:` section: the chains configured for production, and the
// EVM signer's settings.
type EVM struct {
	// Chains configures a chain by name (eth, bsc, base, rbh, arc). A chain
	// not listed is served by its local chain when devnet.enabled, and not
	// served otherwise.
	Chains map[string]EVMChain `yaml:"chains"`
	// EVMSigner holds the keys the EVM signer reads; the signer takes this
	// very struct (workers/evm.Config), so nothing is copied.
	EVMSigner `yaml:",inline"`
}

// EVMChain is one EVM chain in production: where its RPC answers and
// where the official Uniswap V2 and V3 contracts are. Addresses are 0x-hex;
// workers/evm turns them into its ChainConfig (ChainFromConfig).
type EVMChain struct {
	RPCURL string `yaml:"rpc_url"`
	// RelayURL is the private relay anti_mev transactions and tipped
	// bundles go to; empty refuses anti_mev on the chain.
	RelayURL string `yaml:"relay_url"`
	ChainID  uint64 `yaml:"chain_id"`
	// GenesisHash is the hash of the chain's block 0 (the hash of
	// eth_getBlockByNumber("0x0", false)), 0x and 64 hex digits, which
	// `tradeapi check` and the venue watcher compare (another chain pauses
	// both of the chain's venues): the local chains, and any other chain
	// reusing chain_id, would pass the chain id's check. Empty compares
	// nothing. The local chains are never compared.
	GenesisHash string `yaml:"genesis_hash"`
	// Confirmations is how many blocks must be built on a transaction's
	// block before its order counts it final, confirmed or reverted: a
	// reorg of fewer blocks can take it out again (and a tipped bundle,
	// in no public pool, would not come back), while a final order opens
	// its position and tells its webhook. 0 (the default) is final at
	// inclusion; at most maxConfirmations.
	Confirmations uint64 `yaml:"confirmations"`
	// Router is the official UniswapV2Router02 and Factory the official
	// UniswapV2Factory it trades on.
	Router  string `yaml:"router"`
	Factory string `yaml:"factory"`
	// V3Factory is the official UniswapV3Factory, SwapRouter02 and
	// QuoterV2 the official V3 periphery over it.
	V3Factory    string `yaml:"v3_factory"`
	SwapRouter02 string `yaml:"swap_router02"`
	QuoterV2     string `yaml:"quoter_v2"`
	// WrappedNative is the routers' WETH, through which trades in the
	// native coin go; empty on a chain whose native coin is itself an
	// ERC-20 (NativeToken).
	WrappedNative string `yaml:"wrapped_native"`
	// NativeToken is the ERC-20 interface of a native coin that has one
	// (arc's USDC, at 0x3600000000000000000000000000000000000000): the
	// chain's trades in its native coin go through it as through a stable
	// quote token, in its decimals. Empty elsewhere.
	NativeToken string `yaml:"native_token"`
	// TipAddress is where a bundle's processor_tip goes, by a plain
	// transfer of the native coin inside the bundle sent to relay_url.
	// Empty: the chain has no bundle market to tip, and a swap with a
	// processor_tip above 0 is refused there.
	TipAddress string `yaml:"tip_address"`
	// Quotes maps each stable quote asset of the chain to its token.
	Quotes map[string]string `yaml:"quotes"`
	// USDStable is the quote whose pair with the wrapped native coin prices
	// the native coin in dollars (empty: the chain's first stable quote
	// asset; arc's native coin is USDC and needs none).
	USDStable string `yaml:"usd_stable"`
	// ExplorerTx is the explorer URL pattern of a transaction, %s the hash;
	// empty shows no link.
	ExplorerTx string `yaml:"explorer_tx"`
	// MinPriorityFee is the least priority fee, in gwei, the service picks
	// when a swap names none or under auto_tip (the node's suggestion or
	// the fee history's percentile is raised to it); empty: 0.001 gwei. A
	// priority_fee the swap names is used as it is.
	MinPriorityFee string `yaml:"min_priority_fee"`
	// AutoProcessorTip is the processor tip, in the native coin, an
	// auto_tip swap pays in its bundle (needs tip_address); empty: none.
	AutoProcessorTip string `yaml:"auto_processor_tip"`
}

// EVMSigner is the EVM signer's configuration: rpc_timeout of the `evm:`
// section, and the tunables no file sets (yaml:"-"), which keep their
// defaults. A zero field is read as its default by the signer.
type EVMSigner struct {
	// RPCTimeout bounds each order's chain reads, and every EVM RPC call
	// of the exits engine.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`

	// GasMarginBps is added, in basis points, to the chain's estimate of a
	// call when the signer refreshes the gas limit it knows for that kind
	// of call (see GasRefresh).
	GasMarginBps uint64 `yaml:"-"`
	// GasRefresh is how often the gas limit the signer gives each kind of
	// router call on a chain (a V2 buy with the native coin, a V3 sell for
	// a stable, an approval, a tip, ...) is measured again with one
	// eth_estimateGas of a real order's transaction, off the order's path.
	// Orders never wait for an estimate, except the first of a kind on a
	// chain.
	GasRefresh time.Duration `yaml:"-"`
	// DeadlineAfter is how long after the latest block's timestamp, or the
	// clock when that is later, a swap stays valid. Past it the swap
	// reverts instead of trading, so a transaction that waits in a pool
	// (behind a lost nonce, say) cannot trade long after its order; it
	// matches the broadcaster's default ConfirmAfter, after which the order
	// lookup calls it expired.
	DeadlineAfter time.Duration `yaml:"-"`
	// FeeHistoryBlocks and FeeHistoryPercentile choose the priority fee of
	// an auto_tip job: the mean over that many recent blocks of the given
	// percentile of their priority fees, at least the chain's floor and at
	// most the account's max_priority_fee.
	FeeHistoryBlocks     uint64  `yaml:"-"`
	FeeHistoryPercentile float64 `yaml:"-"`
	// ApprovalMemory is how long an approval this process signed is
	// trusted to be on its way: within it, a later order of the same wallet
	// and token signs no second approval.
	ApprovalMemory time.Duration `yaml:"-"`
	// TaxProbeAmountBps sizes the tax probe's round trip as a share of the
	// pool's quote reserve, in basis points. The probe reports what the
	// round trip loses; the smaller the share, the less the pool's curve
	// bends that figure away from the token's nominal tax (at 1 bps, less
	// than a hundredth of a percent).
	TaxProbeAmountBps uint64 `yaml:"-"`
}

// DefaultEVM returns the defaults of the `evm:` section: no chain
// configured (the local chains serve them when devnet.enabled).
func DefaultEVM() EVM {
	return EVM{EVMSigner: DefaultEVMSigner()}
}

// DefaultEVMSigner returns the EVM signer's defaults.
func DefaultEVMSigner() EVMSigner {
	return EVMSigner{
		RPCTimeout:           10 * time.Second,
		GasMarginBps:         2500,
		GasRefresh:           10 * time.Minute,
		DeadlineAfter:        90 * time.Second,
		FeeHistoryBlocks:     10,
		FeeHistoryPercentile: 60,
		ApprovalMemory:       2 * time.Minute,
		TaxProbeAmountBps:    1,
	}
}

// Validate checks the section; errors name the keys.
func (e *EVM) Validate() error {
	var errs []error
	if err := rpcTimeoutBounds.check("evm.rpc_timeout", e.RPCTimeout); err != nil {
		errs = append(errs, err)
	}
	names := make([]string, 0, len(e.Chains))
	for name := range e.Chains {
		names = append(names, name)
	}
	sort.Strings(names) // one order of errors for one file
	ids := map[uint64]string{}
	for _, name := range names {
		if !slices.Contains(wire.EVMChains, name) {
			errs = append(errs, fmt.Errorf("evm.chains.%s: not an EVM chain (%s)", name, strings.Join(wire.EVMChains, ", ")))
			continue
		}
		ch := e.Chains[name]
		errs = append(errs, ch.validate("evm.chains."+name, name)...)
		// Two chains answering one id are one chain under two names (a
		// URL copied over): the id's check at start would pass both.
		if other, ok := ids[ch.ChainID]; ok && ch.ChainID != 0 {
			errs = append(errs, fmt.Errorf("evm.chains.%s.chain_id: %d is evm.chains.%s's too; each chain has its own", name, ch.ChainID, other))
		}
		ids[ch.ChainID] = name
	}
	return errors.Join(errs...)
}

// validate checks one chain whose key is at prefix.
func (c *EVMChain) validate(prefix, name string) []error {
	var errs []error
	if c.RPCURL == "" {
		errs = append(errs, fmt.Errorf("%s.rpc_url: empty; a listed chain needs its RPC endpoint", prefix))
	}
	for _, u := range []struct{ key, v string }{{"rpc_url", c.RPCURL}, {"relay_url", c.RelayURL}} {
		if err := checkURL(prefix+"."+u.key, u.v); err != nil {
			errs = append(errs, err)
		}
	}
	if c.ChainID == 0 {
		errs = append(errs, fmt.Errorf("%s.chain_id: missing", prefix))
	}
	if c.Confirmations > maxConfirmations {
		errs = append(errs, fmt.Errorf("%s.confirmations: %d is more than %d blocks", prefix, c.Confirmations, maxConfirmations))
	}
	if c.GenesisHash != "" {
		if h, ok := ParseGenesisHash(c.GenesisHash); !ok || h == (common.Hash{}) {
			errs = append(errs, fmt.Errorf("%s.genesis_hash: %s is not 0x and the 64 hex digits of a block hash", prefix, shownAddress(c.GenesisHash, 66)))
		}
	}
	for _, f := range c.contracts() {
		if err := checkHexAddress(prefix+"."+f.key, f.v); err != nil {
			errs = append(errs, err)
		}
	}
	// A chain's trades in its native coin go through its wrapped native
	// token, or through the native coin's own ERC-20 interface where it
	// has one and no wrapper (arc): one of the two.
	for _, a := range []struct{ key, v string }{{"wrapped_native", c.WrappedNative}, {"native_token", c.NativeToken}} {
		if a.v == "" {
			continue
		}
		if err := checkHexAddress(prefix+"."+a.key, a.v); err != nil {
			errs = append(errs, err)
		}
	}
	if ch, ok := chains.Get(name); ok {
		if err := ch.CheckNativeRoute(c.WrappedNative != "", c.NativeToken != ""); err != nil {
			errs = append(errs, fmt.Errorf("%s.%w", prefix, err))
		}
	}
	switch {
	case c.TipAddress == "":
	case !common.IsHexAddress(c.TipAddress) || common.HexToAddress(c.TipAddress) == (common.Address{}):
		errs = append(errs, fmt.Errorf("%s.tip_address: %s is not an address (leave it empty where the chain takes no tip)", prefix, shownAddress(c.TipAddress, 42)))
	case c.RelayURL == "":
		errs = append(errs, fmt.Errorf("%s.tip_address: a tip is paid in a bundle sent to the relay, and relay_url is empty", prefix))
	}
	errs = append(errs, c.validateQuotes(prefix, name)...)
	if c.USDStable != "" && !hasQuote(c.Quotes, c.USDStable) {
		errs = append(errs, fmt.Errorf("%s.usd_stable: %q is not among the chain's quotes", prefix, c.USDStable))
	}
	if !validExplorerPattern(c.ExplorerTx) {
		errs = append(errs, fmt.Errorf("%s.explorer_tx: %q must be an http(s) URL with one %%s", prefix, c.ExplorerTx))
	}
	if _, err := c.MinPriorityFeeWei(); err != nil {
		errs = append(errs, fmt.Errorf("%s.min_priority_fee: %w", prefix, err))
	}
	switch tip, err := c.AutoProcessorTipWei(); {
	case err != nil:
		errs = append(errs, fmt.Errorf("%s.auto_processor_tip: %w", prefix, err))
	case tip != nil && tip.Sign() > 0 && c.TipAddress == "":
		errs = append(errs, fmt.Errorf("%s.auto_processor_tip: a tip is paid to tip_address, and tip_address is empty", prefix))
	}
	return errs
}

// maxConfirmations bounds evm.chains.<name>.confirmations: past it an
// order waits longer than any chain's reorgs reach.
const maxConfirmations = 64

// ParseGenesisHash reads an EVM chain's genesis_hash: 0x and 64 hex
// digits, in either case. ok is false for anything else, "" included.
func ParseGenesisHash(s string) (h common.Hash, ok bool) {
	if !evmHash.MatchString(s) {
		return common.Hash{}, false
	}
	return common.HexToHash(s), true
}

// evmHash is a 32-byte hash as 0x-hex.
var evmHash = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)

// contracts lists the chain's required contract addresses by their keys.
func (c *EVMChain) contracts() []struct{ key, v string } {
	return []struct{ key, v string }{{"router", c.Router}, {"factory", c.Factory},
		{"v3_factory", c.V3Factory}, {"swap_router02", c.SwapRouter02}, {"quoter_v2", c.QuoterV2}}
}

// checkHexAddress refuses a value at key that is not a 0x-hex address, or
// is the zero address, which no contract or token is at.
func checkHexAddress(key, v string) error {
	switch {
	case !common.IsHexAddress(v):
		return fmt.Errorf("%s: %s is not an address", key, shownAddress(v, 42))
	case common.HexToAddress(v) == (common.Address{}):
		return fmt.Errorf("%s: %s is the zero address", key, v)
	}
	return nil
}

// validateQuotes checks the quotes of the chain whose key is at prefix:
// each names a stable quote asset of the chain, once, with its token, and
// every stable quote asset of the chain has one, as the signer requires
// (a swap may spend any of them).
func (c *EVMChain) validateQuotes(prefix, name string) []error {
	var errs []error
	ch, _ := chains.Get(name)
	syms := make([]string, 0, len(c.Quotes))
	for sym := range c.Quotes {
		syms = append(syms, sym)
	}
	sort.Strings(syms) // one order of errors for one file
	seen := map[string]string{}
	for _, sym := range syms {
		key := prefix + ".quotes." + sym
		if asset, ok := ch.Asset(strings.ToUpper(sym)); !ok || asset.Native {
			errs = append(errs, fmt.Errorf("%s: not a stable quote asset of %s", key, name))
		}
		if other, ok := seen[strings.ToUpper(sym)]; ok {
			errs = append(errs, fmt.Errorf("%s: %s.quotes.%s names the same asset", key, prefix, other))
		}
		seen[strings.ToUpper(sym)] = sym
		if err := checkHexAddress(key, c.Quotes[sym]); err != nil {
			errs = append(errs, err)
		}
	}
	for _, a := range ch.Assets {
		if !a.Native && !hasQuote(c.Quotes, a.Symbol) {
			errs = append(errs, fmt.Errorf("%s.quotes.%s: missing; %s trades against %s, which needs its token", prefix, a.Symbol, name, a.Symbol))
		}
	}
	// Each asset is its own token: one address given two assets (USDT at
	// USDC's) would have a swap in one spend or price the other.
	tokens := []struct{ key, sym, v string }{{"wrapped_native", "", c.WrappedNative}, {"native_token", "", c.NativeToken}}
	for _, sym := range syms {
		tokens = append(tokens, struct{ key, sym, v string }{"quotes." + sym, strings.ToUpper(sym), c.Quotes[sym]})
	}
	held := map[common.Address]struct{ key, sym string }{}
	for _, t := range tokens {
		if !common.IsHexAddress(t.v) {
			continue // empty, or refused above
		}
		a := common.HexToAddress(t.v)
		if a == (common.Address{}) {
			continue
		}
		switch other, ok := held[a]; {
		case !ok:
			held[a] = struct{ key, sym string }{t.key, t.sym}
		case t.sym == "" || t.sym != other.sym: // one asset named twice is said above
			errs = append(errs, fmt.Errorf("%s.%s: %s is %s.%s's token too; each asset has its own", prefix, t.key, t.v, prefix, other.key))
		}
	}
	return errs
}

// MinPriorityFeeWei is min_priority_fee in wei; nil when the key is empty.
func (c *EVMChain) MinPriorityFeeWei() (*big.Int, error) {
	return decimalUnits(c.MinPriorityFee, 9, "gwei")
}

// AutoProcessorTipWei is auto_processor_tip in wei; nil when the key is
// empty.
func (c *EVMChain) AutoProcessorTipWei() (*big.Int, error) {
	return decimalUnits(c.AutoProcessorTip, 18, "the native coin")
}

// decimalUnits reads a number of 0 or more (YAML writes a small one with
// an exponent) as an integer of the unit 10^-decimals, to the nearest;
// nil for "".
func decimalUnits(s string, decimals int, unit string) (*big.Int, error) {
	if s == "" {
		return nil, nil
	}
	v, err := money.NumberUnits(s, decimals)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number of %s of 0 or more", s, unit)
	}
	return v, nil
}

// TakesTips reports whether a swap on the named EVM chain may pay a
// processor_tip: a configured chain has a tip_address, where its relay's
// bundles pay; a chain served by the local chains (local: devnet.enabled,
// and the chain not configured) does, its relay taking bundles. Ingress
// refuses a processor_tip above 0 elsewhere before charging, as the
// worker does before signing.
func (e *EVM) TakesTips(chain string, local bool) bool {
	if c, ok := e.Chains[strings.ToLower(chain)]; ok {
		return c.TipAddress != ""
	}
	return local && slices.Contains(wire.EVMChains, strings.ToLower(chain))
}

// HasRelay reports whether anti_mev is served on the named EVM chain: a
// configured chain has a relay_url, where its private transactions go; a
// chain served by the local chains (local: devnet.enabled, and the chain
// not configured) does, its relay taking them. Ingress refuses anti_mev
// elsewhere before charging, as the worker does before signing.
func (e *EVM) HasRelay(chain string, local bool) bool {
	if c, ok := e.Chains[strings.ToLower(chain)]; ok {
		return c.RelayURL != ""
	}
	return local && slices.Contains(wire.EVMChains, strings.ToLower(chain))
}

// hasQuote reports whether quotes has sym, in any letter case.
func hasQuote(quotes map[string]string, sym string) bool {
	for k := range quotes {
		if strings.EqualFold(k, sym) {
			return true
		}
	}
	return false
}
