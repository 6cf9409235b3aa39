package ingress

import (
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/wire"
)

const (
	solMint = "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R"
	solW1   = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
	evmTok  = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
	evmW1   = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
)

// TestLongAmountSaysSo: an amount past the longest decimal string says so,
// not that it is no decimal string.
func TestLongAmountSaysSo(t *testing.T) {
	t.Parallel()
	_, err := decodeSwap([]byte(`{"address":"`+solMint+`","side":"Buy","amount":"`+strings.Repeat("1", 81)+`"}`), wire.FamilySol, 10)
	if err == nil || !strings.Contains(err.Message, "longer than 80 characters") {
		t.Fatalf("%v, want the amount said too long", err)
	}
}

// TestLongArraysRefusedUnread: an array of a request longer than its
// field takes is refused from its first entries past the bound, not read
// whole (32,000 one-byte wallets took 16 ms and 4 MB to count, for a 400);
// auto_orders past 20 are dropped unread.
func TestLongArraysRefusedUnread(t *testing.T) {
	many := "[" + strings.Repeat("1,", 31_999) + "1]"
	for _, tc := range []struct {
		body, details string
	}{
		{`{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":` + many + `}`, "wallets"},
		{`{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":` + strings.Replace(many, "1", `{"type":"dev_sell"}`, 20) + `}`, ""},
	} {
		body := []byte(tc.body)
		var aerr *apierr.Error
		allocs := testing.AllocsPerRun(5, func() { _, aerr = decodeSwap(body, wire.FamilySol, 10) })
		if tc.details != "" && (aerr == nil || aerr.Details != tc.details) {
			t.Fatalf("%.80s...: %v, want INVALID_REQUEST naming %s", tc.body, aerr, tc.details)
		}
		if allocs > 2_000 {
			t.Fatalf("%.80s...: %.0f allocations: the array was read whole", tc.body, allocs)
		}
	}
}

func TestDecodeSwapErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		family  wire.Family
		body    string
		code    apierr.Code
		details string
	}{
		{"not json", wire.FamilySol, `{`, apierr.InvalidRequest, "body"},
		{"array body", wire.FamilySol, `[]`, apierr.InvalidRequest, "body"},
		{"two objects", wire.FamilySol, `{} {}`, apierr.InvalidRequest, "body"},
		{"a field twice", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.001","amount":"0.5"}`, apierr.InvalidRequest, "amount"},
		{"a field twice in another case", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.5","AMOUNT":"0.001"}`, apierr.InvalidRequest, "AMOUNT"},
		{"side twice", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","side":"Buy","amount":"1"}`, apierr.InvalidRequest, "side"},
		{"a wallet's address twice", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"` + solW1 + `","address":"` + solW1 + `"}]}`, apierr.InvalidRequest, "wallets[0].address"},
		{"missing address", wire.FamilySol, `{"side":"Buy","amount":"1"}`, apierr.InvalidRequest, "address"},
		{"address number", wire.FamilySol, `{"address":5,"side":"Buy","amount":"1"}`, apierr.InvalidRequest, "address"},
		{"bad sol address", wire.FamilySol, `{"address":"0xabc","side":"Buy","amount":"1"}`, apierr.InvalidRequest, "address"},
		{"bad evm address", wire.FamilyEVM, `{"address":"` + solMint + `","side":"Buy","amount":"1"}`, apierr.InvalidRequest, "address"},
		{"evm address off its checksum", wire.FamilyEVM, `{"address":"0x6b175474E89094C44Da98b954EedeAC495271d0F","side":"Buy","amount":"1"}`, apierr.InvalidRequest, "address"},
		{"evm wallet off its checksum", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","wallets":[{"address":"0x71c7656EC7ab88b098defB751B7401B5f6d8976F"}]}`, apierr.InvalidRequest, "wallets[0].address"},
		{"missing side", wire.FamilySol, `{"address":"` + solMint + `","amount":"1"}`, apierr.InvalidRequest, "side"},
		{"lowercase side", wire.FamilySol, `{"address":"` + solMint + `","side":"buy","amount":"1"}`, apierr.InvalidRequest, "side"},
		{"no amount", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy"}`, apierr.InvalidRequest, "amount"},
		{"amount number", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":1}`, apierr.InvalidRequest, "amount"},
		{"amount exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1e3"}`, apierr.InvalidRequest, "amount"},
		{"amount negative", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"-1"}`, apierr.InvalidRequest, "amount"},
		{"amount zero", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0"}`, apierr.InvalidRequest, "amount"},
		{"amount too long", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"` + strings.Repeat("1", 81) + `"}`, apierr.InvalidRequest, "amount"},
		{"amount too precise", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.0000000001"}`, apierr.InvalidRequest, "amount"},
		{"usdc too precise", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.0000001","quote_asset":"usdc"}`, apierr.InvalidRequest, "amount"},
		{"empty wallets", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[]}`, apierr.NoWallets, ""},
		{"wallets object", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":{}}`, apierr.InvalidRequest, "wallets"},
		{"wallet no address", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{}]}`, apierr.InvalidRequest, "wallets[0].address"},
		{"wallet bad amount", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","wallets":[{"address":"` + solW1 + `","amount":"x"}]}`, apierr.InvalidRequest, "wallets[0].amount"},
		{"wallet needs amount", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","wallets":[{"address":"` + solW1 + `"}]}`, apierr.InvalidRequest, "wallets[0].amount"},
		{"wallet repeated", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"` + solW1 + `"},{"address":"` + solW1 + `"}]}`, apierr.InvalidRequest, "wallets[1].address"},
		{"sell percent above 100", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"100.5"}`, apierr.InvalidRequest, "amount"},
		{"sell percent below 1", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"0.5"}`, apierr.InvalidRequest, "amount"},
		{"bad sell mode", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"5","sell_mode":"all"}`, apierr.InvalidRequest, "sell_mode"},
		{"bad sell mode on a buy", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"5","sell_mode":"all"}`, apierr.InvalidRequest, "sell_mode"},
		{"sell mode number on a buy", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"5","sell_mode":1}`, apierr.InvalidRequest, "sell_mode"},
		{"evm tokens mode", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Sell","amount":"5","sell_mode":"tokens"}`, apierr.InvalidRequest, "sell_mode"},
		{"bad chain", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","chain":"polygon"}`, apierr.InvalidRequest, "chain"},
		{"chain number", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","chain":1}`, apierr.InvalidRequest, "chain"},
		{"sol quote unsupported", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","quote_asset":"USDT"}`, apierr.InvalidRequest, "quote_asset"},
		{"base quote unsupported", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","chain":"base","quote_asset":"USDT"}`, apierr.InvalidRequest, "quote_asset"},
		{"arc native only", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","chain":"arc","quote_asset":"ETH"}`, apierr.InvalidRequest, "quote_asset"},
		{"an EVM wallet on the Solana host", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"0x1a932a9d4338AC8C40Ae09F7AdeE046EAFF0f986"}]}`, apierr.WalletNotOwned, "0x1a932a9d4338AC8C40Ae09F7AdeE046EAFF0f986"},
		{"a Solana wallet on the EVM host", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","wallets":[{"address":"` + solMint + `"}]}`, apierr.WalletNotOwned, solMint},
		{"empty sol quote", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","quote_asset":""}`, apierr.InvalidRequest, "quote_asset"},
		{"empty evm quote", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","quote_asset":""}`, apierr.InvalidRequest, "quote_asset"},
		{"unknown evm quote", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","quote_asset":"DOGE"}`, apierr.InvalidRequest, "quote_asset"},
		{"slippage string", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":"10"}`, apierr.InvalidRequest, "slippage"},
		{"slippage range", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":101}`, apierr.InvalidRequest, "slippage"},
		{"slippage a hair over 100", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":100.00000000000000001}`, apierr.InvalidRequest, "slippage"},
		{"min above max by a hair", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","min_liquidity_usd":5.000000000000000001,"max_liquidity_usd":5}`, apierr.InvalidRequest, "min_liquidity_usd"},
		{"min above a fractional max by a hair", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","min_liquidity_usd":5.1000000000000000001,"max_liquidity_usd":5.1}`, apierr.InvalidRequest, "min_liquidity_usd"},
		{"min above max past 2^52", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","min_market_cap_usd":9007199254740995,"max_market_cap_usd":9007199254740994.5}`, apierr.InvalidRequest, "min_market_cap_usd"},
		{"negative fee", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":-0.1}`, apierr.InvalidRequest, "priority_fee"},
		{"huge fee", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":1e400}`, apierr.InvalidRequest, "priority_fee"},
		{"tip string", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","processor_tip":"0.1"}`, apierr.InvalidRequest, "processor_tip"},
		{"auto_tip string", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_tip":"yes"}`, apierr.InvalidRequest, "auto_tip"},
		{"anti_mev number", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","anti_mev":1}`, apierr.InvalidRequest, "anti_mev"},
		{"skip string", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","skip_if_bought":"true"}`, apierr.InvalidRequest, "skip_if_bought"},
		{"skip string on a sell", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"1","skip_if_bought":"x"}`, apierr.InvalidRequest, "skip_if_bought"},
		{"max_tax range", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":150}`, apierr.InvalidRequest, "max_tax"},
		{"max_tax a hair over 100", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":100.00000000000000001}`, apierr.InvalidRequest, "max_tax"},
		{"max_tax negative", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":-1}`, apierr.InvalidRequest, "max_tax"},
		{"liquidity inverted", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","min_liquidity_usd":10,"max_liquidity_usd":5}`, apierr.InvalidRequest, "min_liquidity_usd"},
		{"mcap negative", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","max_market_cap_usd":-5}`, apierr.InvalidRequest, "max_market_cap_usd"},
		{"auto_orders object", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":{}}`, apierr.InvalidRequest, "auto_orders"},
		{"auto_orders bad type", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"moon"}]}`, apierr.InvalidRequest, "auto_orders[0].type"},
		{"auto_orders no trigger", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"take_profit"}]}`, apierr.InvalidRequest, "auto_orders[0].trigger_pct"},
		{"auto_orders time float", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"time","after_seconds":1.5}]}`, apierr.InvalidRequest, "auto_orders[0].after_seconds"},
		{"auto_orders sell_pct", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"dev_sell","sell_pct":0}]}`, apierr.InvalidRequest, "auto_orders[0].sell_pct"},
		{"auto_orders after 30 days", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"dev_sell"},{"type":"time","after_seconds":2592001}]}`, apierr.InvalidRequest, "auto_orders[1].after_seconds"},
		{"auto_orders after int64", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"time","after_seconds":9223372036854775807}]}`, apierr.InvalidRequest, "auto_orders[0].after_seconds"},
		{"trigger beyond the field", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"take_profit","trigger_pct":1e300}]}`, apierr.InvalidRequest, "auto_orders[0].trigger_pct"},
		{"slippage tiny exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":1e-999999}`, apierr.InvalidRequest, "slippage"},
		{"slippage long digits", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":0.` + strings.Repeat("1", 70) + `}`, apierr.InvalidRequest, "slippage"},
		{"fee tiny exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":1e-999999}`, apierr.InvalidRequest, "priority_fee"},
		{"fee huge exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":1e400}`, apierr.InvalidRequest, "priority_fee"},
		{"tip tiny exponent", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","processor_tip":1e-999999}`, apierr.InvalidRequest, "processor_tip"},
		{"max_tax tiny exponent", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":1e-999999}`, apierr.InvalidRequest, "max_tax"},
		{"liquidity huge exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","min_liquidity_usd":1e400}`, apierr.InvalidRequest, "min_liquidity_usd"},
		{"liquidity beyond the field", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","max_liquidity_usd":1e300}`, apierr.InvalidRequest, "max_liquidity_usd"},
		{"mcap tiny exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","max_market_cap_usd":1e-999999}`, apierr.InvalidRequest, "max_market_cap_usd"},
		{"mcap long digits", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","min_market_cap_usd":` + strings.Repeat("9", 65) + `}`, apierr.InvalidRequest, "min_market_cap_usd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeSwap([]byte(tt.body), tt.family, 10)
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Code != tt.code || err.Details != tt.details {
				t.Fatalf("got %s details %q (%s), want %s details %q", err.Code, err.Details, err.Message, tt.code, tt.details)
			}
			if err.Status() >= 500 {
				t.Fatalf("status %d", err.Status())
			}
		})
	}
}

func TestDecodeSwapAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		family wire.Family
		body   string
		check  func(t *testing.T, r *swapRequest)
	}{
		{"defaults", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.5"}`, func(t *testing.T, r *swapRequest) {
			j := r.job
			if j.Chain != "solana" || j.QuoteAsset != "SOL" || j.SlippageBps != 1000 || r.wallets != nil || r.autoOrdersSet {
				t.Fatalf("job %+v", j)
			}
		}},
		{"evm address in one case or checksummed", wire.FamilyEVM, `{"address":"0x6b175474e89094c44da98b954eedeac495271d0f","side":"Buy","amount":"1","wallets":[{"address":"0X71C7656EC7AB88B098DEFB751B7401B5F6D8976F"},{"address":"0x1a932a9d4338AC8C40Ae09F7AdeE046EAFF0f986"}]}`, func(t *testing.T, r *swapRequest) {
			if !strings.EqualFold(r.job.Token, evmTok) || len(r.wallets) != 2 {
				t.Fatalf("token %s, wallets %v", r.job.Token, r.wallets)
			}
		}},
		{"fees exact", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"0.5","priority_fee":0.0001,"processor_tip":1e-05,"slippage":0.5}`, func(t *testing.T, r *swapRequest) {
			if r.job.PriorityFee != "100000" || r.job.ProcessorTip != "10000" || r.job.SlippageBps != 50 {
				t.Fatalf("fee %s tip %s slip %d", r.job.PriorityFee, r.job.ProcessorTip, r.job.SlippageBps)
			}
		}},
		{"slippage between two basis points is the one below", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","slippage":0.295}`, func(t *testing.T, r *swapRequest) {
			if r.job.SlippageBps != 29 {
				t.Fatalf("slippage 0.295%% is %d bps, want 29: never more lenient than asked", r.job.SlippageBps)
			}
		}},
		{"slippage under a basis point is none", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":0.005}`, func(t *testing.T, r *swapRequest) {
			if r.job.SlippageBps != 0 {
				t.Fatalf("slippage 0.005%% is %d bps, want 0", r.job.SlippageBps)
			}
		}},
		{"slippage exactly in basis points", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","slippage":0.29}`, func(t *testing.T, r *swapRequest) {
			if r.job.SlippageBps != 29 {
				t.Fatalf("slippage 0.29%% is %d bps, want 29", r.job.SlippageBps)
			}
		}},
		{"slippage omitted is the default", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1"}`, func(t *testing.T, r *swapRequest) {
			if r.job.SlippageBps != 1000 {
				t.Fatalf("default slippage is %d bps, want 1000", r.job.SlippageBps)
			}
		}},
		{"bounds apart by less than a float tells, past 2^52", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","min_market_cap_usd":9007199254740994.5,"max_market_cap_usd":9007199254740995}`, func(t *testing.T, r *swapRequest) {
			if r.job.MinMarketCapUSD == nil || r.job.MaxMarketCapUSD == nil {
				t.Fatalf("job %+v", r.job)
			}
		}},
		{"evm chain case", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","chain":"BSC","quote_asset":"usd1","max_tax":0}`, func(t *testing.T, r *swapRequest) {
			if r.job.Chain != "bsc" || r.job.QuoteAsset != "USD1" || r.job.MaxTaxBps == nil || *r.job.MaxTaxBps != 0 {
				t.Fatalf("job %+v", r.job)
			}
		}},
		// A cap between two whole basis points is the one below it: a tax of
		// 5 % measured as 500 bps is above 4.995.
		{"max_tax between basis points", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":4.995}`, func(t *testing.T, r *swapRequest) {
			if r.job.MaxTaxBps == nil {
				t.Fatal("max_tax 4.995 dropped")
			}
			if *r.job.MaxTaxBps != 499 {
				t.Fatalf("max_tax 4.995 is %d bps, want 499", *r.job.MaxTaxBps)
			}
		}},
		{"max_tax a hair under a basis point", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":4.99999999}`, func(t *testing.T, r *swapRequest) {
			if r.job.MaxTaxBps == nil {
				t.Fatal("max_tax 4.99999999 dropped")
			}
			if *r.job.MaxTaxBps != 499 {
				t.Fatalf("max_tax 4.99999999 is %d bps, want 499", *r.job.MaxTaxBps)
			}
		}},
		{"max_tax on a basis point", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","max_tax":4.99}`, func(t *testing.T, r *swapRequest) {
			if r.job.MaxTaxBps == nil {
				t.Fatal("max_tax 4.99 dropped")
			}
			if *r.job.MaxTaxBps != 499 {
				t.Fatalf("max_tax 4.99 is %d bps, want 499", *r.job.MaxTaxBps)
			}
		}},
		{"field names in another case", wire.FamilyEVM, `{"ADDRESS":"` + evmTok + `","Side":"Buy","Amount":"1","CHAIN":"bsc","MAX_TAX":0,"wallets":[{"Address":"0x71C7656EC7ab88b098defB751B7401B5f6d8976F","AMOUNT":"2"}]}`, func(t *testing.T, r *swapRequest) {
			if r.job.Chain != "bsc" || r.job.MaxTaxBps == nil || *r.job.MaxTaxBps != 0 || len(r.wallets) != 1 || r.wallets[0].amount != "2" {
				t.Fatalf("job %+v, wallets %+v", r.job, r.wallets)
			}
		}},
		{"negative zero is zero", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":-0,"processor_tip":-0.0e3,"slippage":-0,"max_liquidity_usd":-0}`, func(t *testing.T, r *swapRequest) {
			if r.job.PriorityFee != "0" || r.job.ProcessorTip != "0" || r.job.SlippageBps != 0 || math.Signbit(*r.job.MaxLiquidityUSD) {
				t.Fatalf("job %+v", r.job)
			}
		}},
		{"evm gwei", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","priority_fee":1.5,"processor_tip":0.01}`, func(t *testing.T, r *swapRequest) {
			if r.job.PriorityFee != "1500000000" || r.job.ProcessorTip != "10000000000000000" || r.job.Chain != "" {
				t.Fatalf("job %+v", r.job)
			}
		}},
		{"sol ignores evm fields", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","chain":"nope","max_tax":500,"extra":{"x":1}}`, func(t *testing.T, r *swapRequest) {
			if r.job.MaxTaxBps != nil {
				t.Fatal("max_tax kept on Solana")
			}
		}},
		{"sell tokens", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"123.456","sell_mode":"tokens"}`, func(t *testing.T, r *swapRequest) {
			if r.job.SellMode != wire.SellTokens {
				t.Fatal(r.job.SellMode)
			}
		}},
		{"sell percent fractional", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"33.333"}`, func(t *testing.T, r *swapRequest) {
			if r.job.SellMode != wire.SellPercent {
				t.Fatal(r.job.SellMode)
			}
		}},
		{"buy ignores sell_mode", wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","sell_mode":"tokens"}`, nil},
		{"sell ignores skip_if_bought", wire.FamilySol, `{"address":"` + solMint + `","side":"Sell","amount":"50","skip_if_bought":true}`, func(t *testing.T, r *swapRequest) {
			if r.job.SkipIfBought {
				t.Fatal("a sell took skip_if_bought")
			}
		}},
		{"wallet fallback amount", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"` + solW1 + `"}]}`, func(t *testing.T, r *swapRequest) {
			if len(r.wallets) != 1 || r.wallets[0].amount != "" || r.amount != "1" {
				t.Fatalf("%+v", r.wallets)
			}
		}},
		{"auto orders capped", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[` + strings.Repeat(`{"type":"dev_sell"},`, 24) + `{"type":"bogus"}]}`, func(t *testing.T, r *swapRequest) {
			if len(r.job.AutoOrders) != 20 || !r.autoOrdersSet {
				t.Fatal(len(r.job.AutoOrders))
			}
		}},
		{"auto orders empty", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[]}`, func(t *testing.T, r *swapRequest) {
			if r.job.AutoOrders == nil || len(r.job.AutoOrders) != 0 || !r.autoOrdersSet {
				t.Fatal("empty array must mean no auto-orders")
			}
		}},
		{"auto_tip ignores the fee fields", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_tip":true,"priority_fee":"fast","processor_tip":1e400}`, func(t *testing.T, r *swapRequest) {
			if !r.job.AutoTip || r.job.PriorityFee != "" || r.job.ProcessorTip != "0" {
				t.Fatalf("auto_tip %v fee %s tip %s", r.job.AutoTip, r.job.PriorityFee, r.job.ProcessorTip)
			}
		}},
		{"tiny plain fee rounds up", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","priority_fee":0.0000000005,"processor_tip":1e-64}`, func(t *testing.T, r *swapRequest) {
			if r.job.PriorityFee != "1" || r.job.ProcessorTip != "1" {
				t.Fatalf("fee %s tip %s", r.job.PriorityFee, r.job.ProcessorTip)
			}
		}},
		{"time exit written with an exponent", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"time","after_seconds":1e3}]}`, func(t *testing.T, r *swapRequest) {
			if a := r.job.AutoOrders[0].AfterSeconds; a == nil || *a != 1000 {
				t.Fatalf("after_seconds %v", a)
			}
		}},
		{"time exit of 30 days", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":[{"type":"time","after_seconds":2592000}]}`, func(t *testing.T, r *swapRequest) {
			if a := r.job.AutoOrders[0].AfterSeconds; a == nil || *a != 2592000 {
				t.Fatalf("after_seconds %v", a)
			}
		}},
		{"auto orders null", wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","auto_orders":null,"wallets":null}`, func(t *testing.T, r *swapRequest) {
			if r.autoOrdersSet || r.wallets != nil {
				t.Fatal("null must mean the saved strategy and spot wallets")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := decodeSwap([]byte(tt.body), tt.family, 10)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

// numberFields are the request's number fields with a body that holds lit
// in each, for the tests of number bounds.
var numberFields = []struct {
	field  string
	family wire.Family
	body   func(lit string) string
}{
	{"slippage", wire.FamilySol, func(l string) string { return swapWith(solMint, `"slippage":`+l) }},
	{"priority_fee", wire.FamilySol, func(l string) string { return swapWith(solMint, `"priority_fee":`+l) }},
	{"processor_tip", wire.FamilySol, func(l string) string { return swapWith(solMint, `"processor_tip":`+l) }},
	{"max_tax", wire.FamilyEVM, func(l string) string { return swapWith(evmTok, `"max_tax":`+l) }},
	{"min_liquidity_usd", wire.FamilySol, func(l string) string { return swapWith(solMint, `"min_liquidity_usd":`+l) }},
	{"max_liquidity_usd", wire.FamilySol, func(l string) string { return swapWith(solMint, `"max_liquidity_usd":`+l) }},
	{"min_market_cap_usd", wire.FamilySol, func(l string) string { return swapWith(solMint, `"min_market_cap_usd":`+l) }},
	{"max_market_cap_usd", wire.FamilyEVM, func(l string) string { return swapWith(evmTok, `"max_market_cap_usd":`+l) }},
	{"auto_orders[0].trigger_pct", wire.FamilySol, func(l string) string {
		return swapWith(solMint, `"auto_orders":[{"type":"stop_loss","trigger_pct":`+l+`}]`)
	}},
	{"auto_orders[0].sell_pct", wire.FamilySol, func(l string) string {
		return swapWith(solMint, `"auto_orders":[{"type":"dev_sell","sell_pct":`+l+`}]`)
	}},
	{"auto_orders[0].after_seconds", wire.FamilySol, func(l string) string {
		return swapWith(solMint, `"auto_orders":[{"type":"time","after_seconds":`+l+`}]`)
	}},
}

// swapWith is a valid buy of token with extra fields.
func swapWith(token, extra string) string {
	return `{"address":"` + token + `","side":"Buy","amount":"1",` + extra + `}`
}

// TestNumberBounds: in every number field, a literal whose exponent or
// length is beyond what the field can hold is 400 naming the field, and
// refusing it costs no more memory than reading a plain number there does,
// give or take slack for the error it builds and for the race detector's
// dropped pools. Parsing 1e-999999 exactly would allocate the
// million-digit number it spells, some 400 KiB.
func TestNumberBounds(t *testing.T) {
	const slack = 16 << 10
	for _, nf := range numberFields {
		plain := nf.body("5")
		if _, err := decodeSwap([]byte(plain), nf.family, 10); err != nil {
			t.Fatalf("%s: the plain body is refused: %v", nf.field, err)
		}
		plainBytes := bytesPerRun(20, func() { _, _ = decodeSwap([]byte(plain), nf.family, 10) })
		for _, lit := range []string{"1e-999999", "1e400", "1e999999", "-1e-999999", "0." + strings.Repeat("0", 70) + "1"} {
			t.Run(nf.field+"="+lit[:min(len(lit), 12)], func(t *testing.T) {
				body := []byte(nf.body(lit))
				_, err := decodeSwap(body, nf.family, 10)
				if err == nil || err.Code != apierr.InvalidRequest || err.Status() != 400 || err.Details != nf.field {
					t.Fatalf("got %v, want 400 INVALID_REQUEST naming %s", err, nf.field)
				}
				if n := bytesPerRun(20, func() { _, _ = decodeSwap(body, nf.family, 10) }); n > plainBytes+slack {
					t.Fatalf("refusing %s allocates %d bytes a run, reading 5 %d", lit, n, plainBytes)
				}
			})
		}
	}
}

// bytesPerRun is the heap f allocates per call, averaged over runs.
func bytesPerRun(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// BenchmarkDecodeSwapNumbers decodes a swap whose priority_fee is a plain
// number and one whose priority_fee spells a huge number: they cost about
// the same.
func BenchmarkDecodeSwapNumbers(b *testing.B) {
	for _, lit := range []string{"0.5", "1e-999999", "1e999999"} {
		body := []byte(swapWith(solMint, `"priority_fee":`+lit))
		b.Run("priority_fee="+lit, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = decodeSwap(body, wire.FamilySol, 10)
			}
		})
	}
}

// TestFaultsNamedByTheirPath: a field inside an object is named by its
// path in the message as in details, and a wallet of the other family
// reads as English.
func TestFaultsNamedByTheirPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		family wire.Family
		body   string
		want   string
	}{
		{wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","wallets":[{"address":"` + solW1 + `","amount":1}]}`, "wallets[0].amount must be a string"},
		{wire.FamilySol, `{"address":"` + solMint + `","side":"Buy","amount":"1","wallets":[{"address":"0x1a932a9d4338AC8C40Ae09F7AdeE046EAFF0f986"}]}`,
			"wallets[0].address is an EVM address, not a Solana wallet of this account"},
		{wire.FamilyEVM, `{"address":"` + evmTok + `","side":"Buy","amount":"1","wallets":[{"address":"` + solW1 + `"}]}`,
			"wallets[0].address is a Solana address, not an EVM wallet of this account"},
	} {
		_, err := decodeSwap([]byte(tc.body), tc.family, 10)
		if err == nil || err.Message != tc.want {
			t.Errorf("%s: %v, want %q", tc.body, err, tc.want)
		}
	}
}

// TestWholeOutOfRange: a whole number too large for its field says so,
// not that it is no whole number.
func TestWholeOutOfRange(t *testing.T) {
	t.Parallel()
	f := fields{"n": json.RawMessage("1000000000000000000000"), "m": json.RawMessage("1.5")}
	if _, _, err := f.whole("n", 64, "n must be a whole number of lamports"); err == nil ||
		err.Message != "n is above 18446744073709551615, the most it can hold" || err.Details != "n" {
		t.Fatalf("too large: %v", err)
	}
	if _, _, err := f.whole("m", 64, "m must be a whole number of lamports"); err == nil || err.Message != "m must be a whole number of lamports" {
		t.Fatalf("a fraction: %v", err)
	}
}

// TestBodyWithByteOrderMark: a JSON body that begins with a UTF-8 byte
// order mark is read as the JSON after it (RFC 8259 lets a parser ignore
// it; some clients' encoders write one), not refused as no JSON object.
func TestBodyWithByteOrderMark(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	boughtBefore(t, h)
	a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", "\ufeff"+skipBody)
	if a.status != 200 {
		t.Fatalf("a body after a byte order mark: %d %s", a.status, a.raw)
	}
}
