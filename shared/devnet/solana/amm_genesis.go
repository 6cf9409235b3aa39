package solana

import (
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// Genesis values of the AMM's GlobalConfig, used when no FeeConfig applies.
const (
	genesisAMMLPFeeBps       uint64 = 20
	genesisAMMProtocolFeeBps uint64 = 5
	genesisAMMCreatorFeeBps  uint64 = 5
	genesisAMMBuybackBps     uint64 = 5_000
)

// GenesisAMMFlatFees are the AMM FeeConfig's flat fees, which pools other
// than canonical pump pools pay (the stable/SOL pool among them).
var GenesisAMMFlatFees = pumpfun.Fees{LPFeeBps: 25, ProtocolFeeBps: 5}

// GenesisAMMFeeTiers are the AMM FeeConfig's tiers for SOL-quoted canonical
// pools, by market cap in lamports.
var GenesisAMMFeeTiers = []pumpfun.FeeTier{
	{MarketCapLamportsThreshold: pumpfun.U128(0), Fees: pumpfun.Fees{LPFeeBps: 2, ProtocolFeeBps: 93, CreatorFeeBps: 30}},
	{MarketCapLamportsThreshold: pumpfun.U128(420_000_000_000), Fees: pumpfun.Fees{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 95}},
	{MarketCapLamportsThreshold: pumpfun.U128(98_240_000_000_000), Fees: pumpfun.Fees{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 5}},
}

// GenesisAMMStableFeeTiers are the tiers for USDC-quoted canonical pools,
// by market cap in USDC base units.
var GenesisAMMStableFeeTiers = []pumpfun.FeeTier{
	{MarketCapLamportsThreshold: pumpfun.U128(0), Fees: pumpfun.Fees{LPFeeBps: 2, ProtocolFeeBps: 93, CreatorFeeBps: 30}},
	{MarketCapLamportsThreshold: pumpfun.U128(63_000_000_000), Fees: pumpfun.Fees{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 95}},
}

// The stable assets of the local chain: SPL Token mints at the addresses
// mainnet uses, so a client configured for mainnet names the same mints.
var (
	// USDCMint is USDC.
	USDCMint = pumpswap.USDCMint
	// USD1Mint is USD1.
	USD1Mint = pumpswap.USD1Mint
)

// StableDecimals are the decimals of USDC and USD1.
const StableDecimals = 6

// The stable/SOL pool the chain seeds at genesis: WSOL as the base, USDC as
// the quote, so its price is USD per SOL. It is the chain's SOL/USD price
// source.
const (
	// StablePoolSOL is the SOL side of the stable/SOL pool, in lamports.
	StablePoolSOL uint64 = 10_000 * 1_000_000_000
	// StablePoolUSDC is its USDC side, in base units: SOL starts at 150 USD.
	StablePoolUSDC uint64 = 1_500_000 * 1_000_000
)

// stablePoolCreator creates the stable/SOL pool. It is derived from a fixed
// label, not from Config.Seed, so the pool has the same address on every
// local chain and a configuration can name it.
var stablePoolCreator = func() sol.PrivateKey {
	seed := sha256.Sum256([]byte("tradeapi-devnet/stable-sol-pool-creator"))
	return sol.PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
}()

// StableSOLPool is the address of the stable/SOL pool.
var StableSOLPool, _ = pumpswap.PoolPDA(0, stablePoolCreator.PublicKey(), nativeMintID, USDCMint)

// JitoTipAccounts are the tip accounts the bundle relay accepts unless
// Config.TipAccounts names others: Jito's published ones.
var JitoTipAccounts = chains.JitoTipAccounts

// ammGenesis seeds the AMM's GlobalConfig, FeeConfig and volume
// accumulator, the stable mints, the buyback recipients' quote accounts, the
// stable/SOL pool and rent-exempt fee recipients and tip accounts. A chain
// loaded from a file written before the AMM existed gets them at Open.
func (c *Chain) ammGenesis() {
	g := pumpswap.GlobalConfig{
		Admin:                        c.deriveKey("amm/admin").PublicKey(),
		LPFeeBasisPoints:             genesisAMMLPFeeBps,
		ProtocolFeeBasisPoints:       genesisAMMProtocolFeeBps,
		CoinCreatorFeeBasisPoints:    genesisAMMCreatorFeeBps,
		AdminSetCoinCreatorAuthority: c.deriveKey("amm/set-coin-creator").PublicKey(),
		ReservedFeeRecipient:         c.deriveKey("amm/reserved/0").PublicKey(),
		BuybackBasisPoints:           genesisAMMBuybackBps,
		BoostAuthority:               c.deriveKey("amm/boost").PublicKey(),
	}
	for i := range g.ProtocolFeeRecipients {
		g.ProtocolFeeRecipients[i] = c.deriveKey(fmt.Sprintf("amm/protocol/%d", i)).PublicKey()
	}
	for i := range g.ReservedFeeRecipients {
		g.ReservedFeeRecipients[i] = c.deriveKey(fmt.Sprintf("amm/reserved/%d", i+1)).PublicKey()
	}
	copy(g.BuybackFeeRecipients[:], pumpfun.StaticBuybackFeeRecipients)
	c.putProgramAccount(pumpswap.GlobalConfigPDA, ammProgramID, g.Encode())

	_, bump := pdas.find(pumpswap.FeeProgramID, []byte(pumpswap.SeedFeeConfig), ammProgramID[:])
	fc := pumpswap.FeeConfig{
		Bump:           bump,
		Admin:          c.deriveKey("amm/fee-admin").PublicKey(),
		FlatFees:       GenesisAMMFlatFees,
		FeeTiers:       GenesisAMMFeeTiers,
		StableFeeTiers: GenesisAMMStableFeeTiers,
	}
	c.putProgramAccount(pumpswap.FeeConfigPDA, pumpswap.FeeProgramID, fc.Encode())
	gva := pumpswap.GlobalVolumeAccumulator{SecondsInADay: 86_400}
	c.putProgramAccount(pumpswap.GlobalVolumeAccumulatorPDA, ammProgramID, gva.Encode())

	funded := append([]sol.PublicKey{pumpswap.EventAuthorityPDA, stablePoolCreator.PublicKey()}, g.ProtocolFeeRecipientCandidates(false)...)
	funded = append(funded, g.ProtocolFeeRecipientCandidates(true)...)
	funded = append(funded, c.cfg.TipAccounts...)
	for _, k := range funded {
		if c.accounts[k] == nil {
			c.accounts[k] = &Account{Lamports: MinimumBalanceForRentExemption(0), Owner: systemProgramID}
		}
	}
	authority := c.deriveKey("stable/authority").PublicKey()
	for _, m := range []sol.PublicKey{USDCMint, USD1Mint} {
		if c.accounts[m] != nil {
			continue
		}
		d := make([]byte, mintLen)
		putCOptionKey(d, &authority)
		d[44] = StableDecimals
		d[45] = 1
		c.accounts[m] = &Account{Lamports: MinimumBalanceForRentExemption(mintLen), Owner: tokenProgramID, Data: d}
	}
	for _, m := range []sol.PublicKey{nativeMintID, USDCMint, USD1Mint} {
		c.ensureBuybackAccountsLocked(&g, m, tokenProgramID)
	}
	if c.accounts[StableSOLPool] != nil {
		return
	}
	if _, err := c.putPoolLocked(directPool{
		creator: stablePoolCreator.PublicKey(), base: nativeMintID, quote: USDCMint,
		baseProgram: tokenProgramID, quoteProgram: tokenProgramID,
		baseAmount: StablePoolSOL, quoteAmount: StablePoolUSDC, lpOwner: stablePoolCreator.PublicKey(),
	}); err != nil {
		c.log.Error("seed the stable/SOL pool", "err", err)
		return
	}
	m := c.accounts[USDCMint].clone()
	setMintSupply(m.Data, mintSupply(m.Data)+StablePoolUSDC)
	c.accounts[USDCMint] = m
}

// ensureAMMGenesis adds the AMM's genesis accounts to a chain loaded from a
// file written before the chain ran the AMM.
func (c *Chain) ensureAMMGenesis() {
	if c.accounts[pumpswap.GlobalConfigPDA] != nil {
		return
	}
	c.ammGenesis()
	c.changes++
}

// ensureBuybackAccountsLocked creates the quote token accounts of every
// buyback recipient for mint: the program checks them on every trade but
// never creates them.
func (c *Chain) ensureBuybackAccountsLocked(g *pumpswap.GlobalConfig, mint, prog sol.PublicKey) {
	for _, r := range g.BuybackFeeRecipientCandidates() {
		ata := associatedTokenAddress(r, prog, mint)
		if c.accounts[ata] == nil {
			c.accounts[ata] = newTokenAccount(prog, mint, r, 0)
		}
	}
}

// newTokenAccount returns an initialized token account of mint for owner
// under prog holding amount; a wrapped-SOL account holds the amount in
// lamports above its rent reserve. Token-2022 accounts carry the
// ImmutableOwner extension, as the ATA program creates them.
func newTokenAccount(prog, mint, owner sol.PublicKey, amount uint64) *Account {
	n := tokenAccountLen
	if prog == token2022ProgramID {
		n = token2022AccountLen
	}
	d := make([]byte, n)
	copy(d[0:32], mint[:])
	copy(d[32:64], owner[:])
	setTokAccAmount(d, amount)
	d[108] = accountStateInitialized
	rent := MinimumBalanceForRentExemption(n)
	lamports := rent
	if mint == nativeMintID || mint == nativeMint2022ID {
		d[109] = 1 // is_native: Some(rent reserve)
		copy(d[113:121], u64le(rent))
		lamports += amount
	}
	if prog == token2022ProgramID {
		d[accountTypeOffset] = accountTypeToken
		d[accountTypeOffset+1] = extImmutableOwner
	}
	return &Account{Lamports: lamports, Owner: prog, Data: d}
}

// errPoolExists is returned when a pool a helper would create exists.
var errPoolExists = errors.New("devnet solana: the pool exists")

// directPool is a pool a helper writes into the ledger directly, the way a
// migration creates one, without a transaction.
type directPool struct {
	creator, base, quote      sol.PublicKey
	baseProgram, quoteProgram sol.PublicKey
	coinCreator               sol.PublicKey
	baseAmount, quoteAmount   uint64
	// lpOwner receives the LP tokens.
	lpOwner sol.PublicKey
}

// putPoolLocked writes the pool of d with its LP mint, its two vaults
// holding the amounts (the caller takes them from where they come from) and
// the LP holder's account, and returns its address.
func (c *Chain) putPoolLocked(d directPool) (sol.PublicKey, error) {
	pool, bump := pumpswap.PoolPDA(0, d.creator, d.base, d.quote)
	if c.accounts[pool] != nil {
		return pool, fmt.Errorf("%w: %s", errPoolExists, pool)
	}
	lpAmount := new(big.Int).Mul(new(big.Int).SetUint64(d.baseAmount), new(big.Int).SetUint64(d.quoteAmount))
	lpAmount.Sqrt(lpAmount)
	if !lpAmount.IsUint64() || lpAmount.Uint64() <= ammMinimumLiquidity {
		return pool, fmt.Errorf("devnet solana: pool %s: %w", pool, pumpswap.ErrTooLittlePoolTokenLiquidity)
	}
	lpOut := lpAmount.Uint64() - ammMinimumLiquidity
	lp := pumpswap.LPMintPDA(pool)
	md := make([]byte, mintLen)
	putCOptionKey(md, &pool)
	setMintSupply(md, lpOut)
	md[44] = ammLPDecimals
	md[45] = 1
	c.accounts[lp] = &Account{Lamports: MinimumBalanceForRentExemption(mintLen), Owner: token2022ProgramID, Data: md}
	lpHolder := associatedTokenAddress(d.lpOwner, token2022ProgramID, lp)
	c.accounts[lpHolder] = newTokenAccount(token2022ProgramID, lp, d.lpOwner, lpOut)

	baseVault := associatedTokenAddress(pool, d.baseProgram, d.base)
	quoteVault := associatedTokenAddress(pool, d.quoteProgram, d.quote)
	c.accounts[baseVault] = newTokenAccount(d.baseProgram, d.base, pool, d.baseAmount)
	c.accounts[quoteVault] = newTokenAccount(d.quoteProgram, d.quote, pool, d.quoteAmount)
	p := pumpswap.Pool{
		PoolBump: bump, Creator: d.creator, BaseMint: d.base, QuoteMint: d.quote, LPMint: lp,
		PoolBaseTokenAccount: baseVault, PoolQuoteTokenAccount: quoteVault, LPSupply: lpOut,
		CoinCreator: d.coinCreator,
	}
	c.putProgramAccount(pool, ammProgramID, p.Encode())
	if gcAcc := c.accounts[pumpswap.GlobalConfigPDA]; gcAcc != nil {
		var gc pumpswap.GlobalConfig
		if err := gc.Decode(gcAcc.Data); err == nil {
			c.ensureBuybackAccountsLocked(&gc, d.quote, d.quoteProgram)
		}
	}
	return pool, nil
}
