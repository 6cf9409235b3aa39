package ingress

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Pipeline publishes jobs into JetStream and routes replies, which come over
// core NATS to one inbox subscription per process, back to the waiting
// request.
type Pipeline struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	prefix string
	sub    *nats.Subscription
	log    *slog.Logger

	mu      sync.Mutex
	waiting map[string]chan *wire.Reply

	// drained ends every wait for a reply (Drain).
	drained   chan struct{}
	drainOnce sync.Once

	// network names the network this process serves a chain on
	// (SetNetworks); nil says nothing on the jobs.
	network func(chain string) string
}

// SetNetworks has every job say which network this process serves its
// chain on (config.Config.Network), so that a worker on another network
// does not sign it: the beats keep such a worker out of the count of a
// chain's workers, but it shares the chain's consumer with the others.
// Call it before the first Submit.
func (p *Pipeline) SetNetworks(network func(chain string) string) { p.network = network }

// NewPipeline subscribes to the process's reply inbox.
func NewPipeline(nc *nats.Conn, js jetstream.JetStream, log *slog.Logger) (*Pipeline, error) {
	p := &Pipeline{nc: nc, js: js, prefix: nats.NewInbox() + ".", log: log,
		waiting: make(map[string]chan *wire.Reply), drained: make(chan struct{})}
	sub, err := nc.Subscribe(p.prefix+"*", p.onReply)
	if err != nil {
		return nil, fmt.Errorf("subscribe reply inbox: %w", err)
	}
	sub.SetPendingLimits(-1, -1)
	p.sub = sub
	return p, nil
}

// Close stops the reply subscription.
func (p *Pipeline) Close() error { return p.sub.Unsubscribe() }

// Drain ends the wait of every request for its reply, now and from now on,
// as a passed deadline would: the process is stopping, and its orders go
// on (or are handed back) without it.
func (p *Pipeline) Drain() { p.drainOnce.Do(func() { close(p.drained) }) }

func (p *Pipeline) onReply(m *nats.Msg) {
	id := m.Subject[len(p.prefix):]
	p.mu.Lock()
	ch, ok := p.waiting[id]
	if ok {
		delete(p.waiting, id)
	}
	p.mu.Unlock()
	if !ok {
		// The request timed out already; the order record has the result.
		return
	}
	var r wire.Reply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		p.log.Error("bad reply", "order_id", id, "err", err)
		return
	}
	ch <- &r
}

// Submit publishes the job to chain's workers, calls queued once the
// stream has it, and waits for its reply until ctx ends. A nil reply with
// a nil error means the wait ended (the deadline passed, the caller went
// away, or the process drains) after the job was accepted.
//
// The publish follows ctx's deadline but not its cancellation: a request
// is charged before it gets here, and a charged request's job is published
// even when its client has gone, so that the charge always has its order
// and no order is left half-published by a client that hung up. (Ingress
// passes a ctx its client's leaving does not end at all, so that the
// answer kept for an Idempotency-Key is the order's.)
func (p *Pipeline) Submit(ctx context.Context, chain string, orderID string, job any, queued func()) (*wire.Reply, error) {
	data, err := json.Marshal(job)
	if err != nil {
		return nil, fmt.Errorf("encode job: %w", err)
	}
	ch := make(chan *wire.Reply, 1)
	p.mu.Lock()
	p.waiting[orderID] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waiting, orderID)
		p.mu.Unlock()
	}()
	msg := &nats.Msg{Subject: bus.OrdersSubject(chain), Data: data, Header: nats.Header{}}
	msg.Header.Set(bus.HeaderReply, p.prefix+orderID)
	msg.Header.Set(bus.HeaderOrder, orderID)
	if p.network != nil {
		msg.Header.Set(bus.HeaderNetwork, p.network(chain))
	}
	if k, ok := job.(interface{ JobKind() string }); ok {
		msg.Header.Set(bus.HeaderKind, k.JobKind())
	}
	pctx, cancel := detached(ctx)
	defer cancel()
	if err := p.publish(pctx, msg, orderID); err != nil {
		return nil, err
	}
	queued()
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return nil, nil
	case <-p.drained:
		return nil, nil
	}
}

// detached returns a context with ctx's deadline and values but not its
// cancellation.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	d := context.WithoutCancel(ctx)
	if dl, ok := ctx.Deadline(); ok {
		return context.WithDeadline(d, dl)
	}
	return context.WithCancel(d)
}

// publish puts msg in its stream with orderID as Nats-Msg-Id. A stream
// failing over answers nothing for a few seconds. Publishing again with
// the same Nats-Msg-Id is safe (the stream keeps one copy), so it tries
// until ctx ends; only then is the outcome unknown.
func (p *Pipeline) publish(ctx context.Context, msg *nats.Msg, orderID string) error {
	for try := 0; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := p.js.PublishMsg(pctx, msg, jetstream.WithMsgID(orderID))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("publish job: %w", err)
		}
		p.log.Warn("publish job, retrying", "order_id", orderID, "try", try, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("publish job: %w", err)
		case <-time.After(min(50*time.Millisecond<<min(try, 4), time.Second)):
		}
	}
}

