package pumpfun

import (
	"encoding/binary"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Discriminator is the 8-byte Anchor prefix of an instruction, an account or
// an event.
type Discriminator = anchor.Discriminator

// InstructionDiscriminator returns sha256("global:<name>")[:8].
func InstructionDiscriminator(name string) Discriminator {
	return anchor.InstructionDiscriminator(name)
}

// AccountDiscriminator returns sha256("account:<Name>")[:8].
func AccountDiscriminator(name string) Discriminator { return anchor.AccountDiscriminator(name) }

// EventDiscriminator returns sha256("event:<Name>")[:8].
func EventDiscriminator(name string) Discriminator { return anchor.EventDiscriminator(name) }

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

func leU64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
