package config

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Solana is the `solana:` section: where the chain answers, the signer's
// settings, and what the broadcaster and the explorer links need.
type Solana struct {
	// RPCURL is the JSON-RPC endpoint. Empty means the local chain when
	// devnet.enabled, and Solana not served otherwise.
	RPCURL string `yaml:"rpc_url"`
	// GenesisHash is the genesis hash of the cluster rpc_url must serve
	// (getGenesisHash), which `tradeapi check` and the venue watcher
	// compare (another cluster pauses every Solana venue): a devnet or test
	// validator with the programs deployed would pass every other check.
	// Mainnet-beta's by default; empty checks nothing. The local chain,
	// which names itself, is never compared.
	GenesisHash string `yaml:"genesis_hash"`
	// SolanaSigner holds the keys the Solana signer reads; the signer takes
	// this very struct (workers/solana.Config), so nothing is copied.
	SolanaSigner `yaml:",inline"`
	// ConfirmPoll is how often the broadcaster polls signature statuses.
	ConfirmPoll time.Duration `yaml:"confirm_poll"`
	// ConfirmTimeout is how long a signature without a last valid block
	// height may stay unseen before it is expired; one with it expires
	// once the chain's height passes it, however long that takes.
	ConfirmTimeout time.Duration `yaml:"confirm_timeout"`
	// ExplorerTx is the explorer URL pattern of a transaction, %s the
	// signature; empty means the local chain's transaction view when the
	// local chain serves Solana, and no link otherwise.
	ExplorerTx string `yaml:"explorer_tx"`
	// BundleRelayURL is the bundle relay anti_mev transactions go through
	// (Jito sendBundle); empty means the local chain's, or, without the
	// local chains, anti_mev is refused.
	BundleRelayURL string `yaml:"bundle_relay_url"`
	// Senders are landing senders besides the RPC and the bundle relay
	// (block-engine regions, staked RPCs): every public transaction the
	// RPC takes also goes to each sender's transactions_url, and every
	// anti_mev bundle to each one's bundles_url, with the same signed
	// bytes; tradeapi_sender_sends_total and tradeapi_sender_landed_total
	// count them by name.
	Senders []SolanaSender `yaml:"senders"`
	// VenueProbePayer is a funded system account that pays for the venue
	// checks' simulated trades (simulateTransaction without signature
	// checks: nothing is signed with it and nothing lands); it must hold
	// at least 0.1 SOL. Zero: on the local chain a throwaway key its
	// faucet funds; elsewhere the checks stop at the deploy slots and the
	// account layouts.
	VenueProbePayer solana.PublicKey `yaml:"venue_probe_payer"`
	// MetadataUploadURL is where a deploy's token metadata JSON is posted
	// (answering {"uri": "..."}), the uri the token's metadata points to;
	// empty means the local chain's metadata store, or, without the local
	// chains, deploys are refused.
	MetadataUploadURL string `yaml:"metadata_upload_url"`
}

// SolanaSender is one landing sender of solana.senders: a name for the
// metrics and the logs, and the endpoints it takes transactions
// (sendTransaction) and bundles (sendBundle) on; either may be empty, not
// both.
type SolanaSender struct {
	Name            string `yaml:"name"`
	TransactionsURL string `yaml:"transactions_url"`
	BundlesURL      string `yaml:"bundles_url"`
}

// TransactionsName is what the sender's transaction endpoint is called in
// errors; BundlesName what its bundle endpoint is called in errors and in
// the bundle metrics' relay label. The broadcaster and the preflight both
// name them so.
func (s SolanaSender) TransactionsName() string { return "solana sender " + s.Name }

// BundlesName: see TransactionsName.
func (s SolanaSender) BundlesName() string { return s.Name }

