package pumpfun

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

func TestDiscriminators(t *testing.T) {
	// The bytes are the IDL's (pump-sdk 2.0.0 pump.json); the names hash to them.
	tests := []struct {
		name string
		got  Discriminator
		want [8]byte
	}{
		{"buy", BuyDiscriminator, [8]byte{102, 6, 61, 18, 1, 218, 235, 234}},
		{"buy_exact_sol_in", BuyExactSolInDiscriminator, [8]byte{56, 252, 116, 8, 158, 223, 205, 95}},
		{"sell", SellDiscriminator, [8]byte{51, 230, 133, 164, 1, 127, 131, 173}},
		{"create", CreateDiscriminator, [8]byte{24, 30, 200, 40, 5, 28, 7, 119}},
		{"create_v2", CreateV2Discriminator, [8]byte{214, 144, 76, 236, 95, 139, 49, 180}},
		{"extend_account", ExtendAccountDiscriminator, [8]byte{234, 102, 194, 203, 150, 72, 62, 229}},
		{"init_user_volume_accumulator", InitUserVolumeAccumulatorDiscriminator, [8]byte{94, 6, 202, 115, 255, 96, 232, 183}},
		{"claim_cashback", ClaimCashbackDiscriminator, [8]byte{37, 58, 35, 126, 190, 53, 228, 197}},
		{"account BondingCurve", BondingCurveDiscriminator, [8]byte{23, 183, 248, 55, 96, 216, 172, 96}},
		{"account Global", GlobalDiscriminator, [8]byte{167, 232, 232, 177, 200, 108, 114, 127}},
		{"account FeeConfig", FeeConfigDiscriminator, [8]byte{143, 52, 146, 187, 219, 123, 76, 155}},
		{"account UserVolumeAccumulator", UserVolumeAccumulatorDiscriminator, [8]byte{86, 255, 112, 14, 102, 53, 154, 250}},
		{"account GlobalVolumeAccumulator", GlobalVolumeAccumulatorDiscriminator, [8]byte{202, 42, 246, 43, 142, 190, 30, 255}},
		{"event TradeEvent", TradeEventDiscriminator, [8]byte{189, 219, 127, 211, 78, 230, 97, 238}},
		{"event CreateEvent", CreateEventDiscriminator, [8]byte{27, 114, 169, 77, 222, 235, 99, 118}},
		{"event CompleteEvent", CompleteEventDiscriminator, [8]byte{95, 114, 97, 156, 212, 46, 152, 8}},
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
		{"global", GlobalPDA, "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf"},
		{"mint_authority", MintAuthorityPDA, "TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM"},
		{"event_authority", EventAuthorityPDA, "Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1"},
		{"global_volume_accumulator", GlobalVolumeAccumulatorPDA, "Hq2wp8uJ9jCPsYgNHex8RtqdvMPfVGoYwjvF1ATiwn2Y"},
		{"fee_config", FeeConfigPDA, "8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt"},
		{"quote_control", QuoteControlPDA, "6z6GDdfb2AjR9ZhJmAUQ5cipJCVxQvLJhB2H8mCwTFBP"},
		{"mayhem global_params", MayhemGlobalParamsPDA, "13ec7XdrjF3h3YcqBTFDSReRcUFwbCnJaAQspM4j6DDJ"},
		{"mayhem sol_vault", MayhemSolVaultPDA, "BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.String() != tt.want {
				t.Fatalf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
}

func TestPerMintPDAs(t *testing.T) {
	mint := solana.NewWallet().PublicKey()
	user := solana.NewWallet().PublicKey()
	curve := BondingCurvePDA(mint)
	// An associated token account is the ATA program's address of
	// [owner, token program, mint]; solana-go derives it for SPL Token.
	wantATA, _, err := solana.FindAssociatedTokenAddress(user, mint)
	if err != nil {
		t.Fatal(err)
	}
	if got := AssociatedTokenAddress(user, mint, TokenProgramID); got != wantATA {
		t.Fatalf("ATA %s, want %s", got, wantATA)
	}
	if AssociatedTokenAddress(user, mint, Token2022ProgramID) == wantATA {
		t.Fatal("Token-2022 ATA equals the SPL Token ATA")
	}
	if got, want := AssociatedBondingCurve(mint, TokenProgramID), AssociatedTokenAddress(curve, mint, TokenProgramID); got != want {
		t.Fatalf("associated bonding curve %s, want %s", got, want)
	}
	seen := map[solana.PublicKey]string{}
	for name, k := range map[string]solana.PublicKey{
		"curve": curve, "curve_v2": BondingCurveV2PDA(mint), "creator_vault": CreatorVaultPDA(user),
		"uva": UserVolumeAccumulatorPDA(user), "holder": HolderRewardsPDA(mint), "mayhem_state": MayhemStatePDA(mint),
		"mayhem_vault": MayhemTokenVault(mint), "metadata": MetadataPDA(mint),
	} {
		if solana.IsOnCurve(k[:]) {
			t.Errorf("%s %s is on the curve", name, k)
		}
		if other, dup := seen[k]; dup {
			t.Errorf("%s equals %s", name, other)
		}
		seen[k] = name
	}
	if want, _, _ := solana.FindTokenMetadataAddress(mint); MetadataPDA(mint) != want {
		t.Fatalf("metadata %s, want %s", MetadataPDA(mint), want)
	}
}

func TestBuyBytes(t *testing.T) {
	want, _ := hex.DecodeString("66063d1201daebea" + "40420f0000000000" + "3930000000000000" + "01")
	got := (&BuyArgs{Amount: 1_000_000, MaxSolCost: 12345, TrackVolume: true}).Encode()
	if !bytes.Equal(got, want) {
		t.Fatalf("buy = %x, want %x", got, want)
	}
}

func TestCreateV2Bytes(t *testing.T) {
	creator := solana.NewWallet().PublicKey()
	got := (&CreateV2Args{Name: "Nm", Symbol: "SYM", URI: "u", Creator: creator, IsMayhemMode: true}).Encode()
	if len(got) != 69 {
		t.Fatalf("create_v2 is %d bytes, want 69", len(got))
	}
	var want []byte
	want = append(want, CreateV2Discriminator[:]...)
	want = append(want, 2, 0, 0, 0, 'N', 'm', 3, 0, 0, 0, 'S', 'Y', 'M', 1, 0, 0, 0, 'u')
	want = append(want, creator[:]...)
	want = append(want, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	if !bytes.Equal(got, want) {
		t.Fatalf("create_v2 = %x, want %x", got, want)
	}
}

func TestDecodeInstruction(t *testing.T) {
	creator := solana.NewWallet().PublicKey()
	tests := []struct {
		name string
		v    interface{ Encode() []byte }
	}{
		{"buy", &BuyArgs{Amount: 7, MaxSolCost: 9, TrackVolume: true}},
		{"buy_exact_sol_in", &BuyExactSolInArgs{SpendableSolIn: 1e9, MinTokensOut: 3e12}},
		{"sell", &SellArgs{Amount: 5e12, MinSolOutput: 1}},
		{"create", &CreateArgs{Name: "Coin", Symbol: "C", URI: "https://x", Creator: creator}},
		{"create_v2", &CreateV2Args{Name: "Coin", Symbol: "C", URI: "u", Creator: creator, IsMayhemMode: true, CreatorFeeBps: 30, IsHolderReward: true}},
		{"extend_account", &ExtendAccountArgs{}},
		{"init_user_volume_accumulator", &InitUserVolumeAccumulatorArgs{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeInstruction(tt.v.Encode())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.v) {
				t.Fatalf("got %+v, want %+v", got, tt.v)
			}
		})
	}
}

func TestDecodeInstructionErrors(t *testing.T) {
	buy := (&BuyArgs{Amount: 1, MaxSolCost: 2}).Encode()
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrShortData},
		{"unknown", make([]byte, 24), ErrUnknownInstruction},
		{"truncated u64", buy[:20], ErrShortData},
		{"bad bool", append(buy[:24:24], 2), nil},
		{"huge string", append(CreateDiscriminator[:], 0xff, 0xff, 0xff, 0x7f), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeInstruction(tt.data)
			if err == nil {
				t.Fatal("decoded")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
		})
	}
}

