package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/service"
)

// target is the service under load: its listeners and admin token.
type target struct {
	sol, evm, admin, metrics string // base URLs
	adminToken               string
	// natsURL and dataDir reach the service's NATS as the admin, to count
	// JetStream's work per order; empty leaves the count out.
	natsURL, dataDir string
	stop             func()
}

// startInProcess starts the whole service in this process on free
// 127.0.0.1 ports with a scratch data folder, as `tradeapi up` runs it.
// The goroutine that runs it carries the profile label role=nats: what the
// composition root starts outside its components is the embedded NATS
// server and the connections' I/O (the components label themselves).
func startInProcess() (*target, error) {
	dir, err := os.MkdirTemp("", "tradeapi-load-")
	if err != nil {
		return nil, err
	}
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Listen = config.Listen{SolEU: freeAddr(), SolUS: freeAddr(), EVM: freeAddr(), Admin: freeAddr(), Metrics: freeAddr()}
	cfg.Devnet.Addr = freeAddr()
	// The embedded NATS server takes TCP clients too, so that this program
	// can count what JetStream stores and delivers per order.
	cfg.NATS.Listen = freeAddr()
	cfg.LogLevel = "error"
	u := service.NewUp(cfg, service.NewLogger(cfg, io.Discard), io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go pprof.Do(ctx, pprof.Labels(labelRole, service.RoleNATS), func(ctx context.Context) { done <- u.Run(ctx) })
	stop := func() {
		cancel()
		<-done
		_ = os.RemoveAll(dir)
	}
	select {
	case <-u.Ready():
	case err := <-done:
		_ = os.RemoveAll(dir)
		return nil, err
	case <-time.After(time.Minute):
		stop()
		return nil, errors.New("service not ready after a minute")
	}
	return &target{sol: "http://" + cfg.Listen.SolEU, evm: "http://" + cfg.Listen.EVM, admin: "http://" + cfg.Listen.Admin,
		metrics: "http://" + cfg.Listen.Metrics, adminToken: u.Secrets.AdminToken,
		natsURL: "nats://" + cfg.NATS.Listen, dataDir: dir, stop: stop}, nil
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// adminAPI is the client of the service's admin API.
type adminAPI struct {
	base, token string
	c           *http.Client
}

func (a *adminAPI) call(method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		return err
	}
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

// fixture is what the scenarios trade with: an account of their own with
// funded wallets on the local chains, budgets out of the way, API keys,
// and a token of each venue.
type fixture struct {
	solKey, evmKey string
	solWallets     []string
	evmWallets     []string
	mint           string // a pump.fun coin on its curve
	evmToken       string // a V2 token on base
}

// prepare makes the fixture through the admin API, so it works the same
// against this process's service and against a running `up`.
func (a *adminAPI) prepare(nSol, nEVM int) (*fixture, error) {
	var acct struct{ ID string }
	name := "load-" + strconv.FormatInt(time.Now().Unix(), 36)
	if err := a.call("POST", "/admin/v1/accounts", map[string]any{"name": name}, &acct); err != nil {
		return nil, err
	}
	f := &fixture{}
	var err error
	if f.solWallets, err = a.wallets(acct.ID, "sol", "solana", "1000", nSol); err != nil {
		return nil, err
	}
	if f.evmWallets, err = a.wallets(acct.ID, "evm", "base", "100", nEVM); err != nil {
		return nil, err
	}
	for _, fam := range []string{"sol", "evm"} {
		// The rate budget is not what is measured: it is still charged on
		// every order (one compare-and-set), but never spent.
		if err := a.call("PUT", "/admin/v1/accounts/"+acct.ID+"/limits",
			map[string]any{"family": fam, "minute": 1_000_000_000, "hour": 1_000_000_000, "week": 1_000_000_000}, nil); err != nil {
			return nil, err
		}
		var k struct{ Key string }
		if err := a.call("POST", "/admin/v1/accounts/"+acct.ID+"/keys", map[string]any{"family": fam, "name": "load"}, &k); err != nil {
			return nil, err
		}
		if fam == "sol" {
			f.solKey = k.Key
		} else {
			f.evmKey = k.Key
		}
	}
	var tok struct{ Address string }
	if err := a.call("POST", "/admin/v1/devnet/tokens",
		map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Load", "symbol": "LOAD"}, &tok); err != nil {
		return nil, err
	}
	f.mint = tok.Address
	if err := a.call("POST", "/admin/v1/devnet/tokens",
		map[string]any{"chain": "base", "venue": "v2", "name": "Load", "symbol": "LOAD"}, &tok); err != nil {
		return nil, err
	}
	f.evmToken = tok.Address
	return f, nil
}

// wallets makes n wallets of family on the account and funds each with
// amount of chain's native coin on the local chain.
func (a *adminAPI) wallets(account, family, chain, amount string, n int) ([]string, error) {
	var ws struct {
		Wallets []struct{ Address string }
	}
	if err := a.call("POST", "/admin/v1/accounts/"+account+"/wallets", map[string]any{"family": family, "count": n}, &ws); err != nil {
		return nil, err
	}
	out := make([]string, 0, n)
	for _, w := range ws.Wallets {
		if err := a.call("POST", "/admin/v1/devnet/fund", map[string]any{"chain": chain, "address": w.Address, "amount": amount}, nil); err != nil {
			return nil, err
		}
		out = append(out, w.Address)
	}
	return out, nil
}
