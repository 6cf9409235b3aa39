package chains

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestCheckAddress(t *testing.T) {
	for _, tc := range []struct {
		f    wire.Family
		s    string
		want error
	}{
		{wire.FamilySol, "So11111111111111111111111111111111111111112", nil},
		{wire.FamilySol, "11111111111111111111111111111111", nil},
		{wire.FamilySol, "So1111111111111111111111111111111111111111l", ErrBadAddress}, // l is not base58
		{wire.FamilySol, "1111111111111111111111111111111", ErrBadAddress},             // 31 characters
		{wire.FamilySol, strings.Repeat("z", 45), ErrBadAddress},
		{wire.FamilyEVM, "0x52908400098527886E0F7030069857D2E4169EE7", nil},
		{wire.FamilyEVM, "0x52908400098527886e0f7030069857d2e4169ee7", nil},
		{wire.FamilyEVM, "0x52908400098527886E0F7030069857D2E4169Ee7", ErrBadChecksum},
		{wire.FamilyEVM, "52908400098527886E0F7030069857D2E4169EE7", ErrBadAddress},
		{wire.FamilyEVM, "0x52908400098527886E0F7030069857D2E4169EE", ErrBadAddress},
		{wire.FamilyEVM, "0x52908400098527886E0F7030069857D2E4169EEg", ErrBadAddress},
	} {
		if err := CheckAddress(tc.f, tc.s); !errors.Is(err, tc.want) {
			t.Errorf("CheckAddress(%s, %s) = %v, want %v", tc.f, tc.s, err, tc.want)
		}
	}
}

// A long string is refused by its length, never handed to base58, whose
// decoding costs the square of the length (a 60,000-character address
// took most of a second of an admin route).
func TestLongSolanaAddressNotDecoded(t *testing.T) {
	long := strings.Repeat("z", 60_000)
	if _, err := SolanaAddress(long); !errors.Is(err, ErrBadAddress) {
		t.Fatalf("SolanaAddress of 60,000 characters = %v, want ErrBadAddress", err)
	}
	if n := allocated(func() { _, _ = SolanaAddress(long) }); n > 1024 {
		t.Fatalf("refusing a 60,000-character address allocated %d bytes: it was decoded", n)
	}
}

// allocated returns the bytes f allocates, the mean of ten calls.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / 10
}

// TestBundleIDIsJitos: a bundle's id as Jito's block engine derives it,
// the SHA-256 of its first signatures in base58 joined by commas.
func TestBundleIDIsJitos(t *testing.T) {
	a := solana.SignatureFromBytes(bytes.Repeat([]byte{1}, 64))
	b := solana.SignatureFromBytes(bytes.Repeat([]byte{2}, 64))
	h := sha256.Sum256([]byte(a.String() + "," + b.String()))
	if got, want := BundleID([]solana.Signature{a, b}), hex.EncodeToString(h[:]); got != want {
		t.Fatalf("BundleID %s, want %s", got, want)
	}
}
