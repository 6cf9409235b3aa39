package bus

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/guard"
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
// at once, by long-lived handler goroutines.
type Pool struct {
	cc       jetstream.ConsumeContext
	inflight sync.WaitGroup

	// work hands a message to an idle handler goroutine. Handlers are
	// started as messages need them, up to the pool's size, and live as
	// long as the pool: a goroutine made per message would grow its stack
	// afresh through every handler's decoding and signing, copying it
	// several times per message.
	work    chan jetstream.Msg
	started int // handler goroutines started; only the consume callback touches it

	// held are the messages whose handlers run; one ticker marks them all
	// in progress, rather than a timer and a goroutine per message.
	mu       sync.Mutex
	held     map[jetstream.Msg]struct{}
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// Consume starts handling cons's messages, at most n at once. While a
// handler runs, the message is marked in progress every third of the
// consumer's ack wait (AckWait when it has none), so a slow handler keeps
// its message and a dead one loses it quickly.
func Consume(cons jetstream.Consumer, n int, handle func(jetstream.Msg), log *slog.Logger) (*Pool, error) {
	n = max(n, 1)
	p := &Pool{held: make(map[jetstream.Msg]struct{}, n), work: make(chan jetstream.Msg),
		stop: make(chan struct{}), done: make(chan struct{})}
	wait := AckWait
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		wait = info.Config.AckWait
	}
	consumer := ""
	if info := cons.CachedInfo(); info != nil {
		consumer = info.Name
	}
	run := func() {
		for {
			select {
			case m := <-p.work:
				HandleSafely(consumer, handle, m, log)
				p.release(m)
				p.inflight.Done()
			case <-p.stop:
				return
			}
		}
	}
	// The callback runs on one goroutine at a time: it hands each message
	// to an idle handler, starts one more while fewer than n run, and
	// otherwise waits for one to be free, which is how at most n are
	// handled at once.
	cc, err := ConsumeSteady(cons, func(m jetstream.Msg) {
		p.inflight.Add(1)
		p.hold(m)
		select {
		case p.work <- m:
			return
		default:
		}
		if p.started < n {
			p.started++
			go run()
		}
		select {
		case p.work <- m:
		case <-p.stop:
			// Stopped meanwhile: left unacknowledged, for redelivery.
			p.release(m)
			p.inflight.Done()
		}
	}, func(_ jetstream.ConsumeContext, err error) {
		if log != nil {
			log.Warn("consumer trouble, pulling again", "consumer", consumer, "err", err)
		}
	}, jetstream.PullMaxMessages(n), jetstream.PullExpiry(pullExpiry), jetstream.PullHeartbeat(pullHeartbeat))
	if err != nil {
		return nil, fmt.Errorf("consume: %w", err)
	}
	p.cc = cc
	go p.keepAlive(wait / 3)
	return p, nil
}

// Panicked, when set, is told of each message whose handler panicked, by
// consumer (the metrics package counts them).
var Panicked func(consumer string)

// panicBackoff is how long a message whose handler panicked waits before
// its redelivery.
const panicBackoff = time.Second

// HandleSafely runs handle on m, turning a panic into a log line with its
// stack and a redelivery of m after a while: one message a handler cannot
// take (a defect) must not stop the process and every order in it, nor, by
// coming back after each restart, keep it down.
func HandleSafely(consumer string, handle func(jetstream.Msg), m jetstream.Msg, log *slog.Logger) {
	p := guard.Catch(func() { handle(m) })
	if p == nil {
		return
	}
	if Panicked != nil {
		Panicked(consumer)
	}
	if log != nil {
		log.Error("message handler panicked; the message goes back for redelivery", "consumer", consumer,
			"subject", m.Subject(), "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
	}
	_ = m.NakWithDelay(panicBackoff)
}

func (p *Pool) hold(m jetstream.Msg) {
	p.mu.Lock()
	p.held[m] = struct{}{}
	p.mu.Unlock()
}

func (p *Pool) release(m jetstream.Msg) {
	p.mu.Lock()
	delete(p.held, m)
	p.mu.Unlock()
}

// keepAlive marks every message in hand in progress every period (a third
// of the ack wait), until the pool stops. A message taken just after a
// tick is marked within one period all the same, well inside its ack wait.
func (p *Pool) keepAlive(period time.Duration) {
	defer close(p.done)
	t := time.NewTicker(period)
	defer t.Stop()
	var batch []jetstream.Msg
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		batch = batch[:0]
		p.mu.Lock()
		for m := range p.held {
			batch = append(batch, m)
		}
		p.mu.Unlock()
		for _, m := range batch {
			_ = m.InProgress()
		}
	}
}

// drainWait bounds how long StopConsuming waits for a consumer's drain,
// and then for its stop: both need the server, and with the connection
// down they never end (a role told to stop would wait out the pull's whole
// expiry, or for ever).
var drainWait = 2 * time.Second

// StopConsuming drains cc, stops it if the drain does not end within
// drainWait, and returns once it is closed or a quarter of drainWait has
// passed again: a drain that did not end had no server to end it with,
// and the stop's own close waits on the same server (two roles' consumers
// stopped in turn took 8 s of a stop's 10 with the server gone). Messages
// fetched but not handled go back to the stream for redelivery, and so do
// the ones whose acknowledgement cannot reach the server.
func StopConsuming(cc jetstream.ConsumeContext) {
	cc.Drain()
	select {
	case <-cc.Closed():
		return
	case <-time.After(drainWait):
	}
	cc.Stop()
	select {
	case <-cc.Closed():
	case <-time.After(drainWait / 4):
	}
}

// StopWatching stops a key-value watcher, waiting at most drainWait: with
// the connection down its unsubscription cannot reach the server.
func StopWatching(w jetstream.KeyWatcher) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.Stop()
	}()
	select {
	case <-done:
	case <-time.After(drainWait):
	}
}

// Stop stops taking messages and waits for the ones in hand; messages
// fetched but not yet handled go back to the stream for redelivery, and
// so do the ones in hand whose acknowledgement cannot reach the server.
func (p *Pool) Stop() {
	StopConsuming(p.cc)
	p.inflight.Wait()
	p.stopOnce.Do(func() { close(p.stop) })
	<-p.done
}
