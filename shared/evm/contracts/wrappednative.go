// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// WrappedNativeMetaData contains all meta data concerning the WrappedNative contract.
var WrappedNativeMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Deposit\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b50604051610b7d380380610b7d83398101604081905261002e916100f9565b81816012600361003e84826101ed565b50600461004b83826101ed565b5060ff16608052506102ab92505050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f83011261007f575f5ffd5b81516001600160401b038111156100985761009861005c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100c6576100c661005c565b6040528181528382016020018510156100dd575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f6040838503121561010a575f5ffd5b82516001600160401b0381111561011f575f5ffd5b61012b85828601610070565b602085015190935090506001600160401b03811115610148575f5ffd5b61015485828601610070565b9150509250929050565b600181811c9082168061017257607f821691505b60208210810361019057634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156101e857828211156101e857805f5260205f20601f840160051c60208510156101c157505f5b90810190601f840160051c035f5b818110156101e4575f838201556001016101cf565b5050505b505050565b81516001600160401b038111156102065761020661005c565b61021a81610214845461015e565b84610196565b6020601f82116001811461024c575f83156102355750848201515b5f19600385901b1c1916600184901b1784556102a4565b5f84815260208120601f198516915b8281101561027b578785015182556020948501946001909201910161025b565b508482101561029857868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b6080516108ba6102c35f395f61017b01526108ba5ff3fe60806040526004361061009d575f3560e01c8063313ce56711610062578063313ce5671461016a57806370a08231146101af57806395d89b41146101da578063a9059cbb146101ee578063d0e30db01461020d578063dd62ed3e14610215575f5ffd5b806306fdde03146100b0578063095ea7b3146100da57806318160ddd1461010957806323b872dd1461012c5780632e1a7d4d1461014b575f5ffd5b366100ac576100aa61024b565b005b5f5ffd5b3480156100bb575f5ffd5b506100c46102bb565b6040516100d191906106f8565b60405180910390f35b3480156100e5575f5ffd5b506100f96100f4366004610748565b610347565b60405190151581526020016100d1565b348015610114575f5ffd5b5061011e60025481565b6040519081526020016100d1565b348015610137575f5ffd5b506100f9610146366004610770565b6103b3565b348015610156575f5ffd5b506100aa6101653660046107aa565b610477565b348015610175575f5ffd5b5061019d7f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020016100d1565b3480156101ba575f5ffd5b5061011e6101c93660046107c1565b5f6020819052908152604090205481565b3480156101e5575f5ffd5b506100c46105d8565b3480156101f9575f5ffd5b506100f9610208366004610748565b6105e5565b6100aa61024b565b348015610220575f5ffd5b5061011e61022f3660046107e1565b600160209081525f928352604080842090915290825290205481565b3460025f82825461025c9190610826565b9091555050335f908152602081905260408120805434929061027f908490610826565b909155505060405134815233907fe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c9060200160405180910390a2565b600380546102c890610839565b80601f01602080910402602001604051908101604052809291908181526020018280546102f490610839565b801561033f5780601f106103165761010080835404028352916020019161033f565b820191905f5260205f20905b81548152906001019060200180831161032257829003601f168201915b505050505081565b335f8181526001602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906103a19086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f9081526001602090815260408083203384529091528120545f19811461046157828110156104335760405162461bcd60e51b815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e636500000060448201526064015b60405180910390fd5b61043d8382610871565b6001600160a01b0386165f9081526001602090815260408083203384529091529020555b61046c8585856105fa565b506001949350505050565b335f90815260208190526040902054818110156104e25760405162461bcd60e51b815260206004820152602360248201527f577261707065644e61746976653a20696e73756666696369656e742062616c616044820152626e636560e81b606482015260840161042a565b335f8181526020818152604091829020858503905560028054869003905590518481527f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65910160405180910390a26040515f90339084908381818185875af1925050503d805f811461056f576040519150601f19603f3d011682016040523d82523d5f602084013e610574565b606091505b50509050806105d35760405162461bcd60e51b815260206004820152602560248201527f577261707065644e61746976653a206e6174697665207472616e736665722066604482015264185a5b195960da1b606482015260840161042a565b505050565b600480546102c890610839565b5f6105f13384846105fa565b50600192915050565b6105d38383836001600160a01b0383165f90815260208190526040902054818110156106685760405162461bcd60e51b815260206004820152601b60248201527f45524332303a20696e73756666696369656e742062616c616e63650000000000604482015260640161042a565b6001600160a01b038085165f9081526020819052604080822085850390559185168152908120805484929061069e908490610826565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef846040516106ea91815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b0381168114610743575f5ffd5b919050565b5f5f60408385031215610759575f5ffd5b6107628361072d565b946020939093013593505050565b5f5f5f60608486031215610782575f5ffd5b61078b8461072d565b92506107996020850161072d565b929592945050506040919091013590565b5f602082840312156107ba575f5ffd5b5035919050565b5f602082840312156107d1575f5ffd5b6107da8261072d565b9392505050565b5f5f604083850312156107f2575f5ffd5b6107fb8361072d565b91506108096020840161072d565b90509250929050565b634e487b7160e01b5f52601160045260245ffd5b808201808211156103ad576103ad610812565b600181811c9082168061084d57607f821691505b60208210810361086b57634e487b7160e01b5f52602260045260245ffd5b50919050565b818103818111156103ad576103ad61081256fea26469706673582212209b5016ba2d6663335526975035cbf5d09c4c85b1165eeca458d869250e368f5564736f6c63430008250033",
}

