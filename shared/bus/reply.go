package bus

import (
	"encoding/json"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Reply answers the ingress waiting on inbox (the reply-inbox header of a
// job) over core NATS. An empty inbox is ignored: the job was republished
// by a redelivery or an exit, and nobody waits for it. A reply that cannot
// be published is dropped on purpose: the waiting ingress times out into
// 504 with the order id, and the order lookup holds the answer.
func Reply(nc *nats.Conn, inbox string, r *wire.Reply) {
	if inbox == "" {
		return
	}
	b, _ := json.Marshal(r)
	_ = nc.Publish(inbox, b)
}
