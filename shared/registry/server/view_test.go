package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/freeport"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// visible is how soon a change must reach every view.
const visible = time.Second

func TestViewAuthenticateAndRevoke(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	v := startView(t, b)
	acc := tr.createAccount(t, "alice")
	sol := tr.createKey(t, acc, "sol")
	evm := tr.createKey(t, acc, "evm")

	for _, k := range []createdKey{sol, evm} {
		poll.Until(t, visible, "new key authenticates", func() bool {
			ref, ok := v.Authenticate(k.Key)
			return ok && ref == registry.KeyRef{AccountID: acc, Family: wire.Family(k.Family), KeyID: k.ID}
		})
	}
	for _, bad := range []string{"", "tapi_sol_live_", sol.Key + "x", sol.Key[:len(sol.Key)-1],
		strings.Replace(sol.Key, "sol", "evm", 1), "Bearer " + sol.Key, strings.Repeat("a", 10000)} {
		if _, ok := v.Authenticate(bad); ok {
			t.Errorf("Authenticate(%.30q) succeeded", bad)
		}
	}

	if a := tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+sol.ID, nil); a.Status != 200 {
		t.Fatalf("revoke: %s", a.Raw)
	}
	poll.Until(t, visible, "revoked key fails", func() bool {
		_, ok := v.Authenticate(sol.Key)
		return !ok
	})
	if _, ok := v.Authenticate(evm.Key); !ok {
		t.Error("the other key stopped working")
	}
}

func TestViewAuthenticateAllocatesNothing(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	v := startView(t, b)
	k := tr.createKey(t, tr.createAccount(t, "alice"), "sol")
	poll.Until(t, visible, "key visible", func() bool { _, ok := v.Authenticate(k.Key); return ok })
	if n := testing.AllocsPerRun(100, func() { v.Authenticate(k.Key) }); n != 0 {
		t.Errorf("Authenticate allocates %v times", n)
	}
}

