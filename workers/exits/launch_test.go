package exits

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/wire"
)

const lamportsPerSOL = 1_000_000_000

// solChain is the local Solana chain served over HTTP, with a client of
// it and the engine's Solana reading through that client.
type solChain struct {
	chain *soldevnet.Chain
	rpc   *rpc.Client
	s     *Solana
}

func newSolChain(t *testing.T) *solChain {
	t.Helper()
	chain := soldevnet.New(soldevnet.Config{})
	t.Cleanup(func() { _ = chain.Close() })
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(srv.Close)
	c := rpc.New(srv.URL)
	return &solChain{chain: chain, rpc: c, s: NewSolana(c, 5*time.Second)}
}

func (c *solChain) wallet(t *testing.T, lamports uint64) sol.PrivateKey {
	t.Helper()
	k, err := sol.NewRandomPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	c.chain.Airdrop(k.PublicKey(), lamports)
	return k
}

// send signs ixs by payer and sends them through the RPC client.
func (c *solChain) send(t *testing.T, payer sol.PrivateKey, ixs ...sol.Instruction) sol.Signature {
	t.Helper()
	bh, _ := c.chain.LatestBlockhash()
	tx, err := sol.NewTransaction(ixs, bh, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(k sol.PublicKey) *sol.PrivateKey {
		if k == payer.PublicKey() {
			return &payer
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sig, err := c.rpc.SendTransactionWithOpts(context.Background(), tx, rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentConfirmed})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	return sig
}

func (c *solChain) account(t *testing.T, key sol.PublicKey) []byte {
	t.Helper()
	a, ok := c.chain.GetAccount(key)
	if !ok {
		t.Fatalf("account %s missing", key)
	}
	return a.Data
}

func (c *solChain) tokens(t *testing.T, owner, mint sol.PublicKey) uint64 {
	t.Helper()
	n, err := c.chain.TokenBalance(owner, mint)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The instructions a wallet wraps SOL with to pay a curve in WSOL, and
// unwraps the rest with afterwards.

func createATAIdempotent(payer, owner, mint sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(sol.SPLAssociatedTokenAccountProgramID, sol.AccountMetaSlice{
		{PublicKey: payer, IsSigner: true, IsWritable: true},
		{PublicKey: launchlab.AssociatedTokenAddress(owner, mint, sol.TokenProgramID), IsWritable: true},
		{PublicKey: owner}, {PublicKey: mint}, {PublicKey: sol.SystemProgramID}, {PublicKey: sol.TokenProgramID},
	}, []byte{1})
}

func wrapSOL(user sol.PublicKey, lamports uint64) []sol.Instruction {
	wsol := launchlab.AssociatedTokenAddress(user, sol.SolMint, sol.TokenProgramID)
	transfer := make([]byte, 12)
	transfer[0] = 2 // system transfer
	for i := range 8 {
		transfer[4+i] = byte(lamports >> (8 * i))
	}
	return []sol.Instruction{
		createATAIdempotent(user, user, sol.SolMint),
		sol.NewInstruction(sol.SystemProgramID, sol.AccountMetaSlice{
			{PublicKey: user, IsSigner: true, IsWritable: true}, {PublicKey: wsol, IsWritable: true}}, transfer),
		sol.NewInstruction(sol.TokenProgramID, sol.AccountMetaSlice{{PublicKey: wsol, IsWritable: true}}, []byte{17}), // sync_native
	}
}

func closeWSOL(user sol.PublicKey) sol.Instruction {
	wsol := launchlab.AssociatedTokenAddress(user, sol.SolMint, sol.TokenProgramID)
	return sol.NewInstruction(sol.TokenProgramID, sol.AccountMetaSlice{
		{PublicKey: wsol, IsWritable: true}, {PublicKey: user, IsWritable: true}, {PublicKey: user, IsSigner: true},
	}, []byte{9})
}

// letsBonkBuy buys the coin of pool with lamports on its LaunchLab curve.
func (c *solChain) letsBonkBuy(t *testing.T, buyer sol.PrivateKey, pool *launchlab.PoolState, lamports uint64) sol.Signature {
	t.Helper()
	user := buyer.PublicKey()
	a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(user, pool))
	ixs := append(wrapSOL(user, lamports), createATAIdempotent(user, user, pool.BaseMint),
		launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: lamports}), closeWSOL(user))
	return c.send(t, buyer, ixs...)
}