func TestTrailingOptionsAreEOFTolerant(t *testing.T) {
	// A buy without track_volume, as clients sent it before the argument.
	var b BuyArgs
	if err := b.Decode((&BuyArgs{Amount: 3, MaxSolCost: 4, TrackVolume: true}).Encode()[:24]); err != nil {
		t.Fatal(err)
	}
	if b != (BuyArgs{Amount: 3, MaxSolCost: 4}) {
		t.Fatalf("got %+v", b)
	}
	full := (&CreateV2Args{Name: "a", Symbol: "b", URI: "c", IsMayhemMode: true, IsCashbackEnabled: true, CreatorFeeBps: 5, IsHolderReward: true}).Encode()
	for cut, want := range map[int]CreateV2Args{
		len(full) - 10: {Name: "a", Symbol: "b", URI: "c", IsMayhemMode: true},
		len(full) - 9:  {Name: "a", Symbol: "b", URI: "c", IsMayhemMode: true, IsCashbackEnabled: true},
		len(full) - 1:  {Name: "a", Symbol: "b", URI: "c", IsMayhemMode: true, IsCashbackEnabled: true, CreatorFeeBps: 5},
	} {
		var got CreateV2Args
		if err := got.Decode(full[:cut]); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if got != want {
			t.Fatalf("cut %d: got %+v, want %+v", cut, got, want)
		}
	}
}

