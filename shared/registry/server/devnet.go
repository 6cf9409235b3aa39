package server

import (
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
	c := strings.ToLower(strings.TrimSpace(s))
	if c == "" {
		return "", apierr.Invalid("chain", "chain is required")
	}
	if !devnet.KnownChain(c) {
		return "", apierr.Invalid("chain", "chain must be one of %s", strings.Join(devnet.ChainNames, ", "))
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
	var req devnet.FundRequest
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
