package pumpswap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// Discriminator is the 8-byte Anchor prefix of an instruction, an account or
// an event; the same type as pumpfun's.
type Discriminator = pumpfun.Discriminator

// ErrShortData is wrapped by every decoder when the bytes end inside a field.
var ErrShortData = errors.New("pumpswap: data too short")

// ErrDiscriminator is wrapped by every decoder when the leading 8 bytes name
// another type.
var ErrDiscriminator = errors.New("pumpswap: wrong discriminator")

// maxStringLen bounds a decoded Borsh string; a transaction is at most 1232
// bytes and an event no longer than a log line.
const maxStringLen = 1232

// encoder appends Borsh values to a byte slice.
type encoder struct{ b []byte }

func (e *encoder) disc(d Discriminator) { e.b = append(e.b, d[:]...) }
func (e *encoder) u8(v uint8)           { e.b = append(e.b, v) }
func (e *encoder) u16(v uint16)         { e.b = binary.LittleEndian.AppendUint16(e.b, v) }
func (e *encoder) u32(v uint32)         { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64)         { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) i64(v int64)          { e.u64(uint64(v)) }
func (e *encoder) i128(v Int128) {
	e.u64(v.Lo)
	e.u64(uint64(v.Hi))
}
func (e *encoder) key(k solana.PublicKey) { e.b = append(e.b, k[:]...) }
func (e *encoder) str(s string) {
	e.u32(uint32(len(s)))
	e.b = append(e.b, s...)
}
func (e *encoder) boolean(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

// pad grows the output with zeros up to n bytes.
func (e *encoder) pad(n int) {
	if len(e.b) < n {
		e.b = append(e.b, make([]byte, n-len(e.b))...)
	}
}

// decoder reads Borsh values; the first error sticks and later reads return
// zero values, so a caller checks err once at the end.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || len(d.b)-d.off < n {
		d.err = fmt.Errorf("%w: need %d bytes at offset %d of %d", ErrShortData, n, d.off, len(d.b))
		return nil
	}
	s := d.b[d.off : d.off+n]
	d.off += n
	return s
}

func (d *decoder) disc(want Discriminator, what string) {
	s := d.take(8)
	if s != nil && [8]byte(s) != want {
		d.err = fmt.Errorf("%w: %s is %x, got %x", ErrDiscriminator, what, want[:], s)
	}
}

func (d *decoder) u8() uint8 {
	if s := d.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if s := d.take(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if s := d.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if s := d.take(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

func (d *decoder) i64() int64 { return int64(d.u64()) }

func (d *decoder) i128() Int128 {
	lo := d.u64()
	hi := d.u64()
	return Int128{Lo: lo, Hi: int64(hi)}
}

// boolean reads a Borsh bool; Borsh admits only 0 and 1.
func (d *decoder) boolean() bool {
	off := d.off
	v := d.u8()
	if d.err == nil && v > 1 {
		d.err = fmt.Errorf("pumpswap: invalid bool %d at offset %d", v, off)
	}
	return v == 1
}

// optBool reads a trailing OptionBool (a one-byte tuple struct, not a Borsh
// Option), false at the end of the data: the program reads the trailing
// arguments EOF-tolerant.
func (d *decoder) optBool() bool {
	if d.err == nil && d.off == len(d.b) {
		return false
	}
	return d.boolean()
}

// optU64 reads a trailing OptionU64, zero at the end of the data.
func (d *decoder) optU64() uint64 {
	if d.err == nil && d.off == len(d.b) {
		return 0
	}
	return d.u64()
}

func (d *decoder) key() solana.PublicKey {
	var k solana.PublicKey
	if s := d.take(32); s != nil {
		copy(k[:], s)
	}
	return k
}

func (d *decoder) str() string {
	n := d.u32()
	if d.err == nil && n > maxStringLen {
		d.err = fmt.Errorf("pumpswap: string of %d bytes at offset %d exceeds %d", n, d.off-4, maxStringLen)
		return ""
	}
	return string(d.take(int(n)))
}

// padded returns data zero-extended to n bytes (data itself when longer),
// the way the program reads an account written under an older layout.
func padded(data []byte, n int) []byte {
	if len(data) >= n {
		return data
	}
	out := make([]byte, n)
	copy(out, data)
	return out
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
