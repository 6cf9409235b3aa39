package service

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers/exits"
)

// exitsOrder is an order lookup with the positions of a buy.
type exitsOrder struct {
	OrderID    string              `json:"order_id"`
	State      string              `json:"state"`
	Side       string              `json:"side"`
	Signatures []wire.SigState     `json:"signatures"`
	Positions  []wire.PositionView `json:"positions"`
	CreatedAt  time.Time           `json:"created_at"`
}

// exitsEnv is a running service and its demo account, seen through the
// public API and the local chains.
type exitsEnv struct {
	t              *testing.T
	u              *Up
	cfg            config.Config
	sol, evm       string // API bases
	admin          string
	solKey, evmKey string
	solW, evmW     []string // demo wallets in label order
	mu             sync.Mutex
}

func newExitsEnv(t testing.TB, u *Up, cfg config.Config) *exitsEnv {
	env := &exitsEnv{u: u, cfg: cfg, sol: "http://" + cfg.Listen.SolEU, evm: "http://" + cfg.Listen.EVM,
		admin: "http://" + cfg.Listen.Admin, solKey: u.Demo.SolKey, evmKey: u.Demo.EVMKey}
	for _, w := range u.Demo.Wallets {
		if w.Family == wire.FamilySol {
			env.solW = append(env.solW, w.Address)
		} else {
			env.evmW = append(env.evmW, w.Address)
		}
	}
	if len(env.solW) < 3 || len(env.evmW) < 2 {
		t.Fatalf("demo wallets %+v", u.Demo.Wallets)
	}
	return env
}

// otherAccount makes an account of its own through the admin API, with an
// EVM key and one EVM wallet funded on chain, and returns the two.
func (env *exitsEnv) otherAccount(t testing.TB, chain string) (key, wallet string) {
	t.Helper()
	admin, tok := env.admin+"/admin/v1", env.u.Secrets.AdminToken
	r := do(t, "POST", admin+"/accounts", tok, map[string]any{"name": "other " + chain})
	var acct struct {
		ID string `json:"id"`
	}
	if r.Status != 201 || json.Unmarshal(r.Body.Data, &acct) != nil {
		t.Fatalf("account: %d %s", r.Status, r.Raw)
	}
	r = do(t, "POST", admin+"/accounts/"+acct.ID+"/wallets", tok, map[string]any{"family": "evm"})
	var ws struct {
		Wallets []struct {
			Address string `json:"address"`
		} `json:"wallets"`
	}
	if r.Status != 201 || json.Unmarshal(r.Body.Data, &ws) != nil || len(ws.Wallets) != 1 {
		t.Fatalf("wallet: %d %s", r.Status, r.Raw)
	}
	r = do(t, "POST", admin+"/accounts/"+acct.ID+"/keys", tok, map[string]any{"family": "evm", "name": "bot"})
	var k struct {
		Key string `json:"key"`
	}
	if r.Status != 201 || json.Unmarshal(r.Body.Data, &k) != nil {
		t.Fatalf("key: %d %s", r.Status, r.Raw)
	}
	r = do(t, "POST", admin+"/devnet/fund", tok, map[string]any{"chain": chain, "address": ws.Wallets[0].Address, "amount": "1"})
	if r.Status != 200 {
		t.Fatalf("fund: %d %s", r.Status, r.Raw)
	}
	return k.Key, ws.Wallets[0].Address
}

// token creates a token on a local chain through the admin API.
func (env *exitsEnv) token(t testing.TB, body map[string]any) devnet.Token {
	t.Helper()
	r := do(t, "POST", env.admin+"/admin/v1/devnet/tokens", env.u.Secrets.AdminToken, body)
	var tok devnet.Token
	if r.Status != 201 || json.Unmarshal(r.Body.Data, &tok) != nil || tok.Address == "" {
		t.Fatalf("create token %v: %d %s", body, r.Status, r.Raw)
	}
	return tok
}

