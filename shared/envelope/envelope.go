// Package envelope renders every HTTP answer of the public and admin APIs:
// the success envelope, the error envelope, and the Gin engine whose
// middleware keeps every failure inside that envelope (404, 405, 413, 415,
// panics), so a client never sees a text/plain body or a stack trace.
package envelope

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// MaxBody is the largest request body accepted.
const MaxBody = 64 << 10

// errorEnvelope is the body of every failed response.
type errorEnvelope struct {
	Success bool        `json:"success"`
	Error   apierr.Body `json:"error"`
}

type okEnvelope struct {
	Success bool `json:"success"`
	Data    any  `json:"data"`
}

// OK writes the success envelope around data.
func OK(c *gin.Context, status int, data any) {
	c.Render(status, jsonRender{v: okEnvelope{Success: true, Data: data}})
}

// Fail writes err as the error envelope and aborts the chain. An error that
// carries no public code is answered as INTERNAL and logged with its cause.
func Fail(c *gin.Context, err error) {
	if ClientGone(c, err) {
		failClientGone(c, err)
		return
	}
	e := apierr.From(err)
	if e.Code == apierr.Internal {
		if log := loggerOf(c); log != nil {
			log.Error("internal error", "path", c.FullPath(), "err", err)
		}
	}
	render(c, e)
}

// failClientGone answers a request its client closed before its answer,
// err being what the client's leaving ended. Nobody reads this answer; its
// status keeps the client's leaving out of the service's errors, and
// nothing is logged above debug.
func failClientGone(c *gin.Context, err error) {
	if log := loggerOf(c); log != nil {
		log.Debug("client closed the request", "path", c.FullPath(), "err", err)
	}
	render(c, &apierr.Error{Code: apierr.Overloaded, HTTPStatus: StatusClientClosed,
		Message: "the client closed the request before it was answered"})
}

// render writes e as the error envelope and aborts the chain.
func render(c *gin.Context, e *apierr.Error) {
	c.Set(codeKey, string(e.Code))
	c.Abort()
	c.Render(e.Status(), jsonRender{v: errorEnvelope{Success: false, Error: e.Body()}})
}

// StatusClientClosed is the status of the answer to a request whose client
// closed it first (nginx's 499): nobody reads it, and it keeps a bot's
// timeouts out of the 5xx answers the service's alerts count.
const StatusClientClosed = 499

// ClientGone reports whether err is the request's own context ending
// because its client closed the request, rather than a failure of the
// service. Only a cancellation counts: the service's own time bounds end
// a call with context.DeadlineExceeded, which stays the service's failure
// whether or not the client is still there (a store that hangs while the
// bots' own timeouts are shorter must still be seen).
func ClientGone(c *gin.Context, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(context.Cause(c.Request.Context()), context.Canceled)
}

// Code returns the error code written for this request, or "" on success.
func Code(c *gin.Context) string { return c.GetString(codeKey) }

const (
	codeKey   = "tapi.code"
	loggerKey = "tapi.log"
)

func loggerOf(c *gin.Context) *slog.Logger {
	if v, ok := c.Get(loggerKey); ok {
		return v.(*slog.Logger)
	}
	return nil
}

// jsonRender writes JSON without HTML escaping and without gin's content
// negotiation.
type jsonRender struct{ v any }

func (r jsonRender) Render(w http.ResponseWriter) error {
	r.WriteContentType(w)
	b, err := json.Marshal(r.v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (r jsonRender) WriteContentType(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
}

// Engine returns a gin engine with the middleware every API listener needs:
// panic recovery into INTERNAL, 404 and 405 envelopes, and body checks
// (64 KiB, JSON content type on requests with a body).
func Engine(log *slog.Logger) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	// No proxy in front of the API is trusted unless configured.
	_ = r.SetTrustedProxies(nil)
	r.Use(func(c *gin.Context) {
		c.Set(loggerKey, log)
		defer func() {
			if p := recover(); p != nil {
				if errors.Is(asErr(p), http.ErrAbortHandler) {
					panic(p)
				}
				log.Error("panic in handler", "path", c.FullPath(), "panic", p)
				Fail(c, apierr.New(apierr.Internal, ""))
			}
		}()
		c.Next()
	})
	r.NoRoute(func(c *gin.Context) {
		Fail(c, apierr.New(apierr.NotFound, "no such path"))
	})
	r.NoMethod(func(c *gin.Context) {
		Fail(c, apierr.New(apierr.MethodNotAllowed, "method "+c.Request.Method+" is not allowed on this path"))
	})
	return r
}

func asErr(p any) error {
	if err, ok := p.(error); ok {
		return err
	}
	return nil
}

// RequireJSON is middleware for routes that take a body: 415 without a JSON
// content type (two that differ are none) or with a content coding, 413 over MaxBody. It reads the whole body, so handlers decode
// from ReadBody. A body its client stopped sending by closing the connection
// is answered 499, as any request its client left; one that cannot be read
// otherwise (malformed chunks, the body timeout passing) is answered 400.
func RequireJSON() gin.HandlerFunc {
	return func(c *gin.Context) {
		ct := c.GetHeader("Content-Type")
		if vals := c.Request.Header.Values("Content-Type"); len(vals) > 1 && slices.ContainsFunc(vals[1:], func(v string) bool { return v != vals[0] }) {
			// Two types: a proxy reading the other one would read another
			// body than this service does.
			ct = ""
		}
		mt, params, err := mime.ParseMediaType(ct)
		// JSON is UTF-8 (RFC 8259): a body announced in another charset
		// would be read as something it is not.
		cs, hasCharset := params["charset"]
		if err != nil || !strings.EqualFold(mt, "application/json") || hasCharset && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
			Fail(c, &apierr.Error{Code: apierr.InvalidRequest, HTTPStatus: http.StatusUnsupportedMediaType,
				Message: "Content-Type must be application/json (in UTF-8, when a charset is given)", Details: "Content-Type"})
			return
		}
		// A compressed body is not decoded: read as it stands it would be
		// refused as malformed, or, labelled so but sent plain, traded as
		// if the label meant nothing.
		if ce := c.GetHeader("Content-Encoding"); ce != "" && !strings.EqualFold(strings.TrimSpace(ce), "identity") {
			Fail(c, &apierr.Error{Code: apierr.InvalidRequest, HTTPStatus: http.StatusUnsupportedMediaType,
				Message: "Content-Encoding is not supported: send the body uncompressed", Details: "Content-Encoding"})
			return
		}
		if c.Request.ContentLength > MaxBody {
			Fail(c, tooLarge())
			return
		}
		body, err := readLimited(c.Request, MaxBody)
		if err != nil {
			var mbe *http.MaxBytesError
			switch {
			case errors.As(err, &mbe):
				Fail(c, tooLarge())
			case cutByClient(c.Request, err):
				failClientGone(c, err)
			default:
				Fail(c, apierr.Invalid("body", "the request body could not be read"))
			}
			return
		}
		// A byte order mark before the JSON text is ignored, as RFC 8259
		// lets a parser do: some clients' encoders write one.
		c.Set(bodyKey, bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
		c.Next()
	}
}

func tooLarge() *apierr.Error {
	return &apierr.Error{Code: apierr.InvalidRequest, HTTPStatus: http.StatusRequestEntityTooLarge,
		Message: "the request body is over 64 KiB", Details: "body"}
}

const bodyKey = "tapi.body"

// ReadBody returns the body read by RequireJSON.
func ReadBody(c *gin.Context) []byte {
	if v, ok := c.Get(bodyKey); ok {
		return v.([]byte)
	}
	return nil
}
