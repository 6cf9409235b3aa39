package ingress

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestStopAnswersOrdersInFlight: a stop does not wait a whole request
// timeout for an order whose answer does not come (a node that hangs): after
// the drain timeout it is answered 504 with its order_id, and the server has
// stopped soon after, so that the process stops within its 10 s.
func TestStopAnswersOrdersInFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	const drain = 300 * time.Millisecond
	var logs logtest.Buffer
	addr, stop, ran := runEU(t, h, drain, &logs)
	// No worker answers here: the order waits for its reply.
	answered := swapInBackground(t, addr)
	// Stopped once the order is in flight: its job is in the stream, and
	// its request waits for the reply. A stop before the server took the
	// request would only refuse the connection.
	poll.Until(t, 10*time.Second, "the order's job queued", func() bool {
		st, err := h.bus.JS.Stream(context.Background(), bus.StreamOrders)
		if err != nil {
			return false
		}
		_, err = st.GetLastMsgForSubject(context.Background(), bus.OrdersSubject(wire.ChainSolana))
		return err == nil
	})
	stopped := time.Now()
	stop()
	select {
	case a := <-answered:
		if a.status != 504 || a.code() != "UPSTREAM_TIMEOUT" || a.details() == "" {
			t.Fatalf("answer %d %s, want 504 UPSTREAM_TIMEOUT naming the order", a.status, a.raw)
		}
		// The log tells a wait the stop cut short from a timeout.
		if l := logs.String(); !strings.Contains(l, "order not answered before the stop") || strings.Contains(l, "order timed out") {
			t.Fatalf("log %s: want the order's wait said cut short by the stop", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the order in flight was not answered within 5 s of the stop")
	}
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(stopped); took < drain || took > drain+2*time.Second {
			t.Fatalf("stopped in %v, want about the drain timeout %v", took, drain)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// runEU serves h's first instance's dependencies on an EU listener of its
// own (Run, as up runs it), with the request timeout at 10 s and the
// stop's drain at drain (0: the default), and returns its address once it
// listens, the stop, and Run's outcome.
func runEU(t *testing.T, h *harness, drain time.Duration, logs *logtest.Buffer) (string, context.CancelFunc, chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv, err := New(Config{Listeners: []Listener{{Addr: addr, Family: wire.FamilySol, Region: "eu"}},
		RequestTimeout: 10 * time.Second, DrainTimeout: drain, DefaultSlippagePct: 10}, h.servers[0].deps, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server does not listen")
		}
	}
	return addr, stop, ran
}

// swapInBackground sends a one-wallet buy to the listener at addr and
// hands its answer over when it comes.
func swapInBackground(t *testing.T, addr string) chan answer {
	answered := make(chan answer, 1)
	go func() {
		a, err := do("POST", "http://"+addr+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
		if err != nil {
			t.Error(err)
		}
		answered <- a
	}()
	return answered
}

// hangingBudget is a rate budget whose store does not answer: a charge
// waits until its caller gives up, as the real budget's does.
type hangingBudget struct{ gateBudget }

func (g *hangingBudget) Charge(ctx context.Context, _ string, _ wire.Family, _ budget.Limits) (budget.State, error) {
	g.entered <- struct{}{}
	<-ctx.Done()
	return budget.State{}, fmt.Errorf("budget: charge: %w: %w", budget.ErrGivenBack, ctx.Err())
}

// TestStopAnswersChargesThatHang: a charge waiting on a store that hangs
// (a NATS server frozen, not gone) is answered within the stop's drain, 503
// with nothing placed, rather than held to the request's timeout (or, as
// when it waited for the write, past it), which kept the process from
// stopping in its 10 s and its client from any answer.
func TestStopAnswersChargesThatHang(t *testing.T) {
	t.Parallel()
	hang := &hangingBudget{gateBudget: *newGateBudget(t, true)}
	h := newHarness(t, budget.DefaultLimits, allChains{}, withBudget(hang))
	const drain = 300 * time.Millisecond
	addr, stop, ran := runEU(t, h, drain, &logtest.Buffer{})
	answered := swapInBackground(t, addr)
	hang.waitEntered(t)
	stop()
	select {
	case a := <-answered:
		if a.status != 503 || a.code() != "OVERLOADED" {
			t.Fatalf("answer %d %s, want 503 OVERLOADED", a.status, a.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the charge that hangs was not answered within 5 s of the stop")
	}
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// TestRefusalLinesPaced: the orders refused before they were taken (free,
// so a bot may retry them at once) log one line a second per chain, saying
// how many were refused since the line before.
func TestRefusalLinesPaced(t *testing.T) {
	t.Parallel()
	var r refusalLog
	t0 := time.Unix(1_700_000_000, 0)
	if n, ok := r.note("base", t0); !ok || n != 1 {
		t.Fatalf("first refusal: %d %v, want logged", n, ok)
	}
	for i := range 50 {
		if _, ok := r.note("base", t0.Add(time.Duration(i)*time.Millisecond)); ok {
			t.Fatalf("refusal %d within the second logged", i)
		}
	}
	if n, ok := r.note("eth", t0); !ok || n != 1 {
		t.Fatalf("another chain's first refusal: %d %v, want logged", n, ok)
	}
	if n, ok := r.note("base", t0.Add(time.Second)); !ok || n != 51 {
		t.Fatalf("a second on: %d %v, want logged with the 51 since the last line", n, ok)
	}
}

// TestChainRefusalsCounted: an order refused because no worker serves its
// chain counts in tradeapi_orders_total under its code, so that a chain
// whose workers are all gone shows.
func TestChainRefusalsCounted(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, noChains{})
	refused := metrics.Orders.WithLabelValues("solana", "Buy", "CHAIN_UNAVAILABLE")
	before := counted(refused)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
	if a.status != 503 || a.code() != "CHAIN_UNAVAILABLE" {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	if got := counted(refused) - before; got != 1 {
		t.Fatalf("counted %v refusals, want 1", got)
	}
}

// counted reads a counter's value.
func counted(c interface{ Write(*dto.Metric) error }) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}

// TestUnconfiguredChainSaysSo: an order of a chain the configuration
// leaves out is refused CHAIN_UNAVAILABLE, free, saying it is not
// configured (it said "try again later", as for a passing outage), and is
// counted as not_configured, not as the chain's outage, whose alerts page
// (a client could page the operator by naming a chain the deployment
// leaves out); one of a configured chain no worker serves says to try
// again.
func TestUnconfiguredChainSaysSo(t *testing.T) {
	for _, tc := range []struct {
		served []string
		chain  string
		want   string
	}{
		{[]string{wire.ChainSolana, wire.ChainBase}, "arc", "arc is not configured on this service"},
		{[]string{wire.ChainSolana, wire.ChainBase}, "base", "no worker is serving base right now"},
		{[]string{wire.ChainSolana, wire.ChainBase}, "", "no worker is serving evm right now"},
		{[]string{wire.ChainSolana}, "", "evm is not configured on this service"},
	} {
		h := newHarness(t, budget.DefaultLimits, noChains{}, withChains(tc.served...))
		chain := ""
		if tc.chain != "" {
			chain = `"chain":"` + tc.chain + `",`
		}
		named := cmp.Or(tc.chain, wire.ChainAnyEVM)
		unconfigured := strings.Contains(tc.want, "not configured")
		outage, apart := metrics.Orders.WithLabelValues(named, "Buy", "CHAIN_UNAVAILABLE"), metrics.Orders.WithLabelValues(named, "Buy", outcomeNotConfigured)
		beforeOutage, beforeApart := counted(outage), counted(apart)
		a := call(t, "POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json",
			`{"address":"0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7",`+chain+`"side":"Buy","amount":"0.1"}`)
		if a.status != 503 || a.code() != "CHAIN_UNAVAILABLE" || !strings.Contains(a.raw, tc.want) {
			t.Errorf("%v serving, chain %q: %d %s, want 503 saying %q", tc.served, tc.chain, a.status, a.raw, tc.want)
		}
		if o, n := counted(outage)-beforeOutage, counted(apart)-beforeApart; unconfigured && (o != 0 || n != 1) || !unconfigured && (o != 1 || n != 0) {
			t.Errorf("%v serving, chain %q: counted CHAIN_UNAVAILABLE +%v, not_configured +%v", tc.served, tc.chain, o, n)
		}
	}
}

// TestWorkerUnavailableCountedApart: an order a worker took and answered
// 503 CHAIN_UNAVAILABLE because it cannot serve it (here a launch-less
// configuration's kind of refusal) is answered as the worker said, free,
// and counted worker_unavailable: CHAIN_UNAVAILABLE counts the chain's
// outage (no worker heard), whose alert pages "start the chain's workers"
// while they are up.
func TestWorkerUnavailableCountedApart(t *testing.T) {
	h := newHarness(t, budget.DefaultLimits, allChains{})
	startWorker(t, h, wire.ChainSolana, func(orderID string, _ []byte) *wire.Reply {
		b := apierr.Newf(apierr.ChainUnavailable, wire.ChainSolana, "this worker cannot serve the order").Body()
		return &wire.Reply{OrderID: orderID, Signatures: []string{}, Error: &b}
	})
	outage := metrics.Orders.WithLabelValues(wire.ChainSolana, "Buy", string(apierr.ChainUnavailable))
	apart := metrics.Orders.WithLabelValues(wire.ChainSolana, "Buy", outcomeWorkerUnavailable)
	beforeOutage, beforeApart := counted(outage), counted(apart)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
	if a.status != 503 || a.code() != "CHAIN_UNAVAILABLE" || !strings.Contains(a.raw, "cannot serve the order") {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	if o, n := counted(outage)-beforeOutage, counted(apart)-beforeApart; o != 0 || n != 1 {
		t.Fatalf("counted CHAIN_UNAVAILABLE +%v, worker_unavailable +%v; want +0 and +1", o, n)
	}
}

// seenChains has no worker now, but has seen one of every chain.
type seenChains struct{ noChains }

func (seenChains) Seen(string) bool { return true }

// TestSeenChainNotCalledUnconfigured: a chain whose workers this ingress
// has seen is not called unconfigured when they are away, whatever its own
// file says (an ingress needs no RPC and may be given none).
func TestSeenChainNotCalledUnconfigured(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, seenChains{}, withChains(wire.ChainSolana))
	a := call(t, "POST", h.evm.URL+"/api/v1/swap", evmKey, "application/json",
		`{"address":"0x9b1f7f4d0a1c2e3b4c5d6e7f8091a2b3c4d5e6f7","chain":"arc","side":"Buy","amount":"0.1"}`)
	if a.status != 503 || !strings.Contains(a.raw, "no worker is serving arc right now") {
		t.Fatalf("%d %s", a.status, a.raw)
	}
}
