package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// bundler signs transactions of one key at nonces it counts itself, so
// that several of them can go into one bundle.
type bundler struct {
	key   *ecdsa.PrivateKey
	from  common.Address
	nonce uint64
}

func newBundler(t testing.TB, c *Chain, coins int64) *bundler {
	t.Helper()
	key := fundedKey(t, c, coins)
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.Client().PendingNonceAt(testCtx(t), from)
	if err != nil {
		t.Fatal(err)
	}
	return &bundler{key: key, from: from, nonce: nonce}
}

// sign signs the key's next transaction, paying tipGwei a gas over the base
// fee; it counts the nonce only when keep is set.
func (b *bundler) sign(t testing.TB, c *Chain, to common.Address, value *big.Int, data []byte, gas uint64, tipGwei int64, keep bool) *types.Transaction {
	t.Helper()
	head := c.eth.BlockChain().CurrentBlock()
	tip := big.NewInt(tipGwei * params.GWei)
	tx, err := types.SignNewTx(b.key, types.LatestSignerForChainID(c.ChainID()), &types.DynamicFeeTx{
		ChainID: c.ChainID(), Nonce: b.nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(3))),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if keep {
		b.nonce++
	}
	return tx
}

// transferTx is a plain transfer, the shape of a bundle's tip.
func (b *bundler) transferTx(t testing.TB, c *Chain, to common.Address, wei *big.Int) *types.Transaction {
	return b.sign(t, c, to, wei, nil, 21_000, 1, true)
}

func rawTxs(t testing.TB, txs ...*types.Transaction) []hexutil.Bytes {
	t.Helper()
	out := make([]hexutil.Bytes, len(txs))
	for i, tx := range txs {
		raw, err := tx.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = raw
	}
	return out
}

// sendBundle calls eth_sendBundle on the chain's relay over HTTP.
func sendBundle(rc *rpc.Client, args map[string]any) (BundleResult, error) {
	var res BundleResult
	err := rc.CallContext(context.Background(), &res, "eth_sendBundle", args)
	return res, err
}

// wantRefused checks a bundle's refusal: error -32000 naming the offending
// transaction's index.
func wantRefused(t *testing.T, err error, index int) {
	t.Helper()
	var re rpc.Error
	var de rpc.DataError
	if !errors.As(err, &re) || re.ErrorCode() != -32000 || !errors.As(err, &de) {
		t.Fatalf("error %v, want -32000 with data", err)
	}
	data, _ := de.ErrorData().(map[string]any)
	if got, _ := data["index"].(float64); int(got) != index {
		t.Fatalf("refusal names transaction %v, want %d (%v)", data["index"], index, err)
	}
}

// landedNothing checks that none of txs has a receipt or moved its
// sender's nonce.
func landedNothing(t *testing.T, ec *ethclient.Client, txs ...*types.Transaction) {
	t.Helper()
	signer := types.LatestSignerForChainID(txs[0].ChainId())
	for _, tx := range txs {
		if _, err := ec.TransactionReceipt(testCtx(t), tx.Hash()); !errors.Is(err, ethereum.NotFound) {
			t.Fatalf("receipt of %s: %v, want not found", tx.Hash(), err)
		}
		from, _ := types.Sender(signer, tx)
		if n, err := ec.NonceAt(testCtx(t), from, nil); err != nil || n > tx.Nonce() {
			t.Fatalf("nonce of %s is %d, %v; the refused transaction had %d", from, n, err, tx.Nonce())
		}
	}
}

