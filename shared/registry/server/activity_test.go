package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// activityRig is a registry's admin API served without its publisher: the
// read-only routes need only the store and NATS.
type activityRig struct {
	b   *testBus
	reg *Registry
	tr  *testRegistry
}

func newActivityRig(t *testing.T) *activityRig {
	t.Helper()
	b := startBus(t)
	dir := t.TempDir()
	sec, _, err := registry.LoadOrCreateSecrets(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := New(Config{DataDir: dir, Explorers: map[string]string{
		wire.ChainSolana: "http://127.0.0.1:8899/solana/tx/%s",
		"eth":            "https://etherscan.io/tx/%s",
	}}, b.js, sec, nil, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(reg.Handler())
	t.Cleanup(func() {
		srv.Close()
		if err := reg.Close(); err != nil {
			t.Error(err)
		}
	})
	return &activityRig{b: b, reg: reg, tr: &testRegistry{reg: reg, secrets: sec, dataDir: dir, url: srv.URL}}
}

func (r *activityRig) account(t *testing.T, name string) string {
	t.Helper()
	rec, err := r.reg.store.createAccount(name, now())
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// order stores an order record and emits its events as the pipeline does.
func (r *activityRig) order(t *testing.T, account, id, chain string, created time.Time, sigs []string, types ...events.Type) {
	t.Helper()
	ctx := context.Background()
	o := &wire.Order{OrderID: id, AccountID: account, Family: wire.FamilySol, Kind: "swap", State: wire.StateBroadcast,
		Chain: chain, Side: wire.Buy, CreatedAt: created, Signatures: []wire.SigState{}}
	for _, s := range sigs {
		o.Signatures = append(o.Signatures, wire.SigState{Signature: s, Wallet: "w", State: wire.StateConfirmed})
	}
	if err := orders.NewStore(r.b.bucket(t, bus.BucketOrders)).Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	pub := events.NewPublisher(r.b.js, testLogger(t))
	for _, typ := range types {
		if err := pub.Publish(ctx, events.FromOrder(typ, o, created)); err != nil {
			t.Fatal(err)
		}
	}
}

func (b *testBus) bucket(t *testing.T, name string) jetstream.KeyValue {
	t.Helper()
	kv, err := b.js.KeyValue(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

type listedOrder struct {
	OrderID    string `json:"order_id"`
	Chain      string `json:"chain"`
	State      string `json:"state"`
	Signatures []struct {
		Signature   string `json:"signature"`
		ExplorerURL string `json:"explorer_url"`
	} `json:"signatures"`
}

func (r *activityRig) list(t *testing.T, account, query string) []listedOrder {
	t.Helper()
	a := r.tr.do(t, http.MethodGet, "/admin/v1/accounts/"+account+"/orders"+query, nil)
	return decodeData[struct{ Orders []listedOrder }](t, a).Orders
}

func ids(os []listedOrder) string {
	s := ""
	for _, o := range os {
		s += o.OrderID + " "
	}
	return s
}

func TestOrderListing(t *testing.T) {
	r := newActivityRig(t)
	alice, bob := r.account(t, "alice"), r.account(t, "bob")
	t0 := time.Now().UTC().Add(-time.Hour)
	solSig := "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
	ethSig := "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"
	r.order(t, alice, "eu-1", wire.ChainSolana, t0, []string{solSig}, events.Broadcast, events.Confirmed)
	r.order(t, alice, "evm-2", "eth", t0.Add(time.Minute), []string{ethSig}, events.Broadcast)
	r.order(t, alice, "evm-3", "bsc", t0.Add(2*time.Minute), []string{ethSig}, events.Failed)
	r.order(t, bob, "eu-4", wire.ChainSolana, t0.Add(3*time.Minute), []string{solSig}, events.Broadcast)

	got := r.list(t, alice, "")
	if ids(got) != "evm-3 evm-2 eu-1 " {
		t.Fatalf("alice's orders: %s", ids(got))
	}
	if u := got[2].Signatures[0].ExplorerURL; u != "http://127.0.0.1:8899/solana/tx/"+solSig {
		t.Errorf("solana link %q", u)
	}
	if u := got[1].Signatures[0].ExplorerURL; u != "https://etherscan.io/tx/"+ethSig {
		t.Errorf("eth link %q", u)
	}
	if u := got[0].Signatures[0].ExplorerURL; u != "" {
		t.Errorf("bsc has no explorer configured but links to %q", u)
	}
	if got := r.list(t, alice, "?limit=2"); ids(got) != "evm-3 evm-2 " {
		t.Errorf("limit 2: %s", ids(got))
	}
	// The oldest order changes last (an exit of its buy fires): the newest
	// orders are still the ones made last.
	old := &wire.Order{OrderID: "eu-1", AccountID: alice, Family: wire.FamilySol, Kind: "swap", State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, CreatedAt: t0}
	fired := events.FromOrder(events.ExitFired, old, time.Now())
	fired.ID += ".tp.0"
	if err := events.NewPublisher(r.b.js, testLogger(t)).Publish(context.Background(), fired); err != nil {
		t.Fatal(err)
	}
	if got := r.list(t, alice, "?limit=2"); ids(got) != "evm-3 evm-2 " {
		t.Errorf("limit 2 after the oldest order's late event: %s", ids(got))
	}
	if got := r.list(t, bob, ""); ids(got) != "eu-4 " {
		t.Errorf("bob's orders: %s", ids(got))
	}
	if got := r.list(t, r.account(t, "carol"), ""); len(got) != 0 {
		t.Errorf("an account without orders lists %s", ids(got))
	}
	for _, q := range []string{"?limit=0", "?limit=101", "?limit=x"} {
		a := r.tr.do(t, http.MethodGet, "/admin/v1/accounts/"+alice+"/orders"+q, nil)
		if a.Status != http.StatusBadRequest || a.details() != "limit" {
			t.Errorf("%s: %d %s", q, a.Status, a.Raw)
		}
	}
	if a := r.tr.do(t, http.MethodGet, "/admin/v1/accounts/acc_nope/orders", nil); a.Status != http.StatusNotFound {
		t.Errorf("unknown account: %d", a.Status)
	}

	// An account busier than the scan bound in every window gets the first
	// events of its last minute, never an unbounded read.
	defer func(n int) { maxEventScan = n }(maxEventScan)
	maxEventScan = 2
	if got := r.list(t, alice, ""); ids(got) != "eu-1 " {
		t.Errorf("bounded scan: %s, want the order of the first two events", ids(got))
	}
}

func TestUsage(t *testing.T) {
	r := newActivityRig(t)
	acct := r.account(t, "alice")
	if _, err := r.reg.store.updateAccount(acct, func(rec *accountRecord) error {
		rec.Limits = map[wire.Family]registry.Limits{wire.FamilyEVM: {Minute: 5, Hour: 50, Week: 500}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	bud := budget.New(r.b.bucket(t, bus.BucketBudget), nil)
	for range 3 {
		if _, err := bud.Charge(context.Background(), acct, wire.FamilyEVM, budget.Limits{Minute: 5, Hour: 50, Week: 500}); err != nil {
			t.Fatal(err)
		}
	}
	a := r.tr.do(t, http.MethodGet, "/admin/v1/accounts/"+acct+"/usage", nil)
	u := decodeData[struct{ Usage map[wire.Family]windowUsage }](t, a).Usage
	evm, sol := u[wire.FamilyEVM], u[wire.FamilySol]
	// The week window cannot roll over between the charges and the read
	// (short of a Monday midnight); minute and hour are checked for
	// consistency only.
	if evm.Limits != (registry.Limits{Minute: 5, Hour: 50, Week: 500}) || evm.Used.Week != 3 || evm.Remaining.Week != 497 {
		t.Errorf("evm usage %+v", evm)
	}
	if evm.Used.Minute+evm.Remaining.Minute != 5 || evm.ResetSeconds.Minute < 1 || evm.ResetSeconds.Minute > 60 {
		t.Errorf("evm minute %+v", evm)
	}
	if sol.Limits != registry.DefaultLimits || sol.Used != (registry.Limits{}) || sol.Remaining != registry.DefaultLimits {
		t.Errorf("sol usage %+v", sol)
	}
	// A limit lowered under what the windows counted: used is what they
	// counted (it read as the lowered limit), nothing remains.
	if _, err := r.reg.store.updateAccount(acct, func(rec *accountRecord) error {
		rec.Limits = map[wire.Family]registry.Limits{wire.FamilyEVM: {Minute: 1, Hour: 1, Week: 1}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	a = r.tr.do(t, http.MethodGet, "/admin/v1/accounts/"+acct+"/usage", nil)
	if evm := decodeData[struct{ Usage map[wire.Family]windowUsage }](t, a).Usage[wire.FamilyEVM]; evm.Used.Week != 3 || evm.Remaining.Week != 0 {
		t.Errorf("evm usage under a lowered limit %+v: want 3 used, none remaining", evm)
	}
	if a := r.tr.do(t, http.MethodGet, "/admin/v1/accounts/acc_nope/usage", nil); a.Status != http.StatusNotFound {
		t.Errorf("unknown account: %d", a.Status)
	}
	if a := doRequest(t, r.tr.url, "Bearer wrong", http.MethodGet, "/admin/v1/accounts/"+acct+"/usage", nil, ""); a.Status != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", a.Status)
	}
}
