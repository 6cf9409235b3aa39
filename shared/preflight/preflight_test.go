package preflight

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/dbc"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/venues"
)

// secret stands for a provider's key in an endpoint URL: no line may
// carry it.
const secret = "k3y0fTheProvider"

// local is the local Solana chain and one local EVM chain, served as `up`
// serves them (/solana, /solana/bundles, /metadata/, /evm/<chain>).
type local struct {
	addr string
	sol  *soldevnet.Chain
	evm  *evmdevnet.Chain
}

// startLocal starts the chains; evmName "" starts no EVM chain.
func startLocal(t *testing.T, evmName string) *local {
	t.Helper()
	chain, err := soldevnet.Open(soldevnet.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	mux := http.NewServeMux()
	mux.Handle("/solana", chain.Handler())
	mux.Handle("/solana/bundles", chain.BundleHandler())
	l := &local{sol: chain}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	l.addr = strings.TrimPrefix(srv.URL, "http://")
	meta, err := metadata.NewLocal(t.TempDir(), srv.URL+"/metadata", nil)
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/metadata/", http.StripPrefix("/metadata", meta.Handler()))
	if evmName != "" {
		c, err := evmdevnet.NewChain(evmdevnet.ChainConfig{Name: evmName})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		mux.Handle("/evm/"+evmName, c.Handler())
		mux.Handle("/evm/"+evmName+"/relay", c.RelayHandler())
		l.evm = c
	}
	return l
}

// localConfig is the configuration of `up` against the local chains at
// addr.
func localConfig(addr string) config.Config {
	cfg := config.Default()
	cfg.Devnet.Addr = addr
	return cfg
}

// closedURL is an http URL where nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/" + secret
}

var opts = Options{Timeout: 5 * time.Second}

func runSolana(s Solana) []Line { return newSolana(s, opts).run(context.Background()) }

// key identifies a line: its item and address.
func key(l Line) string { return l.Item + " " + l.Addr }

// changed returns the lines of got that differ from base (in address,
// status or detail), by key; both runs must list the same items in the
// same order.
func changed(t *testing.T, base, got []Line) map[string]Line {
	t.Helper()
	if len(base) != len(got) {
		t.Fatalf("%d lines, the baseline has %d:\n%s", len(got), len(base), text(got))
	}
	out := map[string]Line{}
	for i := range got {
		if got[i].Item != base[i].Item {
			t.Fatalf("line %d is %q, the baseline's %q", i, key(got[i]), key(base[i]))
		}
		if got[i] != base[i] && atSlot(got[i]) != atSlot(base[i]) {
			out[key(got[i])] = got[i]
		}
	}
	return out
}

// slotNumber is the slot an endpoint's line names.
var slotNumber = regexp.MustCompile(`^answers at slot \d+`)

// atSlot is l without the slot number an rpc line names: the local chain's
// slot advances between two runs (on a loaded machine, more than once),
// which changes nothing of what they found.
func atSlot(l Line) Line {
	if l.Item == "rpc" {
		l.Detail = slotNumber.ReplaceAllString(l.Detail, "answers at slot N")
	}
	return l
}

