package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// DefaultPublishTimeout bounds how long emitting one event may take, so a
// stream that cannot take it delays the pipeline by at most this.
const DefaultPublishTimeout = 2 * time.Second

// Publisher publishes order events into the EVENTS stream.
type Publisher struct {
	js      jetstream.JetStream
	log     *slog.Logger
	timeout time.Duration
	now     func() time.Time
}

// NewPublisher returns a publisher over js. log receives a warning for every
// event that could not be published; nil discards them.
func NewPublisher(js jetstream.JetStream, log *slog.Logger) *Publisher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Publisher{js: js, log: log, timeout: DefaultPublishTimeout, now: time.Now}
}

// Publish stores e in the stream on its account's subject, with its id as
// the message id so that the stream drops a repeat within its duplicate
// window. It waits for the stream's acknowledgement, at most the
// publisher's timeout. A failure is counted in
// metrics.EventsPublishFailures by type: unless its caller publishes it
// again, which the message id makes safe, the event may reach no consumer.
func (p *Publisher) Publish(ctx context.Context, e *Event) error {
	if e.AccountID == "" || !e.Type.Valid() {
		// A defect of the caller, whose type is no label value.
		return fmt.Errorf("event %s: no account or unknown type %q", e.ID, e.Type)
	}
	data, err := json.Marshal(e)
	if err != nil {
		metrics.EventsPublishFailures.WithLabelValues(string(e.Type)).Inc()
		return fmt.Errorf("encode event %s: %w", e.ID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	msg := &nats.Msg{Subject: bus.EventsSubject(e.AccountID, string(e.Type)), Data: data, Header: nats.Header{}}
	msg.Header.Set(bus.HeaderOrder, e.OrderID)
	if e.noPosition {
		msg.Header.Set(bus.HeaderPositions, bus.PositionsNone)
	}
	if e.repeat {
		msg.Header.Set(bus.HeaderRepeat, "1")
	}
	if _, err := p.js.PublishMsg(ctx, msg, jetstream.WithMsgID(e.ID)); err != nil {
		metrics.EventsPublishFailures.WithLabelValues(string(e.Type)).Inc()
		return fmt.Errorf("publish event %s: %w", e.ID, err)
	}
	return nil
}

// PublishAgain is Publish of an event that may have gone out before (past
// the stream's duplicate window): marked HeaderRepeat, as EmitAgain's, so
// that the webhook dispatcher posts it only when it never began to.
func (p *Publisher) PublishAgain(ctx context.Context, e *Event) error {
	again := *e
	again.repeat = true
	return p.Publish(ctx, &again)
}

// Emit publishes the event of type t about an order record. A failure is
// logged, counted (see Publish) and returned, so that a caller able to
// emit the event again keeps what it needs for that: the same order gives
// the same event id, which the stream drops as a repeat within its
// duplicate window and consumers drop after it. A caller that cannot may
// ignore the error: an event is never a reason to hold up an order. A nil
// publisher emits nothing and returns nil.
func (p *Publisher) Emit(ctx context.Context, t Type, o *wire.Order) error {
	return p.emit(ctx, t, o, false)
}

// EmitAgain emits the event of an order that was final before this
// emission's caller saw it, whose event may have gone out already (past
// the stream's duplicate window): marked HeaderRepeat, so that the webhook
// dispatcher posts it only when it never began to deliver it, and only to
// a webhook the account had when the order ended. Its time is the order
// record's last write before the caller's, o.UpdatedAt, the order final
// by then.
func (p *Publisher) EmitAgain(ctx context.Context, t Type, o *wire.Order) error {
	return p.emit(ctx, t, o, true)
}

func (p *Publisher) emit(ctx context.Context, t Type, o *wire.Order, repeat bool) error {
	if p == nil || o == nil {
		return nil
	}
	at := p.now()
	ended := o.UpdatedAt
	if o.EndedAt != nil {
		ended = *o.EndedAt
	}
	if repeat && !ended.IsZero() && ended.Before(at) {
		// The order was final when its record said so (its last write,
		// for a record from before EndedAt, whose later writes of a
		// buy's positions would move it): the event is of then, which the
		// dispatcher compares with when the account's webhook was set.
		at = ended
	}
	e := FromOrder(t, o, at)
	e.repeat = repeat
	if err := p.Publish(ctx, e); err != nil {
		p.log.Warn("order event not published", "order_id", o.OrderID, "event", t, "err", err)
		return err
	}
	return nil
}

func init() {
	// Every type's series exists from the start, at 0, so that rates and
	// the alert over them read before the first failure.
	for _, t := range Types {
		metrics.EventsPublishFailures.WithLabelValues(string(t))
	}
}
