package solana

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/atomicfile"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// stateConfig is a fast chain backed by path whose blockhashes outlive a
// slow test run under the race detector.
func stateConfig(path string) Config {
	return Config{SlotDuration: 50 * time.Millisecond, BlockhashValidSlots: 2_000, StateFile: path, SaveInterval: -1}
}

// openServed opens a chain from cfg and serves it to a solana-go client.
// The returned stop closes the server and the chain and fails the test
// when closing (and so saving) fails.
func openServed(t *testing.T, cfg Config) (*Chain, *rpc.Client, func()) {
	t.Helper()
	c, err := Open(cfg)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	srv := httptest.NewServer(c.Handler())
	var stopped bool
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		srv.Close()
		if err := c.Close(); err != nil {
			t.Errorf("close chain: %v", err)
		}
	}
	t.Cleanup(stop)
	return c, rpc.New(srv.URL), stop
}

// callRPC runs one JSON-RPC request against the chain's handler and
// returns its raw result.
func callRPC(t *testing.T, c *Chain, method string, params ...any) json.RawMessage {
	t.Helper()
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	resp := c.handleOne(req)
	if resp.Error != nil {
		t.Fatalf("%s: %v", method, resp.Error)
	}
	return resp.Result
}

// signatureStatus is the part of a status that does not move with the
// slot.
type signatureStatus struct {
	Slot uint64          `json:"slot"`
	Err  json.RawMessage `json:"err"`
}

func statuses(t *testing.T, c *Chain, sigs ...sol.Signature) []*signatureStatus {
	t.Helper()
	strs := make([]string, len(sigs))
	for i, s := range sigs {
		strs[i] = s.String()
	}
	var out struct {
		Value []*signatureStatus `json:"value"`
	}
	if err := json.Unmarshal(callRPC(t, c, "getSignatureStatuses", strs), &out); err != nil {
		t.Fatal(err)
	}
	return out.Value
}

func TestStateSurvivesRestart(t *testing.T) {
	// Saved along the way, the file is the whole state of the first save
	// and a frame of changes for each later one; saved whole each time, it
	// is one frame.
	for _, rewrite := range []bool{false, true} {
		t.Run(map[bool]string{false: "appended", true: "rewritten"}[rewrite], func(t *testing.T) {
			testStateSurvivesRestart(t, rewrite)
		})
	}
}

