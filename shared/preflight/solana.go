package preflight

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/dbc"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/solanaloader"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Solana is what the check needs of the Solana chain: where it and its
// relays answer, and the addresses the service relies on there.
type Solana struct {
	// RPC is the chain's JSON-RPC; Relay the bundle relay (Jito's block
	// engine), Metadata the deploys' upload endpoint. An endpoint with an
	// empty URL is not configured, and its item is skipped.
	RPC, Relay, Metadata endpoint.Endpoint
	// Senders are the landing senders of solana.senders.
	Senders  []Sender
	Programs config.SolanaPrograms
	Accounts config.SolanaAccounts
	// QuoteMints are the stable quote mints by symbol.
	QuoteMints map[string]sol.PublicKey
	// Tips are the tip accounts the signer pays.
	Tips []sol.PublicKey
	// SOLUSDPool is the PumpSwap pool that prices SOL in USD;
	// BagsPoolConfig the DBC config of bags launches. Zero: not
	// configured.
	SOLUSDPool, BagsPoolConfig sol.PublicKey
	// ProbePayer pays the venue checks' simulated trades
	// (solana.venue_probe_payer); zero: not configured. LocalChain: the
	// local chain serves Solana, whose faucet funds a payer of its own.
	ProbePayer sol.PublicKey
	LocalChain bool
	// GenesisHash is the cluster the RPC must serve (solana.genesis_hash);
	// empty, and on the local chain, not compared.
	GenesisHash string
}

// Sender is one landing sender: where it takes transactions and bundles
// (an empty URL: not that kind).
type Sender struct {
	Name                  string
	Transactions, Bundles endpoint.Endpoint
}

// SolanaFromConfig resolves the Solana chain of cfg as the service does: a
// configured endpoint and address, or, when the local chain serves Solana,
// the local chain's stand-in for one left empty.
func SolanaFromConfig(cfg config.Config) Solana {
	s := cfg.Solana
	out := Solana{
		RPC:            endpoint.New("solana rpc", cfg.SolanaRPC()),
		Relay:          endpoint.New("solana relay", s.BundleRelayURL),
		Metadata:       endpoint.New("metadata upload", cfg.MetadataUploadURL()),
		Programs:       s.Programs,
		Accounts:       s.Accounts,
		QuoteMints:     s.QuoteMints,
		Tips:           s.Tips(),
		SOLUSDPool:     s.SOLUSDPool,
		BagsPoolConfig: s.BagsPoolConfig,
		ProbePayer:     s.VenueProbePayer,
		LocalChain:     cfg.LocalSolana(),
		GenesisHash:    s.GenesisHash,
	}
	for _, x := range s.Senders {
		out.Senders = append(out.Senders, Sender{Name: x.Name,
			Transactions: endpoint.New(x.TransactionsName(), x.TransactionsURL), Bundles: endpoint.New(x.BundlesName(), x.BundlesURL)})
	}
	if cfg.LocalSolana() {
		if out.Relay.URL == "" {
			out.Relay.URL = "http://" + cfg.Devnet.Addr + "/solana/bundles"
		}
		if out.SOLUSDPool.IsZero() {
			out.SOLUSDPool = soldevnet.StableSOLPool
		}
		if out.BagsPoolConfig.IsZero() {
			out.BagsPoolConfig = dbc.LocalBagsPoolConfig
		}
	}
	return out
}

// The loaders that own programs: the upgradeable loader owns programs that
// can be redeployed, and their program-data; the older BPF loader owns
// final programs, whose account holds the image itself.
var (
	upgradeableLoader = sol.BPFLoaderUpgradeableProgramID
	finalLoader       = sol.BPFLoaderProgramID
)

// program is one program the service calls.
type program struct {
	name   string
	id     sol.PublicKey
	loader sol.PublicKey
}

// programs lists the programs in the order they are reported, each with
// the loader that owns it on mainnet.
func (s Solana) programs() []program {
	p := s.Programs
	return []program{
		{"pump.fun", p.PumpFun, upgradeableLoader},
		{"pump fees", p.PumpFees, upgradeableLoader},
		{"pump mayhem", p.PumpMayhem, upgradeableLoader},
		{"PumpSwap", p.PumpSwap, upgradeableLoader},
		{"LaunchLab", p.LaunchLab, upgradeableLoader},
		{"Meteora DBC", p.DBC, upgradeableLoader},
		{"Metaplex", p.Metaplex, upgradeableLoader},
		{"Token-2022", p.Token2022, upgradeableLoader},
		{"SPL Token", p.Token, finalLoader},
		{"Associated Token", p.AssociatedToken, finalLoader},
	}
}

