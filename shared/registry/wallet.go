package registry

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Wallet is a custodial wallet as every process sees it.
type Wallet struct {
	Address    string      `json:"address"`
	Label      string      `json:"label"`
	Family     wire.Family `json:"family"`
	SpotActive bool        `json:"spot_active"`
}

// keyMaterial is a freshly made or imported private key and its address.
type keyMaterial struct {
	address string
	key     []byte // 64-byte ed25519 keypair, or 32-byte secp256k1 scalar
}

// generateKey makes a new wallet of a family.
func generateKey(f wire.Family) (keyMaterial, error) {
	switch f {
	case wire.FamilySol:
		k, err := solana.NewRandomPrivateKey()
		if err != nil {
			return keyMaterial{}, fmt.Errorf("generate solana key: %w", err)
		}
		return keyMaterial{address: k.PublicKey().String(), key: []byte(k)}, nil
	case wire.FamilyEVM:
		k, err := crypto.GenerateKey()
		if err != nil {
			return keyMaterial{}, fmt.Errorf("generate evm key: %w", err)
		}
		return keyMaterial{address: crypto.PubkeyToAddress(k.PublicKey).Hex(), key: crypto.FromECDSA(k)}, nil
	}
	return keyMaterial{}, fmt.Errorf("unknown family %q", f)
}

// parsePrivateKey reads an imported key. Solana: base58 of the 64-byte
// keypair, or solana-keygen's JSON array of 64 numbers. EVM: hex of 32
// bytes, with or without 0x. The error names the field and never echoes the
// key.
func parsePrivateKey(f wire.Family, s string) (keyMaterial, *apierr.Error) {
	s = strings.TrimSpace(s)
	switch f {
	case wire.FamilySol:
		var raw []byte
		if strings.HasPrefix(s, "[") {
			var nums []int
			if err := json.Unmarshal([]byte(s), &nums); err == nil && len(nums) == ed25519.PrivateKeySize {
				raw = make([]byte, len(nums))
				for i, n := range nums {
					if n < 0 || n > 255 {
						raw = nil
						break
					}
					raw[i] = byte(n)
				}
			}
		} else if k, err := solana.PrivateKeyFromBase58(s); err == nil {
			raw = k
		}
		// The public half must be the one the seed derives, or the wallet
		// would sign for an address other than the one listed.
		if len(raw) != ed25519.PrivateKeySize || !bytes.Equal(ed25519.NewKeyFromSeed(raw[:32]), raw) {
			return keyMaterial{}, apierr.Invalid("private_key",
				"private_key is not a Solana keypair: give the base58 of the 64-byte keypair or the JSON byte array of solana-keygen")
		}
		return keyMaterial{address: solana.PrivateKey(raw).PublicKey().String(), key: raw}, nil
	case wire.FamilyEVM:
		h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return keyMaterial{}, apierr.Invalid("private_key", "private_key is not an EVM key: give 0x and the hex of 32 bytes")
		}
		k, err := crypto.ToECDSA(b)
		if err != nil {
			return keyMaterial{}, apierr.Invalid("private_key", "private_key is not a valid secp256k1 key")
		}
		return keyMaterial{address: crypto.PubkeyToAddress(k.PublicKey).Hex(), key: b}, nil
	}
	return keyMaterial{}, apierr.Invalid("family", "family must be sol or evm")
}

// canonicalAddress returns the form an address is stored under: Solana
// addresses as given (base58 is case-sensitive), EVM addresses with the
// EIP-55 checksum. ok is false when the string is not an address of f.
func canonicalAddress(f wire.Family, s string) (string, bool) {
	switch f {
	case wire.FamilySol:
		if _, err := solana.PublicKeyFromBase58(s); err != nil {
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

// addressIndexKey is the key of an address in the global address index.
// EVM addresses are case-insensitive, so they are indexed in lower case.
func addressIndexKey(address string) string {
	if strings.HasPrefix(address, "0x") || strings.HasPrefix(address, "0X") {
		return strings.ToLower(address)
	}
	return address
}

// familyOfAddress guesses the family from the shape of an address.
func familyOfAddress(address string) wire.Family {
	if strings.HasPrefix(address, "0x") || strings.HasPrefix(address, "0X") {
		return wire.FamilyEVM
	}
	return wire.FamilySol
}

// checkKeyMatches reports whether a decrypted key belongs to address, so a
// corrupted or swapped entry is never used to sign.
func checkKeyMatches(f wire.Family, address string, key []byte) bool {
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

// label returns the label of the n-th wallet of a family.
func label(n int) string { return "W" + strconv.Itoa(n) }

// naturalLess orders labels the way a person reads them: runs of digits
// compare by value, so W2 comes before W10.
func naturalLess(a, b string) bool {
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
