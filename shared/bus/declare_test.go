package bus_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestDeclareRetention checks that a fresh deployment gets ORDERS and TXS
// with limits retention, and that one whose streams an earlier version
// declared as work queues keeps them (the server cannot change that) and
// still declares everything else.
func TestDeclareRetention(t *testing.T) {
	t.Parallel()
	for _, earlier := range []bool{false, true} {
		srv, nc, js := serverIn(t, t.TempDir(), "declare")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		want := jetstream.LimitsPolicy
		if earlier {
			want = jetstream.WorkQueuePolicy
			for name, subj := range map[string]string{bus.StreamOrders: "orders.>", bus.StreamTxs: "txs.>"} {
				if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{subj},
					Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, MaxAge: 24 * time.Hour}); err != nil {
					t.Fatal(err)
				}
			}
		}
		for range 2 { // declaring is idempotent
			if err := bus.Declare(ctx, js, bus.Options{}); err != nil {
				t.Fatalf("earlier work queues %v: %v", earlier, err)
			}
		}
		for _, name := range []string{bus.StreamOrders, bus.StreamTxs} {
			s, err := js.Stream(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.CachedInfo().Config.Retention; got != want {
				t.Errorf("earlier work queues %v: %s retention %v, want %v", earlier, name, got, want)
			}
		}
		if _, err := bus.OpenBuckets(ctx, js); err != nil {
			t.Errorf("earlier work queues %v: %v", earlier, err)
		}
		cancel()
		nc.Close()
		srv.Shutdown()
	}
}

// TestReplicasOnOneServer: three replicas asked of a server that is not a
// cluster are refused naming nats.replicas, which the server's own words
// do not.
func TestReplicasOnOneServer(t *testing.T) {
	t.Parallel()
	srv, nc, js := serverIn(t, t.TempDir(), "replicas")
	defer srv.Shutdown()
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := bus.Declare(ctx, js, bus.Options{Replicas: 3})
	if err == nil || !strings.Contains(err.Error(), "nats.replicas is 3, but the NATS server is not a cluster") {
		t.Fatalf("declared with 3 replicas on one server: %v", err)
	}
}

// TestTrackingMarkersExpire checks that the tracking and positions buckets
// an earlier version declared without marker TTLs are given them, and that
// a purged entry leaves nothing behind once its marker's TTL passes: no
// marker per settled order stays in the server or in a restarted
// broadcaster's listing.
func TestTrackingMarkersExpire(t *testing.T) {
	t.Parallel()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := srv.Connect("declare")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bus.BucketTracking, History: 1,
		Storage: jetstream.FileStorage, TTL: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bus.BucketPositions, History: 1,
		Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	if err := bus.Declare(ctx, js, bus.Options{}); err != nil {
		t.Fatalf("declare over earlier tracking and positions buckets: %v", err)
	}
	for bucket, want := range map[string]time.Duration{bus.BucketPositions: bus.PositionsForget, bus.BucketTracking: bus.TrackingForget} {
		if got := markerTTL(ctx, t, js, bucket); got != want {
			t.Errorf("%s marker TTL %v, want %v", bucket, got, want)
		}
	}
	kv, err := js.KeyValue(ctx, bus.BucketTracking)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "eu-order", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := kv.Purge(ctx, "eu-order", jetstream.PurgeTTL(time.Second)); err != nil {
		t.Fatal(err)
	}
	s, err := js.Stream(ctx, "KV_"+bus.BucketTracking)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "the purge marker to expire", func() bool {
		info, err := s.Info(ctx)
		return err == nil && info.State.Msgs == 0
	})
	if keys, err := kv.ListKeys(ctx); err == nil {
		for k := range keys.Keys() {
			t.Errorf("key %q listed after its purge", k)
		}
	}
}

// markerTTL is how long bucket keeps its markers.
func markerTTL(ctx context.Context, t *testing.T, js jetstream.JetStream, bucket string) time.Duration {
	t.Helper()
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*jetstream.KeyValueBucketStatus).LimitMarkerTTL()
}

