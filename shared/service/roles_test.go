package service

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestEveryRoleItsOwnNATSUser runs the deployment of the Procfile in one
// test process: the nats role (credentials generated under the data
// folder), then every role as a process of its own that connects as its
// own NATS user, with only its role's permissions, each given only its
// role's password (nats.role_password), as on hosts that do not hold the
// master (the local chains use no NATS).
// A Solana and an EVM buy go through the whole pipeline and confirm, and
// an exit sell fires through it: each role can do its work and no more.
func TestEveryRoleItsOwnNATSUser(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 13)
	cfg.Listen = config.Listen{SolEU: a[0], SolUS: a[1], EVM: a[2], Admin: a[3]}
	cfg.Devnet.Addr = a[4]
	fastExits(&cfg)

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *bus.Server, 1)
	done := make(chan error, 1)
	go func() {
		done <- bus.RunNATS(ctx, bus.NATSRoleConfig{DataDir: cfg.DataDir, Listen: a[5],
			Ready: func(s *bus.Server) { ready <- s }}, nil)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("nats role: %v", err)
		}
	})
	select {
	case srv := <-ready:
		cfg.NATS.URL = srv.ClientURL()
	case err := <-done:
		t.Fatalf("nats role: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("nats role not ready")
	}

	var registry *Up
	for i, role := range []string{RoleDevnet, RoleRegistry, RoleWorker, RoleBroadcaster, RoleExits, RoleIngress} {
		rc := cfg
		rc.Listen.Metrics = a[6+i]
		if role != RoleDevnet { // the local chains use no NATS
			master, err := bus.LoadCredentials(cfg.DataDir, bus.Credentials{})
			if err != nil {
				t.Fatal(err)
			}
			own, err := bus.RoleCredentials(role, master)
			if err != nil {
				t.Fatal(err)
			}
			rc.NATS.User, rc.NATS.RolePassword = own.User, own.RolePassword
		}
		u := New(rc, Options{Roles: []string{role}}, slog.New(slog.DiscardHandler), io.Discard)
		runUp(t, u)
		if role == RoleRegistry {
			registry = u
		}
	}
	env := newExitsEnv(t, registry, cfg)
	var mint string
	for _, tk := range registry.Demo.Tokens {
		if tk.Chain == wire.ChainSolana && tk.Venue == "pump_fun" {
			mint = tk.Address
		}
	}
	buy := env.swap(t, wire.FamilySol, map[string]any{"address": mint, "side": "Buy",
		"wallets": one(env.solW[0], "0.01"), "auto_orders": []map[string]any{{"type": "time", "after_seconds": 1}}})
	o := env.order(t, wire.FamilySol, buy, "its time exit sold", func(o *exitsOrder) bool {
		return len(o.Positions) == 1 && o.Positions[0].State == "closed"
	})
	env.soldOnce(t, wire.FamilySol, o, 0)

	for _, tk := range registry.Demo.Tokens {
		if tk.Chain == "base" {
			env.swap(t, wire.FamilyEVM, map[string]any{"address": tk.Address, "chain": "base", "side": "Buy",
				"wallets": one(env.evmW[0], "0.001")})
			break
		}
	}
}
