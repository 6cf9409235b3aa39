package contracts

import (
	"bytes"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// PairCodeHash is keccak256 of the project's Pair creation code, as the
// project's Factory.pairCodeHash returns it. The local chains no longer run
// that Factory (see PairAddress).
var PairCodeHash = crypto.Keccak256Hash(common.FromHex(PairMetaData.Bin))

// SortTokens orders two token addresses as a pair does: token0 < token1.
func SortTokens(a, b common.Address) (token0, token1 common.Address) {
	if bytes.Compare(a[:], b[:]) < 0 {
		return a, b
	}
	return b, a
}

// PairAddress computes where a chain's V2 factory creates (or created) the
// pair of two tokens, without asking the chain. The V2 factory of every
// chain, the local ones included, is the official UniswapV2Factory, so
// this is uniswap.V2PairAddress: CREATE2 with the salt
// keccak256(token0 ++ token1) and the official pair's init code hash.
//
// Deprecated: use uniswap.V2PairAddress.
func PairAddress(factory, tokenA, tokenB common.Address) common.Address {
	return uniswap.V2PairAddress(factory, tokenA, tokenB)
}
