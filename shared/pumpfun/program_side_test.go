package pumpfun

import (
	"crypto/sha256"
	"reflect"
	"testing"
)

func TestEventCPITag(t *testing.T) {
	// Anchor's EVENT_IX_TAG is sha256("anchor:event")[:8] as a big-endian
	// u64, written little-endian.
	h := sha256.Sum256([]byte("anchor:event"))
	for i := range 8 {
		if EventCPITag[i] != h[7-i] {
			t.Fatalf("EventCPITag %x, hash %x", EventCPITag[:], h[:8])
		}
	}
}

func TestTradeEventRoundTrip(t *testing.T) {
	ev := TradeEvent{
		Mint: key(1), SolAmount: 2, TokenAmount: 3, IsBuy: true, User: key(4), Timestamp: -5,
		VirtualSolReserves: 6, VirtualTokenReserves: 7, RealSolReserves: 8, RealTokenReserves: 9,
		FeeRecipient: key(10), FeeBasisPoints: 95, Fee: 11, Creator: key(12), CreatorFeeBasisPoints: 30,
		CreatorFee: 13, TrackVolume: true, TotalUnclaimedTokens: 14, TotalClaimedTokens: 15,
		CurrentSolVolume: 16, LastUpdateTimestamp: 17, IxName: "buy_exact_sol_in", MayhemMode: true,
		CashbackFeeBasisPoints: 18, Cashback: 19, BuybackFeeBasisPoints: 20, BuybackFee: 21,
		Shareholders: []Shareholder{{key(22), 5000}, {key(23), 5000}}, QuoteMint: key(24),
		QuoteAmount: 25, VirtualQuoteReserves: 26, RealQuoteReserves: 27, HolderRewardsBps: 28, HolderRewards: 29,
	}
	data := ev.Encode()
	var got TradeEvent
	if err := got.Decode(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ev) {
		t.Fatalf("got %+v\nwant %+v", got, ev)
	}
	// An event from before the volume fields ends after creator_fee.
	var short TradeEvent
	if err := short.Decode(data[:8+32+8+8+1+32+8+8*4+32+8+8+32+8+8]); err != nil {
		t.Fatal(err)
	}
	if short.CreatorFee != 13 || short.IxName != "" || short.TrackVolume {
		t.Fatalf("short event %+v", short)
	}
}

func TestBuybackSplit(t *testing.T) {
	tests := []struct{ fee, bps, buyback, rest uint64 }{
		{1000, 5000, 500, 500},
		{999, 5000, 499, 500},
		{1000, 0, 0, 1000},
		{1000, 20_000, 1000, 0},
	}
	for _, tt := range tests {
		if b, r := BuybackSplit(tt.fee, tt.bps); b != tt.buyback || r != tt.rest {
			t.Errorf("BuybackSplit(%d, %d) = %d, %d; want %d, %d", tt.fee, tt.bps, b, r, tt.buyback, tt.rest)
		}
	}
}
