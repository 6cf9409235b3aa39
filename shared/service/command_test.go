package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/preflight"
)

// TestRefusesWhatTheConfigCannotServe: with the local chains off, `up` with
// no chain configured, a worker given a chain that is not configured, and
// the devnet role all refuse to start, and so does up given one role's NATS
// password; each exits non-zero and names the keys to set, before anything
// is started or written.
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
		// up connects as every role: one role's password cannot serve it.
		{"up with one role's nats password", []string{"up"},
			"solana:\n  rpc_url: https://sol.example\nnats:\n  url: nats://127.0.0.1:4222\n  user: ops\n  role_password: pw\n",
			[]string{"nats.role_password", "nats.password"}},
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
			if code := Main(args, &stdout, &stderr); code == 0 {
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

// TestNATSRole runs `tradeapi nats` as the Procfile does, with the
// production file on a host that holds none of the chains' endpoints (the
// role reads only the data folder, NATS and log keys): it generates the
// deployment's credentials under the data folder (mode 0600), refuses a
// client without them with Authorization Violation, lets a role's user in
// with them, and stops on its context.
func TestNATSRole(t *testing.T) {
	data := t.TempDir()
	t.Setenv("TRADEAPI_DATA_DIR", data)
	for _, k := range []string{"TRADEAPI_NATS_USER", "TRADEAPI_NATS_PASSWORD", "TRADEAPI_NATS_CREDS", "TRADEAPI_NATS_ROLE_PASSWORD",
		"TRADEAPI_SOLANA_RPC_URL", "TRADEAPI_SOLANA_BUNDLE_RELAY_URL", "TRADEAPI_METADATA_UPLOAD_URL", "TRADEAPI_ETH_RPC_URL",
		"TRADEAPI_BSC_RPC_URL", "TRADEAPI_BASE_RPC_URL", "TRADEAPI_RBH_RPC_URL", "TRADEAPI_ARC_RPC_URL"} {
		t.Setenv(k, "")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithCancel(context.Background())
	// The role logs from the server's goroutines while the test reads.
	var stderr logtest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- natsRole(ctx, []string{"--config", filepath.Join("..", "..", "configs", "mainnet.yaml"), "--listen", addr}, io.Discard, &stderr)
	}()
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

	// On the NATS host, role-password prints what a host running the
	// worker alone is given: its user and its own password, which let the
	// worker in and nothing else, and never the master.
	var out, errOut bytes.Buffer
	if code := Main([]string{"nats", "role-password", RoleWorker}, &out, &errOut); code != 0 {
		t.Fatalf("role-password: exit %d: %s", code, errOut.String())
	}
	vars := map[string]string{}
	for line := range strings.Lines(out.String()) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		vars[k] = v
	}
	own := bus.Credentials{User: vars["TRADEAPI_NATS_USER"], RolePassword: vars["TRADEAPI_NATS_ROLE_PASSWORD"]}
	if len(vars) != 2 || own.User != creds.User || own.RolePassword == "" || strings.Contains(out.String(), creds.Password) {
		t.Fatalf("role-password printed %q", out.String())
	}
	nc, err := nats.Connect(url, bus.ConnectOptions(bus.RoleWorker, own)...)
	if err != nil {
		t.Fatalf("the worker with its own password: %v", err)
	}
	nc.Close()
	if nc, err := nats.Connect(url, append(bus.ConnectOptions(bus.RoleIngress, own), nats.MaxReconnects(0))...); err == nil {
		nc.Close()
		t.Fatal("the worker's password let the ingress in")
	}
	for _, bad := range [][]string{{"nats", "role-password"}, {"nats", "role-password", "root"}} {
		out.Reset()
		errOut.Reset()
		if code := Main(bad, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "ingress") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 naming the roles", bad, code, out.String(), errOut.String())
		}
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

	// Started again with its credentials readable by other users (a copy
	// or a chmod loosened them), it says so, as every other role does.
	if err := os.Chmod(bus.CredentialsPath(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var again logtest.Buffer
	go func() {
		done <- natsRole(ctx, []string{"--config", filepath.Join("..", "..", "configs", "mainnet.yaml"), "--listen", addr}, io.Discard, &again)
	}()
	poll.Until(t, 10*time.Second, "the nats role warns of its loose credentials", func() bool {
		return strings.Contains(again.String(), "readable by other users") && strings.Contains(again.String(), bus.CredentialsPath(data))
	})
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, again.String())
	}
}

