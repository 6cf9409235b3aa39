package broadcaster

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// mute passes every call to the chain, but after a sendTransaction it
// keeps the answer until the caller gives up: the node took the
// transaction, the sender cannot know.
type mute struct {
	next  http.Handler
	sends atomic.Int64
}

func (m *mute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, ok := sendOf(r); !ok {
		m.next.ServeHTTP(w, r)
		return
	}
	m.sends.Add(1)
	takeSilently(m.next, r)
}

// sendOf reads a request's body, leaving it to be read again, and reports
// whether it is a sendTransaction.
func sendOf(r *http.Request) ([]byte, bool) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, bytes.Contains(body, []byte(`"sendTransaction"`))
}

// takeSilently passes a send to the chain and keeps its answer until the
// caller gives up.
func takeSilently(chain http.Handler, r *http.Request) {
	chain.ServeHTTP(httptest.NewRecorder(), r)
	<-r.Context().Done()
}

// TestUncertainSendLands sends a Solana transaction through an RPC that
// takes it and never answers: every try times out, so the order is
// answered UPSTREAM_TIMEOUT, but the transaction landed. The order must not
// be called failed (its exit would re-arm and sell again): it stays pending
// while the tracker follows the transaction, and ends confirmed, with its
// broadcast event (the chain took it after all) and its confirmed one, no
// failed one.
func TestUncertainSendLands(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	m := &mute{next: chain.Handler()}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)

	stx := signedTransfer(t, chain, payer, 10_000_000)

	rpc := endpoint.New("solana rpc", srv.URL+"/solana?api-key=KEY456").SolanaRPC(300 * time.Millisecond)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: NewSolana(rpc, true)})

	const id = "eu-uncertain"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	wantMsg := "the chain RPC did not answer: send transaction: solana rpc: timeout; the transactions may still land, look the order up"
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || r.Error.Message != wantMsg || len(r.Signatures) != 0 {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT %q", r.Error, wantMsg)
	}
	if n := m.sends.Load(); n != 2 {
		t.Fatalf("%d sends, want one per attempt (2)", n)
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	// Landed in a slot of the chain's, which the order shows.
	want := wire.SigState{Signature: stx.Signature, Wallet: stx.Wallet, State: wire.StateConfirmed, Slot: o.Signatures[0].Slot}
	if o.State != wire.StateConfirmed || o.Signatures[0] != want || want.Slot == 0 || o.Error != nil || o.BroadcastAt == nil {
		t.Fatalf("order %s %+v error %+v broadcast at %v, want confirmed %+v", o.State, o.Signatures, o.Error, o.BroadcastAt, want)
	}
	poll.Until(t, 5*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Confirmed)
	})
	poll.Until(t, 5*time.Second, "both events", func() bool { return len(p.eventTypes(t, id)) >= 2 })
	if got := p.eventTypes(t, id); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestOutcome decides the answer, the signatures and the states of a batch
// from what came of each send, for every mix of outcomes.
func TestOutcome(t *testing.T) {
	t.Parallel()
	ok := func(sig string) sendResult { return sendResult{signature: sig, kind: sent} }
	bad := func(sig string, kind sendKind, reason string) sendResult {
		return sendResult{signature: sig, kind: kind, err: errors.New(reason)}
	}
	cases := []struct {
		name     string
		results  []sendResult
		code     apierr.Code // "" for no error
		message  string
		sigs     []string
		states   []string
		mayLand  bool
		finalNow bool
	}{
		{"all sent", []sendResult{ok("a"), ok("b")}, "", "", []string{"a", "b"},
			[]string{wire.StateBroadcast, wire.StateBroadcast}, true, false},
		{"one refused", []sendResult{ok("a"), bad("b", refused, "refused: no")}, "", "", []string{"a"},
			[]string{wire.StateBroadcast, wire.StateFailed}, true, false},
		// A leg that may have been sent is answered with the taken ones:
		// a bot that did not see it would buy that wallet again.
		{"one may have been sent", []sendResult{ok("a"), bad("b", unknown, "solana rpc: timeout"), bad("c", refused, "refused: no")}, "", "",
			[]string{"a", "b"}, []string{wire.StateBroadcast, wire.StatePending, wire.StateFailed}, true, false},
		{"all refused", []sendResult{bad("a", refused, "refused: no"), bad("b", refused, "refused: nope")},
			apierr.BroadcastFailed, "the chain refused every transaction: refused: no", []string{},
			[]string{wire.StateFailed, wire.StateFailed}, false, true},
		{"unsent", []sendResult{bad("a", unsent, "solana rpc: connection refused")},
			apierr.UpstreamTimeout, "the chain RPC did not answer: solana rpc: connection refused", []string{},
			[]string{wire.StateFailed}, false, true},
		{"may have reached the chain", []sendResult{bad("a", unknown, "solana rpc: timeout"), bad("b", refused, "refused: no")},
			apierr.UpstreamTimeout, "the chain RPC did not answer: solana rpc: timeout; the transactions may still land, look the order up",
			[]string{}, []string{wire.StatePending, wire.StateFailed}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &wire.TxBatch{Chain: wire.ChainSolana, Txs: make([]wire.SignedTx, len(tc.results))}
			br := &Broadcaster{}
			o := br.classify(b, tc.results, nil)
			o.conclude("eu-1")
			code, message := apierr.Code(""), ""
			if o.answer != nil {
				code, message = o.answer.Code, o.answer.Message
			}
			var states []string
			for _, s := range o.states(b) {
				states = append(states, s.State)
			}
			if code != tc.code || message != tc.message || !slices.Equal(o.signatures(), tc.sigs) ||
				!slices.Equal(states, tc.states) || o.mayLand() != tc.mayLand || o.failedNow() != tc.finalNow {
				t.Fatalf("got %s %q sigs %v states %v may land %v final %v", code, message, o.signatures(), states, o.mayLand(), o.failedNow())
			}
		})
	}
}

