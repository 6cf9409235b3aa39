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
				USDPricing: USDPricing{NativeIsUSD: true}}
		}, ""},
		{"unknown chain", func(c *ChainConfig) { c.Name = "solana" }, "unknown"},
		{"no chain id", func(c *ChainConfig) { c.ChainID = nil }, "chain id"},
		{"no router", func(c *ChainConfig) { c.Router = common.Address{} }, "router"},
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
		{"bad quote", "eth", func(c *config.EVMChain) { c.Quotes["USDT"] = "0x12" }, "evm.chains.eth.quotes.USDT"},
		{"missing quote asset", "eth", func(c *config.EVMChain) { delete(c.Quotes, "USDT") }, "USDT"},
		{"no chain id", "eth", func(c *config.EVMChain) { c.ChainID = 0 }, "chain id"},
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
				got.Quotes["USDC"] != common.HexToAddress(c.Quotes["usdc"]) || got.USDPricing != (USDPricing{Stable: "USDC"}) {
				t.Fatalf("chain config %+v", got)
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
