package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/ingress"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/dbc"
	soldevnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/registry/server"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// The venue pauses (shared/venues): the Solana workers' watcher records
// each venue's state in the venues bucket, ingress and the signer refuse a
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
		u.venues = venues.NewView(u.venuesKV, u.log)
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

// venueAdmin is the registry's side of the venues bucket, nil without one.
func (u *Up) venueAdmin() server.VenueAdmin {
	if u.venuesKV == nil {
		return nil
	}
	var checkers []venues.Checker
	if u.cfg.Serves(wire.ChainSolana) {
		checkers = append(checkers, u.solanaChecker())
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
