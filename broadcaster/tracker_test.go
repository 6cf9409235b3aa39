package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ledger is a chain that takes every transaction and, when confirm is set,
// calls every one it took confirmed; otherwise its status calls hang until
// the caller gives up, as a node that stopped answering does.
type ledger struct {
	confirm bool
	mu      sync.Mutex
	taken   map[string]bool
}

func (l *ledger) Send(_ context.Context, tx wire.SignedTx) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.taken == nil {
		l.taken = map[string]bool{}
	}
	l.taken[tx.Signature] = true
	return nil
}

func (l *ledger) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	if !l.confirm {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		if l.taken[s] {
			out[i].State = wire.StateConfirmed
		}
	}
	return out, nil
}

func (l *ledger) Height(context.Context) (uint64, error) { return 1, nil }

// TestStuckChainDelaysNoOther: a chain whose node stops answering status
// calls holds up the confirmations of no other chain, and the orders a poll
// finds confirmed together are all settled, each with its own record.
// Before each chain had a clock of its own, every poll of the other chain
// waited out the stuck chain's five-second status call.
func TestStuckChainDelaysNoOther(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{
		wire.ChainSolana: &ledger{confirm: true},
		wire.ChainBase:   &ledger{},
	})
	stuck := wire.SignedTx{Wallet: "w-stuck", Signature: "sig-stuck", Raw: []byte{1}}
	if r := p.send(t, batchOf("o-stuck", wire.ChainBase, wire.FamilyEVM, stuck)); r.Error != nil {
		t.Fatalf("stuck chain's order answered %+v", r.Error)
	}
	// The stuck chain's first status call now hangs.
	time.Sleep(100 * time.Millisecond) // deliberate: let the stuck poll start
	const n = 20
	for i := range n {
		tx := wire.SignedTx{Wallet: fmt.Sprintf("w-%d", i), Signature: fmt.Sprintf("sig-%d", i), Raw: []byte{1}}
		if r := p.send(t, batchOf(fmt.Sprintf("o-%d", i), wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
			t.Fatalf("order %d answered %+v", i, r.Error)
		}
	}
	for i := range n {
		// Well inside the stuck call's five seconds.
		o := p.orderIn(t, fmt.Sprintf("o-%d", i), 2*time.Second, wire.StateConfirmed)
		if len(o.Signatures) != 1 || o.Signatures[0].Signature != fmt.Sprintf("sig-%d", i) {
			t.Fatalf("order %d signatures %+v", i, o.Signatures)
		}
	}
	if o := p.orderIn(t, "o-stuck", time.Second, wire.StateBroadcast, wire.StatePending); o.State == wire.StateConfirmed {
		t.Fatalf("the stuck chain's order is %s", o.State)
	}
}

// TestTrackingOfAStoppedBroadcasterAdopted: what another broadcaster
// tracked and stopped settling (it was stopped for good) is taken over by
// a broadcaster that was already running, once it stayed unsettled for
// AdoptAfter; before, it waited for a broadcaster to start.
func TestTrackingOfAStoppedBroadcasterAdopted(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	ctx := context.Background()
	tx := wire.SignedTx{Wallet: "w-peer", Signature: "sig-peer", Raw: []byte{1}}
	// The other broadcaster sends the order, tracks it, and stops.
	stopPeer := p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: &ledger{}})
	if r := p.send(t, batchOf("o-peer", wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	stopPeer()
	e, err := p.bus.Buckets.Tracking.Get(ctx, "o-peer")
	if err != nil {
		t.Fatal(err)
	}
	// This one was running already: what it loaded at its start did not
	// hold the order.
	if err := p.bus.Buckets.Tracking.Delete(ctx, "o-peer"); err != nil {
		t.Fatal(err)
	}
	chain := &ledger{confirm: true, taken: map[string]bool{"sig-peer": true}}
	const adoptAfter = 300 * time.Millisecond
	p.start(t, Config{Poll: 20 * time.Millisecond, AdoptEvery: 50 * time.Millisecond, AdoptAfter: adoptAfter},
		map[string]Chain{wire.ChainSolana: chain})
	// The broadcaster is past its start (it has loaded the tracking it
	// resumes) once it says it started, after the peer's line.
	poll.Until(t, 10*time.Second, "the second broadcaster started", func() bool {
		return strings.Count(p.logs.String(), `"msg":"broadcaster started"`) >= 2
	})
	put := time.Now()
	if _, err := p.bus.Buckets.Tracking.Put(ctx, "o-peer", e.Value()); err != nil {
		t.Fatal(err)
	}
	// Settled at once, it would be confirmed well before AdoptAfter has
	// passed since the put; a read that a loaded machine delays may see
	// it confirmed by the adoption.
	if o := p.orderIn(t, "o-peer", 100*time.Millisecond, wire.StateBroadcast, wire.StatePending, wire.StateConfirmed); o.State == wire.StateConfirmed && o.UpdatedAt.Sub(put) < adoptAfter/2 {
		t.Fatalf("settled %v after it was listed, before AdoptAfter: a live peer's order is not taken over at once", o.UpdatedAt.Sub(put))
	}
	p.orderIn(t, "o-peer", 10*time.Second, wire.StateConfirmed)
	poll.Until(t, 10*time.Second, "the settled order's tracking purged", func() bool {
		_, err := p.bus.Buckets.Tracking.Get(ctx, "o-peer")
		return err != nil
	})
}

// verdicts is a chain that takes every transaction and gives each the
// status it was set up with.
type verdicts map[string]Status

func (v verdicts) Send(context.Context, wire.SignedTx) error { return nil }
func (v verdicts) Height(context.Context) (uint64, error)    { return 1, nil }
func (v verdicts) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		out[i] = v[s]
	}
	return out, nil
}

