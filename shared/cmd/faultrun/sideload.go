package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// sideConfig paces the orders sent beside the swap load.
type sideConfig struct {
	launchEvery time.Duration // one token launch on Solana per period
	autoEvery   time.Duration // one buy with auto-order exits per period, the chains in turn
}

// autoOrders are the exits of the auto buys: a time exit that fires two
// seconds after the buy was broadcast and sells half, and a take-profit
// that sells the rest if the swap load lifts the price by 3 %. Every
// other buy adds a stop-loss at 0.5 % that sells half: the price read
// after a buy is below the entry by the venue's fee, so on the pump.fun
// curve it fires at once, and the time exit then waits for its sell, two
// sells of one position one after the other.
const (
	autoOrders         = `[{"type":"time","after_seconds":2,"sell_pct":50},{"type":"take_profit","trigger_pct":3}]`
	autoOrdersStopLoss = `[{"type":"time","after_seconds":2,"sell_pct":50},{"type":"take_profit","trigger_pct":3},` +
		`{"type":"stop_loss","trigger_pct":0.5,"sell_pct":50}]`
)

// Launch amounts in lamports. The order number is added to each, so that
// no two launches sign the same buy.
const (
	launchCreatorBuy = 10_000_000
	launchBuy        = 5_000_000
)

// sideResult is what the side load sent.
type sideResult struct {
	launches []*logical
	autos    []*logical
}

// runSideLoad sends, for cfg.duration, a token launch every
// side.launchEvery to the Solana listeners (when Solana is traded) and a
// buy with auto-orders every side.autoEvery, from each chain's exit
// wallet, the chains in turn. Each is a logical order retried like the
// swaps; it waits for every order it started.
func runSideLoad(ctx context.Context, cfg loadConfig, side sideConfig, chains []*chainRun, c *http.Client, start time.Time) sideResult {
	var solana *chainRun
	for _, r := range chains {
		if r.Name == wire.ChainSolana {
			solana = r
		}
	}
	var res sideResult
	var wg sync.WaitGroup
	send := func(o *logical) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.send(ctx, cfg, c, start)
		}()
	}
	// Both kinds start half a period in, so that the first of each is not
	// lost in the start-up of the swap load.
	nextLaunch, nextAuto := start.Add(side.launchEvery/2), start.Add(side.autoEvery/2)
	end := start.Add(cfg.duration)
	for {
		due, isLaunch := nextAuto, false
		if solana != nil && nextLaunch.Before(nextAuto) {
			due, isLaunch = nextLaunch, true
		}
		if !due.Before(end) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(due)):
		}
		if ctx.Err() != nil {
			break
		}
		if isLaunch {
			n := len(res.launches)
			o := newLaunch(n, solana, cfg.runID)
			res.launches = append(res.launches, o)
			send(o)
			nextLaunch = nextLaunch.Add(side.launchEvery)
			continue
		}
		n := len(res.autos)
		o := newAutoBuy(n, chains[n%len(chains)], cfg.runID)
		res.autos = append(res.autos, o)
		send(o)
		nextAuto = nextAuto.Add(side.autoEvery)
	}
	wg.Wait()
	return res
}

// newAutoBuy is the n-th buy with auto-orders, on chain c, from its exit
// wallet.
func newAutoBuy(n int, c *chainRun, runID string) *logical {
	k := int(c.nextAuto.Add(1) - 1)
	wallets := []string{c.exitWallet}
	exits := autoOrders
	if k%2 == 1 {
		exits = autoOrdersStopLoss
	}
	body := strings.TrimSuffix(c.body(k, "Buy", wallets), "}") + `,"auto_orders":` + exits + "}"
	return &logical{n: n, chain: c, key: fmt.Sprintf("%s-auto-%s-%d", runID, c.Name, k), side: "Buy",
		wallets: wallets, body: body, auto: true}
}

// newLaunch is the n-th token launch: one pump.fun token (two every third
// launch), the wallets in turn as creator, the next two as buyers, the
// bundle modes packed and non_packed in turn.
func newLaunch(n int, c *chainRun, runID string) *logical {
	w := len(c.wallets)
	creator := c.wallets[n%w]
	var buyers []string
	for i := 1; i <= 2 && i < w; i++ {
		buyers = append(buyers, c.wallets[(n+i)%w])
	}
	configs := 1
	if n%3 == 2 {
		configs = 2
	}
	mode := wire.BundlePacked
	if n%2 == 1 {
		mode = wire.BundleNonPacked
	}
	return &logical{n: n, chain: c, path: pathDeploy, key: fmt.Sprintf("%s-launch-%d", runID, n), side: "Launch",
		wallets: append([]string{creator}, buyers...), body: launchBody(n, creator, buyers, mode, configs), configs: configs}
}

// launchBody is the JSON body of the n-th launch.
func launchBody(n int, creator string, buyers []string, mode string, configs int) string {
	type buy struct {
		Wallet      string  `json:"wallet_address"`
		Lamports    uint64  `json:"sol_amount"`
		PriorityFee float64 `json:"priority_fee_sol"`
	}
	type config struct {
		Dex  string          `json:"dex"`
		Data map[string]bool `json:"data"`
	}
	body := struct {
		Wallet     string            `json:"wallet_address"`
		Metadata   map[string]string `json:"metadata"`
		Configs    []config          `json:"configs"`
		CreatorBuy uint64            `json:"creator_buy_sol_amount"`
		Buys       []buy             `json:"buys"`
		BundleMode string            `json:"bundle_mode"`
		Slippage   int               `json:"slippage_bps"`
	}{
		Wallet: creator,
		Metadata: map[string]string{"name": fmt.Sprintf("Fault run %d", n), "symbol": fmt.Sprintf("FR%d", n),
			"description": "launched while processes are killed"},
		CreatorBuy: launchCreatorBuy + uint64(n),
		BundleMode: mode,
		Slippage:   1000,
	}
	for range configs {
		body.Configs = append(body.Configs, config{Dex: wire.DexPumpFun,
			Data: map[string]bool{"is_mayhem_mode": false, "is_cashback_enabled": false}})
	}
	for i, b := range buyers {
		body.Buys = append(body.Buys, buy{Wallet: b, Lamports: launchBuy + uint64(2*n+i), PriorityFee: 0.00001})
	}
	raw, _ := json.Marshal(body)
	return string(raw)
}
