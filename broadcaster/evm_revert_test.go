package broadcaster

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// revertingCode is creation code whose contract reverts every call with
// data.
func revertingCode(data []byte) []byte {
	n1, n0 := byte(len(data)>>8), byte(len(data))
	// CODECOPY the data after this prefix to memory, REVERT with it.
	return creation(append([]byte{0x61, n1, n0, 0x60, 14, 0x60, 0, 0x39, 0x61, n1, n0, 0x60, 0, 0xfd}, data...))
}

// creation is creation code that deploys runtime.
func creation(runtime []byte) []byte {
	r1, r0 := byte(len(runtime)>>8), byte(len(runtime))
	// CODECOPY the runtime after this prefix to memory, RETURN it.
	return append([]byte{0x61, r1, r0, 0x60, 14, 0x60, 0, 0x39, 0x61, r1, r0, 0x60, 0, 0xf3}, runtime...)
}

// errorData is Solidity's Error(string) encoding of reason.
func errorData(t *testing.T, reason string) []byte {
	t.Helper()
	typ, _ := abi.NewType("string", "", nil)
	args, err := abi.Arguments{{Type: typ}}.Pack(reason)
	if err != nil {
		t.Fatal(err)
	}
	return append(crypto.Keccak256([]byte("Error(string)"))[:4], args...)
}

// TestRevertReasonTold: a transaction that reverted on chain says why, as
// its replay on the state before its block tells: the contract's message,
// a known custom error by name, or that it ran out of gas.
func TestRevertReasonTold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(c.rpc, nil, EVMConfig{})
	deploy := func(nonce uint64, data []byte) common.Address {
		tx, _ := c.tx(t, nonce, nil, 0, 300_000, 1e9, revertingCode(data))
		if err := e.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
		return crypto.CreateAddress(c.from, nonce)
	}
	slippage := deploy(0, errorData(t, "Too little received"))
	short := deploy(1, append(crypto.Keccak256([]byte("ERC20InsufficientBalance(address,uint256,uint256)"))[:4], make([]byte, 96)...))
	hostile := deploy(2, errorData(t, "see http://x\x1b[31m\n"+strings.Repeat("a", 300)))
	c.backend.Commit()

	sold, _ := c.tx(t, 3, &slippage, 0, 100_000, 1e9, []byte{1, 2, 3, 4})
	spent, _ := c.tx(t, 4, &short, 0, 100_000, 1e9, nil)
	odd, _ := c.tx(t, 5, &hostile, 0, 100_000, 1e9, nil)
	// 21,000 and a few: the call runs out of gas before its first step.
	starved, _ := c.tx(t, 6, &slippage, 0, 21_020, 1e9, nil)
	// Each in a block of its own: one after the wallet's own transaction
	// in its block is given no reason (below).
	for _, tx := range []wire.SignedTx{sold, spent, odd, starved} {
		if err := e.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
		c.backend.Commit()
	}
	c.waitIndexed(t)
	sts, err := e.Statuses(ctx, []string{sold.Signature, spent.Signature, odd.Signature, starved.Signature})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"execution reverted: Too little received", "execution reverted: ERC20InsufficientBalance",
		"execution reverted: see http://x [31m aaa", "execution reverted: out of gas (all 21020 used)"}
	for i, st := range sts {
		if st.State != wire.StateFailed || !strings.HasPrefix(st.Err, want[i]) {
			t.Errorf("tx %d: %s %q, want failed %q", i, st.State, st.Err, want[i])
		}
	}
	if n := len([]rune(sts[2].Err)); n > len("execution reverted: ")+161 {
		t.Errorf("a contract's reason of 300 characters is shown in %d", n)
	}

	// A swap behind the wallet's own approval in one block, replayed on the
	// state before the block, would fail without the approval: for a reason
	// that is not its own. It is given none.
	approval, _ := c.tx(t, 7, &payee, 0, 21_000, 1e9, nil)
	behind, _ := c.tx(t, 8, &slippage, 0, 100_000, 1e9, []byte{1, 2, 3, 4})
	for _, tx := range []wire.SignedTx{approval, behind} {
		if err := e.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	c.waitPending(t, 9)
	c.backend.Commit()
	c.waitIndexed(t)
	if !poll.True(5*time.Second, func() bool {
		sts, err = e.Statuses(ctx, []string{approval.Signature, behind.Signature})
		return err == nil && sts[0].State != "" && sts[1].State != ""
	}) {
		t.Fatalf("the approval and the swap not found landed: %+v %v", sts, err)
	}
	if sts[0].Slot != sts[1].Slot {
		t.Fatalf("the approval and the swap in blocks %d and %d, want one", sts[0].Slot, sts[1].Slot)
	}
	if sts[1].Err != "execution reverted" {
		t.Fatalf("a revert behind the wallet's own transaction in its block: %+v, want no reason", sts[1])
	}
}

