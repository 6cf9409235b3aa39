package solana

import (
	"context"
	"encoding/binary"
	"math"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

func syncNativeIx(account sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(tokenProgramID, sol.AccountMetaSlice{{PublicKey: account, IsWritable: true}}, []byte{17})
}

// wrapIxs creates user's WSOL account and moves lamports into it.
func wrapIxs(user sol.PublicKey, lamports uint64) []sol.Instruction {
	wsol := associatedTokenAddress(user, tokenProgramID, nativeMintID)
	return []sol.Instruction{ataIx(user, user, nativeMintID, tokenProgramID, true), transferIx(user, wsol, lamports), syncNativeIx(wsol)}
}

// bonkTradeIxs returns the instructions of a buy (quote in) or a sell (base
// in) on a letsbonk pool, wrapping and unwrapping SOL as the SDK does.
func bonkTradeIxs(user sol.PublicKey, pool *launchlab.PoolState, buy bool, amount, minOut uint64) []sol.Instruction {
	a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(user, pool))
	var ixs []sol.Instruction
	if buy {
		ixs = append(wrapIxs(user, amount), ataIx(user, user, pool.BaseMint, pool.BaseTokenProgram(), true),
			launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: amount, MinimumAmountOut: minOut}))
	} else {
		ixs = []sol.Instruction{ataIx(user, user, nativeMintID, tokenProgramID, true),
			launchlab.SellExactInInstruction(&a, launchlab.SellExactInArgs{AmountIn: amount, MinimumAmountOut: minOut})}
	}
	return append(ixs, closeIx(a.UserQuoteToken, user))
}

// bonkLaunchIxs returns a letsbonk create with the creator's first buy.
func bonkLaunchIxs(creator, mint sol.PublicKey, firstBuy, minOut uint64) []sol.Instruction {
	accts := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(creator, mint))
	args := launchlab.InitializeV2Args{
		Mint:  launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: "Local Bonk", Symbol: "LBONK", URI: "https://example.invalid/lbonk.json"},
		Curve: launchlab.LetsBonkCurve(),
	}
	ixs := []sol.Instruction{launchlab.InitializeV2Instruction(&accts, args)}
	if firstBuy == 0 {
		return ixs
	}
	fresh := bonkFreshPool(creator, mint)
	return append(ixs, bonkTradeIxs(creator, &fresh, true, firstBuy, minOut)...)
}

func bonkFreshPool(creator, mint sol.PublicKey) launchlab.PoolState {
	p, err := launchlab.NewPool(launchlab.LetsBonkDecimals, 9, launchlab.LetsBonkCurve(), launchlab.VestingParams{}, 0, 0)
	if err != nil {
		panic(err)
	}
	pool := launchlab.PoolPDA(mint, nativeMintID)
	p.GlobalConfig, p.PlatformConfig, p.BaseMint, p.QuoteMint, p.Creator = launchlab.SOLConstantGlobalConfig, launchlab.LetsBonkPlatformConfig, mint, nativeMintID, creator
	p.BaseVault, p.QuoteVault, p.AuthBump = launchlab.PoolVaultPDA(pool, mint), launchlab.PoolVaultPDA(pool, nativeMintID), launchlab.AuthBump
	return p
}

// bonkState reads a pool and the rates its trades pay.
func bonkState(t testing.TB, c *Chain, mint sol.PublicKey) (launchlab.PoolState, launchlab.Rates) {
	t.Helper()
	p, r, err := c.LaunchLabState(launchlab.PoolPDA(mint, nativeMintID))
	if err != nil {
		t.Fatal(err)
	}
	return p, r
}

func tokenAmount(c *Chain, account sol.PublicKey) uint64 {
	a, ok := c.GetAccount(account)
	if !ok || len(a.Data) < tokenAccountLen {
		return 0
	}
	return tokAccAmount(a.Data)
}