// bagsBuy buys mint with lamports on its bags DBC virtual pool.
func (c *solChain) bagsBuy(t *testing.T, buyer sol.PrivateKey, mint sol.PublicKey, lamports uint64) sol.Signature {
	t.Helper()
	user := buyer.PublicKey()
	a := dbc.NewSwapAccounts(dbc.SwapParams{Config: dbc.LocalBagsPoolConfig, BaseMint: mint, QuoteMint: sol.SolMint, User: user, Buy: true})
	ixs := append(wrapSOL(user, lamports), createATAIdempotent(user, user, mint),
		dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: lamports}), closeWSOL(user))
	return c.send(t, buyer, ixs...)
}

// letsBonkSell sells amount of the coin of pool on its LaunchLab curve.
func (c *solChain) letsBonkSell(t *testing.T, seller sol.PrivateKey, pool *launchlab.PoolState, amount uint64) sol.Signature {
	t.Helper()
	user := seller.PublicKey()
	a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(user, pool))
	return c.send(t, seller, createATAIdempotent(user, user, sol.SolMint),
		launchlab.SellExactInInstruction(&a, launchlab.SellExactInArgs{AmountIn: amount}), closeWSOL(user))
}

// bagsSell sells amount of mint on its bags DBC virtual pool.
func (c *solChain) bagsSell(t *testing.T, seller sol.PrivateKey, mint sol.PublicKey, amount uint64) sol.Signature {
	t.Helper()
	user := seller.PublicKey()
	a := dbc.NewSwapAccounts(dbc.SwapParams{Config: dbc.LocalBagsPoolConfig, BaseMint: mint, QuoteMint: sol.SolMint, User: user})
	return c.send(t, seller, createATAIdempotent(user, user, sol.SolMint),
		dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: amount}), closeWSOL(user))
}

