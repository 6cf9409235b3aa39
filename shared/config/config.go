// Package config is the configuration of every role: defaults that make
// `tradeapi up` work with no file, an optional strict YAML file, and the
// TRADEAPI_* environment overrides applied last.
package config

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/goccy/go-yaml"
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

// Config returns the TLS configuration, or nil when TLS is off.
func (t TLS) Config() (*tls.Config, error) {
	if t.CertFile == "" && t.KeyFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// NATS configures the connection, or the embedded server when URL is empty.
type NATS struct {
	URL string `yaml:"url"`
	// Listen makes the embedded server accept TCP clients too.
	Listen string `yaml:"listen"`
	// Replicas of streams and buckets: 1, or 3 on a cluster.
	Replicas int `yaml:"replicas"`
	// SyncAlways makes the embedded JetStream fsync every write.
	SyncAlways bool `yaml:"sync_always"`
}

// Devnet configures the local development chains.
type Devnet struct {
	// Enabled runs the local chains inside `up` and enables the devnet
	// admin endpoints.
	Enabled bool `yaml:"enabled"`
	// Addr is where the local chains serve JSON-RPC.
	Addr string `yaml:"addr"`
}

// Solana configures the Solana chain.
type Solana struct {
	// RPCURL is the JSON-RPC endpoint; empty means the local chain.
	RPCURL string `yaml:"rpc_url"`
	// ComputeUnitLimit of every swap transaction.
	ComputeUnitLimit uint32 `yaml:"compute_unit_limit"`
	// TipAccounts receive processor_tip; one is picked at random per
	// transaction. Empty means Jito's published tip accounts.
	TipAccounts []string `yaml:"tip_accounts"`
	// RPCTimeout bounds every RPC call.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
	// ConfirmPoll is how often the broadcaster polls signature statuses.
	ConfirmPoll time.Duration `yaml:"confirm_poll"`
	// ConfirmTimeout is how long a signature may stay unseen before it is
	// expired.
	ConfirmTimeout time.Duration `yaml:"confirm_timeout"`
	// ExplorerTx is the explorer URL pattern of a transaction, %s the
	// signature; empty means the local chain's transaction view when the
	// local chain serves Solana, and no link otherwise.
	ExplorerTx string `yaml:"explorer_tx"`
	// BundleRelayURL is the bundle relay anti_mev transactions go through
	// (Jito sendBundle); empty means the local chain's, or, without the
	// local chains, anti_mev is refused.
	BundleRelayURL string `yaml:"bundle_relay_url"`
	// MetadataUploadURL is where a deploy's token metadata JSON is posted
	// (answering {"uri": "..."}), the uri the token's metadata points to;
	// empty means the local chain's metadata store, or, without the local
	// chains, deploys are refused.
	MetadataUploadURL string `yaml:"metadata_upload_url"`
	// BagsPoolConfig is the Meteora DBC pool config of bags launches that
	// name none; empty means the local chain's, or, without the local
	// chains, such launches are refused.
	BagsPoolConfig string `yaml:"bags_pool_config"`
	// SOLUSDPool is the PumpSwap SOL/stable pool that prices SOL in USD for
	// the market bounds; empty means the local chain's.
	SOLUSDPool string `yaml:"sol_usd_pool"`
	// ResolveTTL bounds how long the venue an address resolved to is reused.
	ResolveTTL time.Duration `yaml:"resolve_ttl"`
	// AutoFeePercentile of getRecentPrioritizationFees is the compute-unit
	// price of an auto_tip swap, clamped between the min and max.
	AutoFeePercentile       float64 `yaml:"auto_fee_percentile"`
	AutoFeeMinMicroLamports uint64  `yaml:"auto_fee_min_micro_lamports"`
	AutoFeeMaxMicroLamports uint64  `yaml:"auto_fee_max_micro_lamports"`
	// AutoTipLamports is the processor tip of an auto_tip swap.
	AutoTipLamports uint64 `yaml:"auto_tip_lamports"`
	// MinBundleTipLamports is the least tip an anti_mev transaction carries.
	MinBundleTipLamports uint64 `yaml:"min_bundle_tip_lamports"`
}

// EVM configures the EVM chains.
type EVM struct {
	// Chains configures a chain by name (eth, bsc, base, rbh, arc). A chain
	// not listed is served by its local chain when devnet is enabled, and
	// not served otherwise.
	Chains map[string]EVMChain `yaml:"chains"`
	// RPCTimeout bounds every RPC call.
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
}

// EVMChain is one EVM chain in production: where its RPC answers and
// where its V2 exchange is.
type EVMChain struct {
	RPCURL string `yaml:"rpc_url"`
	// RelayURL is the private relay anti_mev transactions go to; empty
	// refuses anti_mev on the chain.
	RelayURL      string `yaml:"relay_url"`
	ChainID       uint64 `yaml:"chain_id"`
	Router        string `yaml:"router"`
	Factory       string `yaml:"factory"`
	WrappedNative string `yaml:"wrapped_native"`
	// Quotes maps each stable quote asset of the chain to its token.
	Quotes map[string]string `yaml:"quotes"`
	// USDStable is the quote whose pair with the wrapped native coin prices
	// the native coin in dollars (empty on arc, whose native coin is USDC).
	USDStable string `yaml:"usd_stable"`
	// ExplorerTx is the explorer URL pattern of a transaction, %s the hash;
	// empty shows no link.
	ExplorerTx string `yaml:"explorer_tx"`
}

// Pipeline configures how orders move.
type Pipeline struct {
	// RequestTimeout is how long ingress waits for an order's answer.
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// JobMaxAge: a job older than this is not executed any more (a bot
	// that got 504 long ago must not be surprised by a late trade).
	JobMaxAge time.Duration `yaml:"job_max_age"`
	// WorkersPerChain is how many jobs one worker process handles at once.
	WorkersPerChain int `yaml:"workers_per_chain"`
	// DefaultSlippagePct applies when a swap omits slippage.
	DefaultSlippagePct float64 `yaml:"default_slippage_pct"`
	// MaxPending bounds the jobs waiting for one chain's workers; past it,
	// ingress answers 503 OVERLOADED at once. 0 turns the bound off.
	MaxPending uint64 `yaml:"max_pending"`
}

// Exits configures the auto-order engine (the exits role).
type Exits struct {
	// PollInterval is how often the price of each watched token is read
	// from its chain; one read serves every position of the token.
	PollInterval time.Duration `yaml:"poll_interval"`
	// ReadConcurrency bounds the price reads in flight at once.
	ReadConcurrency int `yaml:"read_concurrency"`
	// SellSlippagePct is the slippage of the sells the exits publish.
	SellSlippagePct float64 `yaml:"sell_slippage_pct"`
	// AutoTip lets the worker choose the fee and tip of exit sells, as
	// auto_tip does; otherwise they pay none.
	AutoTip bool `yaml:"auto_tip"`
	// MaxAttempts is how many sells one exit publishes when they fail on
	// chain, before it gives up.
	MaxAttempts int `yaml:"max_attempts"`
}

// Default returns the configuration of `tradeapi up` with no file.
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
		NATS:   NATS{Replicas: 1},
		Devnet: Devnet{Enabled: true, Addr: "127.0.0.1:8899"},
		Solana: Solana{
			ComputeUnitLimit:        200_000,
			RPCTimeout:              5 * time.Second,
			ConfirmPoll:             300 * time.Millisecond,
			ConfirmTimeout:          90 * time.Second,
			ResolveTTL:              10 * time.Second,
			AutoFeePercentile:       75,
			AutoFeeMinMicroLamports: 500_000,
			AutoFeeMaxMicroLamports: 50_000_000,
			AutoTipLamports:         100_000,
			MinBundleTipLamports:    1000,
		},
		EVM: EVM{RPCTimeout: 10 * time.Second},
		Pipeline: Pipeline{
			RequestTimeout:     10 * time.Second,
			JobMaxAge:          30 * time.Second,
			WorkersPerChain:    64,
			DefaultSlippagePct: 10,
			MaxPending:         5000,
		},
		Exits: Exits{
			PollInterval:    500 * time.Millisecond,
			ReadConcurrency: 32,
			SellSlippagePct: 20,
			MaxAttempts:     3,
		},
	}
}