// TestKindOf sorts real send errors: a refusal, a connection that was
// never made, and a timeout after the request went out.
func TestKindOf(t *testing.T) {
	t.Parallel()
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer hung.Close()
	call := func(url string) error {
		var out any
		return endpoint.New("solana rpc", url).JSONRPC(200*time.Millisecond).CallForInto(context.Background(), &out, "getHealth", nil)
	}
	for _, tc := range []struct {
		name string
		err  error
		want sendKind
	}{
		{"no error", nil, sent},
		{"refusal", fmt.Errorf("send: %w", &Refused{Reason: "no"}), refused},
		{"connection refused", fmt.Errorf("send: %w", call(refusingRPC(t))), unsent},
		{"timeout", fmt.Errorf("send: %w", call(hung.URL)), unknown},
		{"anything else", errors.New("nonce too high"), unknown},
	} {
		if got := kindOf(tc.err); got != tc.want {
			t.Errorf("%s: kindOf(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}

// TestTradeHistorySettlesWithTheBuy: the trade history says which tokens an
// account bought (skip_if_bought). A buy is recorded under each of its
// token's names before its answer, and once it lands under its own id, for
// good: a later buy of the token writes nothing more. A buy that fails on
// chain is taken off again, its key deleted when no other buy of the token
// is in flight, and left when one is, or when the token was bought for
// good before.
func TestTradeHistorySettlesWithTheBuy(t *testing.T) {
	chain, payer := paidChain(t)
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(srv.Close)
	transfer := func(lamports uint64) wire.SignedTx { return signedTransfer(t, chain, payer, lamports) }
	// Unchecked before sending: a transfer of more than the payer holds is
	// taken, and fails on chain, as a buy past its slippage does.
	rpc := endpoint.New("solana rpc", srv.URL).SolanaRPC(2 * time.Second)
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: NewSolana(rpc, true)})
	ctx := context.Background()
	trades := p.bus.Buckets.Trades
	key := func(token string) string { return wire.TradeKey("acct-1", wire.FamilySol, "", token) }
	value := func(token string) string {
		t.Helper()
		e, err := trades.Get(ctx, key(token))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(e.Value())
	}
	buy := func(id, token string, tx wire.SignedTx, state string) {
		t.Helper()
		b := batchOf(id, wire.ChainSolana, wire.FamilySol, tx)
		b.Token = token
		if r := p.send(t, b); r.Error != nil {
			t.Fatalf("%s: %+v", id, r.Error)
		}
		if v := value(token); v == "" {
			t.Fatalf("%s: no trade history of %s after the answer", id, token)
		}
		p.orderIn(t, id, 5*time.Second, state)
	}
	settled := func(token, want string) {
		t.Helper()
		poll.Until(t, 5*time.Second, "trade history of "+token+" is "+want, func() bool { return value(token) == want })
	}

	// Bought by its mint, a pump.fun coin is recorded under its pool and
	// bonding curve too, each for good once it lands.
	named := batchOf("eu-t1", wire.ChainSolana, wire.FamilySol, transfer(1_000_000))
	named.Token, named.Mint, named.Pool, named.Curve = "coin", "coin", "coin-pool", "coin-curve"
	if r := p.send(t, named); r.Error != nil {
		t.Fatalf("%+v", r.Error)
	}
	for _, token := range []string{"coin", "coin-pool", "coin-curve"} {
		if v := value(token); v != `{"pending":["eu-t1"]}` && v != "eu-t1" {
			t.Fatalf("trade of %s after the answer: %q", token, v)
		}
	}
	p.orderIn(t, "eu-t1", 5*time.Second, wire.StateConfirmed)
	for _, token := range []string{"coin", "coin-pool", "coin-curve"} {
		settled(token, "eu-t1")
	}
	st, err := p.bus.JS.Stream(ctx, "KV_"+bus.BucketTrades)
	if err != nil {
		t.Fatal(err)
	}
	writes := func() uint64 {
		t.Helper()
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.LastSeq
	}
	before := writes()
	buy("eu-t2", "coin", transfer(2_000_000), wire.StateConfirmed)
	if n := writes() - before; n != 0 {
		t.Fatalf("a buy of a token bought for good wrote its trade history %d times", n)
	}

	// A buy that fails on chain alone: it no longer counts.
	buy("eu-f1", "lone", transfer(5_000_000_000), wire.StateFailed)
	settled("lone", "")
	// Beside another buy of the token in flight, the key stays with it.
	if _, err := trades.Put(ctx, key("pair"), []byte(`{"pending":["eu-other"]}`)); err != nil {
		t.Fatal(err)
	}
	buy("eu-f2", "pair", transfer(5_000_000_000), wire.StateFailed)
	settled("pair", `{"pending":["eu-other"]}`)
	// Bought for good before (by a buy that landed, a launch, or an
	// earlier version's write): a later buy's failure takes nothing back.
	if _, err := trades.Put(ctx, key("old"), []byte("eu-old")); err != nil {
		t.Fatal(err)
	}
	buy("eu-f3", "old", transfer(5_000_000_000), wire.StateFailed)
	time.Sleep(200 * time.Millisecond) // deliberate: ten polls, for a settle that must change nothing
	settled("old", "eu-old")
}

// TestTradeListsUnderConcurrentBuys: buys of one token joining and leaving
// its list at once each find their place, and the last to leave deletes
// the key; a buy that landed meanwhile keeps it for good.
func TestTradeListsUnderConcurrentBuys(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	br := New(Config{}, p.bus.Conn, p.bus.JS, p.bus.Buckets, nil, p.log)
	ctx := context.Background()
	const n = 24
	key := wire.TradeKey("acct-1", wire.FamilySol, "", "tok")
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("eu-%02d", i)
	}
	each := func(fn func(id string) error) {
		t.Helper()
		errs := make(chan error, n)
		for _, id := range ids {
			go func() { errs <- fn(id) }()
		}
		for range ids {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
	each(func(id string) error { return br.joinTrade(ctx, key, id) })
	e, err := p.bus.Buckets.Trades.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if pending, final := readTrade(e.Value()); final || len(pending) != n {
		t.Fatalf("%d buys joined at once, the list holds %v (final %v)", n, pending, final)
	}
	each(func(id string) error { return br.joinTrade(ctx, key, id) }) // delivered again: no change
	each(func(id string) error { _, err := br.leaveTrade(ctx, key, id); return err })
	if _, err := p.bus.Buckets.Trades.Get(ctx, key); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("every buy left, the key: %v", err)
	}
	each(func(id string) error { return br.joinTrade(ctx, key, id) })
	if err := br.landTrade(ctx, key, ids[3]); err != nil {
		t.Fatal(err)
	}
	each(func(id string) error { _, err := br.leaveTrade(ctx, key, id); return err })
	if e, err := p.bus.Buckets.Trades.Get(ctx, key); err != nil || string(e.Value()) != ids[3] {
		t.Fatalf("a buy landed among them, the key after the others left: %v", err)
	}
	// Past maxPendingBuys a list is written bought for good.
	many := wire.TradeKey("acct-1", wire.FamilySol, "", "many")
	for i := range maxPendingBuys + 1 {
		if err := br.joinTrade(ctx, many, fmt.Sprintf("eu-m%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if e, err := p.bus.Buckets.Trades.Get(ctx, many); err != nil || string(e.Value()) != fmt.Sprintf("eu-m%d", maxPendingBuys) {
		t.Fatalf("a list past %d buys: %v", maxPendingBuys, err)
	}
}

// TestRecentKeys: a key is seen for its time to live only, and a full set
// starts again empty rather than growing.
func TestRecentKeys(t *testing.T) {
	t.Parallel()
	r := recentKeys{ttl: time.Minute, max: 2}
	t0 := time.Now()
	if r.seen("a", t0) {
		t.Fatal("seen before it was added")
	}
	r.add("a", t0)
	if !r.seen("a", t0.Add(59*time.Second)) || r.seen("a", t0.Add(time.Minute)) {
		t.Fatal("a key is seen for exactly its time to live")
	}
	r.add("b", t0)
	r.add("c", t0)
	if r.seen("a", t0) || r.seen("b", t0) || !r.seen("c", t0) || len(r.at) != 1 {
		t.Fatalf("a full set did not start again: %v", r.at)
	}
}

// signedTransfer is payer's signed transfer of lamports to a new wallet on
// chain, as a worker hands it on.
func signedTransfer(t *testing.T, chain *devnet.Chain, payer *sol.Wallet, lamports uint64) wire.SignedTx {
	t.Helper()
	hash, lastValid := chain.LatestBlockhash()
	tx, err := sol.NewTransaction([]sol.Instruction{
		system.NewTransferInstruction(lamports, payer.PublicKey(), sol.NewWallet().PublicKey()).Build(),
	}, hash, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &payer.PrivateKey }); err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return wire.SignedTx{Wallet: payer.PublicKey().String(), Signature: tx.Signatures[0].String(), Raw: raw,
		LastValidBlockHeight: lastValid}
}

// refusing passes every call to the chain until refuse is set; from then
// on it refuses every sendTransaction as a node refuses a transaction whose
// blockhash it no longer has, landed or not.
type refusing struct {
	next   http.Handler
	refuse atomic.Bool
}

func (f *refusing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, send := sendOf(r)
	if !f.refuse.Load() || !send {
		f.next.ServeHTTP(w, r)
		return
	}
	refuseSend(w, body)
}

// refuseSend answers a sendTransaction with the refusal of a node that no
// longer has the transaction's blockhash.
func refuseSend(w http.ResponseWriter, body []byte) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(body, &req)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32002,"message":"Transaction simulation failed: Blockhash not found"}}`, req.ID)
}

// TestRefusedResendOfASentOrder: a batch handed out again after its
// broadcaster died (before the ack) re-sends a transaction the chain took
// the first time; the node now refuses it (its blockhash is gone). The
// first send may have landed, and here did: the order is not failed by the
// refusal, stays broadcast, and the tracker settles it confirmed, with no
// failed event. A final state is never changed afterwards.
func TestRefusedResendOfASentOrder(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	f := &refusing{next: chain.Handler()}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	chains := func() map[string]Chain {
		return map[string]Chain{wire.ChainSolana: NewSolana(endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(time.Second), true)}
	}
	p := newPipeline(t)
	// A tracker that does not poll before the redelivery.
	stop := p.start(t, Config{MaxAttempts: 1, Poll: time.Hour}, chains())
	const id = "eu-resent"
	if r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)); r.Error != nil {
		t.Fatalf("reply %+v", r.Error)
	}
	// The order is stored after the answer.
	p.orderIn(t, id, 5*time.Second, wire.StateBroadcast)
	f.refuse.Store(true)
	if r := p.redeliver(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout ||
		!strings.Contains(r.Error.Message, "may still land") {
		t.Fatalf("redelivered batch's reply %+v, want UPSTREAM_TIMEOUT saying it may still land", r.Error)
	}
	// The redelivery's store follows its answer too: the order must not
	// turn failed meanwhile, nor after.
	for range 25 {
		if o := p.order(t, id); o.State != wire.StateBroadcast || o.Signatures[0].State != wire.StateBroadcast || o.Error != nil {
			t.Fatalf("order %s, signature %+v, error %+v after the refused re-send, want broadcast", o.State, o.Signatures[0], o.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, chains())
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed || o.Error != nil {
		t.Fatalf("order %s, signature %+v, error %+v, want confirmed", o.State, o.Signatures[0], o.Error)
	}
	poll.Until(t, 5*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Confirmed)
	})
	if got := p.eventTypes(t, id); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestVerdictKeepsFinalStates: the tracker's verdict on a transaction the
// record holds as final changes nothing.
func TestVerdictKeepsFinalStates(t *testing.T) {
	t.Parallel()
	o := &wire.Order{State: wire.StateFailed, Signatures: []wire.SigState{{Signature: "a", State: wire.StateFailed, Error: "refused"}}}
	applyVerdicts(o, []verdict{{e: &tracked{Signature: "a"}, state: wire.StateExpired, err: "blockhash expired"}})
	if o.State != wire.StateFailed || o.Signatures[0].State != wire.StateFailed || o.Signatures[0].Error != "refused" {
		t.Fatalf("order %s %+v, want it failed as it was", o.State, o.Signatures)
	}
}

// hangThenRefuse takes the first sendTransaction to the chain and never
// answers it (the sender cannot know it landed), then refuses every re-send
// as a node that no longer has its blockhash does.
type hangThenRefuse struct {
	next  http.Handler
	sends atomic.Int64
}

func (h *hangThenRefuse) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, send := sendOf(r)
	switch {
	case !send:
		h.next.ServeHTTP(w, r)
	case h.sends.Add(1) == 1:
		takeSilently(h.next, r)
	default:
		refuseSend(w, body)
	}
}

// TestRefusedRetryOfAMaybeSentOrder: the first send times out (it reached
// the chain and landed), the retry is refused: the order is answered
// UPSTREAM_TIMEOUT (it may land), never failed, and ends confirmed.
func TestRefusedRetryOfAMaybeSentOrder(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	h := &hangThenRefuse{next: chain.Handler()}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	rpc := endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(300 * time.Millisecond)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: NewSolana(rpc, true)})
	const id = "eu-maybe"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || !strings.Contains(r.Error.Message, "may still land") {
		t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT saying it may still land", r.Error)
	}
	if n := h.sends.Load(); n != 2 {
		t.Fatalf("%d sends, want the first and its retry", n)
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed {
		t.Fatalf("order %s, signature %+v, want confirmed", o.State, o.Signatures[0])
	}
	// The chain took it, though no send was known to have reached it:
	// its broadcast event comes before its confirmed one, as for any order
	// that landed.
	poll.Until(t, 5*time.Second, "the order's events", func() bool {
		return len(p.eventTypes(t, id)) >= 2
	})
	if got := p.eventTypes(t, id); !slices.Equal(got, []events.Type{events.Broadcast, events.Confirmed}) {
		t.Fatalf("events %v, want broadcast then confirmed", got)
	}
}

// TestRedeliveryAfterACrashReopens: a batch handed out again after its
// broadcaster died may have been sent by it before it wrote anything, so
// every refused or unsent re-send counts as maybe sent; one this process
// handed back itself to retry knows its last try (its maybe-sent
// transactions are in the record) and keeps a refusal a refusal.
func TestRedeliveryAfterACrashReopens(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	br := &Broadcaster{orders: orders.NewStore(p.bus.Buckets.Orders), retried: recentKeys{ttl: time.Minute, max: 10}, log: p.log}
	outcomeOf := func() *outcome {
		return &outcome{results: []sendResult{{signature: "a", kind: refused}, {signature: "b", kind: unsent}, {signature: "c", kind: sent}},
			refused: 1, unsent: 1, sent: 1}
	}
	d := &delivery{batch: &wire.TxBatch{OrderID: "eu-crashed"}, attempt: 2, log: p.log}
	o := outcomeOf()
	br.reopenSent(context.Background(), d, o)
	if o.unknown != 2 || o.refused != 0 || o.unsent != 0 || o.sent != 1 || !o.resent {
		t.Fatalf("after a crash: %+v, want the refused and the unsent maybe sent", o)
	}
	br.retried.add(retryKey("eu-retried", 1), time.Now())
	d = &delivery{batch: &wire.TxBatch{OrderID: "eu-retried"}, attempt: 2, log: p.log}
	o = outcomeOf()
	br.reopenSent(context.Background(), d, o)
	if o.unknown != 0 || o.refused != 1 || o.unsent != 1 || o.resent {
		t.Fatalf("after this process's own retry, with nothing in the record: %+v, want it as it was", o)
	}
	// A delivery in between (another process's, or one that panicked)
	// may have sent what this process's retry noted unsent.
	d = &delivery{batch: &wire.TxBatch{OrderID: "eu-retried"}, attempt: 3, log: p.log}
	o = outcomeOf()
	br.reopenSent(context.Background(), d, o)
	if o.unknown != 2 || o.refused != 0 || o.unsent != 0 || !o.resent {
		t.Fatalf("two deliveries after this process's retry: %+v, want the refused and the unsent maybe sent", o)
	}
}

// TestFirstDeliveryOfAnOldBatchAsksTheChain: a NATS server that died with
// the broadcaster can hand a batch out as delivery 1 again after it was
// sent, landed and answered, but before its order was stored. Its re-send
// is refused (its blockhash is gone), and the record says nothing: the
// chain, asked, holds the transaction, so it counts as sent, not failed.
// A batch as fresh as a first delivery's asks nothing.
func TestFirstDeliveryOfAnOldBatchAsksTheChain(t *testing.T) {
	t.Parallel()
	rpcURL, stx := landedTransfer(t)
	sol := NewSolana(endpoint.New("solana rpc", rpcURL).SolanaRPC(time.Second), true)
	p := newPipeline(t)
	br := &Broadcaster{orders: orders.NewStore(p.bus.Buckets.Orders), retried: recentKeys{ttl: time.Minute, max: 10}, log: p.log}
	refusedResend := func() *outcome {
		return &outcome{results: []sendResult{{signature: stx.Signature, kind: refused, err: &Refused{Reason: "Blockhash not found"}}}, refused: 1}
	}
	d := &delivery{batch: &wire.TxBatch{OrderID: "eu-old"}, attempt: 1, stored: time.Now().Add(-3 * time.Second), chain: sol, log: p.log}
	o := refusedResend()
	br.reopenSent(context.Background(), d, o)
	if o.sent != 1 || o.refused != 0 || o.results[0].kind != sent {
		t.Fatalf("an old batch's refused re-send of a landed transaction: %+v, want it sent", o)
	}
	if o.conclude(d.batch.OrderID); o.answer != nil {
		t.Fatalf("answer %+v, want the order broadcast", o.answer)
	}
	d.stored = time.Now()
	o = refusedResend()
	br.reopenSent(context.Background(), d, o)
	if o.refused != 1 || o.sent != 0 {
		t.Fatalf("a fresh batch's refusal: %+v, want it as it was", o)
	}
}

// TestFirstDeliveryOfAnOldPrivateBatchAsksTheChain: the same for an
// anti_mev transaction, whose re-send the relay refuses (its blockhash is
// gone) and so records its bundle dropped: the chain, not that record,
// says it landed.
func TestFirstDeliveryOfAnOldPrivateBatchAsksTheChain(t *testing.T) {
	t.Parallel()
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID any `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"error": map[string]any{"code": -32602, "message": "bundle contains an expired blockhash"}})
	}))
	t.Cleanup(relay.Close)
	rpcURL, stx := landedTransfer(t)
	s := NewSolana(endpoint.New("solana rpc", rpcURL).SolanaRPC(time.Second), true).
		WithBundleRelay(NewBundleRelay(endpoint.New("solana relay", relay.URL), time.Second))
	priv := stx
	priv.Private = true
	err := s.Send(context.Background(), priv)
	if kindOf(err) != refused {
		t.Fatalf("the relay's answer to the re-send: %v, want a refusal", err)
	}
	p := newPipeline(t)
	br := &Broadcaster{orders: orders.NewStore(p.bus.Buckets.Orders), retried: recentKeys{ttl: time.Minute, max: 10}, log: p.log}
	o := &outcome{results: []sendResult{{signature: stx.Signature, kind: refused, err: err}}, refused: 1}
	d := &delivery{batch: &wire.TxBatch{OrderID: "eu-old-private", Chain: wire.ChainSolana, Txs: []wire.SignedTx{priv}},
		attempt: 1, stored: time.Now().Add(-3 * time.Second), chain: s, log: p.log}
	br.reopenSent(context.Background(), d, o)
	if o.sent != 1 || o.refused != 0 {
		t.Fatalf("an old batch's refused private re-send of a landed transaction: %+v, want it sent", o)
	}
}

