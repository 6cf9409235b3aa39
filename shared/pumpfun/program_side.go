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
	e := encoder{b: make([]byte, 0, 400)}
	e.disc(TradeEventDiscriminator)
	e.key(t.Mint)
	e.u64(t.SolAmount)
	e.u64(t.TokenAmount)
	e.boolean(t.IsBuy)
	e.key(t.User)
	e.i64(t.Timestamp)
	e.u64(t.VirtualSolReserves)
	e.u64(t.VirtualTokenReserves)
	e.u64(t.RealSolReserves)
	e.u64(t.RealTokenReserves)
	e.key(t.FeeRecipient)
	e.u64(t.FeeBasisPoints)
	e.u64(t.Fee)
	e.key(t.Creator)
	e.u64(t.CreatorFeeBasisPoints)
	e.u64(t.CreatorFee)
	e.boolean(t.TrackVolume)
	e.u64(t.TotalUnclaimedTokens)
	e.u64(t.TotalClaimedTokens)
	e.u64(t.CurrentSolVolume)
	e.i64(t.LastUpdateTimestamp)
	e.str(t.IxName)
	e.boolean(t.MayhemMode)
	e.u64(t.CashbackFeeBasisPoints)
	e.u64(t.Cashback)
	e.u64(t.BuybackFeeBasisPoints)
	e.u64(t.BuybackFee)
	e.u32(uint32(len(t.Shareholders)))
	for _, s := range t.Shareholders {
		e.key(s.Address)
		e.b = append(e.b, byte(s.ShareBps), byte(s.ShareBps>>8))
	}
	e.key(t.QuoteMint)
	e.u64(t.QuoteAmount)
	e.u64(t.VirtualQuoteReserves)
	e.u64(t.RealQuoteReserves)
	e.u64(t.HolderRewardsBps)
	e.u64(t.HolderRewards)
	return e.b
}

// Decode reads a TradeEvent (discriminator included). Events written before
// a field existed end early; the missing trailing fields read as zero.
func (t *TradeEvent) Decode(data []byte) error {
	d := decoder{b: data}
	d.disc(TradeEventDiscriminator, "TradeEvent")
	t.Mint = d.key()
	t.SolAmount = d.u64()
	t.TokenAmount = d.u64()
	t.IsBuy = d.boolean()
	t.User = d.key()
	t.Timestamp = d.i64()
	t.VirtualSolReserves = d.u64()
	t.VirtualTokenReserves = d.u64()
	t.RealSolReserves = d.u64()
	t.RealTokenReserves = d.u64()
	t.FeeRecipient = d.key()
	t.FeeBasisPoints = d.u64()
	t.Fee = d.u64()
	t.Creator = d.key()
	t.CreatorFeeBasisPoints = d.u64()
	t.CreatorFee = d.u64()
	if d.err != nil {
		return fmt.Errorf("decode TradeEvent: %w", d.err)
	}
	if d.off == len(d.b) {
		return nil
	}
	t.TrackVolume = d.boolean()
	t.TotalUnclaimedTokens = d.u64()
	t.TotalClaimedTokens = d.u64()
	t.CurrentSolVolume = d.u64()
	t.LastUpdateTimestamp = d.i64()
	t.IxName = d.str()
	if d.err != nil || d.off == len(d.b) {
		return wrapDecode("TradeEvent", d.err)
	}
	t.MayhemMode = d.boolean()
	t.CashbackFeeBasisPoints = d.u64()
	t.Cashback = d.u64()
	t.BuybackFeeBasisPoints = d.u64()
	t.BuybackFee = d.u64()
	n := d.u32()
	if d.err == nil && uint64(n)*34 > uint64(len(d.b)-d.off) {
		return fmt.Errorf("decode TradeEvent: %w: %d shareholders", ErrShortData, n)
	}
	t.Shareholders = nil
	for i := uint32(0); i < n && d.err == nil; i++ {
		k := d.key()
		b := d.take(2)
		if b != nil {
			t.Shareholders = append(t.Shareholders, Shareholder{Address: k, ShareBps: uint16(b[0]) | uint16(b[1])<<8})
		}
	}
	t.QuoteMint = d.key()
	t.QuoteAmount = d.u64()
	t.VirtualQuoteReserves = d.u64()
	t.RealQuoteReserves = d.u64()
	t.HolderRewardsBps = d.u64()
	t.HolderRewards = d.u64()
	return wrapDecode("TradeEvent", d.err)
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
	e := encoder{b: make([]byte, 0, 300+len(c.Name)+len(c.Symbol)+len(c.URI))}
	e.disc(CreateEventDiscriminator)
	e.str(c.Name)
	e.str(c.Symbol)
	e.str(c.URI)
	e.key(c.Mint)
	e.key(c.BondingCurve)
	e.key(c.User)
	e.key(c.Creator)
	e.i64(c.Timestamp)
	e.u64(c.VirtualTokenReserves)
	e.u64(c.VirtualSolReserves)
	e.u64(c.RealTokenReserves)
	e.u64(c.TokenTotalSupply)
	e.key(c.TokenProgram)
	e.boolean(c.IsMayhemMode)
	e.boolean(c.IsCashbackEnabled)
	e.key(c.QuoteMint)
	e.u64(c.VirtualQuoteReserves)
	e.u64(c.CreatorFeeBps)
	e.boolean(c.IsHolderReward)
	return e.b
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
	e := encoder{b: make([]byte, 0, 8+32*4+8)}
	e.disc(CompleteEventDiscriminator)
	e.key(c.User)
	e.key(c.Mint)
	e.key(c.BondingCurve)
	e.i64(c.Timestamp)
	e.key(c.QuoteMint)
	return e.b
}
