package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// ok200 is a logical order answered 200 at once.
func ok200(key, id string, sigs ...string) *logical {
	return &logical{key: key, attempts: []attempt{{answer: answer{Status: 200, Code: "OK", OrderID: id, Sigs: sigs}}}}
}

func stored(id, state string, sigs ...wire.SigState) wire.Order {
	return wire.Order{OrderID: id, State: state, Signatures: sigs}
}

func sig(s, wallet, state string) wire.SigState {
	return wire.SigState{Signature: s, Wallet: wallet, State: state}
}

func TestReconcile(t *testing.T) {
	tests := []struct {
		name string
		ev   evidence
		// want: how many of each list
		doubled, lost, claimed, notFinal, stuck, noOrderID, unknown int
		// mention is a substring expected in the first doubled or lost line
		mention string
	}{
		{
			name: "clean",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store:  map[string]wire.Order{"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed"))},
				idem:   map[string]idemRecord{"k1": {OrderID: "o1", Done: true}},
				sent:   map[string]onChain{"s1": {Signature: "s1", Payer: "w1"}},
				landed: map[string]onChain{"s1": {Signature: "s1"}},
			},
		},
		{
			name: "one order signed twice for a wallet, both landed",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store: map[string]wire.Order{"o1": stored("o1", "confirmed",
					sig("s1", "w1", "confirmed"), sig("s2", "w1", "confirmed"))},
				sent:   map[string]onChain{"s1": {Payer: "w1"}, "s2": {Payer: "w1"}},
				landed: map[string]onChain{"s1": {}},
			},
			doubled: 1, mention: "order o1 traded 2 times from wallet w1",
		},
		{
			name: "landed swap no order accounts for",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store:  map[string]wire.Order{"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed"))},
				sent:   map[string]onChain{"s1": {Payer: "w1"}, "s9": {Payer: "w1"}},
				landed: map[string]onChain{"s1": {}},
			},
			doubled: 1, mention: "landed transaction s9 of wallet w1 belongs to no order",
		},
		{
			name: "an EVM nonce gap filled belongs to no order and is no trade",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store:  map[string]wire.Order{"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed"))},
				sent:   map[string]onChain{"s1": {Payer: "w1"}, "s9": {Payer: "w1", GapFill: true}},
				landed: map[string]onChain{"s1": {}},
			},
		},
		{
			name: "a landed swap that failed on chain is not a trade",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store:  map[string]wire.Order{"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed"))},
				sent:   map[string]onChain{"s1": {Payer: "w1"}, "s9": {Payer: "w1", Failed: true}},
				landed: map[string]onChain{"s1": {}},
			},
		},
		{
			name: "an approval before the swap of the same order and wallet is not a second trade",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "a1", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}},
				store: map[string]wire.Order{"o1": stored("o1", "confirmed",
					sig("a1", "w1", "confirmed"), sig("s1", "w1", "confirmed"))},
				sent:   map[string]onChain{"a1": {Payer: "w1", Aux: true}, "s1": {Payer: "w1"}},
				landed: map[string]onChain{"a1": {}, "s1": {}},
			},
		},
		{
			name: "one key, two orders that both traded, one named only by the idempotency record",
			ev: evidence{
				orders: []*logical{ok200("k1", "o2", "s2")},
				views:  map[string]order{"o1": {State: "confirmed"}, "o2": {State: "confirmed"}},
				store: map[string]wire.Order{
					"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed")),
					"o2": stored("o2", "confirmed", sig("s2", "w1", "confirmed")),
				},
				idem:   map[string]idemRecord{"k1": {OrderID: "o1"}},
				sent:   map[string]onChain{"s1": {Payer: "w1"}, "s2": {Payer: "w1"}},
				landed: map[string]onChain{"s2": {}},
			},
			doubled: 1, mention: "Idempotency-Key k1 traded as orders [o2 o1]",
		},
		{
			name: "two orders claim one signature",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1"), ok200("k2", "o2", "s1")},
				views:  map[string]order{"o1": {State: "confirmed"}, "o2": {State: "confirmed"}},
				store: map[string]wire.Order{
					"o1": stored("o1", "confirmed", sig("s1", "w1", "confirmed")),
					"o2": stored("o2", "confirmed", sig("s1", "w1", "confirmed")),
				},
				sent:   map[string]onChain{"s1": {Payer: "w1"}},
				landed: map[string]onChain{"s1": {}},
			},
			doubled: 1, mention: "signature s1 is claimed by orders [o1 o2]",
		},
		{
			name: "200 whose signature never landed and is still broadcast",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "broadcast"}},
				store:  map[string]wire.Order{"o1": stored("o1", "broadcast", sig("s1", "w1", "broadcast"))},
				sent:   map[string]onChain{},
				landed: map[string]onChain{},
			},
			lost: 1, notFinal: 1, mention: "order o1 (key k1): s1 answered 200, not on chain",
		},
		{
			name: "200 whose signature expired is told success, not lost",
			ev: evidence{
				orders: []*logical{ok200("k1", "o1", "s1")},
				views:  map[string]order{"o1": {State: "expired"}},
				store:  map[string]wire.Order{"o1": stored("o1", "expired", sig("s1", "w1", "expired"))},
				sent:   map[string]onChain{},
				landed: map[string]onChain{},
			},
			claimed: 1,
		},
		{
			name: "retried after a lost connection, then a 504 naming the order, which is missing",
			ev: evidence{
				orders: []*logical{{key: "k1", attempts: []attempt{
					{answer: answer{Code: "connection lost"}},
					{answer: answer{Status: 504, Code: "UPSTREAM_TIMEOUT", OrderID: "o1"}},
				}}},
				views: map[string]order{},
				store: map[string]wire.Order{},
			},
			notFinal: 1,
		},
		{
			name: "a 5xx naming no order, and a stored order nobody named",
			ev: evidence{
				orders: []*logical{{key: "k1", attempts: []attempt{{answer: answer{Status: 503, Code: "OVERLOADED"}}}}},
				views:  map[string]order{},
				store:  map[string]wire.Order{"o7": stored("o7", "failed")},
			},
			noOrderID: 1, unknown: 1,
		},
		{
			name: "a 503 kept for the key is replayed to every retry",
			ev: evidence{
				orders: []*logical{{key: "k1", attempts: []attempt{
					{answer: answer{Status: 503, Code: "OVERLOADED", OrderID: "o1"}},
					{answer: answer{Status: 503, Code: "OVERLOADED", OrderID: "o1", Replayed: true}},
				}}},
				views: map[string]order{"o1": {State: "failed"}},
				store: map[string]wire.Order{"o1": stored("o1", "failed")},
			},
			stuck: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := reconcile(tc.ev)
			got := map[string][2]int{
				"doubled":   {len(f.Doubled), tc.doubled},
				"lost":      {len(f.Lost), tc.lost},
				"claimed":   {len(f.ClaimedNotLanded), tc.claimed},
				"not final": {len(f.NotFinal), tc.notFinal},
				"stuck":     {len(f.StuckKeys), tc.stuck},
				"no id":     {len(f.NoOrderID), tc.noOrderID},
				"unknown":   {len(f.UnknownOrder), tc.unknown},
			}
			for what, g := range got {
				if g[0] != g[1] {
					t.Errorf("%s: %d, want %d (doubled %q, lost %q)", what, g[0], g[1], f.Doubled, f.Lost)
				}
			}
			if tc.mention != "" && !strings.Contains(strings.Join(append(f.Doubled, f.Lost...), "\n"), tc.mention) {
				t.Errorf("no line mentions %q: doubled %q, lost %q", tc.mention, f.Doubled, f.Lost)
			}
		})
	}
}

