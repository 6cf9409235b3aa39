package broadcaster

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// relayName is the name the scenes give their relay endpoint.
const relayName = "solana relay"

// bundleCounts reads tradeapi_bundles_total of the scenes' relay by
// outcome.
func bundleCounts() map[string]float64 {
	out := map[string]float64{}
	for _, o := range []string{wire.BundleLanded, wire.BundleFailed, wire.BundleDropped, wire.BundleInvalid, wire.BundlePendingTimeout} {
		var m dto.Metric
		if err := metrics.Bundles.WithLabelValues(relayName, o).Write(&m); err == nil {
			out[o] = m.GetCounter().GetValue()
		}
	}
	return out
}

// countsSince returns how each outcome's count grew since before.
func countsSince(before map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for o, n := range bundleCounts() {
		if d := n - before[o]; d != 0 {
			out[o] = d
		}
	}
	return out
}

// lossyRelay is the local relay behind a front end that answers
// sendBundle with an id and never passes the bundle on, as a relay that
// takes a bundle and loses it: the relay itself then does not know it.
func lossyRelay(t *testing.T, chain *devnet.Chain) endpoint.Endpoint {
	t.Helper()
	return frontedRelay(t, chain, `"result":"lost-by-the-relay"`, nil)
}

// frontedRelay is the local relay behind a front end that answers every
// sendBundle itself with answer (a JSON-RPC result or error member),
// counting them in sends (when not nil), and passes every other call on.
func frontedRelay(t *testing.T, chain *devnet.Chain, answer string, sends *atomic.Int64) endpoint.Endpoint {
	t.Helper()
	relay := chain.BundleHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) == nil && req.Method == "sendBundle" {
			if sends != nil {
				sends.Add(1)
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, req.ID, answer)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		relay.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return endpoint.New(relayName, srv.URL)
}

// TestAntiMEVBundleVerdicts sends anti_mev transactions as bundles and
// reads the relay's verdict on each, as the order shows it, and the metric
// of outcomes: a bundle that lands (with its slot), one whose transaction
// fails, one the relay refuses (dropped, with the relay's reason), and one
// the relay lost, which it no longer knows once its blockhash expired.
func TestAntiMEVBundleVerdicts(t *testing.T) {
	const refusal = "bundle relay: bundle must write lock at least one tip account and tip it at least 1000 lamports"
	for _, tc := range []struct {
		name string
		// prepare breaks what the case needs broken after signing and
		// returns the chain to send through.
		prepare func(t *testing.T, s *relayScene, tx *wire.SignedTx) *Solana
		sendErr string
		state   string
		// reason is the bundle's reason; with a trailing ": " the relay's
		// error of the transaction follows it.
		reason string
		// id is the bundle's id: "*" for the one the relay computed.
		id     string
		landed bool
	}{
		{"lands", func(t *testing.T, s *relayScene, _ *wire.SignedTx) *Solana {
			return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
		}, "", wire.BundleLanded, "", "*", true},
		{"its transaction fails", func(t *testing.T, s *relayScene, tx *wire.SignedTx) *Solana {
			w := sol.MustPublicKeyFromBase58(tx.Wallet)
			acc, _ := s.chain.GetAccount(w)
			acc.Lamports = 100_000_000
			s.chain.SetAccount(w, acc)
			return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
		}, "", wire.BundleFailed, "the bundle relay did not land the bundle: ", "*", false},
		{"the relay refuses it", func(t *testing.T, s *relayScene, tx *wire.SignedTx) *Solana {
			// A transaction without a tip: as a bundle, the relay refuses it.
			tx.Raw, tx.Signature = s.untipped(t, tx.Wallet)
			return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
		}, "refused: " + refusal, wire.BundleDropped, refusal, "", false},
		{"the relay loses it", func(t *testing.T, s *relayScene, _ *wire.SignedTx) *Solana {
			return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(lossyRelay(t, s.chain), 5*time.Second))
		}, "", wire.BundleInvalid, "the relay does not know the bundle and its blockhash expired", "lost-by-the-relay", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRelayScene(t)
			ctx := context.Background()
			coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Verdict", "VRD")
			if err != nil {
				t.Fatal(err)
			}
			w := s.wallet(1_000_000_000)
			batch, err := s.signer.Sign(ctx, &wire.SwapJob{OrderID: "eu-verdict", AccountID: "acct", Family: wire.FamilySol,
				Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
				AntiMEV: true, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: w, Amount: "0.5"}}})
			if err != nil {
				t.Fatal(err)
			}
			tx := batch.Txs[0]
			chain := tc.prepare(t, s, &tx)
			before := bundleCounts()
			if err := chain.Send(ctx, tx); fmt.Sprint(err) != map[bool]string{true: "<nil>", false: tc.sendErr}[tc.sendErr == ""] {
				t.Fatalf("send: %v, want %q", err, tc.sendErr)
			}
			switch tc.state {
			case wire.BundleInvalid:
				// Past the blockhash's last valid height, as the tracker
				// reads it before each poll.
				for range 152 {
					s.chain.AdvanceSlot()
				}
				if _, err := chain.Height(ctx); err != nil {
					t.Fatal(err)
				}
				if st, err := chain.Statuses(ctx, []string{tx.Signature}); err != nil || st[0].State != "" {
					t.Fatalf("status of a lost bundle's transaction: %+v %v", st, err)
				}
			case wire.BundleLanded, wire.BundleFailed:
				waitFinal(t, chain, []string{tx.Signature})
			}
			b, ok := chain.Bundle(tx.Signature)
			if !ok {
				t.Fatal("no record of the bundle")
			}
			reasonOK := b.Reason == tc.reason
			if strings.HasSuffix(tc.reason, ": ") {
				reasonOK = strings.HasPrefix(b.Reason, tc.reason) && len(b.Reason) > len(tc.reason)
			}
			idOK := b.ID == tc.id || (tc.id == "*" && b.ID != "" && b.ID != "lost-by-the-relay")
			if b.State != tc.state || !reasonOK || !idOK || (b.Slot != 0) != tc.landed || b.Relay != relayName ||
				!slices.Equal(b.Signatures, []string{tx.Signature}) {
				t.Fatalf("bundle %+v, want %s (%q, id %q) from %s of %s", b, tc.state, tc.reason, tc.id, relayName, tx.Signature)
			}
			if tc.landed && b.Slot != slotOf(t, s.client, tx.Signature) {
				t.Fatalf("bundle landed in slot %d, its transaction in %d", b.Slot, slotOf(t, s.client, tx.Signature))
			}
			// The same bytes sent again, and asked about again, are the
			// same bundle: its verdict is counted once.
			_ = chain.Send(ctx, tx)
			if _, err := chain.Statuses(ctx, []string{tx.Signature}); err != nil {
				t.Fatal(err)
			}
			if got, want := countsSince(before), map[string]float64{tc.state: 1}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("bundles counted %v, want %v", got, want)
			}
		})
	}
}

