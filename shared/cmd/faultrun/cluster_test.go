package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/freeport"
	"github.com/tradeapi/tradeapi/shared/poll"
)

var clusterDir = filepath.Join("..", "..", "..", "configs", "cluster")

// TestClusterConfigs checks that the three committed nats-server files are
// one cluster on 127.0.0.1 with the documented ports and separate stores.
func TestClusterConfigs(t *testing.T) {
	names := map[string]bool{}
	stores := map[string]bool{}
	for i := 1; i <= 3; i++ {
		t.Run(fmt.Sprintf("nats-%d", i), func(t *testing.T) {
			opts, err := server.ProcessConfigFile(filepath.Join(clusterDir, fmt.Sprintf("nats-%d.conf", i)))
			if err != nil {
				t.Fatal(err)
			}
			checks := []struct {
				what      string
				got, want any
			}{
				{"listen host", opts.Host, "127.0.0.1"},
				{"client port", opts.Port, 4221 + i},
				{"monitor host", opts.HTTPHost, "127.0.0.1"},
				{"monitor port", opts.HTTPPort, 8221 + i},
				{"cluster host", opts.Cluster.Host, "127.0.0.1"},
				{"cluster port", opts.Cluster.Port, 6221 + i},
				{"cluster name", opts.Cluster.Name, "tradeapi"},
				{"routes", len(opts.Routes), 3},
				{"jetstream", opts.JetStream, true},
				{"max payload", opts.MaxPayload, int32(8 << 20)},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
			for _, r := range opts.Routes {
				if r.Hostname() != "127.0.0.1" {
					t.Errorf("route %s is not on 127.0.0.1", r)
				}
			}
			if filepath.IsAbs(opts.StoreDir) || opts.StoreDir == "" {
				t.Errorf("store_dir %q: want a relative folder", opts.StoreDir)
			}
			if names[opts.ServerName] || stores[opts.StoreDir] {
				t.Errorf("server_name %q or store_dir %q shared with another node", opts.ServerName, opts.StoreDir)
			}
			names[opts.ServerName], stores[opts.StoreDir] = true, true
		})
	}
}

// TestTradeapiConfig checks that tradeapi.yaml loads strictly, names the
// three nodes' client ports and asks for three replicas.
func TestTradeapiConfig(t *testing.T) {
	cfg, err := config.Load(filepath.Join(clusterDir, "tradeapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	want := "nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224"
	if cfg.NATS.URL != want || cfg.NATS.Replicas != 3 {
		t.Errorf("nats = %q replicas %d, want %q replicas 3", cfg.NATS.URL, cfg.NATS.Replicas, want)
	}
}

// TestDeclareOnCluster runs the committed files as an in-process cluster on
// free ports, dials it with a comma-separated URL list as the roles do,
// declares every stream and bucket at three replicas, and checks that the
// connection and the buckets survive the loss of the node it is on.
func TestDeclareOnCluster(t *testing.T) {
	var client, route [3]int
	for i := range 3 {
		var err error
		if client[i], err = freeport.Port(); err != nil {
			t.Fatal(err)
		}
		if route[i], err = freeport.Port(); err != nil {
			t.Fatal(err)
		}
	}
	var routes, urls []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", route[i]))
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", client[i]))
	}
	servers := make([]*server.Server, 3)
	for i := range 3 {
		opts, err := server.ProcessConfigFile(filepath.Join(clusterDir, fmt.Sprintf("nats-%d.conf", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		opts.Port, opts.HTTPPort, opts.Cluster.Port = client[i], 0, route[i]
		opts.Routes = server.RoutesFromStr(strings.Join(routes, ","))
		opts.StoreDir = t.TempDir()
		opts.NoSigs, opts.NoLog = true, true
		s, err := server.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		go s.Start()
		servers[i] = s
		t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	}
	for _, s := range servers {
		if !s.ReadyForConnections(10 * time.Second) {
			t.Fatalf("%s not ready", s.Name())
		}
	}

	nc, err := bus.Dial(strings.Join(urls, ","), "cluster-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if got := len(nc.Servers()); got < 3 {
		t.Fatalf("the connection knows %d servers, want 3: %v", got, nc.Servers())
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Each wait below tries again until the test's context ends.
	deadline, _ := ctx.Deadline()

	// The cluster elects its meta leader after it forms: poll with a deadline.
	if !poll.True(time.Until(deadline), func() bool {
		dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
		defer dcancel()
		err = bus.Declare(dctx, js, bus.Options{Replicas: 3})
		return err == nil
	}) {
		t.Fatalf("declare at 3 replicas: %v", err)
	}
	seen := map[string]bool{}
	for info := range js.ListStreams(ctx).Info() {
		seen[info.Config.Name] = true
		if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
			t.Errorf("stream %s: replicas %d, cluster %+v; want 3 replicas on 3 servers", info.Config.Name, info.Config.Replicas, info.Cluster)
		}
	}
	for _, name := range []string{bus.StreamOrders, bus.StreamTxs, "KV_" + bus.BucketOrders, "KV_" + bus.BucketSigned, "KV_" + bus.BucketIdempotency} {
		if !seen[name] {
			t.Errorf("stream %s not declared; have %v", name, seen)
		}
	}

	// Lose the node the connection is on: it moves to another, and a
	// bucket written before is still read and written.
	kv, err := js.KeyValue(ctx, bus.BucketOrders)
	if err != nil {
		t.Fatal(err)
	}
	// A new replicated bucket elects its leader a moment after it exists.
	if !poll.True(time.Until(deadline), func() bool {
		pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
		defer pcancel()
		_, err = kv.Put(pctx, "before", []byte("1"))
		return err == nil
	}) {
		t.Fatalf("put before: %v", err)
	}
	on := nc.ConnectedServerName()
	for _, s := range servers {
		if s.Name() == on {
			s.Shutdown()
			s.WaitForShutdown()
		}
	}
	if !poll.True(time.Until(deadline), func() bool {
		// Each try has its own deadline: a request sent while the client
		// was reconnecting may never be answered.
		pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
		defer pcancel()
		_, err = kv.Put(pctx, "after", []byte("2"))
		return err == nil
	}) {
		t.Fatalf("put after losing %s: %v", on, err)
	}
	if nc.ConnectedServerName() == on {
		t.Errorf("still connected to %s after it stopped", on)
	}
	var e jetstream.KeyValueEntry
	if !poll.True(time.Until(deadline), func() bool {
		gctx, gcancel := context.WithTimeout(ctx, 2*time.Second)
		defer gcancel()
		e, err = kv.Get(gctx, "before")
		return err == nil
	}) {
		t.Fatalf("get before after losing %s: %v", on, err)
	}
	if string(e.Value()) != "1" {
		t.Errorf("get before = %q; want 1", e.Value())
	}
}
