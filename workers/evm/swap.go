package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// unsigned is one transaction to sign.
type unsigned struct {
	kind  callKind
	to    common.Address
	value *big.Int
	data  []byte
	gas   uint64
}

// swapTx builds a wallet's exact-input swap of spend on the pool, paying
// at least minOut, valid until deadline, through the pool's official
// router:
//
//   - a V2 pair through UniswapV2Router02's fee-on-transfer variants
//     (swapExactETHForTokens..., swapExactTokensForETH...,
//     swapExactTokensForTokensSupportingFeeOnTransferTokens), which check
//     what arrives in the wallet, so a taxed token trades too;
//   - a V3 pool through SwapRouter02.multicall(deadline, calls) with one
//     exactInputSingle: a native buy sends the amount as the value, which
//     the router wraps, and refundETH returns what the pool did not take
//     (its liquidity ran out first); a native sell swaps into the router itself
//     (uniswap.RecipientThis) and unwrapWETH9 pays the wallet, at least
//     minOut; a stable's swap pays the wallet directly.
func (p *pool) swapTx(side wire.Side, wallet common.Address, spend, minOut, deadline *big.Int) *unsigned {
	if p.v3 {
		return p.v3Swap(side, wallet, spend, minOut, deadline)
	}
	return p.v2Swap(side, wallet, spend, minOut, deadline)
}

func (p *pool) v2Swap(side wire.Side, wallet common.Address, spend, minOut, deadline *big.Int) *unsigned {
	u := &unsigned{to: p.ch.Router, value: new(big.Int)}
	path := []common.Address{p.in(side), p.outToken(side)}
	switch {
	case side == wire.Buy && p.native:
		u.kind, u.value = kindV2BuyNative, spend
		u.data = pack(router02ABI, "swapExactETHForTokensSupportingFeeOnTransferTokens", minOut, path, wallet, deadline)
	case side == wire.Sell && p.native:
		u.kind = kindV2SellNative
		u.data = pack(router02ABI, "swapExactTokensForETHSupportingFeeOnTransferTokens", spend, minOut, path, wallet, deadline)
	default:
		u.kind = kindV2Tokens
		u.data = pack(router02ABI, "swapExactTokensForTokensSupportingFeeOnTransferTokens", spend, minOut, path, wallet, deadline)
	}
	return u
}

func (p *pool) v3Swap(side wire.Side, wallet common.Address, spend, minOut, deadline *big.Int) *unsigned {
	u := &unsigned{to: p.ch.SwapRouter02, value: new(big.Int), kind: kindV3Tokens}
	params := uniswap.IV3SwapRouterExactInputSingleParams{
		TokenIn:           p.in(side),
		TokenOut:          p.outToken(side),
		Fee:               new(big.Int).SetUint64(uint64(p.fee)),
		Recipient:         wallet,
		AmountIn:          spend,
		AmountOutMinimum:  minOut,
		SqrtPriceLimitX96: new(big.Int),
	}
	calls := [][]byte{}
	switch {
	case side == wire.Buy && p.native:
		u.kind, u.value = kindV3BuyNative, spend
	case side == wire.Sell && p.native:
		u.kind = kindV3SellNative
		params.Recipient = uniswap.RecipientThis
	}
	calls = append(calls, packSig(swapRouterABI, sigExactInputSingle, params))
	switch u.kind {
	case kindV3SellNative:
		calls = append(calls, packSig(swapRouterABI, sigUnwrapWETH9, minOut, wallet))
	case kindV3BuyNative:
		// A pool whose liquidity runs out before the amount is spent
		// takes only what it used; the rest of the value stays in the
		// router, where anyone's refundETH would take it. It goes back
		// to the wallet in the same call.
		calls = append(calls, pack(swapRouterABI, "refundETH"))
	}
	u.data = packSig(swapRouterABI, sigMulticall, deadline, calls)
	return u
}

// approveTx is a wallet's approval of spender for all of its token: once
// granted, a wallet never approves that router for that token again.
func approveTx(token, spender common.Address) *unsigned {
	return &unsigned{kind: kindApprove, to: token, value: new(big.Int), data: pack(erc20ABI, "approve", spender, maxUint256)}
}

// resetTx is a wallet's approval of none of its token for spender, which
// clears a partial allowance before approveTx for a token that refuses
// to change one non-zero allowance to another (Tether's USDT).
func resetTx(token, spender common.Address) *unsigned {
	return &unsigned{kind: kindApprove, to: token, value: new(big.Int), data: pack(erc20ABI, "approve", spender, new(big.Int))}
}

// tipTx is a processor tip: a plain transfer of the native coin to the
// chain's tip address, inside the wallet's bundle.
func tipTx(to common.Address, amount *big.Int) *unsigned {
	return &unsigned{kind: kindTip, to: to, value: amount}
}
