package solana

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// The venue programs (pump.fun, PumpSwap, LaunchLab, DBC) are deployed the
// way mainnet deploys them, through the BPF upgradeable loader: the
// executable program account holds only the address of its program-data
// account, whose header holds the slot of the last deploy and the upgrade
// authority, followed by the program's image. A client that wants to know
// whether a program changed under it reads that slot, as on mainnet.
//
// UpgradeProgram redeploys one of them, so that both kinds of upgrade can be
// exercised end to end: a compatible one changes nothing but the deploy
// slot; a breaking one makes the program require one more read-only account
// (its trade config) at the end of every trade instruction, and refuse a
// transaction without it, as a real upgrade that adds an account would.

// Layout of the BPF upgradeable loader's accounts (UpgradeableLoaderState,
// bincode): a u32 variant tag, then for Program the program-data address,
// for ProgramData the deploy slot and an Option<Pubkey> upgrade authority,
// then the image.
const (
	loaderStateProgram     = 2
	loaderStateProgramData = 3
	// ProgramAccountSize is the size of an upgradeable program account.
	ProgramAccountSize = 4 + 32
	// ProgramDataHeaderSize is the size of a program-data account's header;
	// the program's image follows it.
	ProgramDataHeaderSize = 4 + 8 + 1 + 32
)

// imageMagic starts the image of a program this chain runs, after the
// program-data header. The bytes after it are the image's revision (u32),
// whether it is a breaking build (one byte) and, for one, the account its
// trade instructions require (32 bytes), then the program's name.
var imageMagic = []byte("\x7fELFtapi")

const imageFixedSize = 8 + 4 + 1 + 32

// Venues whose programs UpgradeProgram redeploys: the names the service
// gives them.
const (
	VenuePumpFun   = "pump_fun"
	VenuePumpSwap  = "pumpswap"
	VenueLaunchLab = "launchlab"
	VenueDBC       = "dbc"
)

// upgradeable is a venue program deployed through the upgradeable loader.
type upgradeable struct {
	venue string
	id    sol.PublicKey
	// data is the program-data account, PDA([program id]) of the loader.
	data sol.PublicKey
	// trades are the program's trade instructions, by discriminator, with
	// their names for the error a breaking build answers.
	trades map[anchor.Discriminator]string
}

// upgradeables are the venue programs in the order of the venues.
var upgradeables = []*upgradeable{
	newUpgradeable(VenuePumpFun, pumpProgramID, map[anchor.Discriminator]string{
		pumpfun.BuyDiscriminator: "buy", pumpfun.BuyExactSolInDiscriminator: "buy_exact_sol_in", pumpfun.SellDiscriminator: "sell"}),
	newUpgradeable(VenuePumpSwap, ammProgramID, map[anchor.Discriminator]string{
		pumpswap.BuyDiscriminator: "buy", pumpswap.BuyExactQuoteInDiscriminator: "buy_exact_quote_in", pumpswap.SellDiscriminator: "sell"}),
	newUpgradeable(VenueLaunchLab, launchLabProgramID, map[anchor.Discriminator]string{
		launchlab.BuyExactInDiscriminator: "buy_exact_in", launchlab.BuyExactOutDiscriminator: "buy_exact_out",
		launchlab.SellExactInDiscriminator: "sell_exact_in", launchlab.SellExactOutDiscriminator: "sell_exact_out"}),
	newUpgradeable(VenueDBC, dbcProgramID, map[anchor.Discriminator]string{
		dbc.SwapDiscriminator: "swap", dbc.Swap2Discriminator: "swap2"}),
}

func newUpgradeable(venue string, id sol.PublicKey, trades map[anchor.Discriminator]string) *upgradeable {
	return &upgradeable{venue: venue, id: id, data: ProgramDataAddress(id), trades: trades}
}

// upgradeableByID finds a venue program by its id on the execution path.
var upgradeableByID = func() map[sol.PublicKey]*upgradeable {
	m := make(map[sol.PublicKey]*upgradeable, len(upgradeables))
	for _, u := range upgradeables {
		m[u.id] = u
	}
	return m
}()

// upgradeableByVenue finds a venue program by its venue's name.
func upgradeableByVenue(venue string) (*upgradeable, bool) {
	for _, u := range upgradeables {
		if u.venue == venue {
			return u, true
		}
	}
	return nil, false
}

