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
	// blockhash has expired (500,000).
	HistoryLimit int
	// Seed makes the chain's own keys (faucet, authorities) and blockhashes
	// reproducible; two chains with the same seed have the same faucet.
	Seed string
	// Logger receives the chain's own log lines; nil discards them.
	Logger *slog.Logger
}

// DefaultConfig returns the configuration of a chain that behaves like the
// real cluster in timing and fees.
func DefaultConfig() Config {
	return Config{
		SlotDuration:         400 * time.Millisecond,
		BlockhashValidSlots:  150,
		FinalizedDepth:       32,
		LamportsPerSignature: 5000,
		HistoryLimit:         500_000,
		Seed:                 "tradeapi-devnet",
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
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// FaucetLamports is the balance the faucet starts with.
const FaucetLamports uint64 = 500_000_000 * 1_000_000_000

// Chain is the local Solana chain: an in-memory ledger, a slot clock, recent
// blockhashes, the processed-transaction history and a JSON-RPC server.
// All methods are safe for concurrent use.
type Chain struct {
	cfg      Config
	log      *slog.Logger
	programs map[sol.PublicKey]program
	faucet   sol.PrivateKey

	mu          sync.RWMutex
	accounts    map[sol.PublicKey]*Account
	slot        uint64
	latest      sol.Hash
	blockhashes map[sol.Hash]uint64 // blockhash → slot it was produced in
	txs         map[sol.Signature]*txRecord
	history     []*txRecord // landed transactions, oldest first
	landed      uint64
	prioFees    []slotPrioFee // recent slots, oldest first

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
func New(cfg Config) *Chain {
	cfg = cfg.withDefaults()
	c := &Chain{
		cfg:         cfg,
		log:         cfg.Logger.With("component", "devnet", "chain", "solana"),
		accounts:    make(map[sol.PublicKey]*Account),
		blockhashes: make(map[sol.Hash]uint64),
		txs:         make(map[sol.Signature]*txRecord),
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
	for id, p := range c.programs {
		p.id = id.String()
		c.programs[id] = p
	}
	c.genesis()
	c.slot = 1
	c.newBlockhash()
	c.wg.Add(1)
	go c.clock()
	return c
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
	for id, p := range c.programs {
		loader := bpfLoaderUpgradeableID
		if p.builtin {
			loader = nativeLoaderID
		}
		data := []byte(p.name)
		c.accounts[id] = &Account{Lamports: MinimumBalanceForRentExemption(len(data)), Owner: loader, Data: data, Executable: true}
	}
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

// Close stops the slot clock and the server started by Start. It is safe to
// call more than once.
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
	})
	return err
}
