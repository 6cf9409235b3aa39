package service

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestOrderShowsRentAndBundles runs through the whole service: a sell of a
// wallet's whole holding closes its token account, and the order lookup
// shows the rent that came back on the sell's signature once it landed;
// an anti_mev buy goes in a bundle, and the order lookup shows the relay's
// verdict on it: landed, in a slot.
func TestOrderShowsRentAndBundles(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	env := newExitsEnv(t, u, cfg)
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")
	w := env.solW[2]
	env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Buy", "wallets": one(w, "0.02")})
	sell := env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Sell", "wallets": one(w, "100")})
	var order wire.Order
	poll.Until(t, 10*time.Second, "the sell shows the rent returned", func() bool {
		r := do(t, "GET", env.sol+"/api/v1/orders/"+sell, env.solKey, nil)
		return r.Status == 200 && json.Unmarshal(r.Body.Data, &order) == nil &&
			len(order.Signatures) == 1 && order.Signatures[0].RentReturnedLamports > 0
	})
	// A Token-2022 account of a pump.fun coin: its rent-exempt minimum.
	if got := order.Signatures[0].RentReturnedLamports; got < 2_000_000 || got > 2_200_000 {
		t.Fatalf("rent returned %d lamports, want a token account's rent", got)
	}

	buy := env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Buy", "wallets": one(w, "0.01"),
		"anti_mev": true})
	poll.Until(t, 10*time.Second, "the anti_mev buy shows its bundle landed", func() bool {
		r := do(t, "GET", env.sol+"/api/v1/orders/"+buy, env.solKey, nil)
		return r.Status == 200 && json.Unmarshal(r.Body.Data, &order) == nil &&
			len(order.Bundles) == 1 && order.Bundles[0].State == wire.BundleLanded
	})
	if b := order.Bundles[0]; b.Slot == 0 || b.ID == "" || len(b.Signatures) != 1 || b.Signatures[0] != order.Signatures[0].Signature {
		t.Fatalf("bundle %+v of order %+v", b, order.Signatures)
	}
}

// TestDevnetV3Token: the devnet admin route makes a Uniswap V3 token of a
// given fee tier (and refuses a tier Uniswap has not, naming fee_tier), and
// a buy of it trades in that V3 pool, as its route says.
func TestDevnetV3Token(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	env := newExitsEnv(t, u, cfg)
	r := do(t, "POST", env.admin+"/admin/v1/devnet/tokens", u.Secrets.AdminToken,
		map[string]any{"chain": "base", "venue": "v3", "name": "Tier", "symbol": "TR", "fee_tier": 123})
	if r.Status != 400 || r.code() != "INVALID_REQUEST" || r.Body.Error.Details == nil || *r.Body.Error.Details != "fee_tier" {
		t.Fatalf("fee_tier 123: %d %s", r.Status, r.Raw)
	}
	tok := env.token(t, map[string]any{"chain": "base", "venue": "v3", "name": "Tier", "symbol": "TR", "fee_tier": 500})
	buy := env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "base", "side": "Buy",
		"wallets": one(env.evmW[0], "0.001")})
	r = do(t, "GET", env.evm+"/api/v1/orders/"+buy, env.evmKey, nil)
	var o wire.Order
	if err := json.Unmarshal(r.Body.Data, &o); err != nil || !strings.HasPrefix(o.Route, "uniswap_v3 fee 500 pool") {
		t.Fatalf("route %q (%v)", o.Route, err)
	}
}