// untipped signs a plain transfer of wallet with no tip, the kind of
// transaction a relay refuses as a bundle.
func (s *relayScene) untipped(t *testing.T, wallet string) ([]byte, string) {
	t.Helper()
	w := sol.MustPublicKeyFromBase58(wallet)
	bh, _ := s.chain.LatestBlockhash()
	tx, err := sol.NewTransaction([]sol.Instruction{system.NewTransferInstruction(1_000_000, w, sol.NewWallet().PublicKey()).Build()},
		bh, sol.TransactionPayer(w))
	if err != nil {
		t.Fatal(err)
	}
	key := s.keys[wallet]
	if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &key }); err != nil {
		t.Fatal(err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return raw, tx.Signatures[0].String()
}

// TestDeployBundlesInTheOrder lands launches through the broadcaster and
// reads the bundles the order shows: every bundle of a launch that lands,
// with its id and slot; the failed bundle of a launch whose buyer was
// drained; the bundle the relay refused of a launch that tips an account
// the relay does not take. Each outcome is counted once.
func TestDeployBundlesInTheOrder(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		drain      bool
		foreignTip bool
		want       []string // bundle states
		reason     string   // the first bundle's reason begins with it
	}{
		{"lands", wire.BundleSniper, false, false, []string{wire.BundleLanded, wire.BundleLanded}, ""},
		{"a buyer drained", wire.BundlePacked, true, false, []string{wire.BundleFailed}, "the bundle relay did not land the bundle: "},
		{"tip the relay refuses", wire.BundlePacked, false, true, []string{wire.BundleDropped},
			"bundle relay: bundle must write lock at least one tip account and tip it at least 1000 lamports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, chain := deployScene(t)
			if tc.foreignTip {
				store, err := metadata.NewLocal(t.TempDir(), "http://127.0.0.1:8899/metadata", slog.New(slog.DiscardHandler))
				if err != nil {
					t.Fatal(err)
				}
				s.signer = solworker.NewSigner(s.client, s.keys, solworker.Config{TipAccounts: []sol.PublicKey{sol.NewWallet().PublicKey()},
					BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil).WithMetadata(store)
			}
			creator := s.wallet(5_000_000_000)
			buyers := []string{s.wallet(2_000_000_000), s.wallet(2_000_000_000)}
			id := "eu-bundles-" + strings.ReplaceAll(tc.name, " ", "-")
			batch, err := s.signer.SignDeploy(context.Background(), deployJob(id, tc.mode, creator, buyers))
			if err != nil {
				t.Fatal(err)
			}
			if tc.drain {
				drain(t, s, buyers[1])
			}
			p := newPipeline(t)
			p.start(t, Config{Poll: 50 * time.Millisecond}, map[string]Chain{wire.ChainSolana: chain})
			before := bundleCounts()
			r := p.send(t, batch)
			if landed := len(tc.want) > 0 && tc.want[0] == wire.BundleLanded; landed != (r.Error == nil) ||
				(!landed && r.Error.Code != apierr.BroadcastFailed) {
				t.Fatalf("reply error %+v", r.Error)
			}
			o := p.order(t, id)
			var states []string
			for _, b := range o.Bundles {
				states = append(states, b.State)
			}
			if !slices.Equal(states, tc.want) {
				t.Fatalf("bundles %+v, want states %v", o.Bundles, tc.want)
			}
			groups := bundles(batch.Txs)
			for i, b := range o.Bundles {
				var sigs []string
				for _, j := range groups[i] {
					sigs = append(sigs, batch.Txs[j].Signature)
				}
				if !slices.Equal(b.Signatures, sigs) || b.Relay != relayName {
					t.Fatalf("bundle %d: %+v, want signatures %v from %s", i, b, sigs, relayName)
				}
				switch b.State {
				case wire.BundleLanded:
					if b.ID == "" || b.Reason != "" || b.Slot != slotOf(t, s.client, sigs[0]) {
						t.Fatalf("landed bundle %d: %+v, its first transaction in slot %d", i, b, slotOf(t, s.client, sigs[0]))
					}
				case wire.BundleFailed:
					if b.ID == "" || b.Slot != 0 || !strings.HasPrefix(b.Reason, tc.reason) || len(b.Reason) == len(tc.reason) {
						t.Fatalf("failed bundle %+v", b)
					}
				case wire.BundleDropped:
					if b.ID != "" || b.Slot != 0 || b.Reason != tc.reason {
						t.Fatalf("dropped bundle %+v, want reason %q", b, tc.reason)
					}
				}
			}
			want := map[string]float64{}
			for _, st := range tc.want {
				want[st]++
			}
			if got := countsSince(before); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("bundles counted %v, want %v", got, want)
			}
		})
	}
}

