package solana

import (
	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Positions of the create_v2 accounts.
const (
	cMint          = 0
	cMintAuthority = 1
	cCurve         = 2
	cCurveATA      = 3
	cGlobal        = 4
	cUser          = 5
	cSystem        = 6
	cTokenProgram  = 7
	cATAProgram    = 8
	cMayhemProgram = 9
	cGlobalParams  = 10
	cSolVault      = 11
	cMayhemState   = 12
	cEventAuth     = 14
	cProgram       = 15
)

// pumpCreate runs create_v2: a Token-2022 mint with its metadata in the
// mint, the curve, the curve's token account holding the whole supply, and
// the mint authority revoked. The deprecated create (SPL Token mint with
// Metaplex metadata) needs the Metaplex program, which this chain does not
// run, so it fails the way a missing program does.
func pumpCreate(ic *instrCtx, a pumpfun.CreateV2Args, v2 bool) *instrError {
	if err := ic.consume(pumpCUCreate); err != nil {
		return err
	}
	if !v2 {
		ic.log("Error: create needs the Metaplex program, which the local chain does not run; use create_v2")
		return errUnsupportedProgramID
	}
	if ic.n() < pumpfun.CreateV2FixedAccounts {
		return frameworkFail(ic, anchorAccountNotEnoughKeys)
	}
	mint := ic.key(cMint)
	if !ic.signer[cMint] {
		return accountFail(ic, "mint", anchorAccountNotSigner)
	}
	if !ic.writable[cMint] {
		return accountFail(ic, "mint", anchorConstraintMut)
	}
	if ic.key(cMintAuthority) != pumpfun.MintAuthorityPDA {
		return seedsFail(ic, "mint_authority", ic.key(cMintAuthority), pumpfun.MintAuthorityPDA)
	}
	curveKey := findPDA(pumpProgramID, []byte(pumpfun.SeedBondingCurve), mint[:])
	if ic.key(cCurve) != curveKey {
		return seedsFail(ic, "bonding_curve", ic.key(cCurve), curveKey)
	}
	if !ic.writable[cCurve] {
		return accountFail(ic, "bonding_curve", anchorConstraintMut)
	}
	if ic.key(cTokenProgram) != token2022ProgramID {
		return accountFail(ic, "token_program", anchorConstraintAddress)
	}
	curveATA := associatedTokenAddress(curveKey, token2022ProgramID, mint)
	if ic.key(cCurveATA) != curveATA {
		return seedsFail(ic, "associated_bonding_curve", ic.key(cCurveATA), curveATA)
	}
	if !ic.writable[cCurveATA] {
		return accountFail(ic, "associated_bonding_curve", anchorConstraintMut)
	}
	g, err := loadGlobal(ic, cGlobal)
	if err != nil {
		return err
	}
	if !ic.signer[cUser] {
		return accountFail(ic, "user", anchorAccountNotSigner)
	}
	if !ic.writable[cUser] {
		return accountFail(ic, "user", anchorConstraintMut)
	}
	if ic.key(cSystem) != systemProgramID {
		return accountFail(ic, "system_program", anchorInvalidProgramID)
	}
	if ic.key(cATAProgram) != ataProgramID {
		return accountFail(ic, "associated_token_program", anchorInvalidProgramID)
	}
	if ic.key(cMayhemProgram) != pumpfun.MayhemProgramID {
		return accountFail(ic, "mayhem_program_id", anchorConstraintAddress)
	}
	if ic.key(cGlobalParams) != pumpfun.MayhemGlobalParamsPDA {
		return seedsFail(ic, "global_params", ic.key(cGlobalParams), pumpfun.MayhemGlobalParamsPDA)
	}
	if ic.key(cSolVault) != pumpfun.MayhemSolVaultPDA {
		return seedsFail(ic, "sol_vault", ic.key(cSolVault), pumpfun.MayhemSolVaultPDA)
	}
	state := findPDA(pumpfun.MayhemProgramID, []byte(pumpfun.SeedMayhemState), mint[:])
	if ic.key(cMayhemState) != state {
		return seedsFail(ic, "mayhem_state", ic.key(cMayhemState), state)
	}
	if ic.key(cEventAuth) != pumpfun.EventAuthorityPDA {
		return seedsFail(ic, "event_authority", ic.key(cEventAuth), pumpfun.EventAuthorityPDA)
	}
	if ic.key(cProgram) != pumpProgramID {
		return accountFail(ic, "program", anchorConstraintAddress)
	}
	if ic.n() > pumpfun.CreateV2FixedAccounts {
		// A non-SOL quote mint: the local chain only lists SOL-quoted coins.
		return programFail(ic, pumpfun.ErrUnsupportedQuoteMint)
	}
	switch {
	case !g.CreateV2Enabled:
		return programFail(ic, pumpfun.ErrCreateV2Disabled)
	case len(a.Name) > pumpMaxName:
		return programFail(ic, pumpfun.ErrNameTooLong)
	case len(a.Symbol) > pumpMaxSymbol:
		return programFail(ic, pumpfun.ErrSymbolTooLong)
	case len(a.URI) > pumpMaxURI:
		return programFail(ic, pumpfun.ErrUriTooLong)
	case a.Creator.IsZero():
		return programFail(ic, pumpfun.ErrCreatorShouldNotBeZero)
	case a.IsCashbackEnabled:
		return programFail(ic, pumpfun.ErrCashbackDeprecated)
	case a.IsMayhemMode && !g.MayhemModeEnabled:
		return programFail(ic, pumpfun.ErrMayhemModeDisabled)
	case a.IsMayhemMode:
		// Mayhem mode would call into the mayhem program, which this chain
		// does not run; genesis keeps it disabled.
		return programFail(ic, pumpfun.ErrCpitializeMayhemFailed)
	case a.IsHolderReward && !g.IsHolderRewardEnabled:
		return programFail(ic, pumpfun.ErrHolderRewardDisabled)
	}
	creator := a.Creator
	if a.IsHolderReward {
		creator = findPDA(pumpProgramID, []byte(pumpfun.SeedHolderRewards), mint[:])
	}
	mintAuth := pumpfun.MintAuthorityPDA

	// The mint: room for the metadata pointer now, lamports for the metadata
	// Token-2022 appends when it is initialized.
	metaLen := 4 + 64 + 4 + len(a.Name) + 4 + len(a.Symbol) + 4 + len(a.URI) + 4
	space := uint64(token2022MintWithPointerLen)
	lamports := MinimumBalanceForRentExemption(token2022MintWithPointerLen + metaLen)
	create := append(u64le(lamports), u64le(space)...)
	create = append(create, token2022ProgramID[:]...)
	if err := ic.invoke(systemProgramID, []cpiAccount{{cUser, true, true}, {cMint, true, true}}, sysIx(0, create)); err != nil {
		return err
	}
	pointer := append([]byte{39, 0}, mintAuth[:]...)
	pointer = append(pointer, mint[:]...)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cMint, false, true}}, pointer); err != nil {
		return err
	}
	initMint := append([]byte{20, pumpfun.TokenDecimals}, mintAuth[:]...)
	initMint = append(initMint, 0)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cMint, false, true}}, initMint); err != nil {
		return err
	}
	meta := append([]byte(nil), tokenMetadataInitDisc[:]...)
	meta = appendBorshString(meta, a.Name)
	meta = appendBorshString(meta, a.Symbol)
	meta = appendBorshString(meta, a.URI)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cMint, false, true}, {cMintAuthority, false, false}, {cMint, false, false}, {cMintAuthority, true, false}}, meta, mintAuth); err != nil {
		return err
	}

	// The curve.
	curve := pumpfun.NewBondingCurve(&g, creator, false)
	curve.IsHolderReward = a.IsHolderReward
	enc := curve.Encode()
	create = append(u64le(MinimumBalanceForRentExemption(len(enc))), u64le(uint64(len(enc)))...)
	create = append(create, pumpProgramID[:]...)
	if err := ic.invoke(systemProgramID, []cpiAccount{{cUser, true, true}, {cCurve, true, true}}, sysIx(0, create), curveKey); err != nil {
		return err
	}
	if err := ic.canWriteData(cCurve); err != nil {
		return err
	}
	copy(ic.acc(cCurve).Data, enc)

	// The curve's token account receives the whole supply; then nobody can
	// mint again.
	if err := ic.invoke(ataProgramID, []cpiAccount{{cUser, true, true}, {cCurveATA, false, true}, {cCurve, false, false}, {cMint, false, false}, {cSystem, false, false}, {cTokenProgram, false, false}}, []byte{0}); err != nil {
		return err
	}
	mintTo := append([]byte{7}, u64le(g.TokenTotalSupply)...)
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cMint, false, true}, {cCurveATA, false, true}, {cMintAuthority, true, false}}, mintTo, mintAuth); err != nil {
		return err
	}
	if err := ic.invoke(token2022ProgramID, []cpiAccount{{cMint, false, true}, {cMintAuthority, true, false}}, []byte{6, 0, 0}, mintAuth); err != nil {
		return err
	}
	ev := pumpfun.CreateEvent{
		Name: a.Name, Symbol: a.Symbol, URI: a.URI, Mint: mint, BondingCurve: curveKey, User: ic.key(cUser),
		Creator: creator, Timestamp: ic.tx.unixTime,
		VirtualTokenReserves: curve.VirtualTokenReserves, VirtualSolReserves: curve.VirtualQuoteReserves,
		RealTokenReserves: curve.RealTokenReserves, TokenTotalSupply: curve.TokenTotalSupply,
		TokenProgram: token2022ProgramID, VirtualQuoteReserves: curve.VirtualQuoteReserves,
		IsHolderReward: a.IsHolderReward,
	}
	return emitEvent(ic, cEventAuth, ev.Encode())
}

