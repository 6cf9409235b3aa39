// Package events publishes order events and delivers them to webhooks.
//
// The pipeline emits an event when an order is broadcast and when it
// reaches a final state (confirmed, failed, expired); the exits engine will
// emit exit_fired. Each event is published on its account's subject,
// bus.EventsSubject(account, type), into the EVENTS stream with the event id
// as the message id. In-house consumers read the subjects or the stream;
// the Dispatcher reads the stream with a durable consumer and POSTs each
// event, signed, to the account's webhook, at least once.
package events

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Type is an event type, as in the event's type field, the last token of
// its subject and the X-Tradeapi-Event header.
type Type string

// The event types.
const (
	// Broadcast: the chain accepted at least one transaction of the order.
	Broadcast Type = "broadcast"
	// Confirmed: the order is final and at least one transaction landed.
	Confirmed Type = "confirmed"
	// Failed: the order was refused, not broadcast, or every transaction
	// failed on chain.
	Failed Type = "failed"
	// Expired: every transaction expired before it landed.
	Expired Type = "expired"
	// ExitFired: an auto-order exit of the order fired (emitted by the
	// exits engine).
	ExitFired Type = "exit_fired"
)

// Types lists every event type.
var Types = []Type{Broadcast, Confirmed, Failed, Expired, ExitFired}

// Valid reports whether t is a known type.
func (t Type) Valid() bool {
	for _, k := range Types {
		if t == k {
			return true
		}
	}
	return false
}

// FinalType returns the event type of a final order state.
func FinalType(state string) (Type, bool) {
	switch state {
	case wire.StateConfirmed:
		return Confirmed, true
	case wire.StateFailed:
		return Failed, true
	case wire.StateExpired:
		return Expired, true
	}
	return "", false
}

// Event is one order event. Its JSON is what the NATS subject carries; a
// webhook receives the same without account_id (see WebhookBody).
type Event struct {
	// ID is unique per event and the same every time the same event is
	// emitted again (a redelivered batch, a restarted tracker), so that a
	// consumer can drop repeats: <order id>.<type>[.<suffix>].
	ID         string          `json:"id"`
	Type       Type            `json:"type"`
	OrderID    string          `json:"order_id"`
	AccountID  string          `json:"account_id,omitempty"`
	Chain      string          `json:"chain,omitempty"`
	Side       wire.Side       `json:"side,omitempty"`
	Address    string          `json:"address,omitempty"`
	State      string          `json:"state"`
	Signatures []wire.SigState `json:"signatures"`
	Error      *apierr.Body    `json:"error,omitempty"`
	At         time.Time       `json:"at"`
}

// ID returns the id of an order's event of type t. suffix tells apart
// events that may happen more than once per order (one per fired exit);
// it is empty for the others.
func ID(orderID string, t Type, suffix string) string {
	id := orderID + "." + string(t)
	if suffix != "" {
		id += "." + suffix
	}
	return id
}

// FromOrder returns the event of type t about an order record as it is now.
func FromOrder(t Type, o *wire.Order, at time.Time) *Event {
	sigs := make([]wire.SigState, len(o.Signatures))
	copy(sigs, o.Signatures)
	e := &Event{ID: ID(o.OrderID, t, ""), Type: t, OrderID: o.OrderID, AccountID: o.AccountID, Chain: o.Chain,
		Side: o.Side, Address: o.Token, State: o.State, Signatures: sigs, At: at.UTC()}
	if o.Error != nil {
		b := *o.Error
		e.Error = &b
	}
	return e
}

// webhookEvent is an event as a webhook receives it: the receiver is the
// account, so its id would tell it nothing and is left out.
type webhookEvent struct {
	ID         string          `json:"id"`
	Type       Type            `json:"type"`
	OrderID    string          `json:"order_id"`
	Chain      string          `json:"chain,omitempty"`
	Side       wire.Side       `json:"side,omitempty"`
	Address    string          `json:"address,omitempty"`
	State      string          `json:"state"`
	Signatures []wire.SigState `json:"signatures"`
	Error      *apierr.Body    `json:"error,omitempty"`
	At         time.Time       `json:"at"`
}

// WebhookBody returns the JSON body POSTed to a webhook.
func (e *Event) WebhookBody() ([]byte, error) {
	sigs := e.Signatures
	if sigs == nil {
		sigs = []wire.SigState{}
	}
	b, err := json.Marshal(webhookEvent{ID: e.ID, Type: e.Type, OrderID: e.OrderID, Chain: e.Chain, Side: e.Side,
		Address: e.Address, State: e.State, Signatures: sigs, Error: e.Error, At: e.At})
	if err != nil {
		return nil, fmt.Errorf("encode webhook body of %s: %w", e.ID, err)
	}
	return b, nil
}

// SignatureHeader is the X-Tradeapi-Signature value of a body: "sha256="
// and the hex HMAC-SHA256 of the raw body keyed with the secret's bytes.
func SignatureHeader(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}