// TestRelayBundle sends bundles to a chain's private relay over HTTP: one
// that succeeds lands alone in one block in its own order, whatever its
// transactions pay; one with a failing transaction lands nothing at all,
// unless that transaction may revert; and the chain goes on sealing plain
// transactions after bundles.
func TestRelayBundle(t *testing.T) {
	c := chainOf(t, "base")
	d := c.Deployment()
	ec, _ := dial(t, "base", "")
	_, relay := dial(t, "base", "/relay")
	tok, err := c.CreateToken(testCtx(t), TokenRequest{Name: "Bundled", Symbol: "BDL"})
	if err != nil {
		t.Fatal(err)
	}
	var tipAddress common.Address
	if err := relay.CallContext(testCtx(t), &tipAddress, "relay_tipAddress"); err != nil {
		t.Fatal(err)
	}
	if tipAddress != DefaultRelayTipAddress || d.RelayTipAddress != tipAddress {
		t.Fatalf("relay_tipAddress %s, deployment %s; want %s", tipAddress, d.RelayTipAddress, DefaultRelayTipAddress)
	}
	router02, err := uniswap.UniswapV2Router02MetaData.GetAbi()
	if err != nil {
		t.Fatal(err)
	}
	a, b := newBundler(t, c, 10), newBundler(t, c, 10)
	// buy is A's swap of 0.01 coin for the token, asking for `extra` more
	// than the pair pays: with extra > 0 it reverts.
	buy := func(t *testing.T, extra int64, keep bool) (*types.Transaction, *big.Int) {
		t.Helper()
		tr := &trader{t: t, c: c, ec: ec, d: d}
		amountIn := wholeUnits(1, 16)
		want := tr.v2Out(d.WrappedNative, tok.Address, amountIn)
		head := c.eth.BlockChain().CurrentBlock()
		data, err := router02.Pack("swapExactETHForTokens", new(big.Int).Add(want, big.NewInt(extra)),
			[]common.Address{d.WrappedNative, tok.Address}, a.from, new(big.Int).SetUint64(head.Time+3600))
		if err != nil {
			t.Fatal(err)
		}
		return a.sign(t, c, d.Router02, amountIn, data, swapGas, 50, keep), want
	}
	tip := wholeUnits(1, 15)
	balance := func(t *testing.T, holder common.Address, token string) *big.Int {
		t.Helper()
		v, err := c.Balance(testCtx(t), holder, token)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	t.Run("lands in one block in order", func(t *testing.T) {
		// B pays a lower priority fee than A, yet comes first: the
		// bundle's order, not the fee market's.
		first := b.sign(t, c, randomAddress(t), big.NewInt(1), nil, 21_000, 1, true)
		swap, want := buy(t, 0, true)
		tipTx := a.transferTx(t, c, tipAddress, tip)
		tips, tokens := balance(t, tipAddress, ""), balance(t, a.from, tok.Address.Hex())
		res, err := sendBundle(relay, map[string]any{"txs": rawTxs(t, first, swap, tipTx)})
		if err != nil {
			t.Fatal(err)
		}
		if want := BundleHash([]*types.Transaction{first, swap, tipTx}); res.BundleHash != want {
			t.Fatalf("bundle hash %s, want %s", res.BundleHash, want)
		}
		block, err := ec.BlockByNumber(testCtx(t), big.NewInt(int64(res.BlockNumber)))
		if err != nil || block.Hash() != res.BlockHash {
			t.Fatalf("block %d: %v, %v", res.BlockNumber, block, err)
		}
		if len(block.Transactions()) != 3 || block.Coinbase() != BuilderAddress {
			t.Fatalf("the bundle's block holds %d transactions, coinbase %s", len(block.Transactions()), block.Coinbase())
		}
		for i, tx := range []*types.Transaction{first, swap, tipTx} {
			r := waitReceipt(t, ec, tx.Hash())
			if r.Status != types.ReceiptStatusSuccessful || r.BlockHash != res.BlockHash || r.TransactionIndex != uint(i) {
				t.Fatalf("transaction %d: status %d block %s index %d", i, r.Status, r.BlockHash, r.TransactionIndex)
			}
			if !c.Relayed(tx.Hash()) {
				t.Fatalf("transaction %d was not recorded as relayed", i)
			}
		}
		if got := new(big.Int).Sub(balance(t, tipAddress, ""), tips); got.Cmp(tip) != 0 {
			t.Fatalf("tip address got %s, want %s", got, tip)
		}
		if got := new(big.Int).Sub(balance(t, a.from, tok.Address.Hex()), tokens); got.Cmp(want) != 0 {
			t.Fatalf("the bundled swap bought %s, want %s", got, want)
		}
	})

	t.Run("a revert keeps every transaction out", func(t *testing.T) {
		to := randomAddress(t)
		transfer := a.sign(t, c, to, big.NewInt(7), nil, 21_000, 1, false)
		a.nonce++
		swap, _ := buy(t, 1, false)
		a.nonce++
		tipTx := a.sign(t, c, tipAddress, tip, nil, 21_000, 1, false)
		a.nonce -= 2
		head, tips := c.eth.BlockChain().CurrentBlock().Number.Uint64(), balance(t, tipAddress, "")
		_, err := sendBundle(relay, map[string]any{"txs": rawTxs(t, transfer, swap, tipTx)})
		wantRefused(t, err, 1)
		landedNothing(t, ec, transfer, swap, tipTx)
		if got := balance(t, to, ""); got.Sign() != 0 {
			t.Fatalf("the refused bundle's transfer paid %s", got)
		}
		if got := balance(t, tipAddress, ""); got.Cmp(tips) != 0 {
			t.Fatalf("the refused bundle's tip was paid: %s, was %s", got, tips)
		}
		if now := c.eth.BlockChain().CurrentBlock().Number.Uint64(); now != head {
			t.Fatalf("head moved from %d to %d", head, now)
		}
		if c.Relayed(swap.Hash()) {
			t.Fatal("a refused transaction was recorded as relayed")
		}
	})

	t.Run("a transaction allowed to revert", func(t *testing.T) {
		swap, _ := buy(t, 1, true)
		tipTx := a.transferTx(t, c, tipAddress, tip)
		res, err := sendBundle(relay, map[string]any{"txs": rawTxs(t, swap, tipTx),
			"revertingTxHashes": []common.Hash{swap.Hash()}})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []uint64{types.ReceiptStatusFailed, types.ReceiptStatusSuccessful} {
			tx := []*types.Transaction{swap, tipTx}[i]
			if r := waitReceipt(t, ec, tx.Hash()); r.Status != want || r.BlockHash != res.BlockHash {
				t.Fatalf("transaction %d: status %d in %s, want %d in %s", i, r.Status, r.BlockHash, want, res.BlockHash)
			}
		}
	})

	t.Run("refusals", func(t *testing.T) {
		gap := a.sign(t, c, randomAddress(t), big.NewInt(1), nil, 21_000, 1, false)
		a.nonce += 5
		ahead := a.sign(t, c, randomAddress(t), big.NewInt(1), nil, 21_000, 1, false)
		a.nonce -= 5
		otherChain := transfer(t, ec, big.NewInt(1), a.key, randomAddress(t), big.NewInt(1))
		head := c.eth.BlockChain().CurrentBlock().Number.Uint64()
		tests := []struct {
			name  string
			args  map[string]any
			index int
		}{
			{"no transactions", map[string]any{"txs": []hexutil.Bytes{}}, -1},
			{"undecodable", map[string]any{"txs": []hexutil.Bytes{{0x12, 0x34}}}, 0},
			{"a nonce ahead", map[string]any{"txs": rawTxs(t, gap, ahead)}, 1},
			{"funds short of the value", map[string]any{"txs": rawTxs(t, a.sign(t, c, randomAddress(t), wholeUnits(1_000, 18), nil, 21_000, 1, false))}, -1},
			{"twice the same", map[string]any{"txs": rawTxs(t, gap, gap)}, 1},
			{"another chain's", map[string]any{"txs": rawTxs(t, otherChain)}, 0},
			{"a past block", map[string]any{"txs": rawTxs(t, gap), "blockNumber": hexutil.Uint64(head)}, -1},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := sendBundle(relay, tt.args)
				wantRefused(t, err, tt.index)
			})
		}
		landedNothing(t, ec, gap)
		// The same transaction, for the next block, lands.
		if _, err := sendBundle(relay, map[string]any{"txs": rawTxs(t, gap), "blockNumber": hexutil.Uint64(head + 1)}); err != nil {
			t.Fatal(err)
		}
		a.nonce++
	})

	t.Run("the chain goes on", func(t *testing.T) {
		// A block a transaction puts the chain's clock a second ahead of
		// the wall clock: after these, a block sealed after a bundle's at
		// a wall-clock time would be refused for a while (its timestamp
		// not after its parent's) and the plain transactions below would
		// wait for the wall clock to catch up, past waitReceipt's bound.
		for range 15 {
			if err := c.Fund(testCtx(t), randomAddress(t), big.NewInt(1)); err != nil {
				t.Fatal(err)
			}
		}
		// Bundles and plain transactions in turn: each block after a
		// bundle's is sealed by the simulated beacon, later in time.
		var last uint64
		for i := range 3 {
			res, err := sendBundle(relay, map[string]any{"txs": rawTxs(t, a.transferTx(t, c, tipAddress, big.NewInt(1)))})
			if err != nil {
				t.Fatalf("bundle %d: %v", i, err)
			}
			plain := b.transferTx(t, c, randomAddress(t), big.NewInt(1))
			if err := ec.SendTransaction(testCtx(t), plain); err != nil {
				t.Fatal(err)
			}
			r := waitReceipt(t, ec, plain.Hash())
			bundled, err := ec.HeaderByHash(testCtx(t), res.BlockHash)
			if err != nil {
				t.Fatal(err)
			}
			after, err := ec.HeaderByNumber(testCtx(t), r.BlockNumber)
			if err != nil {
				t.Fatal(err)
			}
			if r.BlockNumber.Uint64() <= uint64(res.BlockNumber) || after.Time <= bundled.Time || bundled.Time <= last {
				t.Fatalf("round %d: bundle in block %d at %d, plain transaction in block %s at %d",
					i, res.BlockNumber, bundled.Time, r.BlockNumber, after.Time)
			}
			last = after.Time
		}
	})
}

