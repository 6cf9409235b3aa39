package devnet

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Venues of the local EVM chains: a Uniswap V2 pair, and a Uniswap V3 pool
// over the full range.
const (
	venueV2 = wire.VenueV2
	venueV3 = "v3"
)

// evmVenues are the venues a local EVM chain can create a token on.
var evmVenues = []string{venueV2, venueV3}

// evmFeeTiers are the fee tiers of a V3 pool, in hundredths of a basis
// point.
var evmFeeTiers = []int64{100, 500, 3000, 10000}

// EVMDevnetConfig configures the client of one local EVM chain.
type EVMDevnetConfig struct {
	// Chain is the chain's name: eth, bsc, base, rbh or arc.
	Chain string
	// RPCURL is the chain's JSON-RPC endpoint.
	RPCURL string
	// RelayURL is its private relay, shown by GET /admin/v1/devnet.
	RelayURL string
	// Timeout bounds every RPC call (30 s when zero; creating a token
	// waits for its transactions to be mined).
	Timeout time.Duration
}

// EVMDevnet is the Devnet of one local EVM chain. It speaks the chain's
// JSON-RPC over HTTP, so the chain may run in another process: eth_getBalance
// and eth_call (ERC-20 balanceOf and decimals), plus the chain's own
// devnet_deployment, devnet_fund and devnet_createToken. Amounts are exact:
// whole-unit decimal strings become base units with math/big, and back.
//
// On arc, whose native coin is USDC with an ERC-20 interface of its own,
// the local chain stands for that interface by a token of its own
// (devnet_deployment's nativeToken, 6 decimals): the native amount (in
// USDC, to 18 decimals) and the token USDC (to 6) each fund both the
// native coin and that token, the same USDC in each; Balance of "USDC" is
// that token's and Balance of "" the native coin's.
type EVMDevnet struct {
	cfg   EVMDevnetConfig
	chain *chains.Chain

	dialOnce sync.Once
	rpc      *rpc.Client
	eth      *ethclient.Client
	dialErr  error

	// dep caches devnet_deployment's stable coins by symbol and its native
	// token; nil until read.
	mu  sync.Mutex
	dep *evmDeployment
}

// evmDeployment is what the client reads of devnet_deployment.
type evmDeployment struct {
	Stables     map[string]common.Address `json:"stables"`
	NativeToken common.Address            `json:"nativeToken"`
}

