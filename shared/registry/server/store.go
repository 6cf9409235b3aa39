package server

import (
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// MaxLiveKeys is how many live API keys an account may hold per family.
const MaxLiveKeys = 5

// MaxWalletsPerAccount is how many wallets an account may hold, both
// families together. Every process reads an account as one document (its
// wallets, keys and settings) from the registry's bucket, which a NATS
// message must carry whole: about 120 bytes a wallet, so at this bound a
// document is about 1.2 MB, well inside the 8 MiB a message may be, and
// each change of the account republishes no more than that.
const MaxWalletsPerAccount = 10000

// Layout of the bbolt file:
//
//	accounts/<id>/           one bucket per account
//	    meta                 accountRecord
//	    wallets/<address>    walletRecord (holds the sealed private key)
//	    keys/<key id>        keyRecord (holds the key's hash, never the key)
//	addresses/<address>      account id; EVM addresses in lower case
//	keyhashes/<sha256 hex>   KeyRef of every live key
//	meta/keycheck            a value sealed under the master key
//	meta/demo                the demo account's id, once it exists
//	meta/demo_seeding        the same, while its local chains are seeded
//	meta/demo_seeded/...     each seeding step done, until all are
var (
	bucketAccounts  = []byte("accounts")
	bucketAddresses = []byte("addresses")
	bucketKeyHashes = []byte("keyhashes")
	bucketMeta      = []byte("meta")
	bucketWallets   = []byte("wallets")
	bucketKeys      = []byte("keys")
	keyMetaRecord   = []byte("meta")
	keyKeyCheck     = []byte("keycheck")
	keyDemo         = []byte("demo")
	// keyDemoSeeding marks a demo account whose local chains are not yet
	// seeded (see EnsureDemo).
	keyDemoSeeding = []byte("demo_seeding")
	// prefixDemoSeeded keys each step of the seeding that finished (a
	// wallet funded, a token made, with the token as its value), so that a
	// seeding cut short does again only what it had not done.
	prefixDemoSeeded = "demo_seeded/"
)

// accountRecord is an account's own fields, stored whole under its
// bucket's meta key; its wallets and keys live in sub-buckets, so that
// adding one does not rewrite the others.
type accountRecord struct {
	ID      string                          `json:"id"`
	Name    string                          `json:"name"`
	Created time.Time                       `json:"created"`
	Limits  map[wire.Family]registry.Limits `json:"limits,omitempty"`
	// FeeCaps holds the families whose caps the admin API set, each whole
	// and canonical; a record written before fee caps existed has none,
	// and reads as the defaults.
	FeeCaps  map[wire.Family]registry.FeeCaps `json:"fee_caps,omitempty"`
	Strategy []wire.AutoOrder                 `json:"strategy,omitempty"`
	// NextLabel is the number of the next wallet label per family. It
	// only grows, so a label is never given twice even if wallets are
	// ever removed.
	NextLabel map[wire.Family]int `json:"next_label,omitempty"`
	Webhook   *webhookRecord      `json:"webhook,omitempty"`
}

// limits returns the account's rate-budget figures of a family: those the
// admin API set, else the defaults.
func (a *accountRecord) limits(f wire.Family) registry.Limits {
	if l, ok := a.Limits[f]; ok {
		return l
	}
	return registry.DefaultLimits
}

// walletRecord is a wallet in the store: its public fields and its private
// key, sealed under the master key with the address as associated data,
// so a sealed key copied onto another wallet's record fails to open.
type walletRecord struct {
	Address    string      `json:"address"`
	Family     wire.Family `json:"family"`
	Label      string      `json:"label"`
	SpotActive bool        `json:"spot_active"`
	Imported   bool        `json:"imported,omitempty"`
	Created    time.Time   `json:"created"`
	Sealed     []byte      `json:"sealed"`
}

// public is the wallet as every other process may see it: everything but
// the sealed key and the bookkeeping fields.
func (w *walletRecord) public() registry.Wallet {
	return registry.Wallet{Address: w.Address, Label: w.Label, Family: w.Family, SpotActive: w.SpotActive}
}

// keyRecord is an API key in the store. Only the SHA-256 of the key is
// kept: a leak of the file gives no usable key. A revoked key keeps its
// record, so the account's history shows what existed and when it ended.
type keyRecord struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Family  wire.Family `json:"family"`
	Created time.Time   `json:"created"`
	Revoked *time.Time  `json:"revoked,omitempty"`
	Hash    string      `json:"hash"`
}