// TestExpiredBundleVerdict gives bundles that can no longer land their
// final verdict by what the relay last said of them: a relay that still
// held one pending timed it out; one that did not know it calls it
// invalid; a verdict given before stays.
func TestExpiredBundleVerdict(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inflight string
		state    string // before expiry
		want     string
		reason   string
	}{
		{"pending at the relay", "Pending", wire.BundlePending, wire.BundlePendingTimeout, "the relay still had the bundle pending when its blockhash expired"},
		{"never asked", "", wire.BundlePending, wire.BundlePendingTimeout, "the relay still had the bundle pending when its blockhash expired"},
		{"unknown to the relay", "Invalid", wire.BundlePending, wire.BundleInvalid, "the relay does not know the bundle and its blockhash expired"},
		{"landed before", "Landed", wire.BundleLanded, wire.BundleLanded, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSolana(nil, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, "http://127.0.0.1:1"), time.Second))
			sig := sol.Signature{1}.String()
			s.remember(&bundleRecord{Bundle: wire.Bundle{ID: "b", Relay: relayName, State: tc.state, Signatures: []string{sig}},
				at: time.Now(), inflight: tc.inflight, statuses: true})
			before := bundleCounts()
			b, ok := s.ExpireBundle(sig)
			if !ok || b.State != tc.want || b.Reason != tc.reason {
				t.Fatalf("bundle %+v, want %s (%q)", b, tc.want, tc.reason)
			}
			want := map[string]float64{}
			if tc.want != tc.state {
				want[tc.want] = 1
			}
			if got := countsSince(before); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("bundles counted %v, want %v", got, want)
			}
		})
	}
}

