package bus_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
)

const authViolation = "Authorization Violation"

func TestClientsWithoutCredentialsAreRefused(t *testing.T) {
	t.Parallel()
	b, creds := bustest.StartAuth(t, "admin")
	_, ingressPass := bus.ClientCredentials(bus.RoleIngress, creds)
	for name, opts := range map[string][]nats.Option{
		"no credentials":              nil,
		"wrong password":              {nats.UserInfo("tradeapi-ingress", "wrong")},
		"master password for a role":  {nats.UserInfo("tradeapi-ingress", creds.Password)},
		"role password for the admin": {nats.UserInfo(creds.User, ingressPass)},
		"role password for another":   {nats.UserInfo("tradeapi-worker", ingressPass)},
		"unknown user":                {nats.UserInfo("tradeapi-nobody", ingressPass)},
	} {
		t.Run(name, func(t *testing.T) {
			nc, err := nats.Connect(b.Server.ClientURL(), opts...)
			if err == nil {
				nc.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), authViolation) {
				t.Fatalf("err = %v, want %q", err, authViolation)
			}
		})
	}
}

func TestInProcessConnectionsAuthenticate(t *testing.T) {
	t.Parallel()
	creds := bus.Credentials{User: "tradeapi", Password: "in-process-master"}
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Credentials: creds}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)

	admin, err := srv.Connect("core")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ajs, err := jetstream.New(admin)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, ajs, bus.Options{}); err != nil {
		t.Fatal(err)
	}
	wk, err := ajs.KeyValue(ctx, bus.BucketWalletKeys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wk.Put(ctx, "addr1", []byte("sealed")); err != nil {
		t.Fatal(err)
	}

	worker := inProcessRole(t, srv, bus.RoleWorker)
	if e, err := worker.kv(ctx, bus.BucketWalletKeys).Get(ctx, "addr1"); err != nil || string(e.Value()) != "sealed" {
		t.Fatalf("worker reads the wallet keys in process: %v", err)
	}
	worker.clean(t)
	ingress := inProcessRole(t, srv, bus.RoleIngress)
	ingress.denied(t, "read the wallet keys", "$JS.API.DIRECT.GET.KV_wallet_keys", func(ctx context.Context) error {
		_, err := ingress.kv(context.Background(), bus.BucketWalletKeys).Get(ctx, "addr1")
		return err
	})

	if _, err := srv.ConnectAs("nobody", "x"); err == nil {
		t.Error("ConnectAs accepted an unknown role")
	}
}

func TestServerRefusesACredsFile(t *testing.T) {
	t.Parallel()
	_, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(),
		Credentials: bus.Credentials{CredsFile: "ingress.creds"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "creds file") {
		t.Fatalf("err = %v, want a creds-file refusal", err)
	}
}

func TestAwaitDeclared(t *testing.T) {
	t.Parallel()
	creds := bus.Credentials{User: "tradeapi", Password: "await-master"}
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Credentials: creds}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	worker := inProcessRole(t, srv, bus.RoleWorker)
	registry := inProcessRole(t, srv, bus.RoleRegistry)

	short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	err = bus.DeclareAs(short, worker.js, bus.RoleWorker, bus.Options{})
	cancel()
	if err == nil || !strings.Contains(err.Error(), "declared by the registry") {
		t.Fatalf("a worker before the registry: err = %v, want it to wait for the streams", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	waited := make(chan error, 1)
	go func() { waited <- bus.DeclareAs(ctx, worker.js, bus.RoleWorker, bus.Options{}) }()
	if err := bus.DeclareAs(ctx, registry.js, bus.RoleRegistry, bus.Options{}); err != nil {
		t.Fatalf("the registry declares: %v", err)
	}
	if err := <-waited; err != nil {
		t.Fatalf("the worker waits for the registry: %v", err)
	}
	if _, err := bus.OpenBuckets(ctx, worker.js); err != nil {
		t.Fatalf("the worker opens every bucket: %v", err)
	}
	worker.clean(t)
	registry.clean(t)
}

// TestServerHoldsNoPlainPassword: the server compares the clients'
// passwords with bcrypt hashes, so it logs no warning about plain ones,
// and the admin and every role still connect with theirs.
func TestServerHoldsNoPlainPassword(t *testing.T) {
	t.Parallel()
	var logged strings.Builder
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logged.Write(p)
	}), nil))
	creds := bus.Credentials{User: "tradeapi", Password: "hashed-master"}
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Credentials: creds}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	for _, role := range append(bus.Roles(), bus.RoleAdmin) {
		user, pass := bus.ClientCredentials(role, creds)
		nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo(user, pass))
		if err != nil {
			t.Fatalf("%s: %v", role, err)
		}
		nc.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(logged.String(), "Plaintext passwords") {
		t.Fatalf("the server warned about plain passwords:\n%s", logged.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
