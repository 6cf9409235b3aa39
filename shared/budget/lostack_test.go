package budget

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// lossyJS is a JetStream whose publishes NATS answers with a timeout: lose
// of them stored, their acknowledgements lost; drop of them never stored;
// before runs first, as another process's write that comes in between.
type lossyJS struct {
	jetstream.JetStream
	lose, drop atomic.Int32
	before     func()
}

func (j *lossyJS) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if j.before != nil {
		j.before()
		j.before = nil
	}
	if j.drop.Add(-1) >= 0 {
		return nil, nats.ErrTimeout
	}
	pa, err := j.JetStream.PublishMsg(ctx, m, opts...)
	if err == nil && j.lose.Add(-1) >= 0 {
		return nil, nats.ErrTimeout
	}
	return pa, err
}

// lossyBudget is a Budget writing tagged through a lossyJS on a
// connection of its own.
func lossyBudget(t *testing.T, srv *bus.Server, kv jetstream.KeyValue) (*Budget, *lossyJS) {
	t.Helper()
	l := &lossyJS{JetStream: connectJS(t, srv, "lossy")}
	return New(kv, nil, WithClock(func() time.Time { return wed }), WithTaggedWrites(l)), l
}

// TestLostAcknowledgement: a charge NATS stored but whose answer was lost
// is granted, not answered as failed while its unit stays spent; one never
// stored is written again and counted once; one whose key another process
// wrote meanwhile is charged afresh over that write. The counts stay exact.
func TestLostAcknowledgement(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	lim := Limits{Minute: 50, Hour: 100, Week: 100}
	b, l := lossyBudget(t, srv, kv)
	ctx := ctxT(t)
	// The first charge creates the key; the tagged writes are updates.
	if _, err := b.Charge(ctx, "acct", wire.FamilySol, lim); err != nil {
		t.Fatal(err)
	}
	used := func(want int64) {
		t.Helper()
		rec, ok := stored(t, kv, "acct", wire.FamilySol)
		if !ok || rec[0].count != want || rec[2].count != want {
			t.Fatalf("stored %+v, want %d units", rec, want)
		}
	}

	l.lose.Store(3)
	for i := range 3 {
		st, err := b.Charge(ctx, "acct", wire.FamilySol, lim)
		if err != nil {
			t.Fatalf("charge %d, stored with its answer lost: %v", i, err)
		}
		if st.Remaining.Minute != lim.Minute-int64(2+i) {
			t.Fatalf("charge %d leaves %d", i, st.Remaining.Minute)
		}
	}
	used(4)

	l.drop.Store(2)
	if _, err := b.Charge(ctx, "acct", wire.FamilySol, lim); err != nil {
		t.Fatalf("a charge whose first two writes were never stored: %v", err)
	}
	used(5)

	// Another process charges the key after this one read it, and this
	// one's write is never stored: it is charged again over the other's.
	other := New(openKV(t, srv, "other"), nil, WithClock(func() time.Time { return wed }))
	l.drop.Store(1)
	l.before = func() {
		if _, err := other.Charge(context.Background(), "acct", wire.FamilySol, lim); err != nil {
			t.Error(err)
		}
	}
	if _, err := b.Charge(ctx, "acct", wire.FamilySol, lim); err != nil {
		t.Fatalf("a charge that met another process's: %v", err)
	}
	used(7)

	// Never stored, however often written: the batch fails, nothing spent.
	l.drop.Store(maxUnclear)
	if _, err := b.Charge(ctx, "acct", wire.FamilySol, lim); err == nil {
		t.Fatal("a charge never stored was granted")
	}
	used(7)
}
