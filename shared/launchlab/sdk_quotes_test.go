package launchlab

import (
	"testing"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
)

// testdata/sdk/quotes.json holds what @raydium-io/raydium-sdk-v2
// 0.2.73-alpha's own curve math gives for a set of pools (generate.mjs,
// beside it, says which function gives which amount and how the pools are
// made). The instruction fixtures pin encodings; these pin amounts:
// TestSDKQuotes runs this package's quote functions on the same pools and
// requires the same virtual reserves, amounts in and out and fees, case by
// case.

type sdkQuotes struct {
	SDK     string             `json:"sdk"`
	Version string             `json:"version"`
	Pools   map[string]sdkPool `json:"pools"`
	Cases   []sdkQuoteCase     `json:"cases"`
}

type sdkPool struct {
	VirtualA, VirtualB, RealA, RealB, TotalSellA, TotalFundRaisingB string
	ProtocolFeeRate, PlatformFeeRate, CreatorFeeRate, ShareFeeRate  string
}

// state is the pool and its rates as the SDK's fixture gives them.
func (sp sdkPool) state(t *testing.T) (PoolState, Rates) {
	t.Helper()
	p := PoolState{Status: StatusFund, Supply: LetsBonkSupply, VirtualBase: num(t, sp.VirtualA), VirtualQuote: num(t, sp.VirtualB),
		RealBase: num(t, sp.RealA), RealQuote: num(t, sp.RealB), TotalBaseSell: num(t, sp.TotalSellA),
		TotalQuoteFundRaising: num(t, sp.TotalFundRaisingB)}
	r := Rates{Protocol: num(t, sp.ProtocolFeeRate), Platform: num(t, sp.PlatformFeeRate), Creator: num(t, sp.CreatorFeeRate),
		Share: num(t, sp.ShareFeeRate)}
	return p, r
}

type sdkQuoteCase struct {
	Name string `json:"name"`
	Pool string `json:"pool"`
	Op   string `json:"op"` // init, buy, sell
	// init
	Supply, TotalSell, TotalFundRaising, TotalLocked, MigrateFee, VirtualA, VirtualB string
	// buy and sell
	Amount    string `json:"amount"`
	AmountOut string `json:"amountOut"`
	AmountIn  string `json:"amountIn"` // buy: the quote paid
	Fees      struct {
		Protocol, Platform, Creator, Share string
	} `json:"fees"`
}

// num parses a fixture's decimal u64.
var num = anchortest.Num

func TestSDKQuotes(t *testing.T) {
	var f sdkQuotes
	anchortest.Quotes(t, "@raydium-io/raydium-sdk-v2", "0.2.73-alpha", &f)
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Op == "init" {
				va, vb, err := InitialVirtualReserves(num(t, c.Supply), num(t, c.TotalSell), num(t, c.TotalFundRaising),
					num(t, c.TotalLocked), num(t, c.MigrateFee))
				if err != nil {
					t.Fatal(err)
				}
				if va != num(t, c.VirtualA) || vb != num(t, c.VirtualB) {
					t.Errorf("virtual reserves %d/%d, SDK %s/%s", va, vb, c.VirtualA, c.VirtualB)
				}
				return
			}
			sp, ok := f.Pools[c.Pool]
			if !ok {
				t.Fatalf("no pool %q", c.Pool)
			}
			p, r := sp.state(t)
			fees := Fees{Protocol: num(t, c.Fees.Protocol), Platform: num(t, c.Fees.Platform), Creator: num(t, c.Fees.Creator),
				Share: num(t, c.Fees.Share)}
			fees.Total = fees.Protocol + fees.Platform + fees.Creator + fees.Share
			amount := num(t, c.Amount)
			switch c.Op {
			case "buy":
				q, err := QuoteBuyExactIn(&p, r, amount)
				if err != nil {
					t.Fatal(err)
				}
				in := num(t, c.AmountIn)
				want := BuyQuote{AmountIn: in, Fees: fees, NetIn: in - fees.Total, AmountOut: num(t, c.AmountOut),
					Completes: num(t, c.AmountOut) == p.TotalBaseSell-p.RealBase}
				compareSplit(t, &q.Fees, want.Fees)
				if q != want {
					t.Errorf("buy %d:\n got %+v\n SDK %+v", amount, q, want)
				}
			case "sell":
				q, err := QuoteSellExactIn(&p, r, amount)
				if err != nil {
					t.Fatal(err)
				}
				out := num(t, c.AmountOut)
				want := SellQuote{AmountIn: amount, GrossOut: out + fees.Total, Fees: fees, NetOut: out}
				compareSplit(t, &q.Fees, want.Fees)
				if q != want {
					t.Errorf("sell %d:\n got %+v\n SDK %+v", amount, q, want)
				}
			default:
				t.Fatalf("op %q", c.Op)
			}
		})
	}
}

// compareSplit checks how got splits the same total fee as the SDK's
// splitFee, which takes the platform, creator and share parts as shares of
// the total fee (floor(total*rate/totalRate)), the protocol the rest.
// feesOn takes them as shares of the amount (floor(amount*rate/1e6)), which
// can come one unit lower each, the protocol taking the difference. Nothing
// the trader pays or gets depends on it: the total and every amount in and
// out are compared exactly. It is an open difference (reported, not
// decided: the program's source is not public, and the one public mainnet
// trade this package replays, TestMainnetTrade, splits without a remainder
// either way); this checks it is no more than that, then sets got's split
// to the SDK's so the whole quote compares.
func compareSplit(t *testing.T, got *Fees, sdk Fees) {
	t.Helper()
	if got.Total != sdk.Total {
		return // the whole-quote comparison reports it
	}
	for _, p := range []struct {
		name     string
		got, sdk uint64
	}{{"platform", got.Platform, sdk.Platform}, {"creator", got.Creator, sdk.Creator}, {"share", got.Share, sdk.Share}} {
		if p.got != p.sdk && p.got+1 != p.sdk {
			t.Errorf("%s fee %d, SDK %d", p.name, p.got, p.sdk)
		}
	}
	if *got != sdk {
		t.Logf("fee split %+v, SDK %+v", *got, sdk)
		*got = sdk
	}
}
