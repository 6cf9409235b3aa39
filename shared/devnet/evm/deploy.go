package evm

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// Deployment lists the contracts a local chain deploys at start. The JSON
// names are those of devnet_deployment.
type Deployment struct {
	Chain   string `json:"chain"`
	ChainID uint64 `json:"chainId"`
	// NativeSymbol is the native coin's symbol (ETH, BNB, USDC on arc).
	NativeSymbol string `json:"nativeSymbol"`
	// WrappedNative is the project's wrapped native coin (WETH, WBNB,
	// WUSDC), and the WETH9 of the official contracts. On arc, which has
	// no wrapped native token, it is there only because Router02 and the
	// V3 periphery take a WETH9; no pool of arc's is against it.
	WrappedNative common.Address `json:"wrappedNative"`
	// NativeToken is, on arc, the ERC-20 standing for the native coin's
	// ERC-20 interface (USDC, 6 decimals): arc's pools trade against it.
	// Zero on the other chains.
	NativeToken common.Address `json:"nativeToken"`
	// Factory is the official UniswapV2Factory and Router02 the official
	// UniswapV2Router02 over it.
	Factory  common.Address `json:"factory"`
	Router02 common.Address `json:"router02"`
	// V3Factory is the official UniswapV3Factory with the fee tiers
	// FeeTiers; PositionManager (NonfungiblePositionManager), SwapRouter02
	// and QuoterV2 are the official V3 periphery over it and Factory.
	V3Factory       common.Address `json:"v3Factory"`
	PositionManager common.Address `json:"positionManager"`
	SwapRouter02    common.Address `json:"swapRouter02"`
	QuoterV2        common.Address `json:"quoterV2"`
	FeeTiers        []uint32       `json:"feeTiers"`
	// Router is Router02 under the name a chain's configuration gives its
	// V2 router (evm.chains.<chain>.router).
	Router common.Address `json:"router"`
	// PairCodeHash is the init code hash of Factory's pairs, and
	// PoolCodeHash that of V3Factory's pools: those of Ethereum mainnet.
	PairCodeHash common.Hash `json:"pairCodeHash"`
	PoolCodeHash common.Hash `json:"poolCodeHash"`
	// Stables are the chain's ERC-20 quote assets by symbol, and
	// StableDecimals their decimals. Empty on arc, whose only quote asset
	// is its native coin (NativeToken).
	Stables        map[string]common.Address `json:"stables"`
	StableDecimals map[string]uint8          `json:"stableDecimals"`
	// USDPairs are the V2 pairs of the wrapped native coin with each
	// stable, and USDPair the one with the chain's first stable, which
	// prices the native coin in USD. Zero on arc, whose native coin is
	// USDC.
	USDPairs map[string]common.Address `json:"usdPairs"`
	USDPair  common.Address            `json:"usdPair"`
	// Deployer signs the deployments and owns the stables' mint.
	Deployer common.Address `json:"deployer"`
	// Builder is every block's fee recipient (block.coinbase).
	Builder common.Address `json:"builder"`
	// RelayTipAddress is where a bundle sent to the chain's private relay
	// pays its tip, by a plain transfer of the native coin.
	RelayTipAddress common.Address `json:"relayTipAddress"`
}

// Uniswap returns the official contracts of the deployment.
func (d Deployment) Uniswap() uniswap.Addresses {
	return uniswap.Addresses{
		WETH9:           d.WrappedNative,
		V2Factory:       d.Factory,
		V2Router02:      d.Router02,
		V3Factory:       d.V3Factory,
		PositionManager: d.PositionManager,
		SwapRouter02:    d.SwapRouter02,
		QuoterV2:        d.QuoterV2,
	}
}

func (d Deployment) clone() Deployment {
	d.FeeTiers = slices.Clone(d.FeeTiers)
	d.Stables = maps.Clone(d.Stables)
	d.StableDecimals = maps.Clone(d.StableDecimals)
	d.USDPairs = maps.Clone(d.USDPairs)
	return d
}

// Gas limits of the deployer's transactions. They are fixed, because a
// batch is sent before its first transaction is mined, so later ones cannot
// be estimated; each is well above what the transaction uses.
const (
	gasDeploySmall  = 3_000_000
	gasDeployLarge  = 8_000_000
	gasCall         = 200_000
	gasAddLiquidity = 5_000_000
	deployerTipWei  = params.GWei
)

