package evm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestSwapBehindApprovalSimulated: a sale that needs the wallet's first
// approval of the router is simulated behind that approval with
// eth_simulateV1. A token that takes the whole of a sale as its tax makes
// the pair's swap revert there, and the order is refused before its
// approval is signed or paid for; the same sale of an honest token signs.
func TestSwapBehindApprovalSimulated(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	w := e.wallet(t, wire.ChainBase, "5", nil)
	trap := e.token(t, wire.ChainBase, "", 0, 10_000)
	honest := e.token(t, wire.ChainBase, "", 0, 0)
	for _, tok := range []common.Address{trap.Address, honest.Address} {
		b, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok, "", legOf(w, "0.1")))
		if err != nil {
			t.Fatal(err)
		}
		e.broadcast(t, b)
	}
	_, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, trap.Address, "", legOf(w, "100")))
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.BroadcastFailed || !strings.Contains(ae.Message, "after its approval") {
		t.Fatalf("a sale the token swallows: %v, want BROADCAST_FAILED from the simulation behind the approval", err)
	}
	b, err := e.signer.Sign(ctx, e.job(wire.ChainBase, wire.Sell, honest.Address, "", legOf(w, "100")))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Txs) != 2 {
		t.Fatalf("%d transactions, want the approval and the swap", len(b.Txs))
	}
	// The refused order gave its nonces back: the honest sale took the
	// wallet's next one, and lands.
	e.broadcast(t, b)
}

// noSimulate is a chain client whose node does not serve eth_simulateV1.
type noSimulate struct {
	*Client
	asked int
}

type methodNotFound struct{}

func (methodNotFound) Error() string {
	return "the method eth_simulateV1 does not exist/is not available"
}
func (methodNotFound) ErrorCode() int { return -32601 }

var _ rpc.Error = methodNotFound{}

func (c *noSimulate) SimulateV1(context.Context, ethclient.SimulateOptions, *rpc.BlockNumberOrHash) ([]ethclient.SimulateBlockResult, error) {
	c.asked++
	return nil, methodNotFound{}
}

// TestSwapBehindApprovalWithoutSimulateV1: a node without eth_simulateV1
// leaves a swap behind an approval unsimulated, as before, and is asked
// once per chain.
func TestSwapBehindApprovalWithoutSimulateV1(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	dep := e.dev.chain(t, wire.ChainBase).Deployment()
	client := &noSimulate{Client: NewClient(e.dial(t, e.dev.url(wire.ChainBase)))}
	s, err := NewSigner([]Chain{{ChainConfig: configOf(dep), Client: client}}, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := e.wallet(t, wire.ChainBase, "5", nil)
	w2 := e.wallet(t, wire.ChainBase, "5", nil)
	tok := e.token(t, wire.ChainBase, "", 0, 0)
	for _, wallet := range []common.Address{w, w2} {
		b, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(wallet, "0.1")))
		if err != nil {
			t.Fatal(err)
		}
		e.broadcast(t, b)
	}
	for _, wallet := range []common.Address{w, w2} {
		b, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(wallet, "100")))
		if err != nil {
			t.Fatalf("sale of %s without eth_simulateV1: %v", wallet, err)
		}
		if len(b.Txs) != 2 {
			t.Fatalf("%d transactions, want the approval and the swap", len(b.Txs))
		}
		e.broadcast(t, b)
	}
	if client.asked != 1 {
		t.Fatalf("eth_simulateV1 asked %d times, want once", client.asked)
	}
}
