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

// TaxTokenMetaData contains all meta data concerning the TaxToken contract.
var TaxTokenMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"uint256\",\"name\":\"supply\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"buyTaxBps_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellTaxBps_\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"taxWallet_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"factory\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"quote\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"exempt\",\"type\":\"bool\"}],\"name\":\"ExemptSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"registered\",\"type\":\"bool\"}],\"name\":\"PairSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"taxWallet\",\"type\":\"address\"}],\"name\":\"TaxWalletChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"buyTaxBps\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"sellTaxBps\",\"type\":\"uint256\"}],\"name\":\"TaxesChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_BPS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"buyTaxBps\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"isExempt\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"isPair\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pair\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"sellTaxBps\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"exempt\",\"type\":\"bool\"}],\"name\":\"setExempt\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"registered\",\"type\":\"bool\"}],\"name\":\"setPair\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"setTaxWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"buyBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellBps\",\"type\":\"uint256\"}],\"name\":\"setTaxes\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"taxWallet\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b5060405161147138038061147183398101604081905261002e91610454565b87876012600361003e8482610597565b50600461004b8382610597565b5060ff166080525050612710851180159061006857506127108411155b6100b85760405162461bcd60e51b815260206004820152601860248201527f546178546f6b656e3a207461782061626f766520313030250000000000000000604482015260640160405180910390fd5b600580546001600160a01b031916339081179091556040515f907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a36001600160a01b0383161561010c578261010e565b335b600680546001600160a01b0319166001600160a01b03929092169190911790556007859055600884905560408051868152602081018690527f5eee0b95930ee59011f34615b0b7dc6cc58c01d1f07d04a01a3a1e70d2554cf0910160405180910390a161017c336001610260565b600654610193906001600160a01b03166001610260565b61019e306001610260565b6001600160a01b03821615610249576040516364e329cb60e11b81523060048201526001600160a01b0382811660248301525f919084169063c9c65396906044016020604051808303815f875af11580156101fb573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061021f9190610655565b600980546001600160a01b0319166001600160a01b03831617905590506102478160016102bf565b505b6102533387610316565b505050505050505061069a565b6001600160a01b0382165f818152600b6020908152604091829020805460ff191685151590811790915591519182527ff33950bf7aa3300efb48f7896f309484c287418977abeba9f08f12cbe451d36a91015b60405180910390a25050565b6001600160a01b0382165f818152600a6020908152604091829020805460ff191685151590811790915591519182527f3ce88d9221880ccac3da1d2b7bff84dc444bd01b3bb0d90da7826a6049f61ee591016102b3565b8060025f8282546103279190610675565b90915550506001600160a01b0382165f9081526020819052604081208054839290610353908490610675565b90915550506040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f8301126103bf575f5ffd5b81516001600160401b038111156103d8576103d861039c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156104065761040661039c565b60405281815283820160200185101561041d575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160a01b038116811461044f575f5ffd5b919050565b5f5f5f5f5f5f5f5f610100898b03121561046c575f5ffd5b88516001600160401b03811115610481575f5ffd5b61048d8b828c016103b0565b60208b015190995090506001600160401b038111156104aa575f5ffd5b6104b68b828c016103b0565b60408b015160608c015160808d0151929a50909850965094506104dd905060a08a01610439565b92506104eb60c08a01610439565b91506104f960e08a01610439565b90509295985092959890939650565b600181811c9082168061051c57607f821691505b60208210810361053a57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610592578282111561059257805f5260205f20601f840160051c602085101561056b57505f5b90810190601f840160051c035f5b8181101561058e575f83820155600101610579565b5050505b505050565b81516001600160401b038111156105b0576105b061039c565b6105c4816105be8454610508565b84610540565b6020601f8211600181146105f6575f83156105df5750848201515b5f19600385901b1c1916600184901b17845561064e565b5f84815260208120601f198516915b828110156106255787850151825560209485019460019092019101610605565b508482101561064257868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b5f60208284031215610665575f5ffd5b61066e82610439565b9392505050565b8082018082111561069457634e487b7160e01b5f52601160045260245ffd5b92915050565b608051610dbf6106b25f395f6101e70152610dbf5ff3fe608060405234801561000f575f5ffd5b5060043610610148575f3560e01c80639fde54f5116100bf578063cffd129c11610079578063cffd129c146102f4578063dd62ed3e146102fd578063e5e31b1314610327578063ea414b2814610349578063f2fde38b1461035c578063fd967f471461036f575f5ffd5b80639fde54f51461027d578063a8aa1b3114610290578063a9059cbb146102a3578063ad5dff73146102b6578063c473413a146102d8578063c647b20e146102e1575f5ffd5b8063313ce56711610110578063313ce567146101e257806340c10f191461021b57806370a082311461023057806386a22eff1461024f5780638da5cb5b1461026257806395d89b4114610275575f5ffd5b806306fdde031461014c578063095ea7b31461016a57806318160ddd1461018d57806323b872dd146101a45780632dc0562d146101b7575b5f5ffd5b610154610378565b6040516101619190610b44565b60405180910390f35b61017d610178366004610b94565b610404565b6040519015158152602001610161565b61019660025481565b604051908152602001610161565b61017d6101b2366004610bbc565b610470565b6006546101ca906001600160a01b031681565b6040516001600160a01b039091168152602001610161565b6102097f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff9091168152602001610161565b61022e610229366004610b94565b610534565b005b61019661023e366004610bf6565b5f6020819052908152604090205481565b61022e61025d366004610c16565b61056c565b6005546101ca906001600160a01b031681565b6101546105a0565b61022e61028b366004610c16565b6105ad565b6009546101ca906001600160a01b031681565b61017d6102b1366004610b94565b6105e1565b61017d6102c4366004610bf6565b600b6020525f908152604090205460ff1681565b61019660075481565b61022e6102ef366004610c4f565b6105f6565b61019660085481565b61019661030b366004610c6f565b600160209081525f928352604080842090915290825290205481565b61017d610335366004610bf6565b600a6020525f908152604090205460ff1681565b61022e610357366004610bf6565b6106c7565b61022e61036a366004610bf6565b6107a2565b61019661271081565b6003805461038590610ca0565b80601f01602080910402602001604051908101604052809291908181526020018280546103b190610ca0565b80156103fc5780601f106103d3576101008083540402835291602001916103fc565b820191905f5260205f20905b8154815290600101906020018083116103df57829003601f168201915b505050505081565b335f8181526001602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9259061045e9086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f9081526001602090815260408083203384529091528120545f19811461051e57828110156104f05760405162461bcd60e51b815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e636500000060448201526064015b60405180910390fd5b6104fa8382610cec565b6001600160a01b0386165f9081526001602090815260408083203384529091529020555b610529858585610827565b506001949350505050565b6005546001600160a01b0316331461055e5760405162461bcd60e51b81526004016104e790610cff565b6105688282610910565b5050565b6005546001600160a01b031633146105965760405162461bcd60e51b81526004016104e790610cff565b6105688282610996565b6004805461038590610ca0565b6005546001600160a01b031633146105d75760405162461bcd60e51b81526004016104e790610cff565b61056882826109f5565b5f6105ed338484610827565b50600192915050565b6005546001600160a01b031633146106205760405162461bcd60e51b81526004016104e790610cff565b612710821115801561063457506127108111155b6106805760405162461bcd60e51b815260206004820152601860248201527f546178546f6b656e3a207461782061626f76652031303025000000000000000060448201526064016104e7565b6007829055600881905560408051838152602081018390527f5eee0b95930ee59011f34615b0b7dc6cc58c01d1f07d04a01a3a1e70d2554cf0910160405180910390a15050565b6005546001600160a01b031633146106f15760405162461bcd60e51b81526004016104e790610cff565b6001600160a01b0381166107475760405162461bcd60e51b815260206004820152601960248201527f546178546f6b656e3a207a65726f207461782077616c6c65740000000000000060448201526064016104e7565b600680546001600160a01b0319166001600160a01b03831617905561076d8160016109f5565b6040516001600160a01b038216907ea263b61aab5ebdcff20c4c0c74c2589ea5ab52149abde19eca17ad52217899905f90a250565b6005546001600160a01b031633146107cc5760405162461bcd60e51b81526004016104e790610cff565b6005546040516001600160a01b038084169216907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0905f90a3600580546001600160a01b0319166001600160a01b0392909216919091179055565b6001600160a01b0383165f908152600a602052604081205460ff16801561086657506001600160a01b0383165f908152600b602052604090205460ff16155b1561087457506007546108bd565b6001600160a01b0383165f908152600a602052604090205460ff1680156108b357506001600160a01b0384165f908152600b602052604090205460ff16155b156108bd57506008545b5f6127106108cb8385610d40565b6108d59190610d57565b905080156108f5576006546108f59086906001600160a01b031683610a4c565b61090985856109048487610cec565b610a4c565b5050505050565b8060025f8282546109219190610d76565b90915550506001600160a01b0382165f908152602081905260408120805483929061094d908490610d76565b90915550506040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b6001600160a01b0382165f818152600a6020908152604091829020805460ff191685151590811790915591519182527f3ce88d9221880ccac3da1d2b7bff84dc444bd01b3bb0d90da7826a6049f61ee591015b60405180910390a25050565b6001600160a01b0382165f818152600b6020908152604091829020805460ff191685151590811790915591519182527ff33950bf7aa3300efb48f7896f309484c287418977abeba9f08f12cbe451d36a91016109e9565b6001600160a01b0383165f9081526020819052604090205481811015610ab45760405162461bcd60e51b815260206004820152601b60248201527f45524332303a20696e73756666696369656e742062616c616e6365000000000060448201526064016104e7565b6001600160a01b038085165f90815260208190526040808220858503905591851681529081208054849290610aea908490610d76565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef84604051610b3691815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b0381168114610b8f575f5ffd5b919050565b5f5f60408385031215610ba5575f5ffd5b610bae83610b79565b946020939093013593505050565b5f5f5f60608486031215610bce575f5ffd5b610bd784610b79565b9250610be560208501610b79565b929592945050506040919091013590565b5f60208284031215610c06575f5ffd5b610c0f82610b79565b9392505050565b5f5f60408385031215610c27575f5ffd5b610c3083610b79565b915060208301358015158114610c44575f5ffd5b809150509250929050565b5f5f60408385031215610c60575f5ffd5b50508035926020909101359150565b5f5f60408385031215610c80575f5ffd5b610c8983610b79565b9150610c9760208401610b79565b90509250929050565b600181811c90821680610cb457607f821691505b602082108103610cd257634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52601160045260245ffd5b8181038181111561046a5761046a610cd8565b60208082526021908201527f546178546f6b656e3a2063616c6c6572206973206e6f7420746865206f776e656040820152603960f91b606082015260800190565b808202811582820484141761046a5761046a610cd8565b5f82610d7157634e487b7160e01b5f52601260045260245ffd5b500490565b8082018082111561046a5761046a610cd856fea2646970667358221220e7dc6ba19585ec5640ce83ca566f9f7dcd758838517e52591cb04d219ea82a7b64736f6c63430008250033",
}