func key(b byte) solana.PublicKey {
	var k solana.PublicKey
	for i := range k {
		k[i] = b + byte(i)
	}
	return k
}

func sampleGlobal() Global {
	g := Global{
		Initialized:                  true,
		Authority:                    key(1),
		FeeRecipient:                 key(2),
		InitialVirtualTokenReserves:  1_073_000_000_000_000,
		InitialVirtualSolReserves:    30_000_000_000,
		InitialRealTokenReserves:     793_100_000_000_000,
		TokenTotalSupply:             1_000_000_000_000_000,
		FeeBasisPoints:               95,
		WithdrawAuthority:            key(3),
		EnableMigrate:                true,
		PoolMigrationFee:             15_000_001,
		CreatorFeeBasisPoints:        30,
		SetCreatorAuthority:          key(4),
		AdminSetCreatorAuthority:     key(5),
		CreateV2Enabled:              true,
		WhitelistPDA:                 key(6),
		ReservedFeeRecipient:         key(7),
		MayhemModeEnabled:            true,
		IsCashbackEnabled:            true,
		BuybackBasisPoints:           5000,
		InitialVirtualQuoteReserves:  4_000_000_000,
		CreatorFeeConfigurable:       true,
		MaxConfigurableCreatorFeeBps: 500,
		HolderRewardClaimAuthority:   key(8),
		IsHolderRewardEnabled:        true,
	}
	for i := range g.FeeRecipients {
		g.FeeRecipients[i] = key(byte(20 + i))
		g.ReservedFeeRecipients[i] = key(byte(40 + i))
	}
	for i := range g.BuybackFeeRecipients {
		g.BuybackFeeRecipients[i] = key(byte(60 + i))
	}
	g.WhitelistedQuoteMints[0] = USDCMint
	return g
}

func sampleCurve() BondingCurve {
	return BondingCurve{
		VirtualTokenReserves: 1_073_000_000_000_000,
		VirtualQuoteReserves: 30_000_000_000,
		RealTokenReserves:    793_100_000_000_000,
		TokenTotalSupply:     1_000_000_000_000_000,
		Creator:              key(9),
		IsMayhemMode:         true,
		IsCashbackCoin:       true,
		QuoteMint:            key(10),
		CreatorFeeBps:        40,
		CanEditCreatorFee:    true,
		IsHolderReward:       true,
	}
}

func sampleFeeConfig() FeeConfig {
	return FeeConfig{
		Bump:     254,
		Admin:    key(11),
		FlatFees: Fees{LPFeeBps: 20, ProtocolFeeBps: 5, CreatorFeeBps: 0},
		FeeTiers: []FeeTier{
			{MarketCapLamportsThreshold: U128(0), Fees: Fees{0, 95, 30}},
			{MarketCapLamportsThreshold: U128(420_000_000_000), Fees: Fees{0, 90, 25}},
			{MarketCapLamportsThreshold: Uint128{Hi: 1}, Fees: Fees{0, 10, 5}},
		},
		StableFeeTiers: []FeeTier{{MarketCapLamportsThreshold: U128(1), Fees: Fees{1, 2, 3}}},
		ExoticFlatFees: Fees{4, 5, 6},
	}
}