func TestMergeBundles(t *testing.T) {
	t.Parallel()
	pending := wire.Bundle{ID: "b1", Relay: relayName, State: wire.BundlePending, Signatures: []string{"s1", "s2"}}
	landed := wire.Bundle{State: wire.BundleLanded, Slot: 9, Signatures: []string{"s1", "s2"}}
	other := wire.Bundle{ID: "b2", State: wire.BundleDropped, Reason: "no", Signatures: []string{"s3"}}
	for _, tc := range []struct {
		name string
		have []wire.Bundle
		more []wire.Bundle
		want []wire.Bundle
	}{
		{"new bundles append in order", nil, []wire.Bundle{pending, other}, []wire.Bundle{pending, other}},
		{"a verdict replaces pending, keeping id and relay", []wire.Bundle{pending, other}, []wire.Bundle{landed},
			[]wire.Bundle{{ID: "b1", Relay: relayName, State: wire.BundleLanded, Slot: 9, Signatures: []string{"s1", "s2"}}, other}},
		{"pending never replaces a verdict", []wire.Bundle{landed}, []wire.Bundle{pending}, []wire.Bundle{landed}},
		{"a bundle without signatures is ignored", []wire.Bundle{other}, []wire.Bundle{{State: wire.BundleLanded}}, []wire.Bundle{other}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeBundles(tc.have, tc.more...); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("merged\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

func TestSettleBundles(t *testing.T) {
	t.Parallel()
	sig := func(s, state, err string) wire.SigState { return wire.SigState{Signature: s, State: state, Error: err} }
	bundle := func(state string, sigs ...string) wire.Bundle {
		return wire.Bundle{ID: "b", State: state, Signatures: sigs}
	}
	for _, tc := range []struct {
		name   string
		sigs   []wire.SigState
		bundle wire.Bundle
		state  string
		reason string
	}{
		{"every transaction confirmed", []wire.SigState{sig("a", wire.StateConfirmed, ""), sig("b", wire.StateConfirmed, "")},
			bundle(wire.BundlePending, "a", "b"), wire.BundleLanded, ""},
		{"one failed", []wire.SigState{sig("a", wire.StateConfirmed, ""), sig("b", wire.StateFailed, "InsufficientFunds")},
			bundle(wire.BundlePending, "a", "b"), wire.BundleFailed, "InsufficientFunds"},
		{"expired", []wire.SigState{sig("a", wire.StateExpired, "blockhash expired")},
			bundle(wire.BundlePending, "a"), wire.BundlePendingTimeout, "no verdict from the relay before the blockhash expired"},
		{"one still broadcast", []wire.SigState{sig("a", wire.StateConfirmed, ""), sig("b", wire.StateBroadcast, "")},
			bundle(wire.BundlePending, "a", "b"), wire.BundlePending, ""},
		{"a transaction the order does not list", []wire.SigState{sig("a", wire.StateConfirmed, "")},
			bundle(wire.BundlePending, "a", "z"), wire.BundlePending, ""},
		{"a verdict stays", []wire.SigState{sig("a", wire.StateFailed, "x")},
			bundle(wire.BundleDropped, "a"), wire.BundleDropped, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &wire.Order{Signatures: tc.sigs, Bundles: []wire.Bundle{tc.bundle}}
			settleBundles(o)
			if b := o.Bundles[0]; b.State != tc.state || b.Reason != tc.reason {
				t.Fatalf("bundle %+v, want %s (%q)", b, tc.state, tc.reason)
			}
		})
	}
}

// TestBundlesOf reads a chain's bundle records for an order's signatures:
// one entry per bundle, none from a chain that sends no bundles.
func TestBundlesOf(t *testing.T) {
	t.Parallel()
	s := NewSolana(nil, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, "http://127.0.0.1:1"), time.Second))
	a, b, c := sol.Signature{1}.String(), sol.Signature{2}.String(), sol.Signature{3}.String()
	s.remember(&bundleRecord{Bundle: wire.Bundle{ID: "b1", Relay: relayName, State: wire.BundleLanded, Slot: 7, Signatures: []string{a, b}}, at: time.Now()})
	got := bundlesOf(s, []string{a, b, c})
	want := []wire.Bundle{{ID: "b1", Relay: relayName, State: wire.BundleLanded, Slot: 7, Signatures: []string{a, b}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("bundles %+v, want %+v", got, want)
	}
	if got := bundlesOf(&EVM{}, []string{a}); got != nil {
		t.Fatalf("bundles of an EVM chain: %+v", got)
	}
}

func TestApplyLandingNotes(t *testing.T) {
	t.Parallel()
	o := &wire.Order{
		Signatures: []wire.SigState{{Signature: "a", State: wire.StateConfirmed}, {Signature: "b", State: wire.StateExpired}},
		Bundles:    []wire.Bundle{{ID: "x", State: wire.BundlePending, Signatures: []string{"b"}}},
	}
	applyLandingNotes(o, []wire.Bundle{{ID: "y", Relay: relayName, State: wire.BundleLanded, Slot: 5, Signatures: []string{"a"}}},
		map[string]uint64{"a": 2_039_280})
	want := &wire.Order{
		Signatures: []wire.SigState{{Signature: "a", State: wire.StateConfirmed, RentReturnedLamports: 2_039_280}, {Signature: "b", State: wire.StateExpired}},
		Bundles: []wire.Bundle{
			{ID: "x", State: wire.BundlePendingTimeout, Reason: "no verdict from the relay before the blockhash expired", Signatures: []string{"b"}},
			{ID: "y", Relay: relayName, State: wire.BundleLanded, Slot: 5, Signatures: []string{"a"}},
		},
	}
	if fmt.Sprint(o) != fmt.Sprint(want) {
		t.Fatalf("order\n %+v\nwant\n %+v", o, want)
	}
}

// failingRelay takes every bundle at once and calls it failed when asked,
// passing nothing on: a relay whose copy did not land (its region's
// leader refused it, or another relay's copy landed first).
func failingRelay(t *testing.T) endpoint.Endpoint {
	return relayAnswering(t, map[string]string{
		"sendBundle":                `"failed-by-this-relay"`,
		"getBundleStatuses":         `{"context":{"slot":1},"value":[null]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"failed-by-this-relay","status":"Failed","landed_slot":null}]}`,
	})
}

// txFailingRelay is failingRelay whose verdict names a transaction of the
// bundle failing.
func txFailingRelay(t *testing.T) endpoint.Endpoint {
	return relayAnswering(t, map[string]string{
		"sendBundle":        `"failed-by-this-relay"`,
		"getBundleStatuses": `{"context":{"slot":1},"value":[null]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"failed-by-this-relay","status":"Failed","landed_slot":null,` +
			`"err":{"InstructionError":[0,{"Custom":1}]}}]}`,
	})
}

// relayAnswering is a relay that answers each method with its result in
// results (null for the others).
func relayAnswering(t *testing.T, results map[string]string) endpoint.Endpoint {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, cmp.Or(results[req.Method], "null"))
	}))
	t.Cleanup(srv.Close)
	return endpoint.New(relayName, srv.URL)
}

