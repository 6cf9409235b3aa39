package broadcaster

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// pipeline is a broadcaster on the real embedded NATS, with everything a
// test reads back: the replies to ingress, the orders bucket, the events
// stream and the broadcaster's logs.
type pipeline struct {
	bus  *bustest.Bus
	logs *logtest.Buffer
	log  *slog.Logger
}

func newPipeline(t *testing.T) *pipeline {
	t.Helper()
	logs := &logtest.Buffer{}
	return &pipeline{bus: bustest.Start(t, "broadcaster-test"), logs: logs,
		log: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

// start runs a broadcaster over chains until the returned stop is called
// (or the test ends).
func (p *pipeline) start(t *testing.T, cfg Config, chains map[string]Chain) (stop func()) {
	t.Helper()
	return p.startOn(t, p.bus.JS, cfg, chains)
}

// startOn starts a broadcaster that publishes through js.
func (p *pipeline) startOn(t *testing.T, js jetstream.JetStream, cfg Config, chains map[string]Chain) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	br := New(cfg, p.bus.Conn, js, p.bus.Buckets, chains, p.log)
	go func() { done <- br.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("broadcaster: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// send publishes a signed batch as a worker does and returns the reply the
// waiting ingress gets.
func (p *pipeline) send(t *testing.T, b *wire.TxBatch) wire.Reply {
	t.Helper()
	return p.publish(t, b, b.OrderID)
}

// redeliver publishes a batch again under another message id, as the
// stream hands a batch out again after its broadcaster died before the
// ack, and returns the reply.
func (p *pipeline) redeliver(t *testing.T, b *wire.TxBatch) wire.Reply {
	t.Helper()
	return p.publish(t, b, b.OrderID+".again")
}

func (p *pipeline) publish(t *testing.T, b *wire.TxBatch, msgID string) wire.Reply {
	t.Helper()
	return p.publishOn(t, bus.BatchSubject(b.Chain, b.OrderID), b, msgID)
}

// publishOn publishes a batch on subject and returns the reply.
func (p *pipeline) publishOn(t *testing.T, subject string, b *wire.TxBatch, msgID string) wire.Reply {
	t.Helper()
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	data, _ := json.Marshal(b)
	m := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, inbox)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.bus.JS.PublishMsg(ctx, m, jetstream.WithMsgID(msgID)); err != nil {
		t.Fatal(err)
	}
	return bustest.NextReply(t, sub, 30*time.Second)
}

// order reads an order record.
func (p *pipeline) order(t *testing.T, id string) *wire.Order {
	t.Helper()
	o, err := orders.NewStore(p.bus.Buckets.Orders).Get(context.Background(), id)
	if err != nil {
		t.Fatalf("order %s: %v", id, err)
	}
	return o
}

// orderStoredAfter waits until an order's record is written after since
// (a batch's store follows its answer) and returns it.
func (p *pipeline) orderStoredAfter(t *testing.T, id string, since time.Time) *wire.Order {
	t.Helper()
	return poll.Value(t, 5*time.Second, "order "+id+" stored again", func() (*wire.Order, bool) {
		o, err := orders.NewStore(p.bus.Buckets.Orders).Get(context.Background(), id)
		return o, err == nil && o.UpdatedAt.After(since)
	})
}

// orderIn waits until an order is in one of states and returns it.
func (p *pipeline) orderIn(t *testing.T, id string, within time.Duration, states ...string) *wire.Order {
	t.Helper()
	return poll.Value(t, within, "order "+id+" in "+strings.Join(states, " or "), func() (*wire.Order, bool) {
		o, err := orders.NewStore(p.bus.Buckets.Orders).Get(context.Background(), id)
		if err != nil {
			return nil, false
		}
		for _, s := range states {
			if o.State == s {
				return o, true
			}
		}
		return o, false
	})
}

// rawOrders returns every record of the orders bucket as stored.
func (p *pipeline) rawOrders(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	keys, err := p.bus.Buckets.Orders.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for k := range keys.Keys() {
		e, err := p.bus.Buckets.Orders.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(e.Value())
	}
	return all.String()
}

// rawEvents returns every message of the events stream as stored.
func (p *pipeline) rawEvents(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	stream, err := p.bus.JS.Stream(ctx, bus.StreamEvents)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for seq := info.State.FirstSeq; seq > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := stream.GetMsg(ctx, seq)
		if err != nil {
			continue
		}
		out = append(out, string(m.Data))
	}
	return out
}

// eventTypes returns the types of an order's events, in order.
func (p *pipeline) eventTypes(t *testing.T, orderID string) []events.Type {
	t.Helper()
	var out []events.Type
	for _, raw := range p.rawEvents(t) {
		var e events.Event
		if json.Unmarshal([]byte(raw), &e) == nil && e.OrderID == orderID {
			out = append(out, e.Type)
		}
	}
	return out
}

// batchOf is a swap batch of one account's transactions.
func batchOf(orderID, chain string, family wire.Family, txs ...wire.SignedTx) *wire.TxBatch {
	return &wire.TxBatch{OrderID: orderID, AccountID: "acct-1", Family: family, Chain: chain, Token: "token",
		Side: wire.Buy, Txs: txs, SignedAt: time.Now().UTC()}
}
