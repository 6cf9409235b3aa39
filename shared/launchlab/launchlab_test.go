package launchlab

import (
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
		{"initialize_v2", InitializeV2Discriminator, [8]byte{67, 153, 175, 39, 218, 16, 38, 32}},
		{"initialize_with_token_2022", InitializeWithToken2022Discriminator, [8]byte{37, 190, 126, 222, 44, 154, 171, 17}},
		{"buy_exact_in", BuyExactInDiscriminator, [8]byte{250, 234, 13, 123, 213, 156, 19, 236}},
		{"buy_exact_out", BuyExactOutDiscriminator, [8]byte{24, 211, 116, 40, 105, 3, 153, 56}},
		{"sell_exact_in", SellExactInDiscriminator, [8]byte{149, 39, 222, 155, 211, 124, 152, 26}},
		{"sell_exact_out", SellExactOutDiscriminator, [8]byte{95, 200, 71, 34, 8, 9, 11, 166}},
	} {
		h := sha256.Sum256([]byte("global:" + c.name))
		if [8]byte(c.got) != c.want || [8]byte(h[:8]) != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		got  anchor.Discriminator
		want [8]byte
	}{
		{"GlobalConfig", GlobalConfigDiscriminator, [8]byte{149, 8, 156, 202, 160, 252, 176, 217}},
		{"PlatformConfig", PlatformConfigDiscriminator, [8]byte{160, 78, 128, 0, 248, 83, 230, 160}},
		{"PoolState", PoolStateDiscriminator, [8]byte{247, 237, 227, 245, 215, 195, 222, 70}},
		{"TradeEvent", TradeEventDiscriminator, [8]byte{189, 219, 127, 211, 78, 230, 97, 238}},
	} {
		if [8]byte(c.got) != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestFixedPDAs(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want solana.PublicKey
	}{
		{"auth", AuthPDA, solana.MustPublicKeyFromBase58("WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh")},
		{"event authority", EventAuthorityPDA, solana.MustPublicKeyFromBase58("2DPAtwB8L12vrMRExbLuyGnC7n2J5LNoZQSejeQGpwkr")},
		{"global config WSOL/0/0", GlobalConfigPDA(WrappedSOLMint, CurveConstant, 0), SOLConstantGlobalConfig},
		{"letsbonk platform", PlatformConfigPDA(LetsBonkPlatformAdmin), LetsBonkPlatformConfig},
		// As @raydium-io/raydium-sdk-v2's getPdaPlatformCurveRule derives it.
		{"letsbonk's curve rule for WSOL/0/0", PlatformCurveRulePDA(LetsBonkPlatformConfig, SOLConstantGlobalConfig),
			solana.MustPublicKeyFromBase58("J6niBiUZMZgZE4imA5oDpgoNcFeyYyzsqVajfcaouV3R")},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
	if s := PlatformFeeVaultAuthPDA.String(); s[:6] != "56XVRV" {
		t.Errorf("platform fee vault auth %s", s)
	}
	if s := CreatorFeeVaultAuthPDA.String(); s[:6] != "9sHpTf" {
		t.Errorf("creator fee vault auth %s", s)
	}
}

// TestMainnetTrade replays a mainnet buy_exact_in whose TradeEvent is
// public: letsbonk's curve, 0.25% protocol, 1% platform and 0.05% creator
// fees.
func TestMainnetTrade(t *testing.T) {
	p, err := NewPool(LetsBonkDecimals, 9, LetsBonkCurve(), VestingParams{}, AMMFeeOnQuote, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The pool's virtual reserves on mainnet, to the unit.
	if p.VirtualBase != 1_073_025_605_596_382 || p.VirtualQuote != 30_000_852_951 {
		t.Fatalf("virtual reserves %d/%d", p.VirtualBase, p.VirtualQuote)
	}
	p.RealBase, p.RealQuote = 602_241_254_286_758, 38_377_977_720
	r := Rates{Protocol: 2500, Platform: 10_000, Creator: 500}
	q, err := QuoteBuyExactIn(&p, r, 1_980_000_000)
	if err != nil {
		t.Fatal(err)
	}
	want := BuyQuote{AmountIn: 1_980_000_000, NetIn: 1_954_260_000, AmountOut: 13_081_111_858_058,
		Fees: Fees{Protocol: 4_950_000, Platform: 19_800_000, Creator: 990_000, Total: 25_740_000}}
	if q != want {
		t.Fatalf("quote %+v\nwant  %+v", q, want)
	}
	p.ApplyBuy(q)
	if p.RealBase != 615_322_366_144_816 || p.RealQuote != 40_332_237_720 {
		t.Fatalf("after the buy %d/%d", p.RealBase, p.RealQuote)
	}
	s, err := QuoteSellExactIn(&p, r, q.AmountOut)
	if err != nil {
		t.Fatal(err)
	}
	if s.GrossOut > q.NetIn || s.NetOut+s.Fees.Total != s.GrossOut || s.NetOut >= q.AmountIn {
		t.Fatalf("selling the tokens back: %+v", s)
	}
}

func TestBuyToCompletion(t *testing.T) {
	p, err := NewPool(LetsBonkDecimals, 9, LetsBonkCurve(), VestingParams{}, AMMFeeOnQuote, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := Rates{Protocol: 2500, Platform: 10_000, Creator: 500}
	q, err := QuoteBuyExactIn(&p, r, 500_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Completes || q.AmountOut != LetsBonkTotalBaseSell || q.AmountIn >= 500_000_000_000 {
		t.Fatalf("buy out %+v", q)
	}
	// The curve raises its target, give or take rounding.
	if q.NetIn < LetsBonkTotalQuoteFundRaising || q.NetIn > LetsBonkTotalQuoteFundRaising+2 {
		t.Fatalf("raised %d", q.NetIn)
	}
	p.ApplyBuy(q)
	if p.Status != StatusMigrate {
		t.Fatalf("status %d", p.Status)
	}
	if _, err := QuoteBuyExactIn(&p, r, 1); err != ErrPoolMigrated {
		t.Fatalf("buy on a sold-out curve: %v", err)
	}
}

func TestEncodings(t *testing.T) {
	args := InitializeV2Args{
		Mint:  MintParams{Decimals: 6, Name: "Local Bonk", Symbol: "LBONK", URI: "https://example.invalid/b.json"},
		Curve: LetsBonkCurve(), Vesting: VestingParams{TotalLockedAmount: 5, CliffPeriod: 6, UnlockPeriod: 7}, AMMFeeOn: AMMFeeOnBoth,
	}
	var back InitializeV2Args
	if err := back.Decode(args.Encode()); err != nil || back != args {
		t.Fatalf("initialize_v2 round trip %+v %v", back, err)
	}
	if got := len(args.Encode()); got != 8+1+4+10+4+5+4+30+1+8*3+1+8*3+1 {
		t.Fatalf("initialize_v2 data %d bytes", got)
	}
	buy := BuyExactInArgs{AmountIn: 1, MinimumAmountOut: 2, ShareFeeRate: 3}
	var b2 BuyExactInArgs
	if err := b2.Decode(buy.Encode()); err != nil || b2 != buy {
		t.Fatalf("buy round trip %+v %v", b2, err)
	}
	if err := (&SellExactInArgs{}).Decode(buy.Encode()); err == nil {
		t.Fatal("sell decoded buy data")
	}
	p, _ := NewPool(6, 9, LetsBonkCurve(), VestingParams{}, 0, 0)
	p.Creator, p.BaseMint, p.QuoteMint, p.TokenProgramFlag, p.PlatformVestingShare = solana.SysVarClockPubkey, solana.SolMint, solana.SolMint, 1, 9
	enc := p.Encode()
	if len(enc) != PoolStateSize || enc[17] != StatusFund || solana.PublicKeyFromBytes(enc[333:365]) != p.Creator || enc[365] != 1 {
		t.Fatalf("pool layout %d bytes", len(enc))
	}
	if got, err := DecodePool(enc); err != nil || got != p {
		t.Fatalf("pool round trip %v", err)
	}
	g := GlobalConfig{CurveType: 0, Index: 3, TradeFeeRate: 2500, QuoteMint: solana.SolMint, MigrateToCPSwapWallet: solana.SysVarRentPubkey}
	ge := g.Encode()
	if len(ge) != GlobalConfigSize || solana.PublicKeyFromBytes(ge[83:115]) != solana.SolMint || ge[27] != 0xc4 {
		t.Fatalf("global config layout")
	}
	if got, err := DecodeGlobalConfig(ge); err != nil || got != g {
		t.Fatalf("global config round trip %v", err)
	}
	pc := PlatformConfig{FeeRate: 10_000, CreatorFeeRate: 500, RestrictCurveParam: 1, CurveRuleManager: solana.SolMint}
	pe := pc.Encode()
	if len(pe) != PlatformConfigSize || pe[104] != 0x10 || pe[720] != 0xf4 || pe[833] != 1 {
		t.Fatalf("platform config layout")
	}
	if got, err := DecodePlatformConfig(pe); err != nil || got != pc {
		t.Fatalf("platform config round trip %v", err)
	}
}

func TestTradeAccounts(t *testing.T) {
	user, mint, creator := solana.SysVarClockPubkey, solana.SysVarRentPubkey, solana.SysVarFeesPubkey
	p := TradeParams{User: user, BaseMint: mint, QuoteMint: WrappedSOLMint, GlobalConfig: SOLConstantGlobalConfig,
		PlatformConfig: LetsBonkPlatformConfig, Creator: creator}
	a := NewTradeAccounts(p)
	m := a.Metas()
	if len(m) != 18 || !m[0].IsSigner || !m[4].IsWritable || m[15].PublicKey != SystemProgramID || !m[17].IsWritable {
		t.Fatalf("trade metas %v", m)
	}
	keys := make([]solana.PublicKey, len(m))
	for i := range m {
		keys[i] = m[i].PublicKey
	}
	back, err := ParseTradeAccounts(keys, false)
	if err != nil || back != a {
		t.Fatalf("parse %v", err)
	}
	if _, err := ParseTradeAccounts(keys[:14], false); err == nil || err.Error() != "launchlab: trade needs 15 accounts, got 14" {
		t.Fatalf("short trade: %v", err)
	}
	p.ShareFeeReceiver = solana.SysVarStakeHistoryPubkey
	a = NewTradeAccounts(p)
	if m := a.Metas(); len(m) != 19 || m[15].PublicKey != p.ShareFeeReceiver || !m[15].IsWritable {
		t.Fatalf("trade metas with a share fee %v", m)
	}
	init := NewInitializeV2Accounts(NewLetsBonkLaunch(user, mint))
	im := init.Metas()
	if len(im) != InitializeV2FixedAccounts || !im[6].IsSigner || im[10].PublicKey != MetadataPDA(mint) || im[5].PublicKey != PoolPDA(mint, WrappedSOLMint) {
		t.Fatalf("initialize_v2 metas %v", im)
	}
	// A platform that restricts curves: its rule follows, read-only.
	init.PlatformCurveRule = PlatformCurveRulePDA(init.PlatformConfig, init.GlobalConfig)
	if im = init.Metas(); len(im) != InitializeV2FixedAccounts+1 || im[18].PublicKey != init.PlatformCurveRule || im[18].IsWritable || im[18].IsSigner {
		t.Fatalf("initialize_v2 metas with the platform's curve rule %v", im)
	}
}

func TestProgramErrors(t *testing.T) {
	for i, e := range ProgramErrors {
		if e.Code != uint32(6000+i) {
			t.Fatalf("error %d has code %d", i, e.Code)
		}
		if got, ok := ProgramErrorByCode(e.Code); !ok || got != e {
			t.Fatalf("lookup %d", e.Code)
		}
	}
	if got, want := ErrExceededSlippage.Error(), "launchlab error 6004 ExceededSlippage: Exceeds desired slippage limit"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
