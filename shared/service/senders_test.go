package service

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
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
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")
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

// TestVenueProbePayerFromConfig: the Solana venue checks simulate their
// trades paid by solana.venue_probe_payer when it is set, by a throwaway
// key of the local chain's faucet when the local chain serves Solana, and
// say so at start.
func TestVenueProbePayerFromConfig(t *testing.T) {
	t.Parallel()
	payer := sol.NewWallet().PublicKey()
	logged := &logtest.Buffer{}
	u, _ := startUpLog(t, func(c *config.Config) { c.Solana.VenueProbePayer = payer },
		slog.New(slog.NewTextHandler(logged, nil)))
	if got := u.solanaChecker().Payer(); got != payer {
		t.Fatalf("the checks are paid by %s, want the configured %s", got, payer)
	}
	poll.Until(t, 5*time.Second, "the start says who pays the venue checks", func() bool {
		return strings.Contains(logged.String(), "payer="+payer.String())
	})
	local := NewUp(config.Default(), slog.New(slog.DiscardHandler), io.Discard)
	if p := local.solanaChecker().Payer(); p.IsZero() || p == payer {
		t.Fatalf("on the local chain without the key the checks are paid by %s", p)
	}
}
