package exits

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// openFillPosition stores a buy of token by account and its position with
// one exit, from fill as the chain read it.
func openFillPosition(t *testing.T, e *Engine, orderID string, f *Fill, x wire.AutoOrder) *wire.Position {
	t.Helper()
	ctx := context.Background()
	o := &wire.Order{OrderID: orderID, AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: f.Token, AutoOrders: []wire.AutoOrder{x}, CreatedAt: time.Now()}
	if err := e.orders.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	p := newPosition(o, positionID(orderID, 0), "Wallet111", f, time.Now())
	if ok, err := e.create(ctx, p); err != nil || !ok {
		t.Fatalf("create position: %v %v", ok, err)
	}
	return p
}

// TestMarketsOfOneTokenReadApart: positions of one token bought where it
// trades differently (a curve priced in SOL, a pool priced in USDC), or
// watching different creators, are each read on their own market: a price
// read on one fired the exits of the others, in the wrong unit (a USDC
// position's stop-loss on a price in SOL), and one creator's balance
// fired another creator's dev_sell.
func TestMarketsOfOneTokenReadApart(t *testing.T) {
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	t.Cleanup(e.held.stop)
	ctx := context.Background()
	const token = "MintTwoMarkets"
	curve := &Fill{Token: token, Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000), Dev: "DevA", DevBalance: big.NewInt(100)}
	pool := &Fill{Token: token, Venue: wire.VenuePumpSwap, Pool: "PoolUSDC", QuoteAsset: "USDC", Decimals: 6, QuoteDecimals: 6,
		Received: big.NewInt(1_000_000), Spent: big.NewInt(2_000_000), Dev: "DevA", DevBalance: big.NewInt(100)}
	otherDev := *curve
	otherDev.Dev, otherDev.DevBalance = "DevC", big.NewInt(100)
	a := openFillPosition(t, e, "eu-MarketA", curve, wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(100), SellPct: 100})
	u := openFillPosition(t, e, "eu-MarketU", pool, wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(50), SellPct: 100})
	c := openFillPosition(t, e, "eu-MarketC", &otherDev, wire.AutoOrder{Type: wire.ExitDevSell, SellPct: 100})
	if n := len(e.book.tokens()); n != 3 {
		t.Fatalf("%d markets watched for three positions on three markets", n)
	}
	// The curve's price went to 2.5 times its entry, in SOL (0.005 a
	// token: far under the USDC position's entry of 2), and its creator
	// sold half.
	e.evaluate(ctx, keyOf(a), Observation{Price: parseRat("0.005"), DevBalance: big.NewInt(50), At: time.Now()})
	for _, tc := range []struct {
		p    *wire.Position
		want string
	}{{a, wire.ExitFired}, {u, wire.ExitArmed}, {c, wire.ExitArmed}} {
		got, _, err := e.load(ctx, tc.p.ID)
		if err != nil || got.Exits[0].State != tc.want {
			t.Fatalf("%s (%s on %s, creator %s): exit %+v %v, want %s", tc.p.ID, tc.p.Exits[0].Type, tc.p.Venue, tc.p.Dev,
				got.Exits[0], err, tc.want)
		}
	}
}
