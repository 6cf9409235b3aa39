package server

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/devnet"
	devsol "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/registry/admincli"
	"github.com/tradeapi/tradeapi/shared/venues"
)

// listedVenue is a venue as the listing shows it, its time kept as text.
type listedVenue struct {
	Venue     string  `json:"venue"`
	Chain     string  `json:"chain"`
	State     string  `json:"state"`
	Reason    string  `json:"reason"`
	CheckedAt *string `json:"checked_at"`
}

type venueList struct {
	Venues []listedVenue `json:"venues"`
}

// TestVenueRoutes drives a breaking upgrade of the local chain's DBC
// program through the devnet route, then the resume route: refused with
// the reason while the upgrade stands, granted once it is reverted; the
// listing shows each state.
func TestVenueRoutes(t *testing.T) {
	b := startBus(t)
	chain, client := startSolana(t)
	kv, err := venues.Declare(context.Background(), b.js, 1)
	if err != nil {
		t.Fatal(err)
	}
	checker := venues.NewSolana(rpc.New(chain.URL()), venues.SolanaConfig{Payer: sol.NewWallet().PublicKey(), Airdrop: true,
		SOLUSDPool: devsol.StableSOLPool, BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil)
	tr := startRegistryDevnet(t, b, Config{DataDir: t.TempDir(), Venues: venues.NewAdmin(venues.NewStore(kv), nil, checker)},
		devnet.Devnets{"solana": client})

	list := func() venueList { return decodeData[venueList](t, tr.do(t, http.MethodGet, "/admin/v1/venues", nil)) }
	// dbc's state in the listing, which names every venue watched.
	dbcIn := func(got venueList) listedVenue {
		t.Helper()
		if len(got.Venues) != len(venues.SolanaVenues) {
			t.Fatalf("listing %+v, want every Solana venue", got)
		}
		for _, v := range got.Venues {
			if v.Venue == "dbc" && v.Chain == "solana" {
				return v
			}
		}
		t.Fatalf("listing without dbc: %+v", got)
		return listedVenue{}
	}
	for _, v := range list().Venues {
		if v.State != "active" || v.CheckedAt != nil || v.Reason != "" {
			t.Fatalf("venue before any check: %+v", v)
		}
	}
	a := tr.do(t, http.MethodPost, "/admin/v1/devnet/upgrade", map[string]any{"chain": "solana", "program": "dbc", "breaking": true})
	up := decodeData[ProgramUpgrade](t, a)
	if up.Chain != "solana" || up.Program != "dbc" || up.ProgramID != dbc.ProgramID.String() || !up.Breaking ||
		up.RequiredAccount != devsol.TradeConfigAddress(dbc.ProgramID).String() || up.DeploySlot == 0 || up.Revision != 2 {
		t.Fatalf("upgrade %+v", up)
	}

	a = tr.do(t, http.MethodPost, "/admin/v1/venues/dbc/resume", nil)
	if a.Status != http.StatusConflict || a.code() != "VENUE_STILL_FAILING" || a.details() != "dbc" ||
		!strings.Contains(a.Error.Message, up.RequiredAccount) {
		t.Fatalf("resume while broken: %d %s", a.Status, a.Raw)
	}
	if got := dbcIn(list()); got.State != "paused" || !strings.Contains(got.Reason, "AccountNotEnoughKeys") || got.CheckedAt == nil {
		t.Fatalf("listing while broken: %+v", got)
	}

	a = tr.do(t, http.MethodPost, "/admin/v1/devnet/upgrade", map[string]any{"chain": "Solana", "program": "dbc", "revert": true})
	if up := decodeData[ProgramUpgrade](t, a); up.Breaking || up.RequiredAccount != "" || up.Revision != 3 {
		t.Fatalf("revert %+v", up)
	}
	a = tr.do(t, http.MethodPost, "/admin/v1/venues/dbc/resume", nil)
	if v := decodeData[struct {
		Venue, State, Reason string
	}](t, a); a.Status != http.StatusOK || v.Venue != "dbc" || v.State != "active" || v.Reason != "" {
		t.Fatalf("resume after the revert: %d %s", a.Status, a.Raw)
	}
	if got := dbcIn(list()); got.State != "active" || got.Reason != "" || got.CheckedAt == nil {
		t.Fatalf("listing after the resume: %+v", got)
	}

	runAdminCases(t, tr, []adminCase{
		{name: "resume unknown venue", method: "POST", path: "/admin/v1/venues/raydium/resume", status: 404, code: "NOT_FOUND", details: "venue"},
		{name: "resume unwatched venue", method: "POST", path: "/admin/v1/venues/uniswap_v2/resume", status: 404, code: "NOT_FOUND", details: "venue"},
		{name: "venues need the token", method: "GET", path: "/admin/v1/venues", auth: "-", status: 401, code: "UNAUTHORIZED"},
		{name: "resume needs the token", method: "POST", path: "/admin/v1/venues/dbc/resume", auth: "-", status: 401, code: "UNAUTHORIZED"},
		{name: "upgrade without chain", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"program": "dbc"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "upgrade on an evm chain", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "base", "program": "dbc"}, status: 400, code: "INVALID_REQUEST", details: "chain"},
		{name: "upgrade without program", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana"}, status: 400, code: "INVALID_REQUEST", details: "program"},
		{name: "upgrade unknown program", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "raydium"}, status: 400, code: "INVALID_REQUEST", details: "program"},
		{name: "upgrade breaking as text", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "dbc", "breaking": "yes"}, status: 400, code: "INVALID_REQUEST", details: "breaking"},
		{name: "upgrade breaking and revert", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "dbc", "breaking": true, "revert": true}, status: 400, code: "INVALID_REQUEST", details: "revert"},
		{name: "compatible upgrade", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "pump_fun"}, status: 200},
	})
}