func text(ls []Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

// TestSolanaItems: against the local chain every item the service relies
// on is listed once, in order, with what was found; the venue programs,
// which the local chain deploys through the upgradeable loader as mainnet
// does, pass with their deploy slot.
func TestSolanaItems(t *testing.T) {
	l := startLocal(t, "")
	s := SolanaFromConfig(localConfig(l.addr))
	got := runSolana(s)
	var items []string
	for _, ln := range got {
		items = append(items, ln.Item)
	}
	want := []string{"rpc",
		"program pump.fun", "program pump fees", "program pump mayhem", "program PumpSwap", "program LaunchLab",
		"program Meteora DBC", "program Metaplex", "program Token-2022", "program SPL Token", "program Associated Token",
		"account pump Global", "account pump FeeConfig", "account PumpSwap GlobalConfig", "account PumpSwap FeeConfig",
		"account LaunchLab GlobalConfig", "account letsbonk PlatformConfig", "account bags PoolConfig"}
	for range s.Tips {
		want = append(want, "tip account")
	}
	want = append(want, "mint SOL (wrapped)", "mint USDC", "mint USD1", "pool SOL/USD", "search DBC pools by mint",
		"getRecentPrioritizationFees", "venue probe payer",
		"venue pump_fun", "venue pumpswap", "venue launchlab", "venue dbc", "relay", "metadata upload")
	if !slices.Equal(items, want) {
		t.Fatalf("items\n%q\nwant\n%q", items, want)
	}
	byItem := map[string]Line{}
	for _, ln := range got {
		byItem[ln.Item+" "+ln.Addr] = ln
	}
	slot := l.sol.Slot()
	for _, tt := range []struct {
		item, addr, detail string
	}{
		{"program pump.fun", pumpfun.ProgramID.String(), "executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot "},
		{"program PumpSwap", "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", "executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot "},
		{"program LaunchLab", "LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj", "executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot "},
		{"program Meteora DBC", dbc.ProgramID.String(), "executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot "},
		{"account pump Global", "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf", "owner 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, discriminator a7e8e8b1c86c727f (Global), 1087 bytes"},
		{"account PumpSwap GlobalConfig", "ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw", "owner pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA, discriminator 95089ccaa0fcb0d9 (GlobalConfig), 949 bytes"},
		{"account bags PoolConfig", dbc.LocalBagsPoolConfig.String(), "owner dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN, discriminator 1a6c0e7b74e6812b (PoolConfig), 1048 bytes"},
		{"mint USDC", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "owner TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, 6 decimals"},
		{"mint USD1", "USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB", "owner TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, 6 decimals"},
		{"mint SOL (wrapped)", sol.SolMint.String(), "owner TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, 9 decimals"},
		{"pool SOL/USD", soldevnet.StableSOLPool.String(), "owner pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA, discriminator f19a6d0411b16dbc (Pool), 300 bytes, SOL against USDC"},
		{"relay", "", "answers getTipAccounts: 8 tip accounts, the 8 the signer pays among them"},
		{"metadata upload", "", "answers HTTP 400 Bad Request to a POST of a malformed document: an upload endpoint refusing it"},
		{"venue probe payer", "", "the local chain's faucet funds a payer"},
	} {
		ln, ok := byItem[tt.item+" "+tt.addr]
		if !ok {
			t.Errorf("no line %s %s", tt.item, tt.addr)
			continue
		}
		if ln.Status != Pass || !strings.HasPrefix(ln.Detail, tt.detail) {
			t.Errorf("%s\nwant PASS %s", ln, tt.detail)
		}
		if d, ok := strings.CutPrefix(ln.Detail, "executable, owner BPFLoaderUpgradeab1e11111111111111111111111, deployed at slot "); ok {
			var at uint64
			if _, err := fmt.Sscan(d, &at); err != nil || at > slot {
				t.Errorf("%s: deploy slot %q, the chain is at %d", ln, d, slot)
			}
		}
	}
	for _, ln := range got {
		if ln.Item == "tip account" && (ln.Status != Pass || !strings.HasPrefix(ln.Detail, "exists, owner ")) {
			t.Errorf("%s: want PASS exists", ln)
		}
	}

	// A configured payer of the venue checks must hold SOL, as much as the
	// checks need to run.
	funded, empty, poor := sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey()
	l.sol.Airdrop(funded, 2_500_000_000)
	l.sol.Airdrop(poor, 50_000_000)
	for _, tt := range []struct {
		payer  sol.PublicKey
		status Status
		detail string
	}{
		{funded, Pass, "a system account holding 2.5 SOL"},
		{empty, Fail, "holds no SOL"},
		{poor, Fail, "holds 0.05 SOL, under the 0.1 SOL the venue checks need to run"},
	} {
		s.ProbePayer = tt.payer
		for _, ln := range runSolana(s) {
			if ln.Item == "venue probe payer" && (ln.Status != tt.status || ln.Addr != tt.payer.String() || !strings.HasPrefix(ln.Detail, tt.detail)) {
				t.Errorf("%s: want %s %s", ln, tt.status, tt.detail)
			}
		}
	}
}

// TestSolanaFailures: each kind of line fails when the chain or an
// endpoint is not what the service relies on, naming what it found and
// what it wants, and nothing else changes.
func TestSolanaFailures(t *testing.T) {
	upgradeable := "BPFLoaderUpgradeab1e11111111111111111111111"
	tests := []struct {
		name string
		// change alters the chain, or the check's target, before the run.
		change func(t *testing.T, l *local, s *Solana)
		// want maps each line that must change (item and address) to the
		// start of its FAIL detail, or of its detail after "PASS " for a
		// line that changes and passes; every other line must be as
		// before. A venue fails as its pause would say.
		want map[string]string
	}{
		{"program not executable", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, pumpfun.ProgramID)
			a.Executable = false
			l.sol.SetAccount(pumpfun.ProgramID, a)
		}, map[string]string{"program pump.fun " + pumpfun.ProgramID.String(): "not executable (owner " + upgradeable + ")",
			"venue pump_fun ": "pump_fun program " + pumpfun.ProgramID.String() + ": not deployed"}},
		{"program owned by another loader", func(t *testing.T, l *local, _ *Solana) {
			id := sol.MustPublicKeyFromBase58("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA")
			a := account0(t, l, id)
			a.Owner = sol.BPFLoaderProgramID
			l.sol.SetAccount(id, a)
		}, map[string]string{"program PumpSwap pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA": "executable, but owner BPFLoader2111111111111111111111111111111111, want " + upgradeable,
			// The watcher takes a program of another loader for a final,
			// deployed one (its fingerprint: the loader and a hash of the
			// account), and the local chain still runs its trades.
			"venue pumpswap ": "PASS loader BPFLoader2111111111111111111111111111111111 "}},
		{"program-data gone", func(t *testing.T, l *local, _ *Solana) {
			l.sol.SetAccount(ProgramDataAddress(dbc.ProgramID), soldevnet.Account{})
		}, map[string]string{"program Meteora DBC " + dbc.ProgramID.String(): "executable, owner " + upgradeable + ", but its program-data " + ProgramDataAddress(dbc.ProgramID).String() + " does not exist",
			"venue dbc ": "dbc program " + dbc.ProgramID.String() + ": program-data missing"}},
		{"account owner", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, pumpfun.FeeConfigPDA)
			a.Owner = pumpfun.ProgramID
			l.sol.SetAccount(pumpfun.FeeConfigPDA, a)
		}, map[string]string{"account pump FeeConfig " + pumpfun.FeeConfigPDA.String(): "owner 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, want pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ",
			"venue pump_fun ": "pump_fun (deployed at slot 0): FeeConfig " + pumpfun.FeeConfigPDA.String() + " is owned by 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, not pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ"}},
		{"account discriminator", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, pumpfun.GlobalPDA)
			a.Data[0] ^= 0xff
			l.sol.SetAccount(pumpfun.GlobalPDA, a)
		}, map[string]string{"account pump Global " + pumpfun.GlobalPDA.String(): "owner 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, discriminator 58e8e8b1c86c727f, want a7e8e8b1c86c727f (Global)",
			"venue pump_fun ": "pump_fun (deployed at slot 0): Global " + pumpfun.GlobalPDA.String() + " changed its discriminator to 58e8e8b1c86c727f (the service reads a7e8e8b1c86c727f)"}},
		{"account shorter than the service reads", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, pumpfun.GlobalPDA)
			a.Data = a.Data[:1044]
			l.sol.SetAccount(pumpfun.GlobalPDA, a)
		}, map[string]string{"account pump Global " + pumpfun.GlobalPDA.String(): "owner 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P, discriminator a7e8e8b1c86c727f (Global), 1044 bytes, want 1045 to 1087 bytes",
			"venue pump_fun ": "pump_fun (deployed at slot 0): Global " + pumpfun.GlobalPDA.String() + " shrank to 1044 bytes (the service reads 1045)"}},
		{"account larger than the service knows", func(t *testing.T, l *local, s *Solana) {
			addr := s.Accounts.LaunchLabGlobalConfig
			a := account0(t, l, addr)
			a.Data = append(a.Data, 0)
			l.sol.SetAccount(addr, a)
		}, map[string]string{"account LaunchLab GlobalConfig 6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX": "owner LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj, discriminator 95089ccaa0fcb0d9 (GlobalConfig), 372 bytes, want 371 bytes"}},
		{"mint decimals", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, soldevnet.USDCMint)
			a.Data[mintDecimalsAt] = 9
			l.sol.SetAccount(soldevnet.USDCMint, a)
		}, map[string]string{"mint USDC EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v": "owner TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, 9 decimals, want 6"}},
		{"mint owner", func(t *testing.T, l *local, _ *Solana) {
			a := account0(t, l, soldevnet.USD1Mint)
			a.Owner = sol.Token2022ProgramID
			l.sol.SetAccount(soldevnet.USD1Mint, a)
		}, map[string]string{"mint USD1 USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB": "owner TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb, want TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA (SPL Token)"}},
		// The right decimals are not yet the right mint: USDC and USD1,
		// both of 6, swapped.
		{"quote mints swapped", func(_ *testing.T, _ *local, s *Solana) {
			s.QuoteMints = map[string]sol.PublicKey{"USDC": soldevnet.USD1Mint, "USD1": soldevnet.USDCMint}
		}, map[string]string{
			"mint USDC " + soldevnet.USD1Mint.String(): "not the USDC mint of mainnet-beta, EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v, whose cluster the RPC serves (solana.quote_mints.USDC)",
			"mint USD1 " + soldevnet.USDCMint.String(): "not the USD1 mint of mainnet-beta, USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB",
			// The pool reads its quote by the mints as configured: the
			// mints' own lines fail.
			"pool SOL/USD ": "PASS owner pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA, discriminator f19a6d0411b16dbc (Pool), 300 bytes, SOL against USD1",
		}},
		{"tip account missing", func(t *testing.T, l *local, s *Solana) {
			l.sol.SetAccount(s.Tips[2], soldevnet.Account{})
		}, map[string]string{"tip account Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY": "no such account"}},
		{"pool of another pair", func(t *testing.T, l *local, s *Solana) {
			coin, err := l.sol.CreatePumpSwapCoin(l.sol.Faucet().PublicKey(), "Coin", "CN", sol.SolMint, 10_000_000_000)
			if err != nil {
				t.Fatal(err)
			}
			s.SOLUSDPool = coin.Pool
		}, map[string]string{"pool SOL/USD": "owner pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA, discriminator f19a6d0411b16dbc (Pool), 300 bytes, but it pairs "}},
		{"relay not answering", func(t *testing.T, _ *local, s *Solana) {
			s.Relay.URL = closedURL(t)
		}, map[string]string{"relay ": "does not answer: connection refused"}},
		{"relay that is not a bundle relay", func(t *testing.T, _ *local, s *Solana) {
			s.Relay.URL = s.RPC.URL + "?api-key=" + secret
		}, map[string]string{"relay ": "answers, but not getTipAccounts (code -32601: "}},
		{"relay without the signer's tip account", func(t *testing.T, _ *local, s *Solana) {
			// A relay that names seven of the eight tip accounts.
			var tips []string
			for _, k := range s.Tips[:7] {
				tips = append(tips, `"`+k.String()+`"`)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":[%s]}`, strings.Join(tips, ","))
			}))
			t.Cleanup(srv.Close)
			s.Relay.URL = srv.URL + "/" + secret
		}, map[string]string{"relay ": "answers getTipAccounts, but not with tip account 3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT, which the signer pays"}},
		{"metadata upload failing", func(t *testing.T, _ *local, s *Solana) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "down", http.StatusServiceUnavailable)
			}))
			t.Cleanup(srv.Close)
			s.Metadata.URL = srv.URL + "/" + secret
		}, map[string]string{"metadata upload ": "answers HTTP 503 Service Unavailable to a POST: deploys fail while it does; check solana.metadata_upload_url"}},
		{"metadata upload at a URL where nothing is", func(t *testing.T, l *local, s *Solana) {
			// The local chains' address, but not its store's path: the
			// server answers, nothing there takes uploads.
			s.Metadata.URL = "http://" + l.addr + "/meta/" + secret
		}, map[string]string{"metadata upload ": "answers HTTP 404 Not Found to a POST: nothing is there; solana.metadata_upload_url must be the URL deploys post their metadata to"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLocal(t, "")
			s := SolanaFromConfig(localConfig(l.addr))
			base := runSolana(s)
			tt.change(t, l, &s)
			got := runSolana(s)
			diff := changed(t, base, got)
			if len(diff) != len(tt.want) {
				t.Fatalf("%d changed lines %q:\n%s\nwant %d: %v", len(diff), slices.Collect(maps.Keys(diff)), text(values(diff)), len(tt.want), tt.want)
			}
			for k, want := range tt.want {
				status := Fail
				if d, ok := strings.CutPrefix(want, "PASS "); ok {
					status, want = Pass, d
				}
				ln, ok := findPrefix(diff, k)
				if !ok || ln.Status != status || !strings.HasPrefix(ln.Detail, want) {
					t.Errorf("%q: got %q, want %s %s", k, ln, status, want)
				}
			}
			for _, ln := range got {
				if strings.Contains(ln.String(), secret) || strings.Contains(ln.String(), l.addr) {
					t.Errorf("a line names an endpoint's URL: %s", ln)
				}
			}
		})
	}
}

