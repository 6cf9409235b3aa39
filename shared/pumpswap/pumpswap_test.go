package pumpswap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

func TestDiscriminators(t *testing.T) {
	// The bytes are the IDL's (pump-sdk 2.0.0 pump_amm.json).
	tests := []struct {
		name string
		got  Discriminator
		want [8]byte
	}{
		{"buy", BuyDiscriminator, [8]byte{102, 6, 61, 18, 1, 218, 235, 234}},
		{"buy_exact_quote_in", BuyExactQuoteInDiscriminator, [8]byte{198, 46, 21, 82, 180, 217, 232, 112}},
		{"sell", SellDiscriminator, [8]byte{51, 230, 133, 164, 1, 127, 131, 173}},
		{"create_pool", CreatePoolDiscriminator, [8]byte{233, 146, 209, 142, 207, 104, 64, 188}},
		{"extend_account", ExtendAccountDiscriminator, [8]byte{234, 102, 194, 203, 150, 72, 62, 229}},
		{"account Pool", PoolDiscriminator, [8]byte{241, 154, 109, 4, 17, 177, 109, 188}},
		{"account GlobalConfig", GlobalConfigDiscriminator, [8]byte{149, 8, 156, 202, 160, 252, 176, 217}},
		{"account UserVolumeAccumulator", UserVolumeAccumulatorDiscriminator, [8]byte{86, 255, 112, 14, 102, 53, 154, 250}},
		{"event BuyEvent", BuyEventDiscriminator, [8]byte{103, 244, 82, 31, 44, 245, 119, 119}},
		{"event SellEvent", SellEventDiscriminator, [8]byte{62, 47, 55, 10, 165, 3, 220, 42}},
		{"event CreatePoolEvent", CreatePoolEventDiscriminator, [8]byte{177, 49, 12, 210, 160, 118, 167, 116}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if [8]byte(tt.got) != tt.want {
				t.Fatalf("got %v, want %v", tt.got[:], tt.want[:])
			}
		})
	}
}

