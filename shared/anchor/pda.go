package anchor

import (
	"fmt"

	"github.com/gagliardetto/solana-go"
)

// FindPDA returns the program-derived address of seeds under program with
// its canonical bump.
func FindPDA(program solana.PublicKey, seeds ...[]byte) (solana.PublicKey, uint8) {
	addr, bump, err := solana.FindProgramAddress(seeds, program)
	if err != nil {
		// Seeds are fixed by the program's layout, and no bump of 255 giving
		// an off-curve point has probability 2^-255: an error is a bug.
		panic(fmt.Sprintf("anchor: no program address for seeds under program %s: %v", program, err))
	}
	return addr, bump
}

// PDA returns the program-derived address of seeds under program, without
// its bump.
func PDA(program solana.PublicKey, seeds ...[]byte) solana.PublicKey {
	addr, _ := FindPDA(program, seeds...)
	return addr
}
