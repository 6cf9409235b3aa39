package evm

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// recordingClient notes the code reads and the QuoterV2 calls a chain is
// sent in JSON-RPC batches, which is how the signer reads its pools.
type recordingClient struct {
	ChainClient
	quoter common.Address

	mu     sync.Mutex
	codeOf []common.Address
	quotes int
}

func (c *recordingClient) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	c.mu.Lock()
	for _, e := range b {
		switch e.Method {
		case "eth_getCode":
			c.codeOf = append(c.codeOf, e.Args[0].(common.Address))
		case "eth_call":
			if msg, ok := e.Args[0].(map[string]any); ok && msg["to"] == c.quoter {
				c.quotes++
			}
		}
	}
	c.mu.Unlock()
	return c.ChainClient.BatchCallContext(ctx, b)
}

// take returns what was recorded since the last take.
func (c *recordingClient) take() (codeOf []common.Address, quotes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	codeOf, quotes = c.codeOf, c.quotes
	c.codeOf, c.quotes = nil, 0
	return codeOf, quotes
}

// v2MinOut reads amountOutMin of a Router02 buy with the native coin.
func v2MinOut(t testing.TB, tx *types.Transaction) *big.Int {
	t.Helper()
	return v2BuyArgs(t, tx)[0].(*big.Int)
}

// v2BuyArgs reads the arguments of a Router02 buy with the native coin:
// amountOutMin, path, to, deadline.
func v2BuyArgs(t testing.TB, tx *types.Transaction) []any {
	t.Helper()
	m, err := router02ABI.MethodById(tx.Data())
	if err != nil || m.Name != "swapExactETHForTokensSupportingFeeOnTransferTokens" {
		t.Fatalf("not a Router02 buy with the native coin: %v", err)
	}
	args, err := m.Inputs.Unpack(tx.Data()[4:])
	if err != nil {
		t.Fatal(err)
	}
	return args
}

// TestV3PoolFoundLater: a token first traded when it has only a V2 pair
// (every V3 tier probed for code and found empty) and then given a deeper
// V3 pool with a lower fee is traded in that pool at the next order, at
// the pool's fresh quote. The signer remembers the tiers it has seen
// deployed, never the ones it found empty: a pool can be created at any
// time, and an order must not go on trading on the pair because of an
// earlier answer.
func TestV3PoolFoundLater(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const chain = wire.ChainEth
	c := e.dev.chain(t, chain)
	d := c.Deployment()
	var rec *recordingClient
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		var client ChainClient = NewClient(e.dial(t, e.dev.url(name)))
		if name == chain {
			rec = &recordingClient{ChainClient: client, quoter: d.QuoterV2}
			client = rec
		}
		list = append(list, Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: client})
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := e.token(t, chain, "", 0, 0) // 900,000,000 tokens against 10 ETH
	var tiers []common.Address
	for _, fee := range uniswap.FeeTiers() {
		tiers = append(tiers, uniswap.V3PoolAddress(d.V3Factory, tok.Address, d.WrappedNative, fee))
	}
	w := e.wallet(t, chain, "5", nil)
	const amount = "0.5"
	amountIn := units(t, amount, 18)

	// buy signs and lands one buy of the token, checks that it traded in
	// pool, the best of the quotes computed here just before, at that
	// quote less the slippage, and returns the code reads and quoter calls
	// the order took.
	buy := func(t *testing.T, pool common.Address, best string, minOut func(*types.Transaction) *big.Int) (codeOf []common.Address, quotes int) {
		t.Helper()
		want := quotesOf(t, c, tok.Address, wire.Buy, amountIn)
		labels := []string{"v2", best}
		if best == "v2" {
			labels = labels[:1]
		}
		for _, label := range labels {
			if want[label] == nil || want[label].Cmp(want[best]) > 0 || len(want) != len(labels) {
				t.Fatalf("the test's pools quote %v, want %v with %s the best", want, labels, best)
			}
		}
		rec.take()
		job := e.job(chain, wire.Buy, tok.Address, "", legOf(w, amount))
		b, err := s.Sign(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		codeOf, quotes = rec.take()
		// The batch names the token and the pool it traded: the trade
		// history records both, so skip_if_bought knows either name.
		if b.Mint != tok.Address.Hex() || b.Pool != pool.Hex() {
			t.Fatalf("batch names token %s and pool %s, want %s and %s", b.Mint, b.Pool, tok.Address.Hex(), pool.Hex())
		}
		if wantVenue := map[bool]string{true: venueV2, false: venueV3}[best == "v2"]; b.Venue != wantVenue {
			t.Fatalf("venue %q, want %q", b.Venue, wantVenue)
		}
		if got, want := b.Route, wantRoute(wire.Buy, pool, best, want, amountIn); got != want {
			t.Fatalf("route\n%q\nwant\n%q", got, want)
		}
		txs := decode(t, b)
		if got, want := minOut(txs[len(txs)-1]), minusBps(want[best], uint64(job.SlippageBps)); got.Cmp(want) != 0 {
			t.Fatalf("min-out %s, want the fresh quote less the slippage, %s", got, want)
		}
		before := e.balance(t, chain, w, tok.Address.Hex())
		rs := e.broadcast(t, b)
		e.officialSwap(t, chain, b, rs, pool)
		if got := new(big.Int).Sub(e.balance(t, chain, w, tok.Address.Hex()), before); got.Cmp(want[best]) != 0 {
			t.Fatalf("received %s tokens, want the quote %s", got, want[best])
		}
		return codeOf, quotes
	}

	t.Run("only the pair", func(t *testing.T) {
		codeOf, quotes := buy(t, tok.Pool, "v2", func(tx *types.Transaction) *big.Int { return v2MinOut(t, tx) })
		if !slices.Equal(codeOf, tiers) || quotes != 0 {
			t.Fatalf("read the code of %v and quoted %d pools, want the code of every tier %v and no quote", codeOf, quotes, tiers)
		}
	})
	if t.Failed() {
		return
	}

	lp := newBindKey(t)
	e.fund(t, chain, lp.addr, "200", nil)
	// Ten times the pair's depth at the pair's first price, for a fee of
	// 0.05%: better than the pair for any buy.
	v3 := e.addV3(t, chain, lp, tok.Address, 500, "9000000000", "100")
	if v3 != tiers[1] {
		t.Fatalf("the 500 tier's pool is at %s, want %s", v3.Hex(), tiers[1].Hex())
	}

	t.Run("a V3 pool since", func(t *testing.T) {
		codeOf, quotes := buy(t, v3, "v3/500", func(tx *types.Transaction) *big.Int { return exactInputMin(t, tx) })
		if !slices.Equal(codeOf, tiers) || quotes != 1 {
			t.Fatalf("read the code of %v and quoted %d pools, want the code of every tier %v and one quote", codeOf, quotes, tiers)
		}
	})
	if t.Failed() {
		return
	}

	t.Run("the pool remembered", func(t *testing.T) {
		codeOf, quotes := buy(t, v3, "v3/500", func(tx *types.Transaction) *big.Int { return exactInputMin(t, tx) })
		if want := slices.Delete(slices.Clone(tiers), 1, 2); !slices.Equal(codeOf, want) || quotes != 1 {
			t.Fatalf("read the code of %v and quoted %d pools, want the code of %v and one quote", codeOf, quotes, want)
		}
	})
}
