// Package client is a Go client of the tradeapi public API, for bots: typed
// requests and answers, the error codes as values, the rate-limit headers of
// every answer, retries only where they are safe, and a verifier of webhook
// signatures. It depends on the standard library only.
//
//	c, err := client.New("http://127.0.0.1:8080", os.Getenv("TRADEAPI_SOL_KEY"), client.WithAutoIdempotencyKey())
//	res, err := c.Swap(ctx, &client.SwapRequest{Address: mint, Side: client.Buy, Amount: "0.1", Slippage: "10",
//		Wallets: []client.SwapWallet{{Address: w1}}})
//	if client.IsCode(err, client.CodeRateLimited) { ... }
//
// A Client talks to one host: a Solana host (EU or US) or the EVM host,
// each with a key of its family.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Headers the API reads and writes.
const (
	HeaderIdempotencyKey = "Idempotency-Key"
	HeaderReplayed       = "Idempotent-Replayed"
	HeaderRequestID      = "X-Request-Id"
	HeaderOrderID        = "X-Order-Id"
	HeaderRetryAfter     = "Retry-After"
)

// MaxIdempotencyKeyLen is the longest Idempotency-Key the API accepts.
const MaxIdempotencyKeyLen = 255

// maxAnswer bounds the bytes read of one answer.
const maxAnswer = 4 << 20

// Window is one rate-budget window as the X-RateLimit-* headers tell it.
type Window struct {
	Limit     int64
	Remaining int64
	// Reset is the time until the window starts again.
	Reset time.Duration
}

// RateLimit is the account's rate budget after a request.
type RateLimit struct {
	Minute, Hour, Week Window
	// RetryAfter is the Retry-After of a 429: the wait until the spent
	// window resets.
	RetryAfter time.Duration
}

// Meta describes an answer.
type Meta struct {
	// Status is the HTTP status.
	Status int
	// RequestID is the answer's X-Request-Id, to quote in a support request.
	RequestID string
	// OrderID names the order a swap or deploy started: the X-Order-Id of
	// an answer, or the order_id a 5xx names in its details. It is kept
	// from an earlier attempt of the same call, so a call that ends in a
	// connection error or its context's end still names the order an
	// earlier answer named. It is also set when the answer is an error or a
	// deploy, whose body carries none.
	OrderID string
	// IdempotencyKey is the Idempotency-Key the call sent (every attempt
	// sends the same), "" when it sent none. Send the same request again
	// with IdempotencyKey(key) to retry the same order: it trades at most
	// once.
	IdempotencyKey string
	// Rate is the rate budget after the request.
	Rate RateLimit
	// Replayed is set when an Idempotency-Key repeat was answered from the
	// first request's stored answer.
	Replayed bool
	// Attempts is how many requests the client sent to get this answer:
	// 1 plus its retries. A swap or a deploy is sent by the client alone;
	// a GET, which changes nothing, may each time be sent once more by
	// net/http's Transport itself, when a reused connection closes before
	// the answer, and that request is not counted.
	Attempts int
}

// Client calls one tradeapi host. It is safe for concurrent use.
type Client struct {
	base       *url.URL
	key        string
	hc         *http.Client
	maxRetries int
	minBackoff time.Duration
	maxBackoff time.Duration
	// maxRateWait is the longest Retry-After of a 429 waited for; 0 does
	// not wait on a 429 at all.
	maxRateWait time.Duration
	autoIdem    bool
	userAgent   string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends requests through a copy of hc instead of a client
// with a 30 s timeout. Its redirects are refused (ErrRedirect) unless hc
// has a CheckRedirect of its own, which is kept.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		own := *hc
		if own.CheckRedirect == nil {
			own.CheckRedirect = refuseRedirect
		}
		c.hc = &own
	}
}

