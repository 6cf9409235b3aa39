package dbc

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

func TestDiscriminators(t *testing.T) {
	for _, c := range []struct {
		name string
		got  anchor.Discriminator
		want [8]byte
	}{
		{"initialize_virtual_pool_with_spl_token", InitializeVirtualPoolWithSPLTokenDiscriminator, [8]byte{140, 85, 215, 176, 102, 54, 104, 79}},
		{"initialize_virtual_pool_with_token2022", InitializeVirtualPoolWithToken2022Discriminator, [8]byte{169, 118, 51, 78, 145, 110, 220, 155}},
		{"swap", SwapDiscriminator, [8]byte{248, 198, 158, 145, 225, 117, 135, 200}},
		{"swap2", Swap2Discriminator, [8]byte{65, 75, 63, 76, 235, 91, 91, 136}},
	} {
		h := sha256.Sum256([]byte("global:" + c.name))
		if [8]byte(c.got) != c.want || [8]byte(h[:8]) != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if [8]byte(VirtualPoolDiscriminator) != [8]byte{213, 224, 5, 209, 98, 69, 119, 92} {
		t.Errorf("VirtualPool %v", VirtualPoolDiscriminator)
	}
	if [8]byte(PoolConfigDiscriminator) != [8]byte{26, 108, 14, 123, 116, 230, 129, 43} {
		t.Errorf("PoolConfig %v", PoolConfigDiscriminator)
	}
}

func TestPDAs(t *testing.T) {
	if want := solana.MustPublicKeyFromBase58("FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM"); PoolAuthorityPDA != want {
		t.Errorf("pool authority %s", PoolAuthorityPDA)
	}
	if want := solana.MustPublicKeyFromBase58("8Ks12pbrD6PXxfty1hVQiE9sc289zgU1zHkvXhrSdriF"); EventAuthorityPDA != want {
		t.Errorf("event authority %s", EventAuthorityPDA)
	}
	// The pool seeds take the larger mint first, whichever is the base.
	small, large := solana.SystemProgramID, solana.SolMint
	if bytes.Compare(small[:], large[:]) >= 0 {
		t.Fatal("fixture order")
	}
	want, _ := anchor.FindPDA(ProgramID, []byte("pool"), LocalBagsPoolConfig[:], large[:], small[:])
	if PoolPDA(LocalBagsPoolConfig, small, large) != want || PoolPDA(LocalBagsPoolConfig, large, small) != want {
		t.Error("pool PDA does not order the mints")
	}
}

func TestEncodings(t *testing.T) {
	c := LocalBagsConfig(solana.SysVarClockPubkey, solana.SysVarRentPubkey)
	c.DynamicFee = DynamicFeeConfig{Initialized: 1, MaxVolatilityAccumulator: 14_460_000, VariableFeeControl: 5, BinStep: 1,
		FilterPeriod: 10, DecayPeriod: 120, ReductionFactor: 5000, BinStepU128: Uint128{Lo: 1_844_674_407_370_955}}
	c.LockedVesting.CliffUnlockAmount = 7
	enc := c.Encode()
	if len(enc) != PoolConfigSize || solana.PublicKeyFromBytes(enc[8:40]) != WrappedSOLMint || enc[235] != BagsTokenDecimals {
		t.Fatal("config layout")
	}
	back, err := DecodePoolConfig(enc)
	if err != nil || back != c {
		t.Fatalf("config round trip: %v", err)
	}
	p := VirtualPool{Config: LocalBagsPoolConfig, BaseReserve: 5, QuoteReserve: 6, SqrtPrice: Uint128{Lo: 9, Hi: 1}, HasSwap: 1,
		Volatility: VolatilityTracker{LastUpdateTimestamp: 3, VolatilityAccumulator: Uint128{Lo: 4}}, MigrationProgress: 2, CreatorQuoteFee: 8}
	pe := p.Encode()
	if len(pe) != VirtualPoolSize || solana.PublicKeyFromBytes(pe[72:104]) != LocalBagsPoolConfig || pe[240] != 6 || pe[370] != 1 {
		t.Fatal("pool layout")
	}
	if got, err := DecodeVirtualPool(pe); err != nil || got != p {
		t.Fatalf("pool round trip: %v", err)
	}
	if _, err := DecodeVirtualPool(enc); err == nil {
		t.Fatal("a config decoded as a pool")
	}
	sw := SwapParameters{AmountIn: 10, MinimumAmountOut: 11}
	var sw2 SwapParameters
	if err := sw2.Decode(sw.Encode()); err != nil || sw2 != sw || len(sw.Encode()) != 24 {
		t.Fatalf("swap round trip %v", err)
	}
	ip := InitializePoolParameters{Name: "Bag", Symbol: "BAG", URI: "https://example.invalid/bag.json"}
	var ip2 InitializePoolParameters
	if err := ip2.Decode(ip.Encode()); err != nil || ip2 != ip {
		t.Fatalf("initialize round trip %v", err)
	}
}

func freshPool(c *PoolConfig) VirtualPool {
	return VirtualPool{Config: LocalBagsPoolConfig, SqrtPrice: c.SqrtStartPrice, BaseReserve: c.InitialBaseSupply(), ActivationPoint: 1000}
}

func TestCurve(t *testing.T) {
	c := LocalBagsConfig(solana.SysVarClockPubkey, solana.SysVarRentPubkey)
	if c.SwapBaseAmount < BagsBaseForSale-1_000 || c.SwapBaseAmount > BagsBaseForSale+1_000 || c.MigrationQuoteThreshold < BagsQuoteRaised-1 || c.MigrationQuoteThreshold > BagsQuoteRaised {
		t.Fatalf("curve sells %d for %d", c.SwapBaseAmount, c.MigrationQuoteThreshold)
	}
	p := freshPool(&c)
	q, err := QuoteSwapExactIn(&p, &c, 1_000_000_000, true, false, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// 2% of the input: 20% of it to the protocol.
	if q.Fees.Total() != 20_000_000 || q.Fees.Protocol != 4_000_000 || q.ActualIn != 980_000_000 || !q.FeesOnInput {
		t.Fatalf("buy fees %+v", q)
	}
	// At the start price one SOL buys about B/Q·(1-fee) tokens, a little
	// less as the price moves.
	startRate := BagsBaseForSale / BagsQuoteRaised * 4 // base per lamport at the start is 4x the average here
	if q.AmountOut == 0 || q.AmountOut > startRate*980_000_000 {
		t.Fatalf("bought %d", q.AmountOut)
	}
	p.ApplySwap(&c, q, 1001)
	if p.QuoteReserve != q.ActualIn || p.BaseReserve != c.InitialBaseSupply()-q.AmountOut || p.PartnerQuoteFee != q.Fees.Trading || p.HasSwap != 1 {
		t.Fatalf("pool after the buy %+v", p)
	}
	s, err := QuoteSwapExactIn(&p, &c, q.AmountOut, false, false, 1002)
	if err != nil {
		t.Fatal(err)
	}
	// Selling everything back returns the curve to (about) its start and
	// pays the fee again on the way out.
	if s.FeesOnInput || s.AmountOut+s.Fees.Total() > q.ActualIn || s.AmountOut+s.Fees.Total() < q.ActualIn-2 {
		t.Fatalf("sell %+v after buy %+v", s, q)
	}
	p.ApplySwap(&c, s, 1003)
	if p.SqrtPrice.Big().Cmp(c.SqrtStartPrice.Big()) < 0 {
		t.Fatalf("price %s below the start %s", p.SqrtPrice, c.SqrtStartPrice)
	}
	// A buy larger than the curve fails; one that fills it completes it.
	if _, err := QuoteSwapExactIn(&p, &c, 200_000_000_000, true, false, 1004); err != ErrInsufficientLiquidity {
		t.Fatalf("oversized buy: %v", err)
	}
	need := mulDiv(u64(c.MigrationQuoteThreshold-p.QuoteReserve), bigFeeDen, u64(FeeDenominator-BagsFeeNumerator), false).Uint64()
	for step := uint64(0); step < 5; step++ {
		full, err := QuoteSwapExactIn(&p, &c, need+step, true, false, 1004)
		if err != nil {
			t.Fatalf("filling buy of %d: %v", need+step, err)
		}
		if p2 := p; true {
			p2.ApplySwap(&c, full, 1005)
			if p2.IsCurveComplete(&c) {
				if p2.MigrationProgress != ProgressLockedVesting || p2.FinishCurveTimestamp != 1005 {
					t.Fatalf("completed pool %+v", p2)
				}
				if _, err := QuoteSwapExactIn(&p2, &c, 1, true, false, 1006); err != ErrPoolIsCompleted {
					t.Fatalf("buy on a completed pool: %v", err)
				}
				return
			}
		}
	}
	t.Fatal("no buy completed the curve")
}

func TestSwapAccounts(t *testing.T) {
	user, mint := solana.SysVarClockPubkey, solana.SysVarRentPubkey
	buy := NewSwapAccounts(SwapParams{Config: LocalBagsPoolConfig, BaseMint: mint, QuoteMint: WrappedSOLMint, User: user, Buy: true})
	m := buy.Metas()
	if len(m) != SwapAccountsCount || m[3].PublicKey != AssociatedTokenAddress(user, WrappedSOLMint, TokenProgramID) || m[12].PublicKey != ProgramID || m[12].IsWritable || !m[9].IsSigner {
		t.Fatalf("buy metas %v", m)
	}
	keys := make([]solana.PublicKey, len(m))
	for i := range m {
		keys[i] = m[i].PublicKey
	}
	if back, err := ParseSwapAccounts(keys); err != nil || back != buy {
		t.Fatalf("parse %v", err)
	}
	if _, err := ParseSwapAccounts(keys[:3]); err == nil || err.Error() != "dbc: swap needs 15 accounts, got 3" {
		t.Fatalf("short swap: %v", err)
	}
	init := NewInitializeAccounts(LocalBagsPoolConfig, WrappedSOLMint, mint, user)
	im := init.Metas()
	if len(im) != InitializeVirtualPoolWithSPLTokenAccounts || im[5].PublicKey != PoolPDA(LocalBagsPoolConfig, mint, WrappedSOLMint) || !im[3].IsSigner || !im[2].IsSigner {
		t.Fatalf("initialize metas %v", im)
	}
}

func TestProgramErrors(t *testing.T) {
	for i, e := range ProgramErrors {
		if i > 0 && e.Code <= ProgramErrors[i-1].Code {
			t.Fatalf("error %d (%d) out of code order", i, e.Code)
		}
		if got, ok := ProgramErrorByCode(e.Code); !ok || got != e {
			t.Fatalf("lookup %d", e.Code)
		}
	}
	if _, ok := ProgramErrorByCode(6001); ok {
		t.Error("6001 is not modelled")
	}
	if got, want := ErrExceededSlippage.Error(), "dbc error 6002 ExceededSlippage: Exceeded slippage tolerance"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestExponentialFeeAsTheProgram: the exponential fee scheduler's fee
// numerator is the program's Q64.64 power, not a product rounded period by
// period (which gave 70,835,251 and 19,872,506 here: each swap quoted a
// little more out than the program pays). The figures are those of
// @meteora-ag/dynamic-bonding-curve-sdk 1.5.12's
// getFeeNumeratorOnExponentialFeeScheduler for a 90 % cliff cut by 2.51 %
// a period.
func TestExponentialFeeAsTheProgram(t *testing.T) {
	b := &BaseFeeConfig{CliffFeeNumerator: 900_000_000, FirstFactor: 150, SecondFactor: 1, ThirdFactor: 251,
		BaseFeeMode: BaseFeeSchedulerExponential}
	for _, tt := range []struct{ elapsed, want uint64 }{
		{0, 900_000_000}, {1, 877_410_000}, {100, 70_835_269}, {150, 19_872_525}, {10_000, 19_872_525},
	} {
		got, err := scheduledFeeNumerator(b, 1_000+tt.elapsed, 1_000)
		if err != nil || got != tt.want {
			t.Errorf("%d s after activation: %d, %v; want %d", tt.elapsed, got, err, tt.want)
		}
	}
	if got, err := exponentialFee(500_000_000, 0, 7); err != nil || got != 500_000_000 {
		t.Errorf("no reduction: %d, %v; want the cliff", got, err)
	}
	if _, err := exponentialFee(500_000_000, 10_001, 1); err == nil {
		t.Error("a reduction over 100 % is taken")
	}
}

// TestQuoteOfAPoolWithoutAPrice: a pool read with no price, which the
// program never writes, is refused by the quote, not a division by zero.
func TestQuoteOfAPoolWithoutAPrice(t *testing.T) {
	c := LocalBagsConfig(solana.PublicKey{1}, solana.PublicKey{2})
	p := VirtualPool{BaseReserve: c.InitialBaseSupply()}
	for _, buy := range []bool{true, false} {
		if _, err := QuoteSwapExactIn(&p, &c, 1_000_000, buy, false, 0); err == nil {
			t.Fatalf("buy %v on a pool without a price quoted", buy)
		}
		if _, err := QuoteSwapPartialFill(&p, &c, 1_000_000, buy, false, 0, false); err == nil {
			t.Fatalf("partial buy %v on a pool without a price quoted", buy)
		}
	}
}