// TaxTokenABI is the input ABI used to generate the binding from.
// Deprecated: Use TaxTokenMetaData.ABI instead.
var TaxTokenABI = TaxTokenMetaData.ABI

// TaxTokenBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use TaxTokenMetaData.Bin instead.
var TaxTokenBin = TaxTokenMetaData.Bin

// DeployTaxToken deploys a new Ethereum contract, binding an instance of TaxToken to it.
func DeployTaxToken(auth *bind.TransactOpts, backend bind.ContractBackend, name_ string, symbol_ string, supply *big.Int, buyTaxBps_ *big.Int, sellTaxBps_ *big.Int, taxWallet_ common.Address, factory common.Address, quote common.Address) (common.Address, *types.Transaction, *TaxToken, error) {
	parsed, err := TaxTokenMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(TaxTokenBin), backend, name_, symbol_, supply, buyTaxBps_, sellTaxBps_, taxWallet_, factory, quote)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &TaxToken{TaxTokenCaller: TaxTokenCaller{contract: contract}, TaxTokenTransactor: TaxTokenTransactor{contract: contract}, TaxTokenFilterer: TaxTokenFilterer{contract: contract}}, nil
}

// TaxToken is an auto generated Go binding around an Ethereum contract.
type TaxToken struct {
	TaxTokenCaller     // Read-only binding to the contract
	TaxTokenTransactor // Write-only binding to the contract
	TaxTokenFilterer   // Log filterer for contract events
}

