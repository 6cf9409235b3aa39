// Package solanaloader reads what Solana's upgradeable BPF loader says of a
// program: its Program account, which names where the program-data lives,
// and the header of that program-data, which holds the slot of the last
// deploy. The venue checks fingerprint a program by that slot and the
// preflight check reports it, so both read the accounts here, alike.
package solanaloader

import (
	"encoding/binary"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
)

// Layout of the loader's accounts (UpgradeableLoaderState, bincode): a u32
// tag, then for a Program its program-data address, for a ProgramData the
// slot of its last deploy and its optional upgrade authority, the image
// following.
const (
	tagProgram     = 2
	tagProgramData = 3
	// programAccountSize is a Program account: the tag and the address.
	programAccountSize = 4 + 32
	// slotEnd is where a ProgramData's slot ends: all that is read of it.
	slotEnd = 4 + 8
	// ProgramDataHeaderSize is a ProgramData's header, up to the image:
	// the tag, the slot and the authority. Reading only that many bytes
	// spares fetching an image of hundreds of kilobytes.
	ProgramDataHeaderSize = 4 + 8 + 1 + 32
)

// ProgramDataAddress is the loader's PDA of a program: where its
// program-data lives.
func ProgramDataAddress(program sol.PublicKey) sol.PublicKey {
	return anchor.PDA(sol.BPFLoaderUpgradeableProgramID, program[:])
}

// State is how far the loader's accounts of a program read as a deployed
// upgradeable program: the first thing found wrong, or Deployed.
type State int

const (
	// NotProgram: the program account is missing, not the loader's, or
	// not a Program.
	NotProgram State = iota
	// Moved: the Program names a program-data other than the loader's PDA.
	Moved
	// DataMissing: the program-data account does not exist.
	DataMissing
	// DataUnreadable: the program-data account is not a ProgramData of
	// the loader.
	DataUnreadable
	// Deployed: both accounts read, and Slot is the last deploy.
	Deployed
)

// Deployment is what the loader's accounts say of one program.
type Deployment struct {
	State State
	// ProgramData is the loader's PDA of the program; Named the
	// program-data address its Program account holds (zero when
	// NotProgram).
	ProgramData, Named sol.PublicKey
	// Slot is the slot of the last deploy, when Deployed.
	Slot uint64
}

// Read decodes the accounts of an upgradeable program: prog at the
// program's id and data at its ProgramDataAddress, either nil when it does
// not exist. Only the first ProgramDataHeaderSize bytes of data are needed.
func Read(program sol.PublicKey, prog, data *rpc.Account) Deployment {
	d := Deployment{ProgramData: ProgramDataAddress(program)}
	if prog == nil || prog.Owner != sol.BPFLoaderUpgradeableProgramID {
		return d
	}
	b := prog.Data.GetBinary()
	if len(b) < programAccountSize || binary.LittleEndian.Uint32(b) != tagProgram {
		return d
	}
	d.Named = sol.PublicKeyFromBytes(b[4:programAccountSize])
	switch {
	case d.Named != d.ProgramData:
		d.State = Moved
		return d
	case data == nil:
		d.State = DataMissing
		return d
	}
	h := data.Data.GetBinary()
	if data.Owner != sol.BPFLoaderUpgradeableProgramID || len(h) < slotEnd || binary.LittleEndian.Uint32(h) != tagProgramData {
		d.State = DataUnreadable
		return d
	}
	d.State, d.Slot = Deployed, binary.LittleEndian.Uint64(h[4:slotEnd])
	return d
}
