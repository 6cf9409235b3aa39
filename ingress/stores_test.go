package ingress

import (
	"context"
	"errors"
	"testing"
	"time"

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
