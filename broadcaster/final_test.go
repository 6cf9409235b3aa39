package broadcaster

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// panickyTracking panics on its first n Puts, as a defect in storing a
// batch's tracking that repeats on every delivery.
type panickyTracking struct {
	jetstream.KeyValue
	n     int64
	calls atomic.Int64
}

func (k *panickyTracking) Put(ctx context.Context, key string, v []byte) (uint64, error) {
	if k.calls.Add(1) <= k.n {
		panic("a defect in storing the tracking")
	}
	return k.KeyValue.Put(ctx, key, v)
}

// TestFinalDeliveryKeepsFailedFailed: a batch whose storing panics on every
// delivery, after its record holds one transaction failed (the node
// refused it) and the other taken. Its final delivery tracks the taken one
// only: the refused one, whose wallet is funded afterwards, is never sent
// again, so it cannot land after its bot was told it did not trade.
func TestFinalDeliveryKeepsFailedFailed(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(srv.Close)
	broke := sol.NewWallet()
	refused := signedTransfer(t, chain, broke, 10_000_000)
	taken := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	b := *p.bus.Buckets
	// MaxAttempts 1: five deliveries, each panicking in its tracking.
	tracking := &panickyTracking{KeyValue: b.Tracking, n: 5}
	b.Tracking = tracking
	s := NewSolana(endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(time.Second), false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	br := New(Config{MaxAttempts: 1, Poll: 20 * time.Millisecond, Rebroadcast: 50 * time.Millisecond},
		p.bus.Conn, p.bus.JS, &b, map[string]Chain{wire.ChainSolana: s}, p.log)
	go func() { done <- br.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	const id = "eu-final-failed"
	p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, refused, taken))
	chain.Airdrop(broke.PublicKey(), 1_000_000_000)
	o := p.orderIn(t, id, 5*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	time.Sleep(300 * time.Millisecond) // deliberate: six rebroadcast intervals
	st, err := rpc.New(srv.URL+"/solana").GetSignatureStatuses(context.Background(), true, sol.MustSignatureFromBase58(refused.Signature))
	if err != nil {
		t.Fatal(err)
	}
	if st.Value[0] != nil {
		t.Fatalf("the refused transaction landed after the final delivery tracked it: %+v (order %s %+v)", st.Value[0], o.State, o.Signatures)
	}
	for _, s := range p.order(t, id).Signatures {
		if s.Signature == refused.Signature && s.State != wire.StateFailed {
			t.Fatalf("the refused transaction is %s", s.State)
		}
	}
}
