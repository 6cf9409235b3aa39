// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";

/// @title Stable
/// @notice A stable coin of the local chains (USDC, USDT, USD1, USDG) with
/// the decimals of the real one and a mint reserved to its owner.
contract Stable is ERC20 {
    address public owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Stable: caller is not the owner");
        _;
    }

    /// @notice Creates value new coins for `to`.
    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }

    /// @notice Hands the mint to another owner.
    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