// paidChain starts a local Solana chain, closed with the test, and funds a
// payer on it.
func paidChain(t *testing.T) (*devnet.Chain, *sol.Wallet) {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	t.Cleanup(func() { _ = chain.Close() })
	payer := sol.NewWallet()
	chain.Airdrop(payer.PublicKey(), 1_000_000_000)
	return chain, payer
}

// served serves h (a local chain's handler, or one in front of it) over
// HTTP until the test ends and returns a Solana chain sending through it.
func served(t *testing.T, h http.Handler, skipPreflight bool) *Solana {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return NewSolana(endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(time.Second), skipPreflight)
}

// landedTransfer starts a local chain and lands a transfer on it, sent as
// the broadcaster sends; it returns the chain's RPC URL and the transfer.
func landedTransfer(t *testing.T) (string, wire.SignedTx) {
	t.Helper()
	chain, payer := paidChain(t)
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(srv.Close)
	stx := signedTransfer(t, chain, payer, 10_000_000)
	rpcURL := srv.URL + "/solana"
	s := NewSolana(endpoint.New("solana rpc", rpcURL).SolanaRPC(time.Second), true)
	if err := s.Send(context.Background(), stx); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "the transfer confirmed", func() bool {
		st, err := s.Statuses(context.Background(), []string{stx.Signature})
		return err == nil && st[0].State == wire.StateConfirmed
	})
	return rpcURL, stx
}

