package pumpswap

import (
	"math/big"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Discriminator is the 8-byte Anchor prefix of an instruction, an account or
// an event; the same type as pumpfun's.
type Discriminator = pumpfun.Discriminator

// ErrShortData is wrapped by every decoder when the bytes end inside a field.
var ErrShortData = anchor.ErrShortData

// ErrDiscriminator is wrapped by every decoder when the leading 8 bytes name
// another type.
var ErrDiscriminator = anchor.ErrDiscriminator

// The package's Borsh encoder and decoder are the shared Anchor ones.
type (
	encoder = anchor.Encoder
	decoder = anchor.Decoder
)

func padded(data []byte, n int) []byte { return anchor.Padded(data, n) }

// putI128 appends an Int128 (little-endian, low word first).
func putI128(e *encoder, v Int128) {
	e.U64(v.Lo)
	e.U64(uint64(v.Hi))
}

// getI128 reads an Int128.
func getI128(d *decoder) Int128 {
	lo := d.U64()
	hi := d.U64()
	return Int128{Lo: lo, Hi: int64(hi)}
}

// Int128 is a signed 128-bit integer in two's complement, the type of
// Pool.virtual_quote_reserves.
type Int128 struct {
	Lo uint64
	Hi int64
}

// I128 returns v as an Int128.
func I128(v int64) Int128 {
	hi := int64(0)
	if v < 0 {
		hi = -1
	}
	return Int128{Lo: uint64(v), Hi: hi}
}

// IsZero reports whether v is zero.
func (v Int128) IsZero() bool { return v.Lo == 0 && v.Hi == 0 }

// Big returns v as a big.Int.
func (v Int128) Big() *big.Int {
	out := new(big.Int).SetInt64(v.Hi)
	out.Lsh(out, 64)
	return out.Add(out, new(big.Int).SetUint64(v.Lo))
}

// String returns v in decimal.
func (v Int128) String() string { return v.Big().String() }

// Int128FromBig returns v as an Int128; ok is false when it does not fit.
func Int128FromBig(v *big.Int) (Int128, bool) {
	limit := new(big.Int).Lsh(big.NewInt(1), 127)
	if v.Cmp(limit) >= 0 || v.Cmp(new(big.Int).Neg(limit)) < 0 {
		return Int128{}, false
	}
	m := new(big.Int).Lsh(big.NewInt(1), 128)
	u := new(big.Int).Set(v)
	if u.Sign() < 0 {
		u.Add(u, m)
	}
	lo := new(big.Int).And(u, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(u, 64).Uint64()
	return Int128{Lo: lo, Hi: int64(hi)}, true
}
