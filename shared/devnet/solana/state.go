package solana

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sol "github.com/gagliardetto/solana-go"
)

// chainState is what a state file holds: the ledger, the clock, the recent
// blockhashes and the recent transactions. Taken from a running chain it
// shares the accounts and records with the ledger, which never modifies
// either in place, so it can be encoded without holding the lock.
type chainState struct {
	savedAt     time.Time
	seed        string
	slot        uint64
	landed      uint64
	blockhashes map[sol.Hash]uint64
	prioFees    []slotPrioFee
	accounts    []keyedAccount
	// records are the newest landed transactions in full, oldest first.
	// Read back from a file, only p.raw of each is set.
	records []*txRecord
	// sigs are older landed transactions whose blockhash may still be
	// valid, kept as a status only.
	sigs []sigEntry

	changes uint64 // Chain.changes at the snapshot; not written
}

type keyedAccount struct {
	key sol.PublicKey
	acc *Account
}

// sigStatus is what a restart keeps of a transaction written without its
// full record: enough to refuse a replay as AlreadyProcessed and to answer
// getSignatureStatuses while its blockhash may still be valid.
type sigStatus struct {
	slot uint64
	err  *txError
}

type sigEntry struct {
	sig sol.Signature
	sigStatus
}

// snapshot copies what a save needs. Only pointers and a few small maps are
// copied under the read lock; RPC readers go on meanwhile and transactions
// wait for the copy only, not for the encoding or the disk.
func (c *Chain) snapshot() *chainState {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st := &chainState{
		savedAt:     time.Now(),
		seed:        c.cfg.Seed,
		slot:        c.slot,
		landed:      c.landed,
		blockhashes: maps.Clone(c.blockhashes),
		prioFees:    slices.Clone(c.prioFees),
		accounts:    make([]keyedAccount, 0, len(c.accounts)),
		changes:     c.changes,
	}
	for k, a := range c.accounts {
		st.accounts = append(st.accounts, keyedAccount{k, a})
	}
	full := min(len(c.history), c.cfg.StateTransactions)
	st.records = slices.Clone(c.history[len(c.history)-full:])
	// A transaction may be replayed as long as its blockhash is valid; a
	// restart must still refuse it, so keep the signature of every older
	// transaction that landed within the blockhash lifetime.
	for i := len(c.history) - full - 1; i >= 0; i-- {
		r := c.history[i]
		if r.slot+c.cfg.BlockhashValidSlots < c.slot {
			break
		}
		st.sigs = append(st.sigs, sigEntry{r.p.sig(), sigStatus{r.slot, r.err}})
	}
	for sig, s := range c.sigs {
		if s.slot+c.cfg.BlockhashValidSlots >= c.slot {
			st.sigs = append(st.sigs, sigEntry{sig, s})
		}
	}
	return st
}

// Save writes the chain to Config.StateFile now: a temporary file in the
// same directory, synced, then renamed over the old one, so a crash leaves
// either the previous state or the new one. Close and the periodic save
// call it; a caller may call it to checkpoint at a moment of its choosing.
func (c *Chain) Save() error {
	if c.cfg.StateFile == "" {
		return errors.New("devnet solana: save: no state file configured")
	}
	c.saveMu.Lock()
	defer c.saveMu.Unlock()
	st := c.snapshot()
	if err := writeFileAtomic(c.cfg.StateFile, encodeState(st)); err != nil {
		return fmt.Errorf("devnet solana: save state to %s: %w", c.cfg.StateFile, err)
	}
	c.savedChanges.Store(st.changes)
	return nil
}

// saveLoop writes the chain every SaveInterval while it changes, until
// Close. A failing save is logged when it starts failing and when it
// recovers, not on every tick.
func (c *Chain) saveLoop() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.SaveInterval)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		c.mu.RLock()
		changed := c.changes != c.savedChanges.Load()
		c.mu.RUnlock()
		if !changed {
			continue
		}
		start := time.Now()
		if err := c.Save(); err != nil {
			if !failing {
				c.log.Error("save state", "err", err)
			}
			failing = true
			continue
		}
		if failing {
			c.log.Info("state saved again", "file", c.cfg.StateFile)
		}
		failing = false
		c.log.Debug("state saved", "file", c.cfg.StateFile, "took", time.Since(start))
	}
}

// load reads Config.StateFile into the chain. It reports false, with no
// error, when there is no file to load.
func (c *Chain) load() (bool, error) {
	path := c.cfg.StateFile
	if path == "" {
		return false, nil
	}
	removeStaleTemps(path, c.log)
	start := time.Now()
	st, err := readStateFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("devnet solana: load state from %s: %w", path, err)
	}
	if err := c.restore(st); err != nil {
		return false, fmt.Errorf("devnet solana: load state from %s: %w", path, err)
	}
	c.log.Info("state loaded", "file", path, "accounts", len(c.accounts), "transactions", len(c.history),
		"slot", c.slot, "took", time.Since(start))
	return true, nil
}

// restore installs a state read from a file. The slots that would have
// passed while the chain was down pass at once, as they do on a cluster a
// client was away from: a blockhash handed out before the restart stays
// usable if the restart took less than its lifetime, and expires otherwise.
func (c *Chain) restore(st *chainState) error {
	if st.seed != c.cfg.Seed {
		return fmt.Errorf("written by a chain with seed %q, this one has seed %q (its faucet and authorities would not match)", st.seed, c.cfg.Seed)
	}
	for _, ka := range st.accounts {
		c.accounts[ka.key] = ka.acc
	}
	c.installProgramAccounts()
	for _, r := range st.records {
		p, err := c.parseTransaction(r.p.raw, false)
		if err != nil {
			return fmt.Errorf("%w: transaction in slot %d: %v", ErrStateFile, r.slot, err)
		}
		r.p = p
		c.txs[p.sig()] = r
	}
	c.history = st.records
	if len(st.sigs) > 0 {
		c.sigs = make(map[sol.Signature]sigStatus, len(st.sigs))
		for _, e := range st.sigs {
			c.sigs[e.sig] = e.sigStatus
		}
	}
	c.landed = st.landed
	c.prioFees = st.prioFees
	c.blockhashes = st.blockhashes
	if c.blockhashes == nil {
		c.blockhashes = make(map[sol.Hash]uint64)
	}

	// At least one slot passes, so the first blockhash after a restart is
	// new even when the chain was down for less than a slot: a transaction
	// the chain signs itself (an airdrop) must not repeat a signature from
	// before the restart.
	down := time.Since(st.savedAt)
	passed := uint64(1)
	if down > 0 {
		passed = max(passed, uint64(down/c.cfg.SlotDuration))
	}
	c.slot = st.slot + passed
	c.newBlockhash()
	for h, s := range c.blockhashes {
		if s+c.cfg.BlockhashValidSlots < c.slot {
			delete(c.blockhashes, h)
		}
	}
	c.prioFees = slices.DeleteFunc(c.prioFees, func(f slotPrioFee) bool { return f.slot+prioFeeSlots < c.slot })
	c.trimHistoryLocked()
	return nil
}

// removeStaleTemps deletes the temporary files of saves that a crash
// interrupted; the state file itself is whole either way.
func removeStaleTemps(path string, log *slog.Logger) {
	dir, prefix := filepath.Dir(path), filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // the load that follows reports what is wrong with the place
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			log.Warn("remove interrupted save", "file", filepath.Join(dir, e.Name()), "err", err)
		}
	}
}
