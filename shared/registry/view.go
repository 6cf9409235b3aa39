package registry

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// View is a process's in-memory copy of the registry's read model, fed by a
// watch of bus.BucketRegistry. Lookups read an immutable snapshot through
// one atomic load, so they never wait for the watch.
type View struct {
	kv  jetstream.KeyValue
	log *slog.Logger

	snap      atomic.Pointer[viewState]
	ready     chan struct{}
	readyOnce sync.Once
}

type viewState struct {
	accounts map[string]*Account
	keys     map[[32]byte]KeyRef
}

// NewView returns a view of the read model in kv (the bus.BucketRegistry
// bucket). It is empty until Run has loaded the bucket; see Ready.
func NewView(kv jetstream.KeyValue, log *slog.Logger) *View {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	v := &View{kv: kv, log: log, ready: make(chan struct{})}
	v.snap.Store(&viewState{accounts: map[string]*Account{}, keys: map[[32]byte]KeyRef{}})
	return v
}

// Ready is closed once the initial content of the bucket is loaded.
func (v *View) Ready() <-chan struct{} { return v.ready }

// Run watches the bucket until ctx ends, and returns nil then. When the
// watch ends (the connection closed, the server restarted) it starts a new
// one; a new watch rebuilds the whole view, so deletes missed meanwhile are
// not kept, and the old view keeps answering until the new one is loaded.
func (v *View) Run(ctx context.Context) error {
	back := NewBackoff()
	for {
		loaded, err := v.watch(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if loaded {
			back.Reset()
		}
		v.log.Warn("registry watch ended, restarting", "err", err)
		if !back.Sleep(ctx) {
			return nil
		}
	}
}

// stallCheck is how often a loaded watch compares what it has seen with the
// bucket's last revision. The client's ordered consumer notices a lost
// server only after missing heartbeats for several seconds; this check
// restarts a stalled watch within about two periods instead.
const stallCheck = time.Second

// watch runs one watch; loaded reports that it got past the initial values.
func (v *View) watch(ctx context.Context) (loaded bool, err error) {
	w, err := v.kv.WatchAll(ctx)
	if err != nil {
		return false, fmt.Errorf("watch %s: %w", v.kv.Bucket(), err)
	}
	defer bus.StopWatching(w)
	building := &viewState{accounts: map[string]*Account{}, keys: map[[32]byte]KeyRef{}}
	updates := w.Updates()
	tick := time.NewTicker(stallCheck)
	defer tick.Stop()
	var seen, behind uint64 // highest revision applied; bucket's last revision at the previous check
	for {
		var e jetstream.KeyValueEntry
		var ok bool
		select {
		case <-ctx.Done():
			return loaded, ctx.Err()
		case <-tick.C:
			if !loaded {
				continue
			}
			if behind > seen {
				return loaded, fmt.Errorf("watch stalled at revision %d of %d", seen, behind)
			}
			behind = v.lastRevision(ctx)
			continue
		case e, ok = <-updates:
		}
		if !ok {
			return loaded, errors.New("watch closed")
		}
		if !loaded {
			if e == nil {
				v.snap.Store(building)
				loaded = true
				v.readyOnce.Do(func() { close(v.ready) })
				v.log.Info("registry view loaded", "accounts", len(building.accounts), "keys", len(building.keys))
				continue
			}
			seen = max(seen, e.Revision())
			v.apply(building, e)
			continue
		}
		if e == nil {
			continue
		}
		// Copy on write, one copy for every update already waiting, so a
		// burst of changes costs one copy of the maps.
		cur := v.snap.Load()
		next := &viewState{accounts: cur.accounts, keys: cur.keys}
		var clonedAccounts, clonedKeys bool
		for {
			if strings.HasPrefix(e.Key(), AccountKeyPrefix) && !clonedAccounts {
				next.accounts, clonedAccounts = maps.Clone(cur.accounts), true
			}
			if strings.HasPrefix(e.Key(), APIKeyKeyPrefix) && !clonedKeys {
				next.keys, clonedKeys = maps.Clone(cur.keys), true
			}
			seen = max(seen, e.Revision())
			v.apply(next, e)
			more := false
			select {
			case e, ok = <-updates:
				more = ok && e != nil
			default:
			}
			if !more {
				break
			}
		}
		v.snap.Store(next)
		if !ok {
			return loaded, errors.New("watch closed")
		}
	}
}

// lastRevision returns the bucket's last revision, or 0 when it cannot be
// read (the connection is down: nothing to compare with yet).
func (v *View) lastRevision(ctx context.Context) uint64 {
	ctx, cancel := context.WithTimeout(ctx, stallCheck/2)
	defer cancel()
	st, err := v.kv.Status(ctx)
	if err != nil {
		return 0
	}
	if s, ok := st.(*jetstream.KeyValueBucketStatus); ok && s.StreamInfo() != nil {
		return s.StreamInfo().State.LastSeq
	}
	return 0
}

// apply writes one entry into st, whose maps the caller owns.
func (v *View) apply(st *viewState, e jetstream.KeyValueEntry) {
	key := e.Key()
	del := e.Operation() == jetstream.KeyValueDelete || e.Operation() == jetstream.KeyValuePurge
	switch {
	case strings.HasPrefix(key, AccountKeyPrefix):
		id := strings.TrimPrefix(key, AccountKeyPrefix)
		if del {
			delete(st.accounts, id)
			return
		}
		var d AccountDoc
		if err := json.Unmarshal(e.Value(), &d); err != nil {
			v.log.Error("bad account entry in read model", "key", key, "err", err)
			return
		}
		st.accounts[id] = newAccount(&d)
	case strings.HasPrefix(key, APIKeyKeyPrefix):
		var h [32]byte
		if n, err := hex.Decode(h[:], []byte(strings.TrimPrefix(key, APIKeyKeyPrefix))); err != nil || n != 32 {
			v.log.Error("bad api key entry in read model", "key", key)
			return
		}
		if del {
			delete(st.keys, h)
			return
		}
		var ref KeyRef
		if err := json.Unmarshal(e.Value(), &ref); err != nil {
			v.log.Error("bad api key entry in read model", "key", key, "err", err)
			return
		}
		st.keys[h] = ref
	}
}

// minAPIKeyLen is the shortest well-formed key: prefix, family, and 32
// base58 characters.
const minAPIKeyLen = len(APIKeyPrefix) + len("sol_live_") + 32

// Authenticate returns what an API key stands for. It hashes the key and
// looks the hash up in memory; it does not allocate.
func (v *View) Authenticate(token string) (KeyRef, bool) {
	if len(token) < minAPIKeyLen || len(token) > maxAPIKeyLen || !strings.HasPrefix(token, APIKeyPrefix) {
		return KeyRef{}, false
	}
	ref, ok := v.snap.Load().keys[HashAPIKey(token)]
	return ref, ok
}

// Account returns an account's current snapshot. The snapshot never
// changes; a later change to the account gives a new one.
func (v *View) Account(id string) (*Account, bool) {
	a, ok := v.snap.Load().accounts[id]
	return a, ok
}

// Account is an immutable snapshot of an account's public view. Slices it
// returns are shared and must not be modified.
type Account struct {
	ID      string
	Name    string
	Created time.Time

	fams       [2]familyView
	strategy   []wire.AutoOrder
	webhookURL string
}

type familyView struct {
	wallets []Wallet       // natural label order
	active  []Wallet       // the spot_active ones, same order
	byAddr  map[string]int // addressIndexKey -> index in wallets
	limits  Limits
	feeCaps FeeCaps
	listing []byte
}

// listingEntry is a wallet as the public wallet listing shows it.
type listingEntry struct {
	Address    string `json:"address"`
	Label      string `json:"label"`
	SpotActive bool   `json:"spot_active"`
}

type listingBody struct {
	Success bool `json:"success"`
	Data    struct {
		Wallets []listingEntry `json:"wallets"`
	} `json:"data"`
}

func newAccount(d *AccountDoc) *Account {
	a := &Account{ID: d.ID, Name: d.Name, Created: d.Created, strategy: d.Strategy.AutoOrders}
	if d.Webhook != nil {
		a.webhookURL = d.Webhook.URL
	}
	for i, f := range Families {
		fv := &a.fams[i]
		fv.limits = DefaultLimits
		if l, ok := d.Limits[f]; ok {
			fv.limits = l
		}
		fv.feeCaps = DefaultFeeCaps(f)
		if c, ok := d.FeeCaps[f]; ok {
			fv.feeCaps = c
		}
		for _, w := range d.Wallets {
			if w.Family == f {
				fv.wallets = append(fv.wallets, w)
			}
		}
		sort.SliceStable(fv.wallets, func(i, j int) bool { return NaturalLess(fv.wallets[i].Label, fv.wallets[j].Label) })
		fv.byAddr = make(map[string]int, len(fv.wallets))
		body := listingBody{Success: true}
		body.Data.Wallets = make([]listingEntry, 0, len(fv.wallets))
		for j, w := range fv.wallets {
			fv.byAddr[AddressIndexKey(w.Address)] = j
			if w.SpotActive {
				fv.active = append(fv.active, w)
			}
			body.Data.Wallets = append(body.Data.Wallets, listingEntry{Address: w.Address, Label: w.Label, SpotActive: w.SpotActive})
		}
		// Marshalling plain strings and bools cannot fail.
		fv.listing, _ = json.Marshal(body)
	}
	return a
}

func (a *Account) fam(f wire.Family) *familyView {
	switch f {
	case wire.FamilySol:
		return &a.fams[0]
	case wire.FamilyEVM:
		return &a.fams[1]
	}
	return nil
}

// Wallets returns the account's wallets of a family in natural label order
// (W1, W2, ... W10).
func (a *Account) Wallets(f wire.Family) []Wallet {
	if fv := a.fam(f); fv != nil {
		return fv.wallets
	}
	return nil
}

// ActiveWallets returns the wallets of a family with spot_active set, in
// natural label order: the wallets of a swap that omits wallets.
func (a *Account) ActiveWallets(f wire.Family) []Wallet {
	if fv := a.fam(f); fv != nil {
		return fv.active
	}
	return nil
}

// Wallet looks a wallet of a family up by address. EVM addresses match in
// any letter case; the wallet returned carries the checksummed address.
func (a *Account) Wallet(f wire.Family, address string) (Wallet, bool) {
	fv := a.fam(f)
	if fv == nil {
		return Wallet{}, false
	}
	key := address
	if f == wire.FamilyEVM {
		key = strings.ToLower(address)
	}
	i, ok := fv.byAddr[key]
	if !ok {
		return Wallet{}, false
	}
	return fv.wallets[i], true
}

// FeeCaps returns the account's fee caps of a family.
func (a *Account) FeeCaps(f wire.Family) FeeCaps {
	if fv := a.fam(f); fv != nil {
		return fv.feeCaps
	}
	return DefaultFeeCaps(f)
}

// Limits returns the account's rate-budget figures of a family.
func (a *Account) Limits(f wire.Family) Limits {
	if fv := a.fam(f); fv != nil {
		return fv.limits
	}
	return DefaultLimits
}

// Strategy returns the saved Spot strategy: the auto-orders applied to a
// buy that omits auto_orders. Empty when none is saved.
func (a *Account) Strategy() []wire.AutoOrder { return a.strategy }

// WebhookURL returns the URL the account's order events are POSTed to, or
// "" when it has no webhook. The signing secret is not in the view.
func (a *Account) WebhookURL() string { return a.webhookURL }

// WalletListing returns the complete body of GET /api/v1/wallets for a
// family, {"success":true,"data":{"wallets":[...]}}, ready to write.
func (a *Account) WalletListing(f wire.Family) []byte {
	if fv := a.fam(f); fv != nil {
		return fv.listing
	}
	return []byte(`{"success":true,"data":{"wallets":[]}}`)
}
