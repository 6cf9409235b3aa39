// Package devnet holds the clients of the local development chains (test
// doubles of Solana and of the EVM chains, see the solana and evm packages
// below): they fund addresses, create tokens on the chains' venues and read
// balances for the registry's devnet admin routes and the demo account. They
// speak the chains' JSON-RPC, so a chain may run in another process.
package devnet

import (
	"context"
	"strings"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Devnet drives the local development chains for the devnet admin
// endpoints and the demo account. Amounts are decimal strings in whole
// units (SOL, ETH, tokens with their decimals), never base units. Errors
// that are the caller's fault are *apierr.Error values naming the field.
type Devnet interface {
	// Chains returns where each local chain answers, by chain name.
	Chains() map[string]ChainEndpoints
	// Fund gives an address native coin and, optionally, tokens.
	Fund(ctx context.Context, req FundRequest) error
	// CreateToken creates a tradable token on a venue.
	CreateToken(ctx context.Context, req TokenRequest) (Token, error)
	// Balance returns an address's balance of the native coin (token "")
	// or of a token (an address or a quote-asset symbol), in whole units.
	Balance(ctx context.Context, chain, address, token string) (string, error)
}

// ChainEndpoints is where a local chain answers.
type ChainEndpoints struct {
	RPCURL   string `json:"rpc_url"`
	RelayURL string `json:"relay_url"`
	// Venues are the venues CreateToken supports on the chain; the demo
	// account gets one token on each.
	Venues []string `json:"-"`
}

// FundRequest is the body of POST /admin/v1/devnet/fund.
type FundRequest struct {
	Chain   string `json:"chain"`
	Address string `json:"address"`
	// Amount of the native coin; empty funds tokens only.
	Amount string `json:"amount,omitempty"`
	// Token is a token address or a quote-asset symbol (USDC, USDT, USD1,
	// USDG); empty funds the native coin only.
	Token       string `json:"token,omitempty"`
	TokenAmount string `json:"token_amount,omitempty"`
}

// TokenRequest is the body of POST /admin/v1/devnet/tokens.
type TokenRequest struct {
	Chain  string `json:"chain"`
	Venue  string `json:"venue"` // pump_fun, pumpswap, launchlab or dbc on Solana, v2 or v3 on EVM, as the chain supports
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
	// QuoteAsset of the pool; empty is the native coin.
	QuoteAsset string `json:"quote_asset,omitempty"`
	// Liquidity in the quote asset's whole units; empty is the chain's
	// default.
	Liquidity  string   `json:"liquidity,omitempty"`
	BuyTaxPct  *float64 `json:"buy_tax_pct,omitempty"`
	SellTaxPct *float64 `json:"sell_tax_pct,omitempty"`
	// Creator is the creator's address; empty lets the chain pick one.
	Creator string `json:"creator,omitempty"`
	// FeeTier is a Uniswap V3 pool's fee in hundredths of a basis point
	// (100, 500, 3000 or 10000) for venue v3; nil is 3000.
	FeeTier *int64 `json:"fee_tier,omitempty"`
}

// Token is a token created on a local chain.
type Token struct {
	Address string `json:"address"`
	Pool    string `json:"pool"`
}

// ChainNames are the chains the devnet endpoints know.
var ChainNames = append([]string{wire.ChainSolana}, wire.EVMChains...)

// KnownChain reports whether name is a chain the devnet endpoints know.
func KnownChain(name string) bool {
	for _, c := range ChainNames {
		if c == name {
			return true
		}
	}
	return false
}

// Devnets routes every request to the Devnet of its chain, so that each
// chain's local node is plugged in on its own. A known chain with no entry
// answers 400 INVALID_REQUEST naming chain.
type Devnets map[string]Devnet

// Chains merges the chains of every entry.
func (d Devnets) Chains() map[string]ChainEndpoints {
	out := map[string]ChainEndpoints{}
	for _, dn := range d {
		for name, ep := range dn.Chains() {
			out[name] = ep
		}
	}
	return out
}

func (d Devnets) pick(chain string) (Devnet, error) {
	if !KnownChain(chain) {
		return nil, apierr.Invalid("chain", "chain must be one of %s", strings.Join(ChainNames, ", "))
	}
	dn, ok := d[chain]
	if !ok {
		return nil, apierr.Invalid("chain", "chain %s has no local development chain configured", chain)
	}
	return dn, nil
}

// Fund funds through the chain's Devnet.
func (d Devnets) Fund(ctx context.Context, req FundRequest) error {
	dn, err := d.pick(req.Chain)
	if err != nil {
		return err
	}
	return dn.Fund(ctx, req)
}

// CreateToken creates through the chain's Devnet.
func (d Devnets) CreateToken(ctx context.Context, req TokenRequest) (Token, error) {
	dn, err := d.pick(req.Chain)
	if err != nil {
		return Token{}, err
	}
	return dn.CreateToken(ctx, req)
}

// Balance asks the chain's Devnet.
func (d Devnets) Balance(ctx context.Context, chain, address, token string) (string, error) {
	dn, err := d.pick(chain)
	if err != nil {
		return "", err
	}
	return dn.Balance(ctx, chain, address, token)
}
