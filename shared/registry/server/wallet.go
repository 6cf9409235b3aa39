package server

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// keyMaterial is a freshly made or imported private key and its address.
type keyMaterial struct {
	address string
	key     []byte // 64-byte ed25519 keypair, or 32-byte secp256k1 scalar
}

// generateKey makes a new wallet of a family.
func generateKey(f wire.Family) (keyMaterial, error) {
	// Both come from crypto/rand through their libraries; a failure there
	// is returned, never replaced by a weaker source.
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

// maxBase58Keypair is the longest base58 of 64 bytes.
const maxBase58Keypair = 88

// parsePrivateKey reads an imported key. Solana: base58 of the 64-byte
// keypair, or solana-keygen's JSON array of 64 numbers. EVM: hex of 32
// bytes, with or without 0x. The error names the field and never echoes the
// key.
func parsePrivateKey(f wire.Family, s string) (keyMaterial, *apierr.Error) {
	s = strings.TrimSpace(s)
	switch f {
	case wire.FamilySol:
		var raw []byte
		// Two spellings of the same 64 bytes: the JSON array of
		// solana-keygen's key file, or base58 as wallets export it.
		if strings.HasPrefix(s, "[") {
			var nums []int
			if err := json.Unmarshal([]byte(s), &nums); err == nil && len(nums) == ed25519.PrivateKeySize {
				raw = make([]byte, len(nums))
				// Each number must be a byte; one out of range spoils the
				// whole key rather than being wrapped into one.
				for i, n := range nums {
					if n < 0 || n > 255 {
						raw = nil
						break
					}
					raw[i] = byte(n)
				}
			}
		} else if len(s) <= maxBase58Keypair {
			// Bounded first: base58 decodes in time quadratic in its
			// length, and 64 bytes are at most 88 characters.
			if k, err := solana.PrivateKeyFromBase58(s); err == nil {
				raw = k
			}
		}
		// The public half must be the one the seed derives, or the wallet
		// would sign for an address other than the one listed.
		if len(raw) != ed25519.PrivateKeySize || !bytes.Equal(ed25519.NewKeyFromSeed(raw[:32]), raw) {
			return keyMaterial{}, apierr.Invalid("private_key",
				"private_key is not a Solana keypair: give the base58 of the 64-byte keypair or the JSON byte array of solana-keygen")
		}
		// The address is derived from the key, never taken from the
		// request: a wallet is what its key can sign for.
		return keyMaterial{address: solana.PrivateKey(raw).PublicKey().String(), key: raw}, nil
	case wire.FamilyEVM:
		// With or without 0x, as tools differ in what they export.
		h := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return keyMaterial{}, apierr.Invalid("private_key", "private_key is not an EVM key: give 0x and the hex of 32 bytes")
		}
		// 32 bytes are not always a key: zero and values past the curve's
		// order are refused by ToECDSA.
		k, err := crypto.ToECDSA(b)
		if err != nil {
			return keyMaterial{}, apierr.Invalid("private_key", "private_key is not a valid secp256k1 key")
		}
		// Checksummed (EIP-55), the form every EVM address is stored in.
		return keyMaterial{address: crypto.PubkeyToAddress(k.PublicKey).Hex(), key: b}, nil
	}
	return keyMaterial{}, apierr.Invalid("family", "family must be sol or evm")
}

// familyOfAddress guesses the family from the shape of an address. A guess
// is enough: it only decides whether to checksum the address before a
// lookup that then has to match exactly.
func familyOfAddress(address string) wire.Family {
	if strings.HasPrefix(address, "0x") || strings.HasPrefix(address, "0X") {
		return wire.FamilyEVM
	}
	return wire.FamilySol
}

// label returns the label of the n-th wallet of a family: W1, W2, ...,
// the names the account manager shows and the public listing returns.
func label(n int) string { return "W" + strconv.Itoa(n) }
