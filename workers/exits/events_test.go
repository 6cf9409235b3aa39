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
	delay        time.Duration
}

func (m *eventMsg) Data() []byte         { return m.data }
func (m *eventMsg) Headers() nats.Header { return nats.Header{} }
func (m *eventMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: m.delivered}, nil
}
func (m *eventMsg) Ack() error { m.acked = true; return nil }
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

func counter(t *testing.T, c interface{ Write(*dto.Metric) error }) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
