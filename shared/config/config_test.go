package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDevConfigIsTheDefault keeps configs/dev.yaml equal to Default().
func TestDevConfigIsTheDefault(t *testing.T) {
	cfg, err := Load(filepath.Join("..", "..", "configs", "dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	def := Default()
	cfg.Solana.TipAccounts, def.Solana.TipAccounts = nil, nil
	if len(cfg.EVM.Chains) == 0 {
		cfg.EVM.Chains = nil
	}
	if !reflect.DeepEqual(cfg, def) {
		t.Fatalf("configs/dev.yaml differs from the defaults:\n%+v\n%+v", cfg, def)
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown key", "listen:\n  sol_eu: 127.0.0.1:1\n  nope: 1\n", "nope"},
		{"bad address", "listen:\n  sol_eu: nowhere\n", "listen.sol_eu"},
		{"bad format", "log_format: xml\n", "log_format"},
		{"bad replicas", "nats:\n  replicas: 9\n", "nats.replicas"},
		{"bad slippage", "pipeline:\n  default_slippage_pct: 200\n", "default_slippage_pct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(p)
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to name %s", err, tt.want)
			}
		})
	}
}

func TestApplyEnv(t *testing.T) {
	cfg := Default()
	env := map[string]string{"TRADEAPI_SOL_EU_ADDR": "127.0.0.1:1", "TRADEAPI_DATA_DIR": "/d", "TRADEAPI_NATS_URL": "nats://x:4222",
		"TRADEAPI_DEVNET_ADDR": "127.0.0.1:2", "TRADEAPI_ADMIN_TOKEN": "t", "TRADEAPI_MASTER_KEY": "k"}
	cfg.ApplyEnv(func(k string) string { return env[k] })
	if cfg.Listen.SolEU != "127.0.0.1:1" || cfg.DataDir != "/d" || cfg.NATS.URL != "nats://x:4222" ||
		cfg.Devnet.Addr != "127.0.0.1:2" || cfg.AdminToken != "t" || cfg.MasterKey != "k" {
		t.Fatalf("%+v", cfg)
	}
	if cfg.SolanaRPC() != "http://127.0.0.1:2/solana" {
		t.Fatal(cfg.SolanaRPC())
	}
}

// TestPartialFileKeepsDefaults checks a file that sets one key of a section
// leaves the section's other keys at their defaults.
func TestPartialFileKeepsDefaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte("solana:\n  resolve_ttl: 5s\nlisten:\n  sol_eu: 127.0.0.1:1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	if cfg.Solana.ResolveTTL.String() != "5s" || cfg.Listen.SolEU != "127.0.0.1:1" {
		t.Fatalf("overrides lost: %+v", cfg)
	}
	if cfg.Solana.ComputeUnitLimit != def.Solana.ComputeUnitLimit || cfg.Listen.SolUS != def.Listen.SolUS ||
		cfg.Solana.AutoFeePercentile != def.Solana.AutoFeePercentile {
		t.Fatalf("defaults lost: %+v", cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
}
