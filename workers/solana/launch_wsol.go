package solana

import (
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// wsolBuy wraps a buy that pays in WSOL, as LaunchLab and DBC buys do: the
// wallet's WSOL account is created (idempotently) and funded with amount,
// its base-token account created, trade runs, and the WSOL account is
// closed so that whatever the trade left returns to the wallet as SOL.
func wsolBuy(wallet, baseMint sol.PublicKey, amount uint64, trade sol.Instruction) []sol.Instruction {
	spl := pumpfun.TokenProgramID
	wsol := pumpfun.AssociatedTokenAddress(wallet, sol.SolMint, spl)
	return []sol.Instruction{
		createATAIdempotent(wallet, wsol, wallet, sol.SolMint, spl),
		system.NewTransferInstruction(amount, wallet, wsol).Build(),
		syncNative(wsol, spl),
		createATAIdempotent(wallet, pumpfun.AssociatedTokenAddress(wallet, baseMint, spl), wallet, baseMint, spl),
		trade,
		closeAccount(wsol, wallet, spl),
	}
}

// wsolBuyRent is the rent a WSOL buy leaves locked: the base-token
// account (the WSOL account's returns when it is closed, within the same
// transaction, but must be there while it runs).
var wsolBuyRent = add(rentExempt(splTokenAccountSize), rentExempt(splTokenAccountSize))
