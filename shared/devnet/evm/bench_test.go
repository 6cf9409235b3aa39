package evm

import (
	"context"
	"crypto/ecdsa"
	"io/fs"
	"math/big"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// sender signs transactions of one wallet with locally counted nonces, the
// way a signer that owns its wallet's nonces does.
type sender struct {
	key     *ecdsa.PrivateKey
	chainID *big.Int
	nonce   uint64
	feeCap  *big.Int
	tip     *big.Int
}

func newSender(b *testing.B, c *Chain, ec *ethclient.Client) *sender {
	key := fundedKey(b, c, 1_000)
	nonce, err := ec.PendingNonceAt(context.Background(), crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		b.Fatal(err)
	}
	// Fees high enough for any base fee the benchmark reaches.
	return &sender{key: key, chainID: c.ChainID(), nonce: nonce, feeCap: big.NewInt(100 * 1e9), tip: big.NewInt(1e9)}
}

func (s *sender) sign(b *testing.B, to common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(s.chainID), &types.DynamicFeeTx{
		ChainID: s.chainID, Nonce: s.nonce, GasTipCap: s.tip, GasFeeCap: s.feeCap,
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		b.Fatal(err)
	}
	s.nonce++
	return tx
}

// sendAndWait sends over HTTP and polls the receipt, as a broadcaster does.
func sendAndWait(b *testing.B, ec *ethclient.Client, tx *types.Transaction) {
	ctx := context.Background()
	if err := ec.SendTransaction(ctx, tx); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := ec.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				b.Fatalf("transaction %s reverted", tx.Hash())
			}
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("no receipt for %s: %v", tx.Hash(), err)
		}
		time.Sleep(500 * time.Microsecond)
	}
}

// BenchmarkTransferSendToReceipt measures one signed native transfer from
// eth_sendRawTransaction to its receipt over HTTP.
func BenchmarkTransferSendToReceipt(b *testing.B) {
	c := chainOf(b, "eth")
	ec, _ := dial(b, "eth", "")
	s := newSender(b, c, ec)
	to := common.HexToAddress("0x00000000000000000000000000000000000000be")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sendAndWait(b, ec, s.sign(b, to, big.NewInt(1), 21_000, nil))
	}
}