// WithRetries sets how many times a request is retried where that is safe
// and can help (3; 0 turns retries off): a GET, or a swap or deploy under
// an Idempotency-Key, after a connection error, 503 OVERLOADED or
// CHAIN_UNAVAILABLE (answered at once, nothing charged), a 502, 503 or 504
// that is not the API's answer (a proxy's), and, with WithRateLimitWait,
// 429. Never after a replayed answer, 502 BROADCAST_FAILED or 504
// UPSTREAM_TIMEOUT (the key keeps them: a repeat replays the same answer;
// look the order up instead), or 503 VENUE_PAUSED (see Error.Retryable).
// A swap or deploy reaches the host at most n+1 times: the client keeps
// net/http's Transport from sending one again by itself (see
// Meta.Attempts for a GET).
func WithRetries(n int) Option { return func(c *Client) { c.maxRetries = max(n, 0) } }

// WithBackoff sets the pause before the first retry and the longest pause
// (200 ms and 5 s). Each retry doubles the pause, with jitter.
func WithBackoff(first, longest time.Duration) Option {
	return func(c *Client) {
		if first > 0 {
			c.minBackoff = first
		}
		if longest >= c.minBackoff {
			c.maxBackoff = longest
		}
	}
}

// WithRateLimitWait makes the client wait on a 429 for its Retry-After (a
// backoff pause when it has none) and then send the request again, as one
// of its retries (WithRetries), when the call is one it retries: a GET, or
// a swap or deploy sent with an Idempotency-Key (IdempotencyKey or
// WithAutoIdempotencyKey). It does so only when a retry is left, the 429
// is not a replayed answer, and the wait is at most longest and ends
// before the call's context does; otherwise the 429 is returned at once,
// as it always is for a swap or deploy sent without a key. Without this
// option (the default) a 429 is returned at once: for trading, an order
// sent late can be worse than none.
func WithRateLimitWait(longest time.Duration) Option {
	return func(c *Client) { c.maxRateWait = max(longest, 0) }
}

// WithMaxRetryAfter is WithRateLimitWait.
//
// Deprecated: waiting on a 429 is off unless asked for; use
// WithRateLimitWait, whose name says so.
func WithMaxRetryAfter(d time.Duration) Option { return WithRateLimitWait(d) }

// WithAutoIdempotencyKey gives every swap and deploy sent without an
// IdempotencyKey call option a fresh random key, the same for all its
// retries, so that they are retried safely.
func WithAutoIdempotencyKey() Option { return func(c *Client) { c.autoIdem = true } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// New returns a client of the host at baseURL (http://127.0.0.1:8080)
// authenticating with apiKey.
func New(baseURL, apiKey string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		// The value is not repeated: with the arguments swapped it is the
		// API key, and a URL with a user part carries a password.
		return nil, errors.New("tradeapi: base url: want http(s)://host[:port], without a user part")
	}
	if apiKey == "" {
		return nil, errors.New("tradeapi: no API key")
	}
	if strings.ContainsFunc(apiKey, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		// A key read with its line's end, or a space: no header carries it,
		// and no retry will.
		return nil, errors.New("tradeapi: the API key holds a space or a control character (a line's end read with it?)")
	}
	hc := &http.Client{Timeout: 30 * time.Second, CheckRedirect: refuseRedirect, Transport: transport()}
	c := &Client{base: u, key: apiKey, hc: hc, maxRetries: 3,
		minBackoff: 200 * time.Millisecond, maxBackoff: 5 * time.Second,
		userAgent: "tradeapi-go-client/1"}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// idleConnsPerHost is how many idle connections to the host the default
// HTTP client keeps: net/http's default of 2 closed all but two of a
// burst's connections after it, and the next burst opened (and, over TLS,
// negotiated) them again.
const idleConnsPerHost = 64

// transport is the default HTTP client's, one for every Client of the
// process (a client made per call still finds the connections of the
// others): net/http's default transport (proxies from the environment, its
// timeouts, HTTP/2) keeping up to idleConnsPerHost idle connections to
// each host.
var transport = sync.OnceValue(func() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	t.MaxIdleConns = max(t.MaxIdleConns, idleConnsPerHost)
	return t
})

// controlled reports whether s holds a control character other than a
// tab, which no header value may.
func controlled(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f })
}

// ErrRedirect is the error of a call the API answered with a redirect: the
// client follows none (a swap sent again elsewhere, the key with it), and
// says where it pointed, so that the base URL can be set there.
var ErrRedirect = errors.New("tradeapi: the API answered a redirect, which the client does not follow; set the base URL to where it points")