// account is one configuration account the service decodes: whose it is,
// its Anchor discriminator, the sizes the service reads it at (the fewest
// bytes it needs, older live layouts being shorter than the IDL's, and the
// most the codec knows: a larger account has fields the service was not
// built for), and its decoder.
type account struct {
	name     string
	addr     sol.PublicKey
	owner    sol.PublicKey
	disc     anchor.Discriminator
	layout   string
	min, max int
	decode   func([]byte) error
}

// Sizes the service needs of the accounts whose live layouts are shorter
// than their IDL's.
const (
	// pumpGlobalMin is Global through buyback_basis_points, the last field
	// the signer reads (the live account has been 1045 and 1054 bytes).
	pumpGlobalMin = 1045
	// ammGlobalConfigMin is the oldest live GlobalConfig; what it lacks
	// reads as zero, which means off.
	ammGlobalConfigMin = 907
	// bonkPlatformMin is PlatformConfig through creator_fee_rate (at 720),
	// which a launch's fees depend on.
	bonkPlatformMin = 728
)

// accounts lists the configuration accounts in the order they are
// reported.
func (s Solana) accounts() []account {
	p, a := s.Programs, s.Accounts
	out := []account{
		{"pump Global", a.PumpGlobal, p.PumpFun, pumpfun.GlobalDiscriminator, "Global", pumpGlobalMin, pumpfun.GlobalSize,
			func(b []byte) error { var v pumpfun.Global; return v.Decode(b) }},
		{"pump FeeConfig", a.PumpFeeConfig, p.PumpFees, pumpfun.FeeConfigDiscriminator, "FeeConfig", pumpfun.FeeConfigMinSize, pumpfun.FeeConfigSize,
			func(b []byte) error { var v pumpfun.FeeConfig; return v.Decode(b) }},
		{"PumpSwap GlobalConfig", a.PumpSwapGlobalConfig, p.PumpSwap, pumpswap.GlobalConfigDiscriminator, "GlobalConfig", ammGlobalConfigMin, pumpswap.GlobalConfigSize,
			func(b []byte) error { var v pumpswap.GlobalConfig; return v.Decode(b) }},
		{"PumpSwap FeeConfig", a.PumpSwapFeeConfig, p.PumpFees, pumpfun.FeeConfigDiscriminator, "FeeConfig", pumpfun.FeeConfigMinSize, pumpfun.FeeConfigSize,
			func(b []byte) error { var v pumpswap.FeeConfig; return v.Decode(b) }},
		{"LaunchLab GlobalConfig", a.LaunchLabGlobalConfig, p.LaunchLab, launchlab.GlobalConfigDiscriminator, "GlobalConfig", launchlab.GlobalConfigSize, launchlab.GlobalConfigSize,
			func(b []byte) error { var v launchlab.GlobalConfig; return v.Decode(b) }},
		{"letsbonk PlatformConfig", a.LetsBonkPlatformConfig, p.LaunchLab, launchlab.PlatformConfigDiscriminator, "PlatformConfig", bonkPlatformMin, launchlab.PlatformConfigSize,
			func(b []byte) error { var v launchlab.PlatformConfig; return v.Decode(b) }},
	}
	if !s.BagsPoolConfig.IsZero() {
		out = append(out, account{"bags PoolConfig", s.BagsPoolConfig, p.DBC, dbc.PoolConfigDiscriminator, "PoolConfig", dbc.PoolConfigSize, dbc.PoolConfigSize,
			func(b []byte) error { var v dbc.PoolConfig; return v.Decode(b) }})
	}
	return out
}

// mint is a quote mint with the decimals the service prices it at.
type mint struct {
	symbol   string
	addr     sol.PublicKey
	decimals int
	// mainnet is the symbol's mint on mainnet-beta, which the local chain
	// serves too, where the check knows it (zero: compared with nothing):
	// a mint of the right decimals is not yet the right one (USDC and USD1
	// swapped would pass on decimals alone).
	mainnet sol.PublicKey
}

// mints lists wrapped SOL, then the stable quote mints in the order of
// shared/chains.
func (s Solana) mints() []mint {
	ch, _ := chains.Get(wire.ChainSolana)
	out := []mint{{"SOL (wrapped)", sol.SolMint, ch.Assets[0].Decimals, sol.SolMint}}
	known := map[string]sol.PublicKey{}
	if s.LocalChain || s.GenesisHash == config.MainnetGenesisHash {
		known = config.DefaultSolanaSigner().QuoteMints
	}
	for _, a := range ch.Assets {
		if m, ok := s.QuoteMints[a.Symbol]; ok && !a.Native {
			out = append(out, mint{a.Symbol, m, a.Decimals, known[a.Symbol]})
		}
	}
	return out
}