// swap runs one swap and waits for its order to be confirmed.
func (env *exitsEnv) swap(t testing.TB, family wire.Family, body map[string]any) string {
	t.Helper()
	base, key := env.sol, env.solKey
	if family == wire.FamilyEVM {
		base, key = env.evm, env.evmKey
	}
	r := do(t, "POST", base+"/api/v1/swap", key, body)
	var d swapData
	if r.Status != 200 || json.Unmarshal(r.Body.Data, &d) != nil || len(d.Signatures) == 0 {
		t.Fatalf("swap %v: %d %s", body, r.Status, r.Raw)
	}
	waitOrder(t, base, key, d.OrderID, wire.StateConfirmed)
	return d.OrderID
}

func one(wallet, amount string) []map[string]any {
	return []map[string]any{{"address": wallet, "amount": amount}}
}

// order waits until the order lookup satisfies ok.
func (env *exitsEnv) order(t testing.TB, family wire.Family, id string, what string, ok func(o *exitsOrder) bool) *exitsOrder {
	t.Helper()
	base, key := env.sol, env.solKey
	if family == wire.FamilyEVM {
		base, key = env.evm, env.evmKey
	}
	var r reply
	var o exitsOrder
	if !poll.True(20*time.Second, func() bool {
		r = do(t, "GET", base+"/api/v1/orders/"+id, key, nil)
		o = exitsOrder{}
		return r.Status == 200 && json.Unmarshal(r.Body.Data, &o) == nil && ok(&o)
	}) {
		t.Fatalf("order %s: not %s after 20s: %s", id, what, r.Raw)
	}
	return &o
}

func opened(o *exitsOrder) bool {
	return len(o.Positions) == 1 && o.Positions[0].State == wire.PositionOpen
}

func closed(o *exitsOrder) bool {
	return len(o.Positions) == 1 && o.Positions[0].State == wire.PositionClosed
}

// exitState returns exit i of the order's only position.
func exitState(o *exitsOrder, i int) wire.Exit { return o.Positions[0].Exits[i] }

