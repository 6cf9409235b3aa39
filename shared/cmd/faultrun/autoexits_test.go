package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

func ptrInt64(v int64) *int64 { return &v }

// exitSell is an exit's sell order record with its one transaction.
func exitSell(id, state, txSig string) wire.Order {
	return wire.Order{OrderID: id, Kind: wire.KindSwap, Side: wire.Sell, State: state,
		Signatures: []wire.SigState{sig(txSig, "w9", state)}}
}

// cleanExit is one buy with a time exit and a take-profit: the time exit
// fired once and its sell traded; the take-profit is still armed.
func cleanExit() evidence {
	buy := ok200("K", "B1", "s1")
	buy.auto = true
	return evidence{
		orders: []*logical{buy},
		views:  map[string]order{"B1": {State: "confirmed"}},
		store: map[string]wire.Order{
			"B1":        stored("B1", "confirmed", sig("s1", "w9", "confirmed")),
			"B1-0-x0r0": exitSell("B1-0-x0r0", "confirmed", "s2"),
		},
		idem:   map[string]idemRecord{"K": {OrderID: "B1", Done: true}},
		sent:   map[string]onChain{"s1": {Payer: "w9"}, "s2": {Payer: "w9"}},
		landed: map[string]onChain{"s1": {}},
		positions: map[string]wire.Position{"B1-0": {ID: "B1-0", OrderID: "B1", Wallet: "w9", State: wire.PositionOpen,
			Exits: []wire.Exit{
				{AutoOrder: wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: ptrInt64(2), SellPct: 50},
					State: wire.ExitFired, SellOrderID: "B1-0-x0r0", Attempts: 1},
				{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit, SellPct: 100}, State: wire.ExitArmed},
			}}},
	}
}

// setExit changes exit i of position B1-0.
func setExit(ev *evidence, i int, change func(x *wire.Exit)) {
	p := ev.positions["B1-0"]
	p.Exits = append([]wire.Exit(nil), p.Exits...)
	change(&p.Exits[i])
	ev.positions["B1-0"] = p
}

func TestReconcileExits(t *testing.T) {
	tests := []struct {
		name   string
		change func(ev *evidence)
		// want: how many of each list
		doubled, missing, notFinal int
		mention                    string
	}{
		{name: "clean", change: func(*evidence) {}},
		{
			name: "a sell that failed on chain re-armed the exit; the second sold",
			change: func(ev *evidence) {
				ev.store["B1-0-x0r0"] = exitSell("B1-0-x0r0", "failed", "s2")
				ev.sent["s2"] = onChain{Payer: "w9", Failed: true}
				ev.store["B1-0-x0r1"] = exitSell("B1-0-x0r1", "confirmed", "s3")
				ev.sent["s3"] = onChain{Payer: "w9"}
				setExit(ev, 0, func(x *wire.Exit) { x.Attempts, x.SellOrderID = 2, "B1-0-x0r1" })
			},
		},
		{
			name: "both claims of an exit traded",
			change: func(ev *evidence) {
				ev.store["B1-0-x0r1"] = exitSell("B1-0-x0r1", "confirmed", "s3")
				ev.sent["s3"] = onChain{Payer: "w9"}
				setExit(ev, 0, func(x *wire.Exit) { x.Attempts, x.SellOrderID = 2, "B1-0-x0r1" })
			},
			doubled: 1, mention: "exit 0 (time) of position B1-0 sold 2 times",
		},
		{
			name: "a sell order for a claim the position never made",
			change: func(ev *evidence) {
				ev.store["B1-0-x0r1"] = exitSell("B1-0-x0r1", "failed", "s3")
			},
			doubled: 1, mention: "2 sell orders for 1 claims",
		},
		{
			name: "a fired exit whose sell order is not in the store",
			change: func(ev *evidence) {
				delete(ev.store, "B1-0-x0r0")
				delete(ev.sent, "s2")
			},
			missing: 1, mention: "sell order B1-0-x0r0 is not in the store",
		},
		{
			name: "an exit left firing, its sell not stored yet",
			change: func(ev *evidence) {
				delete(ev.store, "B1-0-x0r0")
				delete(ev.sent, "s2")
				setExit(ev, 0, func(x *wire.Exit) { x.State = wire.ExitFiring })
			},
			notFinal: 1,
		},
		{
			name:     "an exit sell still broadcast",
			change:   func(ev *evidence) { ev.store["B1-0-x0r0"] = exitSell("B1-0-x0r0", "broadcast", "s2") },
			notFinal: 1,
		},
		{
			name: "a time exit of an open position that never fired",
			change: func(ev *evidence) {
				delete(ev.store, "B1-0-x0r0")
				delete(ev.sent, "s2")
				setExit(ev, 0, func(x *wire.Exit) { x.State, x.Attempts, x.SellOrderID = wire.ExitArmed, 0, "" })
			},
			notFinal: 1,
		},
		{
			name: "a confirmed buy with auto-orders that opened no position",
			change: func(ev *evidence) {
				delete(ev.store, "B1-0-x0r0")
				delete(ev.sent, "s2")
				ev.positions = map[string]wire.Position{}
			},
			missing: 1, mention: "buy B1 (key K) with auto_orders confirmed, no position opened",
		},
		{
			name: "the exit sell traded twice from the wallet",
			change: func(ev *evidence) {
				o := ev.store["B1-0-x0r0"]
				o.Signatures = append(o.Signatures, sig("s3", "w9", "confirmed"))
				ev.store["B1-0-x0r0"] = o
				ev.sent["s3"] = onChain{Payer: "w9"}
			},
			// The swaps' own check catches it; the exit sold once.
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := cleanExit()
			tc.change(&ev)
			f := reconcile(ev)
			x := f.Exits
			got := map[string][2]int{
				"doubled":   {len(x.Doubled), tc.doubled},
				"missing":   {len(x.Missing), tc.missing},
				"not final": {len(x.NotFinal), tc.notFinal},
				"unknown":   {len(f.UnknownOrder), 0},
			}
			for what, g := range got {
				if g[0] != g[1] {
					t.Errorf("%s: %d, want %d (doubled %q, missing %q, not final %q, unknown %q)",
						what, g[0], g[1], x.Doubled, x.Missing, x.NotFinal, f.UnknownOrder)
				}
			}
			if tc.mention != "" && !strings.Contains(strings.Join(append(x.Doubled, x.Missing...), "\n"), tc.mention) {
				t.Errorf("no line mentions %q: doubled %q, missing %q", tc.mention, x.Doubled, x.Missing)
			}
			if strings.Contains(tc.name, "traded twice") && !strings.Contains(strings.Join(f.Doubled, "\n"), "order B1-0-x0r0 traded 2 times") {
				t.Errorf("swaps' doubled %q, want the exit sell traded twice", f.Doubled)
			}
		})
	}
}

