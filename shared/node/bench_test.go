package node

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkBuyPipeline sends one-wallet buys through the whole service in
// one process (HTTP, budget, JetStream, worker, broadcaster, local chain),
// one at a time, and reports the latency percentiles.
func BenchmarkBuyPipeline(b *testing.B) {
	t := &testing.T{}
	u, cfg := startUp(t, nil)
	defer func() {
		if t.Failed() {
			b.Fatal("service failed")
		}
	}()
	key := u.Demo.SolKey
	var mint string
	for _, tk := range u.Demo.Tokens {
		if tk.Venue == "pump_fun" {
			mint = tk.Address
		}
	}
	admin := "http://" + cfg.Listen.Admin
	do(t, "PUT", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/limits", u.Secrets.AdminToken,
		map[string]any{"family": "sol", "minute": 1_000_000_000, "hour": 1_000_000_000, "week": 1_000_000_000})
	wallet := u.Demo.Wallets[0].Address
	body := fmt.Sprintf(`{"address":%q,"side":"Buy","amount":"0.00001","slippage":50,"wallets":[{"address":%q}]}`, mint, wallet)
	url := "http://" + cfg.Listen.SolEU + "/api/v1/swap"
	client := &http.Client{Timeout: 10 * time.Second}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		lat = append(lat, time.Since(start))
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
