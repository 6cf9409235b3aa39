package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// TestConsumeSteadyAfterAStall: a consumer's process that stalls past two
// heartbeats (here its connection, paused 3 s) pulls with one request
// again once its old one expired, not with one more for each stall: the
// consumer's waiting requests go on counting the processes that pull, and
// each takes its share.
func TestConsumeSteadyAfterAStall(t *testing.T) {
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := ajs.CreateStream(ctx, jetstream.StreamConfig{Name: "STALL", Subjects: []string{"stall.>"}}); err != nil {
		t.Fatal(err)
	}
	cons, err := ajs.CreateOrUpdateConsumer(ctx, "STALL", jetstream.ConsumerConfig{Durable: "pullers", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
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
	proxy.pause(3 * time.Second)
	// The old request expires within its 5 s; then one waits, whatever
	// the moment of the look.
	time.Sleep(6 * time.Second)
	for range 8 {
		if n := waiting(); n != 1 {
			t.Fatalf("%d requests waiting after the stall (%d restarts), want 1", n, bus.Restarts(cc))
		}
		time.Sleep(250 * time.Millisecond)
	}
	if bus.Restarts(cc) == 0 {
		t.Fatal("the stall was not noticed: the test proves nothing")
	}
}