func TestExitCounts(t *testing.T) {
	x := reconcile(cleanExit()).Exits
	if x.Buys != 1 || x.Buys200 != 1 || x.Positions != 1 || x.Exits != 2 || x.Fired[wire.ExitTime] != 1 ||
		x.SellOrders != 1 || x.SellsTraded != 1 || x.ByState[wire.ExitArmed] != 1 || x.ByState[wire.ExitFired] != 1 {
		t.Errorf("figures %+v", x)
	}
}

func TestParseExitSell(t *testing.T) {
	pos, exit, attempt, ok := parseExitSell("EU4xAbc-12-x1r3")
	if !ok || pos != "EU4xAbc-12" || exit != 1 || attempt != 3 {
		t.Errorf("parse = %q %d %d %v", pos, exit, attempt, ok)
	}
	for _, id := range []string{"EU4xAbc", "-x1r0", "B1-0-x1", "B1-0-xar0", "B1-0-x1r-2", "B1-0-x1rz"} {
		if _, _, _, ok := parseExitSell(id); ok {
			t.Errorf("%q parsed as an exit sell", id)
		}
	}
}

// TestExitSells checks what the settling waits for: every claim's sell,
// an exit firing, a time exit still armed, a confirmed buy with no
// position yet.
func TestExitSells(t *testing.T) {
	buy := ok200("K", "B1")
	buy.auto = true
	view := func(state string, exits ...wire.Exit) map[string]order {
		v := order{State: state}
		if len(exits) > 0 {
			v.Positions = []wire.PositionView{{ID: "B1-0", State: wire.PositionOpen, Exits: exits}}
		}
		return map[string]order{"B1": v}
	}
	timeExit := func(state string, attempts int) wire.Exit {
		return wire.Exit{AutoOrder: wire.AutoOrder{Type: wire.ExitTime}, State: state, Attempts: attempts}
	}
	tp := wire.Exit{AutoOrder: wire.AutoOrder{Type: wire.ExitTakeProfit}, State: wire.ExitArmed}
	for _, tc := range []struct {
		name  string
		views map[string]order
		sells []string
		due   int
	}{
		{"buy not confirmed yet", view("broadcast"), nil, 0},
		{"confirmed, no position yet", view("confirmed"), nil, 1},
		{"time exit armed", view("confirmed", timeExit(wire.ExitArmed, 0), tp), nil, 1},
		{"firing", view("confirmed", timeExit(wire.ExitFiring, 1), tp), []string{"B1-0-x0r0"}, 1},
		{"fired twice, take-profit armed", view("confirmed", timeExit(wire.ExitFired, 2), tp), []string{"B1-0-x0r0", "B1-0-x0r1"}, 0},
	} {
		sells, due := exitSells([]*logical{buy}, tc.views, nil)
		var ids []string
		for _, s := range sells {
			ids = append(ids, s.id)
		}
		if strings.Join(ids, " ") != strings.Join(tc.sells, " ") || due != tc.due {
			t.Errorf("%s: sells %v due %d, want %v %d", tc.name, ids, due, tc.sells, tc.due)
		}
	}
}

// TestAutoBuyBodies checks that the buys with auto-orders are the swap
// body with auto_orders the service's own validator accepts.
func TestAutoBuyBodies(t *testing.T) {
	c := &chainRun{chainSpec: knownChains[wire.ChainBase], token: "0xabc", exitWallet: "0x9"}
	types := map[string]int{}
	for n := 0; n < 4; n++ {
		o := newAutoBuy(n, c, "fr1")
		var b struct {
			Side, Chain string
			Wallets     []struct{ Address string }
			AutoOrders  json.RawMessage `json:"auto_orders"`
		}
		if err := json.Unmarshal([]byte(o.body), &b); err != nil {
			t.Fatalf("buy %d: %v: %s", n, err, o.body)
		}
		aos, aerr := wire.DecodeAutoOrders(b.AutoOrders, "auto_orders")
		if aerr != nil || !o.auto || b.Side != "Buy" || b.Chain != "base" || len(b.Wallets) != 1 || b.Wallets[0].Address != "0x9" {
			t.Fatalf("buy %d: %v: %s", n, aerr, o.body)
		}
		for _, ao := range aos {
			types[ao.Type]++
		}
	}
	if types[wire.ExitTime] != 4 || types[wire.ExitTakeProfit] != 4 || types[wire.ExitStopLoss] != 2 {
		t.Errorf("exit types %v, want 4 time, 4 take_profit, 2 stop_loss", types)
	}
}
