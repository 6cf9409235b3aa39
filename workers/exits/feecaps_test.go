package exits

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestExitSellCarriesFeeCaps: an exit's sell carries its account's fee
// caps to the worker, which bounds the fees it picks by them; without
// them the worker took the widest defaults (an EVM exit paid a priority
// fee a hundred times the account's cap).
func TestExitSellCarriesFeeCaps(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) {
		c.FeeCaps = func(account string, f wire.Family) registry.FeeCaps {
			if account == "acc1" && f == wire.FamilySol {
				return registry.FeeCaps{MaxPriorityFee: "0.00001", MaxProcessorTip: "0.0002", MaxJitoTip: "0.01"}
			}
			return registry.DefaultFeeCaps(f)
		}
	})
	m := fireStopLoss(t, b, e, "eu-Caps")
	var job wire.SwapJob
	if err := json.Unmarshal(m.Data, &job); err != nil {
		t.Fatal(err)
	}
	if job.Side != wire.Sell || job.FeeCaps == nil || job.FeeCaps.MaxPriorityFee != "10000" || job.FeeCaps.MaxProcessorTip != "200000" {
		t.Fatalf("exit sell %s %s, caps %+v: want the account's, 10000 and 200000 lamports", job.OrderID, job.Side, job.FeeCaps)
	}
}

// TestExitSellSaysItsNetwork: an exit's sell says which network the engine
// serves its chain on, so that a worker on the other one (an engine left
// on the local chains beside production workers, reading the test
// doubles' prices) hands it back unsigned.
func TestExitSellSaysItsNetwork(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, func(c *Config) { c.Network = func(string) string { return wire.NetworkLocal } })
	m := fireStopLoss(t, b, e, "eu-Net")
	if got := m.Header.Get(bus.HeaderNetwork); got != wire.NetworkLocal {
		t.Fatalf("exit sell's network %q, want %q", got, wire.NetworkLocal)
	}
}

// fireStopLoss opens a Solana position with a stop loss under order id,
// has its price fall through it, and returns the sell's job as the orders
// stream holds it.
func fireStopLoss(t *testing.T, b *bustest.Bus, e *Engine, id string) *jetstream.RawStreamMsg {
	t.Helper()
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	p := openTestPosition(t, e, id, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	e.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.001"), At: time.Now()})
	s, err := b.JS.Stream(ctx, bus.StreamOrders)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(ctx, bus.OrdersSubject(wire.ChainSolana))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
