package evm

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/config"
)

func TestChainConfigValidate(t *testing.T) {
	a := func(s string) common.Address { return common.HexToAddress(s) }
	good := func() ChainConfig {
		return ChainConfig{Name: "eth", ChainID: big.NewInt(1), Router: a("0x1"), Factory: a("0x2"), WrappedNative: a("0x3"),
			V3Factory: a("0x7"), SwapRouter02: a("0x8"), QuoterV2: a("0x9"),
			Quotes: map[string]common.Address{"USDC": a("0x4"), "USDT": a("0x5")}, USDPricing: USDPricing{Stable: "USDC"}}
	}
	tests := []struct {
		name   string
		change func(*ChainConfig)
		want   string // "" valid
	}{
		{"valid", func(*ChainConfig) {}, ""},
		{"arc has no stable quotes", func(c *ChainConfig) {
			*c = ChainConfig{Name: "arc", ChainID: big.NewInt(5042002), Router: a("0x1"), Factory: a("0x2"), WrappedNative: a("0x3"),
				NativeToken: a("0x4"), V3Factory: a("0x7"), SwapRouter02: a("0x8"), QuoterV2: a("0x9"), USDPricing: USDPricing{NativeIsUSD: true}}
		}, ""},
		{"arc's native coin through its own token, no wrapper", func(c *ChainConfig) {
			*c = ChainConfig{Name: "arc", ChainID: big.NewInt(5042), Router: a("0x1"), Factory: a("0x2"), NativeToken: a("0x3600000000000000000000000000000000000000"),
				V3Factory: a("0x7"), SwapRouter02: a("0x8"), QuoterV2: a("0x9"), USDPricing: USDPricing{NativeIsUSD: true}}
		}, ""},
		{"no wrapper", func(c *ChainConfig) { c.WrappedNative = common.Address{} }, "wrapped_native: empty"},
		{"a native token on a chain whose coin has none", func(c *ChainConfig) { c.NativeToken = a("0x3") }, "native_token: set on eth"},
		{"arc without its native token", func(c *ChainConfig) {
			*c = ChainConfig{Name: "arc", ChainID: big.NewInt(5042002), Router: a("0x1"), Factory: a("0x2"), WrappedNative: a("0x3"),
				V3Factory: a("0x7"), SwapRouter02: a("0x8"), QuoterV2: a("0x9"), USDPricing: USDPricing{NativeIsUSD: true}}
		}, "native_token: empty"},
		{"unknown chain", func(c *ChainConfig) { c.Name = "solana" }, "unknown"},
		{"no chain id", func(c *ChainConfig) { c.ChainID = nil }, "chain id"},
		{"no router", func(c *ChainConfig) { c.Router = common.Address{} }, "router"},
		{"no v3 factory", func(c *ChainConfig) { c.V3Factory = common.Address{} }, "v3 factory address missing"},
		{"no swap router", func(c *ChainConfig) { c.SwapRouter02 = common.Address{} }, "swap router02 address missing"},
		{"no quoter", func(c *ChainConfig) { c.QuoterV2 = common.Address{} }, "quoter v2 address missing"},
		{"a tip address is optional", func(c *ChainConfig) { c.TipAddress = common.Address{} }, ""},
		{"a quote asset without a token", func(c *ChainConfig) { delete(c.Quotes, "USDT") }, "USDT"},
		{"a quote asset the chain does not have", func(c *ChainConfig) { c.Quotes["USDG"] = a("0x6") }, "USDG"},
		{"pricing through a missing stable", func(c *ChainConfig) { c.USDPricing.Stable = "DAI" }, "DAI"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			tt.change(&c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate: %v, want an error naming %q", err, tt.want)
			}
		})
	}
}

