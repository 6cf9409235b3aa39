package budget

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// gatedKV is a budget bucket whose every write says it began and then waits
// for a go-ahead, as a store failing over is slow to answer.
type gatedKV struct {
	jetstream.KeyValue
	began, proceed chan struct{}
}

func newGatedKV(kv jetstream.KeyValue) *gatedKV {
	return &gatedKV{KeyValue: kv, began: make(chan struct{}, 16), proceed: make(chan struct{}, 16)}
}

func (k *gatedKV) Create(ctx context.Context, key string, v []byte, o ...jetstream.KVCreateOpt) (uint64, error) {
	k.began <- struct{}{}
	<-k.proceed
	return k.KeyValue.Create(ctx, key, v, o...)
}

func (k *gatedKV) Update(ctx context.Context, key string, v []byte, last uint64) (uint64, error) {
	k.began <- struct{}{}
	<-k.proceed
	return k.KeyValue.Update(ctx, key, v, last)
}

type charged struct {
	st  State
	err error
}

// chargeAsync charges one unit of account a in the background.
func chargeAsync(ctx context.Context, b *Budget, lim Limits) chan charged {
	out := make(chan charged, 1)
	go func() {
		st, err := b.Charge(ctx, "a", wire.FamilySol, lim)
		out <- charged{st, err}
	}()
	return out
}

// waitCharge waits for a charge's outcome; a charge that never returns
// fails the test (the wait is generous: nothing here is timed).
func waitCharge(t *testing.T, c chan charged, what string) charged {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never returned", what)
		return charged{}
	}
}

// TestLeaderReturnsWithItsOwnWrite: the request whose charge leads a
// key's batches returns once its own batch is written, the later batches
// left to a goroutine of their own: it wrote every later batch first, so a
// busy account held it past its deadline, charged, while it was answered
// that nothing was placed.
func TestLeaderReturnsWithItsOwnWrite(t *testing.T) {
	srv := startServer(t)
	kv := newGatedKV(openKV(t, srv, "gated"))
	b := New(kv, nil)
	lim := Limits{Minute: 100, Hour: 100, Week: 100}
	first := chargeAsync(context.Background(), b, lim)
	<-kv.began // the first charge's write is under way
	second := chargeAsync(context.Background(), b, lim)
	waitQueued(t, b, 1)
	kv.proceed <- struct{}{}
	if r := waitCharge(t, first, "the first charge, its write done, the second's held"); r.err != nil || r.st.Remaining.Minute != 99 {
		t.Fatalf("first: %+v", r)
	}
	<-kv.began
	kv.proceed <- struct{}{}
	if r := waitCharge(t, second, "the second charge"); r.err != nil || r.st.Remaining.Minute != 98 {
		t.Fatalf("second: %+v", r)
	}
}

// TestChargeGivenUpIsNotWritten: a charge whose caller gives up while it
// waits behind another's write is taken out of the queue, written never,
// and says so; one given up while its own batch is being written (a store
// that hangs) is answered at once too, and once the write ends, charged,
// is given back. A charge given up was answered "nothing was traded" and
// written by the next batch all the same; one that waited for its write
// held its request (and a stopping process) as long as the store hung.
func TestChargeGivenUpIsNotWritten(t *testing.T) {
	srv := startServer(t)
	kv := newGatedKV(openKV(t, srv, "gated"))
	b := New(kv, nil)
	lim := Limits{Minute: 100, Hour: 100, Week: 100}
	first := chargeAsync(context.Background(), b, lim)
	<-kv.began
	ctx, giveUp := context.WithCancel(context.Background())
	queued := chargeAsync(ctx, b, lim)
	waitQueued(t, b, 1)
	giveUp()
	if r := waitCharge(t, queued, "the charge given up in the queue"); !errors.Is(r.err, ErrNotWritten) {
		t.Fatalf("given up in the queue: %+v", r)
	}
	kv.proceed <- struct{}{}
	waitCharge(t, first, "the first charge")

	// Given up while its batch is written, the write held: answered at
	// once, before the write ends.
	ctx, giveUp = context.WithCancel(context.Background())
	writing := chargeAsync(ctx, b, lim)
	<-kv.began
	giveUp()
	if r := waitCharge(t, writing, "the charge given up during its write"); !errors.Is(r.err, ErrGivenBack) {
		t.Fatalf("given up during its write: %+v", r)
	}
	kv.proceed <- struct{}{} // its write: charged
	<-kv.began               // the refund's
	kv.proceed <- struct{}{}
	reader := New(openKV(t, srv, "reader"), nil)
	poll.Until(t, 10*time.Second, "the charge given up during its write given back", func() bool {
		st, err := reader.Read(context.Background(), "a", wire.FamilySol, lim)
		return err == nil && st.Used.Minute == 1
	})
}

// waitQueued waits until n charges of account a wait in b's queue.
func waitQueued(t *testing.T, b *Budget, n int) {
	t.Helper()
	e := b.entryOf(cacheKey{account: "a", family: wire.FamilySol})
	deadline := time.Now().Add(20 * time.Second)
	for {
		e.mu.Lock()
		got := len(e.waiters)
		e.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d charges queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
