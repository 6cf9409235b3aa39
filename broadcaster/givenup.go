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

// givenUpMsg is a batch whose deliveries TXS spent, handed to handle once
// more as its final delivery: its subject, headers and data as the stream
// keeps them, acknowledged (or handed back) through the server's notice
// of it, which is what the pool keeps in progress meanwhile.
type givenUpMsg struct {
	jetstream.Msg // the notice
	batch         *jetstream.RawStreamMsg
	attempt       uint64
}

func (g *givenUpMsg) Data() []byte         { return g.batch.Data }
func (g *givenUpMsg) Headers() nats.Header { return g.batch.Header }
func (g *givenUpMsg) Subject() string      { return g.batch.Subject }
func (g *givenUpMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: g.attempt, Timestamp: g.batch.Time, Stream: bus.StreamTxs,
		Consumer: bus.GivenUpConsumer, Sequence: jetstream.SequencePair{Stream: g.batch.Sequence}}, nil
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
	g, err := bus.ReadGivenUp(ctx, br.js, m.Data())
	switch {
	case errors.Is(err, bus.ErrNotGivenUpNotice):
		br.log.Error("a notice of a given-up batch that cannot be read dropped", "err", err)
		metrics.MessagesDropped.WithLabelValues(bus.GivenUpConsumer, metrics.MessageUndecodable).Inc()
		_ = m.Term()
		return
	case errors.Is(err, jetstream.ErrMsgNotFound):
		br.log.Error("a batch whose every delivery died is no longer in TXS (aged out); its order is left as it was", "err", err)
		_ = m.Ack()
		return
	case err != nil:
		br.log.Warn("read a batch whose every delivery died, will retry", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	metrics.Redeliveries.WithLabelValues(bus.GivenUpConsumer).Inc()
	br.log.Warn("every delivery of a batch died with its process; taken once more, as its final delivery, to settle its order",
		"order_id", g.Msg.Header.Get(bus.HeaderOrder), "subject", g.Msg.Subject, "deliveries", g.Deliveries)
	br.handle(&givenUpMsg{Msg: m, batch: g.Msg, attempt: uint64(br.maxDeliver())})
}