func (env *exitsEnv) solBalance(t *testing.T, owner, mint string) uint64 {
	t.Helper()
	v, err := env.u.Devnet.TokenBalance(sol.MustPublicKeyFromBase58(owner), sol.MustPublicKeyFromBase58(mint))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (env *exitsEnv) evmBalance(t *testing.T, chain, owner, token string) *big.Int {
	t.Helper()
	c, ok := env.u.EVMDevnet.Chain(chain)
	if !ok {
		t.Fatalf("no local %s chain", chain)
	}
	v, err := c.Balance(context.Background(), common.HexToAddress(owner), token)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// soldOnce checks that exit i fired one sell that landed.
func (env *exitsEnv) soldOnce(t *testing.T, family wire.Family, o *exitsOrder, i int) {
	t.Helper()
	x := exitState(o, i)
	if x.State != wire.ExitFired || x.SellOrderID == "" || x.Attempts != 1 || x.FiredAt == nil || x.FiredPrice == "" {
		t.Fatalf("exit %d: %+v", i, x)
	}
	sell := env.order(t, family, x.SellOrderID, "a confirmed sell", func(s *exitsOrder) bool { return s.State == wire.StateConfirmed })
	// One wallet sells; on EVM its first sell of a token approves the
	// router in a transaction of its own.
	if sell.Side != string(wire.Sell) || len(sell.Signatures) == 0 {
		t.Fatalf("sell of exit %d: %+v", i, sell)
	}
	for _, s := range sell.Signatures {
		if s.Wallet != o.Positions[0].Wallet || s.State != wire.StateConfirmed {
			t.Fatalf("sell of exit %d: %+v", i, sell)
		}
	}
	keys := env.sellOrders(t, o.Positions[0].ID)
	if len(keys) != 1 {
		t.Fatalf("position %s has sells %v, want one", o.Positions[0].ID, keys)
	}
}

// sellOrders lists the exit sell orders stored for a position.
func (env *exitsEnv) sellOrders(t *testing.T, positionID string) []string {
	t.Helper()
	lister, err := env.u.buckets.Orders.ListKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range lister.Keys() {
		if strings.HasPrefix(k, positionID+"-x") {
			out = append(out, k)
		}
	}
	return out
}

func fastExits(c *config.Config) { c.Exits.PollInterval = 100 * time.Millisecond }

// TestExitsOnTheLocalChains runs every trigger through the whole service:
// buys with auto-orders open positions, a second wallet moves the price
// (or the token's creator sells), and each exit's sell lands on chain.
func TestExitsOnTheLocalChains(t *testing.T) {
	u, cfg := startUp(t, fastExits)
	env := newExitsEnv(t, u, cfg)
	holder, trader, dev := env.solW[0], env.solW[1], env.solW[2]

	t.Run("solana curve take_profit closes the position and cancels the rest", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Profit", "symbol": "TP"})
		buy := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(holder, "0.5"),
			"slippage": 10, "auto_orders": []map[string]any{{"type": "take_profit", "trigger_pct": 25}, {"type": "stop_loss", "trigger_pct": 50}}})
		o := env.order(t, wire.FamilySol, buy, "open", opened)
		p := o.Positions[0]
		if p.Wallet != holder || p.Token != tok.Address || p.Venue != wire.VenuePumpFun || p.Received == "0" ||
			p.Received != p.Remaining || p.EntryPrice == "" || len(p.Exits) != 2 || p.Exits[0].State != wire.ExitArmed {
			t.Fatalf("position %+v", p)
		}
		if got := env.solBalance(t, holder, tok.Address); p.Received != new(big.Int).SetUint64(got).String() {
			t.Fatalf("received %s, the wallet holds %d", p.Received, got)
		}
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(trader, "10"), "auto_orders": []any{}})
		o = env.order(t, wire.FamilySol, buy, "closed", closed)
		env.soldOnce(t, wire.FamilySol, o, 0)
		if x := exitState(o, 1); x.State != wire.ExitCancelled || x.SellOrderID != "" {
			t.Fatalf("stop_loss after the position closed: %+v", x)
		}
		fired, entry := parseRatT(t, exitState(o, 0).FiredPrice), parseRatT(t, o.Positions[0].EntryPrice)
		if fired.Cmp(new(big.Rat).Mul(entry, big.NewRat(125, 100))) < 0 {
			t.Fatalf("fired at %s, entry %s", fired.FloatString(12), entry.FloatString(12))
		}
		if got := env.solBalance(t, holder, tok.Address); got != 0 {
			t.Fatalf("holder keeps %d tokens", got)
		}
	})

	t.Run("solana dev_sell sells part, the user's sell closes the rest", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Dev", "symbol": "DEV", "creator": dev})
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(dev, "1"), "auto_orders": []any{}})
		buy := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(holder, "0.2"),
			"auto_orders": []map[string]any{{"type": "dev_sell", "sell_pct": 50}, {"type": "time", "after_seconds": 3600}}})
		o := env.order(t, wire.FamilySol, buy, "open", opened)
		received := o.Positions[0].Received
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Sell", "wallets": one(dev, "100")})
		o = env.order(t, wire.FamilySol, buy, "half sold", func(o *exitsOrder) bool {
			return opened(o) && exitState(o, 0).State == wire.ExitFired && o.Positions[0].Remaining != received
		})
		env.soldOnce(t, wire.FamilySol, o, 0)
		rec, rem := parseIntT(t, received), parseIntT(t, o.Positions[0].Remaining)
		if want := new(big.Int).Sub(rec, new(big.Int).Div(rec, big.NewInt(2))); rem.Cmp(want) != 0 {
			t.Fatalf("remaining %s of %s after selling half", rem, rec)
		}
		if got := env.solBalance(t, holder, tok.Address); new(big.Int).SetUint64(got).Cmp(rem) != 0 {
			t.Fatalf("holder has %d, the position says %s", got, rem)
		}
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Sell", "wallets": one(holder, "100")})
		o = env.order(t, wire.FamilySol, buy, "closed by the user's sell", closed)
		if x := exitState(o, 1); x.State != wire.ExitCancelled {
			t.Fatalf("time exit after the user's sell: %+v", x)
		}
	})

	t.Run("solana trailing_stop and stop_loss on one token", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Trail", "symbol": "TR"})
		mover := env.solW[1]
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(mover, "8"), "auto_orders": []any{}})
		trail := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(holder, "0.2"),
			"auto_orders": []map[string]any{{"type": "trailing_stop", "trigger_pct": 15}}})
		stop := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(dev, "0.2"),
			"auto_orders": []map[string]any{{"type": "stop_loss", "trigger_pct": 20}}})
		o := env.order(t, wire.FamilySol, trail, "open", opened)
		entry := parseRatT(t, o.Positions[0].EntryPrice)
		env.order(t, wire.FamilySol, stop, "open", opened)
		// Up first: the trailing stop follows the high.
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(mover, "4"), "auto_orders": []any{}})
		o = env.order(t, wire.FamilySol, trail, "a new high", func(o *exitsOrder) bool {
			return opened(o) && parseRatT(t, o.Positions[0].HighPrice).Cmp(new(big.Rat).Mul(entry, big.NewRat(12, 10))) > 0
		})
		high := parseRatT(t, o.Positions[0].HighPrice)
		env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Sell", "wallets": one(mover, "100")})
		o = env.order(t, wire.FamilySol, trail, "closed", closed)
		env.soldOnce(t, wire.FamilySol, o, 0)
		if fired := parseRatT(t, exitState(o, 0).FiredPrice); fired.Cmp(new(big.Rat).Mul(high, big.NewRat(85, 100))) > 0 {
			t.Fatalf("trailing stop fired at %s, high %s", fired.FloatString(12), high.FloatString(12))
		}
		s := env.order(t, wire.FamilySol, stop, "closed", closed)
		env.soldOnce(t, wire.FamilySol, s, 0)
	})

	t.Run("pumpswap time exit", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "solana", "venue": "pumpswap", "name": "Pool", "symbol": "PL", "liquidity": "20"})
		w := env.solW[2]
		start := time.Now()
		buy := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Pool, "side": "Buy", "wallets": one(w, "0.1"),
			"auto_orders": []map[string]any{{"type": "time", "after_seconds": 2}}})
		o := env.order(t, wire.FamilySol, buy, "closed", closed)
		if p := o.Positions[0]; p.Venue != wire.VenuePumpSwap || p.Token != tok.Address {
			t.Fatalf("position %+v", p)
		}
		env.soldOnce(t, wire.FamilySol, o, 0)
		if at := *exitState(o, 0).FiredAt; at.Sub(start) < 2*time.Second {
			t.Fatalf("time exit fired %s after the buy was sent", at.Sub(start))
		}
	})

	t.Run("stops within the fees and the tax do not fire on a still price", func(t *testing.T) {
		// The entry is the price the buy traded at in the pool, the
		// measure the exits read: a venue's fees (pump.fun's 1.25 %) and a
		// token's tax (10 %) paid on the buy are no fall of the price.
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Still", "symbol": "ST"})
		sol := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(dev, "0.01"),
			"auto_orders": []map[string]any{{"type": "stop_loss", "trigger_pct": 1}, {"type": "trailing_stop", "trigger_pct": 1}}})
		taxed := env.token(t, map[string]any{"chain": "rbh", "venue": "v2", "name": "Taxed", "symbol": "TX", "liquidity": "1",
			"buy_tax_pct": 10, "sell_tax_pct": 10})
		evm := env.swap(t, wire.FamilyEVM, map[string]any{"address": taxed.Address, "chain": "rbh", "side": "Buy",
			"wallets": one(env.evmW[1], "0.01"), "slippage": 30, "max_tax": 20,
			"auto_orders": []map[string]any{{"type": "stop_loss", "trigger_pct": 9}}})
		env.order(t, wire.FamilySol, sol, "open", opened)
		env.order(t, wire.FamilyEVM, evm, "open", opened)
		time.Sleep(time.Second) // ten price reads
		for _, o := range []*exitsOrder{env.order(t, wire.FamilySol, sol, "open", opened), env.order(t, wire.FamilyEVM, evm, "open", opened)} {
			for _, x := range o.Positions[0].Exits {
				if x.State != wire.ExitArmed {
					t.Fatalf("%s fired on a price nobody moved: %+v (entry %s)", x.Type, x, o.Positions[0].EntryPrice)
				}
			}
		}
	})

	t.Run("evm stop_losses of one wallet firing together", func(t *testing.T) {
		// Two positions of one wallet whose exits fire on the same price
		// read sell exactly what each holds: the wallet ends empty.
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "eth", "venue": "v2", "name": "Both", "symbol": "BO", "liquidity": "1"})
		env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "eth", "side": "Buy",
			"wallets": one(env.evmW[1], "0.3"), "slippage": 50, "auto_orders": []any{}})
		var buys []string
		for range 2 {
			buys = append(buys, env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "eth", "side": "Buy",
				"wallets": one(env.evmW[0], "0.01"), "slippage": 10,
				"auto_orders": []map[string]any{{"type": "stop_loss", "trigger_pct": 20}}}))
		}
		for _, b := range buys {
			env.order(t, wire.FamilyEVM, b, "open", opened)
		}
		env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "eth", "side": "Sell",
			"wallets": one(env.evmW[1], "100"), "slippage": 90})
		for _, b := range buys {
			o := env.order(t, wire.FamilyEVM, b, "closed", closed)
			env.soldOnce(t, wire.FamilyEVM, o, 0)
		}
		if b := env.evmBalance(t, "eth", env.evmW[0], tok.Address); b.Sign() != 0 {
			t.Fatalf("the wallet keeps %s after both its positions were sold", b)
		}
	})

	t.Run("evm take_profit and stop_loss on a v2 pair", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "base", "venue": "v2", "name": "Pair", "symbol": "PR", "liquidity": "1"})
		buy := env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "base", "side": "Buy",
			"wallets": one(env.evmW[0], "0.01"), "slippage": 10,
			"auto_orders": []map[string]any{{"type": "stop_loss", "trigger_pct": 30}, {"type": "take_profit", "trigger_pct": 30}}})
		o := env.order(t, wire.FamilyEVM, buy, "open", opened)
		if p := o.Positions[0]; p.Venue != wire.VenueV2 || !strings.EqualFold(p.Token, tok.Address) {
			t.Fatalf("position %+v", p)
		}
		env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "base", "side": "Buy",
			"wallets": one(env.evmW[1], "0.3"), "slippage": 50, "auto_orders": []any{}})
		o = env.order(t, wire.FamilyEVM, buy, "closed", closed)
		env.soldOnce(t, wire.FamilyEVM, o, 1)
		if x := exitState(o, 0); x.State != wire.ExitCancelled {
			t.Fatalf("stop_loss: %+v", x)
		}
		if b := env.evmBalance(t, "base", env.evmW[0], tok.Address); b.Sign() != 0 {
			t.Fatalf("holder keeps %s", b)
		}
	})

	t.Run("evm time exit on a stable-quoted pair", func(t *testing.T) {
		t.Parallel()
		tok := env.token(t, map[string]any{"chain": "base", "venue": "v2", "name": "Stable", "symbol": "ST", "quote_asset": "USDC", "liquidity": "5000"})
		w := env.evmW[1]
		r := do(t, "POST", env.admin+"/admin/v1/devnet/fund", env.u.Secrets.AdminToken,
			map[string]any{"chain": "base", "address": w, "amount": "0.1", "token": "USDC", "token_amount": "100"})
		if r.Status != 200 {
			t.Fatalf("fund: %d %s", r.Status, r.Raw)
		}
		// A buy in a stable approves the router first: two transactions,
		// one position.
		buy := env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "base", "side": "Buy", "quote_asset": "USDC",
			"wallets": one(w, "20"), "auto_orders": []map[string]any{{"type": "time", "after_seconds": 1}}})
		o := env.order(t, wire.FamilyEVM, buy, "closed", closed)
		if p := o.Positions[0]; p.Wallet != w || !strings.HasSuffix(p.ID, "-1") {
			t.Fatalf("position %+v", p)
		}
		env.soldOnce(t, wire.FamilyEVM, o, 0)
		if b := env.evmBalance(t, "base", w, tok.Address); b.Sign() != 0 {
			t.Fatalf("wallet keeps %s", b)
		}
	})

	t.Run("evm dev_sell", func(t *testing.T) {
		t.Parallel()
		devKey, devWallet := env.otherAccount(t, "bsc")
		tok := env.token(t, map[string]any{"chain": "bsc", "venue": "v2", "name": "Team", "symbol": "TM", "liquidity": "5",
			"creator": devWallet})
		// The account's other wallet holds more than the creator: it is
		// not the creator all the same, and its sell fires nothing.
		env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "bsc", "side": "Buy",
			"wallets": one(env.evmW[1], "1"), "slippage": 50, "auto_orders": []any{}})
		buy := env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "bsc", "side": "Buy",
			"wallets": one(env.evmW[0], "0.01"), "auto_orders": []map[string]any{{"type": "dev_sell"}}})
		env.order(t, wire.FamilyEVM, buy, "open", opened)
		env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "bsc", "side": "Sell",
			"wallets": one(env.evmW[1], "10"), "slippage": 50})
		time.Sleep(500 * time.Millisecond) // five price reads
		if o := env.order(t, wire.FamilyEVM, buy, "open", opened); exitState(o, 0).State != wire.ExitArmed {
			t.Fatalf("dev_sell fired on a sell of the account's own wallet: %+v", exitState(o, 0))
		}
		r := do(t, "POST", env.evm+"/api/v1/swap", devKey, map[string]any{"address": tok.Address, "chain": "bsc", "side": "Sell",
			"wallets": one(devWallet, "10"), "slippage": 50})
		if r.Status != 200 {
			t.Fatalf("the creator's sell: %d %s", r.Status, r.Raw)
		}
		o := env.order(t, wire.FamilyEVM, buy, "closed", closed)
		env.soldOnce(t, wire.FamilyEVM, o, 0)
		if b := env.evmBalance(t, "bsc", env.evmW[0], tok.Address); b.Sign() != 0 {
			t.Fatalf("holder keeps %s", b)
		}
	})
}

