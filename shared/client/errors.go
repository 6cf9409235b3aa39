package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
)

// Code is a machine-readable error code, as in error.code of an answer.
type Code string

// The API's error codes. A test keeps them equal to the server's table.
const (
	CodeUnauthorized        Code = "UNAUTHORIZED"
	CodeInvalidRequest      Code = "INVALID_REQUEST"
	CodeNoWallets           Code = "NO_WALLETS"
	CodeWalletNotOwned      Code = "WALLET_NOT_OWNED"
	CodeTaxOutOfRange       Code = "TAX_OUT_OF_RANGE"
	CodeLiquidityOutOfRange Code = "LIQUIDITY_OUT_OF_RANGE"
	CodeMarketCapOutOfRange Code = "MARKET_CAP_OUT_OF_RANGE"
	CodeTokenNotFound       Code = "TOKEN_NOT_FOUND"
	CodeInsufficientBalance Code = "INSUFFICIENT_BALANCE"
	CodeNotFound            Code = "NOT_FOUND"
	CodeMethodNotAllowed    Code = "METHOD_NOT_ALLOWED"
	CodeRateLimited         Code = "RATE_LIMITED"
	CodeUpstreamTimeout     Code = "UPSTREAM_TIMEOUT"
	CodeBroadcastFailed     Code = "BROADCAST_FAILED"
	CodeChainUnavailable    Code = "CHAIN_UNAVAILABLE"
	CodeOverloaded          Code = "OVERLOADED"
	CodeKeyLimit            Code = "KEY_LIMIT"
	CodeIdempotencyConflict Code = "IDEMPOTENCY_CONFLICT"
	CodeVenuePaused         Code = "VENUE_PAUSED"
	CodeVenueStillFailing   Code = "VENUE_STILL_FAILING"
	CodeForbidden           Code = "FORBIDDEN"
	CodeInternal            Code = "INTERNAL"
)

// Codes returns every error code, sorted.
func Codes() []Code {
	out := []Code{
		CodeUnauthorized, CodeInvalidRequest, CodeNoWallets, CodeWalletNotOwned, CodeTaxOutOfRange,
		CodeLiquidityOutOfRange, CodeMarketCapOutOfRange, CodeTokenNotFound, CodeInsufficientBalance,
		CodeNotFound, CodeMethodNotAllowed, CodeRateLimited, CodeUpstreamTimeout, CodeBroadcastFailed,
		CodeChainUnavailable, CodeOverloaded, CodeKeyLimit, CodeIdempotencyConflict, CodeVenuePaused,
		CodeVenueStillFailing, CodeForbidden, CodeInternal,
	}
	slices.Sort(out)
	return out
}

// ErrorBody is the error object of an answer, and of a failed order.
type ErrorBody struct {
	Code    Code    `json:"code"`
	Message string  `json:"message"`
	Details *string `json:"details"`
}

// Error is an error answer of the API. Code is empty when the answer was
// not the API's JSON envelope (a proxy's page, say).
type Error struct {
	Status  int
	Code    Code
	Message string
	// Details is the answer's details, "" when null: the field at fault
	// for INVALID_REQUEST, the wallet for WALLET_NOT_OWNED, the window for
	// RATE_LIMITED, a JSON object for a 5xx of an accepted order.
	Details string
	// OrderID names the order of a 5xx answered after the order was
	// accepted, or of an answer with X-Order-Id (also one of an earlier
	// attempt of the call): look it up with Client.Order before trading
	// again.
	OrderID string
	// Meta describes the answer: its request id, rate headers and the
	// Idempotency-Key the call sent.
	Meta Meta
}

