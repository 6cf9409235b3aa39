package exits

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// BenchmarkEvaluate measures the engine's work per position and price read
// with no exit due: the cost that grows with positions. 100k positions
// spread over 1000 tokens, each with a take-profit, a stop-loss and a
// trailing stop.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(strconv.Itoa(n)+"_positions", func(b *testing.B) {
			e := &Engine{book: newBook(), now: time.Now, log: slog.New(slog.DiscardHandler)}
			tokens := max(n/100, 1)
			exitsOf := []wire.Exit{
				{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(100), SellPct: 100}, State: wire.ExitArmed},
				{AutoOrder: wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(50), SellPct: 100}, State: wire.ExitArmed},
				{AutoOrder: wire.AutoOrder{Type: wire.ExitTrailingStop, TriggerPct: pct(30), SellPct: 100}, State: wire.ExitArmed},
			}
			for i := range n {
				x := make([]wire.Exit, len(exitsOf))
				copy(x, exitsOf)
				e.book.put(&wire.Position{ID: fmt.Sprintf("p%d", i), Chain: wire.ChainSolana, Token: fmt.Sprintf("t%d", i%tokens),
					Wallet: fmt.Sprintf("w%d", i), State: wire.PositionOpen, EntryPrice: "0.00003", HighPrice: "0.000031",
					Remaining: "1000000", Exits: x, Version: 1})
			}
			obs := Observation{Price: parseRat("0.0000305"), At: time.Now()}
			ctx := context.Background()
			keys := make([]tokenKey, tokens)
			for t := range keys {
				keys[t] = watchedKey(b, e, wire.ChainSolana, fmt.Sprintf("t%d", t))
			}
			b.ResetTimer()
			for range b.N {
				for _, k := range keys {
					e.evaluate(ctx, k, obs)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/position")
		})
	}
}

// BenchmarkSolanaRead measures one price read of a pump.fun coin and its
// creator's holding (one getMultipleAccounts) against the local Solana
// chain over HTTP: the cost that grows with tokens.
func BenchmarkSolanaRead(b *testing.B) {
	chain := soldevnet.New(soldevnet.Config{})
	defer func() { _ = chain.Close() }()
	srv := httptest.NewServer(chain.Handler())
	defer srv.Close()
	creator := sol.NewWallet().PublicKey()
	chain.Airdrop(creator, 10_000_000_000)
	coin, err := chain.CreatePumpCoin(creator, "Bench", "BN")
	if err != nil {
		b.Fatal(err)
	}
	s := NewSolana(rpc.New(srv.URL), 5*time.Second)
	m, err := s.Market(&wire.Position{ID: "p", Token: coin.Mint.String(), Venue: wire.VenuePumpFun, Decimals: 6, Dev: creator.String()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	obs, err := m.Observe(ctx)
	if err != nil || obs.Price == nil || obs.DevBalance == nil {
		b.Fatalf("observe: %+v %v", obs, err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := m.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
