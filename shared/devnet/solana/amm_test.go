package solana

import (
	"context"
	"encoding/binary"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// poolState is a pool as a client reads it over RPC.
type poolState struct {
	key      sol.PublicKey
	pool     pumpswap.Pool
	gc       pumpswap.GlobalConfig
	fc       pumpswap.FeeConfig
	res      pumpswap.Reserves
	supply   uint64
	baseProg sol.PublicKey
	quoteTP  sol.PublicKey
}

func (s *poolState) rates() pumpswap.Rates {
	return pumpswap.ComputeFees(&s.gc, &s.fc, &s.pool, s.res, s.supply)
}

func readPool(t testing.TB, cl *rpc.Client, pool sol.PublicKey) poolState {
	t.Helper()
	ctx := context.Background()
	st := poolState{key: pool}
	out, err := cl.GetMultipleAccounts(ctx, pool, pumpswap.GlobalConfigPDA, pumpswap.FeeConfigPDA)
	if err != nil {
		t.Fatal(err)
	}
	for i, dec := range []interface{ Decode([]byte) error }{&st.pool, &st.gc, &st.fc} {
		if out.Value[i] == nil {
			t.Fatalf("account %d of the pool's state missing", i)
		}
		if err := dec.Decode(out.Value[i].Data.GetBinary()); err != nil {
			t.Fatalf("decode %d: %v", i, err)
		}
	}
	more, err := cl.GetMultipleAccounts(ctx, st.pool.PoolBaseTokenAccount, st.pool.PoolQuoteTokenAccount, st.pool.BaseMint, st.pool.QuoteMint)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range more.Value {
		if a == nil {
			t.Fatalf("pool account %d missing", i)
		}
	}
	st.res = pumpswap.Reserves{
		Base:    binary.LittleEndian.Uint64(more.Value[0].Data.GetBinary()[64:]),
		Quote:   binary.LittleEndian.Uint64(more.Value[1].Data.GetBinary()[64:]),
		Virtual: st.pool.VirtualQuoteReserves,
	}
	st.supply = binary.LittleEndian.Uint64(more.Value[2].Data.GetBinary()[36:])
	st.baseProg, st.quoteTP = more.Value[2].Owner, more.Value[3].Owner
	return st
}

func (s *poolState) accounts(user sol.PublicKey) pumpswap.SwapAccounts {
	return pumpswap.NewSwapAccounts(pumpswap.TradeParams{
		Pool: s.key, PoolState: &s.pool, User: user, BaseTokenProgram: s.baseProg, QuoteTokenProgram: s.quoteTP,
		ProtocolFeeRecipient: s.gc.ProtocolFeeRecipients[2], BuybackFeeRecipient: s.gc.BuybackFeeRecipients[4],
	})
}

// buyIxs returns the instructions of a buy spending quote: the user's base
// account, for a SOL pool the wrapped SOL around the swap, and the swap.
func (s *poolState) buyIxs(user sol.PublicKey, quote, minOut uint64) []sol.Instruction {
	a := s.accounts(user)
	ixs := []sol.Instruction{ataIx(user, user, s.pool.BaseMint, s.baseProg, true)}
	wsol := s.pool.QuoteMint == nativeMintID
	if wsol {
		ixs = append(ixs, ataIx(user, user, nativeMintID, tokenProgramID, true), transferIx(user, a.UserQuoteTokenAccount, quote),
			sol.NewInstruction(tokenProgramID, sol.AccountMetaSlice{{PublicKey: a.UserQuoteTokenAccount, IsWritable: true}}, []byte{17}))
	}
	ixs = append(ixs, pumpswap.BuyExactQuoteInInstruction(&a, pumpswap.BuyExactQuoteInArgs{SpendableQuoteIn: quote, MinBaseAmountOut: minOut, TrackVolume: true}))
	if wsol {
		ixs = append(ixs, closeIx(a.UserQuoteTokenAccount, user))
	}
	return ixs
}

func (s *poolState) sellIxs(user sol.PublicKey, base, minOut uint64) []sol.Instruction {
	a := s.accounts(user)
	ixs := []sol.Instruction{ataIx(user, user, s.pool.QuoteMint, s.quoteTP, true),
		pumpswap.SellInstruction(&a, pumpswap.SellArgs{BaseAmountIn: base, MinQuoteAmountOut: minOut})}
	if s.pool.QuoteMint == nativeMintID {
		ixs = append(ixs, closeIx(a.UserQuoteTokenAccount, user))
	}
	return ixs
}

func closeIx(account, owner sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(tokenProgramID, sol.AccountMetaSlice{
		{PublicKey: account, IsWritable: true}, {PublicKey: owner, IsWritable: true}, {PublicKey: owner, IsSigner: true},
	}, []byte{9})
}

func TestAMMGenesis(t *testing.T) {
	c, cl := newTestChain(t)
	st := readPool(t, cl, StableSOLPool)
	if st.pool.BaseMint != nativeMintID || st.pool.QuoteMint != USDCMint || st.res.Base != StablePoolSOL || st.res.Quote != StablePoolUSDC {
		t.Fatalf("stable pool %+v %+v", st.pool, st.res)
	}
	// USD per SOL: USDC units per lamport scaled by the decimals.
	if price := float64(st.res.Quote) / 1e6 / (float64(st.res.Base) / 1e9); price != 150 {
		t.Fatalf("SOL at %v USD", price)
	}
	if got := st.rates(); got != (pumpswap.Rates{LPFeeBps: 25, ProtocolFeeBps: 5}) {
		t.Fatalf("the stable pool pays %+v, want the flat fees", got)
	}
	for _, m := range []sol.PublicKey{USDCMint, USD1Mint} {
		a, ok := c.GetAccount(m)
		if !ok || a.Owner != tokenProgramID || mintDecimals(a.Data) != StableDecimals {
			t.Fatalf("mint %s: %+v", m, a)
		}
		for _, r := range st.gc.BuybackFeeRecipients {
			if a, ok := c.GetAccount(associatedTokenAddress(r, tokenProgramID, m)); !ok || tokAccOwner(a.Data) != r {
				t.Fatalf("buyback recipient %s has no %s account", r, m)
			}
		}
	}
	var assets struct {
		Mints         map[string]string `json:"mints"`
		StableSolPool string            `json:"stableSolPool"`
	}
	if err := cl.RPCCallForInto(context.Background(), &assets, "devnet_quoteAssets", nil); err != nil {
		t.Fatal(err)
	}
	if assets.Mints["USDC"] != USDCMint.String() || assets.StableSolPool != StableSOLPool.String() {
		t.Fatalf("quote assets %+v", assets)
	}
	// Another seed, the same stable pool.
	other := New(Config{Seed: "another"})
	defer other.Close()
	if _, ok := other.GetAccount(StableSOLPool); !ok {
		t.Fatal("the stable pool's address depends on the seed")
	}
}

func TestPumpSwapSOLPool(t *testing.T) {
	c, cl := newTestChain(t)
	coin, err := c.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Swap Coin", "SWAP", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if coin.Pool != pumpswap.CanonicalPoolPDA(coin.Mint, nativeMintID) {
		t.Fatalf("pool %s is not the canonical one", coin.Pool)
	}
	st := readPool(t, cl, coin.Pool)
	if st.res.Quote != DefaultPoolSOL || st.res.Base != genesisTokenTotalSupply-genesisRealTokenReserves {
		t.Fatalf("reserves %+v", st.res)
	}
	if st.pool.CoinCreator.IsZero() || !pumpswap.IsCanonical(coin.Mint, st.pool.Creator) {
		t.Fatalf("pool %+v", st.pool)
	}
	_, _, curve := readState(t, cl, coin.Mint)
	if !curve.Complete {
		t.Fatal("the curve of a graduated coin is not complete")
	}

	user := newWallet(t, c, 10*sol1)
	const spend = 1_000_000_000
	q, err := pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates(), spend)
	if err != nil {
		t.Fatal(err)
	}
	before := c.Balance(user.PublicKey())
	sig, err := send(cl, signTx(t, latest(t, cl), user, st.buyIxs(user.PublicKey(), spend, q.BaseOut)), false)
	if err != nil {
		t.Fatalf("buy: %v", err)
	}
	got, _ := c.TokenBalance(user.PublicKey(), coin.Mint)
	if got != q.BaseOut {
		t.Fatalf("bought %d tokens, quoted %d", got, q.BaseOut)
	}
	// The swap paid the quote's total; the rest of the wrapped SOL came back.
	tx := txMeta(t, cl, sig)
	spent := before - c.Balance(user.PublicKey())
	// The new accounts: the user's token account and volume accumulator, the
	// creator vault's and the protocol fee recipient's WSOL accounts.
	rents := MinimumBalanceForRentExemption(token2022AccountLen) + MinimumBalanceForRentExemption(pumpswap.UserVolumeAccumulatorSize) +
		2*MinimumBalanceForRentExemption(tokenAccountLen)
	if want := q.Total + tx.Meta.Fee + rents; spent != want {
		t.Fatalf("spent %d lamports, want %d (logs %s)", spent, want, strings.Join(tx.Meta.LogMessages, "\n"))
	}
	after := readPool(t, cl, coin.Pool)
	st.res.ApplyBuy(q)
	if after.res != st.res {
		t.Fatalf("reserves %+v, want %+v", after.res, st.res)
	}

	// Sell half back, unwrapping the proceeds.
	sq, err := pumpswap.QuoteSell(after.res, after.rates(), got/2)
	if err != nil {
		t.Fatal(err)
	}
	before = c.Balance(user.PublicKey())
	sig, err = send(cl, signTx(t, latest(t, cl), user, after.sellIxs(user.PublicKey(), got/2, sq.Net)), false)
	if err != nil {
		t.Fatalf("sell: %v", err)
	}
	if gain := c.Balance(user.PublicKey()) - before; gain != sq.Net-txMeta(t, cl, sig).Meta.Fee {
		t.Fatalf("gained %d lamports, want %d", gain, sq.Net)
	}
	final := readPool(t, cl, coin.Pool)
	after.res.ApplySell(sq)
	if final.res != after.res {
		t.Fatalf("reserves after the sell %+v, want %+v", final.res, after.res)
	}
}

