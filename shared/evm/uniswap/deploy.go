package uniswap

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// Backend is what deploying and seeding need of a chain: sending and
// calling (bind.ContractBackend) and waiting for receipts
// (bind.DeployBackend). *ethclient.Client and the simulated backend's
// client implement it.
//
// Deploy and the AddLiquidity functions send each transaction from opts.From
// with its next nonce, no value but what the call needs, and the estimated
// gas plus a margin (see send), ignoring opts.Nonce, opts.Value and
// opts.GasLimit; they wait for each transaction and fail on a revert.
type Backend interface {
	bind.ContractBackend
	bind.DeployBackend
}

// Addresses are the contracts of one deployment of the official set.
type Addresses struct {
	// WETH9 is the wrapped native token the routers and the position
	// manager wrap and unwrap the native coin with.
	WETH9 common.Address `json:"weth9"`
	// V2Factory creates the V2 pairs; its feeToSetter is the deployer.
	V2Factory common.Address `json:"v2Factory"`
	// V2Router02 is the V2 router (UniswapV2Router02).
	V2Router02 common.Address `json:"v2Router02"`
	// V3Factory creates the V3 pools, with the fee tiers of FeeTiers.
	V3Factory common.Address `json:"v3Factory"`
	// PositionManager is the NonfungiblePositionManager, which creates,
	// initialises and funds V3 pools. Its token descriptor is the zero
	// address, so its tokenURI reverts.
	PositionManager common.Address `json:"positionManager"`
	// SwapRouter02 routes swaps over V2 pairs and V3 pools.
	SwapRouter02 common.Address `json:"swapRouter02"`
	// QuoterV2 quotes V3 swaps by eth_call.
	QuoterV2 common.Address `json:"quoterV2"`
}

type namedAddress struct {
	name string
	addr common.Address
}

// contracts lists the Uniswap contracts of a, without WETH9.
func (a Addresses) contracts() []namedAddress {
	return []namedAddress{
		{NameUniswapV2Factory, a.V2Factory},
		{NameUniswapV2Router02, a.V2Router02},
		{NameUniswapV3Factory, a.V3Factory},
		{NameNonfungiblePositionManager, a.PositionManager},
		{NameSwapRouter02, a.SwapRouter02},
		{NameQuoterV2, a.QuoterV2},
	}
}

// Tx is one transaction of a deployment, sent by the deployer: the
// creation of a contract when To is nil, else a call.
type Tx struct {
	// What says what the transaction does, for errors and logs.
	What string
	To   *common.Address
	Data []byte
	// Gas is a fixed gas limit above what the transaction uses on a chain
	// with Ethereum mainnet's gas schedule (through Osaka), for senders
	// that cannot estimate, e.g. because they send the whole list before
	// the first transaction is mined.
	Gas uint64
}

// Gas limits of the deployment's transactions: each is the gas used on
// go-ethereum's dev chain rounded up with a margin of at least 15%. All are
// below EIP-7825's cap of 2^24 per transaction.
const (
	gasWETH9           = 700_000
	gasV2Factory       = 3_600_000
	gasV2Router02      = 5_600_000
	gasV3Factory       = 6_300_000
	gasEnableFee       = 100_000
	gasPositionManager = 6_400_000
	gasSwapRouter02    = 6_200_000
	gasQuoterV2        = 2_200_000
)

