package evm

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	devevm "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestNonceGapFilled: a wallet's first order never reaches the chain and
// its second waits in the pool behind the missing nonce; once the chain has
// sat at that nonce for the reclaim bound, the gap check fills it with a
// transfer of nothing and the second order's swap is mined. Before the
// bound, or with nothing waiting behind a nonce, nothing is sent.
func TestNonceGapFilled(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	s, tok, w := e.gapScene(t)
	lost, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01")))
	if err != nil {
		t.Fatal(err)
	}
	behind, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, behind)[0].Nonce(); n != 1 {
		t.Fatalf("the second order's nonce is %d, want 1", n)
	}
	// Only the second is sent: it waits behind nonce 0.
	if err := e.sender[wire.ChainBase].Send(ctx, behind.Txs[0]); err != nil {
		t.Fatal(err)
	}
	c := s.chains[wire.ChainBase]
	count := func() uint64 {
		n, err := c.client.PendingNonceAt(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	s.checkGaps(ctx)
	if n := count(); n != 0 {
		t.Fatalf("pending nonce %d before the bound, want 0: nothing sent yet", n)
	}
	e.gapFilled(t, s, stale, behind, "the swap behind the gap")
	if got, _ := e.dev.chain(t, wire.ChainBase).Client().TransactionReceipt(ctx, common.HexToHash(lost.Txs[0].Signature)); got != nil {
		t.Fatal("the lost order's transaction was mined, but it was never sent")
	}
	// Nothing is out past the chain now: no gap to fill.
	before := count()
	time.Sleep(stale + 100*time.Millisecond)
	s.checkGaps(ctx)
	if n := count(); n != before {
		t.Fatalf("pending nonce %d after a check with no gap, want %d", n, before)
	}
}

// TestNonceGapFilledAfterRestart: a gap left by a worker that died is
// filled by the worker that starts after it, which has taken no nonce of
// the wallet: at its start it watches every wallet with a nonce record.
func TestNonceGapFilledAfterRestart(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	kv := e.nats.buckets(t).Nonces
	died := e.newSigner(t, NewNonces(kv, stale, nil), Config{})
	tok := e.token(t, wire.ChainBase, "", 0, 0)
	w := e.wallet(t, wire.ChainBase, "1", nil)
	if _, err := died.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01"))); err != nil {
		t.Fatal(err)
	}
	behind, err := died.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01")))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.sender[wire.ChainBase].Send(ctx, behind.Txs[0]); err != nil {
		t.Fatal(err)
	}
	next := e.newSigner(t, NewNonces(kv, stale, nil), Config{})
	next.checkGaps(ctx)
	if len(next.gaps.watched(next.now())) != 0 {
		t.Fatal("a signer that took no nonces watches wallets before its start")
	}
	next.watchRecorded(ctx)
	// The stale bound starts when a check first sees the chain stuck.
	next.checkGaps(ctx)
	e.gapFilled(t, next, stale, behind, "the swap behind the gap the dead worker left")
}

// stale is the reclaim bound of the gap tests' nonce records.
const stale = 300 * time.Millisecond

// gapScene is a signer whose nonce records are reclaimed after stale, a
// token on base and a funded wallet there.
func (e *env) gapScene(t *testing.T) (*Signer, devevm.Token, common.Address) {
	t.Helper()
	s := e.newSigner(t, NewNonces(e.nats.buckets(t).Nonces, stale, nil), Config{})
	return s, e.token(t, wire.ChainBase, "", 0, 0), e.wallet(t, wire.ChainBase, "1", nil)
}

// gapFilled checks the gaps of s once the stale bound has passed and waits
// for behind, the batch waiting behind a gap on base, to be mined.
func (e *env) gapFilled(t *testing.T, s *Signer, stale time.Duration, behind *wire.TxBatch, what string) {
	t.Helper()
	time.Sleep(stale + 100*time.Millisecond)
	s.checkGaps(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := e.dev.chain(t, wire.ChainBase).WaitMined(ctx, common.HexToHash(behind.Txs[0].Signature))
	if err != nil || r.Status != 1 {
		t.Fatalf("%s: receipt %+v, %v", what, r, err)
	}
}

// TestNonceGapRunFilledAtOnce: two orders of a wallet never reach the
// chain and a third waits in the pool behind both; one check past the
// reclaim bound fills both nonces, and the third is mined. Filled one per
// bound, a signing lost whole (an approval, a tip and a swap) held the
// wallet's next orders past their swaps' deadlines.
func TestNonceGapRunFilledAtOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	s, tok, w := e.gapScene(t)
	for range 2 {
		if _, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01"))); err != nil {
			t.Fatal(err)
		}
	}
	behind, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01")))
	if err != nil {
		t.Fatal(err)
	}
	if n := decode(t, behind)[0].Nonce(); n != 2 {
		t.Fatalf("the third order's nonce is %d, want 2", n)
	}
	if err := e.sender[wire.ChainBase].Send(ctx, behind.Txs[0]); err != nil {
		t.Fatal(err)
	}
	s.checkGaps(ctx) // sees the chain at nonce 0: the bound's clock starts
	time.Sleep(stale + 100*time.Millisecond)
	s.checkGaps(ctx)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if r, err := e.dev.chain(t, wire.ChainBase).WaitMined(wctx, common.HexToHash(behind.Txs[0].Signature)); err != nil || r.Status != 1 {
		t.Fatalf("the swap behind two lost nonces after one fill: receipt %+v, %v", r, err)
	}
}

