package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"

	"github.com/tradeapi/tradeapi/shared/wire"
)

type deployData struct {
	MintAddresses []string        `json:"mint_addresses"`
	LandedTxs     []wire.LandedTx `json:"landed_txs"`
}

// solWallets lists the account's Solana wallets in label order.
func solWallets(t *testing.T, base, key string) []string {
	t.Helper()
	r := do(t, "GET", base+"/api/v1/wallets", key, nil)
	var d struct {
		Wallets []struct{ Address string } `json:"wallets"`
	}
	if err := json.Unmarshal(r.Body.Data, &d); err != nil || len(d.Wallets) < 3 {
		t.Fatalf("wallets: %s", r.Raw)
	}
	var out []string
	for _, w := range d.Wallets {
		out = append(out, w.Address)
	}
	return out
}

var metadataURI = regexp.MustCompile(`http://[0-9.:]+/metadata/[0-9a-f]{64}\.json`)

// TestDeployEndToEnd launches two pump.fun coins in one request through
// `up` and checks the answer, the chain, the metadata the coins point to,
// the order lookup, the budget and the refusals.
func TestDeployEndToEnd(t *testing.T) {
	u, cfg := startUp(t, nil)
	eu, us := "http://"+cfg.Listen.SolEU, "http://"+cfg.Listen.SolUS
	key := u.Demo.SolKey
	w := solWallets(t, eu, key)
	body := func(mode string) map[string]any {
		return map[string]any{
			"wallet_address": w[0],
			"metadata": map[string]any{"name": "Two Moons", "symbol": "MOON2", "description": "launched twice",
				"image_url": "https://img.example/moon.png", "twitter": "https://x.com/moons", "website": "https://moons.example"},
			"configs": []any{
				map[string]any{"dex": "pump_fun", "data": map[string]any{"is_mayhem_mode": false, "is_cashback_enabled": false}},
				map[string]any{"dex": "pump_fun"},
			},
			"creator_buy_sol_amount": 200_000_000,
			"buys": []any{
				map[string]any{"wallet_address": w[1], "sol_amount": 100_000_000, "priority_fee_sol": 0.00001},
				map[string]any{"wallet_address": w[2], "sol_amount": 50_000_000, "priority_fee_sol": 0},
			},
			"bundle_mode": mode, "jito_tip": 10_000, "slippage_bps": 300,
		}
	}

	var d deployData
	t.Run("two launches in one request", func(t *testing.T) {
		before := do(t, "GET", eu+"/api/v1/wallets", key, nil).Header.Get("X-RateLimit-Remaining-Minute")
		swaps, launches := stageCount(metrics.StageEndToEnd, wire.ChainSolana), stageCount(metrics.StageDeployEndToEnd, wire.ChainSolana)
		r := do(t, "POST", eu+"/api/v1/deploy", key, body(wire.BundleNonPacked))
		if r.Status != 200 {
			t.Fatalf("deploy %d %s", r.Status, r.Raw)
		}
		// A launch's wait is not a swap's: counted with them, it fired the
		// swap latency alert.
		if s, l := stageCount(metrics.StageEndToEnd, wire.ChainSolana)-swaps, stageCount(metrics.StageDeployEndToEnd, wire.ChainSolana)-launches; s != 0 || l != 1 {
			t.Fatalf("the launch counted %d times as a swap's end_to_end and %d as a launch's, want 0 and 1", s, l)
		}
		if after := r.Header.Get("X-RateLimit-Remaining-Minute"); mustAtoi(t, before)-mustAtoi(t, after) != 1 {
			t.Fatalf("deploy charged %s -> %s, want one unit", before, after)
		}
		if err := json.Unmarshal(r.Body.Data, &d); err != nil || len(d.MintAddresses) != 2 || d.MintAddresses[0] == d.MintAddresses[1] {
			t.Fatalf("deploy answer %s", r.Raw)
		}
		// Per launch: create, dev_buy, two buys.
		if len(d.LandedTxs) != 8 {
			t.Fatalf("landed %d transactions, want 8: %s", len(d.LandedTxs), r.Raw)
		}
		kinds := map[string]int{}
		for _, tx := range d.LandedTxs {
			kinds[tx.Kind]++
			if tx.Dex != "pump_fun" || tx.Signature == "" {
				t.Fatalf("landed tx %+v", tx)
			}
		}
		if kinds[wire.TxCreate] != 2 || kinds[wire.TxDevBuy] != 2 || kinds[wire.TxBuy] != 4 {
			t.Fatalf("kinds %v", kinds)
		}
		for _, m := range d.MintAddresses {
			mint := sol.MustPublicKeyFromBase58(m)
			for _, wallet := range w[:3] {
				if n, err := u.Devnet.TokenBalance(sol.MustPublicKeyFromBase58(wallet), mint); err != nil || n == 0 {
					t.Fatalf("%s holds %d of %s (%v)", wallet, n, m, err)
				}
			}
			acc, ok := u.Devnet.GetAccount(mint)
			uri := metadataURI.FindString(string(acc.Data))
			if !ok || uri == "" {
				t.Fatalf("mint %s carries no metadata uri", m)
			}
			doc := getJSON(t, uri)
			if doc["name"] != "Two Moons" || doc["symbol"] != "MOON2" || doc["image"] != "https://img.example/moon.png" ||
				doc["twitter"] != "https://x.com/moons" || doc["external_url"] != "https://moons.example" {
				t.Fatalf("metadata at %s: %v", uri, doc)
			}
		}
		// A launched pump.fun coin counts as bought under its bonding
		// curve's address too.
		launched := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{
			"address": pumpfun.BondingCurvePDA(sol.MustPublicKeyFromBase58(d.MintAddresses[0])).String(), "side": "Buy",
			"slippage": 5, "skip_if_bought": true, "wallets": []any{map[string]any{"address": w[2], "amount": "0.05"}},
		})
		if launched.Status != 200 || !strings.Contains(launched.Raw, `"skipped":true`) {
			t.Fatalf("skip_if_bought by the bonding curve of a coin the account launched: %d %s", launched.Status, launched.Raw)
		}
	})

	t.Run("one launch on each venue", func(t *testing.T) {
		b := body(wire.BundleNonPacked)
		b["configs"] = []any{
			map[string]any{"dex": "bonk", "data": map[string]any{"migrate_type": "amm_v4", "creator_fee_on": "both_tokens"}},
			map[string]any{"dex": "bags", "data": map[string]any{}},
			map[string]any{"dex": "pump_fun"},
		}
		r := do(t, "POST", us+"/api/v1/deploy", key, b)
		var got deployData
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &got) != nil || len(got.MintAddresses) != 3 {
			t.Fatalf("deploy %d %s", r.Status, r.Raw)
		}
		dexOf := map[string]string{}
		for _, tx := range got.LandedTxs {
			dexOf[tx.Mint] = tx.Dex
		}
		for i, want := range []string{"bonk", "bags", "pump_fun"} {
			if dexOf[got.MintAddresses[i]] != want {
				t.Fatalf("mint %d launched on %q, want %s: %s", i, dexOf[got.MintAddresses[i]], want, r.Raw)
			}
			for _, wallet := range w[:3] {
				if n, err := u.Devnet.TokenBalance(sol.MustPublicKeyFromBase58(wallet), sol.MustPublicKeyFromBase58(got.MintAddresses[i])); err != nil || n == 0 {
					t.Fatalf("%s holds %d of the %s coin (%v)", wallet, n, want, err)
				}
			}
		}
	})

	t.Run("LetsBonk and Bags coins trade after their launch", func(t *testing.T) {
		b := body(wire.BundlePacked)
		b["configs"] = []any{map[string]any{"dex": "bonk"}, map[string]any{"dex": "bags"}}
		b["buys"] = []any{}
		r := do(t, "POST", eu+"/api/v1/deploy", key, b)
		var got deployData
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &got) != nil || len(got.MintAddresses) != 2 {
			t.Fatalf("deploy %d %s", r.Status, r.Raw)
		}
		for i, venue := range []string{wire.VenueLaunchLab, wire.VenueDBC} {
			mint := got.MintAddresses[i]
			m := sol.MustPublicKeyFromBase58(mint)
			pool := []sol.PublicKey{launchlab.PoolPDA(m, sol.SolMint), dbc.PoolPDA(dbc.LocalBagsPoolConfig, m, sol.SolMint)}[i].String()
			// A launch counts as bought under its pool's id too.
			launched := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{
				"address": pool, "side": "Buy", "slippage": 5, "skip_if_bought": true,
				"wallets": []any{map[string]any{"address": w[2], "amount": "0.05"}},
			})
			if launched.Status != 200 || !strings.Contains(launched.Raw, `"skipped":true`) {
				t.Fatalf("%s skip_if_bought by the pool id of a coin the account launched: %d %s", venue, launched.Status, launched.Raw)
			}
			buy := do(t, "POST", us+"/api/v1/swap", key, map[string]any{
				"address": mint, "side": "Buy", "slippage": 5, "priority_fee": 0.00001,
				"wallets":     []any{map[string]any{"address": w[1], "amount": "0.05"}},
				"auto_orders": []any{map[string]any{"type": "take_profit", "trigger_pct": 900}},
			})
			if buy.Status != 200 {
				t.Fatalf("%s buy %d %s", venue, buy.Status, buy.Raw)
			}
			var sw swapData
			_ = json.Unmarshal(buy.Body.Data, &sw)
			waitOrder(t, eu, key, sw.OrderID, "confirmed")
			// The exits engine read the buy and prices the position on the
			// coin's curve.
			var o exitsOrder
			if !poll.True(10*time.Second, func() bool {
				l := do(t, "GET", eu+"/api/v1/orders/"+sw.OrderID, key, nil)
				o = exitsOrder{}
				_ = json.Unmarshal(l.Body.Data, &o)
				return len(o.Positions) == 1 && o.Positions[0].Venue == venue
			}) {
				t.Fatalf("%s buy %s opened no position on its venue: %+v", venue, sw.OrderID, o.Positions)
			}
			buyID := sw.OrderID
			// The token is known by its pool's id too: a skip_if_bought buy
			// naming the pool sees the buy that named the mint.
			skip := do(t, "POST", us+"/api/v1/swap", key, map[string]any{
				"address": pool, "side": "Buy", "slippage": 5, "skip_if_bought": true,
				"wallets": []any{map[string]any{"address": w[2], "amount": "0.05"}},
			})
			if skip.Status != 200 || !strings.Contains(skip.Raw, `"skipped":true`) {
				t.Fatalf("%s skip_if_bought by the pool id after a buy by the mint: %d %s", venue, skip.Status, skip.Raw)
			}
			// A sale of everything that names the pool closes the position
			// the buy by the mint opened, and cancels its exit.
			sell := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{
				"address": pool, "side": "Sell", "slippage": 5,
				"wallets": []any{map[string]any{"address": w[1], "amount": "100"}},
			})
			if sell.Status != 200 {
				t.Fatalf("%s sell %d %s", venue, sell.Status, sell.Raw)
			}
			_ = json.Unmarshal(sell.Body.Data, &sw)
			waitOrder(t, eu, key, sw.OrderID, "confirmed")
			// The lookup of an order that named the pool names the mint.
			if l := do(t, "GET", eu+"/api/v1/orders/"+sw.OrderID, key, nil); !strings.Contains(l.Raw, `"mint":"`+mint+`"`) {
				t.Fatalf("%s: the lookup of a sale by the pool does not name the mint: %s", venue, l.Raw)
			}
			if n, _ := u.Devnet.TokenBalance(sol.MustPublicKeyFromBase58(w[1]), m); n != 0 {
				t.Fatalf("%s: the wallet holds %d after selling everything", venue, n)
			}
			if !poll.True(10*time.Second, func() bool {
				l := do(t, "GET", eu+"/api/v1/orders/"+buyID, key, nil)
				o = exitsOrder{}
				_ = json.Unmarshal(l.Body.Data, &o)
				return len(o.Positions) == 1 && o.Positions[0].State == wire.PositionClosed &&
					o.Positions[0].Exits[0].State == wire.ExitCancelled
			}) {
				t.Fatalf("%s: a sale of everything by the pool id left the position %+v", venue, o.Positions)
			}
		}
	})

	t.Run("a pump.fun coin is known by the pool it graduates to", func(t *testing.T) {
		coin, err := u.Devnet.CreatePumpCoin(sol.NewWallet().PublicKey(), "Graduate", "GRAD")
		if err != nil {
			t.Fatal(err)
		}
		buy := do(t, "POST", eu+"/api/v1/swap", key, map[string]any{"address": coin.Mint.String(), "side": "Buy", "slippage": 5,
			"wallets": []any{map[string]any{"address": w[1], "amount": "0.01"}}})
		var sw swapData
		if buy.Status != 200 || json.Unmarshal(buy.Body.Data, &sw) != nil {
			t.Fatalf("buy %d %s", buy.Status, buy.Raw)
		}
		waitOrder(t, eu, key, sw.OrderID, "confirmed")
		pool := pumpswap.CanonicalPoolPDA(coin.Mint, pumpswap.WrappedSOLMint).String()
		skip := do(t, "POST", us+"/api/v1/swap", key, map[string]any{"address": pool, "side": "Buy", "slippage": 5, "skip_if_bought": true,
			"wallets": []any{map[string]any{"address": w[2], "amount": "0.01"}}})
		if skip.Status != 200 || !strings.Contains(skip.Raw, `"skipped":true`) {
			t.Fatalf("skip_if_bought by the canonical pool after a curve buy by the mint: %d %s", skip.Status, skip.Raw)
		}
	})

	t.Run("order lookup shows the launch", func(t *testing.T) {
		r := do(t, "POST", eu+"/api/v1/deploy", key, body(wire.BundleSniper))
		var d2 deployData
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &d2) != nil || len(d2.LandedTxs) != 8 {
			t.Fatalf("sniper deploy %d %s", r.Status, r.Raw)
		}
		id := r.Header.Get("X-Order-Id")
		o := do(t, "GET", us+"/api/v1/orders/"+id, key, nil)
		var view struct {
			Kind, State string
			Deploy      deployData `json:"deploy"`
		}
		if o.Status != 200 || json.Unmarshal(o.Body.Data, &view) != nil || view.Kind != "deploy" || view.State != "confirmed" ||
			fmt.Sprint(view.Deploy.MintAddresses) != fmt.Sprint(d2.MintAddresses) {
			t.Fatalf("order %s: %s", id, o.Raw)
		}
	})

	t.Run("a replayed key or a redelivered batch launches nothing twice", func(t *testing.T) {
		b := body(wire.BundlePacked)
		first := doKey(t, eu, key, b, "launch-1")
		again := doKey(t, us, key, b, "launch-1")
		if first.Status != 200 || again.Status != 200 || again.Raw != first.Raw || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay %d %s\nfirst %d %s", again.Status, again.Raw, first.Status, first.Raw)
		}
		id := first.Header.Get("X-Order-Id")
		var launched deployData
		_ = json.Unmarshal(first.Body.Data, &launched)

		// The broadcaster gets the recorded batch again, as after a crash
		// before its ack: the bundles are on chain, so nothing is sent.
		creator := sol.MustPublicKeyFromBase58(w[0])
		before := u.Devnet.Balance(creator)
		stored, err := u.buckets.Orders.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		_, js, err := u.connect("worker-test")
		if err != nil {
			t.Fatal(err)
		}
		txs, err := js.Stream(context.Background(), bus.StreamTxs)
		if err != nil {
			t.Fatal(err)
		}
		e, err := txs.GetLastMsgForSubject(context.Background(), bus.BatchSubject(wire.ChainSolana, id))
		if err != nil {
			t.Fatal(err)
		}
		ack, err := js.Publish(context.Background(), bus.BatchSubject(wire.ChainSolana, id), e.Data, jetstream.WithMsgID(id+"-again"))
		if err != nil {
			t.Fatal(err)
		}
		// The broadcaster acks the batch once it handled it: the launch
		// settled before, so it answers from the record and writes nothing.
		poll.Until(t, 10*time.Second, "the redelivered batch handled", func() bool {
			c, err := txs.Consumer(context.Background(), bus.BroadcasterConsumer)
			if err != nil {
				return false
			}
			info, err := c.Info(context.Background())
			return err == nil && info.AckFloor.Stream >= ack.Sequence
		})
		if now, err := u.buckets.Orders.Get(context.Background(), id); err != nil || now.Revision() != stored.Revision() {
			t.Fatalf("the order was written again by a batch of a launch settled before (%v)", err)
		}
		if after := u.Devnet.Balance(creator); after != before {
			t.Fatalf("the redelivered batch moved the creator's balance from %d to %d", before, after)
		}
		o := do(t, "GET", eu+"/api/v1/orders/"+id, key, nil)
		var view struct {
			State  string
			Deploy deployData `json:"deploy"`
		}
		if json.Unmarshal(o.Body.Data, &view) != nil || view.State != "confirmed" || fmt.Sprint(view.Deploy) != fmt.Sprint(launched) {
			t.Fatalf("order after redelivery: %s", o.Raw)
		}
	})

	t.Run("the Go client launches and looks the launch up", func(t *testing.T) {
		c, err := client.New(eu, key, client.WithAutoIdempotencyKey())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		res, err := c.Deploy(ctx, &client.DeployRequest{WalletAddress: w[0],
			Metadata:   client.DeployMetadata{Name: "Client Coin", Symbol: "CLNT"},
			Configs:    []client.DeployConfig{{Dex: "pump_fun"}},
			BundleMode: "sniper", JitoTip: 5_000, CreatorBuySOLAmount: 10_000_000,
			Buys: []client.DeployBuy{{WalletAddress: w[1], SOLAmount: 10_000_000}}})
		if err != nil || len(res.MintAddresses) != 1 || res.Meta.OrderID == "" {
			t.Fatalf("deploy: %+v %v", res, err)
		}
		o, err := c.Order(ctx, res.Meta.OrderID)
		if err != nil || o.Kind != "deploy" || o.Deploy == nil || o.Deploy.MintAddresses[0] != res.MintAddresses[0] ||
			len(o.Deploy.LandedTxs) != len(res.LandedTxs) {
			t.Fatalf("order: %+v %v", o, err)
		}
	})

	t.Run("the least a launch needs", func(t *testing.T) {
		r := do(t, "POST", eu+"/api/v1/deploy", key, map[string]any{"wallet_address": w[0],
			"metadata": map[string]any{"name": "Bare", "symbol": "BARE"}, "configs": []any{map[string]any{"dex": "pump_fun"}}})
		var got deployData
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &got) != nil || len(got.MintAddresses) != 1 ||
			len(got.LandedTxs) != 1 || got.LandedTxs[0].Kind != wire.TxCreate {
			t.Fatalf("bare launch %d %s", r.Status, r.Raw)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		b := body(wire.BundlePacked)
		b["configs"] = []any{map[string]any{"dex": "pump_fun", "data": map[string]any{"is_mayhem_mode": true}}}
		r := do(t, "POST", us+"/api/v1/deploy", key, b)
		if r.Status != 400 || r.code() != "INVALID_REQUEST" || r.Body.Error.Details == nil || *r.Body.Error.Details != "configs[0].data.is_mayhem_mode" {
			t.Fatalf("mayhem while the program has it off: %d %s", r.Status, r.Raw)
		}
		b = body(wire.BundlePacked)
		b["configs"] = []any{map[string]any{"dex": "pump_fun", "data": map[string]any{"is_cashback_enabled": true}}}
		if r := do(t, "POST", us+"/api/v1/deploy", key, b); r.Status != 400 || *r.Body.Error.Details != "configs[0].data.is_cashback_enabled" {
			t.Fatalf("cashback: %d %s", r.Status, r.Raw)
		}
		b = body(wire.BundlePacked)
		b["buys"] = []any{map[string]any{"wallet_address": sol.NewWallet().PublicKey().String(), "sol_amount": 1}}
		if r := do(t, "POST", us+"/api/v1/deploy", key, b); r.Status != 403 || r.code() != "WALLET_NOT_OWNED" {
			t.Fatalf("foreign buyer: %d %s", r.Status, r.Raw)
		}
		for _, tc := range []struct {
			config map[string]any
			field  string
			status int
		}{
			{map[string]any{"dex": "bonk", "data": map[string]any{"migrate_type": "pump"}}, "configs[0].data.migrate_type", 400},
			{map[string]any{"dex": "bonk", "data": map[string]any{"migrate_type": "raydium"}}, "configs[0].data.migrate_type", 400},
			{map[string]any{"dex": "bags", "data": map[string]any{"pool_config": w[0]}}, "configs[0].data.pool_config", 400},
			{map[string]any{"dex": "moonshot"}, "configs[0].dex", 400},
		} {
			b := body(wire.BundlePacked)
			b["configs"] = []any{tc.config}
			r := do(t, "POST", us+"/api/v1/deploy", key, b)
			if r.Status != tc.status || r.code() != "INVALID_REQUEST" || r.Body.Error.Details == nil || *r.Body.Error.Details != tc.field {
				t.Fatalf("%v: %d %s, want %d naming %s", tc.config, r.Status, r.Raw, tc.status, tc.field)
			}
		}
		b = body(wire.BundlePacked)
		b["jito_tip"] = 999
		if r := do(t, "POST", us+"/api/v1/deploy", key, b); r.Status != 400 || *r.Body.Error.Details != "jito_tip" {
			t.Fatalf("untipped bundle: %d %s", r.Status, r.Raw)
		}
		b = body(wire.BundlePacked)
		b["creator_buy_sol_amount"] = 50_000_000_000
		delete(b, "buys")
		if r := do(t, "POST", us+"/api/v1/deploy", key, b); r.Status != 422 || r.code() != "INSUFFICIENT_BALANCE" {
			t.Fatalf("creator short of SOL: %d %s", r.Status, r.Raw)
		}
	})
}

// doKey posts a deploy with an Idempotency-Key.
func doKey(t *testing.T, base, key string, body any, idem string) reply {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", base+"/api/v1/deploy", bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idem)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Header: resp.Header, Raw: string(b)}
	if err := json.Unmarshal(b, &r.Body); err != nil {
		t.Fatalf("not JSON: %q", b)
	}
	return r
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(raw, &out) != nil {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, raw)
	}
	return out
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// stageCount is how many observations a stage's histogram holds on chain.
func stageCount(stage, chain string) uint64 {
	var m dto.Metric
	if err := metrics.Stage.WithLabelValues(stage, chain).(prometheus.Metric).Write(&m); err != nil {
		return 0
	}
	return m.GetHistogram().GetSampleCount()
}
