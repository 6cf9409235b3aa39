// Package endpoint is how the service calls the remote services an operator
// configures (chain RPCs, relays, the metadata upload) without their URLs
// reaching an error, a log line, a stored order or an answer. Providers put
// API keys in those URLs' paths and queries, so a URL is a secret: an
// Endpoint is known by its configured name ("solana rpc", "base relay",
// "metadata upload"), and whatever is said about it names it by that.
//
// Three layers keep a URL out of text:
//   - the clients built here are handed a stand-in address
//     (http://solana-rpc/) and the endpoint's transport puts the real URL on
//     each request as it leaves, so no library ever holds the real URL to
//     print it in an error;
//   - the transport answers every failure as an *Error that names the
//     endpoint and says what happened ("connection refused", "timeout",
//     "HTTP 429 Too Many Requests"), never an address;
//   - Scrub and Endpoint.Clean take any part of the URL out of a text that
//     still carries one, as a last line of defence.
//
// A server the process runs itself (the local chains of `tradeapi up`) may
// register its handler for its exact host:port with ServeInProcess; the
// endpoints' requests to that target then reach the handler without a
// loopback connection. Any other target is dialled.
package endpoint

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"sort"
	"strings"
	"unicode"
)

// Endpoint is a remote service the process calls.
type Endpoint struct {
	// Name is what errors and logs call it: "solana rpc", "base relay".
	Name string
	// URL is where it answers; a secret, never printed.
	URL string
}

// New returns the endpoint name at rawURL.
func New(name, rawURL string) Endpoint { return Endpoint{Name: name, URL: rawURL} }

// String returns the endpoint's name, so that printing an Endpoint with any
// verb never prints its URL.
func (e Endpoint) String() string { return e.name() }

// GoString returns the name too, for %#v.
func (e Endpoint) GoString() string { return "endpoint(" + e.name() + ")" }

// LogValue logs the endpoint as its name.
func (e Endpoint) LogValue() slog.Value { return slog.StringValue(e.name()) }

func (e Endpoint) name() string {
	if e.Name == "" {
		return "endpoint"
	}
	return e.Name
}

// StandIn is the address the endpoint's clients are given in place of its
// URL: http:// and the name as a host ("solana rpc" is
// http://solana-rpc/). The endpoint's transport sends every request to the
// real URL whatever address the request names.
func (e Endpoint) StandIn() string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(e.name()) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	host := strings.TrimSuffix(b.String(), "-")
	if host == "" {
		host = "endpoint"
	}
	return "http://" + host + "/"
}

// Error is a call to an endpoint that failed before the endpoint answered
// it, or that it answered with a status other than success. Its text names
// the endpoint and says what happened, never where the endpoint is.
type Error struct {
	// Endpoint is the endpoint's name.
	Endpoint string
	// Status is the HTTP status of an answer that was not a success; 0
	// when no answer came.
	Status int
	// Reason says what happened: "connection refused", "timeout",
	// "HTTP 429 Too Many Requests".
	Reason string

	// cause is a sentinel without an address (context.DeadlineExceeded,
	// syscall.ECONNREFUSED, ...) for errors.Is; nil when none fits.
	cause error
	// unsent is true when the request surely did not reach the service.
	unsent bool
}

// Error implements error.
func (e *Error) Error() string { return e.Endpoint + ": " + e.Reason }

// Unwrap returns the kind of failure (context.DeadlineExceeded,
// context.Canceled, syscall.ECONNREFUSED, ...), never the transport's own
// error, whose text carries the address.
func (e *Error) Unwrap() error { return e.cause }

// Timeout reports whether the call ran out of time.
func (e *Error) Timeout() bool { return errors.Is(e.cause, context.DeadlineExceeded) }

// Unsent reports whether the request surely did not reach the service: no
// connection was made, or the service answered that it did not take it (a
// 3xx or 4xx status, 429 included). A timeout, a connection lost in the
// middle or a 5xx may have reached it: for a transaction, such a send may
// still land.
func (e *Error) Unsent() bool { return e.unsent }

// Unsent is an *Error of the endpoint named name for an answer in which
// the service said, in its own protocol, that it did not take the request
// (a Solana node's "Node is behind", say): surely unsent, as a 4xx is.
func Unsent(name, reason string) *Error {
	return &Error{Endpoint: name, Reason: reason, unsent: true}
}

// IsUnsent reports whether err is an endpoint's *Error whose request
// surely did not reach the service (see Error.Unsent).
func IsUnsent(err error) bool {
	var ee *Error
	return errors.As(err, &ee) && ee.Unsent()
}