// clearEnv unsets the TRADEAPI_* variables a config file's test must not
// inherit.
func clearEnv(t *testing.T) {
	for _, k := range []string{"TRADEAPI_DATA_DIR", "TRADEAPI_DEVNET_ADDR", "TRADEAPI_METRICS_ADDR", "TRADEAPI_NATS_URL",
		"TRADEAPI_NATS_USER", "TRADEAPI_NATS_PASSWORD", "TRADEAPI_NATS_CREDS", "TRADEAPI_NATS_ROLE_PASSWORD"} {
		t.Setenv(k, "")
	}
}

// TestCheckLocalChains runs `tradeapi check` against the local chains of
// `up` (the devnet role serves exactly them): every item of every chain
// passes, each kind of item is there, and the command exits 0.
func TestCheckLocalChains(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	devnetAddr := freeAddr(t)
	file := filepath.Join(dir, "c.yaml")
	conf := "data_dir: " + filepath.Join(dir, "data") + "\nlisten:\n  metrics: " + freeAddr(t) +
		"\ndevnet:\n  enabled: true\n  addr: " + devnetAddr + "\n"
	if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ApplyEnv(os.Getenv)
	u := New(cfg, Options{Roles: []string{RoleDevnet}}, slog.New(slog.DiscardHandler), io.Discard)
	stop, err := u.Start(2 * time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop(10 * time.Second) })

	var stdout, stderr bytes.Buffer
	code := Main([]string{"check", "--config", file}, &stdout, &stderr)
	out := stdout.String()
	if code != 0 || stderr.Len() != 0 {
		t.Errorf("exit %d, stderr %q:\n%s", code, stderr.String(), out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	summary := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	if want := fmt.Sprintf("%d passed, 0 failed, 0 skipped", len(lines)); summary != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "PASS ") {
			t.Errorf("not passed: %s", l)
		}
		if strings.Contains(l, devnetAddr) {
			t.Errorf("a line names the local chains' address: %s", l)
		}
	}
	for _, want := range []string{
		"PASS solana rpc answers at slot ",
		"PASS solana program pump.fun 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot ",
		"PASS solana program SPL Token TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA executable, owner BPFLoader2111111111111111111111111111111111 (final)",
		"PASS solana account pump Global 4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf owner 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, discriminator a7e8e8b1c86c727f (Global), ",
		"PASS solana tip account 96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5 exists",
		"PASS solana mint USDC EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v owner TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, 6 decimals",
		"PASS solana pool SOL/USD ",
		"PASS solana relay answers getTipAccounts: 8 tip accounts",
		"PASS solana metadata upload answers HTTP ",
		"PASS eth rpc answers, chain id 1",
		"PASS bsc token USD1 ",
		"PASS base quoter v2 ",
		"PASS rbh token USDG ",
		"PASS arc router ",
		"PASS arc relay answers eth_chainId 5042002",
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line %q", want)
		}
	}
	for _, chain := range []string{"eth", "bsc", "base", "rbh", "arc"} {
		for _, item := range []string{"router", "factory", "v3 factory", "swap router02", "quoter v2", "token wrapped native", "relay"} {
			prefix := "PASS " + chain + " " + item + " "
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) }) {
				t.Errorf("no line %q", prefix)
			}
		}
	}
}

