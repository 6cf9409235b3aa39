package registry

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestKeyringVerifiesItsMasterKey: a keyring whose master key is not the
// one the stored wallet keys were sealed under fails its check (a worker
// given its own master key reported ready and answered every order 504
// "the chain did not answer"), and its keys' reads say why; the right key,
// and an empty bucket, pass.
func TestKeyringVerifiesItsMasterKey(t *testing.T) {
	b := bustest.Start(t, "keyring-test")
	ctx := context.Background()
	right, wrong := bytes.Repeat([]byte{1}, MasterKeySize), bytes.Repeat([]byte{2}, MasterKeySize)
	if err := NewKeyring(b.Buckets.WalletKeys, wrong).Verify(ctx); err != nil {
		t.Fatalf("empty bucket: %v", err)
	}
	w := solana.NewWallet()
	addr := w.PublicKey().String()
	sealed, err := SealWalletKey(right, addr, w.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Buckets.WalletKeys.Put(ctx, addr, sealed); err != nil {
		t.Fatal(err)
	}
	if err := NewKeyring(b.Buckets.WalletKeys, right).Verify(ctx); err != nil {
		t.Fatalf("the registry's master key: %v", err)
	}
	k := NewKeyring(b.Buckets.WalletKeys, wrong)
	if err := k.Verify(ctx); !errors.Is(err, ErrWrongMasterKey) {
		t.Fatalf("another master key passed its check: %v", err)
	}
	if _, err := k.PrivateKey(ctx, wire.FamilySol, addr); !errors.Is(err, ErrWrongMasterKey) {
		t.Fatalf("a key read under another master key: %v", err)
	}
}
