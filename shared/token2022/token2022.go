// Package token2022 reads what a trade needs of Token-2022 accounts beyond
// the SPL Token layout they share: the type-length-value extensions after
// the base of a mint or a token account, and the TransferFeeConfig a mint
// may carry, with the fee a transfer pays as spl-token-2022 computes it.
// The client and the local chain both use it, so a quote made by a client
// withholds what the chain withholds.
package token2022

import (
	"encoding/binary"

	"github.com/gagliardetto/solana-go"
)

// ProgramID is the Token-2022 program.
var ProgramID = solana.Token2022ProgramID

// Layout of a Token-2022 account: the SPL Token base (a mint's 82 bytes
// zero padded to 165, or a token account's 165), the account type, then
// the extensions, each a u16 type, a u16 length and the value.
const (
	MintSize            = 82
	AccountSize         = 165
	AccountTypeOffset   = 165
	ExtensionHeaderSize = 4
)

// Account types, the byte at AccountTypeOffset.
const (
	AccountTypeUninitialized uint8 = 0
	AccountTypeMint          uint8 = 1
	AccountTypeAccount       uint8 = 2
)

// Extension types (spl-token-2022's ExtensionType) this package names.
const (
	ExtensionUninitialized     uint16 = 0
	ExtensionTransferFeeConfig uint16 = 1
	ExtensionTransferFeeAmount uint16 = 2
	ExtensionImmutableOwner    uint16 = 7
	ExtensionMetadataPointer   uint16 = 18
	ExtensionTokenMetadata     uint16 = 19
)

// Extensions walks the extensions of a Token-2022 mint or token account,
// calling yield with each one's type, where its value starts and its
// length, until yield returns false. It reports whether the data is whole:
// false when an entry runs past the end of the data (yield is not called
// for it). Data of the base size has none; the walk stops at the first
// uninitialized entry, the zero padding after the last extension.
func Extensions(data []byte, yield func(typ uint16, off, n int) bool) bool {
	i := AccountTypeOffset + 1
	for i+ExtensionHeaderSize <= len(data) {
		t := binary.LittleEndian.Uint16(data[i:])
		l := int(binary.LittleEndian.Uint16(data[i+2:]))
		if t == ExtensionUninitialized {
			return true
		}
		v := i + ExtensionHeaderSize
		if v+l > len(data) {
			return false
		}
		if !yield(t, v, l) {
			return true
		}
		i = v + l
	}
	return true
}

// FindExtension returns where the value of extension typ starts in the
// data of a Token-2022 mint or token account, and its length. It is false
// when the account has no such extension, or its entry runs past the end
// of the data.
func FindExtension(data []byte, typ uint16) (off, n int, ok bool) {
	Extensions(data, func(t uint16, o, l int) bool {
		if t == typ {
			off, n, ok = o, l, true
		}
		return !ok
	})
	return off, n, ok
}
