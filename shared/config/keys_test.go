package config

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestAddressKeys: the keys checked as addresses are every key of the
// Solana address type and every address key of an EVM chain.
func TestAddressKeys(t *testing.T) {
	wantSolana := []string{"solana.tip_accounts[]", "solana.sol_usd_pool", "solana.bags_pool_config"}
	for _, k := range (&SolanaPrograms{}).Keys() {
		wantSolana = append(wantSolana, "solana.programs."+k.Key)
	}
	for _, k := range (&SolanaAccounts{}).Keys() {
		wantSolana = append(wantSolana, "solana.accounts."+k.Key)
	}
	wantSolana = append(wantSolana, "solana.quote_mints.*", "solana.venue_probe_payer")
	if !slices.Equal(solanaAddressKeys, wantSolana) {
		t.Errorf("solana address keys\n%q\nwant\n%q", solanaAddressKeys, wantSolana)
	}
	wantEVM := []string{"evm.chains.*.router", "evm.chains.*.factory", "evm.chains.*.v3_factory", "evm.chains.*.swap_router02",
		"evm.chains.*.quoter_v2", "evm.chains.*.wrapped_native", "evm.chains.*.native_token", "evm.chains.*.tip_address", "evm.chains.*.quotes.*"}
	if !slices.Equal(evmAddressKeys, wantEVM) {
		t.Errorf("evm address keys\n%q\nwant\n%q", evmAddressKeys, wantEVM)
	}
	for key, want := range map[string]bool{
		"evm.chains.eth.router": true, "evm.chains.eth.quotes.USDC": true, "evm.chains.eth.rpc_url": false,
		"evm.chains.eth.quotes": false, "evm.chains.a.b.router": false, "solana.tip_accounts[12]": true,
		"solana.tip_accounts": false, "solana.programs.pump_fun": true, "solana.rpc_url": false,
	} {
		if got := isEVMAddress.MatchString(key) || isSolanaAddress.MatchString(key); got != want {
			t.Errorf("%s: address key %v, want %v", key, got, want)
		}
	}
}

// TestAddressReadAsNumber: an address YAML reads as a number (an EVM
// address whose digits fit in 64 bits, unquoted) is refused by its key
// with the advice to quote it, at every address key of either family; the
// same address quoted, and a long one unquoted (YAML's text), load.
func TestAddressReadAsNumber(t *testing.T) {
	dead := "0x000000000000000000000000000000000000dEaD"
	chain := "evm:\n  chains:\n    eth:\n      "
	tests := []struct{ yaml, key, lit string }{
		{chain + "router: " + dead + "\n", "evm.chains.eth.router", dead},
		{chain + "factory: " + dead + "\n", "evm.chains.eth.factory", dead},
		{chain + "v3_factory: " + dead + "\n", "evm.chains.eth.v3_factory", dead},
		{chain + "swap_router02: " + dead + "\n", "evm.chains.eth.swap_router02", dead},
		{chain + "quoter_v2: " + dead + "\n", "evm.chains.eth.quoter_v2", dead},
		{chain + "wrapped_native: " + dead + "\n", "evm.chains.eth.wrapped_native", dead},
		{chain + "tip_address: " + dead + "\n", "evm.chains.eth.tip_address", dead},
		{chain + "quotes:\n        USDC: 0x0000000000000000000000000000000000000001\n", "evm.chains.eth.quotes.USDC", "0x0000000000000000000000000000000000000001"},
		{chain + "quotes: {usdt: 0x00000000000000000000000000000000000000ff}\n", "evm.chains.eth.quotes.usdt", "0x00000000000000000000000000000000000000ff"},
		{"solana:\n  sol_usd_pool: 12345\n", "solana.sol_usd_pool", "12345"},
		{"solana:\n  bags_pool_config: 1.5\n", "solana.bags_pool_config", "1.5"},
		{"solana:\n  venue_probe_payer: 7\n", "solana.venue_probe_payer", "7"},
		{"solana:\n  tip_accounts:\n    - 96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5\n    - 42\n", "solana.tip_accounts[1]", "42"},
		{"solana:\n  programs:\n    pump_fun: 0x10\n", "solana.programs.pump_fun", "0x10"},
		{"solana:\n  accounts:\n    pump_global: 99\n", "solana.accounts.pump_global", "99"},
		{"solana:\n  quote_mints:\n    USDC: 5\n", "solana.quote_mints.USDC", "5"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			_, err := loadText(t, tt.yaml, nil)
			want := tt.key + ": " + tt.lit + " is read by YAML as a number; quote it: \"" + tt.lit + "\""
			if err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Fatalf("err %v, want %s", err, want)
			}
		})
	}
	for _, text := range []string{chain + "tip_address: \"" + dead + "\"\n", chain + "tip_address: '" + dead + "'\n",
		chain + "router: 0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D\n"} {
		cfg, err := loadText(t, text, nil)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := cfg.EVM.Chains["eth"]; got.TipAddress != dead && got.Router != "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D" {
			t.Fatalf("%q decoded as %+v", text, got)
		}
	}
}

