package solana

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/endpoint"
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

// stateBenchChain returns a chain backed by a file in a temporary directory
// with accounts funded wallets, records of them funded by a landed airdrop
// transaction (so each has a full record) and the rest by a direct credit.
func stateBenchChain(b *testing.B, accounts, records int) (*Chain, Config) {
	b.Helper()
	cfg := Config{StateFile: filepath.Join(b.TempDir(), "solana.state"), SaveInterval: -1, StateTransactions: records, BlockhashValidSlots: 1_000_000}
	c, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	for i := range accounts {
		k, err := sol.NewRandomPrivateKey()
		if err != nil {
			b.Fatal(err)
		}
		if i < records {
			if _, err := c.RequestAirdrop(k.PublicKey(), sol1); err != nil {
				b.Fatal(err)
			}
			continue
		}
		c.Airdrop(k.PublicKey(), sol1)
	}
	return c, cfg
}

var stateBenchSizes = []struct{ accounts, records int }{{10_000, 0}, {10_000, 10_000}}

// BenchmarkStateSnapshot measures the part of a save that holds the ledger
// lock: copying the account pointers and the newest records for a whole
// save, comparing every account with the file's for a save of changes.
func BenchmarkStateSnapshot(b *testing.B) {
	for _, s := range stateBenchSizes {
		b.Run(fmt.Sprintf("whole/accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			c, _ := stateBenchChain(b, s.accounts, s.records)
			b.ResetTimer()
			for b.Loop() {
				c.snapshot()
			}
		})
		b.Run(fmt.Sprintf("changes/accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			c, _ := stateBenchChain(b, s.accounts, s.records)
			if err := c.Save(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				c.delta(c.journal)
			}
		})
	}
}

// BenchmarkStateEncode measures the encoding of a snapshot, which a save
// does after releasing the lock.
func BenchmarkStateEncode(b *testing.B) {
	for _, s := range stateBenchSizes {
		b.Run(fmt.Sprintf("accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			c, _ := stateBenchChain(b, s.accounts, s.records)
			st := c.snapshot()
			b.ResetTimer()
			for b.Loop() {
				encodeState(st)
			}
		})
	}
}

