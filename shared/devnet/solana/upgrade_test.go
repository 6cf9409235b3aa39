package solana

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// deploySlot reads a program's deploy slot as a client does: the program
// account names its program-data account, whose header holds the slot.
func deploySlot(t testing.TB, cl *rpc.Client, program sol.PublicKey) uint64 {
	t.Helper()
	ctx := context.Background()
	pa, err := cl.GetAccountInfo(ctx, program)
	if err != nil {
		t.Fatal(err)
	}
	pd := pa.Value.Data.GetBinary()
	if pa.Value.Owner != bpfLoaderUpgradeableID || !pa.Value.Executable || len(pd) != ProgramAccountSize ||
		binary.LittleEndian.Uint32(pd) != loaderStateProgram {
		t.Fatalf("program %s is not an upgradeable program account: owner %s, %d bytes", program, pa.Value.Owner, len(pd))
	}
	dataAddr := sol.PublicKeyFromBytes(pd[4:36])
	if dataAddr != ProgramDataAddress(program) {
		t.Fatalf("program-data %s, want the loader's PDA %s", dataAddr, ProgramDataAddress(program))
	}
	da, err := cl.GetAccountInfo(ctx, dataAddr)
	if err != nil {
		t.Fatal(err)
	}
	d := da.Value.Data.GetBinary()
	if da.Value.Owner != bpfLoaderUpgradeableID || da.Value.Executable || len(d) < ProgramDataHeaderSize ||
		binary.LittleEndian.Uint32(d) != loaderStateProgramData || d[12] != 1 {
		t.Fatalf("program-data of %s: owner %s, %d bytes, tag %d", program, da.Value.Owner, len(d), binary.LittleEndian.Uint32(d))
	}
	return binary.LittleEndian.Uint64(d[4:])
}

// venueTrade is one venue's trade on a fresh chain: its instructions, the
// keys that sign besides the payer, and the index of the trade instruction.
type venueTrade struct {
	ixs   []sol.Instruction
	extra []sol.PrivateKey
	trade int
}

// venueTrades builds, per venue, a trade its program runs.
var venueTrades = map[string]func(t *testing.T, c *Chain, cl *rpc.Client, user sol.PrivateKey) venueTrade{
	VenuePumpFun: func(t *testing.T, c *Chain, cl *rpc.Client, user sol.PrivateKey) venueTrade {
		s := createCoin(t, c, cl, 0)
		u := user.PublicKey()
		return venueTrade{ixs: []sol.Instruction{ataIx(u, u, s.mint, token2022ProgramID, true),
			buyIx(u, s.creator.PublicKey(), s.mint, 1_000_000, sol1)}, trade: 1}
	},
	VenuePumpSwap: func(t *testing.T, c *Chain, cl *rpc.Client, user sol.PrivateKey) venueTrade {
		coin, err := c.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Swap Coin", "SWAP", sol.PublicKey{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		st := readPool(t, cl, coin.Pool)
		return venueTrade{ixs: st.buyIxs(user.PublicKey(), 10_000_000, 1), trade: 4}
	},
	VenueLaunchLab: func(t *testing.T, c *Chain, cl *rpc.Client, user sol.PrivateKey) venueTrade {
		mint := newWallet(t, c, 0)
		return venueTrade{ixs: bonkLaunchIxs(user.PublicKey(), mint.PublicKey(), 10_000_000, 1), extra: []sol.PrivateKey{mint}, trade: 5}
	},
	VenueDBC: func(t *testing.T, c *Chain, cl *rpc.Client, user sol.PrivateKey) venueTrade {
		mint := newWallet(t, c, 0)
		return venueTrade{ixs: bagsLaunchIxs(user.PublicKey(), mint.PublicKey(), 10_000_000, 1), extra: []sol.PrivateKey{mint}, trade: 5}
	},
}

