package bus

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Void makes sure no batch of an order is ever handed to a broadcaster:
// it puts a void marker (HeaderVoid), create-only, on the order's batch
// subject of each chain its job may be signed for, where a worker
// publishes the batch create-only too, so that exactly one of the two is
// there. It reports true when every subject holds the marker (no batch can
// follow), false when one holds a batch (the order was signed), and an
// error when that could not be told.
func Void(ctx context.Context, js jetstream.JetStream, chains []string, orderID string) (bool, error) {
	st, err := js.Stream(ctx, StreamTxs)
	if err != nil {
		return false, err
	}
	if st.CachedInfo().Config.Retention == jetstream.WorkQueuePolicy {
		// A work queue deletes what the broadcaster acks, the void with
		// it: a batch could follow it.
		return false, ErrCannotVoid
	}
	var unknown error
	for _, chain := range chains {
		subject := BatchSubject(chain, orderID)
		msg := &nats.Msg{Subject: subject, Header: nats.Header{}}
		msg.Header.Set(HeaderVoid, "1")
		msg.Header.Set(HeaderOrder, orderID)
		// A message id of its own per subject: the batch's is the order id.
		_, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(orderID+".void."+chain), jetstream.WithExpectLastSequencePerSubject(0))
		switch {
		case err == nil:
		case Conflict(err): // the order's batch, or its void, is there already
			if voided, rerr := voidedBefore(ctx, st, subject); rerr != nil {
				unknown = rerr
			} else if !voided {
				return false, nil
			}
		default:
			unknown = fmt.Errorf("void %s: %w", subject, err)
		}
	}
	if unknown != nil {
		return false, unknown
	}
	return true, nil
}

// ErrCannotVoid: TXS is kept as a work queue (a deployment of an earlier
// version not migrated), where a void does not last.
var ErrCannotVoid = errors.New("TXS is a work queue (an earlier version's), where an order cannot be voided: drain and delete it to migrate")

// voidedBefore reports whether subject's message in TXS (st) is a void
// marker (an earlier try of Void took it) rather than a batch.
func voidedBefore(ctx context.Context, st jetstream.Stream, subject string) (bool, error) {
	m, err := st.GetLastMsgForSubject(ctx, subject)
	if err != nil {
		return false, err
	}
	return m.Header.Get(HeaderVoid) != "", nil
}