func testStateSurvivesRestart(t *testing.T, rewrite bool) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	c1, cl1, stop1 := openServed(t, cfg)
	checkpoint := func() {
		t.Helper()
		if rewrite {
			rewriteNextSave(c1)
		}
		if err := c1.Save(); err != nil {
			t.Fatal(err)
		}
	}

	// A pump.fun coin with a creator's first buy, a second trader who buys
	// and sells some back, an SPL mint with a holder, an airdrop, and a
	// transaction that landed with an error.
	s := createCoin(t, c1, cl1, 1_000_000_000)
	checkpoint()
	trader := newWallet(t, c1, 20*sol1)
	const tokens = 40_000_000_000
	buy := signTx(t, latest(t, cl1), trader, []sol.Instruction{
		ataIx(trader.PublicKey(), trader.PublicKey(), s.mint, token2022ProgramID, true),
		buyIx(trader.PublicKey(), s.creator.PublicKey(), s.mint, tokens, 5*sol1),
	})
	buySig, err := send(cl1, buy, false)
	if err != nil {
		t.Fatalf("buy: %v", err)
	}
	checkpoint()
	sa := pumpfun.NewSellAccounts(tradeParams(trader.PublicKey(), s.creator.PublicKey(), s.mint), false)
	sellSig, err := send(cl1, signTx(t, latest(t, cl1), trader, []sol.Instruction{pumpfun.SellInstruction(&sa, pumpfun.SellArgs{Amount: tokens / 4})}), false)
	if err != nil {
		t.Fatalf("sell: %v", err)
	}
	holder := newWallet(t, c1, 0).PublicKey()
	splMint, err := c1.CreateMint(6, tokenProgramID, c1.Faucet().PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c1.MintTo(splMint, holder, 7_000_000); err != nil {
		t.Fatal(err)
	}
	// An account written by one save and closed before the next.
	gone := newWallet(t, c1, sol1).PublicKey()
	checkpoint()
	c1.SetAccount(gone, Account{})
	dropSig, err := c1.RequestAirdrop(holder, 3*sol1)
	if err != nil {
		t.Fatal(err)
	}
	poor := newWallet(t, c1, sol1)
	failSig, err := send(cl1, signTx(t, latest(t, cl1), poor, []sol.Instruction{transferIx(poor.PublicKey(), holder, 5*sol1)}), true)
	if err != nil {
		t.Fatal(err)
	}
	// Signed before the restart, sent after it.
	pending := signTx(t, latest(t, cl1), trader, []sol.Instruction{transferIx(trader.PublicKey(), holder, 1234)})

	sigs := []sol.Signature{buySig, sellSig, dropSig, failSig}
	wantStatus := statuses(t, c1, sigs...)
	for i, st := range wantStatus {
		if st == nil {
			t.Fatalf("status %d missing before the restart", i)
		}
	}
	if string(wantStatus[3].Err) != `{"InstructionError":[0,{"Custom":1}]}` {
		t.Fatalf("failed transfer status %s", wantStatus[3].Err)
	}
	wantTx := callRPC(t, c1, "getTransaction", buySig.String(), map[string]any{"encoding": "json"})
	wantSigs := callRPC(t, c1, "getSignaturesForAddress", trader.PublicKey().String())
	_, _, wantCurve := readState(t, cl1, s.mint)
	wantTokens, _ := c1.TokenBalance(trader.PublicKey(), s.mint)
	wantSPL, _ := c1.TokenBalance(holder, splMint)
	wantLanded := c1.LandedCount()
	slotBefore := c1.Slot()
	if rewrite {
		rewriteNextSave(c1)
	}
	stop1()
	frames := stateFrames(t, path)
	if want := map[bool]int{false: 5, true: 1}[rewrite]; frames != want {
		t.Errorf("state file of %d frames, want %d", frames, want)
	}

	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600", fi.Mode().Perm())
	}
	if tmps, _ := filepath.Glob(path + ".tmp-*"); len(tmps) > 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}

	c2, cl2, _ := openServed(t, cfg)

	// The whole ledger, account by account.
	c2.mu.RLock()
	n2 := len(c2.accounts)
	c2.mu.RUnlock()
	if n2 != len(c1.accounts) {
		t.Errorf("%d accounts after the restart, %d before", n2, len(c1.accounts))
	}
	if _, ok := c2.GetAccount(gone); ok {
		t.Error("closed account back after the restart")
	}
	for k, a := range c1.accounts {
		b, ok := c2.GetAccount(k)
		if !ok || b.Lamports != a.Lamports || b.Owner != a.Owner || b.Executable != a.Executable || !bytes.Equal(b.Data, a.Data) {
			t.Errorf("account %s: %+v after the restart, %+v before", k, b, *a)
		}
	}
	// And as clients see it.
	if _, _, curve := readState(t, cl2, s.mint); curve != wantCurve {
		t.Errorf("curve %+v, want %+v", curve, wantCurve)
	}
	if got, _ := c2.TokenBalance(trader.PublicKey(), s.mint); got != wantTokens || got != tokens-tokens/4 {
		t.Errorf("trader tokens %d, want %d", got, wantTokens)
	}
	if got, _ := c2.TokenBalance(holder, splMint); got != wantSPL || got != 7_000_000 {
		t.Errorf("holder tokens %d, want %d", got, wantSPL)
	}
	bal, err := cl2.GetBalance(context.Background(), holder, rpc.CommitmentConfirmed)
	if err != nil || bal.Value != c1.accounts[holder].Lamports {
		t.Errorf("holder balance %v %v, want %d", bal, err, c1.accounts[holder].Lamports)
	}
	for i, st := range statuses(t, c2, sigs...) {
		if st == nil || st.Slot != wantStatus[i].Slot || string(st.Err) != string(wantStatus[i].Err) {
			t.Errorf("status of %s: %+v, want %+v", sigs[i], st, wantStatus[i])
		}
	}
	if got := callRPC(t, c2, "getTransaction", buySig.String(), map[string]any{"encoding": "json"}); !bytes.Equal(got, wantTx) {
		t.Errorf("getTransaction after the restart:\n%s\nwant\n%s", got, wantTx)
	}
	if got := callRPC(t, c2, "getSignaturesForAddress", trader.PublicKey().String()); !sameSignatures(t, got, wantSigs) {
		t.Errorf("getSignaturesForAddress after the restart:\n%s\nwant\n%s", got, wantSigs)
	}
	if c2.LandedCount() != wantLanded {
		t.Errorf("landed %d, want %d", c2.LandedCount(), wantLanded)
	}
	if c2.Slot() <= slotBefore {
		t.Errorf("slot %d after the restart, %d before: no slot passed", c2.Slot(), slotBefore)
	}

	// A replay of a transaction that landed before the restart is refused;
	// one signed before it and never sent lands, its blockhash still valid.
	_, err = send(cl2, buy, false)
	if _, txErr := rpcErr(t, err); txErr != `"AlreadyProcessed"` {
		t.Errorf("replayed buy: %s, want AlreadyProcessed", txErr)
	}
	if _, err := send(cl2, pending, false); err != nil {
		t.Errorf("transaction signed before the restart: %v", err)
	}
	// The restored curve trades on.
	g, fc, curve := readState(t, cl2, s.mint)
	q, err := curve.QuoteBuy(pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply), tokens)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(cl2, signTx(t, latest(t, cl2), trader, []sol.Instruction{buyIx(trader.PublicKey(), s.creator.PublicKey(), s.mint, tokens, q.Total)}), false); err != nil {
		t.Fatalf("buy after the restart at the exact quote: %v", err)
	}
	if got, _ := c2.TokenBalance(trader.PublicKey(), s.mint); got != wantTokens+tokens {
		t.Errorf("trader tokens %d after a second buy, want %d", got, wantTokens+tokens)
	}
	if c2.LandedCount() != wantLanded+2 {
		t.Errorf("landed %d, want %d", c2.LandedCount(), wantLanded+2)
	}
}

