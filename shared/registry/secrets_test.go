package registry

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestLoadOrCreateSecretsGeneratesOnceAndReuses(t *testing.T) {
	dir := t.TempDir()
	s1, created, err := LoadOrCreateSecrets(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Error("first start: created = false")
	}
	if !strings.HasPrefix(s1.AdminToken, "tapi_admin_") || len(s1.AdminToken) < len("tapi_admin_")+40 {
		t.Errorf("admin token %q has the wrong shape", s1.AdminToken)
	}
	if len(s1.MasterKey) != MasterKeySize {
		t.Errorf("master key is %d bytes", len(s1.MasterKey))
	}
	for _, p := range []string{AdminTokenPath(dir), MasterKeyPath(dir)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, fi.Mode().Perm())
		}
	}
	s2, created, err := LoadOrCreateSecrets(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if created {
		t.Error("second start: created = true")
	}
	if s2.AdminToken != s1.AdminToken || !bytes.Equal(s2.MasterKey, s1.MasterKey) {
		t.Error("second start did not reuse the stored secrets")
	}
}

func TestLoadOrCreateSecretsFromEnvironment(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	for _, tc := range []struct {
		name, env string
		ok        bool
	}{
		{"hex", hex.EncodeToString(key), true},
		{"0x hex", "0x" + hex.EncodeToString(key), true},
		{"base64", base64.StdEncoding.EncodeToString(key), true},
		{"raw url base64", base64.RawURLEncoding.EncodeToString(key), true},
		{"short hex", hex.EncodeToString(key[:16]), false},
		{"garbage", "not a key at all", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, created, err := LoadOrCreateSecrets(dir, "operator-token", tc.env)
			if !tc.ok {
				if err == nil {
					t.Fatal("want an error")
				}
				if strings.Contains(err.Error(), tc.env) {
					t.Errorf("error %q echoes the key", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if created {
				t.Error("created = true with the token from the environment")
			}
			if s.AdminToken != "operator-token" || !bytes.Equal(s.MasterKey, key) {
				t.Errorf("got %q %x", s.AdminToken, s.MasterKey)
			}
			if _, err := os.Stat(AdminTokenPath(dir)); err == nil {
				t.Error("an admin token file was written although the token came from the environment")
			}
		})
	}
}

func TestSealRoundTrip(t *testing.T) {
	mk := RandomBytes(32)
	km := newSolanaKey(t)
	sealed, err := SealWalletKey(mk, km.address, km.key)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, km.key) || bytes.Contains(sealed, km.key[:32]) {
		t.Fatal("the sealed key contains the plaintext")
	}
	again, _ := SealWalletKey(mk, km.address, km.key)
	if bytes.Equal(again, sealed) {
		t.Error("two seals of one key are equal: the nonce is not random")
	}
	got, err := OpenWalletKey(mk, km.address, sealed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, km.key) {
		t.Fatal("round trip changed the key")
	}
	other := newSolanaKey(t)
	for name, open := range map[string]func() ([]byte, error){
		"other address":    func() ([]byte, error) { return OpenWalletKey(mk, other.address, sealed) },
		"other master key": func() ([]byte, error) { return OpenWalletKey(RandomBytes(32), km.address, sealed) },
		"short master key": func() ([]byte, error) { return OpenWalletKey(mk[:16], km.address, sealed) },
		"truncated":        func() ([]byte, error) { return OpenWalletKey(mk, km.address, sealed[:20]) },
		"tampered": func() ([]byte, error) {
			bad := bytes.Clone(sealed)
			bad[len(bad)-1] ^= 1
			return OpenWalletKey(mk, km.address, bad)
		},
	} {
		if _, err := open(); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

func TestAPIKeyShape(t *testing.T) {
	for _, f := range []wire.Family{wire.FamilySol, wire.FamilyEVM} {
		k := NewAPIKey(f)
		prefix := "tapi_" + string(f) + "_live_"
		if !strings.HasPrefix(k, prefix) {
			t.Fatalf("%q lacks %q", k, prefix)
		}
		secret := strings.TrimPrefix(k, prefix)
		if len(secret) < 32 {
			t.Errorf("secret part %d chars", len(secret))
		}
		if _, err := solana.PublicKeyFromBase58(secret); err != nil {
			t.Errorf("secret part is not base58 of 32 bytes: %v", err)
		}
		if NewAPIKey(f) == k {
			t.Error("two keys are equal")
		}
		if len(k) < minAPIKeyLen || len(k) > maxAPIKeyLen {
			t.Errorf("key length %d outside [%d, %d]", len(k), minAPIKeyLen, maxAPIKeyLen)
		}
	}
}

// solanaKey is a wallet key as the registry seals it: the 64-byte ed25519
// keypair and its base58 address.
type solanaKey struct {
	address string
	key     []byte
}

func newSolanaKey(t *testing.T) solanaKey {
	t.Helper()
	k, err := solana.NewRandomPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return solanaKey{address: k.PublicKey().String(), key: []byte(k)}
}

// TestMasterKeyNotMadeForAFolderMadeUnderOne: a data folder whose registry
// was made under TRADEAPI_MASTER_KEY, started without it, is refused
// before any file is written: neither a master key that would not open its
// wallets nor an admin token.
func TestMasterKeyNotMadeForAFolderMadeUnderOne(t *testing.T) {
	dir := t.TempDir()
	key := hex.EncodeToString(bytes.Repeat([]byte{7}, 32))
	if _, _, err := LoadOrCreateSecrets(dir, "", key); err != nil {
		t.Fatal(err)
	}
	// The registry made its file under that key.
	if err := os.WriteFile(DBPath(dir), []byte("db"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(AdminTokenPath(dir)); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadOrCreateSecrets(dir, "", "")
	if err == nil || !strings.Contains(err.Error(), "TRADEAPI_MASTER_KEY") {
		t.Fatalf("a folder made under TRADEAPI_MASTER_KEY started without it: %v", err)
	}
	for _, p := range []string{MasterKeyPath(dir), AdminTokenPath(dir)} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written for a folder refused", p)
		}
	}
	// Given again, it starts.
	if _, _, err := LoadOrCreateSecrets(dir, "", key); err != nil {
		t.Fatal(err)
	}
}
