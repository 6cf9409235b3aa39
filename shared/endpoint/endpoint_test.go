package endpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	gethrpc "github.com/ethereum/go-ethereum/rpc"
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// secretPath and secretQuery are where a provider would put its keys.
const (
	secretPath  = "/sekret-path-KEY123"
	secretQuery = "api-key=KEY456"
)

// secretURL returns srv's address with a key in its path and query.
func secretURL(srv *httptest.Server) string { return srv.URL + secretPath + "?" + secretQuery }

// secrets are the parts of a URL no text may carry.
func secrets(rawURL string) []string {
	host := strings.SplitN(rawURL, "/", 4)[2]
	return []string{rawURL, host, "sekret", "KEY123", "KEY456", "api-key"}
}

func assertClean(t *testing.T, text, rawURL string) {
	t.Helper()
	for _, s := range secrets(rawURL) {
		if strings.Contains(text, s) {
			t.Fatalf("%q carries %q of the URL", text, s)
		}
	}
}

// refusedURL is an address on which nothing listens.
func refusedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + secretPath + "?" + secretQuery
}

// hang answers nothing until the client gives up. The request is read
// first: the server notices a client that went away only after that.
func hang(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}

// TestTransportFailures calls endpoints that fail in every way a transport
// sees and checks the exact error each gives: named, with no part of the
// URL, with the right kind.
func TestTransportFailures(t *testing.T) {
	handlers := map[string]http.HandlerFunc{
		"429": func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
		},
		"429 json-rpc": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"daily limit reached for key KEY456"}}`)
		},
		"502 page": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<html><body>bad gateway at "+r.Host+"</body></html>")
		},
		"redirect": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.example/sekret-path-KEY123", http.StatusMovedPermanently)
		},
		"hang": hang,
		"slow body": func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"jsonrpc":`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		},
	}
	servers := map[string]string{}
	for name, h := range handlers {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		servers[name] = secretURL(srv)
	}
	servers["refused"] = refusedURL(t)
	servers["websocket"] = "wss://rpc.example/sekret-path-KEY123?api-key=KEY456"

	cases := []struct {
		server, name, want string
		status             int
		unsent, timeout    bool
		is                 error
	}{
		{"429", "solana rpc", "solana rpc: HTTP 429 Too Many Requests: rate limited", 429, true, false, nil},
		{"429 json-rpc", "base rpc", "base rpc: HTTP 429 Too Many Requests: daily limit reached for key [redacted]", 429, true, false, nil},
		{"502 page", "base relay", "base relay: HTTP 502 Bad Gateway", 502, false, false, nil},
		{"redirect", "metadata upload", "metadata upload: HTTP 301 Moved Permanently", 301, true, false, nil},
		{"refused", "solana relay", "solana relay: connection refused", 0, true, false, syscall.ECONNREFUSED},
		{"hang", "eth rpc", "eth rpc: timeout", 0, false, true, context.DeadlineExceeded},
		{"slow body", "bsc rpc", "bsc rpc: reading the answer: timeout", 0, false, true, context.DeadlineExceeded},
		{"websocket", "arc rpc", "arc rpc: the configured URL is not http or https", 0, true, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.server, func(t *testing.T) {
			ep := New(tc.name, servers[tc.server])
			err := call(ep.HTTPClient(300*time.Millisecond), ep.StandIn())
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T) carries no *Error", err, err)
			}
			if ee.Error() != tc.want || ee.Status != tc.status || ee.Unsent() != tc.unsent || ee.Timeout() != tc.timeout {
				t.Fatalf("got %q status %d unsent %v timeout %v, want %q %d %v %v",
					ee.Error(), ee.Status, ee.Unsent(), ee.Timeout(), tc.want, tc.status, tc.unsent, tc.timeout)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("errors.Is(%v, %v) is false", err, tc.is)
			}
			if IsUnsent(err) != tc.unsent {
				t.Fatalf("IsUnsent = %v, want %v", IsUnsent(err), tc.unsent)
			}
			assertClean(t, ep.Clean(err).Error(), servers[tc.server])
		})
	}
}

