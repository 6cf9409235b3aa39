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

// Client is a ChainClient over one JSON-RPC connection.
type Client struct {
	*ethclient.Client
	geth *gethclient.Client
	rpc  *rpc.Client
}

// NewClient returns a ChainClient over an RPC connection. For a configured
// endpoint the connection comes from endpoint.Endpoint.DialEVM (or use
// Dial), so that its errors name the endpoint and carry no part of its URL.
func NewClient(c *rpc.Client) *Client {
	return &Client{Client: ethclient.NewClient(c), geth: gethclient.New(c), rpc: c}
}

// Dial connects to a chain's JSON-RPC endpoint ("base rpc" at its URL);
// timeout bounds each call.
func Dial(ctx context.Context, ep endpoint.Endpoint, timeout time.Duration) (*Client, error) {
	c, err := ep.DialEVM(ctx, timeout)
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	return NewClient(c.Client), nil
}

// CallWithOverrides implements ChainClient.
func (c *Client) CallWithOverrides(ctx context.Context, msg ethereum.CallMsg, overrides map[common.Address]ethereum.OverrideAccount) ([]byte, error) {
	return c.geth.CallContract(ctx, msg, nil, &overrides)
}

// BatchCallContext implements ChainClient.
func (c *Client) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return c.rpc.BatchCallContext(ctx, b)
}