// ProgramDataAddress returns the program-data account of an upgradeable
// program: the loader's PDA of the program id.
func ProgramDataAddress(program sol.PublicKey) sol.PublicKey {
	return findPDA(bpfLoaderUpgradeableID, program[:])
}

// TradeConfigAddress returns the account a breaking build of program
// requires at the end of its trade instructions.
func TradeConfigAddress(program sol.PublicKey) sol.PublicKey {
	return findPDA(program, []byte("trade_config"))
}

// programImage is what follows a venue program's program-data header.
type programImage struct {
	revision uint32
	breaking bool
	required sol.PublicKey
	name     string
}

func (im programImage) encode() []byte {
	b := make([]byte, 0, imageFixedSize+len(im.name))
	b = append(b, imageMagic...)
	b = binary.LittleEndian.AppendUint32(b, im.revision)
	flag := byte(0)
	if im.breaking {
		flag = 1
	}
	b = append(b, flag)
	b = append(b, im.required[:]...)
	return append(b, im.name...)
}

// decodeImage reads an image; ok is false for bytes this chain did not
// write, which then run as the original build.
func decodeImage(b []byte) (im programImage, ok bool) {
	if len(b) < imageFixedSize || !slices.Equal(b[:8], imageMagic) {
		return im, false
	}
	im.revision = binary.LittleEndian.Uint32(b[8:])
	im.breaking = b[12] == 1
	copy(im.required[:], b[13:45])
	im.name = string(b[45:])
	return im, true
}

// programDataAccount encodes a program-data account deployed at slot.
func (c *Chain) programDataAccount(u *upgradeable, slot uint64, im programImage) *Account {
	d := binary.LittleEndian.AppendUint32(nil, loaderStateProgramData)
	d = binary.LittleEndian.AppendUint64(d, slot)
	auth := c.deriveKey("upgrade-authority/" + u.venue).PublicKey()
	d = append(d, 1)
	d = append(d, auth[:]...)
	d = append(d, im.encode()...)
	return &Account{Lamports: MinimumBalanceForRentExemption(len(d)), Owner: bpfLoaderUpgradeableID, Data: d}
}

// installUpgradeable writes the program account of every venue program and,
// where it does not exist yet, its program-data account with the original
// build. A chain loaded from a file keeps the program-data it had, so an
// upgrade outlives a restart as it would on a cluster.
func (c *Chain) installUpgradeable() {
	for _, u := range upgradeables {
		c.installUpgradeableProgram(u)
	}
}

// installUpgradeableProgram writes one upgradeable program's account and,
// where it does not exist yet, its program-data account.
func (c *Chain) installUpgradeableProgram(u *upgradeable) {
	d := binary.LittleEndian.AppendUint32(nil, loaderStateProgram)
	d = append(d, u.data[:]...)
	c.accounts[u.id] = &Account{Lamports: MinimumBalanceForRentExemption(len(d)), Owner: bpfLoaderUpgradeableID, Data: d, Executable: true}
	if a := c.accounts[u.data]; a != nil && a.Owner == bpfLoaderUpgradeableID && len(a.Data) >= ProgramDataHeaderSize {
		return
	}
	c.accounts[u.data] = c.programDataAccount(u, c.slot, programImage{revision: 1, name: c.programs[u.id].name})
}

// ProgramUpgrade is the outcome of UpgradeProgram.
type ProgramUpgrade struct {
	Venue       string        `json:"program"`
	ProgramID   sol.PublicKey `json:"programId"`
	ProgramData sol.PublicKey `json:"programData"`
	// DeploySlot is the slot the new build was deployed in; the
	// program-data account's header shows it.
	DeploySlot uint64 `json:"deploySlot"`
	// Revision counts the builds deployed since genesis (the original is 1).
	Revision uint32 `json:"revision"`
	// Breaking is whether the build requires RequiredAccount.
	Breaking bool `json:"breaking"`
	// RequiredAccount is the read-only account a breaking build requires
	// at the end of its trade instructions; zero otherwise.
	RequiredAccount sol.PublicKey `json:"requiredAccount"`
}