// farDeadline is the deadline of the deployer's router calls.
var farDeadline = new(big.Int).Lsh(big.NewInt(1), 62)

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// txCall is one transaction of the deployer: a call, or a deployment when
// to is nil.
type txCall struct {
	what  string
	to    *common.Address
	data  []byte
	value *big.Int
	gas   uint64
}

func deployCall(what string, meta *bind.MetaData, gas uint64, args ...any) (txCall, error) {
	parsed, err := meta.GetAbi()
	if err != nil {
		return txCall{}, fmt.Errorf("%s: abi: %w", what, err)
	}
	packed, err := parsed.Pack("", args...)
	if err != nil {
		return txCall{}, fmt.Errorf("%s: pack constructor: %w", what, err)
	}
	return txCall{what: what, data: append(common.FromHex(meta.Bin), packed...), gas: gas}, nil
}

func methodCall(what string, to common.Address, meta *bind.MetaData, gas uint64, value *big.Int, method string, args ...any) (txCall, error) {
	parsed, err := meta.GetAbi()
	if err != nil {
		return txCall{}, fmt.Errorf("%s: abi: %w", what, err)
	}
	data, err := parsed.Pack(method, args...)
	if err != nil {
		return txCall{}, fmt.Errorf("%s: pack %s: %w", what, method, err)
	}
	return txCall{what: what, to: &to, data: data, value: value, gas: gas}, nil
}

// calls collects txCalls and the first error of building them.
type calls struct {
	list []txCall
	err  error
}

func (cs *calls) add(c txCall, err error) {
	if cs.err == nil && err != nil {
		cs.err = err
	}
	cs.list = append(cs.list, c)
}

// asDeployer sends the transactions that build returns for the deployer's
// next nonce, in order, and waits until all are mined. The deployer's
// transactions are serialised, so the nonce is the deployer's alone.
func (c *Chain) asDeployer(ctx context.Context, build func(nonce uint64) ([]txCall, error)) ([]*types.Receipt, error) {
	c.admin.Lock()
	defer c.admin.Unlock()
	nonce, err := c.direct.PendingNonceAt(ctx, DeployerAddress)
	if err != nil {
		return nil, fmt.Errorf("deployer nonce: %w", err)
	}
	list, err := build(nonce)
	if err != nil {
		return nil, err
	}
	head := c.eth.BlockChain().CurrentBlock()
	tip := big.NewInt(deployerTipWei)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	signer := types.LatestSignerForChainID(c.ChainID())
	hashes := make([]common.Hash, 0, len(list))
	var sendErr error
	for i, call := range list {
		tx, err := types.SignNewTx(DeployerKey, signer, &types.DynamicFeeTx{
			ChainID:   c.ChainID(),
			Nonce:     nonce + uint64(i),
			GasTipCap: tip,
			GasFeeCap: feeCap,
			Gas:       call.gas,
			To:        call.to,
			Value:     call.value,
			Data:      call.data,
		})
		if err == nil {
			err = c.direct.SendTransaction(ctx, tx)
		}
		if err != nil {
			sendErr = fmt.Errorf("%s: send: %w", call.what, err)
			break
		}
		hashes = append(hashes, tx.Hash())
	}
	// Whatever was sent is waited for, so that the next batch starts from
	// a settled nonce.
	receipts := make([]*types.Receipt, len(hashes))
	var errs []error
	for i, h := range hashes {
		r, err := c.WaitMined(ctx, h)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", list[i].what, err))
		}
		receipts[i] = r
	}
	if sendErr != nil {
		errs = append([]error{sendErr}, errs...)
	}
	return receipts, errors.Join(errs...)
}

// deploy deploys the chain's contracts and its USD pairs. The deployment is
// a fixed list of the deployer's first transactions, so on a chain reopened
// from its folder the deployer's nonce tells how much of it is there: all
// of it on a chain that was deployed before, which is then only checked, or
// a part when the process died during the first start, in which case the
// rest is sent now. Nothing is ever deployed twice.
func (c *Chain) deploy(ctx context.Context) error {
	d, list, err := plan(c.spec, c.nonceBase, c.cfg.RelayTipAddress)
	if err != nil {
		return err
	}
	_, err = c.asDeployer(ctx, func(nonce uint64) ([]txCall, error) {
		done := nonce - c.nonceBase
		if done >= uint64(len(list)) {
			return nil, nil
		}
		if c.spec.nativeToken && done > stableNonce {
			// What follows the native token uses it: a folder whose nonce
			// there went to something else is refused before it is sent.
			if err := c.checkNativeToken(ctx, d.NativeToken); err != nil {
				return nil, err
			}
		}
		if done > wrappedNonce {
			c.log.Warn("finishing a deployment that was interrupted", "deployer_nonce", nonce, "transactions", len(list))
		}
		return list[done:], nil
	})
	if err != nil {
		return err
	}
	if err := c.checkDeployed(ctx, d); err != nil {
		return err
	}
	c.deployment = d
	return nil
}

