package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/ingress"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/dbc"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/registry/server"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers"
	evmworker "github.com/tradeapi/tradeapi/workers/evm"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// The venue pauses (shared/venues): the workers' watchers (one of the
// Solana programs, one per EVM chain's Uniswap contracts) record each
// venue's state in the venues bucket, ingress and the signer refuse a
// paused venue's orders through a view of it, and the registry's admin API
// lists the states and resumes a venue after its checks.

// openVenues binds the venues bucket for this process, declaring it where
// the core connection may (up's admin connection). A process whose NATS
// user may not declare it finds it declared by the registry; when it is
// not there, the process runs without venue pauses and says so.
func (u *Up) openVenues(ctx context.Context, js jetstream.JetStream) error {
	var err error
	if u.natsRole("core") == bus.RoleAdmin {
		u.venuesKV, err = venues.Declare(ctx, js, u.cfg.NATS.Replicas)
		return err
	}
	octx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	u.venuesKV, err = venues.Open(octx, js)
	if errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, context.DeadlineExceeded) {
		u.log.Warn("the venues bucket is not declared: venue pauses are off in this process", "bucket", venues.Bucket)
		u.venuesKV = nil
		return nil
	}
	return err
}

// venueView returns this process's view of the venues bucket, started on
// first use and loaded before it is returned, or nil when the process has
// no venues bucket.
func (u *Up) venueView(ctx context.Context) (*venues.View, error) {
	if u.venuesKV == nil {
		return nil, nil
	}
	if u.venues == nil {
		u.venues = venues.NewView(u.venuesKV, u.log).Serving(u.cfg.Serves)
		u.stages.core.goRun("venues view", u.venues.Run, u.fail)
	}
	if err := waitFor(ctx, u.venues.Ready(), u.failed, "venues view"); err != nil {
		return nil, err
	}
	return u.venues, nil
}

// solanaSigner is the signer's section of the configuration, with the
// local chain's stand-ins for the keys left empty where the local chain is
// the one served.
func (u *Up) solanaSigner() solworker.Config {
	scfg := u.cfg.Solana.SolanaSigner
	if u.cfg.LocalSolana() {
		if scfg.SOLUSDPool.IsZero() {
			scfg.SOLUSDPool = soldevnet.StableSOLPool
		}
		if scfg.BagsPoolConfig.IsZero() {
			scfg.BagsPoolConfig = dbc.LocalBagsPoolConfig
		}
	}
	return scfg
}

// solanaChecker checks the Solana venues against the configured chain.
// On the local chain the simulations are paid by a throwaway key its
// faucet funds; elsewhere no payer is configured, and the checks stop at
// the deploy slots and the account layouts.
func (u *Up) solanaChecker() *venues.Solana {
	scfg := u.solanaSigner()
	vcfg := venues.SolanaConfig{SOLUSDPool: scfg.SOLUSDPool, BagsPoolConfig: scfg.BagsPoolConfig}
	switch {
	case !u.cfg.Solana.VenueProbePayer.IsZero():
		vcfg.Payer = u.cfg.Solana.VenueProbePayer
	case u.cfg.LocalSolana():
		vcfg.Payer, vcfg.Airdrop = sol.NewWallet().PublicKey(), true
	}
	if !u.cfg.LocalSolana() && u.cfg.Solana.GenesisHash != "" {
		// Checked when the file was read.
		if h, err := sol.HashFromBase58(u.cfg.Solana.GenesisHash); err == nil {
			vcfg.GenesisHash = h
		}
	}
	return venues.NewSolana(NewSolanaRPC(u.cfg.SolanaRPC(), u.cfg.Solana.RPCTimeout), vcfg, u.log)
}

// watchSolanaVenues gates signer on the venues' states and runs the
// watcher of the Solana venues beside the worker.
func (u *Up) watchSolanaVenues(ctx context.Context, signer *solworker.Signer) error {
	view, err := u.venueView(ctx)
	if err != nil || view == nil {
		return err
	}
	signer.WithVenueGate(view)
	checker := u.solanaChecker()
	if p := checker.Payer(); p.IsZero() {
		u.log.Warn("the Solana venue checks stop at the programs' deploy slots and the account layouts: set solana.venue_probe_payer to a funded account to simulate a trade on each venue too")
	} else {
		u.log.Info("the Solana venue checks simulate a trade on each venue", "payer", p.String())
	}
	w := venues.NewWatcher(venues.WatcherConfig{}, checker, venues.NewStore(u.venuesKV), u.log)
	u.stages.pipe.goRun("worker venues "+wire.ChainSolana, w.Run, u.fail)
	return nil
}

