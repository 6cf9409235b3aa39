package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// adminAccount makes an account with one Solana and one EVM wallet and a key
// of each family through the admin API, and waits until ingress knows the
// keys.
type adminAccount struct {
	id                   string
	solKey, evmKey       string
	solWallet, evmWallet string
}

func newAdminAccount(t *testing.T, cfg config.Config, token, name string) adminAccount {
	t.Helper()
	admin := "http://" + cfg.Listen.Admin + "/admin/v1/accounts"
	r := do(t, "POST", admin, token, map[string]any{"name": name})
	var acct struct{ ID string }
	if err := json.Unmarshal(r.Body.Data, &acct); r.Status != 201 || err != nil {
		t.Fatalf("create account %d %s", r.Status, r.Raw)
	}
	a := adminAccount{id: acct.ID}
	key := func(family string) string {
		r := do(t, "POST", admin+"/"+a.id+"/keys", token, map[string]any{"family": family, "name": "bot"})
		var k struct{ Key string }
		if err := json.Unmarshal(r.Body.Data, &k); r.Status != 201 || err != nil || k.Key == "" {
			t.Fatalf("create %s key %d %s", family, r.Status, r.Raw)
		}
		return k.Key
	}
	wallet := func(family string) string {
		r := do(t, "POST", admin+"/"+a.id+"/wallets", token, map[string]any{"family": family})
		var w struct{ Wallets []struct{ Address string } }
		if err := json.Unmarshal(r.Body.Data, &w); r.Status != 201 || err != nil || len(w.Wallets) != 1 {
			t.Fatalf("create %s wallet %d %s", family, r.Status, r.Raw)
		}
		return w.Wallets[0].Address
	}
	a.solKey, a.evmKey = key("sol"), key("evm")
	a.solWallet, a.evmWallet = wallet("sol"), wallet("evm")
	waitStatus(t, "http://"+cfg.Listen.SolEU+"/ping", a.solKey, 200)
	waitStatus(t, "http://"+cfg.Listen.EVM+"/ping", a.evmKey, 200)
	// The keys were made before the wallets: wait until every ingress
	// view lists the wallets too (the registry's changes reach the views
	// within a second, not at once).
	for base, pair := range map[string][2]string{cfg.Listen.SolEU: {a.solKey, a.solWallet}, cfg.Listen.EVM: {a.evmKey, a.evmWallet}} {
		poll.Until(t, 5*time.Second, "wallet listed on "+base, func() bool {
			r := do(t, "GET", "http://"+base+"/api/v1/wallets", pair[0], nil)
			return r.Status == 200 && strings.Contains(string(r.Body.Data), pair[1])
		})
	}
	return a
}