// landed sends tx and returns its compute units and serialized size.
func landed(t testing.TB, cl *rpc.Client, tx *sol.Transaction) (units uint64, size int) {
	t.Helper()
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sig, err := send(cl, tx, false)
	if err != nil {
		re, _ := rpcErr(t, err)
		t.Fatalf("send: %v\n%s", err, logsOf(re))
	}
	var out struct {
		Meta struct {
			Err   any    `json:"err"`
			Units uint64 `json:"computeUnitsConsumed"`
		} `json:"meta"`
	}
	if err := cl.RPCCallForInto(context.Background(), &out, "getTransaction", []any{sig.String(), map[string]string{"encoding": "json"}}); err != nil {
		t.Fatal(err)
	}
	if out.Meta.Err != nil {
		t.Fatalf("landed with %v", out.Meta.Err)
	}
	return out.Meta.Units, len(raw)
}

// refused sends tx and checks that preflight refuses it with wantErr and
// that nothing of it lands.
func refused(t testing.TB, c *Chain, cl *rpc.Client, tx *sol.Transaction, wantErr string, watch ...sol.PublicKey) {
	t.Helper()
	before := c.LandedCount()
	snap := make([]Account, len(watch))
	for i, k := range watch {
		snap[i], _ = c.GetAccount(k)
	}
	_, err := send(cl, tx, false)
	if err == nil {
		t.Fatalf("landed, want %s", wantErr)
	}
	re, txErr := rpcErr(t, err)
	if txErr != wantErr {
		t.Fatalf("error %s, want %s\n%s", txErr, wantErr, logsOf(re))
	}
	if c.LandedCount() != before {
		t.Fatal("a refused transaction landed")
	}
	for i, k := range watch {
		if a, _ := c.GetAccount(k); a.Lamports != snap[i].Lamports || string(a.Data) != string(snap[i].Data) {
			t.Fatalf("%s changed although the transaction was refused", k)
		}
	}
}

func TestLaunchLabGenesis(t *testing.T) {
	path := t.TempDir() + "/solana.state"
	cfg := Config{SlotDuration: 50 * time.Millisecond, StateFile: path, SaveInterval: -1}
	c1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	check := func(c *Chain) {
		t.Helper()
		g, ok1 := c.GetAccount(launchlab.SOLConstantGlobalConfig)
		p, ok2 := c.GetAccount(launchlab.LetsBonkPlatformConfig)
		if !ok1 || !ok2 || g.Owner != launchLabProgramID || p.Owner != launchLabProgramID {
			t.Fatal("LaunchLab genesis accounts missing")
		}
		gc, err1 := launchlab.DecodeGlobalConfig(g.Data)
		pc, err2 := launchlab.DecodePlatformConfig(p.Data)
		if err1 != nil || err2 != nil || gc.QuoteMint != nativeMintID || gc.TradeFeeRate != genesisLLTradeFeeRate || pc.FeeRate != genesisLLPlatformFeeRate {
			t.Fatalf("configs %+v %v %v", gc, err1, err2)
		}
		if launchlab.GlobalConfigPDA(gc.QuoteMint, gc.CurveType, gc.Index) != launchlab.SOLConstantGlobalConfig {
			t.Fatal("global config is not at its PDA")
		}
	}
	check(c1)
	// A file written before the launch programs existed gets them at Open.
	c1.SetAccount(launchlab.LetsBonkPlatformConfig, Account{})
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	check(c2)
}