// DeploymentTxs returns the transactions that deploy the official set for
// deployer, whose next nonce is nonce, in the order they must be mined,
// and the addresses they give the contracts (which follow from the
// deployer's nonces):
//
//  1. WETH9, from the package's build, only when weth9 is the zero
//     address;
//  2. UniswapV2Factory(feeToSetter = deployer);
//  3. UniswapV2Router02(V2Factory, WETH9);
//  4. UniswapV3Factory(), whose constructor enables the fee tiers 500,
//     3000 and 10000;
//  5. V3Factory.enableFeeAmount(100, 1), the 0.01% tier Ethereum mainnet
//     added by governance;
//  6. NonfungiblePositionManager(V3Factory, WETH9, tokenDescriptor = 0);
//  7. SwapRouter02(V2Factory, V3Factory, PositionManager, WETH9);
//  8. QuoterV2(V3Factory, WETH9).
//
// The package's WETH9 is the build @uniswap/v2-periphery ships for its
// tests: the WETH9 source without the payable fallback, so plain transfers
// of the native coin to it revert and only deposit() wraps. A chain with a
// wrapped native token of its own passes that instead.
func DeploymentTxs(deployer common.Address, nonce uint64, weth9 common.Address) ([]Tx, Addresses, error) {
	var (
		txs  []Tx
		err  error
		a    Addresses
		next = nonce
	)
	create := func(what string, meta *bind.MetaData, gas uint64, args ...any) common.Address {
		addr := crypto.CreateAddress(deployer, next)
		next++
		if err != nil {
			return addr
		}
		var data []byte
		if data, err = packDeploy(meta, args...); err != nil {
			err = fmt.Errorf("deploy %s: %w", what, err)
			return addr
		}
		txs = append(txs, Tx{What: "deploy " + what, Data: data, Gas: gas})
		return addr
	}
	a.WETH9 = weth9
	if weth9 == (common.Address{}) {
		a.WETH9 = create(NameWETH9, WETH9MetaData, gasWETH9)
	}
	a.V2Factory = create(NameUniswapV2Factory, UniswapV2FactoryMetaData, gasV2Factory, deployer)
	a.V2Router02 = create(NameUniswapV2Router02, UniswapV2Router02MetaData, gasV2Router02, a.V2Factory, a.WETH9)
	a.V3Factory = create(NameUniswapV3Factory, UniswapV3FactoryMetaData, gasV3Factory)
	if err == nil {
		var data []byte
		data, err = packCall(UniswapV3FactoryMetaData, "enableFeeAmount", big.NewInt(100), big.NewInt(1))
		to := a.V3Factory
		txs = append(txs, Tx{What: "enable the V3 fee tier 100", To: &to, Data: data, Gas: gasEnableFee})
		next++
	}
	a.PositionManager = create(NameNonfungiblePositionManager, NonfungiblePositionManagerMetaData, gasPositionManager,
		a.V3Factory, a.WETH9, common.Address{})
	a.SwapRouter02 = create(NameSwapRouter02, SwapRouter02MetaData, gasSwapRouter02,
		a.V2Factory, a.V3Factory, a.PositionManager, a.WETH9)
	a.QuoterV2 = create(NameQuoterV2, QuoterV2MetaData, gasQuoterV2, a.V3Factory, a.WETH9)
	if err != nil {
		return nil, Addresses{}, err
	}
	return txs, a, nil
}

// Deploy deploys the official set with DeploymentTxs, signed by opts (the
// deployer is opts.From, from its pending nonce on), and waits until each
// transaction succeeded before sending the next. Pass the chain's wrapped
// native token as weth9, or the zero address to deploy the package's WETH9
// (see DeploymentTxs). opts.Nonce, opts.Value and opts.GasLimit are
// ignored: each transaction takes the next nonce, sends no value and has
// its gas estimated (see send).
func Deploy(ctx context.Context, backend Backend, opts *bind.TransactOpts, weth9 common.Address) (Addresses, error) {
	nonce, err := backend.PendingNonceAt(ctx, opts.From)
	if err != nil {
		return Addresses{}, fmt.Errorf("deployer nonce: %w", err)
	}
	txs, a, err := DeploymentTxs(opts.From, nonce, weth9)
	if err != nil {
		return Addresses{}, err
	}
	for i, t := range txs {
		o := txOpts(ctx, opts)
		// The addresses follow from these nonces.
		o.Nonce = new(big.Int).SetUint64(nonce + uint64(i))
		if _, err := send(ctx, backend, o, t.To, t.Data, t.What); err != nil {
			return Addresses{}, err
		}
	}
	return a, nil
}