func account0(t *testing.T, l *local, k sol.PublicKey) soldevnet.Account {
	t.Helper()
	a, ok := l.sol.GetAccount(k)
	if !ok {
		t.Fatalf("no account %s on the local chain", k)
	}
	return a
}

// findPrefix finds the line whose key starts with prefix.
func findPrefix(m map[string]Line, prefix string) (Line, bool) {
	for k, l := range m {
		if strings.HasPrefix(k, prefix) {
			return l, true
		}
	}
	return Line{}, false
}

func values(m map[string]Line) []Line {
	var out []Line
	for _, l := range m {
		out = append(out, l)
	}
	return out
}

// evmOf is the check's target for a local EVM chain as a configuration
// names it: its endpoints and the addresses of its deployment.
func evmOf(l *local, name string) EVM {
	d := l.evm.Deployment()
	base := "http://" + l.addr + "/evm/" + name
	return EVM{Name: name, RPC: endpoint.New(name+" rpc", base+"?key="+secret), Relay: endpoint.New(name+" relay", base+"/relay?key="+secret),
		ChainID: d.ChainID, Router: d.Router02, Factory: d.Factory, V3Factory: d.V3Factory, SwapRouter02: d.SwapRouter02,
		QuoterV2: d.QuoterV2, WrappedNative: d.WrappedNative, Quotes: d.Stables}
}

func runEVM(e EVM) []Line { return newEVM(e, opts).run(context.Background()) }

// TestEVMItems: against a local chain running the official Uniswap
// contracts every item passes, the routers and the quoter built over the
// configured factories and wrapped native token.
func TestEVMItems(t *testing.T) {
	l := startLocal(t, "base")
	e := evmOf(l, "base")
	d := l.evm.Deployment()
	want := []Line{
		{Pass, "base", "rpc", "", "answers, chain id 8453"},
		{Pass, "base", "router", d.Router02.Hex(), "official UniswapV2Router02 code, built over factory " + d.Factory.Hex() + " and wrapped native " + d.WrappedNative.Hex()},
		{Pass, "base", "factory", d.Factory.Hex(), "official UniswapV2Factory code"},
		{Pass, "base", "v3 factory", d.V3Factory.Hex(), "official UniswapV3Factory code"},
		{Pass, "base", "swap router02", d.SwapRouter02.Hex(), "official SwapRouter02 code, built over factory " + d.Factory.Hex() + ", v3 factory " + d.V3Factory.Hex() + " and wrapped native " + d.WrappedNative.Hex()},
		{Pass, "base", "quoter v2", d.QuoterV2.Hex(), "official QuoterV2 code, built over v3 factory " + d.V3Factory.Hex() + " and wrapped native " + d.WrappedNative.Hex()},
		{Pass, "base", "token wrapped native", d.WrappedNative.Hex(), "18 decimals, symbol WETH"},
		{Pass, "base", "token USDC", d.Stables["USDC"].Hex(), "6 decimals, symbol USDC"},
		{Pass, "base", "eth_simulateV1", "", "served: a swap behind its wallet's approval is simulated after it"},
		{Pass, "base", "batch requests", "", "served: an order's reads go in one round trip"},
		{Pass, "base", "eth_feeHistory", "", "served: auto_tip prices a tip from it"},
		{Pass, "base", "relay", "", "answers eth_chainId 8453"},
	}
	if got := runEVM(e); !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", text(got), text(want))
	}
	// The same chain served by the local chains: its addresses are read
	// from the chain when the check runs.
	cfg := localConfig(l.addr)
	le, err := EVMFromConfig(cfg, "base")
	if err != nil {
		t.Fatal(err)
	}
	// Its rpc line says it is a test double.
	want[0].Detail += " (the local chain: a test double, not a public network)"
	if got := runEVM(le); !slices.Equal(got, want) {
		t.Fatalf("as a local chain: got\n%s\nwant\n%s", text(got), text(want))
	}
}

