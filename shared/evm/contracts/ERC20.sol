// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title ERC20
/// @notice The ERC-20 base of the project's tokens (wrapped native, stable
/// coins, tax tokens and pair liquidity shares).
/// @dev Storage layout is part of the contract's interface: balanceOf is the
/// mapping at slot 0 and allowance the mapping at slot 1, so an eth_call state
/// override can set a holder's balance at keccak256(abi.encode(holder, 0)).
abstract contract ERC20 {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;
    string public name;
    string public symbol;
    uint8 public immutable decimals;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    /// @notice Lets spender move up to value of the caller's tokens.
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice Moves value tokens from the caller to `to`.
    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @notice Moves value tokens from `from` to `to` within the caller's
    /// allowance. An allowance of type(uint256).max is never decreased.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// @dev The hook that token rules (taxes) override; the default is a plain move.
    function _transfer(address from, address to, uint256 value) internal virtual {
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal {
        uint256 held = balanceOf[from];
        require(held >= value, "ERC20: insufficient balance");
        unchecked {
            balanceOf[from] = held - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _burn(address from, uint256 value) internal {
        uint256 held = balanceOf[from];
        require(held >= value, "ERC20: burn exceeds balance");
        unchecked {
            balanceOf[from] = held - value;
            totalSupply -= value;
        }
        emit Transfer(from, address(0), value);
    }
}
