// Package console is the account manager's web console: a small static
// bundle (one HTML page, one script, one style sheet) embedded in the
// binary and served by the registry on the admin listener at /console/.
//
// The console holds no data path of its own. Its script calls the same
// admin API (/admin/v1) as the `tradeapi admin` CLI, with the admin token
// that the operator types in, kept in the tab's sessionStorage only: never
// in a URL, a cookie or localStorage, and gone when the tab closes. Every
// state-changing call also carries CSRFHeader (see the registry's browser
// guard for why that, and no cookie, is what makes the API CSRF-safe).
//
// The pages are served under a strict Content-Security-Policy (CSP): no
// inline script or style, nothing fetched from anywhere but the listener
// itself, no framing, no form submission.
package console

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// Prefix is the path the console is served under.
const Prefix = "/console/"

// CSRFHeader must be sent, with the value "1", on every state-changing
// admin call that a browser makes.
const CSRFHeader = "X-Tradeapi-Csrf"

// CSP is the Content-Security-Policy of every console response.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

//go:embed static
var files embed.FS

// static is the bundle with the static/ folder as its root.
var static = func() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the folder is embedded above; it cannot be missing
	}
	return sub
}()

// Owns reports whether a request path belongs to the console.
func Owns(path string) bool { return path == "/console" || strings.HasPrefix(path, Prefix) }

// SecurityHeaders sets the headers every console and admin API answer
// carries: the console's CSP, no MIME sniffing, no Referer leaving the
// page (an explorer link must not learn the admin listener's address), and
// no framing.
func SecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// Handler serves the bundle: GET and HEAD only, /console redirected to
// /console/, and every file revalidated on each load so that a new binary's
// bundle is picked up at once.
func Handler() http.Handler {
	files := http.StripPrefix(strings.TrimSuffix(Prefix, "/"), http.FileServerFS(static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SecurityHeaders(w.Header())
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == "/console" {
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
