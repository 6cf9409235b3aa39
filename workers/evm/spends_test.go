package evm

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestSpendsLedger: a noted swap counts until it is mined or past its
// deadline, an order signed again drops what it noted before, and turns of
// one wallet and token are taken one at a time.
func TestSpendsLedger(t *testing.T) {
	sp := newSpends()
	w, tok := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	now := time.Now()
	sp.add("o1", "eth", w, tok, 5, big.NewInt(100), now.Add(time.Minute))
	sp.add("o2", "eth", w, tok, 6, big.NewInt(50), now.Add(time.Minute))
	if !sp.tracks("eth", w) || sp.tracks("bsc", w) {
		t.Fatal("the wallet's swaps are on eth only")
	}
	if got := sp.outstanding("eth", w, tok, 5, now); got.Int64() != 150 {
		t.Fatalf("outstanding %s with nothing mined, want 150", got)
	}
	if got := sp.outstanding("eth", w, tok, 6, now); got.Int64() != 50 {
		t.Fatalf("outstanding %s with nonce 5 mined, want 50", got)
	}
	sp.forget("o2")
	if got := sp.outstanding("eth", w, tok, 0, now); got.Sign() != 0 || sp.tracks("eth", w) {
		t.Fatalf("outstanding %s after the order was forgotten, want none", got)
	}
	sp.add("o3", "eth", w, tok, 7, big.NewInt(10), now.Add(time.Second))
	if got := sp.outstanding("eth", w, tok, 0, now.Add(2*time.Second)); got.Sign() != 0 {
		t.Fatalf("outstanding %s past the swap's deadline, want none", got)
	}

	o := &order{side: wire.Sell, token: tok, legs: []jobLeg{{wallet: w}, {wallet: w}}}
	keys := turnKeys(o)
	if len(keys) != 1 {
		t.Fatalf("turn keys %v, want one for the wallet twice", keys)
	}
	release, err := sp.take(context.Background(), keys)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := sp.take(ctx, keys); err == nil {
		t.Fatal("a second order took the turn the first holds")
	}
	release()
	release2, err := sp.take(context.Background(), keys)
	if err != nil {
		t.Fatal(err)
	}
	release2()
	if len(sp.locks) != 0 {
		t.Fatalf("%d turns kept after every order gave its back", len(sp.locks))
	}
	if got := turnKeys(&order{side: wire.Buy, legs: []jobLeg{{wallet: w}}}); len(got) != 1 || got[0] != keys[0] {
		t.Fatalf("a native buy takes turns %v, want its wallet's %v", got, keys)
	}
}
