package bus

import (
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// Conflict reports whether a compare-and-set write failed because the key
// or subject moved on first: a bucket's Create over a key that exists, an
// Update or a Delete with a revision that is no longer the last, a publish
// expecting a last sequence that is not. The server answers these with
// the wrong-last-sequence code (10071), or with its variant for replicated
// streams' batched writes (10164); either is a conflict, never the store's
// trouble.
func Conflict(err error) bool {
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return true
	}
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
