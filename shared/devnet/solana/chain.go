package solana

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	sol "github.com/gagliardetto/solana-go"
)

// Config configures a Chain. The zero value of each field selects the
// default of DefaultConfig.
type Config struct {
	// SlotDuration is how often the slot advances and a new blockhash is
	// produced (400ms, like the real cluster).
	SlotDuration time.Duration
	// BlockhashValidSlots is how many slots a blockhash stays usable (150).
	BlockhashValidSlots uint64
	// FinalizedDepth is how many slots after landing a transaction reports
	// "finalized" instead of "confirmed" (32).
	FinalizedDepth uint64
	// LamportsPerSignature is the base fee per signature (5000).
	LamportsPerSignature uint64
	// HistoryLimit bounds the transactions kept for getTransaction and
	// getSignaturesForAddress; older ones are forgotten once their
	// blockhash has expired (20,000: each holds its parsed message, logs,
	// balances and inner instructions, 5-10 KB, so that a chain under a
	// steady load keeps about 100-200 MB of history instead of growing by
	// that every few minutes; a real node that keeps no archive forgets
	// them too).
	HistoryLimit int
	// Seed makes the chain's own keys (faucet, authorities) and blockhashes
	// reproducible; two chains with the same seed have the same faucet.
	Seed string
	// Logger receives the chain's own log lines; nil discards them.
	Logger *slog.Logger

	// StateFile makes the ledger outlive the process: Open loads the chain
	// from this file when it exists (and writes it at once when it does
	// not), Close writes it, and it is rewritten every SaveInterval while
	// something changed. Empty keeps the chain in memory only.
	StateFile string
	// SaveInterval is how often a changed chain is written to StateFile
	// (2s). A negative value turns the periodic save off; Close still saves.
	SaveInterval time.Duration
	// StateTransactions is how many of the newest landed transactions are
	// written to StateFile in full, for getTransaction and
	// getSignaturesForAddress after a restart (10,000). Older ones whose
	// blockhash may still be valid are written as signature, slot and error
	// only, so a replay is still refused as AlreadyProcessed.
	StateTransactions int
	// TipAccounts are the accounts the bundle relay accepts a tip to
	// (JitoTipAccounts); genesis makes them rent exempt.
	TipAccounts []sol.PublicKey
	// MinBundleTip is the least tip, in lamports, that makes a bundle
	// eligible (1000).
	MinBundleTip uint64
	// ManualMigration turns off the migration of completed bonding curves:
	// by default a curve a buy completes graduates into its canonical
	// PumpSwap pool at the next slot, as pump.fun's migration does on
	// mainnet; with it set only GraduateCoin (devnet_graduate) migrates.
	ManualMigration bool
}

