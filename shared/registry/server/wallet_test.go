package server

import (
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gagliardetto/solana-go"

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