// accountState is one account read whole from the store: what the read
// model's document and the account answer are built from, so both see
// the same version of the account.
type accountState struct {
	rec     accountRecord
	wallets []walletRecord // sorted by family, then natural label order
	keys    []keyRecord    // sorted by family, then creation
}

// store is the registry's system of record: one bbolt file, written by
// this process only. Every change is one bbolt transaction, so a crash
// leaves either all of a change or none of it, and the read model is
// rebuilt from the file at start (see publisher.resync).
type store struct {
	db *bolt.DB
}

// openStore opens (or creates) the bbolt file and checks that the master key
// is the one the file's wallet keys were sealed under.
func openStore(path string, masterKey []byte) (*store, error) {
	// 0700: the folder holds sealed keys and key hashes, which no other
	// user of the machine needs to read.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create registry folder: %w", err)
	}
	// A timeout, so that a second registry on the same folder fails at once
	// instead of waiting for ever on the file lock.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		// bbolt says only "timeout": the file's lock is another
		// process's, which holds it as long as it runs.
		return nil, fmt.Errorf("registry store %s is in use by another process (a second registry or up on the same data folder?)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &store{db: db}
	err = db.Update(func(tx *bolt.Tx) error {
		// The top-level buckets exist from the first start on, so that
		// every later transaction can take them for granted.
		for _, b := range [][]byte{bucketAccounts, bucketAddresses, bucketKeyHashes, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		// A master key other than the file's would seal new wallets under
		// one key and fail to open the old ones: refuse to start instead,
		// before anything is written under the wrong key.
		if check := meta.Get(keyKeyCheck); check != nil {
			if _, err := registry.OpenWalletKey(masterKey, "keycheck", check); err != nil {
				return errors.New("the master key is not the one this data folder was created with")
			}
			return nil
		}
		// A fresh file: seal a known value, which later starts open to
		// prove they hold the same master key.
		sealed, err := registry.SealWalletKey(masterKey, "keycheck", []byte("tradeapi"))
		if err != nil {
			return err
		}
		return meta.Put(keyKeyCheck, sealed)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("registry store: %w", err)
	}
	return s, nil
}

// close releases the file and its lock, so that a restarted registry (or
// a test's second one) can open it.
func (s *store) close() error { return s.db.Close() }

// newID returns a short opaque random id: a prefix and 8 random bytes in
// lower-case base32, safe in a NATS subject and a URL. Random rather than
// sequential, so ids reveal neither how many accounts exist nor their
// order, and one account's id cannot be guessed from another's.
func newID(prefix string) string {
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(registry.RandomBytes(8)))
}

// notFound is the admin API's 404, naming in details the path parameter
// that matched nothing (id, key_id or address).
func notFound(field, what string) *apierr.Error {
	return &apierr.Error{Code: apierr.NotFound, Message: what + " not found", Details: field}
}

// errAccountNotFound is the 404 of every route under an unknown account.
func errAccountNotFound() *apierr.Error { return notFound("id", "account") }

// getJSON decodes a stored value into v; false when the key is absent,
// which callers turn into their own NOT_FOUND. A value that does not
// decode is an error, never treated as absent: it means a damaged file.
func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("decode %s: %w", key, err)
	}
	return true, nil
}

// putJSON stores v as JSON, the format of every value in the file: it can
// be inspected with any bbolt viewer, and a new field needs no migration.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, raw)
}

// accountBucket returns the bucket of an account, or NOT_FOUND.
func accountBucket(tx *bolt.Tx, id string) (*bolt.Bucket, error) {
	// bbolt refuses an empty bucket name with an error of its own; an
	// empty id is simply no account.
	if id == "" {
		return nil, errAccountNotFound()
	}
	b := tx.Bucket(bucketAccounts).Bucket([]byte(id))
	if b == nil {
		return nil, errAccountNotFound()
	}
	return b, nil
}

