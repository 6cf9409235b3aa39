package evm

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// DeployerKey signs every deployment and every devnet_ operation of the
// local chains. It is derived from a public label: anyone can sign with it,
// which is the point of a local chain.
var DeployerKey = mustKey("tradeapi local evm chain deployer")

// DeployerAddress is DeployerKey's address.
var DeployerAddress = crypto.PubkeyToAddress(DeployerKey.PublicKey)

// BuilderAddress is the fee recipient (block.coinbase) of every block.
var BuilderAddress = crypto.PubkeyToAddress(mustKey("tradeapi local evm chain builder").PublicKey)

// DefaultRelayTipAddress is where a bundle sent to a chain's private relay
// pays its tip, by a plain transfer of the native coin inside the bundle,
// unless ChainConfig.RelayTipAddress names another address. It is not the
// builder's (BuilderAddress also collects the priority fees), so that what
// bundles tipped can be told apart.
var DefaultRelayTipAddress = crypto.PubkeyToAddress(mustKey("tradeapi local evm relay tip").PublicKey)

func mustKey(label string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte(label)))
	if err != nil {
		panic(fmt.Sprintf("derive key %q: %v", label, err))
	}
	return k
}

// Deployment nonces of DeployerKey, counted from the chain's nonce base:
// the wrapped native coin first, then the official Uniswap contracts
// (uniswap.DeploymentTxs, with the wrapped native coin as their WETH9),
// then the native token on a chain that has one (arc), then the stables;
// the rest follows from plan.
const (
	wrappedNonce = 0
	uniswapNonce = 1
	// uniswapTxs is the number of transactions of uniswap.DeploymentTxs
	// for a chain that brings its own WETH9.
	uniswapTxs = 7
	// stableNonce is the first nonce after the official contracts: the
	// native token's on arc, the first stable's on the other chains.
	stableNonce = uniswapNonce + uniswapTxs
)

// deployerBalance is DeployerKey's genesis balance: 10^12 native coins.
var deployerBalance = new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)

// spec is what differs between the local chains.
type spec struct {
	name    string
	chainID int64
	// wrappedName and wrappedSymbol name the wrapped native token.
	wrappedName, wrappedSymbol string
	// nativeUSD is the reference price of the native coin in whole USD,
	// set by the liquidity of its USD pairs.
	nativeUSD int64
	// nativeToken says that the native coin has an ERC-20 interface of its
	// own and no wrapped token, as arc's USDC does (shared/chains): the
	// chain stands for that interface by a Stable with the native asset's
	// symbol and decimals (NativeToken), and pools its tokens against it.
	nativeToken bool
	// native is the chain's native asset and stables its ERC-20 quote
	// assets, from shared/chains.
	native  chains.Asset
	stables []chains.Asset
}

var specs = map[string]spec{
	wire.ChainEth:  {chainID: 1, wrappedName: "Wrapped Ether", wrappedSymbol: "WETH", nativeUSD: 3000},
	wire.ChainBsc:  {chainID: 56, wrappedName: "Wrapped BNB", wrappedSymbol: "WBNB", nativeUSD: 600},
	wire.ChainBase: {chainID: 8453, wrappedName: "Wrapped Ether", wrappedSymbol: "WETH", nativeUSD: 3000},
	wire.ChainRbh:  {chainID: 46630, wrappedName: "Wrapped Ether", wrappedSymbol: "WETH", nativeUSD: 3000},
	wire.ChainArc:  {chainID: 5042002, wrappedName: "Wrapped USDC", wrappedSymbol: "WUSDC", nativeUSD: 1, nativeToken: true},
}

// stableNames are the token names of the stable coins.
var stableNames = map[string]string{
	"USDC": "USD Coin",
	"USDT": "Tether USD",
	"USD1": "World Liberty Financial USD",
	"USDG": "Global Dollar",
}

// Names lists the local EVM chains in a stable order.
func Names() []string { return append([]string(nil), wire.EVMChains...) }

// ChainID returns the chain id of a local chain, or false for a name that
// is not one.
func ChainID(name string) (uint64, bool) {
	s, ok := specs[name]
	return uint64(s.chainID), ok
}

func specOf(name string) (spec, error) {
	s, ok := specs[name]
	if !ok {
		return spec{}, fmt.Errorf("no local evm chain named %q", name)
	}
	c, ok := chains.Get(name)
	if !ok {
		return spec{}, fmt.Errorf("chain %q is not in shared/chains", name)
	}
	s.name = name
	for _, a := range c.Assets {
		if a.Native {
			s.native = a
		} else {
			s.stables = append(s.stables, a)
		}
	}
	return s, nil
}

// usdLiquidity is the USD value of each side of a USD pair and the default
// quote liquidity of a created token.
const (
	usdPairUSD       = 3_000_000
	defaultTokenUSD  = 30_000
	tokenSupplyWhole = 1_000_000_000
	// creatorShareBps of a created token's supply goes to its creator (or
	// stays with the deployer); the rest is the pool's.
	creatorShareBps = 1_000
)

// pow10 returns 10^n.
func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// wholeUnits returns n whole coins of an asset with the given decimals.
func wholeUnits(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), pow10(decimals))
}

// nativeForUSD returns the native coin worth usd at the reference price,
// in wei.
func (s spec) nativeForUSD(usd int64) *big.Int {
	return new(big.Int).Div(wholeUnits(usd, chains.WeiDecimals), big.NewInt(s.nativeUSD))
}

// weiPerNativeUnit is the wei of native coin that one base unit of the
// native token stands for: 10^12 on arc, whose native token has USDC's 6
// decimals.
func (s spec) weiPerNativeUnit() *big.Int { return pow10(chains.WeiDecimals - s.native.Decimals) }

// nativeTokenAddress is the address of the native token of a chain whose
// deployer nonces start at base.
func nativeTokenAddress(base uint64) common.Address {
	return crypto.CreateAddress(DeployerAddress, base+stableNonce)
}

// stableAddress is the address of the i-th stable of a chain whose
// deployer nonces start at base: after the native token on a chain that
// has one.
func (s spec) stableAddress(base uint64, i int) common.Address {
	first := uint64(stableNonce)
	if s.nativeToken {
		first++
	}
	return crypto.CreateAddress(DeployerAddress, base+first+uint64(i))
}

// nonceBase is DeployerKey's genesis nonce on a new chain: the chain's
// place among Names times 2^20. Each chain's contracts (the tokens made on
// it above all) then have addresses of their own, as on public chains,
// where a token's address names one chain: on chains whose deployer
// started at the same nonce, a token made on one sat at the address of
// another chain's token or stable, and a buy with chain omitted found
// both.
func nonceBase(name string) uint64 {
	return uint64(slices.Index(wire.EVMChains, name)) << 20
}
