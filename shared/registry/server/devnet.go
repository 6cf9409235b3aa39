package server

// The devnet routes exist only when the local chains run (devnet.enabled):
// routes registers them only with a Devnet, so in production they are
// unknown paths. They are a convenience for trying the service, funding
// wallets and making tokens on chains whose coins are worth nothing; no
// route here ever touches a public chain.

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/money"
)

// chainField reads and checks the chain of a devnet request.
func chainField(s string) (string, error) {
	// Matched in any case, as the public API matches chain.
	c := strings.ToLower(strings.TrimSpace(s))
	if c == "" {
		return "", apierr.Invalid("chain", "chain is required")
	}
	// The refusal lists the valid chains, so a caller can correct the
	// request without reading the documentation.
	if !devnet.KnownChain(c) {
		return "", apierr.Invalid("chain", "chain must be one of %s", strings.Join(devnet.ChainNames, ", "))
	}
	return c, nil
}

// decimalField checks a positive decimal string in whole units. The number
// of fractional digits is checked by the chain, which knows the decimals.
func decimalField(name, s string) error {
	// Exact parsing even on the local chains: an amount that a float would
	// round could make a test's balance check fail for no visible reason.
	if _, err := money.ParseRat(s); err != nil {
		return apierr.Invalid(name, "%s must be a positive decimal string in whole units: %v", name, err)
	}
	return nil
}

// handleDevnetChains answers GET /admin/v1/devnet: where each local chain
// and its relay answer, so a client or test can talk to them directly.
func (r *Registry) handleDevnetChains(c *gin.Context) {
	envelope.OK(c, http.StatusOK, gin.H{"chains": r.devnet.Chains()})
}

// handleDevnetFund answers POST /admin/v1/devnet/fund: native coin, a
// token, or both, given to an address on a local chain, in whole units.
func (r *Registry) handleDevnetFund(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	var req devnet.FundRequest
	// The string fields in a fixed order, so the first bad one of a
	// request is always the one named.
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
	// The chain is normalised before use, so "Solana" and "solana" reach
	// the same local chain.
	if req.Chain, err = chainField(req.Chain); err != nil {
		envelope.Fail(c, err)
		return
	}
	// amount may be left out only when a token is funded instead; a
	// request that would fund nothing is a mistake worth naming.
	switch {
	case req.Amount == "" && req.Token == "":
		err = apierr.Invalid("amount", "amount is required")
	case req.Amount != "":
		err = decimalField("amount", req.Amount)
	}
	// token and token_amount go together; whichever is missing is named.
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
	// The chain checks what only it knows (the address's shape, a known
	// token, the decimals), and its refusals carry their own field.
	// A change of the chain, once begun, is finished and answered whatever
	// the client does: cut short, it could land with its answer lost.
	if err := r.devnet.Fund(context.WithoutCancel(c.Request.Context()), req); err != nil {
		envelope.Fail(c, err)
		return
	}
	// The answer echoes the request as understood (chain normalised), so
	// a caller sees exactly what was funded.
	envelope.OK(c, http.StatusOK, req)
}

// handleDevnetToken answers POST /admin/v1/devnet/tokens with 201 and the
// new token's address and pool: a token tradable at once on the given
// venue, for trying swaps without a public chain.
func (r *Registry) handleDevnetToken(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	var req devnet.TokenRequest
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
	// liquidity is money (quote-asset units), kept as exact text; the
	// taxes are percentages of a test token, where a float is harmless.
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
	// A V3 pool's fee tier; the chain refuses a tier it does not have, or
	// one given with venue v2, naming fee_tier.
	if req.FeeTier, err = o.posInt("fee_tier", 1_000_000); err != nil {
		envelope.Fail(c, err)
		return
	}
	// Venue, symbol and quote asset are checked by the chain, which
	// knows which venues and quote assets it has.
	tok, err := r.devnet.CreateToken(context.WithoutCancel(c.Request.Context()), req)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusCreated, tok)
}

// handleDevnetBalance answers GET /admin/v1/devnet/balance with the
// balance in whole units as a decimal string; with token, that token's.
func (r *Registry) handleDevnetBalance(c *gin.Context) {
	chain, err := chainField(c.Query("chain"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// The address's shape is the chain's to check; here only that there
	// is one, so the refusal names the field the caller forgot.
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
	// A number's literal is its exact text already; a string is unquoted.
	// Both then meet the same decimal check, which refuses an exponent.
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
	// A float is fine here: a tax is a test token's percentage, not an
	// amount of money, and the local chain rounds it to basis points.
	// A literal whose exponent no percentage needs (1e-999999) is refused
	// before it is read, as every number of the API is.
	var f float64
	if money.CheckNumber(strings.TrimSpace(string(v))) != nil || json.Unmarshal(v, &f) != nil || f < 0 || f > 100 {
		return nil, apierr.Invalid(name, "%s must be a number from 0 to 100", name)
	}
	return &f, nil
}
