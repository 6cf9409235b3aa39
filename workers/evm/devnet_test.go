package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// devnet is the five local chains, served over HTTP as in production.
type devnet struct {
	chains *devevm.Chains
	srv    *httptest.Server
}

var (
	devOnce sync.Once
	dev     *devnet
	devErr  error
)

// localChains starts the local chains once for the whole test binary; each
// test makes its own tokens and wallets.
func localChains(t testing.TB) *devnet {
	t.Helper()
	devOnce.Do(func() {
		cs, err := devevm.New(devevm.Config{})
		if err != nil {
			devErr = err
			return
		}
		dev = &devnet{chains: cs, srv: httptest.NewServer(cs.Handler())}
	})
	if devErr != nil {
		t.Fatalf("local chains: %v", devErr)
	}
	return dev
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dev != nil {
		dev.srv.Close()
		_ = dev.chains.Close()
	}
	os.Exit(code)
}

func (d *devnet) chain(t testing.TB, name string) *devevm.Chain {
	t.Helper()
	c, ok := d.chains.Chain(name)
	if !ok {
		t.Fatalf("no local chain %s", name)
	}
	return c
}

func (d *devnet) url(name string) string { return d.srv.URL + "/evm/" + name }

// configOf is the signer's configuration of a local chain, from its
// deployment: what `up` wires in the same way.
func configOf(d devevm.Deployment) ChainConfig {
	c := ChainConfig{Name: d.Chain, ChainID: new(big.Int).SetUint64(d.ChainID), Router: d.Router02, Factory: d.Factory,
		V3Factory: d.V3Factory, SwapRouter02: d.SwapRouter02, QuoterV2: d.QuoterV2, WrappedNative: d.WrappedNative,
		NativeToken: d.NativeToken, TipAddress: d.RelayTipAddress, PrivateRelay: true, Quotes: d.Stables}
	ch, _ := chains.Get(d.Chain)
	if ch.Assets[0].Symbol == "USDC" {
		c.USDPricing.NativeIsUSD = true
	} else {
		c.USDPricing.Stable = ch.Assets[1].Symbol // the pair that prices the native coin
	}
	return c
}

// keyring is an in-memory KeySource.
type keyring struct {
	mu   sync.Mutex
	keys map[common.Address]*ecdsa.PrivateKey
	fail atomic.Bool
}

