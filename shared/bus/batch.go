package bus

import (
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// BatchExists reports whether err is the stream's refusal of a create-only
// publish on an order's batch subject (BatchSubject) because a message is
// there already: the order's batch, or its void (HeaderVoid).
func BatchExists(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
