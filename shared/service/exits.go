package service

import (
	"context"
	"fmt"
	"math"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers/exits"
)

// startExits runs the exits engine over Solana and every EVM chain this
// node reaches.
func (u *Up) startExits(ctx context.Context) error {
	eng, err := u.newExits(ctx, "exits", nil)
	if err != nil {
		return err
	}
	u.stages.pipe.goRun("exits", eng.Run, u.fail)
	return nil
}

// newExits returns an exits engine on its own NATS connection; tune, when
// set, adjusts its configuration.
func (u *Up) newExits(ctx context.Context, name string, tune func(*exits.Config)) (*exits.Engine, error) {
	cfg := u.cfg
	_, js, err := u.connect(name)
	if err != nil {
		return nil, err
	}
	engineChains := map[string]exits.Chain{}
	// Prices are read only where the chain is served; a position on an
	// unserved chain cannot be sold there anyway.
	if cfg.Serves(wire.ChainSolana) {
		engineChains[wire.ChainSolana] = exits.NewSolana(NewSolanaRPC(cfg.SolanaRPC(), cfg.Solana.RPCTimeout), cfg.Solana.RPCTimeout)
	}
	list, err := u.evmChains(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range list {
		ep := endpoint.New(c.cfg.Name+" rpc", c.rpcURL)
		rc, err := ep.DialEVM(ctx, cfg.EVM.RPCTimeout)
		if err != nil {
			return nil, fmt.Errorf("exits: evm %s: %w", c.cfg.Name, err)
		}
		u.closers = append(u.closers, rc.Close)
		native := ""
		if ch, ok := chains.Get(c.cfg.Name); ok {
			native = ch.Native
		}
		// ethclient takes the bare client, whose node errors are the
		// node's words, which may quote the key-bearing path: cleaned
		// before they leave the chain, as the worker's are (its code and
		// data kept, the data scrubbed too).
		engineChains[c.cfg.Name] = exits.NewEVM(c.cfg.Name, ethclient.NewClient(rc.Client), c.cfg.NativeQuote(), native,
			c.cfg.Quotes, cfg.EVM.RPCTimeout).WithClean(rc.CleanNode)
	}
	ec := exits.Config{
		PollInterval:    cfg.Exits.PollInterval,
		ReadConcurrency: cfg.Exits.ReadConcurrency,
		SellSlippageBps: uint32(math.Round(cfg.Exits.SellSlippagePct * 100)),
		AutoTip:         cfg.Exits.AutoTip,
		MaxAttempts:     cfg.Exits.MaxAttempts,
		Network:         cfg.Network,
	}
	// A buyer's account's other wallets are never a token's creator for
	// dev_sell.
	accounts, err := u.registryView(ctx)
	if err != nil {
		return nil, fmt.Errorf("exits: registry: %w", err)
	}
	ec.Owns = func(account string, f wire.Family, address string) bool {
		a, ok := accounts.Account(account)
		if !ok {
			return false
		}
		_, ok = a.Wallet(f, address)
		return ok
	}
	ec.FeeCaps = func(account string, f wire.Family) registry.FeeCaps {
		if a, ok := accounts.Account(account); ok {
			return a.FeeCaps(f)
		}
		return registry.DefaultFeeCaps(f)
	}
	view, err := u.venueView(ctx)
	if err != nil {
		return nil, fmt.Errorf("exits: venues: %w", err)
	}
	if view != nil {
		ec.Venues = view
	}
	if tune != nil {
		tune(&ec)
	}
	return exits.New(ec, js, u.buckets, engineChains, u.log)
}