// DefaultConfig returns the configuration of a chain that behaves like the
// real cluster in timing and fees.
func DefaultConfig() Config {
	return Config{
		SlotDuration:         400 * time.Millisecond,
		BlockhashValidSlots:  150,
		FinalizedDepth:       32,
		LamportsPerSignature: 5000,
		HistoryLimit:         20_000,
		Seed:                 "tradeapi-devnet",
		SaveInterval:         2 * time.Second,
		StateTransactions:    10_000,
		TipAccounts:          JitoTipAccounts,
		MinBundleTip:         1000,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.SlotDuration <= 0 {
		c.SlotDuration = d.SlotDuration
	}
	if c.BlockhashValidSlots == 0 {
		c.BlockhashValidSlots = d.BlockhashValidSlots
	}
	if c.FinalizedDepth == 0 {
		c.FinalizedDepth = d.FinalizedDepth
	}
	if c.LamportsPerSignature == 0 {
		c.LamportsPerSignature = d.LamportsPerSignature
	}
	if c.HistoryLimit <= 0 {
		c.HistoryLimit = d.HistoryLimit
	}
	if c.Seed == "" {
		c.Seed = d.Seed
	}
	if c.SaveInterval == 0 {
		c.SaveInterval = d.SaveInterval
	}
	if c.StateTransactions <= 0 {
		c.StateTransactions = d.StateTransactions
	}
	if len(c.TipAccounts) == 0 {
		c.TipAccounts = d.TipAccounts
	}
	if c.MinBundleTip == 0 {
		c.MinBundleTip = d.MinBundleTip
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// FaucetLamports is the balance the faucet starts with.
const FaucetLamports uint64 = 500_000_000 * 1_000_000_000

// Chain is the local Solana chain: an in-memory ledger (saved to a file when
// Config.StateFile is set), a slot clock, recent blockhashes, the
// processed-transaction history and a JSON-RPC server. All methods are safe
// for concurrent use.
type Chain struct {
	cfg      Config
	log      *slog.Logger
	programs map[sol.PublicKey]program
	faucet   sol.PrivateKey

	mu sync.RWMutex
	// accounts is the ledger. An account in it is never modified in place:
	// whoever changes one stores a changed copy (Account.clone), which is
	// what lets a save copy the pointers under mu and encode them after.
	accounts    map[sol.PublicKey]*Account
	slot        uint64
	latest      sol.Hash
	blockhashes map[sol.Hash]uint64 // blockhash → slot it was produced in
	txs         map[sol.Signature]*txRecord
	history     []*txRecord // landed transactions, oldest first
	landed      uint64
	prioFees    []slotPrioFee // recent slots, oldest first
	// bundles are the bundles the relay saw recently, by id.
	bundles *bundleBook
	// migrations are the mints whose curve completed since the last slot.
	migrations []sol.PublicKey
	// sigs holds the transactions a restart kept only as a status (see
	// Config.StateTransactions); they leave once their blockhash expired.
	sigs map[sol.Signature]sigStatus
	// changes counts ledger mutations; the periodic save skips a chain
	// whose count has not moved since the last save.
	changes uint64

	saveMu       sync.Mutex    // orders saves, so the newest snapshot is written last
	journal      *stateJournal // what the state file holds; nil: the next save rewrites it (under saveMu)
	savedChanges atomic.Uint64

	calls rpcCounter // RPC requests by method, for tests to see what a client used

	latency atomic.Int64 // nanoseconds added before every RPC answer
	pauseMu sync.Mutex
	resume  chan struct{} // non-nil while paused; closed by Resume

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
	srvMu    sync.Mutex
	srv      *http.Server
	url      string
}

type slotPrioFee struct {
	slot uint64
	min  uint64
	seen bool
}

// New returns a chain with its genesis accounts (system programs, the
// pump.fun Global, FeeConfig and fee recipients, a funded faucet) and starts
// its slot clock. Close stops the clock and any server Start opened.
//
// New is for chains that live in memory only. With cfg.StateFile set use
// Open, which returns the error New panics with when the file cannot be
// loaded or written.
func New(cfg Config) *Chain {
	c, err := Open(cfg)
	if err != nil {
		panic(err)
	}
	return c
}

// Open returns a chain like New does, except that with cfg.StateFile set it
// loads the chain from that file when it exists: accounts, slot, recent
// blockhashes, recent transactions and the landed count are as they were
// when the file was written (see the package documentation for what a
// restart keeps). A file that cannot be read or decoded is an error naming
// the file; the chain never silently starts empty over it. When the file
// does not exist, Open starts from genesis and writes it at once, so an
// unwritable location fails here rather than at the first save.
func Open(cfg Config) (*Chain, error) {
	cfg = cfg.withDefaults()
	c := &Chain{
		cfg:         cfg,
		log:         cfg.Logger.With("component", "devnet", "chain", "solana"),
		accounts:    make(map[sol.PublicKey]*Account),
		blockhashes: make(map[sol.Hash]uint64),
		txs:         make(map[sol.Signature]*txRecord),
		bundles:     newBundleBook(),
		stop:        make(chan struct{}),
	}
	c.faucet = c.deriveKey("faucet")
	c.programs = map[sol.PublicKey]program{
		systemProgramID:        {name: "system", builtin: true, run: runSystem},
		computeBudgetProgramID: {name: "compute-budget", builtin: true, run: runComputeBudget},
		tokenProgramID:         {name: "spl-token", run: runToken},
		token2022ProgramID:     {name: "spl-token-2022", run: runToken},
		ataProgramID:           {name: "associated-token-account", run: runATA},
		memoProgramID:          {name: "spl-memo", run: runMemo},
		metaplexProgramID:      {name: "mpl-token-metadata", run: noProgram},
	}
	c.installPump()
	c.installAMM()
	c.installLaunchLab()
	c.installDBC()
	for id, p := range c.programs {
		p.id = id.String()
		c.programs[id] = p
	}
	loaded, err := c.load()
	if err != nil {
		return nil, err
	}
	if loaded {
		c.ensureAMMGenesis()
		c.ensureLaunchGenesis()
	} else {
		c.genesis()
		c.slot = 1
		c.newBlockhash()
		if cfg.StateFile != "" {
			if err := c.Save(); err != nil {
				return nil, err
			}
		}
	}
	c.wg.Add(1)
	go c.clock()
	if cfg.StateFile != "" && cfg.SaveInterval > 0 {
		c.wg.Add(1)
		go c.saveLoop()
	}
	return c, nil
}

// deriveKey returns a keypair derived from the chain seed and a label.
func (c *Chain) deriveKey(label string) sol.PrivateKey {
	seed := sha256.Sum256([]byte(c.cfg.Seed + "/" + label))
	return sol.PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
}

// Faucet returns the faucet keypair that requestAirdrop pays from.
func (c *Chain) Faucet() sol.PrivateKey { return c.faucet }

// genesis creates the accounts that exist before the first slot.
func (c *Chain) genesis() {
	c.installProgramAccounts()
	rent := make([]byte, 17)
	binary.LittleEndian.PutUint64(rent, rentLamportsPerByteYear)
	binary.LittleEndian.PutUint64(rent[8:], 0x4000000000000000) // 2.0 as f64: exemption threshold in years
	rent[16] = 50                                               // burn percent
	c.accounts[sysvarRentID] = &Account{Lamports: MinimumBalanceForRentExemption(len(rent)), Owner: sysvarOwnerID, Data: rent}
	c.accounts[sysvarClockID] = &Account{Lamports: MinimumBalanceForRentExemption(40), Owner: sysvarOwnerID, Data: make([]byte, 40)}
	for _, m := range []struct {
		key   sol.PublicKey
		owner sol.PublicKey
	}{{nativeMintID, tokenProgramID}, {nativeMint2022ID, token2022ProgramID}} {
		d := make([]byte, mintLen)
		d[44] = 9
		d[45] = 1
		c.accounts[m.key] = &Account{Lamports: MinimumBalanceForRentExemption(mintLen), Owner: m.owner, Data: d}
	}
	c.accounts[c.faucet.PublicKey()] = &Account{Lamports: FaucetLamports, Owner: systemProgramID}
	c.pumpGenesis()
	c.ammGenesis()
	c.launchLabGenesis()
	c.dbcGenesis()
}

// installProgramAccounts writes the executable account of every program the
// chain runs. Programs come from the code, so a chain loaded from a file
// gets them again, including programs added since the file was written.
func (c *Chain) installProgramAccounts() {
	for id, p := range c.programs {
		if _, venue := upgradeableByID[id]; venue {
			continue // installUpgradeable writes the venue programs
		}
		// Each program's account looks as on mainnet, so a preflight
		// (tradeapi check) reads the same owners and layouts here: the
		// runtime's own programs under the native loader, SPL Token,
		// Associated Token and Memo final under BPF loader 2, the others
		// upgradeable, their program account naming a program-data account.
		switch {
		case p.builtin:
			c.accounts[id] = &Account{Lamports: MinimumBalanceForRentExemption(len(p.name)), Owner: nativeLoaderID,
				Data: []byte(p.name), Executable: true}
		case id == tokenProgramID || id == ataProgramID || id == memoProgramID:
			c.accounts[id] = &Account{Lamports: MinimumBalanceForRentExemption(len(p.name)), Owner: bpfLoader2ID,
				Data: []byte(p.name), Executable: true}
		default:
			c.installUpgradeableProgram(&upgradeable{venue: p.name, id: id, data: ProgramDataAddress(id)})
		}
	}
	c.installUpgradeable()
}

// clock advances the slot every SlotDuration until Close.
func (c *Chain) clock() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.SlotDuration)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.mu.Lock()
			c.advanceLocked()
			c.mu.Unlock()
		}
	}
}