func TestPumpSwapStablePool(t *testing.T) {
	c, cl := newTestChain(t)
	coin, err := c.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "USD Coin", "USDX", USDCMint, 10_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	st := readPool(t, cl, coin.Pool)
	if st.pool.QuoteMint != USDCMint || st.res.Quote != 10_000_000_000 {
		t.Fatalf("pool %+v %+v", st.pool, st.res)
	}
	_, _, curve := readState(t, cl, coin.Mint)
	if curve.QuoteMint != USDCMint {
		t.Fatalf("curve quote %s", curve.QuoteMint)
	}
	// A canonical USDC pool pays the stable tiers: about 48,000 USDC of
	// market cap is the first.
	if got := st.rates(); got.ProtocolFeeBps != GenesisAMMStableFeeTiers[0].Fees.ProtocolFeeBps {
		t.Fatalf("rates %+v", got)
	}
	user := newWallet(t, c, sol1)
	if _, err := c.MintTo(USDCMint, user.PublicKey(), 100_000_000); err != nil {
		t.Fatal(err)
	}
	q, err := pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates(), 25_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(cl, signTx(t, latest(t, cl), user, st.buyIxs(user.PublicKey(), 25_000_000, q.BaseOut)), false); err != nil {
		t.Fatalf("buy: %v", err)
	}
	usdc, _ := c.TokenBalance(user.PublicKey(), USDCMint)
	tokens, _ := c.TokenBalance(user.PublicKey(), coin.Mint)
	if usdc != 100_000_000-q.Total || tokens != q.BaseOut {
		t.Fatalf("usdc %d tokens %d, quote %+v", usdc, tokens, q)
	}
	after := readPool(t, cl, coin.Pool)
	sq, _ := pumpswap.QuoteSell(after.res, after.rates(), tokens)
	if _, err := send(cl, signTx(t, latest(t, cl), user, after.sellIxs(user.PublicKey(), tokens, sq.Net)), false); err != nil {
		t.Fatalf("sell: %v", err)
	}
	if got, _ := c.TokenBalance(user.PublicKey(), USDCMint); got != usdc+sq.Net {
		t.Fatalf("usdc after the sell %d, want %d", got, usdc+sq.Net)
	}
}

