package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
)

// serveAt registers h for hostport for the length of the test.
func serveAt(t *testing.T, hostport string, h http.Handler) {
	t.Helper()
	unregister, err := ServeInProcess(hostport, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
}

// TestServeInProcessReachesTheHandler registers a handler for the address
// of a server that counts what reaches it over the network: the endpoint's
// request reaches the registered handler in process, as a server would
// hand it over, and nothing reaches the network.
func TestServeInProcessReachesTheHandler(t *testing.T) {
	var dialled atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dialled.Add(1)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"network"}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	type seen struct{ method, path, query, uri, host, user, pass, ctype, body string }
	got := make(chan seen, 1)
	serveAt(t, host, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u, p, _ := r.BasicAuth()
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.RequestURI, r.Host, u, p, r.Header.Get("Content-Type"), string(body)}
		w.Header().Set("X-Answered", "in process")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"in process"}`)
	}))

	withUser := strings.Replace(secretURL(srv), "http://", "http://op:pw-KEY789@", 1)
	ep := New("solana rpc", withUser)
	resp, err := ep.HTTPClient(time.Second).Post(ep.StandIn(), "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getHealth"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusAccepted || resp.Header.Get("X-Answered") != "in process" ||
		string(body) != `{"jsonrpc":"2.0","id":1,"result":"in process"}` || resp.ContentLength != int64(len(body)) {
		t.Fatalf("answer: %d %v %q (length %d)", resp.StatusCode, resp.Header, body, resp.ContentLength)
	}
	want := seen{http.MethodPost, secretPath, secretQuery, secretPath + "?" + secretQuery, host, "op", "pw-KEY789",
		"application/json", `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`}
	if s := <-got; s != want {
		t.Fatalf("the handler saw %+v, want %+v", s, want)
	}
	if n := dialled.Load(); n != 0 {
		t.Fatalf("%d requests went over the network", n)
	}

	// A library client over the same endpoint decodes the answer as one
	// from the network.
	c := New("solana rpc", secretURL(srv)).SolanaRPC(time.Second)
	var out string
	if err := c.RPCCallForInto(context.Background(), &out, "getHealth", nil); err != nil || out != "in process" {
		t.Fatalf("getHealth in process: %q %v", out, err)
	}
	if n := dialled.Load(); n != 0 {
		t.Fatalf("%d requests went over the network", n)
	}
}

// TestServeInProcessOnlyTheExactTarget checks that a registration changes
// nothing for any other target: another port of the same host, the same
// host:port over https, and the registered one once unregistered, all
// dial.
func TestServeInProcessOnlyTheExactTarget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"network"}`)
	}))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"other"}`)
	}))
	defer other.Close()
	inProc := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"in process"}`)
	})
	host := strings.TrimPrefix(srv.URL, "http://")
	unregister, err := ServeInProcess(host, inProc)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()

	health := func(rawURL string) (string, error) {
		var out string
		err := New("solana rpc", rawURL).SolanaRPC(time.Second).RPCCallForInto(context.Background(), &out, "getHealth", nil)
		return out, err
	}
	if out, err := health(srv.URL); err != nil || out != "in process" {
		t.Fatalf("registered target: %q %v", out, err)
	}
	if out, err := health(other.URL); err != nil || out != "other" {
		t.Fatalf("another port of the same host: %q %v", out, err)
	}
	// Over https the same host:port is another server (a TLS one): it is
	// dialled, and the plain server there refuses the handshake.
	if out, err := health("https://" + host); err == nil || out == "in process" {
		t.Fatalf("https to the registered host:port: %q %v", out, err)
	}

	if _, err := ServeInProcess(host, inProc); err == nil {
		t.Fatal("a second registration of the same host:port was taken")
	}
	unregister()
	unregister() // a second call does nothing
	if out, err := health(srv.URL); err != nil || out != "network" {
		t.Fatalf("after unregistering: %q %v", out, err)
	}
	// Unregistered, the address is free to be registered again.
	serveAt(t, host, inProc)
	if out, err := health(srv.URL); err != nil || out != "in process" {
		t.Fatalf("registered again: %q %v", out, err)
	}
}

// TestServeInProcessFailures checks that an in-process call fails as the
// same call over the network would: a status that is not a success, a
// caller that gives up, a handler that panics.
func TestServeInProcessFailures(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string
		unsent  bool
		timeout bool
	}{
		{"429", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
		}, "solana rpc: HTTP 429 Too Many Requests: rate limited", true, false},
		{"timeout", hang, "solana rpc: timeout", false, true},
		{"panic", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, `{"jsonrpc"`)
			panic("boom")
		}, "solana rpc: connection closed before the answer", false, false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Nothing listens there: a call that dialled would be refused.
			host := fmt.Sprintf("127.0.0.1:%d", 19999+i)
			serveAt(t, host, tc.handler)
			err := call(New("solana rpc", "http://"+host+secretPath).HTTPClient(100*time.Millisecond), "http://solana-rpc/")
			var ee *Error
			if !errors.As(err, &ee) || ee.Error() != tc.want || ee.Unsent() != tc.unsent || ee.Timeout() != tc.timeout {
				t.Fatalf("err %v (%T), want %q unsent %v timeout %v", err, err, tc.want, tc.unsent, tc.timeout)
			}
		})
	}
}

// TestServeInProcessRefusesBadTargets checks the registration's own
// errors.
func TestServeInProcessRefusesBadTargets(t *testing.T) {
	h := http.NotFoundHandler()
	for _, hostport := range []string{"", "127.0.0.1", "http://127.0.0.1:8899", "127.0.0.1:"} {
		if _, err := ServeInProcess(hostport, h); err == nil {
			t.Errorf("ServeInProcess(%q) was taken", hostport)
		}
	}
	if _, err := ServeInProcess("127.0.0.1:8899", nil); err == nil {
		t.Error("a nil handler was taken")
	}
}

// BenchmarkGetBalance compares one small JSON-RPC call over loopback HTTP
// with the same call to the same handler in process.
func BenchmarkGetBalance(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":7},"value":42}}`)
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	run := func(b *testing.B) {
		c := New("solana rpc", srv.URL).SolanaRPC(time.Second)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.GetBalance(ctx, sol.SystemProgramID, ""); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("loopback", run)
	b.Run("in-process", func(b *testing.B) {
		unregister, err := ServeInProcess(strings.TrimPrefix(srv.URL, "http://"), h)
		if err != nil {
			b.Fatal(err)
		}
		defer unregister()
		run(b)
	})
}

// TestServeInProcessCallerGivesUp checks that a caller whose time runs out
// is answered at once even when the handler does not watch the request's
// context, as a transport answers it, and that the handler still runs to
// its end.
func TestServeInProcessCallerGivesUp(t *testing.T) {
	release, finished := make(chan struct{}), make(chan struct{})
	serveAt(t, "127.0.0.1:29998", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(finished)
		<-release
		_, _ = io.WriteString(w, `{}`)
	}))
	start := time.Now()
	err := call(New("solana rpc", "http://127.0.0.1:29998/").HTTPClient(50*time.Millisecond), "http://solana-rpc/")
	var ee *Error
	if !errors.As(err, &ee) || !ee.Timeout() || ee.Unsent() {
		t.Fatalf("err %v (%T), want a timeout that may have been sent", err, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the caller waited %v for a handler that does not return", d)
	}
	close(release)
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not run to its end")
	}
}