// sameSignatures compares getSignaturesForAddress answers by signature,
// slot and error; confirmation status moves with the slot.
func sameSignatures(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	type entry struct {
		Signature string          `json:"signature"`
		Slot      uint64          `json:"slot"`
		Err       json.RawMessage `json:"err"`
		BlockTime int64           `json:"blockTime"`
	}
	var x, y []entry
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	if len(x) == 0 || len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Signature != y[i].Signature || x[i].Slot != y[i].Slot || string(x[i].Err) != string(y[i].Err) || x[i].BlockTime != y[i].BlockTime {
			return false
		}
	}
	return true
}

func TestStateKeepsOlderSignaturesAsStatuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	cfg.StateTransactions = 2
	c1, cl1, stop1 := openServed(t, cfg)
	from := newWallet(t, c1, 10*sol1)
	var txs []*sol.Transaction
	var sigs []sol.Signature
	for i := range 5 {
		tx := signTx(t, latest(t, cl1), from, []sol.Instruction{transferIx(from.PublicKey(), c1.Faucet().PublicKey(), uint64(1000+i))})
		sig, err := send(cl1, tx, false)
		if err != nil {
			t.Fatal(err)
		}
		txs, sigs = append(txs, tx), append(sigs, sig)
	}
	want := statuses(t, c1, sigs...)
	stop1()

	c2, cl2, _ := openServed(t, cfg)
	for i, st := range statuses(t, c2, sigs...) {
		if st == nil || st.Slot != want[i].Slot {
			t.Errorf("status %d: %+v, want %+v", i, st, want[i])
		}
	}
	// The three oldest were written as statuses only, the two newest in
	// full.
	for i, sig := range sigs {
		got := string(callRPC(t, c2, "getTransaction", sig.String()))
		if full := i >= 3; (got != "null") != full {
			t.Errorf("getTransaction %d after the restart: %.60s, want full record %v", i, got, full)
		}
	}
	for i, tx := range txs {
		_, err := send(cl2, tx, false)
		if _, txErr := rpcErr(t, err); txErr != `"AlreadyProcessed"` {
			t.Errorf("replay %d: %s, want AlreadyProcessed", i, txErr)
		}
	}
	if c2.LandedCount() != 5 {
		t.Errorf("landed %d, want 5", c2.LandedCount())
	}
}