// Genesis values of the pump.fun Global account: the figures the program is
// commonly seen with on mainnet.
const (
	genesisVirtualTokenReserves uint64 = 1_073_000_000_000_000
	genesisVirtualSolReserves   uint64 = 30_000_000_000
	genesisRealTokenReserves    uint64 = 793_100_000_000_000
	genesisTokenTotalSupply     uint64 = 1_000_000_000_000_000
	genesisProtocolFeeBps       uint64 = 95
	genesisCreatorFeeBps        uint64 = 30
	genesisBuybackBps           uint64 = 5_000
	genesisPoolMigrationFee     uint64 = 15_000_001
)

// GenesisFeeTiers are the fee tiers of the FeeConfig the chain seeds:
// market-cap thresholds in lamports with their rates. A new curve starts
// near 28 SOL of market cap and completes near 410 SOL.
var GenesisFeeTiers = []pumpfun.FeeTier{
	{MarketCapLamportsThreshold: pumpfun.U128(0), Fees: pumpfun.Fees{LPFeeBps: 0, ProtocolFeeBps: 95, CreatorFeeBps: 30}},
	{MarketCapLamportsThreshold: pumpfun.U128(150_000_000_000), Fees: pumpfun.Fees{LPFeeBps: 0, ProtocolFeeBps: 93, CreatorFeeBps: 30}},
	{MarketCapLamportsThreshold: pumpfun.U128(300_000_000_000), Fees: pumpfun.Fees{LPFeeBps: 0, ProtocolFeeBps: 90, CreatorFeeBps: 25}},
}

