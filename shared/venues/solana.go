package venues

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/solanaloader"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// SolanaRPC is the part of a Solana JSON-RPC client the checks use;
// *rpc.Client implements it.
type SolanaRPC interface {
	GetMultipleAccountsWithOpts(ctx context.Context, accounts []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error)
	SimulateRawTransactionWithOpts(ctx context.Context, tx []byte, opts *rpc.SimulateTransactionOpts) (*rpc.SimulateTransactionResponse, error)
	GetBalance(ctx context.Context, account sol.PublicKey, commitment rpc.CommitmentType) (*rpc.GetBalanceResult, error)
	RequestAirdrop(ctx context.Context, account sol.PublicKey, lamports uint64, commitment rpc.CommitmentType) (sol.Signature, error)
	GetGenesisHash(ctx context.Context) (sol.Hash, error)
}

// SolanaConfig configures the checks of the Solana venues.
type SolanaConfig struct {
	// Payer is a funded system account that pays for, and makes, the
	// simulated trades. Nothing is ever signed with it and nothing lands:
	// simulateTransaction runs without signature checks. Zero turns the
	// simulations off; the deploy slots and the layouts are still checked.
	Payer sol.PublicKey
	// Airdrop tops Payer up through requestAirdrop when it runs low: for a
	// local or test cluster, whose faucet gives SOL away.
	Airdrop bool
	// SOLUSDPool is the PumpSwap pool whose tiny trade stands for the
	// venue: the pool the signer prices SOL in. Zero: PumpSwap is not
	// simulated.
	SOLUSDPool sol.PublicKey
	// BagsPoolConfig is the DBC config bags launches use. Zero: the DBC
	// config is neither checked nor launched on in a simulation.
	BagsPoolConfig sol.PublicKey
	// GenesisHash is the cluster the RPC must serve (solana.genesis_hash):
	// an RPC of another cluster (a devnet's, a test validator's) pauses
	// every venue, so that nothing is signed for one cluster and sent to
	// another. Zero: not compared (the local chain).
	GenesisHash sol.Hash
}

// Lamports the simulations need: each launches or trades a little and opens
// a few accounts, rent included, well under the floor below.
const (
	PayerFloor   = 100_000_000   // 0.1 SOL: the least a payer holds for the checks to run (tradeapi check holds it to that too)
	payerTopUp   = 1_000_000_000 // 1 SOL
	probeLamport = 1_000_000     // 0.001 SOL: what each canonical trade spends
)

// bpfLoaderUpgradeable owns every upgradeable program and its program-data.
var bpfLoaderUpgradeable = sol.BPFLoaderUpgradeableProgramID

// solanaPrograms are the programs of the Solana venues.
var solanaPrograms = map[string]sol.PublicKey{
	PumpFun:   pumpfun.ProgramID,
	PumpSwap:  pumpswap.ProgramID,
	LaunchLab: launchlab.ProgramID,
	DBC:       dbc.ProgramID,
}

// Solana checks the Solana venues' programs. It is safe for concurrent
// use.
type Solana struct {
	rpc SolanaRPC
	cfg SolanaConfig
	log *slog.Logger

	fundMu sync.Mutex // one top-up at a time

	// The cluster's genesis hash as last read, and when: Fingerprints
	// asks again every genesisFresh (a cluster's hash never changes; an
	// RPC moved to another cluster also moves the deploy slots, which
	// starts a check, and a check always asks).
	genesisMu     sync.Mutex
	genesisSeen   string
	genesisReadAt time.Time
	genesisWarns  lograte.Warner // a failed read's warning, once a minute
}

// genesisFresh is how long Fingerprints trusts the genesis hash it read.
const genesisFresh = 10 * time.Second

// NewSolana returns the checker of the Solana venues, reading through rpc.
func NewSolana(rpc SolanaRPC, cfg SolanaConfig, log *slog.Logger) *Solana {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Solana{rpc: rpc, cfg: cfg, log: log.With("component", "venues", "chain", wire.ChainSolana)}
}

// Chain is solana.
func (s *Solana) Chain() string { return wire.ChainSolana }

// Payer is the account that pays the simulated trades; zero when the
// checks stop at the deploy slots and the layouts.
func (s *Solana) Payer() sol.PublicKey { return s.cfg.Payer }

// Venues are pump_fun, pumpswap, launchlab and dbc.
func (s *Solana) Venues() []string { return SolanaVenues }

// deployment is what the loader's accounts say of a program.
type deployment struct {
	program     sol.PublicKey
	deployed    bool
	upgradeable bool
	slot        uint64 // the last deploy, for an upgradeable program
	fingerprint string
}

// programData are the program-data addresses of the venues' programs.
var programData = func() map[string]sol.PublicKey {
	m := make(map[string]sol.PublicKey, len(solanaPrograms))
	for v, p := range solanaPrograms {
		m[v] = solanaloader.ProgramDataAddress(p)
	}
	return m
}()