// WrappedNativeABI is the input ABI used to generate the binding from.
// Deprecated: Use WrappedNativeMetaData.ABI instead.
var WrappedNativeABI = WrappedNativeMetaData.ABI

// WrappedNativeBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use WrappedNativeMetaData.Bin instead.
var WrappedNativeBin = WrappedNativeMetaData.Bin

// DeployWrappedNative deploys a new Ethereum contract, binding an instance of WrappedNative to it.
func DeployWrappedNative(auth *bind.TransactOpts, backend bind.ContractBackend, name_ string, symbol_ string) (common.Address, *types.Transaction, *WrappedNative, error) {
	parsed, err := WrappedNativeMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(WrappedNativeBin), backend, name_, symbol_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &WrappedNative{WrappedNativeCaller: WrappedNativeCaller{contract: contract}, WrappedNativeTransactor: WrappedNativeTransactor{contract: contract}, WrappedNativeFilterer: WrappedNativeFilterer{contract: contract}}, nil
}

// WrappedNative is an auto generated Go binding around an Ethereum contract.
type WrappedNative struct {
	WrappedNativeCaller     // Read-only binding to the contract
	WrappedNativeTransactor // Write-only binding to the contract
	WrappedNativeFilterer   // Log filterer for contract events
}

// WrappedNativeCaller is an auto generated read-only Go binding around an Ethereum contract.
type WrappedNativeCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// WrappedNativeTransactor is an auto generated write-only Go binding around an Ethereum contract.
type WrappedNativeTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// WrappedNativeFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type WrappedNativeFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// WrappedNativeSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type WrappedNativeSession struct {
	Contract     *WrappedNative    // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// WrappedNativeCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type WrappedNativeCallerSession struct {
	Contract *WrappedNativeCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts        // Call options to use throughout this session
}

// WrappedNativeTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type WrappedNativeTransactorSession struct {
	Contract     *WrappedNativeTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts        // Transaction auth options to use throughout this session
}

// WrappedNativeRaw is an auto generated low-level Go binding around an Ethereum contract.
type WrappedNativeRaw struct {
	Contract *WrappedNative // Generic contract binding to access the raw methods on
}

// WrappedNativeCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type WrappedNativeCallerRaw struct {
	Contract *WrappedNativeCaller // Generic read-only contract binding to access the raw methods on
}

// WrappedNativeTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type WrappedNativeTransactorRaw struct {
	Contract *WrappedNativeTransactor // Generic write-only contract binding to access the raw methods on
}

// NewWrappedNative creates a new instance of WrappedNative, bound to a specific deployed contract.
func NewWrappedNative(address common.Address, backend bind.ContractBackend) (*WrappedNative, error) {
	contract, err := bindWrappedNative(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &WrappedNative{WrappedNativeCaller: WrappedNativeCaller{contract: contract}, WrappedNativeTransactor: WrappedNativeTransactor{contract: contract}, WrappedNativeFilterer: WrappedNativeFilterer{contract: contract}}, nil
}

// NewWrappedNativeCaller creates a new read-only instance of WrappedNative, bound to a specific deployed contract.
func NewWrappedNativeCaller(address common.Address, caller bind.ContractCaller) (*WrappedNativeCaller, error) {
	contract, err := bindWrappedNative(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeCaller{contract: contract}, nil
}

// NewWrappedNativeTransactor creates a new write-only instance of WrappedNative, bound to a specific deployed contract.
func NewWrappedNativeTransactor(address common.Address, transactor bind.ContractTransactor) (*WrappedNativeTransactor, error) {
	contract, err := bindWrappedNative(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeTransactor{contract: contract}, nil
}

// NewWrappedNativeFilterer creates a new log filterer instance of WrappedNative, bound to a specific deployed contract.
func NewWrappedNativeFilterer(address common.Address, filterer bind.ContractFilterer) (*WrappedNativeFilterer, error) {
	contract, err := bindWrappedNative(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeFilterer{contract: contract}, nil
}

// bindWrappedNative binds a generic wrapper to an already deployed contract.
func bindWrappedNative(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := WrappedNativeMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_WrappedNative *WrappedNativeRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _WrappedNative.Contract.WrappedNativeCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_WrappedNative *WrappedNativeRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _WrappedNative.Contract.WrappedNativeTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_WrappedNative *WrappedNativeRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _WrappedNative.Contract.WrappedNativeTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_WrappedNative *WrappedNativeCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _WrappedNative.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_WrappedNative *WrappedNativeTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _WrappedNative.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_WrappedNative *WrappedNativeTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _WrappedNative.Contract.contract.Transact(opts, method, params...)
}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_WrappedNative *WrappedNativeCaller) Allowance(opts *bind.CallOpts, arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "allowance", arg0, arg1)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_WrappedNative *WrappedNativeSession) Allowance(arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	return _WrappedNative.Contract.Allowance(&_WrappedNative.CallOpts, arg0, arg1)
}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_WrappedNative *WrappedNativeCallerSession) Allowance(arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	return _WrappedNative.Contract.Allowance(&_WrappedNative.CallOpts, arg0, arg1)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_WrappedNative *WrappedNativeCaller) BalanceOf(opts *bind.CallOpts, arg0 common.Address) (*big.Int, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "balanceOf", arg0)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_WrappedNative *WrappedNativeSession) BalanceOf(arg0 common.Address) (*big.Int, error) {
	return _WrappedNative.Contract.BalanceOf(&_WrappedNative.CallOpts, arg0)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_WrappedNative *WrappedNativeCallerSession) BalanceOf(arg0 common.Address) (*big.Int, error) {
	return _WrappedNative.Contract.BalanceOf(&_WrappedNative.CallOpts, arg0)
}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_WrappedNative *WrappedNativeCaller) Decimals(opts *bind.CallOpts) (uint8, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "decimals")

	if err != nil {
		return *new(uint8), err
	}

	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)

	return out0, err

}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_WrappedNative *WrappedNativeSession) Decimals() (uint8, error) {
	return _WrappedNative.Contract.Decimals(&_WrappedNative.CallOpts)
}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_WrappedNative *WrappedNativeCallerSession) Decimals() (uint8, error) {
	return _WrappedNative.Contract.Decimals(&_WrappedNative.CallOpts)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_WrappedNative *WrappedNativeCaller) Name(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "name")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_WrappedNative *WrappedNativeSession) Name() (string, error) {
	return _WrappedNative.Contract.Name(&_WrappedNative.CallOpts)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_WrappedNative *WrappedNativeCallerSession) Name() (string, error) {
	return _WrappedNative.Contract.Name(&_WrappedNative.CallOpts)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_WrappedNative *WrappedNativeCaller) Symbol(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "symbol")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_WrappedNative *WrappedNativeSession) Symbol() (string, error) {
	return _WrappedNative.Contract.Symbol(&_WrappedNative.CallOpts)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_WrappedNative *WrappedNativeCallerSession) Symbol() (string, error) {
	return _WrappedNative.Contract.Symbol(&_WrappedNative.CallOpts)
}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_WrappedNative *WrappedNativeCaller) TotalSupply(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _WrappedNative.contract.Call(opts, &out, "totalSupply")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_WrappedNative *WrappedNativeSession) TotalSupply() (*big.Int, error) {
	return _WrappedNative.Contract.TotalSupply(&_WrappedNative.CallOpts)
}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_WrappedNative *WrappedNativeCallerSession) TotalSupply() (*big.Int, error) {
	return _WrappedNative.Contract.TotalSupply(&_WrappedNative.CallOpts)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactor) Approve(opts *bind.TransactOpts, spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.contract.Transact(opts, "approve", spender, value)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeSession) Approve(spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Approve(&_WrappedNative.TransactOpts, spender, value)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactorSession) Approve(spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Approve(&_WrappedNative.TransactOpts, spender, value)
}