// TestNonceGapCheckFailureCounted: a gap check whose read of the pending
// nonces fails is counted under tradeapi_rpc_errors_total, so that gaps
// left waiting on an unanswering node show beside the node's other errors.
func TestNonceGapCheckFailureCounted(t *testing.T) {
	e := newEnv(t)
	s, _, w := e.gapScene(t)
	c := s.chains[wire.ChainBase]
	c.client = failingBatch{c.client}
	s.gaps.note(wire.ChainBase, w, s.now(), nil)
	failures := metrics.RPCErrors.WithLabelValues(wire.ChainBase, gapCheckMethod)
	before := counted(t, failures)
	s.checkGaps(context.Background())
	if got := counted(t, failures) - before; got != 1 {
		t.Fatalf("failed gap checks counted %v, want 1", got)
	}
}

// counted reads a counter.
func counted(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// unreadableNonces is a nonce bucket whose reads fail, as with NATS away.
type unreadableNonces struct{ jetstream.KeyValue }

func (unreadableNonces) Get(context.Context, string) (jetstream.KeyValueEntry, error) {
	return nil, nats.ErrConnectionClosed
}

// TestNonceRecordUnreadIsNoFailedFill: a gap check that cannot read the
// wallet's nonce record (NATS away) knows of no gap, and counts no failed
// fill: counted as one, a short NATS outage raised the alert of gaps left
// open for ten minutes.
func TestNonceRecordUnreadIsNoFailedFill(t *testing.T) {
	e := newEnv(t)
	s := e.newSigner(t, NewNonces(unreadableNonces{e.nats.buckets(t).Nonces}, stale, nil), Config{})
	w := e.wallet(t, wire.ChainBase, "1", nil)
	s.gaps.note(wire.ChainBase, w, s.now(), nil)
	failed := metrics.NonceGaps.WithLabelValues(wire.ChainBase, "failed")
	before := counted(t, failed)
	s.checkGaps(context.Background())
	if got := counted(t, failed) - before; got != 0 {
		t.Fatalf("%v failed fills counted for a nonce record that could not be read", got)
	}
}

// suggestsTip is a chain client whose node suggests tip as the priority
// fee.
type suggestsTip struct {
	ChainClient
	tip *big.Int
}

func (c suggestsTip) SuggestGasTipCap(context.Context) (*big.Int, error) {
	return new(big.Int).Set(c.tip), nil
}

// TestNonceGapFillerTipHeldToTheCap: a node suggesting an outsized priority
// fee does not set the gap filler's, which is held to the account's cap as
// the wallet's last order carried it (the default cap for a wallet no
// order noted), as every fee of a swap is; one suggesting less than the
// chain's floor does not leave a filler unmined in the pool, the wallet's
// later transactions behind it.
func TestNonceGapFillerTipHeldToTheCap(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	s, tok, w := e.gapScene(t)
	job := e.job(wire.ChainBase, wire.Buy, tok.Address, "", legOf(w, "0.01"))
	job.FeeCaps = &wire.FeeCaps{MaxPriorityFee: "3000000000", MaxProcessorTip: "0"} // 3 gwei
	if _, err := s.Sign(ctx, job); err != nil {
		t.Fatal(err)
	}
	watched := s.gaps.watched(s.now())
	if len(watched) != 1 || watched[0].maxTip == nil || watched[0].maxTip.Int64() != 3_000_000_000 {
		t.Fatalf("watched %+v, want the wallet with its order's 3 gwei cap", watched)
	}
	// The record keeps the cap too, for a process that did not sign it.
	rec, _, err := s.nonces.get(ctx, nonceKey(wire.ChainBase, w))
	if err != nil || len(rec.Spends) == 0 || rec.Spends[0].MaxTip == nil || rec.Spends[0].MaxTip.Int64() != 3_000_000_000 {
		t.Fatalf("the nonce record's spends %+v (%v), want the order's 3 gwei cap", rec.Spends, err)
	}
	c := s.chains[wire.ChainBase]
	huge := new(big.Int).Mul(big.NewInt(50_000), big.NewInt(1_000_000_000)) // 50,000 gwei
	floor := big.NewInt(50_000_000)                                         // 0.05 gwei, as BSC's validators take
	node := c.client
	for _, tc := range []struct {
		name  string
		node  *big.Int // the node's suggestion
		floor *big.Int // the chain's min_priority_fee
		cap   *big.Int
		want  *big.Int // nil: no filler is sent
	}{
		{"the order's cap", huge, nil, watched[0].maxTip, watched[0].maxTip},
		{"no order noted", huge, nil, nil, DefaultMaxPriorityFee},
		{"the chain's floor over a node suggesting less", big.NewInt(1), floor, watched[0].maxTip, floor},
		{"a cap under the floor", big.NewInt(1), floor, big.NewInt(1_000), nil},
	} {
		c.client = suggestsTip{node, tc.node}
		c.MinTipCap = tc.floor
		nonce, err := c.client.PendingNonceAt(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := s.fillGap(ctx, c, w, nonce, tc.cap)
		if tc.want == nil {
			if err == nil || !strings.Contains(err.Error(), "least priority fee") {
				t.Fatalf("%s: %v, want no filler sent", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		tx, _, err := e.dev.chain(t, wire.ChainBase).Client().TransactionByHash(ctx, hash)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tx.GasTipCap().Cmp(tc.want) != 0 {
			t.Fatalf("%s: the filler's priority fee is %s wei, want %s", tc.name, tx.GasTipCap(), tc.want)
		}
		// Mined before the next case reads the wallet's nonce: a filler
		// still in the pool would take the next one's nonce, and refuse
		// it as an underpriced replacement.
		if _, err := e.dev.chain(t, wire.ChainBase).WaitMined(ctx, hash); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
}
