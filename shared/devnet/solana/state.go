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

	"github.com/tradeapi/tradeapi/shared/atomicfile"
)

// chainState is what a state file holds: the ledger, the clock, the recent
// blockhashes and the recent transactions. Taken from a running chain it
// shares the accounts and records with the ledger, which never modifies
// either in place, so it can be encoded without holding the lock.
type chainState struct {
	stateClock
	seed     string
	accounts []keyedAccount
	// records are the newest landed transactions in full, oldest first.
	// Read back from a file, only p.raw of each is set.
	records []*txRecord
	// sigs are older landed transactions whose blockhash may still be
	// valid, kept as a status only.
	sigs []sigEntry

	changes uint64 // Chain.changes at the snapshot; not written
}

// stateClock is the part of the chain that every save writes whole: when
// it was saved, the slot, the count of landed transactions, the recent
// blockhashes and priority fees.
type stateClock struct {
	savedAt     time.Time
	slot        uint64
	landed      uint64
	blockhashes map[sol.Hash]uint64
	prioFees    []slotPrioFee
}

// clockLocked copies the chain's clock; c.mu is held.
func (c *Chain) clockLocked() stateClock {
	return stateClock{
		savedAt:     time.Now(),
		slot:        c.slot,
		landed:      c.landed,
		blockhashes: maps.Clone(c.blockhashes),
		prioFees:    slices.Clone(c.prioFees),
	}
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
		stateClock: c.clockLocked(),
		seed:       c.cfg.Seed,
		accounts:   make([]keyedAccount, 0, len(c.accounts)),
		changes:    c.changes,
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

// Save writes the chain to Config.StateFile now. The first save of a
// process rewrites the whole file: a temporary file in the same directory,
// synced, then renamed over the old one, so a crash leaves either the
// previous state or the new one. Later saves append to it what changed
// since the save before, and sync it; a crash in the middle of one leaves
// a frame cut short at the end, which loading leaves out. Once the changes
// appended outweigh the whole state, the next save rewrites the file.
// Close and the periodic save call it; a caller may call it to checkpoint
// at a moment of its choosing.
func (c *Chain) Save() error {
	if c.cfg.StateFile == "" {
		return errors.New("devnet solana: save: no state file configured")
	}
	c.saveMu.Lock()
	defer c.saveMu.Unlock()
	if j := c.journal; j != nil && j.appended <= journalLimit(j.whole) {
		if d, ok := c.delta(j); ok {
			err := c.appendChanges(j, d)
			if err == nil {
				c.savedChanges.Store(d.changes)
				return nil
			}
			// A failed append may have left part of a frame behind, which
			// a later frame must not follow: rewrite the whole file.
			c.journal = nil
			c.log.Warn("append to the state file failed, rewriting it", "file", c.cfg.StateFile, "err", err)
		}
	}
	st := c.snapshot()
	b := encodeState(st)
	if err := atomicfile.Write(c.cfg.StateFile, b); err != nil {
		c.journal = nil
		return fmt.Errorf("devnet solana: save state to %s: %w", c.cfg.StateFile, err)
	}
	j := &stateJournal{accounts: make(map[sol.PublicKey]*Account, len(st.accounts)), whole: len(b)}
	for _, ka := range st.accounts {
		j.accounts[ka.key] = ka.acc
	}
	if n := len(st.records); n > 0 {
		j.last = st.records[n-1]
	}
	c.journal = j
	c.savedChanges.Store(st.changes)
	return nil
}

// stateJournal is what the state file holds, as far as the next save needs
// to know it to append only what changed. Save owns it, under saveMu.
type stateJournal struct {
	// accounts are the file's accounts: the ledger never changes an
	// account in place, so one whose pointer differs was written since.
	accounts map[sol.PublicKey]*Account
	// last is the newest transaction in the file; nil for none.
	last *txRecord
	// whole is the size of the whole state the file starts with, appended
	// the size of the frames of changes after it.
	whole, appended int
	// buf is reused from one frame of changes to the next.
	buf []byte
}

// journalLimit is how much may be appended to a whole state of the given
// size before the file is rewritten: twice the state, and a few megabytes
// more so that a small chain is not rewritten on every other save. A
// loaded file is then at most about three times the state.
func journalLimit(whole int) int { return 2*whole + journalSlack }

// journalSlack is a variable so that tests can reach the rewrite quickly.
var journalSlack = 4 << 20

// delta takes what changed since the journal's file was written. It is
// not ok when the file's newest transaction has left the history, which
// only a whole rewrite can follow.
func (c *Chain) delta(j *stateJournal) (*stateDelta, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	i := len(c.history)
	for i > 0 && c.history[i-1] != j.last {
		i--
	}
	if i == 0 && j.last != nil {
		return nil, false
	}
	d := &stateDelta{
		stateClock: c.clockLocked(),
		records:    slices.Clone(c.history[i:]),
		changes:    c.changes,
	}
	kept := 0
	for k, a := range c.accounts {
		was, ok := j.accounts[k]
		if ok {
			kept++
		}
		if was != a {
			d.accounts = append(d.accounts, keyedAccount{k, a})
		}
	}
	if kept < len(j.accounts) {
		for k := range j.accounts {
			if _, ok := c.accounts[k]; !ok {
				d.accounts = append(d.accounts, keyedAccount{k, nil})
			}
		}
	}
	return d, true
}

// appendChanges writes d at the end of the state file and syncs it, then
// records it in j.
func (c *Chain) appendChanges(j *stateJournal, d *stateDelta) error {
	j.buf = appendDelta(j.buf, d)
	f, err := os.OpenFile(c.cfg.StateFile, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(j.buf); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	j.appended += len(j.buf)
	for _, ka := range d.accounts {
		if ka.acc == nil {
			delete(j.accounts, ka.key)
		} else {
			j.accounts[ka.key] = ka.acc
		}
	}
	if n := len(d.records); n > 0 {
		j.last = d.records[n-1]
	}
	if cap(j.buf) > 4*len(j.buf) && cap(j.buf) > 1<<20 {
		j.buf = nil // one large frame does not pin its buffer
	}
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
	st, torn, err := readStateFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("devnet solana: load state from %s: %w", path, err)
	}
	if torn > 0 {
		// The next save rewrites the file without it.
		c.log.Warn("state file ends in an interrupted save, left out", "file", path, "bytes", torn)
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
	// Frames of changes carry every transaction landed since the whole
	// state: the newest StateTransactions come back in full, as a whole
	// save keeps them, and older ones as statuses while their blockhash
	// may still be valid.
	if extra := len(st.records) - c.cfg.StateTransactions; extra > 0 {
		for _, r := range st.records[:extra] {
			if r.slot+c.cfg.BlockhashValidSlots < st.slot {
				continue
			}
			p, err := c.parseTransaction(r.p.raw, false)
			if err != nil {
				return fmt.Errorf("%w: transaction in slot %d: %v", ErrStateFile, r.slot, err)
			}
			st.sigs = append(st.sigs, sigEntry{p.sig(), sigStatus{r.slot, r.err}})
		}
		st.records = st.records[extra:]
	}
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
