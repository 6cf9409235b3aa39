package broadcaster

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestLaunchCountsAsBoughtOnceItsCreateLanded: a launch's coin is in the
// account's trade history, under its mint, pool and bonding curve, by the
// time the order lookup shows its mint, while its later bundles are still
// on their way: a skip_if_bought buy of it by another wallet of the account
// is skipped then. It was written only at the launch's settle, and a buy
// in between traded.
func TestLaunchCountsAsBoughtOnceItsCreateLanded(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	p := newPipeline(t)
	c := &stallingRelayChain{stall: 2, stalled: make(chan struct{}), landed: map[string]bool{}, sent: map[int]int{}}
	br := New(Config{Poll: 20 * time.Millisecond}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: c}, p.log)
	b := batchOf("eu-deploy-counts", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m"},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m"})
	b.Kind, b.Mints, b.Pools, b.Curves = wire.KindDeploy, []string{"m"}, []string{"pool-m"}, []string{"curve-m"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		br.handleDeploy(quietMsg{}, b, nats.NewInbox(), 1, false, p.log)
	}()
	select {
	case <-c.stalled:
	case <-time.After(20 * time.Second):
		t.Fatal("the second bundle was never sent")
	}
	if o := p.order(t, b.OrderID); o.State != wire.StateBroadcast || o.Deploy == nil || !slices.Equal(o.Deploy.MintAddresses, []string{"m"}) {
		t.Fatalf("order %s %+v, want broadcast showing mint m", o.State, o.Deploy)
	}
	for _, name := range []string{"m", "pool-m", "curve-m"} {
		e, err := p.bus.Buckets.Trades.Get(context.Background(), wire.TradeKey(b.AccountID, b.Family, b.Chain, name))
		if err != nil {
			t.Fatalf("trade history under %s while the launch goes on: %v; want it bought", name, err)
		}
		if _, final := wire.TradeHolders(e.Value()); !final || string(e.Value()) != b.OrderID {
			t.Fatalf("trade history under %s holds %q, want bought for good by %s", name, e.Value(), b.OrderID)
		}
	}
	close(br.stopping)
	<-done
}
