package devnet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Decimals on Solana: SOL has 9, pump.fun coins and the stables 6.
const (
	solDecimals    = 9
	stableDecimals = 6
)

// Venues of the local Solana chain.
const (
	venuePumpFun   = "pump_fun"
	venuePumpSwap  = "pumpswap"
	venueLaunchLab = "launchlab"
	venueDBC       = "dbc"
)

// solanaQuoteMints are the stables of the local Solana chain, at their
// mainnet addresses.
var solanaQuoteMints = map[string]string{"USDC": pumpswap.USDCMint.String(), "USD1": pumpswap.USD1Mint.String()}

// SolanaDevnetConfig configures the client of the local Solana chain.
type SolanaDevnetConfig struct {
	// RPCURL is the chain's JSON-RPC endpoint.
	RPCURL string
	// RelayURL is its bundle relay, shown by GET /admin/v1/devnet.
	RelayURL string
	// QuoteMints maps quote-asset symbols (USDC, USD1) to their mints on
	// the local chain, so that funding can name a token by symbol; empty
	// means the local chain's own (the mainnet addresses).
	QuoteMints map[string]string
	// Timeout bounds every RPC call (10 s when zero).
	Timeout time.Duration
}

// SolanaDevnet is the Devnet of the local Solana chain. It speaks the
// chain's JSON-RPC: requestAirdrop, getBalance, getTokenAccountsByOwner,
// getTokenAccountBalance, getTokenSupply and getSignatureStatuses, plus the
// chain's own devnet_createPumpCoin, devnet_createPumpSwapCoin and
// devnet_mintTo.
type SolanaDevnet struct {
	cfg SolanaDevnetConfig
	rpc *rpc.Client
}

// NewSolanaDevnet returns the client of the local Solana chain.
func NewSolanaDevnet(cfg SolanaDevnetConfig) *SolanaDevnet {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if len(cfg.QuoteMints) == 0 {
		cfg.QuoteMints = solanaQuoteMints
	}
	// Through an endpoint, so that in the process that runs the chain (up)
	// the calls reach it in process, as the service's own clients do.
	return &SolanaDevnet{cfg: cfg, rpc: endpoint.New("local solana chain", cfg.RPCURL).SolanaRPC(0)}
}

// LocalDevnets returns the Devnets of the local chains served at addr
// (TRADEAPI_DEVNET_ADDR, host:port or a URL): Solana's JSON-RPC at /solana
// and its bundle relay at /solana/bundles. The EVM chains join here when
// their local nodes exist; until then they answer 400 INVALID_REQUEST.
func LocalDevnets(addr string) Devnets {
	base := strings.TrimRight(addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	return Devnets{wire.ChainSolana: NewSolanaDevnet(SolanaDevnetConfig{
		RPCURL: base + "/solana", RelayURL: base + "/solana/bundles"})}
}

// solanaVenues are the venues the local chain can create a token on: a
// pump.fun coin on its bonding curve, one graduated into its PumpSwap pool,
// a letsbonk coin on its Raydium LaunchLab curve, a bags-style coin on its
// Meteora DBC curve.
var solanaVenues = []string{venuePumpFun, venuePumpSwap, venueLaunchLab, venueDBC}

// launchQuotes are the quote assets of the local chain's launchpad curves.
var launchQuotes = map[string][]string{venueLaunchLab: {"SOL", "USD1"}, venueDBC: {"SOL", "USDC"}}

// Chains returns the local Solana chain's endpoints.
func (d *SolanaDevnet) Chains() map[string]ChainEndpoints {
	return map[string]ChainEndpoints{wire.ChainSolana: {RPCURL: d.cfg.RPCURL, RelayURL: d.cfg.RelayURL, Venues: solanaVenues}}
}

// call runs one JSON-RPC call. A refusal by the chain is INVALID_REQUEST
// naming field; a chain that does not answer is CHAIN_UNAVAILABLE.
func (d *SolanaDevnet) call(ctx context.Context, out any, field, method string, params ...any) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	err := d.rpc.RPCCallForInto(ctx, out, method, params)
	if err == nil {
		return nil
	}
	var re *jsonrpc.RPCError
	if errors.As(err, &re) {
		return &apierr.Error{Code: apierr.InvalidRequest, Details: field, Err: err,
			Message: fmt.Sprintf("the local solana chain refused %s: %s", method, re.Message)}
	}
	return &apierr.Error{Code: apierr.ChainUnavailable, Err: err,
		Message: "the local solana chain did not answer " + method}
}

