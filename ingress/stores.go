package ingress

import "github.com/tradeapi/tradeapi/shared/metrics"

// storeNames are the stores named in the OVERLOADED answers of unavailable,
// by their label in metrics.StoreFailures.
var storeNames = map[string]string{
	"the rate budget":       metrics.StoreBudget,
	"the idempotency store": metrics.StoreIdempotency,
	"the order store":       metrics.StoreOrders,
	"the trade history":     metrics.StoreTrades,
}

// stores are the values of metrics.StoreFailures' store label.
var stores = []string{metrics.StoreBudget, metrics.StoreIdempotency, metrics.StoreOrders, metrics.StoreTrades}

// countStoreFailure counts a request answered OVERLOADED because the store
// named what did not answer in time.
func countStoreFailure(what string) {
	if s, ok := storeNames[what]; ok {
		metrics.StoreFailures.WithLabelValues(s).Inc()
	}
}
