package exits

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestPumpFunMarketFollowsTheCoinToPumpSwap: the market of a position
// bought on a pump.fun curve says where a sale of the coin goes: nothing
// beyond the position's own venue while the curve trades, PumpSwap once
// the curve completed and the coin moved to its canonical pool, which a
// position bought in that pool says too.
func TestPumpFunMarketFollowsTheCoinToPumpSwap(t *testing.T) {
	t.Parallel()
	c := newSolChain(t)
	ctx := context.Background()
	creator := c.wallet(t, lamportsPerSOL).PublicKey()
	venueOf := func(p *wire.Position) string {
		t.Helper()
		m, err := c.s.Market(p)
		if err != nil {
			t.Fatal(err)
		}
		if obs, err := m.Observe(ctx); err != nil || obs.Price == nil {
			t.Fatalf("observe %s: %+v %v", p.Token, obs, err)
		}
		v, ok := m.(sellVenuer)
		if !ok {
			t.Fatalf("the market of a %s position does not say where its sales go", p.Venue)
		}
		return v.sellVenue()
	}

	live, err := c.chain.CreatePumpCoin(creator, "Live Coin", "LIVE")
	if err != nil {
		t.Fatal(err)
	}
	if got := venueOf(&wire.Position{Token: live.Mint.String(), Venue: wire.VenuePumpFun, Decimals: 6}); got != "" {
		t.Fatalf("a coin on its curve sells on %q, want the position's own venue", got)
	}

	grad, err := c.chain.CreatePumpSwapCoin(creator, "Graduated Coin", "GRAD", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := venueOf(&wire.Position{Token: grad.Mint.String(), Venue: wire.VenuePumpFun, Decimals: 6}); got != wire.VenuePumpSwap {
		t.Fatalf("a coin whose curve completed sells on %q, want %q", got, wire.VenuePumpSwap)
	}
	if got := venueOf(&wire.Position{Token: grad.Mint.String(), Venue: wire.VenuePumpSwap, Pool: grad.Pool.String(), Decimals: 6}); got != wire.VenuePumpSwap {
		t.Fatalf("a coin in its canonical pool sells on %q, want %q", got, wire.VenuePumpSwap)
	}
}

// TestSolanaCreatorOfTheAccountIsNoDev: a coin bought by the wallet that
// launched it has no creator to watch for that position: its own
// take-profit would lower the creator's holding and fire its dev_sell,
// which is cancelled when the position opens, saying why. Another wallet
// of the launcher's account (a bot's sniper following its launch wallet)
// and a stranger arm their dev_sell.
func TestSolanaCreatorOfTheAccountIsNoDev(t *testing.T) {
	t.Parallel()
	c := newSolChain(t)
	ctx := context.Background()
	launcher := c.wallet(t, 10*lamportsPerSOL)
	other := c.wallet(t, 10*lamportsPerSOL)
	stranger := c.wallet(t, 10*lamportsPerSOL)
	coin, err := c.chain.CreateLetsBonkCoin(launcher, "Own Bonk", "OWNB")
	if err != nil {
		t.Fatal(err)
	}
	buy := func(w sol.PrivateKey) sol.Signature {
		pool := c.letsBonkPool(t, coin.Pool)
		return c.letsBonkBuy(t, w, &pool, lamportsPerSOL/10)
	}
	bySelf, byOther, byStranger := buy(launcher), buy(other), buy(stranger)

	// The account's wallets, as the registry would say them.
	ours := map[string]bool{launcher.PublicKey().String(): true, other.PublicKey().String(): true}
	b := bustest.Start(t, "exits-test")
	e, err := New(Config{Owns: func(account string, _ wire.Family, address string) bool {
		return account == "acc-bot" && ours[address]
	}}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: c.s}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	open := func(orderID, account string, wallet sol.PrivateKey, sig sol.Signature) *wire.Position {
		t.Helper()
		o := &wire.Order{OrderID: orderID, AccountID: account, Family: wire.FamilySol, Kind: wire.KindSwap,
			State: wire.StateConfirmed, Chain: wire.ChainSolana, Side: wire.Buy, Token: coin.Mint.String(),
			AutoOrders: []wire.AutoOrder{{Type: wire.ExitDevSell, SellPct: 100}, {Type: wire.ExitTakeProfit, TriggerPct: pct(50), SellPct: 50}},
			Signatures: []wire.SigState{{Signature: sig.String(), Wallet: wallet.PublicKey().String(), State: wire.StateConfirmed}},
			CreatedAt:  time.Now()}
		if err := e.orders.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
		if err := e.open(ctx, &events.Event{OrderID: orderID, Type: events.Confirmed, Side: wire.Buy}, false); err != nil {
			t.Fatal(err)
		}
		p, _, err := e.load(ctx, positionID(orderID, 0))
		if err != nil {
			t.Fatalf("position of %s: %v", orderID, err)
		}
		if p.Dev != launcher.PublicKey().String() {
			t.Fatalf("%s: dev %q, want the launcher %s", orderID, p.Dev, launcher.PublicKey())
		}
		return p
	}

	p := open("eu-own", "acc-bot", launcher, bySelf)
	if x := p.Exits[0]; x.State != wire.ExitCancelled || !strings.Contains(x.Error, "is the buying wallet") {
		t.Fatalf("the launcher's own buy: dev_sell %s (%q), want cancelled", x.State, x.Error)
	}
	if x := p.Exits[1]; x.State != wire.ExitArmed {
		t.Fatalf("the launcher's own buy: take_profit %s", x.State)
	}
	for name, tt := range map[string]struct {
		account string
		wallet  sol.PrivateKey
		sig     sol.Signature
	}{"another wallet of the launcher's account": {"acc-bot", other, byOther}, "a stranger": {"acc-other", stranger, byStranger}} {
		p := open("eu-"+tt.wallet.PublicKey().String()[:6], tt.account, tt.wallet, tt.sig)
		if x := p.Exits[0]; x.State != wire.ExitArmed || x.Error != "" {
			t.Fatalf("%s: dev_sell %s (%q), want armed", name, x.State, x.Error)
		}
	}
}

// TestSolanaSaleReadsTheHoldingAfterIt: a sale's moment is its slot, and
// the holding after it what its transaction left the wallet, not what the
// wallet holds now: a buy after it changes neither. A buy's fill says its
// slot too.
func TestSolanaSaleReadsTheHoldingAfterIt(t *testing.T) {
	t.Parallel()
	c := newSolChain(t)
	ctx := context.Background()
	launcher := c.wallet(t, 10*lamportsPerSOL)
	w := c.wallet(t, 10*lamportsPerSOL)
	coin, err := c.chain.CreateLetsBonkCoin(launcher, "Sold Bonk", "SOLD")
	if err != nil {
		t.Fatal(err)
	}
	pool := c.letsBonkPool(t, coin.Pool)
	buy := c.letsBonkBuy(t, w, &pool, lamportsPerSOL/10)
	f, err := c.s.Fill(ctx, buy.String(), w.PublicKey().String(), coin.Mint.String(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool = c.letsBonkPool(t, coin.Pool)
	sale := c.letsBonkSell(t, w, &pool, c.tokens(t, w.PublicKey(), coin.Mint)/2)
	left := c.tokens(t, w.PublicKey(), coin.Mint)
	pool = c.letsBonkPool(t, coin.Pool)
	c.letsBonkBuy(t, w, &pool, lamportsPerSOL/10+1) // not the first buy's bytes again
	if c.tokens(t, w.PublicKey(), coin.Mint) <= left {
		t.Fatal("the second buy bought nothing")
	}
	s, err := c.s.Sale(ctx, sale.String(), w.PublicKey().String(), coin.Mint.String())
	if err != nil {
		t.Fatal(err)
	}
	if s.Balance.Uint64() != left || s.In != solanaPlace(s.In/2, true) || f.In != solanaPlace(f.In/2, false) || f.In/2 == 0 || f.In/2 > s.In/2 {
		t.Fatalf("sale at %d holding %s, buy at %d; want the sale holding %d, in the buy's slot or after", s.In, s.Balance, f.In, left)
	}
}