// TestEVMFailures: each kind of EVM line fails when the chain is not what
// the configuration says, and nothing else changes.
func TestEVMFailures(t *testing.T) {
	l := startLocal(t, "base")
	d := l.evm.Deployment()
	genesis := localGenesis(t, l)
	notChecked := func(why string) map[string]string {
		m := map[string]string{}
		for _, k := range []string{"router ", "factory ", "v3 factory ", "swap router02 ", "quoter v2 ", "token wrapped native ", "token USDC ", "eth_simulateV1 ", "batch requests ", "eth_feeHistory "} {
			m[k] = why
		}
		return m
	}
	tests := []struct {
		name   string
		change func(t *testing.T, e *EVM)
		want   map[string]string
	}{
		{"router code differs", func(_ *testing.T, e *EVM) { e.Router = d.Factory },
			map[string]string{"router ": "code differs from UniswapV2Router02 ("}},
		{"no code at the quoter", func(_ *testing.T, e *EVM) { e.QuoterV2 = d.Deployer },
			map[string]string{"quoter v2 ": "no code: not QuoterV2"}},
		{"routers built over another wrapped native", func(_ *testing.T, e *EVM) { e.WrappedNative = d.Stables["USDC"] },
			map[string]string{
				"router ":               "official UniswapV2Router02 code, but not built over the configured wrapped native " + d.Stables["USDC"].Hex(),
				"swap router02 ":        "official SwapRouter02 code, but not built over the configured wrapped native " + d.Stables["USDC"].Hex(),
				"quoter v2 ":            "official QuoterV2 code, but not built over the configured wrapped native " + d.Stables["USDC"].Hex(),
				"token wrapped native ": "6 decimals, want 18",
			}},
		{"quote decimals", func(_ *testing.T, e *EVM) { e.Quotes = map[string]common.Address{"USDC": d.WrappedNative} },
			map[string]string{"token USDC ": "18 decimals, want 6"}},
		// A token of the right decimals is not yet the right token.
		{"wrapped native of another symbol", func(t *testing.T, e *EVM) {
			other, err := l.evm.CreateToken(context.Background(), evmdevnet.TokenRequest{Name: "Other", Symbol: "OTHER"})
			if err != nil {
				t.Fatal(err)
			}
			e.WrappedNative = other.Address
		}, map[string]string{
			"router ":               "official UniswapV2Router02 code, but not built over the configured wrapped native ",
			"swap router02 ":        "official SwapRouter02 code, but not built over the configured wrapped native ",
			"quoter v2 ":            "official QuoterV2 code, but not built over the configured wrapped native ",
			"token wrapped native ": `18 decimals, but symbol() is "OTHER", want "WETH": another token? (evm.chains.base.wrapped_native)`,
		}},
		{"wrong chain id", func(_ *testing.T, e *EVM) { e.ChainID = 84532 },
			merge(notChecked("not checked: base rpc is another chain"), map[string]string{
				"rpc ":   "answers chain id 8453, want 84532",
				"relay ": "answers chain id 8453, want 84532",
			})},
		// The local chain answers Base's chain id: only its block 0 tells
		// it from Base.
		{"another genesis", func(_ *testing.T, e *EVM) { e.GenesisHash = common.HexToHash(baseGenesis) },
			merge(notChecked("not checked: base rpc is another chain"), map[string]string{
				"rpc ": "serves another chain: genesis " + genesis.Hex() + ", want " + baseGenesis + " (evm.chains.base.genesis_hash)",
			})},
		{"rpc not answering", func(t *testing.T, e *EVM) { e.RPC.URL = closedURL(t) },
			merge(notChecked("not checked: base rpc does not answer"), map[string]string{"rpc ": "does not answer: connection refused"})},
		{"relay not answering", func(t *testing.T, e *EVM) { e.Relay.URL = closedURL(t) },
			map[string]string{"relay ": "does not answer"}},
	}
	base := runEVM(evmOf(l, "base"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := evmOf(l, "base")
			tt.change(t, &e)
			got := runEVM(e)
			diff := changed(t, base, got)
			if len(diff) != len(tt.want) {
				t.Fatalf("%d changed lines %q:\n%s\nwant %d: %v", len(diff), slices.Collect(maps.Keys(diff)), text(values(diff)), len(tt.want), tt.want)
			}
			for k, want := range tt.want {
				ln, ok := findPrefix(diff, k)
				if !ok || ln.Status != Fail || !strings.HasPrefix(ln.Detail, want) {
					t.Errorf("%q: got %q, want FAIL %s", k, ln, want)
				}
			}
			for _, ln := range got {
				if strings.Contains(ln.String(), secret) || strings.Contains(ln.String(), l.addr) {
					t.Errorf("a line names an endpoint's URL: %s", ln)
				}
			}
		})
	}
}

// baseGenesis is the hash of Base mainnet's block 0, which no local chain
// has.
const baseGenesis = "0xf712aa9241cc24369b143cf6dce85f0902a9731e70d66818a3a5845b296c73dd"

// localGenesis reads the hash of the local EVM chain's block 0.
func localGenesis(t *testing.T, l *local) common.Hash {
	t.Helper()
	var b struct {
		Hash common.Hash `json:"hash"`
	}
	if err := l.evm.RPC().CallContext(context.Background(), &b, "eth_getBlockByNumber", "0x0", false); err != nil {
		t.Fatal(err)
	}
	if b.Hash == (common.Hash{}) || b.Hash == common.HexToHash(baseGenesis) {
		t.Fatalf("local block 0 %s", b.Hash.Hex())
	}
	return b.Hash
}

