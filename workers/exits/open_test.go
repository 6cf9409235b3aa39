package exits

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ratOf is entry times factor, exactly.
func ratOf(entry string, factor string) *big.Rat {
	return new(big.Rat).Mul(parseRat(entry), parseRat(factor))
}

// TestTakeProfitCountsFromTheOpenPrice: the first read a position is
// judged on, asked soon after the buy, shows the price the buy left in its
// pool, above the entry (the average the buy paid) by the buy's own
// impact. A take_profit smaller than that impact fired on it, with no
// other trade, and sold below what the buy paid; it now counts from that
// read, and fires once the price rises its trigger_pct above it. A first
// read asked long after the buy (no engine watched it land) may show a
// real rise, which the take_profit is for: it counts from the entry.
func TestTakeProfitCountsFromTheOpenPrice(t *testing.T) {
	t.Parallel()
	const entryPrice = "0.000000028"
	bought := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	open := ratOf(entryPrice, "1.033") // a 1 SOL pump.fun buy's own impact
	for _, tc := range []struct {
		name string
		// firstAsked is when the first read was asked, after the buy.
		firstAsked time.Duration
		// asked says whether the reads carry when they were asked; the
		// time they were taken stands in when they do not.
		asked bool
		reads []struct {
			price *big.Rat
			fires bool
		}
	}{
		{"first read soon after the buy", 56 * time.Millisecond, true, []struct {
			price *big.Rat
			fires bool
		}{
			{open, false},
			{ratOf(entryPrice, "1.05"), false},
			{new(big.Rat).Mul(open, parseRat("1.0199")), false},
			{new(big.Rat).Mul(open, parseRat("1.02")), true},
		}},
		{"read time known only when taken", 2 * time.Second, false, []struct {
			price *big.Rat
			fires bool
		}{
			{open, false},
			{new(big.Rat).Mul(open, parseRat("1.02")), true},
		}},
		{"first read just inside the window", openWindow, true, []struct {
			price *big.Rat
			fires bool
		}{
			{open, false},
			{new(big.Rat).Mul(open, parseRat("1.02")), true},
		}},
		{"first read asked after the window", openWindow + time.Millisecond, true, []struct {
			price *big.Rat
			fires bool
		}{
			{ratOf(entryPrice, "1.01"), false},
			{ratOf(entryPrice, "1.02"), true},
		}},
		{"a late first read at a rise fires at once", time.Minute, true, []struct {
			price *big.Rat
			fires bool
		}{
			{open, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &wire.Position{ID: "p-open", Chain: wire.ChainSolana, Token: "Mint", State: wire.PositionOpen,
				EntryPrice: entryPrice, EntryExact: parseRat(entryPrice).RatString(), HighPrice: entryPrice,
				BoughtAt: bought, Remaining: "1000000",
				Exits: []wire.Exit{{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(2), SellPct: 100}, State: wire.ExitArmed}}}
			b := newBook()
			// The position opened in this process 50 ms after its broadcast.
			b.now = func() time.Time { return bought.Add(50 * time.Millisecond) }
			b.put(p)
			for i, r := range tc.reads {
				at := bought.Add(tc.firstAsked + time.Duration(i)*500*time.Millisecond)
				obs := Observation{Price: r.price, At: at.Add(20 * time.Millisecond)}
				if tc.asked {
					obs.Asked = at
				} else {
					obs.At = at
				}
				obs.approx = approx(obs.Price)
				ens := b.watching(keyOf(p), obs)
				if len(ens) != 1 {
					t.Fatalf("read %d: %d positions judged, want 1", i, len(ens))
				}
				if got := firstDue(&ens[0], obs, at) == 0; got != r.fires {
					t.Fatalf("read %d at %s (entry %s, take_profit 2%%): fires = %v, want %v",
						i, formatPrice(r.price), entryPrice, got, r.fires)
				}
			}
		})
	}
}

