package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
)

// Handler returns the chain's JSON-RPC endpoint over HTTP (POST, single
// and batch requests; GET answers 200 for health checks). It can be mounted
// under any path, for example /evm/eth.
func (c *Chain) Handler() http.Handler { return c.gated(c.public) }

// RelayHandler returns the chain's private relay endpoint: it accepts only
// eth_sendRawTransaction, eth_sendPrivateTransaction and eth_chainId, and
// records every transaction it submits.
func (c *Chain) RelayHandler() http.Handler { return c.gated(c.relay) }

// API is the devnet namespace of a local chain's JSON-RPC: devnet_deployment,
// devnet_fund, devnet_createToken and devnet_relayed. Amounts are base units
// as 0x-hex quantities, like every eth_ quantity. Bad input is error -32602
// with data {"field": name}.
type API struct {
	c *Chain
}

// Deployment answers devnet_deployment.
func (a *API) Deployment() Deployment { return a.c.Deployment() }

// FundArgs is the parameter of devnet_fund.
type FundArgs struct {
	Address common.Address `json:"address"`
	// Amount of native coin in wei; optional when Token is given.
	Amount *hexutil.Big `json:"amount,omitempty"`
	// Token is a quote-asset symbol, the wrapped native symbol or a token
	// address; TokenAmount is in its base units.
	Token       string       `json:"token,omitempty"`
	TokenAmount *hexutil.Big `json:"tokenAmount,omitempty"`
}

// Fund answers devnet_fund: it sends the native coin, then the token, and
// returns once both landed.
func (a *API) Fund(ctx context.Context, args FundArgs) (bool, error) {
	if args.Address == (common.Address{}) {
		return false, fieldErr("address", "address is required")
	}
	if args.Amount == nil && args.Token == "" {
		return false, fieldErr("amount", "amount or token is required")
	}
	if args.Token != "" && args.TokenAmount == nil {
		return false, fieldErr("tokenAmount", "tokenAmount is required with token")
	}
	if args.Amount != nil {
		if err := a.c.Fund(ctx, args.Address, args.Amount.ToInt()); err != nil {
			return false, err
		}
	}
	if args.Token != "" {
		if err := a.c.FundToken(ctx, args.Address, args.Token, args.TokenAmount.ToInt()); err != nil {
			return false, err
		}
	}
	return true, nil
}

// CreateTokenArgs is the parameter of devnet_createToken.
type CreateTokenArgs struct {
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
	// Quote is empty for the native coin, or a quote-asset symbol or
	// address.
	Quote string `json:"quote,omitempty"`
	// Liquidity is the quote side of the pool in base units; absent is
	// 30,000 USD worth.
	Liquidity  *hexutil.Big    `json:"liquidity,omitempty"`
	BuyTaxBps  hexutil.Uint64  `json:"buyTaxBps"`
	SellTaxBps hexutil.Uint64  `json:"sellTaxBps"`
	Creator    *common.Address `json:"creator,omitempty"`
}

// CreateToken answers devnet_createToken.
func (a *API) CreateToken(ctx context.Context, args CreateTokenArgs) (*Token, error) {
	req := TokenRequest{Name: args.Name, Symbol: args.Symbol, Quote: args.Quote,
		BuyTaxBps: uint64(args.BuyTaxBps), SellTaxBps: uint64(args.SellTaxBps)}
	if args.Liquidity != nil {
		req.Liquidity = args.Liquidity.ToInt()
	}
	if args.Creator != nil {
		req.Creator = *args.Creator
	}
	t, err := a.c.CreateToken(ctx, req)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// Relayed answers devnet_relayed: the transactions that came through the
// private relay, in order.
func (a *API) Relayed() []common.Hash { return a.c.RelayedHashes() }

// web3API answers web3_clientVersion.
type web3API struct{}

// ClientVersion names the node.
func (web3API) ClientVersion() string { return "tradeapi-devnet/go-ethereum" }

// relayAPI is the eth namespace of the private relay.
type relayAPI struct {
	c *Chain
}

// ChainId answers eth_chainId.
func (r *relayAPI) ChainId() *hexutil.Big { return (*hexutil.Big)(r.c.ChainID()) }

// SendRawTransaction submits a signed transaction and records it.
func (r *relayAPI) SendRawTransaction(ctx context.Context, input hexutil.Bytes) (common.Hash, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(input); err != nil {
		return common.Hash{}, fmt.Errorf("decode transaction: %w", err)
	}
	err := r.c.direct.SendTransaction(ctx, tx)
	// A transaction the pool already holds did come through the relay.
	if err != nil && !strings.Contains(err.Error(), txpool.ErrAlreadyKnown.Error()) {
		return common.Hash{}, err
	}
	r.c.record(tx.Hash())
	return tx.Hash(), err
}

// PrivateTransactionArgs is the parameter of eth_sendPrivateTransaction
// (the Flashbots shape). Only Tx is used: the local chain seals every
// pending transaction in its next block.
type PrivateTransactionArgs struct {
	Tx             hexutil.Bytes   `json:"tx"`
	MaxBlockNumber *hexutil.Big    `json:"maxBlockNumber,omitempty"`
	Preferences    json.RawMessage `json:"preferences,omitempty"`
}

// SendPrivateTransaction submits a signed transaction and records it.
func (r *relayAPI) SendPrivateTransaction(ctx context.Context, args PrivateTransactionArgs) (common.Hash, error) {
	return r.SendRawTransaction(ctx, args.Tx)
}
