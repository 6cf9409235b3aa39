package evm

import (
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestTxView(t *testing.T) {
	c := chainOf(t, "base")
	ec, _ := dial(t, "base", "")
	key := fundedKey(t, c, 2)
	to := randomAddress(t)
	tx := transfer(t, ec, c.ChainID(), key, to, big.NewInt(12345))
	if err := ec.SendTransaction(testCtx(t), tx); err != nil {
		t.Fatal(err)
	}
	waitReceipt(t, ec, tx.Hash())

	mux := http.NewServeMux()
	mux.Handle("/evm/{chain}/tx/{hash}", testChains.TxViewHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	status, body := get("/evm/base/tx/" + tx.Hash().Hex())
	if status != http.StatusOK {
		t.Fatalf("page: %d %s", status, body)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	for _, want := range []string{tx.Hash().Hex(), "success", from.Hex(), to.Hex(), "12345"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	status, body = get("/evm/base/tx/" + tx.Hash().Hex() + "?format=json")
	var res struct {
		Receipt struct {
			Status string `json:"status"`
		} `json:"receipt"`
		From common.Address `json:"from"`
	}
	if status != http.StatusOK || json.Unmarshal([]byte(body), &res) != nil || res.Receipt.Status != "0x1" || res.From != from {
		t.Fatalf("json: %d %s", status, body)
	}
	for path, want := range map[string]int{
		"/evm/eth/tx/" + tx.Hash().Hex():      http.StatusNotFound, // another chain's transaction
		"/evm/nope/tx/" + tx.Hash().Hex():     http.StatusNotFound,
		"/evm/base/tx/0x1234":                 http.StatusBadRequest,
		"/evm/base/tx/" + common.Hash{}.Hex(): http.StatusNotFound,
	} {
		if got, _ := get(path); got != want {
			t.Errorf("%s: %d, want %d", path, got, want)
		}
	}
}
