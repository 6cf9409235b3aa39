// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";

/// @title WrappedNative
/// @notice The chain's native coin as an ERC-20, one for one: deposit (or a
/// plain transfer of native coin) mints, withdraw burns and pays out.
contract WrappedNative is ERC20 {
    event Deposit(address indexed to, uint256 value);
    event Withdrawal(address indexed from, uint256 value);

    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_, 18) {}

    receive() external payable {
        deposit();
    }

    /// @notice Wraps msg.value for the caller.
    function deposit() public payable {
        totalSupply += msg.value;
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
    }

    /// @notice Unwraps value and sends the native coin to the caller.
    function withdraw(uint256 value) external {
        uint256 held = balanceOf[msg.sender];
        require(held >= value, "WrappedNative: insufficient balance");
        unchecked {
            balanceOf[msg.sender] = held - value;
            totalSupply -= value;
        }
        emit Withdrawal(msg.sender, value);
        (bool ok,) = msg.sender.call{value: value}("");
        require(ok, "WrappedNative: native transfer failed");
    }
}
