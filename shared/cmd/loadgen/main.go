// Command loadgen measures the service over loopback with bounded load:
// it starts the whole service in this process (embedded NATS, local Solana
// chain) on free 127.0.0.1 ports with a scratch data folder, prepares a
// funded account, runs the chosen scenarios, prints the figures and stops.
//
//	go run ./shared/cmd/loadgen -scenario all
//
// Scenarios:
//
//	listing     GET /api/v1/wallets against a bare gin handler, closed loop
//	latency     one-wallet buys at a fixed rate (open loop): p50, p99
//	throughput  one-wallet buys at a higher fixed rate: achieved rate, errors
//	evm         one-wallet EVM buys on base at a fixed rate (open loop): p50, p99
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/client"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/service"
)

func main() {
	scenario := flag.String("scenario", "all", "listing, latency, throughput, evm or all")
	evmRate := flag.Int("evm-rate", 50, "requests per second of the evm scenario")
	dur := flag.Duration("duration", 10*time.Second, "how long each scenario runs (at most 60s)")
	latRate := flag.Int("latency-rate", 200, "requests per second of the latency scenario")
	thrRate := flag.Int("throughput-rate", 1500, "requests per second of the throughput scenario")
	conns := flag.Int("conns", 32, "connections of the closed-loop listing scenario")
	wallets := flag.Int("wallets", 64, "wallets the buys rotate over")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *dur > time.Minute {
		*dur = time.Minute
	}
	if err := run(*scenario, *dur, *latRate, *thrRate, *evmRate, *conns, *wallets); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func run(scenario string, dur time.Duration, latRate, thrRate, evmRate, conns, nWallets int) error {
	dir, err := os.MkdirTemp("", "tradeapi-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Listen = config.Listen{SolEU: freeAddr(), SolUS: freeAddr(), EVM: freeAddr(), Admin: freeAddr(), Metrics: freeAddr()}
	cfg.Devnet.Addr = freeAddr()
	cfg.LogLevel = "error"
	u := service.NewUp(cfg, service.NewLogger(cfg, io.Discard), io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- u.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	select {
	case <-u.Ready():
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		return errors.New("service not ready")
	}

	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4096, MaxConnsPerHost: 0, IdleConnTimeout: time.Minute},
		Timeout: 30 * time.Second}
	admin := &adminAPI{base: "http://" + cfg.Listen.Admin, token: u.Secrets.AdminToken, c: httpClient}
	key, wallets, err := admin.prepare(nWallets)
	if err != nil {
		return fmt.Errorf("prepare account: %w", err)
	}
	var mint string
	for _, t := range u.Demo.Tokens {
		if t.Venue == "pump_fun" {
			mint = t.Address
		}
	}
	fmt.Printf("loadgen: %d wallets, mint %s, %s per scenario\n", len(wallets), mint, dur)
	base := "http://" + cfg.Listen.SolEU
	if scenario == "listing" || scenario == "all" {
		listing(httpClient, base, key, conns, dur)
	}
	// The swaps go through the Go client, without retries: a retry would
	// hide the latency and the errors being measured.
	sol, err := client.New(base, key, client.WithHTTPClient(httpClient), client.WithRetries(0))
	if err != nil {
		return err
	}
	var next atomic.Int64
	buy := func() (int, error) {
		w := wallets[int(next.Add(1))%len(wallets)]
		return swap(sol, &client.SwapRequest{Address: mint, Side: client.Buy, Amount: "0.0001", Slippage: "50",
			Wallets: []client.SwapWallet{{Address: w}}})
	}
	if scenario == "latency" || scenario == "all" {
		openLoop("latency", latRate, dur, buy)
	}
	if scenario == "throughput" || scenario == "all" {
		openLoop("throughput", thrRate, dur, buy)
	}
	if scenario == "evm" || scenario == "all" {
		var token string
		for _, t := range u.Demo.Tokens {
			if t.Chain == "base" && t.Venue == "v2" {
				token = t.Address
			}
		}
		evmKey, evmWallets, err := admin.prepareEVM(16)
		if err != nil {
			return fmt.Errorf("prepare evm wallets: %w", err)
		}
		evm, err := client.New("http://"+cfg.Listen.EVM, evmKey, client.WithHTTPClient(httpClient), client.WithRetries(0))
		if err != nil {
			return err
		}
		var n atomic.Int64
		openLoop("evm", evmRate, dur, func() (int, error) {
			w := evmWallets[int(n.Add(1))%len(evmWallets)]
			return swap(evm, &client.SwapRequest{Address: token, Side: client.Buy, Amount: "0.0001", Chain: "base",
				Slippage: "50", Wallets: []client.SwapWallet{{Address: w}}})
		})
	}
	stages(httpClient, "http://"+cfg.Listen.Metrics+"/metrics")
	return nil
}

type adminAPI struct {
	base, token string
	c           *http.Client
}

func (a *adminAPI) call(method, path string, body any, out any) error {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, a.base+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	var env struct{ Data json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil {
		return err
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// prepare makes an account with funded wallets, limits high enough not to
// be the subject of the measurement, and an API key.
func (a *adminAPI) prepare(n int) (string, []string, error) {
	var acct struct{ ID string }
	if err := a.call("POST", "/admin/v1/accounts", map[string]any{"name": "load"}, &acct); err != nil {
		return "", nil, err
	}
	var ws struct {
		Wallets []struct{ Address string }
	}
	if err := a.call("POST", "/admin/v1/accounts/"+acct.ID+"/wallets", map[string]any{"family": "sol", "count": n}, &ws); err != nil {
		return "", nil, err
	}
	var out []string
	for _, w := range ws.Wallets {
		if err := a.call("POST", "/admin/v1/devnet/fund", map[string]any{"chain": "solana", "address": w.Address, "amount": "1000"}, nil); err != nil {
			return "", nil, err
		}
		out = append(out, w.Address)
	}
	if err := a.call("PUT", "/admin/v1/accounts/"+acct.ID+"/limits", map[string]any{"family": "sol", "minute": 1000000000, "hour": 1000000000, "week": 1000000000}, nil); err != nil {
		return "", nil, err
	}
	var k struct{ Key string }
	if err := a.call("POST", "/admin/v1/accounts/"+acct.ID+"/keys", map[string]any{"family": "sol", "name": "load"}, &k); err != nil {
		return "", nil, err
	}
	return k.Key, out, nil
}

// prepareEVM makes EVM wallets funded on base, and an EVM key, on the
// account prepare made.
func (a *adminAPI) prepareEVM(n int) (string, []string, error) {
	var list struct {
		Accounts []struct{ ID, Name string }
	}
	if err := a.call("GET", "/admin/v1/accounts", nil, &list); err != nil {
		return "", nil, err
	}
	id := ""
	for _, ac := range list.Accounts {
		if ac.Name == "load" {
			id = ac.ID
		}
	}
	var ws struct {
		Wallets []struct{ Address string }
	}
	if err := a.call("POST", "/admin/v1/accounts/"+id+"/wallets", map[string]any{"family": "evm", "count": n}, &ws); err != nil {
		return "", nil, err
	}
	var out []string
	for _, w := range ws.Wallets {
		if err := a.call("POST", "/admin/v1/devnet/fund", map[string]any{"chain": "base", "address": w.Address, "amount": "100"}, nil); err != nil {
			return "", nil, err
		}
		out = append(out, w.Address)
	}
	if err := a.call("PUT", "/admin/v1/accounts/"+id+"/limits", map[string]any{"family": "evm", "minute": 1000000000, "hour": 1000000000, "week": 1000000000}, nil); err != nil {
		return "", nil, err
	}
	var k struct{ Key string }
	if err := a.call("POST", "/admin/v1/accounts/"+id+"/keys", map[string]any{"family": "evm", "name": "load"}, &k); err != nil {
		return "", nil, err
	}
	return k.Key, out, nil
}

// swap sends one swap and returns the answer's HTTP status, or the error
// of a request that got no answer.
func swap(c *client.Client, req *client.SwapRequest) (int, error) {
	res, err := c.Swap(context.Background(), req)
	if err == nil {
		return res.Meta.Status, nil
	}
	var apiErr *client.Error
	if errors.As(err, &apiErr) {
		return apiErr.Status, nil
	}
	return 0, err
}

func get(c *http.Client, url, key string) (int, error) {
	req, _ := http.NewRequest("GET", url, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// listing compares the wallet listing with a bare gin handler serving the
// same body, each closed loop over conns connections for dur.
func listing(c *http.Client, base, key string, conns int, dur time.Duration) {
	_, body := fetch(c, base+"/api/v1/wallets", key)
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/api/v1/wallets", func(ctx *gin.Context) { ctx.Data(http.StatusOK, "application/json", body) })
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv := &http.Server{Handler: r}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	bare := closedLoop(c, "http://"+ln.Addr().String()+"/api/v1/wallets", "", conns, dur)
	ours := closedLoop(c, base+"/api/v1/wallets", key, conns, dur)
	fmt.Printf("listing: bare gin %.0f req/s, wallet listing %.0f req/s (%.0f%% of bare), %d connections\n",
		bare, ours, 100*ours/bare, conns)
}

func fetch(c *http.Client, url, key string) (int, []byte) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func closedLoop(c *http.Client, url, key string, conns int, dur time.Duration) float64 {
	var n, bad atomic.Int64
	stop := time.Now().Add(dur)
	var wg sync.WaitGroup
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				code, err := get(c, url, key)
				if err != nil || code != 200 {
					bad.Add(1)
					continue
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if bad.Load() > 0 {
		fmt.Printf("  %s: %d failed requests\n", url, bad.Load())
	}
	return float64(n.Load()) / dur.Seconds()
}

// openLoop sends at a fixed rate whatever the answers' speed, so latency
// includes queueing, and reports percentiles and errors.
func openLoop(name string, rate int, dur time.Duration, do func() (int, error)) {
	interval := time.Second / time.Duration(rate)
	total := int(dur.Seconds() * float64(rate))
	lat := make([]time.Duration, total)
	codes := make([]int, total)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < total; i++ {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			code, err := do()
			lat[i] = time.Since(t)
			if err != nil {
				code = -1
			}
			codes[i] = code
		}()
	}
	sent := time.Since(start)
	wg.Wait()
	elapsed := time.Since(start)
	byCode := map[int]int{}
	for _, c := range codes {
		byCode[c]++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	fmt.Printf("%s: %d buys at %d/s offered (sent in %.2fs, all answered in %.2fs: %.0f/s), p50 %s, p90 %s, p99 %s, max %s, statuses %v\n",
		name, total, rate, sent.Seconds(), elapsed.Seconds(), float64(total)/elapsed.Seconds(),
		pct(.5).Round(time.Microsecond), pct(.9).Round(time.Microsecond), pct(.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), byCode)
}

// stages prints the mean of each pipeline stage from the service's metrics.
func stages(c *http.Client, url string) {
	_, body := fetch(c, url, "")
	sums, counts := map[string]float64{}, map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		var name string
		var v float64
		if _, err := fmt.Sscanf(line, "%s %g", &name, &v); err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, "tradeapi_stage_duration_seconds_sum"):
			sums[strings.TrimPrefix(name, "tradeapi_stage_duration_seconds_sum")] = v
		case strings.HasPrefix(name, "tradeapi_stage_duration_seconds_count"):
			counts[strings.TrimPrefix(name, "tradeapi_stage_duration_seconds_count")] = v
		}
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if counts[k] > 0 {
			fmt.Printf("  stage %s: mean %s over %.0f\n", k, time.Duration(sums[k]/counts[k]*float64(time.Second)).Round(time.Microsecond), counts[k])
		}
	}
}
