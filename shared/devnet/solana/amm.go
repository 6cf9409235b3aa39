package solana

import (
	"encoding/base64"
	"errors"
	"math/big"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// The PumpSwap AMM as this chain runs it: create_pool, buy,
// buy_exact_quote_in, sell and extend_account with the account checks of the
// published IDL, the pool math and layouts of package pumpswap, fees from
// the AMM's FeeConfig, and the program's errors.

var ammProgramID = pumpswap.ProgramID

// Compute units the AMM instructions charge themselves (their CPIs add
// their own).
const (
	ammCUTrade  = 30_000
	ammCUCreate = 40_000
	ammCUExtend = 5_000
)

// Facts of pools the local chain creates.
const (
	// ammLPDecimals are the decimals of every LP mint.
	ammLPDecimals = 9
	// ammMinimumLiquidity is the LP amount create_pool locks away for good.
	ammMinimumLiquidity = 100
)

var anchorAccountDidNotSerialize = anchorError{3004, "AccountDidNotSerialize", "Failed to serialize the account"}

func (c *Chain) installAMM() {
	c.programs[ammProgramID] = program{name: "pump-amm", run: runAMM}
}

// ammFail logs one of the AMM's own errors.
func ammFail(ic *instrCtx, e *anchor.ProgramError) *instrError {
	msg := e.Msg
	if msg == "" {
		msg = e.Name
	}
	ic.log("AnchorError occurred. Error Code: %s. Error Number: %d. Error Message: %s.", e.Name, e.Code, msg)
	return customErr(e.Code)
}

// ammFailErr turns an error of package pumpswap's math into the program
// error it stands for.
func ammFailErr(ic *instrCtx, err error) *instrError {
	var pe *anchor.ProgramError
	if errors.As(err, &pe) {
		return ammFail(ic, pe)
	}
	return ammFail(ic, pumpswap.ErrOverflow)
}

// runAMM dispatches on the Anchor discriminator.
func runAMM(ic *instrCtx) *instrError {
	if len(ic.data) < 8 {
		return frameworkFail(ic, anchorInstructionMissing)
	}
	switch pumpswap.Discriminator(ic.data[:8]) {
	case pumpswap.EventCPITag:
		if err := ic.consume(pumpCUEvent); err != nil {
			return err
		}
		if ic.n() < 1 || ic.key(0) != pumpswap.EventAuthorityPDA || !ic.signer[0] {
			return accountFail(ic, "event_authority", anchorAccountNotSigner)
		}
		return nil
	case pumpswap.BuyDiscriminator:
		ic.log("Instruction: Buy")
		var a pumpswap.BuyArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return ammBuy(ic, "buy", a.BaseAmountOut, a.MaxQuoteAmountIn, a.TrackVolume, false)
	case pumpswap.BuyExactQuoteInDiscriminator:
		ic.log("Instruction: BuyExactQuoteIn")
		var a pumpswap.BuyExactQuoteInArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return ammBuy(ic, "buy_exact_quote_in", a.SpendableQuoteIn, a.MinBaseAmountOut, a.TrackVolume, true)
	case pumpswap.SellDiscriminator:
		ic.log("Instruction: Sell")
		var a pumpswap.SellArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return ammSell(ic, a)
	case pumpswap.CreatePoolDiscriminator:
		ic.log("Instruction: CreatePool")
		var a pumpswap.CreatePoolArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return ammCreatePool(ic, a)
	case pumpswap.ExtendAccountDiscriminator:
		ic.log("Instruction: ExtendAccount")
		return ammExtend(ic)
	}
	return frameworkFail(ic, anchorFallbackNotFound)
}

// Positions of the accounts buy, buy_exact_quote_in and sell share.
const (
	aPool = iota
	aUser
	aGlobalConfig
	aBaseMint
	aQuoteMint
	aUserBase
	aUserQuote
	aPoolBase
	aPoolQuote
	aFeeRecipient
	aFeeRecipientTA
	aBaseTokenProgram
	aQuoteTokenProgram
	aSystem
	aATAProgram
	aEventAuthority
	aProgram
	aCreatorVaultTA
	aCreatorVaultAuth
	// Buy only.
	aGVA = 19
	aUVA = 20
)

// ammTrade is what a trade reads before it moves anything.
type ammTrade struct {
	pool     pumpswap.Pool
	gc       pumpswap.GlobalConfig
	fc       *pumpswap.FeeConfig
	res      pumpswap.Reserves
	supply   uint64
	rates    pumpswap.Rates
	buyback  int // positions of the buyback recipient and its quote account
	buyback2 int
}

// loadGlobalConfig checks and decodes the GlobalConfig at i.
func loadGlobalConfig(ic *instrCtx, i int) (pumpswap.GlobalConfig, *instrError) {
	var g pumpswap.GlobalConfig
	if ic.key(i) != pumpswap.GlobalConfigPDA {
		return g, seedsFail(ic, "global_config", ic.key(i), pumpswap.GlobalConfigPDA)
	}
	a := ic.acc(i)
	if a.Owner != ammProgramID {
		if len(a.Data) == 0 {
			return g, accountFail(ic, "global_config", anchorAccountNotInitialized)
		}
		return g, accountFail(ic, "global_config", anchorAccountOwnedByWrong)
	}
	if len(a.Data) < 8 || pumpswap.Discriminator(a.Data[:8]) != pumpswap.GlobalConfigDiscriminator {
		return g, accountFail(ic, "global_config", anchorDiscriminatorMismatch)
	}
	if err := g.Decode(a.Data); err != nil {
		return g, accountFail(ic, "global_config", anchorAccountDidNotDeser)
	}
	return g, nil
}

// checkMintAccount checks that the mint at i is an initialized mint of the
// token program at prog.
func checkMintAccount(ic *instrCtx, i, prog int, name string) *instrError {
	if !isTokenProgram(ic.key(prog)) {
		return accountFail(ic, name+"_token_program", anchorInvalidProgramID)
	}
	m := ic.acc(i)
	if m.Owner != ic.key(prog) || !validMintData(m.Owner, m.Data) || !mintInitialized(m.Data) {
		if len(m.Data) == 0 {
			return accountFail(ic, name+"_mint", anchorAccountNotInitialized)
		}
		return accountFail(ic, name+"_mint", anchorAccountOwnedByWrong)
	}
	return nil
}

// checkTokenAccount checks that the account at i is an initialized token
// account of mint under prog, owned by owner when owner is not zero.
func checkTokenAccount(ic *instrCtx, i int, name string, mint, owner, prog sol.PublicKey) *instrError {
	a := ic.acc(i)
	if a.Owner != prog {
		if a.Owner == systemProgramID && len(a.Data) == 0 {
			return accountFail(ic, name, anchorAccountNotInitialized)
		}
		return accountFail(ic, name, anchorAccountOwnedByWrong)
	}
	if !validTokenAccountData(prog, a.Data) || tokAccState(a.Data) == accountStateUninitialized {
		return accountFail(ic, name, anchorAccountNotInitialized)
	}
	if tokAccMint(a.Data) != mint {
		return accountFail(ic, name, anchorConstraintTokenMint)
	}
	if !owner.IsZero() && tokAccOwner(a.Data) != owner {
		return accountFail(ic, name, anchorConstraintTokenOwner)
	}
	return nil
}

// loadPool checks and decodes the pool at i; the trades write the whole
// pool back, so an account shorter than the current layout fails.
func loadPool(ic *instrCtx, i int, p *pumpswap.Pool) *instrError {
	a := ic.acc(i)
	if a.Owner != ammProgramID {
		if len(a.Data) == 0 {
			return accountFail(ic, "pool", anchorAccountNotInitialized)
		}
		return accountFail(ic, "pool", anchorAccountOwnedByWrong)
	}
	if len(a.Data) < 8 || pumpswap.Discriminator(a.Data[:8]) != pumpswap.PoolDiscriminator {
		return accountFail(ic, "pool", anchorDiscriminatorMismatch)
	}
	if err := p.Decode(a.Data); err != nil {
		return accountFail(ic, "pool", anchorAccountDidNotDeser)
	}
	if !ic.writable[i] {
		return accountFail(ic, "pool", anchorConstraintMut)
	}
	if len(a.Data) < pumpswap.PoolSize {
		ic.log("pool is %d bytes; extend_account grows it to %d", len(a.Data), pumpswap.PoolAccountSize)
		return accountFail(ic, "pool", anchorAccountDidNotSerialize)
	}
	return nil
}

// ammCheckTrade validates the accounts of buy and sell and reads the state.
func ammCheckTrade(ic *instrCtx, buy bool) (ammTrade, *instrError) {
	var st ammTrade
	fixed, feeConfig := pumpswap.SellFixedAccounts, 19
	if buy {
		fixed, feeConfig = pumpswap.BuyFixedAccounts, 21
	}
	if ic.n() < fixed {
		return st, frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	if err := loadPool(ic, aPool, &st.pool); err != nil {
		return st, err
	}
	p := &st.pool
	user := ic.key(aUser)
	if !ic.signer[aUser] {
		return st, accountFail(ic, "user", anchorAccountNotSigner)
	}
	if !ic.writable[aUser] {
		return st, accountFail(ic, "user", anchorConstraintMut)
	}
	gc, err := loadGlobalConfig(ic, aGlobalConfig)
	if err != nil {
		return st, err
	}
	st.gc = gc
	if ic.key(aBaseMint) != p.BaseMint {
		return st, ammFail(ic, pumpswap.ErrInvalidBaseMint)
	}
	if ic.key(aQuoteMint) != p.QuoteMint {
		return st, ammFail(ic, pumpswap.ErrInvalidQuoteMint)
	}
	if err := checkMintAccount(ic, aBaseMint, aBaseTokenProgram, "base"); err != nil {
		return st, err
	}
	if err := checkMintAccount(ic, aQuoteMint, aQuoteTokenProgram, "quote"); err != nil {
		return st, err
	}
	st.supply = mintSupply(ic.acc(aBaseMint).Data)
	baseProg, quoteProg := ic.key(aBaseTokenProgram), ic.key(aQuoteTokenProgram)
	if ic.key(aPoolBase) != p.PoolBaseTokenAccount {
		return st, ammFail(ic, pumpswap.ErrInvalidPoolBaseTokenAccount)
	}
	if ic.key(aPoolQuote) != p.PoolQuoteTokenAccount {
		return st, ammFail(ic, pumpswap.ErrInvalidPoolQuoteTokenAccount)
	}
	for _, x := range []struct {
		i    int
		name string
		mint sol.PublicKey
		own  sol.PublicKey
		prog sol.PublicKey
	}{
		{aUserBase, "user_base_token_account", p.BaseMint, user, baseProg},
		{aUserQuote, "user_quote_token_account", p.QuoteMint, user, quoteProg},
		{aPoolBase, "pool_base_token_account", p.BaseMint, ic.key(aPool), baseProg},
		{aPoolQuote, "pool_quote_token_account", p.QuoteMint, ic.key(aPool), quoteProg},
	} {
		if !ic.writable[x.i] {
			return st, accountFail(ic, x.name, anchorConstraintMut)
		}
		if err := checkTokenAccount(ic, x.i, x.name, x.mint, x.own, x.prog); err != nil {
			return st, err
		}
	}
	if !containsKey(gc.ProtocolFeeRecipientCandidates(p.IsMayhemMode), ic.key(aFeeRecipient)) {
		return st, ammFail(ic, pumpswap.ErrInvalidProtocolFeeRecipient)
	}
	feeTA := associatedTokenAddress(ic.key(aFeeRecipient), quoteProg, p.QuoteMint)
	if ic.key(aFeeRecipientTA) != feeTA {
		return st, seedsFail(ic, "protocol_fee_recipient_token_account", ic.key(aFeeRecipientTA), feeTA)
	}
	if ic.key(aSystem) != systemProgramID {
		return st, accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if ic.key(aATAProgram) != ataProgramID {
		return st, accountFail(ic, "associated_token_program", anchorInvalidProgramID)
	}
	if ic.key(aEventAuthority) != pumpswap.EventAuthorityPDA {
		return st, seedsFail(ic, "event_authority", ic.key(aEventAuthority), pumpswap.EventAuthorityPDA)
	}
	if ic.key(aProgram) != ammProgramID {
		return st, accountFail(ic, "program", anchorConstraintAddress)
	}
	vaultAuth := findPDA(ammProgramID, []byte(pumpswap.SeedCoinCreatorVault), p.CoinCreator[:])
	if ic.key(aCreatorVaultAuth) != vaultAuth {
		return st, seedsFail(ic, "coin_creator_vault_authority", ic.key(aCreatorVaultAuth), vaultAuth)
	}
	vaultTA := associatedTokenAddress(vaultAuth, quoteProg, p.QuoteMint)
	if ic.key(aCreatorVaultTA) != vaultTA {
		return st, seedsFail(ic, "coin_creator_vault_ata", ic.key(aCreatorVaultTA), vaultTA)
	}
	for _, x := range []struct {
		i    int
		name string
	}{{aFeeRecipientTA, "protocol_fee_recipient_token_account"}, {aCreatorVaultTA, "coin_creator_vault_ata"}} {
		if !ic.writable[x.i] {
			return st, accountFail(ic, x.name, anchorConstraintMut)
		}
	}
	if buy {
		if ic.key(aGVA) != pumpswap.GlobalVolumeAccumulatorPDA {
			return st, seedsFail(ic, "global_volume_accumulator", ic.key(aGVA), pumpswap.GlobalVolumeAccumulatorPDA)
		}
		uva := findPDA(ammProgramID, []byte(pumpswap.SeedUserVolumeAccumulator), user[:])
		if ic.key(aUVA) != uva {
			return st, seedsFail(ic, "user_volume_accumulator", ic.key(aUVA), uva)
		}
		if !ic.writable[aUVA] {
			return st, accountFail(ic, "user_volume_accumulator", anchorConstraintMut)
		}
	}
	if ic.key(feeConfig) != pumpswap.FeeConfigPDA {
		return st, seedsFail(ic, "fee_config", ic.key(feeConfig), pumpswap.FeeConfigPDA)
	}
	fa := ic.acc(feeConfig)
	if fa.Owner != pumpswap.FeeProgramID {
		return st, accountFail(ic, "fee_config", anchorAccountOwnedByWrong)
	}
	var fc pumpswap.FeeConfig
	if err := fc.Decode(fa.Data); err != nil {
		return st, accountFail(ic, "fee_config", anchorAccountDidNotDeser)
	}
	st.fc = &fc
	if ic.key(feeConfig+1) != pumpswap.FeeProgramID {
		return st, accountFail(ic, "fee_program", anchorConstraintAddress)
	}

	// Remaining accounts: the cashback accounts, pool_v2, then the buyback
	// recipient and its quote account.
	next := fixed
	if p.IsCashbackCoin {
		need := 1
		if !buy {
			need = 2
		}
		if ic.n() < next+need {
			return st, ammFail(ic, pumpswap.ErrMissingCashbackAccounts)
		}
		uva := findPDA(ammProgramID, []byte(pumpswap.SeedUserVolumeAccumulator), user[:])
		if ic.key(next) != associatedTokenAddress(uva, quoteProg, p.QuoteMint) {
			return st, ammFail(ic, pumpswap.ErrInvalidCashbackAccumulatorAta)
		}
		if !buy && ic.key(next+1) != uva {
			return st, ammFail(ic, pumpswap.ErrInvalidCashbackAccumulator)
		}
		next += need
	}
	if !p.CoinCreator.IsZero() {
		v2 := findPDA(ammProgramID, []byte(pumpswap.SeedPoolV2), p.BaseMint[:])
		if ic.n() <= next || ic.key(next) != v2 {
			return st, ammFail(ic, pumpswap.ErrInvalidPoolV2)
		}
		next++
	}
	if ic.n() < next+2 {
		return st, ammFail(ic, pumpswap.ErrBuybackFeeRecipientMissing)
	}
	if !containsKey(gc.BuybackFeeRecipientCandidates(), ic.key(next)) {
		return st, ammFail(ic, pumpswap.ErrBuybackFeeRecipientNotAuthorized)
	}
	bbTA := associatedTokenAddress(ic.key(next), quoteProg, p.QuoteMint)
	if ic.key(next+1) != bbTA {
		return st, seedsFail(ic, "buyback_fee_recipient_token_account", ic.key(next+1), bbTA)
	}
	if !ic.writable[next+1] {
		return st, accountFail(ic, "buyback_fee_recipient_token_account", anchorConstraintMut)
	}
	if err := checkTokenAccount(ic, next+1, "buyback_fee_recipient_token_account", p.QuoteMint, ic.key(next), quoteProg); err != nil {
		return st, err
	}
	st.buyback, st.buyback2 = next, next+1

	st.res = pumpswap.Reserves{
		Base:    tokAccAmount(ic.acc(aPoolBase).Data),
		Quote:   tokAccAmount(ic.acc(aPoolQuote).Data),
		Virtual: p.VirtualQuoteReserves,
	}
	st.rates = pumpswap.ComputeFees(&st.gc, st.fc, p, st.res, st.supply)
	return st, nil
}

// ensureATA creates the associated token account at i (of owner for the
// mint at mint under prog) when it does not exist, paid by payer: the
// program's init_if_needed.
func ensureATA(ic *instrCtx, payer, i, owner, mint, prog int) *instrError {
	a := ic.acc(i)
	if a.Owner == ic.key(prog) && len(a.Data) > 0 {
		return nil
	}
	return ic.invoke(ataProgramID, []cpiAccount{{payer, true, true}, {i, false, true}, {owner, false, false}, {mint, false, false}, {aSystem, false, false}, {prog, false, false}}, []byte{1})
}

// transferChecked moves tokens through the token program at prog with the
// mint's own decimals.
func transferChecked(ic *instrCtx, prog, src, mint, dst, auth int, amount uint64, pdaSigner ...sol.PublicKey) *instrError {
	if amount == 0 {
		return nil
	}
	data := append([]byte{12}, u64le(amount)...)
	data = append(data, mintDecimals(ic.acc(mint).Data))
	return ic.invoke(ic.key(prog), []cpiAccount{{src, false, true}, {mint, false, false}, {dst, false, true}, {auth, len(pdaSigner) > 0 || ic.signer[auth], false}}, data, pdaSigner...)
}

// createPDAAccount creates the program-owned account at target with size
// bytes, paid by payer; a pre-funded address is topped up, allocated and
// assigned instead, as the System program requires.
func createPDAAccount(ic *instrCtx, payer, target int, size uint64, owner sol.PublicKey) *instrError {
	a := ic.acc(target)
	rent := MinimumBalanceForRentExemption(int(size))
	if a.Lamports == 0 {
		data := append(u64le(rent), u64le(size)...)
		data = append(data, owner[:]...)
		return ic.invoke(systemProgramID, []cpiAccount{{payer, true, true}, {target, true, true}}, sysIx(0, data), ic.key(target))
	}
	if a.Lamports < rent {
		if err := systemTransfer(ic, payer, target, rent-a.Lamports); err != nil {
			return err
		}
	}
	if err := ic.invoke(systemProgramID, []cpiAccount{{target, true, true}}, sysIx(8, u64le(size)), ic.key(target)); err != nil {
		return err
	}
	return ic.invoke(systemProgramID, []cpiAccount{{target, true, true}}, sysIx(1, owner[:]), ic.key(target))
}

// emitAMMEvent logs the event and emits it through Anchor's self-invocation.
func emitAMMEvent(ic *instrCtx, eventAuthority int, ev []byte) *instrError {
	ic.tx.log("Program data: %s", base64.StdEncoding.EncodeToString(ev))
	data := append(append(make([]byte, 0, 8+len(ev)), pumpswap.EventCPITag[:]...), ev...)
	return ic.invoke(ammProgramID, []cpiAccount{{eventAuthority, true, false}}, data, pumpswap.EventAuthorityPDA)
}

// payFees pays the protocol fee (split with the buyback recipient) and the
// creator fee from src, authorised by auth.
func payFees(ic *instrCtx, st *ammTrade, src, auth int, protocolFee, creatorFee uint64, pdaSigner ...sol.PublicKey) (buybackFee uint64, err *instrError) {
	buybackFee, protocol := pumpswap.BuybackSplit(protocolFee, st.gc.BuybackBasisPoints)
	if err := transferChecked(ic, aQuoteTokenProgram, src, aQuoteMint, aFeeRecipientTA, auth, protocol, pdaSigner...); err != nil {
		return 0, err
	}
	if err := transferChecked(ic, aQuoteTokenProgram, src, aQuoteMint, st.buyback2, auth, buybackFee, pdaSigner...); err != nil {
		return 0, err
	}
	if err := transferChecked(ic, aQuoteTokenProgram, src, aQuoteMint, aCreatorVaultTA, auth, creatorFee, pdaSigner...); err != nil {
		return 0, err
	}
	return buybackFee, nil
}

func ammBuy(ic *instrCtx, ixName string, amount, limit uint64, track, exactIn bool) *instrError {
	if err := ic.consume(ammCUTrade); err != nil {
		return err
	}
	st, err := ammCheckTrade(ic, true)
	if err != nil {
		return err
	}
	if st.gc.Disabled(pumpswap.DisableBuy) {
		return ammFail(ic, pumpswap.ErrDisabledBuy)
	}
	var q pumpswap.BuyQuote
	var qerr error
	if exactIn {
		q, qerr = pumpswap.QuoteBuyExactQuoteIn(st.res, st.rates, amount)
	} else {
		q, qerr = pumpswap.QuoteBuy(st.res, st.rates, amount)
	}
	if qerr != nil {
		return ammFailErr(ic, qerr)
	}
	if exactIn {
		if q.BaseOut < limit {
			return ammFail(ic, pumpswap.ErrBuySlippageBelowMinBaseAmountOut)
		}
	} else if q.Total > limit {
		return ammFail(ic, pumpswap.ErrExceededSlippage)
	}
	user := ic.key(aUser)

	// The user's volume accumulator is created on first use, paid by the user.
	var acc pumpswap.UserVolumeAccumulator
	switch uva := ic.acc(aUVA); {
	case uva.Owner == systemProgramID && len(uva.Data) == 0:
		if err := createPDAAccount(ic, aUser, aUVA, pumpswap.UserVolumeAccumulatorSize, ammProgramID); err != nil {
			return err
		}
		acc.User = user
	case uva.Owner == ammProgramID:
		if err := acc.Decode(uva.Data); err != nil {
			return accountFail(ic, "user_volume_accumulator", anchorAccountDidNotDeser)
		}
	default:
		return accountFail(ic, "user_volume_accumulator", anchorAccountOwnedByWrong)
	}
	if track {
		acc.CurrentSolVolume += q.QuoteIn
	}
	acc.LastUpdateTimestamp = ic.tx.unixTime
	if err := ic.canWriteData(aUVA); err != nil {
		return err
	}
	copy(ic.acc(aUVA).Data, acc.Encode())

	if err := ensureATA(ic, aUser, aFeeRecipientTA, aFeeRecipient, aQuoteMint, aQuoteTokenProgram); err != nil {
		return err
	}
	if err := ensureATA(ic, aUser, aCreatorVaultTA, aCreatorVaultAuth, aQuoteMint, aQuoteTokenProgram); err != nil {
		return err
	}
	// The swap cost and the LP fee go into the pool; the base leaves it,
	// signed for by the pool.
	if err := transferChecked(ic, aQuoteTokenProgram, aUserQuote, aQuoteMint, aPoolQuote, aUser, q.QuoteIn+q.LPFee); err != nil {
		return err
	}
	buybackFee, err := payFees(ic, &st, aUserQuote, aUser, q.ProtocolFee, q.CreatorFee)
	if err != nil {
		return err
	}
	if err := transferChecked(ic, aBaseTokenProgram, aPoolBase, aBaseMint, aUserBase, aPool, q.BaseOut, ic.key(aPool)); err != nil {
		return err
	}
	if err := writePool(ic, aPool, &st.pool); err != nil {
		return err
	}
	st.res.ApplyBuy(q)
	ev := pumpswap.BuyEvent{
		Timestamp: ic.tx.unixTime, BaseAmountOut: q.BaseOut, MaxQuoteAmountIn: limit,
		UserBaseTokenReserves: tokAccAmount(ic.acc(aUserBase).Data), UserQuoteTokenReserves: tokAccAmount(ic.acc(aUserQuote).Data),
		PoolBaseTokenReserves: st.res.Base, PoolQuoteTokenReserves: st.res.Quote, QuoteAmountIn: q.QuoteIn,
		LPFeeBasisPoints: st.rates.LPFeeBps, LPFee: q.LPFee, ProtocolFeeBasisPoints: st.rates.ProtocolFeeBps,
		ProtocolFee: q.ProtocolFee, QuoteAmountInWithLPFee: q.QuoteIn + q.LPFee, UserQuoteAmountIn: q.Total,
		Pool: ic.key(aPool), User: user, UserBaseTokenAccount: ic.key(aUserBase), UserQuoteTokenAccount: ic.key(aUserQuote),
		ProtocolFeeRecipient: ic.key(aFeeRecipient), ProtocolFeeRecipientTokenAccount: ic.key(aFeeRecipientTA),
		CoinCreator: st.pool.CoinCreator, CoinCreatorFeeBasisPoints: st.rates.CreatorFeeBps, CoinCreatorFee: q.CreatorFee,
		TrackVolume: track, TotalUnclaimedTokens: acc.TotalUnclaimedTokens, TotalClaimedTokens: acc.TotalClaimedTokens,
		CurrentSolVolume: acc.CurrentSolVolume, LastUpdateTimestamp: acc.LastUpdateTimestamp, IxName: ixName,
		BuybackFeeBasisPoints: st.gc.BuybackBasisPoints, BuybackFee: buybackFee,
		VirtualQuoteReserves: st.pool.VirtualQuoteReserves, BaseSupply: st.supply,
	}
	if exactIn {
		ev.MaxQuoteAmountIn, ev.MinBaseAmountOut = amount, limit
	}
	return emitAMMEvent(ic, aEventAuthority, ev.Encode())
}

func ammSell(ic *instrCtx, a pumpswap.SellArgs) *instrError {
	if err := ic.consume(ammCUTrade); err != nil {
		return err
	}
	st, err := ammCheckTrade(ic, false)
	if err != nil {
		return err
	}
	if st.gc.Disabled(pumpswap.DisableSell) {
		return ammFail(ic, pumpswap.ErrDisabledSell)
	}
	q, qerr := pumpswap.QuoteSell(st.res, st.rates, a.BaseAmountIn)
	if qerr != nil {
		return ammFailErr(ic, qerr)
	}
	if q.Net < a.MinQuoteAmountOut {
		return ammFail(ic, pumpswap.ErrExceededSlippage)
	}
	if err := ensureATA(ic, aUser, aFeeRecipientTA, aFeeRecipient, aQuoteMint, aQuoteTokenProgram); err != nil {
		return err
	}
	if err := ensureATA(ic, aUser, aCreatorVaultTA, aCreatorVaultAuth, aQuoteMint, aQuoteTokenProgram); err != nil {
		return err
	}
	if err := transferChecked(ic, aBaseTokenProgram, aUserBase, aBaseMint, aPoolBase, aUser, a.BaseAmountIn); err != nil {
		return err
	}
	pool := ic.key(aPool)
	if err := transferChecked(ic, aQuoteTokenProgram, aPoolQuote, aQuoteMint, aUserQuote, aPool, q.Net, pool); err != nil {
		return err
	}
	buybackFee, err := payFees(ic, &st, aPoolQuote, aPool, q.ProtocolFee, q.CreatorFee, pool)
	if err != nil {
		return err
	}
	if err := writePool(ic, aPool, &st.pool); err != nil {
		return err
	}
	st.res.ApplySell(q)
	ev := pumpswap.SellEvent{
		Timestamp: ic.tx.unixTime, BaseAmountIn: a.BaseAmountIn, MinQuoteAmountOut: a.MinQuoteAmountOut,
		UserBaseTokenReserves: tokAccAmount(ic.acc(aUserBase).Data), UserQuoteTokenReserves: tokAccAmount(ic.acc(aUserQuote).Data),
		PoolBaseTokenReserves: st.res.Base, PoolQuoteTokenReserves: st.res.Quote, QuoteAmountOut: q.QuoteOut,
		LPFeeBasisPoints: st.rates.LPFeeBps, LPFee: q.LPFee, ProtocolFeeBasisPoints: st.rates.ProtocolFeeBps,
		ProtocolFee: q.ProtocolFee, QuoteAmountOutWithoutLPFee: q.QuoteOut - q.LPFee, UserQuoteAmountOut: q.Net,
		Pool: pool, User: ic.key(aUser), UserBaseTokenAccount: ic.key(aUserBase), UserQuoteTokenAccount: ic.key(aUserQuote),
		ProtocolFeeRecipient: ic.key(aFeeRecipient), ProtocolFeeRecipientTokenAccount: ic.key(aFeeRecipientTA),
		CoinCreator: st.pool.CoinCreator, CoinCreatorFeeBasisPoints: st.rates.CreatorFeeBps, CoinCreatorFee: q.CreatorFee,
		BuybackFeeBasisPoints: st.gc.BuybackBasisPoints, BuybackFee: buybackFee,
		VirtualQuoteReserves: st.pool.VirtualQuoteReserves, BaseSupply: st.supply,
	}
	return emitAMMEvent(ic, aEventAuthority, ev.Encode())
}

// writePool stores the pool, as the program does after every instruction.
func writePool(ic *instrCtx, i int, p *pumpswap.Pool) *instrError {
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	enc := p.Encode()
	a := ic.acc(i)
	copy(a.Data, enc[:min(len(enc), len(a.Data))])
	return nil
}

// Positions of the create_pool accounts.
const (
	cpPool = iota
	cpGlobalConfig
	cpCreator
	cpBaseMint
	cpQuoteMint
	cpLPMint
	cpUserBase
	cpUserQuote
	cpUserPool
	cpPoolBase
	cpPoolQuote
	cpSystem
	cpToken2022
	cpBaseTokenProgram
	cpQuoteTokenProgram
	cpATAProgram
	cpEventAuthority
	cpProgram
)

// ammCreatePool runs create_pool: the pool account, its LP mint under
// Token-2022, the pool's two vaults, the creator's deposit, and LP tokens
// for the creator less the locked minimum liquidity.
func ammCreatePool(ic *instrCtx, a pumpswap.CreatePoolArgs) *instrError {
	if err := ic.consume(ammCUCreate); err != nil {
		return err
	}
	if ic.n() < pumpswap.CreatePoolFixedAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	creator, base, quote := ic.key(cpCreator), ic.key(cpBaseMint), ic.key(cpQuoteMint)
	pool, bump := pdas.find(ammProgramID, []byte(pumpswap.SeedPool), []byte{byte(a.Index), byte(a.Index >> 8)}, creator[:], base[:], quote[:])
	if ic.key(cpPool) != pool {
		return seedsFail(ic, "pool", ic.key(cpPool), pool)
	}
	gc, err := loadGlobalConfig(ic, cpGlobalConfig)
	if err != nil {
		return err
	}
	if !ic.signer[cpCreator] {
		return accountFail(ic, "creator", anchorAccountNotSigner)
	}
	if !ic.writable[cpCreator] {
		return accountFail(ic, "creator", anchorConstraintMut)
	}
	lp := findPDA(ammProgramID, []byte(pumpswap.SeedLPMint), pool[:])
	if ic.key(cpLPMint) != lp {
		return seedsFail(ic, "lp_mint", ic.key(cpLPMint), lp)
	}
	if ic.key(cpSystem) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if ic.key(cpToken2022) != token2022ProgramID {
		return accountFail(ic, "token_2022_program", anchorConstraintAddress)
	}
	if ic.key(cpATAProgram) != ataProgramID {
		return accountFail(ic, "associated_token_program", anchorInvalidProgramID)
	}
	if ic.key(cpEventAuthority) != pumpswap.EventAuthorityPDA {
		return seedsFail(ic, "event_authority", ic.key(cpEventAuthority), pumpswap.EventAuthorityPDA)
	}
	if ic.key(cpProgram) != ammProgramID {
		return accountFail(ic, "program", anchorConstraintAddress)
	}
	if err := checkMintAccount(ic, cpBaseMint, cpBaseTokenProgram, "base"); err != nil {
		return err
	}
	if err := checkMintAccount(ic, cpQuoteMint, cpQuoteTokenProgram, "quote"); err != nil {
		return err
	}
	baseProg, quoteProg := ic.key(cpBaseTokenProgram), ic.key(cpQuoteTokenProgram)
	for _, x := range []struct {
		i          int
		name       string
		owner      sol.PublicKey
		prog, mint sol.PublicKey
	}{
		{cpPoolBase, "pool_base_token_account", pool, baseProg, base},
		{cpPoolQuote, "pool_quote_token_account", pool, quoteProg, quote},
		{cpUserPool, "user_pool_token_account", creator, token2022ProgramID, lp},
	} {
		want := associatedTokenAddress(x.owner, x.prog, x.mint)
		if ic.key(x.i) != want {
			return seedsFail(ic, x.name, ic.key(x.i), want)
		}
	}
	canonical := pumpswap.IsCanonical(base, creator)
	switch {
	case gc.Disabled(pumpswap.DisableCreatePool):
		return ammFail(ic, pumpswap.ErrDisabledCreatePool)
	case base == quote:
		return ammFail(ic, pumpswap.ErrSameMint)
	case !a.CoinCreator.IsZero() && !canonical:
		return ammFail(ic, pumpswap.ErrOnlyCanonicalPumpPoolsCanHaveCoinCreator)
	case a.IsMayhemMode && !canonical:
		return ammFail(ic, pumpswap.ErrOnlyPumpPoolsMayhemMode)
	case a.IsCashbackCoin && !canonical:
		return ammFail(ic, pumpswap.ErrOnlyPumpPoolsCashback)
	case a.BaseAmountIn == 0:
		return ammFail(ic, pumpswap.ErrZeroBaseAmount)
	case a.QuoteAmountIn == 0:
		return ammFail(ic, pumpswap.ErrZeroQuoteAmount)
	}
	for _, x := range []struct {
		i          int
		name       string
		mint, prog sol.PublicKey
	}{{cpUserBase, "user_base_token_account", base, baseProg}, {cpUserQuote, "user_quote_token_account", quote, quoteProg}} {
		if err := checkTokenAccount(ic, x.i, x.name, x.mint, creator, x.prog); err != nil {
			return err
		}
	}
	lpAmount := new(big.Int).Mul(new(big.Int).SetUint64(a.BaseAmountIn), new(big.Int).SetUint64(a.QuoteAmountIn))
	lpAmount.Sqrt(lpAmount)
	if !lpAmount.IsUint64() || lpAmount.Uint64() <= ammMinimumLiquidity {
		return ammFail(ic, pumpswap.ErrTooLittlePoolTokenLiquidity)
	}
	initial := lpAmount.Uint64()
	out := initial - ammMinimumLiquidity

	// The pool account, then its LP mint, then its vaults.
	if err := createPDAAccount(ic, cpCreator, cpPool, pumpswap.PoolAccountSize, ammProgramID); err != nil {
		return err
	}
	if err := createPDAAccount(ic, cpCreator, cpLPMint, mintLen, token2022ProgramID); err != nil {
		return err
	}
	initMint := append([]byte{20, ammLPDecimals}, pool[:]...)
	initMint = append(initMint, 0)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cpLPMint, false, true}}, initMint); err != nil {
		return err
	}
	for _, x := range []struct{ ata, owner, mint, prog int }{
		{cpPoolBase, cpPool, cpBaseMint, cpBaseTokenProgram},
		{cpPoolQuote, cpPool, cpQuoteMint, cpQuoteTokenProgram},
		{cpUserPool, cpCreator, cpLPMint, cpToken2022},
	} {
		if err := ic.invoke(ataProgramID, []cpiAccount{{cpCreator, true, true}, {x.ata, false, true}, {x.owner, false, false}, {x.mint, false, false}, {cpSystem, false, false}, {x.prog, false, false}}, []byte{1}); err != nil {
			return err
		}
	}
	if err := transferChecked(ic, cpBaseTokenProgram, cpUserBase, cpBaseMint, cpPoolBase, cpCreator, a.BaseAmountIn); err != nil {
		return err
	}
	if err := transferChecked(ic, cpQuoteTokenProgram, cpUserQuote, cpQuoteMint, cpPoolQuote, cpCreator, a.QuoteAmountIn); err != nil {
		return err
	}
	mintTo := append([]byte{7}, u64le(out)...)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cpLPMint, false, true}, {cpUserPool, false, true}, {cpPool, true, false}}, mintTo, pool); err != nil {
		return err
	}
	p := pumpswap.Pool{
		PoolBump: bump, Index: a.Index, Creator: creator, BaseMint: base, QuoteMint: quote, LPMint: lp,
		PoolBaseTokenAccount: ic.key(cpPoolBase), PoolQuoteTokenAccount: ic.key(cpPoolQuote), LPSupply: out,
		CoinCreator: a.CoinCreator, IsMayhemMode: a.IsMayhemMode, IsCashbackCoin: a.IsCashbackCoin,
		CreatorFeeBps: a.CreatorFeeBps, CanEditCreatorFee: a.CanEditCreatorFee, IsHolderReward: a.IsHolderReward,
	}
	if err := ic.canWriteData(cpPool); err != nil {
		return err
	}
	copy(ic.acc(cpPool).Data, p.Encode())
	ev := pumpswap.CreatePoolEvent{
		Timestamp: ic.tx.unixTime, Index: a.Index, Creator: creator, BaseMint: base, QuoteMint: quote,
		BaseMintDecimals: mintDecimals(ic.acc(cpBaseMint).Data), QuoteMintDecimals: mintDecimals(ic.acc(cpQuoteMint).Data),
		BaseAmountIn: a.BaseAmountIn, QuoteAmountIn: a.QuoteAmountIn, PoolBaseAmount: a.BaseAmountIn, PoolQuoteAmount: a.QuoteAmountIn,
		MinimumLiquidity: ammMinimumLiquidity, InitialLiquidity: initial, LPTokenAmountOut: out, PoolBump: bump,
		Pool: pool, LPMint: lp, UserBaseTokenAccount: ic.key(cpUserBase), UserQuoteTokenAccount: ic.key(cpUserQuote),
		CoinCreator: a.CoinCreator, IsMayhemMode: a.IsMayhemMode, CreatorFeeBps: a.CreatorFeeBps,
		CanEditCreatorFee: a.CanEditCreatorFee, IsHolderReward: a.IsHolderReward,
	}
	return emitAMMEvent(ic, cpEventAuthority, ev.Encode())
}

