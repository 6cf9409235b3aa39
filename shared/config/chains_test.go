package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestServedChains(t *testing.T) {
	eth := EVMChain{RPCURL: "https://eth.example"}
	tests := []struct {
		name     string
		tune     func(*Config)
		want     []string
		anyEVM   bool
		local    bool   // the local chain serves Solana
		localEVM bool   // the evm catch-all's worker is on the local chains
		rpc      string // SolanaRPC
		metadata string // MetadataUploadURL
	}{
		{"defaults: the local chains serve everything", func(*Config) {},
			[]string{"solana", "eth", "bsc", "base", "rbh", "arc"}, true, true, true,
			"http://127.0.0.1:8899/solana", "http://127.0.0.1:8899/metadata/"},
		{"local chains off, nothing configured", func(c *Config) { c.Devnet.Enabled = false },
			nil, false, false, false, "", ""},
		{"local chains off, solana configured", func(c *Config) {
			c.Devnet.Enabled = false
			c.Solana.RPCURL = "https://sol.example"
			c.Solana.MetadataUploadURL = "https://meta.example"
		}, []string{"solana"}, false, false, false, "https://sol.example", "https://meta.example"},
		{"local chains off, one evm chain", func(c *Config) {
			c.Devnet.Enabled = false
			c.EVM.Chains = map[string]EVMChain{"eth": eth}
		}, []string{"eth"}, true, false, false, "", ""},
		{"one evm chain configured beside the local ones", func(c *Config) {
			c.EVM.Chains = map[string]EVMChain{"eth": eth}
		}, []string{"solana", "eth", "bsc", "base", "rbh", "arc"}, true, true, false,
			"http://127.0.0.1:8899/solana", "http://127.0.0.1:8899/metadata/"},
		{"a configured solana never uses the local stand-ins", func(c *Config) { c.Solana.RPCURL = "https://sol.example" },
			[]string{"solana", "eth", "bsc", "base", "rbh", "arc"}, true, false, true, "https://sol.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			tt.tune(&cfg)
			if got := cfg.ServedChains(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ServedChains = %v, want %v", got, tt.want)
			}
			if got := cfg.Serves("evm"); got != tt.anyEVM {
				t.Errorf("Serves(evm) = %v, want %v", got, tt.anyEVM)
			}
			if got := cfg.LocalSolana(); got != tt.local {
				t.Errorf("LocalSolana = %v, want %v", got, tt.local)
			}
			if got := cfg.Local("evm"); got != tt.localEVM {
				t.Errorf("Local(evm) = %v, want %v", got, tt.localEVM)
			}
			if got := cfg.Local("solana"); got != tt.local {
				t.Errorf("Local(solana) = %v, want %v", got, tt.local)
			}
			if got := cfg.SolanaRPC(); got != tt.rpc {
				t.Errorf("SolanaRPC = %q, want %q", got, tt.rpc)
			}
			if got := cfg.MetadataUploadURL(); got != tt.metadata {
				t.Errorf("MetadataUploadURL = %q, want %q", got, tt.metadata)
			}
			if err := cfg.RequireChains(); (err == nil) != (len(tt.want) > 0) {
				t.Errorf("RequireChains = %v with %v served", err, tt.want)
			}
		})
	}
}

// TestRequireChainsNamesEveryKey: the refusal to start names every key
// that would configure a chain, by its path in the file.
func TestRequireChainsNamesEveryKey(t *testing.T) {
	cfg := Default()
	cfg.Devnet.Enabled = false
	err := cfg.RequireChains()
	if err == nil {
		t.Fatal("no chain served and no error")
	}
	for _, key := range []string{"solana.rpc_url", "evm.chains.eth.rpc_url", "evm.chains.bsc.rpc_url", "evm.chains.base.rpc_url",
		"evm.chains.rbh.rpc_url", "evm.chains.arc.rpc_url", "devnet.enabled"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("error %q does not name %s", err, key)
		}
	}
}

func TestChainKey(t *testing.T) {
	for chain, want := range map[string]string{"solana": "solana.rpc_url", "base": "evm.chains.base.rpc_url"} {
		if got := ChainKey(chain); got != want {
			t.Errorf("ChainKey(%s) = %s, want %s", chain, got, want)
		}
	}
}

// TestNetwork: the network each served chain's jobs say they were
// published for; the evm catch-all's names the local EVM chains of a mix,
// so that a worker whose mix differs (one EVM chain configured, the rest
// left on the local chains) does not take the jobs of an ingress whose EVM
// chains are all public.
func TestNetwork(t *testing.T) {
	eth := EVMChain{RPCURL: "https://eth.example"}
	for _, tt := range []struct {
		name        string
		tune        func(*Config)
		solana, evm string
		eth, base   string
	}{
		{"defaults: the local chains", func(*Config) {}, "local", "local", "local", "local"},
		{"local chains off, eth configured", func(c *Config) {
			c.Devnet.Enabled = false
			c.EVM.Chains = map[string]EVMChain{"eth": eth}
		}, "public", "public", "public", "public"},
		{"eth configured beside the local ones", func(c *Config) { c.EVM.Chains = map[string]EVMChain{"eth": eth} },
			"local", "mixed:bsc,base,rbh,arc", "public", "local"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			tt.tune(&cfg)
			got := []string{cfg.Network("solana"), cfg.Network("evm"), cfg.Network("eth"), cfg.Network("base")}
			if want := []string{tt.solana, tt.evm, tt.eth, tt.base}; !reflect.DeepEqual(got, want) {
				t.Fatalf("networks of solana, evm, eth, base: %v, want %v", got, want)
			}
		})
	}
}
