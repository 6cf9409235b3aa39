package broadcaster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// maxStatusBatch is how many signatures one status call asks about.
const maxStatusBatch = 256

// tracked is one signature awaiting a final state.
type tracked struct {
	OrderID   string    `json:"order_id"`
	Chain     string    `json:"chain"`
	Signature string    `json:"signature"`
	LastValid uint64    `json:"last_valid,omitempty"`
	Sender    string    `json:"sender,omitempty"`
	Since     time.Time `json:"since"`
}

// tracker polls signature statuses and moves each to confirmed, failed or
// expired in its order record. What it tracks is also kept in the tracking
// bucket, so a restarted broadcaster carries on.
type tracker struct {
	br      *Broadcaster
	mu      sync.Mutex
	pending map[string]map[string]*tracked // chain -> signature -> entry
}

func newTracker(br *Broadcaster) *tracker {
	return &tracker{br: br, pending: map[string]map[string]*tracked{}}
}

func (t *tracker) add(ctx context.Context, b *wire.TxBatch, results []sendResult) error {
	now := time.Now()
	var list []*tracked
	for i, r := range results {
		if r.err != nil {
			continue
		}
		list = append(list, &tracked{OrderID: b.OrderID, Chain: b.Chain, Signature: r.signature,
			LastValid: b.Txs[i].LastValidBlockHeight, Since: now, Sender: senderOf(b.Txs[i])})
	}
	data, err := json.Marshal(list)
	if err != nil {
		return err
	}
	if _, err := t.br.b.Tracking.Put(ctx, b.OrderID, data); err != nil {
		return fmt.Errorf("persist tracking: %w", err)
	}
	t.insert(list)
	return nil
}

func (t *tracker) insert(list []*tracked) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range list {
		m := t.pending[e.Chain]
		if m == nil {
			m = map[string]*tracked{}
			t.pending[e.Chain] = m
		}
		m[e.Signature] = e
	}
	for chain, m := range t.pending {
		metrics.TrackedSignatures.WithLabelValues(chain).Set(float64(len(m)))
	}
}

// load picks up the tracking a previous run left.
func (t *tracker) load(ctx context.Context) error {
	lister, err := t.br.b.Tracking.ListKeys(ctx)
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil
		}
		return err
	}
	n := 0
	for key := range lister.Keys() {
		e, err := t.br.b.Tracking.Get(ctx, key)
		if err != nil {
			continue
		}
		var list []*tracked
		if json.Unmarshal(e.Value(), &list) == nil {
			t.insert(list)
			n += len(list)
		}
	}
	if n > 0 {
		t.br.log.Info("resumed tracking", "signatures", n)
	}
	return nil
}

func (t *tracker) run(ctx context.Context) {
	tick := time.NewTicker(t.br.cfg.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			for name, chain := range t.br.chains {
				t.poll(ctx, name, chain)
			}
		}
	}
}

// verdict is a final state reached by one signature.
type verdict struct {
	e     *tracked
	state string
	err   string
}

func (t *tracker) poll(ctx context.Context, name string, chain Chain) {
	t.mu.Lock()
	all := make([]*tracked, 0, len(t.pending[name]))
	for _, e := range t.pending[name] {
		all = append(all, e)
	}
	t.mu.Unlock()
	if len(all) == 0 {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	height, herr := chain.Height(cctx)
	if herr != nil {
		metrics.RPCErrors.WithLabelValues(name, "height").Inc()
	}
	var done []verdict
	for start := 0; start < len(all); start += maxStatusBatch {
		part := all[start:min(start+maxStatusBatch, len(all))]
		sigs := make([]string, len(part))
		for i, e := range part {
			sigs[i] = e.Signature
		}
		sts, err := chain.Statuses(cctx, sigs)
		if err != nil || len(sts) != len(part) {
			metrics.RPCErrors.WithLabelValues(name, "statuses").Inc()
			continue
		}
		for i, st := range sts {
			e := part[i]
			switch {
			case st.State != "":
				done = append(done, verdict{e, st.State, st.Err})
			case herr == nil && e.LastValid > 0 && height > e.LastValid:
				done = append(done, verdict{e, wire.StateExpired, "blockhash expired before the transaction landed"})
			case time.Since(e.Since) > t.br.cfg.ConfirmAfter:
				done = append(done, verdict{e, wire.StateExpired, "not seen on chain in time"})
			}
		}
	}
	if len(done) == 0 {
		return
	}
	byOrder := map[string][]verdict{}
	for _, v := range done {
		byOrder[v.e.OrderID] = append(byOrder[v.e.OrderID], v)
		sender := cmp.Or(v.e.Sender, metrics.SenderRPC)
		metrics.Transactions.With(name, sender, v.state).Inc()
		if v.state == wire.StateConfirmed {
			metrics.Stage.WithLabelValues("confirmation", name).Observe(time.Since(v.e.Since).Seconds())
			metrics.Landing.WithLabelValues(name, sender).Observe(time.Since(v.e.Since).Seconds())
		}
	}
	for id, vs := range byOrder {
		final := false
		var stored wire.Order
		err := t.br.orders.Update(cctx, id, nil, func(o *wire.Order) {
			for _, v := range vs {
				for i := range o.Signatures {
					if o.Signatures[i].Signature == v.e.Signature {
						o.Signatures[i].State = v.state
						o.Signatures[i].Error = v.err
					}
				}
			}
			orders.Settle(o)
			final = wire.FinalState(o.State)
			stored = *o
		})
		if err != nil && !errors.Is(err, orders.ErrNotFound) {
			t.br.log.Warn("store confirmation", "order_id", id, "err", err)
			continue // tried again next poll
		}
		t.mu.Lock()
		for _, v := range vs {
			delete(t.pending[name], v.e.Signature)
		}
		metrics.TrackedSignatures.WithLabelValues(name).Set(float64(len(t.pending[name])))
		t.mu.Unlock()
		if final && err == nil {
			t.settled(cctx, name, &stored)
		}
		if final || errors.Is(err, orders.ErrNotFound) {
			if err := t.br.b.Tracking.Delete(cctx, id); err != nil {
				t.br.log.Warn("forget tracking", "order_id", id, "err", err)
			}
		}
	}
}

// settled logs an order's final state and emits its event. It runs before
// the order's tracking is forgotten, so a tracker that dies in between
// settles the order, and emits the event, again after its restart.
func (t *tracker) settled(ctx context.Context, chain string, o *wire.Order) {
	typ, ok := events.FinalType(o.State)
	if !ok {
		return
	}
	failed := 0
	for _, s := range o.Signatures {
		if s.State != wire.StateConfirmed {
			failed++
		}
	}
	log := t.br.log.With("order_id", o.OrderID, "chain", chain, "state", o.State,
		"signatures", len(o.Signatures), "not_confirmed", failed)
	if o.State == wire.StateConfirmed {
		log.Debug("order final")
	} else {
		log.Info("order final")
	}
	t.br.events.Emit(ctx, typ, o)
}
