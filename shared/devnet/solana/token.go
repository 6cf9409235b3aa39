package solana

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/token2022"
)

// Base layouts shared by SPL Token and Token-2022.
const (
	mintLen         = 82
	tokenAccountLen = 165
	// Token-2022 puts an account-type byte right after the 165-byte base
	// (mints are zero padded up to it), then type-length-value extensions.
	accountTypeOffset = 165
	accountTypeMint   = 1
	accountTypeToken  = 2

	extTransferFeeConfig = 1
	extTransferFeeAmount = 2
	extImmutableOwner    = 7
	extMetadataPointer   = 18
	extTokenMetadata     = 19

	accountStateUninitialized = 0
	accountStateInitialized   = 1
	accountStateFrozen        = 2
)

// Token errors (TokenError) with the text the program logs.
const (
	tokErrNotRentExempt        = 0
	tokErrInsufficientFunds    = 1
	tokErrInvalidMint          = 2
	tokErrMintMismatch         = 3
	tokErrOwnerMismatch        = 4
	tokErrFixedSupply          = 5
	tokErrAlreadyInUse         = 6
	tokErrUninitializedState   = 9
	tokErrNativeNotSupported   = 10
	tokErrNonNativeHasBalance  = 11
	tokErrInvalidInstruction   = 12
	tokErrInvalidState         = 13
	tokErrOverflow             = 14
	tokErrAuthorityUnsupported = 15
	tokErrAccountFrozen        = 17
	tokErrDecimalsMismatch     = 18
	// Token-2022 only.
	tokErrMintRequiredForTransfer       = 31
	tokErrAccountHasWithheldTransferFee = 35
)

var tokenErrText = map[uint32]string{
	tokErrNotRentExempt:        "Lamport balance below rent-exempt threshold",
	tokErrInsufficientFunds:    "insufficient funds",
	tokErrInvalidMint:          "Invalid Mint",
	tokErrMintMismatch:         "Account not associated with this Mint",
	tokErrOwnerMismatch:        "owner does not match",
	tokErrFixedSupply:          "the total supply of this token is fixed",
	tokErrAlreadyInUse:         "account or token already in use",
	tokErrUninitializedState:   "State is uninitialized",
	tokErrNativeNotSupported:   "Instruction does not support native tokens",
	tokErrNonNativeHasBalance:  "Non-native account can only be closed if its balance is zero",
	tokErrInvalidInstruction:   "Invalid instruction",
	tokErrInvalidState:         "Invalid account state for operation",
	tokErrOverflow:             "Operation overflowed",
	tokErrAuthorityUnsupported: "Account does not support specified authority type",
	tokErrAccountFrozen:        "Account is frozen",
	tokErrDecimalsMismatch:     "decimals different from the Mint decimals",

	tokErrMintRequiredForTransfer:       "Mint required for this account to transfer tokens, use `transfer_checked` or `transfer_checked_with_fee`",
	tokErrAccountHasWithheldTransferFee: "An account can only be closed if its withheld fee balance is zero, harvest fees to the mint and try again",
}

func tokenErr(ic *instrCtx, code uint32) *instrError {
	ic.log("Error: %s", tokenErrText[code])
	return customErr(code)
}

// Compute units charged per token instruction; close to what the programs
// consume on the real cluster.
const (
	tokenCUInit     = 3_000
	tokenCUTransfer = 4_700
	tokenCUChecked  = 6_200
	tokenCUMint     = 4_500
	tokenCUOther    = 3_000
)

var tokenMetadataInitDisc = func() [8]byte {
	h := sha256.Sum256([]byte("spl_token_metadata_interface:initialize_account"))
	var d [8]byte
	copy(d[:], h[:8])
	return d
}()

