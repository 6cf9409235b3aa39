package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
