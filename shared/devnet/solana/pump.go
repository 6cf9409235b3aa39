package solana

import (
	"encoding/base64"
	"errors"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// The pump.fun program as this chain runs it: create, create_v2, buy,
// buy_exact_sol_in and sell with the account checks of the published IDL,
// the curve math and account layouts of package pumpfun, fees from the
// FeeConfig and Global the chain seeds at genesis, and the program's errors.

var pumpProgramID = pumpfun.ProgramID

// Compute units the pump instructions charge themselves (their CPIs add
// their own).
const (
	pumpCUTrade  = 28_000
	pumpCUCreate = 45_000
	pumpCUEvent  = 2_000
)

// Limits of the metadata strings; longer ones fail with NameTooLong,
// SymbolTooLong or UriTooLong.
const (
	pumpMaxName   = 32
	pumpMaxSymbol = 10
	pumpMaxURI    = 200
)

// anchorError is a framework error of Anchor (codes below 6000).
type anchorError struct {
	code uint32
	name string
	msg  string
}

var (
	anchorInstructionMissing    = anchorError{100, "InstructionMissing", "8 byte instruction identifier not provided"}
	anchorFallbackNotFound      = anchorError{101, "InstructionFallbackNotFound", "Fallback functions are not supported"}
	anchorDidNotDeserialize     = anchorError{102, "InstructionDidNotDeserialize", "The program could not deserialize the given instruction"}
	anchorConstraintMut         = anchorError{2000, "ConstraintMut", "A mut constraint was violated"}
	anchorConstraintSeeds       = anchorError{2006, "ConstraintSeeds", "A seeds constraint was violated"}
	anchorConstraintAddress     = anchorError{2012, "ConstraintAddress", "An address constraint was violated"}
	anchorConstraintTokenMint   = anchorError{2014, "ConstraintTokenMint", "A token mint constraint was violated"}
	anchorConstraintTokenOwner  = anchorError{2015, "ConstraintTokenOwner", "A token owner constraint was violated"}
	anchorDiscriminatorNotFound = anchorError{3001, "AccountDiscriminatorNotFound", "No 8 byte discriminator was found on the account"}
	anchorDiscriminatorMismatch = anchorError{3002, "AccountDiscriminatorMismatch", "8 byte discriminator did not match what was expected"}
	anchorAccountDidNotDeser    = anchorError{3003, "AccountDidNotDeserialize", "Failed to deserialize the account"}
	anchorAccountNotEnoughKeys  = anchorError{3005, "AccountNotEnoughKeys", "Not enough account keys given to the instruction"}
	anchorAccountOwnedByWrong   = anchorError{3007, "AccountOwnedByWrongProgram", "The given account is owned by a different program than expected"}
	anchorInvalidProgramID      = anchorError{3008, "InvalidProgramId", "Program ID was not as expected"}
	anchorAccountNotSigner      = anchorError{3010, "AccountNotSigner", "The given account did not sign"}
	anchorAccountNotInitialized = anchorError{3012, "AccountNotInitialized", "The program expected this account to be already initialized"}
	anchorAccountNotSystemOwned = anchorError{3011, "AccountNotSystemOwned", "The given account is not owned by the system program"}
	anchorConstraintMintAuth    = anchorError{2016, "ConstraintMintMintAuthority", "A mint mint authority constraint was violated"}
)

// accountFail logs an Anchor account error the way the framework does and
// returns it as a custom program error.
func accountFail(ic *instrCtx, account string, e anchorError) *instrError {
	ic.log("AnchorError caused by account: %s. Error Code: %s. Error Number: %d. Error Message: %s.", account, e.name, e.code, e.msg)
	return customErr(e.code)
}

// seedsFail logs a seeds violation with the two keys, as Anchor does.
func seedsFail(ic *instrCtx, account string, got, want sol.PublicKey) *instrError {
	err := accountFail(ic, account, anchorConstraintSeeds)
	ic.log("Left:")
	ic.log("%s", got)
	ic.log("Right:")
	ic.log("%s", want)
	return err
}

// frameworkFail logs an Anchor error not tied to an account.
func frameworkFail(ic *instrCtx, e anchorError) *instrError {
	ic.log("AnchorError occurred. Error Code: %s. Error Number: %d. Error Message: %s.", e.name, e.code, e.msg)
	return customErr(e.code)
}

// programFail logs one of the program's own errors.
func programFail(ic *instrCtx, e *anchor.ProgramError) *instrError {
	msg := e.Msg
	if msg == "" {
		msg = e.Name
	}
	ic.log("AnchorError occurred. Error Code: %s. Error Number: %d. Error Message: %s.", e.Name, e.Code, msg)
	return customErr(e.Code)
}

// programFailErr turns an error of package pumpfun's curve math into the
// program error it stands for.
func programFailErr(ic *instrCtx, err error) *instrError {
	var pe *anchor.ProgramError
	if errors.As(err, &pe) {
		return programFail(ic, pe)
	}
	return programFail(ic, pumpfun.ErrOverflow)
}

func (c *Chain) installPump() {
	c.programs[pumpProgramID] = program{name: "pump", run: runPump}
	c.programs[pumpfun.FeeProgramID] = program{name: "pump-fees", run: noProgram}
	c.programs[pumpfun.MayhemProgramID] = program{name: "mayhem", run: noProgram}
}

// runPump dispatches on the Anchor discriminator.
func runPump(ic *instrCtx) *instrError {
	if len(ic.data) < 8 {
		return frameworkFail(ic, anchorInstructionMissing)
	}
	switch pumpfun.Discriminator(ic.data[:8]) {
	case pumpfun.EventCPITag:
		// Anchor's event self-invocation: only the event authority may sign it.
		if err := ic.consume(pumpCUEvent); err != nil {
			return err
		}
		if ic.n() < 1 || ic.key(0) != pumpfun.EventAuthorityPDA || !ic.signer[0] {
			return accountFail(ic, "event_authority", anchorAccountNotSigner)
		}
		return nil
	case pumpfun.BuyDiscriminator:
		ic.log("Instruction: Buy")
		var a pumpfun.BuyArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return pumpBuy(ic, "buy", a.Amount, a.MaxSolCost, 0, a.TrackVolume, false, a.PartialFill)
	case pumpfun.BuyExactSolInDiscriminator:
		ic.log("Instruction: BuyExactSolIn")
		var a pumpfun.BuyExactSolInArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return pumpBuy(ic, "buy_exact_sol_in", a.SpendableSolIn, 0, a.MinTokensOut, a.TrackVolume, true, a.PartialFill)
	case pumpfun.SellDiscriminator:
		ic.log("Instruction: Sell")
		var a pumpfun.SellArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return pumpSell(ic, a)
	case pumpfun.CreateV2Discriminator:
		ic.log("Instruction: CreateV2")
		var a pumpfun.CreateV2Args
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return pumpCreate(ic, a, true)
	case pumpfun.CreateDiscriminator:
		ic.log("Instruction: Create")
		var a pumpfun.CreateArgs
		if err := a.Decode(ic.data); err != nil {
			return frameworkFail(ic, anchorDidNotDeserialize)
		}
		return pumpCreate(ic, pumpfun.CreateV2Args{Name: a.Name, Symbol: a.Symbol, URI: a.URI, Creator: a.Creator}, false)
	}
	return frameworkFail(ic, anchorFallbackNotFound)
}

// tradeState is what a trade reads before it moves anything.
type tradeState struct {
	global     pumpfun.Global
	fees       *pumpfun.FeeConfig
	curve      pumpfun.BondingCurve
	mintSupply uint64
	rates      pumpfun.FeeRates
}

// tradeLayout names the positions that differ between buy and sell.
type tradeLayout struct {
	tokenProgram, creatorVault, eventAuthority, program, feeConfig, feeProgram int
	gva, uva                                                                   int // buy only; -1 for sell
	fixed                                                                      int
}

var (
	buyLayout  = tradeLayout{tokenProgram: 8, creatorVault: 9, eventAuthority: 10, program: 11, gva: 12, uva: 13, feeConfig: 14, feeProgram: 15, fixed: pumpfun.BuyFixedAccounts}
	sellLayout = tradeLayout{creatorVault: 8, tokenProgram: 9, eventAuthority: 10, program: 11, gva: -1, uva: -1, feeConfig: 12, feeProgram: 13, fixed: pumpfun.SellFixedAccounts}
)

// Fixed positions shared by buy and sell.
const (
	tGlobal       = 0
	tFeeRecipient = 1
	tMint         = 2
	tCurve        = 3
	tCurveATA     = 4
	tUserATA      = 5
	tUser         = 6
	tSystem       = 7
)

// loadGlobal checks and decodes the Global account at i.
func loadGlobal(ic *instrCtx, i int) (pumpfun.Global, *instrError) {
	var g pumpfun.Global
	if ic.key(i) != pumpfun.GlobalPDA {
		return g, seedsFail(ic, "global", ic.key(i), pumpfun.GlobalPDA)
	}
	a := ic.acc(i)
	if a.Owner != pumpProgramID {
		if len(a.Data) == 0 {
			return g, accountFail(ic, "global", anchorAccountNotInitialized)
		}
		return g, accountFail(ic, "global", anchorAccountOwnedByWrong)
	}
	if len(a.Data) < 8 {
		return g, accountFail(ic, "global", anchorDiscriminatorNotFound)
	}
	if pumpfun.Discriminator(a.Data[:8]) != pumpfun.GlobalDiscriminator {
		return g, accountFail(ic, "global", anchorDiscriminatorMismatch)
	}
	if err := g.Decode(a.Data); err != nil {
		return g, accountFail(ic, "global", anchorAccountDidNotDeser)
	}
	if !g.Initialized {
		return g, programFail(ic, pumpfun.ErrNotInitialized)
	}
	return g, nil
}

// checkTrade validates the accounts of buy and sell and reads the state.
func checkTrade(ic *instrCtx, l tradeLayout) (tradeState, *instrError) {
	var st tradeState
	if ic.n() < l.fixed {
		return st, frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	g, err := loadGlobal(ic, tGlobal)
	if err != nil {
		return st, err
	}
	st.global = g
	if !ic.writable[tFeeRecipient] {
		return st, accountFail(ic, "fee_recipient", anchorConstraintMut)
	}
	mint := ic.key(tMint)
	tokenProg := ic.key(l.tokenProgram)
	if !isTokenProgram(tokenProg) {
		return st, accountFail(ic, "token_program", anchorInvalidProgramID)
	}
	ma := ic.acc(tMint)
	if ma.Owner != tokenProg || !validMintData(tokenProg, ma.Data) || !mintInitialized(ma.Data) {
		if len(ma.Data) == 0 {
			return st, accountFail(ic, "mint", anchorAccountNotInitialized)
		}
		return st, accountFail(ic, "mint", anchorAccountOwnedByWrong)
	}
	st.mintSupply = mintSupply(ma.Data)
	curveKey := findPDA(pumpProgramID, []byte(pumpfun.SeedBondingCurve), mint[:])
	if ic.key(tCurve) != curveKey {
		return st, seedsFail(ic, "bonding_curve", ic.key(tCurve), curveKey)
	}
	if !ic.writable[tCurve] {
		return st, accountFail(ic, "bonding_curve", anchorConstraintMut)
	}
	ca := ic.acc(tCurve)
	if ca.Owner != pumpProgramID {
		if len(ca.Data) == 0 {
			return st, accountFail(ic, "bonding_curve", anchorAccountNotInitialized)
		}
		return st, accountFail(ic, "bonding_curve", anchorAccountOwnedByWrong)
	}
	if len(ca.Data) < 8 || pumpfun.Discriminator(ca.Data[:8]) != pumpfun.BondingCurveDiscriminator {
		return st, accountFail(ic, "bonding_curve", anchorDiscriminatorMismatch)
	}
	if err := st.curve.Decode(ca.Data); err != nil {
		return st, accountFail(ic, "bonding_curve", anchorAccountDidNotDeser)
	}
	curveATA := associatedTokenAddress(curveKey, tokenProg, mint)
	if ic.key(tCurveATA) != curveATA {
		return st, seedsFail(ic, "associated_bonding_curve", ic.key(tCurveATA), curveATA)
	}
	if !ic.writable[tCurveATA] {
		return st, accountFail(ic, "associated_bonding_curve", anchorConstraintMut)
	}
	if !ic.writable[tUserATA] {
		return st, accountFail(ic, "associated_user", anchorConstraintMut)
	}
	ua := ic.acc(tUserATA)
	if ua.Owner != tokenProg {
		if ua.Owner == systemProgramID && len(ua.Data) == 0 {
			return st, accountFail(ic, "associated_user", anchorAccountNotInitialized)
		}
		return st, accountFail(ic, "associated_user", anchorAccountOwnedByWrong)
	}
	if !validTokenAccountData(tokenProg, ua.Data) || tokAccState(ua.Data) == accountStateUninitialized {
		return st, accountFail(ic, "associated_user", anchorAccountNotInitialized)
	}
	if tokAccMint(ua.Data) != mint {
		return st, accountFail(ic, "associated_user", anchorConstraintTokenMint)
	}
	if tokAccOwner(ua.Data) != ic.key(tUser) {
		return st, accountFail(ic, "associated_user", anchorConstraintTokenOwner)
	}
	if !ic.signer[tUser] {
		return st, accountFail(ic, "user", anchorAccountNotSigner)
	}
	if !ic.writable[tUser] {
		return st, accountFail(ic, "user", anchorConstraintMut)
	}
	if ic.key(tSystem) != systemProgramID {
		return st, accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	vault := findPDA(pumpProgramID, []byte(pumpfun.SeedCreatorVault), st.curve.Creator[:])
	if ic.key(l.creatorVault) != vault {
		return st, seedsFail(ic, "creator_vault", ic.key(l.creatorVault), vault)
	}
	if !ic.writable[l.creatorVault] {
		return st, accountFail(ic, "creator_vault", anchorConstraintMut)
	}
	if ic.key(l.eventAuthority) != pumpfun.EventAuthorityPDA {
		return st, seedsFail(ic, "event_authority", ic.key(l.eventAuthority), pumpfun.EventAuthorityPDA)
	}
	if ic.key(l.program) != pumpProgramID {
		return st, accountFail(ic, "program", anchorConstraintAddress)
	}
	if l.gva >= 0 {
		if ic.key(l.gva) != pumpfun.GlobalVolumeAccumulatorPDA {
			return st, seedsFail(ic, "global_volume_accumulator", ic.key(l.gva), pumpfun.GlobalVolumeAccumulatorPDA)
		}
		user := ic.key(tUser)
		uva := findPDA(pumpProgramID, []byte(pumpfun.SeedUserVolumeAccumulator), user[:])
		if ic.key(l.uva) != uva {
			return st, seedsFail(ic, "user_volume_accumulator", ic.key(l.uva), uva)
		}
		if !ic.writable[l.uva] {
			return st, accountFail(ic, "user_volume_accumulator", anchorConstraintMut)
		}
	}
	if ic.key(l.feeConfig) != pumpfun.FeeConfigPDA {
		return st, seedsFail(ic, "fee_config", ic.key(l.feeConfig), pumpfun.FeeConfigPDA)
	}
	fa := ic.acc(l.feeConfig)
	if fa.Owner != pumpfun.FeeProgramID {
		return st, accountFail(ic, "fee_config", anchorAccountOwnedByWrong)
	}
	var fc pumpfun.FeeConfig
	if err := fc.Decode(fa.Data); err != nil {
		return st, accountFail(ic, "fee_config", anchorAccountDidNotDeser)
	}
	st.fees = &fc
	if ic.key(l.feeProgram) != pumpfun.FeeProgramID {
		return st, accountFail(ic, "fee_program", anchorConstraintAddress)
	}
	if st.curve.Complete {
		return st, programFail(ic, pumpfun.ErrBondingCurveComplete)
	}
	if !containsKey(st.global.FeeRecipientCandidates(st.curve.IsMayhemMode), ic.key(tFeeRecipient)) {
		return st, accountFail(ic, "fee_recipient", anchorError{pumpfun.ErrNotAuthorized.Code, pumpfun.ErrNotAuthorized.Name, pumpfun.ErrNotAuthorized.Msg})
	}
	st.rates = pumpfun.ComputeFees(&st.global, st.fees, &st.curve, st.mintSupply)
	return st, nil
}

// checkRemaining validates [bonding_curve_v2, buyback_fee_recipient] at
// position i and returns the buyback recipient's position.
func checkRemaining(ic *instrCtx, st *tradeState, i int) (int, *instrError) {
	mint := ic.key(tMint)
	v2 := findPDA(pumpProgramID, []byte(pumpfun.SeedBondingCurveV2), mint[:])
	if ic.n() <= i || ic.key(i) != v2 {
		return 0, programFail(ic, pumpfun.ErrInvalidBondingCurveV2)
	}
	if ic.n() <= i+1 {
		return 0, programFail(ic, pumpfun.ErrBuybackFeeRecipientMissing)
	}
	if !containsKey(st.global.BuybackFeeRecipientCandidates(), ic.key(i+1)) {
		return 0, programFail(ic, pumpfun.ErrBuybackFeeRecipientNotAuthorized)
	}
	if !ic.writable[i+1] {
		return 0, accountFail(ic, "buyback_fee_recipient", anchorConstraintMut)
	}
	return i + 1, nil
}

// systemTransfer moves lamports from a signer through the System program.
func systemTransfer(ic *instrCtx, from, to int, lamports uint64) *instrError {
	if lamports == 0 {
		return nil
	}
	return ic.invoke(systemProgramID, []cpiAccount{{from, true, true}, {to, false, true}}, sysIx(2, u64le(lamports)))
}

// tokenTransferChecked moves tokens through the token program at tokIdx.
func tokenTransferChecked(ic *instrCtx, tokIdx, src, mint, dst, auth int, amount uint64, signer ...sol.PublicKey) *instrError {
	data := append([]byte{12}, u64le(amount)...)
	data = append(data, pumpfun.TokenDecimals)
	return ic.invoke(ic.key(tokIdx), []cpiAccount{{src, false, true}, {mint, false, false}, {dst, false, true}, {auth, len(signer) > 0 || ic.signer[auth], false}}, data, signer...)
}

// emitEvent logs the event and emits it through Anchor's self-invocation.
func emitEvent(ic *instrCtx, eventAuthority int, ev []byte) *instrError {
	ic.tx.log("Program data: %s", base64.StdEncoding.EncodeToString(ev))
	data := append(append(make([]byte, 0, 8+len(ev)), pumpfun.EventCPITag[:]...), ev...)
	return ic.invoke(pumpProgramID, []cpiAccount{{eventAuthority, true, false}}, data, pumpfun.EventAuthorityPDA)
}

// creatorVaultTopUp returns the lamports the user adds so the creator vault
// ends rent exempt after receiving fee.
func creatorVaultTopUp(vault *Account, fee uint64) uint64 {
	need := MinimumBalanceForRentExemption(0)
	if fee == 0 || vault.Lamports+fee >= need {
		return 0
	}
	return need - vault.Lamports - fee
}

// pumpBuy runs buy or buy_exact_sol_in (exactIn). A buy past what is left
// on the curve fails NotEnoughTokensToBuy unless partialFill, as the
// program does since partial_fill was added: with it, the buy takes what
// is left and pays for that alone.
func pumpBuy(ic *instrCtx, ixName string, amount, maxCost, minTokens uint64, track, exactIn, partialFill bool) *instrError {
	if err := ic.consume(pumpCUTrade); err != nil {
		return err
	}
	st, err := checkTrade(ic, buyLayout)
	if err != nil {
		return err
	}
	buyback, err := checkRemaining(ic, &st, pumpfun.BuyFixedAccounts)
	if err != nil {
		return err
	}
	var q pumpfun.BuyQuote
	var qerr error
	if exactIn {
		q, qerr = st.curve.QuoteBuyExactSolIn(st.rates, amount)
	} else {
		q, qerr = st.curve.QuoteBuy(st.rates, amount)
	}
	if qerr != nil {
		return programFailErr(ic, qerr)
	}
	if q.Capped && !partialFill {
		return programFail(ic, pumpfun.ErrNotEnoughTokensToBuy)
	}
	if exactIn {
		if q.TokensOut < minTokens {
			return programFail(ic, pumpfun.ErrBuySlippageBelowMinTokensOut)
		}
	} else if q.Total > maxCost {
		return programFail(ic, pumpfun.ErrTooMuchSolRequired)
	}
	l := buyLayout
	user := ic.key(tUser)

	// The user's volume accumulator is created on first use, paid by the user.
	uva := ic.acc(l.uva)
	var acc pumpfun.UserVolumeAccumulator
	if uva.Owner == systemProgramID && len(uva.Data) == 0 {
		size := uint64(pumpfun.UserVolumeAccumulatorSize)
		rent := MinimumBalanceForRentExemption(int(size))
		if uva.Lamports >= rent {
			rent = 0
		} else {
			rent -= uva.Lamports
		}
		if uva.Lamports > 0 {
			if err := systemTransfer(ic, tUser, l.uva, rent); err != nil {
				return err
			}
			if err := ic.invoke(systemProgramID, []cpiAccount{{l.uva, true, true}}, sysIx(8, u64le(size)), ic.key(l.uva)); err != nil {
				return err
			}
			if err := ic.invoke(systemProgramID, []cpiAccount{{l.uva, true, true}}, sysIx(1, pumpProgramID[:]), ic.key(l.uva)); err != nil {
				return err
			}
		} else {
			data := append(u64le(rent), u64le(size)...)
			data = append(data, pumpProgramID[:]...)
			if err := ic.invoke(systemProgramID, []cpiAccount{{tUser, true, true}, {l.uva, true, true}}, sysIx(0, data), ic.key(l.uva)); err != nil {
				return err
			}
		}
		acc.User = user
	} else if uva.Owner == pumpProgramID {
		if err := acc.Decode(uva.Data); err != nil {
			return accountFail(ic, "user_volume_accumulator", anchorAccountDidNotDeser)
		}
	} else {
		return accountFail(ic, "user_volume_accumulator", anchorAccountOwnedByWrong)
	}
	if track {
		acc.CurrentSolVolume += q.SolCost
	}
	acc.LastUpdateTimestamp = ic.tx.unixTime
	if err := ic.canWriteData(l.uva); err != nil {
		return err
	}
	copy(ic.acc(l.uva).Data, acc.Encode())

	// Tokens leave the curve's account, signed for by the curve.
	if err := tokenTransferChecked(ic, l.tokenProgram, tCurveATA, tMint, tUserATA, tCurve, q.TokensOut, ic.key(tCurve)); err != nil {
		return err
	}
	buybackFee, protocolFee := pumpfun.BuybackSplit(q.ProtocolFee, st.global.BuybackBasisPoints)
	if err := systemTransfer(ic, tUser, tCurve, q.SolCost); err != nil {
		return err
	}
	if err := systemTransfer(ic, tUser, tFeeRecipient, protocolFee); err != nil {
		return err
	}
	if err := systemTransfer(ic, tUser, buyback, buybackFee); err != nil {
		return err
	}
	topUp := creatorVaultTopUp(ic.acc(l.creatorVault), q.CreatorFee)
	if err := systemTransfer(ic, tUser, l.creatorVault, q.CreatorFee+topUp); err != nil {
		return err
	}

	st.curve.ApplyBuy(q)
	if err := ic.canWriteData(tCurve); err != nil {
		return err
	}
	writeCurve(ic.acc(tCurve), &st.curve)
	if st.curve.Complete {
		ic.tx.completed = append(ic.tx.completed, ic.key(tMint))
	}
	return emitTrade(ic, l.eventAuthority, &st, ixName, true, q.SolCost, q.TokensOut, q.ProtocolFee, q.CreatorFee, buybackFee, track, &acc)
}

func pumpSell(ic *instrCtx, a pumpfun.SellArgs) *instrError {
	if err := ic.consume(pumpCUTrade); err != nil {
		return err
	}
	l := sellLayout
	st, err := checkTrade(ic, l)
	if err != nil {
		return err
	}
	next := pumpfun.SellFixedAccounts
	uvaIdx := -1
	if st.curve.IsCashbackCoin {
		if ic.n() <= next {
			return programFail(ic, pumpfun.ErrMissingCashbackAccounts)
		}
		user := ic.key(tUser)
		want := findPDA(pumpProgramID, []byte(pumpfun.SeedUserVolumeAccumulator), user[:])
		if ic.key(next) != want || ic.acc(next).Owner != pumpProgramID || !ic.writable[next] {
			return programFail(ic, pumpfun.ErrInvalidCashbackAccumulator)
		}
		uvaIdx = next
		next++
	}
	buyback, err := checkRemaining(ic, &st, next)
	if err != nil {
		return err
	}
	q, qerr := st.curve.QuoteSell(st.rates, a.Amount)
	if qerr != nil {
		return programFailErr(ic, qerr)
	}
	if q.Net < a.MinSolOutput {
		return programFail(ic, pumpfun.ErrTooLittleSolReceived)
	}
	if err := tokenTransferChecked(ic, l.tokenProgram, tUserATA, tMint, tCurveATA, tUser, a.Amount); err != nil {
		return err
	}
	buybackFee, protocolFee := pumpfun.BuybackSplit(q.ProtocolFee, st.global.BuybackBasisPoints)
	// The curve owns its lamports and pays out directly.
	if err := ic.move(tCurve, tUser, q.Net); err != nil {
		return err
	}
	if err := ic.move(tCurve, tFeeRecipient, protocolFee); err != nil {
		return err
	}
	if err := ic.move(tCurve, buyback, buybackFee); err != nil {
		return err
	}
	creatorDest := l.creatorVault
	if uvaIdx >= 0 {
		creatorDest = uvaIdx
	}
	if err := ic.move(tCurve, creatorDest, q.CreatorFee); err != nil {
		return err
	}
	if creatorDest == l.creatorVault {
		// The seller tops the vault up to rent exemption on its first fee.
		vault := ic.acc(l.creatorVault)
		need := MinimumBalanceForRentExemption(0)
		if q.CreatorFee > 0 && vault.Lamports < need {
			if err := systemTransfer(ic, tUser, l.creatorVault, need-vault.Lamports); err != nil {
				return err
			}
		}
	}
	st.curve.ApplySell(q)
	if err := ic.canWriteData(tCurve); err != nil {
		return err
	}
	writeCurve(ic.acc(tCurve), &st.curve)
	return emitTrade(ic, l.eventAuthority, &st, "sell", false, q.SolOut, a.Amount, q.ProtocolFee, q.CreatorFee, buybackFee, false, nil)
}

// writeCurve stores the curve, keeping the account's length.
func writeCurve(a *Account, c *pumpfun.BondingCurve) {
	enc := c.Encode()
	if len(a.Data) < len(enc) {
		// Older, shorter curves keep their length: only the fields that fit.
		copy(a.Data, enc[:len(a.Data)])
		return
	}
	copy(a.Data, enc)
}

func emitTrade(ic *instrCtx, eventAuthority int, st *tradeState, ixName string, isBuy bool, sol, tokens, protocolFee, creatorFee, buybackFee uint64, track bool, acc *pumpfun.UserVolumeAccumulator) *instrError {
	ev := pumpfun.TradeEvent{
		Mint: ic.key(tMint), SolAmount: sol, TokenAmount: tokens, IsBuy: isBuy, User: ic.key(tUser),
		Timestamp:          ic.tx.unixTime,
		VirtualSolReserves: st.curve.VirtualQuoteReserves, VirtualTokenReserves: st.curve.VirtualTokenReserves,
		RealSolReserves: st.curve.RealQuoteReserves, RealTokenReserves: st.curve.RealTokenReserves,
		FeeRecipient: ic.key(tFeeRecipient), FeeBasisPoints: st.rates.ProtocolFeeBps, Fee: protocolFee,
		Creator: st.curve.Creator, CreatorFeeBasisPoints: st.rates.CreatorFeeBps, CreatorFee: creatorFee,
		TrackVolume: track, IxName: ixName, MayhemMode: st.curve.IsMayhemMode,
		BuybackFeeBasisPoints: st.global.BuybackBasisPoints, BuybackFee: buybackFee,
		QuoteMint: st.curve.QuoteMint, QuoteAmount: sol,
		VirtualQuoteReserves: st.curve.VirtualQuoteReserves, RealQuoteReserves: st.curve.RealQuoteReserves,
	}
	if acc != nil {
		ev.TotalUnclaimedTokens = acc.TotalUnclaimedTokens
		ev.TotalClaimedTokens = acc.TotalClaimedTokens
		ev.CurrentSolVolume = acc.CurrentSolVolume
		ev.LastUpdateTimestamp = acc.LastUpdateTimestamp
	}
	if err := emitEvent(ic, eventAuthority, ev.Encode()); err != nil {
		return err
	}
	if isBuy && st.curve.Complete {
		done := pumpfun.CompleteEvent{User: ic.key(tUser), Mint: ic.key(tMint), BondingCurve: ic.key(tCurve), Timestamp: ic.tx.unixTime, QuoteMint: st.curve.QuoteMint}
		return emitEvent(ic, eventAuthority, done.Encode())
	}
	return nil
}