func (k *keyring) PrivateKey(_ context.Context, family wire.Family, address string) ([]byte, error) {
	if family != wire.FamilyEVM {
		return nil, fmt.Errorf("family %s", family)
	}
	if k.fail.Load() {
		return nil, errors.New("key store unavailable")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.keys[common.HexToAddress(address)]
	if !ok {
		return nil, fmt.Errorf("unknown wallet %s", address)
	}
	return crypto.FromECDSA(key), nil
}

func (k *keyring) add(key *ecdsa.PrivateKey) common.Address {
	a := crypto.PubkeyToAddress(key.PublicKey)
	k.mu.Lock()
	k.keys[a] = key
	k.mu.Unlock()
	return a
}

// env is one test's signer over the local chains, with its own NATS.
type env struct {
	dev    *devnet
	nats   *natsEnv
	keys   *keyring
	nonces *Nonces
	signer *Signer
	sender map[string]*broadcaster.EVM
	orders atomic.Int64
}

func newEnv(t testing.TB) *env {
	t.Helper()
	d := localChains(t)
	e := &env{dev: d, nats: newNATS(t), keys: &keyring{keys: map[common.Address]*ecdsa.PrivateKey{}},
		sender: map[string]*broadcaster.EVM{}}
	e.nonces = NewNonces(e.nats.buckets(t).Nonces, 0, nil)
	e.signer = e.newSigner(t, e.nonces, Config{})
	for _, name := range d.chains.Names() {
		pub, relay := e.dial(t, d.url(name)), e.dial(t, d.url(name)+"/relay")
		e.sender[name] = broadcaster.NewEVM(pub, relay, broadcaster.EVMConfig{})
	}
	return e
}

// dial connects to a local chain's endpoint as production does, through
// its endpoint and that endpoint's connection pool.
func (e *env) dial(t testing.TB, url string) *endpoint.EVMClient {
	t.Helper()
	c, err := endpoint.New("local rpc", url).DialEVM(context.Background(), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// newSigner returns a signer over every local chain, as a worker process
// would have, with its own RPC connections.
func (e *env) newSigner(t testing.TB, nonces *Nonces, cfg Config) *Signer {
	t.Helper()
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		list = append(list, Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: NewClient(e.dial(t, e.dev.url(name)))})
	}
	s, err := NewSigner(list, e.keys, nonces, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wallet makes a wallet and funds it on a chain with native coin and
// stables, amounts in whole units.
func (e *env) wallet(t testing.TB, chain, native string, stables map[string]string) common.Address {
	t.Helper()
	key, _ := crypto.GenerateKey()
	a := e.keys.add(key)
	e.fund(t, chain, a, native, stables)
	return a
}

func (e *env) fund(t testing.TB, chain string, a common.Address, native string, stables map[string]string) {
	t.Helper()
	ctx := context.Background()
	c := e.dev.chain(t, chain)
	if native != "" {
		if err := c.Fund(ctx, a, units(t, native, 18)); err != nil {
			t.Fatal(err)
		}
	}
	ch, _ := chains.Get(chain)
	for sym, amount := range stables {
		asset, _ := ch.Asset(sym) // arc's USDC is its native coin's token
		if err := c.FundToken(ctx, a, sym, units(t, amount, asset.Decimals)); err != nil {
			t.Fatal(err)
		}
	}
}

func units(t testing.TB, s string, decimals int) *big.Int {
	v, err := money.ParseUnits(s, decimals)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// token creates a token with a V2 pool on a chain.
func (e *env) token(t testing.TB, chain, quote string, buyTaxBps, sellTaxBps uint64) devevm.Token {
	t.Helper()
	tok, err := e.dev.chain(t, chain).CreateToken(context.Background(), devevm.TokenRequest{Name: "Test", Symbol: "TST",
		Quote: quote, BuyTaxBps: buyTaxBps, SellTaxBps: sellTaxBps})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// tokenOn creates a token with a pool as the request says (a V2 pair by
// default, a V3 pool of the 3000 tier with Venue v3).
func (e *env) tokenOn(t testing.TB, chain string, req devevm.TokenRequest) devevm.Token {
	t.Helper()
	req.Name, req.Symbol = "Test", "TST"
	tok, err := e.dev.chain(t, chain).CreateToken(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// officialSwap checks that the batch's last transaction, its swap, went to
// an official router and traded in the official pool want: the code at the
// transaction's `to` is UniswapV2Router02's or SwapRouter02's published
// runtime, and the code at the address of the Swap log that paid out is
// UniswapV2Pair's or UniswapV3Pool's, of the same version as the router.
func (e *env) officialSwap(t testing.TB, chain string, b *wire.TxBatch, rs []*types.Receipt, want common.Address) {
	t.Helper()
	ctx := context.Background()
	client := e.dev.chain(t, chain).Client()
	txs := decode(t, b)
	swap, r := txs[len(txs)-1], rs[len(rs)-1]
	v2Swap := v2PairABI.Events["Swap"].ID
	v3Swap := v3PoolABI.Events["Swap"].ID
	var pool common.Address
	var v3 bool
	for _, l := range r.Logs {
		if len(l.Topics) > 0 && (l.Topics[0] == v2Swap || l.Topics[0] == v3Swap) {
			pool, v3 = l.Address, l.Topics[0] == v3Swap
		}
	}
	if pool != want {
		t.Fatalf("the swap traded in %s, want %s", pool.Hex(), want.Hex())
	}

	router, poolName := uniswap.NameUniswapV2Router02, uniswap.NameUniswapV2Pair
	if v3 {
		router, poolName = uniswap.NameSwapRouter02, uniswap.NameUniswapV3Pool
	}
	if err := uniswap.CheckCode(ctx, client, router, *swap.To()); err != nil {
		t.Fatalf("the swap's router: %v", err)
	}
	if err := uniswap.CheckCode(ctx, client, poolName, pool); err != nil {
		t.Fatalf("the swap's pool: %v", err)
	}
}

// job is a swap job with the test defaults: 1% slippage, the chain's
// suggested priority fee, no tip.
func (e *env) job(chain string, side wire.Side, token common.Address, quote string, legs ...wire.Leg) *wire.SwapJob {
	return &wire.SwapJob{OrderID: fmt.Sprintf("evm-test-%d-%d", time.Now().UnixNano(), e.orders.Add(1)), AccountID: "acct",
		Family: wire.FamilyEVM, Chain: chain, Token: token.Hex(), Side: side, QuoteAsset: quote, Legs: legs,
		SlippageBps: 100, CreatedAt: time.Now()}
}

func legOf(w common.Address, amount string) wire.Leg {
	return wire.Leg{Wallet: w.Hex(), Amount: amount}
}

// ownAmount marks l's amount as its wallet entry's own, the index-th of
// the request's wallets, as ingress does.
func ownAmount(l wire.Leg, index int) wire.Leg {
	l.AmountField = fmt.Sprintf("wallets[%d].amount", index)
	return l
}

// broadcast sends a batch's transactions, all at once as the broadcaster
// does, and waits for every receipt.
func (e *env) broadcast(t testing.TB, b *wire.TxBatch) []*types.Receipt {
	t.Helper()
	e.send(t, b)
	return e.mined(t, b)
}

// send sends a batch's transactions, without waiting for them to land.
func (e *env) send(t testing.TB, b *wire.TxBatch) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errs := make([]error, len(b.Txs))
	var wg sync.WaitGroup
	for i, tx := range b.Txs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.sender[b.Chain].Send(ctx, tx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("send tx %d of %s: %v", i, b.OrderID, err)
		}
	}
}

// mined waits for the receipts of a batch, which must all have succeeded.
func (e *env) mined(t testing.TB, b *wire.TxBatch) []*types.Receipt {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := e.dev.chain(t, b.Chain)
	out := make([]*types.Receipt, len(b.Txs))
	for i, tx := range b.Txs {
		r, err := c.WaitMined(ctx, common.HexToHash(tx.Signature))
		if err != nil {
			t.Fatalf("tx %d of %s: %v", i, b.OrderID, err)
		}
		out[i] = r
	}
	return out
}

func (e *env) balance(t testing.TB, chain string, holder common.Address, token string) *big.Int {
	t.Helper()
	b, err := e.dev.chain(t, chain).Balance(context.Background(), holder, token)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decode returns the transactions of a batch, each found by its signature
// in its bytes (its bundle's, when it goes in one).
func decode(t testing.TB, b *wire.TxBatch) []*types.Transaction {
	t.Helper()
	out := make([]*types.Transaction, len(b.Txs))
	for i, stx := range b.Txs {
		raws, bundled, err := txbundle.Decode(stx.Raw)
		if err != nil {
			t.Fatal(err)
		}
		if !bundled {
			raws = [][]byte{stx.Raw}
		}
		for _, raw := range raws {
			var tx types.Transaction
			if err := tx.UnmarshalBinary(raw); err != nil {
				t.Fatal(err)
			}
			if tx.Hash().Hex() == stx.Signature {
				out[i] = &tx
			}
		}
		if out[i] == nil {
			t.Fatalf("tx %d: no transaction with the hash %s in its bytes", i, stx.Signature)
		}
	}
	return out
}

// wantCode asserts that err is a public error with code and, when not
// empty, exactly these details.
func wantCode(t testing.TB, err error, code apierr.Code, details string) *apierr.Error {
	t.Helper()
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("error %v, want %s", err, code)
	}
	if ae.Code != code {
		t.Fatalf("code %s (%s), want %s", ae.Code, ae.Message, code)
	}
	if details != "" && ae.Details != details {
		t.Fatalf("details %q, want %q", ae.Details, details)
	}
	return ae
}

// bindKey is a key that deploys and moves tokens through the bindings,
// outside the signer.
type bindKey struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newBindKey(t testing.TB) *bindKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return &bindKey{key: k, addr: crypto.PubkeyToAddress(k.PublicKey)}
}

func (k *bindKey) opts(t testing.TB, c *devevm.Chain) *bind.TransactOpts {
	t.Helper()
	o, err := bind.NewKeyedTransactorWithChainID(k.key, c.ChainID())
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func waitTx(t testing.TB, c *devevm.Chain, tx *types.Transaction, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.WaitMined(ctx, tx.Hash()); err != nil {
		t.Fatal(err)
	}
}

// deployToken deploys a tax-free token as the key's first transaction on
// a chain, so that it has the same address on every chain, and pools half
// its supply against depth wei of native coin in its V2 pair, through the
// official Router02.
func (k *bindKey) deployToken(t testing.TB, c *devevm.Chain, depth *big.Int) common.Address {
	t.Helper()
	d := c.Deployment()
	supply := units(t, "1000000000", 18)
	addr, tx, _, err := contracts.DeployTaxToken(k.opts(t, c), c.Client(), "Twin", "TWIN", supply, new(big.Int), new(big.Int),
		common.Address{}, d.Factory, d.WrappedNative)
	waitTx(t, c, tx, err)
	if _, err := uniswap.AddLiquidityETHV2(context.Background(), c.Client(), k.opts(t, c), d.Uniswap(), addr,
		new(big.Int).Quo(supply, big.NewInt(2)), depth, k.addr); err != nil {
		t.Fatal(err)
	}
	return addr
}

// deployCode deploys a contract whose runtime code is code.
func (k *bindKey) deployCode(t testing.TB, c *devevm.Chain, code []byte) common.Address {
	t.Helper()
	// PUSH1 len, DUP1, PUSH1 11, PUSH1 0, CODECOPY, PUSH1 0, RETURN, code.
	init := append([]byte{0x60, byte(len(code)), 0x80, 0x60, 11, 0x60, 0, 0x39, 0x60, 0, 0xf3}, code...)
	addr, tx, _, err := bind.DeployContract(k.opts(t, c), abi.ABI{}, init, c.Client())
	waitTx(t, c, tx, err)
	return addr
}

// transfer sends amount of token to a wallet.
func (k *bindKey) transfer(t testing.TB, c *devevm.Chain, token, to common.Address, amount *big.Int) {
	t.Helper()
	tok, err := contracts.NewTaxToken(token, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := tok.Transfer(k.opts(t, c), to, amount)
	waitTx(t, c, tx, err)
}

// deployOn funds the key on a chain and deploys a token there with a pool
// of native whole coins.
func (k *bindKey) deployOn(t testing.TB, e *env, chain, native string) common.Address {
	t.Helper()
	e.fund(t, chain, k.addr, "1000", nil)
	return k.deployToken(t, e.dev.chain(t, chain), units(t, native, 18))
}