// refuseRedirect is the default HTTP client's CheckRedirect.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("%w (%s)", ErrRedirect, req.URL.Redacted())
}

// CallOption configures one call.
type CallOption func(*call)

type call struct {
	idemKey   string
	requestID string
}

// IdempotencyKey sends the key with a swap or a deploy, in place of the
// key WithAutoIdempotencyKey would make: the call is then retried where
// that is safe, and a repeat of the same key with the same body within 24
// hours gets the first answer without trading again. To retry an order
// whose call failed (its context ended, say), pass the key the failure
// names (IdempotencyKeyOf) with the same request.
func IdempotencyKey(key string) CallOption { return func(c *call) { c.idemKey = key } }

// RequestID sends an X-Request-Id of up to 64 characters, returned in the
// answer and written in the service's logs.
func RequestID(id string) CallOption { return func(c *call) { c.requestID = id } }

// NewIdempotencyKey returns a random key.
func NewIdempotencyKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Ping checks the key against the host.
func (c *Client) Ping(ctx context.Context, opts ...CallOption) (*Pong, error) {
	var out Pong
	meta, err := c.do(ctx, http.MethodGet, "/ping", nil, &out, opts)
	out.Meta = meta
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Wallets lists the account's wallets of the host's family.
func (c *Client) Wallets(ctx context.Context, opts ...CallOption) (*WalletList, error) {
	var out WalletList
	meta, err := c.do(ctx, http.MethodGet, "/api/v1/wallets", nil, &out, opts)
	out.Meta = meta
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Swap sends a swap. Without an Idempotency-Key it is sent once: a
// connection error then leaves it unknown whether the order was taken.
// With one, the result's Meta and every error name the key
// (IdempotencyKeyOf) and the order once an answer named it (OrderIDOf):
// send the same request again with IdempotencyKey(key) to retry it without
// trading twice.
//
// A request must say which wallets trade: Wallets, or AllSpotActive for
// every spot-active wallet. Swap refuses one that says neither, or both,
// with ErrWalletsUnchosen before sending anything.
func (c *Client) Swap(ctx context.Context, req *SwapRequest, opts ...CallOption) (*SwapResult, error) {
	if err := req.checkWallets(); err != nil {
		return nil, err
	}
	var out SwapResult
	meta, err := c.do(ctx, http.MethodPost, "/api/v1/swap", req, &out, opts)
	out.Meta = meta
	if err != nil {
		return nil, err
	}
	if out.Signatures == nil {
		out.Signatures = []string{}
	}
	return &out, nil
}

// Deploy sends a token launch (Solana hosts only). Like Swap, its result's
// Meta and every error name the Idempotency-Key sent and the order, once
// known.
func (c *Client) Deploy(ctx context.Context, req *DeployRequest, opts ...CallOption) (*DeployResult, error) {
	var out DeployResult
	meta, err := c.do(ctx, http.MethodPost, "/api/v1/deploy", req, &out, opts)
	out.Meta = meta
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Order looks an order of the account up.
func (c *Client) Order(ctx context.Context, orderID string, opts ...CallOption) (*Order, error) {
	var out Order
	meta, err := c.do(ctx, http.MethodGet, "/api/v1/orders/"+url.PathEscape(orderID), nil, &out, opts)
	out.Meta = meta
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// WaitOrder looks an order up every poll interval until its state is final
// or ctx ends; bound it with a deadline.
func (c *Client) WaitOrder(ctx context.Context, orderID string, poll time.Duration) (*Order, error) {
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	for {
		o, err := c.Order(ctx, orderID)
		if err != nil {
			return nil, err
		}
		if o.State.Final() {
			return o, nil
		}
		if err := sleep(ctx, poll); err != nil {
			return o, fmt.Errorf("tradeapi: order %s still %s: %w", orderID, o.State, err)
		}
	}
}

// do sends one call with its retries and decodes the data of a success
// into out. Every Meta it returns, and the Meta of every error it returns
// once a request may have been sent (*Error, *RequestError), carries the
// Idempotency-Key sent and the order id learned so far.
func (c *Client) do(ctx context.Context, method, path string, body any, out any, opts []CallOption) (Meta, error) {
	var cl call
	for _, o := range opts {
		o(&cl)
	}
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return Meta{}, fmt.Errorf("tradeapi: %s %s: encode request: %w", method, path, err)
		}
	}
	if method != http.MethodGet && cl.idemKey == "" && c.autoIdem {
		cl.idemKey = NewIdempotencyKey()
	}
	if len(cl.idemKey) > MaxIdempotencyKeyLen {
		return Meta{}, fmt.Errorf("tradeapi: Idempotency-Key longer than %d characters", MaxIdempotencyKeyLen)
	}
	// A header no request can carry fails here, once and before anything
	// is sent, rather than as an attempt that failed to connect, retried.
	if controlled(cl.idemKey) {
		return Meta{}, errors.New("tradeapi: the Idempotency-Key holds a control character (a line's end read with it?)")
	}
	if controlled(cl.requestID) {
		return Meta{}, errors.New("tradeapi: the request id holds a control character")
	}
	// A GET changes nothing; a POST is safe to repeat only under a key.
	safe := method == http.MethodGet || cl.idemKey != ""
	target := c.base.String() + path
	// orderID is the order an answer of this call named; a later attempt
	// that gets no answer must not lose it.
	var orderID string
	failed := func(attempt int, err error) (Meta, error) {
		meta := Meta{IdempotencyKey: cl.idemKey, OrderID: orderID, Attempts: attempt}
		return meta, &RequestError{Method: method, Path: path, Meta: meta, Err: err}
	}
	for attempt := 1; ; attempt++ {
		var rd io.Reader
		if raw != nil {
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequestWithContext(ctx, method, target, rd)
		if err != nil {
			return Meta{}, fmt.Errorf("tradeapi: %s %s: %w", method, path, err)
		}
		req.Header.Set("Authorization", "Bearer "+c.key)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", c.userAgent)
		if raw != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if cl.idemKey != "" {
			req.Header.Set(HeaderIdempotencyKey, cl.idemKey)
			// net/http's Transport sends a request with an Idempotency-Key
			// and a rewindable body again by itself when a reused
			// connection closes before the answer. Without GetBody it
			// cannot: every request sent is one of this loop's attempts,
			// counted in Attempts and bounded by WithRetries.
			req.GetBody = nil
		}
		if cl.requestID != "" {
			req.Header.Set(HeaderRequestID, cl.requestID)
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return failed(attempt, ctx.Err())
			}
			if safe && attempt <= c.maxRetries && !errors.Is(err, ErrRedirect) {
				if serr := sleep(ctx, c.backoff(attempt)); serr != nil {
					return failed(attempt, fmt.Errorf("%w (after %v)", serr, err))
				}
				continue
			}
			return failed(attempt, err)
		}
		if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
			// A redirect the HTTP client did not follow (a keyed request's
			// body cannot be sent again by it, or a caller's client).
			resp.Body.Close()
			return failed(attempt, fmt.Errorf("%w (%d to %s)", ErrRedirect, resp.StatusCode, resp.Header.Get("Location")))
		}
		meta := parseMeta(resp)
		meta.Attempts = attempt
		meta.IdempotencyKey = cl.idemKey
		if meta.OrderID != "" {
			orderID = meta.OrderID
		}
		meta.OrderID = orderID
		data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		resp.Body.Close()
		if rerr != nil {
			// An answer cut off: sent again only where the repeat cannot
			// trade (a GET, or a keyed call the service answered 2xx, which
			// the key replays). An error's code is lost with its body, and
			// a 429, 503 VENUE_PAUSED or 504 is never sent again.
			ok2xx := resp.StatusCode >= 200 && resp.StatusCode <= 299
			if safe && (method == http.MethodGet || ok2xx) && attempt <= c.maxRetries && ctx.Err() == nil {
				if serr := sleep(ctx, c.backoff(attempt)); serr == nil {
					continue
				}
			}
			return meta, &RequestError{Method: method, Path: path, Meta: meta, Err: fmt.Errorf("read %d answer: %w", resp.StatusCode, rerr)}
		}
		if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			var env struct {
				Success bool            `json:"success"`
				Data    json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(data, &env); err != nil || !env.Success {
				return meta, &RequestError{Method: method, Path: path, Meta: meta,
					Err: fmt.Errorf("%d answer is not the API's success envelope", resp.StatusCode)}
			}
			if out != nil {
				if err := json.Unmarshal(env.Data, out); err != nil {
					return meta, &RequestError{Method: method, Path: path, Meta: meta, Err: fmt.Errorf("decode answer: %w", err)}
				}
			}
			return meta, nil
		}
		apiErr := newError(resp.StatusCode, data, meta)
		if apiErr.OrderID != "" {
			orderID = apiErr.OrderID
		}
		apiErr.OrderID = orderID
		apiErr.Meta.OrderID = orderID
		meta = apiErr.Meta
		if !safe || attempt > c.maxRetries {
			return meta, apiErr
		}
		wait, again := c.retryWait(apiErr, attempt)
		if !again {
			return meta, apiErr
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return meta, apiErr
		}
		if err := sleep(ctx, wait); err != nil {
			return meta, apiErr
		}
	}
}

// retryWait decides whether a request answered e is sent again, and after
// what pause: a 429 only when the caller asked to wait (WithRateLimitWait)
// and for at most that long, other answers as Error.Retryable says. A
// retryable answer with a Retry-After (the service sends one only with a
// 429; a proxy's 502, 503 or 504 may) is not sent again before it, and is
// returned at once when it asks for longer than the longest backoff.
func (c *Client) retryWait(e *Error, attempt int) (time.Duration, bool) {
	if e.Status != http.StatusTooManyRequests {
		wait := c.backoff(attempt)
		if after := e.Meta.Rate.RetryAfter; after > wait {
			return after, e.Retryable() && after <= c.maxBackoff
		}
		return wait, e.Retryable()
	}
	if c.maxRateWait <= 0 || e.Meta.Replayed {
		return 0, false
	}
	wait := e.Meta.Rate.RetryAfter
	if wait <= 0 {
		wait = c.backoff(attempt)
	}
	return wait, wait <= c.maxRateWait
}

// backoff is the pause after a failed attempt: doubling from minBackoff up
// to maxBackoff, between half and all of it at random.
func (c *Client) backoff(attempt int) time.Duration {
	// Doubled while that stays under the longest pause: a long first
	// pause shifted far would overflow.
	d := min(c.minBackoff, c.maxBackoff)
	for i := 1; i < attempt && d < c.maxBackoff; i++ {
		if d > c.maxBackoff/2 {
			d = c.maxBackoff
		} else {
			d *= 2
		}
	}
	half := d / 2
	return half + mathrand.N(half+1)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// parseMeta reads an answer's request id, replay mark and rate headers.
func parseMeta(resp *http.Response) Meta {
	h := resp.Header
	m := Meta{Status: resp.StatusCode, RequestID: h.Get(HeaderRequestID), OrderID: h.Get(HeaderOrderID),
		Replayed: strings.EqualFold(h.Get(HeaderReplayed), "true")}
	for _, w := range []struct {
		name string
		dst  *Window
	}{{"Minute", &m.Rate.Minute}, {"Hour", &m.Rate.Hour}, {"Week", &m.Rate.Week}} {
		w.dst.Limit = headerInt(h, "X-RateLimit-Limit-"+w.name)
		w.dst.Remaining = headerInt(h, "X-RateLimit-Remaining-"+w.name)
		w.dst.Reset = time.Duration(headerInt(h, "X-RateLimit-Reset-"+w.name)) * time.Second
	}
	m.Rate.RetryAfter = retryAfter(h.Get(HeaderRetryAfter), time.Now())
	return m
}

// retryAfter reads a Retry-After in either of its forms: seconds, as the
// service sends it, or an HTTP date, as a proxy in front of it may.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		// A day at most: past it the product would overflow, and no
		// wait that long is meant.
		return time.Duration(min(max(n, 0), 86400)) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		// Never short of the date: a wait rounded down would send again
		// before it.
		return at.Sub(now)
	}
	return 0
}

func headerInt(h http.Header, name string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