// TestVenueRoutesWithoutWatchers: a registry without venue checks lists
// none and resumes none; without the local chains the upgrade route does
// not exist, and with a local chain that does not answer it is 503.
func TestVenueRoutesWithoutWatchers(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	runAdminCases(t, tr, []adminCase{
		{name: "list", method: "GET", path: "/admin/v1/venues", status: 200},
		{name: "resume", method: "POST", path: "/admin/v1/venues/pump_fun/resume", status: 404, code: "NOT_FOUND", details: "venue"},
		{name: "no devnet upgrade", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "dbc"}, status: 404, code: "NOT_FOUND"},
	})
	if got := decodeData[venueList](t, tr.do(t, http.MethodGet, "/admin/v1/venues", nil)); got.Venues == nil || len(got.Venues) != 0 {
		t.Fatalf("venues %+v, want []", got)
	}

	// fakeDevnet's chain answers nowhere.
	tr = startRegistry(t, startBus(t), t.TempDir(), &fakeDevnet{})
	runAdminCases(t, tr, []adminCase{
		{name: "chain down", method: "POST", path: "/admin/v1/devnet/upgrade", body: map[string]any{"chain": "solana", "program": "launchlab", "breaking": true},
			status: 503, code: "CHAIN_UNAVAILABLE", details: "solana"},
	})
}

