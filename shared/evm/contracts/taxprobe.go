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

// TaxProbeMetaData contains all meta data concerning the TaxProbe contract.
var TaxProbeMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"router\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"quote\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"probe\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"buyTaxBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellTaxBps\",\"type\":\"uint256\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b50610e058061001c5f395ff3fe608060405260043610610020575f3560e01c80635a7b82681461002b575f5ffd5b3661002757005b5f5ffd5b61003e610039366004610ae9565b610057565b6040805192835260208301919091520160405180910390f35b5f5f5f8690505f816001600160a01b031663ad5c46486040518163ffffffff1660e01b8152600401602060405180830381865afa15801561009a573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906100be9190610b37565b90505f6001600160a01b03871615806100e85750816001600160a01b0316876001600160a01b0316145b905080156100f857819650610104565b61010483838989610353565b6040805160028082526060820183525f9260208301908036833701905050905087815f8151811061013757610137610b6d565b60200260200101906001600160a01b031690816001600160a01b031681525050888160018151811061016b5761016b610b6d565b6001600160a01b03928316602091820292909201015260405163d06ca61f60e01b81525f9186169063d06ca61f906101a9908b908690600401610bc4565b5f60405180830381865afa1580156101c3573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526101ea9190810190610bdc565b6001815181106101fc576101fc610b6d565b602002602001015190505f61021386858b8661054a565b905061021f828261075b565b9750805f036102395750612710955061034a945050505050565b8a835f8151811061024c5761024c610b6d565b60200260200101906001600160a01b031690816001600160a01b031681525050898360018151811061028057610280610b6d565b6001600160a01b03928316602091820292909201015260405163d06ca61f60e01b81529087169063d06ca61f906102bd9084908790600401610bc4565b5f60405180830381865afa9250505080156102f957506040513d5f823e601f3d908101601f191682016040526102f69190810190610bdc565b60015b61030e5750612710955061034a945050505050565b8060018151811061032157610321610b6d565b60200260200101519250506103418261033c888785886107ba565b61075b565b96505050505050505b94509492505050565b6040516370a0823160e01b81523060048201525f906001600160a01b038416906370a0823190602401602060405180830381865afa158015610397573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906103bb9190610ca4565b90508181106103ca5750610544565b6040805160028082526060820183525f9260208301908036833701905050905084815f815181106103fd576103fd610b6d565b60200260200101906001600160a01b031690816001600160a01b031681525050838160018151811061043157610431610b6d565b6001600160a01b0392831660209182029290920101525f908716631f00ca7461045a8587610ccf565b846040518363ffffffff1660e01b8152600401610478929190610bc4565b5f60405180830381865afa158015610492573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526104b99190810190610bdc565b5f815181106104ca576104ca610b6d565b60200260200101519050866001600160a01b031663b6f9de958285876104f09190610ccf565b8530426040518663ffffffff1660e01b81526004016105129493929190610ce2565b5f604051808303818588803b158015610529575f5ffd5b505af115801561053b573d5f5f3e3d5ffd5b50505050505050505b50505050565b5f5f8260018151811061055f5761055f610b6d565b60209081029190910101516040516370a0823160e01b81523060048201529091505f906001600160a01b038316906370a0823190602401602060405180830381865afa1580156105b1573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906105d59190610ca4565b9050851561064d5760405163b6f9de9560e01b81526001600160a01b0388169063b6f9de95908790610611905f90899030904290600401610ce2565b5f604051808303818588803b158015610628575f5ffd5b505af19350505050801561063a575060015b610648575f92505050610753565b6106dc565b610671845f8151811061066257610662610b6d565b60200260200101518887610a02565b50604051635c11d79560e01b81526001600160a01b03881690635c11d795906106a69088905f90899030904290600401610d16565b5f604051808303815f87803b1580156106bd575f5ffd5b505af19250505080156106ce575060015b6106dc575f92505050610753565b6040516370a0823160e01b815230600482015281906001600160a01b038416906370a0823190602401602060405180830381865afa158015610720573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906107449190610ca4565b61074e9190610ccf565b925050505b949350505050565b5f825f0361076c57506127106107b4565b82821061077a57505f6107b4565b82610786600282610d51565b6127106107938587610ccf565b61079d9190610d70565b6107a79190610d87565b6107b19190610d51565b90505b92915050565b5f6107df825f815181106107d0576107d0610b6d565b60200260200101518685610a02565b6107ea57505f610753565b5f8461087a578260018151811061080357610803610b6d565b60209081029190910101516040516370a0823160e01b81523060048201526001600160a01b03909116906370a0823190602401602060405180830381865afa158015610851573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906108759190610ca4565b61087c565b475b905084156108ff5760405163791ac94760e01b81526001600160a01b0387169063791ac947906108b89087905f90889030904290600401610d16565b5f604051808303815f87803b1580156108cf575f5ffd5b505af19250505080156108e0575060015b6108ed575f915050610753565b6108f78147610ccf565b915050610753565b604051635c11d79560e01b81526001600160a01b03871690635c11d795906109339087905f90889030904290600401610d16565b5f604051808303815f87803b15801561094a575f5ffd5b505af192505050801561095b575060015b610968575f915050610753565b808360018151811061097c5761097c610b6d565b60209081029190910101516040516370a0823160e01b81523060048201526001600160a01b03909116906370a0823190602401602060405180830381865afa1580156109ca573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906109ee9190610ca4565b6109f89190610ccf565b9695505050505050565b6040516001600160a01b038381166024830152604482018390525f91829182919087169060640160408051601f198184030181529181526020820180516001600160e01b031663095ea7b360e01b17905251610a5e9190610d9a565b5f604051808303815f865af19150503d805f8114610a97576040519150601f19603f3d011682016040523d82523d5f602084013e610a9c565b606091505b50915091508180156109f85750805115806109f85750805160201480156109f85750808060200190518101906109f89190610db0565b6001600160a01b0381168114610ae6575f5ffd5b50565b5f5f5f5f60808587031215610afc575f5ffd5b8435610b0781610ad2565b93506020850135610b1781610ad2565b92506040850135610b2781610ad2565b9396929550929360600135925050565b5f60208284031215610b47575f5ffd5b8151610b5281610ad2565b9392505050565b634e487b7160e01b5f52604160045260245ffd5b634e487b7160e01b5f52603260045260245ffd5b5f8151808452602084019350602083015f5b82811015610bba5781516001600160a01b0316865260209586019590910190600101610b93565b5093949350505050565b828152604060208201525f6107536040830184610b81565b5f60208284031215610bec575f5ffd5b815167ffffffffffffffff811115610c02575f5ffd5b8201601f81018413610c12575f5ffd5b805167ffffffffffffffff811115610c2c57610c2c610b59565b8060051b604051601f19603f830116810181811067ffffffffffffffff82111715610c5957610c59610b59565b604052918252602081840181019290810187841115610c76575f5ffd5b6020850194505b83851015610c9957845180825260209586019590935001610c7d565b509695505050505050565b5f60208284031215610cb4575f5ffd5b5051919050565b634e487b7160e01b5f52601160045260245ffd5b818103818111156107b4576107b4610cbb565b848152608060208201525f610cfa6080830186610b81565b6001600160a01b03949094166040830152506060015292915050565b85815284602082015260a060408201525f610d3460a0830186610b81565b6001600160a01b0394909416606083015250608001529392505050565b5f82610d6b57634e487b7160e01b5f52601260045260245ffd5b500490565b80820281158282048414176107b4576107b4610cbb565b808201808211156107b4576107b4610cbb565b5f82518060208501845e5f920191825250919050565b5f60208284031215610dc0575f5ffd5b81518015158114610b52575f5ffdfea264697066735822122058beeb56abca6a9588fbff172776e81c8449535bab74b05b6de55d1a2d24d38a64736f6c63430008250033",
}