// pumpGenesis seeds Global, FeeConfig, the volume accumulator, the event
// authority and rent-exempt fee and buyback recipients.
func (c *Chain) pumpGenesis() {
	g := pumpfun.Global{
		Initialized:                 true,
		Authority:                   c.deriveKey("pump/authority").PublicKey(),
		FeeRecipient:                pumpfun.StaticFeeRecipients[0],
		InitialVirtualTokenReserves: genesisVirtualTokenReserves,
		InitialVirtualSolReserves:   genesisVirtualSolReserves,
		InitialRealTokenReserves:    genesisRealTokenReserves,
		TokenTotalSupply:            genesisTokenTotalSupply,
		FeeBasisPoints:              genesisProtocolFeeBps,
		WithdrawAuthority:           c.deriveKey("pump/withdraw").PublicKey(),
		EnableMigrate:               true,
		PoolMigrationFee:            genesisPoolMigrationFee,
		CreatorFeeBasisPoints:       genesisCreatorFeeBps,
		SetCreatorAuthority:         c.deriveKey("pump/set-creator").PublicKey(),
		AdminSetCreatorAuthority:    c.deriveKey("pump/admin-set-creator").PublicKey(),
		CreateV2Enabled:             true,
		ReservedFeeRecipient:        c.deriveKey("pump/reserved/0").PublicKey(),
		BuybackBasisPoints:          genesisBuybackBps,
		InitialVirtualQuoteReserves: genesisVirtualSolReserves,
		HolderRewardClaimAuthority:  c.deriveKey("pump/holder-reward").PublicKey(),
	}
	copy(g.FeeRecipients[:], pumpfun.StaticFeeRecipients[1:])
	for i := range g.ReservedFeeRecipients {
		g.ReservedFeeRecipients[i] = c.deriveKey("pump/reserved/" + string(rune('1'+i))).PublicKey()
	}
	copy(g.BuybackFeeRecipients[:], pumpfun.StaticBuybackFeeRecipients)
	c.putProgramAccount(pumpfun.GlobalPDA, pumpProgramID, g.Encode())

	_, bump := pdas.find(pumpfun.FeeProgramID, []byte(pumpfun.SeedFeeConfig), pumpProgramID[:])
	fc := pumpfun.FeeConfig{
		Bump:     bump,
		Admin:    c.deriveKey("pump/fee-admin").PublicKey(),
		FlatFees: pumpfun.Fees{ProtocolFeeBps: genesisProtocolFeeBps, CreatorFeeBps: genesisCreatorFeeBps},
		FeeTiers: GenesisFeeTiers,
	}
	c.putProgramAccount(pumpfun.FeeConfigPDA, pumpfun.FeeProgramID, fc.Encode())

	gva := pumpfun.GlobalVolumeAccumulator{SecondsInADay: 86_400}
	c.putProgramAccount(pumpfun.GlobalVolumeAccumulatorPDA, pumpProgramID, gva.Encode())

	funded := append([]sol.PublicKey{pumpfun.EventAuthorityPDA}, g.FeeRecipientCandidates(false)...)
	funded = append(funded, g.FeeRecipientCandidates(true)...)
	funded = append(funded, g.BuybackFeeRecipientCandidates()...)
	for _, k := range funded {
		c.accounts[k] = &Account{Lamports: MinimumBalanceForRentExemption(0), Owner: systemProgramID}
	}
}

func (c *Chain) putProgramAccount(k, owner sol.PublicKey, data []byte) {
	c.accounts[k] = &Account{Lamports: MinimumBalanceForRentExemption(len(data)), Owner: owner, Data: data}
}
