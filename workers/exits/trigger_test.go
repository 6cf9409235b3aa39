package exits

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

func pct(v float64) *float64 { return &v }
func secs(v int64) *int64    { return &v }

func TestDue(t *testing.T) {
	t.Parallel()
	bought := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	p := &wire.Position{EntryPrice: "0.000002", BoughtAt: bought}
	price := func(s string) *big.Rat { return parseRat(s) }
	tests := []struct {
		name   string
		exit   wire.AutoOrder
		high   string
		devMax int64
		obs    Observation
		now    time.Time
		want   bool
	}{
		{"take_profit below", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(50)}, "", 0, Observation{Price: price("0.0000029")}, bought, false},
		{"take_profit at", wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(50)}, "", 0, Observation{Price: price("0.000003")}, bought, true},
		{"stop_loss above", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10)}, "", 0, Observation{Price: price("0.00000181")}, bought, false},
		{"stop_loss at", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10)}, "", 0, Observation{Price: price("0.0000018")}, bought, true},
		{"trailing from the high", wire.AutoOrder{Type: wire.ExitTrailingStop, TriggerPct: pct(20)}, "0.000004", 0, Observation{Price: price("0.0000032")}, bought, true},
		{"trailing above the line", wire.AutoOrder{Type: wire.ExitTrailingStop, TriggerPct: pct(20)}, "0.000004", 0, Observation{Price: price("0.00000321")}, bought, false},
		{"trailing with no high uses entry", wire.AutoOrder{Type: wire.ExitTrailingStop, TriggerPct: pct(20)}, "", 0, Observation{Price: price("0.0000016")}, bought, true},
		{"time not yet", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(60)}, "", 0, Observation{}, bought.Add(59 * time.Second), false},
		{"time due without a price", wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(60)}, "", 0, Observation{}, bought.Add(60 * time.Second), true},
		{"dev holds", wire.AutoOrder{Type: wire.ExitDevSell}, "", 1000, Observation{DevBalance: big.NewInt(1000)}, bought, false},
		{"dev unknown", wire.AutoOrder{Type: wire.ExitDevSell}, "", 0, Observation{DevBalance: big.NewInt(0)}, bought, false},
		{"failed read fires no price exit", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10)}, "", 0, Observation{}, bought, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := *p
			q.Exits = []wire.Exit{{AutoOrder: tt.exit, State: wire.ExitArmed}}
			q.HighPrice = tt.high
			if tt.devMax > 0 {
				q.DevBalance = strconv.FormatInt(tt.devMax, 10)
			}
			en := newEntry(&q)
			en.see(Observation{})
			if got := firstDue(en, tt.obs, tt.now) == 0; got != tt.want {
				t.Fatalf("due = %v, want %v", got, tt.want)
			}
			q.Exits[0].State = wire.ExitFired
			if firstDue(en, tt.obs, tt.now) >= 0 {
				t.Fatal("a fired exit is due again")
			}
		})
	}
}

// TestDevSellNeedsTwoReads: a dev_sell fires on the second read in a row
// that finds the creator holding less than the most seen, never on one
// (a node behind the one that saw the most answers an older holding); a
// read at the most in between starts the count again, and a read that did
// not tell the holding changes nothing.
func TestDevSellNeedsTwoReads(t *testing.T) {
	t.Parallel()
	bought := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	p := &wire.Position{EntryPrice: "0.000002", BoughtAt: bought, DevBalance: "1000",
		Exits: []wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitDevSell}, State: wire.ExitArmed}}}
	en := newEntry(p)
	for i, step := range []struct {
		dev  int64 // -1: the read did not tell
		want bool
	}{
		{999, false}, {1000, false}, {999, false}, {-1, false}, {1000, false},
		{1200, false}, {1000, false}, {0, true},
	} {
		obs := Observation{Price: parseRat("0.000002")}
		if step.dev >= 0 {
			obs.DevBalance = big.NewInt(step.dev)
		}
		en.see(obs)
		if got := firstDue(en, obs, bought) == 0; got != step.want {
			t.Fatalf("read %d (%d): due = %v, want %v", i, step.dev, got, step.want)
		}
	}
}

