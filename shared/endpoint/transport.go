package endpoint

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// maxHint bounds what is read of an unsuccessful answer's body, and
// maxHintLen what of it is kept in the error.
const (
	maxHint    = 4 << 10
	maxHintLen = 200
)

// HTTPClient returns a client whose every request goes to the endpoint,
// whatever URL the request names (give it StandIn), over a pool of
// connections sized for a server sending many transactions at once. timeout
// bounds each request with its answer's body; 0 leaves that to the
// request's context. Its errors carry an *Error (see Transport).
func (e Endpoint) HTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{Transport: e.Transport(nil, timeout)}
}

// Transport returns a RoundTripper that sends every request to the
// endpoint's URL over base (nil: a connection pool of its own), each bounded
// by timeout (0: none but the request's context). A URL whose host:port a
// server of this process registered with ServeInProcess is answered by that
// server's handler in process instead. It fails with an *Error
// when the request could not be made and when the endpoint answers with a
// status other than 2xx, and the body of a successful answer fails with one
// too, so that what a caller sees names the endpoint, never its address.
func (e Endpoint) Transport(base http.RoundTripper, timeout time.Duration) http.RoundTripper {
	if base == nil {
		base = pooled()
	}
	t := &transport{ep: e, base: base, timeout: timeout}
	t.target, t.bad = parse(e.URL)
	return t
}

// Check reports a URL the endpoint cannot be called at, as an *Error
// naming the endpoint.
func (e Endpoint) Check() error {
	if _, bad := parse(e.URL); bad != "" {
		return &Error{Endpoint: e.name(), Reason: bad, unsent: true}
	}
	return nil
}

// parse returns the URL requests go to, or why there is none; the reason
// never quotes the URL.
func parse(raw string) (*url.URL, string) {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return nil, "no URL is configured"
	case err != nil:
		return nil, "the configured URL does not parse"
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, "the configured URL is not http or https"
	case u.Host == "":
		return nil, "the configured URL has no host"
	}
	return u, ""
}

// pooled is the connection pool of one endpoint: many concurrent sends to
// one host reuse their connections instead of opening new ones.
func pooled() *http.Transport {
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 60 * time.Second}).DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
	}
}

type transport struct {
	ep      Endpoint
	base    http.RoundTripper
	timeout time.Duration
	target  *url.URL
	bad     string
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.target == nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, &Error{Endpoint: t.ep.name(), Reason: t.bad, unsent: true}
	}
	ctx, cancel := req.Context(), context.CancelFunc(func() {})
	if t.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
	}
	out := t.retarget(req.Clone(ctx))
	var resp *http.Response
	var err error
	if s := inProcessFor(out); s != nil {
		resp, err = s.serve(out)
	} else {
		resp, err = t.base.RoundTrip(out)
	}
	if err != nil {
		cancel()
		return nil, t.failure(err, "")
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer cancel()
		defer resp.Body.Close()
		return nil, t.status(resp)
	}
	// The timeout covers the body too: it is released when the caller
	// closes it.
	resp.Body = &body{rc: resp.Body, t: t, cancel: cancel, left: maxAnswer + 1}
	resp.Request = req
	return resp, nil
}

// retarget points a request at the real URL. The Host a request made for
// the stand-in carries is cleared, so the real host is sent; a user in the
// URL becomes basic authentication, as net/http's client would make it.
func (t *transport) retarget(out *http.Request) *http.Request {
	u := *t.target
	if u.User != nil && out.Header.Get("Authorization") == "" {
		pw, _ := u.User.Password()
		out.SetBasicAuth(u.User.Username(), pw)
	}
	u.User = nil
	out.URL, out.Host = &u, ""
	return out
}

