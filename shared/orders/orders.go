// Package orders keeps order records in their JetStream KV bucket. Several
// processes update one record (the worker on a business error, the
// broadcaster on send and on confirmation), so every update is a
// compare-and-set loop.
package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// ErrNotFound means there is no record of the order.
var ErrNotFound = errors.New("order not found")

// Store reads and writes order records.
type Store struct {
	kv jetstream.KeyValue
}

// NewStore returns a store over the orders bucket.
func NewStore(kv jetstream.KeyValue) *Store { return &Store{kv: kv} }

// Create stores a new record; an existing one is left as it is.
func (s *Store) Create(ctx context.Context, o *wire.Order) error {
	b, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("encode order %s: %w", o.OrderID, err)
	}
	if _, err := s.kv.Create(ctx, o.OrderID, b); err != nil && !bus.Conflict(err) {
		return fmt.Errorf("create order %s: %w", o.OrderID, err)
	}
	return nil
}

// Get returns a record.
func (s *Store) Get(ctx context.Context, id string) (*wire.Order, error) {
	o, _, err := s.get(ctx, id)
	return o, err
}

func (s *Store) get(ctx context.Context, id string) (*wire.Order, uint64, error) {
	e, err := s.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, fmt.Errorf("get order %s: %w", id, err)
	}
	var o wire.Order
	if err := json.Unmarshal(e.Value(), &o); err != nil {
		return nil, 0, fmt.Errorf("decode order %s: %w", id, err)
	}
	return &o, e.Revision(), nil
}

// Update applies fn to the record and writes it back, retrying when another
// process wrote in between. fn may be called more than once. A missing
// record is created from seed when seed is not nil.
func (s *Store) Update(ctx context.Context, id string, seed *wire.Order, fn func(*wire.Order)) error {
	_, err := s.UpdateFrom(ctx, id, seed, Stored{}, fn)
	return err
}

// Stored is a record as this process last wrote it: its bytes and the
// revision they were written at. The zero value knows nothing.
type Stored struct {
	data []byte
	rev  uint64
}

// UpdateFrom is Update starting from the record as this process last
// stored it (a Stored that Update's callers got back from an earlier
// UpdateFrom), which saves reading it back: the write names the revision,
// so when anything else wrote the record since, the write is refused and
// the update starts again from the record as it is. It returns the record
// as stored now.
func (s *Store) UpdateFrom(ctx context.Context, id string, seed *wire.Order, known Stored, fn func(*wire.Order)) (Stored, error) {
	return s.UpdateFromIfChanged(ctx, id, seed, known, func(o *wire.Order) bool { fn(o); return true })
}

// UpdateFromIfChanged is UpdateFrom whose fn reports whether it changed
// the record: one it left as it was is not written, and keeps its
// updated_at (an order settled again after a restart has not moved).
func (s *Store) UpdateFromIfChanged(ctx context.Context, id string, seed *wire.Order, known Stored, fn func(*wire.Order) bool) (Stored, error) {
	for attempt := 0; ; attempt++ {
		var o *wire.Order
		var rev uint64
		var err error
		if attempt == 0 && known.rev != 0 {
			o, rev = new(wire.Order), known.rev
			if err := json.Unmarshal(known.data, o); err != nil {
				return Stored{}, fmt.Errorf("decode order %s: %w", id, err)
			}
		} else if o, rev, err = s.get(ctx, id); errors.Is(err, ErrNotFound) && seed != nil {
			c := *seed
			o, rev = &c, 0
		} else if err != nil {
			return Stored{}, err
		}
		wasFinal := rev != 0 && wire.FinalState(o.State)
		if !fn(o) && rev != 0 {
			if attempt == 0 && known.rev != 0 {
				// Judged unchanged on this process's copy, which another
				// may have written since: judged again on the record.
				continue
			}
			b, err := json.Marshal(o)
			if err != nil {
				return Stored{}, fmt.Errorf("encode order %s: %w", id, err)
			}
			return Stored{data: b, rev: rev}, nil
		}
		o.UpdatedAt = time.Now().UTC()
		if !wasFinal && wire.FinalState(o.State) && o.EndedAt == nil {
			// When it ended, which later writes (its positions', the
			// exits engine's) do not move: a final event sent again is of
			// then.
			t := o.UpdatedAt
			o.EndedAt = &t
		}
		b, err := json.Marshal(o)
		if err != nil {
			return Stored{}, fmt.Errorf("encode order %s: %w", id, err)
		}
		var now uint64
		if rev == 0 {
			now, err = s.kv.Create(ctx, id, b)
		} else {
			now, err = s.kv.Update(ctx, id, b, rev)
		}
		if err == nil {
			return Stored{data: b, rev: now}, nil
		}
		if !bus.Conflict(err) || attempt >= 50 || ctx.Err() != nil {
			return Stored{}, fmt.Errorf("update order %s: %w", id, err)
		}
	}
}

// LastOfWallet reports whether sigs[i] is its wallet's last transaction in
// the order: a swap's, whatever came before it.
func LastOfWallet(sigs []wire.SigState, i int) bool {
	for _, s := range sigs[i+1:] {
		if s.Wallet == sigs[i].Wallet {
			return false
		}
	}
	return true
}

// Fail marks an order failed with a public error.
func (s *Store) Fail(ctx context.Context, id string, seed *wire.Order, e *apierr.Error) error {
	body := e.Body()
	return s.Update(ctx, id, seed, func(o *wire.Order) {
		o.State = wire.StateFailed
		o.Error = &body
	})
}

// Settle recomputes an order's state from its signatures: broadcast while
// any is not final; once all are final, confirmed when at least one traded,
// expired when all expired, failed otherwise. A swap's wallet trades in its
// last transaction: an EVM wallet's approval or tip comes before its swap,
// and one that landed while the swap did not confirms nothing. A launch's
// every transaction counts.
func Settle(o *wire.Order) {
	if len(o.Signatures) == 0 {
		return
	}
	confirmed, expired := 0, 0
	for i, s := range o.Signatures {
		if !wire.FinalState(s.State) {
			o.State = wire.StateBroadcast
			return
		}
		switch s.State {
		case wire.StateConfirmed:
			if o.Kind == wire.KindDeploy || LastOfWallet(o.Signatures, i) {
				confirmed++
			}
		case wire.StateExpired:
			expired++
		}
	}
	switch {
	case confirmed > 0:
		o.State = wire.StateConfirmed
	case expired == len(o.Signatures):
		o.State = wire.StateExpired
	default:
		o.State = wire.StateFailed
	}
}
