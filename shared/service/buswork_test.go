package service

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestBusWorkPerBuy pins what a one-wallet buy costs JetStream once the
// pipeline has settled it, counted in stream sequences rather than timed:
// a write that comes back (a second record of the signed batch, the trade
// key on a repeat buy, anything new on the order path) fails here.
func TestBusWorkPerBuy(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	eu, key := "http://"+cfg.Listen.SolEU, u.Demo.SolKey
	var mint, wallet string
	for _, tk := range u.Demo.Tokens {
		if tk.Chain == wire.ChainSolana && tk.Venue == "pump_fun" {
			mint = tk.Address
		}
	}
	for _, w := range u.Demo.Wallets {
		if w.Family == wire.FamilySol {
			wallet = w.Address
			break
		}
	}
	if mint == "" || wallet == "" {
		t.Fatalf("no demo coin or wallet in %+v", u.Demo)
	}
	_, js, err := u.connect("core")
	if err != nil {
		t.Fatal(err)
	}
	buy := func() {
		t.Helper()
		r := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": mint, "side": "Buy", "amount": "0.0001",
			"slippage": 50, "wallets": []map[string]string{{"address": wallet}}})
		var d swapData
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &d) != nil {
			t.Fatalf("buy %d %s", r.Status, r.Raw)
		}
		waitOrder(t, eu, key, d.OrderID, "confirmed")
	}
	// Settled: the tracker has let go of every order, its last write.
	settled := func() {
		t.Helper()
		poll.Until(t, 10*time.Second, "every order settled", func() bool {
			l, err := u.buckets.Tracking.ListKeys(context.Background())
			if errors.Is(err, jetstream.ErrNoKeysFound) {
				return true
			}
			if err != nil {
				return false
			}
			n := 0
			for range l.Keys() {
				n++
			}
			return n == 0
		})
	}
	writes := func() map[string]uint64 {
		t.Helper()
		out := map[string]uint64{}
		streams := js.ListStreams(context.Background())
		for si := range streams.Info() {
			out[si.Config.Name] = si.State.LastSeq
		}
		if err := streams.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}

	// The first buy of the coin records the trade key; the next ones are
	// what a bot buying it again costs.
	buy()
	settled()
	before := writes()
	const n = 5
	for range n {
		buy()
	}
	settled()
	after := writes()

	want := map[string]uint64{
		bus.StreamOrders: 1, bus.StreamTxs: 1, bus.StreamEvents: 2, // the job, the signed batch, broadcast and confirmed
		"KV_" + bus.BucketBudget:   1, // the charge
		"KV_" + bus.BucketOrders:   3, // pending, broadcast, confirmed
		"KV_" + bus.BucketTracking: 2, // tracked, let go
		// The transaction's claim against another worker process
		// signing the same bytes for another order.
		"KV_" + bus.BucketSignatures: 1,
	}
	for name, last := range after {
		got := last - before[name]
		if name == "KV_"+bus.BucketOrders && got < n*want[name] && got >= n*(want[name]-1) {
			// The pending record is created beside the job; when the
			// broadcaster's record is first, the create writes nothing.
			continue
		}
		if got != n*want[name] {
			t.Errorf("%s: %d writes for %d buys, want %d", name, got, n, n*want[name])
		}
	}
	if t.Failed() {
		t.Logf("writes before %v, after %v", before, after)
	}
}
