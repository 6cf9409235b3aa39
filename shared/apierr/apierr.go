// Package apierr holds the public error codes of the API and the one error
// type that carries them through every process of the pipeline.
//
// A code decides the HTTP status that ingress answers and the kind decides
// how a consumer ends a message: a permanent error is answered and the
// message terminated, a transient one is retried.
package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"unicode/utf8"
)

// Code is a machine-readable error code as sent in error.code.
type Code string

// The public error codes. README.md lists each one; a test keeps the two in step.
const (
	Unauthorized        Code = "UNAUTHORIZED"
	InvalidRequest      Code = "INVALID_REQUEST"
	NoWallets           Code = "NO_WALLETS"
	WalletNotOwned      Code = "WALLET_NOT_OWNED"
	TaxOutOfRange       Code = "TAX_OUT_OF_RANGE"
	LiquidityOutOfRange Code = "LIQUIDITY_OUT_OF_RANGE"
	MarketCapOutOfRange Code = "MARKET_CAP_OUT_OF_RANGE"
	TokenNotFound       Code = "TOKEN_NOT_FOUND"
	InsufficientBalance Code = "INSUFFICIENT_BALANCE"
	NotFound            Code = "NOT_FOUND"
	MethodNotAllowed    Code = "METHOD_NOT_ALLOWED"
	RateLimited         Code = "RATE_LIMITED"
	UpstreamTimeout     Code = "UPSTREAM_TIMEOUT"
	BroadcastFailed     Code = "BROADCAST_FAILED"
	ChainUnavailable    Code = "CHAIN_UNAVAILABLE"
	Overloaded          Code = "OVERLOADED"
	KeyLimit            Code = "KEY_LIMIT"
	IdempotencyConflict Code = "IDEMPOTENCY_CONFLICT"
	// VenuePaused: the venue an order needs is paused because what the
	// service checks of it on chain no longer matches what it was built
	// for; details names the venue, the message says what changed.
	VenuePaused Code = "VENUE_PAUSED"
	// VenueStillFailing: the admin API was asked to resume a venue whose
	// checks still fail; the message carries the reason.
	VenueStillFailing Code = "VENUE_STILL_FAILING"
	// Forbidden: the admin API refuses a browser's request that is not
	// the console's own (another site's page, or no CSRF header).
	Forbidden Code = "FORBIDDEN"
	Internal  Code = "INTERNAL"
)

// Kind groups codes by what the caller should do about them.
type Kind int

// Kinds of errors.
const (
	KindInternal     Kind = iota // a bug or an unexpected state
	KindInvalid                  // the request can never succeed as sent
	KindUnauthorized             // credentials are missing or wrong
	KindNotFound                 // the thing named does not exist
	KindRejected                 // valid, but refused by a business rule
	KindRateLimited              // a budget window is spent
	KindTransient                // may succeed if tried again later
)

type entry struct {
	status  int
	kind    Kind
	message string
}

var table = map[Code]entry{
	Unauthorized:        {http.StatusUnauthorized, KindUnauthorized, "missing, malformed, unknown or revoked API key"},
	InvalidRequest:      {http.StatusBadRequest, KindInvalid, "the request is not valid"},
	NoWallets:           {http.StatusBadRequest, KindInvalid, "wallets is an empty array"},
	WalletNotOwned:      {http.StatusForbidden, KindInvalid, "a wallet does not belong to the account"},
	TaxOutOfRange:       {http.StatusUnprocessableEntity, KindRejected, "token tax exceeds max_tax"},
	LiquidityOutOfRange: {http.StatusUnprocessableEntity, KindRejected, "pool liquidity is outside the given bounds"},
	MarketCapOutOfRange: {http.StatusUnprocessableEntity, KindRejected, "market cap is outside the given bounds"},
	TokenNotFound:       {http.StatusNotFound, KindNotFound, "no tradable pool or curve for the token"},
	InsufficientBalance: {http.StatusUnprocessableEntity, KindRejected, "a wallet cannot pay the amount plus fees"},
	NotFound:            {http.StatusNotFound, KindNotFound, "not found"},
	MethodNotAllowed:    {http.StatusMethodNotAllowed, KindInvalid, "method not allowed"},
	RateLimited:         {http.StatusTooManyRequests, KindRateLimited, "rate limit exceeded"},
	UpstreamTimeout:     {http.StatusGatewayTimeout, KindTransient, "the pipeline did not answer in time"},
	BroadcastFailed:     {http.StatusBadGateway, KindRejected, "the chain refused every transaction of the order"},
	ChainUnavailable:    {http.StatusServiceUnavailable, KindTransient, "no worker is serving this chain"},
	Overloaded:          {http.StatusServiceUnavailable, KindTransient, "the chain's pending work is past its bound"},
	KeyLimit:            {http.StatusConflict, KindRejected, "a family has at most 5 live keys"},
	IdempotencyConflict: {http.StatusConflict, KindRejected, "Idempotency-Key reused with a different body"},
	VenuePaused:         {http.StatusServiceUnavailable, KindTransient, "the venue this order needs is paused"},
	VenueStillFailing:   {http.StatusConflict, KindRejected, "the venue's checks still fail"},
	Forbidden:           {http.StatusForbidden, KindUnauthorized, "the request is refused for where it comes from"},
	Internal:            {http.StatusInternalServerError, KindInternal, "internal error"},
}

