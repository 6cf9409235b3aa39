package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"
)

// loadText loads a config file of the given text with env as the
// environment.
func loadText(t *testing.T, text string, env map[string]string) (Config, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return LoadEnv(p, func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	})
}

// TestLoadExpandsEnvironment: ${NAME} and ${NAME:-default} in string values
// are replaced by the environment's values before the file is decoded, as
// strings, whatever they hold; comments and keys are left alone.
func TestLoadExpandsEnvironment(t *testing.T) {
	pool := "Gf7sXMoP8iRw4iiXmJ1nq4vxcRycbGXy5RL8a8LnTd3v"
	tests := []struct {
		name string
		yaml string
		env  map[string]string
		get  func(Config) any
		want any
	}{
		{"whole value", "solana:\n  rpc_url: ${RPC}\n", map[string]string{"RPC": "https://sol.example/v2/k"},
			func(c Config) any { return c.Solana.RPCURL }, "https://sol.example/v2/k"},
		{"inside a value", "solana:\n  rpc_url: https://${HOST}/v2/${KEY}\n", map[string]string{"HOST": "sol.example", "KEY": "abc"},
			func(c Config) any { return c.Solana.RPCURL }, "https://sol.example/v2/abc"},
		{"quoted value", "solana:\n  rpc_url: \"${RPC}\"\n", map[string]string{"RPC": "https://q.example"},
			func(c Config) any { return c.Solana.RPCURL }, "https://q.example"},
		{"default when unset", "solana:\n  bundle_relay_url: ${RELAY:-https://relay.example/api}\n", nil,
			func(c Config) any { return c.Solana.BundleRelayURL }, "https://relay.example/api"},
		{"default when empty", "solana:\n  bundle_relay_url: ${RELAY:-https://relay.example/api}\n", map[string]string{"RELAY": ""},
			func(c Config) any { return c.Solana.BundleRelayURL }, "https://relay.example/api"},
		{"set wins over the default", "solana:\n  bundle_relay_url: ${RELAY:-https://relay.example/api}\n", map[string]string{"RELAY": "https://mine.example"},
			func(c Config) any { return c.Solana.BundleRelayURL }, "https://mine.example"},
		{"empty default", "solana:\n  metadata_upload_url: ${UPLOAD:-}\n", nil,
			func(c Config) any { return c.Solana.MetadataUploadURL }, ""},
		{"set and empty, allowed", "nats:\n  user: ${USER_X:-}\n", map[string]string{"USER_X": ""},
			func(c Config) any { return c.NATS.User }, ""},
		{"YAML syntax in a value stays text", "nats:\n  password: ${PW}\n", map[string]string{"PW": "a: b # c\n- d"},
			func(c Config) any { return c.NATS.Password }, "a: b # c\n- d"},
		{"a number stays a string", "nats:\n  password: ${PW}\n", map[string]string{"PW": "12345"},
			func(c Config) any { return c.NATS.Password }, "12345"},
		{"a Solana address", "solana:\n  sol_usd_pool: ${POOL}\n", map[string]string{"POOL": pool},
			func(c Config) any { return c.Solana.SOLUSDPool }, solana.MustPublicKeyFromBase58(pool)},
		{"an empty Solana address", "solana:\n  bags_pool_config: ${BAGS:-}\n", nil,
			func(c Config) any { return c.Solana.BagsPoolConfig }, solana.PublicKey{}},
		{"a list item", "solana:\n  tip_accounts:\n    - ${TIP}\n", map[string]string{"TIP": pool},
			func(c Config) any { return c.Solana.TipAccounts }, []solana.PublicKey{solana.MustPublicKeyFromBase58(pool)}},
		{"a map value", "evm:\n  chains:\n    base:\n      rpc_url: ${BASE}\n", map[string]string{"BASE": "https://base.example"},
			func(c Config) any { return c.EVM.Chains["base"].RPCURL }, "https://base.example"},
		{"comments are not expanded", "# ${UNSET} in a comment\nsolana:\n  rpc_url: https://x.example # ${UNSET}\n", nil,
			func(c Config) any { return c.Solana.RPCURL }, "https://x.example"},
		{"no reference", "solana:\n  rpc_url: https://x.example/$path{\n", nil,
			func(c Config) any { return c.Solana.RPCURL }, "https://x.example/$path{"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadText(t, tt.yaml, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.get(cfg); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestLoadEnvironmentErrors: an unset variable, or a reference that is
// not one, refuses the file, naming the key and the variable, never a
// value of the environment.
func TestLoadEnvironmentErrors(t *testing.T) {
	secret := "https://sol.example/v2/s3cr3t-k3y"
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{"unset", "solana:\n  rpc_url: ${SOLANA_RPC}\n",
			[]string{"solana.rpc_url: environment variable SOLANA_RPC is not set"}},
		{"every unset one", "solana:\n  rpc_url: ${A}/${SET}/${B}\nevm:\n  chains:\n    eth:\n      rpc_url: ${C}\n",
			[]string{"solana.rpc_url: environment variable A, B is not set", "evm.chains.eth.rpc_url: environment variable C is not set"}},
		{"set but empty", "solana:\n  rpc_url: ${EMPTY}\n",
			[]string{"solana.rpc_url: environment variable EMPTY is set but empty"}},
		{"malformed", "solana:\n  rpc_url: ${SET\n",
			[]string{"solana.rpc_url: malformed environment reference"}},
		{"a number key, which a string cannot fill", "evm:\n  chains:\n    eth:\n      chain_id: ${SET}\n",
			[]string{"evm.chains.eth.chain_id: want a number, got a string (line 4)"}},
		{"a bad address", "solana:\n  sol_usd_pool: ${POOL}\n",
			[]string{`solana.sol_usd_pool: "not-a-key" is not a Solana address`}},
		// A provider's variable under a wrong key: the key's error names
		// the reference, never the URL.
		{"a URL where a duration goes", "solana:\n  rpc_timeout: ${SET}\n",
			[]string{"solana.rpc_timeout: the value of ${SET} is not a duration"}},
		{"a URL where an address goes", "solana:\n  sol_usd_pool: ${SHORT}\n",
			[]string{"solana.sol_usd_pool: the value of ${SHORT} is not a Solana address"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadText(t, tt.yaml, map[string]string{"SET": secret, "POOL": "not-a-key", "EMPTY": "", "SHORT": "https://rpc.ex/k3y"})
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "k3y") {
				t.Errorf("err %q carries a value of the environment", err)
			}
		})
	}
}

// TestSolanaAddressKeys: the programs, accounts and quote mints default to
// their mainnet addresses, a file may set them, and a bad or empty one is
// refused by its key.
func TestSolanaAddressKeys(t *testing.T) {
	def := DefaultSolanaSigner()
	for _, k := range append(def.Programs.Keys(), def.Accounts.Keys()...) {
		if k.Addr.IsZero() {
			t.Errorf("%s has no default", k.Key)
		}
	}
	if def.Programs.PumpFun.String() != "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P" ||
		def.Accounts.PumpGlobal.String() != "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" ||
		def.Accounts.LetsBonkPlatformConfig.String() != "FfYek5vEz23cMkWsdJwG2oa6EphsvXSHrGpdALN4g6W1" {
		t.Fatalf("defaults %+v %+v", def.Programs, def.Accounts)
	}
	other := "Gf7sXMoP8iRw4iiXmJ1nq4vxcRycbGXy5RL8a8LnTd3v"
	// A file may state them (the mainnet file does, for the check to show).
	dbc := def.Programs.DBC.String()
	cfg, err := loadText(t, "solana:\n  programs:\n    dbc: "+dbc+"\n  quote_mints:\n    USDC: "+other+"\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Solana.Programs != def.Programs {
		t.Fatalf("programs %+v", cfg.Solana.Programs)
	}
	if err := cfg.Solana.SolanaSigner.Validate(); err != nil && strings.Contains(err.Error(), "programs") {
		t.Fatalf("the programs' own ids refused: %v", err)
	}
	if want := map[string]solana.PublicKey{"USDC": solana.MustPublicKeyFromBase58(other)}; !reflect.DeepEqual(cfg.Solana.QuoteMints, want) {
		t.Fatalf("quote_mints %v, want the file's map alone %v", cfg.Solana.QuoteMints, want)
	}
	for _, tt := range []struct{ yaml, want string }{
		{"solana:\n  programs:\n    pump_fun: nope\n", `solana.programs.pump_fun: "nope" is not a Solana address`},
		{"solana:\n  programs:\n    pump_fun: \"\"\n", "solana.programs.pump_fun: empty"},
		{"solana:\n  accounts:\n    pump_global: \"\"\n", "solana.accounts.pump_global: empty"},
		{"solana:\n  accounts:\n    pump_globl: " + other + "\n", "pump_globl"},
		// Another program or account than the signers are built for would
		// have the check verify what the service never uses.
		{"solana:\n  programs:\n    dbc: " + other + "\n", "solana.programs.dbc: " + other + " is not the program the service is built for (" + dbc + ")"},
		{"solana:\n  accounts:\n    pump_global: " + other + "\n", "solana.accounts.pump_global: " + other + " is not the account the service is built for (" + def.Accounts.PumpGlobal.String() + ")"},
		{"solana:\n  quote_mints:\n    USDT: " + other + "\n", "solana.quote_mints.USDT: not a stable quote asset of solana (USDC, USD1)"},
		{"solana:\n  quote_mints:\n    usdc: " + other + "\n", "solana.quote_mints.usdc: not a stable quote asset"},
		{"solana:\n  quote_mints:\n    USD1: x\n", `solana.quote_mints.USD1: "x" is not a Solana address`},
		{"solana:\n  venue_probe_payer: nope\n", `solana.venue_probe_payer: "nope" is not a Solana address`},
	} {
		cfg, err := loadText(t, tt.yaml, nil)
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %s", tt.yaml, err, tt.want)
		}
	}
}

// TestWholeNumberKeys: a whole-number setting written as a fraction or as
// a string is refused by its key (the decoder truncated 0.9 to 0, which
// for pipeline.max_pending turns the backlog's bound off, and read "8453"
// as a number); whole numbers load.
func TestWholeNumberKeys(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		env  map[string]string
		want string
	}{
		{"pipeline:\n  max_pending: 0.9\n", nil, "pipeline.max_pending: 0.9 is not a whole number"},
		{"solana:\n  min_bundle_tip_lamports: 1000.5\n", nil, "solana.min_bundle_tip_lamports: 1000.5 is not a whole number"},
		{"nats:\n  replicas: 2.9\n", nil, "nats.replicas: 2.9 is not a whole number"},
		{"evm:\n  chains:\n    eth:\n      rpc_url: http://127.0.0.1:1\n      chain_id: \"1\"\n", nil, "evm.chains.eth.chain_id: want a number, got a string"},
		{"evm:\n  chains:\n    eth:\n      rpc_url: http://127.0.0.1:1\n      chain_id: ${CID}\n", map[string]string{"CID": "1.5"}, "evm.chains.eth.chain_id: its environment variable does not hold a whole number"},
		{"pipeline:\n  max_pending: 1e3.5\n", nil, "pipeline.max_pending: want a number, got a string"},
		{"solana:\n  auto_tip_lamports: 18446744073709551616.0\n", nil, "solana.auto_tip_lamports: 18446744073709551616.0 is out of range"},
		{"solana:\n  auto_tip_lamports: 1e19\n", nil, "solana.auto_tip_lamports: 1e19 is out of range written so"},
		{"solana:\n  auto_tip_lamports: 18446744073709551616\n", nil, "solana.auto_tip_lamports: 18446744073709551616 is too large for this setting"},
		{"exits:\n  read_concurrency: 9223372036854775807.0\n", nil, "exits.read_concurrency: 9223372036854775807.0 is out of range"},
		{"exits:\n  read_concurrency: ${RC}\n", map[string]string{"RC": "9223372036854775807"}, "exits.read_concurrency: its environment variable holds a number out of range"},
	} {
		_, err := loadText(t, tc.yaml, tc.env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
	// Whole numbers in any notation, and a variable holding one, load as
	// they did.
	c, err := loadText(t, "pipeline:\n  max_pending: 5000\n  workers_per_chain: 2.0\nnats:\n  replicas: 3\n  stream_max_gib: ${GIB}\n"+
		"solana:\n  auto_tip_lamports: 1e6\n  min_bundle_tip_lamports: ${TIP:-2000}\n", map[string]string{"TIP": "3000", "GIB": "16"})
	if err != nil || c.Pipeline.MaxPending != 5000 || c.Pipeline.WorkersPerChain != 2 || c.NATS.Replicas != 3 || c.NATS.StreamMaxBytes() != 16<<30 ||
		c.Solana.AutoTip != 1_000_000 || c.Solana.MinBundleTip != 3000 {
		t.Fatalf("whole numbers: %v %+v %+v", err, c.Pipeline, c.Solana.SolanaSigner)
	}
}
