package evm

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/endpoint"
)

// ChainClient is what the signer reads from a chain's JSON-RPC endpoint.
// *Client implements it over go-ethereum's clients.
type ChainClient interface {
	// CallContract is eth_call at the latest block.
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
	// CallWithOverrides is eth_call at the latest block with a state
	// override object: nothing it does is kept.
	CallWithOverrides(ctx context.Context, msg ethereum.CallMsg, overrides map[common.Address]ethereum.OverrideAccount) ([]byte, error)
	BalanceAt(ctx context.Context, account common.Address, block *big.Int) (*big.Int, error)
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	// SuggestGasTipCap is eth_maxPriorityFeePerGas.
	SuggestGasTipCap(ctx context.Context) (*big.Int, error)
	FeeHistory(ctx context.Context, blockCount uint64, lastBlock *big.Int, rewardPercentiles []float64) (*ethereum.FeeHistory, error)
	EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error)
	// BatchCallContext sends several JSON-RPC calls in one request; each
	// element carries its own answer or error.
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// Client is a ChainClient over an endpoint's JSON-RPC connection. Every
// error it returns is the endpoint's clean one: a node's own message
// (eth_call's revert reason, a provider's refusal) loses any part of the
// endpoint's URL, which some providers quote with the key in its path, as
// the endpoint's own calls do; go-ethereum's clients over the connection
// would pass it on whole.
type Client struct {
	eth  *ethclient.Client
	geth *gethclient.Client
	ec   *endpoint.EVMClient
}

// NewClient returns a ChainClient over an endpoint's connection
// (endpoint.Endpoint.DialEVM, or use Dial).
func NewClient(c *endpoint.EVMClient) *Client {
	return &Client{eth: ethclient.NewClient(c.Client), geth: gethclient.New(c.Client), ec: c}
}

// Dial connects to a chain's JSON-RPC endpoint ("base rpc" at its URL);
// timeout bounds each call.
func Dial(ctx context.Context, ep endpoint.Endpoint, timeout time.Duration) (*Client, error) {
	c, err := ep.DialEVM(ctx, timeout)
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	return NewClient(c), nil
}

// CallContract implements ChainClient.
func (c *Client) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	out, err := c.eth.CallContract(ctx, msg, block)
	return out, c.ec.CleanNode(err)
}

// CallWithOverrides implements ChainClient.
func (c *Client) CallWithOverrides(ctx context.Context, msg ethereum.CallMsg, overrides map[common.Address]ethereum.OverrideAccount) ([]byte, error) {
	out, err := c.geth.CallContract(ctx, msg, nil, &overrides)
	return out, c.ec.CleanNode(err)
}

// BalanceAt implements ChainClient.
func (c *Client) BalanceAt(ctx context.Context, account common.Address, block *big.Int) (*big.Int, error) {
	v, err := c.eth.BalanceAt(ctx, account, block)
	return v, c.ec.CleanNode(err)
}

// PendingNonceAt implements ChainClient.
func (c *Client) PendingNonceAt(ctx context.Context, account common.Address) (uint64, error) {
	n, err := c.eth.PendingNonceAt(ctx, account)
	return n, c.ec.CleanNode(err)
}

// HeaderByNumber implements ChainClient.
func (c *Client) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	h, err := c.eth.HeaderByNumber(ctx, number)
	return h, c.ec.CleanNode(err)
}

// SuggestGasTipCap implements ChainClient.
func (c *Client) SuggestGasTipCap(ctx context.Context) (*big.Int, error) {
	v, err := c.eth.SuggestGasTipCap(ctx)
	return v, c.ec.CleanNode(err)
}

// FeeHistory implements ChainClient.
func (c *Client) FeeHistory(ctx context.Context, blockCount uint64, lastBlock *big.Int, rewardPercentiles []float64) (*ethereum.FeeHistory, error) {
	h, err := c.eth.FeeHistory(ctx, blockCount, lastBlock, rewardPercentiles)
	return h, c.ec.CleanNode(err)
}

// EstimateGas implements ChainClient.
func (c *Client) EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	g, err := c.eth.EstimateGas(ctx, msg)
	return g, c.ec.CleanNode(err)
}

// SimulateV1 implements Simulator.
func (c *Client) SimulateV1(ctx context.Context, opts ethclient.SimulateOptions, block *rpc.BlockNumberOrHash) ([]ethclient.SimulateBlockResult, error) {
	res, err := c.eth.SimulateV1(ctx, opts, block)
	return res, c.ec.CleanNode(err)
}

// BatchCallContext implements ChainClient: the endpoint's, whose errors,
// the elements' included, are clean.
func (c *Client) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return c.ec.BatchCallContext(ctx, b)
}
