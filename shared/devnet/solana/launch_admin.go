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
	mint, sig, err := c.createCoin(creator, func(mint sol.PublicKey) sol.Instruction {
		accts := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(creator.PublicKey(), mint))
		return launchlab.InitializeV2Instruction(&accts, launchlab.InitializeV2Args{
			Mint:  launchlab.MintParams{Decimals: launchlab.LetsBonkDecimals, Name: name, Symbol: symbol},
			Curve: launchlab.LetsBonkCurve(),
		})
	})
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create letsbonk coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: launchlab.PoolPDA(mint, launchlab.WrappedSOLMint), Signature: sig}, nil
}

// CreateBagsCoin launches a coin on the local bags DBC config with
// initialize_virtual_pool_with_spl_token, signed by creator (who pays) and
// the new mint, and returns the mint and its virtual pool.
func (c *Chain) CreateBagsCoin(creator sol.PrivateKey, name, symbol string) (LaunchCoin, error) {
	mint, sig, err := c.createCoin(creator, func(mint sol.PublicKey) sol.Instruction {
		accts := dbc.NewInitializeAccounts(dbc.LocalBagsPoolConfig, dbc.WrappedSOLMint, mint, creator.PublicKey())
		return dbc.InitializeVirtualPoolWithSPLTokenInstruction(&accts, dbc.InitializePoolParameters{Name: name, Symbol: symbol})
	})
	if err != nil {
		return LaunchCoin{}, fmt.Errorf("create bags coin %q: %w", symbol, err)
	}
	return LaunchCoin{Mint: mint, Pool: dbc.PoolPDA(dbc.LocalBagsPoolConfig, mint, dbc.WrappedSOLMint), Signature: sig}, nil
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