// TestExitsFireOnceAcrossEngines stops an engine between claiming an exit
// and publishing its sell, as a crash would, then runs two engines side by
// side: the exit is finished by one of them, and a new trigger seen by both
// is fired by one; each exit sells exactly once.
func TestExitsFireOnceAcrossEngines(t *testing.T) {
	t.Parallel()
	roles := []string{RoleDevnet, RoleRegistry, RoleWorker, RoleBroadcaster, RoleIngress}
	u, cfg := startRoles(t, roles, fastExits)
	env := newExitsEnv(t, u, cfg)
	holder, trader := env.solW[0], env.solW[1]
	tok := env.token(t, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Once", "symbol": "ONE"})

	// An engine that dies right after its claim.
	claimed := make(chan string, 1)
	_, stopCrashing := runEngine(t, u, "exits-a", func(c *exits.Config) {
		c.ResumeAfter = time.Hour
		c.AfterClaim = func(id string, _ int) bool {
			select {
			case claimed <- id:
			default:
			}
			return false
		}
	})
	buy := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(holder, "0.3"),
		"auto_orders": []map[string]any{{"type": "time", "after_seconds": 1}}})
	select {
	case <-claimed:
	case <-time.After(20 * time.Second):
		t.Fatal("the exit was not claimed")
	}
	stopCrashing()
	o := env.order(t, wire.FamilySol, buy, "left firing", func(o *exitsOrder) bool {
		return opened(o) && exitState(o, 0).State == wire.ExitFiring
	})
	if got := env.sellOrders(t, o.Positions[0].ID); len(got) != 0 {
		t.Fatalf("a sell was stored before the publish: %v", got)
	}

	// Two engines carry on.
	for _, name := range []string{"exits-b", "exits-c"} {
		runEngine(t, u, name, func(c *exits.Config) { c.ResumeAfter = 500 * time.Millisecond })
	}
	o = env.order(t, wire.FamilySol, buy, "closed", closed)
	env.soldOnce(t, wire.FamilySol, o, 0)
	if got := env.solBalance(t, holder, tok.Address); got != 0 {
		t.Fatalf("holder keeps %d tokens", got)
	}

	second := env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(holder, "0.3"),
		"auto_orders": []map[string]any{{"type": "take_profit", "trigger_pct": 20}}})
	env.order(t, wire.FamilySol, second, "open", opened)
	env.swap(t, wire.FamilySol, map[string]any{"address": tok.Address, "side": "Buy", "wallets": one(trader, "6"), "auto_orders": []any{}})
	o = env.order(t, wire.FamilySol, second, "closed", closed)
	env.soldOnce(t, wire.FamilySol, o, 0)
}