func TestAccountRoundTrips(t *testing.T) {
	g, c, fc := sampleGlobal(), sampleCurve(), sampleFeeConfig()
	uva := UserVolumeAccumulator{User: key(12), NeedsClaim: true, TotalUnclaimedTokens: 1, TotalClaimedTokens: 2, CurrentSolVolume: 3, LastUpdateTimestamp: -4, HasTotalClaimedTokens: true, CashbackEarned: 5, TotalCashbackClaimed: 6, StableCashbackEarned: 7, TotalStableCashbackClaimed: 8}
	gva := GlobalVolumeAccumulator{StartTime: 1, EndTime: 2, SecondsInADay: 86400, Mint: key(13)}
	gva.TotalTokenSupply[29] = 9
	gva.SolVolumes[0] = 10
	tests := []struct {
		name string
		in   interface{ Encode() []byte }
		out  interface{ Decode([]byte) error }
		size int
	}{
		{"Global", &g, new(Global), GlobalSize},
		{"BondingCurve", &c, new(BondingCurve), BondingCurveAccountSize},
		{"FeeConfig", &fc, new(FeeConfig), FeeConfigSize},
		{"UserVolumeAccumulator", &uva, new(UserVolumeAccumulator), UserVolumeAccumulatorSize},
		{"GlobalVolumeAccumulator", &gva, new(GlobalVolumeAccumulator), GlobalVolumeAccumulatorSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.in.Encode()
			if len(data) != tt.size {
				t.Fatalf("encoded %d bytes, want %d", len(data), tt.size)
			}
			if err := tt.out.Decode(data); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tt.out, tt.in) {
				t.Fatalf("got %+v\nwant %+v", tt.out, tt.in)
			}
			// Another account's discriminator is refused.
			bad := append([]byte(nil), data...)
			bad[0] ^= 0xff
			if err := tt.out.Decode(bad); !errors.Is(err, ErrDiscriminator) {
				t.Fatalf("decode with a wrong discriminator: %v", err)
			}
		})
	}
}

func TestBondingCurveFieldOffsets(t *testing.T) {
	c := sampleCurve()
	data := c.Encode()
	checks := []struct {
		name string
		off  int
		want []byte
	}{
		{"complete", 48, []byte{0}},
		{"creator", 49, c.Creator[:]},
		{"is_mayhem_mode", 81, []byte{1}},
		{"is_cashback_coin", 82, []byte{1}},
		{"quote_mint", 83, c.QuoteMint[:]},
		{"creator_fee_bps", 115, []byte{40, 0, 0, 0, 0, 0, 0, 0}},
		{"can_edit_creator_fee", 123, []byte{1}},
		{"is_holder_reward", 124, []byte{1}},
	}
	for _, ck := range checks {
		if got := data[ck.off : ck.off+len(ck.want)]; !bytes.Equal(got, ck.want) {
			t.Errorf("%s at %d = %x, want %x", ck.name, ck.off, got, ck.want)
		}
	}
}

func TestShortBondingCurves(t *testing.T) {
	full := sampleCurve()
	data := full.Encode()
	tests := []struct {
		size int
		want func(c BondingCurve) BondingCurve
	}{
		{49, func(c BondingCurve) BondingCurve {
			return BondingCurve{c.VirtualTokenReserves, c.VirtualQuoteReserves, c.RealTokenReserves, c.RealQuoteReserves, c.TokenTotalSupply, c.Complete, solana.PublicKey{}, false, false, solana.PublicKey{}, 0, false, false}
		}},
		{81, func(c BondingCurve) BondingCurve {
			c.IsMayhemMode, c.IsCashbackCoin, c.QuoteMint, c.CreatorFeeBps, c.CanEditCreatorFee, c.IsHolderReward = false, false, solana.PublicKey{}, 0, false, false
			return c
		}},
		{82, func(c BondingCurve) BondingCurve {
			c.IsCashbackCoin, c.QuoteMint, c.CreatorFeeBps, c.CanEditCreatorFee, c.IsHolderReward = false, solana.PublicKey{}, 0, false, false
			return c
		}},
		{115, func(c BondingCurve) BondingCurve {
			c.CreatorFeeBps, c.CanEditCreatorFee, c.IsHolderReward = 0, false, false
			return c
		}},
		{124, func(c BondingCurve) BondingCurve { c.IsHolderReward = false; return c }},
		{125, func(c BondingCurve) BondingCurve { return c }},
		{151, func(c BondingCurve) BondingCurve { return c }},
	}
	for _, tt := range tests {
		var got BondingCurve
		if err := got.Decode(data[:tt.size]); err != nil {
			t.Fatalf("%d bytes: %v", tt.size, err)
		}
		if want := tt.want(full); got != want {
			t.Fatalf("%d bytes: got %+v, want %+v", tt.size, got, want)
		}
	}
	var c BondingCurve
	if err := c.Decode(data[:48]); !errors.Is(err, ErrShortData) {
		t.Fatalf("48 bytes: %v", err)
	}
}

