package solana

import (
	"crypto/ed25519"
	"crypto/sha256"
	"errors"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
)

// Meteora's Dynamic Bonding Curve as this chain runs it:
// initialize_virtual_pool_with_spl_token (the variant of configs with an
// SPL Token base, bags' among them: an SPL mint with Metaplex metadata, the
// pool, its vaults, the supply in the base vault and the mint authority
// revoked), swap (exact in, quote→base and base→quote) and swap2 in its
// exact-in and partial-fill modes (a buy past the curve's end takes what
// completes it and pays for that alone), with the account checks of the
// published IDL, the curve math of package dbc and the program's errors.
// Genesis seeds the bags PoolConfig dbc.LocalBagsPoolConfig and
// LocalUSDCDBCConfig, a USDC-quoted one.
// A buy under a rate-limited base fee pays the limiter's fee and passes the
// program's single-swap check (the instructions sysvar as first remaining
// account, no other swap of the pool in the transaction); a pool's first
// swap in its initialize's transaction pays the config's least fee when the
// config says so.
// Not executed: swap2's exact-out mode, the Token-2022 and transfer-hook
// initializers and migration.

var (
	dbcProgramID   = dbc.ProgramID
	dbcLocalConfig = dbc.LocalBagsPoolConfig
)

// Compute units the DBC instructions charge themselves.
const (
	dbcCUInitialize = 35_000
	dbcCUSwap       = 30_000
)

func (c *Chain) installDBC() {
	c.programs[dbcProgramID] = program{name: "dynamic-bonding-curve", run: runDBC}
}

