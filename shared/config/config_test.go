package config

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/goccy/go-yaml"

	"github.com/tradeapi/tradeapi/shared/chains"
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
	// dev.yaml spells the empty lists out ([] and {}); the defaults leave
	// them nil. Both mean the same.
	if len(cfg.Solana.TipAccounts) == 0 {
		cfg.Solana.TipAccounts = nil
	}
	if len(cfg.Solana.Senders) == 0 {
		cfg.Solana.Senders = nil
	}
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
		// up's embedded server is no cluster: it never started.
		{"replicas on the embedded server", "nats:\n  replicas: 3\n", "nats.replicas: 3 needs a NATS cluster, and nats.url is empty"},
		{"no stream bound", "nats:\n  stream_max_gib: 0\n", "nats.stream_max_gib: 0 is not 1 to 4096"},
		{"stream bound too large", "nats:\n  stream_max_gib: 5000\n", "nats.stream_max_gib"},
		{"master and role password", "nats:\n  user: ops\n  password: a\n  role_password: b\n", "nats.role_password"},
		{"creds and role password", "nats:\n  creds: x.creds\n  role_password: b\n", "nats.creds"},
		// In the URL they would replace every role's own user.
		{"credentials in the NATS URL", "nats:\n  url: nats://127.0.0.1:4222,nats://ops:hunter2@127.0.0.1:4223\n", "nats.url: carries credentials"},
		{"credentials in a NATS URL without its scheme", "nats:\n  url: ops:hunter2@127.0.0.1:4222\n", "nats.url: carries credentials"},
		{"a token in a NATS URL without its scheme", "nats:\n  url: hunter2@127.0.0.1:4222\n", "nats.url: carries credentials"},
		{"bad slippage", "pipeline:\n  default_slippage_pct: 200\n", "default_slippage_pct"},
		{"unknown key in an inlined section", "solana:\n  state_ttl: 5s\n", "state_ttl"},
		{"unknown key of the evm signer", "evm:\n  gas_margin_bps: 10\n", "gas_margin_bps"},
		{"bad compute unit limit", "solana:\n  compute_unit_limit: 2000000\n", "solana.compute_unit_limit"},
		{"auto fee bounds crossed", "solana:\n  auto_fee_min_micro_lamports: 9\n  auto_fee_max_micro_lamports: 8\n", "auto_fee_min_micro_lamports"},
		{"exits poll too fast", "exits:\n  poll_interval: 1ms\n", "exits"},
		// The worker's pool and consumer are sized by it before it starts.
		{"workers past any use", "pipeline:\n  workers_per_chain: 100000000\n", "pipeline.workers_per_chain: 100000000 is not 1 to 1024"},
		{"no workers", "pipeline:\n  workers_per_chain: 0\n", "pipeline.workers_per_chain: 0 is not 1 to 1024"},
		{"reads past any use", "exits:\n  read_concurrency: 100000000\n", "exits.read_concurrency: 100000000 is not 1 to 1024"},
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
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("the refusal repeats a password: %v", err)
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
	// Replicas on a cluster the environment names.
	cfg.NATS.Replicas = 3
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
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

// TestFiles loads every testdata file: a *.good.yaml must load and
// validate; a *.bad.yaml must fail, with an error naming what its first
// line's "# want:" says.
func TestFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			cfg, err := Load(f)
			if err == nil {
				err = cfg.Validate()
			}
			if strings.HasSuffix(f, ".good.yaml") {
				if err != nil {
					t.Fatalf("good file refused: %v", err)
				}
				return
			}
			want := wantOf(t, f)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v, want it to name %s", err, want)
			}
		})
	}
}

// wantOf reads the "# want: ..." first line of a bad file.
func wantOf(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	want, ok := strings.CutPrefix(sc.Text(), "# want: ")
	if !ok || want == "" {
		t.Fatalf("%s: first line is not \"# want: ...\"", path)
	}
	return want
}