// TestRefusedOrderNeverSentAgain: a transaction the chain refused (its
// wallet could not pay the fee) is answered BROADCAST_FAILED, which says
// nothing was taken, and stored failed before that answer; a delivery of
// the batch after that (a broadcaster that died before the ack) sends it
// no more, even once the wallet could pay: it gives the recorded answer,
// and the transaction never lands.
func TestRefusedOrderNeverSentAgain(t *testing.T) {
	t.Parallel()
	chain, _ := paidChain(t)
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(srv.Close)
	broke := sol.NewWallet()
	stx := signedTransfer(t, chain, broke, 10_000_000)
	p := newPipeline(t)
	chains := map[string]Chain{wire.ChainSolana: NewSolana(endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(time.Second), false)}
	stop := p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, chains)
	const id = "eu-refused"
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx))
	if r.Error == nil || r.Error.Code != apierr.BroadcastFailed {
		t.Fatalf("reply %+v, want BROADCAST_FAILED", r.Error)
	}
	// Stored before the answer: read at once, not waited for.
	if o := p.order(t, id); o.State != wire.StateFailed || o.Signatures[0].State != wire.StateFailed {
		t.Fatalf("order %s %+v right after its BROADCAST_FAILED answer, want it stored failed", o.State, o.Signatures)
	}
	chain.Airdrop(broke.PublicKey(), 1_000_000_000)
	// Handed out again as a NATS server that died with the broadcaster
	// does: a delivery of a batch that waited in the stream.
	stop()
	replies := make(chan wire.Reply, 1)
	go func() { replies <- p.redeliver(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)) }()
	time.Sleep(sentBeforeAge + 100*time.Millisecond)
	p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, chains)
	again := <-replies
	if again.Error == nil || again.Error.Code != apierr.BroadcastFailed || again.Error.Message != r.Error.Message {
		t.Fatalf("redelivered batch's reply %+v, want the first %+v", again.Error, r.Error)
	}
	time.Sleep(200 * time.Millisecond)
	st, err := rpc.New(srv.URL+"/solana").GetSignatureStatuses(context.Background(), true, sol.MustSignatureFromBase58(stx.Signature))
	if err != nil {
		t.Fatal(err)
	}
	if st.Value[0] != nil {
		t.Fatalf("the refused transaction landed after its BROADCAST_FAILED answer: %+v", st.Value[0])
	}
	if o := p.order(t, id); o.State != wire.StateFailed {
		t.Fatalf("order %s after the redelivery, want failed", o.State)
	}
}