// Clean returns err fit to be said: the *Error it carries when it carries
// one (what a library wrapped around it names only the stand-in address),
// else err itself with the endpoint's URL and stand-in scrubbed from its
// text; errors.Is and errors.As still see the original.
func (e Endpoint) Clean(err error) error {
	if err == nil {
		return nil
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	text := err.Error()
	clean := e.Scrub(text)
	if clean == text {
		return err
	}
	return &scrubbed{err: err, text: clean}
}

// scrubbed is an error whose text had an address taken out.
type scrubbed struct {
	err  error
	text string
}

func (s *scrubbed) Error() string { return s.text }
func (s *scrubbed) Unwrap() error { return s.err }

// Scrub returns text with every part of the endpoint's URL taken out, and
// its stand-in address replaced by its name.
func (e Endpoint) Scrub(text string) string {
	text = strings.ReplaceAll(text, e.StandIn(), e.name())
	text = strings.ReplaceAll(text, strings.TrimSuffix(e.StandIn(), "/"), e.name())
	return scrub(text, e.URL, "["+e.name()+"]")
}

// scrubValue returns v, a JSON-RPC error's decoded data, with every string
// in it (keys of objects included) scrubbed of the endpoint's URL: a
// provider's error may carry the URL in an object, and an error's text may
// print its data whole. Its shape is kept for the callers that read it (a
// simulation's logs, a revert's data).
func (e Endpoint) scrubValue(v any) any {
	switch v := v.(type) {
	case string:
		return e.Scrub(v)
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = e.scrubValue(v[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[e.Scrub(k)] = e.scrubValue(x)
		}
		return out
	}
	return v
}

// Scrub returns text with every part of rawURL taken out: the URL itself in
// its usual spellings, its host and port, user, path, query and fragment,
// and those path segments and query values that could be keys. It is the
// last line of defence for a text that came from somewhere the endpoint's
// transport did not make.
func Scrub(text, rawURL string) string { return scrub(text, rawURL, "[url]") }

const redacted = "[redacted]"

func scrub(text, rawURL, whole string) string {
	if rawURL == "" || text == "" {
		return text
	}
	for _, form := range urlForms(rawURL) {
		text = replaceFold(text, form, whole)
	}
	for _, part := range urlParts(rawURL) {
		text = replaceFold(text, part, redacted)
	}
	return text
}

// replaceFold replaces every piece of text equal to old in any ASCII case:
// a provider's error may echo its key upper- or lower-cased, and a host
// name is the same host in any case.
func replaceFold(text, old, with string) string {
	if old == "" {
		return text
	}
	lower, find := asciiLower(text), asciiLower(old)
	if !strings.Contains(lower, find) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, find)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString(with)
		text, lower = text[i+len(old):], lower[i+len(find):]
	}
}

// asciiLower lower-cases the ASCII letters of s alone, byte by byte, so
// that every byte keeps its place (invalid UTF-8 included).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// urlForms are the spellings of a whole URL, longest first.
func urlForms(rawURL string) []string {
	forms := []string{rawURL, strings.TrimSuffix(rawURL, "/")}
	if u, err := url.Parse(rawURL); err == nil {
		forms = append(forms, u.String(), u.Redacted())
		noQuery := *u
		noQuery.RawQuery, noQuery.Fragment = "", ""
		forms = append(forms, noQuery.String(), strings.TrimSuffix(noQuery.String(), "/"))
		if u.Host != "" {
			forms = append(forms, strings.TrimPrefix(u.String(), u.Scheme+"://"))
		}
	}
	return longestFirst(forms, 1)
}

// urlParts are the pieces of a URL that may appear alone in a text,
// longest first. Hosts, user, full path and query always count; a single
// path segment or query value counts when it could be a key (8 characters
// or more, or holding a digit), and a query value of 4 or more when its
// parameter names a secret ("?apikey=opnsesa"), so that a path such as
// /solana/bundles or a query such as ?network=base does not take the words
// "solana", "bundles" or "base" out of every message.
func urlParts(rawURL string) []string {
	u, err := url.Parse(rawURL)
	if err != nil {
		// Not a URL: all that can be done is to take it out whole.
		return nil
	}
	parts := []string{u.Host, u.Hostname(), u.RawQuery, u.Fragment, u.EscapedPath()}
	if u.Path != "/" {
		parts = append(parts, u.Path)
	}
	if p := u.Port(); p != "" {
		parts = append(parts, ":"+p)
	}
	if u.User != nil {
		parts = append(parts, u.User.String(), u.User.Username())
		if pw, ok := u.User.Password(); ok {
			parts = append(parts, pw)
		}
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if keyLike(seg) {
			parts = append(parts, seg, url.PathEscape(seg))
		}
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			parts = append(parts, k+"="+url.QueryEscape(v))
			if keyLike(v) || len(v) >= 4 && secretParam(k) {
				parts = append(parts, v, url.QueryEscape(v))
			}
		}
	}
	return longestFirst(parts, 4)
}

// secretParam reports whether a query parameter's name says it carries a
// secret: a key, token, password, signature, credential or session.
func secretParam(name string) bool {
	n := asciiLower(name)
	for _, w := range []string{"key", "token", "secret", "auth", "pass", "sig", "cred", "session", "access"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// keyLike reports whether s could be a provider's key: any piece of eight
// characters or more, or with a digit. An operator's own secret may be a
// plain word ("?token=opensesamekey"); the service's own words are kept
// out of what is scrubbed instead (preflight scrubs a line's arguments,
// never its wording).
func keyLike(s string) bool {
	if len(s) < 4 {
		return false
	}
	return len(s) >= 8 || strings.ContainsAny(s, "0123456789")
}

// longestFirst drops duplicates and pieces shorter than minLen, and sorts
// the rest longest first, so that a piece inside another is taken out
// after the one that holds it.
func longestFirst(pieces []string, minLen int) []string {
	seen := make(map[string]bool, len(pieces))
	out := pieces[:0]
	for _, p := range pieces {
		if len(p) < minLen || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}
