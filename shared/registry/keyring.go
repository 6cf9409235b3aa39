package registry

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// ErrUnknownWallet is wrapped by Keyring.PrivateKey when no key is stored
// for the address.
var ErrUnknownWallet = errors.New("unknown wallet")

// Keyring hands the workers decrypted wallet keys. It reads the sealed keys
// from bus.BucketWalletKeys and keeps what it decrypted in memory: a wallet's
// key never changes.
type Keyring struct {
	kv        jetstream.KeyValue
	masterKey []byte

	mu    sync.RWMutex
	cache map[string][]byte
}

// NewKeyring returns a keyring over kv (the bus.BucketWalletKeys bucket).
// A master key that is not 32 bytes makes every PrivateKey call fail.
func NewKeyring(kv jetstream.KeyValue, masterKey []byte) *Keyring {
	return &Keyring{kv: kv, masterKey: append([]byte(nil), masterKey...), cache: map[string][]byte{}}
}

// Verify opens one of the stored wallet keys, so that a process given a
// master key other than the registry's (a worker host's own master_key
// file, a wrong TRADEAPI_MASTER_KEY) refuses to start, instead of taking
// orders it cannot sign. With no key stored yet there is nothing to check.
func (k *Keyring) Verify(ctx context.Context) error {
	lister, err := k.kv.ListKeys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list wallet keys: %w", err)
	}
	defer func() { _ = lister.Stop() }()
	for address := range lister.Keys() {
		e, err := k.kv.Get(ctx, address)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read wallet key %s: %w", address, err)
		}
		if _, err := OpenWalletKey(k.masterKey, address, e.Value()); err != nil {
			return fmt.Errorf("master key: the wallet keys in the bus (%s's among them) do not open under this process's master key: "+
				"give it the registry's (TRADEAPI_MASTER_KEY, or the master_key file of the registry's data folder): %w", address, err)
		}
		return nil
	}
	return nil
}

// PrivateKey returns a copy of a wallet's private key: the 64-byte ed25519
// keypair on Solana, the 32-byte secp256k1 scalar on EVM. An address with
// no stored key gives an error wrapping ErrUnknownWallet. The key is checked
// against the address before it is returned.
func (k *Keyring) PrivateKey(ctx context.Context, family wire.Family, address string) ([]byte, error) {
	canonical, ok := CanonicalAddress(family, address)
	if !ok {
		return nil, fmt.Errorf("wallet %s: not a %s address: %w", address, family, ErrUnknownWallet)
	}
	k.mu.RLock()
	key, ok := k.cache[canonical]
	k.mu.RUnlock()
	if ok {
		return append([]byte(nil), key...), nil
	}
	e, err := k.kv.Get(ctx, canonical)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("wallet %s: %w", canonical, ErrUnknownWallet)
	}
	if err != nil {
		return nil, fmt.Errorf("wallet %s: read sealed key: %w", canonical, err)
	}
	key, err = OpenWalletKey(k.masterKey, canonical, e.Value())
	if err != nil {
		return nil, fmt.Errorf("wallet %s: %w", canonical, err)
	}
	if !CheckKeyMatches(family, canonical, key) {
		return nil, fmt.Errorf("wallet %s: the stored key is not a %s key of this address", canonical, family)
	}
	k.mu.Lock()
	k.cache[canonical] = key
	k.mu.Unlock()
	return append([]byte(nil), key...), nil
}
