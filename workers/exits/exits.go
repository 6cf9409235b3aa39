// Package exits is the auto-order engine. A buy with auto-orders opens one
// position per wallet when it is confirmed on chain (the amount received and
// the price paid read from the transaction); the engine reads the price of
// every watched token from its curve, pool or pair, one read per token
// however many positions watch it, and when a take-profit, stop-loss,
// trailing-stop, time or dev-sell exit is due it publishes a Sell job into
// the normal pipeline.
//
// Positions live in the positions bucket. Every engine process keeps a view
// of the whole bucket by watching it, and every state change of an exit is
// a compare-and-set on the position's revision, so when two engines see the
// same trigger only one claims the exit. The claimed exit's sell has an
// order id derived from the position, the exit and the attempt, published
// with that id as Nats-Msg-Id and stored with a create: an engine that dies
// between the claim and the publish leaves the exit "firing", and whichever
// engine runs next publishes the same job again, which the stream and the
// order store take once.
//
// The engines split the price reads: each announces itself on
// bus.ExitsPresence, every engine derives the same owner of each token
// from the live engines (rendezvous hashing), and only the owner reads a
// token. An engine that stops says goodbye and one that dies stops
// beating, and within the peer expiry the others read its tokens. Nothing
// else depends on ownership: every engine still keeps the whole book,
// takes the order events and resumes exits left firing, and every engine
// fires a time exit whose owner let it wait past the handover time.
package exits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Fill is what one wallet got from a confirmed buy, read from the chain.
type Fill struct {
	// Token is the token bought (a mint, an ERC-20 address).
	Token string
	// Venue and Pool are where it traded (wire.Venue*); Pool is empty on a
	// pump.fun curve.
	Venue string
	Pool  string
	// QuoteAsset is the symbol a sell receives.
	QuoteAsset    string
	Decimals      uint8
	QuoteDecimals uint8
	// Received is the tokens the wallet received and Spent the quote it
	// paid, fees of the venue included, both in base units.
	Received *big.Int
	Spent    *big.Int
	// PoolIn is the quote that went into the pool or curve and PoolOut
	// the tokens that came out of it, before the venue's fees and a
	// token's tax: the price the buy traded at, in the measure the exits
	// read prices in. Nil when the trade does not tell them.
	PoolIn, PoolOut *big.Int
	// Dev is the token's creator, empty when the chain names none, and
	// DevBalance what it holds now.
	Dev        string
	DevBalance *big.Int
	// DevOwned is set when Dev is the buying wallet itself: its sales (an
	// exit of its own) are no creator's, so the position has no creator
	// to watch.
	DevOwned bool
	// DevUnknown says why the creator could not be looked for (a node
	// that refuses the log range it takes): a dev_sell has nothing to
	// watch, but the position opens.
	DevUnknown string
	// In is where the buy landed: its slot on Solana, its block on EVM.
	In uint64
}

// Sale is what a confirmed sale transaction of a wallet tells of its
// holding: where it landed (a slot, a block) and what the wallet held of
// the token right after it.
type Sale struct {
	In      uint64
	Balance *big.Int
}

// ErrNoTrade is wrapped by Chain.Fill when the transaction holds no buy of
// the wallet: an EVM buy in a stable coin sends the quote's approval in a
// transaction of its own beside the swap.
var ErrNoTrade = errors.New("no buy of the wallet in the transaction")

// Observation is one read of a token's market.
type Observation struct {
	// Price is in quote per whole token; nil when the read failed.
	Price *big.Rat
	// DevBalance is what the token's creator holds, in base units; nil
	// when unknown.
	DevBalance *big.Int
	// At is when the read was taken.
	At time.Time
	// Asked is when the read was asked for; zero when not known. A
	// position that opened, or whose sell settled, after it is not judged
	// on it (book.watching): the read may show the market before the buy
	// or the sale.
	Asked time.Time
	// Venue is the venue (wire.Venue*) a sale of the token goes to now, as
	// its market found it: a pump.fun coin whose curve completed sells on
	// PumpSwap. Empty when the market does not tell: the position's own.
	Venue string

	approx float64 // Price as a float64, set once per read by the engine
}

