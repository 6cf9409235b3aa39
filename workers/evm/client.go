package evm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/ethereum/go-ethereum/rpc"
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
}

// Client is a ChainClient over one JSON-RPC connection.
type Client struct {
	*ethclient.Client
	geth *gethclient.Client
}

// NewClient returns a ChainClient over an RPC connection.
func NewClient(c *rpc.Client) *Client {
	return &Client{Client: ethclient.NewClient(c), geth: gethclient.New(c)}
}

// Dial connects to a chain's JSON-RPC URL.
func Dial(ctx context.Context, url string) (*Client, error) {
	c, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	return NewClient(c), nil
}

// CallWithOverrides implements ChainClient.
func (c *Client) CallWithOverrides(ctx context.Context, msg ethereum.CallMsg, overrides map[common.Address]ethereum.OverrideAccount) ([]byte, error) {
	return c.geth.CallContract(ctx, msg, nil, &overrides)
}
