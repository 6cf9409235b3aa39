// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./Interfaces.sol";

/// @title Router
/// @notice A router with the Uniswap V2 router's signatures over the
/// project's Factory and Pair: liquidity, quotes along a path, exact-input
/// swaps, their variants for fee-on-transfer tokens, and three "Tipped"
/// variants that pay the block builder (block.coinbase) in the same
/// transaction.
contract Router {
    address public immutable factory;
    address public immutable WETH;

    /// @notice A tip paid to the block builder.
    event BuilderTip(address indexed builder, uint256 amount);

    constructor(address factory_, address weth_) {
        factory = factory_;
        WETH = weth_;
    }

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "Router: EXPIRED");
        _;
    }

    /// @dev Native coin arrives only from unwrapping.
    receive() external payable {
        require(msg.sender == WETH, "Router: NOT_WETH");
    }

    // ---- liquidity

    /// @notice Adds liquidity to the pair of tokenA and tokenB (created if
    /// missing) at the current price, within the given minimums.
    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        (amountA, amountB) = _liquidityAmounts(tokenA, tokenB, amountADesired, amountBDesired, amountAMin, amountBMin);
        address pair = _pairFor(tokenA, tokenB);
        _pull(tokenA, msg.sender, pair, amountA);
        _pull(tokenB, msg.sender, pair, amountB);
        liquidity = IPair(pair).mint(to);
    }

    /// @notice Adds liquidity to the pair of token and the wrapped native
    /// coin, paid with msg.value; the unused native coin is refunded.
    function addLiquidityETH(
        address token,
        uint256 amountTokenDesired,
        uint256 amountTokenMin,
        uint256 amountETHMin,
        address to,
        uint256 deadline
    ) external payable ensure(deadline) returns (uint256 amountToken, uint256 amountETH, uint256 liquidity) {
        (amountToken, amountETH) =
            _liquidityAmounts(token, WETH, amountTokenDesired, msg.value, amountTokenMin, amountETHMin);
        address pair = _pairFor(token, WETH);
        _pull(token, msg.sender, pair, amountToken);
        IWrappedNative(WETH).deposit{value: amountETH}();
        require(IWrappedNative(WETH).transfer(pair, amountETH), "Router: WETH_TRANSFER_FAILED");
        liquidity = IPair(pair).mint(to);
        if (msg.value > amountETH) _sendNative(msg.sender, msg.value - amountETH);
    }

    function _liquidityAmounts(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin
    ) private returns (uint256 amountA, uint256 amountB) {
        if (IFactory(factory).getPair(tokenA, tokenB) == address(0)) {
            IFactory(factory).createPair(tokenA, tokenB);
        }
        (uint256 reserveA, uint256 reserveB) = getReserves(tokenA, tokenB);
        if (reserveA == 0 && reserveB == 0) {
            return (amountADesired, amountBDesired);
        }
        uint256 bOptimal = quote(amountADesired, reserveA, reserveB);
        if (bOptimal <= amountBDesired) {
            require(bOptimal >= amountBMin, "Router: INSUFFICIENT_B_AMOUNT");
            return (amountADesired, bOptimal);
        }
        uint256 aOptimal = quote(amountBDesired, reserveB, reserveA);
        require(aOptimal <= amountADesired && aOptimal >= amountAMin, "Router: INSUFFICIENT_A_AMOUNT");
        return (aOptimal, amountBDesired);
    }

    // ---- quotes

    /// @notice The reserves of the pair of tokenA and tokenB, in that order.
    function getReserves(address tokenA, address tokenB) public view returns (uint256 reserveA, uint256 reserveB) {
        (uint112 r0, uint112 r1,) = IPair(_pairFor(tokenA, tokenB)).getReserves();
        (reserveA, reserveB) = tokenA < tokenB ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    /// @notice amountA valued in B at the reserves' price, without fee.
    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) public pure returns (uint256) {
        require(amountA > 0, "Router: INSUFFICIENT_AMOUNT");
        require(reserveA > 0 && reserveB > 0, "Router: INSUFFICIENT_LIQUIDITY");
        return amountA * reserveB / reserveA;
    }

    /// @notice The output of one hop for amountIn, after the 0.3% fee.
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountIn > 0, "Router: INSUFFICIENT_INPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > 0, "Router: INSUFFICIENT_LIQUIDITY");
        uint256 inWithFee = amountIn * 997;
        return inWithFee * reserveOut / (reserveIn * 1000 + inWithFee);
    }

    /// @notice The input of one hop that buys amountOut, after the 0.3% fee.
    function getAmountIn(uint256 amountOut, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountOut > 0, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > amountOut, "Router: INSUFFICIENT_LIQUIDITY");
        return reserveIn * amountOut * 1000 / ((reserveOut - amountOut) * 997) + 1;
    }

    /// @notice The amounts along path for an exact input.
    function getAmountsOut(uint256 amountIn, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "Router: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i < path.length - 1; i++) {
            (uint256 rIn, uint256 rOut) = getReserves(path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], rIn, rOut);
        }
    }

    /// @notice The amounts along path for an exact output.
    function getAmountsIn(uint256 amountOut, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "Router: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[path.length - 1] = amountOut;
        for (uint256 i = path.length - 1; i > 0; i--) {
            (uint256 rIn, uint256 rOut) = getReserves(path[i - 1], path[i]);
            amounts[i - 1] = getAmountIn(amounts[i], rIn, rOut);
        }
    }

    // ---- exact-input swaps

    /// @notice Swaps msg.value of native coin along path (path[0] == WETH).
    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        ensure(deadline)
        returns (uint256[] memory amounts)
    {
        require(path[0] == WETH, "Router: INVALID_PATH");
        amounts = getAmountsOut(msg.value, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        IWrappedNative(WETH).deposit{value: amounts[0]}();
        require(IWrappedNative(WETH).transfer(_pairFor(path[0], path[1]), amounts[0]), "Router: WETH_TRANSFER_FAILED");
        _swap(amounts, path, to);
    }

    /// @notice Swaps amountIn of path[0] for native coin (path[last] == WETH).
    function swapExactTokensForETH(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        require(path[path.length - 1] == WETH, "Router: INVALID_PATH");
        amounts = getAmountsOut(amountIn, path);
        uint256 out = amounts[amounts.length - 1];
        require(out >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        _pull(path[0], msg.sender, _pairFor(path[0], path[1]), amounts[0]);
        _swap(amounts, path, address(this));
        IWrappedNative(WETH).withdraw(out);
        _sendNative(to, out);
    }

    /// @notice Swaps amountIn of path[0] along path.
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        _pull(path[0], msg.sender, _pairFor(path[0], path[1]), amounts[0]);
        _swap(amounts, path, to);
    }

    // ---- fee-on-transfer swaps: amounts are read from balances, and the
    // minimum is checked on what the recipient actually received.

    /// @notice swapExactETHForTokens for tokens that tax transfers.
    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable ensure(deadline) {
        _swapExactETHSupporting(msg.value, amountOutMin, path, to);
    }

    /// @notice swapExactTokensForETH for tokens that tax transfers.
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) {
        _swapExactTokensForETHSupporting(amountIn, amountOutMin, path, to);
    }

    /// @notice swapExactTokensForTokens for tokens that tax transfers.
    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) {
        _swapExactTokensSupporting(amountIn, amountOutMin, path, to);
    }

    // ---- tipped swaps: the same, plus a tip in native coin to block.coinbase

    /// @notice Swaps msg.value - tip of native coin along path and pays tip
    /// to the block builder.
    function swapExactETHForTokensSupportingFeeOnTransferTokensTipped(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline,
        uint256 tip
    ) external payable ensure(deadline) {
        require(msg.value > tip, "Router: TIP_EXCEEDS_VALUE");
        _swapExactETHSupporting(msg.value - tip, amountOutMin, path, to);
        _tipBuilder(tip);
    }

    /// @notice Swaps amountIn of path[0] for native coin and pays msg.value
    /// to the block builder.
    function swapExactTokensForETHSupportingFeeOnTransferTokensTipped(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable ensure(deadline) {
        _swapExactTokensForETHSupporting(amountIn, amountOutMin, path, to);
        _tipBuilder(msg.value);
    }

    /// @notice Swaps amountIn of path[0] along path and pays msg.value to
    /// the block builder.
    function swapExactTokensForTokensSupportingFeeOnTransferTokensTipped(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable ensure(deadline) {
        _swapExactTokensSupporting(amountIn, amountOutMin, path, to);
        _tipBuilder(msg.value);
    }

    // ---- internals

    function _swapExactETHSupporting(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to)
        private
    {
        require(path[0] == WETH, "Router: INVALID_PATH");
        IWrappedNative(WETH).deposit{value: amountIn}();
        require(IWrappedNative(WETH).transfer(_pairFor(path[0], path[1]), amountIn), "Router: WETH_TRANSFER_FAILED");
        address last = path[path.length - 1];
        uint256 before = IERC20Like(last).balanceOf(to);
        _swapSupporting(path, to);
        require(IERC20Like(last).balanceOf(to) - before >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
    }

    function _swapExactTokensForETHSupporting(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to
    ) private {
        require(path[path.length - 1] == WETH, "Router: INVALID_PATH");
        _pull(path[0], msg.sender, _pairFor(path[0], path[1]), amountIn);
        _swapSupporting(path, address(this));
        uint256 out = IERC20Like(WETH).balanceOf(address(this));
        require(out >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        IWrappedNative(WETH).withdraw(out);
        _sendNative(to, out);
    }

    function _swapExactTokensSupporting(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to)
        private
    {
        _pull(path[0], msg.sender, _pairFor(path[0], path[1]), amountIn);
        address last = path[path.length - 1];
        uint256 before = IERC20Like(last).balanceOf(to);
        _swapSupporting(path, to);
        require(IERC20Like(last).balanceOf(to) - before >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
    }

    /// @dev Each hop's input was already sent to its pair; amounts[i+1] is
    /// what hop i pays out, to the next pair or to the recipient.
    function _swap(uint256[] memory amounts, address[] calldata path, address to) private {
        for (uint256 i; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            uint256 out = amounts[i + 1];
            (uint256 out0, uint256 out1) = input < output ? (uint256(0), out) : (out, uint256(0));
            address recipient = i < path.length - 2 ? _pairFor(output, path[i + 2]) : to;
            IPair(_pairFor(input, output)).swap(out0, out1, recipient, new bytes(0));
        }
    }

    /// @dev Like _swap, but each hop's input is what its pair actually
    /// received (its balance above the reserve), so transfer taxes are
    /// accounted for.
    function _swapSupporting(address[] calldata path, address to) private {
        for (uint256 i; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            IPair pair = IPair(_pairFor(input, output));
            uint256 out;
            {
                (uint112 r0, uint112 r1,) = pair.getReserves();
                (uint256 rIn, uint256 rOut) = input < output ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
                uint256 received = IERC20Like(input).balanceOf(address(pair)) - rIn;
                out = getAmountOut(received, rIn, rOut);
            }
            (uint256 out0, uint256 out1) = input < output ? (uint256(0), out) : (out, uint256(0));
            address recipient = i < path.length - 2 ? _pairFor(output, path[i + 2]) : to;
            pair.swap(out0, out1, recipient, new bytes(0));
        }
    }

    function _pairFor(address tokenA, address tokenB) private view returns (address pair) {
        pair = IFactory(factory).getPair(tokenA, tokenB);
        require(pair != address(0), "Router: NO_PAIR");
    }

    function _pull(address token, address from, address to, uint256 value) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Like.transferFrom, (from, to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "Router: TRANSFER_FROM_FAILED");
    }

    function _sendNative(address to, uint256 value) private {
        (bool ok,) = to.call{value: value}("");
        require(ok, "Router: NATIVE_TRANSFER_FAILED");
    }

    function _tipBuilder(uint256 tip) private {
        if (tip == 0) return;
        _sendNative(block.coinbase, tip);
        emit BuilderTip(block.coinbase, tip);
    }
}
