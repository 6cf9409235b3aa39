package exits

import (
	"context"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// balanceChain holds the wallet's balance at bal; its first two Balance
// calls wait for each other, as the events of two sales handled side by
// side ask it together.
type balanceChain struct {
	tokensChain
	bal     int64
	arrived *sync.WaitGroup
	asked   *atomic.Int32
}

func (c balanceChain) Balance(context.Context, string, string) (*big.Int, error) {
	if c.asked.Add(1) <= 2 {
		c.arrived.Done()
		c.arrived.Wait()
	}
	return big.NewInt(c.bal), nil
}

// TestTwoSalesCutThePositionsOnce: the wallet sold half of what its
// positions hold in two sales whose events are reconciled side by side;
// the positions keep what the wallet holds, the excess off the oldest,
// not the excess taken twice. Reconciled again, nothing changes.
func TestTwoSalesCutThePositionsOnce(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	var arrived sync.WaitGroup
	arrived.Add(2)
	ch := balanceChain{bal: 1_200_000, arrived: &arrived, asked: new(atomic.Int32)}
	e, err := New(Config{SellSlippageBps: 2000}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: ch}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	stop := wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(50), SellPct: 100}
	older := openTestPosition(t, e, "eu-Older", stop) // 1,000,000 each
	newer := openTestPosition(t, e, "eu-Newer", stop)
	h := holdingOf(older.Chain, older.Wallet, older.Token)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := e.reconcile(context.Background(), h); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := e.reconcile(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		p         *wire.Position
		remaining string
	}{{older, "200000"}, {newer, "1000000"}} {
		got, _, err := e.load(context.Background(), want.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Remaining != want.remaining || got.State != wire.PositionOpen {
			t.Fatalf("the wallet holds 1,200,000 of two positions of 1,000,000: %s keeps %s (%s), want %s",
				got.ID, got.Remaining, got.State, want.remaining)
		}
	}
}

// TestUndecodableEventSaysWhy: an event the engine cannot read is dropped
// with a log line saying why, an event naming no order included.
func TestUndecodableEventSaysWhy(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	var logs logtest.Buffer
	e, err := New(Config{SellSlippageBps: 2000}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: tokensChain{}}, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for body, why := range map[string]string{`{}`: "the event names no order", `{"order_id":`: "unexpected end of JSON input"} {
		m := &eventMsg{data: []byte(body), delivered: 1}
		e.handle(m)
		if !m.termed || !strings.Contains(logs.String(), why) {
			t.Fatalf("event %s: terminated %v, logs:\n%s", body, m.termed, logs.String())
		}
	}
}
