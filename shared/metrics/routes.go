package metrics

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Routes counts and times the requests of one listener by route template
// and status code (HTTPRequests, HTTPReplays, HTTPDuration), keeping the
// metric children so that a request does not hash its label values again.
type Routes struct {
	listener string
	mu       sync.RWMutex
	counters map[routeCode]prometheus.Counter
	hists    map[string]prometheus.Observer
}

type routeCode struct {
	route    string
	code     int
	replayed bool
}

// NewRoutes returns the request metrics of the listener named listener.
func NewRoutes(listener string) *Routes {
	return &Routes{listener: listener, counters: map[routeCode]prometheus.Counter{},
		hists: map[string]prometheus.Observer{}}
}

// Zero creates the request counters of routes for codes at 0, and those
// of their replayed answers.
func (m *Routes) Zero(routes []string, codes []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, route := range routes {
		for _, code := range codes {
			for _, replayed := range []bool{false, true} {
				k := routeCode{route, code, replayed}
				c := m.counterLocked(k)
				c.Add(0)
				m.counters[k] = c
			}
		}
	}
}

// counterLocked is the counter of k: a replayed answer is counted apart,
// so that a client repeating a failed order's key does not read as new
// server errors.
func (m *Routes) counterLocked(k routeCode) prometheus.Counter {
	vec := HTTPRequests
	if k.replayed {
		vec = HTTPReplays
	}
	return vec.WithLabelValues(m.listener, k.route, strconv.Itoa(k.code))
}

// Observe counts one request of route (its template; "" for a path no
// route matched) answered code, a replayed answer apart, and times it.
func (m *Routes) Observe(route string, code int, replayed bool, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	k := routeCode{route, code, replayed}
	m.mu.RLock()
	c, okc := m.counters[k]
	h, okh := m.hists[route]
	m.mu.RUnlock()
	if !okc || !okh {
		m.mu.Lock()
		if c, okc = m.counters[k]; !okc {
			c = m.counterLocked(k)
			m.counters[k] = c
		}
		if h, okh = m.hists[route]; !okh {
			h = HTTPDuration.WithLabelValues(m.listener, route)
			m.hists[route] = h
		}
		m.mu.Unlock()
	}
	c.Inc()
	h.Observe(d.Seconds())
}
