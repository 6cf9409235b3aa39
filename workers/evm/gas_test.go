package evm

import (
	"context"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"

	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// countingClient counts the estimates a chain is asked for.
type countingClient struct {
	ChainClient
	estimates atomic.Int32
}

func (c *countingClient) EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	c.estimates.Add(1)
	return c.ChainClient.EstimateGas(ctx, msg)
}

// TestGasLimitsKnown: no order waits for an eth_estimateGas but the first
// of a kind on a chain; the next ones get the limit the chain gave, and
// once Config.GasRefresh has passed the kind is measured again in the
// background, the order at hand keeping the limit known when it was
// planned.
func TestGasLimitsKnown(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	clock := &fakeClock{t: time.Now()}
	var eth *countingClient
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		var client ChainClient = NewClient(e.dial(t, e.dev.url(name)))
		if name == wire.ChainEth {
			eth = &countingClient{ChainClient: client}
			client = eth
		}
		list = append(list, Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: client})
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{GasRefresh: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.now = clock.now
	book := s.chains[wire.ChainEth].gas
	v2 := e.token(t, wire.ChainEth, "", 0, 0)
	v3 := e.tokenOn(t, wire.ChainEth, devevm.TokenRequest{Venue: devevm.VenueV3})
	w := e.wallet(t, wire.ChainEth, "10", nil)
	steps := []struct {
		name      string
		token     devevm.Token
		kind      callKind
		advance   time.Duration
		estimates int32 // asked of the chain after the step, in all
	}{
		{"the first V2 buy of the chain is estimated", v2, kindV2BuyNative, 0, 1},
		{"the next V2 buy is not", v2, kindV2BuyNative, 0, 1},
		{"nor the one after", v2, kindV2BuyNative, 30 * time.Second, 1},
		{"a V3 buy is another kind: estimated once", v3, kindV3BuyNative, 0, 2},
		{"the next V3 buy is not", v3, kindV3BuyNative, 0, 2},
		{"a stale kind is measured again, off the order's path", v2, kindV2BuyNative, time.Minute, 3},
		{"and then known again", v2, kindV2BuyNative, 0, 3},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			clock.advance(st.advance)
			known, first, _ := book.limit(st.kind, clock.now(), time.Minute)
			var quoted uint64
			if st.token.Venue == devevm.VenueV3 {
				quoted = quoterGas(t, e.dev.chain(t, wire.ChainEth), st.token, units(t, "0.01", 18))
			}
			b, err := s.Sign(ctx, e.job(wire.ChainEth, wire.Buy, st.token.Address, "", legOf(w, "0.01")))
			if err != nil {
				t.Fatal(err)
			}
			got := decode(t, b)[0].Gas()
			e.broadcast(t, b)
			after, _, _ := book.limit(st.kind, clock.now(), time.Minute)
			want := known
			if first {
				want = after // the chain's estimate, with the margin
			}
			// A V3 swap gets at least the quoter's figure for its pool.
			want = max(want, plusBps(quoted, DefaultConfig().GasMarginBps)+v3Overhead)
			if got != want || want < defaultGas[st.kind] {
				t.Fatalf("gas limit %d, want %d (default %d, quoter %d)", got, want, defaultGas[st.kind], quoted)
			}
			// A background measurement is done once it recorded what it got.
			poll.Until(t, 10*time.Second, "the refresh recorded", func() bool {
				book.mu.Lock()
				defer book.mu.Unlock()
				return eth.estimates.Load() >= st.estimates && !book.entries[st.kind].measuring
			})
			if got := eth.estimates.Load(); got != st.estimates {
				t.Fatalf("estimates %d, want %d", got, st.estimates)
			}
		})
	}
}

// quoterGas is QuoterV2's gas estimate of a buy of amount of a V3 token
// with the native coin, asked here the way the signer asks.
func quoterGas(t testing.TB, c *devevm.Chain, tok devevm.Token, amount *big.Int) uint64 {
	t.Helper()
	d := c.Deployment()
	data := pack(quoterABI, "quoteExactInputSingle", uniswap.IQuoterV2QuoteExactInputSingleParams{TokenIn: d.WrappedNative,
		TokenOut: tok.Address, AmountIn: amount, Fee: big.NewInt(int64(tok.FeeTier)), SqrtPriceLimitX96: new(big.Int)})
	out, err := c.Client().CallContract(context.Background(), ethereum.CallMsg{To: &d.QuoterV2, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := quoterABI.Unpack("quoteExactInputSingle", out)
	if err != nil {
		t.Fatal(err)
	}
	return vals[3].(*big.Int).Uint64()
}

// TestGasFor: a V3 swap gets at least QuoterV2's estimate of its pool swap
// with the margin and the router's overhead; other kinds get the known
// limit; an estimate never lowers a kind below its default.
func TestGasFor(t *testing.T) {
	s := &Signer{cfg: withDefaults(Config{}), now: time.Now}
	c := &chainState{gas: newGasBook()}
	tests := []struct {
		name     string
		kind     callKind
		quoteGas uint64
		record   uint64 // an estimate recorded first, 0 for none
		want     uint64
	}{
		{"v2 default", kindV2BuyNative, 0, 0, 260_000},
		{"v3 default above a small pool swap", kindV3BuyNative, 50_000, 0, 280_000},
		{"v3 swap crossing many ticks", kindV3SellNative, 400_000, 0, 400_000*12_500/10_000 + v3Overhead},
		{"an estimate above the default", kindV2Tokens, 0, 300_000, 300_000*12_500/10_000 + swapCushion},
		{"an estimate below the default keeps it", kindApprove, 0, 20_000, 80_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.record > 0 {
				c.gas.record(tt.kind, tt.record, s.cfg.GasMarginBps, time.Now())
			}
			if got := s.gasFor(c, &unsigned{kind: tt.kind}, tt.quoteGas); got != tt.want {
				t.Fatalf("gasFor = %d, want %d", got, tt.want)
			}
		})
	}
}
