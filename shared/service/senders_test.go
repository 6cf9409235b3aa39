package service

import (
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestSolanaSendersFromConfig configures a second landing sender (the
// local chain's own endpoints under another name): a buy's transaction
// goes to it too, with the same signed bytes (the chain answers that it
// has it), and its sends are counted under its name.
func TestSolanaSendersFromConfig(t *testing.T) {
	u, cfg := startUp(t, func(c *config.Config) {
		c.Solana.Senders = []config.SolanaSender{{Name: "devnet-copy",
			TransactionsURL: "http://" + c.Devnet.Addr + "/solana", BundlesURL: "http://" + c.Devnet.Addr + "/solana/bundles"}}
	})
	var mint string
	for _, tk := range u.Demo.Tokens {
		if tk.Chain == "solana" && tk.Venue == "pump_fun" {
			mint = tk.Address
		}
	}
	r := do(t, "POST", "http://"+cfg.Listen.SolEU+"/api/v1/swap", u.Demo.SolKey,
		map[string]any{"address": mint, "side": "Buy", "amount": "0.01", "slippage": 10, "wallets": []any{map[string]any{"address": u.Demo.Wallets[0].Address}}})
	if r.Status != 200 {
		t.Fatalf("buy %d %s", r.Status, r.Raw)
	}
	want := `tradeapi_sender_sends_total{chain="solana",outcome="accepted",sender="devnet-copy"}`
	poll.Until(t, 10*time.Second, "the configured sender takes the buy's transaction", func() bool {
		return strings.Contains(metricsText(t, u), want)
	})
}