// Layout of an SPL Token mint: decimals and is_initialized after the
// optional mint authority and the supply.
const (
	mintSize          = 82
	mintDecimalsAt    = 44
	mintInitializedAt = 45
)

// solanaCheck runs the checks of Solana.
type solanaCheck struct {
	s       Solana
	timeout time.Duration
	rpc     *rpc.Client
	// calls bounds the calls to rpc.
	calls *calls
}

func newSolana(s Solana, opts Options) *solanaCheck {
	return &solanaCheck{s: s, timeout: opts.Timeout, rpc: s.RPC.SolanaRPC(opts.Timeout), calls: &calls{timeout: opts.Timeout}}
}

func (c *solanaCheck) run(ctx context.Context) []Line {
	defer c.rpc.Close()
	ls := &lines{chain: wire.ChainSolana, endpoints: []endpoint.Endpoint{c.s.RPC, c.s.Relay, c.s.Metadata}}
	for _, x := range c.s.Senders {
		ls.endpoints = append(ls.endpoints, x.Transactions, x.Bundles)
	}
	if why := c.probe(ctx, ls); why == "" {
		c.programs(ctx, ls)
		c.accounts(ctx, ls)
		c.tips(ctx, ls)
		c.mints(ctx, ls)
		c.pool(ctx, ls)
		c.search(ctx, ls)
		c.priorityFees(ctx, ls)
		c.probePayer(ctx, ls)
		c.venueChecks(ctx, ls)
	} else {
		c.notChecked(ls, why)
	}
	c.relay(ctx, ls)
	c.senders(ctx, ls)
	c.metadata(ctx, ls)
	return ls.out
}

// probe asks the chain for its slot and height, whether the RPC answers
// at all (getEpochInfo, which the broadcaster reads both from to judge
// expiries), and off the local chain for its genesis hash: which cluster
// it serves. It returns why nothing more can be checked, or "".
func (c *solanaCheck) probe(ctx context.Context, ls *lines) string {
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	info, err := c.rpc.GetEpochInfo(cctx, rpc.CommitmentConfirmed)
	if err == nil && info == nil {
		err = errors.New("an empty answer to getEpochInfo")
	}
	if err != nil {
		ls.fail("rpc", "", "does not answer: %s", reason(c.s.RPC, err))
		return "not checked: solana rpc does not answer"
	}
	slot := info.AbsoluteSlot
	if c.s.LocalChain {
		ls.pass("rpc", "", "answers at slot %d (the local chain: a test double, not a public network)", slot)
		return ""
	}
	if c.s.GenesisHash == "" {
		ls.pass("rpc", "", "answers at slot %d", slot)
		return ""
	}
	// Which cluster: a devnet or test validator holding the programs
	// would pass every check after this one.
	genesis, err := c.rpc.GetGenesisHash(cctx)
	switch {
	case err != nil:
		ls.fail("rpc", "", "answers at slot %d, but not its genesis hash: %s", slot, reason(c.s.RPC, err))
		return "not checked: solana rpc does not say which cluster it serves"
	case genesis.String() != c.s.GenesisHash:
		ls.fail("rpc", "", "serves the cluster of genesis hash %s, want %s (solana.genesis_hash)", genesis, c.s.GenesisHash)
		return "not checked: solana rpc is another cluster"
	}
	ls.pass("rpc", "", "answers at slot %d, genesis hash %s", slot, genesis)
	return ""
}

// notChecked lists the items an RPC that does not answer, or serves
// another cluster, leaves unchecked (why says which), so that the operator
// still sees what the check covers.
func (c *solanaCheck) notChecked(ls *lines, why string) {
	for _, p := range c.s.programs() {
		ls.fail("program "+p.name, p.id.String(), why)
	}
	for _, a := range c.s.accounts() {
		ls.fail("account "+a.name, a.addr.String(), why)
	}
	c.skipBags(ls)
	for _, t := range c.s.Tips {
		ls.fail("tip account", t.String(), why)
	}
	for _, m := range c.s.mints() {
		ls.fail("mint "+m.symbol, m.addr.String(), why)
	}
	if c.s.SOLUSDPool.IsZero() {
		c.skipPool(ls)
	} else {
		ls.fail("pool SOL/USD", c.s.SOLUSDPool.String(), why)
	}
	ls.fail("search DBC pools by mint", "", why)
	ls.fail(priorityFeesItem, "", why)
	switch {
	case c.s.LocalChain:
		// Its faucet, which funds the payer, is the chain not answering.
		ls.fail(probePayerItem, "", why)
	case c.s.ProbePayer.IsZero():
		c.probePayer(context.Background(), ls)
	default:
		ls.fail(probePayerItem, c.s.ProbePayer.String(), why)
	}
	if c.noProbePayer() {
		c.skipVenues(ls)
	} else {
		for _, v := range venues.SolanaVenues {
			ls.fail(venueItem(v), "", why)
		}
	}
}