// Market reads the price of one token on one venue.
type Market interface {
	Observe(ctx context.Context) (Observation, error)
}

// sellVenuer is a Market that knows where a sale of its token goes now,
// which may not be where the buy traded: a pump.fun coin moves to its
// PumpSwap pool when its curve completes.
type sellVenuer interface {
	// sellVenue is that venue (wire.Venue*), "" while it is not known.
	sellVenue() string
}

// Chain is what the engine needs of one chain.
type Chain interface {
	// Fill reads what wallet received from its confirmed buy transaction
	// of address (the address the buy named); own tells the addresses of
	// the buyer's account, which are never the token's creator. The
	// creator is looked for when dev says a dev_sell watches it, where
	// finding it costs more than a read of the buy (on EVM).
	Fill(ctx context.Context, signature, wallet, address string, dev bool, own func(address string) bool) (*Fill, error)
	// Balance is what wallet holds of token, in base units.
	Balance(ctx context.Context, wallet, token string) (*big.Int, error)
	// Sale reads wallet's confirmed transaction signature that sold token:
	// where it landed and what wallet held of token right after it.
	Sale(ctx context.Context, signature, wallet, token string) (Sale, error)
	// Market returns a reader of the position's token on its venue.
	Market(p *wire.Position) (Market, error)
	// SellLeg turns a sell of amount base units of the position (all of it
	// when all is set) into the job's sell mode and the leg's amount.
	SellLeg(ctx context.Context, p *wire.Position, amount *big.Int, all bool) (mode, legAmount string, err error)
}

// VenueGate tells whether a venue takes orders (venues.Gate).
type VenueGate = venues.Gate

// Config configures an engine.
type Config struct {
	// PollInterval is how often each watched token is read.
	PollInterval time.Duration
	// Owns tells whether address is a wallet of account (the registry's
	// view); nil knows none.
	Owns func(account string, family wire.Family, address string) bool
	// FeeCaps returns the account's fee caps of a family (the registry's
	// view), which bound an exit sell's fees as they bound the account's
	// own orders; nil gives every account the family's defaults.
	FeeCaps func(account string, family wire.Family) registry.FeeCaps
	// ReadConcurrency bounds the reads in flight.
	ReadConcurrency int
	// SellSlippageBps is the slippage of exit sells.
	SellSlippageBps uint32
	// AutoTip lets the worker choose the fee and tip of exit sells.
	AutoTip bool
	// MaxAttempts bounds the sells one exit publishes.
	MaxAttempts int
	// ResumeAfter is how long an exit may stay claimed ("firing"), past
	// its claim and past the budget slot its sell is held until, before
	// another engine, or this one after a restart, finishes its publish.
	ResumeAfter time.Duration
	// Consumers is how many events are handled at once.
	Consumers int
	// ID names this engine to the other engines; empty picks a random
	// one. Two live engines must not share an ID.
	ID string
	// Beat is how often the engine announces itself to the others.
	Beat time.Duration
	// PeerExpiry is how long an engine that stopped announcing itself,
	// without saying goodbye, keeps its tokens: after it, the others read
	// them. Below two beats it is raised to three.
	PeerExpiry time.Duration
	// AccountRate bounds the exit sells one account puts into the
	// pipeline, a second, across every engine (10); AccountBurst is how
	// many may enter at once after a quiet spell (20). A sell beyond the
	// bound is held until its slot, never dropped, and its exit_fired
	// event says how late it went and why.
	AccountRate  float64
	AccountBurst int
	// Venues tells whether a venue takes orders (a *venues.View): a due
	// exit whose sell's venue (the one a sale of the token goes to now,
	// see gateVenues) is paused is not fired until the venue resumes,
	// since its sell would only be refused, and a sell refused
	// VENUE_PAUSED re-arms its exit without ever failing it: to wait for
	// the venue, or to back off when no pause is seen here. Nil lets every
	// exit fire.
	Venues VenueGate
	// Network names the network this process serves a chain on
	// (config.Config.Network): said on every sell's job (bus.HeaderNetwork),
	// so that an engine left on the local chains beside production workers
	// (or the reverse) has its sells signed by none of them. Nil says
	// nothing.
	Network func(chain string) string
	// AfterClaim, when set, runs after an exit is claimed and before its
	// job is published; returning false abandons the exit there, as a
	// process dying at that point would. Tests use it.
	AfterClaim func(positionID string, exit int) bool
}