func packDeploy(meta *bind.MetaData, args ...any) ([]byte, error) {
	parsed, err := meta.GetAbi()
	if err != nil {
		return nil, err
	}
	packed, err := parsed.Pack("", args...)
	if err != nil {
		return nil, err
	}
	return append(common.FromHex(meta.Bin), packed...), nil
}

func packCall(meta *bind.MetaData, method string, args ...any) ([]byte, error) {
	parsed, err := meta.GetAbi()
	if err != nil {
		return nil, err
	}
	return parsed.Pack(method, args...)
}

// txOpts copies opts for one transaction sent under ctx, with the nonce,
// the value and the gas limit left to the transaction.
func txOpts(ctx context.Context, opts *bind.TransactOpts) *bind.TransactOpts {
	o := *opts
	o.Context = ctx
	o.Nonce = nil
	o.Value = nil
	o.GasLimit = 0
	return &o
}

// send sends a transaction of o.From to `to`, or a contract creation when
// to is nil, with data and o.Value, and waits until it succeeded. Its gas
// limit is the estimate plus a margin: gas estimation runs on the latest
// block, and a V2 pair (its cumulative prices) or a V3 pool (its oracle
// observation) writes more storage when a swap or a mint lands in a block
// with a later timestamp than the pool's last update, which the next block
// always has on a chain that seals a block per transaction. The margin is
// refunded when unused.
func send(ctx context.Context, backend Backend, o *bind.TransactOpts, to *common.Address, data []byte, what string) (*types.Receipt, error) {
	gas, err := backend.EstimateGas(ctx, ethereum.CallMsg{From: o.From, To: to, Value: o.Value, Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s: estimate gas: %w", what, err)
	}
	o.GasLimit = min(gas+gas/4+gasMargin, maxTxGas)
	var tx *types.Transaction
	if to == nil {
		tx, err = bind.NewBoundContract(common.Address{}, abi.ABI{}, backend, backend, backend).RawCreationTransact(o, data)
	} else {
		tx, err = bind.NewBoundContract(*to, abi.ABI{}, backend, backend, backend).RawTransact(o, data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return waitSuccess(ctx, backend, tx, what)
}

// gasMargin is added to a quarter over the estimate: more than two fresh
// storage words (2 x 22100), what a pair's first price accumulation
// writes.
const gasMargin = 60_000

// maxTxGas is EIP-7825's cap on a transaction's gas limit (Osaka).
const maxTxGas = 1 << 24

// waitSuccess waits until tx is mined and fails unless it succeeded.
func waitSuccess(ctx context.Context, backend bind.DeployBackend, tx *types.Transaction, what string) (*types.Receipt, error) {
	r, err := waitMined(ctx, backend, tx.Hash())
	if err != nil {
		return nil, fmt.Errorf("%s: wait for %s: %w", what, tx.Hash(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, fmt.Errorf("%s: transaction %s reverted", what, tx.Hash())
	}
	return r, nil
}

// waitMined asks for hash's receipt until the backend has it: at once,
// then after 5 ms, doubling the wait up to the one second of
// bind.WaitMined. A chain that seals on arrival (the local chains) answers
// within milliseconds, which bind.WaitMined's fixed second turned into a
// second per transaction; a public chain's blocks are still asked for about
// once a second.
func waitMined(ctx context.Context, backend bind.DeployBackend, hash common.Hash) (*types.Receipt, error) {
	wait := 5 * time.Millisecond
	for {
		r, err := backend.TransactionReceipt(ctx, hash)
		if err == nil {
			return r, nil
		}
		// Not found yet, or a failed read: asked again, as bind.WaitMined
		// does, until ctx ends.
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, time.Second)
	}
}