// startRoles runs some roles in one process on free ports.
func startRoles(t *testing.T, roles []string, tune func(*config.Config)) (*Up, config.Config) {
	t.Helper()
	cfg := rolesConfig(t)
	if tune != nil {
		tune(&cfg)
	}
	u := New(cfg, Options{Roles: roles}, slog.New(slog.DiscardHandler), io.Discard)
	runUp(t, u)
	return u, cfg
}

// rolesConfig is a configuration on free ports, a fresh data folder and a
// NATS server of its own: roles short of all of them dial NATS. The server
// requires the deployment's credentials, generated in the data folder as
// the nats role does; the roles read them there.
func rolesConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 7)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet.Addr = a[5]
	creds, err := bus.LoadOrCreateCredentials(cfg.DataDir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Listen: a[6], Credentials: creds}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	cfg.NATS.URL = srv.ClientURL()
	return cfg
}

// runEngine runs an exits engine of its own beside the node's roles, as
// another process would, until the returned stop or the test's end.
func runEngine(t *testing.T, u *Up, name string, tune func(*exits.Config)) (*exits.Engine, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	eng, err := u.newExits(ctx, name, tune)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- eng.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("engine %s: %v", name, err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("engine %s did not stop", name)
			}
		})
	}
	t.Cleanup(stop)
	return eng, stop
}

