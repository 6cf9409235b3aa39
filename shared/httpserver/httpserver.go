// Package httpserver builds the http.Server of every listener the service
// runs (the public API, the admin API, metrics and health), so that each
// bounds how long a client may hold a connection without finishing what it
// sends.
package httpserver

import (
	"io"
	"log"
	"net/http"
	"time"
)

// The limits of a listener's connections. There is deliberately no
// http.Server WriteTimeout, which counts from the request's arrival: an
// order's answer may take a whole request timeout (and an Idempotency-Key
// repeat longer, while it waits for the first request). The answer's
// writing is bounded instead, from its first byte (AnswerTimeout).
const (
	// HeaderTimeout bounds the arrival of a request's headers, counted
	// from its first byte.
	HeaderTimeout = 5 * time.Second
	// BodyTimeout bounds the arrival of a request's body, counted from the
	// end of its headers. Bodies are at most 64 KiB, which a working
	// client sends in well under a second; a client that announces a body
	// and stalls would otherwise hold its connection, and the server's
	// shutdown, for as long as it likes.
	BodyTimeout = 10 * time.Second
	// IdleTimeout bounds how long a keep-alive connection waits for its
	// next request: long enough that a bot ordering every minute or two
	// keeps its connection (and its TLS session) warm, short enough that
	// idle connections cost little.
	IdleTimeout = 120 * time.Second
	// AnswerTimeout bounds the writing of an answer, counted from the
	// handler's first write: a client that stops reading (requests
	// pipelined and answers never read, until the socket's buffers are
	// full) is cut off then, instead of holding its connection, a
	// goroutine and the server's shutdown for good.
	AnswerTimeout = 10 * time.Second
)

// New returns a server of h with the limits above. errorLog receives the
// server's own errors (nil: the standard logger).
func New(h http.Handler, errorLog *log.Logger) *http.Server {
	return newServer(h, errorLog, BodyTimeout, AnswerTimeout)
}

func newServer(h http.Handler, errorLog *log.Logger, body, answer time.Duration) *http.Server {
	// OPTIONS * is answered by the handler too (a JSON 404 with the
	// request's id), not with the server's own bare 200.
	return &http.Server{Handler: answerDeadline(bodyDeadline(h, body), answer), ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout: IdleTimeout, ErrorLog: errorLog, DisableGeneralOptionsHandler: true}
}

// answerDeadline gives the writing of a request's answer a deadline of d
// from the handler's first write. The one an earlier request of the
// connection left is lifted as a request begins: the server's own writes
// before the answer ("100 Continue") are not bounded by it.
func answerDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if rc.SetWriteDeadline(time.Time{}) != nil {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: rc, d: d}, r)
	})
}

// deadlineWriter sets its connection's write deadline at its first write.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	armed bool
}

func (w *deadlineWriter) arm() {
	if !w.armed {
		w.armed = true
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	}
}

func (w *deadlineWriter) WriteHeader(code int) {
	// 1xx answers are not the answer: the deadline begins with it.
	if code >= 200 {
		w.arm()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController (and so the body's deadline) the
// connection's own writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyDeadline gives a request with a body a read deadline of d and lifts
// it once the body has been read to its end. http.Server's ReadTimeout
// would bound the body too, but its deadline stays on the connection while
// the handler runs, and the server cancels a request's context when a read
// of the otherwise idle connection fails: an order waiting longer than it
// for its answer would be cut off. A handler that leaves the body unread
// leaves the deadline on, so the server's own read of the rest of the body
// after the handler is bounded as well.
//
// The request's own body is put back once the handler returns: the server
// decides by its type what to do with a body left unread when it answers.
// Its own body type tells it that a client waiting for "100 Continue" never
// sent the body, or that the rest is too large to read, and then it closes
// the connection after the answer; any other type it reads to the end, so a
// refusal of such a request (401, 413, 415, a 404) would wait the whole
// body timeout for a body that is not coming.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(d)) == nil {
				body := r.Body
				r.Body = &deadlineBody{ReadCloser: body, rc: rc}
				defer func() { r.Body = body }()
			}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts its connection's read deadline when it reaches its
// end.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
