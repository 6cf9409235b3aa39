package evm

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
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
