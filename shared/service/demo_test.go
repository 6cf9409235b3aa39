package service

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/logtest"
)

// TestRegistryRoleWaitsForTheLocalChains: a registry started on a fresh
// data folder before the local chains waits for them as long as they take
// (it exited after 30 s), then makes the demo and shows its keys; once the
// demo is made and seeded, a registry restarted while the local chains are
// away needs nothing of them and starts at once.
func TestRegistryRoleWaitsForTheLocalChains(t *testing.T) {
	t.Parallel()
	cfg := rolesConfig(t)

	var banner logtest.Buffer
	reg := New(cfg, Options{Roles: []string{RoleRegistry}}, slog.New(slog.DiscardHandler), &banner)
	type started struct {
		stop func(time.Duration) error
		err  error
	}
	regUp := make(chan started, 1)
	go func() {
		stop, err := reg.Start(120 * time.Second)
		regUp <- started{stop, err}
	}()
	select {
	case s := <-regUp:
		if s.stop != nil {
			_ = s.stop(10 * time.Second)
		}
		t.Fatalf("the registry started without the local chains to seed its demo on: %v", s.err)
	case <-time.After(2 * localChainsLogEvery):
	}
	dnCfg := cfg
	dnCfg.Listen.Metrics = freeAddrs(t, 1)[0]
	dn := New(dnCfg, Options{Roles: []string{RoleDevnet}}, slog.New(slog.DiscardHandler), io.Discard)
	stopDevnet, err := dn.Start(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s := <-regUp
	if s.err != nil {
		t.Fatalf("the registry, once the local chains came: %v", s.err)
	}
	if reg.Demo == nil || reg.Demo.SolKey == "" || !strings.Contains(banner.String(), reg.Demo.SolKey) ||
		!strings.Contains(banner.String(), reg.Secrets.AdminToken) {
		t.Fatalf("the registry's banner lacks the demo keys or the admin token:\n%s", banner.String())
	}
	if len(reg.Demo.Tokens) == 0 {
		t.Fatalf("the demo was not seeded: %+v", reg.Demo)
	}
	if err := s.stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := stopDevnet(10 * time.Second); err != nil {
		t.Fatal(err)
	}

	again := New(cfg, Options{Roles: []string{RoleRegistry}}, slog.New(slog.DiscardHandler), io.Discard)
	// As long as any start of the tests may take (startUp): a registry
	// declaring its buckets under the race detector on a loaded machine.
	stop, err := again.Start(60 * time.Second)
	if err != nil {
		t.Fatalf("a registry restarted while the local chains are away: %v", err)
	}
	if err := stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
}
