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
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
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
	// stables, and nativeToken the native coin's ERC-20 (arc's USDC).
	wrapped, stable, nativeToken bool
}

// resolve reads a token argument: empty or the native symbol is the native
// coin, except that on a chain with a native token (arc) the native symbol
// (USDC) is that token; a stable's or the wrapped native's symbol is that
// token; otherwise a 0x address, the zero address being the native coin.
func (c *Chain) resolve(field, token string) (asset, error) {
	t := strings.TrimSpace(token)
	d := c.deployment
	switch {
	case t == "":
		return asset{native: true}, nil
	case strings.EqualFold(t, d.NativeSymbol) && d.NativeToken != (common.Address{}):
		return asset{addr: d.NativeToken, nativeToken: true}, nil
	case strings.EqualFold(t, d.NativeSymbol):
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
	out := asset{addr: a, wrapped: a == d.WrappedNative, nativeToken: a == d.NativeToken}
	for _, addr := range d.Stables {
		out.stable = out.stable || addr == a
	}
	return out, nil
}

// Fund sends wei of native coin to an address and waits until it landed.
// On a chain with a native token (arc) it also mints the address as much
// of the native token (wei / 10^12, rounded down), so that the address
// holds the same USDC in both, as it would in the one balance of the real
// chain (see fundNative).
func (c *Chain) Fund(ctx context.Context, to common.Address, wei *big.Int) error {
	if wei == nil || wei.Sign() <= 0 {
		return fieldErr("amount", "amount must be positive")
	}
	var units *big.Int
	if c.deployment.NativeToken != (common.Address{}) {
		units = new(big.Int).Quo(wei, c.spec.weiPerNativeUnit())
	}
	return c.fundNative(ctx, to, wei, units)
}

// fundNative sends wei of native coin to an address and mints it units of
// the native token (none when units is nil or zero), in one batch of the
// deployer's, and waits until both landed. The local chain keeps the two
// balances apart: a later spend of one does not reduce the other.
func (c *Chain) fundNative(ctx context.Context, to common.Address, wei, units *big.Int) error {
	_, err := c.asDeployer(ctx, func(uint64) ([]txCall, error) {
		var cs calls
		cs.add(txCall{what: "fund " + to.Hex(), to: &to, value: new(big.Int).Set(wei), gas: 21_000}, nil)
		if units != nil && units.Sign() > 0 {
			cs.add(methodCall("mint native token", c.deployment.NativeToken, contracts.StableMetaData, gasCall, nil,
				"mint", to, new(big.Int).Set(units)))
		}
		return cs.list, cs.err
	})
	return err
}

// FundToken gives an address amount (base units) of a token: the native
// coin, a quote-asset symbol (USDC, USDT, USD1, USDG), the wrapped native
// coin, or the address of a token the chain created (CreateToken). On a
// chain with a native token (arc) its symbol (USDC) or address credits
// amount of the native token and amount × 10^12 wei of the native coin,
// the same USDC in both; the native coin named by the zero address is in
// wei, as Fund's. It waits until the transfer landed.
func (c *Chain) FundToken(ctx context.Context, to common.Address, token string, amount *big.Int) error {
	if amount == nil || amount.Sign() <= 0 {
		return fieldErr("tokenAmount", "token amount must be positive")
	}
	a, err := c.resolve("token", token)
	if err != nil {
		return err
	}
	switch {
	case a.native:
		return c.Fund(ctx, to, amount)
	case a.nativeToken:
		return c.fundNative(ctx, to, new(big.Int).Mul(amount, c.spec.weiPerNativeUnit()), amount)
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

// The venues CreateToken creates a token's pool on.
const (
	// VenueV2 is a Uniswap V2 pair on the official factory.
	VenueV2 = wire.VenueV2
	// VenueV3 is a Uniswap V3 pool on the official factory, over the full
	// range.
	VenueV3 = "v3"
)

// DefaultFeeTier is the fee tier of a V3 pool CreateToken makes when the
// request names none: 3000 (0.3%).
const DefaultFeeTier = 3000

// TokenRequest asks for a new token with a pool and liquidity.
type TokenRequest struct {
	Name   string
	Symbol string
	// Venue is VenueV2 (also when empty) or VenueV3.
	Venue string
	// FeeTier is the V3 pool's fee tier in hundredths of a basis point (100,
	// 500, 3000 or 10000); zero is DefaultFeeTier. A V2 pair has the one
	// fee of 0.3%, so V2 takes none.
	FeeTier uint32
	// Quote is the pool's quote asset: empty (or the native symbol, or the
	// wrapped native) for the wrapped native coin, or a stable's symbol or
	// address. On a chain with a native token (arc) the native coin, in
	// any of these names or by the native token's address, is the native
	// token: arc's pools trade against USDC's ERC-20, not a wrapped coin.
	Quote string
	// Liquidity is the quote side of the pool in the quote's base units
	// (wei for the wrapped native coin, the native token's 6 decimals on
	// arc); nil is 30,000 USD worth.
	Liquidity *big.Int
	// BuyTaxBps and SellTaxBps are the token's taxes, at most 10000. Only
	// a V2 token can have them: a V3 pool checks what it receives against
	// what it asked for, so a token that takes a fee on transfer cannot be
	// sold into one.
	BuyTaxBps, SellTaxBps uint64
	// Creator receives 10% of the supply and the taxes; zero leaves both
	// with the deployer.
	Creator common.Address
}

// Token is a token created by CreateToken.
type Token struct {
	Address common.Address `json:"address"`
	// Pool is the token's pool with Quote: its V2 pair or its V3 pool.
	// Quote is the wrapped native coin, a stable or, on arc, the native
	// token.
	Pool  common.Address `json:"pool"`
	Quote common.Address `json:"quote"`
	Venue string         `json:"venue"`
	// FeeTier is the V3 pool's fee tier, zero for a V2 pair.
	FeeTier uint32 `json:"feeTier,omitempty"`
	// Pair is Pool for a V2 token and zero for a V3 one, for callers
	// written when every token had a V2 pair.
	Pair common.Address `json:"pair"`
}

// tokenPlan is a checked TokenRequest with its defaults filled in.
type tokenPlan struct {
	req       TokenRequest
	venue     string
	fee       uint32
	native    bool
	quote     common.Address
	liquidity *big.Int
}

// planToken checks a request and fills in its defaults.
func (c *Chain) planToken(req TokenRequest) (tokenPlan, error) {
	p := tokenPlan{req: req, venue: strings.ToLower(strings.TrimSpace(req.Venue))}
	if n := len(req.Name); n == 0 || n > 64 {
		return p, fieldErr("name", "name must be 1 to 64 bytes")
	}
	if n := len(req.Symbol); n == 0 || n > 32 {
		return p, fieldErr("symbol", "symbol must be 1 to 32 bytes")
	}
	switch p.venue {
	case "", VenueV2:
		p.venue = VenueV2
		if req.FeeTier != 0 {
			return p, fieldErr("feeTier", "a fee tier is for venue %s; a %s pair's fee is 0.3%%", VenueV3, VenueV2)
		}
	case VenueV3:
		p.fee = req.FeeTier
		if p.fee == 0 {
			p.fee = DefaultFeeTier
		}
		if _, ok := uniswap.TickSpacing(p.fee); !ok {
			return p, fieldErr("feeTier", "fee tier must be one of %v, not %d", uniswap.FeeTiers(), req.FeeTier)
		}
	default:
		return p, fieldErr("venue", "venue must be %s or %s, not %q", VenueV2, VenueV3, req.Venue)
	}
	for _, tax := range []struct {
		field string
		bps   uint64
	}{{"buyTaxBps", req.BuyTaxBps}, {"sellTaxBps", req.SellTaxBps}} {
		switch {
		case tax.bps > 10_000:
			return p, fieldErr(tax.field, "a tax must be at most 10000 bps")
		case tax.bps > 0 && p.venue == VenueV3:
			return p, fieldErr(tax.field, "a %s pool does not take a token with a tax on transfers; use venue %s", VenueV3, VenueV2)
		}
	}
	q, err := c.resolve("quote", req.Quote)
	if err != nil {
		return p, err
	}
	p.native = q.native || q.wrapped
	if !p.native && !q.stable && !q.nativeToken {
		return p, fieldErr("quote", "quote must be the native coin or a quote asset of %s", c.spec.name)
	}
	p.quote = q.addr
	switch {
	case (p.native || q.nativeToken) && c.deployment.NativeToken != (common.Address{}):
		// The native coin's ERC-20 is a quote token as a stable is: minted
		// for the pool, never wrapped.
		p.native, p.quote = false, c.deployment.NativeToken
	case p.native:
		p.quote = c.deployment.WrappedNative
	}
	p.liquidity = req.Liquidity
	switch {
	case p.liquidity != nil && p.liquidity.Sign() <= 0:
		return p, fieldErr("liquidity", "liquidity must be positive")
	case p.liquidity == nil && p.native:
		p.liquidity = c.spec.nativeForUSD(defaultTokenUSD)
	case p.liquidity == nil:
		p.liquidity = wholeUnits(defaultTokenUSD, c.stableDecimals(p.quote))
	}
	return p, nil
}

// CreateToken deploys a TaxToken (18 decimals, 1,000,000,000 supply) and
// pools 90% of its supply against req.Liquidity of the quote asset: on
// VenueV2 in the token's pair on the official UniswapV2Factory, which the
// token creates and taxes, through Router02.addLiquidity(ETH); on VenueV3
// in its pool of the fee tier on the official UniswapV3Factory, created at
// the amounts' price and filled over the full range through the position
// manager, the wrapped native coin standing for the native one. On arc
// the native coin's pools are against the native token (USDC, 6
// decimals), minted for the pool as a stable is. The rest of the supply
// goes to the creator. The deployer owns the token (and can mint it for
// FundToken) and the pool's liquidity; the owner, the tax wallet and the
// token are exempt from its taxes.
func (c *Chain) CreateToken(ctx context.Context, req TokenRequest) (Token, error) {
	p, err := c.planToken(req)
	if err != nil {
		return Token{}, err
	}
	var out Token
	_, err = c.asDeployer(ctx, func(nonce uint64) ([]txCall, error) {
		token := crypto.CreateAddress(DeployerAddress, nonce)
		out = Token{Address: token, Quote: p.quote, Venue: p.venue, FeeTier: p.fee}
		var list []txCall
		var err error
		if p.venue == VenueV3 {
			list, out.Pool, err = c.v3TokenCalls(p, token)
		} else {
			list, out.Pool, err = c.v2TokenCalls(p, token)
			out.Pair = out.Pool
		}
		return list, err
	})
	if err != nil {
		return Token{}, fmt.Errorf("create %s token %s on %s: %w", p.venue, req.Symbol, c.spec.name, err)
	}
	return out, nil
}

// tokenSupply is a created token's supply, and its pooled and creator's
// shares.
func tokenSupply() (supply, pooled, creatorShare *big.Int) {
	supply = wholeUnits(tokenSupplyWhole, 18)
	creatorShare = new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(creatorShareBps)), big.NewInt(10_000))
	return supply, new(big.Int).Sub(supply, creatorShare), creatorShare
}

// v2TokenCalls deploys token with its pair and adds its liquidity through
// Router02.
func (c *Chain) v2TokenCalls(p tokenPlan, token common.Address) ([]txCall, common.Address, error) {
	d := c.deployment
	supply, pooled, share := tokenSupply()
	var cs calls
	cs.add(deployCall("deploy token", contracts.TaxTokenMetaData, gasDeployLarge, p.req.Name, p.req.Symbol, supply,
		new(big.Int).SetUint64(p.req.BuyTaxBps), new(big.Int).SetUint64(p.req.SellTaxBps), p.req.Creator, d.Factory, p.quote))
	cs.add(methodCall("approve token", token, contracts.TaxTokenMetaData, gasCall, nil, "approve", d.Router02, pooled))
	if p.native {
		cs.add(methodCall("add liquidity", d.Router02, uniswap.UniswapV2Router02MetaData, gasAddLiquidity, p.liquidity,
			"addLiquidityETH", token, pooled, common.Big0, common.Big0, DeployerAddress, farDeadline))
	} else {
		cs.add(methodCall("mint quote", p.quote, contracts.StableMetaData, gasCall, nil, "mint", DeployerAddress, p.liquidity))
		cs.add(methodCall("approve quote", p.quote, contracts.StableMetaData, gasCall, nil, "approve", d.Router02, p.liquidity))
		cs.add(methodCall("add liquidity", d.Router02, uniswap.UniswapV2Router02MetaData, gasAddLiquidity, nil,
			"addLiquidity", token, p.quote, pooled, p.liquidity, common.Big0, common.Big0, DeployerAddress, farDeadline))
	}
	c.payCreator(&cs, p, token, share)
	return cs.list, uniswap.V2PairAddress(d.Factory, token, p.quote), cs.err
}

// v3TokenCalls deploys token without a pair, gets the deployer the quote
// side (wrapping the native coin, or minting the stable or the native
// token), and creates and fills the token's V3 pool through the position
// manager.
func (c *Chain) v3TokenCalls(p tokenPlan, token common.Address) ([]txCall, common.Address, error) {
	supply, pooled, share := tokenSupply()
	var cs calls
	cs.add(deployCall("deploy token", contracts.TaxTokenMetaData, gasDeployLarge, p.req.Name, p.req.Symbol, supply,
		common.Big0, common.Big0, p.req.Creator, common.Address{}, common.Address{}))
	if p.native {
		cs.add(methodCall("wrap quote", p.quote, contracts.WrappedNativeMetaData, gasCall, p.liquidity, "deposit"))
	} else {
		cs.add(methodCall("mint quote", p.quote, contracts.StableMetaData, gasCall, nil, "mint", DeployerAddress, p.liquidity))
	}
	seed, pool, err := uniswap.AddLiquidityV3Txs(c.deployment.Uniswap(), token, p.quote, p.fee, pooled, p.liquidity, DeployerAddress)
	if err != nil {
		return nil, common.Address{}, err
	}
	for _, t := range seed {
		cs.add(txCall{what: t.What, to: t.To, data: t.Data, gas: t.Gas}, nil)
	}
	c.payCreator(&cs, p, token, share)
	return cs.list, pool, cs.err
}

// payCreator sends the creator's share of the supply, when there is a
// creator.
func (c *Chain) payCreator(cs *calls, p tokenPlan, token common.Address, share *big.Int) {
	if p.req.Creator != (common.Address{}) {
		cs.add(methodCall("pay creator", token, contracts.TaxTokenMetaData, gasCall, nil, "transfer", p.req.Creator, share))
	}
}

// stableDecimals returns the decimals of a stable or of the native token.
func (c *Chain) stableDecimals(addr common.Address) int {
	if addr == c.deployment.NativeToken && addr != (common.Address{}) {
		return c.spec.native.Decimals
	}
	for sym, a := range c.deployment.Stables {
		if a == addr {
			return int(c.deployment.StableDecimals[sym])
		}
	}
	return 18
}

// Balance returns an address's balance in base units of the native coin
// (token "" or the native symbol, in wei), a quote-asset symbol, the
// wrapped native symbol, or a token address. On arc the native symbol
// (USDC) is the native token's balance, in its 6 decimals, and "" the
// native coin's, in wei.
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