// TestDueAfterRetry: an exit re-armed after a failed sell is not due
// before its retry time, whatever its trigger says.
func TestDueAfterRetry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &wire.Position{BoughtAt: now.Add(-time.Hour)}
	retry := now.Add(2 * time.Second)
	x := &wire.Exit{AutoOrder: wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(1)}, State: wire.ExitArmed, RetryAt: &retry}
	if due(x, nil, 0, p, 0, Observation{}, now) {
		t.Fatal("due before its retry time")
	}
	if !due(x, nil, 0, p, 0, Observation{}, retry) {
		t.Fatal("not due at its retry time")
	}
	for attempts, want := range map[int]time.Duration{1: 2 * time.Second, 2: 8 * time.Second, 3: 32 * time.Second, 9: 5 * time.Minute} {
		if got := retryBackoff(attempts); got != want {
			t.Errorf("backoff after %d attempts %v, want %v", attempts, got, want)
		}
	}
}

func TestSellAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		remaining int64
		pct       float64
		want      int64
		all       bool
	}{
		{1000, 100, 1000, true},
		{1000, 50, 500, false},
		{1001, 50, 500, false},
		{1000, 33.3, 333, false},
		{1, 50, 1, true}, // rounding would sell nothing: sell the rest
	}
	for _, tt := range tests {
		got, all := sellAmount(big.NewInt(tt.remaining), tt.pct)
		if got.Int64() != tt.want || all != tt.all {
			t.Errorf("sellAmount(%d, %v) = %s, %v; want %d, %v", tt.remaining, tt.pct, got, all, tt.want, tt.all)
		}
	}
}

func TestSellIDs(t *testing.T) {
	t.Parallel()
	pos := positionID("eu-3FhQz8nC0aY1bXr2LkP9tQ", 2)
	id := sellID(pos, 7, 1)
	if id != "eu-3FhQz8nC0aY1bXr2LkP9tQ-2-x7r1" {
		t.Fatalf("sell id %s", id)
	}
	gotPos, exit, ok := parseSellID(id)
	if !ok || gotPos != pos || exit != 7 {
		t.Fatalf("parse %s = %s %d %v", id, gotPos, exit, ok)
	}
	for _, bad := range []string{"eu-3FhQz8nC0aY1bXr2LkP9tQ", "evm-abc-0-x", "evm-abc-0-xr1", "evm-abc-0-x1r", "-x1r0"} {
		if _, _, ok := parseSellID(bad); ok {
			t.Errorf("%q parsed as an exit sell", bad)
		}
	}
}

func TestWholePrice(t *testing.T) {
	t.Parallel()
	// 0.5 SOL for 17,000 tokens of 6 decimals: 0.0000294117... SOL a token.
	got := formatPrice(wholePrice(big.NewInt(500_000_000), big.NewInt(17_000_000_000), 9, 6))
	if got != "0.000029411764705882352941" {
		t.Fatalf("price %s", got)
	}
	if wholePrice(big.NewInt(1), big.NewInt(0), 9, 6) != nil {
		t.Fatal("a price of no tokens")
	}
}

func TestTimeDueAt(t *testing.T) {
	t.Parallel()
	bought := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		after *int64
		ok    bool
		at    time.Time
	}{
		{"one second", secs(1), true, bought.Add(time.Second)},
		{"30 days, the longest", secs(2592000), true, bought.Add(30 * 24 * time.Hour)},
		{"a second past 30 days", secs(2592001), false, time.Time{}},
		{"the largest int64", secs(math.MaxInt64), false, time.Time{}},
		{"the first that overflows a Duration", secs(math.MaxInt64/int64(time.Second) + 1), false, time.Time{}},
		{"zero", secs(0), false, time.Time{}},
		{"negative", secs(-1), false, time.Time{}},
		{"the smallest int64", secs(math.MinInt64), false, time.Time{}},
		{"missing", nil, false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, ok := timeDueAt(bought, tt.after)
			if ok != tt.ok || !at.Equal(tt.at) {
				t.Fatalf("timeDueAt = %v %v, want %v %v", at, ok, tt.at, tt.ok)
			}
			// Whatever the clock says, an out-of-range wait is never due.
			p := &wire.Position{BoughtAt: bought, Exits: []wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: tt.after}, State: wire.ExitArmed}}}
			en := newEntry(p)
			en.see(Observation{})
			for _, now := range []time.Time{bought, bought.Add(31 * 24 * time.Hour), bought.AddDate(300, 0, 0)} {
				if got, want := firstDue(en, Observation{}, now) == 0, tt.ok && !now.Before(tt.at); got != want {
					t.Fatalf("due at %v = %v, want %v", now, got, want)
				}
			}
		})
	}
}

