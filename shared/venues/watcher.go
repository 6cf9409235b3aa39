package venues

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/tradeapi/tradeapi/shared/metrics"
)

// WatcherConfig configures a Watcher. Zero fields take the defaults.
type WatcherConfig struct {
	// Poll is how often the fingerprints (the deploy slots, the code
	// hashes) are read (1 s).
	Poll time.Duration
	// Recheck is how often an active venue is checked although nothing
	// moved (30 s).
	Recheck time.Duration
	// PausedRecheck is how often a paused venue is checked, so that its
	// pause lifts soon after it accepts the service again (2 s).
	PausedRecheck time.Duration
	// CheckTimeout bounds one venue's checks (10 s).
	CheckTimeout time.Duration
}

// EVMWatcherConfig is the configuration of an EVM chain's watcher. The
// Uniswap contracts are immutable and their code is tens of kilobytes (a
// router's is about 20 KB), so it is read every 10 s rather than every
// second; an active venue is checked again every 5 minutes, a paused one
// every 30 s.
func EVMWatcherConfig() WatcherConfig {
	return WatcherConfig{Poll: 10 * time.Second, Recheck: 5 * time.Minute, PausedRecheck: 30 * time.Second}
}

func (c *WatcherConfig) defaults() {
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	if c.Recheck <= 0 {
		c.Recheck = 30 * time.Second
	}
	if c.PausedRecheck <= 0 {
		c.PausedRecheck = 2 * time.Second
	}
	if c.CheckTimeout <= 0 {
		c.CheckTimeout = 10 * time.Second
	}
}

// Watcher checks one chain's venues while the service runs and records
// their states: every Poll it reads their fingerprints, and a venue whose
// fingerprint moved is checked at once; otherwise every Recheck (every
// PausedRecheck while paused). A check that cannot tell leaves the state as
// it is and is tried again at the next poll. Several watchers of one chain
// (one per worker process) may run; the store keeps the newest news.
type Watcher struct {
	cfg     WatcherConfig
	checker Checker
	store   *Store
	log     *slog.Logger
	now     func() time.Time

	mu     sync.Mutex
	venues map[string]*watched
	// warned is when a failed read was last logged as a warning: a chain
	// that stops answering is said once a minute, not once a poll.
	warned time.Time
}

// watched is what a watcher remembers of one venue.
type watched struct {
	fingerprint string // at the last conclusive check
	checkedAt   time.Time
	paused      bool
	checking    bool
	// unsimulatedSaid: the warning that its trades are not simulated
	// was logged.
	unsimulatedSaid bool
}

// NewWatcher returns a watcher of checker's venues recording into store.
func NewWatcher(cfg WatcherConfig, checker Checker, store *Store, log *slog.Logger) *Watcher {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{cfg: cfg, checker: checker, store: store, now: time.Now,
		log: log.With("component", "venues", "chain", checker.Chain()), venues: map[string]*watched{}}
	for _, v := range checker.Venues() {
		w.venues[v] = &watched{}
	}
	return w
}

// Run polls until ctx ends and returns nil then; checks under way are
// waited for.
func (w *Watcher) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(w.cfg.Poll)
	defer t.Stop()
	w.log.Info("venue watcher started", "venues", w.checker.Venues(), "poll", w.cfg.Poll)
	for _, v := range w.checker.Venues() {
		metrics.VenuePauses.WithLabelValues(v, w.checker.Chain()).Add(0)
		metrics.RPCErrors.WithLabelValues(w.checker.Chain(), "venue_check").Add(0)
	}
	for {
		w.poll(ctx, &wg)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// poll reads the fingerprints and starts the checks that are due, each on
// its own goroutine, so that a slow venue does not hold the others.
func (w *Watcher) poll(ctx context.Context, wg *sync.WaitGroup) {
	pctx, cancel := context.WithTimeout(ctx, w.cfg.CheckTimeout)
	fp, err := w.checker.Fingerprints(pctx)
	cancel()
	if err != nil {
		metrics.RPCErrors.WithLabelValues(w.checker.Chain(), "venue_check").Inc()
		w.warn(ctx, "read venue fingerprints", "err", err)
		return
	}
	now := w.now()
	for _, venue := range w.checker.Venues() {
		if !w.due(venue, fp.Of[venue], now) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.check(ctx, venue)
		}()
	}
}

