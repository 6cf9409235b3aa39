package venues

import (
	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// SolanaProgramError names a venue program's own error by its code, as the
// program's IDL does: two programs reuse the same codes, so the program
// that failed decides which table is read. ok is false for a program that
// is not a venue's, or a code its IDL does not list.
func SolanaProgramError(program sol.PublicKey, code uint32) (*anchor.ProgramError, bool) {
	switch program {
	case pumpfun.ProgramID:
		return pumpfun.ProgramErrorByCode(code)
	case pumpswap.ProgramID:
		return pumpswap.ProgramErrorByCode(code)
	case launchlab.ProgramID:
		return launchlab.ProgramErrorByCode(code)
	case dbc.ProgramID:
		return dbc.ProgramErrorByCode(code)
	}
	return nil, false
}