// withAccount returns ixs with account appended, read-only, to the
// instruction at i.
func withAccount(ixs []sol.Instruction, i int, account sol.PublicKey) []sol.Instruction {
	out := append([]sol.Instruction(nil), ixs...)
	data, _ := ixs[i].Data()
	metas := append(append(sol.AccountMetaSlice(nil), ixs[i].Accounts()...), sol.Meta(account))
	out[i] = sol.NewInstruction(ixs[i].ProgramID(), metas, data)
	return out
}

func TestProgramsAreUpgradeable(t *testing.T) {
	c, cl := newTestChain(t)
	for _, u := range upgradeables {
		if got := deploySlot(t, cl, u.id); got != 0 {
			t.Errorf("%s deployed at slot %d, want genesis (0)", u.venue, got)
		}
	}
	// Builtins and the other programs keep their plain executable accounts.
	if a, ok := c.GetAccount(systemProgramID); !ok || a.Owner != nativeLoaderID || !a.Executable {
		t.Fatalf("system program %+v", a)
	}
}

// TestUpgradeProgram redeploys each venue program compatibly, breakingly
// and back, and checks the deploy slot and what its trade instructions
// accept after each.
func TestUpgradeProgram(t *testing.T) {
	for _, venue := range UpgradeablePrograms() {
		t.Run(venue, func(t *testing.T) {
			c, cl := newTestChain(t)
			u, _ := upgradeableByVenue(venue)
			user := newWallet(t, c, 100*sol1)
			try := func(tr venueTrade, ixs []sol.Instruction) error {
				_, err := send(cl, signTx(t, latest(t, cl), user, ixs, tr.extra...), false)
				return err
			}

			// A compatible redeploy moves the deploy slot and nothing else.
			before := deploySlot(t, cl, u.id)
			up, err := c.UpgradeProgram(venue, false, false)
			if err != nil {
				t.Fatal(err)
			}
			if up.DeploySlot <= before || deploySlot(t, cl, u.id) != up.DeploySlot || up.Revision != 2 || up.Breaking || up.ProgramData != u.data {
				t.Fatalf("compatible upgrade %+v, deploy slot before %d", up, before)
			}
			tr := venueTrades[venue](t, c, cl, user)
			if err := try(tr, tr.ixs); err != nil {
				t.Fatalf("trade after a compatible upgrade: %v", err)
			}

			// A breaking one requires the trade config at the end.
			up, err = c.UpgradeProgram(venue, true, false)
			if err != nil {
				t.Fatal(err)
			}
			if !up.Breaking || up.RequiredAccount != TradeConfigAddress(u.id) || up.Revision != 3 {
				t.Fatalf("breaking upgrade %+v", up)
			}
			if a, ok := c.GetAccount(up.RequiredAccount); !ok || a.Owner != u.id {
				t.Fatalf("trade config %s does not exist: %+v", up.RequiredAccount, a)
			}
			tr = venueTrades[venue](t, c, cl, user)
			err = try(tr, tr.ixs)
			if err == nil {
				t.Fatal("a trade without the trade config landed after a breaking upgrade")
			}
			re, txErr := rpcErr(t, err)
			if want := fmt.Sprintf(`{"InstructionError":[%d,{"Custom":3005}]}`, tr.trade); txErr != want {
				t.Fatalf("error %s, want %s\n%s", txErr, want, logsOf(re))
			}
			if logs := logsOf(re); !strings.Contains(logs, "AnchorError caused by account: trade_config. Error Code: AccountNotEnoughKeys") ||
				!strings.Contains(logs, up.RequiredAccount.String()) {
				t.Fatalf("the error does not name the account:\n%s", logs)
			}
			if err := try(tr, withAccount(tr.ixs, tr.trade, up.RequiredAccount)); err != nil {
				t.Fatalf("trade with the trade config after a breaking upgrade: %v", err)
			}

			// Reverting restores the original instructions.
			up, err = c.UpgradeProgram(venue, false, true)
			if err != nil || up.Breaking || up.Revision != 4 {
				t.Fatalf("revert %+v %v", up, err)
			}
			tr = venueTrades[venue](t, c, cl, user)
			if err := try(tr, tr.ixs); err != nil {
				t.Fatalf("trade after the revert: %v", err)
			}
		})
	}
}

