package bus

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ConsumeSteady is cons.Consume (handler, opts), started afresh whenever it
// misses the server's heartbeats, but after a pull that found no leader of
// the consumer (see errored). nats.go answers a missed heartbeat by
// asking for a new batch without withdrawing the pull request it had out,
// so every stall of the process (a pause, a long collection, a frozen VM)
// left one more of its requests waiting on the consumer for good: the
// process then took a larger share of the consumer's messages than its
// peers, more than it handles at once, and the consumer's waiting-request
// count no longer told how many processes pull. A fresh start withdraws
// the old requests with the old subscription, which is drained: the
// messages it had buffered still reach handler, never two at once with
// the new one's (handler is called by one consuming at a time, as nats.go
// calls it), and none waits out its ack wait for a redelivery. The pull
// nats.go sent with the missed heartbeat goes with the old subscription
// too: what a leader hands it before it learns that waits out its ack
// wait, which is why a consuming no request of which can be waiting is
// not started afresh.
// onErr, when set, is told of every error, with the returned context.
func ConsumeSteady(cons jetstream.Consumer, handler jetstream.MessageHandler, onErr func(jetstream.ConsumeContext, error),
	opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	s := &steady{cons: cons, onErr: onErr, closed: make(chan struct{})}
	var one sync.Mutex
	s.handler = func(m jetstream.Msg) {
		one.Lock()
		defer one.Unlock()
		handler(m)
	}
	s.opts = append(append([]jetstream.PullConsumeOpt(nil), opts...), jetstream.ConsumeErrHandler(s.errored))
	cc, err := cons.Consume(s.handler, s.opts...)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.cc, s.open = cc, 1
	s.mu.Unlock()
	go s.watch(cc)
	return s, nil
}

// steady is ConsumeSteady's consume context.
type steady struct {
	cons    jetstream.Consumer
	handler jetstream.MessageHandler
	onErr   func(jetstream.ConsumeContext, error)
	opts    []jetstream.PullConsumeOpt

	mu       sync.Mutex
	cc       jetstream.ConsumeContext
	open     int  // consumings not yet closed: the current, and replaced ones still draining
	done     bool // the current consuming closed
	ending   bool
	ended    bool // closed
	closed   chan struct{}
	restarts int
	// unserved holds the consumings whose last pull found no leader of
	// the consumer, with when.
	unserved map[jetstream.ConsumeContext]time.Time
}

// watch notes cc's end, and closes the context once the current consuming
// has ended (stopped or drained, or by itself: nats.go stops a consuming
// whose consumer was deleted or whose connection closed) and no replaced
// one still drains into the handler: after Closed, the handler is not
// called again.
func (s *steady) watch(cc jetstream.ConsumeContext) {
	<-cc.Closed()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.unserved, cc)
	s.open--
	if s.cc == cc {
		s.done = true
	}
	if s.done && s.open == 0 && !s.ended {
		s.ended = true
		close(s.closed)
	}
}

// errored passes err on, and starts the consuming afresh when cc missed
// the server's heartbeats while a request of it may still wait on the
// consumer. After a pull the server answered with no responders (the
// consumer had no leader: a NATS node failing over) none does; nats.go
// pulls again with the missed heartbeat, and that pull is cc's only one.
func (s *steady) errored(cc jetstream.ConsumeContext, err error) {
	if s.onErr != nil {
		s.onErr(s, err)
	}
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		// cc's pull found no leader of the consumer (a NATS node failing
		// over): the server holds no request of it, and nats.go pulls
		// again at the next missed heartbeat.
		s.mu.Lock()
		if s.unserved == nil {
			s.unserved = map[jetstream.ConsumeContext]time.Time{}
		}
		s.unserved[cc] = time.Now()
		s.mu.Unlock()
	case errors.Is(err, jetstream.ErrNoHeartbeat):
		s.mu.Lock()
		at, unserved := s.unserved[cc]
		delete(s.unserved, cc)
		s.mu.Unlock()
		// Only the heartbeats missed just after that pull: one found no
		// leader while another of cc's pulls was served leaves the mark
		// behind, and a stall long after is one to start afresh for.
		if unserved && time.Since(at) < unservedFor {
			// Nothing of cc's waits on the consumer: nats.go's own pull,
			// sent with this error, is its only request. Starting afresh
			// would withdraw that one as it reaches a new leader, and the
			// messages the leader hands it would wait out their ack wait.
			return
		}
		go s.restart(cc)
	}
}

// restart replaces old, the current consume context, with a fresh one,
// unless the consumer is gone: a deleted consumer's heartbeats stop too,
// and its end is nats.go's to tell (old closes), not to be pulled from
// afresh for ever.
func (s *steady) restart(old jetstream.ConsumeContext) {
	ctx, cancel := context.WithTimeout(context.Background(), restartCheck)
	_, err := s.cons.Info(ctx)
	cancel()
	if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrConsumerDeleted) {
		return
	}
	s.mu.Lock()
	if s.ending || s.done || s.cc != old {
		s.mu.Unlock()
		return
	}
	cc, err := s.cons.Consume(s.handler, s.opts...)
	if err != nil {
		// The old one goes on pulling, as nats.go does.
		s.mu.Unlock()
		if s.onErr != nil {
			s.onErr(s, err)
		}
		return
	}
	s.cc = cc
	s.open++
	s.restarts++
	s.mu.Unlock()
	go s.watch(cc)
	old.Drain()
}

// unservedFor is how long after a pull that found no leader a missed
// heartbeat is taken for that pull's: nats.go pulls again at the first
// heartbeat missed (twice the heartbeat interval, a second or two).
const unservedFor = 10 * time.Second

// restartCheck bounds the look for the consumer before a restart.
const restartCheck = 2 * time.Second

// Restarts returns how often ctx, a context ConsumeSteady returned,
// started afresh.
func Restarts(ctx jetstream.ConsumeContext) int {
	s, ok := ctx.(*steady)
	if !ok {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// end marks the context ending and returns the consume context to end;
// its watch closes the context once it has.
func (s *steady) end() jetstream.ConsumeContext {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ending = true
	return s.cc
}

// Stop implements jetstream.ConsumeContext.
func (s *steady) Stop() { s.end().Stop() }

// Drain implements jetstream.ConsumeContext.
func (s *steady) Drain() { s.end().Drain() }

// Closed implements jetstream.ConsumeContext: closed once the consuming
// ended, stopped or drained, or by itself.
func (s *steady) Closed() <-chan struct{} { return s.closed }
