package service

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// benchUp starts the whole service in one process for a benchmark, with
// the demo account's Solana budget out of the way.
func benchUp(b *testing.B) (*Up, config.Config, func()) {
	t := &testing.T{}
	u, cfg := startUp(t, nil)
	admin := "http://" + cfg.Listen.Admin
	do(t, "PUT", admin+"/admin/v1/accounts/"+u.Demo.AccountID+"/limits", u.Secrets.AdminToken,
		map[string]any{"family": "sol", "minute": 1_000_000_000, "hour": 1_000_000_000, "week": 1_000_000_000})
	return u, cfg, func() {
		if t.Failed() {
			b.Fatal("service failed")
		}
	}
}

// timeRequests posts body to url once per benchmark iteration, one at a
// time, and reports the latency percentiles.
func timeRequests(b *testing.B, url, key string, body func() string) {
	client := &http.Client{Timeout: 30 * time.Second}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body()))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		// Read to the end, as a client does, so that the connection is
		// kept for the next request instead of dialled again.
		_, _ = io.Copy(io.Discard, resp.Body)
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

// BenchmarkBuyPipeline sends one-wallet buys through the whole service in
// one process (HTTP, budget, JetStream, worker, broadcaster, local chain),
// one at a time, and reports the latency percentiles.
func BenchmarkBuyPipeline(b *testing.B) {
	u, cfg, check := benchUp(b)
	defer check()
	var mint string
	for _, tk := range u.Demo.Tokens {
		if tk.Venue == "pump_fun" {
			mint = tk.Address
		}
	}
	wallet := u.Demo.Wallets[0].Address
	body := fmt.Sprintf(`{"address":%q,"side":"Buy","amount":"0.00001","slippage":50,"wallets":[{"address":%q}]}`, mint, wallet)
	timeRequests(b, "http://"+cfg.Listen.SolEU+"/api/v1/swap", u.Demo.SolKey, func() string { return body })
}

// BenchmarkDeployPipeline launches a pump.fun coin with the creator's buy
// and two wallet buys through the whole service, one at a time, in each
// bundle mode: the time from the request to the answer, which comes once
// every bundle landed.
func BenchmarkDeployPipeline(b *testing.B) {
	u, cfg, check := benchUp(b)
	defer check()
	var w []string
	for _, x := range u.Demo.Wallets {
		if x.Family == wire.FamilySol {
			w = append(w, x.Address)
		}
	}
	for _, mode := range []string{"packed", "non_packed", "sniper"} {
		b.Run(mode, func(b *testing.B) {
			body := fmt.Sprintf(`{"wallet_address":%q,"metadata":{"name":"Bench","symbol":"BNCH"},
				"configs":[{"dex":"pump_fun"}],"creator_buy_sol_amount":1000000,
				"buys":[{"wallet_address":%q,"sol_amount":1000000},{"wallet_address":%q,"sol_amount":1000000}],
				"bundle_mode":%q,"jito_tip":1000,"slippage_bps":500}`, w[0], w[1], w[2], mode)
			timeRequests(b, "http://"+cfg.Listen.SolEU+"/api/v1/deploy", u.Demo.SolKey, func() string { return body })
		})
	}
}
