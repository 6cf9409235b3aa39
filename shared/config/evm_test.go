package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEVMVenueKeysDecode reads the official V3 contracts, the tip
// address and the genesis hash of a chain from the production file, as the
// signer and the checks take them.
func TestEVMVenueKeysDecode(t *testing.T) {
	cfg, err := Load(filepath.Join("testdata", "production.good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	eth := cfg.EVM.Chains["eth"]
	for key, got := range map[string]string{
		"v3_factory":    eth.V3Factory,
		"swap_router02": eth.SwapRouter02,
		"quoter_v2":     eth.QuoterV2,
		"tip_address":   eth.TipAddress,
		"relay_url":     eth.RelayURL,
		"genesis_hash":  eth.GenesisHash,
	} {
		want := map[string]string{
			"v3_factory":    "0x1F98431c8aD98523631AE4a59f267346ea31F984",
			"swap_router02": "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45",
			"quoter_v2":     "0x61fFE014bA17989E743c5F6cB21bF9697530B21e",
			"tip_address":   "0x4838B106FCe9647Bdf1E7877BF73cE8B0BAD5f97",
			"relay_url":     "https://relay.example/eth",
			"genesis_hash":  "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3",
		}[key]
		if got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if cfg.EVM.GasRefresh != DefaultEVMSigner().GasRefresh || cfg.EVM.GasRefresh <= 0 {
		t.Errorf("gas refresh %v, want the default %v", cfg.EVM.GasRefresh, DefaultEVMSigner().GasRefresh)
	}
}

// TestEVMChainValidate checks each venue key of a chain, and that a tip
// address needs the relay its bundles go to.
func TestEVMChainValidate(t *testing.T) {
	good := func() EVMChain {
		return EVMChain{RPCURL: "https://base.example", RelayURL: "https://relay.example", ChainID: 8453,
			Router: "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24", Factory: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
			V3Factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD", SwapRouter02: "0x2626664c2603336E57B271c5C0b26F421741e481",
			QuoterV2: "0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a", WrappedNative: "0x4200000000000000000000000000000000000006",
			Quotes: map[string]string{"USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}}
	}
	tests := []struct {
		name   string
		change func(*EVMChain)
		want   string // "" valid
	}{
		{"valid without a tip address", func(*EVMChain) {}, ""},
		{"valid with a tip address and a relay", func(c *EVMChain) { c.TipAddress = "0x4838B106FCe9647Bdf1E7877BF73cE8B0BAD5f97" }, ""},
		{"v3 factory missing", func(c *EVMChain) { c.V3Factory = "" }, "evm.chains.base.v3_factory: \"\" is not an address"},
		{"swap router not an address", func(c *EVMChain) { c.SwapRouter02 = "0x12" }, "evm.chains.base.swap_router02: \"0x12\" is not an address"},
		{"quoter missing", func(c *EVMChain) { c.QuoterV2 = "" }, "evm.chains.base.quoter_v2"},
		{"tip address not an address", func(c *EVMChain) { c.TipAddress = "builder" }, "evm.chains.base.tip_address: \"builder\" is not an address"},
		{"tip address zero", func(c *EVMChain) { c.TipAddress = "0x0000000000000000000000000000000000000000" }, "evm.chains.base.tip_address"},
		{"router at the zero address", func(c *EVMChain) { c.Router = "0x0000000000000000000000000000000000000000" }, "evm.chains.base.router: 0x0000000000000000000000000000000000000000 is the zero address"},
		{"no quotes", func(c *EVMChain) { c.Quotes = map[string]string{} }, "evm.chains.base.quotes.USDC: missing; base trades against USDC, which needs its token"},
		{"quote at the zero address", func(c *EVMChain) { c.Quotes["USDC"] = "0x0000000000000000000000000000000000000000" }, "evm.chains.base.quotes.USDC: 0x0000000000000000000000000000000000000000 is the zero address"},
		{"quote named twice", func(c *EVMChain) { c.Quotes["usdc"] = c.Quotes["USDC"] }, "evm.chains.base.quotes.usdc: evm.chains.base.quotes.USDC names the same asset"},
		{"a quote at the wrapped native token", func(c *EVMChain) { c.Quotes["USDC"] = "0x4200000000000000000000000000000000000006" },
			"evm.chains.base.quotes.USDC: 0x4200000000000000000000000000000000000006 is evm.chains.base.wrapped_native's token too"},
		{"lower-case quote", func(c *EVMChain) { c.Quotes = map[string]string{"usdc": c.Quotes["USDC"]} }, ""},
		{"no wrapped native", func(c *EVMChain) { c.WrappedNative = "" }, "evm.chains.base.wrapped_native: empty"},
		{"a native token where the coin has none", func(c *EVMChain) { c.NativeToken = "0x3600000000000000000000000000000000000000" }, "evm.chains.base.native_token: set on base"},
		{"a native token not an address", func(c *EVMChain) { c.NativeToken = "usdc" }, "evm.chains.base.native_token: \"usdc\" is not an address"},
		{"valid with a genesis hash", func(c *EVMChain) { c.GenesisHash = baseGenesis }, ""},
		{"valid with a genesis hash in capitals", func(c *EVMChain) { c.GenesisHash = "0x" + strings.ToUpper(baseGenesis[2:]) }, ""},
		{"genesis hash too short", func(c *EVMChain) { c.GenesisHash = baseGenesis[:65] },
			"evm.chains.base.genesis_hash: \"" + baseGenesis[:65] + "\" is not 0x and the 64 hex digits of a block hash"},
		{"genesis hash without 0x", func(c *EVMChain) { c.GenesisHash = baseGenesis[2:] + "00" }, "evm.chains.base.genesis_hash"},
		{"genesis hash not hex", func(c *EVMChain) { c.GenesisHash = "0x" + strings.Repeat("g", 64) }, "evm.chains.base.genesis_hash"},
		{"genesis hash zero", func(c *EVMChain) { c.GenesisHash = "0x" + strings.Repeat("0", 64) }, "evm.chains.base.genesis_hash"},
		{"genesis hash in base58", func(c *EVMChain) { c.GenesisHash = MainnetGenesisHash }, "evm.chains.base.genesis_hash"},
		{"valid with confirmations", func(c *EVMChain) { c.Confirmations = 64 }, ""},
		{"too many confirmations", func(c *EVMChain) { c.Confirmations = 65 }, "evm.chains.base.confirmations: 65 is more than 64 blocks"},
		{"tip address without a relay", func(c *EVMChain) {
			c.TipAddress = "0x4838B106FCe9647Bdf1E7877BF73cE8B0BAD5f97"
			c.RelayURL = ""
		}, "evm.chains.base.tip_address: a tip is paid in a bundle sent to the relay, and relay_url is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := DefaultEVM()
			c := good()
			tt.change(&c)
			e.Chains = map[string]EVMChain{"base": c}
			err := e.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate: %v, want an error naming %q", err, tt.want)
			}
		})
	}
}

// TestEVMTokensAndChainIDsOnce: two assets of a chain given one token
// (quotes.USDT at USDC's address), or two chains given one chain_id, are
// refused in one line naming the key (both were taken).
func TestEVMTokensAndChainIDsOnce(t *testing.T) {
	eth := func() EVMChain {
		return EVMChain{RPCURL: "https://eth.example", ChainID: 1, Router: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
			Factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f", V3Factory: "0x1F98431c8aD98523631AE4a59f267346ea31F984",
			SwapRouter02: "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45", QuoterV2: "0x61fFE014bA17989E743c5F6cB21bF9697530B21e",
			WrappedNative: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
			Quotes:        map[string]string{"USDC": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7"}}
	}
	e := DefaultEVM()
	e.Chains = map[string]EVMChain{"eth": eth()}
	if err := e.Validate(); err != nil {
		t.Fatalf("a good chain: %v", err)
	}
	c := eth()
	c.Quotes["USDT"] = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" // USDC's, in another case
	e.Chains = map[string]EVMChain{"eth": c}
	want := "evm.chains.eth.quotes.USDT: 0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 is evm.chains.eth.quotes.USDC's token too; each asset has its own"
	if err := e.Validate(); err == nil || err.Error() != want {
		t.Fatalf("one token for two assets: %v, want %s", err, want)
	}
	base := eth()
	base.Quotes = map[string]string{"USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}
	base.WrappedNative = "0x4200000000000000000000000000000000000006"
	e.Chains = map[string]EVMChain{"eth": eth(), "base": base}
	want = "evm.chains.eth.chain_id: 1 is evm.chains.base's too; each chain has its own"
	if err := e.Validate(); err == nil || err.Error() != want {
		t.Fatalf("one chain id for two chains: %v, want %s", err, want)
	}
	base.ChainID = 8453
	e.Chains = map[string]EVMChain{"eth": eth(), "base": base}
	if err := e.Validate(); err != nil {
		t.Fatalf("two chains: %v", err)
	}
}

// baseGenesis is the hash of Base mainnet's block 0.
const baseGenesis = "0xf712aa9241cc24369b143cf6dce85f0902a9731e70d66818a3a5845b296c73dd"

// TestTakesTips: a configured chain takes a tip where it has a tip
// address; an unconfigured one only when the local chains serve it.
func TestTakesTips(t *testing.T) {
	e := DefaultEVM()
	e.Chains = map[string]EVMChain{"eth": {TipAddress: "0x4838B106FCe9647Bdf1E7877BF73cE8B0BAD5f97"}, "base": {}}
	tests := []struct {
		chain string
		local bool
		want  bool
	}{
		{"eth", false, true},
		{"ETH", false, true},
		{"base", true, false},
		{"bsc", true, true},
		{"bsc", false, false},
		{"solana", true, false},
	}
	for _, tt := range tests {
		if got := e.TakesTips(tt.chain, tt.local); got != tt.want {
			t.Errorf("TakesTips(%q, local %v) = %v, want %v", tt.chain, tt.local, got, tt.want)
		}
	}
}

// TestArcNeedsItsNativeToken: arc's native coin trades through its own
// ERC-20, which its configuration must name; a wrapped native token is not
// needed there.
func TestArcNeedsItsNativeToken(t *testing.T) {
	arc := EVMChain{RPCURL: "https://arc.example", ChainID: 5042, Router: "0x1f7d7550b1b028f7571e69a784071f0205fd2efa",
		Factory: "0x89e5db8b5aa49aa85ac63f691524311aeb649eba", V3Factory: "0xf0db7b58379503491d857db50ac9ece64c653918",
		SwapRouter02: "0x53bf6b0684ec7ef91e1387da3d1a1769bc5a6f77", QuoterV2: "0x7dfd4f31be6814d2906bde155c3e1b146eac1468"}
	e := DefaultEVM()
	e.Chains = map[string]EVMChain{"arc": arc}
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "evm.chains.arc.native_token: empty") {
		t.Fatalf("arc without native_token: %v", err)
	}
	arc.NativeToken = "0x3600000000000000000000000000000000000000"
	e.Chains = map[string]EVMChain{"arc": arc}
	if err := e.Validate(); err != nil {
		t.Fatalf("arc with its native token and no wrapped native: %v", err)
	}
}
