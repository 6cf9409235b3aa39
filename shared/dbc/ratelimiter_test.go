package dbc

import (
	"testing"

	"github.com/gagliardetto/solana-go"
)

// rateLimited is the bags config with a rate limiter of cliff 1 %, 100 bps
// more per SOL above the first, for 60 s after activation.
func rateLimited() PoolConfig {
	c := LocalBagsConfig(solana.SysVarClockPubkey, solana.SysVarRentPubkey)
	c.BaseFee = BaseFeeConfig{CliffFeeNumerator: 10_000_000, FirstFactor: 100, SecondFactor: 60, ThirdFactor: 1_000_000_000, BaseFeeMode: BaseFeeRateLimiter}
	return c
}

// The figures follow the program's formula by hand: with x0 = 1e9,
// c = 1e7, i = 1e7 (100 bps) and cap 99 % the cap is reached at step
// (99e7-1e7)/1e7 = 98. An input of x0+a·x0+r pays
// x0·(c+c·a+i·a(a+1)/2) + r·(c+i(a+1)) numerator units; the fee is that
// over 1e9 rounded up, the numerator the fee·1e9 over the input rounded up.
func TestRateLimiterFeeNumerator(t *testing.T) {
	c := rateLimited()
	for _, tc := range []struct {
		name   string
		amount uint64
		want   uint64
		bps    uint64 // the program's own tests, numerator in whole bps
	}{
		{"zero", 0, 10_000_000, 100},
		{"the reference amount", 1_000_000_000, 10_000_000, 100},
		// 1e16 + 1·2e7 units: a fee of ceil(10_000_000.02) = 10_000_001,
		// ceil(10_000_001e9 / 1_000_000_001) = 10_000_001.
		{"one unit above", 1_000_000_001, 10_000_001, 100},
		// 1e16 + 5e8·2e7 = 2e16: fee 2e7, ceil(2e16 / 1.5e9) = 13_333_334.
		{"1.5 reference amounts", 1_500_000_000, 13_333_334, 133},
		// a = 1: 1e9·(1e7+1e7+1e7) = 3e16: fee 3e7 over 2e9.
		{"2 reference amounts", 2_000_000_000, 15_000_000, 150},
		{"3 reference amounts", 3_000_000_000, 20_000_000, 200},
		{"4 reference amounts", 4_000_000_000, 25_000_000, 250},
		// a = 98, the cap's step: 1e9·(1e7+98e7+1e7·4851) = 4.95e19
		// units, a fee of 4.95e10 over 99e9.
		{"at the cap's step", 99_000_000_000, 500_000_000, 5000},
		// a = 99: one more reference amount at 99 %: 4.95e19 + 9.9e17.
		{"one step past the cap", 100_000_000_000, 504_900_000, 5049},
		// 4.95e19 + (18_446_743_974·1e9 + 709_551_615)·99e7 units.
		{"u64 max", ^uint64(0), 989_999_998, 9899},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rateLimiterFeeNumerator(&c.BaseFee, tc.amount)
			if err != nil || got != tc.want || got*10_000/FeeDenominator != tc.bps {
				t.Fatalf("numerator %d (%v), want %d (%d bps)", got, err, tc.want, tc.bps)
			}
		})
	}
	bad := c.BaseFee
	bad.FirstFactor = 0
	if _, err := rateLimiterFeeNumerator(&bad, 2_000_000_000); err != ErrMathOverflow {
		t.Fatalf("no increment: %v", err)
	}
	bad = c.BaseFee
	bad.ThirdFactor = 0
	if _, err := rateLimiterFeeNumerator(&bad, 2_000_000_000); err != ErrMathOverflow {
		t.Fatalf("no reference amount: %v", err)
	}
}

func TestRateLimiterApplies(t *testing.T) {
	c := rateLimited()
	p := freshPool(&c) // activated at 1000
	zero := c
	zero.BaseFee.FirstFactor, zero.BaseFee.SecondFactor, zero.BaseFee.ThirdFactor = 0, 0, 0
	firstMin := LocalBagsConfig(solana.SysVarClockPubkey, solana.SysVarRentPubkey)
	firstMin.EnableFirstSwapWithMinFee = 1
	scheduled := LocalBagsConfig(solana.SysVarClockPubkey, solana.SysVarRentPubkey)
	for _, tc := range []struct {
		name           string
		c              *PoolConfig
		buy            bool
		point          uint64
		applies, sysvr bool
	}{
		{"buy before activation", &c, true, 900, true, true},
		{"buy at activation", &c, true, 1000, true, true},
		{"buy on the window's last point", &c, true, 1060, true, true},
		{"buy after the window", &c, true, 1061, false, false},
		{"sell inside the window", &c, false, 1000, false, false},
		{"zero limiter", &zero, true, 1000, false, false},
		{"fee scheduler", &scheduled, true, 1000, false, false},
		{"first swap at the minimum fee", &firstMin, false, 5000, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RateLimiterApplies(tc.c, &p, tc.buy, tc.point); got != tc.applies {
				t.Errorf("applies %v, want %v", got, tc.applies)
			}
			if got := NeedsInstructionsSysvar(tc.c, &p, tc.buy, tc.point); got != tc.sysvr {
				t.Errorf("sysvar %v, want %v", got, tc.sysvr)
			}
		})
	}
}