// plan returns the deployment of a chain and the deployer's transactions
// that make it, from nonce base+wrappedNonce on; the addresses follow from
// the deployer's nonces, so they are the same on every start of the chain:
//
//	nonce 0     WrappedNative (each nonce counted from base)
//	nonce 1-7   the official set (uniswap.DeploymentTxs with WrappedNative
//	            as WETH9): UniswapV2Factory, UniswapV2Router02,
//	            UniswapV3Factory, its fee tier 100, NonfungiblePositionManager,
//	            SwapRouter02, QuoterV2
//	nonce 8     on arc, NativeToken: a Stable "USD Coin" (USDC, 6 decimals)
//	nonce 8+    on the other chains, one Stable per quote asset of the
//	            chain, in order
//	then        each stable's USD pair: mint, approve Router02,
//	            Router02.addLiquidityETH; on arc the same for the native
//	            token's pair with the wrapped native coin, one for one
func plan(s spec, base uint64, tipAddress common.Address) (Deployment, []txCall, error) {
	d := Deployment{
		Chain:           s.name,
		ChainID:         uint64(s.chainID),
		NativeSymbol:    s.native.Symbol,
		WrappedNative:   crypto.CreateAddress(DeployerAddress, base+wrappedNonce),
		FeeTiers:        uniswap.FeeTiers(),
		PairCodeHash:    uniswap.V2PairInitCodeHash,
		PoolCodeHash:    uniswap.V3PoolInitCodeHash,
		Stables:         map[string]common.Address{},
		StableDecimals:  map[string]uint8{},
		USDPairs:        map[string]common.Address{},
		Deployer:        DeployerAddress,
		Builder:         BuilderAddress,
		RelayTipAddress: tipAddress,
	}
	var cs calls
	cs.add(deployCall("deploy wrapped native", contracts.WrappedNativeMetaData, gasDeploySmall, s.wrappedName, s.wrappedSymbol))
	official, a, err := uniswap.DeploymentTxs(DeployerAddress, base+uniswapNonce, d.WrappedNative)
	if err != nil {
		return Deployment{}, nil, fmt.Errorf("plan the official contracts: %w", err)
	}
	if len(official) != uniswapTxs {
		return Deployment{}, nil, fmt.Errorf("the official contracts take %d transactions, the chain's nonces expect %d", len(official), uniswapTxs)
	}
	for _, t := range official {
		cs.add(txCall{what: t.What, to: t.To, data: t.Data, gas: t.Gas}, nil)
	}
	d.Factory, d.Router02, d.V3Factory = a.V2Factory, a.V2Router02, a.V3Factory
	d.PositionManager, d.SwapRouter02, d.QuoterV2 = a.PositionManager, a.SwapRouter02, a.QuoterV2

	if s.nativeToken {
		d.NativeToken = nativeTokenAddress(base)
		cs.add(deployCall("deploy native token "+s.native.Symbol, contracts.StableMetaData, gasDeploySmall,
			stableNames[s.native.Symbol], s.native.Symbol, uint8(s.native.Decimals)))
	}
	for i, st := range s.stables {
		d.Stables[st.Symbol] = s.stableAddress(base, i)
		d.StableDecimals[st.Symbol] = uint8(st.Decimals)
		d.USDPairs[st.Symbol] = uniswap.V2PairAddress(d.Factory, d.WrappedNative, d.Stables[st.Symbol])
		cs.add(deployCall("deploy "+st.Symbol, contracts.StableMetaData, gasDeploySmall,
			stableNames[st.Symbol], st.Symbol, uint8(st.Decimals)))
	}
	if len(s.stables) > 0 {
		d.USDPair = d.USDPairs[s.stables[0].Symbol]
	}
	// Each stable's USD pair: usdPairUSD of the stable against the native
	// coin worth as much.
	for _, st := range s.stables {
		addr := d.Stables[st.Symbol]
		amount := wholeUnits(usdPairUSD, st.Decimals)
		cs.add(methodCall("mint "+st.Symbol, addr, contracts.StableMetaData, gasCall, nil, "mint", DeployerAddress, amount))
		cs.add(methodCall("approve "+st.Symbol, addr, contracts.StableMetaData, gasCall, nil, "approve", d.Router02, amount))
		cs.add(methodCall("add "+st.Symbol+" liquidity", d.Router02, uniswap.UniswapV2Router02MetaData, gasAddLiquidity,
			s.nativeForUSD(usdPairUSD), "addLiquidityETH", addr, amount, common.Big0, common.Big0, DeployerAddress, farDeadline))
	}
	if s.nativeToken {
		// The native token's pair with the wrapped native coin, one for one:
		// the tax probe tops its balance of a stable quote up through the
		// router's WETH, and finds arc's quote this way on the double (on
		// the real chain the probe's native balance is its token balance).
		amount := wholeUnits(usdPairUSD, s.native.Decimals)
		cs.add(methodCall("mint native token", d.NativeToken, contracts.StableMetaData, gasCall, nil, "mint", DeployerAddress, amount))
		cs.add(methodCall("approve native token", d.NativeToken, contracts.StableMetaData, gasCall, nil, "approve", d.Router02, amount))
		cs.add(methodCall("add native token liquidity", d.Router02, uniswap.UniswapV2Router02MetaData, gasAddLiquidity,
			s.nativeForUSD(usdPairUSD), "addLiquidityETH", d.NativeToken, amount, common.Big0, common.Big0, DeployerAddress, farDeadline))
	}
	d.Router = d.Router02
	if cs.err != nil {
		return Deployment{}, nil, cs.err
	}
	return d, cs.list, nil
}

