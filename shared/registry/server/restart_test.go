package server

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestRestartKeepsStateAndDemoIsMadeOnce(t *testing.T) {
	b := startBus(t)
	dir := t.TempDir()
	fake := &fakeDevnet{}
	ctx := context.Background()

	tr := startRegistry(t, b, dir, devnet.Devnets{"solana": fake})
	demo, err := tr.reg.EnsureDemo(ctx, devnet.Devnets{"solana": fake}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if demo == nil || !strings.HasPrefix(demo.SolKey, "tapi_sol_live_") || !strings.HasPrefix(demo.EVMKey, "tapi_evm_live_") {
		t.Fatalf("demo %+v", demo)
	}
	var got []string
	for _, w := range demo.Wallets {
		got = append(got, string(w.Family)+":"+w.Label)
		if !w.SpotActive {
			t.Errorf("demo wallet %s not spot_active", w.Label)
		}
	}
	if strings.Join(got, " ") != "sol:W1 sol:W2 sol:W3 evm:W1 evm:W2" {
		t.Errorf("demo wallets %v", got)
	}
	if len(demo.Tokens) != 1 || demo.Tokens[0] != (DemoToken{Chain: "solana", Venue: "pump_fun", Address: "Mint111", Pool: "Curve111"}) {
		t.Errorf("demo tokens %+v", demo.Tokens)
	}
	fake.mu.Lock()
	for i, f := range fake.funds {
		if f.Chain != "solana" || f.Amount != "100" || f.Address != demo.Wallets[i].Address {
			t.Errorf("fund %d: %+v", i, f)
		}
	}
	fake.mu.Unlock()
	funds, tokens := fake.counts()
	if funds != 3 || tokens != 1 {
		t.Fatalf("devnet got %d funds and %d tokens", funds, tokens)
	}

	v := startView(t, b)
	poll.Until(t, visible, "demo keys authenticate", func() bool {
		s, ok1 := v.Authenticate(demo.SolKey)
		e, ok2 := v.Authenticate(demo.EVMKey)
		return ok1 && ok2 && s.AccountID == demo.AccountID && s.Family == wire.FamilySol && e.Family == wire.FamilyEVM
	})
	alice := tr.createAccount(t, "alice")
	aliceKey := tr.createKey(t, alice, "sol")
	aliceWallet := tr.createWallets(t, alice, "sol", 1, false)[0]
	tr.stop()

	// While the registry is down the buckets drift from the store.
	if err := b.registry.Delete(ctx, registry.AccountKVKey(alice)); err != nil {
		t.Fatal(err)
	}
	stale := registry.APIKeyKVKey(strings.Repeat("ab", 32))
	if _, err := b.registry.Put(ctx, stale, []byte(`{"account_id":"acc_gone","family":"sol","key_id":"key_gone"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.walletKeys.Put(ctx, "StaleWallet111", []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := b.walletKeys.Delete(ctx, aliceWallet.Address); err != nil {
		t.Fatal(err)
	}

	// Another master key on the same folder is refused before anything is
	// decrypted with it.
	sec, _, err := registry.LoadOrCreateSecrets(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{DataDir: dir}, b.js, registry.Secrets{AdminToken: "x", MasterKey: registry.RandomBytes(32)}, nil, nil); err == nil || !strings.Contains(err.Error(), "master key") {
		t.Fatalf("wrong master key: %v", err)
	}

	tr2 := startRegistry(t, b, dir, devnet.Devnets{"solana": fake})
	if tr2.secrets.AdminToken != sec.AdminToken {
		t.Fatal("admin token changed across a restart")
	}
	again, err := tr2.reg.EnsureDemo(ctx, devnet.Devnets{"solana": fake}, nil)
	if err != nil || again != nil {
		t.Fatalf("second EnsureDemo = %+v, %v", again, err)
	}
	if f, tk := fake.counts(); f != funds || tk != tokens {
		t.Errorf("the devnet was seeded again: %d funds, %d tokens", f, tk)
	}
	list := decodeData[struct{ Accounts []accountSummary }](t, tr2.do(t, "GET", "/admin/v1/accounts", nil))
	var names []string
	for _, a := range list.Accounts {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "demo,alice" {
		t.Errorf("accounts after restart: %v", names)
	}
	acc := decodeData[accountView](t, tr2.do(t, "GET", "/admin/v1/accounts/"+alice, nil))
	if len(acc.Keys) != 1 || acc.Keys[0].ID != aliceKey.ID || len(acc.Wallets) != 1 || acc.Wallets[0].SpotActive {
		t.Errorf("alice after restart: %+v", acc)
	}

	// The start repaired the buckets: what was lost is back, what the store
	// does not have is gone, and the view follows.
	poll.Until(t, visible, "alice back in the view", func() bool {
		a, ok := v.Account(alice)
		return ok && len(a.Wallets(wire.FamilySol)) == 1
	})
	if _, err := b.registry.Get(ctx, stale); err == nil {
		t.Error("stale api key entry survived the resync")
	}
	if _, err := b.walletKeys.Get(ctx, "StaleWallet111"); err == nil {
		t.Error("stale wallet key survived the resync")
	}
	ring := registry.NewKeyring(b.walletKeys, sec.MasterKey)
	if _, err := ring.PrivateKey(ctx, wire.FamilySol, aliceWallet.Address); err != nil {
		t.Errorf("deleted wallet key not restored: %v", err)
	}
	if _, ok := v.Authenticate(aliceKey.Key); !ok {
		t.Error("alice's key does not authenticate after the restart")
	}
	if _, ok := v.Authenticate(demo.SolKey); !ok {
		t.Error("the demo key does not authenticate after the restart")
	}
}

func TestEnsureDemoOnLocalSolana(t *testing.T) {
	b := startBus(t)
	chain, dn := startSolana(t)
	tr := startRegistry(t, b, t.TempDir(), devnet.Devnets{"solana": dn})
	demo, err := tr.reg.EnsureDemo(context.Background(), devnet.Devnets{"solana": dn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range demo.Wallets {
		if w.Family != wire.FamilySol {
			continue
		}
		if got := chain.Balance(solana.MustPublicKeyFromBase58(w.Address)); got != 100_000_000_000 {
			t.Errorf("%s holds %d lamports, want 100 SOL", w.Label, got)
		}
	}
	venues := []string{"pump_fun", "pumpswap", "launchlab", "dbc"}
	if len(demo.Tokens) != len(venues) {
		t.Fatalf("tokens %+v, want one on each of %v", demo.Tokens, venues)
	}
	for i, tok := range demo.Tokens {
		if tok.Venue != venues[i] {
			t.Fatalf("token %d on %s, want %s", i, tok.Venue, venues[i])
		}
		if _, ok := chain.GetAccount(solana.MustPublicKeyFromBase58(tok.Pool)); !ok {
			t.Errorf("the demo %s coin's curve or pool does not exist", tok.Venue)
		}
	}
}

// TestEnsureDemoReportsDevnetFailures: a demo whose local chains fail is
// still handed back with its keys, which keep was given before the demo
// was committed; the next start seeds the chains again (the keys being
// those kept), and once seeded the demo is left alone.
func TestEnsureDemoReportsDevnetFailures(t *testing.T) {
	b := startBus(t)
	fake := &fakeDevnet{fail: errors.New("chain on fire")}
	tr := startRegistry(t, b, t.TempDir(), nil)
	var kept *Demo
	keep := func(d *Demo) error {
		if pending, err := tr.reg.DemoPending(); err != nil || !pending {
			t.Errorf("keep given the demo after it was committed (pending %v, %v)", pending, err)
		}
		c := *d
		kept = &c
		return nil
	}
	if pending, err := tr.reg.DemoPending(); err != nil || !pending {
		t.Fatalf("a fresh registry's demo pending = %v, %v", pending, err)
	}
	demo, err := tr.reg.EnsureDemo(context.Background(), devnet.Devnets{"solana": fake}, keep)
	if err == nil || !strings.Contains(err.Error(), "chain on fire") {
		t.Fatalf("err = %v", err)
	}
	// The keys are still handed back: they exist and are shown only now.
	if demo == nil || demo.SolKey == "" || demo.EVMKey == "" {
		t.Fatalf("demo %+v", demo)
	}
	if kept == nil || kept.SolKey != demo.SolKey || kept.EVMKey != demo.EVMKey || len(kept.Wallets) != 5 {
		t.Fatalf("keep was given %+v, the demo is %+v", kept, demo)
	}
	if pending, err := tr.reg.DemoPending(); err != nil || !pending {
		t.Fatalf("a demo whose chains failed: pending = %v, %v", pending, err)
	}

	fake.mu.Lock()
	fake.fail, fake.funds, fake.tokens = nil, nil, nil
	fake.mu.Unlock()
	again, err := tr.reg.EnsureDemo(context.Background(), devnet.Devnets{"solana": fake}, keep)
	if err != nil || again == nil || again.AccountID != demo.AccountID || again.SolKey != "" {
		t.Fatalf("the next start: %+v, %v; want the same demo, seeded, without its keys", again, err)
	}
	var got []string
	for _, w := range again.Wallets {
		got = append(got, string(w.Family)+":"+w.Label)
	}
	if strings.Join(got, " ") != "sol:W1 sol:W2 sol:W3 evm:W1 evm:W2" || len(again.Tokens) != 1 {
		t.Fatalf("seeded again: wallets %v, tokens %+v", got, again.Tokens)
	}
	if funds, tokens := fake.counts(); funds != 3 || tokens != 1 {
		t.Fatalf("seeded again with %d funds and %d tokens", funds, tokens)
	}
	if pending, err := tr.reg.DemoPending(); err != nil || pending {
		t.Fatalf("a seeded demo: pending = %v, %v", pending, err)
	}
	if third, err := tr.reg.EnsureDemo(context.Background(), devnet.Devnets{"solana": fake}, keep); err != nil || third != nil {
		t.Fatalf("a third start: %+v, %v", third, err)
	}
	if funds, tokens := fake.counts(); funds != 3 || tokens != 1 {
		t.Fatalf("seeded a third time: %d funds and %d tokens", funds, tokens)
	}
}

// ethDevnet is a fakeDevnet serving the local chain eth, its V2 venue.
type ethDevnet struct{ *fakeDevnet }

func (f ethDevnet) Chains() map[string]devnet.ChainEndpoints {
	return map[string]devnet.ChainEndpoints{"eth": {RPCURL: "http://127.0.0.1:1/evm/eth", Venues: []string{"v2"}}}
}

// TestDemoSeedingCarriesOnWhereItStopped: a start whose seeding finished
// Solana but not eth seeds eth alone at the next start: no Solana wallet
// funded twice, no second demo token of a venue, and the demo handed back
// names the token the first start made.
func TestDemoSeedingCarriesOnWhereItStopped(t *testing.T) {
	b := startBus(t)
	sol, eth := &fakeDevnet{}, ethDevnet{&fakeDevnet{fail: errors.New("eth not up yet")}}
	dns := devnet.Devnets{"solana": sol, "eth": eth}
	tr := startRegistry(t, b, t.TempDir(), nil)
	if _, err := tr.reg.EnsureDemo(context.Background(), dns, nil); err == nil || !strings.Contains(err.Error(), "eth not up yet") {
		t.Fatalf("the first start: %v, want eth's failure", err)
	}
	if funds, tokens := sol.counts(); funds != 3 || tokens != 1 {
		t.Fatalf("the first start seeded Solana with %d funds and %d tokens", funds, tokens)
	}
	eth.mu.Lock()
	eth.fail, eth.funds, eth.tokens = nil, nil, nil
	eth.mu.Unlock()
	demo, err := tr.reg.EnsureDemo(context.Background(), dns, nil)
	if err != nil {
		t.Fatalf("the next start: %v", err)
	}
	if funds, tokens := sol.counts(); funds != 3 || tokens != 1 {
		t.Errorf("the next start seeded Solana again: %d funds and %d tokens in all, want 3 and 1", funds, tokens)
	}
	if funds, tokens := eth.counts(); funds != 2 || tokens != 1 {
		t.Errorf("the next start seeded eth with %d funds and %d tokens, want 2 and 1", funds, tokens)
	}
	var got []string
	for _, tok := range demo.Tokens {
		got = append(got, tok.Chain+":"+tok.Venue+":"+tok.Address)
	}
	if strings.Join(got, " ") != "solana:pump_fun:Mint111 eth:v2:Mint111" {
		t.Fatalf("the demo's tokens %v, want Solana's of the first start, then eth's", got)
	}
	if pending, err := tr.reg.DemoPending(); err != nil || pending {
		t.Fatalf("a seeded demo: pending = %v, %v", pending, err)
	}
}

// TestSecondStoreSaysTheFileIsInUse: a second registry on a data folder
// another process's registry holds is refused naming the file and why
// (bbolt said only "timeout").
func TestSecondStoreSaysTheFileIsInUse(t *testing.T) {
	master := make([]byte, 32)
	path := filepath.Join(t.TempDir(), "registry", "registry.db")
	st, err := openStore(path, master)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.close() })
	// The lock is the file's open description's own, so a second open in
	// this process waits for it as another process's would.
	second, err := openStore(path, master)
	if err == nil {
		_ = second.close()
		t.Fatal("a second store opened the file")
	}
	want := "registry store " + path + " is in use by another process (a second registry or up on the same data folder?)"
	if err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

// TestRunErrorLeavesTheNameToItsCaller: Run's error says what failed, and
// the caller that runs it names the registry once (the service printed
// "registry: registry: listen ...").
func TestRunErrorLeavesTheNameToItsCaller(t *testing.T) {
	b := startBus(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dataDir := t.TempDir()
	sec, _, err := registry.LoadOrCreateSecrets(dataDir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := New(Config{DataDir: dataDir, AdminAddr: taken.Addr().String()}, b.js, sec, nil, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	err = reg.Run(context.Background())
	want := "admin api: listen tcp " + taken.Addr().String() + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Run: %v, want it to start %q", err, want)
	}
}