// readAccountRecord reads an account bucket's own record. A bucket without
// one cannot be made by the store (the record is written in the same
// transaction), so it is reported as damage, not as a missing account.
func readAccountRecord(b *bolt.Bucket) (accountRecord, error) {
	var rec accountRecord
	ok, err := getJSON(b, keyMetaRecord, &rec)
	if err != nil {
		return rec, err
	}
	if !ok {
		return rec, errors.New("account bucket without its record")
	}
	return rec, nil
}

// loadAccount reads an account whole, in one read transaction, so the
// record, wallets and keys it returns are one consistent version.
func loadAccount(tx *bolt.Tx, id string) (*accountState, error) {
	b, err := accountBucket(tx, id)
	if err != nil {
		return nil, err
	}
	st := &accountState{}
	if st.rec, err = readAccountRecord(b); err != nil {
		return nil, fmt.Errorf("account %s: %w", id, err)
	}
	if wb := b.Bucket(bucketWallets); wb != nil {
		err := wb.ForEach(func(k, v []byte) error {
			var w walletRecord
			if err := json.Unmarshal(v, &w); err != nil {
				return fmt.Errorf("decode wallet %s: %w", k, err)
			}
			st.wallets = append(st.wallets, w)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// bbolt iterates in byte order of the address; the API lists wallets
	// by family and natural label order instead.
	sortWalletRecords(st.wallets)
	if kb := b.Bucket(bucketKeys); kb != nil {
		err := kb.ForEach(func(k, v []byte) error {
			var kr keyRecord
			if err := json.Unmarshal(v, &kr); err != nil {
				return fmt.Errorf("decode key %s: %w", k, err)
			}
			st.keys = append(st.keys, kr)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// Keys by family, then creation, so the console lists them in the
	// order they were made; the id breaks ties of keys made in the same
	// millisecond, keeping the order stable between reads.
	sort.Slice(st.keys, func(i, j int) bool {
		if st.keys[i].Family != st.keys[j].Family {
			return familyRank(st.keys[i].Family) < familyRank(st.keys[j].Family)
		}
		if !st.keys[i].Created.Equal(st.keys[j].Created) {
			return st.keys[i].Created.Before(st.keys[j].Created)
		}
		return st.keys[i].ID < st.keys[j].ID
	})
	return st, nil
}

// familyRank orders families as registry.Families lists them (sol, then
// evm); an unknown family sorts last rather than panicking.
func familyRank(f wire.Family) int {
	for i, g := range registry.Families {
		if f == g {
			return i
		}
	}
	return len(registry.Families)
}

// sortWalletRecords puts wallets in the order the API lists them: by
// family, then natural label order (W2 before W10).
func sortWalletRecords(ws []walletRecord) {
	sort.Slice(ws, func(i, j int) bool {
		if ws[i].Family != ws[j].Family {
			return familyRank(ws[i].Family) < familyRank(ws[j].Family)
		}
		return registry.NaturalLess(ws[i].Label, ws[j].Label)
	})
}

// createAccount makes an empty account.
func (s *store) createAccount(name string, now time.Time) (accountRecord, error) {
	rec := accountRecord{Name: name, Created: now}
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		rec.ID, err = createAccountTx(tx, name, now)
		return err
	})
	return rec, err
}

// createAccountTx makes an account inside a transaction, so that the demo
// can make its account, wallets and keys in one.
func createAccountTx(tx *bolt.Tx, name string, now time.Time) (string, error) {
	accounts := tx.Bucket(bucketAccounts)
	for {
		// 64 random bits make a collision all but impossible; checking
		// anyway costs one lookup and makes it impossible.
		id := newID("acc_")
		if accounts.Bucket([]byte(id)) != nil {
			continue
		}
		b, err := accounts.CreateBucket([]byte(id))
		if err != nil {
			return "", fmt.Errorf("create account bucket: %w", err)
		}
		// The sub-buckets are made with the account, so readers need not
		// handle an account without them.
		if _, err := b.CreateBucket(bucketWallets); err != nil {
			return "", fmt.Errorf("create wallets bucket: %w", err)
		}
		if _, err := b.CreateBucket(bucketKeys); err != nil {
			return "", fmt.Errorf("create keys bucket: %w", err)
		}
		return id, putJSON(b, keyMetaRecord, accountRecord{ID: id, Name: name, Created: now})
	}
}

// listAccounts returns every account's record, oldest first. Only the
// records are read, not the wallets and keys, so the listing stays cheap
// however many wallets the accounts hold.
func (s *store) listAccounts() ([]accountRecord, error) {
	var out []accountRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		accounts := tx.Bucket(bucketAccounts)
		return accounts.ForEachBucket(func(k []byte) error {
			rec, err := readAccountRecord(accounts.Bucket(k))
			if err != nil {
				return fmt.Errorf("account %s: %w", k, err)
			}
			out = append(out, rec)
			return nil
		})
	})
	// By creation rather than by id (which is random), with the id as a
	// tie-break so two reads list accounts made in the same millisecond
	// in the same order.
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// account reads one account whole; NOT_FOUND when there is none.
func (s *store) account(id string) (*accountState, error) {
	var st *accountState
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		st, err = loadAccount(tx, id)
		return err
	})
	return st, err
}

// createKey adds a key to an account; the sixth live key of a family is
// KEY_LIMIT. The key itself is returned once and only its hash is kept.
func (s *store) createKey(accountID string, f wire.Family, name string, now time.Time) (keyRecord, string, error) {
	var rec keyRecord
	var token string
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		rec, token, err = createKeyTx(tx, accountID, f, name, now)
		return err
	})
	return rec, token, err
}

