package solana

import (
	"encoding/binary"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

// A sell of a wallet's whole holding closes the wallet's token account in
// the same transaction (CloseAccount, owner and destination the wallet), as
// wallets and pump.fun's own front end do: the account's rent, about 0.002
// SOL, goes back to the wallet instead of staying locked in an empty
// account. It is closed only when the token program will let the wallet
// close it once the sale emptied it; otherwise the close would fail the
// whole transaction, sale included. An account stays when
//
//   - the sale leaves tokens in it (a partial sell);
//   - it is a wrapped-SOL account (the pool trades unwrap their own, and
//     SOL itself is never the token sold);
//   - another key is its close authority, or it is frozen;
//   - it is a Token-2022 account with an extension that blocks the close
//     or may (transfer fees withheld in it, confidential balances, or any
//     extension this list does not know).
//
// pump.fun's creator vault and the curve's own token account are the
// program's, never the seller's, so no venue account stays for their sake.
//
// The amount sold is fixed when the order is signed. Tokens that reach the
// account between that read and the landing (a buy of the same wallet
// landing first) make the close fail, and with it the transaction: the
// order then shows the transaction failed with the token program's
// "Non-native account can only be closed if its balance is zero", nothing
// is sold, and the sell can be sent again.

// SPL Token account layout (shared by Token-2022 for its first 165 bytes).
const (
	tokenAccountStateOffset      = 108
	tokenAccountNativeOffset     = 109 // COption<u64> is_native
	tokenAccountCloseOffset      = 129 // COption<Pubkey> close_authority
	tokenAccountStateInitialized = 1
)

// Token-2022 account extensions (ExtensionType) that never stop the owner
// from closing an empty account. TransferFeeAmount stops it while fees
// are withheld in the account, and is checked on its own.
const (
	extImmutableOwner      = 7
	extMemoTransfer        = 8
	extCPIGuard            = 11 // guards CPIs only; the close is top level
	extNonTransferableAcct = 13
	extTransferHookAccount = 15
	extPausableAccount     = 27
	transferFeeAmountLen   = 8
)

// closableTokenAccount reports whether wallet may close its token account
// a once the account holds no tokens.
func closableTokenAccount(a *rpc.Account, wallet sol.PublicKey) bool {
	if a == nil || (a.Owner != pumpfun.TokenProgramID && a.Owner != pumpfun.Token2022ProgramID) {
		return false
	}
	d := data(a)
	if len(d) < splTokenAccountSize || sol.PublicKeyFromBytes(d[32:64]) != wallet {
		return false
	}
	if d[tokenAccountStateOffset] != tokenAccountStateInitialized {
		return false // frozen, or not an account at all
	}
	if binary.LittleEndian.Uint32(d[tokenAccountNativeOffset:]) != 0 {
		return false // wrapped SOL
	}
	if binary.LittleEndian.Uint32(d[tokenAccountCloseOffset:]) != 0 &&
		sol.PublicKeyFromBytes(d[tokenAccountCloseOffset+4:tokenAccountCloseOffset+36]) != wallet {
		return false
	}
	if len(d) == splTokenAccountSize {
		return true
	}
	return a.Owner == pumpfun.Token2022ProgramID && closableExtensions(d)
}

// closableExtensions reports whether every extension of a Token-2022
// account lets its owner close it once empty.
func closableExtensions(d []byte) bool {
	if d[token2022.AccountTypeOffset] != token2022.AccountTypeAccount {
		return false
	}
	closable := true
	whole := token2022.Extensions(d, func(typ uint16, v, n int) bool {
		switch typ {
		case extImmutableOwner, extMemoTransfer, extCPIGuard, extNonTransferableAcct, extTransferHookAccount, extPausableAccount:
		case token2022.ExtensionTransferFeeAmount:
			closable = n >= transferFeeAmountLen && binary.LittleEndian.Uint64(d[v:]) == 0
		default:
			closable = false
		}
		return closable
	})
	return whole && closable
}

// planClose decides whether l's sell of amount closes its token account:
// it sells the whole holding, and the account may be closed then.
func (l *leg) planClose(amount uint64) {
	l.closes = l.closesOn(amount)
}

// closesOn tells whether selling amount empties the wallet's token account
// and closes it. Such a sale is worth sending even when it returns nothing:
// the account's rent comes back.
func (l *leg) closesOn(amount uint64) bool {
	return l.closable && amount > 0 && amount == l.tokens
}
