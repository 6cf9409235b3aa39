package evm

import (
	"context"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// BenchmarkSignBuy is the signer's cost of a one-wallet buy on a named
// chain over the local chain's HTTP JSON-RPC: the pool, the wallet, the
// fees, the gas estimate, the nonce and the signature.
func BenchmarkSignBuy(b *testing.B) {
	e := newEnv(b)
	tok := e.token(b, wire.ChainEth, "", 0, 0)
	w := e.wallet(b, wire.ChainEth, "10", nil)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.signer.Sign(ctx, e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignBuyResolved is the same buy with the chain omitted: the
// pool is looked up on all five chains.
func BenchmarkSignBuyResolved(b *testing.B) {
	e := newEnv(b)
	tok := newBindKey(b).deployOn(b, e, wire.ChainEth, "10")
	w := e.wallet(b, wire.ChainEth, "10", nil)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.signer.Sign(ctx, e.job("", wire.Buy, tok, "", legOf(w, "0.01"))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTaxProbe is the cost of one tax probe of a taxed token: one
// eth_call with a state override running a buy and a sell.
func BenchmarkTaxProbe(b *testing.B) {
	e := newEnv(b)
	tok := e.token(b, wire.ChainEth, "", 500, 1000)
	ctx := context.Background()
	o := &order{token: tok.Address}
	p, err := e.signer.findPool(ctx, e.signer.chains[wire.ChainEth], o)
	if err != nil || p == nil {
		b.Fatalf("pool: %v", err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.signer.probeTax(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}
