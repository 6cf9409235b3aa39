package solana

import (
	"encoding/binary"
	"fmt"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

// LaunchCoin is a coin created on the chain's LaunchLab (letsbonk) or DBC
// (bags) program: its mint and the pool it trades on.
type LaunchCoin struct {
	Mint      sol.PublicKey
	Pool      sol.PublicKey
	Signature sol.Signature
}

// CreateLetsBonkCoin launches a coin on letsbonk's LaunchLab curve with
// initialize_v2, signed by creator (who pays, and must hold SOL) and the new
// mint, and returns the mint and its pool.
func (c *Chain) CreateLetsBonkCoin(creator sol.PrivateKey, name, symbol string) (LaunchCoin, error) {
	return c.CreateLetsBonkCoinIn(creator, creator.PublicKey(), nativeMintID, name, symbol)
}

// CreateLetsBonkCoinIn is CreateLetsBonkCoin paid by payer for creator on
// the curve quoted in quote: WSOL, or USD1 with the chain's local USD1
// curve.
func (c *Chain) CreateLetsBonkCoinIn(payer sol.PrivateKey, creator, quote sol.PublicKey, name, symbol string) (LaunchCoin, error) {
	curve := launchlab.LetsBonkCurve()
	if quote != nativeMintID {
		curve.TotalQuoteFundRaising = LocalLLStableQuoteFundRaising
	}
	mint, sig, err := c.createCoin(payer, func(mint sol.PublicKey) sol.Instruction {
		p := launchlab.NewLetsBonkLaunch(creator, mint)
		p.Payer, p.QuoteMint, p.GlobalConfig = payer.PublicKey(), quote, launchlab.GlobalConfigPDA(quote, launchlab.CurveConstant, 0)
		accts := launchlab.NewInitializeV2Accounts(p)
		return launchlab.InitializeV2Instruction(&accts, launchlab.InitializeV2Args{
			Mint:  launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: name, Symbol: symbol},
			Curve: curve,
		})
	})
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: launchlab.PoolPDA(mint, quote), Signature: sig}, nil
}

// CreateLetsBonkCoinWithTransferFee writes into the ledger, without a
// transaction, a coin on letsbonk's SOL curve whose mint is a Token-2022
// mint with the transfer fee cfg, created by creator: what Raydium's
// initialize_with_token_2022 leaves (the mint's authority revoked, the
// whole supply in the base vault, a curve that migrates to CPMM), which
// this chain does not run. The mint carries no metadata.
func (c *Chain) CreateLetsBonkCoinWithTransferFee(creator sol.PublicKey, cfg token2022.TransferFeeConfig) (LaunchCoin, error) {
	k, err := sol.NewRandomPrivateKey()
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin with a transfer fee: %w", err)
	}
	mint := k.PublicKey()
	c.mu.Lock()
	defer c.mu.Unlock()
	var g launchlab.GlobalConfig
	if ga := c.accounts[launchlab.SOLConstantGlobalConfig]; ga == nil || g.Decode(ga.Data) != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin with a transfer fee: LaunchLab global config: %w", ErrNotFound)
	}
	curve := launchlab.LetsBonkCurve()
	state, err := launchlab.NewPool(launchlab.LetsBonkDecimals, 9, curve, launchlab.VestingParams{}, 0, g.MigrateFee)
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin with a transfer fee: %w", err)
	}
	pool := launchlab.PoolPDA(mint, nativeMintID)
	state.AuthBump = launchlab.AuthBump
	state.GlobalConfig, state.PlatformConfig = launchlab.SOLConstantGlobalConfig, launchlab.LetsBonkPlatformConfig
	state.BaseMint, state.QuoteMint, state.Creator = mint, nativeMintID, creator
	state.BaseVault, state.QuoteVault = launchlab.PoolVaultPDA(pool, mint), launchlab.PoolVaultPDA(pool, nativeMintID)
	state.TokenProgramFlag = 1

	md := make([]byte, accountTypeOffset+1)
	setMintSupply(md, curve.Supply)
	md[44] = launchlab.LetsBonkDecimals
	md[45] = 1
	md[accountTypeOffset] = accountTypeMint
	md = binary.LittleEndian.AppendUint16(md, extTransferFeeConfig)
	md = binary.LittleEndian.AppendUint16(md, token2022.TransferFeeConfigSize)
	md = append(md, cfg.Encode()...)
	c.accounts[mint] = &Account{Lamports: MinimumBalanceForRentExemption(len(md)), Owner: token2022ProgramID, Data: md}

	// The vault is the program's own account, not an associated one: no
	// ImmutableOwner, the TransferFeeAmount every account of the mint has.
	vd := make([]byte, accountTypeOffset+1)
	copy(vd[0:32], mint[:])
	copy(vd[32:64], launchlab.AuthPDA[:])
	setTokAccAmount(vd, curve.Supply)
	vd[108] = accountStateInitialized
	vd[accountTypeOffset] = accountTypeToken
	vd = withTransferFeeAmount(vd)
	c.accounts[state.BaseVault] = &Account{Lamports: MinimumBalanceForRentExemption(len(vd)), Owner: token2022ProgramID, Data: vd}
	c.accounts[state.QuoteVault] = newTokenAccount(tokenProgramID, nativeMintID, launchlab.AuthPDA, 0)
	c.putProgramAccount(pool, launchLabProgramID, state.Encode())
	c.changes++
	return LaunchCoin{Mint: mint, Pool: pool}, nil
}

