package endpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// inProcess maps the host:port of an HTTP server of this process to its
// handler. It is copied on write: every request looks it up, and only a
// server starting or stopping changes it.
var (
	inProcessMu sync.Mutex
	inProcess   atomic.Pointer[map[string]*inProcessServer]
)

// ServeInProcess registers h as what answers, in this process, the http://
// requests that endpoints send to hostport ("127.0.0.1:8899"): such a
// request is handed to h directly instead of being written to a loopback
// connection, read back by the server and answered the same way. It is for
// a server the process runs itself and listens on at exactly hostport (the
// local chains in one binary): h must be the handler that server serves, so
// the same code answers either way, and only a request naming that exact
// host and port over plain http is affected; any other target, a real
// chain's included, is dialled as before. The returned function undoes the
// registration; call it when the server stops. Registering a hostport that
// is already registered is an error.
//
// What reaches h is what a server would hand it: the method, the path and
// query, the headers, Host, the body and a context that ends when the
// caller gives up. What the caller gets is h's status, headers and body,
// or the context's error as soon as it ends, whatever h does meanwhile; a
// handler that panics fails the call as a connection closed before the
// answer would. h runs on goroutines kept for the registration, which
// carry whatever profile labels the goroutine that started them had: h
// sets its own when a profile is to tell its work apart.
func ServeInProcess(hostport string, h http.Handler) (unregister func(), err error) {
	if h == nil {
		return nil, errors.New("endpoint: serve in process: nil handler")
	}
	if _, port, err := net.SplitHostPort(hostport); err != nil || port == "" {
		return nil, fmt.Errorf("endpoint: serve in process: %q is not a host:port", hostport)
	}
	inProcessMu.Lock()
	defer inProcessMu.Unlock()
	old := inProcess.Load()
	if old != nil {
		if _, dup := (*old)[hostport]; dup {
			return nil, fmt.Errorf("endpoint: serve in process: %s is already registered", hostport)
		}
	}
	next := make(map[string]*inProcessServer, 1)
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	next[hostport] = newInProcessServer(h)
	inProcess.Store(&next)
	var once sync.Once
	return func() { once.Do(func() { unregisterInProcess(hostport) }) }, nil
}

func unregisterInProcess(hostport string) {
	inProcessMu.Lock()
	defer inProcessMu.Unlock()
	old := inProcess.Load()
	if old == nil {
		return
	}
	next := make(map[string]*inProcessServer, len(*old))
	for k, v := range *old {
		if k != hostport {
			next[k] = v
		}
	}
	inProcess.Store(&next)
	if s := (*old)[hostport]; s != nil {
		// A call that found the server just before goes on, on a goroutine
		// of its own; the idle ones end now.
		close(s.stop)
	}
}

// inProcessFor returns the server registered for the request's target, or
// nil when the request is to be sent over the network.
func inProcessFor(req *http.Request) *inProcessServer {
	m := inProcess.Load()
	if m == nil || len(*m) == 0 || req.URL.Scheme != "http" {
		return nil
	}
	return (*m)[req.URL.Host]
}

// inProcessServer runs the in-process calls of one registration. Each call
// runs on a goroutine apart from its caller's, as it would on a server, so
// that a caller that gives up is answered at once and the handler's
// goroutine is the server's, not the caller's (a profile tells the two
// apart by the labels the handler sets). Those goroutines are kept between
// calls: a goroutine started for each call would grow a fresh stack
// through the handler's whole depth every time, which costs as much as a
// small call's own work.
type inProcessServer struct {
	h http.Handler
	// calls hands a call to an idle goroutine; unbuffered, so a call is
	// only taken by a goroutine waiting for one.
	calls chan func()
	// stop ends the idle goroutines when the registration is undone.
	stop chan struct{}
}

// inProcessIdle is how long a goroutine of an inProcessServer waits for
// another call before it ends.
const inProcessIdle = 30 * time.Second

func newInProcessServer(h http.Handler) *inProcessServer {
	return &inProcessServer{h: h, calls: make(chan func()), stop: make(chan struct{})}
}

// run runs f on an idle goroutine of s, or a new one when none is idle.
func (s *inProcessServer) run(f func()) {
	select {
	case s.calls <- f:
	default:
		go s.loop(f)
	}
}

func (s *inProcessServer) loop(f func()) {
	idle := time.NewTimer(inProcessIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(inProcessIdle)
		select {
		case f = <-s.calls:
		case <-idle.C:
			return
		case <-s.stop:
			return
		}
	}
}

// serve answers req, which the caller hands over, with the server's
// handler as a server would, without a connection.
func (s *inProcessServer) serve(req *http.Request) (*http.Response, error) {
	// req is the transport's own copy; only its URL is shared with the
	// caller's, so that is copied before a server's form is given to it: the
	// path alone, with the host apart.
	in := new(http.Request)
	*in = *req
	u := *req.URL
	u.Scheme, u.Host = "", ""
	in.URL = &u
	in.Host = req.URL.Host
	in.RequestURI = req.URL.RequestURI()
	in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	in.RemoteAddr = "127.0.0.1:0"
	if in.Body == nil {
		in.Body = http.NoBody
	}
	w := &inProcessWriter{header: make(http.Header)}
	done := make(chan error, 1)
	s.run(func() {
		defer func() {
			_ = in.Body.Close()
			if p := recover(); p != nil {
				// A server closes the connection of a handler that panics;
				// the client sees it end before the answer.
				done <- io.ErrUnexpectedEOF
				return
			}
			done <- nil
		}()
		s.h.ServeHTTP(w, in)
	})
	select {
	case err := <-done:
		if err != nil {
			return nil, err
		}
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	return w.response(req), nil
}

// inProcessWriter is the http.ResponseWriter of an in-process call: it
// keeps the answer until the handler returns.
type inProcessWriter struct {
	header      http.Header
	status      int
	body        bytes.Buffer
	wroteHeader bool
}

func (w *inProcessWriter) Header() http.Header { return w.header }

func (w *inProcessWriter) WriteHeader(code int) {
	// Informational answers are not the answer; a server sends them ahead
	// of it and a client skips them.
	if w.wroteHeader || (code >= 100 && code <= 199) {
		return
	}
	w.wroteHeader, w.status = true, code
}

func (w *inProcessWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(p)
}

// Flush implements http.Flusher; the answer is handed over whole when the
// handler returns.
func (w *inProcessWriter) Flush() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
}

// response is the answer as a client would read it off the wire.
func (w *inProcessWriter) response(req *http.Request) *http.Response {
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	body := w.body.Bytes()
	// A server sniffs the type of an answer that does not name one.
	if _, named := w.header["Content-Type"]; !named && len(body) > 0 {
		w.header.Set("Content-Type", http.DetectContentType(body))
	}
	w.header.Set("Content-Length", strconv.Itoa(len(body)))
	if req.Method == http.MethodHead {
		body = nil
	}
	text := http.StatusText(status)
	if text == "" {
		text = "status code " + strconv.Itoa(status)
	}
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + text,
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(w.body.Len()),
		Request:       req,
	}
}