// TestChainFromConfig reads the configuration file's chains into the
// signer's ChainConfig; errors name the file's keys.
func TestChainFromConfig(t *testing.T) {
	good := func() config.EVMChain {
		return config.EVMChain{RPCURL: "https://eth.example", ChainID: 1, Router: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
			Factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f", WrappedNative: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
			V3Factory: "0x1F98431c8aD98523631AE4a59f267346ea31F984", SwapRouter02: "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45",
			QuoterV2: "0x61fFE014bA17989E743c5F6cB21bF9697530B21e", TipAddress: "0x4838B106FCe9647Bdf1E7877BF73cE8B0BAD5f97",
			Quotes: map[string]string{"usdc": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7"}}
	}
	tests := []struct {
		name   string
		chain  string
		change func(*config.EVMChain)
		want   string // "" valid
	}{
		{"valid, quotes in any case, pricing by the first stable", "eth", func(*config.EVMChain) {}, ""},
		{"bad router", "eth", func(c *config.EVMChain) { c.Router = "router" }, "evm.chains.eth.router"},
		{"bad v3 factory", "eth", func(c *config.EVMChain) { c.V3Factory = "" }, "evm.chains.eth.v3_factory"},
		{"bad swap router", "eth", func(c *config.EVMChain) { c.SwapRouter02 = "0x1" }, "evm.chains.eth.swap_router02"},
		{"bad quoter", "eth", func(c *config.EVMChain) { c.QuoterV2 = "quoter" }, "evm.chains.eth.quoter_v2"},
		{"bad tip address", "eth", func(c *config.EVMChain) { c.TipAddress = "builder" }, "evm.chains.eth.tip_address"},
		{"bad quote", "eth", func(c *config.EVMChain) { c.Quotes["USDT"] = "0x12" }, "evm.chains.eth.quotes.USDT"},
		{"missing quote asset", "eth", func(c *config.EVMChain) { delete(c.Quotes, "USDT") }, "USDT"},
		{"no chain id", "eth", func(c *config.EVMChain) { c.ChainID = 0 }, "chain id"},
		{"no wrapper and no native token", "eth", func(c *config.EVMChain) { c.WrappedNative = "" }, "evm.chains.eth.wrapped_native"},
		{"bad native token", "eth", func(c *config.EVMChain) { c.NativeToken = "usdc" }, "evm.chains.eth.native_token"},
		{"bad min priority fee", "eth", func(c *config.EVMChain) { c.MinPriorityFee = "1 gwei" }, "evm.chains.eth.min_priority_fee"},
		{"bad auto processor tip", "eth", func(c *config.EVMChain) { c.AutoProcessorTip = "-1" }, "evm.chains.eth.auto_processor_tip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			tt.change(&c)
			got, err := ChainFromConfig(tt.chain, c)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want it to name %s", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "eth" || got.ChainID.Int64() != 1 || got.Router != common.HexToAddress(c.Router) ||
				got.V3Factory != common.HexToAddress(c.V3Factory) || got.SwapRouter02 != common.HexToAddress(c.SwapRouter02) ||
				got.QuoterV2 != common.HexToAddress(c.QuoterV2) || got.TipAddress != common.HexToAddress(c.TipAddress) ||
				got.Quotes["USDC"] != common.HexToAddress(c.Quotes["usdc"]) || got.USDPricing != (USDPricing{Stable: "USDC"}) {
				t.Fatalf("chain config %+v", got)
			}
			if got.MinTipCap != nil || got.AutoProcessorTip != nil {
				t.Fatalf("fee keys not set read as %v and %v, want the defaults (nil)", got.MinTipCap, got.AutoProcessorTip)
			}
			c.MinPriorityFee, c.AutoProcessorTip = "0.005", "1e-3"
			if got, err = ChainFromConfig(tt.chain, c); err != nil || got.MinTipCap.Int64() != 5_000_000 || got.AutoProcessorTip.Int64() != 1e15 {
				t.Fatalf("min_priority_fee 0.005 gwei and auto_processor_tip 1e-3: %v, %v, %v", got.MinTipCap, got.AutoProcessorTip, err)
			}
		})
	}
}

func TestPricingOf(t *testing.T) {
	tests := []struct {
		chain, stable string
		want          USDPricing
	}{
		{"arc", "", USDPricing{NativeIsUSD: true}},
		{"arc", "USDC", USDPricing{NativeIsUSD: true}},
		{"eth", "", USDPricing{Stable: "USDC"}},
		{"eth", "USDT", USDPricing{Stable: "USDT"}},
		{"bsc", "", USDPricing{Stable: "USD1"}},
		{"rbh", "", USDPricing{Stable: "USDG"}},
	}
	for _, tt := range tests {
		if got := PricingOf(tt.chain, tt.stable); got != tt.want {
			t.Errorf("PricingOf(%s, %q) = %+v, want %+v", tt.chain, tt.stable, got, tt.want)
		}
	}
}

// TestChainFromConfigNativeToken: arc has no wrapped native token; its
// native coin trades through its own ERC-20 interface, native_token, which
// is the native quote of its pools.
func TestChainFromConfigNativeToken(t *testing.T) {
	usdc := "0x3600000000000000000000000000000000000000"
	got, err := ChainFromConfig("arc", config.EVMChain{RPCURL: "https://arc.example", ChainID: 5042,
		Router: "0x1f7d7550b1b028f7571e69a784071f0205fd2efa", Factory: "0x89e5db8b5aa49aa85ac63f691524311aeb649eba",
		V3Factory: "0xf0db7b58379503491d857db50ac9ece64c653918", SwapRouter02: "0x53bf6b0684ec7ef91e1387da3d1a1769bc5a6f77",
		QuoterV2: "0x7dfd4f31be6814d2906bde155c3e1b146eac1468", NativeToken: usdc})
	if err != nil {
		t.Fatal(err)
	}
	if got.WrappedNative != (common.Address{}) || got.NativeToken != common.HexToAddress(usdc) || got.NativeQuote() != got.NativeToken {
		t.Fatalf("wrapped %s, native token %s, native quote %s", got.WrappedNative, got.NativeToken, got.NativeQuote())
	}
	if !got.USDPricing.NativeIsUSD {
		t.Fatal("arc's native coin is not priced as a dollar")
	}
}
