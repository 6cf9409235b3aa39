package solana

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

func TestBatchAndDevnetMethods(t *testing.T) {
	c := New(Config{SlotDuration: 50 * time.Millisecond})
	srv := httptest.NewServer(c.Handler())
	defer func() {
		srv.Close()
		c.Close()
	}()
	creator := newWallet(t, c, 0).PublicKey()
	holder := newWallet(t, c, 0).PublicKey()
	body := `[
		{"jsonrpc":"2.0","id":1,"method":"getSlot"},
		{"jsonrpc":"2.0","id":2,"method":"noSuchMethod"},
		{"jsonrpc":"2.0","id":3,"method":"devnet_createPumpCoin","params":{"creator":"` + creator.String() + `","name":"Batch","symbol":"BTCH"}},
		{"jsonrpc":"2.0","id":4,"method":"devnet_fund","params":[{"address":"` + holder.String() + `","lamports":"2500000000"}]}
	]`
	resp, err := http.Post(srv.URL, "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 4 {
		t.Fatalf("%d answers, want 4", len(out))
	}
	if out[0].Error != nil || out[1].Error == nil || out[1].Error.Code != -32601 {
		t.Errorf("getSlot %+v, unknown method %+v", out[0], out[1].Error)
	}
	var coin struct{ Mint, BondingCurve string }
	if out[2].Error != nil || json.Unmarshal(out[2].Result, &coin) != nil {
		t.Fatalf("devnet_createPumpCoin: %+v %s", out[2].Error, out[2].Result)
	}
	mint := sol.MustPublicKeyFromBase58(coin.Mint)
	if coin.BondingCurve != pumpfun.BondingCurvePDA(mint).String() {
		t.Errorf("bonding curve %s", coin.BondingCurve)
	}
	acc, ok := c.GetAccount(pumpfun.BondingCurvePDA(mint))
	var bc pumpfun.BondingCurve
	if !ok || bc.Decode(acc.Data) != nil || bc.Creator != creator {
		t.Errorf("curve creator %s, want %s", bc.Creator, creator)
	}
	if c.Balance(holder) != 2_500_000_000 {
		t.Errorf("devnet_fund balance %d", c.Balance(holder))
	}
	// devnet_mintTo credits the holder's associated token account.
	req := `{"jsonrpc":"2.0","id":5,"method":"devnet_mintTo","params":{"mint":"` + coin.Mint + `","owner":"` + holder.String() + `","amount":1234}}`
	r2, err := http.Post(srv.URL, "application/json", bytes.NewBufferString(req))
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if got, err := c.TokenBalance(holder, mint); err != nil || got != 1234 {
		t.Errorf("token balance %d %v, want 1234", got, err)
	}
}
