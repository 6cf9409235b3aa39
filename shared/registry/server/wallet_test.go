package server

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestNaturalLess(t *testing.T) {
	labels := []string{"W10", "W2", "W1", "W11", "W9", "W100", "W3", "W20"}
	sort.Slice(labels, func(i, j int) bool { return registry.NaturalLess(labels[i], labels[j]) })
	want := "W1 W2 W3 W9 W10 W11 W20 W100"
	if got := strings.Join(labels, " "); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"W2", "W10", true},
		{"W10", "W2", false},
		{"W1", "W1", false},
		{"W01", "W1", false},
		{"W1", "W01", true},
		{"A9", "W1", true},
		{"W", "W1", true},
	} {
		if got := registry.NaturalLess(tc.a, tc.b); got != tc.less {
			t.Errorf("naturalLess(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// solKeyFormats returns a fresh keypair, its base58 and its keygen JSON.
func solKeyFormats(t *testing.T) (solana.PrivateKey, string, string) {
	t.Helper()
	k, err := solana.NewRandomPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	nums := make([]int, len(k))
	for i, b := range k {
		nums[i] = int(b)
	}
	js, _ := json.Marshal(nums)
	return k, k.String(), string(js)
}

func TestParsePrivateKey(t *testing.T) {
	solKey, solB58, solJSON := solKeyFormats(t)
	evmKey, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	evmHex := hex.EncodeToString(crypto.FromECDSA(evmKey))
	evmAddr := crypto.PubkeyToAddress(evmKey.PublicKey).Hex()

	// A keypair whose public half is not the seed's.
	other, _ := solana.NewRandomPrivateKey()
	mismatched := append(append([]byte{}, solKey[:32]...), other[32:]...)

	for _, tc := range []struct {
		name    string
		family  wire.Family
		key     string
		address string // "" means invalid
	}{
		{"sol base58", wire.FamilySol, solB58, solKey.PublicKey().String()},
		{"sol base58 with newline", wire.FamilySol, solB58 + "\n", solKey.PublicKey().String()},
		{"sol keygen json", wire.FamilySol, solJSON, solKey.PublicKey().String()},
		{"sol keygen json spaced", wire.FamilySol, strings.ReplaceAll(solJSON, ",", ", "), solKey.PublicKey().String()},
		{"evm 0x hex", wire.FamilyEVM, "0x" + evmHex, evmAddr},
		{"evm bare hex", wire.FamilyEVM, evmHex, evmAddr},
		{"sol mismatched halves", wire.FamilySol, solana.PrivateKey(mismatched).String(), ""},
		{"sol 32 bytes", wire.FamilySol, solana.PublicKeyFromBytes(solKey[:32]).String(), ""},
		{"sol json 63 bytes", wire.FamilySol, "[" + strings.Repeat("1,", 62) + "1]", ""},
		{"sol json byte over 255", wire.FamilySol, strings.Replace(solJSON, "[", "[256,", 1), ""},
		{"sol not base58", wire.FamilySol, "0OIl" + solB58[4:], ""},
		{"sol given an evm key", wire.FamilySol, "0x" + evmHex, ""},
		{"evm short", wire.FamilyEVM, "0x" + evmHex[:62], ""},
		{"evm not hex", wire.FamilyEVM, "0x" + strings.Repeat("zz", 32), ""},
		{"evm zero scalar", wire.FamilyEVM, "0x" + strings.Repeat("00", 32), ""},
		{"evm given a sol key", wire.FamilyEVM, solB58, ""},
		{"empty", wire.FamilySol, "", ""},
		{"sol base58 past 64 bytes", wire.FamilySol, strings.Repeat("z", 89), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			km, aerr := parsePrivateKey(tc.family, tc.key)
			if tc.address == "" {
				if aerr == nil {
					t.Fatal("want an error")
				}
				if aerr.Details != "private_key" || aerr.Code != "INVALID_REQUEST" {
					t.Errorf("got %s %q", aerr.Code, aerr.Details)
				}
				if tc.key != "" && strings.Contains(aerr.Error(), strings.TrimSpace(tc.key)) {
					t.Error("the error echoes the key")
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			if km.address != tc.address {
				t.Errorf("address %s, want %s", km.address, tc.address)
			}
			if !registry.CheckKeyMatches(tc.family, km.address, km.key) {
				t.Error("key does not match its address")
			}
		})
	}
}

// A long string is refused by its length, never handed to base58, whose
// decoding costs the square of the length (60,000 characters took most of a
// second of the import route).
func TestLongKeyNotDecoded(t *testing.T) {
	long := strings.Repeat("z", 60_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		if _, aerr := parsePrivateKey(wire.FamilySol, long); aerr == nil || aerr.Details != "private_key" {
			t.Fatalf("a 60,000-character key: %v, want INVALID_REQUEST naming private_key", aerr)
		}
	}
	runtime.ReadMemStats(&after)
	if n := (after.TotalAlloc - before.TotalAlloc) / 10; n > 4096 {
		t.Fatalf("refusing a 60,000-character key allocated %d bytes: it was decoded", n)
	}
}

func TestGenerateKey(t *testing.T) {
	for _, f := range []wire.Family{wire.FamilySol, wire.FamilyEVM} {
		km, err := generateKey(f)
		if err != nil {
			t.Fatal(err)
		}
		if !registry.CheckKeyMatches(f, km.address, km.key) {
			t.Errorf("%s: key does not match address", f)
		}
		c, ok := registry.CanonicalAddress(f, km.address)
		if !ok || c != km.address {
			t.Errorf("%s: address %s is not canonical (%s)", f, km.address, c)
		}
	}
	km, _ := generateKey(wire.FamilyEVM)
	if km.address == strings.ToLower(km.address) {
		t.Errorf("evm address %s is not EIP-55 checksummed", km.address)
	}
}

// TestWalletsPerAccountBounded: an account holds at most
// MaxWalletsPerAccount wallets, created or imported, so that its document
// always fits a NATS message; one that outgrew it (about 76,000 wallets)
// could no longer be published, and held back every other account's
// changes and the registry's start. A refused creation adds none of its
// wallets.
func TestWalletsPerAccountBounded(t *testing.T) {
	master := make([]byte, 32)
	st, err := openStore(filepath.Join(t.TempDir(), "registry.db"), master)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.db.Close() })
	acct, err := st.createAccount("many", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	keys := func(from, n int) []keyMaterial {
		out := make([]keyMaterial, n)
		for i := range out {
			out[i] = keyMaterial{address: fmt.Sprintf("Wallet%06d", from+i), key: make([]byte, 64)}
		}
		return out
	}
	if _, err := st.addWallets(acct.ID, wire.FamilySol, keys(0, MaxWalletsPerAccount-5), true, false, master, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, err = st.addWallets(acct.ID, wire.FamilySol, keys(MaxWalletsPerAccount, 10), true, false, master, time.Now())
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != apierr.InvalidRequest || ae.Details != "count" || !strings.Contains(ae.Message, "5 more at most") {
		t.Fatalf("10 wallets past the bound: %v, want 400 naming count and the 5 left", err)
	}
	if _, err := st.addWallets(acct.ID, wire.FamilyEVM, keys(MaxWalletsPerAccount, 5), true, false, master, time.Now()); err != nil {
		t.Fatalf("the last 5 wallets, of the other family: %v", err)
	}
	_, err = st.addWallets(acct.ID, wire.FamilySol, keys(2*MaxWalletsPerAccount, 1), true, true, master, time.Now())
	if !errors.As(err, &ae) || ae.Details != "account" {
		t.Fatalf("an import into a full account: %v, want 400 naming the account", err)
	}
}