// TestEVMGenesisHash: an RPC whose block 0 is the configured genesis
// hash passes the rpc line, saying so; one that does not show its block 0
// fails it, and nothing more of the chain is checked; a chain the local
// chains serve is never compared.
func TestEVMGenesisHash(t *testing.T) {
	l := startLocal(t, "base")
	genesis := localGenesis(t, l)
	e := evmOf(l, "base")
	e.GenesisHash = genesis
	got := runEVM(e)
	if ln := lineOf(t, got, "rpc"); ln.Status != Pass || ln.Detail != "answers, chain id 8453, genesis "+genesis.Hex() {
		t.Fatalf("its own chain: %s", ln)
	}
	if !Passed(got) {
		t.Fatalf("the check failed on its own chain:\n%s", text(got))
	}

	// An RPC that answers the chain id but has no block 0 to show (a node
	// whose history before the merge is pruned): the chain id alone is
	// checked, and the genesis is a SKIP, not a pass.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		result := "null"
		if req.Method == "eth_chainId" {
			result = `"0x2105"`
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	blind := e
	blind.RPC = endpoint.New("base rpc", srv.URL+"?key="+secret)
	got = runEVM(blind)
	if ln := lineOf(t, got, "rpc"); ln.Status != Pass || ln.Detail != "answers, chain id 8453" {
		t.Fatalf("no block 0: %s", ln)
	}
	if ln := lineOf(t, got, "genesis"); ln.Status != Skip || !strings.Contains(ln.Detail, "does not show block 0 (it has no block 0)") {
		t.Fatalf("no block 0: %s", ln)
	}

	// The local chains are test doubles of the public chain ids, and say
	// so; their genesis is not compared even when one is set.
	le, err := EVMFromConfig(localConfig(l.addr), "base")
	if err != nil {
		t.Fatal(err)
	}
	if le.GenesisHash != (common.Hash{}) {
		t.Fatalf("a local chain compared with %s", le.GenesisHash.Hex())
	}
	le.GenesisHash = common.HexToHash(baseGenesis)
	if ln := lineOf(t, runEVM(le), "rpc"); ln.Status != Pass || !strings.Contains(ln.Detail, "the local chain: a test double") {
		t.Fatalf("the local chain: %s", ln)
	}

	// A configured chain's genesis_hash reaches the check.
	cfg := localConfig(l.addr)
	cfg.EVM.Chains = map[string]config.EVMChain{"base": {RPCURL: "http://" + l.addr + "/evm/base", ChainID: 8453, GenesisHash: baseGenesis}}
	ce, err := EVMFromConfig(cfg, "base")
	if err != nil || ce.GenesisHash != common.HexToHash(baseGenesis) || ce.Local {
		t.Fatalf("from the configuration: %+v %v", ce, err)
	}
}

// TestEVMUnavailable: a contract or token a chain does not have (its key
// empty) is skipped, saying which key, and fails nothing.
func TestEVMUnavailable(t *testing.T) {
	l := startLocal(t, "base")
	e := evmOf(l, "base")
	e.QuoterV2, e.WrappedNative, e.Relay.URL = common.Address{}, common.Address{}, ""
	got := runEVM(e)
	want := map[string]Line{
		"quoter v2":            {Skip, "base", "quoter v2", "", "evm.chains.base.quoter_v2 is empty: QuoterV2 is not available on base"},
		"token wrapped native": {Skip, "base", "token wrapped native", "", "evm.chains.base.wrapped_native is empty: not available on base"},
		"relay":                {Skip, "base", "relay", "", "evm.chains.base.relay_url is empty: anti_mev is refused on base"},
	}
	for _, ln := range got {
		if w, ok := want[ln.Item]; ok {
			if ln != w {
				t.Errorf("%s\nwant %s", ln, w)
			}
			delete(want, ln.Item)
			continue
		}
		if ln.Status != Pass {
			t.Errorf("%s: want PASS", ln)
		}
	}
	if len(want) > 0 {
		t.Errorf("no lines for %v", want)
	}
	// The router still says what it wraps.
	d := l.evm.Deployment()
	if ln := got[1]; ln.Item != "router" || !strings.HasSuffix(ln.Detail, "(its immutables hold "+d.Factory.Hex()+", "+d.WrappedNative.Hex()+")") &&
		!strings.HasSuffix(ln.Detail, "(its immutables hold "+d.WrappedNative.Hex()+", "+d.Factory.Hex()+")") {
		t.Errorf("router line %s does not name what it wraps", ln)
	}
	if !Passed(got) {
		t.Error("skipped items failed the check")
	}
}

func merge(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// TestSolanaSenders checks each landing sender of solana.senders: a sender
// on the local chain's endpoints passes both items, one where nothing
// listens fails both; no line shows a sender's URL.
func TestSolanaSenders(t *testing.T) {
	l := startLocal(t, "")
	cfg := localConfig(l.addr)
	cfg.Solana.Senders = []config.SolanaSender{
		{Name: "copy", TransactionsURL: "http://" + l.addr + "/solana", BundlesURL: "http://" + l.addr + "/solana/bundles"},
		{Name: "gone", TransactionsURL: closedURL(t), BundlesURL: closedURL(t)},
	}
	lines := runSolana(SolanaFromConfig(cfg))
	got := map[string]Line{}
	for _, ln := range lines {
		if strings.HasPrefix(ln.Item, "sender ") {
			got[ln.Item] = ln
		}
	}
	want := map[string]Status{"sender copy transactions": Pass, "sender copy bundles": Pass,
		"sender gone transactions": Fail, "sender gone bundles": Fail}
	if len(got) != len(want) {
		t.Fatalf("sender lines:\n%s", text(lines))
	}
	for item, st := range want {
		if got[item].Status != st {
			t.Errorf("%s: %s %s, want %s", item, got[item].Status, got[item].Detail, st)
		}
	}
	if d := got["sender gone bundles"].Detail; !strings.HasPrefix(d, "does not answer") {
		t.Errorf("sender gone bundles: %q", d)
	}
	if out := text(lines); strings.Contains(out, secret) {
		t.Fatalf("a sender's URL is printed:\n%s", out)
	}
}

// TestReasonOfANodeRefusal: a Solana node's refusal is one line, code and
// message, without any part of the endpoint's URL.
func TestReasonOfANodeRefusal(t *testing.T) {
	ep := endpoint.New("solana rpc", "https://rpc.example/KEY1234567890?api-key=SECRET99")
	err := fmt.Errorf("get genesis hash: %w", &jsonrpc.RPCError{Code: -32005, Message: "rate limited for /KEY1234567890"})
	if got, want := reason(ep, err), "refused, code -32005: rate limited for [redacted]"; got != want {
		t.Fatalf("reason = %q, want %q", got, want)
	}
}

// TestMetadataUploadAnswers: the check posts what a deploy posts, to the
// configured URL, a body no upload endpoint stores; an answer meaning that
// nothing takes uploads there fails naming the key, never the URL, and an
// endpoint that refuses the body, or takes it, passes.
func TestMetadataUploadAnswers(t *testing.T) {
	tests := []struct {
		status int
		want   Status
		detail string
	}{
		{http.StatusBadRequest, Pass, "answers HTTP 400 Bad Request to a POST of a malformed document: an upload endpoint refusing it"},
		{http.StatusUnprocessableEntity, Pass, "answers HTTP 422 Unprocessable Entity to a POST of a malformed document: an upload endpoint refusing it"},
		{http.StatusUnsupportedMediaType, Pass, "answers HTTP 415 Unsupported Media Type to a POST of a malformed document: an upload endpoint refusing it"},
		{http.StatusOK, Pass, "answers HTTP 200 OK to a POST of a malformed document: it takes uploads"},
		{http.StatusNotFound, Fail, "answers HTTP 404 Not Found to a POST: nothing is there; solana.metadata_upload_url must be the URL deploys post their metadata to"},
		{http.StatusGone, Fail, "answers HTTP 410 Gone to a POST: nothing is there; solana.metadata_upload_url must be the URL deploys post their metadata to"},
		{http.StatusMethodNotAllowed, Fail, "answers HTTP 405 Method Not Allowed to a POST: it takes no POST, which deploys upload with; check solana.metadata_upload_url"},
		{http.StatusNotImplemented, Fail, "answers HTTP 501 Not Implemented to a POST: it takes no POST, which deploys upload with; check solana.metadata_upload_url"},
		{http.StatusFound, Fail, "answers HTTP 302 Found to a POST: a redirect, which uploads do not follow; set solana.metadata_upload_url to where it leads"},
		{http.StatusUnauthorized, Fail, "answers HTTP 401 Unauthorized to a POST: the credentials of solana.metadata_upload_url are refused"},
		{http.StatusForbidden, Fail, "answers HTTP 403 Forbidden to a POST: the credentials of solana.metadata_upload_url are refused"},
		{http.StatusBadGateway, Fail, "answers HTTP 502 Bad Gateway to a POST: deploys fail while it does; check solana.metadata_upload_url"},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			var method, path, ctype, body string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				method, path, ctype, body = r.Method, r.URL.Path, r.Header.Get("Content-Type"), string(b)
				if tt.status == http.StatusFound {
					w.Header().Set("Location", "https://elsewhere.example/"+secret)
				}
				w.WriteHeader(tt.status)
				fmt.Fprintf(w, "at %s", r.URL.Path)
			}))
			t.Cleanup(srv.Close)
			s := Solana{Metadata: endpoint.New("metadata upload", srv.URL+"/upload/"+secret)}
			ls := &lines{chain: "solana", endpoints: []endpoint.Endpoint{s.Metadata}}
			newSolana(s, opts).metadata(context.Background(), ls)
			if len(ls.out) != 1 {
				t.Fatalf("lines %v", ls.out)
			}
			got := ls.out[0]
			if got.Status != tt.want || got.Item != "metadata upload" || got.Detail != tt.detail {
				t.Errorf("%s\nwant %s %s", got, tt.want, tt.detail)
			}
			if strings.Contains(got.String(), secret) || strings.Contains(got.String(), srv.URL[len("http://"):]) {
				t.Errorf("the line names the endpoint's URL: %s", got)
			}
			if method != http.MethodPost || path != "/upload/"+secret || ctype != "application/json" || body != metadataProbe {
				t.Errorf("request %s %s (%s) %q, want a POST of the probe to the configured URL", method, path, ctype, body)
			}
		})
	}
}

