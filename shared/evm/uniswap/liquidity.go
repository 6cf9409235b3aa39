package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
)

// farDeadline is the deadline of the seeding calls: the routers and the
// position manager require one, and a seeding transaction has no reason to
// expire.
var farDeadline = new(big.Int).Lsh(big.NewInt(1), 62)

// approve approves spender for amount of token from opts.From and waits
// for it.
func approve(ctx context.Context, backend Backend, opts *bind.TransactOpts, token, spender common.Address, amount *big.Int) error {
	data, err := packCall(IERC20MetaData, "approve", spender, amount)
	if err != nil {
		return err
	}
	_, err = send(ctx, backend, txOpts(ctx, opts), &token, data, "approve "+token.Hex()+" for "+spender.Hex())
	return err
}

func positive(amounts ...*big.Int) bool {
	for _, a := range amounts {
		if a == nil || a.Sign() <= 0 {
			return false
		}
	}
	return true
}

// AddLiquidityV2 adds amountA of tokenA and amountB of tokenB from
// opts.From to their V2 pair through UniswapV2Router02.addLiquidity, which
// creates the pair first when it does not exist, and sends the liquidity
// tokens to `to`. It approves the router for both amounts first. On a new
// pair the amounts set the price; on an existing one the router takes
// them at the pair's price, leaving the excess of one token with the
// sender. It returns the pair's address.
func AddLiquidityV2(ctx context.Context, backend Backend, opts *bind.TransactOpts, a Addresses,
	tokenA, tokenB common.Address, amountA, amountB *big.Int, to common.Address) (common.Address, error) {
	if !positive(amountA, amountB) {
		return common.Address{}, errors.New("add V2 liquidity: amounts must be positive")
	}
	data, err := packCall(UniswapV2Router02MetaData, "addLiquidity",
		tokenA, tokenB, amountA, amountB, common.Big0, common.Big0, to, farDeadline)
	if err != nil {
		return common.Address{}, err
	}
	if err := approve(ctx, backend, opts, tokenA, a.V2Router02, amountA); err != nil {
		return common.Address{}, err
	}
	if err := approve(ctx, backend, opts, tokenB, a.V2Router02, amountB); err != nil {
		return common.Address{}, err
	}
	if _, err := send(ctx, backend, txOpts(ctx, opts), &a.V2Router02, data, "addLiquidity"); err != nil {
		return common.Address{}, err
	}
	return V2PairAddress(a.V2Factory, tokenA, tokenB), nil
}

// AddLiquidityETHV2 adds amountToken of token and amountETH of the native
// coin from opts.From to the pair of token and a.WETH9 through
// UniswapV2Router02.addLiquidityETH, which wraps the coin and creates the
// pair when it does not exist, and sends the liquidity tokens to `to`. It
// approves the router for amountToken first, and returns the pair's
// address. As with AddLiquidityV2, an existing pair takes the amounts at
// its price; the router refunds unused native coin.
func AddLiquidityETHV2(ctx context.Context, backend Backend, opts *bind.TransactOpts, a Addresses,
	token common.Address, amountToken, amountETH *big.Int, to common.Address) (common.Address, error) {
	if !positive(amountToken, amountETH) {
		return common.Address{}, errors.New("add V2 liquidity: amounts must be positive")
	}
	data, err := packCall(UniswapV2Router02MetaData, "addLiquidityETH",
		token, amountToken, common.Big0, common.Big0, to, farDeadline)
	if err != nil {
		return common.Address{}, err
	}
	if err := approve(ctx, backend, opts, token, a.V2Router02, amountToken); err != nil {
		return common.Address{}, err
	}
	o := txOpts(ctx, opts)
	o.Value = amountETH
	if _, err := send(ctx, backend, o, &a.V2Router02, data, "addLiquidityETH"); err != nil {
		return common.Address{}, err
	}
	return V2PairAddress(a.V2Factory, token, a.WETH9), nil
}

// V3Position is a full-range position AddLiquidityV3 minted.
type V3Position struct {
	// Pool is the V3 pool of the position.
	Pool common.Address
	// TokenID is the position manager's NFT of the position, owned by the
	// recipient.
	TokenID *big.Int
	// Liquidity is the position's liquidity, and Amount0 and Amount1 what
	// the pool took of token0 and token1 for it.
	Liquidity        *big.Int
	Amount0, Amount1 *big.Int
}

