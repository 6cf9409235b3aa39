package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// GivenUp is a batch the broadcaster's consumer handed out as many times
// as it may with none acknowledged, read back from TXS by the server's
// notice of it (GivenUpSubject).
type GivenUp struct {
	// Msg is the batch as the stream keeps it; nil when it could not be
	// read.
	Msg *jetstream.RawStreamMsg
	// Sequence is the batch's sequence in TXS.
	Sequence uint64
	// Deliveries is how many times it was handed out.
	Deliveries uint64
}

// ReadGivenUp reads the batch a notice of StreamTxsGivenUp names. A notice
// of another stream or consumer, or one that cannot be decoded, is an
// error wrapping ErrNotGivenUpNotice; a batch TXS no longer holds (aged
// out) is jetstream.ErrMsgNotFound. Past a notice that decodes, the
// GivenUp is returned with the error too, naming the batch's sequence.
func ReadGivenUp(ctx context.Context, js jetstream.JetStream, notice []byte) (*GivenUp, error) {
	var adv server.JSConsumerDeliveryExceededAdvisory
	if err := json.Unmarshal(notice, &adv); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotGivenUpNotice, err)
	}
	if adv.Type != server.JSConsumerDeliveryExceededAdvisoryType || adv.Stream != StreamTxs ||
		adv.Consumer != BroadcasterConsumer || adv.StreamSeq == 0 {
		return nil, fmt.Errorf("%w: %s of %s/%s, sequence %d", ErrNotGivenUpNotice, adv.Type, adv.Stream, adv.Consumer, adv.StreamSeq)
	}
	g := &GivenUp{Sequence: adv.StreamSeq, Deliveries: adv.Deliveries}
	st, err := js.Stream(ctx, StreamTxs)
	if err != nil {
		return g, err
	}
	g.Msg, err = st.GetMsg(ctx, adv.StreamSeq)
	return g, err
}

// ErrNotGivenUpNotice is a message of StreamTxsGivenUp that is not the
// server's notice of a batch of the broadcaster's consumer.
var ErrNotGivenUpNotice = errors.New("not a notice of a batch the broadcaster's consumer gave up")
