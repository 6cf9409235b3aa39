package service

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestStopsWithGoRun: `go run . up` dies of a SIGTERM without passing it
// on; the service it started stops too, and exits 0, instead of running on
// with its ports and data folder held. A service whose parent is anything
// else runs on when that parent dies, and stops on a SIGTERM of its own.
func TestStopsWithGoRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		parent   string
		stopsToo bool
	}{{"go", true}, {"supervise", false}} {
		t.Run(tt.parent, func(t *testing.T) {
			dir := t.TempDir()
			// A parent named as the go command is (a script's process takes
			// the script's name) that waits on the service and dies of a
			// SIGTERM without passing it on.
			script := filepath.Join(dir, tt.parent)
			err := os.WriteFile(script, []byte("#!/bin/sh\n\"$@\" &\necho $! > \"$PID_FILE\"\nwait\n"), 0o700)
			if err != nil {
				t.Fatal(err)
			}
			listen := freeAddr(t)
			status, pidFile := filepath.Join(dir, "status"), filepath.Join(dir, "pid")
			cmd := exec.Command(script, os.Args[0])
			cmd.Env = append(os.Environ(), commandArgsEnv+"=nats --listen "+listen, commandStatusEnv+"="+status,
				"PID_FILE="+pidFile, "TRADEAPI_DATA_DIR="+filepath.Join(dir, "data"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			child := 0
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				if child > 0 {
					_ = syscall.Kill(child, syscall.SIGKILL)
				}
			})
			poll.Until(t, 20*time.Second, "the service's listener", func() bool {
				c, err := net.Dial("tcp", listen)
				if err == nil {
					c.Close()
				}
				return err == nil
			})
			b, err := os.ReadFile(pidFile)
			if child, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
				t.Fatalf("the service's pid: %q %v", b, err)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if !tt.stopsToo {
				time.Sleep(300 * time.Millisecond) // deliberate: it would have stopped by now
				if _, err := os.Stat(status); err == nil {
					t.Fatalf("the service stopped with a parent named %s", tt.parent)
				}
				if err := syscall.Kill(child, syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			poll.Until(t, 10*time.Second, "the service's exit", func() bool {
				_, err := os.Stat(status)
				return err == nil
			})
			if b, _ := os.ReadFile(status); string(b) != "0" {
				t.Fatalf("the service exited %q, want 0", b)
			}
			child = 0
		})
	}
}