// TestOrderShowsSkippedWallets: the wallets a signer left out of a batch,
// with why, are in the order's record and its events.
func TestOrderShowsSkippedWallets(t *testing.T) {
	t.Parallel()
	chain, payer := paidChain(t)
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: served(t, chain.Handler(), true)})
	const id = "eu-skipped-wallets"
	b := batchOf(id, wire.ChainSolana, wire.FamilySol, signedTransfer(t, chain, payer, 10_000_000))
	skipped := []wire.WalletSkip{{Wallet: "W2", Reason: "the bonding curve was complete after the order's earlier wallets bought"}}
	b.SkippedWallets = skipped
	if r := p.send(t, b); r.Error != nil {
		t.Fatalf("reply %+v", r.Error)
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed)
	if fmt.Sprint(o.SkippedWallets) != fmt.Sprint(skipped) {
		t.Fatalf("order's skipped wallets %+v, want %+v", o.SkippedWallets, skipped)
	}
}

// throttleOne answers 429 to the first send of one transaction, which so
// surely did not reach the chain.
type throttleOne struct {
	next  http.Handler
	raw   string
	sends atomic.Int64
}

func (f *throttleOne) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, send := sendOf(r)
	if send && strings.Contains(string(body), f.raw) && f.sends.Add(1) == 1 {
		http.Error(w, "slow down", http.StatusTooManyRequests)
		return
	}
	f.next.ServeHTTP(w, r)
}