func (c *solChain) letsBonkPool(t *testing.T, pool sol.PublicKey) launchlab.PoolState {
	t.Helper()
	p, err := launchlab.DecodePool(c.account(t, pool))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (c *solChain) bagsPool(t *testing.T, pool sol.PublicKey) (dbc.VirtualPool, dbc.PoolConfig) {
	t.Helper()
	p, err := dbc.DecodeVirtualPool(c.account(t, pool))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := dbc.DecodePoolConfig(c.account(t, p.Config))
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg
}

// rewrittenTx answers getTransaction with the chain's answer changed by
// edit, and everything else as the chain does.
type rewrittenTx struct {
	*rpc.Client
	edit func(*rpc.GetTransactionResult)
}

func (r rewrittenTx) GetTransaction(ctx context.Context, sig sol.Signature, opts *rpc.GetTransactionOpts) (*rpc.GetTransactionResult, error) {
	tx, err := r.Client.GetTransaction(ctx, sig, opts)
	if err == nil && tx != nil && tx.Meta != nil {
		r.edit(tx)
	}
	return tx, err
}

func withoutProgramData(tx *rpc.GetTransactionResult) {
	var logs []string
	for _, l := range tx.Meta.LogMessages {
		if !strings.HasPrefix(l, "Program data: ") {
			logs = append(logs, l)
		}
	}
	tx.Meta.LogMessages = logs
}

func withoutInnerInstructions(tx *rpc.GetTransactionResult) { tx.Meta.InnerInstructions = nil }

// checkEventsRead proves a fill is read from the inner instructions: with
// no "Program data" log line (as on mainnet, where these programs emit
// through a self-invocation) the fill is the same; with the logs but no
// inner instructions there is none. A sell is no buy.
func checkEventsRead(t *testing.T, c *solChain, sig, sell sol.Signature, wallet sol.PublicKey, want *Fill) {
	t.Helper()
	ctx := context.Background()
	noLogs := NewSolana(rewrittenTx{c.rpc, withoutProgramData}, 5*time.Second)
	f, err := noLogs.Fill(ctx, sig.String(), wallet.String(), "", true, nil)
	if err != nil {
		t.Fatalf("fill without Program data logs: %v", err)
	}
	if f.Token != want.Token || f.Pool != want.Pool || f.Spent.Cmp(want.Spent) != 0 || f.Received.Cmp(want.Received) != 0 {
		t.Fatalf("fill without Program data logs %+v, want %+v", f, want)
	}
	noInner := NewSolana(rewrittenTx{c.rpc, withoutInnerInstructions}, 5*time.Second)
	if _, err := noInner.Fill(ctx, sig.String(), wallet.String(), "", true, nil); !errors.Is(err, ErrNoTrade) {
		t.Fatalf("fill without inner instructions: %v, want ErrNoTrade", err)
	}
	// Another wallet's transaction holds no buy of this one.
	other := c.wallet(t, 0).PublicKey()
	if _, err := c.s.Fill(ctx, sig.String(), other.String(), "", true, nil); !errors.Is(err, ErrNoTrade) {
		t.Fatalf("fill for a wallet that did not sign: %v, want ErrNoTrade", err)
	}
	if _, err := c.s.Fill(ctx, sell.String(), wallet.String(), "", true, nil); !errors.Is(err, ErrNoTrade) {
		t.Fatalf("fill of a sell: %v, want ErrNoTrade", err)
	}
}

func ratf(r *big.Rat) string {
	if r == nil {
		return "<nil>"
	}
	return r.FloatString(18)
}

// near tells whether got is within tol (relative) of want.
func near(got, want *big.Rat, tol float64) bool {
	d := new(big.Rat).Sub(got, want)
	d.Abs(d)
	return d.Cmp(new(big.Rat).Mul(want, new(big.Rat).SetFloat64(tol))) <= 0
}

// launchLabSpot is the curve's price in SOL per whole token, from its
// reserves.
func launchLabSpot(p *launchlab.PoolState) *big.Rat {
	return new(big.Rat).SetFrac(
		new(big.Int).Mul(new(big.Int).SetUint64(p.VirtualQuote+p.RealQuote), pow10(p.BaseDecimals)),
		new(big.Int).Mul(new(big.Int).SetUint64(p.VirtualBase-p.RealBase), pow10(p.QuoteDecimals)))
}

// TestLaunchLabFillAndPrice buys a letsbonk coin on its LaunchLab curve on
// the local chain and reads the fill and the price as the engine does:
// the fill names the coin, its pool, the quote paid with fees and the
// tokens received, and its creator; the price is the curve's, rises when
// another wallet buys, and once the curve sells out the coin is not priced
// any more.
func TestLaunchLabFillAndPrice(t *testing.T) {
	t.Parallel()
	c := newSolChain(t)
	ctx := context.Background()
	creator := c.wallet(t, 10*lamportsPerSOL)
	buyer := c.wallet(t, 10*lamportsPerSOL)
	coin, err := c.chain.CreateLetsBonkCoin(creator, "Exit Bonk", "XBONK")
	if err != nil {
		t.Fatal(err)
	}
	before := c.letsBonkPool(t, coin.Pool)
	g, err := launchlab.DecodeGlobalConfig(c.account(t, before.GlobalConfig))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := launchlab.DecodePlatformConfig(c.account(t, before.PlatformConfig))
	if err != nil {
		t.Fatal(err)
	}
	const spend = lamportsPerSOL / 2
	q, err := launchlab.QuoteBuyExactIn(&before, launchlab.RatesOf(&g, &pc, 0), spend)
	if err != nil {
		t.Fatal(err)
	}
	sig := c.letsBonkBuy(t, buyer, &before, spend)

	f, err := c.s.Fill(ctx, sig.String(), buyer.PublicKey().String(), coin.Mint.String(), true, nil)
	if err != nil {
		t.Fatalf("fill: %v", err)
	}
	if f.Token != coin.Mint.String() || f.Venue != wire.VenueLaunchLab || f.Pool != coin.Pool.String() ||
		f.QuoteAsset != "SOL" || f.QuoteDecimals != 9 || f.Decimals != launchlab.LetsBonkDecimals {
		t.Fatalf("fill %+v", f)
	}
	if f.Spent.Uint64() != spend || q.AmountIn != spend {
		t.Fatalf("spent %s, want the %d paid, fees included", f.Spent, spend)
	}
	if got := c.tokens(t, buyer.PublicKey(), coin.Mint); f.Received.Uint64() != got || got != q.AmountOut || got == 0 {
		t.Fatalf("received %s, the wallet holds %d, the curve gives %d", f.Received, got, q.AmountOut)
	}
	if f.Dev != creator.PublicKey().String() || f.DevBalance == nil || f.DevBalance.Sign() != 0 {
		t.Fatalf("dev %q holding %v, want %s holding 0", f.Dev, f.DevBalance, creator.PublicKey())
	}
	sell := c.letsBonkSell(t, buyer, &before, f.Received.Uint64()/10)
	checkEventsRead(t, c, sig, sell, buyer.PublicKey(), f)

	m, obs := observeFill(ctx, t, c.s, f)
	after := c.letsBonkPool(t, coin.Pool)
	if want := launchLabSpot(&after); obs.Price == nil || obs.Price.Cmp(want) != 0 {
		t.Fatalf("price %s, want %s", ratf(obs.Price), ratf(want))
	}
	// The curve's own quote of a small buy, fees aside, costs that price.
	small, err := launchlab.QuoteBuyExactIn(&after, launchlab.Rates{}, lamportsPerSOL/1000)
	if err != nil {
		t.Fatal(err)
	}
	if avg := wholePrice(new(big.Int).SetUint64(small.AmountIn), new(big.Int).SetUint64(small.AmountOut), 9, f.Decimals); !near(obs.Price, avg, 1e-4) {
		t.Fatalf("price %s, a small buy pays %s", ratf(obs.Price), ratf(avg))
	}
	// The buy cost more than the price before it, fees and impact included.
	entry := wholePrice(f.Spent, f.Received, f.QuoteDecimals, f.Decimals)
	if entry.Cmp(launchLabSpot(&before)) <= 0 {
		t.Fatalf("entry %s not above the price before the buy %s", ratf(entry), ratf(launchLabSpot(&before)))
	}
	if obs.DevBalance == nil || obs.DevBalance.Sign() != 0 {
		t.Fatalf("dev balance %v, want 0", obs.DevBalance)
	}

	// The creator buys: the price rises, and the creator's holding shows.
	c.letsBonkBuy(t, creator, &after, lamportsPerSOL)
	up, err := m.Observe(ctx)
	if err != nil {
		t.Fatalf("observe: %v", err)
	}
	now := c.letsBonkPool(t, coin.Pool)
	if up.Price.Cmp(obs.Price) <= 0 || up.Price.Cmp(launchLabSpot(&now)) != 0 {
		t.Fatalf("price after another buy %s, before %s, curve %s", ratf(up.Price), ratf(obs.Price), ratf(launchLabSpot(&now)))
	}
	if held := c.tokens(t, creator.PublicKey(), coin.Mint); up.DevBalance == nil || up.DevBalance.Uint64() != held || held == 0 {
		t.Fatalf("dev balance %v, the creator holds %d", up.DevBalance, held)
	}

	// A whale buys the rest of the curve: the pool leaves it for Raydium.
	whale := c.wallet(t, 200*lamportsPerSOL)
	c.letsBonkBuy(t, whale, &now, 150*lamportsPerSOL)
	if st := c.letsBonkPool(t, coin.Pool).Status; st == launchlab.StatusFund {
		t.Fatalf("pool still on its curve after a buy-out (status %d)", st)
	}
	if _, err := m.Observe(ctx); !errors.Is(err, errMigrated) || !strings.Contains(err.Error(), "Raydium") {
		t.Fatalf("observe of a migrated coin: %v, want it not priced", err)
	}
}

// dbcSpot is the curve's price in SOL per whole token, from its
// square-root price.
func dbcSpot(p *dbc.VirtualPool, decimals uint8) *big.Rat {
	sq := p.SqrtPrice.Big()
	r := new(big.Rat).SetFrac(sq.Mul(sq, sq), new(big.Int).Lsh(big.NewInt(1), 128))
	return r.Mul(r, new(big.Rat).SetFrac(pow10(decimals), pow10(9)))
}

// TestDBCFillAndPrice buys a bags coin on its DBC virtual pool on the
// local chain and reads the fill and the price as the engine does; a pool
// that completed its curve, or migrated, is not priced.
func TestDBCFillAndPrice(t *testing.T) {
	t.Parallel()
	c := newSolChain(t)
	ctx := context.Background()
	creator := c.wallet(t, 10*lamportsPerSOL)
	buyer := c.wallet(t, 10*lamportsPerSOL)
	coin, err := c.chain.CreateBagsCoin(creator, "Exit Bag", "XBAG")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := c.bagsPool(t, coin.Pool)
	const spend = lamportsPerSOL / 2
	sig := c.bagsBuy(t, buyer, coin.Mint, spend)

	f, err := c.s.Fill(ctx, sig.String(), buyer.PublicKey().String(), coin.Mint.String(), true, nil)
	if err != nil {
		t.Fatalf("fill: %v", err)
	}
	if f.Token != coin.Mint.String() || f.Venue != wire.VenueDBC || f.Pool != coin.Pool.String() ||
		f.QuoteAsset != "SOL" || f.QuoteDecimals != 9 || f.Decimals != dbc.BagsTokenDecimals {
		t.Fatalf("fill %+v", f)
	}
	if f.Spent.Uint64() != spend {
		t.Fatalf("spent %s, want the %d paid, fees included", f.Spent, spend)
	}
	if got := c.tokens(t, buyer.PublicKey(), coin.Mint); f.Received.Uint64() != got || got == 0 {
		t.Fatalf("received %s, the wallet holds %d", f.Received, got)
	}
	if f.Dev != creator.PublicKey().String() || f.DevBalance == nil || f.DevBalance.Sign() != 0 {
		t.Fatalf("dev %q holding %v, want %s holding 0", f.Dev, f.DevBalance, creator.PublicKey())
	}
	sell := c.bagsSell(t, buyer, coin.Mint, f.Received.Uint64()/10)
	checkEventsRead(t, c, sig, sell, buyer.PublicKey(), f)

	m, obs := observeFill(ctx, t, c.s, f)
	after, cfg := c.bagsPool(t, coin.Pool)
	if want := dbcSpot(&after, f.Decimals); obs.Price == nil || obs.Price.Cmp(want) != 0 {
		t.Fatalf("price %s, want %s", ratf(obs.Price), ratf(want))
	}
	// The curve's own quote of a small buy, fees aside, costs that price.
	small, err := dbc.QuoteSwapExactIn(&after, &cfg, lamportsPerSOL/1000, true, false, uint64(time.Now().Unix()))
	if err != nil {
		t.Fatal(err)
	}
	if avg := wholePrice(new(big.Int).SetUint64(small.ActualIn), new(big.Int).SetUint64(small.AmountOut), 9, f.Decimals); !near(obs.Price, avg, 1e-4) {
		t.Fatalf("price %s, a small buy pays %s", ratf(obs.Price), ratf(avg))
	}
	entry := wholePrice(f.Spent, f.Received, f.QuoteDecimals, f.Decimals)
	if entry.Cmp(dbcSpot(&before, f.Decimals)) <= 0 {
		t.Fatalf("entry %s not above the price before the buy %s", ratf(entry), ratf(dbcSpot(&before, f.Decimals)))
	}

	// The creator buys: the price rises, and the creator's holding shows.
	c.bagsBuy(t, creator, coin.Mint, lamportsPerSOL)
	up, err := m.Observe(ctx)
	if err != nil {
		t.Fatalf("observe: %v", err)
	}
	now, _ := c.bagsPool(t, coin.Pool)
	if up.Price.Cmp(obs.Price) <= 0 || up.Price.Cmp(dbcSpot(&now, f.Decimals)) != 0 {
		t.Fatalf("price after another buy %s, before %s, curve %s", ratf(up.Price), ratf(obs.Price), ratf(dbcSpot(&now, f.Decimals)))
	}
	if held := c.tokens(t, creator.PublicKey(), coin.Mint); up.DevBalance == nil || up.DevBalance.Uint64() != held || held == 0 {
		t.Fatalf("dev balance %v, the creator holds %d", up.DevBalance, held)
	}

	// A pool that raised its migration threshold, or that migrated, is
	// off its curve.
	acc, _ := c.chain.GetAccount(coin.Pool)
	for name, edit := range map[string]func(*dbc.VirtualPool){
		"curve complete": func(p *dbc.VirtualPool) { p.QuoteReserve = cfg.MigrationQuoteThreshold },
		"migrated":       func(p *dbc.VirtualPool) { p.IsMigrated = 1 },
	} {
		p := now
		edit(&p)
		changed := acc
		changed.Data = p.Encode()
		c.chain.SetAccount(coin.Pool, changed)
		if _, err := m.Observe(ctx); !errors.Is(err, errMigrated) || !strings.Contains(err.Error(), "Meteora") {
			t.Fatalf("%s: observe: %v, want it not priced", name, err)
		}
	}
	c.chain.SetAccount(coin.Pool, acc)
	if _, err := m.Observe(ctx); err != nil {
		t.Fatalf("observe once back on the curve: %v", err)
	}
}

// observeFill opens a position's market from a fill and observes it once.
func observeFill(ctx context.Context, t *testing.T, s *Solana, f *Fill) (Market, Observation) {
	t.Helper()
	p := &wire.Position{ID: "p", Token: f.Token, Venue: f.Venue, Pool: f.Pool, Decimals: f.Decimals, Dev: f.Dev}
	m, err := s.Market(p)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := m.Observe(ctx)
	if err != nil {
		t.Fatalf("observe: %v", err)
	}
	return m, obs
}
