package client

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// dropHost is an HTTP/1.1 host on a bare listener. It answers the n-th
// request it reads (from 0, over all connections) by plan[n] (the last one
// repeats): true answers it, false closes the connection without an answer
// once the request was read, as a proxy that loses an answer does. It
// records the connection each request came on.
type dropHost struct {
	ln   net.Listener
	plan []bool
	wg   sync.WaitGroup

	mu    sync.Mutex
	conns []net.Conn
	on    []int // connection number of each request
}

func newDropHost(t *testing.T, plan ...bool) *dropHost {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &dropHost{ln: ln, plan: plan}
	h.wg.Add(1)
	go h.accept()
	t.Cleanup(func() {
		ln.Close()
		h.mu.Lock()
		for _, c := range h.conns {
			c.Close()
		}
		h.mu.Unlock()
		h.wg.Wait()
	})
	return h
}

func (h *dropHost) url() string { return "http://" + h.ln.Addr().String() }

func (h *dropHost) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		h.mu.Lock()
		h.conns = append(h.conns, c)
		n := len(h.conns) - 1
		h.mu.Unlock()
		h.wg.Add(1)
		go h.serve(c, n)
	}
}

func (h *dropHost) serve(c net.Conn, connNo int) {
	defer h.wg.Done()
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		r, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.on = append(h.on, connNo)
		answer := h.plan[min(len(h.on), len(h.plan))-1]
		h.mu.Unlock()
		if !answer {
			return
		}
		body := okSwap
		if r.URL.Path == "/ping" {
			body = `{"success":true,"data":{"pong":true}}`
		}
		resp := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
		if _, err := io.WriteString(c, resp); err != nil {
			return
		}
	}
}

// requests returns the connection number of each request read.
func (h *dropHost) requests() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]int(nil), h.on...)
}

// TestOnlyTheClientResends: a swap under an Idempotency-Key whose answer
// is lost on a reused keep-alive connection is sent again only by the
// client's own retries, so WithRetries bounds the requests the host gets
// and Attempts counts every one of them.
func TestOnlyTheClientResends(t *testing.T) {
	const answer, drop = true, false
	for _, tc := range []struct {
		name    string
		opts    []Option
		plan    []bool // after the ping that opens the connection
		sent    int    // swap requests the host reads
		success bool
	}{
		{name: "retries off: one request, its error returned", opts: []Option{WithRetries(0)},
			plan: []bool{drop, answer}, sent: 1},
		{name: "a retry answers", plan: []bool{drop, answer}, sent: 2, success: true},
		{name: "three retries: four requests, all dropped", plan: []bool{drop, drop, drop, drop, answer}, sent: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newDropHost(t, append([]bool{answer}, tc.plan...)...)
			c := newClient(t, h.url(), tc.opts...)
			ctx := context.Background()
			if _, err := c.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			res, err := c.Swap(ctx, &SwapRequest{Address: "m", Side: Buy, Amount: "0.1", AllSpotActive: true}, IdempotencyKey("k-drop"))
			on := h.requests()
			if len(on) < 2 || on[1] != on[0] {
				t.Fatalf("the swap's first request did not reuse the ping's connection: connections %v", on)
			}
			if got := len(on) - 1; got != tc.sent {
				t.Fatalf("host read %d swap requests, want %d (err %v)", got, tc.sent, err)
			}
			var meta Meta
			var re *RequestError
			switch {
			case tc.success && err != nil:
				t.Fatalf("swap: %v", err)
			case tc.success:
				meta = res.Meta
			case !errors.As(err, &re):
				t.Fatalf("want a connection error, got %v (result %+v)", err, res)
			default:
				meta = re.Meta
			}
			if meta.Attempts != tc.sent || meta.IdempotencyKey != "k-drop" {
				t.Fatalf("Attempts %d, key %q; the host read %d requests under k-drop", meta.Attempts, meta.IdempotencyKey, tc.sent)
			}
		})
	}
}

// TestBurstsReuseConnections: a client sending bursts of concurrent calls
// keeps their connections for the next burst. With net/http's default of
// two idle connections per host, each burst of 16 opened 14 new ones
// (and, over TLS, negotiated each).
func TestBurstsReuseConnections(t *testing.T) {
	var opened atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"success":true,"data":{"account_id":"acct"}}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL)
	const bursts, calls = 10, 16
	for range bursts {
		var wg sync.WaitGroup
		for range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := c.Ping(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	// A connection handed back just after the next burst began is not
	// yet there to take: a few more than one burst's are opened.
	if n := opened.Load(); n > 3*calls {
		t.Fatalf("%d bursts of %d calls opened %d connections, want them kept from burst to burst", bursts, calls, n)
	}
	// A client made per call finds the connections the others left.
	before := opened.Load()
	for range calls {
		if _, err := newClient(t, srv.URL).Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := opened.Load() - before; n > 1 {
		t.Fatalf("%d clients made one after the other opened %d connections, want the ones kept", calls, n)
	}
}

// TestControlCharacterInHeaderRefused: an Idempotency-Key or request id
// that no header can carry (a line's end read with it) fails the call at
// once, before anything is sent, instead of as attempts to connect,
// retried.
func TestControlCharacterInHeaderRefused(t *testing.T) {
	f, srv := newFake(t, step{status: 200, body: okSwap})
	c := newClient(t, srv.URL)
	for _, opts := range [][]CallOption{{IdempotencyKey("key-1\n")}, {IdempotencyKey("key-2"), RequestID("req\r1")}} {
		_, err := c.Swap(context.Background(), &SwapRequest{Address: "mint", Side: Buy, Amount: "0.1", AllSpotActive: true}, opts...)
		var re *RequestError
		if err == nil || errors.As(err, &re) || !strings.Contains(err.Error(), "control character") {
			t.Fatalf("err %v, want a refusal naming the control character, no request's error", err)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("%d requests reached the host", n)
	}
	// A tab is a header value's character: sent.
	if _, err := c.Swap(context.Background(), &SwapRequest{Address: "mint", Side: Buy, Amount: "0.1", AllSpotActive: true},
		IdempotencyKey("bot-1\torder-7")); err != nil || len(f.requests()) != 1 {
		t.Fatalf("a key holding a tab: %v, %d requests", err, len(f.requests()))
	}
}