// status turns an answer that is not a success into an *Error with the
// status and, when the body says something short, what it says. A 3xx is
// not followed: its Location would be an address to print.
func (t *transport) status(resp *http.Response) *Error {
	text := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
	if text == "" {
		text = http.StatusText(resp.StatusCode)
	}
	reason := strings.TrimSpace(fmt.Sprintf("HTTP %d %s", resp.StatusCode, text))
	if hint := shortHint(t.ep.Scrub(hintOf(resp.Body))); hint != "" {
		reason += ": " + hint
	}
	// Below 500 the service said it did not take the request; a 5xx may
	// come from a proxy after the service took it.
	return &Error{Endpoint: t.ep.name(), Status: resp.StatusCode, Reason: reason, unsent: resp.StatusCode < 500}
}

// hintOf returns what an unsuccessful answer's body says in a few words:
// a JSON-RPC error's message, a JSON message field, or one short line of
// text; "" for anything else (an HTML page, say).
func hintOf(r io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(r, maxHint))
	text := strings.TrimSpace(string(raw))
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &doc) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var plain string
		switch {
		case json.Unmarshal(doc.Error, &inner) == nil && inner.Message != "":
			text = inner.Message
		case json.Unmarshal(doc.Error, &plain) == nil && plain != "":
			text = plain
		default:
			text = doc.Message
		}
	}
	if text == "" || strings.ContainsAny(text, "<\n\r") {
		return ""
	}
	return text
}

// shortHint cuts a hint, already scrubbed, to maxHintLen: cut before, a key
// split by the cut would no longer match the URL's parts, and its first
// characters would stay.
func shortHint(text string) string {
	if len(text) <= maxHintLen {
		return text
	}
	cut := maxHintLen
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}

// failure turns what the transport under this one returned into an
// *Error. during says at which point of the call it happened ("" for
// the request, "reading the answer" for the body).
func (t *transport) failure(err error, during string) *Error {
	reason, cause, unsent := classify(err)
	if reason == "" {
		// Nothing known: the text, with the address taken out.
		reason = "request failed: " + t.ep.Scrub(err.Error())
	}
	if during != "" {
		reason = during + ": " + reason
		unsent = false
	}
	return &Error{Endpoint: t.ep.name(), Reason: reason, cause: cause, unsent: unsent}
}

// classify names a transport failure in words without an address, gives
// the sentinel errors.Is should find, and tells whether the request surely
// did not reach the service.
func classify(err error) (reason string, cause error, unsent bool) {
	var op *net.OpError
	dialed := errors.As(err, &op) && op.Op == "dial"
	var dns *net.DNSError
	var certErr *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled", context.Canceled, dialed
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return "timeout", context.DeadlineExceeded, dialed
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", syscall.ECONNREFUSED, true
	case errors.As(err, &dns) && dns.IsNotFound:
		return "host not found", nil, true
	case errors.As(err, &dns):
		return "name lookup failed", nil, true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable", syscall.EHOSTUNREACH, true
	case errors.As(err, &certErr):
		return "TLS certificate not accepted", nil, true
	case errors.As(err, &header):
		return "TLS handshake failed", nil, true
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset", syscall.ECONNRESET, dialed
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed before the answer", nil, dialed
	}
	return "", nil, dialed
}

// body is a successful answer's body: its read failures are *Error too,
// and closing it ends the request's timeout.
type body struct {
	rc     io.ReadCloser
	t      *transport
	cancel context.CancelFunc
	// left is how much more of the answer may be read, one byte past the
	// bound: an answer of the bound exactly ends before it is spent.
	left int64
}

// maxAnswer bounds a successful answer's body: a node sending without end
// (a defect, or a hostile endpoint) would otherwise have the process hold
// all of it, and the decoder beside it, until its memory is gone, within
// one call's timeout. No answer the service asks for comes near it. (A
// variable, for a test.)
var maxAnswer int64 = 64 << 20

func (b *body) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, &Error{Endpoint: b.t.ep.name(), Reason: fmt.Sprintf("reading the answer: larger than %d MiB, not read further", maxAnswer>>20)}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if err != nil && err != io.EOF {
		return n, b.t.failure(err, "reading the answer")
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.cancel()
	if err != nil {
		return b.t.failure(err, "closing the answer")
	}
	return nil
}
