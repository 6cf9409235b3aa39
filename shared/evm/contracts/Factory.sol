// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./Pair.sol";

/// @title Factory
/// @notice Creates one Pair per token pair, at a CREATE2 address salted with
/// keccak256(abi.encodePacked(token0, token1)) (token0 < token1), so that a
/// pair's address can be computed off chain from pairCodeHash().
contract Factory {
    address public feeTo;
    address public feeToSetter;

    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count);

    constructor(address feeToSetter_) {
        feeToSetter = feeToSetter_;
    }

    /// @notice The number of pairs created.
    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    /// @notice keccak256 of the Pair creation code, for CREATE2 addresses.
    function pairCodeHash() external pure returns (bytes32) {
        return keccak256(type(Pair).creationCode);
    }

    /// @notice Creates the pair of two tokens.
    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "Factory: IDENTICAL_ADDRESSES");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "Factory: ZERO_ADDRESS");
        require(getPair[token0][token1] == address(0), "Factory: PAIR_EXISTS");
        pair = address(new Pair{salt: keccak256(abi.encodePacked(token0, token1))}());
        Pair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }

    /// @notice Sets the protocol fee recipient (kept for interface
    /// compatibility; the pairs take no protocol fee).
    function setFeeTo(address feeTo_) external {
        require(msg.sender == feeToSetter, "Factory: FORBIDDEN");
        feeTo = feeTo_;
    }

    /// @notice Hands the fee setting to another address.
    function setFeeToSetter(address feeToSetter_) external {
        require(msg.sender == feeToSetter, "Factory: FORBIDDEN");
        feeToSetter = feeToSetter_;
    }
}