// TestUnsentLegSentOnTheRetry: a leg the node throttled (429: not sent)
// while its sibling was taken is sent again on the batch's retry and
// answered with it: the note of what may have been sent, written before
// the retry, does not mark it failed.
func TestUnsentLegSentOnTheRetry(t *testing.T) {
	chain, payer := paidChain(t)
	a, b := signedTransfer(t, chain, payer, 10_000_000), signedTransfer(t, chain, payer, 20_000_000)
	f := &throttleOne{next: chain.Handler(), raw: base64.StdEncoding.EncodeToString(b.Raw)}
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 3, Poll: 20 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: served(t, f, true)})
	const id = "eu-unsent-leg"
	// Each transaction is counted sent once: the one the first delivery
	// sent, sent again with the other (the chain answers it taken), is not
	// counted a second time.
	sentTxs := metrics.Transactions.With(wire.ChainSolana, metrics.SenderRPC, metrics.TxSent)
	sentBefore := value(sentTxs)
	r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, a, b))
	if r.Error != nil || len(r.Signatures) != 2 || f.sends.Load() != 2 {
		t.Fatalf("reply %+v %v after %d sends of the throttled leg, want both legs answered", r.Error, r.Signatures, f.sends.Load())
	}
	o := p.orderIn(t, id, 10*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired)
	if o.State != wire.StateConfirmed || o.Signatures[0].State != wire.StateConfirmed || o.Signatures[1].State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want both confirmed", o.State, o.Signatures)
	}
	if n := value(sentTxs) - sentBefore; n != 2 {
		t.Fatalf("transactions counted sent +%v, want +2", n)
	}
}