// createKeyTx adds a key inside a transaction. The limit is counted in the
// same transaction as the insert, so two concurrent requests cannot both
// make a fifth key.
func createKeyTx(tx *bolt.Tx, accountID string, f wire.Family, name string, now time.Time) (keyRecord, string, error) {
	b, err := accountBucket(tx, accountID)
	if err != nil {
		return keyRecord{}, "", err
	}
	keys := b.Bucket(bucketKeys)
	// Revoked keys stay in the bucket, so live ones are counted, not all.
	live := 0
	err = keys.ForEach(func(k, v []byte) error {
		var kr keyRecord
		if err := json.Unmarshal(v, &kr); err != nil {
			return fmt.Errorf("decode key %s: %w", k, err)
		}
		if kr.Family == f && kr.Revoked == nil {
			live++
		}
		return nil
	})
	if err != nil {
		return keyRecord{}, "", err
	}
	if live >= MaxLiveKeys {
		return keyRecord{}, "", &apierr.Error{Code: apierr.KeyLimit, Details: "family",
			Message: fmt.Sprintf("the account already has %d live %s keys; revoke one first", MaxLiveKeys, f)}
	}
	// Only the hash is stored; the token is returned once and forgotten.
	token := registry.NewAPIKey(f)
	sum := registry.HashAPIKey(token)
	rec := keyRecord{Name: name, Family: f, Created: now, Hash: hex.EncodeToString(sum[:])}
	// The id is random and separate from the key, so it can be shown,
	// logged and put in a URL without revealing anything.
	for {
		rec.ID = newID("key_")
		if keys.Get([]byte(rec.ID)) == nil {
			break
		}
	}
	if err := putJSON(keys, []byte(rec.ID), rec); err != nil {
		return keyRecord{}, "", err
	}
	// The hash index is what the read model's apikey.<hash> entries are
	// published from: one entry per live key, found without scanning
	// every account.
	ref := registry.KeyRef{AccountID: accountID, Family: f, KeyID: rec.ID}
	if err := putJSON(tx.Bucket(bucketKeyHashes), []byte(rec.Hash), ref); err != nil {
		return keyRecord{}, "", err
	}
	return rec, token, nil
}

// revokeKey marks a key revoked and drops its hash from the live index.
// Revoking a revoked key again succeeds and changes nothing.
func (s *store) revokeKey(accountID, keyID string, now time.Time) (keyRecord, error) {
	var rec keyRecord
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := accountBucket(tx, accountID)
		if err != nil {
			return err
		}
		// Looked up under the account: another account's key id is
		// answered like an unknown one.
		keys := b.Bucket(bucketKeys)
		ok, err := getJSON(keys, []byte(keyID), &rec)
		if err != nil {
			return err
		}
		if !ok {
			return notFound("key_id", "key")
		}
		// A second revoke keeps the first time: it is when the key stopped
		// working.
		if rec.Revoked != nil {
			return nil
		}
		rec.Revoked = &now
		if err := putJSON(keys, []byte(keyID), rec); err != nil {
			return err
		}
		// Dropping the hash is what revokes: the publisher then deletes
		// apikey.<hash> from the read model, and every view forgets it.
		return tx.Bucket(bucketKeyHashes).Delete([]byte(rec.Hash))
	})
	return rec, err
}