// lateRelay is the local relay behind a front that passes sendBundle on
// late, so that another relay's acceptance comes first.
func lateRelay(t *testing.T, chain *devnet.Chain, late time.Duration) endpoint.Endpoint {
	t.Helper()
	relay := chain.BundleHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"sendBundle"`)) {
			time.Sleep(late)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		relay.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return endpoint.New("region late", srv.URL)
}

// TestBundleFailedByOneRelayLandedByAnother: a bundle sent to two relays
// that one fails and the other lands is landed, a launch's and an anti_mev
// transaction's alike; one that every relay fails is failed, with each
// relay's reason. The relay that accepted first was asked alone, and a
// launch whose coin was on chain was answered that nothing of it was, for
// its bot to launch a second coin.
func TestBundleFailedByOneRelayLandedByAnother(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	twoRelays := func(s *relayScene, second endpoint.Endpoint) *Solana {
		return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(failingRelay(t), 5*time.Second)).
			WithSenders(Sender{Name: "region second", Relay: NewBundleRelay(second, 5*time.Second)})
	}
	t.Run("launch", func(t *testing.T) {
		s, _ := deployScene(t)
		chain := twoRelays(s, lateRelay(t, s.chain, 300*time.Millisecond))
		creator := s.wallet(5_000_000_000)
		batch, err := s.signer.SignDeploy(ctx, deployJob("eu-two-relays", wire.BundlePacked, creator, []string{s.wallet(2_000_000_000)}))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := landBundle(ctx, chain, chain, batch.Txs, false, 50*time.Millisecond, log)
		if err != nil || st.State != wire.StateConfirmed {
			t.Fatalf("bundle landed by the second relay: %+v %v", st, err)
		}
		allHold(t, s, batch.Mints[0], creator)
	})
	t.Run("anti_mev", func(t *testing.T) {
		s := newRelayScene(t)
		chain := twoRelays(s, lateRelay(t, s.chain, 300*time.Millisecond))
		tx := sendAntiMEVBuy(t, s, chain, "eu-two-relays")
		// Asked at once, as the tracker may be: the first relay's verdict
		// is in, the second's send not answered yet.
		if st, err := chain.Statuses(ctx, []string{tx.Signature}); err != nil || st[0].State == wire.StateFailed {
			t.Fatalf("status while the second relay may still land it: %+v %v", st, err)
		}
		if st := waitFinal(t, chain, []string{tx.Signature}); st[0].State != wire.StateConfirmed {
			t.Fatalf("status %+v", st[0])
		}
		if b, _ := chain.Bundle(tx.Signature); b.State != wire.BundleLanded {
			t.Fatalf("bundle %+v", b)
		}
	})
	t.Run("every relay fails it", func(t *testing.T) {
		// On a transaction failing: a drop alone would be asked of the
		// chain until the blockhash passed (TestRelayDropTellsItCanLandAgain).
		s, _ := deployScene(t)
		chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(txFailingRelay(t), 5*time.Second)).
			WithSenders(Sender{Name: "region second", Relay: NewBundleRelay(txFailingRelay(t), 5*time.Second)})
		batch, err := s.signer.SignDeploy(ctx, deployJob("eu-two-fail", wire.BundlePacked, s.wallet(5_000_000_000), nil))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := landBundle(ctx, chain, chain, batch.Txs, false, 50*time.Millisecond, log)
		if err != nil || st.State != wire.StateFailed || !strings.HasPrefix(st.Err, relayName+": the bundle relay did not land the bundle: ") ||
			!strings.Contains(st.Err, "; region second: the bundle relay did not land the bundle: ") {
			t.Fatalf("bundle both relays failed: %+v %v", st, err)
		}
	})
}

// lostAnswerRelay passes sendBundle on to the local relay, which lands the
// bundle, and answers 502, as a relay whose answer is lost on the way
// back: it took the bundle, and the sender cannot know.
func lostAnswerRelay(t *testing.T, chain *devnet.Chain) endpoint.Endpoint {
	t.Helper()
	relay := chain.BundleHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"sendBundle"`)) {
			time.Sleep(50 * time.Millisecond) // after the failing relay's acceptance
			relay.ServeHTTP(httptest.NewRecorder(), r)
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		relay.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return endpoint.New("region lost", srv.URL)
}

