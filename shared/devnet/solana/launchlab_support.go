package solana

import (
	"encoding/base64"
	"encoding/binary"

	sol "github.com/gagliardetto/solana-go"
)

// What the LaunchLab and DBC programs share on this chain: the Metaplex
// CreateMetadataAccountV3 they both call, token and account CPIs with a
// program-derived signer, and Anchor's event self-invocation.

// More Anchor account errors than pump.go lists.
var (
	anchorConstraintHasOne            = anchorError{2001, "ConstraintHasOne", "A has one constraint was violated"}
	anchorConstraintTokenTokenProgram = anchorError{2021, "ConstraintTokenTokenProgram", "A token account token program constraint was violated"}
	anchorConstraintMintTokenProgram  = anchorError{2022, "ConstraintMintTokenProgram", "A mint token program constraint was violated"}
)

// anchorCustomFail logs a program error of an Anchor program and returns it.
func anchorCustomFail(ic *instrCtx, code uint32, name, msg string) *instrError {
	ic.log("AnchorError occurred. Error Code: %s. Error Number: %d. Error Message: %s.", name, code, msg)
	return customErr(code)
}

// loadAnchorAccount checks that account i is owned by the running program
// and starts with disc, with Anchor's errors when it is not.
func loadAnchorAccount(ic *instrCtx, i int, name string, disc [8]byte) ([]byte, *instrError) {
	a := ic.acc(i)
	if a.Owner != ic.program {
		if len(a.Data) == 0 {
			return nil, accountFail(ic, name, anchorAccountNotInitialized)
		}
		return nil, accountFail(ic, name, anchorAccountOwnedByWrong)
	}
	if len(a.Data) < 8 {
		return nil, accountFail(ic, name, anchorDiscriminatorNotFound)
	}
	if [8]byte(a.Data[:8]) != disc {
		return nil, accountFail(ic, name, anchorDiscriminatorMismatch)
	}
	return a.Data, nil
}

// createMint creates mint i under the token program at prog with decimals
// and mint authority auth, paid by payer; mint i signs as a new keypair.
func createMint(ic *instrCtx, payer, mint, prog int, decimals uint8, auth sol.PublicKey) *instrError {
	if err := createPDAAccount(ic, payer, mint, mintLen, ic.key(prog)); err != nil {
		return err
	}
	init := append([]byte{20, decimals}, auth[:]...)
	return ic.invoke(ic.key(prog), []cpiAccount{{mint, false, true}}, append(init, 0))
}

// createTokenAccount creates the program-derived token account i of mint
// owned by owner, paid by payer.
func createTokenAccount(ic *instrCtx, payer, i, mint, prog int, owner sol.PublicKey) *instrError {
	if err := createPDAAccount(ic, payer, i, tokenAccountLen, ic.key(prog)); err != nil {
		return err
	}
	return ic.invoke(ic.key(prog), []cpiAccount{{i, false, true}, {mint, false, false}}, append([]byte{18}, owner[:]...))
}

// emitAnchorEvent logs ev and emits it through the running program's
// self-invocation signed by its event authority at i.
func emitAnchorEvent(ic *instrCtx, i int, authority sol.PublicKey, tag [8]byte, ev []byte) *instrError {
	ic.tx.log("Program data: %s", base64.StdEncoding.EncodeToString(ev))
	data := append(append(make([]byte, 0, 8+len(ev)), tag[:]...), ev...)
	return ic.invoke(ic.program, []cpiAccount{{i, true, false}}, data, authority)
}

// acceptEventCPI runs Anchor's event self-invocation: only the event
// authority may sign it.
func acceptEventCPI(ic *instrCtx, authority sol.PublicKey) *instrError {
	if err := ic.consume(pumpCUEvent); err != nil {
		return err
	}
	if ic.n() < 1 || ic.key(0) != authority || !ic.signer[0] {
		return accountFail(ic, "event_authority", anchorAccountNotSigner)
	}
	return nil
}

// Metaplex token metadata as this chain runs it: CreateMetadataAccountV3
// only, writing the v1 Metadata layout wallets and explorers read.
const (
	metaplexCUCreate       = 25_000
	metaplexMetadataLen    = 679 // MAX_METADATA_LEN
	metaplexMaxName        = 32
	metaplexMaxSymbol      = 10
	metaplexMaxURI         = 200
	metaplexKeyMetadataV1  = 4
	metaplexFungible       = 2
	metaplexIxCreateV3     = 33
	metaplexErrNameTooLong = 11
	metaplexErrSymbolLong  = 12
	metaplexErrURITooLong  = 13
	metaplexErrMintAuth    = 25
	metaplexErrDerivedKey  = 5
)

// MetaplexMetadata is what a Metaplex metadata account says of a mint.
type MetaplexMetadata struct {
	UpdateAuthority sol.PublicKey
	Mint            sol.PublicKey
	Name            string
	Symbol          string
	URI             string
	IsMutable       bool
}