// lineOf returns the line of item.
func lineOf(t *testing.T, ls []Line, item string) Line {
	t.Helper()
	for _, l := range ls {
		if l.Item == item {
			return l
		}
	}
	t.Fatalf("no line %q in\n%s", item, text(ls))
	return Line{}
}

// TestSolanaVenues: the check runs the venue watcher's checks on each
// Solana venue, the simulated trade included. A breaking upgrade of
// pump.fun (its trades then need one more account), which leaves every
// other item as it was but the program's deploy slot, fails the venue's
// line with the reason the watcher pauses it for, and so the check; after
// the revert every line passes again.
func TestSolanaVenues(t *testing.T) {
	l := startLocal(t, "")
	s := SolanaFromConfig(localConfig(l.addr))
	base := runSolana(s)
	if !Passed(base) {
		t.Fatalf("the local chain does not pass:\n%s", text(base))
	}
	for _, v := range venues.SolanaVenues {
		if ln := lineOf(t, base, "venue "+v); ln.Status != Pass || ln.Detail != "deployed at slot 0: the venue watcher's checks pass" {
			t.Errorf("%s: want PASS deployed at slot 0", ln)
		}
	}

	up, err := l.sol.UpgradeProgram(venues.PumpFun, true, false)
	if err != nil {
		t.Fatal(err)
	}
	got := runSolana(s)
	diff := changed(t, base, got)
	// The deploy lands in a slot of its own: the program's deploy slot
	// moves, and passes (the rpc's slot moves too, as it does between any
	// two runs, which changed does not count).
	prog := "program pump.fun " + pumpfun.ProgramID.String()
	if len(diff) != 2 || diff[prog].Status != Pass {
		t.Fatalf("changed lines:\n%s\nwant the program's deploy slot and the venue", text(values(diff)))
	}
	venue := diff["venue pump_fun "]
	// The reason is the pause's: what the watcher's own check says.
	watcher := venues.NewSolana(s.RPC.SolanaRPC(opts.Timeout), venues.SolanaConfig{Payer: sol.NewWallet().PublicKey(), Airdrop: true,
		SOLUSDPool: s.SOLUSDPool, BagsPoolConfig: s.BagsPoolConfig}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), opts.Timeout)
	defer cancel()
	verdict, err := watcher.Check(ctx, venues.PumpFun)
	if err != nil || verdict.OK {
		t.Fatalf("the watcher's check after the upgrade: %+v, %v", verdict, err)
	}
	if venue.Status != Fail || venue.Detail != verdict.Reason {
		t.Errorf("%s\nwant FAIL %s", venue, verdict.Reason)
	}
	for _, want := range []string{
		fmt.Sprintf("pump_fun program %s (deployed at slot %d) refuses the service's buy_exact_sol_in: ", pumpfun.ProgramID, up.DeploySlot),
		"AccountNotEnoughKeys", up.RequiredAccount.String(),
	} {
		if !strings.Contains(venue.Detail, want) {
			t.Errorf("%s\nlacks %q", venue, want)
		}
	}
	if Passed(got) {
		t.Error("the check passed with pump_fun refusing the service's trades")
	}
	var out strings.Builder
	if err := Print(&out, got); err != nil || !strings.Contains(out.String(), "\nFAIL solana venue pump_fun pump_fun program ") ||
		!strings.Contains(out.String(), " 1 failed, ") {
		t.Errorf("printed (%v):\n%s", err, out.String())
	}

	if _, err := l.sol.UpgradeProgram(venues.PumpFun, false, true); err != nil {
		t.Fatal(err)
	}
	got = runSolana(s)
	if !Passed(got) {
		t.Fatalf("after the revert:\n%s", text(got))
	}
	if ln := lineOf(t, got, "venue pump_fun"); ln.Status != Pass {
		t.Errorf("after the revert: %s", ln)
	}
}