// deploymentOf reads a program account and its program-data header.
func deploymentOf(program sol.PublicKey, prog, data *rpc.Account) deployment {
	d := deployment{program: program}
	switch {
	case prog == nil || !prog.Executable:
		d.fingerprint = "not deployed"
		return d
	case prog.Owner != bpfLoaderUpgradeable:
		// A program that cannot be upgraded changes only by being closed;
		// its account's bytes stand for it.
		sum := sha256.Sum256(prog.Data.GetBinary())
		d.deployed, d.fingerprint = true, "loader "+prog.Owner.String()+" "+hex.EncodeToString(sum[:8])
		return d
	}
	l := solanaloader.Read(program, prog, data)
	switch l.State {
	case solanaloader.NotProgram:
		d.fingerprint = "program account not readable"
	case solanaloader.Moved:
		d.fingerprint = "program-data moved to " + l.Named.String()
	case solanaloader.DataMissing:
		d.fingerprint = "program-data missing"
	case solanaloader.DataUnreadable:
		d.fingerprint = "program-data not readable"
	case solanaloader.Deployed:
		d.deployed, d.upgradeable, d.slot = true, true, l.Slot
		d.fingerprint = fmt.Sprintf("deployed at slot %d", d.slot)
	}
	return d
}

// deployments reads the program and program-data accounts of venues in
// one call. Only the program-data headers are asked for: a program's image
// is hundreds of kilobytes.
func (s *Solana) deployments(ctx context.Context, venues ...string) (map[string]deployment, uint64, error) {
	keys := make([]sol.PublicKey, 0, 2*len(venues))
	for _, v := range venues {
		keys = append(keys, solanaPrograms[v], programData[v])
	}
	off, n := uint64(0), uint64(solanaloader.ProgramDataHeaderSize)
	res, err := s.rpc.GetMultipleAccountsWithOpts(ctx, keys, &rpc.GetMultipleAccountsOpts{
		Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed, DataSlice: &rpc.DataSlice{Offset: &off, Length: &n}})
	if err != nil {
		return nil, 0, fmt.Errorf("read venue programs: %w", err)
	}
	if len(res.Value) != len(keys) {
		return nil, 0, fmt.Errorf("read venue programs: %d accounts for %d keys", len(res.Value), len(keys))
	}
	out := make(map[string]deployment, len(venues))
	for i, v := range venues {
		out[v] = deploymentOf(solanaPrograms[v], res.Value[2*i], res.Value[2*i+1])
	}
	return out, res.Context.Slot, nil
}

// Fingerprints reads every venue program's deploy slot in one call, and
// the cluster the RPC serves when a genesis hash is configured.
func (s *Solana) Fingerprints(ctx context.Context) (Fingerprints, error) {
	ds, slot, err := s.deployments(ctx, SolanaVenues...)
	if err != nil {
		return Fingerprints{}, err
	}
	genesis := s.genesis(ctx, false)
	fp := Fingerprints{Height: slot, Of: make(map[string]string, len(ds))}
	for v, d := range ds {
		fp.Of[v] = d.fingerprint + genesis
	}
	return fp, nil
}

// genesis returns the genesis hash of the cluster the RPC serves, as a
// fingerprint's suffix: "" when none is configured to compare with. When
// getGenesisHash fails it is the hash this process read last, or
// genesisUnknown when it never read one (the failure is logged, once a
// minute). fresh asks the RPC whatever was read before.
func (s *Solana) genesis(ctx context.Context, fresh bool) string {
	if s.cfg.GenesisHash.IsZero() {
		return ""
	}
	s.genesisMu.Lock()
	seen, at := s.genesisSeen, s.genesisReadAt
	s.genesisMu.Unlock()
	if !fresh && seen != "" && time.Since(at) < genesisFresh {
		return seen
	}
	h, err := s.rpc.GetGenesisHash(ctx)
	if err != nil {
		if seen == "" {
			// Never said, in this process: another cluster cannot be
			// ruled out, and the venues pause until it is (wrongCluster).
			seen = genesisUnknown
		}
		s.genesisWarns.WarnContext(ctx, s.log, "", "the RPC does not say which cluster it serves (getGenesisHash)",
			"err", rpcReason(err), "last_known", strings.TrimPrefix(seen, ", genesis "))
		return seen
	}
	seen = ", genesis " + h.String()
	s.genesisMu.Lock()
	s.genesisSeen, s.genesisReadAt = seen, time.Now()
	s.genesisMu.Unlock()
	return seen
}

// rpcReason is an RPC call's error in one line: a JSON-RPC error's code
// and message (solana-go prints the whole structure).
func rpcReason(err error) string {
	var rerr *jsonrpc.RPCError
	if errors.As(err, &rerr) {
		return fmt.Sprintf("code %d: %s", rerr.Code, rerr.Message)
	}
	return err.Error()
}