// TaxTokenCaller is an auto generated read-only Go binding around an Ethereum contract.
type TaxTokenCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxTokenTransactor is an auto generated write-only Go binding around an Ethereum contract.
type TaxTokenTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxTokenFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type TaxTokenFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TaxTokenSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type TaxTokenSession struct {
	Contract     *TaxToken         // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// TaxTokenCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type TaxTokenCallerSession struct {
	Contract *TaxTokenCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts   // Call options to use throughout this session
}

// TaxTokenTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type TaxTokenTransactorSession struct {
	Contract     *TaxTokenTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts   // Transaction auth options to use throughout this session
}

// TaxTokenRaw is an auto generated low-level Go binding around an Ethereum contract.
type TaxTokenRaw struct {
	Contract *TaxToken // Generic contract binding to access the raw methods on
}

// TaxTokenCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type TaxTokenCallerRaw struct {
	Contract *TaxTokenCaller // Generic read-only contract binding to access the raw methods on
}

// TaxTokenTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type TaxTokenTransactorRaw struct {
	Contract *TaxTokenTransactor // Generic write-only contract binding to access the raw methods on
}

// NewTaxToken creates a new instance of TaxToken, bound to a specific deployed contract.
func NewTaxToken(address common.Address, backend bind.ContractBackend) (*TaxToken, error) {
	contract, err := bindTaxToken(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &TaxToken{TaxTokenCaller: TaxTokenCaller{contract: contract}, TaxTokenTransactor: TaxTokenTransactor{contract: contract}, TaxTokenFilterer: TaxTokenFilterer{contract: contract}}, nil
}

// NewTaxTokenCaller creates a new read-only instance of TaxToken, bound to a specific deployed contract.
func NewTaxTokenCaller(address common.Address, caller bind.ContractCaller) (*TaxTokenCaller, error) {
	contract, err := bindTaxToken(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &TaxTokenCaller{contract: contract}, nil
}

// NewTaxTokenTransactor creates a new write-only instance of TaxToken, bound to a specific deployed contract.
func NewTaxTokenTransactor(address common.Address, transactor bind.ContractTransactor) (*TaxTokenTransactor, error) {
	contract, err := bindTaxToken(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &TaxTokenTransactor{contract: contract}, nil
}

// NewTaxTokenFilterer creates a new log filterer instance of TaxToken, bound to a specific deployed contract.
func NewTaxTokenFilterer(address common.Address, filterer bind.ContractFilterer) (*TaxTokenFilterer, error) {
	contract, err := bindTaxToken(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &TaxTokenFilterer{contract: contract}, nil
}

// bindTaxToken binds a generic wrapper to an already deployed contract.
func bindTaxToken(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := TaxTokenMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TaxToken *TaxTokenRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TaxToken.Contract.TaxTokenCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TaxToken *TaxTokenRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TaxToken.Contract.TaxTokenTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TaxToken *TaxTokenRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TaxToken.Contract.TaxTokenTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TaxToken *TaxTokenCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TaxToken.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TaxToken *TaxTokenTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TaxToken.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TaxToken *TaxTokenTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TaxToken.Contract.contract.Transact(opts, method, params...)
}

// MAXBPS is a free data retrieval call binding the contract method 0xfd967f47.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (_TaxToken *TaxTokenCaller) MAXBPS(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "MAX_BPS")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// MAXBPS is a free data retrieval call binding the contract method 0xfd967f47.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (_TaxToken *TaxTokenSession) MAXBPS() (*big.Int, error) {
	return _TaxToken.Contract.MAXBPS(&_TaxToken.CallOpts)
}

// MAXBPS is a free data retrieval call binding the contract method 0xfd967f47.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) MAXBPS() (*big.Int, error) {
	return _TaxToken.Contract.MAXBPS(&_TaxToken.CallOpts)
}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_TaxToken *TaxTokenCaller) Allowance(opts *bind.CallOpts, arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "allowance", arg0, arg1)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_TaxToken *TaxTokenSession) Allowance(arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	return _TaxToken.Contract.Allowance(&_TaxToken.CallOpts, arg0, arg1)
}

// Allowance is a free data retrieval call binding the contract method 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) Allowance(arg0 common.Address, arg1 common.Address) (*big.Int, error) {
	return _TaxToken.Contract.Allowance(&_TaxToken.CallOpts, arg0, arg1)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_TaxToken *TaxTokenCaller) BalanceOf(opts *bind.CallOpts, arg0 common.Address) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "balanceOf", arg0)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_TaxToken *TaxTokenSession) BalanceOf(arg0 common.Address) (*big.Int, error) {
	return _TaxToken.Contract.BalanceOf(&_TaxToken.CallOpts, arg0)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) BalanceOf(arg0 common.Address) (*big.Int, error) {
	return _TaxToken.Contract.BalanceOf(&_TaxToken.CallOpts, arg0)
}

