package pumpfun

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
var ErrShortData = errors.New("pumpfun: data too short")

// ErrDiscriminator is wrapped by every decoder when the leading 8 bytes name
// another type.
var ErrDiscriminator = errors.New("pumpfun: wrong discriminator")

// maxStringLen bounds a decoded Borsh string so a corrupt length cannot make
// a decoder allocate without limit; a transaction is at most 1232 bytes.
const maxStringLen = 1232

// encoder appends Borsh values to a byte slice.
type encoder struct{ b []byte }

func (e *encoder) disc(d Discriminator) { e.b = append(e.b, d[:]...) }
func (e *encoder) u8(v uint8)           { e.b = append(e.b, v) }
func (e *encoder) u32(v uint32)         { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64)         { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) i64(v int64)          { e.u64(uint64(v)) }
func (e *encoder) key(k solana.PublicKey) {
	e.b = append(e.b, k[:]...)
}
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

// boolean reads a Borsh bool; Borsh admits only 0 and 1.
func (d *decoder) boolean() bool {
	off := d.off
	v := d.u8()
	if d.err == nil && v > 1 {
		d.err = fmt.Errorf("pumpfun: invalid bool %d at offset %d", v, off)
	}
	return v == 1
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
		d.err = fmt.Errorf("pumpfun: string of %d bytes at offset %d exceeds %d", n, d.off-4, maxStringLen)
		return ""
	}
	return string(d.take(int(n)))
}

// padded returns data zero-extended to n bytes (data itself when longer),
// the way the program reads an account written under an older, shorter
// layout.
func padded(data []byte, n int) []byte {
	if len(data) >= n {
		return data
	}
	out := make([]byte, n)
	copy(out, data)
	return out
}

func leU64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
