package evm

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/miner"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// ChainConfig configures one local chain.
type ChainConfig struct {
	// Name is the chain: eth, bsc, base, rbh or arc.
	Name string
	// Alloc gives addresses native coin (wei) at genesis, besides the
	// deployer's.
	Alloc map[common.Address]*big.Int
	// SealInterval is how often the chain looks for pending transactions
	// that arrived without a notification (re-sent or promoted ones).
	// Transactions normally get a block as soon as they arrive. Default
	// 100 ms.
	SealInterval time.Duration
	// BlockTime, when positive, seals blocks on a clock instead: one every
	// BlockTime while transactions wait, holding all of them, as a public
	// chain does. A block per transaction costs the process a block's
	// execution, hashing and write for every order, right when the order's
	// next steps need the cores; a clock shares one block among the
	// transactions of its interval. Zero: a block as soon as a transaction
	// arrives.
	BlockTime time.Duration
	// MaxClockDrift bounds how far block timestamps may run ahead of the
	// wall clock before blocks slow down to one a second. Default 24 h.
	MaxClockDrift time.Duration
	// RelayTipAddress is where bundles sent to the private relay pay their
	// tips (see Chain.SendBundle). Zero is DefaultRelayTipAddress.
	RelayTipAddress common.Address
	// Dir keeps the chain in a folder: NewChain on a folder a chain was
	// closed in (or crashed in) reopens it with its blocks, receipts,
	// balances, contracts and nonces. A folder holding something else is
	// refused (ErrStateDir). Empty keeps the chain in memory, gone at
	// Close.
	Dir string
	// Logger gets the chain's own messages; nil discards them.
	Logger *slog.Logger
}