// BuyTaxBps is a free data retrieval call binding the contract method 0xc473413a.
//
// Solidity: function buyTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenCaller) BuyTaxBps(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "buyTaxBps")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// BuyTaxBps is a free data retrieval call binding the contract method 0xc473413a.
//
// Solidity: function buyTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenSession) BuyTaxBps() (*big.Int, error) {
	return _TaxToken.Contract.BuyTaxBps(&_TaxToken.CallOpts)
}

// BuyTaxBps is a free data retrieval call binding the contract method 0xc473413a.
//
// Solidity: function buyTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) BuyTaxBps() (*big.Int, error) {
	return _TaxToken.Contract.BuyTaxBps(&_TaxToken.CallOpts)
}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_TaxToken *TaxTokenCaller) Decimals(opts *bind.CallOpts) (uint8, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "decimals")

	if err != nil {
		return *new(uint8), err
	}

	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)

	return out0, err

}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_TaxToken *TaxTokenSession) Decimals() (uint8, error) {
	return _TaxToken.Contract.Decimals(&_TaxToken.CallOpts)
}

// Decimals is a free data retrieval call binding the contract method 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (_TaxToken *TaxTokenCallerSession) Decimals() (uint8, error) {
	return _TaxToken.Contract.Decimals(&_TaxToken.CallOpts)
}

// IsExempt is a free data retrieval call binding the contract method 0xad5dff73.
//
// Solidity: function isExempt(address ) view returns(bool)
func (_TaxToken *TaxTokenCaller) IsExempt(opts *bind.CallOpts, arg0 common.Address) (bool, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "isExempt", arg0)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// IsExempt is a free data retrieval call binding the contract method 0xad5dff73.
//
// Solidity: function isExempt(address ) view returns(bool)
func (_TaxToken *TaxTokenSession) IsExempt(arg0 common.Address) (bool, error) {
	return _TaxToken.Contract.IsExempt(&_TaxToken.CallOpts, arg0)
}

// IsExempt is a free data retrieval call binding the contract method 0xad5dff73.
//
// Solidity: function isExempt(address ) view returns(bool)
func (_TaxToken *TaxTokenCallerSession) IsExempt(arg0 common.Address) (bool, error) {
	return _TaxToken.Contract.IsExempt(&_TaxToken.CallOpts, arg0)
}

// IsPair is a free data retrieval call binding the contract method 0xe5e31b13.
//
// Solidity: function isPair(address ) view returns(bool)
func (_TaxToken *TaxTokenCaller) IsPair(opts *bind.CallOpts, arg0 common.Address) (bool, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "isPair", arg0)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// IsPair is a free data retrieval call binding the contract method 0xe5e31b13.
//
// Solidity: function isPair(address ) view returns(bool)
func (_TaxToken *TaxTokenSession) IsPair(arg0 common.Address) (bool, error) {
	return _TaxToken.Contract.IsPair(&_TaxToken.CallOpts, arg0)
}

// IsPair is a free data retrieval call binding the contract method 0xe5e31b13.
//
// Solidity: function isPair(address ) view returns(bool)
func (_TaxToken *TaxTokenCallerSession) IsPair(arg0 common.Address) (bool, error) {
	return _TaxToken.Contract.IsPair(&_TaxToken.CallOpts, arg0)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_TaxToken *TaxTokenCaller) Name(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "name")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_TaxToken *TaxTokenSession) Name() (string, error) {
	return _TaxToken.Contract.Name(&_TaxToken.CallOpts)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_TaxToken *TaxTokenCallerSession) Name() (string, error) {
	return _TaxToken.Contract.Name(&_TaxToken.CallOpts)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TaxToken *TaxTokenCaller) Owner(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "owner")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TaxToken *TaxTokenSession) Owner() (common.Address, error) {
	return _TaxToken.Contract.Owner(&_TaxToken.CallOpts)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TaxToken *TaxTokenCallerSession) Owner() (common.Address, error) {
	return _TaxToken.Contract.Owner(&_TaxToken.CallOpts)
}

// Pair is a free data retrieval call binding the contract method 0xa8aa1b31.
//
// Solidity: function pair() view returns(address)
func (_TaxToken *TaxTokenCaller) Pair(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "pair")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Pair is a free data retrieval call binding the contract method 0xa8aa1b31.
//
// Solidity: function pair() view returns(address)
func (_TaxToken *TaxTokenSession) Pair() (common.Address, error) {
	return _TaxToken.Contract.Pair(&_TaxToken.CallOpts)
}

// Pair is a free data retrieval call binding the contract method 0xa8aa1b31.
//
// Solidity: function pair() view returns(address)
func (_TaxToken *TaxTokenCallerSession) Pair() (common.Address, error) {
	return _TaxToken.Contract.Pair(&_TaxToken.CallOpts)
}

// SellTaxBps is a free data retrieval call binding the contract method 0xcffd129c.
//
// Solidity: function sellTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenCaller) SellTaxBps(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "sellTaxBps")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// SellTaxBps is a free data retrieval call binding the contract method 0xcffd129c.
//
// Solidity: function sellTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenSession) SellTaxBps() (*big.Int, error) {
	return _TaxToken.Contract.SellTaxBps(&_TaxToken.CallOpts)
}

// SellTaxBps is a free data retrieval call binding the contract method 0xcffd129c.
//
// Solidity: function sellTaxBps() view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) SellTaxBps() (*big.Int, error) {
	return _TaxToken.Contract.SellTaxBps(&_TaxToken.CallOpts)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_TaxToken *TaxTokenCaller) Symbol(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "symbol")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_TaxToken *TaxTokenSession) Symbol() (string, error) {
	return _TaxToken.Contract.Symbol(&_TaxToken.CallOpts)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_TaxToken *TaxTokenCallerSession) Symbol() (string, error) {
	return _TaxToken.Contract.Symbol(&_TaxToken.CallOpts)
}