// TestLocalChainsOff runs `up` as in production: devnet.enabled false,
// Solana configured by its rpc_url (a chain of the test's own, standing in
// for a provider), no EVM chain configured. Nothing of the local chains
// runs, no demo account is made or printed, the devnet admin routes do not
// exist, Solana trades through the configured endpoint, and every EVM
// order is answered 503 CHAIN_UNAVAILABLE at once.
func TestLocalChainsOff(t *testing.T) {
	t.Parallel()
	u, cfg, chain, out := startProduction(t, true, false)

	t.Run("nothing of the local chains runs", func(t *testing.T) {
		if u.Devnet != nil || u.EVMDevnet != nil {
			t.Fatal("local chains started")
		}
		if c, err := net.DialTimeout("tcp", cfg.Devnet.Addr, time.Second); err == nil {
			c.Close()
			t.Fatalf("something listens on devnet.addr %s", cfg.Devnet.Addr)
		}
		if u.Demo != nil {
			t.Fatalf("demo account made: %+v", u.Demo)
		}
		banner := out.String()
		if strings.Contains(banner, "demo account ") || strings.Contains(banner, "_live_") || !strings.Contains(banner, "no demo account") {
			t.Fatalf("banner %q", banner)
		}
		if !strings.Contains(banner, "chains     solana\n") {
			t.Fatalf("banner does not list solana alone as served: %q", banner)
		}
	})

	t.Run("the devnet admin routes are absent", func(t *testing.T) {
		for _, p := range []string{"/admin/v1/devnet", "/admin/v1/devnet/balance?chain=solana&address=x"} {
			if r := do(t, "GET", "http://"+cfg.Listen.Admin+p, u.Secrets.AdminToken, nil); r.Status != 404 || r.code() != "NOT_FOUND" {
				t.Fatalf("GET %s: %d %s", p, r.Status, r.Raw)
			}
		}
		r := do(t, "POST", "http://"+cfg.Listen.Admin+"/admin/v1/devnet/fund", u.Secrets.AdminToken,
			map[string]any{"chain": "solana", "address": "x", "amount": "1"})
		if r.Status != 404 || r.code() != "NOT_FOUND" {
			t.Fatalf("POST fund: %d %s", r.Status, r.Raw)
		}
	})

	acct := newAdminAccount(t, cfg, u.Secrets.AdminToken, "prod")

	t.Run("an unconfigured chain is not served", func(t *testing.T) {
		evm := "http://" + cfg.Listen.EVM + "/api/v1/swap"
		for _, body := range []map[string]any{
			{"address": "0x00000000000000000000000000000000000000aa", "side": "Buy", "amount": "0.01", "chain": "base"},
			{"address": "0x00000000000000000000000000000000000000aa", "side": "Buy", "amount": "0.01"},
		} {
			start := time.Now()
			r := do(t, "POST", evm, acct.evmKey, body)
			if r.Status != 503 || r.code() != string(apierr.ChainUnavailable) {
				t.Fatalf("%v: %d %s", body, r.Status, r.Raw)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%v: answered after %s, want at once", body, d)
			}
		}
	})

	t.Run("solana trades through its rpc_url", func(t *testing.T) {
		coin, err := chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Prod", "PRD")
		if err != nil {
			t.Fatal(err)
		}
		chain.Airdrop(sol.MustPublicKeyFromBase58(acct.solWallet), 2_000_000_000)
		eu := "http://" + cfg.Listen.SolEU
		r := do(t, "POST", eu+"/api/v1/swap", acct.solKey, map[string]any{"address": coin.Mint.String(), "side": "Buy", "amount": "0.01", "slippage": 10})
		var d swapData
		_ = json.Unmarshal(r.Body.Data, &d)
		if r.Status != 200 || len(d.Signatures) != 1 {
			t.Fatalf("buy %d %s", r.Status, r.Raw)
		}
		waitOrder(t, eu, acct.solKey, d.OrderID, "confirmed")
		if got, err := chain.TokenBalance(sol.MustPublicKeyFromBase58(acct.solWallet), coin.Mint); err != nil || got == 0 {
			t.Fatalf("the wallet holds %d tokens on the configured chain (%v)", got, err)
		}
	})
}

