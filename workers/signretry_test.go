package workers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestSignRetriesLoggedOnce: an order whose signing fails on every attempt
// (the chain's RPC down) writes one line at warning or above about it, the
// giving up, with the number of attempts and the last error; its retries
// are at debug level. Every line of it names the order.
func TestSignRetriesLoggedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var logs logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	signer := &randomSigner{err: fmt.Errorf("read the market: %w", &endpoint.Error{Endpoint: "solana rpc", Reason: "timeout"})}
	w := New(Config{Chain: "solana", Beat: 50 * time.Millisecond, MaxAttempts: 3}, e.nc, e.js, e.b, signer, e.view, log)
	inbox, sub := e.run(t, w)
	const id = "eu-sign-down-1"
	e.publishJob(t, id, inbox)
	if r := nextReply(t, sub); r.Error == nil || r.Error.Code != apierr.UpstreamTimeout {
		t.Fatalf("reply %+v", r.Error)
	}
	if n := signer.calls.Load(); n != 3 {
		t.Fatalf("signed %d times, want the 3 attempts", n)
	}
	var loud, retries []string
	for _, l := range strings.Split(logs.String(), "\n") {
		if !strings.Contains(l, "order_id="+id) {
			if strings.Contains(l, "sign failed") {
				t.Errorf("line without the order's id: %s", l)
			}
			continue
		}
		if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
			loud = append(loud, l)
		}
		if strings.Contains(l, "will retry") {
			retries = append(retries, l)
		}
	}
	if len(loud) != 1 || !strings.Contains(loud[0], "giving up") || !strings.Contains(loud[0], "attempts=3") ||
		!strings.Contains(loud[0], "solana rpc") {
		t.Fatalf("lines at warning or above:\n%s\nwant one, giving up after 3 attempts with the last error", strings.Join(loud, "\n"))
	}
	if len(retries) != 2 {
		t.Fatalf("retry lines:\n%s\nwant 2", strings.Join(retries, "\n"))
	}
	for _, l := range retries {
		if !strings.Contains(l, "level=DEBUG") {
			t.Fatalf("retry logged above debug: %s", l)
		}
	}
}

// TestSignInternalErrorSaysSo: an order whose signing keeps failing on
// what the chain answered (an account the signer needs is missing) is
// answered INTERNAL, naming the order, not a timeout of a chain that
// answered.
func TestSignInternalErrorSaysSo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &randomSigner{err: apierr.Wrap(fmt.Errorf("pump.fun global account is missing"), "internal error")}
	w := New(Config{Chain: "solana", Beat: 50 * time.Millisecond, MaxAttempts: 2}, e.nc, e.js, e.b, signer, e.view, slog.New(slog.DiscardHandler))
	inbox, sub := e.run(t, w)
	e.publishJob(t, "eu-sign-internal-1", inbox)
	r := nextReply(t, sub)
	if r.Error == nil || r.Error.Code != apierr.Internal || strings.Contains(r.Error.Message, "did not answer") ||
		strings.Contains(r.Error.Message, "pump.fun") {
		t.Fatalf("reply %+v, want INTERNAL saying nothing was signed, its cause in the log only", r.Error)
	}
}

// TestSignNodeErrorSaysTheNodeAnswered: an order whose signing keeps
// failing on a node's JSON-RPC error (it answered at once, refusing) is
// answered naming the endpoint and the node's code and message, its URL
// left out, not as a chain that did not answer in time; the refusal
// counts as the chain's RPC error. On Solana and on EVM alike.
func TestSignNodeErrorSaysTheNodeAnswered(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Node is behind by 120 slots (%s)"}}`, r.URL.Path)
	}))
	defer srv.Close()
	url := srv.URL + "/rpc-KEY0123456789"
	ctx := context.Background()
	_, solErr := endpoint.New("solana rpc", url).SolanaRPC(time.Second).GetLatestBlockhash(ctx, "")
	evm, err := endpoint.New("base rpc", url).DialEVM(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var n string
	evmErr := evm.CallContext(ctx, &n, "eth_blockNumber")
	for _, c := range []struct {
		chain, endpoint string
		err             error
	}{{"solana", "solana rpc", solErr}, {"base", "base rpc", evmErr}} {
		if c.err == nil {
			t.Fatalf("%s: the node answered no error", c.chain)
		}
		e := newEnv(t)
		signer := &randomSigner{err: fmt.Errorf("read: %w", c.err)}
		w := New(Config{Chain: c.chain, Beat: 50 * time.Millisecond, MaxAttempts: 1}, e.nc, e.js, e.b, signer, e.view, slog.New(slog.DiscardHandler))
		inbox, sub := e.run(t, w)
		sign := metrics.RPCErrors.WithLabelValues(c.chain, "sign")
		before := counted(sign)
		family, wallet := wire.FamilySol, "W"
		if c.chain != "solana" {
			family, wallet = wire.FamilyEVM, "0x00000000000000000000000000000000000000AA"
		}
		e.publishSwap(t, wire.SwapJob{OrderID: "eu-sign-node-error-" + c.chain, AccountID: "a", Family: family, Chain: c.chain, Token: "T",
			Side: wire.Buy, Legs: []wire.Leg{{Wallet: wallet, Amount: "1"}}, CreatedAt: time.Now()}, inbox)
		r := nextReply(t, sub)
		want := "the order could not be signed, " + c.endpoint + " answered with an error (code -32000: Node is behind by 120 slots ([redacted])); nothing was signed"
		if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || r.Error.Message != want {
			t.Fatalf("%s: reply %+v, want %s", c.chain, r.Error, want)
		}
		if got := counted(sign) - before; got != 1 {
			t.Fatalf("%s: counted %v RPC errors, want 1", c.chain, got)
		}
	}
}
