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
	"slices"
	"strconv"
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
	ID        string `json:"id"`
	Type      Type   `json:"type"`
	OrderID   string `json:"order_id"`
	AccountID string `json:"account_id,omitempty"`
	// Kind is the order's kind: swap or deploy (a launch).
	Kind    string    `json:"kind,omitempty"`
	Chain   string    `json:"chain,omitempty"`
	Side    wire.Side `json:"side,omitempty"`
	Address string    `json:"address,omitempty"`
	// Mint is the token traded when Address named its pool.
	Mint string `json:"mint,omitempty"`
	// MintAddresses are a launch's mints, one per configs[] entry.
	MintAddresses []string        `json:"mint_addresses,omitempty"`
	State         string          `json:"state"`
	Signatures    []wire.SigState `json:"signatures"`
	// SkippedWallets are the order's wallets that sent nothing, and why.
	SkippedWallets []wire.WalletSkip `json:"skipped_wallets,omitempty"`
	Error          *apierr.Body      `json:"error,omitempty"`
	// Exit is the exit an exit_fired event is about; nil on the others.
	Exit *Exit     `json:"exit,omitempty"`
	At   time.Time `json:"at"`

	// noPosition: the order opens and sells no position (a buy without
	// auto-orders, a launch); the event is published with HeaderPositions
	// so that the exits engines need not read it.
	noPosition bool
	// repeat: emitted again for an order final before (EmitAgain).
	repeat bool
}

// Exit describes the auto-order exit of an exit_fired event.
type Exit struct {
	// PositionID is the position the exit sells, as the buy's order
	// lookup lists it.
	PositionID string `json:"position_id"`
	Wallet     string `json:"wallet"`
	// Type is the exit's type (take_profit, stop_loss, trailing_stop,
	// time, dev_sell).
	Type        string `json:"type"`
	SellOrderID string `json:"sell_order_id"`
	// DeferredMs is how much later than its trigger the sell entered the
	// pipeline, when something held it back; DeferredReason says what
	// (budget: the account's exit budget; resumed: the engine that fired
	// it stopped before its publish; handover: its token's engine let the
	// time exit wait; venue_paused: it was due while its venue was
	// paused; stopped: a time exit due while no exits engine ran). Both
	// are absent for an exit sold on time.
	DeferredMs     int64  `json:"deferred_ms,omitempty"`
	DeferredReason string `json:"deferred_reason,omitempty"`
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
		Side: o.Side, Address: o.Token, Mint: o.Mint, State: o.State, Signatures: sigs, At: at.UTC(),
		SkippedWallets: slices.Clone(o.SkippedWallets),
		// What the exits engines would find in the record: a position is
		// opened by a swap buy with auto-orders only, and only sells close
		// one. An order's auto-orders are fixed when it is created.
		noPosition: o.Side != wire.Sell && (o.Kind != wire.KindSwap || len(o.AutoOrders) == 0)}
	if o.Error != nil {
		b := *o.Error
		e.Error = &b
	}
	e.Kind = o.Kind
	if o.Deploy != nil {
		e.MintAddresses = slices.Clone(o.Deploy.MintAddresses)
	}
	return e
}

// WebhookBody returns the JSON body POSTed to a webhook: the event as the
// stream has it, but for its account_id (the receiver is the account, so
// it would tell it nothing) and with signatures [] rather than null.
func (e *Event) WebhookBody() ([]byte, error) {
	body := *e
	body.AccountID = "" // omitted
	if body.Signatures == nil {
		body.Signatures = []wire.SigState{}
	}
	b, err := json.Marshal(&body)
	if err != nil {
		return nil, fmt.Errorf("encode webhook body of %s: %w", e.ID, err)
	}
	return b, nil
}

// SignatureHeader is the X-Tradeapi-Signature value of a body sent at a
// time: "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">", keyed with
// the secret's bytes. The time is inside the signed string, so a receiver
// that refuses a t older than its tolerance refuses a captured request
// replayed later.
func SignatureHeader(secret string, at time.Time, body []byte) string {
	t := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "t=" + t + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}
