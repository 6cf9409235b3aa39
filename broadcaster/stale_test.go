package broadcaster

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// staleScene hands a batch that waited in the stream to a broadcaster as
// its first deliveries (the stream lost count of one that sent it, with
// its order's record: a NATS server killed with the broadcaster), one
// delivery after another until it is answered, and then runs the tracker.
func staleScene(t *testing.T, p *pipeline, chains map[string]Chain, bt *wire.TxBatch) wire.Reply {
	t.Helper()
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tries(2)
	br := New(cfg, p.bus.Conn, p.bus.JS, p.bus.Buckets, chains, p.log)
	old := time.Now().Add(-3 * time.Second)
	for attempt := uint64(1); attempt <= uint64(cfg.MaxAttempts); attempt++ {
		br.handle(delivered(bt, inbox, attempt, old))
	}
	r := answer(t, sub)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go br.tracker.run(ctx)
	return r
}

// TestStaleSolanaResendExpires: a batch sent before by a delivery the
// stream lost count of, whose transaction never landed (the node dropped
// it), comes back; its re-send is refused for its blockhash. It may have
// been sent, so it is not failed: answered as one that may still land,
// tracked, and expired once the chain's height is past its blockhash's.
func TestStaleSolanaResendExpires(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	f := &refusing{next: chain.Handler()}
	f.refuse.Store(true)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	stx.LastValidBlockHeight = chain.Slot() + 1
	p := newPipeline(t)
	const id = "eu-stale"
	r := staleScene(t, p, map[string]Chain{wire.ChainSolana: served(t, f, false)}, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT: an earlier send may land", r.Error)
	}
	o := p.orderIn(t, id, 15*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateExpired || o.Signatures[0].State != wire.StateExpired {
		t.Fatalf("order %s, signature %+v, want expired", o.State, o.Signatures[0])
	}
	poll.Until(t, 5*time.Second, "the expired event", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Expired)
	})
	if got := p.eventTypes(t, id); slices.Contains(got, events.Failed) {
		t.Fatalf("events %v: a transaction that may have been sent was failed", got)
	}
}

// TestStaleEVMResendExpires: the same on EVM, where the transaction's
// nonce was used by another transaction of its wallet meanwhile: it can
// no longer land, and is expired (never failed) once the tracker sees its
// nonce taken.
func TestStaleEVMResendExpires(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 1)
	chain := lc.through(t, lc.chain.Handler())
	stx, _ := lc.transfer(t, 0, 0, 1e9)
	_, rival := lc.transfer(t, 0, 0, 2e9)
	if err := lc.chain.Client().SendTransaction(context.Background(), rival); err != nil {
		t.Fatal(err)
	}
	if _, err := lc.chain.WaitMined(context.Background(), rival.Hash()); err != nil {
		t.Fatal(err)
	}
	p := newPipeline(t)
	const id = "evm-stale"
	r := staleScene(t, p, map[string]Chain{"base": chain}, batchOf(id, "base", wire.FamilyEVM, stx))
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT: an earlier send may land", r.Error)
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateExpired || o.Signatures[0].State != wire.StateExpired {
		t.Fatalf("order %s, signature %+v, want expired", o.State, o.Signatures[0])
	}
}

// TestNonStaleRefusalOfAWaitedBatchFails: a waited batch's transaction
// refused for itself (its wallet cannot pay) is failed as before: only a
// refusal for its blockhash or nonce says nothing of an earlier send.
func TestNonStaleRefusalOfAWaitedBatchFails(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	stx := signedTransfer(t, chain, payer, 10_000_000_000) // more than it holds
	p := newPipeline(t)
	const id = "eu-poor"
	r := staleScene(t, p, map[string]Chain{wire.ChainSolana: served(t, chain.Handler(), false)}, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.BroadcastFailed {
		t.Fatalf("reply %+v, want BROADCAST_FAILED", r.Error)
	}
	if o := p.order(t, id); o.State != wire.StateFailed {
		t.Fatalf("order %s, want failed", o.State)
	}
}