// TestBundleLandedByARelayWhoseAnswerWasLost: a bundle one relay fails
// while another took it without its answer reaching the sender (it may
// have taken it) is not failed on the first relay's word: it landed, and
// both an anti_mev transaction and a launch say so.
func TestBundleLandedByARelayWhoseAnswerWasLost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	twoRelays := func(s *relayScene) *Solana {
		return NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(failingRelay(t), 5*time.Second)).
			WithSenders(Sender{Name: "region lost", Relay: NewBundleRelay(lostAnswerRelay(t, s.chain), 5*time.Second)})
	}
	t.Run("anti_mev", func(t *testing.T) {
		s := newRelayScene(t)
		chain := twoRelays(s)
		tx := sendAntiMEVBuy(t, s, chain, "eu-lost-answer")
		if st := waitFinal(t, chain, []string{tx.Signature}); st[0].State != wire.StateConfirmed {
			t.Fatalf("status %+v", st[0])
		}
	})
	t.Run("launch", func(t *testing.T) {
		s, _ := deployScene(t)
		chain := twoRelays(s)
		creator := s.wallet(5_000_000_000)
		batch, err := s.signer.SignDeploy(ctx, deployJob("eu-lost-answer", wire.BundlePacked, creator, nil))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := landBundle(ctx, chain, chain, batch.Txs, false, 50*time.Millisecond, slog.New(slog.DiscardHandler))
		if err != nil || st.State != wire.StateConfirmed {
			t.Fatalf("bundle landed by the relay whose answer was lost: %+v %v", st, err)
		}
	})
}

// sendAntiMEVBuy signs an anti_mev buy of a fresh pump.fun coin by a fresh
// wallet as order orderID, sends it through chain and returns it.
func sendAntiMEVBuy(t *testing.T, s *relayScene, chain *Solana, orderID string) wire.SignedTx {
	t.Helper()
	ctx := context.Background()
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Anti MEV", "AMV")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := s.signer.Sign(ctx, &wire.SwapJob{OrderID: orderID, AccountID: "acct", Family: wire.FamilySol,
		Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		AntiMEV: true, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: s.wallet(1_000_000_000), Amount: "0.5"}}})
	if err != nil {
		t.Fatal(err)
	}
	tx := batch.Txs[0]
	if err := chain.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

// TestRelayFailureNamesTheVenueError: an anti_mev transaction's bundle the
// relay calls failed on an instruction of a venue's program names the
// program's own error, as a transaction that landed failed does, so that a
// bot tells a slippage failure from the curve completing.
func TestRelayFailureNamesTheVenueError(t *testing.T) {
	t.Parallel()
	relay := relayAnswering(t, map[string]string{
		"sendBundle":        `"failed-in-dbc"`,
		"getBundleStatuses": `{"context":{"slot":1},"value":[null]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"failed-in-dbc","status":"Failed",` +
			`"err":{"InstructionError":[1,{"Custom":6013}]}}]}`,
	})
	s := NewSolana(nil, false).WithBundleRelay(NewBundleRelay(relay, 5*time.Second))
	ctx := context.Background()
	if _, err := s.sendBundleOf(ctx, []wire.SignedTx{dbcTx(t)}, true); err != nil {
		t.Fatal(err)
	}
	if err := s.askRelay(ctx, s.relays[0], []string{"failed-in-dbc"}); err != nil {
		t.Fatal(err)
	}
	r, ok := s.byID.get("failed-in-dbc")
	if !ok || r.State != wire.BundleFailed || !strings.Contains(r.Reason, "instruction 1 failed: dbc error 6013 PoolIsCompleted") {
		t.Fatalf("bundle %+v: want failed naming dbc's PoolIsCompleted", r)
	}
}

