package bus_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestPoolKeepsSlowMessages checks that a handler running for several ack
// waits keeps its message (the pool marks it in progress), that a message
// whose handler returned without ending it comes back after one ack wait,
// and that Stop waits for the handlers in hand.
func TestPoolKeepsSlowMessages(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "pool")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Long enough that a loaded machine's pause between two keep-alives
	// (a third of it apart) does not let it pass.
	const ackWait = time.Second
	cons, err := b.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: "pool-test", FilterSubject: bus.OrdersSubject("pooltest"),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: 3})
	if err != nil {
		t.Fatal(err)
	}
	var slow, dropped atomic.Int32
	var slowDone atomic.Bool
	pool, err := bus.Consume(cons, 4, func(m jetstream.Msg) {
		switch string(m.Data()) {
		case "slow":
			slow.Add(1)
			time.Sleep(4 * ackWait)
			_ = m.Ack()
			slowDone.Store(true)
		case "dropped":
			// Returns without ending the message, as a handler whose
			// process died would never end it.
			dropped.Add(1)
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"slow", "dropped"} {
		if _, err := b.JS.Publish(ctx, bus.OrdersSubject("pooltest"), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	poll.Until(t, 10*time.Second, "the unended message is delivered again", func() bool { return dropped.Load() >= 2 })
	poll.Until(t, 10*time.Second, "the slow handler has acked", slowDone.Load)
	pool.Stop()
	pool.Stop() // stopping again is harmless
	if n := slow.Load(); n != 1 {
		t.Fatalf("the slow message was delivered %d times while its handler ran; want 1", n)
	}
}

// TestStopWithTheServerGone: a pool and a key-value watcher whose server
// went away stop within a few seconds, as a role told to stop must,
// instead of waiting out the pull's expiry or for ever.
func TestStopWithTheServerGone(t *testing.T) {
	b := bustest.Start(t, "pool-gone")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cons, err := b.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: "gone-test", FilterSubject: bus.OrdersSubject("gonetest"), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := bus.Consume(cons, 2, func(m jetstream.Msg) { _ = m.Ack() }, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.Buckets.Orders.WatchAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The bound is shortened here; without one, the drain waits for the
	// pull's expiry and the watcher's stop for ever.
	old := bus.SetDrainWait(100 * time.Millisecond)
	t.Cleanup(func() { bus.SetDrainWait(old) })
	b.Server.Shutdown()
	start := time.Now()
	pool.Stop()
	bus.StopWatching(w)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stopping took %s with the server gone", took)
	}
}

// TestHandlerPanic: a message whose handler panics does not stop the
// process; it is told to bus.Panicked and comes back for redelivery, and
// the pool handles the next messages.
func TestHandlerPanic(t *testing.T) {
	b := bustest.Start(t, "pool-panic")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cons, err := b.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: "panic-test", FilterSubject: bus.OrdersSubject("panictest"), AckPolicy: jetstream.AckExplicitPolicy, MaxDeliver: 5})
	if err != nil {
		t.Fatal(err)
	}
	var told atomic.Int32
	prev := bus.Panicked
	bus.Panicked = func(consumer string) {
		if consumer == "panic-test" {
			told.Add(1)
		}
	}
	t.Cleanup(func() { bus.Panicked = prev })
	var bad, good atomic.Int32
	pool, err := bus.Consume(cons, 1, func(m jetstream.Msg) {
		if string(m.Data()) == "bad" {
			if bad.Add(1) < 3 {
				panic("a defect")
			}
		} else {
			good.Add(1)
		}
		_ = m.Ack()
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Stop()
	for _, body := range []string{"bad", "good"} {
		if _, err := b.JS.Publish(ctx, bus.OrdersSubject("panictest"), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	poll.Until(t, 10*time.Second, "the message that panicked handled on its third delivery", func() bool { return bad.Load() == 3 })
	if good.Load() != 1 || told.Load() != 2 {
		t.Fatalf("good %d, panics told %d; want 1 and 2", good.Load(), told.Load())
	}
}
