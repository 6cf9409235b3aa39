package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestRefusesWhatTheConfigCannotServe: with the local chains off, `up` with
// no chain configured, a worker given a chain that is not configured, and
// the devnet role all refuse to start, exit non-zero and name the keys to
// set, before anything is started or written.
func TestRefusesWhatTheConfigCannotServe(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		extra string // more of the config file
		want  []string
	}{
		{"up with every chain unconfigured", []string{"up"}, "",
			[]string{"solana.rpc_url", "evm.chains.eth.rpc_url", "evm.chains.bsc.rpc_url", "evm.chains.base.rpc_url",
				"evm.chains.rbh.rpc_url", "evm.chains.arc.rpc_url", "devnet.enabled"}},
		{"worker of an unconfigured chain", []string{"worker", "--chain", "eth"}, "solana:\n  rpc_url: https://sol.example\n",
			[]string{"evm.chains.eth.rpc_url"}},
		{"worker of solana, unconfigured", []string{"worker", "--chain", "solana"}, "",
			[]string{"solana.rpc_url"}},
		{"the local chains themselves", []string{"devnet"}, "", []string{"devnet.enabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "data")
			file := filepath.Join(dir, "c.yaml")
			conf := "data_dir: " + data + "\ndevnet:\n  enabled: false\n" + tt.extra
			if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("TRADEAPI_DATA_DIR", "")
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, tt.args...), "--config", file)
			if code := run(args, &stdout, &stderr); code == 0 {
				t.Fatalf("exit 0, want a refusal; stderr %s", stderr.String())
			}
			for _, key := range tt.want {
				if !strings.Contains(stderr.String(), key) {
					t.Errorf("stderr does not name %s: %s", key, stderr.String())
				}
			}
			if _, err := os.Stat(data); !os.IsNotExist(err) {
				t.Errorf("the data folder was made (%v): something started", err)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q: nothing may be printed, no keys above all", stdout.String())
			}
		})
	}
}

// TestNATSRole runs `tradeapi nats` as the Procfile does: it generates the
// deployment's credentials under the data folder (mode 0600), refuses a
// client without them with Authorization Violation, lets a role's user in
// with them, and stops on its context.
func TestNATSRole(t *testing.T) {
	data := t.TempDir()
	t.Setenv("TRADEAPI_DATA_DIR", data)
	for _, k := range []string{"TRADEAPI_NATS_USER", "TRADEAPI_NATS_PASSWORD", "TRADEAPI_NATS_CREDS"} {
		t.Setenv(k, "")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- natsRole(ctx, []string{"--listen", addr}, &stderr) }()
	url := "nats://" + addr
	creds := poll.Value(t, 10*time.Second, "the nats role writes its credentials", func() (bus.Credentials, bool) {
		c, err := bus.LoadCredentials(data, bus.Credentials{})
		return c, err == nil
	})
	fi, err := os.Stat(bus.CredentialsPath(data))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, mode %v", err, fi.Mode())
	}
	poll.Until(t, 10*time.Second, "the nats role answers", func() bool {
		nc, err := nats.Connect(url, bus.ConnectOptions(bus.RoleIngress, creds)...)
		if err != nil {
			return false
		}
		nc.Close()
		return true
	})
	if nc, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("a client without credentials connected")
	} else if !strings.Contains(err.Error(), "Authorization Violation") {
		t.Fatalf("a client without credentials: %v, want Authorization Violation", err)
	}
	if nc, err := nats.Connect(url, nats.UserInfo(creds.User, "wrong"), nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("a client with a wrong password connected")
	}
	if strings.Contains(stderr.String(), creds.Password) {
		t.Fatal("the nats role logged its password")
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the nats role did not stop")
	}
}