// TestStopsIgnoreTheOpenPrice: the open price moves the take_profit only;
// a stop_loss counts from the entry, and a trailing stop from the highest
// read, as before.
func TestStopsIgnoreTheOpenPrice(t *testing.T) {
	t.Parallel()
	bought := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	p := &wire.Position{ID: "p-stops", Chain: wire.ChainSolana, Token: "Mint", State: wire.PositionOpen,
		EntryPrice: "0.002", EntryExact: "1/500", HighPrice: "0.002", BoughtAt: bought, Remaining: "1000000",
		Exits: []wire.Exit{
			{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(50), SellPct: 100}, State: wire.ExitArmed},
			{AutoOrder: wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(10), SellPct: 100}, State: wire.ExitArmed},
			{AutoOrder: wire.AutoOrder{Type: wire.ExitTrailingStop, TriggerPct: pct(20), SellPct: 100}, State: wire.ExitArmed},
		}}
	en := newEntry(p)
	first := parseRat("0.0025")
	en.see(Observation{Price: first, approx: approx(first), Asked: bought.Add(time.Second)})
	want := []string{"3/800", "9/5000", "1/500"} // 0.0025*1.5, 0.002*0.9, 0.0025*0.8
	for i, l := range en.lines {
		if l == nil || l.RatString() != want[i] {
			t.Fatalf("%s line %v, want %s", p.Exits[i].Type, l, want[i])
		}
	}
}

// TestOpenPriceStoredOnce: the open price is stored with the position, so
// that an engine that restarts (or takes the token over) long after the
// buy counts the take_profit from the same price; one stored is never
// replaced by another engine's, and none is kept for a position with no
// take_profit armed.
func TestOpenPriceStoredOnce(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	ctx := context.Background()
	first := newTestEngine(t, b, nil)
	t.Cleanup(first.held.stop)
	tp := wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(2), SellPct: 100}
	p := openTestPosition(t, first, "eu-OpenStored", tp)
	// Another engine's book took the position before any read.
	other := newTestEngine(t, b, nil)
	t.Cleanup(other.held.stop)
	other.book.put(p)

	// The buy left the price 5 % above its entry of 0.002: the first read
	// does not fire the 2 % take_profit, and keeps that price.
	first.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.0021"), Asked: time.Now(), At: time.Now()})
	got, _, err := first.load(ctx, p.ID)
	if err != nil || got.Exits[0].State != wire.ExitArmed {
		t.Fatalf("the buy's own impact fired the take_profit: %+v %v", got.Exits[0], err)
	}
	if got.OpenExact != "21/10000" || got.OpenPrice != "0.0021" {
		t.Fatalf("open price stored %q (%q), want 21/10000 (0.0021)", got.OpenExact, got.OpenPrice)
	}

	// The other engine's first read, within the window too, came at
	// another price: the stored one stands.
	other.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.00205"), Asked: time.Now(), At: time.Now()})
	if got, _, err = other.load(ctx, p.ID); err != nil || got.OpenExact != "21/10000" || got.Exits[0].State != wire.ExitArmed {
		t.Fatalf("after another engine's first read: open %q, exit %+v %v", got.OpenExact, got.Exits[0], err)
	}

	// An engine started a minute after the buy counts from the stored
	// open price: 0.00213 is 6.5 % above the entry but under 0.0021*1.02.
	restarted := newTestEngine(t, b, nil)
	t.Cleanup(restarted.held.stop)
	restarted.book.put(got)
	later := got.BoughtAt.Add(time.Minute)
	restarted.evaluate(ctx, keyOf(p), Observation{Price: parseRat("0.00213"), Asked: later, At: later})
	if got, _, err = restarted.load(ctx, p.ID); err != nil || got.Exits[0].State != wire.ExitArmed {
		t.Fatalf("the restarted engine fired from the entry: %+v %v", got.Exits[0], err)
	}
	line := "0.002142" // 0.0021 * 1.02
	restarted.evaluate(ctx, keyOf(p), Observation{Price: parseRat(line), Asked: later.Add(time.Second), At: later.Add(time.Second)})
	if got, _, err = restarted.load(ctx, p.ID); err != nil || got.Exits[0].State == wire.ExitArmed ||
		got.Exits[0].FiredPrice != line || got.OpenExact != "21/10000" {
		t.Fatalf("at the open price's line: open %q, exit %+v %v", got.OpenExact, got.Exits[0], err)
	}

	// A position with no take_profit keeps no open price.
	s := openTestPositionOn(t, first, "eu-OpenNoTP", "MintNoTP", wire.AutoOrder{Type: wire.ExitStopLoss, TriggerPct: pct(50), SellPct: 100})
	first.evaluate(ctx, keyOf(s), Observation{Price: parseRat("0.0021"), Asked: time.Now(), At: time.Now()})
	if got, _, err = first.load(ctx, s.ID); err != nil || got.OpenExact != "" || got.OpenPrice != "" {
		t.Fatalf("a stop_loss position kept open price %q (%q) %v", got.OpenExact, got.OpenPrice, err)
	}
}