// TaxWallet is a free data retrieval call binding the contract method 0x2dc0562d.
//
// Solidity: function taxWallet() view returns(address)
func (_TaxToken *TaxTokenCaller) TaxWallet(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "taxWallet")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// TaxWallet is a free data retrieval call binding the contract method 0x2dc0562d.
//
// Solidity: function taxWallet() view returns(address)
func (_TaxToken *TaxTokenSession) TaxWallet() (common.Address, error) {
	return _TaxToken.Contract.TaxWallet(&_TaxToken.CallOpts)
}

// TaxWallet is a free data retrieval call binding the contract method 0x2dc0562d.
//
// Solidity: function taxWallet() view returns(address)
func (_TaxToken *TaxTokenCallerSession) TaxWallet() (common.Address, error) {
	return _TaxToken.Contract.TaxWallet(&_TaxToken.CallOpts)
}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_TaxToken *TaxTokenCaller) TotalSupply(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _TaxToken.contract.Call(opts, &out, "totalSupply")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_TaxToken *TaxTokenSession) TotalSupply() (*big.Int, error) {
	return _TaxToken.Contract.TotalSupply(&_TaxToken.CallOpts)
}

// TotalSupply is a free data retrieval call binding the contract method 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (_TaxToken *TaxTokenCallerSession) TotalSupply() (*big.Int, error) {
	return _TaxToken.Contract.TotalSupply(&_TaxToken.CallOpts)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactor) Approve(opts *bind.TransactOpts, spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "approve", spender, value)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_TaxToken *TaxTokenSession) Approve(spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Approve(&_TaxToken.TransactOpts, spender, value)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactorSession) Approve(spender common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Approve(&_TaxToken.TransactOpts, spender, value)
}

// Mint is a paid mutator transaction binding the contract method 0x40c10f19.
//
// Solidity: function mint(address to, uint256 value) returns()
func (_TaxToken *TaxTokenTransactor) Mint(opts *bind.TransactOpts, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "mint", to, value)
}

// Mint is a paid mutator transaction binding the contract method 0x40c10f19.
//
// Solidity: function mint(address to, uint256 value) returns()
func (_TaxToken *TaxTokenSession) Mint(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Mint(&_TaxToken.TransactOpts, to, value)
}

// Mint is a paid mutator transaction binding the contract method 0x40c10f19.
//
// Solidity: function mint(address to, uint256 value) returns()
func (_TaxToken *TaxTokenTransactorSession) Mint(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Mint(&_TaxToken.TransactOpts, to, value)
}

// SetExempt is a paid mutator transaction binding the contract method 0x9fde54f5.
//
// Solidity: function setExempt(address account, bool exempt) returns()
func (_TaxToken *TaxTokenTransactor) SetExempt(opts *bind.TransactOpts, account common.Address, exempt bool) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "setExempt", account, exempt)
}

// SetExempt is a paid mutator transaction binding the contract method 0x9fde54f5.
//
// Solidity: function setExempt(address account, bool exempt) returns()
func (_TaxToken *TaxTokenSession) SetExempt(account common.Address, exempt bool) (*types.Transaction, error) {
	return _TaxToken.Contract.SetExempt(&_TaxToken.TransactOpts, account, exempt)
}

// SetExempt is a paid mutator transaction binding the contract method 0x9fde54f5.
//
// Solidity: function setExempt(address account, bool exempt) returns()
func (_TaxToken *TaxTokenTransactorSession) SetExempt(account common.Address, exempt bool) (*types.Transaction, error) {
	return _TaxToken.Contract.SetExempt(&_TaxToken.TransactOpts, account, exempt)
}

// SetPair is a paid mutator transaction binding the contract method 0x86a22eff.
//
// Solidity: function setPair(address account, bool registered) returns()
func (_TaxToken *TaxTokenTransactor) SetPair(opts *bind.TransactOpts, account common.Address, registered bool) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "setPair", account, registered)
}

// SetPair is a paid mutator transaction binding the contract method 0x86a22eff.
//
// Solidity: function setPair(address account, bool registered) returns()
func (_TaxToken *TaxTokenSession) SetPair(account common.Address, registered bool) (*types.Transaction, error) {
	return _TaxToken.Contract.SetPair(&_TaxToken.TransactOpts, account, registered)
}

// SetPair is a paid mutator transaction binding the contract method 0x86a22eff.
//
// Solidity: function setPair(address account, bool registered) returns()
func (_TaxToken *TaxTokenTransactorSession) SetPair(account common.Address, registered bool) (*types.Transaction, error) {
	return _TaxToken.Contract.SetPair(&_TaxToken.TransactOpts, account, registered)
}

// SetTaxWallet is a paid mutator transaction binding the contract method 0xea414b28.
//
// Solidity: function setTaxWallet(address wallet) returns()
func (_TaxToken *TaxTokenTransactor) SetTaxWallet(opts *bind.TransactOpts, wallet common.Address) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "setTaxWallet", wallet)
}

// SetTaxWallet is a paid mutator transaction binding the contract method 0xea414b28.
//
// Solidity: function setTaxWallet(address wallet) returns()
func (_TaxToken *TaxTokenSession) SetTaxWallet(wallet common.Address) (*types.Transaction, error) {
	return _TaxToken.Contract.SetTaxWallet(&_TaxToken.TransactOpts, wallet)
}

// SetTaxWallet is a paid mutator transaction binding the contract method 0xea414b28.
//
// Solidity: function setTaxWallet(address wallet) returns()
func (_TaxToken *TaxTokenTransactorSession) SetTaxWallet(wallet common.Address) (*types.Transaction, error) {
	return _TaxToken.Contract.SetTaxWallet(&_TaxToken.TransactOpts, wallet)
}

// SetTaxes is a paid mutator transaction binding the contract method 0xc647b20e.
//
// Solidity: function setTaxes(uint256 buyBps, uint256 sellBps) returns()
func (_TaxToken *TaxTokenTransactor) SetTaxes(opts *bind.TransactOpts, buyBps *big.Int, sellBps *big.Int) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "setTaxes", buyBps, sellBps)
}

