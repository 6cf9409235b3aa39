// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./Interfaces.sol";

/// @notice The swap SwapRouter02 (IV3SwapRouter) makes in one V3 pool.
interface ISwapRouter02Like {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut);
}

/// @notice QuoterV2's quote of a swap in one V3 pool.
interface IQuoterV2Like {
    struct QuoteExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }

    function quoteExactInputSingle(QuoteExactInputSingleParams memory params)
        external
        returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate);
}

/// @title TaxProbe
/// @notice Measures a token's real buy and sell tax by a round trip through
/// a V2 router (probe) or through SwapRouter02 in one V3 pool (probeV3). It
/// is never deployed: a caller runs it with eth_call, placing its runtime
/// code at any unused address with a state override, so nothing it does is
/// kept.
///
/// Native quote (quote == router.WETH() or zero): give the probe address a
/// native balance of at least amountIn (a state override "balance"), or send
/// amountIn as the call's value.
///
/// Stable (ERC-20) quote: either give the probe address a native balance
/// large enough to buy amountIn of the quote through the router's
/// [WETH, quote] pair, which it does first for any shortfall, or override the
/// quote token's balance of the probe address in storage (for the project's
/// tokens: slot keccak256(abi.encode(probe, uint256(0)))). A balance override
/// of 2^128 wei on the probe address covers both quotes on the local chains.
///
/// The buy tax compares the tokens received with router.getAmountsOut for
/// amountIn; the sell tax sells everything received and compares the quote
/// received with getAmountsOut for the tokens sold. Both are in basis points,
/// rounded to the nearest; a swap that reverts or pays nothing is 10000.
contract TaxProbe {
    uint256 private constant BPS = 10_000;

    /// @dev The router pays native coin out on sells.
    receive() external payable {}

    /// @notice Buys token with amountIn of quote through router, sells it all
    /// back, and returns the taxes taken on each leg in basis points.
    function probe(address router, address token, address quote, uint256 amountIn)
        external
        payable
        returns (uint256 buyTaxBps, uint256 sellTaxBps)
    {
        IRouterLike r = IRouterLike(router);
        address weth = r.WETH();
        bool native = quote == address(0) || quote == weth;
        if (native) {
            quote = weth;
        } else {
            _acquire(r, weth, quote, amountIn);
        }

        address[] memory path = new address[](2);
        path[0] = quote;
        path[1] = token;
        uint256 expected = r.getAmountsOut(amountIn, path)[1];
        uint256 received = _buy(r, native, amountIn, path);
        buyTaxBps = _lossBps(expected, received);
        if (received == 0) {
            return (buyTaxBps, BPS);
        }

        path[0] = token;
        path[1] = quote;
        try r.getAmountsOut(received, path) returns (uint256[] memory amounts) {
            expected = amounts[1];
        } catch {
            return (buyTaxBps, BPS);
        }
        sellTaxBps = _lossBps(expected, _sell(r, native, received, path));
    }

    /// @notice Buys token with amountIn of quote in the V3 pool of fee through
    /// SwapRouter02, sells it all back in the same pool, and returns the
    /// taxes taken on each leg in basis points. Each leg's expectation is
    /// QuoterV2's quote of it just before it. v2Router names the wrapped
    /// native coin (its WETH()) and buys a stable quote first, as probe does.
    /// A V3 pool refuses a token that arrives short, so a token taxed on its
    /// way into the pool cannot be sold there: its sell tax is 10000.
    function probeV3(
        address v2Router,
        address swapRouter,
        address quoter,
        address token,
        address quote,
        uint24 fee,
        uint256 amountIn
    ) external payable returns (uint256 buyTaxBps, uint256 sellTaxBps) {
        IRouterLike r = IRouterLike(v2Router);
        address weth = r.WETH();
        bool native = quote == address(0) || quote == weth;
        if (native) {
            quote = weth;
        } else {
            _acquire(r, weth, quote, amountIn);
        }
        uint256 expected = _quoteV3(quoter, quote, token, fee, amountIn);
        if (expected == 0) {
            return (BPS, BPS);
        }
        uint256 received = _swapV3(swapRouter, native, quote, token, fee, amountIn);
        buyTaxBps = _lossBps(expected, received);
        if (received == 0) {
            return (buyTaxBps, BPS);
        }
        expected = _quoteV3(quoter, token, quote, fee, received);
        if (expected == 0) {
            return (buyTaxBps, BPS);
        }
        sellTaxBps = _lossBps(expected, _swapV3(swapRouter, false, token, quote, fee, received));
    }

    /// @dev QuoterV2's output for amountIn, 0 when it cannot quote (no pool).
    function _quoteV3(address quoter, address tokenIn, address tokenOut, uint24 fee, uint256 amountIn)
        private
        returns (uint256)
    {
        try IQuoterV2Like(quoter).quoteExactInputSingle(
            IQuoterV2Like.QuoteExactInputSingleParams({
                tokenIn: tokenIn,
                tokenOut: tokenOut,
                amountIn: amountIn,
                fee: fee,
                sqrtPriceLimitX96: 0
            })
        ) returns (uint256 amountOut, uint160, uint32, uint256) {
            return amountOut;
        } catch {
            return 0;
        }
    }

    /// @dev Swaps amountIn of tokenIn for tokenOut in one V3 pool, paying
    /// with native coin when payNative (SwapRouter02 wraps it), and returns
    /// what arrived, 0 when the swap reverts.
    function _swapV3(address router, bool payNative, address tokenIn, address tokenOut, uint24 fee, uint256 amountIn)
        private
        returns (uint256)
    {
        if (!payNative && !_approve(tokenIn, router, amountIn)) return 0;
        uint256 before = IERC20Like(tokenOut).balanceOf(address(this));
        ISwapRouter02Like.ExactInputSingleParams memory p = ISwapRouter02Like.ExactInputSingleParams({
            tokenIn: tokenIn,
            tokenOut: tokenOut,
            fee: fee,
            recipient: address(this),
            amountIn: amountIn,
            amountOutMinimum: 0,
            sqrtPriceLimitX96: 0
        });
        try ISwapRouter02Like(router).exactInputSingle{value: payNative ? amountIn : 0}(p) {}
        catch {
            return 0;
        }
        return IERC20Like(tokenOut).balanceOf(address(this)) - before;
    }

    /// @dev Tops the probe's quote balance up to amount with native coin.
    function _acquire(IRouterLike r, address weth, address quote, uint256 amount) private {
        uint256 held = IERC20Like(quote).balanceOf(address(this));
        if (held >= amount) return;
        address[] memory path = new address[](2);
        path[0] = weth;
        path[1] = quote;
        uint256 cost = r.getAmountsIn(amount - held, path)[0];
        r.swapExactETHForTokensSupportingFeeOnTransferTokens{value: cost}(
            amount - held, path, address(this), block.timestamp
        );
    }

    /// @dev Returns the tokens received, 0 when the buy reverts.
    function _buy(IRouterLike r, bool native, uint256 amountIn, address[] memory path) private returns (uint256) {
        IERC20Like token = IERC20Like(path[1]);
        uint256 before = token.balanceOf(address(this));
        if (native) {
            try r.swapExactETHForTokensSupportingFeeOnTransferTokens{value: amountIn}(
                0, path, address(this), block.timestamp
            ) {} catch {
                return 0;
            }
        } else {
            _approve(path[0], address(r), amountIn);
            try r.swapExactTokensForTokensSupportingFeeOnTransferTokens(
                amountIn, 0, path, address(this), block.timestamp
            ) {} catch {
                return 0;
            }
        }
        return token.balanceOf(address(this)) - before;
    }

    /// @dev Returns the quote received, 0 when the sell reverts.
    function _sell(IRouterLike r, bool native, uint256 amount, address[] memory path) private returns (uint256) {
        if (!_approve(path[0], address(r), amount)) return 0;
        uint256 before = native ? address(this).balance : IERC20Like(path[1]).balanceOf(address(this));
        if (native) {
            try r.swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, path, address(this), block.timestamp) {}
            catch {
                return 0;
            }
            return address(this).balance - before;
        }
        try r.swapExactTokensForTokensSupportingFeeOnTransferTokens(amount, 0, path, address(this), block.timestamp) {}
        catch {
            return 0;
        }
        return IERC20Like(path[1]).balanceOf(address(this)) - before;
    }

    /// @dev approve through a plain call, so that tokens that return nothing
    /// (or revert) are handled.
    function _approve(address token, address spender, uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Like.approve, (spender, amount)));
        return ok && (ret.length == 0 || (ret.length == 32 && abi.decode(ret, (bool))));
    }

    function _lossBps(uint256 expected, uint256 got) private pure returns (uint256) {
        if (expected == 0) return BPS;
        if (got >= expected) return 0;
        return ((expected - got) * BPS + expected / 2) / expected;
    }
}