func TestStateDowntimeExpiresBlockhashes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	cfg.BlockhashValidSlots = 20
	c1, cl1, stop1 := openServed(t, cfg)
	w := newWallet(t, c1, sol1)
	stale := signTx(t, latest(t, cl1), w, []sol.Instruction{transferIx(w.PublicKey(), c1.Faucet().PublicKey(), 1)})
	stop1()

	// Pretend the file was written longer ago than a blockhash lives.
	st, _, err := readStateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	downSlots := uint64(100)
	st.savedAt = st.savedAt.Add(-time.Duration(downSlots) * cfg.SlotDuration)
	if err := atomicfile.Write(path, encodeState(st)); err != nil {
		t.Fatal(err)
	}

	c2, cl2, _ := openServed(t, cfg)
	if c2.Slot() < st.slot+downSlots {
		t.Errorf("slot %d after %d slots of downtime from %d", c2.Slot(), downSlots, st.slot)
	}
	_, err = send(cl2, stale, false)
	if _, txErr := rpcErr(t, err); txErr != `"BlockhashNotFound"` {
		t.Errorf("transaction signed before the downtime: %s, want BlockhashNotFound", txErr)
	}
	if got := c2.Balance(w.PublicKey()); got != sol1 {
		t.Errorf("wallet balance %d, want %d", got, sol1)
	}
}

func TestStateReinstallsPrograms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	c1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	// A file written before the memo program existed.
	st, _, err := readStateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st.accounts = slices.DeleteFunc(st.accounts, func(ka keyedAccount) bool { return ka.key == memoProgramID })
	if err := atomicfile.Write(path, encodeState(st)); err != nil {
		t.Fatal(err)
	}
	c2, cl2, _ := openServed(t, cfg)
	if a, ok := c2.GetAccount(memoProgramID); !ok || !a.Executable {
		t.Fatalf("memo program account %+v %v after loading a file without it", a, ok)
	}
	w := newWallet(t, c2, sol1)
	memo := sol.NewInstruction(memoProgramID, nil, []byte("after the restart"))
	if _, err := send(cl2, signTx(t, latest(t, cl2), w, []sol.Instruction{memo}), false); err != nil {
		t.Errorf("memo after the restart: %v", err)
	}
}