// TestProductionFileDecodesTypedKeys checks that the signer's keys arrive
// typed, as the signer takes them, and that the keys a file leaves out keep
// their defaults, the ones no file sets included.
func TestProductionFileDecodesTypedKeys(t *testing.T) {
	cfg, err := Load(filepath.Join("testdata", "production.good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Solana.SolanaSigner
	want := []solana.PublicKey{chains.JitoTipAccounts[0], solana.MustPublicKeyFromBase58("HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe")}
	if !reflect.DeepEqual(s.TipAccounts, want) || !reflect.DeepEqual(s.Tips(), want) {
		t.Fatalf("tip accounts %v, want %v", s.TipAccounts, want)
	}
	if s.SOLUSDPool != solana.MustPublicKeyFromBase58("Gf7sXMoP8iRw4iiXmJ1nq4vxcRycbGXy5RL8a8LnTd3v") {
		t.Fatalf("sol_usd_pool %s", s.SOLUSDPool)
	}
	if cfg.Solana.VenueProbePayer != chains.JitoTipAccounts[0] {
		t.Fatalf("venue_probe_payer %s", cfg.Solana.VenueProbePayer)
	}
	if !s.BagsPoolConfig.IsZero() {
		t.Fatalf("bags_pool_config \"\" decoded as %s, want the zero key", s.BagsPoolConfig)
	}
	def := DefaultSolanaSigner()
	if s.StateTTL != def.StateTTL || s.Commitment != def.Commitment || s.BlockhashMaxAge != def.BlockhashMaxAge ||
		!reflect.DeepEqual(s.QuoteMints, def.QuoteMints) || s.AutoTip != def.AutoTip || s.RPCTimeout != 5*time.Second {
		t.Fatalf("defaults lost: %+v", s)
	}
	if cfg.EVM.RPCTimeout != 10*time.Second || cfg.EVM.GasMarginBps != DefaultEVMSigner().GasMarginBps {
		t.Fatalf("evm signer defaults lost: %+v", cfg.EVM.EVMSigner)
	}
	if got := cfg.EVM.Chains["eth"].Quotes["USDT"]; got != "0xdAC17F958D2ee523a2206206994597C13D831ec7" {
		t.Fatalf("eth USDT %q", got)
	}
}

// TestDefaultTipsAreJito: no tip_accounts means Jito's published ones.
func TestDefaultTipsAreJito(t *testing.T) {
	s := DefaultSolanaSigner()
	if len(s.TipAccounts) != 0 || !reflect.DeepEqual(s.Tips(), chains.JitoTipAccounts) {
		t.Fatalf("default tips %v", s.Tips())
	}
}

// TestDevConfigSpellsOutEveryKey: configs/dev.yaml names every key of the
// schema, and no other.
func TestDevConfigSpellsOutEveryKey(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "configs", "dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := yaml.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	def, err := yaml.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := yaml.Unmarshal(def, &schema); err != nil {
		t.Fatal(err)
	}
	got, want := keysOf("", file), keysOf("", schema)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("configs/dev.yaml keys:\n%v\nschema keys:\n%v", got, want)
	}
	for _, k := range []string{"solana.auto_tip_lamports", "solana.sol_usd_pool", "evm.rpc_timeout", "evm.chains"} {
		if !slices.Contains(want, k) {
			t.Errorf("schema has no %s", k)
		}
	}
}

// keysOf lists the dotted paths of the leaves of a decoded YAML mapping; a
// map whose keys are data (evm.chains) is a leaf.
func keysOf(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		path := strings.TrimPrefix(prefix+"."+k, ".")
		if sub, ok := v.(map[string]any); ok && path != "evm.chains" {
			out = append(out, keysOf(path, sub)...)
			continue
		}
		out = append(out, path)
	}
	slices.Sort(out)
	return out
}