// LocalUSDCDBCConfig is a DBC PoolConfig quoted in USDC that the local
// chain seeds beside the bags one, so that coins on a stable-quoted
// bonding curve can be launched and traded here.
var LocalUSDCDBCConfig = func() sol.PublicKey {
	seed := sha256.Sum256([]byte("tradeapi-devnet/usdc-dbc-pool-config"))
	return sol.PublicKeyFromBytes(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
}()

// LocalUSDCDBCQuoteRaised is what a coin of LocalUSDCDBCConfig raises on its
// curve: the bags config's 85 SOL at 150 USD a SOL.
const LocalUSDCDBCQuoteRaised uint64 = 12_750 * 1_000_000

// dbcGenesis seeds the local bags PoolConfig and the USDC one; their fee
// claimer and leftover receiver are keys of this chain.
func (c *Chain) dbcGenesis() {
	claimer, leftover := c.deriveKey("dbc/bags-fee-claimer").PublicKey(), c.deriveKey("dbc/bags-leftover").PublicKey()
	cfg := dbc.LocalBagsConfig(claimer, leftover)
	c.putProgramAccount(dbcLocalConfig, dbcProgramID, cfg.Encode())
	usdc := dbc.LocalConfig(USDCMint, LocalUSDCDBCQuoteRaised, claimer, leftover)
	c.putProgramAccount(LocalUSDCDBCConfig, dbcProgramID, usdc.Encode())
	if c.accounts[dbc.EventAuthorityPDA] == nil {
		c.accounts[dbc.EventAuthorityPDA] = &Account{Lamports: MinimumBalanceForRentExemption(0), Owner: systemProgramID}
	}
}

func dbcFail(ic *instrCtx, e *anchor.ProgramError) *instrError {
	return anchorCustomFail(ic, e.Code, e.Name, e.Msg)
}

func dbcFailErr(ic *instrCtx, err error) *instrError {
	var pe *anchor.ProgramError
	if errors.As(err, &pe) {
		return dbcFail(ic, pe)
	}
	return dbcFail(ic, dbc.ErrMathOverflow)
}

func runDBC(ic *instrCtx) *instrError {
	if len(ic.data) < 8 {
		return frameworkFail(ic, anchorInstructionMissing)
	}
	switch anchor.Discriminator(ic.data[:8]) {
	case dbc.EventCPITag:
		return acceptEventCPI(ic, dbc.EventAuthorityPDA)
	case dbc.InitializeVirtualPoolWithSPLTokenDiscriminator:
		ic.log("Instruction: InitializeVirtualPoolWithSplToken")
		var a dbc.InitializePoolParameters
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return dbcInitialize(ic, a)
	case dbc.SwapDiscriminator:
		ic.log("Instruction: Swap")
		var a dbc.SwapParameters
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return dbcSwap(ic, dbc.Swap2Parameters{Amount0: a.AmountIn, Amount1: a.MinimumAmountOut, SwapMode: dbc.SwapModeExactIn})
	case dbc.Swap2Discriminator:
		ic.log("Instruction: Swap2")
		var a dbc.Swap2Parameters
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return dbcSwap(ic, a)
	case dbc.InitializeVirtualPoolWithToken2022Discriminator:
		ic.log("Instruction: InitializeVirtualPoolWithToken2022")
		ic.log("Error: the local chain runs only configs with an SPL Token base")
		return dbcFail(ic, dbc.ErrInvalidTokenType)
	}
	return frameworkFail(ic, anchorFallbackNotFound)
}

// dbcLoadConfig loads the PoolConfig at i.
func dbcLoadConfig(ic *instrCtx, i int) (dbc.PoolConfig, *instrError) {
	var c dbc.PoolConfig
	d, err := loadAnchorAccount(ic, i, "config", dbc.PoolConfigDiscriminator)
	if err != nil {
		return c, err
	}
	if c.Decode(d) != nil {
		return c, accountFail(ic, "config", anchorAccountDidNotDeser)
	}
	return c, nil
}

func dbcCheckEvent(ic *instrCtx, eventAuth, prog int) *instrError {
	if ic.key(eventAuth) != dbc.EventAuthorityPDA {
		return seedsFail(ic, "event_authority", ic.key(eventAuth), dbc.EventAuthorityPDA)
	}
	if ic.key(prog) != dbcProgramID {
		return accountFail(ic, "program", anchorConstraintAddress)
	}
	return nil
}

// Positions of the initialize_virtual_pool_with_spl_token accounts.
const (
	diConfig = iota
	diPoolAuth
	diCreator
	diBaseMint
	diQuoteMint
	diPool
	diBaseVault
	diQuoteVault
	diMetadata
	diMetaplex
	diPayer
	diTokenQuoteProgram
	diTokenProgram
	diSystem
	diEventAuth
	diProgram
)

func dbcInitialize(ic *instrCtx, a dbc.InitializePoolParameters) *instrError {
	if err := ic.consume(dbcCUInitialize); err != nil {
		return err
	}
	if ic.n() < dbc.InitializeVirtualPoolWithSPLTokenAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	cfg, err := dbcLoadConfig(ic, diConfig)
	if err != nil {
		return err
	}
	if cfg.QuoteMint != ic.key(diQuoteMint) {
		return accountFail(ic, "config", anchorConstraintHasOne)
	}
	if ic.key(diPoolAuth) != dbc.PoolAuthorityPDA {
		return accountFail(ic, "pool_authority", anchorConstraintAddress)
	}
	if !ic.signer[diCreator] {
		return accountFail(ic, "creator", anchorAccountNotSigner)
	}
	if !ic.signer[diBaseMint] {
		return accountFail(ic, "base_mint", anchorAccountNotSigner)
	}
	if ic.key(diTokenProgram) != tokenProgramID {
		return accountFail(ic, "token_program", anchorInvalidProgramID)
	}
	if !isTokenProgram(ic.key(diTokenQuoteProgram)) {
		return accountFail(ic, "token_quote_program", anchorInvalidProgramID)
	}
	if qa := ic.acc(diQuoteMint); qa.Owner != ic.key(diTokenQuoteProgram) || !mintInitialized(qa.Data) {
		return accountFail(ic, "quote_mint", anchorConstraintMintTokenProgram)
	}
	baseMint, quoteMint := ic.key(diBaseMint), ic.key(diQuoteMint)
	pool := dbc.PoolPDA(ic.key(diConfig), baseMint, quoteMint)
	if ic.key(diPool) != pool {
		return seedsFail(ic, "pool", ic.key(diPool), pool)
	}
	for _, v := range []struct {
		i    int
		name string
		mint sol.PublicKey
	}{{diBaseVault, "base_vault", baseMint}, {diQuoteVault, "quote_vault", quoteMint}} {
		if want := dbc.TokenVaultPDA(v.mint, pool); ic.key(v.i) != want {
			return seedsFail(ic, v.name, ic.key(v.i), want)
		}
	}
	if !ic.writable[diMetadata] {
		return accountFail(ic, "mint_metadata", anchorConstraintMut)
	}
	if ic.key(diMetaplex) != metaplexProgramID {
		return accountFail(ic, "metadata_program", anchorConstraintAddress)
	}
	if !ic.signer[diPayer] {
		return accountFail(ic, "payer", anchorAccountNotSigner)
	}
	if !ic.writable[diPayer] {
		return accountFail(ic, "payer", anchorConstraintMut)
	}
	if ic.key(diSystem) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if err := dbcCheckEvent(ic, diEventAuth, diProgram); err != nil {
		return err
	}
	if cfg.TokenType != dbc.TokenTypeSPL {
		return dbcFail(ic, dbc.ErrInvalidTokenType)
	}
	if cfg.BaseFee.CliffFeeNumerator < dbc.MinFeeNumerator {
		return dbcFail(ic, dbc.ErrInvalidBaseFeeMode)
	}
	authority := dbc.PoolAuthorityPDA
	if err := createMint(ic, diPayer, diBaseMint, diTokenProgram, cfg.TokenDecimal, authority); err != nil {
		return err
	}
	if err := createPDAAccount(ic, diPayer, diPool, dbc.VirtualPoolSize, dbcProgramID); err != nil {
		return err
	}
	if err := createTokenAccount(ic, diPayer, diBaseVault, diBaseMint, diTokenProgram, authority); err != nil {
		return err
	}
	if err := createTokenAccount(ic, diPayer, diQuoteVault, diQuoteMint, diTokenQuoteProgram, authority); err != nil {
		return err
	}
	update, mutable := diCreator, true
	switch cfg.TokenUpdateAuthority {
	case dbc.UpdateAuthorityImmutable:
		update, mutable = diPoolAuth, false
	case dbc.UpdateAuthorityPartner:
		// The partner is not among the accounts; the chain records the pool
		// authority, as for an immutable token.
		update = diPoolAuth
	}
	if err := createMetadataCPI(ic, diMetadata, diBaseMint, diPoolAuth, diPayer, update, diSystem, a.Name, a.Symbol, a.URI, mutable, authority); err != nil {
		return err
	}
	supply := cfg.InitialBaseSupply()
	mintTo := append([]byte{7}, u64le(supply)...)
	if err := ic.invoke(tokenProgramID, []cpiAccount{{diBaseMint, false, true}, {diBaseVault, false, true}, {diPoolAuth, true, false}}, mintTo, authority); err != nil {
		return err
	}
	if err := ic.invoke(tokenProgramID, []cpiAccount{{diBaseMint, false, true}, {diPoolAuth, true, false}}, []byte{6, 0, 0}, authority); err != nil {
		return err
	}
	if cfg.PoolCreationFee > 0 {
		if err := systemTransfer(ic, diPayer, diPool, cfg.PoolCreationFee); err != nil {
			return err
		}
	}
	activation := uint64(ic.tx.unixTime)
	if cfg.ActivationType == dbc.ActivationSlot {
		activation = ic.tx.slot
	}
	vp := dbc.VirtualPool{
		Config: ic.key(diConfig), Creator: ic.key(diCreator), BaseMint: baseMint, BaseVault: ic.key(diBaseVault),
		QuoteVault: ic.key(diQuoteVault), SqrtPrice: cfg.SqrtStartPrice, PoolType: dbc.PoolTypeSPLToken,
		ActivationPoint: activation, BaseReserve: supply,
	}
	if err := ic.canWriteData(diPool); err != nil {
		return err
	}
	vp.EncodeInto(ic.acc(diPool).Data)
	e := anchor.Encoder{}
	e.Disc(dbc.EvtInitializePoolDiscriminator)
	e.Key(pool)
	e.Key(vp.Config)
	e.Key(vp.Creator)
	e.Key(baseMint)
	e.U8(dbc.PoolTypeSPLToken)
	e.U64(activation)
	return emitAnchorEvent(ic, diEventAuth, dbc.EventAuthorityPDA, dbc.EventCPITag, e.B)
}

// Positions of the swap accounts.
const (
	dsPoolAuth = iota
	dsConfig
	dsPool
	dsInput
	dsOutput
	dsBaseVault
	dsQuoteVault
	dsBaseMint
	dsQuoteMint
	dsPayer
	dsTokenBaseProgram
	dsTokenQuoteProgram
	dsReferral
	dsEventAuth
	dsProgram
)

// dbcSwap runs swap, and swap2 in its exact-in and partial-fill modes
// (swap is swap2 exact in, as in the program).
func dbcSwap(ic *instrCtx, a dbc.Swap2Parameters) *instrError {
	if err := ic.consume(dbcCUSwap); err != nil {
		return err
	}
	if ic.n() < dbc.SwapAccountsCount {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	if ic.key(dsPoolAuth) != dbc.PoolAuthorityPDA {
		return accountFail(ic, "pool_authority", anchorConstraintAddress)
	}
	cfg, err := dbcLoadConfig(ic, dsConfig)
	if err != nil {
		return err
	}
	d, err := loadAnchorAccount(ic, dsPool, "pool", dbc.VirtualPoolDiscriminator)
	if err != nil {
		return err
	}
	var pool dbc.VirtualPool
	if pool.Decode(d) != nil {
		return accountFail(ic, "pool", anchorAccountDidNotDeser)
	}
	if !ic.writable[dsPool] {
		return accountFail(ic, "pool", anchorConstraintMut)
	}
	for _, h := range []struct {
		i    int
		want sol.PublicKey
	}{{dsBaseVault, pool.BaseVault}, {dsQuoteVault, pool.QuoteVault}, {dsConfig, pool.Config}} {
		if ic.key(h.i) != h.want {
			return accountFail(ic, "pool", anchorConstraintHasOne)
		}
	}
	for _, t := range []struct {
		i    int
		name string
	}{{dsInput, "input_token_account"}, {dsOutput, "output_token_account"}} {
		ta := ic.acc(t.i)
		if !isTokenProgram(ta.Owner) || len(ta.Data) < tokenAccountLen || tokAccState(ta.Data) == accountStateUninitialized {
			if ta.Owner == systemProgramID && len(ta.Data) == 0 {
				return accountFail(ic, t.name, anchorAccountNotInitialized)
			}
			return accountFail(ic, t.name, anchorAccountOwnedByWrong)
		}
		if !ic.writable[t.i] {
			return accountFail(ic, t.name, anchorConstraintMut)
		}
	}
	for _, v := range []struct {
		i, prog, mint int
		name          string
	}{{dsBaseVault, dsTokenBaseProgram, dsBaseMint, "base_vault"}, {dsQuoteVault, dsTokenQuoteProgram, dsQuoteMint, "quote_vault"}} {
		if !isTokenProgram(ic.key(v.prog)) {
			return accountFail(ic, [...]string{dsTokenBaseProgram: "token_base_program", dsTokenQuoteProgram: "token_quote_program"}[v.prog], anchorInvalidProgramID)
		}
		if ic.acc(v.i).Owner != ic.key(v.prog) {
			return accountFail(ic, v.name, anchorConstraintTokenTokenProgram)
		}
		if tokAccMint(ic.acc(v.i).Data) != ic.key(v.mint) {
			return accountFail(ic, v.name, anchorConstraintTokenMint)
		}
	}
	if !ic.signer[dsPayer] {
		return accountFail(ic, "payer", anchorAccountNotSigner)
	}
	if err := dbcCheckEvent(ic, dsEventAuth, dsProgram); err != nil {
		return err
	}
	referral := ic.key(dsReferral) != dbcProgramID
	if referral && !ic.writable[dsReferral] {
		return accountFail(ic, "referral_token_account", anchorConstraintMut)
	}
	buy := tokAccMint(ic.acc(dsInput).Data) != pool.BaseMint
	switch a.SwapMode {
	case dbc.SwapModeExactIn, dbc.SwapModePartialFill:
	case dbc.SwapModeExactOut:
		ic.log("Error: the local chain does not run swap2's exact-out mode")
		return dbcFail(ic, dbc.ErrTypeCastFailed)
	default:
		return dbcFail(ic, dbc.ErrTypeCastFailed)
	}
	if a.Amount0 == 0 {
		return dbcFail(ic, dbc.ErrAmountIsZero)
	}
	now := uint64(ic.tx.unixTime)
	point := now
	if cfg.ActivationType == dbc.ActivationSlot {
		point = ic.tx.slot
	}
	if dbc.RateLimiterApplies(&cfg, &pool, buy, point) {
		if err := dbcSingleSwap(ic, ic.key(dsPool)); err != nil {
			return err
		}
	}
	if pool.IsMigrated != 0 {
		return dbcFail(ic, dbc.ErrPoolIsCompleted)
	}
	minFee := dbc.FirstSwapMinFee(&cfg, &pool, referral, dbcInInitTx(ic, ic.key(dsPool)))
	var q dbc.SwapQuote
	var qerr error
	switch {
	case a.SwapMode == dbc.SwapModePartialFill:
		q, qerr = dbc.QuoteSwapPartialFill(&pool, &cfg, a.Amount0, buy, referral, point, minFee)
	case minFee:
		q, qerr = dbc.QuoteFirstSwap(&pool, &cfg, a.Amount0, buy, point)
	default:
		q, qerr = dbc.QuoteSwapExactIn(&pool, &cfg, a.Amount0, buy, referral, point)
	}
	if qerr != nil {
		return dbcFailErr(ic, qerr)
	}
	if q.AmountOut < a.Amount1 {
		return dbcFail(ic, dbc.ErrExceededSlippage)
	}
	inVault, outVault, inMint, outMint, inProg, outProg := dsQuoteVault, dsBaseVault, dsQuoteMint, dsBaseMint, dsTokenQuoteProgram, dsTokenBaseProgram
	if !buy {
		inVault, outVault, inMint, outMint, inProg, outProg = outVault, inVault, outMint, inMint, outProg, inProg
	}
	authority := dbc.PoolAuthorityPDA
	if err := transferChecked(ic, inProg, dsInput, inMint, inVault, dsPayer, q.AmountIn); err != nil {
		return err
	}
	if err := transferChecked(ic, outProg, outVault, outMint, dsOutput, dsPoolAuth, q.AmountOut, authority); err != nil {
		return err
	}
	if referral && q.Fees.Referral > 0 {
		feeVault, feeMint, feeProg := dsQuoteVault, dsQuoteMint, dsTokenQuoteProgram
		if q.FeesOnBase {
			feeVault, feeMint, feeProg = dsBaseVault, dsBaseMint, dsTokenBaseProgram
		}
		if err := transferChecked(ic, feeProg, feeVault, feeMint, dsReferral, dsPoolAuth, q.Fees.Referral, authority); err != nil {
			return err
		}
	}
	pool.ApplySwap(&cfg, q, now)
	if err := ic.canWriteData(dsPool); err != nil {
		return err
	}
	pool.EncodeInto(ic.acc(dsPool).Data)

	e := anchor.Encoder{}
	e.Disc(dbc.EvtSwapDiscriminator)
	e.Key(ic.key(dsPool))
	e.Key(ic.key(dsConfig))
	if buy {
		e.U8(1)
	} else {
		e.U8(0)
	}
	e.Bool(referral)
	// The event's parameters: a partial fill's are what it paid and got,
	// as the program writes them.
	if a.SwapMode == dbc.SwapModePartialFill {
		e.U64(q.AmountIn)
		e.U64(q.AmountOut)
	} else {
		e.U64(a.Amount0)
		e.U64(a.Amount1)
	}
	e.U64(q.ActualIn)
	e.U64(q.AmountOut)
	e.U64(q.NextSqrtPrice.Lo)
	e.U64(q.NextSqrtPrice.Hi)
	e.U64(q.Fees.Trading)
	e.U64(q.Fees.Protocol)
	e.U64(q.Fees.Referral)
	e.U64(q.AmountIn)
	e.U64(now)
	if err := emitAnchorEvent(ic, dsEventAuth, dbc.EventAuthorityPDA, dbc.EventCPITag, e.B); err != nil {
		return err
	}
	if !pool.IsCurveComplete(&cfg) {
		return nil
	}
	need := cfg.MigrationBaseThreshold + pool.ProtocolBaseFee + pool.PartnerBaseFee + pool.CreatorBaseFee + cfg.LockedVesting.Total()
	if tokAccAmount(ic.acc(dsBaseVault).Data) < need {
		return dbcFail(ic, dbc.ErrInsufficientLiquidityForMigration)
	}
	done := anchor.Encoder{}
	done.Disc(dbc.EvtCurveCompleteDiscriminator)
	done.Key(ic.key(dsPool))
	done.Key(ic.key(dsConfig))
	done.U64(pool.BaseReserve)
	done.U64(pool.QuoteReserve)
	return emitAnchorEvent(ic, dsEventAuth, dbc.EventAuthorityPDA, dbc.EventCPITag, done.B)
}

// dbcSingleSwap is the program's guard of a buy the rate limiter prices,
// against splitting one buy into several swaps of a transaction: the
// instructions sysvar is the first remaining account; a swap reached by
// CPI is at stack height 2 and has no earlier sibling swap on the pool;
// and no top-level instruction before this one swaps on the pool, nor,
// for another program's, names it.
func dbcSingleSwap(ic *instrCtx, pool sol.PublicKey) *instrError {
	if ic.n() <= dbc.SwapAccountsCount {
		return dbcFail(ic, dbc.ErrFailToValidateSingleSwapInstruction)
	}
	if ic.key(dbc.SwapAccountsCount) != sysvarInstructionsID {
		return errUnsupportedSysvar
	}
	tx := ic.tx
	if tx.keys[tx.top[tx.curTop].ProgramIDIndex] != dbcProgramID {
		if ic.depth > 2 {
			return dbcFail(ic, dbc.ErrFailToValidateSingleSwapInstruction)
		}
		// The last inner instruction is this invocation.
		for _, in := range tx.inner[:len(tx.inner)-1] {
			if in.top == tx.curTop && in.stackHeight == ic.depth && tx.keys[in.program] == dbcProgramID &&
				dbcSwapsOn(in.data, len(in.accounts), func(j int) sol.PublicKey { return tx.keys[in.accounts[j]] }, pool) {
				return dbcFail(ic, dbc.ErrFailToValidateSingleSwapInstruction)
			}
		}
	}
	for _, in := range tx.top[:tx.curTop] {
		key := func(j int) sol.PublicKey { return tx.keys[in.Accounts[j]] }
		if tx.keys[in.ProgramIDIndex] == dbcProgramID {
			if dbcSwapsOn(in.Data, len(in.Accounts), key, pool) {
				return dbcFail(ic, dbc.ErrFailToValidateSingleSwapInstruction)
			}
			continue
		}
		for j := range in.Accounts {
			if key(j) == pool {
				ic.log("Multiple swaps not allowed")
				return dbcFail(ic, dbc.ErrFailToValidateSingleSwapInstruction)
			}
		}
	}
	return nil
}

// dbcInInitTx tells whether a swap on pool may pay a first swap's minimum
// fee by where it runs, as the program judges it: the instructions sysvar
// is its first remaining account, it is a top-level instruction of the
// program (not reached by another program's CPI), and a top-level
// initialize_virtual_pool_with_spl_token or _with_token2022 of the
// program before it in the transaction names pool as its pool.
func dbcInInitTx(ic *instrCtx, pool sol.PublicKey) bool {
	tx := ic.tx
	if ic.n() <= dbc.SwapAccountsCount || ic.key(dbc.SwapAccountsCount) != sysvarInstructionsID ||
		tx.keys[tx.top[tx.curTop].ProgramIDIndex] != dbcProgramID {
		return false
	}
	// Both initialize instructions have the pool where diPool says.
	for _, in := range tx.top[:tx.curTop] {
		if tx.keys[in.ProgramIDIndex] != dbcProgramID || len(in.Data) < 8 || len(in.Accounts) <= diPool {
			continue
		}
		d := anchor.Discriminator(in.Data[:8])
		if (d == dbc.InitializeVirtualPoolWithSPLTokenDiscriminator || d == dbc.InitializeVirtualPoolWithToken2022Discriminator) &&
			tx.keys[in.Accounts[diPool]] == pool {
			return true
		}
	}
	return false
}

// dbcSwapsOn tells whether a DBC instruction's data and accounts are a
// swap or swap2 on pool (its third account).
func dbcSwapsOn(data []byte, n int, key func(int) sol.PublicKey, pool sol.PublicKey) bool {
	if len(data) < 8 || n <= dsPool {
		return false
	}
	d := anchor.Discriminator(data[:8])
	return (d == dbc.SwapDiscriminator || d == dbc.Swap2Discriminator) && key(dsPool) == pool
}
