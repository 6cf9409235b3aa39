package broadcaster

import (
	"context"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// nothingChain is a chain no test sends to.
type nothingChain struct{ Chain }

// TestFinalOutcomesExistFromTheStart: each chain's transaction outcomes
// and landing times exist at 0 once its broadcaster runs, so that the
// first expiries or drops of an outage count in rate() and increase(),
// which take a series' first sample for its start.
func TestFinalOutcomesExistFromTheStart(t *testing.T) {
	const chain = "series-test-chain" // a chain no other test names
	p := newPipeline(t)
	p.start(t, Config{Poll: time.Hour}, map[string]Chain{chain: nothingChain{}})
	poll.Until(t, 5*time.Second, "the series at 0", func() bool {
		mfs, err := metrics.Registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"tradeapi_transactions_total": 12, "tradeapi_landing_duration_seconds": 2}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "chain" && l.GetValue() == chain {
						want[mf.GetName()]--
					}
				}
			}
		}
		return want["tradeapi_transactions_total"] == 0 && want["tradeapi_landing_duration_seconds"] == 0
	})
	// Stopped only once it consumes: a stop while it starts is an error.
	poll.Until(t, 10*time.Second, "the broadcaster consuming", func() bool {
		_, err := p.bus.JS.Consumer(context.Background(), bus.StreamTxs, bus.BroadcasterConsumer)
		return err == nil
	})
}
