package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bounds of the order listing.
const (
	defaultOrderLimit = 20
	maxOrderLimit     = 100
)

// maxEventScan bounds the events one listing reads. The account's events
// are read oldest first from a start time; when more than this many are
// pending, a later start time is tried (see recentOrderIDs). A variable so
// that tests can reach the bound with a few events.
var maxEventScan = 2000

// scanWindows are the start times tried by recentOrderIDs, widest first:
// everything the EVENTS stream keeps (a day), then shorter spans back from
// now for an account too busy to read a whole day of.
var scanWindows = []time.Duration{0, time.Hour, 10 * time.Minute, time.Minute}

// activity answers the read-only routes about what an account did: its
// rate-budget usage and its recent orders. It reads NATS state that other
// roles write (the budget bucket, the EVENTS stream, the orders bucket),
// opening each on first use so that the registry starts without them.
type activity struct {
	js        jetstream.JetStream
	store     *store
	explorers map[string]string
	log       *slog.Logger

	mu     sync.Mutex
	budget *budget.Budget
	orders *orders.Store
	events jetstream.Stream
}

func newActivity(js jetstream.JetStream, st *store, explorers map[string]string, log *slog.Logger) *activity {
	return &activity{js: js, store: st, explorers: explorers, log: log}
}

// open binds the buckets and the stream once. Until it succeeds, every
// call tries again, so the routes start working as soon as the roles that
// declare these exist.
func (a *activity) open(ctx context.Context) error {
	// Held across the lookups, so that two first requests do not both
	// bind them; afterwards the check is one field read.
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.budget != nil {
		return nil
	}
	bkv, err := a.js.KeyValue(ctx, bus.BucketBudget)
	if err != nil {
		return fmt.Errorf("open bucket %s: %w", bus.BucketBudget, err)
	}
	okv, err := a.js.KeyValue(ctx, bus.BucketOrders)
	if err != nil {
		return fmt.Errorf("open bucket %s: %w", bus.BucketOrders, err)
	}
	st, err := a.js.Stream(ctx, bus.StreamEvents)
	if err != nil {
		return fmt.Errorf("open stream %s: %w", bus.StreamEvents, err)
	}
	a.budget, a.orders, a.events = budget.New(bkv, a.log), orders.NewStore(okv), st
	return nil
}

// unread answers a view whose read of NATS failed (its streams or buckets
// away, slow past the request's time, or a record that does not decode):
// 503, saying what was not read,
// and logged; a client that left is answered as gone.
func (a *activity) unread(c *gin.Context, what string, err error) {
	if envelope.ClientGone(c, err) {
		envelope.Fail(c, err)
		return
	}
	a.log.Warn("admin view not read from NATS", "what", what, "err", err)
	envelope.Fail(c, apierr.Newf(apierr.Overloaded, "", "%s could not be read from NATS; nothing was changed, try again", what))
}

// windowUsage is one family's budget as GET .../usage shows it.
type windowUsage struct {
	Limits    registry.Limits `json:"limits"`
	Used      registry.Limits `json:"used"`
	Remaining registry.Limits `json:"remaining"`
	// ResetSeconds is the time until each window starts over.
	ResetSeconds registry.Limits `json:"reset_seconds"`
}

