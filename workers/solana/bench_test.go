package solana

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
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

// BenchmarkSignPoolOnDevnet measures Sign of a one-wallet PumpSwap buy
// against the local chain over HTTP: resolution and facts cached, one
// getMultipleAccounts and the blockhash per order, then quoting, building
// and signing.
func BenchmarkSignPoolOnDevnet(b *testing.B) {
	chain := devnet.New(devnet.Config{Seed: b.Name()})
	srv := httptest.NewServer(chain.Handler())
	defer func() {
		srv.Close()
		_ = chain.Close()
	}()
	coin, err := chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Bench", "BNCH", sol.PublicKey{}, 0)
	if err != nil {
		b.Fatal(err)
	}
	keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
	w := sol.NewWallet()
	keys.keys[w.PublicKey().String()] = w.PrivateKey
	chain.Airdrop(w.PublicKey(), 10_000_000_000)
	s := NewSigner(rpc.New(srv.URL), keys, Config{TipAccounts: devnet.JitoTipAccounts[:2]}, nil)
	job := &wire.SwapJob{
		OrderID: "eu-bench", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: coin.Mint.String(),
		Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500, PriorityFee: "10000", ProcessorTip: "10000",
		Legs: []wire.Leg{{Wallet: w.PublicKey().String(), Amount: "0.01"}},
	}
	ctx := context.Background()
	if _, err := s.Sign(ctx, job); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Sign(ctx, job); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignOnDevnet measures Sign of a pump.fun buy against the local
// chain over HTTP, the wallets read in the curve's call: one wallet with the
// blockhash read per order (as before the signer kept one) and taken from
// the cache that Run keeps fresh, and ten wallets with the cached one.
func BenchmarkSignOnDevnet(b *testing.B) {
	for _, mode := range []struct {
		name    string
		maxAge  time.Duration
		wallets int
		claims  bool // each order's signatures claimed in the signatures bucket, as a worker does
	}{{"blockhash=per_order", time.Nanosecond, 1, false}, {"blockhash=cached", 0, 1, false}, {"wallets=10", 0, 10, false},
		{"claims", 0, 1, true}, {"wallets=10,claims", 0, 10, true}} {
		b.Run(mode.name, func(b *testing.B) {
			chain := devnet.New(devnet.Config{Seed: b.Name()})
			srv := httptest.NewServer(chain.Handler())
			defer func() {
				srv.Close()
				_ = chain.Close()
			}()
			coin, err := chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Bench", "BNCH")
			if err != nil {
				b.Fatal(err)
			}
			keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
			legs := make([]wire.Leg, mode.wallets)
			for i := range legs {
				w := sol.NewWallet()
				keys.keys[w.PublicKey().String()] = w.PrivateKey
				chain.Airdrop(w.PublicKey(), 10_000_000_000)
				legs[i] = wire.Leg{Wallet: w.PublicKey().String(), Amount: "0.01"}
			}
			s := NewSigner(rpc.New(srv.URL), keys, Config{TipAccounts: devnet.JitoTipAccounts[:2], BlockhashMaxAge: mode.maxAge}, nil)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Run(ctx) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					b.Error(err)
				}
			}()
			job := &wire.SwapJob{
				OrderID: "eu-bench", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: coin.Mint.String(),
				Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500, PriorityFee: "10000", ProcessorTip: "10000",
				Legs: legs,
			}
			if mode.claims {
				s.WithSignatureClaims(bustest.Start(b, "bench-signatures").Buckets.Signatures)
			}
			if _, err := s.Sign(ctx, job); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if mode.claims {
					// A new order of other amounts every time: new
					// signatures, each claimed once.
					job.OrderID = fmt.Sprintf("eu-bench-%d", i)
					for k := range job.Legs {
						job.Legs[k].Amount = fmt.Sprintf("0.%09d", 10_000_000+i)
					}
				}
				if _, err := s.Sign(ctx, job); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
