package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// admin is a client of the admin API.
type admin struct {
	base, token string
	c           *http.Client
}

func (a *admin) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.c.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	var env struct{ Data json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return json.Unmarshal(env.Data, out)
}

// account is the trading account the run makes, with one API key per
// family and its wallets per family.
type account struct {
	ID      string
	Keys    map[string]string   // family -> API key
	Wallets map[string][]string // family -> addresses
}

// prepareAccount creates an account with n wallets in each family the
// chains need, funds them on each chain, lifts its rate limits out of the
// way and creates its API keys.
func (a *admin) prepareAccount(ctx context.Context, chains []chainSpec, n int) (*account, error) {
	acct := &account{Keys: map[string]string{}, Wallets: map[string][]string{}}
	var created struct{ ID string }
	if err := a.call(ctx, http.MethodPost, "/admin/v1/accounts", map[string]any{"name": "faultrun"}, &created); err != nil {
		return nil, err
	}
	acct.ID = created.ID
	for _, c := range chains {
		f := c.Family
		if _, done := acct.Keys[f]; !done {
			var ws struct{ Wallets []struct{ Address string } }
			if err := a.call(ctx, http.MethodPost, "/admin/v1/accounts/"+acct.ID+"/wallets",
				map[string]any{"family": f, "count": n, "spot_active": false}, &ws); err != nil {
				return nil, err
			}
			for _, w := range ws.Wallets {
				acct.Wallets[f] = append(acct.Wallets[f], w.Address)
			}
			if err := a.call(ctx, http.MethodPut, "/admin/v1/accounts/"+acct.ID+"/limits",
				map[string]any{"family": f, "minute": 1_000_000, "hour": 1_000_000, "week": 1_000_000}, nil); err != nil {
				return nil, err
			}
			var k struct{ Key string }
			if err := a.call(ctx, http.MethodPost, "/admin/v1/accounts/"+acct.ID+"/keys",
				map[string]any{"family": f, "name": "faultrun"}, &k); err != nil {
				return nil, err
			}
			acct.Keys[f] = k.Key
		}
		for _, w := range acct.Wallets[f] {
			if err := a.call(ctx, http.MethodPost, "/admin/v1/devnet/fund",
				map[string]any{"chain": c.Name, "address": w, "amount": c.Funding}, nil); err != nil {
				return nil, err
			}
		}
	}
	return acct, nil
}

// rpcURL returns where the local chain of name answers JSON-RPC.
func (a *admin) rpcURL(ctx context.Context, name string) (string, error) {
	var data struct {
		Chains map[string]struct {
			RPCURL string `json:"rpc_url"`
		}
	}
	if err := a.call(ctx, http.MethodGet, "/admin/v1/devnet", nil, &data); err != nil {
		return "", err
	}
	c, ok := data.Chains[name]
	if !ok || c.RPCURL == "" {
		return "", fmt.Errorf("the registry knows no local chain %s", name)
	}
	return c.RPCURL, nil
}

// answer is one HTTP attempt's outcome.
type answer struct {
	Status   int    // 0 when no HTTP answer came
	Code     string // error.code, "OK" on 200, or the transport failure
	Message  string // error.message
	OrderID  string // data.order_id, else the X-Order-Id header, else the order_id in an error's details
	Sigs     []string
	Skipped  bool
	Replayed bool // Idempotent-Replayed: true
	// Mints and Landed are a launch's mint_addresses and landed_txs.
	Mints  []string
	Landed []wire.LandedTx
}

// Order routes the load posts to.
const (
	pathSwap   = "/api/v1/swap"
	pathDeploy = "/api/v1/deploy"
)

// post sends one attempt of an order (a swap or a launch) to url. A
// launch's answer carries no order_id: its X-Order-Id header names the
// order, and its landed_txs are its signatures.
func post(ctx context.Context, c *http.Client, url, key, idemKey, body string) answer {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return answer{Code: "request: " + err.Error()}
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idemKey)
	resp, err := c.Do(req)
	if err != nil {
		return answer{Code: transportCode(err)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{Status: resp.StatusCode, Code: transportCode(err)}
	}
	a := answer{Status: resp.StatusCode, Replayed: resp.Header.Get("Idempotent-Replayed") == "true",
		OrderID: resp.Header.Get("X-Order-Id")}
	var env struct {
		Success bool
		Data    struct {
			OrderID    string `json:"order_id"`
			Signatures []string
			Skipped    bool
			Mints      []string        `json:"mint_addresses"`
			Landed     []wire.LandedTx `json:"landed_txs"`
		}
		Error struct{ Code, Message, Details string }
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		a.Code = "undecodable body"
		return a
	}
	if resp.StatusCode == http.StatusOK && env.Success {
		a.Code, a.Sigs, a.Skipped = "OK", env.Data.Signatures, env.Data.Skipped
		a.Mints, a.Landed = env.Data.Mints, env.Data.Landed
		if env.Data.OrderID != "" {
			a.OrderID = env.Data.OrderID
		}
		for _, t := range a.Landed {
			a.Sigs = append(a.Sigs, t.Signature)
		}
		return a
	}
	a.Code, a.Message = env.Error.Code, env.Error.Message
	var details struct {
		OrderID string `json:"order_id"`
	}
	if json.Unmarshal([]byte(env.Error.Details), &details) == nil && details.OrderID != "" {
		a.OrderID = details.OrderID
	}
	return a
}

// transportCode names a failure to get an answer.
func transportCode(err error) string {
	var timeout interface{ Timeout() bool }
	switch {
	case errors.As(err, &timeout) && timeout.Timeout():
		return "client timeout"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "EOF"), strings.Contains(err.Error(), "connection reset"):
		return "connection lost"
	}
	return "connection error"
}

// order is the public view of an order as GET /api/v1/orders/{id} answers.
type order struct {
	OrderID    string `json:"order_id"`
	State      string
	Skipped    bool
	Signatures []struct{ Signature, Wallet, State, Error string }
	Error      *struct{ Code string }
	Kind       string
	Deploy     *wire.DeployResult
	Positions  []wire.PositionView
}

// getOrder reads an order; found is false on 404.
func getOrder(ctx context.Context, c *http.Client, base, key, id string) (o order, found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/orders/"+id, nil)
	if err != nil {
		return o, false, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := c.Do(req)
	if err != nil {
		return o, false, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return o, false, nil
	default:
		return o, false, fmt.Errorf("order %s: %d %s", id, resp.StatusCode, raw)
	}
	var env struct{ Data order }
	if err := json.Unmarshal(raw, &env); err != nil {
		return o, false, err
	}
	return env.Data, true, nil
}
