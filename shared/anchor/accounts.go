package anchor

import (
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// Access is how an instruction uses one of its accounts: whether the
// program may write it and whether it must sign the transaction.
type Access uint8

const (
	writable Access = 1 << iota
	signer
)

// The four ways an instruction takes an account.
const (
	// RO is a read-only account.
	RO Access = 0
	// RW is a writable account.
	RW = writable
	// RS is a read-only signer.
	RS = signer
	// RWS is a writable signer, such as the payer.
	RWS = writable | signer
)

// Metas returns the account list of an instruction: keys[i] taken with
// acc[i]. It makes two allocations whatever the length, since builders call
// it once per transaction. Metas panics when the two lists differ in length:
// a builder's access table that does not match its fields is a bug.
func Metas(keys []*solana.PublicKey, acc []Access) solana.AccountMetaSlice {
	if len(keys) != len(acc) {
		panic(fmt.Sprintf("anchor: %d accounts with %d access modes", len(keys), len(acc)))
	}
	backing := make([]solana.AccountMeta, len(keys))
	out := make(solana.AccountMetaSlice, len(keys))
	for i, k := range keys {
		backing[i] = solana.AccountMeta{PublicKey: *k, IsWritable: acc[i]&writable != 0, IsSigner: acc[i]&signer != 0}
		out[i] = &backing[i]
	}
	return out
}

// AssignAccounts copies the account keys of an instruction into fields in
// order. It needs at least need keys, the instruction's fixed accounts, and
// fills at most len(fields), so optional remaining accounts that are absent
// stay zero. program and ix name the program and the instruction in the
// error.
func AssignAccounts(program, ix string, keys []solana.PublicKey, fields []*solana.PublicKey, need int) error {
	if len(keys) < need {
		return fmt.Errorf("%s: %s needs %d accounts, got %d", program, ix, need, len(keys))
	}
	for i := 0; i < len(fields) && i < len(keys); i++ {
		*fields[i] = keys[i]
	}
	return nil
}