// due reports whether venue is to be checked now, and marks it as being
// checked.
func (w *Watcher) due(venue, fingerprint string, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	v := w.venues[venue]
	if v.checking {
		return false
	}
	every := w.cfg.Recheck
	if v.paused {
		every = w.cfg.PausedRecheck
	}
	if v.checkedAt.IsZero() || fingerprint != v.fingerprint || now.Sub(v.checkedAt) >= every {
		v.checking = true
		return true
	}
	return false
}

// check runs venue's checks and records the verdict.
func (w *Watcher) check(ctx context.Context, venue string) {
	cctx, cancel := context.WithTimeout(ctx, w.cfg.CheckTimeout)
	defer cancel()
	verdict, err := w.checker.Check(cctx, venue)
	w.mu.Lock()
	v := w.venues[venue]
	v.checking = false
	if err == nil {
		v.fingerprint, v.checkedAt = verdict.Fingerprint, w.now()
	}
	w.mu.Unlock()
	if err != nil {
		metrics.RPCErrors.WithLabelValues(w.checker.Chain(), "venue_check").Inc()
		w.warn(ctx, "venue check inconclusive, state kept", "venue", venue, "err", err)
		return
	}
	st, err := Record(ctx, w.store, w.checker.Chain(), venue, verdict, w.now(), false, w.log)
	if err != nil {
		if ctx.Err() == nil {
			w.log.Error("record venue state", "venue", venue, "err", err)
		}
		return
	}
	// Paused as stored: a verdict left out for a newer one (another
	// watcher's) is not this venue's state, and a venue still paused is
	// checked again at the paused pace.
	w.mu.Lock()
	v.paused = st.IsPaused()
	warn := verdict.Unsimulated != "" && !v.unsimulatedSaid
	v.unsimulatedSaid = v.unsimulatedSaid || warn
	w.mu.Unlock()
	if warn {
		w.log.Warn("venue's trades not simulated: an upgrade that keeps its deploy readable and its layouts but breaks its trades would not pause it",
			"venue", venue, "why", verdict.Unsimulated)
	}
}

// warnEvery spaces the warnings of reads that keep failing.
const warnEvery = time.Minute

// warn logs a failed read: as a warning at most once per warnEvery, in
// between at debug level; nothing once ctx has ended.
func (w *Watcher) warn(ctx context.Context, msg string, args ...any) {
	if ctx.Err() != nil {
		return
	}
	w.mu.Lock()
	now := w.now()
	loud := now.Sub(w.warned) >= warnEvery
	if loud {
		w.warned = now
	}
	w.mu.Unlock()
	if loud {
		w.log.Warn(msg, args...)
		return
	}
	w.log.Debug(msg, args...)
}

// Record writes a verdict on venue as its state, counts a pause that
// begins with it and logs a change. It returns the state written, or the
// newer one a faster watcher stored. asked: an operator asked for the
// check (Store.RecordAsked).
func Record(ctx context.Context, store *Store, chain, venue string, v Verdict, now time.Time, asked bool, log *slog.Logger) (State, error) {
	st := State{Venue: venue, Chain: chain, State: Active, CheckedAt: now.UTC(), Fingerprint: v.Fingerprint, Height: v.Height}
	if !v.OK {
		st.State, st.Reason = Paused, v.Reason
	}
	record := store.Record
	if asked || v.AnotherChain {
		record = store.RecordAsked
	}
	prev, stored, wrote, err := record(ctx, st)
	if err != nil {
		return State{}, err
	}
	if !wrote {
		return stored, nil
	}
	if prev.State != st.State {
		if st.IsPaused() {
			metrics.VenuePauses.WithLabelValues(venue, chain).Inc()
			log.Warn("venue paused", "venue", venue, "reason", st.Reason, "fingerprint", st.Fingerprint)
		} else if prev.State != "" {
			log.Info("venue resumed", "venue", venue, "fingerprint", st.Fingerprint)
		}
	}
	return stored, nil
}
