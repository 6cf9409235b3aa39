package registry

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/money"
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
	Venue  string `json:"venue"` // pump_fun or pumpswap on Solana, v2 on EVM, as the chain supports
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
}

// Token is a token created on a local chain.
type Token struct {
	Address string `json:"address"`
	Pool    string `json:"pool"`
}

// devnetChains are the chain names the devnet endpoints know.
var devnetChains = append([]string{wire.ChainSolana}, wire.EVMChains...)

func knownChain(name string) bool {
	for _, c := range devnetChains {
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
	if !knownChain(chain) {
		return nil, apierr.Invalid("chain", "chain must be one of %s", strings.Join(devnetChains, ", "))
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

// chainField reads and checks the chain of a devnet request.
func chainField(s string) (string, error) {
	c := strings.ToLower(strings.TrimSpace(s))
	if c == "" {
		return "", apierr.Invalid("chain", "chain is required")
	}
	if !knownChain(c) {
		return "", apierr.Invalid("chain", "chain must be one of %s", strings.Join(devnetChains, ", "))
	}
	return c, nil
}

// decimalField checks a positive decimal string in whole units. The number
// of fractional digits is checked by the chain, which knows the decimals.
func decimalField(name, s string) error {
	if _, err := money.ParseRat(s); err != nil {
		return apierr.Invalid(name, "%s must be a positive decimal string in whole units: %v", name, err)
	}
	return nil
}

func (r *Registry) handleDevnetChains(c *gin.Context) {
	envelope.OK(c, http.StatusOK, gin.H{"chains": r.devnet.Chains()})
}

func (r *Registry) handleDevnetFund(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	var req FundRequest
	for _, f := range []struct {
		name     string
		dst      *string
		required bool
	}{{"chain", &req.Chain, true}, {"address", &req.Address, true}, {"amount", &req.Amount, false},
		{"token", &req.Token, false}, {"token_amount", &req.TokenAmount, false}} {
		if *f.dst, err = o.str(f.name, f.required); err != nil {
			envelope.Fail(c, err)
			return
		}
	}
	if req.Chain, err = chainField(req.Chain); err != nil {
		envelope.Fail(c, err)
		return
	}
	switch {
	case req.Amount == "" && req.Token == "":
		err = apierr.Invalid("amount", "amount is required")
	case req.Amount != "":
		err = decimalField("amount", req.Amount)
	}
	if err == nil && req.Token != "" {
		if req.TokenAmount == "" {
			err = apierr.Invalid("token_amount", "token_amount is required with token")
		} else {
			err = decimalField("token_amount", req.TokenAmount)
		}
	}
	if err == nil && req.Token == "" && req.TokenAmount != "" {
		err = apierr.Invalid("token", "token is required with token_amount")
	}
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	if err := r.devnet.Fund(c.Request.Context(), req); err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, req)
}

func (r *Registry) handleDevnetToken(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	var req TokenRequest
	for _, f := range []struct {
		name     string
		dst      *string
		required bool
	}{{"chain", &req.Chain, true}, {"venue", &req.Venue, true}, {"name", &req.Name, true},
		{"symbol", &req.Symbol, true}, {"quote_asset", &req.QuoteAsset, false}, {"creator", &req.Creator, false}} {
		if *f.dst, err = o.str(f.name, f.required); err != nil {
			envelope.Fail(c, err)
			return
		}
	}
	if req.Chain, err = chainField(req.Chain); err != nil {
		envelope.Fail(c, err)
		return
	}
	if req.Liquidity, err = o.decimalOrNumber("liquidity"); err != nil {
		envelope.Fail(c, err)
		return
	}
	if req.BuyTaxPct, err = o.percent("buy_tax_pct"); err != nil {
		envelope.Fail(c, err)
		return
	}
	if req.SellTaxPct, err = o.percent("sell_tax_pct"); err != nil {
		envelope.Fail(c, err)
		return
	}
	tok, err := r.devnet.CreateToken(c.Request.Context(), req)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusCreated, tok)
}

func (r *Registry) handleDevnetBalance(c *gin.Context) {
	chain, err := chainField(c.Query("chain"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	address := strings.TrimSpace(c.Query("address"))
	if address == "" {
		envelope.Fail(c, apierr.Invalid("address", "address is required"))
		return
	}
	amount, err := r.devnet.Balance(c.Request.Context(), chain, address, strings.TrimSpace(c.Query("token")))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, gin.H{"amount": amount})
}

// decimalOrNumber reads an amount given as a decimal string or a plain JSON
// number, kept as its exact text.
func (o object) decimalOrNumber(name string) (string, error) {
	v, ok := o.get(name)
	if !ok {
		return "", nil
	}
	s := strings.TrimSpace(string(v))
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(v, &s); err != nil {
			return "", apierr.Invalid(name, "%s must be a decimal string", name)
		}
	}
	if err := decimalField(name, s); err != nil {
		return "", err
	}
	return s, nil
}

// percent reads an optional number from 0 to 100.
func (o object) percent(name string) (*float64, error) {
	v, ok := o.get(name)
	if !ok {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || f < 0 || f > 100 {
		return nil, apierr.Invalid(name, "%s must be a number from 0 to 100", name)
	}
	return &f, nil
}