func TestGraduateCompletedCurve(t *testing.T) {
	c := New(Config{SlotDuration: 50 * time.Millisecond, ManualMigration: true})
	srv := httptest.NewServer(c.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = c.Close()
	})
	cl := rpc.New(srv.URL)
	s := createCoin(t, c, cl, 0)
	if _, err := c.GraduateCoin(s.mint); err == nil {
		t.Fatal("a live curve graduated")
	}
	// Buy the curve out: exactly its real tokens.
	g, fc, curve := readState(t, cl, s.mint)
	buyer := newWallet(t, c, 200*sol1)
	q, err := curve.QuoteBuy(pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply), curve.RealTokenReserves)
	if err != nil {
		t.Fatal(err)
	}
	ixs := []sol.Instruction{ataIx(buyer.PublicKey(), buyer.PublicKey(), s.mint, token2022ProgramID, true),
		buyIx(buyer.PublicKey(), s.creator.PublicKey(), s.mint, q.TokensOut, q.Total)}
	if _, err := send(cl, signTx(t, latest(t, cl), buyer, ixs), false); err != nil {
		t.Fatalf("buy out: %v", err)
	}
	_, _, curve = readState(t, cl, s.mint)
	if !curve.Complete {
		t.Fatal("curve not complete")
	}
	pool, err := c.GraduateCoin(s.mint)
	if err != nil {
		t.Fatal(err)
	}
	st := readPool(t, cl, pool)
	if st.res.Base != genesisTokenTotalSupply-genesisRealTokenReserves || st.res.Quote != q.SolCost-genesisPoolMigrationFee {
		t.Fatalf("pool reserves %+v; curve took %d", st.res, q.SolCost)
	}
	if st.pool.CoinCreator != s.creator.PublicKey() {
		t.Fatalf("coin creator %s", st.pool.CoinCreator)
	}
	if _, err := c.GraduateCoin(s.mint); err == nil {
		t.Fatal("graduated twice")
	}
	// The graduated coin trades on its pool.
	user := newWallet(t, c, 5*sol1)
	bq, _ := pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates(), sol1)
	if _, err := send(cl, signTx(t, latest(t, cl), user, st.buyIxs(user.PublicKey(), sol1, bq.BaseOut)), false); err != nil {
		t.Fatalf("buy on the pool: %v", err)
	}
}

