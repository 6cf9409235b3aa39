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
	"strconv"
	"strings"
	"time"
)

// Webhook request headers.
const (
	// HeaderEvent carries the event's type.
	HeaderEvent = "X-Tradeapi-Event"
	// HeaderEventID carries the event's id.
	HeaderEventID = "X-Tradeapi-Event-Id"
	// HeaderSignature carries "t=<unix seconds>,v1=<hex>": the attempt's
	// time and the HMAC-SHA256 of "<t>.<raw body>", keyed with the webhook
	// secret's bytes.
	HeaderSignature = "X-Tradeapi-Signature"
	// HeaderTimestamp carries the attempt's time in Unix seconds, the t of
	// HeaderSignature; only the signed t is trusted.
	HeaderTimestamp = "X-Tradeapi-Timestamp"
)

// DefaultWebhookTolerance is how far a webhook's signed time may be from
// the receiver's clock, either way, before VerifySignature refuses it as a
// replay: five minutes.
const DefaultWebhookTolerance = 5 * time.Minute

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
	ID      string    `json:"id"`
	Type    EventType `json:"type"`
	OrderID string    `json:"order_id"`
	// Kind is the order's kind: "swap", or "deploy" for a launch.
	Kind    string `json:"kind,omitempty"`
	Chain   string `json:"chain,omitempty"`
	Side    Side   `json:"side,omitempty"`
	Address string `json:"address,omitempty"`
	// Mint is the token traded when Address named its pool.
	Mint string `json:"mint,omitempty"`
	// MintAddresses are a launch's mints, one per configs[] entry, as its
	// answer lists them.
	MintAddresses []string `json:"mint_addresses,omitempty"`
	// State is the order's state, or StateFired on an exit_fired event.
	State      State            `json:"state"`
	Signatures []OrderSignature `json:"signatures"`
	// SkippedWallets are the order's wallets that sent no transaction,
	// each with why: on a sell, a wallet with nothing to sell (it holds
	// none of the token); on a buy, one whose curve the order's earlier
	// wallets completed.
	SkippedWallets []WalletSkip `json:"skipped_wallets,omitempty"`
	Error          *ErrorBody   `json:"error,omitempty"`
	// Exit is the exit an exit_fired event is about; nil on the others.
	Exit *ExitEvent `json:"exit,omitempty"`
	At   time.Time  `json:"at"`
}

// ExitEvent is the auto-order exit an exit_fired event is about.
type ExitEvent struct {
	PositionID  string `json:"position_id"`
	Wallet      string `json:"wallet"`
	Type        string `json:"type"`
	SellOrderID string `json:"sell_order_id"`
	// DeferredMs is how much later than its trigger the sell entered the
	// pipeline, when something held it back, and DeferredReason what:
	// budget (the account's exit budget), resumed (the engine that fired
	// it stopped before its publish), handover (the engine reading its
	// token let the time exit wait), venue_paused (it was due while its
	// venue was paused) or stopped (a time exit due while no exits engine
	// ran). Both are zero for an exit sold on time.
	DeferredMs     int64  `json:"deferred_ms,omitempty"`
	DeferredReason string `json:"deferred_reason,omitempty"`
}

// ErrBadSignature means a webhook request's signature is missing,
// malformed or does not match the body, its time and the secret.
var ErrBadSignature = errors.New("tradeapi: webhook signature does not match")

// ErrWebhookExpired means a webhook request is signed correctly but at a
// time further from now than the tolerance: a replay of a captured request,
// or a clock far off.
var ErrWebhookExpired = errors.New("tradeapi: webhook timestamp outside the tolerance")

// VerifySignature checks a webhook body against its X-Tradeapi-Signature
// header value with DefaultWebhookTolerance around the current time.
func VerifySignature(secret string, body []byte, header string) error {
	return VerifySignatureAt(secret, body, header, time.Now(), DefaultWebhookTolerance)
}

