package envelope

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nuid"
)

// RequestIDHeader names the header that carries a request's id, the
// client's or one made for it, on every answer.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDLen bounds a client's request id kept as given.
const maxRequestIDLen = 64

// TagRequest sets the answer's X-Request-Id and returns it: the client's
// when it gave one of at most 64 printable ASCII characters (spaces
// included), else a fresh one. An id that is echoed and logged carries no
// control byte and nothing that is not ASCII (bytes that are not UTF-8
// among them).
func TagRequest(c *gin.Context) string {
	rid := c.GetHeader(RequestIDHeader)
	if rid == "" || len(rid) > maxRequestIDLen || strings.ContainsFunc(rid, func(r rune) bool { return r < ' ' || r > '~' }) {
		rid = "req-" + nuid.Next()
	}
	c.Writer.Header()[RequestIDHeader] = []string{rid}
	return rid
}

// EscapedSlash reports whether the request's path holds an escaped slash
// (%2F): routed on the decoded path it would be a separator, and
// /api%2Fv1%2Fswap a swap. No route or id of the service has one, so such
// a path is answered 404 (every other escape, %77allets or %20, is read as
// what it stands for).
func EscapedSlash(c *gin.Context) bool {
	// RawPath is set only when the path as sent is not the decoded path's
	// own encoding, which never holds %2F: most requests read nothing.
	p := c.Request.URL.RawPath
	return p != "" && (strings.Contains(p, "%2F") || strings.Contains(p, "%2f"))
}

// Bearer returns the request's Bearer token; "" when there is none, or
// when two Authorization headers differ: a proxy reading the other one
// would disagree about whose request it is.
func Bearer(c *gin.Context) string {
	if vals := c.Request.Header.Values("Authorization"); len(vals) > 1 && slices.ContainsFunc(vals[1:], func(v string) bool { return v != vals[0] }) {
		return ""
	}
	// The scheme is case-insensitive (RFC 9110, section 11.1).
	auth := c.GetHeader("Authorization")
	if len(auth) > 7 && strings.EqualFold(auth[:7], "Bearer ") {
		return strings.TrimSpace(auth[7:])
	}
	return ""
}