func (c *Config) defaults() {
	if c.PollInterval <= 0 {
		c.PollInterval = 500 * time.Millisecond
	}
	if c.ReadConcurrency < 1 {
		c.ReadConcurrency = 32
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 3
	}
	if c.ResumeAfter <= 0 {
		c.ResumeAfter = 3 * time.Second
	}
	if c.Consumers < 1 {
		c.Consumers = 16
	}
	if c.ID == "" {
		c.ID = nuid.Next()
	}
	if c.Beat <= 0 {
		c.Beat = time.Second
	}
	if c.PeerExpiry < 2*c.Beat {
		c.PeerExpiry = 3 * c.Beat
	}
	if c.AccountRate <= 0 {
		c.AccountRate = 10
	}
	if c.AccountBurst < 1 {
		c.AccountBurst = 20
	}
}

// Engine watches positions and fires their exits.
type Engine struct {
	cfg    Config
	js     jetstream.JetStream
	kv     jetstream.KeyValue
	orders *orders.Store
	chains map[string]Chain
	events *events.Publisher
	log    *slog.Logger
	book   *book
	prices *prices
	peers  *peers
	budget *budget
	held   *held
	now    func() time.Time

	// paused holds the positions whose due exit waits for its paused
	// venue, by position id, from when it first waited: when the venue
	// resumes, the exit fires late for that reason.
	pausedMu sync.Mutex
	paused   map[string]time.Time

	// started is when Run began, in unix nanoseconds: a time exit due
	// before it came due while no engine of this process ran.
	started atomic.Int64
	// queue is the order events' consumer once Run made it, which due
	// exits ask how far behind the engine is (awaitQueued), and backs the
	// events this engine handed back to be tried later.
	queue atomic.Pointer[jetstream.Consumer]
	backs heldBack
}

