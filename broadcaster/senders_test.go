package broadcaster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// senderCounts reads, per sender, the sends by outcome, the timed sends
// and the landings: "accepted", "refused", "error", "timed", "landed".
func senderCounts(senders ...string) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, name := range senders {
		c := map[string]float64{}
		for _, o := range []string{metrics.SenderSendAccepted, metrics.SenderSendRefused, metrics.SenderSendError} {
			c[o] = value(metrics.SenderSends.WithLabelValues(wire.ChainSolana, name, o))
		}
		var m dto.Metric
		if err := metrics.SenderSendDuration.WithLabelValues(wire.ChainSolana, name).(prometheus.Metric).Write(&m); err == nil {
			c["timed"] = float64(m.GetHistogram().GetSampleCount())
		}
		c["landed"] = value(metrics.SenderLanded.WithLabelValues(wire.ChainSolana, name))
		out[name] = c
	}
	return out
}

func value(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return 0
	}
	return m.GetCounter().GetValue()
}

// grown is what each sender's counts grew by since before, without zeros.
func grown(before map[string]map[string]float64) string {
	var names []string
	for name := range before {
		names = append(names, name)
	}
	now := senderCounts(names...)
	out := map[string]map[string]float64{}
	for name, c := range now {
		for k, v := range c {
			if d := v - before[name][k]; d != 0 {
				if out[name] == nil {
					out[name] = map[string]float64{}
				}
				out[name][k] = d
			}
		}
	}
	return fmt.Sprint(out)
}

