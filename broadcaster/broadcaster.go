// Package broadcaster sends signed transactions to their chains, answers the
// waiting ingress with the signatures, stores the order result and the
// account's trade history, and tracks every transaction that may land until
// it is confirmed, failed or expired.
//
// Money moves here, so every step is safe to run twice: a batch is acked
// only after its answer, its order record and its tracking are written,
// and a redelivered batch sends the same signed bytes again, which the
// chain takes as the transaction it already has. A transaction is called
// failed or expired only when it can no longer land: a send that may have
// reached the chain is tracked like a sent one, and an EVM transaction is
// expired only once another transaction took its nonce (see Resender).
package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Chain is what the broadcaster needs of a chain's RPC.
type Chain interface {
	// Send submits a signed transaction. Submitting one the chain has
	// already seen is a success. A refusal is a *Refused error; an error
	// for which endpoint.IsUnsent holds surely did not reach the chain;
	// any other may have, and may still land.
	Send(ctx context.Context, tx wire.SignedTx) error
	// Statuses returns the state of each signature, in order.
	Statuses(ctx context.Context, sigs []string) ([]Status, error)
	// Height is the chain's current block height, to tell expiry.
	Height(ctx context.Context) (uint64, error)
}

// Resender is a chain whose transactions do not expire with time (EVM): a
// transaction without a receipt can land for as long as its wallet's nonce
// is unused, however late. The tracker keeps such a transaction's bytes,
// sends them again while it waits, and calls it expired only once
// Superseded says another transaction took its nonce.
type Resender interface {
	Chain
	// Superseded reports, for each transaction, whether another
	// transaction used its wallet's nonce on chain: the wallet's count of
	// mined transactions is past the transaction's nonce, and the
	// transaction has no receipt of its own.
	Superseded(ctx context.Context, txs []wire.SignedTx) ([]bool, error)
}

// Rebroadcaster is a chain whose public transactions the tracker sends
// again, the same bytes, every Rebroadcast until they land or their
// blockhash expires: a node or a leader that dropped one (a restart, a
// full queue) would otherwise let it expire unlanded, where a re-send lands
// it. A landed transaction's re-send changes nothing (its signature is
// taken), and an anti_mev one is the relay's, never sent in public.
type Rebroadcaster interface {
	Chain
	rebroadcasts()
}

// Refused is a chain's refusal of a transaction; sending it again will not help.
type Refused struct {
	Reason string
	// Stale: refused for what the transaction was signed against, not for
	// itself: its blockhash unknown to the node (Solana) or its nonce used
	// by another transaction (EVM). The same bytes sent before may still
	// land (a node behind) or may have been dropped unlanded; they can no
	// longer be taken for failed, only for expired once the tracker sees
	// their blockhash or nonce gone.
	Stale bool
}

func (r *Refused) Error() string { return "refused: " + r.Reason }

// Status is a signature's state on chain.
type Status struct {
	// State is "" while unknown or not final enough, else confirmed or failed.
	State string
	Err   string
	// Slot is where the transaction landed, when that is known while its
	// State is not final yet (an EVM block waiting for confirmations, a
	// Solana block only processed), when
	// a relay says where a bundle landed, or when the chain holds the
	// transaction failed (it landed with an error); 0 otherwise: a failed
	// State with no Slot did not land (a relay failed or dropped it).
	Slot uint64
	// Fee is what the landed transaction paid, when the status tells it
	// (an EVM receipt: gas used at its price, and an OP-stack chain's L1
	// data fee); nil otherwise.
	Fee *big.Int
	// AsOf is the slot of the node that answered, when the chain tells it
	// (Solana): a provider's pool may answer from nodes apart, and one
	// behind does not know yet a transaction that landed after its slot.
	// 0 when the chain does not tell.
	AsOf uint64
	// Dropped: a relay's verdict that a bundle it took did not land, with
	// no transaction of it failing (not in a block, an auction lost): the
	// same bytes sent again may land until their blockhash expires.
	Dropped bool
}

// HeightSlotter is a Chain whose Height tells at which slot it read the
// height (Solana): a transaction past its last valid height is expired
// only on the word of a node that has reached the slot at which it was
// first seen so (Status.AsOf).
type HeightSlotter interface {
	HeightSlot() uint64
}

// behind reports whether a status from a node at slot asOf tells nothing
// of what landed by slot: its node had not reached it. A status that tells
// no slot (asOf 0: the chain does not say) is not behind.
func behind(asOf, slot uint64) bool { return asOf != 0 && asOf < slot }

// heightSlot is the slot of chain's last height read, 0 when it does not
// tell.
func heightSlot(chain Chain) uint64 {
	if hs, ok := chain.(HeightSlotter); ok {
		return hs.HeightSlot()
	}
	return 0
}