// senderName is what a sender may be called: a metric label value, not
// one the primary RPC or bundle relay already answers to.
var senderName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// checkURL refuses an endpoint that is not an http(s) URL with a host;
// empty is not configured. The URL itself is never repeated: it may carry
// a key.
func checkURL(key, raw string) error {
	if raw == "" {
		return nil
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s: must be an http(s) URL", key)
	}
	return nil
}

// validateSenders checks solana.senders; errors name the entry and key,
// never a URL, which may carry a key of its own.
func validateSenders(list []SolanaSender) error {
	var errs []error
	seen := map[string]bool{}
	for i, s := range list {
		key := fmt.Sprintf("solana.senders[%d]", i)
		switch {
		case !senderName.MatchString(s.Name):
			errs = append(errs, fmt.Errorf("%s.name: %q must be 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit", key, s.Name))
		case s.Name == "rpc" || s.Name == "bundle" || s.Name == "relay":
			errs = append(errs, fmt.Errorf("%s.name: %q is the primary sender's name", key, s.Name))
		case seen[s.Name]:
			errs = append(errs, fmt.Errorf("%s.name: %q is used twice", key, s.Name))
		}
		seen[s.Name] = true
		if s.TransactionsURL == "" && s.BundlesURL == "" {
			errs = append(errs, fmt.Errorf("%s: set transactions_url, bundles_url or both", key))
		}
		for field, raw := range map[string]string{"transactions_url": s.TransactionsURL, "bundles_url": s.BundlesURL} {
			if err := checkURL(key+"."+field, raw); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// SolanaSigner is the Solana signer's configuration: the signer keys of the
// `solana:` section, and the tunables no file sets (yaml:"-"), which keep
// their defaults. A zero field is read as its default by the signer, so a
// test may set only what it cares about.
type SolanaSigner struct {
	// ComputeUnitLimit is every transaction's compute-unit limit; the
	// priority fee is spread over it.
	ComputeUnitLimit uint32 `yaml:"compute_unit_limit"`
	// TipAccounts receive the processor tip, one picked at random per
	// transaction: the tip accounts of the sender the transactions go
	// through. Empty means Jito's published tip accounts (Tips).
	TipAccounts []solana.PublicKey `yaml:"tip_accounts"`
	// RPCTimeout bounds every RPC call (the signer's, the broadcaster's,
	// the exits engine's).
	RPCTimeout time.Duration `yaml:"rpc_timeout"`
	// ResolveTTL bounds how long the venue an address resolved to (the
	// PumpSwap pool of a graduated coin) is reused without reading the
	// curve again. The venue's own state is read for every job.
	ResolveTTL time.Duration `yaml:"resolve_ttl"`
	// AutoFeePercentile is the percentile of getRecentPrioritizationFees
	// a job with auto_tip pays as its compute-unit price, clamped to
	// [AutoFeeMinMicroLamports, AutoFeeMaxMicroLamports] micro-lamports
	// per compute unit, and then to the account's fee caps.
	AutoFeePercentile       float64 `yaml:"auto_fee_percentile"`
	AutoFeeMinMicroLamports uint64  `yaml:"auto_fee_min_micro_lamports"`
	AutoFeeMaxMicroLamports uint64  `yaml:"auto_fee_max_micro_lamports"`
	// AutoTip is the processor tip, in lamports, of a job with auto_tip,
	// at most the account's max_processor_tip.
	AutoTip uint64 `yaml:"auto_tip_lamports"`
	// MinBundleTip is the least tip, in lamports, an anti_mev transaction
	// carries: a bundle relay takes only bundles that tip (Jito: 1000).
	MinBundleTip uint64 `yaml:"min_bundle_tip_lamports"`
	// SOLUSDPool is the PumpSwap pool of SOL against a USD stable (USDC or
	// USD1, either side) whose price converts SOL into USD for the market
	// bounds. Zero: the local chain's when it serves Solana (LocalSolana);
	// otherwise bounds on a SOL market are refused as INTERNAL.
	SOLUSDPool solana.PublicKey `yaml:"sol_usd_pool"`
	// BagsPoolConfig is the Meteora DBC pool config a bags launch uses
	// when the request names none, and the first a swap of a mint looks
	// for its DBC pool under. Zero: the local chain's when it serves
	// Solana (LocalSolana); otherwise such a launch is refused.
	BagsPoolConfig solana.PublicKey `yaml:"bags_pool_config"`
	// Programs are the ids of the programs the service calls, and
	// Accounts the venues' configuration accounts it reads; both default
	// to their mainnet addresses, which the local chain uses too. A file
	// states them for the check to verify and may not change them (see
	// Validate): the signers are built for these.
	Programs SolanaPrograms `yaml:"programs"`
	Accounts SolanaAccounts `yaml:"accounts"`
	// QuoteMints are the mints of the quote assets besides SOL, by symbol
	// (USDC, USD1). A file that sets the key replaces the whole map.
	QuoteMints map[string]solana.PublicKey `yaml:"quote_mints"`

	// StateTTL bounds how long Global, FeeConfig, the AMM's GlobalConfig
	// and its FeeConfig are reused between jobs; they change only by an
	// admin instruction.
	StateTTL time.Duration `yaml:"-"`
	// Commitment of every read.
	Commitment rpc.CommitmentType `yaml:"-"`
	// BlockhashRefresh is how often the signer reads the latest blockhash
	// (a slot's length: the chain makes a new one per slot).
	BlockhashRefresh time.Duration `yaml:"-"`
	// BlockhashMaxAge bounds the age of the blockhash an order is signed
	// on, counted from when it was asked for: an older cached one is read
	// again during the order. It should be a few BlockhashRefresh, so that
	// a late or failed refresh does not cost an order the round trip.
	BlockhashMaxAge time.Duration `yaml:"-"`
}

// SolanaPrograms are the ids of the programs the service calls
// (solana.programs). The upgradeable ones are deployed through the BPF
// upgradeable loader; SPL Token and the Associated Token Account program
// through the older, final BPF loader.
type SolanaPrograms struct {
	// PumpFun is the pump.fun bonding-curve program, PumpFees the pump
	// fees program that owns both FeeConfigs, and PumpMayhem the mayhem
	// program create_v2 names.
	PumpFun    solana.PublicKey `yaml:"pump_fun"`
	PumpFees   solana.PublicKey `yaml:"pump_fees"`
	PumpMayhem solana.PublicKey `yaml:"pump_mayhem"`
	// PumpSwap is the PumpSwap AMM.
	PumpSwap solana.PublicKey `yaml:"pumpswap"`
	// LaunchLab is Raydium LaunchLab (letsbonk launches).
	LaunchLab solana.PublicKey `yaml:"launchlab"`
	// DBC is Meteora's Dynamic Bonding Curve (bags launches).
	DBC solana.PublicKey `yaml:"dbc"`
	// Metaplex is the token-metadata program.
	Metaplex solana.PublicKey `yaml:"metaplex"`
	// Token, Token2022 and AssociatedToken are the SPL token programs.
	Token           solana.PublicKey `yaml:"token"`
	Token2022       solana.PublicKey `yaml:"token_2022"`
	AssociatedToken solana.PublicKey `yaml:"associated_token"`
}

// SolanaAccounts are the venues' configuration accounts the service reads
// (solana.accounts).
type SolanaAccounts struct {
	// PumpGlobal is pump.fun's Global, PumpFeeConfig the fee program's
	// FeeConfig of pump.fun.
	PumpGlobal    solana.PublicKey `yaml:"pump_global"`
	PumpFeeConfig solana.PublicKey `yaml:"pump_fee_config"`
	// PumpSwapGlobalConfig is the AMM's GlobalConfig, PumpSwapFeeConfig
	// the fee program's FeeConfig of the AMM.
	PumpSwapGlobalConfig solana.PublicKey `yaml:"pumpswap_global_config"`
	PumpSwapFeeConfig    solana.PublicKey `yaml:"pumpswap_fee_config"`
	// LaunchLabGlobalConfig is the GlobalConfig of SOL-quoted
	// constant-product curves (index 0), LetsBonkPlatformConfig
	// letsbonk.fun's PlatformConfig.
	LaunchLabGlobalConfig  solana.PublicKey `yaml:"launchlab_global_config"`
	LetsBonkPlatformConfig solana.PublicKey `yaml:"letsbonk_platform_config"`
}

// DefaultSolanaPrograms returns the programs' mainnet ids, from the venue
// packages.
func DefaultSolanaPrograms() SolanaPrograms {
	return SolanaPrograms{
		PumpFun: pumpfun.ProgramID, PumpFees: pumpfun.FeeProgramID, PumpMayhem: pumpfun.MayhemProgramID,
		PumpSwap: pumpswap.ProgramID, LaunchLab: launchlab.ProgramID, DBC: dbc.ProgramID,
		Metaplex: solana.TokenMetadataProgramID, Token: solana.TokenProgramID, Token2022: solana.Token2022ProgramID,
		AssociatedToken: solana.SPLAssociatedTokenAccountProgramID,
	}
}

// DefaultSolanaAccounts returns the configuration accounts' mainnet
// addresses, from the venue packages.
func DefaultSolanaAccounts() SolanaAccounts {
	return SolanaAccounts{
		PumpGlobal: pumpfun.GlobalPDA, PumpFeeConfig: pumpfun.FeeConfigPDA,
		PumpSwapGlobalConfig: pumpswap.GlobalConfigPDA, PumpSwapFeeConfig: pumpswap.FeeConfigPDA,
		LaunchLabGlobalConfig: launchlab.SOLConstantGlobalConfig, LetsBonkPlatformConfig: launchlab.LetsBonkPlatformConfig,
	}
}

// Keys lists the programs by their keys under solana.programs, in the
// file's order.
func (p *SolanaPrograms) Keys() []KeyedAddress {
	return []KeyedAddress{
		{"pump_fun", p.PumpFun}, {"pump_fees", p.PumpFees}, {"pump_mayhem", p.PumpMayhem}, {"pumpswap", p.PumpSwap},
		{"launchlab", p.LaunchLab}, {"dbc", p.DBC}, {"metaplex", p.Metaplex}, {"token", p.Token},
		{"token_2022", p.Token2022}, {"associated_token", p.AssociatedToken},
	}
}

// Keys lists the accounts by their keys under solana.accounts, in the
// file's order.
func (a *SolanaAccounts) Keys() []KeyedAddress {
	return []KeyedAddress{
		{"pump_global", a.PumpGlobal}, {"pump_fee_config", a.PumpFeeConfig},
		{"pumpswap_global_config", a.PumpSwapGlobalConfig}, {"pumpswap_fee_config", a.PumpSwapFeeConfig},
		{"launchlab_global_config", a.LaunchLabGlobalConfig}, {"letsbonk_platform_config", a.LetsBonkPlatformConfig},
	}
}

// KeyedAddress is an address with the key that configures it.
type KeyedAddress struct {
	Key  string
	Addr solana.PublicKey
}

// MainnetGenesisHash is the genesis hash of Solana's mainnet-beta.
const MainnetGenesisHash = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"

// DefaultSolana returns the defaults of the `solana:` section.
func DefaultSolana() Solana {
	return Solana{
		GenesisHash:    MainnetGenesisHash,
		SolanaSigner:   DefaultSolanaSigner(),
		ConfirmPoll:    300 * time.Millisecond,
		ConfirmTimeout: 90 * time.Second,
	}
}

// DefaultSolanaSigner returns the signer's defaults. TipAccounts stays
// empty, which means Jito's (Tips).
func DefaultSolanaSigner() SolanaSigner {
	return SolanaSigner{
		ComputeUnitLimit:        200_000,
		RPCTimeout:              5 * time.Second,
		ResolveTTL:              10 * time.Second,
		AutoFeePercentile:       75,
		AutoFeeMinMicroLamports: 500_000,
		AutoFeeMaxMicroLamports: 50_000_000,
		AutoTip:                 100_000,
		MinBundleTip:            1_000,
		StateTTL:                10 * time.Second,
		Commitment:              rpc.CommitmentConfirmed,
		BlockhashRefresh:        400 * time.Millisecond,
		BlockhashMaxAge:         2 * time.Second,
		QuoteMints:              map[string]solana.PublicKey{"USDC": pumpswap.USDCMint, "USD1": pumpswap.USD1Mint},
		Programs:                DefaultSolanaPrograms(),
		Accounts:                DefaultSolanaAccounts(),
	}
}

// Tips returns the tip accounts: the configured ones, or Jito's.
func (s *SolanaSigner) Tips() []solana.PublicKey {
	if len(s.TipAccounts) == 0 {
		return chains.JitoTipAccounts
	}
	return s.TipAccounts
}

// Validate checks the section; errors name the keys.
func (s *Solana) Validate() error {
	var errs []error
	if err := s.SolanaSigner.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := pollBounds.check("solana.confirm_poll", s.ConfirmPoll); err != nil {
		errs = append(errs, err)
	}
	if err := confirmTimeoutBounds.check("solana.confirm_timeout", s.ConfirmTimeout); err != nil {
		errs = append(errs, err)
	}
	if s.GenesisHash != "" {
		if h, err := solana.HashFromBase58(s.GenesisHash); err != nil || h.IsZero() {
			errs = append(errs, fmt.Errorf("solana.genesis_hash: %s is not a base58 hash of 32 bytes", shownAddress(s.GenesisHash, 44)))
		}
	}
	if !validExplorerPattern(s.ExplorerTx) {
		errs = append(errs, fmt.Errorf("solana.explorer_tx: %q must be an http(s) URL with one %%s", s.ExplorerTx))
	}
	if err := validateSenders(s.Senders); err != nil {
		errs = append(errs, err)
	}
	for _, u := range []struct{ key, v string }{{"solana.rpc_url", s.RPCURL}, {"solana.bundle_relay_url", s.BundleRelayURL},
		{"solana.metadata_upload_url", s.MetadataUploadURL}} {
		if err := checkURL(u.key, u.v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Validate checks the signer's keys; errors name them.
func (s *SolanaSigner) Validate() error {
	var errs []error
	if s.ComputeUnitLimit == 0 || s.ComputeUnitLimit > 1_400_000 {
		errs = append(errs, errors.New("solana.compute_unit_limit: must be 1 to 1400000"))
	}
	if !(s.AutoFeePercentile > 0 && s.AutoFeePercentile <= 100) { // NaN too
		errs = append(errs, fmt.Errorf("solana.auto_fee_percentile: %v is not above 0 and at most 100", s.AutoFeePercentile))
	}
	if s.AutoFeeMinMicroLamports > s.AutoFeeMaxMicroLamports {
		errs = append(errs, fmt.Errorf("solana.auto_fee_min_micro_lamports: %d is above auto_fee_max_micro_lamports (%d)",
			s.AutoFeeMinMicroLamports, s.AutoFeeMaxMicroLamports))
	}
	if err := rpcTimeoutBounds.check("solana.rpc_timeout", s.RPCTimeout); err != nil {
		errs = append(errs, err)
	}
	if err := resolveTTLBounds.check("solana.resolve_ttl", s.ResolveTTL); err != nil {
		errs = append(errs, err)
	}
	// The signers build their instructions, and derive every account of
	// them, for the programs and configuration accounts the venue packages
	// name. The file states them so that `tradeapi check` shows and
	// verifies what the service relies on; a file naming another one
	// would have the check verify an address the service never uses, so
	// it is refused rather than believed.
	defProgs, defAccts := DefaultSolanaPrograms(), DefaultSolanaAccounts()
	for _, g := range []struct {
		section, what, use string
		set, built         []KeyedAddress
	}{
		{"programs", "program", "calls", s.Programs.Keys(), defProgs.Keys()},
		{"accounts", "account", "reads", s.Accounts.Keys(), defAccts.Keys()},
	} {
		for i, k := range g.set {
			built := g.built[i].Addr
			switch {
			case k.Addr.IsZero():
				errs = append(errs, fmt.Errorf("solana.%s.%s: empty or the all-zero key; the service %s this %s", g.section, k.Key, g.use, g.what))
			case k.Addr != built:
				errs = append(errs, fmt.Errorf("solana.%s.%s: %s is not the %s the service is built for (%s); leave the key at %s or remove it",
					g.section, k.Key, k.Addr, g.what, built, built))
			}
		}
	}
	for i, tip := range s.TipAccounts {
		if tip.IsZero() {
			// The System Program's id: every tipped transaction would fail.
			errs = append(errs, fmt.Errorf("solana.tip_accounts[%d]: empty or the all-zero key, which takes no tip", i))
		}
	}
	sol, _ := chains.Get(wire.ChainSolana)
	syms := make([]string, 0, len(s.QuoteMints))
	for sym := range s.QuoteMints {
		syms = append(syms, sym)
	}
	sort.Strings(syms) // one order of errors for one file
	for _, sym := range syms {
		if a, ok := sol.Asset(sym); !ok || a.Native || a.Symbol != sym {
			errs = append(errs, fmt.Errorf("solana.quote_mints.%s: not a stable quote asset of solana (%s)", sym, strings.Join(solanaStables(), ", ")))
		} else if s.QuoteMints[sym].IsZero() {
			errs = append(errs, fmt.Errorf("solana.quote_mints.%s: empty or the all-zero key", sym))
		}
	}
	return errors.Join(errs...)
}

// LocalSolana reports whether the local chain serves Solana: no
// solana.rpc_url and devnet.enabled. Only then do the local chain's
// stand-ins (its metadata store, its SOL/USD pool, its bags config) apply;
// a configured chain never falls back to them.
func (c *Config) LocalSolana() bool { return c.Solana.RPCURL == "" && c.Devnet.Enabled }

// SolanaRPC is the Solana JSON-RPC URL: the configured one, or the local
// chain's when it serves Solana; empty when Solana is not served.
func (c *Config) SolanaRPC() string {
	switch {
	case c.Solana.RPCURL != "":
		return c.Solana.RPCURL
	case c.LocalSolana():
		return "http://" + c.Devnet.Addr + "/solana"
	}
	return ""
}

// MetadataUploadURL is where deploys store token metadata: the configured
// endpoint, or the local chain's store when the local chain serves Solana;
// empty otherwise, and deploys are refused.
func (c *Config) MetadataUploadURL() string {
	if c.Solana.MetadataUploadURL != "" {
		return c.Solana.MetadataUploadURL
	}
	if c.LocalSolana() {
		return "http://" + c.Devnet.Addr + "/metadata/"
	}
	return ""
}

// solanaStables lists the stable quote assets of Solana.
func solanaStables() []string {
	sol, _ := chains.Get(wire.ChainSolana)
	var out []string
	for _, a := range sol.Assets {
		if !a.Native {
			out = append(out, a.Symbol)
		}
	}
	return out
}

// decodePublicKey reads a base58 public key from its YAML scalar; an empty
// string (the file's way of saying "not set") is the zero key.
func decodePublicKey(k *solana.PublicKey, b []byte) error {
	var s string
	if err := yamlUnmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		*k = solana.PublicKey{}
		return nil
	}
	v, err := solana.PublicKeyFromBase58(s)
	if err != nil {
		return fmt.Errorf("%s is not a Solana address: %w", shownAddress(s, 44), err)
	}
	*k = v
	return nil
}