func TestStateRemovesInterruptedSaves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "solana.state")
	left := filepath.Join(dir, "solana.state.tmp-123")
	other := filepath.Join(dir, "other.state.tmp-123")
	for _, f := range []string{left, other} {
		if err := os.WriteFile(f, []byte("half a save"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Open(stateConfig(path))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("interrupted save still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another file's temporary removed: %v", err)
	}
}

func TestStateFileErrors(t *testing.T) {
	valid := func(t *testing.T, seed string) []byte {
		t.Helper()
		path := filepath.Join(t.TempDir(), "solana.state")
		cfg := stateConfig(path)
		cfg.Seed = seed
		c, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c.Airdrop(c.Faucet().PublicKey(), 1)
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		c.Airdrop(c.Faucet().PublicKey(), 2)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// whole is the header and the first frame of b, the whole state,
	// without the changes a later save appended.
	whole := func(t *testing.T, b []byte) []byte {
		t.Helper()
		body, next, ok := readFrame(b, stateHeader)
		if !ok || len(body) == 0 {
			t.Fatal("no whole state in the file")
		}
		return b[:next:next]
	}
	cases := []struct {
		name      string
		content   func(t *testing.T) []byte
		stateFile bool // the error wraps ErrStateFile
		want      string
	}{
		{"empty", func(*testing.T) []byte { return nil }, true, "header"},
		{"another format", func(*testing.T) []byte { return []byte(`{"accounts": []}` + "\n") }, true, "header"},
		{"newer version", func(t *testing.T) []byte {
			b := valid(t, "")
			binary.LittleEndian.PutUint32(b[len(stateMagic):], stateVersion+1)
			return b
		}, true, "format version 3"},
		{"header only", func(t *testing.T) []byte { return valid(t, "")[:stateHeader] }, true, "no state"},
		{"flipped byte in the whole state", func(t *testing.T) []byte {
			b := valid(t, "")
			b[stateHeader+len(whole(t, b))/2] ^= 0x40
			return b
		}, true, "checksum mismatch"},
		{"whole state cut short", func(t *testing.T) []byte {
			b := whole(t, valid(t, ""))
			return b[:len(b)-100]
		}, true, "checksum mismatch"},
		{"damaged frame of changes with another after it", func(t *testing.T) []byte {
			b := valid(t, "")
			first := len(whole(t, b))
			_, second, ok := readFrame(b, first)
			if !ok || second == len(b) {
				t.Fatal("want two frames of changes after the whole state")
			}
			b[first+frameHeader+1] ^= 0x40
			return b
		}, true, "not the last"},
		{"damaged body with a good checksum", func(t *testing.T) []byte {
			b := valid(t, "")
			return append(b[:stateHeader:stateHeader], frameOf(append(b[stateHeader+frameHeader:stateHeader+frameHeader+20:stateHeader+frameHeader+20], 0xff, 0xff, 0xff, 0xff))...)
		}, true, "bad"},
		{"trailing bytes with a good checksum", func(t *testing.T) []byte {
			b := whole(t, valid(t, ""))
			body := append(append([]byte(nil), b[stateHeader+frameHeader:len(b)-stateTrailer]...), 0)
			return append(b[:stateHeader:stateHeader], frameOf(body)...)
		}, true, "after the last section"},
		{"changes before the whole state", func(t *testing.T) []byte {
			b := whole(t, valid(t, ""))
			body := append([]byte{frameChanges}, b[stateHeader+frameHeader+1:len(b)-stateTrailer]...)
			return append(b[:stateHeader:stateHeader], frameOf(body)...)
		}, true, "frame kind 1"},
		{"another seed", func(t *testing.T) []byte { return valid(t, "another-seed") }, false, `seed "another-seed"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "solana.state")
			content := tc.content(t)
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Open(stateConfig(path))
			if err == nil {
				c.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want the file name and %q", err, tc.want)
			}
			if errors.Is(err, ErrStateFile) != tc.stateFile {
				t.Errorf("errors.Is(%v, ErrStateFile) = %v, want %v", err, !tc.stateFile, tc.stateFile)
			}
			// The file is left as it was, for the operator to look at.
			if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
				t.Error("state file changed by a failed open")
			}
		})
	}
	t.Run("unwritable location", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "missing-dir", "solana.state")
		if c, err := Open(stateConfig(path)); err == nil {
			c.Close()
			t.Fatal("opened")
		} else if !strings.Contains(err.Error(), path) {
			t.Errorf("error %q does not name %s", err, path)
		}
	})
	t.Run("new panics", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "solana.state")
		if err := os.WriteFile(path, []byte("junk"), 0o600); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(error).Error(), path) {
				t.Errorf("recovered %v, want the load error", r)
			}
		}()
		New(stateConfig(path)).Close()
	})
}

func TestStatePeriodicSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	cfg.SaveInterval = 10 * time.Millisecond
	c, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Open wrote the genesis state at once.
	if st, _, err := readStateFile(path); err != nil || len(st.accounts) == 0 {
		t.Fatalf("state after open: %v", err)
	}
	w := newWallet(t, c, 0).PublicKey()
	sig, err := c.RequestAirdrop(w, 42*sol1)
	if err != nil {
		t.Fatal(err)
	}
	st := poll.Value(t, 10*time.Second, "airdrop saved", func() (*chainState, bool) {
		st, _, err := readStateFile(path)
		if err != nil {
			t.Fatalf("read while the chain runs: %v", err)
		}
		return st, savedBalance(st, w) == 42*sol1 && len(st.records) == 1 && st.records[0].slot > 0
	})
	c.mu.RLock()
	want := c.txs[sig].p.raw
	c.mu.RUnlock()
	if got := st.records[0].p.raw; !bytes.Equal(got, want) {
		t.Error("saved record is not the airdrop")
	}
}

func savedBalance(st *chainState, k sol.PublicKey) uint64 {
	for _, ka := range st.accounts {
		if ka.key == k {
			return ka.acc.Lamports
		}
	}
	return 0
}

// FuzzDecodeState checks that no input makes the decoder panic or
// allocate without bound; the seed corpus runs with go test.
func FuzzDecodeState(f *testing.F) {
	path := filepath.Join(f.TempDir(), "solana.state")
	c, err := Open(stateConfig(path))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := c.RequestAirdrop(c.Faucet().PublicKey(), 1); err != nil {
		f.Fatal(err)
	}
	if err := c.Close(); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		// Skip the checksums, so mutations reach the decoder.
		b = refreshChecksums(b)
		if st, _, err := decodeState(b); err == nil {
			encodeState(st)
		} else if !errors.Is(err, ErrStateFile) {
			t.Errorf("error %v does not wrap ErrStateFile", err)
		}
	})
}

// frameOf frames body with its length and checksum.
func frameOf(body []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(body, castagnoli))
}

// refreshChecksums returns b with the checksum of every frame that fits in
// it set to match its body.
func refreshChecksums(b []byte) []byte {
	b = append([]byte(nil), b...)
	for off := stateHeader; off+frameHeader+stateTrailer <= len(b); {
		end := off + frameHeader + int(binary.LittleEndian.Uint32(b[off:])) + stateTrailer
		if end > len(b) || end < off {
			break
		}
		binary.LittleEndian.PutUint32(b[end-stateTrailer:], crc32.Checksum(b[off+frameHeader:end-stateTrailer], castagnoli))
		off = end
	}
	return b
}

// rewriteNextSave makes c's next save write the whole state again.
func rewriteNextSave(c *Chain) {
	c.saveMu.Lock()
	c.journal = nil
	c.saveMu.Unlock()
}

// stateFrames counts the frames of the state file at path.
func stateFrames(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for off := stateHeader; off < len(b); n++ {
		_, next, ok := readFrame(b, off)
		if !ok {
			t.Fatalf("frame %d at byte %d of %d unreadable", n, off, len(b))
		}
		off = next
	}
	return n
}

func TestStateInterruptedSaveLeftOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	c1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	kept, lost := newWallet(t, c1, 0).PublicKey(), newWallet(t, c1, 0).PublicKey()
	c1.Airdrop(kept, 5)
	if err := c1.Save(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c1.Airdrop(lost, 7)
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) <= len(before) || !bytes.Equal(after[:len(before)], before) {
		t.Fatalf("the last save did not append to the file (%d bytes, then %d)", len(before), len(after))
	}
	// A crash in the middle of the last save: part of its frame written.
	for _, cut := range []int{1, frameHeader, (len(after) - len(before)) / 2, len(after) - len(before) - 1} {
		if err := os.WriteFile(path, after[:len(after)-cut], 0o600); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		cfg := cfg
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		c2, err := Open(cfg)
		if err != nil {
			t.Fatalf("open with %d bytes of the last save cut: %v", cut, err)
		}
		if got := c2.Balance(kept); got != 5 {
			t.Errorf("balance saved before the interrupted save: %d, want 5", got)
		}
		if got := c2.Balance(lost); got != 0 {
			t.Errorf("balance of the interrupted save: %d, want 0", got)
		}
		if !strings.Contains(logs.String(), "interrupted save") {
			t.Errorf("no log line of the interrupted save: %s", logs.String())
		}
		// The next save rewrites the file whole, without the torn frame.
		if err := c2.Close(); err != nil {
			t.Fatal(err)
		}
		if n := stateFrames(t, path); n != 1 {
			t.Errorf("%d frames after the first save that followed, want 1", n)
		}
	}
}

func TestStateRewrittenOnceChangesOutweighIt(t *testing.T) {
	defer func(s int) { journalSlack = s }(journalSlack)
	journalSlack = 0
	path := filepath.Join(t.TempDir(), "solana.state")
	c, err := Open(stateConfig(path))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	whole := c.journal.whole
	w := newWallet(t, c, 0).PublicKey()
	var most int
	for i := range 5000 {
		c.Airdrop(w, 1)
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		if i > 0 && stateFrames(t, path) == 1 {
			if most <= journalLimit(whole) {
				t.Errorf("rewritten with %d bytes of changes on a whole state of %d", most, whole)
			}
			st, _, err := readStateFile(path)
			if err != nil || savedBalance(st, w) != uint64(i+1) {
				t.Fatalf("rewritten file: balance %d, %v; want %d", savedBalance(st, w), err, i+1)
			}
			return
		}
		most = c.journal.appended
	}
	t.Fatalf("never rewritten: %d bytes of changes on a whole state of %d", most, whole)
}

func TestStateReadsVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solana.state")
	cfg := stateConfig(path)
	c1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := newWallet(t, c1, 0).PublicKey()
	sig, err := c1.RequestAirdrop(w, 9*sol1)
	if err != nil {
		t.Fatal(err)
	}
	rewriteNextSave(c1) // one frame, the whole state
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	// Version 1 was the whole state's body, without the frame and its
	// kind, and a checksum of everything before it.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body, _, ok := readFrame(b, stateHeader)
	if !ok {
		t.Fatal("no whole state")
	}
	v1 := binary.LittleEndian.AppendUint32([]byte(stateMagic), 1)
	v1 = append(v1, body[1:]...)
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, castagnoli))
	if err := os.WriteFile(path, v1, 0o600); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := c2.Balance(w); got != 9*sol1 {
		t.Errorf("balance from a version 1 file %d, want %d", got, 9*sol1)
	}
	if st := statuses(t, c2, sig); st[0] == nil {
		t.Error("airdrop of a version 1 file unknown")
	}
	if err := c2.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); binary.LittleEndian.Uint32(b[len(stateMagic):]) != stateVersion {
		t.Error("a version 1 file not rewritten in the current version by the next save")
	}
}
