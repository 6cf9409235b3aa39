package ingress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// fullBudget are the rate headers of acct1 or acct2 while nothing is
// charged.
var fullBudget = map[string]string{"X-RateLimit-Remaining-Minute": "60", "X-RateLimit-Remaining-Hour": "1200", "X-RateLimit-Remaining-Week": "10000"}

func checkRemaining(t *testing.T, a answer, want map[string]string) {
	t.Helper()
	for h, v := range want {
		if got := a.header.Get(h); got != v {
			t.Errorf("%s = %s, want %s (%d %s)", h, got, v, a.status, a.raw)
		}
	}
}

// pausedMint is the token whose venue the stand-in worker finds paused.
const pausedMint = "So11111111111111111111111111111111111111112"

// TestSwapOnPausedVenueRefunded: the signer, which alone knows a swap's
// venue, refuses it with VENUE_PAUSED; ingress gives the charge back, so
// the rate headers show the budget untouched, and keeps nothing under the
// Idempotency-Key, so the same key runs again. A swap on another venue is
// charged as usual.
func TestSwapOnPausedVenueRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	paused := apierr.Newf(apierr.VenuePaused, venues.PumpFun, "pump_fun is paused since 2026-05-09T07:00:00Z: pump_fun program upgraded")
	w := startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		var j wire.SwapJob
		_ = json.Unmarshal(job, &j)
		if j.Token == pausedMint {
			b := paused.Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
	buy := func(mint string) string { return `{"address":"` + mint + `","side":"Buy","amount":"0.1"}` }
	var orders []string
	for try := range 2 {
		// On either host: the refund is exact across ingress processes.
		url := []string{h.eu.URL, h.us.URL}[try]
		a := call(t, "POST", url+"/api/v1/swap", solKey, "application/json", buy(pausedMint), "Idempotency-Key", "kp")
		if a.status != 503 || a.code() != string(apierr.VenuePaused) || a.details() != venues.PumpFun ||
			a.body["error"].(map[string]any)["message"] != paused.Message || a.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("try %d: %d %s", try, a.status, a.raw)
		}
		checkRemaining(t, a, fullBudget)
		orders = append(orders, a.header.Get("X-Order-Id"))
	}
	// The key was not kept: the second try ran as a first request, with an
	// order of its own that reached the worker.
	if orders[0] == "" || orders[0] == orders[1] || w.deliveries(orders[0]) != 1 || w.deliveries(orders[1]) != 1 {
		t.Fatalf("orders %v", orders)
	}
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", buy(solMint))
	if a.status != 200 {
		t.Fatalf("swap on an active venue: %d %s", a.status, a.raw)
	}
	checkRemaining(t, a, map[string]string{"X-RateLimit-Remaining-Week": "9999", "X-RateLimit-Remaining-Hour": "1199"})
}

