package exits

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// prices reads every watched token this engine owns once per poll
// interval, one reader per token whatever the number of its positions, at
// most ReadConcurrency at once, and hands each observation to the engine.
// A token whose read is still running when the next tick comes is skipped
// that tick, so a slow chain delays its own tokens only.
type prices struct {
	e        *Engine
	mu       sync.Mutex
	markets  map[tokenKey]Market
	inflight map[tokenKey]bool
	sem      chan struct{}
	wg       sync.WaitGroup

	// owned caches which tokens this engine reads under the membership
	// of generation ownedGen; only the tick loop touches them.
	owned    map[tokenKey]bool
	ownedGen uint64

	// failing holds, by chain, the streak of its failed price reads,
	// logged when it starts and when it ends (readStreak).
	fmu     sync.Mutex
	failing map[string]*readStreak

	// noReader holds the tokens whose reader could not be made, logged
	// once each (a position on a chain this engine does not serve stays
	// so); only the tick loop touches it.
	noReader map[tokenKey]bool
}

// readStreak is a chain's run of failed price reads: it starts with a read
// that fails while none of the chain's tokens is failing and ends when
// every token that failed in it has read again or is no longer read here.
// Its start is logged with the error, its end with the count and duration;
// the failures in between are only counted, here and in
// tradeapi_exits_price_reads_total{outcome="error"}.
type readStreak struct {
	since    time.Time
	failures int
	failing  map[tokenKey]bool // markets whose last read failed
	tokens   map[tokenKey]bool // markets that failed in the streak
}