// Codes returns every public code, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(table))
	for c := range table {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Status returns the HTTP status of a code.
func (c Code) Status() int {
	if e, ok := table[c]; ok {
		return e.status
	}
	return http.StatusInternalServerError
}

// Kind returns the kind of a code.
func (c Code) Kind() Kind {
	if e, ok := table[c]; ok {
		return e.kind
	}
	return KindInternal
}

// Error is an error with a public code. Message and Details are shown to the
// client; Err is the cause, kept for logs and never rendered.
type Error struct {
	Code    Code
	Message string
	Details string // empty renders as null
	// HTTPStatus overrides the code's status (413 and 415 are INVALID_REQUEST).
	HTTPStatus int
	Err        error
}

// New returns an error with a code and a message.
func New(code Code, message string) *Error {
	if message == "" {
		message = table[code].message
	}
	return &Error{Code: code, Message: message}
}

// Newf returns an error with a code, a formatted message and details.
func Newf(code Code, details string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// Invalid returns INVALID_REQUEST naming field in details.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: InvalidRequest, Message: fmt.Sprintf(format, args...), Details: field}
}

// Wrap returns INTERNAL carrying err as its cause.
func Wrap(err error, message string) *Error {
	return &Error{Code: Internal, Message: message, Err: err}
}

// WithOrder returns a copy of e whose details name the order, so that a
// client can look the order up after a 5xx.
func (e *Error) WithOrder(orderID string) *Error {
	c := *e
	b, _ := json.Marshal(map[string]string{"order_id": orderID})
	c.Details = string(b)
	return &c
}

// Status returns the HTTP status to answer with.
func (e *Error) Status() int {
	if e.HTTPStatus != 0 {
		return e.HTTPStatus
	}
	return e.Code.Status()
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Message
	if e.Details != "" {
		s += " (" + e.Details + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// From returns the *Error in err's chain, or INTERNAL wrapping err.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Wrap(err, table[Internal].message)
}

// Body is the error object of the envelope, as it travels on the wire.
type Body struct {
	Code    Code    `json:"code"`
	Message string  `json:"message"`
	Details *string `json:"details"`
}

// Body renders e as the envelope's error object.
func (e *Error) Body() Body {
	b := Body{Code: e.Code, Message: bounded(e.Message, MaxMessage)}
	if e.Details != "" {
		d := bounded(e.Details, MaxDetails)
		b.Details = &d
	}
	return b
}

// The longest message and details an answer carries, in bytes: an error
// that repeats what a request sent (a venue's name, a chain) repeats at
// most this much of it, not the 64 KiB a body may hold.
const (
	MaxMessage = 1024
	MaxDetails = 256
)

// bounded cuts s to at most limit bytes, at a character's boundary, its end
// marked by an ellipsis.
func bounded(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	const more = "…"
	cut := limit - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}

// FromBody turns a wire error object back into an *Error.
func FromBody(b Body) *Error {
	e := &Error{Code: b.Code, Message: b.Message}
	if b.Details != nil {
		e.Details = *b.Details
	}
	return e
}
