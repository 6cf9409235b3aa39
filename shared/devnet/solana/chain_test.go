package solana

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/poll"
)

const sol1 = 1_000_000_000

// newTestChain starts a chain served over 127.0.0.1 and a solana-go client.
func newTestChain(tb testing.TB) (*Chain, *rpc.Client) {
	tb.Helper()
	c := New(Config{SlotDuration: 50 * time.Millisecond})
	srv := httptest.NewServer(c.Handler())
	tb.Cleanup(func() {
		srv.Close()
		if err := c.Close(); err != nil {
			tb.Errorf("close chain: %v", err)
		}
	})
	return c, rpc.New(srv.URL)
}

func newWallet(tb testing.TB, c *Chain, lamports uint64) sol.PrivateKey {
	tb.Helper()
	k, err := sol.NewRandomPrivateKey()
	if err != nil {
		tb.Fatal(err)
	}
	if lamports > 0 {
		c.Airdrop(k.PublicKey(), lamports)
	}
	return k
}

func signTx(tb testing.TB, bh sol.Hash, payer sol.PrivateKey, ixs []sol.Instruction, extra ...sol.PrivateKey) *sol.Transaction {
	tb.Helper()
	tx, err := sol.NewTransaction(ixs, bh, sol.TransactionPayer(payer.PublicKey()))
	if err != nil {
		tb.Fatal(err)
	}
	keys := append([]sol.PrivateKey{payer}, extra...)
	if _, err := tx.Sign(func(k sol.PublicKey) *sol.PrivateKey {
		for i := range keys {
			if keys[i].PublicKey() == k {
				return &keys[i]
			}
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return tx
}

func latest(tb testing.TB, cl *rpc.Client) sol.Hash {
	tb.Helper()
	out, err := cl.GetLatestBlockhash(context.Background(), rpc.CommitmentConfirmed)
	if err != nil {
		tb.Fatalf("getLatestBlockhash: %v", err)
	}
	return out.Value.Blockhash
}

func transferIx(from, to sol.PublicKey, lamports uint64) sol.Instruction {
	return sol.NewInstruction(systemProgramID, sol.AccountMetaSlice{
		{PublicKey: from, IsSigner: true, IsWritable: true}, {PublicKey: to, IsWritable: true},
	}, sysIx(2, u64le(lamports)))
}

// rpcErr returns the JSON-RPC error and its data.err rendered as JSON.
func rpcErr(tb testing.TB, err error) (*jsonrpc.RPCError, string) {
	tb.Helper()
	var re *jsonrpc.RPCError
	if !errors.As(err, &re) {
		tb.Fatalf("want a JSON-RPC error, got %v", err)
	}
	var txErr string
	if m, ok := re.Data.(map[string]any); ok {
		b, _ := json.Marshal(m["err"])
		txErr = string(b)
	}
	return re, txErr
}

func send(cl *rpc.Client, tx *sol.Transaction, skip bool) (sol.Signature, error) {
	return cl.SendTransactionWithOpts(context.Background(), tx, rpc.TransactionOpts{SkipPreflight: skip, PreflightCommitment: rpc.CommitmentConfirmed})
}

func TestTransfer(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	from := newWallet(t, c, 10*sol1)
	to := newWallet(t, c, 0)
	sig, err := send(cl, signTx(t, latest(t, cl), from, []sol.Instruction{transferIx(from.PublicKey(), to.PublicKey(), sol1)}), false)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	bal, err := cl.GetBalance(ctx, to.PublicKey(), rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatal(err)
	}
	if bal.Value != sol1 {
		t.Errorf("recipient balance %d, want %d", bal.Value, sol1)
	}
	if got, want := c.Balance(from.PublicKey()), uint64(9*sol1-5000); got != want {
		t.Errorf("sender balance %d, want %d (one signature fee)", got, want)
	}
	st, err := cl.GetSignatureStatuses(ctx, true, sig)
	if err != nil {
		t.Fatal(err)
	}
	if st.Value[0] == nil || st.Value[0].Err != nil || st.Value[0].ConfirmationStatus != rpc.ConfirmationStatusConfirmed {
		t.Errorf("status = %+v, want confirmed without error", st.Value[0])
	}
	if n, err := cl.GetTransactionCount(ctx, rpc.CommitmentConfirmed); err != nil || n != 1 || c.LandedCount() != 1 {
		t.Errorf("transaction count = %d, %v; landed %d; want 1", n, err, c.LandedCount())
	}
}

func TestSendRejections(t *testing.T) {
	c, cl := newTestChain(t)
	type tcase struct {
		name    string
		build   func(t *testing.T) *sol.Transaction
		skip    bool
		code    int
		txErr   string // data.err as JSON
		message string
	}
	rich := newWallet(t, c, 100*sol1)
	cases := []tcase{
		{name: "bad signature", code: -32003, message: "Transaction signature verification failure", build: func(t *testing.T) *sol.Transaction {
			tx := signTx(t, latest(t, cl), rich, []sol.Instruction{transferIx(rich.PublicKey(), newWallet(t, c, 0).PublicKey(), sol1)})
			tx.Signatures[0][5] ^= 0xff
			return tx
		}},
		{name: "signed by the wrong key", code: -32003, build: func(t *testing.T) *sol.Transaction {
			other := newWallet(t, c, 0)
			tx := signTx(t, latest(t, cl), rich, []sol.Instruction{transferIx(rich.PublicKey(), other.PublicKey(), sol1)})
			s, _ := other.Sign([]byte("not the message"))
			tx.Signatures[0] = s
			return tx
		}},
		{name: "expired blockhash", code: -32002, txErr: `"BlockhashNotFound"`, message: "Transaction simulation failed: Blockhash not found", build: func(t *testing.T) *sol.Transaction {
			bh := latest(t, cl)
			c.ExpireBlockhashes()
			return signTx(t, bh, rich, []sol.Instruction{transferIx(rich.PublicKey(), newWallet(t, c, 0).PublicKey(), sol1)})
		}},
		{name: "unknown blockhash", code: -32002, txErr: `"BlockhashNotFound"`, build: func(t *testing.T) *sol.Transaction {
			return signTx(t, sol.Hash{1, 2, 3}, rich, []sol.Instruction{transferIx(rich.PublicKey(), newWallet(t, c, 0).PublicKey(), sol1)})
		}},
		{name: "fee payer cannot pay the fee", code: -32002, txErr: `"InsufficientFundsForFee"`, build: func(t *testing.T) *sol.Transaction {
			poor := newWallet(t, c, 0)
			c.SetAccount(poor.PublicKey(), Account{Lamports: 4_000, Owner: systemProgramID})
			return signTx(t, latest(t, cl), poor, []sol.Instruction{transferIx(poor.PublicKey(), rich.PublicKey(), 1)})
		}},
		{name: "priority fee beyond the balance", code: -32002, txErr: `"InsufficientFundsForFee"`, build: func(t *testing.T) *sol.Transaction {
			w := newWallet(t, c, sol1)
			limit := sol.NewInstruction(computeBudgetProgramID, nil, []byte{2, 0x40, 0x0d, 0x03, 0}) // 200_000
			price := sol.NewInstruction(computeBudgetProgramID, nil, append([]byte{3}, u64le(10_000_000_000)...))
			return signTx(t, latest(t, cl), w, []sol.Instruction{limit, price, transferIx(w.PublicKey(), rich.PublicKey(), 1)})
		}},
		{name: "fee payer does not exist", code: -32002, txErr: `"AccountNotFound"`, build: func(t *testing.T) *sol.Transaction {
			ghost := newWallet(t, c, 0)
			return signTx(t, latest(t, cl), ghost, []sol.Instruction{transferIx(ghost.PublicKey(), rich.PublicKey(), 1)})
		}},
		{name: "transfer beyond the balance", code: -32002, txErr: `{"InstructionError":[0,{"Custom":1}]}`, message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1", build: func(t *testing.T) *sol.Transaction {
			w := newWallet(t, c, sol1)
			return signTx(t, latest(t, cl), w, []sol.Instruction{transferIx(w.PublicKey(), rich.PublicKey(), 2*sol1)})
		}},
		{name: "new account below rent exemption", code: -32002, txErr: `{"InsufficientFundsForRent":{"account_index":1}}`, build: func(t *testing.T) *sol.Transaction {
			return signTx(t, latest(t, cl), rich, []sol.Instruction{transferIx(rich.PublicKey(), newWallet(t, c, 0).PublicKey(), 1000)})
		}},
		{name: "missing signature in the instruction", code: -32002, txErr: `{"InstructionError":[0,"MissingRequiredSignature"]}`, build: func(t *testing.T) *sol.Transaction {
			victim := newWallet(t, c, sol1)
			ix := sol.NewInstruction(systemProgramID, sol.AccountMetaSlice{
				{PublicKey: victim.PublicKey(), IsWritable: true}, {PublicKey: rich.PublicKey(), IsWritable: true},
			}, sysIx(2, u64le(1)))
			return signTx(t, latest(t, cl), rich, []sol.Instruction{ix})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := c.LandedCount()
			_, err := send(cl, tc.build(t), tc.skip)
			if err == nil {
				t.Fatal("send succeeded, want an error")
			}
			re, txErr := rpcErr(t, err)
			if re.Code != tc.code {
				t.Errorf("code %d (%s), want %d", re.Code, re.Message, tc.code)
			}
			if tc.txErr != "" && txErr != tc.txErr {
				t.Errorf("data.err %s, want %s", txErr, tc.txErr)
			}
			if tc.message != "" && re.Message != tc.message {
				t.Errorf("message %q, want %q", re.Message, tc.message)
			}
			if c.LandedCount() != before {
				t.Errorf("a refused transaction landed")
			}
		})
	}
}

func TestDuplicate(t *testing.T) {
	c, cl := newTestChain(t)
	from := newWallet(t, c, 10*sol1)
	tx := signTx(t, latest(t, cl), from, []sol.Instruction{transferIx(from.PublicKey(), newWallet(t, c, 0).PublicKey(), sol1)})
	sig, err := send(cl, tx, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = send(cl, tx, false)
	if err == nil {
		t.Fatal("duplicate accepted with preflight")
	}
	re, txErr := rpcErr(t, err)
	if re.Code != -32002 || txErr != `"AlreadyProcessed"` {
		t.Errorf("duplicate: %d %s %s, want -32002 AlreadyProcessed", re.Code, re.Message, txErr)
	}
	// Without preflight the node accepts the copy and it does not land twice.
	again, err := send(cl, tx, true)
	if err != nil || again != sig {
		t.Errorf("resend with skipPreflight: %v %s, want the same signature", err, again)
	}
	if c.LandedCount() != 1 {
		t.Errorf("landed %d, want 1", c.LandedCount())
	}
}

func TestSkipPreflightFailureLands(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	w := newWallet(t, c, sol1)
	sig, err := send(cl, signTx(t, latest(t, cl), w, []sol.Instruction{transferIx(w.PublicKey(), newWallet(t, c, 0).PublicKey(), 5*sol1)}), true)
	if err != nil {
		t.Fatalf("skipPreflight send: %v", err)
	}
	st, err := cl.GetSignatureStatuses(ctx, true, sig)
	if err != nil {
		t.Fatal(err)
	}
	if st.Value[0] == nil || st.Value[0].Err == nil {
		t.Fatalf("status %+v, want a recorded error", st.Value[0])
	}
	b, _ := json.Marshal(st.Value[0].Err)
	if string(b) != `{"InstructionError":[0,{"Custom":1}]}` {
		t.Errorf("err %s", b)
	}
	if got := c.Balance(w.PublicKey()); got != sol1-5000 {
		t.Errorf("balance %d, want only the fee charged (%d)", got, sol1-5000)
	}
	// A stale blockhash with skipPreflight is accepted but never lands.
	bh := latest(t, cl)
	c.ExpireBlockhashes()
	sig2, err := send(cl, signTx(t, bh, w, []sol.Instruction{transferIx(w.PublicKey(), newWallet(t, c, 0).PublicKey(), 1)}), true)
	if err != nil {
		t.Fatal(err)
	}
	st, err = cl.GetSignatureStatuses(ctx, true, sig2)
	if err != nil || st.Value[0] != nil {
		t.Errorf("stale transaction status %+v %v, want null", st.Value[0], err)
	}
}

func TestSimulateAndFees(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	w := newWallet(t, c, sol1)
	limit := sol.NewInstruction(computeBudgetProgramID, nil, []byte{2, 0xa0, 0x86, 0x01, 0}) // 100_000
	price := sol.NewInstruction(computeBudgetProgramID, nil, append([]byte{3}, u64le(12_345)...))
	tx := signTx(t, latest(t, cl), w, []sol.Instruction{limit, price, transferIx(w.PublicKey(), c.Faucet().PublicKey(), 1000)})
	sim, err := cl.SimulateTransaction(ctx, tx)
	if err != nil || sim.Value.Err != nil {
		t.Fatalf("simulate: %v %+v", err, sim)
	}
	if len(sim.Value.Logs) == 0 || !strings.Contains(sim.Value.Logs[0], "invoke [1]") {
		t.Errorf("simulate logs %q", sim.Value.Logs)
	}
	fee, err := cl.GetFeeForMessage(ctx, tx.Message.ToBase64(), rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatal(err)
	}
	// 5000 per signature + ceil(100_000 * 12_345 / 1e6) = 1235.
	if fee.Value == nil || *fee.Value != 5000+1235 {
		t.Errorf("fee %v, want 6235", fee.Value)
	}
	if _, err := send(cl, tx, false); err != nil {
		t.Fatal(err)
	}
	if got := c.Balance(w.PublicKey()); got != sol1-6235-1000 {
		t.Errorf("balance %d, want %d", got, sol1-6235-1000)
	}
	if c.LandedCount() != 1 {
		t.Errorf("simulation landed")
	}
}

func TestRPCBasics(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	rent, err := cl.GetMinimumBalanceForRentExemption(ctx, 165, rpc.CommitmentConfirmed)
	if err != nil || rent != 2_039_280 {
		t.Errorf("rent for 165 bytes: %d %v, want 2039280", rent, err)
	}
	w := newWallet(t, c, 0)
	sig, err := cl.RequestAirdrop(ctx, w.PublicKey(), 2*sol1, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := cl.GetSignatureStatuses(ctx, false, sig); err != nil || st.Value[0] == nil {
		t.Errorf("airdrop status %v %v", st, err)
	}
	if got := c.Balance(w.PublicKey()); got != 2*sol1 {
		t.Errorf("airdrop balance %d", got)
	}
	bh := latest(t, cl)
	if ok, err := cl.IsBlockhashValid(ctx, bh, rpc.CommitmentConfirmed); err != nil || !ok.Value {
		t.Errorf("isBlockhashValid(latest) = %v %v", ok, err)
	}
	c.ExpireBlockhashes()
	if ok, err := cl.IsBlockhashValid(ctx, bh, rpc.CommitmentConfirmed); err != nil || ok.Value {
		t.Errorf("isBlockhashValid(expired) = %v %v", ok, err)
	}
	// The slot advances on its own.
	s0 := c.Slot()
	if !poll.True(5*time.Second, func() bool { return c.Slot() != s0 }) {
		t.Error("slot did not advance")
	}
	var re *jsonrpc.RPCError
	if err := cl.RPCCallForInto(ctx, new(any), "noSuchMethod", nil); !errors.As(err, &re) || re.Code != -32601 {
		t.Errorf("unknown method: %v, want -32601", err)
	}
	if _, err := cl.GetRecentPrioritizationFees(ctx, nil); err != nil {
		t.Errorf("getRecentPrioritizationFees: %v", err)
	}
	if v, err := cl.GetVersion(ctx); err != nil || v.SolanaCore == "" {
		t.Errorf("getVersion: %v %v", v, err)
	}
}

func TestLatencyAndPause(t *testing.T) {
	c, cl := newTestChain(t)
	c.SetLatency(80 * time.Millisecond)
	start := time.Now()
	if _, err := cl.GetSlot(context.Background(), rpc.CommitmentConfirmed); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("answer after %v, want the latency of 80ms", d)
	}
	c.SetLatency(0)
	c.Pause()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cl.GetSlot(ctx, rpc.CommitmentConfirmed); err == nil {
		t.Error("paused chain answered")
	}
	c.Resume()
	if _, err := cl.GetSlot(context.Background(), rpc.CommitmentConfirmed); err != nil {
		t.Errorf("after resume: %v", err)
	}
}

func decodeB64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

func parseU64(s string) uint64 {
	v, _ := strconv.ParseUint(s, 10, 64)
	return v
}

func TestHistoryLimit(t *testing.T) {
	// A slot clock too slow to tick during the test: the slots move only
	// when it says so.
	c, cl, _ := openServed(t, Config{SlotDuration: time.Hour, BlockhashValidSlots: 2, HistoryLimit: 3})
	from := newWallet(t, c, 10*sol1)
	var sigs []sol.Signature
	var txs []*sol.Transaction
	for i := range 8 {
		tx := signTx(t, latest(t, cl), from, []sol.Instruction{transferIx(from.PublicKey(), c.Faucet().PublicKey(), uint64(1000+i))})
		sig, err := send(cl, tx, false)
		if err != nil {
			t.Fatal(err)
		}
		sigs, txs = append(sigs, sig), append(txs, tx)
		if i < 5 {
			c.AdvanceSlot()
		}
	}
	// The history is trimmed to the limit when a slot begins; a trimmed
	// transaction whose blockhash is still valid keeps its status, so that
	// a replay is still caught and its status still answered. At the next
	// slot the three newest are kept whole, the fifth (its blockhash valid
	// one slot more) as a status, the older ones not at all.
	c.AdvanceSlot()
	known := func() (n int) {
		for _, sig := range sigs {
			if string(callRPC(t, c, "getTransaction", sig.String())) != "null" {
				n++
			}
		}
		return n
	}
	if n := known(); n != 3 {
		t.Errorf("%d transactions kept whole, want the limit, 3", n)
	}
	if got := string(callRPC(t, c, "getSignatureStatuses", []string{sigs[4].String()})); !strings.Contains(got, `"slot"`) {
		t.Errorf("status of a trimmed transaction within its blockhash's life: %.120s", got)
	}
	if got := string(callRPC(t, c, "getSignatureStatuses", []string{sigs[0].String()})); !strings.Contains(got, "[null]") {
		t.Errorf("status of a transaction whose blockhash expired: %.120s", got)
	}
	if _, err := send(cl, txs[4], false); err == nil || !strings.Contains(err.Error(), "lready") {
		t.Errorf("replay of a trimmed transaction within its blockhash's life: %v, want already processed", err)
	}
	for range 3 {
		c.AdvanceSlot()
	}
	c.mu.RLock()
	var kept []sol.Signature
	for _, r := range c.history {
		kept = append(kept, r.p.sig())
	}
	c.mu.RUnlock()
	if !slices.Equal(kept, sigs[len(sigs)-3:]) {
		t.Errorf("history %v once every blockhash expired, want the newest three, %v", kept, sigs[len(sigs)-3:])
	}
	for i, sig := range sigs {
		got := string(callRPC(t, c, "getTransaction", sig.String()))
		if want := i >= len(sigs)-3; (got != "null") != want {
			t.Errorf("getTransaction %d: %.40s, want a record %v", i, got, want)
		}
	}
	// The chain goes on landing transactions after a trim.
	tx := signTx(t, latest(t, cl), from, []sol.Instruction{transferIx(from.PublicKey(), c.Faucet().PublicKey(), 99)})
	if _, err := send(cl, tx, false); err != nil {
		t.Fatalf("transfer after the trim: %v", err)
	}
}