// TestEnvErrorsNameTheirVariable: a value an environment variable gave a
// key is refused naming the variable, where the file may hold another; a
// key the file gave is refused as before.
func TestEnvErrorsNameTheirVariable(t *testing.T) {
	cfg := Default()
	cfg.LogLevel = "loud"
	cfg.ApplyEnv(func(k string) string {
		return map[string]string{"TRADEAPI_LOG_FORMAT": "xml", "TRADEAPI_METRICS_ADDR": "nowhere"}[k]
	})
	err := cfg.Validate()
	want := []string{`log_format: "xml" is not json or text (from TRADEAPI_LOG_FORMAT)`,
		`log_level: "loud" is not debug, info, warn or error`,
		`listen.metrics: "nowhere" is not host:port (from TRADEAPI_METRICS_ADDR)`}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Fatalf("got %v\nwant %s", err, strings.Join(want, "\n"))
	}
	// A provider's URL given to the wrong variable is named, not repeated.
	cfg = Default()
	cfg.ApplyEnv(func(k string) string {
		return map[string]string{"TRADEAPI_LOG_LEVEL": "https://mainnet.example/?api-key=s3cr3t"}[k]
	})
	err = cfg.Validate()
	if want := "log_level: the value of $TRADEAPI_LOG_LEVEL is not debug, info, warn or error (from TRADEAPI_LOG_LEVEL)"; err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestEachBadKeyNamed: each wrong duration, count or percent is refused
// under its own key, not in a sentence that names several.
func TestEachBadKeyNamed(t *testing.T) {
	cfg := Default()
	cfg.Pipeline.JobMaxAge = 0
	cfg.Exits.MaxAttempts = 0
	cfg.Exits.SellSlippagePct = 101
	cfg.Solana.ConfirmTimeout = -time.Second
	want := "solana.confirm_timeout: -1s is not 1s to 1h\npipeline.job_max_age: 0s is not 1s to 10m\n" +
		"exits.max_attempts: 0 is not at least 1\nexits.sell_slippage_pct: 101 is not 0 to 100"
	if err := cfg.Validate(); err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestConfigErrorsQuoteNoURL: a file the YAML reader refuses is named by
// line and column, never by its lines, which may hold an RPC URL with its
// provider's key written in the file.
func TestConfigErrorsQuoteNoURL(t *testing.T) {
	const url = "https://rpc.example/v2/KEYPATH?api-key=KEYQUERY"
	tests := []struct{ name, yaml, want string }{
		{"syntax", "solana:\n  rpc_url: " + url + "\n  rpc_timeout: [\n", "[3:"},
		{"duplicate key", "evm:\n  base:\n    rpc_url: " + url + "\nevm:\n  eth: {}\n", "[4:"},
		{"bad indentation", "solana:\n  rpc_url: " + url + "\n    relay: x\n", "[2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(p)
			if err == nil {
				t.Fatal("the file loaded")
			}
			for _, part := range []string{"rpc.example", "KEYPATH", "KEYQUERY"} {
				if strings.Contains(err.Error(), part) {
					t.Errorf("error quotes %s: %v", part, err)
				}
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say where (%s)", err, tt.want)
			}
		})
	}
}

// TestNonFiniteFloatsRefused: every fractional key of the file refuses
// NaN and both infinities, written so or given by the environment, in one
// line naming the key. A range check written `x < 0 || x > 100` is false
// for NaN, which took the default slippage to none at all.
func TestNonFiniteFloatsRefused(t *testing.T) {
	keys := keysWhere(reflect.TypeFor[Config](), "", func(t reflect.Type) bool {
		return t.Kind() == reflect.Float64 || t.Kind() == reflect.Float32
	})
	if len(keys) < 3 {
		t.Fatalf("float keys: %v", keys)
	}
	for _, key := range keys {
		if strings.ContainsAny(key, "*[") {
			t.Fatalf("%s: a float key under a map or list; give it a case here", key)
		}
		parts := strings.Split(key, ".")
		for _, v := range []string{".nan", ".inf", "-.inf", "${X}"} {
			var b strings.Builder
			for i, p := range parts {
				b.WriteString(strings.Repeat("  ", i) + p + ":")
				if i < len(parts)-1 {
					b.WriteString("\n")
				}
			}
			b.WriteString(" " + v + "\n")
			cfg, err := loadText(t, b.String(), map[string]string{"X": "NaN"})
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil || !strings.HasPrefix(err.Error(), key+": ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %s: %v, want one line naming the key", key, v, err)
			}
		}
	}
}

