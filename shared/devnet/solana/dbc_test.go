package solana

import (
	"testing"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/dbc"
)

// bagsSwapIxs returns a DBC swap on a bags pool with the WSOL steps around
// it: a buy wraps amount lamports, a sell sells amount base; both close the
// WSOL account.
func bagsSwapIxs(user, mint sol.PublicKey, buy bool, amount, minOut uint64) []sol.Instruction {
	return dbcSwapIxs(user, dbc.LocalBagsPoolConfig, mint, buy, false, amount, minOut)
}

// dbcSwapIxs is bagsSwapIxs on a SOL-quoted pool under config, passing the
// instructions sysvar when sysvar is set.
func dbcSwapIxs(user, config, mint sol.PublicKey, buy, sysvar bool, amount, minOut uint64) []sol.Instruction {
	a := dbc.NewSwapAccounts(dbc.SwapParams{Config: config, BaseMint: mint, QuoteMint: nativeMintID, User: user, Buy: buy, InstructionsSysvar: sysvar})
	return dbcAround(user, mint, buy, amount, dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: amount, MinimumAmountOut: minOut}))
}

// bagsSwap2Ixs is bagsSwapIxs with swap2 in mode.
func bagsSwap2Ixs(user, mint sol.PublicKey, buy bool, amount, minOut uint64, mode uint8) []sol.Instruction {
	a := dbc.NewSwapAccounts(dbc.SwapParams{Config: dbc.LocalBagsPoolConfig, BaseMint: mint, QuoteMint: nativeMintID, User: user, Buy: buy})
	return dbcAround(user, mint, buy, amount, dbc.Swap2Instruction(&a, dbc.Swap2Parameters{Amount0: amount, Amount1: minOut, SwapMode: mode}))
}

// dbcAround puts the WSOL steps around swap: a buy wraps amount lamports
// and makes the base account, a sale makes the WSOL account; both close it.
func dbcAround(user, mint sol.PublicKey, buy bool, amount uint64, swap sol.Instruction) []sol.Instruction {
	var ixs []sol.Instruction
	if buy {
		ixs = append(wrapIxs(user, amount), ataIx(user, user, mint, tokenProgramID, true))
	} else {
		ixs = []sol.Instruction{ataIx(user, user, nativeMintID, tokenProgramID, true)}
	}
	ixs = append(ixs, swap)
	return append(ixs, closeIx(associatedTokenAddress(user, tokenProgramID, nativeMintID), user))
}

func bagsLaunchIxs(creator, mint sol.PublicKey, firstBuy, minOut uint64) []sol.Instruction {
	a := dbc.NewInitializeAccounts(dbc.LocalBagsPoolConfig, nativeMintID, mint, creator)
	ixs := []sol.Instruction{dbc.InitializeVirtualPoolWithSPLTokenInstruction(&a, dbc.InitializePoolParameters{
		Name: "Local Bag", Symbol: "LBAG", URI: "https://example.invalid/lbag.json"})}
	if firstBuy == 0 {
		return ixs
	}
	return append(ixs, bagsSwapIxs(creator, mint, true, firstBuy, minOut)...)
}

func bagsState(t testing.TB, c *Chain, mint sol.PublicKey) (dbc.VirtualPool, dbc.PoolConfig) {
	t.Helper()
	pa, ok := c.GetAccount(dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, nativeMintID))
	ca, ok2 := c.GetAccount(dbc.LocalBagsPoolConfig)
	if !ok || !ok2 {
		t.Fatal("pool or config missing")
	}
	p, err := dbc.DecodeVirtualPool(pa.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := dbc.DecodePoolConfig(ca.Data)
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg
}

func TestDBCGenesis(t *testing.T) {
	c, _ := newTestChain(t)
	a, ok := c.GetAccount(dbc.LocalBagsPoolConfig)
	if !ok || a.Owner != dbcProgramID || len(a.Data) != dbc.PoolConfigSize {
		t.Fatal("bags config missing")
	}
	cfg, err := dbc.DecodePoolConfig(a.Data)
	if err != nil || cfg.QuoteMint != nativeMintID || cfg.TokenType != dbc.TokenTypeSPL || cfg.BaseFee.CliffFeeNumerator != dbc.BagsFeeNumerator {
		t.Fatalf("config %+v %v", cfg, err)
	}
}

