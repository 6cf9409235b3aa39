package contracts

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

//go:embed TaxProbe.runtime.bin
var taxProbeRuntimeHex string

// TaxProbeRuntime is the TaxProbe's runtime bytecode: the code a state
// override places at TaxProbeAddress. It must not be modified.
var TaxProbeRuntime = common.FromHex(strings.TrimSpace(taxProbeRuntimeHex))

// TaxProbeAddress is where ProbeTax places the probe. No key is known for
// it and nothing is deployed there; any unused address would do.
var TaxProbeAddress = common.HexToAddress("0x7A7A000000000000000000000000000000007a7a")

// TaxProbeBalance is the native balance ProbeTax gives the probe, 2^128
// wei: enough for any amountIn, and for buying a stable quote through the
// router's [WETH, quote] pair first.
var TaxProbeBalance = new(big.Int).Lsh(big.NewInt(1), 128)

// RPCCaller runs one JSON-RPC call; *rpc.Client implements it.
type RPCCaller interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
}

// TaxProbeOverrides returns the eth_call state override that places the
// probe at TaxProbeAddress with TaxProbeBalance.
func TaxProbeOverrides() map[common.Address]ethereum.OverrideAccount {
	return map[common.Address]ethereum.OverrideAccount{
		TaxProbeAddress: {Code: TaxProbeRuntime, Balance: TaxProbeBalance},
	}
}

// ProbeTax measures a token's buy and sell tax in basis points by running
// TaxProbe.probe with eth_call at the latest block: it buys token with
// amountIn of quote through router, a router with UniswapV2Router02's
// functions such as the official UniswapV2Router02 of the token's V2 pair,
// and sells it back. quote is the router's
// WETH (or the zero address) for the native coin, or a stable coin, which
// the probe buys with native coin first. Nothing is sent to the chain. A
// token that cannot be sold has a sell tax of 10000.
//
// The equivalent raw call is
//
//	eth_call({to: TaxProbeAddress, data: probe(router, token, quote, amountIn)},
//	         "latest", {TaxProbeAddress: {code: TaxProbeRuntime, balance: 2^128}})
func ProbeTax(ctx context.Context, c RPCCaller, router, token, quote common.Address, amountIn *big.Int) (buyBps, sellBps uint64, err error) {
	parsed, err := TaxProbeMetaData.GetAbi()
	if err != nil {
		return 0, 0, fmt.Errorf("tax probe abi: %w", err)
	}
	data, err := parsed.Pack("probe", router, token, quote, amountIn)
	if err != nil {
		return 0, 0, fmt.Errorf("pack probe call: %w", err)
	}
	call := map[string]any{
		"from":  common.Address{},
		"to":    TaxProbeAddress,
		"input": hexutil.Bytes(data),
	}
	var out hexutil.Bytes
	if err := c.CallContext(ctx, &out, "eth_call", call, "latest", TaxProbeOverrides()); err != nil {
		return 0, 0, fmt.Errorf("probe tax of %s: %w", token, err)
	}
	res, err := parsed.Unpack("probe", out)
	if err != nil {
		return 0, 0, fmt.Errorf("unpack probe result: %w", err)
	}
	if len(res) != 2 {
		return 0, 0, errors.New("probe returned an unexpected result")
	}
	buy, ok1 := res[0].(*big.Int)
	sell, ok2 := res[1].(*big.Int)
	if !ok1 || !ok2 || !buy.IsUint64() || !sell.IsUint64() {
		return 0, 0, errors.New("probe returned an unexpected result")
	}
	return buy.Uint64(), sell.Uint64(), nil
}
