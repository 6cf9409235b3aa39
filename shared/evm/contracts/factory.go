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

// FactoryMetaData contains all meta data concerning the Factory contract.
var FactoryMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeToSetter_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token0\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token1\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"count\",\"type\":\"uint256\"}],\"name\":\"PairCreated\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"allPairs\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"allPairsLength\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenA\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenB\",\"type\":\"address\"}],\"name\":\"createPair\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeTo\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeToSetter\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"getPair\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pairCodeHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeTo_\",\"type\":\"address\"}],\"name\":\"setFeeTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeToSetter_\",\"type\":\"address\"}],\"name\":\"setFeeToSetter\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b50604051612346380380612346833981016040819052602b91604f565b600180546001600160a01b0319166001600160a01b0392909216919091179055607a565b5f60208284031215605e575f5ffd5b81516001600160a01b03811681146073575f5ffd5b9392505050565b6122bf806100875f395ff3fe608060405234801561000f575f5ffd5b5060043610610090575f3560e01c80639aab9248116100635780639aab9248146100fb578063a2e74af614610103578063c9c6539614610118578063e6a439051461012b578063f46901ed1461015e575f5ffd5b8063017e7e5814610094578063094b7415146100c35780631e3dd18b146100d6578063574f2ba3146100e9575b5f5ffd5b5f546100a6906001600160a01b031681565b6040516001600160a01b0390911681526020015b60405180910390f35b6001546100a6906001600160a01b031681565b6100a66100e436600461059a565b610171565b6003545b6040519081526020016100ba565b6100ed610199565b6101166101113660046105cc565b6101ca565b005b6100a66101263660046105ec565b610240565b6100a66101393660046105ec565b600260209081525f92835260408084209091529082529020546001600160a01b031681565b61011661016c3660046105cc565b61051d565b60038181548110610180575f80fd5b5f918252602090912001546001600160a01b0316905081565b5f604051806020016101aa9061058d565b6020820181038252601f19601f8201166040525080519060200120905090565b6001546001600160a01b0316331461021e5760405162461bcd60e51b81526020600482015260126024820152712330b1ba37b93c9d102327a92124a22222a760711b60448201526064015b60405180910390fd5b600180546001600160a01b0319166001600160a01b0392909216919091179055565b5f816001600160a01b0316836001600160a01b0316036102a25760405162461bcd60e51b815260206004820152601c60248201527f466163746f72793a204944454e544943414c5f414444524553534553000000006044820152606401610215565b5f5f836001600160a01b0316856001600160a01b0316106102c45783856102c7565b84845b90925090506001600160a01b03821661031a5760405162461bcd60e51b8152602060048201526015602482015274466163746f72793a205a45524f5f4144445245535360581b6044820152606401610215565b6001600160a01b038281165f908152600260209081526040808320858516845290915290205416156103855760405162461bcd60e51b8152602060048201526014602482015273466163746f72793a20504149525f45584953545360601b6044820152606401610215565b6040516bffffffffffffffffffffffff19606084811b8216602084015283901b166034820152604801604051602081830303815290604052805190602001206040516103d09061058d565b8190604051809103905ff59050801580156103ed573d5f5f3e3d5ffd5b5060405163485cc95560e01b81526001600160a01b03848116600483015283811660248301529194509084169063485cc955906044015f604051808303815f87803b15801561043a575f5ffd5b505af115801561044c573d5f5f3e3d5ffd5b505050506001600160a01b038281165f8181526002602081815260408084208787168086529083528185208054978b166001600160a01b031998891681179091559383528185208686528352818520805488168517905560038054600181018255958190527fc2575a0e9e593c00f959f8c92f12db2869c3395a3b0502d05e2516446f71f85b9095018054909716841790965592548351928352908201527f0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9910160405180910390a3505092915050565b6001546001600160a01b0316331461056c5760405162461bcd60e51b81526020600482015260126024820152712330b1ba37b93c9d102327a92124a22222a760711b6044820152606401610215565b5f80546001600160a01b0319166001600160a01b0392909216919091179055565b611c6c8061061e83390190565b5f602082840312156105aa575f5ffd5b5035919050565b80356001600160a01b03811681146105c7575f5ffd5b919050565b5f602082840312156105dc575f5ffd5b6105e5826105b1565b9392505050565b5f5f604083850312156105fd575f5ffd5b610606836105b1565b9150610614602084016105b1565b9050925092905056fe60c06040526001600855348015610014575f5ffd5b506040518060400160405280600c81526020016b5632204c697175696469747960a01b81525060405180604001604052806005815260200164056322d4c560dc1b81525060128260039081610069919061012b565b506004610076838261012b565b5060ff1660805250503360a0526101e9565b634e487b7160e01b5f52604160045260245ffd5b600181811c908216806100b057607f821691505b6020821081036100ce57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610126578282111561012657805f5260205f20601f840160051c60208510156100ff57505f5b90810190601f840160051c035f5b81811015610122575f8382015560010161010d565b5050505b505050565b81516001600160401b0381111561014457610144610088565b61015881610152845461009c565b846100d4565b6020601f82116001811461018a575f83156101735750848201515b5f19600385901b1c1916600184901b1784556101e2565b5f84815260208120601f198516915b828110156101b95787850151825560209485019460019092019101610199565b50848210156101d657868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b60805160a051611a5b6102115f395f81816102ec0152610a1401525f61020f0152611a5b5ff3fe608060405234801561000f575f5ffd5b5060043610610127575f3560e01c806370a08231116100a9578063bc25cf771161006e578063bc25cf77146102d4578063c45a0155146102e7578063d21220a71461030e578063dd62ed3e14610321578063fff6cae91461034b575f5ffd5b806370a082311461026957806389afcb441461028857806395d89b41146102b0578063a9059cbb146102b8578063ba9a7a56146102cb575f5ffd5b806318160ddd116100ef57806318160ddd146101e057806323b872dd146101f7578063313ce5671461020a578063485cc955146102435780636a62784214610256575f5ffd5b8063022c0d9f1461012b57806306fdde03146101405780630902f1ac1461015e578063095ea7b3146101925780630dfe1681146101b5575b5f5ffd5b61013e610139366004611750565b610353565b005b610148610828565b60405161015591906117de565b60405180910390f35b6101666108b4565b604080516001600160701b03948516815293909216602084015263ffffffff1690820152606001610155565b6101a56101a0366004611813565b6108de565b6040519015158152602001610155565b6005546101c8906001600160a01b031681565b6040516001600160a01b039091168152602001610155565b6101e960025481565b604051908152602001610155565b6101a561020536600461183b565b61094a565b6102317f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff9091168152602001610155565b61013e610251366004611875565b610a09565b6101e96102643660046118a6565b610aee565b6101e96102773660046118a6565b5f6020819052908152604090205481565b61029b6102963660046118a6565b610d80565b60408051928352602083019190915201610155565b610148611083565b6101a56102c6366004611813565b611090565b6101e96103e881565b61013e6102e23660046118a6565b6110a5565b6101c87f000000000000000000000000000000000000000000000000000000000000000081565b6006546101c8906001600160a01b031681565b6101e961032f366004611875565b600160209081525f928352604080842090915290825290205481565b61013e6111b5565b60085460011461037e5760405162461bcd60e51b8152600401610375906118c6565b60405180910390fd5b5f6008558415158061038f57505f84115b6103db5760405162461bcd60e51b815260206004820181905260248201527f506169723a20494e53554646494349454e545f4f55545055545f414d4f554e546044820152606401610375565b5f5f6103e56108b4565b5091509150816001600160701b03168710801561040a5750806001600160701b031686105b6104565760405162461bcd60e51b815260206004820152601c60248201527f506169723a20494e53554646494349454e545f4c4951554944495459000000006044820152606401610375565b6005546006545f9182916001600160a01b039182169190811690891682148015906104935750806001600160a01b0316896001600160a01b031614155b6104d25760405162461bcd60e51b815260206004820152601060248201526f506169723a20494e56414c49445f544f60801b6044820152606401610375565b8a156104e3576104e3828a8d61127e565b89156104f4576104f4818a8c61127e565b861561055c576040516304347a1760e21b81526001600160a01b038a16906310d1e85c9061052e9033908f908f908e908e906004016118ec565b5f604051808303815f87803b158015610545575f5ffd5b505af1158015610557573d5f5f3e3d5ffd5b505050505b6040516370a0823160e01b81523060048201526001600160a01b038316906370a0823190602401602060405180830381865afa15801561059e573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906105c29190611937565b6040516370a0823160e01b81523060048201529094506001600160a01b038216906370a0823190602401602060405180830381865afa158015610607573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061062b9190611937565b925050505f89856001600160701b03166106459190611962565b8311610651575f61066e565b6106648a6001600160701b038716611962565b61066e9084611962565b90505f6106848a6001600160701b038716611962565b8311610690575f6106ad565b6106a38a6001600160701b038716611962565b6106ad9084611962565b90505f8211806106bc57505f81115b6107085760405162461bcd60e51b815260206004820152601f60248201527f506169723a20494e53554646494349454e545f494e5055545f414d4f554e54006044820152606401610375565b5f610714836003611975565b610720866103e8611975565b61072a9190611962565b90505f610738836003611975565b610744866103e8611975565b61074e9190611962565b90506107666001600160701b03808916908a16611975565b61077390620f4240611975565b61077d8284611975565b10156107b55760405162461bcd60e51b8152602060048201526007602482015266506169723a204b60c81b6044820152606401610375565b50506107c1848461138a565b60408051838152602081018390529081018c9052606081018b90526001600160a01b038a169033907fd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d8229060800160405180910390a350506001600855505050505050505050565b600380546108359061198c565b80601f01602080910402602001604051908101604052809291908181526020018280546108619061198c565b80156108ac5780601f10610883576101008083540402835291602001916108ac565b820191905f5260205f20905b81548152906001019060200180831161088f57829003601f168201915b505050505081565b6007546001600160701b0380821692600160701b830490911691600160e01b900463ffffffff1690565b335f8181526001602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906109389086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f9081526001602090815260408083203384529091528120545f1981146109f357828110156109c55760405162461bcd60e51b815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e63650000006044820152606401610375565b6109cf8382611962565b6001600160a01b0386165f9081526001602090815260408083203384529091529020555b6109fe858585611479565b506001949350505050565b336001600160a01b037f00000000000000000000000000000000000000000000000000000000000000001614610a735760405162461bcd60e51b815260206004820152600f60248201526e2830b4b91d102327a92124a22222a760891b6044820152606401610375565b6005546001600160a01b031615610ac05760405162461bcd60e51b815260206004820152601160248201527014185a5c8e881253925512505312569151607a1b6044820152606401610375565b600580546001600160a01b039384166001600160a01b03199182161790915560068054929093169116179055565b5f600854600114610b115760405162461bcd60e51b8152600401610375906118c6565b5f600881905580610b206108b4565b506005546040516370a0823160e01b81523060048201529294509092505f916001600160a01b03909116906370a0823190602401602060405180830381865afa158015610b6f573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610b939190611937565b6006546040516370a0823160e01b81523060048201529192505f916001600160a01b03909116906370a0823190602401602060405180830381865afa158015610bde573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610c029190611937565b90505f610c186001600160701b03861684611962565b90505f610c2e6001600160701b03861684611962565b6002549091505f819003610c6e576103e8610c51610c4c8486611975565b611489565b610c5b9190611962565b9750610c695f6103e86114f7565b610cc4565b5f6001600160701b038816610c838386611975565b610c8d91906119be565b90505f6001600160701b038816610ca48486611975565b610cae91906119be565b9050808210610cbd5780610cbf565b815b995050505b5f8811610d1f5760405162461bcd60e51b815260206004820152602360248201527f506169723a20494e53554646494349454e545f4c49515549444954595f4d494e60448201526215115160ea1b6064820152608401610375565b610d2989896114f7565b610d33858561138a565b604080518481526020810184905233917f4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f910160405180910390a250506001600855509395945050505050565b5f5f600854600114610da45760405162461bcd60e51b8152600401610375906118c6565b5f60088190556005546006546040516370a0823160e01b81523060048201526001600160a01b039283169392909116919083906370a0823190602401602060405180830381865afa158015610dfb573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610e1f9190611937565b6040516370a0823160e01b81523060048201529091505f906001600160a01b038416906370a0823190602401602060405180830381865afa158015610e66573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610e8a9190611937565b305f908152602081905260409020546002549192509080610eab8584611975565b610eb591906119be565b975080610ec28484611975565b610ecc91906119be565b96505f88118015610edc57505f87115b610f345760405162461bcd60e51b815260206004820152602360248201527f506169723a20494e53554646494349454e545f4c49515549444954595f42555260448201526213915160ea1b6064820152608401610375565b610f3e308361157d565b610f49868a8a61127e565b610f54858a8961127e565b6040516370a0823160e01b815230600482015261102a906001600160a01b038816906370a0823190602401602060405180830381865afa158015610f9a573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610fbe9190611937565b6040516370a0823160e01b81523060048201526001600160a01b038816906370a08231906024015b602060405180830381865afa158015611001573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906110259190611937565b61138a565b60408051898152602081018990526001600160a01b038b169133917fdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496910160405180910390a35050505050506001600881905550915091565b600480546108359061198c565b5f61109c338484611479565b50600192915050565b6008546001146110c75760405162461bcd60e51b8152600401610375906118c6565b5f6008556005546006546007546040516370a0823160e01b81523060048201526001600160a01b03938416939092169161116391849186916001600160701b03169083906370a08231906024015b602060405180830381865afa158015611130573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906111549190611937565b61115e9190611962565b61127e565b6007546040516370a0823160e01b81523060048201526111ab9183918691600160701b90046001600160701b0316906001600160a01b038416906370a0823190602401611115565b5050600160085550565b6008546001146111d75760405162461bcd60e51b8152600401610375906118c6565b5f6008556005546040516370a0823160e01b8152306004820152611277916001600160a01b0316906370a0823190602401602060405180830381865afa158015611223573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906112479190611937565b6006546040516370a0823160e01b81523060048201526001600160a01b03909116906370a0823190602401610fe6565b6001600855565b6040516001600160a01b038381166024830152604482018390525f91829186169060640160408051601f198184030181529181526020820180516001600160e01b031663a9059cbb60e01b179052516112d791906119dd565b5f604051808303815f865af19150503d805f8114611310576040519150601f19603f3d011682016040523d82523d5f602084013e611315565b606091505b509150915081801561133f57508051158061133f57508080602001905181019061133f91906119f3565b6113835760405162461bcd60e51b815260206004820152601560248201527414185a5c8e881514905394d1915497d19052531151605a1b6044820152606401610375565b5050505050565b6001600160701b0382118015906113a857506001600160701b038111155b6113e55760405162461bcd60e51b815260206004820152600e60248201526d506169723a204f564552464c4f5760901b6044820152606401610375565b6007805463ffffffff4216600160e01b026001600160e01b036001600160701b03858116600160701b9081026001600160e01b03199095168883161794909417918216831794859055604080519382169282169290921783529290930490911660208201527f1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1910160405180910390a15050565b611484838383611642565b505050565b5f60038211156114e85750805f6114a16002836119be565b6114ac906001611a12565b90505b818110156114e2579050806002816114c781866119be565b6114d19190611a12565b6114db91906119be565b90506114af565b50919050565b81156114f2575060015b919050565b8060025f8282546115089190611a12565b90915550506001600160a01b0382165f9081526020819052604081208054839290611534908490611a12565b90915550506040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b6001600160a01b0382165f90815260208190526040902054818110156115e55760405162461bcd60e51b815260206004820152601b60248201527f45524332303a206275726e20657863656564732062616c616e636500000000006044820152606401610375565b6001600160a01b0383165f818152602081815260408083208686039055600280548790039055518581529192917fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a3505050565b6001600160a01b0383165f90815260208190526040902054818110156116aa5760405162461bcd60e51b815260206004820152601b60248201527f45524332303a20696e73756666696369656e742062616c616e636500000000006044820152606401610375565b6001600160a01b038085165f908152602081905260408082208585039055918516815290812080548492906116e0908490611a12565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8460405161172c91815260200190565b60405180910390a350505050565b80356001600160a01b03811681146114f2575f5ffd5b5f5f5f5f5f60808688031215611764575f5ffd5b853594506020860135935061177b6040870161173a565b9250606086013567ffffffffffffffff811115611796575f5ffd5b8601601f810188136117a6575f5ffd5b803567ffffffffffffffff8111156117bc575f5ffd5b8860208284010111156117cd575f5ffd5b959894975092955050506020019190565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f5f60408385031215611824575f5ffd5b61182d8361173a565b946020939093013593505050565b5f5f5f6060848603121561184d575f5ffd5b6118568461173a565b92506118646020850161173a565b929592945050506040919091013590565b5f5f60408385031215611886575f5ffd5b61188f8361173a565b915061189d6020840161173a565b90509250929050565b5f602082840312156118b6575f5ffd5b6118bf8261173a565b9392505050565b6020808252600c908201526b14185a5c8e881313d0d2d15160a21b604082015260600190565b60018060a01b038616815284602082015283604082015260806060820152816080820152818360a08301375f81830160a090810191909152601f909201601f19160101949350505050565b5f60208284031215611947575f5ffd5b5051919050565b634e487b7160e01b5f52601160045260245ffd5b818103818111156109445761094461194e565b80820281158282048414176109445761094461194e565b600181811c908216806119a057607f821691505b6020821081036114e257634e487b7160e01b5f52602260045260245ffd5b5f826119d857634e487b7160e01b5f52601260045260245ffd5b500490565b5f82518060208501845e5f920191825250919050565b5f60208284031215611a03575f5ffd5b815180151581146118bf575f5ffd5b808201808211156109445761094461194e56fea264697066735822122099a569daffea05cf5c20c7b11fe7eab49e60842711f94956b9c5d0b227f1355d64736f6c63430008250033a2646970667358221220e069586a5284212124b306290d5d182c39845f11ff0689ce3cf9cb348066f27464736f6c63430008250033",
}

