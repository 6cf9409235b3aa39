package registry

import (
	"bytes"
	"crypto/ed25519"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gagliardetto/solana-go"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Families are the chain families in the order they are listed.
var Families = []wire.Family{wire.FamilySol, wire.FamilyEVM}

// CanonicalAddress returns the form an address is stored under: Solana
// addresses as given (base58 is case-sensitive), EVM addresses with the
// EIP-55 checksum. ok is false when the string is not an address of f.
func CanonicalAddress(f wire.Family, s string) (string, bool) {
	switch f {
	case wire.FamilySol:
		if chains.CheckAddress(f, s) != nil {
			return "", false
		}
		return s, true
	case wire.FamilyEVM:
		if !common.IsHexAddress(s) {
			return "", false
		}
		return common.HexToAddress(s).Hex(), true
	}
	return "", false
}

// AddressIndexKey is the key of an address in the global address index.
// EVM addresses are case-insensitive, so they are indexed in lower case.
func AddressIndexKey(address string) string {
	if strings.HasPrefix(address, "0x") || strings.HasPrefix(address, "0X") {
		return strings.ToLower(address)
	}
	return address
}

// CheckKeyMatches reports whether a decrypted key belongs to address, so a
// corrupted or swapped entry is never used to sign.
func CheckKeyMatches(f wire.Family, address string, key []byte) bool {
	switch f {
	case wire.FamilySol:
		return len(key) == ed25519.PrivateKeySize &&
			bytes.Equal(ed25519.NewKeyFromSeed(key[:32]), key) &&
			solana.PublicKeyFromBytes(key[32:]).String() == address
	case wire.FamilyEVM:
		k, err := crypto.ToECDSA(key)
		return err == nil && strings.EqualFold(crypto.PubkeyToAddress(k.PublicKey).Hex(), address)
	}
	return false
}

// NaturalLess orders labels the way a person reads them: runs of digits
// compare by value, so W2 comes before W10.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if i != j { // equal values: fewer leading zeros first
				return i < j
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