// Config configures the broadcaster.
type Config struct {
	// Concurrency is how many batches are handled at once.
	Concurrency int
	// AckWait is how long a batch may be held before it is redelivered.
	AckWait time.Duration
	// MaxAttempts is how many times a batch is sent before a transaction
	// that could not be sent is given up.
	MaxAttempts int
	// Poll is how often the tracker asks the chains about what it tracks.
	Poll time.Duration
	// ConfirmAfter is how long a transaction that expires with time may
	// stay unseen before it is expired: a Solana transaction whose last
	// valid block height is unknown. An EVM transaction never expires with
	// time (see Resender).
	ConfirmAfter time.Duration
	// Resend is how often an EVM transaction without a receipt is sent
	// again, the same bytes, while it can still land.
	Resend time.Duration
	// Rebroadcast is how often a public transaction of a Rebroadcaster
	// (Solana) that the chain has not seen yet is sent again while its
	// blockhash is valid (2 s, as Solana's RPC nodes retry).
	Rebroadcast time.Duration
	// NonceRecheck is how long an EVM transaction whose nonce was seen used
	// by another transaction is watched before it is called expired: one
	// node of a provider's pool may be a block ahead of the node that
	// answered for the receipt.
	NonceRecheck time.Duration
	// ExpiryRecheck is how long a Solana transaction seen past its last
	// valid block height with no status is watched before it is called
	// expired: a provider's pool may answer the height from a node ahead
	// and the status from one behind, which has not seen the block the
	// transaction landed in yet.
	ExpiryRecheck time.Duration
	// AdoptEvery is how often the tracking bucket is listed for orders
	// another broadcaster tracks, and AdoptAfter how long such an order
	// stays listed, unsettled, before this one tracks it too: the other
	// may have stopped for good (see tracker.adopt).
	AdoptEvery, AdoptAfter time.Duration
	// Network, when set, names the network this broadcaster sends each
	// chain's transactions on (config.Config.Network). A batch whose
	// worker signed it on another (bus.HeaderNetwork: one of them left on
	// the local chains, test doubles, beside the other's public network)
	// is handed back, unsent, for a broadcaster of its network, and its
	// tracking is never taken over: sent here, it would reach a chain its
	// signer did not read (the local EVM chains have the public ones'
	// chain ids), or be refused there and failed unsent.
	Network func(chain string) string
}

func (c *Config) defaults() {
	if c.Concurrency < 1 {
		c.Concurrency = 128
	}
	if c.AckWait <= 0 {
		c.AckWait = bus.AckWait
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 3
	}
	if c.Poll <= 0 {
		c.Poll = 300 * time.Millisecond
	}
	if c.AdoptEvery <= 0 {
		c.AdoptEvery = 5 * time.Second
	}
	if c.AdoptAfter <= 0 {
		c.AdoptAfter = 15 * time.Second
	}
	if c.ConfirmAfter <= 0 {
		c.ConfirmAfter = 90 * time.Second
	}
	if c.Resend <= 0 {
		c.Resend = 10 * time.Second
	}
	if c.Rebroadcast <= 0 {
		c.Rebroadcast = 2 * time.Second
	}
	if c.NonceRecheck <= 0 {
		c.NonceRecheck = 2 * time.Second
	}
	if c.ExpiryRecheck <= 0 {
		c.ExpiryRecheck = 2 * time.Second
	}
}

// Broadcaster consumes signed batches of every configured chain.
type Broadcaster struct {
	cfg     Config
	nc      *nats.Conn
	js      jetstream.JetStream
	b       *bus.Buckets
	orders  *orders.Store
	chains  map[string]Chain
	tracker *tracker
	events  *events.Publisher
	log     *slog.Logger
	// traded remembers the trade-history keys seen or written bought for
	// good lately (see joinTrade).
	traded recentKeys
	// retried remembers the deliveries of batches this process handed back
	// to try their sends again (retryKey): the next delivery knows what
	// that one did.
	retried recentKeys
	// stopping closes when Run is told to stop: a handler waiting on the
	// store hands its batch back instead of holding the stop up.
	stopping chan struct{}
	// warns says a batch of another network once a minute.
	warns lograte.Warner
}

// handBack gives a batch back to the stream while this broadcaster stops,
// for another broadcaster (or this one restarted) to take: after a pause,
// since until its consumer's drain ends the stream may hand it straight back
// here, where it would be given back again, each time spending one of its
// deliveries, until the last (which lands on whatever it is told) came to
// a broadcaster on its way out.
func handBack(m jetstream.Msg) { _ = m.NakWithDelay(handBackDelay) }

// handBackDelay is handBack's pause: about how long a consumer's drain may
// take (bus.StopConsuming).
const handBackDelay = 2 * time.Second

// New returns a broadcaster for the given chains.
func New(cfg Config, nc *nats.Conn, js jetstream.JetStream, b *bus.Buckets, chains map[string]Chain, log *slog.Logger) *Broadcaster {
	cfg.defaults()
	log = log.With("component", "broadcaster")
	br := &Broadcaster{cfg: cfg, nc: nc, js: js, b: b, orders: orders.NewStore(b.Orders), chains: chains,
		events: events.NewPublisher(js, log), log: log, traded: recentKeys{ttl: tradeKeyTTL, max: tradeKeysMax},
		retried: recentKeys{ttl: time.Minute, max: tradeKeysMax}, stopping: make(chan struct{})}
	br.tracker = newTracker(br)
	return br
}