// FactoryABI is the input ABI used to generate the binding from.
// Deprecated: Use FactoryMetaData.ABI instead.
var FactoryABI = FactoryMetaData.ABI

// FactoryBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use FactoryMetaData.Bin instead.
var FactoryBin = FactoryMetaData.Bin

// DeployFactory deploys a new Ethereum contract, binding an instance of Factory to it.
func DeployFactory(auth *bind.TransactOpts, backend bind.ContractBackend, feeToSetter_ common.Address) (common.Address, *types.Transaction, *Factory, error) {
	parsed, err := FactoryMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(FactoryBin), backend, feeToSetter_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &Factory{FactoryCaller: FactoryCaller{contract: contract}, FactoryTransactor: FactoryTransactor{contract: contract}, FactoryFilterer: FactoryFilterer{contract: contract}}, nil
}

// Factory is an auto generated Go binding around an Ethereum contract.
type Factory struct {
	FactoryCaller     // Read-only binding to the contract
	FactoryTransactor // Write-only binding to the contract
	FactoryFilterer   // Log filterer for contract events
}

// FactoryCaller is an auto generated read-only Go binding around an Ethereum contract.
type FactoryCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// FactoryTransactor is an auto generated write-only Go binding around an Ethereum contract.
type FactoryTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// FactoryFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type FactoryFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// FactorySession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type FactorySession struct {
	Contract     *Factory          // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// FactoryCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type FactoryCallerSession struct {
	Contract *FactoryCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts  // Call options to use throughout this session
}

// FactoryTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type FactoryTransactorSession struct {
	Contract     *FactoryTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts  // Transaction auth options to use throughout this session
}

// FactoryRaw is an auto generated low-level Go binding around an Ethereum contract.
type FactoryRaw struct {
	Contract *Factory // Generic contract binding to access the raw methods on
}

// FactoryCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type FactoryCallerRaw struct {
	Contract *FactoryCaller // Generic read-only contract binding to access the raw methods on
}

// FactoryTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type FactoryTransactorRaw struct {
	Contract *FactoryTransactor // Generic write-only contract binding to access the raw methods on
}

// NewFactory creates a new instance of Factory, bound to a specific deployed contract.
func NewFactory(address common.Address, backend bind.ContractBackend) (*Factory, error) {
	contract, err := bindFactory(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &Factory{FactoryCaller: FactoryCaller{contract: contract}, FactoryTransactor: FactoryTransactor{contract: contract}, FactoryFilterer: FactoryFilterer{contract: contract}}, nil
}

// NewFactoryCaller creates a new read-only instance of Factory, bound to a specific deployed contract.
func NewFactoryCaller(address common.Address, caller bind.ContractCaller) (*FactoryCaller, error) {
	contract, err := bindFactory(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &FactoryCaller{contract: contract}, nil
}

// NewFactoryTransactor creates a new write-only instance of Factory, bound to a specific deployed contract.
func NewFactoryTransactor(address common.Address, transactor bind.ContractTransactor) (*FactoryTransactor, error) {
	contract, err := bindFactory(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &FactoryTransactor{contract: contract}, nil
}

// NewFactoryFilterer creates a new log filterer instance of Factory, bound to a specific deployed contract.
func NewFactoryFilterer(address common.Address, filterer bind.ContractFilterer) (*FactoryFilterer, error) {
	contract, err := bindFactory(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &FactoryFilterer{contract: contract}, nil
}

// bindFactory binds a generic wrapper to an already deployed contract.
func bindFactory(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := FactoryMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_Factory *FactoryRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _Factory.Contract.FactoryCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_Factory *FactoryRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _Factory.Contract.FactoryTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_Factory *FactoryRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _Factory.Contract.FactoryTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_Factory *FactoryCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _Factory.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_Factory *FactoryTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _Factory.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_Factory *FactoryTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _Factory.Contract.contract.Transact(opts, method, params...)
}

// AllPairs is a free data retrieval call binding the contract method 0x1e3dd18b.
//
// Solidity: function allPairs(uint256 ) view returns(address)
func (_Factory *FactoryCaller) AllPairs(opts *bind.CallOpts, arg0 *big.Int) (common.Address, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "allPairs", arg0)

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// AllPairs is a free data retrieval call binding the contract method 0x1e3dd18b.
//
// Solidity: function allPairs(uint256 ) view returns(address)
func (_Factory *FactorySession) AllPairs(arg0 *big.Int) (common.Address, error) {
	return _Factory.Contract.AllPairs(&_Factory.CallOpts, arg0)
}

// AllPairs is a free data retrieval call binding the contract method 0x1e3dd18b.
//
// Solidity: function allPairs(uint256 ) view returns(address)
func (_Factory *FactoryCallerSession) AllPairs(arg0 *big.Int) (common.Address, error) {
	return _Factory.Contract.AllPairs(&_Factory.CallOpts, arg0)
}

// AllPairsLength is a free data retrieval call binding the contract method 0x574f2ba3.
//
// Solidity: function allPairsLength() view returns(uint256)
func (_Factory *FactoryCaller) AllPairsLength(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "allPairsLength")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// AllPairsLength is a free data retrieval call binding the contract method 0x574f2ba3.
//
// Solidity: function allPairsLength() view returns(uint256)
func (_Factory *FactorySession) AllPairsLength() (*big.Int, error) {
	return _Factory.Contract.AllPairsLength(&_Factory.CallOpts)
}

// AllPairsLength is a free data retrieval call binding the contract method 0x574f2ba3.
//
// Solidity: function allPairsLength() view returns(uint256)
func (_Factory *FactoryCallerSession) AllPairsLength() (*big.Int, error) {
	return _Factory.Contract.AllPairsLength(&_Factory.CallOpts)
}

// FeeTo is a free data retrieval call binding the contract method 0x017e7e58.
//
// Solidity: function feeTo() view returns(address)
func (_Factory *FactoryCaller) FeeTo(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "feeTo")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// FeeTo is a free data retrieval call binding the contract method 0x017e7e58.
//
// Solidity: function feeTo() view returns(address)
func (_Factory *FactorySession) FeeTo() (common.Address, error) {
	return _Factory.Contract.FeeTo(&_Factory.CallOpts)
}

// FeeTo is a free data retrieval call binding the contract method 0x017e7e58.
//
// Solidity: function feeTo() view returns(address)
func (_Factory *FactoryCallerSession) FeeTo() (common.Address, error) {
	return _Factory.Contract.FeeTo(&_Factory.CallOpts)
}

// FeeToSetter is a free data retrieval call binding the contract method 0x094b7415.
//
// Solidity: function feeToSetter() view returns(address)
func (_Factory *FactoryCaller) FeeToSetter(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "feeToSetter")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// FeeToSetter is a free data retrieval call binding the contract method 0x094b7415.
//
// Solidity: function feeToSetter() view returns(address)
func (_Factory *FactorySession) FeeToSetter() (common.Address, error) {
	return _Factory.Contract.FeeToSetter(&_Factory.CallOpts)
}

// FeeToSetter is a free data retrieval call binding the contract method 0x094b7415.
//
// Solidity: function feeToSetter() view returns(address)
func (_Factory *FactoryCallerSession) FeeToSetter() (common.Address, error) {
	return _Factory.Contract.FeeToSetter(&_Factory.CallOpts)
}

// GetPair is a free data retrieval call binding the contract method 0xe6a43905.
//
// Solidity: function getPair(address , address ) view returns(address)
func (_Factory *FactoryCaller) GetPair(opts *bind.CallOpts, arg0 common.Address, arg1 common.Address) (common.Address, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "getPair", arg0, arg1)

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// GetPair is a free data retrieval call binding the contract method 0xe6a43905.
//
// Solidity: function getPair(address , address ) view returns(address)
func (_Factory *FactorySession) GetPair(arg0 common.Address, arg1 common.Address) (common.Address, error) {
	return _Factory.Contract.GetPair(&_Factory.CallOpts, arg0, arg1)
}

// GetPair is a free data retrieval call binding the contract method 0xe6a43905.
//
// Solidity: function getPair(address , address ) view returns(address)
func (_Factory *FactoryCallerSession) GetPair(arg0 common.Address, arg1 common.Address) (common.Address, error) {
	return _Factory.Contract.GetPair(&_Factory.CallOpts, arg0, arg1)
}

// PairCodeHash is a free data retrieval call binding the contract method 0x9aab9248.
//
// Solidity: function pairCodeHash() pure returns(bytes32)
func (_Factory *FactoryCaller) PairCodeHash(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _Factory.contract.Call(opts, &out, "pairCodeHash")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// PairCodeHash is a free data retrieval call binding the contract method 0x9aab9248.
//
// Solidity: function pairCodeHash() pure returns(bytes32)
func (_Factory *FactorySession) PairCodeHash() ([32]byte, error) {
	return _Factory.Contract.PairCodeHash(&_Factory.CallOpts)
}

// PairCodeHash is a free data retrieval call binding the contract method 0x9aab9248.
//
// Solidity: function pairCodeHash() pure returns(bytes32)
func (_Factory *FactoryCallerSession) PairCodeHash() ([32]byte, error) {
	return _Factory.Contract.PairCodeHash(&_Factory.CallOpts)
}

// CreatePair is a paid mutator transaction binding the contract method 0xc9c65396.
//
// Solidity: function createPair(address tokenA, address tokenB) returns(address pair)
func (_Factory *FactoryTransactor) CreatePair(opts *bind.TransactOpts, tokenA common.Address, tokenB common.Address) (*types.Transaction, error) {
	return _Factory.contract.Transact(opts, "createPair", tokenA, tokenB)
}

// CreatePair is a paid mutator transaction binding the contract method 0xc9c65396.
//
// Solidity: function createPair(address tokenA, address tokenB) returns(address pair)
func (_Factory *FactorySession) CreatePair(tokenA common.Address, tokenB common.Address) (*types.Transaction, error) {
	return _Factory.Contract.CreatePair(&_Factory.TransactOpts, tokenA, tokenB)
}

// CreatePair is a paid mutator transaction binding the contract method 0xc9c65396.
//
// Solidity: function createPair(address tokenA, address tokenB) returns(address pair)
func (_Factory *FactoryTransactorSession) CreatePair(tokenA common.Address, tokenB common.Address) (*types.Transaction, error) {
	return _Factory.Contract.CreatePair(&_Factory.TransactOpts, tokenA, tokenB)
}

// SetFeeTo is a paid mutator transaction binding the contract method 0xf46901ed.
//
// Solidity: function setFeeTo(address feeTo_) returns()
func (_Factory *FactoryTransactor) SetFeeTo(opts *bind.TransactOpts, feeTo_ common.Address) (*types.Transaction, error) {
	return _Factory.contract.Transact(opts, "setFeeTo", feeTo_)
}

// SetFeeTo is a paid mutator transaction binding the contract method 0xf46901ed.
//
// Solidity: function setFeeTo(address feeTo_) returns()
func (_Factory *FactorySession) SetFeeTo(feeTo_ common.Address) (*types.Transaction, error) {
	return _Factory.Contract.SetFeeTo(&_Factory.TransactOpts, feeTo_)
}

// SetFeeTo is a paid mutator transaction binding the contract method 0xf46901ed.
//
// Solidity: function setFeeTo(address feeTo_) returns()
func (_Factory *FactoryTransactorSession) SetFeeTo(feeTo_ common.Address) (*types.Transaction, error) {
	return _Factory.Contract.SetFeeTo(&_Factory.TransactOpts, feeTo_)
}

// SetFeeToSetter is a paid mutator transaction binding the contract method 0xa2e74af6.
//
// Solidity: function setFeeToSetter(address feeToSetter_) returns()
func (_Factory *FactoryTransactor) SetFeeToSetter(opts *bind.TransactOpts, feeToSetter_ common.Address) (*types.Transaction, error) {
	return _Factory.contract.Transact(opts, "setFeeToSetter", feeToSetter_)
}

// SetFeeToSetter is a paid mutator transaction binding the contract method 0xa2e74af6.
//
// Solidity: function setFeeToSetter(address feeToSetter_) returns()
func (_Factory *FactorySession) SetFeeToSetter(feeToSetter_ common.Address) (*types.Transaction, error) {
	return _Factory.Contract.SetFeeToSetter(&_Factory.TransactOpts, feeToSetter_)
}

// SetFeeToSetter is a paid mutator transaction binding the contract method 0xa2e74af6.
//
// Solidity: function setFeeToSetter(address feeToSetter_) returns()
func (_Factory *FactoryTransactorSession) SetFeeToSetter(feeToSetter_ common.Address) (*types.Transaction, error) {
	return _Factory.Contract.SetFeeToSetter(&_Factory.TransactOpts, feeToSetter_)
}

// FactoryPairCreatedIterator is returned from FilterPairCreated and is used to iterate over the raw logs and unpacked data for PairCreated events raised by the Factory contract.
type FactoryPairCreatedIterator struct {
	Event *FactoryPairCreated // Event containing the contract specifics and raw log

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
func (it *FactoryPairCreatedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(FactoryPairCreated)
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
		it.Event = new(FactoryPairCreated)
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
func (it *FactoryPairCreatedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *FactoryPairCreatedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// FactoryPairCreated represents a PairCreated event raised by the Factory contract.
type FactoryPairCreated struct {
	Token0 common.Address
	Token1 common.Address
	Pair   common.Address
	Count  *big.Int
	Raw    types.Log // Blockchain specific contextual infos
}

// FilterPairCreated is a free log retrieval operation binding the contract event 0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9.
//
// Solidity: event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)
func (_Factory *FactoryFilterer) FilterPairCreated(opts *bind.FilterOpts, token0 []common.Address, token1 []common.Address) (*FactoryPairCreatedIterator, error) {

	var token0Rule []interface{}
	for _, token0Item := range token0 {
		token0Rule = append(token0Rule, token0Item)
	}
	var token1Rule []interface{}
	for _, token1Item := range token1 {
		token1Rule = append(token1Rule, token1Item)
	}

	logs, sub, err := _Factory.contract.FilterLogs(opts, "PairCreated", token0Rule, token1Rule)
	if err != nil {
		return nil, err
	}
	return &FactoryPairCreatedIterator{contract: _Factory.contract, event: "PairCreated", logs: logs, sub: sub}, nil
}

// WatchPairCreated is a free log subscription operation binding the contract event 0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9.
//
// Solidity: event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)
func (_Factory *FactoryFilterer) WatchPairCreated(opts *bind.WatchOpts, sink chan<- *FactoryPairCreated, token0 []common.Address, token1 []common.Address) (event.Subscription, error) {

	var token0Rule []interface{}
	for _, token0Item := range token0 {
		token0Rule = append(token0Rule, token0Item)
	}
	var token1Rule []interface{}
	for _, token1Item := range token1 {
		token1Rule = append(token1Rule, token1Item)
	}

	logs, sub, err := _Factory.contract.WatchLogs(opts, "PairCreated", token0Rule, token1Rule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(FactoryPairCreated)
				if err := _Factory.contract.UnpackLog(event, "PairCreated", log); err != nil {
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

// ParsePairCreated is a log parse operation binding the contract event 0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9.
//
// Solidity: event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)
func (_Factory *FactoryFilterer) ParsePairCreated(log types.Log) (*FactoryPairCreated, error) {
	event := new(FactoryPairCreated)
	if err := _Factory.contract.UnpackLog(event, "PairCreated", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
