package ingress

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// heldJobs holds every job's publish until released.
type heldJobs struct {
	jetstream.JetStream
	publishing chan struct{}
	release    chan struct{}
}

func (h *heldJobs) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if strings.HasPrefix(msg.Subject, "orders.") {
		h.publishing <- struct{}{}
		<-h.release
	}
	return h.JetStream.PublishMsg(ctx, msg, opts...)
}

// TestPendingRecordFollowsTheJob: an order's pending record is written
// once the stream has its job, not beside the publish: a record written
// first could outlive a job a crash kept from the stream, and stay pending
// for ever.
func TestPendingRecordFollowsTheJob(t *testing.T) {
	held := &heldJobs{publishing: make(chan struct{}, 1), release: make(chan struct{})}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withTimeout(5*time.Second),
		withJetStream(func(js jetstream.JetStream) jetstream.JetStream { held.JetStream = js; return held }))
	// Released at the latest when the test ends, before the harness
	// stops, so that a failing test does not hold the publish for ever.
	release := sync.OnceFunc(func() { close(held.release) })
	t.Cleanup(release)
	startWorker(t, h, wire.ChainSolana, func(id string, _ []byte) *wire.Reply {
		return &wire.Reply{OrderID: id, Signatures: []string{"sig-" + id}}
	})
	answered := make(chan answer, 1)
	go func() {
		answered <- call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", swapWith(solMint, `"priority_fee":0.0001`))
	}()
	<-held.publishing
	records := func() uint64 {
		st, err := h.bus.Buckets.Orders.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return st.Values()
	}
	// Nothing can write the record while the job is held: the worker has
	// no job, and ingress waits for the stream.
	for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n := records(); n != 0 {
			t.Fatalf("%d order records while the job is not in the stream yet", n)
		}
	}
	release()
	a := <-answered
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	poll.Until(t, 5*time.Second, "the pending record", func() bool { return records() == 1 })
}
