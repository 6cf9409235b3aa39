package ingress

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/budget"
)

// BenchmarkBareGin is the floor the wallet listing is measured against: a
// gin.New() handler writing a fixed JSON body, no middleware.
func BenchmarkBareGin(b *testing.B) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	body := []byte(`{"success":true,"data":{"wallets":[{"address":"` + solW1 + `","label":"W1","spot_active":true}]}}`)
	r.GET("/api/v1/wallets", func(c *gin.Context) { c.Data(http.StatusOK, "application/json", body) })
	serve(b, r, "/api/v1/wallets", "")
}

// BenchmarkWalletListing is GET /api/v1/wallets through the whole listener:
// request id, default and account rate headers, authentication, metrics.
func BenchmarkWalletListing(b *testing.B) {
	h := newHarness(b, budget.DefaultLimits, allChains{})
	serve(b, h.euH, "/api/v1/wallets", solKey)
}

// BenchmarkPing is GET /ping through the whole listener.
func BenchmarkPing(b *testing.B) {
	h := newHarness(b, budget.DefaultLimits, allChains{})
	serve(b, h.euH, "/ping", solKey)
}

func serve(b *testing.B, h http.Handler, path, key string) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest("GET", path, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		w := &discardWriter{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			w.code = 0
			h.ServeHTTP(w, req)
			if w.code != http.StatusOK {
				b.Fatalf("status %d", w.code)
			}
		}
	})
}

// discardWriter is a ResponseWriter that keeps only the status, so the
// benchmark measures the handler and not a recorder's copies.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return len(b), nil
}
func (w *discardWriter) WriteHeader(code int) { w.code = code }
