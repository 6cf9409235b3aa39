package broadcaster

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/metrics"
)

// givenUpDeliveries bounds the deliveries of a notice of a batch given up
// (GivenUpConsumer): a batch that panics its handler, or kills its
// process, on every delivery is tried that many times more, not for the
// day TXS keeps it. A read of TXS that fails is tried again after
// givenUpReadRetry doubling, which outlasts a stream leader's election.
const (
	givenUpDeliveries = 5
	givenUpReadRetry  = time.Second
)

// givenUpMsg is a batch whose deliveries TXS spent, handed to handle once
// more: its subject, headers and data as the stream keeps them,
// acknowledged (or handed back) through the server's notice of it, which
// is what the pool keeps in progress meanwhile. It runs as the batch's
// final delivery, but for a stop: handed back, the notice comes again,
// unless this is its own last delivery (last).
type givenUpMsg struct {
	jetstream.Msg // the notice
	batch         *jetstream.RawStreamMsg
	attempt       uint64
	last          bool
}

func (g *givenUpMsg) Data() []byte         { return g.batch.Data }
func (g *givenUpMsg) Headers() nats.Header { return g.batch.Header }
func (g *givenUpMsg) Subject() string      { return g.batch.Subject }
func (g *givenUpMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: g.attempt, Timestamp: g.batch.Time, Stream: bus.StreamTxs,
		Consumer: bus.GivenUpConsumer, Sequence: jetstream.SequencePair{Stream: g.batch.Sequence}}, nil
}

// lastDelivery reports whether m, delivery attempt of its batch, is the
// last the batch gets: handed back, it would be dropped, its order never
// settled. It is the stream's final delivery, or a notice's own last.
func (br *Broadcaster) lastDelivery(m jetstream.Msg, attempt uint64) bool {
	if g, ok := m.(*givenUpMsg); ok {
		return g.last
	}
	return br.finalDelivery(attempt)
}

// handleGivenUp takes a batch the stream handed out as many times as it
// may with none acknowledged: each delivery died with its process (killed
// during a launch, the longest of deliveries, seven times over). Dropped,
// its order was never settled: what an earlier delivery sent neither
// tracked nor recorded, a launch left broadcast for good. It runs as the
// batch's final delivery does: what settled is answered again, what may
// have been sent is found on chain and tracked, nothing is sent twice.
// The notice goes back while TXS cannot be read.
func (br *Broadcaster) handleGivenUp(m jetstream.Msg) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n := uint64(1)
	if md, _ := m.Metadata(); md != nil {
		n = md.NumDelivered
	}
	g, err := bus.ReadGivenUp(ctx, br.js, m.Data())
	switch {
	case errors.Is(err, bus.ErrNotGivenUpNotice):
		br.log.Error("a notice of a given-up batch that cannot be read dropped", "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.GivenUpConsumer, metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return
	case errors.Is(err, jetstream.ErrMsgNotFound):
		br.log.Error("a batch whose every delivery died is no longer in TXS (aged out); its order is left as it was",
			"sequence", g.Sequence, "err", err)
		_ = m.Ack()
		return
	case err != nil && n < givenUpDeliveries:
		br.log.Warn("read a batch whose every delivery died, will retry", "sequence", g.Sequence, "err", err)
		_ = m.NakWithDelay(givenUpReadRetry << (n - 1))
		return
	case err != nil:
		br.log.Error("a batch whose every delivery died could not be read from TXS on its notice's last delivery; its order is left as it was",
			"sequence", g.Sequence, "err", err)
		_ = m.Ack()
		return
	}
	last := n >= givenUpDeliveries
	order := g.Msg.Header.Get(bus.HeaderOrder)
	metrics.Redeliveries.WithLabelValues(bus.GivenUpConsumer).Inc()
	if last {
		br.log.Error("a batch whose every delivery died, taken from its notice for the last time: should this one die too, its order is left as it is",
			"order_id", order, "subject", g.Msg.Subject, "deliveries", g.Deliveries, "notice_deliveries", n)
	} else {
		br.log.Warn("every delivery of a batch died with its process; taken once more, as its final delivery, to settle its order",
			"order_id", order, "subject", g.Msg.Subject, "deliveries", g.Deliveries, "notice_deliveries", n)
	}
	br.handle(&givenUpMsg{Msg: m, batch: g.Msg, attempt: uint64(br.maxDeliver()), last: last})
}
