package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/client"
)

// receiver is the run's webhook: it checks each delivery's signature and
// notes its event id, and answers by the phase of the load: 503 in its
// first third, nothing until the dispatcher gives up (a receiver that
// hangs) in the half after that, then 204. So every event emitted early
// waits for retries while the processes are killed and restarted, and the
// run checks that each reaches the receiver once it answers.
type receiver struct {
	srv    *http.Server
	url    string
	secret string
	start  time.Time
	dur    time.Duration

	posts, failing, bad atomic.Int64

	mu  sync.Mutex
	got map[string]int // event id -> signed deliveries
}

// startReceiver listens on a free 127.0.0.1 port.
func startReceiver(start time.Time, dur time.Duration) (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/hook", start: start, dur: dur, got: map[string]int{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *receiver) close() { _ = r.srv.Close() }

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.posts.Add(1)
	since := time.Since(r.start)
	switch {
	case since < r.dur/3:
		r.failing.Add(1)
		_, _ = io.Copy(io.Discard, req.Body)
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case since < r.dur/2:
		r.failing.Add(1)
		select {
		case <-req.Context().Done():
		case <-time.After(time.Until(r.start.Add(r.dur / 2))):
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	e, err := client.ParseWebhook(req, r.secret)
	if err != nil {
		r.bad.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.got[e.ID]++
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// hookFigures are the webhook's deliveries against the events emitted.
type hookFigures struct {
	emitted, delivered, missing, repeated int
	posts, failing, bad                   int64
	waited                                time.Duration
}

// webhookSettle bounds the wait for the deliveries after the orders
// settled: the receiver failed for half the load, so its account's pause
// has grown to about that (1 s doubling per failed probe), and the events
// held come back over up to a tenth of it after the probe that ends it.
const webhookSettle = 3 * time.Minute

// printWebhooks prints the webhook's figures; false when an event never
// reached the receiver or a delivery's signature was wrong.
func printWebhooks(w io.Writer, f hookFigures) bool {
	fmt.Fprintf(w, "webhook events delivered             %d of %d emitted (after %s), each event once or more\n",
		f.delivered, f.emitted, f.waited.Round(time.Second))
	fmt.Fprintf(w, "webhook events never delivered       %d   must be 0\n", f.missing)
	fmt.Fprintf(w, "webhook deliveries badly signed      %d   must be 0\n", f.bad)
	fmt.Fprintf(w, "webhook events delivered again       %d   (at least once: a dispatcher stopped between a delivery and its end sends it again)\n", f.repeated)
	fmt.Fprintf(w, "webhook POSTs while it failed        %d of %d   (503 in the load's first third, then hanging to its half: a failing receiver pauses its account)\n",
		f.failing, f.posts)
	return f.missing == 0 && f.bad == 0
}

// settleWebhooks waits, up to bound, until every event of the account in
// the EVENTS stream has reached the receiver.
func settleWebhooks(ctx context.Context, nv *natsView, accountID string, r *receiver, bound time.Duration) (hookFigures, error) {
	var f hookFigures
	start := time.Now()
	for {
		ids, err := nv.eventIDs(ctx, accountID)
		if err != nil {
			// A NATS node killed late in the load may still be taking
			// its part back (the stream's leader not yet elected: no
			// responders): read again until the bound.
			if time.Since(start) > bound || ctx.Err() != nil {
				return f, err
			}
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Second):
			}
			continue
		}
		r.mu.Lock()
		f = hookFigures{emitted: len(ids)}
		for _, id := range ids {
			if n := r.got[id]; n > 0 {
				f.delivered++
				if n > 1 {
					f.repeated++
				}
			} else {
				f.missing++
			}
		}
		r.mu.Unlock()
		f.posts, f.failing, f.bad = r.posts.Load(), r.failing.Load(), r.bad.Load()
		f.waited = time.Since(start)
		if f.missing == 0 || f.waited > bound || ctx.Err() != nil {
			return f, ctx.Err()
		}
		select {
		case <-ctx.Done():
		case <-time.After(2 * time.Second):
		}
	}
}

// eventIDs reads the ids of every event of the account in EVENTS (the
// message id of each).
func (v *natsView) eventIDs(ctx context.Context, accountID string) ([]string, error) {
	c, err := v.js.OrderedConsumer(ctx, bus.StreamEvents, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{bus.AccountEvents(accountID)}})
	if err != nil {
		return nil, fmt.Errorf("read the events: %w", err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the events: %w", err)
	}
	var ids []string
	for left := info.NumPending; left > 0; {
		batch, err := c.Fetch(int(min(left, 500)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return nil, fmt.Errorf("read the events: %w", err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			ids = append(ids, m.Headers().Get(jetstream.MsgIDHeader))
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return nil, fmt.Errorf("read the events: %w", err)
		}
		if n == 0 {
			return nil, errors.New("read the events: the stream stopped answering")
		}
		left -= uint64(n)
	}
	return ids, nil
}
