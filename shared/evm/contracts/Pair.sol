// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";
import "./Interfaces.sol";

/// @title Pair
/// @notice A Uniswap-V2-compatible constant-product pair: reserves x and y
/// with x*y=k, a 0.3% fee on input, liquidity shares as an ERC-20, and the
/// V2 functions and events (mint, burn, swap, skim, sync; Mint, Burn, Swap,
/// Sync). Callers send tokens first and then call mint or swap, which read
/// the pair's balances against its reserves.
contract Pair is ERC20 {
    /// @notice Shares locked forever at the first mint, so that the share
    /// price can never be pushed to a value that rounds every deposit away.
    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    address public immutable factory;
    address public token0;
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    uint256 private unlocked = 1;

    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    constructor() ERC20("V2 Liquidity", "V2-LP", 18) {
        factory = msg.sender;
    }

    modifier lock() {
        require(unlocked == 1, "Pair: LOCKED");
        unlocked = 0;
        _;
        unlocked = 1;
    }

    /// @notice Sets the tokens; called once by the factory.
    function initialize(address token0_, address token1_) external {
        require(msg.sender == factory, "Pair: FORBIDDEN");
        require(token0 == address(0), "Pair: INITIALIZED");
        token0 = token0_;
        token1 = token1_;
    }

    /// @notice The reserves and the time of their last update.
    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// @notice Mints shares for the tokens sent since the last update.
    function mint(address to) external lock returns (uint256 liquidity) {
        (uint112 r0, uint112 r1,) = getReserves();
        uint256 balance0 = IERC20Like(token0).balanceOf(address(this));
        uint256 balance1 = IERC20Like(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - r0;
        uint256 amount1 = balance1 - r1;
        uint256 supply = totalSupply;
        if (supply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mint(address(0), MINIMUM_LIQUIDITY);
        } else {
            uint256 by0 = amount0 * supply / r0;
            uint256 by1 = amount1 * supply / r1;
            liquidity = by0 < by1 ? by0 : by1;
        }
        require(liquidity > 0, "Pair: INSUFFICIENT_LIQUIDITY_MINTED");
        _mint(to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// @notice Burns the shares sent to the pair and pays out both tokens.
    function burn(address to) external lock returns (uint256 amount0, uint256 amount1) {
        address t0 = token0;
        address t1 = token1;
        uint256 balance0 = IERC20Like(t0).balanceOf(address(this));
        uint256 balance1 = IERC20Like(t1).balanceOf(address(this));
        uint256 liquidity = balanceOf[address(this)];
        uint256 supply = totalSupply;
        amount0 = liquidity * balance0 / supply;
        amount1 = liquidity * balance1 / supply;
        require(amount0 > 0 && amount1 > 0, "Pair: INSUFFICIENT_LIQUIDITY_BURNED");
        _burn(address(this), liquidity);
        _send(t0, to, amount0);
        _send(t1, to, amount1);
        _update(IERC20Like(t0).balanceOf(address(this)), IERC20Like(t1).balanceOf(address(this)));
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// @notice Pays out the requested amounts and checks, after the optional
    /// callback, that the input received keeps x*y at least k after the fee.
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external lock {
        require(amount0Out > 0 || amount1Out > 0, "Pair: INSUFFICIENT_OUTPUT_AMOUNT");
        (uint112 r0, uint112 r1,) = getReserves();
        require(amount0Out < r0 && amount1Out < r1, "Pair: INSUFFICIENT_LIQUIDITY");

        uint256 balance0;
        uint256 balance1;
        {
            address t0 = token0;
            address t1 = token1;
            require(to != t0 && to != t1, "Pair: INVALID_TO");
            if (amount0Out > 0) _send(t0, to, amount0Out);
            if (amount1Out > 0) _send(t1, to, amount1Out);
            if (data.length > 0) IPairCallee(to).uniswapV2Call(msg.sender, amount0Out, amount1Out, data);
            balance0 = IERC20Like(t0).balanceOf(address(this));
            balance1 = IERC20Like(t1).balanceOf(address(this));
        }
        uint256 amount0In = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        uint256 amount1In = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "Pair: INSUFFICIENT_INPUT_AMOUNT");
        {
            uint256 adjusted0 = balance0 * 1000 - amount0In * 3;
            uint256 adjusted1 = balance1 * 1000 - amount1In * 3;
            require(adjusted0 * adjusted1 >= uint256(r0) * uint256(r1) * 1_000_000, "Pair: K");
        }
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    /// @notice Sends any balance above the reserves to `to`.
    function skim(address to) external lock {
        address t0 = token0;
        address t1 = token1;
        _send(t0, to, IERC20Like(t0).balanceOf(address(this)) - reserve0);
        _send(t1, to, IERC20Like(t1).balanceOf(address(this)) - reserve1);
    }

    /// @notice Sets the reserves to the balances.
    function sync() external lock {
        _update(IERC20Like(token0).balanceOf(address(this)), IERC20Like(token1).balanceOf(address(this)));
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "Pair: OVERFLOW");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    function _send(address token, address to, uint256 value) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Like.transfer, (to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "Pair: TRANSFER_FAILED");
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