func TestCreatePoolTransaction(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 10*sol1)
	base, err := c.CreateMint(6, tokenProgramID, creator.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.MintTo(base, creator.PublicKey(), 1_000_000_000_000); err != nil {
		t.Fatal(err)
	}
	if _, err := c.MintTo(USD1Mint, creator.PublicKey(), 20_000_000_000); err != nil {
		t.Fatal(err)
	}
	a := pumpswap.NewCreatePoolAccounts(3, creator.PublicKey(), base, USD1Mint, tokenProgramID, tokenProgramID)
	ix := pumpswap.CreatePoolInstruction(&a, pumpswap.CreatePoolArgs{Index: 3, BaseAmountIn: 800_000_000_000, QuoteAmountIn: 20_000_000_000})
	if _, err := send(cl, signTx(t, latest(t, cl), creator, []sol.Instruction{ix}), false); err != nil {
		t.Fatalf("create_pool: %v", err)
	}
	st := readPool(t, cl, a.Pool)
	if st.pool.Index != 3 || st.pool.Creator != creator.PublicKey() || st.res.Base != 800_000_000_000 || st.res.Quote != 20_000_000_000 {
		t.Fatalf("pool %+v %+v", st.pool, st.res)
	}
	lp, _ := c.TokenBalance(creator.PublicKey(), a.LPMint)
	// floor(sqrt(8e11 * 2e10)), less the locked minimum.
	if lp != 126_491_106_406-ammMinimumLiquidity || st.pool.LPSupply != lp {
		t.Fatalf("lp %d, supply %d", lp, st.pool.LPSupply)
	}
	if acc, _ := c.GetAccount(a.Pool); len(acc.Data) != pumpswap.PoolAccountSize {
		t.Fatalf("pool is %d bytes", len(acc.Data))
	}
	// A second create of the same pool fails; a pool that names a coin
	// creator must be a canonical pump pool.
	for _, tc := range []struct {
		name string
		args pumpswap.CreatePoolArgs
		want string
	}{
		{"again", pumpswap.CreatePoolArgs{Index: 3, BaseAmountIn: 1_000_000, QuoteAmountIn: 1_000_000}, "already in use"},
		{"coin creator", pumpswap.CreatePoolArgs{Index: 4, BaseAmountIn: 1_000_000, QuoteAmountIn: 1_000_000, CoinCreator: creator.PublicKey()}, "Error Number: 6028"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.AdvanceSlot()
			a := pumpswap.NewCreatePoolAccounts(tc.args.Index, creator.PublicKey(), base, USD1Mint, tokenProgramID, tokenProgramID)
			_, err := send(cl, signTx(t, latest(t, cl), creator, []sol.Instruction{pumpswap.CreatePoolInstruction(&a, tc.args)}), false)
			if err == nil {
				t.Fatal("succeeded")
			}
			re, _ := rpcErr(t, err)
			if logs := logsOf(re); !strings.Contains(logs, tc.want) {
				t.Fatalf("logs lack %q:\n%s", tc.want, logs)
			}
		})
	}
	// A non-canonical USD1 pool pays the flat fees; its buys work.
	user := newWallet(t, c, sol1)
	if _, err := c.MintTo(USD1Mint, user.PublicKey(), 1_000_000_000); err != nil {
		t.Fatal(err)
	}
	if got := st.rates(); got != (pumpswap.Rates{LPFeeBps: 25, ProtocolFeeBps: 5}) {
		t.Fatalf("rates %+v", got)
	}
	q, _ := pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates(), 1_000_000_000)
	if _, err := send(cl, signTx(t, latest(t, cl), user, st.buyIxs(user.PublicKey(), 1_000_000_000, q.BaseOut)), false); err != nil {
		t.Fatalf("buy: %v", err)
	}
}