// TestEVMConfirmationsOutlastAReorg: with confirmations, a transaction in
// the head block is seen, not final, reverted or not: a reorg that takes
// its block out, another transaction taking its nonce on the new fork,
// leaves it unknown and then superseded once the rival's block is as deep
// as a receipt must be, where final at inclusion it was confirmed for good.
func TestEVMConfirmationsOutlastAReorg(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(c.rpc, nil, EVMConfig{Confirmations: 2})
	parent := c.backend.Commit()
	s, _ := c.tx(t, 0, &payee, 1, 21_000, 1e9, nil)
	reverts, _ := c.tx(t, 1, nil, 0, 100_000, 1e9, common.FromHex("0x60006000fd"))
	for _, tx := range []wire.SignedTx{s, reverts} {
		if err := e.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	c.waitPending(t, 2)
	c.backend.Commit()
	sts, err := e.Statuses(ctx, []string{s.Signature, reverts.Signature})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range sts {
		if st.State != "" || st.Slot == 0 {
			t.Fatalf("tx %d in the head block is %+v, want seen and not final", i, st)
		}
	}
	if err := c.backend.Fork(parent); err != nil {
		t.Fatal(err)
	}
	rival, _ := c.tx(t, 0, &payee, 2, 21_000, 5e9, nil)
	if !poll.True(5*time.Second, func() bool { return e.Send(ctx, rival) == nil }) {
		t.Fatal("the rival was not taken")
	}
	c.backend.Commit()
	c.backend.Commit()
	c.waitIndexed(t)
	sts, err = e.Statuses(ctx, []string{s.Signature})
	if err != nil || sts[0].State != "" || sts[0].Slot != 0 {
		t.Fatalf("after the reorg: %+v %v, want unknown", sts, err)
	}
	// The rival's block has one block on top of it, where a receipt needs
	// two: the nonce is not taken for good yet.
	if gone, err := e.Superseded(ctx, []wire.SignedTx{s}); err != nil || gone[0] {
		t.Fatalf("superseded %v %v by a block a reorg may still take out", gone, err)
	}
	c.backend.Commit()
	c.waitIndexed(t)
	if gone, err := e.Superseded(ctx, []wire.SignedTx{s}); err != nil || !gone[0] {
		t.Fatalf("superseded %v %v, want its nonce taken", gone, err)
	}

	// On the chain as it stands, a revert waits its confirmations too.
	next, err := ethclient.NewClient(c.rpc).PendingNonceAt(ctx, c.from)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.tx(t, next, nil, 0, 100_000, 1e9, common.FromHex("0x60006000fd"))
	if err := e.Send(ctx, again); err != nil {
		t.Fatal(err)
	}
	c.backend.Commit()
	if sts, _ := e.Statuses(ctx, []string{again.Signature}); sts[0].State != "" {
		t.Fatalf("a revert in the head block is %+v", sts[0])
	}
	c.backend.Commit()
	c.backend.Commit()
	if sts, _ := e.Statuses(ctx, []string{again.Signature}); sts[0].State != wire.StateFailed {
		t.Fatalf("a revert two blocks deep is %+v, want failed", sts[0])
	}
}

// TestRevertReasonAtItsBlock: a swap mined past its deadline says so (its
// replay runs with its block's number and time, where the block before's
// time would pass it), and one that reverted behind another wallet's
// transaction in its block, whose replay succeeds, says that is why. A
// node that takes no block overrides is asked the plain replay: a
// contract's message still told, a replay that succeeds telling nothing.
func TestRevertReasonAtItsBlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newEVMChain(t)
	e := NewEVM(c.rpc, nil, EVMConfig{})
	send := func(txs ...wire.SignedTx) {
		t.Helper()
		for _, tx := range txs {
			if err := e.Send(ctx, tx); err != nil {
				t.Fatal(err)
			}
		}
	}
	tooOld := errorData(t, "Transaction too old")
	n1, n0 := byte(len(tooOld)>>8), byte(len(tooOld))
	// Reverts with tooOld when its block's time is past the deadline in
	// the first word of its call data, as a router's deadline check does.
	deadlined := append([]byte{0x60, 0, 0x35, 0x42, 0x11, 0x60, 9, 0x57, 0x00, 0x5b,
		0x61, n1, n0, 0x60, 24, 0x60, 0, 0x39, 0x61, n1, n0, 0x60, 0, 0xfd}, tooOld...)
	// Called without data it raises a flag; with data it reverts, with no
	// reason, once the flag is up: a pool another trade has moved.
	flagged := []byte{0x36, 0x60, 10, 0x57, 0x60, 1, 0x60, 0, 0x55, 0x00,
		0x5b, 0x60, 0, 0x54, 0x60, 18, 0x57, 0x00, 0x5b, 0x60, 0, 0x80, 0xfd}
	tipTooHigh := errorData(t, "anti-bot: tip too high")
	t1, t0 := byte(len(tipTooHigh)>>8), byte(len(tipTooHigh))
	// Reverts with tipTooHigh when the call's gas price is over 2 gwei
	// above the block's base fee, as a token's check against snipers.
	tipChecked := append([]byte{0x3a, 0x48, 0x90, 0x03, 0x63, 0x77, 0x35, 0x94, 0x00, 0x10, 0x60, 14, 0x57, 0x00, 0x5b,
		0x61, t1, t0, 0x60, 29, 0x60, 0, 0x39, 0x61, t1, t0, 0x60, 0, 0xfd}, tipTooHigh...)
	rivalKey, _ := crypto.GenerateKey()
	rival := crypto.PubkeyToAddress(rivalKey.PublicKey)
	d, _ := c.tx(t, 0, nil, 0, 300_000, 1e9, creation(deadlined))
	f, _ := c.tx(t, 1, nil, 0, 300_000, 1e9, creation(flagged))
	m, _ := c.tx(t, 2, nil, 0, 300_000, 1e9, revertingCode(errorData(t, "Too little received")))
	fund, _ := c.tx(t, 3, &rival, 1e18, 21_000, 1e9, nil)
	tc, _ := c.tx(t, 4, nil, 0, 300_000, 1e9, creation(tipChecked))
	send(d, f, m, fund, tc)
	c.waitPending(t, 5)
	c.backend.Commit()
	router, pool, moved := crypto.CreateAddress(c.from, 0), crypto.CreateAddress(c.from, 1), crypto.CreateAddress(c.from, 2)
	token := crypto.CreateAddress(c.from, 4)

	// The deadline is the head's time: the block before the swap's passes
	// it, the swap's own block is later.
	head, err := ethclient.NewClient(c.rpc).HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	late, _ := c.tx(t, 5, &router, 0, 100_000, 1e9, common.LeftPadBytes(new(big.Int).SetUint64(head.Time).Bytes(), 32))
	send(late)
	c.waitPending(t, 6)
	c.backend.Commit()
	// Each in a block of its own: behind the wallet's own transaction in
	// its block, a revert is given no reason (TestRevertReasonTold).
	slipped, _ := c.tx(t, 6, &moved, 0, 100_000, 1e9, nil)
	send(slipped)
	c.waitPending(t, 7)
	c.backend.Commit()
	// Replayed without its price, it would run at a gas price and a base
	// fee of 0, pass the check, and be said to have met another trade.
	tipped, _ := c.tx(t, 7, &token, 0, 100_000, 3e9, nil)
	send(tipped)
	c.waitPending(t, 8)
	c.backend.Commit()

	// Another wallet's trade, paying more, ahead of the swap in its block.
	signed, err := types.SignNewTx(rivalKey, c.signer, &types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: 0,
		GasTipCap: big.NewInt(5e9), GasFeeCap: big.NewInt(500e9), Gas: 300_000, To: &pool})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := signed.MarshalBinary()
	ahead := wire.SignedTx{Wallet: rival.Hex(), Signature: signed.Hash().Hex(), Raw: raw}
	behind, _ := c.tx(t, 8, &pool, 0, 100_000, 1e9, []byte{1})
	send(ahead, behind)
	c.waitPending(t, 9)
	c.backend.Commit()
	c.waitIndexed(t)

	sigs := []string{late.Signature, slipped.Signature, ahead.Signature, behind.Signature, tipped.Signature}
	var sts []Status
	if !poll.True(5*time.Second, func() bool {
		sts, err = e.Statuses(ctx, sigs)
		return err == nil && !slices.ContainsFunc(sts, func(st Status) bool { return st.State == "" })
	}) {
		t.Fatalf("the transactions not found landed: %+v %v", sts, err)
	}
	if sts[2].State != wire.StateConfirmed || sts[2].Slot != sts[3].Slot {
		t.Fatalf("the rival's trade %+v and the swap behind it %+v: want the trade confirmed in the swap's block", sts[2], sts[3])
	}
	want := []string{"execution reverted: Transaction too old", "execution reverted: Too little received", "",
		"execution reverted: " + replayedFine, "execution reverted: anti-bot: tip too high"}
	for i, st := range sts {
		if want[i] != "" && (st.State != wire.StateFailed || st.Err != want[i]) {
			t.Errorf("tx %d: %s %q, want failed %q", i, st.State, st.Err, want[i])
		}
	}

	// A node that takes only the two arguments of the plain call.
	plain := NewEVM(twoArgCalls{c.rpc}, nil, EVMConfig{})
	sts, err = plain.Statuses(ctx, sigs)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"execution reverted", "execution reverted: Too little received", "", "execution reverted", ""}
	for i, st := range sts {
		if want[i] != "" && (st.State != wire.StateFailed || st.Err != want[i]) {
			t.Errorf("without block overrides, tx %d: %s %q, want failed %q", i, st.State, st.Err, want[i])
		}
	}
}

// twoArgCalls is a node that refuses an eth_call with state or block
// overrides, as go-ethereum's server refuses arguments a method lacks.
type twoArgCalls struct{ EVMRPC }

func (n twoArgCalls) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_call" && len(args) > 2 {
		return tooManyArgs{}
	}
	return n.EVMRPC.CallContext(ctx, result, method, args...)
}

type tooManyArgs struct{}

func (tooManyArgs) Error() string  { return "too many arguments, want at most 2" }
func (tooManyArgs) ErrorCode() int { return -32602 }
