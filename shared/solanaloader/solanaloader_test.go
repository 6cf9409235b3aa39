package solanaloader

import (
	"encoding/binary"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
)

func TestRead(t *testing.T) {
	id := sol.MustPublicKeyFromBase58("dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN")
	pda := ProgramDataAddress(id)
	loader := sol.BPFLoaderUpgradeableProgramID
	programAccount := func(owner, named sol.PublicKey) *rpc.Account {
		b := binary.LittleEndian.AppendUint32(nil, tagProgram)
		return &rpc.Account{Owner: owner, Executable: true, Data: rpc.DataBytesOrJSONFromBytes(append(b, named[:]...))}
	}
	header := func(owner sol.PublicKey, tag uint32, slot uint64) *rpc.Account {
		b := binary.LittleEndian.AppendUint32(nil, tag)
		b = binary.LittleEndian.AppendUint64(b, slot)
		b = append(b, make([]byte, 1+32)...)
		return &rpc.Account{Owner: owner, Data: rpc.DataBytesOrJSONFromBytes(b)}
	}
	short := &rpc.Account{Owner: loader, Executable: true, Data: rpc.DataBytesOrJSONFromBytes([]byte{tagProgram, 0, 0, 0})}
	other := sol.SystemProgramID
	for _, c := range []struct {
		name       string
		prog, data *rpc.Account
		want       Deployment
	}{
		{"no program account", nil, nil, Deployment{State: NotProgram, ProgramData: pda}},
		{"another loader's", programAccount(other, pda), nil, Deployment{State: NotProgram, ProgramData: pda}},
		{"too short for a Program", short, nil, Deployment{State: NotProgram, ProgramData: pda}},
		{"program-data elsewhere", programAccount(loader, other), header(loader, tagProgramData, 7), Deployment{State: Moved, ProgramData: pda, Named: other}},
		{"no program-data", programAccount(loader, pda), nil, Deployment{State: DataMissing, ProgramData: pda, Named: pda}},
		{"program-data not the loader's", programAccount(loader, pda), header(other, tagProgramData, 7), Deployment{State: DataUnreadable, ProgramData: pda, Named: pda}},
		{"program-data not a ProgramData", programAccount(loader, pda), header(loader, tagProgram, 7), Deployment{State: DataUnreadable, ProgramData: pda, Named: pda}},
		{"deployed", programAccount(loader, pda), header(loader, tagProgramData, 1234), Deployment{State: Deployed, ProgramData: pda, Named: pda, Slot: 1234}},
	} {
		if got := Read(id, c.prog, c.data); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