// addWallets stores new wallets, continuing the account's labels of the
// family. An address that is already registered, on this account or any
// other, is refused as INVALID_REQUEST naming private_key: a wallet has
// exactly one owner, and importing it twice is a request that can never
// succeed as sent rather than a conflict to retry.
func (s *store) addWallets(accountID string, f wire.Family, keys []keyMaterial, spotActive, imported bool,
	masterKey []byte, now time.Time) ([]walletRecord, error) {
	var out []walletRecord
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		out, err = addWalletsTx(tx, accountID, f, keys, spotActive, imported, masterKey, now)
		return err
	})
	return out, err
}

// addWalletsTx stores wallets inside a transaction: all of them or, on
// any refusal, none, since bbolt rolls the transaction back.
func addWalletsTx(tx *bolt.Tx, accountID string, f wire.Family, keys []keyMaterial, spotActive, imported bool,
	masterKey []byte, now time.Time) ([]walletRecord, error) {
	b, err := accountBucket(tx, accountID)
	if err != nil {
		return nil, err
	}
	rec, err := readAccountRecord(b)
	if err != nil {
		return nil, fmt.Errorf("account %s: %w", accountID, err)
	}
	if rec.NextLabel == nil {
		rec.NextLabel = map[wire.Family]int{}
	}
	addresses := tx.Bucket(bucketAddresses)
	wallets := b.Bucket(bucketWallets)
	if held := wallets.Stats().KeyN; held+len(keys) > MaxWalletsPerAccount {
		field := "count"
		if imported {
			field = "account"
		}
		return nil, apierr.Invalid(field, "the account holds %d wallets and may hold %d in all: %d more at most",
			held, MaxWalletsPerAccount, max(MaxWalletsPerAccount-held, 0))
	}
	out := make([]walletRecord, 0, len(keys))
	for _, km := range keys {
		// The address index is global, not per account: it is how an
		// address's one owner is found, and how a second import of the
		// same wallet anywhere is refused.
		idx := []byte(registry.AddressIndexKey(km.address))
		if addresses.Get(idx) != nil {
			return nil, apierr.Invalid("private_key", "the wallet %s is already registered to an account", km.address)
		}
		// Sealed with the address bound in, so the ciphertext only opens
		// as this wallet's key.
		sealed, err := registry.SealWalletKey(masterKey, km.address, km.key)
		if err != nil {
			return nil, fmt.Errorf("seal wallet key: %w", err)
		}
		// A record from before NextLabel existed starts at W1.
		n := rec.NextLabel[f]
		if n < 1 {
			n = 1
		}
		rec.NextLabel[f] = n + 1
		w := walletRecord{Address: km.address, Family: f, Label: label(n), SpotActive: spotActive,
			Imported: imported, Created: now, Sealed: sealed}
		if err := putJSON(wallets, []byte(w.Address), w); err != nil {
			return nil, err
		}
		if err := addresses.Put(idx, []byte(accountID)); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	// The record is written once, after the loop, with the label counter
	// moved past every wallet added.
	if err := putJSON(b, keyMetaRecord, rec); err != nil {
		return nil, err
	}
	return out, nil
}

// findWallet returns the wallet of an account by address; EVM addresses
// match in any case.
func findWallet(tx *bolt.Tx, accountID, address string) (*bolt.Bucket, walletRecord, error) {
	b, err := accountBucket(tx, accountID)
	if err != nil {
		return nil, walletRecord{}, err
	}
	// The global index says who owns the address; another account's
	// wallet is answered exactly like an unknown one, so an account's
	// routes reveal nothing about other accounts.
	owner := tx.Bucket(bucketAddresses).Get([]byte(registry.AddressIndexKey(address)))
	if string(owner) != accountID {
		return nil, walletRecord{}, notFound("address", "wallet")
	}
	// Wallets are stored under the address as created, checksummed on
	// EVM; a lower-case address from a client is mapped back to it.
	canonical := address
	if f := familyOfAddress(address); f == wire.FamilyEVM {
		if c, ok := registry.CanonicalAddress(f, address); ok {
			canonical = c
		}
	}
	wallets := b.Bucket(bucketWallets)
	var w walletRecord
	ok, err := getJSON(wallets, []byte(canonical), &w)
	if err != nil {
		return nil, walletRecord{}, err
	}
	if !ok {
		return nil, walletRecord{}, notFound("address", "wallet")
	}
	return wallets, w, nil
}

// setSpotActive sets a wallet's spot_active and returns the wallet.
func (s *store) setSpotActive(accountID, address string, active bool) (walletRecord, error) {
	var w walletRecord
	err := s.db.Update(func(tx *bolt.Tx) error {
		wallets, rec, err := findWallet(tx, accountID, address)
		if err != nil {
			return err
		}
		rec.SpotActive = active
		w = rec
		return putJSON(wallets, []byte(rec.Address), rec)
	})
	return w, err
}

// updateAccount applies fn to an account's record and stores it, in one
// transaction, so concurrent changes to different fields (a strategy and a
// limit, say) never overwrite each other. An error from fn stores nothing.
func (s *store) updateAccount(accountID string, fn func(*accountRecord) error) (accountRecord, error) {
	var rec accountRecord
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := accountBucket(tx, accountID)
		if err != nil {
			return err
		}
		if rec, err = readAccountRecord(b); err != nil {
			return fmt.Errorf("account %s: %w", accountID, err)
		}
		if err := fn(&rec); err != nil {
			return err
		}
		return putJSON(b, keyMetaRecord, rec)
	})
	return rec, err
}