// startedAt is when Run began; the zero time before it has.
func (e *Engine) startedAt() time.Time {
	if n := e.started.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// New returns an engine over the positions bucket and the given chains,
// keyed by chain name (solana, eth, bsc, base, rbh, arc).
func New(cfg Config, js jetstream.JetStream, b *bus.Buckets, chains map[string]Chain, log *slog.Logger) (*Engine, error) {
	if b.Positions == nil {
		return nil, errors.New("exits: no positions bucket")
	}
	if len(chains) == 0 {
		return nil, errors.New("exits: no chains configured")
	}
	cfg.defaults()
	log = log.With("component", "exits")
	e := &Engine{cfg: cfg, js: js, kv: b.Positions, orders: orders.NewStore(b.Orders), chains: chains,
		events: events.NewPublisher(js, log), log: log, book: newBook(), held: newHeld(), now: time.Now,
		paused: map[string]time.Time{}}
	// The budget reads the engine's clock through e.now, so that a test
	// moving the clock moves both.
	e.budget = newBudget(b.Positions, cfg.AccountRate, cfg.AccountBurst, func() time.Time { return e.now() })
	e.book.now = func() time.Time { return e.now() }
	// Every chain's series exist from the start, at 0, for the dashboards'
	// rates and alerts.
	for c := range chains {
		for _, t := range []string{wire.ExitTakeProfit, wire.ExitStopLoss, wire.ExitTrailingStop, wire.ExitTime, wire.ExitDevSell} {
			metrics.ExitsFired.WithLabelValues(c, t).Add(0)
			for _, o := range []string{"rearmed", "failed", "cancelled", outcomeWorkerUnavailable} {
				metrics.ExitSellsUnlanded.WithLabelValues(c, t, o).Add(0)
			}
		}
		for _, o := range []string{"ok", "error"} {
			metrics.PriceReads.WithLabelValues(c, o).Add(0)
		}
		metrics.ExitPublish.WithLabelValues(c)
	}
	metrics.Redeliveries.WithLabelValues(bus.ExitsConsumer).Add(0)
	served := make([]string, 0, len(chains))
	for c := range chains {
		served = append(served, c)
		// Every reason has a series from the start, so rates over them
		// are defined before the first deferral.
		for _, r := range []string{metrics.ExitDeferredBudget, metrics.ExitDeferredResumed, metrics.ExitDeferredHandover,
			metrics.ExitDeferredVenuePaused, metrics.ExitDeferredStopped} {
			metrics.ExitsDeferred.WithLabelValues(c, r).Add(0)
		}
		metrics.ExitsHeld.WithLabelValues(c)
	}
	e.peers = newPeers(js.Conn(), cfg.ID, served, cfg.Beat, cfg.PeerExpiry, log)
	e.prices = newPrices(e)
	return e, nil
}

// catchUpWait bounds how long a starting engine holds its exits for the
// events that waited for it: an event whose chain does not answer is tried
// again for a quarter of an hour, and the other positions' stops must not
// wait that long.
const catchUpWait = 30 * time.Second

// catchUpPoll is how often a starting engine asks its consumer how far it is.
var catchUpPoll = 250 * time.Millisecond

// queuedWait bounds how long due exits wait for events queued ahead of
// them in a running engine (awaitQueued): a stop-loss held longer costs
// what a sale it waits for would save.
const queuedWait = 10 * time.Second

// awaitQueued holds due exits while order events wait undelivered in the
// engine's consumer (an engine far behind its events, at a burst or after
// a stall), and then until none is in any engine's hands (the consumer is
// every engine's), at most wait in all: a sale among them bounds the
// positions bought before it, and an exit fired first would sell the
// wallet's later tokens (each fire reads its position as it is once they
// are handled). An event this engine handed back to be tried later (its
// chain not answering) holds nothing up: it was handled once; one another
// engine handed back cannot be told from one in its hands, and holds the
// exits to the bound. An engine not behind pays one read of its consumer
// per round of fires. It reports whether the events ahead were all handled
// in time.
func (e *Engine) awaitQueued(ctx context.Context, wait time.Duration) bool {
	qp := e.queue.Load()
	if qp == nil {
		return true
	}
	cons := *qp
	deadline := time.Now().Add(wait)
	for behind := false; ; behind = true {
		ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
		ci, err := cons.Info(ictx)
		cancel()
		if err != nil {
			e.log.Warn("read how far the engine is behind its events before exits fire; they fire", "err", err)
			return false
		}
		switch {
		case ci.NumPending > 0:
		case !behind:
			return true
		case ci.NumAckPending <= e.backs.count(time.Now()):
			// None is in any engine's hands: what waits for an
			// acknowledgement is what this engine handed back.
			e.log.Info("events queued ahead of due exits handled; they fire")
			return true
		}
		if !behind {
			e.log.Info("due exits wait for the events queued ahead of them", "queued", ci.NumPending, "at_most", wait)
		}
		if !time.Now().Before(deadline) {
			e.log.Warn("events queued ahead of due exits not all handled in time; they fire", "queued", ci.NumPending,
				"unacknowledged", ci.NumAckPending, "waited", wait)
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(catchUpPoll):
		}
	}
}

// heldBack counts the events an engine handed back to be delivered again
// later, each until then, by stream sequence.
type heldBack struct {
	mu    sync.Mutex
	until map[uint64]time.Time
	// kept is how many the last forget left.
	kept int
}

// add counts seq held back until then. Those due are forgotten whenever
// the count has doubled since they last were, so that what is remembered
// stays about what is held back (each for at most eventRetryDelay's 30 s),
// at a cost per event that does not grow with them.
func (h *heldBack) add(seq uint64, until time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.until == nil {
		h.until = map[uint64]time.Time{}
	}
	if len(h.until) >= 2*max(h.kept, 32) {
		h.forget(time.Now())
	}
	h.until[seq] = until
}

// count is how many are held back at now; those due are forgotten.
func (h *heldBack) count(now time.Time) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.forget(now)
	return len(h.until)
}