// createFails fails the orders bucket's first creates, as a store that is
// briefly away.
type createFails struct {
	jetstream.KeyValue
	fails atomic.Int64
}

func (f *createFails) Create(ctx context.Context, k string, v []byte, o ...jetstream.KVCreateOpt) (uint64, error) {
	if f.fails.Add(-1) >= 0 {
		return 0, errors.New("store away")
	}
	return f.KeyValue.Create(ctx, k, v, o...)
}

// TestUnstoredRefusalTellsNothing: a refusal whose record could not be
// stored is neither answered nor told in an event: the next delivery
// decides again, and here, the wallet funded meanwhile, lands it. The
// bot and the exits engine never hear of a failure.
func TestUnstoredRefusalTellsNothing(t *testing.T) {
	t.Parallel()
	chain, _ := paidChain(t)
	broke := sol.NewWallet()
	stx := signedTransfer(t, chain, broke, 10_000_000)
	p := newPipeline(t)
	kv := &createFails{KeyValue: p.bus.Buckets.Orders}
	kv.fails.Store(1)
	buckets := *p.bus.Buckets
	buckets.Orders = kv
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	br := New(Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, p.bus.Conn, p.bus.JS, &buckets,
		map[string]Chain{wire.ChainSolana: served(t, chain.Handler(), false)}, p.log)
	done := make(chan error, 1)
	go func() { done <- br.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	const id = "eu-refused-unstored"
	go func() {
		time.Sleep(300 * time.Millisecond) // the refusal is in, its redelivery a second away
		chain.Airdrop(broke.PublicKey(), 1_000_000_000)
	}()
	if r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)); r.Error != nil || len(r.Signatures) != 1 {
		t.Fatalf("reply %+v %v, want the transaction sent by the delivery after the unstored refusal", r.Error, r.Signatures)
	}
	poll.Until(t, 10*time.Second, "the confirmed event", func() bool {
		return slices.Contains(p.eventTypes(t, id), events.Confirmed)
	})
	if got := p.eventTypes(t, id); slices.Contains(got, events.Failed) {
		t.Fatalf("events %v: a failed event for an order that was never answered failed, and landed", got)
	}
}

// dropping answers the first sendTransaction as taken without passing it
// on, as a node that dropped the transaction from its queue (a restart, a
// full queue); every later call goes to the chain.
type dropping struct {
	next    http.Handler
	dropped atomic.Bool
}