func TestViewAccountChanges(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	v := startView(t, b)
	acc := tr.createAccount(t, "alice")
	ws := tr.createWallets(t, acc, "sol", 11, true)
	evm := tr.createWallets(t, acc, "evm", 1, true)[0]

	var a *registry.Account
	poll.Until(t, visible, "11 wallets visible", func() bool {
		var ok bool
		a, ok = v.Account(acc)
		return ok && len(a.Wallets(wire.FamilySol)) == 11 && len(a.Wallets(wire.FamilyEVM)) == 1
	})
	var labels []string
	for _, w := range a.Wallets(wire.FamilySol) {
		labels = append(labels, w.Label)
	}
	if got, want := strings.Join(labels, " "), "W1 W2 W3 W4 W5 W6 W7 W8 W9 W10 W11"; got != want {
		t.Fatalf("labels %s, want %s", got, want)
	}
	var listing struct {
		Success bool `json:"success"`
		Data    struct {
			Wallets []map[string]any `json:"wallets"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.WalletListing(wire.FamilySol), &listing); err != nil {
		t.Fatal(err)
	}
	if !listing.Success || len(listing.Data.Wallets) != 11 {
		t.Fatalf("listing %s", a.WalletListing(wire.FamilySol))
	}
	for i, w := range listing.Data.Wallets {
		if len(w) != 3 || w["label"] != fmt.Sprintf("W%d", i+1) || w["spot_active"] != true || w["address"] == "" {
			t.Errorf("listing entry %d: %v", i, w)
		}
	}
	if got := string(a.WalletListing(wire.FamilyEVM)); got != `{"success":true,"data":{"wallets":[{"address":"`+evm.Address+`","label":"W1","spot_active":true}]}}` {
		t.Errorf("evm listing %s", got)
	}
	if w, ok := a.Wallet(wire.FamilyEVM, strings.ToLower(evm.Address)); !ok || w.Address != evm.Address {
		t.Errorf("evm lookup in lower case: %v %v", w, ok)
	}
	if _, ok := a.Wallet(wire.FamilySol, evm.Address); ok {
		t.Error("an evm address is found among the sol wallets")
	}
	if a.Limits(wire.FamilySol) != registry.DefaultLimits || len(a.Strategy()) != 0 {
		t.Errorf("defaults: %+v %+v", a.Limits(wire.FamilySol), a.Strategy())
	}

	// spot_active, limits and strategy changes reach the view.
	before := a
	w10 := ws[9]
	if r := tr.do(t, "PATCH", "/admin/v1/accounts/"+acc+"/wallets/"+w10.Address, map[string]any{"spot_active": false}); r.Status != 200 {
		t.Fatal(r.Raw)
	}
	poll.Until(t, visible, "spot_active false visible", func() bool {
		a, _ = v.Account(acc)
		w, ok := a.Wallet(wire.FamilySol, w10.Address)
		return ok && !w.SpotActive
	})
	if len(a.ActiveWallets(wire.FamilySol)) != 10 || !strings.Contains(string(a.WalletListing(wire.FamilySol)), `"label":"W10","spot_active":false`) {
		t.Errorf("active %d, listing %s", len(a.ActiveWallets(wire.FamilySol)), a.WalletListing(wire.FamilySol))
	}
	if w, _ := before.Wallet(wire.FamilySol, w10.Address); !w.SpotActive {
		t.Error("an old snapshot changed")
	}
	tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/limits", map[string]any{"family": "evm", "minute": 7})
	tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/strategy", `{"auto_orders":[{"type":"trailing_stop","trigger_pct":15}]}`)
	poll.Until(t, visible, "limits and strategy visible", func() bool {
		a, _ = v.Account(acc)
		s := a.Strategy()
		return a.Limits(wire.FamilyEVM).Minute == 7 && len(s) == 1 && s[0].Type == "trailing_stop" && *s[0].TriggerPct == 15
	})
	if a.Limits(wire.FamilySol) != registry.DefaultLimits {
		t.Errorf("sol limits changed: %+v", a.Limits(wire.FamilySol))
	}
}

// A view started after the changes loads them from the bucket.
func TestViewLoadsExistingState(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	k := tr.createKey(t, acc, "evm")
	revoked := tr.createKey(t, acc, "evm")
	tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+revoked.ID, nil)
	tr.createWallets(t, acc, "sol", 2, true)

	v := startView(t, b)
	if ref, ok := v.Authenticate(k.Key); !ok || ref.AccountID != acc {
		t.Errorf("loaded key: %+v %v", ref, ok)
	}
	if _, ok := v.Authenticate(revoked.Key); ok {
		t.Error("a revoked key authenticates in a fresh view")
	}
	if a, ok := v.Account(acc); !ok || len(a.Wallets(wire.FamilySol)) != 2 || a.Name != "alice" {
		t.Errorf("loaded account: %+v %v", a, ok)
	}
}

// The view and the registry both carry on across a restart of the NATS
// server: a change made after the restart reaches the view.
func TestViewSurvivesServerRestart(t *testing.T) {
	storeDir := t.TempDir()
	port, err := freeport.Port()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: storeDir, Listen: addr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Shutdown() }()
	dial := func(name string) jetstream.JetStream {
		nc, err := bus.Dial("nats://"+addr, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		js, err := jetstream.New(nc)
		if err != nil {
			t.Fatal(err)
		}
		return js
	}
	regJS, viewJS := dial("registry"), dial("view")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, regJS, bus.Options{}); err != nil {
		t.Fatal(err)
	}
	kv, err := viewJS.KeyValue(ctx, bus.BucketRegistry)
	if err != nil {
		t.Fatal(err)
	}
	tr := startRegistry(t, &testBus{js: regJS}, t.TempDir(), nil)
	v := startView(t, &testBus{registry: kv})

	acc := tr.createAccount(t, "alice")
	k, away := tr.createKey(t, acc, "sol"), tr.createKey(t, acc, "sol")
	poll.Until(t, visible, "key visible", func() bool { _, ok := v.Authenticate(k.Key); return ok })

	srv.Shutdown()
	// Revoked while the server is away: committed, and said to be not
	// published yet, since the ingresses cannot have it.
	if a := tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+away.ID, nil); a.Status != 200 ||
		!strings.Contains(a.Raw, `"revoked":true`) || !strings.Contains(a.Raw, `"published":false`) {
		t.Fatalf("revoke while NATS is away: %d %s", a.Status, a.Raw)
	}
	if srv, err = bus.StartServer(bus.ServerConfig{StoreDir: storeDir, Listen: addr}, nil); err != nil {
		t.Fatal(err)
	}
	// The registry's connection comes back on its own clock: a revoke
	// made before it has is said to be not published (and is published
	// once it is); revoking again is harmless and says so.
	poll.Until(t, 10*time.Second, "a revoke published after the restart", func() bool {
		a := tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+k.ID, nil)
		if a.Status != 200 || !strings.Contains(a.Raw, `"revoked":true`) {
			t.Fatalf("revoke: %d %s", a.Status, a.Raw)
		}
		return strings.Contains(a.Raw, `"published":true`)
	})
	poll.Until(t, 5*time.Second, "revokes seen after the restart", func() bool {
		_, ok := v.Authenticate(k.Key)
		_, okAway := v.Authenticate(away.Key)
		return !ok && !okAway
	})
	w := tr.createWallets(t, acc, "sol", 1, true)[0]
	poll.Until(t, visible, "new wallet seen after the restart", func() bool {
		a, ok := v.Account(acc)
		if !ok {
			return false
		}
		_, found := a.Wallet(wire.FamilySol, w.Address)
		return found
	})
}
