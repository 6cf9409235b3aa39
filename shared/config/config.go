// Package config is the one configuration schema of every role: defaults
// that make `tradeapi up` work with no file, an optional strict YAML file,
// and the TRADEAPI_* environment overrides applied last.
//
// Each section of the file is a type with its Default...() and Validate()
// (prometheus's config package is the model). The components take their
// section's type as it is decoded: the Solana signer's configuration is
// SolanaSigner, the EVM signer's EVMSigner, so a setting exists once and no
// second struct is filled from it by hand.
package config

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Config is the whole configuration.
type Config struct {
	// DataDir holds every file the service writes.
	DataDir string `yaml:"data_dir"`
	// LogFormat is "json" (default) or "text".
	LogFormat string `yaml:"log_format"`
	// LogLevel is "debug", "info" (default), "warn" or "error".
	LogLevel string `yaml:"log_level"`

	Listen   Listen   `yaml:"listen"`
	TLS      TLS      `yaml:"tls"`
	NATS     NATS     `yaml:"nats"`
	Devnet   Devnet   `yaml:"devnet"`
	Solana   Solana   `yaml:"solana"`
	EVM      EVM      `yaml:"evm"`
	Pipeline Pipeline `yaml:"pipeline"`
	Exits    Exits    `yaml:"exits"`

	// AdminToken and MasterKey come from the environment or the data
	// folder, never from the config file.
	AdminToken string `yaml:"-"`
	MasterKey  string `yaml:"-"`

	// fromEnv maps each key ApplyEnv set to its variable, so that an error
	// of the key names where its value came from; envValues maps every
	// value the environment gave (a file's ${NAME}, a TRADEAPI_*
	// variable) to its reference, so that no error repeats it.
	fromEnv   map[string]string
	envValues map[string]string
}

// Listen holds the listener addresses.
type Listen struct {
	SolEU   string `yaml:"sol_eu"`
	SolUS   string `yaml:"sol_us"`
	EVM     string `yaml:"evm"`
	Admin   string `yaml:"admin"`
	Metrics string `yaml:"metrics"`
}