func TestLaunchLabCreateBuySell(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 20*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	fresh := bonkFreshPool(creator.PublicKey(), mint)
	rates := launchlab.Rates{Protocol: genesisLLTradeFeeRate, Platform: genesisLLPlatformFeeRate, Creator: genesisLLCreatorFeeRate}
	first, err := launchlab.QuoteBuyExactIn(&fresh, rates, sol1)
	if err != nil {
		t.Fatal(err)
	}
	tx := signTx(t, latest(t, cl), creator, bonkLaunchIxs(creator.PublicKey(), mint, sol1, launchlab.MinOut(first.AmountOut, 100)), mintKey)
	units, size := landed(t, cl, tx)
	t.Logf("letsbonk create + creator buy: %d compute units, %d bytes", units, size)
	if size > 1232 {
		t.Fatalf("create+buy is %d bytes", size)
	}

	pool, _ := bonkState(t, c, mint)
	want := fresh
	want.ApplyBuy(first)
	if pool != want {
		t.Fatalf("pool after create+buy\n%+v\nwant\n%+v", pool, want)
	}
	poolKey := launchlab.PoolPDA(mint, nativeMintID)
	checks := []struct {
		name      string
		got, want uint64
	}{
		{"creator's tokens", tokenAmount(c, associatedTokenAddress(creator.PublicKey(), tokenProgramID, mint)), first.AmountOut},
		{"base vault", tokenAmount(c, launchlab.PoolVaultPDA(poolKey, mint)), launchlab.LetsBonkSupply - first.AmountOut},
		{"quote vault", tokenAmount(c, launchlab.PoolVaultPDA(poolKey, nativeMintID)), first.NetIn + first.Fees.Protocol},
		{"platform fee vault", tokenAmount(c, launchlab.PlatformFeeVaultPDA(launchlab.LetsBonkPlatformConfig, nativeMintID)), first.Fees.Platform},
		{"creator fee vault", tokenAmount(c, launchlab.CreatorFeeVaultPDA(creator.PublicKey(), nativeMintID)), first.Fees.Creator},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: %d, want %d", ch.name, ch.got, ch.want)
		}
	}
	if _, ok := c.GetAccount(associatedTokenAddress(creator.PublicKey(), tokenProgramID, nativeMintID)); ok {
		if a, _ := c.GetAccount(associatedTokenAddress(creator.PublicKey(), tokenProgramID, nativeMintID)); a.Lamports != 0 {
			t.Error("the creator's WSOL account was not closed")
		}
	}
	ma, _ := c.GetAccount(mint)
	if _, hasAuth := mintAuthority(ma.Data); hasAuth || mintSupply(ma.Data) != launchlab.LetsBonkSupply || ma.Owner != tokenProgramID || mintDecimals(ma.Data) != 6 {
		t.Fatalf("mint %x", ma.Data)
	}
	meta, _ := c.GetAccount(launchlab.MetadataPDA(mint))
	md, ok := DecodeMetaplexMetadata(meta.Data)
	if !ok || meta.Owner != metaplexProgramID || md.Name != "Local Bonk" || md.Symbol != "LBONK" || md.URI != "https://example.invalid/lbonk.json" || md.Mint != mint {
		t.Fatalf("metadata %+v", md)
	}

	// A second wallet buys at the price the first buy left.
	buyer := newWallet(t, c, 5*sol1)
	q, err := launchlab.QuoteBuyExactIn(&pool, rates, 2*sol1)
	if err != nil {
		t.Fatal(err)
	}
	units, size = landed(t, cl, signTx(t, latest(t, cl), buyer, bonkTradeIxs(buyer.PublicKey(), &pool, true, 2*sol1, launchlab.MinOut(q.AmountOut, 50))))
	t.Logf("letsbonk buy: %d compute units, %d bytes", units, size)
	if got := tokenAmount(c, associatedTokenAddress(buyer.PublicKey(), tokenProgramID, mint)); got != q.AmountOut {
		t.Fatalf("buyer got %d, quoted %d", got, q.AmountOut)
	}
	// The buyer paid the quote, the signature fee and the rent of its base
	// account; its WSOL account's rent came back.
	wantBal := 5*sol1 - 2*sol1 - 5000 - MinimumBalanceForRentExemption(tokenAccountLen)
	if got := c.Balance(buyer.PublicKey()); got != wantBal {
		t.Fatalf("buyer has %d lamports, want %d", got, wantBal)
	}

	// The buyer sells half back.
	pool, _ = bonkState(t, c, mint)
	s, err := launchlab.QuoteSellExactIn(&pool, rates, q.AmountOut/2)
	if err != nil {
		t.Fatal(err)
	}
	before := c.Balance(buyer.PublicKey())
	units, _ = landed(t, cl, signTx(t, latest(t, cl), buyer, bonkTradeIxs(buyer.PublicKey(), &pool, false, q.AmountOut/2, launchlab.MinOut(s.NetOut, 50))))
	t.Logf("letsbonk sell: %d compute units", units)
	if got := c.Balance(buyer.PublicKey()); got != before+s.NetOut-5000 {
		t.Fatalf("seller has %d lamports, want %d", got, before+s.NetOut-5000)
	}
	after, _ := bonkState(t, c, mint)
	pool.ApplySell(s)
	if after != pool {
		t.Fatalf("pool after the sell %+v", after)
	}

	// A buy asking one token more than the curve gives is refused whole.
	q, _ = launchlab.QuoteBuyExactIn(&after, rates, sol1)
	tx = signTx(t, latest(t, cl), buyer, bonkTradeIxs(buyer.PublicKey(), &after, true, sol1, q.AmountOut+1))
	refused(t, c, cl, tx, `{"InstructionError":[4,{"Custom":6004}]}`, buyer.PublicKey(), poolKey,
		associatedTokenAddress(buyer.PublicKey(), tokenProgramID, mint))
}

