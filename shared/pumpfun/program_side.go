package pumpfun

import (
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// This file holds what the program side needs beyond the client side: the
// events the trade and create instructions emit, and how the protocol fee is
// split with the buyback recipient.

// EventCPITag prefixes the data of Anchor's event self-invocation: the
// little-endian bytes of the u64 0x1d9acb512ea545e4, which is
// sha256("anchor:event")[:8] read big-endian.
var EventCPITag = Discriminator{0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d}

// BuybackSplit splits a protocol fee between the buyback fee recipient
// (buybackBps of it, rounded down) and the fee recipient (the rest). The
// buyer or seller pays the protocol fee once; the split only decides where
// it goes.
func BuybackSplit(protocolFee, buybackBps uint64) (buyback, feeRecipient uint64) {
	if buybackBps > BasisPoints {
		buybackBps = BasisPoints
	}
	buyback, _ = mulDiv(protocolFee, buybackBps, BasisPoints)
	return buyback, protocolFee - buyback
}

// Shareholder is one entry of TradeEvent.Shareholders.
type Shareholder struct {
	Address  solana.PublicKey
	ShareBps uint16
}

// TradeEvent is emitted by buy, buy_exact_sol_in and sell.
type TradeEvent struct {
	Mint                   solana.PublicKey
	SolAmount              uint64
	TokenAmount            uint64
	IsBuy                  bool
	User                   solana.PublicKey
	Timestamp              int64
	VirtualSolReserves     uint64
	VirtualTokenReserves   uint64
	RealSolReserves        uint64
	RealTokenReserves      uint64
	FeeRecipient           solana.PublicKey
	FeeBasisPoints         uint64
	Fee                    uint64
	Creator                solana.PublicKey
	CreatorFeeBasisPoints  uint64
	CreatorFee             uint64
	TrackVolume            bool
	TotalUnclaimedTokens   uint64
	TotalClaimedTokens     uint64
	CurrentSolVolume       uint64
	LastUpdateTimestamp    int64
	IxName                 string // "buy", "sell" or "buy_exact_sol_in"
	MayhemMode             bool
	CashbackFeeBasisPoints uint64
	Cashback               uint64
	BuybackFeeBasisPoints  uint64
	BuybackFee             uint64
	Shareholders           []Shareholder
	QuoteMint              solana.PublicKey
	QuoteAmount            uint64
	VirtualQuoteReserves   uint64
	RealQuoteReserves      uint64
	HolderRewardsBps       uint64
	HolderRewards          uint64
}

// Encode returns the event with its discriminator, as it appears after
// "Program data: " in the logs and after EventCPITag in the self-invocation.
func (t *TradeEvent) Encode() []byte {
	e := encoder{B: make([]byte, 0, 400)}
	e.Disc(TradeEventDiscriminator)
	e.Key(t.Mint)
	e.U64(t.SolAmount)
	e.U64(t.TokenAmount)
	e.Bool(t.IsBuy)
	e.Key(t.User)
	e.I64(t.Timestamp)
	e.U64(t.VirtualSolReserves)
	e.U64(t.VirtualTokenReserves)
	e.U64(t.RealSolReserves)
	e.U64(t.RealTokenReserves)
	e.Key(t.FeeRecipient)
	e.U64(t.FeeBasisPoints)
	e.U64(t.Fee)
	e.Key(t.Creator)
	e.U64(t.CreatorFeeBasisPoints)
	e.U64(t.CreatorFee)
	e.Bool(t.TrackVolume)
	e.U64(t.TotalUnclaimedTokens)
	e.U64(t.TotalClaimedTokens)
	e.U64(t.CurrentSolVolume)
	e.I64(t.LastUpdateTimestamp)
	e.Str(t.IxName)
	e.Bool(t.MayhemMode)
	e.U64(t.CashbackFeeBasisPoints)
	e.U64(t.Cashback)
	e.U64(t.BuybackFeeBasisPoints)
	e.U64(t.BuybackFee)
	e.U32(uint32(len(t.Shareholders)))
	for _, s := range t.Shareholders {
		e.Key(s.Address)
		e.B = append(e.B, byte(s.ShareBps), byte(s.ShareBps>>8))
	}
	e.Key(t.QuoteMint)
	e.U64(t.QuoteAmount)
	e.U64(t.VirtualQuoteReserves)
	e.U64(t.RealQuoteReserves)
	e.U64(t.HolderRewardsBps)
	e.U64(t.HolderRewards)
	return e.B
}

// Decode reads a TradeEvent (discriminator included). Events written before
// a field existed end early; the missing trailing fields read as zero.
func (t *TradeEvent) Decode(data []byte) error {
	d := decoder{B: data}
	d.Disc(TradeEventDiscriminator, "TradeEvent")
	t.Mint = d.Key()
	t.SolAmount = d.U64()
	t.TokenAmount = d.U64()
	t.IsBuy = d.Bool()
	t.User = d.Key()
	t.Timestamp = d.I64()
	t.VirtualSolReserves = d.U64()
	t.VirtualTokenReserves = d.U64()
	t.RealSolReserves = d.U64()
	t.RealTokenReserves = d.U64()
	t.FeeRecipient = d.Key()
	t.FeeBasisPoints = d.U64()
	t.Fee = d.U64()
	t.Creator = d.Key()
	t.CreatorFeeBasisPoints = d.U64()
	t.CreatorFee = d.U64()
	if d.Err != nil {
		return fmt.Errorf("decode TradeEvent: %w", d.Err)
	}
	if d.Off == len(d.B) {
		return nil
	}
	t.TrackVolume = d.Bool()
	t.TotalUnclaimedTokens = d.U64()
	t.TotalClaimedTokens = d.U64()
	t.CurrentSolVolume = d.U64()
	t.LastUpdateTimestamp = d.I64()
	t.IxName = d.Str()
	if d.Err != nil || d.Off == len(d.B) {
		return wrapDecode("TradeEvent", d.Err)
	}
	t.MayhemMode = d.Bool()
	t.CashbackFeeBasisPoints = d.U64()
	t.Cashback = d.U64()
	t.BuybackFeeBasisPoints = d.U64()
	t.BuybackFee = d.U64()
	n := d.U32()
	if d.Err == nil && uint64(n)*34 > uint64(len(d.B)-d.Off) {
		return fmt.Errorf("decode TradeEvent: %w: %d shareholders", ErrShortData, n)
	}
	t.Shareholders = nil
	for i := uint32(0); i < n && d.Err == nil; i++ {
		k := d.Key()
		b := d.Take(2)
		if b != nil {
			t.Shareholders = append(t.Shareholders, Shareholder{Address: k, ShareBps: uint16(b[0]) | uint16(b[1])<<8})
		}
	}
	t.QuoteMint = d.Key()
	t.QuoteAmount = d.U64()
	t.VirtualQuoteReserves = d.U64()
	t.RealQuoteReserves = d.U64()
	t.HolderRewardsBps = d.U64()
	t.HolderRewards = d.U64()
	return wrapDecode("TradeEvent", d.Err)
}

// CreateEvent is emitted by create and create_v2.
type CreateEvent struct {
	Name                 string
	Symbol               string
	URI                  string
	Mint                 solana.PublicKey
	BondingCurve         solana.PublicKey
	User                 solana.PublicKey
	Creator              solana.PublicKey
	Timestamp            int64
	VirtualTokenReserves uint64
	VirtualSolReserves   uint64
	RealTokenReserves    uint64
	TokenTotalSupply     uint64
	TokenProgram         solana.PublicKey
	IsMayhemMode         bool
	IsCashbackEnabled    bool
	QuoteMint            solana.PublicKey
	VirtualQuoteReserves uint64
	CreatorFeeBps        uint64
	IsHolderReward       bool
}

// Encode returns the event with its discriminator.
func (c *CreateEvent) Encode() []byte {
	e := encoder{B: make([]byte, 0, 300+len(c.Name)+len(c.Symbol)+len(c.URI))}
	e.Disc(CreateEventDiscriminator)
	e.Str(c.Name)
	e.Str(c.Symbol)
	e.Str(c.URI)
	e.Key(c.Mint)
	e.Key(c.BondingCurve)
	e.Key(c.User)
	e.Key(c.Creator)
	e.I64(c.Timestamp)
	e.U64(c.VirtualTokenReserves)
	e.U64(c.VirtualSolReserves)
	e.U64(c.RealTokenReserves)
	e.U64(c.TokenTotalSupply)
	e.Key(c.TokenProgram)
	e.Bool(c.IsMayhemMode)
	e.Bool(c.IsCashbackEnabled)
	e.Key(c.QuoteMint)
	e.U64(c.VirtualQuoteReserves)
	e.U64(c.CreatorFeeBps)
	e.Bool(c.IsHolderReward)
	return e.B
}

// CompleteEvent is emitted when a trade takes a curve's last real token.
type CompleteEvent struct {
	User         solana.PublicKey
	Mint         solana.PublicKey
	BondingCurve solana.PublicKey
	Timestamp    int64
	QuoteMint    solana.PublicKey
}

// Encode returns the event with its discriminator.
func (c *CompleteEvent) Encode() []byte {
	e := encoder{B: make([]byte, 0, 8+32*4+8)}
	e.Disc(CompleteEventDiscriminator)
	e.Key(c.User)
	e.Key(c.Mint)
	e.Key(c.BondingCurve)
	e.I64(c.Timestamp)
	e.Key(c.QuoteMint)
	return e.B
}