// TLS serves every listener of the service (public, admin, metrics) over
// TLS when a certificate is given. The local chains stay plain HTTP.
type TLS struct {
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// Enabled reports whether the listeners serve TLS: when either file is
// given (one without the other is refused by Validate).
func (t TLS) Enabled() bool { return t.CertFile != "" || t.KeyFile != "" }

// Config returns the TLS configuration, or nil when TLS is off. Its
// errors name the key of the file that failed (Config.ServerTLS adds the
// variable it came from).
func (t TLS) Config() (*tls.Config, error) {
	if !t.Enabled() {
		return nil, nil
	}
	certPEM, err := os.ReadFile(t.CertFile)
	if err != nil {
		return nil, fmt.Errorf("tls.cert_file: %w", err)
	}
	if block, _ := pem.Decode(certPEM); block == nil || block.Type != "CERTIFICATE" {
		return nil, errors.New("tls.cert_file: holds no PEM certificate")
	}
	keyPEM, err := os.ReadFile(t.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("tls.key_file: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("tls.key_file: with tls.cert_file's certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// ServerTLS is TLS.Config for a process that serves over TLS: read at its
// start, a file that fails is named by its key and, when a variable gave
// it, by the variable.
func (c *Config) ServerTLS() (*tls.Config, error) {
	cfg, err := c.TLS.Config()
	if err != nil && (len(c.fromEnv) > 0 || len(c.envValues) > 0) {
		return nil, fromEnvError{err, c.fromEnv, c.envValues}
	}
	return cfg, err
}

// NATS configures the connection, or the embedded server when URL is empty.
type NATS struct {
	URL string `yaml:"url"`
	// Listen makes the embedded server accept TCP clients too.
	Listen string `yaml:"listen"`
	// Replicas of streams and buckets: 1, or 3 on a cluster.
	Replicas int `yaml:"replicas"`
	// StreamMaxGiB bounds, in GiB, each of the streams and the bucket that
	// grow with the order rate (ORDERS, TXS, EVENTS, WEBHOOK_RETRIES,
	// WEBHOOK_BACKLOG, the idempotency keys); default 1.
	StreamMaxGiB int `yaml:"stream_max_gib"`
	// SyncAlways makes the embedded JetStream fsync every write.
	SyncAlways bool `yaml:"sync_always"`
	// User and Password, or Creds (a NATS credentials file), are the
	// credentials every role authenticates with; each role connects as a
	// user derived from them with its own permissions. Empty: the nats
	// role (or up) generates them under the data folder on its first
	// start, and every role with the same data folder reads them there.
	// They are never printed or logged.
	User     string `yaml:"user"`
	Password string `yaml:"password"`
	// RolePassword, in place of Password, is the password of this
	// process's one role under User, as `tradeapi nats role-password ROLE`
	// prints it where the master is kept: a host running that role alone
	// then holds nothing that opens another role's permissions.
	RolePassword string `yaml:"role_password"`
	Creds        string `yaml:"creds"`
}

// Devnet is the `devnet:` section: the local development chains.
type Devnet struct {
	// Enabled runs the local chains (test doubles) with `up`, makes the demo
	// account on a fresh data folder, enables the devnet admin endpoints,
	// and lets a chain without its rpc_url be served by its local chain.
	// Off, nothing of them runs and an unconfigured chain is not served.
	Enabled bool `yaml:"enabled"`
	// Addr is where the local chains serve JSON-RPC.
	Addr string `yaml:"addr"`
	// EVMBlockTime is how often the local EVM chains seal a block while
	// transactions wait, all of them in it, as a public chain's clock
	// does (evm.ChainConfig.BlockTime); 0 seals a block as soon as a
	// transaction arrives.
	EVMBlockTime time.Duration `yaml:"evm_block_time"`
}

// Default returns the configuration of `tradeapi up` with no file: every
// section's defaults.
func Default() Config {
	return Config{
		DataDir:   "./data",
		LogFormat: "json",
		LogLevel:  "info",
		Listen: Listen{
			SolEU:   "127.0.0.1:8080",
			SolUS:   "127.0.0.1:8081",
			EVM:     "127.0.0.1:8082",
			Admin:   "127.0.0.1:8090",
			Metrics: "127.0.0.1:9090",
		},
		NATS:     NATS{Replicas: 1, StreamMaxGiB: 1},
		Devnet:   Devnet{Enabled: true, Addr: "127.0.0.1:8899", EVMBlockTime: 100 * time.Millisecond},
		Solana:   DefaultSolana(),
		EVM:      DefaultEVM(),
		Pipeline: DefaultPipeline(),
		Exits:    DefaultExits(),
	}
}

// Load reads a YAML file over the defaults. Unknown keys are an error.
// String values may name environment variables, which are replaced by
// their values before the file is decoded: ${NAME}, an error naming the
// key and the variable when NAME is unset or empty, and ${NAME:-default},
// the default when NAME is unset or empty. Keys and comments are never
// expanded, and an expanded value is always a string, so a variable can
// neither change the file's structure nor the type of a key (a
// whole-number key takes a variable holding a whole number).
func Load(path string) (Config, error) { return LoadEnv(path, os.LookupEnv) }

// LoadEnv is Load with the environment read through lookup.
func LoadEnv(path string, lookup func(string) (string, bool)) (Config, error) {
	cfg := Default()
	b, err := readFile(path)
	if err != nil || b == nil {
		return cfg, err
	}
	if err := decodeFile(b, lookup, &cfg); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// RPCNotGiven is what an unset `${…_RPC_URL}` reads as for a process that
// calls no chain (WithoutRPCURLs): an https URL under a name reserved never
// to resolve (.invalid), so that nothing could reach it if anything tried.
const RPCNotGiven = "https://rpc-url-not-given-here.invalid/"

// WithoutRPCURLs is lookup for a process that calls no chain (the ingress
// role): a variable named `…_RPC_URL` that lookup does not hold reads as
// RPCNotGiven where the file requires it (`${NAME}`), so that the chain
// counts as configured (served, on its public network) without its
// provider's URL, which carries a key, being given to that process's host;
// a reference with a default (`${NAME:-…}`) takes the default, as in every
// other process. Every other variable is lookup's.
func WithoutRPCURLs(lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := lookup(name)
		if (!ok || v == "") && strings.HasSuffix(name, "_RPC_URL") {
			return RPCNotGiven, true
		}
		return v, ok
	}
}

// readFile reads a configuration file; none (nil) for an empty path.
func readFile(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return b, nil
}

// LoadParts is Load of only the file's top-level keys named in parts (as
// `listen`, `tls`, `data_dir`): the rest of the file, whose environment
// references may name variables a shell does not hold (the RPC URLs, which
// carry keys), is neither expanded nor checked. For a tool that needs a
// few settings of the file the service runs with (the admin CLI).
func LoadParts(path string, lookup func(string) (string, bool), parts ...string) (Config, error) {
	cfg := Default()
	b, err := readFile(path)
	if err != nil || b == nil {
		return cfg, err
	}
	file, err := parser.ParseBytes(b, 0)
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	if len(file.Docs) == 0 || file.Docs[0].Body == nil {
		return cfg, nil
	}
	root, ok := file.Docs[0].Body.(*ast.MappingNode)
	if !ok {
		return LoadEnv(path, lookup) // not a mapping: the whole load says what is wrong
	}
	root.Values = slices.DeleteFunc(root.Values, func(v *ast.MappingValueNode) bool {
		return !slices.Contains(parts, keyText(v.Key))
	})
	if len(root.Values) == 0 {
		return cfg, nil
	}
	if err := decodeFile([]byte(root.String()), lookup, &cfg); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// decodeFile expands the environment references of a YAML file and
// decodes its first document into cfg, strictly.
func decodeFile(b []byte, lookup func(string) (string, bool), cfg *Config) error {
	file, err := parser.ParseBytes(b, 0)
	if err != nil {
		return sourceless(err)
	}
	if len(file.Docs) == 0 || file.Docs[0].Body == nil {
		return nil // an empty file keeps the defaults
	}
	body := file.Docs[0].Body
	said := map[string]string{}
	fromEnv, err := expandEnv(body, lookup, said)
	if err != nil {
		return err
	}
	if len(said) > 0 {
		cfg.envValues = said
	}
	if err := errors.Join(checkAddresses(body), checkDurations(body), checkIntegers(body, fromEnv)); err != nil {
		return unsaid(err, said)
	}
	dec := yaml.NewDecoder(bytes.NewReader(nil), yaml.Strict(), yaml.CustomUnmarshaler(decodePublicKey))
	err = dec.DecodeFromNode(body, cfg)
	if err == nil {
		return nil
	}
	if kerr := keyedError(body, err); kerr != nil {
		return unsaid(kerr, said)
	}
	return sourceless(err)
}

// sourceless is a YAML error without the lines of the file it quotes: the
// file may hold an RPC URL with its provider's key, written in it or
// expanded from the environment, and a config error reaches the log. The
// line and column stay.
func sourceless(err error) error {
	return errors.New(yaml.FormatError(err, false, false))
}

// envRef is one environment reference: ${NAME} or ${NAME:-default}.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expandEnv replaces the environment references in every string value
// under node, and returns the values it expanded; mapping keys are left
// alone. Every unset variable is reported, by the key that names it; a
// value is never printed.
func expandEnv(node ast.Node, lookup func(string) (string, bool), said map[string]string) (map[*ast.StringNode]bool, error) {
	var errs []error
	expanded := map[*ast.StringNode]bool{}
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.MappingNode:
			for _, v := range n.Values {
				walk(v)
			}
		case *ast.MappingValueNode:
			walk(n.Value)
		case *ast.SequenceNode:
			for _, v := range n.Values {
				walk(v)
			}
		case *ast.TagNode:
			walk(n.Value)
		case *ast.LiteralNode:
			walk(n.Value)
		case *ast.StringNode:
			if strings.Contains(n.Value, "${") {
				expanded[n] = true
				if err := expandString(n, lookup, said); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	walk(node)
	return expanded, errors.Join(errs...)
}

// expandString expands the references of one string value in place. The
// node's token becomes a double-quoted scalar holding the result, so that
// whatever reads the node again as text (a custom decoder) reads the
// expanded value as a string.
func expandString(n *ast.StringNode, lookup func(string) (string, bool), said map[string]string) error {
	key := strings.TrimPrefix(n.GetPath(), "$.")
	ref := n.Value
	if strings.Contains(envRef.ReplaceAllString(n.Value, ""), "${") {
		return fmt.Errorf("%s: malformed environment reference: write ${NAME} or ${NAME:-default}", key)
	}
	var missing, empty []string
	out := envRef.ReplaceAllStringFunc(n.Value, func(ref string) string {
		m := envRef.FindStringSubmatch(ref)
		v, set := lookup(m[1])
		switch {
		case m[2] != "" && (!set || v == "" || v == RPCNotGiven):
			// A URL not given to this process (WithoutRPCURLs) takes the
			// reference's default, as in every other process.
			return m[3]
		case !set:
			missing = append(missing, m[1])
		case v == "":
			// Set but empty (a secret lookup that failed, an export of
			// nothing) is refused as unset is: an RPC endpoint left empty
			// quietly took its chain out of service.
			empty = append(empty, m[1])
		}
		return v
	})
	if len(missing) > 0 {
		return fmt.Errorf("%s: environment variable %s is not set", key, strings.Join(missing, ", "))
	}
	if len(empty) > 0 {
		return fmt.Errorf("%s: environment variable %s is set but empty; write ${%s:-} for a key that may be empty", key,
			strings.Join(empty, ", "), empty[0])
	}
	n.Value = out
	if out != ref {
		said[out] = ref
	}
	if tk := n.Token; tk != nil {
		lead := tk.Origin[:len(tk.Origin)-len(strings.TrimLeft(tk.Origin, " \t"))]
		trail := tk.Origin[len(strings.TrimRight(tk.Origin, " \t\r\n")):]
		tk.Type, tk.Value, tk.Origin = token.DoubleQuoteType, out, lead+strconv.Quote(out)+trail
	}
	return nil
}

// ApplyEnv applies the TRADEAPI_* overrides of the operating contract.
func (c *Config) ApplyEnv(getenv func(string) string) {
	set := func(dst *string, key, name string) {
		if v := getenv(name); v != "" {
			*dst = v
			if c.fromEnv == nil {
				c.fromEnv = map[string]string{}
			}
			c.fromEnv[key] = name
			if c.envValues == nil {
				c.envValues = map[string]string{}
			}
			c.envValues[v] = "$" + name
		}
	}
	set(&c.DataDir, "data_dir", "TRADEAPI_DATA_DIR")
	set(&c.Listen.SolEU, "listen.sol_eu", "TRADEAPI_SOL_EU_ADDR")
	set(&c.Listen.SolUS, "listen.sol_us", "TRADEAPI_SOL_US_ADDR")
	set(&c.Listen.EVM, "listen.evm", "TRADEAPI_EVM_ADDR")
	set(&c.Listen.Admin, "listen.admin", "TRADEAPI_ADMIN_ADDR")
	set(&c.Listen.Metrics, "listen.metrics", "TRADEAPI_METRICS_ADDR")
	set(&c.AdminToken, "admin_token", "TRADEAPI_ADMIN_TOKEN")
	set(&c.MasterKey, "master_key", "TRADEAPI_MASTER_KEY")
	set(&c.NATS.URL, "nats.url", "TRADEAPI_NATS_URL")
	set(&c.NATS.User, "nats.user", "TRADEAPI_NATS_USER")
	set(&c.NATS.Password, "nats.password", "TRADEAPI_NATS_PASSWORD")
	set(&c.NATS.RolePassword, "nats.role_password", "TRADEAPI_NATS_ROLE_PASSWORD")
	set(&c.NATS.Creds, "nats.creds", "TRADEAPI_NATS_CREDS")
	set(&c.Devnet.Addr, "devnet.addr", "TRADEAPI_DEVNET_ADDR")
	set(&c.LogFormat, "log_format", "TRADEAPI_LOG_FORMAT")
	set(&c.LogLevel, "log_level", "TRADEAPI_LOG_LEVEL")
	set(&c.TLS.CertFile, "tls.cert_file", "TRADEAPI_TLS_CERT_FILE")
	set(&c.TLS.KeyFile, "tls.key_file", "TRADEAPI_TLS_KEY_FILE")
}

// fromEnvError is a Validate error whose lines about a key ApplyEnv set
// name the variable the value came from.
type fromEnvError struct {
	err       error
	fromEnv   map[string]string
	envValues map[string]string
}

func (e fromEnvError) Error() string {
	lines := strings.Split(e.err.Error(), "\n")
	for i, l := range lines {
		if key, _, ok := strings.Cut(l, ":"); ok && e.fromEnv[key] != "" {
			lines[i] = l + " (from " + e.fromEnv[key] + ")"
		}
	}
	return unsaidText(strings.Join(lines, "\n"), e.envValues)
}

// unsaid returns err with every value the environment gave (an RPC URL
// carries its provider's key) written as the reference that gave it
// (said: value -> "${NAME}" or "$NAME"), quoted or not.
func unsaid(err error, said map[string]string) error {
	if err == nil || len(said) == 0 {
		return err
	}
	text := unsaidText(err.Error(), said)
	if text == err.Error() {
		return err
	}
	return errors.New(text)
}

// unsaidText is unsaid of a text, for the values that may be secret: a
// URL, or a value longer than any address the file holds (a key). Such a
// value is replaced wherever it shows, quoted or not; a short one ("xml",
// a mistyped address) is what the operator needs to see.
func unsaidText(text string, said map[string]string) string {
	// The longest first: a value may hold another.
	values := slices.SortedFunc(maps.Keys(said), func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, v := range values {
		if !strings.Contains(v, "://") && len(v) <= maxShownValue {
			continue
		}
		text = strings.ReplaceAll(text, strconv.Quote(v), "the value of "+said[v])
		text = strings.ReplaceAll(text, v, "the value of "+said[v])
	}
	return text
}

// maxShownValue is the longest value from the environment an error may
// repeat: a Solana address's 44 characters.
const maxShownValue = 44

func (e fromEnvError) Unwrap() error { return e.err }

// Validate checks the configuration, each section by its own Validate;
// every error names its key.
func (c *Config) Validate() error {
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, errors.New("data_dir: empty"))
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		errs = append(errs, fmt.Errorf("log_format: %q is not json or text", c.LogFormat))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		errs = append(errs, fmt.Errorf("log_level: %q is not debug, info, warn or error", c.LogLevel))
	}
	for _, v := range []interface{ Validate() error }{&c.Listen, &c.TLS, &c.NATS, &c.Devnet, &c.Solana, &c.EVM, &c.Pipeline, &c.Exits} {
		if err := v.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil && (len(c.fromEnv) > 0 || len(c.envValues) > 0) {
		return fromEnvError{err, c.fromEnv, c.envValues}
	}
	return errors.Join(errs...)
}

// Validate checks every listener address.
func (l *Listen) Validate() error {
	var errs []error
	for _, a := range []struct{ key, addr string }{
		{"listen.sol_eu", l.SolEU}, {"listen.sol_us", l.SolUS}, {"listen.evm", l.EVM},
		{"listen.admin", l.Admin}, {"listen.metrics", l.Metrics},
	} {
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not host:port", a.key, a.addr))
		}
	}
	return errors.Join(errs...)
}

// Validate checks that the certificate and its key come together.
func (t *TLS) Validate() error {
	switch {
	case t.CertFile != "" && t.KeyFile == "":
		return errors.New("tls.cert_file: given without tls.key_file; the two go together")
	case t.KeyFile != "" && t.CertFile == "":
		return errors.New("tls.key_file: given without tls.cert_file; the two go together")
	}
	return nil
}

// MaxStreamGiB bounds nats.stream_max_gib: 4 TiB a stream.
const MaxStreamGiB = 4096

// StreamMaxBytes is StreamMaxGiB in bytes.
func (n *NATS) StreamMaxBytes() int64 { return int64(n.StreamMaxGiB) << 30 }

// Validate checks the replica count, the streams' bound and that the
// credentials are one kind: a user with its password, or a credentials
// file.
func (n *NATS) Validate() error {
	if n.Replicas < 1 || n.Replicas > 5 {
		return fmt.Errorf("nats.replicas: %d is not 1 to 5", n.Replicas)
	}
	if n.Replicas > 1 && n.URL == "" {
		// The embedded server is one server: its streams would never be
		// declared, and up would retry them for good.
		return fmt.Errorf("nats.replicas: %d needs a NATS cluster, and nats.url is empty (the embedded server, or a role's "+
			"default nats://127.0.0.1:4222, is one server); list the cluster's servers in nats.url, or set nats.replicas to 1", n.Replicas)
	}
	if n.StreamMaxGiB < 1 || n.StreamMaxGiB > MaxStreamGiB {
		return fmt.Errorf("nats.stream_max_gib: %d is not 1 to %d", n.StreamMaxGiB, MaxStreamGiB)
	}
	if n.Creds != "" && (n.User != "" || n.Password != "" || n.RolePassword != "") {
		return errors.New("nats.creds: give a credentials file or nats.user and nats.password, not both")
	}
	if n.Password != "" && n.RolePassword != "" {
		return errors.New("nats.role_password: give the master nats.password or one role's nats.role_password, not both")
	}
	if n.User != "" && n.Password == "" && n.RolePassword == "" {
		return errors.New("nats.password: nats.user is set without a password")
	}
	// Credentials in the URL would win over each role's own (the client
	// sends them first): every role would connect as that one user, with
	// its permissions, not its own. The URL is not repeated: it holds them.
	for _, server := range strings.Split(n.URL, ",") {
		server = strings.TrimSpace(server)
		if server != "" && !strings.Contains(server, "://") {
			// Read as the client reads it (nats:// is its default scheme),
			// or "ops:secret@host" would parse as the scheme "ops".
			server = "nats://" + server
		}
		u, err := url.Parse(server)
		if err != nil {
			// Not repeated: it may hold a secret.
			return errors.New("nats.url: a server in it is not a URL (nats://host:port, several separated by commas)")
		}
		if u.User != nil {
			return errors.New("nats.url: carries credentials (user:password@ or a token); give them as nats.user and nats.password " +
				"(or TRADEAPI_NATS_USER and TRADEAPI_NATS_PASSWORD), from which each role connects as its own user with its own permissions")
		}
	}
	return nil
}

// Validate checks where the local chains listen, when they run.
func (d *Devnet) Validate() error {
	if !d.Enabled {
		return nil
	}
	var errs []error
	if _, _, err := net.SplitHostPort(d.Addr); err != nil {
		errs = append(errs, fmt.Errorf("devnet.addr: %q is not host:port", d.Addr))
	}
	if d.EVMBlockTime < 0 || d.EVMBlockTime > time.Minute {
		errs = append(errs, fmt.Errorf("devnet.evm_block_time: %v is not 0 (a block per transaction) to 1m", d.EVMBlockTime))
	}
	return errors.Join(errs...)
}

// yamlUnmarshal decodes one YAML node, for the custom decoders of Load.
func yamlUnmarshal(b []byte, v any) error { return yaml.Unmarshal(b, v) }

// readPath decodes the value at a dotted key of a parsed YAML document
// into v, and reports whether the document has it in that shape; the
// strict decoding that follows reports anything else.
func readPath(body ast.Node, key string, v any) bool {
	p, err := yaml.PathString("$." + key)
	if err != nil {
		return false
	}
	n, err := p.FilterNode(body)
	if err != nil || n == nil {
		return false
	}
	return yaml.NodeToValue(n, v) == nil
}

// Path returns a path under the data folder.
func (c *Config) Path(elem ...string) string {
	return filepath.Join(append([]string{c.DataDir}, elem...)...)
}