const probePayerItem = "venue probe payer"

// probePayer reports what pays the venue checks' simulated trades: a
// configured payer must exist and hold SOL; none configured off the local
// chain fails, since a breaking program upgrade is then seen only through
// the deploy slots and the account layouts, and one that keeps both would
// leave the venue trading, every order failing on chain, instead of
// paused.
func (c *solanaCheck) probePayer(ctx context.Context, ls *lines) {
	switch {
	case !c.s.ProbePayer.IsZero():
	case c.s.LocalChain:
		ls.pass(probePayerItem, "", "the local chain's faucet funds a payer of the venue checks' simulated trades")
		return
	default:
		ls.fail(probePayerItem, "", "solana.venue_probe_payer is empty: the venue checks stop at the programs' deploy slots and the account layouts, so an upgrade that keeps both but breaks the trades pauses nothing; set it to a funded account")
		return
	}
	addr := c.s.ProbePayer.String()
	accs, err := c.read(ctx, []sol.PublicKey{c.s.ProbePayer}, 0)
	switch {
	case err != nil:
		ls.fail(probePayerItem, addr, "read failed: %s", reason(c.s.RPC, err))
	case accs[0] == nil || accs[0].Lamports == 0:
		ls.fail(probePayerItem, addr, "holds no SOL: the venue checks' simulated trades need a funded payer")
	case accs[0].Owner != sol.SystemProgramID:
		ls.fail(probePayerItem, addr, "is owned by %s, not the system program: it cannot pay for a transaction", accs[0].Owner)
	case accs[0].Lamports < venues.PayerFloor:
		ls.fail(probePayerItem, addr, "holds %s SOL, under the %s SOL the venue checks need to run: fund it",
			money.Format(new(big.Int).SetUint64(accs[0].Lamports), 9), money.Format(big.NewInt(venues.PayerFloor), 9))
	default:
		ls.pass(probePayerItem, addr, "a system account holding %s SOL", money.Format(new(big.Int).SetUint64(accs[0].Lamports), 9))
	}
}

// venueChecks runs, on each venue, the checks the service's venue watcher
// runs (package venues): the program deployed, the layouts of the
// accounts its orders decode, and a simulation of the venue's tiny
// canonical trade. The simulation is what sees an upgrade that keeps the
// deploy slot readable and the layouts but breaks the trades, which the
// items above pass. A failing venue's line says what its pause says. The
// payer is the watcher's: solana.venue_probe_payer, or on the local chain a
// throwaway key its faucet funds.
func (c *solanaCheck) venueChecks(ctx context.Context, ls *lines) {
	if c.noProbePayer() {
		c.skipVenues(ls)
		return
	}
	cfg := venues.SolanaConfig{Payer: c.s.ProbePayer, SOLUSDPool: c.s.SOLUSDPool, BagsPoolConfig: c.s.BagsPoolConfig}
	if cfg.Payer.IsZero() {
		cfg.Payer, cfg.Airdrop = sol.NewWallet().PublicKey(), true
	}
	checker := venues.NewSolana(c.rpc, cfg, nil)
	verdicts := make([]venues.Verdict, len(venues.SolanaVenues))
	errs := make([]error, len(venues.SolanaVenues))
	var wg sync.WaitGroup
	for i, v := range venues.SolanaVenues {
		wg.Add(1)
		// At once, as the watcher runs them: each venue's reads and
		// simulation are several round trips.
		go func() {
			defer wg.Done()
			cctx, cancel := c.calls.bounded(ctx)
			defer cancel()
			verdicts[i], errs[i] = checker.Check(cctx, v)
		}()
	}
	wg.Wait()
	for i, v := range venues.SolanaVenues {
		switch {
		case errs[i] != nil:
			// The watcher keeps the venue's state then and tries again;
			// a check that cannot tell does not pass.
			ls.fail(venueItem(v), "", "not checked: %s", reason(c.s.RPC, errs[i]))
		case !verdicts[i].OK:
			ls.fail(venueItem(v), "", "%s", verdicts[i].Reason)
		case verdicts[i].Unsimulated != "":
			// No pass: the watcher would not see an upgrade that keeps the
			// deploy readable and the layouts but breaks the trades.
			ls.skip(venueItem(v), "", "%s: deploy and layouts pass, but its trade is not simulated: %s; an upgrade breaking its trades would not pause it",
				verdicts[i].Fingerprint, verdicts[i].Unsimulated)
		default:
			ls.pass(venueItem(v), "", "%s: the venue watcher's checks pass", verdicts[i].Fingerprint)
		}
	}
}

