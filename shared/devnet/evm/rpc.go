package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// Handler returns the chain's JSON-RPC endpoint over HTTP (POST, single
// and batch requests; GET answers 200 for health checks). It can be mounted
// under any path, for example /evm/eth.
func (c *Chain) Handler() http.Handler { return c.gated(c.public) }

// RelayHandler returns the chain's private relay endpoint: it accepts only
// eth_sendRawTransaction, eth_sendPrivateTransaction, eth_sendBundle,
// eth_chainId and relay_tipAddress, and records every transaction it
// submits.
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
	// Amount of native coin in wei; optional when Token is given. On arc
	// it also mints Amount / 10^12 of the native token (Chain.Fund).
	Amount *hexutil.Big `json:"amount,omitempty"`
	// Token is a quote-asset symbol, the wrapped native symbol or a token
	// address; TokenAmount is in its base units. On arc, USDC (or the
	// native token's address) is the native token, in 6 decimals, and
	// credits as much native coin too (Chain.FundToken).
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
	// Venue is "v2" (also when absent) or "v3", and FeeTier a V3 pool's
	// fee tier (absent: 3000).
	Venue   string          `json:"venue,omitempty"`
	FeeTier *hexutil.Uint64 `json:"feeTier,omitempty"`
	// Quote is empty for the native coin, or a quote-asset symbol or
	// address. On arc the native coin's pools are against the native
	// token (TokenRequest.Quote).
	Quote string `json:"quote,omitempty"`
	// Liquidity is the quote side of the pool in base units (on arc, the
	// native token's 6 decimals); absent is 30,000 USD worth.
	Liquidity  *hexutil.Big    `json:"liquidity,omitempty"`
	BuyTaxBps  hexutil.Uint64  `json:"buyTaxBps"`
	SellTaxBps hexutil.Uint64  `json:"sellTaxBps"`
	Creator    *common.Address `json:"creator,omitempty"`
}

// CreateToken answers devnet_createToken.
func (a *API) CreateToken(ctx context.Context, args CreateTokenArgs) (*Token, error) {
	req := TokenRequest{Name: args.Name, Symbol: args.Symbol, Venue: args.Venue, Quote: args.Quote,
		BuyTaxBps: uint64(args.BuyTaxBps), SellTaxBps: uint64(args.SellTaxBps)}
	if args.FeeTier != nil {
		if *args.FeeTier == 0 || *args.FeeTier > math.MaxUint32 {
			return nil, fieldErr("feeTier", "fee tier must be one of %v, not %d", uniswap.FeeTiers(), uint64(*args.FeeTier))
		}
		req.FeeTier = uint32(*args.FeeTier)
	}
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

// BundleArgs is the parameter of eth_sendBundle, the Flashbots shape: the
// signed transactions as raw hex, in order. BlockNumber, when given, must
// not be below the next block's number (a bundle for a block that is past
// never lands); the local relay tries every bundle for the next block at
// once and does not hold one back for a later target. RevertingTxHashes
// may revert without refusing the bundle. Other Flashbots fields
// (minTimestamp, maxTimestamp, replacementUuid, ...) are accepted and
// ignored.
type BundleArgs struct {
	Txs               []hexutil.Bytes `json:"txs"`
	BlockNumber       *hexutil.Uint64 `json:"blockNumber,omitempty"`
	RevertingTxHashes []common.Hash   `json:"revertingTxHashes,omitempty"`
}

// SendBundle answers eth_sendBundle: it lands the bundle all or nothing
// (Chain.SendBundle) and answers {bundleHash, blockNumber, blockHash} once
// its block is the head, or error -32000 naming the transaction that kept
// it out.
func (r *relayAPI) SendBundle(ctx context.Context, args BundleArgs) (*BundleResult, error) {
	txs := make([]*types.Transaction, len(args.Txs))
	for i, raw := range args.Txs {
		txs[i] = new(types.Transaction)
		if err := txs[i].UnmarshalBinary(raw); err != nil {
			return nil, refuse(i, common.Hash{}, "does not decode: %v", err)
		}
	}
	if args.BlockNumber != nil {
		next := r.c.eth.BlockChain().CurrentBlock().Number.Uint64() + 1
		if uint64(*args.BlockNumber) < next {
			return nil, refuse(-1, common.Hash{}, "its block %d is past; the next block is %d", uint64(*args.BlockNumber), next)
		}
	}
	res, err := r.c.SendBundle(ctx, txs, args.RevertingTxHashes)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// relayInfoAPI is the relay namespace of the private relay.
type relayInfoAPI struct {
	c *Chain
}

// TipAddress answers relay_tipAddress: where a bundle pays its tip, by a
// plain transfer of the native coin inside the bundle.
func (r *relayInfoAPI) TipAddress() common.Address { return r.c.cfg.RelayTipAddress }
