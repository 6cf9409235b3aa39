package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestKeyringImportedKeys(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")

	solKey, solB58, _ := solKeyFormats(t)
	evmKey, _ := crypto.GenerateKey()
	evmRaw := crypto.FromECDSA(evmKey)
	evmAddr := crypto.PubkeyToAddress(evmKey.PublicKey).Hex()
	for _, body := range []map[string]any{
		{"family": "sol", "private_key": solB58},
		{"family": "evm", "private_key": "0x" + hex.EncodeToString(evmRaw)},
	} {
		if a := tr.do(t, "POST", "/admin/v1/accounts/"+acc+"/wallets/import", body); a.Status != 201 {
			t.Fatalf("import: %s", a.Raw)
		}
	}
	generated := tr.createWallets(t, acc, "evm", 1, true)[0]

	ctx := context.Background()
	ring := registry.NewKeyring(b.walletKeys, tr.secrets.MasterKey)
	for _, tc := range []struct {
		name    string
		family  wire.Family
		address string
		want    []byte // nil: any key that matches the address
	}{
		{"sol", wire.FamilySol, solKey.PublicKey().String(), solKey},
		{"evm", wire.FamilyEVM, evmAddr, evmRaw},
		{"evm lower case", wire.FamilyEVM, strings.ToLower(evmAddr), evmRaw},
		{"generated evm", wire.FamilyEVM, generated.Address, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ring.PrivateKey(ctx, tc.family, tc.address)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !bytes.Equal(got, tc.want) {
				t.Fatal("wrong key")
			}
			if !registry.CheckKeyMatches(tc.family, tc.address, got) {
				t.Fatal("key does not match the address")
			}
			// Callers own what they get: scribbling on it changes nothing.
			got[0] ^= 0xff
			again, err := ring.PrivateKey(ctx, tc.family, tc.address)
			if err != nil || !registry.CheckKeyMatches(tc.family, tc.address, again) {
				t.Fatalf("cached key damaged: %v", err)
			}
		})
	}

	// The KV holds ciphertext only.
	for addr, plain := range map[string][]byte{solKey.PublicKey().String(): solKey, evmAddr: evmRaw} {
		e, err := b.walletKeys.Get(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		v := e.Value()
		for _, leak := range [][]byte{plain, plain[:32], []byte(hex.EncodeToString(plain)), []byte(solB58)} {
			if bytes.Contains(v, leak) {
				t.Fatalf("wallet_keys entry of %s contains the key", addr)
			}
		}
	}
	// Nor does the read model.
	e, err := b.registry.Get(ctx, registry.AccountKVKey(acc))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(e.Value(), []byte("sealed")) || bytes.Contains(e.Value(), []byte(solB58)) {
		t.Fatal("read model holds key material")
	}

	// Decrypted keys are cached: a key read once survives its entry.
	if err := b.walletKeys.Delete(ctx, evmAddr); err != nil {
		t.Fatal(err)
	}
	if _, err := ring.PrivateKey(ctx, wire.FamilyEVM, evmAddr); err != nil {
		t.Errorf("cached key: %v", err)
	}

	for _, tc := range []struct {
		name    string
		family  wire.Family
		address string
	}{
		{"unknown sol", wire.FamilySol, "11111111111111111111111111111111"},
		{"unknown evm", wire.FamilyEVM, "0x0000000000000000000000000000000000000001"},
		{"sol address as evm", wire.FamilyEVM, solKey.PublicKey().String()},
		{"garbage", wire.FamilySol, "not an address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ring.PrivateKey(ctx, tc.family, tc.address); !errors.Is(err, registry.ErrUnknownWallet) {
				t.Fatalf("got %v, want registry.ErrUnknownWallet", err)
			}
		})
	}

	// Another master key decrypts nothing.
	wrong := registry.NewKeyring(b.walletKeys, registry.RandomBytes(32))
	if _, err := wrong.PrivateKey(ctx, wire.FamilySol, solKey.PublicKey().String()); err == nil || errors.Is(err, registry.ErrUnknownWallet) {
		t.Fatalf("wrong master key: %v", err)
	}
}

func TestKeyringSeesNewWalletsAtOnce(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	ring := registry.NewKeyring(b.walletKeys, tr.secrets.MasterKey)
	start := time.Now()
	w := tr.createWallets(t, acc, "sol", 1, true)[0]
	// The admin answer waits for the read model, so the key is there.
	if _, err := ring.PrivateKey(context.Background(), wire.FamilySol, w.Address); err != nil {
		t.Fatalf("key not in KV %v after the answer: %v", time.Since(start), err)
	}
}
