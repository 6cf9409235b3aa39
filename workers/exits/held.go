package exits

import (
	"sync"
	"time"

	"github.com/tradeapi/tradeapi/shared/metrics"
)

// held keeps the fired exits whose sells wait for their account's budget
// slot, each on a timer that publishes it then. The exits stay "firing" in
// the positions bucket meanwhile, so one whose engine stops before its
// slot is resumed by another engine (resumeStale), never lost.
type held struct {
	mu      sync.Mutex
	timers  map[string]*time.Timer // by sell order id
	byChain map[string]int
	running sync.WaitGroup
	stopped bool
}

func newHeld() *held {
	return &held{timers: map[string]*time.Timer{}, byChain: map[string]int{}}
}

// hold runs publish after wait, unless the sell is held already or stop
// came first; false when it was not taken.
func (h *held) hold(sellID, chain string, wait time.Duration, publish func()) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped || h.timers[sellID] != nil {
		return false
	}
	h.running.Add(1)
	h.timers[sellID] = time.AfterFunc(wait, func() {
		defer h.running.Done()
		publish()
		h.release(sellID, chain)
	})
	h.byChain[chain]++
	metrics.ExitsHeld.WithLabelValues(chain).Set(float64(h.byChain[chain]))
	return true
}

func (h *held) release(sellID, chain string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.timers[sellID]; !ok {
		return
	}
	delete(h.timers, sellID)
	if h.stopped {
		return // stop has zeroed the gauges
	}
	h.byChain[chain]--
	metrics.ExitsHeld.WithLabelValues(chain).Set(float64(h.byChain[chain]))
}

// has reports whether a sell is held here, waiting or being published.
func (h *held) has(sellID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.timers[sellID] != nil
}

// stop cancels the sells still waiting and waits for those being
// published. A cancelled sell's exit stays firing for another engine, or
// this one's next start, to resume.
func (h *held) stop() {
	h.mu.Lock()
	h.stopped = true
	for id, t := range h.timers {
		if t.Stop() {
			h.running.Done()
			delete(h.timers, id)
		}
	}
	for chain := range h.byChain {
		h.byChain[chain] = 0
		metrics.ExitsHeld.WithLabelValues(chain).Set(0)
	}
	h.mu.Unlock()
	h.running.Wait()
}