// Void voids an order in TXS (bus.Void).
func (p *Pipeline) Void(ctx context.Context, chains []string, orderID string) (bool, error) {
	return bus.Void(ctx, p.js, chains, orderID)
}

// newOrderID returns an order id with the listener's prefix.
func newOrderID(prefix string) string { return prefix + nuid.Next() }

// Presence tracks which chains have a worker consuming, from the workers'
// heartbeats.
type Presence struct {
	nc   *nats.Conn
	sub  *nats.Subscription
	ttl  time.Duration
	mu   sync.RWMutex
	seen map[string]map[string]time.Time // chain -> worker id -> last beat
	// network names the network this process serves a chain on
	// (config.Config.Network).
	network func(chain string) string
	log     *slog.Logger
	warns   lograte.Warner
}

// beatNetwork is the network a beat's worker serves its chain on: as it
// says, or, from an earlier version saying only whether it is on the local
// chains, local or public.
func beatNetwork(b wire.Beat) string {
	switch {
	case b.Network != "":
		return b.Network
	case b.Local:
		return wire.NetworkLocal
	}
	return wire.NetworkPublic
}

// NewPresence subscribes to the heartbeats and asks every worker to
// announce itself now. network names the network this process serves a
// chain on (config.Config.Network): a worker on another network than the
// one it serves the chain on (a worker left on the local chains beside an
// ingress of the public network, or the reverse) is not counted, and said
// once a minute on log. With network nil every worker counts.
func NewPresence(nc *nats.Conn, ttl time.Duration, network func(chain string) string, log *slog.Logger) (*Presence, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Presence{nc: nc, ttl: ttl, seen: map[string]map[string]time.Time{}, network: network, log: log}
	sub, err := nc.Subscribe(bus.PresenceSubject("*"), func(m *nats.Msg) {
		var b wire.Beat
		if json.Unmarshal(m.Data, &b) != nil || b.Chain == "" {
			return
		}
		if p.network != nil && !b.Leaving && beatNetwork(b) != p.network(b.Chain) {
			p.warns.Error(p.log, "network "+b.Chain, "a worker of the chain signs on another network than this process serves it on: its orders are not routed to it",
				"chain", b.Chain, "worker", b.Worker, "worker_network", beatNetwork(b), "served_network", p.network(b.Chain))
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		w := p.seen[b.Chain]
		if w == nil {
			w = map[string]time.Time{}
			p.seen[b.Chain] = w
		}
		if b.Leaving {
			delete(w, b.Worker)
			return
		}
		now := time.Now()
		w[b.Worker] = now
		// A worker that died without its goodbye is forgotten once its
		// beats are long over: ids are new on every start.
		for id, t := range w {
			if now.Sub(t) > forgetWorker {
				delete(w, id)
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("subscribe presence: %w", err)
	}
	p.sub = sub
	if err := nc.Publish(bus.PresenceProbe, nil); err != nil {
		return nil, fmt.Errorf("probe presence: %w", err)
	}
	_ = nc.Flush()
	return p, nil
}

// Close stops listening.
func (p *Presence) Close() error { return p.sub.Unsubscribe() }

// Await waits until a worker of each of chains has beaten, for at most
// max: an ingress starting beside running workers hears from them (its
// probe asks them) before its first order, which would otherwise be
// refused CHAIN_UNAVAILABLE for the moment their answers take. It returns
// the chains not heard from.
func (p *Presence) Await(ctx context.Context, chains []string, max time.Duration) []string {
	deadline := time.Now().Add(max)
	for {
		var missing []string
		for _, c := range chains {
			if !p.Available(c) {
				missing = append(missing, c)
			}
		}
		if len(missing) == 0 || !time.Now().Before(deadline) {
			return missing
		}
		select {
		case <-ctx.Done():
			return missing
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Seen reports whether a worker of chain ever beat since p began.
func (p *Presence) Seen(chain string) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.seen[chain] != nil
}

// forgetWorker is how long after its last beat a worker is forgotten.
const forgetWorker = time.Minute

// Count returns how many workers of chain beat within the TTL.
func (p *Presence) Count(chain string) int {
	now := time.Now()
	p.mu.RLock()
	defer p.mu.RUnlock()
	n := 0
	for _, t := range p.seen[chain] {
		if now.Sub(t) < p.ttl {
			n++
		}
	}
	return n
}

// Available reports whether a worker of chain beat within the TTL.
func (p *Presence) Available(chain string) bool {
	now := time.Now()
	p.mu.RLock()
	defer p.mu.RUnlock()
	for _, t := range p.seen[chain] {
		if now.Sub(t) < p.ttl {
			return true
		}
	}
	return false
}
