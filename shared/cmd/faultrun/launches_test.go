package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// launched is a launch answered 200 at once, for configs tokens.
func launched(key, id string, configs int, mints []string, landed ...wire.LandedTx) *logical {
	a := answer{Status: 200, Code: "OK", OrderID: id, Mints: mints, Landed: landed}
	for _, t := range landed {
		a.Sigs = append(a.Sigs, t.Signature)
	}
	return &logical{key: key, path: pathDeploy, configs: configs, attempts: []attempt{{answer: a}}}
}

func ltx(kind, mint, sig string) wire.LandedTx {
	return wire.LandedTx{Kind: kind, Dex: wire.DexPumpFun, Mint: mint, Signature: sig}
}

// deployRecord is a launch order's record listing mints, its transactions
// confirmed and paid by the given wallets.
func deployRecord(id, state string, mints []string, sigWallets ...string) wire.Order {
	o := wire.Order{OrderID: id, Kind: wire.KindDeploy, State: state, Deploy: &wire.DeployResult{MintAddresses: mints}}
	for i := 0; i+1 < len(sigWallets); i += 2 {
		o.Signatures = append(o.Signatures, sig(sigWallets[i], sigWallets[i+1], wire.StateConfirmed))
	}
	return o
}

// cleanLaunch is one pump.fun launch whose head (create, then the
// creator's buy, both paid by w1) and a buyer's buy (w2) landed.
func cleanLaunch() evidence {
	return evidence{
		launches: []*logical{launched("L", "d1", 1, []string{"M1"},
			ltx(wire.TxCreate, "M1", "c1"), ltx(wire.TxDevBuy, "M1", "b1"), ltx(wire.TxBuy, "M1", "b2"))},
		views:   map[string]order{"d1": {State: "confirmed"}},
		store:   map[string]wire.Order{"d1": deployRecord("d1", "confirmed", []string{"M1"}, "c1", "w1", "b1", "w1", "b2", "w2")},
		idem:    map[string]idemRecord{"L": {OrderID: "d1", Done: true}},
		sent:    map[string]onChain{"c1": {Payer: "w1", Cosigners: []string{"M1"}}, "b1": {Payer: "w1"}, "b2": {Payer: "w2"}},
		landed:  map[string]onChain{"c1": {}, "b1": {}, "b2": {}},
		creates: map[string][]string{"M1": {"c1"}},
	}
}