// DecodeMetaplexMetadata reads the head of a Metaplex metadata account,
// trimming the NUL padding of its strings.
func DecodeMetaplexMetadata(d []byte) (MetaplexMetadata, bool) {
	if len(d) < 65 || d[0] != metaplexKeyMetadataV1 {
		return MetaplexMetadata{}, false
	}
	m := MetaplexMetadata{UpdateAuthority: sol.PublicKeyFromBytes(d[1:33]), Mint: sol.PublicKeyFromBytes(d[33:65])}
	rest := d[65:]
	var ok bool
	for _, s := range []*string{&m.Name, &m.Symbol, &m.URI} {
		if *s, rest, ok = borshString(rest); !ok {
			return MetaplexMetadata{}, false
		}
		*s = trimNUL(*s)
	}
	// seller fee (2), creators None (1), primary sale (1), is_mutable.
	if len(rest) < 5 {
		return MetaplexMetadata{}, false
	}
	m.IsMutable = rest[4] == 1
	return m, true
}

func trimNUL(s string) string {
	for len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	return s
}

func padded(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + string(make([]byte, n-len(s)))
}

// runMetaplex executes CreateMetadataAccountV3 (metadata, mint, mint
// authority, payer, update authority, system program[, rent]) for a mint
// without creators, collection or uses.
func runMetaplex(ic *instrCtx) *instrError {
	if len(ic.data) == 0 || ic.data[0] != metaplexIxCreateV3 {
		ic.log("Error: instruction is not supported by the local chain; only CreateMetadataAccountV3 is")
		return errInvalidInstructionData
	}
	ic.log("IX: Create Metadata Accounts v3")
	if err := ic.consume(metaplexCUCreate); err != nil {
		return err
	}
	if err := ic.need(6); err != nil {
		return err
	}
	name, rest, ok1 := borshString(ic.data[1:])
	symbol, rest, ok2 := borshString(rest)
	uri, rest, ok3 := borshString(rest)
	// seller_fee u16, creators None, collection None, uses None, is_mutable,
	// collection_details None.
	if !ok1 || !ok2 || !ok3 || len(rest) < 7 || rest[2] != 0 || rest[3] != 0 || rest[4] != 0 {
		ic.log("Error: only metadata without creators, collection or uses is supported")
		return errInvalidInstructionData
	}
	sellerFee, mutable := binary.LittleEndian.Uint16(rest), rest[5] == 1
	switch {
	case len(name) > metaplexMaxName:
		ic.log("Name too long")
		return customErr(metaplexErrNameTooLong)
	case len(symbol) > metaplexMaxSymbol:
		ic.log("Symbol too long")
		return customErr(metaplexErrSymbolLong)
	case len(uri) > metaplexMaxURI:
		ic.log("URI too long")
		return customErr(metaplexErrURITooLong)
	}
	mint := ic.key(1)
	if ic.key(0) != findPDA(metaplexProgramID, []byte("metadata"), metaplexProgramID[:], mint[:]) {
		ic.log("Derived key invalid")
		return customErr(metaplexErrDerivedKey)
	}
	md := ic.acc(1).Data
	if !isTokenProgram(ic.acc(1).Owner) || len(md) < mintLen || !mintInitialized(md) {
		return errIncorrectProgramID
	}
	if auth, ok := mintAuthority(md); !ok || auth != ic.key(2) || !ic.signer[2] {
		ic.log("Mint authority provided does not match the authority on the mint")
		return customErr(metaplexErrMintAuth)
	}
	if err := createPDAAccount(ic, 3, 0, metaplexMetadataLen, metaplexProgramID); err != nil {
		return err
	}
	d := make([]byte, 0, metaplexMetadataLen)
	d = append(d, metaplexKeyMetadataV1)
	upd := ic.key(4)
	d = append(d, upd[:]...)
	d = append(d, mint[:]...)
	d = appendBorshString(d, padded(name, metaplexMaxName))
	d = appendBorshString(d, padded(symbol, metaplexMaxSymbol))
	d = appendBorshString(d, padded(uri, metaplexMaxURI))
	d = binary.LittleEndian.AppendUint16(d, sellerFee)
	d = append(d, 0, 0) // no creators, primary sale not happened
	if mutable {
		d = append(d, 1)
	} else {
		d = append(d, 0)
	}
	// edition nonce None, token standard Some(Fungible); collection, uses,
	// collection details and programmable config None.
	d = append(d, 0, 1, metaplexFungible, 0, 0, 0, 0)
	copy(ic.acc(0).Data, d)
	return nil
}

// createMetadataCPI calls CreateMetadataAccountV3 from the running program
// with the accounts at the given positions; mintAuth signs as a program
// address.
func createMetadataCPI(ic *instrCtx, metadata, mint, mintAuth, payer, updateAuth, system int, name, symbol, uri string, mutable bool, signer sol.PublicKey) *instrError {
	data := []byte{metaplexIxCreateV3}
	data = appendBorshString(data, name)
	data = appendBorshString(data, symbol)
	data = appendBorshString(data, uri)
	data = append(data, 0, 0, 0, 0, 0)
	if mutable {
		data = append(data, 1)
	} else {
		data = append(data, 0)
	}
	data = append(data, 0)
	return ic.invoke(metaplexProgramID, []cpiAccount{
		{metadata, false, true}, {mint, false, false}, {mintAuth, true, false}, {payer, true, true},
		{updateAuth, false, false}, {system, false, false},
	}, data, signer)
}
