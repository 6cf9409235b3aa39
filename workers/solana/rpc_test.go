package solana

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

var _ RPC = (*rpc.Client)(nil)

// serveJSONRPC answers getMultipleAccounts and getLatestBlockhash from c
// over HTTP, as a Solana node does.
func serveJSONRPC(t *testing.T, c *fakeChain) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ctx := map[string]any{"slot": 1}
		var result any
		switch req.Method {
		case "getMultipleAccounts":
			var keys []sol.PublicKey
			if err := json.Unmarshal(req.Params[0], &keys); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			res, _ := c.GetMultipleAccountsWithOpts(r.Context(), keys, nil)
			values := make([]any, len(keys))
			for i, a := range res.Value {
				if a == nil {
					continue
				}
				d := a.Data.GetBinary()
				values[i] = map[string]any{
					"lamports": a.Lamports, "owner": a.Owner.String(), "executable": false, "rentEpoch": 0,
					"space": len(d), "data": []string{base64.StdEncoding.EncodeToString(d), "base64"},
				}
			}
			result = map[string]any{"context": ctx, "value": values}
		case "getLatestBlockhash":
			res, _ := c.GetLatestBlockhash(r.Context(), "")
			result = map[string]any{"context": ctx, "value": map[string]any{
				"blockhash": res.Value.Blockhash.String(), "lastValidBlockHeight": res.Value.LastValidBlockHeight,
			}}
		default:
			result = nil
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOverJSONRPC drives the signer through solana-go's own client against
// an HTTP double, so the encoding of the reads is exercised end to end.
func TestOverJSONRPC(t *testing.T) {
	f := newFixture(t)
	f.chain.blockhash = sol.HashFromBytes([]byte("0123456789abcdef0123456789abcdef"))
	f.seedCurve(5_000_000_000)
	buyer := f.wallet(5e9, 0)
	seller := f.wallet(5e9, 2_000_000)
	client := rpc.New(serveJSONRPC(t, f.chain).URL)
	s := NewSigner(client, f.keys, Config{}, nil)

	batch, err := s.Sign(context.Background(), f.job(wire.Buy, wire.Leg{Wallet: buyer.String(), Amount: "0.25"}))
	if err != nil {
		t.Fatal(err)
	}
	ixs := decodeTx(t, batch.Txs[0])
	tx, _ := sol.TransactionFromBytes(batch.Txs[0].Raw)
	if tx.Message.RecentBlockhash != f.chain.blockhash {
		t.Fatalf("blockhash %s", tx.Message.RecentBlockhash)
	}
	args, err := pumpfun.DecodeInstruction(ixs[3].data)
	if err != nil || args.(*pumpfun.BuyExactSolInArgs).SpendableSolIn != 250_000_000 {
		t.Fatalf("buy %+v %v", args, err)
	}

	sell := f.job(wire.Sell, wire.Leg{Wallet: seller.String(), Amount: "50"})
	batch, err = s.Sign(context.Background(), sell)
	if err != nil {
		t.Fatal(err)
	}
	ixs = decodeTx(t, batch.Txs[0])
	args, err = pumpfun.DecodeInstruction(ixs[2].data)
	if err != nil || args.(*pumpfun.SellArgs).Amount != 1_000_000 {
		t.Fatalf("sell %+v %v", args, err)
	}
}