// mint field accessors over raw account data.
func mintAuthority(d []byte) (sol.PublicKey, bool) {
	if binary.LittleEndian.Uint32(d) == 0 {
		return sol.PublicKey{}, false
	}
	return sol.PublicKeyFromBytes(d[4:36]), true
}
func mintSupply(d []byte) uint64         { return binary.LittleEndian.Uint64(d[36:]) }
func setMintSupply(d []byte, v uint64)   { binary.LittleEndian.PutUint64(d[36:], v) }
func mintDecimals(d []byte) uint8        { return d[44] }
func mintInitialized(d []byte) bool      { return len(d) >= mintLen && d[45] == 1 }
func tokAccMint(d []byte) sol.PublicKey  { return sol.PublicKeyFromBytes(d[0:32]) }
func tokAccOwner(d []byte) sol.PublicKey { return sol.PublicKeyFromBytes(d[32:64]) }
func tokAccAmount(d []byte) uint64       { return binary.LittleEndian.Uint64(d[64:]) }
func setTokAccAmount(d []byte, v uint64) { binary.LittleEndian.PutUint64(d[64:], v) }
func tokAccState(d []byte) byte          { return d[108] }
func tokAccIsNative(d []byte) (uint64, bool) {
	if binary.LittleEndian.Uint32(d[109:]) == 0 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(d[113:]), true
}
func tokAccCloseAuthority(d []byte) (sol.PublicKey, bool) {
	if binary.LittleEndian.Uint32(d[129:]) == 0 {
		return sol.PublicKey{}, false
	}
	return sol.PublicKeyFromBytes(d[133:165]), true
}

func putCOptionKey(d []byte, k *sol.PublicKey) {
	if k == nil {
		binary.LittleEndian.PutUint32(d, 0)
		copy(d[4:36], make([]byte, 32))
		return
	}
	binary.LittleEndian.PutUint32(d, 1)
	copy(d[4:36], k[:])
}

// isTokenProgram tells whether p is SPL Token or Token-2022.
func isTokenProgram(p sol.PublicKey) bool { return p == tokenProgramID || p == token2022ProgramID }

// validMintData checks the layout of a mint account for the given program.
func validMintData(program sol.PublicKey, d []byte) bool {
	if len(d) == mintLen {
		return true
	}
	if program != token2022ProgramID || len(d) <= accountTypeOffset {
		return false
	}
	return d[accountTypeOffset] == accountTypeMint || d[accountTypeOffset] == 0
}

// validTokenAccountData checks the layout of a token account.
func validTokenAccountData(program sol.PublicKey, d []byte) bool {
	if len(d) == tokenAccountLen {
		return true
	}
	if program != token2022ProgramID || len(d) <= accountTypeOffset {
		return false
	}
	return d[accountTypeOffset] == accountTypeToken || d[accountTypeOffset] == 0
}

// tlvFind locates a Token-2022 extension; it returns the offset of its value.
func tlvFind(d []byte, typ uint16) (off, n int, ok bool) { return token2022.FindExtension(d, typ) }

// withTransferFeeAmount appends the TransferFeeAmount extension, nothing
// withheld, to the data of a Token-2022 account whose extensions end where
// its data does.
func withTransferFeeAmount(d []byte) []byte {
	d = binary.LittleEndian.AppendUint16(d, extTransferFeeAmount)
	d = binary.LittleEndian.AppendUint16(d, token2022.TransferFeeAmountSize)
	return append(d, make([]byte, token2022.TransferFeeAmountSize)...)
}

// hasTransferFee tells whether a Token-2022 mint's data carries a
// TransferFeeConfig, which every account of the mint must match with a
// TransferFeeAmount.
func hasTransferFee(program sol.PublicKey, mint []byte) bool {
	if program != token2022ProgramID {
		return false
	}
	_, ok, err := token2022.MintTransferFeeConfig(mint)
	return ok && err == nil
}

// tlvFree returns the offset of the first free TLV slot.
func tlvFree(d []byte) int {
	free := accountTypeOffset + 1
	token2022.Extensions(d, func(_ uint16, off, n int) bool {
		free = off + n
		return true
	})
	return free
}