// TestCheckFailsAndRefuses: `tradeapi check` exits 1 when an item fails
// (here a chain that does not answer), saying so without the endpoint's
// URL, and 2 when the configuration cannot be checked.
func TestCheckFailsAndRefuses(t *testing.T) {
	clearEnv(t)
	const key = "pr0v1derK3y"
	rpc := "http://" + freeAddr(t) + "/" + key
	tests := []struct {
		name   string
		conf   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"a chain that does not answer", "solana:\n  rpc_url: " + rpc + "\n", nil, 1,
			[]string{"FAIL solana rpc does not answer: connection refused\n",
				"FAIL solana program pump.fun 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P not checked: solana rpc does not answer\n",
				"SKIP solana relay solana.bundle_relay_url is empty: anti_mev and bundled launches are refused\n"}, nil},
		{"nothing to check", "", nil, 2, nil,
			[]string{"tradeapi check: ", "solana.rpc_url", "evm.chains.eth.rpc_url", "devnet.enabled"}},
		{"a timeout that is not one", "solana:\n  rpc_url: " + rpc + "\n", []string{"--timeout", "0s"}, 2, nil,
			[]string{"tradeapi check: --timeout: 0s is not positive"}},
		{"an unset variable", "solana:\n  rpc_url: ${TRADEAPI_TEST_UNSET_RPC}\n", nil, 2, nil,
			[]string{"solana.rpc_url: environment variable TRADEAPI_TEST_UNSET_RPC is not set"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "c.yaml")
			conf := "data_dir: " + filepath.Join(dir, "data") + "\ndevnet:\n  enabled: false\n" + tt.conf
			if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := Main(append([]string{"check", "--config", file}, tt.args...), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, stderr.String())
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q: %s", w, stderr.String())
				}
			}
			if strings.Contains(stdout.String()+stderr.String(), key) {
				t.Error("the output carries the endpoint's key")
			}
			if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
				t.Errorf("check made the data folder (%v)", err)
			}
		})
	}
}

// TestUpMainnetNeedsItsEndpoints: `up --config configs/mainnet.yaml`
// without the operator's endpoint variables refuses to start, naming each
// key and variable, before anything is started or written.
func TestUpMainnetNeedsItsEndpoints(t *testing.T) {
	clearEnv(t)
	data := filepath.Join(t.TempDir(), "data")
	t.Setenv("TRADEAPI_DATA_DIR", data)
	for _, k := range []string{"TRADEAPI_SOLANA_RPC_URL", "TRADEAPI_ETH_RPC_URL", "TRADEAPI_BSC_RPC_URL",
		"TRADEAPI_BASE_RPC_URL", "TRADEAPI_RBH_RPC_URL", "TRADEAPI_ARC_RPC_URL"} {
		t.Setenv(k, "") // restores the variable after the test
		os.Unsetenv(k)  // unset, not empty: ${NAME} needs it set
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"up", "--config", filepath.Join("..", "..", "configs", "mainnet.yaml")}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, stderr.String())
	}
	for _, want := range []string{
		"solana.rpc_url: environment variable TRADEAPI_SOLANA_RPC_URL is not set",
		"evm.chains.eth.rpc_url: environment variable TRADEAPI_ETH_RPC_URL is not set",
		"evm.chains.rbh.rpc_url: environment variable TRADEAPI_RBH_RPC_URL is not set",
		"evm.chains.arc.rpc_url: environment variable TRADEAPI_ARC_RPC_URL is not set",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, stderr.String())
		}
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data folder was made (%v)", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q", stdout.String())
	}
}

// TestIngressNeedsNoRPCURLs: an ingress role given configs/mainnet.yaml
// starts without the providers' URLs, which carry keys and which it never
// calls (it stopped at once, naming each); a worker given the same does
// not.
func TestIngressNeedsNoRPCURLs(t *testing.T) {
	clearEnv(t)
	t.Setenv("TRADEAPI_DATA_DIR", t.TempDir())
	t.Setenv("TRADEAPI_NATS_URL", "nats://127.0.0.1:1")
	t.Setenv("TRADEAPI_METRICS_ADDR", "127.0.0.1:0")
	for _, k := range []string{"TRADEAPI_SOLANA_RPC_URL", "TRADEAPI_ETH_RPC_URL", "TRADEAPI_BSC_RPC_URL",
		"TRADEAPI_BASE_RPC_URL", "TRADEAPI_RBH_RPC_URL", "TRADEAPI_ARC_RPC_URL"} {
		t.Setenv(k, "") // restores the variable after the test
		os.Unsetenv(k)
	}
	mainnet := []string{"--config", filepath.Join("..", "..", "configs", "mainnet.yaml")}
	var stderr bytes.Buffer
	if code := role(context.Background(), RoleWorker, mainnet, io.Discard, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "environment variable TRADEAPI_SOLANA_RPC_URL is not set") {
		t.Fatalf("worker: exit %d, want 2 naming the variable; stderr %s", code, stderr.String())
	}
	stderr.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- role(ctx, RoleIngress, mainnet, io.Discard, &stderr) }()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != 0 || strings.Contains(stderr.String(), "RPC_URL") {
			t.Fatalf("ingress: exit %d, want it started (and stopped by the signal); log:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the ingress did not stop within 10 s")
	}
}