// TestBreakingUpgradeSparesOtherInstructions: only trade instructions need
// the account; a pump.fun create and another program's trade do not.
func TestBreakingUpgradeSparesOtherInstructions(t *testing.T) {
	c, cl := newTestChain(t)
	if _, err := c.UpgradeProgram(VenuePumpFun, true, false); err != nil {
		t.Fatal(err)
	}
	createCoin(t, c, cl, 0) // create_v2 is no trade instruction
	user := newWallet(t, c, 100*sol1)
	tr := venueTrades[VenueLaunchLab](t, c, cl, user)
	if _, err := send(cl, signTx(t, latest(t, cl), user, tr.ixs, tr.extra...), false); err != nil {
		t.Fatalf("a LaunchLab trade after a pump.fun upgrade: %v", err)
	}
}

func TestUpgradeProgramRPC(t *testing.T) {
	_, cl := newTestChain(t)
	tests := []struct {
		name    string
		params  map[string]any
		wantErr string
	}{
		{"unknown program", map[string]any{"program": "raydium"}, `unknown program "raydium" (pump_fun, pumpswap, launchlab, dbc)`},
		{"breaking and revert", map[string]any{"program": "dbc", "breaking": true, "revert": true}, "breaking and revert exclude each other"},
		{"breaking", map[string]any{"program": "pumpswap", "breaking": true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out ProgramUpgrade
			err := cl.RPCCallForInto(context.Background(), &out, "devnet_upgradeProgram", []any{tt.params})
			if tt.wantErr != "" {
				re, _ := rpcErr(t, err)
				if re.Code != rpcInvalidParams || !strings.Contains(re.Message, tt.wantErr) {
					t.Fatalf("error %d %q, want %q", re.Code, re.Message, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.Venue != "pumpswap" || out.ProgramID != ammProgramID || !out.Breaking || out.RequiredAccount != TradeConfigAddress(ammProgramID) ||
				deploySlot(t, cl, ammProgramID) != out.DeploySlot {
				b, _ := json.Marshal(out)
				t.Fatalf("answer %s", b)
			}
		})
	}
}

// TestUpgradeOutlivesRestart: the program-data account is part of the
// ledger, so a reopened chain runs the build it had.
func TestUpgradeOutlivesRestart(t *testing.T) {
	path := t.TempDir() + "/solana.state"
	cfg := Config{SlotDuration: 50 * time.Millisecond, StateFile: path, SaveInterval: -1}
	c, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	up, err := c.UpgradeProgram(VenueDBC, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.Handler())
	t.Cleanup(func() { srv.Close(); _ = c.Close() })
	cl := rpc.New(srv.URL)
	if got := deploySlot(t, cl, dbcProgramID); got != up.DeploySlot {
		t.Fatalf("deploy slot after a restart %d, want %d", got, up.DeploySlot)
	}
	user := newWallet(t, c, 100*sol1)
	tr := venueTrades[VenueDBC](t, c, cl, user)
	_, err = send(cl, signTx(t, latest(t, cl), user, tr.ixs, tr.extra...), false)
	if _, txErr := rpcErr(t, err); txErr != `{"InstructionError":[5,{"Custom":3005}]}` {
		t.Fatalf("after a restart the breaking build is gone: %s", txErr)
	}
}

func TestAnchorCase(t *testing.T) {
	for in, want := range map[string]string{"buy_exact_sol_in": "BuyExactSolIn", "swap": "Swap", "sell_exact_out": "SellExactOut"} {
		if got := anchorCase(in); got != want {
			t.Errorf("anchorCase(%q) = %q, want %q", in, got, want)
		}
	}
	// Every trade instruction of every venue program has a name.
	for _, u := range upgradeables {
		for d, name := range u.trades {
			if d == (anchor.Discriminator{}) || name == "" {
				t.Errorf("%s: empty trade entry", u.venue)
			}
		}
	}
	if pumpfun.ProgramID != upgradeables[0].id {
		t.Fatal("pump_fun is not the first venue program")
	}
}