func TestRateLimitedQuotes(t *testing.T) {
	c := rateLimited()
	p := freshPool(&c)
	flat := c
	flat.BaseFee = BaseFeeConfig{CliffFeeNumerator: 10_000_000, BaseFeeMode: BaseFeeSchedulerLinear}
	for _, tc := range []struct {
		name      string
		amount    uint64
		point     uint64
		fee, prot uint64
	}{
		// 1.5 % of 2 SOL inside the window, 20 % of it to the protocol.
		{"buy inside the window", 2_000_000_000, 1030, 30_000_000, 6_000_000},
		// ceil(1.5e9 · 13_333_334 / 1e9) = 20_000_001.
		{"buy of 1.5 SOL inside the window", 1_500_000_000, 1000, 20_000_001, 4_000_000},
		{"buy of one reference amount", 1_000_000_000, 1000, 10_000_000, 2_000_000},
		{"buy after the window", 2_000_000_000, 1061, 20_000_000, 4_000_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := QuoteSwapExactIn(&p, &c, tc.amount, true, false, tc.point)
			if err != nil {
				t.Fatal(err)
			}
			if q.Fees.Total() != tc.fee || q.Fees.Protocol != tc.prot || q.ActualIn != tc.amount-tc.fee || !q.FeesOnInput {
				t.Fatalf("quote %+v, want a fee of %d", q, tc.fee)
			}
			// The cliff fee alone is a flat 1 %: the same quote where the
			// fee is the cliff's, fewer tokens where the limiter adds to it.
			ref, err := QuoteSwapExactIn(&p, &flat, tc.amount, true, false, tc.point)
			if err != nil {
				t.Fatal(err)
			}
			if cliff := tc.fee == tc.amount/100; cliff && q != ref || !cliff && q.AmountOut >= ref.AmountOut {
				t.Fatalf("quote %+v beside the flat fee's %+v", q, ref)
			}
		})
	}

	// A sale pays the cliff fee on its output, inside the window too.
	b, _ := QuoteSwapExactIn(&p, &c, 5_000_000_000, true, false, 1000)
	p.ApplySwap(&c, b, 1001)
	for _, point := range []uint64{1001, 2000} {
		s, err := QuoteSwapExactIn(&p, &c, b.AmountOut/2, false, false, point)
		if err != nil {
			t.Fatal(err)
		}
		gross := s.AmountOut + s.Fees.Total()
		if s.FeesOnInput || s.Fees.Total() != (gross*10_000_000+FeeDenominator-1)/FeeDenominator {
			t.Fatalf("sale at %d: %+v", point, s)
		}
	}
	if n, err := TradeFeeNumerator(&c, &p, 1000); err != nil || n != 10_000_000 {
		t.Fatalf("trade fee numerator %d %v", n, err)
	}
	if n, err := SwapFeeNumerator(&c, &p, 3_000_000_000, true, 1000); err != nil || n != 20_000_000 {
		t.Fatalf("swap fee numerator %d %v", n, err)
	}
}

func TestSwapAccountsInstructionsSysvar(t *testing.T) {
	user, mint := solana.SysVarClockPubkey, solana.SysVarRentPubkey
	a := NewSwapAccounts(SwapParams{Config: LocalBagsPoolConfig, BaseMint: mint, QuoteMint: WrappedSOLMint, User: user, Buy: true, InstructionsSysvar: true})
	m := a.Metas()
	if len(m) != SwapAccountsCount+1 || m[SwapAccountsCount].PublicKey != InstructionsSysvarID || m[SwapAccountsCount].IsWritable || m[SwapAccountsCount].IsSigner {
		t.Fatalf("metas %v", m)
	}
	keys := make([]solana.PublicKey, len(m))
	for i := range m {
		keys[i] = m[i].PublicKey
	}
	if back, err := ParseSwapAccounts(keys); err != nil || back != a {
		t.Fatalf("parse %v", err)
	}
}