// forget drops those due at now; h.mu is held.
func (h *heldBack) forget(now time.Time) {
	for seq, until := range h.until {
		if !now.Before(until) {
			delete(h.until, seq)
		}
	}
	h.kept = len(h.until)
}

// caughtUp waits until the events of cons that were in the stream when it
// was called are all handled (acked): the consumer's ack floor passed the
// stream's last message then, or nothing is left to deliver or in hand. It
// reports false when wait passed first, or ctx ended.
func (e *Engine) caughtUp(ctx context.Context, cons jetstream.Consumer, wait time.Duration) bool {
	st, err := e.js.Stream(ctx, bus.StreamEvents)
	if err != nil {
		e.log.Warn("read the events stream at start", "err", err)
		return false
	}
	info, err := st.Info(ctx)
	if err != nil {
		e.log.Warn("read the events stream at start", "err", err)
		return false
	}
	last := info.State.LastSeq
	deadline := time.Now().Add(wait)
	for {
		ci, err := cons.Info(ctx)
		if err == nil && (ci.AckFloor.Stream >= last || ci.NumPending == 0 && ci.NumAckPending == 0) {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(catchUpPoll):
		}
	}
}

// Run loads every position, then follows the bucket, consumes the order
// events and reads the watched prices until ctx ends.
func (e *Engine) Run(ctx context.Context) error {
	e.started.Store(e.now().UnixNano())
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	synced, err := e.watch(watchCtx)
	if err != nil {
		return fmt.Errorf("exits: %w", err)
	}
	select {
	case <-synced:
	case <-ctx.Done():
		return nil
	case <-time.After(30 * time.Second):
		return errors.New("exits: positions not loaded after 30s")
	}
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{
		Durable: bus.ExitsConsumer,
		FilterSubjects: []string{bus.EventsOfType(string(events.Confirmed)), bus.EventsOfType(string(events.Failed)),
			bus.EventsOfType(string(events.Expired))},
		// Buys made before the first engine ever ran are not taken up.
		DeliverPolicy: jetstream.DeliverNewPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       bus.AckWait,
		MaxDeliver:    maxEventDeliveries,
		// Room for the events an outage of one chain's RPC holds back for
		// their quarter of an hour (a message handed back with a delay
		// stays pending), so that the other chains' events still come.
		MaxAckPending: max(10*e.cfg.Consumers, 2000),
	})
	if err != nil {
		return fmt.Errorf("exits: consumer: %w", err)
	}
	e.queue.Store(&cons)
	pool, err := bus.Consume(cons, e.cfg.Consumers, e.handle, e.log)
	if err != nil {
		return fmt.Errorf("exits: %w", err)
	}
	// Announced only now, with the book loaded: the others hand this
	// engine its tokens on its first beat.
	goodbye, err := e.peers.announce()
	if err != nil {
		pool.Stop()
		return err
	}
	e.log.Info("exits engine started", "engine", e.cfg.ID, "positions", e.book.size(), "poll_interval", e.cfg.PollInterval)
	// No exit fires before the events that waited for this engine are
	// handled: a sale made while the engine was stopped, whose event is
	// still queued, bounds the positions bought before it, and an exit
	// fired first would sell its wallet's later tokens.
	if !e.caughtUp(ctx, cons, catchUpWait) {
		e.log.Warn("events that waited for the engine's start are not all handled yet; exits fire from now on", "waited", catchUpWait)
	}
	e.prices.run(ctx)
	// Goodbye first, so the others read this engine's tokens while it
	// finishes what it has in hand.
	goodbye()
	pool.Stop()
	e.prices.wait()
	// Sells still held for their budget stay firing in the bucket: the
	// other engines, or this one's next start, resume them.
	e.held.stop()
	e.log.Info("exits engine stopped")
	return nil
}