// TestTypeErrorsNameTheKey: a value of the wrong type is refused by its
// dotted key, in the file's words, with its line, never by the decoder's
// Go struct path.
func TestTypeErrorsNameTheKey(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"evm:\n  chains:\n    base:\n      chain_id: abc\n", "evm.chains.base.chain_id: want a number, got a string (line 4)"},
		{"solana:\n  compute_unit_limit: lots\n", "solana.compute_unit_limit: want a number, got a string (line 2)"},
		{"solana:\n  compute_unit_limit: 99999999999\n", "solana.compute_unit_limit: out of range (0 to 4294967295) (line 2)"},
		{"nats:\n  replicas: -99999999999999999999\n", "nats.replicas: "},
		{"nats:\n  replicas: [1]\n", "nats.replicas: want a number, got a list (line 2)"},
		{"devnet:\n  enabled: maybe\n", "devnet.enabled: want true or false, got a string (line 2)"},
		{"evm:\n  chains: 5\n", "evm.chains: want a mapping, got a number (line 2)"},
		{"exits: on\n", "exits: want a mapping, got "},
		{"solana:\n  senders:\n    - name: [x]\n", "solana.senders[0].name: want a string, got a list (line 3)"},
		{"solana:\n  senders:\n    - name: a\n    - 7\n", "solana.senders[1]: want a mapping, got a number (line 4)"},
		{"evm:\n  chains:\n    base:\n      quotes: [USDC]\n", "evm.chains.base.quotes: want a mapping, got a list (line 4)"},
		{"listen:\n  sol_eu: 127.0.0.1:1\n  nope: 1\n", "listen.nope: unknown key (line 3)"},
		{"evm:\n  chains:\n    base:\n      nope: 1\n", "evm.chains.base.nope: unknown key (line 4)"},
		{"solana:\n  state_ttl: 5s\n", "solana.state_ttl: unknown key (line 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := loadText(t, tt.yaml, nil)
			if err == nil {
				t.Fatal("loaded")
			}
			_, msg, _ := strings.Cut(err.Error(), "c.yaml: ")
			if !strings.HasPrefix(msg, tt.want) || strings.Contains(msg, "Go struct") || strings.Contains(msg, "\n") {
				t.Fatalf("err %q, want %q", msg, tt.want)
			}
		})
	}
}

// TestDevConfigNamesTheEnvironment: the head of configs/dev.yaml lists the
// TRADEAPI_* variables ApplyEnv reads, each beside the key it overrides,
// and names no other.
func TestDevConfigNamesTheEnvironment(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "configs", "dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile(`^#\s+([a-z_.]+)\s+(TRADEAPI_[A-Z0-9_]+)$`)
	name := regexp.MustCompile(`TRADEAPI_[A-Z0-9_]+`)
	rows := map[string]string{} // variable: key
	named := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := row.FindStringSubmatch(line); m != nil {
			rows[m[2]] = m[1]
		}
		for _, n := range name.FindAllString(line, -1) {
			named[n] = true
		}
	}
	read := map[string]bool{}
	cfg := Default()
	cfg.ApplyEnv(func(k string) string {
		read[k] = true
		return ""
	})
	if got, want := slices.Sorted(maps.Keys(named)), slices.Sorted(maps.Keys(read)); !slices.Equal(got, want) {
		t.Fatalf("configs/dev.yaml names %q, ApplyEnv reads %q", got, want)
	}
	if len(rows) != len(read)-2 { // the admin token and master key are no keys
		t.Fatalf("configs/dev.yaml pairs %d variables with keys, ApplyEnv reads %d besides the admin token and master key", len(rows), len(read)-2)
	}
	for v, key := range rows {
		cfg := Default()
		cfg.ApplyEnv(func(k string) string {
			if k == v {
				return "from-" + v
			}
			return ""
		})
		if got := valueAt(t, cfg, key); got != "from-"+v {
			t.Errorf("%s sets %s to %q, not its value", v, key, got)
		}
	}
}

// valueAt reads a dotted key of cfg as the file would spell it.
func valueAt(t *testing.T, cfg Config, key string) any {
	t.Helper()
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
