package exits

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// rebuyChain is a wallet whose balance, and what it held after its last
// sale, the test sets.
type rebuyChain struct {
	tokensChain
	balance atomic.Int64
	saleIn  atomic.Uint64
	saleBal atomic.Int64
}

func (c *rebuyChain) Balance(context.Context, string, string) (*big.Int, error) {
	return big.NewInt(c.balance.Load()), nil
}

func (c *rebuyChain) Sale(context.Context, string, string, string) (Sale, error) {
	return Sale{In: c.saleIn.Load(), Balance: big.NewInt(c.saleBal.Load())}, nil
}

// TestHeldExitSellNeverSellsALaterBuy: an exit whose sell the account's
// exit budget holds is published at its slot. Its amount was fixed at the
// claim; meanwhile the wallet sold the position's tokens by hand (the
// position is not reconciled while its sell is pending) and bought the
// token again. The held sell is held to what the wallet kept after that
// sale: with nothing kept the exit is cancelled and nothing sold, with
// some kept it sells that, never the later buy's tokens.
func TestHeldExitSellNeverSellsALaterBuy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		kept int64
	}{{"sold_whole", 0}, {"sold_part", 400_000}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bustest.Start(t, "exits-test")
			ch := &rebuyChain{}
			ch.balance.Store(1_000_000)
			e, err := New(Config{SellSlippageBps: 2000, AccountRate: 0.5, AccountBurst: 1}, b.JS, b.Buckets,
				map[string]Chain{wire.ChainSolana: ch}, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(e.held.stop)
			ctx := context.Background()
			// The account's burst is spent by another exit of its.
			if _, err := e.budget.reserve(ctx, "acc1"); err != nil {
				t.Fatal(err)
			}
			o1 := &wire.Order{OrderID: "eu-HeldOld", AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
				Chain: wire.ChainSolana, Side: wire.Buy, Token: "MintHeld", CreatedAt: time.Now(),
				AutoOrders: []wire.AutoOrder{{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}}}
			if err := e.orders.Create(ctx, o1); err != nil {
				t.Fatal(err)
			}
			f := &Fill{Token: "MintHeld", Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
				Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000)}
			p1 := newPosition(o1, positionID(o1.OrderID, 0), "Wallet111", f, time.Now())
			p1.BoughtIn = solanaPlace(10, false)
			if ok, err := e.create(ctx, p1); err != nil || !ok {
				t.Fatal(ok, err)
			}
			e.fireAll(ctx, []dueExit{{en: entry{p: p1}, i: 0}}, Observation{Price: parseRat("0.0001"), At: time.Now()}, "")
			got, _, _ := e.load(ctx, p1.ID)
			if got.Exits[0].State != wire.ExitFiring || got.SellHeldUntil == nil {
				t.Fatalf("want the sell held for the budget: %+v", got)
			}
			sell := got.Exits[0].SellOrderID
			// The hand sale (slot 20), then the buy again (slot 30).
			ch.saleIn.Store(solanaPlace(20, true))
			ch.saleBal.Store(tc.kept)
			ch.balance.Store(tc.kept)
			hand := &events.Event{Type: events.Confirmed, OrderID: "eu-HandSell", AccountID: "acc1", Chain: wire.ChainSolana,
				Side: wire.Sell, Address: "MintHeld", State: wire.StateConfirmed, At: time.Now(),
				Signatures: []wire.SigState{{Signature: "handsig", Wallet: "Wallet111", State: wire.StateConfirmed, Slot: 20}}}
			if err := e.sold(ctx, hand, false); err != nil {
				t.Fatal(err)
			}
			o2 := *o1
			o2.OrderID = "eu-HeldNew"
			o2.AutoOrders = []wire.AutoOrder{{Type: wire.ExitTakeProfit, TriggerPct: pct(1000), SellPct: 100}}
			if err := e.orders.Create(ctx, &o2); err != nil {
				t.Fatal(err)
			}
			p2 := newPosition(&o2, positionID(o2.OrderID, 0), "Wallet111", f, time.Now())
			p2.BoughtIn = solanaPlace(30, false)
			ch.balance.Store(tc.kept + 1_000_000)
			if ok, err := e.create(ctx, p2); err != nil || !ok {
				t.Fatal(ok, err)
			}
			if tc.kept == 0 {
				// The exit ended, then its position held to the balance.
				q := poll.Value(t, 10*time.Second, "the held exit ended and its position closed", func() (*wire.Position, bool) {
					q, _, err := e.load(ctx, p1.ID)
					return q, err == nil && q.Exits[0].State != wire.ExitFiring && (q.State == wire.PositionClosed || q.Exits[0].State != wire.ExitCancelled)
				})
				if q.Exits[0].State != wire.ExitCancelled || q.State != wire.PositionClosed {
					t.Fatalf("exit %s, position %s: want the exit cancelled and the position closed", q.Exits[0].State, q.State)
				}
				if _, ok := sellJobs(t, b.JS)[sell]; ok {
					t.Fatal("the held exit published a sell after the wallet sold the position's tokens")
				}
				if q, _, _ := e.load(ctx, p2.ID); q.State != wire.PositionOpen || q.Remaining != "1000000" {
					t.Fatalf("the later buy's position: %s, remaining %s", q.State, q.Remaining)
				}
				return
			}
			job := poll.Value(t, 10*time.Second, "the held sell published", func() (wire.SwapJob, bool) {
				j, ok := sellJobs(t, b.JS)[sell]
				return j, ok
			})
			if amt := job.Legs[0].Amount; amt != "400000" {
				t.Fatalf("the held exit sells %s (mode %s), want what the wallet kept of the buy after its sale, 400,000 base units", amt, job.SellMode)
			}
		})
	}
}

// unreadableSales is a wallet whose sales the node cannot read: one
// keeping no state that old.
type unreadableSales struct{ tokensChain }

func (unreadableSales) Sale(context.Context, string, string, string) (Sale, error) {
	return Sale{}, errors.New("missing trie node")
}

// TestExitSellNotHeldUpByAnUnreadableSale: a sale of the wallet the node
// cannot read bounds nothing, as in reconcile: the exit's sell goes out
// with its amount rather than waiting for a read that never comes.
func TestExitSellNotHeldUpByAnUnreadableSale(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e, err := New(Config{SellSlippageBps: 2000}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: unreadableSales{}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	p := openTestPosition(t, e, "eu-UnreadSale", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100})
	if err := e.noteSale(ctx, holdingOf(p.Chain, p.Wallet, p.Token), unreadMark(p.Chain, "unreadsig", 1<<40)); err != nil {
		t.Fatal(err)
	}
	e.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.001"), At: time.Now()})
	got, _, err := e.load(ctx, p.ID)
	if err != nil || got.Exits[0].State != wire.ExitFired {
		t.Fatalf("exit %+v %v: want it fired", got.Exits[0], err)
	}
	if job, ok := sellJobs(t, b.JS)[got.Exits[0].SellOrderID]; !ok || job.Legs[0].Amount != p.Remaining {
		t.Fatalf("sell job %+v (published %v), want the position's %s", job, ok, p.Remaining)
	}
}