// Run consumes until ctx ends, then finishes the batches in hand.
func (br *Broadcaster) Run(ctx context.Context) error {
	metrics.Redeliveries.WithLabelValues(bus.BroadcasterConsumer).Add(0)
	metrics.Redeliveries.WithLabelValues(bus.GivenUpConsumer).Add(0)
	for name, chain := range br.chains {
		chainVenues := venues.EVMVenues
		if name == wire.ChainSolana {
			chainVenues = venues.SolanaVenues
		}
		for _, v := range append(slices.Clone(chainVenues), metrics.VenueUnknown) {
			for _, s := range []string{metrics.OrderConfirmed, metrics.OrderFailed, metrics.OrderExpired} {
				metrics.OrdersFinal.With(name, v, s).Add(0)
			}
		}
		// A series that first appears with a count loses that count to
		// rate() and increase(): the first expiries of an outage would not
		// reach the landing alert.
		for _, sender := range []string{metrics.SenderRPC, metrics.SenderRelay} {
			for _, o := range []string{metrics.TxSent, metrics.TxSendFailed, metrics.TxConfirmed, metrics.TxFailed, metrics.TxDropped, metrics.TxExpired} {
				metrics.Transactions.With(name, sender, o).Add(0)
			}
			metrics.Landing.WithLabelValues(name, sender)
		}
		methods := []string{"send", "height", "statuses"}
		if _, ok := chain.(Resender); ok {
			methods = append(methods, "nonce", "resend")
		}
		if _, ok := chain.(RentReader); ok {
			methods = append(methods, "transaction")
		}
		for _, m := range methods {
			metrics.RPCErrors.WithLabelValues(name, m).Add(0)
		}
		if _, ok := chain.(Rebroadcaster); ok {
			metrics.RPCErrors.WithLabelValues(name, "resend").Add(0)
			metrics.Rebroadcasts.WithLabelValues(name).Add(0)
		}
	}
	// One durable consumer over every chain's batches: several broadcaster
	// processes share the work, and a batch one of them held when it died
	// goes to another after AckWait. Each chain's one subject of earlier
	// versions is served too, so that what they left in flight is sent.
	var filters []string
	names := slices.Sorted(maps.Keys(br.chains))
	for _, name := range names {
		filters = append(filters, bus.ChainBatches(name), bus.TxsSubject(name))
	}
	if len(filters) == 0 {
		return errors.New("broadcaster: no chains configured")
	}
	cons, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{
		Durable:        bus.BroadcasterConsumer,
		FilterSubjects: filters,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        br.cfg.AckWait,
		MaxDeliver:     br.maxDeliver(),
		MaxAckPending:  10 * br.cfg.Concurrency,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting: nothing was taken
		}
		return fmt.Errorf("broadcaster: consumer: %w", err)
	}
	// What a previous run was tracking is picked up before new batches
	// come, so nothing it sent is left unsettled.
	if err := br.tracker.load(ctx); err != nil {
		br.log.Warn("reload tracked orders", "err", err)
	}
	// The tracker outlives ctx until the batches in hand are finished: they
	// add to it.
	trackCtx, stopTrack := context.WithCancel(context.Background())
	trackDone := make(chan struct{})
	go func() { defer close(trackDone); br.tracker.run(trackCtx) }()

	// The server's notices of the batches whose every delivery died
	// (GivenUpSubject): each is taken once more, so that its order is
	// settled, at most givenUpDeliveries times (a batch that kills every
	// process taking it must not go on doing so for a day).
	givenUp, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamTxsGivenUp, jetstream.ConsumerConfig{
		Durable:       bus.GivenUpConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       br.cfg.AckWait,
		MaxDeliver:    givenUpDeliveries,
		MaxAckPending: br.cfg.Concurrency,
	})
	if err != nil {
		stopTrack()
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("broadcaster: consumer: %w", err)
	}
	pool, err := bus.Consume(cons, br.cfg.Concurrency, br.handle, br.log)
	if err != nil {
		stopTrack()
		return fmt.Errorf("broadcaster: %w", err)
	}
	givenUpPool, err := bus.Consume(givenUp, 2, br.handleGivenUp, br.log)
	if err != nil {
		pool.Stop()
		stopTrack()
		return fmt.Errorf("broadcaster: %w", err)
	}
	br.log.Info("broadcaster started", "chains", strings.Join(names, ","))
	<-ctx.Done()
	close(br.stopping)
	// Both stop taking at once: a notice taken while the batches in hand
	// finish would hold the stop.
	var stops sync.WaitGroup
	for _, p := range []*bus.Pool{pool, givenUpPool} {
		stops.Go(p.Stop)
	}
	stops.Wait()
	stopTrack()
	<-trackDone
	br.log.Info("broadcaster stopped")
	return nil
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// senderOf names the path a transaction is sent by, for the metrics.
func senderOf(tx wire.SignedTx) string {
	if tx.Private {
		return metrics.SenderRelay
	}
	return metrics.SenderRPC
}
