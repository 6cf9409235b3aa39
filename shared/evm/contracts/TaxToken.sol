// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";
import "./Interfaces.sol";

/// @title TaxToken
/// @notice An 18-decimal ERC-20 that takes a buy tax on transfers out of a
/// registered pair and a sell tax on transfers into one, in basis points of
/// the amount, and sends the tax to a tax wallet. The owner, the tax wallet
/// and the token itself are exempt. A sell tax of 10000 makes the token
/// impossible to sell (the pair receives nothing).
contract TaxToken is ERC20 {
    /// @notice Basis points in one whole.
    uint256 public constant MAX_BPS = 10_000;

    address public owner;
    address public taxWallet;
    uint256 public buyTaxBps;
    uint256 public sellTaxBps;
    /// @notice The pair created with the token (zero when none was).
    address public pair;
    mapping(address => bool) public isPair;
    mapping(address => bool) public isExempt;

    event TaxesChanged(uint256 buyTaxBps, uint256 sellTaxBps);
    event PairSet(address indexed pair, bool registered);
    event ExemptSet(address indexed account, bool exempt);
    event TaxWalletChanged(address indexed taxWallet);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @param supply minted to the deployer, in base units.
    /// @param taxWallet_ receives the taxes; zero means the deployer.
    /// @param factory when not zero, the pair of this token and quote is
    /// created on it and registered as a taxed pair.
    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        uint256 buyTaxBps_,
        uint256 sellTaxBps_,
        address taxWallet_,
        address factory,
        address quote
    ) ERC20(name_, symbol_, 18) {
        require(buyTaxBps_ <= MAX_BPS && sellTaxBps_ <= MAX_BPS, "TaxToken: tax above 100%");
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
        taxWallet = taxWallet_ == address(0) ? msg.sender : taxWallet_;
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        emit TaxesChanged(buyTaxBps_, sellTaxBps_);
        _setExempt(msg.sender, true);
        _setExempt(taxWallet, true);
        _setExempt(address(this), true);
        if (factory != address(0)) {
            address created = IFactory(factory).createPair(address(this), quote);
            pair = created;
            _setPair(created, true);
        }
        _mint(msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "TaxToken: caller is not the owner");
        _;
    }

    /// @notice Sets the taxes in basis points (at most 10000 each).
    function setTaxes(uint256 buyBps, uint256 sellBps) external onlyOwner {
        require(buyBps <= MAX_BPS && sellBps <= MAX_BPS, "TaxToken: tax above 100%");
        buyTaxBps = buyBps;
        sellTaxBps = sellBps;
        emit TaxesChanged(buyBps, sellBps);
    }

    /// @notice Registers or unregisters a pair whose transfers are taxed.
    function setPair(address account, bool registered) external onlyOwner {
        _setPair(account, registered);
    }

    /// @notice Exempts an address from the taxes, or ends the exemption.
    function setExempt(address account, bool exempt) external onlyOwner {
        _setExempt(account, exempt);
    }

    /// @notice Sends future taxes to another wallet.
    function setTaxWallet(address wallet) external onlyOwner {
        require(wallet != address(0), "TaxToken: zero tax wallet");
        taxWallet = wallet;
        _setExempt(wallet, true);
        emit TaxWalletChanged(wallet);
    }

    /// @notice Creates tokens (the local chains fund wallets with it).
    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }

    /// @notice Hands the owner's rights to another address.
    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _setPair(address account, bool registered) private {
        isPair[account] = registered;
        emit PairSet(account, registered);
    }

    function _setExempt(address account, bool exempt) private {
        isExempt[account] = exempt;
        emit ExemptSet(account, exempt);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 bps;
        if (isPair[from] && !isExempt[to]) {
            bps = buyTaxBps;
        } else if (isPair[to] && !isExempt[from]) {
            bps = sellTaxBps;
        }
        uint256 tax = value * bps / MAX_BPS;
        if (tax > 0) {
            _move(from, taxWallet, tax);
        }
        _move(from, to, value - tax);
    }
}
