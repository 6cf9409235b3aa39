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
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"router\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"quote\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"probe\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"buyTaxBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellTaxBps\",\"type\":\"uint256\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"v2Router\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"swapRouter\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"quoter\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"quote\",\"type\":\"address\"},{\"internalType\":\"uint24\",\"name\":\"fee\",\"type\":\"uint24\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"probeV3\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"buyTaxBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellTaxBps\",\"type\":\"uint256\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b506113458061001c5f395ff3fe60806040526004361061002b575f3560e01c80631ce4fc2d146100365780635a7b826814610062575f5ffd5b3661003257005b5f5ffd5b610049610044366004610f4a565b610075565b6040805192835260208301919091520160405180910390f35b610049610070366004610fda565b6101cf565b5f5f5f8990505f816001600160a01b031663ad5c46486040518163ffffffff1660e01b8152600401602060405180830381865afa1580156100b8573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906100dc9190611028565b90505f6001600160a01b03881615806101065750816001600160a01b0316886001600160a01b0316145b9050801561011657819750610122565b61012283838a896104c6565b5f6101308b8a8c8b8b6106bd565b9050805f0361014a576127108095509550505050506101c3565b5f6101598d848c8e8d8d610791565b905061016582826109b5565b9650805f0361017e575061271094506101c39350505050565b61018b8c8c8c8c856106bd565b9150815f036101a4575061271094506101c39350505050565b6101bb826101b68f5f8f8f8f88610791565b6109b5565b955050505050505b97509795505050505050565b5f5f5f8690505f816001600160a01b031663ad5c46486040518163ffffffff1660e01b8152600401602060405180830381865afa158015610212573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102369190611028565b90505f6001600160a01b03871615806102605750816001600160a01b0316876001600160a01b0316145b905080156102705781965061027c565b61027c838389896104c6565b6040805160028082526060820183525f9260208301908036833701905050905087815f815181106102af576102af61105e565b60200260200101906001600160a01b031690816001600160a01b03168152505088816001815181106102e3576102e361105e565b6001600160a01b03928316602091820292909201015260405163d06ca61f60e01b81525f9186169063d06ca61f90610321908b9086906004016110b5565b5f60405180830381865afa15801561033b573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f1916820160405261036291908101906110cd565b6001815181106103745761037461105e565b602002602001015190505f61038b86858b86610a14565b905061039782826109b5565b9750805f036103b1575061271095506104bd945050505050565b8a835f815181106103c4576103c461105e565b60200260200101906001600160a01b031690816001600160a01b03168152505089836001815181106103f8576103f861105e565b6001600160a01b03928316602091820292909201015260405163d06ca61f60e01b81529087169063d06ca61f9061043590849087906004016110b5565b5f60405180830381865afa92505050801561047157506040513d5f823e601f3d908101601f1916820160405261046e91908101906110cd565b60015b610486575061271095506104bd945050505050565b806001815181106104995761049961105e565b60200260200101519250506104b4826101b688878588610c25565b96505050505050505b94509492505050565b6040516370a0823160e01b81523060048201525f906001600160a01b038416906370a0823190602401602060405180830381865afa15801561050a573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061052e9190611195565b905081811061053d57506106b7565b6040805160028082526060820183525f9260208301908036833701905050905084815f815181106105705761057061105e565b60200260200101906001600160a01b031690816001600160a01b03168152505083816001815181106105a4576105a461105e565b6001600160a01b0392831660209182029290920101525f908716631f00ca746105cd85876111c0565b846040518363ffffffff1660e01b81526004016105eb9291906110b5565b5f60405180830381865afa158015610605573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f1916820160405261062c91908101906110cd565b5f8151811061063d5761063d61105e565b60200260200101519050866001600160a01b031663b6f9de9582858761066391906111c0565b8530426040518663ffffffff1660e01b815260040161068594939291906111d3565b5f604051808303818588803b15801561069c575f5ffd5b505af11580156106ae573d5f5f3e3d5ffd5b50505050505050505b50505050565b6040805160a0810182526001600160a01b0386811682528581166020830190815282840185815262ffffff878116606086019081525f608087018181529751636352813560e11b815296518616600488015293518516602487015291516044860152905116606484015292518116608483015287169063c6a5026a9060a4016080604051808303815f875af1925050508015610776575060408051601f3d908101601f1916820190925261077391810190611207565b60015b61078157505f610788565b5091925050505b95945050505050565b5f851580156107a857506107a6858884610e63565b155b156107b457505f6109ab565b6040516370a0823160e01b81523060048201525f906001600160a01b038616906370a0823190602401602060405180830381865afa1580156107f8573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061081c9190611195565b6040805160e0810182526001600160a01b03808a168252888116602083015262ffffff881692820192909252306060820152608081018690525f60a0820181905260c082015291925089166304e45aaf89610877575f610879565b855b604080516001600160e01b031960e085901b16815285516001600160a01b0390811660048301526020870151811660248301529186015162ffffff1660448201526060860151821660648201526080860151608482015260a086015160a482015260c086015190911660c482015260e40160206040518083038185885af193505050508015610925575060408051601f3d908101601f1916820190925261092291810190611195565b60015b610933575f925050506109ab565b506040516370a0823160e01b815230600482015282906001600160a01b038816906370a0823190602401602060405180830381865afa158015610978573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061099c9190611195565b6109a691906111c0565b925050505b9695505050505050565b5f825f036109c65750612710610a0e565b8282106109d457505f610a0e565b826109e0600282611256565b6127106109ed85876111c0565b6109f79190611275565b610a01919061128c565b610a0b9190611256565b90505b92915050565b5f5f82600181518110610a2957610a2961105e565b60209081029190910101516040516370a0823160e01b81523060048201529091505f906001600160a01b038316906370a0823190602401602060405180830381865afa158015610a7b573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610a9f9190611195565b90508515610b175760405163b6f9de9560e01b81526001600160a01b0388169063b6f9de95908790610adb905f908990309042906004016111d3565b5f604051808303818588803b158015610af2575f5ffd5b505af193505050508015610b04575060015b610b12575f92505050610c1d565b610ba6565b610b3b845f81518110610b2c57610b2c61105e565b60200260200101518887610e63565b50604051635c11d79560e01b81526001600160a01b03881690635c11d79590610b709088905f9089903090429060040161129f565b5f604051808303815f87803b158015610b87575f5ffd5b505af1925050508015610b98575060015b610ba6575f92505050610c1d565b6040516370a0823160e01b815230600482015281906001600160a01b038416906370a0823190602401602060405180830381865afa158015610bea573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610c0e9190611195565b610c1891906111c0565b925050505b949350505050565b5f610c4a825f81518110610c3b57610c3b61105e565b60200260200101518685610e63565b610c5557505f610c1d565b5f84610ce55782600181518110610c6e57610c6e61105e565b60209081029190910101516040516370a0823160e01b81523060048201526001600160a01b03909116906370a0823190602401602060405180830381865afa158015610cbc573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610ce09190611195565b610ce7565b475b90508415610d6a5760405163791ac94760e01b81526001600160a01b0387169063791ac94790610d239087905f9088903090429060040161129f565b5f604051808303815f87803b158015610d3a575f5ffd5b505af1925050508015610d4b575060015b610d58575f915050610c1d565b610d6281476111c0565b915050610c1d565b604051635c11d79560e01b81526001600160a01b03871690635c11d79590610d9e9087905f9088903090429060040161129f565b5f604051808303815f87803b158015610db5575f5ffd5b505af1925050508015610dc6575060015b610dd3575f915050610c1d565b8083600181518110610de757610de761105e565b60209081029190910101516040516370a0823160e01b81523060048201526001600160a01b03909116906370a0823190602401602060405180830381865afa158015610e35573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610e599190611195565b6109ab91906111c0565b6040516001600160a01b038381166024830152604482018390525f91829182919087169060640160408051601f198184030181529181526020820180516001600160e01b031663095ea7b360e01b17905251610ebf91906112da565b5f604051808303815f865af19150503d805f8114610ef8576040519150601f19603f3d011682016040523d82523d5f602084013e610efd565b606091505b50915091508180156109ab5750805115806109ab5750805160201480156109ab5750808060200190518101906109ab91906112f0565b6001600160a01b0381168114610f47575f5ffd5b50565b5f5f5f5f5f5f5f60e0888a031215610f60575f5ffd5b8735610f6b81610f33565b96506020880135610f7b81610f33565b95506040880135610f8b81610f33565b94506060880135610f9b81610f33565b93506080880135610fab81610f33565b925060a088013562ffffff81168114610fc2575f5ffd5b96999598509396929591949193505060c09091013590565b5f5f5f5f60808587031215610fed575f5ffd5b8435610ff881610f33565b9350602085013561100881610f33565b9250604085013561101881610f33565b9396929550929360600135925050565b5f60208284031215611038575f5ffd5b815161104381610f33565b9392505050565b634e487b7160e01b5f52604160045260245ffd5b634e487b7160e01b5f52603260045260245ffd5b5f8151808452602084019350602083015f5b828110156110ab5781516001600160a01b0316865260209586019590910190600101611084565b5093949350505050565b828152604060208201525f610c1d6040830184611072565b5f602082840312156110dd575f5ffd5b815167ffffffffffffffff8111156110f3575f5ffd5b8201601f81018413611103575f5ffd5b805167ffffffffffffffff81111561111d5761111d61104a565b8060051b604051601f19603f830116810181811067ffffffffffffffff8211171561114a5761114a61104a565b604052918252602081840181019290810187841115611167575f5ffd5b6020850194505b8385101561118a5784518082526020958601959093500161116e565b509695505050505050565b5f602082840312156111a5575f5ffd5b5051919050565b634e487b7160e01b5f52601160045260245ffd5b81810381811115610a0e57610a0e6111ac565b848152608060208201525f6111eb6080830186611072565b6001600160a01b03949094166040830152506060015292915050565b5f5f5f5f6080858703121561121a575f5ffd5b8451602086015190945061122d81610f33565b604086015190935063ffffffff81168114611246575f5ffd5b6060959095015193969295505050565b5f8261127057634e487b7160e01b5f52601260045260245ffd5b500490565b8082028115828204841417610a0e57610a0e6111ac565b80820180821115610a0e57610a0e6111ac565b85815284602082015260a060408201525f6112bd60a0830186611072565b6001600160a01b0394909416606083015250608001529392505050565b5f82518060208501845e5f920191825250919050565b5f60208284031215611300575f5ffd5b81518015158114611043575f5ffdfea2646970667358221220832b5b514fe365086675b8a0200220282d9e994d36f224ded36d144743b9adf864736f6c63430008250033",
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