func newPrices(e *Engine) *prices {
	return &prices{e: e, markets: map[tokenKey]Market{}, inflight: map[tokenKey]bool{},
		sem: make(chan struct{}, e.cfg.ReadConcurrency), owned: map[tokenKey]bool{}, failing: map[string]*readStreak{},
		noReader: map[tokenKey]bool{}}
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
	mem := ps.e.peers.view()
	mine, others := ps.split(ps.e.book.tokens(), mem)
	ps.mu.Lock()
	// A token no position watches any more, or that another engine now
	// reads, loses its reader.
	for k := range ps.markets {
		if _, ok := mine[k]; !ok {
			delete(ps.markets, k)
		}
	}
	for k := range ps.noReader {
		if _, ok := mine[k]; !ok {
			delete(ps.noReader, k)
		}
	}
	ps.pruneFailing()
	counts := map[string]int{}
	var start []tokenKey
	for k, p := range mine {
		counts[k.chain]++
		if ps.inflight[k] {
			continue
		}
		if _, ok := ps.markets[k]; !ok {
			m, err := ps.e.market(p)
			if err != nil {
				if !ps.noReader[k] {
					ps.noReader[k] = true
					ps.e.log.Warn("no price reader for token; its exits wait for one", "chain", k.chain, "token", k.token, "err", err)
				}
				continue
			}
			delete(ps.noReader, k)
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
	metrics.ExitsEngines.Set(float64(mem.live))
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
	ps.e.clockExits(ctx, others, ps.e.handover())
}

// split sorts the watched tokens into those this engine reads under
// membership mem and those of its chains that other engines read.
func (ps *prices) split(watched map[tokenKey]*wire.Position, mem membership) (mine map[tokenKey]*wire.Position, others []tokenKey) {
	if mem.gen != ps.ownedGen {
		clear(ps.owned)
		ps.ownedGen = mem.gen
	}
	for k := range ps.owned {
		if _, ok := watched[k]; !ok {
			delete(ps.owned, k)
		}
	}
	mine = make(map[tokenKey]*wire.Position, len(watched))
	for k, p := range watched {
		owned, ok := ps.owned[k]
		if !ok {
			owned = owner(k, mem.byChain[k.chain]) == ps.e.cfg.ID
			ps.owned[k] = owned
		}
		switch _, served := ps.e.chains[k.chain]; {
		case owned:
			mine[k] = p
		case served:
			// A chain this engine does not serve is left to the engines
			// that can sell on it, time exits included.
			others = append(others, k)
		}
	}
	return mine, others
}

// readTimeout bounds one price read: four poll intervals and at least two
// seconds, so a read that slow holds only its own token's next tick.
func (e *Engine) readTimeout() time.Duration { return max(e.cfg.PollInterval*4, 2*time.Second) }

// handover is how long the owner of a token may leave one of its time
// exits due before every engine fires it: long enough for a live owner's
// read to end and for a dead one's tokens to be taken over.
func (e *Engine) handover() time.Duration {
	return e.cfg.PeerExpiry + e.readTimeout() + 2*e.cfg.PollInterval
}

// read observes one token, bounded by readTimeout. The observation names
// the venue a sale of the token goes to, when its market knows it, even
// after a failed read: a time exit fires on one.
func (ps *prices) read(ctx context.Context, k tokenKey, m Market) (obs Observation) {
	rctx, cancel := context.WithTimeout(ctx, ps.e.readTimeout())
	defer cancel()
	asked := ps.e.now()
	defer func() { obs.Asked = asked }()
	obs, err := m.Observe(rctx)
	if err != nil {
		metrics.PriceReads.WithLabelValues(k.chain, "error").Inc()
		if errors.Is(err, errMigrated) {
			ps.e.abandon(ctx, k, err)
			return Observation{At: ps.e.now()}
		}
		if ctx.Err() == nil {
			ps.readFailed(k, err)
		}
		obs = Observation{At: ps.e.now()}
	} else {
		metrics.PriceReads.WithLabelValues(k.chain, "ok").Inc()
		ps.readOK(k)
	}
	if v, ok := m.(sellVenuer); ok && obs.Venue == "" {
		obs.Venue = v.sellVenue()
	}
	return obs
}

// readFailed adds a failed read of k to its chain's streak, starting it
// (with a warning naming the token and the error) if none is on.
func (ps *prices) readFailed(k tokenKey, err error) {
	ps.fmu.Lock()
	defer ps.fmu.Unlock()
	s := ps.failing[k.chain]
	switch {
	case s == nil:
		s = &readStreak{since: ps.e.now(), failing: map[tokenKey]bool{}, tokens: map[tokenKey]bool{}}
		ps.failing[k.chain] = s
		ps.e.log.Warn("price reads failing; logged again when they recover", "chain", k.chain, "token", k.token, "err", err)
	case !s.failing[k]:
		ps.e.log.Debug("price read of one more token failing", "chain", k.chain, "token", k.token, "err", err,
			"failures", s.failures+1)
	}
	s.failures++
	s.failing[k] = true
	s.tokens[k] = true
}

// readOK takes k out of its chain's streak of failed reads, if in it,
// ending the streak if k was the last of its tokens failing.
func (ps *prices) readOK(k tokenKey) {
	ps.fmu.Lock()
	defer ps.fmu.Unlock()
	s := ps.failing[k.chain]
	if s == nil || !s.failing[k] {
		return
	}
	delete(s.failing, k)
	if len(s.failing) == 0 {
		delete(ps.failing, k.chain)
		ps.e.log.Info("price reads recovered", "chain", k.chain, "failures", s.failures, "tokens", len(s.tokens),
			"for", ps.e.now().Sub(s.since).Round(time.Millisecond))
	}
}

// pruneFailing takes out of the streaks of failed reads the tokens no
// longer read here, ending a streak left with none. Called with ps.mu
// held.
func (ps *prices) pruneFailing() {
	ps.fmu.Lock()
	defer ps.fmu.Unlock()
	for chain, s := range ps.failing {
		for k := range s.failing {
			if _, ok := ps.markets[k]; !ok {
				delete(s.failing, k)
			}
		}
		if len(s.failing) == 0 {
			delete(ps.failing, chain)
			ps.e.log.Info("price reads no longer failing: the tokens that failed are no longer read here", "chain", chain,
				"failures", s.failures, "tokens", len(s.tokens), "for", ps.e.now().Sub(s.since).Round(time.Millisecond))
		}
	}
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