// buyCall packs a one-wallet buy of a token through Router02.
func buyCall(b *testing.B, d Deployment, token, to common.Address) []byte {
	parsed, err := uniswap.UniswapV2Router02MetaData.GetAbi()
	if err != nil {
		b.Fatal(err)
	}
	data, err := parsed.Pack("swapExactETHForTokensSupportingFeeOnTransferTokens", common.Big1,
		[]common.Address{d.WrappedNative, token}, to, farDeadline)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkRouterBuySendToReceipt measures a one-wallet buy of a taxed
// token through the official Router02, from send to receipt over HTTP.
func BenchmarkRouterBuySendToReceipt(b *testing.B) {
	c := chainOf(b, "base")
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN", BuyTaxBps: 300, SellTaxBps: 300})
	if err != nil {
		b.Fatal(err)
	}
	ec, _ := dial(b, "base", "")
	s := newSender(b, c, ec)
	data := buyCall(b, d, tok.Address, crypto.PubkeyToAddress(s.key.PublicKey))
	value := wholeUnits(1, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sendAndWait(b, ec, s.sign(b, d.Router02, value, 300_000, data))
	}
}

// BenchmarkBundleBuy measures a bundle of a one-wallet buy through Router02
// and a tip transfer sent to the private relay with eth_sendBundle, which
// answers once the bundle's block is the head.
func BenchmarkBundleBuy(b *testing.B) {
	c := chainOf(b, "eth")
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN"})
	if err != nil {
		b.Fatal(err)
	}
	ec, _ := dial(b, "eth", "")
	_, relay := dial(b, "eth", "/relay")
	s := newSender(b, c, ec)
	data := buyCall(b, d, tok.Address, crypto.PubkeyToAddress(s.key.PublicKey))
	value := wholeUnits(1, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		txs := rawTxs(b, s.sign(b, d.Router02, value, 300_000, data), s.sign(b, d.RelayTipAddress, big.NewInt(1e12), 21_000, nil))
		if _, err := sendBundle(relay, map[string]any{"txs": txs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConcurrentBuys runs buys from GOMAXPROCS*4 wallets at once and
// reports transactions per second.
func BenchmarkConcurrentBuys(b *testing.B) {
	c := chainOf(b, "rbh")
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN", BuyTaxBps: 300, SellTaxBps: 300})
	if err != nil {
		b.Fatal(err)
	}
	ec, _ := dial(b, "rbh", "")
	value := wholeUnits(1, 16)
	var wallets atomic.Int64
	b.SetParallelism(4)
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		wallets.Add(1)
		s := newSender(b, c, ec)
		data := buyCall(b, d, tok.Address, crypto.PubkeyToAddress(s.key.PublicKey))
		for pb.Next() {
			sendAndWait(b, ec, s.sign(b, d.Router02, value, 300_000, data))
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tx/s")
	b.ReportMetric(float64(wallets.Load()), "wallets")
}

// BenchmarkTaxProbe measures one tax probe (eth_call with a state override
// running a buy and a sell) over HTTP.
func BenchmarkTaxProbe(b *testing.B) {
	c := chainOf(b, "bsc")
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN", BuyTaxBps: 500, SellTaxBps: 1000})
	if err != nil {
		b.Fatal(err)
	}
	_, rc := dial(b, "bsc", "")
	ctx := context.Background()
	amount := wholeUnits(1, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buy, sell, err := contracts.ProbeTax(ctx, rc, d.Router02, tok.Address, d.WrappedNative, amount)
		if err != nil || buy != 500 || sell != 1000 {
			b.Fatalf("probe: %d %d %v", buy, sell, err)
		}
	}
}

// BenchmarkRouterBuySendToReceiptOnDisk is BenchmarkRouterBuySendToReceipt
// on a chain kept in a folder, as the devnet role runs it.
func BenchmarkRouterBuySendToReceiptOnDisk(b *testing.B) {
	c, err := NewChain(ChainConfig{Name: "base", Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN", BuyTaxBps: 300, SellTaxBps: 300})
	if err != nil {
		b.Fatal(err)
	}
	ec := c.Client()
	s := newSender(b, c, ec)
	data := buyCall(b, d, tok.Address, crypto.PubkeyToAddress(s.key.PublicKey))
	value := wholeUnits(1, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sendAndWait(b, ec, s.sign(b, d.Router02, value, 300_000, data))
	}
}

// reopenBuys is how many buys the chain of BenchmarkReopen holds, each in
// a block of its own, as sequential orders get them.
const reopenBuys = 1000

// BenchmarkReopen measures a chain kept in a folder: its fresh start
// (folder created, contracts deployed), then reopening it (Close and
// NewChain) once it holds reopenBuys router buys, and the folder's size.
func BenchmarkReopen(b *testing.B) {
	dir := b.TempDir()
	start := time.Now()
	c, err := NewChain(ChainConfig{Name: "base", Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	fresh := time.Since(start)
	d := c.Deployment()
	tok, err := c.CreateToken(context.Background(), TokenRequest{Name: "Bench", Symbol: "BEN", BuyTaxBps: 300, SellTaxBps: 300})
	if err != nil {
		b.Fatal(err)
	}
	ec := c.Client()
	s := newSender(b, c, ec)
	data := buyCall(b, d, tok.Address, crypto.PubkeyToAddress(s.key.PublicKey))
	value := wholeUnits(1, 16)
	for range reopenBuys {
		sendAndWait(b, ec, s.sign(b, d.Router02, value, 300_000, data))
	}
	b.ResetTimer()
	for range b.N {
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		if c, err = NewChain(ChainConfig{Name: "base", Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n, err := c.Client().PendingNonceAt(context.Background(), crypto.PubkeyToAddress(s.key.PublicKey)); err != nil || n != s.nonce {
		b.Fatalf("nonce after reopening: %d, %v; want %d", n, err, s.nonce)
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fresh.Milliseconds()), "fresh-ms")
	b.ReportMetric(float64(dirSize(b, dir))/(1<<20), "folder-MiB")
}

// dirSize is the size of the files under dir.
func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
