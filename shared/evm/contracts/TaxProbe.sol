// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./Interfaces.sol";

/// @title TaxProbe
/// @notice Measures a token's real buy and sell tax by a round trip through
/// a V2 router. It is never deployed: a caller runs it with eth_call, placing
/// its runtime code at any unused address with a state override, so nothing
/// it does is kept.
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
