package venues

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// View is a process's in-memory copy of the venues bucket, kept fresh by a
// watch, so that ingress and the signers decide whether a venue trades
// without any I/O. It also sets the tradeapi_venue_paused gauge of every
// venue it knows. It is safe for concurrent use.
type View struct {
	kv  jetstream.KeyValue
	log *slog.Logger

	// serves, when set, tells the chains whose states the view keeps.
	serves func(chain string) bool

	mu     sync.RWMutex
	states map[string]State // by Key

	ready     chan struct{}
	readyOnce sync.Once
}

// NewView returns a view of the venues bucket kv; Run fills it.
func NewView(kv jetstream.KeyValue, log *slog.Logger) *View {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &View{kv: kv, log: log.With("component", "venues"), states: map[string]State{}, ready: make(chan struct{})}
}

// Serving keeps the view to the venues of the chains serves reports
// served, and returns v: a chain the configuration no longer serves keeps
// its last states in the bucket, and a pause there would hold
// tradeapi_venue_paused at 1, firing its alert, for a chain no order
// reaches. Call it before Run.
func (v *View) Serving(serves func(chain string) bool) *View {
	v.serves = serves
	return v
}

// Ready is closed once the view holds every state the bucket had when Run
// started.
func (v *View) Ready() <-chan struct{} { return v.ready }

// Run watches the bucket until ctx ends, restarting the watch whenever it
// breaks (bus.Watch), and returns nil then.
func (v *View) Run(ctx context.Context) error {
	return bus.Watch(ctx, v.kv, v.log, v.apply, func() { v.readyOnce.Do(func() { close(v.ready) }) })
}

// apply takes one change of the bucket into the view and the gauge.
func (v *View) apply(e jetstream.KeyValueEntry) {
	if e.Operation() != jetstream.KeyValuePut {
		v.mu.Lock()
		if st, ok := v.states[e.Key()]; ok {
			metrics.VenuePaused.DeleteLabelValues(st.Venue, st.Chain)
		}
		delete(v.states, e.Key())
		v.mu.Unlock()
		return
	}
	var st State
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		v.log.Warn("ignoring venue state", "key", e.Key(), "err", err)
		return
	}
	if v.serves != nil && !v.serves(st.Chain) {
		return
	}
	v.mu.Lock()
	old, had := v.states[e.Key()]
	v.states[e.Key()] = st
	v.mu.Unlock()
	paused := 0.0
	if st.IsPaused() {
		paused = 1
	}
	metrics.VenuePaused.WithLabelValues(st.Venue, st.Chain).Set(paused)
	if !had || old.State != st.State {
		v.log.Info("venue state", "venue", st.Venue, "chain", st.Chain, "state", st.State, "reason", st.Reason)
	}
}

// State returns the state of venue on chain as the view holds it; ok is
// false for a venue never checked.
func (v *View) State(chain, venue string) (State, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	st, ok := v.states[Key(chain, venue)]
	return st, ok
}

// List returns every state the view holds, by chain then venue.
func (v *View) List() []State {
	v.mu.RLock()
	out := make([]State, 0, len(v.states))
	for _, st := range v.states {
		out = append(out, st)
	}
	v.mu.RUnlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].Chain < out[j].Chain })
	sortStates(out)
	return out
}

// Gate tells whether a venue takes orders: nil, or the VENUE_PAUSED error
// to refuse them with. *View implements it; the signers, the workers and
// the exits engines ask one.
type Gate interface {
	Open(chain, venue string) error
}

// ChainPaused returns the VENUE_PAUSED error of the first of a chain's
// venues (Solana's, or an EVM chain's) when every one of them is paused,
// nil when one trades: an order on the chain then has nowhere to trade.
func ChainPaused(g Gate, chain string) error {
	list := EVMVenues
	if chain == wire.ChainSolana {
		list = SolanaVenues
	}
	var first error
	for _, v := range list {
		err := g.Open(chain, v)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// EVMVenuePaused returns the VENUE_PAUSED error of the first paused venue
// of an EVM chain, nil when none is.
func EVMVenuePaused(g Gate, chain string) error {
	for _, v := range EVMVenues {
		if err := g.Open(chain, v); err != nil {
			return err
		}
	}
	return nil
}

// Open returns nil when venue on chain takes orders, and the VENUE_PAUSED
// error to answer when it is paused: details name the venue, the message
// says what changed. A venue never checked takes orders: its checks have
// not found anything against it.
func (v *View) Open(chain, venue string) error {
	st, ok := v.State(chain, venue)
	if !ok || !st.IsPaused() {
		return nil
	}
	return PausedError(st)
}

// PausedError is the VENUE_PAUSED answer of an order that needs the venue
// of st.
func PausedError(st State) *apierr.Error {
	return apierr.Newf(apierr.VenuePaused, st.Venue,
		"%s is paused since %s: %s. Nothing was charged; the venue trades again once its checks pass",
		st.Venue, st.Since.UTC().Format(time.RFC3339), st.Reason)
}