// TestRoleStoppedWhileWaiting: a role told to stop while it still waits
// for NATS (none answers, no credentials yet) exits 0, as a signal always
// ends a role, and logs what it was waiting for.
func TestRoleStoppedWhileWaiting(t *testing.T) {
	t.Setenv("TRADEAPI_DATA_DIR", t.TempDir())
	t.Setenv("TRADEAPI_NATS_URL", "nats://127.0.0.1:1")
	t.Setenv("TRADEAPI_METRICS_ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- role(ctx, RoleWorker, []string{"--chain", "solana"}, &stdout, &stderr) }()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(stderr.String(), "stopped by a signal") {
			t.Fatalf("exit %d; log:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the role did not stop within 10 s")
	}
	if code := exitCode(context.Background(), slog.New(slog.DiscardHandler), "x", errors.New("broken")); code != 1 {
		t.Fatalf("a failure without a signal exits %d", code)
	}
}

// TestReadyFollowsNATS: /readyz is false while a NATS connection of the
// role is down, as its orders are answered 503 then.
func TestReadyFollowsNATS(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "ready")
	u := &Up{readyOK: true, conns: []*nats.Conn{b.Conn}}
	if !u.isReady() {
		t.Fatal("not ready with NATS up")
	}
	b.Server.Shutdown()
	poll.Until(t, 5*time.Second, "not ready once NATS is gone", func() bool { return !u.isReady() })
}

// TestNATSRoleListensWhereRolesDial: without --listen or --conf, the nats
// role listens at nats.listen, else where nats.url (TRADEAPI_NATS_URL)
// points, so that moving the URL moves the server the other roles dial.
func TestNATSRoleListensWhereRolesDial(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		nats config.NATS
		want string
	}{
		{config.NATS{}, ""},
		{config.NATS{URL: "nats://127.0.0.1:23422"}, "127.0.0.1:23422"},
		{config.NATS{URL: "nats://user:secret@127.0.0.1:23422"}, "127.0.0.1:23422"},
		{config.NATS{URL: "nats://127.0.0.1:23422", Listen: "127.0.0.1:24222"}, "127.0.0.1:24222"},
		{config.NATS{URL: "nats://127.0.0.1:4222,nats://127.0.0.1:4223"}, ""},
		{config.NATS{URL: "nats://127.0.0.1"}, "127.0.0.1:4222"},
		{config.NATS{URL: "127.0.0.1:4223"}, "127.0.0.1:4223"},
		{config.NATS{URL: "nats://localhost:23422"}, "localhost:23422"},
		{config.NATS{URL: "nats://nats.internal:4222"}, ""},
	} {
		if got := listenOf(tc.nats); got != tc.want {
			t.Errorf("listenOf(%+v) = %q, want %q", tc.nats, got, tc.want)
		}
	}
}

// TestHelpFlags: -h of every command prints its flags and exits 0, as a
// request for help is not a failure; check, which serves nothing, offers
// no metrics listener.
func TestHelpFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args    []string
		want    string
		metrics bool
	}{
		{[]string{"up", "-h"}, "-config", true},
		{[]string{"worker", "-h"}, "-chain", true},
		{[]string{"check", "-h"}, "-timeout", false},
		{[]string{"nats", "-h"}, "-conf", true},
		{[]string{"nats", "role-password", "worker", "-h"}, "-config", false},
	} {
		var out, errOut bytes.Buffer
		code := Main(tc.args, &out, &errOut)
		if code != 0 || !strings.Contains(errOut.String(), tc.want) || strings.Contains(errOut.String(), "-metrics-addr") != tc.metrics {
			t.Errorf("%q: exit %d, usage %q; want 0 listing %s, -metrics-addr %v", tc.args, code, errOut.String(), tc.want, tc.metrics)
		}
	}
}