func (e *Error) Error() string {
	s := fmt.Sprintf("tradeapi: %d", e.Status)
	if e.Code != "" {
		s += " " + string(e.Code)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Details != "" {
		s += " (" + e.Details + ")"
	}
	return s
}

// ErrWalletsUnchosen is Client.Swap's refusal, before anything is sent, of
// a request whose Wallets is nil without AllSpotActive (the service would
// trade every spot-active wallet), or that sets AllSpotActive and names
// wallets too.
var ErrWalletsUnchosen = errors.New("tradeapi: swap: choose the wallets: name them in SwapRequest.Wallets, or set SwapRequest.AllSpotActive to trade every spot-active wallet")

// RequestError is a call that got no answer of the API to return as an
// *Error: the connection failed, the context ended, or the answer could
// not be read or decoded. A swap or a deploy may have been taken all the
// same; Meta names the Idempotency-Key it was sent with, to send it again
// under (IdempotencyKey), and the order when an answer named one. Err is
// the cause: errors.Is(err, context.DeadlineExceeded) sees through it.
type RequestError struct {
	Method, Path string
	Meta         Meta
	Err          error
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("tradeapi: %s %s: %v", e.Method, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// IdempotencyKeyOf returns the Idempotency-Key a failed call sent (an
// *Error or a *RequestError in err's chain), "" when it sent none or err is
// not a call's. Retry the order with IdempotencyKey and the same request.
func IdempotencyKeyOf(err error) string {
	if m := metaOf(err); m != nil {
		return m.IdempotencyKey
	}
	return ""
}

// OrderIDOf returns the order a failed swap or deploy started, as an answer
// named it (X-Order-Id, or the order_id of a 5xx), "" when no answer did.
// Look it up with Client.Order before trading again.
func OrderIDOf(err error) string {
	if m := metaOf(err); m != nil {
		return m.OrderID
	}
	return ""
}

func metaOf(err error) *Meta {
	var e *Error
	if errors.As(err, &e) {
		return &e.Meta
	}
	var r *RequestError
	if errors.As(err, &r) {
		return &r.Meta
	}
	return nil
}

// Retryable reports whether sending the same request again soon, under
// the same Idempotency-Key, may get another answer, as the service's
// answers mean:
//
//   - 503 OVERLOADED and CHAIN_UNAVAILABLE: answered at once, nothing
//     charged or kept for the key; yes, after a pause.
//   - 429 RATE_LIMITED: after Meta.Rate.RetryAfter, when a window resets.
//   - a 502, 503 or 504 that is not the API's answer (a proxy's): the
//     request may not have reached the service; yes.
//   - 502 BROADCAST_FAILED and 504 UPSTREAM_TIMEOUT: no. The order was
//     charged and its answer kept for the key, which a repeat only
//     replays; look the order up (OrderID) and wait for it.
//   - 503 VENUE_PAUSED: no, not soon. The venue stays paused until the
//     service's checks of it pass again (no Retry-After says when);
//     Details names it. Nothing was charged or kept: the same request may
//     be sent again later, when it still makes sense to trade.
//   - a replayed answer (Meta.Replayed) and every other code: no.
func (e *Error) Retryable() bool {
	if e.Meta.Replayed {
		return false
	}
	switch e.Code {
	case CodeOverloaded, CodeChainUnavailable, CodeRateLimited:
		return true
	case "":
		switch e.Status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
	}
	return false
}

// CodeOf returns the API error code in err's chain, or "" when err is not
// an API answer.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsCode reports whether err is an API answer with the given code.
func IsCode(err error, code Code) bool { return CodeOf(err) == code }

// newError builds the error of a non-2xx answer from its body.
func newError(status int, body []byte, meta Meta) *Error {
	e := &Error{Status: status, Meta: meta}
	var env struct {
		Error *ErrorBody `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil || env.Error == nil {
		e.Message = "the answer is not the API's error envelope"
		return e
	}
	e.Code, e.Message = env.Error.Code, env.Error.Message
	if env.Error.Details != nil {
		e.Details = *env.Error.Details
		var d struct {
			OrderID string `json:"order_id"`
		}
		if status >= 500 && json.Unmarshal([]byte(e.Details), &d) == nil {
			e.OrderID = d.OrderID
		}
	}
	return e
}
