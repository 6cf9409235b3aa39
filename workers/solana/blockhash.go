package solana

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tradeapi/tradeapi/shared/guard"
)

// recentBlockhash is a blockhash with the last block height at which a
// transaction signed on it can land.
type recentBlockhash struct {
	hash      sol.Hash
	lastValid uint64
	// asked is when the request that returned it was sent: its age is
	// counted from then, so a slow answer only makes it look older.
	asked time.Time
}

// blockhashCache keeps the latest blockhash so that an order can be signed
// without asking the chain for one. While run runs it reads the blockhash
// every refresh interval; get hands out the freshest one read, by run or by
// an order, if it was asked for less than maxAge ago, and otherwise reads
// one itself. A transaction signed on a blockhash maxAge old loses only that
// much of the minute or so its blockhash lives, and a cache that fails to
// refresh costs each order the round trip it cost before, never a stale
// blockhash.
type blockhashCache struct {
	fetch    func(context.Context) (sol.Hash, uint64, error) // one getLatestBlockhash
	refresh  time.Duration
	maxAge   time.Duration
	now      func() time.Time
	log      *slog.Logger
	failures prometheus.Counter // refreshes of run that failed

	latest  atomic.Pointer[recentBlockhash]
	running atomic.Bool
}

func newBlockhashCache(fetch func(context.Context) (sol.Hash, uint64, error), refresh, maxAge time.Duration, failures prometheus.Counter, log *slog.Logger) *blockhashCache {
	return &blockhashCache{fetch: fetch, refresh: refresh, maxAge: maxAge, now: time.Now, log: log, failures: failures}
}

// fresh returns the cached blockhash if it is younger than maxAge.
func (c *blockhashCache) fresh() (recentBlockhash, bool) {
	b := c.latest.Load()
	if b == nil || c.now().Sub(b.asked) >= c.maxAge {
		return recentBlockhash{}, false
	}
	return *b, true
}

// get returns a blockhash asked for less than maxAge ago: the cached one,
// or one read now.
func (c *blockhashCache) get(ctx context.Context) (recentBlockhash, error) {
	if b, ok := c.fresh(); ok {
		return b, nil
	}
	return c.read(ctx)
}

// read asks the chain for the latest blockhash and keeps it unless one
// asked for later is already kept (a slow answer to an earlier ask must not
// replace it).
func (c *blockhashCache) read(ctx context.Context) (recentBlockhash, error) {
	asked := c.now()
	hash, lastValid, err := c.fetch(ctx)
	if err != nil {
		return recentBlockhash{}, err
	}
	b := &recentBlockhash{hash: hash, lastValid: lastValid, asked: asked}
	for {
		cur := c.latest.Load()
		if cur != nil && b.asked.Before(cur.asked) {
			break
		}
		if c.latest.CompareAndSwap(cur, b) {
			break
		}
	}
	return *b, nil
}

// run refreshes the cached blockhash every refresh interval until ctx ends,
// then returns nil. A failed refresh is counted and logged (the first of a
// streak as a warning, the streak's end with its length); meanwhile orders
// read the blockhash themselves once the cached one is maxAge old.
func (c *blockhashCache) run(ctx context.Context) error {
	if !c.running.CompareAndSwap(false, true) {
		return errors.New("blockhash refresh is already running")
	}
	defer c.running.Store(false)
	tick := time.NewTicker(c.refresh)
	defer tick.Stop()
	failing := 0
	for {
		_, err := c.read(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			failing++
			c.failures.Inc()
			if failing == 1 {
				c.log.Warn("refresh latest blockhash failed; orders read it themselves while it fails", "err", err)
			} else {
				c.log.Debug("refresh latest blockhash failed again", "err", err, "failures", failing)
			}
		case failing > 0:
			c.log.Info("refresh latest blockhash recovered", "failures", failing)
			failing = 0
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Run keeps the latest blockhash fresh in the background until ctx ends,
// then returns nil, so that Sign does not ask the chain for it per order.
// Without Run, or while its refreshes fail, Sign reads the blockhash itself
// whenever the one it has is Config.BlockhashMaxAge old. Run returns an
// error if it is already running.
func (s *Signer) Run(ctx context.Context) error {
	return s.hashes.run(ctx)
}

// readWithBlockhash runs read, the reads of one order, and returns the
// blockhash the order signs on: the cached one when it is fresh, with no
// round trip and no goroutine, otherwise one read concurrently with read.
func (s *Signer) readWithBlockhash(ctx context.Context, read func(context.Context) error) (recentBlockhash, error) {
	if b, ok := s.hashes.fresh(); ok {
		return b, read(ctx)
	}
	var b recentBlockhash
	g, gctx := guard.WithContext(ctx)
	g.Go(func() error { return read(gctx) })
	g.Go(func() error {
		var err error
		b, err = s.hashes.get(gctx)
		return err
	})
	return b, g.Wait()
}