// demoAccount returns the demo account's id, or "" before it exists.
// The marker is kept apart from the accounts, so that the demo stays made
// once even if an operator renames or empties the demo account.
func (s *store) demoAccount() (string, error) {
	var id string
	err := s.db.View(func(tx *bolt.Tx) error {
		id = string(tx.Bucket(bucketMeta).Get(keyDemo))
		return nil
	})
	return id, err
}

// keyRef returns the live key of a hash, if any; nil tells the publisher
// to delete the hash from the read model.
func (s *store) keyRef(hash string) (*registry.KeyRef, error) {
	var ref *registry.KeyRef
	err := s.db.View(func(tx *bolt.Tx) error {
		var r registry.KeyRef
		ok, err := getJSON(tx.Bucket(bucketKeyHashes), []byte(hash), &r)
		if ok {
			ref = &r
		}
		return err
	})
	return ref, err
}

// sealedKey returns the sealed private key of an address, if it is
// registered.
func (s *store) sealedKey(address string) ([]byte, error) {
	var sealed []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		// Through the owner index, so a wallet's key is found without
		// scanning every account; nil (unregistered) makes the publisher
		// delete the address from the wallet-keys bucket.
		owner := tx.Bucket(bucketAddresses).Get([]byte(registry.AddressIndexKey(address)))
		if owner == nil {
			return nil
		}
		b := tx.Bucket(bucketAccounts).Bucket(owner)
		if b == nil {
			return nil
		}
		var w walletRecord
		ok, err := getJSON(b.Bucket(bucketWallets), []byte(address), &w)
		if ok {
			sealed = w.Sealed
		}
		return err
	})
	return sealed, err
}

// allKeys lists every read-model key and wallet-key address the store
// implies, for a full resync. Only names are listed; the values are read
// one by one as they are published, so a resync never holds the whole
// store in memory.
func (s *store) allKeys() (registryKeys, walletAddresses []string, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		accounts := tx.Bucket(bucketAccounts)
		err := accounts.ForEachBucket(func(k []byte) error {
			registryKeys = append(registryKeys, registry.AccountKVKey(string(k)))
			return accounts.Bucket(k).Bucket(bucketWallets).ForEach(func(addr, _ []byte) error {
				walletAddresses = append(walletAddresses, string(addr))
				return nil
			})
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketKeyHashes).ForEach(func(h, _ []byte) error {
			registryKeys = append(registryKeys, registry.APIKeyKVKey(string(h)))
			return nil
		})
	})
	return registryKeys, walletAddresses, err
}