// handleUsage answers GET /admin/v1/accounts/:id/usage: for each family,
// the limits and how much of the current minute, hour and week windows is
// used, as ingress counts them.
func (a *activity) handleUsage(c *gin.Context) {
	ctx := c.Request.Context()
	// The account first: an unknown id is 404 whatever state NATS is in.
	st, err := a.store.account(c.Param("id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	if err := a.open(ctx); err != nil {
		a.unread(c, "the account's usage", err)
		return
	}
	out := make(map[wire.Family]windowUsage, len(registry.Families))
	for _, f := range registry.Families {
		// The budget reads the counters against the figures given, so the
		// store's figures are passed: the same ones ingress charges with.
		lim := st.rec.limits(f)
		s, err := a.budget.Read(ctx, st.rec.ID, f, budget.Limits{Minute: lim.Minute, Hour: lim.Hour, Week: lim.Week})
		if err != nil {
			a.unread(c, "the account's usage", err)
			return
		}
		// Used is what each window counted, which a limit lowered after
		// the window's charges leaves above it (derived from what remains,
		// it read as the lowered limit).
		out[f] = windowUsage{
			Limits:       lim,
			Used:         registry.Limits{Minute: s.Used.Minute, Hour: s.Used.Hour, Week: s.Used.Week},
			Remaining:    registry.Limits{Minute: s.Remaining.Minute, Hour: s.Remaining.Hour, Week: s.Remaining.Week},
			ResetSeconds: registry.Limits{Minute: s.Reset[0], Hour: s.Reset[1], Week: s.Reset[2]},
		}
	}
	envelope.OK(c, http.StatusOK, gin.H{"usage": out})
}

// orderSig is one transaction of a listed order.
type orderSig struct {
	wire.SigState
	// ExplorerURL links the signature to the chain's explorer; empty when
	// the chain has none configured.
	ExplorerURL string `json:"explorer_url"`
}

// orderView is one order of GET .../orders.
type orderView struct {
	OrderID    string       `json:"order_id"`
	Kind       string       `json:"kind"`
	Family     wire.Family  `json:"family"`
	Chain      string       `json:"chain"`
	Side       wire.Side    `json:"side,omitempty"`
	Address    string       `json:"address,omitempty"`
	State      string       `json:"state"`
	Skipped    bool         `json:"skipped"`
	Signatures []orderSig   `json:"signatures"`
	Error      *apierr.Body `json:"error,omitempty"`
	CreatedAt  time.Time    `json:"created_at"`
	UpdatedAt  time.Time    `json:"updated_at"`
}

// handleOrders answers GET /admin/v1/accounts/:id/orders[?limit=n]: the
// account's most recent orders that reached the pipeline's events (a day's
// worth at most, as the EVENTS stream keeps them), newest first, each as
// its order record stands now.
func (a *activity) handleOrders(c *gin.Context) {
	ctx := c.Request.Context()
	limit := defaultOrderLimit
	// Checked before anything is read, so a bad limit costs nothing.
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxOrderLimit {
			envelope.Fail(c, apierr.Invalid("limit", "limit must be a whole number from 1 to %d", maxOrderLimit))
			return
		}
		limit = n
	}
	st, err := a.store.account(c.Param("id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	if err := a.open(ctx); err != nil {
		a.unread(c, "the account's orders", err)
		return
	}
	ids, err := a.recentOrderIDs(ctx, st.rec.ID, limit)
	if err != nil {
		a.unread(c, "the account's orders", err)
		return
	}
	// [] rather than null when there are none, for the console's loop.
	out := make([]orderView, 0, len(ids))
	for _, id := range ids {
		o, err := a.orders.Get(ctx, id)
		if errors.Is(err, orders.ErrNotFound) {
			continue // past the orders bucket's TTL
		}
		if err != nil {
			a.unread(c, "the account's orders", err)
			return
		}
		// The events were filtered by account already; checking the order
		// itself too means a mislabelled event can never show another
		// account's order.
		if o.AccountID != st.rec.ID {
			continue
		}
		out = append(out, a.view(o))
	}
	// Newest first by creation, as the order records tell it: the events
	// of two orders made at once may have reached the stream either way.
	slices.SortStableFunc(out, func(x, y orderView) int { return y.CreatedAt.Compare(x.CreatedAt) })
	envelope.OK(c, http.StatusOK, gin.H{"orders": out})
}

// view is an order as the listing shows it, each signature with its
// explorer link.
func (a *activity) view(o *wire.Order) orderView {
	v := orderView{OrderID: o.OrderID, Kind: o.Kind, Family: o.Family, Chain: o.Chain, Side: o.Side,
		Address: o.Token, State: o.State, Skipped: o.Skipped, Error: o.Error, CreatedAt: o.CreatedAt,
		UpdatedAt: o.UpdatedAt, Signatures: make([]orderSig, len(o.Signatures))}
	for i, s := range o.Signatures {
		v.Signatures[i] = orderSig{SigState: s, ExplorerURL: a.explorerURL(o.Chain, s.Signature)}
	}
	return v
}

// explorerURL fills the chain's pattern with a signature. Signatures are
// base58 or 0x-hex; anything else gets no link rather than an odd URL.
func (a *activity) explorerURL(chain, sig string) string {
	p, ok := a.explorers[chain]
	if !ok || sig == "" || strings.IndexFunc(sig, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) >= 0 {
		return ""
	}
	return fmt.Sprintf(p, sig)
}

// recentOrderIDs returns the ids of the account's latest orders, newest
// first, at most limit of them.
//
// The account's events are the only index of its orders: the EVENTS stream
// files them under tapi.events.<account>.<type>, so a consumer filtered on
// that subject reads this account's events and no other's, and the cost
// scales with the account's own activity, never with the whole orders
// bucket. Since a consumer reads oldest first, the widest span whose
// pending count is within maxEventScan is read. An account with more than
// maxEventScan events in the last minute (over 30 a second, far past the
// default budget of 60 a minute) gets the first maxEventScan of that
// minute: a bounded answer rather than an unbounded read.
func (a *activity) recentOrderIDs(ctx context.Context, account string, limit int) ([]string, error) {
	var cons jetstream.Consumer
	for i, back := range scanWindows {
		// An ephemeral reader: no acks (reading changes nothing), in
		// memory, and expired by the server should dropConsumer never run.
		cfg := jetstream.ConsumerConfig{
			FilterSubject:     bus.AccountEvents(account),
			AckPolicy:         jetstream.AckNonePolicy,
			MemoryStorage:     true,
			InactiveThreshold: 30 * time.Second,
			DeliverPolicy:     jetstream.DeliverAllPolicy,
		}
		if back > 0 {
			start := time.Now().Add(-back)
			cfg.DeliverPolicy, cfg.OptStartTime = jetstream.DeliverByStartTimePolicy, &start
		}
		c, err := a.events.CreateConsumer(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("read events of %s: %w", account, err)
		}
		// The consumer's creation answer already says how many events
		// match: decide on the window before reading any of them.
		// The narrowest window is kept even when it is over the bound:
		// an answer capped at maxEventScan beats no answer.
		if c.CachedInfo().NumPending <= uint64(maxEventScan) || i == len(scanWindows)-1 {
			cons = c
			break
		}
		a.dropConsumer(c)
	}
	defer a.dropConsumer(cons)

	pending := min(int(cons.CachedInfo().NumPending), maxEventScan)
	// An order has several events (broadcast, confirmed, an exit fired
	// hours later, ...); its first one, emitted as it was made, decides
	// where it ranks: the newest orders are the ones made last, not the
	// ones that changed last (an old buy whose exit fired must not push a
	// newer order out of the list). An order made before a narrowed
	// window (an account too busy for a day's read) ranks by its first
	// event inside it.
	first := map[string]int{} // order id -> position of its first event
	pos := 0
	// Fetch in batches of at most 256, bounded in time, so a listing
	// never waits on a stream that has less than it was told.
	for read := 0; read < pending; {
		batch, err := cons.Fetch(min(pending-read, 256), jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			return nil, fmt.Errorf("read events of %s: %w", account, err)
		}
		n := 0
		for msg := range batch.Messages() {
			n++
			var ev events.Event
			// A bad event is skipped, not fatal: one damaged message must
			// not take the whole listing down.
			if err := json.Unmarshal(msg.Data(), &ev); err != nil || ev.OrderID == "" {
				a.log.Warn("ignoring undecodable order event", "subject", msg.Subject(), "err", err)
				continue
			}
			if _, seen := first[ev.OrderID]; !seen {
				first[ev.OrderID] = pos
			}
			pos++
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return nil, fmt.Errorf("read events of %s: %w", account, err)
		}
		if n == 0 {
			break // the stream dropped old events meanwhile
		}
		read += n
	}
	// Made last first, then cut to the limit.
	ids := make([]string, 0, len(first))
	for id := range first {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int { return first[y] - first[x] })
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return ids, nil
}

// dropConsumer deletes a listing's consumer now rather than letting the
// server expire it.
func (a *activity) dropConsumer(c jetstream.Consumer) {
	// A context of its own: the request's may be cancelled already (the
	// client went away), and the consumer should still go.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := a.events.DeleteConsumer(ctx, c.CachedInfo().Name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		a.log.Debug("delete event listing consumer", "err", err)
	}
}
