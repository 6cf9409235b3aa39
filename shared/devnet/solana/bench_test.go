package solana

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
)

// benchScene creates a coin and n pre-signed buys spread over 64 wallets,
// each a distinct transaction.
func benchScene(b *testing.B, n int) (*Chain, *rpc.Client, [][]byte, []*sol.Transaction) {
	b.Helper()
	c := New(Config{})
	srv := httptest.NewServer(c.Handler())
	b.Cleanup(func() {
		srv.Close()
		c.Close()
	})
	cl := rpc.New(srv.URL)
	s := createCoin(b, c, cl, 0)
	wallets := make([]sol.PrivateKey, 64)
	for i := range wallets {
		wallets[i] = newWallet(b, c, 10_000*sol1)
		if _, err := c.MintTo(s.mint, wallets[i].PublicKey(), 0); err != nil {
			b.Fatal(err)
		}
	}
	bh, _ := c.LatestBlockhash()
	raws := make([][]byte, n)
	txs := make([]*sol.Transaction, n)
	for i := 0; i < n; i++ {
		w := wallets[i%len(wallets)]
		tx := signTx(b, bh, w, []sol.Instruction{buyIx(w.PublicKey(), s.creator.PublicKey(), s.mint, 1_000_000+uint64(i), sol1)})
		raw, err := tx.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		raws[i], txs[i] = raw, tx
	}
	return c, cl, raws, txs
}

// BenchmarkSendPumpBuyRPC measures pump buys sent through solana-go's RPC
// client over HTTP on 127.0.0.1, with preflight, from concurrent senders.
func BenchmarkSendPumpBuyRPC(b *testing.B) {
	c, cl, _, txs := benchScene(b, b.N)
	var next atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			i := next.Add(1) - 1
			if _, err := cl.SendTransactionWithOpts(ctx, txs[i], rpc.TransactionOpts{}); err != nil {
				b.Errorf("buy %d: %v", i, err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
	if got := c.LandedCount(); got != uint64(b.N)+1 {
		b.Errorf("landed %d, want %d", got, b.N+1)
	}
}

// BenchmarkSubmitPumpBuy measures the chain alone: parse, verify every
// signature and execute, without HTTP and JSON.
func BenchmarkSubmitPumpBuy(b *testing.B) {
	c, _, raws, _ := benchScene(b, b.N)
	var next atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1) - 1
			if _, res, err := c.submit(raws[i], false); err != nil || res.err != nil {
				b.Errorf("buy %d: %v %v", i, err, res.err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}
