package solana

import (
	"fmt"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
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
	mintKey, err := sol.NewRandomPrivateKey()
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin: %w", err)
	}
	mint := mintKey.PublicKey()
	accts := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(creator.PublicKey(), mint))
	ix := launchlab.InitializeV2Instruction(&accts, launchlab.InitializeV2Args{
		Mint:  launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: name, Symbol: symbol},
		Curve: launchlab.LetsBonkCurve(),
	})
	sig, err := c.sendAs(creator, mintKey, ix)
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: launchlab.PoolPDA(mint, launchlab.WrappedSOLMint), Signature: sig}, nil
}

// CreateBagsCoin launches a coin on the local bags DBC config with
// initialize_virtual_pool_with_spl_token, signed by creator (who pays) and
// the new mint, and returns the mint and its virtual pool.
func (c *Chain) CreateBagsCoin(creator sol.PrivateKey, name, symbol string) (LaunchCoin, error) {
	mintKey, err := sol.NewRandomPrivateKey()
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create bags coin: %w", err)
	}
	mint := mintKey.PublicKey()
	accts := dbc.NewInitializeAccounts(dbc.LocalBagsPoolConfig, dbc.WrappedSOLMint, mint, creator.PublicKey())
	ix := dbc.InitializeVirtualPoolWithSPLTokenInstruction(&accts, dbc.InitializePoolParameters{Name: name, Symbol: symbol})
	sig, err := c.sendAs(creator, mintKey, ix)
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create bags coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, dbc.WrappedSOLMint), Signature: sig}, nil
}

// sendAs lands one instruction paid by payer and signed by it and the
// other keys.
func (c *Chain) sendAs(payer, other sol.PrivateKey, ix sol.Instruction) (sol.Signature, error) {
	bh, _ := c.LatestBlockhash()
	tx, err := sol.NewTransaction([]sol.Instruction{ix}, bh, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		return sol.Signature{}, fmt.Errorf("build: %w", err)
	}
	if _, err := tx.Sign(c.signerFor(payer, other)); err != nil {
		return sol.Signature{}, fmt.Errorf("sign: %w", err)
	}
	return c.SendTransaction(tx)
}
