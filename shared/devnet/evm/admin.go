package evm

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
)

// FieldError is a request the chain refuses because of one field. Over
// JSON-RPC it is error -32602 with data {"field": Field}.
type FieldError struct {
	Field   string
	Message string
}

// Error returns the field and the message.
func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// ErrorCode is the JSON-RPC error code (invalid params).
func (e *FieldError) ErrorCode() int { return -32602 }

// ErrorData names the field in the JSON-RPC error.
func (e *FieldError) ErrorData() any { return map[string]string{"field": e.Field} }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// asset is a resolved token argument: the native coin (zero address) or an
// ERC-20.
type asset struct {
	addr   common.Address
	native bool
	// wrapped is the wrapped native token, stable one of the chain's
	// stables.
	wrapped, stable bool
}

// resolve reads a token argument: empty or the native symbol is the native
// coin; a stable's or the wrapped native's symbol is that token; otherwise
// a 0x address.
func (c *Chain) resolve(field, token string) (asset, error) {
	t := strings.TrimSpace(token)
	d := c.deployment
	switch {
	case t == "" || strings.EqualFold(t, d.NativeSymbol):
		return asset{native: true}, nil
	case strings.EqualFold(t, c.spec.wrappedSymbol):
		return asset{addr: d.WrappedNative, wrapped: true}, nil
	}
	for sym, addr := range d.Stables {
		if strings.EqualFold(t, sym) {
			return asset{addr: addr, stable: true}, nil
		}
	}
	if !common.IsHexAddress(t) {
		return asset{}, fieldErr(field, "%q is neither a token address nor a quote asset of %s", t, c.spec.name)
	}
	a := common.HexToAddress(t)
	if a == (common.Address{}) {
		return asset{native: true}, nil
	}
	out := asset{addr: a, wrapped: a == d.WrappedNative}
	for _, addr := range d.Stables {
		out.stable = out.stable || addr == a
	}
	return out, nil
}

// Fund sends wei of native coin to an address and waits until it landed.
func (c *Chain) Fund(ctx context.Context, to common.Address, wei *big.Int) error {
	if wei == nil || wei.Sign() <= 0 {
		return fieldErr("amount", "amount must be positive")
	}
	_, err := c.asDeployer(ctx, func(uint64) ([]txCall, error) {
		return []txCall{{what: "fund " + to.Hex(), to: &to, value: new(big.Int).Set(wei), gas: 21_000}}, nil
	})
	return err
}

// FundToken gives an address amount (base units) of a token: the native
// coin, a quote-asset symbol (USDC, USDT, USD1, USDG), the wrapped native
// coin, or the address of a token the chain created (CreateToken). It waits
// until the transfer landed.
func (c *Chain) FundToken(ctx context.Context, to common.Address, token string, amount *big.Int) error {
	if amount == nil || amount.Sign() <= 0 {
		return fieldErr("tokenAmount", "token amount must be positive")
	}
	a, err := c.resolve("token", token)
	if err != nil {
		return err
	}
	if a.native {
		return c.Fund(ctx, to, amount)
	}
	if !a.wrapped && !a.stable {
		if err := c.checkMintable(ctx, a.addr); err != nil {
			return err
		}
	}
	_, err = c.asDeployer(ctx, func(uint64) ([]txCall, error) {
		var cs calls
		switch {
		case a.wrapped:
			cs.add(methodCall("wrap", a.addr, contracts.WrappedNativeMetaData, gasCall, amount, "deposit"))
			cs.add(methodCall("transfer wrapped", a.addr, contracts.WrappedNativeMetaData, gasCall, nil, "transfer", to, amount))
		case a.stable:
			cs.add(methodCall("mint stable", a.addr, contracts.StableMetaData, gasCall, nil, "mint", to, amount))
		default:
			cs.add(methodCall("mint token", a.addr, contracts.TaxTokenMetaData, gasCall, nil, "mint", to, amount))
		}
		return cs.list, cs.err
	})
	return err
}

// checkMintable checks that the deployer owns a token's mint.
func (c *Chain) checkMintable(ctx context.Context, token common.Address) error {
	code, err := c.direct.CodeAt(ctx, token, nil)
	if err != nil {
		return fmt.Errorf("code of %s: %w", token, err)
	}
	if len(code) == 0 {
		return fieldErr("token", "no contract at %s on %s", token, c.spec.name)
	}
	t, err := contracts.NewTaxToken(token, c.direct)
	if err != nil {
		return fmt.Errorf("bind %s: %w", token, err)
	}
	owner, err := t.Owner(&bind.CallOpts{Context: ctx})
	if err != nil || owner != DeployerAddress {
		return fieldErr("token", "token %s was not created by the local %s chain, so it cannot be minted", token, c.spec.name)
	}
	return nil
}

// TokenRequest asks for a new token with a V2 pair and liquidity.
type TokenRequest struct {
	Name   string
	Symbol string
	// Quote is the pool's quote asset: empty (or the native symbol, or the
	// wrapped native) for the wrapped native coin, or a stable's symbol or
	// address.
	Quote string
	// Liquidity is the quote side of the pool in the quote's base units;
	// nil is 30,000 USD worth.
	Liquidity *big.Int
	// BuyTaxBps and SellTaxBps are the token's taxes, at most 10000.
	BuyTaxBps, SellTaxBps uint64
	// Creator receives 10% of the supply and the taxes; zero leaves both
	// with the deployer.
	Creator common.Address
}

