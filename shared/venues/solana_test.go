package venues

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// localChain runs a local Solana chain over HTTP and a checker of its
// venues, whose simulation payer is a fresh key the chain's faucet funds.
func localChain(t testing.TB) (*soldevnet.Chain, *Solana, *rpc.Client) {
	t.Helper()
	c := soldevnet.New(soldevnet.Config{SlotDuration: 50 * time.Millisecond})
	srv := httptest.NewServer(c.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = c.Close()
	})
	cl := rpc.New(srv.URL)
	s := NewSolana(cl, SolanaConfig{Payer: sol.NewWallet().PublicKey(), Airdrop: true,
		SOLUSDPool: soldevnet.StableSOLPool, BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil)
	return c, s, cl
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestSolanaVerdicts runs every venue's checks on a fresh chain, after a
// compatible upgrade, after a breaking one and after its revert.
func TestSolanaVerdicts(t *testing.T) {
	for _, venue := range SolanaVenues {
		t.Run(venue, func(t *testing.T) {
			c, s, _ := localChain(t)
			v, err := s.Check(ctxT(t), venue)
			if err != nil || !v.OK || v.Fingerprint != "deployed at slot 0" || v.Height == 0 {
				t.Fatalf("fresh chain: %+v %v", v, err)
			}

			up, err := c.UpgradeProgram(venue, false, false)
			if err != nil {
				t.Fatal(err)
			}
			v, err = s.Check(ctxT(t), venue)
			if err != nil || !v.OK || v.Fingerprint != fmt.Sprintf("deployed at slot %d", up.DeploySlot) {
				t.Fatalf("compatible upgrade: %+v %v", v, err)
			}

			up, err = c.UpgradeProgram(venue, true, false)
			if err != nil {
				t.Fatal(err)
			}
			v, err = s.Check(ctxT(t), venue)
			if err != nil || v.OK {
				t.Fatalf("breaking upgrade passed: %+v %v", v, err)
			}
			for _, want := range []string{
				fmt.Sprintf("%s program %s (deployed at slot %d) refuses the service's ", venue, solanaPrograms[venue], up.DeploySlot),
				"custom program error 3005",
				"AnchorError caused by account: trade_config. Error Code: AccountNotEnoughKeys",
				up.RequiredAccount.String(),
			} {
				if !strings.Contains(v.Reason, want) {
					t.Errorf("reason %q lacks %q", v.Reason, want)
				}
			}

			if _, err := c.UpgradeProgram(venue, false, true); err != nil {
				t.Fatal(err)
			}
			if v, err = s.Check(ctxT(t), venue); err != nil || !v.OK {
				t.Fatalf("after the revert: %+v %v", v, err)
			}
		})
	}
}

// TestRateLimitedBagsConfig: under a bags config whose base fee is a rate
// limiter the probe's buy runs inside the limiter's window, which the
// program allows only with the instructions sysvar passed: the simulation
// ends without even a business error.
func TestRateLimitedBagsConfig(t *testing.T) {
	c, checker, cl := localChain(t)
	var logs bytes.Buffer
	s := NewSolana(cl, checker.cfg, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	a, _ := c.GetAccount(dbc.LocalBagsPoolConfig)
	cfg, err := dbc.DecodePoolConfig(a.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseFee = dbc.BaseFeeConfig{CliffFeeNumerator: 10_000_000, FirstFactor: 100, SecondFactor: 3600, ThirdFactor: 1_000_000_000,
		BaseFeeMode: dbc.BaseFeeRateLimiter}
	a.Data = cfg.Encode()
	c.SetAccount(dbc.LocalBagsPoolConfig, a)
	if v, err := s.Check(ctxT(t), DBC); err != nil || !v.OK || strings.Contains(logs.String(), "business error") {
		t.Fatalf("rate-limited bags config: %+v %v\n%s", v, err, logs.String())
	}
}

// TestFingerprintsFollowDeploys: a redeploy moves its own venue's
// fingerprint only.
func TestFingerprintsFollowDeploys(t *testing.T) {
	c, s, _ := localChain(t)
	before, err := s.Fingerprints(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range SolanaVenues {
		if before.Of[v] != "deployed at slot 0" {
			t.Fatalf("%s: %q", v, before.Of[v])
		}
	}
	up, err := c.UpgradeProgram(LaunchLab, false, false)
	if err != nil {
		t.Fatal(err)
	}
	after, err := s.Fingerprints(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range SolanaVenues {
		want := before.Of[v]
		if v == LaunchLab {
			want = fmt.Sprintf("deployed at slot %d", up.DeploySlot)
		}
		if after.Of[v] != want {
			t.Errorf("%s: %q, want %q", v, after.Of[v], want)
		}
	}
	if after.Height < up.DeploySlot {
		t.Fatalf("height %d before the deploy slot %d", after.Height, up.DeploySlot)
	}
}

// TestLayoutChecks changes the accounts the service decodes and checks
// that each change fails the venue with a reason naming it.
func TestLayoutChecks(t *testing.T) {
	tests := []struct {
		name, venue string
		addr        sol.PublicKey
		change      func(soldevnet.Account) soldevnet.Account
		want        string
	}{
		{"global shrank", PumpFun, pumpfun.GlobalPDA, func(a soldevnet.Account) soldevnet.Account { a.Data = a.Data[:900]; return a },
			"Global " + pumpfun.GlobalPDA.String() + " shrank to 900 bytes (the service reads 1045)"},
		{"global discriminator", PumpFun, pumpfun.GlobalPDA, func(a soldevnet.Account) soldevnet.Account { a.Data[0] ^= 0xff; return a },
			"Global " + pumpfun.GlobalPDA.String() + " changed its discriminator"},
		{"platform config owner", LaunchLab, launchlab.LetsBonkPlatformConfig, func(a soldevnet.Account) soldevnet.Account { a.Owner = sol.SystemProgramID; return a },
			"PlatformConfig " + launchlab.LetsBonkPlatformConfig.String() + " is owned by 11111111111111111111111111111111"},
		{"bags config gone", DBC, dbc.LocalBagsPoolConfig, func(a soldevnet.Account) soldevnet.Account { a.Lamports = 0; return a },
			"PoolConfig " + dbc.LocalBagsPoolConfig.String() + " is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s, _ := localChain(t)
			orig, ok := c.GetAccount(tt.addr)
			if !ok {
				t.Fatal("no account")
			}
			changed := orig
			changed.Data = append([]byte(nil), orig.Data...)
			c.SetAccount(tt.addr, tt.change(changed))
			v, err := s.Check(ctxT(t), tt.venue)
			if err != nil || v.OK || !strings.Contains(v.Reason, tt.want) {
				t.Fatalf("verdict %+v %v, want a failure naming %q", v, err, tt.want)
			}
			c.SetAccount(tt.addr, orig)
			if v, err := s.Check(ctxT(t), tt.venue); err != nil || !v.OK {
				t.Fatalf("restored: %+v %v", v, err)
			}
		})
	}
}

// TestUnfundedPayerIsInconclusive: without funds the simulation cannot
// reach the venue, which is no reason to pause it.
func TestUnfundedPayerIsInconclusive(t *testing.T) {
	c, s, _ := localChain(t)
	s.cfg.Airdrop = false
	if _, err := s.Check(ctxT(t), PumpFun); err == nil || !strings.Contains(err.Error(), "fund it") {
		t.Fatalf("err %v, want the payer named as unfunded", err)
	}
	// Funded but unable to pay for the launch's accounts: the simulation
	// fails outside the venue's instructions.
	c.Airdrop(s.cfg.Payer, PayerFloor)
	s.cfg.Payer = sol.NewWallet().PublicKey()
	if _, err := s.Check(ctxT(t), PumpFun); err == nil {
		t.Fatal("a payer that does not exist gave a verdict")
	}
	// Without a payer the checks stop at the layouts, and pass.
	s.cfg.Payer = sol.PublicKey{}
	if v, err := s.Check(ctxT(t), PumpFun); err != nil || !v.OK {
		t.Fatalf("no payer: %+v %v", v, err)
	}
}

// TestProbesFitOneTransaction: every canonical trade is one legacy
// transaction, as the signer's are.
func TestProbesFitOneTransaction(t *testing.T) {
	_, s, _ := localChain(t)
	for _, venue := range SolanaVenues {
		st, problem, err := s.readLayouts(ctxT(t), venue)
		if err != nil || problem != "" {
			t.Fatalf("%s layouts: %q %v", venue, problem, err)
		}
		p, err := s.probe(ctxT(t), venue, st)
		if err != nil || p == nil {
			t.Fatalf("%s probe: %v", venue, err)
		}
		raw, err := encodeProbe(p)
		if err != nil {
			t.Fatalf("%s: %v", venue, err)
		}
		if len(raw) > maxTxSize || len(p.names) == 0 {
			t.Fatalf("%s: %d bytes, venue instructions %v", venue, len(raw), p.names)
		}
		// On a chain that runs the programs the service was built for,
		// the canonical trade succeeds outright: no business error hides
		// anything.
		if err := s.fund(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		out, err := s.simulate(ctxT(t), p)
		if err != nil || !out.conclusive || !out.ok || out.detail != "" {
			t.Fatalf("%s simulation: %+v %v", venue, out, err)
		}
	}
}

func TestClassify(t *testing.T) {
	p := newProbe("launch and buy", pumpfun.ProgramID, sol.PublicKey{})
	p.names = map[int]string{0: "create_v2", 2: "buy_exact_sol_in"}
	prog := "Program " + pumpfun.ProgramID.String()
	logs := []string{prog + " invoke [1]", "Program log: Instruction: BuyExactSolIn", "Program log: first", "Program log: second",
		prog + " consumed 10 of 200000 compute units", prog + " failed: custom program error: 0xbbd"}
	ixErr := func(i int, e any) any { return map[string]any{"InstructionError": []any{float64(i), e}} }
	tests := []struct {
		name       string
		err        any
		conclusive bool
		ok         bool
		detail     string
	}{
		{"success", nil, true, true, ""},
		{"anchor account error", ixErr(2, map[string]any{"Custom": float64(3005)}), true, false, "custom program error 3005: first second"},
		{"anchor constraint", ixErr(0, map[string]any{"Custom": float64(2006)}), true, false, "custom program error 2006: first second"},
		{"missing remaining account", ixErr(2, map[string]any{"Custom": float64(pumpfun.ErrInvalidBondingCurveV2.Code)}), true, false, "custom program error 6074: first second"},
		{"slippage", ixErr(2, map[string]any{"Custom": float64(6002)}), true, true, "custom program error 6002: first second"},
		{"token cpi funds", ixErr(2, map[string]any{"Custom": float64(1)}), true, true, "custom program error 1: first second"},
		{"runtime shape", ixErr(2, "NotEnoughAccountKeys"), true, false, "NotEnoughAccountKeys: first second"},
		{"runtime funds", ixErr(2, "InsufficientFunds"), true, true, "InsufficientFunds: first second"},
		{"not the venue's", ixErr(1, map[string]any{"Custom": float64(0)}), false, false, `instruction 1, not the venue's, failed: {"Custom":0}`},
		{"payer missing", "AccountNotFound", false, false, "the transaction failed before any instruction ran: AccountNotFound"},
		{"program gone", "ProgramAccountNotFound", true, false, "ProgramAccountNotFound"},
		{"rent", map[string]any{"InsufficientFundsForRent": map[string]any{"account_index": float64(0)}}, false, false,
			`the transaction failed before any instruction ran: {"InsufficientFundsForRent":{"account_index":0}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(p, tt.err, logs)
			if got.conclusive != tt.conclusive || got.ok != tt.ok || got.detail != tt.detail {
				t.Fatalf("got %+v, want conclusive %v ok %v detail %q", got, tt.conclusive, tt.ok, tt.detail)
			}
		})
	}
}

// TestAnotherClusterPausesEveryVenue: a checker told the cluster's genesis
// hash pauses every venue of an RPC that serves another cluster (the local
// chain is not mainnet-beta), saying which it serves, and passes them on
// the cluster it was told; the cluster is in the fingerprints, so that an
// RPC moved to another cluster is checked again at once.
func TestAnotherClusterPausesEveryVenue(t *testing.T) {
	_, local, cl := localChain(t)
	served, err := cl.GetGenesisHash(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	mainnet := sol.MustHashFromBase58("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d")
	for _, tc := range []struct {
		name    string
		genesis sol.Hash
		ok      bool
	}{
		{"another cluster", mainnet, false},
		{"the cluster told", served, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := local.cfg
			cfg.GenesisHash = tc.genesis
			s := NewSolana(cl, cfg, nil)
			fp, err := s.Fingerprints(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, venue := range SolanaVenues {
				if want := "deployed at slot 0, genesis " + served.String(); fp.Of[venue] != want {
					t.Fatalf("%s fingerprint %q, want %q", venue, fp.Of[venue], want)
				}
				v, err := s.Check(ctxT(t), venue)
				if err != nil || v.OK != tc.ok {
					t.Fatalf("%s: %+v %v", venue, v, err)
				}
				want := venue + ": the RPC serves the cluster of genesis " + served.String() +
					", not the configured solana.genesis_hash " + mainnet.String() + ": nothing is signed for one cluster and sent to another"
				if !tc.ok && v.Reason != want {
					t.Fatalf("reason %q, want %q", v.Reason, want)
				}
			}
		})
	}
}

// TestClusterUnknown: an RPC that does not answer getGenesisHash cannot
// say which cluster it serves: until it has said, in this process, every
// venue fails its check (another cluster cannot be ruled out, and a
// restart during the outage keeps a wrong-cluster pause). Once it has said
// the configured one, a later failure of the call keeps what it said, and
// the venues' own checks go on: a breaking upgrade still pauses its venue.
// A verdict on another cluster is recorded over a stored state of a higher
// slot, which that cluster's slots cannot be compared with.
func TestClusterUnknown(t *testing.T) {
	c, local, cl := localChain(t)
	served, err := cl.GetGenesisHash(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	inner := c.Handler()
	var answers atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"getGenesisHash"`)) && !answers.Load() {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	cfg := local.cfg
	cfg.GenesisHash = served
	s := NewSolana(rpc.New(front.URL), cfg, nil)
	if fp, err := s.Fingerprints(ctxT(t)); err != nil || fp.Of[PumpFun] != "deployed at slot 0, genesis unknown" {
		t.Fatalf("fingerprints %+v %v", fp, err)
	}
	v, err := s.Check(ctxT(t), PumpFun)
	if err != nil || v.OK || !v.AnotherChain || !strings.Contains(v.Reason, "pump_fun: the RPC does not say which cluster it serves") {
		t.Fatalf("a cluster never said: %+v %v", v, err)
	}
	answers.Store(true)
	if v, err := s.Check(ctxT(t), PumpFun); err != nil || !v.OK {
		t.Fatalf("the cluster said: %+v %v", v, err)
	}
	answers.Store(false)
	if _, err := c.UpgradeProgram(PumpFun, true, false); err != nil {
		t.Fatal(err)
	}
	v, err = s.Check(ctxT(t), PumpFun)
	if err != nil || v.OK || v.AnotherChain || !strings.Contains(v.Reason, "refuses the service's") {
		t.Fatalf("breaking upgrade behind an RPC whose getGenesisHash fails after it said: %+v %v", v, err)
	}

	store := NewStore(bucket(t))
	if _, err := Record(ctxT(t), store, wire.ChainSolana, PumpFun, Verdict{OK: true, Height: 1_000_000}, t0, false, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	other := Verdict{Reason: "pump_fun: the RPC serves the cluster of genesis X", Height: 5, AnotherChain: true}
	st, err := Record(ctxT(t), store, wire.ChainSolana, PumpFun, other, t0.Add(time.Second), false, slog.New(slog.DiscardHandler))
	if err != nil || st.State != Paused {
		t.Fatalf("another cluster's verdict at a lower slot: %+v %v", st, err)
	}
}

// TestBonkProbeFollowsThePlatform: the LaunchLab check's launch carries the
// platform's curve rule when letsbonk's config restricts curves, as the
// signer's launches do (initialize_v2 then requires it), and not otherwise:
// a check built otherwise than the launches would pause the venue for a
// missing account, or pass what the launches fail.
func TestBonkProbeFollowsThePlatform(t *testing.T) {
	payer, mint := sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey()
	for _, restrict := range []uint8{0, 1} {
		p := bonkProbe(payer, mint, &launchlab.PlatformConfig{RestrictCurveParam: restrict})
		accs := p.ixs[0].Accounts()
		init := launchlab.NewInitializeV2Accounts(launchlab.NewLetsBonkLaunch(payer, mint))
		rule := launchlab.PlatformCurveRulePDA(init.PlatformConfig, init.GlobalConfig)
		last := accs[len(accs)-1].PublicKey
		if (last == rule) != (restrict != 0) {
			t.Fatalf("restrict_curve_param %d: initialize_v2's last account %s, the curve rule %s", restrict, last, rule)
		}
	}
}