// VerifySignatureAt checks a webhook body against its X-Tradeapi-Signature
// header value ("t=<unix seconds>,v1=<hex>"): one v1 must be the
// HMAC-SHA256 of "<t>.<body>" keyed with the secret, compared in constant
// time, and t must be within tolerance of now, either way. A header may
// carry several v1 values (one per secret during a rotation); one match is
// enough.
func VerifySignatureAt(secret string, body []byte, header string, now time.Time, tolerance time.Duration) error {
	if secret == "" {
		return ErrBadSignature
	}
	ts, sigs, ok := parseSignatureHeader(header)
	if !ok {
		return ErrBadSignature
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	want := mac.Sum(nil)
	matched := false
	for _, sig := range sigs {
		matched = hmac.Equal(sig, want) || matched
	}
	if !matched {
		return ErrBadSignature
	}
	// The time is checked only once the signature vouches for it.
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrBadSignature
	}
	if skew := now.Sub(time.Unix(sec, 0)); skew > tolerance || skew < -tolerance {
		return fmt.Errorf("%w: signed at %s, %s from now", ErrWebhookExpired,
			time.Unix(sec, 0).UTC().Format(time.RFC3339), skew.Round(time.Second))
	}
	return nil
}

// parseSignatureHeader splits "t=<digits>,v1=<hex>[,v1=<hex>...]" into the
// time as sent and the decoded v1 values; other schemes, parts that are no
// key=value pair and v1 values that are no SHA-256 in hex are ignored. ok
// is false without exactly one t or without a v1 that can verify.
func parseSignatureHeader(header string) (ts string, sigs [][]byte, ok bool) {
	for _, part := range strings.Split(header, ",") {
		k, v, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found {
			continue // not a key=value pair: nothing of t or v1
		}
		switch k {
		case "t":
			if ts != "" || v == "" || strings.Trim(v, "0123456789") != "" || len(v) > 18 {
				return "", nil, false
			}
			ts = v
		case "v1":
			// One that is no SHA-256 in hex cannot verify; another v1
			// beside it may.
			if b, err := hex.DecodeString(v); err == nil && len(b) == sha256.Size {
				sigs = append(sigs, b)
			}
		}
	}
	return ts, sigs, ts != "" && len(sigs) > 0
}

// WebhookOption adjusts how ParseWebhook verifies a request.
type WebhookOption func(*webhookCheck)

type webhookCheck struct {
	tolerance time.Duration
	now       func() time.Time
}

// WithWebhookTolerance sets how far the signed time may be from now, either
// way (DefaultWebhookTolerance when not given). Keep it short: a captured
// request can be replayed within it, so drop an event id already seen.
func WithWebhookTolerance(d time.Duration) WebhookOption {
	return func(c *webhookCheck) { c.tolerance = d }
}

// WithWebhookClock sets the clock the signed time is compared with.
func WithWebhookClock(now func() time.Time) WebhookOption {
	return func(c *webhookCheck) { c.now = now }
}

// ParseWebhook reads a webhook request's body (at most MaxWebhookBody
// bytes), verifies its signature and signed time (ErrBadSignature,
// ErrWebhookExpired) and decodes the event.
//
// The answer decides what the service does with the event. A 2xx within
// 5 s ends the delivery: answer it quickly once ParseWebhook returns nil.
// A 5xx, 408 or 429, a timeout or no connection makes the service send the
// event again later (backing off from 1 s, or after the answer's
// Retry-After; at most 15 attempts within 6 hours of the event). A 3xx or
// any other 4xx ends the delivery as rejected: the event is never sent
// again. So answer 5xx, such as 503, not 401, when ParseWebhook returns an
// error: the service signs each attempt with the account's secret of that
// moment, so a receiver whose secret was just rotated refuses good events
// until it holds the new one, as one whose clock is off does until it is
// set right, and a 401 would lose them for good. A forged request learns
// nothing from a 503.
func ParseWebhook(r *http.Request, secret string, opts ...WebhookOption) (*Event, error) {
	c := webhookCheck{tolerance: DefaultWebhookTolerance, now: time.Now}
	for _, o := range opts {
		o(&c)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxWebhookBody+1))
	if err != nil {
		return nil, fmt.Errorf("tradeapi: read webhook body: %w", err)
	}
	if len(body) > MaxWebhookBody {
		return nil, fmt.Errorf("tradeapi: webhook body over %d bytes", MaxWebhookBody)
	}
	if err := VerifySignatureAt(secret, body, r.Header.Get(HeaderSignature), c.now(), c.tolerance); err != nil {
		return nil, err
	}
	var e Event
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, fmt.Errorf("tradeapi: decode webhook event: %w", err)
	}
	return &e, nil
}