// v3Mint is the seeding of a full-range V3 position: the two approvals of
// the position manager and the multicall that creates the pool (when it
// does not exist) and mints the position.
type v3Mint struct {
	pool             common.Address
	token0, token1   common.Address
	amount0, amount1 *big.Int
	// multicall is NonfungiblePositionManager.multicall of
	// createAndInitializePoolIfNecessary and mint.
	multicall []byte
}

// planV3Mint packs what AddLiquidityV3 and AddLiquidityV3Txs send.
func planV3Mint(a Addresses, tokenA, tokenB common.Address, fee uint32, amountA, amountB *big.Int, recipient common.Address) (v3Mint, error) {
	if !positive(amountA, amountB) {
		return v3Mint{}, errors.New("add V3 liquidity: amounts must be positive")
	}
	spacing, ok := TickSpacing(fee)
	if !ok {
		return v3Mint{}, fmt.Errorf("add V3 liquidity: fee tier %d is not enabled", fee)
	}
	m := v3Mint{pool: V3PoolAddress(a.V3Factory, tokenA, tokenB, fee)}
	m.token0, m.token1 = SortTokens(tokenA, tokenB)
	m.amount0, m.amount1 = amountA, amountB
	if m.token0 != tokenA {
		m.amount0, m.amount1 = amountB, amountA
	}
	price := SqrtPriceX96(m.amount0, m.amount1)
	if price.Cmp(MinSqrtRatio) < 0 || price.Cmp(MaxSqrtRatio) >= 0 {
		return v3Mint{}, fmt.Errorf("add V3 liquidity: price %s/%s is outside the pool's range", m.amount1, m.amount0)
	}
	lower, upper := FullRangeTicks(spacing)
	parsed, err := NonfungiblePositionManagerMetaData.GetAbi()
	if err != nil {
		return v3Mint{}, err
	}
	feeBig := new(big.Int).SetUint64(uint64(fee))
	create, err := parsed.Pack("createAndInitializePoolIfNecessary", m.token0, m.token1, feeBig, price)
	if err != nil {
		return v3Mint{}, err
	}
	mint, err := parsed.Pack("mint", INonfungiblePositionManagerMintParams{
		Token0:         m.token0,
		Token1:         m.token1,
		Fee:            feeBig,
		TickLower:      big.NewInt(int64(lower)),
		TickUpper:      big.NewInt(int64(upper)),
		Amount0Desired: m.amount0,
		Amount1Desired: m.amount1,
		Amount0Min:     common.Big0,
		Amount1Min:     common.Big0,
		Recipient:      recipient,
		Deadline:       farDeadline,
	})
	if err != nil {
		return v3Mint{}, err
	}
	if m.multicall, err = parsed.Pack("multicall", [][]byte{create, mint}); err != nil {
		return v3Mint{}, err
	}
	return m, nil
}

// AddLiquidityV3 adds up to amountA of tokenA and amountB of tokenB from
// opts.From to their V3 pool of the fee tier fee as a full-range position
// (FullRangeTicks of the tier's spacing) minted to recipient, through the
// position manager: one multicall of createAndInitializePoolIfNecessary,
// with the price amountB/amountA (SqrtPriceX96) when the pool does not
// exist yet, and mint. It approves the position manager for both amounts
// first. The pool takes both tokens in the proportion of its price, so
// rounding leaves a little of one token with the sender, and an existing
// pool keeps its own price. Both tokens must be ERC-20s: wrap the native
// coin into a.WETH9 first.
func AddLiquidityV3(ctx context.Context, backend Backend, opts *bind.TransactOpts, a Addresses,
	tokenA, tokenB common.Address, fee uint32, amountA, amountB *big.Int, recipient common.Address) (V3Position, error) {
	m, err := planV3Mint(a, tokenA, tokenB, fee, amountA, amountB, recipient)
	if err != nil {
		return V3Position{}, err
	}
	pm, err := NewNonfungiblePositionManager(a.PositionManager, backend)
	if err != nil {
		return V3Position{}, err
	}
	if err := approve(ctx, backend, opts, m.token0, a.PositionManager, m.amount0); err != nil {
		return V3Position{}, err
	}
	if err := approve(ctx, backend, opts, m.token1, a.PositionManager, m.amount1); err != nil {
		return V3Position{}, err
	}
	r, err := send(ctx, backend, txOpts(ctx, opts), &a.PositionManager, m.multicall, "create the pool and mint")
	if err != nil {
		return V3Position{}, err
	}
	for _, l := range r.Logs {
		if l.Address != a.PositionManager {
			continue
		}
		ev, err := pm.ParseIncreaseLiquidity(*l)
		if err != nil {
			continue // another event of the position manager (Transfer)
		}
		return V3Position{
			Pool:      m.pool,
			TokenID:   ev.TokenId,
			Liquidity: ev.Liquidity,
			Amount0:   ev.Amount0,
			Amount1:   ev.Amount1,
		}, nil
	}
	return V3Position{}, errors.New("mint: no IncreaseLiquidity event in the receipt")
}

