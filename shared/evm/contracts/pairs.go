package contracts

import (
	"bytes"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// PairCodeHash is keccak256 of the Pair creation code, as Factory.pairCodeHash
// returns it.
var PairCodeHash = crypto.Keccak256Hash(common.FromHex(PairMetaData.Bin))

// SortTokens orders two token addresses as a pair does: token0 < token1.
func SortTokens(a, b common.Address) (token0, token1 common.Address) {
	if bytes.Compare(a[:], b[:]) < 0 {
		return a, b
	}
	return b, a
}

// PairAddress computes where factory creates (or created) the pair of two
// tokens, without asking the chain: CREATE2 with the salt
// keccak256(token0 ++ token1) and PairCodeHash.
func PairAddress(factory, tokenA, tokenB common.Address) common.Address {
	t0, t1 := SortTokens(tokenA, tokenB)
	salt := crypto.Keccak256Hash(t0[:], t1[:])
	return crypto.CreateAddress2(factory, salt, PairCodeHash[:])
}