func solAddress(field, s string) (solana.PublicKey, error) {
	k, err := chains.SolanaAddress(strings.TrimSpace(s))
	if err != nil {
		return solana.PublicKey{}, apierr.Invalid(field, "%s is not a Solana address", field)
	}
	return k, nil
}

func checkSolanaChain(chain string) error {
	if chain != wire.ChainSolana {
		return apierr.Invalid("chain", "chain %s has no local development chain configured", chain)
	}
	return nil
}

// baseUnits converts a decimal string in whole units into an integer of
// base units that fits a u64, exactly.
func baseUnits(field, amount string, decimals int) (uint64, error) {
	v, err := money.ParseUnits(amount, decimals)
	if err != nil {
		return 0, apierr.Invalid(field, "%s must be a positive decimal string with at most %d decimals: %v", field, decimals, err)
	}
	if !v.IsUint64() {
		return 0, apierr.Invalid(field, "%s is too large", field)
	}
	return v.Uint64(), nil
}

// Fund airdrops SOL from the chain's faucet and mints tokens to the
// address's associated token account.
func (d *SolanaDevnet) Fund(ctx context.Context, req FundRequest) error {
	if err := checkSolanaChain(req.Chain); err != nil {
		return err
	}
	owner, err := solAddress("address", req.Address)
	if err != nil {
		return err
	}
	var lamports uint64
	if req.Amount != "" {
		if lamports, err = baseUnits("amount", req.Amount, solDecimals); err != nil {
			return err
		}
	}
	var mint solana.PublicKey
	var tokenUnits uint64
	if req.Token != "" {
		if mint, err = d.mint(req.Token); err != nil {
			return err
		}
		decimals, err := d.decimals(ctx, mint)
		if err != nil {
			return err
		}
		if tokenUnits, err = baseUnits("token_amount", req.TokenAmount, decimals); err != nil {
			return err
		}
	}
	if lamports > 0 {
		var sig string
		if err := d.call(ctx, &sig, "amount", "requestAirdrop", owner.String(), lamports); err != nil {
			return err
		}
		if err := d.confirm(ctx, sig); err != nil {
			return err
		}
	}
	if tokenUnits > 0 {
		var out struct {
			TokenAccount string `json:"tokenAccount"`
		}
		params := map[string]any{"mint": mint.String(), "owner": owner.String(), "amount": tokenUnits}
		if err := d.call(ctx, &out, "token", "devnet_mintTo", params); err != nil {
			return err
		}
	}
	return nil
}

