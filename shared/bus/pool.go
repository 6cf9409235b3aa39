package bus

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Pull settings of every consumer. A pull request lives 5 s with a
// heartbeat every second, so a client notices within seconds that the
// consumer's leader moved (a NATS node died) and pulls again, instead of
// waiting for a 30 s pull to expire.
const (
	pullExpiry    = 5 * time.Second
	pullHeartbeat = time.Second
)

// AckWait is how long a consumer waits for an ack before redelivering.
// Handlers that take longer signal progress (see Consume), so a message is
// redelivered soon after its handler's process died, not minutes later.
const AckWait = 6 * time.Second

// Pool consumes a consumer's messages with at most a fixed number handled
// at once, each in its own goroutine.
type Pool struct {
	cc       jetstream.ConsumeContext
	inflight sync.WaitGroup
}

// Consume starts handling cons's messages, at most n at once. While a
// handler runs, the message is marked in progress every AckWait/3, so a
// slow handler keeps its message and a dead one loses it quickly.
func Consume(cons jetstream.Consumer, n int, handle func(jetstream.Msg), log *slog.Logger) (*Pool, error) {
	p := &Pool{}
	sem := make(chan struct{}, n)
	cc, err := cons.Consume(func(m jetstream.Msg) {
		sem <- struct{}{}
		p.inflight.Add(1)
		go func() {
			defer func() { <-sem; p.inflight.Done() }()
			done := make(chan struct{})
			go func() {
				t := time.NewTicker(AckWait / 3)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case <-t.C:
						_ = m.InProgress()
					}
				}
			}()
			handle(m)
			close(done)
		}()
	}, jetstream.PullMaxMessages(n), jetstream.PullExpiry(pullExpiry), jetstream.PullHeartbeat(pullHeartbeat),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			if log != nil {
				log.Warn("consumer trouble, pulling again", "err", err)
			}
		}))
	if err != nil {
		return nil, fmt.Errorf("consume: %w", err)
	}
	p.cc = cc
	return p, nil
}

// Stop stops taking messages and waits for the ones in hand; messages
// fetched but not yet handled go back to the stream for redelivery.
func (p *Pool) Stop() {
	p.cc.Drain()
	<-p.cc.Closed()
	p.inflight.Wait()
}