func (d *dropping) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, send := sendOf(r)
	if !send || !d.dropped.CompareAndSwap(false, true) {
		d.next.ServeHTTP(w, r)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params []json.RawMessage
	}
	_ = json.Unmarshal(body, &req)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"1111111111111111111111111111111111111111111111111111111111111111"}`, req.ID)
}

// TestDroppedTransactionRebroadcast: a public Solana transaction the node
// said it took but dropped is sent again, the same bytes, while its
// blockhash is valid, and lands; the order ends confirmed instead of
// expiring unlanded. The re-sends are counted.
func TestDroppedTransactionRebroadcast(t *testing.T) {
	chain, payer := paidChain(t)
	d := &dropping{next: chain.Handler()}
	stx := signedTransfer(t, chain, payer, 10_000_000)
	p := newPipeline(t)
	before := value(metrics.Rebroadcasts.WithLabelValues(wire.ChainSolana))
	p.start(t, Config{Poll: 20 * time.Millisecond, Rebroadcast: 100 * time.Millisecond},
		map[string]Chain{wire.ChainSolana: served(t, d, true)})
	const id = "eu-rebroadcast"
	if r := p.send(t, batchOf(id, wire.ChainSolana, wire.FamilySol, stx)); r.Error != nil || len(r.Signatures) != 1 {
		t.Fatalf("reply %+v %v", r.Error, r.Signatures)
	}
	if !d.dropped.Load() {
		t.Fatal("the first send was not dropped")
	}
	if o := p.orderIn(t, id, 5*time.Second, wire.StateConfirmed, wire.StateFailed, wire.StateExpired); o.State != wire.StateConfirmed {
		t.Fatalf("order %s %+v, want confirmed", o.State, o.Signatures)
	}
	if n := value(metrics.Rebroadcasts.WithLabelValues(wire.ChainSolana)) - before; n < 1 {
		t.Fatalf("%v re-sends counted", n)
	}
}

// countingChain takes every transaction and shows it confirmed.
type countingChain struct{ sends atomic.Int64 }

func (c *countingChain) Send(context.Context, wire.SignedTx) error { c.sends.Add(1); return nil }
func (c *countingChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	for i := range out {
		out[i] = Status{State: wire.StateConfirmed, Slot: 7}
	}
	return out, nil
}
func (c *countingChain) Height(context.Context) (uint64, error) { return 1, nil }

// TestBatchOnAnotherOrdersSubject: a batch is sent only from its own
// order's subject, the one the worker's create-only publish keeps to one
// message: a batch on another order's subject (no worker's) is dropped
// unsent and unanswered.
func TestBatchOnAnotherOrdersSubject(t *testing.T) {
	misaddressed := metrics.MessagesDropped.WithLabelValues(bus.BroadcasterConsumer, metrics.MessageMisaddressed)
	undecodable := metrics.MessagesDropped.WithLabelValues(bus.BroadcasterConsumer, metrics.MessageUndecodable)
	before, beforeUndecodable := value(misaddressed), value(undecodable)
	c := &countingChain{}
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-own", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7", Raw: []byte{1}})
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(b)
	m := &nats.Msg{Subject: bus.BatchSubject(wire.ChainSolana, "eu-other"), Data: data, Header: nats.Header{}}
	m.Header.Set(bus.HeaderReply, inbox)
	if _, err := p.bus.JS.PublishMsg(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if r, err := sub.NextMsg(time.Second); err == nil {
		t.Fatalf("a batch on another order's subject was answered: %s", r.Data)
	}
	if n := c.sends.Load(); n != 0 {
		t.Fatalf("a batch on another order's subject sent %d transactions", n)
	}
	if r := p.send(t, b); r.Error != nil || c.sends.Load() != 1 {
		t.Fatalf("the batch on its own subject: %+v, %d sends", r.Error, c.sends.Load())
	}
	// Each message dropped unprocessed is counted: this one, and one that
	// is no batch at all.
	if _, err := p.bus.JS.Publish(context.Background(), bus.BatchSubject(wire.ChainSolana, "eu-garbled"), []byte(`{"order_id":`)); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "the garbled batch counted dropped", func() bool { return value(undecodable)-beforeUndecodable == 1 })
	if n := value(misaddressed) - before; n != 1 {
		t.Fatalf("batches on another order's subject counted dropped %v, want 1", n)
	}
}

// landsLate takes every transaction and calls each confirmed once it was
// taken landAfter ago, recording when each was sent.
type landsLate struct {
	landAfter time.Duration
	// lost: the answer to the first send of this signature is lost (the
	// chain took it all the same).
	lost   string
	mu     sync.Mutex
	sentAt map[string]time.Time
}

func (c *landsLate) Send(_ context.Context, tx wire.SignedTx) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.sentAt[tx.Signature]; !ok {
		c.sentAt[tx.Signature] = time.Now()
		if tx.Signature == c.lost {
			return errors.New("send transaction: read: connection reset by peer")
		}
	}
	return nil
}

func (c *landsLate) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		if at, ok := c.sentAt[s]; ok && time.Since(at) >= c.landAfter {
			out[i] = Status{State: wire.StateConfirmed, Slot: 1}
		}
	}
	return out, nil
}

func (c *landsLate) Height(context.Context) (uint64, error) { return 1, nil }

// TestFirstLandsFirst: the transactions of a batch whose first must land
// first (a many-wallet order on a PumpSwap pool that its first transaction
// grows) go out once the chain has the first landed; the others of any
// other batch go out beside the first.
func TestFirstLandsFirst(t *testing.T) {
	t.Parallel()
	const landAfter = 300 * time.Millisecond
	chain := &landsLate{landAfter: landAfter, lost: "grow-lost", sentAt: map[string]time.Time{}}
	p := newPipeline(t)
	p.start(t, Config{Poll: time.Hour}, map[string]Chain{wire.ChainSolana: chain})
	tx := func(s string) wire.SignedTx { return wire.SignedTx{Wallet: "w-" + s, Signature: s, Raw: []byte(s)} }

	// The first's send taken, or its answer lost (it may have reached the
	// chain, and here did): the others wait for it either way.
	for _, first := range []string{"grow", "grow-lost"} {
		ordered := batchOf("eu-first-lands-"+first, wire.ChainSolana, wire.FamilySol, tx(first), tx(first+"-leg-2"), tx(first+"-leg-3"))
		ordered.FirstLandsFirst = true
		if r := p.send(t, ordered); r.Error != nil || len(r.Signatures) != 3 {
			t.Fatalf("reply %+v %v", r.Error, r.Signatures)
		}
		chain.mu.Lock()
		at := chain.sentAt[first]
		for _, s := range []string{first + "-leg-2", first + "-leg-3"} {
			if gap := chain.sentAt[s].Sub(at); gap < landAfter {
				t.Errorf("%s sent %v after the first, before it landed (%v)", s, gap, landAfter)
			}
		}
		chain.mu.Unlock()
	}

	beside := batchOf("eu-beside", wire.ChainSolana, wire.FamilySol, tx("a"), tx("b"))
	if r := p.send(t, beside); r.Error != nil || len(r.Signatures) != 2 {
		t.Fatalf("reply %+v %v", r.Error, r.Signatures)
	}
	chain.mu.Lock()
	defer chain.mu.Unlock()
	if gap := chain.sentAt["b"].Sub(chain.sentAt["a"]).Abs(); gap >= landAfter {
		t.Errorf("an ordinary batch's second transaction waited %v for the first", gap)
	}
}
