package broadcaster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// pendingNonces is a chain that re-sends, on which no transaction lands
// and no nonce is ever taken by another: what it tracks stays waiting.
type pendingNonces struct{ *scripted }

func (pendingNonces) Superseded(_ context.Context, txs []wire.SignedTx) ([]bool, error) {
	return make([]bool, len(txs)), nil
}

// TestNothingSentPastSendBy: an EVM batch a broadcaster takes after its
// swaps' deadline (every broadcaster down, or behind, for longer) is not
// sent: it would only revert, and its nonce may by then have gone to
// another order, whose transaction it would compete with. It fails
// saying so. One sent in time is sent again while it waits, and no more
// once its SendBy has passed, by the tracker or a delivery of its batch.
func TestNothingSentPastSendBy(t *testing.T) {
	t.Parallel()
	c := pendingNonces{newScripted(map[string][]error{"0x0a": {nil}, "0x0b": {nil}})}
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond, Resend: 40 * time.Millisecond}, map[string]Chain{"base": c})

	late := batchOf("evm-late", "base", wire.FamilyEVM, wire.SignedTx{Wallet: "0xw", Signature: "0x0a", Raw: []byte{1}})
	late.SignedAt = time.Now().Add(-3 * time.Minute).UTC()
	late.SendBy = late.SignedAt.Add(90 * time.Second)
	r := p.send(t, late)
	if r.Error == nil || r.Error.Code != apierr.BroadcastFailed || !strings.Contains(r.Error.Message, "deadline passed") {
		t.Fatalf("reply %+v, want BROADCAST_FAILED saying its deadline passed", r.Error)
	}
	if o := p.orderIn(t, late.OrderID, 3*time.Second, wire.StateFailed); o.State != wire.StateFailed {
		t.Fatalf("order %s, want failed", o.State)
	}
	if n := c.sent("0x0a"); n != 0 {
		t.Fatalf("a batch past its send-by time sent %d times", n)
	}

	inTime := batchOf("evm-in-time", "base", wire.FamilyEVM, wire.SignedTx{Wallet: "0xw", Signature: "0x0b", Raw: []byte{2}})
	// Time enough to be sent again many times over (every 40 ms), on a
	// machine as loaded as it may be.
	inTime.SendBy = time.Now().Add(2 * time.Second)
	if r := p.send(t, inTime); r.Error != nil {
		t.Fatalf("reply %+v", r.Error)
	}
	if !poll.True(time.Until(inTime.SendBy), func() bool { return c.sent("0x0b") >= 2 }) {
		t.Fatalf("sent %d times before its send-by time, want sent and sent again", c.sent("0x0b"))
	}
	// A send begun before the send-by time may end after it.
	time.Sleep(time.Until(inTime.SendBy) + 500*time.Millisecond)
	at := c.sent("0x0b")
	time.Sleep(300 * time.Millisecond)
	if n := c.sent("0x0b"); n != at {
		t.Fatalf("sent %d times after its send-by time", n-at)
	}
	// Handed out again now, it is not sent, nor failed for it: it was
	// sent, and may land.
	p.redeliver(t, inTime)
	if n := c.sent("0x0b"); n != at {
		t.Fatalf("a delivery after its send-by time sent it %d times", n-at)
	}
	if o := p.orderIn(t, inTime.OrderID, time.Second, wire.StateBroadcast); o.State != wire.StateBroadcast {
		t.Fatalf("order %s, want broadcast: watched until its nonce is taken", o.State)
	}
}

// sent is how many times sig was sent.
func (c *scripted) sent(sig string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tries[sig]
}

// TestLateRedeliveryNotFailed: a batch handed out again after its send-by
// time as a first delivery (a NATS server that died with its broadcaster
// lost the count), whose order's record says nothing of what the delivery
// before sent (it died before writing), is not sent, nor failed: its
// transactions may be in a pool, and land. They are tracked, never sent
// again.
func TestLateRedeliveryNotFailed(t *testing.T) {
	t.Parallel()
	c := pendingNonces{newScripted(map[string][]error{"0x0c": {nil}})}
	p := newPipeline(t)
	inbox := nats.NewInbox()
	sub, _ := p.bus.Conn.SubscribeSync(inbox)
	bt := batchOf("evm-late-again", "base", wire.FamilyEVM, wire.SignedTx{Wallet: "0xw", Signature: "0x0c", Raw: []byte{3}})
	bt.SignedAt = time.Now().Add(-3 * time.Minute).UTC()
	bt.SendBy = bt.SignedAt.Add(90 * time.Second)
	br := New(Config{Poll: 20 * time.Millisecond, Resend: 40 * time.Millisecond, MaxAttempts: 1},
		p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{"base": c}, p.log)
	// Delivery 1 again, as a NATS server that died with the broadcaster
	// hands it out, long after it was stored.
	br.handle(delivered(bt, inbox, 1, bt.SignedAt))
	answer(t, sub)
	if n := c.sent("0x0c"); n != 0 {
		t.Fatalf("sent %d times after its send-by time", n)
	}
	o := p.order(t, bt.OrderID)
	if o.State == wire.StateFailed || len(o.Signatures) != 1 || o.Signatures[0].State == wire.StateFailed {
		t.Fatalf("order %s %+v, want it waiting: its transaction may be in a pool", o.State, o.Signatures)
	}
}