// CreateBagsCoin launches a coin on the local bags DBC config with
// initialize_virtual_pool_with_spl_token, signed by creator (who pays) and
// the new mint, and returns the mint and its virtual pool.
func (c *Chain) CreateBagsCoin(creator sol.PrivateKey, name, symbol string) (LaunchCoin, error) {
	return c.CreateDBCCoin(creator, dbc.LocalBagsPoolConfig, name, symbol)
}

// CreateDBCCoin is CreateBagsCoin under config, one of the chain's DBC
// configs (dbc.LocalBagsPoolConfig, LocalUSDCDBCConfig).
func (c *Chain) CreateDBCCoin(creator sol.PrivateKey, config sol.PublicKey, name, symbol string) (LaunchCoin, error) {
	quote := dbc.WrappedSOLMint
	if config == LocalUSDCDBCConfig {
		quote = USDCMint
	}
	mint, sig, err := c.createCoin(creator, func(mint sol.PublicKey) sol.Instruction {
		accts := dbc.NewInitializeAccounts(config, quote, mint, creator.PublicKey())
		return dbc.InitializeVirtualPoolWithSPLTokenInstruction(&accts, dbc.InitializePoolParameters{Name: name, Symbol: symbol})
	})
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create DBC coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: dbc.PoolPDA(config, mint, quote), Signature: sig}, nil
}

// createCoin lands the create instruction build makes for a fresh mint,
// paid by payer and signed by it and the mint, and returns the mint.
func (c *Chain) createCoin(payer sol.PrivateKey, build func(mint sol.PublicKey) sol.Instruction) (sol.PublicKey, sol.Signature, error) {
	mintKey, err := sol.NewRandomPrivateKey()
	if err != nil {
		return sol.PublicKey{}, sol.Signature{}, fmt.Errorf("mint key: %w", err)
	}
	mint := mintKey.PublicKey()
	bh, _ := c.LatestBlockhash()
	tx, err := sol.NewTransaction([]sol.Instruction{build(mint)}, bh, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		return mint, sol.Signature{}, fmt.Errorf("build: %w", err)
	}
	if _, err := tx.Sign(c.signerFor(payer, mintKey)); err != nil {
		return mint, sol.Signature{}, fmt.Errorf("sign: %w", err)
	}
	sig, err := c.SendTransaction(tx)
	return mint, sig, err
}

// rpcDevnetCreateLaunchCoin launches a coin on the local LaunchLab
// (letsbonk) or DBC program, paid by the faucet: {venue: "launchlab" or
// "dbc", creator (LaunchLab only; the faucet creates DBC pools), name,
// symbol, quoteMint (empty: SOL; USD1 on LaunchLab, USDC on DBC)}.
func rpcDevnetCreateLaunchCoin(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Venue     string `json:"venue"`
		Creator   string `json:"creator"`
		Name      string `json:"name"`
		Symbol    string `json:"symbol"`
		QuoteMint string `json:"quoteMint"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	quote := nativeMintID
	if req.QuoteMint != "" {
		var rerr *rpcError
		if quote, rerr = parseKeyParam("quoteMint", req.QuoteMint); rerr != nil {
			return nil, rerr
		}
	}
	var coin LaunchCoin
	var err error
	switch {
	case req.Venue == VenueLaunchLab && (quote == nativeMintID || quote == USD1Mint):
		creator := c.faucet.PublicKey()
		if req.Creator != "" {
			var rerr *rpcError
			if creator, rerr = parseKeyParam("creator", req.Creator); rerr != nil {
				return nil, rerr
			}
		}
		coin, err = c.CreateLetsBonkCoinIn(c.faucet, creator, quote, req.Name, req.Symbol)
	case req.Venue == VenueDBC && quote == nativeMintID:
		coin, err = c.CreateBagsCoin(c.faucet, req.Name, req.Symbol)
	case req.Venue == VenueDBC && quote == USDCMint:
		coin, err = c.CreateDBCCoin(c.faucet, LocalUSDCDBCConfig, req.Name, req.Symbol)
	default:
		return nil, &rpcError{Code: rpcInvalidParams, Message: fmt.Sprintf("no local %q curve is quoted in %s: launchlab takes SOL or USD1, dbc SOL or USDC", req.Venue, quote)}
	}
	if err != nil {
		return nil, &rpcError{Code: rpcInternal, Message: err.Error()}
	}
	return map[string]string{"mint": coin.Mint.String(), "pool": coin.Pool.String(), "signature": coin.Signature.String()}, nil
}

// LaunchLabState reads the LaunchLab pool at addr and the rates its trades
// pay (its global and platform configs'), as a client quoting it does.
func (c *Chain) LaunchLabState(addr sol.PublicKey) (launchlab.PoolState, launchlab.Rates, error) {
	acc, ok := c.GetAccount(addr)
	if !ok {
		return launchlab.PoolState{}, launchlab.Rates{}, fmt.Errorf("launchlab pool %s: missing", addr)
	}
	p, err := launchlab.DecodePool(acc.Data)
	if err != nil {
		return launchlab.PoolState{}, launchlab.Rates{}, fmt.Errorf("launchlab pool %s: %w", addr, err)
	}
	g, _ := c.GetAccount(p.GlobalConfig)
	pc, _ := c.GetAccount(p.PlatformConfig)
	gc, err := launchlab.DecodeGlobalConfig(g.Data)
	if err != nil {
		return launchlab.PoolState{}, launchlab.Rates{}, fmt.Errorf("launchlab global config %s: %w", p.GlobalConfig, err)
	}
	pl, err := launchlab.DecodePlatformConfig(pc.Data)
	if err != nil {
		return launchlab.PoolState{}, launchlab.Rates{}, fmt.Errorf("launchlab platform config %s: %w", p.PlatformConfig, err)
	}
	return p, launchlab.RatesOf(&gc, &pl, 0), nil
}