// TestRequestCounts checks the request and answer counts of a retried
// order.
func TestRequestCounts(t *testing.T) {
	o := &logical{key: "k1", attempts: []attempt{
		{answer: answer{Code: "connection refused"}},
		{answer: answer{Status: 504, Code: "UPSTREAM_TIMEOUT", OrderID: "o1"}},
		{answer: answer{Status: 200, Code: "OK", OrderID: "o1", Sigs: []string{"s1"}}},
	}}
	f := reconcile(evidence{orders: []*logical{o, ok200("k2", "o2", "s2")},
		landed: map[string]onChain{"s1": {}, "s2": {}}})
	if f.Requests != 4 || f.Logical != 2 || f.Retried != 1 {
		t.Errorf("requests %d logical %d retried %d, want 4 2 1", f.Requests, f.Logical, f.Retried)
	}
	want := map[string]int{"connection refused": 1, "504 UPSTREAM_TIMEOUT": 1, "200": 2}
	for k, n := range want {
		if f.ByAnswer[k] != n {
			t.Errorf("ByAnswer[%q] = %d, want %d (%v)", k, f.ByAnswer[k], n, f.ByAnswer)
		}
	}
	if f.ByFinal["200"] != 2 {
		t.Errorf("ByFinal = %v, want two 200s", f.ByFinal)
	}
}

