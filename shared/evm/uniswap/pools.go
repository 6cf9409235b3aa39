package uniswap

import (
	"bytes"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// V2PairInitCodeHash is keccak256 of UniswapV2Pair's creation code: the
// hash with which UniswapV2Factory places pairs by CREATE2, and which
// UniswapV2Router02 and SwapRouter02 hard-code in UniswapV2Library.pairFor
// (0x96e8ac42...845f). A pair created from other code would have an
// address the routers never compute.
var V2PairInitCodeHash = crypto.Keccak256Hash(Creation(NameUniswapV2Pair))

// V3PoolInitCodeHash is keccak256 of UniswapV3Pool's creation code: the
// hash with which UniswapV3Factory places pools by CREATE2, and which the
// position manager, SwapRouter02 and QuoterV2 hard-code in
// PoolAddress.POOL_INIT_CODE_HASH (0xe34f199b...7b8b54).
var V3PoolInitCodeHash = crypto.Keccak256Hash(Creation(NameUniswapV3Pool))

// RecipientMsgSender is SwapRouter02's recipient flag for the caller
// (Constants.MSG_SENDER, address 1): a swap to it pays msg.sender.
var RecipientMsgSender = common.BigToAddress(big.NewInt(1))

// RecipientThis is SwapRouter02's recipient flag for the router itself
// (Constants.ADDRESS_THIS, address 2): a swap to it leaves the output in
// the router for a later call of the same multicall (unwrapWETH9,
// sweepToken, or a next swap).
var RecipientThis = common.BigToAddress(big.NewInt(2))

// SortTokens orders two token addresses as pairs and pools do:
// token0 < token1.
func SortTokens(a, b common.Address) (token0, token1 common.Address) {
	if bytes.Compare(a[:], b[:]) < 0 {
		return a, b
	}
	return b, a
}

// V2PairAddress computes where factory creates (or created) the V2 pair of
// two tokens, as UniswapV2Library.pairFor does: CREATE2 with the salt
// keccak256(token0 ++ token1) and V2PairInitCodeHash.
func V2PairAddress(factory, tokenA, tokenB common.Address) common.Address {
	t0, t1 := SortTokens(tokenA, tokenB)
	return crypto.CreateAddress2(factory, crypto.Keccak256Hash(t0[:], t1[:]), V2PairInitCodeHash[:])
}

// V3PoolAddress computes where factory creates (or created) the V3 pool of
// two tokens and a fee tier, as PoolAddress.computeAddress does: CREATE2
// with the salt keccak256(abi.encode(token0, token1, fee)) and
// V3PoolInitCodeHash.
func V3PoolAddress(factory, tokenA, tokenB common.Address, fee uint32) common.Address {
	t0, t1 := SortTokens(tokenA, tokenB)
	var feeWord common.Hash
	new(big.Int).SetUint64(uint64(fee)).FillBytes(feeWord[:])
	salt := crypto.Keccak256Hash(common.LeftPadBytes(t0[:], 32), common.LeftPadBytes(t1[:], 32), feeWord[:])
	return crypto.CreateAddress2(factory, salt, V3PoolInitCodeHash[:])
}

// MinTick is the lowest tick of a V3 pool (TickMath.MIN_TICK).
const MinTick = -887272

// MaxTick is the highest tick of a V3 pool (TickMath.MAX_TICK).
const MaxTick = 887272

// MinSqrtRatio is the lowest sqrtPriceX96 of a V3 pool
// (TickMath.MIN_SQRT_RATIO, inclusive).
var MinSqrtRatio = big.NewInt(4295128739)

// MaxSqrtRatio bounds a V3 pool's sqrtPriceX96 from above
// (TickMath.MAX_SQRT_RATIO, exclusive).
var MaxSqrtRatio, _ = new(big.Int).SetString("1461446703485210103287273052203988822378723970342", 10)

// feeTiers are the fee tiers Deploy enables, in hundredths of a basis
// point, with their tick spacings: those of Ethereum mainnet.
var feeTiers = []struct {
	fee     uint32
	spacing int32
}{{100, 1}, {500, 10}, {3000, 60}, {10000, 200}}

// FeeTiers lists the fee tiers of a deployment, in hundredths of a basis
// point (100 is 0.01%): 100, 500, 3000 and 10000.
func FeeTiers() []uint32 {
	out := make([]uint32, len(feeTiers))
	for i, t := range feeTiers {
		out[i] = t.fee
	}
	return out
}

// TickSpacing returns the tick spacing of a fee tier of FeeTiers, or false
// for another fee.
func TickSpacing(fee uint32) (int32, bool) {
	for _, t := range feeTiers {
		if t.fee == fee {
			return t.spacing, true
		}
	}
	return 0, false
}

// FullRangeTicks returns the lowest and the highest tick a position can
// use with tickSpacing: the multiples of it nearest to MinTick and MaxTick
// inside the range.
func FullRangeTicks(tickSpacing int32) (lower, upper int32) {
	// Go's division truncates toward zero, which rounds both ends inward.
	return MinTick / tickSpacing * tickSpacing, MaxTick / tickSpacing * tickSpacing
}

// SqrtPriceX96 returns the sqrtPriceX96 of a V3 pool whose price is
// amount1 of token1 per amount0 of token0 (both in base units), rounded
// down: floor(sqrt(amount1 / amount0) * 2^96), computed exactly as
// floor(sqrt(floor(amount1 * 2^192 / amount0))). Both amounts must be
// positive.
func SqrtPriceX96(amount0, amount1 *big.Int) *big.Int {
	ratioX192 := new(big.Int).Lsh(amount1, 192)
	ratioX192.Quo(ratioX192, amount0)
	return ratioX192.Sqrt(ratioX192)
}

// V2AmountOut is what a V2 pair pays for amountIn given its reserves of
// the input and the output token, after the 0.3% fee
// (UniswapV2Library.getAmountOut).
func V2AmountOut(amountIn, reserveIn, reserveOut *big.Int) *big.Int {
	inWithFee := new(big.Int).Mul(amountIn, big.NewInt(997))
	num := new(big.Int).Mul(inWithFee, reserveOut)
	den := new(big.Int).Mul(reserveIn, big.NewInt(1000))
	den.Add(den, inWithFee)
	return num.Quo(num, den)
}