// TestCLIVenues runs the venue and upgrade verbs of tradeapi admin against
// a registry watching the local chain.
func TestCLIVenues(t *testing.T) {
	b := startBus(t)
	chain, client := startSolana(t)
	kv, err := venues.Declare(context.Background(), b.js, 1)
	if err != nil {
		t.Fatal(err)
	}
	checker := venues.NewSolana(rpc.New(chain.URL()), venues.SolanaConfig{Payer: sol.NewWallet().PublicKey(), Airdrop: true,
		SOLUSDPool: devsol.StableSOLPool, BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil)
	dir := t.TempDir()
	tr := startRegistryDevnet(t, b, Config{DataDir: dir, Venues: venues.NewAdmin(venues.NewStore(kv), nil, checker)},
		devnet.Devnets{"solana": client})
	t.Setenv("TRADEAPI_ADMIN_TOKEN", "")
	t.Setenv("TRADEAPI_ADMIN_ADDR", tr.reg.Addr())
	t.Setenv("TRADEAPI_DATA_DIR", dir)

	steps := []struct {
		args  []string
		code  int
		check func(data map[string]any) bool
	}{
		{[]string{"devnet", "upgrade", "--program", "launchlab", "--breaking"}, 0,
			func(d map[string]any) bool {
				return d["breaking"] == true && d["program"] == "launchlab" && d["chain"] == "solana"
			}},
		{[]string{"venues", "resume", "launchlab"}, 1,
			func(d map[string]any) bool { return d["code"] == "VENUE_STILL_FAILING" && d["details"] == "launchlab" }},
		{[]string{"venues", "list"}, 0, func(d map[string]any) bool {
			vs, _ := d["venues"].([]any)
			paused := 0
			for _, v := range vs {
				if v.(map[string]any)["state"] == "paused" {
					paused++
					if v.(map[string]any)["venue"] != "launchlab" {
						return false
					}
				}
			}
			return len(vs) == len(venues.SolanaVenues) && paused == 1
		}},
		{[]string{"devnet", "upgrade", "--program", "launchlab", "--breaking", "--revert"}, 1,
			func(d map[string]any) bool { return d["code"] == "INVALID_REQUEST" && d["details"] == "revert" }},
		{[]string{"devnet", "upgrade", "--revert", "--program", "launchlab"}, 0,
			func(d map[string]any) bool { return d["breaking"] == false }},
		{[]string{"venues", "resume", "launchlab"}, 0, func(d map[string]any) bool { return d["state"] == "active" }},
		{[]string{"venues", "resume"}, 2, nil},
	}
	for _, s := range steps {
		code, data, stderr := runCLI(t, s.args...)
		if code != s.code || (s.check != nil && !s.check(data)) {
			t.Fatalf("%v: exit %d, data %v, stderr %q; want exit %d", s.args, code, data, stderr, s.code)
		}
	}
	var out, errOut bytes.Buffer
	if code := admincli.CLI(context.Background(), []string{"help"}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "venues resume VENUE") || !strings.Contains(out.String(), "devnet upgrade --program") {
		t.Fatalf("help lacks the venue verbs: %s", out.String())
	}
}

// passing is a checker of one EVM chain's venues whose checks pass.
type passing string

func (p passing) Chain() string    { return string(p) }
func (p passing) Venues() []string { return venues.EVMVenues }
func (p passing) Fingerprints(context.Context) (venues.Fingerprints, error) {
	return venues.Fingerprints{Of: map[string]string{}}, nil
}
func (p passing) Check(context.Context, string) (venues.Verdict, error) {
	return venues.Verdict{OK: true, Fingerprint: "router 0x01", Height: 1}, nil
}

// TestResumeOnSeveralChains: a venue checked on several chains is resumed
// on the chain the query names, through the route and the CLI, or without
// one on every chain it is checked on.
func TestResumeOnSeveralChains(t *testing.T) {
	b := startBus(t)
	kv, err := venues.Declare(context.Background(), b.js, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := startRegistryDevnet(t, b, Config{DataDir: dir, Venues: venues.NewAdmin(venues.NewStore(kv), nil, passing("base"), passing("bsc"))}, nil)
	runAdminCases(t, tr, []adminCase{
		{name: "unwatched chain", method: "POST", path: "/admin/v1/venues/uniswap_v3/resume?chain=eth", status: 404, code: "NOT_FOUND", details: "chain"},
		{name: "solana venue", method: "POST", path: "/admin/v1/venues/pump_fun/resume", status: 404, code: "NOT_FOUND", details: "venue"},
		{name: "on bsc", method: "POST", path: "/admin/v1/venues/uniswap_v3/resume?chain=bsc", status: 200},
	})
	got := decodeData[venueList](t, tr.do(t, http.MethodGet, "/admin/v1/venues", nil))
	if len(got.Venues) != 4 {
		t.Fatalf("listing %+v", got)
	}
	for _, v := range got.Venues {
		// Only uniswap_v3 on bsc was checked; each venue is active.
		if checked := v.Venue == "uniswap_v3" && v.Chain == "bsc"; v.State != "active" || checked != (v.CheckedAt != nil) {
			t.Fatalf("listing %+v", got)
		}
	}

	t.Setenv("TRADEAPI_ADMIN_TOKEN", "")
	t.Setenv("TRADEAPI_ADMIN_ADDR", tr.reg.Addr())
	t.Setenv("TRADEAPI_DATA_DIR", dir)
	if code, data, stderr := runCLI(t, "venues", "resume", "uniswap_v2", "--chain", "base"); code != 0 || data["chain"] != "base" || data["state"] != "active" {
		t.Fatalf("resume --chain base: exit %d, data %v, stderr %q", code, data, stderr)
	}
	if code, data, stderr := runCLI(t, "venues", "resume", "uniswap_v2"); code != 0 || data["state"] != "active" {
		t.Fatalf("resume without --chain: exit %d, data %v, stderr %q", code, data, stderr)
	}
	got = decodeData[venueList](t, tr.do(t, http.MethodGet, "/admin/v1/venues", nil))
	for _, v := range got.Venues {
		if checked := v.Venue == "uniswap_v2" || v.Chain == "bsc"; len(got.Venues) != 4 || checked != (v.CheckedAt != nil) {
			t.Fatalf("listing after resuming uniswap_v2 everywhere %+v", got)
		}
	}
}