func parseRatT(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a price: %q", s)
	}
	return r
}

func parseIntT(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not an amount: %q", s)
	}
	return v
}

// BenchmarkExitTriggerToBroadcast measures, for a take-profit on the
// local Solana chain, the time from the price read that fired the exit to
// its sell's order being stored (just before the job is published), and to
// the sell's broadcast event, through the whole pipeline: claim, order
// record, ORDERS, worker, TXS, broadcaster.
func BenchmarkExitTriggerToBroadcast(b *testing.B) {
	u, cfg := startUpBench(b)
	env := newExitsEnv(b, u, cfg)
	// An in-house consumer of the events: the operator's admin user.
	nc, err := u.dial("tradeapi-bench", bus.RoleAdmin)
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	var mu sync.Mutex
	broadcastAt := map[string]time.Time{}
	sub, err := nc.Subscribe(bus.EventsSubject(u.Demo.AccountID, "broadcast"), func(m *nats.Msg) {
		var ev struct {
			OrderID string    `json:"order_id"`
			At      time.Time `json:"at"`
		}
		if json.Unmarshal(m.Data, &ev) == nil {
			mu.Lock()
			broadcastAt[ev.OrderID] = ev.At
			mu.Unlock()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	tok := env.token(b, map[string]any{"chain": "solana", "venue": "pump_fun", "name": "Bench", "symbol": "BN"}).Address
	var toOrder, toBroadcast time.Duration
	b.ResetTimer()
	for range b.N {
		buy := env.swap(b, wire.FamilySol, map[string]any{"address": tok, "side": "Buy", "wallets": one(env.solW[0], "0.2"),
			"auto_orders": []map[string]any{{"type": "take_profit", "trigger_pct": 10}}})
		env.order(b, wire.FamilySol, buy, "open", opened)
		env.swap(b, wire.FamilySol, map[string]any{"address": tok, "side": "Buy", "wallets": one(env.solW[1], "2"), "auto_orders": []any{}})
		o := env.order(b, wire.FamilySol, buy, "closed", closed)
		x := o.Positions[0].Exits[0]
		at := poll.Value(b, 10*time.Second, "a broadcast event of "+x.SellOrderID, func() (time.Time, bool) {
			mu.Lock()
			defer mu.Unlock()
			at := broadcastAt[x.SellOrderID]
			return at, !at.IsZero()
		})
		if x.FiredAt == nil {
			b.Fatalf("exit of %s fired without a time: %+v", buy, x)
		}
		toBroadcast += at.Sub(*x.FiredAt)
		sell := env.order(b, wire.FamilySol, x.SellOrderID, "stored", func(*exitsOrder) bool { return true })
		toOrder += sell.CreatedAt.Sub(*x.FiredAt)
		// Back down, for the next round.
		env.swap(b, wire.FamilySol, map[string]any{"address": tok, "side": "Sell", "wallets": one(env.solW[1], "100")})
	}
	b.StopTimer()
	b.ReportMetric(float64(toOrder.Microseconds())/1000/float64(b.N), "ms/trigger-to-order")
	b.ReportMetric(float64(toBroadcast.Microseconds())/1000/float64(b.N), "ms/trigger-to-broadcast")
}

// startUpBench runs the whole service for a benchmark.
func startUpBench(b *testing.B) (*Up, config.Config) {
	b.Helper()
	cfg := config.Default()
	cfg.DataDir = b.TempDir()
	a := freeAddrs(b, 6)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3], Metrics: a[4]}
	cfg.Devnet.Addr = a[5]
	fastExits(&cfg)
	u := NewUp(cfg, slog.New(slog.DiscardHandler), io.Discard)
	runUp(b, u)
	return u, cfg
}

// TestExitSellOfATaxedTokenLands: an exit of a position in a token taxed
// 25 % on sales sells it. Without the tax probed, the exit's sells went out
// with exits.sell_slippage_pct (20) alone as their leeway, each reverted in
// simulation (INSUFFICIENT_OUTPUT_AMOUNT), and after exits.max_attempts the
// exit failed, the wallet still holding the tokens.
func TestExitSellOfATaxedTokenLands(t *testing.T) {
	t.Parallel()
	u, cfg := startUp(t, fastExits)
	env := newExitsEnv(t, u, cfg)
	tok := env.token(t, map[string]any{"chain": "base", "venue": "v2", "name": "Taxed", "symbol": "TX", "liquidity": "1",
		"buy_tax_pct": 5, "sell_tax_pct": 25})
	buy := env.swap(t, wire.FamilyEVM, map[string]any{"address": tok.Address, "chain": "base", "side": "Buy",
		"wallets": one(env.evmW[0], "0.01"), "slippage": 10,
		"auto_orders": []map[string]any{{"type": "time", "after_seconds": 1}}})
	o := env.order(t, wire.FamilyEVM, buy, "its time exit settled", func(o *exitsOrder) bool {
		if len(o.Positions) != 1 {
			return false
		}
		return closed(o) || exitState(o, 0).State == wire.ExitFailed
	})
	if x := exitState(o, 0); x.State != wire.ExitFired || !closed(o) {
		t.Fatalf("time exit of a token taxed 25%% on sales: %s after %d sells, position %s, remaining %s; last error: %s",
			x.State, x.Attempts, o.Positions[0].State, o.Positions[0].Remaining, x.Error)
	}
}
