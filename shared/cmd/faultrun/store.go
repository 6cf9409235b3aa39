package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// natsView reads the deployment's JetStream state directly: the stream
// leaders (to pick the NATS node to kill), the replica counts, every order
// record of the run's account (to attribute each landed transaction to an
// order, including orders no answer named), the account's positions and
// the idempotency records.
type natsView struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// dialNATS connects as the deployment's admin, with the credentials the
// NATS nodes generated under the run's data folder: reading stream leaders
// and every bucket is beyond any one role's rights.
func dialNATS(url, dataDir string) (*natsView, error) {
	creds, err := bus.LoadCredentials(dataDir, bus.Credentials{})
	if err != nil {
		return nil, err
	}
	opts := append(bus.ConnectOptions(bus.RoleAdmin, creds), nats.Name("faultrun"), nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("nats: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &natsView{nc: nc, js: js}, nil
}

func (v *natsView) close() { v.nc.Close() }

// leader returns the server name leading stream.
func (v *natsView) leader(ctx context.Context, stream string) (string, error) {
	s, err := v.js.Stream(ctx, stream)
	if err != nil {
		return "", err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return "", err
	}
	if info.Cluster == nil || info.Cluster.Leader == "" {
		return "", fmt.Errorf("stream %s has no leader", stream)
	}
	return info.Cluster.Leader, nil
}

// replicas returns each stream's (buckets included) configured replicas
// and how many of them are current peers.
func (v *natsView) replicas(ctx context.Context) (map[string][2]int, error) {
	out := map[string][2]int{}
	l := v.js.ListStreams(ctx)
	for info := range l.Info() {
		peers := 0
		if info.Cluster != nil {
			if info.Cluster.Leader != "" {
				peers++
			}
			for _, r := range info.Cluster.Replicas {
				if r.Current {
					peers++
				}
			}
		}
		out[info.Config.Name] = [2]int{info.Config.Replicas, peers}
	}
	return out, l.Err()
}

// orders returns every order record of account.
func (v *natsView) orders(ctx context.Context, accountID string) (map[string]wire.Order, error) {
	out := map[string]wire.Order{}
	err := v.each(ctx, bus.BucketOrders, func(id string, raw []byte) error {
		var o wire.Order
		if err := json.Unmarshal(raw, &o); err != nil {
			return fmt.Errorf("order %s: %w", id, err)
		}
		if o.AccountID == accountID {
			out[id] = o
		}
		return nil
	})
	return out, err
}

// positions returns every position of account, as the exits engine keeps
// them: the source the buys' order lookups mirror.
func (v *natsView) positions(ctx context.Context, accountID string) (map[string]wire.Position, error) {
	out := map[string]wire.Position{}
	err := v.each(ctx, bus.BucketPositions, func(id string, raw []byte) error {
		var p wire.Position
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("position %s: %w", id, err)
		}
		if p.AccountID == accountID {
			out[id] = p
		}
		return nil
	})
	return out, err
}

// each calls fn with every key and value of bucket; keys deleted while it
// reads are skipped.
func (v *natsView) each(ctx context.Context, bucket string, fn func(key string, value []byte) error) error {
	kv, err := v.js.KeyValue(ctx, bucket)
	if err != nil {
		return err
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil
		}
		return err
	}
	var names []string
	for k := range keys.Keys() {
		names = append(names, k)
	}
	for _, k := range names {
		e, err := kv.Get(ctx, k)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", bucket, k, err)
		}
		if err := fn(k, e.Value()); err != nil {
			return err
		}
	}
	return nil
}

// idemRecord is the part of ingress's idempotency record the run reads.
type idemRecord struct {
	OrderID string `json:"order_id"`
	Done    bool   `json:"done"`
	Status  int    `json:"status"`
}

// idempotency returns the record of each Idempotency-Key the run sent on
// path, keyed as ingress keys them (the SHA-256 of account, family, route
// and key); keys without a record are absent.
func (v *natsView) idempotency(ctx context.Context, accountID, family, path string, keys []string) (map[string]idemRecord, error) {
	kv, err := v.js.KeyValue(ctx, bus.BucketIdempotency)
	if err != nil {
		return nil, err
	}
	out := map[string]idemRecord{}
	for _, k := range keys {
		sum := sha256.Sum256([]byte(strings.Join([]string{accountID, family, path, k}, "\x00")))
		e, err := kv.Get(ctx, hex.EncodeToString(sum[:]))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var r idemRecord
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, nil
}