// NewEVMDevnet returns the client of a local EVM chain. It connects on
// first use.
func NewEVMDevnet(cfg EVMDevnetConfig) (*EVMDevnet, error) {
	c, ok := chains.Get(cfg.Chain)
	if !ok || c.Family != wire.FamilyEVM {
		return nil, fmt.Errorf("%q is not an evm chain", cfg.Chain)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &EVMDevnet{cfg: cfg, chain: c}, nil
}

// LocalEVMDevnets returns the Devnets of the local EVM chains served at
// addr (TRADEAPI_DEVNET_ADDR, host:port or a URL): each chain's JSON-RPC at
// /evm/<chain> and its private relay at /evm/<chain>/relay. Empty names
// means every EVM chain; a name that is not an EVM chain is skipped.
func LocalEVMDevnets(addr string, names []string) Devnets {
	base := strings.TrimRight(addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	if len(names) == 0 {
		names = wire.EVMChains
	}
	out := Devnets{}
	for _, name := range names {
		d, err := NewEVMDevnet(EVMDevnetConfig{Chain: name,
			RPCURL: base + "/evm/" + name, RelayURL: base + "/evm/" + name + "/relay"})
		if err == nil {
			out[name] = d
		}
	}
	return out
}

// AllLocalDevnets returns the Devnets of every local chain served at addr:
// Solana's (LocalDevnets) and each EVM chain's (LocalEVMDevnets).
func AllLocalDevnets(addr string) Devnets {
	out := LocalDevnets(addr)
	maps.Copy(out, LocalEVMDevnets(addr, nil))
	return out
}

// Chains returns the chain's endpoints.
func (d *EVMDevnet) Chains() map[string]ChainEndpoints {
	return map[string]ChainEndpoints{d.cfg.Chain: {RPCURL: d.cfg.RPCURL, RelayURL: d.cfg.RelayURL, Venues: evmVenues}}
}

func (d *EVMDevnet) client() (*rpc.Client, *ethclient.Client, error) {
	d.dialOnce.Do(func() {
		d.rpc, d.dialErr = rpc.DialOptions(context.Background(), d.cfg.RPCURL)
		if d.dialErr == nil {
			d.eth = ethclient.NewClient(d.rpc)
		}
	})
	if d.dialErr != nil {
		return nil, nil, &apierr.Error{Code: apierr.ChainUnavailable, Err: d.dialErr,
			Message: "the local " + d.cfg.Chain + " chain cannot be reached"}
	}
	return d.rpc, d.eth, nil
}

// Close releases the connection to the chain.
func (d *EVMDevnet) Close() {
	d.dialOnce.Do(func() { d.dialErr = errors.New("closed") })
	if d.rpc != nil {
		d.rpc.Close()
	}
}

// rpcFields maps the fields the chain's devnet_ methods name in their errors
// to the admin API's fields.
var rpcFields = map[string]string{
	"address": "address", "amount": "amount", "token": "token", "tokenAmount": "token_amount",
	"name": "name", "symbol": "symbol", "quote": "quote_asset", "liquidity": "liquidity",
	"buyTaxBps": "buy_tax_pct", "sellTaxBps": "sell_tax_pct", "creator": "creator",
	"venue": "venue", "feeTier": "fee_tier",
}

// chainError turns an RPC failure into the admin API's error: a refusal
// that names a field is INVALID_REQUEST naming it; a chain that does not
// answer is CHAIN_UNAVAILABLE; anything else is INTERNAL.
func (d *EVMDevnet) chainError(method string, err error) error {
	var re rpc.Error
	if errors.As(err, &re) {
		var de rpc.DataError
		if re.ErrorCode() == -32602 && errors.As(err, &de) {
			if data, ok := de.ErrorData().(map[string]any); ok {
				if f, ok := data["field"].(string); ok {
					field := rpcFields[f]
					if field == "" {
						field = f
					}
					return &apierr.Error{Code: apierr.InvalidRequest, Details: field, Err: err,
						Message: fmt.Sprintf("the local %s chain refused %s: %s", d.cfg.Chain, field, re.Error())}
				}
			}
		}
		return apierr.Wrap(err, fmt.Sprintf("the local %s chain failed %s", d.cfg.Chain, method))
	}
	return &apierr.Error{Code: apierr.ChainUnavailable, Err: err,
		Message: fmt.Sprintf("the local %s chain did not answer %s", d.cfg.Chain, method)}
}

func (d *EVMDevnet) call(ctx context.Context, out any, method string, args ...any) error {
	rc, _, err := d.client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	if err := rc.CallContext(ctx, out, method, args...); err != nil {
		return d.chainError(method, err)
	}
	return nil
}

func (d *EVMDevnet) checkChain(chain string) error {
	if chain != d.cfg.Chain {
		return apierr.Invalid("chain", "chain %s has no local development chain configured", chain)
	}
	return nil
}

func evmAddress(field, s string) (common.Address, error) {
	s = strings.TrimSpace(s)
	switch err := chains.CheckAddress(wire.FamilyEVM, s); {
	case errors.Is(err, chains.ErrBadChecksum):
		return common.Address{}, apierr.Invalid(field, "%s does not match its EIP-55 checksum (its letters' case): a mistyped address? "+
			"Give it checksummed, or all in lower or upper case", field)
	case err != nil:
		return common.Address{}, apierr.Invalid(field, "%s is not a 0x-hex EVM address", field)
	}
	return common.HexToAddress(s), nil
}

func evmUnits(field, amount string, decimals int) (*big.Int, error) {
	v, err := money.ParseUnits(strings.TrimSpace(amount), decimals)
	if err != nil {
		return nil, apierr.Invalid(field, "%s must be a positive decimal string with at most %d decimals: %v", field, decimals, err)
	}
	// The chain's deployer funds, mints and seeds pools from what it holds
	// (10^12 of the native coin): a larger figure would fail on chain.
	most := new(big.Int).Mul(big.NewInt(maxDevnetUnits), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	if v.Cmp(most) > 0 {
		return nil, apierr.Invalid(field, "%s is more than the local chain gives at once: at most %d", field, maxDevnetUnits)
	}
	return v, nil
}

// maxDevnetUnits bounds, in whole units, what one request to a local EVM
// chain funds, mints or puts in a pool.
const maxDevnetUnits = 1_000_000_000

// evmToken is a resolved token argument.
type evmToken struct {
	native   bool
	address  common.Address
	decimals int
}

// token resolves a token argument: empty or the native symbol is the
// native coin, in wei, except that the native symbol of a chain whose
// native coin has an ERC-20 of its own (arc's USDC) is that ERC-20, in the
// native asset's decimals; a quote-asset symbol is the chain's stable;
// otherwise a token address, whose decimals are read from the chain.
func (d *EVMDevnet) token(ctx context.Context, field, token string) (evmToken, error) {
	t := strings.TrimSpace(token)
	native := d.chain.Assets[0]
	if t == "" {
		return evmToken{native: true, decimals: chains.WeiDecimals}, nil
	}
	if strings.EqualFold(t, native.Symbol) {
		dep, err := d.deployment(ctx)
		if err != nil {
			return evmToken{}, err
		}
		if dep.NativeToken != (common.Address{}) {
			return evmToken{address: dep.NativeToken, decimals: native.Decimals}, nil
		}
		return evmToken{native: true, decimals: chains.WeiDecimals}, nil
	}
	if a, ok := d.chain.Asset(t); ok {
		addr, err := d.stable(ctx, a.Symbol)
		if err != nil {
			return evmToken{}, err
		}
		return evmToken{address: addr, decimals: a.Decimals}, nil
	}
	if chains.CheckAddress(wire.FamilyEVM, t) == chains.ErrBadAddress {
		return evmToken{}, apierr.Invalid(field, "%s must be a token address or a quote asset of %s (%s)",
			field, d.cfg.Chain, strings.Join(d.chain.Symbols(), ", "))
	}
	addr, err := evmAddress(field, t)
	if err != nil {
		return evmToken{}, err
	}
	_, ec, err := d.client()
	if err != nil {
		return evmToken{}, err
	}
	erc20, err := contracts.NewERC20(addr, ec)
	if err != nil {
		return evmToken{}, fmt.Errorf("bind %s: %w", addr, err)
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	dec, err := erc20.Decimals(&bind.CallOpts{Context: ctx})
	if err != nil {
		// The chain answered, and what it answered is no token's
		// decimals (a revert, no code, or bytes that are no uint8: a
		// precompile): the address is no token. Only a chain that did
		// not answer is the chain's trouble.
		var ne net.Error
		if ctx.Err() == nil && !errors.As(err, &ne) {
			return evmToken{}, apierr.Invalid(field, "%s is not an ERC-20 token on %s", field, d.cfg.Chain)
		}
		return evmToken{}, d.chainError("eth_call", err)
	}
	return evmToken{address: addr, decimals: int(dec)}, nil
}

// deployment returns what the client needs of devnet_deployment, read
// once.
func (d *EVMDevnet) deployment(ctx context.Context) (*evmDeployment, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dep == nil {
		var dep evmDeployment
		if err := d.call(ctx, &dep, "devnet_deployment"); err != nil {
			return nil, err
		}
		d.dep = &dep
	}
	return d.dep, nil
}

// stable returns the address of a quote asset, from devnet_deployment.
func (d *EVMDevnet) stable(ctx context.Context, symbol string) (common.Address, error) {
	dep, err := d.deployment(ctx)
	if err != nil {
		return common.Address{}, err
	}
	addr, ok := dep.Stables[symbol]
	if !ok {
		return common.Address{}, fmt.Errorf("the local %s chain has no %s token", d.cfg.Chain, symbol)
	}
	return addr, nil
}

// Fund sends native coin and, optionally, tokens to an address.
func (d *EVMDevnet) Fund(ctx context.Context, req FundRequest) error {
	if err := d.checkChain(req.Chain); err != nil {
		return err
	}
	to, err := evmAddress("address", req.Address)
	if err != nil {
		return err
	}
	args := map[string]any{"address": to}
	if req.Amount != "" {
		wei, err := evmUnits("amount", req.Amount, chains.WeiDecimals)
		if err != nil {
			return err
		}
		args["amount"] = (*hexutil.Big)(wei)
	}
	if req.Token != "" {
		tok, err := d.token(ctx, "token", req.Token)
		if err != nil {
			return err
		}
		units, err := evmUnits("token_amount", req.TokenAmount, tok.decimals)
		if err != nil {
			return err
		}
		if tok.native {
			// The native coin named as a token: add it up. (Arc's USDC
			// is its ERC-20, which the chain funds along with the
			// native coin.)
			if prev, ok := args["amount"].(*hexutil.Big); ok {
				units.Add(units, prev.ToInt())
			}
			args["amount"] = (*hexutil.Big)(units)
		} else {
			args["token"] = tok.address.Hex()
			args["tokenAmount"] = (*hexutil.Big)(units)
		}
	}
	if _, ok := args["amount"]; !ok && args["token"] == nil {
		return apierr.Invalid("amount", "amount is required")
	}
	var ok bool
	return d.call(ctx, &ok, "devnet_fund", args)
}

// CreateToken creates a token against the quote asset on the request's
// venue: v2, a tax token with its Uniswap V2 pair; v3, a token with its
// Uniswap V3 pool of the default fee tier (3000) over the full range.
func (d *EVMDevnet) CreateToken(ctx context.Context, req TokenRequest) (Token, error) {
	return d.CreateTokenWithFeeTier(ctx, req, req.FeeTier)
}

// CreateTokenWithFeeTier is CreateToken with the fee tier of a v3 pool
// (100, 500, 3000 or 10000; nil is 3000), which the admin API takes as
// fee_tier. A fee tier with venue v2, or taxes with venue v3, are
// INVALID_REQUEST naming the field: a V2 pair has the one fee of 0.3%, and
// a V3 pool refuses a token that takes a fee on transfer.
func (d *EVMDevnet) CreateTokenWithFeeTier(ctx context.Context, req TokenRequest, feeTier *int64) (Token, error) {
	if err := d.checkChain(req.Chain); err != nil {
		return Token{}, err
	}
	args, err := d.tokenArgs(req, feeTier)
	if err != nil {
		return Token{}, err
	}
	var out struct {
		Address common.Address `json:"address"`
		Pool    common.Address `json:"pool"`
	}
	if err := d.call(ctx, &out, "devnet_createToken", args); err != nil {
		return Token{}, err
	}
	return Token{Address: out.Address.Hex(), Pool: out.Pool.Hex()}, nil
}

// tokenArgs checks a token request and turns it into devnet_createToken's
// arguments.
func (d *EVMDevnet) tokenArgs(req TokenRequest, feeTier *int64) (map[string]any, error) {
	venue := strings.ToLower(strings.TrimSpace(req.Venue))
	if !slices.Contains(evmVenues, venue) {
		return nil, apierr.Invalid("venue", "venue %q cannot be created on the local %s chain; use one of %s",
			req.Venue, d.cfg.Chain, strings.Join(evmVenues, ", "))
	}
	if n := len(req.Name); n == 0 || n > 64 {
		return nil, apierr.Invalid("name", "name must be 1 to 64 bytes")
	}
	if n := len(req.Symbol); n == 0 || n > 32 {
		return nil, apierr.Invalid("symbol", "symbol must be 1 to 32 bytes")
	}
	quote, ok := d.chain.Asset(strings.TrimSpace(req.QuoteAsset))
	if !ok {
		return nil, apierr.Invalid("quote_asset", "quote_asset must be one of %s on %s",
			strings.Join(d.chain.Symbols(), ", "), d.cfg.Chain)
	}
	args := map[string]any{"name": req.Name, "symbol": req.Symbol, "venue": venue}
	if feeTier != nil {
		switch {
		case venue != venueV3:
			return nil, apierr.Invalid("fee_tier", "fee_tier is for venue %s; a %s pair's fee is 0.3%%", venueV3, venue)
		case !slices.Contains(evmFeeTiers, *feeTier):
			return nil, apierr.Invalid("fee_tier", "fee_tier must be one of 100, 500, 3000 or 10000 (hundredths of a basis point), not %d", *feeTier)
		}
		args["feeTier"] = hexutil.Uint64(*feeTier)
	}
	if !quote.Native {
		args["quote"] = quote.Symbol
	}
	if req.Liquidity != "" {
		// A native quote is the wrapped native coin, whose decimals are
		// the native asset's (18), except on arc, whose pools are against
		// the native coin's ERC-20 in the native asset's 6: the asset's
		// decimals either way.
		units, err := evmUnits("liquidity", req.Liquidity, quote.Decimals)
		if err != nil {
			return nil, err
		}
		args["liquidity"] = (*hexutil.Big)(units)
	}
	for _, tax := range []struct {
		field, arg string
		pct        *float64
	}{{"buy_tax_pct", "buyTaxBps", req.BuyTaxPct}, {"sell_tax_pct", "sellTaxBps", req.SellTaxPct}} {
		bps, err := taxBps(tax.field, tax.pct)
		if err != nil {
			return nil, err
		}
		if bps > 0 && venue == venueV3 {
			return nil, apierr.Invalid(tax.field, "%s is for venue %s only: a V3 pool does not take a token with a tax on transfers", tax.field, venueV2)
		}
		args[tax.arg] = hexutil.Uint64(bps)
	}
	if req.Creator != "" {
		creator, err := evmAddress("creator", req.Creator)
		if err != nil {
			return nil, err
		}
		args["creator"] = creator
	}
	return args, nil
}

// taxBps turns a tax in percent into basis points, to the nearest one.
func taxBps(field string, pct *float64) (uint64, error) {
	if pct == nil {
		return 0, nil
	}
	if math.IsNaN(*pct) || *pct < 0 || *pct > 100 {
		return 0, apierr.Invalid(field, "%s must be a number from 0 to 100", field)
	}
	return uint64(math.Round(*pct * 100)), nil
}

// Balance returns the native coin or a token held by an address, in whole
// units.
func (d *EVMDevnet) Balance(ctx context.Context, chain, address, token string) (string, error) {
	if err := d.checkChain(chain); err != nil {
		return "", err
	}
	holder, err := evmAddress("address", address)
	if err != nil {
		return "", err
	}
	tok, err := d.token(ctx, "token", token)
	if err != nil {
		return "", err
	}
	_, ec, err := d.client()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	var v *big.Int
	if tok.native {
		if v, err = ec.BalanceAt(ctx, holder, nil); err != nil {
			return "", d.chainError("eth_getBalance", err)
		}
		return money.Format(v, tok.decimals), nil
	}
	erc20, err := contracts.NewERC20(tok.address, ec)
	if err != nil {
		return "", fmt.Errorf("bind %s: %w", tok.address, err)
	}
	if v, err = erc20.BalanceOf(&bind.CallOpts{Context: ctx}, holder); err != nil {
		return "", d.chainError("eth_call", err)
	}
	return money.Format(v, tok.decimals), nil
}