func venueItem(venue string) string { return "venue " + venue }

// noProbePayer reports whether nothing pays the venue checks' simulated
// trades: no solana.venue_probe_payer off the local chain.
func (c *solanaCheck) noProbePayer() bool { return c.s.ProbePayer.IsZero() && !c.s.LocalChain }

// skipVenues leaves the venues out when no payer pays their simulated
// trades: the probe payer's line fails for it already, and the deploy
// slots and layouts, which the watcher checks then, are the items above.
func (c *solanaCheck) skipVenues(ls *lines) {
	for _, v := range venues.SolanaVenues {
		ls.skip(venueItem(v), "", "not checked: no probe payer")
	}
}

// skipBags reports an unconfigured bags config; skipPool an unconfigured
// SOL/USD pool.
func (c *solanaCheck) skipBags(ls *lines) {
	if c.s.BagsPoolConfig.IsZero() {
		ls.skip("account bags PoolConfig", "", "solana.bags_pool_config is empty: a bags launch must name its config")
	}
}

func (c *solanaCheck) skipPool(ls *lines) {
	ls.skip("pool SOL/USD", "", "solana.sol_usd_pool is empty: market-cap and liquidity bounds on SOL markets are refused")
}

// read fetches accounts in one call; a nil entry is an account that does
// not exist. slice, when above zero, asks for only that many leading bytes
// (a program's image is hundreds of kilobytes).
func (c *solanaCheck) read(ctx context.Context, keys []sol.PublicKey, slice uint64) ([]*rpc.Account, error) {
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	opts := &rpc.GetMultipleAccountsOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed}
	if slice > 0 {
		off := uint64(0)
		opts.DataSlice = &rpc.DataSlice{Offset: &off, Length: &slice}
	}
	res, err := c.rpc.GetMultipleAccountsWithOpts(cctx, keys, opts)
	if err != nil {
		return nil, err
	}
	if len(res.Value) != len(keys) {
		return nil, fmt.Errorf("%d accounts answered for %d asked", len(res.Value), len(keys))
	}
	return res.Value, nil
}

// ProgramDataAddress is the upgradeable loader's PDA of a program: where
// its program-data lives.
func ProgramDataAddress(program sol.PublicKey) sol.PublicKey {
	return solanaloader.ProgramDataAddress(program)
}

func (c *solanaCheck) programs(ctx context.Context, ls *lines) {
	ps := c.s.programs()
	keys := make([]sol.PublicKey, 0, 2*len(ps))
	for _, p := range ps {
		keys = append(keys, p.id, ProgramDataAddress(p.id))
	}
	accts, err := c.read(ctx, keys, solanaloader.ProgramDataHeaderSize)
	if err != nil {
		for _, p := range ps {
			ls.fail("program "+p.name, p.id.String(), "not read: %s", reason(c.s.RPC, err))
		}
		return
	}
	for i, p := range ps {
		status, detail := checkProgram(p, accts[2*i], accts[2*i+1])
		ls.add(status, "program "+p.name, p.id.String(), "%s", detail)
	}
}

// checkProgram judges a program account and, for an upgradeable program,
// its program-data account.
func checkProgram(p program, prog, data *rpc.Account) (Status, string) {
	switch {
	case prog == nil:
		return Fail, "no such account"
	case !prog.Executable:
		return Fail, fmt.Sprintf("not executable (owner %s)", prog.Owner)
	case prog.Owner != p.loader:
		return Fail, fmt.Sprintf("executable, but owner %s, want %s", prog.Owner, p.loader)
	case p.loader != upgradeableLoader:
		return Pass, fmt.Sprintf("executable, owner %s (final)", prog.Owner)
	}
	d := solanaloader.Read(p.id, prog, data)
	switch d.State {
	case solanaloader.NotProgram:
		return Fail, fmt.Sprintf("executable, owner %s, but the account is not an upgradeable Program", prog.Owner)
	case solanaloader.Moved:
		return Fail, fmt.Sprintf("executable, owner %s, but its program-data is %s, not %s", prog.Owner, d.Named, d.ProgramData)
	case solanaloader.DataMissing:
		return Fail, fmt.Sprintf("executable, owner %s, but its program-data %s does not exist", prog.Owner, d.ProgramData)
	case solanaloader.DataUnreadable:
		return Fail, fmt.Sprintf("executable, owner %s, but its program-data %s is not a ProgramData of the loader", prog.Owner, d.ProgramData)
	}
	return Pass, fmt.Sprintf("executable, owner %s, deployed at slot %d", prog.Owner, d.Slot)
}

