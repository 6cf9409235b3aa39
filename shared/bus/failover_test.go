package bus_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
)

// TestConsumerLeaderKilled: the node leading a consumer is SIGKILLed while
// messages keep coming (the stream leads elsewhere). Its pulls find no
// leader until one is elected (4 to 9 s); then every message waiting is
// handled within a couple of seconds, on its first delivery. A restart of
// the consuming at the missed heartbeat after such a pull withdrew the
// request nats.go had just sent to the new leader, and the messages the
// leader handed it waited out their ack wait (6 s) for a redelivery.
func TestConsumerLeaderKilled(t *testing.T) {
	c := bustest.StartCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// The admin and the consumer are on n2, which stays.
	admin, err := bus.Dial(c.URL(1), "admin", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ajs, _ := jetstream.New(admin)
	var cons jetstream.Consumer
	deadline := time.Now().Add(30 * time.Second)
	for {
		dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
		if _, err = ajs.CreateOrUpdateStream(dctx, jetstream.StreamConfig{Name: "FO", Subjects: []string{"fo.>"},
			Replicas: 3, Storage: jetstream.FileStorage}); err == nil {
			cons, err = ajs.CreateOrUpdateConsumer(dctx, "FO", jetstream.ConsumerConfig{Durable: "pullers",
				AckPolicy: jetstream.AckExplicitPolicy, AckWait: bus.AckWait})
		}
		dcancel()
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("declare: %v", err)
	}
	c.Lead(admin, 1, "FO", "")
	c.Lead(admin, 0, "FO", "pullers")

	var mu sync.Mutex
	handled := map[string]time.Time{}
	again := map[string]uint64{}
	// As bus.Consume consumes, with its pull settings.
	cc, err := bus.ConsumeSteady(cons, func(m jetstream.Msg) {
		md, _ := m.Metadata()
		mu.Lock()
		if _, ok := handled[m.Subject()]; !ok {
			handled[m.Subject()] = time.Now()
		}
		if md != nil && md.NumDelivered > 1 {
			again[m.Subject()] = md.NumDelivered
		}
		mu.Unlock()
		_ = m.Ack()
	}, nil, jetstream.PullMaxMessages(8), jetstream.PullExpiry(5*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer bus.StopConsuming(cc)
	publish := func(subject string) time.Time {
		for {
			pctx, pcancel := context.WithTimeout(ctx, time.Second)
			_, err := ajs.Publish(pctx, subject, nil, jetstream.WithMsgID(subject))
			pcancel()
			if err == nil {
				return time.Now()
			}
			if ctx.Err() != nil {
				t.Fatalf("publish %s: %v", subject, err)
			}
		}
	}
	publish("fo.warm")
	if !pollTrue(10*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return !handled["fo.warm"].IsZero() }) {
		t.Fatal("the consumer does not consume")
	}

	c.Kill(0)
	killed := time.Now()
	// The consumer's new leader, as the admin sees it.
	elected := make(chan time.Time, 1)
	go func() {
		for ctx.Err() == nil {
			if l := bustest.LeaderOf(admin, "FO", "pullers"); l != "" && l != c.Name(0) {
				elected <- time.Now()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	published := map[string]time.Time{}
	var electedAt time.Time
	for i := 0; electedAt.IsZero() || time.Since(electedAt) < 2*time.Second; i++ {
		if time.Since(killed) > 30*time.Second {
			t.Fatal("no new leader of the consumer within 30 s")
		}
		subject := fmt.Sprintf("fo.%d", i)
		published[subject] = publish(subject)
		select {
		case electedAt = <-elected:
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Logf("consumer leader elected %.1fs after the kill; %d messages published", electedAt.Sub(killed).Seconds(), len(published))
	// Each handled within a few seconds of being there to take (nats.go
	// pulls again at the first missed heartbeat, 2 s), never after waiting
	// out an ack wait for a redelivery.
	const within = 5 * time.Second
	pollTrue(within+bus.AckWait+2*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(handled) > len(published) })
	mu.Lock()
	defer mu.Unlock()
	late := 0
	for subject, at := range published {
		ready := at
		if electedAt.After(at) {
			ready = electedAt
		}
		got, ok := handled[subject]
		switch {
		case !ok:
			late++
			t.Errorf("%s not handled", subject)
		case got.Sub(ready) > within:
			late++
			if late <= 5 {
				t.Errorf("%s handled %.1fs after it could be (delivery %d)", subject, got.Sub(ready).Seconds(), max(again[subject], 1))
			}
		}
	}
	if late > 0 {
		t.Errorf("%d of %d messages handled late; %d delivered more than once", late, len(published), len(again))
	}
	// The first missed heartbeat, whose pull request the dead leader held,
	// starts the consuming afresh; none after a pull that found no leader.
	if n := bus.Restarts(cc); n > 1 {
		t.Errorf("the consuming started afresh %d times through the failover, want at most 1", n)
	}
}

func pollTrue(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
