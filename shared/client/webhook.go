package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Webhook request headers.
const (
	// HeaderEvent carries the event's type.
	HeaderEvent = "X-Tradeapi-Event"
	// HeaderEventID carries the event's id.
	HeaderEventID = "X-Tradeapi-Event-Id"
	// HeaderSignature carries "sha256=" and the hex HMAC-SHA256 of the raw
	// body, keyed with the webhook secret's bytes.
	HeaderSignature = "X-Tradeapi-Signature"
	// HeaderTimestamp carries the attempt's time in Unix seconds.
	HeaderTimestamp = "X-Tradeapi-Timestamp"
)

// MaxWebhookBody bounds the body ParseWebhook reads.
const MaxWebhookBody = 1 << 20

// EventType is an order event's type.
type EventType string

// The event types.
const (
	EventBroadcast EventType = "broadcast"
	EventConfirmed EventType = "confirmed"
	EventFailed    EventType = "failed"
	EventExpired   EventType = "expired"
	EventExitFired EventType = "exit_fired"
)

// Event is an order event as a webhook receives it. Deliveries are at least
// once and not ordered: drop an ID already seen, and let State (final or
// not) decide rather than the arrival order.
type Event struct {
	ID         string           `json:"id"`
	Type       EventType        `json:"type"`
	OrderID    string           `json:"order_id"`
	Chain      string           `json:"chain,omitempty"`
	Side       Side             `json:"side,omitempty"`
	Address    string           `json:"address,omitempty"`
	State      State            `json:"state"`
	Signatures []OrderSignature `json:"signatures"`
	Error      *ErrorBody       `json:"error,omitempty"`
	At         time.Time        `json:"at"`
}

// ErrBadSignature means a webhook request's signature is missing or does
// not match the body and the secret.
var ErrBadSignature = errors.New("tradeapi: webhook signature does not match")

// VerifySignature checks a webhook body against its X-Tradeapi-Signature
// header value, in constant time.
func VerifySignature(secret string, body []byte, header string) error {
	hexSig, ok := strings.CutPrefix(strings.TrimSpace(header), "sha256=")
	if !ok || secret == "" {
		return ErrBadSignature
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil {
		return ErrBadSignature
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// ParseWebhook reads a webhook request's body (at most MaxWebhookBody
// bytes), verifies its signature and decodes the event. Answer 2xx quickly
// once it returns nil; any other answer makes the service send it again.
func ParseWebhook(r *http.Request, secret string) (*Event, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxWebhookBody+1))
	if err != nil {
		return nil, fmt.Errorf("tradeapi: read webhook body: %w", err)
	}
	if len(body) > MaxWebhookBody {
		return nil, fmt.Errorf("tradeapi: webhook body over %d bytes", MaxWebhookBody)
	}
	if err := VerifySignature(secret, body, r.Header.Get(HeaderSignature)); err != nil {
		return nil, err
	}
	var e Event
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, fmt.Errorf("tradeapi: decode webhook event: %w", err)
	}
	return &e, nil
}
