package service

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestMetricsListenerStopsLast: once the process stops, the metrics
// listener answers /readyz 503, /healthz and /metrics while the other
// stages drain, and closes only after the last of them.
func TestMetricsListenerStopsLast(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	a := freeAddrs(t, 2)
	cfg.Devnet.Addr, cfg.Listen.Metrics = a[0], a[1]
	u := New(cfg, Options{Roles: []string{RoleDevnet}}, slog.New(slog.DiscardHandler), io.Discard)
	stop, err := u.Start(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// A component of the last stage before the metrics listener that takes
	// its time to drain.
	release := make(chan struct{})
	u.stages.chains.goRun("slow drain", func(ctx context.Context) error {
		<-ctx.Done()
		<-release
		return nil
	}, u.fail)
	get := func(path string) (int, error) {
		c := http.Client{Timeout: time.Second}
		resp, err := c.Get("http://" + cfg.Listen.Metrics + path)
		if err != nil {
			return 0, err
		}
		_ = resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := get("/readyz"); err != nil || code != http.StatusOK {
		t.Fatalf("/readyz before stopping: %d, %v", code, err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop(30 * time.Second) }()
	poll.Until(t, 10*time.Second, "/readyz 503 while draining", func() bool {
		code, err := get("/readyz")
		if err != nil {
			t.Fatalf("/readyz while draining: %v", err)
		}
		return code == http.StatusServiceUnavailable
	})
	for _, path := range []string{"/healthz", "/metrics"} {
		if code, err := get(path); err != nil || code != http.StatusOK {
			t.Fatalf("%s while draining: %d, %v", path, code, err)
		}
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
	if _, err := get("/readyz"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("/readyz after stopping: %v, want connection refused", err)
	}
}
