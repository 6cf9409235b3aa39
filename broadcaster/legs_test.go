package broadcaster

import (
	"bytes"
	"context"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// throttleN answers 429 to the first n sends of one EVM transaction; with
// lost, it passes them to the chain and answers 502, as a node whose
// answer was lost on the way back.
type throttleN struct {
	next  http.Handler
	raw   string
	n     int64
	lost  bool
	sends atomic.Int64
}

func (f *throttleN) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if bytes.Contains(body, []byte("eth_sendRawTransaction")) && strings.Contains(strings.ToLower(string(body)), f.raw) {
		if f.sends.Add(1) <= f.n {
			if f.lost {
				f.next.ServeHTTP(httptest.NewRecorder(), r)
				http.Error(w, "bad gateway", http.StatusBadGateway)
				return
			}
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
	}
	f.next.ServeHTTP(w, r)
}

// throttled serves lc's chain behind a throttle of tx's first n sends and
// returns the broadcaster's chain over it.
func (lc *lateChain) throttled(t *testing.T, tx wire.SignedTx, n int64) *EVM {
	t.Helper()
	return lc.through(t, &throttleN{next: lc.chain.Handler(), raw: strings.ToLower(hexutil.Encode(tx.Raw)), n: n})
}

// tries is the expiry tests' configuration, each batch sent attempts times.
func tries(attempts int) Config {
	cfg := expiryConfig
	cfg.MaxAttempts = attempts
	return cfg
}

// TestUnsentLegNeverLandsAfterAnswer: an EVM leg throttled on every try
// of its batch is answered not taken (the reply lists only the other leg)
// and never lands afterwards: nothing tracks or re-sends it.
func TestUnsentLegNeverLandsAfterAnswer(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 2)
	a, _ := lc.transfer(t, 0, 0, 1e9)
	b, btx := lc.transfer(t, 1, 0, 1e9)
	base := lc.throttled(t, b, 2)
	cfg := tries(2)
	p := newPipeline(t)
	p.start(t, cfg, map[string]Chain{"base": base})
	const id = "evm-unsent-leg"
	r := p.send(t, batchOf(id, "base", wire.FamilyEVM, a, b))
	if r.Error != nil || len(r.Signatures) != 1 || r.Signatures[0] != a.Signature {
		t.Fatalf("reply %+v %v, want only the first leg taken", r.Error, r.Signatures)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := lc.chain.WaitMined(ctx, btx.Hash()); err == nil {
		t.Fatalf("leg b, answered not taken (reply %v), landed afterwards", r.Signatures)
	}
}

// TestMaybeSentLegAnswered: an EVM leg whose every send reached the chain
// but whose answers were lost is listed in the order's 200 answer beside
// the taken leg (a bot not seeing it would buy that wallet again), and
// the order ends with both confirmed.
func TestMaybeSentLegAnswered(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 2)
	a, _ := lc.transfer(t, 0, 0, 1e9)
	b, btx := lc.transfer(t, 1, 0, 1e9)
	base := lc.through(t, &throttleN{next: lc.chain.Handler(), raw: strings.ToLower(hexutil.Encode(b.Raw)), n: 2, lost: true})
	p := newPipeline(t)
	p.start(t, tries(2), map[string]Chain{"base": base})
	const id = "evm-maybe-sent-leg"
	r := p.send(t, batchOf(id, "base", wire.FamilyEVM, a, b))
	if r.Error != nil || !slices.Equal(r.Signatures, []string{a.Signature, b.Signature}) {
		t.Fatalf("reply %+v %v, want both legs", r.Error, r.Signatures)
	}
	if !lc.mined(btx, 3*time.Second) {
		t.Fatal("leg b not mined")
	}
	o := p.orderIn(t, id, 5*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || len(o.Signatures) != 2 || o.Signatures[1].State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want both legs confirmed", o.State, o.Signatures)
	}
}

// TestRefusedLegNeverLandsAfterAnswer: an EVM leg the node refused (its
// wallet could not pay) in a batch retried for another leg is answered
// without it and never lands afterwards, even once its wallet is funded.
func TestRefusedLegNeverLandsAfterAnswer(t *testing.T) {
	t.Parallel()
	lc := newLateChain(t, 3)
	// Wallet 2 is emptied: give it a fresh key with no balance.
	k, _ := crypto.GenerateKey()
	lc.keys[2] = k
	a, _ := lc.transfer(t, 0, 0, 1e9)
	b, btx := lc.transfer(t, 2, 0, 1e9)
	c, _ := lc.transfer(t, 1, 0, 1e9)
	base := lc.throttled(t, c, 1)
	cfg := tries(2)
	p := newPipeline(t)
	p.start(t, cfg, map[string]Chain{"base": base})
	const id = "evm-refused-leg"
	r := p.send(t, batchOf(id, "base", wire.FamilyEVM, a, b, c))
	if r.Error != nil || len(r.Signatures) != 2 {
		t.Fatalf("reply %+v %v, want the two legs taken", r.Error, r.Signatures)
	}
	// The wallet is funded a while later.
	id0 := lc.chain.ChainID()
	to := crypto.PubkeyToAddress(k.PublicKey)
	fund, _ := types.SignNewTx(lc.keys[0], types.LatestSignerForChainID(id0), &types.DynamicFeeTx{ChainID: id0, Nonce: 1,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 21_000, To: &to, Value: new(big.Int).Lsh(big.NewInt(1), 62)})
	raw, _ := fund.MarshalBinary()
	if err := base.Send(context.Background(), wire.SignedTx{Wallet: "x", Signature: fund.Hash().Hex(), Raw: raw}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := lc.chain.WaitMined(ctx, btx.Hash()); err == nil {
		o := p.order(t, id)
		t.Fatalf("leg b, refused and answered not taken (reply %v), landed once its wallet was funded; order %s %+v", r.Signatures, o.State, o.Signatures)
	}
}