// TestBodies checks that the swaps the load sends are valid JSON and that
// no two buys ask for the same amount from the same wallet, so that no two
// orders can sign the same transaction bytes.
func TestBodies(t *testing.T) {
	c := &chainRun{chainSpec: knownChains[wire.ChainSolana], token: "Mint111", wallets: []string{"w1", "w2"}}
	seen := map[string]bool{}
	for k := 0; k < 5000; k++ {
		var b struct {
			Side    string
			Wallets []struct{ Address, Amount string }
		}
		body := c.body(k, "Buy", c.wallets)
		if err := json.Unmarshal([]byte(body), &b); err != nil {
			t.Fatalf("order %d: %v: %s", k, err, body)
		}
		for _, w := range b.Wallets {
			if _, frac, _ := strings.Cut(w.Amount, "."); len(frac) > 9 {
				t.Fatalf("order %d: amount %s has more than 9 decimals", k, w.Amount)
			}
			if seen[w.Address+" "+w.Amount] {
				t.Fatalf("order %d: %s buys %s again", k, w.Address, w.Amount)
			}
			seen[w.Address+" "+w.Amount] = true
		}
	}
	evm := &chainRun{chainSpec: knownChains[wire.ChainBase], token: "0xabc", wallets: []string{"0x1"}}
	var b struct{ Chain, Side string }
	if err := json.Unmarshal([]byte(evm.body(3, "Buy", evm.wallets)), &b); err != nil || b.Chain != "base" || b.Side != "Buy" {
		t.Errorf("evm body = %+v, %v; want a Buy naming chain base", b, err)
	}
	var sell struct{ Side, Amount string }
	if err := json.Unmarshal([]byte(c.body(1, "Sell", c.wallets[:1])), &sell); err != nil || sell.Side != "Sell" || sell.Amount != "50" {
		t.Errorf("sell body = %+v, %v; want Sell of 50 percent", sell, err)
	}
}

// TestByFault checks which fault an error answer is counted against.
func TestByFault(t *testing.T) {
	faults := []faultEvent{{target: "worker", at: 10 * time.Second}, {target: "nats", at: 40 * time.Second}}
	at := func(start, took time.Duration, a answer) attempt { return attempt{at: start, took: took, answer: a} }
	e504 := answer{Status: 504, Code: "UPSTREAM_TIMEOUT"}
	e503 := answer{Status: 503, Code: "OVERLOADED"}
	orders := []*logical{
		// In flight when the worker died, answered after it came back.
		{attempts: []attempt{at(9900*time.Millisecond, 10*time.Second, e504)}},
		// Its replay, sent later, is not counted again.
		{attempts: []attempt{at(21*time.Second, time.Millisecond, answer{Status: 504, Code: "UPSTREAM_TIMEOUT", Replayed: true})}},
		// Sent after the NATS node died.
		{attempts: []attempt{at(43*time.Second, time.Millisecond, e503)}},
		// Before any fault.
		{attempts: []attempt{at(2*time.Second, time.Millisecond, e503)}},
		// A 200 is never counted.
		{attempts: []attempt{at(41*time.Second, time.Millisecond, answer{Status: 200})}},
	}
	got := byFault(orders, faults)
	if got[0]["504 UPSTREAM_TIMEOUT"] != 1 || len(got[0]) != 1 {
		t.Errorf("worker: %v, want one 504", got[0])
	}
	if got[1]["503 OVERLOADED"] != 1 || len(got[1]) != 1 {
		t.Errorf("nats: %v, want one 503", got[1])
	}
}