func TestFixedPDAs(t *testing.T) {
	tests := []struct {
		name string
		got  solana.PublicKey
		want string
	}{
		{"global_config", GlobalConfigPDA, "ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw"},
		{"event_authority", EventAuthorityPDA, "GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR"},
		{"global_volume_accumulator", GlobalVolumeAccumulatorPDA, "C2aFPdENg4A2HQsmrd5rTw5TaYBX5Ku887cWjbFKtZpw"},
		{"fee_config", FeeConfigPDA, "5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.String() != tt.want {
				t.Fatalf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
}

func TestPoolPDA(t *testing.T) {
	mint := solana.NewWallet().PublicKey()
	auth := PumpPoolAuthorityPDA(mint)
	want, _, err := solana.FindProgramAddress([][]byte{[]byte("pool"), {0, 0}, auth[:], mint[:], WrappedSOLMint[:]}, ProgramID)
	if err != nil {
		t.Fatal(err)
	}
	if got := CanonicalPoolPDA(mint, WrappedSOLMint); got != want {
		t.Fatalf("canonical pool %s, want %s", got, want)
	}
	wantAuth, _, _ := solana.FindProgramAddress([][]byte{[]byte("pool-authority"), mint[:]}, pumpfun.ProgramID)
	if auth != wantAuth || !IsCanonical(mint, auth) || IsCanonical(mint, mint) {
		t.Fatal("pool authority")
	}
	// The index is two little-endian bytes.
	p1, _ := PoolPDA(1, auth, mint, WrappedSOLMint)
	want1, _, _ := solana.FindProgramAddress([][]byte{[]byte("pool"), {1, 0}, auth[:], mint[:], WrappedSOLMint[:]}, ProgramID)
	if p1 != want1 {
		t.Fatal("index encoding")
	}
}

func TestPoolLayout(t *testing.T) {
	p := Pool{
		PoolBump: 254, Index: 7, Creator: key(1), BaseMint: key(2), QuoteMint: key(3), LPMint: key(4),
		PoolBaseTokenAccount: key(5), PoolQuoteTokenAccount: key(6), LPSupply: 12345, CoinCreator: key(7),
		IsMayhemMode: true, IsCashbackCoin: true, VirtualQuoteReserves: I128(-42), CreatorFeeBps: 77,
		CanEditCreatorFee: true, IsHolderReward: true,
	}
	b := p.Encode()
	if len(b) != PoolAccountSize {
		t.Fatalf("encoded %d bytes", len(b))
	}
	// Offsets of the published layout.
	if b[8] != 254 || binary.LittleEndian.Uint16(b[9:]) != 7 || !bytes.Equal(b[43:75], p.BaseMint[:]) ||
		binary.LittleEndian.Uint64(b[203:]) != 12345 || !bytes.Equal(b[211:243], p.CoinCreator[:]) ||
		b[243] != 1 || b[244] != 1 || int64(binary.LittleEndian.Uint64(b[245:])) != -42 ||
		binary.LittleEndian.Uint64(b[253:]) != ^uint64(0) || binary.LittleEndian.Uint64(b[261:]) != 77 ||
		b[269] != 1 || b[270] != 1 {
		t.Fatalf("layout %x", b[:PoolSize])
	}
	var got Pool
	if err := got.Decode(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("round trip %+v", got)
	}
	// An old 243-byte pool reads the later fields as zero.
	var old Pool
	if err := old.Decode(b[:243]); err != nil {
		t.Fatal(err)
	}
	if old.CoinCreator != p.CoinCreator || old.IsMayhemMode || !old.VirtualQuoteReserves.IsZero() {
		t.Fatalf("short pool %+v", old)
	}
	if err := old.Decode(b[:PoolMinSize-1]); !errors.Is(err, ErrShortData) {
		t.Fatalf("too short: %v", err)
	}
}

func TestGlobalConfigRoundTrip(t *testing.T) {
	g := GlobalConfig{Admin: key(1), LPFeeBasisPoints: 20, ProtocolFeeBasisPoints: 5, DisableFlags: DisableSell,
		CoinCreatorFeeBasisPoints: 5, ReservedFeeRecipient: key(9), BuybackBasisPoints: 5000,
		CreatorFeeConfigurable: true, MaxConfigurableCreatorFeeBps: 300}
	for i := range g.ProtocolFeeRecipients {
		g.ProtocolFeeRecipients[i] = key(byte(10 + i))
		g.BuybackFeeRecipients[i] = key(byte(30 + i))
	}
	b := g.Encode()
	if len(b) != GlobalConfigSize {
		t.Fatalf("%d bytes", len(b))
	}
	var got GlobalConfig
	if err := got.Decode(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Fatalf("round trip %+v", got)
	}
	if !got.Disabled(DisableSell) || got.Disabled(DisableBuy) {
		t.Fatal("flags")
	}
	if c := got.ProtocolFeeRecipientCandidates(false); len(c) != 8 || c[0] != key(10) {
		t.Fatalf("candidates %v", c)
	}
	if c := got.ProtocolFeeRecipientCandidates(true); len(c) != 1 || c[0] != key(9) {
		t.Fatalf("mayhem candidates %v", c)
	}
	// An older 940-byte account decodes with the later fields at zero.
	var old GlobalConfig
	if err := old.Decode(b[:940]); err != nil || old.CreatorFeeConfigurable || old.BuybackBasisPoints != 5000 {
		t.Fatalf("old %+v %v", old, err)
	}
}

func TestInstructionBytes(t *testing.T) {
	b := (&BuyExactQuoteInArgs{SpendableQuoteIn: 1_000_000, MinBaseAmountOut: 12345, TrackVolume: true}).Encode()
	want := append(append(BuyExactQuoteInDiscriminator[:], 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0, 0x39, 0x30, 0, 0, 0, 0, 0, 0), 1)
	if !bytes.Equal(b, want) {
		t.Fatalf("buy_exact_quote_in %x", b)
	}
	for _, v := range []interface {
		Encode() []byte
	}{
		&BuyArgs{BaseAmountOut: 1, MaxQuoteAmountIn: 2, TrackVolume: true},
		&BuyExactQuoteInArgs{SpendableQuoteIn: 3, MinBaseAmountOut: 4},
		&SellArgs{BaseAmountIn: 5, MinQuoteAmountOut: 6},
		&CreatePoolArgs{Index: 1, BaseAmountIn: 7, QuoteAmountIn: 8, CoinCreator: key(3), CreatorFeeBps: 9, IsHolderReward: true},
		&ExtendAccountArgs{},
	} {
		got, err := DecodeInstruction(v.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, v) {
			t.Fatalf("round trip %#v, want %#v", got, v)
		}
	}
	// Trailing OptionBool and OptionU64 arguments may be left out.
	short := (&CreatePoolArgs{Index: 2, BaseAmountIn: 1, QuoteAmountIn: 1}).Encode()[:8+2+8+8+32+1]
	var a CreatePoolArgs
	if err := a.Decode(short); err != nil || a.Index != 2 {
		t.Fatalf("short create_pool %v %+v", err, a)
	}
	if _, err := DecodeInstruction([]byte{1, 2, 3, 4, 5, 6, 7, 8}); !errors.Is(err, ErrUnknownInstruction) {
		t.Fatalf("unknown: %v", err)
	}
}

func TestSwapAccountLists(t *testing.T) {
	pool := Pool{BaseMint: key(2), QuoteMint: WrappedSOLMint, PoolBaseTokenAccount: key(5), PoolQuoteTokenAccount: key(6), CoinCreator: key(7)}
	p := TradeParams{Pool: key(1), PoolState: &pool, User: key(8), BaseTokenProgram: Token2022ProgramID,
		QuoteTokenProgram: TokenProgramID, ProtocolFeeRecipient: key(9), BuybackFeeRecipient: key(10)}
	a := NewSwapAccounts(p)
	buy := a.BuyMetas()
	// 23 fixed, then pool_v2 (a coin creator), the buyback recipient and its
	// quote account.
	if len(buy) != BuyFixedAccounts+3 || buy[BuyFixedAccounts].PublicKey != PoolV2PDA(pool.BaseMint) ||
		buy[BuyFixedAccounts].IsWritable || buy[BuyFixedAccounts+1].PublicKey != key(10) || buy[BuyFixedAccounts+1].IsWritable ||
		!buy[BuyFixedAccounts+2].IsWritable {
		t.Fatalf("buy remaining accounts %v", buy[BuyFixedAccounts:])
	}
	if !buy[1].IsSigner || !buy[1].IsWritable || buy[19].PublicKey != GlobalVolumeAccumulatorPDA || buy[20].PublicKey != UserVolumeAccumulatorPDA(key(8)) || !buy[20].IsWritable {
		t.Fatal("buy fixed accounts")
	}
	if buy[10].PublicKey != AssociatedTokenAddress(key(9), WrappedSOLMint, TokenProgramID) || buy[17].PublicKey != CoinCreatorVaultATA(key(7), WrappedSOLMint, TokenProgramID) {
		t.Fatal("derived token accounts")
	}
	sell := a.SellMetas()
	if len(sell) != SellFixedAccounts+3 || sell[19].PublicKey != FeeConfigPDA || sell[20].PublicKey != FeeProgramID {
		t.Fatalf("sell accounts %d", len(sell))
	}
	// No coin creator: no pool_v2. Cashback: the accumulator's quote account
	// first, and on a sell the accumulator.
	pool.CoinCreator = solana.PublicKey{}
	pool.IsCashbackCoin = true
	a = NewSwapAccounts(p)
	if s := a.SellMetas(); len(s) != SellFixedAccounts+4 || s[SellFixedAccounts+1].PublicKey != UserVolumeAccumulatorPDA(key(8)) {
		t.Fatalf("cashback sell %v", s[SellFixedAccounts:])
	}
	if b := a.BuyMetas(); len(b) != BuyFixedAccounts+3 || b[BuyFixedAccounts].PublicKey != AssociatedTokenAddress(UserVolumeAccumulatorPDA(key(8)), WrappedSOLMint, TokenProgramID) {
		t.Fatalf("cashback buy %v", b[BuyFixedAccounts:])
	}
	cp := NewCreatePoolAccounts(0, key(1), key(2), WrappedSOLMint, Token2022ProgramID, TokenProgramID)
	if m := cp.Metas(); len(m) != CreatePoolFixedAccounts || !m[2].IsSigner {
		t.Fatal("create_pool accounts")
	}
	keys := make([]solana.PublicKey, 0, CreatePoolFixedAccounts)
	for _, m := range cp.Metas() {
		keys = append(keys, m.PublicKey)
	}
	if back, err := ParseCreatePoolAccounts(keys); err != nil || back != cp {
		t.Fatalf("parse create_pool %v", err)
	}
}

var testRates = Rates{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 5}

func TestQuotes(t *testing.T) {
	r := Reserves{Base: 200_000_000_000_000, Quote: 80_000_000_000}
	q, err := QuoteBuy(r, testRates, 1_000_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	// ceil(80e9 * 1e12 / (2e14 - 1e12)) = ceil(402010050.25...) = 402010051.
	if q.QuoteIn != 402_010_051 || q.LPFee != 804_021 || q.ProtocolFee != 201_006 || q.CreatorFee != 201_006 ||
		q.Total != 402_010_051+804_021+201_006+201_006 {
		t.Fatalf("buy %+v", q)
	}
	e, err := QuoteBuyExactQuoteIn(r, testRates, q.Total)
	if err != nil {
		t.Fatal(err)
	}
	if e.Total > q.Total || e.BaseOut > q.BaseOut || q.BaseOut-e.BaseOut > q.BaseOut/1_000_000 {
		t.Fatalf("exact in %+v vs %+v", e, q)
	}
	after := r
	after.ApplyBuy(e)
	s, err := QuoteSell(after, testRates, e.BaseOut)
	if err != nil {
		t.Fatal(err)
	}
	// A round trip loses the fees twice and no more.
	if s.Net >= e.Total || s.Net < e.Total*9930/10000 {
		t.Fatalf("round trip %d in, %d out", e.Total, s.Net)
	}
	// The virtual reserves raise the price.
	boosted := r
	boosted.Virtual = I128(80_000_000_000)
	qb, _ := QuoteBuy(boosted, testRates, 1_000_000_000_000)
	if qb.QuoteIn < 2*q.QuoteIn-1 {
		t.Fatalf("virtual reserves ignored: %d", qb.QuoteIn)
	}
	// A sell cannot take more than the real quote vault.
	if _, err := QuoteSell(Reserves{Base: 1000, Quote: 10, Virtual: I128(1_000_000)}, Rates{}, 1000); !errors.Is(err, ErrInsufficientRealQuoteReserves) {
		t.Fatalf("boosted sell: %v", err)
	}
	for _, tc := range []struct {
		name string
		err  error
		run  func() error
	}{
		{"zero base", ErrZeroBaseAmount, func() error { _, err := QuoteBuy(r, testRates, 0); return err }},
		{"whole pool", ErrBuyMoreBaseAmountThanPoolReserves, func() error { _, err := QuoteBuy(r, testRates, r.Base); return err }},
		{"zero quote", ErrZeroQuoteAmount, func() error { _, err := QuoteBuyExactQuoteIn(r, testRates, 0); return err }},
		{"dust", ErrBuyNotEnoughQuoteTokensToCoverFees, func() error { _, err := QuoteBuyExactQuoteIn(r, testRates, 1); return err }},
		{"zero sell", ErrZeroBaseAmount, func() error { _, err := QuoteSell(r, testRates, 0); return err }},
	} {
		if err := tc.run(); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
}

func TestExactQuoteInNeverOverspends(t *testing.T) {
	r := Reserves{Base: 206_900_000_000_000, Quote: 84_990_000_000}
	for _, spend := range []uint64{2, 3, 100, 12_345, 1_000_000, 999_999_999, 5_000_000_000, 50_000_000_000} {
		q, err := QuoteBuyExactQuoteIn(r, Rates{LPFeeBps: 2, ProtocolFeeBps: 93, CreatorFeeBps: 30}, spend)
		if err != nil {
			if errors.Is(err, ErrBuyNotEnoughQuoteTokensToCoverFees) || errors.Is(err, ErrZeroBaseAmount) {
				continue
			}
			t.Fatal(err)
		}
		if q.Total > spend || q.BaseOut == 0 {
			t.Fatalf("spend %d: %+v", spend, q)
		}
	}
}

func TestComputeFees(t *testing.T) {
	mint := key(2)
	fc := &FeeConfig{
		FlatFees: Fees{LPFeeBps: 25, ProtocolFeeBps: 5},
		FeeTiers: []FeeTier{
			{MarketCapLamportsThreshold: pumpfun.U128(0), Fees: Fees{LPFeeBps: 2, ProtocolFeeBps: 93, CreatorFeeBps: 30}},
			{MarketCapLamportsThreshold: pumpfun.U128(420_000_000_000), Fees: Fees{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 95}},
		},
	}
	gc := &GlobalConfig{LPFeeBasisPoints: 20, ProtocolFeeBasisPoints: 5, CoinCreatorFeeBasisPoints: 5}
	canonical := &Pool{BaseMint: mint, Creator: PumpPoolAuthorityPDA(mint), QuoteMint: WrappedSOLMint, CoinCreator: key(7)}
	supply := uint64(1_000_000_000_000_000)
	// 85 SOL against 206.9M tokens: about 411 SOL of market cap, tier one.
	small := Reserves{Base: 206_900_000_000_000, Quote: 85_000_000_000}
	if got := ComputeFees(gc, fc, canonical, small, supply); got != (Rates{2, 93, 30}) {
		t.Fatalf("small canonical %+v", got)
	}
	large := Reserves{Base: 100_000_000_000_000, Quote: 85_000_000_000}
	if got := ComputeFees(gc, fc, canonical, large, supply); got != (Rates{20, 5, 95}) {
		t.Fatalf("big canonical %+v", got)
	}
	// Any other pool pays the flat fees; no coin creator, no creator fee.
	other := &Pool{BaseMint: mint, Creator: key(1), QuoteMint: WrappedSOLMint}
	if got := ComputeFees(gc, fc, other, large, supply); got != (Rates{25, 5, 0}) {
		t.Fatalf("flat %+v", got)
	}
	if got := ComputeFees(gc, nil, canonical, large, supply); got != (Rates{20, 5, 5}) {
		t.Fatalf("no fee config %+v", got)
	}
	// A pool's own creator rate replaces the schedule's, never
	// GlobalConfig's (the SDK's computeFeesBps, the program's compute_fees).
	configured := *canonical
	configured.CreatorFeeBps = 40
	gcOn := *gc
	gcOn.CreatorFeeConfigurable = true
	if got := ComputeFees(&gcOn, fc, &configured, large, supply); got != (Rates{20, 5, 40}) {
		t.Fatalf("pool's creator rate %+v", got)
	}
	if got := ComputeFees(&gcOn, nil, &configured, large, supply); got != (Rates{20, 5, 5}) {
		t.Fatalf("pool's creator rate without a fee config %+v", got)
	}
	// USD1 is exotic: the flat fees while no exotic schedule is set.
	usd1 := *canonical
	usd1.QuoteMint = USD1Mint
	if got := ComputeFees(gc, fc, &usd1, small, supply); got != (Rates{25, 5, 0}) {
		t.Fatalf("usd1 %+v", got)
	}
	// floor(85e9 * 1e15 / 206.9e12) lamports.
	if mc := MarketCap(canonical, small, supply); mc != pumpfun.U128(410_826_486_225) {
		t.Fatalf("market cap %s", mc)
	}
}

func TestInt128(t *testing.T) {
	for _, v := range []string{"0", "1", "-1", "18446744073709551616", "-170141183460469231731687303715884105728"} {
		b, _ := new(big.Int).SetString(v, 10)
		i, ok := Int128FromBig(b)
		if !ok || i.String() != v {
			t.Fatalf("%s: %v %s", v, ok, i)
		}
	}
	b, _ := new(big.Int).SetString("170141183460469231731687303715884105728", 10)
	if _, ok := Int128FromBig(b); ok {
		t.Fatal("2^127 fits")
	}
}

func TestProgramErrors(t *testing.T) {
	if len(ProgramErrors) != 78 || ProgramErrors[0].Code != 6000 || ProgramErrors[77].Code != 6077 {
		t.Fatalf("%d errors", len(ProgramErrors))
	}
	for i, e := range ProgramErrors {
		if e.Code != uint32(6000+i) {
			t.Fatalf("error %d has code %d", i, e.Code)
		}
	}
	if e, ok := ProgramErrorByCode(6040); !ok || e != ErrBuySlippageBelowMinBaseAmountOut {
		t.Fatal("lookup")
	}
	if got, want := ErrExceededSlippage.Error(), "pump_amm error 6004 ExceededSlippage"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := ErrCashbackNotEnabled.Error(), "pump_amm error 6049 CashbackNotEnabled: Cashback is disabled"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// The AMM's 6004 is not pump.fun's, nor the other way round.
	if errors.Is(ErrExceededSlippage, pumpfun.ErrMintDoesNotMatchBondingCurve) || errors.Is(pumpfun.ErrAlreadyInitialized, ErrZeroBaseAmount) {
		t.Error("errors.Is matches across programs")
	}
	if _, err := ParseCreatePoolAccounts(make([]solana.PublicKey, 2)); err == nil || err.Error() != "pumpswap: create_pool needs 18 accounts, got 2" {
		t.Errorf("short create_pool: %v", err)
	}
}

func TestEventRoundTrip(t *testing.T) {
	b := BuyEvent{Timestamp: 9, BaseAmountOut: 1, QuoteAmountIn: 2, Pool: key(1), IxName: "buy_exact_quote_in", VirtualQuoteReserves: I128(-3), HolderRewards: 4}
	var gb BuyEvent
	if err := gb.Decode(b.Encode()); err != nil || !reflect.DeepEqual(gb, b) {
		t.Fatalf("buy event %+v %v", gb, err)
	}
	s := SellEvent{Timestamp: 9, BaseAmountIn: 1, UserQuoteAmountOut: 2, CoinCreator: key(2), BuybackFee: 5}
	var gs SellEvent
	if err := gs.Decode(s.Encode()); err != nil || !reflect.DeepEqual(gs, s) {
		t.Fatalf("sell event %+v %v", gs, err)
	}
}

func key(b byte) solana.PublicKey {
	var k solana.PublicKey
	for i := range k {
		k[i] = b
	}
	return k
}

// TestQuoteBuyFeesPastUint64: fee rates whose sum passes 64 bits, which no
// account the program writes holds, are refused, not divided by their
// wrapped sum.
func TestQuoteBuyFeesPastUint64(t *testing.T) {
	r := Reserves{Base: 1_000_000, Quote: 1_000_000}
	rates := Rates{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: ^uint64(0) - BasisPoints - 24}
	if _, err := QuoteBuyExactQuoteIn(r, rates, 1_000); err == nil {
		t.Fatal("quoted with fees past 64 bits")
	}
}