// TestPercentSalesAtOnce: two sales of half a wallet's holding sent at once
// sell three quarters of it, as they would one after the other: the second
// is signed while the first may still be on its way, and counts it.
func TestPercentSalesAtOnce(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	env := newExitsEnv(t, u, cfg)
	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")
	w := env.solW[1]
	env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Buy", "wallets": one(w, "0.05")})
	held := env.solBalance(t, w, mint)

	body, _ := json.Marshal(map[string]any{"address": mint, "side": "Sell", "wallets": one(w, "50")})
	answers := make([]*http.Response, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", env.sol+"/api/v1/swap", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+env.solKey)
			req.Header.Set("Content-Type", "application/json")
			answers[i], errs[i] = http.DefaultClient.Do(req)
		})
	}
	wg.Wait()
	for i, resp := range answers {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		var r struct {
			Data swapData `json:"data"`
		}
		err := json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if resp.StatusCode != 200 || err != nil || len(r.Data.Signatures) != 1 {
			t.Fatalf("sale %d: %d %+v %v", i, resp.StatusCode, r, err)
		}
		waitOrder(t, env.sol, env.solKey, r.Data.OrderID, wire.StateConfirmed)
	}
	first := held / 2
	if left, want := env.solBalance(t, w, mint), held-first-(held-first)/2; left != want {
		t.Fatalf("two 50 %% sales of %d tokens at once left %d, want %d", held, left, want)
	}
}

// TestOrderShowsSlotAndFee: once a buy landed, the order lookup shows on
// its signature the slot or block it landed in and the fee it paid, the
// same figures the chain's own JSON-RPC gives for the transaction.
func TestOrderShowsSlotAndFee(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, nil)
	env := newExitsEnv(t, u, cfg)
	ctx := context.Background()

	mint := demoToken(t, u, wire.ChainSolana, "pump_fun")
	buy := env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Buy",
		"wallets": one(env.solW[1], "0.01"), "priority_fee": 0.000123})
	sig := landed(t, env, wire.FamilySol, env.sol, env.solKey, buy)
	version := uint64(0)
	tx, err := rpc.New(cfg.SolanaRPC()).GetTransaction(ctx, sol.MustSignatureFromBase58(sig.Signature),
		&rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &version})
	if err != nil || tx.Meta == nil {
		t.Fatalf("get transaction %s: %v", sig.Signature, err)
	}
	// 5,000 lamports for the signature, and the priority fee asked for.
	if sig.FeeLamports != tx.Meta.Fee || sig.Slot != tx.Slot || sig.FeeLamports < 5_000+123_000 || sig.FeeWei != "" {
		t.Fatalf("order shows slot %d fee %d lamports %q wei, the chain slot %d fee %d", sig.Slot, sig.FeeLamports, sig.FeeWei, tx.Slot, tx.Meta.Fee)
	}

	tok := demoToken(t, u, "base", "v2")
	buy = env.swap(t, wire.FamilyEVM, map[string]any{"address": tok, "chain": "base", "side": "Buy",
		"wallets": one(env.evmW[1], "0.001")})
	sig = landed(t, env, wire.FamilyEVM, env.evm, env.evmKey, buy)
	ec, err := ethclient.Dial("http://" + cfg.Devnet.Addr + "/evm/base")
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	rc, err := ec.TransactionReceipt(ctx, common.HexToHash(sig.Signature))
	if err != nil {
		t.Fatalf("receipt %s: %v", sig.Signature, err)
	}
	fee := new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice)
	if sig.FeeWei != fee.String() || fee.Sign() <= 0 || sig.Slot != rc.BlockNumber.Uint64() || sig.FeeLamports != 0 {
		t.Fatalf("order shows block %d fee %q wei, the chain block %d fee %s", sig.Slot, sig.FeeWei, rc.BlockNumber, fee)
	}
}

// landed waits until the one-transaction order id is confirmed and
// returns its signature as the order lookup shows it.
func landed(t *testing.T, env *exitsEnv, family wire.Family, base, key, id string) wire.SigState {
	t.Helper()
	var o wire.Order
	poll.Until(t, 10*time.Second, string(family)+" order "+id+" confirmed", func() bool {
		r := do(t, "GET", base+"/api/v1/orders/"+id, key, nil)
		return r.Status == 200 && json.Unmarshal(r.Body.Data, &o) == nil && o.State == wire.StateConfirmed
	})
	if len(o.Signatures) != 1 {
		t.Fatalf("order %s signatures %+v", id, o.Signatures)
	}
	return o.Signatures[0]
}