// TestStoreTakenOnce: a second server on a store directory another one
// uses is refused before it reads anything there; once the first stopped,
// the store is free again.
func TestStoreTakenOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := bus.StartServer(bus.ServerConfig{StoreDir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := bus.StartServer(bus.ServerConfig{StoreDir: dir}, nil); err == nil || !strings.Contains(err.Error(), "in use by another process") {
		if s != nil {
			s.Shutdown()
		}
		t.Fatalf("a second server on the store: %v", err)
	}
	first.Shutdown()
	again, err := bus.StartServer(bus.ServerConfig{StoreDir: dir}, nil)
	if err != nil {
		t.Fatalf("the store after the first server stopped: %v", err)
	}
	again.Shutdown()
}

// TestKeepDeclaredAfterRestart: a NATS server restarted alone loses the
// buckets kept in memory (the signatures claims); the registry declares
// them again, so that the other roles' claims work and a role started
// afterwards does not wait for ever.
func TestKeepDeclaredAfterRestart(t *testing.T) {
	defer bus.SetKeepPoll(bus.SetKeepPoll(50 * time.Millisecond))
	dir := t.TempDir()
	srv, nc, js := serverIn(t, dir, "declare")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, js, bus.Options{}); err != nil {
		t.Fatal(err)
	}
	nc.Close()
	srv.Shutdown()

	srv, nc, js = serverIn(t, dir, "registry")
	defer srv.Shutdown()
	defer nc.Close()
	if _, err := js.KeyValue(ctx, bus.BucketSignatures); err == nil {
		t.Fatal("the memory bucket outlived the restart: the test proves nothing")
	}
	kctx, stop := context.WithCancel(ctx)
	kept := make(chan struct{})
	go func() { defer close(kept); bus.KeepDeclared(kctx, js, bus.Options{}, slog.New(slog.DiscardHandler)) }()
	defer func() { stop(); <-kept }()
	if err := bus.AwaitDeclared(ctx, js, nil); err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, bus.BucketSignatures)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Create(ctx, "sig", []byte("order")); err != nil {
		t.Fatalf("claim after the restart: %v", err)
	}
	// A bucket kept on disk that is gone stays gone: declared again it
	// would come back empty under the roles that use it.
	if err := js.DeleteKeyValue(ctx, bus.BucketNonces); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // four looks
	if _, err := js.KeyValue(ctx, bus.BucketNonces); err == nil {
		t.Fatal("a bucket kept on disk came back empty")
	}
}

// serverIn starts a NATS server keeping its streams in dir and connects to
// it as name.
func serverIn(t *testing.T, dir, name string) (*bus.Server, *nats.Conn, jetstream.JetStream) {
	t.Helper()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := srv.Connect(name)
	if err != nil {
		srv.Shutdown()
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	return srv, nc, js
}

// TestDeclareStreamBound: nats.stream_max_gib sizes the streams and the
// idempotency bucket that grow with the orders, and a bound the server's
// store cannot reserve is refused naming the key.
func TestDeclareStreamBound(t *testing.T) {
	t.Parallel()
	srv, nc, js := serverIn(t, t.TempDir(), "bound")
	defer srv.Shutdown()
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, js, bus.Options{MaxBytes: 64 << 20}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{bus.StreamOrders, bus.StreamTxs, bus.StreamEvents, bus.StreamWebhookRetries,
		bus.StreamWebhookBacklog, bus.KVStream(bus.BucketIdempotency)} {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.CachedInfo().Config.MaxBytes; got != 64<<20 {
			t.Errorf("%s bound %d, want 64 MiB", name, got)
		}
	}
	err := bus.Declare(ctx, js, bus.Options{MaxBytes: 1 << 50})
	if err == nil || !strings.Contains(err.Error(), "nats.stream_max_gib is 1048576 GiB") {
		t.Fatalf("a bound no store can reserve: %v", err)
	}
}
