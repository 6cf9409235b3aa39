package chains

import (
	"encoding/hex"
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// The reasons CheckAddress refuses an address.
var (
	ErrBadAddress  = errors.New("bad address")
	ErrBadChecksum = errors.New("bad checksum")
)

// CheckAddress validates an address of the family: a base58 32-byte key on
// Solana (32 to 44 characters, checked before anything is decoded, so that
// a long string costs no more than a short one); on EVM 0x and 40 hex
// digits, whose letters, when in both cases, carry the EIP-55 checksum (one
// letter's case mistyped, or a digit, is refused, as wallets and ethers
// do).
func CheckAddress(f wire.Family, s string) error {
	if f == wire.FamilySol {
		if len(s) < 32 || len(s) > 44 {
			return ErrBadAddress
		}
		if _, err := solana.PublicKeyFromBase58(s); err != nil {
			return ErrBadAddress
		}
		return nil
	}
	if len(s) != 42 || (s[:2] != "0x" && s[:2] != "0X") {
		return ErrBadAddress
	}
	if _, err := hex.DecodeString(s[2:]); err != nil {
		return ErrBadAddress
	}
	if digits := s[2:]; digits != strings.ToLower(digits) && digits != strings.ToUpper(digits) &&
		digits != common.HexToAddress(s).Hex()[2:] {
		return ErrBadChecksum
	}
	return nil
}

// SolanaAddress parses a Solana address that CheckAddress takes.
func SolanaAddress(s string) (solana.PublicKey, error) {
	if err := CheckAddress(wire.FamilySol, s); err != nil {
		return solana.PublicKey{}, err
	}
	return solana.PublicKeyFromBase58(s)
}
