package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// consumerScene is a server listening on 127.0.0.1 with a stream of
// subjects name.> and a durable consumer of it, as the admin sees it.
func consumerScene(t *testing.T, ctx context.Context, name string) (*bus.Server, jetstream.JetStream, jetstream.Consumer) {
	t.Helper()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	admin, err := srv.Connect("admin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	ajs, _ := jetstream.New(admin)
	if _, err := ajs.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}}); err != nil {
		t.Fatal(err)
	}
	cons, err := ajs.CreateOrUpdateConsumer(ctx, name, jetstream.ConsumerConfig{Durable: "pullers", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	return srv, ajs, cons
}

// TestConsumeSteadyAfterAStall: a consumer's process that stalls past two
// heartbeats (here its connection, frozen 2-4.5 s) pulls with one request
// again once its old one expired, not with one more for each stall: the
// consumer's waiting requests go on counting the processes that pull, and
// each takes its share.
func TestConsumeSteadyAfterAStall(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, _, cons := consumerScene(t, ctx, "STALL")
	proxy, addr := startPausingProxy(t, srv.ClientURL()[len("nats://"):])
	nc, err := bus.Dial("nats://"+addr, "stall-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, _ := jetstream.New(nc)
	theirs, err := js.Consumer(ctx, "STALL", "pullers")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := bus.ConsumeSteady(theirs, func(m jetstream.Msg) { _ = m.Ack() }, nil,
		jetstream.PullMaxMessages(4), jetstream.PullExpiry(5*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer bus.StopConsuming(cc)
	waiting := func() int {
		info, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.NumWaiting
	}
	deadline := time.Now().Add(5 * time.Second)
	for waiting() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests waiting before the stall, want 1", waiting())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Frozen until the client has missed two heartbeats (2 s) and started
	// afresh, within the old request's 5 s.
	proxy.freeze()
	frozeAt := time.Now()
	for bus.Restarts(cc) == 0 && time.Since(frozeAt) < 4500*time.Millisecond {
		time.Sleep(50 * time.Millisecond)
	}
	proxy.thaw()
	// The old request expires within its 5 s; then at most one waits,
	// whatever the moment of the look (none for the instant between an
	// expired request and the next), and one does again.
	time.Sleep(6 * time.Second)
	ones := 0
	for range 12 {
		switch n := waiting(); {
		case n > 1:
			t.Fatalf("%d requests waiting after the stall (%d restarts), want 1", n, bus.Restarts(cc))
		case n == 1:
			ones++
		}
		time.Sleep(250 * time.Millisecond)
	}
	if ones == 0 {
		t.Fatal("no request waiting after the stall: the consumer stopped pulling")
	}
	if bus.Restarts(cc) == 0 {
		t.Fatal("the stall was not noticed: the test proves nothing")
	}
}

// TestConsumeSteadyEndsWithItsConsumer: a consuming that ends by itself
// (its consumer deleted) closes the context, as nats.go's own does, so
// that its owner sees it end.
func TestConsumeSteadyEndsWithItsConsumer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, js, cons := consumerScene(t, ctx, "GONE")
	cc, err := bus.ConsumeSteady(cons, func(m jetstream.Msg) { _ = m.Ack() }, nil,
		jetstream.PullExpiry(5*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Stop()
	// Deleted while its pull request waits, which the server then answers
	// (nats.go ends a consuming on that answer).
	for {
		info, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.NumWaiting == 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := js.DeleteConsumer(ctx, "GONE", "pullers"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-cc.Closed():
	case <-time.After(15 * time.Second):
		t.Fatal("the consuming of a deleted consumer is not seen to end")
	}
}