// call posts a JSON-RPC request and reads the whole answer.
func call(c *http.Client, url string) error {
	resp, err := c.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getHealth"}`))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

// TestTransportSendsToTheRealURL checks that a request made for the
// stand-in reaches the real path, query and host, with the URL's user as
// basic authentication.
func TestTransportSendsToTheRealURL(t *testing.T) {
	type seen struct{ path, query, host, user, pass string }
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		got <- seen{r.URL.Path, r.URL.RawQuery, r.Host, u, p}
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	withUser := strings.Replace(secretURL(srv), "http://", "http://op:pw-KEY789@", 1)
	ep := New("solana rpc", withUser)
	if err := call(ep.HTTPClient(time.Second), ep.StandIn()); err != nil {
		t.Fatal(err)
	}
	want := seen{secretPath, secretQuery, strings.TrimPrefix(srv.URL, "http://"), "op", "pw-KEY789"}
	if s := <-got; s != want {
		t.Fatalf("the endpoint saw %+v, want %+v", s, want)
	}
}

// TestClientsNameTheEndpoint drives solana-go's and go-ethereum's clients
// built here against an endpoint that answers 429 and one that answers:
// the errors name the endpoint and nothing of its URL, and calls that
// succeed reach the real path.
func TestClientsNameTheEndpoint(t *testing.T) {
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer limited.Close()
	mux := http.NewServeMux()
	mux.HandleFunc(secretPath, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case bytes.Contains(body, []byte("getBalance")):
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":7},"value":42}}`)
		case bytes.Contains(body, []byte("getSlot")):
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"slot skipped"}}`)
		default:
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x2a"}`)
		}
	})
	ok := httptest.NewServer(mux)
	defer ok.Close()
	ctx := context.Background()

	t.Run("solana", func(t *testing.T) {
		_, err := New("solana rpc", secretURL(limited)).SolanaRPC(time.Second).GetBalance(ctx, sol.SystemProgramID, "")
		if err == nil || err.Error() != "solana rpc: HTTP 429 Too Many Requests" {
			t.Fatalf("GetBalance against a limited node: %v", err)
		}
		c := New("solana rpc", secretURL(ok)).SolanaRPC(time.Second)
		bal, err := c.GetBalance(ctx, sol.SystemProgramID, "")
		if err != nil || bal.Value != 42 {
			t.Fatalf("GetBalance: %+v %v", bal, err)
		}
		_, err = c.GetSlot(ctx, "")
		var rerr *jsonrpc.RPCError
		if !errors.As(err, &rerr) || rerr.Message != "slot skipped" {
			t.Fatalf("a node's error came back as %v (%T)", err, err)
		}
	})
	t.Run("evm", func(t *testing.T) {
		c, err := New("base rpc", secretURL(limited)).DialEVM(ctx, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var n string
		if err := c.CallContext(ctx, &n, "eth_blockNumber"); err == nil || err.Error() != "base rpc: HTTP 429 Too Many Requests" {
			t.Fatalf("eth_blockNumber against a limited node: %v", err)
		}
		// Through ethclient the library's own wrapping shows, naming only
		// the stand-in.
		_, err = ethclient.NewClient(c.Client).BlockNumber(ctx)
		if err == nil || !strings.Contains(err.Error(), "base rpc: HTTP 429 Too Many Requests") {
			t.Fatalf("BlockNumber: %v", err)
		}
		assertClean(t, err.Error(), secretURL(limited))
		good, err := New("base rpc", secretURL(ok)).DialEVM(ctx, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := ethclient.NewClient(good.Client).BlockNumber(ctx); err != nil || n != 42 {
			t.Fatalf("BlockNumber: %d %v", n, err)
		}
		batch := []gethrpc.BatchElem{{Method: "eth_blockNumber", Result: &n}}
		if err := good.BatchCallContext(ctx, batch); err == nil {
			// The double answers a single object to a batch: the
			// library's decode error must not name the URL either.
			t.Fatal("a batch answered by a single object decoded")
		} else {
			assertClean(t, err.Error(), secretURL(ok))
		}
	})
	t.Run("bad url", func(t *testing.T) {
		_, err := New("rbh rpc", "ws://rpc.example/sekret-path-KEY123").DialEVM(ctx, time.Second)
		if err == nil || err.Error() != "rbh rpc: the configured URL is not http or https" {
			t.Fatalf("DialEVM of a websocket URL: %v", err)
		}
	})
}

// TestScrub takes URLs out of texts that carry them in every spelling, and
// leaves words that are only words.
func TestScrub(t *testing.T) {
	const u = "https://user:hunter22@rpc.example.com:8443/solana/bundles/v2/KEY123abc?api-key=KEY456&cluster=main"
	cases := []struct{ name, text, want string }{
		{"whole", `Post "` + u + `": EOF`, `Post "[url]": EOF`},
		{"without query", "rpc call on https://user:hunter22@rpc.example.com:8443/solana/bundles/v2/KEY123abc failed",
			"rpc call on [url] failed"},
		{"host and port", "dial tcp rpc.example.com:8443: i/o timeout", "dial tcp [redacted]: i/o timeout"},
		{"host", "lookup rpc.example.com: no such host", "lookup [redacted]: no such host"},
		{"key in a path", "invalid key KEY123abc", "invalid key [redacted]"},
		{"key in a query", "key KEY456 is over its limit", "key [redacted] is over its limit"},
		{"key in another case", "Unauthorized: key 'key123ABC' unknown, KEY456 too", "Unauthorized: key '[redacted]' unknown, [redacted] too"},
		{"host in another case", "lookup RPC.Example.COM: no such host", "lookup [redacted]: no such host"},
		{"beside bytes that are not UTF-8", "\xff\xfeKEY456\xff", "\xff\xfe[redacted]\xff"},
		{"whole in another case", `Post "HTTPS://user:hunter22@RPC.example.com:8443/solana/bundles/v2/KEY123abc": EOF`, `Post "[url]": EOF`},
		{"query", "bad query api-key=KEY456&cluster=main", "bad query [redacted]"},
		{"password", "auth hunter22 refused", "auth [redacted] refused"},
		{"words of the path stay", "solana bundles relay: v2", "solana bundles relay: v2"},
		{"nothing", "connection refused", "connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Scrub(tc.text, u); got != tc.want {
				t.Fatalf("Scrub(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
	ep := New("solana relay", u)
	if got := ep.Scrub(`rpc call sendBundle() on http://solana-relay/: ` + u); got != "rpc call sendBundle() on solana relay: [solana relay]" {
		t.Fatalf("Endpoint.Scrub: %q", got)
	}
	if got := Scrub("anything", ""); got != "anything" {
		t.Fatalf("Scrub with no URL: %q", got)
	}
}

// TestClean keeps the endpoint's *Error out of a library's wrapping,
// scrubs other errors and keeps what errors.Is finds.
func TestClean(t *testing.T) {
	ep := New("base relay", "https://relay.example/KEY123abc")
	inner := &Error{Endpoint: "base relay", Reason: "connection refused", cause: syscall.ECONNREFUSED, unsent: true}
	wrapped := fmt.Errorf(`Post "http://base-relay/": %w`, inner)
	if got := ep.Clean(wrapped); got != inner {
		t.Fatalf("Clean(%v) = %v, want the *Error", wrapped, got)
	}
	other := fmt.Errorf("decode https://relay.example/KEY123abc: %w", io.ErrUnexpectedEOF)
	got := ep.Clean(other)
	if got.Error() != "decode [base relay]: unexpected EOF" || !errors.Is(got, io.ErrUnexpectedEOF) {
		t.Fatalf("Clean(%v) = %q", other, got)
	}
	plain := errors.New("nonce too low")
	if ep.Clean(plain) != plain || ep.Clean(nil) != nil {
		t.Fatal("Clean changed an error with nothing to clean")
	}
}

// TestEndpointPrintsItsName formats and logs an Endpoint every usual way.
func TestEndpointPrintsItsName(t *testing.T) {
	ep := New("solana rpc", "https://rpc.example/sekret-path-KEY123?api-key=KEY456")
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("calling", "endpoint", ep)
	text := fmt.Sprintf("%v %s %+v %#v %q", ep, ep, ep, ep, ep) + buf.String()
	for _, s := range []string{"rpc.example", "KEY123", "KEY456"} {
		if strings.Contains(text, s) {
			t.Fatalf("%q carries %q", text, s)
		}
	}
	if !strings.Contains(buf.String(), `"endpoint":"solana rpc"`) {
		t.Fatalf("log %s does not name the endpoint", buf.String())
	}
	for name, want := range map[string]string{"solana rpc": "http://solana-rpc/", "Base Relay!": "http://base-relay/", "": "http://endpoint/"} {
		if got := New(name, "").StandIn(); got != want {
			t.Errorf("StandIn of %q = %q, want %q", name, got, want)
		}
	}
}

// TestNodeRefusalsQuotingTheURL: some providers quote the request's path
// and query, where their key is, in their JSON-RPC refusals, or answer a
// body that starts with them; the clients' errors keep the node's code,
// lose every part of the URL, and quote no first bytes of a body that is
// not JSON.
func TestNodeRefusalsQuotingTheURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc(secretPath, func(w http.ResponseWriter, r *http.Request) {
		quoted := r.URL.Path + "?" + r.URL.RawQuery
		if r.URL.Query().Has("html") {
			_, _ = io.WriteString(w, quoted+" <html>over quota</html>")
			return
		}
		if r.URL.Query().Has("object") {
			// The URL in an object of the error's data, which the Solana
			// client's error text prints whole.
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"request limit reached","data":{"url":%q,"list":[%q]}}}`, quoted, quoted)
			return
		}
		if r.URL.Query().Has("long") {
			// A refusal quoting the URL past where its hint is cut.
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = fmt.Fprintf(w, `{"error":{"message":"%s request %s refused"}}`, strings.Repeat("x", 180), quoted)
			return
		}
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"request limit reached for %s","data":"key %s"}}`, quoted, quoted)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	url := secretURL(srv)

	t.Run("solana", func(t *testing.T) {
		_, err := New("solana rpc", url).SolanaRPC(time.Second).GetSlot(ctx, "")
		var rerr *jsonrpc.RPCError
		if !errors.As(err, &rerr) || rerr.Code != -32005 || !strings.Contains(rerr.Message, "request limit reached") {
			t.Fatalf("a node's refusal came back as %v (%T)", err, err)
		}
		assertClean(t, rerr.Message, url)
		assertClean(t, fmt.Sprint(rerr.Data), url)
		_, err = New("solana rpc", url+"&html=1").SolanaRPC(time.Second).GetSlot(ctx, "")
		if err == nil || err.Error() != "solana rpc: the answer is not JSON-RPC" {
			t.Fatalf("a body that is not JSON: %v", err)
		}
		objURL := url + "&object=1"
		_, err = New("solana rpc", objURL).SolanaRPC(time.Second).GetSlot(ctx, "")
		if !errors.As(err, &rerr) || rerr.Code != -32005 {
			t.Fatalf("a refusal with an object as its data came back as %v (%T)", err, err)
		}
		assertClean(t, err.Error(), objURL)
		if d, ok := rerr.Data.(map[string]any); !ok || len(d) != 2 {
			t.Fatalf("the refusal's data lost its shape: %#v", rerr.Data)
		}
		longURL := url + "&long=1"
		_, err = New("solana rpc", longURL).SolanaRPC(time.Second).GetSlot(ctx, "")
		if err == nil || !strings.Contains(err.Error(), "HTTP 500") {
			t.Fatalf("a long refusal: %v", err)
		}
		assertClean(t, err.Error(), longURL)
	})
	t.Run("evm", func(t *testing.T) {
		c, err := New("base rpc", url).DialEVM(ctx, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var n string
		err = c.CallContext(ctx, &n, "eth_sendRawTransaction", "0x00")
		var rerr gethrpc.Error
		if !errors.As(err, &rerr) || rerr.ErrorCode() != -32005 || !strings.Contains(rerr.Error(), "request limit reached") {
			t.Fatalf("a node's refusal came back as %v (%T)", err, err)
		}
		assertClean(t, rerr.Error(), url)
		var derr gethrpc.DataError
		if !errors.As(err, &derr) {
			t.Fatalf("the refusal lost its data: %T", err)
		}
		assertClean(t, fmt.Sprint(derr.ErrorData()), url)
		objURL := url + "&object=1"
		oc, err := New("base rpc", objURL).DialEVM(ctx, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		err = oc.CallContext(ctx, &n, "eth_sendRawTransaction", "0x00")
		if !errors.As(err, &derr) {
			t.Fatalf("a refusal with an object as its data: %v (%T)", err, err)
		}
		assertClean(t, err.Error(), objURL)
		assertClean(t, fmt.Sprint(derr.ErrorData()), objURL)
		batch := []gethrpc.BatchElem{{Method: "eth_blockNumber", Result: &n}}
		_ = c.BatchCallContext(ctx, batch)
		if batch[0].Error != nil {
			assertClean(t, batch[0].Error.Error(), url)
		}
	})
}

// TestSolanaNodeErrorText: a Solana node's JSON-RPC error reads as the
// endpoint's name, its code and its message, on one line, its URL
// scrubbed, where solana-go prints a multi-line dump with a pointer
// address; callers still read the node's code, message and data.
func TestSolanaNodeErrorText(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Node is behind by 120 slots at %s","data":{"numSlotsBehind":120}}}`, r.URL.Path)
	}))
	defer srv.Close()
	url := secretURL(srv)
	_, err := New("solana rpc", url).SolanaRPC(time.Second).GetLatestBlockhash(context.Background(), "")
	err = fmt.Errorf("get latest blockhash: %w", err)
	want := "get latest blockhash: solana rpc: code -32000: Node is behind by 120 slots at [redacted]"
	if err.Error() != want {
		t.Fatalf("err = %q, want %q", err, want)
	}
	assertClean(t, err.Error(), url)
	var ne interface{ Reason() string } // *NodeError
	if !errors.As(err, &ne) || ne.Reason() != "code -32000: Node is behind by 120 slots at [redacted]" {
		t.Fatalf("not a node's error: %#v", err)
	}
	var rerr *jsonrpc.RPCError
	if !errors.As(err, &rerr) || rerr.Code != -32000 {
		t.Fatalf("the node's error is not read: %#v", err)
	}
	if d, ok := rerr.Data.(map[string]any); !ok || d["numSlotsBehind"] == nil {
		t.Fatalf("the node's data is lost: %#v", rerr.Data)
	}
}

// TestScrubTakesPlainWordSecrets: an operator's secret of plain letters
// in a URL's path or query ("?token=opensesamekey", "/rpc/hunterhunter")
// is taken out of a provider's text that quotes it, as any piece of eight
// characters or more is, and a query value of four or more whose parameter
// names a secret; a plain word of another parameter (?network=base) stays
// in the messages.
func TestScrubTakesPlainWordSecrets(t *testing.T) {
	for _, u := range []string{"http://node.example/?api-key=opensesamekey", "http://node.example/rpc/hunterhunter",
		"http://node.example/?token=ZXCVBNMASDFGH", "http://node.example/?dkey=supersecretkey",
		"http://node.example/Hunter2x?apikey=opnsesa"} {
		secret := u[strings.LastIndexAny(u, "=/")+1:]
		if got := Scrub("HTTP 401 Unauthorized: invalid api key "+secret, u); strings.Contains(got, secret) {
			t.Errorf("%s: %q keeps its secret", u, got)
		}
	}
}

func TestScrubKeepsPlainWordsOfOtherParameters(t *testing.T) {
	u := "http://node.example/v2?network=base&dkey=s3cr3tk3y"
	got := Scrub("max fee per gas less than block base fee; key s3cr3tk3y", u)
	if !strings.Contains(got, "block base fee") || strings.Contains(got, "s3cr3tk3y") {
		t.Fatalf("%q: want the word base kept and the key taken out", got)
	}
}

// TestAnswerBounded: a successful answer that does not end (a node's
// defect, or a hostile endpoint) is read up to the bound and no further,
// the error naming the endpoint and saying why: read whole, it took the
// process's memory within one call's timeout.
func TestAnswerBounded(t *testing.T) {
	old := maxAnswer
	maxAnswer = 1 << 20
	t.Cleanup(func() { maxAnswer = old })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		chunk := []byte(strings.Repeat("x", 64<<10))
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"`)
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	ep := New("solana rpc", secretURL(srv))
	err := call(ep.HTTPClient(10*time.Second), ep.StandIn())
	var ee *Error
	if !errors.As(err, &ee) || ee.Error() != "solana rpc: reading the answer: larger than 1 MiB, not read further" || ee.Unsent() {
		t.Fatalf("error %v, want the answer's bound named, the request taken as sent", err)
	}

	// An answer of the bound exactly, its end coming after its last byte.
	exact := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		for range 16 {
			_, _ = w.Write([]byte(strings.Repeat("x", 64<<10)))
		}
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
	}))
	t.Cleanup(exact.Close)
	ep = New("solana rpc", secretURL(exact))
	if err := call(ep.HTTPClient(10*time.Second), ep.StandIn()); err != nil {
		t.Fatalf("an answer of the bound exactly: %v", err)
	}
}
