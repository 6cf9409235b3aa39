package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestClientErrorsCarryNoURL: a provider whose refusals quote the request's
// path and query (where its key is) has every error of the client cleaned
// of them, eth_call's revert included, with the node's code kept.
func TestClientErrorsCarryNoURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		answer := func(id string) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted: denied for %s","data":"0x08c379a0"}}`,
				id, r.URL.RequestURI())
		}
		if strings.HasPrefix(strings.TrimSpace(string(body)), "[") {
			fmt.Fprintf(w, "[%s]", answer("1"))
			return
		}
		id := "1"
		if i := strings.Index(string(body), `"id":`); i >= 0 {
			id = strings.SplitN(string(body)[i+5:], ",", 2)[0]
		}
		fmt.Fprint(w, answer(id))
	}))
	defer srv.Close()
	ec, err := endpoint.New("base rpc", srv.URL+"/evm/base?apikey=SEKRETRPC").DialEVM(context.Background(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	c := NewClient(ec)
	ctx := context.Background()
	to := common.HexToAddress("0x1")
	calls := map[string]func() error{
		"eth_call": func() error { _, err := c.CallContract(ctx, ethereum.CallMsg{To: &to}, nil); return err },
		"eth_call with overrides": func() error {
			_, err := c.CallWithOverrides(ctx, ethereum.CallMsg{To: &to}, nil)
			return err
		},
		"balance":      func() error { _, err := c.BalanceAt(ctx, to, nil); return err },
		"nonce":        func() error { _, err := c.PendingNonceAt(ctx, to); return err },
		"header":       func() error { _, err := c.HeaderByNumber(ctx, nil); return err },
		"tip":          func() error { _, err := c.SuggestGasTipCap(ctx); return err },
		"fee history":  func() error { _, err := c.FeeHistory(ctx, 1, nil, nil); return err },
		"estimate gas": func() error { _, err := c.EstimateGas(ctx, ethereum.CallMsg{To: &to}); return err },
		"batch element": func() error {
			var out string
			b := []rpc.BatchElem{{Method: "eth_chainId", Result: &out}}
			if err := c.BatchCallContext(ctx, b); err != nil {
				return err
			}
			return b[0].Error
		},
	}
	for name, call := range calls {
		err := call()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if text := err.Error(); strings.Contains(text, "SEKRET") || strings.Contains(text, "apikey") || strings.Contains(text, "/evm/base") {
			t.Errorf("%s: %q carries the endpoint's URL", name, text)
		}
	}
	// The node's code and data stay, for the callers that read them.
	_, err = c.CallContract(ctx, ethereum.CallMsg{To: &to}, big.NewInt(1))
	var rerr rpc.Error
	var derr rpc.DataError
	if !errors.As(err, &rerr) || rerr.ErrorCode() != 3 || !errors.As(err, &derr) || derr.ErrorData() != "0x08c379a0" {
		t.Fatalf("eth_call's error %v lost its code or data", err)
	}
}

// TestSaleWhoseBalanceReadsRevert: a sale of a token with pools whose
// balance reads the node fails with a revert (a provider refusing plain
// eth_calls) is refused as the read's failure, nothing signed, instead of
// planned from balances never read (which panicked the signer).
func TestSaleWhoseBalanceReadsRevert(t *testing.T) {
	e := newEnv(t)
	tok := e.token(t, wire.ChainBsc, "", 0, 0)
	w := e.wallet(t, wire.ChainBsc, "10", nil)
	ctx := context.Background()
	b, err := e.signer.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(w, "0.01")))
	if err != nil {
		t.Fatal(err)
	}
	e.broadcast(t, b)
	target := e.dev.url(wire.ChainBsc)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasPrefix(strings.TrimSpace(string(body)), "[") && strings.Contains(string(body), `"eth_call"`) {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(body, &req)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted: denied","data":"0x"}}`, req.ID)
			return
		}
		resp, err := http.Post(target, "application/json", strings.NewReader(string(body)))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		_, _ = io.Copy(w, resp.Body)
	}))
	defer proxy.Close()
	dep := e.dev.chain(t, wire.ChainBsc).Deployment()
	s, err := NewSigner([]Chain{{ChainConfig: configOf(dep), Client: NewClient(e.dial(t, proxy.URL))}}, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err = s.Sign(ctx, e.job(wire.ChainBsc, wire.Sell, tok.Address, "", legOf(w, "50")))
	if err == nil {
		t.Fatalf("a sale with its balances unread signed %+v", b)
	}
	if !strings.Contains(err.Error(), "balances") {
		t.Fatalf("refused with %v, want the balances' read named", err)
	}
}

// The client simulates swaps behind their approval.
var _ Simulator = (*Client)(nil)

// TestSellTokensOfManyDecimals: an exact-quantity sale (an exit's) of a
// token whose decimals() answers more than 39 (any uint8 is an answer) is
// worked out, not a panic of the signer (the exits re-armed until they
// gave up, so anyone could make a token whose buyers' exits never sell).
func TestSellTokensOfManyDecimals(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	e.signer.chains[wire.ChainBase].setDecimals(tok.Address, 77)
	j := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "1"))
	j.SellMode = wire.SellTokens
	var b *wire.TxBatch
	var err error
	if p := guard.Catch(func() { b, err = e.signer.Sign(context.Background(), j) }); p != nil || err != nil || b == nil || len(b.Txs) == 0 {
		t.Fatalf("the sale of 1 token of 77 decimals: %v %v %v", p, err, b)
	}
	e.broadcast(t, b)
	if left := e.balance(t, wire.ChainBase, w, tok.Address.Hex()); left.Sign() != 0 {
		t.Fatalf("%s base units left: 1 token of 77 decimals is more than the wallet holds, which sells it all", left)
	}
}