// ProbeV3 is a paid mutator transaction binding the contract method 0x1ce4fc2d.
//
// Solidity: function probeV3(address v2Router, address swapRouter, address quoter, address token, address quote, uint24 fee, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeTransactor) ProbeV3(opts *bind.TransactOpts, v2Router common.Address, swapRouter common.Address, quoter common.Address, token common.Address, quote common.Address, fee *big.Int, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.contract.Transact(opts, "probeV3", v2Router, swapRouter, quoter, token, quote, fee, amountIn)
}

// ProbeV3 is a paid mutator transaction binding the contract method 0x1ce4fc2d.
//
// Solidity: function probeV3(address v2Router, address swapRouter, address quoter, address token, address quote, uint24 fee, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeSession) ProbeV3(v2Router common.Address, swapRouter common.Address, quoter common.Address, token common.Address, quote common.Address, fee *big.Int, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.Contract.ProbeV3(&_TaxProbe.TransactOpts, v2Router, swapRouter, quoter, token, quote, fee, amountIn)
}

// ProbeV3 is a paid mutator transaction binding the contract method 0x1ce4fc2d.
//
// Solidity: function probeV3(address v2Router, address swapRouter, address quoter, address token, address quote, uint24 fee, uint256 amountIn) payable returns(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxProbe *TaxProbeTransactorSession) ProbeV3(v2Router common.Address, swapRouter common.Address, quoter common.Address, token common.Address, quote common.Address, fee *big.Int, amountIn *big.Int) (*types.Transaction, error) {
	return _TaxProbe.Contract.ProbeV3(&_TaxProbe.TransactOpts, v2Router, swapRouter, quoter, token, quote, fee, amountIn)
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