// dbcTx is a signed transaction of a transfer and an instruction of the
// DBC program, by a fresh wallet, that no chain holds.
func dbcTx(t *testing.T) wire.SignedTx {
	t.Helper()
	payer := sol.NewWallet().PrivateKey
	tx, err := sol.NewTransaction([]sol.Instruction{
		system.NewTransferInstruction(1, payer.PublicKey(), payer.PublicKey()).Build(),
		sol.NewInstruction(dbc.ProgramID, sol.AccountMetaSlice{sol.Meta(payer.PublicKey()).WRITE().SIGNER()}, []byte{1}),
	}, sol.Hash{7}, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &payer }); err != nil {
		t.Fatal(err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return wire.SignedTx{Raw: raw, Signature: tx.Signatures[0].String(), Private: true}
}

// TestRelayFailureOfATransactionProcessed: a bundle a relay calls failed
// whose transaction the chain shows processed (in a block not yet
// confirmed: another copy of it landed) is not failed, nor final: the
// chain's word waits for its confirmation.
func TestRelayFailureOfATransactionProcessed(t *testing.T) {
	t.Parallel()
	relay := relayAnswering(t, map[string]string{
		"sendBundle":                `"failed-copy"`,
		"getBundleStatuses":         `{"context":{"slot":1},"value":[null]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"failed-copy","status":"Failed","landed_slot":null}]}`,
	})
	node := relayAnswering(t, map[string]string{
		"getSignatureStatuses": `{"context":{"slot":90},"value":[{"slot":88,"confirmations":0,"err":null,"confirmationStatus":"processed"}]}`,
	})
	s := NewSolana(node.SolanaRPC(5*time.Second), false).WithBundleRelay(NewBundleRelay(relay, 5*time.Second))
	tx := dbcTx(t)
	ctx := context.Background()
	if _, err := s.sendBundleOf(ctx, []wire.SignedTx{tx}, true); err != nil {
		t.Fatal(err)
	}
	st, err := s.Statuses(ctx, []string{tx.Signature})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].State != "" || st[0].Slot != 88 {
		t.Fatalf("status %+v, want not final, seen at slot 88", st[0])
	}
}

// unsureRelay passes sendBundle on to the local relay, which lands the
// bundle, and answers with a JSON-RPC error that is no judgement of the
// bundle (an internal error, a timeout while passing it on).
func unsureRelay(t *testing.T, chain *devnet.Chain, code int, msg string) endpoint.Endpoint {
	return unsureFront(t, chain.BundleHandler(), "sendBundle", code, msg)
}

// unsureFront passes every call on to next, and answers method's, after
// passing it on, with a JSON-RPC error that judges nothing.
func unsureFront(t *testing.T, next http.Handler, method string, code int, msg string) endpoint.Endpoint {
	t.Helper()
	relay := next
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte(`"`+method+`"`)) {
			relay.ServeHTTP(w, r)
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &req)
		relay.ServeHTTP(httptest.NewRecorder(), r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.ID, code, msg)
	}))
	t.Cleanup(srv.Close)
	return endpoint.New(relayName, srv.URL)
}

// TestRelayErrorThatJudgesNothing: a relay's JSON-RPC error that is no
// refusal of the bundle (an internal error, a timeout) after it passed the
// bundle on does not fail the order, nor an RPC's after it passed a
// transaction on: it was failed at once, final, while the bundle or
// transaction landed.
func TestRelayErrorThatJudgesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code    int
		msg     string
		antiMEV bool
	}{{-32603, "Internal error", true}, {-32000, "request timed out", true}, {-32603, "Internal error", false}} {
		t.Run(fmt.Sprintf("%s, anti_mev %v", tc.msg, tc.antiMEV), func(t *testing.T) {
			s := newRelayScene(t)
			chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(unsureRelay(t, s.chain, tc.code, tc.msg), 5*time.Second))
			if !tc.antiMEV {
				// The public send: the RPC passes the transaction on, then
				// answers with an internal error.
				chain = NewSolana(unsureFront(t, s.chain.Handler(), "sendTransaction", tc.code, tc.msg).SolanaRPC(5*time.Second), false)
			}
			coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Unsure", "UNS")
			if err != nil {
				t.Fatal(err)
			}
			batch, err := s.signer.Sign(context.Background(), &wire.SwapJob{OrderID: "eu-unsure-" + strconv.Itoa(-tc.code), AccountID: "acct",
				Family: wire.FamilySol, Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL",
				SlippageBps: 500, AntiMEV: tc.antiMEV, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: s.wallet(1_000_000_000), Amount: "0.5"}}})
			if err != nil {
				t.Fatal(err)
			}
			tx := batch.Txs[0]
			var ref *Refused
			if err := chain.Send(context.Background(), tx); errors.As(err, &ref) || kindOf(err) == refused {
				t.Fatalf("send: %v, taken for the relay's refusal", err)
			}
			if st := waitFinal(t, chain, []string{tx.Signature}); st[0].State != wire.StateConfirmed {
				t.Fatalf("status %+v", st[0])
			}
		})
	}
}