func (c *solanaCheck) accounts(ctx context.Context, ls *lines) {
	as := c.s.accounts()
	keys := make([]sol.PublicKey, len(as))
	for i, a := range as {
		keys[i] = a.addr
	}
	accts, err := c.read(ctx, keys, 0)
	if err != nil {
		for _, a := range as {
			ls.fail("account "+a.name, a.addr.String(), "not read: %s", reason(c.s.RPC, err))
		}
		return
	}
	for i, a := range as {
		status, detail := checkAccount(a, accts[i])
		ls.add(status, "account "+a.name, a.addr.String(), "%s", detail)
	}
	c.skipBags(ls)
}

// checkAccount judges a configuration account: its owner, its Anchor
// discriminator, its size and whether the service's codec reads it.
func checkAccount(a account, got *rpc.Account) (Status, string) {
	if got == nil {
		return Fail, "no such account"
	}
	if got.Owner != a.owner {
		return Fail, fmt.Sprintf("owner %s, want %s", got.Owner, a.owner)
	}
	b := got.Data.GetBinary()
	if len(b) < 8 {
		return Fail, fmt.Sprintf("owner %s, %d bytes: no discriminator", got.Owner, len(b))
	}
	if d := anchor.Discriminator(b[:8]); d != a.disc {
		return Fail, fmt.Sprintf("owner %s, discriminator %s, want %s (%s)", got.Owner, hex.EncodeToString(d[:]), hex.EncodeToString(a.disc[:]), a.layout)
	}
	found := fmt.Sprintf("owner %s, discriminator %s (%s), %d bytes", got.Owner, hex.EncodeToString(a.disc[:]), a.layout, len(b))
	if len(b) < a.min || len(b) > a.max {
		return Fail, fmt.Sprintf("%s, want %s", found, sizeRange(a.min, a.max))
	}
	if err := a.decode(b); err != nil {
		return Fail, fmt.Sprintf("%s, but it does not decode: %v", found, err)
	}
	return Pass, found
}

func sizeRange(min, max int) string {
	if min == max {
		return fmt.Sprintf("%d bytes", min)
	}
	return fmt.Sprintf("%d to %d bytes", min, max)
}

func (c *solanaCheck) tips(ctx context.Context, ls *lines) {
	if len(c.s.Tips) == 0 {
		return
	}
	accts, err := c.read(ctx, c.s.Tips, 0)
	for i, t := range c.s.Tips {
		switch {
		case err != nil:
			ls.fail("tip account", t.String(), "not read: %s", reason(c.s.RPC, err))
		case accts[i] == nil:
			ls.fail("tip account", t.String(), "no such account: a tip sent there would create it, not reach the relay")
		default:
			ls.pass("tip account", t.String(), "exists, owner %s, %d lamports", accts[i].Owner, accts[i].Lamports)
		}
	}
}

func (c *solanaCheck) mints(ctx context.Context, ls *lines) {
	ms := c.s.mints()
	keys := make([]sol.PublicKey, len(ms))
	for i, m := range ms {
		keys[i] = m.addr
	}
	accts, err := c.read(ctx, keys, 0)
	for i, m := range ms {
		item := "mint " + m.symbol
		if err != nil {
			ls.fail(item, m.addr.String(), "not read: %s", reason(c.s.RPC, err))
			continue
		}
		if !m.mainnet.IsZero() && m.addr != m.mainnet {
			ls.fail(item, m.addr.String(), "not the %s mint of mainnet-beta, %s, whose cluster the RPC serves (solana.quote_mints.%s)", m.symbol, m.mainnet, m.symbol)
			continue
		}
		status, detail := checkMint(m, c.s.Programs.Token, accts[i])
		ls.add(status, item, m.addr.String(), "%s", detail)
	}
}

// checkMint judges a quote mint: owned by SPL Token, initialized, with the
// decimals the service prices it at.
func checkMint(m mint, token sol.PublicKey, got *rpc.Account) (Status, string) {
	if got == nil {
		return Fail, "no such account"
	}
	if got.Owner != token {
		return Fail, fmt.Sprintf("owner %s, want %s (SPL Token)", got.Owner, token)
	}
	b := got.Data.GetBinary()
	if len(b) < mintSize || b[mintInitializedAt] != 1 {
		return Fail, fmt.Sprintf("owner %s, but not an initialized mint (%d bytes)", got.Owner, len(b))
	}
	if d := int(b[mintDecimalsAt]); d != m.decimals {
		return Fail, fmt.Sprintf("owner %s, %d decimals, want %d", got.Owner, d, m.decimals)
	}
	return Pass, fmt.Sprintf("owner %s, %d decimals", got.Owner, m.decimals)
}