// Deposit is a paid mutator transaction binding the contract method 0xd0e30db0.
//
// Solidity: function deposit() payable returns()
func (_WrappedNative *WrappedNativeTransactor) Deposit(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _WrappedNative.contract.Transact(opts, "deposit")
}

// Deposit is a paid mutator transaction binding the contract method 0xd0e30db0.
//
// Solidity: function deposit() payable returns()
func (_WrappedNative *WrappedNativeSession) Deposit() (*types.Transaction, error) {
	return _WrappedNative.Contract.Deposit(&_WrappedNative.TransactOpts)
}

// Deposit is a paid mutator transaction binding the contract method 0xd0e30db0.
//
// Solidity: function deposit() payable returns()
func (_WrappedNative *WrappedNativeTransactorSession) Deposit() (*types.Transaction, error) {
	return _WrappedNative.Contract.Deposit(&_WrappedNative.TransactOpts)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactor) Transfer(opts *bind.TransactOpts, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.contract.Transact(opts, "transfer", to, value)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeSession) Transfer(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Transfer(&_WrappedNative.TransactOpts, to, value)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactorSession) Transfer(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Transfer(&_WrappedNative.TransactOpts, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactor) TransferFrom(opts *bind.TransactOpts, from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.contract.Transact(opts, "transferFrom", from, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeSession) TransferFrom(from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.TransferFrom(&_WrappedNative.TransactOpts, from, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_WrappedNative *WrappedNativeTransactorSession) TransferFrom(from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.TransferFrom(&_WrappedNative.TransactOpts, from, to, value)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 value) returns()
func (_WrappedNative *WrappedNativeTransactor) Withdraw(opts *bind.TransactOpts, value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.contract.Transact(opts, "withdraw", value)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 value) returns()
func (_WrappedNative *WrappedNativeSession) Withdraw(value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Withdraw(&_WrappedNative.TransactOpts, value)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 value) returns()
func (_WrappedNative *WrappedNativeTransactorSession) Withdraw(value *big.Int) (*types.Transaction, error) {
	return _WrappedNative.Contract.Withdraw(&_WrappedNative.TransactOpts, value)
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_WrappedNative *WrappedNativeTransactor) Receive(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _WrappedNative.contract.RawTransact(opts, nil) // calldata is disallowed for receive function
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_WrappedNative *WrappedNativeSession) Receive() (*types.Transaction, error) {
	return _WrappedNative.Contract.Receive(&_WrappedNative.TransactOpts)
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_WrappedNative *WrappedNativeTransactorSession) Receive() (*types.Transaction, error) {
	return _WrappedNative.Contract.Receive(&_WrappedNative.TransactOpts)
}

// WrappedNativeApprovalIterator is returned from FilterApproval and is used to iterate over the raw logs and unpacked data for Approval events raised by the WrappedNative contract.
type WrappedNativeApprovalIterator struct {
	Event *WrappedNativeApproval // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *WrappedNativeApprovalIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(WrappedNativeApproval)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(WrappedNativeApproval)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *WrappedNativeApprovalIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *WrappedNativeApprovalIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// WrappedNativeApproval represents a Approval event raised by the WrappedNative contract.
type WrappedNativeApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterApproval is a free log retrieval operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) FilterApproval(opts *bind.FilterOpts, owner []common.Address, spender []common.Address) (*WrappedNativeApprovalIterator, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var spenderRule []interface{}
	for _, spenderItem := range spender {
		spenderRule = append(spenderRule, spenderItem)
	}

	logs, sub, err := _WrappedNative.contract.FilterLogs(opts, "Approval", ownerRule, spenderRule)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeApprovalIterator{contract: _WrappedNative.contract, event: "Approval", logs: logs, sub: sub}, nil
}

// WatchApproval is a free log subscription operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) WatchApproval(opts *bind.WatchOpts, sink chan<- *WrappedNativeApproval, owner []common.Address, spender []common.Address) (event.Subscription, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var spenderRule []interface{}
	for _, spenderItem := range spender {
		spenderRule = append(spenderRule, spenderItem)
	}

	logs, sub, err := _WrappedNative.contract.WatchLogs(opts, "Approval", ownerRule, spenderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(WrappedNativeApproval)
				if err := _WrappedNative.contract.UnpackLog(event, "Approval", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseApproval is a log parse operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) ParseApproval(log types.Log) (*WrappedNativeApproval, error) {
	event := new(WrappedNativeApproval)
	if err := _WrappedNative.contract.UnpackLog(event, "Approval", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// WrappedNativeDepositIterator is returned from FilterDeposit and is used to iterate over the raw logs and unpacked data for Deposit events raised by the WrappedNative contract.
type WrappedNativeDepositIterator struct {
	Event *WrappedNativeDeposit // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *WrappedNativeDepositIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(WrappedNativeDeposit)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(WrappedNativeDeposit)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *WrappedNativeDepositIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *WrappedNativeDepositIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// WrappedNativeDeposit represents a Deposit event raised by the WrappedNative contract.
type WrappedNativeDeposit struct {
	To    common.Address
	Value *big.Int
	Raw   types.Log // Blockchain specific contextual infos
}

// FilterDeposit is a free log retrieval operation binding the contract event 0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c.
//
// Solidity: event Deposit(address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) FilterDeposit(opts *bind.FilterOpts, to []common.Address) (*WrappedNativeDepositIterator, error) {

	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _WrappedNative.contract.FilterLogs(opts, "Deposit", toRule)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeDepositIterator{contract: _WrappedNative.contract, event: "Deposit", logs: logs, sub: sub}, nil
}

// WatchDeposit is a free log subscription operation binding the contract event 0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c.
//
// Solidity: event Deposit(address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) WatchDeposit(opts *bind.WatchOpts, sink chan<- *WrappedNativeDeposit, to []common.Address) (event.Subscription, error) {

	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _WrappedNative.contract.WatchLogs(opts, "Deposit", toRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(WrappedNativeDeposit)
				if err := _WrappedNative.contract.UnpackLog(event, "Deposit", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseDeposit is a log parse operation binding the contract event 0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c.
//
// Solidity: event Deposit(address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) ParseDeposit(log types.Log) (*WrappedNativeDeposit, error) {
	event := new(WrappedNativeDeposit)
	if err := _WrappedNative.contract.UnpackLog(event, "Deposit", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// WrappedNativeTransferIterator is returned from FilterTransfer and is used to iterate over the raw logs and unpacked data for Transfer events raised by the WrappedNative contract.
type WrappedNativeTransferIterator struct {
	Event *WrappedNativeTransfer // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *WrappedNativeTransferIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(WrappedNativeTransfer)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(WrappedNativeTransfer)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *WrappedNativeTransferIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *WrappedNativeTransferIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// WrappedNativeTransfer represents a Transfer event raised by the WrappedNative contract.
type WrappedNativeTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   types.Log // Blockchain specific contextual infos
}

// FilterTransfer is a free log retrieval operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) FilterTransfer(opts *bind.FilterOpts, from []common.Address, to []common.Address) (*WrappedNativeTransferIterator, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _WrappedNative.contract.FilterLogs(opts, "Transfer", fromRule, toRule)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeTransferIterator{contract: _WrappedNative.contract, event: "Transfer", logs: logs, sub: sub}, nil
}

// WatchTransfer is a free log subscription operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) WatchTransfer(opts *bind.WatchOpts, sink chan<- *WrappedNativeTransfer, from []common.Address, to []common.Address) (event.Subscription, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _WrappedNative.contract.WatchLogs(opts, "Transfer", fromRule, toRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(WrappedNativeTransfer)
				if err := _WrappedNative.contract.UnpackLog(event, "Transfer", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseTransfer is a log parse operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) ParseTransfer(log types.Log) (*WrappedNativeTransfer, error) {
	event := new(WrappedNativeTransfer)
	if err := _WrappedNative.contract.UnpackLog(event, "Transfer", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// WrappedNativeWithdrawalIterator is returned from FilterWithdrawal and is used to iterate over the raw logs and unpacked data for Withdrawal events raised by the WrappedNative contract.
type WrappedNativeWithdrawalIterator struct {
	Event *WrappedNativeWithdrawal // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *WrappedNativeWithdrawalIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(WrappedNativeWithdrawal)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(WrappedNativeWithdrawal)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *WrappedNativeWithdrawalIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *WrappedNativeWithdrawalIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// WrappedNativeWithdrawal represents a Withdrawal event raised by the WrappedNative contract.
type WrappedNativeWithdrawal struct {
	From  common.Address
	Value *big.Int
	Raw   types.Log // Blockchain specific contextual infos
}

// FilterWithdrawal is a free log retrieval operation binding the contract event 0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65.
//
// Solidity: event Withdrawal(address indexed from, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) FilterWithdrawal(opts *bind.FilterOpts, from []common.Address) (*WrappedNativeWithdrawalIterator, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}

	logs, sub, err := _WrappedNative.contract.FilterLogs(opts, "Withdrawal", fromRule)
	if err != nil {
		return nil, err
	}
	return &WrappedNativeWithdrawalIterator{contract: _WrappedNative.contract, event: "Withdrawal", logs: logs, sub: sub}, nil
}

// WatchWithdrawal is a free log subscription operation binding the contract event 0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65.
//
// Solidity: event Withdrawal(address indexed from, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) WatchWithdrawal(opts *bind.WatchOpts, sink chan<- *WrappedNativeWithdrawal, from []common.Address) (event.Subscription, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}

	logs, sub, err := _WrappedNative.contract.WatchLogs(opts, "Withdrawal", fromRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(WrappedNativeWithdrawal)
				if err := _WrappedNative.contract.UnpackLog(event, "Withdrawal", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseWithdrawal is a log parse operation binding the contract event 0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65.
//
// Solidity: event Withdrawal(address indexed from, uint256 value)
func (_WrappedNative *WrappedNativeFilterer) ParseWithdrawal(log types.Log) (*WrappedNativeWithdrawal, error) {
	event := new(WrappedNativeWithdrawal)
	if err := _WrappedNative.contract.UnpackLog(event, "Withdrawal", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
