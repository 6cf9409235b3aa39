package solana

import (
	"errors"
	"math/bits"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

// Raydium LaunchLab as this chain runs it: initialize_v2 (an SPL Token
// mint with Metaplex metadata, the pool, its vaults and the whole supply in
// the base vault), buy_exact_in and sell_exact_in with the account checks
// of the published IDL, the fee-vault remaining accounts the program
// enforces since its creator-fee upgrade, the constant-product curve of
// package launchlab and the program's errors. Genesis seeds letsbonk's
// PlatformConfig and the WSOL constant-curve GlobalConfig at their mainnet
// addresses.
//
// A pool whose base mint is a Token-2022 mint with a transfer fee
// (initialize_with_token_2022, which this chain does not run; a test
// writes such a pool with CreateLetsBonkCoinWithTransferFee) trades as
// Raydium's SDK quotes it: a sale prices what reaches the vault, the
// amount sold less the fee, and a buy's minimum_amount_out bounds what
// the buyer receives, the tokens out less the fee. The program's source is
// not public; the SDK takes buyToken's bound from the amount less the fee,
// and Raydium's CPMM, where these pools migrate, checks its minimum on the
// amount received after the output's transfer fee.

var launchLabProgramID = launchlab.ProgramID

// Compute units the LaunchLab instructions charge themselves; their CPIs
// add their own.
const (
	llCUInitialize = 40_000
	llCUTrade      = 30_000
)

// Genesis values of letsbonk's accounts: the rates a mainnet TradeEvent of
// a letsbonk pool shows (0.25% protocol, 1% platform, 0.05% creator) and
// the limits of Raydium's WSOL constant-curve config.
const (
	genesisLLTradeFeeRate        uint64 = 2_500
	genesisLLMaxShareFeeRate     uint64 = 10_000
	genesisLLMinBaseSupply       uint64 = 10_000_000
	genesisLLMaxLockRate         uint64 = 300_000
	genesisLLMinBaseSellRate     uint64 = 200_000
	genesisLLMinBaseMigrateRate  uint64 = 200_000
	genesisLLMinQuoteFundRaising uint64 = 30_000_000_000
	genesisLLPlatformFeeRate     uint64 = 10_000
	genesisLLCreatorFeeRate      uint64 = 500
)

func (c *Chain) installLaunchLab() {
	c.programs[launchLabProgramID] = program{name: "raydium-launchlab", run: runLaunchLab}
	// Both launch programs write token metadata through Metaplex.
	c.programs[metaplexProgramID] = program{name: "mpl-token-metadata", run: runMetaplex}
}

// Local values of the stable-quoted LaunchLab config and curve: the
// program keeps one GlobalConfig per quote mint, and letsbonk's USD1
// launches use USD1's. Their mainnet figures are not published where this
// chain could read them, so these are the SOL ones at 150 USD a SOL.
const (
	LocalLLStableMinQuoteFundRaising uint64 = 4_500 * 1_000_000
	LocalLLStableQuoteFundRaising    uint64 = 12_750 * 1_000_000
)

// launchLabGenesis seeds the WSOL and USD1 constant-curve GlobalConfigs and
// letsbonk's PlatformConfig, and makes the event authority rent exempt.
func (c *Chain) launchLabGenesis() {
	for _, q := range []struct {
		mint       sol.PublicKey
		minRaising uint64
	}{{nativeMintID, genesisLLMinQuoteFundRaising}, {USD1Mint, LocalLLStableMinQuoteFundRaising}} {
		g := launchlab.GlobalConfig{
			CurveType: launchlab.CurveConstant, TradeFeeRate: genesisLLTradeFeeRate, MaxShareFeeRate: genesisLLMaxShareFeeRate,
			MinBaseSupply: genesisLLMinBaseSupply, MaxLockRate: genesisLLMaxLockRate, MinBaseSellRate: genesisLLMinBaseSellRate,
			MinBaseMigrateRate: genesisLLMinBaseMigrateRate, MinQuoteFundRaising: q.minRaising,
			QuoteMint: q.mint, ProtocolFeeOwner: c.deriveKey("launchlab/protocol-fee").PublicKey(),
			MigrateFeeOwner:    c.deriveKey("launchlab/migrate-fee").PublicKey(),
			MigrateToAMMWallet: c.deriveKey("launchlab/migrate-amm").PublicKey(), MigrateToCPSwapWallet: c.deriveKey("launchlab/migrate-cpswap").PublicKey(),
		}
		c.putProgramAccount(launchlab.GlobalConfigPDA(q.mint, launchlab.CurveConstant, 0), launchLabProgramID, g.Encode())
	}
	p := launchlab.PlatformConfig{
		PlatformFeeWallet: c.deriveKey("launchlab/letsbonk-fee").PublicKey(), PlatformNFTWallet: c.deriveKey("launchlab/letsbonk-nft").PublicKey(),
		PlatformScale: 500_000, CreatorScale: 500_000, FeeRate: genesisLLPlatformFeeRate, CreatorFeeRate: genesisLLCreatorFeeRate,
	}
	copy(p.Name[:], "letsbonk.fun")
	copy(p.Web[:], "https://letsbonk.fun")
	c.putProgramAccount(launchlab.LetsBonkPlatformConfig, launchLabProgramID, p.Encode())
	if c.accounts[launchlab.EventAuthorityPDA] == nil {
		c.accounts[launchlab.EventAuthorityPDA] = &Account{Lamports: MinimumBalanceForRentExemption(0), Owner: systemProgramID}
	}
}

// ensureLaunchGenesis adds the LaunchLab and DBC genesis accounts to a
// chain loaded from a file written before the chain ran them (the
// stable-quoted ones came later than the others).
func (c *Chain) ensureLaunchGenesis() {
	if c.accounts[launchlab.LetsBonkPlatformConfig] == nil || c.accounts[launchlab.GlobalConfigPDA(USD1Mint, launchlab.CurveConstant, 0)] == nil {
		c.launchLabGenesis()
		c.changes++
	}
	if c.accounts[dbcLocalConfig] == nil || c.accounts[LocalUSDCDBCConfig] == nil {
		c.dbcGenesis()
		c.changes++
	}
}

func llFail(ic *instrCtx, e *anchor.ProgramError) *instrError {
	return anchorCustomFail(ic, e.Code, e.Name, e.Msg)
}

func llFailErr(ic *instrCtx, err error) *instrError {
	var pe *anchor.ProgramError
	if errors.As(err, &pe) {
		return llFail(ic, pe)
	}
	return llFail(ic, launchlab.ErrMathOverflow)
}

// runLaunchLab dispatches on the Anchor discriminator.
func runLaunchLab(ic *instrCtx) *instrError {
	if len(ic.data) < 8 {
		return frameworkFail(ic, anchorInstructionMissing)
	}
	switch anchor.Discriminator(ic.data[:8]) {
	case launchlab.EventCPITag:
		return acceptEventCPI(ic, launchlab.EventAuthorityPDA)
	case launchlab.InitializeV2Discriminator:
		ic.log("Instruction: InitializeV2")
		var a launchlab.InitializeV2Args
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return llInitialize(ic, a)
	case launchlab.BuyExactInDiscriminator:
		ic.log("Instruction: BuyExactIn")
		var a launchlab.BuyExactInArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return llTrade(ic, launchlab.TradeArgs(a), true)
	case launchlab.SellExactInDiscriminator:
		ic.log("Instruction: SellExactIn")
		var a launchlab.SellExactInArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return llTrade(ic, launchlab.TradeArgs(a), false)
	}
	return frameworkFail(ic, anchorFallbackNotFound)
}

// Positions of the initialize_v2 accounts.
const (
	liPayer = iota
	liCreator
	liGlobal
	liPlatform
	liAuth
	liPool
	liBaseMint
	liQuoteMint
	liBaseVault
	liQuoteVault
	liMetadata
	liBaseTokenProgram
	liQuoteTokenProgram
	liMetaplex
	liSystem
	liRent
	liEventAuth
	liProgram
)

// llBaseTransferFee returns the transfer fee the trade's base mint charges
// in the current epoch: none unless it is a Token-2022 mint with a
// TransferFeeConfig. The token program withholds the same fee when the
// trade moves the base.
func llBaseTransferFee(ic *instrCtx) (token2022.TransferFee, *instrError) {
	m := ic.acc(ltBaseMint)
	if m.Owner != token2022ProgramID {
		return token2022.TransferFee{}, nil
	}
	cfg, ok, err := token2022.MintTransferFeeConfig(m.Data)
	if err != nil {
		return token2022.TransferFee{}, accountFail(ic, "base_token_mint", anchorAccountDidNotDeser)
	}
	if !ok {
		return token2022.TransferFee{}, nil
	}
	return cfg.At(ic.tx.epoch()), nil
}

// llConfigs loads and checks the global and platform configs at g and p.
func llConfigs(ic *instrCtx, g, p int) (launchlab.GlobalConfig, launchlab.PlatformConfig, *instrError) {
	var gc launchlab.GlobalConfig
	var pc launchlab.PlatformConfig
	d, err := loadAnchorAccount(ic, g, "global_config", launchlab.GlobalConfigDiscriminator)
	if err != nil {
		return gc, pc, err
	}
	if gc.Decode(d) != nil {
		return gc, pc, accountFail(ic, "global_config", anchorAccountDidNotDeser)
	}
	d, err = loadAnchorAccount(ic, p, "platform_config", launchlab.PlatformConfigDiscriminator)
	if err != nil {
		return gc, pc, err
	}
	if pc.Decode(d) != nil {
		return gc, pc, accountFail(ic, "platform_config", anchorAccountDidNotDeser)
	}
	return gc, pc, nil
}

// llCheckFixed checks the accounts every LaunchLab instruction shares.
func llCheckFixed(ic *instrCtx, auth, eventAuth, prog int) *instrError {
	if ic.key(auth) != launchlab.AuthPDA {
		return seedsFail(ic, "authority", ic.key(auth), launchlab.AuthPDA)
	}
	if ic.key(eventAuth) != launchlab.EventAuthorityPDA {
		return seedsFail(ic, "event_authority", ic.key(eventAuth), launchlab.EventAuthorityPDA)
	}
	if ic.key(prog) != launchLabProgramID {
		return accountFail(ic, "program", anchorConstraintAddress)
	}
	return nil
}

func llInitialize(ic *instrCtx, a launchlab.InitializeV2Args) *instrError {
	if err := ic.consume(llCUInitialize); err != nil {
		return err
	}
	if ic.n() < launchlab.InitializeV2FixedAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	if !ic.signer[liPayer] {
		return accountFail(ic, "payer", anchorAccountNotSigner)
	}
	if !ic.writable[liPayer] {
		return accountFail(ic, "payer", anchorConstraintMut)
	}
	g, pc, err := llConfigs(ic, liGlobal, liPlatform)
	if err != nil {
		return err
	}
	if err := llCheckFixed(ic, liAuth, liEventAuth, liProgram); err != nil {
		return err
	}
	baseMint, quoteMint := ic.key(liBaseMint), ic.key(liQuoteMint)
	if g.QuoteMint != quoteMint {
		return accountFail(ic, "quote_mint", anchorConstraintAddress)
	}
	pool := launchlab.PoolPDA(baseMint, quoteMint)
	if ic.key(liPool) != pool {
		return seedsFail(ic, "pool_state", ic.key(liPool), pool)
	}
	if !ic.signer[liBaseMint] {
		return accountFail(ic, "base_mint", anchorAccountNotSigner)
	}
	for _, v := range []struct {
		i    int
		name string
		mint sol.PublicKey
	}{{liBaseVault, "base_vault", baseMint}, {liQuoteVault, "quote_vault", quoteMint}} {
		want := launchlab.PoolVaultPDA(pool, v.mint)
		if ic.key(v.i) != want {
			return seedsFail(ic, v.name, ic.key(v.i), want)
		}
	}
	for _, i := range []int{liPool, liBaseMint, liBaseVault, liQuoteVault, liMetadata} {
		if !ic.writable[i] {
			return accountFail(ic, [...]string{liPool: "pool_state", liBaseMint: "base_mint", liBaseVault: "base_vault", liQuoteVault: "quote_vault", liMetadata: "metadata_account"}[i], anchorConstraintMut)
		}
	}
	if ic.key(liBaseTokenProgram) != tokenProgramID {
		return accountFail(ic, "base_token_program", anchorInvalidProgramID)
	}
	if ic.key(liQuoteTokenProgram) != tokenProgramID {
		return accountFail(ic, "quote_token_program", anchorInvalidProgramID)
	}
	if qa := ic.acc(liQuoteMint); qa.Owner != tokenProgramID || !mintInitialized(qa.Data) {
		return accountFail(ic, "quote_mint", anchorConstraintMintTokenProgram)
	}
	if ic.key(liMetaplex) != metaplexProgramID {
		return accountFail(ic, "metadata_program", anchorConstraintAddress)
	}
	if ic.key(liSystem) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if ic.key(liRent) != sysvarRentID {
		return accountFail(ic, "rent_program", anchorConstraintAddress)
	}
	if pc.RestrictCurveParam == 1 {
		// The platform's curve rule is a trailing account this chain does
		// not model; letsbonk's config does not restrict curves.
		return llFail(ic, launchlab.ErrInvalidInput)
	}
	if a.Curve.Type != g.CurveType {
		return llFail(ic, launchlab.ErrInputNotMatchCurveConfig)
	}
	if err := llValidateCurve(&g, a); err != nil {
		return llFail(ic, err)
	}
	state, qerr := launchlab.NewPool(a.Mint.Decimals, mintDecimals(ic.acc(liQuoteMint).Data), a.Curve, a.Vesting, a.AMMFeeOn, g.MigrateFee)
	if qerr != nil {
		return llFailErr(ic, qerr)
	}
	if len(a.Mint.Name) > metaplexMaxName || len(a.Mint.Symbol) > metaplexMaxSymbol || len(a.Mint.URI) > metaplexMaxURI {
		return llFail(ic, launchlab.ErrInvalidInput)
	}
	auth := launchlab.AuthPDA

	if err := createMint(ic, liPayer, liBaseMint, liBaseTokenProgram, a.Mint.Decimals, auth); err != nil {
		return err
	}
	if err := createPDAAccount(ic, liPayer, liPool, launchlab.PoolStateSize, launchLabProgramID); err != nil {
		return err
	}
	if err := createTokenAccount(ic, liPayer, liBaseVault, liBaseMint, liBaseTokenProgram, auth); err != nil {
		return err
	}
	if err := createTokenAccount(ic, liPayer, liQuoteVault, liQuoteMint, liQuoteTokenProgram, auth); err != nil {
		return err
	}
	if err := createMetadataCPI(ic, liMetadata, liBaseMint, liAuth, liPayer, liAuth, liSystem, a.Mint.Name, a.Mint.Symbol, a.Mint.URI, true, auth); err != nil {
		return err
	}
	mintTo := append([]byte{7}, u64le(a.Curve.Supply)...)
	if err := ic.invoke(tokenProgramID, []cpiAccount{{liBaseMint, false, true}, {liBaseVault, false, true}, {liAuth, true, false}}, mintTo, auth); err != nil {
		return err
	}
	if err := ic.invoke(tokenProgramID, []cpiAccount{{liBaseMint, false, true}, {liAuth, true, false}}, []byte{6, 0, 0}, auth); err != nil {
		return err
	}
	state.AuthBump = launchlab.AuthBump
	state.GlobalConfig, state.PlatformConfig = ic.key(liGlobal), ic.key(liPlatform)
	state.BaseMint, state.QuoteMint = baseMint, quoteMint
	state.BaseVault, state.QuoteVault = ic.key(liBaseVault), ic.key(liQuoteVault)
	state.Creator = ic.key(liCreator)
	if err := ic.canWriteData(liPool); err != nil {
		return err
	}
	copy(ic.acc(liPool).Data, state.Encode())

	e := anchor.Encoder{}
	e.Disc(launchlab.PoolCreateEventDiscriminator)
	e.Key(pool)
	e.Key(state.Creator)
	e.Key(state.GlobalConfig)
	e.U8(a.Mint.Decimals)
	e.Str(a.Mint.Name)
	e.Str(a.Mint.Symbol)
	e.Str(a.Mint.URI)
	e.B = append(e.B, a.Encode()[8+1+12+len(a.Mint.Name)+len(a.Mint.Symbol)+len(a.Mint.URI):]...)
	return emitAnchorEvent(ic, liEventAuth, launchlab.EventAuthorityPDA, launchlab.EventCPITag, e.B)
}

// llValidateCurve applies the GlobalConfig limits to a constant curve.
func llValidateCurve(g *launchlab.GlobalConfig, a launchlab.InitializeV2Args) *anchor.ProgramError {
	c := a.Curve
	unit := uint64(1)
	for i := uint8(0); i < a.Mint.Decimals; i++ {
		unit *= 10
	}
	rate := func(part uint64) uint64 {
		if c.Supply == 0 {
			return 0
		}
		hi, lo := bits.Mul64(part, launchlab.FeeRateDenominator)
		q, _ := bits.Div64(hi, lo, c.Supply)
		return q
	}
	switch {
	case a.Mint.Decimals > 9 || c.Supply/unit < g.MinBaseSupply:
		return launchlab.ErrInvalidInput
	case c.TotalBaseSell > c.Supply || rate(c.TotalBaseSell) < g.MinBaseSellRate:
		return launchlab.ErrInvalidInput
	case a.Vesting.TotalLockedAmount > c.Supply-c.TotalBaseSell || rate(a.Vesting.TotalLockedAmount) > g.MaxLockRate:
		return launchlab.ErrInvalidInput
	case rate(c.Supply-c.TotalBaseSell-a.Vesting.TotalLockedAmount) < g.MinBaseMigrateRate:
		return launchlab.ErrInvalidInput
	case c.TotalQuoteFundRaising < g.MinQuoteFundRaising:
		return launchlab.ErrInvalidInput
	case c.MigrateType > launchlab.MigrateCPSwap:
		return launchlab.ErrMigrateTypeNotMatch
	}
	return nil
}

// Positions of the trade accounts.
const (
	ltPayer = iota
	ltAuth
	ltGlobal
	ltPlatform
	ltPool
	ltUserBase
	ltUserQuote
	ltBaseVault
	ltQuoteVault
	ltBaseMint
	ltQuoteMint
	ltBaseTokenProgram
	ltQuoteTokenProgram
	ltEventAuth
	ltProgram
)

func llTrade(ic *instrCtx, a launchlab.TradeArgs, buy bool) *instrError {
	if err := ic.consume(llCUTrade); err != nil {
		return err
	}
	if ic.n() < launchlab.TradeFixedAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	if !ic.signer[ltPayer] {
		return accountFail(ic, "payer", anchorAccountNotSigner)
	}
	g, pc, err := llConfigs(ic, ltGlobal, ltPlatform)
	if err != nil {
		return err
	}
	if err := llCheckFixed(ic, ltAuth, ltEventAuth, ltProgram); err != nil {
		return err
	}
	d, err := loadAnchorAccount(ic, ltPool, "pool_state", launchlab.PoolStateDiscriminator)
	if err != nil {
		return err
	}
	var pool launchlab.PoolState
	if pool.Decode(d) != nil {
		return accountFail(ic, "pool_state", anchorAccountDidNotDeser)
	}
	for _, h := range []struct {
		i    int
		name string
		want sol.PublicKey
	}{
		{ltGlobal, "global_config", pool.GlobalConfig}, {ltPlatform, "platform_config", pool.PlatformConfig},
		{ltBaseVault, "base_vault", pool.BaseVault}, {ltQuoteVault, "quote_vault", pool.QuoteVault},
		{ltBaseMint, "base_token_mint", pool.BaseMint}, {ltQuoteMint, "quote_token_mint", pool.QuoteMint},
	} {
		if ic.key(h.i) != h.want {
			return accountFail(ic, h.name, anchorConstraintHasOne)
		}
	}
	for _, w := range []struct {
		i    int
		name string
	}{{ltPool, "pool_state"}, {ltUserBase, "user_base_token"}, {ltUserQuote, "user_quote_token"}, {ltBaseVault, "base_vault"}, {ltQuoteVault, "quote_vault"}} {
		if !ic.writable[w.i] {
			return accountFail(ic, w.name, anchorConstraintMut)
		}
	}
	if ic.key(ltQuoteTokenProgram) != tokenProgramID {
		return accountFail(ic, "quote_token_program", anchorConstraintAddress)
	}
	if !isTokenProgram(ic.key(ltBaseTokenProgram)) {
		return accountFail(ic, "base_token_program", anchorInvalidProgramID)
	}
	if ic.acc(ltBaseMint).Owner != ic.key(ltBaseTokenProgram) {
		return accountFail(ic, "base_token_mint", anchorConstraintMintTokenProgram)
	}
	for _, u := range []struct {
		i    int
		name string
		mint sol.PublicKey
		prog sol.PublicKey
	}{{ltUserBase, "user_base_token", pool.BaseMint, ic.key(ltBaseTokenProgram)}, {ltUserQuote, "user_quote_token", pool.QuoteMint, tokenProgramID}} {
		ua := ic.acc(u.i)
		if ua.Owner != u.prog || !validTokenAccountData(u.prog, ua.Data) || tokAccState(ua.Data) == accountStateUninitialized {
			return accountFail(ic, u.name, anchorAccountNotInitialized)
		}
		if tokAccMint(ua.Data) != u.mint {
			return accountFail(ic, u.name, anchorConstraintTokenMint)
		}
	}
	// Remaining accounts: [share fee receiver,] system program, platform fee
	// vault, creator fee vault.
	next := launchlab.TradeFixedAccounts
	share := -1
	if a.ShareFeeRate > 0 {
		share = next
		next++
	}
	if ic.n() < next+3 {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	sys, platformVault, creatorVault := next, next+1, next+2
	if ic.key(sys) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if want := launchlab.PlatformFeeVaultPDA(pool.PlatformConfig, pool.QuoteMint); ic.key(platformVault) != want {
		return seedsFail(ic, "platform_fee_vault", ic.key(platformVault), want)
	}
	if want := launchlab.CreatorFeeVaultPDA(pool.Creator, pool.QuoteMint); ic.key(creatorVault) != want {
		return seedsFail(ic, "creator_fee_vault", ic.key(creatorVault), want)
	}
	if a.ShareFeeRate > g.MaxShareFeeRate {
		return llFail(ic, launchlab.ErrInvalidInput)
	}
	rates := launchlab.RatesOf(&g, &pc, a.ShareFeeRate)
	for _, v := range []struct {
		i     int
		owner sol.PublicKey
	}{{platformVault, launchlab.PlatformFeeVaultAuthPDA}, {creatorVault, launchlab.CreatorFeeVaultAuthPDA}} {
		if ic.acc(v.i).Owner == tokenProgramID {
			continue
		}
		if err := createTokenAccount(ic, ltPayer, v.i, ltQuoteMint, ltQuoteTokenProgram, v.owner); err != nil {
			return err
		}
	}
	baseFee, err := llBaseTransferFee(ic)
	if err != nil {
		return err
	}
	auth := launchlab.AuthPDA
	before := pool
	var amountIn, amountOut uint64
	var fees launchlab.Fees
	if buy {
		q, qerr := launchlab.QuoteBuyExactInWithTransferFee(&pool, rates, a.AmountIn, baseFee)
		if qerr != nil {
			return llFailErr(ic, qerr)
		}
		if q.Received() < a.MinimumAmountOut {
			return llFail(ic, launchlab.ErrExceededSlippage)
		}
		steps := []struct {
			dst    int
			amount uint64
		}{{ltQuoteVault, q.NetIn + q.Fees.Protocol}, {platformVault, q.Fees.Platform}, {creatorVault, q.Fees.Creator}, {share, q.Fees.Share}}
		for _, s := range steps {
			if s.amount > 0 {
				if err := transferChecked(ic, ltQuoteTokenProgram, ltUserQuote, ltQuoteMint, s.dst, ltPayer, s.amount); err != nil {
					return err
				}
			}
		}
		if err := transferChecked(ic, ltBaseTokenProgram, ltBaseVault, ltBaseMint, ltUserBase, ltAuth, q.AmountOut, auth); err != nil {
			return err
		}
		pool.ApplyBuy(q)
		amountIn, amountOut, fees = q.AmountIn, q.AmountOut, q.Fees
	} else {
		q, qerr := launchlab.QuoteSellExactInWithTransferFee(&pool, rates, a.AmountIn, baseFee)
		if qerr != nil {
			return llFailErr(ic, qerr)
		}
		if q.NetOut < a.MinimumAmountOut {
			return llFail(ic, launchlab.ErrExceededSlippage)
		}
		if err := transferChecked(ic, ltBaseTokenProgram, ltUserBase, ltBaseMint, ltBaseVault, ltPayer, q.AmountIn); err != nil {
			return err
		}
		steps := []struct {
			dst    int
			amount uint64
		}{{ltUserQuote, q.NetOut}, {platformVault, q.Fees.Platform}, {creatorVault, q.Fees.Creator}, {share, q.Fees.Share}}
		for _, s := range steps {
			if s.amount > 0 {
				if err := transferChecked(ic, ltQuoteTokenProgram, ltQuoteVault, ltQuoteMint, s.dst, ltAuth, s.amount, auth); err != nil {
					return err
				}
			}
		}
		pool.ApplySell(q)
		amountIn, amountOut, fees = q.AmountIn, q.NetOut, q.Fees
	}
	if err := ic.canWriteData(ltPool); err != nil {
		return err
	}
	copy(ic.acc(ltPool).Data, pool.Encode())

	e := anchor.Encoder{}
	e.Disc(launchlab.TradeEventDiscriminator)
	e.Key(ic.key(ltPool))
	for _, v := range []uint64{pool.TotalBaseSell, pool.VirtualBase, pool.VirtualQuote, before.RealBase, before.RealQuote,
		pool.RealBase, pool.RealQuote, amountIn, amountOut, fees.Protocol, fees.Platform, fees.Creator, fees.Share} {
		e.U64(v)
	}
	if buy {
		e.U8(0)
	} else {
		e.U8(1)
	}
	e.U8(pool.Status)
	e.Bool(true)
	return emitAnchorEvent(ic, ltEventAuth, launchlab.EventAuthorityPDA, launchlab.EventCPITag, e.B)
}
