package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// venueEnv drives the venue pauses of a running `up` through its public
// and admin APIs.
type venueEnv struct {
	t              *testing.T
	u              *Up
	eu, admin      string
	key, tok       string
	wallets        []string
	pumpMint, pool string
}

func newVenueEnv(t *testing.T) *venueEnv {
	u, cfg := startUp(t, nil)
	e := &venueEnv{t: t, u: u, eu: "http://" + cfg.Listen.SolEU, admin: "http://" + cfg.Listen.Admin,
		key: u.Demo.SolKey, tok: u.Secrets.AdminToken}
	e.wallets = solWallets(t, e.eu, e.key)
	for _, tk := range u.Demo.Tokens {
		switch {
		case tk.Chain == wire.ChainSolana && tk.Venue == venues.PumpFun:
			e.pumpMint = tk.Address
		case tk.Chain == wire.ChainSolana && tk.Venue == venues.PumpSwap:
			e.pool = tk.Address
		}
	}
	if e.pumpMint == "" || e.pool == "" {
		t.Fatalf("demo tokens %+v", u.Demo.Tokens)
	}
	return e
}

// state is a Solana venue's state as GET /admin/v1/venues lists it.
func (e *venueEnv) state(venue string) (state, reason string) {
	return e.stateOn(wire.ChainSolana, venue)
}

// stateOn is a venue's state on chain as GET /admin/v1/venues lists it.
func (e *venueEnv) stateOn(chain, venue string) (state, reason string) {
	r := do(e.t, "GET", e.admin+"/admin/v1/venues", e.tok, nil)
	var d struct {
		Venues []struct{ Venue, Chain, State, Reason string }
	}
	if r.Status != 200 || json.Unmarshal(r.Body.Data, &d) != nil {
		e.t.Fatalf("venues: %s", r.Raw)
	}
	for _, v := range d.Venues {
		if v.Venue == venue && v.Chain == chain {
			return v.State, v.Reason
		}
	}
	return "", ""
}

// await waits for venue to be in state, within the 10 s a pause or its
// lift may take.
func (e *venueEnv) await(venue, state string) {
	e.t.Helper()
	start := time.Now()
	poll.Until(e.t, 10*time.Second, venue+" "+state, func() bool { s, _ := e.state(venue); return s == state })
	// The admin listing reads the bucket; the gates of ingress and the
	// workers read the process's view of it, which follows a moment later.
	poll.Until(e.t, 5*time.Second, venue+" "+state+" in the view the gates read", func() bool {
		st, ok := e.u.venues.State(wire.ChainSolana, venue)
		return ok && st.State == state
	})
	e.t.Logf("%s %s after %v", venue, state, time.Since(start).Round(time.Millisecond))
}

