package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// TestDeclareRetention checks that a fresh deployment gets ORDERS and TXS
// with limits retention, and that one whose streams an earlier version
// declared as work queues keeps them (the server cannot change that) and
// still declares everything else.
func TestDeclareRetention(t *testing.T) {
	for _, earlier := range []bool{false, true} {
		srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		nc, err := srv.Connect("declare")
		if err != nil {
			t.Fatal(err)
		}
		js, _ := jetstream.New(nc)
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