// TestResentBundleFailedByAnotherRelay: an anti_mev transaction lands
// through relay A; its batch is sent again (a retry of the same delivery,
// or a redelivery in the same process) before the tracker settles it. A
// refuses the re-send (its transactions are processed), relay B (another
// provider, whose bundle ids differ) takes it and later fails its copy.
// B's record replaced A's, and B's failure was taken for the
// transaction's verdict without asking the chain, which holds it
// confirmed: the order was stored failed after it traded.
func TestResentBundleFailedByAnotherRelay(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	local := s.chain.BundleHandler()
	var aSends, bSends atomic.Int32
	answerErr := func(w http.ResponseWriter, body []byte, code int, msg string) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.ID, code, msg)
	}
	// A: the local relay, which lands the bundle; the re-send it refuses.
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"sendBundle"`)) && aSends.Add(1) > 1 {
			answerErr(w, body, -32602, "bundle contains an already processed transaction")
			return
		}
		local.ServeHTTP(w, r)
	}))
	t.Cleanup(a.Close)
	// B: refuses the first send (rate limited), takes the second under an
	// id of its own, then calls its copy failed.
	bInner := relayAnswering(t, map[string]string{
		"sendBundle":                `"b-id"`,
		"getBundleStatuses":         `{"context":{"slot":1},"value":[null]}`,
		"getInflightBundleStatuses": `{"context":{"slot":1},"value":[{"bundle_id":"b-id","status":"Failed","landed_slot":null}]}`,
	})
	bFront := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"sendBundle"`)) {
			if bSends.Add(1) == 1 {
				answerErr(w, body, -32097, "rate limit exceeded")
				return
			}
			// After A's refusal of the second send.
			time.Sleep(100 * time.Millisecond)
		}
		req, _ := http.NewRequest(http.MethodPost, bInner.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(bFront.Close)

	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(endpoint.New(relayName, a.URL), 5*time.Second)).
		WithSenders(Sender{Name: "region b", Relay: NewBundleRelay(endpoint.New("region b", bFront.URL), 5*time.Second)})
	tx := sendAntiMEVBuy(t, s, chain, "eu-resent")
	poll.Until(t, 10*time.Second, "the bundle on chain", func() bool {
		st, err := chain.ChainStatuses(context.Background(), []string{tx.Signature})
		return err == nil && st[0].State == wire.StateConfirmed
	})
	// The same bytes sent again, as a retry or redelivery of the batch does,
	// once B refused the first send: B takes them.
	poll.Until(t, 10*time.Second, "B's answer to the first send", func() bool { return bSends.Load() >= 1 })
	if err := chain.Send(context.Background(), tx); err != nil {
		t.Fatalf("re-send: %v", err)
	}
	st, err := chain.Statuses(context.Background(), []string{tx.Signature})
	if err != nil || st[0].State != wire.StateConfirmed {
		t.Fatalf("status %+v %v: the chain holds the transaction confirmed", st, err)
	}
}

// TestRelayDropTellsItCanLandAgain: a relay's in-flight "Failed" with no
// transaction failing (not forwarded, an auction lost) is a drop, whose
// bytes sent again may land: a launch waits for the chain before calling
// it not landed. One naming a failed transaction is no drop.
func TestRelayDropTellsItCanLandAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		status  string
		dropped bool
	}{
		{"no transaction failed", `{"bundle_id":"b","status":"Failed","landed_slot":null}`, true},
		{"a transaction failed", `{"bundle_id":"b","status":"Failed","landed_slot":null,"err":{"InstructionError":[1,{"Custom":6013}]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			relay := relayAnswering(t, map[string]string{
				"sendBundle":                `"b"`,
				"getBundleStatuses":         `{"context":{"slot":1},"value":[null]}`,
				"getInflightBundleStatuses": `{"context":{"slot":1},"value":[` + tc.status + `]}`,
			})
			s := NewSolana(nil, false).WithBundleRelay(NewBundleRelay(relay, 5*time.Second))
			txs := []wire.SignedTx{dbcTx(t)}
			ctx := context.Background()
			id, err := s.SendBundle(ctx, txs)
			if err != nil {
				t.Fatal(err)
			}
			st, err := s.BundleOutcome(ctx, id, txs)
			if err != nil || st.State != wire.StateFailed || st.Dropped != tc.dropped {
				t.Fatalf("outcome %+v %v, want failed, dropped %v", st, err, tc.dropped)
			}
		})
	}
}
