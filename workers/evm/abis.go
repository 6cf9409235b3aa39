package evm

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// The contract interfaces the signer calls: the official Uniswap contracts
// from their published ABIs, any ERC-20, and the project's tax probe.
var (
	router02ABI   = mustABI(uniswap.UniswapV2Router02MetaData)
	swapRouterABI = mustABI(uniswap.SwapRouter02MetaData)
	quoterABI     = mustABI(uniswap.QuoterV2MetaData)
	v2FactoryABI  = mustABI(uniswap.UniswapV2FactoryMetaData)
	v2PairABI     = mustABI(uniswap.UniswapV2PairMetaData)
	v3PoolABI     = mustABI(uniswap.UniswapV3PoolMetaData)
	erc20ABI      = mustABI(contracts.ERC20MetaData)
	taxProbeABI   = mustABI(contracts.TaxProbeMetaData)
)

// SwapRouter02's overloaded functions, by signature.
const (
	sigMulticall        = "multicall(uint256,bytes[])"
	sigExactInputSingle = "exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))"
	sigUnwrapWETH9      = "unwrapWETH9(uint256,address)"
)

func mustABI(md *bind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic(fmt.Sprintf("contract abi: %v", err))
	}
	return a
}

// maxUint256 is the allowance an approval grants: approved once, a wallet
// never approves that router for that token again.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// pack encodes a call; the arguments are the signer's own, so a failure is
// a bug.
func pack(a *abi.ABI, method string, args ...any) []byte {
	data, err := a.Pack(method, args...)
	if err != nil {
		panic(fmt.Sprintf("pack %s: %v", method, err))
	}
	return data
}

// packSig encodes a call of the method with signature sig, which tells an
// overloaded function's variants apart (SwapRouter02's three multicalls).
func packSig(a *abi.ABI, sig string, args ...any) []byte {
	for _, m := range a.Methods {
		if m.Sig != sig {
			continue
		}
		in, err := m.Inputs.Pack(args...)
		if err != nil {
			panic(fmt.Sprintf("pack %s: %v", sig, err))
		}
		return append(slices.Clone(m.ID), in...)
	}
	panic("no method " + sig)
}

// errDecode is wrapped by a call whose answer does not decode: an address
// without that function answers nothing.
var errDecode = errors.New("undecodable answer")

// unpackOne decodes a call's first return value.
func unpackOne[T any](a *abi.ABI, method string, out []byte) (T, error) {
	var zero T
	vals, err := a.Unpack(method, out)
	if err != nil {
		return zero, fmt.Errorf("%s: %w: %v", method, errDecode, err)
	}
	if len(vals) == 0 {
		return zero, fmt.Errorf("%s: %w: no value", method, errDecode)
	}
	v, ok := vals[0].(T)
	if !ok {
		return zero, fmt.Errorf("%s: %w: %T", method, errDecode, vals[0])
	}
	return v, nil
}