// TestOrdersFinalCountedOnce: an order answered as sent whose transaction
// then fails is counted once in tradeapi_orders_final_total with its final
// state, its "order final" line says why, and a transaction that landed
// with an error is told from one its relay dropped. A tracker that settles
// the order again (a restart before it forgot the tracking) counts nothing.
func TestOrdersFinalCountedOnce(t *testing.T) {
	chain := wire.ChainBase
	// Counted by the venue the batch names; one recorded without a venue
	// is "unknown".
	finalFailed := metrics.OrdersFinal.With(chain, venues.UniswapV3, metrics.OrderFailed)
	finalUnknown := metrics.OrdersFinal.With(chain, "", metrics.OrderFailed)
	txFailed := metrics.Transactions.With(chain, metrics.SenderRPC, metrics.TxFailed)
	txDropped := metrics.Transactions.With(chain, metrics.SenderRPC, metrics.TxDropped)
	before := []float64{value(finalFailed), value(txFailed), value(txDropped), value(finalUnknown)}

	p := newPipeline(t)
	stop := p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{chain: verdicts{
		"sig-reverted": {State: wire.StateFailed, Err: "execution reverted", Slot: 7},
		"sig-dropped":  {State: wire.StateFailed, Err: "bundle dropped by the relay"},
	}})
	for _, id := range []string{"reverted", "dropped"} {
		tx := wire.SignedTx{Wallet: "w-" + id, Signature: "sig-" + id, Raw: []byte{1}}
		b := batchOf("o-"+id, chain, wire.FamilyEVM, tx)
		if id == "reverted" {
			b.Venue = venues.UniswapV3
		}
		if r := p.send(t, b); r.Error != nil {
			t.Fatalf("order %s answered %+v", id, r.Error)
		}
		p.orderIn(t, "o-"+id, 5*time.Second, wire.StateFailed)
	}
	poll.Until(t, 5*time.Second, "both orders counted final", func() bool {
		return value(finalFailed)-before[0] >= 1 && value(finalUnknown)-before[3] >= 1
	})
	stop()
	if got := value(txFailed) - before[1]; got != 1 {
		t.Errorf("transactions failed (landed with an error) +%v, want +1", got)
	}
	if got := value(txDropped) - before[2]; got != 1 {
		t.Errorf("transactions dropped +%v, want +1", got)
	}
	if !strings.Contains(p.logs.String(), `"order_id":"o-reverted","chain":"base","state":"failed","signatures":1,"not_confirmed":1,"err":"execution reverted"}`) {
		t.Errorf("no failed order final line with its reason in:\n%s", p.logs.String())
	}

	// Settled again, as a restarted tracker would, or one that took over a
	// tracking entry a NATS server brought back after its purge: nothing
	// more is counted, and the event goes out marked as a repeat.
	js := &eventsSeen{JetStream: p.bus.JS}
	br := New(Config{}, p.bus.Conn, js, p.bus.Buckets, map[string]Chain{chain: verdicts{}}, p.log)
	ended := p.orderIn(t, "o-reverted", time.Second, wire.StateFailed).UpdatedAt
	e := &tracked{OrderID: "o-reverted", Chain: chain, Signature: "sig-reverted", Since: time.Now()}
	br.tracker.settle(context.Background(), chain,
		[]verdict{{e: e, state: wire.StateFailed, err: "execution reverted", landed: true}})
	if got, unknown := value(finalFailed)-before[0], value(finalUnknown)-before[3]; got != 1 || unknown != 1 {
		t.Fatalf("orders final failed +%v on uniswap_v3 and +%v of no venue after settling again, want +1 each", got, unknown)
	}
	if got := value(txFailed) - before[1]; got != 1 {
		t.Errorf("transactions failed +%v after settling again, want +1", got)
	}
	if len(js.seen) != 1 || js.seen[0].Get(bus.HeaderRepeat) == "" {
		t.Fatalf("events emitted again: %v, want one marked as a repeat", js.seen)
	}
	// Nothing changed: the record was not written again, its updated_at
	// as it was.
	if again := p.order(t, "o-reverted"); !again.UpdatedAt.Equal(ended) {
		t.Errorf("updated_at moved from %v to %v by a settle that changed nothing", ended, again.UpdatedAt)
	}
	// Of the time the order ended, which the webhook dispatcher compares
	// with when the account's webhook was set.
	var ev events.Event
	if err := json.Unmarshal(js.data[0], &ev); err != nil || !ev.At.Equal(ended) {
		t.Errorf("repeat at %v (%v), want the time the order ended, %v", ev.At, err, ended)
	}
}

