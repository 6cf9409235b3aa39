package ingress

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// brokenBudget is a rate budget whose bucket does not answer.
type brokenBudget struct{ Budget }

func (brokenBudget) Peek(_ string, _ wire.Family, lim budget.Limits) budget.State {
	return budget.StateFor(lim, time.Now())
}

func (brokenBudget) Charge(context.Context, string, wire.Family, budget.Limits) (budget.State, error) {
	return budget.State{}, errors.New("budget bucket: context deadline exceeded")
}

// TestStoreFailuresCounted: an order answered 503 OVERLOADED because the
// rate budget's store failed is counted under its store, which load
// shedding is not; every store's series exists from the start.
func TestStoreFailuresCounted(t *testing.T) {
	value := func(store string) float64 {
		var m dto.Metric
		_ = metrics.StoreFailures.WithLabelValues(store).Write(&m)
		return m.GetCounter().GetValue()
	}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(brokenBudget{}))
	for _, s := range stores {
		found := false
		mfs, _ := metrics.Registry.Gather()
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				found = found || mf.GetName() == "tradeapi_store_failures_total" && m.GetLabel()[0].GetValue() == s
			}
		}
		if !found {
			t.Errorf("no tradeapi_store_failures_total{store=%q} before the first failure", s)
		}
	}
	before := value(metrics.StoreBudget)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"slippage":10`))
	if a.status != 503 || a.code() != "OVERLOADED" {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	if got := value(metrics.StoreBudget) - before; got != 1 {
		t.Fatalf("budget store failures +%v, want +1", got)
	}
}

// silentOrders is an orders bucket whose reads are not answered in time.
type silentOrders struct{ jetstream.KeyValue }

func (silentOrders) Get(context.Context, string) (jetstream.KeyValueEntry, error) {
	return nil, context.DeadlineExceeded
}

// TestLookupWhileTheOrderStoreIsAway: an order lookup the store does not
// answer is 503, counted under the order store, and its message does not
// say nothing was traded (it said so, as a refused swap's does, and the
// order looked up may well have traded: a bot taking the words could send
// it again).
func TestLookupWhileTheOrderStoreIsAway(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{}, withOrders(func(kv jetstream.KeyValue) jetstream.KeyValue { return silentOrders{kv} }))
	before := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreOrders))
	a := call(t, "GET", h.eu.URL+"/api/v1/orders/eu-someorder", solKey, "", "")
	msg, _ := a.body["error"].(map[string]any)["message"].(string)
	if a.status != 503 || a.code() != "OVERLOADED" || strings.Contains(msg, "nothing was traded") || !strings.Contains(msg, "may have traded") {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	if d := counterOf(t, metrics.StoreFailures.WithLabelValues(metrics.StoreOrders)) - before; d != 1 {
		t.Fatalf("order store failures +%v, want +1", d)
	}
}