// pool checks the SOL/USD pool: a PumpSwap Pool of wrapped SOL against
// one of the stable quote mints, either side.
func (c *solanaCheck) pool(ctx context.Context, ls *lines) {
	const item = "pool SOL/USD"
	if c.s.SOLUSDPool.IsZero() {
		c.skipPool(ls)
		return
	}
	addr := c.s.SOLUSDPool.String()
	accts, err := c.read(ctx, []sol.PublicKey{c.s.SOLUSDPool}, 0)
	if err != nil {
		ls.fail(item, addr, "not read: %s", reason(c.s.RPC, err))
		return
	}
	var p pumpswap.Pool
	a := account{"SOL/USD pool", c.s.SOLUSDPool, c.s.Programs.PumpSwap, pumpswap.PoolDiscriminator, "Pool",
		pumpswap.PoolMinSize, pumpswap.PoolAccountSize, p.Decode}
	status, detail := checkAccount(a, accts[0])
	if status != Pass {
		ls.fail(item, addr, "%s", detail)
		return
	}
	stable, other := p.QuoteMint, p.BaseMint
	if p.QuoteMint == sol.SolMint {
		stable, other = p.BaseMint, p.QuoteMint
	}
	sym := c.symbolOf(stable)
	if other != sol.SolMint || sym == "" {
		ls.fail(item, addr, "%s, but it pairs %s with %s: want wrapped SOL against one of the quote mints", detail, p.BaseMint, p.QuoteMint)
		return
	}
	ls.pass(item, addr, "%s, SOL against %s", detail, sym)
}

// search asks the node for the DBC pools of a mint, as a swap of a Bags
// coin under a config other than the configured one does. A node that does
// not serve the search is a SKIP: such a coin then trades by its pool id.
func (c *solanaCheck) search(ctx context.Context, ls *lines) {
	const item = "search DBC pools by mint"
	cctx, cancel := c.calls.heavy(ctx)
	defer cancel()
	none := sol.PublicKey{}
	_, err := c.rpc.GetProgramAccountsWithOpts(cctx, c.s.Programs.DBC, &rpc.GetProgramAccountsOpts{
		Encoding: sol.EncodingBase64,
		Filters: []rpc.RPCFilter{{DataSize: dbc.VirtualPoolSize},
			{Memcmp: &rpc.RPCFilterMemcmp{Offset: dbc.VirtualPoolBaseMintOffset, Bytes: none[:]}}},
	})
	switch {
	case err == nil:
		ls.pass(item, "", "getProgramAccounts served: a Bags coin is found from its mint")
	case endpoint.Unsupported(err):
		ls.skip(item, "", "getProgramAccounts not served (%s): a Bags coin under another config than bags_pool_config trades by its pool id only", reason(c.s.RPC, err))
	default:
		ls.fail(item, "", "getProgramAccounts failed: %s", reason(c.s.RPC, err))
	}
}

const priorityFeesItem = "getRecentPrioritizationFees"

// priorityFees asks the node for getRecentPrioritizationFees, which an
// order with auto_tip prices its priority fee from: a node that does not
// serve it fails every such order.
func (c *solanaCheck) priorityFees(ctx context.Context, ls *lines) {
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	_, err := c.rpc.GetRecentPrioritizationFees(cctx, sol.PublicKeySlice{c.s.Programs.PumpFun})
	if err != nil {
		ls.fail(priorityFeesItem, "", "failed (%s): every order with auto_tip would fail", reason(c.s.RPC, err))
		return
	}
	ls.pass(priorityFeesItem, "", "served: auto_tip prices a priority fee from it")
}

// symbolOf names a stable quote mint, or "".
func (c *solanaCheck) symbolOf(m sol.PublicKey) string {
	for sym, k := range c.s.QuoteMints {
		if k == m {
			return sym
		}
	}
	return ""
}

// relay asks the bundle relay for its tip accounts, as a Jito block engine
// answers them, and checks that the signer's are among them.
func (c *solanaCheck) relay(ctx context.Context, ls *lines) {
	if c.s.Relay.URL == "" {
		ls.skip("relay", "", "solana.bundle_relay_url is empty: anti_mev and bundled launches are refused")
		return
	}
	c.bundleRelay(ctx, ls, "relay", c.s.Relay)
}

// senders checks each landing sender: its bundle endpoint as a bundle
// relay, its transaction endpoint as a JSON-RPC server (a block engine's
// transaction endpoint takes sendTransaction only, so an answer refusing
// getHealth is an answer too).
func (c *solanaCheck) senders(ctx context.Context, ls *lines) {
	for _, x := range c.s.Senders {
		if x.Transactions.URL != "" {
			c.transactionSender(ctx, ls, "sender "+x.Name+" transactions", x.Transactions)
		}
		if x.Bundles.URL != "" {
			c.bundleRelay(ctx, ls, "sender "+x.Name+" bundles", x.Bundles)
		}
	}
}