// eventsSeen is a JetStream that keeps the headers of the events
// published through it.
type eventsSeen struct {
	jetstream.JetStream
	mu   sync.Mutex
	seen []nats.Header
	data [][]byte
}

func (j *eventsSeen) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if strings.HasPrefix(m.Subject, bus.EventsPrefix) {
		j.mu.Lock()
		j.seen = append(j.seen, m.Header)
		j.data = append(j.data, m.Data)
		j.mu.Unlock()
	}
	return j.JetStream.PublishMsg(ctx, m, opts...)
}

// eventsRefused is a JetStream whose first publish of an event of type
// typ fails, as when the stream cannot be reached for a moment.
type eventsRefused struct {
	jetstream.JetStream
	typ     events.Type
	refused atomic.Bool
}

func (j *eventsRefused) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	var e events.Event
	if strings.HasPrefix(m.Subject, bus.EventsPrefix) && json.Unmarshal(m.Data, &e) == nil && e.Type == j.typ &&
		j.refused.CompareAndSwap(false, true) {
		return nil, errors.New("nats: timeout")
	}
	return j.JetStream.PublishMsg(ctx, m, opts...)
}

// TestFinalEventEmittedAgain: an order whose final event could not be
// published keeps its tracking, and a tracker settles it again and emits
// the event; it is not lost with the tracking purged.
func TestFinalEventEmittedAgain(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	js := &eventsRefused{JetStream: p.bus.JS, typ: events.Confirmed}
	chain := &ledger{confirm: true, taken: map[string]bool{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	br := New(Config{Poll: 20 * time.Millisecond, AdoptEvery: 50 * time.Millisecond, AdoptAfter: 200 * time.Millisecond},
		p.bus.Conn, js, p.bus.Buckets, map[string]Chain{wire.ChainSolana: chain}, p.log)
	go func() { done <- br.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	tx := wire.SignedTx{Wallet: "w", Signature: "sig-event", Raw: []byte{1}}
	if r := p.send(t, batchOf("o-event", wire.ChainSolana, wire.FamilySol, tx)); r.Error != nil {
		t.Fatalf("answered %+v", r.Error)
	}
	p.orderIn(t, "o-event", 3*time.Second, wire.StateConfirmed)
	poll.Until(t, 5*time.Second, "the confirmed event published after its first publish failed", func() bool {
		return slices.Contains(p.eventTypes(t, "o-event"), events.Confirmed)
	})
	if !js.refused.Load() {
		t.Fatal("the first publish of the confirmed event was not refused")
	}
	poll.Until(t, 2*time.Second, "the settled order's tracking purged", func() bool {
		_, err := p.bus.Buckets.Tracking.Get(context.Background(), "o-event")
		return err != nil
	})
}

// TestFailedEventEmittedAgain: the failed event of an order the chain
// refused, which the stream did not take, goes out with the batch's next
// delivery, which answers from the record; it is not lost.
func TestFailedEventEmittedAgain(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	f := &refusing{next: chain.Handler()}
	f.refuse.Store(true)
	p := newPipeline(t)
	js := &eventsRefused{JetStream: p.bus.JS, typ: events.Failed}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	br := New(Config{Poll: 20 * time.Millisecond}, p.bus.Conn, js, p.bus.Buckets,
		map[string]Chain{wire.ChainSolana: served(t, f, false)}, p.log)
	go func() { done <- br.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	const id = "eu-failed-event"
	if r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)); r.Error == nil {
		t.Fatalf("answered %v, want the refusal", r.Signatures)
	}
	poll.Until(t, 5*time.Second, "the failed event published after its first publish failed", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Failed)
	})
	if !js.refused.Load() {
		t.Fatal("the first publish of the failed event was not refused")
	}
}

// TestTrackedGaugeFromTheStart: every chain's tracked-signatures gauge is
// exported from the broadcaster's start, at 0, not from its first order:
// a panel or an alert over it reads 0 rather than no data.
func TestTrackedGaugeFromTheStart(t *testing.T) {
	p := newPipeline(t)
	New(Config{}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{"chain-from-start": verdicts{}}, p.log)
	fams, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "tradeapi_tracked_signatures" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "chain" && l.GetValue() == "chain-from-start" && m.GetGauge().GetValue() == 0 {
					return
				}
			}
		}
	}
	t.Fatal("no tracked-signatures series at 0 for the chain of a broadcaster just made")
}