func TestAMMProgramErrors(t *testing.T) {
	c, cl := newTestChain(t)
	coin, err := c.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Err Coin", "ERR", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := readPool(t, cl, coin.Pool)
	user := newWallet(t, c, 10*sol1)
	q, _ := pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates(), sol1)
	withAccounts := func(change func(a *pumpswap.SwapAccounts), args pumpswap.BuyExactQuoteInArgs) []sol.Instruction {
		a := st.accounts(user.PublicKey())
		change(&a)
		ixs := st.buyIxs(user.PublicKey(), sol1, 0)
		ixs[4] = pumpswap.BuyExactQuoteInInstruction(&a, args)
		return ixs
	}
	args := pumpswap.BuyExactQuoteInArgs{SpendableQuoteIn: sol1, MinBaseAmountOut: q.BaseOut}
	tests := []struct {
		name string
		ixs  []sol.Instruction
		want string
	}{
		{"slippage", withAccounts(func(*pumpswap.SwapAccounts) {}, pumpswap.BuyExactQuoteInArgs{SpendableQuoteIn: sol1, MinBaseAmountOut: q.BaseOut + 1}), "Error Number: 6040"},
		{"unknown fee recipient", withAccounts(func(a *pumpswap.SwapAccounts) {
			a.ProtocolFeeRecipient = user.PublicKey()
			a.ProtocolFeeRecipientTokenAccount = associatedTokenAddress(user.PublicKey(), tokenProgramID, nativeMintID)
		}, args), "Error Number: 6013"},
		{"no pool_v2", withAccounts(func(a *pumpswap.SwapAccounts) { a.HasCoinCreator = false }, args), "Error Number: 6062"},
		{"unknown buyback recipient", withAccounts(func(a *pumpswap.SwapAccounts) { a.BuybackFeeRecipient = user.PublicKey() }, args), "Error Number: 6053"},
		{"wrong base vault", withAccounts(func(a *pumpswap.SwapAccounts) { a.PoolBaseTokenAccount = a.UserBaseTokenAccount }, args), "Error Number: 6014"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.AdvanceSlot()
			_, err := send(cl, signTx(t, latest(t, cl), user, tt.ixs), false)
			if err == nil {
				t.Fatal("succeeded")
			}
			re, _ := rpcErr(t, err)
			if logs := logsOf(re); !strings.Contains(logs, tt.want) {
				t.Fatalf("logs lack %q:\n%s", tt.want, logs)
			}
		})
	}

	// A pool written under an older, shorter layout must be extended first.
	acc, _ := c.GetAccount(coin.Pool)
	acc.Data = acc.Data[:pumpswap.PoolSize-26] // through coin_creator and the flags
	c.SetAccount(coin.Pool, acc)
	c.AdvanceSlot()
	_, err = send(cl, signTx(t, latest(t, cl), user, st.buyIxs(user.PublicKey(), sol1, 0)), false)
	if err == nil {
		t.Fatal("a buy on a short pool succeeded")
	}
	if re, _ := rpcErr(t, err); !strings.Contains(logsOf(re), "Error Number: 3004") {
		t.Fatalf("buy on a short pool:\n%s", logsOf(re))
	}
	ixs := append([]sol.Instruction{pumpswap.ExtendAccountInstruction(coin.Pool, user.PublicKey())}, st.buyIxs(user.PublicKey(), sol1, 0)...)
	c.AdvanceSlot()
	if _, err := send(cl, signTx(t, latest(t, cl), user, ixs), false); err != nil {
		t.Fatalf("extend and buy: %v", err)
	}
	if acc, _ := c.GetAccount(coin.Pool); len(acc.Data) != pumpswap.PoolAccountSize || acc.Lamports < MinimumBalanceForRentExemption(pumpswap.PoolAccountSize) {
		t.Fatalf("extended pool %d bytes, %d lamports", len(acc.Data), acc.Lamports)
	}
}