// down is the address of a server that no longer listens.
func down(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// sendless is the chain's RPC behind a front that answers every
// sendTransaction 429, as a provider over its rate limit: reads pass.
func sendless(t *testing.T, s *relayScene) string {
	t.Helper()
	rpc := s.chain.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"sendTransaction"`)) {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rpc.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// refusingRelay answers every call with a JSON-RPC error, as a region that
// refuses the bundle (its rate limit; an internal error is no refusal).
func refusingRelay(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32097,"message":"Network congested. Endpoint is globally rate limited."}}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSenders sends the same signed transactions to several landing
// senders: another RPC provider of the chain, one that is down, and bundle
// regions besides the relay. Each counts its acceptances, refusals and
// errors and its send time, and each that took a transaction counts it
// landed once it landed. A transaction the RPC refuses in preflight goes to
// no other sender; one the RPC cannot take is still sent by the others.
func TestSenders(t *testing.T) {
	for _, tc := range []struct {
		name     string
		primary  string // "chain", or "sendless": the RPC takes no transaction
		relays   []string
		antiMEV  bool
		drain    bool // the wallet is drained: the buy fails preflight
		sendErr  string
		landed   bool
		want     string // grown() once settled
		lastSent string // the sender whose answer comes last
	}{
		{name: "public transaction to the RPC and two senders", primary: "chain", landed: true, lastSent: "provider b",
			want: "map[provider b:map[accepted:1 landed:1 timed:1] rpc:map[accepted:1 landed:1 timed:1] sender down:map[error:1 timed:1]]"},
		{name: "refused in preflight goes nowhere else", primary: "chain", drain: true, sendErr: "refused: ",
			want: "map[rpc:map[refused:1 timed:1]]"},
		{name: "the RPC refuses to take it, another sender does", primary: "sendless", landed: true, lastSent: "sender down",
			want: "map[provider b:map[accepted:1 landed:1 timed:1] rpc:map[error:1 timed:1] sender down:map[error:1 timed:1]]"},
		{name: "a bundle to the relay and two regions", primary: "chain", relays: []string{"relay", "refusing", "down"}, antiMEV: true,
			landed: true, lastSent: "region down",
			want: "map[region down:map[error:1 timed:1] region refusing:map[refused:1 timed:1] solana relay:map[accepted:1 landed:1 timed:1]]"},
		{name: "a bundle the relay cannot take, a region takes it", primary: "chain", relays: []string{"down", "relay"}, antiMEV: true,
			landed: true, lastSent: "region relay",
			want: "map[region relay:map[accepted:1 landed:1 timed:1] solana relay:map[error:1 timed:1]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRelayScene(t)
			ctx := context.Background()
			other := httptest.NewServer(s.chain.Handler())
			t.Cleanup(other.Close)
			rpcURL := strings.TrimSuffix(s.relay.URL, "/bundles")
			if tc.primary == "sendless" {
				rpcURL = sendless(t, s)
			}
			chain := NewSolana(endpoint.New("solana rpc", rpcURL).SolanaRPC(time.Second), false)
			names := []string{metrics.SenderRPC}
			if !tc.antiMEV {
				chain.WithSenders(Sender{Name: "provider b", RPC: endpoint.New("provider b", other.URL).SolanaRPC(time.Second)},
					Sender{Name: "sender down", RPC: endpoint.New("sender down", down(t)).SolanaRPC(time.Second)})
				names = append(names, "provider b", "sender down")
			} else {
				urls := map[string]string{"relay": s.relay.URL, "refusing": refusingRelay(t), "down": down(t)}
				chain.WithBundleRelay(NewBundleRelay(endpoint.New(relayName, urls[tc.relays[0]]), time.Second))
				names = []string{relayName}
				for _, r := range tc.relays[1:] {
					name := "region " + r
					chain.WithSenders(Sender{Name: name, Relay: NewBundleRelay(endpoint.New(name, urls[r]), time.Second)})
					names = append(names, name)
				}
			}
			coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Senders", "SND")
			if err != nil {
				t.Fatal(err)
			}
			w := s.wallet(1_000_000_000)
			batch, err := s.signer.Sign(ctx, &wire.SwapJob{OrderID: "eu-senders", AccountID: "acct", Family: wire.FamilySol,
				Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
				AntiMEV: tc.antiMEV, ProcessorTip: "5000", Legs: []wire.Leg{{Wallet: w, Amount: "0.2"}}})
			if err != nil {
				t.Fatal(err)
			}
			if tc.drain {
				drain(t, s, w)
			}
			before := senderCounts(names...)
			tx := batch.Txs[0]
			err = chain.Send(ctx, tx)
			var ref *Refused
			if (tc.sendErr == "") != (err == nil) || (tc.sendErr != "" && !errors.As(err, &ref)) {
				t.Fatalf("send: %v, want %q", err, tc.sendErr)
			}
			if tc.landed {
				if st := waitFinal(t, chain, []string{tx.Signature}); st[0].State != wire.StateConfirmed {
					t.Fatalf("status %+v", st[0])
				}
			}
			// The senders not waited for answer in the background.
			poll.Until(t, 5*time.Second, "every sender counted", func() bool {
				if tc.lastSent == "" {
					return true
				}
				return grown(before) == tc.want
			})
			if got := grown(before); got != tc.want {
				t.Fatalf("senders counted\n %s\nwant\n %s", got, tc.want)
			}
		})
	}
}

// TestRPCAloneCountsItsLandings: with the RPC the only sender, each public
// transaction this broadcaster sent that landed counts once as the RPC's
// landing, however often it is sent, tracked or asked about afterwards.
func TestRPCAloneCountsItsLandings(t *testing.T) {
	chain, payer := paidChain(t)
	s := served(t, chain.Handler(), true)
	before := senderCounts(metrics.SenderRPC)
	p := newPipeline(t)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: s})
	stx := signedTransfer(t, chain, payer, 10_000_000)
	if r := p.send(t, batchOf("eu-lone-rpc", wire.ChainSolana, wire.FamilySol, stx)); r.Error != nil {
		t.Fatalf("reply %+v", r.Error)
	}
	p.orderIn(t, "eu-lone-rpc", 10*time.Second, wire.StateConfirmed)
	// Handed out again: sent again (the chain has it: accepted), tracked
	// again, confirmed again, but landed once.
	if r := p.redeliver(t, batchOf("eu-lone-rpc", wire.ChainSolana, wire.FamilySol, stx)); r.Error != nil {
		t.Fatalf("redelivered reply %+v", r.Error)
	}
	const want = "map[rpc:map[accepted:2 landed:1 timed:2]]"
	// The tracker's polls settle it again.
	if !poll.True(5*time.Second, func() bool { return grown(before) == want }) {
		t.Fatalf("the RPC's counts grew by %s, want %s", grown(before), want)
	}
	for range 3 {
		if st, err := s.Statuses(context.Background(), []string{stx.Signature}); err != nil || st[0].State != wire.StateConfirmed {
			t.Fatalf("status %+v %v", st, err)
		}
	}
	time.Sleep(100 * time.Millisecond) // deliberate: more polls count nothing more
	if got := grown(before); got != want {
		t.Fatalf("the RPC's counts grew by %s, want %s", got, want)
	}
}

// TestFanOutMaybeSentIsNotUnsent: the RPC surely did not take a
// transaction (429), but another sender took it and its answer was lost
// (502): the send is not "unsent", which the order would answer not taken
// and never track, while the transaction lands.
func TestFanOutMaybeSentIsNotUnsent(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	lost := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.chain.Handler().ServeHTTP(httptest.NewRecorder(), r)
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	t.Cleanup(lost.Close)
	chain := NewSolana(endpoint.New("solana rpc", sendless(t, s)).SolanaRPC(time.Second), false).
		WithSenders(Sender{Name: "provider b", RPC: endpoint.New("provider b", lost.URL).SolanaRPC(time.Second)})
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Lost", "LST")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := s.signer.Sign(context.Background(), &wire.SwapJob{OrderID: "eu-lost", AccountID: "acct", Family: wire.FamilySol,
		Chain: wire.ChainSolana, Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		Legs: []wire.Leg{{Wallet: s.wallet(1_000_000_000), Amount: "0.2"}}})
	if err != nil {
		t.Fatal(err)
	}
	err = chain.Send(context.Background(), batch.Txs[0])
	if kindOf(err) != unknown {
		t.Fatalf("send: %v (kind %d), want one that may have reached the chain", err, kindOf(err))
	}
	if st := waitFinal(t, chain, []string{batch.Txs[0].Signature}); st[0].State != wire.StateConfirmed {
		t.Fatalf("status %+v: the lost answer's transaction did not land", st[0])
	}
}

// TestSenderLandingCountedOnce: a transaction sent again while the chain
// had not seen it (rebroadcast), and taken each time, is one landing of
// its sender, before or after it was seen landed.
func TestSenderLandingCountedOnce(t *testing.T) {
	s := NewSolana(endpoint.New("solana rpc", "http://127.0.0.1:1/solana").SolanaRPC(time.Second), true)
	s.senders = append(s.senders, rpcSender{name: "other"})
	rpcLanded := func() float64 {
		return value(metrics.SenderLanded.WithLabelValues(wire.ChainSolana, metrics.SenderRPC))
	}
	before := rpcLanded()
	for range 3 {
		s.took("sig-again", metrics.SenderRPC)
	}
	s.landed("sig-again")
	s.took("sig-again", metrics.SenderRPC)
	s.landed("sig-again")
	if n := rpcLanded() - before; n != 1 {
		t.Fatalf("one landing counted %v times", n)
	}
	// A sender that answers only after the landing is counted then, once.
	otherBefore := value(metrics.SenderLanded.WithLabelValues(wire.ChainSolana, "other"))
	s.took("sig-again", "other")
	s.took("sig-again", "other")
	if n := value(metrics.SenderLanded.WithLabelValues(wire.ChainSolana, "other")) - otherBefore; n != 1 {
		t.Fatalf("a late sender's landing counted %v times", n)
	}
}