// TaxProbeABI is the input ABI used to generate the binding from.
// Deprecated: Use TaxProbeMetaData.ABI instead.
var TaxProbeABI = TaxProbeMetaData.ABI

// TaxProbeBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use TaxProbeMetaData.Bin instead.
var TaxProbeBin = TaxProbeMetaData.Bin

// DeployTaxProbe deploys a new Ethereum contract, binding an instance of TaxProbe to it.
func DeployTaxProbe(auth *bind.TransactOpts, backend bind.ContractBackend) (common.Address, *types.Transaction, *TaxProbe, error) {
	parsed, err := TaxProbeMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(TaxProbeBin), backend)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &TaxProbe{TaxProbeCaller: TaxProbeCaller{contract: contract}, TaxProbeTransactor: TaxProbeTransactor{contract: contract}, TaxProbeFilterer: TaxProbeFilterer{contract: contract}}, nil
}

// TaxProbe is an auto generated Go binding around an Ethereum contract.
type TaxProbe struct {
	TaxProbeCaller     // Read-only binding to the contract
	TaxProbeTransactor // Write-only binding to the contract
	TaxProbeFilterer   // Log filterer for contract events
}

// TaxProbeCaller is an auto generated read-only Go binding around an Ethereum contract.
type TaxProbeCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxProbeTransactor is an auto generated write-only Go binding around an Ethereum contract.
type TaxProbeTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxProbeFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type TaxProbeFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxProbeSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type TaxProbeSession struct {
	Contract     *TaxProbe         // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// TaxProbeCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type TaxProbeCallerSession struct {
	Contract *TaxProbeCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts   // Call options to use throughout this session
}

// TaxProbeTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type TaxProbeTransactorSession struct {
	Contract     *TaxProbeTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts   // Transaction auth options to use throughout this session
}

// TaxProbeRaw is an auto generated low-level Go binding around an Ethereum contract.
type TaxProbeRaw struct {
	Contract *TaxProbe // Generic contract binding to access the raw methods on
}

// TaxProbeCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type TaxProbeCallerRaw struct {
	Contract *TaxProbeCaller // Generic read-only contract binding to access the raw methods on
}

// TaxProbeTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type TaxProbeTransactorRaw struct {
	Contract *TaxProbeTransactor // Generic write-only contract binding to access the raw methods on
}

// NewTaxProbe creates a new instance of TaxProbe, bound to a specific deployed contract.
func NewTaxProbe(address common.Address, backend bind.ContractBackend) (*TaxProbe, error) {
	contract, err := bindTaxProbe(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &TaxProbe{TaxProbeCaller: TaxProbeCaller{contract: contract}, TaxProbeTransactor: TaxProbeTransactor{contract: contract}, TaxProbeFilterer: TaxProbeFilterer{contract: contract}}, nil
}

// NewTaxProbeCaller creates a new read-only instance of TaxProbe, bound to a specific deployed contract.
func NewTaxProbeCaller(address common.Address, caller bind.ContractCaller) (*TaxProbeCaller, error) {
	contract, err := bindTaxProbe(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &TaxProbeCaller{contract: contract}, nil
}

// NewTaxProbeTransactor creates a new write-only instance of TaxProbe, bound to a specific deployed contract.
func NewTaxProbeTransactor(address common.Address, transactor bind.ContractTransactor) (*TaxProbeTransactor, error) {
	contract, err := bindTaxProbe(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &TaxProbeTransactor{contract: contract}, nil
}

// NewTaxProbeFilterer creates a new log filterer instance of TaxProbe, bound to a specific deployed contract.
func NewTaxProbeFilterer(address common.Address, filterer bind.ContractFilterer) (*TaxProbeFilterer, error) {
	contract, err := bindTaxProbe(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &TaxProbeFilterer{contract: contract}, nil
}

// bindTaxProbe binds a generic wrapper to an already deployed contract.
func bindTaxProbe(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := TaxProbeMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TaxProbe *TaxProbeRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TaxProbe.Contract.TaxProbeCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TaxProbe *TaxProbeRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TaxProbe.Contract.TaxProbeTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TaxProbe *TaxProbeRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TaxProbe.Contract.TaxProbeTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TaxProbe *TaxProbeCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TaxProbe.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TaxProbe *TaxProbeTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TaxProbe.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TaxProbe *TaxProbeTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TaxProbe.Contract.contract.Transact(opts, method, params...)
}

// Probe is a paid mutator transaction binding the contract method 0x5a7b8268.
//
// Solidity: function probe(address router, address token, address quote, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeTransactor) Probe(opts *bind.TransactOpts, router common.Address, token common.Address, quote common.Address, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.contract.Transact(opts, "probe", router, token, quote, amountIn)
}

// Probe is a paid mutator transaction binding the contract method 0x5a7b8268.
//
// Solidity: function probe(address router, address token, address quote, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeSession) Probe(router common.Address, token common.Address, quote common.Address, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.Contract.Probe(&_TaxProbe.TransactOpts, router, token, quote, amountIn)
}

// Probe is a paid mutator transaction binding the contract method 0x5a7b8268.
//
// Solidity: function probe(address router, address token, address quote, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeTransactorSession) Probe(router common.Address, token common.Address, quote common.Address, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.Contract.Probe(&_TaxProbe.TransactOpts, router, token, quote, amountIn)
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_TaxProbe *TaxProbeTransactor) Receive(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TaxProbe.contract.RawTransact(opts, nil) // calldata is disallowed for receive function
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_TaxProbe *TaxProbeSession) Receive() (*types.Transaction, error) {
	return _TaxProbe.Contract.Receive(&_TaxProbe.TransactOpts)
}

// Receive is a paid mutator transaction binding the contract receive function.
//
// Solidity: receive() payable returns()
func (_TaxProbe *TaxProbeTransactorSession) Receive() (*types.Transaction, error) {
	return _TaxProbe.Contract.Receive(&_TaxProbe.TransactOpts)
}
