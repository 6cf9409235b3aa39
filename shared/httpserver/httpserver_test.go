package httpserver

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve runs h behind a server with a body timeout of body on a real
// listener and returns its address.
func serve(t *testing.T, h http.Handler, body time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(h, nil, body, AnswerTimeout)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// stalled sends a request's headers announcing a body of 1000 bytes and
// one byte of it, then nothing, and reports how long the server took to
// answer or close the connection (failing after limit).
func stalled(t *testing.T, addr, path string, limit time.Duration) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	req := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, _ = io.Copy(io.Discard, conn)
	took := time.Since(start)
	if took >= limit {
		t.Fatalf("a stalled body still held its connection after %v", took)
	}
	return took
}

func TestStalledBodyIsCutOff(t *testing.T) {
	const body = 300 * time.Millisecond
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
	}{
		{"handler reads the body", func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.ReadAll(r.Body); err != nil {
				w.WriteHeader(http.StatusBadRequest)
			}
		}},
		// The server then reads the rest of the body itself, before it
		// answers.
		{"handler ignores the body", func(w http.ResponseWriter, r *http.Request) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := serve(t, tc.h, body)
			if took := stalled(t, addr, "/", 5*time.Second); took < body {
				t.Fatalf("cut off after %v, before the body timeout %v", took, body)
			}
		})
	}
}

// TestSlowAnswerAfterBody: once the body is in, the handler may take longer
// than the body timeout (an order waiting for its answer) with its context
// live, and the connection then serves the next request.
func TestSlowAnswerAfterBody(t *testing.T) {
	const body = 200 * time.Millisecond
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		select {
		case <-r.Context().Done():
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		case <-time.After(4 * body):
		}
		_, _ = w.Write(b)
	}), body)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	for i := range 2 {
		if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(got)) != "{}" {
			t.Fatalf("request %d: %d %q, want 200 {}", i, resp.StatusCode, got)
		}
	}
}

// TestRefusalOfAnUnsentBody: a request refused without its body being read
// is answered at once when the body is not coming (a client waiting for
// "100 Continue", or one that announced more than the server reads after
// an answer), and the connection is closed after the answer, not held for
// the body timeout.
func TestRefusalOfAnUnsentBody(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}), time.Minute)
	for _, headers := range []string{
		"Content-Length: 185\r\nExpect: 100-continue\r\n",
		"Content-Length: 1000000000\r\n",
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+headers+"\r\n"); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%q: no answer before the body timeout: %v", headers, err)
		}
		if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
			t.Fatalf("%q: %d, closing %v; want 401 and the connection closed", headers, resp.StatusCode, resp.Close)
		}
		conn.Close()
	}
}

// TestUnreadAnswersAreCutOff: a client that pipelines requests and never
// reads their answers has its connection closed once an answer could not
// be written within the answer timeout (it held the connection, a
// goroutine and the server's shutdown for good); a handler that waits
// longer than that timeout before answering, and a keep-alive request
// after it, are answered whole.
func TestUnreadAnswersAreCutOff(t *testing.T) {
	const answer = 300 * time.Millisecond
	big := strings.Repeat("x", 256<<10)
	closed := make(chan string, 16)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(2 * answer)
		}
		_, _ = io.WriteString(w, big)
	}), nil, BodyTimeout, answer)
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- c.RemoteAddr().String()
		}
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()

	c := &http.Client{}
	for _, path := range []string{"/slow", "/slow"} {
		resp, err := c.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n != int64(len(big)) {
			t.Fatalf("%s answered %d of %d bytes: %v", path, n, len(big), err)
		}
		time.Sleep(2 * answer)
	}

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		for i := 0; i < 200; i++ {
			if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				return
			}
		}
	}()
	limit := time.After(answer + 5*time.Second)
	for {
		select {
		case a := <-closed:
			if a == conn.LocalAddr().String() {
				return
			}
		case <-limit:
			t.Fatal("a client that never reads its answers still holds its connection")
		}
	}
}

// TestOptionsStarReachesTheHandler: OPTIONS * is the handler's to answer
// (the service's JSON with its request id), not the server's bare 200.
func TestOptionsStarReachesTheHandler(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}), BodyTimeout)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot {
		t.Fatalf("OPTIONS * answered %d by the server itself", resp.StatusCode)
	}
}