// TestSignerChainUnavailableRefunded: a signer that cannot serve the order
// (a launch with no metadata store configured) refuses it 503
// CHAIN_UNAVAILABLE; as for a chain no worker serves, nothing stays
// charged and nothing is kept under the Idempotency-Key.
func TestSignerChainUnavailableRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	refusal := apierr.New(apierr.ChainUnavailable, "token launches need a metadata store; none is configured")
	w := startWorker(t, h, wire.ChainSolana, func(orderID string, _ []byte) *wire.Reply {
		b := refusal.Body()
		return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
	})
	var orders []string
	for try := range 2 {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`, "Idempotency-Key", "cu")
		if a.status != 503 || a.code() != string(apierr.ChainUnavailable) || a.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("try %d: %d %s", try, a.status, a.raw)
		}
		checkRemaining(t, a, fullBudget)
		orders = append(orders, a.header.Get("X-Order-Id"))
	}
	if orders[0] == orders[1] || w.deliveries(orders[1]) != 1 {
		t.Fatalf("orders %v: the second try did not run as a first request", orders)
	}
}

// refusingDust starts a stand-in Solana signer that refuses a buy of one
// lamport as only the signer can (the amount judged against the chain),
// naming the field the amount came from, and signs any other.
func refusingDust(t *testing.T, h *harness) {
	t.Helper()
	startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		var j wire.SwapJob
		_ = json.Unmarshal(job, &j)
		if j.Legs[0].Amount == "0.000000001" {
			b := apierr.Invalid(j.Legs[0].Field(), "1 lamports buy no tokens after fees").Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
}

// TestSignerRefusalOfAmountRefunded: a 400 only the signer can give (the
// amount judged against the chain) is never charged: ingress gives the
// unit back and keeps nothing under the Idempotency-Key, so the same key
// with a corrected body runs as a first request. The stand-in signer names
// the field the job says the amount came from: the top-level amount for a
// wallet entry without one, the entry's own amount otherwise.
func TestSignerRefusalOfAmountRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	refusingDust(t, h)
	tests := []struct {
		name, wallets, field string
	}{
		{"top-level amount", `"amount":"0.000000001","wallets":[{"address":"` + solW1 + `"}]`, "amount"},
		{"no wallets named", `"amount":"0.000000001"`, "amount"},
		{"the entry's own amount", `"amount":"1","wallets":[{"address":"` + solW1 + `","amount":"0.000000001"}]`, "wallets[0].amount"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := fmt.Sprintf("refund-%d", i)
			a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
				`{"address":"`+solMint+`","side":"Buy",`+tt.wallets+`}`, "Idempotency-Key", key)
			if a.status != 400 || a.code() != string(apierr.InvalidRequest) || a.details() != tt.field {
				t.Fatalf("%d %s", a.status, a.raw)
			}
			// Each earlier case's corrected request was charged.
			left := func(charged int) map[string]string {
				return map[string]string{"X-RateLimit-Remaining-Minute": strconv.Itoa(60 - charged),
					"X-RateLimit-Remaining-Hour": strconv.Itoa(1200 - charged), "X-RateLimit-Remaining-Week": strconv.Itoa(10000 - charged)}
			}
			checkRemaining(t, a, left(i))
			// Its claim withdrawn leaves nothing, not even the marker of
			// the delete: refused free, keyed requests without end grew
			// the store for 24 hours past what the budget bounds.
			if n := records(t, h); n != uint64(i) {
				t.Fatalf("the idempotency bucket holds %d records after %d answers kept and a refusal", n, i)
			}
			// The corrected body under the same key runs as a first request.
			a = call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
				`{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`, "Idempotency-Key", key)
			if a.status != 200 || a.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("corrected body: %d %s", a.status, a.raw)
			}
			checkRemaining(t, a, left(i+1))
		})
	}
}

// venueStates gives every ingress of h a view of a venues bucket, and
// returns the bucket's store, to pause venues in, and the view.
func venueStates(t *testing.T, h *harness) (*venues.Store, *venues.View) {
	t.Helper()
	kv, err := venues.Declare(context.Background(), h.bus.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	view := venues.NewView(kv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = view.Run(ctx) }()
	for _, s := range h.servers {
		s.deps.Venues = view
	}
	return venues.NewStore(kv), view
}

// TestDeployOnPausedVenue: a launch names its venues in configs[].dex, so
// ingress refuses one on a paused venue before charging anything, from
// the venues bucket every process watches.
func TestDeployOnPausedVenue(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	ctx := context.Background()
	store, view := venueStates(t, h)
	since := time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC)
	if _, _, _, err := store.Record(ctx, venues.State{Venue: venues.LaunchLab, Chain: wire.ChainSolana, State: venues.Paused,
		Reason: "launchlab program upgraded", CheckedAt: since}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "ingress sees the pause", func() bool { return view.Open(wire.ChainSolana, venues.LaunchLab) != nil })
	w := startWorker(t, h, wire.ChainSolana, func(orderID string, _ []byte) *wire.Reply {
		return &wire.Reply{OrderID: orderID, Signatures: []string{}, Deploy: &wire.DeployResult{MintAddresses: []string{"mint-" + orderID}}}
	})
	tests := []struct {
		name    string
		dexes   []string
		status  int
		details any
	}{
		{"bonk is launchlab", []string{"bonk"}, 503, venues.LaunchLab},
		{"one paused venue of several", []string{"pump_fun", "bonk"}, 503, venues.LaunchLab},
		{"pump_fun trades", []string{"pump_fun"}, 200, nil},
		{"bags trades", []string{"bags"}, 200, nil},
	}
	week := 10000
	// Counted as every order refused before it was taken is.
	refused := metrics.Orders.WithLabelValues(wire.ChainSolana, string(wire.KindDeploy), string(apierr.VenuePaused))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := counterOf(t, refused)
			body := deployBody(t, func(m map[string]any) {
				var cfgs []any
				for _, d := range tt.dexes {
					cfgs = append(cfgs, map[string]any{"dex": d})
				}
				m["configs"] = cfgs
			})
			a := call(t, "POST", h.eu.URL+"/api/v1/deploy", capsKey, "application/json", string(body), "Idempotency-Key", "d-"+tt.name)
			if a.status != tt.status {
				t.Fatalf("%d %s", a.status, a.raw)
			}
			if tt.status == 503 {
				if a.code() != string(apierr.VenuePaused) || a.details() != tt.details ||
					!strings.Contains(a.raw, "launchlab is paused since 2026-05-09T07:00:00Z: launchlab program upgraded") || a.header.Get("X-Order-Id") != "" {
					t.Fatalf("%s", a.raw)
				}
				checkRemaining(t, a, map[string]string{"X-RateLimit-Remaining-Week": itoa(week)})
				if n := counterOf(t, refused) - before; n != 1 {
					t.Fatalf("tradeapi_orders_total{side=deploy,outcome=VENUE_PAUSED} +%v, want +1", n)
				}
				return
			}
			week--
			checkRemaining(t, a, map[string]string{"X-RateLimit-Remaining-Week": itoa(week)})
			if w.deliveries(a.header.Get("X-Order-Id")) != 1 {
				t.Fatal("the launch did not reach the worker")
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// refundFails is a rate budget whose refunds fail, as one under more
// contention than it can take would.
type refundFails struct{}

func (refundFails) Charge(_ context.Context, _ string, _ wire.Family, lim budget.Limits) (budget.State, error) {
	return budget.StateFor(lim, time.Now()), nil
}

func (refundFails) Peek(_ string, _ wire.Family, lim budget.Limits) budget.State {
	return budget.StateFor(lim, time.Now())
}

func (refundFails) Refund(context.Context, string, wire.Family, budget.Limits, budget.State) (budget.State, error) {
	return budget.State{}, errors.New("budget: refund: too many concurrent writes")
}

// TestSignerRefusalKeptNowhereWhenRefundFails: a 400 of the signer whose
// refund fails leaves its unit charged, but its answer is still not kept
// for the Idempotency-Key, since a 400 is not a charged answer: the same
// key with a corrected body runs as a first request.
func TestSignerRefusalKeptNowhereWhenRefundFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(refundFails{}))
	startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		var j wire.SwapJob
		_ = json.Unmarshal(job, &j)
		if j.Legs[0].Amount == "0.000000001" {
			b := apierr.Invalid(j.Legs[0].Field(), "1 lamports buy no tokens after fees").Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
		`{"address":"`+solMint+`","side":"Buy","amount":"0.000000001"}`, "Idempotency-Key", "refund-fails")
	if a.status != 400 || a.code() != string(apierr.InvalidRequest) {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	a = call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
		`{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`, "Idempotency-Key", "refund-fails")
	if a.status != 200 || a.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("corrected body: %d %s, want a first request's 200", a.status, a.raw)
	}
}

// TestChainPausedRefusedFree: an order naming an EVM chain whose every
// venue is paused is refused VENUE_PAUSED before the charge, so that a bot
// retrying it holds no unit of its budget (refused after the charge, the
// units in flight turned its other orders away with 429); with one venue
// of the chain trading, the order goes on to its worker. So is a Solana
// order while Solana's four venues are paused (a cluster without their
// programs), where it went on to be charged and fail in the signer.
func TestChainPausedRefusedFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	ctx := context.Background()
	store, view := venueStates(t, h)
	since := time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC)
	for _, v := range []string{venues.UniswapV2, venues.UniswapV3} {
		if _, _, _, err := store.Record(ctx, venues.State{Venue: v, Chain: wire.ChainBsc, State: venues.Paused,
			Reason: "the RPC serves chain id 56, not the configured chain_id 57", CheckedAt: since}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, _, err := store.Record(ctx, venues.State{Venue: venues.UniswapV2, Chain: wire.ChainBase, State: venues.Paused,
		Reason: "router changed", CheckedAt: since}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "ingress sees the pauses", func() bool { return view.Open(wire.ChainBase, venues.UniswapV2) != nil })
	a := call(t, "POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json",
		`{"address":"0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7","chain":"bsc","side":"Buy","amount":"0.1"}`)
	if a.status != 503 || a.code() != string(apierr.VenuePaused) || a.header.Get("X-RateLimit-Remaining-Minute") != "" && a.header.Get("X-RateLimit-Remaining-Minute") != "60" {
		t.Fatalf("bsc, every venue paused: %d %s %v", a.status, a.raw, a.header)
	}
	if a.header.Get("X-Order-Id") != "" {
		t.Fatalf("an order was made for a refusal before the charge: %v", a.header)
	}
	// base's V3 still trades: the worker decides (none runs here: 504).
	if a := call(t, "POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json",
		`{"address":"0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7","chain":"base","side":"Buy","amount":"0.1"}`); a.code() == string(apierr.VenuePaused) {
		t.Fatalf("base with one venue trading refused at ingress: %d %s", a.status, a.raw)
	}

	solana := func() answer {
		return call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
	}
	for _, v := range venues.SolanaVenues[:len(venues.SolanaVenues)-1] {
		if _, _, _, err := store.Record(ctx, venues.State{Venue: v, Chain: wire.ChainSolana, State: venues.Paused,
			Reason: v + " program not deployed", CheckedAt: since}); err != nil {
			t.Fatal(err)
		}
	}
	last := venues.SolanaVenues[len(venues.SolanaVenues)-1]
	poll.Until(t, 5*time.Second, "ingress sees the pauses", func() bool { return view.Open(wire.ChainSolana, venues.SolanaVenues[0]) != nil })
	if a := solana(); a.code() == string(apierr.VenuePaused) {
		t.Fatalf("solana with %s trading refused at ingress: %d %s", last, a.status, a.raw)
	}
	if _, _, _, err := store.Record(ctx, venues.State{Venue: last, Chain: wire.ChainSolana, State: venues.Paused,
		Reason: last + " program not deployed", CheckedAt: since}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "ingress sees the last pause", func() bool { return view.Open(wire.ChainSolana, last) != nil })
	a = solana()
	if a.status != 503 || a.code() != string(apierr.VenuePaused) || a.header.Get("X-Order-Id") != "" {
		t.Fatalf("solana, every venue paused: %d %s %v", a.status, a.raw, a.header)
	}
	// A launch names its venues: its refusal names its own, not the
	// chain's first paused one.
	for dex, venue := range map[string]string{"bags": venues.DBC, "bonk": venues.LaunchLab} {
		body := deployBody(t, func(m map[string]any) { m["configs"] = []any{map[string]any{"dex": dex}} })
		a := call(t, "POST", h.eu.URL+"/api/v1/deploy", capsKey, "application/json", string(body))
		if a.status != 503 || a.code() != string(apierr.VenuePaused) || a.details() != venue {
			t.Fatalf("a %s launch, every venue paused: %d details %v: %s", dex, a.status, a.details(), a.raw)
		}
	}
}

// TestRetriesOfAPausedTokenHoldNoUnit: once a worker refused a token's
// order VENUE_PAUSED, ingress refuses the token's next orders itself,
// before the charge and without an order, while the venue stays paused,
// so that a bot retrying it holds no unit its other orders need; other
// tokens still reach the worker, and so does the token once the venue
// trades again.
func TestRetriesOfAPausedTokenHoldNoUnit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	ctx := context.Background()
	store, view := venueStates(t, h)
	pause := func(state string) {
		t.Helper()
		if _, _, _, err := store.Record(ctx, venues.State{Venue: venues.PumpFun, Chain: wire.ChainSolana, State: state,
			Reason: "pump_fun program upgraded", CheckedAt: time.Now().UTC()}); err != nil {
			t.Fatal(err)
		}
		poll.Until(t, 5*time.Second, "ingress sees the venue "+state, func() bool {
			return (view.Open(wire.ChainSolana, venues.PumpFun) != nil) == (state == venues.Paused)
		})
	}
	pause(venues.Paused)
	var resumed atomic.Bool
	w := startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		var j wire.SwapJob
		_ = json.Unmarshal(job, &j)
		if j.Token == pausedMint && !resumed.Load() {
			b := apierr.Newf(apierr.VenuePaused, venues.PumpFun, "pump_fun is paused: pump_fun program upgraded").Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
	buy := func(url, mint string) answer {
		return call(t, "POST", url+"/api/v1/swap", solKey, "application/json", `{"address":"`+mint+`","side":"Buy","amount":"0.1"}`)
	}
	first := buy(h.eu.URL, pausedMint)
	if first.status != 503 || first.code() != string(apierr.VenuePaused) || w.deliveries(first.header.Get("X-Order-Id")) != 1 {
		t.Fatalf("first order: %d %s", first.status, first.raw)
	}
	for i := range 5 {
		a := buy(h.eu.URL, pausedMint)
		if a.status != 503 || a.code() != string(apierr.VenuePaused) || a.details() != venues.PumpFun || a.header.Get("X-Order-Id") != "" {
			t.Fatalf("retry %d: %d %s %v", i, a.status, a.raw, a.header)
		}
		checkRemaining(t, a, fullBudget)
	}
	w.mu.Lock()
	jobs := len(w.jobs)
	w.mu.Unlock()
	if jobs != 1 {
		t.Fatalf("the retries reached the worker: %d orders", jobs)
	}
	// Orders whose venue the signer may find elsewhere (another quote
	// asset, the other side), and other accounts' orders, are the
	// signer's to judge.
	for _, o := range []struct{ name, key, body string }{
		{"another quote asset", solKey, `{"address":"` + pausedMint + `","side":"Buy","amount":"0.1","quote_asset":"USDC"}`},
		{"a sell", solKey, `{"address":"` + pausedMint + `","side":"Sell","amount":"100"}`},
		{"another account", capsKey, `{"address":"` + pausedMint + `","side":"Buy","amount":"0.1"}`},
	} {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", o.key, "application/json", o.body)
		if a.status != 503 || a.code() != string(apierr.VenuePaused) || w.deliveries(a.header.Get("X-Order-Id")) != 1 {
			t.Fatalf("%s: %d %s %v, want the worker's refusal", o.name, a.status, a.raw, a.header)
		}
	}
	if a := buy(h.eu.URL, solMint); a.status != 200 {
		t.Fatalf("another token: %d %s", a.status, a.raw)
	}
	// A buy that skip_if_bought skips needs no venue: 200, skipped.
	if _, err := h.trades.Put(ctx, wire.TradeKey("acct1", wire.FamilySol, "", pausedMint), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
		`{"address":"`+pausedMint+`","side":"Buy","amount":"0.1","skip_if_bought":true}`); a.status != 200 || !strings.Contains(a.raw, `"skipped":true`) {
		t.Fatalf("a skipped buy of the paused token: %d %s", a.status, a.raw)
	}
	resumed.Store(true)
	pause(venues.Active)
	if a := buy(h.eu.URL, pausedMint); a.status != 200 {
		t.Fatalf("after the venue resumed: %d %s", a.status, a.raw)
	}
}

// TestUnitHeldByARefusalWaitedFor: a request that finds the budget spent
// while this process's order in flight holds a unit the signer's refusal
// will give back waits for it, and trades, instead of 429 with the
// window's whole reset as its Retry-After; a spent budget with nothing in
// flight is still 429 at once.
func TestUnitHeldByARefusalWaitedFor(t *testing.T) {
	// One unit a week: no window resets while the test runs. The wait for
	// a held unit, and the requests, get seconds: a loaded machine may
	// spend more than the 500 ms a request waits in service between the
	// refusal's job reaching its signer and its answer.
	old := heldWait
	heldWait = 10 * time.Second
	t.Cleanup(func() { heldWait = old })
	h := newHarness(t, budget.Limits{Minute: 100, Hour: 100, Week: 1}, allChains{}, withTimeout(15*time.Second))
	const tiny = "0.000000001"
	w := startWorker(t, h, wire.ChainSolana, func(orderID string, job []byte) *wire.Reply {
		var j wire.SwapJob
		_ = json.Unmarshal(job, &j)
		if j.Legs[0].Amount == tiny {
			time.Sleep(200 * time.Millisecond) // the signer's read of the chain
			b := apierr.Invalid("amount", "1 lamports buy no tokens after fees").Body()
			return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
		}
		return signed(orderID, job)
	})
	buy := func(amount string) answer {
		return call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"`+amount+`"}`)
	}
	refused := make(chan answer, 1)
	go func() {
		a, err := do("POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"`+tiny+`"}`)
		if err != nil {
			t.Error(err)
		}
		refused <- a
	}()
	poll.Until(t, 10*time.Second, "the refused order at its signer", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.jobs) == 1
	})
	if a := buy("0.1"); a.status != 200 {
		t.Fatalf("a buy while the refused order held the only unit: %d %s %v", a.status, a.raw, a.header)
	}
	if a := <-refused; a.status != 400 {
		t.Fatalf("the refused order: %d %s", a.status, a.raw)
	}
	start := time.Now()
	if a := buy("0.1"); a.status != 429 || time.Since(start) > heldWait/2 {
		t.Fatalf("a spent budget with nothing in flight: %d after %v", a.status, time.Since(start))
	}
}

// TestRefusedSkipBuyLeavesNoClaim: a skip_if_bought buy the signer refuses
// for free gives back its token's claim with its unit, leaving nothing in
// the bucket: kept a day, one per token named, the claims of buys refused
// for free grew the store past what the account's budget bounds. The next
// buy of the token is not held up by it either.
func TestRefusedSkipBuyLeavesNoClaim(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	refusingDust(t, h)
	for range 3 {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
			`{"address":"`+solMint+`","side":"Buy","amount":"0.000000001","skip_if_bought":true}`)
		if a.status != 400 {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		if n := records(t, h); n != 0 {
			t.Fatalf("a skip_if_bought buy refused for free left %d records", n)
		}
	}
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json",
		`{"address":"`+solMint+`","side":"Buy","amount":"0.1","skip_if_bought":true}`)
	if a.status != 200 || strings.Contains(a.raw, `"skipped":true`) {
		t.Fatalf("the buy after the refused ones: %d %s, want it traded", a.status, a.raw)
	}
	if n := records(t, h); n != 1 {
		t.Fatalf("the buy that traded holds %d records, want its claim", n)
	}
}