// Gas limits of AddLiquidityV3Txs, measured like those of DeploymentTxs:
// an approval of the project's tokens uses under 50,000; creating a pool
// (the pool's deployment and initialize) and minting its first full-range
// position about 5.2 million, minting into an existing pool under 400,000.
const (
	gasApprove       = 100_000
	gasCreateAndMint = 6_200_000
)

// AddLiquidityV3Txs returns the transactions that AddLiquidityV3 sends, in
// order, with fixed gas limits instead of estimates, for a sender that
// sends them as one batch before the first is mined: approve token0 and
// token1 for the position manager, then the multicall that creates and
// initialises the pool when needed and mints the full-range position to
// recipient. It also returns the pool's address. The sender must hold
// both amounts when the multicall runs.
func AddLiquidityV3Txs(a Addresses, tokenA, tokenB common.Address, fee uint32,
	amountA, amountB *big.Int, recipient common.Address) ([]Tx, common.Address, error) {
	m, err := planV3Mint(a, tokenA, tokenB, fee, amountA, amountB, recipient)
	if err != nil {
		return nil, common.Address{}, err
	}
	txs := make([]Tx, 0, 3)
	for _, ap := range []struct {
		token  common.Address
		amount *big.Int
	}{{m.token0, m.amount0}, {m.token1, m.amount1}} {
		data, err := packCall(IERC20MetaData, "approve", a.PositionManager, ap.amount)
		if err != nil {
			return nil, common.Address{}, err
		}
		token := ap.token
		txs = append(txs, Tx{What: "approve " + token.Hex() + " for the position manager", To: &token, Data: data, Gas: gasApprove})
	}
	pm := a.PositionManager
	txs = append(txs, Tx{What: "create the pool and mint", To: &pm, Data: m.multicall, Gas: gasCreateAndMint})
	return txs, m.pool, nil
}

// QuoteExactInputSingle asks QuoterV2 by eth_call what a swap of amountIn
// of tokenIn for tokenOut in the V3 pool of fee pays, at the given block
// (nil for the latest). QuoterV2 simulates the swap in the pool and
// reverts with the result, so it is never sent as a transaction.
func QuoteExactInputSingle(ctx context.Context, chain bind.ContractCaller, quoter common.Address, block *big.Int,
	tokenIn, tokenOut common.Address, fee uint32, amountIn *big.Int) (*big.Int, error) {
	parsed, err := QuoterV2MetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	var out []any
	err = bind.NewBoundContract(quoter, *parsed, chain, nil, nil).Call(&bind.CallOpts{Context: ctx, BlockNumber: block}, &out,
		"quoteExactInputSingle", IQuoterV2QuoteExactInputSingleParams{
			TokenIn:           tokenIn,
			TokenOut:          tokenOut,
			AmountIn:          amountIn,
			Fee:               new(big.Int).SetUint64(uint64(fee)),
			SqrtPriceLimitX96: common.Big0,
		})
	if err != nil {
		return nil, fmt.Errorf("quoteExactInputSingle: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("quoteExactInputSingle: empty result")
	}
	amountOut, ok := out[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("quoteExactInputSingle: amountOut is a %T", out[0])
	}
	return amountOut, nil
}