func TestReconcileLaunches(t *testing.T) {
	tests := []struct {
		name   string
		change func(ev *evidence)
		// want: how many of each list
		double, missing, notFinal int
		// swapDoubled is how many lines the swaps' own check reports
		swapDoubled int
		mention     string
	}{
		{name: "clean: two transactions of the creator are one launch, not a double trade", change: func(*evidence) {}},
		{
			name:   "a second create of the mint in its own history",
			change: func(ev *evidence) { ev.creates["M1"] = []string{"c1", "c9"} },
			double: 1, mention: "mint M1 created 2 times",
		},
		{
			name: "a redelivered launch signed again with a new mint, both landed",
			change: func(ev *evidence) {
				// The record now holds the second signing; the first
				// create is nobody's.
				ev.store["d1"] = deployRecord("d1", "confirmed", []string{"M2"}, "c2", "w1")
				ev.sent["c2"] = onChain{Payer: "w1", Cosigners: []string{"M2"}}
				ev.creates["M2"] = []string{"c2"}
			},
			// M1 listed by no order; the record disagrees with the answer;
			// c1, b1 and b2 belong to no order.
			double: 1, missing: 1, swapDoubled: 3, mention: "mint M1 was created (c1) but no launch order lists it",
		},
		{
			name: "one order whose transactions created two mints for one config",
			change: func(ev *evidence) {
				o := ev.store["d1"]
				o.Signatures = append(o.Signatures, sig("c2", "w1", "confirmed"))
				ev.store["d1"] = o
				ev.sent["c2"] = onChain{Payer: "w1", Cosigners: []string{"M2"}}
			},
			double: 2, mention: "order d1 created 2 mints for 1 configs",
		},
		{
			name: "one key launched as two orders",
			change: func(ev *evidence) {
				ev.launches[0].attempts = append([]attempt{{answer: answer{Status: 504, Code: "UPSTREAM_TIMEOUT", OrderID: "d0"}}},
					ev.launches[0].attempts...)
				ev.store["d0"] = deployRecord("d0", "confirmed", []string{"M0"}, "c0", "w1")
				ev.sent["c0"] = onChain{Payer: "w1", Cosigners: []string{"M0"}}
				ev.views["d0"] = order{State: "confirmed"}
			},
			double: 1, mention: "Idempotency-Key L launched as orders [d0 d1]",
		},
		{
			name: "a 200 whose mint and buy are not on chain",
			change: func(ev *evidence) {
				delete(ev.sent, "c1")
				delete(ev.creates, "M1")
				delete(ev.landed, "b2")
			},
			missing: 2, mention: "mint M1 answered 200, no create on chain",
		},
		{
			name: "a launch cut off by a 504 whose order never settled",
			change: func(ev *evidence) {
				ev.launches[0].attempts = []attempt{{answer: answer{Status: 504, Code: "UPSTREAM_TIMEOUT", OrderID: "d1"}}}
				ev.views["d1"] = order{State: "broadcast"}
			},
			notFinal: 1,
		},
		{
			name: "a replayed 200 without X-Order-Id is matched through the idempotency record",
			change: func(ev *evidence) {
				a := &ev.launches[0].attempts[0]
				a.OrderID, a.Replayed = "", true
			},
		},
		{
			name: "a launch refused before anything was signed",
			change: func(ev *evidence) {
				ev.launches[0].attempts = []attempt{{answer: answer{Status: 422, Code: "INSUFFICIENT_BALANCE", OrderID: "d1"}}}
				ev.store["d1"] = deployRecord("d1", "failed", nil)
				ev.views["d1"] = order{State: "failed"}
				ev.sent, ev.landed, ev.creates = map[string]onChain{}, map[string]onChain{}, map[string][]string{}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := cleanLaunch()
			tc.change(&ev)
			f := reconcile(ev)
			l := f.Launches
			got := map[string][2]int{
				"double mint":  {len(l.DoubleMint), tc.double},
				"missing":      {len(l.Missing), tc.missing},
				"not final":    {len(l.NotFinal), tc.notFinal},
				"swap doubled": {len(f.Doubled), tc.swapDoubled},
				"unknown":      {len(f.UnknownOrder), 0},
			}
			for what, g := range got {
				if g[0] != g[1] {
					t.Errorf("%s: %d, want %d (double %q, missing %q, not final %q, swaps %q)",
						what, g[0], g[1], l.DoubleMint, l.Missing, l.NotFinal, f.Doubled)
				}
			}
			if tc.mention != "" && !strings.Contains(strings.Join(append(l.DoubleMint, l.Missing...), "\n"), tc.mention) {
				t.Errorf("no line mentions %q: double %q, missing %q", tc.mention, l.DoubleMint, l.Missing)
			}
		})
	}
}

func TestLaunchCounts(t *testing.T) {
	f := reconcile(cleanLaunch()).Launches
	if f.Logical != 1 || f.Orders != 1 || f.Mints != 1 || f.Creates != 1 || f.LandedTxs != 3 || f.ByFinal["200"] != 1 {
		t.Errorf("figures %+v, want 1 launch, 1 order, 1 mint, 1 create, 3 landed, one 200", f)
	}
}

// TestLaunchBodies checks the launches the side load sends: valid JSON,
// the creator and buyers distinct wallets of the account, one or two
// pump.fun configs, both bundle modes, and no two buys alike.
func TestLaunchBodies(t *testing.T) {
	c := &chainRun{chainSpec: knownChains[wire.ChainSolana], wallets: []string{"w1", "w2", "w3", "w4"}}
	modes, seen := map[string]int{}, map[string]bool{}
	for n := 0; n < 12; n++ {
		o := newLaunch(n, c, "fr1")
		var b struct {
			Wallet  string `json:"wallet_address"`
			Configs []struct {
				Dex  string
				Data map[string]bool
			}
			Buys []struct {
				Wallet string `json:"wallet_address"`
				Amount uint64 `json:"sol_amount"`
			}
			Mode string `json:"bundle_mode"`
		}
		if err := json.Unmarshal([]byte(o.body), &b); err != nil {
			t.Fatalf("launch %d: %v: %s", n, err, o.body)
		}
		if o.path != pathDeploy || len(b.Configs) != o.configs || b.Configs[0].Dex != wire.DexPumpFun || b.Configs[0].Data["is_cashback_enabled"] {
			t.Errorf("launch %d: path %s, %d configs (want %d): %s", n, o.path, len(b.Configs), o.configs, o.body)
		}
		modes[b.Mode]++
		who := map[string]bool{b.Wallet: true}
		for _, by := range b.Buys {
			k := fmt.Sprintf("%s %d", by.Wallet, by.Amount)
			if who[by.Wallet] || seen[k] {
				t.Errorf("launch %d: wallet %s twice or amount %d again", n, by.Wallet, by.Amount)
			}
			who[by.Wallet] = true
			seen[k] = true
		}
	}
	if modes[wire.BundlePacked] == 0 || modes[wire.BundleNonPacked] == 0 {
		t.Errorf("bundle modes %v, want packed and non_packed", modes)
	}
}