// logsOf returns the program logs of a refused preflight, one per line,
// after its message.
func logsOf(re *jsonrpc.RPCError) string {
	out := re.Message + "\n"
	m, _ := re.Data.(map[string]any)
	logs, _ := m["logs"].([]any)
	for _, l := range logs {
		s, _ := l.(string)
		out += s + "\n"
	}
	return out
}

type txWithMeta struct {
	Meta struct {
		Fee         uint64   `json:"fee"`
		LogMessages []string `json:"logMessages"`
	} `json:"meta"`
}

func txMeta(t testing.TB, cl *rpc.Client, sig sol.Signature) txWithMeta {
	t.Helper()
	var out txWithMeta
	if err := cl.RPCCallForInto(context.Background(), &out, "getTransaction", []any{sig.String(), map[string]string{"encoding": "json"}}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAMMGenesisAfterRestart opens a state file written before the chain
// ran the AMM: the AMM's accounts appear, and what existed is kept.
func TestAMMGenesisAfterRestart(t *testing.T) {
	path := t.TempDir() + "/solana.state"
	cfg := Config{SlotDuration: 50 * time.Millisecond, StateFile: path, SaveInterval: -1}
	c1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	usdc, _ := c1.GetAccount(USDCMint)
	for _, k := range []sol.PublicKey{pumpswap.GlobalConfigPDA, pumpswap.FeeConfigPDA} {
		c1.SetAccount(k, Account{})
	}
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	for _, k := range []sol.PublicKey{pumpswap.GlobalConfigPDA, pumpswap.FeeConfigPDA, StableSOLPool} {
		if _, ok := c2.GetAccount(k); !ok {
			t.Fatalf("%s missing after the restart", k)
		}
	}
	if again, _ := c2.GetAccount(USDCMint); mintSupply(again.Data) != mintSupply(usdc.Data) {
		t.Fatalf("USDC supply %d, was %d", mintSupply(again.Data), mintSupply(usdc.Data))
	}
}

// TestAutomaticMigration completes a curve and lets the next slot migrate
// it, as pump.fun's migration does on mainnet.
func TestAutomaticMigration(t *testing.T) {
	c, cl := newTestChain(t)
	s := createCoin(t, c, cl, 0)
	g, fc, curve := readState(t, cl, s.mint)
	q, err := curve.QuoteBuy(pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply), curve.RealTokenReserves)
	if err != nil {
		t.Fatal(err)
	}
	buyer := newWallet(t, c, 200*sol1)
	ixs := []sol.Instruction{ataIx(buyer.PublicKey(), buyer.PublicKey(), s.mint, token2022ProgramID, true),
		buyIx(buyer.PublicKey(), s.creator.PublicKey(), s.mint, q.TokensOut, q.Total)}
	if _, err := send(cl, signTx(t, latest(t, cl), buyer, ixs), false); err != nil {
		t.Fatalf("buy out: %v", err)
	}
	c.AdvanceSlot()
	pool := pumpswap.CanonicalPoolPDA(s.mint, nativeMintID)
	st := readPool(t, cl, pool)
	if st.res.Quote != q.SolCost-genesisPoolMigrationFee || st.pool.CoinCreator != s.creator.PublicKey() {
		t.Fatalf("migrated pool %+v %+v", st.pool, st.res)
	}
	if _, err := c.GraduateCoin(s.mint); err == nil {
		t.Fatal("a migrated curve graduated again")
	}
}