// AdvanceSlot moves the chain one slot forward at once, producing a new
// blockhash, without waiting for the clock.
func (c *Chain) AdvanceSlot() {
	c.mu.Lock()
	c.advanceLocked()
	c.mu.Unlock()
}

func (c *Chain) advanceLocked() {
	c.slot++
	c.newBlockhash()
	// Forget blockhashes that can no longer be used.
	for h, s := range c.blockhashes {
		if s+c.cfg.BlockhashValidSlots < c.slot {
			delete(c.blockhashes, h)
		}
	}
	c.trimHistoryLocked()
	if !c.cfg.ManualMigration {
		c.migrateLocked()
	}
}

// migrateLocked graduates the curves completed since the last slot into
// their canonical pools.
func (c *Chain) migrateLocked() {
	for _, mint := range c.migrations {
		if pool, err := c.graduateLocked(mint, sol.PublicKey{}, 0, sol.PublicKey{}); err != nil {
			c.log.Warn("migrate completed curve", "mint", mint, "err", err)
		} else {
			c.log.Info("curve migrated", "mint", mint, "pool", pool)
		}
	}
	c.migrations = c.migrations[:0]
}

func (c *Chain) newBlockhash() {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], c.slot)
	h := sha256.Sum256(append([]byte(c.cfg.Seed+"/blockhash/"), b[:]...))
	c.latest = sol.Hash(h)
	c.blockhashes[c.latest] = c.slot
}

