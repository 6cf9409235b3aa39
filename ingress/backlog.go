package ingress

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// Backlog watches how much work waits for each chain's workers (jobs not
// yet delivered plus jobs delivered and not yet acked), so that ingress can
// refuse at once with OVERLOADED instead of queueing requests into
// timeouts.
type Backlog struct {
	js     jetstream.JetStream
	chains []string
	max    uint64
	every  time.Duration
	log    *slog.Logger

	mu      sync.RWMutex
	pending map[string]uint64
}

// NewBacklog returns a backlog over the given chains with a bound; a bound
// of 0 turns the check off.
func NewBacklog(js jetstream.JetStream, chains []string, max uint64, log *slog.Logger) *Backlog {
	metrics.SetMaxPending(max)
	return &Backlog{js: js, chains: chains, max: max, every: 250 * time.Millisecond, log: log,
		pending: map[string]uint64{}}
}

// Run polls the workers' consumers until ctx ends.
func (b *Backlog) Run(ctx context.Context) error {
	if b.max == 0 {
		<-ctx.Done()
		return nil
	}
	t := time.NewTicker(b.every)
	defer t.Stop()
	for {
		for _, chain := range b.chains {
			b.poll(ctx, chain)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

func (b *Backlog) poll(ctx context.Context, chain string) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	c, err := b.js.Consumer(cctx, bus.StreamOrders, bus.WorkerConsumer(chain))
	if err != nil {
		if !errors.Is(err, jetstream.ErrConsumerNotFound) && ctx.Err() == nil {
			b.log.Debug("read worker backlog", "chain", chain, "err", err)
		}
		return
	}
	info := c.CachedInfo()
	n := info.NumPending + uint64(info.NumAckPending)
	b.mu.Lock()
	b.pending[chain] = n
	b.mu.Unlock()
}

// Overloaded reports whether chain's backlog is past the bound.
func (b *Backlog) Overloaded(chain string) bool {
	if b == nil || b.max == 0 {
		return false
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.pending[chain] > b.max
}