func TestShortGlobal(t *testing.T) {
	g := sampleGlobal()
	data := g.Encode()
	for _, size := range []int{1045, 1054} {
		var got Global
		if err := got.Decode(data[:size]); err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		want := g
		// 1054 bytes end after max_configurable_creator_fee_bps, 1045 before
		// creator_fee_configurable.
		want.HolderRewardClaimAuthority, want.IsHolderRewardEnabled = solana.PublicKey{}, false
		if size == 1045 {
			want.CreatorFeeConfigurable, want.MaxConfigurableCreatorFeeBps = false, 0
		}
		if got != want {
			t.Fatalf("%d bytes: got %+v, want %+v", size, got, want)
		}
	}
}

func TestFeeConfigVersions(t *testing.T) {
	fc := sampleFeeConfig()
	data := fc.Encode()
	tests := []struct {
		size       int
		stable     []FeeTier
		exotic     Fees
		wantErrIs  error
		dirtyAfter bool
	}{
		{size: FeeConfigSize, stable: fc.StableFeeTiers, exotic: fc.ExoticFlatFees},
		{size: FeeConfigPostStableSize, stable: fc.StableFeeTiers},
		{size: FeeConfigMinSize, stable: nil},
		{size: FeeConfigMinSize - 1, wantErrIs: ErrShortData},
	}
	for _, tt := range tests {
		var got FeeConfig
		err := got.Decode(data[:tt.size])
		if tt.wantErrIs != nil {
			if !errors.Is(err, tt.wantErrIs) {
				t.Fatalf("%d bytes: %v", tt.size, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d bytes: %v", tt.size, err)
		}
		if !reflect.DeepEqual(got.FeeTiers, fc.FeeTiers) || !reflect.DeepEqual(got.StableFeeTiers, tt.stable) || got.ExoticFlatFees != tt.exotic {
			t.Fatalf("%d bytes: got %+v", tt.size, got)
		}
	}
	// A tier count the program could never write is refused, not allocated.
	bad := append([]byte(nil), data...)
	bad[65], bad[66] = 0xff, 0xff
	var got FeeConfig
	if err := got.Decode(bad); err == nil {
		t.Fatal("decoded 65535 tiers")
	}
}

func TestBuilders(t *testing.T) {
	p := TradeParams{
		Mint: key(100), User: key(101), Creator: key(102), TokenProgram: Token2022ProgramID,
		FeeRecipient: key(103), BuybackFeeRecipient: key(104),
	}
	type meta struct {
		key     solana.PublicKey
		w, sign bool
	}
	curve := BondingCurvePDA(p.Mint)
	userATA := AssociatedTokenAddress(p.User, p.Mint, p.TokenProgram)
	curveATA := AssociatedTokenAddress(curve, p.Mint, p.TokenProgram)
	wantBuy := []meta{
		{GlobalPDA, false, false}, {p.FeeRecipient, true, false}, {p.Mint, false, false},
		{curve, true, false}, {curveATA, true, false}, {userATA, true, false}, {p.User, true, true},
		{SystemProgramID, false, false}, {p.TokenProgram, false, false}, {CreatorVaultPDA(p.Creator), true, false},
		{EventAuthorityPDA, false, false}, {ProgramID, false, false}, {GlobalVolumeAccumulatorPDA, false, false},
		{UserVolumeAccumulatorPDA(p.User), true, false}, {FeeConfigPDA, false, false}, {FeeProgramID, false, false},
		{BondingCurveV2PDA(p.Mint), false, false}, {p.BuybackFeeRecipient, true, false},
	}
	sellHead := []meta{
		{GlobalPDA, false, false}, {p.FeeRecipient, true, false}, {p.Mint, false, false},
		{curve, true, false}, {curveATA, true, false}, {userATA, true, false}, {p.User, true, true},
		{SystemProgramID, false, false}, {CreatorVaultPDA(p.Creator), true, false}, {p.TokenProgram, false, false},
		{EventAuthorityPDA, false, false}, {ProgramID, false, false}, {FeeConfigPDA, false, false}, {FeeProgramID, false, false},
	}
	tail := []meta{{BondingCurveV2PDA(p.Mint), false, false}, {p.BuybackFeeRecipient, true, false}}
	wantSell := append(append([]meta{}, sellHead...), tail...)
	wantSellCashback := append(append(append([]meta{}, sellHead...), meta{UserVolumeAccumulatorPDA(p.User), true, false}), tail...)

	buyAcc := NewBuyAccounts(p)
	sellAcc := NewSellAccounts(p, false)
	cashAcc := NewSellAccounts(p, true)
	tests := []struct {
		name string
		ix   *solana.GenericInstruction
		want []meta
		data []byte
	}{
		{"buy", BuyInstruction(&buyAcc, BuyArgs{Amount: 1, MaxSolCost: 2, TrackVolume: true}), wantBuy, (&BuyArgs{1, 2, true, false}).Encode()},
		{"buy_exact_sol_in", BuyExactSolInInstruction(&buyAcc, BuyExactSolInArgs{3, 4, false, false}), wantBuy, (&BuyExactSolInArgs{3, 4, false, false}).Encode()},
		{"buy_exact_sol_in, partial fill", BuyExactSolInInstruction(&buyAcc, BuyExactSolInArgs{3, 4, true, true}), wantBuy, append((&BuyExactSolInArgs{3, 4, true, false}).Encode(), 1)},
		{"sell", SellInstruction(&sellAcc, SellArgs{5, 6}), wantSell, (&SellArgs{5, 6}).Encode()},
		{"sell cashback", SellInstruction(&cashAcc, SellArgs{5, 6}), wantSellCashback, (&SellArgs{5, 6}).Encode()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ix.ProgramID() != ProgramID {
				t.Fatalf("program %s", tt.ix.ProgramID())
			}
			if !bytes.Equal(tt.ix.DataBytes, tt.data) {
				t.Fatalf("data %x, want %x", tt.ix.DataBytes, tt.data)
			}
			got := tt.ix.Accounts()
			if len(got) != len(tt.want) {
				t.Fatalf("%d accounts, want %d", len(got), len(tt.want))
			}
			for i, m := range got {
				if (meta{m.PublicKey, m.IsWritable, m.IsSigner}) != tt.want[i] {
					t.Errorf("account %d = %s w=%v s=%v, want %+v", i, m.PublicKey, m.IsWritable, m.IsSigner, tt.want[i])
				}
			}
		})
	}

	keys := func(ms solana.AccountMetaSlice) []solana.PublicKey {
		out := make([]solana.PublicKey, len(ms))
		for i, m := range ms {
			out[i] = m.PublicKey
		}
		return out
	}
	if got, err := ParseBuyAccounts(keys(buyAcc.Metas())); err != nil || got != buyAcc {
		t.Fatalf("parse buy: %+v, %v", got, err)
	}
	if got, err := ParseSellAccounts(keys(cashAcc.Metas()), true); err != nil || got != cashAcc {
		t.Fatalf("parse cashback sell: %+v, %v", got, err)
	}
	if got, err := ParseSellAccounts(keys(sellAcc.Metas()), false); err != nil || got != sellAcc {
		t.Fatalf("parse sell: %+v, %v", got, err)
	}
	if _, err := ParseBuyAccounts(keys(buyAcc.Metas())[:15]); err == nil {
		t.Fatal("parsed a buy with 15 accounts")
	}
	cv2 := NewCreateV2Accounts(p.Mint, p.User)
	if got, err := ParseCreateV2Accounts(keys(cv2.Metas())); err != nil || got != cv2 {
		t.Fatalf("parse create_v2: %+v, %v", got, err)
	}
	if m := cv2.Metas(); len(m) != 16 || !m[0].IsSigner || !m[5].IsSigner || !m[9].IsWritable || m[7].PublicKey != Token2022ProgramID {
		t.Fatalf("create_v2 metas: %v", m)
	}
	cr := NewCreateAccounts(p.Mint, p.User)
	if got, err := ParseCreateAccounts(keys(cr.Metas())); err != nil || got != cr {
		t.Fatalf("parse create: %+v, %v", got, err)
	}
	ext := NewExtendAccountAccounts(curve, p.User)
	ix := ExtendAccountInstruction(&ext)
	if got, err := ParseExtendAccountAccounts(keys(ix.AccountValues)); err != nil || got != ext || !bytes.Equal(ix.DataBytes, ExtendAccountDiscriminator[:]) {
		t.Fatalf("extend_account: %+v, %v", got, err)
	}
}

func TestProgramErrors(t *testing.T) {
	if len(ProgramErrors) != 94 {
		t.Fatalf("%d errors, want 94", len(ProgramErrors))
	}
	for i, e := range ProgramErrors {
		if e.Code != uint32(6000+i) {
			t.Fatalf("error %d has code %d", i, e.Code)
		}
		if got, ok := ProgramErrorByCode(e.Code); !ok || got != e {
			t.Fatalf("lookup %d", e.Code)
		}
	}
	tests := []struct {
		err  *anchor.ProgramError
		code uint32
		name string
	}{
		{ErrTooMuchSolRequired, 6002, "TooMuchSolRequired"},
		{ErrTooLittleSolReceived, 6003, "TooLittleSolReceived"},
		{ErrBondingCurveComplete, 6005, "BondingCurveComplete"},
		{ErrBuySlippageBelowMinTokensOut, 6042, "BuySlippageBelowMinTokensOut"},
		{ErrInvalidBondingCurveV2, 6074, "InvalidBondingCurveV2"},
		{ErrCashbackDeprecated, 6082, "CashbackDeprecated"},
	}
	for _, tt := range tests {
		if tt.err.Code != tt.code || tt.err.Name != tt.name {
			t.Errorf("%+v, want %d %s", tt.err, tt.code, tt.name)
		}
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{ErrTooMuchSolRequired, "pump error 6002 TooMuchSolRequired: slippage: Too much SOL required to buy the given amount of tokens."},
		{ErrStartTimeInThePast, "pump error 6031 StartTimeInThePast"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
	decoded, _ := ProgramErrorByCode(6002)
	if !errors.Is(error(&anchor.ProgramError{Program: "pump", Code: 6002}), decoded) {
		t.Fatal("errors.Is does not match by code")
	}
}

// TestPartialFillTrailing: partial_fill is a trailing OptionBool, left off
// the data when false (the instruction is then byte for byte the SDK's)
// and read as false when absent.
func TestPartialFillTrailing(t *testing.T) {
	plain := (&BuyExactSolInArgs{SpendableSolIn: 3, MinTokensOut: 4, TrackVolume: true}).Encode()
	partial := (&BuyExactSolInArgs{SpendableSolIn: 3, MinTokensOut: 4, TrackVolume: true, PartialFill: true}).Encode()
	if len(plain) != 25 || len(partial) != 26 || partial[25] != 1 {
		t.Fatalf("data %x and %x", plain, partial)
	}
	for data, want := range map[string]bool{string(plain): false, string(partial): true} {
		var a BuyExactSolInArgs
		if err := a.Decode([]byte(data)); err != nil || a.PartialFill != want || !a.TrackVolume {
			t.Fatalf("decode %x: %+v %v", data, a, err)
		}
		var b BuyArgs
		bd := append((&BuyArgs{Amount: 1, MaxSolCost: 2, TrackVolume: true}).Encode(), []byte(data)[25:]...)
		if err := b.Decode(bd); err != nil || b.PartialFill != want {
			t.Fatalf("decode buy %x: %+v %v", bd, b, err)
		}
	}
}
