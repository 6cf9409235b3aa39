package evm

import (
	"context"
	"testing"

	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// BenchmarkSignBuy is the signer's cost of a one-wallet buy on a named
// chain over the local chain's HTTP JSON-RPC: the quotes of the token's
// pools, the wallet and the fees read meanwhile, the nonce taken while the
// swap is simulated, and the signature. The gas limit is the chain's known
// one: only the first buy waits for an estimate.
func BenchmarkSignBuy(b *testing.B) {
	e := newEnv(b)
	tok := e.token(b, wire.ChainEth, "", 0, 0)
	w := e.wallet(b, wire.ChainEth, "100000", nil)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		batch, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			b.Fatal(err)
		}
		settle(b, e, batch)
	}
}

// BenchmarkSignBuyV3 is the same buy of a token whose only pool is a V3
// pool: the quotes of the pair and the four fee tiers find it.
func BenchmarkSignBuyV3(b *testing.B) {
	e := newEnv(b)
	tok := e.tokenOn(b, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3})
	w := e.wallet(b, wire.ChainEth, "100000", nil)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		batch, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			b.Fatal(err)
		}
		settle(b, e, batch)
	}
}

// BenchmarkSignBuyResolved is the same buy with the chain omitted: the
// pool is looked up on all five chains.
func BenchmarkSignBuyResolved(b *testing.B) {
	e := newEnv(b)
	tok := newBindKey(b).deployOn(b, e, wire.ChainEth, "10")
	w := e.wallet(b, wire.ChainEth, "100000", nil)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		batch, err := e.signer.Sign(ctx, e.job("", wire.Buy, tok, "", legOf(w, "0.01")))
		if err != nil {
			b.Fatal(err)
		}
		settle(b, e, batch)
	}
}

// BenchmarkTaxProbe is the cost of one tax probe of a taxed token: one
// eth_call with a state override running a buy and a sell.
func BenchmarkTaxProbe(b *testing.B) {
	e := newEnv(b)
	tok := e.token(b, wire.ChainEth, "", 500, 1000)
	ctx := context.Background()
	w := e.wallet(b, wire.ChainEth, "1", nil)
	m, err := e.signer.resolve(ctx, mustParse(b, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))),
		[]*chainState{e.signer.chains[wire.ChainEth]}, nil)
	if err != nil {
		b.Fatalf("pool: %v", err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.signer.probeTax(ctx, m.best); err != nil {
			b.Fatal(err)
		}
	}
}

// settle sends and mines batch outside the timer, as the broadcaster would:
// the wallet's nonce record then holds only what is in flight, as it does
// in a deployment, and its funds pay only for what was bought.
func settle(b *testing.B, e *env, batch *wire.TxBatch) {
	b.StopTimer()
	e.broadcast(b, batch)
	b.StartTimer()
}

func mustParse(t testing.TB, job *wire.SwapJob) *order {
	t.Helper()
	o, err := parseJob(job)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