// upgrade redeploys a program of the local chain and returns its new
// deploy slot.
func (e *venueEnv) upgrade(program string, breaking, revert bool) uint64 {
	e.t.Helper()
	r := do(e.t, "POST", e.admin+"/admin/v1/devnet/upgrade", e.tok,
		map[string]any{"chain": "solana", "program": program, "breaking": breaking, "revert": revert})
	var up struct {
		DeploySlot uint64 `json:"deploy_slot"`
		Breaking   bool   `json:"breaking"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body.Data, &up) != nil || up.Breaking != breaking {
		e.t.Fatalf("upgrade %s: %s", program, r.Raw)
	}
	return up.DeploySlot
}

func (e *venueEnv) buy(mint string) reply {
	return do(e.t, "POST", e.eu+"/api/v1/swap", e.key,
		map[string]any{"address": mint, "side": "Buy", "amount": "0.01", "wallets": []any{map[string]any{"address": e.wallets[0]}}})
}

func (e *venueEnv) launch(dex string) reply {
	return do(e.t, "POST", e.eu+"/api/v1/deploy", e.key, map[string]any{"wallet_address": e.wallets[0],
		"metadata": map[string]any{"name": "Venue " + dex, "symbol": "VEN"}, "configs": []any{map[string]any{"dex": dex}},
		"creator_buy_sol_amount": 10_000_000})
}

var windows = []string{"X-RateLimit-Remaining-Minute", "X-RateLimit-Remaining-Hour", "X-RateLimit-Remaining-Week"}

// budget is the account's rate budget as a free request shows it, read
// where no window rolls over before the next request: a refused order must
// leave exactly these figures.
func (e *venueEnv) budget() map[string]string {
	e.t.Helper()
	poll.Until(e.t, 61*time.Second, "a minute with time left", func() bool { return time.Now().Second() < 50 })
	r := do(e.t, "GET", e.eu+"/api/v1/wallets", e.key, nil)
	out := map[string]string{}
	for _, h := range windows {
		out[h] = r.Header.Get(h)
	}
	return out
}

// refused checks a VENUE_PAUSED answer naming venue, charging nothing.
func (e *venueEnv) refused(r reply, venue, reasonPart string, before map[string]string) {
	e.t.Helper()
	if r.Status != http.StatusServiceUnavailable || r.code() != "VENUE_PAUSED" || r.Body.Error.Details == nil ||
		*r.Body.Error.Details != venue || !strings.Contains(r.Body.Error.Message, reasonPart) {
		e.t.Fatalf("want 503 VENUE_PAUSED naming %s: %d %s", venue, r.Status, r.Raw)
	}
	for _, h := range windows {
		if got := r.Header.Get(h); got != before[h] {
			e.t.Errorf("%s = %s after a refused order, was %s: the order was charged", h, got, before[h])
		}
	}
}

// TestVenuePausesEndToEnd runs the whole service against the local chain
// and redeploys its programs through the admin API: a breaking pump.fun
// upgrade pauses pump_fun within 10 s, its buys are refused uncharged while
// PumpSwap buys trade; a revert lifts the pause within 10 s; compatible
// upgrades never pause; and a breaking LaunchLab upgrade refuses bonk
// launches, uncharged, until it is reverted.
func TestVenuePausesEndToEnd(t *testing.T) {
	e := newVenueEnv(t)
	e.await(venues.PumpFun, venues.Active)

	t.Run("evm venues watched on every evm chain", func(t *testing.T) {
		e.t = t
		var evm []string
		for _, c := range e.u.cfg.ServedChains() {
			if c != wire.ChainSolana {
				evm = append(evm, c)
			}
		}
		if len(evm) != len(wire.EVMChains) {
			t.Fatalf("served chains %v", e.u.cfg.ServedChains())
		}
		for _, c := range evm {
			for _, v := range venues.EVMVenues {
				poll.Until(t, 10*time.Second, v+" on "+c+" active", func() bool { s, _ := e.stateOn(c, v); return s == venues.Active })
			}
		}
		if r := do(t, "POST", e.admin+"/admin/v1/venues/uniswap_v3/resume", e.tok, nil); r.Status != 200 {
			t.Fatalf("resume without a chain (every chain): %d %s", r.Status, r.Raw)
		}
		r := do(t, "POST", e.admin+"/admin/v1/venues/uniswap_v3/resume?chain=base", e.tok, nil)
		var st struct{ Venue, Chain, State string }
		if r.Status != 200 || json.Unmarshal(r.Body.Data, &st) != nil || st.Venue != venues.UniswapV3 || st.Chain != wire.ChainBase || st.State != venues.Active {
			t.Fatalf("resume on base: %d %s", r.Status, r.Raw)
		}
	})
	if r := e.buy(e.pumpMint); r.Status != 200 {
		t.Fatalf("pump.fun buy before any upgrade: %s", r.Raw)
	}

	t.Run("breaking pump_fun upgrade", func(t *testing.T) {
		e.t = t
		e.upgrade(venues.PumpFun, true, false)
		e.await(venues.PumpFun, venues.Paused)
		if _, reason := e.state(venues.PumpFun); !strings.Contains(reason, "AccountNotEnoughKeys") {
			t.Fatalf("reason %q", reason)
		}
		before := e.budget()
		r := e.buy(e.pumpMint)
		e.refused(r, venues.PumpFun, "trade_config", before)
		// The refused order is on record, failed with the venue's code.
		o := do(t, "GET", e.eu+"/api/v1/orders/"+r.Header.Get("X-Order-Id"), e.key, nil)
		if o.Status != 200 || !strings.Contains(o.Raw, `"state":"failed"`) || !strings.Contains(o.Raw, `"code":"VENUE_PAUSED"`) {
			t.Fatalf("refused order: %s", o.Raw)
		}
		// Other venues trade on.
		if r := e.buy(e.pool); r.Status != 200 {
			t.Fatalf("pumpswap buy while pump_fun is paused: %s", r.Raw)
		}
		if s, _ := e.state(venues.PumpSwap); s != venues.Active {
			t.Fatalf("pumpswap %s", s)
		}
		if m := metricsText(t, e.u); !strings.Contains(m, `tradeapi_venue_paused{chain="solana",venue="pump_fun"} 1`) {
			t.Fatalf("the paused gauge is not set:\n%s", grepLines(m, "tradeapi_venue"))
		}
	})

	t.Run("revert lifts the pause", func(t *testing.T) {
		e.t = t
		e.upgrade(venues.PumpFun, false, true)
		e.await(venues.PumpFun, venues.Active)
		// Ingress and the worker see the bucket through views that follow
		// it a moment later; refused meanwhile, a buy is not charged.
		poll.Until(t, 5*time.Second, "a pump.fun buy after the revert", func() bool {
			r := e.buy(e.pumpMint)
			if r.Status != 200 && r.code() != "VENUE_PAUSED" {
				t.Fatalf("pump.fun buy after the revert: %s", r.Raw)
			}
			return r.Status == 200
		})
	})

	t.Run("compatible upgrades never pause", func(t *testing.T) {
		e.t = t
		h := watchStates(t, e.u.venuesKV)
		store := venues.NewStore(e.u.venuesKV)
		for range 2 {
			slot := e.upgrade(venues.PumpFun, false, false)
			poll.Until(t, 10*time.Second, "the upgrade re-checked", func() bool {
				st, _, err := store.Get(context.Background(), wire.ChainSolana, venues.PumpFun)
				return err == nil && st.Fingerprint == fmt.Sprintf("deployed at slot %d", slot)
			})
			if r := e.buy(e.pumpMint); r.Status != 200 {
				t.Fatalf("pump.fun buy after a compatible upgrade: %s", r.Raw)
			}
		}
		if n, paused := h.count(venues.PumpFun); n < 2 || paused > 0 {
			t.Fatalf("%d re-checks recorded, %d of them paused", n, paused)
		}
	})

	t.Run("breaking launchlab upgrade refuses bonk launches", func(t *testing.T) {
		e.t = t
		e.upgrade(venues.LaunchLab, true, false)
		e.await(venues.LaunchLab, venues.Paused)
		before := e.budget()
		r := e.launch("bonk")
		e.refused(r, venues.LaunchLab, "trade_config", before)
		if r.Header.Get("X-Order-Id") != "" {
			t.Fatalf("a launch refused before its charge has an order: %s", r.Header.Get("X-Order-Id"))
		}
		e.upgrade(venues.LaunchLab, false, true)
		e.await(venues.LaunchLab, venues.Active)
		if r := e.launch("bonk"); r.Status != 200 {
			t.Fatalf("bonk launch after the revert: %s", r.Raw)
		}
	})
}

// stateHistory collects every state written to the venues bucket.
type stateHistory struct {
	mu     sync.Mutex
	states []venues.State
}

func watchStates(t *testing.T, kv jetstream.KeyValue) *stateHistory {
	t.Helper()
	w, err := kv.WatchAll(context.Background(), jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	h := &stateHistory{}
	go func() {
		for ent := range w.Updates() {
			var st venues.State
			if ent != nil && json.Unmarshal(ent.Value(), &st) == nil {
				h.mu.Lock()
				h.states = append(h.states, st)
				h.mu.Unlock()
			}
		}
	}()
	return h
}

// count returns how many states of venue were written, and how many of
// them paused it.
func (h *stateHistory) count(venue string) (n, paused int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, st := range h.states {
		if st.Venue == venue {
			n++
			if st.IsPaused() {
				paused++
			}
		}
	}
	return n, paused
}

// metricsText is the process's metrics exposition.
func metricsText(t *testing.T, u *Up) string {
	t.Helper()
	resp, err := http.Get("http://" + u.cfg.Listen.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func grepLines(s, part string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, part) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestEVMVenueChecksGetTheGenesisHash: the venue checks of a configured
// EVM chain compare the RPC's block 0 with its genesis_hash, and those of
// a chain without one compare only the chain id.
func TestEVMVenueChecksGetTheGenesisHash(t *testing.T) {
	t.Parallel()
	const genesis = "0xf712aa9241cc24369b143cf6dce85f0902a9731e70d66818a3a5845b296c73dd"
	base := config.EVMChain{RPCURL: "https://base.example", ChainID: 8453, GenesisHash: genesis,
		Router: "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24", Factory: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
		V3Factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD", SwapRouter02: "0x2626664c2603336E57B271c5C0b26F421741e481",
		QuoterV2: "0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a", WrappedNative: "0x4200000000000000000000000000000000000006",
		Quotes: map[string]string{"USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}}
	unpinned := base
	unpinned.GenesisHash = ""
	for _, c := range []struct {
		chain config.EVMChain
		want  common.Hash
	}{{base, common.HexToHash(genesis)}, {unpinned, common.Hash{}}} {
		cfg := config.Default()
		cfg.Devnet.Enabled = false
		cfg.EVM.Chains = map[string]config.EVMChain{"base": c.chain}
		ch, err := NewUp(cfg, slog.New(slog.DiscardHandler), io.Discard).evmChain(context.Background(), "base")
		if err != nil {
			t.Fatal(err)
		}
		got := evmContracts(ch)
		if got.GenesisHash != c.want || got.ChainID.Uint64() != 8453 || got.Router != common.HexToAddress(base.Router) {
			t.Errorf("genesis_hash %q: contracts %+v, want genesis %s", c.chain.GenesisHash, got, c.want.Hex())
		}
	}
}

// TestEVMChainGetsItsConfirmations: a chain's confirmations reach what the
// broadcaster is built with.
func TestEVMChainGetsItsConfirmations(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Devnet.Enabled = false
	cfg.EVM.Chains = map[string]config.EVMChain{"base": {RPCURL: "https://base.example", ChainID: 8453, Confirmations: 2,
		Router: "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24", Factory: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
		V3Factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD", SwapRouter02: "0x2626664c2603336E57B271c5C0b26F421741e481",
		QuoterV2: "0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a", WrappedNative: "0x4200000000000000000000000000000000000006",
		Quotes: map[string]string{"USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}}}
	ch, err := NewUp(cfg, slog.New(slog.DiscardHandler), io.Discard).evmChain(context.Background(), "base")
	if err != nil {
		t.Fatal(err)
	}
	if ch.confirmations != 2 {
		t.Fatalf("confirmations %d, want the configured 2", ch.confirmations)
	}
}