// TestSolanaVenuesPayer: the venue lines follow the payer of the
// simulated trades. A payer too poor for them fails every venue as not
// checked, saying so; with no payer off the local chain, which the probe
// payer's line fails already, the venues are skipped.
func TestSolanaVenuesPayer(t *testing.T) {
	l := startLocal(t, "")
	funded, poor := sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey()
	l.sol.Airdrop(funded, 2_500_000_000)
	l.sol.Airdrop(poor, 50_000_000)
	tests := []struct {
		name   string
		payer  sol.PublicKey
		local  bool
		status Status
		detail string
	}{
		{"local chain's throwaway payer", sol.PublicKey{}, true, Pass, "deployed at slot 0: the venue watcher's checks pass"},
		{"funded payer", funded, true, Pass, "deployed at slot 0: the venue watcher's checks pass"},
		{"funded payer off the local chain", funded, false, Pass, "deployed at slot 0: the venue watcher's checks pass"},
		{"payer under the floor", poor, false, Fail,
			"not checked: the simulation payer " + poor.String() + " holds 50000000 lamports, below 100000000: fund it"},
		{"no payer off the local chain", sol.PublicKey{}, false, Skip, "not checked: no probe payer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := SolanaFromConfig(localConfig(l.addr))
			s.ProbePayer, s.LocalChain, s.GenesisHash = tt.payer, tt.local, ""
			got := runSolana(s)
			for _, v := range venues.SolanaVenues {
				if ln := lineOf(t, got, "venue "+v); ln.Status != tt.status || ln.Detail != tt.detail || ln.Addr != "" {
					t.Errorf("%s\nwant %s %s", ln, tt.status, tt.detail)
				}
			}
		})
	}
	// A chain that does not answer leaves the venues not checked, or
	// skipped as above when nothing would pay their trades.
	for _, tt := range []struct {
		local  bool
		status Status
		detail string
	}{
		{true, Fail, "not checked: solana rpc does not answer"},
		{false, Skip, "not checked: no probe payer"},
	} {
		s := SolanaFromConfig(localConfig(l.addr))
		s.RPC.URL, s.LocalChain = closedURL(t), tt.local
		got := runSolana(s)
		for _, v := range venues.SolanaVenues {
			if ln := lineOf(t, got, "venue "+v); ln.Status != tt.status || ln.Detail != tt.detail {
				t.Errorf("rpc not answering: %s\nwant %s %s", ln, tt.status, tt.detail)
			}
		}
		// The local chain's faucet, which funds its payer, is the chain
		// that does not answer.
		if ln := lineOf(t, got, probePayerItem); tt.local && ln.Status != Fail {
			t.Errorf("rpc not answering: %s\nwant FAIL", ln)
		}
	}
}

// TestSolanaGenesisHash: off the local chain, an RPC serving another
// cluster than solana.genesis_hash names fails the rpc line and checks
// nothing more (a devnet validator with the programs deployed passed every
// check); the right cluster passes, saying which.
func TestSolanaGenesisHash(t *testing.T) {
	l := startLocal(t, "")
	s := SolanaFromConfig(localConfig(l.addr))
	s.LocalChain = false
	if s.GenesisHash != config.MainnetGenesisHash {
		t.Fatalf("default genesis hash %q, want mainnet-beta's", s.GenesisHash)
	}
	c := s.RPC.SolanaRPC(5 * time.Second)
	defer c.Close()
	genesis, err := c.GetGenesisHash(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := runSolana(s)
	if ln := lineOf(t, got, "rpc"); ln.Status != Fail || !strings.Contains(ln.Detail, "serves the cluster of genesis hash "+genesis.String()) {
		t.Fatalf("another cluster: %s", ln)
	}
	if Passed(got) {
		t.Fatal("the check passed on another cluster")
	}
	// The items left unchecked say why: the RPC answered.
	if ln := lineOf(t, got, "program pump.fun"); ln.Status != Fail || ln.Detail != "not checked: solana rpc is another cluster" {
		t.Fatalf("an item on another cluster: %s", ln)
	}
	s.GenesisHash = genesis.String()
	if ln := lineOf(t, runSolana(s), "rpc"); ln.Status != Pass || !strings.Contains(ln.Detail, "genesis hash "+genesis.String()) {
		t.Fatalf("its own cluster: %s", ln)
	}
}

// TestSolanaVenueNotSimulated: a venue whose tiny trade has nothing to
// trade on (no solana.bags_pool_config for DBC) is not said to pass: its
// line is SKIP, saying that an upgrade breaking its trades would not
// pause it (it read PASS, "the venue watcher's checks pass").
func TestSolanaVenueNotSimulated(t *testing.T) {
	l := startLocal(t, "")
	funded := sol.NewWallet().PublicKey()
	l.sol.Airdrop(funded, 2_500_000_000)
	s := SolanaFromConfig(localConfig(l.addr))
	s.ProbePayer, s.LocalChain, s.GenesisHash, s.BagsPoolConfig = funded, false, "", sol.PublicKey{}
	got := runSolana(s)
	if ln := lineOf(t, got, "venue dbc"); ln.Status != Skip || !strings.Contains(ln.Detail, "not simulated: no pool config to trade on (solana.bags_pool_config)") {
		t.Fatalf("dbc without a pool config: %s", ln)
	}
	if ln := lineOf(t, got, "venue pump_fun"); ln.Status != Pass {
		t.Fatalf("pump_fun: %s", ln)
	}
}

// TestMetadataAdviceKeepsItsWords: a check line's own wording, the key it
// tells to fix among it, is not scrubbed of the configured URL's words (a
// URL ending in /api/metadata made the advice name
// "solana.[redacted]_upload_url"); what the endpoint said still is.
func TestMetadataAdviceKeepsItsWords(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }))
	defer srv.Close()
	s := Solana{Metadata: endpoint.New("metadata upload", srv.URL+"/api/metadata")}
	c := &solanaCheck{s: s, timeout: 2 * time.Second}
	ls := &lines{chain: "solana", endpoints: []endpoint.Endpoint{s.Metadata}}
	c.metadata(context.Background(), ls)
	if len(ls.out) != 1 || !strings.Contains(ls.out[0].Detail, "solana.metadata_upload_url must be the URL deploys post their metadata to") {
		t.Fatalf("lines %+v", ls.out)
	}
}

// TestMixedChainsFail: a file that configures a chain and leaves
// devnet.enabled at its default has the local chains, test doubles, serve
// every other chain beside it: check fails that first, naming the chains
// and the keys; with every chain local, or none, nothing is said of it.
func TestMixedChainsFail(t *testing.T) {
	for _, tc := range []struct {
		name  string
		apply func(c *config.Config)
		want  string
	}{
		{"solana configured, the EVM chains local", func(c *config.Config) { c.Solana.RPCURL = closedURL(t) },
			"FAIL devnet local chains the local chains, test doubles, serve eth, bsc, base, rbh, arc beside the configured solana: " +
				"their orders would trade on no public network; set devnet.enabled: false, or evm.chains.eth.rpc_url, " +
				"evm.chains.bsc.rpc_url, evm.chains.base.rpc_url, evm.chains.rbh.rpc_url, evm.chains.arc.rpc_url"},
		{"every chain local", func(c *config.Config) {}, ""},
		{"the local chains off", func(c *config.Config) { c.Solana.RPCURL, c.Devnet.Enabled = closedURL(t), false }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := localConfig(closedURL(t))
			tc.apply(&cfg)
			c, err := New(cfg, Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(c.first) > 0 {
				got = c.first[0].String()
			}
			if got != tc.want || len(c.first) > 1 {
				t.Fatalf("first lines %v, want %q", c.first, tc.want)
			}
			if tc.want != "" && Passed(c.Run(context.Background())) {
				t.Fatal("a check with the line passed")
			}
		})
	}
}

// TestSolanaEmptyEpochAnswer: an RPC answering getEpochInfo with null fails
// the rpc line, naming it, instead of stopping the check.
func TestSolanaEmptyEpochAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":null}`)
	}))
	t.Cleanup(srv.Close)
	var ls lines
	why := newSolana(Solana{RPC: endpoint.New("solana rpc", srv.URL), LocalChain: true}, opts).probe(context.Background(), &ls)
	if why == "" || len(ls.out) != 1 || ls.out[0].Status != Fail || !strings.Contains(ls.out[0].Detail, "empty answer") {
		t.Fatalf("%q, lines %v", why, ls.out)
	}
}