// SetTaxes is a paid mutator transaction binding the contract method 0xc647b20e.
//
// Solidity: function setTaxes(uint256 buyBps, uint256 sellBps) returns()
func (_TaxToken *TaxTokenSession) SetTaxes(buyBps *big.Int, sellBps *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.SetTaxes(&_TaxToken.TransactOpts, buyBps, sellBps)
}

// SetTaxes is a paid mutator transaction binding the contract method 0xc647b20e.
//
// Solidity: function setTaxes(uint256 buyBps, uint256 sellBps) returns()
func (_TaxToken *TaxTokenTransactorSession) SetTaxes(buyBps *big.Int, sellBps *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.SetTaxes(&_TaxToken.TransactOpts, buyBps, sellBps)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactor) Transfer(opts *bind.TransactOpts, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "transfer", to, value)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenSession) Transfer(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Transfer(&_TaxToken.TransactOpts, to, value)
}

// Transfer is a paid mutator transaction binding the contract method 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactorSession) Transfer(to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.Transfer(&_TaxToken.TransactOpts, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactor) TransferFrom(opts *bind.TransactOpts, from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "transferFrom", from, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenSession) TransferFrom(from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.TransferFrom(&_TaxToken.TransactOpts, from, to, value)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (_TaxToken *TaxTokenTransactorSession) TransferFrom(from common.Address, to common.Address, value *big.Int) (*types.Transaction, error) {
	return _TaxToken.Contract.TransferFrom(&_TaxToken.TransactOpts, from, to, value)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_TaxToken *TaxTokenTransactor) TransferOwnership(opts *bind.TransactOpts, newOwner common.Address) (*types.Transaction, error) {
	return _TaxToken.contract.Transact(opts, "transferOwnership", newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_TaxToken *TaxTokenSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _TaxToken.Contract.TransferOwnership(&_TaxToken.TransactOpts, newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_TaxToken *TaxTokenTransactorSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _TaxToken.Contract.TransferOwnership(&_TaxToken.TransactOpts, newOwner)
}

// TaxTokenApprovalIterator is returned from FilterApproval and is used to iterate over the raw logs and unpacked data for Approval events raised by the TaxToken contract.
type TaxTokenApprovalIterator struct {
	Event *TaxTokenApproval // Event containing the contract specifics and raw log

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
func (it *TaxTokenApprovalIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenApproval)
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
		it.Event = new(TaxTokenApproval)
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
func (it *TaxTokenApprovalIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenApprovalIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenApproval represents a Approval event raised by the TaxToken contract.
type TaxTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterApproval is a free log retrieval operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (_TaxToken *TaxTokenFilterer) FilterApproval(opts *bind.FilterOpts, owner []common.Address, spender []common.Address) (*TaxTokenApprovalIterator, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var spenderRule []interface{}
	for _, spenderItem := range spender {
		spenderRule = append(spenderRule, spenderItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "Approval", ownerRule, spenderRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenApprovalIterator{contract: _TaxToken.contract, event: "Approval", logs: logs, sub: sub}, nil
}

// WatchApproval is a free log subscription operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (_TaxToken *TaxTokenFilterer) WatchApproval(opts *bind.WatchOpts, sink chan<- *TaxTokenApproval, owner []common.Address, spender []common.Address) (event.Subscription, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var spenderRule []interface{}
	for _, spenderItem := range spender {
		spenderRule = append(spenderRule, spenderItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "Approval", ownerRule, spenderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenApproval)
				if err := _TaxToken.contract.UnpackLog(event, "Approval", log); err != nil {
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
func (_TaxToken *TaxTokenFilterer) ParseApproval(log types.Log) (*TaxTokenApproval, error) {
	event := new(TaxTokenApproval)
	if err := _TaxToken.contract.UnpackLog(event, "Approval", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenExemptSetIterator is returned from FilterExemptSet and is used to iterate over the raw logs and unpacked data for ExemptSet events raised by the TaxToken contract.
type TaxTokenExemptSetIterator struct {
	Event *TaxTokenExemptSet // Event containing the contract specifics and raw log

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
func (it *TaxTokenExemptSetIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenExemptSet)
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
		it.Event = new(TaxTokenExemptSet)
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
func (it *TaxTokenExemptSetIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenExemptSetIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenExemptSet represents a ExemptSet event raised by the TaxToken contract.
type TaxTokenExemptSet struct {
	Account common.Address
	Exempt  bool
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterExemptSet is a free log retrieval operation binding the contract event 0xf33950bf7aa3300efb48f7896f309484c287418977abeba9f08f12cbe451d36a.
//
// Solidity: event ExemptSet(address indexed account, bool exempt)
func (_TaxToken *TaxTokenFilterer) FilterExemptSet(opts *bind.FilterOpts, account []common.Address) (*TaxTokenExemptSetIterator, error) {

	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "ExemptSet", accountRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenExemptSetIterator{contract: _TaxToken.contract, event: "ExemptSet", logs: logs, sub: sub}, nil
}

// WatchExemptSet is a free log subscription operation binding the contract event 0xf33950bf7aa3300efb48f7896f309484c287418977abeba9f08f12cbe451d36a.
//
// Solidity: event ExemptSet(address indexed account, bool exempt)
func (_TaxToken *TaxTokenFilterer) WatchExemptSet(opts *bind.WatchOpts, sink chan<- *TaxTokenExemptSet, account []common.Address) (event.Subscription, error) {

	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "ExemptSet", accountRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenExemptSet)
				if err := _TaxToken.contract.UnpackLog(event, "ExemptSet", log); err != nil {
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

// ParseExemptSet is a log parse operation binding the contract event 0xf33950bf7aa3300efb48f7896f309484c287418977abeba9f08f12cbe451d36a.
//
// Solidity: event ExemptSet(address indexed account, bool exempt)
func (_TaxToken *TaxTokenFilterer) ParseExemptSet(log types.Log) (*TaxTokenExemptSet, error) {
	event := new(TaxTokenExemptSet)
	if err := _TaxToken.contract.UnpackLog(event, "ExemptSet", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenOwnershipTransferredIterator is returned from FilterOwnershipTransferred and is used to iterate over the raw logs and unpacked data for OwnershipTransferred events raised by the TaxToken contract.
type TaxTokenOwnershipTransferredIterator struct {
	Event *TaxTokenOwnershipTransferred // Event containing the contract specifics and raw log

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
func (it *TaxTokenOwnershipTransferredIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenOwnershipTransferred)
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
		it.Event = new(TaxTokenOwnershipTransferred)
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
func (it *TaxTokenOwnershipTransferredIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenOwnershipTransferredIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenOwnershipTransferred represents a OwnershipTransferred event raised by the TaxToken contract.
type TaxTokenOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           types.Log // Blockchain specific contextual infos
}

// FilterOwnershipTransferred is a free log retrieval operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_TaxToken *TaxTokenFilterer) FilterOwnershipTransferred(opts *bind.FilterOpts, previousOwner []common.Address, newOwner []common.Address) (*TaxTokenOwnershipTransferredIterator, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenOwnershipTransferredIterator{contract: _TaxToken.contract, event: "OwnershipTransferred", logs: logs, sub: sub}, nil
}

// WatchOwnershipTransferred is a free log subscription operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_TaxToken *TaxTokenFilterer) WatchOwnershipTransferred(opts *bind.WatchOpts, sink chan<- *TaxTokenOwnershipTransferred, previousOwner []common.Address, newOwner []common.Address) (event.Subscription, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenOwnershipTransferred)
				if err := _TaxToken.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
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

// ParseOwnershipTransferred is a log parse operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_TaxToken *TaxTokenFilterer) ParseOwnershipTransferred(log types.Log) (*TaxTokenOwnershipTransferred, error) {
	event := new(TaxTokenOwnershipTransferred)
	if err := _TaxToken.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenPairSetIterator is returned from FilterPairSet and is used to iterate over the raw logs and unpacked data for PairSet events raised by the TaxToken contract.
type TaxTokenPairSetIterator struct {
	Event *TaxTokenPairSet // Event containing the contract specifics and raw log

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
func (it *TaxTokenPairSetIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenPairSet)
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
		it.Event = new(TaxTokenPairSet)
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
func (it *TaxTokenPairSetIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenPairSetIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenPairSet represents a PairSet event raised by the TaxToken contract.
type TaxTokenPairSet struct {
	Pair       common.Address
	Registered bool
	Raw        types.Log // Blockchain specific contextual infos
}

// FilterPairSet is a free log retrieval operation binding the contract event 0x3ce88d9221880ccac3da1d2b7bff84dc444bd01b3bb0d90da7826a6049f61ee5.
//
// Solidity: event PairSet(address indexed pair, bool registered)
func (_TaxToken *TaxTokenFilterer) FilterPairSet(opts *bind.FilterOpts, pair []common.Address) (*TaxTokenPairSetIterator, error) {

	var pairRule []interface{}
	for _, pairItem := range pair {
		pairRule = append(pairRule, pairItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "PairSet", pairRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenPairSetIterator{contract: _TaxToken.contract, event: "PairSet", logs: logs, sub: sub}, nil
}

// WatchPairSet is a free log subscription operation binding the contract event 0x3ce88d9221880ccac3da1d2b7bff84dc444bd01b3bb0d90da7826a6049f61ee5.
//
// Solidity: event PairSet(address indexed pair, bool registered)
func (_TaxToken *TaxTokenFilterer) WatchPairSet(opts *bind.WatchOpts, sink chan<- *TaxTokenPairSet, pair []common.Address) (event.Subscription, error) {

	var pairRule []interface{}
	for _, pairItem := range pair {
		pairRule = append(pairRule, pairItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "PairSet", pairRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenPairSet)
				if err := _TaxToken.contract.UnpackLog(event, "PairSet", log); err != nil {
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

// ParsePairSet is a log parse operation binding the contract event 0x3ce88d9221880ccac3da1d2b7bff84dc444bd01b3bb0d90da7826a6049f61ee5.
//
// Solidity: event PairSet(address indexed pair, bool registered)
func (_TaxToken *TaxTokenFilterer) ParsePairSet(log types.Log) (*TaxTokenPairSet, error) {
	event := new(TaxTokenPairSet)
	if err := _TaxToken.contract.UnpackLog(event, "PairSet", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenTaxWalletChangedIterator is returned from FilterTaxWalletChanged and is used to iterate over the raw logs and unpacked data for TaxWalletChanged events raised by the TaxToken contract.
type TaxTokenTaxWalletChangedIterator struct {
	Event *TaxTokenTaxWalletChanged // Event containing the contract specifics and raw log

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
func (it *TaxTokenTaxWalletChangedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenTaxWalletChanged)
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
		it.Event = new(TaxTokenTaxWalletChanged)
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
func (it *TaxTokenTaxWalletChangedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenTaxWalletChangedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenTaxWalletChanged represents a TaxWalletChanged event raised by the TaxToken contract.
type TaxTokenTaxWalletChanged struct {
	TaxWallet common.Address
	Raw       types.Log // Blockchain specific contextual infos
}

// FilterTaxWalletChanged is a free log retrieval operation binding the contract event 0x00a263b61aab5ebdcff20c4c0c74c2589ea5ab52149abde19eca17ad52217899.
//
// Solidity: event TaxWalletChanged(address indexed taxWallet)
func (_TaxToken *TaxTokenFilterer) FilterTaxWalletChanged(opts *bind.FilterOpts, taxWallet []common.Address) (*TaxTokenTaxWalletChangedIterator, error) {

	var taxWalletRule []interface{}
	for _, taxWalletItem := range taxWallet {
		taxWalletRule = append(taxWalletRule, taxWalletItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "TaxWalletChanged", taxWalletRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenTaxWalletChangedIterator{contract: _TaxToken.contract, event: "TaxWalletChanged", logs: logs, sub: sub}, nil
}

// WatchTaxWalletChanged is a free log subscription operation binding the contract event 0x00a263b61aab5ebdcff20c4c0c74c2589ea5ab52149abde19eca17ad52217899.
//
// Solidity: event TaxWalletChanged(address indexed taxWallet)
func (_TaxToken *TaxTokenFilterer) WatchTaxWalletChanged(opts *bind.WatchOpts, sink chan<- *TaxTokenTaxWalletChanged, taxWallet []common.Address) (event.Subscription, error) {

	var taxWalletRule []interface{}
	for _, taxWalletItem := range taxWallet {
		taxWalletRule = append(taxWalletRule, taxWalletItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "TaxWalletChanged", taxWalletRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenTaxWalletChanged)
				if err := _TaxToken.contract.UnpackLog(event, "TaxWalletChanged", log); err != nil {
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

// ParseTaxWalletChanged is a log parse operation binding the contract event 0x00a263b61aab5ebdcff20c4c0c74c2589ea5ab52149abde19eca17ad52217899.
//
// Solidity: event TaxWalletChanged(address indexed taxWallet)
func (_TaxToken *TaxTokenFilterer) ParseTaxWalletChanged(log types.Log) (*TaxTokenTaxWalletChanged, error) {
	event := new(TaxTokenTaxWalletChanged)
	if err := _TaxToken.contract.UnpackLog(event, "TaxWalletChanged", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenTaxesChangedIterator is returned from FilterTaxesChanged and is used to iterate over the raw logs and unpacked data for TaxesChanged events raised by the TaxToken contract.
type TaxTokenTaxesChangedIterator struct {
	Event *TaxTokenTaxesChanged // Event containing the contract specifics and raw log

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
func (it *TaxTokenTaxesChangedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenTaxesChanged)
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
		it.Event = new(TaxTokenTaxesChanged)
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
func (it *TaxTokenTaxesChangedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenTaxesChangedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenTaxesChanged represents a TaxesChanged event raised by the TaxToken contract.
type TaxTokenTaxesChanged struct {
	BuyTaxBps  *big.Int
	SellTaxBps *big.Int
	Raw        types.Log // Blockchain specific contextual infos
}

// FilterTaxesChanged is a free log retrieval operation binding the contract event 0x5eee0b95930ee59011f34615b0b7dc6cc58c01d1f07d04a01a3a1e70d2554cf0.
//
// Solidity: event TaxesChanged(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxToken *TaxTokenFilterer) FilterTaxesChanged(opts *bind.FilterOpts) (*TaxTokenTaxesChangedIterator, error) {

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "TaxesChanged")
	if err != nil {
		return nil, err
	}
	return &TaxTokenTaxesChangedIterator{contract: _TaxToken.contract, event: "TaxesChanged", logs: logs, sub: sub}, nil
}

// WatchTaxesChanged is a free log subscription operation binding the contract event 0x5eee0b95930ee59011f34615b0b7dc6cc58c01d1f07d04a01a3a1e70d2554cf0.
//
// Solidity: event TaxesChanged(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxToken *TaxTokenFilterer) WatchTaxesChanged(opts *bind.WatchOpts, sink chan<- *TaxTokenTaxesChanged) (event.Subscription, error) {

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "TaxesChanged")
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenTaxesChanged)
				if err := _TaxToken.contract.UnpackLog(event, "TaxesChanged", log); err != nil {
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

// ParseTaxesChanged is a log parse operation binding the contract event 0x5eee0b95930ee59011f34615b0b7dc6cc58c01d1f07d04a01a3a1e70d2554cf0.
//
// Solidity: event TaxesChanged(uint256 buyTaxBps, uint256 sellTaxBps)
func (_TaxToken *TaxTokenFilterer) ParseTaxesChanged(log types.Log) (*TaxTokenTaxesChanged, error) {
	event := new(TaxTokenTaxesChanged)
	if err := _TaxToken.contract.UnpackLog(event, "TaxesChanged", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// TaxTokenTransferIterator is returned from FilterTransfer and is used to iterate over the raw logs and unpacked data for Transfer events raised by the TaxToken contract.
type TaxTokenTransferIterator struct {
	Event *TaxTokenTransfer // Event containing the contract specifics and raw log

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
func (it *TaxTokenTransferIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(TaxTokenTransfer)
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
		it.Event = new(TaxTokenTransfer)
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
func (it *TaxTokenTransferIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *TaxTokenTransferIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// TaxTokenTransfer represents a Transfer event raised by the TaxToken contract.
type TaxTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   types.Log // Blockchain specific contextual infos
}

// FilterTransfer is a free log retrieval operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (_TaxToken *TaxTokenFilterer) FilterTransfer(opts *bind.FilterOpts, from []common.Address, to []common.Address) (*TaxTokenTransferIterator, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _TaxToken.contract.FilterLogs(opts, "Transfer", fromRule, toRule)
	if err != nil {
		return nil, err
	}
	return &TaxTokenTransferIterator{contract: _TaxToken.contract, event: "Transfer", logs: logs, sub: sub}, nil
}

// WatchTransfer is a free log subscription operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (_TaxToken *TaxTokenFilterer) WatchTransfer(opts *bind.WatchOpts, sink chan<- *TaxTokenTransfer, from []common.Address, to []common.Address) (event.Subscription, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}

	logs, sub, err := _TaxToken.contract.WatchLogs(opts, "Transfer", fromRule, toRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(TaxTokenTransfer)
				if err := _TaxToken.contract.UnpackLog(event, "Transfer", log); err != nil {
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
func (_TaxToken *TaxTokenFilterer) ParseTransfer(log types.Log) (*TaxTokenTransfer, error) {
	event := new(TaxTokenTransfer)
	if err := _TaxToken.contract.UnpackLog(event, "Transfer", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