// TestDurationBounds: each duration key takes its range, both ends
// included, and refuses a value past either end in one line naming the
// key and the range (job_max_age 1ms failed every order as the chain's
// fault; request_timeout 2540400h was taken).
func TestDurationBounds(t *testing.T) {
	tests := []struct{ section, key, below, min, max, above, want string }{
		{"pipeline", "request_timeout", "999ms", "1s", "2m", "2540400h", "1s to 2m"},
		{"pipeline", "job_max_age", "1ms", "1s", "10m", "11m", "1s to 10m"},
		{"solana", "rpc_timeout", "1ns", "100ms", "2m", "1h", "100ms to 2m"},
		{"evm", "rpc_timeout", "99ms", "100ms", "2m", "3m", "100ms to 2m"},
		{"solana", "confirm_poll", "1ms", "10ms", "1m", "2m", "10ms to 1m"},
		{"exits", "poll_interval", "1ms", "10ms", "1m", "1h", "10ms to 1m"},
		{"solana", "confirm_timeout", "500ms", "1s", "1h", "2h", "1s to 1h"},
		{"solana", "resolve_ttl", "-1s", "0s", "1h", "25h", "0s to 1h"},
	}
	for _, tt := range tests {
		key := tt.section + "." + tt.key
		for _, v := range []string{tt.below, tt.min, tt.max, tt.above} {
			cfg, err := loadText(t, tt.section+":\n  "+tt.key+": "+v+"\n", nil)
			if err == nil {
				err = cfg.Validate()
			}
			if v == tt.min || v == tt.max {
				if err != nil {
					t.Errorf("%s: %s refused: %v", key, v, err)
				}
				continue
			}
			if err == nil || !strings.HasPrefix(err.Error(), key+": ") || !strings.HasSuffix(err.Error(), " is not "+tt.want) ||
				strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %s: %v, want one line naming the key and %s", key, v, err, tt.want)
			}
		}
	}
}

// TestTLSFilesNamed: a TLS file that cannot be read, or a certificate
// given without its key, is refused naming its key and the variable that
// gave it (it said "tls: open …", naming neither).
func TestTLSFilesNamed(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "cert.pem")
	cfg := Default()
	cfg.ApplyEnv(func(k string) string {
		return map[string]string{"TRADEAPI_TLS_CERT_FILE": missing, "TRADEAPI_TLS_KEY_FILE": filepath.Join(dir, "key.pem")}[k]
	})
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// A path longer than an address is written as the variable's value,
	// as every long value from the environment is.
	_, err := cfg.ServerTLS()
	if err == nil || !strings.HasPrefix(err.Error(), "tls.cert_file: open ") ||
		!strings.HasSuffix(err.Error(), ": no such file or directory (from TRADEAPI_TLS_CERT_FILE)") {
		t.Fatalf("err %v, want tls.cert_file's failure, naming its variable", err)
	}

	// A certificate file holding no certificate is named as such, not as
	// the key's mismatch.
	notCert := filepath.Join(dir, "not-cert.pem")
	if err := os.WriteFile(notCert, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg = Default()
	cfg.TLS = TLS{CertFile: notCert, KeyFile: notCert}
	if _, err := cfg.ServerTLS(); err == nil || err.Error() != "tls.cert_file: holds no PEM certificate" {
		t.Fatalf("err %v, want tls.cert_file named", err)
	}

	cfg = Default()
	cfg.ApplyEnv(func(k string) string { return map[string]string{"TRADEAPI_TLS_CERT_FILE": missing}[k] })
	err = cfg.Validate()
	if want := "tls.cert_file: given without tls.key_file; the two go together (from TRADEAPI_TLS_CERT_FILE)"; err == nil || err.Error() != want {
		t.Fatalf("err %v, want %q", err, want)
	}
}
