package service

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// evmBuy buys a demo token on one chain with the demo EVM wallets and waits
// until the order is confirmed. Right after a start the chain's worker may
// not be announced yet (CHAIN_UNAVAILABLE, nothing charged): the buy is
// asked again until a deadline.
func evmBuy(t *testing.T, cfg config.Config, key, chain, token string) {
	t.Helper()
	evm := "http://" + cfg.Listen.EVM
	var r reply
	// The last answer is judged below whether or not the chain came up.
	poll.True(10*time.Second, func() bool {
		r = do(t, "POST", evm+"/api/v1/swap", key, map[string]any{
			"address": token, "side": "Buy", "amount": "0.01", "chain": strings.ToUpper(chain), "slippage": 5})
		return r.code() != "CHAIN_UNAVAILABLE"
	})
	var d swapData
	_ = json.Unmarshal(r.Body.Data, &d)
	if r.Status != 200 || len(d.Signatures) != 2 {
		t.Fatalf("%s buy: %d %s", chain, r.Status, r.Raw)
	}
	waitOrder(t, evm, key, d.OrderID, "confirmed")
}

// TestUpRestartKeepsEVMState stops the service and starts it again on the
// same data folder: the local EVM chains come back from the folder, so the
// demo token created at the first start still trades and the demo wallets,
// funded at the first start and with nonces the first run moved, can buy
// it again.
func TestUpRestartKeepsEVMState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const chain = "base"
	var key, token string
	var cfg config.Config
	t.Run("first start", func(t *testing.T) {
		u, c := startUp(t, func(c *config.Config) {
			c.DataDir = dir
			// What is tested is the state kept, not the pace: a first
			// EVM order of a loaded machine under the race detector may
			// take longer than the tests' usual 3 s.
			c.Pipeline.RequestTimeout = 15 * time.Second
		})
		cfg, key = c, u.Demo.EVMKey
		for _, tk := range u.Demo.Tokens {
			if tk.Chain == chain && tk.Venue == "v2" {
				token = tk.Address
			}
		}
		if key == "" || token == "" {
			t.Fatalf("no demo EVM key or %s token: %+v", chain, u.Demo.Tokens)
		}
		evmBuy(t, c, key, chain, token)
	}) // its cleanup stops the service
	if _, err := os.Stat(filepath.Join(dir, "devnet", "evm", chain)); err != nil {
		t.Fatalf("the %s chain left no folder: %v", chain, err)
	}

	u, c := startUp(t, func(c *config.Config) { *c = cfg; c.DataDir = dir })
	if u.Demo != nil && u.Demo.EVMKey != "" {
		t.Fatal("a second demo account was made")
	}
	evmBuy(t, c, key, chain, token)
}
