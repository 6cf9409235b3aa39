// Package bustest starts the NATS side of the pipeline for tests: an
// embedded server with JetStream in a test's temporary folder, a
// connection, and every stream and bucket declared.
package bustest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bus is a running embedded server and one connection to it.
type Bus struct {
	Server  *bus.Server
	Conn    *nats.Conn
	JS      jetstream.JetStream
	Buckets *bus.Buckets
}

// Start starts the server, connects as name and declares everything; the
// test's cleanup stops it all.
func Start(t testing.TB, name string) *Bus {
	t.Helper()
	return start(t, name, bus.ServerConfig{StoreDir: t.TempDir()})
}

// StartAuth is Start with a server that requires credentials, as every
// deployment does, and also listens on a free port of 127.0.0.1 (ClientURL).
// Conn is the admin's; bus.Server.ConnectAs and bus.ConnectOptions connect
// as a role with that role's permissions.
func StartAuth(t testing.TB, name string) (*Bus, bus.Credentials) {
	t.Helper()
	creds := bus.Credentials{User: bus.DefaultNATSUser, Password: rand.Text()}
	return start(t, name, bus.ServerConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Credentials: creds}), creds
}

func start(t testing.TB, name string, cfg bus.ServerConfig) *Bus {
	t.Helper()
	srv, err := bus.StartServer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.Connect(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, js, bus.Options{}); err != nil {
		t.Fatal(err)
	}
	b, err := bus.OpenBuckets(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	return &Bus{Server: srv, Conn: nc, JS: js, Buckets: b}
}

// NextReply reads the next answer a worker or the broadcaster sent to
// sub's inbox, waiting at most wait.
func NextReply(t testing.TB, sub *nats.Subscription, wait time.Duration) wire.Reply {
	t.Helper()
	m, err := sub.NextMsg(wait)
	if err != nil {
		t.Fatalf("no answer on %s: %v", sub.Subject, err)
	}
	var r wire.Reply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// PurgeKey takes key out of bucket with no marker left, as an operator's
// purge of the bucket's stream by subject does (the buckets refuse a
// key's own purge, a rollup): a key lost behind the service's back.
func PurgeKey(t testing.TB, js jetstream.JetStream, bucket, key string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, bus.KVStream(bucket))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Purge(ctx, jetstream.WithPurgeSubject("$KV."+bucket+"."+key)); err != nil {
		t.Fatal(err)
	}
}
