package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/registry/console"
)

// guardBrowser keeps the admin API safe from cross-site request forgery
// now that a browser console drives it.
//
// The API has no ambient credential: it authenticates by the Bearer admin
// token in the Authorization header, which a browser never attaches by
// itself (unlike a cookie), and the console keeps that token in its own
// origin's sessionStorage, out of any other site's reach. A forged request
// from another site therefore arrives without the token and gets 401. The
// guard adds two checks on top, for requests a browser made (those with an
// Origin or Sec-Fetch-Site header; the CLI and bots send neither, and a
// forgery needs a victim's browser):
//
//   - the request must come from the listener's own origin: a cross-site
//     Origin, or Sec-Fetch-Site other than same-origin or none, is refused
//     before the token is even looked at, so another site cannot use the
//     operator's browser to probe tokens either;
//   - every state-changing call (anything but GET and HEAD) must carry
//     console.CSRFHeader: 1. A custom header cannot be set by an HTML form
//     and forces a CORS preflight on a cross-origin fetch, which this API
//     never grants (it sends no Access-Control-Allow-* header), so only
//     the console's own script can send it. RequireJSON already refuses the
//     form encodings a "simple" cross-site request could use.
func (r *Registry) guardBrowser(c *gin.Context) {
	req := c.Request
	origin, site := req.Header.Get("Origin"), req.Header.Get("Sec-Fetch-Site")
	if origin == "" && site == "" {
		c.Next()
		return
	}
	if site != "" && site != "same-origin" && site != "none" {
		r.refuseBrowser(c, "Sec-Fetch-Site", "cross-site request refused")
		return
	}
	if origin != "" && !sameOrigin(origin, req) {
		r.refuseBrowser(c, "Origin", "cross-origin request refused")
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead && req.Header.Get(console.CSRFHeader) != "1" {
		r.refuseBrowser(c, console.CSRFHeader, "a browser's state-changing call must carry "+console.CSRFHeader+": 1")
		return
	}
	c.Next()
}

// sameOrigin reports whether origin names the host the request was sent to,
// over the scheme it arrived on.
func sameOrigin(origin string, req *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // includes "null", an opaque origin
	}
	scheme := "http"
	if req.TLS != nil {
		scheme = "https"
	}
	return strings.EqualFold(u.Scheme, scheme) && strings.EqualFold(u.Host, req.Host)
}

func (r *Registry) refuseBrowser(c *gin.Context, header, msg string) {
	// Only the header's name and the request line: a refused request may
	// still carry a token, which never reaches a log.
	r.log.Warn("admin api: browser request refused", "reason", msg, "header", header,
		"method", c.Request.Method, "path", c.FullPath())
	envelope.Fail(c, &apierr.Error{Code: apierr.Forbidden, Message: msg, Details: header})
}
