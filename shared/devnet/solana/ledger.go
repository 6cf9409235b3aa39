package solana

import (
	"sync"

	sol "github.com/gagliardetto/solana-go"
)

// Account is one entry of the ledger: the same four fields a validator keeps
// for every address.
type Account struct {
	Lamports   uint64
	Owner      sol.PublicKey
	Data       []byte
	Executable bool
}

// clone returns a deep copy, so a transaction can work on its own copy and
// the ledger only changes when the transaction commits.
func (a *Account) clone() *Account {
	out := &Account{Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable}
	if len(a.Data) > 0 {
		out.Data = append([]byte(nil), a.Data...)
	}
	return out
}

// Rent parameters of the real cluster: 3480 lamports per byte-year, two years
// for exemption, 128 bytes of account overhead.
const (
	rentLamportsPerByteYear = 3480
	rentExemptionYears      = 2
	accountStorageOverhead  = 128
)

// MinimumBalanceForRentExemption returns the lamports an account of dataLen
// bytes needs to be rent exempt, with the formula of the real cluster
// (890880 lamports for an empty account).
func MinimumBalanceForRentExemption(dataLen int) uint64 {
	return uint64(accountStorageOverhead+dataLen) * rentLamportsPerByteYear * rentExemptionYears
}

// rentState tells whether the account with these lamports and data length is
// allowed to exist at the end of a transaction.
func rentOK(lamports uint64, dataLen int) bool {
	return lamports == 0 || lamports >= MinimumBalanceForRentExemption(dataLen)
}

// pdaCache remembers derived program addresses. Every pump trade derives a
// handful of them and the on-curve test costs microseconds each, which would
// otherwise be paid under the execution lock.
type pdaCache struct {
	mu sync.Mutex
	m  map[string]pdaEntry
}

type pdaEntry struct {
	key  sol.PublicKey
	bump uint8
}

const pdaCacheLimit = 200_000

func (c *pdaCache) find(program sol.PublicKey, seeds ...[]byte) (sol.PublicKey, uint8) {
	n := 32
	for _, s := range seeds {
		n += len(s) + 1
	}
	buf := make([]byte, 0, n)
	buf = append(buf, program[:]...)
	for _, s := range seeds {
		buf = append(buf, byte(len(s)))
		buf = append(buf, s...)
	}
	k := string(buf)
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return e.key, e.bump
	}
	key, bump, err := sol.FindProgramAddress(seeds, program)
	if err != nil {
		// Only seeds longer than 32 bytes fail; callers pass fixed seeds.
		return sol.PublicKey{}, 0
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= pdaCacheLimit {
		c.m = make(map[string]pdaEntry)
	}
	c.m[k] = pdaEntry{key: key, bump: bump}
	c.mu.Unlock()
	return key, bump
}

var pdas pdaCache

// findPDA derives a program address through the shared cache.
func findPDA(program sol.PublicKey, seeds ...[]byte) sol.PublicKey {
	k, _ := pdas.find(program, seeds...)
	return k
}

// associatedTokenAddress derives the associated token account of owner for
// mint under tokenProgram.
func associatedTokenAddress(owner, tokenProgram, mint sol.PublicKey) sol.PublicKey {
	return findPDA(ataProgramID, owner[:], tokenProgram[:], mint[:])
}