// TestNATSRoleReportsItsStore: the nats role with --metrics-addr reports
// its JetStream file store, bytes held and bound, and is ready once its
// server takes clients: a full store refuses every order, and nothing
// else shows it.
func TestNATSRoleReportsItsStore(t *testing.T) {
	t.Setenv("TRADEAPI_DATA_DIR", t.TempDir())
	metricsAddr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- natsRole(ctx, []string{"--listen", freeAddr(t), "--metrics-addr", metricsAddr}, io.Discard, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("nats role exited %d", code)
		}
	})
	var body string
	poll.Until(t, 10*time.Second, "the store reported", func() bool {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return strings.Contains(body, "tradeapi_nats_store_bytes ") && strings.Contains(body, "tradeapi_nats_max_store_bytes ")
	})
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "tradeapi_nats_max_store_bytes "); ok && (v == "0" || strings.HasPrefix(v, "-")) {
			t.Fatalf("bound %s, want the store's", v)
		}
	}
	resp, err := http.Get("http://" + metricsAddr + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz %d", resp.StatusCode)
	}
}

// TestRoleWaitingForCredentialsServesMetrics: a role started before the
// nats role has written the credentials serves its metrics listener while
// it waits (/readyz 503, not a refused connection), and says what it
// waits for within seconds.
func TestRoleWaitingForCredentialsServesMetrics(t *testing.T) {
	t.Setenv("TRADEAPI_DATA_DIR", t.TempDir())
	for _, k := range []string{"TRADEAPI_NATS_USER", "TRADEAPI_NATS_PASSWORD", "TRADEAPI_NATS_CREDS", "TRADEAPI_NATS_ROLE_PASSWORD"} {
		t.Setenv(k, "")
	}
	t.Setenv("TRADEAPI_NATS_URL", "nats://"+freeAddr(t))
	t.Setenv("TRADEAPI_ADMIN_ADDR", freeAddr(t))
	metricsAddr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr logtest.Buffer
	done := make(chan int, 1)
	go func() { done <- role(ctx, RoleRegistry, []string{"--metrics-addr", metricsAddr}, io.Discard, &stderr) }()
	t.Cleanup(func() { cancel(); <-done })
	poll.Until(t, 5*time.Second, "/readyz 503 while waiting", func() bool {
		resp, err := http.Get("http://" + metricsAddr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusServiceUnavailable
	})
	poll.Until(t, 5*time.Second, "the wait said", func() bool {
		return strings.Contains(stderr.String(), "waiting for the nats credentials")
	})
}

// TestCheckExitsZeroOnlyWhenEveryItemPasses: a check whose items all
// passed exits 0; one with an item skipped (not checked, so not known to
// hold) exits 3, saying so; one with an item failed exits 1.
func TestCheckExitsZeroOnlyWhenEveryItemPasses(t *testing.T) {
	t.Parallel()
	pass := preflight.Line{Status: preflight.Pass, Chain: "base", Item: "rpc"}
	unchecked := preflight.Line{Status: preflight.Skip, Chain: "base", Item: "relay"}
	fail := preflight.Line{Status: preflight.Fail, Chain: "base", Item: "router"}
	for _, tt := range []struct {
		lines []preflight.Line
		code  int
	}{{[]preflight.Line{pass}, 0}, {[]preflight.Line{pass, unchecked}, 3}, {[]preflight.Line{pass, unchecked, fail}, 1}, {nil, 1}} {
		var stderr bytes.Buffer
		if code := checkExit(tt.lines, &stderr); code != tt.code {
			t.Errorf("%v: exit %d, want %d", tt.lines, code, tt.code)
		}
		if tt.code == 3 && !strings.Contains(stderr.String(), "not every item passed") {
			t.Errorf("exit 3 without saying why: %q", stderr.String())
		}
	}
}