func TestDBCCreateBuySell(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 20*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	cfgAcc, _ := c.GetAccount(dbc.LocalBagsPoolConfig)
	cfg, _ := dbc.DecodePoolConfig(cfgAcc.Data)
	fresh := dbc.VirtualPool{SqrtPrice: cfg.SqrtStartPrice, BaseReserve: cfg.InitialBaseSupply()}
	first, err := dbc.QuoteSwapExactIn(&fresh, &cfg, sol1, true, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	units, size := landed(t, cl, signTx(t, latest(t, cl), creator, bagsLaunchIxs(creator.PublicKey(), mint, sol1, dbc.MinOut(first.AmountOut, 100)), mintKey))
	t.Logf("bags create + creator buy: %d compute units, %d bytes", units, size)
	if size > 1232 {
		t.Fatalf("create+buy is %d bytes", size)
	}
	pool, _ := bagsState(t, c, mint)
	poolKey := dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, nativeMintID)
	if pool.QuoteReserve != first.ActualIn || pool.BaseReserve != cfg.InitialBaseSupply()-first.AmountOut || pool.SqrtPrice != first.NextSqrtPrice ||
		pool.Creator != creator.PublicKey() || pool.BaseMint != mint || pool.HasSwap != 1 || pool.ProtocolQuoteFee != first.Fees.Protocol {
		t.Fatalf("pool after create+buy %+v\nquote %+v", pool, first)
	}
	checks := []struct {
		name      string
		got, want uint64
	}{
		{"creator's tokens", tokenAmount(c, associatedTokenAddress(creator.PublicKey(), tokenProgramID, mint)), first.AmountOut},
		{"base vault", tokenAmount(c, dbc.TokenVaultPDA(mint, poolKey)), cfg.InitialBaseSupply() - first.AmountOut},
		{"quote vault", tokenAmount(c, dbc.TokenVaultPDA(nativeMintID, poolKey)), sol1},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: %d, want %d", ch.name, ch.got, ch.want)
		}
	}
	meta, _ := c.GetAccount(dbc.MetadataPDA(mint))
	md, ok := DecodeMetaplexMetadata(meta.Data)
	if !ok || md.Name != "Local Bag" || md.Symbol != "LBAG" || md.URI != "https://example.invalid/lbag.json" || md.IsMutable {
		t.Fatalf("metadata %+v", md)
	}
	ma, _ := c.GetAccount(mint)
	if _, hasAuth := mintAuthority(ma.Data); hasAuth || mintDecimals(ma.Data) != dbc.BagsTokenDecimals || mintSupply(ma.Data) != dbc.BagsTokenSupply {
		t.Fatal("mint authority kept or wrong supply")
	}

	// A second wallet buys.
	buyer := newWallet(t, c, 5*sol1)
	q, err := dbc.QuoteSwapExactIn(&pool, &cfg, 2*sol1, true, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	units, size = landed(t, cl, signTx(t, latest(t, cl), buyer, bagsSwapIxs(buyer.PublicKey(), mint, true, 2*sol1, dbc.MinOut(q.AmountOut, 50))))
	t.Logf("bags buy: %d compute units, %d bytes", units, size)
	if got := tokenAmount(c, associatedTokenAddress(buyer.PublicKey(), tokenProgramID, mint)); got != q.AmountOut {
		t.Fatalf("buyer got %d, quoted %d", got, q.AmountOut)
	}

	// It sells half back.
	pool, _ = bagsState(t, c, mint)
	s, err := dbc.QuoteSwapExactIn(&pool, &cfg, q.AmountOut/2, false, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	before := c.Balance(buyer.PublicKey())
	units, _ = landed(t, cl, signTx(t, latest(t, cl), buyer, bagsSwapIxs(buyer.PublicKey(), mint, false, q.AmountOut/2, dbc.MinOut(s.AmountOut, 50))))
	t.Logf("bags sell: %d compute units", units)
	if got := c.Balance(buyer.PublicKey()); got != before+s.AmountOut-5000 {
		t.Fatalf("seller has %d lamports, want %d", got, before+s.AmountOut-5000)
	}
	after, _ := bagsState(t, c, mint)
	if after.QuoteReserve != pool.QuoteReserve-s.AmountOut-s.Fees.Total() || after.BaseReserve != pool.BaseReserve+q.AmountOut/2 {
		t.Fatalf("pool after the sell %+v", after)
	}

	// Slippage: refused whole.
	q, _ = dbc.QuoteSwapExactIn(&after, &cfg, sol1, true, false, 0)
	refused(t, c, cl, signTx(t, latest(t, cl), buyer, bagsSwapIxs(buyer.PublicKey(), mint, true, sol1, q.AmountOut+1)),
		`{"InstructionError":[4,{"Custom":6002}]}`, buyer.PublicKey(), poolKey)
	// A buy larger than the curve is refused with the program's error.
	whale := newWallet(t, c, 200*sol1)
	refused(t, c, cl, signTx(t, latest(t, cl), whale, bagsSwapIxs(whale.PublicKey(), mint, true, 150*sol1, 0)),
		`{"InstructionError":[4,{"Custom":6033}]}`, whale.PublicKey(), poolKey)
}

// TestDBCSwap2PartialFill: swap2 in its partial-fill mode takes, of a buy
// larger than the curve has left, what completes it; the buyer pays that
// alone and keeps the rest. swap2 exact in is swap; its exact-out mode is
// not run here, and says so.
func TestDBCSwap2PartialFill(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 20*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	landed(t, cl, signTx(t, latest(t, cl), creator, bagsLaunchIxs(creator.PublicKey(), mint, 0, 0), mintKey))
	poolKey := dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, nativeMintID)

	buyer := newWallet(t, c, 5*sol1)
	pool, cfg := bagsState(t, c, mint)
	q, err := dbc.QuoteSwapExactIn(&pool, &cfg, sol1, true, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	landed(t, cl, signTx(t, latest(t, cl), buyer, bagsSwap2Ixs(buyer.PublicKey(), mint, true, sol1, q.AmountOut, dbc.SwapModeExactIn)))
	if got := tokenAmount(c, associatedTokenAddress(buyer.PublicKey(), tokenProgramID, mint)); got != q.AmountOut {
		t.Fatalf("swap2 exact in gave %d, quoted %d", got, q.AmountOut)
	}
	refused(t, c, cl, signTx(t, latest(t, cl), buyer, bagsSwap2Ixs(buyer.PublicKey(), mint, true, sol1, 1, dbc.SwapModeExactOut)),
		`{"InstructionError":[4,{"Custom":6006}]}`, buyer.PublicKey(), poolKey)

	whale := newWallet(t, c, 200*sol1)
	pool, _ = bagsState(t, c, mint)
	if _, err := dbc.QuoteSwapExactIn(&pool, &cfg, 150*sol1, true, false, 0); err != dbc.ErrInsufficientLiquidity {
		t.Fatalf("150 SOL exact in: %v, want the curve too small", err)
	}
	p, err := dbc.QuoteSwapPartialFill(&pool, &cfg, 150*sol1, true, false, 0, false)
	if err != nil || !p.Partial || p.AmountIn >= 150*sol1 {
		t.Fatalf("partial fill %+v %v", p, err)
	}
	// Past what the partial fill gives: slippage.
	refused(t, c, cl, signTx(t, latest(t, cl), whale, bagsSwap2Ixs(whale.PublicKey(), mint, true, 150*sol1, p.AmountOut+1, dbc.SwapModePartialFill)),
		`{"InstructionError":[4,{"Custom":6002}]}`, whale.PublicKey(), poolKey)
	before := c.Balance(whale.PublicKey())
	landed(t, cl, signTx(t, latest(t, cl), whale, bagsSwap2Ixs(whale.PublicKey(), mint, true, 150*sol1, p.AmountOut, dbc.SwapModePartialFill)))
	ata := associatedTokenAddress(whale.PublicKey(), tokenProgramID, mint)
	if got := tokenAmount(c, ata); got != p.AmountOut {
		t.Fatalf("whale got %d, quoted %d", got, p.AmountOut)
	}
	rent := MinimumBalanceForRentExemption(tokenAccountLen)
	if spent := before - c.Balance(whale.PublicKey()); spent != p.AmountIn+5000+rent {
		t.Fatalf("whale spent %d lamports, want %d (the fill %d, the fee, the token account's rent)", spent, p.AmountIn+5000+rent, p.AmountIn)
	}
	after, _ := bagsState(t, c, mint)
	if !after.IsCurveComplete(&cfg) || after.QuoteReserve != pool.QuoteReserve+p.ActualIn {
		t.Fatalf("pool after the partial fill %+v", after)
	}
	refused(t, c, cl, signTx(t, latest(t, cl), buyer, bagsSwap2Ixs(buyer.PublicKey(), mint, true, sol1/10, 0, dbc.SwapModePartialFill)),
		`{"InstructionError":[4,{"Custom":6013}]}`, buyer.PublicKey(), poolKey)
}

func TestDBCRejects(t *testing.T) {
	c, cl := newTestChain(t)
	creator := newWallet(t, c, 20*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	landed(t, cl, signTx(t, latest(t, cl), creator, bagsLaunchIxs(creator.PublicKey(), mint, 0, 0), mintKey))
	other := newWallet(t, c, 0)
	user := newWallet(t, c, sol1)
	launch := func(edit func(m sol.AccountMetaSlice)) []sol.Instruction {
		ix := bagsLaunchIxs(creator.PublicKey(), other.PublicKey(), 0, 0)[0].(*sol.GenericInstruction)
		edit(ix.AccountValues)
		return []sol.Instruction{ix}
	}
	swap := func(edit func(a *dbc.SwapAccounts)) []sol.Instruction {
		ixs := bagsSwapIxs(user.PublicKey(), mint, true, sol1/10, 0)
		a := dbc.NewSwapAccounts(dbc.SwapParams{Config: dbc.LocalBagsPoolConfig, BaseMint: mint, QuoteMint: nativeMintID, User: user.PublicKey(), Buy: true})
		edit(&a)
		ixs[4] = dbc.SwapInstruction(&a, dbc.SwapParameters{AmountIn: sol1 / 10})
		return ixs
	}
	cases := []struct {
		name    string
		payer   sol.PrivateKey
		ixs     []sol.Instruction
		signers []sol.PrivateKey
		want    string
	}{
		{"pool not at its PDA", creator, launch(func(m sol.AccountMetaSlice) {
			m[diPool].PublicKey = dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, nativeMintID)
		}),
			[]sol.PrivateKey{other}, `{"InstructionError":[0,{"Custom":2006}]}`},
		{"mint does not sign", creator, launch(func(m sol.AccountMetaSlice) { m[diBaseMint].IsSigner = false }), nil, `{"InstructionError":[0,{"Custom":3010}]}`},
		{"Token-2022 as the token program", creator, launch(func(m sol.AccountMetaSlice) { m[diTokenProgram].PublicKey = token2022ProgramID }),
			[]sol.PrivateKey{other}, `{"InstructionError":[0,{"Custom":3008}]}`},
		{"Token-2022 as the base token program", user, swap(func(a *dbc.SwapAccounts) { a.TokenBaseProgram = token2022ProgramID }), nil,
			`{"InstructionError":[4,{"Custom":2021}]}`},
		{"vault of another pool", user, swap(func(a *dbc.SwapAccounts) { a.BaseVault = dbc.TokenVaultPDA(mint, mint) }), nil,
			`{"InstructionError":[4,{"Custom":2001}]}`},
		{"more SOL wrapped than the wallet has", user, bagsSwapIxs(user.PublicKey(), mint, true, 2*sol1, 0), nil, `{"InstructionError":[1,{"Custom":1}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.AdvanceSlot()
			refused(t, c, cl, signTx(t, latest(t, cl), tc.payer, tc.ixs, tc.signers...), tc.want, tc.payer.PublicKey(), dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, nativeMintID))
		})
	}
}

func TestDBCRateLimiter(t *testing.T) {
	c, cl := newTestChain(t)
	// The bags config under a rate limiter: 1 % up to 1 SOL, 100 bps more
	// per further SOL, for an hour after activation.
	cfg := dbc.LocalBagsConfig(c.deriveKey("dbc/bags-fee-claimer").PublicKey(), c.deriveKey("dbc/bags-leftover").PublicKey())
	cfg.BaseFee = dbc.BaseFeeConfig{CliffFeeNumerator: 10_000_000, FirstFactor: 100, SecondFactor: 3600, ThirdFactor: sol1, BaseFeeMode: dbc.BaseFeeRateLimiter}
	key := newWallet(t, c, 0).PublicKey()
	c.SetAccount(key, Account{Lamports: MinimumBalanceForRentExemption(dbc.PoolConfigSize), Owner: dbcProgramID, Data: cfg.Encode()})
	coin, err := c.CreateDBCCoin(newWallet(t, c, 5*sol1), key, "Limited", "LIM")
	if err != nil {
		t.Fatal(err)
	}
	mint, poolKey := coin.Mint, coin.Pool
	state := func() dbc.VirtualPool {
		a, _ := c.GetAccount(poolKey)
		p, err := dbc.DecodeVirtualPool(a.Data)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	buyer := newWallet(t, c, 10*sol1)
	user := buyer.PublicKey()
	swap := func(buy, sysvar bool, amount uint64) []sol.Instruction {
		return dbcSwapIxs(user, key, mint, buy, sysvar, amount, 0)
	}

	// Without the sysvar, beside another swap of the pool or after an
	// instruction naming it, the buy is refused.
	twice := swap(true, true, sol1+sol1/10)
	second := dbc.NewSwapAccounts(dbc.SwapParams{Config: key, BaseMint: mint, QuoteMint: nativeMintID, User: user, Buy: true, InstructionsSysvar: true})
	twice[4] = dbc.SwapInstruction(&second, dbc.SwapParameters{AmountIn: sol1})
	twice = append(twice[:5], append([]sol.Instruction{dbc.SwapInstruction(&second, dbc.SwapParameters{AmountIn: sol1 / 10})}, twice[5:]...)...)
	clock := swap(true, false, sol1)
	clockAccts := second
	clockAccts.InstructionsSysvar = sysvarClockID
	clock[4] = dbc.SwapInstruction(&clockAccts, dbc.SwapParameters{AmountIn: sol1})
	for _, tc := range []struct {
		name string
		ixs  []sol.Instruction
		want string
	}{
		{"no instructions sysvar", swap(true, false, 2*sol1), `{"InstructionError":[4,{"Custom":6043}]}`},
		{"another sysvar in its place", clock, `{"InstructionError":[4,"UnsupportedSysvar"]}`},
		{"two swaps of the pool", twice, `{"InstructionError":[5,{"Custom":6043}]}`},
		{"a transfer to the pool before it", append([]sol.Instruction{transferIx(user, poolKey, 1)}, swap(true, true, sol1)...), `{"InstructionError":[5,{"Custom":6043}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.AdvanceSlot()
			refused(t, c, cl, signTx(t, latest(t, cl), buyer, tc.ixs), tc.want, user, poolKey)
		})
	}

	// A buy of 2 SOL inside the window: 1e9·(1e7+1e7+1e7) = 3e16 numerator
	// units, a fee of 3e7 lamports (1.5 %), 6e6 of it the protocol's.
	pool := state()
	q, err := dbc.QuoteSwapExactIn(&pool, &cfg, 2*sol1, true, false, pool.ActivationPoint)
	if err != nil || q.Fees.Total() != 30_000_000 {
		t.Fatalf("quote %+v %v", q, err)
	}
	landed(t, cl, signTx(t, latest(t, cl), buyer, swap(true, true, 2*sol1)))
	after := state()
	if after.QuoteReserve != 1_970_000_000 || after.ProtocolQuoteFee != 6_000_000 || after.PartnerQuoteFee != 24_000_000 ||
		tokenAmount(c, associatedTokenAddress(user, tokenProgramID, mint)) != q.AmountOut {
		t.Fatalf("pool after the buy %+v, quote %+v", after, q)
	}

	// A sale inside the window pays the 1 % cliff on its output and needs
	// no sysvar.
	s, err := dbc.QuoteSwapExactIn(&after, &cfg, q.AmountOut/2, false, false, after.ActivationPoint)
	if err != nil {
		t.Fatal(err)
	}
	landed(t, cl, signTx(t, latest(t, cl), buyer, swap(false, false, q.AmountOut/2)))
	sold := state()
	gross := s.AmountOut + s.Fees.Total()
	if sold.QuoteReserve != after.QuoteReserve-gross || s.Fees.Total() != (gross+99)/100 {
		t.Fatalf("pool after the sale %+v, quote %+v", sold, s)
	}

	// An hour after activation the window is over: a buy pays the cliff
	// fee and needs no sysvar.
	sold.ActivationPoint -= 3601
	a, _ := c.GetAccount(poolKey)
	sold.EncodeInto(a.Data)
	c.SetAccount(poolKey, a)
	landed(t, cl, signTx(t, latest(t, cl), buyer, swap(true, false, 2*sol1)))
	if late := state(); late.QuoteReserve != sold.QuoteReserve+1_980_000_000 || late.ProtocolQuoteFee != sold.ProtocolQuoteFee+4_000_000 {
		t.Fatalf("pool after the late buy %+v", late)
	}
}

// TestDBCFirstSwapMinFee: under a config that enables the first swap with
// the minimum fee (a schedule from 50 % down to 1 % here), a pool's first
// swap pays 1 % when it follows the pool's initialize in the same
// transaction and passes the instructions sysvar; without the sysvar, or
// in a transaction of its own, it pays the schedule's 50 %, as the
// program charges.
func TestDBCFirstSwapMinFee(t *testing.T) {
	for _, tc := range []struct {
		name          string
		sameTx, sysvr bool
		minFee        bool
	}{
		{"with initialize, the sysvar passed", true, true, true},
		{"with initialize, no sysvar", true, false, false},
		{"in a transaction of its own", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := newTestChain(t)
			a, _ := c.GetAccount(dbc.LocalBagsPoolConfig)
			cfg, err := dbc.DecodePoolConfig(a.Data)
			if err != nil {
				t.Fatal(err)
			}
			cfg.BaseFee = dbc.BaseFeeConfig{CliffFeeNumerator: 500_000_000, FirstFactor: 49, SecondFactor: 1_000_000, ThirdFactor: 10_000_000,
				BaseFeeMode: dbc.BaseFeeSchedulerLinear}
			cfg.EnableFirstSwapWithMinFee = 1
			a.Data = cfg.Encode()
			c.SetAccount(dbc.LocalBagsPoolConfig, a)
			if n, err := dbc.MinBaseFeeNumerator(&cfg); err != nil || n != 10_000_000 {
				t.Fatalf("least base fee %d %v", n, err)
			}
			creator := newWallet(t, c, 20*sol1)
			mintKey := newWallet(t, c, 0)
			mint := mintKey.PublicKey()
			fresh := dbc.VirtualPool{SqrtPrice: cfg.SqrtStartPrice, BaseReserve: cfg.InitialBaseSupply()}
			want, err := dbc.QuoteSwapExactIn(&fresh, &cfg, sol1, true, false, 0)
			if tc.minFee {
				want, err = dbc.QuoteFirstSwap(&fresh, &cfg, sol1, true, 0)
			}
			if err != nil {
				t.Fatal(err)
			}
			init := bagsLaunchIxs(creator.PublicKey(), mint, 0, 0)
			swap := dbcSwapIxs(creator.PublicKey(), dbc.LocalBagsPoolConfig, mint, true, tc.sysvr, sol1, 1)
			if tc.sameTx {
				landed(t, cl, signTx(t, latest(t, cl), creator, append(init, swap...), mintKey))
			} else {
				landed(t, cl, signTx(t, latest(t, cl), creator, init, mintKey))
				landed(t, cl, signTx(t, latest(t, cl), creator, swap))
			}
			pool, _ := bagsState(t, c, mint)
			if pool.QuoteReserve != want.ActualIn || pool.BaseReserve != cfg.InitialBaseSupply()-want.AmountOut {
				t.Fatalf("pool quote %d base %d, want %d %d (fees %+v)", pool.QuoteReserve, pool.BaseReserve, want.ActualIn,
					cfg.InitialBaseSupply()-want.AmountOut, want.Fees)
			}
		})
	}
}