// startProduction runs `up` with devnet.enabled as devnetOn says and Solana
// configured by its rpc_url, a local chain of the test's own standing in
// for a provider. ownCluster: solana.genesis_hash is that chain's;
// otherwise it is mainnet-beta's, the default.
func startProduction(t *testing.T, ownCluster, devnetOn bool) (*Up, config.Config, *soldevnet.Chain, *logtest.Buffer) {
	t.Helper()
	chain, err := soldevnet.Open(soldevnet.Config{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/solana", chain.Handler())
	provider := httptest.NewServer(mux)
	t.Cleanup(func() {
		provider.Close()
		_ = chain.Close()
	})

	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 6)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet = config.Devnet{Enabled: devnetOn, Addr: a[5]}
	cfg.Solana.RPCURL = provider.URL + "/solana"
	if ownCluster {
		genesis, err := rpc.New(cfg.Solana.RPCURL).GetGenesisHash(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		cfg.Solana.GenesisHash = genesis.String()
	}
	cfg.Pipeline.RequestTimeout = 5 * time.Second
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	out := &logtest.Buffer{}
	u := NewUp(cfg, slog.New(slog.DiscardHandler), out)
	runUp(t, u)
	return u, cfg, chain, out
}

// TestConfiguredBesideLocalChains: a file that configures Solana and
// leaves devnet.enabled at its default has the local chains serve the EVM
// chains beside it. The banner says which chains are test doubles; no demo
// account is made (its Solana wallets would be funded on a chain the
// service does not trade on); the devnet admin routes reach the local
// chains that serve a chain, not the local Solana chain; and webhooks may
// not point at loopback, as in production.
func TestConfiguredBesideLocalChains(t *testing.T) {
	t.Parallel()
	u, cfg, _, out := startProduction(t, true, true)
	banner := out.String()
	if !strings.Contains(banner, "  test doubles serve eth, bsc, base, rbh, arc: not a public network (devnet.enabled)\n") ||
		!strings.Contains(banner, "so there is no demo account") || u.Demo != nil {
		t.Fatalf("banner %q, demo %+v", banner, u.Demo)
	}
	r := do(t, "GET", "http://"+cfg.Listen.Admin+"/admin/v1/devnet", u.Secrets.AdminToken, nil)
	var info struct {
		Chains map[string]any `json:"chains"`
	}
	_ = json.Unmarshal(r.Body.Data, &info)
	if r.Status != 200 || len(info.Chains) != 5 || info.Chains[wire.ChainSolana] != nil || info.Chains[wire.ChainBase] == nil {
		t.Fatalf("devnet info %d %s", r.Status, r.Raw)
	}
	acct := newAdminAccount(t, cfg, u.Secrets.AdminToken, "mixed")
	r = do(t, "PUT", "http://"+cfg.Listen.Admin+"/admin/v1/accounts/"+acct.id+"/webhook", u.Secrets.AdminToken,
		map[string]any{"url": "http://127.0.0.1:9/hook"})
	if r.Status != 400 {
		t.Fatalf("loopback webhook beside a configured chain: %d %s", r.Status, r.Raw)
	}
}

// TestAnotherClusterNotTraded: an RPC that serves another cluster than
// solana.genesis_hash names (here mainnet-beta's, the default, while the
// RPC is a local chain) pauses every Solana venue, so that a buy is
// answered 503 VENUE_PAUSED saying which cluster the RPC serves, and
// nothing is signed for one cluster and sent to another.
func TestAnotherClusterNotTraded(t *testing.T) {
	t.Parallel()
	u, cfg, chain, _ := startProduction(t, false, false)
	acct := newAdminAccount(t, cfg, u.Secrets.AdminToken, "elsewhere")
	coin, err := chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Else", "ELS")
	if err != nil {
		t.Fatal(err)
	}
	wallet := sol.MustPublicKeyFromBase58(acct.solWallet)
	chain.Airdrop(wallet, 2_000_000_000)
	poll.Until(t, 20*time.Second, "every Solana venue paused", func() bool {
		r := do(t, "GET", "http://"+cfg.Listen.Admin+"/admin/v1/venues", u.Secrets.AdminToken, nil)
		return r.Status == 200 && strings.Count(string(r.Body.Data), "not the configured solana.genesis_hash") == len(venues.SolanaVenues)
	})
	r := do(t, "POST", "http://"+cfg.Listen.SolEU+"/api/v1/swap", acct.solKey,
		map[string]any{"address": coin.Mint.String(), "side": "Buy", "amount": "0.01", "slippage": 10})
	if r.Status != 503 || r.code() != string(apierr.VenuePaused) || !strings.Contains(string(r.Raw), "the RPC serves the cluster of genesis ") {
		t.Fatalf("buy on another cluster: %d %s", r.Status, r.Raw)
	}
	if got, _ := chain.TokenBalance(wallet, coin.Mint); got != 0 {
		t.Fatalf("the wallet holds %d tokens of another cluster", got)
	}
}

// TestForgedJobWalletNotOwned publishes swap jobs straight onto the orders
// stream, as anything holding a NATS connection could, for the demo account
// but naming another account's funded wallet, or a wallet the registry does
// not know: the waiting inbox gets 403 WALLET_NOT_OWNED naming the wallet,
// the order is failed, and nothing of the wallet moves on chain.
func TestForgedJobWalletNotOwned(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	victim := newAdminAccount(t, cfg, u.Secrets.AdminToken, "victim")
	victimKey := sol.MustPublicKeyFromBase58(victim.solWallet)
	u.Devnet.Airdrop(victimKey, 1_000_000_000)
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")
	nc, err := u.dial("forger", bus.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	client := rpc.New(cfg.SolanaRPC())
	signatures := func() int {
		sigs, err := client.GetSignaturesForAddress(context.Background(), victimKey)
		if err != nil {
			t.Fatal(err)
		}
		return len(sigs)
	}
	sigsBefore, balanceBefore := signatures(), u.Devnet.Balance(victimKey)

	for i, wallet := range []string{victim.solWallet, sol.NewWallet().PublicKey().String()} {
		id := []string{"eu-forged-victim", "eu-forged-unknown"}[i]
		job := wire.SwapJob{OrderID: id, AccountID: u.Demo.AccountID, Family: wire.FamilySol, Chain: wire.ChainSolana,
			Token: mint, Side: wire.Buy, QuoteAsset: "SOL", Legs: []wire.Leg{{Wallet: wallet, Amount: "0.5"}},
			SlippageBps: 1000, CreatedAt: time.Now()}
		data, _ := json.Marshal(job)
		inbox := nats.NewInbox()
		sub, err := nc.SubscribeSync(inbox)
		if err != nil {
			t.Fatal(err)
		}
		m := &nats.Msg{Subject: bus.OrdersSubject(wire.ChainSolana), Data: data, Header: nats.Header{}}
		m.Header.Set(bus.HeaderReply, inbox)
		if _, err := js.PublishMsg(context.Background(), m, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
		msg, err := sub.NextMsg(15 * time.Second)
		if err != nil {
			t.Fatalf("%s: no answer: %v", id, err)
		}
		_ = sub.Unsubscribe()
		var reply wire.Reply
		_ = json.Unmarshal(msg.Data, &reply)
		if reply.Error == nil || reply.Error.Code != apierr.WalletNotOwned || reply.Error.Details == nil || *reply.Error.Details != wallet ||
			len(reply.Signatures) != 0 {
			t.Fatalf("%s: reply %s", id, msg.Data)
		}
		// The order lookup of the account the job claimed shows it failed.
		o := do(t, "GET", "http://"+cfg.Listen.SolEU+"/api/v1/orders/"+id, u.Demo.SolKey, nil)
		var od struct {
			State string `json:"state"`
			Error *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal(o.Body.Data, &od)
		if o.Status != 200 || od.State != wire.StateFailed || od.Error == nil || od.Error.Code != string(apierr.WalletNotOwned) {
			t.Fatalf("%s: order %d %s", id, o.Status, o.Raw)
		}
	}
	if got := u.Devnet.Balance(victimKey); got != balanceBefore {
		t.Fatalf("the victim's wallet holds %d lamports, had %d", got, balanceBefore)
	}
	if got := signatures(); got != sigsBefore {
		t.Fatalf("%d transactions of the victim's wallet on chain, had %d", got, sigsBefore)
	}
}

// TestLooseSecretsWarned: a secret file of the data folder that other
// users may read (a copy or a chmod loosened it) is logged as an error
// naming it and its mode; one of mode 0600 is not.
func TestLooseSecretsWarned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{registry.AdminTokenPath(dir), registry.MasterKeyPath(dir), bus.CredentialsPath(dir)} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(registry.MasterKeyPath(dir), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs logtest.Buffer
	warnLooseSecrets(slog.New(slog.NewJSONHandler(&logs, nil)), dir)
	out := logs.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"level":"ERROR"`) || !strings.Contains(out, "master_key") ||
		!strings.Contains(out, `"mode":"0644"`) || strings.Contains(out, "secret\\n") {
		t.Fatalf("log:\n%s\nwant one error naming the master key file and its mode", out)
	}
}