// evmContracts are the contracts of an EVM chain's venue checks, with the
// chain id and the genesis hash its RPC must serve.
func evmContracts(ch evmChain) venues.EVMContracts {
	c := ch.cfg
	return venues.EVMContracts{Router: c.Router, Factory: c.Factory, V3Factory: c.V3Factory,
		SwapRouter02: c.SwapRouter02, QuoterV2: c.QuoterV2, WrappedNative: c.WrappedNative, ChainID: c.ChainID,
		GenesisHash: ch.genesis}
}

// watchEVMVenues gates signer on the venues' states and runs, beside the
// workers, the watcher of each checker's chain (venues.EVMWatcherConfig:
// the contracts are immutable, their code is read far less often than the
// Solana programs' deploy slots).
func (u *Up) watchEVMVenues(ctx context.Context, signer *evmworker.Signer, checkers []venues.Checker) error {
	view, err := u.venueView(ctx)
	if err != nil || view == nil {
		return err
	}
	signer.WithVenueGate(view)
	store := venues.NewStore(u.venuesKV)
	for _, c := range checkers {
		w := venues.NewWatcher(venues.EVMWatcherConfig(), c, store, u.log)
		u.stages.pipe.goRun("worker venues "+c.Chain(), w.Run, u.fail)
	}
	return nil
}

// evmChecker is the checker of an EVM chain's venues for the admin API,
// which starts before the local chains may answer: the chain's contracts
// are resolved, and its RPC dialled, at the first check, and again after a
// check that could not resolve them.
type evmChecker struct {
	u    *Up
	name string

	mu sync.Mutex
	c  *venues.EVM
}

// Chain is the chain's name.
func (e *evmChecker) Chain() string { return e.name }

// Venues are uniswap_v2 and uniswap_v3.
func (e *evmChecker) Venues() []string { return venues.EVMVenues }

// Fingerprints is venues.EVM's, once the chain is resolved.
func (e *evmChecker) Fingerprints(ctx context.Context) (venues.Fingerprints, error) {
	c, err := e.checker(ctx)
	if err != nil {
		return venues.Fingerprints{}, err
	}
	return c.Fingerprints(ctx)
}

// Check is venues.EVM's, once the chain is resolved.
func (e *evmChecker) Check(ctx context.Context, venue string) (venues.Verdict, error) {
	c, err := e.checker(ctx)
	if err != nil {
		return venues.Verdict{}, err
	}
	return c.Check(ctx, venue)
}

func (e *evmChecker) checker(ctx context.Context) (*venues.EVM, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.c != nil {
		return e.c, nil
	}
	ch, err := e.u.evmChain(ctx, e.name)
	if err != nil {
		return nil, err
	}
	// Through the endpoint, so that no error carries the URL. The client
	// lives as long as the process: over HTTP it holds no more than idle
	// connections.
	rc, err := endpoint.New(e.name+" rpc", ch.rpcURL).DialEVM(ctx, e.u.cfg.EVM.RPCTimeout)
	if err != nil {
		return nil, err
	}
	e.c = venues.NewEVM(e.name, rc, evmContracts(ch), e.u.log)
	return e.c, nil
}

// venueAdmin is the registry's side of the venues bucket, nil without one.
func (u *Up) venueAdmin() server.VenueAdmin {
	if u.venuesKV == nil {
		return nil
	}
	var checkers []venues.Checker
	if u.cfg.Serves(wire.ChainSolana) {
		checkers = append(checkers, u.solanaChecker())
	}
	for _, name := range wire.EVMChains {
		if u.cfg.Serves(name) {
			checkers = append(checkers, &evmChecker{u: u, name: name})
		}
	}
	return venues.NewAdmin(venues.NewStore(u.venuesKV), u.log, checkers...)
}

// ingressVenues is ingress's view of the venues' states: nil (no check)
// without a venues bucket.
func (u *Up) ingressVenues(ctx context.Context) (ingress.Venues, error) {
	view, err := u.venueView(ctx)
	if err != nil {
		return nil, fmt.Errorf("venues: %w", err)
	}
	if view == nil {
		return nil, nil
	}
	return view, nil
}

// workerVenues is the workers' view of the venues' states, nil (no check)
// where this process has none.
func (u *Up) workerVenues() workers.VenueGate {
	if u.venues == nil {
		return nil
	}
	return u.venues
}