// confirm waits until a signature has landed, and fails if it failed.
func (d *SolanaDevnet) confirm(ctx context.Context, sig string) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	for {
		var out struct {
			Value []*struct {
				Err                any    `json:"err"`
				ConfirmationStatus string `json:"confirmationStatus"`
			} `json:"value"`
		}
		if err := d.call(ctx, &out, "", "getSignatureStatuses", []string{sig}); err != nil {
			return err
		}
		if len(out.Value) == 1 && out.Value[0] != nil {
			st := out.Value[0]
			if st.Err != nil {
				return fmt.Errorf("airdrop %s failed on the local chain: %v", sig, st.Err)
			}
			if st.ConfirmationStatus == "confirmed" || st.ConfirmationStatus == "finalized" {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return &apierr.Error{Code: apierr.ChainUnavailable, Err: ctx.Err(),
				Message: "the airdrop did not confirm on the local solana chain"}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// mint resolves a token: a quote-asset symbol or a mint address.
func (d *SolanaDevnet) mint(token string) (solana.PublicKey, error) {
	if m, ok := d.cfg.QuoteMints[strings.ToUpper(token)]; ok {
		return solAddress("token", m)
	}
	k, err := chains.SolanaAddress(strings.TrimSpace(token))
	if err != nil {
		return solana.PublicKey{}, apierr.Invalid("token", "token must be a mint address or a quote asset of the local chain")
	}
	return k, nil
}

// decimals reads a mint's decimals.
func (d *SolanaDevnet) decimals(ctx context.Context, mint solana.PublicKey) (int, error) {
	var out struct {
		Value struct {
			Decimals int `json:"decimals"`
		} `json:"value"`
	}
	if err := d.call(ctx, &out, "token", "getTokenSupply", mint.String()); err != nil {
		return 0, err
	}
	return out.Value.Decimals, nil
}

// CreateToken creates a pump.fun coin: on its bonding curve (venue
// pump_fun, quoted in SOL), or graduated into its canonical PumpSwap pool
// (venue pumpswap) quoted in SOL, USDC or USD1 with liquidity whole units of
// the quote in the pool (default 85 SOL, or 12,750 of a stable). The pool of
// a pump_fun coin is its bonding curve.
func (d *SolanaDevnet) CreateToken(ctx context.Context, req TokenRequest) (Token, error) {
	if err := checkSolanaChain(req.Chain); err != nil {
		return Token{}, err
	}
	if !slices.Contains(solanaVenues, req.Venue) {
		return Token{}, apierr.Invalid("venue", "venue %q cannot be created on the local solana chain; use one of %s",
			req.Venue, strings.Join(solanaVenues, ", "))
	}
	if n := len(req.Name); n == 0 || n > 32 {
		return Token{}, apierr.Invalid("name", "name must be 1 to 32 bytes")
	}
	if n := len(req.Symbol); n == 0 || n > 10 {
		return Token{}, apierr.Invalid("symbol", "symbol must be 1 to 10 bytes")
	}
	quote := strings.ToUpper(req.QuoteAsset)
	if quote == "" {
		quote = "SOL"
	}
	creator := req.Creator
	if creator == "" {
		// Nobody in particular: a fresh address owns the creator fees.
		k, err := solana.NewRandomPrivateKey()
		if err != nil {
			return Token{}, fmt.Errorf("creator key: %w", err)
		}
		creator = k.PublicKey().String()
	} else if _, err := solAddress("creator", creator); err != nil {
		return Token{}, err
	}
	if req.Venue == venuePumpFun {
		if quote != "SOL" {
			return Token{}, apierr.Invalid("quote_asset", "a pump.fun coin on its bonding curve trades against SOL; venue pumpswap takes SOL, USDC or USD1")
		}
		if req.Liquidity != "" {
			return Token{}, apierr.Invalid("liquidity", "a pump.fun coin starts on its bonding curve; liquidity does not apply")
		}
		var out struct {
			Mint         string `json:"mint"`
			BondingCurve string `json:"bondingCurve"`
		}
		params := map[string]any{"creator": creator, "name": req.Name, "symbol": req.Symbol}
		if err := d.call(ctx, &out, "venue", "devnet_createPumpCoin", params); err != nil {
			return Token{}, err
		}
		return Token{Address: out.Mint, Pool: out.BondingCurve}, nil
	}

	if qs, ok := launchQuotes[req.Venue]; ok {
		return d.createLaunchCoin(ctx, req, creator, quote, qs)
	}

	params := map[string]any{"creator": creator, "name": req.Name, "symbol": req.Symbol}
	decimals := solDecimals
	if quote != "SOL" {
		m, ok := d.cfg.QuoteMints[quote]
		if !ok {
			return Token{}, apierr.Invalid("quote_asset", "quote_asset on solana must be one of SOL, USDC, USD1")
		}
		params["quoteMint"] = m
		decimals = stableDecimals
	}
	if req.Liquidity != "" {
		units, err := baseUnits("liquidity", req.Liquidity, decimals)
		if err != nil {
			return Token{}, err
		}
		params["liquidity"] = units
	}
	var out struct {
		Mint string `json:"mint"`
		Pool string `json:"pool"`
	}
	if err := d.call(ctx, &out, "venue", "devnet_createPumpSwapCoin", params); err != nil {
		return Token{}, err
	}
	return Token{Address: out.Mint, Pool: out.Pool}, nil
}

// createLaunchCoin creates a coin on a launchpad curve (venue launchlab or
// dbc) quoted in quote, one of quotes.
func (d *SolanaDevnet) createLaunchCoin(ctx context.Context, req TokenRequest, creator, quote string, quotes []string) (Token, error) {
	if !slices.Contains(quotes, quote) {
		return Token{}, apierr.Invalid("quote_asset", "a %s coin on the local chain's curve is quoted in %s", req.Venue, strings.Join(quotes, " or "))
	}
	if req.Liquidity != "" {
		return Token{}, apierr.Invalid("liquidity", "a %s coin starts on its bonding curve; liquidity does not apply", req.Venue)
	}
	if req.Venue == venueDBC && req.Creator != "" {
		return Token{}, apierr.Invalid("creator", "the local chain creates its DBC pools itself (a pool's creator signs its creation); creator does not apply")
	}
	params := map[string]any{"venue": req.Venue, "name": req.Name, "symbol": req.Symbol}
	if req.Venue == venueLaunchLab {
		params["creator"] = creator
	}
	if quote != "SOL" {
		params["quoteMint"] = d.cfg.QuoteMints[quote]
	}
	var out struct {
		Mint string `json:"mint"`
		Pool string `json:"pool"`
	}
	if err := d.call(ctx, &out, "venue", "devnet_createLaunchCoin", params); err != nil {
		return Token{}, err
	}
	return Token{Address: out.Mint, Pool: out.Pool}, nil
}

// Balance returns SOL, or the sum of the address's token accounts of a mint.
func (d *SolanaDevnet) Balance(ctx context.Context, chain, address, token string) (string, error) {
	if err := checkSolanaChain(chain); err != nil {
		return "", err
	}
	owner, err := solAddress("address", address)
	if err != nil {
		return "", err
	}
	if token == "" || strings.EqualFold(token, "SOL") {
		var out struct {
			Value uint64 `json:"value"`
		}
		if err := d.call(ctx, &out, "address", "getBalance", owner.String()); err != nil {
			return "", err
		}
		return money.Format(new(big.Int).SetUint64(out.Value), solDecimals), nil
	}
	mint, err := d.mint(token)
	if err != nil {
		return "", err
	}
	var accounts struct {
		Value []struct {
			Pubkey string `json:"pubkey"`
		} `json:"value"`
	}
	if err := d.call(ctx, &accounts, "token", "getTokenAccountsByOwner", owner.String(),
		map[string]string{"mint": mint.String()}, map[string]string{"encoding": "base64"}); err != nil {
		return "", err
	}
	total := new(big.Int)
	decimals := -1
	for _, a := range accounts.Value {
		var bal struct {
			Value struct {
				Amount   string `json:"amount"`
				Decimals int    `json:"decimals"`
			} `json:"value"`
		}
		if err := d.call(ctx, &bal, "token", "getTokenAccountBalance", a.Pubkey); err != nil {
			return "", err
		}
		v, ok := new(big.Int).SetString(bal.Value.Amount, 10)
		if !ok {
			return "", fmt.Errorf("token account %s: amount %q is not an integer", a.Pubkey, bal.Value.Amount)
		}
		total.Add(total, v)
		decimals = bal.Value.Decimals
	}
	if decimals < 0 {
		if decimals, err = d.decimals(ctx, mint); err != nil {
			return "", err
		}
	}
	return money.Format(total, decimals), nil
}