// UpgradeProgram redeploys the program of venue (VenuePumpFun,
// VenuePumpSwap, VenueLaunchLab or VenueDBC) in a new slot. breaking makes
// the new build require its trade config account at the end of its trade
// instructions; revert deploys the original build again. Both may not be
// set at once. Every call moves the deploy slot, so a client watching it
// sees every redeploy, compatible ones included.
func (c *Chain) UpgradeProgram(venue string, breaking, revert bool) (ProgramUpgrade, error) {
	u, ok := upgradeableByVenue(venue)
	if !ok {
		return ProgramUpgrade{}, fmt.Errorf("upgrade program: unknown program %q (%s)", venue, strings.Join(UpgradeablePrograms(), ", "))
	}
	if breaking && revert {
		return ProgramUpgrade{}, fmt.Errorf("upgrade program %s: breaking and revert exclude each other", venue)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// The deploy lands in a slot of its own, so that the deploy slot moves
	// even when two upgrades follow each other within one slot's time.
	c.advanceLocked()
	cur, _ := c.imageLocked(u)
	im := programImage{revision: cur.revision + 1, name: c.programs[u.id].name}
	if breaking {
		im.breaking = true
		im.required = TradeConfigAddress(u.id)
		// The account the build requires exists, as a real upgrade's new
		// config would: a client reading it finds the program's account.
		data := append([]byte("trade_config "), u.venue...)
		c.accounts[im.required] = &Account{Lamports: MinimumBalanceForRentExemption(len(data)), Owner: u.id, Data: data}
	}
	c.accounts[u.data] = c.programDataAccount(u, c.slot, im)
	c.changes++
	c.log.Info("program redeployed", "program", venue, "slot", c.slot, "revision", im.revision, "breaking", im.breaking)
	return ProgramUpgrade{Venue: venue, ProgramID: u.id, ProgramData: u.data, DeploySlot: c.slot,
		Revision: im.revision, Breaking: im.breaking, RequiredAccount: im.required}, nil
}

// UpgradeablePrograms names the programs UpgradeProgram redeploys.
func UpgradeablePrograms() []string {
	out := make([]string, len(upgradeables))
	for i, u := range upgradeables {
		out[i] = u.venue
	}
	return out
}

// imageLocked returns the image a venue program runs now.
func (c *Chain) imageLocked(u *upgradeable) (programImage, bool) {
	a := c.accounts[u.data]
	if a == nil || len(a.Data) < ProgramDataHeaderSize {
		return programImage{}, false
	}
	return decodeImage(a.Data[ProgramDataHeaderSize:])
}

// runProgram runs one instruction of p. For a venue program whose current
// build is a breaking one, a trade instruction must end with the account
// the build requires; it is checked and taken off before the program's own
// account checks, which therefore see the accounts of the original build.
// Transactions execute under the chain lock, so the ledger is read as is.
func runProgram(p program, ic *instrCtx) *instrError {
	u, ok := upgradeableByID[ic.program]
	if !ok || len(ic.data) < 8 {
		return p.run(ic)
	}
	ixName, trade := u.trades[anchor.Discriminator(ic.data[:8])]
	if !trade {
		return p.run(ic)
	}
	im, ok := ic.tx.chain.imageLocked(u)
	if !ok || !im.breaking {
		return p.run(ic)
	}
	n := ic.n()
	if n == 0 || ic.key(n-1) != im.required {
		ic.log("Instruction: %s", anchorCase(ixName))
		err := accountFail(ic, "trade_config", anchorAccountNotEnoughKeys)
		ic.log("%s requires its trade_config account %s (read-only) as the last account since revision %d", ixName, im.required, im.revision)
		return err
	}
	trimmed := *ic
	trimmed.idx, trimmed.signer, trimmed.writable = ic.idx[:n-1], ic.signer[:n-1], ic.writable[:n-1]
	return p.run(&trimmed)
}

// anchorCase turns an instruction's snake_case name into the CamelCase
// Anchor logs it under.
func anchorCase(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func rpcDevnetUpgradeProgram(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Program  string `json:"program"`
		Breaking bool   `json:"breaking"`
		Revert   bool   `json:"revert"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	up, err := c.UpgradeProgram(req.Program, req.Breaking, req.Revert)
	if err != nil {
		return nil, invalidParams("Invalid params: %v", err)
	}
	return up, nil
}