// ExpireBlockhashes makes every blockhash handed out so far unusable, as if
// more than BlockhashValidSlots slots had passed, and produces a fresh one.
func (c *Chain) ExpireBlockhashes() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blockhashes = make(map[sol.Hash]uint64)
	c.slot++
	c.newBlockhash()
	c.changes++
}

// Slot returns the current slot (the block height is the same number).
func (c *Chain) Slot() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.slot
}

// LatestBlockhash returns the newest blockhash and the last block height at
// which it is still valid.
func (c *Chain) LatestBlockhash() (sol.Hash, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.latest, c.slot + c.cfg.BlockhashValidSlots
}

// blockhashValidLocked tells whether h may still be used by a transaction.
func (c *Chain) blockhashValidLocked(h sol.Hash) bool {
	s, ok := c.blockhashes[h]
	return ok && s+c.cfg.BlockhashValidSlots >= c.slot
}

// SetLatency delays every RPC answer by d (0 turns the delay off), to
// simulate a slow RPC node.
func (c *Chain) SetLatency(d time.Duration) { c.latency.Store(int64(d)) }

// Pause makes the RPC server stop answering: requests wait until Resume or
// until their client gives up. Transactions sent through the Go helpers are
// not affected.
func (c *Chain) Pause() {
	c.pauseMu.Lock()
	defer c.pauseMu.Unlock()
	if c.resume == nil {
		c.resume = make(chan struct{})
	}
}

// Resume undoes Pause.
func (c *Chain) Resume() {
	c.pauseMu.Lock()
	defer c.pauseMu.Unlock()
	if c.resume != nil {
		close(c.resume)
		c.resume = nil
	}
}

// gate applies the latency and pause hooks to one RPC request.
func (c *Chain) gate(ctx context.Context) error {
	c.pauseMu.Lock()
	ch := c.resume
	c.pauseMu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.stop:
			return errors.New("chain closed")
		}
	}
	if d := time.Duration(c.latency.Load()); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// LandedCount returns how many transactions landed (succeeded or failed
// with their fee charged) since genesis.
func (c *Chain) LandedCount() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.landed
}

// Start serves the JSON-RPC API on addr (for example "127.0.0.1:0") in the
// background and returns its URL. Close stops it.
func (c *Chain) Start(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("devnet solana: listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: c.Handler(), ReadHeaderTimeout: 10 * time.Second}
	c.srvMu.Lock()
	if c.srv != nil {
		c.srvMu.Unlock()
		ln.Close()
		return "", errors.New("devnet solana: already serving")
	}
	c.srv = srv
	c.url = "http://" + ln.Addr().String()
	c.srvMu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			c.log.Error("rpc server stopped", "err", err)
		}
	}()
	c.log.Info("serving json-rpc", "url", c.url)
	return c.url, nil
}

// URL returns the address Start serves on, or "" before Start.
func (c *Chain) URL() string {
	c.srvMu.Lock()
	defer c.srvMu.Unlock()
	return c.url
}

// Run serves the JSON-RPC API on addr until ctx ends, then closes the chain.
func (c *Chain) Run(ctx context.Context, addr string) error {
	if _, err := c.Start(addr); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-c.stop:
	}
	return c.Close()
}

// Close stops the slot clock and the server started by Start and, with
// Config.StateFile set, writes the chain to it; the error says when either
// failed. It is safe to call more than once.
func (c *Chain) Close() error {
	var err error
	c.stopOnce.Do(func() {
		close(c.stop)
		c.srvMu.Lock()
		srv := c.srv
		c.srvMu.Unlock()
		if srv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if e := srv.Shutdown(ctx); e != nil {
				err = fmt.Errorf("devnet solana: shut down server: %w", e)
			}
		}
		c.wg.Wait()
		if c.cfg.StateFile != "" {
			err = errors.Join(err, c.Save())
		}
	})
	return err
}