func TestLaunchLabRejects(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 20*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	landed(t, cl, signTx(t, latest(t, cl), creator, bonkLaunchIxs(creator.PublicKey(), mint, 0, 0), mintKey))
	pool, _ := bonkState(t, c, mint)
	user := newWallet(t, c, sol1)

	other := newWallet(t, c, 0)
	launch := func(edit func(*launchlab.InitializeV2Accounts, *sol.AccountMetaSlice)) []sol.Instruction {
		a := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(creator.PublicKey(), other.PublicKey()))
		ix := launchlab.InitializeV2Instruction(&a, launchlab.InitializeV2Args{Mint: launchlab.MintParams{Decimals: 6, Name: "X", Symbol: "X", URI: "u"}, Curve: launchlab.LetsBonkCurve()})
		edit(&a, &ix.AccountValues)
		return []sol.Instruction{ix}
	}
	trade := func(edit func(*launchlab.TradeAccounts)) []sol.Instruction {
		a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(user.PublicKey(), &pool))
		edit(&a)
		ixs := append(wrapIxs(user.PublicKey(), sol1/10), ataIx(user.PublicKey(), user.PublicKey(), mint, tokenProgramID, true))
		return append(ixs, launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: sol1 / 10}))
	}
	cases := []struct {
		name    string
		payer   sol.PrivateKey
		ixs     []sol.Instruction
		signers []sol.PrivateKey
		want    string
	}{
		{"pool not at its PDA", creator, launch(func(_ *launchlab.InitializeV2Accounts, m *sol.AccountMetaSlice) {
			(*m)[liPool].PublicKey = launchlab.PoolPDA(mint, nativeMintID)
		}), []sol.PrivateKey{other}, `{"InstructionError":[0,{"Custom":2006}]}`},
		{"mint does not sign", creator, launch(func(_ *launchlab.InitializeV2Accounts, m *sol.AccountMetaSlice) {
			(*m)[liBaseMint].IsSigner = false
		}), nil, `{"InstructionError":[0,{"Custom":3010}]}`},
		{"Token-2022 as the base token program", creator, launch(func(_ *launchlab.InitializeV2Accounts, m *sol.AccountMetaSlice) {
			(*m)[liBaseTokenProgram].PublicKey = token2022ProgramID
		}), []sol.PrivateKey{other}, `{"InstructionError":[0,{"Custom":3008}]}`},
		{"creator fee vault of someone else", user, trade(func(a *launchlab.TradeAccounts) {
			a.CreatorFeeVault = launchlab.CreatorFeeVaultPDA(user.PublicKey(), nativeMintID)
		}), nil, `{"InstructionError":[4,{"Custom":2006}]}`},
		{"Token-2022 as the quote token program", user, trade(func(a *launchlab.TradeAccounts) {
			a.QuoteTokenProgram = token2022ProgramID
		}), nil, `{"InstructionError":[4,{"Custom":2012}]}`},
		{"fee vaults missing", user, trade(func(a *launchlab.TradeAccounts) {
			a.SystemProgram, a.PlatformFeeVault, a.CreatorFeeVault = sol.PublicKey{}, sol.PublicKey{}, sol.PublicKey{}
		})[:5], nil, ""},
		{"more SOL wrapped than the wallet has", user, append(wrapIxs(user.PublicKey(), 2*sol1), bonkTradeIxs(user.PublicKey(), &pool, true, 2*sol1, 0)[3:]...), nil,
			`{"InstructionError":[1,{"Custom":1}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				// Build the buy without the remaining accounts by hand.
				a := launchlab.NewTradeAccounts(launchlab.TradeParamsOf(user.PublicKey(), &pool))
				ix := launchlab.BuyExactInInstruction(&a, launchlab.BuyExactInArgs{AmountIn: sol1 / 10})
				ix.AccountValues = ix.AccountValues[:launchlab.TradeFixedAccounts]
				tc.ixs = append(tc.ixs[:4], ix)
				tc.want = `{"InstructionError":[4,{"Custom":3005}]}`
			}
			c.AdvanceSlot()
			refused(t, c, cl, signTx(t, latest(t, cl), tc.payer, tc.ixs, tc.signers...), tc.want, tc.payer.PublicKey(), launchlab.PoolPDA(mint, nativeMintID))
		})
	}
}

// TestLaunchLabTransferFee trades a letsbonk coin whose mint is a
// Token-2022 mint with a transfer fee: the token program withholds the fee
// of the Clock's epoch in the destination of every checked transfer and
// refuses a plain one; a buy's minimum bounds what the buyer receives after
// the fee, a sale is priced on what reaches the vault, and an account with
// fees withheld in it cannot be closed.
func TestLaunchLabTransferFee(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 0)
	cfg := token2022.TransferFeeConfig{
		Older: token2022.TransferFee{MaximumFee: math.MaxUint64, BasisPoints: 100},
		Newer: token2022.TransferFee{Epoch: 5, MaximumFee: 1_000_000_000_000, BasisPoints: 300},
	}
	coin, err := c.CreateLetsBonkCoinWithTransferFee(creator.PublicKey(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	pool, rates := bonkState(t, c, coin.Mint)
	user := newWallet(t, c, 5*sol1)
	userBase := associatedTokenAddress(user.PublicKey(), token2022ProgramID, coin.Mint)
	baseVault := launchlab.PoolVaultPDA(coin.Pool, coin.Mint)
	withheld := func(k sol.PublicKey) uint64 {
		a, _ := c.GetAccount(k)
		off, n, ok := tlvFind(a.Data, extTransferFeeAmount)
		if !ok || n != token2022.TransferFeeAmountSize {
			t.Fatalf("%s carries no TransferFeeAmount", k)
		}
		return binary.LittleEndian.Uint64(a.Data[off:])
	}

	// Epoch 0: the older fee, 1%.
	q, err := launchlab.QuoteBuyExactInWithTransferFee(&pool, rates, sol1, cfg.At(0))
	if err != nil || q.TransferFee == 0 {
		t.Fatalf("quote %+v %v", q, err)
	}
	refused(t, c, cl, signTx(t, latest(t, cl), user, bonkTradeIxs(user.PublicKey(), &pool, true, sol1, q.Received()+1)),
		`{"InstructionError":[4,{"Custom":6004}]}`, user.PublicKey(), coin.Pool)
	landed(t, cl, signTx(t, latest(t, cl), user, bonkTradeIxs(user.PublicKey(), &pool, true, sol1, q.Received())))
	ua, _ := c.GetAccount(userBase)
	if len(ua.Data) != token2022.AssociatedAccountWithTransferFeeSize || ua.Lamports != MinimumBalanceForRentExemption(len(ua.Data)) {
		t.Fatalf("the buyer's account is %d bytes with %d lamports", len(ua.Data), ua.Lamports)
	}
	if got, w := tokenAmount(c, userBase), withheld(userBase); got != q.Received() || w != q.TransferFee {
		t.Fatalf("the buyer holds %d with %d withheld; quoted %d and %d", got, w, q.Received(), q.TransferFee)
	}
	if got := tokenAmount(c, baseVault); got != launchlab.LetsBonkSupply-q.AmountOut {
		t.Fatalf("base vault holds %d, want %d", got, launchlab.LetsBonkSupply-q.AmountOut)
	}
	want := pool
	want.ApplyBuy(q)
	if pool, _ = bonkState(t, c, coin.Mint); pool != want {
		t.Fatalf("pool after the buy\n%+v\nwant\n%+v", pool, want)
	}

	// A plain transfer out of an account of the mint is refused: it cannot
	// compute the fee.
	other := newWallet(t, c, sol1)
	otherBase := associatedTokenAddress(other.PublicKey(), token2022ProgramID, coin.Mint)
	plain := sol.NewInstruction(token2022ProgramID, sol.AccountMetaSlice{
		{PublicKey: userBase, IsWritable: true}, {PublicKey: otherBase, IsWritable: true}, {PublicKey: user.PublicKey(), IsSigner: true},
	}, append([]byte{3}, u64le(1000)...))
	refused(t, c, cl, signTx(t, latest(t, cl), user, []sol.Instruction{ataIx(user.PublicKey(), other.PublicKey(), coin.Mint, token2022ProgramID, true), plain}),
		`{"InstructionError":[1,{"Custom":31}]}`, userBase)

	// Epoch 5: the newer fee, 3%, on a sale of half.
	clock := make([]byte, 40)
	binary.LittleEndian.PutUint64(clock[clockEpochOffset:], 5)
	c.SetAccount(sysvarClockID, Account{Lamports: MinimumBalanceForRentExemption(len(clock)), Owner: sysvarOwnerID, Data: clock})
	half := q.Received() / 2
	s, err := launchlab.QuoteSellExactInWithTransferFee(&pool, rates, half, cfg.At(5))
	if err != nil || s.TransferFee != cfg.Newer.Fee(half) {
		t.Fatalf("quote %+v %v", s, err)
	}
	refused(t, c, cl, signTx(t, latest(t, cl), user, bonkTradeIxs(user.PublicKey(), &pool, false, half, s.NetOut+1)),
		`{"InstructionError":[1,{"Custom":6004}]}`, user.PublicKey(), coin.Pool)
	vaultBefore, before := tokenAmount(c, baseVault), c.Balance(user.PublicKey())
	landed(t, cl, signTx(t, latest(t, cl), user, bonkTradeIxs(user.PublicKey(), &pool, false, half, s.NetOut)))
	if got := c.Balance(user.PublicKey()); got != before+s.NetOut-5000 {
		t.Fatalf("the seller has %d lamports, want %d", got, before+s.NetOut-5000)
	}
	if got, w := tokenAmount(c, baseVault), withheld(baseVault); got != vaultBefore+half-s.TransferFee || w != s.TransferFee {
		t.Fatalf("base vault holds %d with %d withheld, want %d and %d", got, w, vaultBefore+half-s.TransferFee, s.TransferFee)
	}
	want = pool
	want.ApplySell(s)
	if pool, _ = bonkState(t, c, coin.Mint); pool != want {
		t.Fatalf("pool after the sale\n%+v\nwant\n%+v", pool, want)
	}

	// Sold out, the buyer's account still holds the fee of its buy.
	rest := tokenAmount(c, userBase)
	s, _ = launchlab.QuoteSellExactInWithTransferFee(&pool, rates, rest, cfg.At(5))
	landed(t, cl, signTx(t, latest(t, cl), user, bonkTradeIxs(user.PublicKey(), &pool, false, rest, s.NetOut)))
	closeBase := sol.NewInstruction(token2022ProgramID, sol.AccountMetaSlice{
		{PublicKey: userBase, IsWritable: true}, {PublicKey: user.PublicKey(), IsWritable: true}, {PublicKey: user.PublicKey(), IsSigner: true},
	}, []byte{9})
	refused(t, c, cl, signTx(t, latest(t, cl), user, []sol.Instruction{closeBase}), `{"InstructionError":[0,{"Custom":35}]}`, userBase)
}
