package solana

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// BenchmarkSign measures Sign against the in-memory chain, so the figure is
// the signer's own CPU: parsing, quoting, building and signing (the RPC
// double costs a map lookup per account). ns/wallet divides by the wallets
// of the order.
func BenchmarkSign(b *testing.B) {
	for _, n := range []int{1, 10} {
		for _, side := range []wire.Side{wire.Buy, wire.Sell} {
			b.Run(fmt.Sprintf("%s/wallets=%d", side, n), func(b *testing.B) {
				f := newFixture(b)
				f.seedCurve(50_000_000_000)
				legs := make([]wire.Leg, n)
				for i := range legs {
					amount := "0.01"
					if side == wire.Sell {
						amount = "50"
					}
					legs[i] = wire.Leg{Wallet: f.wallet(5e9, 1_000_000_000).String(), Amount: amount}
				}
				job := f.job(side, legs...)
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := f.signer.Sign(ctx, job); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/wallet")
			})
		}
	}
}

// BenchmarkEd25519Floor is one bare ed25519 signature over a message the
// size of a buy's, the floor under BenchmarkSign's ns/wallet on the same
// machine and load.
func BenchmarkEd25519Floor(b *testing.B) {
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 700)
	b.ReportAllocs()
	for b.Loop() {
		ed25519.Sign(key, msg)
	}
}
