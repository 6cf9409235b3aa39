package immutables

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// Artifact is one official contract's ABI, creation code and runtime code
// (the runtime code as the artifact ships it, placeholders zero).
type Artifact struct {
	ABI      abi.ABI
	Creation []byte
	Runtime  []byte
}

// Derive returns the immutables of the contract name of arts: the ranges
// its creation code writes, traced from a deployment made the way a chain
// makes it (a pair or a pool by its factory), and checked against the
// official runtime code.
func Derive(name string, arts map[string]Artifact) ([]Range, error) {
	art, ok := arts[name]
	if !ok || len(art.Creation) == 0 {
		return nil, fmt.Errorf("%s: no creation code", name)
	}
	steps, err := setup(name, arts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	code, ranges, err := Find(art.Creation, steps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := Check(art.Runtime, code, ranges); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ranges, nil
}

// Two distinct tokens for the pair and the pool; creating either calls
// nothing on them.
var (
	tokenA = common.HexToAddress("0x1000000000000000000000000000000000000001")
	tokenB = common.HexToAddress("0x2000000000000000000000000000000000000002")
)

func setup(name string, arts map[string]Artifact) ([]Step, error) {
	// Pairs and pools take no constructor arguments: their factory creates
	// them with CREATE2 and they read their parameters back from it.
	byFactory := map[string]struct {
		factory, method string
		args            []any
	}{
		"UniswapV2Pair": {"UniswapV2Factory", "createPair", []any{tokenA, tokenB}},
		"UniswapV3Pool": {"UniswapV3Factory", "createPool", []any{tokenA, tokenB, big.NewInt(3000)}},
	}
	if f, ok := byFactory[name]; ok {
		deploy, err := deployment(f.factory, arts)
		if err != nil {
			return nil, err
		}
		call, err := arts[f.factory].ABI.Pack(f.method, f.args...)
		if err != nil {
			return nil, fmt.Errorf("pack %s.%s: %w", f.factory, f.method, err)
		}
		return []Step{deploy, {Target: 0, Data: call}}, nil
	}
	deploy, err := deployment(name, arts)
	if err != nil {
		return nil, err
	}
	return []Step{deploy}, nil
}

// deployment is the creation of name with a distinct non-zero address for
// each constructor argument, all of which are addresses (factories, WETH9,
// the position manager) that the constructors only store.
func deployment(name string, arts map[string]Artifact) (Step, error) {
	art, ok := arts[name]
	if !ok {
		return Step{}, fmt.Errorf("no artifact %s", name)
	}
	var args []any
	for i, in := range art.ABI.Constructor.Inputs {
		if in.Type.T != abi.AddressTy {
			return Step{}, fmt.Errorf("%s: constructor argument %s is a %s, not an address", name, in.Name, in.Type)
		}
		args = append(args, common.BigToAddress(big.NewInt(int64(0xa0+i))))
	}
	packed, err := art.ABI.Pack("", args...)
	if err != nil {
		return Step{}, fmt.Errorf("%s: pack constructor: %w", name, err)
	}
	return Step{Create: true, Data: append(append([]byte(nil), art.Creation...), packed...)}, nil
}