// TestBundlesBesidePlainTransactions sends bundles and plain transactions
// at once from several wallets: everything lands, and the gate and the
// beacon the bundles replace are shared without a race.
func TestBundlesBesidePlainTransactions(t *testing.T) {
	c := chainOf(t, "rbh")
	ec, _ := dial(t, "rbh", "")
	_, relay := dial(t, "rbh", "/relay")
	const rounds = 5
	senders := []*bundler{newBundler(t, c, 1), newBundler(t, c, 1), newBundler(t, c, 1), newBundler(t, c, 1)}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		errs   []error
		hashes []common.Hash
	)
	for i, s := range senders {
		txs := make([]*types.Transaction, rounds)
		for r := range txs {
			txs[r] = s.transferTx(t, c, DefaultRelayTipAddress, big.NewInt(int64(r+1)))
		}
		raws := rawTxs(t, txs...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r, tx := range txs {
				var err error
				if i%2 == 0 {
					_, err = sendBundle(relay, map[string]any{"txs": raws[r : r+1]})
				} else {
					err = ec.SendTransaction(context.Background(), tx)
				}
				mu.Lock()
				hashes = append(hashes, tx.Hash())
				if err != nil {
					errs = append(errs, fmt.Errorf("sender %d round %d: %w", i, r, err))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		if r := waitReceipt(t, ec, h); r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transaction %s failed", h)
		}
	}
	for _, s := range senders {
		if n, err := ec.NonceAt(testCtx(t), s.from, nil); err != nil || n != s.nonce {
			t.Fatalf("nonce of %s is %d, %v; want %d", s.from, n, err, s.nonce)
		}
	}
}

// TestBundlesBesideTheSealLoop sends bundles one after another to a chain
// whose seal loop looks for pending transactions every millisecond: the
// pool's resets that a bundle's block and the loop both wait for must not
// lose either waiter, which would leave the bundle unanswered.
func TestBundlesBesideTheSealLoop(t *testing.T) {
	c, err := NewChain(ChainConfig{Name: "arc", SealInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// A chain that lost a waiter would not close either: it is closed
	// only when the bundles were answered.
	answered := false
	defer func() {
		if answered {
			_ = c.Close()
		}
	}()
	b := newBundler(t, c, 1)
	txs := make([]*types.Transaction, 100)
	for i := range txs {
		txs[i] = b.transferTx(t, c, DefaultRelayTipAddress, big.NewInt(1))
	}
	var sent atomic.Int64
	errc := make(chan error, 1)
	go func() {
		for _, tx := range txs {
			if _, err := c.SendBundle(context.Background(), []*types.Transaction{tx}, nil); err != nil {
				errc <- err
				return
			}
			sent.Add(1)
		}
		errc <- nil
	}()
	var err2 error
	poll.Until(t, 20*time.Second, "100 bundles answered", func() bool {
		select {
		case err2 = <-errc:
			return true
		default:
			return false
		}
	})
	answered = true
	if err2 != nil || sent.Load() != int64(len(txs)) {
		t.Fatalf("%d bundles landed, then %v", sent.Load(), err2)
	}
}