func TestSecondsDuration(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    int64
		want time.Duration
	}{
		{5, 5 * time.Second},
		{-5, -5 * time.Second},
		{math.MaxInt64 / int64(time.Second), time.Duration(math.MaxInt64/int64(time.Second)) * time.Second},
		{math.MaxInt64, time.Duration(math.MaxInt64)},
		{math.MinInt64, time.Duration(math.MinInt64)},
	} {
		if got := secondsDuration(tt.s); got != tt.want {
			t.Errorf("secondsDuration(%d) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

// TestDevSellWithoutCreator: a dev_sell of a token whose creator is not
// known is cancelled when the position opens, saying why, rather than left
// armed for good; the position's other exits are armed.
func TestDevSellWithoutCreator(t *testing.T) {
	t.Parallel()
	o := &wire.Order{OrderID: "eu-1", AutoOrders: []wire.AutoOrder{{Type: wire.ExitDevSell, SellPct: 100},
		{Type: wire.ExitTakeProfit, TriggerPct: pct(50), SellPct: 100}}}
	f := &Fill{Token: "Mint", Received: big.NewInt(1000), Spent: big.NewInt(10), QuoteDecimals: 9, Decimals: 6}
	p := newPosition(o, "eu-1-0", "W", f, time.Now())
	if x := p.Exits[0]; x.State != wire.ExitCancelled || x.Error == "" {
		t.Fatalf("dev_sell without a creator: %+v", x)
	}
	if x := p.Exits[1]; x.State != wire.ExitArmed {
		t.Fatalf("take_profit: %+v", x)
	}
	f.Dev = "Creator"
	if x := newPosition(o, "eu-1-0", "W", f, time.Now()).Exits[0]; x.State != wire.ExitArmed {
		t.Fatalf("dev_sell with a creator: %+v", x)
	}
	// A creator that is the buying wallet is none to watch.
	f.DevOwned = true
	p = newPosition(o, "eu-1-0", "W", f, time.Now())
	if x := p.Exits[0]; x.State != wire.ExitCancelled || !strings.Contains(x.Error, "is the buying wallet") || p.Dev != "Creator" {
		t.Fatalf("dev_sell of the account's own creator: %+v (dev %q)", x, p.Dev)
	}
}

// TestFollowsHigh: the high is kept for an armed trailing_stop or dev_sell
// only.
func TestFollowsHigh(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		exits []wire.Exit
		want  bool
	}{
		{[]wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit}, State: wire.ExitArmed}}, false},
		{[]wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitTrailingStop}, State: wire.ExitArmed}}, true},
		{[]wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitDevSell}, State: wire.ExitCancelled}}, false},
		{[]wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitStopLoss}, State: wire.ExitArmed},
			{AutoOrder: wire.AutoOrder{Type: wire.ExitDevSell}, State: wire.ExitArmed}}, true},
	} {
		if got := followsHigh(&wire.Position{Exits: tt.exits}); got != tt.want {
			t.Errorf("%+v: %v, want %v", tt.exits, got, tt.want)
		}
	}
}

// TestStoredPricesKeepTheirExactValue: a position stored and read again
// (another engine, a restart) keeps its entry and highest price exactly:
// the decimals it shows are rounded, and a high rounded up would put a
// tiny trailing stop's line above the very price that set it, and a tiny
// stop loss's above an unchanged entry, firing them with no fall.
func TestStoredPricesKeepTheirExactValue(t *testing.T) {
	t.Parallel()
	// 26564705045760219/1e24 plus a little: 24 decimals round it up.
	price := new(big.Rat).SetFrac(big.NewInt(265647050457602187), new(big.Int).Exp(big.NewInt(10), big.NewInt(25), nil))
	if r := parseRat(formatPrice(price)); r.Cmp(price) <= 0 {
		t.Fatalf("the test's price %s is not rounded up by its decimals %s", price, formatPrice(price))
	}
	for _, x := range []wire.AutoOrder{
		{Type: wire.ExitTrailingStop, TriggerPct: pct(1e-60)},
		{Type: wire.ExitStopLoss, TriggerPct: pct(1e-60)},
	} {
		p := &wire.Position{Exits: []wire.Exit{{AutoOrder: x, State: wire.ExitArmed}}}
		p.EntryPrice, p.EntryExact = formatPrice(price), exact(price)
		setHigh(p, price)
		en := newEntry(p)
		obs := Observation{Price: price}
		en.see(obs)
		if firstDue(en, obs, time.Now()) >= 0 {
			t.Fatalf("%s %g fired at the price that set its line", x.Type, *x.TriggerPct)
		}
	}
}
