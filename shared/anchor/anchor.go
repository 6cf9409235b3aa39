// Package anchor is the interface of Anchor programs as a client and the
// local chain see it: the 8-byte discriminators of instructions, accounts
// and events, a Borsh encoder and decoder for their fields, the ordered
// account list of an instruction (Access, Metas, AssignAccounts), program
// derived addresses (FindPDA) and the programs' custom errors
// (ProgramError). The pump.fun, PumpSwap, LaunchLab and DBC packages build
// on it.
//
// The account lists, addresses and errors live here rather than in a
// package of their own because they are the rest of the same interface:
// every package that encodes an Anchor instruction also lists its accounts,
// derives its PDAs and decodes its errors, and none of them needs one of
// these without the others.
package anchor

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// Discriminator is the 8-byte Anchor prefix of an instruction, an account or
// an event.
type Discriminator [8]byte

// String returns d in hex.
func (d Discriminator) String() string { return fmt.Sprintf("%x", d[:]) }

// InstructionDiscriminator returns sha256("global:<name>")[:8].
func InstructionDiscriminator(name string) Discriminator { return sighash("global:" + name) }

// AccountDiscriminator returns sha256("account:<Name>")[:8].
func AccountDiscriminator(name string) Discriminator { return sighash("account:" + name) }

// EventDiscriminator returns sha256("event:<Name>")[:8].
func EventDiscriminator(name string) Discriminator { return sighash("event:" + name) }

func sighash(s string) Discriminator {
	h := sha256.Sum256([]byte(s))
	var d Discriminator
	copy(d[:], h[:8])
	return d
}

// ErrShortData is wrapped by every decoder when the bytes end inside a field.
var ErrShortData = errors.New("anchor: data too short")

// ErrDiscriminator is wrapped by every decoder when the leading 8 bytes name
// another type.
var ErrDiscriminator = errors.New("anchor: wrong discriminator")

// MaxStringLen bounds a decoded Borsh string so a corrupt length cannot make
// a decoder allocate without limit; a transaction is at most 1232 bytes.
const MaxStringLen = 1232

// Encoder appends Borsh values to B.
type Encoder struct{ B []byte }

// Disc appends a discriminator.
func (e *Encoder) Disc(d Discriminator) { e.B = append(e.B, d[:]...) }

// U8 appends a u8.
func (e *Encoder) U8(v uint8) { e.B = append(e.B, v) }

// U16 appends a little-endian u16.
func (e *Encoder) U16(v uint16) { e.B = binary.LittleEndian.AppendUint16(e.B, v) }

// U32 appends a little-endian u32.
func (e *Encoder) U32(v uint32) { e.B = binary.LittleEndian.AppendUint32(e.B, v) }

// U64 appends a little-endian u64.
func (e *Encoder) U64(v uint64) { e.B = binary.LittleEndian.AppendUint64(e.B, v) }

// I64 appends a little-endian i64.
func (e *Encoder) I64(v int64) { e.U64(uint64(v)) }

// Key appends a public key.
func (e *Encoder) Key(k solana.PublicKey) { e.B = append(e.B, k[:]...) }

// Str appends a Borsh string: a u32 length and the bytes.
func (e *Encoder) Str(s string) {
	e.U32(uint32(len(s)))
	e.B = append(e.B, s...)
}

// Bool appends a Borsh bool.
func (e *Encoder) Bool(v bool) {
	if v {
		e.U8(1)
	} else {
		e.U8(0)
	}
}

// Pad grows the output with zeros up to n bytes.
func (e *Encoder) Pad(n int) {
	if len(e.B) < n {
		e.B = append(e.B, make([]byte, n-len(e.B))...)
	}
}

// Decoder reads Borsh values from B at Off; the first error sticks in Err
// and later reads return zero values, so a caller checks Err once at the end.
type Decoder struct {
	B   []byte
	Off int
	Err error
}

// Take returns the next n bytes.
func (d *Decoder) Take(n int) []byte {
	if d.Err != nil {
		return nil
	}
	if n < 0 || len(d.B)-d.Off < n {
		d.Err = fmt.Errorf("%w: need %d bytes at offset %d of %d", ErrShortData, n, d.Off, len(d.B))
		return nil
	}
	s := d.B[d.Off : d.Off+n]
	d.Off += n
	return s
}

// Disc reads a discriminator and checks it is want; what names the type in
// the error.
func (d *Decoder) Disc(want Discriminator, what string) {
	s := d.Take(8)
	if s != nil && [8]byte(s) != want {
		d.Err = fmt.Errorf("%w: %s is %x, got %x", ErrDiscriminator, what, want[:], s)
	}
}

// U8 reads a u8.
func (d *Decoder) U8() uint8 {
	if s := d.Take(1); s != nil {
		return s[0]
	}
	return 0
}

// U16 reads a little-endian u16.
func (d *Decoder) U16() uint16 {
	if s := d.Take(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

// U32 reads a little-endian u32.
func (d *Decoder) U32() uint32 {
	if s := d.Take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

// U64 reads a little-endian u64.
func (d *Decoder) U64() uint64 {
	if s := d.Take(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

// I64 reads a little-endian i64.
func (d *Decoder) I64() int64 { return int64(d.U64()) }

// Bool reads a Borsh bool; Borsh admits only 0 and 1.
func (d *Decoder) Bool() bool {
	off := d.Off
	v := d.U8()
	if d.Err == nil && v > 1 {
		d.Err = fmt.Errorf("anchor: invalid bool %d at offset %d", v, off)
	}
	return v == 1
}

// OptBool reads a trailing OptionBool (a one-byte tuple struct, not a Borsh
// Option), false at the end of the data: programs read such trailing
// arguments EOF-tolerant.
func (d *Decoder) OptBool() bool {
	if d.Err == nil && d.Off == len(d.B) {
		return false
	}
	return d.Bool()
}

// OptU64 reads a trailing OptionU64, zero at the end of the data.
func (d *Decoder) OptU64() uint64 {
	if d.Err == nil && d.Off == len(d.B) {
		return 0
	}
	return d.U64()
}

// Key reads a public key.
func (d *Decoder) Key() solana.PublicKey {
	var k solana.PublicKey
	if s := d.Take(32); s != nil {
		copy(k[:], s)
	}
	return k
}

// Str reads a Borsh string of at most MaxStringLen bytes.
func (d *Decoder) Str() string {
	n := d.U32()
	if d.Err == nil && n > MaxStringLen {
		d.Err = fmt.Errorf("anchor: string of %d bytes at offset %d exceeds %d", n, d.Off-4, MaxStringLen)
		return ""
	}
	return string(d.Take(int(n)))
}

// Padded returns data zero-extended to n bytes (data itself when longer),
// the way a program reads an account written under an older, shorter
// layout.
func Padded(data []byte, n int) []byte {
	if len(data) >= n {
		return data
	}
	out := make([]byte, n)
	copy(out, data)
	return out
}