// transactionSender checks that ep answers JSON-RPC.
func (c *solanaCheck) transactionSender(ctx context.Context, ls *lines, item string, ep endpoint.Endpoint) {
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	rc := ep.JSONRPC(c.timeout)
	defer rc.Close()
	var health string
	err := rc.CallForInto(cctx, &health, "getHealth", nil)
	var rerr *jsonrpc.RPCError
	switch {
	case errors.As(err, &rerr):
		ls.pass(item, "", "answers JSON-RPC (getHealth refused, code %d: a transaction endpoint)", rerr.Code)
	case err != nil:
		ls.fail(item, "", "does not answer: %s", reason(ep, err))
	default:
		ls.pass(item, "", "answers getHealth %q", health)
	}
}

// bundleRelay checks that ep answers getTipAccounts with the tip accounts
// the signer pays.
func (c *solanaCheck) bundleRelay(ctx context.Context, ls *lines, item string, ep endpoint.Endpoint) {
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	relay := ep.JSONRPC(c.timeout)
	defer relay.Close()
	var tips []string
	err := relay.CallForInto(cctx, &tips, "getTipAccounts", nil)
	var rerr *jsonrpc.RPCError
	switch {
	case errors.As(err, &rerr):
		ls.fail(item, "", "answers, but not getTipAccounts (code %d: %s): not a bundle relay", rerr.Code, rerr.Message)
		return
	case err != nil:
		ls.fail(item, "", "does not answer: %s", reason(ep, err))
		return
	case len(tips) == 0:
		ls.fail(item, "", "answers getTipAccounts with no tip account")
		return
	}
	for _, t := range c.s.Tips {
		if !slices.Contains(tips, t.String()) {
			ls.fail(item, "", "answers getTipAccounts, but not with tip account %s, which the signer pays", t)
			return
		}
	}
	ls.pass(item, "", "answers getTipAccounts: %d tip accounts, the %d the signer pays among them", len(tips), len(c.s.Tips))
}

// metadataProbe is what the check posts to the upload endpoint: not JSON,
// so no upload endpoint stores it, while the request is the one a deploy
// makes (a POST of JSON to the configured URL) in every other respect.
const metadataProbe = "tradeapi check: not a metadata document"

// metadata checks that the upload endpoint takes a deploy's upload: a POST
// to the configured URL, as the worker makes it, of a body that is no
// document. An upload endpoint refuses it (400, 413, 415, 422), or takes
// it (2xx). An answer saying that nothing takes uploads there (404, 410, a
// 405 or 501 to a POST, a redirect, which the worker does not follow), a
// refusal of the URL's credentials and a server error fail it, naming the
// key, never the URL: every deploy would fail the same way.
func (c *solanaCheck) metadata(ctx context.Context, ls *lines) {
	const item = "metadata upload"
	const key said = "solana.metadata_upload_url"
	if c.s.Metadata.URL == "" {
		ls.skip(item, "", "%s is empty: deploys are refused", key)
		return
	}
	status, err := post(ctx, c.s.Metadata, metadataProbe, c.timeout)
	if err != nil {
		ls.fail(item, "", "does not answer: %s", reason(c.s.Metadata, err))
		return
	}
	answer := said(fmt.Sprintf("answers HTTP %d %s to a POST", status, http.StatusText(status)))
	switch {
	case status == http.StatusNotFound || status == http.StatusGone:
		ls.fail(item, "", "%s: nothing is there; %s must be the URL deploys post their metadata to", answer, key)
	case status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented:
		ls.fail(item, "", "%s: it takes no POST, which deploys upload with; check %s", answer, key)
	case status >= 300 && status < 400:
		ls.fail(item, "", "%s: a redirect, which uploads do not follow; set %s to where it leads", answer, key)
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusProxyAuthRequired:
		ls.fail(item, "", "%s: the credentials of %s are refused", answer, key)
	case status >= 500:
		ls.fail(item, "", "%s: deploys fail while it does; check %s", answer, key)
	case status >= 200 && status < 300:
		ls.pass(item, "", "%s of a malformed document: it takes uploads", answer)
	default:
		ls.pass(item, "", "%s of a malformed document: an upload endpoint refusing it", answer)
	}
}

// post sends body to the endpoint as JSON and returns the status of its
// answer; err is a request that got no answer.
func post(ctx context.Context, ep endpoint.Endpoint, body string, timeout time.Duration) (int, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, ep.StandIn(), strings.NewReader(body))
	if err != nil {
		return 0, ep.Clean(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := ep.HTTPClient(timeout).Do(req)
	var ee *endpoint.Error
	if errors.As(err, &ee) && ee.Status != 0 {
		return ee.Status, nil
	}
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
