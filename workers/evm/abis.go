package evm

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
)

// The contract interfaces the signer calls, from the project's bindings.
var (
	routerABI   = mustABI(contracts.RouterMetaData)
	factoryABI  = mustABI(contracts.FactoryMetaData)
	pairABI     = mustABI(contracts.PairMetaData)
	erc20ABI    = mustABI(contracts.ERC20MetaData)
	taxProbeABI = mustABI(contracts.TaxProbeMetaData)
)

func mustABI(md *bind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic(fmt.Sprintf("contract abi: %v", err))
	}
	return a
}

// maxUint256 is the allowance an approval grants: approved once, a wallet
// never approves the router for that token again.
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

// errDecode is wrapped by a call whose answer does not decode: an address
// without that function answers nothing.
var errDecode = errors.New("undecodable answer")

// unpackOne decodes a call's single return value.
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

// pathOf is a two-hop swap path.
func pathOf(from, to common.Address) []common.Address { return []common.Address{from, to} }