// ammExtend runs extend_account: it grows a pool written under an older,
// shorter layout to PoolAccountSize, the user paying the added rent.
func ammExtend(ic *instrCtx) *instrError {
	if err := ic.consume(ammCUExtend); err != nil {
		return err
	}
	if ic.n() < pumpswap.ExtendAccountFixedAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	if !ic.signer[1] {
		return accountFail(ic, "user", anchorAccountNotSigner)
	}
	if !ic.writable[0] {
		return accountFail(ic, "account", anchorConstraintMut)
	}
	if ic.key(2) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if ic.key(3) != pumpswap.EventAuthorityPDA {
		return seedsFail(ic, "event_authority", ic.key(3), pumpswap.EventAuthorityPDA)
	}
	a := ic.acc(0)
	if a.Owner != ammProgramID {
		return accountFail(ic, "account", anchorAccountOwnedByWrong)
	}
	if len(a.Data) < 8 || pumpswap.Discriminator(a.Data[:8]) != pumpswap.PoolDiscriminator {
		return ammFail(ic, pumpswap.ErrAccountTypeNotSupported)
	}
	if len(a.Data) >= pumpswap.PoolAccountSize {
		return ammFail(ic, pumpswap.ErrNewSizeLessThanCurrentSize)
	}
	if need := MinimumBalanceForRentExemption(pumpswap.PoolAccountSize); a.Lamports < need {
		if err := systemTransfer(ic, 1, 0, need-a.Lamports); err != nil {
			return err
		}
	}
	if err := ic.canWriteData(0); err != nil {
		return err
	}
	a = ic.acc(0)
	grown := make([]byte, pumpswap.PoolAccountSize)
	copy(grown, a.Data)
	a.Data = grown
	return nil
}
