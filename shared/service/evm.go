package service

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
	evmworker "github.com/tradeapi/tradeapi/workers/evm"
)

// evmChain is one EVM chain as the workers and the broadcaster reach it.
type evmChain struct {
	cfg      evmworker.ChainConfig
	rpcURL   string
	relayURL string
	// genesis is the hash of block 0 the venue watcher compares the RPC's
	// with (evm.chains.<name>.genesis_hash); zero on a local chain, which
	// is never compared, and where none is configured.
	genesis common.Hash
	// confirmations are the blocks built on a transaction's block before
	// its order is final (evm.chains.<name>.confirmations); 0 on a local
	// chain.
	confirmations uint64
}

// evmChains resolves every EVM chain this node should serve: the configured
// ones, and when the local chains are enabled the others from the local
// chain's own account of its deployment. A chain neither configured nor
// local is not served.
func (u *Up) evmChains(ctx context.Context) ([]evmChain, error) {
	var out []evmChain
	for _, name := range wire.EVMChains {
		if !u.serves(name) && !u.serves(wire.ChainAnyEVM) {
			continue
		}
		if !u.cfg.Serves(name) {
			continue
		}
		ch, err := u.evmChain(ctx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// evmChain resolves one served EVM chain: its evm.chains entry, or the
// local chain's own account of its deployment.
func (u *Up) evmChain(ctx context.Context, name string) (evmChain, error) {
	if c, ok := u.cfg.EVM.Chains[name]; ok {
		cc, err := evmworker.ChainFromConfig(name, c)
		if err != nil {
			return evmChain{}, err
		}
		// Checked when the file was read; empty is zero.
		genesis, _ := config.ParseGenesisHash(c.GenesisHash)
		return evmChain{cfg: cc, rpcURL: c.RPCURL, relayURL: c.RelayURL, genesis: genesis, confirmations: c.Confirmations}, nil
	}
	return localEVM(ctx, name, "http://"+u.cfg.Devnet.Addr+"/evm/"+name)
}

// localEVM asks a local chain for its deployment, waiting for a devnet
// process that is still starting.
func localEVM(ctx context.Context, name, url string) (evmChain, error) {
	if err := waitHTTP(ctx, endpoint.New("local "+name+" chain", url), 60*time.Second); err != nil {
		return evmChain{}, err
	}
	c, err := endpoint.New(name+" rpc", url).DialEVM(ctx, 10*time.Second)
	if err != nil {
		return evmChain{}, fmt.Errorf("local %s chain: %w", name, err)
	}
	defer c.Close()
	var d evmdevnet.Deployment
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := c.CallContext(cctx, &d, "devnet_deployment"); err != nil {
		return evmChain{}, fmt.Errorf("local %s chain deployment: %w", name, err)
	}
	// The local chain runs the official contracts; its relay takes
	// bundles and their tips at its tip address.
	cc := evmworker.ChainConfig{Name: name, ChainID: new(big.Int).SetUint64(d.ChainID), Router: d.Router02,
		Factory: d.Factory, V3Factory: d.V3Factory, SwapRouter02: d.SwapRouter02, QuoterV2: d.QuoterV2,
		WrappedNative: d.WrappedNative, NativeToken: d.NativeToken, TipAddress: d.RelayTipAddress, PrivateRelay: true, Quotes: d.Stables,
		USDPricing: evmworker.PricingOf(name, "")}
	if err := cc.Validate(); err != nil {
		return evmChain{}, fmt.Errorf("local %s chain: %w", name, err)
	}
	return evmChain{cfg: cc, rpcURL: url, relayURL: url + "/relay"}, nil
}

// startEVMWorkers runs a worker per served EVM chain and one for jobs that
// name no chain, all sharing one signer, each checking wallets against
// view.
func (u *Up) startEVMWorkers(ctx context.Context, keys evmworker.KeySource, view *registry.View) error {
	list, err := u.evmChains(ctx)
	if err != nil || len(list) == 0 {
		return err
	}
	var signerChains []evmworker.Chain
	var checkers []venues.Checker
	for _, c := range list {
		// Through the endpoint, so that no error of the client carries the
		// URL (and the provider key in it).
		rc, err := endpoint.New(c.cfg.Name+" rpc", c.rpcURL).DialEVM(ctx, u.cfg.EVM.RPCTimeout)
		if err != nil {
			return fmt.Errorf("evm %s: %w", c.cfg.Name, err)
		}
		u.closers = append(u.closers, rc.Close)
		signerChains = append(signerChains, evmworker.Chain{ChainConfig: c.cfg, Client: evmworker.NewClient(rc)})
		checkers = append(checkers, venues.NewEVM(c.cfg.Name, rc, evmContracts(c), u.log))
	}
	wnc, wjs, err := u.connect("worker-evm")
	if err != nil {
		return err
	}
	txs, err := wjs.Stream(ctx, bus.StreamTxs)
	if err != nil {
		return fmt.Errorf("evm workers: stream %s: %w", bus.StreamTxs, err)
	}
	// A nonce whose batch waits in TXS for a broadcaster is not lost.
	store := orders.NewStore(u.buckets.Orders)
	nonces := evmworker.NewNonces(u.buckets.Nonces, 0, u.log).WithInFlight(evmworker.BatchesInFlight(txs, store)).
		WithEnded(evmworker.OrdersEnded(store)).WithApprovalsRefused(evmworker.BatchesApprovalRefused(txs, store))
	// The signer takes its section of the file as decoded.
	signer, err := evmworker.NewSigner(signerChains, keys, nonces, u.cfg.EVM.EVMSigner, u.log)
	if err != nil {
		return err
	}
	signer.WithSkipClaims(u.skipClaims())
	// The venues are watched where their orders are signed, and the
	// signer refuses a paused venue's orders.
	if err := u.watchEVMVenues(ctx, signer, checkers); err != nil {
		return err
	}
	names := []string{}
	for _, c := range list {
		if u.serves(c.cfg.Name) {
			names = append(names, c.cfg.Name)
		}
	}
	if u.serves(wire.ChainAnyEVM) {
		names = append(names, wire.ChainAnyEVM)
	}
	for _, name := range names {
		w := newWorker(u, name, wnc, wjs, signer, view)
		u.stages.pipe.goRun("worker "+name, w.Run, u.fail)
	}
	// A nonce that never reached a chain holds the wallet's later
	// transactions back until it is filled.
	u.stages.pipe.goRun("evm nonce gaps", signer.FillGaps, u.fail)
	return nil
}

// evmBroadcasters returns the broadcaster's chain of every EVM chain.
func (u *Up) evmBroadcasters(ctx context.Context) (map[string]broadcaster.Chain, error) {
	list, err := u.evmChains(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]broadcaster.Chain{}
	for _, c := range list {
		rc, err := endpoint.New(c.cfg.Name+" rpc", c.rpcURL).DialEVM(ctx, u.cfg.EVM.RPCTimeout)
		if err != nil {
			return nil, fmt.Errorf("evm %s: %w", c.cfg.Name, err)
		}
		u.closers = append(u.closers, rc.Close)
		var relay broadcaster.EVMRPC
		if c.relayURL != "" {
			rr, err := endpoint.New(c.cfg.Name+" relay", c.relayURL).DialEVM(ctx, u.cfg.EVM.RPCTimeout)
			if err != nil {
				return nil, fmt.Errorf("evm %s relay: %w", c.cfg.Name, err)
			}
			u.closers = append(u.closers, rr.Close)
			// Assigned only when set: a nil *EVMClient in the interface
			// would not be nil.
			relay = rr
		}
		out[c.cfg.Name] = broadcaster.NewEVM(rc, relay, broadcaster.EVMConfig{RelayName: c.cfg.Name + " relay", Confirmations: c.confirmations})
	}
	return out, nil
}