// BenchmarkStateSave measures a save. whole: snapshot, encoding, writing
// and syncing the temporary file, renaming it and syncing the directory, as
// the first save of a process and a rewrite do. changes: what a save under
// load does, appending and syncing the accounts written and the
// transactions landed since the save before (1,000 airdrops here: about
// two seconds of buys at 500 a second); the airdrops themselves are not
// timed.
func BenchmarkStateSave(b *testing.B) {
	for _, s := range stateBenchSizes {
		b.Run(fmt.Sprintf("whole/accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			c, cfg := stateBenchChain(b, s.accounts, s.records)
			b.ResetTimer()
			for b.Loop() {
				rewriteNextSave(c)
				if err := c.Save(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if fi, err := os.Stat(cfg.StateFile); err == nil {
				b.ReportMetric(float64(fi.Size()), "file-bytes")
			}
		})
	}
	for _, s := range stateBenchSizes {
		b.Run(fmt.Sprintf("changes/accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			defer func(s int) { journalSlack = s }(journalSlack)
			journalSlack = 1 << 40 // appends only; rewrites are the whole case
			c, _ := stateBenchChain(b, s.accounts, s.records)
			if err := c.Save(); err != nil {
				b.Fatal(err)
			}
			wallets := make([]sol.PublicKey, 1000)
			for i := range wallets {
				wallets[i] = sol.NewWallet().PublicKey()
			}
			var written int
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				for _, w := range wallets {
					if _, err := c.RequestAirdrop(w, sol1); err != nil {
						b.Fatal(err)
					}
				}
				before := c.journal.appended
				b.StartTimer()
				if err := c.Save(); err != nil {
					b.Fatal(err)
				}
				written = c.journal.appended - before
			}
			b.ReportMetric(float64(written), "frame-bytes")
		})
	}
}

// BenchmarkStateLoad measures Open from a saved file: reading, checking,
// decoding and parsing the saved transactions again.
func BenchmarkStateLoad(b *testing.B) {
	for _, s := range stateBenchSizes {
		b.Run(fmt.Sprintf("accounts=%d/records=%d", s.accounts, s.records), func(b *testing.B) {
			c, cfg := stateBenchChain(b, s.accounts, s.records)
			if err := c.Close(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				c, err := Open(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer() // closing saves, which is not part of a load
				if err := c.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps only the size of the
// answer, so that a benchmark of the handler measures the handler.
type discardWriter struct {
	h http.Header
	n int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// BenchmarkRPCPumpBuyOrder measures the JSON-RPC handler, without a
// connection, answering what one order of a one-wallet pump.fun buy asks
// of the chain: the signer's getMultipleAccounts of the market and of the
// wallet (base64), the sender's sendTransaction with preflight and the
// tracker's getSignatureStatuses, with the request bodies solana-go sends.
func BenchmarkRPCPumpBuyOrder(b *testing.B) {
	c, _, raws, txs := benchScene(b, b.N)
	h := c.Handler()
	// The signer reads about nine accounts in two calls: take those of the
	// buy instruction.
	m := &txs[0].Message
	var keys []string
	for _, a := range m.Instructions[0].Accounts[:9] {
		keys = append(keys, m.AccountKeys[a].String())
	}
	market, wallet := keys[:5], keys[5:]
	getAccounts := func(keys []string) []byte {
		q, _ := json.Marshal(keys)
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"getMultipleAccounts","params":[` + string(q) +
			`,{"encoding":"base64","commitment":"confirmed"}]}`)
	}
	fixed := [][]byte{getAccounts(market), getAccounts(wallet)}
	call := func(body []byte) int {
		r := httptest.NewRequest(http.MethodPost, "/solana", bytes.NewReader(body))
		dw := &discardWriter{h: make(http.Header)}
		h.ServeHTTP(dw, r)
		return dw.n
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, body := range fixed {
			call(body)
		}
		send := `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":["` + base64.StdEncoding.EncodeToString(raws[i]) +
			`",{"encoding":"base64","skipPreflight":false,"preflightCommitment":"confirmed"}]}`
		call([]byte(send))
		status := `{"jsonrpc":"2.0","id":1,"method":"getSignatureStatuses","params":[["` + txs[i].Signatures[0].String() +
			`"],{"searchTransactionHistory":true}]}`
		call([]byte(status))
	}
	b.StopTimer()
	if got := c.LandedCount(); got != uint64(b.N)+1 {
		b.Errorf("landed %d, want %d", got, b.N+1)
	}
}

// BenchmarkRPCClientPumpBuyOrder measures what one order of a one-wallet
// pump.fun buy costs on the RPC path, client included: solana-go's client
// through an endpoint asks the chain for the market's and the wallet's
// accounts, sends the buy with preflight and reads its status, over
// loopback HTTP and with the chain's handler reached in process.
func BenchmarkRPCClientPumpBuyOrder(b *testing.B) {
	for _, inProcess := range []bool{false, true} {
		name := "loopback"
		if inProcess {
			name = "in-process"
		}
		b.Run(name, func(b *testing.B) {
			c, _, raws, txs := benchScene(b, b.N)
			srv := httptest.NewServer(c.Handler())
			b.Cleanup(srv.Close)
			if inProcess {
				unregister, err := endpoint.ServeInProcess(strings.TrimPrefix(srv.URL, "http://"), c.Handler())
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(unregister)
			}
			cl := endpoint.New("solana rpc", srv.URL).SolanaRPC(10 * time.Second)
			m := &txs[0].Message
			var keys []sol.PublicKey
			for _, a := range m.Instructions[0].Accounts[:9] {
				keys = append(keys, m.AccountKeys[a])
			}
			ctx := context.Background()
			opts := &rpc.GetMultipleAccountsOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, k := range [][]sol.PublicKey{keys[:5], keys[5:]} {
					if _, err := cl.GetMultipleAccountsWithOpts(ctx, k, opts); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := cl.SendRawTransactionWithOpts(ctx, raws[i], rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentConfirmed}); err != nil {
					b.Fatal(err)
				}
				if _, err := cl.GetSignatureStatuses(ctx, true, txs[i].Signatures[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
