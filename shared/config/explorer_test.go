package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExplorerTxPatterns(t *testing.T) {
	cfg := Default()
	got := cfg.ExplorerTxPatterns()
	want := map[string]string{
		"solana": "http://127.0.0.1:8899/solana/tx/%s",
		"eth":    "http://127.0.0.1:8899/evm/eth/tx/%s",
		"bsc":    "http://127.0.0.1:8899/evm/bsc/tx/%s",
		"base":   "http://127.0.0.1:8899/evm/base/tx/%s",
		"rbh":    "http://127.0.0.1:8899/evm/rbh/tx/%s",
		"arc":    "http://127.0.0.1:8899/evm/arc/tx/%s",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults: %v\nwant %v", got, want)
	}

	cfg.Solana.RPCURL = "https://rpc.example"
	cfg.EVM.Chains = map[string]EVMChain{
		"eth": {RPCURL: "https://eth.example", ExplorerTx: "https://etherscan.io/tx/%s"},
		"bsc": {RPCURL: "https://bsc.example"},
	}
	got = cfg.ExplorerTxPatterns()
	if _, ok := got["solana"]; ok {
		t.Errorf("solana on a remote RPC without explorer_tx links to %q", got["solana"])
	}
	if got["eth"] != "https://etherscan.io/tx/%s" {
		t.Errorf("eth = %q", got["eth"])
	}
	if _, ok := got["bsc"]; ok {
		t.Errorf("bsc without explorer_tx links to %q", got["bsc"])
	}
	if got["base"] != "http://127.0.0.1:8899/evm/base/tx/%s" {
		t.Errorf("base (local) = %q", got["base"])
	}
	cfg.Solana.ExplorerTx = "https://solscan.io/tx/%s"
	if got := cfg.ExplorerTxPatterns()["solana"]; got != cfg.Solana.ExplorerTx {
		t.Errorf("solana = %q", got)
	}
}

func TestExplorerTxValidation(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"no verb", "solana:\n  explorer_tx: https://solscan.io/tx/\n", "solana.explorer_tx"},
		{"two verbs", "solana:\n  explorer_tx: https://x/%s/%s\n", "solana.explorer_tx"},
		{"other verb", "evm:\n  chains:\n    eth:\n      explorer_tx: https://x/%d\n", "evm.chains.eth.explorer_tx"},
		{"not http", "solana:\n  explorer_tx: javascript:alert(%s)\n", "solana.explorer_tx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to name %s", err, tt.want)
			}
		})
	}
	cfg := Default()
	cfg.Solana.ExplorerTx = "https://solscan.io/tx/%s"
	if err := cfg.Validate(); err != nil {
		t.Fatalf("valid pattern refused: %v", err)
	}
}
