package config

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/wire"
)

var mainnetFile = filepath.Join("..", "..", "configs", "mainnet.yaml")

// mainnetEnv is the environment configs/mainnet.yaml needs, at dummy
// values.
var mainnetEnv = map[string]string{
	"TRADEAPI_SOLANA_RPC_URL": "https://solana.example/v2/key",
	"TRADEAPI_ETH_RPC_URL":    "https://eth.example/v2/key",
	"TRADEAPI_BSC_RPC_URL":    "https://bsc.example/v2/key",
	"TRADEAPI_BASE_RPC_URL":   "https://base.example/v2/key",
	"TRADEAPI_RBH_RPC_URL":    "https://rbh.example/v2/key",
	"TRADEAPI_ARC_RPC_URL":    "https://arc.example/v2/key",
}

// mainnetEVM are the EVM chains mainnet.yaml serves: every one.
var mainnetEVM = []string{"eth", "bsc", "base", "rbh", "arc"}

func loadMainnet(t *testing.T, env map[string]string) (Config, error) {
	t.Helper()
	return LoadEnv(mainnetFile, func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	})
}

// TestMainnetConfig loads configs/mainnet.yaml with its variables set: it
// validates, runs none of the local chains, serves every chain from the
// variables, and sets every address the service needs to a valid one;
// the keys documented as unavailable on a chain are empty, and no other.
func TestMainnetConfig(t *testing.T) {
	cfg, err := loadMainnet(t, mainnetEnv)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if cfg.Devnet.Enabled || cfg.LocalSolana() {
		t.Fatal("the local chains are on")
	}
	if got, want := cfg.ServedChains(), append([]string{wire.ChainSolana}, mainnetEVM...); !slices.Equal(got, want) {
		t.Fatalf("served %v, want %v", got, want)
	}

	s := cfg.Solana
	if s.RPCURL != mainnetEnv["TRADEAPI_SOLANA_RPC_URL"] || s.BundleRelayURL != "https://mainnet.block-engine.jito.wtf/api/v1/bundles" ||
		s.MetadataUploadURL != "" {
		t.Fatalf("solana endpoints %q %q %q", s.RPCURL, s.BundleRelayURL, s.MetadataUploadURL)
	}
	// The mainnet addresses are the venue packages' built-in ones.
	if !reflect.DeepEqual(s.Programs, DefaultSolanaPrograms()) || !reflect.DeepEqual(s.Accounts, DefaultSolanaAccounts()) {
		t.Fatalf("programs %+v\naccounts %+v", s.Programs, s.Accounts)
	}
	for _, k := range append(s.Programs.Keys(), s.Accounts.Keys()...) {
		if k.Addr.IsZero() {
			t.Errorf("%s is empty", k.Key)
		}
	}
	wantMints := map[string]solana.PublicKey{
		"USDC": solana.MustPublicKeyFromBase58("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
		"USD1": solana.MustPublicKeyFromBase58("USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB"),
	}
	if !reflect.DeepEqual(s.QuoteMints, wantMints) {
		t.Errorf("quote mints %v", s.QuoteMints)
	}
	if !reflect.DeepEqual(s.TipAccounts, chains.JitoTipAccounts) {
		t.Errorf("tip accounts %v, want Jito's", s.TipAccounts)
	}
	if s.SOLUSDPool.String() != "Gf7sXMoP8iRw4iiXmJ1nq4vxcRycbGXy5RL8a8LnTd3v" {
		t.Errorf("sol_usd_pool %s", s.SOLUSDPool)
	}
	// Documented: Bags hands out a config per launch.
	if !s.BagsPoolConfig.IsZero() {
		t.Errorf("bags_pool_config %s, want empty", s.BagsPoolConfig)
	}

	ids := map[string]uint64{"eth": 1, "bsc": 56, "base": 8453, "rbh": 4663, "arc": 5042}
	// The genesis hashes of eth, bsc and base are pinned; rbh's and arc's
	// are documented as not pinned, left for the operator to set.
	genesis := map[string]string{
		"eth":  "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3",
		"bsc":  "0x0d21840abff46b96c84b2ac9e10e4f5cdaeb5693cb665db62a2f3b02d2d57b5b",
		"base": "0xf712aa9241cc24369b143cf6dce85f0902a9731e70d66818a3a5845b296c73dd",
		"rbh":  "", "arc": "",
	}
	// Documented as unavailable: arc has no wrapped native token (its
	// native coin trades through its own ERC-20, native_token) and no
	// stable besides its native USDC; no chain takes a bundle tip yet.
	empty := map[string]bool{"arc.wrapped_native": true, "arc.usd_stable": true}
	if got := cfg.EVM.Chains["arc"].NativeToken; got != "0x3600000000000000000000000000000000000000" {
		t.Errorf("arc native_token %q, want Arc's USDC interface", got)
	}
	for _, name := range mainnetEVM {
		c, ok := cfg.EVM.Chains[name]
		if !ok {
			t.Errorf("evm.chains.%s missing", name)
			continue
		}
		if c.RPCURL != mainnetEnv["TRADEAPI_"+strings.ToUpper(name)+"_RPC_URL"] || c.RelayURL != "" || c.TipAddress != "" {
			t.Errorf("%s endpoints %q %q tip %q", name, c.RPCURL, c.RelayURL, c.TipAddress)
		}
		if c.ChainID != ids[name] {
			t.Errorf("%s chain_id %d, want %d", name, c.ChainID, ids[name])
		}
		if c.GenesisHash != genesis[name] {
			t.Errorf("%s genesis_hash %q, want %q", name, c.GenesisHash, genesis[name])
		}
		// A final order opens its position and tells its webhook: on every
		// chain but arc, whose blocks are final when made, after blocks a
		// reorg would have to undo.
		deep := uint64(2)
		if name == "arc" {
			deep = 0
		}
		if c.Confirmations != deep {
			t.Errorf("%s confirmations %d, want %d", name, c.Confirmations, deep)
		}
		for key, v := range map[string]string{"router": c.Router, "factory": c.Factory, "v3_factory": c.V3Factory,
			"swap_router02": c.SwapRouter02, "quoter_v2": c.QuoterV2, "wrapped_native": c.WrappedNative,
			"usd_stable": c.USDStable, "explorer_tx": c.ExplorerTx} {
			switch {
			case empty[name+"."+key]:
				if v != "" {
					t.Errorf("%s.%s %q: documented as unavailable", name, key, v)
				}
			case v == "":
				t.Errorf("%s.%s is empty", name, key)
			case key == "usd_stable" || key == "explorer_tx":
			case !common.IsHexAddress(v) || common.HexToAddress(v) == (common.Address{}):
				t.Errorf("%s.%s %q is not an address", name, key, v)
			}
		}
		// Every stable quote asset of the chain has its token.
		ch, _ := chains.Get(name)
		var want, got []string
		for _, a := range ch.Assets {
			if !a.Native {
				want = append(want, a.Symbol)
			}
		}
		for sym, a := range c.Quotes {
			got = append(got, sym)
			if !common.IsHexAddress(a) || common.HexToAddress(a) == (common.Address{}) {
				t.Errorf("%s.quotes.%s %q is not an address", name, sym, a)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s quotes %v, want %v", name, got, want)
		}
	}
}

// TestMainnetNeedsItsVariables: without the operator's variables the file
// does not load, and the error names every key and variable.
func TestMainnetNeedsItsVariables(t *testing.T) {
	_, err := loadMainnet(t, nil)
	if err == nil {
		t.Fatal("loaded without the RPC URLs")
	}
	for k := range mainnetEnv {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("err does not name %s: %v", k, err)
		}
	}
	for _, key := range []string{"solana.rpc_url", "evm.chains.eth.rpc_url", "evm.chains.rbh.rpc_url"} {
		if !strings.Contains(err.Error(), key+": environment variable") {
			t.Errorf("err does not name %s: %v", key, err)
		}
	}
}

// TestKeyAtAnAddressNotPrinted: a private key given where an address goes
// (the probe payer's key instead of its address, from the environment) is
// refused without being printed.
func TestKeyAtAnAddressNotPrinted(t *testing.T) {
	secret := solana.NewWallet().PrivateKey.String()
	env := maps.Clone(mainnetEnv)
	env["TRADEAPI_SOLANA_VENUE_PROBE_PAYER"] = secret
	_, err := LoadEnv(mainnetFile, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err == nil {
		t.Fatal("a private key was taken for the probe payer's address")
	}
	if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "solana.venue_probe_payer") {
		t.Fatalf("error %q: want the key named and the value not shown", err)
	}
}

// TestLoadPartsOfMainnet: the admin CLI's load of configs/mainnet.yaml
// takes its listeners, TLS and data folder without the RPC variables,
// which carry keys and need not be in an operator's shell (the whole load
// refused the file, naming the first unset one); a part it takes is still
// checked.
func TestLoadPartsOfMainnet(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	if _, err := LoadEnv(mainnetFile, none); err == nil {
		t.Fatal("the whole file loaded without its RPC variables")
	}
	whole, err := loadMainnet(t, mainnetEnv)
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadParts(mainnetFile, none, "listen", "tls", "data_dir")
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != whole.Listen || c.TLS != whole.TLS || c.DataDir != whole.DataDir {
		t.Fatalf("parts %+v %+v %q, want the file's %+v %+v %q", c.Listen, c.TLS, c.DataDir, whole.Listen, whole.TLS, whole.DataDir)
	}
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte("listen:\n  admin: ${ADMIN}\n  nope: 1\nsolana:\n  rpc_url: ${UNSET}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadParts(p, func(k string) (string, bool) { return "127.0.0.1:9", k == "ADMIN" }, "listen"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("an unknown key of a part taken: %v", err)
	}
}

// TestMainnetSendersExample: the file's commented senders example, put in
// place of its empty list as the comment says, loads: the three senders,
// the staked RPC's URL from its variable.
func TestMainnetSendersExample(t *testing.T) {
	b, err := os.ReadFile(mainnetFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start, end := strings.Index(text, "  # senders:\n"), strings.Index(text, "  senders: []\n")
	if start < 0 || end < start {
		t.Fatal("no commented senders example right above senders: []")
	}
	var example []string
	for _, l := range strings.SplitAfter(text[start:end], "\n") {
		example = append(example, strings.Replace(l, "  # ", "  ", 1))
	}
	file := filepath.Join(t.TempDir(), "mainnet.yaml")
	if err := os.WriteFile(file, []byte(text[:start]+strings.Join(example, "")+text[end+len("  senders: []\n"):]), 0o600); err != nil {
		t.Fatal(err)
	}
	env := maps.Clone(mainnetEnv)
	env["TRADEAPI_SOLANA_STAKED_RPC_URL"] = "https://staked.example/key"
	cfg, err := LoadEnv(file, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	s := cfg.Solana.Senders
	if len(s) != 3 || s[0].Name != "jito-ny" || s[1].Name != "jito-frankfurt" || s[2].TransactionsURL != "https://staked.example/key" {
		t.Fatalf("senders %+v", s)
	}
}

// TestMainnetWithoutRPCURLs: read as the ingress role reads it, the file
// loads without the providers' URLs, every chain served on its public
// network, and no URL it holds reaches anywhere.
func TestMainnetWithoutRPCURLs(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	c, err := LoadEnv(mainnetFile, WithoutRPCURLs(none))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := c.ServedChains(), append([]string{"solana"}, mainnetEVM...); !slices.Equal(got, want) {
		t.Fatalf("served %v, want %v", got, want)
	}
	if c.Solana.RPCURL != RPCNotGiven || c.EVM.Chains["eth"].RPCURL != RPCNotGiven || c.Network("solana") != "public" || c.Network("evm") != "public" {
		t.Fatalf("solana %q, eth %q, networks %s %s", c.Solana.RPCURL, c.EVM.Chains["eth"].RPCURL, c.Network("solana"), c.Network("evm"))
	}
	// A variable given is read as given.
	c, err = LoadEnv(mainnetFile, WithoutRPCURLs(func(k string) (string, bool) { v, ok := mainnetEnv[k]; return v, ok }))
	if err != nil || c.Solana.RPCURL != mainnetEnv["TRADEAPI_SOLANA_RPC_URL"] {
		t.Fatalf("%q %v", c.Solana.RPCURL, err)
	}
}

// TestWithoutRPCURLsKeepsDefaults: a URL reference with a default takes
// it in the ingress's load as in the workers', so that both serve the same
// chains on the same networks (the placeholder took its place, and the
// ingress served a chain no worker did).
func TestWithoutRPCURLsKeepsDefaults(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	for _, file := range []string{
		"devnet:\n  enabled: true\nsolana:\n  rpc_url: ${TRADEAPI_SOLANA_RPC_URL:-}\n",
		"devnet:\n  enabled: false\nsolana:\n  rpc_url: ${TRADEAPI_SOLANA_RPC_URL:-}\nevm:\n  chains:\n    eth:\n      rpc_url: ${TRADEAPI_ETH_RPC_URL}\n",
	} {
		p := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(p, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
		worker, werr := LoadEnv(p, func(k string) (string, bool) { v, ok := mainnetEnv[k]; return v, ok && k != "TRADEAPI_SOLANA_RPC_URL" })
		ingress, ierr := LoadEnv(p, WithoutRPCURLs(none))
		if werr != nil || ierr != nil {
			t.Fatal(werr, ierr)
		}
		if !slices.Equal(worker.ServedChains(), ingress.ServedChains()) || worker.Network("solana") != ingress.Network("solana") {
			t.Errorf("%s: worker serves %v (solana %s), ingress %v (solana %s)", file, worker.ServedChains(), worker.Network("solana"),
				ingress.ServedChains(), ingress.Network("solana"))
		}
	}
}
