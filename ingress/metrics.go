package ingress

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/metrics"
)

// routeMetrics caches the metric children of one listener, so that a
// request does not hash its label values again.
type routeMetrics struct {
	listener string
	mu       sync.RWMutex
	counters map[routeCode]prometheus.Counter
	hists    map[string]prometheus.Observer
}

type routeCode struct {
	route string
	code  int
}

func newRouteMetrics(listener string) *routeMetrics {
	return &routeMetrics{listener: listener, counters: map[routeCode]prometheus.Counter{},
		hists: map[string]prometheus.Observer{}}
}

func (m *routeMetrics) observe(route string, code int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	k := routeCode{route, code}
	m.mu.RLock()
	c, okc := m.counters[k]
	h, okh := m.hists[route]
	m.mu.RUnlock()
	if !okc || !okh {
		m.mu.Lock()
		if c, okc = m.counters[k]; !okc {
			c = metrics.HTTPRequests.WithLabelValues(m.listener, route, strconv.Itoa(code))
			m.counters[k] = c
		}
		if h, okh = m.hists[route]; !okh {
			h = metrics.HTTPDuration.WithLabelValues(m.listener, route)
			m.hists[route] = h
		}
		m.mu.Unlock()
	}
	c.Inc()
	h.Observe(d.Seconds())
}