// genesisUnknown is the fingerprint's suffix while the RPC has not said
// which cluster it serves.
const genesisUnknown = ", genesis unknown"

// wrongCluster says how the RPC's cluster differs from the configured
// one, or that the RPC has not said which it serves; "" when it serves
// the configured one (or none is configured).
func (s *Solana) wrongCluster(genesis string) string {
	if want := ", genesis " + s.cfg.GenesisHash.String(); genesis == "" || genesis == want {
		return ""
	}
	if genesis == genesisUnknown {
		return fmt.Sprintf("the RPC does not say which cluster it serves (its getGenesisHash fails), and solana.genesis_hash is %s: "+
			"nothing is signed until it does, since an order signed for one cluster must not be sent to another", s.cfg.GenesisHash)
	}
	return fmt.Sprintf("the RPC serves the cluster of %s, not the configured solana.genesis_hash %s: nothing is signed for one cluster and sent to another",
		strings.TrimPrefix(genesis, ", "), s.cfg.GenesisHash)
}

// Check checks one venue: its program is deployed, the accounts the
// service decodes still have their layouts, and a tiny canonical trade (a
// launch with its first buy where the service launches on the venue) built
// with the service's codecs simulates without an error of the program's
// account or instruction checks.
func (s *Solana) Check(ctx context.Context, venue string) (Verdict, error) {
	if _, ok := solanaPrograms[venue]; !ok {
		return Verdict{}, fmt.Errorf("%w %q on solana", ErrUnknownVenue, venue)
	}
	ds, slot, err := s.deployments(ctx, venue)
	if err != nil {
		return Verdict{}, err
	}
	genesis := s.genesis(ctx, true)
	d := ds[venue]
	v := Verdict{OK: true, Fingerprint: d.fingerprint + genesis, Height: slot}
	if wrong := s.wrongCluster(genesis); wrong != "" {
		v.AnotherChain = true
		return v.fail("%s: %s", venue, wrong), nil
	}
	if !d.deployed {
		return v.fail("%s program %s: %s", venue, d.program, d.fingerprint), nil
	}
	st, problem, err := s.readLayouts(ctx, venue)
	if err != nil {
		return Verdict{}, err
	}
	if problem != "" {
		return v.fail("%s (%s): %s", venue, d.fingerprint, problem), nil
	}
	if s.cfg.Payer.IsZero() {
		v.Unsimulated = "no payer for the simulated trade (solana.venue_probe_payer)"
		return v, nil
	}
	p, err := s.probe(ctx, venue, st)
	if err != nil {
		return Verdict{}, err
	}
	if p == nil {
		// Nothing to trade on: layouts only.
		switch venue {
		case PumpSwap:
			v.Unsimulated = "no pool to trade on (solana.sol_usd_pool)"
		case DBC:
			v.Unsimulated = "no pool config to trade on (solana.bags_pool_config)"
		}
		return v, nil
	}
	if err := s.fund(ctx); err != nil {
		return Verdict{}, err
	}
	out, err := s.simulate(ctx, p)
	if err != nil {
		return Verdict{}, err
	}
	switch {
	case !out.conclusive:
		return Verdict{}, fmt.Errorf("simulate %s: %s", p.what, out.detail)
	case !out.ok:
		return v.fail("%s program %s (%s) refuses the service's %s: %s", venue, d.program, d.fingerprint, out.instruction, out.detail), nil
	}
	if out.detail != "" {
		s.log.Debug("venue simulation ended in a business error", "venue", venue, "detail", out.detail)
	}
	return v, nil
}

// fail turns v into a failed verdict.
func (v Verdict) fail(format string, args ...any) Verdict {
	v.OK = false
	v.Reason = fmt.Sprintf(format, args...)
	return v
}

// fund makes sure the payer can pay for the simulations, topping it up
// from the cluster's faucet where that is allowed. A payer short of funds
// makes every simulation inconclusive rather than a reason to pause.
func (s *Solana) fund(ctx context.Context) error {
	s.fundMu.Lock()
	defer s.fundMu.Unlock()
	bal, err := s.rpc.GetBalance(ctx, s.cfg.Payer, rpc.CommitmentConfirmed)
	if err != nil {
		return fmt.Errorf("balance of the simulation payer: %w", err)
	}
	if bal.Value >= PayerFloor {
		return nil
	}
	if !s.cfg.Airdrop {
		return fmt.Errorf("the simulation payer %s holds %d lamports, below %d: fund it", s.cfg.Payer, bal.Value, PayerFloor)
	}
	if _, err := s.rpc.RequestAirdrop(ctx, s.cfg.Payer, payerTopUp, rpc.CommitmentConfirmed); err != nil {
		return fmt.Errorf("airdrop to the simulation payer: %w", err)
	}
	s.log.Info("simulation payer topped up", "payer", s.cfg.Payer, "lamports", payerTopUp)
	return nil
}
