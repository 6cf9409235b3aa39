package pumpfun

import (
	"errors"
	"math"
	"testing"

	"github.com/gagliardetto/solana-go"
)

// freshCurve is a SOL-quoted curve at the usual initial reserves.
func freshCurve() BondingCurve {
	return BondingCurve{
		VirtualTokenReserves: 1_073_000_000_000_000,
		VirtualQuoteReserves: 30_000_000_000,
		RealTokenReserves:    793_100_000_000_000,
		TokenTotalSupply:     1_000_000_000_000_000,
		Creator:              key(9),
	}
}

var rates125 = FeeRates{ProtocolFeeBps: 95, CreatorFeeBps: 30}

func TestQuoteBuyExactSolIn(t *testing.T) {
	// Expected figures worked by hand from the program's documented formula.
	c := freshCurve()
	q, err := c.QuoteBuyExactSolIn(rates125, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	want := BuyQuote{TokensOut: 34_199_203_120_618, SolCost: 987_654_319, ProtocolFee: 9_382_717, CreatorFee: 2_962_963, Total: 999_999_999}
	if q != want {
		t.Fatalf("got %+v, want %+v", q, want)
	}
}

func TestQuoteBuy(t *testing.T) {
	c := freshCurve()
	tests := []struct {
		name   string
		curve  BondingCurve
		tokens uint64
		want   BuyQuote
		err    error
	}{
		{"one million tokens", c, 1_000_000_000_000, BuyQuote{1_000_000_000_000, 27_985_075, 265_859, 83_956, 28_334_890, false}, nil},
		{"zero", c, 0, BuyQuote{}, ErrBuyZeroAmount},
		{"complete", func() BondingCurve { c := c; c.Complete = true; return c }(), 1, BuyQuote{}, ErrBondingCurveComplete},
		{"capped at real reserves", func() BondingCurve { c := c; c.RealTokenReserves = 10; return c }(), 1_000, BuyQuote{10, 1, 1, 1, 3, true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := tt.curve.QuoteBuy(rates125, tt.tokens)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if q != tt.want {
				t.Fatalf("got %+v, want %+v", q, tt.want)
			}
		})
	}
}

func TestQuoteSellAfterBuy(t *testing.T) {
	c := freshCurve()
	b, err := c.QuoteBuyExactSolIn(rates125, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	c.ApplyBuy(b)
	if c.VirtualQuoteReserves != 30_987_654_319 || c.RealQuoteReserves != 987_654_319 || c.RealTokenReserves != 793_100_000_000_000-b.TokensOut {
		t.Fatalf("curve after buy: %+v", c)
	}
	s, err := c.QuoteSell(rates125, b.TokensOut)
	if err != nil {
		t.Fatal(err)
	}
	want := SellQuote{TokensIn: b.TokensOut, SolOut: 987_654_318, ProtocolFee: 9_382_717, CreatorFee: 2_962_963, Net: 975_308_638}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
	c.ApplySell(s)
	// Selling everything back leaves the curve at least as rich: rounding
	// always favours the curve.
	if c.RealQuoteReserves != 1 || c.VirtualTokenReserves != 1_073_000_000_000_000 {
		t.Fatalf("curve after sell: %+v", c)
	}
	if _, err := c.QuoteSell(rates125, 0); !errors.Is(err, ErrSellZeroAmount) {
		t.Fatalf("sell zero: %v", err)
	}
	if _, err := c.QuoteSell(rates125, 1_000_000_000_000); !errors.Is(err, ErrNotEnoughTokensToSell) {
		t.Fatalf("sell beyond the real SOL reserves: %v", err)
	}
}

func TestBuyExactSolInNeverOverspends(t *testing.T) {
	for _, r := range []FeeRates{{}, {95, 0}, rates125, {9000, 999}} {
		for _, spend := range []uint64{3, 1000, 12_345_678, 1_000_000_000, 79_000_000_000} {
			c := freshCurve()
			q, err := c.QuoteBuyExactSolIn(r, spend)
			if err != nil {
				if errors.Is(err, ErrBuyNotEnoughSolToCoverFees) || errors.Is(err, ErrBuyZeroAmount) {
					continue
				}
				t.Fatalf("%+v %d: %v", r, spend, err)
			}
			if q.Total > spend {
				t.Fatalf("%+v %d: pays %d", r, spend, q.Total)
			}
			// Buying the quoted tokens with buy costs the same.
			b, err := c.QuoteBuy(r, q.TokensOut)
			if err != nil || b != q {
				t.Fatalf("%+v %d: buy %+v (%v), exact-in %+v", r, spend, b, err, q)
			}
		}
	}
	c := freshCurve()
	if _, err := c.QuoteBuyExactSolIn(rates125, 1); !errors.Is(err, ErrBuyNotEnoughSolToCoverFees) {
		t.Fatalf("1 lamport: %v", err)
	}
	// 100 SOL empties the curve: the buy takes the real reserves left.
	q, err := c.QuoteBuyExactSolIn(rates125, 100_000_000_000)
	if err != nil || q.TokensOut != c.RealTokenReserves || q.Total > 100_000_000_000 {
		t.Fatalf("drain: %+v, %v", q, err)
	}
	c.ApplyBuy(q)
	if !c.Complete {
		t.Fatal("curve not complete after its real tokens ran out")
	}
}

func TestComputeFees(t *testing.T) {
	g := sampleGlobal() // 95 + 30 bps, configurable creator fees on
	fc := sampleFeeConfig()
	base := freshCurve()
	tests := []struct {
		name  string
		fc    *FeeConfig
		curve func(c *BondingCurve)
		want  FeeRates
	}{
		{"no fee config: Global's rates", nil, nil, FeeRates{95, 30}},
		{"first tier below its threshold", &FeeConfig{FeeTiers: []FeeTier{{U128(1 << 62), Fees{0, 7, 8}}, {U128(1 << 63), Fees{0, 1, 1}}}}, nil, FeeRates{7, 8}},
		{"first tier", &fc, nil, FeeRates{95, 30}},
		{"second tier at its threshold", &fc, func(c *BondingCurve) {
			// market cap = vQuote * 1e15 / vTok = 420 SOL exactly
			c.VirtualQuoteReserves, c.VirtualTokenReserves = 420_000_000_000, 1_000_000_000_000_000
		}, FeeRates{90, 25}},
		{"no creator: no creator fee", &fc, func(c *BondingCurve) { c.Creator = solana.PublicKey{} }, FeeRates{95, 0}},
		{"curve's own creator rate", &fc, func(c *BondingCurve) { c.CreatorFeeBps = 77 }, FeeRates{95, 77}},
		{"USDC quote: stable tiers", &fc, func(c *BondingCurve) { c.QuoteMint = USDCMint }, FeeRates{2, 3}},
		{"wSOL quote: SOL tiers", &fc, func(c *BondingCurve) { c.QuoteMint = WrappedSOLMint }, FeeRates{95, 30}},
		{"exotic quote", &fc, func(c *BondingCurve) { c.QuoteMint = key(50) }, FeeRates{5, 6}},
		{"exotic quote, unset: flat fees", &FeeConfig{FlatFees: Fees{1, 2, 3}, FeeTiers: fc.FeeTiers}, func(c *BondingCurve) { c.QuoteMint = key(50) }, FeeRates{2, 3}},
		{"empty tiers: Global's rates", &FeeConfig{}, nil, FeeRates{95, 30}},
		{"mayhem: real supply", &FeeConfig{FeeTiers: []FeeTier{{U128(0), Fees{0, 1, 1}}, {U128(1_000_000_000_000), Fees{0, 2, 2}}}}, func(c *BondingCurve) {
			c.IsMayhemMode = true // supply 2e18 makes the cap 55.9e12 lamports
		}, FeeRates{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			if tt.curve != nil {
				tt.curve(&c)
			}
			if got := ComputeFees(&g, tt.fc, &c, 2_000_000_000_000_000_000); got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	g.CreatorFeeConfigurable = false
	c := base
	c.CreatorFeeBps = 77
	if got := ComputeFees(&g, &fc, &c, 0); got != (FeeRates{95, 30}) {
		t.Fatalf("creator rate without the gate: %+v", got)
	}
}

func TestMarketCap(t *testing.T) {
	c := freshCurve()
	if got := c.MarketCap(DefaultTokenTotalSupply); got != U128(27_958_993_476) {
		t.Fatalf("market cap %s", got)
	}
	c.VirtualQuoteReserves = math.MaxUint64
	c.VirtualTokenReserves = 1
	if got := c.MarketCap(DefaultTokenTotalSupply); got.Hi == 0 {
		t.Fatalf("market cap did not carry into the high word: %s", got)
	}
}

func TestSlippage(t *testing.T) {
	tests := []struct {
		amount, bps, max, min uint64
	}{
		{28_334_890, 500, 29_751_634, 26_918_146},
		{938_271_603, 0, 938_271_603, 938_271_603},
		{1000, 10_000, 2000, 0},
		{1000, 20_000, 3000, 0},
		{math.MaxUint64, 1, math.MaxUint64, math.MaxUint64 - math.MaxUint64/10_000},
	}
	for _, tt := range tests {
		if got := MaxSolCost(tt.amount, tt.bps); got != tt.max {
			t.Errorf("MaxSolCost(%d, %d) = %d, want %d", tt.amount, tt.bps, got, tt.max)
		}
		if got := MinOut(tt.amount, tt.bps); got != tt.min {
			t.Errorf("MinOut(%d, %d) = %d, want %d", tt.amount, tt.bps, got, tt.min)
		}
	}
}

func TestUint128(t *testing.T) {
	v := Uint128{Hi: 3, Lo: 7}
	back, ok := Uint128FromBig(v.Big())
	if !ok || back != v || v.String() != "55340232221128654855" {
		t.Fatalf("round trip %v %v %s", back, ok, v)
	}
	if U128(1).Cmp(Uint128{Hi: 1}) != -1 || (Uint128{Hi: 1}).Cmp(U128(math.MaxUint64)) != 1 || v.Cmp(v) != 0 {
		t.Fatal("Cmp")
	}
}
