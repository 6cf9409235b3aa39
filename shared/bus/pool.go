package bus

import (
	"fmt"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// Pool consumes a consumer's messages with at most a fixed number handled
// at once, each in its own goroutine.
type Pool struct {
	cc       jetstream.ConsumeContext
	inflight sync.WaitGroup
}

// Consume starts handling cons's messages, at most n at once.
func Consume(cons jetstream.Consumer, n int, handle func(jetstream.Msg)) (*Pool, error) {
	p := &Pool{}
	sem := make(chan struct{}, n)
	cc, err := cons.Consume(func(m jetstream.Msg) {
		sem <- struct{}{}
		p.inflight.Add(1)
		go func() {
			defer func() { <-sem; p.inflight.Done() }()
			handle(m)
		}()
	}, jetstream.PullMaxMessages(n))
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