// Token is a token created by CreateToken.
type Token struct {
	Address common.Address `json:"address"`
	// Pair is the token's V2 pair with Quote.
	Pair  common.Address `json:"pair"`
	Quote common.Address `json:"quote"`
}

// CreateToken deploys a TaxToken (18 decimals, 1,000,000,000 supply), creates
// its pair with the quote asset on the chain's Factory, and adds liquidity:
// 90% of the supply against req.Liquidity. The rest goes to the creator.
// The deployer owns the token (and can mint it for FundToken); the owner,
// the tax wallet and the token are exempt from its taxes.
func (c *Chain) CreateToken(ctx context.Context, req TokenRequest) (Token, error) {
	if n := len(req.Name); n == 0 || n > 64 {
		return Token{}, fieldErr("name", "name must be 1 to 64 bytes")
	}
	if n := len(req.Symbol); n == 0 || n > 32 {
		return Token{}, fieldErr("symbol", "symbol must be 1 to 32 bytes")
	}
	if req.BuyTaxBps > 10_000 {
		return Token{}, fieldErr("buyTaxBps", "buy tax must be at most 10000 bps")
	}
	if req.SellTaxBps > 10_000 {
		return Token{}, fieldErr("sellTaxBps", "sell tax must be at most 10000 bps")
	}
	q, err := c.resolve("quote", req.Quote)
	if err != nil {
		return Token{}, err
	}
	d := c.deployment
	native := q.native || q.wrapped
	if !native && !q.stable {
		return Token{}, fieldErr("quote", "quote must be the native coin or a quote asset of %s", c.spec.name)
	}
	liquidity := req.Liquidity
	switch {
	case liquidity != nil && liquidity.Sign() <= 0:
		return Token{}, fieldErr("liquidity", "liquidity must be positive")
	case liquidity == nil && native:
		liquidity = c.spec.nativeForUSD(defaultTokenUSD)
	case liquidity == nil:
		liquidity = wholeUnits(defaultTokenUSD, c.stableDecimals(q.addr))
	}
	quote := q.addr
	if native {
		quote = d.WrappedNative
	}

	supply := wholeUnits(tokenSupplyWhole, 18)
	creatorShare := new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(creatorShareBps)), big.NewInt(10_000))
	pooled := new(big.Int).Sub(supply, creatorShare)
	var out Token
	_, err = c.asDeployer(ctx, func(nonce uint64) ([]txCall, error) {
		token := crypto.CreateAddress(DeployerAddress, nonce)
		out = Token{Address: token, Pair: contracts.PairAddress(d.Factory, token, quote), Quote: quote}
		var cs calls
		cs.add(deployCall("deploy token", contracts.TaxTokenMetaData, gasDeployLarge, req.Name, req.Symbol, supply,
			new(big.Int).SetUint64(req.BuyTaxBps), new(big.Int).SetUint64(req.SellTaxBps), req.Creator, d.Factory, quote))
		cs.add(methodCall("approve token", token, contracts.TaxTokenMetaData, gasCall, nil, "approve", d.Router, maxUint256))
		if native {
			cs.add(methodCall("add liquidity", d.Router, contracts.RouterMetaData, gasAddLiquidity, liquidity,
				"addLiquidityETH", token, pooled, common.Big0, common.Big0, DeployerAddress, farDeadline))
		} else {
			cs.add(methodCall("mint quote", quote, contracts.StableMetaData, gasCall, nil, "mint", DeployerAddress, liquidity))
			cs.add(methodCall("add liquidity", d.Router, contracts.RouterMetaData, gasAddLiquidity, nil,
				"addLiquidity", token, quote, pooled, liquidity, common.Big0, common.Big0, DeployerAddress, farDeadline))
		}
		if req.Creator != (common.Address{}) {
			cs.add(methodCall("pay creator", token, contracts.TaxTokenMetaData, gasCall, nil, "transfer", req.Creator, creatorShare))
		}
		return cs.list, cs.err
	})
	if err != nil {
		return Token{}, fmt.Errorf("create token %s on %s: %w", req.Symbol, c.spec.name, err)
	}
	return out, nil
}

func (c *Chain) stableDecimals(addr common.Address) int {
	for sym, a := range c.deployment.Stables {
		if a == addr {
			return int(c.deployment.StableDecimals[sym])
		}
	}
	return 18
}

// Balance returns an address's balance in base units of the native coin
// (token "" or the native symbol), a quote-asset symbol, the wrapped native
// symbol, or a token address.
func (c *Chain) Balance(ctx context.Context, holder common.Address, token string) (*big.Int, error) {
	a, err := c.resolve("token", token)
	if err != nil {
		return nil, err
	}
	if a.native {
		b, err := c.direct.BalanceAt(ctx, holder, nil)
		if err != nil {
			return nil, fmt.Errorf("balance of %s: %w", holder, err)
		}
		return b, nil
	}
	t, err := contracts.NewERC20(a.addr, c.direct)
	if err != nil {
		return nil, fmt.Errorf("bind %s: %w", a.addr, err)
	}
	b, err := t.BalanceOf(&bind.CallOpts{Context: ctx}, holder)
	if err != nil {
		return nil, fmt.Errorf("balance of %s in %s: %w", holder, a.addr, err)
	}
	return b, nil
}