// checkDeployed checks that the official contracts of d hold the official
// runtime code and that every other contract of d has code, which on a
// reopened chain tells a deployment from a deployer nonce that only looks
// like one.
func (c *Chain) checkDeployed(ctx context.Context, d Deployment) error {
	if err := uniswap.CheckDeployment(ctx, c.direct, d.Uniswap()); err != nil {
		return err
	}
	want := map[string]common.Address{"wrapped native": d.WrappedNative, "router": d.Router}
	for sym, a := range d.Stables {
		want[sym] = a
		want[sym+" pair"] = d.USDPairs[sym]
	}
	for what, a := range want {
		code, err := c.direct.CodeAt(ctx, a, nil)
		if err != nil {
			return fmt.Errorf("code of the %s at %s: %w", what, a, err)
		}
		if len(code) == 0 {
			return fmt.Errorf("no %s contract at %s", what, a)
		}
	}
	if d.NativeToken != (common.Address{}) {
		return c.checkNativeToken(ctx, d.NativeToken)
	}
	return nil
}

// checkNativeToken checks that the contract at the native token's nonce is
// the native token: a token with the native asset's symbol and decimals.
// An arc chain deployed before arc had a native token holds something else
// there (a token created on it, or nothing when the deployer's next
// transaction was a transfer); it cannot be mended in place, since its
// other contracts and tokens are pooled against the wrapped native coin,
// so its folder is refused.
func (c *Chain) checkNativeToken(ctx context.Context, addr common.Address) error {
	sym, dec := c.spec.native.Symbol, c.spec.native.Decimals
	wrong := func(found string) error {
		folder := "the chain's folder"
		if c.cfg.Dir != "" {
			folder += " " + c.cfg.Dir
		}
		return fmt.Errorf("%w: the contract at the deployer's nonce %d (%s) should be the %d-decimal %s token that stands for the native coin, but %s: "+
			"%s holds a local %s chain deployed before the chain had a native token, which cannot be mended in place; remove the chain's folder to start the chain afresh",
			ErrStateDir, c.nonceBase+stableNonce, addr, dec, sym, found, folder, c.spec.name)
	}
	code, err := c.direct.CodeAt(ctx, addr, nil)
	if err != nil {
		return fmt.Errorf("code of the native token at %s: %w", addr, err)
	}
	if len(code) == 0 {
		return wrong("there is no contract")
	}
	t, err := contracts.NewERC20(addr, c.direct)
	if err != nil {
		return fmt.Errorf("bind the native token at %s: %w", addr, err)
	}
	opts := &bind.CallOpts{Context: ctx}
	gotDec, err := t.Decimals(opts)
	if err != nil {
		return wrong(fmt.Sprintf("its decimals() fails (%v)", err))
	}
	gotSym, err := t.Symbol(opts)
	if err != nil {
		return wrong(fmt.Sprintf("its symbol() fails (%v)", err))
	}
	if int(gotDec) != dec || gotSym != sym {
		return wrong(fmt.Sprintf("it is %q with %d decimals", gotSym, gotDec))
	}
	return nil
}