// stalling forwards the first answered requests to target and holds every
// later one until its client gives up, as an RPC that answers the probe and
// then hangs; asked counts the requests it got.
func stalling(t *testing.T, target string, answered int32) (url string, asked *atomic.Int32) {
	return holding(t, target, func(n int32, _ []byte) bool { return n > answered })
}

// holding forwards requests to target, but holds those hold picks (by their
// number, from 1, and body) until their client gives up; asked counts the
// requests it got.
func holding(t *testing.T, target string, hold func(n int32, body []byte) bool) (url string, asked *atomic.Int32) {
	t.Helper()
	asked = &atomic.Int32{}
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if hold(asked.Add(1), body) {
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		forward(w, target, body)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	return srv.URL, asked
}

// forward passes a call's body on to target and its answer back.
func forward(w http.ResponseWriter, target string, body []byte) {
	res, err := http.Post(target, "application/json", bytes.NewReader(body))
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(res.StatusCode)
	_, _ = io.Copy(w, res.Body)
}

// stalledLines checks the lines of a chain whose RPC answered its probe and
// then hung: one call waited out its timeout, and every item after it says
// it was not asked rather than waiting out a timeout of its own.
func stalledLines(t *testing.T, got []Line, asked int32) {
	t.Helper()
	if asked != 2 {
		t.Errorf("the rpc was asked %d times, want the probe and the one call that timed out", asked)
	}
	timedOut, notAsked := 0, 0
	for _, ln := range got {
		switch {
		case strings.Contains(ln.Detail, "timeout"):
			timedOut++
		case strings.Contains(ln.Detail, stoppedReason):
			notAsked++
			if ln.Status == Pass {
				t.Errorf("%s: passed", ln)
			}
		}
	}
	if timedOut == 0 || notAsked == 0 {
		t.Errorf("%d lines timed out, %d not asked:\n%s", timedOut, notAsked, text(got))
	}
}

// TestSolanaRPCThatStopsAnswering: an RPC that answers the probe and then
// hangs costs the check one timeout, not one per item.
func TestSolanaRPCThatStopsAnswering(t *testing.T) {
	l := startLocal(t, "")
	s := SolanaFromConfig(localConfig(l.addr))
	url, asked := stalling(t, "http://"+l.addr+"/solana", 1)
	s.RPC = endpoint.New("solana rpc", url+"/"+secret)
	got := newSolana(s, Options{Timeout: 300 * time.Millisecond}).run(context.Background())
	stalledLines(t, got, asked.Load())
}

// TestEVMRPCThatStopsAnswering: the same on an EVM chain.
func TestEVMRPCThatStopsAnswering(t *testing.T) {
	l := startLocal(t, "base")
	e := evmOf(l, "base")
	url, asked := stalling(t, "http://"+l.addr+"/evm/base", 1)
	e.RPC = endpoint.New("base rpc", url+"/"+secret)
	got := newEVM(e, Options{Timeout: 300 * time.Millisecond}).run(context.Background())
	stalledLines(t, got, asked.Load())
}

// TestSlowProgramSearchStopsNothing: the DBC pools' search, a scan of a
// whole program a healthy node may take longer than the timeout for, fails
// alone when it does: the items after it are asked, and pass.
func TestSlowProgramSearchStopsNothing(t *testing.T) {
	l := startLocal(t, "")
	s := SolanaFromConfig(localConfig(l.addr))
	url, _ := holding(t, "http://"+l.addr+"/solana", func(_ int32, body []byte) bool {
		return bytes.Contains(body, []byte("getProgramAccounts"))
	})
	s.RPC = endpoint.New("solana rpc", url+"/"+secret)
	for _, ln := range newSolana(s, Options{Timeout: time.Second}).run(context.Background()) {
		switch {
		case ln.Item == "search DBC pools by mint":
			if ln.Status != Fail || !strings.Contains(ln.Detail, "timeout") {
				t.Errorf("%s: want its timeout", ln)
			}
		case ln.Status != Pass:
			t.Errorf("%s: want PASS", ln)
		}
	}
}

// refusing serves target through a proxy that answers the calls refuse
// picks with the JSON-RPC error errJSON (an object: code and message), as
// a node or a provider's plan that does not serve them.
func refusing(t *testing.T, target string, refuse func(body []byte) bool, errJSON string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !refuse(body) {
			forward(w, target, body)
			return
		}
		var call struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &call) != nil || call.ID == nil {
			call.ID = json.RawMessage("null")
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, call.ID, errJSON)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestWhatOrdersNeedOfTheRPC: a node that answers single calls but not what
// every order (JSON-RPC batches, on EVM) or every auto_tip order
// (eth_feeHistory, getRecentPrioritizationFees) needs fails that item
// alone, where the check passed it and the orders failed.
func TestWhatOrdersNeedOfTheRPC(t *testing.T) {
	l := startLocal(t, "base")
	notServed := `{"code":-32601,"message":"the method does not exist/is not available"}`
	onlyFails := func(t *testing.T, got []Line, item, detail string) {
		t.Helper()
		failed := 0
		for _, ln := range got {
			switch {
			case ln.Item == item:
				failed++
				if ln.Status != Fail || !strings.Contains(ln.Detail, detail) {
					t.Errorf("%s: want FAIL saying %q", ln, detail)
				}
			case ln.Status != Pass:
				t.Errorf("%s: want PASS", ln)
			}
		}
		if failed != 1 {
			t.Errorf("%d lines of %s:\n%s", failed, item, text(got))
		}
	}
	t.Run("evm batches", func(t *testing.T) {
		e := evmOf(l, "base")
		url := refusing(t, "http://"+l.addr+"/evm/base", func(b []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) },
			`{"code":-32600,"message":"batch requests are not supported on this plan"}`)
		e.RPC = endpoint.New("base rpc", url+"/"+secret)
		onlyFails(t, runEVM(e), "batch requests", "every order on base reads the chain in JSON-RPC batches")
	})
	t.Run("evm fee history", func(t *testing.T) {
		e := evmOf(l, "base")
		url := refusing(t, "http://"+l.addr+"/evm/base", func(b []byte) bool { return bytes.Contains(b, []byte("eth_feeHistory")) }, notServed)
		e.RPC = endpoint.New("base rpc", url+"/"+secret)
		onlyFails(t, runEVM(e), "eth_feeHistory", "every order with auto_tip on base would fail")
	})
	t.Run("solana priority fees", func(t *testing.T) {
		s := SolanaFromConfig(localConfig(l.addr))
		url := refusing(t, "http://"+l.addr+"/solana", func(b []byte) bool { return bytes.Contains(b, []byte("getRecentPrioritizationFees")) }, notServed)
		s.RPC = endpoint.New("solana rpc", url+"/"+secret)
		onlyFails(t, runSolana(s), "getRecentPrioritizationFees", "every order with auto_tip would fail")
	})
}
