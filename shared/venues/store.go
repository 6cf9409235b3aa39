package venues

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/tradeapi/tradeapi/shared/bus"
)

// Bucket is the key-value bucket of the venues' states, one key per chain
// and venue (Key). The Solana workers write it (their watchers), the
// registry writes a manual resume, and ingress, the workers and the admin
// API read it.
const Bucket = bus.BucketVenues

// BucketConfig is the bucket's configuration: one value per key, on disk,
// replicated like every other bucket.
func BucketConfig(replicas int) jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{Bucket: Bucket, History: 1, Storage: jetstream.FileStorage, Replicas: max(replicas, 1)}
}

// Declare creates the bucket, or updates its configuration, and binds to
// it. Only a connection allowed to declare streams may call it.
func Declare(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.KeyValue, error) {
	// As every bucket: one that refuses rollups (bus.DeclareBucket).
	if err := bus.DeclareBucket(ctx, js, BucketConfig(replicas)); err != nil {
		return nil, fmt.Errorf("declare bucket %s: %w", Bucket, err)
	}
	return Open(ctx, js)
}

// Open binds to the bucket someone else declared.
func Open(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, Bucket)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", Bucket, err)
	}
	return kv, nil
}

// Key is the bucket key of a venue on a chain: "<chain>.<venue>".
func Key(chain, venue string) string { return chain + "." + venue }

// recordAttempts bounds the compare-and-set retries of Record: the writers
// of one key are the few watchers of its chain and the admin API.
const recordAttempts = 8

// Store reads and writes the venues bucket.
type Store struct {
	kv jetstream.KeyValue
}

// NewStore returns the store of the venues bucket kv.
func NewStore(kv jetstream.KeyValue) *Store { return &Store{kv: kv} }

// Get returns the state of venue on chain; ok is false when none was ever
// recorded.
func (s *Store) Get(ctx context.Context, chain, venue string) (st State, ok bool, err error) {
	st, _, ok, err = s.get(ctx, Key(chain, venue))
	return st, ok, err
}

func (s *Store) get(ctx context.Context, key string) (State, uint64, bool, error) {
	e, err := s.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return State{}, 0, false, nil
	}
	if err != nil {
		return State{}, 0, false, fmt.Errorf("venues: read %s: %w", key, err)
	}
	var st State
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return State{}, 0, false, fmt.Errorf("venues: decode %s: %w", key, err)
	}
	return st, e.Revision(), true, nil
}

// List returns every recorded state, by chain then venue.
func (s *Store) List(ctx context.Context) ([]State, error) {
	lister, err := s.kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("venues: list: %w", err)
	}
	defer func() { _ = lister.Stop() }()
	out := []State{}
	for key := range lister.Keys() {
		st, _, ok, err := s.get(ctx, key)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, st)
		}
	}
	sortStates(out)
	return out, nil
}

// sortStates orders states by chain, then by the venues' fixed order.
func sortStates(states []State) {
	rank := func(v string) int {
		for i, k := range append(SolanaVenues, EVMVenues...) {
			if k == v {
				return i
			}
		}
		return len(SolanaVenues) + len(EVMVenues)
	}
	sort.SliceStable(states, func(i, j int) bool {
		if c := strings.Compare(states[i].Chain, states[j].Chain); c != 0 {
			return c < 0
		}
		return rank(states[i].Venue) < rank(states[j].Venue)
	})
}

// Record writes next as its venue's state with a compare-and-set, unless
// the stored state was checked at a later chain height within heightTrust
// before next (a slower watcher's older news). Since carries over from the
// stored state while the state stays the same. It returns the state that
// was stored before, the state stored now (next as written, or the newer
// one left in place), and whether next was written.
func (s *Store) Record(ctx context.Context, next State) (prev, stored State, wrote bool, err error) {
	return s.record(ctx, next, false)
}

// RecordAsked is Record of a verdict an operator asked for (an admin
// resume): written whatever height the stored state names.
func (s *Store) RecordAsked(ctx context.Context, next State) (prev, stored State, wrote bool, err error) {
	return s.record(ctx, next, true)
}

// heightTrust is how long a stored state's height outranks a verdict at a
// lower one: a watcher's check takes seconds, so a lower height checked
// later than this is no older news but another history of the chain (an
// RPC that served another chain, fixed since, or a local chain reset),
// whose heights the stored one's cannot be compared with. Trusted for
// ever, a pause recorded at another chain's height never lifted, and a
// failure at a lower height was never recorded.
const heightTrust = time.Minute

func (s *Store) record(ctx context.Context, next State, asked bool) (prev, stored State, wrote bool, err error) {
	key := Key(next.Chain, next.Venue)
	for range recordAttempts {
		cur, rev, ok, err := s.get(ctx, key)
		if err != nil {
			return State{}, State{}, false, err
		}
		if ok && !asked && next.Height < cur.Height && !next.CheckedAt.After(cur.CheckedAt.Add(heightTrust)) {
			return cur, cur, false, nil
		}
		st := next
		if ok && cur.State == st.State && !cur.Since.IsZero() {
			st.Since = cur.Since
		} else {
			st.Since = st.CheckedAt
		}
		b, _ := json.Marshal(st)
		if ok {
			_, err = s.kv.Update(ctx, key, b, rev)
		} else {
			_, err = s.kv.Create(ctx, key, b)
		}
		if err == nil {
			return cur, st, true, nil
		}
		if !bus.Conflict(err) {
			return State{}, State{}, false, fmt.Errorf("venues: write %s: %w", key, err)
		}
	}
	return State{}, State{}, false, fmt.Errorf("venues: write %s: still changing after %d attempts", key, recordAttempts)
}