// Load reads a YAML file over the defaults. Unknown keys are an error.
func Load(path string) (Config, error) {
	cfg := Default()
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("read config: %w", err)
	}
	if err := yaml.NewDecoder(bytes.NewReader(b), yaml.Strict()).Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// ApplyEnv applies the TRADEAPI_* overrides of the operating contract.
func (c *Config) ApplyEnv(getenv func(string) string) {
	set := func(dst *string, name string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	set(&c.DataDir, "TRADEAPI_DATA_DIR")
	set(&c.Listen.SolEU, "TRADEAPI_SOL_EU_ADDR")
	set(&c.Listen.SolUS, "TRADEAPI_SOL_US_ADDR")
	set(&c.Listen.EVM, "TRADEAPI_EVM_ADDR")
	set(&c.Listen.Admin, "TRADEAPI_ADMIN_ADDR")
	set(&c.Listen.Metrics, "TRADEAPI_METRICS_ADDR")
	set(&c.AdminToken, "TRADEAPI_ADMIN_TOKEN")
	set(&c.MasterKey, "TRADEAPI_MASTER_KEY")
	set(&c.NATS.URL, "TRADEAPI_NATS_URL")
	set(&c.Devnet.Addr, "TRADEAPI_DEVNET_ADDR")
	set(&c.LogFormat, "TRADEAPI_LOG_FORMAT")
	set(&c.LogLevel, "TRADEAPI_LOG_LEVEL")
	set(&c.TLS.CertFile, "TRADEAPI_TLS_CERT_FILE")
	set(&c.TLS.KeyFile, "TRADEAPI_TLS_KEY_FILE")
}

// SolanaRPC is the Solana JSON-RPC URL: the configured one, or the local chain's.
func (c *Config) SolanaRPC() string {
	if c.Solana.RPCURL != "" {
		return c.Solana.RPCURL
	}
	return "http://" + c.Devnet.Addr + "/solana"
}

// MetadataUploadURL is where deploys store token metadata: the configured
// endpoint, or the local chain's store; empty when neither is there.
func (c *Config) MetadataUploadURL() string {
	if c.Solana.MetadataUploadURL != "" {
		return c.Solana.MetadataUploadURL
	}
	if c.Devnet.Enabled {
		return "http://" + c.Devnet.Addr + "/metadata/"
	}
	return ""
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	var errs []error
	for name, addr := range map[string]string{
		"listen.sol_eu": c.Listen.SolEU, "listen.sol_us": c.Listen.SolUS, "listen.evm": c.Listen.EVM,
		"listen.admin": c.Listen.Admin, "listen.metrics": c.Listen.Metrics,
	} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not host:port", name, addr))
		}
	}
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		errs = append(errs, errors.New("tls: cert_file and key_file go together"))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("data_dir: empty"))
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		errs = append(errs, fmt.Errorf("log_format: %q is not json or text", c.LogFormat))
	}
	if c.NATS.Replicas < 1 || c.NATS.Replicas > 5 {
		errs = append(errs, fmt.Errorf("nats.replicas: %d is not 1 to 5", c.NATS.Replicas))
	}
	if c.Pipeline.RequestTimeout <= 0 || c.Pipeline.JobMaxAge <= 0 {
		errs = append(errs, errors.New("pipeline: request_timeout and job_max_age must be positive"))
	}
	if c.Pipeline.WorkersPerChain < 1 {
		errs = append(errs, errors.New("pipeline.workers_per_chain: must be at least 1"))
	}
	if c.Pipeline.DefaultSlippagePct < 0 || c.Pipeline.DefaultSlippagePct > 100 {
		errs = append(errs, errors.New("pipeline.default_slippage_pct: must be 0 to 100"))
	}
	if c.Solana.AutoFeePercentile <= 0 || c.Solana.AutoFeePercentile > 100 ||
		c.Solana.AutoFeeMinMicroLamports > c.Solana.AutoFeeMaxMicroLamports {
		errs = append(errs, errors.New("solana.auto_fee_percentile must be in (0, 100] and auto_fee_min_micro_lamports at most auto_fee_max_micro_lamports"))
	}
	if c.Exits.PollInterval < 10*time.Millisecond || c.Exits.ReadConcurrency < 1 || c.Exits.MaxAttempts < 1 ||
		c.Exits.SellSlippagePct < 0 || c.Exits.SellSlippagePct > 100 {
		errs = append(errs, errors.New("exits: poll_interval must be at least 10ms, read_concurrency and max_attempts at least 1, sell_slippage_pct 0 to 100"))
	}
	if c.Solana.ComputeUnitLimit == 0 || c.Solana.ComputeUnitLimit > 1_400_000 {
		errs = append(errs, errors.New("solana.compute_unit_limit: must be 1 to 1400000"))
	}
	errs = append(errs, c.validateExplorers()...)
	return errors.Join(errs...)
}

// Path returns a path under the data folder.
func (c *Config) Path(elem ...string) string {
	return filepath.Join(append([]string{c.DataDir}, elem...)...)
}