func (c ChainConfig) withDefaults() ChainConfig {
	if c.SealInterval <= 0 {
		c.SealInterval = 100 * time.Millisecond
	}
	if c.BlockTime < 0 {
		c.BlockTime = 0
	}
	if c.MaxClockDrift <= 0 {
		c.MaxClockDrift = 24 * time.Hour
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.RelayTipAddress == (common.Address{}) {
		c.RelayTipAddress = DefaultRelayTipAddress
	}
	return c
}

// Chain is one local EVM chain. Its methods are safe for concurrent use.
type Chain struct {
	spec spec
	cfg  ChainConfig
	log  *slog.Logger

	node *node.Node
	eth  *eth.Ethereum
	// beacon is the consensus side of a fresh chain's genesis; the blocks
	// after it are built and imported by seal and sealBundle.
	beacon *catalyst.SimulatedBeacon
	// direct talks to the node in process, for the chain's own use; rpc
	// and client go through the gate like an HTTP client (see gate.go).
	direct *ethclient.Client
	rpc    *rpc.Client
	client *ethclient.Client
	public *rpc.Server
	relay  *rpc.Server

	// gate is held for writing while a sealed block is made the head and
	// the pool is reset to it, and for reading by every outside request,
	// so that no client sees a receipt before the pool has seen its block.
	gate sync.RWMutex
	// sealing serialises the blocks' building (seal, sealBundle): each
	// builds on the head the one before made. It is taken before gate.
	sealing sync.Mutex
	// synced is the number of the last block the pool was reset to.
	synced atomic.Uint64
	// poolSync serialises the calls that wait for the pool's reset
	// (TxPool.Sync, which the simulated beacon's Fork makes too): the
	// pool keeps one waiter, and a second call while the first waits
	// would leave the first waiting for ever.
	poolSync sync.Mutex

	deployment Deployment
	// nonceBase is DeployerKey's genesis nonce (see nonceBase): the
	// marker's on a chain reopened from its folder (0 when the folder
	// predates it), else the chain's own.
	nonceBase uint64

	// admin serialises the transactions of DeployerKey.
	admin sync.Mutex

	relayMu      sync.Mutex
	relayed      map[common.Hash]bool
	relayedOrder []common.Hash

	// sealed is closed and replaced after every sealed block.
	sealMu sync.Mutex
	sealed chan struct{}

	wake      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// NewChain starts a local chain and deploys its contracts, or, with
// cfg.Dir holding a chain closed earlier, reopens that chain as it was.
// Close releases it.
func NewChain(cfg ChainConfig) (*Chain, error) {
	sp, err := specOf(cfg.Name)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	c := &Chain{
		spec:    sp,
		cfg:     cfg,
		log:     cfg.Logger.With("component", "devnet", "chain", sp.name),
		relayed: map[common.Hash]bool{},
		sealed:  make(chan struct{}),
		wake:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	c.nonceBase = nonceBase(sp.name)
	if base, ok := markedNonceBase(cfg.Dir); ok {
		c.nonceBase = base
	}
	start := time.Now()
	if err := c.startNode(); err != nil {
		return nil, fmt.Errorf("start local %s chain: %w", sp.name, err)
	}
	head := c.eth.BlockChain().CurrentBlock()
	c.synced.Store(head.Number.Uint64())
	go c.sealLoop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.deploy(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("deploy contracts on local %s chain: %w", sp.name, err)
	}
	// Until the transaction indexer's first pass is done, a lookup of an
	// unknown transaction answers "indexing is in progress" instead of
	// null, which clients would take for a failure.
	for !c.eth.BlockChain().TxIndexDone() {
		select {
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("local %s chain: transaction index: %w", sp.name, ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
	if head.Number.Sign() > 0 {
		c.log.Info("local evm chain reopened", "chain_id", sp.chainID, "dir", cfg.Dir,
			"block", head.Number, "router02", c.deployment.Router02, "took", time.Since(start))
	} else {
		c.log.Info("local evm chain started", "chain_id", sp.chainID, "dir", cfg.Dir,
			"router02", c.deployment.Router02, "took", time.Since(start))
	}
	return c, nil
}

// genesis returns the chain's genesis block.
func (c *Chain) genesis() *core.Genesis {
	alloc := core.SystemContractAllocs()
	alloc[DeployerAddress] = types.Account{Balance: deployerBalance, Nonce: c.nonceBase}
	for a, wei := range c.cfg.Alloc {
		alloc[a] = types.Account{Balance: new(big.Int).Set(wei)}
	}
	// The forks of Ethereum mainnet (through Osaka), not the draft forks a
	// go-ethereum dev chain also enables, whose gas schedule no live chain
	// uses.
	chainConfig := *params.AllDevChainProtocolChanges
	chainConfig.ChainID = big.NewInt(c.spec.chainID)
	chainConfig.BogotaTime = nil
	chainConfig.AmsterdamTime = nil
	return &core.Genesis{
		Config:   &chainConfig,
		GasLimit: ethconfig.Defaults.Miner.GasCeil,
		BaseFee:  big.NewInt(params.InitialBaseFee),
		Alloc:    alloc,
	}
}

// startNode assembles a go-ethereum node with no network, the way
// ethclient/simulated does, but with the chain's own id and fee recipient,
// its APIs kept for the HTTP handlers, and its database in memory or in
// ChainConfig.Dir.
func (c *Chain) startNode() error {
	genesis := c.genesis()
	nodeConf := node.DefaultConfig
	nodeConf.Name = gethDirName
	nodeConf.DataDir = ""
	nodeConf.IPCPath = ""
	nodeConf.HTTPHost = ""
	nodeConf.WSHost = ""
	nodeConf.P2P = p2p.Config{NoDiscovery: true, MaxPeers: 0}
	ethConf := ethconfig.Defaults
	if dir := c.cfg.Dir; dir != "" {
		err := openStateDir(dir, stateMarker{Format: stateFormat, Chain: c.spec.name,
			ChainID: c.spec.chainID, Genesis: genesis.ToBlock().Hash(), NonceBase: c.nonceBase})
		if err != nil {
			return err
		}
		nodeConf.DataDir = dir
		nodeConf.KeyStoreDir = filepath.Join(dir, gethDirName, "keystore")
		// Every block's state is written with the block (hash-keyed trie
		// nodes, never pruned), so a chain that stopped without Close
		// reopens at its last block. go-ethereum's default, path-keyed
		// state keeps the newest states in memory until a flush and
		// would rewind such a chain to that flush.
		ethConf.StateScheme = rawdb.HashScheme
		ethConf.NoPruning = true
	}
	stack, err := node.New(&nodeConf)
	if err != nil {
		if c.cfg.Dir != "" {
			return fmt.Errorf("node in %s: %w", c.cfg.Dir, err)
		}
		return fmt.Errorf("node: %w", err)
	}
	if c.cfg.Dir == "" {
		// Without a data folder, go-ethereum makes a key store folder in
		// the system's temporary folder and removes it only at Close: a
		// process killed, or a test that never closes its chain, leaves it
		// behind. The chain holds no keys there (the node has no key
		// backend), so it goes at once.
		if err := os.RemoveAll(stack.KeyStoreDir()); err != nil {
			stack.Close()
			return fmt.Errorf("node: remove its temporary key store: %w", err)
		}
	}

	ethConf.Genesis = genesis
	ethConf.NetworkId = uint64(c.spec.chainID)
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	ethConf.LogNoHistory = true
	// Small caches: the state of a local chain is tiny, and several chains
	// share one process.
	ethConf.TrieCleanCache = 16
	ethConf.TrieDirtyCache = 16
	ethConf.SnapshotCache = 16
	ethConf.DatabaseCache = 16
	// The prefetcher warms the trie nodes a block will touch on other
	// goroutines while the block executes: on a state this small they are
	// in the caches already, so it only spends, on every block, a core
	// that the chain's callers need.
	ethConf.NoPrefetch = true
	// eth_maxPriorityFeePerGas samples the last blocks' tips, reading and
	// recovering the senders of every transaction of 20 blocks (up to 40)
	// each time the head moved: on a chain that seals a block per
	// transaction, that is every call. The window of go-ethereum's former
	// light client (2 blocks, the same percentile) answers the same kind of
	// figure from the newest tips at a tenth of the work.
	ethConf.GPO.Blocks = 2

	// Pending transactions are not state: like the legacy pool, the blob
	// pool keeps them in memory.
	ethConf.BlobPool.Datadir = ""
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		if c.cfg.Dir != "" {
			return fmt.Errorf("%w: open the chain database in %s: %w", ErrStateDir, c.cfg.Dir, err)
		}
		return fmt.Errorf("eth service: %w", err)
	}
	filterAPI := filters.NewFilterAPI(filters.NewFilterSystem(backend.APIBackend, filters.Config{}))
	devnetAPI := &API{c: c}
	stack.RegisterAPIs([]rpc.API{
		{Namespace: "eth", Service: filterAPI},
		{Namespace: "devnet", Service: devnetAPI},
	})
	if err := stack.Start(); err != nil {
		stack.Close()
		return fmt.Errorf("start node: %w", err)
	}
	started := false
	defer func() {
		if !started {
			stack.Close()
		}
	}()
	beacon, err := catalyst.NewSimulatedBeacon(0, BuilderAddress, backend)
	if err == nil && backend.BlockChain().CurrentBlock().Number.Sign() == 0 {
		err = beacon.Fork(backend.BlockChain().GetCanonicalHash(0))
	}
	if err != nil {
		return fmt.Errorf("simulated beacon: %w", err)
	}

	// The public endpoint serves the namespaces a wallet or a trading
	// client uses; admin, debug and miner stay in process.
	c.public = rpc.NewServer()
	for _, api := range backend.APIs() {
		switch api.Namespace {
		case "eth", "net", "txpool":
			if err := c.public.RegisterName(api.Namespace, api.Service); err != nil {
				return fmt.Errorf("register %s api: %w", api.Namespace, err)
			}
		}
	}
	for name, svc := range map[string]any{"eth": filterAPI, "web3": web3API{}, "devnet": devnetAPI} {
		if err := c.public.RegisterName(name, svc); err != nil {
			return fmt.Errorf("register %s api: %w", name, err)
		}
	}
	c.relay = rpc.NewServer()
	if err := c.relay.RegisterName("eth", &relayAPI{c: c}); err != nil {
		return fmt.Errorf("register relay api: %w", err)
	}
	if err := c.relay.RegisterName("relay", &relayInfoAPI{c: c}); err != nil {
		return fmt.Errorf("register relay info api: %w", err)
	}
	if c.rpc, err = dialHandler(c.Handler()); err != nil {
		return fmt.Errorf("in-process client: %w", err)
	}
	c.client = ethclient.NewClient(c.rpc)
	c.node, c.eth, c.beacon = stack, backend, beacon
	c.direct = ethclient.NewClient(stack.Attach())
	started = true
	return nil
}

// Name returns the chain's name.
func (c *Chain) Name() string { return c.spec.name }

// ChainID returns the chain id.
func (c *Chain) ChainID() *big.Int { return big.NewInt(c.spec.chainID) }

// Deployment returns the addresses of the contracts deployed at start.
func (c *Chain) Deployment() Deployment { return c.deployment.clone() }

// Client returns an in-process client of the chain's JSON-RPC endpoint (no
// network; no subscriptions); it satisfies the contract bindings' backend
// interfaces. It stays valid until Close.
func (c *Chain) Client() *ethclient.Client { return c.client }

// RPC returns the in-process JSON-RPC client behind Client.
func (c *Chain) RPC() *rpc.Client { return c.rpc }

// Close stops the chain; with ChainConfig.Dir its state stays in the
// folder for the next NewChain. It is safe to call more than once.
func (c *Chain) Close() error {
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		// A transaction the chain accepted gets its block before the
		// chain stops: the pool is not kept across a restart.
		c.sealPending()
		c.rpc.Close()
		c.direct.Close()
		c.public.Stop()
		c.relay.Stop()
		// A bundle's block may be under way: it holds the gate.
		c.gate.Lock()
		defer c.gate.Unlock()
		err := c.beacon.Stop()
		c.closeErr = errors.Join(err, c.node.Close())
	})
	return c.closeErr
}

// Run blocks until ctx ends, then closes the chain.
func (c *Chain) Run(ctx context.Context) error {
	<-ctx.Done()
	return c.Close()
}

// sealLoop seals a block whenever transactions are pending: at once when
// the pool announces new ones, and every SealInterval as a safety net; with
// a BlockTime, only every BlockTime. The pool's announcements are drained by
// a separate goroutine, because the pool blocks on its feed while a block is
// being sealed.
func (c *Chain) sealLoop() {
	defer close(c.done)
	newTxs := make(chan core.NewTxsEvent, 64)
	sub := c.eth.TxPool().SubscribeTransactions(newTxs, true)
	defer sub.Unsubscribe()
	go func() {
		for {
			select {
			case <-newTxs:
				if c.cfg.BlockTime <= 0 {
					c.kick()
				}
			case <-sub.Err():
				return
			case <-c.stop:
				return
			}
		}
	}()
	ticker := time.NewTicker(cmp.Or(c.cfg.BlockTime, c.cfg.SealInterval))
	defer ticker.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.wake:
		case <-ticker.C:
		}
		c.sealPending()
	}
}

func (c *Chain) kick() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// sealPending seals blocks until no executable transaction is left, or a
// block comes out empty (a transaction the builder will not take, such as
// one paying less than the minimum tip, must not spin the loop). With a
// BlockTime it seals one block: what arrives meanwhile waits for the next
// tick, as on a chain with a clock.
func (c *Chain) sealPending() {
	pool := c.eth.TxPool()
	for {
		if err := c.syncPool(); err != nil {
			return
		}
		if pending, _ := pool.Stats(); pending == 0 {
			return
		}
		if !c.waitForClock() {
			return
		}
		before := c.eth.BlockChain().CurrentBlock().Number.Uint64()
		head := c.seal()
		c.signalSealed()
		if head.Number.Uint64() == before {
			c.log.Warn("sealing a block failed")
			return
		}
		if c.cfg.BlockTime > 0 {
			return
		}
		if block := c.eth.BlockChain().GetBlockByHash(head.Hash()); block == nil || len(block.Transactions()) == 0 {
			return
		}
	}
}

// seal seals one block of the pool's transactions on the head, as the
// simulated beacon's Commit does (the wall clock for its time, at least a
// second after its parent, no withdrawals, the head safe and every 32nd
// block final), and resets the pool to it. The block is built and then
// inserted, each executing its transactions, with the gate open: until
// it is made the head nothing outside can see it (its receipts are found
// through the canonical chain's index), and a node serves its callers
// while it imports a block. Only making it the head, writing it to disk
// (a chain kept in a folder has the block there before anyone outside
// sees it) and resetting the pool to it close the gate.
func (c *Chain) seal() *types.Header {
	c.sealing.Lock()
	defer c.sealing.Unlock()
	bc := c.eth.BlockChain()
	head := bc.CurrentBlock()
	// No transactions given: the block takes the pool's, as a payload the
	// beacon asks for does.
	block, _, err := c.eth.Miner().BuildTestingPayload(payloadOn(head), nil, false, nil)
	if err != nil {
		c.log.Warn("building a block failed", "err", err)
		return head
	}
	if _, err := bc.InsertBlockWithoutSetHead(context.Background(), block, false); err != nil {
		c.log.Warn("inserting a block failed", "err", err)
		return head
	}
	c.gate.Lock()
	defer c.gate.Unlock()
	if _, err := bc.SetCanonical(block); err != nil {
		c.log.Warn("making a block the head failed", "err", err)
		return bc.CurrentBlock()
	}
	bc.SetSafe(block.Header())
	if final := bc.GetHeaderByNumber(finalOf(block.NumberU64())); final != nil {
		bc.SetFinalized(final)
	}
	return c.settle()
}

// payloadOn is what a block built on head is made with, by the simulated
// beacon's rules: the wall clock for its time, at least a second after its
// parent, a random value, no withdrawals.
func payloadOn(head *types.Header) *miner.BuildPayloadArgs {
	var random common.Hash
	_, _ = rand.Read(random[:])
	return &miner.BuildPayloadArgs{
		Parent:       head.Hash(),
		Timestamp:    max(uint64(time.Now().Unix()), head.Time+1),
		FeeRecipient: BuilderAddress,
		Random:       random,
		Withdrawals:  types.Withdrawals{},
		BeaconRoot:   &common.Hash{},
		Version:      engine.PayloadV3,
	}
}

// finalOf is the number of the block the simulated beacon holds final
// once block number is the head: the last multiple of 32 before it, or
// the block itself when it is one.
func finalOf(number uint64) uint64 {
	const epoch = 32
	if number%epoch == 0 {
		return number
	}
	return (number - 1) / epoch * epoch
}

// syncPool waits until the pool has caught up with the head.
func (c *Chain) syncPool() error {
	c.poolSync.Lock()
	defer c.poolSync.Unlock()
	return c.eth.TxPool().Sync()
}

// settle makes a new head visible, with the gate held for writing: on disk
// first for a chain kept in a folder, then the pool reset to it.
func (c *Chain) settle() *types.Header {
	if c.cfg.Dir != "" {
		// go-ethereum writes without waiting for the disk, so the newest
		// blocks of a process that dies may be lost with the database's
		// write buffer; a client that saw a receipt must find it again.
		if err := c.eth.ChainDb().SyncKeyValue(); err != nil {
			c.log.Warn("syncing the chain database to disk failed", "dir", c.cfg.Dir, "err", err)
		}
	}
	if err := c.syncPool(); err != nil {
		c.log.Warn("pool reset after a block failed", "err", err)
	}
	head := c.eth.BlockChain().CurrentBlock()
	c.synced.Store(head.Number.Uint64())
	return head
}

// waitForClock delays the next block while the head's timestamp leads the
// wall clock by more than MaxClockDrift. It returns false when the chain
// is stopping.
func (c *Chain) waitForClock() bool {
	for {
		head := c.eth.BlockChain().CurrentBlock()
		lead := time.Unix(int64(head.Time), 0).Sub(time.Now())
		if lead <= c.cfg.MaxClockDrift {
			return true
		}
		select {
		case <-c.stop:
			return false
		case <-time.After(min(lead-c.cfg.MaxClockDrift, time.Second)):
		}
	}
}

func (c *Chain) signalSealed() {
	c.sealMu.Lock()
	close(c.sealed)
	c.sealed = make(chan struct{})
	c.sealMu.Unlock()
}

// nextSeal returns a channel closed when the next block is sealed.
func (c *Chain) nextSeal() <-chan struct{} {
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	return c.sealed
}

// WaitMined waits until a transaction has a receipt and the pool has seen
// its block (so that a transaction depending on it is accepted), and
// returns the receipt. It fails when ctx ends first or the transaction
// reverted.
func (c *Chain) WaitMined(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	for {
		next := c.nextSeal()
		r, err := c.direct.TransactionReceipt(ctx, hash)
		if err == nil && r.BlockNumber.Uint64() <= c.synced.Load() {
			if r.Status != types.ReceiptStatusSuccessful {
				return r, fmt.Errorf("transaction %s reverted", hash)
			}
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for transaction %s: %w", hash, ctx.Err())
		case <-c.stop:
			return nil, fmt.Errorf("wait for transaction %s: chain closed", hash)
		case <-next:
		case <-time.After(c.cfg.SealInterval):
		}
	}
}

// record notes a transaction that came through the private relay.
func (c *Chain) record(hash common.Hash) {
	c.relayMu.Lock()
	defer c.relayMu.Unlock()
	if !c.relayed[hash] {
		c.relayed[hash] = true
		c.relayedOrder = append(c.relayedOrder, hash)
	}
}

// Relayed reports whether a transaction was submitted through the private
// relay endpoint.
func (c *Chain) Relayed(hash common.Hash) bool {
	c.relayMu.Lock()
	defer c.relayMu.Unlock()
	return c.relayed[hash]
}

// RelayedCount returns how many distinct transactions came through the
// private relay endpoint.
func (c *Chain) RelayedCount() int {
	c.relayMu.Lock()
	defer c.relayMu.Unlock()
	return len(c.relayedOrder)
}

// RelayedHashes returns the transactions that came through the private
// relay endpoint, in order of arrival.
func (c *Chain) RelayedHashes() []common.Hash {
	c.relayMu.Lock()
	defer c.relayMu.Unlock()
	return append([]common.Hash(nil), c.relayedOrder...)
}
