package exits

import (
	"context"
	"sync"
	"time"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// prices reads every watched token once per poll interval, one reader per
// token whatever the number of its positions, at most ReadConcurrency at
// once, and hands each observation to the engine. A token whose read is
// still running when the next tick comes is skipped that tick, so a slow
// chain delays its own tokens only.
type prices struct {
	e        *Engine
	mu       sync.Mutex
	markets  map[tokenKey]Market
	inflight map[tokenKey]bool
	sem      chan struct{}
	wg       sync.WaitGroup
}

func newPrices(e *Engine) *prices {
	return &prices{e: e, markets: map[tokenKey]Market{}, inflight: map[tokenKey]bool{},
		sem: make(chan struct{}, e.cfg.ReadConcurrency)}
}

// run ticks until ctx ends.
func (ps *prices) run(ctx context.Context) {
	tick := time.NewTicker(ps.e.cfg.PollInterval)
	defer tick.Stop()
	lastSweep := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ps.tick(ctx)
		ps.e.resumeStale(ctx)
		ps.e.gauges()
		if time.Since(lastSweep) > time.Hour {
			lastSweep = time.Now()
			ps.wg.Add(1)
			go func() { defer ps.wg.Done(); ps.e.sweep(ctx) }()
		}
	}
}

// wait waits for the reads in flight.
func (ps *prices) wait() { ps.wg.Wait() }

func (ps *prices) tick(ctx context.Context) {
	watched := ps.e.book.tokens()
	ps.mu.Lock()
	// A token no position watches any more loses its reader.
	for k := range ps.markets {
		if _, ok := watched[k]; !ok {
			delete(ps.markets, k)
		}
	}
	counts := map[string]int{}
	var start []tokenKey
	for k, p := range watched {
		counts[k.chain]++
		if ps.inflight[k] {
			continue
		}
		if _, ok := ps.markets[k]; !ok {
			m, err := ps.e.market(p)
			if err != nil {
				ps.e.log.Warn("no price reader for token", "chain", k.chain, "token", k.token, "err", err)
				continue
			}
			ps.markets[k] = m
		}
		ps.inflight[k] = true
		start = append(start, k)
	}
	markets := make([]Market, len(start))
	for i, k := range start {
		markets[i] = ps.markets[k]
	}
	ps.mu.Unlock()
	for chain := range ps.e.chains {
		metrics.WatchedTokens.WithLabelValues(chain).Set(float64(counts[chain]))
	}
	for i, k := range start {
		ps.wg.Add(1)
		go func() {
			defer ps.wg.Done()
			defer func() {
				ps.mu.Lock()
				delete(ps.inflight, k)
				ps.mu.Unlock()
			}()
			select {
			case ps.sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			obs := ps.read(ctx, k, markets[i])
			<-ps.sem
			ps.e.evaluate(ctx, k, obs)
		}()
	}
}

// read observes one token, bounded by four poll intervals and at least
// two seconds: a read that slow holds only its own token's next tick.
func (ps *prices) read(ctx context.Context, k tokenKey, m Market) Observation {
	rctx, cancel := context.WithTimeout(ctx, max(ps.e.cfg.PollInterval*4, 2*time.Second))
	defer cancel()
	obs, err := m.Observe(rctx)
	if err != nil {
		metrics.PriceReads.WithLabelValues(k.chain, "error").Inc()
		if ctx.Err() == nil {
			ps.e.log.Warn("price read failed", "chain", k.chain, "token", k.token, "err", err)
		}
		return Observation{At: ps.e.now()}
	}
	metrics.PriceReads.WithLabelValues(k.chain, "ok").Inc()
	return obs
}

// market makes the reader of a position's token.
func (e *Engine) market(p *wire.Position) (Market, error) {
	c, ok := e.chains[p.Chain]
	if !ok {
		return nil, errUnservedChain(p.Chain)
	}
	return c.Market(p)
}

// gauges sets the position and exit gauges from the book.
func (e *Engine) gauges() {
	open := map[string]int{}
	armed := map[[2]string]int{}
	for _, p := range e.book.all() {
		open[p.Chain]++
		for _, x := range p.Exits {
			if x.State == wire.ExitArmed {
				armed[[2]string{p.Chain, x.Type}]++
			}
		}
	}
	for chain := range e.chains {
		metrics.PositionsOpen.WithLabelValues(chain).Set(float64(open[chain]))
		for _, t := range []string{wire.ExitTakeProfit, wire.ExitStopLoss, wire.ExitTrailingStop, wire.ExitTime, wire.ExitDevSell} {
			metrics.ExitsArmed.WithLabelValues(chain, t).Set(float64(armed[[2]string{chain, t}]))
		}
	}
}