// runToken executes SPL Token and Token-2022 instructions.
func runToken(ic *instrCtx) *instrError {
	d := ic.data
	if len(d) == 0 {
		return tokenErr(ic, tokErrInvalidInstruction)
	}
	if len(d) >= 8 && ic.program == token2022ProgramID && bytes.Equal(d[:8], tokenMetadataInitDisc[:]) {
		ic.log("Instruction: TokenMetadataInstruction: Initialize")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		return tokenMetadataInit(ic, d[8:])
	}
	tag := d[0]
	d = d[1:]
	switch tag {
	case 0, 20: // InitializeMint, InitializeMint2
		if tag == 0 {
			ic.log("Instruction: InitializeMint")
		} else {
			ic.log("Instruction: InitializeMint2")
		}
		if err := ic.consume(tokenCUInit); err != nil {
			return err
		}
		if len(d) < 34 {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		decimals := d[0]
		auth := sol.PublicKeyFromBytes(d[1:33])
		var freeze *sol.PublicKey
		if d[33] == 1 {
			if len(d) < 66 {
				return tokenErr(ic, tokErrInvalidInstruction)
			}
			f := sol.PublicKeyFromBytes(d[34:66])
			freeze = &f
		}
		return tokenInitMint(ic, decimals, auth, freeze)
	case 1, 16, 18: // InitializeAccount, InitializeAccount2, InitializeAccount3
		names := map[byte]string{1: "InitializeAccount", 16: "InitializeAccount2", 18: "InitializeAccount3"}
		ic.log("Instruction: %s", names[tag])
		if err := ic.consume(tokenCUInit); err != nil {
			return err
		}
		if err := ic.need(2); err != nil {
			return err
		}
		var owner sol.PublicKey
		if tag == 1 {
			if err := ic.need(3); err != nil {
				return err
			}
			owner = ic.key(2)
		} else {
			if len(d) < 32 {
				return tokenErr(ic, tokErrInvalidInstruction)
			}
			owner = sol.PublicKeyFromBytes(d[:32])
		}
		return tokenInitAccount(ic, 0, 1, owner)
	case 3, 12: // Transfer, TransferChecked
		checked := tag == 12
		if checked {
			ic.log("Instruction: TransferChecked")
		} else {
			ic.log("Instruction: Transfer")
		}
		cu := uint64(tokenCUTransfer)
		if checked {
			cu = tokenCUChecked
		}
		if err := ic.consume(cu); err != nil {
			return err
		}
		if len(d) < 8 || (checked && len(d) < 9) {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		amount := binary.LittleEndian.Uint64(d)
		if checked {
			if err := ic.need(4); err != nil {
				return err
			}
			return tokenTransfer(ic, 0, 2, 3, 1, amount, int(d[8]))
		}
		if err := ic.need(3); err != nil {
			return err
		}
		return tokenTransfer(ic, 0, 1, 2, -1, amount, -1)
	case 6:
		ic.log("Instruction: SetAuthority")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		return tokenSetAuthority(ic, d)
	case 7, 14: // MintTo, MintToChecked
		if tag == 7 {
			ic.log("Instruction: MintTo")
		} else {
			ic.log("Instruction: MintToChecked")
		}
		if err := ic.consume(tokenCUMint); err != nil {
			return err
		}
		if len(d) < 8 || (tag == 14 && len(d) < 9) {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		if err := ic.need(3); err != nil {
			return err
		}
		dec := -1
		if tag == 14 {
			dec = int(d[8])
		}
		return tokenMintTo(ic, 0, 1, 2, binary.LittleEndian.Uint64(d), dec)
	case 8, 15: // Burn, BurnChecked
		if tag == 8 {
			ic.log("Instruction: Burn")
		} else {
			ic.log("Instruction: BurnChecked")
		}
		if err := ic.consume(tokenCUMint); err != nil {
			return err
		}
		if len(d) < 8 || (tag == 15 && len(d) < 9) {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		if err := ic.need(3); err != nil {
			return err
		}
		dec := -1
		if tag == 15 {
			dec = int(d[8])
		}
		return tokenBurn(ic, 0, 1, 2, binary.LittleEndian.Uint64(d), dec)
	case 9:
		ic.log("Instruction: CloseAccount")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		if err := ic.need(3); err != nil {
			return err
		}
		return tokenClose(ic, 0, 1, 2)
	case 17:
		ic.log("Instruction: SyncNative")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		if err := ic.need(1); err != nil {
			return err
		}
		return tokenSyncNative(ic, 0)
	case 22:
		ic.log("Instruction: InitializeImmutableOwner")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		if err := ic.need(1); err != nil {
			return err
		}
		if ic.program == token2022ProgramID {
			return tokenInitImmutableOwner(ic, 0)
		}
		ic.log("Please upgrade to SPL Token 2022 for immutable owner support")
		return nil
	case 39:
		if ic.program != token2022ProgramID || len(d) < 65 || d[0] != 0 {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		ic.log("Instruction: MetadataPointerInstruction::Initialize")
		if err := ic.consume(tokenCUOther); err != nil {
			return err
		}
		if err := ic.need(1); err != nil {
			return err
		}
		return tokenInitMetadataPointer(ic, 0, d[1:33], d[33:65])
	}
	ic.log("Error: instruction %d is not supported by the local chain", tag)
	return customErr(tokErrInvalidInstruction)
}

// loadMint returns the data of a mint passed at i, checking owner and state.
func loadMint(ic *instrCtx, i int) ([]byte, *instrError) {
	a := ic.acc(i)
	if a.Owner != ic.program {
		return nil, errIncorrectProgramID
	}
	if !validMintData(ic.program, a.Data) {
		return nil, errInvalidAccountData
	}
	if !mintInitialized(a.Data) {
		return nil, tokenErr(ic, tokErrUninitializedState)
	}
	return a.Data, nil
}

// loadTokenAccount returns the data of the token account at i.
func loadTokenAccount(ic *instrCtx, i int) ([]byte, *instrError) {
	a := ic.acc(i)
	if a.Owner != ic.program {
		return nil, errIncorrectProgramID
	}
	if !validTokenAccountData(ic.program, a.Data) {
		return nil, errInvalidAccountData
	}
	if tokAccState(a.Data) == accountStateUninitialized {
		return nil, tokenErr(ic, tokErrUninitializedState)
	}
	return a.Data, nil
}

// checkAuthority verifies that the authority at i is the expected key and signed.
func checkAuthority(ic *instrCtx, i int, want sol.PublicKey) *instrError {
	if ic.key(i) != want {
		return tokenErr(ic, tokErrOwnerMismatch)
	}
	if !ic.signer[i] {
		return errMissingRequiredSignature
	}
	return nil
}

func tokenInitMint(ic *instrCtx, decimals uint8, auth sol.PublicKey, freeze *sol.PublicKey) *instrError {
	if err := ic.need(1); err != nil {
		return err
	}
	a := ic.acc(0)
	if a.Owner != ic.program {
		return errIncorrectProgramID
	}
	if err := ic.canWriteData(0); err != nil {
		return err
	}
	if !validMintData(ic.program, a.Data) {
		return errInvalidAccountData
	}
	if mintInitialized(a.Data) {
		return tokenErr(ic, tokErrAlreadyInUse)
	}
	if !rentOK(a.Lamports, len(a.Data)) || a.Lamports == 0 {
		return tokenErr(ic, tokErrNotRentExempt)
	}
	d := a.Data
	putCOptionKey(d[0:], &auth)
	setMintSupply(d, 0)
	d[44] = decimals
	d[45] = 1
	putCOptionKey(d[46:], freeze)
	if len(d) > accountTypeOffset {
		d[accountTypeOffset] = accountTypeMint
	}
	return nil
}

func tokenInitAccount(ic *instrCtx, acct, mint int, owner sol.PublicKey) *instrError {
	a := ic.acc(acct)
	if a.Owner != ic.program {
		return errIncorrectProgramID
	}
	if err := ic.canWriteData(acct); err != nil {
		return err
	}
	if !validTokenAccountData(ic.program, a.Data) {
		return errInvalidAccountData
	}
	if tokAccState(a.Data) != accountStateUninitialized {
		return tokenErr(ic, tokErrAlreadyInUse)
	}
	reserve := MinimumBalanceForRentExemption(len(a.Data))
	if a.Lamports < reserve {
		return tokenErr(ic, tokErrNotRentExempt)
	}
	mk := ic.key(mint)
	isNative := mk == nativeMintID || mk == nativeMint2022ID
	if !isNative {
		if ic.acc(mint).Owner != ic.program {
			return errIncorrectProgramID
		}
		if !validMintData(ic.program, ic.acc(mint).Data) || !mintInitialized(ic.acc(mint).Data) {
			return tokenErr(ic, tokErrInvalidMint)
		}
	}
	d := a.Data
	// Token-2022 gives an account the extensions its mint requires before
	// it writes the base: TransferFeeAmount for a mint with a transfer fee.
	if !isNative && hasTransferFee(ic.program, ic.acc(mint).Data) {
		if _, _, ok := tlvFind(d, extTransferFeeAmount); !ok {
			off := tlvFree(d)
			if off+4+token2022.TransferFeeAmountSize > len(d) {
				return errInvalidAccountData
			}
			d[accountTypeOffset] = accountTypeToken
			copy(d[off:], withTransferFeeAmount(nil))
		}
	}
	copy(d[0:32], mk[:])
	copy(d[32:64], owner[:])
	setTokAccAmount(d, 0)
	putCOptionKey(d[72:], nil)
	d[108] = accountStateInitialized
	if isNative {
		binary.LittleEndian.PutUint32(d[109:], 1)
		binary.LittleEndian.PutUint64(d[113:], reserve)
		setTokAccAmount(d, a.Lamports-reserve)
	} else {
		binary.LittleEndian.PutUint32(d[109:], 0)
		binary.LittleEndian.PutUint64(d[113:], 0)
	}
	binary.LittleEndian.PutUint64(d[121:], 0)
	putCOptionKey(d[129:], nil)
	if len(d) > accountTypeOffset {
		d[accountTypeOffset] = accountTypeToken
	}
	return nil
}

func tokenInitImmutableOwner(ic *instrCtx, i int) *instrError {
	a := ic.acc(i)
	if a.Owner != ic.program {
		return errIncorrectProgramID
	}
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	d := a.Data
	if len(d) < accountTypeOffset+1+4 || tokAccState(d) != accountStateUninitialized {
		return errInvalidAccountData
	}
	d[accountTypeOffset] = accountTypeToken
	off := tlvFree(d)
	if off+4 > len(d) {
		return errInvalidAccountData
	}
	binary.LittleEndian.PutUint16(d[off:], extImmutableOwner)
	binary.LittleEndian.PutUint16(d[off+2:], 0)
	return nil
}

func tokenInitMetadataPointer(ic *instrCtx, i int, authority, metadata []byte) *instrError {
	a := ic.acc(i)
	if a.Owner != ic.program {
		return errIncorrectProgramID
	}
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	d := a.Data
	if len(d) < accountTypeOffset+1+4+64 || mintInitialized(d) {
		return errInvalidAccountData
	}
	d[accountTypeOffset] = accountTypeMint
	off := tlvFree(d)
	if off+4+64 > len(d) {
		return errInvalidAccountData
	}
	binary.LittleEndian.PutUint16(d[off:], extMetadataPointer)
	binary.LittleEndian.PutUint16(d[off+2:], 64)
	copy(d[off+4:], authority)
	copy(d[off+36:], metadata)
	return nil
}

// tokenMetadataInit writes the TokenMetadata extension into the mint itself,
// growing the account like Token-2022 does. Accounts: metadata (the mint),
// update authority, mint, mint authority (signer).
func tokenMetadataInit(ic *instrCtx, d []byte) *instrError {
	if err := ic.need(4); err != nil {
		return err
	}
	name, d, ok1 := borshString(d)
	symbol, d, ok2 := borshString(d)
	uri, _, ok3 := borshString(d)
	if !ok1 || !ok2 || !ok3 {
		return errInvalidInstructionData
	}
	if ic.key(0) != ic.key(2) {
		ic.log("Error: metadata must live in the mint on the local chain")
		return errInvalidAccountData
	}
	md, err := loadMint(ic, 2)
	if err != nil {
		return err
	}
	auth, ok := mintAuthority(md)
	if !ok || auth != ic.key(3) {
		return tokenErr(ic, tokErrOwnerMismatch)
	}
	if !ic.signer[3] {
		return errMissingRequiredSignature
	}
	off, _, ok := tlvFind(md, extMetadataPointer)
	if !ok || !bytes.Equal(md[off+32:off+64], ic.key(0).Bytes()) {
		ic.log("Error: the metadata pointer does not point at the metadata account")
		return errInvalidAccountData
	}
	if _, _, exists := tlvFind(md, extTokenMetadata); exists {
		return tokenErr(ic, tokErrAlreadyInUse)
	}
	if err := ic.canWriteData(0); err != nil {
		return err
	}
	val := make([]byte, 0, 64+12+len(name)+len(symbol)+len(uri)+4)
	ua := ic.key(1)
	mk := ic.key(2)
	val = append(val, ua[:]...)
	val = append(val, mk[:]...)
	val = appendBorshString(val, name)
	val = appendBorshString(val, symbol)
	val = appendBorshString(val, uri)
	val = binary.LittleEndian.AppendUint32(val, 0) // additional_metadata: empty vec
	a := ic.acc(0)
	pos := tlvFree(a.Data)
	nd := make([]byte, pos+4+len(val))
	copy(nd, a.Data[:pos])
	binary.LittleEndian.PutUint16(nd[pos:], extTokenMetadata)
	binary.LittleEndian.PutUint16(nd[pos+2:], uint16(len(val)))
	copy(nd[pos+4:], val)
	a.Data = nd
	return nil
}

func tokenTransfer(ic *instrCtx, src, dst, auth, mint int, amount uint64, decimals int) *instrError {
	sd, err := loadTokenAccount(ic, src)
	if err != nil {
		return err
	}
	dd, err := loadTokenAccount(ic, dst)
	if err != nil {
		return err
	}
	if tokAccState(sd) == accountStateFrozen || tokAccState(dd) == accountStateFrozen {
		return tokenErr(ic, tokErrAccountFrozen)
	}
	if tokAccAmount(sd) < amount {
		return tokenErr(ic, tokErrInsufficientFunds)
	}
	if tokAccMint(sd) != tokAccMint(dd) {
		return tokenErr(ic, tokErrMintMismatch)
	}
	// A mint with a transfer fee withholds the fee of the current epoch in
	// the destination; only the checked transfer, which names the mint, can
	// compute it, so Token-2022 refuses the plain one out of an account
	// that carries TransferFeeAmount.
	var fee uint64
	if mint >= 0 {
		if ic.key(mint) != tokAccMint(sd) {
			return tokenErr(ic, tokErrMintMismatch)
		}
		md, err := loadMint(ic, mint)
		if err != nil {
			return err
		}
		if int(mintDecimals(md)) != decimals {
			return tokenErr(ic, tokErrDecimalsMismatch)
		}
		if ic.program == token2022ProgramID {
			cfg, ok, cerr := token2022.MintTransferFeeConfig(md)
			if cerr != nil {
				return errInvalidAccountData
			}
			if ok {
				fee = cfg.At(ic.tx.epoch()).Fee(amount)
			}
		}
	} else if ic.program == token2022ProgramID {
		if _, _, ok := tlvFind(sd, extTransferFeeAmount); ok {
			return tokenErr(ic, tokErrMintRequiredForTransfer)
		}
	}
	if err := checkAuthority(ic, auth, tokAccOwner(sd)); err != nil {
		return err
	}
	if ic.idx[src] == ic.idx[dst] {
		return nil
	}
	withheld := -1
	if fee > 0 {
		off, n, ok := tlvFind(dd, extTransferFeeAmount)
		if !ok || n != token2022.TransferFeeAmountSize {
			return tokenErr(ic, tokErrInvalidState)
		}
		withheld = off
	}
	if err := ic.canWriteData(src); err != nil {
		return err
	}
	if err := ic.canWriteData(dst); err != nil {
		return err
	}
	credited := amount - fee
	if tokAccAmount(dd)+credited < tokAccAmount(dd) {
		return tokenErr(ic, tokErrOverflow)
	}
	if withheld >= 0 {
		w := binary.LittleEndian.Uint64(dd[withheld:])
		if w+fee < w {
			return tokenErr(ic, tokErrOverflow)
		}
		binary.LittleEndian.PutUint64(dd[withheld:], w+fee)
	}
	setTokAccAmount(sd, tokAccAmount(sd)-amount)
	setTokAccAmount(dd, tokAccAmount(dd)+credited)
	if _, native := tokAccIsNative(sd); native {
		if err := ic.move(src, dst, amount); err != nil {
			return err
		}
	}
	return nil
}

func tokenMintTo(ic *instrCtx, mint, dst, auth int, amount uint64, decimals int) *instrError {
	md, err := loadMint(ic, mint)
	if err != nil {
		return err
	}
	dd, err := loadTokenAccount(ic, dst)
	if err != nil {
		return err
	}
	if tokAccMint(dd) != ic.key(mint) {
		return tokenErr(ic, tokErrMintMismatch)
	}
	if tokAccState(dd) == accountStateFrozen {
		return tokenErr(ic, tokErrAccountFrozen)
	}
	if decimals >= 0 && int(mintDecimals(md)) != decimals {
		return tokenErr(ic, tokErrDecimalsMismatch)
	}
	ma, ok := mintAuthority(md)
	if !ok {
		return tokenErr(ic, tokErrFixedSupply)
	}
	if err := checkAuthority(ic, auth, ma); err != nil {
		return err
	}
	if err := ic.canWriteData(mint); err != nil {
		return err
	}
	if err := ic.canWriteData(dst); err != nil {
		return err
	}
	if mintSupply(md)+amount < mintSupply(md) {
		return tokenErr(ic, tokErrOverflow)
	}
	setMintSupply(md, mintSupply(md)+amount)
	setTokAccAmount(dd, tokAccAmount(dd)+amount)
	return nil
}

func tokenBurn(ic *instrCtx, acct, mint, auth int, amount uint64, decimals int) *instrError {
	ad, err := loadTokenAccount(ic, acct)
	if err != nil {
		return err
	}
	md, err := loadMint(ic, mint)
	if err != nil {
		return err
	}
	if tokAccMint(ad) != ic.key(mint) {
		return tokenErr(ic, tokErrMintMismatch)
	}
	if decimals >= 0 && int(mintDecimals(md)) != decimals {
		return tokenErr(ic, tokErrDecimalsMismatch)
	}
	if _, native := tokAccIsNative(ad); native {
		return tokenErr(ic, tokErrNativeNotSupported)
	}
	if tokAccState(ad) == accountStateFrozen {
		return tokenErr(ic, tokErrAccountFrozen)
	}
	if tokAccAmount(ad) < amount {
		return tokenErr(ic, tokErrInsufficientFunds)
	}
	if err := checkAuthority(ic, auth, tokAccOwner(ad)); err != nil {
		return err
	}
	if err := ic.canWriteData(acct); err != nil {
		return err
	}
	if err := ic.canWriteData(mint); err != nil {
		return err
	}
	setTokAccAmount(ad, tokAccAmount(ad)-amount)
	setMintSupply(md, mintSupply(md)-amount)
	return nil
}

func tokenClose(ic *instrCtx, acct, dst, auth int) *instrError {
	ad, err := loadTokenAccount(ic, acct)
	if err != nil {
		return err
	}
	if ic.idx[acct] == ic.idx[dst] {
		return errInvalidAccountData
	}
	if _, native := tokAccIsNative(ad); !native && tokAccAmount(ad) != 0 {
		return tokenErr(ic, tokErrNonNativeHasBalance)
	}
	want := tokAccOwner(ad)
	if ca, ok := tokAccCloseAuthority(ad); ok {
		want = ca
	}
	if err := checkAuthority(ic, auth, want); err != nil {
		return err
	}
	if ic.program == token2022ProgramID {
		if off, n, ok := tlvFind(ad, extTransferFeeAmount); ok && n == token2022.TransferFeeAmountSize && binary.LittleEndian.Uint64(ad[off:]) != 0 {
			return tokenErr(ic, tokErrAccountHasWithheldTransferFee)
		}
	}
	if err := ic.canWriteData(acct); err != nil {
		return err
	}
	if err := ic.move(acct, dst, ic.acc(acct).Lamports); err != nil {
		return err
	}
	a := ic.acc(acct)
	a.Data = nil
	a.Owner = systemProgramID
	return nil
}

func tokenSyncNative(ic *instrCtx, i int) *instrError {
	ad, err := loadTokenAccount(ic, i)
	if err != nil {
		return err
	}
	reserve, native := tokAccIsNative(ad)
	if !native {
		return tokenErr(ic, tokErrNonNativeNotSupported)
	}
	if err := ic.canWriteData(i); err != nil {
		return err
	}
	lam := ic.acc(i).Lamports
	if lam < reserve {
		return tokenErr(ic, tokErrInvalidState)
	}
	if lam-reserve < tokAccAmount(ad) {
		return tokenErr(ic, tokErrInvalidState)
	}
	setTokAccAmount(ad, lam-reserve)
	return nil
}

const tokErrNonNativeNotSupported = 19

func init() {
	tokenErrText[tokErrNonNativeNotSupported] = "Instruction does not support non-native tokens"
}

// tokenSetAuthority handles SetAuthority for mint-tokens, freeze, owner and
// close authorities.
func tokenSetAuthority(ic *instrCtx, d []byte) *instrError {
	if len(d) < 2 {
		return tokenErr(ic, tokErrInvalidInstruction)
	}
	if err := ic.need(2); err != nil {
		return err
	}
	typ := d[0]
	var newAuth *sol.PublicKey
	if d[1] == 1 {
		if len(d) < 34 {
			return tokenErr(ic, tokErrInvalidInstruction)
		}
		k := sol.PublicKeyFromBytes(d[2:34])
		newAuth = &k
	}
	a := ic.acc(0)
	if a.Owner != ic.program {
		return errIncorrectProgramID
	}
	if err := ic.canWriteData(0); err != nil {
		return err
	}
	switch typ {
	case 0, 1: // MintTokens, FreezeAccount
		md, err := loadMint(ic, 0)
		if err != nil {
			return err
		}
		off := 0
		if typ == 1 {
			off = 46
		}
		cur, ok := mintAuthority(md[off:])
		if !ok {
			return tokenErr(ic, tokErrFixedSupply)
		}
		if err := checkAuthority(ic, 1, cur); err != nil {
			return err
		}
		putCOptionKey(md[off:], newAuth)
	case 2, 3: // AccountOwner, CloseAccount
		ad, err := loadTokenAccount(ic, 0)
		if err != nil {
			return err
		}
		if typ == 2 {
			if ic.program == token2022ProgramID {
				if _, _, immutable := tlvFind(ad, extImmutableOwner); immutable {
					ic.log("Error: Account owner cannot be changed")
					return customErr(0x22)
				}
			}
			if err := checkAuthority(ic, 1, tokAccOwner(ad)); err != nil {
				return err
			}
			if newAuth == nil {
				return tokenErr(ic, tokErrInvalidInstruction)
			}
			copy(ad[32:64], newAuth[:])
		} else {
			want := tokAccOwner(ad)
			if ca, ok := tokAccCloseAuthority(ad); ok {
				want = ca
			}
			if err := checkAuthority(ic, 1, want); err != nil {
				return err
			}
			putCOptionKey(ad[129:], newAuth)
		}
	default:
		return tokenErr(ic, tokErrAuthorityUnsupported)
	}
	return nil
}

// borshString reads a u32-length-prefixed string.
func borshString(d []byte) (string, []byte, bool) {
	if len(d) < 4 {
		return "", d, false
	}
	n := binary.LittleEndian.Uint32(d)
	if uint64(len(d)-4) < uint64(n) {
		return "", d, false
	}
	return string(d[4 : 4+n]), d[4+n:], true
}

func appendBorshString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// Token-2022 sizes of the accounts this chain creates.
var (
	// A token account with the ImmutableOwner extension, as the ATA program
	// creates under Token-2022.
	token2022AccountLen = accountTypeOffset + 1 + 4
	// A mint with only the MetadataPointer extension, before TokenMetadata
	// is appended.
	token2022MintWithPointerLen = accountTypeOffset + 1 + 4 + 64
)
