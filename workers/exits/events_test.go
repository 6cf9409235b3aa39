package exits

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// eventMsg is an order event as the exits consumer hands it out, its
// delivery count set.
type eventMsg struct {
	jetstream.Msg
	data         []byte
	delivered    uint64
	acked, naked bool
	termed       bool
	delay        time.Duration
}

func (m *eventMsg) Data() []byte         { return m.data }
func (m *eventMsg) Headers() nats.Header { return nats.Header{} }
func (m *eventMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: m.delivered}, nil
}
func (m *eventMsg) Ack() error      { m.acked = true; return nil }
func (m *eventMsg) Term() error     { m.termed = true; return nil }
func (m *eventMsg) Subject() string { return "events.acc1.confirmed" }
func (m *eventMsg) NakWithDelay(d time.Duration) error {
	m.naked, m.delay = true, d
	return nil
}

// TestBuyEventOutlastsAnRPCOutage: a confirmed buy's event whose fill
// cannot be read (its chain's RPC away) is tried again for about a quarter
// of an hour, then given up loudly (counted, for the critical alert): ten
// tries in 23 s dropped it in a short outage, and with it the position and
// its stop-loss, said only by a warning.
func TestBuyEventOutlastsAnRPCOutage(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	o := &wire.Order{OrderID: "eu-Outage", AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: "Mint1111", CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(20), SellPct: 100}},
		Signatures: []wire.SigState{{Signature: "sig", Wallet: "Wallet111", State: wire.StateConfirmed}}}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(events.Event{OrderID: o.OrderID, Type: events.Confirmed, Side: wire.Buy})
	var waited time.Duration
	for attempt := uint64(1); attempt < maxEventDeliveries; attempt++ {
		m := &eventMsg{data: data, delivered: attempt}
		e.handle(m)
		if m.acked || !m.naked {
			t.Fatalf("attempt %d: acked %v, handed back %v: the fill fails, so the event comes back", attempt, m.acked, m.naked)
		}
		waited += m.delay
	}
	if waited < 10*time.Minute {
		t.Fatalf("the event is tried for %v, not through a quarter-hour outage", waited)
	}
	dropped := metrics.ExitEventsDropped.WithLabelValues(string(events.Confirmed), string(wire.Buy))
	before := counter(t, dropped)
	last := &eventMsg{data: data, delivered: maxEventDeliveries}
	e.handle(last)
	if !last.acked || counter(t, dropped)-before != 1 {
		t.Fatalf("the last delivery: acked %v, counted %v", last.acked, counter(t, dropped)-before)
	}
}

// TestBuyEventsGivenUpAreCounted: a confirmed buy's event dropped because
// its order record never caught up with it, or because its chain is none
// the engine serves, opened no position, as one given up after its
// retries: each is counted in tradeapi_exit_events_dropped_total, which
// pages.
func TestBuyEventsGivenUpAreCounted(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	dropped := metrics.ExitEventsDropped.WithLabelValues(string(events.Confirmed), string(wire.Buy))
	before := counter(t, dropped)
	// No record: a replica behind the one that stored it.
	data, _ := json.Marshal(events.Event{OrderID: "eu-NeverStored", Type: events.Confirmed, Side: wire.Buy})
	m := &eventMsg{data: data, delivered: behindAttempts}
	e.handle(m)
	if !m.acked || counter(t, dropped)-before != 1 {
		t.Fatalf("a record that never caught up: acked %v, counted %v", m.acked, counter(t, dropped)-before)
	}
	o := &wire.Order{OrderID: "eu-Unserved", AccountID: "acc1", Family: wire.FamilyEVM, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainArc, Side: wire.Buy, Token: "0x1111111111111111111111111111111111111111", CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(20), SellPct: 100}},
		Signatures: []wire.SigState{{Signature: "0xsig", Wallet: "0x2222222222222222222222222222222222222222", State: wire.StateConfirmed}}}
	if err := e.orders.Create(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(events.Event{OrderID: o.OrderID, Type: events.Confirmed, Side: wire.Buy})
	m = &eventMsg{data: data, delivered: 1}
	e.handle(m)
	if !m.acked || counter(t, dropped)-before != 2 {
		t.Fatalf("a chain not served: acked %v, counted %v in all, want 2", m.acked, counter(t, dropped)-before)
	}
}

func counter(t *testing.T, c interface{ Write(*dto.Metric) error }) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
